//! The whole state of a game and its turn flow: draws, moves, sheets, the end of the game.

use std::fmt;

use rand::Rng;

use super::board::Board;
use super::error::{DrawError, MoveError};
use super::geometry::Geometry;
use super::movegen::MoveGen;
use super::moves::{Move, Placement};
use super::options::{KidsScoring, Leftovers, MustPlace, Rules, Variant};
use super::scoring::MoveScore;
use super::sheet::Sheet;
use super::tiles::Tiles;

/// Where in a turn the game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The player to move must draw (perhaps nothing) first.
    Draw,
    /// The hand is drawn: a move is due.
    Place,
    /// The game has ended.
    Over,
}

impl Phase {
    /// `draw`, `place` or `over`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Draw => "draw",
            Phase::Place => "place",
            Phase::Over => "over",
        }
    }
}

/// A game position: rules, board, bag, hands, sheets, whose turn and the phase of the turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) rules: Rules,
    pub(super) board: Board,
    pub(super) bag: Tiles,
    pub(super) hands: Vec<Tiles>,
    pub(super) sheets: Vec<Sheet>,
    pub(super) turn: u32,
    pub(super) to_move: usize,
    pub(super) phase: Phase,
}

/// One line of the standings: a player's (or team's) sheet, hand and final score if the game
/// ended now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// `player` or `team`.
    pub label: &'static str,
    /// From 1.
    pub number: usize,
    /// Rows minus the pips still in hand (classic); kids' dots: the dots of the 10 column.
    pub total: i64,
    pub hand: Tiles,
    /// The hand of each seat of [`Standing::seats`], in the same order (a team's two hands).
    pub seat_hands: Vec<Tiles>,
    pub sheet: Sheet,
    /// Each sheet row's total as it counts now, in sheet order.
    pub rows: Vec<u32>,
    /// The seats (from 1) that write on this sheet: one, or a team's two.
    pub seats: Vec<usize>,
    /// Kids' dots tie-breaks: the dots of the 10, 9 and 8 columns; otherwise the total only.
    pub rank_key: [i64; 3],
}

impl fmt::Display for Standing {
    /// `player <n> total <t> hand <values joined by , or -> sheet <rows> rows <row totals
    /// joined by / or none>`; a team's line (`team <n> ...`) ends with `seats <a>,<b>`. The
    /// alternate form (`{:#}`, protocol version 3) writes a hand as one word, `355`, and a
    /// team's hand as the hands of its seats in the order of `seats`, joined by `/` (`355/-`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hand = if f.alternate() {
            self.seat_hands.iter().map(Tiles::to_string).collect::<Vec<_>>().join("/")
        } else if self.hand.is_empty() {
            self.hand.to_string()
        } else {
            self.hand.values().map(|v| v.to_string()).collect::<Vec<_>>().join(",")
        };
        let rows = if self.rows.is_empty() {
            "none".to_string()
        } else {
            self.rows.iter().map(u32::to_string).collect::<Vec<_>>().join("/")
        };
        write!(
            f,
            "{} {} total {} hand {} sheet {} rows {}",
            self.label, self.number, self.total, hand, self.sheet, rows
        )?;
        if self.seats.len() > 1 {
            let seats: Vec<String> = self.seats.iter().map(usize::to_string).collect();
            write!(f, " seats {}", seats.join(","))?;
        }
        Ok(())
    }
}

