//! A fuzz of the protocol with a fixed budget, run by `cargo test`: random bytes and near-valid
//! commands (real command words with mutated arguments, legal moves, altered position lines) go
//! line by line through the in-process engine. Every line must get exactly one well-framed
//! response (or none, for an empty or comment line), nothing may panic, and a failed command
//! must leave the `position` line as it was.
//!
//! The budget is fixed (`CASES` sequences of up to `LINES` lines each) and the seed of proptest is
//! derived from the test's name, so a run is repeatable; set `PROPTEST_CASES` to fuzz longer.

use crate::common;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use zatre::protocol::{parse_line, Engine, ErrorCode, Line, MAX_LINE_BYTES};

/// Sequences per property.
const CASES: u32 = 160;
/// The most lines in one sequence.
const LINES: usize = 48;
/// The largest hand the fuzz asks for legal moves.
const MAX_HAND: usize = 6;

/// One step of a sequence: a fixed line, or a line built from the engine's state when it runs.
#[derive(Debug, Clone)]
enum Step {
    /// These bytes as one line.
    Bytes(Vec<u8>),
    /// A text line.
    Text(String),
    /// The `k`-th legal move (modulo their number) as `place`, or `draw` when one is due.
    Play(usize),
    /// The current position line with field `field` (modulo their number) altered by `how`.
    AlterPosition { field: usize, how: Alteration },
}

#[derive(Debug, Clone)]
enum Alteration {
    Drop,
    Empty,
    Replace(String),
    Repeat,
    CutAt(usize),
    Append(String),
}

/// Arguments that are wrong in every way a client can get them wrong, and some right ones.
fn argument() -> impl Strategy<Value = String> {
    prop_oneof![
        // Numbers: in range, at the edges, out of range, negative, not numbers.
        proptest::sample::select(vec![
            "0",
            "1",
            "2",
            "3",
            "5",
            "6",
            "7",
            "9",
            "10",
            "64",
            "65",
            "255",
            "256",
            "4294967295",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999",
            "-1",
            "+1",
            "1.5",
            "0x10",
            "",
            "x",
            "count",
            "infinite",
            "moves",
            "startpos",
            "name",
            "value",
            "pass",
            "Threads",
            "MultiPV",
            "Strategy",
            "Seed",
            "classic",
            "dice",
            "kids",
            "variant",
            "players",
            "seed",
            "movetime",
            "nodes",
            "depth",
            "+",
            "+123",
            "+9",
            "+66",
            "rules=cz3",
            "teams=on",
            "size=13",
            "size=4",
            "rounds=1",
            "rounds=x",
            "x=y",
            "=",
            "a=",
            "=b",
            "@",
            ",",
            "é",
            "\u{0}",
            "\u{7f}",
        ])
        .prop_map(str::to_owned),
        // Placements with any value, column and row, and moves of several of them.
        proptest::collection::vec((0u16..300, 0u8..30, 0u32..70000), 1..4).prop_map(|ps| {
            ps.iter()
                .map(|&(v, c, r)| format!("{v}@{}{r}", char::from(b'a' + c.min(25))))
                .collect::<Vec<_>>()
                .join(",")
        }),
        "[0-9]{1,3}",
        "[a-z@,+=0-9-]{1,12}",
    ]
}

/// A command word (mostly a real one, sometimes a near miss) with 0 to 4 arguments.
fn near_command() -> impl Strategy<Value = String> {
    // Every real command word, and near misses of them.
    let mut words: Vec<&'static str> = zatre::protocol::registry::words().collect();
    words.extend([
        "Name",
        "draws",
        "placе",
        "un do",
        "legal count",
        "setoption name",
        "setoption name Threads value",
        "newgame variant",
        "position startpos moves",
        "go depth",
        "perft 99",
        "bench 1",
    ]);
    let words = proptest::sample::select(words);
    let id = proptest::option::of(prop_oneof!["[0-9]{1,9}", "[0-9]{10,12}", Just("-1".to_owned())]);
    let sep = proptest::sample::select(vec![" ", "  ", "\t", " \t "]);
    (id, words, proptest::collection::vec((sep, argument()), 0..5), proptest::bool::ANY).prop_map(
        |(id, word, args, crlf)| {
            let mut line = id.map(|i| format!("{i} ")).unwrap_or_default();
            line.push_str(word);
            for (sep, a) in args {
                line.push_str(sep);
                line.push_str(&a);
            }
            if crlf {
                line.push('\r');
            }
            line
        },
    )
}

