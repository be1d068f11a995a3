//! The enumeration every count, listing and check runs on: the sets of placements connected to
//! the board, each visited once.
//!
//! Treating the tiles already on the board as one root cell, the cells of a move plus the root
//! form a connected set, so the sets are enumerated with Redelmeier's algorithm for connected
//! subgraphs containing a root: each set of cells exactly once, with no memory of earlier sets,
//! and each assignment of the hand's distinct values to those cells once. Run sums are checked
//! incrementally as tiles go down (sums only grow), so every set reached is valid but for its
//! double cells, which the sink checks when it takes the set (`forced.rs`).
//!
//! The enumeration decides what it may skip without losing a move: under `forced_double=forbid`
//! a set whose last tile is stranded on a double cell (with all its supersets); when a size is
//! sought, every subtree that cannot reach it (`bound.rs`). Skipping never reorders the sets it
//! keeps, so every listing comes in the same order whatever was pruned.
//!
//! When only counted, the sets of the largest size are mostly never put down: one tile short of
//! it, a set whose tiles on double cells all lie on runs of 10 to 12 already takes any value that
//! fits as its last tile on a normal cell, and on a double cell any that makes a run of 10 to 12,
//! so those are counted from the rooms of its untried cells ([`MoveGen::leaves_fine`]); only the
//! others go to the double-cell check.

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

use super::forced::Built;
use super::{MoveGen, Sink};
use crate::rules::geometry::{Cell, Square, GRID, STRIDE};
use crate::rules::moves::{Move, Placement};
use crate::rules::options::ForcedDouble;
use crate::rules::tiles::{Tiles, VALUES};

/// The values below `v`, as bits of a value mask ([`value_mask`]).
#[inline]
fn below(v: u8) -> u8 {
    ((1u16 << v) - 1) as u8
}

/// The distinct values of some tiles, as bits (bit `v` for value `v`).
#[inline]
fn value_mask(tiles: Tiles) -> u8 {
    (0..VALUES as u8).filter(|&v| tiles.count(v) > 0).fold(0, |mask, v| mask | 1 << v)
}

impl<'r> MoveGen<'r> {
    /// Whether a value may go on an empty cell of the current board as far as neighbours go.
    #[inline]
    pub(super) fn touches(&self, cell: Cell) -> bool {
        if !self.rules.needs_neighbour() {
            return true;
        }
        if self.board.count() == 0 {
            return Some(cell) == self.board.geometry().centre();
        }
        self.board.has_neighbour(cell)
    }

    /// Whether a value fits on an empty cell now: neighbour and run limit.
    #[inline]
    pub(super) fn fits(&self, cell: Cell, value: u8) -> bool {
        self.board.is_empty_cell(cell)
            && self.touches(cell)
            && self.board.room(cell, self.limit).is_some_and(|room| value <= room)
    }

    /// The cells a new set may start from: the root's neighbours, or every empty cell when no
    /// neighbour is needed, or the centre of an empty classic board.
    pub(super) fn seed_untried(&mut self, level: usize) -> (usize, usize) {
        if self.marks[level].is_empty() {
            // Allocated on the first enumeration: counting small hands needs none.
            self.marks[level] = vec![false; GRID];
        }
        let lo = self.untried.len();
        let g = self.board.geometry();
        for &c in g.cells() {
            if self.board.is_empty_cell(c) && self.touches(c) {
                self.untried.push(c);
                self.marks[level][c.index()] = true;
            }
        }
        (lo, self.untried.len())
    }

    pub(super) fn unseed(&mut self, level: usize, lo: usize) {
        for i in lo..self.untried.len() {
            let c = self.untried[i];
            self.marks[level][c.index()] = false;
        }
        self.untried.truncate(lo);
    }

    /// Moves the double cells of `untried[from..hi]` to `front` and after it, in the order met,
    /// when the sets try their normal cells first ([`MoveGen::doubles_last`]); returns where the
    /// normal cells then begin. (The enumeration tries its untried cells from the end.)
    fn doubles_to_front(&mut self, from: usize, mut front: usize, hi: usize) -> usize {
        if self.doubles_last {
            for j in from..hi {
                if self.board.square(self.untried[j]) == Square::Double {
                    self.untried.swap(front, j);
                    front += 1;
                }
            }
        }
        front
    }

