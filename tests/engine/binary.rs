//! Spawns the real `zatre` binary: answers during an infinite go, end of input, huge and
//! non-UTF-8 lines, quit, a closed stdout, and the command-line flags.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// How long a prompt answer may take.
const PROMPT: Duration = Duration::from_millis(100);
/// How long anything may take before the test gives up.
const PATIENCE: Duration = Duration::from_secs(10);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn(args: &[&str]) -> Engine {
        let mut child = common::spawn_engine(args, Stdio::null());
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().expect("flush to the engine");
    }

    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next output line, within `within`.
    fn line(&self, within: Duration) -> String {
        self.lines.recv_timeout(within).unwrap_or_else(|e| panic!("no output line within {within:?}: {e}"))
    }

    /// Lines up to and including the empty line that ends a response.
    fn response(&self, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut out = Vec::new();
        loop {
            let line = self.line(deadline.saturating_duration_since(Instant::now()));
            let end = line.is_empty();
            out.push(line);
            if end {
                return out;
            }
        }
    }

    /// The next response that is not `info` lines.
    fn response_skipping_info(&self, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        loop {
            let line = self.line(deadline.saturating_duration_since(Instant::now()));
            if line.starts_with("info ") {
                continue;
            }
            let mut out = vec![line];
            if out[0].is_empty() {
                return out;
            }
            out.extend(self.response(deadline.saturating_duration_since(Instant::now())));
            return out;
        }
    }

    fn wait_exit(&mut self, within: Duration) -> i32 {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code().expect("an exit code, not a signal");
            }
            assert!(Instant::now() < deadline, "the engine did not exit within {within:?}");
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `position` with a classic hand of 13 kept tiles on a crowded board: its moves run into the
/// billions, so a `legal count`, `legal`, `next` or `perft` on it runs until stopped.
const HUGE_HAND: &str = "position variant=classic players=2 turn=69 tomove=1 phase=place board=6@b2,1@c2,6@c3,6@d3,1@f3,6@d4,3@e4,1@f4,2@g4,3@a5,2@b5,5@c5,5@e5,4@f5,3@g5,5@a6,4@b6,1@d6,4@e6,6@f6,1@g6,1@a7,5@b7,2@c7,4@d7,1@g7,6@h7,5@i7,6@c8,2@d8,2@f8,1@g8,5@h8,4@i8,3@a9,3@b9,4@c9,2@d9,4@g9,1@h9,2@i9,3@j9,2@k9,4@a10,6@b10,3@d10,5@f10,1@j10,4@k10,6@l10,4@a11,3@b11,5@c11,4@e11,1@f11,1@g11,3@h11,4@k11,5@l11,3@m11,6@c12,6@e12,2@g12,1@h12,2@i12,2@j12,2@k12,6@m12,6@n12,6@b13,1@c13,3@d13,1@e13,6@g13,2@h13,4@i13,3@l13,3@m13,5@n13,3@b14,1@e14,1@f14,3@g14,1@h14,5@i14,6@k14,5@l14,3@f15,3@j15,5@k15 bag=2,1,0,2,0,0 hands=1223444555566/2222334455566 sheets=none;none\n";

/// Sets up a classic game with a hand, so a `go` has a move to find.
fn ready_to_move(engine: &mut Engine) {
    engine.send(b"newgame seed 7\ndraw 1 2 3\n");
    assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
    assert_eq!(engine.response(PATIENCE), vec!["= 1 2 3", ""]);
}

#[test]
fn isready_and_stop_answer_at_once_during_an_infinite_go() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"1 go infinite\n");
    thread::sleep(Duration::from_millis(50));
    for k in 0..3 {
        let sent = Instant::now();
        engine.send(format!("{} isready\n", 10 + k).as_bytes());
        let reply = engine.response_skipping_info(PATIENCE);
        assert!(sent.elapsed() < PROMPT, "isready took {:?}", sent.elapsed());
        assert_eq!(reply, vec![format!("={} readyok", 10 + k), String::new()]);
    }
    engine.send(b"2 place pass\n");
    let busy = engine.response_skipping_info(PATIENCE);
    assert!(busy[0].starts_with("?2 busy "), "{busy:?}");
    let sent = Instant::now();
    engine.send(b"3 stop\n");
    assert_eq!(engine.response_skipping_info(PATIENCE), vec!["=3", ""]);
    let best = engine.response_skipping_info(PATIENCE);
    assert!(sent.elapsed() < PROMPT, "stop took {:?} to end the go", sent.elapsed());
    assert!(best[0].starts_with("=1 bestmove "), "{best:?}");
    engine.send(b"4 stop\n");
    assert_eq!(engine.response(PATIENCE), vec!["=4", ""]);
    engine.close_input();
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn end_of_input_during_an_infinite_go_gives_the_move_then_exits() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"5 go infinite\n");
    engine.close_input();
    let best = engine.response_skipping_info(PATIENCE);
    assert!(best[0].starts_with("=5 bestmove "), "{best:?}");
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn quit_during_a_go_exits_promptly() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"6 go infinite\n");
    thread::sleep(Duration::from_millis(20));
    let sent = Instant::now();
    engine.send(b"7 quit\n");
    let best = engine.response_skipping_info(PATIENCE);
    assert!(best[0].starts_with("=6 bestmove "), "{best:?}");
    assert_eq!(engine.response(PATIENCE), vec!["=7", ""]);
    assert_eq!(engine.wait_exit(PATIENCE), 0);
    assert!(sent.elapsed() < Duration::from_secs(1), "quit took {:?}", sent.elapsed());
}

