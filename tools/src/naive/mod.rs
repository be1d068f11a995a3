//! A deliberately naive, independent reference move counter for Zatre.
//!
//! It shares no code with the engine's `zatre::rules`: it reads docs/rules.md and PROTOCOL.md
//! again, and trades all speed for being obviously right, to give golden perft counts that test
//! the engine's rules core.
//!
//! # How counts are made
//!
//! - The board is a `HashMap<(col, row), value>`; every run sum walks the line again.
//! - [`legality::valid_sets`] runs a depth-first search over *ordered* sequences of placements:
//!   at every step each distinct value left in the hand is tried on each empty cell, and the
//!   step is kept if it fits (a cell, empty, an occupied edge neighbour unless the variant
//!   waives it or it is the classic first tile on `h8`, no run over the limit). A step on a
//!   classic `D` cell records whether the forced exception held at that point (its value fits
//!   on no normal cell). Each prefix's *set* goes into a map from the sorted set to "valid",
//!   OR-ed over all the orders that reach it; a prefix is valid by an order when each of its
//!   `D` tiles lies on a run of 10-12 in the prefix's final position or was forced.
//! - [`moves::legal_moves`] keeps the largest valid sets (`must_place=maximum`) or those no
//!   other valid set strictly contains (`maximal`, by marking every proper subset), or `pass`.
//! - [`game`] expands draws (multisets of the bag, or the 21 rolls), plays moves and decides
//!   the end of the game; [`perft::perft`] counts leaves as PROTOCOL.md defines.
//!
//! # The golden file
//!
//! `tests/golden/perft.txt` holds lines `<depth> <count> <position line>` with `#` comments.
//! Regenerate the counts (from the workspace root) with
//!
//! ```text
//! cargo build --release -p zatre-tools
//! target/release/zatre-naive-perft --regenerate < tests/golden/perft.txt > /tmp/perft.txt
//! mv /tmp/perft.txt tests/golden/perft.txt
//! ```
//!
//! and verify them with `target/release/zatre-naive-perft --check < tests/golden/perft.txt`.
//! `--list` prints the legal moves of a `phase=place` position line (placements sorted by
//! cell, not necessarily in a legal order), to compare move lists when a count differs.
//! Without a flag the tool reads `<depth> <position line>` per line and prints each count;
//! `--depth D` reads bare position lines.

pub mod driver;
pub mod error;
pub mod game;
pub mod geometry;
pub mod largest;
pub mod legality;
pub mod moves;
pub mod perft;
pub mod position;

#[cfg(test)]
mod tests;
