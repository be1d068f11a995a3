//! One engine process of the bridge: started from the operator's command line by `sh -c` in a
//! process group of its own, fed lines, and ended (asked with `quit`, then killed with its group,
//! then reaped) so that nothing outlives its page.
//!
//! A plain command line (one command, no `;`, `&`, `|`, parentheses or back quotes) is run as
//! `exec <command>`: the shell becomes the engine, so the status or signal the page is told is the
//! engine's own, not a wrapper's. A compound command line should end with `exec <engine>` for the
//! same reason.

use std::collections::HashSet;
use std::fmt;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::timeout;

use crate::process_group;

/// How long an engine has to exit after `quit` (or the end of its input) before it is killed.
pub const GRACE: Duration = Duration::from_millis(1000);

/// At most this many lines wait for the engine to take them (beyond what its input pipe holds).
pub const MAX_WAITING: usize = 64;

/// The process groups of the running engines, so that a stop can end them all.
pub type Groups = Arc<Mutex<HashSet<i32>>>;

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines for the engine not written yet (the first maybe in part: from `sent` on).
    out: Vec<u8>,
    sent: usize,
    /// How many lines `out` holds from `sent` on.
    waiting: usize,
    /// Its process id, which is also its process group's.
    pid: i32,
    groups: Groups,
}

/// How an engine ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Status(i32),
    /// The shell could not run it: 127 (not found) or 126 (not executable).
    NotFound(i32),
    /// A signal killed it.
    Signal(i32),
    /// It closed its output but did not exit within [`GRACE`]; it was killed.
    Hung,
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Exit::Status(code) | Exit::NotFound(code) => write!(f, "the engine exited with status {code}"),
            Exit::Signal(sig) => match signal_name(sig) {
                Some(name) => write!(f, "the engine was killed by a signal: {name} ({sig})"),
                None => write!(f, "the engine was killed by a signal: {sig}"),
            },
            Exit::Hung => write!(f, "the engine closed its output"),
        }
    }
}

fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        _ => return None,
    })
}

impl Exit {
    fn of(status: ExitStatus) -> Exit {
        use std::os::unix::process::ExitStatusExt;
        match (status.code(), status.signal()) {
            (Some(c @ (126 | 127)), _) => Exit::NotFound(c),
            (Some(c), _) => Exit::Status(c),
            (None, Some(sig)) => Exit::Signal(sig),
            (None, None) => Exit::Hung,
        }
    }
}

/// The shell command line that runs `engine`: `exec` before a plain command.
fn shell_line(engine: &str) -> String {
    let trimmed = engine.trim_start();
    let first = trimmed.split_whitespace().next().unwrap_or("");
    let compound = engine.contains([';', '&', '|', '\n', '(', ')', '`']);
    let keyword = matches!(first, "exec" | "{" | "!" | "if" | "while" | "until" | "for" | "case");
    if compound || keyword || first.contains('=') || first.is_empty() {
        engine.to_string()
    } else {
        format!("exec {trimmed}")
    }
}

