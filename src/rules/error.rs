//! Why the rules refuse something: one error type per kind of request, each variant carrying what
//! the message needs.

use thiserror::Error;

use super::board::Axis;
use super::geometry::Cell;
use super::options::OptionError;

/// A value the game has no tile for (`7`; kids: above `5`), in a draw, a move or a position line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("value {value} is not a tile of this game ({min} to {max})")]
pub struct NotATile {
    pub value: u8,
    pub min: u8,
    pub max: u8,
}

/// Text that is not a placement, a move or a draw.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error("'{0}' is not a placement <value>@<cell>")]
    Placement(String),
    #[error("'{0}' is not a cell of this board")]
    NotACell(String),
    #[error(transparent)]
    NotATile(#[from] NotATile),
    #[error("'{0}' is not a draw token (+ and the drawn values)")]
    Draw(String),
}

/// A draw the rules do not allow now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DrawError {
    #[error("no draw is due: a move is due")]
    MoveDue,
    #[error("the game is over")]
    GameOver,
    #[error("the rules call for {expected} tile(s) now, not {given}")]
    Count { expected: usize, given: usize },
    #[error(transparent)]
    Value(#[from] NotATile),
    #[error("the bag holds no more {value}s than {available}")]
    NotInBag { value: u8, available: u8 },
}

/// A move the rules do not allow now, with the exact reason.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("a draw is due before a move")]
    DrawDue,
    #[error("the game is over")]
    GameOver,
    /// The move places `value` more often than the hand holds it: `held` in the hand (0 when the
    /// hand holds none), `placed` in the move.
    #[error("{}", not_in_hand(*.value, *.held, *.placed, .hand))]
    NotInHand { value: u8, held: u8, placed: usize, hand: String },
    #[error("{0} is occupied")]
    Occupied(Cell),
    #[error("{0} is named twice in the move")]
    RepeatedCell(Cell),
    #[error("the first tile of the game must go on the centre {0}")]
    StartOffCentre(Cell),
    #[error("{0} has no occupied neighbour, in any order of the move")]
    NoNeighbour(Cell),
    // PROTOCOL.md promises that this message ends with the sum and the limit: keep them last.
    #[error("the {} run through {cell} would sum to {sum}, over {limit}", axis.name())]
    RunOverLimit { cell: Cell, axis: Axis, sum: u8, limit: u8 },
    #[error("double cell {0} needs a run of 10 to 12 through it (forced_double=forbid)")]
    DoubleForbidden(Cell),
    #[error(
        "double cell {cell} needs a run of 10 to 12 through it: {value} still fits on the normal cell {fits}"
    )]
    DoubleNotForced { cell: Cell, value: u8, fits: Cell },
    #[error("double cell {0} needs a run of 10 to 12 through it: no order of the move leaves it forced")]
    DoubleNoOrder(Cell),
    #[error("must place {required} tiles (must_place=maximum), this move places {placed}: e.g. {example}")]
    TooFew { placed: usize, required: usize, example: String },
    #[error("a tile still fits after this move (must_place=maximal): e.g. {example}")]
    NotMaximal { example: String },
    #[error(
        "these placements are part of no legal move: every legal move places {required} tiles \
         (must_place=maximum), e.g. {example}"
    )]
    NoCompletion { required: usize, example: String },
    #[error("pass is not allowed while a tile fits: e.g. {example}")]
    PassWhileFits { example: String },
}

/// A position line that does not describe a reachable position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("missing field '{0}'")]
    Missing(&'static str),
    #[error("unknown or repeated field '{0}'")]
    Field(String),
    #[error("bad value in field '{field}': {reason}")]
    Value { field: &'static str, reason: String },
    #[error(transparent)]
    Option(#[from] OptionError),
}

/// `undo` with nothing to take back.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("nothing to undo")]
pub struct UndoError;

/// `the hand 112 holds no 4`, `the hand 112 holds two 1s and the move places three`.
fn not_in_hand(value: u8, held: u8, placed: usize, hand: &str) -> String {
    if held == 0 {
        return format!("the hand {hand} holds no {value}");
    }
    let plural = if held == 1 { "" } else { "s" };
    format!(
        "the hand {hand} holds {} {value}{plural} and the move places {}",
        count_word(usize::from(held)),
        count_word(placed)
    )
}

/// Small counts as words, larger ones as digits.
fn count_word(n: usize) -> String {
    const WORDS: [&str; 11] =
        ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    WORDS.get(n).map_or_else(|| n.to_string(), |w| (*w).to_string())
}
