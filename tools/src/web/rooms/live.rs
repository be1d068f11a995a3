//! A room in play on this server: one task per active room that owns the room's engine process,
//! rebuilds the game from the room's log when the room is first joined, draws, plays the
//! computer seats, takes the people's moves, and sends each socket of the room the view of its
//! seat. It decides the order of what is durable and what is said: every command the engine
//! accepts is appended to the store before any socket hears of it, so what anyone saw survives a
//! `kill -9` of the server, and the log never holds a command twice (its `seq` is checked).
//!
//! Nothing the engine prints is relayed but the payload of a `next` the seat to move asked for,
//! to that seat's socket only: the sockets get [`view_of`] a position and the server's own words.
//! The engine's answers to `draw` and `go` (which name the mover's tiles) are read here and never
//! sent on.
//!
//! The engine speaks protocol version 2 here, as the log's lines replay on (store.rs).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::ChildStdout;
use tokio::sync::{mpsc, oneshot, OwnedSemaphorePermit, Semaphore};
use zatre::rules::{Phase, Position};

use super::room::{view_of, RoomState, SeatKind, Step, Table, Viewer};
use super::store::{draw_command, RoomId, Store};
use crate::web::engine::{Engine, Groups};

/// How long the engine has to answer a command that is not a search.
const ANSWER: Duration = Duration::from_secs(10);

/// What a socket is told: a text message, or the end of the connection.
#[derive(Debug)]
pub enum Out {
    Text(String),
    Close(u16, String),
}

/// Close codes of a room's WebSocket (docs/rooms.md).
pub mod code {
    /// `--max-engines` engines run already: the room's engine cannot start now.
    pub const TOO_MANY_ENGINES: u16 = 4002;
    /// The link is not valid (a wrong or stale token, or another room's).
    pub const BAD_LINK: u16 = 4020;
    /// The first message was not `join <token>`, or it did not come in time.
    pub const NO_JOIN: u16 = 4021;
    /// The room has as many people's or watchers' sockets as the limits allow.
    pub const ROOM_FULL: u16 = 4022;
    /// The room cannot go on here: its database or its engine failed.
    pub const ROOM_FAILED: u16 = 4023;
    /// No frame from the socket (not even a pong) for `--ping-timeout`.
    pub const SILENT: u16 = 4010;
}

/// A message to a room's task.
pub enum Cmd {
    /// A socket joins as `viewer`; the answer is its member number, or why it may not join.
    Join { viewer: Viewer, out: mpsc::UnboundedSender<Out>, answer: oneshot::Sender<Result<u64, Out>> },
    /// A socket sends a message after its `join`.
    Said { member: u64, text: String },
    /// A socket is gone.
    Left { member: u64 },
}

/// What every room's task shares.
pub struct Service {
    pub store: Arc<Mutex<Store>>,
    pub engine: String,
    pub groups: Groups,
    pub slots: Arc<Semaphore>,
    pub max_people: usize,
    pub max_watchers: usize,
    /// A socket is pinged this often (`--ping-interval`) and closed (4010) when it sent no frame
    /// for `ping_timeout` (`--ping-timeout`), so that `connected` tells who is there.
    pub ping_interval: Duration,
    pub ping_timeout: Duration,
    /// The tasks of the active rooms.
    pub active: Mutex<HashMap<RoomId, mpsc::UnboundedSender<Cmd>>>,
}

/// Locks a mutex whose data stays valid when a holder panicked (a store, a map of senders).
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Service {
    /// Sends `cmd` to the room's task, starting it first if the room is not active.
    pub fn send(self: &Arc<Self>, room: RoomId, mut cmd: Cmd) {
        // A task that has just ended drops its receiver: the second try starts a new one.
        for _ in 0..2 {
            let tx = {
                let mut active = lock(&self.active);
                active
                    .entry(room)
                    .or_insert_with(|| {
                        let (tx, rx) = mpsc::unbounded_channel();
                        tokio::spawn(run(self.clone(), room, rx));
                        tx
                    })
                    .clone()
            };
            match tx.send(cmd) {
                Ok(()) => return,
                Err(mpsc::error::SendError(back)) => {
                    cmd = back;
                    let mut active = lock(&self.active);
                    if active.get(&room).is_some_and(|t| t.same_channel(&tx)) {
                        active.remove(&room);
                    }
                }
            }
        }
    }
}

