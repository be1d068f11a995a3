//! One engine process under test, read strictly: every response is parsed against the framing of
//! PROTOCOL.md (the first line `=<id> ...` or `?<id> <code> ...`, the id echoed exactly, the
//! payload running to one empty line), and every read has a deadline. The process itself is the
//! referee's [`EngineProcess`]: started by `sh -c` in a process group of its own, killed on drop.

use std::io::Write;
use std::process::ChildStdin;
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use crate::referee::{clip, EngineProcess, Fault};

use super::sections;

/// The error codes of PROTOCOL.md's table under "Errors".
pub const CODES: [&str; 10] = [
    "unknown_command",
    "syntax_error",
    "invalid_argument",
    "illegal_move",
    "illegal_draw",
    "invalid_position",
    "busy",
    "cannot_undo",
    "game_over",
    "internal",
];

/// The most payload lines the kit reads for one response before it calls the output endless.
const MAX_LINES: usize = 200_000;

/// What broke, and the section of PROTOCOL.md it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub section: &'static str,
    pub what: String,
}

impl Failure {
    pub fn new(section: &'static str, what: impl Into<String>) -> Failure {
        Failure { section, what: what.into() }
    }
}

/// One response as it was framed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Response {
    /// `true` for `=`, `false` for `?`.
    pub ok: bool,
    /// The echoed id (empty when none).
    pub id: String,
    /// Success: the payload lines (the first is what followed the id, when anything did).
    /// Failure: the first line is what followed the id (`<code> [<reason>] <message>`).
    pub lines: Vec<String>,
    /// The `info` lines that came before it (during `go`).
    pub info: Vec<String>,
}

impl Response {
    /// The error code of a failure (`None` for a success).
    pub fn code(&self) -> Option<&str> {
        if self.ok {
            return None;
        }
        self.lines.first().and_then(|l| l.split_whitespace().next())
    }

    /// The word after the code of a failure: the reason key in version 3.
    pub fn reason(&self) -> Option<&str> {
        if self.ok {
            return None;
        }
        self.lines.first().and_then(|l| l.split_whitespace().nth(1))
    }

    /// The payload as one text, lines joined by `\n`, for messages and comparisons.
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    /// What the response was, cut short, for a failure's message.
    pub fn shown(&self) -> String {
        let sign = if self.ok { '=' } else { '?' };
        let first = self.lines.first().map(String::as_str).unwrap_or("");
        let more =
            if self.lines.len() > 1 { format!(" (+{} lines)", self.lines.len() - 1) } else { String::new() };
        let gap = if first.is_empty() { "" } else { " " };
        format!("'{sign}{}{gap}{}'{more}", self.id, clip(first))
    }
}

/// The engine's stdin, written by a thread of its own: a write never blocks the kit, even when
/// the engine has stopped reading and the pipe is full. Dropping it closes stdin.
struct Writer {
    lines: Option<mpsc::Sender<Vec<u8>>>,
    /// The first write that failed.
    failed: Arc<Mutex<Option<String>>>,
}

impl Writer {
    fn new(stdin: Option<ChildStdin>) -> Writer {
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        let failed = Arc::new(Mutex::new(None));
        let told = Arc::clone(&failed);
        thread::spawn(move || {
            let Some(mut stdin) = stdin else {
                *told.lock().unwrap_or_else(PoisonError::into_inner) = Some("stdin is closed".to_string());
                return;
            };
            for bytes in rx {
                if let Err(e) = stdin.write_all(&bytes).and_then(|()| stdin.flush()) {
                    *told.lock().unwrap_or_else(PoisonError::into_inner) =
                        Some(format!("writing to stdin: {e}"));
                    return;
                }
            }
        });
        Writer { lines: Some(tx), failed }
    }

    fn send(&self, bytes: &[u8]) -> Result<(), String> {
        if let Some(e) = self.failed.lock().unwrap_or_else(PoisonError::into_inner).clone() {
            return Err(e);
        }
        let sent = self.lines.as_ref().map(|tx| tx.send(bytes.to_vec()));
        match sent {
            Some(Ok(())) => Ok(()),
            _ => Err("stdin is closed".to_string()),
        }
    }
}

/// A running engine under test and the protocol version spoken with it.
pub struct Session {
    engine: EngineProcess,
    writer: Writer,
    /// 2 or 3.
    pub version: u8,
    /// The deadline of every read.
    pub timeout: Duration,
    next_id: u64,
}

