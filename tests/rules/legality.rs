//! Every reason the rules refuse a move or a draw, in every variant where it applies.

use crate::common;

use common::{classic, mv, square};
use zatre::rules::{DrawError, Game, MoveError, NotATile, NotationError, Position, Rules, Variant};

fn refuse(pos: &Position, text: &str) -> MoveError {
    match pos.check(&mv(pos, text)) {
        Err(e) => e,
        Ok(()) => panic!("{text} was accepted on {}", pos.to_line()),
    }
}

fn dice(board: &str, hand: &str) -> Position {
    square("dice", board, hand, "")
}

fn kids(board: &str, hand: &str) -> Position {
    square("kids", board, hand, "")
}

#[test]
fn cells_off_the_board_are_not_cells() {
    let c = classic("5@h8", &["34", "-"], "");
    for name in ["h1", "a8", "p8", "a1", "h16"] {
        let e = zatre::rules::Move::parse(c.board().geometry(), &format!("3@{name}")).unwrap_err();
        assert_eq!(e, NotationError::NotACell(name.into()));
    }
    let d = dice("1@f6", "34");
    assert!(zatre::rules::Move::parse(d.board().geometry(), "3@l1").is_err(), "11x11 ends at k");
    let k = kids("-", "34");
    assert!(zatre::rules::Move::parse(k.board().geometry(), "3@a11").is_err(), "10x10 ends at 10");
}

#[test]
fn values_not_in_the_hand_are_refused() {
    let c = classic("5@h8", &["34", "-"], "");
    assert!(matches!(refuse(&c, "5@h9"), MoveError::NotInHand { value: 5, .. }));
    assert!(matches!(refuse(&c, "3@h9,3@h7"), MoveError::NotInHand { value: 3, .. }));
    assert!(matches!(refuse(&dice("1@f6", "34"), "6@f7"), MoveError::NotInHand { value: 6, .. }));
    assert!(matches!(refuse(&kids("-", "04"), "6@a5"), MoveError::NotInHand { value: 6, .. }));
}

#[test]
fn occupied_and_repeated_cells_are_refused() {
    let c = classic("5@h8", &["34", "-"], "");
    assert_eq!(refuse(&c, "3@h8,4@h9"), MoveError::Occupied(mv(&c, "3@h8").placements()[0].cell));
    assert!(matches!(refuse(&c, "3@h9,4@h9"), MoveError::RepeatedCell(_)));
    assert!(matches!(refuse(&dice("1@f6", "34"), "3@f6,4@f7"), MoveError::Occupied(_)));
    assert!(matches!(refuse(&kids("2@a1", "34"), "3@a1,4@b2"), MoveError::Occupied(_)));
}

#[test]
fn tiles_need_a_neighbour_in_classic_and_adjacent_dice_only() {
    let c = classic("5@h8", &["34", "-"], "");
    assert_eq!(refuse(&c, "3@h9,4@c3").to_string(), "c3 has no occupied neighbour, in any order of the move");
    // Side by side, apart from the board: neither touches it.
    assert!(matches!(refuse(&c, "3@c4,4@c5"), MoveError::NoNeighbour(_)));
    // Through the other tile of the move it is fine, in either written order.
    assert!(c.check(&mv(&c, "4@h10,3@h9")).is_ok());
    assert!(matches!(refuse(&dice("1@f6", "34"), "3@a1,4@f7"), MoveError::NoNeighbour(_)));
    let free = square("dice", "1@f6", "34", "adjacent=off");
    assert!(free.check(&mv(&free, "3@a1,4@k11")).is_ok());
    assert!(kids("-", "34").check(&mv(&kids("-", "34"), "3@a1,4@j10")).is_ok());
}

#[test]
fn the_start_tile_goes_on_the_centre() {
    let c = classic("", &["345", "-"], "");
    assert_eq!(
        refuse(&c, "3@g8,4@h9,5@h10").to_string(),
        "the first tile of the game must go on the centre h8"
    );
    assert!(c.check(&mv(&c, "3@h9,4@h8,5@h10")).is_ok(), "any written order that is legal");
}

#[test]
fn runs_over_the_limit_are_refused_with_their_sum() {
    let c = classic("6@h8,5@h9", &["24", "-"], "");
    let e = refuse(&c, "2@h10,4@i8");
    assert_eq!(e.to_string(), "the vertical run through h10 would sum to 13, over 12");
    // A tile that joins two runs: 6 | _ | 5 with a 2 between is 13.
    let c = classic("6@h8,5@j8,1@i9", &["2", "-"], "");
    assert_eq!(refuse(&c, "2@i8").to_string(), "the horizontal run through i8 would sum to 13, over 12");
    assert!(matches!(
        refuse(&dice("1@f6,6@f7,5@f8", "11"), "1@f9,1@e6"),
        MoveError::RunOverLimit { sum: 13, .. }
    ));
    assert!(matches!(
        refuse(&kids("5@a1,5@a2", "13"), "1@a3,3@e5"),
        MoveError::RunOverLimit { sum: 11, limit: 10, .. }
    ));
}

