//! The game's status at a glance: phase, turn, seat to move, what the next draw takes, and once the
//! game is over why it ended and the final ranking.

use super::options::Variant;
use super::position::{Phase, Position, Standing};

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Classic: the bag is empty and no hand can place a tile; kids: no value can be written.
    NoMove,
    /// Dice: a roll that could not be written whole.
    Roll,
    /// The `rounds` option: the last round has been played.
    Rounds,
}

impl EndReason {
    /// `no_move`, `roll` or `rounds`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::NoMove => "no_move",
            EndReason::Roll => "roll",
            EndReason::Rounds => "rounds",
        }
    }
}

/// One place of the ranking: a sheet's standing and its rank (ties share a rank: 1, 1, 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// From 1.
    pub rank: usize,
    /// The sheet's number, total, hand and sheet.
    pub standing: Standing,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// Why it ended.
    pub reason: EndReason,
    /// Every sheet (player, or team with teams), best first.
    pub ranking: Vec<Ranked>,
}

/// The status of a game: what a GUI shows beside the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// Draw, place or over.
    pub phase: Phase,
    /// The turn being played, from 1 (after the end: one past the last).
    pub turn: u32,
    /// The seat to move, 0-based.
    pub to_move: usize,
    /// How many tiles (dice, kids: numbers) the next draw takes: 0 when a move is due, when the
    /// rules call for no tile, and after the end.
    pub due: usize,
    /// Present exactly when the game is over.
    pub end: Option<End>,
}

impl Position {
    /// The status of the game.
    pub fn status(&self) -> Status {
        let due = if self.phase == Phase::Draw { self.draw_count() } else { 0 };
        let end =
            (self.phase == Phase::Over).then(|| End { reason: self.end_reason(), ranking: self.ranking() });
        Status { phase: self.phase, turn: self.turn, to_move: self.to_move, due, end }
    }

    /// Why the game ended, read from the position alone (a position line does not record it):
    /// `rounds` when the last round allowed by the `rounds` option has been played, otherwise
    /// the variant's own end, the only other way it can end: `roll` in the dice game (the roll
    /// itself is gone from the position), `no_move` in the classic and kids' games. When a game's
    /// own end falls on the last allowed round, `rounds` is said.
    fn end_reason(&self) -> EndReason {
        if self.rounds_played() {
            return EndReason::Rounds;
        }
        match self.rules.variant {
            Variant::Dice => EndReason::Roll,
            Variant::Classic | Variant::Kids => EndReason::NoMove,
        }
    }

    /// The sheets in rank order if the game ended now, best first: by total (kids' dots: by the
    /// dots of the 10 column, then the 9, then the 8, docs/rules.md 4.4); ties share a rank
    /// (1, 1, 3) and keep their sheet order.
    pub fn ranking(&self) -> Vec<Ranked> {
        let mut standings = self.standings();
        standings.sort_by(|a, b| b.rank_key.cmp(&a.rank_key).then(a.number.cmp(&b.number)));
        let keys: Vec<[i64; 3]> = standings.iter().map(|s| s.rank_key).collect();
        standings
            .into_iter()
            .map(|standing| {
                let rank = 1 + keys.iter().filter(|&&k| k > standing.rank_key).count();
                Ranked { rank, standing }
            })
            .collect()
    }
}
