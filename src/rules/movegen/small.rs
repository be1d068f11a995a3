//! Counting the legal moves of a hand of one or two tiles without listing them. Most turns hold
//! two tiles, and every `legal count`, every leaf of `perft` and every playout that counts asks.
//!
//! Tiles on two empty cells that are not partners ([`Board::partners`]) share no run. Such a pair
//! keeps every run within the limit exactly when each tile does alone, and a tile on a double cell
//! lies on a run of 10 to 12 (or not) as it does alone. So the pairs of placements that are each
//! valid alone are counted by multiplication, cell by cell: a placement makes a move with every
//! valid placement of the other value on the frontier but its own cell and its partners. Only the
//! pairs of partners (at most four per cell) and the pairs with a tile that needs the forced
//! exception are checked one by one, with the same checks as the enumeration.
//!
//! [`Board::partners`]: crate::rules::Board::partners

use super::{Cell, MoveGen, Placement, Square, GRID};
use crate::rules::board::{Axis, Partner};
use crate::rules::options::{ForcedDouble, MustPlace};

/// What one placement on a frontier cell is worth alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Alone {
    /// A run would go over the limit.
    Bad,
    /// Valid: on a normal cell, or on a double cell on a run of 10 to 12.
    Fine,
    /// Within the limit on a double cell without a run of 10 to 12: valid only by the forced
    /// exception (or with a partner that completes the run).
    Needy,
}