impl Position {
    /// The start of a game: an empty board (dice: the centre 1), a full bag, empty hands.
    pub fn new(rules: Rules) -> Position {
        let geometry = Geometry::of(rules.shape());
        let mut board = Board::new(geometry);
        if rules.variant == Variant::Dice {
            if let Some(centre) = geometry.centre() {
                board.place(centre, 1);
            }
        }
        let bag = if rules.variant == Variant::Classic { Tiles::classic_bag() } else { Tiles::empty() };
        Position {
            hands: vec![Tiles::empty(); usize::from(rules.players)],
            sheets: vec![Sheet::new(); rules.sheet_count()],
            rules,
            board,
            bag,
            turn: 1,
            to_move: 0,
            phase: Phase::Draw,
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The classic bag (empty in the dice games).
    pub fn bag(&self) -> &Tiles {
        &self.bag
    }

    /// The hand of a seat (0-based).
    pub fn hand(&self, seat: usize) -> &Tiles {
        &self.hands[seat]
    }

    /// The hand of the player to move.
    pub fn hand_to_move(&self) -> &Tiles {
        &self.hands[self.to_move]
    }

    /// The sheets, one per seat (per team).
    pub fn sheets(&self) -> &[Sheet] {
        &self.sheets
    }

    /// The number of the turn being played, from 1.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The seat to move, 0-based.
    pub fn to_move(&self) -> usize {
        self.to_move
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// A move generator for the hand of the player to move.
    pub fn movegen(&self) -> MoveGen<'_> {
        MoveGen::new(&self.rules, &self.board, self.hands[self.to_move])
    }

    fn hand_can_move(&self, hand: Tiles) -> bool {
        !hand.is_empty() && MoveGen::new(&self.rules, &self.board, hand).any_move().is_some()
    }

    /// How many tiles the rules call for at the draw due now (before capping by the bag).
    fn draw_wanted(&self) -> usize {
        if self.rules.variant != Variant::Classic {
            return 2;
        }
        let hand = self.hands[self.to_move];
        if hand.is_empty() {
            return if self.board.count() == 0 { 3 } else { 2 };
        }
        match self.rules.leftovers {
            Leftovers::De => usize::from(hand.len() < 2 || !self.hand_can_move(hand)),
            Leftovers::Cz3 => usize::from(!self.hand_can_move(hand)),
            Leftovers::Cz4 => 1,
        }
    }

    /// How many tiles (or dice) the draw due now takes: capped by what the bag holds.
    pub fn draw_count(&self) -> usize {
        let wanted = self.draw_wanted();
        match self.rules.variant {
            Variant::Classic => wanted.min(self.bag.len()),
            _ => wanted,
        }
    }

    fn draw_allowed(&self) -> Result<(), DrawError> {
        match self.phase {
            Phase::Draw => Ok(()),
            Phase::Place => Err(DrawError::MoveDue),
            Phase::Over => Err(DrawError::GameOver),
        }
    }

    /// Draws given values: from the bag (classic) or as the dice show them. Returns the hand.
    ///
    /// # Errors
    /// Not the time for a draw, the wrong number of values, a value the game has no tile for or
    /// the bag no longer holds. Nothing changes then.
    pub fn draw(&mut self, values: &[u8]) -> Result<Tiles, DrawError> {
        self.draw_allowed()?;
        let expected = self.draw_count();
        if values.len() != expected {
            return Err(DrawError::Count { expected, given: values.len() });
        }
        for &value in values {
            self.rules.check_tile(value)?;
        }
        // Safe: every value was just checked to be 0 to 6, and `from_values` refuses only above 6.
        let drawn = Tiles::from_values(values).expect("tile values are 0 to 6");
        if self.rules.variant == Variant::Classic {
            if let Some(value) = drawn.distinct().find(|&v| drawn.count(v) > self.bag.count(v)) {
                return Err(DrawError::NotInBag { value, available: self.bag.count(value) });
            }
            self.bag.remove_all(&drawn);
        }
        self.hands[self.to_move].add_all(&drawn);
        self.phase = Phase::Place;
        Ok(self.hands[self.to_move])
    }

    /// Draws at random as the rules do: the classic start draw keeps the highest of one tile per
    /// player (ties drawing again), then adds two; later draws take tiles from the bag; dice roll.
    /// Returns the values drawn, in the order of a `draw` command that repeats them.
    ///
    /// # Errors
    /// Not the time for a draw.
    pub fn draw_random(&mut self, rng: &mut impl Rng) -> Result<Vec<u8>, DrawError> {
        self.draw_random_seen(rng).map(|(values, _)| values)
    }

    /// [`Position::draw_random`], with the rounds of the classic start draw when this was it:
    /// each round the tiles the players still in it drew, in seat order (the first round every
    /// seat, a later one the seats that tied for the highest); seat 1 drew the highest tile of the
    /// last round, which it keeps (seats are numbered from the start player). Empty otherwise.
    ///
    /// # Errors
    /// Not the time for a draw.
    pub fn draw_random_seen(&mut self, rng: &mut impl Rng) -> Result<(Vec<u8>, Vec<Vec<u8>>), DrawError> {
        self.draw_allowed()?;
        let n = self.draw_count();
        let mut rounds = Vec::new();
        let values = match self.rules.variant {
            Variant::Classic if self.board.count() == 0 && n == 3 => self.start_draw(rng, &mut rounds),
            Variant::Classic => {
                let mut bag = self.bag;
                (0..n).filter_map(|_| bag.take_random(rng)).collect()
            }
            _ => (0..n).map(|_| rng.random_range(self.rules.min_value()..=self.rules.max_value())).collect(),
        };
        self.draw(&values)?;
        Ok((values, rounds))
    }

    /// The start draw: one tile per player, the tied highest draw again; the deciding tile is
    /// kept, the others go back, and two more join it. Each round's tiles go to `rounds`, the
    /// highest first (seat 1's), the others in the order drawn.
    fn start_draw(&self, rng: &mut impl Rng, rounds: &mut Vec<Vec<u8>>) -> Vec<u8> {
        let mut bag = self.bag;
        let mut contenders = usize::from(self.rules.players);
        let kept = loop {
            let mut draws: Vec<u8> = (0..contenders).filter_map(|_| bag.take_random(rng)).collect();
            let best = draws.iter().copied().max().unwrap_or(1);
            let tied = draws.iter().filter(|&&v| v == best).count();
            if let Some(first) = draws.iter().position(|&v| v == best) {
                let top = draws.remove(first);
                draws.insert(0, top);
            }
            rounds.push(draws);
            if tied <= 1 || bag.len() < tied {
                break best;
            }
            contenders = tied;
        };
        let mut bag = self.bag;
        bag.remove(kept);
        let mut values = vec![kept];
        values.extend((0..2).filter_map(|_| bag.take_random(rng)));
        values
    }

    /// Every distinct draw the player to move could get now, with its probability.
    pub fn possible_draws(&self) -> Vec<(Tiles, f64)> {
        let n = self.draw_count();
        match self.rules.variant {
            Variant::Classic => {
                let draws = self.bag.sub_multisets(n);
                let weights: Vec<f64> = draws.iter().map(|d| d.draw_weight(&self.bag)).collect();
                let total: f64 = weights.iter().sum();
                draws.into_iter().zip(weights).map(|(d, w)| (d, w / total)).collect()
            }
            _ => {
                let (lo, hi) = (self.rules.min_value(), self.rules.max_value());
                let mut out = Vec::with_capacity(21);
                for a in lo..=hi {
                    for b in a..=hi {
                        let p = if a == b { 1.0 / 36.0 } else { 2.0 / 36.0 };
                        out.push((Tiles::from_values(&[a, b]).expect("dice values are tiles"), p));
                    }
                }
                out
            }
        }
    }

    pub(super) fn move_allowed(&self) -> Result<(), MoveError> {
        match self.phase {
            Phase::Place => Ok(()),
            Phase::Draw => Err(MoveError::DrawDue),
            Phase::Over => Err(MoveError::GameOver),
        }
    }

    /// Checks a move against every rule.
    ///
    /// # Errors
    /// The exact reason the move is not legal now.
    pub fn check(&self, mv: &Move) -> Result<(), MoveError> {
        self.move_allowed()?;
        self.movegen().check(mv)
    }

    /// What a legal move would score, without playing it.
    ///
    /// # Errors
    /// As [`Position::check`].
    pub fn score_move(&self, mv: &Move) -> Result<MoveScore, MoveError> {
        self.check(mv)?;
        let mut after = self.board.clone();
        for p in mv.placements() {
            after.place(p.cell, p.value);
        }
        Ok(MoveScore::of(&self.rules, &after, mv.placements(), self.board.count() == 0))
    }

    /// Checks and plays a move: enters it on the sheet and passes the turn.
    ///
    /// # Errors
    /// As [`Position::check`]; nothing changes then.
    pub fn play(&mut self, mv: &Move) -> Result<MoveScore, MoveError> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv.placements()))
    }

    /// Plays a move known to be legal (from the generator): fast, no checks.
    pub fn play_unchecked(&mut self, placements: &[Placement]) -> MoveScore {
        let seat = self.to_move;
        let roll_writable = self.rules.variant != Variant::Dice
            || placements.len() >= 2
            || (self.rules.must_place == MustPlace::Maximal && self.movegen().largest_size() >= 2);
        let start = self.board.count() == 0;
        for p in placements {
            self.board.place(p.cell, p.value);
            self.hands[seat].remove(p.value);
        }
        let score = MoveScore::of(&self.rules, &self.board, placements, start);
        self.sheets[self.rules.sheet_of_seat(seat)].record(&self.rules, &score, placements.len());
        if self.rules.variant != Variant::Classic {
            self.hands[seat] = Tiles::empty();
        }
        self.turn += 1;
        let ended = self.rounds_played()
            || match self.rules.variant {
                Variant::Classic => self.classic_blocked(),
                Variant::Dice => !roll_writable,
                Variant::Kids => !self.kids_cell_left(),
            };
        // The seat follows the turn also after the end, so that `tomove` agrees with `turn`.
        self.to_move = (seat + 1) % usize::from(self.rules.players);
        self.phase = if ended { Phase::Over } else { Phase::Draw };
        score
    }

    /// Plays a move known to be legal, shows `look` the position after it, and takes the move back:
    /// how a search weighs a few moves without copying the whole position (its board is most of
    /// it) for each.
    pub fn with_move_played<R>(&mut self, placements: &[Placement], look: impl FnOnce(&Position) -> R) -> R {
        let (seat, turn, phase) = (self.to_move, self.turn, self.phase);
        let sheet = self.rules.sheet_of_seat(seat);
        let (sheet_before, hand_before) = (self.sheets[sheet].clone(), self.hands[seat]);
        self.play_unchecked(placements);
        let seen = look(self);
        for p in placements.iter().rev() {
            self.board.remove(p.cell);
        }
        self.sheets[sheet] = sheet_before;
        self.hands[seat] = hand_before;
        (self.to_move, self.turn, self.phase) = (seat, turn, phase);
        seen
    }

    /// Whether the last round the `rounds` option allows has been played: the game is over.
    pub(super) fn rounds_played(&self) -> bool {
        self.rules.rounds > 0 && self.turn > self.rules.rounds * u32::from(self.rules.players)
    }

    /// The classic game's own end: the bag is empty and no hand can place a tile.
    pub(super) fn classic_blocked(&self) -> bool {
        self.bag.is_empty() && !self.hands.iter().any(|&h| self.hand_can_move(h))
    }

    /// Whether some empty kids' cell still takes a value (a 0 fits wherever anything does): the
    /// kids' game ends when none does.
    pub(super) fn kids_cell_left(&self) -> bool {
        let limit = self.rules.limit();
        self.board
            .geometry()
            .cells()
            .iter()
            .any(|&c| self.board.is_empty_cell(c) && self.board.room(c, limit).is_some())
    }

    /// The final score of each sheet if the game ended now.
    pub fn standings(&self) -> Vec<Standing> {
        (0..self.sheets.len())
            .map(|i| {
                let seats: Vec<usize> =
                    (0..self.hands.len()).filter(|&s| self.rules.sheet_of_seat(s) == i).collect();
                let mut hand = Tiles::empty();
                for &s in &seats {
                    hand.add_all(&self.hands[s]);
                }
                let sheet = &self.sheets[i];
                let minus = if self.rules.variant == Variant::Classic { i64::from(hand.pips()) } else { 0 };
                let total = i64::from(sheet.total(&self.rules)) - minus;
                let rank_key =
                    if self.rules.variant == Variant::Kids && self.rules.scoring == KidsScoring::Dots {
                        [2, 1, 0].map(|c| i64::from(sheet.column_total(c)))
                    } else {
                        [total, 0, 0]
                    };
                Standing {
                    label: if self.rules.teams { "team" } else { "player" },
                    number: i + 1,
                    total,
                    hand,
                    seat_hands: seats.iter().map(|&s| self.hands[s]).collect(),
                    sheet: sheet.clone(),
                    rows: sheet.row_totals(&self.rules),
                    seats: seats.iter().map(|s| s + 1).collect(),
                    rank_key,
                }
            })
            .collect()
    }

    /// The sheets that are ahead (several on a tie), 0-based.
    pub fn leaders(&self) -> Vec<usize> {
        let standings = self.standings();
        let best = standings.iter().map(|s| s.rank_key).max();
        standings.iter().enumerate().filter(|(_, s)| Some(s.rank_key) == best).map(|(i, _)| i).collect()
    }
}
