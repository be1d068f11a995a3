//! Unit tests for the tricky rules, on small hand-made positions.

use super::game::{apply_move, distinct_draws, multisets};
use super::geometry::{parse_cell, CellKind, Geometry};
use super::legality::valid_sets;
use super::moves::{legal_moves, Move};
use super::perft::perft;
use super::position::{Phase, Position, CLASSIC_TILES};

/// A classic two-player position in `phase=place` with seat 1 holding `hand`; the bag holds
/// the rest of the 121 tiles. `options` overrides `key=value` fields.
fn classic(board: &str, hand: &str, options: &[(&str, &str)]) -> Position {
    let mut bag = CLASSIC_TILES;
    if board != "-" {
        for part in board.split(',') {
            let value: usize = part[..1].parse().expect("test board value");
            bag[value - 1] -= 1;
        }
    }
    for ch in hand.chars().filter(|c| *c != '-') {
        let value = ch.to_digit(10).expect("test hand value") as usize;
        bag[value - 1] -= 1;
    }
    let bag: Vec<String> = bag.iter().map(u32::to_string).collect();
    let mut fields = vec![
        ("variant", "classic".to_string()),
        ("players", "2".to_string()),
        ("center_cross", "scoring".to_string()),
        ("must_place", "maximum".to_string()),
        ("forced_double", "allow".to_string()),
        ("leftovers", "de".to_string()),
        ("bonus", "3".to_string()),
        ("rounds", "0".to_string()),
        ("teams", "off".to_string()),
        ("turn", "5".to_string()),
        ("tomove", "1".to_string()),
        ("phase", "place".to_string()),
        ("board", board.to_string()),
        ("bag", bag.join(",")),
        ("hands", format!("{hand}/-")),
        ("sheets", "none;none".to_string()),
    ];
    for (key, value) in options {
        if let Some(field) = fields.iter_mut().find(|(k, _)| k == key) {
            field.1 = (*value).to_string();
        }
    }
    let line: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    Position::parse(&line.join(" ")).expect("test position parses")
}

/// Reads a move written as `v@cell,v@cell` (sorted like the counter's sets).
fn mv(text: &str) -> Move {
    let mut out: Move = text
        .split(',')
        .map(|p| {
            let (v, c) = p.split_once('@').expect("test move");
            (parse_cell(c).expect("test cell"), v.parse().expect("test value"))
        })
        .collect();
    out.sort_by_key(|&((col, row), value)| (row, col, value));
    out
}

/// The legal moves of the seat to move.
fn legal(position: &Position) -> Vec<Move> {
    legal_moves(position, position.hand_to_move())
}

#[test]
fn classic_board_has_193_cells_and_32_doubles() {
    let g = Geometry::classic();
    let cells = g.cells();
    assert_eq!(cells.len(), 193);
    let doubles = cells.iter().filter(|&&c| g.kind(c) == Some(CellKind::Double)).count();
    assert_eq!(doubles, 32);
    assert_eq!(g.kind((7, 7)), Some(CellKind::Centre));
    for name in ["h1", "h15", "a8", "o8", "a1", "d1"] {
        assert!(!g.is_cell(parse_cell(name).expect("cell")), "{name}");
    }
    for name in ["g1", "i1", "a7", "b2", "n14"] {
        assert_eq!(g.kind(parse_cell(name).expect("cell")), Some(CellKind::Double));
    }
}

#[test]
fn start_move_goes_on_the_centre() {
    let one = classic("-", "3", &[("turn", "1")]);
    assert_eq!(legal(&one), vec![mv("3@h8")]);
    // 3 values on the centre, then 10 connected shapes avoiding the doubles g7 i7 g9 i9
    // (runs of at most 3 + 4 + 5 = 12 can never reach 10 through a double with two tiles).
    let three = classic("-", "345", &[("turn", "1")]);
    assert_eq!(legal(&three).len(), 60);
}

#[test]
fn a_tile_needs_an_occupied_edge_neighbour() {
    let position = classic("5@h8", "1", &[]);
    let moves = legal(&position);
    assert_eq!(moves.len(), 4);
    for cell in ["g8", "i8", "h7", "h9"] {
        assert!(moves.contains(&mv(&format!("1@{cell}"))), "{cell}");
    }
    // Two tiles may be laid apart, both next to the board, or one next to the other.
    let two = classic("5@h8", "11", &[]);
    let moves = legal(&two);
    assert!(moves.contains(&mv("1@h7,1@h9")));
    assert!(moves.contains(&mv("1@h6,1@h7")));
    assert!(!moves.contains(&mv("1@h5,1@h7")));
}

