//! How long a game still runs, roughly: what the search's evaluation and a clock's time sharing
//! need. An estimate, not a rule: the classic game ends with the bag, the dice and kids' games
//! when the board is about full (greedy games end with about 37% of the cells still empty), and
//! the `rounds` option caps both.

use super::options::Variant;
use super::position::Position;
use super::tiles::Tiles;

/// The share of a dice or kids' board still empty when a game ends: greedy games end with about
/// 37% of the cells empty.
const UNUSED_CELLS: f64 = 0.37;

/// The fewest own turns a clock is shared over in the dice and kids' games while they run. Their
/// end comes with the board, which the turns left by the empty cells see late: two-player dice
/// games from 42 to 46 empty cells ran 4 to 5 more turns where the estimate counted one
/// (docs/archive/strength-history.md, "Dice: the end of the game"), and a clock shared over one
/// turn leaves the last turns next to nothing.
pub const BOARD_END_OWN_TURNS: u32 = 2;

impl Position {
    /// Game turns (every player's) still to be played from this position, roughly; 0 once the
    /// game is over.
    pub fn turns_left_estimate(&self) -> f64 {
        if self.is_over() {
            return 0.0;
        }
        let rules = self.rules();
        let by_material = match rules.variant {
            Variant::Classic => (self.bag().len() as f64 / 2.0).ceil(),
            Variant::Dice | Variant::Kids => {
                let board = self.board();
                let cells = board.geometry().cells();
                let empty = cells.iter().filter(|&&c| board.is_empty_cell(c)).count();
                ((empty as f64 - UNUSED_CELLS * cells.len() as f64) / 2.0).max(1.0)
            }
        };
        match self.turns_left_by_rounds() {
            Some(left) => by_material.min(f64::from(left)),
            None => by_material,
        }
    }

    /// Game turns (every player's, this one included) before the `rounds` option ends the game;
    /// `None` without it.
    fn turns_left_by_rounds(&self) -> Option<u32> {
        let rules = self.rules();
        (rules.rounds > 0).then(|| (rules.rounds * u32::from(rules.players) + 1).saturating_sub(self.turn()))
    }

    /// How much of the game is still to come, from 1 at its start to 0 at its end: the turns left
    /// ([`Position::turns_left_estimate`]) over the turns of a whole game by the same estimate
    /// (the classic bag of 121 tiles two at a time; the cells a dice or kids' game fills), capped
    /// by the `rounds` option like the turns left.
    pub fn game_left_share(&self) -> f64 {
        let rules = self.rules();
        let whole = match rules.variant {
            Variant::Classic => (Tiles::classic_bag().len() as f64 / 2.0).ceil(),
            Variant::Dice | Variant::Kids => {
                let cells = self.board().geometry().cells().len() as f64;
                ((1.0 - UNUSED_CELLS) * cells / 2.0).max(1.0)
            }
        };
        let whole = if rules.rounds > 0 {
            whole.min(f64::from(rules.rounds) * f64::from(rules.players))
        } else {
            whole
        };
        (self.turns_left_estimate() / whole).clamp(0.0, 1.0)
    }

    /// The turns the player to move still has, roughly (at least 1 while the game runs): what a
    /// clock is shared over. In the dice and kids' games, whose end comes with the board, at
    /// least [`BOARD_END_OWN_TURNS`] while the `rounds` option leaves that many.
    pub fn own_turns_left_estimate(&self) -> u32 {
        if self.is_over() {
            return 0;
        }
        let rules = self.rules();
        let players = f64::from(rules.players);
        let estimate = ((self.turns_left_estimate() / players).ceil() as u32).max(1);
        match rules.variant {
            Variant::Classic => estimate,
            Variant::Dice | Variant::Kids => {
                // The player to move's own turns before the `rounds` option ends the game.
                let by_rounds = self
                    .turns_left_by_rounds()
                    .map_or(u32::MAX, |left| left.div_ceil(u32::from(rules.players)));
                estimate.max(BOARD_END_OWN_TURNS.min(by_rounds))
            }
        }
    }
}
