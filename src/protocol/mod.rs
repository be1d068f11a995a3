//! The text protocol: command parsing (nom), responses (`Display`) and the engine state machine.

pub mod command;
pub mod input;
pub mod options;
pub mod parse;
pub mod response;

pub use command::{Command, GoArgs, Id, NewGameArgs, PositionArgs, RawMove, RawPlacement, Token};
pub use input::{read_line, RawLine};
pub use options::{EngineOptions, OptionError, Strategy};
pub use parse::{parse_command, parse_line, Line, ParseError, MAX_LINE_BYTES};
pub use response::{ErrorCode, Failure, Response};