    /// Enumerates every set of up to `max` placements connected to the root (Redelmeier), calling
    /// `sink` with each complete set of at least one tile. Sets are run-valid; doubles unchecked.
    /// The double cells of the untried cells `untried[lo..hi]` are already at its front, up to
    /// `front` ([`MoveGen::doubles_to_front`]).
    pub(super) fn extend(
        &mut self,
        (lo, front, hi): (usize, usize, usize),
        level: usize,
        max: usize,
        sink: &mut Sink<'_, 'r>,
    ) -> ControlFlow<()> {
        let neighbourly = self.rules.needs_neighbour();
        // The hand is the same at every cell below: each placement is taken back.
        let first = self.hand.distinct().next();
        // Counting the sets of `max` tiles one short of it: those that the double-cell rule
        // cannot refuse are counted without being put down (see [`MoveGen::leaves_fine`]).
        let fine = self.count_leaves && level == 0 && self.placed.len() + 1 == max && self.leaves_fine();
        let values = value_mask(self.hand);
        for i in (lo..hi).rev() {
            if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return ControlFlow::Break(());
            }
            let u = self.untried[i];
            let Some(room) = self.board.room(u, self.limit) else { continue };
            if first.is_none_or(|v| v > room) {
                continue;
            }
            // Values up to `room` fit; on a double cell those from `low` make a run of 10 to 12.
            let mut slow = values & below(room + 1);
            if fine {
                let low = if self.doubles_matter && self.board.square(u) == Square::Double {
                    (self.limit - 2).saturating_sub(self.limit - room)
                } else {
                    0
                };
                let scoring = slow & !below(low);
                self.leaf_count += u64::from(scoring.count_ones());
                // Off a run of 10 to 12, a set under `forbid` is refused; under `allow` it may be
                // forced there, which only the order search tells.
                slow &= !scoring;
                if self.rules.forced_double == ForcedDouble::Forbid {
                    slow = 0;
                }
                if slow == 0 {
                    continue;
                }
            }
            // The child's untried cells: those before u here, and u's unmarked neighbours.
            // The child may reorder its cells, so u's neighbours it marks are kept here. A set
            // of `max` tiles has no child: its untried cells are those before u, read in place
            // (most sets are such leaves, so the copy is spared where it is most often made).
            let leaf = self.placed.len() + 1 >= max;
            let child_lo = if leaf { lo } else { self.untried.len() };
            if !leaf {
                self.untried.extend_from_within(lo..i);
            }
            let mut fresh = [0usize; 4];
            let mut n_fresh = 0;
            if neighbourly && !leaf {
                let c = u.index();
                for n in [c - 1, c + 1, c - STRIDE, c + STRIDE] {
                    if self.board.geometry().square_at(n) != Square::Outside
                        && !self.marks[level][n]
                        && self.board.is_empty_cell(Cell::from_index(n))
                    {
                        self.marks[level][n] = true;
                        self.untried.push(Cell::from_index(n));
                        fresh[n_fresh] = n;
                        n_fresh += 1;
                    }
                }
            }
            let child_hi = if leaf { i } else { self.untried.len() };
            // The cells before u are in order already: only u's neighbours may need moving.
            let child_front =
                self.doubles_to_front(child_hi - n_fresh, child_lo + (i.min(front) - lo), child_hi);
            let mut flow = ControlFlow::Continue(());
            // The smallest values first, in the search for a set of a given size too: trying the
            // largest first (the hardest to place) found the large sets of made-up hands of 24
            // tiles up to 5 times later, and changed little in real ones.
            // Below `max`, the sink is skipped when it only counts sets of `max` tiles.
            let visit = !self.leaves_only || self.placed.len() + 1 == max;
            while slow != 0 {
                let v = slow.trailing_zeros() as u8;
                slow &= slow - 1;
                let p = Placement { cell: u, value: v };
                let built = self.built_state(p);
                self.push(p);
                self.built[self.placed.len() - 1] = built;
                // A stranded tile makes the set and all its supersets invalid: none is visited.
                let stranded = self.stranded_double(child_lo, child_hi, level);
                if !stranded && visit {
                    flow = sink(self);
                }
                if flow.is_continue()
                    && !stranded
                    && self.placed.len() < max
                    && self.may_reach(child_lo, child_hi, level)
                {
                    flow = self.extend((child_lo, child_front, child_hi), level, max, sink);
                }
                self.pop();
                if flow.is_break() {
                    break;
                }
            }
            for &n in &fresh[..n_fresh] {
                self.marks[level][n] = false;
            }
            if !leaf {
                self.untried.truncate(child_lo);
            }
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Whether every set of one tile more than the current one is valid for the double-cell rule
    /// when its last tile is: when every tile of the current set on a double cell lies on a run
    /// of 10 to 12 already (a tile put down only lengthens runs, and no run goes over the limit),
    /// the set with one more tile is valid when that tile is on a normal cell, or on a double
    /// cell with a run of 10 to 12. Such sets of `max` tiles, when only counted
    /// ([`MoveGen::count_leaves`]), are counted by their cells' rooms without being put down.
    fn leaves_fine(&self) -> bool {
        if !self.doubles_matter || self.on_doubles == 0 {
            return true;
        }
        let low = self.limit - 2;
        self.placed.iter().all(|p| {
            self.board.square(p.cell) != Square::Double
                || [1, STRIDE].into_iter().any(|step| self.run_ends(p.cell, step).0 >= low)
        })
    }

    /// Whether the current set may still grow to `prune_below` placements (always, when 0) with
    /// the untried cells `untried[lo..hi]` of `level`.
    ///
    /// The bound ([`MoveGen::may_grow_by`]) is asked only when it can cut something the
    /// enumeration would not cut by itself as cheaply. One tile short, the child enumeration is
    /// the exact test: it puts a tile down wherever one fits, and every set it visits has the size.
    /// When the size is the whole hand and some set of it is known to exist (the count or listing
    /// of a proven largest size), nearly every set can still grow to it: the bound then cut too
    /// few sets to pay for its region and line programmes, so the enumeration runs unpruned
    /// there, as the count of every size once did. The search for a size not yet proven keeps the bound: there
    /// it proves that no set of the whole hand exists, which unpruned would visit every set.
    /// Either way the enumeration visits every set of the size in the same order.
    #[inline]
    fn may_reach(&mut self, lo: usize, hi: usize, level: usize) -> bool {
        let want = self.prune_below;
        let have = self.placed.len();
        if want <= have + 1 {
            return true;
        }
        let need = want - have;
        if need > self.hand.len() {
            return false;
        }
        (need == self.hand.len() && self.size_reached) || self.may_grow_by(lo, hi, level, need)
    }

    /// Under `forced_double=forbid`: whether the tile put down last lies on a double cell off a
    /// run of 10 to 12 that no superset the enumeration at `level` may still visit (with the
    /// untried cells `untried[lo..hi]`) can put on one. The set and every superset are then
    /// invalid. (Only the last tile is asked: asking every tile of the set at every set found a
    /// few more such sets, but cost more than they did.)
    ///
    /// A run grows only by a tile on one of the two empty cells at its ends (which joins it with
    /// the run beyond), so a tile whose two runs are below 10 stays off 10 to 12 when no end of
    /// either run can take a tile: an end that is not empty, or whose room is below the hand's
    /// smallest value (rooms only shrink), or that this subtree never tries (Redelmeier's marks:
    /// a marked cell that is not among the untried cells was tried before and is excluded, while
    /// an unmarked one may still join as the neighbour of a later tile).
    fn stranded_double(&self, lo: usize, hi: usize, level: usize) -> bool {
        if !self.doubles_matter || self.rules.forced_double != ForcedDouble::Forbid {
            return false;
        }
        let Some(&last) = self.placed.last() else { return false };
        if self.board.square(last.cell) != Square::Double {
            return false;
        }
        // With no tile left, no run grows.
        let vmin = self.hand.distinct().next();
        let low = self.limit - 2;
        let may_fill = |e: usize| {
            let cell = Cell::from_index(e);
            self.board.is_empty_cell(cell)
                && self.board.room(cell, self.limit).is_some_and(|room| vmin.is_some_and(|v| v <= room))
                && (!self.marks[level][e] || self.untried[lo..hi].contains(&cell))
        };
        [1, STRIDE].into_iter().all(|step| {
            let (sum, before, after) = self.run_ends(last.cell, step);
            sum < low && !may_fill(before) && !may_fill(after)
        })
    }

    /// The sum of the run through an occupied cell along the axis of `step` (1 or [`STRIDE`]),
    /// and the indices of the squares just beyond its two ends.
    pub(super) fn run_ends(&self, cell: Cell, step: usize) -> (u8, usize, usize) {
        let tile = |i: usize| self.board.get(Cell::from_index(i));
        let mut sum = tile(cell.index()).unwrap_or(0);
        let mut before = cell.index() - step;
        while let Some(v) = tile(before) {
            sum += v;
            before -= step;
        }
        let mut after = cell.index() + step;
        while let Some(v) = tile(after) {
            sum += v;
            after += step;
        }
        (sum, before, after)
    }

    /// Runs `f` with the enumeration pruned to sets that can reach `size` placements, of which
    /// some are known to exist when `reached` (see [`MoveGen::may_reach`]).
    pub(super) fn pruned<T>(&mut self, size: usize, reached: bool, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.prune_below, size);
        let saved_reached = std::mem::replace(&mut self.size_reached, reached);
        let result = f(self);
        self.prune_below = saved;
        self.size_reached = saved_reached;
        result
    }

