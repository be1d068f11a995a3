//! How `search` expects the other players to move in its simulated turns, from what each has
//! played in this game.
//!
//! A player who has played nothing but `greedy`'s move so far (the most points now, greedy's
//! tie-break allowed) is taken to play it again: the simulated turns are then exactly what such a
//! player does. Anyone who has played another move is taken to choose as the engine chooses its
//! own simulated turns: the best of greedy's few best moves by the evaluation of their sheet. A
//! strong opponent keeps setups for later and does not give up a cross for a point now; charging
//! every candidate with what such a player makes of it values denial and setups as they will be
//! played. With no moves to go by (a game given as a position line, or a seat that has not moved
//! yet) a player counts as greedy.
//!
//! Measured (tools/STRENGTH.md, "Opponents as they play"): modelling a search engine as a strong
//! player instead of greedy won 57.8% of 200 two-player games at 300,000 nodes against the same
//! engine modelling it as greedy; against `greedy` itself the greedy model is exact, and play is
//! unchanged.

use std::sync::atomic::AtomicBool;

use crate::rules::{Move, Phase, Position};

use super::greedy::greedy_ranked;
use super::scan::{Choices, Stop};

/// How the search expects a seat to choose its moves in a simulated turn.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Model {
    /// `greedy`'s move: the most points now.
    #[default]
    Greedy,
    /// The best of greedy's few best moves by the evaluation, as the engine chooses its own.
    Strong,
}

/// The most legal moves looked at to tell whether a move was greedy's: a position with more (a
/// large kept hand) tells nothing, so that watching stays quick.
const WATCH_CAP: u64 = 5_000;

/// Whether `mv`, played in `before`, was greedy's move: it gains as much now as the best move
/// and leaves no more points open. `None` when the move tells nothing: it was the only legal
/// move, the position had more than [`WATCH_CAP`] moves, or the move is not legal there.
pub fn is_greedy_move(before: &Position, mv: &Move) -> Option<bool> {
    if before.phase() != Phase::Place || before.check(mv).is_err() {
        return None;
    }
    let never = AtomicBool::new(false);
    let (best, seen) = greedy_ranked(before, Choices::All, Stop::Answer(&never), 1, WATCH_CAP);
    if seen <= 1 || seen >= WATCH_CAP {
        return None;
    }
    let only = std::slice::from_ref(mv);
    let (played, _) = greedy_ranked(before, Choices::Only(only), Stop::Answer(&never), 1, WATCH_CAP);
    let (best, played) = (best.first()?, played.first()?);
    Some(played.key() >= best.key())
}

/// What has been seen of a game's moves, kept from one `go` to the next so that each move is
/// looked at once.
#[derive(Clone, Debug, Default)]
pub struct Watch {
    seen: Vec<Seen>,
}

/// One move seen: where it was played, what it was, and whether it was greedy's.
#[derive(Clone, Debug)]
struct Seen {
    before: Position,
    mv: Move,
    greedy: Option<bool>,
}

impl Watch {
    /// The model of every seat (`seats` of them) after the game's moves, oldest first, each with
    /// the position it was played in ([`crate::rules::Game::moves`]). Moves already seen at the
    /// same place of the same game are not looked at again.
    pub fn models<'a>(
        &mut self,
        moves: impl Iterator<Item = (&'a Position, &'a Move)>,
        seats: usize,
    ) -> Vec<Model> {
        let mut models = vec![Model::Greedy; seats];
        for (i, (before, mv)) in moves.enumerate() {
            let known = self.seen.get(i).is_some_and(|s| s.mv == *mv && s.before == *before);
            if !known {
                self.seen.truncate(i);
                self.seen.push(Seen {
                    before: before.clone(),
                    mv: mv.clone(),
                    greedy: is_greedy_move(before, mv),
                });
            }
            if self.seen[i].greedy == Some(false) {
                if let Some(model) = models.get_mut(before.to_move()) {
                    *model = Model::Strong;
                }
            }
        }
        models
    }
}
