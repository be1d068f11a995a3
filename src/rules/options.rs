//! The rules of a game as plain data: the variant, the player count and every rule option of
//! RULES.md, with the presets `rules=de|cz3|cz4` and the `key=value` parser of `newgame`.

use std::fmt;

use super::error::OptionError;
use super::geometry::Shape;

/// The three games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The classic tile game with a bag of 121 tiles.
    Classic,
    /// The paper-and-pencil dice game.
    Dice,
    /// The kids' game: values 0..5, limit 10.
    Kids,
}

/// Who earns a cross for the red centre (classic).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CenterCross {
    /// When the start move forms a run of 10 or more through the centre (DE).
    Scoring,
    /// The start move always earns one (CZ4).
    Always,
    /// Never (CZ3).
    Never,
}

/// How many tiles a player must place.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MustPlace {
    /// The valid moves of the largest size (DE).
    Maximum,
    /// The valid moves that no other valid move strictly contains (CZ3).
    Maximal,
}

/// Whether a tile that fits nowhere else may go on a double cell without 10 to 12.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ForcedDouble {
    /// Yes, earning no cross (DE, CZ3).
    Allow,
    /// Never (CZ4).
    Forbid,
}

/// What happens to tiles that could not be placed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Leftovers {
    /// DE: two or more kept tiles of which one fits: draw nothing; otherwise draw one.
    De,
    /// CZ3: kept tiles that fit: draw nothing; otherwise draw one.
    Cz3,
    /// CZ4: draw one while the hand is not empty.
    Cz4,
}

/// How the kids' game is scored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KidsScoring {
    /// 1, 2, 3 points for runs of 8, 9, 10, doubled on an extra cell.
    Points,
    /// A dot per run; the most dots in the 10 column wins.
    Dots,
}

/// A variant and all its rule options.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub variant: Variant,
    pub players: u8,
    pub center_cross: CenterCross,
    pub must_place: MustPlace,
    pub forced_double: ForcedDouble,
    pub leftovers: Leftovers,
    /// Row bonus by row; rows past the end keep the last value.
    pub bonus: Vec<u8>,
    /// End after this many rounds; 0 means no limit.
    pub rounds: u32,
    pub teams: bool,
    /// Side of the dice board.
    pub size: u8,
    /// Whether a dice number needs an occupied neighbour.
    pub adjacent: bool,
    pub scoring: KidsScoring,
}

const DEFAULT_BONUS: [u8; 13] = [3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6];

impl Rules {
    /// The default rules of a variant for a number of players (classic: DE).
    ///
    /// # Errors
    /// When `players` is not within 1..=6.
    pub fn new(variant: Variant, players: u8) -> Result<Rules, OptionError> {
        if !(1..=6).contains(&players) {
            return Err(OptionError::Players(players.into()));
        }
        Ok(Rules {
            variant,
            players,
            center_cross: CenterCross::Scoring,
            must_place: MustPlace::Maximum,
            forced_double: ForcedDouble::Allow,
            leftovers: Leftovers::De,
            bonus: DEFAULT_BONUS.to_vec(),
            rounds: 0,
            teams: false,
            size: match players {
                1 | 2 => 11,
                3 | 4 => 13,
                _ => 15,
            },
            adjacent: true,
            scoring: KidsScoring::Points,
        })
    }

