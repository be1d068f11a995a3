//! Tests of the strategies: the sheet projection against recording, greedy against a brute-force
//! scan, and the search's limits, determinism, stop flag and MultiPV.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::greedy::greedy;
use super::*;
use crate::rules::{MoveScore, Position, Rules, Sheet, Variant};

/// Rule sets covering every variant and option family.
fn rule_sets() -> Vec<Rules> {
    type Set = (Variant, u8, &'static [(&'static str, &'static str)]);
    let sets: [Set; 10] = [
        (Variant::Classic, 2, &[]),
        (Variant::Classic, 1, &[]),
        (Variant::Classic, 3, &[("rules", "cz3")]),
        (Variant::Classic, 2, &[("rules", "cz4")]),
        (Variant::Classic, 4, &[("teams", "on")]),
        (Variant::Classic, 6, &[("rounds", "4")]),
        (Variant::Dice, 2, &[]),
        (Variant::Dice, 5, &[]),
        (Variant::Kids, 2, &[]),
        (Variant::Kids, 3, &[("scoring", "dots")]),
    ];
    sets.iter().map(|&(v, p, o)| Rules::with_options(v, p, o.iter().copied()).unwrap()).collect()
}

/// The best immediate gain of any legal move, by playing each on a clone.
fn brute_force_best_gain(pos: &Position) -> i64 {
    let me = pos.rules().sheet_of_seat(pos.to_move());
    let before = pos.standings()[me].total;
    pos.movegen()
        .legal_moves()
        .iter()
        .map(|mv| {
            let mut after = pos.clone();
            after.play(mv).unwrap();
            after.standings()[me].total - before
        })
        .max()
        .unwrap()
}

#[test]
fn sheet_gain_and_fast_scoring_agree_with_the_rules_core() {
    for rules in rule_sets() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut pos = Position::new(rules.clone());
        while !pos.is_over() {
            pos.draw_random(&mut rng).unwrap();
            let seat = pos.to_move();
            let sheet = rules.sheet_of_seat(seat);
            let mv = greedy(&pos, &AtomicBool::new(false)).unwrap();
            let mut board = pos.board().clone();
            for p in &mv.placements {
                board.place(p.cell, p.value);
            }
            let start = pos.board().count() == 0;
            let fast = MoveScore::of(&rules, &board, &mv.placements, start);
            let gain = pos.sheets()[sheet].gain(&rules, &fast, mv.placements.len());
            let before = pos.sheets()[sheet].total(&rules);
            let score = pos.play_unchecked(&mv.placements);
            assert_eq!(score, fast);
            assert_eq!(before + gain, pos.sheets()[sheet].total(&rules), "{rules:?}");
            for s in pos.sheets() {
                let back = Sheet::parse(&rules, &s.to_string()).unwrap();
                assert_eq!(&back, s, "{rules:?}");
                assert_eq!(s.row_totals(&rules).iter().sum::<u32>(), s.total(&rules));
            }
        }
    }
}

const HAND_BUILT: &str = "variant=classic players=2 turn=3 tomove=1 phase=place board=6@h8,4@i8 \
                          bag=20,19,20,19,20,19 hands=12/- sheets=none;none";

#[test]
fn greedy_takes_the_highest_immediate_gain() {
    let pos = Position::from_line(HAND_BUILT).unwrap();
    let best = greedy(&pos, &AtomicBool::new(false)).unwrap();
    // 2@j8 makes 6+4+2 = 12 (4 points); both tiles leave the hand (3 pips).
    assert!(best.placements.iter().any(|p| p.value == 2 && p.cell.to_string() == "j8"), "{best:?}");
    assert_eq!(best.gain, 7);
    assert_eq!(best.gain, brute_force_best_gain(&pos));
    let out = run(
        &pos,
        &Limits::default(),
        &SearchOptions { strategy: Strategy::Greedy, ..SearchOptions::default() },
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(out.score, 7.0);
}

#[test]
fn greedy_gain_is_the_brute_force_best_on_sampled_positions() {
    for rules in rule_sets() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut pos = Position::new(rules.clone());
        let mut turn = 0;
        while !pos.is_over() && turn < 30 {
            pos.draw_random(&mut rng).unwrap();
            let mv = greedy(&pos, &AtomicBool::new(false)).unwrap();
            if turn % 5 == 0 {
                assert_eq!(mv.gain, brute_force_best_gain(&pos), "{}", pos.to_line());
            }
            pos.play_unchecked(&mv.placements);
            turn += 1;
        }
    }
}

