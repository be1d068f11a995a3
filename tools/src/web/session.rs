//! One page connection and its engine process: start it, relay lines both ways within the page's
//! limits, and end it so that no process is left behind and the slot is free again, telling the
//! page why the connection ended. Every step of the end is bounded in time: a page that stops
//! reading, or keeps its socket open after its Close frame, holds nothing.
//!
//! Only the commands of [`allowlist`](super::allowlist) reach the engine; the bridge answers the
//! others itself, between the engine's responses (never inside one), so that the page reads
//! whole responses and pairs each with its request by id. Each relayed command must be answered
//! within the answer deadline, and a page that answers no ping is taken for gone.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::ChildStdout;
use tokio::sync::{mpsc, Notify, Semaphore};
use tokio::time::{timeout, Instant};

use super::allowlist::{self, echo, CommandLimits, Refusal};
use super::bucket::Bucket;
use super::clients::Clients;
use super::engine::{Engine, Exit, Groups, MAX_WAITING};

/// The longest engine output line relayed; a longer one ends the connection.
const MAX_ENGINE_LINE: usize = 1 << 20;

/// How long the closing handshake with the page may take before the socket is dropped.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

/// At most this many of the bridge's own answers (refused commands) wait to be sent to the page;
/// a page further ahead is closed (4007).
const MAX_REFUSALS_WAITING: usize = 64;

/// The refused commands of a page that the log repeats; the rest are counted, and the count is
/// logged when the page is done.
const REFUSALS_LOGGED: u64 = 3;

/// Why the bridge closed a connection: the WebSocket close code the page reads (4000-4999 are
/// free for applications; 1002, 1003, 1007 and 1008 are RFC 6455's), with a reason for a person in
/// the close frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloseReason {
    /// The engine exited or closed its output (the reason gives its status or signal).
    EngineExited = 4001,
    /// `--max-engines` engines run already.
    TooManyEngines = 4002,
    /// The page sent a line longer than the protocol's limit.
    LineTooLong = 4003,
    /// The engine could not be started (no such program, not executable, no process left).
    EngineNotStarted = 4004,
    /// The engine printed a line longer than the bridge relays.
    EngineLineTooLong = 4005,
    /// Neither the page nor the engine said anything for `--idle-timeout`: the engine was ended;
    /// the page may reconnect and restore its game with `position <history>`.
    Idle = 4006,
    /// The page sent more commands a second than `--max-commands-per-second`, or ran more than
    /// 64 commands ahead of an engine that takes none (or of its own refused commands' answers).
    TooManyCommands = 4007,
    /// Refused: this client (an IPv4 address or IPv6 /64, behind a trusted proxy the one it
    /// forwards for) holds `--max-engines-per-client` engines already.
    TooManyEnginesForClient = 4008,
    /// The engine did not answer a command within `--answer-timeout`: it was ended; the page may
    /// reconnect and restore its game.
    NoAnswer = 4009,
    /// The page sent no frame (no pong to the bridge's pings) for `--ping-timeout`: it is taken
    /// for gone and its engine ended.
    PageSilent = 4010,
    /// RFC 6455 1002: the page broke the WebSocket protocol (an unmasked frame, reserved bits, a
    /// bad fragment).
    ProtocolError = 1002,
    /// RFC 6455 1003: the page sent a binary message; the protocol is text.
    BinaryMessage = 1003,
    /// RFC 6455 1007: a text message or a close reason that is not UTF-8.
    NotUtf8 = 1007,
    /// RFC 6455 1008: a message that breaks the bridge's rule of one protocol line per message (it
    /// holds a line break).
    NotOneLine = 1008,
}

/// What one page may do: the limits of `zatre-web`'s flags.
#[derive(Clone, Copy, Debug)]
pub struct PageLimits {
    /// At most this long without a line either way; then the engine is ended (4006).
    pub idle: Duration,
    /// At most this many commands a second, with bursts of as many (4007).
    pub commands_per_second: u32,
    /// A relayed command the engine has not answered in this time ends the engine (4009).
    pub answer: Duration,
    /// The bridge pings the page this often.
    pub ping_interval: Duration,
    /// A page that sends no frame (pongs included) for this long is closed (4010).
    pub ping_timeout: Duration,
    /// The caps on the commands relayed.
    pub commands: CommandLimits,
}

