//! Points left open to the next player: a cheap proxy for their best reply, used by greedy as its
//! tie-break and by the search's shortlist. For every empty cell at an end of a run through a tile
//! of the move, the most a single tile could score there (its two runs at 10, 11, 12 give their
//! run points; on a double cell a cross adds 2), summed over those cells.

use crate::rules::{run_points, Axis, Board, Cell, Placement, Rules, Square};

/// Points of a run sum for the open-points proxy.
fn points_of_sum(rules: &Rules, sum: u8) -> u32 {
    let low = rules.limit() - 2;
    match sum.checked_sub(low) {
        Some(k) if k < 3 => u32::from(run_points(rules.variant)[usize::from(k)]),
        _ => 0,
    }
}

/// The most a single tile could score on an empty cell of this board.
pub(crate) fn best_single(rules: &Rules, board: &Board, cell: Cell) -> u32 {
    let Some(room) = board.room(cell, rules.limit()) else { return 0 };
    if rules.needs_neighbour() && !board.has_neighbour(cell) {
        return 0;
    }
    let double = board.square(cell) == Square::Double;
    let mut best = 0;
    for v in rules.min_value()..=room.min(rules.max_value()) {
        let (h, w) = board.sums_with(cell, v);
        let mut pts = points_of_sum(rules, h) + points_of_sum(rules, w);
        if double && pts > 0 {
            pts += 2;
        }
        best = best.max(pts);
    }
    best
}

/// The empty cells just beyond the ends of a run through an occupied cell.
fn run_ends(board: &Board, cell: Cell, axis: Axis, out: &mut [Cell; 16], n: &mut usize) {
    let g = board.geometry();
    let (dc, dr): (isize, isize) = match axis {
        Axis::Horizontal => (1, 0),
        Axis::Vertical => (0, 1),
    };
    for sign in [-1isize, 1] {
        let (mut c, mut r) = (cell.column() as isize, cell.row() as isize);
        loop {
            c += sign * dc;
            r += sign * dr;
            if c < 0 || r < 0 {
                break;
            }
            let Some(next) = g.cell(c as usize, r as usize) else { break };
            if board.get(next).is_some() {
                continue;
            }
            if board.is_empty_cell(next) && !out[..*n].contains(&next) && *n < out.len() {
                out[*n] = next;
                *n += 1;
            }
            break;
        }
    }
}

/// Points left open to the next player by a move, on the board after it.
pub(crate) fn open_points(rules: &Rules, after: &Board, placements: &[Placement]) -> u32 {
    let mut ends = [Cell::from_index(0); 16];
    let mut n = 0;
    for p in placements {
        run_ends(after, p.cell, Axis::Horizontal, &mut ends, &mut n);
        run_ends(after, p.cell, Axis::Vertical, &mut ends, &mut n);
    }
    ends[..n].iter().map(|&c| best_single(rules, after, c)).sum()
}
