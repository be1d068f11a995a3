//! The golden files of `tests/golden/` against the naive reference that made them
//! (`tools/src/naive/`, which shares no code with the rules core). The rules core's golden tests
//! (`tests/rules/perft_golden.rs`, `largest_golden.rs`, `middle_hands_golden.rs`) compare it with these
//! numbers; this test keeps the numbers honest, so that a hand-edited or stale count cannot pass.
//!
//! The whole check takes the naive reference hours (six minutes without the seeded hands, most of
//! it in nine lines), so the default run checks the lines it settles in well under a second each,
//! chosen by what the file says, not by a clock: perft counts up to [`PERFT_MOST`], middle hands
//! of up to [`MIDDLE_MOST`] moves, seeded hands of as many moves and at most
//! [`SEEDED_TILES_MOST`] tiles, and the largest sizes the naive search finds without trying every
//! larger subset. All of it: `cargo test --release -p zatre-tools --test command_line golden_naive::
//! -- --ignored`.

use std::path::PathBuf;

use zatre_tools::naive::driver::{process_line, LineOutput, Mode};
use zatre_tools::naive::largest::largest_size;
use zatre_tools::naive::position::Position;

/// The largest golden perft count checked by default (33 of the 43 lines, of all three variants,
/// in about half a second; the ten others take 0.2 to 8 seconds each).
const PERFT_MOST: u64 = 10_000;
/// The most legal moves of a middle hand checked by default (249 of the 259 lines, about a
/// second; the ten others take 1 to 104 seconds each).
const MIDDLE_MOST: u64 = 1_000;

/// The most tiles in hand of a seeded hand checked by default, beside [`MIDDLE_MOST`] moves (388
/// of the 1,135 lines, under half a second): with more tiles the naive reference tries every
/// order of many subsets, and a hand of 11 tiles with only 126 moves takes it minutes.
const SEEDED_TILES_MOST: usize = 5;

/// The lines of a golden file, comments and blank lines left out.
fn golden(name: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect()
}

/// The count of a `<depth> <count> <position line>` line.
fn count_of(line: &str) -> u64 {
    line.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("no count: {line}"))
}

/// The number of tiles in the hand to move of a `<depth> <count> <position line>` line.
fn hand_size(line: &str) -> usize {
    let position_line = line.splitn(3, ' ').nth(2).unwrap_or_else(|| panic!("no position: {line}"));
    let position = Position::parse(position_line).unwrap_or_else(|e| panic!("{e}: {line}"));
    position.hand_to_move().len()
}

/// Checks the perft-format lines (all, or those with a count up to `most`); returns how many.
fn check_counts(name: &str, most: Option<u64>) -> usize {
    check_lines(name, golden(name).into_iter().filter(|l| most.is_none_or(|m| count_of(l) <= m)).collect())
}

/// Checks the given perft-format lines of a golden file; returns how many.
fn check_lines(name: &str, lines: Vec<String>) -> usize {
    for line in &lines {
        match process_line(Mode::Check, line) {
            Ok(LineOutput::Nothing) => {}
            Ok(LineOutput::Mismatch(said)) | Ok(LineOutput::Line(said)) => panic!("{name}: {said}"),
            Err(e) => panic!("{name}: {e}: {line}"),
        }
    }
    lines.len()
}

/// Checks the lines of `largest.txt` (all, or the quick ones); returns how many.
fn check_largest(all: bool) -> usize {
    let mut checked = 0;
    for line in golden("largest.txt") {
        let (size, position_line) = line.split_once(' ').unwrap_or_else(|| panic!("no size: {line}"));
        let size: usize = size.parse().unwrap_or_else(|_| panic!("bad size: {line}"));
        let position = Position::parse(position_line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let hand = position.hand_to_move();
        // Between two tiles and the whole hand, the naive search tries every larger subset in
        // every order before it settles (a hand of 13 with a largest move of 11: two minutes).
        if !all && size >= 2 && size < hand.len() {
            continue;
        }
        assert_eq!(largest_size(&position, hand), size, "largest.txt: {line}");
        checked += 1;
    }
    checked
}

#[test]
fn the_golden_numbers_are_the_naive_references_where_it_is_quick() {
    let perft = check_counts("perft.txt", Some(PERFT_MOST));
    let middle = check_counts("middle-hands.txt", Some(MIDDLE_MOST));
    let quick_seeded = golden("seeded-hands.txt")
        .into_iter()
        .filter(|l| count_of(l) <= MIDDLE_MOST && hand_size(l) <= SEEDED_TILES_MOST)
        .collect();
    let seeded = check_lines("seeded-hands.txt", quick_seeded);
    let largest = check_largest(false);
    // The default run covers most of each file (a third of the seeded hands), not a token sample.
    assert!(
        perft >= 30 && middle >= 240 && seeded >= 380 && largest >= 110,
        "{perft} {middle} {seeded} {largest}"
    );
    println!("checked: {perft} perft counts, {middle} middle hands, {seeded} seeded hands, {largest} largest sizes");
}

#[test]
#[ignore = "about six minutes in a release build, and hours more for the seeded hands; run with --ignored"]
fn every_golden_number_is_the_naive_references() {
    let perft = check_counts("perft.txt", None);
    let middle = check_counts("middle-hands.txt", None);
    let seeded = check_counts("seeded-hands.txt", None);
    let largest = check_largest(true);
    println!("checked: {perft} perft counts, {middle} middle hands, {seeded} seeded hands, {largest} largest sizes");
}
