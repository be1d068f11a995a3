//! The rules core through the library: legality, scoring, the game's status and next player,
//! the largest placement, property tests over random games, and the golden counts made by the
//! naive reference (`tests/golden/`). One test binary for the purpose, so the suite links once.

#[path = "../common/mod.rs"]
mod common;

mod largest;
mod largest_golden;
mod legality;
mod middle_hands_golden;
mod next;
mod perft_golden;
mod props;
mod scoring;
mod status;
