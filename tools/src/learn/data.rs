//! The self-play data file of `zatre-learn play`, format 1: text, one line a game, replayable
//! through the rules core.
//!
//! The first line is the header: `zatre-learn-data 1` (the format and its version), then the
//! settings that decide every game, `key=value` separated by single spaces, in this order:
//! `variant=` `players=` `options=` (every rule option as the position line writes them, expanded
//! from a preset, `key=value` joined by commas) `strategy=` (`search` or `greedy`) `nodes=` (the
//! node limit of a `search` move) `explore=` (the share of moves chosen at random among greedy's
//! best `top=`) `top=` `sample=` (the share of positions whose targets are written) `seed=` (game
//! `i` draws from `seed + i`). The header is the command that made the file, less what does not
//! change its content (the threads, the number of games, the file's name): a file of `n` games is
//! the first `n` lines of a longer run's.
//!
//! Every other line is one game, `i` from 0, its fields separated by single spaces:
//!
//! - `g=<i>` and `seed=<s>`: the game's index and the seed its draws came from;
//! - `final=<t1>,<t2>,...`: every sheet's final total (rows less the pips of the kept tiles);
//! - `turns=<turn>/<turn>/...`: every turn in order, `<drawn>:<move>`, `<drawn>` the values drawn
//!   (digits, none when the turn drew nothing), `<move>` the move as the protocol writes it
//!   (placements `value@cell` joined by commas, or `pass`), marked with a leading `*` when it was
//!   chosen by exploration;
//! - `samples=<sample>/<sample>/...` (empty when none was drawn): the positions after move `ply`
//!   (from 1) whose targets are written, each `<ply>:<c1>,<c2>,...:<r1>,<r2>,...`, `c` every
//!   sheet's points still to come (its final total less its total in that position, kept tiles
//!   counted as the standings count them) and `r` its final rank (1 the best; tied sheets share
//!   the best rank of their tie; kids' dots rank by the dots of the 10, 9, 8 columns).
//!
//! Sheets are in seat order (a team's sheet counts once, as in the standings); whoever reads a
//! sample orders them from the player to move. Every line ends with `\n`; a file whose last line
//! does not is cut short and refused.

use std::fmt::Write as _;

use zatre::rules::{Move, Phase, Position, Rules, Variant};
use zatre::search::Strategy;

use crate::rule_list::rule_pairs;

/// The first word of a data file.
pub const MAGIC: &str = "zatre-learn-data";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;

/// What decides every game of a run: the header of its file.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub rules: Rules,
    /// `Search` or `Greedy`.
    pub strategy: Strategy,
    /// The node limit of a `search` move.
    pub nodes: u64,
    /// The share of moves chosen uniformly at random among greedy's best `top`.
    pub explore: f64,
    pub top: usize,
    /// The share of positions after a move whose targets are written.
    pub sample: f64,
    /// Game `i` draws from `seed + i`.
    pub seed: u64,
}

impl Settings {
    /// The header line, without its end of line.
    pub fn header(&self) -> String {
        let options: Vec<String> =
            self.rules.option_fields().iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!(
            "{MAGIC} {VERSION} variant={} players={} options={} strategy={} nodes={} explore={} top={} sample={} seed={}",
            self.rules.variant.name(),
            self.rules.players,
            options.join(","),
            self.strategy.name(),
            self.nodes,
            self.explore,
            self.top,
            self.sample,
            self.seed
        )
    }

    /// Reads a header line (without its end of line).
    ///
    /// # Errors
    /// Not a data file's header, another version, a field missing, out of order or malformed.
    pub fn parse(line: &str) -> Result<Settings, String> {
        let mut words = line.split(' ');
        if words.next() != Some(MAGIC) {
            return Err(format!("not a zatre-learn data file (it does not start with '{MAGIC}')"));
        }
        match words.next() {
            Some(v) if v == VERSION.to_string() => {}
            Some(v) => return Err(format!("format version {v}; this zatre-learn reads version {VERSION}")),
            None => return Err("the header has no format version".into()),
        }
        let mut field = |key: &str| -> Result<&str, String> {
            let word = words.next().ok_or_else(|| format!("the header has no {key}="))?;
            word.strip_prefix(key)
                .and_then(|w| w.strip_prefix('='))
                .ok_or_else(|| format!("the header has '{word}' where {key}= belongs"))
        };
        let bad = |key: &str, value: &str| format!("the header's {key}={value} is not valid");
        let variant_name = field("variant")?;
        let variant = Variant::parse(variant_name).ok_or_else(|| bad("variant", variant_name))?;
        let players = field("players")?;
        let players: u8 = players.parse().map_err(|_| bad("players", players))?;
        let options = rule_pairs(field("options")?)?;
        let rules =
            Rules::with_options(variant, players, options.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .map_err(|e| format!("the header's rules: {e}"))?;
        let strategy_name = field("strategy")?;
        let strategy = Strategy::parse(strategy_name).ok_or_else(|| bad("strategy", strategy_name))?;
        let mut number = |key: &str| -> Result<f64, String> {
            let value = field(key)?;
            value.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| bad(key, value))
        };
        let nodes = number("nodes")? as u64;
        let explore = number("explore")?;
        let top = number("top")? as usize;
        let sample = number("sample")?;
        let seed_text = field("seed")?;
        let seed = seed_text.parse().map_err(|_| bad("seed", seed_text))?;
        let settings = Settings { rules, strategy, nodes, explore, top, sample, seed };
        if let Some(extra) = words.next() {
            return Err(format!("the header goes on after seed= with '{extra}'"));
        }
        settings.check()?;
        if settings.header() != line {
            return Err("the header is not written as zatre-learn writes it".into());
        }
        Ok(settings)
    }

