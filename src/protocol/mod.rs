//! The text protocol: command parsing (nom), the engine that executes commands, the session that
//! schedules them and their jobs, and the wire form of responses (`Display`).

mod analyse;
mod command;
mod engine;
mod input;
mod job;
mod options;
mod parse;
mod reason;
pub mod registry;
mod response;
mod session;
mod show;

pub use analyse::{AnalysedTurn, Curves, TurnLimits};
pub use command::{
    replay_command, AnalyseArgs, Command, GoArgs, Id, NewGameArgs, NewGameError, PositionArgs, RawMove,
    RawPlacement, Token,
};
pub use engine::{Effect, Engine, PROTOCOL_VERSION};
pub use input::{read_line, RawLine};
pub use job::{Job, Lane, Progress, SMALL_HAND, SMALL_MOVES};
pub use options::{EngineOptions, OptionError};
pub use parse::{parse_command, parse_line, Line, ParseError, MAX_LINE_BYTES, MAX_PERFT_DEPTH};
pub use reason::Reason;
pub use response::{ErrorCode, Failure, InfoLine, Payload, Response};
pub use session::{Action, Event, Session};
