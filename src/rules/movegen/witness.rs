//! Whether the tiles of a complete set that lie on double cells off a run of 10 to 12 (the
//! *needy* tiles) can all be forced there, decided without searching orders: for each needy
//! tile, the largest set of tiles that may go down before it, found as a greatest fixpoint.
//!
//! Take one needy tile `d` of value `v`, and `P` the tiles that go down before it in some order.
//! The order forces `d` when every tile of `P` touched the board or an earlier tile when it went
//! down, `d` touches the board or `P`, and every normal cell that is empty with `P` down and
//! touches the board or `P` has room below `v` then. For a normal cell, being *touched* by `P`
//! and being *closed* by `P` (a tile of `P` on it, or a run beside it that `P` makes too long
//! for `v`) both only grow with `P`. So when the tiles allowed so far, `A`, touch a cell that
//! they do not close, no `P` inside `A` closes it either, and every tile beside it leaves `A`;
//! so does every tile no longer connected to the board through `A`. Repeated until nothing
//! leaves, `A` contains every `P` that serves, and serves itself when `d` touches the board or
//! `A`. A cell that touches the board before the set and that the whole of `A` does not close
//! refuses `d` at once.
//!
//! With several needy tiles, the one that goes down last has every other needy tile in its `P`;
//! and if any order serves, one serves whose tiles before that last tile are exactly its fixpoint
//! `A` (every `P` that serves lies in `A`, and `A` serves too). So each needy tile is tried as the
//! last, and the others are settled the same way inside its `A`. The tiles after the last needy
//! tile go down in any order that keeps each touching: none needs forcing, and runs that end
//! within the limit were within it all along.
//!
//! This settles, for every enumeration, whether a set that the order it was built in does not
//! serve is valid at all: a few passes over the cells around the set instead of a search over the
//! subsets of its tiles. Most such sets are refused, and end here; a count ends here with the
//! others too ([`super::forced::Need::Verdict`]). The order search of `forced.rs` still runs for
//! the others of a listing, to find the order it writes (its first, so that the listings stay as
//! they were), and for the check of a given move, to give the reason of a refusal; under debug
//! assertions every answer here is checked against it.

use super::forced::{all_of, bit, holds, tiles_of, Mask};
use super::MoveGen;
use crate::rules::geometry::{Cell, Square, GRID, STRIDE};

/// A normal cell that may take a needy value at some point of an order.
#[derive(Copy, Clone)]
struct Watched {
    cell: usize,
    /// The set's tile on the cell, if any (as a mask).
    own: Mask,
    /// The set's tiles beside the cell.
    beside: Mask,
    /// Whether the cell touches the board before the set (it is then touched in every order).
    on_board: bool,
}

/// The buffers of [`MoveGen::forced_by_fixpoint`], kept from one set to the next.
#[derive(Default)]
pub(super) struct WitnessBuffers {
    /// By cell index: 1 + the index of the set's tile on the cell, 0 elsewhere (all 0 between
    /// calls; allocated on the first).
    slot: Vec<u8>,
    /// By cell index: whether the cell is among `near`, while [`MoveGen::fill_near`] fills it
    /// (all false between sets).
    seen: Vec<bool>,
    /// The normal squares of the set and beside it that do not touch the board before the set
    /// (read once a set, by [`MoveGen::around`]): each may come to take a needy value.
    near: Vec<Watched>,
    /// Whether `near` holds the current set's squares.
    near_filled: bool,
    /// The normal cells that took the needy value at hand on the board before the set.
    watched: Vec<Watched>,
    /// For each tile of the set, the set's tiles beside it.
    touching: Vec<Mask>,
    /// For each tile of the set, the largest room, with the whole set down, of the empty normal
    /// cells beside it: a needy value up to it fits there whenever the tile is down.
    room_beside: Vec<u8>,
}

impl<'r> MoveGen<'r> {
    /// For the complete current set, whose needy tiles are `needy`: whether some order forces
    /// every one of them (see the module comment). `None` where the rules or the board leave the
    /// question to the order search: no neighbour needed, or an empty board before the set (the
    /// centre rule).
    pub(super) fn forced_by_fixpoint(&mut self, needy: Mask) -> Option<bool> {
        let n = self.placed.len();
        if !self.rules.needs_neighbour() || self.board.count() == n || n >= Mask::BITS as usize {
            return None;
        }
        self.ensure_base_fits();
        let mut buffers = self.witness_buffers.take().unwrap_or_default();
        if buffers.slot.is_empty() {
            buffers.slot = vec![0; GRID];
            buffers.seen = vec![false; GRID];
        }
        for (i, p) in self.placed.iter().enumerate() {
            buffers.slot[p.cell.index()] = i as u8 + 1;
        }
        // The most frequent refusal first: a needy tile cut off from the board, read from the
        // squares around it alone. Then a normal cell that took a needy value on the board before
        // the set and still takes it with the whole set down: it takes it in every order.
        let forced = !tiles_of(needy).any(|d| self.cut_off(d, &buffers.slot))
            && !tiles_of(needy).any(|d| self.fits_in_every_order(d).is_some())
            && {
                let starts = self.around(&mut buffers);
                self.chain(needy, all_of(n), starts, &mut buffers)
            };
        for p in &self.placed {
            buffers.slot[p.cell.index()] = 0;
        }
        self.witness_buffers = Some(buffers);
        Some(forced)
    }