    /// Whether the settings make sense.
    ///
    /// # Errors
    /// A strategy other than `search` and `greedy`, no nodes, a share outside 0 to 1, no top moves.
    pub fn check(&self) -> Result<(), String> {
        if !matches!(self.strategy, Strategy::Search | Strategy::Greedy) {
            return Err(format!("the strategy is search or greedy, not {}", self.strategy.name()));
        }
        if self.nodes == 0 {
            return Err("a search move needs at least 1 node".into());
        }
        for (name, share) in [("explore", self.explore), ("sample", self.sample)] {
            if !(0.0..=1.0).contains(&share) {
                return Err(format!("--{name} is a share from 0 to 1, not {share}"));
            }
        }
        if self.top == 0 {
            return Err("--top is at least 1".into());
        }
        Ok(())
    }
}

/// One turn of a game: what was drawn and the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub drawn: Vec<u8>,
    pub mv: Move,
    /// Chosen by exploration, not by the strategy.
    pub explored: bool,
}

/// The targets of one position: the position after move `ply` (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Targets {
    pub ply: usize,
    /// Every sheet's points still to come.
    pub to_come: Vec<i64>,
    /// Every sheet's final rank, from 1.
    pub rank: Vec<usize>,
}

/// One game of a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub index: usize,
    pub seed: u64,
    pub finals: Vec<i64>,
    pub turns: Vec<Turn>,
    pub samples: Vec<Targets>,
}

impl Record {
    /// The game's line, without its end of line.
    pub fn line(&self) -> String {
        let mut s = format!("g={} seed={} final={} turns=", self.index, self.seed, join(&self.finals, ","));
        for (i, t) in self.turns.iter().enumerate() {
            if i > 0 {
                s.push('/');
            }
            for d in &t.drawn {
                let _ = write!(s, "{d}");
            }
            let _ = write!(s, ":{}{}", if t.explored { "*" } else { "" }, t.mv);
        }
        s.push_str(" samples=");
        for (i, t) in self.samples.iter().enumerate() {
            if i > 0 {
                s.push('/');
            }
            let _ = write!(s, "{}:{}:{}", t.ply, join(&t.to_come, ","), join(&t.rank, ","));
        }
        s
    }