fn alteration() -> impl Strategy<Value = Alteration> {
    prop_oneof![
        Just(Alteration::Drop),
        Just(Alteration::Empty),
        Just(Alteration::Repeat),
        argument().prop_map(Alteration::Replace),
        (0usize..40).prop_map(Alteration::CutAt),
        argument().prop_map(Alteration::Append),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => proptest::collection::vec(any::<u8>(), 0..60).prop_map(Step::Bytes),
        1 => "\\PC{0,40}".prop_map(Step::Text),
        6 => near_command().prop_map(Step::Text),
        5 => (0usize..1000).prop_map(Step::Play),
        1 => proptest::sample::select(vec!["undo", "draw", "newgame seed 1", "newgame variant dice seed 2",
            "newgame variant kids seed 3", "newgame players 1 rounds=1 seed 4", "newgame players 4 teams=on"])
            .prop_map(|s| Step::Text(s.to_owned())),
        2 => (0usize..20, alteration()).prop_map(|(field, how)| Step::AlterPosition { field, how }),
    ]
}

/// The line a step sends, given the engine's state.
fn line_of(step: &Step, engine: &Engine) -> Vec<u8> {
    match step {
        Step::Bytes(bytes) => bytes.iter().copied().filter(|&b| b != b'\n').collect(),
        Step::Text(text) => text.replace('\n', " ").into_bytes(),
        Step::Play(k) => {
            let position = engine.position();
            if position.hand_to_move().len() > MAX_HAND {
                // Kept tiles pile up late in a game, and the move generator's time grows steeply
                // with the hand: play on with a fresh game instead.
                return b"newgame seed 5".to_vec();
            }
            match position.phase() {
                zatre::rules::Phase::Place => {
                    let moves = position.movegen().legal_moves();
                    if moves.is_empty() {
                        b"place pass".to_vec()
                    } else {
                        format!("place {}", moves[k % moves.len()]).into_bytes()
                    }
                }
                _ => b"draw".to_vec(),
            }
        }
        Step::AlterPosition { field, how } => {
            let line = engine.position().to_line();
            let mut fields: Vec<String> = line.split(' ').map(str::to_owned).collect();
            let k = field % fields.len();
            let key = fields[k].split('=').next().unwrap_or("").to_owned();
            match how {
                Alteration::Drop => {
                    fields.remove(k);
                }
                Alteration::Empty => fields[k] = format!("{key}="),
                Alteration::Replace(v) => fields[k] = format!("{key}={v}"),
                Alteration::Repeat => fields.insert(k, fields[k].clone()),
                Alteration::CutAt(at) => {
                    let f = &fields[k];
                    let at = (*at).min(f.len());
                    fields[k] = f[..at].to_owned();
                    fields.truncate(k + 1);
                }
                Alteration::Append(v) => fields[k].push_str(v),
            }
            format!("position {}", fields.join(" ")).into_bytes()
        }
    }
}

/// Whether the framing ignores `bytes` (no response): empty, blank or a comment, and valid.
fn is_ignored(bytes: &[u8]) -> bool {
    let b = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if b.len() > MAX_LINE_BYTES {
        return false;
    }
    match std::str::from_utf8(b) {
        Ok(text) => {
            let t = text.trim_matches(|c| c == ' ' || c == '\t');
            t.is_empty() || t.starts_with('#')
        }
        Err(_) => false,
    }
}

/// The id the line starts with, when it has a valid one.
fn id_of(bytes: &[u8]) -> Option<String> {
    match parse_line(bytes) {
        Line::Request { id, .. } => id.map(|i| i.to_string()),
        Line::Ignored => None,
    }
}

/// Checks the wire form of one response; returns whether it is a success.
fn check_response(line: &[u8], text: &str, id: Option<&str>) -> Result<bool, TestCaseError> {
    let show = || format!("line {:?} gave {text:?}", String::from_utf8_lossy(line));
    prop_assert!(text.ends_with("\n\n"), "no empty line at the end: {}", show());
    let body = &text[..text.len() - 2];
    prop_assert!(!body.is_empty(), "{}", show());
    prop_assert!(!body.contains("\n\n"), "an empty line inside: {}", show());
    prop_assert!(!body.contains('\r'), "a \\r inside: {}", show());
    let head = body.lines().next().unwrap_or("");
    let (ok, rest) = match head.as_bytes()[0] {
        b'=' => (true, &head[1..]),
        b'?' => (false, &head[1..]),
        _ => return Err(TestCaseError::fail(format!("no = or ?: {}", show()))),
    };
    let echoed = rest.split(' ').next().unwrap_or("");
    prop_assert_eq!(echoed, id.unwrap_or(""), "the id is not echoed: {}", show());
    if !ok {
        prop_assert_eq!(body.lines().count(), 1, "a failure has one line: {}", show());
        let code = rest.split(' ').nth(1).unwrap_or("");
        prop_assert!(
            ErrorCode::ALL.iter().any(|c| c.as_str() == code && *c != ErrorCode::Internal),
            "bad code {}: {}",
            code,
            show()
        );
    }
    Ok(ok)
}

