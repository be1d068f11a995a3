//! The game's status from the rules core: phase, turn, seat to move, what the next draw takes, and
//! at the end the reason and the ranking, over whole random games of every variant.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zatre::rules::{Game, Position, Rules, Variant};

fn rules(variant: Variant, players: u8, options: &[(&str, &str)]) -> Rules {
    Rules::with_options(variant, players, options.iter().copied()).expect("valid rules")
}

/// Plays a random game to its end, calling `visit` with every position on the way.
fn random_game(rules: Rules, seed: u64, mut visit: impl FnMut(&Position)) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules);
    visit(game.position());
    while !game.position().is_over() {
        game.draw_random(&mut rng).expect("a draw is due");
        visit(game.position());
        let (chosen, _) = game.position().movegen().random_legal(&mut rng, u64::MAX);
        game.play(&chosen).expect("a generated move is legal");
        visit(game.position());
    }
    game.position().clone()
}

/// Regression: after the end of a 2-player game `position` said `turn=3 tomove=2`; the seat to
/// move must follow the turn (turn 1 is seat 1) at every point, the end included.
#[test]
fn tomove_agrees_with_turn_after_the_end_of_the_game() {
    let two_rounds = rules(Variant::Classic, 2, &[("rounds", "1")]);
    let end = random_game(two_rounds, 1, |_| {});
    assert!(end.is_over());
    assert_eq!((end.turn(), end.to_move()), (3, 0), "{}", end.to_line());
    assert!(end.to_line().contains("turn=3 tomove=1 phase=over"), "{}", end.to_line());
    for (variant, players, options) in [
        (Variant::Classic, 2, &[][..]),
        (Variant::Classic, 3, &[("rounds", "2")][..]),
        (Variant::Dice, 2, &[][..]),
        (Variant::Kids, 3, &[][..]),
    ] {
        for seed in 0..3 {
            let end = random_game(rules(variant, players, options), seed, |pos| {
                let seat = (pos.turn() - 1) as usize % usize::from(players);
                assert_eq!(pos.to_move(), seat, "{}", pos.to_line());
            });
            assert_eq!(Position::from_line(&end.to_line()).as_ref(), Ok(&end));
        }
    }
}

use zatre::rules::{EndReason, KidsScoring, MoveGen, Phase, Tiles, BOARD_END_OWN_TURNS};

/// Whether some hand could still place a tile (classic) or some empty kids' cell takes a 0.
fn anyone_can_place(pos: &Position) -> bool {
    match pos.rules().variant {
        Variant::Classic => (0..usize::from(pos.rules().players)).any(|seat| {
            let hand = *pos.hand(seat);
            !hand.is_empty() && MoveGen::new(pos.rules(), pos.board(), hand).any_move().is_some()
        }),
        _ => {
            let zero = Tiles::from_values(&[0]).expect("a tile");
            MoveGen::new(pos.rules(), pos.board(), zero).any_move().is_some()
        }
    }
}

