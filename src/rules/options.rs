//! The rules of a game as plain data: the variant, the player count and every rule option of
//! docs/rules.md (its section 7 lists them). Each option is named, parsed, printed and described
//! in one table ([`RULE_OPTIONS`]), which serves `newgame`, the position line, and the description
//! a new-game dialog reads ([`option_specs`]).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::error::NotATile;
use super::geometry::Shape;
use super::number::parse_number;

/// A rule option that cannot be set.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionError {
    #[error("players must be 1 to 6, not {0}")]
    Players(u32),
    #[error("unknown rule option '{0}'")]
    Unknown(String),
    #[error("bad value '{value}' for rule option '{key}'")]
    Value { key: String, value: String },
    #[error("rule option '{key}' does not apply to the {variant} game")]
    NotForVariant { key: String, variant: Variant },
    #[error("rule option '{0}' is given twice")]
    Repeated(String),
    #[error("teams need 4 or 6 players, not {0}")]
    Teams(u8),
}

/// Defines a choice value: its variants with their names, `ALL`, `name`, `Display` and `FromStr`
/// (the name is the only spelling, so printing and parsing cannot disagree).
macro_rules! choice {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every value, in the order the option's description lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The names of [`Self::ALL`], in the same order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The value's name in `newgame` and the position line.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = ();

            fn from_str(s: &str) -> Result<$name, ()> {
                $name::ALL.iter().copied().find(|v| v.name() == s).ok_or(())
            }
        }
    };
}

choice! {
    /// The three games.
    Variant {
        /// The classic tile game with a bag of 121 tiles.
        Classic = "classic",
        /// The paper-and-pencil dice game.
        Dice = "dice",
        /// The kids' game: values 0..5, limit 10.
        Kids = "kids",
    }
}

choice! {
    /// Who earns a cross for the red centre (classic).
    CenterCross {
        /// When the start move forms a run of 10 or more through the centre (DE).
        Scoring = "scoring",
        /// The start move always earns one (CZ4).
        Always = "always",
        /// Never (CZ3).
        Never = "never",
    }
}

choice! {
    /// How many tiles a player must place.
    MustPlace {
        /// The valid moves of the largest size (DE).
        Maximum = "maximum",
        /// The valid moves that no other valid move strictly contains (CZ3).
        Maximal = "maximal",
    }
}

choice! {
    /// Whether a tile that fits nowhere else may go on a double cell without 10 to 12.
    ForcedDouble {
        /// Yes, earning no cross (DE, CZ3).
        Allow = "allow",
        /// Never (CZ4).
        Forbid = "forbid",
    }
}

choice! {
    /// What happens to tiles that could not be placed.
    Leftovers {
        /// DE: two or more kept tiles of which one fits: draw nothing; otherwise draw one.
        De = "de",
        /// CZ3: kept tiles that fit: draw nothing; otherwise draw one.
        Cz3 = "cz3",
        /// CZ4: draw one while the hand is not empty.
        Cz4 = "cz4",
    }
}

choice! {
    /// How the kids' game is scored.
    KidsScoring {
        /// 1, 2, 3 points for runs of 8, 9, 10, doubled on an extra cell.
        Points = "points",
        /// A dot per run; the most dots in the 10 column wins.
        Dots = "dots",
    }
}

choice! {
    /// The classic presets of `rules=`: each sets `center_cross`, `must_place`, `forced_double`
    /// and `leftovers` at once.
    Preset {
        /// The German rules (the default).
        De = "de",
        /// The Czech rules of the 3-player edition.
        Cz3 = "cz3",
        /// The Czech rules of the 4-player edition.
        Cz4 = "cz4",
    }
}

choice! {
    /// An on/off option (`teams`, `adjacent`).
    Switch {
        /// `on`.
        On = "on",
        /// `off`.
        Off = "off",
    }
}

impl Switch {
    fn of(on: bool) -> Switch {
        if on {
            Switch::On
        } else {
            Switch::Off
        }
    }
}

impl Preset {
    /// The options the preset sets, with their values, in the order of the position line: the
    /// `presets` of [`RULE_OPTIONS`].
    pub fn settings(self) -> Vec<(&'static OptionDef, &'static str)> {
        let index = Preset::ALL.iter().position(|&p| p == self).unwrap_or(0);
        RULE_OPTIONS.iter().filter_map(|def| Some((def, *def.presets?.get(index)?))).collect()
    }
}

