//! The largest move size, naively: the size of the largest valid set of placements, found by a
//! depth-first search over ordered sequences of placements, as in [`super::legality`], that
//! remembers every state it has expanded so that each is expanded once.
//!
//! A state is the set of placements made so far together with, for each tile on a `D` cell,
//! whether the forced exception held when it went down: what can follow and whether the final set
//! is valid depend on nothing else, so two orders that reach the same state have the same futures.
//! The search ends early only when the whole hand is placed. Nothing is pruned by any bound: it is
//! slow on large hands and meant to run offline, to make golden data for the fast code.

use std::collections::HashSet;

use super::geometry::{Cell, CellKind};
use super::legality::{double_cell_scores, fits, fits_on_some_normal_cell};
use super::position::{Board, Position};

/// One step: the placement and whether it went on a `D` cell by the forced exception.
type Step = (Cell, u8, bool);

/// The size of the largest valid nonempty set of placements of tiles of `hand` (0: only `pass`).
pub fn largest_size(position: &Position, hand: &[u8]) -> usize {
    let mut search = Search { position, seen: HashSet::new(), best: 0, all: hand.len() };
    let mut board = position.board.clone();
    search.expand(&mut board, hand, &mut Vec::new());
    search.best
}

struct Search<'p> {
    position: &'p Position,
    seen: HashSet<Vec<Step>>,
    best: usize,
    all: usize,
}

impl Search<'_> {
    /// Expands a state: `board` holds the position's board and `steps`; `hand` what is left.
    fn expand(&mut self, board: &mut Board, hand: &[u8], steps: &mut Vec<Step>) {
        if self.best == self.all {
            return;
        }
        let mut values = hand.to_vec();
        values.dedup();
        for value in values {
            for cell in self.position.geometry.cells() {
                if !fits(self.position, board, cell, value) {
                    continue;
                }
                let double = self.position.geometry.kind(cell) == Some(CellKind::Double);
                let forced = double
                    && self.position.rules.forced_double_allowed
                    && !fits_on_some_normal_cell(self.position, board, value);
                steps.push((cell, value, forced));
                let mut key = steps.clone();
                key.sort_unstable();
                if self.seen.insert(key) {
                    board.insert(cell, value);
                    if steps.len() > self.best && self.valid(board, steps) {
                        self.best = steps.len();
                    }
                    let mut rest = hand.to_vec();
                    if let Some(i) = rest.iter().position(|&v| v == value) {
                        rest.remove(i);
                    }
                    self.expand(board, &rest, steps);
                    board.remove(&cell);
                }
                steps.pop();
            }
        }
    }

    /// Whether every tile of `steps` on a `D` cell lies on a run of 10-12 on the final `board`
    /// or went down by the forced exception.
    fn valid(&self, board: &Board, steps: &[Step]) -> bool {
        steps.iter().all(|&(cell, _, forced)| {
            self.position.geometry.kind(cell) != Some(CellKind::Double)
                || forced
                || double_cell_scores(board, cell)
        })
    }
}