#[test]
fn end_of_input_exits_with_status_zero() {
    let mut engine = Engine::spawn(&[]);
    engine.send(b"1 name\n2 protocol_version");
    engine.close_input();
    assert_eq!(engine.response(PATIENCE), vec!["=1 zatre", ""]);
    assert_eq!(engine.response(PATIENCE), vec!["=2 2", ""], "a last line without newline");
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn a_one_mebibyte_line_and_invalid_utf8_are_syntax_errors_and_the_engine_goes_on() {
    let mut engine = Engine::spawn(&[]);
    let mut huge = b"1 known_command ".to_vec();
    huge.resize(1 << 20, b'x');
    huge.push(b'\n');
    engine.send(&huge);
    let reply = engine.response(PATIENCE);
    assert!(reply[0].starts_with("? syntax_error "), "{reply:?}");
    engine.send(b"2 na\xffme\n");
    let reply = engine.response(PATIENCE);
    assert!(reply[0].starts_with("? syntax_error "), "{reply:?}");
    engine.send(b"3 isready\n");
    assert_eq!(engine.response(PATIENCE), vec!["=3 readyok", ""]);
    engine.send(b"quit\n");
    assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn a_closed_stdout_ends_the_engine_quietly() {
    let mut child = common::spawn_engine(&[], Stdio::piped());
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("piped stdin");
    for _ in 0..100 {
        if stdin.write_all(b"help\n").is_err() {
            break;
        }
    }
    drop(stdin);
    let output = child.wait_with_output().expect("wait");
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn flags_version_help_and_option() {
    let run = |args: &[&str], input: &[u8]| {
        let mut child = common::spawn_engine(args, Stdio::piped());
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin.write_all(input).expect("write");
        drop(stdin);
        child.wait_with_output().expect("wait")
    };
    let version = run(&["--version"], b"");
    assert_eq!(version.status.code(), Some(0));
    // The version and the commit it was built from (not recorded in the test's debug build;
    // CI checks a release build's against Git when it installs the package).
    let said = String::from_utf8_lossy(&version.stdout);
    let prefix = format!("zatre {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(said.trim().starts_with(&prefix) && said.trim().ends_with(')'), "{said}");
    let help = run(&["--help"], b"");
    assert!(String::from_utf8_lossy(&help.stdout).contains("--option <NAME=VALUE>"));
    let set = run(&["--option", "Strategy=greedy", "--option", "Threads=2"], b"options\n");
    assert_eq!(set.status.code(), Some(0));
    let text = String::from_utf8_lossy(&set.stdout);
    assert!(text.starts_with("= option name Threads"), "{text}");
    let bad = run(&["--option", "Threads=0"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
    let malformed = run(&["--option", "Threads"], b"");
    assert_eq!(malformed.status.code(), Some(2));
}

#[test]
fn a_deep_perft_a_huge_legal_count_or_a_bench_stops_at_once_and_isready_answers_meanwhile() {
    for (job, ends) in [
        ("perft 9", " stopped"),
        ("legal count", " stopped"),
        ("legal", "stopped"),
        ("next", "stopped"),
        ("bench", " stopped"),
    ] {
        let mut engine = Engine::spawn(&[]);
        engine.send(HUGE_HAND.as_bytes());
        assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
        let sent = Instant::now();
        engine.send(format!("1 {job}\n2 isready\n").as_bytes());
        // isready is answered at once, whatever job runs.
        assert_eq!(engine.response(PATIENCE), vec!["=2 readyok", ""], "{job}");
        assert!(sent.elapsed() < PROMPT, "{job}: isready took {:?}", sent.elapsed());
        thread::sleep(Duration::from_millis(50));
        let sent = Instant::now();
        engine.send(b"3 stop\n");
        assert_eq!(engine.response(PATIENCE), vec!["=3", ""], "{job}");
        let counted = engine.response(PATIENCE);
        assert!(sent.elapsed() < Duration::from_secs(1), "{job}: stop took {:?}", sent.elapsed());
        assert!(counted[0].starts_with("=1 "), "{job}: {:?}", &counted[0]);
        assert!(counted[counted.len() - 2].ends_with(ends), "{job}: ends stopped");
    }
}

/// Two dice on the 25x25 board whose tiles need not touch have 388,752 moves: their listing (and
/// `next`) runs off the engine's loop like any long job, so `isready` sent after it is answered
/// first. (It once ran in the loop, as every two-tile listing does, for 135 ms in a release build.)
#[test]
fn a_two_tile_listing_of_hundreds_of_thousands_of_moves_does_not_hold_up_isready() {
    for job in ["legal", "next"] {
        let mut engine = Engine::spawn(&[]);
        engine.send(b"newgame variant dice size=25 adjacent=off\ndraw 1 2\n");
        assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
        assert_eq!(engine.response(PATIENCE), vec!["= 1 2", ""]);
        engine.send(format!("1 {job}\n2 isready\n").as_bytes());
        // The first line only: a listing in an assertion's message would be 4 MB long.
        let first = engine.response(PATIENCE);
        assert_eq!(first.first().map(String::as_str), Some("=2 readyok"), "{job}: answered first");
        let listed = engine.response(PATIENCE);
        assert!(listed[0].starts_with("=1 "), "{job}: {}", &listed[0]);
    }
}

#[test]
fn end_of_input_lets_a_limited_go_finish() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"8 go nodes 100\n");
    engine.close_input();
    let best = engine.response_skipping_info(PATIENCE);
    assert!(best[0].starts_with("=8 bestmove "), "{best:?}");
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn commands_that_only_read_are_answered_while_a_go_runs() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    let sent = Instant::now();
    engine.send(b"1 go infinite\n2 legal count\n3 score\n4 next 1@h8\n5 status\n6 isready\n");
    let mut got = responses(&engine, 5);
    assert!(sent.elapsed() < Duration::from_secs(1), "answers took {:?}", sent.elapsed());
    // isready may overtake the reads, which keep their order.
    let ready = got.iter().position(|r| r[0] == "=6 readyok").expect("isready answered");
    got.remove(ready);
    assert_eq!(got[0][0], "=2 60");
    assert!(got[1][0].starts_with("=3 player 1 total -6 hand 1,2,3"), "{got:?}");
    assert_eq!(got[2][0], "=4 complete no");
    assert!(got[3][0].starts_with("=5 phase place turn 1 tomove 1 due 0"), "{got:?}");
    engine.send(b"7 stop\n");
    assert_eq!(engine.response_skipping_info(PATIENCE), vec!["=7", ""]);
    let best = engine.response_skipping_info(PATIENCE);
    assert!(best[0].starts_with("=1 bestmove "), "{best:?}");
    engine.close_input();
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

/// The responses (info lines skipped) up to `count` of them.
fn responses(engine: &Engine, count: usize) -> Vec<Vec<String>> {
    (0..count).map(|_| engine.response_skipping_info(PATIENCE)).collect()
}

/// Asserts that, after the job and its stops are answered, nothing more comes: the next `isready`
/// is answered with nothing before it.
fn assert_quiet(engine: &mut Engine, id: u32) {
    engine.send(format!("{id} isready\n").as_bytes());
    assert_eq!(engine.response_skipping_info(PATIENCE), vec![format!("={id} readyok"), String::new()]);
}

#[test]
fn stop_sent_with_go_in_one_write_still_gives_one_bestmove() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    for (k, go) in ["go infinite", "go", "go nodes 1000000000", "go movetime 100000"].iter().enumerate() {
        let (g, s) = (10 * k + 1, 10 * k + 2);
        let sent = Instant::now();
        engine.send(format!("{g} {go}\n{s} stop\n").as_bytes());
        let got = responses(&engine, 2);
        assert!(sent.elapsed() < Duration::from_secs(1), "{go}: stop took {:?}", sent.elapsed());
        assert!(got.contains(&vec![format!("={s}"), String::new()]), "{go}: {got:?}");
        assert!(got.iter().any(|r| r[0].starts_with(&format!("={g} bestmove "))), "{go}: {got:?}");
        assert_quiet(&mut engine, 10 * k as u32 + 3);
    }
}

#[test]
fn stop_twice_during_a_go_answers_both_and_gives_one_bestmove() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"1 go infinite\n");
    thread::sleep(Duration::from_millis(20));
    engine.send(b"2 stop\n3 stop\n");
    let got = responses(&engine, 3);
    assert!(got.contains(&vec!["=2".to_owned(), String::new()]), "{got:?}");
    assert!(got.contains(&vec!["=3".to_owned(), String::new()]), "{got:?}");
    assert_eq!(got.iter().filter(|r| r[0].starts_with("=1 bestmove ")).count(), 1, "{got:?}");
    // The first stop comes before the move, which comes before nothing else of the go.
    let first_stop = got.iter().position(|r| r[0] == "=2").expect("=2");
    let best = got.iter().position(|r| r[0].starts_with("=1 ")).expect("=1");
    assert!(first_stop < best, "{got:?}");
    assert_quiet(&mut engine, 4);
    engine.send(b"5 stop\n6 stop\n");
    assert_eq!(
        responses(&engine, 2),
        vec![vec!["=5".to_owned(), String::new()], vec!["=6".to_owned(), String::new()]]
    );
}

#[test]
fn go_while_a_go_runs_is_busy_and_the_first_go_answers_once() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"1 go infinite\n2 go\n3 go infinite\n4 perft 1\n5 bench\n6 legal count\n");
    for id in 2..=5 {
        let r = engine.response_skipping_info(PATIENCE);
        assert!(r[0].starts_with(&format!("?{id} busy ")), "{r:?}");
    }
    assert_eq!(engine.response_skipping_info(PATIENCE), vec!["=6 60", ""], "legal count runs beside the go");
    engine.send(b"7 stop\n");
    let got = responses(&engine, 2);
    assert_eq!(got[0], vec!["=7".to_owned(), String::new()]);
    assert!(got[1][0].starts_with("=1 bestmove "), "{got:?}");
    // Now a go is accepted again.
    engine.send(b"8 go infinite\n9 stop\n");
    let got = responses(&engine, 2);
    assert!(got.iter().any(|r| r[0].starts_with("=8 bestmove ")), "{got:?}");
    assert_quiet(&mut engine, 10);
}

