//! Golden perft counts: `tests/golden/perft.txt` holds positions with counts made by the naive
//! reference generator in `tools/src/naive/` (which shares no code with `src/rules/`); the rules
//! core must reproduce every one. Each line is `<depth> <count> <position line>`; `#` comments
//! say what the position tests and how its count was made.

use crate::common;

use zatre::rules::perft;

#[test]
fn the_rules_core_reproduces_every_golden_perft_count() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (number, depth, expected, pos) in common::golden_counts(include_str!("../golden/perft.txt")) {
        let got = perft(&pos, depth);
        if got != expected {
            failures.push(format!(
                "line {number}: perft {depth} = {got}, golden {expected}\n  {}",
                pos.to_line()
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{} of {checked} counts differ:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 10, "the golden file holds at least ten positions, found {checked}");
}
