//! What a move scores: its runs of 10, 11, 12 (kids: 8, 9, 10), each counted once, its crosses
//! and its tiles on extra cells.

use super::board::{Axis, Board};
use super::geometry::{Cell, Square};
use super::moves::Placement;
use super::options::{CenterCross, KidsScoring, Rules, Variant};

/// Points per run of limit-2, limit-1 and limit: 10, 11, 12 make 1, 2, 4 on the classic and dice
/// sheets; the kids' 8, 9, 10 make 1, 2, 3.
pub fn run_points(variant: Variant) -> [u16; 3] {
    match variant {
        Variant::Classic | Variant::Dice => [1, 2, 4],
        Variant::Kids => [1, 2, 3],
    }
}

/// The scoring facts of one move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveScore {
    /// How many runs of the move sum to limit-2, limit-1 and limit (10, 11, 12 or 8, 9, 10).
    pub runs: [u8; 3],
    /// Classic: the crosses the move earns (double cells on a scoring run, the centre cross).
    pub crosses: u8,
    /// Dice and kids: how many of the move's values went on extra cells.
    pub extra: u8,
}

impl MoveScore {
    /// Scores a move given the board after it and whether it was the start move of the game.
    pub fn of(rules: &Rules, after: &Board, placements: &[Placement], start: bool) -> MoveScore {
        let low = rules.limit() - 2;
        let mut score = MoveScore::default();
        // The runs already counted, by axis and first cell: a move has few, so a list is enough.
        let mut seen: Vec<(Axis, Cell)> = Vec::with_capacity(2 * placements.len());
        for p in placements {
            let mut on_scoring_run = false;
            for axis in [Axis::Horizontal, Axis::Vertical] {
                let (sum, _) = after.run_through(p.cell, axis);
                if sum >= low {
                    on_scoring_run = true;
                    let run = (axis, after.run_start(p.cell, axis));
                    if !seen.contains(&run) {
                        seen.push(run);
                        score.runs[usize::from(sum - low)] += 1;
                    }
                }
            }
            if after.square(p.cell) == Square::Double {
                match rules.variant {
                    Variant::Classic => score.crosses += u8::from(on_scoring_run),
                    Variant::Dice | Variant::Kids => score.extra += 1,
                }
            }
        }
        if start && rules.variant == Variant::Classic {
            let centre_runs = after.geometry().centre().is_some_and(|c| {
                after.get(c).is_some()
                    && [Axis::Horizontal, Axis::Vertical]
                        .into_iter()
                        .any(|a| after.run_through(c, a).0 >= low)
            });
            score.crosses += u8::from(match rules.center_cross {
                CenterCross::Scoring => centre_runs,
                CenterCross::Always => true,
                CenterCross::Never => false,
            });
        }
        score
    }

    /// The points of the move as the protocol reports them: 1/2/4 per run (kids 1/2/3, doubled on
    /// an extra cell; dots: the number of runs).
    pub fn points(&self, rules: &Rules) -> u32 {
        let points: u32 =
            self.runs.iter().zip(run_points(rules.variant)).map(|(&n, p)| u32::from(n) * u32::from(p)).sum();
        match (rules.variant, rules.scoring) {
            (Variant::Kids, KidsScoring::Dots) => self.runs.iter().map(|&n| u32::from(n)).sum(),
            (Variant::Kids, KidsScoring::Points) => points * if self.extra > 0 { 2 } else { 1 },
            _ => points,
        }
    }

    /// The crosses as the protocol reports them: classic `x2` boxes, else values on extra cells.
    pub fn reported_crosses(&self, rules: &Rules) -> u32 {
        match rules.variant {
            Variant::Classic => self.crosses.into(),
            Variant::Dice | Variant::Kids => self.extra.into(),
        }
    }
}
