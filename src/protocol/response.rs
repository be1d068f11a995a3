//! What the engine answers: error codes, responses, `info` lines, and their wire form
//! (`Display`). Everything the engine prints is formatted here.

use std::fmt;

use crate::rules::{Extensions, Move, MoveError};
use crate::search::Info;

use super::command::Id;
use super::reason::Reason;

/// The error codes of `?<id> <code> <message>` responses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The first word is not a command.
    UnknownCommand,
    /// The line is not UTF-8, too long, or a known command's arguments have the wrong shape.
    SyntaxError,
    /// The shape is right but a value is out of range or unknown (a number too large, row 0,
    /// an unknown option name or variant).
    InvalidArgument,
    /// `place`/`score` with a move the rules forbid now.
    IllegalMove,
    /// `draw` with values the rules or the bag forbid now.
    IllegalDraw,
    /// `position` with a line or a replay that does not make a valid position.
    InvalidPosition,
    /// A command that would change the game while a `go` runs.
    Busy,
    /// `undo` with nothing to take back.
    CannotUndo,
    /// `draw`, `place` or `go` after the game has ended.
    GameOver,
    /// A bug in the engine; the game is unchanged.
    Internal,
}

impl ErrorCode {
    /// Every code, in the order of the spec.
    pub const ALL: [ErrorCode; 10] = [
        ErrorCode::UnknownCommand,
        ErrorCode::SyntaxError,
        ErrorCode::InvalidArgument,
        ErrorCode::IllegalMove,
        ErrorCode::IllegalDraw,
        ErrorCode::InvalidPosition,
        ErrorCode::Busy,
        ErrorCode::CannotUndo,
        ErrorCode::GameOver,
        ErrorCode::Internal,
    ];

    /// The code as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "unknown_command",
            ErrorCode::SyntaxError => "syntax_error",
            ErrorCode::InvalidArgument => "invalid_argument",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::IllegalDraw => "illegal_draw",
            ErrorCode::InvalidPosition => "invalid_position",
            ErrorCode::Busy => "busy",
            ErrorCode::CannotUndo => "cannot_undo",
            ErrorCode::GameOver => "game_over",
            ErrorCode::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed command: its code, its reason key and a one-line message saying why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The error code (the reason's).
    pub code: ErrorCode,
    /// The reason key (version 3 prints it after the code).
    pub reason: Reason,
    /// Why, for a person; one line.
    pub message: String,
}

impl Failure {
    /// A failure for `reason` (with its code) and `message`.
    pub fn new(reason: Reason, message: impl Into<String>) -> Failure {
        Failure { code: reason.code(), reason, message: message.into() }
    }

    /// The failure of an error whose reason key [`Reason`] knows, with the error's message.
    pub fn of<E>(e: &E) -> Failure
    where
        E: fmt::Display,
        for<'a> Reason: From<&'a E>,
    {
        Failure::new(Reason::from(e), e.to_string())
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code, self.message)
    }
}

/// A move the rules refuse: `game_over` after the end, `illegal_move` otherwise.
impl From<MoveError> for Failure {
    fn from(e: MoveError) -> Failure {
        Failure::of(&e)
    }
}

/// What a successful command answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// Lines of text (joined by `\n`, possibly empty).
    Text(String),
    /// `points <n> crosses <k>`: what a move scores (`place`, `score <move>`); in version 3
    /// then `boxes <boxes>`, the boxes of the sheet it fills.
    MoveScore { points: u32, crosses: u32, boxes: Option<String> },
    /// `bestmove <move> score <s> nodes <n>`: what a `go` found.
    BestMove { best: Move, score: f64, nodes: u64 },
    /// `<n>`, or `<n> stopped` when `stop` ended the count early (`perft`, `legal count`).
    Count { count: u64, stopped: bool },
    /// `complete yes|no|unknown`, `next <placements>|-`, and `stopped` when `stop` cut it short.
    Extensions(Extensions),
}

impl From<String> for Payload {
    fn from(text: String) -> Payload {
        Payload::Text(text)
    }
}

impl From<&str> for Payload {
    fn from(text: &str) -> Payload {
        Payload::Text(text.to_owned())
    }
}

impl fmt::Display for Payload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Payload::Text(text) => write_lines(f, text),
            Payload::MoveScore { points, crosses, boxes } => {
                write!(f, "points {points} crosses {crosses}")?;
                match boxes {
                    Some(boxes) => write!(f, " boxes {boxes}"),
                    None => Ok(()),
                }
            }
            Payload::BestMove { best, score, nodes } => {
                write!(f, "bestmove {best} score {score:.2} nodes {nodes}")
            }
            Payload::Count { count, stopped: false } => write!(f, "{count}"),
            Payload::Count { count, stopped: true } => write!(f, "{count} stopped"),
            Payload::Extensions(e) => {
                let complete = match e.complete {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "unknown",
                };
                write!(f, "complete {complete}\nnext ")?;
                if e.next.is_empty() {
                    f.write_str("-")?;
                }
                for (k, p) in e.next.iter().enumerate() {
                    write!(f, "{}{p}", if k > 0 { "," } else { "" })?;
                }
                if e.stopped {
                    f.write_str("\nstopped")?;
                }
                Ok(())
            }
        }
    }
}

