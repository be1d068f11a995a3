//! The position: rule options, board, bag, hands, and the reader of the protocol's position line.
//!
//! Only the fields that change the game tree are kept: `bonus`, `center_cross`, `teams`,
//! `scoring` and `sheets` are read (and lightly checked) but do not matter for counting moves.

use std::collections::HashMap;

use super::error::NaiveError;
use super::geometry::{cell_name, parse_cell, Cell, Geometry, Variant};

/// Which valid moves the must-place rule keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MustPlace {
    /// Only the valid moves of the largest size (DE).
    Maximum,
    /// The valid moves that no other valid move strictly contains (CZ3, CZ4).
    Maximal,
}

/// How many tiles a classic player with kept tiles draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leftovers {
    /// DE: two or more kept tiles with a move: none, else one.
    De,
    /// CZ3: kept tiles with a move: none, else one.
    Cz3,
    /// CZ4: always one.
    Cz4,
}

/// Where the game stands in the current turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The player to move must draw (or roll) first.
    Draw,
    /// The hand is drawn; a move is due.
    Place,
    /// The game has ended.
    Over,
}

/// The rule options that matter for the game tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The variant.
    pub variant: Variant,
    /// Number of seats.
    pub players: usize,
    /// The must-place reading.
    pub must_place: MustPlace,
    /// Classic: whether the forced double exception exists.
    pub forced_double_allowed: bool,
    /// Classic: the kept-tiles draw rule.
    pub leftovers: Leftovers,
    /// End after this many rounds (0: no limit).
    pub rounds: u32,
    /// Dice: whether a number needs an occupied neighbour.
    pub adjacent: bool,
}

impl Rules {
    /// The largest run sum allowed: 12, or 10 in the kids' game.
    pub fn run_limit(&self) -> u32 {
        match self.variant {
            Variant::Kids => 10,
            _ => 12,
        }
    }

    /// The smallest and the largest tile value.
    pub fn value_range(&self) -> (u8, u8) {
        match self.variant {
            Variant::Kids => (0, 5),
            _ => (1, 6),
        }
    }
}

/// The tiles on the board, by cell.
pub type Board = HashMap<Cell, u8>;

/// A whole position.
#[derive(Clone, Debug)]
pub struct Position {
    /// The rule options.
    pub rules: Rules,
    /// The board's cells.
    pub geometry: Geometry,
    /// The number of the turn being played, from 1.
    pub turn: u32,
    /// The seat to move, from 1.
    pub tomove: usize,
    /// The phase of the turn.
    pub phase: Phase,
    /// The tiles on the board.
    pub board: Board,
    /// Classic: tiles of each value 1..6 left in the bag (index 0 = value 1).
    pub bag: [u32; 6],
    /// The hand of each seat, in seat order (index 0 = seat 1).
    pub hands: Vec<Vec<u8>>,
}

/// The classic tile set: 21 ones and 20 of each other value.
pub const CLASSIC_TILES: [u32; 6] = [21, 20, 20, 20, 20, 20];

impl Position {
    /// Reads a position line (`key=value` fields separated by spaces).
    pub fn parse(line: &str) -> Result<Position, NaiveError> {
        let fields = split_fields(line)?;
        let get = |key: &str| -> Result<&str, NaiveError> {
            fields.get(key).copied().ok_or_else(|| NaiveError::new(format!("missing field `{key}`")))
        };
        let variant = parse_variant(get("variant")?)?;
        let players = parse_number(get("players")?, "players")?;
        if !(1..=6).contains(&players) {
            return Err(NaiveError::new(format!("players={players} is not 1..6")));
        }
        let rules = parse_rules(variant, players, &get)?;
        let geometry = match variant {
            Variant::Classic => Geometry::classic(),
            Variant::Dice => {
                let size = parse_number(get("size")?, "size")?;
                if size % 2 == 0 || !(3..=25).contains(&size) {
                    return Err(NaiveError::new(format!("size={size} is not odd 3..25")));
                }
                Geometry::square_with_diagonals(size)
            }
            Variant::Kids => Geometry::square_with_diagonals(10),
        };
        let turn = parse_number(get("turn")?, "turn")?;
        let tomove = parse_number(get("tomove")?, "tomove")?;
        if tomove == 0 || tomove > players {
            return Err(NaiveError::new(format!("tomove={tomove} is not a seat")));
        }
        let phase = parse_phase(get("phase")?)?;
        let board = parse_board(get("board")?, &rules, &geometry)?;
        let bag = match variant {
            Variant::Classic => parse_bag(get("bag")?)?,
            _ => [0; 6],
        };
        let hands = parse_hands(get("hands")?, &rules)?;
        let position = Position {
            rules,
            geometry,
            turn: u32::try_from(turn).map_err(|_| NaiveError::new("turn too large"))?,
            tomove,
            phase,
            board,
            bag,
            hands,
        };
        position.check_tile_count()?;
        Ok(position)
    }

