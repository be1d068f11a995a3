//! One engine process driven over the text protocol: spawning, the framing of requests and
//! responses, and every way an engine can fail (a [`Fault`]). A reader thread feeds stdout lines
//! into a bounded channel so that every wait has a deadline, a match never hangs, and an engine
//! that floods its output holds up its own reader rather than filling the referee's memory.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::interrupt;
use crate::process_group;

/// The longest stdout line the referee reads before it calls the engine's output garbage.
const MAX_LINE: usize = 1 << 20;

/// The most bytes of output (every line counted, `info` lines too) the referee reads for one
/// response before it calls the engine's output garbage.
const MAX_RESPONSE: usize = 64 << 20;

/// How many `info` lines of one response a [`Reply`] keeps: the last ones.
const MAX_INFO: usize = 256;

/// Lines the reader thread may read ahead of the referee; then it waits, and so does the engine.
const READ_AHEAD: usize = 64;

/// How an engine failed; the engine loses the game it was playing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It could not be started, or the shell could not run its command line (exit status 127 or
    /// 126 before any output).
    Spawn(String),
    /// It answered a move the rules reject (or one that does not parse).
    IllegalMove(String),
    /// It answered nothing within its time plus the margin.
    Timeout(String),
    /// Its stdout closed or it exited.
    Crash(String),
    /// It printed something the framing does not allow.
    Garbage(String),
    /// It answered an error response to a command that should succeed.
    Error(String),
}

impl Fault {
    /// Every [`Fault::kind`], as records name them.
    pub const KINDS: [&'static str; 6] = ["spawn", "illegal_move", "timeout", "crash", "garbage", "error"];

    /// The short name recorded as the game's `end`, one of [`Fault::KINDS`].
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Spawn(_) => "spawn",
            Fault::IllegalMove(_) => "illegal_move",
            Fault::Timeout(_) => "timeout",
            Fault::Crash(_) => "crash",
            Fault::Garbage(_) => "garbage",
            Fault::Error(_) => "error",
        }
    }

    /// The same fault, its detail saying that it came after the game's last move.
    pub fn after_the_game(self) -> Fault {
        let tell = |d: String| format!("after the last move: {d}");
        match self {
            Fault::Spawn(d) => Fault::Spawn(tell(d)),
            Fault::IllegalMove(d) => Fault::IllegalMove(tell(d)),
            Fault::Timeout(d) => Fault::Timeout(tell(d)),
            Fault::Crash(d) => Fault::Crash(tell(d)),
            Fault::Garbage(d) => Fault::Garbage(tell(d)),
            Fault::Error(d) => Fault::Error(tell(d)),
        }
    }

    /// What exactly happened.
    pub fn detail(&self) -> &str {
        match self {
            Fault::Spawn(d)
            | Fault::IllegalMove(d)
            | Fault::Timeout(d)
            | Fault::Crash(d)
            | Fault::Garbage(d)
            | Fault::Error(d) => d,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind(), self.detail())
    }
}

/// A line of engine output as the reader thread saw it.
enum Output {
    Line(String),
    /// Not UTF-8 or longer than [`MAX_LINE`].
    Bad(String),
    /// stdout closed (or could not be read).
    Closed,
}

/// A successful response: the payload lines after `=<id>` (the first one is what followed the id
/// on the same line, when anything did), and the last `MAX_INFO` (256) `info` lines that came before
/// it (an engine may print any number; only the last ones are kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub payload: Vec<String>,
    pub info: Vec<String>,
}

/// A running engine process.
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    next_id: u64,
    /// Whether it has printed anything yet.
    heard: bool,
    /// How it ended, once a crash has told.
    status: Option<ExitStatus>,
}

