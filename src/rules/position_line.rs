//! The position line: the whole position as one line of `key=value` fields, printed in a fixed
//! order and read back with every field checked (see protocol/PROTOCOL.md, "The position line").

use std::collections::HashMap;

use super::board::{Axis, Board};
use super::error::SetupError;
use super::geometry::Geometry;
use super::moves::Placement;
use super::number::parse_number;
use super::options::{OptionDef, Rules, Variant, RULE_OPTIONS};
use super::position::{Phase, Position};
use super::sheet::Sheet;
use super::tiles::{Tiles, VALUES};

const FIELDS: [&str; 9] =
    ["variant", "players", "turn", "tomove", "phase", "board", "bag", "hands", "sheets"];
/// The largest turn a position line may name: far from the turn counter's overflow, and beyond
/// any game the engine can hold (a game of endless passes keeps some 50 bytes of history a turn:
/// 50 GB by this turn), so that every position it prints reads back.
pub const MAX_TURN: u32 = 1_000_000_000;

fn bad(field: &'static str, reason: impl Into<String>) -> SetupError {
    SetupError::Value { field, reason: reason.into() }
}

impl Position {
    /// The position line.
    pub fn to_line(&self) -> String {
        let mut fields =
            vec![format!("variant={}", self.rules.variant), format!("players={}", self.rules.players)];
        fields.extend(self.rules.option_fields().into_iter().map(|(k, v)| format!("{k}={v}")));
        fields.push(format!("turn={}", self.turn));
        fields.push(format!("tomove={}", self.to_move + 1));
        fields.push(format!("phase={}", self.phase.name()));
        let tiles: Vec<String> =
            self.board.tiles().map(|(cell, value)| Placement { cell, value }.to_string()).collect();
        fields.push(format!("board={}", if tiles.is_empty() { "-".into() } else { tiles.join(",") }));
        let bag = if self.rules.variant == Variant::Classic {
            (1..VALUES as u8).map(|v| self.bag.count(v).to_string()).collect::<Vec<_>>().join(",")
        } else {
            "-".into()
        };
        fields.push(format!("bag={bag}"));
        fields
            .push(format!("hands={}", self.hands.iter().map(Tiles::to_string).collect::<Vec<_>>().join("/")));
        fields.push(format!(
            "sheets={}",
            self.sheets.iter().map(Sheet::to_string).collect::<Vec<_>>().join(";")
        ));
        fields.join(" ")
    }

