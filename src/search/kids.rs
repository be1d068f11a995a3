//! `search` in the two-player kids' game (points): every legal move valued by what it scores less
//! what it leaves to the opponent, exactly over the 21 rolls, with the fast reply model of
//! [`super::kids_reply`] instead of listing the opponent's moves.
//!
//! 1. **Every move, roughly.** The points a move scores now less the opponent's expected best
//!    reply, that reply's change per placement worked out alone (a value on a cell changes what
//!    every roll can score: one model of the board per distinct placement, some 100 to 200) and
//!    added up.
//! 2. **The best [`EXACT_MOST`] of them, exactly** (`go depth 1`, the default), in the order of
//!    step 1 while the budget lasts (at least [`EXACT_LEAST`]): for every roll of the opponent,
//!    their best reply on the board after the move. The opponent's best reply is what `greedy`
//!    scores (greedy's tie-break, the points left open, decides only which of equal moves it
//!    plays). A move's margin is its points now less the expected reply; it is ranked by the
//!    expected chance to win after the reply ([`exact_value`]): the lead then, against the rest
//!    of the game's margin spread by the cells still open ([`rest_spread`]), plus a little of the
//!    margin. Early on the chance grows almost in step with the margin; near the end it prefers
//!    the move that wins to the one that scores.
//! 3. **Or the best [`TWO_TURN_MOST`] over two turns** (`go depth 2`), each whole or not at all:
//!    for every roll of the opponent, their best move (the model's: the most points, the first
//!    found of equal ones), then one's own expected best reply to that (by the margin).
//! 4. **The end, exactly**: once at most [`super::kids_end::MOST_CELLS`] empty cells still take a
//!    value (and no `rounds` limit), every move is valued by its chance to win over every roll to
//!    the end of the game, the opponent playing greedy's move ([`super::kids_end`]); the ranking
//!    of step 2 (or 3) stands when that solve goes over its limits or the time.
//!
//! `go depth 0` plays the move of the most points now. A node limit that ends the listing of the
//! moves ends the search with the best of those listed by their points now. Nodes are the moves
//! listed plus, for every roll answered by the model, the empty cells it looks at (the model's
//! work grows with them), and in step 4 the moves it lists for every roll.
//!
//! Why a search of its own: the kids' game is a race of a few points, decided by what each move
//! leaves to the opponent, and every roll's best reply can be had from the reply model without
//! listing moves, so the whole next turn is valued exactly for many more moves than the general
//! search reaches in the same time. The default ranks by the chance to win rather than the
//! margin, since a game is won by a point as well as by ten; step 3 is not the default, since the
//! second turn did not play better. Steps 1 and 2 do a fixed amount of work, largest early in the
//! game; step 4 solves at most [`super::kids_end::MOST_STATES`] positions, each board's moves
//! listed once for all its margins. What each step is worth in matches: tools/STRENGTH.md.

use std::collections::HashMap;

use crate::rules::{Move, Placement, Position, Rules};

use super::budget::Budget;
use super::eval::{equities, final_margin, margin};
use super::kids_end::Endgame;
use super::kids_reply::{rolls as all_rolls, Replies};
use super::scan::{for_each_scored, gain_of, Choices, Stop, MOVE_CAP};
use super::{Info, SearchResult};

/// The most moves step 2 values exactly.
const EXACT_MOST: usize = 300;
/// The fewest moves step 2 values exactly, whatever the budget.
const EXACT_LEAST: usize = 8;
/// How many of the best of step 2 step 3 values over two turns at most.
const TWO_TURN_MOST: usize = 24;
/// The fewest candidates step 3 must value for its ranking to stand.
const TWO_TURN_LEAST: usize = 2;

/// A legal move and what the steps found of it.
#[derive(Clone, Debug)]
struct Candidate {
    placements: Vec<Placement>,
    /// The points it scores now.
    gain: f64,
    /// The expected margin it makes: the points now less the opponent's expected reply (step 1
    /// roughly, step 2 exactly), then over two turns (step 3).
    margin: f64,
    /// What ranks it within its step: its margin, or in step 2 its chance to win ([`win_value`]).
    value: f64,
    /// The deepest step that valued it (1, 2 or 3).
    step: u8,
}