/// Runs a sequence through a fresh engine (another after each `quit`), checking every response.
fn run_sequence(steps: &[Step]) -> Result<(), TestCaseError> {
    let mut session = common::InlineSession::stopping_jobs(Engine::with_seed(11));
    for step in steps {
        // After `quit` the engine reads no more: the sequence goes on with a fresh one.
        if session.exited {
            session = common::InlineSession::stopping_jobs(Engine::with_seed(11));
        }
        let line = line_of(step, session.engine());
        let before = session.engine().position().to_line();
        let id = id_of(&line);
        // Jobs run inline, stopped at once: the fuzz checks framing, not the search.
        let written = session.line(&line);
        let mut text = String::new();
        for l in written.split_inclusive('\n') {
            if l.starts_with("info ") {
                prop_assert!(l.ends_with('\n') && l.matches('\n').count() == 1, "bad info line {:?}", l);
            } else {
                text.push_str(l);
            }
        }
        if text.is_empty() {
            prop_assert!(is_ignored(&line), "no response to {:?}", String::from_utf8_lossy(&line));
            continue;
        }
        prop_assert!(
            !is_ignored(&line),
            "a response to an ignored line {:?}",
            String::from_utf8_lossy(&line)
        );
        let ok = check_response(&line, &text, id.as_deref())?;
        if !ok {
            prop_assert_eq!(
                session.engine().position().to_line(),
                before,
                "the failed command {:?} ({:?}) changed the position",
                String::from_utf8_lossy(&line),
                text
            );
        }
    }
    Ok(())
}

fn runner(name: &str) -> TestRunner {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(CASES);
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    // A fixed seed per property: the same cases every run.
    let mut seed = [0u8; 32];
    for (k, b) in name.bytes().enumerate() {
        seed[k % 32] ^= b;
    }
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed))
}

#[test]
fn command_sequences_get_one_response_each_and_failures_change_nothing() {
    let mut runner = runner("sequences");
    let strategy = proptest::collection::vec(step(), 1..LINES);
    runner.run(&strategy, |steps| run_sequence(&steps)).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn the_line_parser_never_panics_and_keeps_the_id() {
    let mut runner = runner("parser");
    let strategy = prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..200),
        near_command().prop_map(String::into_bytes),
        "\\PC{0,80}".prop_map(String::into_bytes),
    ];
    runner
        .run(&strategy, |line| {
            match parse_line(&line) {
                Line::Ignored => prop_assert!(is_ignored(&line)),
                Line::Request { id, command } => {
                    prop_assert!(!is_ignored(&line));
                    if let Some(id) = id {
                        let text = String::from_utf8_lossy(&line);
                        prop_assert!(text.trim_start_matches([' ', '\t']).starts_with(id.as_str()));
                    }
                    if let Err(e) = command {
                        // Every parse error maps to a code a client can act on.
                        prop_assert!(e.code() != ErrorCode::Internal);
                    }
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn long_games_of_legal_moves_with_undos_stay_well_framed() {
    // Mostly legal play, so sequences reach the middle and the end of games.
    let mut runner = runner("games");
    let strategy = proptest::collection::vec(
        prop_oneof![
            8 => (0usize..1000).prop_map(Step::Play),
            1 => Just(Step::Text("undo".to_owned())),
            1 => near_command().prop_map(Step::Text),
            1 => (0usize..20, alteration()).prop_map(|(field, how)| Step::AlterPosition { field, how }),
            1 => proptest::sample::select(vec!["score", "legal count", "position", "show"])
                .prop_map(|s| Step::Text(s.to_owned())),
        ],
        40..160,
    );
    runner.run(&strategy, |steps| run_sequence(&steps)).unwrap_or_else(|e| panic!("{e}"));
}
