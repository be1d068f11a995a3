//! The `show` picture: the board with coordinates, whose turn it is, the hands and the sheets.

use std::fmt::Write;

use crate::rules::{Phase, Position, Square, Tiles, Variant};

/// The picture of a position, several lines, none empty: the state of the turn first, then the
/// board with its coordinates, the bag, the hands and the sheets.
///
/// Squares: a digit is a tile, `.` an empty cell, `:` an empty double (extra) cell, `*` the empty
/// centre; blank is no cell. A hand is written `3 5 5`, or with `one_word` (version 3) `355`.
pub fn picture(position: &Position, one_word: bool) -> String {
    let geometry = position.board().geometry();
    let side = geometry.side();
    let mut out = String::new();
    let rules = position.rules();
    let seat = position.to_move() + 1;
    let state = match position.phase() {
        Phase::Draw => format!("turn {}: player {seat} to draw", position.turn()),
        Phase::Place => format!("turn {}: player {seat} to place", position.turn()),
        Phase::Over => format!("turn {}: the game is over", position.turn()),
    };
    let _ = writeln!(out, "{state}");
    let letters: Vec<String> = (0..side).map(|c| char::from(b'a' + (c as u8 % 26)).to_string()).collect();
    let _ = writeln!(out, "    {}", letters.join(" "));
    for row in 0..side {
        let mut line = String::new();
        for column in 0..side {
            let shown = match geometry.cell(column, row) {
                None => ' ',
                Some(cell) => match position.board().get(cell) {
                    Some(v) => char::from(b'0' + v % 10),
                    None => match geometry.square(cell) {
                        Square::Double => ':',
                        Square::Centre => '*',
                        _ => '.',
                    },
                },
            };
            line.push(shown);
            line.push(' ');
        }
        let _ = writeln!(out, "{:>2}  {line}{:>2}", row + 1, row + 1);
    }
    let _ = writeln!(out, "    {}", letters.join(" "));
    if rules.variant == Variant::Classic {
        let _ = writeln!(out, "bag {} tiles", position.bag().len());
    }
    for s in 0..usize::from(rules.players) {
        let hand = hand_text(*position.hand(s), one_word);
        let marker = if s + 1 == seat && position.phase() != Phase::Over { " (to move)" } else { "" };
        let _ = writeln!(out, "player {}{marker}: hand {hand}", s + 1);
    }
    for standing in position.standings() {
        let _ = writeln!(out, "{} {}: total {}", standing.label, standing.number, standing.total);
        let sheet = standing.sheet.to_string();
        if sheet == "none" {
            continue;
        }
        let _ = writeln!(out, "   row  mark   a   b   c  bonus");
        for (k, row) in sheet.split('/').enumerate() {
            let boxes: Vec<String> = row.split(',').map(|b| format!("{b:>3}")).collect();
            let _ = writeln!(out, "  {:>4}   {} {:>5}", k + 1, boxes.join(" "), rules.bonus_of_row(k));
        }
    }
    out.trim_end().to_owned()
}

/// A hand as `draw` and `show` write it: its values smallest first joined by single spaces, or
/// with `one_word` (version 3) one word, `355`; `-` when empty.
pub fn hand_text(hand: Tiles, one_word: bool) -> String {
    if one_word || hand.is_empty() {
        hand.to_string()
    } else {
        hand.values().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")
    }
}
