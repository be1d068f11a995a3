//! The rooms database: an embedded SQLite file that holds every room, its seats, the hashes of
//! its tokens and the log of the engine commands it accepted. It decides the schema, what is
//! durable when, and what a file must be for the server to start on it.
//!
//! Durability: the file is in WAL mode with `synchronous=FULL`, so a transaction is on the disk
//! when its commit returns; [`Store::append`] commits each accepted command on its own, and the
//! server tells nobody of a command before it returns. After `kill -9` the game is rebuilt by
//! giving a fresh engine the room's `newgame` arguments and then its log in order. For that the
//! log holds each command in a form that replays the same way on any engine of the same rules: a
//! draw with the values drawn (`draw 3 5 5`, which protocol versions 2 and 3 both read), never a
//! bare `draw` whose values would come from the engine's generator (but where the rules call for
//! no tile); a move as it was accepted (`place 5@h8,6@h9,6@i9`, `place pass`).
//!
//! No move is played twice: a command carries its number in the log (`seq`, the count of commands
//! before it), and [`Store::append`] refuses any number but the next, in the same transaction as
//! the insert, so two writers that raced (a page that reconnected and sent its move again) cannot
//! both succeed.
//!
//! Schema (version 1, in `PRAGMA user_version`; `PRAGMA application_id` marks the file as
//! zatre's, so another program's database is refused rather than written into):
//! - `rooms`: `id` (sequential, never reused, so a stale page of a removed room finds nothing
//!   rather than another room), `created` and `updated` (seconds since the Unix epoch), `state`
//!   (`open`, `finished`, `abandoned`), `newgame` (the arguments of the engine's `newgame`) and
//!   `client` (the key of the client that created it, for the hourly limit). The id is no secret:
//!   it names the room in its address, for a proxy to route by; the tokens are the keys.
//! - `seats`: per room and seat (from 1) who plays it: `person`, or `computer` with a strategy
//!   and a time per move.
//! - `tokens`: the SHA-256 of each seat's token and of the room's watchers' token (`seat` null),
//!   looked up by hash; a seat handed to the computer loses its token.
//! - `log`: per room and `seq` the command.
//!
//! The store checks that a command is one line, not that the rules allow it: the engine has
//! accepted it before it is logged. The client key that made a room is kept as long as the room,
//! for the hourly limit, and goes with it.
//!
//! A file that SQLite cannot open, that is not SQLite, that is another program's database or a
//! newer schema, or that cannot be written, is an error of [`Store::open`] naming the path, so the
//! server refuses to start rather than lose a game later. A row that breaks the schema's rules
//! (a state or seat kind it does not know, a gap in the seats or the log) is a
//! [`StoreError::Corrupt`], never a panic.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, ErrorCode, OptionalExtension, TransactionBehavior, MAIN_DB};
use thiserror::Error;
use zatre::rules::Move;
use zatre::search::Strategy;

use super::room::{RoomState, SeatKind, Table, Viewer, MAX_SEATS};
use super::token::{SeatToken, TokenError, TokenHash};
use crate::web::MAX_LINE;

/// The schema this code writes and reads.
pub const SCHEMA_VERSION: i64 = 1;

/// `PRAGMA application_id` of a rooms database: "ZATR" in ASCII.
pub const APPLICATION_ID: i64 = 0x5a41_5452;

/// How long a statement waits for another connection's lock before it fails.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

const SCHEMA: &str = "
CREATE TABLE rooms (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    state TEXT NOT NULL,
    newgame TEXT NOT NULL,
    client TEXT NOT NULL
);
CREATE INDEX rooms_by_client ON rooms (client, created);
CREATE INDEX rooms_by_state ON rooms (state, updated);
CREATE TABLE seats (
    room INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    strategy TEXT,
    movetime INTEGER,
    PRIMARY KEY (room, seat)
) WITHOUT ROWID;
CREATE TABLE tokens (
    hash BLOB PRIMARY KEY,
    room INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    seat INTEGER
) WITHOUT ROWID;
CREATE INDEX tokens_by_room ON tokens (room);
CREATE TABLE log (
    room INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    command TEXT NOT NULL,
    PRIMARY KEY (room, seq)
) WITHOUT ROWID;
";

/// A room's number in the database and its address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomId(pub i64);

impl std::fmt::Display for RoomId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What went wrong with the rooms database.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot open the rooms database {}: {source}", path.display())]
    Open { path: PathBuf, source: rusqlite::Error },
    #[error("{} is not a SQLite database", path.display())]
    NotADatabase { path: PathBuf },
    #[error("{} is a database of another program, not zatre-web's rooms", path.display())]
    NotRooms { path: PathBuf },
    #[error("{} holds rooms of schema version {found}, newer than this program's {SCHEMA_VERSION}: run a newer zatre-web, or give another file", path.display())]
    NewerSchema { path: PathBuf, found: i64 },
    #[error("the rooms database {} cannot be written", path.display())]
    ReadOnly { path: PathBuf },
    #[error("the rooms database {} cannot use write-ahead logging (journal mode {mode})", path.display())]
    NoWal { path: PathBuf, mode: String },
    #[error("there is no room {0}")]
    NoSuchRoom(RoomId),
    #[error("room {room} has no seat {seat}")]
    NoSuchSeat { room: RoomId, seat: u8 },
    #[error("seat {seat} of room {room} is not played by a person")]
    NotAPerson { room: RoomId, seat: u8 },
    #[error("room {room} is {state}: it takes no more commands")]
    Closed { room: RoomId, state: RoomState },
    #[error("command {got} of room {room} is not the next: the next is {expected}")]
    OutOfOrder { room: RoomId, expected: u64, got: u64 },
    #[error(
        "a command or newgame's arguments must be one line of printable text of at most {MAX_LINE} bytes"
    )]
    BadLine,
    #[error("a room has 1 to {MAX_SEATS} seats, not {0}")]
    SeatCount(usize),
    #[error("the rooms database holds a bad row of room {room}: {what}")]
    Corrupt { room: RoomId, what: String },
    #[error("the rooms database failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error(transparent)]
    Token(#[from] TokenError),
}

