//! Golden legal-move counts of middle hands: `tests/golden/middle-hands.txt` and
//! `tests/golden/seeded-hands.txt` hold real positions whose hand to move holds 3 to 11 tiles
//! (kept from earlier turns), from seeded games of every classic rule set and player count, with
//! counts made by the naive reference generator in `tools/src/naive/` (which shares no code with
//! `src/rules/`). The rules core must reproduce every count, both by counting (`legal count`) and
//! by listing the moves (`legal`, `go`). The same positions are the `hand3` ... `hand9`,
//! `seeded_size` and `seeded_rules` groups of `cargo bench --bench movegen`.

use crate::common;

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use zatre::rules::{Move, Position};
use zatre::search::{self, Limits, SearchOptions};

/// Counts and lists every position of a golden file of middle hands, checks the first listed
/// move of each with the rules core's own check, and returns how many positions of each hand
/// size it held.
fn check_golden(name: &str, text: &str) -> [usize; 12] {
    let mut checked = 0;
    let mut sizes = [0usize; 12];
    let mut failures = Vec::new();
    for (number, depth, expected, pos) in common::golden_counts(text) {
        assert_eq!(depth, 1, "{name} line {number}: the counts are of legal moves (depth 1)");
        let tiles = pos.hand_to_move().len();
        assert!((3..=11).contains(&tiles), "{name} line {number}: a hand of 3 to 11 tiles, not {tiles}");
        sizes[tiles] += 1;
        let counted = pos.movegen().legal_count();
        let mut listed = 0u64;
        let mut first = None;
        let _ = pos.movegen().for_each_legal(&mut |placements| {
            listed += 1;
            first.get_or_insert_with(|| Move::new(placements.to_vec()));
            ControlFlow::Continue(())
        });
        if counted != expected || listed != expected {
            failures.push(format!(
                "{name} line {number}: counted {counted}, listed {listed}, golden {expected} (hand {})",
                pos.hand_to_move()
            ));
        }
        // The first listed move is legal by the rules core's own check.
        if let Some(mv) = first {
            if let Err(e) = pos.movegen().check(&mv) {
                failures.push(format!("{name} line {number}: the listed move {mv} is not legal: {e}"));
            }
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} positions differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    sizes
}

#[test]
fn the_rules_core_counts_and_lists_every_golden_middle_hand() {
    let sizes = check_golden("middle-hands.txt", include_str!("../golden/middle-hands.txt"));
    let checked: usize = sizes.iter().sum();
    assert!(checked >= 200, "the corpus holds at least 200 positions, found {checked}");
    for tiles in [3, 4, 5, 6, 9] {
        assert!(
            sizes[tiles] >= 10,
            "the corpus holds at least 10 hands of {tiles} tiles, found {}",
            sizes[tiles]
        );
    }
}

#[test]
fn the_rules_core_counts_and_lists_every_golden_seeded_hand() {
    let sizes = check_golden("seeded-hands.txt", include_str!("../golden/seeded-hands.txt"));
    let checked: usize = sizes.iter().sum();
    assert!(checked >= 1_000, "the corpus holds at least 1,000 positions, found {checked}");
    for (tiles, &n) in sizes.iter().enumerate().skip(3) {
        assert!(n >= 100, "the corpus holds at least 100 hands of {tiles} tiles, found {n}");
    }
}

/// The hand `123345666` of the issue on moving move generation by rule set, solo under the default
/// rules with `leftovers=cz4` (97,823 moves): the slowest hand of the seeded games the corpus was
/// drawn from. Its count is not naive-checked (the naive reference tries every order of every
/// subset), so it is not in the golden file; here it only has to give `go` a legal answer.
const HAND_123345666: &str = "variant=classic players=1 center_cross=scoring must_place=maximum forced_double=allow leftovers=cz4 bonus=3,3,3,3,4,4,4,4,5,5,5,5,6 rounds=0 teams=off turn=50 tomove=1 phase=place board=6@b2,4@c2,2@d2,5@b3,1@b4,6@c4,3@d4,5@c5,3@d5,2@e5,1@d6,5@e6,5@f6,4@d7,3@e7,3@f7,1@g7,6@b8,5@c8,2@e8,3@f8,5@g8,2@h8,5@a9,3@b9,3@c9,6@g9,2@h9,4@i9,1@n9,4@o9,2@a10,2@b10,4@c10,4@d10,6@h10,1@i10,5@j10,1@l10,1@m10,4@n10,6@o10,3@a11,6@d11,5@e11,1@g11,2@h11,6@i11,3@j11,4@l11,1@m11,6@n11,1@o11,2@d12,2@e12,5@f12,3@g12,1@i12,3@j12,4@k12,3@l12,1@m12,5@e13,6@g13,3@h13,2@l13,4@m13,6@n13,5@f14,1@g14,4@h14,2@i14,2@l14,5@m14,5@n14,4@e15,5@f15,1@g15,4@i15,6@j15,2@k15 bag=6,5,5,6,4,5 hands=123345666 sheets=x,1,2,4/x,1,2,4/x,1,2,4/x,1,2,8/x,1,2,4/x,1,2,8/x,1,2,4/x,1,2,4/x,1,2,4/x,1,2,8/x,2,2,4/x,1,2,4/x,1,2,4/x,1,2,8/x,1,2,4/x,1,2,4/x,1,2,12/x,1,2,4/-,2,4,4/-,-,2,-/-,-,2,-";

/// How long a `go` may take before the test calls it a hang: the searches below are limited to
/// 100 ms or a few thousand nodes; the bound is generous for a loaded machine. (No speed is
/// measured here: that is `cargo bench --bench movegen` and docs/contributing.md.)
const HANG: Duration = Duration::from_secs(60);

/// Runs the search on its own thread; the move it answers with, or a failure naming the position.
fn go_answers(pos: &Position, limits: Limits) -> Result<Move, String> {
    let (send, receive) = mpsc::channel();
    let position = pos.clone();
    let described = format!("{limits:?} in {}", pos.to_line());
    thread::spawn(move || {
        let outcome =
            search::run(&position, &limits, &SearchOptions::default(), &AtomicBool::new(false), &mut |_| {});
        let _ = send.send(outcome.map(|o| o.best));
    });
    let best = match receive.recv_timeout(HANG) {
        Ok(Some(best)) => best,
        Ok(None) => return Err(format!("no move in a place phase: {described}")),
        Err(_) => return Err(format!("go did not answer within {HANG:?}: {described}")),
    };
    pos.clone().play(&best).map_err(|e| format!("{best} is refused ({e}): {described}"))?;
    Ok(best)
}

/// `go` in the corpus's biggest hands: the 12 positions of `seeded-hands.txt` with the most moves,
/// the 12 with the most tiles (then moves), and the hand `123345666` under the three rule sets of
/// the issue. Each answers a move the rules accept, under a time limit of 100 ms and under a node
/// limit at depth 1 (where the search lists the root's moves, the slow part in such a hand).
#[test]
fn go_answers_a_legal_move_in_the_biggest_seeded_hands() {
    let mut golden = common::golden_counts(include_str!("golden/seeded-hands.txt"));
    let mut chosen: Vec<(String, Position)> = Vec::new();
    golden.sort_by_key(|(_, _, count, _)| std::cmp::Reverse(*count));
    chosen.extend(golden.iter().take(12).map(|(n, _, _, pos)| (format!("line {n}"), pos.clone())));
    golden.sort_by_key(|(_, _, count, pos)| std::cmp::Reverse((pos.hand_to_move().len(), *count)));
    chosen.extend(golden.iter().take(12).map(|(n, _, _, pos)| (format!("line {n}"), pos.clone())));
    assert!(
        golden.iter().take(12).all(|(_, _, _, pos)| pos.hand_to_move().len() >= 10),
        "the corpus holds at least 12 hands of 10 or 11 tiles"
    );
    let issue = [
        HAND_123345666.to_string(),
        HAND_123345666.replace("forced_double=allow leftovers=cz4", "forced_double=forbid leftovers=de"),
        HAND_123345666.replace(
            "center_cross=scoring must_place=maximum forced_double=allow",
            "center_cross=always must_place=maximal forced_double=forbid",
        ),
    ];
    for (k, line) in issue.iter().enumerate() {
        let pos = Position::from_line(line).expect("the issue's position");
        chosen.push((format!("the hand 123345666, rules {}", k + 1), pos));
    }
    assert!(chosen[24..].iter().all(|(_, pos)| pos.hand_to_move().len() == 9), "the hand 123345666");
    let mut failures = Vec::new();
    for (name, pos) in &chosen {
        let by_time = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
        let by_nodes = Limits { nodes: Some(3_000), depth: Some(1), ..Limits::default() };
        for limits in [by_time, by_nodes] {
            if let Err(e) = go_answers(pos, limits) {
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
