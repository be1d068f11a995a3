//! A game with its history: the position plus every earlier position, for `undo`, and the moves
//! played, for whoever watches how the players play.

use rand::Rng;

use super::error::{DrawError, MoveError, UndoError};
use super::moves::Move;
use super::options::Rules;
use super::position::Position;
use super::scoring::MoveScore;
use super::tiles::Tiles;

/// A position and the positions before each draw and move that led to it.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// The position before each draw and move, oldest first.
    history: Vec<Position>,
    /// The move of each step of `history` (`None` for a draw).
    moves: Vec<Option<Move>>,
}

impl Game {
    /// A new game under these rules.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::new(rules))
    }

    /// A game that starts at a given position (no history to undo).
    pub fn from_position(position: Position) -> Game {
        Game { position, history: Vec::new(), moves: Vec::new() }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Every move played in this game, oldest first, each with the position it was played in
    /// (whose `to_move` is the seat that played it).
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
        self.history.push(before);
        self.moves.push(None);
        Ok(hand)
    }

    /// Draws at random as the rules do; returns the values drawn.
    ///
    /// # Errors
    /// As [`Position::draw_random`]; nothing changes then.
    pub fn draw_random(&mut self, rng: &mut impl Rng) -> Result<Vec<u8>, DrawError> {
        let before = self.position.clone();
        let values = self.position.draw_random(rng)?;
        self.history.push(before);
        self.moves.push(None);
        Ok(values)
    }

    /// Checks and plays a move.
    ///
    /// # Errors
    /// As [`Position::play`]; nothing changes then.
    pub fn play(&mut self, mv: &Move) -> Result<MoveScore, MoveError> {
        let before = self.position.clone();
        let score = self.position.play(mv)?;
        self.history.push(before);
        self.moves.push(Some(mv.clone()));
        Ok(score)
    }

    /// Takes back the last draw or move.
    ///
    /// # Errors
    /// When there is nothing to take back.
    pub fn undo(&mut self) -> Result<(), UndoError> {
        self.position = self.history.pop().ok_or(UndoError)?;
        self.moves.pop();
        Ok(())
    }
}
