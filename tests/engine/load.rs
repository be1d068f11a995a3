//! Load: 200,000 mixed commands (`place`, `undo`, `legal count`, `score`, `score <move>`,
//! `isready`, with the `draw`s and `newgame`s they need) piped through the real binary. Every
//! response is checked: one per command, in order, well framed, and equal to what the in-process
//! engine answers to the same lines (the games are seeded, so every payload is predictable). The
//! peak RSS (`VmHWM`) after the whole run must stay within a small factor of the one after the
//! first tenth: no memory grows with the number of commands.
//!
//! `cargo test --test engine load:: -- --nocapture` prints the rate and the peak RSS; with
//! `LOAD_DUMP=<file>` the input is kept, to time a release build: `/usr/bin/time -v
//! target/release/zatre < <file> > /dev/null`.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::thread;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zatre::protocol::Engine;
use zatre::rules::Phase;

/// Commands sent.
const COMMANDS: usize = 200_000;
/// The largest hand the load plays with.
const MAX_HAND: usize = 4;

/// The response of the in-process session to `line`, as the binary writes it.
fn answer(session: &mut common::InlineSession, line: &str) -> String {
    session.line(line.as_bytes())
}

/// The next command for the state of `engine`: mostly moves and queries, draws when due.
fn next_command(engine: &Engine, rng: &mut ChaCha8Rng, games: &mut u64) -> String {
    let position = engine.position();
    let roll = rng.random_range(0..100);
    // Hands grow late in a classic game (kept tiles); the move generator's time grows steeply
    // with the hand (13 tiles on a crowded board take minutes), so a load of cheap commands
    // starts a new game before that.
    let big_hand = position.hand_to_move().len() > MAX_HAND;
    match position.phase() {
        _ if big_hand || (position.is_over() && roll < 80) => {
            *games += 1;
            let variant = ["classic", "classic", "dice", "kids"][(*games % 4) as usize];
            format!("newgame variant {variant} seed {games}")
        }
        Phase::Draw if roll < 75 => "draw".to_owned(),
        Phase::Place if roll < 40 => {
            let moves = position.movegen().legal_moves();
            match moves.len() {
                0 => "place pass".to_owned(),
                n => format!("place {}", moves[rng.random_range(0..n)]),
            }
        }
        Phase::Place if roll < 50 => {
            let moves = position.movegen().legal_moves();
            match moves.len() {
                0 => "score pass".to_owned(),
                n => format!("score {}", moves[rng.random_range(0..n)]),
            }
        }
        Phase::Place if roll < 70 => "legal count".to_owned(),
        _ => ["undo", "undo", "score", "isready", "legal count"][rng.random_range(0..5)].to_owned(),
    }
}

#[test]
fn two_hundred_thousand_mixed_commands_through_the_binary() {
    // `LOAD_COMMANDS` runs a smaller or larger load.
    let commands: usize =
        std::env::var("LOAD_COMMANDS").ok().and_then(|n| n.parse().ok()).unwrap_or(COMMANDS);
    // When the first peak RSS is read.
    let early = commands / 10;
    // The commands and the expected responses, from the in-process engine.
    let mut session = common::InlineSession::new(Engine::with_seed(0));
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut games = 0u64;
    let mut input = String::new();
    let mut expected = Vec::with_capacity(commands);
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    for k in 0..commands {
        let command = if k == 0 {
            "newgame seed 0".to_owned()
        } else {
            next_command(session.engine(), &mut rng, &mut games)
        };
        let line = format!("{} {command}", k + 1);
        expected.push(answer(&mut session, &line));
        let word = command.split(' ').next().unwrap_or("");
        let kind = if command == "legal count" { "legal count" } else { word };
        let kind = ["newgame", "draw", "place", "undo", "legal count", "score", "isready"]
            .into_iter()
            .find(|w| *w == kind)
            .unwrap_or("other");
        *kinds.entry(kind).or_default() += 1;
        input.push_str(&line);
        input.push('\n');
    }
    // `LOAD_DUMP=<file>` keeps the input, to time another build with it.
    if let Some(path) = std::env::var_os("LOAD_DUMP") {
        std::fs::write(path, &input).expect("LOAD_DUMP is writable");
    }
    for kind in ["place", "undo", "legal count", "score", "isready", "draw"] {
        assert!(kinds.get(kind).copied().unwrap_or(0) > commands / 50, "too few {kind}: {kinds:?}");
    }

    let mut child = common::spawn_engine(&[], Stdio::null());
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("piped stdin");
    let (done_send, done) = std::sync::mpsc::channel::<()>();
    let started = Instant::now();
    let writer = thread::spawn(move || {
        stdin.write_all(input.as_bytes()).expect("write the commands");
        stdin.flush().expect("flush");
        // Keep stdin open until every response is read, so the process is there to be measured.
        let _ = done.recv();
        drop(stdin);
    });
    let mut out = BufReader::with_capacity(1 << 16, child.stdout.take().expect("piped stdout"));
    let mut early_peak = 0;
    let mut response = String::new();
    let mut line = String::new();
    // Responses keep the order of the commands, but `isready` is answered at once and may overtake
    // a `legal count` still counting: every other response comes in order, and every response
    // equals the in-process one.
    let mut answered = vec![false; expected.len()];
    let mut last_in_order = 0;
    for k in 0..expected.len() {
        response.clear();
        loop {
            line.clear();
            let n = out.read_line(&mut line).expect("read stdout");
            assert!(n > 0, "the engine stopped after {k} responses");
            response.push_str(&line);
            if line == "\n" {
                break;
            }
        }
        // The shape: one `=`/`?` line with a command's id, payload lines, one empty line.
        let head = response.lines().next().unwrap_or("");
        let id: usize = head
            .strip_prefix(['=', '?'])
            .and_then(|r| r.split(' ').next())
            .and_then(|id| id.parse().ok())
            .unwrap_or_else(|| panic!("response {} has no id: {response:?}", k + 1));
        assert!((1..=expected.len()).contains(&id) && !answered[id - 1], "response {id} again: {response:?}");
        answered[id - 1] = true;
        assert_eq!(&response, &expected[id - 1], "command {id}");
        if !response.contains(" readyok\n") {
            assert!(id > last_in_order, "response {id} came after {last_in_order}");
            last_in_order = id;
        }
        if k + 1 == early {
            early_peak = common::peak_rss_kib(pid);
        }
    }
    let elapsed = started.elapsed();
    let peak = common::peak_rss_kib(pid);
    done_send.send(()).expect("the writer waits");
    writer.join().expect("the writer");
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(0));
    let rate = commands as f64 / elapsed.as_secs_f64();
    println!(
        "load: {commands} commands in {:.2} s, {rate:.0} commands/s; peak RSS {early_peak} KiB after {early}, \
         {peak} KiB after {commands}; mix {kinds:?}",
        elapsed.as_secs_f64()
    );
    assert!(
        peak <= early_peak * 3 / 2 + 2048,
        "memory grew: {early_peak} KiB after {early}, {peak} KiB after {commands}"
    );
}
