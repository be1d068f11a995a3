//! Golden largest move sizes of huge hands: `tests/golden/largest.txt` holds positions from real
//! games where the player to move holds 12 or more kept tiles, with the size of the largest move
//! found by the naive reference (`tools/src/naive/largest.rs`, which shares no code with
//! `src/rules/`); the rules core must reproduce every one. Each line is `<size> <position line>`.

use std::time::{Duration, Instant};

use zatre::rules::Position;

#[test]
fn the_rules_core_reproduces_every_golden_largest_size() {
    let text = include_str!("../golden/largest.txt");
    let mut checked = 0;
    let mut slowest = Duration::ZERO;
    let mut failures = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((size, position)) = line.split_once(' ') else {
            panic!("line {}: expected <size> <position line>", number + 1);
        };
        let expected: usize = size.parse().expect("the size is a number");
        let pos = Position::from_line(position).unwrap_or_else(|e| panic!("line {}: {e}", number + 1));
        assert!(pos.hand_to_move().len() >= 12, "line {}: a huge hand", number + 1);
        let started = Instant::now();
        let got = pos.movegen().largest_size();
        slowest = slowest.max(started.elapsed());
        if got != expected {
            failures.push(format!("line {}: largest {got}, golden {expected}\n  {position}", number + 1));
        }
        checked += 1;
    }
    eprintln!("{checked} positions, the slowest took {slowest:?} (this profile)");
    assert!(failures.is_empty(), "{} of {checked} sizes differ:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 100, "the golden file holds at least 100 positions, found {checked}");
}