impl Session {
    /// Starts the engine and, for version 3, switches it with `protocol 3`.
    ///
    /// # Errors
    /// [`Fault::Spawn`] when it cannot be started; any fault of its answer to `protocol 3` (as a
    /// failure of "Version 3") comes from the first request instead.
    pub fn start(command: &str, version: u8, timeout: Duration) -> Result<Session, Fault> {
        let mut engine = EngineProcess::spawn(command)?;
        let writer = Writer::new(engine.take_stdin());
        let mut session = Session { engine, writer, version: 2, timeout, next_id: 1 };
        if version == 3 {
            session.version = 3;
            session.send("0 protocol 3").map_err(|f| Fault::Crash(f.what))?;
            match session.response(Some("0"), false, sections::VERSION_3) {
                Ok(r) if r.ok => {}
                Ok(r) => return Err(Fault::Error(format!("protocol 3 answered {}", r.shown()))),
                Err(f) => return Err(Fault::Crash(f.what)),
            }
        }
        Ok(session)
    }

    /// A fresh id, as text.
    pub fn fresh_id(&mut self) -> String {
        self.next_id += 1;
        self.next_id.to_string()
    }

    /// Writes one line (a `\n` added).
    ///
    /// # Errors
    /// The engine's stdin is closed (it exited): a failure of "Framing".
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.send_raw(format!("{line}\n").as_bytes())
    }

    /// Writes bytes as they are.
    ///
    /// # Errors
    /// As [`Session::send`].
    pub fn send_raw(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        self.writer.send(bytes).map_err(|e| Failure::new(sections::FRAMING, format!("the engine ended: {e}")))
    }

    /// Closes the engine's stdin once what was sent is written.
    pub fn close_stdin(&mut self) {
        self.writer.lines = None;
    }

    /// The next output line within the session's timeout.
    ///
    /// # Errors
    /// A timeout, a crash or garbage, charged to `section`.
    pub fn line(&mut self, what: &str, section: &'static str) -> Result<String, Failure> {
        let timeout = self.timeout;
        self.line_within(timeout, what, section)
    }

    /// The next output line within `timeout`.
    ///
    /// # Errors
    /// As [`Session::line`].
    pub fn line_within(
        &mut self,
        timeout: Duration,
        what: &str,
        section: &'static str,
    ) -> Result<String, Failure> {
        self.engine.read_line(timeout, what).map_err(|f| {
            let said = match f {
                Fault::Timeout(_) => {
                    format!("nothing within {} ms while waiting for {what}", timeout.as_millis())
                }
                other => describe(&other),
            };
            Failure::new(section, said)
        })
    }

    /// Waits up to `timeout` for the process to exit; its exit code (`Some(-1)` when a signal
    /// ended it), `None` while it runs.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        self.engine.wait_exit(timeout).map(|s| s.code().unwrap_or(-1))
    }

    /// Reads one response with the session's timeout; `id` is the id it must echo (`None`: it must
    /// have none). `info` lines may come first only when `allow_info`. A timeout or crash is
    /// charged to `section`; a break of the framing to "Framing".
    ///
    /// # Errors
    /// Any of those.
    pub fn response(
        &mut self,
        id: Option<&str>,
        allow_info: bool,
        section: &'static str,
    ) -> Result<Response, Failure> {
        let timeout = self.timeout;
        self.response_within(timeout, id, allow_info, section)
    }

    /// [`Session::response`] with a timeout of its own for the first line.
    ///
    /// # Errors
    /// As [`Session::response`].
    pub fn response_within(
        &mut self,
        timeout: Duration,
        id: Option<&str>,
        allow_info: bool,
        section: &'static str,
    ) -> Result<Response, Failure> {
        self.response_of(timeout, &[id.unwrap_or("")], allow_info, section)
    }

    /// One response whose id is one of `ids` (`""`: no id), whichever comes first: for answers
    /// whose order the protocol leaves open (`stop` and the `bestmove` it ends).
    ///
    /// # Errors
    /// As [`Session::response`].
    pub fn response_of(
        &mut self,
        timeout: Duration,
        ids: &[&str],
        allow_info: bool,
        section: &'static str,
    ) -> Result<Response, Failure> {
        let awaited = match ids {
            [""] => "a response without an id".to_string(),
            [id] => format!("the response to id {id}"),
            _ => format!("the response to one of the ids {}", ids.join(", ")),
        };
        let mut response = Response::default();
        let first = loop {
            let line = self.line_within(timeout, &awaited, section)?;
            if allow_info && (line == "info" || line.starts_with("info ")) {
                response.info.push(line);
                if response.info.len() > MAX_LINES {
                    return Err(Failure::new(section, format!("more than {MAX_LINES} info lines")));
                }
                continue;
            }
            break line;
        };
        let framing = |what: String| Failure::new(sections::FRAMING, what);
        let (ok, rest) = match first.as_bytes().first() {
            Some(b'=') => (true, &first[1..]),
            Some(b'?') => (false, &first[1..]),
            _ => return Err(framing(format!("'{}' where {awaited} should begin with = or ?", clip(&first)))),
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (got, after) = rest.split_at(digits);
        if !ids.contains(&got) {
            let said = if got.is_empty() { "no id".to_string() } else { format!("id '{got}'") };
            return Err(framing(format!("'{}' carries {said}, where {awaited} was due", clip(&first))));
        }
        if !(after.is_empty() || after.starts_with(' ')) {
            return Err(framing(format!(
                "'{}': the id must be followed by a space or the end",
                clip(&first)
            )));
        }
        let payload = after.trim_start();
        response.ok = ok;
        response.id = got.to_string();
        if !payload.is_empty() {
            response.lines.push(payload.to_string());
        }
        if !ok {
            self.check_error_line(payload, &first)?;
        }
        loop {
            let line = self.line(&format!("the empty line ending {awaited}"), sections::FRAMING)?;
            if line.is_empty() {
                return Ok(response);
            }
            if !ok {
                return Err(framing(format!(
                    "error response '{}' goes on with '{}'",
                    clip(&first),
                    clip(&line)
                )));
            }
            if response.lines.len() >= MAX_LINES {
                return Err(framing(format!("more than {MAX_LINES} lines in {awaited}")));
            }
            response.lines.push(line);
        }
    }

    /// An error line: a known code, in version 3 a reason key, and a message. PROTOCOL.md says a
    /// key is lower case letters and `_`, but its own `not_utf8` has a digit: digits are allowed.
    fn check_error_line(&self, payload: &str, first: &str) -> Result<(), Failure> {
        let mut words = payload.split_whitespace();
        let code = words.next().unwrap_or("");
        if !CODES.contains(&code) {
            return Err(Failure::new(
                sections::ERRORS,
                format!("'{}': '{}' is not an error code of the table", clip(first), clip(code)),
            ));
        }
        if self.version >= 3 {
            let reason = words.next().unwrap_or("");
            if reason.is_empty()
                || !reason.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            {
                return Err(Failure::new(
                    sections::VERSION_3,
                    format!("'{}': no reason key after the code", clip(first)),
                ));
            }
        }
        if words.next().is_none() {
            return Err(Failure::new(sections::ERRORS, format!("'{}' has no message", clip(first))));
        }
        Ok(())
    }

    /// Sends `<fresh id> <command>` and reads its response.
    ///
    /// # Errors
    /// As [`Session::response`].
    pub fn ask(&mut self, command: &str, section: &'static str) -> Result<Response, Failure> {
        let id = self.fresh_id();
        self.send(&format!("{id} {command}"))?;
        self.response(Some(&id), false, section)
    }

    /// [`Session::ask`] for a command that must succeed: its payload lines.
    ///
    /// # Errors
    /// As [`Session::ask`], and an error response, charged to `section`.
    pub fn ok(&mut self, command: &str, section: &'static str) -> Result<Vec<String>, Failure> {
        let response = self.ask(command, section)?;
        if response.ok {
            Ok(response.lines)
        } else {
            Err(Failure::new(section, format!("'{}' answered {}", clip(command), response.shown())))
        }
    }

    /// Nothing is printed for `quiet`: `Err` with the line that came.
    ///
    /// # Errors
    /// The line printed.
    pub fn silent_for(&mut self, quiet: Duration) -> Result<(), String> {
        match self.engine.read_line(quiet, "silence") {
            Ok(line) => Err(line),
            Err(_) => Ok(()),
        }
    }
}

/// A fault of the engine in words.
fn describe(fault: &Fault) -> String {
    match fault {
        Fault::Crash(d) => format!("the engine ended: {d}"),
        Fault::Garbage(d) => format!("unreadable output: {d}"),
        other => other.to_string(),
    }
}
