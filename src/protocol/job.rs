//! The long-running commands, `go`, `analyse`, `bench`, `perft`, `legal` and `next`, and the lane each runs on:
//! a job owns a copy of the position and runs off the engine loop, reporting `info` lines through a
//! callback and checking a stop flag. It knows neither the engine that made it nor the session that
//! schedules it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use std::ops::ControlFlow;

use crate::rules::{Move, Placement, Position};
use crate::search::{self, Info, Limits};

use super::analyse::{AnalysedTurn, Analysis};
use super::command::Id;
use super::options::EngineOptions;
use super::reason::Reason;
use super::response::{Failure, Payload, Response};

/// What a job reports while it runs, before its response: the session writes each as an `info`
/// line.
#[derive(Debug, Clone)]
pub enum Progress {
    /// A report of a `go`'s search.
    Search(Info),
    /// A turn of an `analyse`, done.
    Turn(AnalysedTurn),
}

/// Where a job runs: at most one job per lane.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lane {
    /// `go`, `analyse`.
    Search,
    /// `legal`, `legal count`, `next`, `perft`, `bench`.
    Work,
}

/// The most tiles of a hand whose `legal` and `next` are short jobs ([`Job::is_small`]).
pub const SMALL_HAND: usize = 2;

/// The most legal moves of a short `legal` listing or `next` ([`Job::is_small`]). Two tiles have
/// a few hundred moves on a board whose tiles must touch, listed in some 15 microseconds; but the
/// kids' opening has 9,900 (a listing of 2 ms) and the dice game's 25x25 board with `adjacent=off`
/// 388,752 (135 ms, 4.4 MB): not for the engine's own loop.
pub const SMALL_MOVES: u64 = 1_000;

/// A long-running command to run off the engine loop.
#[derive(Debug)]
pub struct Job {
    id: Option<Id>,
    kind: JobKind,
}

#[derive(Debug)]
enum JobKind {
    Go { position: Box<Position>, limits: Limits, options: EngineOptions },
    Analyse(Box<Analysis>),
    Bench,
    Perft { position: Box<Position>, depth: u32 },
    Legal { position: Box<Position>, count: bool },
    Next { position: Box<Position>, partial: Vec<Placement> },
}

impl Job {
    /// A `go` on a copy of the position.
    pub fn go(id: Option<Id>, position: Position, limits: Limits, options: EngineOptions) -> Job {
        Job { id, kind: JobKind::Go { position: Box::new(position), limits, options } }
    }

