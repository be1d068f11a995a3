//! The evaluation at a leaf of the search: today's evaluation of the sheets (`equities_with`)
//! against the learned one (its inputs, `Features::of`, and the model's values), on positions
//! after a move of seeded three- and four-player games.
//!
//! `cargo bench --bench eval`; tools/STRENGTH.md ("The learned evaluation") reports the medians.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use zatre::rules::{Game, Position, Rules, Variant};
use zatre::search::learned::features::FEATURES;
use zatre::search::learned::{model_of, Features, Model};
use zatre::search::{equities_with, Weights};

/// The position after `plies` random turns of a seeded game of `players` (a draw due).
fn after_move(players: u8, options: &[(&str, &str)], seed: u64, plies: usize) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rules = Rules::with_options(Variant::Classic, players, options.iter().copied()).expect("valid rules");
    let mut game = Game::new(rules);
    for _ in 0..plies {
        game.draw_random(&mut rng).expect("a draw is due");
        let (chosen, _) = game.position().movegen().random_legal(&mut rng, u64::MAX);
        game.play(&chosen).expect("a generated move is legal");
    }
    game.position().clone()
}

/// Rule options of a table, as `Rules::with_options` takes them.
type Options = &'static [(&'static str, &'static str)];

fn eval(c: &mut Criterion) {
    let tables: [(&str, u8, Options); 3] =
        [("3p", 3, &[]), ("4p", 4, &[]), ("4p-cz4", 4, &[("rules", "cz4")])];
    for (name, players, options) in tables {
        let pos = after_move(players, options, 11, 24);
        let rules = pos.rules().clone();
        // The built-in model where there is one, else one of the same size (the cost is the same).
        let model = model_of(&rules).cloned().unwrap_or_else(|| {
            Model::new(&rules, vec![(0.5, vec![0.01; FEATURES]); rules.sheet_count()]).expect("a model")
        });
        let weights = Weights::of(&rules);
        let mut group = c.benchmark_group(format!("eval-{name}"));
        group.bench_function("sheets", |b| b.iter(|| equities_with(black_box(&pos), &weights)));
        group.bench_function("features", |b| b.iter(|| Features::of(black_box(&pos))));
        group.bench_function("learned", |b| b.iter(|| model.values_of(black_box(&pos))));
        group.finish();
    }
}

criterion_group!(benches, eval);
criterion_main!(benches);