impl EngineProcess {
    /// Starts an engine from its command line, run by `sh -c` in a process group of its own so
    /// that killing it also kills whatever the shell started.
    ///
    /// # Errors
    /// [`Fault::Spawn`] when the process cannot be started.
    pub fn spawn(command: &str) -> Result<EngineProcess, Fault> {
        if command.trim().is_empty() {
            return Err(Fault::Spawn("empty command line".to_string()));
        }
        let mut sh = Command::new("sh");
        sh.arg("-c").arg(command).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child =
            interrupt::spawn_group(&mut sh).map_err(|e| Fault::Spawn(format!("{command}: {e}")))?;
        let stdout = child.stdout.take().ok_or_else(|| Fault::Spawn("no stdout pipe".to_string()))?;
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::sync_channel(READ_AHEAD);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                let read = (&mut reader).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf);
                let out = match read {
                    Ok(0) | Err(_) => Output::Closed,
                    Ok(_) if buf.len() > MAX_LINE => {
                        Output::Bad(format!("a line longer than {MAX_LINE} bytes"))
                    }
                    Ok(_) => {
                        if buf.last() == Some(&b'\n') {
                            buf.pop();
                        }
                        if buf.last() == Some(&b'\r') {
                            buf.pop();
                        }
                        match String::from_utf8(buf) {
                            Ok(s) => Output::Line(s),
                            Err(_) => Output::Bad("a line that is not UTF-8".to_string()),
                        }
                    }
                };
                let closed = matches!(out, Output::Closed | Output::Bad(_));
                if tx.send(out).is_err() || closed {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
            next_id: 1,
            heard: false,
            status: None,
        })
    }

    /// The command line it was started from.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sends a command with a fresh id and waits for its response until `timeout` has passed.
    /// `info` lines are allowed before the response only when `allow_info` (during `go`).
    ///
    /// # Errors
    /// Every way the engine can fail; an error response is [`Fault::Error`] with its code and
    /// message.
    pub fn request(&mut self, command: &str, timeout: Duration, allow_info: bool) -> Result<Reply, Fault> {
        let mut info = VecDeque::new();
        let mut keep = |line: String| {
            if info.len() == MAX_INFO {
                info.pop_front();
            }
            info.push_back(line);
        };
        let on_info: Option<&mut dyn FnMut(String)> = if allow_info { Some(&mut keep) } else { None };
        let mut reply = self.request_with(command, timeout, on_info)?;
        reply.info = info.into();
        Ok(reply)
    }

    /// [`EngineProcess::request`] that hands every `info` line before the response to `on_info`
    /// as it comes (none are allowed without it); the reply's `info` is then empty.
    ///
    /// # Errors
    /// As [`EngineProcess::request`].
    pub fn request_with(
        &mut self,
        command: &str,
        timeout: Duration,
        mut on_info: Option<&mut dyn FnMut(String)>,
    ) -> Result<Reply, Fault> {
        let id = self.next_id;
        self.next_id += 1;
        let stdin = self.stdin.as_mut().ok_or_else(|| Fault::Crash("stdin is closed".to_string()))?;
        let written = stdin.write_all(format!("{id} {command}\n").as_bytes()).and_then(|()| stdin.flush());
        if let Err(e) = written {
            return Err(self.crashed(&format!("writing '{command}': {e}")));
        }
        let deadline = Instant::now().checked_add(timeout);
        let mut reply = Reply::default();
        let verb = command.split_whitespace().next().unwrap_or("");
        let mut budget = Budget { verb, left: MAX_RESPONSE };
        // Wait for the response's first line.
        loop {
            let line = budget.take(self.next_line(deadline, verb, timeout)?)?;
            if let Some(on_info) = on_info.as_mut().filter(|_| line == "info" || line.starts_with("info ")) {
                on_info(line);
                continue;
            }
            let other_id = || Fault::Garbage(format!("response '{}' to command {id} ({verb})", clip(&line)));
            if let Some(rest) = line.strip_prefix('=') {
                let (got, payload) = split_id(rest);
                if got != id.to_string() {
                    return Err(other_id());
                }
                if !payload.is_empty() {
                    reply.payload.push(payload.to_string());
                }
                break;
            }
            if let Some(rest) = line.strip_prefix('?') {
                let (got, message) = split_id(rest);
                // No id: the engine could not read the line (too long, not UTF-8), as the protocol
                // answers such a line; say so rather than call the answer garbage.
                let unread = got.is_empty();
                if got != id.to_string() && !unread {
                    return Err(other_id());
                }
                // Read to the empty line so that the stream stays in step, then report.
                loop {
                    if budget.take(self.next_line(deadline, verb, timeout)?)?.is_empty() {
                        break;
                    }
                }
                let said = if unread { "the engine could not read the command: " } else { "" };
                return Err(Fault::Error(format!("{verb}: {said}{}", clip(message))));
            }
            return Err(Fault::Garbage(format!("'{}' while waiting for the answer to {verb}", clip(&line))));
        }
        // The payload runs to the empty line.
        loop {
            let line = budget.take(self.next_line(deadline, verb, timeout)?)?;
            if line.is_empty() {
                return Ok(reply);
            }
            reply.payload.push(line);
        }
    }

    /// The next line of output, or a timeout once `deadline` has passed, even when lines are
    /// waiting (an engine that floods its output must not outrun its deadline). No deadline (a
    /// timeout too far away to be told) waits as long as it takes.
    fn next_line(
        &mut self,
        deadline: Option<Instant>,
        verb: &str,
        timeout: Duration,
    ) -> Result<String, Fault> {
        let received = match deadline {
            Some(deadline) => {
                let now = Instant::now();
                if now >= deadline {
                    Err(RecvTimeoutError::Timeout)
                } else {
                    self.lines.recv_timeout(deadline - now)
                }
            }
            None => self.lines.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(Output::Line(line)) => {
                self.heard = true;
                Ok(line)
            }
            Ok(Output::Bad(what)) => {
                self.heard = true;
                Err(Fault::Garbage(what))
            }
            Ok(Output::Closed) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.crashed(&format!("stdout closed during {verb}")))
            }
            Err(RecvTimeoutError::Timeout) => {
                Err(Fault::Timeout(format!("no answer to {verb} within {} ms", timeout.as_millis())))
            }
        }
    }

    /// A crash fault that says how the process ended, when it has; a shell that could not run the
    /// command line (exit status 127, "not found", or 126, "not executable" in POSIX sh, before any
    /// output) is a [`Fault::Spawn`] instead.
    fn crashed(&mut self, what: &str) -> Fault {
        // Give a dying process a moment to be reaped so that its status can be told.
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.exited() {
                Some(status) => {
                    self.status = Some(status);
                    let cause = match status.code() {
                        Some(127) if !self.heard => "not found",
                        Some(126) if !self.heard => "not executable",
                        _ => return Fault::Crash(format!("{what} ({status})")),
                    };
                    return Fault::Spawn(format!("{}: {cause} ({status}, no output)", self.command));
                }
                None if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                None => return Fault::Crash(what.to_string()),
            }
        }
    }

    /// How the shell ended, when it has; then it is reaped, after its group is killed (its pid,
    /// the group's id, is not reused before it is reaped, so the kill reaches nothing else).
    fn exited(&mut self) -> Option<ExitStatus> {
        let pid = i32::try_from(self.child.id()).ok()?;
        // WNOWAIT: the child stays to be reaped below.
        if !process_group::has_exited(pid).unwrap_or(false) {
            return None;
        }
        interrupt::kill_group(&self.child);
        self.child.try_wait().ok().flatten()
    }

    /// Takes the engine's stdin out, for a writer of its own (the conformance kit writes on a
    /// thread, so that an engine that stops reading never blocks it); [`EngineProcess::request`]
    /// then fails as on a closed stdin.
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.stdin.take()
    }

    /// The next line of output (without its line end) within `timeout`, whatever it is; `what`
    /// names what was awaited in a fault.
    ///
    /// # Errors
    /// [`Fault::Timeout`], [`Fault::Crash`] when stdout closed, [`Fault::Garbage`] for a line that
    /// is not UTF-8 or too long.
    pub fn read_line(&mut self, timeout: Duration, what: &str) -> Result<String, Fault> {
        self.next_line(Instant::now().checked_add(timeout), what, timeout)
    }

    /// Waits up to `timeout` for the process to exit; its exit status when it has (it is then
    /// reaped, and what it started is killed).
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        if let Some(status) = self.status {
            return Some(status);
        }
        let until = Instant::now() + timeout;
        loop {
            if let Some(status) = self.exited() {
                self.status = Some(status);
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Asks the engine to quit, waits briefly, then kills it.
    pub fn quit(mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(b"quit\n").and_then(|()| stdin.flush());
        }
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if self.exited().is_some() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        drop(self.stdin.take());
        // The group's id is the shell's pid; it stays valid while any member lives, and the
        // shell, not yet reaped, holds it until the wait below, so this also ends what the shell
        // started and nothing else.
        interrupt::kill_group(&self.child);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What is left of [`MAX_RESPONSE`] for the response to one command.
struct Budget<'a> {
    verb: &'a str,
    left: usize,
}

impl Budget<'_> {
    /// Counts a line (and its newline) against the budget.
    fn take(&mut self, line: String) -> Result<String, Fault> {
        match self.left.checked_sub(line.len() + 1) {
            Some(left) => {
                self.left = left;
                Ok(line)
            }
            None => Err(Fault::Garbage(format!(
                "more than {} MiB of output while waiting for the answer to {}",
                MAX_RESPONSE >> 20,
                self.verb
            ))),
        }
    }
}

