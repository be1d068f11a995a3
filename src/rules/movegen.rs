//! Legal move generation, counting and checking.
//!
//! A move is a set of placements that some order makes legal: each tile next to an occupied cell
//! when it is put down, no run over the limit, and double cells only with a run of 10 to 12 (or by
//! the forced exception). Treating the tiles already on the board as one root cell, the cells of a
//! move plus the root form a connected set, so the sets are enumerated with Redelmeier's algorithm
//! for connected subgraphs containing a root: each set of cells exactly once, with no memory of
//! earlier sets, and each assignment of the hand's distinct values to those cells once. Run sums
//! are checked incrementally as tiles go down (sums only grow), so every set reached is valid but
//! for its double cells, which are checked when the set is complete.
//!
//! A complete set with a tile on a double cell off a run of 10 to 12 is valid only in an order in
//! which that tile is forced (its value fits on no normal cell when it goes down). Finding such an
//! order is a search over the subsets of the set's tiles already down, cut short three ways: tiles
//! that cannot open a normal cell to a forced value go down at once, unbranched; a tile that would
//! open a cell that still fits a forced value with the whole set down must wait for that forced
//! tile; and a forced tile that cannot be reached from the board through tiles free to go before
//! it refuses the set outright ([`MoveGen::forced_order`]).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::Rng;

use super::board::{Axis, Board};
use super::error::MoveError;
use super::geometry::{Cell, Square, GRID, STRIDE};
use super::moves::{Move, Placement};
use super::options::{ForcedDouble, MustPlace, Rules, Variant};
use super::tiles::{Tiles, VALUES};

mod bound;
mod extend;
mod small;

pub use extend::Extensions;

/// How many sets the search for the largest size visits before a soft stop may cut it short
/// (seconds): a safety net only. With the pruned search every position of the corpus of huge hands
/// from real games (`tests/golden/largest.txt`, the 2,000 positions of docs/contributing.md's figures, and
/// `tools/slow-positions.txt`) is proven within some 20,000 sets and 10 ms, so their moves stay
/// legal whatever the flag says.
const SOFT_STOP_AFTER: u64 = 5_000_000;

/// Hands of at most this many tiles are counted by one plain enumeration; larger ones find the
/// largest size first and count only the sets that can reach it.
const SMALL_HAND: usize = 3;

/// The tiles of a set whose order [`MoveGen::forced_order`] searches.
struct OrderSearch<'a> {
    tiles: &'a [Placement],
    /// The tiles (bits of indices into `tiles`) on double cells without a run of 10 to 12.
    needy: Mask,
    /// The normal cells beside the tiles' that take some needy value on the board before the set.
    beside: &'a [Cell],
    /// The tiles that can never open a normal cell to a needy tile's value: each may go down as
    /// soon as it may (see [`MoveGen::order_from`]).
    harmless: Mask,
    /// For each tile, the needy tiles that must go down before it: it lies beside a normal cell
    /// that the set leaves empty and that still takes their value with the whole set down, so
    /// once it is down that cell touches the board and they can never go.
    waits: &'a [Mask],
}

/// The buffers of [`MoveGen::forced_order`], kept from one search to the next.
#[derive(Default)]
struct OrderBuffers {
    tiles: Vec<Placement>,
    beside: Vec<Cell>,
    waits: Vec<Mask>,
    touching: Vec<Mask>,
    failed: MaskSet,
    /// By cell index: 1 + the index of the set's tile on the cell, 0 elsewhere (all 0 between
    /// searches; allocated on the first).
    slot: Vec<u8>,
    /// By cell index: whether the cell is in `beside` (all false between searches).
    in_beside: Vec<bool>,
}

/// A set of the tiles of a move, as bits of their indices: a move may place every tile of the
/// game (121).
type Mask = u128;

/// Tile `i` alone, as a mask.
fn bit(i: usize) -> Mask {
    1 << i
}

/// Whether `mask` holds tile `i`.
fn holds(mask: Mask, i: usize) -> bool {
    mask & bit(i) != 0
}

/// The tiles among `0..n` for which `pred` holds.
fn mask_where(n: usize, pred: impl Fn(usize) -> bool) -> Mask {
    (0..n).filter(|&i| pred(i)).fold(0, |m, i| m | bit(i))
}

/// Every tile among `0..n`.
fn all_of(n: usize) -> Mask {
    if n >= Mask::BITS as usize {
        Mask::MAX
    } else {
        bit(n) - 1
    }
}

/// The tiles of a mask, lowest first.
fn tiles_of(mut mask: Mask) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// Sets of tiles as bit masks.
type MaskSet = HashSet<Mask, BuildHasherDefault<MaskHasher>>;

/// Hashes a bit mask with one multiplication: SipHash would cost more than the search it serves.
#[derive(Default)]
struct MaskHasher(u64);

