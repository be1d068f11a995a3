//! Golden legal-move counts of middle hands: `tests/golden/middle-hands.txt` and
//! `tests/golden/seeded-hands.txt` hold real positions whose hand to move holds 3 to 11 tiles
//! (kept from earlier turns), from seeded games of every classic rule set and player count, with
//! counts made by the naive reference generator in `tools/src/naive/` (which shares no code with
//! `src/rules/`). The rules core must reproduce every count, both by counting (`legal count`) and
//! by listing the moves (`legal`, `go`). The same positions are the `hand3` ... `hand9`,
//! `seeded_size` and `seeded_rules` groups of `cargo bench --bench movegen`.

use crate::common;

use std::ops::ControlFlow;

use zatre::rules::Move;

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
