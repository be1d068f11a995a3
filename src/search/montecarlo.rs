//! The strong player: a static shortlist of candidate moves, then Monte Carlo simulation of the
//! following turns for each candidate, with successive halving of the candidates.
//!
//! A playout plays the candidate, then `depth` more turns: each draws at random from the known
//! bag (or rolls the dice) and plays the greedy move; the leaf is scored by the evaluation
//! (exactly, when the game ended). Playout `j` of every candidate uses the same random stream
//! (common random numbers), so candidates are compared on the same draws, and a playout's result
//! does not depend on which thread ran it. Nodes are simulated turns (the candidate move counts
//! as one), so a node limit gives the same move for the same position and seed.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::rules::{Move, Placement, Position};

use super::eval::{equities, final_margin, game_turns_left, ledgers_of, margin};
use super::greedy::{for_each_scored, greedy, open_points};
use super::ledger::Ledger;
use super::{Info, Limits, Outcome, SearchOptions};

/// How many candidates the static evaluation passes to the simulation.
const SHORTLIST: usize = 16;
/// The most legal moves the shortlist evaluates (each costs a copy of the position): a hand of
/// many kept tiles can have millions of moves, and an answer within the move time matters more.
const SHORTLIST_SCAN: u64 = 20_000;
/// Playouts per candidate in the first round.
const FIRST_ROUND: u64 = 4;
/// Whether `go` without a depth simulates (see [`search`]).
const SIMULATE_BY_DEFAULT: bool = false;
/// How many candidates of the static ranking go on to the playouts.
const SECOND_STAGE: usize = 4;
/// How much of the open points the static shortlist charges a move.
const OPEN_WEIGHT: f64 = 0.1;

/// A candidate move and its simulation statistics.
#[derive(Clone, Debug)]
struct Candidate {
    placements: Vec<Placement>,
    /// The static evaluation: margin after the move, less a share of the points left open.
    static_value: f64,
    n: u64,
    sum: f64,
    sum_sq: f64,
}

impl Candidate {
    /// The ranking key: simulated candidates first (by mean), then the others by static value,
    /// so that values of the two scales are never compared.
    fn key(&self) -> (bool, f64) {
        (self.n > 0, self.mean())
    }

    /// The value the candidate is ranked and reported by.
    fn mean(&self) -> f64 {
        if self.n > 0 {
            self.sum / self.n as f64
        } else {
            self.static_value
        }
    }

    fn std_error(&self) -> f64 {
        if self.n < 2 {
            return f64::INFINITY;
        }
        let n = self.n as f64;
        let var = (self.sum_sq - self.sum * self.sum / n) / (n - 1.0);
        (var.max(0.0) / n).sqrt()
    }
}

/// A position with the ledgers of its sheets, kept in step through simulated moves.
#[derive(Clone)]
struct Sim {
    pos: Position,
    ledgers: Vec<Ledger>,
}

impl Sim {
    fn play(&mut self, placements: &[Placement]) {
        let seat = self.pos.to_move();
        let sheet = self.pos.rules().sheet_of_seat(seat);
        let score = self.pos.play_unchecked(placements);
        self.ledgers[sheet].record(self.pos.rules(), &score, placements.len());
    }

    fn value(&self, me: usize) -> f64 {
        if self.pos.is_over() {
            final_margin(&self.pos, me)
        } else {
            margin(&equities(&self.pos, &self.ledgers), me)
        }
    }
}

/// The static shortlist: every legal move scored by the evaluation after it, the best few kept
/// (the greedy move always among them).
fn shortlist(root: &Sim, me: usize, size: usize, stop: &AtomicBool) -> (Vec<Candidate>, u64) {
    let pos = &root.pos;
    let rules = pos.rules();
    let mut all: Vec<Candidate> = Vec::new();
    let before: Vec<f64> = equities(pos, &root.ledgers);
    let mut scanned = 0u64;
    for_each_scored(pos, stop, SHORTLIST_SCAN, &mut |board, placements, score| {
        scanned += 1;
        let mut ledger = root.ledgers[me].clone();
        ledger.record(rules, score, placements.len());
        // The evaluation after the move, approximated by changing only the mover's sheet and
        // hand (the turn count hardly changes the other sheets' outlook).
        let mut values = before.clone();
        let mut after = pos.clone();
        after.play_unchecked(placements);
        let mut ledgers = root.ledgers.clone();
        ledgers[me] = ledger;
        values[me] = equities(&after, &ledgers)[me];
        let open = f64::from(open_points(rules, board, placements));
        let static_value = margin(&values, me) - OPEN_WEIGHT * open;
        all.push(Candidate { placements: placements.to_vec(), static_value, n: 0, sum: 0.0, sum_sq: 0.0 });
    });
    let greedy_move = greedy(pos, &root.ledgers[me], stop).map(|s| s.placements);
    all.sort_by(|a, b| b.static_value.total_cmp(&a.static_value));
    let mut keep: Vec<Candidate> = Vec::new();
    if let Some(g) = greedy_move {
        if let Some(i) = all.iter().position(|c| c.placements == g) {
            if i >= size {
                keep.push(all[i].clone());
            }
        }
    }
    let room = size.saturating_sub(keep.len());
    let mut out: Vec<Candidate> = all.into_iter().take(room).collect();
    out.extend(keep);
    (out, scanned)
}

