//! One page connection and its engine process: start it, relay lines both ways, and end it so that
//! no process is left behind, telling the page why the connection ended.

use std::collections::HashSet;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Semaphore;

/// How long an engine has to exit after `quit` before it is killed.
const GRACE: Duration = Duration::from_millis(1000);

/// The longest engine output line relayed; a longer one ends the connection.
const MAX_ENGINE_LINE: usize = 1 << 20;

/// Why the bridge closed a connection: the WebSocket close code the page reads (4000-4999 are
/// free for applications), with a reason for a person in the close frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloseReason {
    /// The engine exited or closed its output.
    EngineExited = 4001,
    /// `--max-engines` engines run already.
    TooManyEngines = 4002,
    /// The page sent a line longer than the protocol's limit.
    LineTooLong = 4003,
    /// The engine could not be started.
    EngineNotStarted = 4004,
    /// The engine printed a line longer than the bridge relays.
    EngineLineTooLong = 4005,
}

/// How the relay ended.
enum End {
    /// The page closed (or its socket failed).
    PageClosed,
    /// The page sent a line over the limit.
    PageLineTooLong,
    /// The engine's stdout closed.
    EngineExited,
    /// The engine printed an over-long line.
    EngineLineTooLong,
}

/// Runs one connection to its end.
pub async fn run(
    socket: WebSocket,
    engine: String,
    slots: Arc<Semaphore>,
    groups: Arc<Mutex<HashSet<i32>>>,
    max_engines: usize,
) {
    let (mut sink, mut stream) = socket.split();
    let Ok(_permit) = slots.try_acquire_owned() else {
        log::warn!("refused a connection: {max_engines} engines run already");
        let why = format!(
            "refused: {max_engines} engine(s) run already (--max-engines {max_engines}); close another board first"
        );
        close(&mut sink, CloseReason::TooManyEngines, &why).await;
        return;
    };
    let mut child = match spawn(&engine) {
        Ok(c) => c,
        Err(e) => {
            log::error!("cannot start the engine `{engine}`: {e}");
            close(&mut sink, CloseReason::EngineNotStarted, &format!("cannot start the engine: {e}")).await;
            return;
        }
    };
    let group = child.id().and_then(|pid| i32::try_from(pid).ok());
    if let Some(g) = group {
        lock(&groups).insert(g);
    }
    log::info!("engine started (process group {group:?}): {engine}");
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        close(&mut sink, CloseReason::EngineNotStarted, "the engine has no pipes").await;
        finish(&mut child, group, &groups).await;
        return;
    };

    let to_engine = async {
        while let Some(msg) = stream.next().await {
            let bytes: Vec<u8> = match msg {
                Ok(Message::Text(t)) => t.as_bytes().to_vec(),
                Ok(Message::Binary(b)) => b.to_vec(),
                Ok(Message::Close(_)) => return End::PageClosed,
                Ok(Message::Ping(_) | Message::Pong(_)) => continue,
                Err(e) => {
                    log::info!("the page's socket ended: {e}");
                    return if is_too_long(e) { End::PageLineTooLong } else { End::PageClosed };
                }
            };
            if let Err(e) = write_line(&mut stdin, &bytes).await {
                // The engine is gone; its stdout closing reports that.
                log::info!("cannot write to the engine: {e}");
            }
        }
        End::PageClosed
    };
    let to_page = async {
        let mut reader = BufReader::new(stdout);
        loop {
            match read_line(&mut reader).await {
                Line::Text(line) => {
                    if sink.send(Message::Text(line.into())).await.is_err() {
                        return End::PageClosed;
                    }
                }
                Line::TooLong => return End::EngineLineTooLong,
                Line::Closed => return End::EngineExited,
            }
        }
    };
    let end = tokio::select! {
        e = to_engine => e,
        e = to_page => e,
    };

    match end {
        End::PageClosed | End::PageLineTooLong => {
            if matches!(end, End::PageLineTooLong) {
                let why = format!("the page sent a line longer than {} bytes", super::MAX_LINE);
                close(&mut sink, CloseReason::LineTooLong, &why).await;
            } else {
                // Completes the closing handshake the page began (or finds the socket gone).
                let _ = sink.close().await;
            }
            let _ = write_line(&mut stdin, b"quit").await;
            drop(stdin);
            let _ = tokio::time::timeout(GRACE, child.wait()).await;
            finish(&mut child, group, &groups).await;
        }
        End::EngineExited => {
            drop(stdin);
            let status = tokio::time::timeout(GRACE, child.wait()).await;
            let why = match status {
                Ok(Ok(s)) => match s.code() {
                    Some(code) => format!("the engine exited with status {code}"),
                    None => "the engine was killed by a signal".to_string(),
                },
                _ => "the engine closed its output".to_string(),
            };
            log::info!("{why}");
            finish(&mut child, group, &groups).await;
            close(&mut sink, CloseReason::EngineExited, &why).await;
        }
        End::EngineLineTooLong => {
            finish(&mut child, group, &groups).await;
            let why = format!("the engine printed a line longer than {MAX_ENGINE_LINE} bytes");
            close(&mut sink, CloseReason::EngineLineTooLong, &why).await;
        }
    }
}