impl Candidate {
    fn key(&self) -> (u8, f64) {
        (self.step, self.value)
    }
}

fn rank(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    let (ka, kb) = (a.key(), b.key());
    ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
}

/// Whether this search plays the position: the two-player kids' game scored in points.
pub(crate) fn applies(pos: &Position) -> bool {
    super::kids_reply::applies(pos.rules()) && pos.rules().players == 2
}

/// The opponent's expected best reply on a board, and the nodes that cost; a clairvoyant search
/// knows the `roll` and takes the best reply to it alone.
fn expected_reply(
    pos: &Position,
    board: &crate::rules::Board,
    roll: Option<&[u8]>,
    budget: &Budget<'_>,
) -> f64 {
    let replies = Replies::new(pos.rules(), board);
    budget.spend(reply_cost(&replies, roll));
    match roll {
        Some(&[a, b]) => f64::from(replies.best_points(a, b)),
        _ => replies.expected_best(pos.rules()),
    }
}

/// The nodes the model's replies on a board cost: its empty cells, for the one known `roll` or
/// for each of the 21 rolls.
fn reply_cost(replies: &Replies, roll: Option<&[u8]>) -> u64 {
    let rolls = if roll.is_some() { 1 } else { 21 };
    rolls * replies.empty_cells() as u64
}

/// Searches the kids' position for the player to move (`depth` as in the module's docs). `None`
/// when there is no move.
///
/// `rolls`, for a clairvoyant search ([`super::Foresight`]), are the rolls to come after the root,
/// the opponent's first: each expectation over the 21 rolls is then the one true roll.
pub(crate) fn search(
    pos: &Position,
    depth: u32,
    rolls: Option<&[Vec<u8>]>,
    only: Option<&[Move]>,
    multipv: usize,
    budget: &Budget<'_>,
    on_info: &mut dyn FnMut(&Info),
) -> Option<SearchResult> {
    let rules = pos.rules();
    let me = rules.sheet_of_seat(pos.to_move());
    let sheet = &pos.sheets()[me];
    let choices = only.map_or(Choices::All, Choices::Only);
    let mut cands: Vec<Candidate> = Vec::new();
    let scanned = for_each_scored(
        pos,
        choices,
        Stop::Answer(budget.stop_flag()),
        budget.scan_cap(MOVE_CAP),
        &mut |_, placements, score| {
            let gain = gain_of(rules, sheet, score, placements) as f64;
            cands.push(Candidate {
                placements: placements.to_vec(),
                gain,
                margin: gain,
                value: gain,
                step: 1,
            });
        },
    );
    budget.spend(scanned);
    if cands.is_empty() {
        return None;
    }
    let now = margin(&equities(pos), me);
    let lone = cands.len() == 1 && only.is_none();
    // A node limit that ended the scan of the moves ends the search: the best of those scanned
    // by their points now.
    if !lone && depth >= 1 && !budget.exhausted() {
        let rolls = rolls.unwrap_or(&[]);
        rough_step(pos, &mut cands, rolls, budget);
        exact_step(pos, &mut cands, rolls, budget);
        report(&cands, now, multipv, 1, budget, on_info);
        if depth >= 2 {
            two_turn_step(pos, &mut cands, rolls, budget);
            report(&cands, now, multipv, 2, budget, on_info);
        }
        if rolls.is_empty() && end_step(pos, &mut cands, budget) {
            report(&cands, now, multipv, depth.max(1), budget, on_info);
        }
    } else {
        cands.sort_by(|a, b| rank(b, a));
        report(&cands, now, multipv, 0, budget, on_info);
    }
    let best = &cands[0];
    Some(SearchResult {
        best: Move::new(best.placements.clone()),
        score: now + best.margin,
        nodes: budget.nodes(),
    })
}

