//! The tiles on the board, with incremental run sums: every empty cell knows the sum and length of
//! the run that touches it from each side, so checking a placement and placing a tile are O(1).

use super::geometry::{Cell, Geometry, Square, GRID, STRIDE};

/// The four directions, in the order of [`Reach`]'s arrays.
const LEFT: usize = 0;
const RIGHT: usize = 1;
const UP: usize = 2;
const DOWN: usize = 3;

const EMPTY: u8 = 0xFF;
const BLOCKED: u8 = 0xFE;

/// A line of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    Horizontal,
    Vertical,
}

impl Axis {
    /// The grid offset between neighbours along this axis.
    fn step(self) -> usize {
        match self {
            Axis::Horizontal => 1,
            Axis::Vertical => STRIDE,
        }
    }

    /// `horizontal` or `vertical`.
    pub fn name(self) -> &'static str {
        match self {
            Axis::Horizontal => "horizontal",
            Axis::Vertical => "vertical",
        }
    }
}

/// For an empty cell: the sum and length of the run that touches it on each side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Reach {
    sum: [u8; 4],
    len: [u8; 4],
}

/// A partner of an empty cell (see [`Board::partners`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Partner {
    /// The first empty cell beyond the tiles next to the cell in one direction.
    pub cell: Cell,
    /// The line the two cells share.
    pub axis: Axis,
    /// The sum of the tiles between them (0 when they are neighbours).
    pub between: u8,
}

/// The board: a tile value or nothing on each cell, and the run reach of every empty cell.
#[derive(Clone)]
pub struct Board {
    geometry: &'static Geometry,
    tiles: [u8; GRID],
    reach: [Reach; GRID],
    count: usize,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.tiles().map(|(c, v)| format!("{v}@{c}"))).finish()
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        std::ptr::eq(self.geometry, other.geometry) && self.tiles == other.tiles
    }
}

impl Eq for Board {}

impl Board {
    /// An empty board of a geometry.
    pub fn new(geometry: &'static Geometry) -> Board {
        let mut tiles = [BLOCKED; GRID];
        for &cell in geometry.cells() {
            tiles[cell.index()] = EMPTY;
        }
        Board { geometry, tiles, reach: [Reach::default(); GRID], count: 0 }
    }

    /// The geometry of this board.
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// The value on a cell, if any.
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<u8> {
        let v = self.tiles[cell.index()];
        (v < BLOCKED).then_some(v)
    }

    /// Whether a cell is empty.
    #[inline]
    pub fn is_empty_cell(&self, cell: Cell) -> bool {
        self.tiles[cell.index()] == EMPTY
    }

