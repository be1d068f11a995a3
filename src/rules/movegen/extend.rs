//! Tile-by-tile checking of a move being built: whether a partial set of placements is a legal
//! move as it is, and every placement that can join it so that it stays part of a legal move.
//!
//! The partial set goes on the board first; the sets that extend it are then enumerated from the
//! board and the partial tiles together (Redelmeier over the graph in which both are one root), so
//! every superset of the partial set that could be a move is reached once. A superset counts when
//! it is valid (every tile reachable from the board, double cells fine) and of the right size:
//! exactly the largest valid size under `must_place=maximum`, any size under `maximal` (a valid
//! set always grows into a maximal one, which then holds the partial set too). Small hands, and
//! every hand under `maximum`, sweep every superset once; large hands under `maximal` first look,
//! candidate by candidate, for a small witness move (up to two tiles more), which finds most
//! placements of a huge kept hand at once, and sweep only if some candidate is left unsettled.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::check::adjacent;
use super::{MoveGen, GRID};
use crate::rules::board::Axis;
use crate::rules::error::MoveError;
use crate::rules::geometry::Cell;
use crate::rules::moves::{Move, Placement};
use crate::rules::options::MustPlace;
use crate::rules::position::Position;
use crate::rules::tiles::VALUES;

/// Hands of at most this many tiles left beside the partial set are swept whole; larger ones are
/// searched for small witnesses per candidate placement first under `must_place=maximal`, then
/// swept. (Under `maximum` every witness must have the largest size: no cheap first pass.)
const SWEEP_UP_TO: usize = 4;

/// How many tiles beyond a candidate placement its witness search takes before the sweep.
const WITNESS_EXTRA: usize = 2;

/// What can become of a partial move: the answer of `next`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extensions {
    /// Whether the partial move, as it is, is a legal move now (no placements: whether `pass`
    /// is); `None` only when the search was stopped before that was known.
    pub complete: Option<bool>,
    /// Every placement that can join the partial move so that the result is still part of at
    /// least one legal move, by cell (row by row, left to right), then value. When stopped:
    /// those found so far, each of them right.
    pub next: Vec<Placement>,
    /// Whether the stop flag cut the search short (`next` may then lack placements).
    pub stopped: bool,
}

/// How the extensions are searched: both give the same answer when they run to the end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Strategy {
    /// One enumeration of every superset of the partial set.
    Sweep,
    /// For every placement not yet known to fit, a search for one move that holds it.
    Witness,
}

impl Position {
    /// Tile-by-tile checking of a move being built: whether `partial` is a legal move as it is,
    /// and every placement that can join it so that it stays part of a legal move now (every rule
    /// included, `must_place` among them). Ends early, marked `stopped`, when `stop` is raised.
    ///
    /// # Errors
    /// When no draw has been made or the game is over (as [`Position::check`]); when `partial`
    /// is part of no legal move: the reason [`Position::check`] gives for it as a move, or
    /// [`MoveError::NoCompletion`] when it is valid as far as it goes but cannot reach the size
    /// that `must_place=maximum` demands.
    pub fn extensions(&self, partial: &[Placement], stop: &AtomicBool) -> Result<Extensions, MoveError> {
        self.move_allowed()?;
        self.movegen().with_stop(stop).extensions(partial)
    }
}

