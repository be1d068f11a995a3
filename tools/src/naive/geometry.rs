//! Board geometry of the three variants: which squares are cells, and of what kind.
//!
//! Cells are `(column, row)` pairs, both counted from 0 (`a` = column 0, row `1` = row 0).
//! The classic board is spelled out as the diagram of docs/rules.md 2.1; the dice and kids boards
//! are full squares whose two diagonals are extra cells.

use super::error::NaiveError;

/// A cell: `(column, row)`, both from 0.
pub type Cell = (usize, usize);

/// The three game variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The boxed tile game (DE, CZ3, CZ4).
    Classic,
    /// The paper-and-pencil dice game (HU).
    Dice,
    /// The kids' game (HU).
    Kids,
}

/// What a cell of the board is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// A plain cell.
    Normal,
    /// A classic double cell: needs a run of 10 to 12 (or the forced exception).
    Double,
    /// The classic red centre `h8`.
    Centre,
    /// A dice or kids extra cell: needs nothing.
    Extra,
}

/// The classic board, row 1 first: `#` no cell, `.` normal, `D` double, `R` centre.
const CLASSIC_DIAGRAM: [&str; 15] = [
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

/// The squares of a board and the kind of each cell.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// `kinds[row][col]`: `None` for a square that is not a cell.
    kinds: Vec<Vec<Option<CellKind>>>,
}

impl Geometry {
    /// The classic board of docs/rules.md 2.1.
    pub fn classic() -> Geometry {
        let kinds = CLASSIC_DIAGRAM.iter().map(|row| row.chars().map(classic_kind).collect()).collect();
        Geometry { width: 15, height: 15, kinds }
    }

    /// A full `size` x `size` square whose two diagonals are extra cells.
    pub fn square_with_diagonals(size: usize) -> Geometry {
        let kinds = (0..size)
            .map(|row| {
                (0..size)
                    .map(|col| {
                        if col == row || col + row == size - 1 {
                            Some(CellKind::Extra)
                        } else {
                            Some(CellKind::Normal)
                        }
                    })
                    .collect()
            })
            .collect();
        Geometry { width: size, height: size, kinds }
    }

    /// The kind of the cell at `(col, row)`, or `None` if it is not a cell of the board.
    pub fn kind(&self, cell: Cell) -> Option<CellKind> {
        let (col, row) = cell;
        self.kinds.get(row).and_then(|r| r.get(col)).copied().flatten()
    }

    /// Whether `(col, row)` is a cell of the board.
    pub fn is_cell(&self, cell: Cell) -> bool {
        self.kind(cell).is_some()
    }

    /// Every cell of the board, row by row from the top, left to right.
    pub fn cells(&self) -> Vec<Cell> {
        let mut out = Vec::new();
        for row in 0..self.height {
            for col in 0..self.width {
                if self.is_cell((col, row)) {
                    out.push((col, row));
                }
            }
        }
        out
    }

    /// The centre cell (the middle square).
    pub fn centre(&self) -> Cell {
        (self.width / 2, self.height / 2)
    }

    /// The cells that share an edge with `cell` (whether or not they are board cells).
    pub fn edge_neighbours(&self, cell: Cell) -> Vec<Cell> {
        let (col, row) = cell;
        let mut out = Vec::new();
        if col > 0 {
            out.push((col - 1, row));
        }
        if row > 0 {
            out.push((col, row - 1));
        }
        if col + 1 < self.width {
            out.push((col + 1, row));
        }
        if row + 1 < self.height {
            out.push((col, row + 1));
        }
        out
    }
}

/// The kind named by one character of the classic diagram.
fn classic_kind(c: char) -> Option<CellKind> {
    match c {
        '.' => Some(CellKind::Normal),
        'D' => Some(CellKind::Double),
        'R' => Some(CellKind::Centre),
        _ => None,
    }
}

/// The name of a cell: column letter and row number, `h8`.
pub fn cell_name(cell: Cell) -> String {
    let (col, row) = cell;
    let letter = char::from(b'a' + col as u8);
    format!("{letter}{}", row + 1)
}

/// Parses a cell name such as `h8` (no check against a board).
pub fn parse_cell(text: &str) -> Result<Cell, NaiveError> {
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(|| NaiveError::new(format!("empty cell name in `{text}`")))?;
    if !letter.is_ascii_lowercase() {
        return Err(NaiveError::new(format!("bad column in cell `{text}`")));
    }
    let col = usize::from(letter as u8 - b'a');
    let row: usize =
        chars.as_str().parse().map_err(|_| NaiveError::new(format!("bad row in cell `{text}`")))?;
    if row == 0 {
        return Err(NaiveError::new(format!("row 0 in cell `{text}`")));
    }
    Ok((col, row - 1))
}