fn rank(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    let (ka, kb) = (a.key(), b.key());
    ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
}

/// One playout of a candidate: its value for the mover's sheet and the nodes it took.
fn playout(
    root: &Sim,
    cand: &[Placement],
    me: usize,
    depth: u32,
    seed: u64,
    j: u64,
    stop: &AtomicBool,
) -> (f64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(j);
    let mut sim = root.clone();
    sim.play(cand);
    let mut nodes = 1;
    for _ in 0..depth {
        if sim.pos.is_over() {
            break;
        }
        if sim.pos.draw_random(&mut rng).is_err() {
            break;
        }
        let sheet = sim.pos.rules().sheet_of_seat(sim.pos.to_move());
        let Some(reply) = greedy(&sim.pos, &sim.ledgers[sheet], stop) else { break };
        sim.play(&reply.placements);
        nodes += 1;
    }
    (sim.value(me), nodes)
}

/// What the rounds of simulation share across threads.
struct Budget<'a> {
    limits: &'a Limits,
    stop: &'a AtomicBool,
    started: Instant,
    nodes: AtomicU64,
    default_time: std::time::Duration,
}

impl Budget<'_> {
    fn exhausted(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            return self.nodes.load(Ordering::Relaxed) >= n;
        }
        if self.limits.infinite {
            return false;
        }
        let time = self.limits.movetime.unwrap_or(self.default_time);
        self.started.elapsed() >= time
    }
}

/// The default playout length in turns: the replies of every other player and one's own next
/// turn.
fn default_depth(pos: &Position) -> u32 {
    u32::from(pos.rules().players) + 1
}