/// What one page connection needs from the bridge.
pub struct Page {
    /// The page's peer, as the log names it.
    pub peer: String,
    /// The client it counts for under `max_engines_per_client`.
    pub client: IpAddr,
    /// The engine's command line.
    pub engine: String,
    pub slots: Arc<Semaphore>,
    pub max_engines: usize,
    pub clients: Clients,
    pub max_engines_per_client: usize,
    pub groups: Groups,
    pub limits: PageLimits,
}

/// The relayed commands the engine has not answered yet, by id, oldest first.
#[derive(Default)]
struct Unanswered {
    ids: Mutex<VecDeque<(String, Instant)>>,
    /// Told when a command is added to an empty list.
    added: Notify,
}

impl Unanswered {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<(String, Instant)>> {
        // A poisoned list still lists the commands.
        self.ids.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn contains(&self, id: &str) -> bool {
        self.lock().iter().any(|(i, _)| i == id)
    }

    fn add(&self, id: String, at: Instant) {
        let mut ids = self.lock();
        ids.push_back((id, at));
        if ids.len() == 1 {
            self.added.notify_one();
        }
    }

    /// A response with this id began.
    fn answered(&self, id: &str) {
        let mut ids = self.lock();
        if let Some(k) = ids.iter().position(|(i, _)| i == id) {
            ids.remove(k);
        }
    }

    /// The engine reported progress on command `id` (a turn of its `analyse`): its time to answer
    /// counts from `at`.
    fn progressed(&self, id: &str, at: Instant) {
        if let Some(entry) = self.lock().iter_mut().find(|(i, _)| i == id) {
            entry.1 = at;
        }
    }