#[test]
fn double_cells_need_a_run_of_10_to_12_unless_forced() {
    // g7 is a double cell next to g8.
    let c = classic("3@h8,3@g8", &["12", "-"], "");
    let e = refuse(&c, "1@g7,2@h9");
    assert!(matches!(e, MoveError::DoubleNotForced { value: 1, .. }), "{e}");
    // Forbidden outright under forced_double=forbid (CZ4).
    let c = classic("3@h8,3@g8", &["12", "-"], "forced_double=forbid");
    assert!(matches!(refuse(&c, "1@g7,2@h9"), MoveError::DoubleForbidden(_)));
}

#[test]
fn the_forced_exception_allows_a_double_cell_when_no_normal_cell_fits() {
    // Around 6@h8, 6@g8, 6@h7 the free normal neighbours f8, i8, h6 and h9 each extend a run of
    // 12, so even a 1 fits on no normal cell (the others, g7, i7, g9, are double cells). On g7
    // the 1 makes runs of 7 only: allowed by the forced exception alone, and without a cross.
    let c = classic("6@h8,6@g8,6@h7", &["1", "-"], "");
    let legal = c.movegen().legal_moves();
    assert!(!legal.is_empty() && legal.iter().all(|m| m.len() == 1), "{legal:?}");
    let forced = mv(&c, "1@g7");
    assert!(c.check(&forced).is_ok(), "forced onto a double cell: {:?}", c.check(&forced));
    let score = c.score_move(&forced).unwrap();
    assert_eq!(score.crosses, 0, "a forced tile earns no cross");
    let c = classic("6@h8,6@g8,6@h7", &["1", "-"], "forced_double=forbid");
    assert_eq!(c.movegen().legal_moves(), vec![zatre::rules::Move::pass()]);
}

#[test]
fn must_place_maximum_demands_the_most_tiles_and_maximal_only_a_full_stop() {
    let c = classic("5@h8", &["34", "-"], "");
    let e = refuse(&c, "3@h9");
    assert!(matches!(e, MoveError::TooFew { placed: 1, required: 2, .. }), "{e}");
    assert!(matches!(refuse(&dice("1@f6", "34"), "3@f7"), MoveError::TooFew { .. }));
    assert!(matches!(refuse(&kids("-", "34"), "3@b5"), MoveError::TooFew { .. }));
    // Maximal: a single tile is not complete while the second still fits after it.
    let cz = classic("5@h8", &["34", "-"], "rules=cz3");
    assert!(matches!(refuse(&cz, "3@h9"), MoveError::NotMaximal { .. }));
    let dm = square("dice", "1@f6", "34", "must_place=maximal");
    assert!(matches!(refuse(&dm, "3@f7"), MoveError::NotMaximal { .. }));
}

#[test]
fn maximal_accepts_a_move_that_blocks_the_rest_and_maximum_does_not() {
    // 4@g9 makes the row g9-h9 4+6 = 10 and leaves no cell where the other 4 fits: every
    // neighbour then sums to 13 or more. Under maximum two-tile moves exist, so it is too few.
    let board = "5@g8,5@h8,6@h9";
    let maximal = classic(board, &["44", "-"], "must_place=maximal");
    assert!(maximal.check(&mv(&maximal, "4@g9")).is_ok());
    let singles: Vec<String> =
        maximal.movegen().legal_moves().iter().filter(|m| m.len() == 1).map(|m| m.to_string()).collect();
    assert_eq!(singles, ["4@g9"]);
    let maximum = classic(board, &["44", "-"], "");
    assert!(matches!(refuse(&maximum, "4@g9"), MoveError::TooFew { placed: 1, required: 2, .. }));
    assert!(maximum.movegen().legal_moves().iter().all(|m| m.len() == 2));
}

#[test]
fn pass_only_when_nothing_fits() {
    let c = classic("5@h8", &["34", "-"], "");
    assert!(matches!(refuse(&c, "pass"), MoveError::PassWhileFits { .. }));
    assert!(matches!(refuse(&dice("1@f6", "34"), "pass"), MoveError::PassWhileFits { .. }));
    assert!(matches!(refuse(&kids("-", "34"), "pass"), MoveError::PassWhileFits { .. }));
    let stuck = classic("6@h8,6@g8,6@h7", &["1", "-"], "forced_double=forbid");
    assert!(stuck.check(&zatre::rules::Move::pass()).is_ok());
}

