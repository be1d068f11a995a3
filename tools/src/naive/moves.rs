//! Legal moves: the valid sets filtered by the must-place rule, or `pass` alone.

use std::collections::HashSet;

use super::legality::{valid_sets, PlacementSet};
use super::position::{MustPlace, Position};

/// A legal move: `pass` is the empty set of placements.
pub type Move = PlacementSet;

/// The legal moves for `hand` on the position's board. `pass` (an empty vector) is returned
/// only when no nonempty set is valid.
pub fn legal_moves(position: &Position, hand: &[u8]) -> Vec<Move> {
    let valid = valid_sets(position, hand);
    if valid.is_empty() {
        return vec![Vec::new()];
    }
    match position.rules.must_place {
        MustPlace::Maximum => keep_largest(valid),
        MustPlace::Maximal => keep_maximal(valid),
    }
}

/// Whether `hand` has a legal move other than `pass`.
pub fn has_placing_move(position: &Position, hand: &[u8]) -> bool {
    !valid_sets(position, hand).is_empty()
}

/// The sets of the largest size.
fn keep_largest(valid: Vec<PlacementSet>) -> Vec<PlacementSet> {
    let largest = valid.iter().map(Vec::len).max().unwrap_or(0);
    valid.into_iter().filter(|s| s.len() == largest).collect()
}

/// The sets that no other set of the list strictly contains: every proper subset of every
/// set is marked as contained, the unmarked ones are kept.
fn keep_maximal(valid: Vec<PlacementSet>) -> Vec<PlacementSet> {
    let mut contained: HashSet<PlacementSet> = HashSet::new();
    for set in &valid {
        for subset in proper_subsets(set) {
            contained.insert(subset);
        }
    }
    valid.into_iter().filter(|s| !contained.contains(s)).collect()
}

/// Every proper subset of `set` (order kept, so a subset of a sorted set is sorted).
fn proper_subsets(set: &PlacementSet) -> Vec<PlacementSet> {
    let n = set.len();
    let mut out = Vec::new();
    for mask in 0..(1u32 << n) - 1 {
        let subset = (0..n).filter(|&i| mask & (1 << i) != 0).map(|i| set[i]).collect();
        out.push(subset);
    }
    out
}
