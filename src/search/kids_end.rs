//! The end of the two-player kids' game, solved exactly: once only a few empty cells still take a
//! value, every move of the root is valued by the chance to win over every roll to the end of the
//! game, the opponent playing as `greedy` plays (the most points, then the fewest points left open
//! to the next player; of moves equal on both, the first of this module's order, which may differ
//! from the move generator's) and oneself the best move for each roll.
//!
//! A cell that takes no value now never will (runs only grow), so the game's end is decided on
//! the cells that still take one: at most [`MOST_CELLS`] of them. A position of the solved game is
//! what those cells hold, the margin so far and who is to move; a roll that fits nowhere passes,
//! so both players' values of one board and margin depend on each other and are solved together.
//! The value of a finished game is 1 for a win, ½ for a draw, 0 for a loss, plus
//! [`super::kids::MARGIN_WEIGHT`] times the final margin (to tell moves apart once the game is
//! decided). At most [`MOST_STATES`] positions are solved; beyond that (or out of time) the
//! search keeps the values of its step 2.

use std::collections::HashMap;
use std::rc::Rc;

use crate::rules::{Board, Cell, MoveScore, Placement, Rules};

use super::budget::Budget;
use super::kids::MARGIN_WEIGHT;
use super::kids_reply::{rolls, takes, writable_cells};
use super::open_points::open_points;

/// The most empty cells still taking a value for the end to be solved.
pub(crate) const MOST_CELLS: usize = 10;
/// The most positions (board, margin) solved for the moves of one root.
pub(crate) const MOST_STATES: usize = 15_000;

/// The value of a finished game with this margin for oneself.
fn outcome(margin: i32) -> f64 {
    let won = match margin.cmp(&0) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    };
    won + MARGIN_WEIGHT * f64::from(margin)
}

/// A move of the solved game with its points.
struct Scored {
    placements: [Placement; 2],
    len: usize,
    points: i32,
}

/// One roll's legal moves on one board: the roll's chance, the moves, and greedy's among them.
struct RollMoves {
    p: f64,
    moves: Vec<Scored>,
    greedy: usize,
}

/// The solver of one root position's end.
pub(crate) struct Endgame<'a, 'b> {
    rules: &'a Rules,
    board: Board,
    /// The cells that still take a value at the root.
    cells: Vec<Cell>,
    /// What each cell holds now: 0 empty, else its value plus one (3 bits a cell).
    code: u32,
    /// The solved positions: (code, margin) to the values with oneself to move and with the
    /// opponent to move.
    memo: HashMap<(u32, i32), (f64, f64)>,
    /// Every roll's moves per board (code): a board comes with several margins.
    boards: HashMap<u32, Rc<[RollMoves]>>,
    budget: &'a Budget<'b>,
}

impl<'a, 'b> Endgame<'a, 'b> {
    /// The solver of a board's end, `None` when more than [`MOST_CELLS`] cells take a value.
    pub(crate) fn new(rules: &'a Rules, board: &Board, budget: &'a Budget<'b>) -> Option<Endgame<'a, 'b>> {
        let cells: Vec<Cell> = writable_cells(rules, board).collect();
        (cells.len() <= MOST_CELLS).then(|| Endgame {
            rules,
            board: board.clone(),
            cells,
            code: 0,
            memo: HashMap::new(),
            boards: HashMap::new(),
            budget,
        })
    }

    /// The value of a root move of these `placements` (its points worked out here), with `margin`
    /// points of lead before it, the opponent to move after it. `None` when the solve went over
    /// its limits.
    pub(crate) fn value_of(&mut self, placements: &[Placement], margin: i32) -> Option<f64> {
        let saved = self.code;
        for p in placements {
            self.place(*p);
        }
        let points = self.points(placements);
        let value = self.solve(margin + points).map(|(_, theirs)| theirs);
        for p in placements.iter().rev() {
            self.remove(*p);
        }
        self.code = saved;
        value
    }

    fn slot(&self, cell: Cell) -> Option<usize> {
        self.cells.iter().position(|&c| c == cell)
    }

    fn place(&mut self, p: Placement) {
        self.board.place(p.cell, p.value);
        if let Some(i) = self.slot(p.cell) {
            self.code |= (u32::from(p.value) + 1) << (3 * i);
        }
    }

    fn remove(&mut self, p: Placement) {
        self.board.remove(p.cell);
        if let Some(i) = self.slot(p.cell) {
            self.code &= !(7 << (3 * i));
        }
    }

    /// The points of placements just placed.
    fn points(&self, placements: &[Placement]) -> i32 {
        MoveScore::of(self.rules, &self.board, placements, false).points(self.rules) as i32
    }

    fn fits(&self, cell: Cell, value: u8) -> bool {
        takes(self.rules, &self.board, cell, value)
    }

