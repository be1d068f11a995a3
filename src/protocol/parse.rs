//! The line framing and the nom parser from one input line to a [`Command`].
//!
//! A line is `[<id>] <command> [<args>]`; tokens are split by spaces or tabs. The parser checks the
//! shape only and does nothing: `cut` right after each command word makes bad arguments of a known
//! command a `syntax_error` (or `invalid_argument` for a number out of range) instead of an
//! `unknown_command`.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1, take_while1};
use nom::character::complete::{char, digit1, satisfy, space1};
use nom::combinator::{cut, eof, not, opt, peek};
use nom::error::{ErrorKind, ParseError as NomParseError};
use nom::multi::separated_list1;
use nom::sequence::{preceded, separated_pair, terminated};
use nom::{Err, IResult, Parser};
use thiserror::Error;

use crate::rules::parse_number;

use super::command::{
    AnalyseArgs, Command, GoArgs, Id, NewGameArgs, PositionArgs, RawMove, RawPlacement, Token,
};
use super::reason::Reason;
use super::registry;
use super::response::{ErrorCode, Failure};

/// The longest line accepted, in bytes, without its `\n` and a trailing `\r`.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The deepest `perft`: more than the moves of any game without passes (a dice board of 25 x 25
/// lasts at most 312 turns). The game tree can be infinite (the kids' game can pass turn after
/// turn), and `perft` recurses once per level, so its depth needs a bound (PROTOCOL.md, `perft`).
pub const MAX_PERFT_DEPTH: u32 = 1000;
/// What an error says a `perft` depth is (with [`MAX_PERFT_DEPTH`] in it).
const PERFT_DEPTH: &str = "depth (at most 1000)";

/// How much of an offending token an error message quotes.
const QUOTE_CHARS: usize = 32;

/// Why a line is not a valid command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The line is not UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// The line is longer than [`MAX_LINE_BYTES`].
    #[error("the line is longer than {MAX_LINE_BYTES} bytes")]
    TooLong,
    /// A leading number of more than 9 digits.
    #[error("an id has 1 to 9 digits, found {0}")]
    IdTooLong(String),
    /// An id with no command after it.
    #[error("a command is expected after the id")]
    MissingCommand,
    /// The first word is no command.
    #[error("unknown command {0}")]
    UnknownCommand(String),
    /// A known command whose arguments have the wrong shape.
    #[error("{command}: expected {expected}, found {found}")]
    Expected {
        /// The command word.
        command: String,
        /// What the parser expected there.
        expected: &'static str,
        /// What it found (quoted, shortened), or `end of line`.
        found: String,
    },
    /// A keyword argument given twice.
    #[error("{command}: {what} is given twice")]
    Duplicate {
        /// The command word.
        command: String,
        /// The repeated argument.
        what: &'static str,
    },
    /// A number that does not fit, or a row 0.
    #[error("{command}: {what} out of range: {found}")]
    OutOfRange {
        /// The command word.
        command: String,
        /// What the number is.
        what: &'static str,
        /// The number as written (quoted, shortened).
        found: String,
    },
}

impl ParseError {
    /// The protocol error code of this error.
    pub fn code(&self) -> ErrorCode {
        Reason::from(self).code()
    }
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Failure {
        Failure::of(&e)
    }
}

/// One input line after framing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// An empty line, a line of blanks or a `#` comment: answered with nothing.
    Ignored,
    /// A request: to be answered with exactly one response.
    Request {
        /// The id, when the line has one (also when the command after it is bad).
        id: Option<Id>,
        /// The command, or why the line is not one.
        command: Result<Command, ParseError>,
    },
}

/// Frames and parses one input line, given without or with its `\n`.
///
/// A trailing `\r` is dropped; blanks (spaces and tabs) around the line are ignored; a line whose
/// first non-blank character is `#` is a comment.
pub fn parse_line(raw: &[u8]) -> Line {
    let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    if raw.len() > MAX_LINE_BYTES {
        return Line::Request { id: None, command: Err(ParseError::TooLong) };
    }
    let Ok(text) = std::str::from_utf8(raw) else {
        return Line::Request { id: None, command: Err(ParseError::NotUtf8) };
    };
    let text = text.trim_matches(is_blank);
    if text.is_empty() || text.starts_with('#') {
        return Line::Ignored;
    }
    parse_request(text)
}

/// Parses a trimmed, non-empty line: the id, then the command.
fn parse_request(text: &str) -> Line {
    let first = text.split(is_blank).next().unwrap_or("");
    let (id, rest) = if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        match Id::new(first) {
            Some(id) => (Some(id), text[first.len()..].trim_start_matches(is_blank)),
            None => {
                let err = ParseError::IdTooLong(quote(first));
                return Line::Request { id: None, command: Err(err) };
            }
        }
    } else {
        (None, text)
    };
    if rest.is_empty() {
        return Line::Request { id, command: Err(ParseError::MissingCommand) };
    }
    Line::Request { id, command: parse_command(rest) }
}

