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

/// The greedy move for the player to move. `None` only when the generator yields nothing at all
/// (never in a place phase).
pub(crate) fn greedy(pos: &Position, stop: &AtomicBool) -> Option<Scored> {
    greedy_counted(pos, Choices::All, Stop::Answer(stop), MOVE_CAP).0
}

/// [`greedy`] among `choices` (the first `cap` legal moves of them), with the number of moves it
/// looked at.
pub(crate) fn greedy_counted(
    pos: &Position,
    choices: Choices<'_>,
    stop: Stop<'_>,
    cap: u64,
) -> (Option<Scored>, u64) {
    let rules = pos.rules();
    let sheet = &pos.sheets()[rules.sheet_of_seat(pos.to_move())];
    let mut best: Option<Scored> = None;
    let seen = for_each_scored(pos, choices, stop, cap, &mut |board, placements, score| {
        let gain = gain_of(rules, sheet, score, placements);
        // The points left open are worked out only where they decide: a tie with the best so far
        // that leaves some open (none left open cannot be beaten).
        let open = match &best {
            Some(b) if gain < b.gain || (gain == b.gain && b.open == 0) => return,
            _ => open_points(rules, board, placements),
        };
        if best.as_ref().is_none_or(|b| gain > b.gain || open < b.open) {
            best = Some(Scored { placements: placements.to_vec(), gain, open });
        }
    });
    (best, seen)
}

/// The `k` best moves by greedy's order, best first (of equal moves, the first generated first),
/// with the number of moves looked at (the first `cap` legal moves at most): greedy's MultiPV.
/// `k` <= 1 is [`greedy_counted`].
pub(crate) fn greedy_ranked(
    pos: &Position,
    choices: Choices<'_>,
    stop: Stop<'_>,
    k: usize,
    cap: u64,
) -> (Vec<Scored>, u64) {
    if k <= 1 {
        let (best, seen) = greedy_counted(pos, choices, stop, cap);
        return (best.into_iter().collect(), seen);
    }
    let rules = pos.rules();
    let sheet = &pos.sheets()[rules.sheet_of_seat(pos.to_move())];
    let key = |s: &Scored| (s.gain, std::cmp::Reverse(s.open));
    let mut ranked: Vec<Scored> = Vec::with_capacity(k + 1);
    let seen = for_each_scored(pos, choices, stop, cap, &mut |board, placements, score| {
        let gain = gain_of(rules, sheet, score, placements);
        // A move that cannot enter the full list is passed over before its open points are
        // worked out: it gains less than the last, or as much where the last leaves none open.
        if ranked.len() == k
            && ranked.last().is_some_and(|last| gain < last.gain || (gain == last.gain && last.open == 0))
        {
            return;
        }
        let scored =
            Scored { placements: placements.to_vec(), gain, open: open_points(rules, board, placements) };
        let at = ranked.partition_point(|r| key(r) >= key(&scored));
        if at < k {
            ranked.insert(at, scored);
            ranked.truncate(k);
        }
    });
    (ranked, seen)
}
