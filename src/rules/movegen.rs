//! Legal move generation, counting and checking: [`MoveGen`], a thin face over one file per
//! algorithm under `movegen/`.
//!
//! A move is a set of placements that some order makes legal: each tile next to an occupied cell
//! when it is put down, no run over the limit, and double cells only with a run of 10 to 12 (or by
//! the forced exception). Every question asked of the generator is answered by the enumeration of
//! the sets of cells connected to the board (`enumerate.rs`), with what each question needs on
//! top:
//! - which complete sets are valid for the double cells (`witness.rs`, without searching orders),
//!   and in which order (`forced.rs`, the order search of the forced exception);
//! - under `must_place=maximum`, the size every move must have (`largest.rs`, with the upper bound
//!   of `bound.rs` that prunes the sets that cannot reach a size);
//! - under `must_place=maximal`, whether a valid set has a valid superset (`maximal.rs`);
//! - whether a move given by a player is legal, and the reason when not (`check.rs`);
//! - one- and two-tile hands counted without listing (`small.rs`), and the placements that may
//!   follow a move being built (`extend.rs`).
//!
//! The face decides which of them a count or a listing runs, and in which order the moves come:
//! the enumeration's, which every path keeps (pruning only skips subtrees that hold no move).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::Rng;

use super::board::Board;
use super::geometry::{Cell, Square, GRID, STRIDE};
use super::moves::{Move, Placement};
use super::options::{MustPlace, Rules, Variant};
use super::tiles::{Tiles, VALUES};

mod bound;
mod check;
mod enumerate;
mod extend;
mod forced;
mod largest;
mod maximal;
mod small;
mod witness;

pub use extend::Extensions;
use forced::{Need, OrderBuffers};

/// Hands of at most this many tiles are counted by one plain enumeration; larger ones find the
/// largest size first and count only the sets that can reach it.
const SMALL_HAND: usize = 3;

/// A move generator over one board and hand. It works on its own copy of the board.
pub struct MoveGen<'r> {
    rules: &'r Rules,
    board: Board,
    hand: Tiles,
    limit: u8,
    /// Whether double cells need a run of 10 to 12 (only in the classic game).
    doubles_matter: bool,
    /// Placements of the set being built, in the order they went down.
    placed: Vec<Placement>,
    /// What the enumeration knew of each placement of `placed` when it put it down
    /// ([`forced::Built::Unknown`] for those put down otherwise): whether the order they went down
    /// in serves the forced exception.
    built: Vec<forced::Built>,
    /// How many of `placed` lie on double cells.
    on_doubles: usize,
    /// A legal order for the current set when it needs one other than `placed`.
    order: Vec<Placement>,
    /// Redelmeier's marks, one array per nesting level (level 1 searches supersets); empty until
    /// the level's first enumeration.
    marks: [Vec<bool>; 2],
    /// The untried cells of every level of the recursion, as segments of one buffer.
    untried: Vec<Cell>,
    /// Normal cells each value fits on, on the board the generator started from (lazy).
    base_fits: Option<[Vec<Cell>; VALUES]>,
    /// The empty squares other than normal cells beside the tiles of the board the generator
    /// started from, computed with `base_fits`: with it, every cell that could take a tile then.
    other_open: Vec<Cell>,
    /// The room of every normal cell that touched the board the generator started from, by cell
    /// index, computed with `base_fits` (`None` elsewhere).
    base_room: Vec<Option<u8>>,
    /// By cell index, computed with `base_fits`: whether the cell has a neighbour on the board the
    /// generator started from.
    base_touch: Vec<bool>,
    /// When raised, every enumeration ends at once: counts and listings are then partial.
    stop: Option<&'r AtomicBool>,
    /// When not 0, the enumeration skips every subtree that cannot reach this many placements
    /// (by [`MoveGen::growth_bound`]): sets below this size may then be missed.
    prune_below: usize,
    /// Whether a valid set of `prune_below` placements is known to exist (the largest size,
    /// proven before its moves are counted or listed).
    size_reached: bool,
    /// Whether each set tries its normal cells before its double cells (classic hands of more
    /// than [`SMALL_HAND`] tiles): a tile on a double cell must lie on a run of 10 to 12 or be
    /// forced there, so the sets of a given size that are valid are met sooner.
    doubles_last: bool,
    /// Whether the sink of the enumeration counts exactly the sets of `max` placements that are
    /// valid (`accept`), and nothing else: the enumeration then counts some of them itself, in
    /// `leaf_count`, without putting them down or handing them to the sink.
    count_leaves: bool,
    /// The sets counted by the enumeration itself while `count_leaves` holds.
    leaf_count: u64,
    /// With `count_leaves`: whether the sink counts nothing below `max` placements (under
    /// `must_place=maximum`), so that the enumeration does not call it there.
    leaves_only: bool,
    /// Buffers of [`MoveGen::forced_order`], boxed so that taking them out for a search moves a
    /// pointer (`None` until the first search, and during one).
    order_buffers: Option<Box<OrderBuffers>>,
    /// Buffers of [`MoveGen::forced_by_fixpoint`], kept the same way.
    witness_buffers: Option<Box<witness::WitnessBuffers>>,
    /// Buffers of [`MoveGen::growth_bound`].
    scratch: bound::Scratch,
    /// When raised, the search for the largest move size ends as soon as it has found one valid
    /// move, settling for the largest size found so far (see [`MoveGen::with_soft_stop`]).
    soft_stop: Option<&'r AtomicBool>,
}

