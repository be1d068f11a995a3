//! The analysis of one game as people read it (a table of the turns, then per seat the total lost
//! and the five worst moves) and as programs read it (one JSON object).

use std::fmt::Write as _;

use serde::Serialize;

use super::analyser::{hundredths, TurnAnalysis};
use super::game::{GameInput, Source};

/// How many of a seat's worst moves a report lists.
pub const WORST: usize = 5;

/// One analysed game.
#[derive(Debug, Clone)]
pub struct GameReport {
    /// The input line it came from, from 1.
    pub line: usize,
    pub source: Source,
    /// The arguments of `newgame` / `position startpos` the game was played with.
    pub newgame_args: String,
    /// The whole game as a `position startpos ... moves ...` command.
    pub replay: String,
    /// Seats in the game.
    pub players: usize,
    /// The team (from 1) of each seat, when the game has teams.
    pub teams: Option<Vec<usize>>,
    /// Whether the replay ends with the game over.
    pub finished: bool,
    /// The analysing engine's command line.
    pub analyser: String,
    /// The arguments of every `go`.
    pub go: String,
    pub turns: Vec<TurnAnalysis>,
    /// Each seat's points lost, seat 1 first, as the engine totalled them (`analyse`'s response);
    /// without them a seat's total is the sum of its turns' losses.
    pub lost: Option<Vec<f64>>,
}

/// What one seat lost over the game.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatSummary {
    /// From 0.
    pub seat: usize,
    /// The moves it made.
    pub moves: usize,
    /// The sum of its losses.
    pub lost: f64,
    /// Its worst moves with a loss above 0, worst first (ties: the earlier turn first), at most
    /// [`WORST`]: indices into the report's turns.
    pub worst: Vec<usize>,
}

impl GameReport {
    /// The report of `game`'s analysis by `analyser` with `go <go>`.
    pub fn new(game: &GameInput, analyser: &str, go: &str, turns: Vec<TurnAnalysis>) -> GameReport {
        let players = usize::from(game.rules.players);
        let teams = game.rules.teams.then(|| (0..players).map(|s| game.rules.sheet_of_seat(s) + 1).collect());
        GameReport {
            line: game.line,
            source: game.source.clone(),
            newgame_args: game.newgame_args.clone(),
            replay: game.replay(),
            players,
            teams,
            finished: game.finished,
            analyser: analyser.to_string(),
            go: go.to_string(),
            turns,
            lost: None,
        }
    }

    /// What each seat lost, by seat.
    pub fn seats(&self) -> Vec<SeatSummary> {
        (0..self.players)
            .map(|seat| {
                let mine: Vec<usize> =
                    (0..self.turns.len()).filter(|&i| self.turns[i].seat == seat).collect();
                let summed = || hundredths(mine.iter().map(|&i| self.turns[i].loss()).sum());
                let lost = self.lost.as_ref().and_then(|l| l.get(seat).copied()).unwrap_or_else(summed);
                let mut worst: Vec<usize> =
                    mine.iter().copied().filter(|&i| self.turns[i].loss() > 0.0).collect();
                // Stable: equal losses keep turn order.
                worst.sort_by(|&a, &b| self.turns[b].loss().total_cmp(&self.turns[a].loss()));
                worst.truncate(WORST);
                SeatSummary { seat, moves: mine.len(), lost, worst }
            })
            .collect()
    }

    /// The turn with the largest loss of the game (the earliest of equals), if any move lost.
    pub fn largest_loss(&self) -> Option<&TurnAnalysis> {
        self.turns.iter().filter(|t| t.loss() > 0.0).reduce(|a, b| if b.loss() > a.loss() { b } else { a })
    }

    fn engine_of(&self, seat: usize) -> Option<&str> {
        match &self.source {
            Source::Record { engines, .. } => engines.get(seat).map(String::as_str),
            Source::Position => None,
        }
    }

    /// `seat 3` or `seat 3 (team 2)`.
    fn seat_name(&self, seat: usize) -> String {
        match &self.teams {
            Some(teams) => format!("seat {} (team {})", seat + 1, teams[seat]),
            None => format!("seat {}", seat + 1),
        }
    }

