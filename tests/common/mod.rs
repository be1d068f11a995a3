//! Helpers shared by the integration tests: positions from short descriptions, spawning the
//! engine binary, and the peak memory of a spawned engine.

#![allow(dead_code)]

use std::process::{Child, Command, Stdio};

use zatre::rules::{Move, Position, Tiles};

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
    let line = format!(
        "variant=classic players={} {options} turn=5 tomove=1 phase=place board={board} bag={} hands={} sheets={sheets}",
        hands.len(),
        counts.join(","),
        hands.join("/")
    );
    let line = if board == "-" { line.replace("turn=5", "turn=1") } else { line };
    Position::from_line(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// A dice (`variant=dice`) or kids position with the roll `hand` to place, for two players.
pub fn square(variant: &str, board: &str, hand: &str, options: &str) -> Position {
    let line = format!(
        "variant={variant} players=2 {options} turn=5 tomove=1 phase=place board={board} bag=- hands={hand}/- sheets=none;none"
    );
    Position::from_line(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// Parses a move on a position's board.
pub fn mv(pos: &Position, text: &str) -> Move {
    Move::parse(pos.board().geometry(), text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// `VmHWM` of a process, in KiB.
pub fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/<pid>/status");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("a VmHWM line");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("VmHWM in kB")
}
