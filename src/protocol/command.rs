//! The commands a client sends, as parsed data: raw, unvalidated arguments.
//!
//! The parser (`parse.rs`) checks only the shape of a line; whether a value fits the variant, a move
//! is legal or an option exists is decided when the command is executed. The readings of written
//! moves and `newgame` arguments against a game ([`RawMove::resolve`], [`NewGameArgs::rules`]) and
//! the writing of a replay ([`replay_command`]) live here, so that the engine and the tools that
//! replay games read them alike.

use std::fmt;

use thiserror::Error;

use super::registry::{self, Class};
use crate::rules::{Move, NotationError, OptionError as RuleError, Placement, Position, Rules, Variant};

/// The request id a client may put before a command: 1 to 9 ASCII digits, echoed as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Id(String);

impl Id {
    /// The most digits an id may have.
    pub const MAX_DIGITS: usize = 9;

    /// Wraps `digits` when it is 1 to 9 ASCII digits.
    pub fn new(digits: &str) -> Option<Id> {
        let ok = (1..=Self::MAX_DIGITS).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
        ok.then(|| Id(digits.to_owned()))
    }

    /// The digits as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One placement as written, `<value>@<cell>`, not yet checked against a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RawPlacement {
    /// The tile value as written (`5` in `5@h8`).
    pub value: u8,
    /// The column, 0-based: `a` is 0.
    pub column: u8,
    /// The row, 1-based as written: `8` in `h8`.
    pub row: u16,
}

impl fmt::Display for RawPlacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Columns past `z` cannot be written; the parser never makes them.
        let letter = char::from_u32(u32::from(b'a') + u32::from(self.column)).unwrap_or('?');
        write!(f, "{}@{}{}", self.value, letter, self.row)
    }
}

/// A move as written: `pass`, or placements joined by `,` (`5@h8,3@h9`), in the order written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RawMove {
    /// `pass`: no tile placed.
    Pass,
    /// At least one placement, in the order written.
    Place(Vec<RawPlacement>),
}

impl fmt::Display for RawMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RawMove::Pass => f.write_str("pass"),
            RawMove::Place(placements) => {
                for (k, p) in placements.iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl RawMove {
    /// The move read against the board of `position` and the values of its game's tiles: the one
    /// reading of a written move, for the engine and the tools that replay games alike.
    ///
    /// # Errors
    /// A cell that is not on the board, or a value the game has no tile for.
    pub fn resolve(&self, position: &Position) -> Result<Move, NotationError> {
        let geometry = position.board().geometry();
        match self {
            RawMove::Pass => Ok(Move::pass()),
            RawMove::Place(placements) => placements
                .iter()
                .map(|p| {
                    let placement =
                        Placement::from_parts(geometry, p.value, usize::from(p.column), usize::from(p.row))?;
                    position.rules().check_tile(p.value)?;
                    Ok(placement)
                })
                .collect::<Result<_, _>>()
                .map(Move::new),
        }
    }
}

/// One token after `position startpos ... moves`: a draw or a move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Token {
    /// `+35`: the values drawn, one digit each; `+` alone draws nothing.
    Draw(Vec<u8>),
    /// A move, as for `place`.
    Move(RawMove),
}

impl fmt::Display for Token {
    /// As written in a replay: `+35`, `+` (nothing drawn), `5@h8,6@h9`, `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Draw(values) => {
                f.write_str("+")?;
                values.iter().try_for_each(|v| write!(f, "{v}"))
            }
            Token::Move(raw) => write!(f, "{raw}"),
        }
    }
}

/// The arguments of `newgame` (also used by `position startpos`), as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct NewGameArgs {
    /// `variant <name>`: `classic`, `dice` or `kids` (checked on execution).
    pub variant: Option<String>,
    /// `players <n>`.
    pub players: Option<u8>,
    /// `seed <u64>`: seeds the engine's generator for random draws.
    pub seed: Option<u64>,
    /// `<rule>=<value>` options in the order written; later ones override earlier ones.
    pub rules: Vec<(String, String)>,
}

/// `position startpos [<newgame args>] [moves <tokens>]`: the command that replays a game, as the
/// referee records it and the analyser replays it.
pub fn replay_command(newgame_args: &str, tokens: &[String]) -> String {
    let mut command = String::from("position startpos");
    if !newgame_args.is_empty() {
        command.push(' ');
        command.push_str(newgame_args);
    }
    if !tokens.is_empty() {
        command.push_str(" moves ");
        command.push_str(&tokens.join(" "));
    }
    command
}

/// Why `newgame` arguments give no rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NewGameError {
    #[error("unknown variant '{0}': classic, dice or kids")]
    Variant(String),
    #[error(transparent)]
    Rules(#[from] RuleError),
}

