//! What a position shows the learned evaluation, as a fixed array of numbers, computed without
//! allocating beyond today's evaluation: it runs at every leaf of the search.
//!
//! Sheets are ordered from the player to move (in a position after a move, the one whose draw is
//! due), so that one model serves every seat; a team's sheet counts once. The inputs, in the
//! order of [`Features::values`]:
//!
//! - **The game** ([`GAME`]): the share still to come ([`Position::game_left_share`]) and the
//!   turns left a seat.
//! - **The bag** ([`BAG`]): its tiles of each value from the lowest (six slots; a variant with
//!   fewer values leaves the rest 0) and its size.
//! - **The board** ([`BOARD`]): for every open cell (empty, next to a tile) and every tile value,
//!   which sum each of its two runs would reach: two under the limit, one under, the limit
//!   (classic and dice 10, 11, 12; kids 8, 9, 10) or over it (the value breaks the run); counted
//!   over the open cells, normal and extra (double) cells apart, both axes together (the boards
//!   are symmetric under a swap of rows and columns, so the axes share their weights); then the
//!   open cells of each kind with and without a value that fits: the double cells in reach.
//! - **Every sheet** ([`PER_SHEET`] each, [`MAX_SHEETS`] slots, empty slots 0): today's
//!   evaluation of its points still to come (its equity less its total now), its entries in each
//!   sum column, its marks and full rows, its total now (kept tiles counted as the standings count
//!   them), its seats' kept tiles (pips, count).

use crate::rules::{Position, Variant};

use super::super::eval::equities;

/// The most sheets a model reads; a table of more has no learned evaluation.
pub const MAX_SHEETS: usize = 4;
/// The game's inputs.
pub const GAME: usize = 2;
/// The bag's inputs: six values and the size.
pub const BAG: usize = 7;
/// The board's inputs per cell kind: six values times four sums, the cells with and without a
/// value that fits.
const PER_KIND: usize = 6 * 4 + 2;
/// The board's inputs: normal and extra cells.
pub const BOARD: usize = 2 * PER_KIND;
/// The inputs of one sheet.
pub const PER_SHEET: usize = 9;
/// Where the board's inputs start.
pub const BOARD_START: usize = GAME + BAG;
/// Where the sheets' inputs start.
pub const SHEETS_START: usize = BOARD_START + BOARD;
/// How many inputs in all.
pub const FEATURES: usize = SHEETS_START + MAX_SHEETS * PER_SHEET;

/// The inputs of one position, and what the evaluation adds them to.
#[derive(Clone, Debug)]
pub struct Features {
    /// The inputs (see the module's doc).
    pub values: [f64; FEATURES],
    /// The sheets from the player to move: `order[k]` is the sheet `k` seats on.
    pub order: [usize; MAX_SHEETS],
    /// How many sheets the table has.
    pub sheets: usize,
    /// Today's evaluation of every sheet (its equity), by sheet.
    pub equities: [f64; MAX_SHEETS],
}

impl Features {
    /// The inputs of `pos`; `None` when its table has more than [`MAX_SHEETS`] sheets.
    pub fn of(pos: &Position) -> Option<Features> {
        let rules = pos.rules();
        let sheets = rules.sheet_count();
        if sheets > MAX_SHEETS {
            return None;
        }
        let mut f =
            Features { values: [0.0; FEATURES], order: [0; MAX_SHEETS], sheets, equities: [0.0; MAX_SHEETS] };
        let players = usize::from(rules.players.max(1));
        let x = &mut f.values;
        x[0] = pos.game_left_share();
        x[1] = pos.turns_left_estimate() / players as f64;
        let bag = pos.bag();
        for (i, v) in (rules.min_value()..=rules.max_value()).take(6).enumerate() {
            x[GAME + i] = f64::from(bag.count(v));
        }
        x[GAME + 6] = bag.len() as f64;
        board_inputs(pos, &mut x[BOARD_START..SHEETS_START]);

        let mut n = 0;
        for k in 0..players {
            let sheet = rules.sheet_of_seat((pos.to_move() + k) % players);
            if !f.order[..n].contains(&sheet) {
                f.order[n] = sheet;
                n += 1;
            }
        }
        for (i, e) in equities(pos).into_iter().enumerate() {
            f.equities[i] = e;
        }
        let classic = rules.variant == Variant::Classic;
        for (k, &sheet) in f.order[..sheets].iter().enumerate() {
            let s = &pos.sheets()[sheet];
            let (mut pips, mut count) = (0u32, 0usize);
            for seat in (0..players).filter(|&seat| rules.sheet_of_seat(seat) == sheet) {
                pips += pos.hand(seat).pips();
                count += pos.hand(seat).len();
            }
            let total = f64::from(s.total(rules)) - if classic { f64::from(pips) } else { 0.0 };
            let base = SHEETS_START + k * PER_SHEET;
            let x = &mut f.values[base..base + PER_SHEET];
            x[0] = f.equities[sheet] - total;
            for j in 0..3 {
                x[1 + j] = s.entry_count(j) as f64;
            }
            x[4] = s.mark_count() as f64;
            x[5] = s.rows().iter().filter(|r| r.is_full()).count() as f64;
            x[6] = total;
            x[7] = f64::from(pips);
            x[8] = count as f64;
        }
        Some(f)
    }

