//! Scoring and the score sheet: the worked examples of docs/rules.md section 5 and the sheet rules
//! of its section 2.5, checked on real boards where the rule texts give one and at the sheet level
//! otherwise.

use crate::common;

use common::{classic, mv, square};
use zatre::rules::{MoveScore, Rules, Sheet, Variant};

fn classic_rules() -> Rules {
    Rules::new(Variant::Classic, 2).unwrap()
}

fn runs(ten: u8, eleven: u8, twelve: u8, crosses: u8) -> MoveScore {
    MoveScore { runs: [ten, eleven, twelve], crosses, extra: 0 }
}

#[test]
fn cz3_walk_through_fills_the_sheets_move_by_move() {
    let rules = Rules::with_options(Variant::Classic, 2, [("rules", "cz3")]).unwrap();
    let (mut a, mut b) = (Sheet::new(), Sheet::new());
    // A: a run of 10 and a run of 9 (unscored).
    a.record(&rules, &runs(1, 0, 0, 0), 3);
    assert_eq!(a.to_string(), "-,1,-,-");
    // B: a cross, runs 11, 10 and 8.
    b.record(&rules, &runs(1, 1, 0, 1), 2);
    assert_eq!(b.to_string(), "x,1,2,-");
    // A: a cross and two 12s: one box of 8.
    a.record(&rules, &runs(0, 0, 2, 1), 2);
    assert_eq!(a.to_string(), "x,1,-,8");
    // B: a cross, 12, 11, 10: row 1 complete, (7 + 3) x 2 = 20; row 2 holds x | 1 | 2 | -.
    b.record(&rules, &runs(1, 1, 1, 1), 2);
    assert_eq!(b.to_string(), "x,1,2,4/x,1,2,-");
    assert_eq!(b.total(&rules), 20 + (1 + 2) * 2);
    assert_eq!(a.total(&rules), (1 + 8) * 2, "A's row 1 is incomplete: no bonus, doubled");
}

#[test]
fn hu_example_on_a_dice_board_writes_2x_1_2_8() {
    // The 6 goes on the extra cell e5: horizontally 6+2+3 = 11, vertically 1+6+4+1 = 12. The 1
    // goes on b9: vertically 6+2+3+1 = 12, horizontally 4+1+5 = 10.
    let board = "1@e4,2@f5,3@g5,6@b6,4@e6,1@f6,2@b7,1@e7,3@b8,4@a9,5@c9";
    let mut pos = square("dice", board, "16", "");
    let m = mv(&pos, "6@e5,1@b9");
    let score = pos.play(&m).unwrap();
    assert_eq!(score.runs, [1, 1, 2]);
    assert_eq!((score.points(pos.rules()), score.reported_crosses(pos.rules())), (11, 1));
    assert_eq!(pos.sheets()[0].to_string(), "2x,1,2,8");
    assert_eq!(pos.sheets()[0].total(pos.rules()), (1 + 2 + 8 + 3) * 2);
}

#[test]
fn two_twelves_make_one_box_of_8_and_four_tens_one_box_of_4() {
    let rules = classic_rules();
    let mut s = Sheet::new();
    s.record(&rules, &runs(0, 0, 2, 0), 2);
    s.record(&rules, &runs(4, 0, 0, 0), 2);
    assert_eq!(s.to_string(), "-,4,-,8");
    // On a board: 6@h7 makes the column h7-h8 6+6 = 12, 6@g8 the row g8-h8 and the column
    // g8-g9, both 12: three runs of 12 in one move, one box of 12.
    let pos = classic("6@h8,6@g9,6@i9", &["66", "-"], "");
    let score = pos.score_move(&mv(&pos, "6@h7,6@g8")).unwrap();
    assert_eq!(score.runs, [0, 0, 3], "h7-h8 column, g8-h8 row, g8-g9 column");
    assert_eq!(score.points(pos.rules()), 12);
}