    /// Whether needy tile `d` can never be forced, read from the squares around it: it does not
    /// touch the board before the set, and every tile of the set beside it lies beside an empty
    /// normal cell that takes `d`'s value with the whole set down (and so whenever that tile is
    /// down, since rooms only shrink), so no tile may go before it.
    /// (`slot` maps cells to the set's tiles, as in [`WitnessBuffers::slot`].)
    pub(super) fn cut_off(&self, d: usize, slot: &[u8]) -> bool {
        let value = self.placed[d].value;
        around(self.placed[d].cell.index()).into_iter().all(|m| {
            if slot[m] == 0 {
                self.board.get(Cell::from_index(m)).is_none()
            } else {
                around(m)
                    .into_iter()
                    .any(|c| slot[c] == 0 && self.room_of_normal(c).is_some_and(|r| value <= r))
            }
        })
    }

    /// The room of an empty normal cell (by index) with the current board, `None` for any other
    /// square or no room.
    #[inline]
    fn room_of_normal(&self, c: usize) -> Option<u8> {
        let cell = Cell::from_index(c);
        if self.board.geometry().square_at(c) != Square::Normal || !self.board.is_empty_cell(cell) {
            return None;
        }
        self.board.room(cell, self.limit)
    }

    /// One pass over the squares beside the set's tiles, filling `touching` and `room_beside`;
    /// returns the tiles that touch the board before the set. `near` is left to
    /// [`MoveGen::fill_near`], for the sets that need it.
    fn around(&self, buffers: &mut WitnessBuffers) -> Mask {
        let WitnessBuffers { slot, near, near_filled, touching, room_beside, .. } = buffers;
        touching.clear();
        room_beside.clear();
        near.clear();
        *near_filled = false;
        let on_board = |c: usize| slot[c] == 0 && self.board.get(Cell::from_index(c)).is_some();
        let mut starts = 0;
        for (j, p) in self.placed.iter().enumerate() {
            let mut beside: Mask = 0;
            let mut room = 0;
            for m in around(p.cell.index()) {
                if slot[m] != 0 {
                    beside |= bit(usize::from(slot[m]) - 1);
                } else if on_board(m) {
                    starts |= bit(j);
                } else if let Some(r) = self.room_of_normal(m) {
                    room = room.max(r);
                }
            }
            touching.push(beside);
            room_beside.push(room);
        }
        starts
    }

    /// Fills `near`, once a set: the normal squares of the set and beside it that touch no tile
    /// of the board before the set. With none of the set down their runs are empty, so each may
    /// take any value once a tile of the set beside it is down (a square that touches that board
    /// took the value there, and is among the cells that did, or never takes it).
    fn fill_near(&self, buffers: &mut WitnessBuffers) {
        let WitnessBuffers { slot, seen, near, near_filled, .. } = buffers;
        if std::mem::replace(near_filled, true) {
            return;
        }
        let g = self.board.geometry();
        let on_board = |c: usize| slot[c] == 0 && self.board.get(Cell::from_index(c)).is_some();
        for p in &self.placed {
            for m in around(p.cell.index()) {
                if seen[m] || g.square_at(m) != Square::Normal || on_board(m) || self.base_touch[m] {
                    continue;
                }
                seen[m] = true;
                near.push(Watched {
                    cell: m,
                    own: own_of(slot, m),
                    beside: beside_of(slot, m),
                    on_board: false,
                });
            }
        }
        for w in near.iter() {
            seen[w.cell] = false;
        }
    }

    /// Whether the needy tiles `needy` can all be forced with only the tiles of `allowed` (which
    /// holds them) going down before the last of them.
    fn chain(&self, needy: Mask, allowed: Mask, starts: Mask, buffers: &mut WitnessBuffers) -> bool {
        if needy == 0 {
            return true;
        }
        for last in tiles_of(needy) {
            let others = needy & !bit(last);
            let Some(before) = self.greatest_before(last, allowed & !bit(last), starts, buffers) else {
                continue;
            };
            if others & !before != 0 {
                continue;
            }
            if self.chain(others, before, starts, buffers) {
                return true;
            }
        }
        false
    }