/// Parses a command with its arguments: a trimmed string that starts with the command word.
///
/// # Errors
/// [`ParseError::UnknownCommand`] when the first word is no command; the other variants when the
/// arguments of a known command are wrong.
pub fn parse_command(text: &str) -> Result<Command, ParseError> {
    let word = text.split(is_blank).next().unwrap_or("");
    match command.parse(text) {
        Ok((_, command)) => Ok(command),
        Err(Err::Error(_)) | Err(Err::Incomplete(_)) => Err(ParseError::UnknownCommand(quote(word))),
        Err(Err::Failure(e)) => Err(e.into_parse_error(word)),
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// `'token'`, shortened to [`QUOTE_CHARS`] characters.
fn quote(token: &str) -> String {
    let mut chars = token.chars();
    let short: String = chars.by_ref().take(QUOTE_CHARS).collect();
    if chars.next().is_some() {
        format!("'{short}...'")
    } else {
        format!("'{short}'")
    }
}

/// What a sub-parser reports; turned into a [`ParseError`] once the command word is known.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Problem<'a> {
    input: &'a str,
    kind: ProblemKind,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum ProblemKind {
    /// A nom combinator failed; `expect` names what was expected.
    Nom,
    Expected(&'static str),
    Duplicate(&'static str),
    OutOfRange(&'static str),
}

impl<'a> Problem<'a> {
    fn new(input: &'a str, kind: ProblemKind) -> Problem<'a> {
        Problem { input, kind }
    }

    fn into_parse_error(self, command: &str) -> ParseError {
        let command = command.to_owned();
        let token = self.input.trim_start_matches(is_blank).split(is_blank).next().unwrap_or("");
        let found = if token.is_empty() { "end of line".to_owned() } else { quote(token) };
        match self.kind {
            ProblemKind::Nom => ParseError::Expected { command, expected: "end of line", found },
            ProblemKind::Expected(expected) => ParseError::Expected { command, expected, found },
            ProblemKind::Duplicate(what) => ParseError::Duplicate { command, what },
            ProblemKind::OutOfRange(what) => ParseError::OutOfRange { command, what, found },
        }
    }
}

impl<'a> NomParseError<&'a str> for Problem<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        Problem::new(input, ProblemKind::Nom)
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

pub(super) type PResult<'a, T> = IResult<&'a str, T, Problem<'a>>;

/// Runs `p`; a plain nom error becomes "expected `what`" at the start of the input.
fn expect<'a, O>(
    what: &'static str,
    mut p: impl Parser<&'a str, Output = O, Error = Problem<'a>>,
) -> impl FnMut(&'a str) -> PResult<'a, O> {
    move |i: &'a str| {
        p.parse(i).map_err(|e| {
            e.map(|problem| match problem.kind {
                ProblemKind::Nom => Problem::new(i, ProblemKind::Expected(what)),
                _ => problem,
            })
        })
    }
}

/// The end of a token: a blank or the end of the line, not consumed.
fn token_end(i: &str) -> PResult<'_, ()> {
    not(satisfy(|c| !is_blank(c))).parse(i)
}

/// Exactly the word `w`, as a whole token.
fn keyword<'a>(w: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Problem<'a>> {
    terminated(tag(w), token_end)
}

/// Any token: a run of non-blank characters.
fn token(i: &str) -> PResult<'_, &str> {
    take_till1(is_blank).parse(i)
}

/// The next argument: blanks, then `p`, which must take the whole token.
fn arg<'a, O>(
    what: &'static str,
    p: impl Parser<&'a str, Output = O, Error = Problem<'a>>,
) -> impl FnMut(&'a str) -> PResult<'a, O> {
    expect(what, preceded(space1, terminated(p, token_end)))
}

/// The end of the line: no more arguments.
fn end(i: &str) -> PResult<'_, ()> {
    expect("end of line", eof).map(|_| ()).parse(i)
}

/// A decimal number that fits `T`; digits that overflow are a failure, not a nom error.
fn number<'a, T: std::str::FromStr>(what: &'static str) -> impl FnMut(&'a str) -> PResult<'a, T> {
    move |i: &'a str| {
        let (rest, digits) = digit1(i)?;
        match parse_number::<T>(digits) {
            Some(n) => Ok((rest, n)),
            None => Err(Err::Failure(Problem::new(i, ProblemKind::OutOfRange(what)))),
        }
    }
}

/// A `perft` depth, at most [`MAX_PERFT_DEPTH`].
fn perft_depth(i: &str) -> PResult<'_, u32> {
    let (rest, depth) = number::<u32>(PERFT_DEPTH).parse(i)?;
    if depth > MAX_PERFT_DEPTH {
        return Err(Err::Failure(Problem::new(i, ProblemKind::OutOfRange(PERFT_DEPTH))));
    }
    Ok((rest, depth))
}

