//! The text protocol: command parsing (nom), responses (`Display`) and the engine state machine.

pub mod command;
pub mod parse;
pub mod response;

pub use command::{Command, GoArgs, Id, NewGameArgs, PositionArgs, RawMove, RawPlacement, Token};
pub use parse::{parse_command, parse_line, Line, ParseError, MAX_LINE_BYTES};
pub use response::{ErrorCode, Failure, Response};
