//! The game's status from the rules core: phase, turn, seat to move, what the next draw takes, and
//! at the end the reason and the ranking, over whole random games of every variant.

mod common;

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