#[test]
fn a_connecting_placement_may_not_make_a_run_over_12() {
    let position = classic("6@f8,6@h8", "1", &[]);
    let moves = legal(&position);
    assert!(!moves.contains(&mv("1@g8")));
    assert_eq!(moves.len(), 6);
}

#[test]
fn a_double_cell_needs_a_run_of_10_to_12() {
    // g7 and i7 are doubles beside 5@h7; h8 is the centre, h6 a normal cell.
    let four = classic("5@h7", "4", &[]);
    assert_eq!(legal(&four), vec![mv("4@h6"), mv("4@h8")]);
    let five = classic("5@h7", "5", &[]);
    assert_eq!(legal(&five).len(), 4);
    assert!(legal(&five).contains(&mv("5@g7")));
    let six = classic("5@h7", "6", &[]);
    assert!(legal(&six).contains(&mv("6@i7")));
}

#[test]
fn a_double_cell_may_score_with_both_tiles_together() {
    let position = classic("5@h7", "24", &[]);
    let valid = valid_sets(&position, position.hand_to_move());
    assert!(valid.contains(&mv("2@f7,4@g7")));
    assert!(!valid.contains(&mv("4@g7")));
    assert!(!valid.contains(&mv("2@h6,4@g7")));
}

/// Every normal cell next to this board is closed by a run of 12; only the doubles g7 and
/// j10 take a tile, and there a run reaches at most 1 + 6 = 7.
const CLOSED_BOARD: &str = "1@h7,1@g8,6@h8,5@i8,5@h9,6@i9,1@j9,1@i10";

#[test]
fn the_forced_exception_allows_a_double_cell() {
    let allow = classic(CLOSED_BOARD, "3", &[]);
    assert_eq!(legal(&allow), vec![mv("3@g7"), mv("3@j10")]);
    let forbid = classic(CLOSED_BOARD, "3", &[("forced_double", "forbid")]);
    assert_eq!(legal(&forbid), vec![Move::new()]);
}

#[test]
fn the_forced_exception_is_judged_at_the_tile_s_point_in_the_order() {
    // After 3@g7 (forced), f7 and g6 open for the 4: 4@f7 is a normal placement.
    let position = classic(CLOSED_BOARD, "34", &[]);
    let moves = legal(&position);
    assert!(moves.contains(&mv("4@f7,3@g7")));
    // {3@g7, 4@j10} is valid by no order: after 3@g7 the 4 fits on normal f7, so j10 is not
    // forced; after 4@j10 the 3 fits on normal k10 (1 + 4 + 3 = 8), so g7 is not forced; and
    // neither double ends on a run of 10-12.
    assert!(!moves.contains(&mv("3@g7,4@j10")));
    let valid = valid_sets(&position, position.hand_to_move());
    assert!(valid.contains(&mv("3@g7")));
    assert!(valid.contains(&mv("4@j10")));
    assert!(!valid.contains(&mv("3@g7,4@j10")));
}

#[test]
fn maximal_keeps_unextendable_singles_maximum_does_not() {
    let maximum = classic("6@h7,6@h8,6@i8", "45", &[]);
    let maximal = classic("6@h7,6@h8,6@i8", "45", &[("must_place", "maximal")]);
    let big = legal(&maximum);
    let all = legal(&maximal);
    assert_eq!(big.len(), 6);
    assert!(big.iter().all(|m| m.len() == 2));
    assert_eq!(all.len(), 8);
    assert!(all.contains(&mv("4@i7")));
    assert!(all.contains(&mv("5@i7")));
    assert!(!all.contains(&mv("4@i9")));
}

#[test]
fn pass_only_when_nothing_fits() {
    let position = classic(CLOSED_BOARD, "6", &[("forced_double", "forbid")]);
    assert_eq!(legal(&position), vec![Move::new()]);
    assert_eq!(perft(&position, 1), 1);
}

