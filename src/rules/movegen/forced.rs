//! The double-cell rule of a complete set: whether each tile on a double cell lies on a run of 10
//! to 12, and when one does not, whether some order of the set's tiles makes it forced there (its
//! value fits on no normal cell when it goes down) under `forced_double=allow`.
//!
//! Most sets are settled before any order is tried: a value that fits, at the start, on a normal
//! cell that the whole set leaves able to take it fits there in every order (tiles put down only
//! shrink the rooms beside their runs), and so does one at an end of the tile's own runs that the
//! other tiles leave open. Otherwise finding an order is a search over the subsets of the set's
//! tiles already down, cut short three ways: tiles that cannot open a normal cell to a forced
//! value go down at once, unbranched; a tile that would open a cell that still fits a forced
//! value with the whole set down must wait for that forced tile; and a forced tile that cannot be
//! reached from the board through tiles free to go before it refuses the set outright
//! ([`MoveGen::forced_order`]). Before any of that, the order the set was built in: the
//! enumeration records, as it puts each tile down, whether its value then fit a normal cell
//! ([`Built`]), so a set that order serves is accepted without being looked at again. Then the
//! refusal, read with the whole set down (most sets that reach the search end there, and so never
//! leave the board), first in its most frequent form from the squares around the forced tiles
//! alone ([`MoveGen::needy_cut_off`]); then the order the set was built in once more, for the sets
//! whose tiles were not all put down by an enumeration; then the search. An enumeration, which
//! needs no reason, asks `witness.rs` first whether any order serves, and searches only the sets
//! that one does for, to find that order.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::witness::reached;
use super::MoveGen;
use crate::rules::board::Axis;
use crate::rules::error::MoveError;
use crate::rules::geometry::{Cell, Square, GRID, STRIDE};
use crate::rules::moves::Placement;
use crate::rules::options::ForcedDouble;
use crate::rules::tiles::VALUES;

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
pub(super) struct OrderBuffers {
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
pub(super) type Mask = u128;

/// Tile `i` alone, as a mask.
pub(super) fn bit(i: usize) -> Mask {
    1 << i
}

/// Whether `mask` holds tile `i`.
pub(super) fn holds(mask: Mask, i: usize) -> bool {
    mask & bit(i) != 0
}

/// The tiles among `0..n` for which `pred` holds.
fn mask_where(n: usize, pred: impl Fn(usize) -> bool) -> Mask {
    (0..n).filter(|&i| pred(i)).fold(0, |m, i| m | bit(i))
}

/// Every tile among `0..n`.
pub(super) fn all_of(n: usize) -> Mask {
    if n >= Mask::BITS as usize {
        Mask::MAX
    } else {
        bit(n) - 1
    }
}

/// The tiles of a mask, lowest first.
pub(super) fn tiles_of(mut mask: Mask) -> impl Iterator<Item = usize> {
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

/// What the enumeration knew of a placement when it put it down, for the order the set was built
/// in ([`MoveGen::built`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Built {
    /// It went down outside an enumeration (a move checked, a set extended): its order is not
    /// known to serve.
    Unknown,
    /// It went down touching the board or an earlier tile, and was forced if it lay on a double
    /// cell off a run of 10 to 12: its value fit no normal cell then.
    Serves,
    /// It went down touching, on a double cell off a run of 10 to 12, and its value fit a normal
    /// cell then: the built order serves only if a later tile puts it on a run of 10 to 12.
    Fits,
}

/// What a complete set of placements is worth to the double-cell rule.
pub(super) enum Doubles {
    /// Every tile on a double cell lies on a run of 10 to 12, or the set has none.
    Fine,
    /// Valid only in the order of these indices into the placements (the forced exception).
    Ordered(Vec<usize>),
    /// Valid in the order the placements went down (the forced exception).
    Built,
    /// Not valid: the reason, for the tile at this index.
    Invalid(MoveError),
    /// Not valid, the reason not sought.
    Refused,
    /// Valid by the forced exception in some order, not sought ([`Need::Verdict`]).
    Forced,
}

/// What a caller of [`MoveGen::doubles`] needs to know of a set beyond whether it is valid.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Need {
    /// Only whether it is valid: a count, or the search for a size.
    Verdict,
    /// A legal order of a valid set: a listing.
    Order,
    /// A legal order, and the reason of a refusal: the check of a given move.
    Reason,
}