type Sink<'s, 'r> = dyn FnMut(&mut MoveGen<'r>) -> ControlFlow<()> + 's;

impl<'r> MoveGen<'r> {
    /// A generator for a hand on a board under some rules.
    pub fn new(rules: &'r Rules, board: &Board, hand: Tiles) -> MoveGen<'r> {
        MoveGen {
            rules,
            board: board.clone(),
            hand,
            limit: rules.limit(),
            doubles_matter: rules.variant == Variant::Classic,
            placed: Vec::with_capacity(8),
            built: Vec::with_capacity(8),
            on_doubles: 0,
            order: Vec::new(),
            marks: [Vec::new(), Vec::new()],
            untried: Vec::new(),
            base_fits: None,
            other_open: Vec::new(),
            base_room: Vec::new(),
            base_touch: Vec::new(),
            stop: None,
            soft_stop: None,
            prune_below: 0,
            size_reached: false,
            doubles_last: Self::doubles_last(rules, hand),
            count_leaves: false,
            leaf_count: 0,
            leaves_only: false,
            scratch: bound::Scratch::new(),
            order_buffers: None,
            witness_buffers: None,
        }
    }

    /// Whether the sets of a hand try their normal cells before their double cells: classic hands
    /// of more than [`SMALL_HAND`] tiles.
    fn doubles_last(rules: &Rules, hand: Tiles) -> bool {
        rules.variant == Variant::Classic && hand.len() > SMALL_HAND
    }

    /// For players that must answer with a move: once `stop` is raised, a listing that has yielded
    /// a legal move ends at the next set it visits (rather than at the next legal move, which in a
    /// huge hand may be far away); one that has not goes on to its first legal move. Proving that
    /// no larger move exists (`must_place=maximum`) is cut short only after a first 5,000,000 sets
    /// (seconds), and the largest size found so far is taken, so the listing still yields moves. A
    /// safety net: the pruned proof takes at most about 10 ms in the hands of real games, but
    /// made-up hands on open boards may take longer; the move may then place fewer tiles than the
    /// rule demands.
    pub fn with_soft_stop(mut self, stop: &'r AtomicBool) -> MoveGen<'r> {
        self.soft_stop = Some(stop);
        self
    }

    /// Puts another hand in place of the generator's on the same board, keeping what it worked
    /// out about the board (perft counts every possible draw this way).
    pub fn set_hand(&mut self, hand: Tiles) {
        debug_assert!(self.placed.is_empty(), "the hand changes between enumerations only");
        self.hand = hand;
        self.doubles_last = Self::doubles_last(self.rules, hand);
    }

    /// Makes every enumeration end as soon as `stop` is raised (checked at every set). What it
    /// returned after that is partial: the caller knows from the flag.
    pub fn with_stop(mut self, stop: &'r AtomicBool) -> MoveGen<'r> {
        self.stop = Some(stop);
        self
    }

    /// The set being visited, in an order in which it is legal.
    fn current(&self) -> &[Placement] {
        if self.order.is_empty() {
            &self.placed
        } else {
            &self.order
        }
    }

    /// Counts the valid sets by size (index 0 unused).
    pub fn count_by_size(&mut self) -> Vec<u64> {
        let mut counts = vec![0u64; self.hand.len() + 1];
        let max = self.hand.len();
        let _ = self.enumerate(0, max, &mut |g| {
            if g.valid() {
                counts[g.placed.len()] += 1;
            }
            ControlFlow::Continue(())
        });
        counts
    }

    /// Some valid move that places at least one tile, if any.
    pub fn any_move(&mut self) -> Option<Move> {
        self.find_valid(0, 1)
    }

    /// Calls `visit` with every legal move once, in an order in which it is legal; `pass` (an
    /// empty slice) when it is the only legal move. Stops when `visit` breaks, or when the stop
    /// flag ([`MoveGen::with_stop`]) is raised: then `pass` is never visited.
    pub fn for_each_legal(
        &mut self,
        visit: &mut dyn FnMut(&[Placement]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let max = self.hand.len();
        let mut any = false;
        let flow = match self.rules.must_place {
            MustPlace::Maximum => {
                let size = self.largest_size();
                if self.stopped() {
                    // The size is not proven: no set of it is a legal move yet, nor is `pass`.
                    return ControlFlow::Break(());
                }
                let prune = if self.hand.len() > SMALL_HAND { size } else { 0 };
                self.pruned(prune, true, |g| {
                    g.enumerate(0, size, &mut |g| {
                        if any && g.soft_stopped() {
                            return ControlFlow::Break(());
                        }
                        if g.placed.len() == size && g.accept() {
                            any = true;
                            return visit(g.current());
                        }
                        ControlFlow::Continue(())
                    })
                })
            }
            MustPlace::Maximal => self.enumerate(0, max, &mut |g| {
                if any && g.soft_stopped() {
                    return ControlFlow::Break(());
                }
                if g.is_maximal_move(Need::Order) {
                    any = true;
                    return visit(g.current());
                }
                ControlFlow::Continue(())
            }),
        };
        if !any && flow.is_continue() {
            return visit(&[]);
        }
        flow
    }

    /// The number of legal moves (1 when only `pass` is legal), without listing them; stopped
    /// ([`MoveGen::with_stop`]), the number found so far.
    pub fn legal_count(&mut self) -> u64 {
        if self.hand.len() <= 2 {
            return self.count_small();
        }
        let count = match self.rules.must_place {
            MustPlace::Maximum if self.hand.len() <= SMALL_HAND => {
                self.count_by_size().into_iter().rev().find(|&n| n > 0).unwrap_or(0)
            }
            MustPlace::Maximum => {
                let size = self.largest_size();
                if self.stopped() {
                    return 0;
                }
                let mut n = 0u64;
                let leaves = self.pruned(size, true, |g| {
                    g.counting_leaves(true, |g| {
                        g.enumerate(0, size, &mut |g| {
                            if g.placed.len() == size && g.valid() {
                                n += 1;
                            }
                            ControlFlow::Continue(())
                        })
                    })
                });
                n + leaves
            }
            MustPlace::Maximal => {
                // A set of the whole hand has no superset: it is maximal when valid.
                let mut n = 0u64;
                let max = self.hand.len();
                let leaves = self.counting_leaves(false, |g| {
                    g.enumerate(0, max, &mut |g| {
                        if g.is_maximal_move(Need::Verdict) {
                            n += 1;
                        }
                        ControlFlow::Continue(())
                    })
                });
                n + leaves
            }
        };
        // Stopped, the count so far: `pass` is legal only when a whole search found nothing.
        if self.stopped() {
            count
        } else {
            count.max(1)
        }
    }

    /// A uniformly random legal move and how many moves it chose from: reservoir sampling over
    /// the stream of legal moves, so nothing is materialised. Uniform among the first `cap` moves
    /// when there are more, or among those seen when the soft stop flag is raised.
    pub fn random_legal(&mut self, rng: &mut impl Rng, cap: u64) -> (Move, u64) {
        let soft_stop = self.soft_stop;
        let mut chosen = Move::pass();
        let mut seen = 0u64;
        let _ = self.for_each_legal(&mut |placements| {
            seen += 1;
            if rng.random_range(0..seen) == 0 {
                chosen = Move::new(placements.to_vec());
            }
            if seen >= cap || soft_stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        (chosen, seen)
    }

    /// Every legal move, materialised. Prefer [`MoveGen::for_each_legal`] for large hands.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut moves = Vec::new();
        let _ = self.for_each_legal(&mut |p| {
            moves.push(Move::new(p.to_vec()));
            ControlFlow::Continue(())
        });
        moves
    }
}
