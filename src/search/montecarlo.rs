//! The strong player, in stages, each on fewer candidates than the one before:
//!
//! 1. **Static shortlist.** Every legal move is scored by the evaluation of the sheets after it
//!    (what each sheet will probably be worth at the end, [`super::eval`]) less a share of the
//!    points it leaves open; the best [`SHORTLIST`] go on, the greedy move always among them.
//! 2. **The next turn, exactly.** Down the shortlist, as far as the budget goes, every distinct
//!    draw of the next player (the bag is known; dice are dice) is weighed by its probability and
//!    answered with that player's move ([`Sim::reply`]). The candidate's value is the expected
//!    margin after that turn. No sampling, so no noise: this is where a run left at 9 or 10 costs
//!    what the next player's 12 is worth, on average over the tiles they may draw.
//! 3. **The next two turns, exactly** (`go depth 2`, the default with opponents). The best
//!    [`TWO_TURN_STAGE`] (or `MultiPV`) of stage 2 are valued over every draw of the next turn and
//!    every draw of the turn after it (with two players: the opponent's reply, then one's own next
//!    turn), then the next ones down stage 2's ranking while the budget lasts, each candidate
//!    whole or not at all; when at least two got there they are ranked by it. About 100,000 nodes
//!    a candidate in the middle game.
//! 3. **Or playouts** (`go depth <d>`, `d` >= 3, instead of the two turns). The best
//!    [`PLAYOUT_STAGE`] play on: draws sampled from the bag, `d` turns after the candidate. A
//!    playout's first turn is a sample of what stage 2 computed exactly, so a playout adds to the
//!    candidate's value only what the later turns changed (a control variate: the noise of the
//!    first draw cancels). Playout `j` of every candidate uses the same random stream (common
//!    random numbers). Successive halving spends the playouts on the best; the value comes with its
//!    standard error and the share of playouts won (`winprob`: margin > 0 at the playout's end by
//!    the evaluation, draws half).
//!
//! `go depth 1` stops after stage 2 and `go depth 0` after stage 1; alone (no opponents) the
//! default is depth 1. `go searchmoves` restricts the shortlist to the moves given; a lone move
//! given goes through every stage for its value. The shortlist holds at least `MultiPV`
//! candidates, so MultiPV reports min(k, legal moves) of them (fewer when a node limit below that
//! ends the scan of the legal moves).
//!
//! Values are margins over the best other sheet (one's own score alone). A sheet's value is its
//! equity after the candidate. A simulated turn adds to the mover's value what it changed of the
//! evaluation of the mover's sheet (the entries and crosses it made, valued as the evaluation
//! values them, less the turn it used up) and subtracts the pips of the drawn tiles it kept.
//! The root's player plays the best of greedy's [`OWN_CHOICES`] by that value; so does an opponent
//! seen to play other moves than greedy's in this game ([`Model::Strong`], [`super::opponents`]);
//! any other opponent plays greedy's move (the most points now).
//!
//! Why the next two turns are the default: with every simulated turn valued by the evaluation of
//! the mover's sheet (not by the points it takes) and one's own turn chosen by that value, the
//! second turn sees what a move sets up for oneself after the opponent's reply, and in matches it
//! played stronger than stage 2 alone and than playouts. Going on down stage 2's ranking while the
//! time lasts lets a search that is given more time use it. With three or four players the values
//! stay margins over the best other sheet, and the default stays the next two turns (two
//! opponents' replies): other objectives (the chance of finishing first, a margin over uncertain
//! sheets) and playouts of the whole round played no better. The match results behind each choice
//! are in tools/STRENGTH.md.
//!
//! Nodes are moves generated and scored, by the shortlist and by the moves of the simulated
//! turns; on one thread a node limit gives the same move for the same position, seed and
//! [`Limits::models`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::rules::{Move, Placement, Position, Variant};

use super::budget::Budget;
use super::eval::{equities, final_margin, margin, sheet_equity_now};
use super::foresight::Sight;
use super::greedy::greedy_ranked;
use super::learned::{model_for, Features, Model as LearnedModel};
use super::open_points::open_points;
use super::opponents::Model;
use super::scan::{for_each_scored, gain_of, Choices, Stop, MOVE_CAP};
use super::{Info, Limits, SearchOptions, SearchResult};