/// The engine's answer to one command: its payload lines, or its error line.
enum Answer {
    Done(Vec<String>),
    Refused(String),
}

/// A room's engine, spoken to one command at a time.
struct Link {
    engine: Engine,
    lines: Lines<BufReader<ChildStdout>>,
    next_id: u64,
    _permit: OwnedSemaphorePermit,
}

impl Link {
    /// Starts `engine` when one of `slots` is free.
    fn start(engine: &str, groups: &Groups, slots: &Arc<Semaphore>) -> Result<Link, Out> {
        let permit = slots.clone().try_acquire_owned().map_err(|_| {
            Out::Close(
                code::TOO_MANY_ENGINES,
                "the server runs as many engines as it may: try again later".into(),
            )
        })?;
        let failed = |e: std::io::Error| {
            log::error!("cannot start a room's engine: {e}");
            Out::Close(code::ROOM_FAILED, "the room's engine cannot be started".into())
        };
        let mut engine = Engine::start(engine, groups).map_err(failed)?;
        let stdout = engine.take_stdout().ok_or_else(|| failed(std::io::ErrorKind::BrokenPipe.into()))?;
        Ok(Link { engine, lines: BufReader::new(stdout).lines(), next_id: 1, _permit: permit })
    }

    /// Sends `command` and reads its answer within `limit`; `info` lines are skipped. After an
    /// error the link is out of step with its engine (an answer may be left unread): the room
    /// ends it.
    async fn ask(&mut self, command: &str, limit: Duration) -> Result<Answer, String> {
        let id = self.next_id;
        self.next_id += 1;
        if !self.engine.push_line(format!("{id} {command}").as_bytes()) {
            return Err("the engine takes no more lines".into());
        }
        let exchange = async {
            while self.engine.has_waiting() {
                self.engine.write_some().await.map_err(|e| format!("the engine's input: {e}"))?;
            }
            let (done, refused) = (format!("={id}"), format!("?{id}"));
            let mut answer: Option<Answer> = None;
            loop {
                let line = match self.lines.next_line().await {
                    Ok(Some(line)) => line,
                    Ok(None) => return Err("the engine closed its output".to_string()),
                    Err(e) => return Err(format!("the engine's output: {e}")),
                };
                match answer.as_mut() {
                    None if line.starts_with("info ") => {}
                    None => {
                        let payload =
                            |prefix: &str| line.strip_prefix(prefix).map(|r| r.trim_start().to_string());
                        answer = match (payload(&done), payload(&refused)) {
                            (Some(p), _) if line == done || line.starts_with(&format!("{done} ")) => {
                                Some(Answer::Done(vec![p]))
                            }
                            (_, Some(p)) if line.starts_with(&format!("{refused} ")) => {
                                Some(Answer::Refused(p))
                            }
                            _ => return Err(format!("an answer of another command: {line}")),
                        };
                    }
                    Some(_) if line.is_empty() => {
                        return Ok(answer.take().unwrap_or(Answer::Refused(String::new())))
                    }
                    Some(Answer::Done(lines)) => lines.push(line),
                    Some(Answer::Refused(_)) => {}
                }
            }
        };
        match tokio::time::timeout(limit, exchange).await {
            Ok(result) => result,
            Err(_) => Err(format!(
                "the engine did not answer `{}` in time",
                command.split(' ').next().unwrap_or("")
            )),
        }
    }

    /// Sends `command`, which must be accepted; its first payload line.
    async fn must(&mut self, command: &str, limit: Duration) -> Result<String, String> {
        match self.ask(command, limit).await? {
            Answer::Done(lines) => Ok(lines.into_iter().next().unwrap_or_default()),
            Answer::Refused(why) => Err(format!("the engine refused `{command}`: {why}")),
        }
    }

