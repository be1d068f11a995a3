//! Helpers shared by the integration tests: positions from short descriptions, spawning the
//! engine binary, the peak memory of a spawned engine, the session driven in-process, and the
//! records of the golden count files.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use zatre::protocol::{Action, Engine, Event, Job, Lane, RawLine, Session, MAX_LINE_BYTES};
use zatre::rules::{Move, Position, Tiles};

/// The settings of the suite's property tests: `cases` cases, generated from a fixed seed so
/// that every run of the suite, CI's included, tries the same games. `PROPTEST_RNG_SEED=<n>`
/// explores other ones. A failure is saved, as proptest does, to the test's `.proptest-regressions`
/// file, whose cases run first from then on.
pub fn proptest_config(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig { cases, ..ProptestConfig::default() };
    if config.rng_seed == RngSeed::Random {
        config.rng_seed = RngSeed::Fixed(0x5a7e);
    }
    config
}

/// The most tiles a hand of a random game may hold for its turn to be listed whole. A kept hand
/// of 12 tiles on an open board has over 6,000,000 legal moves, which a debug build takes minutes
/// to list; random play under `must_place=maximal` keeps such hands.
pub const LISTED_HAND: usize = 7;

/// A random legal move of `pos`: uniform over all its legal moves when the hand holds at most
/// [`LISTED_HAND`] tiles, else uniform over the first 1,000 that the generator yields.
pub fn random_move(pos: &Position, rng: &mut impl rand::Rng) -> Move {
    let cap = if pos.hand_to_move().len() <= LISTED_HAND { u64::MAX } else { 1000 };
    pos.movegen().random_legal(rng, cap).0
}

/// Starts the engine binary with `args`, its stdin and stdout piped and its stderr as given.
pub fn spawn_engine(args: &[&str], stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_zatre"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the binary starts")
}