#[test]
fn quit_sent_with_go_in_one_write_exits_promptly_after_the_bestmove() {
    for go in ["go infinite", "go nodes 1000000000", "perft 9"] {
        let mut engine = Engine::spawn(&[]);
        ready_to_move(&mut engine);
        let sent = Instant::now();
        engine.send(format!("1 {go}\n2 quit\n3 isready\n").as_bytes());
        let best = engine.response_skipping_info(PATIENCE);
        assert!(best[0].starts_with("=1 "), "{go}: {best:?}");
        assert_eq!(engine.response(PATIENCE), vec!["=2", ""], "{go}");
        assert_eq!(engine.wait_exit(PATIENCE), 0, "{go}");
        assert!(sent.elapsed() < Duration::from_millis(1500), "{go}: quit took {:?}", sent.elapsed());
        // Nothing after quit: the isready is never read.
        assert!(engine.lines.recv_timeout(Duration::from_millis(100)).is_err(), "{go}: output after quit");
    }
}

#[test]
fn end_of_input_right_after_go_and_stop_exits_after_one_bestmove() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"1 go infinite\n2 stop\n3 isready\n");
    engine.close_input();
    let got = responses(&engine, 3);
    assert_eq!(got.iter().filter(|r| r[0].starts_with("=1 bestmove ")).count(), 1, "{got:?}");
    assert!(got.contains(&vec!["=2".to_owned(), String::new()]), "{got:?}");
    assert!(got.contains(&vec!["=3 readyok".to_owned(), String::new()]), "{got:?}");
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn a_stdout_closed_during_a_go_ends_the_engine_quietly() {
    let mut child = common::spawn_engine(&[], Stdio::piped());
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    stdin.write_all(b"newgame seed 7\ndraw 1 2 3\n1 go infinite\n").expect("write");
    stdin.flush().expect("flush");
    let mut first = String::new();
    stdout.read_line(&mut first).expect("read");
    assert_eq!(first, "=\n");
    drop(stdout);
    // The engine must write to notice: stop the go, then keep asking.
    let _ = stdin.write_all(b"2 stop\n");
    for _ in 0..100 {
        if stdin.write_all(b"isready\n").is_err() {
            break;
        }
    }
    drop(stdin);
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < deadline, "the engine did not exit");
        thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(status.code(), Some(0));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("stderr");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn input_piped_faster_than_it_is_answered_is_not_stored() {
    // The reader thread queued every input line for the loop without bound: a client that pipes
    // commands faster than it reads the answers grew the engine's memory with the backlog.
    let mut child = common::spawn_engine(&[], Stdio::null());
    let pid = child.id();
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    const LINES: usize = 600;
    const HELPS: usize = 200;
    // Answers that fill the stdout pipe first, so the engine blocks writing. Nobody reads stdout
    // yet: the engine blocks on it, and the writer must block too.
    let (writer, count) = flood(stdin, b"help\n".repeat(HELPS), LINES);
    let peak = common::peak_rss_kib(pid);
    assert!(count < LINES, "all {LINES} lines of 60 kB were taken in while no answer was read");
    assert!(peak < 32 * 1024, "peak RSS {peak} KiB with {count} lines of 60 kB sent");
    // Then every line is answered.
    let answers: Vec<String> = BufReader::new(stdout).lines().map_while(Result::ok).collect();
    writer.join().expect("the writer");
    assert_eq!(answers.iter().filter(|l| l.starts_with("= protocol_version")).count(), HELPS);
    assert_eq!(answers.iter().filter(|l| *l == "= false").count(), LINES);
    assert_eq!(child.wait().expect("wait").code(), Some(0));
}