    /// The plain-text report.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let what = match &self.source {
            Source::Position => "position line".to_string(),
            Source::Record { game: Some(g), .. } => format!("zatre-match record of game {g}"),
            Source::Record { game: None, .. } => "zatre-match record".to_string(),
        };
        let args = if self.newgame_args.is_empty() { "(defaults)" } else { &self.newgame_args };
        let end = if self.finished { "to the end" } else { "not to the end" };
        // Writing to a String cannot fail.
        let _ =
            writeln!(out, "game on line {} ({what}): {args}, {} moves, {end}", self.line, self.turns.len());
        for seat in 0..self.players {
            if let Some(engine) = self.engine_of(seat) {
                let _ = writeln!(out, "  {}: {engine}", self.seat_name(seat));
            }
        }
        let _ = writeln!(out, "analysed by {} with go {}", self.analyser, self.go);
        let _ = writeln!(out, "values: the expected final margin in sheet points; lost = best - played");
        let _ = writeln!(out);
        let width =
            self.turns.iter().map(|t| t.played.len().max(t.best.best.len())).max().unwrap_or(0).max(6);
        let _ = writeln!(
            out,
            "{:>5} {:>4}  {:<width$} {:>8}  {:<width$} {:>8} {:>7}",
            "turn", "seat", "played", "value", "best", "value", "lost"
        );
        for t in &self.turns {
            let best = if t.played_is_best { "=" } else { t.best.best.as_str() };
            let _ = writeln!(
                out,
                "{:>5} {:>4}  {:<width$} {:>8.2}  {:<width$} {:>8.2} {:>7.2}",
                t.turn,
                t.seat + 1,
                t.played,
                t.played_value.score,
                best,
                t.best.score,
                t.loss()
            );
        }
        let _ = writeln!(out);
        for s in self.seats() {
            let mean = if s.moves == 0 { 0.0 } else { s.lost / s.moves as f64 };
            let engine = self.engine_of(s.seat).map(|e| format!(" {e}")).unwrap_or_default();
            let _ = writeln!(
                out,
                "{}{engine}: lost {:.2} in {} move{} ({mean:.2} a move)",
                self.seat_name(s.seat),
                s.lost,
                s.moves,
                if s.moves == 1 { "" } else { "s" }
            );
            if s.worst.is_empty() {
                let _ = writeln!(out, "  no move lost anything");
            }
            for &i in &s.worst {
                let t = &self.turns[i];
                let _ = writeln!(
                    out,
                    "  turn {:>3}: lost {:>6.2}  played {} ({:.2}), best {} ({:.2})",
                    t.turn,
                    t.loss(),
                    t.played,
                    t.played_value.score,
                    t.best.best,
                    t.best.score
                );
            }
        }
        out
    }

    /// The JSON object of the report (one line of `--json` output).
    pub fn to_json(&self) -> String {
        let seats = self.seats();
        let json = JsonGame {
            line: self.line,
            source: match self.source {
                Source::Position => "position",
                Source::Record { .. } => "record",
            },
            game: match self.source {
                Source::Record { game, .. } => game,
                Source::Position => None,
            },
            engines: match &self.source {
                Source::Record { engines, .. } if !engines.is_empty() => Some(engines.clone()),
                _ => None,
            },
            newgame_args: &self.newgame_args,
            replay: &self.replay,
            finished: self.finished,
            analyser: &self.analyser,
            go: &self.go,
            turns: self.turns.iter().map(JsonTurn::of).collect(),
            seats: seats
                .iter()
                .map(|s| JsonSeat {
                    seat: s.seat + 1,
                    team: self.teams.as_ref().map(|t| t[s.seat]),
                    engine: self.engine_of(s.seat),
                    moves: s.moves,
                    lost: s.lost,
                    worst: s.worst.iter().map(|&i| JsonTurn::of(&self.turns[i])).collect(),
                })
                .collect(),
        };
        // Plain data of strings and numbers: serialising it cannot fail.
        serde_json::to_string(&json).unwrap_or_default()
    }
}

#[derive(Serialize)]
struct JsonGame<'a> {
    line: usize,
    source: &'static str,
    game: Option<u64>,
    engines: Option<Vec<String>>,
    newgame_args: &'a str,
    replay: &'a str,
    finished: bool,
    analyser: &'a str,
    go: &'a str,
    turns: Vec<JsonTurn<'a>>,
    seats: Vec<JsonSeat<'a>>,
}

#[derive(Serialize)]
struct JsonTurn<'a> {
    turn: u32,
    seat: usize,
    played: &'a str,
    played_value: f64,
    played_stderr: Option<f64>,
    best: &'a str,
    best_value: f64,
    best_stderr: Option<f64>,
    played_is_best: bool,
    loss: f64,
    /// Each seat's expected final margin after the turn (the chart's curves), by seat.
    margins: &'a [Option<f64>],
}

