//! A room's rules of engagement, apart from any I/O: who sits where (a person invited by a link,
//! or the computer at a level), what the server does next in a position (draw for the player to
//! move, ask the engine for a computer seat's move, wait for a person, nothing when the game is
//! over), who may play now, and what each seat and each watcher may see of a position.
//!
//! Who may act: the server draws every tile and rolls every die itself, so a person only ever
//! sends a move, and only for the seat of their link, on that seat's turn, once the draw is done,
//! in an open room whose seat is still theirs (not handed to the computer). Nothing else a person
//! sends changes the game.
//!
//! What a seat sees ([`view_line`]) is what a player at a real table sees, and no more:
//! - the board, every sheet, the turn, the player to move and the phase, as the engine says;
//! - its own hand;
//! - of every other seat's classic hand only how many tiles it holds (`?` for each): kept tiles
//!   lie face down (the rules, 2.6), and the tiles just drawn by the player to move are hidden too,
//!   because the position line does not tell them from the kept ones and they show on the board
//!   once placed. Partners of a team see each other's hands no more than opponents do. When the
//!   game is over every hand is shown: the tiles left count as minus points and are laid open;
//! - of the bag only what the table knows: how many tiles are left in it (`bag=<n>`), and for
//!   each value how many tiles this seat has not seen (`unseen=<c1>,...,<c6>`: those in the bag
//!   and in other seats' hidden hands together), which anyone who counts the board and the box's
//!   121 tiles can tell. The bag's count per value would not do: with the board and its own hand
//!   known, a seat would learn from it every tile the others keep face down. The order of the
//!   bag, and so the draws to come, is in no position line at all.
//!
//! In the dice and kids' games the numbers are rolled on the table for all to see and nothing is
//! kept, so every hand is shown. A watcher sees what every seat sees: the board, the sheets, the
//! counts, no hand but those the rules lay open.
//!
//! The line a seat sees is not a position line: `position` would refuse it. The engine's own
//! parser ([`Position::from_line`]) reads the engine's line, so a line the engine did not print
//! is refused rather than shown half-read; the fields the view keeps are the engine's, printed by
//! [`Position::to_line`].
//!
//! What is no position line is not covered here and must never be relayed to a seat as the
//! engine prints it: `history` (it lists every draw), `show` (it shows the hands), `legal` and
//! `next` of another seat's hand, the `info` lines of a computer seat's search (its moves show its
//! hand), and `score`, whose `hand` fields are the hands and whose totals count their pips as
//! minus points during play. The answer of `draw` (the values drawn) and the message of a
//! refused move (`the hand 123 holds no 4`) name the mover's hand: they are for the mover only.
//! `status` holds nothing hidden.

use std::fmt;

use thiserror::Error;
use zatre::rules::{Phase, Position, SetupError, Tiles, Variant};
use zatre::search::Strategy;

/// The most seats a room has: the rules' most players.
pub const MAX_SEATS: usize = 6;

/// Who looks at a room: the person of a seat (from 1), or a watcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    Seat(u8),
    Watcher,
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person, invited by the seat's link.
    Person,
    /// The computer, at a level: a strategy and, for the search, its time per move.
    Computer { strategy: Strategy, movetime_ms: u32 },
}

/// Where a room stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoomState {
    /// The game goes on.
    Open,
    /// The game has ended.
    Finished,
    /// The game was given up before its end.
    Abandoned,
}

impl RoomState {
    /// `open`, `finished` or `abandoned`, as the database stores it.
    pub fn name(self) -> &'static str {
        match self {
            RoomState::Open => "open",
            RoomState::Finished => "finished",
            RoomState::Abandoned => "abandoned",
        }
    }

    /// Reads what [`RoomState::name`] writes.
    pub fn parse(name: &str) -> Option<RoomState> {
        [RoomState::Open, RoomState::Finished, RoomState::Abandoned].into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for RoomState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the server does next in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Draw (or roll) for the player to move, whoever plays the seat.
    Draw { seat: u8 },
    /// Ask the engine for this computer seat's move.
    Computer { seat: u8, strategy: Strategy, movetime_ms: u32 },
    /// Wait for this seat's person to move.
    Person { seat: u8 },
    /// Nothing: the game is over, or the room is closed.
    Nothing,
}

