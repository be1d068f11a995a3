//! Every command of the protocol, defined once: its word, synopsis, help line, class (how the
//! session schedules it), whether the board's bridge relays it, and the parser of its arguments.
//! `help`, `list_commands`, `known_command`, the parser's dispatch, the busy rule and `zatre-web`'s
//! allowlist all read this table; a new command is a row here, its variant of [`Command`] with
//! its word ([`Command::word`]), and its execution in the engine.

use crate::rules::parse_number;
use crate::search::Strategy;

use super::command::Command;
use super::parse::{self, PResult};

/// How the session schedules a command (PROTOCOL.md, "Order and jobs").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Taken by the session the moment it is read, also while any job runs (`stop`, `quit`,
    /// `isready`).
    Session,
    /// Answered at once by the engine; also while a `go` runs.
    Read,
    /// A job on the work lane that only reads the game (`legal`, `next`): answered meanwhile
    /// while a `go` runs.
    WorkJob,
    /// Changes the game or starts a `go`, `perft` or `bench`: `busy` while a `go` runs.
    Changes,
}

/// Whether and how `zatre-web`'s bridge relays a command from the board page to its engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relay {
    /// Never: the page does not send it, or it runs a job with no bound the page needs.
    Never,
    /// Only without arguments.
    Bare,
    /// With any arguments: the engine checks them, and none starts a job beyond what `next` is.
    Args,
    /// With exactly one argument written like a move.
    OneMove,
    /// `setoption`: only the options the page sets, within the operator's caps.
    SetOption,
    /// `go`: only `movetime` or `nodes` within the operator's caps, maybe with `searchmoves`.
    Go,
    /// `analyse`: only `movetime` or `nodes` within the operator's caps, maybe with the game
    /// (`startpos ...`, which the engine checks).
    Analyse,
}

/// One command's definition.
#[derive(Debug, Clone, Copy)]
pub struct CommandDef {
    /// The command word.
    pub word: &'static str,
    /// The command as `help` writes it, with its arguments.
    pub synopsis: &'static str,
    /// What it does, in one line of `help`.
    pub help: &'static str,
    /// How the session schedules it.
    pub class: Class,
    /// Whether the board's bridge relays it.
    pub relay: Relay,
    /// The parser of what follows the word, to the end of the line (the parser checks the end).
    pub(super) parse: fn(&str) -> PResult<'_, Command>,
}

impl CommandDef {
    /// The command's line of `help`: the synopsis, then the help from column 40 (or three blanks
    /// after a longer synopsis).
    pub fn help_line(&self) -> String {
        const COLUMN: usize = 39;
        if self.synopsis.len() < COLUMN {
            format!("{:<COLUMN$}{}", self.synopsis, self.help)
        } else {
            format!("{}   {}", self.synopsis, self.help)
        }
    }
}