    /// How many tiles are on the board.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Every tile, row by row from the top.
    pub fn tiles(&self) -> impl Iterator<Item = (Cell, u8)> + '_ {
        self.geometry.cells().iter().filter_map(|&c| self.get(c).map(|v| (c, v)))
    }

    /// Whether an empty cell shares an edge with an occupied one.
    #[inline]
    pub fn has_neighbour(&self, cell: Cell) -> bool {
        let r = &self.reach[cell.index()];
        (r.len[0] | r.len[1] | r.len[2] | r.len[3]) != 0
    }

    /// The sums of the horizontal and vertical runs a value would make on an empty cell.
    #[inline]
    pub fn sums_with(&self, cell: Cell, value: u8) -> (u8, u8) {
        let r = &self.reach[cell.index()];
        (r.sum[LEFT] + r.sum[RIGHT] + value, r.sum[UP] + r.sum[DOWN] + value)
    }

    /// The largest value that keeps both runs through an empty cell within `limit`, if any.
    #[inline]
    pub fn room(&self, cell: Cell, limit: u8) -> Option<u8> {
        let r = &self.reach[cell.index()];
        let used = (r.sum[LEFT] + r.sum[RIGHT]).max(r.sum[UP] + r.sum[DOWN]);
        limit.checked_sub(used)
    }

    /// The partners of an empty cell: in each direction, the first empty cell beyond the tiles next
    /// to it (its neighbour when there are none). Tiles on a cell and on one of its partners join
    /// one run; tiles on two empty cells that are not partners share no run, so each fits or not
    /// whatever the other does.
    #[inline]
    pub fn partners(&self, cell: Cell) -> impl Iterator<Item = Partner> + '_ {
        let c = cell.index();
        let r = self.reach[cell.index()];
        [(LEFT, Axis::Horizontal), (RIGHT, Axis::Horizontal), (UP, Axis::Vertical), (DOWN, Axis::Vertical)]
            .into_iter()
            .filter_map(move |(side, axis)| {
                let distance = (usize::from(r.len[side]) + 1) * axis.step();
                let index = if side == LEFT || side == UP { c - distance } else { c + distance };
                (self.tiles[index] == EMPTY).then(|| Partner {
                    cell: Cell::from_index(index),
                    axis,
                    between: r.sum[side],
                })
            })
    }

    /// The sum and length of the run through an occupied cell along an axis. Walks the run: used
    /// for scoring and checking whole moves, not on the generator's hot path.
    pub fn run_through(&self, cell: Cell, axis: Axis) -> (u8, usize) {
        let step = axis.step();
        let (mut sum, mut len, mut i) = (0u8, 0usize, self.run_start(cell, axis).index());
        while self.tiles[i] < BLOCKED {
            sum += self.tiles[i];
            len += 1;
            i += step;
        }
        (sum, len)
    }

    /// The first cell of the run through an occupied cell: identifies the run.
    pub fn run_start(&self, cell: Cell, axis: Axis) -> Cell {
        let step = axis.step();
        let mut start = cell.index();
        while self.tiles[start - step] < BLOCKED {
            start -= step;
        }
        Cell::from_index(start)
    }

    /// Puts a value on an empty cell; runs are not checked. Undo with [`Board::remove`], last
    /// placed first.
    #[inline]
    pub fn place(&mut self, cell: Cell, value: u8) {
        let c = cell.index();
        debug_assert_eq!(self.tiles[c], EMPTY, "{cell} is empty");
        let r = self.reach[c];
        for (lo, hi, step) in [(LEFT, RIGHT, 1), (UP, DOWN, STRIDE)] {
            let sum = r.sum[lo] + r.sum[hi] + value;
            let len = r.len[lo] + r.len[hi] + 1;
            let before = c - (usize::from(r.len[lo]) + 1) * step;
            let after = c + (usize::from(r.len[hi]) + 1) * step;
            if self.tiles[before] == EMPTY {
                self.reach[before].sum[hi] = sum;
                self.reach[before].len[hi] = len;
            }
            if self.tiles[after] == EMPTY {
                self.reach[after].sum[lo] = sum;
                self.reach[after].len[lo] = len;
            }
        }
        self.tiles[c] = value;
        self.count += 1;
    }

    /// Takes back the tile last placed on a cell.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        let c = cell.index();
        debug_assert!(self.tiles[c] < BLOCKED, "{cell} holds a tile");
        // The reach of an occupied cell is never written, so it still holds the runs beside it.
        let r = self.reach[c];
        for (lo, hi, step) in [(LEFT, RIGHT, 1), (UP, DOWN, STRIDE)] {
            let before = c - (usize::from(r.len[lo]) + 1) * step;
            let after = c + (usize::from(r.len[hi]) + 1) * step;
            if self.tiles[before] == EMPTY {
                self.reach[before].sum[hi] = r.sum[lo];
                self.reach[before].len[hi] = r.len[lo];
            }
            if self.tiles[after] == EMPTY {
                self.reach[after].sum[lo] = r.sum[hi];
                self.reach[after].len[lo] = r.len[hi];
            }
        }
        self.tiles[c] = EMPTY;
        self.count -= 1;
    }

    /// The cells sharing an edge with a cell that are cells of the board.
    #[inline]
    pub fn neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        let c = cell.index();
        [c - 1, c + 1, c - STRIDE, c + STRIDE]
            .into_iter()
            .filter(|&i| self.tiles[i] != BLOCKED)
            .map(Cell::from_index)
    }

    /// What kind of square a cell is.
    #[inline]
    pub fn square(&self, cell: Cell) -> Square {
        self.geometry.square(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Shape;

    fn cell(name: &str) -> Cell {
        Geometry::of(Shape::Classic).parse_cell(name).unwrap()
    }

    /// The reach sums recomputed by walking, for comparison with the incremental ones.
    fn walked(board: &Board, c: Cell) -> (u8, u8) {
        let mut b = board.clone();
        b.place(c, 0);
        (b.run_through(c, Axis::Horizontal).0, b.run_through(c, Axis::Vertical).0)
    }

    #[test]
    fn incremental_sums_match_walked_runs_through_places_and_removes() {
        let g = Geometry::of(Shape::Classic);
        let mut board = Board::new(g);
        let moves = [("h8", 5), ("i8", 3), ("g8", 1), ("h9", 2), ("k8", 4), ("j9", 1), ("j8", 2)];
        for (name, v) in moves {
            board.place(cell(name), v);
            for &c in g.cells() {
                if board.is_empty_cell(c) {
                    assert_eq!(board.sums_with(c, 0), walked(&board, c), "at {c} after {name}");
                }
            }
        }
        // j8 joins the runs 1,5,3 and 4: 1+5+3+2+4 = 15 horizontally.
        assert_eq!(board.run_through(cell("j8"), Axis::Horizontal), (15, 5));
        let full = board.clone();
        board.place(cell("h10"), 6);
        board.remove(cell("h10"));
        assert_eq!(board.reach, full.reach);
        for (name, _) in moves.iter().rev() {
            board.remove(cell(name));
        }
        assert_eq!(board.reach, Board::new(g).reach);
        assert_eq!(board.count(), 0);
    }
}