    /// The engine's position, read by the engine's own parser.
    async fn position(&mut self) -> Result<Position, String> {
        let line = self.must("position", ANSWER).await?;
        Position::from_line(&line).map_err(|e| format!("the engine's position line: {e}"))
    }
}

struct Member {
    viewer: Viewer,
    out: mpsc::UnboundedSender<Out>,
}

/// A room in play: its table, its engine, the game as the engine last said, who is connected.
struct Live {
    service: Arc<Service>,
    room: RoomId,
    table: Table,
    link: Link,
    position: Position,
    /// How many commands the log holds: the `seq` of the next.
    logged: u64,
    members: HashMap<u64, Member>,
    next_member: u64,
}

/// Why a room stops: said to every socket of the room.
type Failure = String;

impl Live {
    /// Loads the room, starts its engine and replays the log into it.
    async fn open(service: Arc<Service>, room: RoomId) -> Result<Live, Out> {
        let failed = |what: String| {
            log::error!("room {room}: {what}");
            Out::Close(
                code::ROOM_FAILED,
                "this room's game cannot go on: the server failed to rebuild it".into(),
            )
        };
        let stored = lock(&service.store).load_room(room).map_err(|e| failed(e.to_string()))?;
        let mut link = Link::start(&service.engine, &service.groups, &service.slots)?;
        let newgame = if stored.newgame.is_empty() {
            "newgame".to_string()
        } else {
            format!("newgame {}", stored.newgame)
        };
        link.must(&newgame, ANSWER).await.map_err(failed)?;
        for command in &stored.log {
            link.must(command, ANSWER).await.map_err(failed)?;
        }
        let position = link.position().await.map_err(failed)?;
        log::info!("room {room}: rebuilt from {} logged command(s)", stored.log.len());
        Ok(Live {
            table: stored.table,
            link,
            position,
            logged: stored.log.len() as u64,
            members: HashMap::new(),
            next_member: 1,
            room,
            service,
        })
    }

    /// Appends an accepted command to the log, then reads the engine's new position.
    async fn accepted(&mut self, command: &str) -> Result<(), Failure> {
        let now = SystemTime::now();
        lock(&self.service.store)
            .append(self.room, self.logged, command, now)
            .map_err(|e| format!("the database refused the move: {e}"))?;
        self.logged += 1;
        self.position = self.link.position().await?;
        if self.position.phase() == Phase::Over && self.table.state == RoomState::Open {
            lock(&self.service.store)
                .set_state(self.room, RoomState::Finished, now)
                .map_err(|e| format!("the database: {e}"))?;
            self.table.state = RoomState::Finished;
            log::info!("room {}: the game is over", self.room);
        }
        Ok(())
    }

    /// Does what the server does until a person is to move or nothing is left to do, telling
    /// every socket after each accepted command.
    async fn advance(&mut self) -> Result<(), Failure> {
        loop {
            match self.table.next_step(&self.position) {
                Step::Nothing | Step::Person { .. } => return Ok(()),
                Step::Draw { seat } => {
                    let before = *self.position.hand(usize::from(seat) - 1);
                    self.link.must("draw", ANSWER).await?;
                    // What the engine drew: the hand after, less what the seat kept. Only the
                    // values go in the log, so a replay draws the same.
                    let after = self.link.position().await?;
                    let mut drawn = *after.hand(usize::from(seat) - 1);
                    drawn.remove_all(&before);
                    let values: Vec<u8> = drawn.values().collect();
                    self.accepted(&draw_command(&values)).await?;
                }
                Step::Computer { strategy, movetime_ms, .. } => {
                    self.link
                        .must(&format!("setoption name Strategy value {}", strategy.name()), ANSWER)
                        .await?;
                    let limit = Duration::from_millis(u64::from(movetime_ms)) + ANSWER;
                    let best = self.link.must(&format!("go movetime {}", movetime_ms.max(1)), limit).await?;
                    let mv = best
                        .strip_prefix("bestmove ")
                        .and_then(|rest| rest.split(' ').next())
                        .ok_or_else(|| format!("the engine's answer to go: {best}"))?
                        .to_string();
                    let command = format!("place {mv}");
                    self.link.must(&command, ANSWER).await?;
                    self.accepted(&command).await?;
                }
            }
            self.tell_all();
        }
    }