/// The values a rule option takes, as a new-game dialog needs them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One of these names.
    Choice(&'static [&'static str]),
    /// An integer from `min` to `max`.
    Range { min: u32, max: u32 },
    /// An odd integer from `min` to `max`.
    Odd { min: u32, max: u32 },
    /// 1 to `max_len` integers from `min` to `max`, joined by `,`.
    List { min: u32, max: u32, max_len: usize },
}

impl OptionKind {
    /// Whether `value` is one this kind takes (integers without sign, in their range).
    pub fn accepts(self, value: &str) -> bool {
        let number =
            |s: &str, min: u32, max: u32| parse_number::<u32>(s).is_some_and(|n| (min..=max).contains(&n));
        match self {
            OptionKind::Choice(names) => names.contains(&value),
            OptionKind::Range { min, max } => number(value, min, max),
            OptionKind::Odd { min, max } => {
                number(value, min, max) && parse_number::<u32>(value).is_some_and(|n| n % 2 == 1)
            }
            OptionKind::List { min, max, max_len } => {
                let items = value.split(',');
                items.clone().count() <= max_len && items.into_iter().all(|s| number(s, min, max))
            }
        }
    }
}

impl fmt::Display for OptionKind {
    /// `choice <v>,<v>,...`, `range <lo>-<hi>`, `odd <lo>-<hi>` or `list <lo>-<hi>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Choice(names) => write!(f, "choice {}", names.join(",")),
            OptionKind::Range { min, max } => write!(f, "range {min}-{max}"),
            OptionKind::Odd { min, max } => write!(f, "odd {min}-{max}"),
            OptionKind::List { min, max, .. } => write!(f, "list {min}-{max}"),
        }
    }
}

/// What a new-game dialog needs to know of one rule option in one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option.
    pub option: &'static OptionDef,
    /// Its default with the default player count ([`Rules::DEFAULT_PLAYERS`]).
    pub default: String,
    /// When the default depends on the player count: the default for 1, 2, ... 6 players.
    pub by_players: Option<Vec<String>>,
    /// The values it takes.
    pub kind: OptionKind,
    /// When it may be turned on only with some player counts (teams: 4 or 6), those counts.
    pub players: Option<&'static [u8]>,
}

impl fmt::Display for OptionSpec {
    /// `<name> default <value> <kind> [players <n>,<n>] [by_players <v>,<v>,...]`: the `rule`
    /// line of `variants` without its keyword.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} default {} {}", self.option.name, self.default, self.kind)?;
        if let Some(players) = self.players {
            let list: Vec<String> = players.iter().map(u8::to_string).collect();
            write!(f, " players {}", list.join(","))?;
        }
        if let Some(values) = &self.by_players {
            write!(f, " by_players {}", values.join(","))?;
        }
        Ok(())
    }
}

