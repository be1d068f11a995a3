//! What a position shows an evaluation, as numbers: the inputs of the diagnostic's linear models
//! (and, later, of the learned evaluation). Sheets are ordered from the player to move (the one
//! whose draw is due in a position after a move), so that one model serves every seat.
//!
//! - **Sheet features** ([`sheet_features`]): the game's progress (the share still to come, the
//!   turns left a seat), the bag (its tiles of each value, its size), and for every sheet in that
//!   order: today's evaluation of its points still to come ([`eval_to_come`]), its entries in
//!   each sum column, its marks and full rows, its total now, its seats' kept tiles (pips, count).
//! - **Board features** ([`board_features`]): for every open cell (empty, next to a tile) and every
//!   tile value, which sum each of its two runs would reach: two under the limit, one under, the
//!   limit (classic and dice 10, 11, 12; kids 8, 9, 10), or over it (the value breaks the run);
//!   counted over the open cells, normal and extra (double) cells apart, both axes together (the
//!   boards are symmetric under a swap of rows and columns); and the open cells of each kind with
//!   and without a value that fits.

use zatre::rules::Position;
use zatre::search::{equities_with, Weights};

use super::data::totals;

/// The sheets in the order of the seats from the player to move (a team's sheet once).
pub fn sheet_order(pos: &Position) -> Vec<usize> {
    let rules = pos.rules();
    let players = usize::from(rules.players);
    let mut order = Vec::with_capacity(rules.sheet_count());
    for k in 0..players {
        let sheet = rules.sheet_of_seat((pos.to_move() + k) % players);
        if !order.contains(&sheet) {
            order.push(sheet);
        }
    }
    order
}

/// Today's evaluation ([`equities_with`] under the weights `go` uses) of every sheet's points
/// still to come: its equity less its total now. (The kids' equity is the total: 0 to come.)
pub fn eval_to_come(pos: &Position) -> Vec<f64> {
    let equities = equities_with(pos, &Weights::of(pos.rules()));
    equities.iter().zip(totals(pos)).map(|(e, t)| e - t as f64).collect()
}

/// The sheet features of a position (see the module's doc), sheets from the player to move.
pub fn sheet_features(pos: &Position) -> Vec<f64> {
    let rules = pos.rules();
    let mut f = vec![pos.game_left_share(), pos.turns_left_estimate() / f64::from(rules.players.max(1))];
    let bag = pos.bag();
    f.extend((rules.min_value()..=rules.max_value()).map(|v| f64::from(bag.count(v))));
    f.push(bag.len() as f64);
    let eval = eval_to_come(pos);
    let now = totals(pos);
    for sheet in sheet_order(pos) {
        let s = &pos.sheets()[sheet];
        f.push(eval[sheet]);
        f.extend((0..3).map(|j| s.entry_count(j) as f64));
        f.push(s.mark_count() as f64);
        f.push(s.rows().iter().filter(|r| r.is_full()).count() as f64);
        f.push(now[sheet] as f64);
        let seats = (0..usize::from(rules.players)).filter(|&seat| rules.sheet_of_seat(seat) == sheet);
        let (pips, count) =
            seats.fold((0, 0), |(p, c), seat| (p + pos.hand(seat).pips(), c + pos.hand(seat).len()));
        f.push(f64::from(pips));
        f.push(count as f64);
    }
    f
}

/// How many board features [`board_features`] gives: per cell kind (normal, extra), six values
/// times four sums, and the open cells with and without a value that fits.
pub const BOARD_FEATURES: usize = 2 * (6 * 4 + 2);

/// The board features of a position (see the module's doc).
pub fn board_features(pos: &Position) -> Vec<f64> {
    let rules = pos.rules();
    let board = pos.board();
    let geometry = board.geometry();
    let limit = rules.limit();
    let mut f = vec![0.0; BOARD_FEATURES];
    for &cell in geometry.cells() {
        if !board.is_empty_cell(cell) || !board.has_neighbour(cell) {
            continue;
        }
        let kind = usize::from(geometry.is_extra(cell));
        let base = kind * (6 * 4 + 2);
        for (i, v) in (rules.min_value()..=rules.max_value()).enumerate() {
            let (h, w) = board.sums_with(cell, v);
            for sum in [h, w] {
                let category = match sum {
                    s if s > limit => Some(3),
                    s if s + 2 >= limit => Some(usize::from(s + 2 - limit)),
                    _ => None,
                };
                if let Some(c) = category {
                    f[base + i * 4 + c] += 1.0;
                }
            }
        }
        let fits = board.room(cell, limit).is_some_and(|room| room >= rules.min_value());
        f[base + 24 + usize::from(!fits)] += 1.0;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use zatre::rules::Variant;

    /// On a board of three tiles counted by hand: `5@h8,6@h9` (a vertical run of 11) and `1@i8`
    /// (a horizontal run 5,1 of 6 with h8). The open cells and the sums a value `v` makes there:
    /// h7 and h10 vertically 11+v (alone across); g8 and j8 across 6+v; g9 across v+6; i9 across
    /// 6+v, down 1+v; i7 down v+1.
    #[test]
    fn the_board_features_count_the_sums_an_open_cell_would_make() {
        let mut pos = Position::new(zatre::rules::Rules::new(Variant::Classic, 2).expect("two players"));
        pos.draw(&[5, 6, 1]).expect("a first draw");
        let mv = zatre::rules::Move::parse(pos.board().geometry(), "5@h8,6@h9,1@i8").expect("a move");
        pos.play(&mv).expect("a legal first move");
        let f = board_features(&pos);
        let count = |kind: usize, value: u8, c: usize| f[kind * 26 + usize::from(value - 1) * 4 + c];
        let all = |value: u8, c: usize| count(0, value, c) + count(1, value, c);
        assert_eq!(all(1, 2), 2.0, "h7 and h10 make 12 with a 1: {f:?}");
        assert_eq!(all(1, 0) + all(1, 1) + all(1, 3), 0.0);
        assert_eq!(all(2, 3), 2.0, "h7 and h10 break with a 2");
        // 10 with a 4, 11 with a 5, 12 with a 6: g8, j8, g9, i9.
        assert_eq!(all(4, 0), 4.0);
        assert_eq!(all(5, 1), 4.0);
        assert_eq!(all(6, 2), 4.0);
        assert_eq!(all(6, 3), 2.0, "only h7 and h10 break with a 6");
        assert_eq!(f[24] + f[50], 7.0, "seven open cells, every one with a value that fits: {f:?}");
        assert_eq!(f[25] + f[51], 0.0);
    }
}