    /// The command not answered that has waited longest since it was relayed or last made
    /// progress: its id and that time.
    fn oldest(&self) -> Option<(String, Instant)> {
        self.lock().iter().min_by_key(|(_, at)| *at).cloned()
    }
}

/// The id of an `analyse`'s turn line in version 3 (`info id <id> turn ...`): each turn done
/// restarts the time the engine has to answer that command, so that a long game's analysis is
/// bounded per turn, not as a whole.
fn progress_id(line: &str) -> Option<&str> {
    let mut words = line.split(' ');
    match (words.next(), words.next(), words.next(), words.next()) {
        (Some("info"), Some("id"), Some(id), Some("turn")) => Some(id),
        _ => None,
    }
}

/// The id of a line that begins a response (`=<id>...` or `?<id>...`; empty for a response
/// without an id), or None for any other line (`info`, the empty line, a stray line).
fn response_id(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(['=', '?'])?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    Some(&rest[..digits])
}

/// How the relay ended.
enum End {
    /// The page closed (or its socket failed or ended).
    PageClosed,
    /// The page broke a rule: the connection is closed with this code and reason.
    Page(CloseReason, String),
    /// The engine's stdout closed.
    EngineExited,
    /// The engine printed an over-long line.
    EngineLineTooLong,
    /// Nothing was said for the idle timeout.
    Idle,
    /// The engine did not answer the command with this id within the answer deadline.
    NoAnswer(String),
    /// The page sent no frame for the ping timeout.
    Silent,
}

type Sink = SplitSink<WebSocket, Message>;

/// Runs one connection to its end.
pub async fn run(socket: WebSocket, page: Page) {
    let (mut sink, mut stream) = socket.split();
    let max = page.max_engines;
    let per_client = page.max_engines_per_client;
    let Some(held) = page.clients.take(page.client, per_client) else {
        log::warn!(
            "{}: refused: this client has {per_client} engine(s) already (--max-engines-per-client)",
            page.peer
        );
        let why = format!(
            "refused: this client has {per_client} engine(s) already (--max-engines-per-client {per_client}); close another board first"
        );
        close(&mut sink, CloseReason::TooManyEnginesForClient, &why).await;
        return;
    };
    let Ok(permit) = page.slots.clone().try_acquire_owned() else {
        log::warn!("{}: refused: {max} engine(s) run already (--max-engines)", page.peer);
        let why =
            format!("refused: {max} engine(s) run already (--max-engines {max}); close another board first");
        close(&mut sink, CloseReason::TooManyEngines, &why).await;
        return;
    };
    let mut engine = match Engine::start(&page.engine, &page.groups) {
        Ok(e) => e,
        Err(e) => {
            log::error!("{}: cannot start the engine `{}`: {e}", page.peer, page.engine);
            close(&mut sink, CloseReason::EngineNotStarted, &format!("cannot start the engine: {e}")).await;
            return;
        }
    };
    log::info!("{}: connected; engine started (pid {})", page.peer, engine.pid());
    let started = Instant::now();
    let Some(stdout) = engine.take_stdout() else {
        engine.end(false).await;
        close(&mut sink, CloseReason::EngineNotStarted, "the engine has no output pipe").await;
        return;
    };

    // When a line last went either way, in milliseconds since `started`.
    let last_said = AtomicU64::new(0);
    let said = || last_said.store(millis(started.elapsed()), Ordering::Relaxed);
    // When the page last sent any frame (a pong above all), in milliseconds since `started`.
    let last_heard = AtomicU64::new(0);
    let printed = AtomicBool::new(false);
    let refused = AtomicU64::new(0);
    let unanswered = Unanswered::default();
    let (refusals, mut refusals_out) = mpsc::channel::<Refusal>(MAX_REFUSALS_WAITING);
    // The protocol version the page asked for last (`protocol 3`): the bridge's own answers are in
    // it.
    let page_version = std::sync::atomic::AtomicU32::new(2);
    let page_version = &page_version;
    let limits = page.limits;
    let end = {
        // Reads the page and writes to the engine at once, so that a page is heard (its Close
        // frame above all) even while the engine takes no input.
        let to_engine = async {
            let rate = f64::from(page.limits.commands_per_second);
            let mut bucket = Bucket::new(rate, rate, std::time::Instant::now());
            loop {
                let msg = tokio::select! {
                    msg = stream.next() => {
                        last_heard.store(millis(started.elapsed()), Ordering::Relaxed);
                        msg
                    }
                    written = engine.write_some(), if engine.has_waiting() => {
                        if let Err(e) = written {
                            // The engine is gone; its stdout closing reports that.
                            log::debug!("{}: cannot write to the engine: {e}", page.peer);
                        }
                        continue;
                    }
                };
                let text = match msg {
                    None => return End::PageClosed,
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        return End::Page(
                            CloseReason::BinaryMessage,
                            "binary messages are refused: send text".into(),
                        )
                    }
                    Some(Ok(Message::Close(_))) => return End::PageClosed,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Err(e)) => return socket_error(e),
                };
                let line = text.as_str().strip_suffix('\r').unwrap_or(text.as_str());
                // A message may be one byte longer than a line only for its trailing \r.
                if line.len() > super::MAX_LINE {
                    return line_too_long();
                }
                if line.contains(['\n', '\r']) {
                    let why = "one protocol line per message: this one holds a line break";
                    return End::Page(CloseReason::NotOneLine, why.into());
                }
                if !bucket.take(std::time::Instant::now()) {
                    let n = page.limits.commands_per_second;
                    return End::Page(
                        CloseReason::TooManyCommands,
                        format!("more than {n} commands a second"),
                    );
                }
                said();
                let refusal = match allowlist::check(line, &limits.commands) {
                    Ok(id) if unanswered.contains(&id) => Refusal {
                        message: format!("the id {id} is taken by a command not answered yet"),
                        id: Some(id),
                        code: "syntax_error",
                        reason: "id_taken",
                    },
                    Ok(id) => {
                        if !engine.push_line(line.as_bytes()) {
                            let why =
                                format!("more than {MAX_WAITING} commands wait for the engine to take them");
                            return End::Page(CloseReason::TooManyCommands, why);
                        }
                        unanswered.add(id, Instant::now());
                        if let Some(version) = allowlist::protocol_asked(line) {
                            page_version.store(version, Ordering::Relaxed);
                        }
                        continue;
                    }
                    Err(r) => r,
                };
                let n = refused.fetch_add(1, Ordering::Relaxed) + 1;
                if n <= REFUSALS_LOGGED {
                    log::warn!("{}: refused `{}`: {refusal}", page.peer, echo(line));
                }
                if refusals.try_send(refusal).is_err() {
                    let why =
                        format!("more than {MAX_REFUSALS_WAITING} refused commands wait for their answers");
                    return End::Page(CloseReason::TooManyCommands, why);
                }
            }
        };
        // Relays the engine's lines, puts the bridge's own answers between its responses and
        // pings the page.
        let to_page = async {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            // Whether the engine's last line began a response that its empty line has not ended.
            let mut in_response = false;
            let mut ping = tokio::time::interval_at(started + limits.ping_interval, limits.ping_interval);
            ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                let lines = tokio::select! {
                    line = read_line(&mut reader, &mut buf) => match line {
                        Line::Text(line) => {
                            said();
                            printed.store(true, Ordering::Relaxed);
                            if in_response {
                                in_response = !line.is_empty();
                            } else if let Some(id) = response_id(&line) {
                                in_response = true;
                                unanswered.answered(id);
                            } else if let Some(id) = progress_id(&line) {
                                unanswered.progressed(id, Instant::now());
                            }
                            vec![line]
                        }
                        Line::TooLong => return End::EngineLineTooLong,
                        Line::Closed => return End::EngineExited,
                    },
                    Some(refusal) = refusals_out.recv(), if !in_response => {
                        refusal.lines(page_version.load(Ordering::Relaxed)).to_vec()
                    }
                    _ = ping.tick() => {
                        if sink.send(Message::Ping(Default::default())).await.is_err() {
                            return End::PageClosed;
                        }
                        continue;
                    }
                };
                for line in lines {
                    if sink.send(Message::Text(line.into())).await.is_err() {
                        return End::PageClosed;
                    }
                }
            }
        };
        let idle = async {
            quiet_for(started, &last_said, page.limits.idle).await;
            End::Idle
        };
        // Every relayed command is answered in time.
        let deadline = async {
            loop {
                match unanswered.oldest() {
                    Some((id, at)) => {
                        if at + limits.answer <= Instant::now() {
                            return End::NoAnswer(id);
                        }
                        tokio::time::sleep_until(at + limits.answer).await;
                    }
                    None => unanswered.added.notified().await,
                }
            }
        };
        // The page is there: it sends a frame (a pong at least) within the ping timeout.
        let alive = async {
            quiet_for(started, &last_heard, limits.ping_timeout).await;
            End::Silent
        };
        tokio::select! {
            e = to_engine => e,
            e = to_page => e,
            e = idle => e,
            e = deadline => e,
            e = alive => e,
        }
    };

    let peer = &page.peer;
    let pid = engine.pid();
    let refused = refused.load(Ordering::Relaxed);
    if refused > REFUSALS_LOGGED {
        log::warn!("{peer}: refused {refused} commands in all (the first {REFUSALS_LOGGED} are logged)");
    }
    let (code, why) = match end {
        End::PageClosed => {
            // Completes the closing handshake the page began, or finds the socket gone.
            let _ = timeout(CLOSE_TIMEOUT, sink.close()).await;
            engine.end(true).await;
            log::info!("{peer}: the page closed; engine (pid {pid}) ended after {:?}", started.elapsed());
            drop((permit, held));
            return;
        }
        End::Page(code, why) => {
            log::warn!("{peer}: closed ({}): {why}", code as u16);
            engine.end(true).await;
            (code, why)
        }
        End::Idle => {
            let secs = page.limits.idle.as_secs();
            log::info!("{peer}: idle for {secs} s; ending engine (pid {pid})");
            engine.end(true).await;
            let why = format!("the engine was ended after {secs} s without a command; reconnect to go on");
            (CloseReason::Idle, why)
        }
        End::NoAnswer(id) => {
            let secs = limits.answer.as_secs_f64();
            log::warn!(
                "{peer}: the engine (pid {pid}) did not answer command {id} within {secs} s; ending it"
            );
            engine.end(false).await;
            let why = format!(
                "the engine did not answer a command within {secs} s (--answer-timeout) and was ended; reconnect to go on"
            );
            (CloseReason::NoAnswer, why)
        }
        End::Silent => {
            let secs = limits.ping_timeout.as_secs_f64();
            log::info!("{peer}: no frame from the page for {secs} s; ending engine (pid {pid})");
            engine.end(true).await;
            (CloseReason::PageSilent, format!("the page answered no ping for {secs} s"))
        }
        End::EngineExited => {
            let exit = engine.wait_exit().await;
            let (code, why) = match exit {
                Exit::NotFound(status) if !printed.load(Ordering::Relaxed) => (
                    CloseReason::EngineNotStarted,
                    format!("cannot start the engine: the shell could not run it (status {status})"),
                ),
                exit => (CloseReason::EngineExited, exit.to_string()),
            };
            log::info!("{peer}: engine (pid {pid}) ended: {why}");
            (code, why)
        }
        End::EngineLineTooLong => {
            engine.end(false).await;
            let why = format!("the engine printed a line longer than {MAX_ENGINE_LINE} bytes");
            log::warn!("{peer}: engine (pid {pid}): {why}");
            (CloseReason::EngineLineTooLong, why)
        }
    };
    drop((permit, held));
    close(&mut sink, code, &why).await;
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Returns once `limit` has passed since the time `last` holds (milliseconds since `started`), the
/// time moved on by whoever stores a later one meanwhile.
async fn quiet_for(started: Instant, last: &AtomicU64, limit: Duration) {
    loop {
        let deadline = started + Duration::from_millis(last.load(Ordering::Relaxed)) + limit;
        if deadline <= Instant::now() {
            return;
        }
        tokio::time::sleep_until(deadline).await;
    }
}