/// Splits `<id> rest` (after `=` or `?`) into the id and the rest.
fn split_id(rest: &str) -> (&str, &str) {
    let end = rest.find([' ', '\t']).unwrap_or(rest.len());
    (&rest[..end], rest[end..].trim_start())
}

/// A line cut to a length fit for a message.
pub(crate) fn clip(line: &str) -> String {
    let shown: String = line.chars().take(80).map(|c| if c.is_control() { '?' } else { c }).collect();
    if line.chars().count() > 80 {
        format!("{shown}...")
    } else {
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine's words in a fault: 80 characters at most, no control character (an engine's
    /// 900 KB line went whole into records and the terminal, escapes included).
    #[test]
    fn an_engines_text_is_clipped_and_shown_plainly() {
        assert_eq!(clip("bestmove 5@h8"), "bestmove 5@h8");
        assert_eq!(clip("a\u{1b}[2Jb\tc"), "a?[2Jb?c");
        let long = "x".repeat(900_000);
        assert_eq!(clip(&long), format!("{}...", "x".repeat(80)));
    }

    #[test]
    fn ids_split_from_payload() {
        assert_eq!(split_id("3 bestmove 5@h8"), ("3", "bestmove 5@h8"));
        assert_eq!(split_id("3"), ("3", ""));
    }

    #[test]
    fn a_scripted_engine_answers_and_times_out() {
        let mut e = EngineProcess::spawn(
            "while read id cmd rest; do if [ \"$cmd\" = go ]; then sleep 5; else printf '=%s ok\\n\\n' \"$id\"; fi; done",
        )
        .expect("sh starts");
        let reply = e.request("name", Duration::from_secs(5), false).expect("answers");
        assert_eq!(reply.payload, vec!["ok".to_string()]);
        let fault = e.request("go", Duration::from_millis(100), true).expect_err("times out");
        assert_eq!(fault.kind(), "timeout");
    }

    /// A command line the shell cannot run fails its first command as a spawn fault; an engine
    /// that exits 127 after it has answered is a crash.
    #[test]
    fn a_missing_engine_cannot_be_started() {
        let dir = std::env::temp_dir();
        let mut e = EngineProcess::spawn("/nonexistent/zatre-engine").expect("sh starts");
        let fault = e.request("newgame", Duration::from_secs(5), false).expect_err("nothing runs");
        assert_eq!(fault.kind(), "spawn", "{fault}");
        assert!(fault.detail().contains("not found"), "{fault}");
        let not_executable = dir.join(format!("zatre-not-executable-{}", std::process::id()));
        std::fs::write(&not_executable, "#!/bin/sh\n").expect("a file");
        let mut e = EngineProcess::spawn(&not_executable.display().to_string()).expect("sh starts");
        let fault = e.request("newgame", Duration::from_secs(5), false).expect_err("nothing runs");
        let _ = std::fs::remove_file(&not_executable);
        assert_eq!(fault.kind(), "spawn", "{fault}");
        assert!(fault.detail().contains("not executable"), "{fault}");
        let mut e = EngineProcess::spawn("read id cmd; printf '=%s\\n\\n' \"$id\"; read id cmd; exit 127")
            .expect("sh starts");
        e.request("newgame", Duration::from_secs(5), false).expect("answers");
        let fault = e.request("go", Duration::from_secs(5), true).expect_err("exits");
        assert_eq!(fault.kind(), "crash", "{fault}");
    }

    /// An error without an id is the engine saying it could not read the line (PROTOCOL.md,
    /// framing): an error of the command, in those words, not garbage; an answer with another
    /// id is garbage, its line clipped.
    #[test]
    fn an_error_without_an_id_says_the_command_was_not_read() {
        let mut e = EngineProcess::spawn(
            "read id cmd; printf '? syntax_error the line is longer than 65536 bytes\n\n'; \
             read id cmd; printf '=99 %0200d\n\n' 0",
        )
        .expect("sh starts");
        let fault = e.request("position startpos", Duration::from_secs(5), false).expect_err("unread");
        assert_eq!(fault.kind(), "error", "{fault}");
        assert!(
            fault.detail().contains("could not read the command: syntax_error the line is longer"),
            "{fault}"
        );
        let fault = e.request("isready", Duration::from_secs(5), false).expect_err("another id");
        assert_eq!(fault.kind(), "garbage", "{fault}");
        assert!(fault.detail().len() < 200, "clipped: {fault}");
    }

    /// A response that is already waiting when the deadline has passed comes too late: the
    /// deadline is checked before the queue (an engine that floods its output otherwise never
    /// times out).
    #[test]
    fn a_passed_deadline_wins_over_waiting_output() {
        let mut e = EngineProcess::spawn("printf '=1 bestmove pass\\n\\n'; sleep 5").expect("sh starts");
        thread::sleep(Duration::from_millis(300));
        let fault = e.request("go", Duration::ZERO, true).expect_err("too late");
        assert_eq!(fault.kind(), "timeout", "{fault}");
    }

    /// An engine that prints `info` without end is cut off at `MAX_RESPONSE` bytes as garbage,
    /// long before its deadline, and the lines kept are bounded.
    #[test]
    fn endless_info_is_garbage_after_the_response_limit() {
        // 100,000-byte info lines (under MAX_LINE), forever.
        let mut e = EngineProcess::spawn(
            "read id cmd; l=\"info $(head -c 100000 /dev/zero | tr '\\0' x)\"; while :; do echo \"$l\"; done",
        )
        .expect("sh starts");
        let fault = e.request("go", Duration::from_secs(30), true).expect_err("cut off");
        assert_eq!(fault.kind(), "garbage", "{fault}");
        assert!(fault.detail().contains(&format!("more than {} MiB", MAX_RESPONSE >> 20)), "{fault}");
    }

    /// The kit's access: any line as it comes (one without an id too), a timeout when none comes,
    /// stdin taken out for a writer of its own, and the exit status once it has exited.
    #[test]
    fn raw_lines_stdin_and_the_exit_status() {
        let mut e =
            EngineProcess::spawn("read line; echo \"= $line\"; read line; exit 3").expect("sh starts");
        let mut stdin = e.take_stdin().expect("a stdin pipe");
        assert!(e.request("isready", Duration::from_secs(1), false).is_err(), "stdin was taken out");
        stdin.write_all(b"hello\n").expect("written");
        stdin.flush().expect("flushed");
        assert_eq!(e.read_line(Duration::from_secs(5), "the echo").expect("a line"), "= hello");
        let fault = e.read_line(Duration::from_millis(100), "more").expect_err("nothing more yet");
        assert_eq!(fault.kind(), "timeout", "{fault}");
        assert_eq!(e.wait_exit(Duration::from_millis(100)), None, "it waits for its second line");
        stdin.write_all(b"bye\n").expect("written");
        stdin.flush().expect("flushed");
        let status = e.wait_exit(Duration::from_secs(5)).expect("it exits");
        assert_eq!(status.code(), Some(3));
        assert_eq!(e.wait_exit(Duration::ZERO).and_then(|s| s.code()), Some(3), "the status is kept");
    }

    /// `KINDS` lists every fault's kind once.
    #[test]
    fn every_kind_is_listed() {
        let d = String::new;
        let kinds: Vec<&str> = [
            Fault::Spawn(d()),
            Fault::IllegalMove(d()),
            Fault::Timeout(d()),
            Fault::Crash(d()),
            Fault::Garbage(d()),
            Fault::Error(d()),
        ]
        .iter()
        .map(Fault::kind)
        .collect();
        assert_eq!(kinds, Fault::KINDS);
    }

    /// Of many `info` lines before a response only the last ones are kept.
    #[test]
    fn a_reply_keeps_only_the_last_info_lines() {
        let mut e = EngineProcess::spawn(
            "read id cmd; i=0; while [ $i -lt 1000 ]; do echo \"info depth $i\"; i=$((i+1)); done; printf '=%s bestmove pass\\n\\n' \"$id\"; sleep 5",
        )
        .expect("sh starts");
        let reply = e.request("go", Duration::from_secs(20), true).expect("answers");
        assert_eq!(reply.info.len(), MAX_INFO);
        assert_eq!(reply.info.last().map(String::as_str), Some("info depth 999"));
        assert_eq!(reply.payload, vec!["bestmove pass".to_string()]);
    }
}
