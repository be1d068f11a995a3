//! The kids' game's fast reply model: the most points any roll can make on a board, without
//! listing the moves. In the kids' game (docs/rules.md 4.2) a value goes on any empty cell, so
//! what a value scores on a cell depends only on the runs through that cell; two values of one move
//! meet only when their cells are partners ([`Board::partners`]: one run joins them). The best
//! move of a roll is then the best pair of cells from per-cell points (the few best cells of each
//! kind suffice, since a cell has at most four partners), or a pair of partners worked out whole
//! (of pairs alike in their runs' sums and doubling, the first stands for all: on a board still
//! mostly empty most pairs are alike). Tested against the move generator on many random boards
//! (below).

use crate::rules::{run_points, Axis, Board, Cell, KidsScoring, Placement, Rules, Variant};

/// How many of the best cells of each kind (extra or not) a roll keeps per value: a cell excludes
/// itself and its (at most four) partners, so the first of six that is neither is the best.
const KEEP: usize = 6;

/// Whether the fast model applies: the kids' game scored in points (dots rank otherwise) with the
/// largest moves a must (both values whenever both fit).
pub(crate) fn applies(rules: &Rules) -> bool {
    rules.variant == Variant::Kids
        && rules.scoring == KidsScoring::Points
        && rules.must_place == crate::rules::MustPlace::Maximum
}

/// An empty cell as the model sees it.
#[derive(Copy, Clone, Debug)]
struct Spot {
    cell: Cell,
    /// The sums of its horizontal and vertical runs with a 0 on it.
    h: u8,
    w: u8,
    extra: bool,
    /// Its partners, as indices into the spots (`NONE` where there is none).
    partners: [u16; 4],
}

const NONE: u16 = u16::MAX;

/// Two partner cells: values on both join one run. What a move on them scores depends only on
/// the sums of its three runs with 0 on both cells and on whether either cell doubles, so of
/// pairs alike in those only the first is kept.
#[derive(Copy, Clone, Debug)]
struct Pair {
    i: u16,
    j: u16,
    /// The sum of the run that joins them.
    joint: u8,
    /// The sums of the runs across it through `i` and through `j`.
    across_i: u8,
    across_j: u8,
    /// 2 when either cell is an extra cell, else 1.
    factor: u32,
}

/// The board's empty cells and partner pairs, ready for the replies of every roll.
pub(crate) struct Replies {
    spots: Vec<Spot>,
    /// Per value, from the lowest: where it fits and what it scores there alone.
    values: Vec<ValueSpots>,
    min: u8,
    pairs: Vec<Pair>,
    low: u8,
    limit: u8,
    points: [u16; 3],
}

/// Where one value fits and what it scores alone (before doubling).
struct ValueSpots {
    /// Per spot: its points, -1 where the value does not fit.
    points: Vec<i8>,
    /// The spots where it fits, most points first.
    order: Vec<u16>,
    /// The best [`KEEP`] spots that are not extra cells, and those that are, most points first:
    /// (points, spot).
    top: [Vec<(u16, u16)>; 2],
}

/// The best move a roll makes: its points and its placements (none: the roll fits nowhere).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reply {
    pub points: u32,
    pub placements: Vec<Placement>,
}

impl Replies {
    /// The model of a board under these rules (the kids' game, [`applies`]).
    pub(crate) fn new(rules: &Rules, board: &Board) -> Replies {
        let geometry = board.geometry();
        let mut index = vec![NONE; geometry.cells().iter().map(|c| c.index()).max().map_or(0, |m| m + 1)];
        let mut spots = Vec::with_capacity(geometry.cells().len());
        for &cell in geometry.cells() {
            if board.is_empty_cell(cell) {
                let (h, w) = board.sums_with(cell, 0);
                index[cell.index()] = spots.len() as u16;
                spots.push(Spot { cell, h, w, extra: geometry.is_extra(cell), partners: [NONE; 4] });
            }
        }
        let limit = rules.limit();
        let min = rules.min_value();
        let mut joins = Vec::new();
        for (i, spot) in spots.iter_mut().enumerate() {
            // At most four partners: one per direction.
            for (k, partner) in board.partners(spot.cell).enumerate() {
                let j = index[partner.cell.index()];
                spot.partners[k] = j;
                if (i as u16) < j {
                    joins.push((i as u16, j, partner.axis, partner.between));
                }
            }
        }
        // Pairs alike (the same runs' sums and doubling) score alike for every roll: the first
        // of each kind stands for all (the first found of equal moves stays the same). A pair
        // whose runs are over the limit with the lowest values takes no move.
        let side = usize::from(limit) + 1;
        let mut seen = vec![false; side * side * side * 2];
        let mut pairs = Vec::new();
        for (i, j, axis, between) in joins {
            let (si, sj) = (&spots[usize::from(i)], &spots[usize::from(j)]);
            let (along_i, across_i, along_j, across_j) = match axis {
                Axis::Horizontal => (si.h, si.w, sj.h, sj.w),
                Axis::Vertical => (si.w, si.h, sj.w, sj.h),
            };
            // Each of the two runs along holds the tiles between the cells.
            let joint = u16::from(along_i) + u16::from(along_j) - u16::from(between);
            if joint + 2 * u16::from(min) > u16::from(limit) || across_i.max(across_j) + min > limit {
                continue;
            }
            let joint = joint as u8;
            let factor = if si.extra || sj.extra { 2 } else { 1 };
            let kind = ((usize::from(joint) * side + usize::from(across_i)) * side + usize::from(across_j))
                * 2
                + (factor as usize - 1);
            if !seen[kind] {
                seen[kind] = true;
                pairs.push(Pair { i, j, joint, across_i, across_j, factor });
            }
        }
        let mut replies = Replies {
            spots,
            pairs,
            values: Vec::new(),
            min,
            low: limit - 2,
            limit,
            points: run_points(rules.variant),
        };
        replies.values = (rules.min_value()..=rules.max_value()).map(|v| replies.value_spots(v)).collect();
        replies
    }

