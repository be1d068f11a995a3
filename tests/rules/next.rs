//! Tile-by-tile checking of a move being built (`Position::extensions`), against the legal moves,
//! and the reasons given for placements that are part of no legal move.

use crate::common;

use common::{classic, mv};

/// Regression: with hand `1 1 2`, `1@h8,1@h9,1@h10` was refused with "1 is not in the hand 112";
/// the reason says how many the hand holds and how many the move places.
#[test]
fn a_value_placed_more_often_than_the_hand_holds_it_says_how_many() {
    let pos = classic("", &["112", "-"], "");
    let e = pos.check(&mv(&pos, "1@h8,1@h9,1@h10")).unwrap_err();
    assert_eq!(e.to_string(), "the hand 112 holds two 1s and the move places three");
    let e = pos.check(&mv(&pos, "2@h8,2@h9")).unwrap_err();
    assert_eq!(e.to_string(), "the hand 112 holds one 2 and the move places two");
    let e = pos.check(&mv(&pos, "1@h8,4@h9")).unwrap_err();
    assert_eq!(e.to_string(), "the hand 112 holds no 4");
}

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zatre::rules::{Game, Move, MoveError, Placement, Position, Rules, Variant};

const SETUPS: [(&str, &[(&str, &str)]); 8] = [
    ("classic", &[]),
    ("classic", &[("rules", "cz3")]),
    ("classic", &[("rules", "cz4")]),
    ("classic", &[("forced_double", "forbid")]),
    ("dice", &[]),
    ("dice", &[("adjacent", "off"), ("size", "7"), ("must_place", "maximal")]),
    ("kids", &[]),
    ("kids", &[("must_place", "maximal")]),
];

fn rules(setup: usize, players: u8) -> Rules {
    let (variant, options) = SETUPS[setup];
    Rules::with_options(Variant::parse(variant).unwrap(), players, options.iter().copied()).unwrap()
}

/// A partial move: a random part of a legal move, or that with a random placement of the hand
/// added (mostly part of no legal move), or random placements near the tiles.
fn random_partial(pos: &Position, legal: &[Move], rng: &mut ChaCha8Rng) -> Vec<Placement> {
    let chosen = &legal[rng.random_range(0..legal.len())];
    let mut partial: Vec<Placement> = chosen.placements().to_vec();
    let keep = rng.random_range(0..=partial.len());
    for i in (1..partial.len()).rev() {
        partial.swap(i, rng.random_range(0..=i));
    }
    partial.truncate(keep);
    if rng.random_bool(0.4) {
        let board = pos.board();
        let cells: Vec<_> = board
            .geometry()
            .cells()
            .iter()
            .copied()
            .filter(|&c| board.has_neighbour(c) || rng.random_bool(0.03))
            .collect();
        let hand: Vec<u8> = pos.hand_to_move().values().collect();
        if !cells.is_empty() && !hand.is_empty() {
            let cell = cells[rng.random_range(0..cells.len())];
            let value = if rng.random_bool(0.9) { hand[rng.random_range(0..hand.len())] } else { 6 };
            let at = rng.random_range(0..=partial.len());
            partial.insert(at, Placement { cell, value });
        }
    }
    partial
}

/// `extensions` against the legal moves: `complete` is membership, `next` the union of the
/// legal moves holding the partial set, minus it; a partial set in no legal move is an error,
/// with the reason `check` gives or, for a set too small to complete, `NoCompletion`.
fn assert_agrees(pos: &Position, legal: &[Move], partial: &[Placement]) {
    let stop = AtomicBool::new(false);
    let got = pos.extensions(partial, &stop);
    let as_move = Move::new(partial.to_vec());
    let set: BTreeSet<Placement> = partial.iter().copied().collect();
    let repeated = partial.iter().enumerate().any(|(i, p)| partial[..i].iter().any(|q| q.cell == p.cell));
    let holding: Vec<&Move> =
        legal.iter().filter(|m| !repeated && set.iter().all(|p| m.placements().contains(p))).collect();
    let context = format!("partial {as_move} on {}", pos.to_line());
    if holding.is_empty() {
        let err = got.expect_err(&context);
        if let Err(MoveError::TooFew { required, .. }) = pos.check(&as_move) {
            // Valid as far as it goes, but no legal move holds it: say that, not "too few".
            assert!(matches!(err, MoveError::NoCompletion { required: r, .. } if r == required), "{context}");
        }
        if !matches!(err, MoveError::NoCompletion { .. }) {
            assert_eq!(Err(err), pos.check(&as_move), "{context}");
        } else {
            assert!(pos.check(&as_move).is_err(), "{context}");
        }
        return;
    }
    let expected: BTreeSet<Placement> =
        holding.iter().flat_map(|m| m.placements()).copied().filter(|p| !set.contains(p)).collect();
    let got = got.unwrap_or_else(|e| panic!("{e}: {context}"));
    assert!(!got.stopped, "{context}");
    assert_eq!(got.complete, Some(legal.contains(&as_move)), "{context}");
    assert_eq!(got.next, expected.into_iter().collect::<Vec<_>>(), "{context}");
}

