//! The pure game: geometry, tiles, moves, legality, scoring, sheets and turn flow of the three
//! variants of docs/rules.md. No I/O and no global RNG: randomness comes in as `&mut impl Rng`.

mod board;
mod error;
mod game;
mod game_length;
mod geometry;
mod movegen;
mod moves;
mod number;
mod options;
mod perft;
mod position;
mod position_line;
mod scoring;
mod sheet;
mod status;
mod tiles;

pub use board::{Axis, Board};
pub use error::{DrawError, MoveError, NotATile, NotationError, SetupError, UndoError};
pub use game::{Game, MAX_UNDO};
pub use game_length::BOARD_END_OWN_TURNS;
pub use geometry::{Cell, Geometry, Shape, Square};
pub use movegen::{Extensions, MoveGen};
pub use moves::{Move, Placement};
pub use number::parse_number;
pub use options::{
    option_table, CenterCross, ForcedDouble, KidsScoring, Leftovers, MustPlace, OptionDef, OptionError,
    OptionKind, OptionSpec, Preset, Rules, Switch, Variant, RULE_OPTIONS,
};
pub use perft::{perft, perft_until};
pub use position::{Phase, Position, Standing};
pub use position_line::MAX_TURN;
pub use scoring::{run_points, MoveScore};
pub use sheet::{Mark, Sheet, SheetRow};
pub use status::{End, EndReason, Ranked, Status};
pub use tiles::Tiles;
