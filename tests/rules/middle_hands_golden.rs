//! Golden legal-move counts of middle hands: `tests/golden/middle-hands.txt` and
//! `tests/golden/seeded-hands.txt` hold real positions whose hand to move holds 3 to 11 tiles
//! (kept from earlier turns), from seeded games of every classic rule set and player count, with
//! counts made by the naive reference generator in `tools/src/naive/` (which shares no code with
//! `src/rules/`). The rules core must reproduce every count, both by counting (`legal count`) and
//! by listing the moves (`legal`, `go`). The same positions are the `hand3` ... `hand9`,
//! `seeded_size` and `seeded_rules` groups of `cargo bench --bench movegen`.

use crate::common;

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use zatre::rules::{Move, Position};
use zatre::search::{self, Limits, SearchOptions};

/// Counts and lists every position of a golden file of middle hands, checks the first listed
/// move of each with the rules core's own check, and returns how many positions of each hand
/// size it held.
fn check_golden(name: &str, text: &str) -> [usize; 12] {
    let mut checked = 0;
    let mut sizes = [0usize; 12];
    let mut failures = Vec::new();
    for (number, depth, expected, pos) in common::golden_counts(text) {
        assert_eq!(depth, 1, "{name} line {number}: the counts are of legal moves (depth 1)");
        let tiles = pos.hand_to_move().len();
        assert!((3..=11).contains(&tiles), "{name} line {number}: a hand of 3 to 11 tiles, not {tiles}");
        sizes[tiles] += 1;
        let counted = pos.movegen().legal_count();
        let mut listed = 0u64;
        let mut first = None;
        let _ = pos.movegen().for_each_legal(&mut |placements| {
            listed += 1;
            first.get_or_insert_with(|| Move::new(placements.to_vec()));
            ControlFlow::Continue(())
        });
        if counted != expected || listed != expected {
            failures.push(format!(
                "{name} line {number}: counted {counted}, listed {listed}, golden {expected} (hand {})",
                pos.hand_to_move()
            ));
        }
        // The first listed move is legal by the rules core's own check.
        if let Some(mv) = first {
            if let Err(e) = pos.movegen().check(&mv) {
                failures.push(format!("{name} line {number}: the listed move {mv} is not legal: {e}"));
            }
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} positions differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    sizes
}

#[test]
fn the_rules_core_counts_and_lists_every_golden_middle_hand() {
    let sizes = check_golden("middle-hands.txt", include_str!("../golden/middle-hands.txt"));
    let checked: usize = sizes.iter().sum();
    assert!(checked >= 200, "the corpus holds at least 200 positions, found {checked}");
    for tiles in [3, 4, 5, 6, 9] {
        assert!(
            sizes[tiles] >= 10,
            "the corpus holds at least 10 hands of {tiles} tiles, found {}",
            sizes[tiles]
        );
    }
}

#[test]
fn the_rules_core_counts_and_lists_every_golden_seeded_hand() {
    let sizes = check_golden("seeded-hands.txt", include_str!("../golden/seeded-hands.txt"));
    let checked: usize = sizes.iter().sum();
    assert!(checked >= 1_000, "the corpus holds at least 1,000 positions, found {checked}");
    for (tiles, &n) in sizes.iter().enumerate().skip(3) {
        assert!(n >= 100, "the corpus holds at least 100 hands of {tiles} tiles, found {n}");
    }
}

/// How long a `go` may take before the test calls it a hang: the searches below are limited to
/// 100 ms or a few thousand nodes; the bound is generous for a loaded machine. (No speed is
/// measured here: that is `cargo bench --bench movegen` and docs/contributing.md.)
const HANG: Duration = Duration::from_secs(60);

/// Runs the search on its own thread; the move it answers with, or a failure naming the position.
fn go_answers(pos: &Position, limits: Limits) -> Result<Move, String> {
    let (send, receive) = mpsc::channel();
    let position = pos.clone();
    let described = format!("{limits:?} in {}", pos.to_line());
    thread::spawn(move || {
        let outcome =
            search::run(&position, &limits, &SearchOptions::default(), &AtomicBool::new(false), &mut |_| {});
        let _ = send.send(outcome.map(|o| o.best));
    });
    let best = match receive.recv_timeout(HANG) {
        Ok(Some(best)) => best,
        Ok(None) => return Err(format!("no move in a place phase: {described}")),
        Err(_) => return Err(format!("go did not answer within {HANG:?}: {described}")),
    };
    pos.clone().play(&best).map_err(|e| format!("{best} is refused ({e}): {described}"))?;
    Ok(best)
}

/// `go` in the corpus's biggest hands: the 12 positions of `seeded-hands.txt` with the most moves,
/// the 12 with the most tiles (then moves), and the three positions once reported slow (the hand
/// `123345666` on one board under three rule sets, `p1` to `p3`). Each answers a move the rules accept, under a
/// time limit of 100 ms and under a node limit at depth 1 (where the search lists the root's
/// moves, the slow part in such a hand).
#[test]
fn go_answers_a_legal_move_in_the_biggest_seeded_hands() {
    let text = include_str!("../golden/seeded-hands.txt");
    let mut golden = common::golden_counts(text);
    let mut chosen: Vec<(String, Position)> = Vec::new();
    golden.sort_by_key(|(_, _, count, _)| std::cmp::Reverse(*count));
    chosen.extend(golden.iter().take(12).map(|(n, _, _, pos)| (format!("line {n}"), pos.clone())));
    golden.sort_by_key(|(_, _, count, pos)| std::cmp::Reverse((pos.hand_to_move().len(), *count)));
    chosen.extend(golden.iter().take(12).map(|(n, _, _, pos)| (format!("line {n}"), pos.clone())));
    assert!(
        golden.iter().take(12).all(|(_, _, _, pos)| pos.hand_to_move().len() >= 10),
        "the corpus holds at least 12 hands of 10 or 11 tiles"
    );
    // The line after each `# the hand 123345666 ...` comment.
    let lines: Vec<&str> = text.lines().collect();
    let slow: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("# the hand 123345666 on one board"))
        .map(|i| i + 2)
        .collect();
    assert_eq!(slow.len(), 3, "the three positions p1 to p3");
    for n in slow {
        let (_, _, _, pos) = golden.iter().find(|(m, _, _, _)| *m == n).expect("a golden line");
        assert_eq!(pos.to_line().matches("hands=123345666 ").count(), 1, "line {n} holds the hand 123345666");
        chosen.push((format!("line {n} (123345666)"), pos.clone()));
    }
    let mut failures = Vec::new();
    for (name, pos) in &chosen {
        let by_time = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
        let by_nodes = Limits { nodes: Some(3_000), depth: Some(1), ..Limits::default() };
        for limits in [by_time, by_nodes] {
            if let Err(e) = go_answers(pos, limits) {
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