    /// The legal moves of a roll of `a` and `b`: both values on two cells whenever some two fit,
    /// else one of them wherever it fits; none (a pass) when neither fits anywhere.
    fn moves(&mut self, a: u8, b: u8) -> Vec<Scored> {
        let mut out = Vec::new();
        let n = self.cells.len();
        for i in 0..n {
            let ci = self.cells[i];
            if !self.fits(ci, a) {
                continue;
            }
            let first = Placement { cell: ci, value: a };
            self.board.place(ci, a);
            for j in 0..n {
                let cj = self.cells[j];
                // Equal values: each pair of cells once.
                if j == i || (a == b && j < i) || !self.fits(cj, b) {
                    continue;
                }
                let second = Placement { cell: cj, value: b };
                self.board.place(cj, b);
                let points = self.points(&[first, second]);
                self.board.remove(cj);
                out.push(Scored { placements: [first, second], len: 2, points });
            }
            self.board.remove(ci);
        }
        if out.is_empty() {
            for v in if a == b { vec![a] } else { vec![a, b] } {
                for i in 0..n {
                    let c = self.cells[i];
                    if self.fits(c, v) {
                        let p = Placement { cell: c, value: v };
                        self.board.place(c, v);
                        let points = self.points(&[p]);
                        self.board.remove(c);
                        out.push(Scored { placements: [p, p], len: 1, points });
                    }
                }
            }
        }
        out
    }

    /// Greedy's move among `moves` (not empty): the most points, then the fewest points left
    /// open, then the first.
    fn greedy_pick(&mut self, moves: &[Scored]) -> usize {
        let most = moves.iter().map(|m| m.points).max().unwrap_or(0);
        let mut best: Option<(u32, usize)> = None;
        for (k, m) in moves.iter().enumerate().filter(|(_, m)| m.points == most) {
            let placements = &m.placements[..m.len];
            for p in placements {
                self.board.place(p.cell, p.value);
            }
            let open = open_points(self.rules, &self.board, placements);
            for p in placements.iter().rev() {
                self.board.remove(p.cell);
            }
            if best.is_none_or(|(o, _)| open < o) {
                best = Some((open, k));
            }
        }
        best.map_or(0, |(_, k)| k)
    }

    /// Every roll's legal moves on the current board, and greedy's among them, worked out once a
    /// board.
    fn board_moves(&mut self) -> Rc<[RollMoves]> {
        if let Some(table) = self.boards.get(&self.code) {
            return Rc::clone(table);
        }
        let mut table = Vec::with_capacity(21);
        for (a, b, p) in rolls(self.rules) {
            let moves = self.moves(a, b);
            let greedy = if moves.is_empty() { 0 } else { self.greedy_pick(&moves) };
            table.push(RollMoves { p, moves, greedy });
        }
        let table: Rc<[RollMoves]> = table.into();
        self.boards.insert(self.code, Rc::clone(&table));
        table
    }