    /// Reads a position line, checking that it describes a position the rules allow.
    ///
    /// # Errors
    /// A missing, unknown or repeated field, a bad value, or a position that breaks the rules
    /// (runs over the limit, tiles not conserved, a sheet with gaps, ...).
    pub fn from_line(line: &str) -> Result<Position, SetupError> {
        let fields = line
            .split_whitespace()
            .map(|token| token.split_once('=').ok_or_else(|| SetupError::Field(token.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        Position::from_fields(fields)
    }

    /// Reads the `key=value` fields of a position line, split already.
    ///
    /// # Errors
    /// As [`Position::from_line`].
    pub fn from_fields<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Position, SetupError> {
        let mut fields: HashMap<&str, &str> = HashMap::new();
        for (key, value) in pairs {
            if !(FIELDS.contains(&key) || OptionDef::find(key).is_some())
                || fields.insert(key, value).is_some()
            {
                return Err(SetupError::Field(key.to_string()));
            }
        }
        let field = |name: &'static str| fields.get(name).copied().ok_or(SetupError::Missing(name));
        let variant =
            Variant::parse(field("variant")?).ok_or_else(|| bad("variant", "classic, dice or kids"))?;
        let players: u8 =
            parse_number(field("players")?).ok_or_else(|| bad("players", "a number from 1 to 6"))?;
        let options: Vec<(&str, &str)> =
            RULE_OPTIONS.iter().filter_map(|o| fields.get(o.name).map(|&v| (o.name, v))).collect();
        let rules = Rules::with_options(variant, players, options.iter().copied())?;
        let mut pos = Position::new(rules);
        let rules = pos.rules.clone();

        pos.turn = parse_number(field("turn")?)
            .filter(|t| (1..=MAX_TURN).contains(t))
            .ok_or_else(|| bad("turn", format!("a number from 1 to {MAX_TURN}")))?;
        let tomove: usize = parse_number(field("tomove")?).ok_or_else(|| bad("tomove", "a seat number"))?;
        if !(1..=usize::from(players)).contains(&tomove) {
            return Err(bad("tomove", format!("seat {tomove} is not one of 1 to {players}")));
        }
        // Seat 1 plays turn 1 and the seats follow in order, so the turn names the seat to move.
        let seat_of_turn = (pos.turn - 1) as usize % usize::from(players) + 1;
        if tomove != seat_of_turn {
            return Err(bad(
                "tomove",
                format!("turn {} is seat {seat_of_turn}'s, not seat {tomove}'s", pos.turn),
            ));
        }
        pos.to_move = tomove - 1;
        pos.phase = match field("phase")? {
            "draw" => Phase::Draw,
            "place" => Phase::Place,
            "over" => Phase::Over,
            other => return Err(bad("phase", format!("'{other}' is not draw, place or over"))),
        };
        pos.board = parse_board(&rules, field("board")?)?;
        pos.hands = parse_hands(&rules, field("hands")?)?;
        pos.bag = parse_bag(&rules, field("bag")?)?;
        pos.sheets = field("sheets")?
            .split(';')
            .map(|s| Sheet::parse(&rules, s).map_err(|e| bad("sheets", e)))
            .collect::<Result<_, _>>()?;
        if pos.sheets.len() != rules.sheet_count() {
            return Err(bad(
                "sheets",
                format!("{} sheets for {} needed", pos.sheets.len(), rules.sheet_count()),
            ));
        }
        check_consistency(&pos)?;
        Ok(pos)
    }
}

fn parse_board(rules: &Rules, text: &str) -> Result<Board, SetupError> {
    let geometry = Geometry::of(rules.shape());
    let mut board = Board::new(geometry);
    if text == "-" {
        return Ok(board);
    }
    for item in text.split(',') {
        let p = Placement::parse(geometry, item).map_err(|e| bad("board", e.to_string()))?;
        rules.check_tile(p.value).map_err(|e| bad("board", e.to_string()))?;
        if !board.is_empty_cell(p.cell) {
            return Err(bad("board", format!("{} is named twice", p.cell)));
        }
        board.place(p.cell, p.value);
    }
    for (cell, _) in board.tiles() {
        for axis in [Axis::Horizontal, Axis::Vertical] {
            let sum = board.run_through(cell, axis).0;
            if sum > rules.limit() {
                return Err(bad("board", format!("the {} run through {cell} sums to {sum}", axis.name())));
            }
        }
    }
    Ok(board)
}

fn parse_hands(rules: &Rules, text: &str) -> Result<Vec<Tiles>, SetupError> {
    let hands: Vec<Tiles> = text
        .split('/')
        .map(|h| {
            if h == "-" {
                return Ok(Tiles::empty());
            }
            let values: Option<Vec<u8>> = h.bytes().map(|b| b.is_ascii_digit().then(|| b - b'0')).collect();
            values
                .filter(|v| {
                    !v.is_empty() && v.iter().all(|&x| x >= rules.min_value() && x <= rules.max_value())
                })
                .and_then(|v| Tiles::from_values(&v))
                .ok_or_else(|| bad("hands", format!("'{h}' is not a hand of this game")))
        })
        .collect::<Result<_, _>>()?;
    if hands.len() != usize::from(rules.players) {
        return Err(bad("hands", format!("{} hands for {} players", hands.len(), rules.players)));
    }
    Ok(hands)
}

fn parse_bag(rules: &Rules, text: &str) -> Result<Tiles, SetupError> {
    if rules.variant != Variant::Classic {
        return if text == "-" {
            Ok(Tiles::empty())
        } else {
            Err(bad("bag", "only the classic game has a bag: -"))
        };
    }
    let counts: Vec<u8> = text
        .split(',')
        .map(parse_number::<u8>)
        .collect::<Option<_>>()
        .filter(|c: &Vec<u8>| c.len() == 6)
        .ok_or_else(|| bad("bag", "six counts, of the values 1 to 6"))?;
    let mut bag = Tiles::empty();
    for (v, &n) in counts.iter().enumerate() {
        for _ in 0..n.min(30) {
            bag.add(v as u8 + 1);
        }
    }
    Ok(bag)
}

fn check_consistency(pos: &Position) -> Result<(), SetupError> {
    let rules = &pos.rules;
    let geometry = pos.board.geometry();
    match rules.variant {
        Variant::Classic => {
            // Checked sums: the hands of a line may claim hundreds of tiles.
            let on_board: Vec<u8> = pos.board.tiles().map(|(_, v)| v).collect();
            let all = pos
                .hands
                .iter()
                .try_fold(pos.bag, |all, hand| all.checked_sum(hand))
                .and_then(|all| Tiles::from_values(&on_board).and_then(|board| all.checked_sum(&board)));
            if all != Some(Tiles::classic_bag()) {
                return Err(bad(
                    "bag",
                    "bag, hands and board must hold the 121 tiles (21 ones, 20 each of 2 to 6)",
                ));
            }
            let centre = geometry.centre().and_then(|c| pos.board.get(c));
            if pos.board.count() > 0 && centre.is_none() {
                return Err(bad("board", "a classic board with tiles has one on the centre h8"));
            }
            if pos.board.count() == 0 && pos.turn != 1 {
                return Err(bad("turn", "an empty classic board is at turn 1"));
            }
            if pos.board.count() > 0 && pos.turn == 1 {
                return Err(bad("turn", "after the start move the turn is 2 or more"));
            }
        }
        Variant::Dice | Variant::Kids => {
            if rules.variant == Variant::Dice && geometry.centre().and_then(|c| pos.board.get(c)).is_none() {
                return Err(bad("board", "the dice board keeps its centre 1"));
            }
            for (seat, hand) in pos.hands.iter().enumerate() {
                let rolled = seat == pos.to_move && pos.phase == Phase::Place;
                if (rolled && hand.len() != 2) || (!rolled && !hand.is_empty()) {
                    return Err(bad("hands", "only the player to move holds a roll of two, while placing"));
                }
            }
            if rules.variant == Variant::Kids && pos.board.count() == 0 && pos.turn != 1 {
                return Err(bad("turn", "an empty kids' board is at turn 1"));
            }
        }
    }
    check_start(pos)?;
    check_phase(pos)
}

/// Before the first move: the board is empty (but for the dice game's centre), every sheet too,
/// and only the first player holds tiles, once drawn (classic: the three of the start draw).
fn check_start(pos: &Position) -> Result<(), SetupError> {
    let preset = usize::from(pos.rules.variant == Variant::Dice);
    if pos.board.count() > preset {
        return Ok(());
    }
    if pos.sheets.iter().any(|sheet| !sheet.rows().is_empty()) {
        return Err(bad("sheets", "no move has been played on an empty board: every sheet is none"));
    }
    if pos.phase == Phase::Over && pos.rules.variant != Variant::Dice {
        return Err(bad("phase", "the game is not over before its first move"));
    }
    if pos.rules.variant == Variant::Classic {
        let mover = pos.hands[pos.to_move].len();
        let others = pos.hands.iter().enumerate().any(|(seat, h)| seat != pos.to_move && !h.is_empty());
        let drawn = match pos.phase {
            Phase::Draw => mover == 0,
            _ => mover == 3,
        };
        if others || !drawn {
            return Err(bad(
                "hands",
                "on an empty board the hands are empty until the start draw gives the first player three tiles",
            ));
        }
    }
    Ok(())
}

/// The phase against the end of the game, as play decides it and `status` explains it: `over`
/// exactly when the last round `rounds` allows has been played or the variant's own end holds,
/// as far as the position shows it (the dice game's end, a roll that could not be written, is
/// gone from the position: any turn after the first may have ended it).
fn check_phase(pos: &Position) -> Result<(), SetupError> {
    let rules = &pos.rules;
    if rules.rounds > 0 {
        let last = rules.rounds * u32::from(rules.players);
        if pos.turn > last + 1 {
            return Err(bad("turn", format!("rounds={} ends the game after turn {last}", rules.rounds)));
        }
    }
    let rounds_played = pos.rounds_played();
    match pos.phase {
        Phase::Over if rounds_played => Ok(()),
        Phase::Over => match rules.variant {
            Variant::Classic if !pos.classic_blocked() => {
                Err(bad("phase", "the game is not over while the bag holds tiles or a hand can place one"))
            }
            Variant::Kids if pos.kids_cell_left() => {
                Err(bad("phase", "the game is not over while a cell takes a value"))
            }
            Variant::Dice if pos.turn < 2 => Err(bad("phase", "the game is not over before its first move")),
            _ => Ok(()),
        },
        _ if rounds_played => Err(bad(
            "phase",
            format!("the game is over: rounds={} ends it after turn {}", rules.rounds, pos.turn - 1),
        )),
        phase => match rules.variant {
            Variant::Classic if phase == Phase::Draw && pos.classic_blocked() => {
                Err(bad("phase", "the game is over: the bag is empty and no hand can place a tile"))
            }
            Variant::Classic
                if phase == Phase::Place && pos.hands[pos.to_move].is_empty() && !pos.bag.is_empty() =>
            {
                Err(bad("hands", "a draw leaves the player to move a tile while the bag holds any"))
            }
            Variant::Kids if !pos.kids_cell_left() => {
                Err(bad("phase", "the game is over: no cell takes a value"))
            }
            _ => Ok(()),
        },
    }
}