/// Every command, in the order `list_commands` and `help` print them.
pub const COMMANDS: &[CommandDef] = &[
    CommandDef {
        word: "protocol_version",
        synopsis: "protocol_version",
        help: "the protocol version spoken now: 2, or 3 after protocol 3",
        class: Class::Read,
        relay: Relay::Bare,
        parse: |i| parse::bare(i, Command::ProtocolVersion),
    },
    CommandDef {
        word: "protocol",
        synopsis: "protocol <version>",
        help: "speak protocol version 2 or 3 from now on",
        class: Class::Read,
        relay: Relay::Args,
        parse: parse::protocol_args,
    },
    CommandDef {
        word: "name",
        synopsis: "name",
        help: "the engine's name",
        class: Class::Read,
        relay: Relay::Never,
        parse: |i| parse::bare(i, Command::Name),
    },
    CommandDef {
        word: "version",
        synopsis: "version",
        help: "the engine's version",
        class: Class::Read,
        relay: Relay::Never,
        parse: |i| parse::bare(i, Command::Version),
    },
    CommandDef {
        word: "list_commands",
        synopsis: "list_commands",
        help: "every command, one a line",
        class: Class::Read,
        relay: Relay::Never,
        parse: |i| parse::bare(i, Command::ListCommands),
    },
    CommandDef {
        word: "known_command",
        synopsis: "known_command <word>",
        help: "true if <word> is a command",
        class: Class::Read,
        relay: Relay::Never,
        parse: parse::known_command_args,
    },
    CommandDef {
        word: "help",
        synopsis: "help",
        help: "this text",
        class: Class::Read,
        relay: Relay::Never,
        parse: |i| parse::bare(i, Command::Help),
    },
    CommandDef {
        word: "isready",
        synopsis: "isready",
        help: "readyok, at once, also while jobs run",
        class: Class::Session,
        relay: Relay::Bare,
        parse: |i| parse::bare(i, Command::IsReady),
    },
    CommandDef {
        word: "quit",
        synopsis: "quit",
        help: "exit",
        class: Class::Session,
        relay: Relay::Never,
        parse: |i| parse::bare(i, Command::Quit),
    },
    CommandDef {
        word: "options",
        synopsis: "options",
        help: "the engine options, UCI style",
        class: Class::Read,
        relay: Relay::Never,
        parse: |i| parse::bare(i, Command::Options),
    },
    CommandDef {
        word: "setoption",
        synopsis: "setoption name <Name> value <v>",
        help: "set an engine option",
        class: Class::Changes,
        relay: Relay::SetOption,
        parse: parse::setoption_args,
    },
    CommandDef {
        word: "newgame",
        synopsis: "newgame [variant <v>] [players <n>] [seed <u64>] [<rule>=<value>]...",
        help: "start a game",
        class: Class::Changes,
        relay: Relay::Args,
        parse: parse::newgame_command,
    },
    CommandDef {
        word: "draw",
        synopsis: "draw [<value> ...]",
        help: "draw the given values, or at random; the hand",
        class: Class::Changes,
        relay: Relay::Args,
        parse: parse::draw_args,
    },
    CommandDef {
        word: "place",
        synopsis: "place <move>",
        help: "play a move (5@h8,3@h9 or pass); its points and crosses",
        class: Class::Changes,
        relay: Relay::OneMove,
        parse: parse::place_args,
    },
    CommandDef {
        word: "undo",
        synopsis: "undo",
        help: "take back the last draw or move (the last 10000)",
        class: Class::Changes,
        relay: Relay::Bare,
        parse: parse::undo_args,
    },
    CommandDef {
        word: "legal",
        synopsis: "legal [count]",
        help: "the legal moves for the hand, or their number",
        class: Class::WorkJob,
        relay: Relay::Never,
        parse: parse::legal_args,
    },
    CommandDef {
        word: "score",
        synopsis: "score [<move>]",
        help: "the sheets and totals, or what a move would score",
        class: Class::Read,
        relay: Relay::Args,
        parse: parse::score_args,
    },
    CommandDef {
        word: "show",
        synopsis: "show",
        help: "a picture of the board, the hands and the sheets",
        class: Class::Read,
        relay: Relay::Never,
        parse: |i| parse::bare(i, Command::Show),
    },
    CommandDef {
        word: "position",
        synopsis: "position [<line> | startpos [newgame args] [moves <tokens>]]",
        help: "print or set the position",
        // `position` alone only prints: [`Command::changes_game`] reads it so.
        class: Class::Changes,
        relay: Relay::Args,
        parse: parse::position_command,
    },
    CommandDef {
        word: "go",
        synopsis: "go [movetime <ms>] [nodes <n>] [depth <d>] [infinite] [time <ms>] [inc <ms>] \
                   [movestogo <n>] [searchmoves <move>...]",
        help: "search; info lines, then bestmove",
        class: Class::Changes,
        relay: Relay::Go,
        parse: parse::go_command,
    },
    CommandDef {
        word: "analyse",
        synopsis:
            "analyse [movetime <ms>] [nodes <n>] [depth <d>] [startpos [newgame args] [moves <tokens>]]",
        help: "value every move of the game against the best; a line a turn, then the totals",
        // It starts a search: `busy` while a `go` runs, and a `go` is `busy` while it runs.
        class: Class::Changes,
        relay: Relay::Analyse,
        parse: parse::analyse_args,
    },
    CommandDef {
        word: "stop",
        synopsis: "stop",
        help: "end every running job early (go, analyse, perft, legal, next, bench)",
        class: Class::Session,
        relay: Relay::Bare,
        parse: |i| parse::bare(i, Command::Stop),
    },
    CommandDef {
        word: "perft",
        synopsis: "perft <depth>",
        help: "count the leaves of the game tree (depth 0 to 1000)",
        class: Class::Changes,
        relay: Relay::Never,
        parse: parse::perft_args,
    },
    CommandDef {
        word: "bench",
        synopsis: "bench",
        help: "a fixed search: nodes and nodes per second",
        class: Class::Changes,
        relay: Relay::Never,
        parse: |i| parse::bare(i, Command::Bench),
    },
    CommandDef {
        word: "geometry",
        synopsis: "geometry",
        help: "the board: its size, every cell, the extra cells, the centre",
        class: Class::Read,
        relay: Relay::Bare,
        parse: |i| parse::bare(i, Command::Geometry),
    },
    CommandDef {
        word: "next",
        synopsis: "next [<placements>]",
        help: "a move being built: complete yes/no, the placements that may follow",
        class: Class::WorkJob,
        relay: Relay::Args,
        parse: parse::next_args,
    },
    CommandDef {
        word: "status",
        synopsis: "status",
        help: "phase, turn, seat to move, tiles due; at the end the reason and ranking",
        class: Class::Read,
        relay: Relay::Bare,
        parse: |i| parse::bare(i, Command::Status),
    },
    CommandDef {
        word: "variants",
        synopsis: "variants",
        help: "every variant, its player counts and its rule options",
        class: Class::Read,
        relay: Relay::Bare,
        parse: |i| parse::bare(i, Command::Variants),
    },
    CommandDef {
        word: "history",
        synopsis: "history",
        help: "the game as position arguments that rebuild it",
        class: Class::Read,
        relay: Relay::Bare,
        parse: |i| parse::bare(i, Command::History),
    },
];