/// A cell, `<letter a..z><row from 1>`: (0-based column, 1-based row).
fn cell(i: &str) -> PResult<'_, (u8, u16)> {
    let (rest, letter) = satisfy(|c| c.is_ascii_lowercase()).parse(i)?;
    // A row too large is quoted as the whole cell, like a row 0.
    let (rest, row) = number::<u16>("row").parse(rest).map_err(|e| e.map(|p| Problem::new(i, p.kind)))?;
    if row == 0 {
        return Err(Err::Failure(Problem::new(i, ProblemKind::OutOfRange("row"))));
    }
    // `letter` is an ASCII lowercase letter, so the subtraction cannot underflow.
    let column = (letter as u8) - b'a';
    Ok((rest, (column, row)))
}

/// `<value>@<cell>`.
fn placement(i: &str) -> PResult<'_, RawPlacement> {
    separated_pair(number::<u8>("tile value"), char('@'), cell)
        .map(|(value, (column, row))| RawPlacement { value, column, row })
        .parse(i)
}

/// `pass` or placements joined by `,`, as one token.
fn raw_move(i: &str) -> PResult<'_, RawMove> {
    terminated(
        alt((
            keyword("pass").map(|_| RawMove::Pass),
            separated_list1(char(','), placement).map(RawMove::Place),
        )),
        token_end,
    )
    .parse(i)
}

/// `+` and the drawn values, one digit each.
fn draw_token(i: &str) -> PResult<'_, Vec<u8>> {
    let (rest, _) = char('+').parse(i)?;
    let (rest, digits) = opt(digit1).parse(rest)?;
    let values = digits.unwrap_or("").bytes().map(|b| b - b'0').collect();
    Ok((rest, values))
}

/// A token of a `moves` list: a draw or a move.
fn replay_token(i: &str) -> PResult<'_, Token> {
    terminated(alt((draw_token.map(Token::Draw), raw_move.map(Token::Move))), token_end).parse(i)
}

/// A `key=value` token; neither side empty.
fn key_value(i: &str) -> PResult<'_, (String, String)> {
    separated_pair(take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-'), char('='), token)
        .map(|(k, v): (&str, &str)| (k.to_owned(), v.to_owned()))
        .parse(i)
}

/// Fails with "`what` is given twice" at `i` when `slot` is already set.
fn once<'a, T>(slot: &Option<T>, what: &'static str, i: &'a str) -> Result<(), Err<Problem<'a>>> {
    match slot {
        Some(_) => Err(Err::Failure(Problem::new(i, ProblemKind::Duplicate(what)))),
        None => Ok(()),
    }
}

/// The arguments of `newgame` up to the end of the line or a `moves` keyword.
fn newgame_args(mut i: &str) -> PResult<'_, NewGameArgs> {
    let mut args = NewGameArgs::default();
    loop {
        if eof::<_, Problem>(i).is_ok() || peek(preceded(space1, keyword("moves"))).parse(i).is_ok() {
            return Ok((i, args));
        }
        let at = i;
        let (rest, _) = space1(i)?;
        if let Ok((rest, _)) = keyword("variant").parse(rest) {
            once(&args.variant, "variant", at)?;
            let (rest, v) = arg("a variant", token).parse(rest)?;
            args.variant = Some(v.to_owned());
            i = rest;
        } else if let Ok((rest, _)) = keyword("players").parse(rest) {
            i = keyword_number(rest, at, &mut args.players, "players", "a number of players")?;
        } else if let Ok((rest, _)) = keyword("seed").parse(rest) {
            i = keyword_number(rest, at, &mut args.seed, "seed", "a seed")?;
        } else {
            let (rest, kv) =
                expect("variant, players, seed or <rule>=<value>", terminated(key_value, token_end))(rest)?;
            args.rules.push(kv);
            i = rest;
        }
    }
}