    /// Rules from a variant, a player count and `key=value` options. `rules=` is applied first, so
    /// single options override it wherever they stand.
    ///
    /// # Errors
    /// An unknown option, a bad value, an option of another variant, teams without 4 or 6 players.
    pub fn with_options<'a>(
        variant: Variant,
        players: u8,
        options: impl IntoIterator<Item = (&'a str, &'a str)> + Clone,
    ) -> Result<Rules, OptionError> {
        let mut rules = Rules::new(variant, players)?;
        let mut seen: Vec<&str> = Vec::new();
        for (key, _) in options.clone() {
            if seen.contains(&key) {
                return Err(OptionError::Repeated(key.to_string()));
            }
            seen.push(key);
        }
        let (presets, singles): (Vec<_>, Vec<_>) = options.into_iter().partition(|(key, _)| *key == "rules");
        for (key, value) in presets.into_iter().chain(singles) {
            rules.set(key, value)?;
        }
        if rules.teams && rules.players != 4 && rules.players != 6 {
            return Err(OptionError::Teams(rules.players));
        }
        Ok(rules)
    }

    /// Sets one option.
    ///
    /// # Errors
    /// An unknown option, a bad value or an option that does not belong to this variant.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        use Variant::*;
        let bad = || OptionError::Value { key: key.to_string(), value: value.to_string() };
        let applies = match key {
            "rules" | "center_cross" | "forced_double" | "leftovers" | "teams" => self.variant == Classic,
            "size" | "adjacent" => self.variant == Dice,
            "scoring" => self.variant == Kids,
            "bonus" => self.variant != Kids,
            "must_place" | "rounds" => true,
            _ => return Err(OptionError::Unknown(key.to_string())),
        };
        if !applies {
            return Err(OptionError::NotForVariant { key: key.to_string(), variant: self.variant });
        }
        match key {
            "rules" => match value {
                "de" => {
                    self.center_cross = CenterCross::Scoring;
                    self.must_place = MustPlace::Maximum;
                    self.forced_double = ForcedDouble::Allow;
                    self.leftovers = Leftovers::De;
                }
                "cz3" => {
                    self.center_cross = CenterCross::Never;
                    self.must_place = MustPlace::Maximal;
                    self.forced_double = ForcedDouble::Allow;
                    self.leftovers = Leftovers::Cz3;
                }
                "cz4" => {
                    self.center_cross = CenterCross::Always;
                    self.must_place = MustPlace::Maximal;
                    self.forced_double = ForcedDouble::Forbid;
                    self.leftovers = Leftovers::Cz4;
                }
                _ => return Err(bad()),
            },
            "center_cross" => {
                self.center_cross = match value {
                    "scoring" => CenterCross::Scoring,
                    "always" => CenterCross::Always,
                    "never" => CenterCross::Never,
                    _ => return Err(bad()),
                }
            }
            "must_place" => {
                self.must_place = match value {
                    "maximum" => MustPlace::Maximum,
                    "maximal" => MustPlace::Maximal,
                    _ => return Err(bad()),
                }
            }
            "forced_double" => {
                self.forced_double = match value {
                    "allow" => ForcedDouble::Allow,
                    "forbid" => ForcedDouble::Forbid,
                    _ => return Err(bad()),
                }
            }
            "leftovers" => {
                self.leftovers = match value {
                    "de" => Leftovers::De,
                    "cz3" => Leftovers::Cz3,
                    "cz4" => Leftovers::Cz4,
                    _ => return Err(bad()),
                }
            }
            "bonus" => {
                let list: Option<Vec<u8>> = value
                    .split(',')
                    .map(|s| s.parse::<u8>().ok().filter(|&b| b <= 99 && !s.starts_with('+')))
                    .collect();
                self.bonus = list.filter(|l| !l.is_empty() && l.len() <= 64).ok_or_else(bad)?;
            }
            "rounds" => {
                self.rounds = value
                    .parse::<u32>()
                    .ok()
                    .filter(|&r| r <= 100_000 && !value.starts_with('+'))
                    .ok_or_else(bad)?
            }
            "teams" => self.teams = on_off(value).ok_or_else(bad)?,
            "adjacent" => self.adjacent = on_off(value).ok_or_else(bad)?,
            "size" => {
                self.size = value
                    .parse::<u8>()
                    .ok()
                    .filter(|&s| (3..=25).contains(&s) && s % 2 == 1 && !value.starts_with('+'))
                    .ok_or_else(bad)?
            }
            "scoring" => {
                self.scoring = match value {
                    "points" => KidsScoring::Points,
                    "dots" => KidsScoring::Dots,
                    _ => return Err(bad()),
                }
            }
            _ => unreachable!("every key was matched above"),
        }
        Ok(())
    }

    /// The board shape of these rules.
    pub fn shape(&self) -> Shape {
        match self.variant {
            Variant::Classic => Shape::Classic,
            Variant::Dice => Shape::Dice(self.size),
            Variant::Kids => Shape::Kids,
        }
    }

    /// The largest sum a run may have.
    pub fn limit(&self) -> u8 {
        match self.variant {
            Variant::Kids => 10,
            _ => 12,
        }
    }

    /// The smallest tile value.
    pub fn min_value(&self) -> u8 {
        match self.variant {
            Variant::Kids => 0,
            _ => 1,
        }
    }

    /// The largest tile value.
    pub fn max_value(&self) -> u8 {
        self.min_value() + 5
    }

    /// Whether a placement needs an occupied neighbour.
    pub fn needs_neighbour(&self) -> bool {
        match self.variant {
            Variant::Classic => true,
            Variant::Dice => self.adjacent,
            Variant::Kids => false,
        }
    }

    /// The bonus of a sheet row (0-based).
    pub fn bonus_of_row(&self, row: usize) -> u32 {
        let last = self.bonus.last().copied().unwrap_or(0);
        u32::from(self.bonus.get(row).copied().unwrap_or(last))
    }

    /// How many sheets the game keeps: one per seat, one per pair with teams.
    pub fn sheet_count(&self) -> usize {
        if self.teams {
            usize::from(self.players) / 2
        } else {
            usize::from(self.players)
        }
    }

    /// The sheet a seat (0-based) writes on.
    pub fn sheet_of_seat(&self, seat: usize) -> usize {
        if self.teams {
            seat / 2
        } else {
            seat
        }
    }

    /// The options as `key=value` fields in the fixed order of the position line.
    pub fn option_fields(&self) -> Vec<(&'static str, String)> {
        let bonus = self.bonus.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let must = match self.must_place {
            MustPlace::Maximum => "maximum",
            MustPlace::Maximal => "maximal",
        };
        match self.variant {
            Variant::Classic => vec![
                (
                    "center_cross",
                    match self.center_cross {
                        CenterCross::Scoring => "scoring",
                        CenterCross::Always => "always",
                        CenterCross::Never => "never",
                    }
                    .into(),
                ),
                ("must_place", must.into()),
                (
                    "forced_double",
                    match self.forced_double {
                        ForcedDouble::Allow => "allow",
                        ForcedDouble::Forbid => "forbid",
                    }
                    .into(),
                ),
                (
                    "leftovers",
                    match self.leftovers {
                        Leftovers::De => "de",
                        Leftovers::Cz3 => "cz3",
                        Leftovers::Cz4 => "cz4",
                    }
                    .into(),
                ),
                ("bonus", bonus),
                ("rounds", self.rounds.to_string()),
                ("teams", if self.teams { "on" } else { "off" }.into()),
            ],
            Variant::Dice => vec![
                ("size", self.size.to_string()),
                ("adjacent", if self.adjacent { "on" } else { "off" }.into()),
                ("must_place", must.into()),
                ("bonus", bonus),
                ("rounds", self.rounds.to_string()),
            ],
            Variant::Kids => vec![
                (
                    "scoring",
                    match self.scoring {
                        KidsScoring::Points => "points",
                        KidsScoring::Dots => "dots",
                    }
                    .into(),
                ),
                ("must_place", must.into()),
                ("rounds", self.rounds.to_string()),
            ],
        }
    }
}

