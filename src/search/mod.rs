//! Move suggestion: the strategies behind `go`. The search never prints: it reports progress
//! through a callback and returns its outcome.
//!
//! - `random`: a uniformly random legal move.
//! - `greedy` (`greedy.rs`): the move that adds most to the mover's standing now, ties broken by
//!   the fewest points left open to the next player.
//! - `search` (`montecarlo.rs`): a static evaluation of what the sheets will be worth at the end
//!   (`eval.rs`) picks a shortlist; the exact expectation over the next player's draws of the
//!   margin after their reply ranks it; the same over the next two turns ranks the best of it
//!   (or, at `go depth 3` and more, Monte Carlo playouts of the following turns). In the
//!   two-player kids' game (points) `search` is `kids.rs` instead: every legal move valued by the
//!   points it scores less the opponent's expected best reply over the 21 rolls, which the fast
//!   reply model (`kids_reply.rs`) finds from per-cell points without listing the moves, ranked
//!   by the chance to win that leaves; the last few open cells solved exactly (`kids_end.rs`).
//!
//! Every strategy reads moves through `scan.rs` and runs under one budget (`budget.rs`), which
//! owns the limits and the clock: [`run`] ends by itself at its time limit, even inside a move
//! generator. [`run_foreseeing`] is the clairvoyant `search` that measures its ceiling: it knows
//! the draws to come (`foresight.rs`; for tools only, never offered by the protocol).

mod bench;
mod budget;
mod eval;
mod foresight;
mod greedy;
mod kids;
mod kids_end;
mod kids_reply;
pub mod learned;
mod montecarlo;
mod open_points;
mod opponents;
mod scan;

pub use bench::{bench, bench_positions, BenchResult};
pub use eval::{equities_with, Weights};
pub use foresight::{Foresight, ForesightError};
pub use learned::Eval;
pub use opponents::{Model, Watch};

use budget::Budget;
use foresight::Sight;
use scan::{Choices, Stop};

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
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
    /// Seed of the search's own random generator: the same position, seed, node limit and
    /// [`Limits::models`] give the same move.
    pub seed: u64,
    /// The evaluation `search` values positions with (`Eval`; [`Eval::Learned`] is today's
    /// wherever no model of the table is built in). [`Eval::Sheets`] by default: the learned
    /// one played no better (tools/STRENGTH.md).
    pub eval: Eval,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions { strategy: Strategy::Search, threads: 1, multipv: 1, seed: 0, eval: Eval::Sheets }
    }
}

/// The longest a search with no limit at all takes.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// The mover's clock (`go time <ms> [inc <ms>] [movestogo <n>]`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The time left on the mover's clock.
    pub left: Duration,
    /// What the clock gains per move.
    pub inc: Duration,
    /// The moves to the next time control, if there is one.
    pub movestogo: Option<u32>,
}

/// When to stop, what to search, and how the other players are expected to move. The first limit
/// reached ends the search; with no limit at all it takes [`DEFAULT_MOVE_TIME`].
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The time for this move.
    pub movetime: Option<Duration>,
    /// The most nodes (moves generated and scored).
    pub nodes: Option<u64>,
    /// `search`: how far the stages look (0 the static ranking, 1 the next turn, 2 the next two
    /// turns, d >= 3 playouts of d turns instead).
    pub depth: Option<u32>,
    /// No time limit unless one is given (`movetime`, `clock`): the search runs until the stop
    /// flag is raised or, when it has nothing left to do, ends; waiting for `stop` is the caller's.
    pub infinite: bool,
    /// The mover's clock: the search takes its share of it ([`Clock`]).
    pub clock: Option<Clock>,
    /// Search only these moves (`go searchmoves`): the legal ones among them, or every move when
    /// none of them is legal.
    pub searchmoves: Option<Vec<Move>>,
    /// How each seat is expected to choose its moves in the simulated turns, by seat (a seat not
    /// listed: [`Model::Greedy`]); a [`Watch`] of the game's moves gives them.
    pub models: Vec<Model>,
}

/// No limit but the stop flag: what the search's tests run their stages under.
#[cfg(test)]
pub(crate) static UNLIMITED: Limits = Limits {
    movetime: None,
    nodes: None,
    depth: None,
    infinite: true,
    clock: None,
    searchmoves: None,
    models: Vec::new(),
};

/// A progress report.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// Rank of this candidate, from 1.
    pub multipv: usize,
    /// The expected final margin over the best other player (alone: the expected final score),
    /// in sheet points: the same quantity for every strategy and stage.
    pub score: f64,
    /// The standard error of `score` over the playouts (0 when no playout sampled it).
    pub std_error: f64,
    /// Where playouts ran: the share of them this candidate won (margin > 0 at the playout's end
    /// by the evaluation, draws half).
    pub winprob: Option<f64>,
    /// How many playouts `score` rests on (0: the static evaluation or an exact expectation).
    pub samples: u64,
    /// The candidate move and what follows it.
    pub pv: Vec<Move>,
}

impl Info {
    /// The report of `mv`, ranked `rank` (0: the best), valued `score` exactly (no playout), at
    /// `depth` after `nodes` in `elapsed`.
    fn exact(depth: u32, nodes: u64, elapsed: Duration, rank: usize, mv: Move, score: f64) -> Info {
        let time_ms = elapsed.as_millis() as u64;
        Info {
            depth,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            time_ms,
            multipv: rank + 1,
            score,
            std_error: 0.0,
            winprob: None,
            samples: 0,
            pv: vec![mv],
        }
    }
}