proptest! {
    #![proptest_config(common::proptest_config(60))]

    #[test]
    fn next_is_the_union_of_the_legal_moves_holding_the_partial_move(
        seed in any::<u64>(),
        setup in 0..SETUPS.len(),
        players in 1u8..=3,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules(setup, players));
        for _ in 0..30 {
            if game.position().is_over() {
                break;
            }
            game.draw_random(&mut rng).unwrap();
            let pos = game.position().clone();
            if pos.hand_to_move().len() <= common::LISTED_HAND && pos.movegen().legal_count() <= 4000 {
                let legal = pos.movegen().legal_moves();
                assert_agrees(&pos, &legal, &[]);
                for _ in 0..6 {
                    let partial = random_partial(&pos, &legal, &mut rng);
                    assert_agrees(&pos, &legal, &partial);
                }
            }
            let m = common::random_move(&pos, &mut rng);
            game.play(&m).unwrap();
        }
    }
}

/// A kept hand of five tiles takes the witness search first under `maximal` (a small move per
/// candidate placement): it agrees with the legal moves too, as does the sweep under `maximum`.
#[test]
fn a_kept_hand_of_five_agrees_with_the_legal_moves() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for options in ["", "rules=cz3", "rules=cz4"] {
        let pos = classic("5@h8,6@h9,1@i8,2@g8,1@j8", &["11223", "-"], options);
        let legal = pos.movegen().legal_moves();
        assert_agrees(&pos, &legal, &[]);
        for _ in 0..12 {
            let partial = random_partial(&pos, &legal, &mut rng);
            assert_agrees(&pos, &legal, &partial);
        }
    }
}

/// A hand of 26 kept tiles on a crowded board (moves by the billions): raising the stop flag ends
/// `next` at once, with what it found so far marked `stopped`. The worker's own CPU time is
/// counted (200 ms of work before the stop, under 500 ms after it), not wall-clock time, which a
/// loaded machine stretches.
#[cfg(target_os = "linux")]
#[test]
fn a_huge_kept_hand_stops_at_once_when_told() {
    use std::time::Duration;
    let board = "6@b2,1@c2,6@c3,6@d3,1@f3,6@d4,3@e4,1@f4,2@g4,3@a5,2@b5,5@c5,5@e5,4@f5,3@g5,\
                 5@a6,4@b6,1@d6,4@e6,6@f6,1@g6,1@a7,5@b7,2@c7,4@d7,1@g7,6@h7,5@i7,6@c8,2@d8,2@f8,\
                 1@g8,5@h8,4@i8";
    for options in ["", "rules=cz3"] {
        let pos = classic(board, &["11223344556612233445566123", "-"], options);
        let stop = &AtomicBool::new(false);
        let pos = &pos;
        let (tell, handle) = std::sync::mpsc::channel();
        let (got, at_stop, total) = std::thread::scope(|s| {
            let worker = s.spawn(move || {
                tell.send(common::own_cpu_time().1).expect("the test listens");
                (pos.extensions(&[], stop), common::own_cpu_time().0)
            });
            // The worker's clock, read while it runs: the stop comes after 200 ms of its work.
            let thread = handle.recv().expect("the worker's handle");
            let mut at_stop = Duration::ZERO;
            while let Some(used) = common::thread_cpu_time(thread).filter(|_| !worker.is_finished()) {
                at_stop = used;
                if used >= Duration::from_millis(200) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            let (got, total) = worker.join().expect("no panic");
            (got, at_stop, total)
        });
        let after_stop = total.saturating_sub(at_stop);
        assert!(after_stop < Duration::from_millis(500), "{after_stop:?} of CPU time after the stop");
        assert!(total < Duration::from_secs(5), "{total:?} of CPU time in all");
        let got = got.expect("a move is due");
        assert!(got.stopped, "far from done in 200 ms");
        if options == "rules=cz3" {
            // Under maximal the small witnesses come first: most placements are found at once.
            assert!(!got.next.is_empty(), "{got:?}");
            assert_eq!(got.complete, Some(false), "a tile fits, so pass is not legal");
        } else {
            // Under maximum nothing is known before the largest move size is; once it is (the
            // pruned proof may well take less than the 200 ms), pass is known not to be legal.
            match got.complete {
                None => assert!(got.next.is_empty(), "{got:?}"),
                Some(complete) => assert!(!complete, "a tile fits, so pass is not legal: {got:?}"),
            }
        }
    }
}

/// A tile that is valid on its own but leaves no room for the second number, while another move
/// writes both: it is part of no legal move, and the reason says so rather than "too few".
#[test]
fn a_valid_tile_that_no_legal_move_holds_is_refused_as_no_completion() {
    let line = "variant=dice players=2 size=5 turn=6 tomove=2 phase=place \
                board=2@c1,3@d1,1@e1,3@c2,5@d2,1@c3,5@b4,4@c4,6@a5,5@b5,1@c5 bag=- hands=-/46 \
                sheets=2x,-,2,4/2x,-,-,-/2x,-,-,-;2x,1,-,-";
    let pos = Position::from_line(line).expect("a valid position");
    let legal = pos.movegen().legal_moves();
    let partial = mv(&pos, "4@b1");
    let required = legal[0].len();
    assert!(required > 1 && legal.iter().all(|m| !m.placements().contains(&partial.placements()[0])));
    assert!(matches!(pos.check(&partial), Err(MoveError::TooFew { .. })));
    let err = pos.extensions(partial.placements(), &AtomicBool::new(false)).unwrap_err();
    assert!(matches!(err, MoveError::NoCompletion { required: r, .. } if r == required), "{err}");
    assert!(err.to_string().starts_with("these placements are part of no legal move"), "{err}");
    assert_agrees(&pos, &legal, partial.placements());
}