/// Runs the search.
pub(crate) fn search(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> Option<Outcome> {
    let started = Instant::now();
    let rules = pos.rules();
    let me = rules.sheet_of_seat(pos.to_move());
    let root = Sim { pos: pos.clone(), ledgers: ledgers_of(pos) };
    let mut depth = limits.depth.unwrap_or_else(|| default_depth(pos));
    // Near the end, play the game out: it is cheap and exact.
    let left = game_turns_left(pos);
    if limits.depth.is_none() && left <= f64::from(2 * depth) {
        depth = (left.ceil() as u32 + 2).max(depth);
    }
    let (mut cands, scanned) = shortlist(&root, me, SHORTLIST, stop);
    if cands.is_empty() {
        return None;
    }
    let seed = options.seed ^ u64::from(pos.turn()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let budget = Budget {
        limits,
        stop,
        started,
        nodes: AtomicU64::new(0),
        default_time: std::time::Duration::from_millis(1000),
    };
    let floor = options.multipv.max(2);
    let mut survivors: Vec<usize> = (0..cands.len()).collect();
    budget.nodes.fetch_add(scanned, Ordering::Relaxed);
    // The static ranking decides unless simulation is asked for (`go depth d`, d >= 1): in
    // self-play against greedy the playouts with greedy replies have so far cost strength (see
    // the module notes).
    let simulate = limits.depth.is_some_and(|d| d >= 1) || SIMULATE_BY_DEFAULT;
    if simulate {
        report(&cands, &survivors, options.multipv, 0, &budget, on_info);
        survivors.truncate(SECOND_STAGE.max(floor));
    } else {
        survivors.truncate(1);
    }
    // Playouts of the best few, with successive halving.
    // Stage 2: playouts of the best few, with successive halving.
    let mut per_round = FIRST_ROUND;
    let mut next_j = 0u64;
    let threads = options.threads.max(1);
    let mut round = 0u32;
    while survivors.len() > 1 && !budget.exhausted() {
        // The tasks of this round: playouts next_j.. of every survivor.
        let tasks: Vec<(usize, u64)> =
            (next_j..next_j + per_round).flat_map(|j| survivors.iter().map(move |&c| (c, j))).collect();
        let results = run_tasks(&root, &cands, &tasks, me, depth, seed, threads, &budget);
        for ((c, _), r) in tasks.iter().zip(results) {
            if let Some(v) = r {
                let cand = &mut cands[*c];
                cand.n += 1;
                cand.sum += v;
                cand.sum_sq += v * v;
            }
        }
        next_j += per_round;
        round += 1;
        survivors.sort_by(|&a, &b| rank(&cands[b], &cands[a]));
        report(&cands, &survivors, options.multipv, depth, &budget, on_info);
        if survivors.len() > floor {
            let keep = (survivors.len() / 2).max(floor);
            survivors.truncate(keep);
        }
        let done: u64 = cands.iter().map(|c| c.n).sum();
        per_round = next_round(&budget, done, survivors.len(), floor, per_round);
    }
    log::debug!("search: {round} rounds, {} nodes", budget.nodes.load(Ordering::Relaxed));
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by(|&a, &b| rank(&cands[b], &cands[a]));
    let final_depth = if cands.iter().any(|c| c.n > 0) { depth } else { 0 };
    report(&cands, &order, options.multipv, final_depth, &budget, on_info);
    let best = &cands[order[0]];
    Some(Outcome {
        best: Move::new(best.placements.clone()),
        score: best.mean(),
        nodes: budget.nodes.load(Ordering::Relaxed),
    })
}

/// Playouts per survivor in the next round: the playouts the budget still affords, shared out
/// evenly over the halvings still to come (and over a few more rounds once at the floor); with
/// no budget (infinite) the rounds double.
fn next_round(budget: &Budget<'_>, done: u64, survivors: usize, floor: usize, last: u64) -> u64 {
    let nodes = budget.nodes.load(Ordering::Relaxed).max(1);
    let per_playout = (nodes as f64 / done.max(1) as f64).max(1.0);
    let left_playouts = if let Some(limit) = budget.limits.nodes {
        limit.saturating_sub(nodes) as f64 / per_playout
    } else if budget.limits.infinite {
        return last * 2;
    } else {
        let time = budget.limits.movetime.unwrap_or(budget.default_time).as_secs_f64();
        let elapsed = budget.started.elapsed().as_secs_f64().max(1e-6);
        (time - elapsed).max(0.0) * nodes as f64 / elapsed / per_playout
    };
    let mut halvings = 0;
    let mut s = survivors;
    while s > floor {
        s = (s / 2).max(floor);
        halvings += 1;
    }
    let rounds = if halvings == 0 { 4.0 } else { f64::from(halvings) + 1.0 };
    ((left_playouts / rounds / survivors as f64) as u64).max(FIRST_ROUND)
}

/// Runs playouts, on several threads when asked; `None` for those cut off by the budget.
#[allow(clippy::too_many_arguments)]
fn run_tasks(
    root: &Sim,
    cands: &[Candidate],
    tasks: &[(usize, u64)],
    me: usize,
    depth: u32,
    seed: u64,
    threads: usize,
    budget: &Budget<'_>,
) -> Vec<Option<f64>> {
    let work = |chunk: &[(usize, u64)]| -> Vec<Option<f64>> {
        chunk
            .iter()
            .map(|&(c, j)| {
                if budget.exhausted() {
                    return None;
                }
                let (v, nodes) = playout(root, &cands[c].placements, me, depth, seed, j, budget.stop);
                budget.nodes.fetch_add(nodes, Ordering::Relaxed);
                Some(v)
            })
            .collect()
    };
    if threads <= 1 || tasks.len() < 2 {
        return work(tasks);
    }
    let size = tasks.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = tasks.chunks(size).map(|chunk| s.spawn(move || work(chunk))).collect();
        let sizes: Vec<usize> = tasks.chunks(size).map(<[_]>::len).collect();
        // A thread that panicked (a bug) loses its playouts but keeps the others in place.
        handles.into_iter().zip(sizes).flat_map(|(h, n)| h.join().unwrap_or_else(|_| vec![None; n])).collect()
    })
}

fn report(
    cands: &[Candidate],
    order: &[usize],
    multipv: usize,
    depth: u32,
    budget: &Budget<'_>,
    on_info: &mut dyn FnMut(&Info),
) {
    let nodes = budget.nodes.load(Ordering::Relaxed);
    let time_ms = budget.started.elapsed().as_millis() as u64;
    for (rank, &c) in order.iter().enumerate() {
        let cand = &cands[c];
        log::debug!(
            "candidate {rank}: mean {:.2} se {:.2} n {} static {:.2}",
            cand.mean(),
            cand.std_error(),
            cand.n,
            cand.static_value
        );
    }
    for (rank, &c) in order.iter().take(multipv.max(1)).enumerate() {
        let cand = &cands[c];
        on_info(&Info {
            depth,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            time_ms,
            multipv: rank + 1,
            score: cand.mean(),
            pv: vec![Move::new(cand.placements.clone())],
        });
    }
}
