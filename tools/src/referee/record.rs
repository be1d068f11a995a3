//! The record of one game, one JSON object a line in `--records` files, and reading such files
//! back for `merge`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::engine_process::Fault;
use super::game::{End, Played, SeatResult};

/// The `end` of a game played to its end; the others are [`ABORTED`] and the [`Fault::KINDS`].
const NORMAL: &str = "normal";
/// The `end` of a game the rules core would not go on with (a referee bug, nobody's fault).
const ABORTED: &str = "aborted";

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
    /// The arguments the game was played with, as `newgame` took them: the replay line without
    /// `position startpos` and the moves (`variant classic players 2 seed 7 rounds=2`).
    pub fn game_args(&self) -> &str {
        let head = self.replay.split(" moves ").next().unwrap_or("");
        head.strip_prefix("position startpos ").unwrap_or(head)
    }

    /// [`Record::game_args`] without the seed: what every game of one match shares (variant,
    /// players and rule options).
    pub fn rule_args(&self) -> String {
        let words: Vec<&str> = self.game_args().split_whitespace().collect();
        let mut kept = Vec::with_capacity(words.len());
        let mut i = 0;
        while i < words.len() {
            if words[i] == "seed" {
                i += 2;
            } else {
                kept.push(words[i]);
                i += 1;
            }
        }
        kept.join(" ")
    }

    /// The engines' command lines in the order of `--engine` (the record has them by seat).
    pub fn engines_in_order(&self) -> Vec<&str> {
        let mut order: Vec<(usize, &str)> =
            self.seating.iter().zip(&self.engines).map(|(&e, c)| (e, c.as_str())).collect();
        order.sort_by_key(|&(e, _)| e);
        order.into_iter().map(|(_, c)| c).collect()
    }

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
            End::Normal => (NORMAL.to_string(), None, None),
            End::Fault { seat, fault } => {
                (fault.kind().to_string(), Some(seat + 1), Some(fault.detail().to_string()))
            }
            End::Aborted(message) => (ABORTED.to_string(), None, Some(message.clone())),
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
    /// Whether the record holds together as `zatre-match` writes it: 1 to 6 seats, the
    /// engines' indices a permutation of them, a command line, score and result (`win`, `draw`,
    /// `loss`) for each, its game in group `game / seats`, a replay line of that many players,
    /// a known end, the winner and the faulty seat among the seats.
    ///
    /// # Errors
    /// What does not hold, in words.
    pub fn check(&self) -> Result<(), String> {
        let k = self.seating.len();
        if !(1..=6).contains(&k) {
            return Err(format!("{k} seats (seating): a game has 1 to 6"));
        }
        let mut order = self.seating.clone();
        order.sort_unstable();
        if order.iter().enumerate().any(|(i, &e)| i != e) {
            return Err(format!("seating {:?} is not an order of the engines 0 to {}", self.seating, k - 1));
        }
        let by_seat = [
            ("engines", self.engines.len()),
            ("scores", self.scores.len()),
            ("results", self.results.len()),
            ("sheets", if self.sheets.is_empty() { k } else { self.sheets.len() }),
            (
                "slowest_go_millis",
                if self.slowest_go_millis.is_empty() { k } else { self.slowest_go_millis.len() },
            ),
        ];
        if let Some((field, n)) = by_seat.iter().find(|&&(_, n)| n != k) {
            return Err(format!("{n} {field} for {k} seats"));
        }
        if let Some(bad) = self.scores.iter().find(|s| s.unsigned_abs() > MAX_SCORE) {
            return Err(format!("score {bad} is out of range (at most {MAX_SCORE} either way)"));
        }
        if let Some(bad) = self.results.iter().find(|r| SeatResult::parse(r).is_none()) {
            return Err(format!("result '{bad}' is not win, draw or loss"));
        }
        if let Some(bad) = self.sheets.iter().find(|&&s| s >= k) {
            return Err(format!("sheet {bad} of {k} seats"));
        }
        if self.pair != self.game / k as u64 {
            return Err(format!(
                "game {} of {k} seats is in group {}, not {}",
                self.game,
                self.game / k as u64,
                self.pair
            ));
        }
        let words: Vec<&str> = self.game_args().split_whitespace().collect();
        if !self.replay.starts_with("position startpos")
            || !words.windows(2).any(|w| w == ["players", &k.to_string()])
        {
            return Err(format!(
                "replay '{}' is not the position line of a game of {k} players",
                self.game_args()
            ));
        }
        let ends = [NORMAL, ABORTED].into_iter().chain(Fault::KINDS);
        if !ends.clone().any(|end| end == self.end) {
            return Err(format!("end '{}' is not one of {}", self.end, ends.collect::<Vec<_>>().join(", ")));
        }
        for (field, seat) in [("winner", self.winner), ("fault_seat", self.fault_seat)] {
            if let Some(s) = seat.filter(|s| !(1..=k).contains(s)) {
                return Err(format!("{field} {s} is not a seat of 1 to {k}"));
            }
        }
        Ok(())
    }

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
        best_other.map(|b| self.score(seat).saturating_sub(b))
    }
}

