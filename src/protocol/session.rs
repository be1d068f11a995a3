//! The session: the engine and the jobs it runs, scheduled as the protocol says. It is the one
//! scheduler of the protocol: the daemon (`main.rs`) feeds it the lines its reader thread reads and
//! the reports of the jobs it runs (on a worker thread per lane, or in its loop when short), and
//! does what it answers; the transcript tests drive the same type with jobs run inline. It touches
//! no stream and starts no thread. It holds the lines that wait for a job ([`Session::waiting`]);
//! how far ahead to read is the driver's to bound.
//!
//! Scheduling (PROTOCOL.md, "Order and jobs"): a job runs on one of two lanes, `go` on the search
//! lane, `legal`, `next`, `perft` and `bench` on the work lane. `stop`, `quit` and `isready` are
//! taken at once, always. While a `go` runs, commands that would change the game (or start a
//! `go`, `perft` or `bench`) are `busy`, and the others are answered meanwhile (`legal` and `next`
//! on the work lane). While a job runs on the work lane, every other line waits and is answered,
//! in order, when the job has reported: a `busy` answer waits its turn too. `quit` answers the
//! lines that wait before it (a job among them starts stopped) and then itself; after the end of
//! input a `go infinite` that waited starts stopped.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use log::warn;

use super::command::{Command, Id};
use super::engine::{Effect, Engine};
use super::input::RawLine;
use super::job::{Job, Lane, Progress};
use super::parse::{in_version, parse_line, Line, ParseError};
use super::reason::Reason;
use super::response::{Failure, InfoLine, Response};

/// What the session is told.
#[derive(Debug)]
pub enum Event {
    /// An input line.
    Line(RawLine),
    /// The input has ended.
    EndOfInput,
    /// A progress report of the job on a lane.
    Info(Lane, Progress),
    /// The job on a lane has finished with its response.
    Done(Lane, Response),
    /// The grace a `quit` gives the running jobs to report has passed.
    GraceOver,
}

/// What the session asks its driver to do, in order.
#[derive(Debug)]
pub enum Action {
    /// Write this text (a response or an `info` line, with its line breaks) and flush.
    Write(String),
    /// Run the job on the lane, checking `stop`; report with [`Event::Info`] and [`Event::Done`].
    Run { lane: Lane, job: Job, stop: Arc<AtomicBool> },
    /// Exit with status 0.
    Exit,
}

/// A running job: its stop flag and whether it runs until `stop`.
#[derive(Debug)]
struct Running {
    stop: Arc<AtomicBool>,
    infinite: bool,
    /// The id of the command that started the job, which version 3 writes in its `info` lines.
    id: Option<Id>,
}

impl Running {
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Where the session is in its life.
#[derive(Debug)]
enum State {
    /// Reading input.
    Serving,
    /// The input has ended: exit once the running jobs have reported and the held lines are
    /// answered.
    Draining,
    /// `quit` came while jobs ran: exit, with this response, once they have reported.
    Quitting(Response),
    /// Exited: nothing more is taken.
    Ended,
}

/// The engine and its jobs.
pub struct Session {
    engine: Engine,
    search: Option<Running>,
    work: Option<Running>,
    /// Lines that wait for a running job, in the order they came.
    held: VecDeque<RawLine>,
    state: State,
}

impl Session {
    /// A session around an engine.
    pub fn new(engine: Engine) -> Session {
        Session { engine, search: None, work: None, held: VecDeque::new(), state: State::Serving }
    }

    /// The engine, for reading.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Whether a `quit` waits for jobs to report: the driver then sends [`Event::GraceOver`] when
    /// its patience ends.
    pub fn is_quitting(&self) -> bool {
        matches!(self.state, State::Quitting(_))
    }

    /// How many input lines wait for a running job. The driver reads no further ahead than it
    /// wants: lines taken by the session are answered, dropped, or counted here.
    pub fn waiting(&self) -> usize {
        self.held.len()
    }

    /// Whether a job runs on any lane.
    pub fn is_running(&self) -> bool {
        self.search.is_some() || self.work.is_some()
    }

