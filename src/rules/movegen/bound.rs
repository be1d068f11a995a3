//! An upper bound on how many more tiles a partial set can grow by, for pruning the search for
//! the largest move size (and the listing of moves of that size).
//!
//! The bound relaxes the rules: double cells are treated as normal cells, and the tiles to come
//! only have to respect the run limit line by line, each line on its own. It rests on three facts
//! of the rules: run sums only grow as tiles go down, so the room of an empty cell (the largest
//! value it takes) only shrinks; every tile to come touches an earlier one or the board when it
//! goes down; and every run, in the end, sums to at most the limit. So, with `vmin` the smallest
//! value left in the hand, every cell a tile can still reach lies in the region grown from the
//! cells the enumeration may still try, through empty cells of room at least `vmin` that it has
//! not excluded. In that region:
//! - a tile of value `v` needs its own cell of room at least `v` (Hall's condition, value by
//!   value, for the smallest tiles of the hand, which fit most easily);
//! - in each row (each column), the tiles to come, with the tiles already there, form runs of at
//!   most the limit: a dynamic programme along the line gives the most tiles (all of value
//!   `vmin`) and the largest total of values it can take;
//! - the tiles to come are at least as many as they are, and their total is at least that of the
//!   same number of the smallest tiles of the hand.

use super::{MoveGen, GRID, STRIDE};
use crate::rules::board::Board;
use crate::rules::geometry::{Cell, Square};
use crate::rules::tiles::VALUES;

/// The largest run limit of any variant, for the dynamic programmes' arrays.
const MAX_LIMIT: usize = 12;

/// Per-line capacity: the most tiles of value `vmin`, and the largest total of values.
#[derive(Copy, Clone, Default)]
struct Capacity {
    count: usize,
    sum: usize,
}

/// Reusable buffers of the bound.
pub(super) struct Scratch {
    /// Stamp of the region each grid square was last put in.
    region: Vec<u32>,
    stamp: u32,
    stack: Vec<usize>,
}

impl Scratch {
    /// Empty: the buffers are allocated on the first use.
    pub(super) fn new() -> Scratch {
        Scratch { region: Vec::new(), stamp: 0, stack: Vec::new() }
    }
}