    /// An `analyse` of a game checked already.
    pub fn analyse(id: Option<Id>, analysis: Analysis) -> Job {
        Job { id, kind: JobKind::Analyse(Box::new(analysis)) }
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

    /// A `next` on a copy of the position: a job, so that a huge kept hand can be stopped.
    pub fn next(id: Option<Id>, position: Position, partial: Vec<Placement>) -> Job {
        Job { id, kind: JobKind::Next { position: Box::new(position), partial } }
    }

    /// The id of the command that started the job.
    pub fn id(&self) -> Option<&Id> {
        self.id.as_ref()
    }

    /// The lane the job runs on: `go` and `analyse` on the search lane, the others on the work
    /// lane.
    pub fn lane(&self) -> Lane {
        match self.kind {
            JobKind::Go { .. } | JobKind::Analyse(_) => Lane::Search,
            JobKind::Bench | JobKind::Perft { .. } | JobKind::Legal { .. } | JobKind::Next { .. } => {
                Lane::Work
            }
        }
    }

    /// Whether the job is known to be short: a `legal count` for a hand of at most [`SMALL_HAND`]
    /// tiles (counted without listing, in microseconds), and a `legal` or `next` for such a hand
    /// with at most [`SMALL_MOVES`] legal moves (well under a millisecond; the count that tells is
    /// the one just named). A driver may run such a job in its own loop rather than off it: `stop`
    /// and `isready` wait for it no longer than for any other line.
    pub fn is_small(&self) -> bool {
        let small_hand = |position: &Position| position.hand_to_move().len() <= SMALL_HAND;
        let few_moves = |position: &Position| position.movegen().legal_count() <= SMALL_MOVES;
        match &self.kind {
            JobKind::Legal { position, count: true } => small_hand(position),
            JobKind::Legal { position, count: false } | JobKind::Next { position, .. } => {
                small_hand(position) && few_moves(position)
            }
            JobKind::Go { .. } | JobKind::Analyse(_) | JobKind::Bench | JobKind::Perft { .. } => false,
        }
    }

    /// Whether the job is an `analyse` (a driver that runs jobs inline may hold it back a line, to
    /// show what the engine answers while one runs).
    pub fn is_analyse(&self) -> bool {
        matches!(self.kind, JobKind::Analyse(_))
    }

    /// Whether the job runs until `stop` (`go infinite`).
    pub fn is_infinite(&self) -> bool {
        matches!(&self.kind, JobKind::Go { limits, .. } if limits.infinite)
    }

    /// Runs the job to its end or until `stop` is set; `report` receives each progress report.
    /// Returns the response of the command that started it.
    pub fn run(self, stop: &AtomicBool, report: &mut dyn FnMut(Progress)) -> Response {
        let result = match self.kind {
            JobKind::Go { position, limits, options } => {
                go(&position, &limits, options, stop, &mut |i| report(Progress::Search(i)))
            }
            JobKind::Analyse(analysis) => analysis.run(stop, &mut |t| report(Progress::Turn(t))),
            JobKind::Bench => Ok(bench(stop)),
            JobKind::Legal { position, count } => Ok(legal(&position, count, stop)),
            JobKind::Next { position, partial } => match position.extensions(&partial, stop) {
                Ok(extensions) => Ok(Payload::Extensions(extensions)),
                Err(e) => Err(Failure::from(e)),
            },
            JobKind::Perft { position, depth } => {
                let count = crate::rules::perft_until(&position, depth, stop);
                Ok(Payload::Count { count, stopped: stop.load(Ordering::Relaxed) })
            }
        };
        Response { id: self.id, result }
    }
}

fn go(
    position: &Position,
    limits: &Limits,
    options: EngineOptions,
    stop: &AtomicBool,
    info: &mut dyn FnMut(Info),
) -> Result<Payload, Failure> {
    for mv in limits.searchmoves.iter().flatten() {
        position.check(mv).map_err(|e| Failure::new(Reason::from(&e), format!("searchmoves {mv}: {e}")))?;
    }
    // The search keeps its own clock (a time limit raises its own stop flag, never this one).
    let mut pace = InfoPace::new(options.search_options().multipv);
    let outcome =
        search::run(position, limits, &options.search_options(), stop, &mut |i: &Info| pace.offer(i, info));
    pace.flush(info);
    let Some(outcome) = outcome else {
        return Err(Failure::new(Reason::Internal, "the search found no move to make"));
    };
    // `infinite` promises no bestmove before `stop`, even when the search ends sooner.
    if limits.infinite {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    Ok(Payload::BestMove { best: outcome.best, score: outcome.score, nodes: outcome.nodes })
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
    held: Vec<Info>,
}

impl InfoPace {
    fn new(multipv: usize) -> InfoPace {
        let interval = INFO_INTERVAL * u32::try_from(multipv.max(1)).unwrap_or(u32::MAX);
        InfoPace { interval, last_written: None, writing: true, held: Vec::new() }
    }

    /// Takes one line of a report: a report starts with its first candidate (`multipv 1`).
    fn offer(&mut self, i: &Info, write: &mut dyn FnMut(Info)) {
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
            write(i.clone());
        } else {
            self.held.push(i.clone());
        }
    }

    /// Writes the report held back, if any.
    fn flush(&mut self, write: &mut dyn FnMut(Info)) {
        for line in self.held.drain(..) {
            write(line);
        }
    }
}

/// The most moves `legal` lists: a hand of many kept tiles can have billions, and the listing is
/// held until it is written (some 64 bytes a move). With more, the first ones the generator yields
/// and a last line `truncated` (PROTOCOL.md, `legal`).
pub const MAX_LISTED_MOVES: usize = 1_000_000;

/// The legal moves one a line (a last line `stopped` when the stop flag ended the listing early,
/// `truncated` after [`MAX_LISTED_MOVES`]), or their number. Moves are written straight into the
/// payload.
fn legal(position: &Position, count: bool, stop: &AtomicBool) -> Payload {
    legal_listing(position, count, stop, MAX_LISTED_MOVES)
}

/// [`legal`] with a limit of `most` moves listed.
fn legal_listing(position: &Position, count: bool, stop: &AtomicBool, most: usize) -> Payload {
    let mut generator = position.movegen().with_stop(stop);
    if count {
        let count = generator.legal_count();
        return Payload::Count { count, stopped: stop.load(Ordering::Relaxed) };
    }
    let mut lines = String::new();
    let mut listed = 0;
    let mut truncated = false;
    let _ = generator.for_each_legal(&mut |placements| {
        if listed == most {
            truncated = true;
            return ControlFlow::Break(());
        }
        if !lines.is_empty() {
            lines.push('\n');
        }
        lines.push_str(&Move::new(placements.to_vec()).to_string());
        listed += 1;
        ControlFlow::Continue(())
    });
    let last = if truncated {
        "truncated"
    } else if stop.load(Ordering::Relaxed) {
        "stopped"
    } else {
        return Payload::Text(lines);
    };
    if !lines.is_empty() {
        lines.push('\n');
    }
    lines.push_str(last);
    Payload::Text(lines)
}

/// `bench`: the search's fixed positions searched to a fixed node count each, one thread, seed 0
/// (see `search::bench`). The node total is a signature of search behaviour. A stopped bench
/// answers the total of the searches done, then `stopped`.
fn bench(stop: &AtomicBool) -> Payload {
    let result = search::bench(stop);
    let stopped = if result.stopped { " stopped" } else { "" };
    Payload::Text(format!("nodes {} nps {}{stopped}", result.nodes, result.nps))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(position: &Position, most: usize) -> Vec<String> {
        match legal_listing(position, false, &AtomicBool::new(false), most) {
            Payload::Text(text) => text.lines().map(str::to_owned).collect(),
            other => panic!("a listing, not {other:?}"),
        }
    }

    /// A position of `variant` (with `options`) whose player to move holds `hand`.
    fn holding(variant: crate::rules::Variant, options: &[(&str, &str)], hand: &[u8]) -> Position {
        let rules = crate::rules::Rules::with_options(variant, 2, options.iter().copied()).expect("rules");
        let mut position = Position::new(rules);
        position.draw(hand).expect("a draw");
        position
    }

    #[test]
    fn two_tiles_are_a_short_job_unless_they_have_too_many_moves_to_list() {
        use crate::rules::Variant::{Classic, Dice};
        let kinds = |position: &Position| {
            [
                Job::legal(None, position.clone(), true),
                Job::legal(None, position.clone(), false),
                Job::next(None, position.clone(), Vec::new()),
            ]
            .map(|job| job.is_small())
        };
        let open = holding(Dice, &[("size", "25"), ("adjacent", "off")], &[1, 2]);
        assert!(open.movegen().legal_count() > SMALL_MOVES);
        assert_eq!(kinds(&open), [true, false, false], "only the count runs in the loop");
        let touching = holding(Dice, &[("size", "25")], &[1, 2]);
        assert!(touching.movegen().legal_count() <= SMALL_MOVES);
        assert_eq!(kinds(&touching), [true, true, true]);
        assert_eq!(kinds(&holding(Classic, &[], &[1, 2, 3])), [false, false, false], "three tiles");
    }

    #[test]
    fn legal_lists_at_most_its_limit_then_says_truncated() {
        let rules = crate::rules::Rules::new(crate::rules::Variant::Classic, 2).expect("rules");
        let mut position = Position::new(rules);
        position.draw(&[1, 2, 3]).expect("a start draw");
        let all = listing(&position, usize::MAX);
        let n = all.len();
        assert!(n > 3 && !all.iter().any(|l| l == "stopped" || l == "truncated"), "{all:?}");
        assert_eq!(listing(&position, n), all, "exactly the limit is not truncated");
        let cut = listing(&position, n - 1);
        assert_eq!(cut[..n - 1], all[..n - 1]);
        assert_eq!(cut[n - 1], "truncated");
        assert_eq!(listing(&position, 0), vec!["truncated"]);
    }
}
