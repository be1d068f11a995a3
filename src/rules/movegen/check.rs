//! The check of a move given by a player: whether it is legal, and when it is not, the first
//! rule it breaks, in the order hand, cells, runs, neighbours, double cells, must place.
//!
//! The move is put down in an order in which each tile touches the board or an earlier one, its
//! runs and double cells are checked as the enumeration checks a complete set (`forced.rs`), and
//! the must-place rule asks the enumeration for a larger move or a valid superset, which it names
//! in the error as an example.

use super::forced::{Doubles, Need};
use super::MoveGen;
use crate::rules::board::Axis;
use crate::rules::error::MoveError;
use crate::rules::geometry::{Cell, STRIDE};
use crate::rules::moves::{Move, Placement};
use crate::rules::options::MustPlace;
use crate::rules::tiles::{Tiles, VALUES};

pub(super) fn adjacent(a: Cell, b: Cell) -> bool {
    let d = a.index().abs_diff(b.index());
    d == 1 || d == STRIDE
}

impl<'r> MoveGen<'r> {
    /// Checks a move against every rule, with the exact reason when it is not legal.
    ///
    /// # Errors
    /// The first rule the move breaks, checked in the order: hand, cells, runs, neighbours, double
    /// cells, must place.
    pub fn check(&mut self, mv: &Move) -> Result<(), MoveError> {
        self.hand_ok(mv)?;
        if mv.is_pass() {
            return match self.any_move() {
                Some(example) => Err(MoveError::PassWhileFits { example: example.to_string() }),
                None => Ok(()),
            };
        }
        self.cells_ok(mv)?;
        self.place_valid(mv)?;
        let result = self.must_place_ok(mv);
        self.take_back();
        result
    }

    /// Whether the hand holds every value of the move, as often as the move places it.
    pub(super) fn hand_ok(&self, mv: &Move) -> Result<(), MoveError> {
        let mut needed = Tiles::empty();
        for p in mv.placements() {
            if usize::from(p.value) >= VALUES || needed.count(p.value) >= self.hand.count(p.value) {
                let held = if usize::from(p.value) < VALUES { self.hand.count(p.value) } else { 0 };
                let placed = mv.placements().iter().filter(|q| q.value == p.value).count();
                return Err(MoveError::NotInHand {
                    value: p.value,
                    held,
                    placed,
                    hand: self.hand.to_string(),
                });
            }
            needed.add(p.value);
        }
        Ok(())
    }

    /// Whether every cell of the move is empty and named once.
    pub(super) fn cells_ok(&self, mv: &Move) -> Result<(), MoveError> {
        let mut seen = Vec::with_capacity(mv.len());
        for p in mv.placements() {
            if !self.board.is_empty_cell(p.cell) {
                return Err(MoveError::Occupied(p.cell));
            }
            if seen.contains(&p.cell) {
                return Err(MoveError::RepeatedCell(p.cell));
            }
            seen.push(p.cell);
        }
        Ok(())
    }

    /// Checks neighbours, runs and double cells of a move whose hand and cells are fine, and
    /// leaves it placed as the current set when it is valid (take it back with `take_back`).
    pub(super) fn place_valid(&mut self, mv: &Move) -> Result<(), MoveError> {
        self.neighbours_ok(mv)?;
        for p in self.connected_order(mv) {
            self.push(p);
        }
        for p in mv.placements() {
            for axis in [Axis::Horizontal, Axis::Vertical] {
                let sum = self.board.run_through(p.cell, axis).0;
                if sum > self.limit {
                    self.take_back();
                    return Err(MoveError::RunOverLimit { cell: p.cell, axis, sum, limit: self.limit });
                }
            }
        }
        if let Doubles::Invalid(e) = self.doubles(Need::Reason) {
            self.take_back();
            return Err(e);
        }
        Ok(())
    }

    /// Every tile of the move reachable from the board through the move's own tiles.
    fn neighbours_ok(&self, mv: &Move) -> Result<(), MoveError> {
        if !self.rules.needs_neighbour() {
            return Ok(());
        }
        if let (0, Some(centre)) = (self.board.count(), self.board.geometry().centre()) {
            if !mv.placements().iter().any(|p| p.cell == centre) {
                return Err(MoveError::StartOffCentre(centre));
            }
        }
        let order = self.connected_order(mv);
        match mv.placements().iter().find(|p| !order.contains(p)) {
            Some(p) => Err(MoveError::NoNeighbour(p.cell)),
            None => Ok(()),
        }
    }

    /// The move's placements in an order in which each touches the board or an earlier one; those
    /// that never do are left out.
    fn connected_order(&self, mv: &Move) -> Vec<Placement> {
        let mut left: Vec<Placement> = mv.placements().to_vec();
        let mut order: Vec<Placement> = Vec::with_capacity(left.len());
        let centre = self.board.geometry().centre();
        let starts = |cell: Cell| {
            if self.board.count() > 0 {
                self.board.has_neighbour(cell)
            } else {
                Some(cell) == centre
            }
        };
        loop {
            let next = left.iter().position(|p| {
                !self.rules.needs_neighbour()
                    || starts(p.cell)
                    || order.iter().any(|q| adjacent(q.cell, p.cell))
            });
            match next {
                Some(i) => order.push(left.remove(i)),
                None => return order,
            }
        }
    }

    /// The must-place rule, for a move that is otherwise valid and currently placed.
    fn must_place_ok(&mut self, mv: &Move) -> Result<(), MoveError> {
        match self.rules.must_place {
            MustPlace::Maximal => match self.valid_superset() {
                Some(example) => Err(MoveError::NotMaximal { example: example.to_string() }),
                None => Ok(()),
            },
            MustPlace::Maximum => {
                let placed = self.placed.clone();
                self.take_back();
                let required = self.largest_size();
                let larger = if required > mv.len() {
                    self.find_valid(0, required).map(|m| (required, m))
                } else {
                    None
                };
                for p in placed {
                    self.push(p);
                }
                match larger {
                    Some((required, example)) => {
                        Err(MoveError::TooFew { placed: mv.len(), required, example: example.to_string() })
                    }
                    None => Ok(()),
                }
            }
        }
    }
}