/// How many candidates the static evaluation passes on.
const SHORTLIST: usize = 16;
/// The most legal moves the shortlist evaluates (each costs a copy of the position): a hand of
/// many kept tiles can have millions of moves, and an answer within the move time matters more.
const SHORTLIST_SCAN: u64 = 20_000;
/// Stage 2 takes the shortlist in batches of this many candidates, as far as the budget goes.
const NEXT_TURN_BATCH: usize = 8;
/// How many candidates stage 3 values over the next two turns at once, first.
const TWO_TURN_STAGE: usize = 3;
/// How many candidates stage 3 values over the next two turns at most, as far as the budget goes.
const TWO_TURN_MOST: usize = SHORTLIST;
/// How many of greedy's best moves the root's player chooses among in a simulated turn.
const OWN_CHOICES: usize = 8;
/// How many candidates go on to the playouts.
const PLAYOUT_STAGE: usize = 4;
/// Playouts per candidate in the first round.
const FIRST_ROUND: u64 = 64;
/// Playouts per candidate in a round at most: the round's tasks are held in memory.
const MAX_ROUND: u64 = 1 << 16;
/// How much of the open points the static shortlist charges a move.
const OPEN_WEIGHT: f64 = 0.1;

/// A candidate move and what the stages found of it.
#[derive(Clone, Debug)]
struct Candidate {
    placements: Vec<Placement>,
    /// Every sheet's value after the move (the static evaluation).
    values: Vec<f64>,
    /// The stage 1 ranking key: the margin after the move, less a share of the points left open.
    static_value: f64,
    /// Stage 2: the expected margin after the next turn.
    next_turn: Option<f64>,
    /// Stage 3: the expected margin after the next two turns.
    two_turns: Option<f64>,
    /// Stage 3: the playouts' corrections to `next_turn` (count, sum, sum of squares).
    n: u64,
    sum: f64,
    sum_sq: f64,
    /// Stage 3: the playouts won (a draw counts half).
    wins: f64,
}

impl Candidate {
    /// A move valued by the static evaluation, given every sheet's value before it and the
    /// points it leaves open. Only the mover's sheet and hand change (the turn count hardly
    /// changes the other sheets' outlook).
    fn of(root: &Root, before: &[f64], placements: &[Placement], open: u32) -> Candidate {
        let mut after = root.pos.clone();
        after.play_unchecked(placements);
        let mut values = before.to_vec();
        // The learned correction reads the board: every sheet's value changes with the move. Its
        // inputs hold today's evaluation of every sheet, computed once.
        match root.model.and_then(|m| Features::of(&after).map(|f| (m, f))) {
            Some((model, f)) => {
                values[root.me] = f.equities[root.me];
                model.add_corrections(&f, &mut values);
            }
            None => values[root.me] = equities(&after)[root.me],
        }
        let static_value = margin(&values, root.me) - OPEN_WEIGHT * f64::from(open);
        Candidate {
            placements: placements.to_vec(),
            values,
            static_value,
            next_turn: None,
            two_turns: None,
            n: 0,
            sum: 0.0,
            sum_sq: 0.0,
            wins: 0.0,
        }
    }

    /// The ranking key: the deepest stage the candidate reached first (static, next turn, next
    /// two turns or playouts), then its value there. Values of different stages are never
    /// compared: every simulated turn moves the value by what it did against the evaluation's
    /// expectation, which has an offset of its own (one's own turns take the best of a few
    /// moves), the same for every candidate but not zero.
    fn key(&self) -> (u8, f64) {
        let stage = match (self.next_turn, self.two_turns, self.n) {
            (None, _, _) => 0,
            (Some(_), Some(_), _) => 2,
            (Some(_), None, 0) => 1,
            (Some(_), None, _) => 3,
        };
        (stage, self.value())
    }

    /// The expected final margin, as deep as the stages looked.
    fn value(&self) -> f64 {
        match (self.next_turn, self.two_turns) {
            (_, Some(v)) => v,
            (Some(v), None) if self.n > 0 => v + self.sum / self.n as f64,
            (Some(v), None) => v,
            (None, _) => self.static_value,
        }
    }

    /// The share of the playouts won, where playouts ran.
    fn winprob(&self) -> Option<f64> {
        (self.n > 0).then(|| self.wins / self.n as f64)
    }

    /// The standard error of [`Candidate::value`] (0 for an exact or static value).
    fn std_error(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let var = (self.sum_sq - self.sum * self.sum / n) / (n - 1.0);
        (var.max(0.0) / n).sqrt()
    }
}

fn rank(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    let (ka, kb) = (a.key(), b.key());
    ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
}

/// What every stage needs of the root.
struct Root {
    pos: Position,
    /// The sheet of the player to move.
    me: usize,
    /// The moves to search (`go searchmoves`), when not all.
    only: Option<Vec<Move>>,
    /// The draws to come, for a clairvoyant search ([`super::foresight`]).
    sight: Option<Arc<Sight>>,
    /// How each seat is expected to move ([`Limits::models`]).
    models: Vec<Model>,
    /// The learned model that corrects the stages' values, if any ([`super::learned`]): every
    /// sheet's value after each move of the shortlist, and every simulation's values where it
    /// stops, get the model's correction of today's evaluation of the position.
    model: Option<&'static LearnedModel>,
}