/// Why a move from a person is refused.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum Refusal {
    #[error("a watcher cannot move")]
    Watcher,
    #[error("this room has no seat {0}")]
    NoSuchSeat(u8),
    #[error("seat {0} is played by the computer")]
    ComputerSeat(u8),
    #[error("it is seat {to_move}'s turn, not seat {seat}'s")]
    NotYourTurn { seat: u8, to_move: u8 },
    #[error("the tiles are not drawn yet")]
    DrawDue,
    #[error("the game is over")]
    GameOver,
    #[error("the room is {0}")]
    Closed(RoomState),
}

/// A room's table: its state and who plays each seat (seat 1 first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub state: RoomState,
    pub seats: Vec<SeatKind>,
}

impl Table {
    /// Who plays seat `seat` (from 1).
    pub fn seat(&self, seat: u8) -> Option<SeatKind> {
        usize::from(seat).checked_sub(1).and_then(|i| self.seats.get(i)).copied()
    }

    /// What the server does next in `position`.
    pub fn next_step(&self, position: &Position) -> Step {
        if self.state != RoomState::Open {
            return Step::Nothing;
        }
        let seat = seat_number(position.to_move());
        match (position.phase(), self.seat(seat)) {
            (Phase::Over, _) | (_, None) => Step::Nothing,
            (Phase::Draw, Some(_)) => Step::Draw { seat },
            (Phase::Place, Some(SeatKind::Person)) => Step::Person { seat },
            (Phase::Place, Some(SeatKind::Computer { strategy, movetime_ms })) => {
                Step::Computer { seat, strategy, movetime_ms }
            }
        }
    }

    /// Whether `viewer` may send a move now, in `position`.
    ///
    /// # Errors
    /// The first of: a watcher, a seat the room does not have, a closed room, a seat played by
    /// the computer, a game over, another seat's turn, a draw not done yet.
    pub fn may_play(&self, viewer: Viewer, position: &Position) -> Result<(), Refusal> {
        let Viewer::Seat(seat) = viewer else {
            return Err(Refusal::Watcher);
        };
        let kind = self.seat(seat).ok_or(Refusal::NoSuchSeat(seat))?;
        if self.state != RoomState::Open {
            return Err(Refusal::Closed(self.state));
        }
        if kind != SeatKind::Person {
            return Err(Refusal::ComputerSeat(seat));
        }
        if position.phase() == Phase::Over {
            return Err(Refusal::GameOver);
        }
        let to_move = seat_number(position.to_move());
        if to_move != seat {
            return Err(Refusal::NotYourTurn { seat, to_move });
        }
        if position.phase() == Phase::Draw {
            return Err(Refusal::DrawDue);
        }
        Ok(())
    }
}

/// Seat numbers are from 1; the engine's index is from 0 and below [`MAX_SEATS`].
fn seat_number(index: usize) -> u8 {
    u8::try_from(index + 1).unwrap_or(u8::MAX)
}

/// Whether `viewer` sees the hand of seat index `index` (from 0) in `position`.
fn hand_shown(position: &Position, viewer: Viewer, index: usize) -> bool {
    position.rules().variant != Variant::Classic
        || position.phase() == Phase::Over
        || viewer == Viewer::Seat(seat_number(index))
}

/// The engine's position line as `viewer` may see it (see the module's comment): other seats'
/// hidden hands as one `?` a tile, the bag as its count and the tiles `viewer` has not seen.
///
/// # Errors
/// A line the engine's parser refuses.
pub fn view_line(line: &str, viewer: Viewer) -> Result<String, SetupError> {
    let position = Position::from_line(line)?;
    Ok(view_of(&position, viewer))
}

