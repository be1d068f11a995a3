//! The reason keys of version 3's error lines, `?<id> <code> <reason> <message>`: one stable key a
//! program can read for every way a command fails, defined once here with its error code and what
//! it means (PROTOCOL.md's table of reasons is checked against this table by a test). The rules
//! core knows nothing of them: its errors are mapped to keys here, at the protocol's edge.

use std::fmt;

use crate::rules::{DrawError, MoveError, NotationError, OptionError as RuleError, SetupError};

use super::command::NewGameError;
use super::options::OptionError;
use super::parse::ParseError;
use super::response::ErrorCode;

/// Defines [`Reason`] from one table: variant, wire key, error code, and when it is given.
macro_rules! reasons {
    ($($variant:ident $key:literal $code:ident $when:literal;)*) => {
        /// Why a command failed, as a key a program can read (version 3).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Reason {
            $(#[doc = $when] $variant,)*
        }

        impl Reason {
            /// Every reason, in the order of PROTOCOL.md's table.
            pub const ALL: &'static [Reason] = &[$(Reason::$variant,)*];

            /// The key as it appears on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Reason::$variant => $key,)*
                }
            }

            /// The error code a failure with this reason carries.
            pub fn code(self) -> ErrorCode {
                match self {
                    $(Reason::$variant => ErrorCode::$code,)*
                }
            }

            /// When the engine gives it, in a few words (PROTOCOL.md's table says the same).
            pub fn when(self) -> &'static str {
                match self {
                    $(Reason::$variant => $when,)*
                }
            }
        }
    };
}