impl Root {
    fn new(pos: &Position, only: Option<&[Move]>) -> Root {
        let me = pos.rules().sheet_of_seat(pos.to_move());
        Root {
            pos: pos.clone(),
            me,
            only: only.map(<[Move]>::to_vec),
            sight: None,
            models: Vec::new(),
            model: None,
        }
    }

    /// How many of greedy's best moves the player in `seat` chooses among by the evaluation in a
    /// simulated turn: the root's player, and those expected to play as it does, [`OWN_CHOICES`];
    /// a greedy player, greedy's one.
    fn choices_of(&self, seat: usize) -> usize {
        let own = self.pos.rules().sheet_of_seat(seat) == self.me;
        if own || self.models.get(seat) == Some(&Model::Strong) {
            OWN_CHOICES
        } else {
            1
        }
    }

    /// The moves the shortlist looks at.
    fn choices(&self) -> Choices<'_> {
        self.only.as_deref().map_or(Choices::All, Choices::Only)
    }
}

/// A simulation in progress: the position and every sheet's running value.
#[derive(Clone)]
struct Sim {
    pos: Position,
    values: Vec<f64>,
    /// The root's foresight: a clairvoyant search's draws ([`Sim::foreseen`]).
    sight: Option<Arc<Sight>>,
}

impl Sim {
    /// The position after the candidate, with the sheets valued as the static evaluation did.
    fn after(root: &Root, cand: &Candidate) -> Sim {
        let mut pos = root.pos.clone();
        pos.play_unchecked(&cand.placements);
        Sim { pos, values: cand.values.clone(), sight: root.sight.clone() }
    }

    /// Draws `drawn` and plays the mover's move ([`Sim::reply`]). Returns the moves looked at.
    fn turn(&mut self, root: &Root, drawn: &[u8], stop: &AtomicBool) -> Option<u64> {
        self.pos.draw(drawn).ok()?;
        self.reply(root, drawn, stop)
    }

    /// [`Sim::turn`] with a draw at random, as the rules draw.
    fn random_turn(&mut self, root: &Root, rng: &mut ChaCha8Rng, stop: &AtomicBool) -> Option<u64> {
        if let Some(drawn) = self.foreseen() {
            return self.turn(root, &drawn, stop);
        }
        let drawn = self.pos.draw_random(rng).ok()?;
        self.reply(root, &drawn, stop)
    }

    /// The mover's move after the draw `drawn`, and the mover's sheet value updated; `None` when
    /// the search was stopped before the move was known (a huge hand may take long to list).
    /// The mover chooses among greedy's best moves by the same value ([`Root::choices_of`]: one
    /// of them for a greedy opponent, [`OWN_CHOICES`] otherwise). A turn is worth what it
    /// changes of the evaluation of the mover's sheet, its hand left out ([`sheet_equity_now`]:
    /// the entries and crosses made, less the turn used up), less the pips of the drawn tiles it
    /// keeps.
    fn reply(&mut self, root: &Root, drawn: &[u8], stop: &AtomicBool) -> Option<u64> {
        let rules = self.pos.rules();
        let sheet = rules.sheet_of_seat(self.pos.to_move());
        let choices = root.choices_of(self.pos.to_move());
        let (moves, seen) = greedy_ranked(&self.pos, Choices::All, Stop::Abandon(stop), choices, MOVE_CAP);
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let classic = rules.variant == Variant::Classic;
        let drawn_pips: f64 = drawn.iter().map(|&v| f64::from(v)).sum();
        let before = sheet_equity_now(&self.pos, sheet);
        let (value, best) = moves
            .iter()
            .map(|m| {
                let placed: f64 = m.placements.iter().map(|p| f64::from(p.value)).sum();
                let kept = if classic { drawn_pips - placed } else { 0.0 };
                let equity = self.pos.with_move_played(&m.placements, |after| sheet_equity_now(after, sheet));
                (equity - before - kept, m)
            })
            .reduce(|best, next| if next.0 > best.0 { next } else { best })?;
        self.values[sheet] += value;
        self.pos.play_unchecked(&best.placements);
        Some(seen)
    }

    /// Every distinct draw of the next player, with its probability (a clairvoyant search: the
    /// one that comes).
    fn draws(&self) -> Vec<(Vec<u8>, f64)> {
        if let Some(drawn) = self.foreseen() {
            return vec![(drawn, 1.0)];
        }
        self.pos.possible_draws().into_iter().map(|(t, p)| (t.values().collect(), p)).collect()
    }

    /// The draw that comes next, when the search knows it ([`super::foresight`]).
    fn foreseen(&self) -> Option<Vec<u8>> {
        self.sight.as_ref()?.draw_due(&self.pos)
    }