fn search_nodes(pos: &Position, nodes: u64, seed: u64, multipv: usize) -> (SearchResult, Vec<Info>) {
    let mut infos = Vec::new();
    let out = run(
        pos,
        &Limits { nodes: Some(nodes), ..Limits::default() },
        &SearchOptions { strategy: Strategy::Search, threads: 1, multipv, seed },
        &AtomicBool::new(false),
        &mut |i| infos.push(i.clone()),
    )
    .unwrap();
    (out, infos)
}

/// A mid-game position of each rule set, hand drawn.
fn mid_game_positions() -> Vec<Position> {
    rule_sets()
        .into_iter()
        .filter_map(|rules| {
            let mut rng = ChaCha8Rng::seed_from_u64(3);
            let mut pos = Position::new(rules);
            for _ in 0..9 {
                pos.draw_random(&mut rng).ok()?;
                let mv = greedy_choice(&pos)?;
                pos.play_unchecked(mv.placements());
                if pos.is_over() {
                    return None;
                }
            }
            pos.draw_random(&mut rng).ok()?;
            Some(pos)
        })
        .collect()
}

#[test]
fn search_returns_a_legal_move_in_every_variant() {
    let positions = mid_game_positions();
    assert!(positions.len() >= 8);
    for pos in positions.iter().chain(bench_positions().iter()) {
        let (out, infos) = search_nodes(pos, 30_000, 1, 1);
        assert!(pos.check(&out.best).is_ok(), "{} in {}", out.best, pos.to_line());
        assert!(!infos.is_empty());
        for strategy in [Strategy::Random, Strategy::Greedy] {
            let opts = SearchOptions { strategy, ..SearchOptions::default() };
            let out = run(pos, &Limits::default(), &opts, &AtomicBool::new(false), &mut |_| {}).unwrap();
            assert!(pos.check(&out.best).is_ok());
        }
    }
    // The start move too.
    let mut pos = Position::new(Rules::new(Variant::Classic, 2).unwrap());
    pos.draw_random(&mut ChaCha8Rng::seed_from_u64(5)).unwrap();
    let (out, _) = search_nodes(&pos, 30_000, 1, 1);
    assert!(pos.check(&out.best).is_ok());
}

#[test]
fn search_is_deterministic_under_a_node_limit() {
    for pos in mid_game_positions().iter().take(4) {
        let (a, _) = search_nodes(pos, 20_000, 9, 1);
        let (b, _) = search_nodes(pos, 20_000, 9, 1);
        assert_eq!(a.best.canonical(), b.best.canonical());
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.score, b.score);
    }
}

#[test]
fn search_stops_at_once_when_the_stop_flag_is_up() {
    let pos = &mid_game_positions()[0];
    let stop = AtomicBool::new(true);
    let started = Instant::now();
    let mut infos = 0;
    let out = run(
        pos,
        &Limits { infinite: true, ..Limits::default() },
        &SearchOptions::default(),
        &stop,
        &mut |_| infos += 1,
    )
    .unwrap();
    assert!(started.elapsed() < Duration::from_millis(500));
    assert!(pos.check(&out.best).is_ok());
    assert!(infos >= 1, "a final info is always sent");
}

