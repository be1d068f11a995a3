//! The pure game: geometry, tiles, moves, legality, scoring, sheets and turn flow of the three
//! variants of RULES.md. No I/O and no global RNG: randomness comes in as `&mut impl Rng`.

mod board;
mod error;
mod game;
mod geometry;
mod movegen;
mod moves;
mod options;
mod perft;
mod position;
mod scoring;
mod setup;
mod sheet;
mod status;
mod tiles;

pub use board::{Axis, Board};
pub use error::{DrawError, MoveError, NotationError, OptionError, SetupError, UndoError};
pub use game::Game;
pub use geometry::{Cell, Geometry, Shape, Square};
pub use movegen::{Extensions, MoveGen};
pub use moves::{Move, Placement};
pub use options::{CenterCross, ForcedDouble, KidsScoring, Leftovers, MustPlace, Rules, Variant};
pub use perft::{perft, perft_until};
pub use position::{Phase, Position, Standing};
pub use scoring::MoveScore;
pub use setup::MAX_TURN;
pub use sheet::{Mark, Sheet};
pub use status::{End, EndReason, Ranked, Status};
pub use tiles::Tiles;