/// The longest line a records file may have: far more than a record takes (its replay is one
/// protocol line, at most 64 KiB).
const MAX_RECORD_BYTES: u64 = 16 << 20;

/// The largest score, either way, a record may hold: far beyond any sheet (a classic sheet scores
/// a few hundred points at most), so that margins and sums of a match never overflow.
const MAX_SCORE: u64 = 1_000_000;

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

/// The records of the shards of one match, as one list in game order, and how many duplicates
/// (the same game, played alike, in two files) were left out. `parts` are the records of each
/// file with a name for messages.
///
/// # Errors
/// The files are not of one match: a game played by other engines or with other rules than the
/// first game, a group with two seeds, or a game index seated two ways.
pub fn merge_records(parts: Vec<(String, Vec<Record>)>) -> Result<(Vec<Record>, usize), String> {
    let mut all: Vec<(String, Record)> = parts
        .into_iter()
        .flat_map(|(name, records)| records.into_iter().map(move |r| (name.clone(), r)))
        .collect();
    all.sort_by_key(|(_, r)| r.game);
    let Some((first_name, first)) = all.first().cloned() else { return Ok((Vec::new(), 0)) };
    let (engines, rules) = (first.engines_in_order(), first.rule_args());
    let mut seeds = std::collections::BTreeMap::new();
    let mut merged: Vec<Record> = Vec::with_capacity(all.len());
    let mut duplicates = 0;
    let there = format!("game {} of {first_name}", first.game);
    for (name, r) in &all {
        let here = format!("game {} of {name}", r.game);
        if r.engines_in_order() != engines {
            return Err(format!("{here} was played by other engines than {there}: not one match"));
        }
        if r.rule_args() != rules {
            let other = r.rule_args();
            return Err(format!("{here} was played with '{other}', {there} with '{rules}': not one match"));
        }
        if *seeds.entry(r.pair).or_insert(r.seed) != r.seed {
            return Err(format!("{here} has another seed than its group: not one match (another --seed?)"));
        }
        match merged.last() {
            // The same game played again (a shard run twice): its moves may differ with the
            // engines' timing, but not how it was dealt and seated.
            Some(last) if last.game == r.game => {
                if last.seating != r.seating {
                    return Err(format!("{here} is seated otherwise in another file: not one match"));
                }
                duplicates += 1;
            }
            _ => merged.push(r.clone()),
        }
    }
    Ok((merged, duplicates))
}

/// Reads every record of a JSON Lines file (empty lines are skipped), each checked with
/// [`Record::check`].
///
/// # Errors
/// The file cannot be read, or a line is not a record of `zatre-match` (the message names the
/// file and the line).
pub fn read_records(path: &Path) -> io::Result<Vec<Record>> {
    let file = File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    let mut records = Vec::new();
    let mut reader = BufReader::new(file);
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        let at = |e: String| {
            io::Error::new(io::ErrorKind::InvalidData, format!("{}:{number}: {e}", path.display()))
        };
        // One line at most MAX_RECORD_BYTES (a record is a few KB): a file of one endless line is
        // refused, not read into memory whole.
        let read = (&mut reader).take(MAX_RECORD_BYTES + 1).read_until(b'\n', &mut bytes);
        if read.map_err(|e| at(e.to_string()))? == 0 {
            break;
        }
        if bytes.len() as u64 > MAX_RECORD_BYTES {
            return Err(at(format!(
                "the line is longer than {MAX_RECORD_BYTES} bytes: not a record of zatre-match"
            )));
        }
        let line = std::str::from_utf8(&bytes).map_err(|_| at("the line is not UTF-8".to_string()))?;
        if line.trim().is_empty() {
            continue;
        }
        let record: Record =
            serde_json::from_str(line).map_err(|e| at(format!("not a record of zatre-match: {e}")))?;
        record.check().map_err(|e| at(format!("not a record of zatre-match: {e}")))?;
        records.push(record);
    }
    Ok(records)
}
