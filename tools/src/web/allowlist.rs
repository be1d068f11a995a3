//! The commands the bridge relays to an engine: exactly those the board page sends (game play,
//! hints and review mode's analysis), in the forms it sends them, within the operator's caps.
//! Anything else is answered by the bridge itself in the protocol's error form (PROTOCOL.md,
//! Errors), with the line's id, so that the page's pairing of responses with its requests holds;
//! the engine never sees it.
//!
//! Why: the engine's own commands include jobs with no bound a page needs (`legal` on a crowded
//! position builds its whole list, `perft`, `bench`, `go infinite`, `go depth 20` or a trillion
//! nodes, `setoption name Threads value 64`); a script with the page's origin could send them.
//!
//! Which commands are relayed, and in which form, is each command's [`Relay`] in the protocol's
//! registry (`zatre::protocol::registry`); this file holds only the operator's caps on `go` and
//! `setoption`, and links nothing of the rules or the search. The check reads the shape of a line
//! (its id, its command word, the limits of `go`), never the game: the engine still checks every
//! argument it is given. Tokens are split on spaces and tabs
//! only, as the engine splits them, so that the bridge and the engine read the same words.

use std::fmt;

use zatre::protocol::registry::{self, Relay};

/// The caps on what a page may ask of its engine (`zatre-web`'s flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandLimits {
    /// The largest `go movetime <ms>` (the page offers up to 600,000 ms a move).
    pub max_movetime: u64,
    /// The largest `go nodes <n>` (review mode's analysis takes up to 100,000,000).
    pub max_nodes: u64,
    /// The largest `setoption name MultiPV value <n>` (hints set 3).
    pub max_multipv: u64,
}

impl Default for CommandLimits {
    fn default() -> CommandLimits {
        CommandLimits { max_movetime: 600_000, max_nodes: 100_000_000, max_multipv: 3 }
    }
}

/// A line the bridge does not relay, and the error response it gets instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The line's id when it has one (then the response carries it).
    pub id: Option<String>,
    /// The protocol's error code.
    pub code: &'static str,
    /// The reason key that version 3 writes after the code (docs/operating.md lists them).
    pub reason: &'static str,
    /// One line for a person.
    pub message: String,
}

impl Refusal {
    /// The response's lines in the protocol version the page speaks: `?<id> <code> <message>`
    /// (or `? <code> <message>`), in version 3 with the reason key after the code, and the empty
    /// line that ends every response.
    pub fn lines(&self, version: u32) -> [String; 2] {
        let reason = if version >= 3 { format!(" {}", self.reason) } else { String::new() };
        let head = match &self.id {
            Some(id) => format!("?{id} {}{reason} {}", self.code, self.message),
            None => format!("? {}{reason} {}", self.code, self.message),
        };
        [head, String::new()]
    }
}

/// The protocol version a relayed line asks for (`<id> protocol 2` or `<id> protocol 3`), so that
/// the bridge's own answers after it are in that version; `None` for any other line (a version the
/// engine refuses changes nothing).
pub fn protocol_asked(line: &str) -> Option<u32> {
    let words: Vec<&str> = line.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    match words.as_slice() {
        [_, "protocol", "2"] => Some(2),
        [_, "protocol", "3"] => Some(3),
        _ => None,
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code, self.message)
    }
}

/// The longest piece of a page's line a refusal (or the log) repeats.
const ECHO: usize = 40;