    /// The fixpoint for needy tile `d` within `allowed`: the largest set of tiles that may go
    /// down before it in an order that forces it, if any order does.
    fn greatest_before(
        &self,
        d: usize,
        allowed: Mask,
        starts: Mask,
        buffers: &mut WitnessBuffers,
    ) -> Option<Mask> {
        let value = self.placed[d].value;
        let WitnessBuffers { touching, room_beside, .. } = buffers;
        // A tile beside an empty normal cell that takes the value with the whole set down never
        // goes before `d`; the tiles left must still reach it from the board.
        let waiting = mask_of(room_beside.iter().map(|&room| value <= room));
        let mut allowed = reached(starts & allowed & !waiting, allowed & !waiting, touching);
        if !holds(starts, d) && touching[d] & allowed == 0 {
            return None;
        }
        // The normal cells that may take the value at some point: those that took it on the
        // board before the set (each touches it), and those of `near` (rooms only shrink as
        // tiles go down).
        self.fill_near(buffers);
        let WitnessBuffers { slot, near, watched, touching, .. } = buffers;
        watched.clear();
        let base = self.base_fits.as_ref().expect("computed by forced_by_fixpoint");
        for &c in &base[usize::from(value)] {
            let c = c.index();
            watched.push(Watched {
                cell: c,
                own: own_of(slot, c),
                beside: beside_of(slot, c),
                on_board: true,
            });
        }
        let mut refused = false;
        loop {
            let mut leaving: Mask = 0;
            for w in watched.iter().chain(near.iter()) {
                let touched = w.on_board || w.beside & allowed != 0;
                if !touched || w.own & allowed != 0 || !self.takes_with(w.cell, value, allowed, slot) {
                    continue;
                }
                if w.on_board {
                    refused = true;
                    break;
                }
                leaving |= w.beside & allowed;
            }
            if refused || leaving == 0 {
                break;
            }
            allowed &= !leaving;
            allowed = reached(starts & allowed, allowed, touching);
        }
        let reaches = holds(starts, d) || touching[d] & allowed != 0;
        (!refused && reaches).then_some(allowed)
    }

    /// Whether the empty cell `c` (index) takes `value` with the board before the set and the
    /// set's tiles in `down` on it (`slot` maps cells to the set's tiles).
    fn takes_with(&self, c: usize, value: u8, down: Mask, slot: &[u8]) -> bool {
        let present = |m: usize| match self.board.get(Cell::from_index(m)) {
            Some(v) if slot[m] == 0 || holds(down, usize::from(slot[m]) - 1) => Some(v),
            _ => None,
        };
        let arm = |step: usize, forward: bool| {
            let mut sum = 0u8;
            let mut m = c;
            loop {
                m = if forward { m + step } else { m - step };
                match present(m) {
                    Some(v) => sum += v,
                    None => return sum,
                }
            }
        };
        let across = arm(1, false) + arm(1, true);
        let down_sum = arm(STRIDE, false) + arm(STRIDE, true);
        across.max(down_sum) + value <= self.limit
    }
}

/// The four squares beside a square (by index).
#[inline]
fn around(c: usize) -> [usize; 4] {
    [c - 1, c + 1, c - STRIDE, c + STRIDE]
}

/// The set's tile on square `c` (by index), as a mask (`slot` as in [`WitnessBuffers::slot`]).
fn own_of(slot: &[u8], c: usize) -> Mask {
    if slot[c] != 0 {
        bit(usize::from(slot[c]) - 1)
    } else {
        0
    }
}

/// The set's tiles beside square `c` (by index).
fn beside_of(slot: &[u8], c: usize) -> Mask {
    around(c).into_iter().fold(0, |mask, m| mask | own_of(slot, m))
}

/// The tiles (by index) for which `pred` yields true.
fn mask_of(pred: impl Iterator<Item = bool>) -> Mask {
    pred.enumerate().filter(|&(_, yes)| yes).fold(0, |mask, (i, _)| mask | bit(i))
}

/// The tiles of `allowed` connected to `from` through tiles of `allowed` (`touching` gives each
/// tile's neighbours in the set).
pub(super) fn reached(from: Mask, allowed: Mask, touching: &[Mask]) -> Mask {
    let mut reached = from;
    let mut fresh = from;
    while fresh != 0 {
        let j = fresh.trailing_zeros() as usize;
        fresh &= fresh - 1;
        let grown = touching[j] & allowed & !reached;
        reached |= grown;
        fresh |= grown;
    }
    reached
}