#[test]
fn go_reports_its_stages_and_the_standard_error_of_playouts() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"9 go depth 3 nodes 300000\n");
    let lines = engine.response(PATIENCE);
    assert!(lines[lines.len() - 2].starts_with("=9 bestmove "), "{lines:?}");
    let infos: Vec<Vec<&str>> =
        lines.iter().filter(|l| l.starts_with("info ")).map(|l| l.split(' ').collect()).collect();
    let field = |info: &[&str], name: &str| -> Option<f64> {
        info.iter().position(|w| *w == name).and_then(|i| info.get(i + 1)).and_then(|v| v.parse().ok())
    };
    // The stages in order: static ranking, next turn, playouts; only sampled scores carry stderr.
    let depths: Vec<f64> = infos.iter().filter_map(|i| field(i, "depth")).collect();
    assert_eq!(&depths[..2], &[0.0, 1.0], "{lines:?}");
    assert!(infos[..2].iter().all(|i| field(i, "stderr").is_none() && field(i, "samples").is_none()));
    let last = infos.last().expect("info lines");
    assert_eq!(field(last, "depth"), Some(3.0), "{last:?}");
    assert!(field(last, "samples").is_some_and(|n| n >= 64.0), "{last:?}");
    assert!(field(last, "stderr").is_some_and(|e| e > 0.0 && e.is_finite()), "{last:?}");
    let best = lines[lines.len() - 2].split(' ').nth(2).unwrap();
    assert_eq!(last.last().copied(), Some(best), "the last info's pv is the move played");
}

/// Reads the `info` lines up to the `bestmove`; returns them and the response.
fn infos_then_bestmove(engine: &Engine) -> (Vec<String>, Vec<String>) {
    let mut infos = Vec::new();
    loop {
        let line = engine.line(PATIENCE);
        if line.starts_with("info ") {
            infos.push(line);
            continue;
        }
        let mut response = vec![line];
        response.extend(engine.response(PATIENCE));
        return (infos, response);
    }
}

#[test]
fn info_lines_come_at_a_human_rate_and_the_last_one_names_the_move() {
    let mut engine = Engine::spawn(&[]);
    // The last turn of a game (rounds=1): the playouts have no turn left to play. They used to
    // loop, printing thousands of info lines a second and never answering a node limit.
    engine.send(b"newgame seed 3 rounds=1\ndraw\nplace 4@h8,1@h9,4@h10\ndraw\n");
    for _ in 0..4 {
        assert!(engine.response(PATIENCE)[0].starts_with('='));
    }
    engine.send(b"1 go nodes 200\n");
    let (_, best) = infos_then_bestmove(&engine);
    assert!(best[0].starts_with("=1 bestmove "), "{best:?}");
    engine.send(b"2 go infinite\n");
    thread::sleep(Duration::from_millis(1000));
    engine.send(b"3 stop\n");
    assert_eq!(engine.response_skipping_info(PATIENCE), vec!["=3", ""]);
    let (infos, best) = infos_then_bestmove(&engine);
    assert!(best[0].starts_with("=2 bestmove "), "{best:?}");
    assert!(infos.len() <= 14, "{} info lines in a second: {infos:?}", infos.len());
    // A one-second search in mid-game: the first report of each stage, then ten a second at most;
    // the last info names the move played.
    engine.send(b"newgame seed 5\ndraw\n4 go movetime 1000\n");
    for _ in 0..2 {
        assert!(engine.response(PATIENCE)[0].starts_with('='));
    }
    let (infos, best) = infos_then_bestmove(&engine);
    assert!(infos.len() <= 14, "{} info lines in a second: {infos:?}", infos.len());
    let last = infos.last().expect("an info line");
    let played = best[0].split_whitespace().nth(2).expect("a move");
    assert!(last.ends_with(&format!("pv {played}")), "{last} / {best:?}");
}

/// Sends `text` and returns the next response that is not `info` lines.
fn ask(engine: &mut Engine, text: &str) -> Vec<String> {
    engine.send(format!("{text}\n").as_bytes());
    engine.response_skipping_info(PATIENCE)
}

