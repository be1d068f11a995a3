//! The text protocol: command parsing (nom), the engine that executes commands, the session that
//! schedules them and their jobs, and the wire form of responses (`Display`).

pub mod command;
pub mod engine;
pub mod input;
pub mod job;
pub mod options;
pub mod parse;
pub mod response;
pub mod session;
mod show;

pub use command::{Command, GoArgs, Id, NewGameArgs, PositionArgs, RawMove, RawPlacement, Token};
pub use engine::{Effect, Engine, PROTOCOL_VERSION};
pub use input::{read_line, RawLine};
pub use job::Job;
pub use options::{EngineOptions, OptionError};
pub use parse::{parse_command, parse_line, Line, ParseError, MAX_LINE_BYTES};
pub use response::{ErrorCode, Failure, InfoLine, Payload, Response};
pub use session::{Action, Event, Lane, Session};