/// `text` for a message or the log: at most [`ECHO`] characters (more are cut and said so), control
/// characters escaped.
pub fn echo(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == ECHO {
            out.push_str(&format!("... ({} bytes)", text.len()));
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Checks one line from the page (without its `\r`): its id when the bridge relays it, else why
/// not.
///
/// # Errors
/// A [`Refusal`] for every line the page would not send: no id, a command or a form the page does
/// not use, a limit over the caps.
pub fn check(line: &str, limits: &CommandLimits) -> Result<String, Refusal> {
    let mut words = line.split([' ', '\t']).filter(|w| !w.is_empty());
    let first = words.next().unwrap_or("");
    let all_digits = !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit());
    if !all_digits || first.len() > 9 {
        return Err(Refusal {
            id: None,
            code: "syntax_error",
            reason: "bad_id",
            message: "zatre-web relays only commands that start with an id of 1 to 9 digits".into(),
        });
    }
    let id = first.to_string();
    let refuse = |code: &'static str, message: String| {
        // The keys of the bridge's own refusals (docs/operating.md).
        let reason = match code {
            "syntax_error" => "missing_command",
            "unknown_command" => "not_relayed",
            _ => "not_relayed_form",
        };
        Refusal { id: Some(id.clone()), code, reason, message }
    };
    let Some(command) = words.next() else {
        return Err(refuse("syntax_error", "a command is expected after the id".into()));
    };
    let args: Vec<&str> = words.collect();
    let none = |ok: bool| {
        if ok {
            Ok(())
        } else {
            Err(refuse("invalid_argument", format!("zatre-web relays {command} without arguments only")))
        }
    };
    let relay = registry::find(command).map_or(Relay::Never, |def| def.relay);
    match relay {
        Relay::Bare => none(args.is_empty())?,
        Relay::Args => {}
        Relay::OneMove => {
            if args.len() != 1 || !is_move(args[0]) {
                return Err(refuse("invalid_argument", format!("zatre-web relays {command} <move> only")));
            }
        }
        Relay::SetOption => setoption(&args, limits).map_err(|m| refuse("invalid_argument", m))?,
        Relay::Go => go(&args, limits).map_err(|m| refuse("invalid_argument", m))?,
        Relay::Analyse => analyse(&args, limits).map_err(|m| refuse("invalid_argument", m))?,
        Relay::Never => {
            return Err(refuse(
                "unknown_command",
                format!("zatre-web does not relay '{}' to the engine", echo(command)),
            ))
        }
    }
    Ok(id)
}

/// The two options the page sets: `setoption name MultiPV value <1..=max_multipv>` (hints) and
/// `setoption name Strategy value search|greedy|random` (a computer seat's level; `greedy` and
/// `random` answer at once, so no level costs more than the search the caps bound).
fn setoption(args: &[&str], limits: &CommandLimits) -> Result<(), String> {
    let max = limits.max_multipv;
    match args {
        ["name", name, "value", value] if name.eq_ignore_ascii_case("multipv") => match number(value) {
            Some(n) if (1..=max).contains(&n) => Ok(()),
            _ => Err(format!("MultiPV takes 1 to {max} here (zatre-web --max-multipv)")),
        },
        ["name", name, "value", value] if name.eq_ignore_ascii_case("strategy") => {
            if registry::is_strategy(value) {
                Ok(())
            } else {
                Err("Strategy takes search, greedy or random".into())
            }
        }
        _ => Err("zatre-web relays setoption name MultiPV value <n> and name Strategy value <s> only".into()),
    }
}

/// `go movetime <ms>` or `go nodes <n>`, within the caps, then maybe `searchmoves <move> ...`.
fn go(args: &[&str], limits: &CommandLimits) -> Result<(), String> {
    let form = "zatre-web relays go movetime <ms> or go nodes <n> [searchmoves <move> ...] only";
    match search_limit(args, limits, form)? {
        [] => Ok(()),
        ["searchmoves", moves @ ..] if !moves.is_empty() && moves.iter().all(|m| is_move(m)) => Ok(()),
        _ => Err(form.into()),
    }
}

/// `analyse movetime <ms>` or `analyse nodes <n>`, within the caps (each turn's searches), then
/// maybe the game, `startpos ...`, which the engine reads (a game replay starts no job beyond the
/// searches the limit bounds).
fn analyse(args: &[&str], limits: &CommandLimits) -> Result<(), String> {
    let form = "zatre-web relays analyse movetime <ms> or analyse nodes <n> [startpos ...] only";
    match search_limit(args, limits, form)? {
        [] => Ok(()),
        ["startpos", ..] => Ok(()),
        _ => Err(form.into()),
    }
}