    /// Which seats have a socket now.
    fn connected(&self) -> Vec<bool> {
        (1..=self.table.seats.len() as u8)
            .map(|s| self.members.values().any(|m| m.viewer == Viewer::Seat(s)))
            .collect()
    }

    /// The message that tells `viewer` where the game stands.
    fn view(&self, viewer: Viewer) -> String {
        let p = &self.position;
        let phase = match p.phase() {
            Phase::Draw => "draw",
            Phase::Place => "place",
            Phase::Over => "over",
        };
        let tomove = p.to_move() + 1;
        let yours = viewer == Viewer::Seat(tomove as u8) && self.table.may_play(viewer, p).is_ok();
        json!({
            "kind": "view",
            "seq": self.logged,
            "state": self.table.state.name(),
            "phase": phase,
            "turn": p.turn(),
            "tomove": tomove,
            "yours": yours,
            "connected": self.connected(),
            "position": view_of(p, viewer),
        })
        .to_string()
    }

    fn tell_all(&self) {
        for member in self.members.values() {
            let _ = member.out.send(Out::Text(self.view(member.viewer)));
        }
    }

    fn refuse(&self, member: u64, reason: &str) {
        if let Some(m) = self.members.get(&member) {
            let _ = m.out.send(Out::Text(json!({"kind": "refused", "reason": reason}).to_string()));
        }
    }

    fn join(&mut self, viewer: Viewer, out: mpsc::UnboundedSender<Out>) -> Result<u64, Out> {
        let (most, what) = match viewer {
            Viewer::Watcher => (self.service.max_watchers, "watchers"),
            Viewer::Seat(_) => (self.service.max_people, "people"),
        };
        let same = |m: &&Member| (m.viewer == Viewer::Watcher) == (viewer == Viewer::Watcher);
        if self.members.values().filter(same).count() >= most {
            return Err(Out::Close(
                code::ROOM_FULL,
                format!("this room has {most} {what} connected already"),
            ));
        }
        let id = self.next_member;
        self.next_member += 1;
        let seat = match viewer {
            Viewer::Seat(s) => json!(s),
            Viewer::Watcher => json!(null),
        };
        let seats: Vec<serde_json::Value> = self
            .table
            .seats
            .iter()
            .map(|k| match k {
                SeatKind::Person => json!({"kind": "person"}),
                SeatKind::Computer { strategy, movetime_ms } => {
                    json!({"kind": "computer", "strategy": strategy.name(), "movetime": movetime_ms})
                }
            })
            .collect();
        let _ = out.send(Out::Text(
            json!({"kind": "welcome", "room": self.room.0, "seat": seat, "seats": seats}).to_string(),
        ));
        self.members.insert(id, Member { viewer, out });
        Ok(id)
    }

    /// A person's message: a move on the seat's turn, or a refusal that changes nothing.
    async fn said(&mut self, member: u64, text: &str) -> Result<(), Failure> {
        let Some(viewer) = self.members.get(&member).map(|m| m.viewer) else { return Ok(()) };
        let (verb, mv) = match text.split_once(' ') {
            Some(("place", mv)) => ("place", mv),
            Some(("next", placements)) => ("next", placements),
            None if text == "pass" => ("place", "pass"),
            None if text == "next" => ("next", ""),
            _ => {
                self.refuse(
                    member,
                    "a seat sends `place <move>`, `pass` or `next [<placements>]`, nothing else",
                );
                return Ok(());
            }
        };
        if verb == "next" {
            return self.next(member, viewer, mv).await;
        }
        if mv.is_empty() || !(mv == "pass" || placements_ok(mv)) {
            self.refuse(member, "a move is `<value>@<cell>,...` or `pass`");
            return Ok(());
        }
        if let Err(why) = self.table.may_play(viewer, &self.position) {
            self.refuse(member, &why.to_string());
            return Ok(());
        }
        let command = format!("place {mv}");
        match self.link.ask(&command, ANSWER).await? {
            // The engine's message is for the mover only: it may name the mover's hand.
            Answer::Refused(why) => {
                self.refuse(member, &why);
                Ok(())
            }
            Answer::Done(_) => {
                self.accepted(&command).await?;
                self.tell_all();
                self.advance().await
            }
        }
    }
}