impl MoveGen<'_> {
    /// An upper bound on the tiles the current set can still grow by, when the enumeration at
    /// `level` may try the cells `untried[lo..hi]` and then their unmarked neighbours.
    pub(super) fn growth_bound(&mut self, lo: usize, hi: usize, level: usize) -> usize {
        self.bound_or_enough(lo, hi, level, usize::MAX)
    }

    /// Whether [`MoveGen::growth_bound`] is at least `need`, answered as soon as it is plain.
    ///
    /// The pruned enumerations ask this at every set they visit, and in most sets of hands of a
    /// few tiles on an open board the answer is yes by a glance at the first cells of the region:
    /// each line that holds a region cell takes at least one tile, and a total of at least the
    /// room of its roomiest region cell. Those lower bounds of the line capacities, taken as the
    /// region grows, end the work once they admit `need` tiles; only sets in cramped corners pay
    /// for the whole region and the dynamic programmes. The answer is the same as the bound's, so
    /// the enumeration visits the same sets in the same order.
    pub(super) fn may_grow_by(&mut self, lo: usize, hi: usize, level: usize, need: usize) -> bool {
        need == 0 || self.bound_or_enough(lo, hi, level, need) >= need
    }

    /// [`MoveGen::growth_bound`], or any number of at least `enough` once the lower bounds of the
    /// line capacities show that the bound reaches it.
    fn bound_or_enough(&mut self, lo: usize, hi: usize, level: usize, enough: usize) -> usize {
        let Some(vmin) = self.hand.distinct().next() else { return 0 };
        let g = self.board.geometry();
        let limit = self.limit;
        let scratch = &mut self.scratch;
        if scratch.region.is_empty() {
            scratch.region = vec![0; GRID];
        }
        scratch.stamp = scratch.stamp.wrapping_add(1);
        if scratch.stamp == 0 {
            scratch.region.iter_mut().for_each(|s| *s = 0);
            scratch.stamp = 1;
        }
        let stamp = scratch.stamp;
        // Cells of room at least v in the region, by v.
        let mut at_least = [0usize; VALUES];
        scratch.stack.clear();
        // The region is grown from each untried cell in turn, the next one taken only when the
        // region grown so far is exhausted: the answer is often plain after a few cells, before
        // the untried cells (often dozens) have all been looked at.
        let mut seeds = self.untried[lo..hi].iter();
        // The first and last region square of every row and column, in grid coordinates.
        let mut rows = [Span::EMPTY; STRIDE];
        let mut columns = [Span::EMPTY; STRIDE];
        // Lower bounds of the capacities of the rows and of the columns, as the region grows.
        let mut row_floor = Floor::default();
        let mut column_floor = Floor::default();
        let mut k = 0;
        loop {
            if k == scratch.stack.len() {
                let board = &self.board;
                let region = &mut scratch.region;
                let seed = seeds.by_ref().map(|c| c.index()).find(|&i| {
                    region[i] != stamp && board.room(Cell::from_index(i), limit).is_some_and(|r| r >= vmin)
                });
                let Some(i) = seed else { break };
                region[i] = stamp;
                scratch.stack.push(i);
            }
            let i = scratch.stack[k];
            k += 1;
            let room = self.board.room(Cell::from_index(i), limit).unwrap_or(0);
            rows[i / STRIDE].cover(i % STRIDE, room);
            columns[i % STRIDE].cover(i / STRIDE, room);
            row_floor.add(&rows[i / STRIDE]);
            column_floor.add(&columns[i % STRIDE]);
            for v in at_least.iter_mut().take(usize::from(room.min(VALUES as u8 - 1)) + 1) {
                *v += 1;
            }
            if row_floor.count.min(column_floor.count) >= enough {
                let (count, sum) = row_floor.min(&column_floor);
                let taken = takeable(self.hand.values(), count, sum, &at_least);
                if taken >= enough {
                    return taken;
                }
            }
            if !self.rules.needs_neighbour() {
                continue;
            }
            for n in [i - 1, i + 1, i - STRIDE, i + STRIDE] {
                if scratch.region[n] != stamp
                    && g.square_at(n) != Square::Outside
                    && !self.marks[level][n]
                    && self.board.is_empty_cell(Cell::from_index(n))
                    && self.board.room(Cell::from_index(n), limit).is_some_and(|r| r >= vmin)
                {
                    scratch.region[n] = stamp;
                    scratch.stack.push(n);
                }
            }
        }
        if scratch.stack.is_empty() {
            return 0;
        }
        let region = &scratch.region;
        let mut by_rows = Capacity::default();
        let mut by_columns = Capacity::default();
        for (lines, step, total) in [(&rows, 1, &mut by_rows), (&columns, STRIDE, &mut by_columns)] {
            let across = STRIDE + 1 - step;
            for (line, span) in lines.iter().enumerate().filter(|(_, span)| !span.is_empty()) {
                // The region's part of the line, with the tiles that extend its runs on each side.
                let mut first = line * across + span.first * step;
                while self.board.get(Cell::from_index(first - step)).is_some() {
                    first -= step;
                }
                let mut last = line * across + span.last * step;
                while self.board.get(Cell::from_index(last + step)).is_some() {
                    last += step;
                }
                let segment = Line { start: first, step, len: (last - first) / step + 1 };
                let capacity = line_capacity(&self.board, limit, region, stamp, segment, vmin);
                total.count += capacity.count;
                total.sum += capacity.sum;
            }
        }
        let count_cap = by_rows.count.min(by_columns.count);
        let sum_cap = by_rows.sum.min(by_columns.sum);
        takeable(self.hand.values(), count_cap, sum_cap, &at_least)
    }
}

/// How many of the hand's smallest tiles (`values`, in increasing order) the bounds admit, one by
/// one: at most `count_cap` tiles of total at most `sum_cap`, and by Hall's condition no more
/// tiles of value at least `w` than `at_least[w]` cells of room at least `w`. The more each bound
/// admits, the more it takes.
fn takeable(
    values: impl Iterator<Item = u8>,
    count_cap: usize,
    sum_cap: usize,
    at_least: &[usize; VALUES],
) -> usize {
    let mut taken = 0usize;
    let mut total = 0usize;
    let mut above = [0usize; VALUES];
    for v in values {
        let v = usize::from(v);
        if taken + 1 > count_cap || total + v > sum_cap {
            break;
        }
        // Hall: the tiles of value at least w taken so far, this one too, need as many cells.
        if (0..=v).any(|w| above[w] + 1 > at_least[w]) {
            break;
        }
        for a in above.iter_mut().take(v + 1) {
            *a += 1;
        }
        taken += 1;
        total += v;
    }
    taken
}

