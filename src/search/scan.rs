//! The legal moves of a position as every strategy reads them: each with the board after it and
//! its score, at most [`MOVE_CAP`] of them, and what a move adds to the mover's standing now.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::rules::{Board, Move, MoveScore, Placement, Position, Rules, Sheet, Variant};

/// The moves a strategy chooses among at the root.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Choices<'a> {
    /// Every legal move.
    All,
    /// Only these legal moves (`go searchmoves`); never empty.
    Only(&'a [Move]),
}

/// The pips of the placements (classic: what a move takes off the minus points of the hand).
pub(crate) fn pips(rules: &Rules, placements: &[Placement]) -> i64 {
    if rules.variant == Variant::Classic {
        placements.iter().map(|p| i64::from(p.value)).sum()
    } else {
        0
    }
}

/// What a move adds to the mover's standing now: what it adds to the mover's sheet, plus (classic)
/// the pips it takes out of the hand.
pub(crate) fn gain_of(rules: &Rules, sheet: &Sheet, score: &MoveScore, placements: &[Placement]) -> i64 {
    i64::from(sheet.gain(rules, score, placements.len())) + pips(rules, placements)
}

/// What a raised stop flag does to a listing of legal moves.
#[derive(Copy, Clone)]
pub(crate) enum Stop<'a> {
    /// The listing answers for the player to move, who must play a legal move: it goes on to the
    /// first legal move, and proves the largest move size first (cut short only by the generator's
    /// soft stop, [`crate::rules::MoveGen::with_soft_stop`]).
    Answer(&'a AtomicBool),
    /// The listing plays a simulated turn, whose result is dropped once the search is stopped: it
    /// ends at once, whatever it has found.
    Abandon(&'a AtomicBool),
}

impl Stop<'_> {
    /// Whether the flag is raised.
    pub(crate) fn raised(self) -> bool {
        match self {
            Stop::Answer(flag) | Stop::Abandon(flag) => flag.load(Ordering::Relaxed),
        }
    }
}

/// The most legal moves a strategy looks at in one position. A hand of many kept tiles on a
/// crowded board can have billions of moves; the strategies then choose among the first ones the
/// generator yields rather than never answering.
pub(crate) const MOVE_CAP: u64 = 200_000;

/// Visits the legal moves among `choices` (at most `cap`) with the board after each and its
/// score; `pass` too when it is the only legal move. Returns how many it visited.
pub(crate) fn for_each_scored(
    pos: &Position,
    choices: Choices<'_>,
    stop: Stop<'_>,
    cap: u64,
    visit: &mut dyn FnMut(&Board, &[Placement], &MoveScore),
) -> u64 {
    let rules = pos.rules();
    let start = pos.board().count() == 0;
    let mut board = pos.board().clone();
    let mut seen = 0u64;
    let mut each = |placements: &[Placement]| {
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
        if seen >= cap || stop.raised() {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    };
    match choices {
        Choices::All => {
            let _ = match stop {
                Stop::Answer(flag) => pos.movegen().with_soft_stop(flag).for_each_legal(&mut each),
                Stop::Abandon(flag) => pos.movegen().with_stop(flag).for_each_legal(&mut each),
            };
        }
        Choices::Only(moves) => {
            for mv in moves {
                if each(mv.placements()).is_break() {
                    break;
                }
            }
        }
    }
    seen
}