    /// The expected final margin of the root's player: exact once the game is over; else by the
    /// running values, corrected by the learned model of the position where the root has one.
    fn margin(&self, root: &Root) -> f64 {
        if self.pos.is_over() {
            return final_margin(&self.pos, root.me);
        }
        match root.model {
            Some(model) => {
                let mut values = self.values.clone();
                model.correct(&self.pos, &mut values);
                margin(&values, root.me)
            }
            None => margin(&self.values, root.me),
        }
    }
}

/// Stage 1: every legal move (the first `cap` of them) valued by the evaluation after it, the best
/// `size` kept (the greedy move always among them). Returns them best first and the moves scanned.
fn shortlist(root: &Root, size: usize, cap: u64, stop: &AtomicBool) -> (Vec<Candidate>, u64) {
    let pos = &root.pos;
    let rules = pos.rules();
    let sheet = &pos.sheets()[root.me];
    let before: Vec<f64> = equities(pos);
    let mut all: Vec<Candidate> = Vec::new();
    // The greedy move, found in the same scan: (gain, points left open, index in `all`).
    let mut greedy: Option<(i64, u32, usize)> = None;
    let scanned =
        for_each_scored(pos, root.choices(), Stop::Answer(stop), cap, &mut |board, placements, score| {
            let open = open_points(rules, board, placements);
            let gain = gain_of(rules, sheet, score, placements);
            if greedy.is_none_or(|(g, o, _)| (gain, std::cmp::Reverse(open)) > (g, std::cmp::Reverse(o))) {
                greedy = Some((gain, open, all.len()));
            }
            all.push(Candidate::of(root, &before, placements, open));
        });
    let greedy_move = greedy.map(|(_, _, i)| all[i].placements.clone());
    all.sort_by(|a, b| b.static_value.total_cmp(&a.static_value));
    let greedy_index = greedy_move.and_then(|g| all.iter().position(|c| c.placements == g));
    let kept_greedy = greedy_index.filter(|&i| i >= size).map(|i| all[i].clone());
    all.truncate(size - usize::from(kept_greedy.is_some()));
    all.extend(kept_greedy);
    (all, scanned)
}

/// The static value of one move for the player to move ([`Candidate::static_value`]): what the
/// random and greedy strategies report, so that `score` means the same in every strategy.
pub(crate) fn static_value(pos: &Position, placements: &[Placement]) -> f64 {
    let root = Root::new(pos, None);
    let mut after = pos.board().clone();
    for p in placements {
        after.place(p.cell, p.value);
    }
    let open = open_points(pos.rules(), &after, placements);
    Candidate::of(&root, &equities(pos), placements, open).static_value
}

/// Stage 2 for one candidate: the expected margin after the next player's move, over every draw
/// they may get (`None` when the budget ran out first).
fn next_turn(root: &Root, cand: &Candidate, budget: &Budget<'_>) -> Option<f64> {
    expected_margin(root, &Sim::after(root, cand), 1, budget)
}

/// Stage 3 for one candidate: the expected margin after the next two turns, over every draw of
/// each (`None` when the budget ran out first).
fn two_turns(root: &Root, cand: &Candidate, budget: &Budget<'_>) -> Option<f64> {
    expected_margin(root, &Sim::after(root, cand), 2, budget)
}

/// The root player's expected margin after `turns` more turns from `sim` (fewer when the game
/// ends first), every distinct draw of each weighed by its probability.
fn expected_margin(root: &Root, sim: &Sim, turns: u32, budget: &Budget<'_>) -> Option<f64> {
    if turns == 0 || sim.pos.is_over() {
        return Some(sim.margin(root));
    }
    let mut expected = 0.0;
    for (drawn, p) in sim.draws() {
        if budget.exhausted() {
            return None;
        }
        let mut next = sim.clone();
        budget.spend(next.turn(root, &drawn, budget.stop_flag())?);
        expected += p * expected_margin(root, &next, turns - 1, budget)?;
    }
    Some(expected)
}

/// Stage 3: the next two turns, exactly, for the best `first` candidates of stage 2, then on down
/// its ranking, `threads` at a time, while the budget lasts (at most [`TWO_TURN_MOST`]); they are
/// ranked by it when at least `least` of them got there (else stage 2's ranking stands). Leaves
/// the candidates ranked; returns whether the stage ranked them.
fn two_turn_stage(
    root: &Root,
    cands: &mut [Candidate],
    first: usize,
    least: usize,
    threads: usize,
    budget: &Budget<'_>,
) -> bool {
    let most = cands.iter().take_while(|c| c.next_turn.is_some()).count().min(TWO_TURN_MOST.max(first));
    let value = |c: &Candidate| two_turns(root, c, budget);
    let mut values = parallel(&cands[..first.min(most)], threads, value);
    while values.len() < most && !budget.exhausted() {
        let batch = values.len()..most.min(values.len() + threads);
        values.extend(parallel(&cands[batch], threads, value));
    }
    let ranked = values.iter().flatten().count() >= least.max(1);
    if ranked {
        for (cand, value) in cands.iter_mut().zip(values) {
            cand.two_turns = value;
        }
        cands.sort_by(|a, b| rank(b, a));
    }
    ranked
}

