//! The long-running commands, `go` and `bench`: a job owns a copy of the position and runs on a
//! search thread, reporting `info` lines through a callback and checking a stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::{Move, Position};

use super::command::{GoArgs, Id};
use super::options::{EngineOptions, Strategy};
use super::response::{ErrorCode, Failure, Response};

/// A `go` or `bench` to run off the engine loop.
#[derive(Debug)]
pub struct Job {
    id: Option<Id>,
    kind: JobKind,
}

#[derive(Debug)]
enum JobKind {
    Go { position: Box<Position>, args: GoArgs, options: EngineOptions },
    Bench { options: EngineOptions },
}

impl Job {
    /// A `go` on a copy of the position.
    pub fn go(id: Option<Id>, position: Position, args: GoArgs, options: EngineOptions) -> Job {
        Job { id, kind: JobKind::Go { position: Box::new(position), args, options } }
    }

    /// A `bench`.
    pub fn bench(id: Option<Id>, options: EngineOptions) -> Job {
        Job { id, kind: JobKind::Bench { options } }
    }

    /// The id of the command that started the job.
    pub fn id(&self) -> Option<&Id> {
        self.id.as_ref()
    }

    /// Whether the job runs until `stop` (`go infinite`).
    pub fn is_infinite(&self) -> bool {
        matches!(&self.kind, JobKind::Go { args, .. } if args.infinite)
    }

    /// Runs the job to its end or until `stop` is set; `info` receives each progress line
    /// (without the newline). Returns the response of the command that started it.
    pub fn run(self, stop: &AtomicBool, info: &mut dyn FnMut(String)) -> Response {
        let result = match self.kind {
            JobKind::Go { position, args, options } => go(&position, args, options, stop, info),
            JobKind::Bench { options } => bench(options, stop),
        };
        Response { id: self.id, result }
    }
}

fn go(
    position: &Position,
    args: GoArgs,
    options: EngineOptions,
    stop: &AtomicBool,
    info: &mut dyn FnMut(String),
) -> Result<String, Failure> {
    let start = Instant::now();
    let moves = position.movegen().legal_moves();
    let rules = position.rules();
    let scored: Vec<(Move, u32)> = moves
        .into_iter()
        .filter_map(|m| position.score_move(&m).ok().map(|s| (m, s.points(rules))))
        .collect();
    let Some(first) = scored.first() else {
        return Err(Failure::new(ErrorCode::Internal, "no legal move, not even pass"));
    };
    let best = match options.strategy {
        Strategy::Random => {
            let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
            &scored[rng.random_range(0..scored.len())]
        }
        Strategy::Greedy | Strategy::Search => {
            scored.iter().fold(first, |best, m| if m.1 > best.1 { m } else { best })
        }
    };
    let nodes = scored.len();
    let elapsed = start.elapsed().as_millis();
    info(format!("info depth 1 nodes {nodes} time {elapsed} score {} pv {}", best.1, best.0));
    if args.infinite {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    Ok(format!("bestmove {}", best.0))
}

fn bench(_options: EngineOptions, _stop: &AtomicBool) -> Result<String, Failure> {
    Ok("nodes 0 nps 0".to_owned())
}
