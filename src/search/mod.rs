//! Move suggestion: the strategies behind `go`. The search never prints: it reports progress
//! through a callback and returns its outcome.
//!
//! - `random`: a uniformly random legal move.
//! - `greedy` ([`greedy`]): the move that adds most to the mover's standing now, ties broken by
//!   the fewest points left open to the next player.
//! - `search` ([`montecarlo`]): a static evaluation of what the sheets will be worth at the end
//!   ([`eval`]) picks a shortlist; the exact expectation over the next player's draws of the
//!   margin after their reply ranks it; Monte Carlo playouts of the following turns, with
//!   successive halving, choose among the best.
//!
//! Every strategy reads moves through [`scan`] and runs under one [`budget`], which owns the
//! limits and the clock: [`run`] ends by itself at its time limit, even inside a move generator.

mod bench;
mod budget;
mod eval;
mod greedy;
mod montecarlo;
mod open_points;
mod scan;

pub use bench::{bench, bench_positions, BenchResult};

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::rules::{Move, Phase, Position};

/// Which built-in player answers `go`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// A uniformly random legal move.
    Random,
    /// The move that adds most to the player's sheet now.
    Greedy,
    /// The strong player: evaluation plus simulation of the following turns.
    Search,
}

impl Strategy {
    /// Parses `random`, `greedy` or `search`.
    pub fn parse(name: &str) -> Option<Strategy> {
        match name {
            "random" => Some(Strategy::Random),
            "greedy" => Some(Strategy::Greedy),
            "search" => Some(Strategy::Search),
            _ => None,
        }
    }

    /// The name `parse` reads.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Greedy => "greedy",
            Strategy::Search => "search",
        }
    }
}

/// Engine options that shape a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub strategy: Strategy,
    /// Worker threads (1 = the calling thread only).
    pub threads: usize,
    /// How many best candidates to report.
    pub multipv: usize,
    /// Seed of the search's own random generator: the same position, seed and node limit give
    /// the same move.
    pub seed: u64,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions { strategy: Strategy::Search, threads: 1, multipv: 1, seed: 0 }
    }
}

/// The longest a search with no limit at all takes.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// When to stop. With no limit at all the search takes [`DEFAULT_MOVE_TIME`].
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Run until the stop flag is raised.
    pub infinite: bool,
}

/// A progress report.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// Rank of this candidate, from 1.
    pub multipv: usize,
    /// The expected final margin (or score, alone), in sheet points.
    pub score: f64,
    /// The standard error of `score` over the playouts (0 when no playout sampled it).
    pub std_error: f64,
    /// How many playouts `score` rests on (0: the static evaluation or an exact expectation).
    pub samples: u64,
    /// The candidate move and what follows it.
    pub pv: Vec<Move>,
}

/// What a search found: the move to play.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Move,
    /// The expected final margin of the best move, in sheet points.
    pub score: f64,
    pub nodes: u64,
}

/// Searches the position for the player to move. `None` when no move is due (a draw is due or
/// the game is over).
///
/// The search keeps to its limits by itself: under a time limit (the move time, or
/// [`DEFAULT_MOVE_TIME`] when nothing else limits it) it answers when the time is up, a watchdog
/// stopping even a move generator deep in a huge hand. `stop` ends it early; the search only
/// reads it, so a caller of `go infinite` can keep waiting for it after the search ends.
pub fn run(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> Option<SearchResult> {
    if pos.phase() != Phase::Place {
        return None;
    }
    budget::with_budget(limits, stop, |budget| match options.strategy {
        Strategy::Random => Some(random_move(pos, options, budget.stop_flag(), on_info)),
        Strategy::Greedy => Some(greedy_move(pos, budget.stop_flag(), on_info)),
        Strategy::Search => montecarlo::search(pos, limits, options, budget, on_info),
    })
}

fn single_info(started: Instant, nodes: u64, score: f64, best: &Move, on_info: &mut dyn FnMut(&Info)) {
    let time_ms = started.elapsed().as_millis() as u64;
    on_info(&Info {
        depth: 1,
        nodes,
        nps: nodes * 1000 / time_ms.max(1),
        time_ms,
        multipv: 1,
        score,
        std_error: 0.0,
        samples: 0,
        pv: vec![best.clone()],
    });
}

/// A uniformly random legal move (reservoir sampling keeps the choice uniform without
/// materialising the moves; uniform among the first [`scan::MOVE_CAP`] in a monstrous hand).
fn random_move(
    pos: &Position,
    options: &SearchOptions,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed ^ pos.turn() as u64);
    let (best, seen) = pos.movegen().with_soft_stop(stop).random_legal(&mut rng, scan::MOVE_CAP);
    single_info(started, seen, 0.0, &best, on_info);
    SearchResult { best, score: 0.0, nodes: seen }
}

/// The greedy move; its score is what it adds to the mover's standing now.
fn greedy_move(pos: &Position, stop: &AtomicBool, on_info: &mut dyn FnMut(&Info)) -> SearchResult {
    let started = Instant::now();
    let (greedy, nodes) = greedy::greedy_counted(pos, stop);
    let (best, score) = match greedy {
        Some(s) => (Move::new(s.placements), s.gain as f64),
        None => (Move::pass(), 0.0),
    };
    single_info(started, nodes, score, &best, on_info);
    SearchResult { best, score, nodes }
}

/// The greedy choice as a plain function, for tools that play many games in-process.
pub fn greedy_choice(pos: &Position) -> Option<Move> {
    if pos.phase() != Phase::Place {
        return None;
    }
    greedy::greedy(pos, &AtomicBool::new(false)).map(|s| Move::new(s.placements))
}

#[cfg(test)]
mod tests;
