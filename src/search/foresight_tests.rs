//! Tests of the clairvoyant search's hook in the simulation (`montecarlo.rs`): every simulated
//! draw is the one that comes, counted from the root by an independent cursor over the future.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::rules::Variant;
use crate::search::{bench_positions, greedy_choice, Foresight, UNLIMITED};

/// A future for the root: classic, the bag shuffled (its first `len` tiles; all of it when
/// `None`); dice and kids, `len` rolls (64 when `None`).
fn future(root: &Position, seed: u64, len: Option<usize>) -> Foresight {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rules = root.rules();
    if rules.variant == Variant::Classic {
        let mut order: Vec<u8> = root.bag().values().collect();
        order.shuffle(&mut rng);
        order.truncate(len.unwrap_or(order.len()));
        Foresight::Bag(order)
    } else {
        let (lo, hi) = (rules.min_value(), rules.max_value());
        Foresight::Rolls(
            (0..len.unwrap_or(64))
                .map(|_| vec![rng.random_range(lo..=hi), rng.random_range(lo..=hi)])
                .collect(),
        )
    }
}

/// The table that deals this future: a cursor that hands out the next tiles of the order (as
/// many as the rules want now) or the next roll.
struct Table<'a> {
    future: &'a Foresight,
    next: usize,
}

impl Table<'_> {
    fn deal(&mut self, pos: &Position) -> Option<Vec<u8>> {
        let drawn = match self.future {
            Foresight::Bag(order) => order.get(self.next..self.next + pos.draw_count())?.to_vec(),
            Foresight::Rolls(rolls) => rolls.get(self.next)?.clone(),
        };
        self.next += if matches!(self.future, Foresight::Bag(_)) { drawn.len() } else { 1 };
        Some(drawn)
    }
}

/// The root of a clairvoyant search with this future.
fn clairvoyant(pos: &Position, future: &Foresight) -> Root {
    let sight = Sight::new(pos, future.clone()).expect("the future fits the root");
    Root { sight: Some(Arc::new(sight)), ..Root::new(pos, None) }
}

/// In every variant, turn after turn from the candidate on, the simulation's only draw is the one
/// the table deals, with probability 1; a sampled draw (the playouts) is the same one.
#[test]
fn a_clairvoyant_simulation_draws_what_the_table_deals() {
    let stop = AtomicBool::new(false);
    let mut turns_checked = 0;
    for (i, pos) in bench_positions().into_iter().enumerate() {
        let future = future(&pos, i as u64, None);
        let root = clairvoyant(&pos, &future);
        let (cands, _) = shortlist(&root, 2, SHORTLIST_SCAN, &stop);
        let mut table = Table { future: &future, next: 0 };
        let mut sim = Sim::after(&root, &cands[0]);
        let mut sampled = sim.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        for _ in 0..6 {
            if sim.pos.is_over() {
                break;
            }
            let dealt = table.deal(&sim.pos).expect("the future reaches six turns");
            assert_eq!(sim.draws(), vec![(dealt.clone(), 1.0)], "in {}", pos.to_line());
            sim.turn(&root, &dealt, &stop).unwrap();
            sampled.random_turn(&root, &mut rng, &stop).unwrap();
            assert_eq!(sampled.pos, sim.pos, "a sampled draw is the one that comes");
            turns_checked += 1;
        }
    }
    assert!(turns_checked >= 30, "{turns_checked} turns checked");
}

/// A clairvoyant stage 2 and next two turns are the margins after the draws that come, exactly.
#[test]
fn clairvoyant_values_are_the_margins_after_the_true_draws() {
    let stop = AtomicBool::new(false);
    let budget = Budget::new(&UNLIMITED, None, &stop);
    for (i, pos) in bench_positions().into_iter().enumerate() {
        let future = future(&pos, 7 + i as u64, None);
        let root = clairvoyant(&pos, &future);
        let (cands, _) = shortlist(&root, 3, SHORTLIST_SCAN, &stop);
        for cand in &cands {
            let mut table = Table { future: &future, next: 0 };
            let mut sim = Sim::after(&root, cand);
            let mut after = Vec::new();
            for _ in 0..2 {
                if !sim.pos.is_over() {
                    let dealt = table.deal(&sim.pos).unwrap();
                    sim.turn(&root, &dealt, &stop).unwrap();
                }
                after.push(sim.margin(&root));
            }
            assert_eq!(next_turn(&root, cand, &budget), Some(after[0]));
            assert_eq!(two_turns(&root, cand, &budget), Some(after[1]));
        }
    }
}

/// Where the foresight ends, the simulation goes back to every draw with its probability.
#[test]
fn beyond_the_foresight_every_draw_counts() {
    let stop = AtomicBool::new(false);
    for (i, pos) in bench_positions().into_iter().enumerate() {
        // One draw foreseen: the first roll, or the bag's first tiles, as many as one draw takes.
        let mut probe = pos.clone();
        probe.play_unchecked(greedy_choice(&pos).unwrap().placements());
        if probe.is_over() {
            continue;
        }
        let known = if pos.rules().variant == Variant::Classic { probe.draw_count() } else { 1 };
        let future = future(&pos, i as u64, Some(known));
        let root = clairvoyant(&pos, &future);
        let (cands, _) = shortlist(&root, 1, SHORTLIST_SCAN, &stop);
        let mut sim = Sim::after(&root, &cands[0]);
        let first = sim.draws();
        assert_eq!(first.len(), 1);
        sim.turn(&root, &first[0].0, &stop).unwrap();
        if sim.pos.is_over() {
            continue;
        }
        let every: Vec<(Vec<u8>, f64)> =
            sim.pos.possible_draws().into_iter().map(|(t, p)| (t.values().collect(), p)).collect();
        assert!(every.len() > 1);
        assert_eq!(sim.draws(), every, "in {}", pos.to_line());
    }
}

/// Without foresight nothing changes: the draws are every distinct draw of the rules core.
#[test]
fn without_foresight_the_simulation_weighs_every_draw() {
    let stop = AtomicBool::new(false);
    for pos in bench_positions() {
        let root = Root::new(&pos, None);
        let (cands, _) = shortlist(&root, 1, SHORTLIST_SCAN, &stop);
        let sim = Sim::after(&root, &cands[0]);
        let every: Vec<(Vec<u8>, f64)> =
            sim.pos.possible_draws().into_iter().map(|(t, p)| (t.values().collect(), p)).collect();
        assert_eq!(sim.draws(), every);
    }
}