/// [`view_line`] of a position already read.
pub fn view_of(position: &Position, viewer: Viewer) -> String {
    let players = usize::from(position.rules().players);
    let mut unseen: Tiles = *position.bag();
    let hands: Vec<String> = (0..players)
        .map(|i| {
            let hand = position.hand(i);
            if hand_shown(position, viewer, i) {
                hand.to_string()
            } else if hand.is_empty() {
                "-".to_string()
            } else {
                unseen.add_all(hand);
                "?".repeat(hand.len())
            }
        })
        .collect();
    let classic = position.rules().variant == Variant::Classic;
    let canonical = position.to_line();
    let mut fields = Vec::new();
    for token in canonical.split(' ') {
        let key = token.split_once('=').map_or(token, |(key, _)| key);
        match key {
            "bag" if classic => {
                fields.push(format!("bag={}", position.bag().len()));
                let counts: Vec<String> = (1..=6).map(|v| unseen.count(v).to_string()).collect();
                fields.push(format!("unseen={}", counts.join(",")));
            }
            "bag" => {
                fields.push(token.to_string());
                fields.push("unseen=-".to_string());
            }
            "hands" => fields.push(format!("hands={}", hands.join("/"))),
            _ => fields.push(token.to_string()),
        }
    }
    fields.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use zatre::rules::{Game, Rules};

    fn person() -> SeatKind {
        SeatKind::Person
    }

    fn computer() -> SeatKind {
        SeatKind::Computer { strategy: Strategy::Greedy, movetime_ms: 0 }
    }

    /// The position lines of a seeded game of random legal moves, one after each draw and move.
    fn game_lines(rules: Rules, seed: u64) -> Vec<String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules);
        let mut lines = vec![game.position().to_line()];
        while game.position().phase() != Phase::Over {
            match game.position().phase() {
                Phase::Draw => {
                    game.draw_random(&mut rng).expect("a draw is due");
                }
                _ => {
                    let moves = game.position().movegen().legal_moves();
                    let mv = moves[rng.random_range(0..moves.len())].clone();
                    game.play(&mv).expect("a legal move");
                }
            }
            lines.push(game.position().to_line());
        }
        lines
    }

    /// The value of field `key` in a line.
    fn field<'a>(line: &'a str, key: &str) -> &'a str {
        line.split(' ')
            .find_map(|t| t.strip_prefix(key).and_then(|rest| rest.strip_prefix('=')))
            .unwrap_or_else(|| panic!("no field {key} in {line}"))
    }

    fn classic(players: u8, options: &[(&str, &str)]) -> Rules {
        Rules::with_options(Variant::Classic, players, options.iter().copied()).expect("rules")
    }

    /// Every line of the game, for every viewer: the view holds the viewer's own hand, of every
    /// other seat's hand during play only its length in `?`, the bag's total, and per value the
    /// tiles of the box the viewer has not seen, counted here from the box and the board.
    fn check_views(lines: &[String], players: u8) -> usize {
        let mut hidden_tiles = 0;
        let viewers: Vec<Viewer> = (1..=players).map(Viewer::Seat).chain([Viewer::Watcher]).collect();
        for line in lines {
            let position = Position::from_line(line).expect("the engine's own line");
            let hands: Vec<&str> = field(line, "hands").split('/').collect();
            let over = field(line, "phase") == "over";
            for &viewer in &viewers {
                let view = view_line(line, viewer).expect("a view");
                let shown: Vec<&str> = field(&view, "hands").split('/').collect();
                assert_eq!(shown.len(), hands.len(), "{view}");
                for (i, (real, seen)) in hands.iter().zip(&shown).enumerate() {
                    let own = viewer == Viewer::Seat(i as u8 + 1);
                    if own || over || *real == "-" {
                        assert_eq!(seen, real, "seat {} for {viewer:?}: {view}", i + 1);
                    } else {
                        assert_eq!(*seen, "?".repeat(real.len()), "seat {} for {viewer:?}: {view}", i + 1);
                        hidden_tiles += real.len();
                    }
                }
                // What the viewer has not seen: the box's 21 ones and 20 of each other value,
                // less the board and the hands the view shows.
                let mut unseen = [21i32, 20, 20, 20, 20, 20];
                for placement in field(line, "board").split(',').filter(|p| *p != "-") {
                    let value: usize = placement[..1].parse().expect("a value");
                    unseen[value - 1] -= 1;
                }
                for hand in shown.iter().filter(|h| **h != "-" && !h.starts_with('?')) {
                    for digit in hand.bytes() {
                        unseen[usize::from(digit - b'1')] -= 1;
                    }
                }
                let expected: Vec<String> = unseen.iter().map(i32::to_string).collect();
                assert_eq!(field(&view, "unseen"), expected.join(","), "{line}\n{view}");
                let bag_total: usize =
                    field(line, "bag").split(',').map(|c| c.parse::<usize>().expect("a count")).sum();
                assert_eq!(field(&view, "bag"), bag_total.to_string(), "{view}");
                assert_eq!(position.bag().len(), bag_total);
                // Everything else is the engine's line, word for word.
                let rest = |l: &str| -> Vec<String> {
                    l.split(' ')
                        .filter(|t| !["bag=", "hands=", "unseen="].iter().any(|k| t.starts_with(k)))
                        .map(str::to_string)
                        .collect()
                };
                assert_eq!(rest(&view), rest(line));
            }
        }
        hidden_tiles
    }

    #[test]
    fn no_seat_sees_another_seats_hand_or_the_bag_in_classic_games() {
        let mut hidden = 0;
        for (players, options, seed) in [
            (3, vec![], 1),
            (2, vec![("leftovers", "cz3")], 2),
            (4, vec![("teams", "on"), ("leftovers", "cz4")], 3),
            (2, vec![("rounds", "8")], 4),
        ] {
            let lines = game_lines(classic(players, &options), seed);
            assert!(lines.len() > 20, "a real game");
            hidden += check_views(&lines, players);
        }
        assert!(hidden > 100, "the games hide hands: {hidden} tiles");
    }

    #[test]
    fn kept_tiles_of_a_seat_not_to_move_are_hidden() {
        // Seat 2 keeps 3 and 5 face down while seat 1 draws; seat 1 holds nothing.
        let line = "variant=classic players=2 center_cross=scoring must_place=maximum forced_double=allow leftovers=de bonus=3,3,3,3,4,4,4,4,5,5,5,5,6 rounds=0 teams=off turn=3 tomove=1 phase=draw board=5@h8,6@h9,6@i9,2@i10,4@i11 bag=21,19,19,19,18,18 hands=-/35 sheets=x,-,2,4/x,-,-,-;-,-,-,4";
        let seat1 = view_line(line, Viewer::Seat(1)).expect("a view");
        assert_eq!(field(&seat1, "hands"), "-/??");
        assert_eq!(field(&seat1, "bag"), "114");
        // Unseen by seat 1: the bag and seat 2's 3 and 5.
        assert_eq!(field(&seat1, "unseen"), "21,19,20,19,19,18");
        let seat2 = view_line(line, Viewer::Seat(2)).expect("a view");
        assert_eq!(field(&seat2, "hands"), "-/35");
        assert_eq!(field(&seat2, "unseen"), "21,19,19,19,18,18");
        let watcher = view_line(line, Viewer::Watcher).expect("a view");
        assert_eq!(field(&watcher, "hands"), "-/??");
        assert_eq!(watcher, seat1, "a watcher sees what seat 1, holding nothing, sees");
    }

    #[test]
    fn views_do_not_tell_hidden_tiles_from_tiles_in_the_bag() {
        // The same table twice, but for seat 2's kept tile, a 3 in one and a 6 in the other (the
        // other one in the bag): no one but seat 2 can tell the two apart.
        let base = "variant=classic players=3 center_cross=scoring must_place=maximum forced_double=allow leftovers=de bonus=3,3,3,3,4,4,4,4,5,5,5,5,6 rounds=0 teams=off turn=4 tomove=1 phase=place board=5@h8,6@h9,6@i9,2@i10,4@i11";
        let sheets = "sheets=x,-,2,4/x,-,-,-;-,-,-,4;none";
        let a = format!("{base} bag=20,19,19,18,19,18 hands=14/3/- {sheets}");
        let b = format!("{base} bag=20,19,20,18,19,17 hands=14/6/- {sheets}");
        for viewer in [Viewer::Seat(1), Viewer::Seat(3), Viewer::Watcher] {
            let (va, vb) = (view_line(&a, viewer).expect("a"), view_line(&b, viewer).expect("b"));
            assert_eq!(va, vb, "{viewer:?}");
            assert!(!va.contains("20,19,19,18,19,18") && !vb.contains("20,19,20,18,19,17"), "{va}");
        }
        assert_ne!(view_line(&a, Viewer::Seat(2)).expect("a"), view_line(&b, Viewer::Seat(2)).expect("b"));
        // Seat 1 places its 1 and 4: the others see two tiles, not which.
        assert_eq!(field(&view_line(&a, Viewer::Seat(3)).expect("a"), "hands"), "??/?/-");
    }

    /// `line` with one tile of seat `seat`'s hand (index from 0) swapped for another value from
    /// the bag: a table that differs only in what that seat keeps hidden.
    fn swap_hidden_tile(line: &str, seat: usize) -> Option<String> {
        let position = Position::from_line(line).expect("a position");
        let mut hand = *position.hand(seat);
        let mut bag = *position.bag();
        let given = hand.values().next()?;
        let taken = (1..=6).find(|&v| v != given && bag.count(v) > 0)?;
        hand.remove(given);
        hand.add(taken);
        bag.remove(taken);
        bag.add(given);
        let hands: Vec<String> = (0..usize::from(position.rules().players))
            .map(|i| if i == seat { hand.to_string() } else { position.hand(i).to_string() })
            .collect();
        let counts: Vec<String> = (1..=6).map(|v| bag.count(v).to_string()).collect();
        let swapped: Vec<String> = line
            .split(' ')
            .map(|t| match t.split_once('=') {
                Some(("hands", _)) => format!("hands={}", hands.join("/")),
                Some(("bag", _)) => format!("bag={}", counts.join(",")),
                _ => t.to_string(),
            })
            .collect();
        Some(swapped.join(" "))
    }

    #[test]
    fn no_view_but_the_holders_changes_when_a_hidden_tile_is_another() {
        let mut compared = 0;
        for (players, seed) in [(2u8, 11), (3, 12), (4, 13)] {
            let lines = game_lines(classic(players, &[]), seed);
            for line in lines.iter().filter(|l| field(l, "phase") != "over") {
                for holder in 0..usize::from(players) {
                    let Some(other) = swap_hidden_tile(line, holder) else { continue };
                    // The engine's own check: the swapped table is one the rules allow.
                    Position::from_line(&other).expect("a position the engine reads");
                    let holder_seat = Viewer::Seat(holder as u8 + 1);
                    for viewer in (1..=players).map(Viewer::Seat).chain([Viewer::Watcher]) {
                        let (a, b) =
                            (view_line(line, viewer).expect("a"), view_line(&other, viewer).expect("b"));
                        if viewer == holder_seat {
                            assert_ne!(a, b, "the holder sees its own tiles");
                        } else {
                            assert_eq!(
                                a,
                                b,
                                "{viewer:?} tells seat {} hands apart:\n{line}\n{other}",
                                holder + 1
                            );
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 200, "{compared} views compared");
    }

    #[test]
    fn the_hands_are_laid_open_when_the_game_is_over() {
        let lines = game_lines(classic(2, &[("rounds", "6")]), 9);
        let last = lines.last().expect("a line");
        assert_eq!(field(last, "phase"), "over");
        for viewer in [Viewer::Seat(1), Viewer::Seat(2), Viewer::Watcher] {
            assert_eq!(field(&view_line(last, viewer).expect("a view"), "hands"), field(last, "hands"));
        }
    }

    #[test]
    fn rolled_numbers_are_seen_by_everyone() {
        for variant in [Variant::Dice, Variant::Kids] {
            let rules = Rules::new(variant, 3).expect("rules");
            let lines = game_lines(rules, 5);
            let mut rolls = 0;
            for line in &lines {
                for viewer in [Viewer::Seat(2), Viewer::Watcher] {
                    let view = view_line(line, viewer).expect("a view");
                    assert_eq!(field(&view, "hands"), field(line, "hands"));
                    assert_eq!(field(&view, "bag"), "-");
                    assert_eq!(field(&view, "unseen"), "-");
                }
                rolls += usize::from(field(line, "phase") == "place");
            }
            assert!(rolls > 3, "{variant:?}: {rolls} rolls");
        }
    }

    #[test]
    fn a_line_the_engine_would_refuse_is_not_viewed() {
        assert!(view_line("variant=classic players=2", Viewer::Watcher).is_err());
        assert!(view_line("", Viewer::Seat(1)).is_err());
        // Tiles that do not add up: one more 1 in the bag than the box holds.
        let bad = "variant=classic players=2 center_cross=scoring must_place=maximum forced_double=allow leftovers=de bonus=3,3,3,3,4,4,4,4,5,5,5,5,6 rounds=0 teams=off turn=1 tomove=1 phase=draw board=- bag=22,20,20,20,20,20 hands=-/- sheets=none;none";
        assert!(view_line(bad, Viewer::Seat(1)).is_err());
    }

    fn position(line: &str) -> Position {
        Position::from_line(line).expect("a position")
    }

    const START: &str = "variant=classic players=3 center_cross=scoring must_place=maximum forced_double=allow leftovers=de bonus=3,3,3,3,4,4,4,4,5,5,5,5,6 rounds=0 teams=off turn=1 tomove=1 phase=draw board=- bag=21,20,20,20,20,20 hands=-/-/- sheets=none;none;none";
    const SEAT2_PLACES: &str = "variant=classic players=3 center_cross=scoring must_place=maximum forced_double=allow leftovers=de bonus=3,3,3,3,4,4,4,4,5,5,5,5,6 rounds=0 teams=off turn=2 tomove=2 phase=place board=5@h8,6@h9,6@i9 bag=21,19,20,19,19,18 hands=-/24/- sheets=x,-,2,4;none;none";

    #[test]
    fn only_the_seat_to_move_may_play_and_only_after_the_draw() {
        let table = Table { state: RoomState::Open, seats: vec![person(), person(), computer()] };
        let placing = position(SEAT2_PLACES);
        assert_eq!(table.may_play(Viewer::Seat(2), &placing), Ok(()));
        assert_eq!(
            table.may_play(Viewer::Seat(1), &placing),
            Err(Refusal::NotYourTurn { seat: 1, to_move: 2 })
        );
        assert_eq!(table.may_play(Viewer::Seat(3), &placing), Err(Refusal::ComputerSeat(3)));
        assert_eq!(table.may_play(Viewer::Seat(4), &placing), Err(Refusal::NoSuchSeat(4)));
        assert_eq!(table.may_play(Viewer::Seat(0), &placing), Err(Refusal::NoSuchSeat(0)));
        assert_eq!(table.may_play(Viewer::Watcher, &placing), Err(Refusal::Watcher));
        let start = position(START);
        assert_eq!(table.may_play(Viewer::Seat(1), &start), Err(Refusal::DrawDue));
        for state in [RoomState::Finished, RoomState::Abandoned] {
            let closed = Table { state, ..table.clone() };
            assert_eq!(closed.may_play(Viewer::Seat(2), &placing), Err(Refusal::Closed(state)));
            assert_eq!(closed.next_step(&placing), Step::Nothing);
        }
    }

    #[test]
    fn a_finished_game_takes_no_move() {
        let table = Table { state: RoomState::Open, seats: vec![person(), person()] };
        let lines = game_lines(classic(2, &[("rounds", "2")]), 3);
        let over = position(lines.last().expect("a line"));
        assert_eq!(over.phase(), Phase::Over);
        assert_eq!(table.may_play(Viewer::Seat(1), &over), Err(Refusal::GameOver));
        assert_eq!(table.next_step(&over), Step::Nothing);
    }

    #[test]
    fn the_server_draws_for_everyone_and_asks_the_engine_for_computer_seats() {
        let level = SeatKind::Computer { strategy: Strategy::Search, movetime_ms: 500 };
        let table = Table { state: RoomState::Open, seats: vec![person(), level, person()] };
        assert_eq!(table.next_step(&position(START)), Step::Draw { seat: 1 });
        assert_eq!(
            table.next_step(&position(SEAT2_PLACES)),
            Step::Computer { seat: 2, strategy: Strategy::Search, movetime_ms: 500 }
        );
        let people = Table { state: RoomState::Open, seats: vec![person(), person(), person()] };
        assert_eq!(people.next_step(&position(SEAT2_PLACES)), Step::Person { seat: 2 });
        // A table with fewer seats than the game's players has no one to play seat 3 (a bug).
        let short = Table { state: RoomState::Open, seats: vec![person()] };
        assert_eq!(short.next_step(&position(SEAT2_PLACES)), Step::Nothing);
    }

    #[test]
    fn room_states_read_back() {
        for state in [RoomState::Open, RoomState::Finished, RoomState::Abandoned] {
            assert_eq!(RoomState::parse(state.name()), Some(state));
            assert_eq!(state.to_string(), state.name());
        }
        assert_eq!(RoomState::parse("Open"), None);
        assert_eq!(RoomState::parse(""), None);
    }
}