/// A room as the database holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    pub id: RoomId,
    pub created: SystemTime,
    pub updated: SystemTime,
    /// Its state and who plays each seat.
    pub table: Table,
    /// The arguments of the engine's `newgame`.
    pub newgame: String,
    /// The accepted commands, in order: `log[seq]`.
    pub log: Vec<String>,
}

/// A room just made, with the tokens for its links: the only time they are known in full.
#[derive(Debug)]
pub struct NewRoom {
    pub id: RoomId,
    /// The token of each person's seat, by seat number.
    pub seats: Vec<(u8, SeatToken)>,
    /// The watchers' token.
    pub watchers: SeatToken,
}

/// Whom a token lets in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub room: RoomId,
    pub viewer: Viewer,
}

/// The rooms database.
pub struct Store {
    conn: Connection,
}

/// Seconds since the epoch, as stored (0 for a time before it).
fn seconds(time: SystemTime) -> i64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The time of a stored number of seconds; `None` for one before the epoch or beyond what the
/// system's clock can hold (a damaged row).
fn time_of(seconds: i64) -> Option<SystemTime> {
    UNIX_EPOCH.checked_add(Duration::from_secs(u64::try_from(seconds).ok()?))
}

/// One line of printable text within the protocol's limit: what a command and `newgame`'s
/// arguments must be, so that each replays as one line.
fn check_line(text: &str) -> Result<(), StoreError> {
    if text.is_empty() || text.len() > MAX_LINE || text.chars().any(char::is_control) {
        return Err(StoreError::BadLine);
    }
    Ok(())
}

/// The log's line for a draw of `values`: `draw 3 5 5`, which protocol versions 2 and 3 both
/// read; `draw` alone for a draw of no tile, which then replays as the same empty draw.
pub fn draw_command(values: &[u8]) -> String {
    let mut line = String::from("draw");
    for value in values {
        line.push(' ');
        line.push_str(&value.to_string());
    }
    line
}

/// The log's line for a move the engine accepted: `place 5@h8,6@h9`, `place pass`.
pub fn place_command(mv: &Move) -> String {
    format!("place {mv}")
}

/// What a database file's header and schema say it is.
struct Header {
    application_id: i64,
    user_version: i64,
    tables: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A new file, or a database with nothing in it.
    Empty,
    /// A rooms database of this schema.
    Rooms,
}

fn header(conn: &Connection) -> rusqlite::Result<Header> {
    Ok(Header {
        application_id: conn.pragma_query_value(None, "application_id", |r| r.get(0))?,
        user_version: conn.pragma_query_value(None, "user_version", |r| r.get(0))?,
        tables: conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?,
    })
}

impl Header {
    /// Whether the server may use the file.
    fn check(&self, path: &Path) -> Result<Kind, StoreError> {
        match (self.application_id, self.user_version) {
            (0, 0) if self.tables == 0 => Ok(Kind::Empty),
            (APPLICATION_ID, SCHEMA_VERSION) => Ok(Kind::Rooms),
            (APPLICATION_ID, found) if found > SCHEMA_VERSION => {
                Err(StoreError::NewerSchema { path: path.to_path_buf(), found })
            }
            _ => Err(StoreError::NotRooms { path: path.to_path_buf() }),
        }
    }
}

/// Puts the file in WAL mode and returns the mode it is in. Changing the mode takes the whole
/// file and SQLite does not wait for it (a server opening the same new file at once holds it for
/// a moment), so a busy file is asked again until [`BUSY_TIMEOUT`].
fn wal_mode(conn: &Connection) -> rusqlite::Result<String> {
    let started = Instant::now();
    loop {
        match conn.pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0)) {
            Err(e)
                if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy)
                    && started.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(Duration::from_millis(10));
            }
            answer => return answer,
        }
    }
}

