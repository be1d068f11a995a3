//! The budget of a search: its limits, its node count and its one clock. The limits become one
//! time limit ([`time_limit`]; a chess-style clock is shared out by [`clock_share`]); while a search runs under a time limit, a watchdog raises the
//! search's own stop flag when the time is up or the caller's stop flag goes up, so a move
//! generator deep in a huge hand, which only sees a flag, stops too.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{Clock, Limits, DEFAULT_MOVE_TIME};

/// How often the watchdog looks at the clock and the caller's stop flag.
const WATCH_INTERVAL: Duration = Duration::from_millis(1);

/// The least time kept back on a clock: what answering, the pipe and the GUI take after the
/// search ends, and the overrun of a stage that was under way when the time ran out.
const MIN_SAFETY_MARGIN: Duration = Duration::from_millis(30);

/// The share of the time left kept back on a clock, when it is more than [`MIN_SAFETY_MARGIN`].
const SAFETY_SHARE: u32 = 20;

/// The time a move may take from a clock: the time left less a safety margin (a twentieth of it,
/// at least [`MIN_SAFETY_MARGIN`]), shared evenly over the moves still to play before the next
/// time control (`own_moves_left` is the rules core's rough estimate; `movestogo` caps it), each
/// increment but this move's counted as time to come; never more than the time left less the
/// margin.
pub(crate) fn clock_share(clock: &Clock, own_moves_left: u32) -> Duration {
    let margin = (clock.left / SAFETY_SHARE).max(MIN_SAFETY_MARGIN);
    let usable = clock.left.saturating_sub(margin);
    let moves = clock.movestogo.map_or(own_moves_left, |m| m.min(own_moves_left)).max(1);
    let share = (usable + clock.inc * (moves - 1)) / moves;
    share.min(usable)
}

/// The time a search may take under these limits, the first to run out: the move time, the
/// share of the clock ([`clock_share`], given the mover's moves left); with neither, no node limit
/// and no `infinite`, [`DEFAULT_MOVE_TIME`]; otherwise none (a node limit alone stays
/// deterministic: no clock then).
pub(crate) fn time_limit(limits: &Limits, own_moves_left: u32) -> Option<Duration> {
    let share = limits.clock.map(|clock| clock_share(&clock, own_moves_left));
    match (limits.movetime, share) {
        (Some(t), Some(s)) => Some(t.min(s)),
        (Some(t), None) | (None, Some(t)) => Some(t),
        (None, None) if limits.nodes.is_none() && !limits.infinite => Some(DEFAULT_MOVE_TIME),
        (None, None) => None,
    }
}

/// What the stages of a search share across threads: the limits, the stop flag, the clock and the
/// node count.
pub(crate) struct Budget<'a> {
    limits: &'a Limits,
    /// The flag every stage and generator checks: the caller's, or the watchdog's.
    stop: &'a AtomicBool,
    started: Instant,
    time_limit: Option<Duration>,
    nodes: AtomicU64,
}

impl<'a> Budget<'a> {
    /// A budget starting now with this time limit, whose stop flag is `stop` (no watchdog: see
    /// [`with_budget`]).
    pub(crate) fn new(limits: &'a Limits, time_limit: Option<Duration>, stop: &'a AtomicBool) -> Budget<'a> {
        Budget { limits, stop, started: Instant::now(), time_limit, nodes: AtomicU64::new(0) }
    }

    /// The flag to hand to generators and simulations.
    pub(crate) fn stop_flag(&self) -> &'a AtomicBool {
        self.stop
    }

    /// Whether the search must end: stopped, the node limit reached or the time up.
    pub(crate) fn exhausted(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes() >= n {
                return true;
            }
        }
        self.time_limit.is_some_and(|t| self.started.elapsed() >= t)
    }

    /// Counts nodes spent.
    pub(crate) fn spend(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    /// How many legal moves a scan of the root may look at: `most`, or the node limit when that is
    /// lower (one at least, to have a move to answer with).
    pub(crate) fn scan_cap(&self, most: u64) -> u64 {
        self.limits.nodes.map_or(most, |n| n.clamp(1, most))
    }

    /// The nodes spent so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The time since the search started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// How many more units of work, each costing `per_unit` nodes, the budget still affords, by
    /// the node limit or else by the time left at the rate so far; `None` when nothing bounds it
    /// (`infinite`).
    pub(crate) fn affordable(&self, per_unit: f64) -> Option<f64> {
        let nodes = self.nodes().max(1);
        if let Some(limit) = self.limits.nodes {
            return Some(limit.saturating_sub(nodes) as f64 / per_unit);
        }
        if self.limits.infinite {
            return None;
        }
        let time = self.time_limit.unwrap_or(DEFAULT_MOVE_TIME).as_secs_f64();
        let elapsed = self.started.elapsed().as_secs_f64().max(1e-6);
        Some((time - elapsed).max(0.0) * nodes as f64 / elapsed / per_unit)
    }
}