/// One rule option, defined once: its name, the variants it applies to, the values it takes,
/// the values the presets give it, its one-line explanation, and how it reads and writes
/// [`Rules`]. `newgame`, the position line, `variants` and PROTOCOL.md's table of rule options
/// follow from [`RULE_OPTIONS`]; the defaults are those of [`Rules::new`].
#[derive(Clone, Copy)]
pub struct OptionDef {
    /// The name in `newgame` and the position line.
    pub name: &'static str,
    /// The variants it applies to.
    pub variants: &'static [Variant],
    /// The values it takes.
    pub kind: OptionKind,
    /// The values the presets `de`, `cz3`, `cz4` give it (in the order of [`Preset::ALL`]), when
    /// they set it.
    pub presets: Option<[&'static str; 3]>,
    /// When it may be turned on only with some player counts (teams: 4 or 6), those counts.
    pub players: Option<&'static [u8]>,
    /// What it does, in one line.
    pub help: &'static str,
    /// Its value in these rules (the preset: the preset the rules match, if any).
    get: fn(&Rules) -> Option<String>,
    /// Sets it from a value [`OptionDef::kind`] accepts; `None` when the value cannot be read.
    set: fn(&mut Rules, &str) -> Option<()>,
}

impl fmt::Debug for OptionDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq for OptionDef {
    fn eq(&self, other: &OptionDef) -> bool {
        self.name == other.name
    }
}

impl Eq for OptionDef {}

impl fmt::Display for OptionDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// The player counts teams allow.
const TEAM_PLAYERS: &[u8] = &[4, 6];

/// The most rows `bonus` may list.
const MAX_BONUS_ROWS: usize = 64;

const CLASSIC: &[Variant] = &[Variant::Classic];
const ALL_VARIANTS: &[Variant] = &[Variant::Classic, Variant::Dice, Variant::Kids];

/// Reads a choice value (a type of `choice!`).
fn choice<T: FromStr>(value: &str) -> Option<T> {
    value.parse().ok()
}

/// Every rule option, in the order the position line writes them (each variant writes those that
/// apply to it; the preset `rules` is written expanded, as its options).
pub static RULE_OPTIONS: [OptionDef; 11] = [
    OptionDef {
        name: "rules",
        variants: CLASSIC,
        kind: OptionKind::Choice(Preset::NAMES),
        presets: None,
        players: None,
        help: "a preset: de (the German rules), cz3, cz4 (the Czech rules of the 3- and 4-player editions); sets the options with values under de / cz3 / cz4, before the single options",
        get: |r| {
            let matches =
                |p: &Preset| p.settings().iter().all(|(def, value)| (def.get)(r).as_deref() == Some(*value));
            Preset::ALL.iter().find(|p| matches(p)).map(ToString::to_string)
        },
        set: |r, v| {
            for (def, value) in choice::<Preset>(v)?.settings() {
                (def.set)(r, value)?;
            }
            Some(())
        },
    },
    OptionDef {
        name: "scoring",
        variants: &[Variant::Kids],
        kind: OptionKind::Choice(KidsScoring::NAMES),
        presets: None,
        players: None,
        help: "points: 1, 2, 3 points for runs of 8, 9, 10, doubled for a move with a value on an extra cell; dots: a dot per run, the most dots in the 10 column win",
        get: |r| Some(r.scoring.to_string()),
        set: |r, v| choice(v).map(|x| r.scoring = x),
    },
    OptionDef {
        name: "size",
        variants: &[Variant::Dice],
        kind: OptionKind::Odd { min: 3, max: 25 },
        presets: None,
        players: None,
        help: "the side of the square board",
        get: |r| Some(r.size.to_string()),
        set: |r, v| parse_number(v).map(|x| r.size = x),
    },
    OptionDef {
        name: "adjacent",
        variants: &[Variant::Dice],
        kind: OptionKind::Choice(Switch::NAMES),
        presets: None,
        players: None,
        help: "on: a number goes next to an occupied cell; off: on any empty cell",
        get: |r| Some(Switch::of(r.adjacent).to_string()),
        set: |r, v| choice::<Switch>(v).map(|x| r.adjacent = x == Switch::On),
    },
    OptionDef {
        name: "center_cross",
        variants: CLASSIC,
        kind: OptionKind::Choice(CenterCross::NAMES),
        presets: Some(["scoring", "never", "always"]),
        players: None,
        help: "the centre's cross: scoring (the start move earns it with a run of 10 or more through the centre), always (the start move always does), never",
        get: |r| Some(r.center_cross.to_string()),
        set: |r, v| choice(v).map(|x| r.center_cross = x),
    },
    OptionDef {
        name: "must_place",
        variants: ALL_VARIANTS,
        kind: OptionKind::Choice(MustPlace::NAMES),
        presets: Some(["maximum", "maximal", "maximal"]),
        players: None,
        help: "maximum: a move places as many tiles as the largest legal move; maximal: a move to which no tile of the hand can be added",
        get: |r| Some(r.must_place.to_string()),
        set: |r, v| choice(v).map(|x| r.must_place = x),
    },
    OptionDef {
        name: "forced_double",
        variants: CLASSIC,
        kind: OptionKind::Choice(ForcedDouble::NAMES),
        presets: Some(["allow", "allow", "forbid"]),
        players: None,
        help: "allow: a tile that fits nowhere else may go on a double cell without a run of 10 to 12, earning no cross; forbid: never",
        get: |r| Some(r.forced_double.to_string()),
        set: |r, v| choice(v).map(|x| r.forced_double = x),
    },
    OptionDef {
        name: "leftovers",
        variants: CLASSIC,
        kind: OptionKind::Choice(Leftovers::NAMES),
        presets: Some(["de", "cz3", "cz4"]),
        players: None,
        help: "the draw after kept tiles: de (two or more kept of which one fits: none, else one), cz3 (kept tiles that fit: none, else one), cz4 (one while the hand is not empty)",
        get: |r| Some(r.leftovers.to_string()),
        set: |r, v| choice(v).map(|x| r.leftovers = x),
    },
    OptionDef {
        name: "bonus",
        variants: &[Variant::Classic, Variant::Dice],
        kind: OptionKind::List { min: 0, max: 99, max_len: MAX_BONUS_ROWS },
        presets: None,
        players: None,
        help: "the bonus of a full row, row by row from the top (1 to 64 values); rows past the list keep its last value",
        get: |r| Some(r.bonus.iter().map(u8::to_string).collect::<Vec<_>>().join(",")),
        set: |r, v| v.split(',').map(parse_number).collect::<Option<_>>().map(|x| r.bonus = x),
    },
    OptionDef {
        name: "rounds",
        variants: ALL_VARIANTS,
        kind: OptionKind::Range { min: 0, max: 100_000 },
        presets: None,
        players: None,
        help: "the game ends after this many rounds (0: no limit)",
        get: |r| Some(r.rounds.to_string()),
        set: |r, v| parse_number(v).map(|x| r.rounds = x),
    },
    OptionDef {
        name: "teams",
        variants: CLASSIC,
        // The default first, as in every other choice.
        kind: OptionKind::Choice(&["off", "on"]),
        presets: None,
        players: Some(TEAM_PLAYERS),
        help: "on: partners (seats 1+2, 3+4, 5+6) write on one sheet",
        get: |r| Some(Switch::of(r.teams).to_string()),
        set: |r, v| choice::<Switch>(v).map(|x| r.teams = x == Switch::On),
    },
];

impl OptionDef {
    /// The option of this name.
    pub fn find(name: &str) -> Option<&'static OptionDef> {
        RULE_OPTIONS.iter().find(|def| def.name == name)
    }

