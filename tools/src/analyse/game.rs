//! A game to analyse, read from one input line: a `position startpos ... moves ...` line or a
//! `zatre-match` record. It is parsed with the engine's own command parser and replayed on the
//! rules core, so that every turn is known (who moved, what) before an engine is asked anything,
//! and bad input is rejected with the reason before any search is spent on it.

use serde::Deserialize;
use thiserror::Error;
use zatre::protocol::{parse_command, replay_command, Command, PositionArgs, Token, MAX_LINE_BYTES};
use zatre::rules::{Move, Phase, Position, Rules};

/// Why an input line is not a game that can be analysed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    /// A line starting with `{` that is not a JSON object with a `replay` string.
    #[error("not a zatre-match record: {0}")]
    Record(String),
    /// The line (or a record's `replay`) does not parse as a `position` command.
    #[error("not a position line: {0}")]
    Syntax(String),
    /// A `position <fields>` line: a position without its start has no moves to replay.
    #[error(
        "a position line without startpos has no moves to analyse; give 'position startpos ... moves ...'"
    )]
    NoStart,
    /// The variant, player count or a rule option is refused.
    #[error("bad rules: {0}")]
    Rules(String),
    /// A draw or move token the rules refuse at its place in the game.
    #[error("token {index} '{token}': {why}")]
    Token { index: usize, token: String, why: String },
    /// The line holds no move to analyse.
    #[error("the game has no move to analyse")]
    NoMoves,
    /// The replay is longer than an engine reads in one line: it could not be asked about it.
    #[error("the game's replay is {0} bytes, more than an engine reads in one line ({MAX_LINE_BYTES})")]
    TooLong(usize),
}

/// What kind of line a game came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A `position startpos ... moves ...` line (or the `startpos ...` payload of `history`).
    Position,
    /// A `zatre-match` record: its game index and the engines by seat, when it has them.
    Record { game: Option<u64>, engines: Vec<String> },
}

/// One move of the game: a turn to analyse.
#[derive(Debug, Clone)]
pub struct Turn {
    /// The protocol's turn number (`status`, the position line): every move counts one.
    pub number: u32,
    /// The seat that moved, from 0.
    pub seat: usize,
    /// How many draw and move tokens come before this move: the replay to send before `go`.
    pub before: usize,
    /// The move as the input wrote it (the engine accepted it in this order).
    pub written: String,
    /// The move, for comparing with the engine's best (equal when the placements are).
    pub played: Move,
    /// The position before the move, to check the engine's best move against.
    pub position: Position,
}

/// A game read from one line and checked against the rules.
#[derive(Debug, Clone)]
pub struct GameInput {
    /// The line number in the input, from 1.
    pub line: usize,
    pub source: Source,
    /// The arguments after `startpos` and before `moves`, as `newgame` takes them.
    pub newgame_args: String,
    /// Every draw and move token, in order.
    pub tokens: Vec<String>,
    pub rules: Rules,
    pub turns: Vec<Turn>,
    /// Whether the replay ends with the game over.
    pub finished: bool,
}

/// The fields of a record that the analysis reads; the others are ignored.
#[derive(Deserialize)]
struct RecordLine {
    replay: String,
    #[serde(default)]
    game: Option<u64>,
    #[serde(default)]
    engines: Vec<String>,
}

impl GameInput {
    /// Reads one non-blank input line (numbered `line`): a record when it starts with `{`, else a
    /// position line.
    ///
    /// # Errors
    /// Why the line is not a game with at least one move, replayable under the rules.
    pub fn parse(line: usize, text: &str) -> Result<GameInput, InputError> {
        let text = text.trim();
        if text.starts_with('{') {
            let record: RecordLine =
                serde_json::from_str(text).map_err(|e| InputError::Record(e.to_string()))?;
            let source = Source::Record { game: record.game, engines: record.engines };
            GameInput::from_position_line(line, source, &record.replay)
        } else {
            GameInput::from_position_line(line, Source::Position, text)
        }
    }

    fn from_position_line(line: usize, source: Source, text: &str) -> Result<GameInput, InputError> {
        let text = text.trim();
        // The payload of `history` lacks the command word; accept it as it is printed.
        let command =
            if text.starts_with("startpos") { format!("position {text}") } else { text.to_string() };
        // Refused before it is read: every turn keeps its position, and a kids' game can pass on
        // and on (a 2.7 MB line once took 2.3 GB).
        if command.len() > MAX_LINE_BYTES {
            return Err(InputError::TooLong(command.len()));
        }
        let (newgame, tokens) = match parse_command(&command) {
            Ok(Command::Position(PositionArgs::StartPos { newgame, tokens })) => (newgame, tokens),
            Ok(Command::Position(PositionArgs::Line(_))) => return Err(InputError::NoStart),
            Ok(_) => {
                return Err(InputError::Syntax("expected 'position startpos ... moves ...'".to_string()))
            }
            Err(e) => return Err(InputError::Syntax(e.to_string())),
        };
        let rules = newgame.rules().map_err(|e| InputError::Rules(e.to_string()))?;
        let mut position = Position::new(rules.clone());
        let mut written = Vec::with_capacity(tokens.len());
        let mut turns = Vec::new();
        for (k, token) in tokens.iter().enumerate() {
            let text = token.to_string();
            let refused = |why: String| InputError::Token { index: k + 1, token: text.clone(), why };
            match token {
                Token::Draw(values) => {
                    position.draw(values).map_err(|e| refused(e.to_string()))?;
                }
                Token::Move(raw) => {
                    let mv = raw.resolve(&position).map_err(|e| refused(e.to_string()))?;
                    if position.phase() != Phase::Place {
                        let phase = position.phase().name();
                        return Err(refused(format!("a move where the game is in phase {phase}")));
                    }
                    let before = position.clone();
                    position.play(&mv).map_err(|e| refused(e.to_string()))?;
                    turns.push(Turn {
                        number: before.turn(),
                        seat: before.to_move(),
                        before: k,
                        written: text.clone(),
                        played: mv,
                        position: before,
                    });
                }
            }
            written.push(text);
        }
        if turns.is_empty() {
            return Err(InputError::NoMoves);
        }
        Ok(GameInput {
            line,
            source,
            newgame_args: newgame.to_string(),
            tokens: written,
            rules,
            turns,
            finished: position.is_over(),
        })
    }

