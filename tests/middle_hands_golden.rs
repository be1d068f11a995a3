//! Golden legal-move counts of middle hands: `tests/golden/middle-hands.txt` holds real positions
//! whose hand to move holds 3 to 11 tiles (kept from earlier turns), from seeded games of every
//! classic rule set and player count, with counts made by the naive reference generator in
//! `tools/src/naive/` (which shares no code with `src/rules/`). The rules core must reproduce every
//! count, both by counting (`legal count`) and by listing the moves (`legal`, `go`). The same
//! positions are the `hand3` ... `hand9` groups of `cargo bench --bench movegen`.

mod common;

use std::ops::ControlFlow;

use zatre::rules::Move;

#[test]
fn the_rules_core_counts_and_lists_every_golden_middle_hand() {
    let mut checked = 0;
    let mut sizes = [0usize; 12];
    let mut failures = Vec::new();
    for (number, depth, expected, pos) in common::golden_counts(include_str!("golden/middle-hands.txt")) {
        assert_eq!(depth, 1, "line {number}: the counts are of legal moves (depth 1)");
        let tiles = pos.hand_to_move().len();
        assert!((3..=11).contains(&tiles), "line {}: a hand of 3 to 11 tiles, not {tiles}", number);
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
                "line {}: counted {counted}, listed {listed}, golden {expected} (hand {})",
                number,
                pos.hand_to_move()
            ));
        }
        // The first listed move is legal by the rules core's own check.
        if let Some(mv) = first {
            if let Err(e) = pos.movegen().check(&mv) {
                failures.push(format!("line {}: the listed move {mv} is not legal: {e}", number));
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
    assert!(checked >= 200, "the corpus holds at least 200 positions, found {checked}");
    for tiles in [3, 4, 5, 6, 9] {
        assert!(
            sizes[tiles] >= 10,
            "the corpus holds at least 10 hands of {tiles} tiles, found {}",
            sizes[tiles]
        );
    }
}