    /// Whether the option belongs to a variant.
    pub fn applies_to(&self, variant: Variant) -> bool {
        self.variants.contains(&variant)
    }

    /// Whether the position line writes the option (the preset is written expanded).
    fn is_field(&self) -> bool {
        self.name != "rules"
    }

    /// The option's value in these rules; for the preset, the preset the rules match, if any.
    pub fn value(&self, rules: &Rules) -> Option<String> {
        (self.get)(rules)
    }

    /// Sets the option from its text. The value is checked against [`OptionDef::kind`] first,
    /// so what the description says is what is accepted.
    fn set(&self, rules: &mut Rules, value: &str) -> Result<(), OptionError> {
        let bad = || OptionError::Value { key: self.name.to_string(), value: value.to_string() };
        if !self.kind.accepts(value) {
            return Err(bad());
        }
        // `accepts` has checked the value: a read that fails still answers `bad`.
        (self.set)(rules, value).ok_or_else(bad)
    }

    /// The option as a new-game dialog sees it in a variant; its defaults are those of
    /// [`Rules::new`].
    pub fn spec(&'static self, variant: Variant) -> OptionSpec {
        let default_of = |players: u8| {
            Rules::new(variant, players).ok().and_then(|rules| self.value(&rules)).unwrap_or_default()
        };
        let all: Vec<String> = Rules::PLAYERS.map(default_of).collect();
        let by_players = all.iter().any(|v| *v != all[0]).then_some(all);
        OptionSpec {
            option: self,
            default: default_of(Rules::DEFAULT_PLAYERS),
            by_players,
            kind: self.kind,
            players: self.players,
        }
    }
}

/// PROTOCOL.md's table of rule options, as its section "Rule options" holds it: one row per
/// option, from [`RULE_OPTIONS`] and the defaults of [`Rules::new`].
pub fn option_table() -> String {
    let mut lines = vec![
        "| option | variants | values | default | de / cz3 / cz4 | what it does |".to_owned(),
        "|---|---|---|---|---|---|".to_owned(),
    ];
    for def in &RULE_OPTIONS {
        let variants: Vec<String> = def.variants.iter().map(ToString::to_string).collect();
        let spec = def.spec(def.variants[0]);
        let default = match &spec.by_players {
            Some(values) => format!("`{}` for 1 to 6 players", values.join(",")),
            None => format!("`{}`", spec.default),
        };
        let mut values = format!("`{}`", def.kind);
        if let Some(players) = def.players {
            let list: Vec<String> = players.iter().map(u8::to_string).collect();
            values.push_str(&format!(", `on` with {} players", list.join(" or ")));
        }
        let presets = def.presets.map_or_else(|| "-".to_owned(), |p| format!("`{}`", p.join("` / `")));
        lines.push(format!(
            "| `{}` | {} | {values} | {default} | {presets} | {} |",
            def.name,
            variants.join(", "),
            def.help
        ));
    }
    lines.join("\n")
}

impl Variant {
    /// Parses `classic`, `dice` or `kids`.
    pub fn parse(name: &str) -> Option<Variant> {
        name.parse().ok()
    }

    /// Every rule option of the variant with its default and the values it takes, in the order
    /// of the position line (the preset first).
    pub fn option_specs(self) -> Vec<OptionSpec> {
        RULE_OPTIONS.iter().filter(|o| o.applies_to(self)).map(|o| o.spec(self)).collect()
    }
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
    /// The player counts every variant allows.
    pub const PLAYERS: std::ops::RangeInclusive<u8> = 1..=6;