    /// Takes one event; returns what to do, in order.
    pub fn handle(&mut self, event: Event) -> Vec<Action> {
        let mut actions = Vec::new();
        if matches!(self.state, State::Ended) {
            return actions;
        }
        match event {
            Event::Line(line) => {
                if matches!(self.state, State::Serving) {
                    self.take_line(line, &mut actions);
                }
            }
            Event::EndOfInput => {
                if let Some(search) = self.search.as_ref().filter(|s| s.infinite) {
                    search.stop();
                }
                if matches!(self.state, State::Serving) {
                    self.state = State::Draining;
                }
                self.exit_when_idle(&mut actions);
            }
            Event::Info(lane, progress) => {
                let running = match lane {
                    Lane::Search => self.search.as_ref(),
                    Lane::Work => self.work.as_ref(),
                };
                let id = running.and_then(|r| r.id.as_ref()).filter(|_| self.engine.protocol() >= 3);
                let line = match &progress {
                    Progress::Search(info) => InfoLine { info, id }.to_string(),
                    Progress::Turn(turn) => match id {
                        Some(id) => format!("info id {id} {turn}\n"),
                        None => format!("info {turn}\n"),
                    },
                };
                actions.push(Action::Write(line));
            }
            Event::Done(lane, response) => {
                match lane {
                    Lane::Search => self.search = None,
                    Lane::Work => self.work = None,
                }
                actions.push(Action::Write(self.wire(&response)));
                self.replay_held(&mut actions);
                self.quit_when_idle(&mut actions);
                self.exit_when_idle(&mut actions);
            }
            Event::GraceOver => {
                if self.is_quitting() {
                    self.quit_now(&mut actions);
                }
            }
        }
        actions
    }

    /// A response in the version of the protocol the client speaks now.
    fn wire(&self, response: &Response) -> String {
        response.wire(self.engine.protocol())
    }

    /// Raises the stop flag of every running job.
    fn stop_all(&self) {
        for running in [&self.search, &self.work].into_iter().flatten() {
            running.stop();
        }
    }

    /// Answers the lines held back, in order, until one of them starts a job that holds the
    /// rest again. While quitting too: `quit` answers every line that came before it.
    fn replay_held(&mut self, actions: &mut Vec<Action>) {
        while !self.holds_lines() && !matches!(self.state, State::Ended) {
            let Some(line) = self.held.pop_front() else { return };
            self.take_line(line, actions);
        }
    }

    /// Whether lines that are not answered at once must wait: a job runs on the work lane. A
    /// running `go` holds nothing: what only reads the game is answered meanwhile, and a `legal`
    /// or `next` runs on the work lane beside it.
    fn holds_lines(&self) -> bool {
        self.work.is_some()
    }

    fn exit_when_idle(&mut self, actions: &mut Vec<Action>) {
        if matches!(self.state, State::Draining) && !self.is_running() && self.held.is_empty() {
            self.state = State::Ended;
            actions.push(Action::Exit);
        }
    }

    /// Ends a `quit` once its jobs have reported and the lines before it are answered.
    fn quit_when_idle(&mut self, actions: &mut Vec<Action>) {
        if self.is_quitting() && !self.is_running() && self.held.is_empty() {
            self.quit_now(actions);
        }
    }

    /// Answers the `quit` and exits. Lines still held (only when the grace ran out on a job
    /// that did not report) go unanswered with that job.
    fn quit_now(&mut self, actions: &mut Vec<Action>) {
        let state = std::mem::replace(&mut self.state, State::Ended);
        if let State::Quitting(response) = state {
            actions.push(Action::Write(self.wire(&response)));
        }
        self.held.clear();
        actions.push(Action::Exit);
    }