/// A classic position with the player to move in `phase=place`: the bag is what the board and
/// the hands leave of the 121 tiles. `options` are extra `key=value` fields.
pub fn classic(board: &str, hands: &[&str], options: &str) -> Position {
    let mut bag = Tiles::classic_bag();
    for item in board.split(',').filter(|s| !s.is_empty() && *s != "-") {
        let v = item.as_bytes()[0] - b'0';
        assert!(bag.remove(v), "the bag has a {v} for {item}");
    }
    for hand in hands {
        for b in hand.bytes().filter(|b| b.is_ascii_digit()) {
            assert!(bag.remove(b - b'0'), "the bag has a {} for hand {hand}", b - b'0');
        }
    }
    let counts: Vec<String> = (1..=6).map(|v| bag.count(v).to_string()).collect();
    let sheets = vec!["none"; hands.len()].join(";");
    let board = if board.is_empty() { "-" } else { board };
    // Seat 1 to move: turn 1 on an empty board, else the first turn of the third round.
    let turn = if board == "-" { 1 } else { 2 * hands.len() + 1 };
    let line = format!(
        "variant=classic players={} {options} turn={turn} tomove=1 phase=place board={board} bag={} hands={} sheets={sheets}",
        hands.len(),
        counts.join(","),
        hands.join("/")
    );
    Position::from_line(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// A dice (`variant=dice`) or kids position with the roll `hand` to place, for two players: turn 1
/// on an empty kids' board, else the first turn of the third round.
pub fn square(variant: &str, board: &str, hand: &str, options: &str) -> Position {
    let turn = if board == "-" { 1 } else { 5 };
    let line = format!(
        "variant={variant} players=2 {options} turn={turn} tomove=1 phase=place board={board} bag=- hands={hand}/- sheets=none;none"
    );
    Position::from_line(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// Parses a move on a position's board.
pub fn mv(pos: &Position, text: &str) -> Move {
    Move::parse(pos.board().geometry(), text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// `VmHWM` of a process, in KiB.
pub fn peak_rss_kib(pid: u32) -> u64 {
    status_kib(pid, "VmHWM")
}

/// `VmRSS` of a process, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    status_kib(pid, "VmRSS")
}

/// A field in kB of `/proc/<pid>/status`.
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/<pid>/status");
    let line = status
        .lines()
        .find(|l| l.strip_prefix(field).is_some_and(|rest| rest.starts_with(':')))
        .unwrap_or_else(|| panic!("a {field} line"));
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{field} in kB"))
}

/// The protocol's session driven in-process, as the daemon drives it but with jobs run inline: a
/// job runs to its end as soon as the session starts it, except a `go infinite`, which waits
/// until its stop flag is raised (`stop`, `quit`, the end of input), and an `analyse`, which runs
/// once the next line (or the end of input) has been taken, so that a transcript shows what the
/// engine answers while one runs (`busy`, `stop`). What the session writes is returned as text.
pub struct InlineSession {
    pub session: Session,
    pending: Option<(Lane, Job, Arc<AtomicBool>)>,
    /// An `analyse` held back until the next event has been taken.
    deferred: Option<(Lane, Job, Arc<AtomicBool>)>,
    /// Every job starts with its stop flag raised (the fuzz checks framing, not the search).
    stop_at_once: bool,
    /// The session has exited.
    pub exited: bool,
}

impl InlineSession {
    pub fn new(engine: Engine) -> InlineSession {
        InlineSession {
            session: Session::new(engine),
            pending: None,
            deferred: None,
            stop_at_once: false,
            exited: false,
        }
    }

    /// A session whose jobs are stopped as they start.
    pub fn stopping_jobs(engine: Engine) -> InlineSession {
        InlineSession { stop_at_once: true, ..InlineSession::new(engine) }
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        self.session.engine()
    }

    /// Sends one input line.
    pub fn line(&mut self, bytes: &[u8]) -> String {
        let raw =
            if bytes.len() > MAX_LINE_BYTES + 1 { RawLine::TooLong } else { RawLine::Bytes(bytes.to_vec()) };
        self.feed(Event::Line(raw))
    }

    /// Takes one event, and every event the jobs it starts report; returns what was written.
    pub fn feed(&mut self, event: Event) -> String {
        let mut out = String::new();
        let mut queue = VecDeque::from([event]);
        let mut waited = self.deferred.take();
        loop {
            while let Some(event) = queue.pop_front() {
                for action in self.session.handle(event) {
                    match action {
                        Action::Write(text) => out.push_str(&text),
                        Action::Exit => self.exited = true,
                        Action::Run { lane, job, stop } => {
                            if self.stop_at_once {
                                stop.store(true, Ordering::Relaxed);
                            }
                            if job.is_infinite() && !stop.load(Ordering::Relaxed) {
                                self.pending = Some((lane, job, stop));
                            } else if job.is_analyse() && !stop.load(Ordering::Relaxed) {
                                self.deferred = Some((lane, job, stop));
                            } else {
                                run_inline(lane, job, &stop, &mut queue);
                            }
                        }
                    }
                }
            }
            if let Some((lane, job, stop)) = waited.take() {
                run_inline(lane, job, &stop, &mut queue);
                continue;
            }
            match self.pending.take() {
                Some((lane, job, stop)) if stop.load(Ordering::Relaxed) => {
                    run_inline(lane, job, &stop, &mut queue)
                }
                pending => {
                    self.pending = pending;
                    return out;
                }
            }
        }
    }
}

fn run_inline(lane: Lane, job: Job, stop: &AtomicBool, queue: &mut VecDeque<Event>) {
    let mut infos = Vec::new();
    let response = job.run(stop, &mut |info| infos.push(info));
    queue.extend(infos.into_iter().map(|info| Event::Info(lane, info)));
    queue.push_back(Event::Done(lane, response));
}

/// The records of a golden file of counts (`tests/golden/perft.txt`, `middle-hands.txt`): each
/// line `<depth> <count> <position line>` as its line number, depth, count and position, `#`
/// comments and blank lines skipped.
///
/// # Panics
/// On a line that is not such a record: the golden file is broken.
pub fn golden_counts(text: &str) -> Vec<(usize, u32, u64, Position)> {
    let mut records = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(3, ' ');
        let (Some(depth), Some(count), Some(position)) = (parts.next(), parts.next(), parts.next()) else {
            panic!("line {}: expected <depth> <count> <position line>", number + 1);
        };
        let depth: u32 = depth.parse().expect("depth is a number");
        let count: u64 = count.parse().expect("count is a number");
        let pos = Position::from_line(position).unwrap_or_else(|e| panic!("line {}: {e}", number + 1));
        records.push((number + 1, depth, count, pos));
    }
    records
}

/// The CPU time that thread `thread` has used so far (its own clock, `pthread_getcpuclockid`),
/// or `None` once it has ended: what a test that bounds a thread's work counts, since a loaded
/// machine stretches wall-clock time without bound.
#[cfg(target_os = "linux")]
pub fn thread_cpu_time(thread: libc::pthread_t) -> Option<std::time::Duration> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: `thread` is a thread of this process not yet joined; `clock` is a valid out-pointer.
    if unsafe { libc::pthread_getcpuclockid(thread, &mut clock) } != 0 {
        return None;
    }
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid out-pointer; a clock of a thread that has ended is an error.
    if unsafe { libc::clock_gettime(clock, &mut now) } != 0 {
        return None;
    }
    Some(std::time::Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// The CPU time the calling thread has used so far (see [`thread_cpu_time`]) and its handle.
#[cfg(target_os = "linux")]
pub fn own_cpu_time() -> (std::time::Duration, libc::pthread_t) {
    // SAFETY: pthread_self has no preconditions.
    let me = unsafe { libc::pthread_self() };
    (thread_cpu_time(me).expect("the running thread's CPU clock"), me)
}
