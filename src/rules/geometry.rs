//! Board geometry: which squares are cells, which are double (extra) cells, the centre, and how
//! cells are named. Every board lives in one padded 27x27 grid so that a cell is a small index and
//! its neighbours are at fixed offsets.

use std::fmt;
use std::sync::OnceLock;

/// Columns and rows of the padded grid: the largest board (25x25) plus a border on each side.
pub const STRIDE: usize = 27;
/// Number of squares in the padded grid.
pub const GRID: usize = STRIDE * STRIDE;
/// The largest side of a board.
pub const MAX_SIDE: usize = 25;

/// A square of the padded grid that is a cell of some board. Built only through [`Geometry::cell`]
/// or [`Geometry::parse_cell`], which know the board's shape; ordered row by row from the top.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

impl Cell {
    /// The index of this cell in the padded grid.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Column, 0 for `a`.
    pub fn column(self) -> usize {
        self.index() % STRIDE - 1
    }

    /// Row, 0 for row `1` at the top.
    pub fn row(self) -> usize {
        self.index() / STRIDE - 1
    }

    pub(crate) fn from_index(index: usize) -> Cell {
        debug_assert!(index < GRID);
        Cell(index as u16)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'a' + self.column() as u8);
        write!(f, "{letter}{}", self.row() + 1)
    }
}

/// What a square of the grid is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Square {
    /// Not a cell of this board.
    Outside,
    /// A normal ("black") cell.
    Normal,
    /// A double cell of the classic board, an extra cell of the dice and kids' boards.
    Double,
    /// The red start cell of the classic board, the preset 1 of the dice board.
    Centre,
}

/// The shape of a board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// The classic 193-cell board.
    Classic,
    /// A square dice board of odd side 3..=25 with both diagonals extra and a centre.
    Dice(u8),
    /// The kids' 10x10 board with both diagonals extra and no centre.
    Kids,
}

/// The classic board, as drawn in docs/rules.md 2.1.
const CLASSIC: [&str; 15] = [
    "####..D#D..####",
    "#D...........D#",
    "#.D.........D.#",
    "#..D.......D..#",
    "....D.....D....",
    ".....D...D.....",
    "D.....D.D.....D",
    "#......R......#",
    "D.....D.D.....D",
    ".....D...D.....",
    "....D.....D....",
    "#..D.......D..#",
    "#.D.........D.#",
    "#D...........D#",
    "####..D#D..####",
];

/// The squares of one board shape.
#[derive(Debug)]
pub struct Geometry {
    shape: Shape,
    side: usize,
    squares: [Square; GRID],
    cells: Vec<Cell>,
    centre: Option<Cell>,
}