/// The definition of the command `word`, if it is one (exactly as written: words are lowercase).
pub fn find(word: &str) -> Option<&'static CommandDef> {
    COMMANDS.iter().find(|def| def.word == word)
}

/// Every command word, in the order of [`COMMANDS`].
pub fn words() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|def| def.word)
}

/// The text of `help`: one [`CommandDef::help_line`] per command.
pub fn help_text() -> String {
    COMMANDS.iter().map(CommandDef::help_line).collect::<Vec<_>>().join("\n")
}

/// Whether `value` is a value of the engine option `Strategy` (for the bridge, which relays the
/// levels the page offers and links nothing of the search).
pub fn is_strategy(value: &str) -> bool {
    Strategy::parse(value).is_some()
}

/// A number as the protocol writes it (digits only, no sign), if it fits a `u64` (for the bridge,
/// which reads the limits of a `go` and links nothing of the rules).
pub fn number(text: &str) -> Option<u64> {
    parse_number(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_defined_once_and_lowercase() {
        let mut words: Vec<_> = words().collect();
        assert!(words.iter().all(|w| w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')));
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), COMMANDS.len());
    }

    #[test]
    fn every_synopsis_starts_with_its_word() {
        for def in COMMANDS {
            let first = def.synopsis.split(' ').next();
            assert_eq!(first, Some(def.word), "{}", def.synopsis);
        }
    }

    #[test]
    fn every_parsed_command_names_the_definition_it_came_from() {
        for def in COMMANDS {
            // Each command with the least arguments it takes parses to a command of its word.
            let line = match def.word {
                "known_command" => "known_command go",
                "setoption" => "setoption name Threads value 1",
                "place" => "place pass",
                "perft" => "perft 1",
                "protocol" => "protocol 3",
                word => word,
            };
            let command = parse::parse_command(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(command.word(), def.word, "{line}");
        }
    }

    #[test]
    fn help_lines_put_the_help_in_one_column() {
        let help = help_text();
        assert!(help.contains("\nquit                                   exit\n"), "{help}");
        assert!(help.contains("\nposition [<line> | startpos [newgame args] [moves <tokens>]]   print"));
        assert_eq!(help.lines().count(), COMMANDS.len());
    }
}
