//! Legal move generation and perft on fixed mid-game positions from seeded games.
//!
//! `cargo bench --bench movegen`; docs/contributing.md reports the medians (Figures).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;

use zatre::rules::{perft, Game, Position, Rules, Variant};

/// The position after `plies` random turns of a seeded game, with the next hand drawn.
fn midgame(variant: Variant, options: &[(&str, &str)], seed: u64, plies: usize) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(Rules::with_options(variant, 2, options.iter().copied()).expect("valid rules"));
    for _ in 0..plies {
        game.draw_random(&mut rng).expect("a draw is due");
        let (chosen, _) = game.position().movegen().random_legal(&mut rng, u64::MAX);
        game.play(&chosen).expect("a generated move is legal");
    }
    game.draw_random(&mut rng).expect("a draw is due");
    game.position().clone()
}

fn positions() -> Vec<(String, Position)> {
    let mut out = Vec::new();
    for seed in 1..=4 {
        out.push((format!("classic-{seed}"), midgame(Variant::Classic, &[], seed, 16)));
    }
    out.push(("classic-cz3".into(), midgame(Variant::Classic, &[("rules", "cz3")], 5, 16)));
    out.push(("dice".into(), midgame(Variant::Dice, &[], 6, 12)));
    out.push(("kids".into(), midgame(Variant::Kids, &[], 7, 12)));
    out
}

fn legal_count(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_count");
    for (name, pos) in positions() {
        let n = pos.movegen().legal_count();
        group.throughput(Throughput::Elements(n));
        group.bench_with_input(BenchmarkId::from_parameter(&name), &pos, |b, pos| {
            b.iter(|| pos.movegen().legal_count())
        });
    }
    group.finish();
}

fn perft2(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft2");
    group.sample_size(10);
    for (name, pos) in positions().into_iter().filter(|(n, _)| n == "classic-1" || n == "dice") {
        let leaves = perft(&pos, 2);
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::from_parameter(&name), &pos, |b, pos| b.iter(|| perft(pos, 2)));
    }
    group.finish();
}

/// `next` as a GUI calls it: with no tile placed yet, and with the first tile of a legal move.
fn next(c: &mut Criterion) {
    let mut group = c.benchmark_group("next");
    let stop = AtomicBool::new(false);
    for (name, pos) in positions() {
        let first = pos.movegen().legal_moves()[0].placements()[..1].to_vec();
        group.bench_with_input(BenchmarkId::new("empty", &name), &pos, |b, pos| {
            b.iter(|| pos.extensions(&[], &stop).expect("a move is due"))
        });
        group.bench_with_input(BenchmarkId::new("one_tile", &name), &pos, |b, pos| {
            b.iter(|| pos.extensions(&first, &stop).expect("part of a legal move"))
        });
    }
    group.finish();
}

criterion_group!(benches, legal_count, perft2, next);
criterion_main!(benches);