#[test]
fn a_gui_reads_the_board_checks_tiles_one_by_one_and_follows_the_status() {
    let mut engine = Engine::spawn(&[]);
    assert_eq!(ask(&mut engine, "1 protocol_version"), vec!["=1 2", ""]);
    ask(&mut engine, "newgame seed 3");
    let geometry = ask(&mut engine, "geometry");
    assert_eq!(geometry[0], "= columns 15 rows 15 centre h8");
    let cells = geometry[1].strip_prefix("cells ").expect("cells").split(',').count();
    let extra: Vec<&str> = geometry[2].strip_prefix("extra ").expect("extra").split(',').collect();
    assert_eq!((cells, extra.len()), (193, 32), "docs/rules.md 2.1");
    assert!(!extra.contains(&"h8"), "the classic centre is not a double cell");
    assert_eq!(ask(&mut engine, "status"), vec!["= phase draw turn 1 tomove 1 due 3", ""]);
    assert_eq!(ask(&mut engine, "draw 1 2 3"), vec!["= 1 2 3", ""]);
    assert_eq!(ask(&mut engine, "status"), vec!["= phase place turn 1 tomove 1 due 0", ""]);
    let next = ask(&mut engine, "next 1@h8,2@h9");
    assert_eq!(next[0], "= complete no");
    assert!(next[1].starts_with("next ") && next[1].contains("3@h10"), "{next:?}");
    assert_eq!(ask(&mut engine, "next 1@h8,2@h9,3@h10")[..2], ["= complete yes", "next -"]);
    assert!(ask(&mut engine, "next 1@a1")[0].starts_with("? invalid_argument "));
    assert!(ask(&mut engine, "next 4@h8")[0].starts_with("? illegal_move "));
    assert!(ask(&mut engine, "place 1@h8,2@h9,3@h10")[0].starts_with("= points"));
    assert_eq!(ask(&mut engine, "status"), vec!["= phase draw turn 2 tomove 2 due 2", ""]);
    let saved = ask(&mut engine, "history");
    let payload = saved[0].strip_prefix("= ").expect("a payload");
    assert!(
        payload.starts_with("startpos variant classic players 2 ")
            && payload.ends_with(" moves +123 1@h8,2@h9,3@h10")
    );
    let line = ask(&mut engine, "position");
    ask(&mut engine, "newgame variant kids");
    assert_eq!(ask(&mut engine, &format!("position {payload}")), vec!["=", ""]);
    assert_eq!(ask(&mut engine, "position"), line, "history rebuilds the position");
    let variants = ask(&mut engine, "variants");
    assert_eq!(variants[0], "= variant classic players 1-6 default 2 boxes 10,11,12");
    assert!(variants.iter().any(|l| l == "rule teams default off choice off,on players 4,6"), "{variants:?}");
    assert!(variants
        .iter()
        .any(|l| l.starts_with("rule size default 11 odd 3-25 by_players 11,11,13,13,15,15")));
}

#[test]
fn go_infinite_waits_for_stop_whatever_its_other_limits_say() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"1 go infinite movetime 20 nodes 50\n");
    thread::sleep(Duration::from_millis(300));
    // Nothing but info lines before this: no bestmove came after 20 ms or 50 nodes.
    assert_eq!(ask(&mut engine, "2 isready"), vec!["=2 readyok", ""]);
    assert_eq!(ask(&mut engine, "3 stop"), vec!["=3", ""]);
    let best = engine.response_skipping_info(PATIENCE);
    assert!(best[0].starts_with("=1 bestmove "), "{best:?}");
}

#[test]
fn go_searchmoves_searches_only_those_moves_and_a_clock_is_kept() {
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    let best = ask(&mut engine, "1 go nodes 3000 searchmoves 3@h8,2@h9,1@h10");
    assert!(best[0].starts_with("=1 bestmove 3@h8,2@h9,1@h10 score "), "{best:?}");
    let best = ask(&mut engine, "2 go nodes 3000 searchmoves 3@h8,2@h9,1@h10 1@h8,2@h9,3@h10");
    assert!(
        ["=2 bestmove 3@h8,2@h9,1@h10 ", "=2 bestmove 1@h8,2@h9,3@h10 "]
            .iter()
            .any(|p| best[0].starts_with(p)),
        "{best:?}"
    );
    assert!(ask(&mut engine, "3 go searchmoves 1@h8")[0].starts_with("?3 illegal_move "), "not a legal move");
    // A clock of 1.5 s with no increment in the first turn of a long game: the engine keeps
    // most of it for the moves to come.
    let sent = Instant::now();
    let best = ask(&mut engine, "4 go time 1500");
    assert!(best[0].starts_with("=4 bestmove "), "{best:?}");
    assert!(sent.elapsed() < Duration::from_millis(1500), "the clock ran out: {:?}", sent.elapsed());
}

/// Writes `first`, then up to `lines` lines of 60 kB (`known_command xxx...`) on a thread of its
/// own; returns the thread and how many of those lines were written before the writer stalled for
/// half a second.
fn flood(mut stdin: ChildStdin, first: Vec<u8>, lines: usize) -> (thread::JoinHandle<()>, usize) {
    let mut line = b"known_command ".to_vec();
    line.resize(60_000, b'x');
    line.push(b'\n');
    let (sent, written) = mpsc::channel();
    let writer = thread::spawn(move || {
        stdin.write_all(&first).expect("write");
        for _ in 0..lines {
            if stdin.write_all(&line).is_err() {
                return;
            }
            let _ = sent.send(());
        }
    });
    let mut count = 0;
    while written.recv_timeout(Duration::from_millis(500)).is_ok() {
        count += 1;
    }
    (writer, count)
}

#[test]
fn lines_piped_behind_a_long_job_are_not_stored() {
    // While a job ran on the work lane the session held every line that came, without bound:
    // `legal count` on a huge hand, then 1,500 lines of 60 kB, grew the engine from 4 to 98 MB.
    let mut engine = Engine::spawn(&[]);
    let pid = engine.child.id();
    engine.send(HUGE_HAND.as_bytes());
    assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
    engine.send(b"1 legal count\n");
    let before = common::rss_kib(pid);
    let stdin = engine.stdin.take().expect("stdin open");
    // The job answers nothing until stopped, so the engine must stop reading, and the writer block.
    let (writer, count) = flood(stdin, Vec::new(), 1500);
    let rss = common::rss_kib(pid);
    // At most 64 lines of 60 kB read ahead, and one in the pipe: about 4 MB.
    assert!(
        count < 100 && rss < before + 8 * 1024,
        "{count} lines of 60 kB taken in while a job held them; RSS {before} KiB before, {rss} KiB after"
    );
    drop(engine);
    let _ = writer.join();
}

