//! The largest move size, which `must_place=maximum` demands of every move.
//!
//! A short dive through the first sets of the enumeration finds a valid set (a lower bound, and
//! the answer outright when the whole hand goes down); then each size from the upper bound of
//! `bound.rs` down is sought by an enumeration pruned to the sets that can reach it, until one is
//! found. The answer is exact, and proving that no larger set exists costs only the pruned
//! searches. A soft stop may cut a search that runs past millions of sets short, settling for the
//! largest size found: a safety net for made-up hands, never met in real play.

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

use super::MoveGen;

/// How many sets the search for the largest size visits before a soft stop may cut it short
/// (seconds): a safety net only. With the pruned search every position of the corpus of huge hands
/// from real games (`tests/golden/largest.txt`, the 2,000 positions of docs/contributing.md's figures, and
/// `tools/slow-positions.txt`) is proven within some 20,000 sets and 10 ms, so their moves stay
/// legal whatever the flag says.
const SOFT_STOP_AFTER: u64 = 5_000_000;

impl<'r> MoveGen<'r> {
    /// The size of the largest valid move (0 when only `pass` is legal).
    ///
    /// A short dive finds a valid set (a lower bound); then, from the upper bound of
    /// `MoveGen::growth_bound` down, each size is searched for with every subtree that cannot
    /// reach it pruned, until one is found: the answer is exact, and proving that no larger set
    /// exists costs only the pruned searches. Stopped (the stop flag, or the soft stop after
    /// `SOFT_STOP_AFTER` sets), it returns the largest size found so far.
    pub fn largest_size(&mut self) -> usize {
        debug_assert!(self.placed.is_empty(), "the largest size is asked of the board alone");
        if self.hand.is_empty() {
            return 0;
        }
        let mut visited = 0u64;
        let (mut best, complete) = self.dive(&mut visited);
        if complete || best == self.hand.len() {
            return best;
        }
        let (lo, hi) = self.seed_untried(0);
        let top = self.growth_bound(lo, hi, 0);
        self.unseed(0, lo);
        for size in (best + 1..=top).rev() {
            if self.has_set_of(size, &mut visited) {
                best = size;
                break;
            }
            if self.stopped() || self.settled(best, visited) {
                break;
            }
        }
        best
    }

    /// Whether the soft stop flag is raised.
    pub(super) fn soft_stopped(&self) -> bool {
        self.soft_stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether the soft stop may settle now, with `best` found after `visited` sets.
    pub(super) fn settled(&self, best: usize, visited: u64) -> bool {
        best > 0 && visited > SOFT_STOP_AFTER && self.soft_stopped()
    }

    /// The largest valid set met among the first sets of a depth-first enumeration, a quick
    /// lower bound on the largest size, and whether the enumeration ran to its end (the bound is
    /// then the largest size).
    fn dive(&mut self, visited: &mut u64) -> (usize, bool) {
        const DIVE_SETS: u64 = 2_000;
        let max = self.hand.len();
        let mut best = 0;
        let start = *visited;
        let flow = self.enumerate(0, max, &mut |g| {
            *visited += 1;
            if g.placed.len() > best && g.valid() {
                best = g.placed.len();
            }
            if best == max || *visited - start >= DIVE_SETS {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        (best, flow.is_continue() && !self.stopped())
    }

    /// Whether some valid set has exactly `size` placements (false also when stopped).
    fn has_set_of(&mut self, size: usize, visited: &mut u64) -> bool {
        let mut found = false;
        self.pruned(size, false, |g| {
            let _ = g.enumerate(0, size, &mut |g| {
                *visited += 1;
                if g.placed.len() == size && g.valid() {
                    found = true;
                    return ControlFlow::Break(());
                }
                if g.settled(1, *visited) {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
        });
        found
    }
}
