//! Tile-by-tile checking of a move being built (`Position::extensions`), against the legal moves,
//! and the reasons given for placements that are part of no legal move.

mod common;

use common::{classic, mv};

/// Regression: with hand `1 1 2`, `1@h8,1@h9,1@h10` was refused with "1 is not in the hand 112";
/// the reason says how many the hand holds and how many the move places.
#[test]
fn a_value_placed_more_often_than_the_hand_holds_it_says_how_many() {
    let pos = classic("", &["112", "-"], "");
    let e = pos.check(&mv(&pos, "1@h8,1@h9,1@h10")).unwrap_err();
    assert_eq!(e.to_string(), "the hand 112 holds two 1s and the move places three");
    let e = pos.check(&mv(&pos, "2@h8,2@h9")).unwrap_err();
    assert_eq!(e.to_string(), "the hand 112 holds one 2 and the move places two");
    let e = pos.check(&mv(&pos, "1@h8,4@h9")).unwrap_err();
    assert_eq!(e.to_string(), "the hand 112 holds no 4");
}