    /// Where a value fits on this board, and what it scores alone there.
    fn value_spots(&self, v: u8) -> ValueSpots {
        let points: Vec<i8> = self.spots.iter().map(|s| self.alone(s, v).map_or(-1, |p| p as i8)).collect();
        let most = points.iter().copied().max().unwrap_or(-1);
        let mut order = Vec::with_capacity(points.len());
        for p in (0..=most).rev() {
            order.extend((0..points.len() as u16).filter(|&i| points[usize::from(i)] == p));
        }
        let mut top: [Vec<(u16, u16)>; 2] = [Vec::with_capacity(KEEP), Vec::with_capacity(KEEP)];
        for &i in &order {
            let list = &mut top[usize::from(self.spots[usize::from(i)].extra)];
            if list.len() < KEEP {
                list.push((points[usize::from(i)] as u16, i));
            }
        }
        ValueSpots { points, order, top }
    }

    /// How many empty cells the model holds.
    pub(crate) fn empty_cells(&self) -> usize {
        self.spots.len()
    }

    /// The points of a run sum.
    #[inline]
    fn run(&self, sum: u8) -> u16 {
        if sum >= self.low && sum <= self.limit {
            self.points[usize::from(sum - self.low)]
        } else {
            0
        }
    }

    /// The points of a value alone on a spot (before any doubling), `None` when it does not fit.
    #[inline]
    fn alone(&self, s: &Spot, v: u8) -> Option<u16> {
        let (h, w) = (s.h + v, s.w + v);
        (h <= self.limit && w <= self.limit).then(|| self.run(h) + self.run(w))
    }

    /// The points of `a` on a pair's spot `i` and `b` on its partner `j` (before doubling),
    /// `None` when the move does not fit.
    #[inline]
    fn joined(&self, pair: &Pair, a: u8, b: u8) -> Option<u16> {
        let joint = pair.joint + a + b;
        let (ci, cj) = (pair.across_i + a, pair.across_j + b);
        (joint <= self.limit && ci <= self.limit && cj <= self.limit)
            .then(|| self.run(joint) + self.run(ci) + self.run(cj))
    }

    /// The most points a roll of `a` and `b` makes on this board, as the rules allow it to be
    /// written (both values whenever both fit).
    pub(crate) fn best_points(&self, a: u8, b: u8) -> u32 {
        self.best(a, b, false).points
    }

    /// The best move of a roll of `a` and `b`: the most points (the first found of equal ones).
    pub(crate) fn best_move(&self, a: u8, b: u8) -> Reply {
        self.best(a, b, true)
    }

    /// The expected points of the next player's best move, over the 21 rolls of two dice.
    pub(crate) fn expected_best(&self, rules: &Rules) -> f64 {
        rolls(rules).map(|(a, b, p)| p * f64::from(self.best_points(a, b))).sum()
    }

    /// How many empty cells still take a value (the lowest fits wherever any does).
    pub(crate) fn writable(&self) -> usize {
        self.spots.iter().filter(|s| self.alone(s, self.min).is_some()).count()
    }

