//! Replays a game through an engine process, turn by turn: before each move it sets up the
//! position with `position startpos ... moves <the tokens before it>`, asks `go <limits>` for the
//! engine's best move and value, and, when the move played differs, `go <limits> searchmoves
//! <played>` for the played move's value. The process handling (framing, ids, deadlines, faults)
//! is the referee's [`EngineProcess`].

use thiserror::Error;
use zatre::rules::Move;

use super::answer::Verdict;
use super::game::{GameInput, Turn};
use crate::referee::{EngineProcess, Fault, Limits};

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
    /// The played move's value: from `go searchmoves <played>`, or the best move's value when the
    /// engine's best move is the move played (then no second search is made).
    pub played_value: Verdict,
    /// The engine's best move and its value, from `go`.
    pub best: Verdict,
    /// Whether the engine's best move is the move played (the same placements).
    pub played_is_best: bool,
}

impl TurnAnalysis {
    /// `best - played` as the engine valued them, rounded to hundredths; may be negative when the
    /// two searches disagree (sampling noise), and is 0 when the played move is the best.
    pub fn raw_loss(&self) -> f64 {
        if self.played_is_best {
            0.0
        } else {
            hundredths(self.best.score - self.played_value.score)
        }
    }

    /// The points lost: the raw loss, or 0 when it is negative.
    pub fn loss(&self) -> f64 {
        self.raw_loss().max(0.0)
    }
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

    /// Analyses every move of `game`, calling `done` after each.
    ///
    /// # Errors
    /// The first engine failure, naming the turn; the process is ended then, and the next call
    /// starts a fresh one.
    pub fn analyse(
        &mut self,
        game: &GameInput,
        mut done: impl FnMut(&TurnAnalysis),
    ) -> Result<Vec<TurnAnalysis>, EngineError> {
        let mut turns = Vec::with_capacity(game.turns.len());
        for turn in &game.turns {
            let analysed = self.analyse_turn(game, turn);
            if analysed.is_err() {
                // The process may be out of step with the protocol now: start afresh next time.
                self.process = None;
            }
            let analysed = analysed?;
            done(&analysed);
            turns.push(analysed);
        }
        Ok(turns)
    }

    fn analyse_turn(&mut self, game: &GameInput, turn: &Turn) -> Result<TurnAnalysis, EngineError> {
        let failed = |what: String| EngineError::Turn {
            turn: turn.number,
            seat: turn.seat + 1,
            played: turn.written.clone(),
            what,
        };
        let limits = self.limits.clone();
        let engine = self.engine()?;
        engine
            .request(&game.replay_before(turn), limits.command_timeout, false)
            .map_err(|f| failed(f.to_string()))?;
        let go = format!("go {}", limits.go).trim().to_string();
        let ask = |engine: &mut EngineProcess, command: &str| -> Result<Verdict, String> {
            let reply = engine.request(command, limits.go_timeout, true).map_err(|f| f.to_string())?;
            Verdict::of(&reply).map_err(|e| e.to_string())
        };
        let best = ask(engine, &go).map_err(&failed)?;
        let position = &turn.position;
        let best_move = Move::parse(position.board().geometry(), &best.best)
            .map_err(|e| format!("illegal_move: the best move '{}' does not parse: {e}", best.best))
            .and_then(|mv| {
                position.check(&mv).map_err(|e| format!("illegal_move: the best move {}: {e}", best.best))?;
                Ok(mv)
            })
            .map_err(&failed)?;
        let played_is_best = best_move == turn.played;
        let played_value = if played_is_best {
            best.clone()
        } else {
            let verdict = ask(engine, &format!("{go} searchmoves {}", turn.written)).map_err(&failed)?;
            let searched = Move::parse(position.board().geometry(), &verdict.best).ok();
            if searched.as_ref() != Some(&turn.played) {
                return Err(failed(format!(
                    "go searchmoves {} answered another move, {}",
                    turn.written, verdict.best
                )));
            }
            verdict
        };
        Ok(TurnAnalysis {
            turn: turn.number,
            seat: turn.seat,
            played: turn.written.clone(),
            played_value,
            best,
            played_is_best,
        })
    }

    /// Asks the engine to quit (at the end of the input).
    pub fn quit(mut self) {
        if let Some(process) = self.process.take() {
            process.quit();
        }
    }
}
