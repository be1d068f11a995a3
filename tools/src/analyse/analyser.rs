//! Analyses a game through an engine process with one command, `analyse <limits> startpos ...
//! moves ...` (PROTOCOL.md, `analyse`): the engine replays the game, values every move against its
//! best and reports each turn as it is done, with the points lost and each seat's curve; they are
//! read here, never computed. The process handling (framing, ids, deadlines, faults) is the
//! referee's [`EngineProcess`].

use super::answer::{self, Verdict};
use super::game::GameInput;
use crate::referee::{EngineProcess, Fault, Limits};
use thiserror::Error;

/// An engine that failed during an analysis.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    /// It could not be started, or did not answer `isready`.
    #[error("the engine '{command}' did not start: {fault}")]
    Start { command: String, fault: String },
    /// It failed while a turn was analysed.
    #[error("turn {turn} (seat {seat}, played {played}): {what}")]
    Turn {
        /// The protocol's turn number.
        turn: u32,
        /// The seat that moved, from 1.
        seat: usize,
        played: String,
        what: String,
    },
}

/// The analysis of one move.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnAnalysis {
    /// The protocol's turn number.
    pub turn: u32,
    /// The seat that moved, from 0.
    pub seat: usize,
    /// The move played, as the input wrote it.
    pub played: String,
    /// The played move's value (`value` of the engine's turn line).
    pub played_value: Verdict,
    /// The engine's best move and its value (`best`, `bestvalue`).
    pub best: Verdict,
    /// Whether the engine's best move is the move played (`bestplayed`).
    pub played_is_best: bool,
    /// The points lost, as the engine says (`lost`: never below 0).
    pub lost: f64,
    /// Each seat's expected final margin after the turn, by seat (`margins`; `None` for `-`).
    pub margins: Vec<Option<f64>>,
}

impl TurnAnalysis {
    /// The points lost.
    pub fn loss(&self) -> f64 {
        self.lost
    }
}

/// A game's analysis: every turn, and each seat's points lost, seat 1 first, as the engine totalled
/// them.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysed {
    pub turns: Vec<TurnAnalysis>,
    pub lost: Vec<f64>,
}

/// A number rounded to hundredths, as the engine writes its scores.
pub fn hundredths(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// An engine process (started when first needed, replaced after a fault) and the limits of `go`.
pub struct Analyser {
    command: String,
    limits: Limits,
    process: Option<EngineProcess>,
}

impl Analyser {
    /// An analyser that runs the engine `command` (by `sh -c`) under `limits`.
    pub fn new(command: &str, limits: Limits) -> Analyser {
        Analyser { command: command.to_string(), limits, process: None }
    }

    /// The `go` arguments of each search (e.g. `nodes 200000`).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The engine's command line.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The running engine, started (and asked `isready`) when none runs.
    fn engine(&mut self) -> Result<&mut EngineProcess, EngineError> {
        if self.process.is_none() {
            let start =
                |fault: Fault| EngineError::Start { command: self.command.clone(), fault: fault.to_string() };
            let mut process = EngineProcess::spawn(&self.command).map_err(start)?;
            process.request("isready", self.limits.command_timeout, false).map_err(start)?;
            self.process = Some(process);
        }
        // Set just above when it was not.
        self.process.as_mut().ok_or_else(|| EngineError::Start {
            command: self.command.clone(),
            fault: "no process".to_string(),
        })
    }

    /// Analyses every move of `game` with one `analyse`, calling `done` after each turn as the
    /// engine reports it.
    ///
    /// # Errors
    /// The first engine failure, naming the first turn not analysed; the process is ended then,
    /// and the next call starts a fresh one.
    pub fn analyse(
        &mut self,
        game: &GameInput,
        mut done: impl FnMut(&TurnAnalysis),
    ) -> Result<Analysed, EngineError> {
        let analysed = self.analyse_game(game, &mut done);
        if analysed.is_err() {
            // The process may be out of step with the protocol now: start afresh next time.
            self.process = None;
        }
        analysed
    }

    fn analyse_game(
        &mut self,
        game: &GameInput,
        done: &mut dyn FnMut(&TurnAnalysis),
    ) -> Result<Analysed, EngineError> {
        let limits = self.limits.clone();
        // Two searches a turn at most, each within the limit of a `go`.
        let turns = u32::try_from(game.turns.len()).unwrap_or(u32::MAX);
        let timeout = limits.go_timeout.saturating_mul(turns.saturating_mul(2)) + limits.command_timeout;
        let replay = game.replay();
        let command =
            format!("analyse {} {}", limits.go, replay.trim_start_matches("position ")).trim().to_string();
        let engine = self.engine()?;
        let mut turns: Vec<TurnAnalysis> = Vec::with_capacity(game.turns.len());
        let mut bad: Option<String> = None;
        let mut on_info = |line: String| {
            if bad.is_some() || !answer::is_turn_line(&line) {
                return;
            }
            match answer::turn_line(&line) {
                Ok(turn) => {
                    done(&turn);
                    turns.push(turn);
                }
                Err(e) => bad = Some(e.to_string()),
            }
        };
        let reply = engine.request_with(&command, timeout, Some(&mut on_info));
        // The first turn the engine has not reported is the one it failed on.
        let failed = |what: String, at: usize| match game.turns.get(at).or(game.turns.last()) {
            Some(turn) => EngineError::Turn {
                turn: turn.number,
                seat: turn.seat + 1,
                played: turn.written.clone(),
                what,
            },
            None => EngineError::Start { command: self.command.clone(), fault: what },
        };
        let reply = reply.map_err(|f| failed(f.to_string(), turns.len()))?;
        if let Some(what) = bad {
            return Err(failed(what, turns.len()));
        }
        let first = reply.payload.first().map(String::as_str).unwrap_or("");
        let (k, n, lost) = answer::totals(first).map_err(|e| failed(e.to_string(), turns.len()))?;
        if k != turns.len() || n != game.turns.len() || k != n {
            return Err(failed(
                format!(
                    "analyse answered '{first}' after {} turn lines, for a game of {} moves",
                    turns.len(),
                    game.turns.len()
                ),
                turns.len(),
            ));
        }
        for (mine, theirs) in game.turns.iter().zip(&turns) {
            if mine.number != theirs.turn || mine.seat != theirs.seat {
                return Err(failed(
                    format!(
                        "analyse reported turn {} seat {} where the game has turn {} seat {}",
                        theirs.turn,
                        theirs.seat + 1,
                        mine.number,
                        mine.seat + 1
                    ),
                    turns.len(),
                ));
            }
        }
        Ok(Analysed { turns, lost })
    }

    /// Asks the engine to quit (at the end of the input).
    pub fn quit(mut self) {
        if let Some(process) = self.process.take() {
            process.quit();
        }
    }
}