impl Store {
    /// Opens the rooms database at `path`, creating it (and its schema) if it does not exist.
    ///
    /// # Errors
    /// A file that cannot be opened or written, is not SQLite, is another program's database or
    /// has a newer schema, or refuses WAL mode: each names `path`.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let at = || path.to_path_buf();
        let opened = |e: rusqlite::Error| match e.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => StoreError::NotADatabase { path: at() },
            Some(ErrorCode::ReadOnly) => StoreError::ReadOnly { path: at() },
            _ => StoreError::Open { path: at(), source: e },
        };
        let mut conn = Connection::open(path).map_err(opened)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(opened)?;
        // The first read of the file: this is where a file that is not SQLite shows. Nothing is
        // written before the file is known to be empty or a rooms database.
        // The header is read in one transaction: a server that makes the schema meanwhile is
        // seen all at once or not at all.
        let read = conn.transaction().map_err(opened)?;
        header(&read).map_err(opened)?.check(path)?;
        drop(read);
        if conn.is_readonly(MAIN_DB).map_err(opened)? {
            return Err(StoreError::ReadOnly { path: at() });
        }
        let mode = wal_mode(&conn).map_err(opened)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::NoWal { path: at(), mode });
        }
        conn.pragma_update(None, "synchronous", "FULL").map_err(opened)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(opened)?;
        // Writes the schema, or for a database that has it a header field again: either way the
        // file is written once here, so a file that cannot be is refused at the start. Checked
        // again under the write lock: another server may have made the schema meanwhile.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(opened)?;
        if header(&tx).map_err(opened)?.check(path)? == Kind::Empty {
            tx.execute_batch(SCHEMA).map_err(opened)?;
        }
        tx.pragma_update(None, "application_id", APPLICATION_ID).map_err(opened)?;
        tx.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(opened)?;
        tx.commit().map_err(opened)?;
        Ok(Store { conn })
    }

    /// Makes a room: its seats, a token for each person's seat and one for its watchers.
    ///
    /// # Errors
    /// No seat or more than [`MAX_SEATS`], `newgame` not one line, no random bytes, or SQLite.
    pub fn create_room(
        &mut self,
        newgame: &str,
        seats: &[SeatKind],
        client: &str,
        now: SystemTime,
    ) -> Result<NewRoom, StoreError> {
        if seats.is_empty() || seats.len() > MAX_SEATS {
            return Err(StoreError::SeatCount(seats.len()));
        }
        // `newgame` with no arguments is a whole command too.
        if !newgame.is_empty() {
            check_line(newgame)?;
        }
        let watchers = SeatToken::generate()?;
        let mut tokens = Vec::new();
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO rooms (created, updated, state, newgame, client) VALUES (?1, ?1, ?2, ?3, ?4)",
            params![seconds(now), RoomState::Open.name(), newgame, client],
        )?;
        let id = RoomId(tx.last_insert_rowid());
        tx.execute(
            "INSERT INTO tokens (hash, room, seat) VALUES (?1, ?2, NULL)",
            params![&watchers.hash().as_bytes()[..], id.0],
        )?;
        for (seat, kind) in (1u8..).zip(seats) {
            let (kind_name, strategy, movetime) = match *kind {
                SeatKind::Person => ("person", None, None),
                SeatKind::Computer { strategy, movetime_ms } => {
                    ("computer", Some(strategy.name()), Some(movetime_ms))
                }
            };
            tx.execute(
                "INSERT INTO seats (room, seat, kind, strategy, movetime) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id.0, seat, kind_name, strategy, movetime],
            )?;
            if *kind == SeatKind::Person {
                let token = SeatToken::generate()?;
                tx.execute(
                    "INSERT INTO tokens (hash, room, seat) VALUES (?1, ?2, ?3)",
                    params![&token.hash().as_bytes()[..], id.0, seat],
                )?;
                tokens.push((seat, token));
            }
        }
        tx.commit()?;
        Ok(NewRoom { id, seats: tokens, watchers })
    }

    /// Adds `command` to the room's log as number `seq`, which must be the next (the count of
    /// commands logged before it), and commits it.
    ///
    /// # Errors
    /// No such room, a room not open, a `seq` that is not the next, a command that is not one
    /// line, or SQLite (the command is then not logged).
    pub fn append(
        &mut self,
        room: RoomId,
        seq: u64,
        command: &str,
        now: SystemTime,
    ) -> Result<(), StoreError> {
        check_line(command)?;
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let state: Option<String> =
            tx.query_row("SELECT state FROM rooms WHERE id = ?1", [room.0], |r| r.get(0)).optional()?;
        let state = state.ok_or(StoreError::NoSuchRoom(room))?;
        let state = parse_state(room, &state)?;
        if state != RoomState::Open {
            return Err(StoreError::Closed { room, state });
        }
        let logged: i64 = tx.query_row("SELECT count(*) FROM log WHERE room = ?1", [room.0], |r| r.get(0))?;
        let expected = u64::try_from(logged).unwrap_or(0);
        if seq != expected {
            return Err(StoreError::OutOfOrder { room, expected, got: seq });
        }
        tx.execute(
            "INSERT INTO log (room, seq, command) VALUES (?1, ?2, ?3)",
            params![room.0, logged, command],
        )?;
        tx.execute("UPDATE rooms SET updated = ?2 WHERE id = ?1", params![room.0, seconds(now)])?;
        tx.commit()?;
        Ok(())
    }

    /// The room `room`, with its seats and its whole log.
    ///
    /// # Errors
    /// No such room, a row that breaks the schema's rules, or SQLite.
    pub fn load_room(&self, room: RoomId) -> Result<Room, StoreError> {
        let row = self
            .conn
            .query_row("SELECT created, updated, state, newgame FROM rooms WHERE id = ?1", [room.0], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?))
            })
            .optional()?;
        let (created, updated, state, newgame) = row.ok_or(StoreError::NoSuchRoom(room))?;
        let corrupt = |what: String| StoreError::Corrupt { room, what };
        let state = parse_state(room, &state)?;

        let mut seats = Vec::new();
        let mut statement = self
            .conn
            .prepare("SELECT seat, kind, strategy, movetime FROM seats WHERE room = ?1 ORDER BY seat")?;
        let rows = statement.query_map([room.0], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<i64>>(3)?,
            ))
        })?;
        for row in rows {
            let (seat, kind, strategy, movetime) = row?;
            if seat != seats.len() as i64 + 1 {
                return Err(corrupt(format!("seat {seat} where seat {} was due", seats.len() + 1)));
            }
            seats.push(match (kind.as_str(), strategy.as_deref(), movetime) {
                ("person", None, None) => SeatKind::Person,
                ("computer", Some(name), Some(ms)) => SeatKind::Computer {
                    strategy: Strategy::parse(name)
                        .ok_or_else(|| corrupt(format!("seat {seat}: no computer level '{name}'")))?,
                    movetime_ms: u32::try_from(ms)
                        .map_err(|_| corrupt(format!("seat {seat}: a time per move of {ms} ms")))?,
                },
                _ => {
                    return Err(corrupt(format!(
                        "seat {seat}: a seat kind '{kind}' with {strategy:?} and {movetime:?}"
                    )))
                }
            });
        }
        if seats.is_empty() || seats.len() > MAX_SEATS {
            return Err(corrupt(format!("{} seats", seats.len())));
        }

        let mut log = Vec::new();
        let mut statement = self.conn.prepare("SELECT seq, command FROM log WHERE room = ?1 ORDER BY seq")?;
        let rows = statement.query_map([room.0], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
        for row in rows {
            let (seq, command) = row?;
            if seq != log.len() as i64 {
                return Err(corrupt(format!("command {seq} of the log where command {} was due", log.len())));
            }
            if check_line(&command).is_err() {
                return Err(corrupt(format!("command {seq} of the log is not one line of text")));
            }
            log.push(command);
        }
        let time = |seconds: i64| time_of(seconds).ok_or_else(|| corrupt(format!("a time of {seconds} s")));
        Ok(Room {
            id: room,
            created: time(created)?,
            updated: time(updated)?,
            table: Table { state, seats },
            newgame,
            log,
        })
    }

    /// Whom `token` lets in, if anyone: the seat or the watchers of a room, whatever the room's
    /// state (a finished game can still be looked at). It is looked up by its hash, and the hash
    /// found is compared again in constant time.
    ///
    /// # Errors
    /// A row that breaks the schema's rules, or SQLite.
    pub fn find_seat_by_token(&self, token: &SeatToken) -> Result<Option<Access>, StoreError> {
        let hash = token.hash();
        let row = self
            .conn
            .query_row("SELECT hash, room, seat FROM tokens WHERE hash = ?1", [&hash.as_bytes()[..]], |r| {
                Ok((r.get::<_, Vec<u8>>(0)?, RoomId(r.get(1)?), r.get::<_, Option<i64>>(2)?))
            })
            .optional()?;
        let Some((stored, room, seat)) = row else {
            return Ok(None);
        };
        if TokenHash::from_slice(&stored) != Some(hash) {
            return Ok(None);
        }
        let viewer = match seat {
            None => Viewer::Watcher,
            Some(seat) => Viewer::Seat(
                u8::try_from(seat)
                    .ok()
                    .filter(|s| (1..=MAX_SEATS as u8).contains(s))
                    .ok_or_else(|| StoreError::Corrupt { room, what: format!("a token of seat {seat}") })?,
            ),
        };
        Ok(Some(Access { room, viewer }))
    }

    /// Sets the room's state.
    ///
    /// # Errors
    /// No such room, or SQLite.
    pub fn set_state(&mut self, room: RoomId, state: RoomState, now: SystemTime) -> Result<(), StoreError> {
        let changed = self.conn.execute(
            "UPDATE rooms SET state = ?2, updated = ?3 WHERE id = ?1",
            params![room.0, state.name(), seconds(now)],
        )?;
        if changed == 0 {
            return Err(StoreError::NoSuchRoom(room));
        }
        Ok(())
    }

    /// Gives a person's seat to the computer: its link no longer lets anyone in.
    ///
    /// # Errors
    /// No such room or seat, a seat the computer plays already, or SQLite.
    pub fn hand_seat_to_computer(
        &mut self,
        room: RoomId,
        seat: u8,
        strategy: Strategy,
        movetime_ms: u32,
        now: SystemTime,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let kind: Option<String> = tx
            .query_row("SELECT kind FROM seats WHERE room = ?1 AND seat = ?2", params![room.0, seat], |r| {
                r.get(0)
            })
            .optional()?;
        match kind.as_deref() {
            None => {
                let exists: i64 =
                    tx.query_row("SELECT count(*) FROM rooms WHERE id = ?1", [room.0], |r| r.get(0))?;
                return Err(if exists == 0 {
                    StoreError::NoSuchRoom(room)
                } else {
                    StoreError::NoSuchSeat { room, seat }
                });
            }
            Some("person") => {}
            Some(_) => return Err(StoreError::NotAPerson { room, seat }),
        }
        tx.execute(
            "UPDATE seats SET kind = 'computer', strategy = ?3, movetime = ?4 WHERE room = ?1 AND seat = ?2",
            params![room.0, seat, strategy.name(), movetime_ms],
        )?;
        tx.execute("DELETE FROM tokens WHERE room = ?1 AND seat = ?2", params![room.0, seat])?;
        tx.execute("UPDATE rooms SET updated = ?2 WHERE id = ?1", params![room.0, seconds(now)])?;
        tx.commit()?;
        Ok(())
    }

    /// Marks the open rooms last changed before `older_than` abandoned (changed `now`), so that
    /// [`Store::expire`] removes them in their turn. Returns how many rooms it marked.
    ///
    /// # Errors
    /// SQLite.
    pub fn abandon_idle(&mut self, older_than: SystemTime, now: SystemTime) -> Result<usize, StoreError> {
        Ok(self.conn.execute(
            "UPDATE rooms SET state = 'abandoned', updated = ?2 WHERE state = 'open' AND updated < ?1",
            params![seconds(older_than), seconds(now)],
        )?)
    }

    /// Removes the finished and abandoned rooms last changed before `older_than`, with their
    /// seats, tokens and logs; open rooms stay. Returns how many rooms were removed.
    ///
    /// # Errors
    /// SQLite.
    pub fn expire(&mut self, older_than: SystemTime) -> Result<usize, StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let old = "SELECT id FROM rooms WHERE state IN ('finished', 'abandoned') AND updated < ?1";
        let before = seconds(older_than);
        for table in ["log", "tokens", "seats"] {
            tx.execute(&format!("DELETE FROM {table} WHERE room IN ({old})"), [before])?;
        }
        let removed = tx.execute(
            "DELETE FROM rooms WHERE state IN ('finished', 'abandoned') AND updated < ?1",
            [before],
        )?;
        tx.commit()?;
        Ok(removed)
    }

    /// How many rooms the database holds, of one state or of all.
    ///
    /// # Errors
    /// SQLite.
    pub fn count_rooms(&self, state: Option<RoomState>) -> Result<u64, StoreError> {
        let count: i64 = match state {
            Some(state) => {
                self.conn
                    .query_row("SELECT count(*) FROM rooms WHERE state = ?1", [state.name()], |r| r.get(0))?
            }
            None => self.conn.query_row("SELECT count(*) FROM rooms", [], |r| r.get(0))?,
        };
        Ok(u64::try_from(count).unwrap_or(0))
    }

    /// How many rooms `client` created at `since` or later (whatever became of them since).
    ///
    /// # Errors
    /// SQLite.
    pub fn rooms_created_by(&self, client: &str, since: SystemTime) -> Result<u64, StoreError> {
        let count: i64 = self.conn.query_row(
            "SELECT count(*) FROM rooms WHERE client = ?1 AND created >= ?2",
            params![client, seconds(since)],
            |r| r.get(0),
        )?;
        Ok(u64::try_from(count).unwrap_or(0))
    }
}