    /// Runs `f`, an enumeration whose sink counts the valid sets of its `max` placements and
    /// nothing else, with the enumeration counting some of them itself ([`MoveGen::leaves_fine`]);
    /// returns how many it counted so.
    /// When `only`, the sink counts nothing below `max` placements either, and is not called there.
    pub(super) fn counting_leaves(
        &mut self,
        only: bool,
        f: impl FnOnce(&mut Self) -> ControlFlow<()>,
    ) -> u64 {
        let saved = std::mem::replace(&mut self.count_leaves, true);
        let saved_only = std::mem::replace(&mut self.leaves_only, only);
        let before = self.leaf_count;
        let _ = f(self);
        self.count_leaves = saved;
        self.leaves_only = saved_only;
        let counted = self.leaf_count - before;
        self.leaf_count = before;
        counted
    }

    /// Runs a whole enumeration from the current board (which may hold a set already placed).
    pub(super) fn enumerate(&mut self, level: usize, max: usize, sink: &mut Sink<'_, 'r>) -> ControlFlow<()> {
        if max <= self.placed.len() || self.hand.is_empty() {
            return ControlFlow::Continue(());
        }
        let (lo, hi) = self.seed_untried(level);
        let front = self.doubles_to_front(lo, lo, hi);
        let flow = self.extend((lo, front, hi), level, max, sink);
        self.unseed(level, lo);
        flow
    }