    /// The inputs of the game and the sheets (the board's left out), as the diagnostic's sheet
    /// features read them.
    pub fn sheet_inputs(&self) -> impl Iterator<Item = f64> + '_ {
        self.values[..BOARD_START].iter().chain(&self.values[SHEETS_START..]).copied()
    }

    /// The board's inputs.
    pub fn board_inputs(&self) -> &[f64] {
        &self.values[BOARD_START..SHEETS_START]
    }
}

/// The board's inputs of `pos` into `out` ([`BOARD`] long, zeroed).
fn board_inputs(pos: &Position, out: &mut [f64]) {
    let rules = pos.rules();
    let board = pos.board();
    let geometry = board.geometry();
    let limit = rules.limit();
    let (low, high) = (rules.min_value(), rules.max_value().min(rules.min_value() + 5));
    for &cell in geometry.cells() {
        if !board.is_empty_cell(cell) || !board.has_neighbour(cell) {
            continue;
        }
        let base = usize::from(geometry.is_extra(cell)) * PER_KIND;
        for (i, v) in (low..=high).enumerate() {
            let (h, w) = board.sums_with(cell, v);
            for sum in [h, w] {
                let category = if sum > limit {
                    3
                } else if sum + 2 >= limit {
                    usize::from(sum + 2 - limit)
                } else {
                    continue;
                };
                out[base + i * 4 + category] += 1.0;
            }
        }
        let fits = board.room(cell, limit).is_some_and(|room| room >= low);
        out[base + 24 + usize::from(!fits)] += 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Move, Rules};

    /// On a board of three tiles counted by hand: `5@h8,6@h9` (a vertical run of 11) and `1@i8`
    /// (a horizontal run 5,1 of 6 with h8). The open cells and the sums a value `v` makes there:
    /// h7 and h10 vertically 11+v (alone across); g8 and j8 across 6+v; g9 across v+6; i9 across
    /// 6+v, down 1+v; i7 down v+1.
    #[test]
    fn the_board_inputs_count_the_sums_an_open_cell_would_make() {
        let mut pos = Position::new(Rules::new(Variant::Classic, 2).expect("two players"));
        pos.draw(&[5, 6, 1]).expect("a first draw");
        let mv = Move::parse(pos.board().geometry(), "5@h8,6@h9,1@i8").expect("a move");
        pos.play(&mv).expect("a legal first move");
        let f = Features::of(&pos).expect("two sheets");
        let b = f.board_inputs();
        let all = |value: u8, c: usize| {
            let i = usize::from(value - 1) * 4 + c;
            b[i] + b[PER_KIND + i]
        };
        assert_eq!(all(1, 2), 2.0, "h7 and h10 make 12 with a 1: {b:?}");
        assert_eq!(all(1, 0) + all(1, 1) + all(1, 3), 0.0);
        assert_eq!(all(2, 3), 2.0, "h7 and h10 break with a 2");
        assert_eq!(all(4, 0), 4.0, "10 with a 4: g8, j8, g9, i9");
        assert_eq!(all(5, 1), 4.0);
        assert_eq!(all(6, 2), 4.0);
        assert_eq!(all(6, 3), 2.0, "only h7 and h10 break with a 6");
        assert_eq!(b[24] + b[PER_KIND + 24], 7.0, "seven open cells, every one with a value that fits");
        assert_eq!(b[25] + b[PER_KIND + 25], 0.0);
    }

    /// The sheets are read from the player to move: after the first move of a three-player game
    /// the second seat is first, and the first seat (who kept no tile and scored nothing) last;
    /// the bag's size is what is left of it.
    #[test]
    fn the_sheets_start_from_the_player_to_move() {
        let mut pos = Position::new(Rules::new(Variant::Classic, 3).expect("three players"));
        let full = pos.bag().len();
        pos.draw(&[5, 6, 1]).expect("a first draw");
        let mv = Move::parse(pos.board().geometry(), "5@h8,6@h9,1@i8").expect("a move");
        pos.play(&mv).expect("a legal first move");
        let f = Features::of(&pos).expect("three sheets");
        assert_eq!(&f.order[..3], &[1, 2, 0]);
        assert_eq!(f.sheets, 3);
        assert_eq!(f.values[GAME + 6], (full - 3) as f64);
        assert!(f.values[SHEETS_START + 3 * PER_SHEET..].iter().all(|&v| v == 0.0), "no fourth sheet");
        for k in 0..3 {
            let to_come = f.values[SHEETS_START + k * PER_SHEET];
            assert!(to_come > 0.0, "sheet {k} has points to come: {to_come}");
        }
    }
}
