//! The zatre daemon: clap arguments, logging to stderr, and the threads and stdio around the
//! protocol's session: a reader thread for stdin that reads at most [`READ_AHEAD`] lines ahead, a
//! worker thread per lane that lives as long as the process, a watch that ends the process when
//! nobody reads stdout any more, and one loop that feeds the session, runs the short jobs itself
//! and writes what the session answers. The scheduling itself lives in the session.

use std::collections::VecDeque;
use std::io::{self, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::{self, ExitCode};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, SendError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use clap::{CommandFactory, Parser};
use log::{error, info};
use zatre::protocol::{
    read_line, Action, Engine, Event, Failure, Id, Job, Lane, Progress, Reason, Response, Session,
};

/// An engine for the number-tile game Zatre. It reads one command a line on stdin and answers on
/// stdout; type `help` for the commands. The protocol is specified in protocol/PROTOCOL.md.
#[derive(Parser, Debug)]
#[command(version = zatre::cli::VERSION, about)]
struct Args {
    /// Set an engine option before reading input, as `setoption` does (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// The most input lines read ahead of their answers: lines on their way to the loop or held by
/// the session behind a job (PROTOCOL.md, "Framing"). The reader reads no further while this many
/// wait, so a client that writes faster than the engine answers fills the pipe, not the engine's
/// memory: at most this many lines of at most 64 KiB. Fewer than this many waiting, `stop`,
/// `isready` and `quit` are read, and taken at once.
const READ_AHEAD: usize = 64;

/// How many events (input lines, info lines, job reports) may wait in the channel to the loop.
const QUEUE: usize = 64;

/// The stack of a lane's worker thread. `perft` recurses once per draw and once per move down
/// the game tree, some tens of KiB a level (a Position and a move generator); a game is at most
/// some hundreds of turns long, so [`MAX_PERFT_DEPTH`](zatre::protocol::MAX_PERFT_DEPTH) moves
/// and their draws fit with room to spare. Only the pages a job touches take memory.
const WORKER_STACK: usize = 256 << 20;

/// How long `quit` waits for a stopped job to report.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// Why the loop ends.
enum Exit {
    /// `quit`, end of input or a closed stdout: status 0.
    Clean,
    /// stdout failed otherwise.
    Failed(io::Error),
}

impl From<io::Error> for Exit {
    fn from(e: io::Error) -> Exit {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Exit::Clean
        } else {
            Exit::Failed(e)
        }
    }
}

fn main() -> ExitCode {
    if let Some(code) = zatre::cli::print_manpage_if_asked(Args::command) {
        return code;
    }
    let args = Args::parse();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("error"))
        .target(env_logger::Target::Stderr)
        .init();
    let mut engine = Engine::new();
    for option in &args.options {
        let Some((name, value)) = option.split_once('=') else {
            eprintln!("zatre: --option takes NAME=VALUE, not '{option}'");
            return ExitCode::from(2);
        };
        if let Err(e) = engine.set_option(name.trim(), value.trim()) {
            eprintln!("zatre: --option {option}: {}", e.message);
            return ExitCode::from(2);
        }
    }
    if io::stdin().is_terminal() {
        eprintln!("zatre {}: type help for the commands, quit to exit", env!("CARGO_PKG_VERSION"));
    }
    match serve(Session::new(engine)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Exit::Clean) => ExitCode::SUCCESS,
        Err(Exit::Failed(e)) => {
            error!("writing to stdout failed: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The count of lines read ahead: read by the reader, not yet taken by the session. A reader that
/// met the bound sleeps until half of it is free, or until the loop has nothing to do and there is
/// room: a client piping faster than the engine answers costs a wake-up per [`READ_AHEAD`]` / 2`
/// lines, not one per line, and a `stop` behind fewer than [`READ_AHEAD`] waiting lines is still
/// read while they wait for a job.
#[derive(Default)]
struct ReadAhead {
    lines: AtomicUsize,
    /// Whether the reader sleeps; only a waker clears it.
    asleep: Mutex<bool>,
    room: Condvar,
}

impl ReadAhead {
    /// Counts one more line, first sleeping while [`READ_AHEAD`] lines wait.
    fn reserve(&self) {
        if self.lines.load(Ordering::Acquire) >= READ_AHEAD {
            let mut asleep = self.asleep.lock().unwrap_or_else(PoisonError::into_inner);
            // Checked again under the lock, which every waker takes: no wake-up is missed.
            *asleep = self.lines.load(Ordering::Acquire) >= READ_AHEAD;
            while *asleep {
                asleep = self.room.wait(asleep).unwrap_or_else(PoisonError::into_inner);
            }
        }
        self.lines.fetch_add(1, Ordering::AcqRel);
    }

    /// `taken` lines have been taken by the session: answered, dropped or started as jobs.
    fn release(&self, taken: usize) {
        if taken > 0 && self.lines.fetch_sub(taken, Ordering::AcqRel).saturating_sub(taken) <= READ_AHEAD / 2
        {
            self.wake();
        }
    }

    /// The loop is about to wait for an event: the reader reads on if there is room at all.
    fn idle(&self) {
        if self.lines.load(Ordering::Acquire) < READ_AHEAD {
            self.wake();
        }
    }

    fn wake(&self) {
        let mut asleep = self.asleep.lock().unwrap_or_else(PoisonError::into_inner);
        if *asleep {
            *asleep = false;
            self.room.notify_one();
        }
    }
}

/// Reads stdin line by line on its own thread and sends the lines to the loop, never more than
/// [`READ_AHEAD`] ahead of the session.
fn spawn_reader(events: SyncSender<Event>, ahead: Arc<ReadAhead>) {
    thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        loop {
            ahead.reserve();
            match read_line(&mut input) {
                Ok(Some(line)) => {
                    if events.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    error!("reading stdin failed: {e}");
                    break;
                }
            }
        }
        let _ = events.send(Event::EndOfInput);
    });
}

/// Ends the process as soon as nobody can read stdout any more (a pipe or socket whose reading
/// end is closed: the client was killed or closed it), whatever runs: nothing the engine could
/// still do would be read. Status 0, as for a broken pipe. Only a pipe or a socket can go away
/// so; on other stdouts (a file, a terminal, /dev/null) no watcher is started, and the one
/// started has a small stack, so that a short run through a shell (one position, one `legal
/// count`) does not pay for it: the thread with the default stack cost a one-move position a
/// third of its time.
#[cfg(unix)]
fn watch_for_a_gone_client() {
    // SAFETY: `stat` is plain old data, written by fstat before it is read.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: STDOUT_FILENO is a descriptor number and `stat` a valid place to write to.
    if unsafe { libc::fstat(libc::STDOUT_FILENO, &mut stat) } != 0 {
        return;
    }
    let kind = stat.st_mode & libc::S_IFMT;
    if kind != libc::S_IFIFO && kind != libc::S_IFSOCK {
        return;
    }
    let _ = thread::Builder::new().name("stdout-watch".into()).stack_size(64 * 1024).spawn(|| {
        let mut stdout = libc::pollfd { fd: libc::STDOUT_FILENO, events: 0, revents: 0 };
        loop {
            // SAFETY: `stdout` is one valid `pollfd` that lives across the call, and the count
            // passed is 1. With no event asked for, poll returns only on an error or a hang-up.
            let ready = unsafe { libc::poll(&mut stdout, 1, -1) };
            if ready < 0 {
                if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return;
            }
            if stdout.revents & libc::POLLNVAL != 0 {
                // stdout is not open: writing says so.
                return;
            }
            if stdout.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
                info!("nobody reads stdout any more: exiting");
                process::exit(0);
            }
        }
    });
}

