//! The long-running commands, `go`, `bench`, `perft` and `legal`: a job owns a copy of the position and runs on a
//! search thread, reporting `info` lines through a callback and checking a stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use std::ops::ControlFlow;

use crate::rules::Position;
use crate::search::{self, Info, Limits};

use super::command::{GoArgs, Id};
use super::options::EngineOptions;
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
    Bench,
    Perft { position: Box<Position>, depth: u32 },
    Legal { position: Box<Position>, count: bool },
}

impl Job {
    /// A `go` on a copy of the position.
    pub fn go(id: Option<Id>, position: Position, args: GoArgs, options: EngineOptions) -> Job {
        Job { id, kind: JobKind::Go { position: Box::new(position), args, options } }
    }

    /// A `bench`.
    pub fn bench(id: Option<Id>) -> Job {
        Job { id, kind: JobKind::Bench }
    }

    /// A `perft` on a copy of the position.
    pub fn perft(id: Option<Id>, position: Position, depth: u32) -> Job {
        Job { id, kind: JobKind::Perft { position: Box::new(position), depth } }
    }

    /// A `legal` (or `legal count`) on a copy of the position: a job, so that a hand whose moves
    /// run into the millions can be stopped and never blocks `isready`.
    pub fn legal(id: Option<Id>, position: Position, count: bool) -> Job {
        Job { id, kind: JobKind::Legal { position: Box::new(position), count } }
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
            JobKind::Bench => bench(),
            JobKind::Legal { position, count } => Ok(legal(&position, count, stop)),
            JobKind::Perft { position, depth } => {
                let count = crate::rules::perft_until(&position, depth, stop);
                if stop.load(Ordering::Relaxed) {
                    Ok(format!("{count} stopped"))
                } else {
                    Ok(count.to_string())
                }
            }
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
    let limits = Limits {
        movetime: args.movetime.map(Duration::from_millis),
        nodes: args.nodes,
        depth: args.depth,
        infinite: args.infinite,
        ..Limits::default()
    };
    // A time limit also raises the stop flag when it runs out: the search checks its clock
    // itself, but a hand of many kept tiles can hold it inside the move generator, which only
    // sees the flag. A node or depth limit stays deterministic: no clock then.
    let deadline = match (args.movetime, args.nodes, args.depth, args.infinite) {
        (Some(ms), ..) => Some(Duration::from_millis(ms)),
        (None, None, None, false) => Some(search::DEFAULT_MOVE_TIME),
        _ => None,
    };
    let finished = AtomicBool::new(false);
    let outcome = std::thread::scope(|scope| {
        if let Some(deadline) = deadline {
            let (finished, started) = (&finished, Instant::now());
            scope.spawn(move || {
                while !finished.load(Ordering::Relaxed) {
                    if started.elapsed() >= deadline {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
            });
        }
        let mut pace = InfoPace::new(options.search_options().multipv);
        let outcome = search::run(position, &limits, &options.search_options(), stop, &mut |i: &Info| {
            pace.offer(i, info)
        });
        finished.store(true, Ordering::Relaxed);
        pace.flush(info);
        outcome
    });
    let Some(outcome) = outcome else {
        return Err(Failure::new(ErrorCode::Internal, "the search found no move to make"));
    };
    // `infinite` promises no bestmove before `stop`, even when the search ends sooner.
    if args.infinite {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    Ok(format!("bestmove {} score {:.2} nodes {}", outcome.best, outcome.score, outcome.nodes))
}

/// The least time between two reports of the same stage, per line of a report (`MultiPV`).
const INFO_INTERVAL: Duration = Duration::from_millis(100);

/// Paces `info` lines at a human rate: the first report of each stage (`depth`) is written, and
/// within a stage at most one report (its `MultiPV` lines) per [`INFO_INTERVAL`] per line. A
/// report held back is replaced by the next one, and the last one held is written before the
/// `bestmove`, so the final `info` always comes. UCI engines print per iteration; the playouts
/// can finish a round per millisecond.
struct InfoPace {
    interval: Duration,
    last_written: Option<(Instant, u32)>,
    /// Whether the report being received is written or held.
    writing: bool,
    held: Vec<String>,
}

impl InfoPace {
    fn new(multipv: usize) -> InfoPace {
        let interval = INFO_INTERVAL * u32::try_from(multipv.max(1)).unwrap_or(u32::MAX);
        InfoPace { interval, last_written: None, writing: true, held: Vec::new() }
    }

    /// Takes one line of a report: a report starts with its first candidate (`multipv 1`).
    fn offer(&mut self, i: &Info, write: &mut dyn FnMut(String)) {
        if i.multipv == 1 {
            let now = Instant::now();
            self.writing = self
                .last_written
                .is_none_or(|(t, depth)| depth != i.depth || now.duration_since(t) >= self.interval);
            self.held.clear();
            if self.writing {
                self.last_written = Some((now, i.depth));
            }
        }
        if self.writing {
            write(info_line(i));
        } else {
            self.held.push(info_line(i));
        }
    }

    /// Writes the report held back, if any.
    fn flush(&mut self, write: &mut dyn FnMut(String)) {
        for line in self.held.drain(..) {
            write(line);
        }
    }
}

/// The legal moves one a line, or their number; ` stopped` (a last line `stopped`) when the
/// stop flag ended the enumeration early. Moves are written straight into the payload.
fn legal(position: &Position, count: bool, stop: &AtomicBool) -> String {
    let mut generator = position.movegen().with_stop(stop);
    let mut payload = if count {
        generator.legal_count().to_string()
    } else {
        let mut lines = String::new();
        let _ = generator.for_each_legal(&mut |placements| {
            if !lines.is_empty() {
                lines.push('\n');
            }
            lines.push_str(&crate::rules::Move::new(placements.to_vec()).to_string());
            ControlFlow::Continue(())
        });
        lines
    };
    if stop.load(Ordering::Relaxed) {
        payload.push_str(if count { " stopped" } else { "\nstopped" });
    }
    payload
}

/// `info depth <d> multipv <k> score <s> [stderr <e> samples <n>] nodes <n> nps <n> time <ms>
/// pv <moves>`; `stderr` and `samples` only for a score that playouts sampled.
fn info_line(i: &Info) -> String {
    let pv: Vec<String> = i.pv.iter().map(ToString::to_string).collect();
    let sampled = if i.samples > 0 {
        format!(" stderr {:.2} samples {}", i.std_error, i.samples)
    } else {
        String::new()
    };
    format!(
        "info depth {} multipv {} score {:.2}{sampled} nodes {} nps {} time {} pv {}",
        i.depth,
        i.multipv,
        i.score,
        i.nodes,
        i.nps,
        i.time_ms,
        pv.join(" ")
    )
}

/// `bench`: the search's fixed positions searched to a fixed node count each, one thread, seed 0
/// (see `search::bench`). The node total is a signature of search behaviour.
fn bench() -> Result<String, Failure> {
    let result = search::bench();
    Ok(format!("nodes {} nps {}", result.nodes, result.nps))
}