#[test]
fn two_crosses_in_one_move_take_two_boxes() {
    let rules = classic_rules();
    let mut s = Sheet::new();
    s.record(&rules, &runs(1, 0, 1, 2), 2);
    assert_eq!(s.to_string(), "x,1,-,4/x,-,-,-");
    assert_eq!(s.total(&rules), (1 + 4) * 2, "a row with only a cross totals 0");
    // On the board: g7 and i7 are double cells; 5@g7 over 5,... makes 10s through both.
    let pos = classic("5@g8,1@h8,5@i8", &["55", "-"], "");
    let score = pos.score_move(&mv(&pos, "5@g7,5@i7")).unwrap();
    assert_eq!(score.runs, [2, 0, 0]);
    assert_eq!(score.crosses, 2);
}

#[test]
fn doubling_holds_for_an_incomplete_row_and_the_bonus_only_for_full_rows() {
    let rules = classic_rules();
    let s = Sheet::parse(&rules, "x,2,-,4").unwrap();
    assert_eq!(s.total(&rules), 12, "HU: (2 + 4) x 2");
    let s = Sheet::parse(&rules, "x,1,2,4/-,1,2,4/-,1,2,4/-,1,2,4/-,1,2,4").unwrap();
    assert_eq!(s.total(&rules), 20 + 10 + 10 + 10 + 11, "row 5 has bonus 4");
    let custom = Rules::with_options(Variant::Classic, 2, [("bonus", "1,9")]).unwrap();
    let s = Sheet::parse(&custom, "-,1,2,4/-,1,2,4/-,1,2,4").unwrap();
    assert_eq!(s.total(&custom), 8 + 16 + 16, "rows past the list keep its last value");
}

#[test]
fn tiles_still_in_hand_count_as_minus_points() {
    let pos = classic("5@h8,3@h9", &["46", "1"], "");
    let standings = pos.standings();
    assert_eq!(standings[0].total, -10);
    assert_eq!(standings[1].total, -1);
    assert_eq!(standings[0].to_string(), "player 1 total -10 hand 4,6 sheet none rows none");
}

#[test]
fn the_centre_cross_follows_the_option() {
    for (option, crosses) in [("scoring", 1), ("always", 1), ("never", 0)] {
        let pos = classic("", &["552", "-"], &format!("center_cross={option}"));
        let score = pos.score_move(&mv(&pos, "5@h8,5@i8,2@j8")).unwrap();
        assert_eq!(score.crosses, crosses, "{option}: a run of 12 through the centre");
        let score = pos.score_move(&mv(&pos, "2@h8,5@i8,5@h9")).unwrap();
        let expected = if option == "always" { 1 } else { 0 };
        assert_eq!(score.crosses, expected, "{option}: runs of 7 only");
    }
}

#[test]
fn kids_points_double_on_an_extra_cell_and_dots_count_runs() {
    // a1 is on the kids' diagonal. 5@a1 with 5@a2 below: column 10 (3 points), doubled.
    let pos = square("kids", "5@a2,4@c1", "15", "");
    let score = pos.score_move(&mv(&pos, "5@a1,1@b1")).unwrap();
    // Row a1-c1: 5+1+4 = 10; column a: 5+5 = 10; b1's column: 1 alone.
    assert_eq!(score.runs, [0, 0, 2]);
    assert_eq!(score.points(pos.rules()), (3 + 3) * 2);
    let mut played = pos.clone();
    played.play(&mv(&pos, "5@a1,1@b1")).unwrap();
    assert_eq!(played.sheets()[0].to_string(), "x,-,-,6");
    let dots = square("kids", "5@a2,4@c1", "15", "scoring=dots");
    let mut d = dots.clone();
    let score = d.play(&mv(&dots, "5@a1,1@b1")).unwrap();
    assert_eq!(score.points(d.rules()), 2);
    assert_eq!(d.sheets()[0].to_string(), "-,-,-,2");
    assert_eq!(d.standings()[0].total, 2, "dots: the 10 column decides");
}

#[test]
fn a_kids_move_that_scores_nothing_still_takes_a_row() {
    let mut pos = square("kids", "-", "12", "");
    pos.play(&mv(&pos, "1@b5,2@g3")).unwrap();
    assert_eq!(pos.sheets()[0].to_string(), "-,-,-,-");
}