    /// Classic: checks that board, bag and hands together hold exactly the 121 tiles.
    fn check_tile_count(&self) -> Result<(), NaiveError> {
        if self.rules.variant != Variant::Classic {
            return Ok(());
        }
        let mut count = self.bag;
        for &value in self.board.values() {
            count[usize::from(value - 1)] += 1;
        }
        for hand in &self.hands {
            for &value in hand {
                count[usize::from(value - 1)] += 1;
            }
        }
        if count != CLASSIC_TILES {
            return Err(NaiveError::new(format!(
                "board + bag + hands hold {count:?} tiles of values 1..6, not {CLASSIC_TILES:?}"
            )));
        }
        Ok(())
    }

    /// The hand of the seat to move.
    pub fn hand_to_move(&self) -> &[u8] {
        &self.hands[self.tomove - 1]
    }

    /// The number of tiles left in the bag.
    pub fn bag_total(&self) -> u32 {
        self.bag.iter().sum()
    }

    /// The board as `<value>@<cell>` placements sorted row by row (for messages and tests).
    pub fn board_text(&self) -> String {
        let mut cells: Vec<&Cell> = self.board.keys().collect();
        cells.sort_by_key(|&&(col, row)| (row, col));
        let parts: Vec<String> =
            cells.iter().map(|&&cell| format!("{}@{}", self.board[&cell], cell_name(cell))).collect();
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join(",")
        }
    }
}

/// Splits the line into its `key=value` fields; a key may appear once.
fn split_fields(line: &str) -> Result<HashMap<&str, &str>, NaiveError> {
    let mut fields = HashMap::new();
    for token in line.split_whitespace() {
        let (key, value) =
            token.split_once('=').ok_or_else(|| NaiveError::new(format!("field `{token}` has no `=`")))?;
        if fields.insert(key, value).is_some() {
            return Err(NaiveError::new(format!("field `{key}` given twice")));
        }
    }
    Ok(fields)
}

/// Reads the rule options of the variant.
fn parse_rules<'a>(
    variant: Variant,
    players: usize,
    get: &dyn Fn(&str) -> Result<&'a str, NaiveError>,
) -> Result<Rules, NaiveError> {
    let must_place = match get("must_place")? {
        "maximum" => MustPlace::Maximum,
        "maximal" => MustPlace::Maximal,
        other => return Err(NaiveError::new(format!("bad must_place={other}"))),
    };
    let rounds = parse_number(get("rounds")?, "rounds")?;
    let mut rules = Rules {
        variant,
        players,
        must_place,
        forced_double_allowed: false,
        leftovers: Leftovers::De,
        rounds: u32::try_from(rounds).map_err(|_| NaiveError::new("rounds too large"))?,
        adjacent: true,
    };
    match variant {
        Variant::Classic => {
            rules.forced_double_allowed = match get("forced_double")? {
                "allow" => true,
                "forbid" => false,
                other => return Err(NaiveError::new(format!("bad forced_double={other}"))),
            };
            rules.leftovers = match get("leftovers")? {
                "de" => Leftovers::De,
                "cz3" => Leftovers::Cz3,
                "cz4" => Leftovers::Cz4,
                other => return Err(NaiveError::new(format!("bad leftovers={other}"))),
            };
        }
        Variant::Dice => {
            rules.adjacent = match get("adjacent")? {
                "on" => true,
                "off" => false,
                other => return Err(NaiveError::new(format!("bad adjacent={other}"))),
            };
        }
        Variant::Kids => {}
    }
    Ok(rules)
}

