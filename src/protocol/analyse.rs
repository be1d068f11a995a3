//! `analyse`: every move of a game valued against the engine's best, turn by turn, as a job on the
//! search lane (PROTOCOL.md, `analyse`). Before each move the job searches the position as `go`
//! would under the same limits, then, when the move played is another, the move played alone
//! (`go ... searchmoves <played>`); it reports each turn as it is done ([`AnalysedTurn`], an
//! `info turn ...` line) and ends with the totals. The points lost and each seat's expected final
//! margin after the turn (the curve a chart draws) are computed here, once, for every client.
//! The job only reports values: the session writes the lines.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::rules::{Game, Move, Phase, Rules};
use crate::search::{self, Limits, Watch};

use super::command::Token;
use super::options::EngineOptions;
use super::reason::Reason;
use super::response::{Failure, Payload};

/// The limits of each search of an analysis, as `analyse` was given them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnLimits {
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

/// An analysis to run: the game from its start, checked already (the engine replays it before
/// the job starts), the limits of each search and the engine options in force.
#[derive(Debug)]
pub struct Analysis {
    rules: Rules,
    tokens: Vec<Token>,
    limits: TurnLimits,
    options: EngineOptions,
}

/// One analysed move, as the `info turn ...` line writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysedTurn {
    /// The protocol's turn number of the move.
    pub turn: u32,
    /// The seat that moved, from 1.
    pub seat: usize,
    /// The move played.
    pub played: Move,
    /// What it scored when it was played.
    pub points: u32,
    /// Its value: the expected final margin (alone: score), as `go` values moves.
    pub value: f64,
    /// The engine's best move.
    pub best: Move,
    /// What the best move would have scored.
    pub best_points: u32,
    /// The best move's value.
    pub best_value: f64,
    /// `best_value - value` in hundredths, never below 0, and 0 when the move played is the best.
    pub lost: f64,
    /// Each seat's expected final margin after this turn, by seat; `None` before anything is
    /// known of it ([`Curves`]).
    pub margins: Vec<Option<f64>>,
    /// The nodes of this turn's searches.
    pub nodes: u64,
}

impl AnalysedTurn {
    /// Whether the engine's best move is the move played.
    pub fn best_played(&self) -> bool {
        self.best == self.played
    }
}

impl fmt::Display for AnalysedTurn {
    /// The fields after `info [id <id>]`: `turn <t> seat <s> played <move> points <p> value <v>
    /// best <move> bestpoints <p> bestvalue <v> bestplayed yes|no lost <l> margins <m>,... nodes
    /// <n>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "turn {} seat {} played {} points {} value {} best {} bestpoints {} bestvalue {} \
             bestplayed {} lost {} margins ",
            self.turn,
            self.seat,
            self.played,
            self.points,
            two_places(self.value),
            self.best,
            self.best_points,
            two_places(self.best_value),
            if self.best_played() { "yes" } else { "no" },
            two_places(self.lost),
        )?;
        for (k, margin) in self.margins.iter().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            match margin {
                Some(m) => f.write_str(&two_places(*m))?,
                None => f.write_str("-")?,
            }
        }
        write!(f, " nodes {}", self.nodes)
    }
}

