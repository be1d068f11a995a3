//! Every `go` ends: random games of every variant and player count, played to their natural end,
//! with a search under random node and depth limits at every turn. The last turns (by `rounds`, by
//! the bag running out, by a dice roll that cannot be written whole, by the kids' board filling up),
//! a single legal move, `pass` as the only move, one player and teams all come up on the way.

use crate::common;

use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zatre::rules::{Move, Phase, Position, Rules, Variant};
use zatre::search::{self, Limits, SearchOptions};

/// How long one `go nodes <= 5000` may take before the test calls it a hang: a search of 5,000
/// nodes takes milliseconds; the bound is generous for a loaded machine.
const BOUND: Duration = Duration::from_secs(20);

/// Runs the search on its own thread and fails when it does not answer within [`BOUND`].
fn go_within_bound(pos: &Position, limits: Limits, options: SearchOptions) -> Move {
    let (send, receive) = mpsc::channel();
    let position = pos.clone();
    let described = format!("{limits:?} in {}", pos.to_line());
    thread::spawn(move || {
        let outcome = search::run(&position, &limits, &options, &AtomicBool::new(false), &mut |_| {});
        let _ = send.send(outcome.map(|o| o.best));
    });
    match receive.recv_timeout(BOUND) {
        Ok(Some(best)) => best,
        Ok(None) => panic!("no move in a place phase: {described}"),
        Err(_) => panic!("go did not answer within {BOUND:?}: {described}"),
    }
}

fn rules_for(variant: Variant, players: u8, pick: u8) -> Rules {
    let mut options: Vec<(&str, &str)> = Vec::new();
    match (variant, pick % 4) {
        (Variant::Classic, 1) => options.push(("rules", "cz3")),
        (Variant::Classic, 2) => options.push(("rules", "cz4")),
        (Variant::Classic, 3) if players == 4 || players == 6 => options.push(("teams", "on")),
        (Variant::Dice, 1) => options.push(("adjacent", "off")),
        (Variant::Kids, 1) => options.push(("scoring", "dots")),
        _ => {}
    }
    if pick >= 4 {
        options.push(("rounds", ["1", "2", "3"][usize::from(pick % 3)]));
    }
    Rules::with_options(variant, players, options).expect("valid rules")
}

proptest! {
    #![proptest_config(ProptestConfig { max_shrink_iters: 8, ..common::proptest_config(24) })]

    /// Plays a game to its end, by the search's own moves, and searches every turn under random
    /// limits (depths to `u32::MAX`): every search answers, with a move `place` accepts; a node
    /// limit gives the same move twice.
    #[test]
    fn every_go_answers_under_node_and_depth_limits(
        variant in prop_oneof![Just(Variant::Classic), Just(Variant::Dice), Just(Variant::Kids)],
        players in 1u8..=6,
        pick in 0u8..8,
        seed in any::<u64>(),
    ) {
        let mut pos = Position::new(rules_for(variant, players, pick));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut turns = 0;
        while !pos.is_over() {
            prop_assert!(turns < 2_000, "the game does not end: {}", pos.to_line());
            pos.draw_random(&mut rng).expect("a draw is due");
            if pos.phase() != Phase::Place {
                continue;
            }
            let limits = Limits {
                nodes: Some(rng.random_range(1..=5_000)),
                // Now and then a depth past any game's length, up to the largest a line can ask
                // (`2 * depth` once overflowed near the end of the game).
                depth: rng.random_bool(0.7).then(|| match rng.random_range(0..10) {
                    0 => rng.random_range(4..=u32::MAX),
                    _ => rng.random_range(0..=3),
                }),
                ..Limits::default()
            };
            let options = SearchOptions { seed, ..SearchOptions::default() };
            let best = go_within_bound(&pos, limits.clone(), options.clone());
            if turns % 8 == 0 {
                prop_assert_eq!(&go_within_bound(&pos, limits, options), &best);
            }
            pos.play(&best).unwrap_or_else(|e| panic!("{best} is refused: {e}"));
            turns += 1;
        }
    }
}

/// `go nodes <n>` is checked before each unit of work and a unit under way is finished
/// (PROTOCOL.md, "go": node limits): at depth 1 the count passes `n` by at most one simulated
/// turn per thread, the largest of which is the next player's longest move list after any move
/// and any draw; `go nodes 0` ranks one move.
#[test]
fn a_node_limit_is_passed_by_at_most_the_turn_under_way_per_thread() {
    let mut pos = Position::new(Rules::new(Variant::Classic, 2).expect("2 players"));
    pos.draw(&[1, 2, 3]).expect("the start draw");
    let mut longest = 0;
    for m in pos.movegen().legal_moves() {
        let mut after = pos.clone();
        after.play(&m).expect("a legal move");
        for (drawn, _) in after.possible_draws() {
            let mut next = after.clone();
            next.draw(&drawn.values().collect::<Vec<_>>()).expect("a possible draw");
            longest = longest.max(next.movegen().legal_count());
        }
    }
    let spent = |n: u64, threads: usize| {
        let limits = Limits { nodes: Some(n), depth: Some(1), ..Limits::default() };
        let options = SearchOptions { threads, ..SearchOptions::default() };
        search::run(&pos, &limits, &options, &AtomicBool::new(false), &mut |_| {})
            .expect("a move is due")
            .nodes
    };
    assert_eq!(spent(0, 1), 1, "go nodes 0 ranks one move");
    let mut passed = false;
    for threads in [1, 2] {
        for n in (1..=600).step_by(7) {
            let nodes = spent(n, threads);
            assert!(nodes <= n + threads as u64 * longest, "nodes {n} with {threads} thread(s): {nodes}");
            passed |= nodes > n;
        }
    }
    assert!(passed, "the limit is never passed here: the test shows nothing");
}