    /// Frames and parses a line, then answers it, holds it or refuses it as `busy`.
    fn take_line(&mut self, line: RawLine, actions: &mut Vec<Action>) {
        let framed = match &line {
            RawLine::Bytes(bytes) => parse_line(bytes),
            RawLine::TooLong => Line::Request { id: None, command: Err(ParseError::TooLong) },
        };
        let (id, command) = match framed {
            Line::Ignored => return,
            Line::Request { id, command } => (id, command),
        };
        let command = match in_version(command, self.engine.protocol()) {
            Ok(command) => command,
            Err(e) => {
                if self.holds_lines() {
                    self.held.push_back(line);
                } else {
                    warn!("{e}");
                    actions.push(Action::Write(self.wire(&Response::failure(id, e.into()))));
                }
                return;
            }
        };
        match command {
            Command::Stop => {
                self.stop_all();
                actions.push(Action::Write(self.wire(&Response::success(id, ""))));
            }
            Command::Quit => {
                self.stop_all();
                self.state = State::Quitting(Response::success(id, ""));
                self.quit_when_idle(actions);
            }
            Command::IsReady => actions.push(Action::Write(self.wire(&Response::success(id, "readyok")))),
            // A line behind a work-lane job waits for its turn, a `busy` answer too.
            _ if self.holds_lines() => self.held.push_back(line),
            command if self.search.is_some() && command.changes_game() => {
                let failure = Failure::new(
                    Reason::Busy,
                    format!("{} is not allowed while a search runs: stop it first", command.word()),
                );
                warn!("{}", failure.message);
                actions.push(Action::Write(self.wire(&Response::failure(id, failure))));
            }
            command => self.execute(id, command, actions),
        }
    }

    /// Executes a command on the engine: writes its response or starts its job.
    fn execute(&mut self, id: Option<Id>, command: Command, actions: &mut Vec<Action>) {
        match self.engine.execute(id, command) {
            Effect::Reply(response) => actions.push(Action::Write(self.wire(&response))),
            Effect::Start(job) => {
                let lane = job.lane();
                // A job started after `quit` (a line that waited before it) starts stopped; one
                // started after the end of input runs to its end, unless it would wait for `stop`.
                let stopped = match self.state {
                    State::Serving => false,
                    State::Draining => job.is_infinite(),
                    State::Quitting(_) | State::Ended => true,
                };
                let stop = Arc::new(AtomicBool::new(stopped));
                let running =
                    Running { stop: Arc::clone(&stop), infinite: job.is_infinite(), id: job.id().cloned() };
                match lane {
                    Lane::Search => self.search = Some(running),
                    Lane::Work => self.work = Some(running),
                }
                actions.push(Action::Run { lane, job, stop });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(session: &mut Session, text: &str) -> Vec<Action> {
        session.handle(Event::Line(RawLine::Bytes(text.as_bytes().to_vec())))
    }

    fn written(actions: &[Action]) -> Vec<String> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Write(text) => Some(text.clone()),
                _ => None,
            })
            .collect()
    }

    /// Starts a job with `text` and returns its lane and stop flag (the job itself is not run).
    fn start(session: &mut Session, text: &str) -> (Lane, Arc<AtomicBool>) {
        let actions = line(session, text);
        match actions.into_iter().next() {
            Some(Action::Run { lane, stop, .. }) => (lane, stop),
            other => panic!("{text} starts no job: {other:?}"),
        }
    }

    #[test]
    fn during_a_go_commands_that_change_the_game_are_busy_and_reads_are_answered() {
        let mut session = Session::new(Engine::with_seed(1));
        line(&mut session, "draw 1 2 3");
        let (lane, stop) = start(&mut session, "go infinite");
        assert_eq!(lane, Lane::Search);
        assert!(written(&line(&mut session, "1 place 1@h8,2@h9,3@h10"))[0].starts_with("?1 busy "));
        assert_eq!(written(&line(&mut session, "2 isready")), ["=2 readyok\n\n"]);
        assert!(written(&line(&mut session, "3 score"))[0].starts_with("=3 player 1"), "a read is answered");
        // legal runs beside the go, on the work lane, and holds the lines after it.
        let (lane, _) = start(&mut session, "4 legal count");
        assert_eq!(lane, Lane::Work);
        assert!(line(&mut session, "5 status").is_empty(), "a read waits for the legal count");
        let done = session.handle(Event::Done(Lane::Work, Response::success(Id::new("4"), "60")));
        assert_eq!(written(&done)[0], "=4 60\n\n");
        assert!(written(&done)[1].starts_with("=5 phase place"), "{done:?}");
        assert_eq!(written(&line(&mut session, "6 stop")), ["=6\n\n"]);
        assert!(stop.load(Ordering::Relaxed));
        let done =
            session.handle(Event::Done(Lane::Search, Response::success(Id::new("9"), "bestmove pass")));
        assert_eq!(written(&done), ["=9 bestmove pass\n\n"]);
        assert!(written(&line(&mut session, "7 place 1@h8,2@h9,3@h10"))[0].starts_with("=7 points"));
    }

