//! The commands a client sends, as parsed data: raw, unvalidated arguments.
//!
//! The parser (`parse.rs`) checks only the shape of a line; whether a value fits the variant, a move
//! is legal or an option exists is decided when the command is executed.

use std::fmt;

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

/// One token after `position startpos ... moves`: a draw or a move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Token {
    /// `+35`: the values drawn, one digit each; `+` alone draws nothing.
    Draw(Vec<u8>),
    /// A move, as for `place`.
    Move(RawMove),
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
    /// `place <move>`
    Place(RawMove),
    /// `undo`
    Undo,
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
    /// Every command word, in the order `list_commands` prints them.
    pub const WORDS: &'static [&'static str] = &[
        "protocol_version",
        "name",
        "version",
        "list_commands",
        "known_command",
        "help",
        "isready",
        "quit",
        "options",
        "setoption",
        "newgame",
        "draw",
        "place",
        "undo",
        "legal",
        "score",
        "show",
        "position",
        "go",
        "stop",
        "perft",
        "bench",
        "geometry",
        "next",
        "status",
        "variants",
        "history",
    ];

    /// Whether the command would change the game or start a job, and so is `busy` while a `go`
    /// runs.
    pub fn changes_game(&self) -> bool {
        match self {
            Command::NewGame(_)
            | Command::Draw(_)
            | Command::Place(_)
            | Command::Undo
            | Command::SetOption { .. }
            | Command::Go(_)
            | Command::Perft(_)
            | Command::Bench => true,
            Command::Position(args) => !matches!(args, PositionArgs::Print),
            _ => false,
        }
    }

    /// The command word this command was sent with.
    pub fn word(&self) -> &'static str {
        match self {
            Command::ProtocolVersion => "protocol_version",
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
            Command::Draw(_) => "draw",
            Command::Place(_) => "place",
            Command::Undo => "undo",
            Command::Legal | Command::LegalCount => "legal",
            Command::Score(_) => "score",
            Command::Show => "show",
            Command::Position(_) => "position",
            Command::Go(_) => "go",
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

    #[test]
    fn every_word_is_listed_once() {
        let mut words = Command::WORDS.to_vec();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), Command::WORDS.len());
    }
}