#[cfg(not(unix))]
fn watch_for_a_gone_client() {}

/// A job and its stop flag, as a lane's worker receives them.
type Task = (Job, Arc<AtomicBool>);

/// The threads that run the jobs: one per lane, started with the lane's first job and living as
/// long as the process, so a job costs no thread start. Short jobs ([`Job::is_small`]) run in the
/// loop itself.
struct Workers {
    search: Option<Sender<Task>>,
    work: Option<Sender<Task>>,
    events: SyncSender<Event>,
}

impl Workers {
    fn new(events: SyncSender<Event>) -> Workers {
        Workers { search: None, work: None, events }
    }

    /// Hands the job to its lane's worker; its reports go to the loop. Returns the job's
    /// response at once if no worker thread could be started (the system refused a thread).
    fn run(&mut self, lane: Lane, job: Job, stop: Arc<AtomicBool>) -> Option<Response> {
        let slot = match lane {
            Lane::Search => &mut self.search,
            Lane::Work => &mut self.work,
        };
        let mut task = (job, stop);
        if let Some(worker) = slot {
            match worker.send(task) {
                Ok(()) => return None,
                Err(SendError(back)) => task = back,
            }
        }
        // No worker yet, or it ended (it catches every panic, so only if the loop was gone): a
        // new one. Its receiver lives in the thread just started, so the send cannot fail.
        let Some(worker) = spawn_worker(lane, self.events.clone()) else {
            error!("no thread could be started for the {lane:?} lane");
            return Some(job_failed(task.0.id().cloned()));
        };
        let _ = worker.send(task);
        *slot = Some(worker);
        None
    }
}