    #[test]
    fn lines_held_by_a_job_are_answered_in_order_and_may_start_the_next_job() {
        let mut session = Session::new(Engine::with_seed(1));
        let (lane, _) = start(&mut session, "1 perft 1");
        assert_eq!(lane, Lane::Work);
        for text in ["2 name", "3 bench"] {
            assert!(line(&mut session, text).is_empty(), "{text} waits for the perft");
        }
        assert_eq!(written(&line(&mut session, "4 isready")), ["=4 readyok\n\n"], "isready never waits");
        assert!(line(&mut session, "5 version").is_empty());
        let actions = session.handle(Event::Done(Lane::Work, Response::success(Id::new("1"), "1")));
        assert_eq!(written(&actions), ["=1 1\n\n", "=2 zatre\n\n"]);
        assert!(matches!(actions.last(), Some(Action::Run { lane: Lane::Work, .. })), "bench starts");
        let actions =
            session.handle(Event::Done(Lane::Work, Response::success(Id::new("3"), "nodes 1 nps 1")));
        assert_eq!(written(&actions)[0], "=3 nodes 1 nps 1\n\n");
        assert!(written(&actions)[1].starts_with("=5 "), "{actions:?}");
    }

    #[test]
    fn quit_waits_for_the_job_then_answers_and_exits_and_the_grace_ends_the_wait() {
        for job_reports in [true, false] {
            let mut session = Session::new(Engine::with_seed(1));
            line(&mut session, "draw 1 2 3");
            let (_, stop) = start(&mut session, "1 go infinite");
            assert!(line(&mut session, "2 quit").is_empty());
            assert!(stop.load(Ordering::Relaxed) && session.is_quitting());
            let actions = if job_reports {
                session.handle(Event::Done(Lane::Search, Response::success(Id::new("1"), "bestmove pass")))
            } else {
                session.handle(Event::GraceOver)
            };
            let mut expected = vec!["=2\n\n".to_owned()];
            if job_reports {
                expected.insert(0, "=1 bestmove pass\n\n".to_owned());
            }
            assert_eq!(written(&actions), expected);
            assert!(matches!(actions.last(), Some(Action::Exit)));
            assert!(line(&mut session, "3 name").is_empty(), "nothing is read after quit");
        }
    }

    #[test]
    fn a_busy_answer_waits_its_turn_behind_a_work_lane_job() {
        // `4 place` was refused `busy` at once, ahead of the `=2` and `=3` it came after.
        let mut session = Session::new(Engine::with_seed(1));
        line(&mut session, "draw 1 2 3");
        let (_, stop) = start(&mut session, "1 go infinite");
        let (lane, _) = start(&mut session, "2 legal count");
        assert_eq!(lane, Lane::Work);
        for text in ["3 score", "4 place 1@h8,2@h9,3@h10", "5 status"] {
            assert!(line(&mut session, text).is_empty(), "{text} waits for the legal count");
        }
        let done = session.handle(Event::Done(Lane::Work, Response::success(Id::new("2"), "60")));
        let done = written(&done);
        assert_eq!(done.len(), 4, "{done:?}");
        assert_eq!(done[0], "=2 60\n\n");
        assert!(done[1].starts_with("=3 player 1"), "{done:?}");
        assert!(done[2].starts_with("?4 busy "), "{done:?}");
        assert!(done[3].starts_with("=5 phase place"), "{done:?}");
        assert_eq!(written(&line(&mut session, "6 stop")), ["=6\n\n"]);
        assert!(stop.load(Ordering::Relaxed));
    }