impl MoveGen<'_> {
    /// The number of legal moves (1 when only `pass` is legal) of a hand of at most two tiles.
    pub(super) fn count_small(&mut self) -> u64 {
        debug_assert!(self.hand.len() <= 2 && self.placed.is_empty());
        let mut tiles = [0u8; 2];
        let mut held = 0;
        for v in self.hand.distinct() {
            for _ in 0..self.hand.count(v) {
                tiles[held] = v;
                held += 1;
            }
        }
        // The values as slots: one slot when both tiles are equal.
        let slots: &[u8] = match held {
            0 => return 1,
            1 => &tiles[..1],
            _ if tiles[0] == tiles[1] => &tiles[..1],
            _ => &tiles[..],
        };
        let other = |s: usize| if slots.len() == 2 { 1 - s } else { 0 };

        // The empty cells that touch the board and take the smaller value. A cell that takes no
        // value of the hand is in no move, nor does it matter whether it touches the board: a
        // partner of a cell that it is (if it is not beside it, it touches the board) makes a pair
        // over the limit.
        let mut frontier: Vec<Cell> = Vec::with_capacity(128);
        let mut alone: Vec<[Alone; 2]> = Vec::with_capacity(128);
        let mut index = [u16::MAX; GRID];
        // By slot, the frontier cells its value is valid on alone.
        let mut fine = [0u64; 2];
        let anywhere = !self.rules.needs_neighbour();
        let centre = if self.board.count() == 0 { self.board.geometry().centre() } else { None };
        let smaller = slots[0];
        for &c in self.board.geometry().cells() {
            let open = self.board.is_empty_cell(c)
                && (anywhere || centre.map_or_else(|| self.board.has_neighbour(c), |centre| c == centre))
                && self.board.room(c, self.limit).is_some_and(|room| room >= smaller);
            if open {
                index[c.index()] = frontier.len() as u16;
                frontier.push(c);
                let first = self.alone(c, slots[0]);
                let worth = [first, slots.get(1).map_or(first, |&v| self.alone(c, v))];
                for (n, a) in fine.iter_mut().zip(worth) {
                    *n += u64::from(a == Alone::Fine);
                }
                alone.push(worth);
            }
        }
        let in_frontier =
            |c: Cell| Some(usize::from(index[c.index()])).filter(|&i| i != usize::from(u16::MAX));

        // By slot, the normal cells its value fits on: while one of them lies in no row and no
        // column of a move, it takes the value whatever the move does, so no tile of that value
        // in the move can claim the forced exception. Only needy tiles ask.
        let forced = self.rules.forced_double == ForcedDouble::Allow;
        let mut normal: [Vec<Cell>; 2] = Default::default();
        if forced && alone.iter().any(|a| a.contains(&Alone::Needy)) {
            for (s, list) in normal.iter_mut().enumerate().take(slots.len()) {
                let fine = frontier.iter().zip(&alone).filter(|(_, a)| a[s] == Alone::Fine);
                list.extend(fine.map(|(&c, _)| c).filter(|&c| self.board.square(c) == Square::Normal));
            }
        }
        let free_of = |s: usize, cells: &[Cell]| {
            normal[s].iter().any(|e| cells.iter().all(|c| c.row() != e.row() && c.column() != e.column()))
        };
        // A needy tile that touches the board may go down first, by the forced exception, when its
        // value fits on no normal cell at the start; then the other tile of a pair follows (it
        // touches the board or the needy tile), so one needy tile is all the exception asks for.
        let first_by_exception = |s: usize| normal[s].is_empty();
        // Whether a placement is valid alone; a needy one needs the forced exception (a lone tile
        // goes first).
        let single = |a: Alone, s: usize| match a {
            Alone::Fine => true,
            Alone::Needy => forced && first_by_exception(s),
            Alone::Bad => false,
        };
        let singles = || alone.iter().flat_map(|a| (0..slots.len()).map(move |s| (a[s], s)));
        if held == 1 {
            return (singles().filter(|&(a, s)| single(a, s)).count() as u64).max(1);
        }

        // By frontier cell and slot: the valid pairs with that placement.
        let mut pairs = vec![[0u64; 2]; frontier.len()];
        // Pairs counted from both of their placements when both slots hold one value.
        let mut independent = 0u64;
        let mut checked = 0u64;
        for (i, &c) in frontier.iter().enumerate() {
            // The partners, each with its place in the frontier if it has one.
            let mut partners = [None; 4];
            for (slot, p) in partners.iter_mut().zip(self.board.partners(c)) {
                *slot = Some((p, in_frontier(p.cell)));
            }
            let partners = partners.into_iter().flatten();
            for s in 0..slots.len() {
                let o = other(s);
                if alone[i][s] != Alone::Fine {
                    continue;
                }
                let own = u64::from(alone[i][o] == Alone::Fine);
                let near =
                    partners.clone().filter(|&(_, j)| j.is_some_and(|j| alone[j][o] == Alone::Fine)).count()
                        as u64;
                let n = fine[o] - own - near;
                pairs[i][s] += n;
                if s == 0 {
                    independent += n;
                }
            }
            for (p, j) in partners.clone() {
                if j.is_some_and(|j| j < i) {
                    continue;
                }
                for s in 0..slots.len() {
                    let o = other(s);
                    if alone[i][s] == Alone::Bad || j.is_some_and(|j| alone[j][o] == Alone::Bad) {
                        continue;
                    }
                    let valid = match self.partners_needy(c, slots[s], p, slots[o]) {
                        None => false,
                        Some([false, false]) => true,
                        Some([true, false]) if forced && first_by_exception(s) => true,
                        Some([false, true]) if forced && j.is_some() && first_by_exception(o) => true,
                        Some([here, there]) => {
                            forced
                                && !(here && free_of(s, &[c, p.cell]))
                                && !(there && free_of(o, &[c, p.cell]))
                                && self.set_valid(&[
                                    Placement { cell: c, value: slots[s] },
                                    Placement { cell: p.cell, value: slots[o] },
                                ])
                        }
                    };
                    if valid {
                        checked += 1;
                        pairs[i][s] += 1;
                        if let Some(j) = j {
                            pairs[j][o] += 1;
                        }
                    }
                }
            }
            if !forced {
                continue;
            }
            for s in 0..slots.len() {
                if alone[i][s] != Alone::Needy {
                    continue;
                }
                let o = other(s);
                for (j, &d) in frontier.iter().enumerate() {
                    let skip = j == i
                        || alone[j][o] == Alone::Bad
                        || (alone[j][o] == Alone::Needy && j < i)
                        || partners.clone().any(|(p, _)| p.cell == d)
                        || free_of(s, &[c, d]);
                    if skip {
                        continue;
                    }
                    let pair =
                        [Placement { cell: c, value: slots[s] }, Placement { cell: d, value: slots[o] }];
                    let valid = if alone[j][o] == Alone::Fine && first_by_exception(s) {
                        true
                    } else {
                        self.set_valid(&pair)
                    };
                    if valid {
                        checked += 1;
                        pairs[i][s] += 1;
                        pairs[j][o] += 1;
                    }
                }
            }
        }
        let doubled = if slots.len() == 1 { 2 } else { 1 };
        let two = independent / doubled + checked;
        let count = match self.rules.must_place {
            MustPlace::Maximum if two > 0 => two,
            MustPlace::Maximum => singles().filter(|&(a, s)| single(a, s)).count() as u64,
            MustPlace::Maximal => {
                let maximal = alone
                    .iter()
                    .zip(&pairs)
                    .flat_map(|(a, n)| (0..slots.len()).map(move |s| single(a[s], s) && n[s] == 0))
                    .filter(|&m| m)
                    .count() as u64;
                two + maximal
            }
        };
        count.max(1)
    }

    /// What a value on an empty frontier cell is worth alone.
    fn alone(&self, cell: Cell, value: u8) -> Alone {
        if self.board.room(cell, self.limit).is_none_or(|room| value > room) {
            return Alone::Bad;
        }
        if !self.doubles_matter || self.board.square(cell) != Square::Double {
            return Alone::Fine;
        }
        let (across, down) = self.board.sums_with(cell, value);
        if across.max(down) >= self.limit - 2 {
            Alone::Fine
        } else {
            Alone::Needy
        }
    }

    /// Whether `value` on `cell` and `other` on its partner keep their runs within the limit (each
    /// does alone), and if so, which of the two lies on a double cell without a run of 10 to 12.
    fn partners_needy(&self, cell: Cell, value: u8, partner: Partner, other: u8) -> Option<[bool; 2]> {
        let (across, down) = self.board.sums_with(cell, value);
        let (p_across, p_down) = self.board.sums_with(partner.cell, other);
        let (along, crossing, p_along, p_crossing) = match partner.axis {
            Axis::Horizontal => (across, down, p_across, p_down),
            Axis::Vertical => (down, across, p_down, p_across),
        };
        // The run the two tiles share.
        let joint = along + p_along - partner.between;
        if joint > self.limit || crossing > self.limit || p_crossing > self.limit {
            return None;
        }
        let low = self.limit - 2;
        let needy = |c: Cell, crossing: u8| {
            self.doubles_matter && self.board.square(c) == Square::Double && joint.max(crossing) < low
        };
        Some([needy(cell, crossing), needy(partner.cell, p_crossing)])
    }

    /// Whether a set of placements is valid, by the checks of the enumeration: each within the
    /// limit in the order given, then the double cells. The board is left as it was.
    fn set_valid(&mut self, set: &[Placement]) -> bool {
        let mut fits = true;
        for &p in set {
            if self.board.room(p.cell, self.limit).is_none_or(|room| p.value > room) {
                fits = false;
                break;
            }
            self.push(p);
        }
        let valid = fits && self.accept();
        self.take_back();
        valid
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use crate::rules::{Board, Game, MoveGen, Rules, Tiles, Variant};

    /// The moves the enumeration lists, one by one (`pass` counts as one).
    fn listed(rules: &Rules, board: &Board, hand: Tiles) -> u64 {
        let mut n = 0;
        let _ = MoveGen::new(rules, board, hand).for_each_legal(&mut |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// Every hand of one or two tiles of a variant's values.
    fn small_hands(values: std::ops::RangeInclusive<u8>) -> Vec<Tiles> {
        let mut hands = Vec::new();
        for a in values.clone() {
            hands.push(Tiles::from_values(&[a]).expect("a value"));
            for b in a..=*values.end() {
                hands.push(Tiles::from_values(&[a, b]).expect("two values"));
            }
        }
        hands
    }

    /// The count agrees with the listing for every small hand on the boards of random games of
    /// every variant and rule set that changes what is legal: both must-place rules, the forced
    /// exception allowed and forbidden, neighbours needed or not, the empty classic board.
    #[test]
    fn counting_agrees_with_listing_on_every_small_hand() {
        /// A variant, rule options, and its lowest tile value.
        type Setup<'a> = (Variant, &'a [(&'a str, &'a str)], u8);
        let setups: [Setup; 8] = [
            (Variant::Classic, &[], 1),
            (Variant::Classic, &[("rules", "cz3")], 1),
            (Variant::Classic, &[("rules", "cz4")], 1),
            (Variant::Classic, &[("forced_double", "forbid")], 1),
            (Variant::Dice, &[("size", "7")], 1),
            (Variant::Dice, &[("adjacent", "off")], 1),
            (Variant::Kids, &[], 0),
            (Variant::Kids, &[("must_place", "maximal")], 0),
        ];
        let mut compared = 0;
        for (k, (variant, options, lowest)) in setups.iter().enumerate() {
            let rules = Rules::with_options(*variant, 2, options.iter().copied()).expect("valid rules");
            let hands = small_hands(*lowest..=lowest + 5);
            for seed in 0..3 {
                let mut rng = ChaCha8Rng::seed_from_u64(100 * k as u64 + seed);
                let mut game = Game::new(rules.clone());
                let board = game.position().board().clone();
                for &hand in &hands {
                    let counted = MoveGen::new(&rules, &board, hand).legal_count();
                    assert_eq!(
                        counted,
                        listed(&rules, &board, hand),
                        "{variant:?} {options:?} start hand {hand}"
                    );
                }
                while !game.position().is_over() {
                    game.draw_random(&mut rng).expect("a draw is due");
                    let pos = game.position().clone();
                    if game.position().board().count() % 3 == seed as usize {
                        for &hand in &hands {
                            let counted = MoveGen::new(&rules, pos.board(), hand).legal_count();
                            let line = pos.to_line();
                            assert_eq!(counted, listed(&rules, pos.board(), hand), "hand {hand} on {line}");
                            compared += 1;
                        }
                    }
                    let (chosen, _) = pos.movegen().random_legal(&mut rng, u64::MAX);
                    game.play(&chosen).expect("a listed move is legal");
                }
            }
        }
        assert!(compared > 5_000, "only {compared} positions and hands compared");
    }
}
