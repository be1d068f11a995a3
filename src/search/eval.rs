//! The static evaluation: what every sheet will probably be worth at the end of the game, and the
//! margin of the player to move over the best opponent.
//!
//! A sheet's equity is its [`Ledger::equity`] under an outlook built from the turns its seats
//! still have (from the bag in the classic game, from the empty cells in the dice games, capped by
//! the `rounds` option) and per-turn entry rates measured in greedy self-play; classic kept tiles
//! cost their pips (in full when the game is about to end, partly otherwise since most kept tiles
//! are placed later).

use crate::rules::{Position, Rules, Variant};

use super::ledger::{Ledger, Outlook};

/// Per own turn: the chance of an entry in the 10, 11, 12 columns and of a mark (measured with
/// `zatre-selfplay --stats`, greedy against greedy, two players).
const CLASSIC_RATES: [f64; 4] = [0.40, 0.40, 0.55, 0.40];
const DICE_RATES: [f64; 4] = [0.36, 0.36, 0.53, 0.40];
/// The mean factor of a dice mark (`2x` or `4x`).
const DICE_MARK_FACTOR: f64 = 2.15;

/// Game turns still to be played from this position, as the evaluation guesses them.
pub(crate) fn game_turns_left(pos: &Position) -> f64 {
    let rules = pos.rules();
    let by_material = match rules.variant {
        Variant::Classic => (pos.bag().len() as f64 / 2.0).ceil(),
        Variant::Dice | Variant::Kids => {
            let board = pos.board();
            // Greedy games end with about 37% of the cells still empty.
            let cells = board.geometry().cells();
            let empty = cells.iter().filter(|&&c| board.is_empty_cell(c)).count();
            ((empty as f64 - 0.37 * cells.len() as f64) / 2.0).max(1.0)
        }
    };
    if pos.is_over() {
        return 0.0;
    }
    if rules.rounds > 0 {
        let total = f64::from(rules.rounds) * f64::from(rules.players);
        let played = f64::from(pos.turn()) - 1.0;
        return by_material.min((total - played).max(0.0));
    }
    by_material
}

/// The turns each sheet's seats still have, out of `game` turns starting with the player to move.
fn sheet_turns(pos: &Position, game: f64) -> Vec<f64> {
    let rules = pos.rules();
    let players = usize::from(rules.players);
    let full = (game / players as f64).floor();
    let rest = game - full * players as f64;
    let mut turns = vec![0.0; rules.sheet_count()];
    for offset in 0..players {
        let seat = (pos.to_move() + offset) % players;
        let extra = (rest - offset as f64).clamp(0.0, 1.0);
        turns[rules.sheet_of_seat(seat)] += full + extra;
    }
    turns
}

/// A sheet's equity without the hand, given the turns its seats still have.
fn sheet_equity(rules: &Rules, ledger: &Ledger, turns: f64) -> f64 {
    let (rates, mark_factor) = match rules.variant {
        Variant::Dice => (DICE_RATES, DICE_MARK_FACTOR),
        _ => (CLASSIC_RATES, 2.0),
    };
    let t = turns.max(0.0);
    let outlook = Outlook { entries: [rates[0] * t, rates[1] * t, rates[2] * t], marks: rates[3] * t };
    ledger.equity(rules, &outlook, mark_factor)
}

/// The equity of every sheet.
pub(crate) fn equities(pos: &Position, ledgers: &[Ledger]) -> Vec<f64> {
    let rules = pos.rules();
    let game = game_turns_left(pos);
    let turns = sheet_turns(pos, game);
    let hand_weight = if game <= f64::from(rules.players) { 1.0 } else { 0.3 };
    ledgers
        .iter()
        .enumerate()
        .map(|(i, ledger)| {
            let mut e = sheet_equity(rules, ledger, turns[i]);
            if rules.variant == Variant::Classic {
                let pips: u32 = (0..usize::from(rules.players))
                    .filter(|&s| rules.sheet_of_seat(s) == i)
                    .map(|s| pos.hand(s).pips())
                    .sum();
                e -= hand_weight * f64::from(pips);
            }
            e
        })
        .collect()
}

/// What one turn of each sheet is worth on average: its equity with the turns it still has, less
/// its equity with one turn fewer. A simulated turn replaces this expectation with what the turn
/// actually brought.
pub(crate) fn turn_worth(pos: &Position, ledgers: &[Ledger]) -> Vec<f64> {
    let rules = pos.rules();
    let turns = sheet_turns(pos, game_turns_left(pos));
    ledgers
        .iter()
        .enumerate()
        .map(|(i, ledger)| {
            let t = turns[i].max(1.0);
            sheet_equity(rules, ledger, t) - sheet_equity(rules, ledger, t - 1.0)
        })
        .collect()
}

/// The margin of a sheet over the best other sheet; its own value when it is alone.
pub(crate) fn margin(values: &[f64], me: usize) -> f64 {
    let best_other = values
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != me)
        .map(|(_, &v)| v)
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
    values[me] - best_other.unwrap_or(0.0)
}

/// The exact final margin of a finished game (or the margin of the standings now).
pub(crate) fn final_margin(pos: &Position, me: usize) -> f64 {
    let totals: Vec<f64> = pos.standings().iter().map(|s| s.total as f64).collect();
    margin(&totals, me)
}

/// Ledgers of every sheet of a position.
pub(crate) fn ledgers_of(pos: &Position) -> Vec<Ledger> {
    pos.sheets().iter().map(|s| Ledger::from_sheet(pos.rules(), s)).collect()
}