    fn best(&self, a: u8, b: u8, want_move: bool) -> Reply {
        let (va, vb) = (&self.values[usize::from(a - self.min)], &self.values[usize::from(b - self.min)]);
        // (points, spot of a, spot of b)
        let mut best: Option<(u32, u16, u16)> = None;
        let top_b = vb.top.iter().filter_map(|list| list.first()).map(|&(q, _)| q).max();
        if let Some(top_b) = top_b {
            for &i in &va.order {
                let p = va.points[usize::from(i)] as u16;
                // The spots come by their points for `a`, most first: none further can do better.
                if best.is_some_and(|(q, _, _)| q >= 2 * u32::from(p + top_b)) {
                    break;
                }
                let si = &self.spots[usize::from(i)];
                for (extra, list) in vb.top.iter().enumerate() {
                    let free = list.iter().find(|&&(_, j)| j != i && !si.partners.contains(&j));
                    if let Some(&(q, j)) = free {
                        let factor = if si.extra || extra == 1 { 2 } else { 1 };
                        let pts = u32::from(p + q) * factor;
                        if best.is_none_or(|(b, _, _)| pts > b) {
                            best = Some((pts, i, j));
                        }
                    }
                }
            }
        }
        for pair in &self.pairs {
            let factor = pair.factor;
            if let Some(p) = self.joined(pair, a, b) {
                let pts = u32::from(p) * factor;
                if best.is_none_or(|(b, _, _)| pts > b) {
                    best = Some((pts, pair.i, pair.j));
                }
            }
            if a != b {
                if let Some(p) = self.joined(pair, b, a) {
                    let pts = u32::from(p) * factor;
                    if best.is_none_or(|(b, _, _)| pts > b) {
                        best = Some((pts, pair.j, pair.i));
                    }
                }
            }
        }
        if let Some((points, i, j)) = best {
            let placements = if want_move {
                vec![
                    Placement { cell: self.spots[usize::from(i)].cell, value: a },
                    Placement { cell: self.spots[usize::from(j)].cell, value: b },
                ]
            } else {
                Vec::new()
            };
            return Reply { points, placements };
        }
        // No pair fits: one value alone, if any fits.
        let mut single: Option<(u32, Placement)> = None;
        for s in &self.spots {
            for v in [a, b] {
                if let Some(p) = self.alone(s, v) {
                    let pts = u32::from(p) * if s.extra { 2 } else { 1 };
                    if single.as_ref().is_none_or(|(q, _)| pts > *q) {
                        single = Some((pts, Placement { cell: s.cell, value: v }));
                    }
                }
            }
        }
        match single {
            Some((points, p)) => Reply { points, placements: if want_move { vec![p] } else { Vec::new() } },
            None => Reply { points: 0, placements: Vec::new() },
        }
    }
}

/// The 21 distinct rolls of two dice under these rules, each as its two values (the lower first)
/// and its probability.
pub(crate) fn rolls(rules: &Rules) -> impl Iterator<Item = (u8, u8, f64)> {
    let (lo, hi) = (rules.min_value(), rules.max_value());
    let sides = f64::from(hi - lo + 1);
    (lo..=hi)
        .flat_map(move |a| (a..=hi).map(move |b| (a, b, if a == b { 1.0 } else { 2.0 } / (sides * sides))))
}

/// Whether `value` may be written on `cell`: the cell is empty and no run through it goes over the
/// limit.
pub(crate) fn takes(rules: &Rules, board: &Board, cell: Cell, value: u8) -> bool {
    board.is_empty_cell(cell) && board.room(cell, rules.limit()).is_some_and(|r| r >= value)
}

/// The empty cells that still take a value (the lowest fits wherever any does).
pub(crate) fn writable_cells<'a>(rules: &'a Rules, board: &'a Board) -> impl Iterator<Item = Cell> + 'a {
    board.geometry().cells().iter().copied().filter(|&c| takes(rules, board, c, rules.min_value()))
}

/// How many empty cells of a position still take a value.
#[cfg(test)]
pub(crate) fn open_cells(pos: &crate::rules::Position) -> usize {
    writable_cells(pos.rules(), pos.board()).count()
}

/// Random two-player kids' positions with a draw due: games played some random moves into, at
/// every stage of the game.
#[cfg(test)]
pub(crate) fn random_positions(count: usize, seed: u64) -> Vec<crate::rules::Position> {
    use crate::rules::Position;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::new(Rules::new(Variant::Kids, 2).unwrap());
        let stop_at = rng.random_range(0..60);
        for _ in 0..stop_at {
            if pos.is_over() {
                break;
            }
            pos.draw_random(&mut rng).unwrap();
            let moves = pos.movegen().legal_moves();
            let mv = moves[rng.random_range(0..moves.len())].clone();
            pos.play(&mv).unwrap();
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Move;
    use crate::search::greedy_choice;

    /// The fast model's best points agree with the greedy move through the move generator, and its
    /// best move is legal and scores what it says, on every roll of 120 random boards.
    #[test]
    fn best_points_agree_with_the_move_generator() {
        let mut checked = 0;
        for pos in random_positions(120, 27) {
            let rules = pos.rules().clone();
            let replies = Replies::new(&rules, pos.board());
            for (drawn, _) in pos.possible_draws() {
                let values: Vec<u8> = drawn.values().collect();
                let mut after = pos.clone();
                after.draw(&values).unwrap();
                let greedy = greedy_choice(&after).unwrap();
                let expected = after.score_move(&greedy).unwrap().points(&rules);
                let reply = replies.best_move(values[0], values[1]);
                assert_eq!(reply.points, expected, "roll {values:?} in {}", pos.to_line());
                assert_eq!(replies.best_points(values[0], values[1]), expected);
                let mv = if reply.placements.is_empty() { Move::pass() } else { Move::new(reply.placements) };
                let score =
                    after.score_move(&mv).unwrap_or_else(|e| panic!("{mv}: {e} in {}", pos.to_line()));
                assert_eq!(score.points(&rules), expected, "{mv} in {}", pos.to_line());
                checked += 1;
            }
        }
        assert!(checked >= 120 * 21);
    }
}