/// A number rounded to hundredths, as the protocol writes values.
fn hundredths(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A value as the protocol writes it: two decimals, and `0.00` for a value that rounds to zero
/// from below (never `-0.00`).
fn two_places(x: f64) -> String {
    let rounded = hundredths(x);
    format!("{:.2}", if rounded == 0.0 { 0.0 } else { rounded })
}

/// The points a move lost: `best - played` in hundredths, never below 0 (two searches may
/// disagree by a little), 0 when the move played is the best.
pub fn points_lost(best_played: bool, best: f64, played: f64) -> f64 {
    if best_played {
        0.0
    } else {
        hundredths(best - played).max(0.0)
    }
}

/// Each seat's expected final margin, turn by turn. The engine values a move for its mover: the
/// value of the move played is the margin of the mover's sheet (a team-mate's too). With two
/// sheets the other sheet's margin is its negation; with more, a seat keeps its last value (the
/// move says nothing new of it), and has none before its sheet's first move.
#[derive(Debug, Clone)]
pub struct Curves {
    /// The sheet of each seat.
    sheet_of: Vec<usize>,
    two_sheets: bool,
    last: Vec<Option<f64>>,
}

impl Curves {
    pub fn new(rules: &Rules) -> Curves {
        let players = usize::from(rules.players);
        let sheet_of: Vec<usize> = (0..players).map(|seat| rules.sheet_of_seat(seat)).collect();
        let mut sheets = sheet_of.clone();
        sheets.sort_unstable();
        sheets.dedup();
        Curves { sheet_of, two_sheets: sheets.len() == 2, last: vec![None; players] }
    }

    /// The margins after a move of `seat` (from 0) worth `value` to it.
    pub fn after(&mut self, seat: usize, value: f64) -> Vec<Option<f64>> {
        let mover = self.sheet_of.get(seat).copied();
        for (s, last) in self.last.iter_mut().enumerate() {
            if Some(self.sheet_of[s]) == mover {
                *last = Some(value);
            } else if self.two_sheets {
                *last = Some(-value);
            }
        }
        self.last.clone()
    }
}

impl Analysis {
    /// An analysis of the game `tokens` replays from the start of `rules`.
    pub fn new(rules: Rules, tokens: Vec<Token>, limits: TurnLimits, options: EngineOptions) -> Analysis {
        Analysis { rules, tokens, limits, options }
    }

    /// How many moves the game has: the turns to analyse.
    fn moves(&self) -> usize {
        self.tokens.iter().filter(|t| matches!(t, Token::Move(_))).count()
    }

    /// Runs the analysis to its end or until `stop`; `turn` receives each turn as it is done. The
    /// payload: `analysed <k> of <n> lost <seat 1>,<seat 2>,... nodes <n>`, then ` stopped` when
    /// `stop` ended it (the turn being searched then is dropped).
    ///
    /// # Errors
    /// Only on a bug: the game was checked before the job started.
    pub fn run(&self, stop: &AtomicBool, turn: &mut dyn FnMut(AnalysedTurn)) -> Result<Payload, Failure> {
        let players = usize::from(self.rules.players);
        let total = self.moves();
        let options = self.options.search_options();
        let mut game = Game::new(self.rules.clone());
        let mut watch = Watch::default();
        let mut curves = Curves::new(&self.rules);
        let mut lost = vec![0.0; players];
        let (mut done, mut nodes) = (0, 0u64);
        let replay =
            |why: String| Failure::new(Reason::Internal, format!("analyse: the replay failed: {why}"));
        for token in &self.tokens {
            let raw = match token {
                Token::Draw(values) => {
                    game.draw(values).map_err(|e| replay(e.to_string()))?;
                    continue;
                }
                Token::Move(raw) => raw,
            };
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let before = game.position().clone();
            let played = raw.resolve(&before).map_err(|e| replay(e.to_string()))?;
            if before.phase() != Phase::Place {
                return Err(replay(format!("{played} where no move is due")));
            }
            let limits = Limits {
                movetime: self.limits.movetime.map(Duration::from_millis),
                nodes: self.limits.nodes,
                depth: self.limits.depth,
                models: watch.models(&game),
                ..Limits::default()
            };
            let Some(best) = search::run(&before, &limits, &options, stop, &mut |_| {}) else {
                return Err(Failure::new(Reason::Internal, "analyse: the search found no move to make"));
            };
            let mut turn_nodes = best.nodes;
            let best_played = best.best == played;
            let value = if best_played {
                best.score
            } else {
                let only = Limits { searchmoves: Some(vec![played.clone()]), ..limits };
                let Some(searched) = search::run(&before, &only, &options, stop, &mut |_| {}) else {
                    return Err(Failure::new(Reason::Internal, "analyse: the search found no move to make"));
                };
                turn_nodes += searched.nodes;
                searched.score
            };
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let rules = before.rules();
            let points_of = |mv: &Move| before.score_move(mv).map(|s| s.points(rules)).unwrap_or(0);
            let seat = before.to_move();
            let analysed = AnalysedTurn {
                turn: before.turn(),
                seat: seat + 1,
                points: points_of(&played),
                value,
                best_points: points_of(&best.best),
                best_value: best.score,
                lost: points_lost(best_played, best.score, value),
                margins: curves.after(seat, value),
                nodes: turn_nodes,
                best: best.best,
                played: played.clone(),
            };
            if let Some(sum) = lost.get_mut(seat) {
                *sum += analysed.lost;
            }
            done += 1;
            nodes += turn_nodes;
            turn(analysed);
            game.play(&played).map_err(|e| replay(e.to_string()))?;
        }
        let lost: Vec<String> = lost.iter().map(|&l| two_places(l)).collect();
        let stopped = if done < total { " stopped" } else { "" };
        Ok(Payload::Text(format!(
            "analysed {done} of {total} lost {} nodes {nodes}{stopped}",
            lost.join(",")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn a_loss_is_never_below_zero_and_nothing_when_the_best_was_played() {
        assert_eq!(points_lost(false, 3.0, 1.25), 1.75);
        assert_eq!(points_lost(false, 1.0, 1.5), 0.0);
        assert_eq!(points_lost(true, 3.0, 1.0), 0.0);
    }

    #[test]
    fn values_are_written_to_two_places_and_never_as_minus_zero() {
        assert_eq!(two_places(-0.001), "0.00");
        assert_eq!(two_places(-0.0), "0.00");
        assert_eq!(two_places(-0.006), "-0.01");
        assert_eq!(two_places(12.346), "12.35");
    }

    #[test]
    fn two_sheets_mirror_each_other_more_keep_their_last_value_teams_share_theirs() {
        let rules = |players: u8, options: &[(&str, &str)]| {
            Rules::with_options(Variant::Classic, players, options.iter().copied()).expect("rules")
        };
        let mut two = Curves::new(&rules(2, &[]));
        assert_eq!(two.after(0, 3.0), [Some(3.0), Some(-3.0)]);
        assert_eq!(two.after(1, 5.0), [Some(-5.0), Some(5.0)]);
        let mut three = Curves::new(&rules(3, &[]));
        assert_eq!(three.after(0, 3.0), [Some(3.0), None, None]);
        assert_eq!(three.after(1, 5.0), [Some(3.0), Some(5.0), None]);
        // Seats 1 and 2 write on one sheet, seats 3 and 4 on the other.
        let mut teams = Curves::new(&rules(4, &[("teams", "on")]));
        assert_eq!(teams.after(0, 2.0), [Some(2.0), Some(2.0), Some(-2.0), Some(-2.0)]);
        assert_eq!(teams.after(2, 4.0), [Some(-4.0), Some(-4.0), Some(4.0), Some(4.0)]);
    }
}
