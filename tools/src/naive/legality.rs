//! Placement checks and the enumeration of valid sets of placements.
//!
//! Everything here rescans the board from scratch: a run sum walks the line each time, the
//! forced-double test tries every normal cell of the board. The valid sets are found by a
//! depth-first search over *ordered* sequences of placements (every remaining hand value on
//! every empty cell, each step checked in order); every prefix's *set* is recorded in a map
//! from the sorted set to "valid by at least one order". A prefix whose placements and forced
//! flags (as a set) were met before by another order is not searched again: everything below it
//! depends on those alone (the board, the rest of the hand, which tiles were forced), so its
//! subtree would record the same sets with the same verdicts. Without that, the search tries
//! every order of every subset and a hand of 9 tiles that all go down takes hours.

use std::collections::{HashMap, HashSet};

use super::geometry::{Cell, CellKind, Variant};
use super::position::{Board, Position};

/// One tile put on one cell.
pub type Placement = (Cell, u8);

/// A move: its placements sorted by cell (row, then column), so equal moves compare equal.
pub type PlacementSet = Vec<Placement>;

/// The sum of the run through `cell` along `step` if `value` stood on `cell`: `value` plus
/// the tiles met walking both ways from `cell` until an empty square.
pub fn run_sum_with(board: &Board, cell: Cell, value: u8, step: (isize, isize)) -> u32 {
    let mut sum = u32::from(value);
    for sign in [1isize, -1] {
        let mut col = cell.0 as isize;
        let mut row = cell.1 as isize;
        loop {
            col += sign * step.0;
            row += sign * step.1;
            if col < 0 || row < 0 {
                break;
            }
            match board.get(&(col as usize, row as usize)) {
                Some(&v) => sum += u32::from(v),
                None => break,
            }
        }
    }
    sum
}

/// The horizontal and the vertical run sum through `cell` if `value` stood on it.
pub fn both_run_sums_with(board: &Board, cell: Cell, value: u8) -> [u32; 2] {
    [run_sum_with(board, cell, value, (1, 0)), run_sum_with(board, cell, value, (0, 1))]
}

/// The horizontal and the vertical run sum through the occupied (or empty: 0) `cell`.
pub fn both_run_sums(board: &Board, cell: Cell) -> [u32; 2] {
    let value = board.get(&cell).copied().unwrap_or(0);
    both_run_sums_with(board, cell, value)
}

/// Whether `cell` has an occupied edge neighbour on `board`.
fn has_occupied_neighbour(position: &Position, board: &Board, cell: Cell) -> bool {
    position.geometry.edge_neighbours(cell).iter().any(|n| board.contains_key(n))
}

/// The adjacency rule for a tile put on `cell` when `board` (board + earlier tiles) is as given.
fn adjacency_ok(position: &Position, board: &Board, cell: Cell) -> bool {
    match position.rules.variant {
        Variant::Classic => {
            if board.is_empty() {
                cell == position.geometry.centre()
            } else {
                has_occupied_neighbour(position, board, cell)
            }
        }
        Variant::Dice => !position.rules.adjacent || has_occupied_neighbour(position, board, cell),
        Variant::Kids => true,
    }
}

/// Whether `value` on `cell` fits on `board`: a board cell, empty, adjacency, and no run
/// through it over the limit afterwards. (The double-cell rule is not part of this.)
pub fn fits(position: &Position, board: &Board, cell: Cell, value: u8) -> bool {
    if !position.geometry.is_cell(cell) || board.contains_key(&cell) {
        return false;
    }
    if !adjacency_ok(position, board, cell) {
        return false;
    }
    let limit = position.rules.run_limit();
    both_run_sums_with(board, cell, value).iter().all(|&sum| sum <= limit)
}

/// Whether `value` fits on some normal cell (neither double nor centre) of `board`.
pub fn fits_on_some_normal_cell(position: &Position, board: &Board, value: u8) -> bool {
    position.geometry.cells().into_iter().any(|cell| {
        position.geometry.kind(cell) == Some(CellKind::Normal) && fits(position, board, cell, value)
    })
}

/// Whether a run through `cell` on the final `board` sums to 10, 11 or 12.
pub fn double_cell_scores(board: &Board, cell: Cell) -> bool {
    both_run_sums(board, cell).iter().any(|sum| (10..=12).contains(sum))
}