fn go_args(mut i: &str) -> PResult<'_, GoArgs> {
    let mut args = GoArgs::default();
    loop {
        if eof::<_, Problem>(i).is_ok() {
            return Ok((i, args));
        }
        let at = i;
        let (rest, _) = space1(i)?;
        // No word at all (blanks at the end) falls to the error of an unknown one.
        let (rest, word) = token(rest).unwrap_or((rest, ""));
        if let Some(read) = search_limit(word, rest, at, &mut args.movetime, &mut args.nodes, &mut args.depth)
        {
            i = read?;
            continue;
        }
        i = match word {
            "time" => keyword_number(rest, at, &mut args.time, "time", "milliseconds")?,
            "inc" => keyword_number(rest, at, &mut args.inc, "inc", "milliseconds")?,
            "movestogo" => keyword_number(rest, at, &mut args.movestogo, "movestogo", "a number of moves")?,
            "infinite" => {
                once(&args.infinite.then_some(()), "infinite", at)?;
                args.infinite = true;
                rest
            }
            "searchmoves" => {
                // The moves, one at least, run to the end of the line.
                let (rest, first) = arg("a move", raw_move).parse(rest)?;
                let (rest, more) = to_end(rest, "a move", raw_move)?;
                args.searchmoves = std::iter::once(first).chain(more).collect();
                rest
            }
            _ => {
                return Err(Err::Failure(Problem::new(
                    at,
                    ProblemKind::Expected(
                        "movetime, nodes, depth, infinite, time, inc, movestogo or searchmoves",
                    ),
                )))
            }
        };
    }
}

/// The number after a keyword of `go` or `newgame` (`what` it is, for the error), into its `slot`
/// (`word` given once); the input after it.
/// The limits of a search that `go` and `analyse` share, `movetime <ms>`, `nodes <n>` and
/// `depth <d>`, each at most once: the rest after the word's number, or `None` for another word.
fn search_limit<'a>(
    word: &str,
    rest: &'a str,
    at: &'a str,
    movetime: &mut Option<u64>,
    nodes: &mut Option<u64>,
    depth: &mut Option<u32>,
) -> Option<Result<&'a str, Err<Problem<'a>>>> {
    Some(match word {
        "movetime" => keyword_number(rest, at, movetime, "movetime", "milliseconds"),
        "nodes" => keyword_number(rest, at, nodes, "nodes", "a node count"),
        "depth" => keyword_number(rest, at, depth, "depth", "a depth"),
        _ => return None,
    })
}

fn keyword_number<'a, T: std::str::FromStr>(
    rest: &'a str,
    at: &'a str,
    slot: &mut Option<T>,
    word: &'static str,
    what: &'static str,
) -> Result<&'a str, Err<Problem<'a>>> {
    once(slot, word, at)?;
    let (rest, n) = arg(what, number::<T>(word)).parse(rest)?;
    *slot = Some(n);
    Ok(rest)
}

/// Items of `p` (each after blanks; `what` one is, for the error) to the end of the line.
fn to_end<'a, O>(
    mut i: &'a str,
    what: &'static str,
    p: impl Parser<&'a str, Output = O, Error = Problem<'a>>,
) -> PResult<'a, Vec<O>> {
    let mut item = arg(what, p);
    let mut items = Vec::new();
    while eof::<_, Problem>(i).is_err() {
        let (rest, x) = item(i)?;
        items.push(x);
        i = rest;
    }
    Ok((i, items))
}

pub(super) fn setoption_args(i: &str) -> PResult<'_, Command> {
    let (i, _) = arg("name", keyword("name")).parse(i)?;
    let (i, name) = arg("an option name", token).parse(i)?;
    let (i, _) = arg("value", keyword("value")).parse(i)?;
    let (i, first) = arg("a value", token).parse(i)?;
    let mut value = first.to_owned();
    let mut i = i;
    while let Ok((rest, t)) = preceded(space1::<_, Problem>, token).parse(i) {
        value.push(' ');
        value.push_str(t);
        i = rest;
    }
    Ok((i, Command::SetOption { name: name.to_owned(), value }))
}

fn position_args(i: &str) -> PResult<'_, PositionArgs> {
    if eof::<_, Problem>(i).is_ok() {
        return Ok((i, PositionArgs::Print));
    }
    if let Ok((rest, _)) = preceded(space1::<_, Problem>, keyword("startpos")).parse(i) {
        let (rest, newgame) = newgame_args(rest)?;
        let (rest, moves) = opt(preceded(space1, keyword("moves"))).parse(rest)?;
        let (rest, tokens) = match moves {
            Some(_) => to_end(rest, "a draw (+35) or a move", replay_token)?,
            None => (rest, Vec::new()),
        };
        return Ok((rest, PositionArgs::StartPos { newgame, tokens }));
    }
    let (rest, first) = arg("startpos or a position line", key_value).parse(i)?;
    let (rest, more) = to_end(rest, "a <field>=<value> of the position line", key_value)?;
    Ok((rest, PositionArgs::Line(std::iter::once(first).chain(more).collect())))
}

/// A command that takes no arguments: `command` when the line ends after its word.
pub(super) fn bare(i: &str, command: Command) -> PResult<'_, Command> {
    end.map(move |_| command.clone()).parse(i)
}

pub(super) fn known_command_args(i: &str) -> PResult<'_, Command> {
    arg("a command word", token).map(|w: &str| Command::KnownCommand(w.to_owned())).parse(i)
}

