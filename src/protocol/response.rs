//! What the engine answers: error codes, responses and their wire form (`Display`).

use std::fmt;

use super::command::Id;

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

/// A failed command: its code and a one-line message saying why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The error code.
    pub code: ErrorCode,
    /// Why, for a person; one line.
    pub message: String,
}

impl Failure {
    /// A failure with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code, self.message)
    }
}

/// One response: `=<id> <payload>` or `?<id> <code> <message>`, then one empty line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The id of the command it answers, if it had one.
    pub id: Option<Id>,
    /// The payload (lines joined by `\n`, possibly empty) or the failure.
    pub result: Result<String, Failure>,
}

impl Response {
    /// A success with `payload` (empty for none).
    pub fn success(id: Option<Id>, payload: impl Into<String>) -> Response {
        Response { id, result: Ok(payload.into()) }
    }

    /// A failure.
    pub fn failure(id: Option<Id>, failure: Failure) -> Response {
        Response { id, result: Err(failure) }
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

impl fmt::Display for Response {
    /// The wire form, ending with the empty line: `"=1 zatre\n\n"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let id = self.id.as_ref().map(Id::as_str).unwrap_or("");
        match &self.result {
            Ok(payload) => {
                write!(f, "={id}")?;
                if !payload.trim().is_empty() {
                    f.write_str(" ")?;
                    write_lines(f, payload)?;
                }
            }
            Err(failure) => {
                let message: String =
                    failure.message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
                write!(f, "?{id} {} {}", failure.code, message.trim())?;
            }
        }
        f.write_str("\n\n")
    }
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
        let r = Response::failure(Id::new("4"), Failure::new(ErrorCode::IllegalMove, "no\ntile"));
        assert_eq!(r.to_string(), "?4 illegal_move no tile\n\n");
    }

    #[test]
    fn codes_are_snake_case() {
        let words: Vec<_> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        assert!(words.iter().all(|w| w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')));
    }
}