/// Runs `work` with the budget of `limits` for a player with `own_moves_left` moves still to
/// play. Under a time limit a watchdog thread raises the budget's own stop flag when the time is
/// up or `stop` goes up, and ends with `work`; the caller's `stop` is never written, so a caller
/// that waits for it (`go infinite`) still waits.
pub(crate) fn with_budget<R>(
    limits: &Limits,
    own_moves_left: u32,
    stop: &AtomicBool,
    work: impl FnOnce(&Budget<'_>) -> R,
) -> R {
    let Some(limit) = time_limit(limits, own_moves_left) else {
        return work(&Budget::new(limits, None, stop));
    };
    let own_stop = AtomicBool::new(stop.load(Ordering::Relaxed));
    let finished = AtomicBool::new(false);
    let budget = Budget::new(limits, Some(limit), &own_stop);
    std::thread::scope(|scope| {
        let (own_stop, finished, started) = (&own_stop, &finished, budget.started);
        scope.spawn(move || {
            while !finished.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) || started.elapsed() >= limit {
                    own_stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(WATCH_INTERVAL);
            }
        });
        let result = work(&budget);
        finished.store(true, Ordering::Relaxed);
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_make_one_time_limit() {
        let ms = Duration::from_millis;
        let limits = |movetime: Option<u64>, nodes: Option<u64>, infinite: bool| Limits {
            movetime: movetime.map(ms),
            nodes,
            infinite,
            ..Limits::default()
        };
        assert_eq!(time_limit(&limits(None, None, false), 10), Some(DEFAULT_MOVE_TIME));
        assert_eq!(time_limit(&limits(Some(50), None, false), 10), Some(ms(50)));
        assert_eq!(time_limit(&limits(Some(50), Some(10), false), 10), Some(ms(50)));
        assert_eq!(time_limit(&limits(None, Some(10), false), 10), None);
        assert_eq!(time_limit(&limits(None, None, true), 10), None);
        let depth = Limits { depth: Some(3), ..Limits::default() };
        assert_eq!(time_limit(&depth, 10), Some(DEFAULT_MOVE_TIME));
        // With a clock, the first limit to run out: the share or the move time.
        let clock = Some(Clock { left: ms(10_000), inc: ms(0), movestogo: None });
        let with_clock = |movetime: Option<u64>, nodes: Option<u64>, infinite: bool| Limits {
            clock,
            ..limits(movetime, nodes, infinite)
        };
        assert_eq!(time_limit(&with_clock(None, None, false), 19), Some(ms(500)));
        assert_eq!(time_limit(&with_clock(Some(100), None, false), 19), Some(ms(100)));
        assert_eq!(time_limit(&with_clock(Some(900), None, false), 19), Some(ms(500)));
        assert_eq!(time_limit(&with_clock(None, Some(10), false), 19), Some(ms(500)));
        assert_eq!(time_limit(&with_clock(None, None, true), 19), Some(ms(500)));
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_left_and_keeps_a_margin() {
        let ms = Duration::from_millis;
        let clock =
            |left: u64, inc: u64, movestogo: Option<u32>| Clock { left: ms(left), inc: ms(inc), movestogo };
        // 10 s, 19 moves left: a 500 ms margin (a twentieth), 9.5 s over 19 moves.
        assert_eq!(clock_share(&clock(10_000, 0, None), 19), ms(500));
        // movestogo caps the moves: 9.5 s over 5.
        assert_eq!(clock_share(&clock(10_000, 0, Some(5)), 19), ms(1900));
        // ... but a control farther than the game's end does not stretch them.
        assert_eq!(clock_share(&clock(10_000, 0, Some(40)), 19), ms(500));
        // The increments of the moves to come are time to come: (9500 + 18 x 100) / 19.
        assert_eq!(clock_share(&clock(10_000, 100, None), 19), ms(594) + Duration::from_nanos(736_842));
        // Small clocks keep at least 30 ms back; the last move may use all of the rest.
        assert_eq!(clock_share(&clock(300, 0, None), 1), ms(270));
        assert_eq!(clock_share(&clock(300, 0, None), 30), ms(9));
        assert_eq!(clock_share(&clock(20, 0, None), 3), ms(0));
        // A large increment never lets a move use more than the time left less the margin.
        assert_eq!(clock_share(&clock(1_000, 5_000, None), 10), ms(950));
        // No moves left (an estimate of 0) counts as one.
        assert_eq!(clock_share(&clock(1_000, 0, None), 0), ms(950));
    }

    #[test]
    fn the_watchdog_raises_the_budgets_flag_at_the_time_limit_and_not_the_callers() {
        let stop = AtomicBool::new(false);
        let limits = Limits { movetime: Some(Duration::from_millis(20)), ..Limits::default() };
        let raised = with_budget(&limits, 10, &stop, |budget| {
            while !budget.stop_flag().load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            budget.exhausted()
        });
        assert!(raised);
        assert!(!stop.load(Ordering::Relaxed));
    }
}
