//! A game with its history: the position plus the earlier positions, for `undo`, and the moves
//! played, for whoever watches how the players play. The history keeps the last [`MAX_UNDO`]
//! draws and moves: a game can go on for ever with passes (a kids' roll that fits nowhere, a kept
//! classic hand), and a position is some kilobytes.

use std::collections::VecDeque;

use rand::Rng;

use super::error::{DrawError, MoveError, UndoError};
use super::moves::Move;
use super::options::Rules;
use super::position::Position;
use super::scoring::MoveScore;
use super::tiles::Tiles;

/// The most draws and moves a game keeps to take back: many more than any game without passes
/// has (a dice board of 25 x 25 has at most 312 turns of two steps), at some 8 KiB each.
pub const MAX_UNDO: usize = 10_000;

/// A position and the positions before the last [`MAX_UNDO`] draws and moves that led to it.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// The position before each draw and move, oldest first; at most [`MAX_UNDO`].
    history: VecDeque<Position>,
    /// The move of each step of `history` (`None` for a draw).
    moves: VecDeque<Option<Move>>,
}

impl Game {
    /// A new game under these rules.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::new(rules))
    }

    /// A game that starts at a given position (no history to undo).
    pub fn from_position(position: Position) -> Game {
        Game { position, history: VecDeque::new(), moves: VecDeque::new() }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Every move played in this game (of the last [`MAX_UNDO`] steps), oldest first, each with
    /// the position it was played in (whose `to_move` is the seat that played it).
    pub fn moves(&self) -> impl Iterator<Item = (&Position, &Move)> {
        self.history.iter().zip(&self.moves).filter_map(|(before, mv)| Some((before, mv.as_ref()?)))
    }

    /// Draws given values.
    ///
    /// # Errors
    /// As [`Position::draw`]; nothing changes then.
    pub fn draw(&mut self, values: &[u8]) -> Result<Tiles, DrawError> {
        let before = self.position.clone();
        let hand = self.position.draw(values)?;
        self.remember(before, None);
        Ok(hand)
    }

    /// Draws at random as the rules do; returns the values drawn.
    ///
    /// # Errors
    /// As [`Position::draw_random`]; nothing changes then.
    pub fn draw_random(&mut self, rng: &mut impl Rng) -> Result<Vec<u8>, DrawError> {
        let before = self.position.clone();
        let values = self.position.draw_random(rng)?;
        self.remember(before, None);
        Ok(values)
    }

    /// [`Game::draw_random`] with the rounds of the classic start draw
    /// ([`Position::draw_random_seen`]).
    ///
    /// # Errors
    /// As [`Position::draw_random`]; nothing changes then.
    pub fn draw_random_seen(&mut self, rng: &mut impl Rng) -> Result<(Vec<u8>, Vec<Vec<u8>>), DrawError> {
        let before = self.position.clone();
        let drawn = self.position.draw_random_seen(rng)?;
        self.remember(before, None);
        Ok(drawn)
    }

    /// How many [`Game::undo`]s take back a turn: the draw of the turn under way, if it is drawn,
    /// then the last move and the draw before it, as far as the history holds them. 0 when the
    /// history holds no step.
    pub fn turn_steps(&self) -> usize {
        let mut steps = self.moves.iter().rev().peekable();
        let mut count = 0;
        if steps.next_if(|mv| mv.is_none()).is_some() {
            count += 1;
        }
        if steps.next_if(|mv| mv.is_some()).is_some() {
            count += 1;
            if steps.next_if(|mv| mv.is_none()).is_some() {
                count += 1;
            }
        }
        count
    }

    /// Checks and plays a move.
    ///
    /// # Errors
    /// As [`Position::play`]; nothing changes then.
    pub fn play(&mut self, mv: &Move) -> Result<MoveScore, MoveError> {
        let before = self.position.clone();
        let score = self.position.play(mv)?;
        self.remember(before, Some(mv.clone()));
        Ok(score)
    }

    /// Keeps the position before a step, forgetting the oldest beyond [`MAX_UNDO`].
    fn remember(&mut self, before: Position, mv: Option<Move>) {
        if self.history.len() == MAX_UNDO {
            self.history.pop_front();
            self.moves.pop_front();
        }
        self.history.push_back(before);
        self.moves.push_back(mv);
    }

    /// Takes back the last draw or move.
    ///
    /// # Errors
    /// When there is nothing to take back (or only steps older than the last [`MAX_UNDO`]).
    pub fn undo(&mut self) -> Result<(), UndoError> {
        self.position = self.history.pop_back().ok_or(UndoError)?;
        self.moves.pop_back();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::rules::Variant;

    #[test]
    fn the_start_draw_shows_its_rounds_and_seat_1_keeps_the_highest_of_the_last() {
        for seed in 0..200 {
            for players in [2, 3, 6] {
                let rules = Rules::new(Variant::Classic, players).unwrap();
                let mut game = Game::new(rules.clone());
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let (values, rounds) = game.draw_random_seen(&mut rng).unwrap();
                // The same generator draws the same values without the rounds.
                let again = Game::new(rules).draw_random(&mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
                assert_eq!(values, again);
                assert_eq!(rounds[0].len(), usize::from(players));
                for pair in rounds.windows(2) {
                    let best = pair[0][0];
                    assert!(pair[0].iter().all(|&v| v <= best));
                    assert_eq!(pair[1].len(), pair[0].iter().filter(|&&v| v == best).count());
                }
                let last = rounds.last().unwrap();
                assert!(last[1..].iter().all(|&v| v < last[0]), "seed {seed}: {rounds:?}");
                assert_eq!(values[0], last[0]);
                // Later draws have no rounds.
                let mv = game.position().movegen().legal_moves()[0].clone();
                game.play(&mv).unwrap();
                assert!(game.draw_random_seen(&mut rng).unwrap().1.is_empty());
            }
        }
    }

    #[test]
    fn a_turn_is_the_draw_under_way_then_the_last_move_and_its_draw() {
        let mut game = Game::new(Rules::new(Variant::Classic, 2).unwrap());
        assert_eq!(game.turn_steps(), 0);
        game.draw(&[1, 2, 3]).unwrap();
        assert_eq!(game.turn_steps(), 1);
        let mv = game.position().movegen().legal_moves()[0].clone();
        game.play(&mv).unwrap();
        assert_eq!(game.turn_steps(), 2);
        game.draw(&[4, 5]).unwrap();
        assert_eq!(game.turn_steps(), 3);
        for _ in 0..3 {
            game.undo().unwrap();
        }
        assert_eq!(game.position().turn(), 1);
        assert_eq!(game.turn_steps(), 0);
    }
}