impl Engine {
    /// Starts `engine` by `sh -c` in a process group of its own; its stderr goes to ours, without
    /// the bridge's `RUST_LOG`: the engine logs at its default level (errors only), so that a page
    /// cannot fill the bridge's log through the engine's warnings about refused commands (which
    /// repeat them). An operator who wants the engine's log sets `RUST_LOG=` in `--engine`.
    ///
    /// # Errors
    /// When no process can be started (no `sh`, no process or file left).
    pub fn start(engine: &str, groups: &Groups) -> std::io::Result<Engine> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(shell_line(engine))
            .env_remove("RUST_LOG")
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()?;
        // A spawned child that has not been waited for has an id (tokio's docs), and pids fit i32.
        let pid = child.id().and_then(|p| i32::try_from(p).ok()).unwrap_or(0);
        if pid > 0 {
            lock(groups).insert(pid);
        }
        let stdin = child.stdin.take();
        Ok(Engine { child, stdin, out: Vec::new(), sent: 0, waiting: 0, pid, groups: groups.clone() })
    }

    /// The process id (and group id).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// The engine's output, once.
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.stdout.take()
    }

    /// Queues one line (its `\n` added) for [`Engine::write_some`]; false when [`MAX_WAITING`]
    /// lines wait already. Once the engine's input is closed, lines are dropped.
    pub fn push_line(&mut self, bytes: &[u8]) -> bool {
        if self.stdin.is_none() {
            return true;
        }
        if self.waiting >= MAX_WAITING {
            return false;
        }
        self.push_line_anyway(bytes);
        true
    }

    /// Whether queued lines wait to be written.
    pub fn has_waiting(&self) -> bool {
        self.sent < self.out.len()
    }

    /// Writes what the engine's input takes of the queued lines, once; cancel safe (a write
    /// that did not complete wrote nothing). When the input is closed (the engine is gone) the
    /// queue is dropped: the engine's output closing reports that.
    ///
    /// # Errors
    /// When the engine's input is closed.
    pub async fn write_some(&mut self) -> std::io::Result<()> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        };
        match stdin.write(&self.out[self.sent..]).await {
            Ok(n) => {
                self.waiting -= self.out[self.sent..self.sent + n].iter().filter(|&&b| b == b'\n').count();
                self.sent += n;
                if self.sent == self.out.len() {
                    self.out.clear();
                    self.sent = 0;
                }
                Ok(())
            }
            Err(e) => {
                self.stdin = None;
                self.out.clear();
                self.sent = 0;
                self.waiting = 0;
                Err(e)
            }
        }
    }

    /// Writes the queued lines, then `quit`.
    async fn quit(&mut self) -> std::io::Result<()> {
        self.push_line_anyway(b"quit");
        while self.has_waiting() {
            self.write_some().await?;
        }
        match self.stdin.as_mut() {
            Some(stdin) => stdin.flush().await,
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
    }

    fn push_line_anyway(&mut self, bytes: &[u8]) {
        if self.stdin.is_some() {
            self.out.extend_from_slice(bytes);
            self.out.push(b'\n');
            self.waiting += 1;
        }
    }

    /// Ends the engine: with `ask`, the lines queued and `quit` (within [`GRACE`]) and the end of
    /// its input first, and [`GRACE`] to exit;
    /// then its whole process group is killed and the engine reaped.
    pub async fn end(mut self, ask: bool) {
        if ask {
            let _ = timeout(GRACE, self.quit()).await;
            self.stdin = None;
            self.exited_within(GRACE).await;
        }
        self.reap().await;
    }

    /// The engine closed its output: closes its input, waits up to [`GRACE`] for its exit, kills
    /// what is left of its group and says how it ended.
    pub async fn wait_exit(mut self) -> Exit {
        self.stdin = None;
        let exited = self.exited_within(GRACE).await;
        match self.reap().await {
            Some(status) if exited => Exit::of(status),
            _ => Exit::Hung,
        }
    }

    /// Whether the engine exits within `limit`; it is not reaped, so that its pid, and so its
    /// process group's id, stays reserved until [`Engine::reap`] has killed the group.
    async fn exited_within(&self, limit: Duration) -> bool {
        let until = tokio::time::Instant::now() + limit;
        loop {
            if has_exited(self.pid) {
                return true;
            }
            if tokio::time::Instant::now() >= until {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Kills the process group (whatever the shell started, too), then waits for the engine, so
    /// that no zombie is left; its status, unless it would not die.
    async fn reap(&mut self) -> Option<ExitStatus> {
        kill_group(self.pid);
        lock(&self.groups).remove(&self.pid);
        let _ = self.child.start_kill();
        match timeout(GRACE, self.child.wait()).await {
            Ok(Ok(status)) => Some(status),
            _ => {
                log::error!("the engine (pid {}) did not end after SIGKILL", self.pid);
                None
            }
        }
    }
}

/// Whether process `pid`, a child of ours, has exited (or is gone), without reaping it.
fn has_exited(pid: i32) -> bool {
    pid <= 0 || process_group::has_exited(pid).unwrap_or(true)
}

/// Kills every engine still running (the bridge is stopping).
pub fn kill_all(groups: &Groups) {
    for g in lock(groups).drain() {
        kill_group(g);
    }
}

/// The group id is the engine's pid (process_group(0)), which stays reserved while the engine is
/// unreaped or any member of its group lives; the engine is reaped only after this call
/// (Engine::reap), so it cannot hit a stranger's group.
fn kill_group(group: i32) {
    process_group::kill(group);
}

fn lock(groups: &Mutex<HashSet<i32>>) -> std::sync::MutexGuard<'_, HashSet<i32>> {
    // A poisoned set is still a set of ids; killing them is still right.
    groups.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_command_is_execed_a_compound_one_is_not() {
        assert_eq!(shell_line("/usr/bin/zatre"), "exec /usr/bin/zatre");
        assert_eq!(
            shell_line("'/opt/my zatre' --threads 1 2>/dev/null"),
            "exec '/opt/my zatre' --threads 1 2>/dev/null"
        );
        assert_eq!(shell_line("echo $$ > pid; exec zatre"), "echo $$ > pid; exec zatre");
        assert_eq!(shell_line("exec zatre"), "exec zatre");
        assert_eq!(shell_line("RUST_LOG=info zatre"), "RUST_LOG=info zatre");
        assert_eq!(shell_line("zatre | tee log"), "zatre | tee log");
    }

    #[test]
    fn exits_say_status_or_signal() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(Exit::of(ExitStatus::from_raw(3 << 8)).to_string(), "the engine exited with status 3");
        assert_eq!(Exit::of(ExitStatus::from_raw(127 << 8)), Exit::NotFound(127));
        assert_eq!(
            Exit::of(ExitStatus::from_raw(9)).to_string(),
            "the engine was killed by a signal: SIGKILL (9)"
        );
        assert_eq!(
            Exit::of(ExitStatus::from_raw(11)).to_string(),
            "the engine was killed by a signal: SIGSEGV (11)"
        );
    }
}