reasons! {
    UnknownCommand "unknown_command" UnknownCommand "the first word is no command";
    NotUtf8 "not_utf8" SyntaxError "the line is not UTF-8";
    LineTooLong "line_too_long" SyntaxError "the line is longer than 65536 bytes";
    BadId "bad_id" SyntaxError "a first token of 10 or more digits";
    MissingCommand "missing_command" SyntaxError "an id with no command after it";
    BadSyntax "bad_syntax" SyntaxError "an argument missing, extra or malformed";
    GivenTwice "given_twice" SyntaxError "a keyword argument given twice";
    OutOfRange "out_of_range" InvalidArgument "a number too large for its field, row 0, a perft depth over 1000, movestogo 0";
    NotACell "not_a_cell" InvalidArgument "a cell that is not on this board";
    NotAPlacement "not_a_placement" InvalidArgument "a placement `<digits>@<cell>` whose value is more than one digit (`10@h8`); a word not of that form at all is `bad_syntax`";
    NotATile "not_a_tile" InvalidArgument "a tile value the game has no tile for";
    UnknownVariant "unknown_variant" InvalidArgument "a variant that is not classic, dice or kids";
    PlayerCount "player_count" InvalidArgument "a player count the variant does not allow";
    TeamsPlayerCount "teams_player_count" InvalidArgument "teams=on with neither 4 nor 6 players";
    UnknownRuleOption "unknown_rule_option" InvalidArgument "a rule option that does not exist";
    BadRuleValue "bad_rule_value" InvalidArgument "a value a rule option does not take";
    RuleNotInVariant "rule_not_in_variant" InvalidArgument "a rule option of another variant";
    RuleGivenTwice "rule_given_twice" InvalidArgument "a rule option given twice";
    UnknownEngineOption "unknown_engine_option" InvalidArgument "an engine option that does not exist";
    BadOptionValue "bad_option_value" InvalidArgument "a value an engine option does not take";
    UnsupportedVersion "unsupported_version" InvalidArgument "protocol with a version the engine does not speak";
    ClockArguments "clock_arguments" InvalidArgument "go inc or movestogo without time";
    DrawDue "draw_due" IllegalMove "a move, legal, next or go while a draw is due";
    NotInHand "not_in_hand" IllegalMove "a move places a tile the hand does not hold (or more of it)";
    Occupied "occupied" IllegalMove "a move places a tile on an occupied cell";
    CellTwice "cell_twice" IllegalMove "a move names a cell twice";
    OffCentre "off_centre" IllegalMove "the first tile of the game is not on the centre";
    NotAdjacent "not_adjacent" IllegalMove "a tile with no occupied neighbour, in any order of the move";
    RunOverLimit "run_over_limit" IllegalMove "a run would sum to more than 12 (the limit); the message ends with the sum and the limit (`... would sum to 24, over 12`), the one message whose figures are fixed for a program to read";
    DoubleForbidden "double_forbidden" IllegalMove "a double cell without a run of 10 to 12 (forced_double=forbid)";
    DoubleNotForced "double_not_forced" IllegalMove "a double cell without a run of 10 to 12 while the tile fits on a normal cell";
    DoubleNoOrder "double_no_order" IllegalMove "a double cell without a run of 10 to 12 that no order of the move forces";
    TooFew "too_few" IllegalMove "fewer tiles than the largest legal move (must_place=maximum)";
    NotMaximal "not_maximal" IllegalMove "a tile still fits after the move (must_place=maximal)";
    NoCompletion "no_completion" IllegalMove "next: the placements are part of no legal move";
    PassWhileFits "pass_while_fits" IllegalMove "pass while a tile fits";
    MoveDue "move_due" IllegalDraw "draw while a move is due";
    DrawCount "draw_count" IllegalDraw "draw with more or fewer values than the rules call for";
    NotInBag "not_in_bag" IllegalDraw "draw with values the bag does not hold";
    MissingField "missing_field" InvalidPosition "a position line without a field it needs";
    UnknownField "unknown_field" InvalidPosition "a position line with an unknown or repeated field";
    BadField "bad_field" InvalidPosition "a position line with a bad value in a field, or whose fields break the rules together (a `tomove` that is not the seat of `turn`, tiles that do not add up to the game's, an empty board after turn 1); a player count out of range is `bad_field` here too (`player_count` is `newgame`'s and `position startpos`'s)";
    ReplayFailed "replay_failed" InvalidPosition "position startpos ... moves: a token that cannot be replayed";
    NoStart "no_start" InvalidPosition "analyse of a game set up from a position line, which has no start to replay";
    Busy "busy" Busy "a command that would change the game while a go runs";
    NothingToUndo "nothing_to_undo" CannotUndo "undo with nothing to take back";
    UndoTooOld "undo_too_old" CannotUndo "undo past the last 10000 draws and moves";
    GameOver "game_over" GameOver "draw, place, legal, next or go after the end of the game";
    Internal "internal" Internal "a bug in the engine (the engine goes on)";
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&ParseError> for Reason {
    fn from(e: &ParseError) -> Reason {
        match e {
            ParseError::NotUtf8 => Reason::NotUtf8,
            ParseError::TooLong => Reason::LineTooLong,
            ParseError::IdTooLong(_) => Reason::BadId,
            ParseError::MissingCommand => Reason::MissingCommand,
            ParseError::UnknownCommand(_) => Reason::UnknownCommand,
            ParseError::Expected { .. } => Reason::BadSyntax,
            ParseError::Duplicate { .. } => Reason::GivenTwice,
            ParseError::OutOfRange { .. } => Reason::OutOfRange,
        }
    }
}

impl From<&NotationError> for Reason {
    fn from(e: &NotationError) -> Reason {
        match e {
            NotationError::Placement(_) => Reason::NotAPlacement,
            NotationError::NotACell(_) => Reason::NotACell,
            NotationError::NotATile(_) => Reason::NotATile,
            // The protocol's parser reads draw tokens itself: a malformed one is `bad_syntax`.
            NotationError::Draw(_) => Reason::BadSyntax,
        }
    }
}

impl From<&DrawError> for Reason {
    fn from(e: &DrawError) -> Reason {
        match e {
            DrawError::MoveDue => Reason::MoveDue,
            DrawError::GameOver => Reason::GameOver,
            DrawError::Count { .. } => Reason::DrawCount,
            DrawError::Value(_) => Reason::NotATile,
            DrawError::NotInBag { .. } => Reason::NotInBag,
        }
    }
}

impl From<&MoveError> for Reason {
    fn from(e: &MoveError) -> Reason {
        match e {
            MoveError::DrawDue => Reason::DrawDue,
            MoveError::GameOver => Reason::GameOver,
            MoveError::NotInHand { .. } => Reason::NotInHand,
            MoveError::Occupied(_) => Reason::Occupied,
            MoveError::RepeatedCell(_) => Reason::CellTwice,
            MoveError::StartOffCentre(_) => Reason::OffCentre,
            MoveError::NoNeighbour(_) => Reason::NotAdjacent,
            MoveError::RunOverLimit { .. } => Reason::RunOverLimit,
            MoveError::DoubleForbidden(_) => Reason::DoubleForbidden,
            MoveError::DoubleNotForced { .. } => Reason::DoubleNotForced,
            MoveError::DoubleNoOrder(_) => Reason::DoubleNoOrder,
            MoveError::TooFew { .. } => Reason::TooFew,
            MoveError::NotMaximal { .. } => Reason::NotMaximal,
            MoveError::NoCompletion { .. } => Reason::NoCompletion,
            MoveError::PassWhileFits { .. } => Reason::PassWhileFits,
        }
    }
}

impl From<&RuleError> for Reason {
    fn from(e: &RuleError) -> Reason {
        match e {
            RuleError::Players(_) => Reason::PlayerCount,
            RuleError::Unknown(_) => Reason::UnknownRuleOption,
            RuleError::Value { .. } => Reason::BadRuleValue,
            RuleError::NotForVariant { .. } => Reason::RuleNotInVariant,
            RuleError::Repeated(_) => Reason::RuleGivenTwice,
            RuleError::Teams(_) => Reason::TeamsPlayerCount,
        }
    }
}

impl From<&NewGameError> for Reason {
    fn from(e: &NewGameError) -> Reason {
        match e {
            NewGameError::Variant(_) => Reason::UnknownVariant,
            NewGameError::Rules(e) => e.into(),
        }
    }
}

impl From<&SetupError> for Reason {
    fn from(e: &SetupError) -> Reason {
        match e {
            SetupError::Missing(_) => Reason::MissingField,
            SetupError::Field(_) => Reason::UnknownField,
            SetupError::Value { .. } | SetupError::Option(_) => Reason::BadField,
        }
    }
}

impl From<&OptionError> for Reason {
    fn from(e: &OptionError) -> Reason {
        match e {
            OptionError::Unknown(_) => Reason::UnknownEngineOption,
            OptionError::Value { .. } => Reason::BadOptionValue,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_snake_case_and_unique() {
        let mut keys: Vec<_> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert!(keys
            .iter()
            .all(|k| k.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')));
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Reason::ALL.len());
    }

    /// PROTOCOL.md's table of reasons has one row per key, in this order, with its code.
    #[test]
    fn the_table_of_protocol_md_is_this_table() {
        let spec = include_str!("../../protocol/PROTOCOL.md");
        let start = spec.find("| reason | code | when |").expect("the table of reasons");
        let rows: Vec<(String, String)> = spec[start..]
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| {
                let cells: Vec<&str> = l.split('|').map(|c| c.trim().trim_matches('`')).collect();
                (cells[1].to_owned(), cells[2].to_owned())
            })
            .collect();
        let keys: Vec<(String, String)> =
            Reason::ALL.iter().map(|r| (r.as_str().to_owned(), r.code().as_str().to_owned())).collect();
        assert_eq!(rows, keys);
    }

    #[test]
    fn every_code_has_a_reason() {
        for code in ErrorCode::ALL {
            assert!(Reason::ALL.iter().any(|r| r.code() == code), "{code}");
        }
    }
}
