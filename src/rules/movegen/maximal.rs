//! The must-place rule `maximal`: a valid set is a move only if no valid set strictly contains
//! it.
//!
//! Every superset puts some tile next to the board or the set, on a cell whose room, with the set
//! down, takes it (rooms only shrink). So the question is mostly settled by the cells beside the
//! board and the set, for the smallest value of the hand: none takes it, no superset exists; one
//! that is a normal cell, or a double cell the rules let take the tile, is a superset. Only a
//! double cell where the forced exception is forbidden and no run reaches 10 leaves the question
//! to an enumeration of the supersets. Which of the two checks of a set (validity, superset) runs
//! first is chosen by which is cheaper for the rule set.

use super::forced::Need;
use super::MoveGen;
use crate::rules::geometry::{Cell, Square, STRIDE};
use crate::rules::moves::Move;
use crate::rules::options::ForcedDouble;

impl<'r> MoveGen<'r> {
    /// Whether some valid set strictly contains the current one; the first found.
    pub(super) fn valid_superset(&mut self) -> Option<Move> {
        if self.hand.is_empty() {
            return None;
        }
        let saved_order = std::mem::take(&mut self.order);
        let found = self.find_valid(1, self.placed.len() + 1);
        self.order = saved_order;
        found
    }

    /// Whether the current complete set is a legal move under `must_place=maximal`: valid, and
    /// strictly contained in no valid set. On success `current()` gives a legal order when `need`
    /// asks for one.
    ///
    /// Of the two checks the cheaper goes first. A set with a tile on a double cell where the
    /// forced exception is allowed may need a search over its orders, while whether a valid
    /// superset exists is mostly settled by the cells beside the set, and most sets have one (in
    /// the solo cz3 hand `1344555666` of tests/golden/middle-hands.txt, 38,189 of 122,574 sets
    /// are moves, and 25,533 needed the order search when it went first). Otherwise the
    /// double-cell check is a glance, and the superset check may search when the exception is
    /// forbidden. (The superset check of an invalid set answers something; only its conjunction
    /// with validity counts.)
    pub(super) fn is_maximal_move(&mut self, need: Need) -> bool {
        let may_search_orders =
            self.doubles_matter && self.on_doubles > 0 && self.rules.forced_double == ForcedDouble::Allow;
        if !may_search_orders {
            return self.valid_for(need) && !self.has_valid_superset();
        }
        if self.has_valid_superset() {
            return false;
        }
        self.valid_for(need)
    }

    /// [`MoveGen::accept`] when an order is needed, else [`MoveGen::valid`].
    fn valid_for(&mut self, need: Need) -> bool {
        if need == Need::Verdict {
            self.valid()
        } else {
            self.accept()
        }
    }

    /// Whether some valid set strictly contains the current valid one (the must-place rule
    /// `maximal`), without naming it: mostly decided by the cells beside the board and the set.
    ///
    /// Every superset puts some tile next to the board or the set, on a cell whose room, with the
    /// set down, takes it (tiles only shrink rooms). So when no such cell takes the hand's smallest
    /// value, none exists. When one does, a tile of that value put down last makes a valid
    /// superset (the set's own order still holds, and runs only grow into the 10 to 12 that make
    /// a double cell fine): on a normal cell; on a double cell when its run reaches 10 to 12, or
    /// under the forced exception when no normal cell beside the board takes any tile of the
    /// hand. Only a double cell where the exception is forbidden leaves the question to the
    /// search over every superset ([`MoveGen::valid_superset`]).
    fn has_valid_superset(&mut self) -> bool {
        let Some(vmin) = self.hand.distinct().next() else { return false };
        self.ensure_base_fits();
        // Every cell looked at below touches the board (or the set, which is down): whether it
        // takes the smallest value is whether it is empty with room for it.
        let open = |c: Cell| {
            self.board.is_empty_cell(c) && self.board.room(c, self.limit).is_some_and(|room| vmin <= room)
        };
        // The empty cells that touch the board or the set (every empty cell when no neighbour is
        // needed) and take the smallest value: among the normal cells that took it before the set
        // (rooms only shrink), the cells beside the set's tiles, and the other squares beside the
        // board.
        let normal_before = self.base_fits.as_ref().map_or(&[][..], |fits| &fits[usize::from(vmin)][..]);
        if normal_before.iter().any(|&c| open(c)) {
            return true;
        }
        let mut open_doubles = false;
        for p in &self.placed {
            let i = p.cell.index();
            for n in [i - 1, i + 1, i - STRIDE, i + STRIDE] {
                let c = Cell::from_index(n);
                if open(c) && self.settles_on(c, vmin, &mut open_doubles) {
                    return true;
                }
            }
        }
        for &c in &self.other_open {
            if open(c) && self.settles_on(c, vmin, &mut open_doubles) {
                return true;
            }
        }
        if !open_doubles {
            return false;
        }
        self.has_valid(1, self.placed.len() + 1)
    }

    /// For [`MoveGen::has_valid_superset`]: whether a tile put down last on `c`, an empty cell
    /// that touches the board or the set and takes the smallest value `vmin`, makes a valid
    /// superset for sure; `open_doubles` is raised when `c` is a double cell that may still take
    /// one by a search. When no normal cell takes a tile, a tile on a double cell is forced there,
    /// if allowed; otherwise the largest value of the hand that fits there makes its runs the
    /// longest, and whether one of them reaches 10 is read off the runs beside the cell.
    #[inline]
    fn settles_on(&self, c: Cell, vmin: u8, open_doubles: &mut bool) -> bool {
        let forced_allowed = self.rules.forced_double == ForcedDouble::Allow;
        if !self.doubles_matter || self.board.square(c) == Square::Normal || forced_allowed {
            return true;
        }
        *open_doubles = true;
        let room = self.board.room(c, self.limit).unwrap_or(0);
        let largest = self.hand.distinct().take_while(|&v| v <= room).last().unwrap_or(vmin);
        let (across, down) = self.board.sums_with(c, largest);
        across.max(down) >= self.limit - 2
    }
}
