//! The zatre daemon: clap arguments, logging to stderr, and the threads and stdio around the
//! protocol's session: a reader thread for stdin, a thread per job, one loop that feeds the
//! session and writes what it answers. The scheduling itself lives in the session.

use std::io::{self, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use log::error;
use zatre::protocol::{read_line, Action, Engine, ErrorCode, Event, Failure, Job, Lane, Response, Session};

/// An engine for the number-tile game Zatre. It reads one command a line on stdin and answers on
/// stdout; type `help` for the commands. The protocol is specified in protocol/PROTOCOL.md.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Set an engine option before reading input, as `setoption` does (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// How many events (input lines, info lines) may wait for the loop. The reader stops reading
/// stdin when they are not taken, so a client that pipes faster than the engine answers fills the
/// pipe, not the engine's memory: at most this many lines of at most 64 KiB.
const QUEUE: usize = 64;

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

/// Reads stdin line by line on its own thread and sends the lines to the loop.
fn spawn_reader(events: SyncSender<Event>) {
    thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        loop {
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

/// Runs a job on a thread of its own; its reports go to the loop.
fn spawn_job(lane: Lane, job: Job, stop: Arc<AtomicBool>, events: SyncSender<Event>) {
    thread::spawn(move || {
        let id = job.id().cloned();
        let info_events = events.clone();
        let run = panic::catch_unwind(AssertUnwindSafe(|| {
            job.run(&stop, &mut |info| {
                let _ = info_events.send(Event::Info(lane, info));
            })
        }));
        // A panicking job is a bug; the command still gets its one response.
        let response = run
            .unwrap_or_else(|_| Response::failure(id, Failure::new(ErrorCode::Internal, "the job failed")));
        let _ = events.send(Event::Done(lane, response));
    });
}

/// The loop: one event at a time into the session, its actions carried out in order, stdout
/// flushed after every write. While a `quit` waits for jobs, their patience is [`QUIT_GRACE`].
fn serve(mut session: Session) -> Result<(), Exit> {
    let (sender, events) = mpsc::sync_channel(QUEUE);
    spawn_reader(sender.clone());
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut quit_deadline: Option<Instant> = None;
    loop {
        let event = if session.is_quitting() {
            let deadline = *quit_deadline.get_or_insert_with(|| Instant::now() + QUIT_GRACE);
            match events.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => Event::GraceOver,
            }
        } else {
            match events.recv() {
                Ok(event) => event,
                Err(_) => return Ok(()),
            }
        };
        for action in session.handle(event) {
            match action {
                Action::Write(text) => {
                    out.write_all(text.as_bytes())?;
                    out.flush()?;
                }
                Action::Run { lane, job, stop } => spawn_job(lane, job, stop, sender.clone()),
                Action::Exit => return Ok(()),
            }
        }
    }
}