#[test]
fn search_keeps_to_its_movetime() {
    let pos = &mid_game_positions()[0];
    let started = Instant::now();
    let limits = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
    let out = run(pos, &limits, &SearchOptions::default(), &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert!(started.elapsed() < Duration::from_millis(400));
    assert!(pos.check(&out.best).is_ok());
}

#[test]
fn multipv_reports_the_best_candidates_in_order() {
    let pos = &mid_game_positions()[0];
    let (out, infos) = search_nodes(pos, 60_000, 2, 3);
    let last: Vec<&Info> = infos.iter().rev().take(3).collect::<Vec<_>>().into_iter().rev().collect();
    assert_eq!(last.iter().map(|i| i.multipv).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(last.windows(2).all(|w| w[0].score >= w[1].score));
    assert_eq!(last[0].pv[0].canonical(), out.best.canonical());
    assert_eq!(last[0].score, out.score);
}

#[test]
fn threads_give_a_legal_move() {
    let pos = &mid_game_positions()[0];
    let opts = SearchOptions { threads: 2, ..SearchOptions::default() };
    let limits = Limits { nodes: Some(400), ..Limits::default() };
    let out = run(pos, &limits, &opts, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert!(pos.check(&out.best).is_ok());
}

/// Searches with these limits and options, collecting the info lines.
fn search_with(pos: &Position, limits: &Limits, seed: u64, threads: usize) -> (SearchResult, Vec<Info>) {
    let mut infos = Vec::new();
    let options = SearchOptions { strategy: Strategy::Search, threads, multipv: 1, seed };
    let out = run(pos, limits, &options, &AtomicBool::new(false), &mut |i| infos.push(i.clone())).unwrap();
    (out, infos)
}

#[test]
fn depth_zero_is_the_static_ranking_of_every_legal_move() {
    for pos in mid_game_positions().iter().take(5) {
        let (out, infos) = search_with(pos, &Limits { depth: Some(0), ..Limits::default() }, 1, 1);
        assert!(infos.iter().all(|i| i.depth == 0 && i.samples == 0));
        // Each legal move is scored once.
        assert_eq!(out.nodes, pos.movegen().legal_count());
    }
}

#[test]
fn the_next_turn_stage_is_exact_whatever_the_seed_and_threads() {
    // Depth 1 with no time limit runs stage 2 over the whole shortlist and stops: no sampling, so
    // neither the seed nor the threads change the outcome.
    let limits = Limits { depth: Some(1), infinite: true, ..Limits::default() };
    for pos in mid_game_positions().iter().take(6) {
        let (a, infos) = search_with(pos, &limits, 1, 1);
        let (b, _) = search_with(pos, &limits, 77, 2);
        assert_eq!(a.best.canonical(), b.best.canonical(), "{}", pos.to_line());
        assert_eq!(a.score, b.score);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(infos.last().unwrap().depth, 1);
    }
}

#[test]
fn playouts_run_with_a_depth_and_report_their_standard_error() {
    let pos = &mid_game_positions()[0];
    let limits = Limits { depth: Some(3), nodes: Some(400_000), ..Limits::default() };
    let (out, infos) = search_with(pos, &limits, 4, 1);
    let last = infos.last().unwrap();
    assert_eq!(last.depth, 3);
    assert!(last.samples >= 2 * 64, "{last:?}");
    assert!(last.std_error > 0.0 && last.std_error.is_finite());
    assert_eq!(last.pv[0].canonical(), out.best.canonical());
    assert_eq!(last.score, out.score);
    assert!(pos.check(&out.best).is_ok());
}

/// The bench signature: the total node count of `bench()`. It changes only when the
/// search's behaviour changes (shortlist, playouts, evaluation, node counting); when it does on
/// purpose, run `cargo test --release bench_signature -- --nocapture` and commit the new value.
const BENCH_SIGNATURE: u64 = 603211;

#[test]
fn bench_signature() {
    let result = bench();
    println!("bench: {} nodes {} nps", result.nodes, result.nps);
    assert_eq!(result.nodes, BENCH_SIGNATURE);
}