/// What a search found: the move to play.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Move,
    /// The expected final margin of the best move over the best other player (alone: the
    /// expected final score), in sheet points, as [`Info::score`].
    pub score: f64,
    pub nodes: u64,
}

/// Searches the position for the player to move. `None` when no move is due (a draw is due or
/// the game is over).
///
/// The search keeps to its limits by itself: under a time limit (the move time, the clock's share,
/// or [`DEFAULT_MOVE_TIME`] when nothing else limits it) it answers when the time is up, a
/// watchdog stopping even a move generator deep in a huge hand. `stop` ends it early; the search only
/// reads it, so a caller of `go infinite` can keep waiting for it after the search ends.
pub fn run(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> Option<SearchResult> {
    run_with(pos, limits, options, None, stop, on_info)
}

/// [`run`] by a clairvoyant player: `search` knowing the draws to come ([`Foresight`]), its only
/// uncertainty gone; the ceiling of `search`, for tools that measure it (an engine never knows
/// the future, so the protocol offers no way to give it). `random` and `greedy` look at no
/// draw: for them it is [`run`].
///
/// # Errors
/// The foresight does not fit the position ([`Foresight::check`]); nothing is searched then.
pub fn run_foreseeing(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    foresight: Foresight,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> Result<Option<SearchResult>, ForesightError> {
    let sight = Sight::new(pos, foresight)?;
    Ok(run_with(pos, limits, options, Some(sight), stop, on_info))
}

/// [`run`], clairvoyant when given a [`Sight`].
fn run_with(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    sight: Option<Sight>,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> Option<SearchResult> {
    if pos.phase() != Phase::Place {
        return None;
    }
    let only: Option<Vec<Move>> = limits
        .searchmoves
        .as_ref()
        .map(|moves| moves.iter().filter(|mv| pos.check(mv).is_ok()).cloned().collect::<Vec<_>>())
        .filter(|moves| !moves.is_empty());
    let choices = only.as_deref().map_or(Choices::All, Choices::Only);
    budget::with_budget(limits, pos.own_turns_left_estimate(), stop, |budget| match options.strategy {
        Strategy::Random => Some(random_move(pos, options, choices, budget, on_info)),
        Strategy::Greedy => Some(greedy_move(pos, options, choices, budget, on_info)),
        Strategy::Search if kids::applies(pos) => kids::search(
            pos,
            limits.depth.unwrap_or(1),
            sight.as_ref().and_then(Sight::rolls),
            only.as_deref(),
            options.multipv.max(1),
            budget,
            on_info,
        ),
        Strategy::Search => montecarlo::search(pos, limits, options, only.as_deref(), sight, budget, on_info),
    })
}

/// Reports moves valued exactly (no sampling), best first, each with its score, at `depth`.
fn report_moves(
    depth: u32,
    elapsed: Duration,
    nodes: u64,
    moves: &[(Move, f64)],
    on_info: &mut dyn FnMut(&Info),
) {
    for (rank, (mv, score)) in moves.iter().enumerate() {
        on_info(&Info::exact(depth, nodes, elapsed, rank, mv.clone(), *score));
    }
}

/// A uniformly random legal move among `choices` (reservoir sampling keeps the choice uniform
/// without materialising the moves; uniform among the first [`scan::MOVE_CAP`] in a monstrous
/// hand, or the first as many as a node limit allows). Its score is the static evaluation's value
/// of the move.
fn random_move(
    pos: &Position,
    options: &SearchOptions,
    choices: Choices<'_>,
    budget: &Budget<'_>,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed ^ pos.turn() as u64);
    let (best, seen) = match choices {
        Choices::All => pos
            .movegen()
            .with_soft_stop(budget.stop_flag())
            .random_legal(&mut rng, budget.scan_cap(scan::MOVE_CAP)),
        Choices::Only(moves) => (moves[rng.random_range(0..moves.len())].clone(), 1),
    };
    let score = montecarlo::static_value(pos, best.placements());
    report_moves(1, started.elapsed(), seen, &[(best.clone(), score)], on_info);
    SearchResult { best, score, nodes: seen }
}

/// The greedy move among `choices` (with MultiPV k, the k best in greedy's order are reported);
/// a move's score is the static evaluation's value of the move. It looks at the first
/// [`scan::MOVE_CAP`] legal moves at most, or the first as many as a node limit allows.
fn greedy_move(
    pos: &Position,
    options: &SearchOptions,
    choices: Choices<'_>,
    budget: &Budget<'_>,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let started = Instant::now();
    let cap = budget.scan_cap(scan::MOVE_CAP);
    let (ranked, nodes) =
        greedy::greedy_ranked(pos, choices, Stop::Answer(budget.stop_flag()), options.multipv.max(1), cap);
    let mut moves: Vec<(Move, f64)> = ranked
        .into_iter()
        .map(|s| {
            let score = montecarlo::static_value(pos, &s.placements);
            (Move::new(s.placements), score)
        })
        .collect();
    if moves.is_empty() {
        moves.push((Move::pass(), montecarlo::static_value(pos, &[])));
    }
    report_moves(1, started.elapsed(), nodes, &moves, on_info);
    let (best, score) = moves.swap_remove(0);
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