pub(super) fn newgame_command(i: &str) -> PResult<'_, Command> {
    newgame_args.map(Command::NewGame).parse(i)
}

pub(super) fn draw_args(i: &str) -> PResult<'_, Command> {
    let word = i.trim_start_matches(is_blank);
    if word.len() > 1 && word.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(("", Command::DrawWord(word.to_owned())));
    }
    draw_values.map(Command::Draw).parse(i)
}

pub(super) fn undo_args(i: &str) -> PResult<'_, Command> {
    alt((
        end.map(|_| Command::Undo),
        preceded(space1, terminated(tag("turn"), end)).map(|_| Command::UndoTurn),
    ))
    .parse(i)
}

/// A parsed command as the protocol version in force reads it: version 2 knows neither
/// `draw 355` (a number, `draw 12` the value 12) nor `undo turn`, and answers them as it always
/// has.
pub fn in_version(command: Result<Command, ParseError>, version: u32) -> Result<Command, ParseError> {
    if version >= 3 {
        return command;
    }
    match command {
        Ok(Command::DrawWord(digits)) => match parse_number::<u8>(&digits) {
            Some(value) => Ok(Command::Draw(vec![value])),
            None => Err(ParseError::OutOfRange {
                command: "draw".to_owned(),
                what: "tile value",
                found: quote(&digits),
            }),
        },
        Ok(Command::UndoTurn) => Err(ParseError::Expected {
            command: "undo".to_owned(),
            expected: "end of line",
            found: quote("turn"),
        }),
        other => other,
    }
}

pub(super) fn place_args(i: &str) -> PResult<'_, Command> {
    arg("a move", raw_move).map(Command::Place).parse(i)
}

pub(super) fn legal_args(i: &str) -> PResult<'_, Command> {
    opt(arg("count", keyword("count")))
        .map(|c| match c {
            Some(_) => Command::LegalCount,
            None => Command::Legal,
        })
        .parse(i)
}

pub(super) fn score_args(i: &str) -> PResult<'_, Command> {
    opt(arg("a move", raw_move)).map(Command::Score).parse(i)
}

pub(super) fn position_command(i: &str) -> PResult<'_, Command> {
    position_args.map(Command::Position).parse(i)
}

pub(super) fn go_command(i: &str) -> PResult<'_, Command> {
    go_args.map(Command::Go).parse(i)
}

/// `analyse [movetime <ms>] [nodes <n>] [depth <d>] [startpos [newgame args] [moves <tokens>]]`:
/// the limits in any order, each at most once, and the game last, running to the end of the line.
pub(super) fn analyse_args(mut i: &str) -> PResult<'_, Command> {
    let mut args = AnalyseArgs::default();
    loop {
        if eof::<_, Problem>(i).is_ok() {
            return Ok((i, Command::Analyse(args)));
        }
        let at = i;
        let (rest, _) = space1(i)?;
        let (rest, word) = token(rest).unwrap_or((rest, ""));
        if let Some(read) = search_limit(word, rest, at, &mut args.movetime, &mut args.nodes, &mut args.depth)
        {
            i = read?;
            continue;
        }
        i = match word {
            "startpos" => match position_args(at)? {
                (rest, PositionArgs::StartPos { newgame, tokens }) => {
                    args.game = Some((newgame, tokens));
                    rest
                }
                // `position_args` after `startpos` gives nothing else.
                (rest, _) => rest,
            },
            _ => {
                return Err(Err::Failure(Problem::new(
                    at,
                    ProblemKind::Expected("movetime, nodes, depth or startpos"),
                )))
            }
        };
    }
}

pub(super) fn protocol_args(i: &str) -> PResult<'_, Command> {
    arg("a version", number::<u32>("version")).map(Command::Protocol).parse(i)
}

pub(super) fn perft_args(i: &str) -> PResult<'_, Command> {
    arg("a depth", perft_depth).map(Command::Perft).parse(i)
}

pub(super) fn next_args(i: &str) -> PResult<'_, Command> {
    opt(arg("placements joined by ,", placements)).map(|p| Command::Next(p.unwrap_or_default())).parse(i)
}

/// The command word, looked up in the registry, then its arguments, cut after the word: a word
/// that is no command is a nom error (`unknown_command`), bad arguments a failure.
fn command(i: &str) -> PResult<'_, Command> {
    let (rest, word) = token(i)?;
    let Some(def) = registry::find(word) else {
        return Err(Err::Error(Problem::new(i, ProblemKind::Nom)));
    };
    cut(terminated(def.parse, end)).parse(rest)
}

/// Placements joined by `,`, as one token (`next`).
fn placements(i: &str) -> PResult<'_, Vec<RawPlacement>> {
    terminated(separated_list1(char(','), placement), token_end).parse(i)
}