fn on_off(value: &str) -> Option<bool> {
    match value {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

impl Variant {
    /// Parses `classic`, `dice` or `kids`.
    pub fn parse(name: &str) -> Option<Variant> {
        match name {
            "classic" => Some(Variant::Classic),
            "dice" => Some(Variant::Dice),
            "kids" => Some(Variant::Kids),
            _ => None,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Classic => "classic",
            Variant::Dice => "dice",
            Variant::Kids => "kids",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(variant: Variant, players: u8, opts: &[(&str, &str)]) -> Result<Rules, OptionError> {
        Rules::with_options(variant, players, opts.iter().copied())
    }

    #[test]
    fn presets_expand_and_single_options_override_them_wherever_they_stand() {
        let r = rules(Variant::Classic, 2, &[("forced_double", "allow"), ("rules", "cz4")]).unwrap();
        assert_eq!(r.center_cross, CenterCross::Always);
        assert_eq!(r.must_place, MustPlace::Maximal);
        assert_eq!(r.forced_double, ForcedDouble::Allow);
        assert_eq!(r.leftovers, Leftovers::Cz4);
        let r = rules(Variant::Classic, 2, &[("rules", "cz3")]).unwrap();
        assert_eq!(
            (r.center_cross, r.must_place, r.forced_double, r.leftovers),
            (CenterCross::Never, MustPlace::Maximal, ForcedDouble::Allow, Leftovers::Cz3)
        );
    }

    #[test]
    fn bad_options_are_rejected_with_their_reason() {
        assert_eq!(rules(Variant::Classic, 7, &[]), Err(OptionError::Players(7)));
        assert!(matches!(rules(Variant::Classic, 2, &[("colour", "red")]), Err(OptionError::Unknown(_))));
        assert!(matches!(rules(Variant::Dice, 2, &[("size", "12")]), Err(OptionError::Value { .. })));
        assert!(matches!(rules(Variant::Dice, 2, &[("size", "27")]), Err(OptionError::Value { .. })));
        assert!(matches!(
            rules(Variant::Kids, 2, &[("teams", "on")]),
            Err(OptionError::NotForVariant { .. })
        ));
        assert_eq!(rules(Variant::Classic, 3, &[("teams", "on")]), Err(OptionError::Teams(3)));
        assert!(matches!(
            rules(Variant::Classic, 2, &[("rounds", "3"), ("rounds", "4")]),
            Err(OptionError::Repeated(_))
        ));
        assert!(matches!(rules(Variant::Classic, 2, &[("bonus", "3,,4")]), Err(OptionError::Value { .. })));
    }

    #[test]
    fn dice_size_follows_the_player_count_and_bonus_rows_keep_the_last_value() {
        assert_eq!(Rules::new(Variant::Dice, 2).unwrap().size, 11);
        assert_eq!(Rules::new(Variant::Dice, 4).unwrap().size, 13);
        assert_eq!(Rules::new(Variant::Dice, 5).unwrap().size, 15);
        let r = Rules::new(Variant::Classic, 2).unwrap();
        let bonuses: Vec<u32> = (0..18).map(|row| r.bonus_of_row(row)).collect();
        assert_eq!(bonuses, [3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6]);
    }
}