/// The one limit of a search the page sends, `movetime <ms>` or `nodes <n>`, within the caps; the
/// arguments after it.
fn search_limit<'a, 'b>(
    args: &'a [&'b str],
    limits: &CommandLimits,
    form: &str,
) -> Result<&'a [&'b str], String> {
    let (limit, rest) = match args {
        [keyword, value, rest @ ..] => ((*keyword, number(value)), rest),
        _ => return Err(form.into()),
    };
    match limit {
        ("movetime", Some(ms)) if (1..=limits.max_movetime).contains(&ms) => Ok(rest),
        ("movetime", _) => {
            Err(format!("movetime takes 1 to {} ms here (zatre-web --max-movetime)", limits.max_movetime))
        }
        ("nodes", Some(n)) if (1..=limits.max_nodes).contains(&n) => Ok(rest),
        ("nodes", _) => Err(format!("nodes takes 1 to {} here (zatre-web --max-nodes)", limits.max_nodes)),
        _ => Err(form.into()),
    }
}

/// A number as the protocol writes it (digits only), if it fits.
fn number(text: &str) -> Option<u64> {
    registry::number(text)
}

/// Whether `token` is written like a move: `pass`, or placements `<value>@<cell>` joined by
/// commas (`5@h8,3@h9`). Only the form: whether it is legal is the engine's to say. It keeps
/// keywords (`infinite`, `depth`) out of a move list.
fn is_move(token: &str) -> bool {
    token == "pass"
        || token.split(',').all(|p| {
            let Some((value, cell)) = p.split_once('@') else { return false };
            let column = cell.trim_end_matches(|c: char| c.is_ascii_digit());
            let row = &cell[column.len()..];
            number(value).is_some()
                && !column.is_empty()
                && column.bytes().all(|b| b.is_ascii_lowercase())
                && number(row).is_some()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> String {
        check(line, &CommandLimits::default()).unwrap_or_else(|r| panic!("{line}: refused: {r}"))
    }

    fn refused(line: &str) -> Refusal {
        match check(line, &CommandLimits::default()) {
            Ok(_) => panic!("{line}: relayed"),
            Err(r) => r,
        }
    }

    #[test]
    fn every_command_the_page_sends_is_relayed() {
        for line in [
            "1 protocol_version",
            "2 variants",
            "3 newgame variant classic players 2 rules=de",
            "4 newgame",
            "5 position",
            "6 position variant=classic players=2 turn=1",
            "7 position startpos variant dice players 3 moves +1,2,3 1@g7",
            "8 geometry",
            "9 status",
            "10 score",
            "11 history",
            "12 next",
            "13 next 5@h8,3@h9",
            "14 draw",
            "14 draw 355",
            "14 draw 3 5 5",
            "15 place 5@h8,3@h9",
            "16 place pass",
            "17 undo",
            "18 go movetime 1000",
            "19 go movetime 600000",
            "20 stop",
            "21 score 5@h8",
            "22 setoption name MultiPV value 3",
            "22 setoption name Strategy value random",
            "22 setoption name Strategy value greedy",
            "22 setoption name Strategy value search",
            "23 go nodes 1000000",
            "24 go nodes 100000000 searchmoves 4@h8,1@h9,4@h10",
            "25 isready",
            "25 protocol 3",
            "26 analyse nodes 1000000",
            "27 analyse movetime 500 startpos variant kids moves +05 0@e5,5@e6",
            "007\tgo  movetime 10 ",
        ] {
            ok(line);
        }
        assert_eq!(ok("007 go movetime 10"), "007", "the id as written");
    }

    #[test]
    fn jobs_without_a_bound_the_page_needs_are_refused() {
        for (line, code) in [
            ("1 legal", "unknown_command"),
            ("1 legal count", "unknown_command"),
            ("1 perft 3", "unknown_command"),
            ("1 bench", "unknown_command"),
            ("1 quit", "unknown_command"),
            ("1 setoption name Threads value 64", "invalid_argument"),
            ("1 setoption name MultiPV value 256", "invalid_argument"),
            ("1 setoption name MultiPV value 0", "invalid_argument"),
            ("1 setoption name Strategy value minimax", "invalid_argument"),
            ("1 setoption name Seed value 1", "invalid_argument"),
            ("1 go", "invalid_argument"),
            ("1 go infinite", "invalid_argument"),
            ("1 go depth 20", "invalid_argument"),
            ("1 go nodes 1000000000000 depth 20", "invalid_argument"),
            ("1 go nodes 100000001", "invalid_argument"),
            ("1 go movetime 600001", "invalid_argument"),
            ("1 go movetime 0", "invalid_argument"),
            ("1 go movetime 100 infinite", "invalid_argument"),
            ("1 go movetime 100 searchmoves 1@h8 infinite", "invalid_argument"),
            ("1 go movetime 100 nodes 5", "invalid_argument"),
            ("1 go movetime 99999999999999999999999", "invalid_argument"),
            ("1 go movetime -1", "invalid_argument"),
            ("1 analyse", "invalid_argument"),
            ("1 analyse depth 20", "invalid_argument"),
            ("1 analyse nodes 100000001", "invalid_argument"),
            ("1 analyse nodes 5 movetime 5", "invalid_argument"),
            ("1 analyse movetime 5 depth 3 startpos", "invalid_argument"),
            ("1 place 5@h8 3@h9", "invalid_argument"),
            ("1 status extra", "invalid_argument"),
            ("1 NAME", "unknown_command"),
        ] {
            let r = refused(line);
            assert_eq!((r.code, r.id.as_deref()), (code, Some("1")), "{line}: {r}");
        }
    }

    #[test]
    fn a_line_without_an_id_is_refused_without_one() {
        for line in ["isready", "", "   ", "# comment", "1234567890 isready", "-1 isready", "1a isready"] {
            let r = refused(line);
            assert_eq!((r.code, r.id.as_deref()), ("syntax_error", None), "{line:?}");
            assert_eq!(r.lines(2)[0], format!("? syntax_error {}", r.message));
            assert_eq!(r.lines(3)[0], format!("? syntax_error bad_id {}", r.message));
        }
        let r = refused("42");
        assert_eq!(
            r.lines(2),
            ["?42 syntax_error a command is expected after the id".to_string(), String::new()]
        );
        assert_eq!(r.lines(3)[0], "?42 syntax_error missing_command a command is expected after the id");
        assert_eq!(
            refused("7 perft 2").lines(3)[0],
            "?7 unknown_command not_relayed zatre-web does not relay 'perft' to the engine"
        );
        assert_eq!(
            refused("8 go infinite").lines(3)[0].split(' ').take(3).collect::<Vec<_>>(),
            ["?8", "invalid_argument", "not_relayed_form"]
        );
        assert_eq!(
            (protocol_asked("1 protocol 3"), protocol_asked("1 protocol 2"), protocol_asked("1 protocol 4")),
            (Some(3), Some(2), None)
        );
    }

    #[test]
    fn only_spaces_and_tabs_split_words_as_in_the_engine() {
        // A vertical tab is part of a word for the engine: `go\x0binfinite` is no `go`.
        assert_eq!(refused("1 go\x0binfinite").code, "unknown_command");
        assert_eq!(refused("1 go movetime\u{a0}100").code, "invalid_argument");
    }

    #[test]
    fn the_caps_are_the_operators() {
        let limits = CommandLimits { max_movetime: 100, max_nodes: 10, max_multipv: 5 };
        assert!(check("1 go movetime 100", &limits).is_ok());
        assert!(check("1 go movetime 101", &limits).is_err());
        assert!(check("1 go nodes 10", &limits).is_ok());
        assert!(check("1 go nodes 11", &limits).is_err());
        assert!(check("1 setoption name multipv value 5", &limits).is_ok());
        let r = check("1 go nodes 11", &limits).expect_err("over the cap");
        assert_eq!(r.message, "nodes takes 1 to 10 here (zatre-web --max-nodes)");
    }

    #[test]
    fn echoed_text_is_short_and_has_no_control_characters() {
        let long = "x".repeat(65536);
        let r = refused(&format!("1 {long}"));
        assert!(r.message.len() < 120, "{}", r.message);
        assert!(r.message.contains("(65536 bytes)"), "{}", r.message);
        assert_eq!(echo("a\x1b[31mb"), "a\\u{1b}[31mb");
    }

    #[test]
    fn moves_are_recognised_by_their_form() {
        for m in ["pass", "5@h8", "5@h8,3@h9,12@aa10"] {
            assert!(is_move(m), "{m}");
        }
        for m in ["", "infinite", "depth", "5@", "@h8", "5@8", "5@h", "5@H8", "5@h8,", "-1@h8"] {
            assert!(!is_move(m), "{m}");
        }
    }
}