/// A lane's worker: runs the jobs it receives one after another, on a thread with a stack of
/// [`WORKER_STACK`] (or the default stack if the system refuses that much). `None` if no thread
/// could be started at all.
fn spawn_worker(lane: Lane, events: SyncSender<Event>) -> Option<Sender<Task>> {
    let (sender, tasks) = mpsc::channel::<Task>();
    let tasks = Arc::new(Mutex::new(Some(tasks)));
    let start = |stack: Option<usize>| {
        let events = events.clone();
        let tasks = Arc::clone(&tasks);
        let mut builder = thread::Builder::new().name(format!("{lane:?} lane"));
        if let Some(stack) = stack {
            builder = builder.stack_size(stack);
        }
        builder.spawn(move || {
            let Some(tasks) = tasks.lock().unwrap_or_else(PoisonError::into_inner).take() else {
                return;
            };
            for (job, stop) in tasks {
                let response = run_job(job, &stop, &mut |info| {
                    let _ = events.send(Event::Info(lane, info));
                });
                if events.send(Event::Done(lane, response)).is_err() {
                    return;
                }
            }
        })
    };
    start(Some(WORKER_STACK)).or_else(|_| start(None)).ok().map(|_| sender)
}

/// Runs a job to its response. A panicking job is a bug; the command still gets its one response.
fn run_job(job: Job, stop: &AtomicBool, info: &mut dyn FnMut(Progress)) -> Response {
    let id = job.id().cloned();
    panic::catch_unwind(AssertUnwindSafe(|| job.run(stop, info))).unwrap_or_else(|_| job_failed(id))
}

fn job_failed(id: Option<Id>) -> Response {
    Response::failure(id, Failure::new(Reason::Internal, "the job failed"))
}

/// The loop: one event at a time into the session, its actions carried out in order, stdout
/// flushed after every write. A short job runs here and its reports are the next events. While a
/// `quit` waits for jobs, their patience is [`QUIT_GRACE`].
fn serve(mut session: Session) -> Result<(), Exit> {
    let (sender, events) = mpsc::sync_channel(QUEUE);
    let ahead = Arc::new(ReadAhead::default());
    spawn_reader(sender.clone(), Arc::clone(&ahead));
    watch_for_a_gone_client();
    let mut workers = Workers::new(sender);
    let mut reported: VecDeque<Event> = VecDeque::new();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut quit_deadline: Option<Instant> = None;
    loop {
        let event = if let Some(event) = reported.pop_front() {
            event
        } else if session.is_quitting() {
            let deadline = *quit_deadline.get_or_insert_with(|| Instant::now() + QUIT_GRACE);
            match events.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => Event::GraceOver,
            }
        } else {
            match events.try_recv() {
                Ok(event) => event,
                Err(TryRecvError::Empty) => {
                    ahead.idle();
                    match events.recv() {
                        Ok(event) => event,
                        Err(_) => return Ok(()),
                    }
                }
                Err(TryRecvError::Disconnected) => return Ok(()),
            }
        };
        let read = usize::from(matches!(event, Event::Line(_))) + session.waiting();
        for action in session.handle(event) {
            match action {
                Action::Write(text) => {
                    out.write_all(text.as_bytes())?;
                    out.flush()?;
                }
                Action::Run { lane, job, stop } if job.is_small() => {
                    let response =
                        run_job(job, &stop, &mut |info| reported.push_back(Event::Info(lane, info)));
                    reported.push_back(Event::Done(lane, response));
                }
                Action::Run { lane, job, stop } => {
                    if let Some(response) = workers.run(lane, job, stop) {
                        reported.push_back(Event::Done(lane, response));
                    }
                }
                Action::Exit => return Ok(()),
            }
        }
        ahead.release(read.saturating_sub(session.waiting()));
    }
}