    /// The command that sets up the position before `turn`: the start and the tokens before it.
    pub fn replay_before(&self, turn: &Turn) -> String {
        self.replay_of(turn.before)
    }

    /// The whole game as one `position startpos ... moves ...` command.
    pub fn replay(&self) -> String {
        self.replay_of(self.tokens.len())
    }

    /// `position startpos <args> moves <the first `count` tokens>`.
    fn replay_of(&self, count: usize) -> String {
        replay_command(&self.newgame_args, &self.tokens[..count])
    }

    /// The engine that played a seat, when the input names it (records do).
    pub fn engine_of(&self, seat: usize) -> Option<&str> {
        match &self.source {
            Source::Record { engines, .. } => engines.get(seat).map(String::as_str),
            Source::Position => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "position startpos variant classic players 2 seed 7";

    #[test]
    fn a_position_line_gives_its_moves_as_turns() {
        let line = format!("{START} moves +441 4@h8,1@h9,4@h10 +35 3@i8,5@j8");
        let game = GameInput::parse(1, &line).expect("a legal game");
        assert_eq!(game.source, Source::Position);
        assert_eq!(game.newgame_args, "variant classic players 2 seed 7");
        assert_eq!(game.turns.len(), 2);
        let (first, second) = (&game.turns[0], &game.turns[1]);
        assert_eq!((first.number, first.seat, first.before), (1, 0, 1));
        assert_eq!((second.number, second.seat, second.before), (2, 1, 3));
        assert_eq!(game.replay_before(first), format!("{START} moves +441"));
        assert_eq!(game.replay_before(second), format!("{START} moves +441 4@h8,1@h9,4@h10 +35"));
        assert!(!game.finished);
    }

    #[test]
    fn the_payload_of_history_and_a_record_are_read_too() {
        let game = GameInput::parse(2, "startpos moves +441 4@h8,1@h9,4@h10").expect("history's form");
        assert_eq!(game.newgame_args, "");
        assert_eq!(game.replay_before(&game.turns[0]), "position startpos moves +441");
        let record = format!(
            r#"{{"game":3,"engines":["a","b"],"seating":[0,1],"replay":"{START} moves +441 4@h8,1@h9,4@h10"}}"#
        );
        let game = GameInput::parse(5, &record).expect("a record");
        assert_eq!(game.source, Source::Record { game: Some(3), engines: vec!["a".into(), "b".into()] });
        assert_eq!(game.engine_of(1), Some("b"));
        assert_eq!(game.engine_of(2), None);
    }

    #[test]
    fn bad_lines_say_why() {
        let err = |text: &str| GameInput::parse(1, text).expect_err(text);
        assert!(matches!(err("hello"), InputError::Syntax(_)));
        assert!(matches!(err("{\"game\":1}"), InputError::Record(_)));
        assert!(matches!(err("{not json"), InputError::Record(_)));
        assert_eq!(err("position variant=classic players=2"), InputError::NoStart);
        assert!(matches!(err("position startpos variant chess"), InputError::Rules(_)));
        assert_eq!(err("position startpos moves +441"), InputError::NoMoves);
        let token = err("position startpos moves +441 4@h8,1@h9,4@h10 +35 6@h11,3@h7");
        assert!(
            matches!(&token, InputError::Token { index: 4, token, .. } if token == "6@h11,3@h7"),
            "{token:?}"
        );
        let message = err("position startpos moves 4@h8").to_string();
        assert!(message.starts_with("token 1 '4@h8': "), "{message}");
        // A value the game has no tile for is refused for that, as the engine refuses it (the
        // analyser's own reading of moves once said the hand held none).
        let kids = err("position startpos variant kids moves +05 6@e5").to_string();
        assert_eq!(kids, "token 2 '6@e5': value 6 is not a tile of this game (0 to 5)");
        // Longer than an engine's line: refused before a token is read.
        let long = format!("position startpos variant kids moves +05 {}", "+22 pass ".repeat(8000));
        assert_eq!(err(&long), InputError::TooLong(long.trim().len()));
    }
}
