//! The text protocol: command parsing (nom), responses (`Display`) and the engine state machine.

mod board_picture;
pub mod command;
pub mod engine;
pub mod input;
pub mod job;
pub mod options;
pub mod parse;
pub mod response;

pub use command::{Command, GoArgs, Id, NewGameArgs, PositionArgs, RawMove, RawPlacement, Token};
pub use engine::{changes_game, Engine, Outcome, PROTOCOL_VERSION};
pub use input::{read_line, RawLine};
pub use job::Job;
pub use options::{EngineOptions, OptionError};
pub use parse::{parse_command, parse_line, Line, ParseError, MAX_LINE_BYTES};
pub use response::{ErrorCode, Failure, Response};
