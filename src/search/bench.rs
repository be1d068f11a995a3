//! `bench`: a fixed set of positions searched to fixed node counts. The total node count is the
//! signature of search behaviour: it changes only when what the search does changes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::rules::{Phase, Position, Rules, Variant};

use super::{greedy_choice, run, Limits, SearchOptions, Strategy};

/// What a bench run measured.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// The signature: the sum of the nodes of every search.
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// Whether `stop` ended it before every search was done (`nodes` then counts those done).
    pub stopped: bool,
}

/// A bench game: a variant, a player count, extra options and the turns greedy plays first.
type BenchGame = (Variant, u8, &'static [(&'static str, &'static str)], u32);

/// The bench games.
const GAMES: [BenchGame; 6] = [
    (Variant::Classic, 2, &[], 20),
    (Variant::Classic, 3, &[("rules", "cz3")], 24),
    (Variant::Classic, 4, &[("teams", "on")], 40),
    (Variant::Classic, 1, &[("rules", "cz4")], 12),
    (Variant::Dice, 2, &[], 14),
    (Variant::Kids, 2, &[], 10),
];

/// The bench positions: seeded games played by greedy to mid-game, with the next hand drawn.
pub fn bench_positions() -> Vec<Position> {
    GAMES
        .iter()
        .enumerate()
        .filter_map(|(i, &(variant, players, options, turns))| {
            let rules = Rules::with_options(variant, players, options.iter().copied()).ok()?;
            let mut rng = ChaCha8Rng::seed_from_u64(1000 + i as u64);
            let mut pos = Position::new(rules);
            loop {
                if pos.is_over() {
                    return None;
                }
                pos.draw_random(&mut rng).ok()?;
                if pos.turn() > turns {
                    return Some(pos);
                }
                let mv = greedy_choice(&pos)?;
                pos.play_unchecked(mv.placements());
                debug_assert_ne!(pos.phase(), Phase::Place);
            }
        })
        .collect()
}

/// The node limit of each bench search: enough for stage 2 and part of the next two turns.
const NODES: u64 = 400_000;

/// Searches every bench position to a fixed node count on one thread, seed 0, until `stop` is
/// set: a search under way ends at once and its nodes are dropped, so a stopped bench's total is
/// that of the searches done.
pub fn bench(stop: &AtomicBool) -> BenchResult {
    let started = Instant::now();
    // Depth 2 (the default with opponents; in two-player kids, the two turns of `kids.rs`) makes
    // the bench value the next two turns too.
    let limits = Limits { nodes: Some(NODES), depth: Some(2), ..Limits::default() };
    let options = SearchOptions { strategy: Strategy::Search, ..SearchOptions::default() };
    let mut total = 0;
    for pos in bench_positions() {
        let outcome = run(&pos, &limits, &options, stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(outcome) = outcome {
            total += outcome.nodes;
        }
    }
    let time_ms = started.elapsed().as_millis() as u64;
    let stopped = stop.load(Ordering::Relaxed);
    BenchResult { nodes: total, nps: total * 1000 / time_ms.max(1), time_ms, stopped }
}
