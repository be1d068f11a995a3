//! Turn flow: how many tiles a player draws, the distinct draws, playing a move, and the end
//! of the game.

use super::geometry::Variant;
use super::legality::fits;
use super::moves::{has_placing_move, Move};
use super::position::{Leftovers, Phase, Position};

/// Classic: how many tiles the player to move draws now (before the bag cap).
fn classic_draw_wanted(position: &Position) -> u32 {
    let hand = position.hand_to_move();
    if hand.is_empty() {
        return if position.turn == 1 && position.board.is_empty() { 3 } else { 2 };
    }
    match position.rules.leftovers {
        Leftovers::De => {
            if hand.len() >= 2 && has_placing_move(position, hand) {
                0
            } else {
                1
            }
        }
        Leftovers::Cz3 => {
            if has_placing_move(position, hand) {
                0
            } else {
                1
            }
        }
        Leftovers::Cz4 => 1,
    }
}

/// Every multiset of `count` values taken from `available` (counts of values `low`, `low+1`,
/// ...), each as an ascending list. One empty multiset when `count` is 0.
pub fn multisets(available: &[u32], low: u8, count: u32) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    collect_multisets(available, low, count, &mut Vec::new(), &mut out);
    out
}

/// Recursive helper of [`multisets`]: chooses how many of the first value, then the rest.
fn collect_multisets(available: &[u32], value: u8, count: u32, chosen: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if count == 0 {
        out.push(chosen.clone());
        return;
    }
    let Some((&first, rest)) = available.split_first() else {
        return;
    };
    for take in (0..=first.min(count)).rev() {
        let before = chosen.len();
        chosen.extend(std::iter::repeat_n(value, take as usize));
        collect_multisets(rest, value + 1, count - take, chosen, out);
        chosen.truncate(before);
    }
}

/// The distinct draws of the player to move (each an ascending list of values).
pub fn distinct_draws(position: &Position) -> Vec<Vec<u8>> {
    match position.rules.variant {
        Variant::Classic => {
            let count = classic_draw_wanted(position).min(position.bag_total());
            multisets(&position.bag, 1, count)
        }
        Variant::Dice => multisets(&[2; 6], 1, 2),
        Variant::Kids => multisets(&[2; 6], 0, 2),
    }
}

/// The position after the player to move draws `draw`.
pub fn apply_draw(position: &Position, draw: &[u8]) -> Position {
    let mut next = position.clone();
    let seat = next.tomove - 1;
    match next.rules.variant {
        Variant::Classic => {
            for &value in draw {
                next.bag[usize::from(value - 1)] -= 1;
                next.hands[seat].push(value);
            }
            next.hands[seat].sort_unstable();
        }
        Variant::Dice | Variant::Kids => next.hands[seat] = draw.to_vec(),
    }
    next.phase = Phase::Place;
    next
}

/// The position after the player to move plays `mv` (empty for `pass`).
pub fn apply_move(position: &Position, mv: &Move) -> Position {
    let mut next = position.clone();
    let seat = next.tomove - 1;
    for &(cell, value) in mv {
        next.board.insert(cell, value);
    }
    match next.rules.variant {
        Variant::Classic => {
            for &(_, value) in mv {
                if let Some(index) = next.hands[seat].iter().position(|&v| v == value) {
                    next.hands[seat].remove(index);
                }
            }
        }
        Variant::Dice | Variant::Kids => next.hands[seat].clear(),
    }
    next.turn += 1;
    next.tomove = next.tomove % next.rules.players + 1;
    next.phase = if game_ends(position, &next) { Phase::Over } else { Phase::Draw };
    next
}

/// Whether the game ends with the move that led from `before` to `after`.
fn game_ends(before: &Position, after: &Position) -> bool {
    let rules = &after.rules;
    if rules.rounds > 0 && after.turn > rules.rounds * rules.players as u32 {
        return true;
    }
    match rules.variant {
        Variant::Classic => {
            after.bag_total() == 0 && after.hands.iter().all(|hand| !has_placing_move(after, hand))
        }
        Variant::Dice => !roll_writes_both(before),
        Variant::Kids => !zero_fits_somewhere(after),
    }
}

/// Dice: whether some valid set writes both numbers of the roll in hand.
fn roll_writes_both(position: &Position) -> bool {
    let hand = position.hand_to_move();
    super::legality::valid_sets(position, hand).iter().any(|set| set.len() == 2)
}

/// Kids: whether a 0 fits on some empty cell.
fn zero_fits_somewhere(position: &Position) -> bool {
    position.geometry.cells().into_iter().any(|cell| fits(position, &position.board, cell, 0))
}