/// What one playout found.
struct Playout {
    /// How much the turns after the first changed the margin.
    correction: f64,
    /// 1 when the margin at its end is positive, 0.5 when it is 0, else 0.
    won: f64,
    /// How many turns it simulated: none when the game ends with the candidate.
    turns: u32,
}

/// Stage 3, playout `j` of a candidate (`None` when the budget ran out).
fn playout(
    root: &Root,
    cand: &Candidate,
    depth: u32,
    seed: u64,
    j: u64,
    budget: &Budget<'_>,
) -> Option<Playout> {
    if budget.exhausted() {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(j);
    let mut sim = Sim::after(root, cand);
    let mut first = None;
    let mut turns = 0;
    for _ in 0..depth {
        if sim.pos.is_over() {
            break;
        }
        let Some(seen) = sim.random_turn(root, &mut rng, budget.stop_flag()) else { break };
        budget.spend(seen);
        turns += 1;
        first.get_or_insert(sim.margin(root));
    }
    let end = sim.margin(root);
    let first = first.unwrap_or(end);
    let won = match end.total_cmp(&0.0) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    };
    Some(Playout { correction: end - first, won, turns })
}

/// How far the search looks: `go depth <d>` asks for `d` (0: the static ranking alone, 1: stage
/// 2, 2: the next two turns exactly, 3 or more: playouts of `d` turns instead). By default, with
/// opponents, 2; alone, 1 (every simulated turn would be one's own; the two turns of a player
/// alone were not measured).
fn search_depth(pos: &Position, limits: &Limits) -> u32 {
    match limits.depth {
        Some(d) => d,
        None if pos.rules().players > 1 => 2,
        None => 1,
    }
}

/// The playouts' length in turns for a depth `d` of 3 or more: `d`, and near the end of the game
/// on to its end, which is cheap and exact.
fn playout_depth(pos: &Position, depth: u32) -> u32 {
    let left = pos.turns_left_estimate().ceil() as u32;
    if left <= depth.saturating_mul(2) {
        depth.max(left + 2)
    } else {
        depth
    }
}