impl Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 = (n as u64 ^ (n >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// What a complete set of placements is worth to the double-cell rule.
enum Doubles {
    /// Every tile on a double cell lies on a run of 10 to 12, or the set has none.
    Fine,
    /// Valid only in the order of these indices into the placements (the forced exception).
    Ordered(Vec<usize>),
    /// Not valid: the reason, for the tile at this index.
    Invalid(MoveError),
}

/// A move generator over one board and hand. It works on its own copy of the board.
pub struct MoveGen<'r> {
    rules: &'r Rules,
    board: Board,
    hand: Tiles,
    limit: u8,
    /// Whether double cells need a run of 10 to 12 (only in the classic game).
    doubles_matter: bool,
    /// Placements of the set being built, in the order they went down.
    placed: Vec<Placement>,
    /// How many of `placed` lie on double cells.
    on_doubles: usize,
    /// A legal order for the current set when it needs one other than `placed`.
    order: Vec<Placement>,
    /// Redelmeier's marks, one array per nesting level (level 1 searches supersets); empty until
    /// the level's first enumeration.
    marks: [Vec<bool>; 2],
    /// The untried cells of every level of the recursion, as segments of one buffer.
    untried: Vec<Cell>,
    /// Normal cells each value fits on, on the board the generator started from (lazy).
    base_fits: Option<[Vec<Cell>; VALUES]>,
    /// The empty squares other than normal cells beside the tiles of the board the generator
    /// started from, computed with `base_fits`: with it, every cell that could take a tile then.
    other_open: Vec<Cell>,
    /// The room of every normal cell that touched the board the generator started from, by cell
    /// index, computed with `base_fits` (`None` elsewhere).
    base_room: Vec<Option<u8>>,
    /// When raised, every enumeration ends at once: counts and listings are then partial.
    stop: Option<&'r AtomicBool>,
    /// When not 0, the enumeration skips every subtree that cannot reach this many placements
    /// (by [`MoveGen::growth_bound`]): sets below this size may then be missed.
    prune_below: usize,
    /// Whether each set tries its normal cells before its double cells (classic hands of more
    /// than [`SMALL_HAND`] tiles): a tile on a double cell must lie on a run of 10 to 12 or be
    /// forced there, so the sets of a given size that are valid are met sooner.
    doubles_last: bool,
    /// Buffers of [`MoveGen::forced_order`].
    order_buffers: OrderBuffers,
    /// Buffers of [`MoveGen::growth_bound`].
    scratch: bound::Scratch,
    /// When raised, the search for the largest move size ends as soon as it has found one valid
    /// move, settling for the largest size found so far (see [`MoveGen::with_soft_stop`]).
    soft_stop: Option<&'r AtomicBool>,
}

type Sink<'s, 'r> = dyn FnMut(&mut MoveGen<'r>) -> ControlFlow<()> + 's;

impl<'r> MoveGen<'r> {
    /// A generator for a hand on a board under some rules.
    pub fn new(rules: &'r Rules, board: &Board, hand: Tiles) -> MoveGen<'r> {
        MoveGen {
            rules,
            board: board.clone(),
            hand,
            limit: rules.limit(),
            doubles_matter: rules.variant == Variant::Classic,
            placed: Vec::with_capacity(8),
            on_doubles: 0,
            order: Vec::new(),
            marks: [Vec::new(), Vec::new()],
            untried: Vec::new(),
            base_fits: None,
            other_open: Vec::new(),
            base_room: Vec::new(),
            stop: None,
            soft_stop: None,
            prune_below: 0,
            doubles_last: Self::doubles_last(rules, hand),
            scratch: bound::Scratch::new(),
            order_buffers: OrderBuffers::default(),
        }
    }

    /// Whether the sets of a hand try their normal cells before their double cells: classic hands
    /// of more than [`SMALL_HAND`] tiles.
    fn doubles_last(rules: &Rules, hand: Tiles) -> bool {
        rules.variant == Variant::Classic && hand.len() > SMALL_HAND
    }

    /// For players that must answer with a move: once `stop` is raised, a listing that has yielded
    /// a legal move ends at the next set it visits (rather than at the next legal move, which in a
    /// huge hand may be far away); one that has not goes on to its first legal move. Proving that
    /// no larger move exists (`must_place=maximum`) is cut short only after a first 5,000,000 sets
    /// (seconds), and the largest size found so far is taken, so the listing still yields moves. A
    /// safety net: the pruned proof takes at most about 10 ms in the hands of real games, but
    /// made-up hands on open boards may take longer; the move may then place fewer tiles than the
    /// rule demands.
    pub fn with_soft_stop(mut self, stop: &'r AtomicBool) -> MoveGen<'r> {
        self.soft_stop = Some(stop);
        self
    }

    /// Puts another hand in place of the generator's on the same board, keeping what it worked
    /// out about the board (perft counts every possible draw this way).
    pub fn set_hand(&mut self, hand: Tiles) {
        debug_assert!(self.placed.is_empty(), "the hand changes between enumerations only");
        self.hand = hand;
        self.doubles_last = Self::doubles_last(self.rules, hand);
    }

    /// Makes every enumeration end as soon as `stop` is raised (checked at every set). What it
    /// returned after that is partial: the caller knows from the flag.
    pub fn with_stop(mut self, stop: &'r AtomicBool) -> MoveGen<'r> {
        self.stop = Some(stop);
        self
    }

    /// The set being visited, in an order in which it is legal.
    fn current(&self) -> &[Placement] {
        if self.order.is_empty() {
            &self.placed
        } else {
            &self.order
        }
    }

    /// Whether a value may go on an empty cell of the current board as far as neighbours go.
    #[inline]
    fn touches(&self, cell: Cell) -> bool {
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
    fn fits(&self, cell: Cell, value: u8) -> bool {
        self.board.is_empty_cell(cell)
            && self.touches(cell)
            && self.board.room(cell, self.limit).is_some_and(|room| value <= room)
    }

    /// The cells a new set may start from: the root's neighbours, or every empty cell when no
    /// neighbour is needed, or the centre of an empty classic board.
    fn seed_untried(&mut self, level: usize) -> (usize, usize) {
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

    fn unseed(&mut self, level: usize, lo: usize) {
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
    fn extend(
        &mut self,
        (lo, front, hi): (usize, usize, usize),
        level: usize,
        max: usize,
        sink: &mut Sink<'_, 'r>,
    ) -> ControlFlow<()> {
        let neighbourly = self.rules.needs_neighbour();
        // The hand is the same at every cell below: each placement is taken back.
        let first = self.hand.distinct().next();
        for i in (lo..hi).rev() {
            if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return ControlFlow::Break(());
            }
            let u = self.untried[i];
            let Some(room) = self.board.room(u, self.limit) else { continue };
            if first.is_none_or(|v| v > room) {
                continue;
            }
            // The child's untried cells: those before u here, and u's unmarked neighbours.
            // The child may reorder its cells, so u's neighbours it marks are kept here.
            let child_lo = self.untried.len();
            self.untried.extend_from_within(lo..i);
            let mut fresh = [0usize; 4];
            let mut n_fresh = 0;
            if neighbourly && self.placed.len() + 1 < max {
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
            let child_hi = self.untried.len();
            // The cells before u are in order already: only u's neighbours may need moving.
            let child_front =
                self.doubles_to_front(child_hi - n_fresh, child_lo + (i.min(front) - lo), child_hi);
            let mut flow = ControlFlow::Continue(());
            // The smallest values first, in the search for a set of a given size too: trying the
            // largest first (the hardest to place) found the large sets of made-up hands of 24
            // tiles up to 5 times later, and changed little in real ones.
            for v in 0..=room.min(VALUES as u8 - 1) {
                if self.hand.count(v) == 0 {
                    continue;
                }
                self.push(Placement { cell: u, value: v });
                // A stranded tile makes the set and all its supersets invalid: none is visited.
                let stranded = self.stranded_double(child_lo, child_hi, level);
                if !stranded {
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
            self.untried.truncate(child_lo);
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Whether the current set may still grow to `prune_below` placements (always, when 0) with
    /// the untried cells `untried[lo..hi]` of `level`.
    ///
    /// The bound ([`MoveGen::may_grow_by`]) is asked only when it can cut something the
    /// enumeration would not cut by itself as cheaply. One tile short, the child enumeration is
    /// the exact test: it puts a tile down wherever one fits, and every set it visits has the size.
    /// When the size is the whole hand, nearly every set of a hand that all goes down can still
    /// grow to it: the bound then cut too few sets to pay for its region and line programmes
    /// (hands of 7 to 9 tiles that all go down took 10 to 60% more instructions with it), so the
    /// enumeration runs unpruned there, as the count of every size once did. Either way the
    /// enumeration visits every set of the size in the same order.
    #[inline]
    fn may_reach(&mut self, lo: usize, hi: usize, level: usize) -> bool {
        let want = self.prune_below;
        let have = self.placed.len();
        if want <= have + 1 {
            return true;
        }
        let need = want - have;
        need == self.hand.len() || (need < self.hand.len() && self.may_grow_by(lo, hi, level, need))
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
    fn run_ends(&self, cell: Cell, step: usize) -> (u8, usize, usize) {
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

    /// Runs `f` with the enumeration pruned to sets that can reach `size` placements.
    fn pruned<T>(&mut self, size: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.prune_below, size);
        let result = f(self);
        self.prune_below = saved;
        result
    }

    /// Runs a whole enumeration from the current board (which may hold a set already placed).
    fn enumerate(&mut self, level: usize, max: usize, sink: &mut Sink<'_, 'r>) -> ControlFlow<()> {
        if max <= self.placed.len() || self.hand.is_empty() {
            return ControlFlow::Continue(());
        }
        let (lo, hi) = self.seed_untried(level);
        let front = self.doubles_to_front(lo, lo, hi);
        let flow = self.extend((lo, front, hi), level, max, sink);
        self.unseed(level, lo);
        flow
    }

    /// Checks the double cells of the complete current set, finding a legal order if the forced
    /// exception is needed.
    fn doubles(&mut self) -> Doubles {
        if !self.doubles_matter || self.on_doubles == 0 {
            return Doubles::Fine;
        }
        let low = self.limit - 2;
        let mut needy: Mask = 0;
        for (i, p) in self.placed.iter().enumerate() {
            if self.board.square(p.cell) == Square::Double {
                let scores = [1, STRIDE].into_iter().any(|step| self.run_ends(p.cell, step).0 >= low);
                if !scores {
                    needy |= bit(i);
                }
            }
        }
        if needy == 0 {
            return Doubles::Fine;
        }
        let first = needy.trailing_zeros() as usize;
        let cell = self.placed[first].cell;
        if self.rules.forced_double == ForcedDouble::Forbid {
            return Doubles::Invalid(MoveError::DoubleForbidden(cell));
        }
        // Quick refusal: a normal cell the value fits on at the start, left empty by the set, that
        // it still fits on with the whole set down fits on it at any point of any order (tiles
        // put down only shrink the room of the cells beside their runs).
        self.ensure_base_fits();
        let fits = self.base_fits.as_ref().expect("computed just above");
        for i in (0..self.placed.len()).filter(|&i| holds(needy, i)) {
            let value = self.placed[i].value;
            let always = fits[usize::from(value)].iter().copied().find(|&c| {
                self.board.is_empty_cell(c)
                    && self.board.room(c, self.limit).is_some_and(|room| value <= room)
            });
            if let Some(fits) = always {
                return Doubles::Invalid(MoveError::DoubleNotForced {
                    cell: self.placed[i].cell,
                    value,
                    fits,
                });
            }
        }
        for i in (0..self.placed.len()).filter(|&i| holds(needy, i)) {
            if let Some(fits) = self.end_fits_without(i) {
                let p = self.placed[i];
                return Doubles::Invalid(MoveError::DoubleNotForced { cell: p.cell, value: p.value, fits });
            }
        }
        match self.forced_order(needy) {
            Some(order) => Doubles::Ordered(order),
            None => {
                let value = self.placed[first].value;
                let fits = self.base_fits()[usize::from(value)].first().copied();
                Doubles::Invalid(match fits {
                    Some(fits) => MoveError::DoubleNotForced { cell, value, fits },
                    None => MoveError::DoubleNoOrder(cell),
                })
            }
        }
    }

    /// A normal cell at an end of one of the runs through placement `i` of the complete set that
    /// touched the board before the set and takes the placement's value with every other tile of
    /// the set down: the placement is then never forced, in any order. (That cell touches the
    /// board from the start, is left empty by the set, and its room only shrinks as tiles go
    /// down, so it takes the value whenever placement `i` goes down; the quick refusal of
    /// [`MoveGen::doubles`] misses it when placement `i` is itself what shrinks that room.)
    fn end_fits_without(&self, i: usize) -> Option<Cell> {
        let p = self.placed[i];
        for (axis, step) in [(Axis::Horizontal, 1), (Axis::Vertical, STRIDE)] {
            // For each side, the sum of the set's run beyond the placement and the cell ending it.
            let side = |forward: bool| {
                let (mut j, mut sum) = (p.cell.index(), 0u8);
                loop {
                    j = if forward { j + step } else { j - step };
                    match self.board.get(Cell::from_index(j)) {
                        Some(t) => sum += t,
                        None => return (sum, j),
                    }
                }
            };
            let sides = [side(false), side(true)];
            let run = sides[0].0 + sides[1].0 + p.value;
            for (beyond, end) in sides {
                if self.base_room.get(end).copied().flatten().is_none_or(|room| p.value > room) {
                    continue;
                }
                let (horizontal, vertical) = self.board.sums_with(Cell::from_index(end), 0);
                let (along, across) =
                    if axis == Axis::Horizontal { (horizontal, vertical) } else { (vertical, horizontal) };
                // Without placement `i` the run beside the cell ends before it.
                let along = along - run + beyond;
                if p.value + along.max(across) <= self.limit {
                    return Some(Cell::from_index(end));
                }
            }
        }
        None
    }

    /// The normal cells each value fits on, on the board before the set.
    fn base_fits(&mut self) -> &[Vec<Cell>; VALUES] {
        self.ensure_base_fits();
        self.base_fits.as_ref().expect("computed just above")
    }

    fn ensure_base_fits(&mut self) {
        if self.base_fits.is_none() {
            let set = self.placed.clone();
            for p in set.iter().rev() {
                self.board.remove(p.cell);
            }
            let g = self.board.geometry();
            let open: Vec<Cell> = g
                .cells()
                .iter()
                .copied()
                .filter(|&c| self.board.is_empty_cell(c) && self.touches(c))
                .collect();
            let fits = self.fits_among(open.iter().copied());
            self.base_room = vec![None; GRID];
            for &c in open.iter().filter(|&&c| g.square(c) == Square::Normal) {
                self.base_room[c.index()] = self.board.room(c, self.limit);
            }
            self.other_open = open.into_iter().filter(|&c| g.square(c) != Square::Normal).collect();
            for p in &set {
                self.board.place(p.cell, p.value);
            }
            self.base_fits = Some(fits);
        }
    }

    /// The normal cells among `open` (empty cells that touch the board) that take each value: a
    /// cell takes every value up to its room.
    fn fits_among(&self, open: impl Iterator<Item = Cell>) -> [Vec<Cell>; VALUES] {
        let mut fits: [Vec<Cell>; VALUES] = std::array::from_fn(|_| Vec::with_capacity(64));
        for c in open.filter(|&c| self.board.square(c) == Square::Normal) {
            if let Some(room) = self.board.room(c, self.limit) {
                for list in fits.iter_mut().take(usize::from(room) + 1) {
                    list.push(c);
                }
            }
        }
        fits
    }

    /// Searches the orders of the current set for one in which every tile touches the board when
    /// it goes down and every tile in `needy` fits on no normal cell at that point.
    fn forced_order(&mut self, needy: Mask) -> Option<Vec<usize>> {
        // The search's buffers, taken out of the generator for the search and put back after it:
        // a set needs its order searched at most once, but an enumeration meets many such sets.
        let mut buffers = std::mem::take(&mut self.order_buffers);
        buffers.tiles.clear();
        buffers.tiles.extend_from_slice(&self.placed);
        let tiles = &buffers.tiles;
        for p in tiles.iter().rev() {
            self.board.remove(p.cell);
        }
        // The only normal cells a needy value may fit on during the search, besides those it
        // fits on at the start: the cells beside the set's, the only ones that come to touch the
        // board, that take the smallest needy value on the board before the set (rooms only
        // shrink as tiles go down).
        let g = self.board.geometry();
        if buffers.slot.is_empty() {
            buffers.slot = vec![0; GRID];
            buffers.in_beside = vec![false; GRID];
        }
        let smallest = tiles_of(needy).map(|i| tiles[i].value).min().unwrap_or(0);
        buffers.beside.clear();
        for p in tiles {
            for n in self.board.neighbours(p.cell) {
                let takes = || self.board.room(n, self.limit).is_some_and(|room| smallest <= room);
                if g.square(n) == Square::Normal && !buffers.in_beside[n.index()] && takes() {
                    buffers.in_beside[n.index()] = true;
                    buffers.beside.push(n);
                }
            }
        }
        for &c in &buffers.beside {
            buffers.in_beside[c.index()] = false;
        }
        // First the order the set was built in (each tile touches the board or an earlier one),
        // which often serves, before the search and its preparations.
        let mut built = 0;
        while let Some(&p) = tiles.get(built) {
            if !self.touches(p.cell) || (holds(needy, built) && self.fits_normal(p.value, &buffers.beside)) {
                break;
            }
            self.board.place(p.cell, p.value);
            built += 1;
        }
        if built == tiles.len() {
            self.order_buffers = buffers;
            return Some((0..built).collect());
        }
        for p in &tiles[built..] {
            self.board.place(p.cell, p.value);
        }
        self.waits(tiles, needy, &mut buffers.waits);
        for p in tiles.iter().rev() {
            self.board.remove(p.cell);
        }
        let harmless = self.harmless(tiles, needy);
        let mut order = Vec::with_capacity(tiles.len());
        buffers.failed.clear();
        let reachable =
            self.needy_reachable(tiles, needy, &buffers.waits, &mut buffers.slot, &mut buffers.touching);
        let found = reachable && {
            let search =
                OrderSearch { tiles, needy, beside: &buffers.beside, harmless, waits: &buffers.waits };
            self.order_from(&search, 0, &mut buffers.failed, &mut order)
        };
        for p in tiles {
            self.board.place(p.cell, p.value);
        }
        self.order_buffers = buffers;
        found.then_some(order)
    }

    /// [`OrderSearch::waits`], with the whole set down.
    fn waits(&self, tiles: &[Placement], needy: Mask, waits: &mut Vec<Mask>) {
        waits.clear();
        waits.resize(tiles.len(), 0);
        if !self.rules.needs_neighbour() {
            return;
        }
        // By value, the needy tiles of at most that value.
        let mut needy_upto: [Mask; VALUES] = [0; VALUES];
        for d in tiles_of(needy) {
            for m in &mut needy_upto[usize::from(tiles[d].value)..] {
                *m |= bit(d);
            }
        }
        for (j, p) in tiles.iter().enumerate() {
            let room = self
                .board
                .neighbours(p.cell)
                .filter(|&c| self.board.square(c) == Square::Normal && self.board.is_empty_cell(c))
                .filter_map(|c| self.board.room(c, self.limit))
                .max();
            let Some(room) = room else { continue };
            waits[j] = needy_upto[usize::from(room).min(VALUES - 1)] & !bit(j);
        }
    }

    /// [`OrderSearch::harmless`], on the board before the set. Putting a tile down fills its cell
    /// and lengthens runs, which only take fits away, and makes the empty cells beside it touch
    /// the board: a tile is harmful only if one of them did not touch the board already and takes
    /// some needy value now (rooms only shrink as tiles go down, so never later if not now).
    fn harmless(&self, tiles: &[Placement], needy: Mask) -> Mask {
        let n = tiles.len();
        let smallest = tiles_of(needy).map(|i| tiles[i].value).min();
        let Some(smallest) = smallest else { return all_of(n) };
        let opens = |c: Cell| {
            self.board.square(c) == Square::Normal
                && self.board.is_empty_cell(c)
                && !self.touches(c)
                && self.board.room(c, self.limit).is_some_and(|room| smallest <= room)
        };
        mask_where(n, |i| !self.board.neighbours(tiles[i].cell).any(opens))
    }

    /// A quick refusal of the order search, on the board before the set: whether each needy tile
    /// can be reached from the board through tiles that need not wait for it.
    fn needy_reachable(
        &self,
        tiles: &[Placement],
        needy: Mask,
        waits: &[Mask],
        slot: &mut [u8],
        touching: &mut Vec<Mask>,
    ) -> bool {
        if !self.rules.needs_neighbour() {
            return true;
        }
        let n = tiles.len();
        let starts = mask_where(n, |i| self.touches(tiles[i].cell));
        // The tiles next to each tile, through a map from cells to tiles (a set holds at most
        // the 121 tiles of the game, so 1 + an index fits a byte).
        for (i, p) in tiles.iter().enumerate() {
            slot[p.cell.index()] = i as u8 + 1;
        }
        touching.clear();
        touching.extend(tiles.iter().map(|p| {
            let c = p.cell.index();
            [c - 1, c + 1, c - STRIDE, c + STRIDE]
                .into_iter()
                .filter(|&m| slot[m] != 0)
                .fold(0, |mask, m| mask | bit(usize::from(slot[m]) - 1))
        }));
        for p in tiles {
            slot[p.cell.index()] = 0;
        }
        tiles_of(needy).all(|d| {
            let allowed = all_of(n) & !bit(d) & !mask_where(n, |j| holds(waits[j], d));
            // Grown from the tiles that start it, each reached tile adding its neighbours once.
            let mut reached = starts & allowed;
            let mut fresh = reached;
            while fresh != 0 {
                let j = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let grown = touching[j] & allowed & !reached;
                reached |= grown;
                fresh |= grown;
            }
            holds(starts, d) || touching[d] & reached != 0
        })
    }

    /// Whether a normal cell takes the value now, among those [`MoveGen::forced_order`] watches.
    fn fits_normal(&mut self, value: u8, beside: &[Cell]) -> bool {
        self.ensure_base_fits();
        let fits = |c: &Cell| self.fits(*c, value);
        self.base_fits.as_ref().is_some_and(|base| base[usize::from(value)].iter().any(fits))
            || beside.iter().any(fits)
    }

    /// Whether tile `i` of the search may go down now, with the tiles of `mask` down: it touches
    /// the board, no needy tile it waits for is still to go, and, if it is needy, its value fits
    /// on no normal cell (`fits_normal` caches that per value for the current board).
    fn may_go(
        &mut self,
        search: &OrderSearch<'_>,
        mask: Mask,
        i: usize,
        fits_normal: &mut [Option<bool>; VALUES],
    ) -> bool {
        let p = search.tiles[i];
        if holds(mask, i) || search.waits[i] & !mask != 0 || !self.touches(p.cell) {
            return false;
        }
        if !holds(search.needy, i) {
            return true;
        }
        let v = usize::from(p.value);
        let fits = match fits_normal[v] {
            Some(fits) => fits,
            None => *fits_normal[v].insert(self.fits_normal(p.value, search.beside)),
        };
        !fits
    }

    /// One step of [`MoveGen::forced_order`]: the tiles of `mask` are down; `failed` holds the
    /// masks from which no order goes on (only those visited).
    ///
    /// Harmless tiles that may go down go at once, without branching: moved to the front of any
    /// order that completes, a harmless tile leaves every later tile touching the board and opens
    /// no normal cell to a needy value, so the order still completes.
    fn order_from(
        &mut self,
        search: &OrderSearch<'_>,
        mut mask: Mask,
        failed: &mut MaskSet,
        order: &mut Vec<usize>,
    ) -> bool {
        let tiles = search.tiles;
        let full = all_of(tiles.len());
        let at = order.len();
        let mut fits_normal: [Option<bool>; VALUES] = [None; VALUES];
        let mut progress = true;
        while progress && mask != full {
            progress = false;
            for i in tiles_of(search.harmless) {
                if self.may_go(search, mask, i, &mut fits_normal) {
                    self.board.place(tiles[i].cell, tiles[i].value);
                    mask |= bit(i);
                    order.push(i);
                    fits_normal = [None; VALUES];
                    progress = true;
                }
            }
        }
        let closed = order.len();
        let done = mask == full || (!failed.contains(&mask) && self.branch(search, mask, failed, order));
        for &i in order[at..closed].iter().rev() {
            self.board.remove(tiles[i].cell);
        }
        if !done {
            order.truncate(at);
        }
        done
    }

    /// The branching of [`MoveGen::order_from`] over the tiles that may go down next.
    fn branch(
        &mut self,
        search: &OrderSearch<'_>,
        mask: Mask,
        failed: &mut MaskSet,
        order: &mut Vec<usize>,
    ) -> bool {
        let tiles = search.tiles;
        // Whether each value of a needy tile fits on a normal cell now, found once per state.
        let mut fits_normal: [Option<bool>; VALUES] = [None; VALUES];
        // Needy tiles first: each tile put down may open normal cells they would then fit on.
        let needy = search.needy;
        let needy_first = tiles_of(needy);
        let others = tiles_of(all_of(tiles.len()) & !needy);
        for i in needy_first.chain(others) {
            if !self.may_go(search, mask, i, &mut fits_normal) {
                continue;
            }
            let p = tiles[i];
            self.board.place(p.cell, p.value);
            order.push(i);
            let done = self.order_from(search, mask | bit(i), failed, order);
            self.board.remove(p.cell);
            if done {
                return true;
            }
            order.pop();
        }
        failed.insert(mask);
        false
    }

    /// Whether the current complete set is valid; on success `current()` gives a legal order.
    fn accept(&mut self) -> bool {
        self.order.clear();
        match self.doubles() {
            Doubles::Fine => true,
            Doubles::Ordered(order) => {
                self.order = order.into_iter().map(|i| self.placed[i]).collect();
                true
            }
            Doubles::Invalid(_) => false,
        }
    }

    /// Counts the valid sets by size (index 0 unused).
    pub fn count_by_size(&mut self) -> Vec<u64> {
        let mut counts = vec![0u64; self.hand.len() + 1];
        let max = self.hand.len();
        let _ = self.enumerate(0, max, &mut |g| {
            if g.accept() {
                counts[g.placed.len()] += 1;
            }
            ControlFlow::Continue(())
        });
        counts
    }

    /// A valid set of at least `min` tiles beyond those already placed, if any.
    fn find_valid(&mut self, level: usize, min: usize) -> Option<Move> {
        let max = self.placed.len() + self.hand.len();
        let mut found = None;
        let prune = if min > self.placed.len() + 1 { min } else { 0 };
        self.pruned(prune, |g| {
            let _ = g.enumerate(level, max, &mut |g| {
                if g.placed.len() >= min && g.accept() {
                    found = Some(Move::new(g.current().to_vec()));
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
        });
        found
    }

    /// Whether some valid set strictly contains the current one; the first found.
    fn valid_superset(&mut self) -> Option<Move> {
        if self.hand.is_empty() {
            return None;
        }
        let saved_order = std::mem::take(&mut self.order);
        let found = self.find_valid(1, self.placed.len() + 1);
        self.order = saved_order;
        found
    }

    /// Whether the current complete set is a legal move under `must_place=maximal`: valid, and
    /// strictly contained in no valid set. On success `current()` gives a legal order.
    ///
    /// Of the two checks the cheaper goes first. A set with a tile on a double cell where the
    /// forced exception is allowed may need a search over its orders, while whether a valid
    /// superset exists is mostly settled by the cells beside the set, and most sets have one (in
    /// the solo cz3 hand `1344555666` of tests/golden/middle-hands.txt, 38,189 of 122,574 sets
    /// are moves, and 25,533 needed the order search when it went first). Otherwise the
    /// double-cell check is a glance, and the superset check may search when the exception is
    /// forbidden. (The superset check of an invalid set answers something; only its conjunction
    /// with validity counts.)
    fn is_maximal_move(&mut self) -> bool {
        let may_search_orders =
            self.doubles_matter && self.on_doubles > 0 && self.rules.forced_double == ForcedDouble::Allow;
        if !may_search_orders {
            return self.accept() && !self.has_valid_superset();
        }
        if self.has_valid_superset() {
            return false;
        }
        self.accept()
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
        self.valid_superset().is_some()
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

    /// Some valid move that places at least one tile, if any.
    pub fn any_move(&mut self) -> Option<Move> {
        self.find_valid(0, 1)
    }

    /// The size of the largest valid move (0 when only `pass` is legal).
    ///
    /// A short dive finds a valid set (a lower bound); then, from the upper bound of
    /// `MoveGen::growth_bound` down, each size is searched for with every subtree that cannot
    /// reach it pruned, until one is found: the answer is exact, and proving that no larger set
    /// exists costs only the pruned searches. Stopped (the stop flag, or the soft stop after
    /// `SOFT_STOP_AFTER` sets), it returns the largest size found so far.
    pub fn largest_size(&mut self) -> usize {
        debug_assert!(self.placed.is_empty(), "the largest size is asked of the board alone");
        if self.hand.is_empty() {
            return 0;
        }
        let mut visited = 0u64;
        let (mut best, complete) = self.dive(&mut visited);
        if complete || best == self.hand.len() {
            return best;
        }
        let (lo, hi) = self.seed_untried(0);
        let top = self.growth_bound(lo, hi, 0);
        self.unseed(0, lo);
        for size in (best + 1..=top).rev() {
            if self.has_set_of(size, &mut visited) {
                best = size;
                break;
            }
            if self.stopped() || self.settled(best, visited) {
                break;
            }
        }
        best
    }

    /// Whether the soft stop flag is raised.
    fn soft_stopped(&self) -> bool {
        self.soft_stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether the soft stop may settle now, with `best` found after `visited` sets.
    fn settled(&self, best: usize, visited: u64) -> bool {
        best > 0 && visited > SOFT_STOP_AFTER && self.soft_stopped()
    }

    /// The largest valid set met among the first sets of a depth-first enumeration, a quick
    /// lower bound on the largest size, and whether the enumeration ran to its end (the bound is
    /// then the largest size).
    fn dive(&mut self, visited: &mut u64) -> (usize, bool) {
        const DIVE_SETS: u64 = 2_000;
        let max = self.hand.len();
        let mut best = 0;
        let start = *visited;
        let flow = self.enumerate(0, max, &mut |g| {
            *visited += 1;
            if g.placed.len() > best && g.accept() {
                best = g.placed.len();
            }
            if best == max || *visited - start >= DIVE_SETS {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        (best, flow.is_continue() && !self.stopped())
    }

    /// Whether some valid set has exactly `size` placements (false also when stopped).
    fn has_set_of(&mut self, size: usize, visited: &mut u64) -> bool {
        let mut found = false;
        self.pruned(size, |g| {
            let _ = g.enumerate(0, size, &mut |g| {
                *visited += 1;
                if g.placed.len() == size && g.accept() {
                    found = true;
                    return ControlFlow::Break(());
                }
                if g.settled(1, *visited) {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
        });
        found
    }

    /// Calls `visit` with every legal move once, in an order in which it is legal; `pass` (an
    /// empty slice) when it is the only legal move. Stops when `visit` breaks, or when the stop
    /// flag ([`MoveGen::with_stop`]) is raised: then `pass` is never visited.
    pub fn for_each_legal(
        &mut self,
        visit: &mut dyn FnMut(&[Placement]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let max = self.hand.len();
        let mut any = false;
        let flow = match self.rules.must_place {
            MustPlace::Maximum => {
                let size = self.largest_size();
                if self.stopped() {
                    // The size is not proven: no set of it is a legal move yet, nor is `pass`.
                    return ControlFlow::Break(());
                }
                let prune = if self.hand.len() > SMALL_HAND { size } else { 0 };
                self.pruned(prune, |g| {
                    g.enumerate(0, size, &mut |g| {
                        if any && g.soft_stopped() {
                            return ControlFlow::Break(());
                        }
                        if g.placed.len() == size && g.accept() {
                            any = true;
                            return visit(g.current());
                        }
                        ControlFlow::Continue(())
                    })
                })
            }
            MustPlace::Maximal => self.enumerate(0, max, &mut |g| {
                if any && g.soft_stopped() {
                    return ControlFlow::Break(());
                }
                if g.is_maximal_move() {
                    any = true;
                    return visit(g.current());
                }
                ControlFlow::Continue(())
            }),
        };
        if !any && flow.is_continue() {
            return visit(&[]);
        }
        flow
    }

    /// The number of legal moves (1 when only `pass` is legal), without listing them; stopped
    /// ([`MoveGen::with_stop`]), the number found so far.
    pub fn legal_count(&mut self) -> u64 {
        if self.hand.len() <= 2 {
            return self.count_small();
        }
        let count = match self.rules.must_place {
            MustPlace::Maximum if self.hand.len() <= SMALL_HAND => {
                self.count_by_size().into_iter().rev().find(|&n| n > 0).unwrap_or(0)
            }
            MustPlace::Maximum => {
                let size = self.largest_size();
                if self.stopped() {
                    return 0;
                }
                let mut n = 0u64;
                self.pruned(size, |g| {
                    let _ = g.enumerate(0, size, &mut |g| {
                        if g.placed.len() == size && g.accept() {
                            n += 1;
                        }
                        ControlFlow::Continue(())
                    });
                });
                n
            }
            MustPlace::Maximal => {
                let mut n = 0u64;
                let _ = self.enumerate(0, self.hand.len(), &mut |g| {
                    if g.is_maximal_move() {
                        n += 1;
                    }
                    ControlFlow::Continue(())
                });
                n
            }
        };
        // Stopped, the count so far: `pass` is legal only when a whole search found nothing.
        if self.stopped() {
            count
        } else {
            count.max(1)
        }
    }

    /// A uniformly random legal move and how many moves it chose from: reservoir sampling over
    /// the stream of legal moves, so nothing is materialised. Uniform among the first `cap` moves
    /// when there are more, or among those seen when the soft stop flag is raised.
    pub fn random_legal(&mut self, rng: &mut impl Rng, cap: u64) -> (Move, u64) {
        let soft_stop = self.soft_stop;
        let mut chosen = Move::pass();
        let mut seen = 0u64;
        let _ = self.for_each_legal(&mut |placements| {
            seen += 1;
            if rng.random_range(0..seen) == 0 {
                chosen = Move::new(placements.to_vec());
            }
            if seen >= cap || soft_stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        (chosen, seen)
    }

    /// Every legal move, materialised. Prefer [`MoveGen::for_each_legal`] for large hands.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut moves = Vec::new();
        let _ = self.for_each_legal(&mut |p| {
            moves.push(Move::new(p.to_vec()));
            ControlFlow::Continue(())
        });
        moves
    }

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
    fn hand_ok(&self, mv: &Move) -> Result<(), MoveError> {
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
    fn cells_ok(&self, mv: &Move) -> Result<(), MoveError> {
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
    fn place_valid(&mut self, mv: &Move) -> Result<(), MoveError> {
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
        if let Doubles::Invalid(e) = self.doubles() {
            self.take_back();
            return Err(e);
        }
        Ok(())
    }

    /// Puts a placement down as the next of the current set; its cell must be empty.
    #[inline]
    fn push(&mut self, p: Placement) {
        self.board.place(p.cell, p.value);
        self.hand.remove(p.value);
        self.placed.push(p);
        self.on_doubles += usize::from(self.board.square(p.cell) == Square::Double);
    }

    /// Takes back the last placement of the current set.
    #[inline]
    fn pop(&mut self) {
        if let Some(p) = self.placed.pop() {
            self.board.remove(p.cell);
            self.hand.add(p.value);
            self.on_doubles -= usize::from(self.board.square(p.cell) == Square::Double);
        }
    }

    /// Takes back every placement of the current set.
    fn take_back(&mut self) {
        while !self.placed.is_empty() {
            self.pop();
        }
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

fn adjacent(a: Cell, b: Cell) -> bool {
    let d = a.index().abs_diff(b.index());
    d == 1 || d == STRIDE
}