#[test]
fn moves_and_draws_out_of_turn_are_refused() {
    let mut game = Game::new(Rules::new(Variant::Classic, 2).unwrap());
    let pos = game.position().clone();
    assert_eq!(pos.check(&mv(&pos, "5@h8")), Err(MoveError::DrawDue));
    assert_eq!(game.draw(&[5, 3]), Err(DrawError::Count { expected: 3, given: 2 }));
    assert_eq!(game.draw(&[5, 3, 7]), Err(DrawError::Value(NotATile { value: 7, min: 1, max: 6 })));
    assert_eq!(game.draw(&[5, 3, 0]), Err(DrawError::Value(NotATile { value: 0, min: 1, max: 6 })));
    game.draw(&[5, 3, 4]).unwrap();
    assert_eq!(game.draw(&[1, 1]), Err(DrawError::MoveDue));
    assert_eq!(game.position().to_line(), {
        let mut p = pos.clone();
        p.draw(&[5, 3, 4]).unwrap();
        p.to_line()
    });
    let mut kids_game = Game::new(Rules::new(Variant::Kids, 2).unwrap());
    assert_eq!(kids_game.draw(&[6, 1]), Err(DrawError::Value(NotATile { value: 6, min: 0, max: 5 })));
    assert!(kids_game.draw(&[0, 5]).is_ok());
}

#[test]
fn draws_of_tiles_the_bag_no_longer_has_are_refused() {
    // The board holds all twenty 6s. (An empty board at turn 1 with a kept hand of twenty 6s,
    // as this test once had it, is no position the rules reach: refused now.)
    let line = "variant=classic players=2 center_cross=scoring must_place=maximum forced_double=allow \
                leftovers=de bonus=3 rounds=0 teams=off turn=29 tomove=1 phase=draw \
                board=6@b2,6@d2,6@f2,6@h2,6@j2,6@l2,6@n2,6@b4,6@d4,6@f4,6@h4,6@j4,6@l4,6@n4,6@a6,6@c6,\
                6@e6,6@g6,6@i6,6@k6,1@h8 bag=20,20,20,20,20,0 hands=-/- sheets=none;none";
    let mut pos = Position::from_line(line).unwrap();
    assert_eq!(pos.draw(&[6, 1]), Err(DrawError::NotInBag { value: 6, available: 0 }));
}

#[test]
fn a_finished_game_takes_no_more_moves_or_draws() {
    let rules = Rules::with_options(Variant::Dice, 2, [("rounds", "1")]).unwrap();
    let mut game = Game::new(rules);
    for _ in 0..2 {
        game.draw(&[2, 3]).unwrap();
        let m = game.position().movegen().legal_moves().remove(0);
        game.play(&m).unwrap();
    }
    assert!(game.position().is_over());
    assert_eq!(game.draw(&[1, 1]), Err(DrawError::GameOver));
    assert_eq!(game.position().check(&zatre::rules::Move::pass()), Err(MoveError::GameOver));
}

/// A move of more than 32 tiles whose last tile lies on a double cell off a run of 10 to 12: the
/// double-cell rule indexes the tiles of a move in bit masks, which must hold every tile of the
/// game (this move once overflowed them).
#[test]
fn a_move_of_35_tiles_with_an_unforced_double_is_refused_for_it_not_overflowed() {
    use zatre::rules::{Move, Placement, Square};
    let ones_and_twos = format!("{}{}", "1".repeat(20), "2".repeat(20));
    let pos = classic("1@h8", &[&ones_and_twos, "-"], "must_place=maximal");
    let limit = pos.rules().limit();
    let mut board = pos.board().clone();
    let geometry = board.geometry();
    let mut placements: Vec<Placement> = Vec::new();
    // Twos, then ones, on normal cells, grown breadth-first from the centre while they fit; one 1
    // is kept for the double cell.
    let mut frontier = vec![geometry.centre().expect("the classic centre")];
    let (mut ones, mut twos) = (19, 20);
    while placements.len() < 34 {
        let next = frontier.iter().flat_map(|&c| board.neighbours(c).collect::<Vec<_>>()).find_map(|n| {
            let room = board
                .room(n, limit)
                .filter(|_| board.is_empty_cell(n) && geometry.square(n) == Square::Normal)?;
            match (room >= 2 && twos > 0, ones > 0) {
                (true, _) => Some((n, 2)),
                (false, true) if room >= 1 => Some((n, 1)),
                _ => None,
            }
        });
        let (cell, value) = next.expect("room for 34 tiles");
        if value == 2 {
            twos -= 1;
        } else {
            ones -= 1;
        }
        board.place(cell, value);
        placements.push(Placement { cell, value });
        frontier.push(cell);
    }
    let double = frontier
        .iter()
        .flat_map(|&c| board.neighbours(c).collect::<Vec<_>>())
        .find(|&n| {
            board.is_empty_cell(n) && geometry.square(n) == Square::Double && {
                let (h, v) = board.sums_with(n, 1);
                h.max(v) < limit - 2
            }
        })
        .expect("a double cell beside the ones, off a run of 10");
    placements.push(Placement { cell: double, value: 1 });
    let error = pos.check(&Move::new(placements)).expect_err("the double cell is not forced");
    assert!(
        matches!(error, MoveError::DoubleNotForced { cell, value: 1, .. } if cell == double),
        "{error:?}"
    );
}