impl Geometry {
    /// The geometry of a shape. Dice sides must be odd and within 3..=25.
    ///
    /// # Panics
    /// On a dice side that [`Shape`] does not allow; callers validate sizes first (`Rules` does).
    pub fn of(shape: Shape) -> &'static Geometry {
        static ALL: OnceLock<Vec<Geometry>> = OnceLock::new();
        let all = ALL.get_or_init(|| {
            let mut all = vec![Geometry::build(Shape::Classic), Geometry::build(Shape::Kids)];
            all.extend((3..=MAX_SIDE as u8).step_by(2).map(|s| Geometry::build(Shape::Dice(s))));
            all
        });
        all.iter().find(|g| g.shape == shape).expect("dice sizes are validated to be odd and within 3..=25")
    }

    fn build(shape: Shape) -> Geometry {
        let mut squares = [Square::Outside; GRID];
        let side = match shape {
            Shape::Classic => 15,
            Shape::Dice(s) => usize::from(s),
            Shape::Kids => 10,
        };
        for row in 0..side {
            for col in 0..side {
                let square = match shape {
                    Shape::Classic => match CLASSIC[row].as_bytes()[col] {
                        b'.' => Square::Normal,
                        b'D' => Square::Double,
                        b'R' => Square::Centre,
                        _ => Square::Outside,
                    },
                    Shape::Dice(_) | Shape::Kids => {
                        let diagonal = row == col || row + col == side - 1;
                        let middle = side % 2 == 1 && row == side / 2 && col == side / 2;
                        if middle && shape != Shape::Kids {
                            Square::Centre
                        } else if diagonal {
                            Square::Double
                        } else {
                            Square::Normal
                        }
                    }
                };
                squares[(row + 1) * STRIDE + col + 1] = square;
            }
        }
        let cells: Vec<Cell> =
            (0..GRID).filter(|&i| squares[i] != Square::Outside).map(Cell::from_index).collect();
        let centre = cells.iter().copied().find(|c| squares[c.index()] == Square::Centre);
        Geometry { shape, side, squares, cells, centre }
    }

    /// The shape this geometry describes.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The side of the square box that holds the board.
    pub fn side(&self) -> usize {
        self.side
    }

    /// What the square at a grid index is.
    #[inline]
    pub fn square_at(&self, index: usize) -> Square {
        self.squares[index]
    }

    /// What a cell is.
    #[inline]
    pub fn square(&self, cell: Cell) -> Square {
        self.squares[cell.index()]
    }

    /// Every cell, row by row from the top.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The centre cell, if the board has one.
    pub fn centre(&self) -> Option<Cell> {
        self.centre
    }

    /// Whether a cell is an extra cell as docs/rules.md names them: a double cell of the classic
    /// board (its centre is not one, docs/rules.md 6.1), a diagonal cell of the dice and kids'
    /// boards (the dice centre lies on both diagonals, so it is one, though it holds the start 1).
    pub fn is_extra(&self, cell: Cell) -> bool {
        match self.square(cell) {
            Square::Double => true,
            Square::Centre => matches!(self.shape, Shape::Dice(_)),
            Square::Normal | Square::Outside => false,
        }
    }

    /// The extra cells ([`Geometry::is_extra`]), row by row from the top.
    pub fn extra_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells.iter().copied().filter(|&c| self.is_extra(c))
    }

    /// The cell at a column and row (both from 0), if it is a cell of this board.
    pub fn cell(&self, column: usize, row: usize) -> Option<Cell> {
        if column >= self.side || row >= self.side {
            return None;
        }
        let index = (row + 1) * STRIDE + column + 1;
        (self.squares[index] != Square::Outside).then(|| Cell::from_index(index))
    }

    /// Parses a cell name such as `h8`, if it names a cell of this board.
    pub fn parse_cell(&self, name: &str) -> Option<Cell> {
        let (letter, digits) = name.split_at_checked(1)?;
        let column = usize::from(letter.as_bytes()[0].checked_sub(b'a')?);
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        self.cell(column, row.checked_sub(1)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_board_has_193_cells_32_doubles_and_the_centre_h8() {
        let g = Geometry::of(Shape::Classic);
        assert_eq!(g.cells().len(), 193);
        let doubles = g.cells().iter().filter(|&&c| g.square(c) == Square::Double).count();
        assert_eq!(doubles, 32);
        assert_eq!(g.centre().map(|c| c.to_string()), Some("h8".to_string()));
        for gap in ["h1", "h15", "a8", "o8", "a1", "o15"] {
            assert_eq!(g.parse_cell(gap), None, "{gap} is not a cell");
        }
        assert_eq!(g.parse_cell("g1").map(|c| g.square(c)), Some(Square::Double));
    }

    #[test]
    fn dice_and_kids_boards_are_full_squares_with_diagonals() {
        let g = Geometry::of(Shape::Dice(11));
        assert_eq!(g.cells().len(), 121);
        assert_eq!(g.centre().map(|c| c.to_string()), Some("f6".to_string()));
        let extra = g.cells().iter().filter(|&&c| g.square(c) == Square::Double).count();
        assert_eq!(extra, 20, "two diagonals of 11 share the centre, which is not extra");
        let k = Geometry::of(Shape::Kids);
        assert_eq!(k.cells().len(), 100);
        assert_eq!(k.centre(), None);
        let extra = k.cells().iter().filter(|&&c| k.square(c) == Square::Double).count();
        assert_eq!(extra, 20);
    }

    #[test]
    fn extra_cells_are_the_classic_doubles_and_the_whole_diagonals_of_the_square_boards() {
        let g = Geometry::of(Shape::Classic);
        let extra: Vec<String> = g.extra_cells().map(|c| c.to_string()).collect();
        assert_eq!(extra.len(), 32);
        assert!(!extra.contains(&"h8".to_string()), "the red centre is not a double cell");
        assert_eq!(&extra[..4], ["g1", "i1", "b2", "n2"]);
        for shape in [Shape::Dice(11), Shape::Dice(3), Shape::Kids] {
            let g = Geometry::of(shape);
            let side = g.side();
            let extra: Vec<Cell> = g.extra_cells().collect();
            let diagonal: Vec<Cell> = g
                .cells()
                .iter()
                .copied()
                .filter(|c| c.row() == c.column() || c.row() + c.column() == side - 1)
                .collect();
            assert_eq!(extra, diagonal, "{shape:?}");
            assert_eq!(extra.len(), if side % 2 == 1 { 2 * side - 1 } else { 2 * side });
        }
        let d = Geometry::of(Shape::Dice(11));
        assert!(d.centre().is_some_and(|c| d.is_extra(c)), "the dice centre lies on both diagonals");
    }

    #[test]
    fn cells_are_listed_row_by_row_from_the_top_left() {
        for shape in [Shape::Classic, Shape::Dice(25), Shape::Kids] {
            let g = Geometry::of(shape);
            let positions: Vec<(usize, usize)> = g.cells().iter().map(|c| (c.row(), c.column())).collect();
            assert!(positions.windows(2).all(|w| w[0] < w[1]), "{shape:?}");
        }
        assert_eq!(Geometry::of(Shape::Classic).cells()[0].to_string(), "e1");
    }

    #[test]
    fn cell_names_round_trip() {
        let g = Geometry::of(Shape::Dice(25));
        for &c in g.cells() {
            assert_eq!(g.parse_cell(&c.to_string()), Some(c));
        }
        for bad in ["", "h", "z1", "a0", "a26", "a-1", "A1", "a1x", "a01x"] {
            assert_eq!(g.parse_cell(bad), None, "{bad:?}");
        }
    }
}