/// One step of an ordered sequence: the placement and whether the forced exception held for it.
#[derive(Clone, Copy, Debug)]
struct Step {
    placement: Placement,
    forced: bool,
}

/// Whether the forced exception allows `value` on `cell` at this point of the order.
fn forced_exception_holds(position: &Position, board: &Board, cell: Cell, value: u8) -> bool {
    position.rules.forced_double_allowed
        && position.geometry.kind(cell) == Some(CellKind::Double)
        && !fits_on_some_normal_cell(position, board, value)
}

/// Whether the ordered sequence `steps`, ending on `final_board`, meets the double-cell rule:
/// each tile on a `D` cell lies on a final run of 10-12 or was allowed by the forced exception.
fn doubles_ok(position: &Position, steps: &[Step], final_board: &Board) -> bool {
    steps.iter().all(|step| {
        let (cell, _) = step.placement;
        position.geometry.kind(cell) != Some(CellKind::Double)
            || step.forced
            || double_cell_scores(final_board, cell)
    })
}

/// The sorted set of the placements of `steps`.
fn canonical_set(steps: &[Step]) -> PlacementSet {
    let mut set: PlacementSet = steps.iter().map(|s| s.placement).collect();
    set.sort_by_key(|&((col, row), value)| (row, col, value));
    set
}

/// The placements of `steps` with their forced flags, sorted: equal for two orders of the same
/// tiles with the same tiles forced.
fn prefix_key(steps: &[Step]) -> Vec<(Placement, bool)> {
    let mut key: Vec<(Placement, bool)> = steps.iter().map(|s| (s.placement, s.forced)).collect();
    key.sort_unstable();
    key
}

/// The distinct values of `hand`, ascending.
fn distinct_values(hand: &[u8]) -> Vec<u8> {
    let mut values = hand.to_vec();
    values.sort_unstable();
    values.dedup();
    values
}

/// `hand` without one tile of `value`.
fn remove_one(hand: &[u8], value: u8) -> Vec<u8> {
    let mut rest = hand.to_vec();
    if let Some(index) = rest.iter().position(|&v| v == value) {
        rest.remove(index);
    }
    rest
}

/// The depth-first search over ordered sequences. `board` holds the board plus `steps`.
fn search(
    position: &Position,
    board: &mut Board,
    hand: &[u8],
    steps: &mut Vec<Step>,
    seen: &mut HashMap<PlacementSet, bool>,
    searched: &mut HashSet<Vec<(Placement, bool)>>,
) {
    for value in distinct_values(hand) {
        for cell in position.geometry.cells() {
            if !fits(position, board, cell, value) {
                continue;
            }
            let forced = forced_exception_holds(position, board, cell, value);
            steps.push(Step { placement: (cell, value), forced });
            if searched.insert(prefix_key(steps)) {
                board.insert(cell, value);
                let valid = doubles_ok(position, steps, board);
                let entry = seen.entry(canonical_set(steps)).or_insert(false);
                *entry = *entry || valid;
                search(position, board, &remove_one(hand, value), steps, seen, searched);
                board.remove(&cell);
            }
            steps.pop();
        }
    }
}

/// Every valid nonempty set of placements of tiles of `hand` on the position's board.
pub fn valid_sets(position: &Position, hand: &[u8]) -> Vec<PlacementSet> {
    let mut seen = HashMap::new();
    let mut board = position.board.clone();
    search(position, &mut board, hand, &mut Vec::new(), &mut seen, &mut HashSet::new());
    let mut sets: Vec<PlacementSet> =
        seen.into_iter().filter(|(_, valid)| *valid).map(|(set, _)| set).collect();
    sets.sort();
    sets
}

/// Whether placing `placements` in the given order is a valid set: each tile fits when it goes
/// down, and each tile on a `D` cell lies on a final run of 10-12 or was allowed by the forced
/// exception at its point of the order. Checks one order only, so it proves a set valid (as when
/// a large set, too large to enumerate, is checked) but not invalid.
pub fn valid_in_order(position: &Position, placements: &[Placement]) -> bool {
    let mut board = position.board.clone();
    let mut steps = Vec::with_capacity(placements.len());
    for &(cell, value) in placements {
        if !fits(position, &board, cell, value) {
            return false;
        }
        let forced = forced_exception_holds(position, &board, cell, value);
        steps.push(Step { placement: (cell, value), forced });
        board.insert(cell, value);
    }
    doubles_ok(position, &steps, &board)
}
