//! The budget of a search: its limits, its node count and its one clock. The limits become one
//! time limit ([`time_limit`]); while a search runs under a time limit, a watchdog raises the
//! search's own stop flag when the time is up or the caller's stop flag goes up, so a move
//! generator deep in a huge hand, which only sees a flag, stops too.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{Limits, DEFAULT_MOVE_TIME};

/// How often the watchdog looks at the clock and the caller's stop flag.
const WATCH_INTERVAL: Duration = Duration::from_millis(1);

/// The time a search may take under these limits: the move time if one is given; with no node
/// limit and no `infinite`, [`DEFAULT_MOVE_TIME`]; otherwise none (a node limit alone stays
/// deterministic: no clock then).
pub(crate) fn time_limit(limits: &Limits) -> Option<Duration> {
    match limits.movetime {
        Some(t) => Some(t),
        None if limits.nodes.is_none() && !limits.infinite => Some(DEFAULT_MOVE_TIME),
        None => None,
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
    /// A budget starting now whose stop flag is `stop` (no watchdog: see [`with_budget`]).
    pub(crate) fn new(limits: &'a Limits, stop: &'a AtomicBool) -> Budget<'a> {
        Budget {
            limits,
            stop,
            started: Instant::now(),
            time_limit: time_limit(limits),
            nodes: AtomicU64::new(0),
        }
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

/// Runs `work` with the budget of `limits`. Under a time limit a watchdog thread raises the
/// budget's own stop flag when the time is up or `stop` goes up, and ends with `work`; the
/// caller's `stop` is never written, so a caller that waits for it (`go infinite`) still waits.
pub(crate) fn with_budget<R>(limits: &Limits, stop: &AtomicBool, work: impl FnOnce(&Budget<'_>) -> R) -> R {
    let Some(limit) = time_limit(limits) else {
        return work(&Budget::new(limits, stop));
    };
    let own_stop = AtomicBool::new(stop.load(Ordering::Relaxed));
    let finished = AtomicBool::new(false);
    let budget = Budget::new(limits, &own_stop);
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
        assert_eq!(time_limit(&limits(None, None, false)), Some(DEFAULT_MOVE_TIME));
        assert_eq!(time_limit(&limits(Some(50), None, false)), Some(ms(50)));
        assert_eq!(time_limit(&limits(Some(50), Some(10), false)), Some(ms(50)));
        assert_eq!(time_limit(&limits(None, Some(10), false)), None);
        assert_eq!(time_limit(&limits(None, None, true)), None);
        let depth = Limits { depth: Some(3), ..Limits::default() };
        assert_eq!(time_limit(&depth), Some(DEFAULT_MOVE_TIME));
    }

    #[test]
    fn the_watchdog_raises_the_budgets_flag_at_the_time_limit_and_not_the_callers() {
        let stop = AtomicBool::new(false);
        let limits = Limits { movetime: Some(Duration::from_millis(20)), ..Limits::default() };
        let raised = with_budget(&limits, &stop, |budget| {
            while !budget.stop_flag().load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            budget.exhausted()
        });
        assert!(raised);
        assert!(!stop.load(Ordering::Relaxed));
    }
}