#[test]
fn isready_stop_and_quit_overtake_the_lines_that_wait_for_a_job() {
    for last in ["quit", "stop"] {
        let mut engine = Engine::spawn(&[]);
        engine.send(HUGE_HAND.as_bytes());
        assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
        let mut input = "1 legal count\n".to_owned();
        for k in 0..40 {
            input.push_str(&format!("{} known_command x\n", 10 + k));
        }
        input.push_str(&format!("2 isready\n3 {last}\n"));
        let sent = Instant::now();
        engine.send(input.as_bytes());
        assert_eq!(engine.response(PATIENCE), vec!["=2 readyok", ""], "{last}");
        let first = engine.response(PATIENCE);
        let counted = if last == "stop" {
            assert_eq!(first, vec!["=3", ""]);
            engine.response(PATIENCE)
        } else {
            first
        };
        assert!(sent.elapsed() < Duration::from_secs(1), "{last} took {:?}", sent.elapsed());
        assert!(counted[0].starts_with("=1 ") && counted[0].ends_with(" stopped"), "{counted:?}");
        // The lines that waited are answered in order, also before a quit's own response.
        for k in 0..40 {
            assert_eq!(engine.response(PATIENCE), vec![format!("={} false", 10 + k), String::new()]);
        }
        if last == "quit" {
            assert_eq!(engine.response(PATIENCE), vec!["=3", ""], "quit answers last");
        }
        engine.close_input();
        assert_eq!(engine.wait_exit(PATIENCE), 0);
    }
}

#[test]
fn an_engine_whose_client_is_gone_ends_within_a_second_whatever_runs() {
    // A client killed while its engine ran a long job left the engine running until killed by
    // hand: nothing more came on stdin, and nobody read stdout, but the job never wrote.
    for job in ["legal count", "legal", "next", "perft 9", "go infinite", "bench"] {
        for stdin_too in [true, false] {
            let mut child = common::spawn_engine(&[], Stdio::null());
            let mut stdin = child.stdin.take().expect("piped stdin");
            let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
            // 100 lines wait behind the job: more than the engine reads ahead.
            stdin
                .write_all(format!("{HUGE_HAND}1 {job}\n{}", "name\n".repeat(100)).as_bytes())
                .expect("write");
            stdin.flush().expect("flush");
            let mut first = String::new();
            stdout.read_line(&mut first).expect("read");
            assert_eq!(first, "=\n");
            thread::sleep(Duration::from_millis(50));
            let gone = Instant::now();
            drop(stdout);
            let stdin = if stdin_too {
                drop(stdin);
                None
            } else {
                Some(stdin)
            };
            let status = loop {
                if let Some(status) = child.try_wait().expect("wait") {
                    break Some(status);
                }
                if gone.elapsed() > Duration::from_secs(1) {
                    break None;
                }
                thread::sleep(Duration::from_millis(5));
            };
            let _ = child.kill();
            let _ = child.wait();
            drop(stdin);
            let status = status.unwrap_or_else(|| {
                panic!("{job}: the engine still ran 1 s after its client went (stdin closed: {stdin_too})")
            });
            assert_eq!(status.code(), Some(0), "{job}");
        }
    }
}