/// One response: `=<id> <payload>` or `?<id> <code> <message>`, then one empty line.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The id of the command it answers, if it had one.
    pub id: Option<Id>,
    /// The payload or the failure.
    pub result: Result<Payload, Failure>,
}

impl Response {
    /// A success with `payload` (an empty text for none).
    pub fn success(id: Option<Id>, payload: impl Into<Payload>) -> Response {
        Response { id, result: Ok(payload.into()) }
    }

    /// A failure.
    pub fn failure(id: Option<Id>, failure: Failure) -> Response {
        Response { id, result: Err(failure) }
    }
}

/// A progress line of `go`: `info [id <id>] depth <d> multipv <k> score <s> [stderr <e> samples
/// <n>] [winprob <p>] nodes <n> nps <n> time <ms> pv <moves>`; `stderr`, `samples` and `winprob`
/// only for a score that playouts sampled; `id` (version 3) the id of the `go` it reports on, when
/// it had one. Written with its line break.
pub struct InfoLine<'a> {
    /// What the search reports.
    pub info: &'a Info,
    /// The id the line names (version 3 only; `None` in version 2).
    pub id: Option<&'a Id>,
}

impl fmt::Display for InfoLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = self.info;
        f.write_str("info")?;
        if let Some(id) = self.id {
            write!(f, " id {}", id.as_str())?;
        }
        write!(f, " depth {} multipv {} score {:.2}", i.depth, i.multipv, i.score)?;
        if i.samples > 0 {
            write!(f, " stderr {:.2} samples {}", i.std_error, i.samples)?;
        }
        if let Some(p) = i.winprob {
            write!(f, " winprob {p:.3}")?;
        }
        write!(f, " nodes {} nps {} time {} pv", i.nodes, i.nps, i.time_ms)?;
        for mv in &i.pv {
            write!(f, " {mv}")?;
        }
        f.write_str("\n")
    }
}

/// Writes `s` with every run of line breaks collapsed, so no payload line is empty.
fn write_lines(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    let mut first = true;
    for line in s.lines().filter(|l| !l.trim().is_empty()) {
        if !first {
            f.write_str("\n")?;
        }
        f.write_str(line)?;
        first = false;
    }
    Ok(())
}

impl Response {
    /// The wire form in protocol version `version`: version 3 writes a failure's reason key after
    /// its code; a success is the same in both.
    pub fn wire(&self, version: u32) -> String {
        Wire { response: self, v3: version >= 3 }.to_string()
    }
}

/// A response as one version of the protocol writes it.
struct Wire<'a> {
    response: &'a Response,
    v3: bool,
}

impl fmt::Display for Response {
    /// The wire form of version 2, ending with the empty line: `"=1 zatre\n\n"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Wire { response: self, v3: false }.fmt(f)
    }
}

impl fmt::Display for Wire<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let response = self.response;
        let id = response.id.as_ref().map(Id::as_str).unwrap_or("");
        match &response.result {
            Ok(payload) => {
                write!(f, "={id}")?;
                let text = payload.to_string();
                if !text.trim().is_empty() {
                    write!(f, " {text}")?;
                }
            }
            Err(failure) => {
                let message: String =
                    failure.message.chars().map(|c| if breaks_lines(c) { ' ' } else { c }).collect();
                if self.v3 {
                    write!(f, "?{id} {} {} {}", failure.code, failure.reason, message.trim())?;
                } else {
                    write!(f, "?{id} {} {}", failure.code, message.trim())?;
                }
            }
        }
        f.write_str("\n\n")
    }
}

/// Whether a character may not stand in a message, which is one line: a control character
/// (`\n`, `\r`, U+0085 ...), or a line or paragraph separator (U+2028, U+2029), which readers in
/// JavaScript and Python split lines at.
fn breaks_lines(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_with_and_without_id() {
        assert_eq!(Response::success(Id::new("12"), "zatre").to_string(), "=12 zatre\n\n");
        assert_eq!(Response::success(None, "").to_string(), "=\n\n");
        assert_eq!(Response::success(None, "1").to_string(), "= 1\n\n");
        assert_eq!(Response::success(Id::new("3"), "").to_string(), "=3\n\n");
    }

    #[test]
    fn payload_never_has_an_empty_line() {
        let r = Response::success(None, "a\n\nb\n");
        assert_eq!(r.to_string(), "= a\nb\n\n");
    }

    #[test]
    fn failure_is_one_line() {
        let r = Response::failure(Id::new("4"), Failure::new(Reason::RunOverLimit, "no\ntile"));
        assert_eq!(r.to_string(), "?4 illegal_move no tile\n\n");
        // Line and paragraph separators split lines in JavaScript and Python readers; U+0085 too.
        for c in ['\u{2028}', '\u{2029}', '\u{85}', '\r', '\u{b}', '\u{c}'] {
            let r = Response::failure(None, Failure::new(Reason::UnknownCommand, format!("a{c}b")));
            assert_eq!(r.to_string(), "? unknown_command a b\n\n", "{:?}", c);
        }
    }

    #[test]
    fn codes_are_snake_case() {
        let words: Vec<_> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        assert!(words.iter().all(|w| w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')));
    }
}