    /// Reads a game's line (without its end of line) under `rules`. Only the form is checked;
    /// [`replay`] checks that the game is one the rules allow.
    ///
    /// # Errors
    /// A field missing, out of order or malformed.
    pub fn parse(line: &str, rules: &Rules) -> Result<Record, String> {
        let mut words = line.split(' ');
        let mut field = |key: &str| -> Result<&str, String> {
            let word = words.next().ok_or_else(|| format!("no {key}="))?;
            word.strip_prefix(key)
                .and_then(|w| w.strip_prefix('='))
                .ok_or_else(|| format!("'{}' where {key}= belongs", cut(word)))
        };
        let index = parse_number(field("g")?, "g")?;
        let seed = parse_number(field("seed")?, "seed")?;
        let finals = parse_list(field("final")?, "final")?;
        let geometry = Position::new(rules.clone()).board().geometry();
        let turns = split_nonempty(field("turns")?, '/')
            .map(|t| {
                let (drawn, mv) =
                    t.split_once(':').ok_or_else(|| format!("the turn '{}' has no ':'", cut(t)))?;
                let drawn = drawn
                    .bytes()
                    .map(|b| b.is_ascii_digit().then_some(b - b'0'))
                    .collect::<Option<Vec<u8>>>()
                    .ok_or_else(|| format!("the draw '{}' is not digits", cut(drawn)))?;
                let (explored, mv) = match mv.strip_prefix('*') {
                    Some(rest) => (true, rest),
                    None => (false, mv),
                };
                let mv = Move::parse(geometry, mv).map_err(|e| format!("the move '{}': {e}", cut(mv)))?;
                Ok(Turn { drawn, mv, explored })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let samples = split_nonempty(field("samples")?, '/')
            .map(|t| {
                let mut parts = t.split(':');
                let (Some(ply), Some(to_come), Some(rank), None) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(format!("the sample '{}' is not ply:to-come:rank", cut(t)));
                };
                Ok(Targets {
                    ply: parse_number(ply, "a sample's ply")?,
                    to_come: parse_list(to_come, "a sample's points to come")?,
                    rank: parse_list(rank, "a sample's ranks")?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        if let Some(extra) = words.next() {
            return Err(format!("the line goes on after samples= with '{}'", cut(extra)));
        }
        Ok(Record { index, seed, finals, turns, samples })
    }
}

/// A game replayed through the rules core: the position after every move (`positions[k]` after
/// move `k + 1`) and the last one.
pub struct Replay {
    pub positions: Vec<Position>,
    pub end: Position,
}

/// Replays a record's turns from the start under `rules`, checking every draw and move.
///
/// # Errors
/// A draw or a move the rules refuse, a turn after the end, or a game that does not end.
pub fn replay(record: &Record, rules: &Rules) -> Result<Replay, String> {
    let mut pos = Position::new(rules.clone());
    let mut positions = Vec::with_capacity(record.turns.len());
    for (k, turn) in record.turns.iter().enumerate() {
        if pos.phase() == Phase::Over {
            return Err(format!("turn {} comes after the end of the game", k + 1));
        }
        pos.draw(&turn.drawn).map_err(|e| format!("turn {}: the draw: {e}", k + 1))?;
        pos.play(&turn.mv).map_err(|e| format!("turn {}: the move {}: {e}", k + 1, turn.mv))?;
        positions.push(pos.clone());
    }
    if !pos.is_over() {
        return Err(format!("the game does not end after its {} turns", record.turns.len()));
    }
    Ok(Replay { positions, end: pos })
}

/// Every sheet's total in `pos` as the standings count it.
pub fn totals(pos: &Position) -> Vec<i64> {
    pos.standings().iter().map(|s| s.total).collect()
}

/// Every sheet's final rank at the end of a game (1 the best, ties sharing the best rank).
pub fn ranks(end: &Position) -> Vec<usize> {
    let keys: Vec<[i64; 3]> = end.standings().iter().map(|s| s.rank_key).collect();
    keys.iter().map(|k| 1 + keys.iter().filter(|o| *o > k).count()).collect()
}

/// The targets of the position after move `ply` of a replayed game.
pub fn targets(replay: &Replay, ply: usize) -> Targets {
    let finals = totals(&replay.end);
    let now = totals(&replay.positions[ply - 1]);
    Targets { ply, to_come: finals.iter().zip(&now).map(|(f, n)| f - n).collect(), rank: ranks(&replay.end) }
}

/// Replays a record and checks that its final totals and targets are the replay's.
///
/// # Errors
/// The replay fails, or a total or target differs from what it gives.
pub fn verify(record: &Record, rules: &Rules) -> Result<Replay, String> {
    let replay = replay(record, rules)?;
    if totals(&replay.end) != record.finals {
        return Err(format!("game {}: the final totals are not the replay's", record.index));
    }
    for t in &record.samples {
        if t.ply == 0 || t.ply > replay.positions.len() || targets(&replay, t.ply) != *t {
            return Err(format!(
                "game {}: the sample after move {} is not the replay's",
                record.index, t.ply
            ));
        }
    }
    Ok(replay)
}

/// What a data file holds, read back.
pub struct DataFile {
    pub settings: Settings,
    pub games: Vec<Record>,
}

/// Reads a data file's text: the header and every game, in order from 0.
///
/// # Errors
/// An empty file, a bad header, a line cut short (no end of line), a malformed game line or one
/// out of order; the message names the line.
pub fn read(text: &str) -> Result<DataFile, String> {
    if text.is_empty() {
        return Err("the file is empty".into());
    }
    if !text.ends_with('\n') {
        let line = text.lines().count();
        return Err(format!(
            "line {line} is cut short (no end of line): the file was cut while it was written; remove that line to go on"
        ));
    }
    let mut lines = text.lines();
    let settings = Settings::parse(lines.next().unwrap_or_default()).map_err(|e| format!("line 1: {e}"))?;
    let games = lines
        .enumerate()
        .map(|(i, line)| {
            let record = Record::parse(line, &settings.rules).map_err(|e| format!("line {}: {e}", i + 2))?;
            if record.index != i || record.seed != settings.seed.wrapping_add(i as u64) {
                return Err(format!(
                    "line {}: game {} seed {} where game {i} belongs",
                    i + 2,
                    record.index,
                    record.seed
                ));
            }
            Ok(record)
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(DataFile { settings, games })
}

fn join<T: std::fmt::Display>(values: &[T], sep: &str) -> String {
    values.iter().map(T::to_string).collect::<Vec<_>>().join(sep)
}

fn split_nonempty(text: &str, sep: char) -> impl Iterator<Item = &str> {
    text.split(sep).filter(|_| !text.is_empty())
}

fn parse_number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{what} '{}' is not a number", cut(text)))
}

fn parse_list<T: std::str::FromStr>(text: &str, what: &str) -> Result<Vec<T>, String> {
    split_nonempty(text, ',').map(|x| parse_number(x, what)).collect()
}

/// At most 40 characters of a piece of a line, for a message.
fn cut(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}