/// Runs the search: the shortlist, the next turn, the playouts, each reported as it ends; the
/// best candidate of the deepest stage wins. With a [`Sight`] it is clairvoyant: every simulated
/// draw is the one that comes.
pub(crate) fn search(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    only: Option<&[Move]>,
    sight: Option<Sight>,
    budget: &Budget<'_>,
    on_info: &mut dyn FnMut(&Info),
) -> Option<SearchResult> {
    let root = Root {
        sight: sight.map(Arc::new),
        models: limits.models.clone(),
        model: model_for(options.eval, pos.rules()),
        ..Root::new(pos, only)
    };
    let threads = options.threads.max(1);
    let multipv = options.multipv.max(1);
    let mut cands = shortlist_stage(&root, multipv, budget)?;
    report(&cands, multipv, 0, budget, on_info);
    // A lone legal move is played at once, unless it was asked for (its value is then wanted).
    let lone = cands.len() == 1 && only.is_none();
    let depth = search_depth(pos, limits);
    if depth >= 1 && !lone {
        next_turn_stage(&root, &mut cands, threads, budget);
        report(&cands, multipv, 1, budget, on_info);
    }
    if depth == 2 && !lone {
        let least = if only.is_some() { 1 } else { 2 };
        if two_turn_stage(&root, &mut cands, TWO_TURN_STAGE.max(multipv), least, threads, budget) {
            report(&cands, multipv, 2, budget, on_info);
        }
    }
    if depth >= 3 && !lone {
        let seed = options.seed ^ u64::from(pos.turn()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let how = Playouts { depth: playout_depth(pos, depth), seed, multipv, threads, lone: only.is_some() };
        playout_stage(&root, &mut cands, how, budget, on_info);
    }
    let best = &cands[0];
    Some(SearchResult {
        best: Move::new(best.placements.clone()),
        score: best.value(),
        nodes: budget.nodes(),
    })
}

/// Stage 1: the shortlist, long enough for `multipv` candidates, counted in the budget; `None`
/// when there is no move at all. A node limit below [`SHORTLIST_SCAN`] bounds the scan too (one
/// move at least): the search then ends with the best of the moves it scanned.
fn shortlist_stage(root: &Root, multipv: usize, budget: &Budget<'_>) -> Option<Vec<Candidate>> {
    let cap = budget.scan_cap(SHORTLIST_SCAN);
    let (cands, scanned) = shortlist(root, SHORTLIST.max(multipv), cap, budget.stop_flag());
    budget.spend(scanned);
    (!cands.is_empty()).then_some(cands)
}

/// Stage 2: the next turn over every draw, a batch of candidates at a time in static order, as
/// far down the shortlist as the budget goes (the first batch always). Leaves the candidates
/// ranked.
fn next_turn_stage(root: &Root, cands: &mut [Candidate], threads: usize, budget: &Budget<'_>) {
    for batch in (0..cands.len()).step_by(NEXT_TURN_BATCH) {
        if budget.exhausted() && batch > 0 {
            break;
        }
        let batch = batch..cands.len().min(batch + NEXT_TURN_BATCH);
        let values = parallel(&cands[batch.clone()], threads, |c| next_turn(root, c, budget));
        for (cand, value) in cands[batch].iter_mut().zip(values) {
            cand.next_turn = value;
        }
    }
    cands.sort_by(|a, b| rank(b, a));
}

/// How the playouts run.
#[derive(Copy, Clone)]
struct Playouts {
    /// Turns after the candidate.
    depth: u32,
    seed: u64,
    /// Candidates to report, and the fewest the halving keeps (at least 2).
    multipv: usize,
    threads: usize,
    /// Whether a lone candidate is played out too (`go searchmoves` with one move).
    lone: bool,
}

/// Stage 3: playouts of the best few that stage 2 valued, in rounds, halving the survivors after
/// each; each round is reported. Leaves the candidates ranked.
fn playout_stage(
    root: &Root,
    cands: &mut [Candidate],
    how: Playouts,
    budget: &Budget<'_>,
    on_info: &mut dyn FnMut(&Info),
) {
    let floor = how.multipv.max(2);
    let mut survivors: Vec<usize> =
        (0..cands.len()).filter(|&c| cands[c].next_turn.is_some()).take(PLAYOUT_STAGE.max(floor)).collect();
    let mut per_round = FIRST_ROUND;
    let mut next_j = 0u64;
    let least = if how.lone { 1 } else { 2 };
    while survivors.len() >= least && !budget.exhausted() {
        let tasks: Vec<(usize, u64)> =
            (next_j..next_j + per_round).flat_map(|j| survivors.iter().map(move |&c| (c, j))).collect();
        let results =
            parallel(&tasks, how.threads, |&(c, j)| playout(root, &cands[c], how.depth, how.seed, j, budget));
        let mut turns = 0u64;
        for (&(c, _), r) in tasks.iter().zip(results) {
            if let Some(Playout { correction: v, won, turns: t }) = r {
                let cand = &mut cands[c];
                cand.n += 1;
                cand.sum += v;
                cand.sum_sq += v * v;
                cand.wins += won;
                turns += u64::from(t);
            }
        }
        // No playout simulated a turn (the game ends with every survivor): the values are exact
        // and more playouts would change nothing, nor spend a node of a node limit.
        if turns == 0 {
            break;
        }
        next_j += per_round;
        survivors.sort_by(|&a, &b| rank(&cands[b], &cands[a]));
        if survivors.len() > floor {
            survivors.truncate((survivors.len() / 2).max(floor));
        }
        let done: u64 = cands.iter().map(|c| c.n).sum();
        per_round = next_round(budget, done, survivors.len(), floor, per_round);
        let mut order = cands.to_vec();
        order.sort_by(|a, b| rank(b, a));
        report(&order, how.multipv, how.depth, budget, on_info);
    }
    cands.sort_by(|a, b| rank(b, a));
}

/// Playouts per survivor in the next round: the playouts the budget still affords, shared out
/// evenly over the halvings still to come (and over a few more rounds once at the floor); with
/// no bound (infinite) the rounds double.
fn next_round(budget: &Budget<'_>, done: u64, survivors: usize, floor: usize, last: u64) -> u64 {
    let per_playout = (budget.nodes().max(1) as f64 / done.max(1) as f64).max(1.0);
    let Some(left_playouts) = budget.affordable(per_playout) else {
        return (last * 2).min(MAX_ROUND);
    };
    let mut halvings = 0;
    let mut s = survivors;
    while s > floor {
        s = (s / 2).max(floor);
        halvings += 1;
    }
    let rounds = if halvings == 0 { 4.0 } else { f64::from(halvings) + 1.0 };
    ((left_playouts / rounds / survivors as f64) as u64).clamp(FIRST_ROUND, MAX_ROUND)
}

/// Maps `work` over the tasks, on several threads when asked, keeping the order. A thread that
/// panicked (a bug) loses its results (`None`) but not the others'.
fn parallel<T: Sync, R: Send, F>(tasks: &[T], threads: usize, work: F) -> Vec<Option<R>>
where
    F: Fn(&T) -> Option<R> + Sync,
{
    if threads <= 1 || tasks.len() < 2 {
        return tasks.iter().map(&work).collect();
    }
    let size = tasks.len().div_ceil(threads);
    let work = &work;
    std::thread::scope(|s| {
        let handles: Vec<_> = tasks
            .chunks(size)
            .map(|chunk| (chunk.len(), s.spawn(move || chunk.iter().map(work).collect::<Vec<_>>())))
            .collect();
        handles
            .into_iter()
            .flat_map(|(n, h)| h.join().unwrap_or_else(|_| (0..n).map(|_| None).collect()))
            .collect()
    })
}

/// Reports the best `multipv` candidates, in order (`cands` is sorted best first).
fn report(
    cands: &[Candidate],
    multipv: usize,
    depth: u32,
    budget: &Budget<'_>,
    on_info: &mut dyn FnMut(&Info),
) {
    let (nodes, elapsed) = (budget.nodes(), budget.elapsed());
    for (rank, cand) in cands.iter().take(multipv).enumerate() {
        let mv = Move::new(cand.placements.clone());
        on_info(&Info {
            std_error: cand.std_error(),
            winprob: cand.winprob(),
            samples: cand.n,
            ..Info::exact(depth, nodes, elapsed, rank, mv, cand.value())
        });
    }
}

#[cfg(test)]
#[path = "foresight_tests.rs"]
mod foresight_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{bench_positions, greedy_choice, UNLIMITED};

    /// Stage 2's value of a candidate as it would be if the next player always played the greedy
    /// move, recomputed through the rules core: for every draw it lists, their sheet's value moves
    /// by the change of the evaluation of their sheet and by the change of their hand's pips (the
    /// standing less the sheet's total, as `standings` counts them). `None` when the game is over.
    fn greedy_next_turn(root: &Root, cand: &Candidate) -> Option<f64> {
        let mut after = root.pos.clone();
        after.play(&Move::new(cand.placements.clone())).unwrap();
        if after.is_over() {
            return None;
        }
        let sheet = after.rules().sheet_of_seat(after.to_move());
        let hand =
            |pos: &Position| pos.standings()[sheet].total - i64::from(pos.sheets()[sheet].total(pos.rules()));
        let expected = after
            .possible_draws()
            .into_iter()
            .map(|(drawn, p)| {
                let mut next = after.clone();
                let hand_before = hand(&next);
                next.draw(&drawn.values().collect::<Vec<_>>()).unwrap();
                let before = sheet_equity_now(&next, sheet);
                next.play(&greedy_choice(&next).unwrap()).unwrap();
                let mut values = cand.values.clone();
                values[sheet] += sheet_equity_now(&next, sheet) - before + (hand(&next) - hand_before) as f64;
                p * if next.is_over() { final_margin(&next, root.me) } else { margin(&values, root.me) }
            })
            .sum();
        Some(expected)
    }

    /// Whether the player after the candidate is the root's player (alone, or a team partner).
    fn own_turn_next(root: &Root, cand: &Candidate) -> bool {
        let mut after = root.pos.clone();
        after.play_unchecked(&cand.placements);
        after.rules().sheet_of_seat(after.to_move()) == root.me
    }

    /// Stage 2's value and [`greedy_next_turn`]'s of the best three candidates of every bench
    /// position after which one's own turn comes next (`own`) or an opponent's, with every seat
    /// modelled as `model`; each with the position's line.
    fn next_turns_and_greedys(model: Model, own: bool) -> Vec<(f64, f64, String)> {
        let stop = AtomicBool::new(false);
        let budget = Budget::new(&UNLIMITED, None, &stop);
        let mut found = Vec::new();
        for pos in bench_positions() {
            let models = vec![model; usize::from(pos.rules().players)];
            let root = Root { models, ..Root::new(&pos, None) };
            let (cands, _) = shortlist(&root, 3, SHORTLIST_SCAN, &stop);
            for cand in cands.iter().filter(|c| own_turn_next(&root, c) == own) {
                let Some(greedy) = greedy_next_turn(&root, cand) else { continue };
                found.push((next_turn(&root, cand, &budget).unwrap(), greedy, pos.to_line()));
            }
        }
        found
    }

    /// When a greedy opponent moves next, stage 2 is [`greedy_next_turn`].
    #[test]
    fn next_turn_is_the_expected_change_of_the_greedy_reply() {
        let found = next_turns_and_greedys(Model::Greedy, false);
        for (got, expected, line) in &found {
            assert!((got - expected).abs() < 1e-9, "{got} != {expected} in {line}");
        }
        assert!(found.len() >= 12, "{} candidates checked", found.len());
    }

    /// When one's own turn comes next, stage 2 plays the best of greedy's few moves by the same
    /// value, greedy's own move among them: never worse than [`greedy_next_turn`], and better
    /// where another of the few is worth more.
    #[test]
    fn ones_own_simulated_turn_is_at_least_greedys() {
        let found = next_turns_and_greedys(Model::Greedy, true);
        for (got, greedy, line) in &found {
            assert!(got >= &(greedy - 1e-9), "{got} < greedy's {greedy} in {line}");
        }
        assert!(found.len() >= 3, "{} candidates checked", found.len());
        assert!(
            found.iter().any(|(got, greedy, _)| got > &(greedy + 1e-9)),
            "the choice never differed from greedy's"
        );
    }

    /// An opponent seen to play other moves than greedy's ([`Model::Strong`]) chooses among
    /// greedy's few best moves by the value of their sheet, as one's own turn does: the margin
    /// after their turn is never more than after greedy's reply, and less where another of the
    /// few is worth more to them.
    #[test]
    fn a_strong_opponents_simulated_turn_is_at_least_greedys_for_them() {
        let found = next_turns_and_greedys(Model::Strong, false);
        for (got, greedy, line) in &found {
            assert!(got <= &(greedy + 1e-9), "{got} > the margin after greedy's reply {greedy} in {line}");
        }
        assert!(found.len() >= 12, "{} candidates checked", found.len());
        let better = found.iter().any(|(got, greedy, _)| got < &(greedy - 1e-9));
        assert!(better, "the strong opponent's choice never differed from greedy's move");
    }

    /// The candidates of a mid-game position after stage 2, with every sheet's value.
    fn after_stage_two(pos: &Position, budget: &Budget<'_>) -> (Root, Vec<Candidate>) {
        let root = Root::new(pos, None);
        let (mut cands, _) = shortlist(&root, SHORTLIST, SHORTLIST_SCAN, budget.stop_flag());
        next_turn_stage(&root, &mut cands, 1, budget);
        (root, cands)
    }

    /// The stage of the next two turns goes on down stage 2's ranking while the budget lasts: with
    /// no limit it values every candidate stage 2 valued; under a node limit, more than the first
    /// few and fewer than all, each one it values whole (the value it has with no limit).
    #[test]
    fn the_two_turn_stage_goes_on_while_the_budget_lasts_each_candidate_whole() {
        let stop = AtomicBool::new(false);
        let pos = bench_positions().into_iter().next().unwrap();
        assert_eq!(pos.rules().players, 2);
        let unlimited = Budget::new(&UNLIMITED, None, &stop);
        let (root, mut all) = after_stage_two(&pos, &unlimited);
        assert_eq!(all.len(), SHORTLIST);
        let before = unlimited.nodes();
        assert!(two_turn_stage(&root, &mut all, TWO_TURN_STAGE, 2, 1, &unlimited));
        assert!(all.iter().all(|c| c.two_turns.is_some()), "every candidate valued with no limit");
        let per_candidate = (unlimited.nodes() - before) / all.len() as u64;

        // Enough nodes for stage 2 and about six candidates of the next two turns.
        let limits = Limits { nodes: Some(before + 6 * per_candidate), ..Limits::default() };
        let budget = Budget::new(&limits, None, &stop);
        let (root, mut cands) = after_stage_two(&pos, &budget);
        assert_eq!(budget.nodes(), before, "stage 2 is the same under the limit");
        assert!(two_turn_stage(&root, &mut cands, TWO_TURN_STAGE, 2, 1, &budget));
        let valued: Vec<&Candidate> = cands.iter().filter(|c| c.two_turns.is_some()).collect();
        assert!(
            (TWO_TURN_STAGE + 1..SHORTLIST).contains(&valued.len()),
            "{} of {} candidates valued",
            valued.len(),
            SHORTLIST
        );
        for cand in valued {
            let whole = all.iter().find(|c| c.placements == cand.placements).unwrap();
            assert_eq!(cand.two_turns, whole.two_turns, "a candidate valued in part");
        }
    }

    /// The probabilities of the draws add up to one, so a value that does not depend on the draw
    /// is its own expectation: a stage 2 value stays within the range of its draws' margins.
    #[test]
    fn next_turn_lies_between_the_best_and_worst_draw() {
        let stop = AtomicBool::new(false);
        let budget = Budget::new(&UNLIMITED, None, &stop);
        for pos in bench_positions() {
            let root = Root::new(&pos, None);
            let (cands, _) = shortlist(&root, 2, SHORTLIST_SCAN, &stop);
            let after = Sim::after(&root, &cands[0]);
            if after.pos.is_over() {
                continue;
            }
            let margins: Vec<f64> = after
                .draws()
                .iter()
                .map(|(drawn, _)| {
                    let mut sim = after.clone();
                    sim.turn(&root, drawn, &stop).unwrap();
                    sim.margin(&root)
                })
                .collect();
            let total: f64 = after.draws().iter().map(|(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-9);
            let v = next_turn(&root, &cands[0], &budget).unwrap();
            let lo = margins.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = margins.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            assert!(lo - 1e-9 <= v && v <= hi + 1e-9, "{lo} <= {v} <= {hi}");
        }
    }
}
