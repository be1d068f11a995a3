//! The zatre daemon: clap arguments, logging to stderr, and the stdin/stdout loop around the
//! engine state machine. Nothing else lives here.

use std::collections::VecDeque;
use std::io::{self, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use log::{debug, error};
use zatre::protocol::{read_line, Engine, ErrorCode, Failure, Job, Outcome, RawLine, Response};

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

/// How long `quit` waits for a stopped search to report its move.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// What the loop waits for: input lines from the reader thread, progress and results from the
/// search thread.
enum Event {
    Line(RawLine),
    EndOfInput,
    Info(String),
    Done(Response),
}

/// The running job: its stop flag and whether it runs until `stop`.
struct Running {
    stop: Arc<AtomicBool>,
    infinite: bool,
}

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
    match serve(engine) {
        Exit::Clean => ExitCode::SUCCESS,
        Exit::Failed(e) => {
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

/// Runs a job on a search thread with a fresh stop flag.
fn spawn_job(job: Job, events: SyncSender<Event>) -> Running {
    let stop = Arc::new(AtomicBool::new(false));
    let running = Running { stop: Arc::clone(&stop), infinite: job.is_infinite() };
    thread::spawn(move || {
        let id = job.id().cloned();
        let info_events = events.clone();
        let run = panic::catch_unwind(AssertUnwindSafe(|| {
            job.run(&stop, &mut |line| {
                let _ = info_events.send(Event::Info(line));
            })
        }));
        // A panicking search is a bug; the command still gets its one response.
        let response = run.unwrap_or_else(|_| {
            Response::failure(id, Failure::new(ErrorCode::Internal, "the search failed"))
        });
        let _ = events.send(Event::Done(response));
    });
    running
}

fn write_response(out: &mut impl Write, response: &Response) -> io::Result<()> {
    write!(out, "{response}")?;
    out.flush()
}

/// The loop that owns the engine: one event at a time, every response flushed.
/// The loop that owns the engine. While a job runs, `isready`, `stop`, `quit` and the commands
/// refused as `busy` are answered at once; every other line waits in `pending` and is answered, in
/// order, when the job has reported.
fn serve(mut engine: Engine) -> Exit {
    let (sender, events) = mpsc::sync_channel(QUEUE);
    spawn_reader(sender.clone());
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut running: Option<Running> = None;
    let mut pending: VecDeque<RawLine> = VecDeque::new();
    let mut input_ended = false;
    loop {
        let Ok(event) = events.recv() else {
            return Exit::Clean;
        };
        let step = match event {
            Event::Line(line) if running.is_some() && !engine.answers_during_job(&line) => {
                pending.push_back(line);
                Ok(Flow::Go)
            }
            Event::Line(line) => act(&mut engine, &line, &mut running, &sender, &events, &mut out),
            Event::EndOfInput => {
                debug!("end of input");
                input_ended = true;
                match &running {
                    None => return Exit::Clean,
                    Some(job) if job.infinite => {
                        job.stop.store(true, Ordering::Relaxed);
                        Ok(Flow::Go)
                    }
                    Some(_) => Ok(Flow::Go),
                }
            }
            Event::Info(line) => writeln!(out, "{line}").and_then(|()| out.flush()).map(|()| Flow::Go),
            Event::Done(response) => {
                running = None;
                engine.job_finished();
                let mut step = write_response(&mut out, &response).map(|()| Flow::Go);
                while let (Ok(Flow::Go), None) = (&step, &running) {
                    let Some(line) = pending.pop_front() else { break };
                    step = act(&mut engine, &line, &mut running, &sender, &events, &mut out);
                }
                match step {
                    Ok(Flow::Go) if input_ended && running.is_none() => return Exit::Clean,
                    step => step,
                }
            }
        };
        match step {
            Ok(Flow::Go) => {}
            Ok(Flow::Quit) => return Exit::Clean,
            Err(e) => return e.into(),
        }
    }
}

/// Whether the loop goes on after a line.
enum Flow {
    Go,
    Quit,
}

/// Executes one input line and writes what it answers, starting or stopping the job as asked.
fn act(
    engine: &mut Engine,
    line: &RawLine,
    running: &mut Option<Running>,
    sender: &SyncSender<Event>,
    events: &Receiver<Event>,
    out: &mut impl Write,
) -> io::Result<Flow> {
    match engine.handle_line(line) {
        None => {}
        Some(Outcome::Reply(response)) => write_response(out, &response)?,
        Some(Outcome::Stop(response)) => {
            if let Some(job) = running {
                job.stop.store(true, Ordering::Relaxed);
            }
            write_response(out, &response)?;
        }
        Some(Outcome::Start(job)) => *running = Some(spawn_job(job, sender.clone())),
        Some(Outcome::Quit(response)) => {
            if let Some(job) = running.take() {
                job.stop.store(true, Ordering::Relaxed);
                finish_job(events, out)?;
            }
            let _ = write_response(out, &response);
            return Ok(Flow::Quit);
        }
    }
    Ok(Flow::Go)
}

fn finish_job(events: &Receiver<Event>, out: &mut impl Write) -> io::Result<()> {
    let deadline = Instant::now() + QUIT_GRACE;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match events.recv_timeout(left) {
            Ok(Event::Info(line)) => {
                writeln!(out, "{line}")?;
                out.flush()?;
            }
            Ok(Event::Done(response)) => return write_response(out, &response),
            Ok(Event::Line(_) | Event::EndOfInput) => {}
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return Ok(()),
        }
    }
}