    #[test]
    fn quit_answers_the_lines_that_wait_before_it_a_job_among_them_stopped() {
        // `quit` dropped the lines held behind a job: `2 name` was never answered.
        let mut session = Session::new(Engine::with_seed(1));
        line(&mut session, "draw 1 2 3");
        let (_, stop) = start(&mut session, "1 perft 2");
        for text in ["2 name", "3 legal count", "4 version"] {
            assert!(line(&mut session, text).is_empty(), "{text} waits for the perft");
        }
        assert!(line(&mut session, "5 quit").is_empty(), "quit waits for the perft");
        assert!(stop.load(Ordering::Relaxed));
        let actions = session.handle(Event::Done(Lane::Work, Response::success(Id::new("1"), "0 stopped")));
        assert_eq!(written(&actions), ["=1 0 stopped\n\n", "=2 zatre\n\n"]);
        let Some(Action::Run { lane: Lane::Work, stop, .. }) = actions.last() else {
            panic!("the legal count starts: {actions:?}");
        };
        assert!(stop.load(Ordering::Relaxed), "a job that waited before quit starts stopped");
        let actions = session.handle(Event::Done(Lane::Work, Response::success(Id::new("3"), "0 stopped")));
        assert_eq!(written(&actions), ["=3 0 stopped\n\n", "=4 0.1.0\n\n", "=5\n\n"]);
        assert!(matches!(actions.last(), Some(Action::Exit)));
    }

    #[test]
    fn an_infinite_go_that_waited_behind_a_job_is_stopped_by_the_end_of_input() {
        // The held `go infinite` started after the end of input and ran forever.
        let mut session = Session::new(Engine::with_seed(1));
        line(&mut session, "draw 1 2 3");
        let (_, perft_stop) = start(&mut session, "1 perft 2");
        assert!(line(&mut session, "2 go infinite").is_empty());
        assert!(session.handle(Event::EndOfInput).is_empty());
        assert!(!perft_stop.load(Ordering::Relaxed), "a perft runs to its end");
        let actions = session.handle(Event::Done(Lane::Work, Response::success(Id::new("1"), "40444")));
        assert_eq!(written(&actions), ["=1 40444\n\n"]);
        let Some(Action::Run { lane: Lane::Search, stop, .. }) = actions.last() else {
            panic!("the go infinite starts: {actions:?}");
        };
        assert!(stop.load(Ordering::Relaxed), "a go infinite started after the end of input is stopped");
        let actions =
            session.handle(Event::Done(Lane::Search, Response::success(Id::new("2"), "bestmove pass")));
        assert!(matches!(actions.last(), Some(Action::Exit)));

        // A `go` without a limit (a second at most) that waited runs as it would have.
        let mut session = Session::new(Engine::with_seed(1));
        line(&mut session, "draw 1 2 3");
        start(&mut session, "1 perft 2");
        assert!(line(&mut session, "2 go").is_empty());
        assert!(session.handle(Event::EndOfInput).is_empty());
        let actions = session.handle(Event::Done(Lane::Work, Response::success(Id::new("1"), "40444")));
        let Some(Action::Run { lane: Lane::Search, stop, .. }) = actions.last() else {
            panic!("the go starts: {actions:?}");
        };
        assert!(!stop.load(Ordering::Relaxed), "a go with its limit of a second runs");
    }

    #[test]
    fn the_end_of_input_stops_an_infinite_go_and_lets_other_jobs_finish() {
        let mut session = Session::new(Engine::with_seed(1));
        line(&mut session, "draw 1 2 3");
        let (_, stop) = start(&mut session, "go infinite");
        assert!(session.handle(Event::EndOfInput).is_empty());
        assert!(stop.load(Ordering::Relaxed));
        let actions = session.handle(Event::Done(Lane::Search, Response::success(None, "bestmove pass")));
        assert!(matches!(actions.last(), Some(Action::Exit)));

        let mut session = Session::new(Engine::with_seed(1));
        let (_, stop) = start(&mut session, "perft 2");
        assert!(session.handle(Event::EndOfInput).is_empty());
        assert!(!stop.load(Ordering::Relaxed), "a perft runs to its end");
    }
}