impl NewGameArgs {
    /// The rules these arguments ask for: `classic` and two players unless they say otherwise,
    /// then each `<rule>=<value>` in order.
    ///
    /// # Errors
    /// An unknown variant, a player count or an option the rules refuse.
    pub fn rules(&self) -> Result<Rules, NewGameError> {
        let variant = match self.variant.as_deref() {
            None => Variant::Classic,
            Some(name) => Variant::parse(name).ok_or_else(|| NewGameError::Variant(name.to_owned()))?,
        };
        let options = self.rules.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        Ok(Rules::with_options(variant, self.players.unwrap_or(2), options)?)
    }
}

impl fmt::Display for NewGameArgs {
    /// As `newgame` takes them, in the order `variant players seed <rule>=<value>...`; nothing
    /// when none was given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = Vec::new();
        if let Some(v) = &self.variant {
            words.push(format!("variant {v}"));
        }
        if let Some(p) = self.players {
            words.push(format!("players {p}"));
        }
        if let Some(s) = self.seed {
            words.push(format!("seed {s}"));
        }
        words.extend(self.rules.iter().map(|(k, v)| format!("{k}={v}")));
        f.write_str(&words.join(" "))
    }
}

/// The limits of a `go`, as written; all absent means the engine's default budget.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct GoArgs {
    /// `time <ms>`: the time left on the mover's clock.
    pub time: Option<u64>,
    /// `inc <ms>`: the increment per move.
    pub inc: Option<u64>,
    /// `movestogo <n>`: the moves to the next time control.
    pub movestogo: Option<u32>,
    /// `searchmoves <move> ...`: search only these (empty: every legal move).
    pub searchmoves: Vec<RawMove>,
    /// `movetime <ms>`.
    pub movetime: Option<u64>,
    /// `nodes <n>`.
    pub nodes: Option<u64>,
    /// `depth <d>`.
    pub depth: Option<u32>,
    /// `infinite`: run until `stop`.
    pub infinite: bool,
}

/// The arguments of `analyse`, as written: the limits of each search, and the game (absent: the
/// current game).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct AnalyseArgs {
    /// `movetime <ms>`: the most time for each search.
    pub movetime: Option<u64>,
    /// `nodes <n>`: the most nodes of each search.
    pub nodes: Option<u64>,
    /// `depth <d>`: how far each search looks, as in `go`.
    pub depth: Option<u32>,
    /// `startpos [newgame args] [moves <tokens>]`: the game to analyse; `None` for the current one.
    pub game: Option<(NewGameArgs, Vec<Token>)>,
}

/// The forms of the `position` command.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PositionArgs {
    /// `position`: print the position line.
    Print,
    /// `position <field>=<value> ...`: the position line, its fields in the order written.
    Line(Vec<(String, String)>),
    /// `position startpos [newgame args] [moves <tokens>]`: replay from a new game.
    StartPos {
        /// The arguments of the new game.
        newgame: NewGameArgs,
        /// The draws and moves to replay, in order.
        tokens: Vec<Token>,
    },
}

/// One command line, parsed. Each variant gives its wire form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Command {
    /// `protocol_version`
    ProtocolVersion,
    /// `protocol <version>`: speak that version of the protocol from now on.
    Protocol(u32),
    /// `name`
    Name,
    /// `version`
    Version,
    /// `list_commands`
    ListCommands,
    /// `known_command <word>`
    KnownCommand(String),
    /// `help`
    Help,
    /// `isready`
    IsReady,
    /// `quit`
    Quit,
    /// `options`
    Options,
    /// `setoption name <Name> value <value>`; the value is the rest of the line.
    SetOption {
        /// The option's name as written.
        name: String,
        /// The value: the remaining tokens joined by single spaces.
        value: String,
    },
    /// `newgame [variant <v>] [players <n>] [seed <u64>] [<rule>=<value>]...`
    NewGame(NewGameArgs),
    /// `draw [<value> ...]`: no values draws at random.
    Draw(Vec<u8>),
    /// `draw 355` (version 3): the values as one word of digits, one digit each. The session
    /// turns it into [`Command::Draw`] or the version-2 error in version 2 (`parse::in_version`).
    DrawWord(String),
    /// `place <move>`
    Place(RawMove),
    /// `undo`
    Undo,
    /// `undo turn` (version 3): takes back a turn ([`crate::rules::Game::turn_steps`]).
    UndoTurn,
    /// `legal`
    Legal,
    /// `legal count`
    LegalCount,
    /// `score` (the sheets) or `score <move>` (what the move would score).
    Score(Option<RawMove>),
    /// `show`
    Show,
    /// `position`, `position <line>`, `position startpos [newgame args] [moves <tokens>]`
    Position(PositionArgs),
    /// `go [movetime <ms>] [nodes <n>] [depth <d>] [infinite]`
    Go(GoArgs),
    /// `analyse [movetime <ms>] [nodes <n>] [depth <d>] [startpos ...]`: every move of a game valued
    /// against the engine's best.
    Analyse(AnalyseArgs),
    /// `stop`
    Stop,
    /// `perft <depth>`
    Perft(u32),
    /// `bench`
    Bench,
    /// `geometry`: the board's cells, extra cells and centre.
    Geometry,
    /// `next [<placements>]`: tile-by-tile checking of a move being built.
    Next(Vec<RawPlacement>),
    /// `status`: phase, turn, seat to move, tiles due; the end reason and ranking.
    Status,
    /// `variants`: every variant, its player counts and its rule options.
    Variants,
    /// `history`: the game as arguments of `position` that rebuild it.
    History,
}

