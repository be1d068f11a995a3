//! The line formats of `zatre-naive-perft`: reading requests, writing counts.

use super::error::NaiveError;
use super::geometry::cell_name;
use super::moves::{legal_moves, Move};
use super::perft::perft;
use super::position::Position;

/// How the input lines are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `<depth> <position line>`: print the count.
    DepthAndPosition,
    /// `<position line>` with a depth given on the command line: print the count.
    PositionOnly(u32),
    /// Golden lines `<depth> <count> <position line>` (the count may be `?`): print each line
    /// with the count recomputed; `#` comments and blank lines are copied.
    Regenerate,
    /// Golden lines: recompute and compare; print the mismatches.
    Check,
    /// `<position line>` in `phase=place`: print its legal moves, one line, sorted.
    List,
}

/// What one input line produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineOutput {
    /// A line to print.
    Line(String),
    /// A golden line whose count differs: the line with the new count.
    Mismatch(String),
    /// Nothing to print (a comment or blank line in check mode).
    Nothing,
}

/// Processes one input line in the given mode.
pub fn process_line(mode: Mode, line: &str) -> Result<LineOutput, NaiveError> {
    let trimmed = line.trim();
    let is_comment = trimmed.is_empty() || trimmed.starts_with('#');
    match mode {
        Mode::DepthAndPosition | Mode::PositionOnly(_) | Mode::List if is_comment => Ok(LineOutput::Nothing),
        Mode::List => Ok(LineOutput::Line(list(trimmed)?)),
        Mode::DepthAndPosition => {
            let (depth, rest) = split_number(trimmed)?;
            Ok(LineOutput::Line(count(depth, rest)?.to_string()))
        }
        Mode::PositionOnly(depth) => Ok(LineOutput::Line(count(depth, trimmed)?.to_string())),
        Mode::Regenerate if is_comment => Ok(LineOutput::Line(line.to_string())),
        Mode::Check if is_comment => Ok(LineOutput::Nothing),
        Mode::Regenerate | Mode::Check => {
            let (depth, rest) = split_number(trimmed)?;
            let (old, position_line) = split_word(rest)?;
            let new = count(depth, position_line)?;
            let out = format!("{depth} {new} {position_line}");
            if mode == Mode::Check && old != new.to_string() {
                Ok(LineOutput::Mismatch(format!("expected {old}, counted: {out}")))
            } else if mode == Mode::Check {
                Ok(LineOutput::Nothing)
            } else {
                Ok(LineOutput::Line(out))
            }
        }
    }
}

/// The legal moves of the seat to move, as `v@cell,...` (`pass`), sorted, joined by spaces.
fn list(position_line: &str) -> Result<String, NaiveError> {
    let position = Position::parse(position_line)?;
    let mut moves: Vec<String> =
        legal_moves(&position, position.hand_to_move()).iter().map(move_text).collect();
    moves.sort();
    Ok(moves.join(" "))
}

/// A move as the protocol writes it (placements in the counter's sorted order).
fn move_text(mv: &Move) -> String {
    if mv.is_empty() {
        return "pass".to_string();
    }
    let parts: Vec<String> = mv.iter().map(|&(cell, value)| format!("{value}@{}", cell_name(cell))).collect();
    parts.join(",")
}

/// The perft count of a position line at `depth`.
fn count(depth: u32, position_line: &str) -> Result<u64, NaiveError> {
    let position = Position::parse(position_line)?;
    Ok(perft(&position, depth))
}

/// Splits off the first word of `text`.
fn split_word(text: &str) -> Result<(&str, &str), NaiveError> {
    let text = text.trim_start();
    let end = text
        .find(char::is_whitespace)
        .ok_or_else(|| NaiveError::new(format!("expected more after `{text}`")))?;
    Ok((&text[..end], text[end..].trim_start()))
}

/// Splits off a leading depth.
fn split_number(text: &str) -> Result<(u32, &str), NaiveError> {
    let (word, rest) = split_word(text)?;
    let depth = word.parse().map_err(|_| NaiveError::new(format!("bad depth `{word}`")))?;
    Ok((depth, rest))
}