/// Lower bounds of the summed capacities of a set of lines (the rows, or the columns): a line
/// that holds a region cell takes one tile of the smallest value there, and one tile of the
/// roomiest cell's room alone (a cell's room respects the runs of both its lines).
#[derive(Default)]
struct Floor {
    count: usize,
    sum: usize,
}

impl Floor {
    /// Takes into account the line `span` just grew (by one cell).
    fn add(&mut self, span: &Span) {
        if span.cells == 1 {
            self.count += 1;
        }
        self.sum += usize::from(span.roomiest - span.roomiest_before);
    }

    /// The smaller count and the smaller sum of two sets of lines.
    fn min(&self, other: &Floor) -> (usize, usize) {
        (self.count.min(other.count), self.sum.min(other.sum))
    }
}

/// The first and last region square of a line, by their place in it (grid coordinates), how many
/// region squares it holds and the largest room among them (before the last one came too).
#[derive(Copy, Clone)]
struct Span {
    first: usize,
    last: usize,
    cells: usize,
    roomiest: u8,
    roomiest_before: u8,
}

impl Span {
    const EMPTY: Span = Span { first: usize::MAX, last: 0, cells: 0, roomiest: 0, roomiest_before: 0 };

    fn is_empty(&self) -> bool {
        self.first > self.last
    }

    /// Adds the region square at `at` of the line, of room `room`.
    fn cover(&mut self, at: usize, room: u8) {
        self.first = self.first.min(at);
        self.last = self.last.max(at);
        self.cells += 1;
        self.roomiest_before = self.roomiest;
        self.roomiest = self.roomiest.max(room);
    }
}

/// A segment of a line of the board: `len` squares from grid index `start`, `step` apart.
#[derive(Copy, Clone)]
struct Line {
    start: usize,
    step: usize,
    len: usize,
}

/// The capacity of a segment of a line that holds region squares, in the region of the given
/// stamp; the squares just outside it hold no tile.
fn line_capacity(board: &Board, run_limit: u8, region: &[u32], stamp: u32, line: Line, vmin: u8) -> Capacity {
    let limit = usize::from(run_limit);
    let vmin = usize::from(vmin);
    // count[s], sum[s]: the most tiles and the largest total over the ways to fill the line so far
    // that end in a run of sum s (0: no run, or a run of zeros); NONE when no way does.
    let mut count = [NONE; MAX_LIMIT + 1];
    let mut sum = [NONE; MAX_LIMIT + 1];
    count[0] = 0;
    sum[0] = 0;
    for k in 0..line.len {
        let i = line.start + line.step * k;
        let mut next_count = [NONE; MAX_LIMIT + 1];
        let mut next_sum = [NONE; MAX_LIMIT + 1];
        let cell = Cell::from_index(i);
        if let Some(e) = board.get(cell) {
            let e = usize::from(e);
            if e <= limit {
                next_count[e..=limit].copy_from_slice(&count[..=limit - e]);
                next_sum[e..=limit].copy_from_slice(&sum[..=limit - e]);
            }
        } else {
            // Outside the board, or a square left empty: the run ends.
            next_count[0] = count[..=limit].iter().copied().max().unwrap_or(NONE);
            next_sum[0] = sum[..=limit].iter().copied().max().unwrap_or(NONE);
            if region[i] == stamp && board.geometry().square_at(i) != Square::Outside {
                let room = usize::from(board.room(cell, run_limit).unwrap_or(0));
                for s in 0..=limit.saturating_sub(vmin) {
                    if count[s] != NONE {
                        next_count[s + vmin] = next_count[s + vmin].max(count[s] + 1);
                    }
                    if sum[s] != NONE {
                        for v in vmin..=room.min(limit - s) {
                            next_sum[s + v] = next_sum[s + v].max(sum[s] + v as i16);
                        }
                    }
                }
            }
        }
        count = next_count;
        sum = next_sum;
    }
    let best = |a: &[i16; MAX_LIMIT + 1]| usize::try_from(a.iter().copied().max().unwrap_or(0)).unwrap_or(0);
    Capacity { count: best(&count), sum: best(&sum) }
}

/// No way of filling the line so far ends in that run sum.
const NONE: i16 = -1;