impl Live {
    /// `next [<placements>]` from the seat to move: the engine's `next` for the seat's own hand,
    /// told to that socket only (it names only the mover's tiles and cells), or a refusal.
    async fn next(&mut self, member: u64, viewer: Viewer, placements: &str) -> Result<(), Failure> {
        if !placements_ok(placements) {
            self.refuse(member, "`next` takes placements `<value>@<cell>,...` or nothing");
            return Ok(());
        }
        if let Err(why) = self.table.may_play(viewer, &self.position) {
            self.refuse(member, &why.to_string());
            return Ok(());
        }
        let command = if placements.is_empty() { "next".to_string() } else { format!("next {placements}") };
        let answer = match self.link.ask(&command, ANSWER).await? {
            Answer::Done(lines) => json!({"kind": "next", "placements": placements, "lines": lines}),
            Answer::Refused(why) => {
                json!({"kind": "refused", "reason": why, "next": placements})
            }
        };
        if let Some(m) = self.members.get(&member) {
            let _ = m.out.send(Out::Text(answer.to_string()));
        }
        Ok(())
    }
}

/// Whether `text` is placements as far as a socket may send them: at most 200 bytes of values,
/// cells, `@` and `,` (the engine checks the rest).
fn placements_ok(text: &str) -> bool {
    text.len() <= 200
        && text.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase() || b == b'@' || b == b',')
}

/// A room's task: opens the room when its first socket joins, and ends (with its engine) when
/// the last one leaves or the room fails.
async fn run(service: Arc<Service>, room: RoomId, mut rx: mpsc::UnboundedReceiver<Cmd>) {
    let mut live: Option<Live> = None;
    while let Some(cmd) = rx.recv().await {
        let result = match cmd {
            Cmd::Join { viewer, out, answer } => {
                if live.is_none() {
                    match Live::open(service.clone(), room).await {
                        Ok(l) => live = Some(l),
                        Err(why) => {
                            let _ = answer.send(Err(why));
                            break;
                        }
                    }
                }
                let Some(l) = live.as_mut() else { break };
                match l.join(viewer, out) {
                    Ok(id) => {
                        let _ = answer.send(Ok(id));
                        l.tell_all();
                        let first = l.members.len() == 1;
                        if first {
                            l.advance().await
                        } else {
                            Ok(())
                        }
                    }
                    Err(why) => {
                        let _ = answer.send(Err(why));
                        Ok(())
                    }
                }
            }
            Cmd::Said { member, text } => match live.as_mut() {
                Some(l) => l.said(member, &text).await,
                None => Ok(()),
            },
            Cmd::Left { member } => match live.as_mut() {
                Some(l) => {
                    l.members.remove(&member);
                    l.tell_all();
                    Ok(())
                }
                None => Ok(()),
            },
        };
        if let Err(why) = result {
            log::error!("room {room}: {why}");
            if let Some(l) = &live {
                for m in l.members.values() {
                    let reason = "this room's game cannot go on here: the server failed; open the link again";
                    let _ = m.out.send(Out::Close(code::ROOM_FAILED, reason.into()));
                }
            }
            break;
        }
        // No socket left (or none ever joined: a message from a socket of an ended task).
        if live.as_ref().is_none_or(|l| l.members.is_empty()) {
            break;
        }
    }
    // Deregistered before the engine ends, so a new socket starts a fresh task; messages that
    // came meanwhile are answered as a failed join (the socket tries again) or dropped.
    {
        let mut active = lock(&service.active);
        active.remove(&room);
    }
    rx.close();
    while let Ok(cmd) = rx.try_recv() {
        if let Cmd::Join { viewer, out, answer } = cmd {
            // Hand it to a new task.
            let (tx, back) = oneshot::channel();
            service.send(room, Cmd::Join { viewer, out, answer: tx });
            tokio::spawn(async move {
                if let Ok(result) = back.await {
                    let _ = answer.send(result);
                }
            });
        }
    }
    if let Some(l) = live {
        l.link.engine.end(true).await;
    }
}

