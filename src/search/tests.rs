//! Tests of the strategies: the sheet projection against recording, greedy against a brute-force
//! scan, and the search's limits, determinism, stop flag and MultiPV.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::greedy::greedy;
use super::*;
use crate::rules::Move;
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
    // Its score is not its gain but, as in every strategy, the expected final margin.
    assert_eq!(out.score, montecarlo::static_value(&pos, out.best.placements()));
    assert_ne!(out.score, 7.0);
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
        &SearchOptions { strategy: Strategy::Search, multipv, seed, ..SearchOptions::default() },
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

/// A node limit below the number of legal moves bounds the scan of the root in every strategy:
/// the search's static ranking, greedy and random look at that many moves, no more, and answer
/// with a legal one of them.
#[test]
fn a_node_limit_bounds_the_scan_of_the_root() {
    let mut checked = 0;
    for pos in mid_game_positions() {
        let legal = pos.movegen().legal_count();
        if legal < 20 {
            continue;
        }
        for strategy in [Strategy::Search, Strategy::Greedy, Strategy::Random] {
            // Half the legal moves, but never above the search's own cap of the scan (20,000).
            for limit in [1, legal.min(40_000) / 2] {
                let limits = Limits { nodes: Some(limit), ..Limits::default() };
                let options = SearchOptions { strategy, seed: 1, ..SearchOptions::default() };
                let out = run(&pos, &limits, &options, &AtomicBool::new(false), &mut |_| {}).unwrap();
                assert_eq!(out.nodes, limit, "{strategy:?} {}", pos.to_line());
                assert!(pos.check(&out.best).is_ok());
            }
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} positions with 20 legal moves or more");
}

/// Searches with these limits and options, collecting the info lines.
fn search_with(pos: &Position, limits: &Limits, seed: u64, threads: usize) -> (SearchResult, Vec<Info>) {
    let mut infos = Vec::new();
    let options = SearchOptions { strategy: Strategy::Search, threads, seed, ..SearchOptions::default() };
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
const BENCH_SIGNATURE: u64 = 2401906;

#[test]
fn bench_signature() {
    let result = bench(&AtomicBool::new(false));
    assert!(!result.stopped);
    println!("bench: {} nodes {} nps", result.nodes, result.nps);
    assert_eq!(result.nodes, BENCH_SIGNATURE);
}

/// Searches under `limits` with `strategy` and `multipv`, collecting the info lines.
fn search_limits(
    pos: &Position,
    limits: &Limits,
    strategy: Strategy,
    multipv: usize,
) -> (SearchResult, Vec<Info>) {
    let mut infos = Vec::new();
    let options = SearchOptions { strategy, multipv, seed: 3, ..SearchOptions::default() };
    let out = run(pos, limits, &options, &AtomicBool::new(false), &mut |i| infos.push(i.clone())).unwrap();
    (out, infos)
}

/// The last report's lines (its `multipv` 1, 2, ...).
fn last_report(infos: &[Info]) -> &[Info] {
    let start = infos.iter().rposition(|i| i.multipv == 1).unwrap();
    &infos[start..]
}

#[test]
fn searchmoves_with_one_move_searches_it_and_reports_its_value() {
    for pos in mid_game_positions().iter().filter(|p| p.rules().players > 1).take(4) {
        let moves = pos.movegen().legal_moves();
        let mv = moves.last().unwrap().clone();
        // By default the next two turns value it; at depth 3, playouts.
        let limits =
            Limits { nodes: Some(1_000_000), searchmoves: Some(vec![mv.clone()]), ..Limits::default() };
        let (out, infos) = search_limits(pos, &limits, Strategy::Search, 1);
        assert_eq!(out.best, mv, "{}", pos.to_line());
        assert!(infos.iter().any(|i| i.depth == 1), "stage 2 valued it");
        let last = infos.last().unwrap();
        assert_eq!((last.depth, last.samples), (2, 0), "the next two turns valued it: {last:?}");
        assert_eq!(last.score, out.score);
        let limits = Limits { nodes: Some(40_000), depth: Some(3), ..limits };
        let (out, infos) = search_limits(pos, &limits, Strategy::Search, 1);
        assert_eq!(out.best, mv, "{}", pos.to_line());
        let last = infos.last().unwrap();
        assert!(last.samples > 0, "playouts valued it: {last:?}");
        assert_eq!(last.score, out.score);
        assert!(last.winprob.is_some_and(|p| (0.0..=1.0).contains(&p)));
    }
}

#[test]
fn searchmoves_limit_every_strategy_to_the_legal_moves_given() {
    let pos = &mid_game_positions()[0];
    let moves = pos.movegen().legal_moves();
    assert!(moves.len() > 6);
    let chosen: Vec<Move> = moves.iter().rev().step_by(2).take(3).cloned().collect();
    // An illegal move among them is left out.
    let mut asked = chosen.clone();
    asked.push(Move::parse(pos.board().geometry(), "1@a1").unwrap_or_else(|_| Move::pass()));
    let limits = Limits { nodes: Some(20_000), searchmoves: Some(asked), ..Limits::default() };
    for strategy in [Strategy::Random, Strategy::Greedy, Strategy::Search] {
        let (out, infos) = search_limits(pos, &limits, strategy, 5);
        assert!(chosen.contains(&out.best), "{strategy:?} played {}", out.best);
        assert!(infos.iter().all(|i| chosen.contains(&i.pv[0])));
    }
    // None legal: every move is searched.
    let limits = Limits { nodes: Some(5_000), searchmoves: Some(vec![]), ..Limits::default() };
    let (out, _) = search_limits(pos, &limits, Strategy::Search, 1);
    assert!(pos.check(&out.best).is_ok());
}

#[test]
fn multipv_reports_as_many_candidates_as_asked_or_as_there_are_legal_moves() {
    let mut over_the_shortlist = 0;
    for pos in mid_game_positions().iter().take(6) {
        let legal = pos.movegen().legal_count() as usize;
        over_the_shortlist += usize::from(legal > 20);
        for k in [20, 300] {
            let limits = Limits { nodes: Some(30_000), depth: Some(1), ..Limits::default() };
            let (_, infos) = search_limits(pos, &limits, Strategy::Search, k);
            let last = last_report(&infos);
            assert_eq!(last.len(), k.min(legal), "k {k}, {legal} legal moves in {}", pos.to_line());
            assert!(last.iter().enumerate().all(|(r, i)| i.multipv == r + 1));
        }
    }
    assert!(over_the_shortlist >= 2, "positions with more legal moves than the shortlist held");
}

#[test]
fn score_means_the_expected_final_margin_in_every_strategy() {
    for pos in mid_game_positions().iter().take(6) {
        // The static ranking's best: its value is the static evaluation of the move.
        let limits = Limits { depth: Some(0), nodes: Some(1_000_000), ..Limits::default() };
        let (out, _) = search_limits(pos, &limits, Strategy::Search, 1);
        assert_eq!(out.score, montecarlo::static_value(pos, out.best.placements()));
        for strategy in [Strategy::Random, Strategy::Greedy] {
            let (out, infos) = search_limits(pos, &Limits::default(), strategy, 1);
            assert_eq!(out.score, montecarlo::static_value(pos, out.best.placements()), "{strategy:?}");
            assert_eq!(infos.last().unwrap().score, out.score);
            assert!(infos.iter().all(|i| i.winprob.is_none()));
        }
    }
}

#[test]
fn greedy_multipv_reports_its_best_moves_in_its_order() {
    for pos in mid_game_positions().iter().take(6) {
        let legal = pos.movegen().legal_count() as usize;
        let (out, infos) = search_limits(pos, &Limits::default(), Strategy::Greedy, 5);
        assert_eq!(infos.len(), legal.min(5));
        assert_eq!(infos[0].pv[0], out.best);
        let (single, _) = search_limits(pos, &Limits::default(), Strategy::Greedy, 1);
        assert_eq!(single.best, out.best, "the first of the ranking is the greedy move");
        let gains: Vec<i64> = infos
            .iter()
            .map(|i| {
                let mut after = pos.clone();
                let me = pos.rules().sheet_of_seat(pos.to_move());
                after.play(&i.pv[0]).unwrap();
                after.standings()[me].total - pos.standings()[me].total
            })
            .collect();
        assert!(gains.windows(2).all(|w| w[0] >= w[1]), "{gains:?}");
        assert_eq!(gains[0], brute_force_best_gain(pos));
    }
}

#[test]
fn winprob_comes_with_the_playouts_and_only_with_them() {
    let pos = &mid_game_positions()[0];
    let limits = Limits { depth: Some(3), nodes: Some(200_000), ..Limits::default() };
    let (_, infos) = search_limits(pos, &limits, Strategy::Search, 3);
    assert!(infos.iter().any(|i| i.samples > 0));
    for i in &infos {
        assert_eq!(i.winprob.is_some(), i.samples > 0, "{i:?}");
        assert!(i.winprob.is_none_or(|p| (0.0..=1.0).contains(&p)));
    }
}

#[test]
fn a_search_on_a_clock_answers_well_before_the_clock_runs_out() {
    let pos = &mid_game_positions()[0];
    let clock = Clock { left: Duration::from_millis(300), inc: Duration::ZERO, movestogo: None };
    let limits = Limits { clock: Some(clock), ..Limits::default() };
    let started = Instant::now();
    let (out, _) = search_limits(pos, &limits, Strategy::Search, 1);
    assert!(started.elapsed() < Duration::from_millis(300));
    assert!(pos.check(&out.best).is_ok());
}

/// The learned evaluation: the built-in models are those of classic three and four players, and a
/// search that uses one plays a legal move and values it otherwise than today's evaluation (its
/// static ranking of the moves, `go depth 0`, differs on some mid-game position); at two players,
/// where no model is built in, `learned` is today's evaluation.
#[test]
fn the_learned_evaluation_changes_the_values_where_a_model_is_built_in() {
    use crate::search::learned::model_of;
    assert!(model_of(&Rules::new(Variant::Classic, 2).unwrap()).is_none());
    let mut differed = 0;
    for players in [2, 3, 4] {
        let rules = Rules::new(Variant::Classic, players).unwrap();
        assert_eq!(model_of(&rules).is_some(), players > 2);
        let mut rng = ChaCha8Rng::seed_from_u64(u64::from(players));
        let mut pos = Position::new(rules);
        for _ in 0..12 {
            pos.draw_random(&mut rng).unwrap();
            let mv = greedy_choice(&pos).unwrap();
            pos.play(&mv).unwrap();
        }
        pos.draw_random(&mut rng).unwrap();
        let limits = Limits { depth: Some(0), ..Limits::default() };
        let scores = |eval: Eval| {
            let options = SearchOptions { eval, ..SearchOptions::default() };
            let mut infos = Vec::new();
            let out =
                run(&pos, &limits, &options, &AtomicBool::new(false), &mut |i| infos.push(i.score)).unwrap();
            assert!(pos.check(&out.best).is_ok());
            infos
        };
        let (sheets, learned) = (scores(Eval::Sheets), scores(Eval::Learned));
        if players == 2 {
            assert_eq!(sheets, learned);
        } else if sheets != learned {
            differed += 1;
        }
    }
    assert_eq!(differed, 2, "the models changed no value");
}