/// Reads `classic`, `dice` or `kids`.
fn parse_variant(text: &str) -> Result<Variant, NaiveError> {
    match text {
        "classic" => Ok(Variant::Classic),
        "dice" => Ok(Variant::Dice),
        "kids" => Ok(Variant::Kids),
        other => Err(NaiveError::new(format!("unknown variant `{other}`"))),
    }
}

/// Reads `draw`, `place` or `over`.
fn parse_phase(text: &str) -> Result<Phase, NaiveError> {
    match text {
        "draw" => Ok(Phase::Draw),
        "place" => Ok(Phase::Place),
        "over" => Ok(Phase::Over),
        other => Err(NaiveError::new(format!("unknown phase `{other}`"))),
    }
}

/// Reads a non-negative decimal number.
fn parse_number(text: &str, what: &str) -> Result<usize, NaiveError> {
    text.parse().map_err(|_| NaiveError::new(format!("bad number `{text}` for {what}")))
}

/// Reads one tile value and checks its range.
fn parse_value(text: &str, rules: &Rules) -> Result<u8, NaiveError> {
    let value: u8 = text.parse().map_err(|_| NaiveError::new(format!("bad value `{text}`")))?;
    let (low, high) = rules.value_range();
    if value < low || value > high {
        return Err(NaiveError::new(format!("value {value} is not {low}..{high}")));
    }
    Ok(value)
}

/// Reads the board field: `-` or `<value>@<cell>` joined by `,`.
fn parse_board(text: &str, rules: &Rules, geometry: &Geometry) -> Result<Board, NaiveError> {
    let mut board = Board::new();
    if text == "-" {
        return Ok(board);
    }
    for part in text.split(',') {
        let (value, cell) =
            part.split_once('@').ok_or_else(|| NaiveError::new(format!("bad placement `{part}`")))?;
        let value = parse_value(value, rules)?;
        let cell = parse_cell(cell)?;
        if !geometry.is_cell(cell) {
            return Err(NaiveError::new(format!("`{part}`: not a cell of the board")));
        }
        if board.insert(cell, value).is_some() {
            return Err(NaiveError::new(format!("`{part}`: cell given twice")));
        }
    }
    Ok(board)
}

/// Reads the bag field: six counts joined by `,`.
fn parse_bag(text: &str) -> Result<[u32; 6], NaiveError> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 6 {
        return Err(NaiveError::new(format!("bag `{text}` does not have 6 counts")));
    }
    let mut bag = [0; 6];
    for (slot, part) in bag.iter_mut().zip(parts) {
        // At most the game's 21 of a value, so that adding the board and hands cannot overflow.
        *slot = part
            .parse()
            .ok()
            .filter(|&n| n <= 21)
            .ok_or_else(|| NaiveError::new(format!("bad bag count `{part}` (0 to 21)")))?;
    }
    Ok(bag)
}

/// Reads the hands field: one hand per seat joined by `/`, each `-` or its digits.
fn parse_hands(text: &str, rules: &Rules) -> Result<Vec<Vec<u8>>, NaiveError> {
    let mut hands = Vec::new();
    for part in text.split('/') {
        let mut hand = Vec::new();
        if part != "-" {
            for ch in part.chars() {
                hand.push(parse_value(&ch.to_string(), rules)?);
            }
        }
        // The dice and kids' hands are a roll of two or nothing (docs/rules.md 3.2, 4.2): a longer
        // one would make the search here run for minutes.
        if rules.variant != Variant::Classic && hand.len() > 2 {
            return Err(NaiveError::new(format!("hand `{part}`: this variant rolls two dice")));
        }
        hand.sort_unstable();
        hands.push(hand);
    }
    if hands.len() != rules.players {
        return Err(NaiveError::new(format!(
            "hands `{text}` has {} hands for {} players",
            hands.len(),
            rules.players
        )));
    }
    Ok(hands)
}