/// The page sent more than a line: too large a frame, or a message one byte over without its `\r`.
fn line_too_long() -> End {
    End::Page(CloseReason::LineTooLong, format!("the page sent a line longer than {} bytes", super::MAX_LINE))
}

/// The socket failed: why, by what tungstenite says.
fn socket_error(e: axum::Error) -> End {
    use tungstenite::error::ProtocolError as P;
    use tungstenite::Error as E;
    let inner = e.into_inner();
    match inner.downcast_ref::<E>() {
        Some(E::Capacity(_)) => line_too_long(),
        Some(E::Utf8(_)) => {
            End::Page(CloseReason::NotUtf8, "a text message or close reason that is not UTF-8".into())
        }
        Some(E::Protocol(P::ResetWithoutClosingHandshake)) | None => End::PageClosed,
        Some(E::Protocol(p)) => {
            End::Page(CloseReason::ProtocolError, format!("WebSocket protocol error: {p}"))
        }
        Some(_) => End::PageClosed,
    }
}

enum Line {
    Text(String),
    TooLong,
    Closed,
}

/// One line of engine output, without its `\n` (and a `\r` before it); not UTF-8 is replaced.
/// Cancel safe: what a cancelled call read stays in `buf` for the next.
async fn read_line(reader: &mut BufReader<ChildStdout>, buf: &mut Vec<u8>) -> Line {
    let room = (MAX_ENGINE_LINE + 1).saturating_sub(buf.len()) as u64;
    match reader.take(room).read_until(b'\n', buf).await {
        Ok(0) | Err(_) => Line::Closed,
        Ok(_) if buf.len() > MAX_ENGINE_LINE => Line::TooLong,
        Ok(_) if buf.last() != Some(&b'\n') => Line::Closed,
        Ok(_) => {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            let line = String::from_utf8_lossy(buf).into_owned();
            buf.clear();
            Line::Text(line)
        }
    }
}

/// Sends a close frame and ends the socket, within [`CLOSE_TIMEOUT`].
async fn close(sink: &mut Sink, reason: CloseReason, why: &str) {
    // A close reason is at most 123 bytes.
    let mut text = why.to_string();
    while text.len() > 123 {
        text.pop();
    }
    let frame = CloseFrame { code: reason as u16, reason: Utf8Bytes::from(text) };
    let _ = timeout(CLOSE_TIMEOUT, async {
        let _ = sink.send(Message::Close(Some(frame))).await;
        let _ = sink.close().await;
    })
    .await;
}