/// `draw`'s values: blank-separated numbers, possibly none.
fn draw_values(mut i: &str) -> PResult<'_, Vec<u8>> {
    let mut values = Vec::new();
    while eof::<_, Problem>(i).is_err() {
        let (rest, v) = arg("a tile value", number::<u8>("tile value")).parse(i)?;
        values.push(v);
        i = rest;
    }
    Ok((i, values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ok(line: &str) -> Command {
        match parse_line(line.as_bytes()) {
            Line::Request { command: Ok(c), .. } => c,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn err(line: &str) -> (ErrorCode, String) {
        match parse_line(line.as_bytes()) {
            Line::Request { command: Err(e), .. } => (e.code(), e.to_string()),
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn p(value: u8, column: u8, row: u16) -> RawPlacement {
        RawPlacement { value, column, row }
    }

    #[test]
    fn framing_ignores_blank_and_comment_lines() {
        for line in ["", "   ", "\t", "\r", "# hello", "  # indented", "\r\n", "\n"] {
            assert_eq!(parse_line(line.as_bytes()), Line::Ignored, "{line:?}");
        }
    }

    #[test]
    fn framing_reads_the_id() {
        let line = parse_line(b"42 name\r\n");
        assert_eq!(line, Line::Request { id: Id::new("42"), command: Ok(Command::Name) });
        let line = parse_line(b"\t007\t \tname \t");
        assert_eq!(line, Line::Request { id: Id::new("007"), command: Ok(Command::Name) });
        assert_eq!(parse_line(b"name"), Line::Request { id: None, command: Ok(Command::Name) });
    }

    #[test]
    fn framing_errors() {
        assert_eq!(err("1234567890 name").0, ErrorCode::SyntaxError);
        assert_eq!(
            parse_line(b"12"),
            Line::Request { id: Id::new("12"), command: Err(ParseError::MissingCommand) }
        );
        let bad = [b'n', b'a', 0xff, b'e'];
        assert_eq!(parse_line(&bad), Line::Request { id: None, command: Err(ParseError::NotUtf8) });
        let long = vec![b'a'; MAX_LINE_BYTES + 1];
        assert_eq!(parse_line(&long), Line::Request { id: None, command: Err(ParseError::TooLong) });
        let mut at_limit = b"known_command ".to_vec();
        at_limit.resize(MAX_LINE_BYTES, b'x');
        at_limit.extend_from_slice(b"\r\n");
        assert!(matches!(parse_line(&at_limit), Line::Request { command: Ok(_), .. }));
    }

    #[test]
    fn unknown_command_is_not_a_syntax_error() {
        assert_eq!(err("frobnicate 1 2"), (ErrorCode::UnknownCommand, "unknown command 'frobnicate'".into()));
        assert_eq!(err("NAME").0, ErrorCode::UnknownCommand);
        assert_eq!(err("names").0, ErrorCode::UnknownCommand);
        assert_eq!(err("12abc").0, ErrorCode::UnknownCommand);
    }

    #[test]
    fn bare_commands_take_no_arguments() {
        for word in [
            "protocol_version",
            "name",
            "version",
            "list_commands",
            "help",
            "isready",
            "quit",
            "options",
            "undo",
            "show",
            "stop",
            "bench",
        ] {
            assert!(matches!(parse_line(word.as_bytes()), Line::Request { command: Ok(_), .. }));
            let (code, message) = err(&format!("{word} extra"));
            assert_eq!(code, ErrorCode::SyntaxError);
            assert_eq!(message, format!("{word}: expected end of line, found 'extra'"));
        }
    }

    #[test]
    fn moves() {
        assert_eq!(ok("place pass"), Command::Place(RawMove::Pass));
        assert_eq!(ok("place 5@h8"), Command::Place(RawMove::Place(vec![p(5, 7, 8)])));
        assert_eq!(
            ok("place 5@h8,3@h9,1@a15"),
            Command::Place(RawMove::Place(vec![p(5, 7, 8), p(3, 7, 9), p(1, 0, 15)]))
        );
        assert_eq!(ok("score 5@h8"), Command::Score(Some(RawMove::Place(vec![p(5, 7, 8)]))));
        assert_eq!(ok("score"), Command::Score(None));
        for bad in [
            "place",
            "place 5@h8,",
            "place 5@H8",
            "place 5h8",
            "place 5@h8 3@h9",
            "place passx",
            "place 5@h8,pass",
        ] {
            assert_eq!(err(bad).0, ErrorCode::SyntaxError, "{bad}");
        }
        for bad in ["place 300@h8", "place 5@h0", "place 5@h70000", "place 5@h8,99999999999999999999@a1"] {
            assert_eq!(err(bad).0, ErrorCode::InvalidArgument, "{bad}");
        }
        assert_eq!(
            err("place"),
            (ErrorCode::SyntaxError, "place: expected a move, found end of line".into())
        );
    }

    #[test]
    fn a_row_out_of_range_quotes_the_whole_cell() {
        // `1@h99999` quoted '99999' while `1@h0` quoted 'h0'.
        assert_eq!(
            err("place 1@h99999"),
            (ErrorCode::InvalidArgument, "place: row out of range: 'h99999'".into())
        );
        assert_eq!(err("place 1@h0"), (ErrorCode::InvalidArgument, "place: row out of range: 'h0'".into()));
        assert_eq!(err("place 1@h").0, ErrorCode::SyntaxError);
    }

    #[test]
    fn draws() {
        assert_eq!(ok("draw"), Command::Draw(vec![]));
        assert_eq!(ok("draw 3 5\t6"), Command::Draw(vec![3, 5, 6]));
        assert_eq!(err("draw 3,5").0, ErrorCode::SyntaxError);
        assert_eq!(ok("draw 256"), Command::DrawWord("256".to_owned()));
        assert_eq!(ok("draw 3 5"), Command::Draw(vec![3, 5]));
        // Version 2 reads one word of digits as one number, as it always has.
        let v2 = |line: &str| in_version(Ok(ok(line)), 2);
        assert_eq!(v2("draw 256").map_err(|e| e.code()), Err(ErrorCode::InvalidArgument));
        assert_eq!(v2("draw 12"), Ok(Command::Draw(vec![12])));
        assert_eq!(in_version(Ok(ok("draw 355")), 3), Ok(Command::DrawWord("355".to_owned())));
    }

    #[test]
    fn undo_turn_is_version_3() {
        assert_eq!(ok("undo"), Command::Undo);
        assert_eq!(ok("undo  turn"), Command::UndoTurn);
        assert_eq!(err("undo turns").0, ErrorCode::SyntaxError);
        assert_eq!(err("undo turn 2").0, ErrorCode::SyntaxError);
        let v2 = in_version(Ok(Command::UndoTurn), 2).map_err(|e| e.to_string());
        assert_eq!(v2, Err("undo: expected end of line, found 'turn'".to_owned()));
        assert_eq!(in_version(Ok(Command::UndoTurn), 3), Ok(Command::UndoTurn));
    }

    #[test]
    fn newgame() {
        assert_eq!(ok("newgame"), Command::NewGame(NewGameArgs::default()));
        let c = ok("newgame variant dice players 3 seed 18446744073709551615 size=13 adjacent=off");
        assert_eq!(
            c,
            Command::NewGame(NewGameArgs {
                variant: Some("dice".into()),
                players: Some(3),
                seed: Some(u64::MAX),
                rules: vec![("size".into(), "13".into()), ("adjacent".into(), "off".into())],
            })
        );
        assert_eq!(err("newgame seed 18446744073709551616").0, ErrorCode::InvalidArgument);
        assert_eq!(err("newgame players").0, ErrorCode::SyntaxError);
        assert_eq!(err("newgame players 2 players 3").0, ErrorCode::SyntaxError);
        assert_eq!(err("newgame bogus").0, ErrorCode::SyntaxError);
        assert_eq!(err("newgame =x").0, ErrorCode::SyntaxError);
        assert_eq!(err("newgame rules=").0, ErrorCode::SyntaxError);
    }

    #[test]
    fn go_and_friends() {
        assert_eq!(ok("go"), Command::Go(GoArgs::default()));
        assert_eq!(
            ok("go infinite depth 3 nodes 10 movetime 50"),
            Command::Go(GoArgs {
                movetime: Some(50),
                nodes: Some(10),
                depth: Some(3),
                infinite: true,
                ..GoArgs::default()
            })
        );
        assert_eq!(err("go depth 1 depth 2").0, ErrorCode::SyntaxError);
        assert_eq!(err("go infinite infinite").0, ErrorCode::SyntaxError);
        assert_eq!(err("go fast").0, ErrorCode::SyntaxError);
        assert_eq!(err("go depth").0, ErrorCode::SyntaxError);
        assert_eq!(err("go depth 4294967296").0, ErrorCode::InvalidArgument);
        assert_eq!(
            ok("go time 900 inc 10 movestogo 5 searchmoves 5@h8,3@h9 pass"),
            Command::Go(GoArgs {
                time: Some(900),
                inc: Some(10),
                movestogo: Some(5),
                searchmoves: vec![RawMove::Place(vec![p(5, 7, 8), p(3, 7, 9)]), RawMove::Pass],
                ..GoArgs::default()
            })
        );
        assert_eq!(err("go searchmoves").0, ErrorCode::SyntaxError);
        assert_eq!(err("go searchmoves 5@h8 fast").0, ErrorCode::SyntaxError);
        assert_eq!(err("go time 1 time 2").0, ErrorCode::SyntaxError);
        assert_eq!(ok("next"), Command::Next(vec![]));
        assert_eq!(ok("next 5@h8,3@h9"), Command::Next(vec![p(5, 7, 8), p(3, 7, 9)]));
        assert_eq!(err("next 5@h8 3@h9").0, ErrorCode::SyntaxError);
        assert_eq!(err("next pass").0, ErrorCode::SyntaxError);
        for (line, command) in [
            ("geometry", Command::Geometry),
            ("status", Command::Status),
            ("variants", Command::Variants),
            ("history", Command::History),
        ] {
            assert_eq!(ok(line), command);
            assert_eq!(err(&format!("{line} x")).0, ErrorCode::SyntaxError);
        }
        assert_eq!(ok("perft 3"), Command::Perft(3));
        assert_eq!(err("perft").0, ErrorCode::SyntaxError);
        assert_eq!(err("perft -1").0, ErrorCode::SyntaxError);
        assert_eq!(ok(&format!("perft {MAX_PERFT_DEPTH}")), Command::Perft(MAX_PERFT_DEPTH));
        let deeper = err(&format!("perft {}", MAX_PERFT_DEPTH + 1));
        assert_eq!(deeper.0, ErrorCode::InvalidArgument);
        assert!(deeper.1.contains(&format!("at most {MAX_PERFT_DEPTH}")), "{}", deeper.1);
        assert_eq!(ok("legal"), Command::Legal);
        assert_eq!(ok("legal count"), Command::LegalCount);
        assert_eq!(err("legal counts").0, ErrorCode::SyntaxError);
        assert_eq!(ok("known_command go"), Command::KnownCommand("go".into()));
        assert_eq!(err("known_command").0, ErrorCode::SyntaxError);
        assert_eq!(err("known_command a b").0, ErrorCode::SyntaxError);
    }

    #[test]
    fn setoption() {
        assert_eq!(
            ok("setoption name Threads value 4"),
            Command::SetOption { name: "Threads".into(), value: "4".into() }
        );
        assert_eq!(
            ok("setoption name Strategy value a  b"),
            Command::SetOption { name: "Strategy".into(), value: "a b".into() }
        );
        assert_eq!(err("setoption Threads 4").0, ErrorCode::SyntaxError);
        assert_eq!(err("setoption name Threads").0, ErrorCode::SyntaxError);
        assert_eq!(err("setoption name Threads value").0, ErrorCode::SyntaxError);
    }

    #[test]
    fn position() {
        assert_eq!(ok("position"), Command::Position(PositionArgs::Print));
        assert_eq!(
            ok("position startpos"),
            Command::Position(PositionArgs::StartPos { newgame: NewGameArgs::default(), tokens: vec![] })
        );
        assert_eq!(
            ok("position startpos players 3 moves + +35 5@h8,3@h9 pass"),
            Command::Position(PositionArgs::StartPos {
                newgame: NewGameArgs { players: Some(3), ..NewGameArgs::default() },
                tokens: vec![
                    Token::Draw(vec![]),
                    Token::Draw(vec![3, 5]),
                    Token::Move(RawMove::Place(vec![p(5, 7, 8), p(3, 7, 9)])),
                    Token::Move(RawMove::Pass),
                ],
            })
        );
        assert_eq!(
            ok("position variant=classic players=2 board=-"),
            Command::Position(PositionArgs::Line(vec![
                ("variant".into(), "classic".into()),
                ("players".into(), "2".into()),
                ("board".into(), "-".into()),
            ]))
        );
        assert_eq!(err("position startpos moves +3x").0, ErrorCode::SyntaxError);
        assert_eq!(err("position startpos moves 5@h8 moves").0, ErrorCode::SyntaxError);
        assert_eq!(err("position foo").0, ErrorCode::SyntaxError);
        assert_eq!(err("position variant=classic foo").0, ErrorCode::SyntaxError);
    }

    proptest! {
        #[test]
        fn never_panics_on_strings(s in "\\PC*") {
            let _ = parse_line(s.as_bytes());
        }

        #[test]
        fn never_panics_on_bytes(b in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse_line(&b);
        }

        #[test]
        fn never_panics_on_near_commands(
            word in proptest::sample::select(registry::words().collect::<Vec<_>>()),
            rest in "[ \t0-9a-z@,+=\\-]{0,40}",
        ) {
            let _ = parse_line(format!("{word} {rest}").as_bytes());
            let _ = parse_line(format!("1 {word}{rest}").as_bytes());
        }

        #[test]
        fn moves_round_trip(placements in proptest::collection::vec((0u8..=255, 0u8..26, 1u16..=u16::MAX), 1..5)) {
            let m = RawMove::Place(placements.iter().map(|&(v, c, r)| p(v, c, r)).collect());
            prop_assert_eq!(ok(&format!("place {m}")), Command::Place(m));
        }
    }
}