/// Starts the engine by `sh -c` in a process group of its own; its stderr goes to ours.
fn spawn(engine: &str) -> std::io::Result<Child> {
    Command::new("sh")
        .arg("-c")
        .arg(engine)
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
}

/// Kills the engine's process group (whatever the shell started, too) and reaps the shell.
async fn finish(child: &mut Child, group: Option<i32>, groups: &Mutex<HashSet<i32>>) {
    if let Some(g) = group {
        kill_group(g);
        lock(groups).remove(&g);
    }
    let _ = child.kill().await;
    log::info!("engine ended (process group {group:?})");
}

/// Kills every engine still running (the bridge is stopping).
pub fn kill_all(groups: &Mutex<HashSet<i32>>) {
    for g in lock(groups).drain() {
        kill_group(g);
    }
}

fn kill_group(group: i32) {
    if group > 0 {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours. The group id is the
        // engine shell's pid (process_group(0)), which stays reserved while the shell is unreaped
        // or any member of its group lives, so this cannot hit a stranger's group.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

fn lock(groups: &Mutex<HashSet<i32>>) -> std::sync::MutexGuard<'_, HashSet<i32>> {
    // A poisoned set is still a set of ids; killing them is still right.
    groups.lock().unwrap_or_else(|p| p.into_inner())
}

async fn write_line(stdin: &mut ChildStdin, bytes: &[u8]) -> std::io::Result<()> {
    stdin.write_all(bytes).await?;
    stdin.write_all(b"\n").await?;
    stdin.flush().await
}

enum Line {
    Text(String),
    TooLong,
    Closed,
}

/// One line of engine output, without its `\n` (and a `\r` before it); not UTF-8 is replaced.
async fn read_line(reader: &mut BufReader<ChildStdout>) -> Line {
    let mut buf = Vec::new();
    match reader.take(MAX_ENGINE_LINE as u64 + 1).read_until(b'\n', &mut buf).await {
        Ok(0) | Err(_) => Line::Closed,
        Ok(_) if buf.len() > MAX_ENGINE_LINE => Line::TooLong,
        Ok(_) => {
            if buf.last() == Some(&b'\n') {
                buf.pop();
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            Line::Text(String::from_utf8_lossy(&buf).into_owned())
        }
    }
}

/// Whether the socket failed because a frame or message was over the size limit.
fn is_too_long(e: axum::Error) -> bool {
    matches!(e.into_inner().downcast_ref::<tungstenite::Error>(), Some(tungstenite::Error::Capacity(_)))
}

async fn close<S>(sink: &mut S, reason: CloseReason, why: &str)
where
    S: SinkExt<Message> + Unpin,
{
    // A close reason is at most 123 bytes.
    let mut text = why.to_string();
    while text.len() > 123 {
        text.pop();
    }
    let frame = CloseFrame { code: reason as u16, reason: Utf8Bytes::from(text) };
    let _ = sink.send(Message::Close(Some(frame))).await;
    let _ = sink.close().await;
}
