//! Legal move generation and perft on fixed mid-game positions from seeded games, and `legal
//! count` over the real positions of `tests/golden/middle-hands.txt` by hand size and of
//! `tests/golden/seeded-hands.txt` by hand size and by rule set.
//!
//! `cargo bench --bench movegen`; docs/contributing.md reports the medians (Figures).
//! `tools/compare-movegen.sh` runs these groups against a base commit.

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

// BEGIN next: needs Position::extensions (ce2fdf3 and later); tools/compare-movegen.sh leaves
// this block out of a base that cannot build it.
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
// END next

/// The positions of the corpus of middle hands (real games, 3 to 11 tiles) whose hand to move
/// holds `tiles` tiles. Read at run time, so that `tools/compare-movegen.sh` can measure a base
/// commit on the same corpus.
fn middle_hands(tiles: usize) -> Vec<Position> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/middle-hands.txt");
    let text = std::fs::read_to_string(path).expect("the corpus of middle hands is readable");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.splitn(3, ' ').nth(2))
        .map(|l| Position::from_line(l).expect("a valid position line"))
        .filter(|p| p.hand_to_move().len() == tiles)
        .collect()
}

/// `legal count` over every position of the corpus of middle hands of each hand size (groups
/// `hand3` ... `hand9`): the hands that keep tiles from earlier turns, between the two-tile hands
/// of most turns and the huge hands.
fn hands(c: &mut Criterion) {
    for tiles in [3, 4, 5, 6, 9] {
        let positions = middle_hands(tiles);
        let moves: u64 = positions.iter().map(|p| p.movegen().legal_count()).sum();
        let mut group = c.benchmark_group(format!("hand{tiles}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(moves));
        group.bench_function(format!("legal_count_{}_positions", positions.len()), |b| {
            b.iter(|| positions.iter().map(|p| p.movegen().legal_count()).sum::<u64>())
        });
        group.finish();
    }
}

/// The positions of the corpus of seeded hands (`tests/golden/seeded-hands.txt`: real games of
/// every classic rule set, 1 to 4 players, hands of 3 to 11 tiles), with the name of the rules
/// that decide how their moves are generated (`must_place` and `forced_double`). Read at run
/// time, so that `tools/compare-movegen.sh` can measure a base commit on the same corpus.
fn seeded_hands() -> Vec<(String, Position)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/seeded-hands.txt");
    let text = std::fs::read_to_string(path).expect("the corpus of seeded hands is readable");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.splitn(3, ' ').nth(2))
        .map(|l| {
            let option = |key: &str| {
                l.split(' ').find_map(|f| f.strip_prefix(key)).expect("the position line names the option")
            };
            let rules = format!("{}_{}", option("must_place="), option("forced_double="));
            (rules, Position::from_line(l).expect("a valid position line"))
        })
        .collect()
}

/// `legal count` over the corpus of seeded hands, by hand size (group `seeded_size`, 3 to 11
/// tiles) and by the rules that decide the generation (group `seeded_rules`: `maximum_allow`,
/// `maximum_forbid`, `maximal_allow`, `maximal_forbid`), every position of a benchmark counted
/// once per iteration.
fn seeded(c: &mut Criterion) {
    let corpus = seeded_hands();
    let count = |positions: &[&Position]| positions.iter().map(|p| p.movegen().legal_count()).sum::<u64>();
    let mut bench = |group: &str, name: String, positions: Vec<&Position>| {
        let mut group = c.benchmark_group(group);
        group.sample_size(10);
        group.throughput(Throughput::Elements(count(&positions)));
        group.bench_function(format!("{name}_{}_positions", positions.len()), |b| {
            b.iter(|| count(&positions))
        });
        group.finish();
    };
    for tiles in 3..=11 {
        let positions = corpus.iter().map(|(_, p)| p).filter(|p| p.hand_to_move().len() == tiles).collect();
        bench("seeded_size", format!("hand{tiles}"), positions);
    }
    for rules in ["maximum_allow", "maximum_forbid", "maximal_allow", "maximal_forbid"] {
        let positions = corpus.iter().filter(|(r, _)| r == rules).map(|(_, p)| p).collect();
        bench("seeded_rules", rules.to_string(), positions);
    }
}

criterion_group!(benches, legal_count, perft2, hands, seeded, next);
criterion_main!(benches);
