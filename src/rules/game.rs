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