impl<'a> JsonTurn<'a> {
    fn of(t: &'a TurnAnalysis) -> JsonTurn<'a> {
        JsonTurn {
            turn: t.turn,
            seat: t.seat + 1,
            played: &t.played,
            played_value: t.played_value.score,
            played_stderr: t.played_value.stderr,
            best: &t.best.best,
            best_value: t.best.score,
            best_stderr: t.best.stderr,
            played_is_best: t.played_is_best,
            loss: t.loss(),
            margins: &t.margins,
        }
    }
}

#[derive(Serialize)]
struct JsonSeat<'a> {
    seat: usize,
    team: Option<usize>,
    engine: Option<&'a str>,
    moves: usize,
    lost: f64,
    worst: Vec<JsonTurn<'a>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::Verdict;

    fn verdict(best: &str, score: f64) -> Verdict {
        Verdict { best: best.to_string(), score, stderr: None, samples: None, nodes: None }
    }

    fn turn(turn: u32, seat: usize, played: f64, best: f64) -> TurnAnalysis {
        TurnAnalysis {
            turn,
            seat,
            played: format!("{turn}@h8"),
            played_value: verdict(&format!("{turn}@h8"), played),
            best: verdict(if played == best { "p" } else { "b" }, best),
            played_is_best: played == best,
            // As the engine gives it (PROTOCOL.md, `analyse`).
            lost: if played == best { 0.0 } else { (best - played).max(0.0) },
            margins: vec![Some(played), Some(-played)],
        }
    }

    fn report(turns: Vec<TurnAnalysis>) -> GameReport {
        let game = GameInput::parse(1, "position startpos moves +441 4@h8,1@h9,4@h10").expect("a game");
        GameReport::new(&game, "zatre", "nodes 10", turns)
    }

    #[test]
    fn losses_are_clamped_and_the_worst_come_first() {
        let r = report(vec![
            turn(1, 0, 1.0, 1.0),
            turn(2, 1, 0.0, 3.0),
            turn(3, 0, 2.0, 1.5),
            turn(4, 1, -4.0, 0.0),
            turn(5, 1, 1.0, 4.0),
        ]);
        let seats = r.seats();
        assert_eq!(seats[0], SeatSummary { seat: 0, moves: 2, lost: 0.0, worst: vec![] });
        // Turns 2 and 5 both lost 3: the earlier first; turn 4 lost 4.
        assert_eq!(seats[1], SeatSummary { seat: 1, moves: 3, lost: 10.0, worst: vec![3, 1, 4] });
        assert_eq!(r.largest_loss().map(|t| t.turn), Some(4));
        let text = r.render();
        assert!(text.contains("seat 2: lost 10.00 in 3 moves"), "{text}");
        assert!(text.contains("seat 1: lost 0.00 in 2 moves"), "{text}");
        let json: serde_json::Value = serde_json::from_str(&r.to_json()).expect("valid JSON");
        assert_eq!(json["turns"].as_array().map(Vec::len), Some(5));
        assert_eq!(json["turns"][2]["loss"], 0.0);
        assert_eq!(json["turns"][1]["margins"], serde_json::json!([0.0, -0.0]));
        assert_eq!(json["seats"][1]["worst"][0]["turn"], 4);
    }

    /// The engine's totals are the seats' totals; the sum of the turns only stands in without them.
    #[test]
    fn the_engines_totals_are_the_seats_totals() {
        let mut r = report(vec![turn(1, 0, 1.0, 2.0), turn(2, 1, 0.0, 0.0)]);
        assert_eq!(r.seats()[0].lost, 1.0);
        r.lost = Some(vec![1.25, 0.5]);
        assert_eq!((r.seats()[0].lost, r.seats()[1].lost), (1.25, 0.5));
    }

    #[test]
    fn at_most_five_worst_moves() {
        let r = report((1..=8).map(|k| turn(k, 0, 0.0, f64::from(k))).collect());
        let worst: Vec<u32> = r.seats()[0].worst.iter().map(|&i| r.turns[i].turn).collect();
        assert_eq!(worst, vec![8, 7, 6, 5, 4]);
    }

    /// A seat of one move is not said to have played "1 moves".
    #[test]
    fn one_move_is_one_move() {
        let text = report(vec![turn(1, 0, 1.0, 2.0), turn(2, 1, 0.0, 0.0)]).render();
        assert!(text.contains("seat 1: lost 1.00 in 1 move (1.00 a move)"), "{text}");
        assert!(text.contains("seat 2: lost 0.00 in 1 move (0.00 a move)"), "{text}");
    }
}