#[test]
fn end_of_input_with_a_reader_lets_a_job_finish_and_answers_every_line() {
    // Closing stdin while reading stdout is how a script pipes its commands: every line read is
    // answered, a job included, before the exit.
    let mut engine = Engine::spawn(&[]);
    ready_to_move(&mut engine);
    engine.send(b"1 perft 1\n2 legal count\n3 name\n");
    engine.close_input();
    assert_eq!(engine.response(PATIENCE), vec!["=1 60", ""]);
    assert_eq!(engine.response(PATIENCE), vec!["=2 60", ""]);
    assert_eq!(engine.response(PATIENCE), vec!["=3 zatre", ""]);
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn end_of_input_stops_an_infinite_go_that_waited_behind_a_job() {
    // The `go infinite` held behind the perft started after the end of input and ran forever.
    let mut engine = Engine::spawn(&[]);
    engine.send(b"newgame seed 5\ndraw 1 2 3\n1 perft 2\n2 go infinite\n3 name\n");
    engine.close_input();
    assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
    assert_eq!(engine.response(PATIENCE), vec!["= 1 2 3", ""]);
    assert_eq!(engine.response(PATIENCE), vec!["=1 40444", ""]);
    // A read is answered while the go runs, before its bestmove.
    assert_eq!(engine.response(PATIENCE), vec!["=3 zatre", ""]);
    let bestmove = engine.response_skipping_info(PATIENCE);
    assert!(bestmove[0].starts_with("=2 bestmove "), "{bestmove:?}");
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn quit_answers_every_line_that_waited_before_it() {
    // `quit` dropped the lines held behind a job: `2 name` was never answered.
    let mut engine = Engine::spawn(&[]);
    engine.send(HUGE_HAND.as_bytes());
    assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
    engine.send(b"1 perft 2\n2 name\n3 legal count\n4 quit\n");
    let perft = engine.response(PATIENCE);
    assert!(perft[0].starts_with("=1 ") && perft[0].ends_with(" stopped"), "{perft:?}");
    assert_eq!(engine.response(PATIENCE), vec!["=2 zatre", ""]);
    let count = engine.response(PATIENCE);
    assert!(count[0].starts_with("=3 ") && count[0].ends_with(" stopped"), "{count:?}");
    assert_eq!(engine.response(PATIENCE), vec!["=4", ""]);
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn short_jobs_answered_in_the_loop_keep_their_order_with_the_others() {
    // A `legal`, `legal count` or `next` on a hand of two tiles runs in the engine's loop; a
    // `perft` or a bigger hand on the work lane's thread. The answers come in the order of the
    // lines, whichever way each ran.
    let mut engine = Engine::spawn(&[]);
    engine.send(b"position startpos moves +123 1@h8,2@h9,3@h10 +45\n");
    assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
    let mut input = String::new();
    for round in 0..20 {
        let k = 10 * round;
        input.push_str(&format!(
            "{k} legal count\n{} next 4@h7\n{} perft 1\n{} legal count\n{} name\n",
            k + 1,
            k + 2,
            k + 3,
            k + 4
        ));
    }
    engine.send(input.as_bytes());
    for round in 0..20 {
        let k = 10 * round;
        assert_eq!(engine.response(PATIENCE), vec![format!("={k} 50"), String::new()]);
        assert_eq!(
            engine.response(PATIENCE)[..2],
            [format!("={} complete no", k + 1), "next 5@g8,5@i8,5@g10,5@i10".to_owned()]
        );
        assert_eq!(engine.response(PATIENCE), vec![format!("={} 50", k + 2), String::new()]);
        assert_eq!(engine.response(PATIENCE), vec![format!("={} 50", k + 3), String::new()]);
        assert_eq!(engine.response(PATIENCE), vec![format!("={} zatre", k + 4), String::new()]);
    }
    engine.send(b"1 legal\n");
    let listed = engine.response(PATIENCE);
    assert_eq!(listed.len(), 50 + 1, "50 moves and the empty line: {listed:?}");
    engine.close_input();
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn a_stop_is_read_while_lines_wait_even_after_the_read_ahead_was_full() {
    // Once 64 lines had waited, the reader slept until half of them were answered: with 60 lines
    // waiting behind a huge job that followed, a `stop` sent then was never read.
    let mut engine = Engine::spawn(&[]);
    engine.send(b"position startpos moves +123 1@h8,2@h9,3@h10 +45\n");
    assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
    // A perft of a moment, then 64 lines that wait for it: the read-ahead is full.
    let mut input = "1 perft 2\n2 known_command x\n3 known_command x\n4 ".to_owned();
    input.push_str(HUGE_HAND);
    input.push_str("10 legal count\n");
    for k in 0..60 {
        input.push_str(&format!("{} known_command x\n", 100 + k));
    }
    engine.send(input.as_bytes());
    let perft = engine.response(PATIENCE);
    assert!(perft[0].starts_with("=1 "), "{perft:?}");
    assert_eq!(engine.response(PATIENCE), vec!["=2 false", ""]);
    assert_eq!(engine.response(PATIENCE), vec!["=3 false", ""]);
    assert_eq!(engine.response(PATIENCE), vec!["=4", ""]);
    // Now `legal count` runs on the huge hand and 60 lines wait behind it.
    thread::sleep(Duration::from_millis(50));
    engine.send(b"11 stop\n");
    assert_eq!(engine.response(Duration::from_secs(1)), vec!["=11", ""], "the stop is read at once");
    let counted = engine.response(PATIENCE);
    assert!(counted[0].starts_with("=10 ") && counted[0].ends_with(" stopped"), "{counted:?}");
    for k in 0..60 {
        assert_eq!(engine.response(PATIENCE), vec![format!("={} false", 100 + k), String::new()]);
    }
    engine.close_input();
    assert_eq!(engine.wait_exit(PATIENCE), 0);
}

#[test]
fn a_perft_as_deep_as_allowed_runs_until_stopped_and_a_deeper_one_is_refused() {
    // The kids' game can pass turn after turn, so its tree has paths as long as any depth, and
    // perft recurses once a level (some tens of KiB each): `perft 100` overflowed the worker's
    // stack and aborted the engine. Classic and the largest dice board go to the end of a game.
    for setup in ["newgame variant kids seed 1", "newgame seed 1", "newgame variant dice size=25 players 1"] {
        let mut engine = Engine::spawn(&[]);
        engine.send(format!("{setup}\n1 perft 1000\n").as_bytes());
        assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
        thread::sleep(Duration::from_millis(1000));
        engine.send(b"2 stop\n");
        assert_eq!(engine.response(PATIENCE), vec!["=2", ""], "{setup}");
        let counted = engine.response(PATIENCE);
        assert!(counted[0].starts_with("=1 ") && counted[0].ends_with(" stopped"), "{setup}: {counted:?}");
        engine.send(b"3 perft 1001\nquit\n");
        assert_eq!(
            engine.response(PATIENCE),
            vec!["?3 invalid_argument perft: depth (at most 1000) out of range: '1001'", ""]
        );
        assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
        assert_eq!(engine.wait_exit(PATIENCE), 0);
    }
}

/// Responses by id until every one of `ids` has come, skipping `info` lines.
fn responses_by_id(engine: &Engine, ids: &[&str]) -> std::collections::HashMap<String, Vec<String>> {
    let mut got = std::collections::HashMap::new();
    while ids.iter().any(|id| !got.contains_key(*id)) {
        let response = engine.response_skipping_info(PATIENCE);
        let id: String = response[0][1..].chars().take_while(char::is_ascii_digit).collect();
        got.insert(id, response);
    }
    got
}

#[test]
fn a_legal_stopped_before_its_move_size_is_proven_lists_no_pass() {
    // A hand whose tiles fit: `pass` is not legal. Stopped while the largest move size was being
    // proven, `legal` answered `pass` and `legal count` 1, as if nothing fitted.
    for round in 0..5 {
        let mut engine = Engine::spawn(&[]);
        engine.send(HUGE_HAND.as_bytes());
        assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
        engine.send(b"1 legal\n2 stop\n");
        let mut got = responses_by_id(&engine, &["1", "2"]);
        engine.send(b"3 legal count\n4 stop\n");
        got.extend(responses_by_id(&engine, &["3", "4"]));
        let listed = &got["1"];
        assert!(listed[0].starts_with("=1"), "{listed:?}");
        assert!(listed[listed.len() - 2].ends_with("stopped"), "round {round}: {listed:?}");
        assert!(!listed.iter().any(|l| l.ends_with("pass")), "round {round}: {listed:?}");
        let counted = &got["3"][0];
        let n: u64 = counted["=3 ".len()..].trim_end_matches(" stopped").parse().expect("a count");
        assert!(counted.ends_with(" stopped") && n != 1, "round {round}: {counted}");
    }
}

#[test]
fn legal_in_a_hand_of_billions_of_moves_ends_after_a_million_with_truncated() {
    // The listing is held until it is written: it grew by some 10 MB a second for as long as the
    // moves lasted (billions here), and a script's `legal` piped before closing its input ran
    // the machine out of memory.
    let mut engine = Engine::spawn(&[]);
    engine.send(HUGE_HAND.as_bytes());
    assert_eq!(engine.response(PATIENCE), vec!["=", ""]);
    engine.send(b"1 legal\n");
    let listed = engine.response(Duration::from_secs(120));
    assert_eq!(listed.len(), 1_000_002, "a million moves, truncated and the empty line");
    assert!(listed[0].starts_with("=1 "));
    assert_eq!(listed[listed.len() - 2], "truncated");
    let peak_mib = common::peak_rss_kib(engine.child.id()) / 1024;
    assert!(peak_mib < 400, "peak {peak_mib} MiB");
    engine.send(b"2 isready\n");
    assert_eq!(engine.response(PATIENCE), vec!["=2 readyok", ""]);
}

/// A kids' position of three players whose roll 4 4 fits on no cell while other values do: the
/// game goes on, pass after pass, for as long as the client draws 4 4.
const KIDS_PASSING: &str = "position variant=kids players=3 scoring=dots must_place=maximum rounds=0 turn=38 tomove=2 phase=draw board=3@a1,0@b1,2@c1,1@d1,4@e1,4@g1,4@i1,3@j1,3@b2,0@c2,2@d2,1@f2,2@g2,3@h2,2@j2,5@a3,0@d3,5@e3,5@f3,3@h3,1@i3,2@j3,1@a4,4@b4,1@c4,1@e4,4@f4,3@h4,3@i4,1@a5,0@b5,5@c5,2@d5,1@e5,0@i5,2@j5,3@c6,0@d6,2@f6,5@g6,2@h6,5@j6,5@b7,0@d7,5@e7,3@f7,2@g7,1@i7,2@a8,1@b8,1@c8,1@d8,1@e8,2@f8,4@h8,5@i8,0@j8,4@a9,3@b9,1@d9,3@e9,3@g9,4@h9,1@i9,2@j9,4@a10,4@c10,1@d10,1@e10,2@f10,0@g10,2@h10,0@i10,0@j10 bag=- hands=-/-/- sheets=-,-,-,-/-,-,-,-/-,-,-,1/-,1,-,-/-,-,1,-/-,1,-,-/-,-,-,-/-,-,-,-/-,1,-,1/-,-,-,-/-,-,-,-/-,1,-,1/-,-,2,-;-,-,-,-/-,-,-,1/-,-,-,1/-,-,-,-/-,-,-,-/-,-,-,2/-,-,-,-/-,-,-,-/-,-,-,-/-,1,1,-/-,-,-,-/-,-,1,-;-,-,-,-/-,-,-,-/-,-,-,-/-,-,-,1/-,-,-,-/-,-,-,1/-,-,-,-/-,-,-,1/-,-,-,-/-,-,-,-/-,-,-,1/-,-,1,-\n";

#[test]
fn a_game_of_endless_passes_keeps_the_last_ten_thousand_steps_to_undo() {
    // Every draw and move kept the whole position before it for undo, some 8 KiB: a client
    // drawing 4 4 and passing grew the engine by about 180 MB a second without end.
    let turns = 40_000;
    let mut child = common::spawn_engine(&[], Stdio::null());
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let pid = child.id();
    let writer = thread::spawn(move || {
        let mut input = KIDS_PASSING.to_owned();
        for _ in 0..turns {
            input.push_str("draw 4 4\nplace pass\n");
        }
        input.push_str("1 status\n");
        for _ in 0..10_000 {
            input.push_str("undo\n");
        }
        input.push_str("2 undo\n3 history\n");
        stdin.write_all(input.as_bytes()).expect("write");
        stdin
    });
    let mut lines = BufReader::new(stdout).lines().map(|l| l.expect("a line"));
    let mut next_with = |prefixes: &[&str]| {
        lines.find(|l| prefixes.iter().any(|p| l.starts_with(p))).unwrap_or_else(|| panic!("{prefixes:?}"))
    };
    let status = next_with(&["=1 "]);
    assert!(status.starts_with(&format!("=1 phase draw turn {} ", 38 + turns)), "{status}");
    let refused = next_with(&["?2 ", "=2"]);
    let history = next_with(&["=3 "]);
    let peak_mib = common::peak_rss_kib(pid) / 1024;
    drop(writer.join().expect("the writer"));
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(refused, "?2 cannot_undo only the last 10000 draws and moves can be taken back");
    // The position line holds no steps to list; the game goes on where the undos left it.
    assert!(history.starts_with("=3 variant=kids players=3"), "{history}");
    assert!(history.contains(&format!(" turn={} ", 38 + turns - 5_000)), "{history}");
    assert!(peak_mib < 250, "peak {peak_mib} MiB");
}

#[test]
fn an_analysis_runs_as_a_job_busy_for_changes_answering_reads_and_ends_on_stop() {
    let mut engine = Engine::spawn(&[]);
    engine.send(b"protocol 3\n");
    assert_eq!(engine.response(PATIENCE), vec!["= 3", ""]);
    // Playouts under a long time cap: the analysis runs until stopped.
    engine.send(
        b"1 analyse movetime 30000 depth 4 startpos seed 3 moves +566 5@h8,6@h9,6@i9 +24 2@i10,4@i11\n\
          2 place pass\n3 go nodes 10\n4 analyse nodes 10\n5 status\n6 isready\n",
    );
    for id in 2..=4 {
        let r = engine.response_skipping_info(PATIENCE);
        assert!(r[0].starts_with(&format!("?{id} busy busy ")), "{r:?}");
    }
    let status = engine.response_skipping_info(PATIENCE);
    // The analysis does not touch the current game (the new game's start, a draw due).
    assert!(status[0].starts_with("=5 phase draw turn 1"), "a read is answered meanwhile: {status:?}");
    assert_eq!(engine.response_skipping_info(PATIENCE), vec!["=6 readyok", ""]);
    engine.send(b"7 stop\n");
    let got = responses(&engine, 2);
    assert_eq!(got[0], vec!["=7".to_owned(), String::new()]);
    let last = got[1][0].split_whitespace().collect::<Vec<_>>();
    assert_eq!(last[..2], ["=1", "analysed"], "{got:?}");
    assert_eq!((last[3], last[4], last.last().copied()), ("of", "2", Some("stopped")), "{got:?}");
    assert_quiet(&mut engine, 8);
}
