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
//! Against `greedy` the greedy model is exact, so play against it is what it would be with every
//! opponent modelled as greedy, move for move; against a stronger player the model makes the
//! simulated turns closer to what that player does (what it is worth in matches:
//! docs/archive/strength-history.md, "Opponents as they play"). Each move of the game is looked
//! at once, at the first `go` after it ([`Watch`] keeps what it saw from one `go` to the next), so
//! that watching stays cheap next to the search. The two-player kids' game, whose search does not use the
//! models, is not watched.

use std::sync::atomic::AtomicBool;

use crate::rules::{Game, Move, Position};

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

/// Whether `mv`, a legal move in `before`, was greedy's move: it gains as much now as the best
/// move and leaves no more points open. `None` when the move tells nothing: it was the only legal
/// move, or the position had more than [`WATCH_CAP`] moves.
fn is_greedy_move(before: &Position, mv: &Move) -> Option<bool> {
    let never = AtomicBool::new(false);
    let (best, seen) = greedy_ranked(before, Choices::All, Stop::Answer(&never), 1, WATCH_CAP);
    if seen <= 1 || seen >= WATCH_CAP {
        return None;
    }
    let only = std::slice::from_ref(mv);
    let (played, _) = greedy_ranked(before, Choices::Only(only), Stop::Answer(&never), 1, WATCH_CAP);
    Some(played.first()?.key() >= best.first()?.key())
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
    /// The model of every seat after the moves of `game`. Moves already seen at the same place
    /// of the same game are not looked at again. In the two-player kids' game (points) no move
    /// is looked at: its search takes the opponent's reply of the most points whatever the model.
    pub fn models(&mut self, game: &Game) -> Vec<Model> {
        let mut models = vec![Model::Greedy; usize::from(game.position().rules().players)];
        if super::kids::applies(game.position()) {
            return models;
        }
        for (i, (before, mv)) in game.moves().enumerate() {
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

#[cfg(test)]
mod tests {
    use super::*;

    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use crate::rules::{Rules, Variant};
    use crate::search::greedy::greedy;

    /// Greedy's move in the position, as a move.
    fn greedys(pos: &Position) -> Move {
        let never = AtomicBool::new(false);
        Move::new(greedy(pos, &never).expect("a move in a place phase").placements)
    }

    /// What a move adds to the mover's total in the standings (sheet less hand).
    fn standing_gain(pos: &Position, mv: &Move) -> i64 {
        let seat = pos.to_move();
        let mut after = pos.clone();
        after.play(mv).expect("a legal move");
        after.standings()[seat].total - pos.standings()[seat].total
    }

    /// A legal move of the position that adds less to the mover's standing than greedy's, if
    /// there is one.
    fn another(pos: &Position) -> Option<Move> {
        let best = standing_gain(pos, &greedys(pos));
        pos.movegen().legal_moves().into_iter().find(|mv| standing_gain(pos, mv) < best)
    }

    /// A two-player classic game of `turns` moves: seat 1 always plays greedy's move, seat 2 too
    /// except at its turns in `others` (counted from 0), where it plays another move.
    fn game(turns: usize, others: &[usize]) -> Game {
        let mut game = Game::new(Rules::new(Variant::Classic, 2).expect("2 players"));
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for turn in 0..turns {
            game.draw_random(&mut rng).expect("a draw");
            let pos = game.position();
            let mv = if turn % 2 == 1 && others.contains(&(turn / 2)) {
                another(pos).expect("a move other than greedy's")
            } else {
                greedys(pos)
            };
            game.play(&mv).expect("a legal move");
        }
        game
    }

    #[test]
    fn greedys_move_is_greedy_and_a_move_that_gains_less_is_not() {
        let game = game(12, &[]);
        let mut checked = 0;
        for (before, mv) in game.moves() {
            assert_eq!(is_greedy_move(before, mv), Some(true), "{mv} in {}", before.to_line());
            let other = another(before).expect("a move other than greedy's");
            assert_eq!(is_greedy_move(before, &other), Some(false), "{other} in {}", before.to_line());
            checked += 1;
        }
        assert_eq!(checked, 12);
    }

    #[test]
    fn a_seat_is_strong_from_its_first_move_other_than_greedys_on() {
        // Seat 2's third move (turn 6 of the game) is not greedy's.
        let mut watch = Watch::default();
        for n in 0..=12 {
            let models = watch.models(&game(n, &[2]));
            let expected = if n >= 6 { Model::Strong } else { Model::Greedy };
            assert_eq!(models, vec![Model::Greedy, expected], "after {n} moves");
        }
        // A watch that saw another game sees this one afresh: the same models as a new watch.
        let greedy_only = game(12, &[]);
        assert_eq!(watch.models(&greedy_only), vec![Model::Greedy; 2]);
        assert_eq!(Watch::default().models(&greedy_only), vec![Model::Greedy; 2]);
    }

    /// The two-player kids' game is not watched: its search does not use the models, so not even
    /// a move of fewer points makes a seat strong.
    #[test]
    fn the_two_player_kids_game_is_not_watched() {
        let mut game = Game::new(Rules::new(Variant::Kids, 2).expect("2 players"));
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut others = 0;
        for _ in 0..8 {
            game.draw_random(&mut rng).expect("a draw");
            let pos = game.position().clone();
            let mv = match another(&pos) {
                Some(mv) => {
                    others += 1;
                    mv
                }
                None => greedys(&pos),
            };
            game.play(&mv).expect("a legal move");
        }
        assert!(others >= 4, "only {others} moves of fewer points");
        assert_eq!(Watch::default().models(&game), vec![Model::Greedy; 2]);
    }
}