/// A variant, a player count and rule options.
type Setup = (Variant, u8, &'static [(&'static str, &'static str)]);

/// Over whole random games of every variant, player count, teams and rounds: the status says
/// the phase, turn and seat of the position, `due` is what the next draw actually takes, and at
/// the end the reason matches how the game ended and the ranking orders the standings.
#[test]
fn status_agrees_with_the_rules_core_over_whole_games() {
    let setups: [Setup; 12] = [
        (Variant::Classic, 1, &[]),
        (Variant::Classic, 2, &[]),
        (Variant::Classic, 3, &[("rules", "cz3")]),
        (Variant::Classic, 2, &[("rules", "cz4")]),
        (Variant::Classic, 4, &[("teams", "on")]),
        (Variant::Classic, 2, &[("rounds", "5")]),
        (Variant::Dice, 1, &[("size", "5")]),
        (Variant::Dice, 2, &[]),
        (Variant::Dice, 3, &[("rounds", "2"), ("must_place", "maximal")]),
        (Variant::Kids, 2, &[]),
        (Variant::Kids, 4, &[("scoring", "dots")]),
        (Variant::Kids, 3, &[("rounds", "3")]),
    ];
    for (variant, players, options) in setups {
        for seed in 0..4 {
            let rules = rules(variant, players, options);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut game = Game::new(rules.clone());
            let mut last_largest = 2;
            while !game.position().is_over() {
                let pos = game.position().clone();
                let status = pos.status();
                assert_eq!(
                    (status.phase, status.turn, status.to_move),
                    (Phase::Draw, pos.turn(), pos.to_move())
                );
                assert!(status.end.is_none());
                let drawn = game.draw_random(&mut rng).expect("a draw is due");
                assert_eq!(status.due, drawn.len(), "due against the draw: {}", pos.to_line());
                let pos = game.position().clone();
                let status = pos.status();
                assert_eq!((status.phase, status.due, status.end.is_none()), (Phase::Place, 0, true));
                last_largest = pos.movegen().largest_size();
                let (chosen, _) = pos.movegen().random_legal(&mut rng, u64::MAX);
                game.play(&chosen).expect("a generated move is legal");
            }
            let end = game.position().clone();
            let status = end.status();
            let context = end.to_line();
            assert_eq!(
                (status.phase, status.turn, status.to_move, status.due),
                (Phase::Over, end.turn(), end.to_move(), 0)
            );
            let over = status.end.clone().expect("the game is over");
            let limit = rules.rounds * u32::from(players);
            let expected = if rules.rounds > 0 && end.turn() == limit + 1 {
                EndReason::Rounds
            } else {
                match variant {
                    Variant::Classic => {
                        assert!(end.bag().is_empty() && !anyone_can_place(&end), "{context}");
                        EndReason::NoMove
                    }
                    Variant::Kids => {
                        assert!(!anyone_can_place(&end), "{context}");
                        EndReason::NoMove
                    }
                    Variant::Dice => {
                        assert!(last_largest < 2, "the last roll could be written whole: {context}");
                        EndReason::Roll
                    }
                }
            };
            assert_eq!(over.reason, expected, "{context}");
            // The ranking: every sheet once, best first, ties sharing the rank of the first of them.
            let standings = end.standings();
            assert_eq!(over.ranking.len(), rules.sheet_count());
            let dots = variant == Variant::Kids && rules.scoring == KidsScoring::Dots;
            let key = |n: usize| {
                let s = &standings[n - 1];
                if dots {
                    [2, 1, 0].map(|c| i64::from(s.sheet.column_total(c)))
                } else {
                    [s.total, 0, 0]
                }
            };
            let mut numbers: Vec<usize> = over.ranking.iter().map(|r| r.standing.number).collect();
            for (i, r) in over.ranking.iter().enumerate() {
                assert_eq!(r.standing, standings[r.standing.number - 1], "{context}");
                if i == 0 {
                    assert_eq!(r.rank, 1);
                } else {
                    let before = &over.ranking[i - 1];
                    assert!(key(before.standing.number) >= key(r.standing.number), "{context}");
                    let tied = key(before.standing.number) == key(r.standing.number);
                    assert_eq!(r.rank, if tied { before.rank } else { i + 1 }, "{context}");
                }
            }
            numbers.sort_unstable();
            assert_eq!(numbers, (1..=rules.sheet_count()).collect::<Vec<_>>());
            let winners: Vec<usize> =
                over.ranking.iter().filter(|r| r.rank == 1).map(|r| r.standing.number - 1).collect();
            assert_eq!(winners, end.leaders(), "{context}");
            // The position line of the end gives the same status.
            assert_eq!(Position::from_line(&end.to_line()).expect("it reads back").status(), status);
        }
    }
}

/// The share of the game still to come starts near 1, never grows as the game goes on, and is 0
/// once the game is over; with `rounds` it runs out with the rounds.
#[test]
fn the_share_of_the_game_left_falls_from_one_to_zero() {
    for (variant, players, options) in [
        (Variant::Classic, 2, &[][..]),
        (Variant::Classic, 4, &[][..]),
        (Variant::Classic, 2, &[("rounds", "3")][..]),
        (Variant::Dice, 2, &[][..]),
        (Variant::Kids, 3, &[][..]),
    ] {
        for seed in 0..3 {
            let mut shares = Vec::new();
            let end =
                random_game(rules(variant, players, options), seed, |pos| shares.push(pos.game_left_share()));
            let first = shares[0];
            assert!(first > 0.95, "{variant:?} {players} {options:?} starts at {first}");
            for pair in shares.windows(2) {
                assert!(pair[1] <= pair[0], "{variant:?} {players} {options:?}: {shares:?}");
            }
            assert_eq!(end.game_left_share(), 0.0);
            if options.is_empty() && variant == Variant::Classic {
                // Halfway through the bag is halfway through the game.
                let half = shares.iter().position(|&s| s <= 0.5).expect("the game runs to its end");
                assert!(
                    (40..=80).contains(&half),
                    "{variant:?} {players}: half the game left at step {half}"
                );
            }
        }
    }
}

/// What a clock is shared over (`own_turns_left_estimate`): in the dice and kids' games, whose end
/// comes with the board, with two players and three, at least two own turns while the game runs,
/// and never more than the `rounds` option leaves the player to move (counted turn by turn here);
/// the classic game's estimate, from the bag, has no floor and comes down to one.
#[test]
fn a_clock_plans_for_two_own_turns_while_a_board_game_runs_and_never_past_the_rounds() {
    let setups = [(Variant::Dice, 0), (Variant::Kids, 0), (Variant::Dice, 6), (Variant::Kids, 6)];
    for ((variant, rounds), players) in setups.into_iter().flat_map(|s| [(s, 2u32), (s, 3)]) {
        let text = rounds.to_string();
        let options: &[(&str, &str)] = if rounds > 0 { &[("rounds", &text)] } else { &[] };
        for seed in 0..3 {
            let mut seen_floor = false;
            random_game(rules(variant, players as u8, options), seed, |pos| {
                if pos.is_over() {
                    return;
                }
                let own_rounds_left = if rounds == 0 {
                    u32::MAX
                } else {
                    let mine = |t: &u32| (t - 1) % players == pos.to_move() as u32;
                    (pos.turn()..=rounds * players).filter(mine).count() as u32
                };
                let estimate = pos.own_turns_left_estimate();
                assert!(
                    estimate >= BOARD_END_OWN_TURNS.min(own_rounds_left),
                    "{estimate}: {}",
                    pos.to_line()
                );
                assert!(estimate <= own_rounds_left, "{estimate} > {own_rounds_left}: {}", pos.to_line());
                seen_floor |= estimate == BOARD_END_OWN_TURNS;
            });
            assert!(
                seen_floor,
                "{variant:?}, {players} players, rounds {rounds}, seed {seed}: never at the floor"
            );
        }
    }
    let mut lowest = u32::MAX;
    random_game(rules(Variant::Classic, 2, &[]), 1, |pos| {
        if !pos.is_over() {
            lowest = lowest.min(pos.own_turns_left_estimate());
        }
    });
    assert_eq!(lowest, 1);
}