impl Command {
    /// Whether the command would change the game or start a job that is not only a read, and so
    /// is `busy` while a `go` runs: its class in the registry, but `position` alone only prints.
    pub fn changes_game(&self) -> bool {
        match self {
            Command::Position(PositionArgs::Print) => false,
            command => registry::find(command.word()).is_some_and(|def| def.class == Class::Changes),
        }
    }

    /// The command word this command was sent with: the word of its definition in the registry.
    pub fn word(&self) -> &'static str {
        match self {
            Command::ProtocolVersion => "protocol_version",
            Command::Protocol(_) => "protocol",
            Command::Name => "name",
            Command::Version => "version",
            Command::ListCommands => "list_commands",
            Command::KnownCommand(_) => "known_command",
            Command::Help => "help",
            Command::IsReady => "isready",
            Command::Quit => "quit",
            Command::Options => "options",
            Command::SetOption { .. } => "setoption",
            Command::NewGame(_) => "newgame",
            Command::Draw(_) | Command::DrawWord(_) => "draw",
            Command::Place(_) => "place",
            Command::Undo | Command::UndoTurn => "undo",
            Command::Legal | Command::LegalCount => "legal",
            Command::Score(_) => "score",
            Command::Show => "show",
            Command::Position(_) => "position",
            Command::Go(_) => "go",
            Command::Analyse(_) => "analyse",
            Command::Stop => "stop",
            Command::Perft(_) => "perft",
            Command::Bench => "bench",
            Command::Geometry => "geometry",
            Command::Next(_) => "next",
            Command::Status => "status",
            Command::Variants => "variants",
            Command::History => "history",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::parse_command;

    #[test]
    fn id_accepts_one_to_nine_digits() {
        assert_eq!(Id::new("007").map(|i| i.to_string()), Some("007".into()));
        assert!(Id::new("123456789").is_some());
        assert!(Id::new("1234567890").is_none());
        assert!(Id::new("").is_none());
        assert!(Id::new("1a").is_none());
    }

    #[test]
    fn raw_move_displays_as_written() {
        let m = RawMove::Place(vec![
            RawPlacement { value: 5, column: 7, row: 8 },
            RawPlacement { value: 3, column: 7, row: 9 },
        ]);
        assert_eq!(m.to_string(), "5@h8,3@h9");
        assert_eq!(RawMove::Pass.to_string(), "pass");
    }

    /// The `position startpos` command of `text`, parsed.
    fn startpos(text: &str) -> (NewGameArgs, Vec<Token>) {
        match parse_command(text) {
            Ok(super::Command::Position(PositionArgs::StartPos { newgame, tokens })) => (newgame, tokens),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn a_replay_is_written_back_as_it_was_read() {
        for text in [
            "position startpos",
            "position startpos variant kids players 3 seed 7 scoring=dots moves +05 0@e5,5@e6 + pass",
            "position startpos moves +441 4@h8,1@h9,4@h10",
            "position startpos players 4 teams=on must_place=maximal",
        ] {
            let (newgame, tokens) = startpos(text);
            let tokens: Vec<String> = tokens.iter().map(Token::to_string).collect();
            assert_eq!(replay_command(&newgame.to_string(), &tokens), text);
        }
    }

    #[test]
    fn newgame_arguments_give_the_rules_or_say_why_not() {
        let rules = |text: &str| startpos(text).0.rules();
        let classic = rules("position startpos").expect("the default");
        assert_eq!((classic.variant, classic.players), (Variant::Classic, 2));
        assert_eq!(rules("position startpos variant kids players 3").map(|r| r.players), Ok(3));
        assert_eq!(rules("position startpos variant chess"), Err(NewGameError::Variant("chess".into())));
        assert!(matches!(rules("position startpos players 3 teams=on"), Err(NewGameError::Rules(_))));
    }

    #[test]
    fn a_written_move_is_read_against_the_board_and_the_tiles_of_its_game() {
        let (newgame, _) = startpos("position startpos variant kids");
        let position = Position::new(newgame.rules().expect("kids"));
        let raw = |text: &str| match startpos(&format!("position startpos moves {text}")).1.pop() {
            Some(Token::Move(raw)) => raw,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(raw("5@e5,0@e6").resolve(&position).map(|m| m.to_string()), Ok("5@e5,0@e6".into()));
        assert_eq!(raw("pass").resolve(&position), Ok(Move::pass()));
        let refused = |text: &str| raw(text).resolve(&position).map_err(|e| e.to_string()).unwrap_err();
        assert_eq!(refused("6@e5"), "value 6 is not a tile of this game (0 to 5)");
        assert_eq!(refused("1@k1"), "'k1' is not a cell of this board");
    }
}