/// Step 1: every move valued by its points now less the opponent's expected reply, the reply's
/// change per placement worked out alone and added up. Leaves the moves ranked.
fn rough_step(pos: &Position, cands: &mut [Candidate], rolls: &[Vec<u8>], budget: &Budget<'_>) {
    let mut board = pos.board().clone();
    let roll = rolls.first().map(Vec::as_slice);
    let base = expected_reply(pos, &board, roll, budget);
    let mut change: HashMap<Placement, f64> = HashMap::new();
    for cand in cands.iter_mut() {
        let mut reply = base;
        for &p in &cand.placements {
            reply += *change.entry(p).or_insert_with(|| {
                // Out of time, the placements not yet worked out count as changing nothing.
                if budget.exhausted() {
                    return 0.0;
                }
                board.place(p.cell, p.value);
                let after = expected_reply(pos, &board, roll, budget);
                board.remove(p.cell);
                after - base
            });
        }
        cand.margin = cand.gain - reply;
        cand.value = cand.margin;
    }
    cands.sort_by(|a, b| rank(b, a));
}

/// Step 2: the moves in step 1's order, valued exactly while the budget lasts (the first
/// [`EXACT_LEAST`] always). Leaves the moves ranked.
fn exact_step(pos: &Position, cands: &mut [Candidate], rolls: &[Vec<u8>], budget: &Budget<'_>) {
    let mut board = pos.board().clone();
    let roll = rolls.first().map(Vec::as_slice);
    let lead = final_margin(pos, pos.rules().sheet_of_seat(pos.to_move()));
    for (n, cand) in cands.iter_mut().enumerate() {
        if n >= EXACT_MOST || (n >= EXACT_LEAST && budget.exhausted()) {
            break;
        }
        for p in &cand.placements {
            board.place(p.cell, p.value);
        }
        let replies = Replies::new(pos.rules(), &board);
        let (margin, value) = exact_value(pos.rules(), &replies, cand.gain, lead, roll);
        budget.spend(reply_cost(&replies, roll));
        (cand.margin, cand.value, cand.step) = (margin, value, 2);
        for p in cand.placements.iter().rev() {
            board.remove(p.cell);
        }
    }
    cands.sort_by(|a, b| rank(b, a));
}

/// The margin's spread over the rest of the game with `writable` cells still taking a value: its
/// standard deviation in the kids' search's games against `greedy` was about 3 points with one
/// such cell, 6.5 with 8, 8.4 with 27, 11.7 with 64 and 13.9 with 100 (measured when the step was
/// built: docs/archive/strength-history.md, "Kids: playing to win").
fn rest_spread(writable: usize) -> f64 {
    3.0 * (writable as f64).cbrt()
}

/// The chance to win with a lead of `lead` points and the rest of the game's margin spread by
/// `spread` (a logistic curve close to the normal one); a draw counts half.
fn win_chance(lead: f64, spread: f64) -> f64 {
    if spread <= 0.0 {
        return if lead > 0.0 {
            1.0
        } else if lead < 0.0 {
            0.0
        } else {
            0.5
        };
    }
    1.0 / (1.0 + (-1.702 * lead / spread).exp())
}

/// What a margin point is worth in step 2's value beside the chance to win: enough to rank moves
/// the chance cannot tell apart (a game long won or lost), too little to matter otherwise.
pub(crate) const MARGIN_WEIGHT: f64 = 1e-3;

/// Step 2's margin and value of a move that scores `gain` and leaves the board of `replies`, with
/// `lead` points before it: the margin is the gain less the opponent's expected best reply; the
/// value the expected chance to win after that reply ([`win_chance`], the rest of the game spread
/// by the cells still open), plus [`MARGIN_WEIGHT`] times the margin. A known `roll` is the
/// opponent's only one.
fn exact_value(rules: &Rules, replies: &Replies, gain: f64, lead: f64, roll: Option<&[u8]>) -> (f64, f64) {
    // The reply fills up to two cells of those still open.
    let spread = rest_spread(replies.writable().saturating_sub(2));
    let mut margin = gain;
    let mut chance = 0.0;
    let mut add = |a: u8, b: u8, p: f64| {
        let reply = f64::from(replies.best_points(a, b));
        margin -= p * reply;
        chance += p * win_chance(lead + gain - reply, spread);
    };
    match roll {
        Some(&[a, b]) => add(a, b, 1.0),
        _ => all_rolls(rules).for_each(|(a, b, p)| add(a, b, p)),
    }
    (margin, chance + MARGIN_WEIGHT * margin)
}