#[test]
fn draws_are_multisets_of_the_bag() {
    assert_eq!(multisets(&[21, 20, 20, 20, 20, 20], 1, 3).len(), 56);
    assert_eq!(multisets(&[1, 0, 2, 0, 0, 0], 1, 2), vec![vec![1, 3], vec![3, 3]]);
    assert_eq!(multisets(&[0; 6], 1, 0), vec![Vec::<u8>::new()]);
    let start = classic("-", "-", &[("turn", "1"), ("phase", "draw")]);
    assert_eq!(distinct_draws(&start).len(), 56);
}

#[test]
fn kept_tiles_change_the_draw() {
    // Two kept tiles with a move: no draw under de; one draw under cz4.
    let de = classic("5@h8", "12", &[("phase", "draw")]);
    assert_eq!(distinct_draws(&de), vec![Vec::<u8>::new()]);
    let cz4 = classic("5@h8", "12", &[("phase", "draw"), ("leftovers", "cz4")]);
    assert_eq!(distinct_draws(&cz4).len(), 6);
    // One kept tile that fits: de draws one, cz3 none.
    let de_one = classic("5@h8", "1", &[("phase", "draw")]);
    assert_eq!(distinct_draws(&de_one).len(), 6);
    let cz3_one = classic("5@h8", "1", &[("phase", "draw"), ("leftovers", "cz3")]);
    assert_eq!(distinct_draws(&cz3_one), vec![Vec::<u8>::new()]);
}

#[test]
fn kids_need_no_neighbour_and_dice_adjacency_is_an_option() {
    let kids = Position::parse(
        "variant=kids players=2 scoring=points must_place=maximum rounds=0 turn=1 tomove=1 \
         phase=place board=- bag=- hands=12/- sheets=none;none",
    )
    .expect("kids position");
    assert_eq!(legal(&kids).len(), 100 * 99);
    let dice = |adjacent: &str| {
        Position::parse(&format!(
            "variant=dice players=2 size=5 adjacent={adjacent} must_place=maximum bonus=3 \
             rounds=0 turn=1 tomove=1 phase=place board=1@c3 bag=- hands=23/- sheets=none;none"
        ))
        .expect("dice position")
    };
    assert_eq!(legal(&dice("off")).len(), 24 * 23);
    let on = legal(&dice("on"));
    assert!(on.contains(&mv("2@b3,3@a3")));
    assert!(!on.contains(&mv("2@a1,3@c2")));
}

#[test]
fn the_game_ends_by_rounds_and_then_perft_is_zero() {
    let position = classic("5@h8", "12", &[("rounds", "2"), ("turn", "4"), ("tomove", "2")]);
    let position = Position { hands: vec![Vec::new(), vec![1, 2]], ..position };
    let after = apply_move(&position, &mv("1@h7,2@h9"));
    assert_eq!(after.phase, Phase::Over);
    assert_eq!(perft(&after, 1), 0);
    assert_eq!(perft(&after, 0), 1);
}

#[test]
fn a_bag_count_past_the_games_21_is_refused_not_overflowed() {
    // The board and hands are added to the bag's counts: u32::MAX once overflowed there.
    let line = |bag: &str| {
        format!(
            "variant=classic players=2 center_cross=scoring must_place=maximum forced_double=allow leftovers=de \
             bonus=3,3,3,3,4,4,4,4,5,5,5,5,6 rounds=0 teams=off turn=2 tomove=2 phase=draw board=1@h8 bag={bag} \
             hands=-/- sheets=none;none"
        )
    };
    Position::parse(&line("20,20,20,20,20,20")).expect("a bag of 120 and one tile on the board");
    for bag in ["4294967295,20,20,20,20,20", "22,20,20,20,20,20"] {
        let e = Position::parse(&line(bag)).expect_err(bag).to_string();
        assert!(e.contains("bad bag count"), "{bag}: {e}");
    }
}

#[test]
fn a_dice_or_kids_hand_is_two_tiles_at_most() {
    let line = |hand: &str| {
        format!(
            "variant=kids players=2 scoring=points must_place=maximum rounds=0 turn=1 tomove=1 phase=place \
             board=- bag=- hands={hand}/- sheets=none;none"
        )
    };
    Position::parse(&line("05")).expect("a roll of two");
    let e = Position::parse(&line("012345")).expect_err("six tiles").to_string();
    assert!(e.contains("rolls two dice"), "{e}");
}
