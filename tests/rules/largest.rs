//! The pruned search for the largest move size against plain enumeration: on the boards of random
//! games of every variant, with hands of 3 or 4 tiles (3 in the kids' game, where every empty cell
//! is open) made up from the values of the game, the largest size and the number of sets of that
//! size agree with `count_by_size`, which enumerates every valid set without any bound.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zatre::rules::{Game, MoveGen, MustPlace, Rules, Tiles, Variant};

#[test]
fn the_pruned_largest_size_and_count_agree_with_plain_enumeration() {
    let setups: [(Variant, &[(&str, &str)]); 5] = [
        (Variant::Classic, &[]),
        (Variant::Classic, &[("rules", "cz4"), ("must_place", "maximum")]),
        (Variant::Classic, &[("leftovers", "cz3")]),
        (Variant::Dice, &[("size", "9")]),
        (Variant::Kids, &[]),
    ];
    let mut checked = 0;
    for (k, (variant, options)) in setups.iter().enumerate() {
        let rules = Rules::with_options(*variant, 2, options.iter().copied()).expect("valid rules");
        assert_eq!(rules.must_place, MustPlace::Maximum);
        let mut rng = ChaCha8Rng::seed_from_u64(40 + k as u64);
        let mut game = Game::new(rules.clone());
        for turn in 0..30 {
            if game.position().is_over() {
                break;
            }
            game.draw_random(&mut rng).expect("a draw is due");
            let pos = game.position().clone();
            if turn % 3 == 1 {
                let most = if *variant == Variant::Kids { 3 } else { 4 };
                let size = rng.random_range(3..=most);
                let values: Vec<u8> =
                    (0..size).map(|_| rng.random_range(rules.min_value()..=rules.max_value())).collect();
                let hand = Tiles::from_values(&values).expect("values of the game");
                let counts = MoveGen::new(&rules, pos.board(), hand).count_by_size();
                let (plain_size, plain_count) =
                    counts.iter().enumerate().rev().find(|(_, &n)| n > 0).map_or((0, 1), |(s, &n)| (s, n));
                let largest = MoveGen::new(&rules, pos.board(), hand).largest_size();
                let count = MoveGen::new(&rules, pos.board(), hand).legal_count();
                assert_eq!((largest, count), (plain_size, plain_count), "hand {hand} on {}", pos.to_line());
                checked += 1;
            }
            let (chosen, _) = pos.movegen().random_legal(&mut rng, u64::MAX);
            game.play(&chosen).expect("a generated move is legal");
        }
    }
    assert!(checked >= 30, "checked {checked} hands");
}
