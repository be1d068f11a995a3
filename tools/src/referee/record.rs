//! The record of one game, one JSON object a line in `--records` files, and reading such files
//! back for `merge`.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::game::{End, Played, SeatResult};

/// One game as a line of a records file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The game's index in the whole match (0-based), the same whatever the shard.
    pub game: u64,
    /// The index of its group of games with the same draws (a pair for two engines).
    pub pair: u64,
    /// The seed of the pair's draws (also sent to the engines as `newgame seed`).
    pub seed: u64,
    /// The engines' command lines, by seat.
    pub engines: Vec<String>,
    /// The engines' indices in the order of `--engine`, by seat.
    pub seating: Vec<usize>,
    /// `position startpos <newgame args> moves <tokens>`: replays the whole game.
    pub replay: String,
    /// The final score by seat.
    pub scores: Vec<i64>,
    /// The sheet (from 0) each seat wrote on, in a game of teams, where partners share one;
    /// absent when every seat has its own (and in records of older referees).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sheets: Vec<usize>,
    /// The winning seat from 1; null on a shared lead, and in a game of teams (both partners
    /// win: see `results`).
    pub winner: Option<usize>,
    /// `win`, `draw` or `loss` by seat.
    pub results: Vec<String>,
    /// `normal`, the kind of fault that ended the game (`illegal_move`, `timeout`, `crash`,
    /// `garbage`, `error`, `spawn`), or `aborted` (a referee error).
    pub end: String,
    /// The faulty seat from 1, when an engine faulted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault_seat: Option<usize>,
    /// What exactly went wrong, when something did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The `score` lines of the final position, as the engine prints them after `replay`.
    pub standings: Vec<String>,
    /// Moves played.
    pub moves: u32,
    /// Wall-clock time of the game.
    pub millis: u64,
    /// By seat, the longest answer to `go` in milliseconds, as the referee waited for it (absent
    /// in records of older referees).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slowest_go_millis: Vec<u64>,
}

impl Record {
    /// The record of a played game.
    pub fn new(
        game: u64,
        pair: u64,
        seed: u64,
        commands: &[String],
        seating: &[usize],
        played: &Played,
    ) -> Record {
        let (end, fault_seat, detail) = match &played.end {
            End::Normal => ("normal".to_string(), None, None),
            End::Fault { seat, fault } => {
                (fault.kind().to_string(), Some(seat + 1), Some(fault.detail().to_string()))
            }
            End::Aborted(message) => ("aborted".to_string(), None, Some(message.clone())),
        };
        let shared =
            played.sheets.iter().collect::<std::collections::BTreeSet<_>>().len() < played.sheets.len();
        let winners: Vec<usize> = played
            .outcomes
            .iter()
            .enumerate()
            .filter(|(_, o)| o.name() == "win")
            .map(|(s, _)| s + 1)
            .collect();
        Record {
            game,
            pair,
            seed,
            engines: seating.iter().map(|&e| commands[e].clone()).collect(),
            seating: seating.to_vec(),
            replay: played.replay.clone(),
            scores: played.scores.clone(),
            sheets: if shared { played.sheets.clone() } else { Vec::new() },
            winner: if winners.len() == 1 { Some(winners[0]) } else { None },
            results: played.outcomes.iter().map(|o| o.name().to_string()).collect(),
            end,
            fault_seat,
            detail,
            standings: played.standings.clone(),
            moves: played.moves,
            millis: millis(played.duration),
            slowest_go_millis: played.slowest_go.iter().copied().map(millis).collect(),
        }
    }
}

impl Record {
    /// The seat (from 0) the engine with this index (the order of `--engine`) had.
    pub fn seat_of(&self, engine: usize) -> Option<usize> {
        self.seating.iter().position(|&e| e == engine)
    }

    /// What the seat made of the game: 1 for a win, 1/2 for a draw, 0 for a loss (or an unknown
    /// result).
    pub fn points(&self, seat: usize) -> f64 {
        self.results.get(seat).and_then(|o| SeatResult::parse(o)).unwrap_or(SeatResult::Loss).points()
    }

    /// The seat's final score.
    pub fn score(&self, seat: usize) -> i64 {
        self.scores.get(seat).copied().unwrap_or(0)
    }

    /// The sheet the seat wrote on: its own, or its team's.
    fn sheet(&self, seat: usize) -> usize {
        self.sheets.get(seat).copied().unwrap_or(seat)
    }

    /// The seat's final score minus the best score of another sheet (a partner's seat does not
    /// count: it is the same sheet); `None` in a game played alone.
    pub fn margin(&self, seat: usize) -> Option<i64> {
        let best_other = (0..self.scores.len())
            .filter(|&s| self.sheet(s) != self.sheet(seat))
            .map(|s| self.score(s))
            .max();
        best_other.map(|b| self.score(seat) - b)
    }
}

/// A two-seat record of a normal game for unit tests: the seats' results follow the scores, the
/// engines are named `engine<index>`; tests change what else they need.
#[cfg(test)]
pub(crate) fn test_record(game: u64, pair: u64, seating: [usize; 2], scores: [i64; 2]) -> Record {
    let result = |a: i64, b: i64| match a.cmp(&b) {
        std::cmp::Ordering::Greater => "win",
        std::cmp::Ordering::Equal => "draw",
        std::cmp::Ordering::Less => "loss",
    };
    Record {
        game,
        pair,
        seed: 1 + pair,
        engines: seating.iter().map(|e| format!("engine{e}")).collect(),
        seating: seating.to_vec(),
        replay: String::new(),
        scores: scores.to_vec(),
        sheets: vec![],
        winner: None,
        results: vec![result(scores[0], scores[1]).into(), result(scores[1], scores[0]).into()],
        end: "normal".into(),
        fault_seat: None,
        detail: None,
        standings: vec![],
        moves: 0,
        millis: 0,
        slowest_go_millis: vec![],
    }
}

/// A duration in whole milliseconds.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Reads every record of a JSON Lines file (empty lines are skipped).
///
/// # Errors
/// The file cannot be read, or a line is not a record (the message names the line).
pub fn read_records(path: &Path) -> io::Result<Vec<Record>> {
    let file = File::open(path)?;
    let mut records = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(&line).map_err(|e| {
            io::Error::new(io::ErrorKind::InvalidData, format!("{}:{}: {e}", path.display(), n + 1))
        })?;
        records.push(record);
    }
    Ok(records)
}