/// Step 3: the best of step 2 over two turns, each whole or not at all, while the budget lasts;
/// they are ranked by it when at least [`TWO_TURN_LEAST`] got there.
fn two_turn_step(pos: &Position, cands: &mut [Candidate], rolls: &[Vec<u8>], budget: &Budget<'_>) {
    let most = cands.iter().take_while(|c| c.step == 2).count().min(TWO_TURN_MOST);
    let mut values = Vec::with_capacity(most);
    for cand in &cands[..most] {
        let Some(v) = two_turns(pos, cand, rolls, budget) else { break };
        values.push(v);
    }
    if values.len() >= TWO_TURN_LEAST.min(most) {
        for (cand, v) in cands.iter_mut().zip(values) {
            (cand.margin, cand.value) = (v, v);
            cand.step = 3;
        }
        cands.sort_by(|a, b| rank(b, a));
    }
}

/// One candidate over two turns: its points, less for every roll of the opponent their best
/// move's points, plus one's own expected best reply after it. `None` when the budget ran out.
fn two_turns(pos: &Position, cand: &Candidate, rolls: &[Vec<u8>], budget: &Budget<'_>) -> Option<f64> {
    let rules = pos.rules();
    let mut after = pos.clone();
    after.play_unchecked(&cand.placements);
    if after.is_over() {
        return Some(cand.gain);
    }
    let replies = Replies::new(rules, after.board());
    let mut board = after.board().clone();
    let draws: Vec<(Vec<u8>, f64)> = match rolls.first() {
        Some(roll) => vec![(roll.clone(), 1.0)],
        None => after.possible_draws().into_iter().map(|(t, p)| (t.values().collect(), p)).collect(),
    };
    let mine_roll = rolls.get(1).map(Vec::as_slice);
    let mut expected = 0.0;
    for (values, p) in draws {
        if budget.exhausted() {
            return None;
        }
        let reply = replies.best_move(values[0], values[1]);
        budget.spend(replies.empty_cells() as u64);
        for q in &reply.placements {
            board.place(q.cell, q.value);
        }
        let mine = expected_reply(pos, &board, mine_roll, budget);
        for q in reply.placements.iter().rev() {
            board.remove(q.cell);
        }
        expected += p * (f64::from(reply.points) - mine);
    }
    Some(cand.gain - expected)
}

/// Step 4: near the end of the game, every move valued by its chance to win over every roll to
/// the end ([`super::kids_end`]), when that fits the limits (and the `rounds` option does not end
/// the game). Leaves the moves ranked and says whether it did.
fn end_step(pos: &Position, cands: &mut [Candidate], budget: &Budget<'_>) -> bool {
    let rules = pos.rules();
    if rules.rounds > 0 {
        return false;
    }
    let Some(mut end) = Endgame::new(rules, pos.board(), budget) else { return false };
    let lead = final_margin(pos, rules.sheet_of_seat(pos.to_move())) as i32;
    let mut values = Vec::with_capacity(cands.len());
    for cand in cands.iter() {
        let Some(v) = end.value_of(&cand.placements, lead) else { return false };
        values.push(v);
    }
    for (cand, v) in cands.iter_mut().zip(values) {
        (cand.value, cand.step) = (v, 4);
    }
    cands.sort_by(|a, b| rank(b, a));
    true
}

