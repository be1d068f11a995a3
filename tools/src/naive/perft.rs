//! perft: the number of leaves of the game tree `depth` moves deep (PROTOCOL.md).
//!
//! A due draw is expanded first and uses no depth; a move uses one.

use super::game::{apply_draw, apply_move, distinct_draws};
use super::moves::legal_moves;
use super::position::{Phase, Position};

/// The perft count of `position` at `depth`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match position.phase {
        Phase::Over => 0,
        Phase::Draw => {
            distinct_draws(position).iter().map(|draw| perft(&apply_draw(position, draw), depth)).sum()
        }
        // Every legal move leads to a position whose perft 0 is 1.
        Phase::Place if depth == 1 => legal_moves(position, position.hand_to_move()).len() as u64,
        Phase::Place => legal_moves(position, position.hand_to_move())
            .iter()
            .map(|mv| perft(&apply_move(position, mv), depth - 1))
            .sum(),
    }
}
