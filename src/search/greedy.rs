//! The greedy player: the move that adds most to the mover's sheet total now (classic: plus the
//! pips it takes out of the hand, as the standings count them), ties broken by the fewest points
//! left open to the next player.
//!
//! "Points left open" is a cheap proxy for the next player's best reply: for every empty cell at
//! an end of a run through a tile of the move, the most a single tile could score there (its two
//! runs at 10, 11, 12 give 1, 2, 4; on a double cell a cross adds 2), summed over those cells.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::rules::{Axis, Board, Cell, MoveScore, Placement, Position, Rules, Square, Variant};

use super::ledger::Ledger;

/// A move as the greedy player sees it.
#[derive(Clone, Debug)]
pub(crate) struct Scored {
    pub placements: Vec<Placement>,
    /// What it adds to the mover's standing now.
    pub gain: i64,
    /// Points left open to the next player (the tie-break; lower is better).
    pub open: u32,
}

/// Points of a run sum for the open-points proxy.
fn run_points(rules: &Rules, sum: u8) -> u32 {
    let low = rules.limit() - 2;
    match sum.checked_sub(low) {
        Some(0) => 1,
        Some(1) => 2,
        Some(2) => {
            if rules.variant == Variant::Kids {
                3
            } else {
                4
            }
        }
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
        let mut pts = run_points(rules, h) + run_points(rules, w);
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

/// The pips of the placements (classic: what a move takes off the minus points of the hand).
pub(crate) fn pips(rules: &Rules, placements: &[Placement]) -> i64 {
    if rules.variant == Variant::Classic {
        placements.iter().map(|p| i64::from(p.value)).sum()
    } else {
        0
    }
}

/// What a move adds to the mover's standing now: its sheet gain, plus (classic) the pips it takes
/// out of the hand.
pub(crate) fn gain_of(rules: &Rules, ledger: &Ledger, score: &MoveScore, placements: &[Placement]) -> i64 {
    i64::from(ledger.gain(rules, score)) + pips(rules, placements)
}

/// The most legal moves a strategy looks at in one position. A hand of many kept tiles on a
/// crowded board can have billions of moves; the strategies then choose among the first ones the
/// generator yields rather than never answering.
pub(crate) const MOVE_CAP: u64 = 200_000;

/// Visits the legal moves (at most `cap`) with the board after each and its score; `pass`
/// too when it is the only legal move. Returns how many it visited.
pub(crate) fn for_each_scored(
    pos: &Position,
    stop: &AtomicBool,
    cap: u64,
    visit: &mut dyn FnMut(&Board, &[Placement], &MoveScore),
) -> u64 {
    let rules = pos.rules();
    let start = pos.board().count() == 0;
    let mut board = pos.board().clone();
    let mut seen = 0u64;
    let _ = pos.movegen().with_soft_stop(stop).for_each_legal(&mut |placements| {
        for p in placements {
            board.place(p.cell, p.value);
        }
        let score = MoveScore::of(rules, &board, placements, start);
        visit(&board, placements, &score);
        for p in placements.iter().rev() {
            board.remove(p.cell);
        }
        seen += 1;
        // A raised stop flag ends the listing, but only after one legal move to answer with.
        if seen >= cap || stop.load(Ordering::Relaxed) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    seen
}

/// The greedy move for the player to move, given the ledger of its sheet. `None` only when the
/// generator yields nothing at all (never in a place phase).
pub(crate) fn greedy(pos: &Position, ledger: &Ledger, stop: &AtomicBool) -> Option<Scored> {
    greedy_counted(pos, ledger, stop).0
}

/// [`greedy`], with the number of moves it looked at.
pub(crate) fn greedy_counted(pos: &Position, ledger: &Ledger, stop: &AtomicBool) -> (Option<Scored>, u64) {
    let rules = pos.rules();
    let mut best: Option<Scored> = None;
    let seen = for_each_scored(pos, stop, MOVE_CAP, &mut |board, placements, score| {
        let gain = gain_of(rules, ledger, score, placements);
        let better = match &best {
            None => true,
            Some(b) if gain > b.gain => true,
            Some(b) if gain == b.gain => open_points(rules, board, placements) < b.open,
            Some(_) => false,
        };
        if better {
            let open = open_points(rules, board, placements);
            best = Some(Scored { placements: placements.to_vec(), gain, open });
        }
    });
    (best, seen)
}