    /// Puts a placement down as the next of the current set; its cell must be empty.
    #[inline]
    pub(super) fn push(&mut self, p: Placement) {
        self.board.place(p.cell, p.value);
        self.hand.remove(p.value);
        self.placed.push(p);
        self.built.push(Built::Unknown);
        self.on_doubles += usize::from(self.board.square(p.cell) == Square::Double);
    }

    /// Takes back the last placement of the current set.
    #[inline]
    pub(super) fn pop(&mut self) {
        self.built.pop();
        if let Some(p) = self.placed.pop() {
            self.board.remove(p.cell);
            self.hand.add(p.value);
            self.on_doubles -= usize::from(self.board.square(p.cell) == Square::Double);
        }
    }

    /// Takes back every placement of the current set.
    pub(super) fn take_back(&mut self) {
        while !self.placed.is_empty() {
            self.pop();
        }
    }

    /// A valid set of at least `min` tiles beyond those already placed, if any, in a legal order.
    pub(super) fn find_valid(&mut self, level: usize, min: usize) -> Option<Move> {
        self.first_valid(level, min, |g| g.accept().then(|| Move::new(g.current().to_vec())))
    }

    /// Whether some valid set of at least `min` tiles beyond those already placed exists (its
    /// order not sought).
    pub(super) fn has_valid(&mut self, level: usize, min: usize) -> bool {
        self.first_valid(level, min, |g| g.valid().then_some(())).is_some()
    }

    /// What `take` makes of the first set of at least `min` tiles beyond those already placed for
    /// which it makes something.
    fn first_valid<T>(
        &mut self,
        level: usize,
        min: usize,
        mut take: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<T> {
        let max = self.placed.len() + self.hand.len();
        let mut found = None;
        let prune = if min > self.placed.len() + 1 { min } else { 0 };
        self.pruned(prune, false, |g| {
            let _ = g.enumerate(level, max, &mut |g| {
                if g.placed.len() >= min {
                    found = take(g);
                    if found.is_some() {
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            });
        });
        found
    }
}
