//! What a position shows an evaluation, as numbers: the inputs of the diagnostic's linear models,
//! which are the engine's learned evaluation's (`zatre::search::learned::features`, whose tests
//! count them by hand; the sheets' slots padded to four, the bag's to six values). Sheets are
//! ordered from the player to move (the one
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
use zatre::search::learned::Features;
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

/// The sheet features of a position (see the module's doc), sheets from the player to move: the
/// engine's learned inputs of the game and the sheets ([`Features`]; none at a table of more than four
/// sheets).
pub fn sheet_features(pos: &Position) -> Vec<f64> {
    Features::of(pos).map_or_else(Vec::new, |f| f.sheet_inputs().collect())
}

/// The board features of a position (see the module's doc): the engine's learned inputs of the
/// board ([`Features`]).
pub fn board_features(pos: &Position) -> Vec<f64> {
    Features::of(pos).map_or_else(Vec::new, |f| f.board_inputs().to_vec())
}