/// Checks a new room's `newgame` arguments on an engine: the engine takes them, they set no
/// `seed` (whoever knew it would know every draw), and the game has one player per seat.
///
/// # Errors
/// Why the room cannot be made, for the person who asked.
pub async fn check_newgame(service: &Service, args: &str, seats: usize) -> Result<(), Out> {
    if args.len() > 1000 || args.chars().any(char::is_control) {
        return Err(Out::Text("newgame's arguments are one line of at most 1000 bytes".into()));
    }
    if args.split_whitespace().any(|w| w == "seed") {
        return Err(Out::Text("a room's draws are the server's: newgame takes no seed here".into()));
    }
    let mut link = Link::start(&service.engine, &service.groups, &service.slots)?;
    let newgame = if args.is_empty() { "newgame".to_string() } else { format!("newgame {args}") };
    let result = match link.ask(&newgame, ANSWER).await {
        Ok(Answer::Done(_)) => match link.position().await {
            Ok(p) if usize::from(p.rules().players) == seats => Ok(()),
            Ok(p) => Err(Out::Text(format!(
                "the game has {} player(s) and the room {seats} seat(s): give one seat per player",
                p.rules().players
            ))),
            Err(e) => Err(Out::Close(code::ROOM_FAILED, e)),
        },
        Ok(Answer::Refused(why)) => Err(Out::Text(format!("newgame: {why}"))),
        Err(e) => Err(Out::Close(code::ROOM_FAILED, e)),
    };
    link.engine.end(true).await;
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine of canned answers: an `info` line before a `go`'s, a refusal, a payload of two
    /// lines, an answer with another id, and silence.
    const CANNED: &str = r#"while read -r id rest; do case "$rest" in
        go*) printf 'info depth 1\n=%s bestmove 5@h8 score 1\n\n' "$id";;
        bad*) printf '?%s illegal_move not_in_hand the hand 12 holds no 5\n\n' "$id";;
        multi*) printf '=%s a\nb\n\n' "$id";;
        wrong*) printf '=999\n\n';;
        hang*) sleep 5;;
        *) printf '=%s\n\n' "$id";;
    esac; done"#;

    fn canned(slots: &Arc<Semaphore>) -> Result<Link, Out> {
        Link::start(CANNED, &Groups::default(), slots)
    }

    #[tokio::test]
    async fn answers_are_matched_to_their_command() {
        let slots = Arc::new(Semaphore::new(1));
        let Ok(mut link) = canned(&slots) else { panic!("the engine starts") };
        // The one slot is taken: no second engine.
        assert!(matches!(canned(&slots).err(), Some(Out::Close(code::TOO_MANY_ENGINES, _))));
        let second = Duration::from_secs(1);
        assert_eq!(link.must("go movetime 5", second).await, Ok("bestmove 5@h8 score 1".to_string()));
        match link.ask("bad", second).await {
            Ok(Answer::Refused(why)) => assert_eq!(why, "illegal_move not_in_hand the hand 12 holds no 5"),
            _ => panic!("a refusal"),
        }
        match link.ask("multi", second).await {
            Ok(Answer::Done(lines)) => assert_eq!(lines, vec!["a", "b"]),
            _ => panic!("two lines"),
        }
        assert_eq!(link.must("isready", second).await, Ok(String::new()));
        // After an error the link is out of step with its engine: the room ends it.
        let wrong = link.ask("wrong", second).await.err().unwrap_or_default();
        assert!(wrong.contains("another command"), "{wrong}");
        link.engine.end(false).await;
        let Ok(mut link_b) = canned(&Arc::new(Semaphore::new(1))) else { panic!("the engine starts") };
        let hang = link_b.ask("hang", Duration::from_millis(100)).await.err().unwrap_or_default();
        assert!(hang.contains("did not answer `hang` in time"), "{hang}");
        link_b.engine.end(false).await;
    }
}