    /// The values of the current board with `margin` points of lead for oneself: (oneself to
    /// move, the opponent to move). `None` when over the limits.
    fn solve(&mut self, margin: i32) -> Option<(f64, f64)> {
        if let Some(&v) = self.memo.get(&(self.code, margin)) {
            return Some(v);
        }
        if self.memo.len() >= MOST_STATES || self.budget.exhausted() {
            return None;
        }
        let table = self.board_moves();
        // A value fits somewhere exactly when some roll fits somewhere.
        if table.iter().all(|r| r.moves.is_empty()) {
            let v = outcome(margin);
            self.memo.insert((self.code, margin), (v, v));
            return Some((v, v));
        }
        // Per roll that fits somewhere: one's best move, and the opponent's greedy move.
        let (mut mine, mut theirs, mut pass) = (0.0, 0.0, 0.0);
        let saved = self.code;
        for roll in table.iter() {
            let (moves, p) = (&roll.moves, roll.p);
            self.budget.spend(moves.len() as u64);
            if moves.is_empty() {
                pass += p;
                continue;
            }
            let mut best = f64::NEG_INFINITY;
            for m in moves {
                let placements = &m.placements[..m.len];
                for q in placements {
                    self.place(*q);
                }
                let child = self.solve(margin + m.points);
                for q in placements.iter().rev() {
                    self.remove(*q);
                }
                self.code = saved;
                best = best.max(child?.1);
            }
            mine += p * best;
            let g = &moves[roll.greedy];
            let placements = &g.placements[..g.len];
            for q in placements {
                self.place(*q);
            }
            let child = self.solve(margin - g.points);
            for q in placements.iter().rev() {
                self.remove(*q);
            }
            self.code = saved;
            theirs += p * child?.0;
        }
        // mine' = mine + pass * theirs', theirs' = theirs + pass * mine': a pass hands the same
        // board on. Some roll fits (a value fits, so the lowest does), so pass < 1.
        let me_first = (mine + pass * theirs) / (1.0 - pass * pass);
        let them_first = theirs + pass * me_first;
        self.memo.insert((self.code, margin), (me_first, them_first));
        Some((me_first, them_first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Move, Position, Variant};
    use crate::search::eval::final_margin;
    use crate::search::kids_reply::open_cells;
    use crate::search::{greedy_choice, Limits};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::sync::atomic::AtomicBool;

    /// Random two-player kids' positions with a roll drawn and at most `cells` empty cells that
    /// still take a value (and more than one legal move).
    fn late_positions(count: usize, cells: usize, seed: u64) -> Vec<Position> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::new(Rules::new(Variant::Kids, 2).unwrap());
            while !pos.is_over() {
                pos.draw_random(&mut rng).unwrap();
                let moves = pos.movegen().legal_moves();
                if open_cells(&pos) <= cells && moves.len() > 1 {
                    out.push(pos);
                    break;
                }
                pos.play(&moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
        out
    }

    /// One side of the slow solve of a position with a roll due, through the move generator and
    /// greedy's own choice: the value for sheet `me` over the rolls that fit, the chance of a
    /// roll that fits nowhere, and the position after such a pass. `None` when greedy's choice
    /// among moves equal in points and points left open decides the value (the solver takes the
    /// first of its own order, which may not be the generator's).
    fn slow_side(pos: &Position, me: usize) -> Option<(f64, f64, Option<Position>)> {
        let (mut value, mut pass, mut passed) = (0.0, 0.0, None);
        for (drawn, p) in pos.possible_draws() {
            let mut next = pos.clone();
            next.draw(&drawn.values().collect::<Vec<_>>()).unwrap();
            let moves = next.movegen().legal_moves();
            if moves.iter().all(|m| m.placements().is_empty()) {
                pass += p;
                next.play(&Move::pass()).unwrap();
                passed = Some(next);
                continue;
            }
            let after = |m: &Move| {
                let mut after = next.clone();
                after.play(m).unwrap();
                slow(&after, me)
            };
            value += p * if next.rules().sheet_of_seat(next.to_move()) == me {
                let mut best = f64::NEG_INFINITY;
                for m in &moves {
                    best = best.max(after(m)?);
                }
                best
            } else {
                let key = |m: &Move| {
                    let mut board = next.board().clone();
                    for q in m.placements() {
                        board.place(q.cell, q.value);
                    }
                    let points = next.score_move(m).unwrap().points(next.rules());
                    (points, std::cmp::Reverse(open_points(next.rules(), &board, m.placements())))
                };
                let greedy = key(&greedy_choice(&next).unwrap());
                let mut tied = Vec::new();
                for m in moves.iter().filter(|m| key(m) == greedy) {
                    tied.push(after(m)?);
                }
                if tied.iter().any(|v| (v - tied[0]).abs() > 1e-12) {
                    return None;
                }
                tied[0]
            };
        }
        Some((value, pass, passed))
    }

    /// The value for sheet `me` of a position with a roll due (or over), solved slowly; `None`
    /// as for [`slow_side`].
    fn slow(pos: &Position, me: usize) -> Option<f64> {
        if pos.is_over() {
            return Some(outcome(final_margin(pos, me) as i32));
        }
        let (mine, pass, passed) = slow_side(pos, me)?;
        Some(match passed {
            None => mine,
            Some(other) => {
                let (theirs, _, _) = slow_side(&other, me)?;
                (mine + pass * theirs) / (1.0 - pass * pass)
            }
        })
    }

    /// The solver's value of every move of small ends agrees with a slow solve through the move
    /// generator and greedy's own choice.
    #[test]
    fn the_end_solved_agrees_with_the_move_generator() {
        let limits = Limits { infinite: true, ..Limits::default() };
        let stop = AtomicBool::new(false);
        let budget = Budget::new(&limits, None, &stop);
        let mut checked = 0;
        let (mut decided, mut ambiguous) = (0, 0);
        for pos in late_positions(45, 4, 41) {
            let me = pos.rules().sheet_of_seat(pos.to_move());
            let lead = final_margin(&pos, me) as i32;
            let mut end = Endgame::new(pos.rules(), pos.board(), &budget).unwrap();
            let mut values = Vec::new();
            for mv in pos.movegen().legal_moves() {
                let mut after = pos.clone();
                after.play(&mv).unwrap();
                let Some(expected) = slow(&after, me) else {
                    ambiguous += 1;
                    continue;
                };
                let got = end.value_of(mv.placements(), lead).unwrap();
                assert!((got - expected).abs() < 1e-9, "{mv}: {got} != {expected} in {}", pos.to_line());
                values.push(got);
                checked += 1;
            }
            decided += usize::from(values.iter().any(|v| (v - values[0]).abs() > 1e-6));
        }
        assert!(
            checked >= 100 && decided >= 10 && ambiguous <= checked / 4,
            "{checked} {decided} {ambiguous}"
        );
    }
}
