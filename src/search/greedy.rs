//! The greedy player: the move that adds most to the mover's sheet total now (classic: plus the
//! pips it takes out of the hand, as the standings count them), ties broken by the fewest points
//! left open to the next player ([`super::open_points`]).

use std::sync::atomic::AtomicBool;

use crate::rules::{Placement, Position};

use super::open_points::open_points;
use super::scan::{for_each_scored, gain_of, Choices, Stop, MOVE_CAP};

/// A move as the greedy player sees it.
#[derive(Clone, Debug)]
pub(crate) struct Scored {
    pub placements: Vec<Placement>,
    /// What it adds to the mover's standing now.
    pub gain: i64,
    /// Points left open to the next player (the tie-break; lower is better).
    pub open: u32,
}

impl Scored {
    /// Whether a move that gains `gain` could come before this one in greedy's order, so that its
    /// open points are worth working out: it gains more, or as much where this one leaves some
    /// open (none left open cannot be beaten).
    fn may_be_passed_by(&self, gain: i64) -> bool {
        gain > self.gain || (gain == self.gain && self.open > 0)
    }

    /// Greedy's order: the most gained, then the fewest points left open.
    pub(super) fn key(&self) -> (i64, std::cmp::Reverse<u32>) {
        (self.gain, std::cmp::Reverse(self.open))
    }
}

/// The greedy move for the player to move. `None` only when the generator yields nothing at all
/// (never in a place phase).
pub(crate) fn greedy(pos: &Position, stop: &AtomicBool) -> Option<Scored> {
    greedy_ranked(pos, Choices::All, Stop::Answer(stop), 1, MOVE_CAP).0.pop()
}

/// The `k` best moves by greedy's order, best first (of equal moves, the first generated first),
/// with the number of moves looked at (the first `cap` legal moves at most): greedy's MultiPV,
/// and with `k` = 1 the greedy move. A move's open points are worked out only where they may
/// decide, and its placements copied only when it enters the list.
pub(crate) fn greedy_ranked(
    pos: &Position,
    choices: Choices<'_>,
    stop: Stop<'_>,
    k: usize,
    cap: u64,
) -> (Vec<Scored>, u64) {
    let k = k.max(1);
    let rules = pos.rules();
    let sheet = &pos.sheets()[rules.sheet_of_seat(pos.to_move())];
    let mut ranked: Vec<Scored> = Vec::with_capacity(k + 1);
    let seen = for_each_scored(pos, choices, stop, cap, &mut |board, placements, score| {
        let gain = gain_of(rules, sheet, score, placements);
        if ranked.len() == k && ranked.last().is_some_and(|last| !last.may_be_passed_by(gain)) {
            return;
        }
        let open = open_points(rules, board, placements);
        let key = (gain, std::cmp::Reverse(open));
        let at = ranked.partition_point(|r| r.key() >= key);
        if at < k {
            ranked.insert(at, Scored { placements: placements.to_vec(), gain, open });
            ranked.truncate(k);
        }
    });
    (ranked, seen)
}
