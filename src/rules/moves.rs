//! Placements and moves, and their notation: `5@h8`, `5@h8,3@h9`, `pass`.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::error::NotationError;
use super::geometry::{Cell, Geometry};

/// One tile put on one cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    pub cell: Cell,
    pub value: u8,
}

impl Placement {
    /// Parses `<value>@<cell>` against a board's geometry.
    ///
    /// # Errors
    /// When the text is not of that form, the value is over 9, or the cell is not on the board.
    pub fn parse(geometry: &Geometry, text: &str) -> Result<Placement, NotationError> {
        let bad = || NotationError::Placement(text.to_string());
        let (value, cell) = text.split_once('@').ok_or_else(bad)?;
        let value = match value.as_bytes() {
            [d @ b'0'..=b'9'] => d - b'0',
            _ => return Err(bad()),
        };
        let cell = geometry.parse_cell(cell).ok_or_else(|| NotationError::NotACell(cell.to_string()))?;
        Ok(Placement { cell, value })
    }

    /// A placement read already as its parts (the protocol's parser): the value, the column
    /// (`a` is 0) and the row as written (from 1), checked as [`Placement::parse`] checks them.
    ///
    /// # Errors
    /// A value over 9, or a cell that is not on the board.
    pub fn from_parts(
        geometry: &Geometry,
        value: u8,
        column: usize,
        row: usize,
    ) -> Result<Placement, NotationError> {
        let name = || {
            let letter = u8::try_from(column).ok().filter(|c| *c < 26).map_or('?', |c| char::from(b'a' + c));
            format!("{letter}{row}")
        };
        if value > 9 {
            return Err(NotationError::Placement(format!("{value}@{}", name())));
        }
        let cell = row
            .checked_sub(1)
            .and_then(|r| geometry.cell(column, r))
            .ok_or_else(|| NotationError::NotACell(name()))?;
        Ok(Placement { cell, value })
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.value, self.cell)
    }
}

/// The tiles of one turn, in an order in which they are legal; `pass` is the empty move. Two
/// moves that put the same values on the same cells are equal, whatever their order.
#[derive(Clone, Debug, Default)]
pub struct Move {
    placements: Vec<Placement>,
}

impl Move {
    /// The move that places nothing.
    pub fn pass() -> Move {
        Move::default()
    }

    /// A move of these placements, in this order.
    pub fn new(placements: Vec<Placement>) -> Move {
        Move { placements }
    }

    /// The placements, in the order given.
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// Whether this is `pass`.
    pub fn is_pass(&self) -> bool {
        self.placements.is_empty()
    }

    /// How many tiles the move places.
    pub fn len(&self) -> usize {
        self.placements.len()
    }

    /// Whether the move places no tile (it is `pass`).
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty()
    }

    /// The placements sorted by cell: the same for equal moves.
    pub fn canonical(&self) -> Vec<Placement> {
        let mut sorted = self.placements.clone();
        sorted.sort_unstable();
        sorted
    }

    /// Parses `pass` or placements joined by `,`.
    ///
    /// # Errors
    /// On a malformed placement or a cell that is not on the board.
    pub fn parse(geometry: &Geometry, text: &str) -> Result<Move, NotationError> {
        if text == "pass" {
            return Ok(Move::pass());
        }
        text.split(',').map(|p| Placement::parse(geometry, p)).collect::<Result<_, _>>().map(Move::new)
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.placements.len() == other.placements.len() && self.canonical() == other.canonical()
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.canonical().hash(state);
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.placements.is_empty() {
            return f.write_str("pass");
        }
        for (i, p) in self.placements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Shape;

    #[test]
    fn moves_print_and_parse_back_and_compare_as_sets() {
        let g = Geometry::of(Shape::Classic);
        let a = Move::parse(g, "5@h8,3@h9").unwrap();
        let b = Move::parse(g, "3@h9,5@h8").unwrap();
        assert_eq!(a.to_string(), "5@h8,3@h9");
        assert_eq!(a, b);
        assert_ne!(a, Move::parse(g, "3@h8,5@h9").unwrap());
        assert_eq!(Move::parse(g, "pass").unwrap().to_string(), "pass");
        assert_eq!(Move::parse(g, "5@h1"), Err(NotationError::NotACell("h1".into())));
        for bad in ["", "5h8", "10@h8", "@h8", "5@", "5@h8,", "x@h8"] {
            assert!(Move::parse(g, bad).is_err(), "{bad:?}");
        }
    }
}