impl MoveGen<'_> {
    /// [`Position::extensions`] for this board and hand; stopped by the flag of
    /// [`MoveGen::with_stop`], if any (a soft stop is not used: the answer stays exact). Under
    /// `must_place=maximum` the largest move size is found first: in a huge hand stopped before
    /// that, nothing is known (`complete: None`, no placements).
    ///
    /// # Errors
    /// As [`Position::extensions`], the phase apart.
    pub fn extensions(&mut self, partial: &[Placement]) -> Result<Extensions, MoveError> {
        // A soft stop would settle for a smaller largest size: `next` is exact or stopped.
        let soft_stop = self.soft_stop.take();
        let result = self.extensions_chosen(partial);
        self.soft_stop = soft_stop;
        result
    }

    fn extensions_chosen(&mut self, partial: &[Placement]) -> Result<Extensions, MoveError> {
        let small = self.hand.len() <= partial.len() + SWEEP_UP_TO;
        let strategy = if small || self.rules.must_place == MustPlace::Maximum {
            Strategy::Sweep
        } else {
            Strategy::Witness
        };
        self.extensions_by(partial, strategy)
    }

    pub(super) fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    fn extensions_by(&mut self, partial: &[Placement], strategy: Strategy) -> Result<Extensions, MoveError> {
        let mv = Move::new(partial.to_vec());
        self.hand_ok(&mv)?;
        self.cells_ok(&mv)?;
        let unknown = || Ok(Extensions { complete: None, next: Vec::new(), stopped: true });
        let maximum = self.rules.must_place == MustPlace::Maximum;
        // The size every legal move has under `maximum` (0: only `pass`).
        let required = if maximum { Some(self.largest_size()) } else { None };
        if self.stopped() {
            return unknown();
        }
        let valid = mv.is_pass()
            || match self.place_valid(&mv) {
                Ok(()) => {
                    self.take_back();
                    true
                }
                Err(_) => false,
            };
        let n = partial.len();
        // Under `maximal` a move may hold the whole hand.
        let total = required.unwrap_or(self.hand.len());
        for &p in partial {
            self.push(p);
        }
        let runs_fine = partial.iter().all(|p| self.runs_within(p.cell));
        let rooted = self.connected();
        let mut covered = vec![false; GRID * VALUES];
        if runs_fine && total > n {
            match strategy {
                Strategy::Sweep => self.sweep(total, maximum, rooted, &mut covered),
                Strategy::Witness => {
                    let settled = self.witnesses(total, maximum, rooted, &mut covered);
                    if !settled && !self.stopped() {
                        self.sweep(total, maximum, rooted, &mut covered);
                    }
                }
            }
        }
        let next: Vec<Placement> = self
            .board
            .geometry()
            .cells()
            .iter()
            .flat_map(|&cell| (0..VALUES as u8).map(move |value| Placement { cell, value }))
            .filter(|p| covered[p.cell.index() * VALUES + usize::from(p.value)])
            .collect();
        let witness = if maximum && next.is_empty() && !valid && runs_fine && n > 0 {
            // Valid supersets of any size tell a partial set that is too small from a broken one.
            self.witness(n + self.hand.len(), false, rooted)
        } else {
            None
        };
        self.take_back();
        let stopped = self.stopped();
        let complete = match required {
            Some(size) => Some(valid && n == size),
            None if !valid || !next.is_empty() => Some(false),
            None if stopped => None,
            None => Some(true),
        };
        if stopped || !next.is_empty() || complete != Some(false) {
            return Ok(Extensions { complete, next, stopped });
        }
        match (required, valid || witness.is_some()) {
            (Some(required), true) if required > 0 => {
                let example = self.find_valid(0, required).map_or_else(|| "pass".into(), |m| m.to_string());
                Err(MoveError::NoCompletion { required, example })
            }
            _ => match self.check(&mv) {
                Err(e) => Err(e),
                // Not reached: a legal move is complete. Trust the check if it ever is.
                Ok(()) => Ok(Extensions { complete: Some(true), next, stopped }),
            },
        }
    }

    /// Whether both runs through an occupied cell stay within the limit.
    fn runs_within(&self, cell: Cell) -> bool {
        [Axis::Horizontal, Axis::Vertical]
            .into_iter()
            .all(|axis| self.board.run_through(cell, axis).0 <= self.limit)
    }

    /// Whether every tile of the current set is reachable from the board through tiles of the
    /// set (an empty board: from the centre, which the set must hold).
    fn connected(&self) -> bool {
        if !self.rules.needs_neighbour() {
            return true;
        }
        let set = &self.placed;
        let fresh = self.board.count() == set.len();
        let centre = self.board.geometry().centre();
        let mut reached: Vec<bool> = set
            .iter()
            .map(|p| {
                if fresh {
                    Some(p.cell) == centre
                } else {
                    self.board
                        .neighbours(p.cell)
                        .any(|c| self.board.get(c).is_some() && !set.iter().any(|q| q.cell == c))
                }
            })
            .collect();
        let mut stack: Vec<usize> = (0..set.len()).filter(|&i| reached[i]).collect();
        while let Some(i) = stack.pop() {
            for j in 0..set.len() {
                if !reached[j] && adjacent(set[i].cell, set[j].cell) {
                    reached[j] = true;
                    stack.push(j);
                }
            }
        }
        reached.iter().all(|&r| r)
    }

    /// Whether the current set is a move of the right size: exactly `total` tiles (`exact`) or
    /// any number, reachable from the board, double cells fine.
    fn counts(&mut self, total: usize, exact: bool, rooted: bool) -> bool {
        (!exact || self.placed.len() == total) && (rooted || self.connected()) && self.accept()
    }

    /// Marks every placement of every counted superset of the current set.
    fn sweep(&mut self, total: usize, exact: bool, rooted: bool, covered: &mut [bool]) {
        let n = self.placed.len();
        let _ = self.enumerate(0, total, &mut |g| {
            // A set whose placements are all marked already adds nothing: skip its checks.
            let adds = g.placed[n..].iter().any(|p| !covered[p.cell.index() * VALUES + usize::from(p.value)]);
            if adds && g.counts(total, exact, rooted) {
                for p in &g.placed[n..] {
                    covered[p.cell.index() * VALUES + usize::from(p.value)] = true;
                }
            }
            ControlFlow::Continue(())
        });
    }

    /// A counted superset of the current set (the set itself included), if any; `None` also when
    /// stopped.
    fn witness(&mut self, total: usize, exact: bool, rooted: bool) -> Option<Vec<Placement>> {
        self.witness_within(total, total, exact, rooted)
    }

    /// [`MoveGen::witness`] among the supersets of at most `bound` tiles.
    fn witness_within(
        &mut self,
        bound: usize,
        total: usize,
        exact: bool,
        rooted: bool,
    ) -> Option<Vec<Placement>> {
        if !self.placed.is_empty() && self.counts(total, exact, rooted) {
            return Some(self.placed.clone());
        }
        let mut found = None;
        let _ = self.enumerate(0, bound, &mut |g| {
            if g.counts(total, exact, rooted) {
                found = Some(g.placed.clone());
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        found
    }

    /// For every placement that may join the current set and is not yet marked, looks for a
    /// counted superset holding it with at most [`WITNESS_EXTRA`] more tiles, smallest first, and
    /// marks every placement of the superset found: cheap, and in a huge hand under `maximal` it
    /// finds most placements at once. Returns whether every placement that might join is marked
    /// (then no sweep is needed).
    fn witnesses(&mut self, total: usize, exact: bool, rooted: bool, covered: &mut [bool]) -> bool {
        let n = self.placed.len();
        let reach = self.distances();
        let cells: Vec<Cell> = self.board.geometry().cells().to_vec();
        let first_bound = if exact { total } else { n + 1 };
        let last_bound = total.min(n + 1 + WITNESS_EXTRA);
        let mut settled = true;
        for bound in first_bound..=last_bound {
            settled = true;
            for &cell in &cells {
                if !self.board.is_empty_cell(cell) || usize::from(reach[cell.index()]) > total - n {
                    continue;
                }
                let Some(room) = self.board.room(cell, self.limit) else { continue };
                for value in 0..=room.min(VALUES as u8 - 1) {
                    if self.hand.count(value) == 0 || covered[cell.index() * VALUES + usize::from(value)] {
                        continue;
                    }
                    if self.stopped() {
                        return false;
                    }
                    settled = false;
                    if usize::from(reach[cell.index()]) > bound - n {
                        continue;
                    }
                    // A tile that touches a rooted set keeps it rooted; otherwise every superset
                    // is checked for reachability.
                    let joined = rooted && self.board.has_neighbour(cell);
                    self.push(Placement { cell, value });
                    let found = self.witness_within(bound, total, exact, joined);
                    self.pop();
                    for p in found.iter().flat_map(|m| &m[n..]) {
                        covered[p.cell.index() * VALUES + usize::from(p.value)] = true;
                    }
                }
            }
        }
        // After a round up to `total` every candidate has been searched in full.
        settled || last_bound == total
    }

    /// For every empty cell, how many tiles a move needs at least to reach it from an occupied
    /// cell, itself included (1: it touches one); `u8::MAX` where it cannot. Every cell is 1 when
    /// no neighbour is needed; on an empty board the centre is 1.
    fn distances(&self) -> Vec<u8> {
        let mut dist = vec![u8::MAX; GRID];
        let g = self.board.geometry();
        let mut frontier: Vec<Cell> = Vec::new();
        for &c in g.cells() {
            let start = !self.rules.needs_neighbour()
                || (self.board.count() == 0 && Some(c) == g.centre())
                || self.board.has_neighbour(c);
            if self.board.is_empty_cell(c) && start {
                dist[c.index()] = 1;
                frontier.push(c);
            }
        }
        let mut i = 0;
        while i < frontier.len() {
            let c = frontier[i];
            i += 1;
            let d = dist[c.index()];
            for n in self.board.neighbours(c) {
                if self.board.is_empty_cell(n) && dist[n.index()] == u8::MAX {
                    dist[n.index()] = d.saturating_add(1);
                    frontier.push(n);
                }
            }
        }
        dist
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Rules, Variant};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Both strategies give the same answer on positions of random games of every variant, for
    /// the empty partial set and for partial sets taken from legal moves.
    #[test]
    fn sweep_and_witness_agree() {
        let setups: [(Variant, &[(&str, &str)]); 6] = [
            (Variant::Classic, &[]),
            (Variant::Classic, &[("rules", "cz3")]),
            (Variant::Classic, &[("rules", "cz4")]),
            (Variant::Dice, &[("size", "7")]),
            (Variant::Kids, &[]),
            (Variant::Kids, &[("must_place", "maximal")]),
        ];
        let stop = AtomicBool::new(false);
        for (k, (variant, options)) in setups.iter().enumerate() {
            let rules = Rules::with_options(*variant, 2, options.iter().copied()).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(k as u64);
            let mut game = Game::new(rules);
            for _ in 0..12 {
                if game.position().is_over() {
                    break;
                }
                game.draw_random(&mut rng).unwrap();
                let pos = game.position().clone();
                let moves = pos.movegen().legal_moves();
                let chosen = &moves[rng.random_range(0..moves.len())];
                let take = rng.random_range(0..=chosen.len());
                let partial = &chosen.placements()[..take];
                for partial in [&[][..], partial] {
                    let mut a = pos.movegen().with_stop(&stop);
                    let mut b = pos.movegen().with_stop(&stop);
                    assert_eq!(
                        a.extensions_by(partial, Strategy::Sweep),
                        b.extensions_by(partial, Strategy::Witness),
                        "{:?} on {}",
                        partial,
                        pos.to_line()
                    );
                }
                game.play(chosen).unwrap();
            }
        }
    }
}