impl<'r> MoveGen<'r> {
    /// Checks the double cells of the complete current set, finding a legal order if the forced
    /// exception is needed and `need` asks for one. Unless the reason is needed, a refused set may
    /// come without it ([`Doubles::Refused`]), found sooner.
    pub(super) fn doubles(&mut self, need: Need) -> Doubles {
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
        // The order the set was built in, as the enumeration recorded it tile by tile.
        if self
            .built
            .iter()
            .enumerate()
            .all(|(i, &b)| b == Built::Serves || (b == Built::Fits && !holds(needy, i)))
        {
            return Doubles::Built;
        }
        // Whether some order serves, settled by the fixpoints of `witness.rs` when the reason of
        // a refusal is not wanted: the order search then only finds the order (the first of its
        // search, which the listings write), or gives the reason of a refusal.
        let forced = if need == Need::Reason { None } else { self.forced_by_fixpoint(needy) };
        debug_assert!(
            forced.is_none_or(|forced| forced == !matches!(self.doubles(Need::Reason), Doubles::Invalid(_))),
            "the fixpoint and the order search disagree on {:?}",
            self.placed
        );
        match forced {
            Some(false) => return Doubles::Refused,
            Some(true) if need == Need::Verdict => return Doubles::Forced,
            _ => {}
        }
        if forced.is_none() {
            if let Some(refusal) = self.quick_refusal(needy) {
                return Doubles::Invalid(refusal);
            }
        }
        match self.forced_order(needy, forced == Some(true)) {
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

    /// The refusals read with the whole set down, before any order is tried: a needy tile whose
    /// value a normal cell takes in every order, with that cell (first those that took it on the
    /// board before the set, then those at an end of the tile's own runs).
    fn quick_refusal(&mut self, needy: Mask) -> Option<MoveError> {
        self.ensure_base_fits();
        let fits = tiles_of(needy)
            .find_map(|i| Some((i, self.fits_in_every_order(i)?)))
            .or_else(|| tiles_of(needy).find_map(|i| Some((i, self.end_fits_without(i)?))));
        fits.map(|(i, fits)| {
            let p = self.placed[i];
            MoveError::DoubleNotForced { cell: p.cell, value: p.value, fits }
        })
    }

    /// A normal cell that took the value of placement `i` of the complete set on the board
    /// before the set, is left empty by the set and still takes it with the whole set down: it
    /// takes it at any point of any order (tiles put down only shrink the room of the cells
    /// beside their runs). Needs `base_fits`.
    pub(super) fn fits_in_every_order(&self, i: usize) -> Option<Cell> {
        let value = self.placed[i].value;
        let fits = self.base_fits.as_ref().expect("computed by the caller");
        fits[usize::from(value)].iter().copied().find(|&c| {
            self.board.is_empty_cell(c) && self.board.room(c, self.limit).is_some_and(|room| value <= room)
        })
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

    /// What the enumeration records of a placement it is about to put down (see [`Built`]):
    /// whether, on a double cell off a run of 10 to 12 under `forced_double=allow`, its value fits
    /// a normal cell now. Such a cell touches the board: it took the value on the board before
    /// the set (rooms only shrink), or it lies beside a tile of the set.
    pub(super) fn built_state(&mut self, p: Placement) -> Built {
        if !self.doubles_matter
            || self.rules.forced_double == ForcedDouble::Forbid
            || self.board.square(p.cell) != Square::Double
        {
            return Built::Serves;
        }
        let (horizontal, vertical) = self.board.sums_with(p.cell, p.value);
        if horizontal.max(vertical) >= self.limit - 2 {
            return Built::Serves;
        }
        self.ensure_base_fits();
        let takes = |c: Cell| {
            self.board.is_empty_cell(c) && self.board.room(c, self.limit).is_some_and(|room| p.value <= room)
        };
        let base = self.base_fits.as_ref().expect("computed just above");
        let fits = base[usize::from(p.value)].iter().any(|&c| takes(c))
            || self.placed.iter().any(|q| {
                self.board.neighbours(q.cell).any(|c| self.board.square(c) == Square::Normal && takes(c))
            });
        if fits {
            Built::Fits
        } else {
            Built::Serves
        }
    }

    /// The normal cells each value fits on, on the board before the set.
    pub(super) fn base_fits(&mut self) -> &[Vec<Cell>; VALUES] {
        self.ensure_base_fits();
        self.base_fits.as_ref().expect("computed just above")
    }

    pub(super) fn ensure_base_fits(&mut self) {
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
            self.base_touch = vec![false; GRID];
            for &c in g.cells() {
                self.base_touch[c.index()] = self.board.has_neighbour(c);
            }
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
    /// With `known`, some order is known to serve (`witness.rs`), and the refusals that would
    /// only cost time are skipped.
    pub(super) fn forced_order(&mut self, needy: Mask, known: bool) -> Option<Vec<usize>> {
        // The search's buffers, taken out of the generator for the search and put back after it:
        // a set needs its order searched at most once, but an enumeration meets many such sets.
        let mut buffers = self.order_buffers.take().unwrap_or_default();
        buffers.tiles.clear();
        buffers.tiles.extend_from_slice(&self.placed);
        // The waits and the quick refusal are read with the whole set down, as it is now: most
        // sets that come this far are refused by it, so those never leave the board.
        if buffers.slot.is_empty() {
            buffers.slot = vec![0; GRID];
            buffers.in_beside = vec![false; GRID];
        }
        if !known && self.needy_cut_off(needy, &mut buffers) {
            self.order_buffers = Some(buffers);
            return None;
        }
        let starts = self.neighbourhood(needy, &mut buffers);
        let tiles = &buffers.tiles;
        if !known && !needy_reachable(tiles.len(), needy, starts, &buffers.waits, &buffers.touching) {
            self.order_buffers = Some(buffers);
            return None;
        }
        for p in tiles.iter().rev() {
            self.board.remove(p.cell);
        }
        // The only normal cells a needy value may fit on during the search, besides those it
        // fits on at the start: the cells beside the set's, the only ones that come to touch the
        // board, that take the smallest needy value on the board before the set (rooms only
        // shrink as tiles go down).
        let g = self.board.geometry();
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
            self.order_buffers = Some(buffers);
            return Some((0..built).collect());
        }
        for p in tiles[..built].iter().rev() {
            self.board.remove(p.cell);
        }
        let harmless = self.harmless(tiles, needy);
        let mut order = Vec::with_capacity(tiles.len());
        buffers.failed.clear();
        let search = OrderSearch { tiles, needy, beside: &buffers.beside, harmless, waits: &buffers.waits };
        let found = self.order_from(&search, 0, &mut buffers.failed, &mut order);
        for p in tiles {
            self.board.place(p.cell, p.value);
        }
        self.order_buffers = Some(buffers);
        found.then_some(order)
    }

    /// The quick refusal of [`needy_reachable`] in its most frequent form, read from the squares
    /// around the needy tiles alone: a needy tile that does not touch the board before the set and
    /// whose neighbours in the set all wait for it (each lies beside an empty normal cell that
    /// takes its value with the whole set down) cannot be reached.
    fn needy_cut_off(&self, needy: Mask, buffers: &mut OrderBuffers) -> bool {
        if !self.rules.needs_neighbour() {
            return false;
        }
        let OrderBuffers { tiles, slot, .. } = buffers;
        let n = tiles.len();
        for (i, p) in tiles.iter().enumerate() {
            slot[p.cell.index()] = i as u8 + 1;
        }
        let centre = (self.board.count() == n).then(|| self.board.geometry().centre()).flatten();
        let cut_off = tiles_of(needy).any(|d| Some(tiles[d].cell) != centre && self.cut_off(d, slot));
        for p in tiles.iter() {
            slot[p.cell.index()] = 0;
        }
        cut_off
    }

    /// With the whole set down, in one pass over the squares beside its tiles: for each tile, the
    /// needy tiles it waits for ([`OrderSearch::waits`], into `buffers.waits`) and the tiles
    /// beside it (`buffers.touching`); returns the tiles that touch the board before the set
    /// (beside a tile that is not the set's, or on the centre of a board that held none). With
    /// no neighbour needed, no tile waits and every tile touches the board.
    fn neighbourhood(&self, needy: Mask, buffers: &mut OrderBuffers) -> Mask {
        let OrderBuffers { tiles, waits, touching, slot, .. } = buffers;
        let n = tiles.len();
        waits.clear();
        waits.resize(n, 0);
        touching.clear();
        if !self.rules.needs_neighbour() {
            touching.resize(n, 0);
            return all_of(n);
        }
        // By value, the needy tiles of at most that value.
        let mut needy_upto: [Mask; VALUES] = [0; VALUES];
        for d in tiles_of(needy) {
            for m in &mut needy_upto[usize::from(tiles[d].value)..] {
                *m |= bit(d);
            }
        }
        // A map from cells to tiles (a set holds at most the 121 tiles of the game, so 1 + an
        // index fits a byte).
        for (i, p) in tiles.iter().enumerate() {
            slot[p.cell.index()] = i as u8 + 1;
        }
        let centre = (self.board.count() == n).then(|| self.board.geometry().centre()).flatten();
        let mut starts = 0;
        for (j, p) in tiles.iter().enumerate() {
            let c = p.cell.index();
            let mut beside: Mask = 0;
            let mut start = Some(p.cell) == centre;
            // The largest room of the empty normal cells beside the tile.
            let mut room: Option<u8> = None;
            for m in [c - 1, c + 1, c - STRIDE, c + STRIDE] {
                if slot[m] != 0 {
                    beside |= bit(usize::from(slot[m]) - 1);
                    continue;
                }
                let cell = Cell::from_index(m);
                if self.board.get(cell).is_some() {
                    start = true;
                } else if self.board.is_empty_cell(cell) && self.board.square(cell) == Square::Normal {
                    room = room.max(self.board.room(cell, self.limit));
                }
            }
            touching.push(beside);
            if start {
                starts |= bit(j);
            }
            if let Some(room) = room {
                waits[j] = needy_upto[usize::from(room).min(VALUES - 1)] & !bit(j);
            }
        }
        for p in tiles {
            slot[p.cell.index()] = 0;
        }
        starts
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
            for i in tiles_of(search.harmless & !mask) {
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
    pub(super) fn accept(&mut self) -> bool {
        self.order.clear();
        match self.doubles(Need::Order) {
            Doubles::Fine | Doubles::Built => true,
            Doubles::Ordered(order) => {
                self.order = order.into_iter().map(|i| self.placed[i]).collect();
                true
            }
            Doubles::Invalid(_) | Doubles::Refused => false,
            Doubles::Forced => unreachable!("an order was asked for"),
        }
    }

    /// Whether the complete current set is valid, its order not sought: for counts and the
    /// search for a size, which never read `current()`.
    pub(super) fn valid(&mut self) -> bool {
        match self.doubles(Need::Verdict) {
            Doubles::Fine | Doubles::Built | Doubles::Ordered(_) | Doubles::Forced => true,
            Doubles::Invalid(_) | Doubles::Refused => false,
        }
    }
}

/// A quick refusal of the order search of a set of `n` tiles, with the whole set down: whether
/// each needy tile can be reached from the board before the set through tiles that need not wait
/// for it. (In any order that serves, the tiles before a needy tile wait for none of it and each
/// touches the board or an earlier one, so a needy tile that cannot be reached so has no order.)
/// `starts`, `waits` and `touching` are those of [`MoveGen::neighbourhood`].
fn needy_reachable(n: usize, needy: Mask, starts: Mask, waits: &[Mask], touching: &[Mask]) -> bool {
    tiles_of(needy).all(|d| {
        let allowed = all_of(n) & !bit(d) & !mask_where(n, |j| holds(waits[j], d));
        holds(starts, d) || touching[d] & reached(starts & allowed, allowed, touching) != 0
    })
}