/// Reports the best `multipv` candidates, best first; a candidate's score is the margin now plus
/// its value.
fn report(
    cands: &[Candidate],
    now: f64,
    multipv: usize,
    depth: u32,
    budget: &Budget<'_>,
    on_info: &mut dyn FnMut(&Info),
) {
    let best: Vec<(Move, f64)> =
        cands.iter().take(multipv).map(|c| (Move::new(c.placements.clone()), now + c.margin)).collect();
    super::report_moves(depth, budget.elapsed(), budget.nodes(), &best, on_info);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::kids_reply::{open_cells, random_positions};
    use crate::search::{greedy_choice, Limits, UNLIMITED};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::sync::atomic::AtomicBool;

    /// The points of the greedy move through the move generator for each of the next player's
    /// rolls, with its probability (none once the game is over): the slow, exact replies the
    /// fast model stands for.
    fn slow_replies(pos: &Position) -> Vec<(f64, f64)> {
        if pos.is_over() {
            return Vec::new();
        }
        pos.possible_draws()
            .into_iter()
            .map(|(drawn, p)| {
                let mut next = pos.clone();
                next.draw(&drawn.values().collect::<Vec<_>>()).unwrap();
                let mv = greedy_choice(&next).unwrap();
                (p, f64::from(next.score_move(&mv).unwrap().points(next.rules())))
            })
            .collect()
    }

    /// The points of the greedy reply expected over the next player's rolls (0 once the game is
    /// over).
    fn slow_expected_reply(pos: &Position) -> f64 {
        slow_replies(pos).iter().map(|(p, points)| p * points).sum()
    }

    /// The candidates of a position with a roll drawn, as the search lists them.
    fn candidates(pos: &Position) -> Vec<Candidate> {
        let sheet = &pos.sheets()[pos.rules().sheet_of_seat(pos.to_move())];
        let mut cands = Vec::new();
        for_each_scored(
            pos,
            Choices::All,
            Stop::Answer(&AtomicBool::new(false)),
            MOVE_CAP,
            &mut |_, pl, score| {
                let gain = gain_of(pos.rules(), sheet, score, pl) as f64;
                cands.push(Candidate { placements: pl.to_vec(), gain, margin: gain, value: gain, step: 1 });
            },
        );
        cands
    }

    /// Step 2's margin of a move is its points less the expected points of the opponent's greedy
    /// move, each roll's move found by the move generator; its value is the expected chance to win
    /// after that move, with the rest of the game spread by the cells still open, plus the margin
    /// weighed a little; a larger lead makes every move worth more.
    #[test]
    fn the_exact_step_is_the_chance_to_win_after_the_greedy_reply() {
        let stop = AtomicBool::new(false);
        let budget = Budget::new(&UNLIMITED, None, &stop);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut checked = 0;
        for mut pos in random_positions(12, 31) {
            pos.draw_random(&mut rng).unwrap();
            let lead = final_margin(&pos, pos.rules().sheet_of_seat(pos.to_move()));
            let mut cands = candidates(&pos);
            cands.truncate(EXACT_LEAST);
            exact_step(&pos, &mut cands, &[], &budget);
            for cand in &cands {
                let mut after = pos.clone();
                after.play(&Move::new(cand.placements.clone())).unwrap();
                let replies = slow_replies(&after);
                let margin = cand.gain - slow_expected_reply(&after);
                let spread =
                    if after.is_over() { 0.0 } else { rest_spread(open_cells(&after).saturating_sub(2)) };
                let chance = |lead: f64| -> f64 {
                    if replies.is_empty() {
                        return win_chance(lead + cand.gain, spread);
                    }
                    replies.iter().map(|(p, reply)| p * win_chance(lead + cand.gain - reply, spread)).sum()
                };
                let value = chance(lead) + MARGIN_WEIGHT * margin;
                for (got, expected) in [(cand.margin, margin), (cand.value, value)] {
                    assert!((got - expected).abs() < 1e-9, "{got} != {expected} in {}", pos.to_line());
                }
                checked += 1;
            }
        }
        assert!(checked >= 50, "{checked}");
    }

    /// The chance to win grows with the lead, is even at none, and the spread of the rest of the
    /// game grows with the cells still open.
    #[test]
    fn the_chance_to_win_grows_with_the_lead() {
        assert_eq!(win_chance(0.0, 5.0), 0.5);
        assert_eq!((win_chance(1.0, 0.0), win_chance(0.0, 0.0), win_chance(-1.0, 0.0)), (1.0, 0.5, 0.0));
        assert!(win_chance(-3.0, 5.0) < win_chance(-1.0, 5.0) && win_chance(1.0, 5.0) < win_chance(3.0, 5.0));
        assert!((win_chance(3.0, 5.0) + win_chance(-3.0, 5.0) - 1.0).abs() < 1e-12);
        assert!(win_chance(3.0, 2.0) > win_chance(3.0, 10.0));
        assert!(
            rest_spread(0) == 0.0 && rest_spread(1) < rest_spread(8) && rest_spread(8) < rest_spread(100)
        );
    }

    /// Clairvoyant (the rolls known), step 2's value of a move is its points less the points of
    /// the opponent's greedy move for the one roll to come, found by the move generator; without
    /// the rolls it is the expectation over all of them, which differs.
    #[test]
    fn a_known_roll_replaces_the_expectation_over_the_rolls() {
        let stop = AtomicBool::new(false);
        let budget = Budget::new(&UNLIMITED, None, &stop);
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let (mut checked, mut differed) = (0, 0);
        for mut pos in random_positions(8, 34) {
            pos.draw_random(&mut rng).unwrap();
            for roll in [[5u8, 5], [0, 3]] {
                let mut cands = candidates(&pos);
                cands.truncate(EXACT_LEAST.min(20));
                let mut expected_cands = cands.clone();
                exact_step(&pos, &mut cands, &[roll.to_vec()], &budget);
                exact_step(&pos, &mut expected_cands, &[], &budget);
                for cand in &cands {
                    let mut after = pos.clone();
                    after.play(&Move::new(cand.placements.clone())).unwrap();
                    let reply = if after.is_over() {
                        0
                    } else {
                        after.draw(&roll).unwrap();
                        after.score_move(&greedy_choice(&after).unwrap()).unwrap().points(after.rules())
                    };
                    let known = cand.gain - f64::from(reply);
                    assert!(
                        (cand.margin - known).abs() < 1e-9,
                        "{} != {known} in {}",
                        cand.margin,
                        pos.to_line()
                    );
                    let twin = expected_cands.iter().find(|c| c.placements == cand.placements).unwrap();
                    differed += usize::from((twin.margin - known).abs() > 1e-9);
                    checked += 1;
                }
            }
        }
        assert!(checked >= 50 && differed > 0, "{checked} {differed}");
    }

    /// Step 3's value of a move: its points, less for every roll of the opponent the points of the
    /// model's best move (what greedy's move scores, through the move generator), plus one's own
    /// expected greedy reply after it.
    #[test]
    fn the_two_turn_step_is_the_points_less_the_reply_plus_ones_own_next_turn() {
        let stop = AtomicBool::new(false);
        let budget = Budget::new(&UNLIMITED, None, &stop);
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let late = random_positions(60, 32).into_iter().filter(|p| p.board().count() >= 60).take(3);
        let mut checked = 0;
        for mut pos in late {
            pos.draw_random(&mut rng).unwrap();
            for cand in candidates(&pos).iter().take(2) {
                let mut after = pos.clone();
                after.play(&Move::new(cand.placements.clone())).unwrap();
                let mut expected = cand.gain;
                if !after.is_over() {
                    let replies = Replies::new(after.rules(), after.board());
                    for (drawn, p) in after.possible_draws() {
                        let values: Vec<u8> = drawn.values().collect();
                        let mut next = after.clone();
                        next.draw(&values).unwrap();
                        let greedy =
                            next.score_move(&greedy_choice(&next).unwrap()).unwrap().points(next.rules());
                        let reply = replies.best_move(values[0], values[1]);
                        assert_eq!(reply.points, greedy);
                        let mv = if reply.placements.is_empty() {
                            Move::pass()
                        } else {
                            Move::new(reply.placements)
                        };
                        next.play(&mv).unwrap();
                        expected -= p * (f64::from(greedy) - slow_expected_reply(&next));
                    }
                }
                let got = two_turns(&pos, cand, &[], &budget).unwrap();
                assert!((got - expected).abs() < 1e-9, "{got} != {expected} in {}", pos.to_line());
                checked += 1;
            }
        }
        assert!(checked >= 4, "{checked}");
    }

    /// The search answers a legal move of the position, at every stage of the game, and under a
    /// time limit too.
    #[test]
    fn the_search_answers_a_legal_move() {
        let stop = AtomicBool::new(false);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for mut pos in random_positions(6, 33) {
            pos.draw_random(&mut rng).unwrap();
            assert!(applies(&pos));
            for limits in [
                Limits { movetime: Some(std::time::Duration::from_millis(30)), ..Limits::default() },
                UNLIMITED.clone(),
            ] {
                let budget = Budget::new(&limits, limits.movetime, &stop);
                let found = search(&pos, 2, None, None, 1, &budget, &mut |_| {}).unwrap();
                pos.check(&found.best).unwrap_or_else(|e| panic!("{}: {e} in {}", found.best, pos.to_line()));
            }
        }
    }
}