    /// The player count of a new game that names none.
    pub const DEFAULT_PLAYERS: u8 = 2;

    /// The default rules of a variant for a number of players (classic: DE).
    ///
    /// # Errors
    /// When `players` is not within 1..=6.
    pub fn new(variant: Variant, players: u8) -> Result<Rules, OptionError> {
        if !Rules::PLAYERS.contains(&players) {
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
        if rules.teams && !TEAM_PLAYERS.contains(&rules.players) {
            return Err(OptionError::Teams(rules.players));
        }
        Ok(rules)
    }

    /// Sets one option. Private: only [`Rules::with_options`] sets options, and checks afterwards
    /// what holds between them (teams need 4 or 6 players).
    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let option = OptionDef::find(key).ok_or_else(|| OptionError::Unknown(key.to_string()))?;
        if !option.applies_to(self.variant) {
            return Err(OptionError::NotForVariant { key: key.to_string(), variant: self.variant });
        }
        option.set(self, value)
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

    /// Checks that the game has tiles of `value`: the one check of a value given in a draw, a
    /// move or a position line.
    ///
    /// # Errors
    /// [`NotATile`] when the value is out of [`Rules::min_value`] to [`Rules::max_value`].
    pub fn check_tile(&self, value: u8) -> Result<u8, NotATile> {
        let (min, max) = (self.min_value(), self.max_value());
        if (min..=max).contains(&value) {
            Ok(value)
        } else {
            Err(NotATile { value, min, max })
        }
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
        RULE_OPTIONS
            .iter()
            .filter(|o| o.is_field() && o.applies_to(self.variant))
            .filter_map(|o| Some((o.name, o.value(self)?)))
            .collect()
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

    #[test]
    fn every_option_value_printed_parses_back_to_the_same_rules() {
        for &variant in Variant::ALL {
            for players in Rules::PLAYERS {
                let rules = Rules::new(variant, players).unwrap();
                let fields = rules.option_fields();
                let back =
                    Rules::with_options(variant, players, fields.iter().map(|(k, v)| (*k, v.as_str())));
                assert_eq!(back, Ok(rules.clone()));
                for spec in variant.option_specs() {
                    if let OptionKind::Choice(names) = spec.kind {
                        for name in names {
                            let mut changed = rules.clone();
                            let result = changed.set(spec.option.name, name);
                            assert_eq!(result, Ok(()), "{} {name}", spec.option);
                            assert_eq!(spec.option.value(&changed).as_deref(), Some(*name));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_option_description_gives_defaults_kinds_and_constraints() {
        let lines = |v: Variant| v.option_specs().iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(
            lines(Variant::Classic),
            [
                "rules default de choice de,cz3,cz4",
                "center_cross default scoring choice scoring,always,never",
                "must_place default maximum choice maximum,maximal",
                "forced_double default allow choice allow,forbid",
                "leftovers default de choice de,cz3,cz4",
                "bonus default 3,3,3,3,4,4,4,4,5,5,5,5,6 list 0-99",
                "rounds default 0 range 0-100000",
                "teams default off choice off,on players 4,6",
            ]
        );
        assert_eq!(
            lines(Variant::Dice),
            [
                "size default 11 odd 3-25 by_players 11,11,13,13,15,15",
                "adjacent default on choice on,off",
                "must_place default maximum choice maximum,maximal",
                "bonus default 3,3,3,3,4,4,4,4,5,5,5,5,6 list 0-99",
                "rounds default 0 range 0-100000",
            ]
        );
        assert_eq!(
            lines(Variant::Kids),
            [
                "scoring default points choice points,dots",
                "must_place default maximum choice maximum,maximal",
                "rounds default 0 range 0-100000",
            ]
        );
    }

    #[test]
    fn the_kinds_accept_exactly_what_the_setters_accept() {
        let size = OptionDef::find("size").unwrap().kind;
        assert!(size.accepts("3") && size.accepts("25") && !size.accepts("4") && !size.accepts("27"));
        assert!(!size.accepts("+5") && !size.accepts(""));
        let bonus = OptionDef::find("bonus").unwrap().kind;
        assert!(bonus.accepts("0,99") && !bonus.accepts("3,,4") && !bonus.accepts("100"));
        assert!(bonus.accepts(&vec!["1"; 64].join(",")) && !bonus.accepts(&vec!["1"; 65].join(",")));
    }
}