fn parse_state(room: RoomId, name: &str) -> Result<RoomState, StoreError> {
    RoomState::parse(name).ok_or_else(|| StoreError::Corrupt { room, what: format!("a room state '{name}'") })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(seconds)
    }

    fn computer() -> SeatKind {
        SeatKind::Computer { strategy: Strategy::Search, movetime_ms: 1000 }
    }

    fn three_seats() -> Vec<SeatKind> {
        vec![SeatKind::Person, computer(), SeatKind::Person]
    }

    fn open_in(dir: &tempfile::TempDir) -> Store {
        Store::open(&dir.path().join("rooms.db")).expect("a new database")
    }

    #[test]
    fn a_room_is_made_with_its_seats_and_tokens() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut store = open_in(&dir);
        let new =
            store.create_room("players 3 rounds=8", &three_seats(), "10.0.0.1", at(1000)).expect("a room");
        assert_eq!(new.seats.iter().map(|(s, _)| *s).collect::<Vec<_>>(), vec![1, 3], "the people's seats");
        let room = store.load_room(new.id).expect("the room");
        assert_eq!(room.table, Table { state: RoomState::Open, seats: three_seats() });
        assert_eq!(room.newgame, "players 3 rounds=8");
        assert_eq!((room.created, room.updated), (at(1000), at(1000)));
        assert!(room.log.is_empty());
        for (seat, token) in &new.seats {
            let access = store.find_seat_by_token(token).expect("a look-up");
            assert_eq!(access, Some(Access { room: new.id, viewer: Viewer::Seat(*seat) }));
        }
        let watch = store.find_seat_by_token(&new.watchers).expect("a look-up");
        assert_eq!(watch, Some(Access { room: new.id, viewer: Viewer::Watcher }));
        let stranger = SeatToken::generate().expect("a token");
        assert_eq!(store.find_seat_by_token(&stranger).expect("a look-up"), None);
        // A second room gets another id and other tokens.
        let other = store.create_room("", &[SeatKind::Person], "10.0.0.2", at(1001)).expect("a room");
        assert_ne!(other.id, new.id);
        assert!(other.seats[0].1 != new.seats[0].1);
        assert_eq!(store.load_room(other.id).expect("the room").newgame, "");
    }

    #[test]
    fn idle_open_rooms_are_abandoned_then_expire() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut store = open_in(&dir);
        let idle = store.create_room("", &three_seats(), "c", at(100)).expect("a room").id;
        let busy = store.create_room("", &three_seats(), "c", at(100)).expect("a room").id;
        store.append(busy, 0, "draw 1 2 3", at(500)).expect("a draw");
        assert_eq!(store.abandon_idle(at(400), at(600)).expect("marks"), 1);
        assert_eq!(store.load_room(idle).expect("the room").table.state, RoomState::Abandoned);
        assert_eq!(store.load_room(busy).expect("the room").table.state, RoomState::Open);
        // Abandoned at 600: kept until a removal of what changed before a later time.
        assert_eq!(store.expire(at(600)).expect("removes"), 0);
        assert_eq!(store.expire(at(601)).expect("removes"), 1);
        assert!(matches!(store.load_room(idle), Err(StoreError::NoSuchRoom(_))));
        assert_eq!(store.count_rooms(None).expect("a count"), 1);
    }

    #[test]
    fn a_room_needs_one_to_six_seats_and_a_one_line_newgame() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut store = open_in(&dir);
        assert!(matches!(store.create_room("", &[], "c", at(1)), Err(StoreError::SeatCount(0))));
        let seven = vec![SeatKind::Person; 7];
        assert!(matches!(store.create_room("", &seven, "c", at(1)), Err(StoreError::SeatCount(7))));
        let two_lines = "players 2\nnewgame players 3";
        assert!(matches!(store.create_room(two_lines, &three_seats(), "c", at(1)), Err(StoreError::BadLine)));
        assert_eq!(store.count_rooms(None).expect("a count"), 0, "nothing was made");
    }

    #[test]
    fn commands_are_logged_in_order_and_only_in_order() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut store = open_in(&dir);
        let room = store.create_room("players 3", &three_seats(), "c", at(10)).expect("a room").id;
        store.append(room, 0, "draw 5 6 6", at(11)).expect("the first");
        store.append(room, 1, "place 5@h8,6@h9,6@i9", at(12)).expect("the second");
        // The same move again after a reconnect, and one from the future: refused.
        let again = store.append(room, 1, "place 5@h8,6@h9,6@i9", at(13));
        assert!(matches!(again, Err(StoreError::OutOfOrder { expected: 2, got: 1, .. })), "{again:?}");
        let ahead = store.append(room, 3, "draw 2 4", at(13));
        assert!(matches!(ahead, Err(StoreError::OutOfOrder { expected: 2, got: 3, .. })), "{ahead:?}");
        store.append(room, 2, "draw 2 4", at(14)).expect("the third");
        let loaded = store.load_room(room).expect("the room");
        assert_eq!(loaded.log, vec!["draw 5 6 6", "place 5@h8,6@h9,6@i9", "draw 2 4"]);
        assert_eq!(loaded.updated, at(14));
        // Bad lines and unknown rooms.
        assert!(matches!(store.append(room, 3, "", at(15)), Err(StoreError::BadLine)));
        assert!(matches!(store.append(room, 3, "draw 1\ndraw 2", at(15)), Err(StoreError::BadLine)));
        assert!(matches!(
            store.append(RoomId(999), 0, "draw 1", at(15)),
            Err(StoreError::NoSuchRoom(RoomId(999)))
        ));
        assert!(matches!(store.load_room(RoomId(999)), Err(StoreError::NoSuchRoom(RoomId(999)))));
        // Logs of two rooms are apart.
        let other = store.create_room("", &[SeatKind::Person], "c", at(16)).expect("a room").id;
        store.append(other, 0, "draw 1", at(16)).expect("its first");
        assert_eq!(store.load_room(room).expect("the room").log.len(), 3);
    }

    #[test]
    fn a_closed_room_takes_no_command() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut store = open_in(&dir);
        let room = store.create_room("", &three_seats(), "c", at(10)).expect("a room").id;
        store.append(room, 0, "draw 5 6 6", at(11)).expect("the first");
        store.set_state(room, RoomState::Finished, at(12)).expect("finished");
        let late = store.append(room, 1, "place 5@h8", at(13));
        assert!(matches!(late, Err(StoreError::Closed { state: RoomState::Finished, .. })), "{late:?}");
        let loaded = store.load_room(room).expect("the room");
        assert_eq!((loaded.table.state, loaded.updated, loaded.log.len()), (RoomState::Finished, at(12), 1));
        assert!(matches!(
            store.set_state(RoomId(77), RoomState::Abandoned, at(1)),
            Err(StoreError::NoSuchRoom(RoomId(77)))
        ));
    }

    #[test]
    fn everything_reads_back_after_the_store_is_dropped_and_opened_again() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("rooms.db");
        let (room, token) = {
            let mut store = Store::open(&path).expect("a new database");
            let new = store.create_room("players 3 seed 4", &three_seats(), "c", at(10)).expect("a room");
            for (seq, command) in ["draw 5 6 6", "place 5@h8,6@h9,6@i9", "draw 2 4"].into_iter().enumerate() {
                store.append(new.id, seq as u64, command, at(20 + seq as u64)).expect("logged");
            }
            (new.id, new.seats[1].1.clone())
        };
        let mut store = Store::open(&path).expect("the same database");
        let loaded = store.load_room(room).expect("the room");
        assert_eq!(loaded.log, vec!["draw 5 6 6", "place 5@h8,6@h9,6@i9", "draw 2 4"]);
        assert_eq!(loaded.newgame, "players 3 seed 4");
        assert_eq!(loaded.table.seats, three_seats());
        assert_eq!(
            store.find_seat_by_token(&token).expect("a look-up").map(|a| a.viewer),
            Some(Viewer::Seat(3))
        );
        // The log goes on where it stopped.
        assert!(matches!(
            store.append(room, 0, "draw 1", at(30)),
            Err(StoreError::OutOfOrder { expected: 3, .. })
        ));
        store.append(room, 3, "place 2@h10,4@h11", at(30)).expect("the next");
    }

    #[test]
    fn two_stores_opening_one_new_file_at_once_share_it() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("rooms.db");
        for _ in 0..5 {
            let _ = std::fs::remove_file(&path);
            let barrier = std::sync::Barrier::new(2);
            let (mut a, b) = std::thread::scope(|scope| {
                let open = || {
                    barrier.wait();
                    Store::open(&path)
                };
                let (a, b) = (scope.spawn(open), scope.spawn(open));
                (a.join().expect("a thread"), b.join().expect("a thread"))
            });
            let (a, b) = (a.as_mut().map_err(|e| e.to_string()), b.map_err(|e| e.to_string()));
            let (a, b) = (a.expect("the first"), b.expect("the second"));
            // What one commits, the other reads.
            let room = a.create_room("", &[SeatKind::Person], "c", at(1)).expect("a room").id;
            a.append(room, 0, "draw 1 2", at(2)).expect("logged");
            assert_eq!(b.load_room(room).expect("seen by the other").log, vec!["draw 1 2"]);
        }
    }

    #[test]
    fn the_file_is_in_wal_mode_with_full_sync() {
        let dir = tempfile::tempdir().expect("a directory");
        let store = open_in(&dir);
        let mode: String = store.conn.pragma_query_value(None, "journal_mode", |r| r.get(0)).expect("a mode");
        assert_eq!(mode, "wal");
        let sync: i64 = store.conn.pragma_query_value(None, "synchronous", |r| r.get(0)).expect("a level");
        assert_eq!(sync, 2, "FULL");
    }

    #[test]
    fn a_file_that_is_not_sqlite_is_refused_by_name() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "these are notes, not a database: ".repeat(200)).expect("written");
        let err = Store::open(&path).err().expect("refused");
        assert!(matches!(err, StoreError::NotADatabase { .. }), "{err:?}");
        assert!(err.to_string().contains(&path.display().to_string()), "{err}");
        // And the file is left as it was.
        assert!(std::fs::read_to_string(&path).expect("read").starts_with("these are notes"));
    }

    #[test]
    fn another_programs_database_and_a_newer_schema_are_refused() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("other.db");
        let other = Connection::open(&path).expect("a database");
        other.execute_batch("CREATE TABLE accounts (name TEXT)").expect("a table");
        drop(other);
        let err = Store::open(&path).err().expect("refused");
        assert!(matches!(err, StoreError::NotRooms { .. }), "{err:?}");
        assert!(err.to_string().contains("other.db"), "{err}");

        let path = dir.path().join("rooms.db");
        drop(Store::open(&path).expect("a new database"));
        let conn = Connection::open(&path).expect("the database");
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1).expect("set");
        drop(conn);
        let err = Store::open(&path).err().expect("refused");
        assert!(matches!(err, StoreError::NewerSchema { found: 2, .. }), "{err:?}");
        assert!(err.to_string().contains("rooms.db"), "{err}");
    }

    #[test]
    fn a_path_that_cannot_be_written_is_refused_at_open() {
        let dir = tempfile::tempdir().expect("a directory");
        // No such directory.
        let missing = dir.path().join("no-such-dir").join("rooms.db");
        let err = Store::open(&missing).err().expect("refused");
        assert!(matches!(err, StoreError::Open { .. }), "{err:?}");
        assert!(err.to_string().contains("no-such-dir"), "{err}");
        // A directory.
        let err = Store::open(dir.path()).err().expect("refused");
        assert!(err.to_string().contains(&dir.path().display().to_string()), "{err}");
        // A place no one may create a file in, root included.
        let proc = Path::new("/proc/zatre-rooms.db");
        let err = Store::open(proc).err().expect("refused");
        assert!(err.to_string().contains("/proc/zatre-rooms.db"), "{err}");
    }

    #[test]
    fn a_read_only_file_is_refused_at_open() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("rooms.db");
        let mut store = Store::open(&path).expect("a new database");
        store.create_room("", &[SeatKind::Person], "c", at(1)).expect("a room");
        drop(store);
        // A database SQLite can only read, whoever runs the test (root ignores file modes):
        // the same file through a read-only URI.
        let uri = format!("file:{}?mode=ro", path.display());
        let err = Store::open(Path::new(&uri)).err().expect("refused");
        assert!(matches!(err, StoreError::ReadOnly { .. }), "{err:?}");
        assert!(err.to_string().contains("rooms.db"), "{err}");
        // A file without write permission: refused too, for a user that is not root.
        let mut perms = std::fs::metadata(&path).expect("metadata").permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&path, perms).expect("read-only");
        // SAFETY: geteuid has no preconditions and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        if !root {
            let err = Store::open(&path).err().expect("refused");
            assert!(matches!(err, StoreError::ReadOnly { .. }), "{err:?}");
        }
    }

    #[test]
    fn a_corrupt_row_is_an_error_not_a_panic() {
        // Each damage done to a fresh room, and what the error must name.
        let cases = [
            ("UPDATE rooms SET state = 'paused'", "paused"),
            ("UPDATE seats SET strategy = 'oracle' WHERE seat = 2", "oracle"),
            ("UPDATE seats SET kind = 'robot' WHERE seat = 1", "robot"),
            ("UPDATE seats SET movetime = -5 WHERE seat = 2", "-5 ms"),
            ("UPDATE seats SET strategy = NULL WHERE seat = 2", "seat 2"),
            ("DELETE FROM seats WHERE seat = 2", "seat 3"),
            ("DELETE FROM seats", "0 seats"),
            ("UPDATE log SET seq = 5", "command 5"),
            ("UPDATE log SET command = 'draw 1' || char(10) || 'newgame'", "one line"),
            ("UPDATE rooms SET updated = -1", "a time of -1 s"),
        ];
        for (damage, named) in cases {
            let dir = tempfile::tempdir().expect("a directory");
            let mut store = open_in(&dir);
            let room = store.create_room("", &three_seats(), "c", at(1)).expect("a room").id;
            store.append(room, 0, "draw 5 6 6", at(2)).expect("logged");
            store.load_room(room).expect("whole before the damage");
            store.conn.execute_batch(damage).expect("damaged");
            let err = store.load_room(room).expect_err("refused");
            assert!(
                matches!(&err, StoreError::Corrupt { what, .. } if what.contains(named)),
                "{damage}: {err:?}"
            );
        }
    }

    #[test]
    fn a_seat_handed_to_the_computer_loses_its_link() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut store = open_in(&dir);
        let new = store.create_room("players 3", &three_seats(), "c", at(1)).expect("a room");
        let (seat, token) = (new.seats[1].0, new.seats[1].1.clone());
        assert_eq!(seat, 3);
        store.hand_seat_to_computer(new.id, 3, Strategy::Greedy, 0, at(5)).expect("handed over");
        assert_eq!(store.find_seat_by_token(&token).expect("a look-up"), None, "a stale link");
        let room = store.load_room(new.id).expect("the room");
        assert_eq!(room.table.seats[2], SeatKind::Computer { strategy: Strategy::Greedy, movetime_ms: 0 });
        assert_eq!(room.updated, at(5));
        // The other seat's link still works; a computer seat or a missing one cannot be handed over.
        assert!(store.find_seat_by_token(&new.seats[0].1).expect("a look-up").is_some());
        let again = store.hand_seat_to_computer(new.id, 3, Strategy::Greedy, 0, at(6));
        assert!(matches!(again, Err(StoreError::NotAPerson { seat: 3, .. })), "{again:?}");
        let missing = store.hand_seat_to_computer(new.id, 4, Strategy::Greedy, 0, at(6));
        assert!(matches!(missing, Err(StoreError::NoSuchSeat { seat: 4, .. })), "{missing:?}");
        let no_room = store.hand_seat_to_computer(RoomId(50), 1, Strategy::Greedy, 0, at(6));
        assert!(matches!(no_room, Err(StoreError::NoSuchRoom(RoomId(50)))), "{no_room:?}");
    }

    #[test]
    fn expiry_removes_only_old_finished_and_abandoned_rooms() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut store = open_in(&dir);
        let mut make = |state: RoomState, updated: u64| {
            let new = store.create_room("", &[SeatKind::Person], "c", at(1)).expect("a room");
            store.append(new.id, 0, "draw 5 6 6", at(1)).expect("logged");
            store.set_state(new.id, state, at(updated)).expect("set");
            new
        };
        let old_finished = make(RoomState::Finished, 100);
        let old_abandoned = make(RoomState::Abandoned, 100);
        let old_open = make(RoomState::Open, 100);
        let new_finished = make(RoomState::Finished, 300);
        let new_abandoned = make(RoomState::Abandoned, 300);
        assert_eq!(store.expire(at(200)).expect("expired"), 2);
        for gone in [&old_finished, &old_abandoned] {
            assert!(matches!(store.load_room(gone.id), Err(StoreError::NoSuchRoom(_))));
            assert_eq!(store.find_seat_by_token(&gone.watchers).expect("a look-up"), None);
            assert_eq!(store.find_seat_by_token(&gone.seats[0].1).expect("a look-up"), None);
        }
        for kept in [&old_open, &new_finished, &new_abandoned] {
            assert_eq!(store.load_room(kept.id).expect("kept").log.len(), 1);
        }
        // Nothing of the removed rooms is left in any table.
        for table in ["seats", "tokens", "log"] {
            let sql = format!("SELECT count(*) FROM {table} WHERE room IN (?1, ?2)");
            let left: i64 = store
                .conn
                .query_row(&sql, [old_finished.id.0, old_abandoned.id.0], |r| r.get(0))
                .expect("a count");
            assert_eq!(left, 0, "{table}");
        }
        assert_eq!(store.expire(at(200)).expect("expired"), 0);
        // A new room does not take a removed room's id.
        let next = store.create_room("", &[SeatKind::Person], "c", at(400)).expect("a room");
        assert!(next.id > new_abandoned.id, "{:?}", next.id);
    }

    #[test]
    fn counts_for_the_limits() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut store = open_in(&dir);
        for (client, created) in [("a", 1000), ("a", 4000), ("a", 4500), ("b", 4500)] {
            store.create_room("", &[SeatKind::Person], client, at(created)).expect("a room");
        }
        let finished = store.create_room("", &[SeatKind::Person], "a", at(4600)).expect("a room").id;
        store.set_state(finished, RoomState::Finished, at(4700)).expect("set");
        assert_eq!(store.count_rooms(None).expect("a count"), 5);
        assert_eq!(store.count_rooms(Some(RoomState::Open)).expect("a count"), 4);
        assert_eq!(store.count_rooms(Some(RoomState::Finished)).expect("a count"), 1);
        assert_eq!(store.count_rooms(Some(RoomState::Abandoned)).expect("a count"), 0);
        // The last hour before 4800 s: from 1200 s on.
        assert_eq!(store.rooms_created_by("a", at(1200)).expect("a count"), 3);
        assert_eq!(store.rooms_created_by("b", at(1200)).expect("a count"), 1);
        assert_eq!(store.rooms_created_by("c", at(1200)).expect("a count"), 0);
        assert_eq!(store.rooms_created_by("a", at(0)).expect("a count"), 4);
    }

    #[test]
    fn the_log_writes_draws_with_their_values_and_moves_as_placed() {
        use zatre::rules::Geometry;
        assert_eq!(draw_command(&[3, 5, 5]), "draw 3 5 5");
        assert_eq!(draw_command(&[]), "draw");
        let geometry = Geometry::of(zatre::rules::Shape::Classic);
        let mv = Move::parse(geometry, "5@h8,6@h9").expect("a move");
        assert_eq!(place_command(&mv), "place 5@h8,6@h9");
        assert_eq!(place_command(&Move::parse(geometry, "pass").expect("a pass")), "place pass");
    }

    #[test]
    fn the_file_holds_the_tokens_hashes_not_the_tokens() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("rooms.db");
        let mut store = Store::open(&path).expect("a new database");
        let new = store.create_room("", &three_seats(), "c", at(1)).expect("a room");
        let mut files = Vec::new();
        for name in ["rooms.db", "rooms.db-wal"] {
            files.extend(std::fs::read(dir.path().join(name)).unwrap_or_default());
        }
        let contains = |needle: &[u8]| files.windows(needle.len()).any(|w| w == needle);
        let tokens = new.seats.iter().map(|(_, t)| t).chain([&new.watchers]);
        for token in tokens {
            let text = token.link_text();
            let bytes: Vec<u8> = (0..text.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
                .collect();
            assert!(!contains(text.as_bytes()), "the token's text is in the file");
            assert!(!contains(&bytes), "the token's bytes are in the file");
            assert!(contains(token.hash().as_bytes()), "its hash is");
        }
    }

    /// The answers of an in-process engine to `newgame <args>`, the log and `position`, each
    /// command numbered; every answer must be a success.
    fn replay(newgame: &str, log: &[String]) -> String {
        use zatre::protocol::{Action, Engine, Event, RawLine, Session};
        let mut session = Session::new(Engine::new());
        let commands = std::iter::once(format!("newgame {newgame}"))
            .chain(log.iter().cloned())
            .chain(std::iter::once("position".to_string()));
        let mut last = String::new();
        for (id, command) in (1..).zip(commands) {
            let mut out = String::new();
            for action in session.handle(Event::Line(RawLine::Bytes(format!("{id} {command}").into_bytes())))
            {
                if let Action::Write(text) = action {
                    out.push_str(&text);
                }
            }
            assert!(out.starts_with(&format!("={id}")), "{command}: {out}");
            last = out;
        }
        last.trim_end().split_once(' ').map(|(_, line)| line.to_string()).expect("a position line")
    }

    #[test]
    fn a_game_replayed_from_its_log_reaches_the_position_it_left() {
        use rand::{Rng, SeedableRng};
        use zatre::rules::{Game, Phase, Rules, Variant};
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("rooms.db");
        let rules = Rules::with_options(Variant::Classic, 3, [("rounds", "6")]).expect("rules");
        let mut game = Game::new(rules);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut store = Store::open(&path).expect("a new database");
        let room = store.create_room("players 3 rounds=6", &three_seats(), "c", at(1)).expect("a room").id;
        let mut seq = 0;
        while game.position().phase() != Phase::Over {
            let command = if game.position().phase() == Phase::Draw {
                draw_command(&game.draw_random(&mut rng).expect("a draw"))
            } else {
                let moves = game.position().movegen().legal_moves();
                let mv = moves[rng.random_range(0..moves.len())].clone();
                game.play(&mv).expect("a legal move");
                place_command(&mv)
            };
            store.append(room, seq, &command, at(2 + seq)).expect("logged");
            seq += 1;
            if seq == 9 {
                // The server stops in the middle of the game and starts again.
                drop(store);
                store = Store::open(&path).expect("the same database");
                let loaded = store.load_room(room).expect("the room");
                assert_eq!(loaded.log.len(), 9);
                assert_eq!(replay(&loaded.newgame, &loaded.log), game.position().to_line());
            }
        }
        assert!(seq > 30, "a game of {seq} commands");
        drop(store);
        let store = Store::open(&path).expect("the same database");
        let loaded = store.load_room(room).expect("the room");
        assert_eq!(replay(&loaded.newgame, &loaded.log), game.position().to_line());
    }

    /// The environment variable that makes [`child_that_logs_until_killed`] run, naming its file.
    const CHILD_DB: &str = "ZATRE_ROOMS_TEST_CHILD_DB";

    #[test]
    #[ignore = "the child process of every_command_a_killed_server_reported_is_in_the_log"]
    fn child_that_logs_until_killed() {
        let Some(path) = std::env::var_os(CHILD_DB) else {
            return;
        };
        let mut store = Store::open(Path::new(&path)).expect("the database");
        let room = store.create_room("", &[SeatKind::Person], "c", at(1)).expect("a room").id;
        println!("room {}", room.0);
        for seq in 0.. {
            store.append(room, seq, &format!("draw {}", seq % 6 + 1), at(2)).expect("logged");
            // Told only once committed: what the server does before it answers anyone.
            println!("logged {seq}");
        }
    }

    /// A process killed with SIGKILL loses what it had not committed; what it had committed is in
    /// the operating system's hands already. So this guards "committed before told" against a
    /// kill, which is what a server sees; a power cut is `synchronous=FULL`'s part.
    #[test]
    fn every_command_a_killed_server_reported_is_in_the_log() {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("rooms.db");
        let mut child = Command::new(std::env::current_exe().expect("this test program"))
            .args(["--exact", "web::rooms::store::tests::child_that_logs_until_killed"])
            .args(["--ignored", "--nocapture", "--test-threads=1"])
            .env(CHILD_DB, &path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the child");
        let mut lines = BufReader::new(child.stdout.take().expect("its output")).lines();
        let mut room = None;
        let mut reported = None;
        for line in lines.by_ref() {
            let line = line.expect("a line");
            // The test harness's own "test ... " may stand before the first line on its line.
            if let Some((_, id)) = line.split_once("room ") {
                room = Some(RoomId(id.parse().expect("a room id")));
            } else if let Some(seq) = line.strip_prefix("logged ") {
                let seq: u64 = seq.parse().expect("a number");
                reported = Some(seq);
                if seq == 40 {
                    break;
                }
            }
        }
        // SIGKILL, in the middle of whatever the child is writing.
        child.kill().expect("killed");
        child.wait().expect("reaped");
        let (room, reported) = (room.expect("the child's room"), reported.expect("commands reported"));
        let store = Store::open(&path).expect("the database after the kill");
        let log = store.load_room(room).expect("the room").log;
        assert!(log.len() as u64 > reported, "{} commands logged, {reported} reported", log.len());
        for (seq, command) in log.iter().enumerate() {
            assert_eq!(command, &format!("draw {}", seq % 6 + 1));
        }
    }
}
