//! Golden perft counts: `tests/golden/perft.txt` holds positions with counts made by the naive
//! reference generator in `tools/src/naive/` (which shares no code with `src/rules/`); the rules
//! core must reproduce every one. Each line is `<depth> <count> <position line>`; `#` comments
//! say what the position tests and how its count was made.

use zatre::rules::{perft, Position};

#[test]
fn the_rules_core_reproduces_every_golden_perft_count() {
    let text = include_str!("golden/perft.txt");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(3, ' ');
        let (Some(depth), Some(count), Some(position)) = (parts.next(), parts.next(), parts.next()) else {
            panic!("line {}: expected <depth> <count> <position line>", number + 1);
        };
        let depth: u32 = depth.parse().expect("depth is a number");
        let expected: u64 = count.parse().expect("count is a number");
        let pos = Position::from_line(position).unwrap_or_else(|e| panic!("line {}: {e}", number + 1));
        let got = perft(&pos, depth);
        if got != expected {
            failures
                .push(format!("line {}: perft {depth} = {got}, golden {expected}\n  {position}", number + 1));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{} of {checked} counts differ:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 10, "the golden file holds at least ten positions, found {checked}");
}
