//! How long a dice game still runs, as the evaluation sees it: the dice game ends at the first
//! roll whose two numbers cannot both be written, so its length is a matter of the board's
//! frontier, not only of its empty cells.
//!
//! [`end_hazard`] is the chance that the next roll ends the game, exact over the 21 rolls (a quick
//! test first: two cells that take any number and share no run let every roll be written).
//! [`turns_left`] is the evaluation's outlook: the turns a game with this many empty cells still
//! ran when no roll ended it, times a factor that falls with the hazard, both measured in the games
//! of `search` against `greedy` (tools/STRENGTH.md, "Dice: the end of the game"). The rules' own
//! estimate ([`Position::turns_left_estimate`]) counts the empty cells alone: it held a board whose
//! next roll may well end the game to be 30 turns from its end, and the last 45 empty cells to be
//! one turn from it when games ran 4 to 5 more.

use crate::rules::{Axis, Cell, Position};

/// The turns (every player's, the one to come included) that dice games still ran, on the
/// two-player board of 121 cells, when the next roll could not end them: by the empty cells,
/// linear between the points. 400 games of `search` against `greedy` (seed 7, 300,000 nodes a
/// move); past the last point the line goes on at its slope, towards 0 empty cells down to 1 turn.
const TURNS_BY_EMPTY: [(f64, f64); 12] = [
    (0.0, 1.0),
    (34.0, 2.6),
    (42.0, 4.2),
    (50.0, 6.5),
    (58.0, 9.4),
    (66.0, 12.4),
    (74.0, 15.8),
    (82.0, 19.3),
    (90.0, 23.0),
    (98.0, 26.6),
    (106.0, 30.5),
    (120.0, 36.8),
];

/// The board [`TURNS_BY_EMPTY`] was measured on; other boards scale it by their cells.
const MEASURED_CELLS: f64 = 121.0;

/// The share of the turns after the next that games still ran, by the chance that the next roll
/// ends them (the same games), linear between the points.
const SHARE_BY_HAZARD: [(f64, f64); 8] = [
    (0.0, 1.0),
    (0.028, 0.75),
    (0.1, 0.68),
    (0.22, 0.48),
    (0.43, 0.37),
    (0.675, 0.19),
    (0.89, 0.02),
    (1.0, 0.0),
];

/// `y` at `x` on the line through `points` (sorted by `x`), linear between them; past the last
/// point at the last segment's slope, before the first at the first point's value.
fn on_line(points: &[(f64, f64)], x: f64) -> f64 {
    let i = points.partition_point(|&(px, _)| px < x).clamp(1, points.len() - 1);
    let ((x0, y0), (x1, y1)) = (points[i - 1], points[i]);
    if x <= x0 {
        return y0;
    }
    y0 + (y1 - y0) * (x - x0) / (x1 - x0)
}

/// The chance that the next roll cannot be written whole (the game ends with it), for the player
/// to move in a dice game: over the 21 rolls, exactly ([`Frontier::fits`]).
pub(crate) fn end_hazard(pos: &Position) -> f64 {
    let rules = pos.rules();
    let (lo, hi) = (rules.min_value(), rules.max_value());
    if takes_any_roll(pos) {
        return 0.0;
    }
    let frontier = Frontier::of(pos);
    let mut unwritable: Vec<(u8, u8)> = Vec::new();
    let mut hazard = 0.0;
    // Every roll a <= b, each after the smaller ones: a roll is unwritable when a smaller one is
    // (a smaller number fits wherever a larger one does).
    for a in lo..=hi {
        for b in a..=hi {
            if unwritable.iter().any(|&(x, y)| x <= a && y <= b) || !frontier.fits(pos, a, b) {
                unwritable.push((a, b));
                hazard += if a == b { 1.0 / 36.0 } else { 2.0 / 36.0 };
            }
        }
    }
    hazard
}

/// Whether two empty cells that may be written on take the highest number each and share no run:
/// then each number of every roll fits on one of them whatever the other does. (The usual case
/// until the board closes: settled without listing the cells.)
fn takes_any_roll(pos: &Position) -> bool {
    let rules = pos.rules();
    let board = pos.board();
    let (limit, top) = (rules.limit(), rules.max_value());
    let mut open = [None::<Cell>; 2];
    let mut found = 0;
    for &cell in board.geometry().cells() {
        let free = board.is_empty_cell(cell)
            && (!rules.adjacent || board.has_neighbour(cell))
            && board.room(cell, limit).is_some_and(|room| room >= top);
        if !free {
            continue;
        }
        if open[..found].iter().flatten().any(|&other| !board.partners(cell).any(|p| p.cell == other)) {
            return true;
        }
        // No three cells share a run each with each (a third in line with two is beyond one of
        // them): two kept settle every later cell.
        if found < open.len() {
            open[found] = Some(cell);
            found += 1;
        }
    }
    false
}

/// The empty cells a number may be written on now, each with the largest number it takes.
struct Frontier {
    cells: Vec<(Cell, u8)>,
}

impl Frontier {
    fn of(pos: &Position) -> Frontier {
        let rules = pos.rules();
        let board = pos.board();
        let (limit, least) = (rules.limit(), rules.min_value());
        let cells = board
            .geometry()
            .cells()
            .iter()
            .filter(|&&cell| board.is_empty_cell(cell) && (!rules.adjacent || board.has_neighbour(cell)))
            .filter_map(|&cell| {
                board.room(cell, limit).filter(|&room| room >= least).map(|room| (cell, room))
            })
            .collect();
        Frontier { cells }
    }

    /// Whether the numbers `a` and `b` (`a <= b`) can both be written: on two cells of the
    /// frontier that share no run (each fits whatever the other does), or on a cell of the
    /// frontier and one of its partners (the first empty cell in a direction beyond the tiles
    /// next to it, its neighbour when there are none: the only cells that share a run with it, and
    /// the only others a number written on it makes writable), the run they share within the limit.
    fn fits(&self, pos: &Position, a: u8, b: u8) -> bool {
        self.fits_apart(pos, a, b) || self.fits_together(pos, a, b) || self.fits_together(pos, b, a)
    }

    /// Whether `a` and `b` (`a <= b`) fit on two cells of the frontier that share no run.
    fn fits_apart(&self, pos: &Position, a: u8, b: u8) -> bool {
        let board = pos.board();
        let takes_a = self.cells.iter().filter(|&&(_, room)| room >= a).count();
        self.cells.iter().filter(|&&(_, room)| room >= b).any(|&(cell, _)| {
            let partners_taking_a = board
                .partners(cell)
                .filter(|p| self.cells.iter().any(|&(c, room)| c == p.cell && room >= a))
                .count();
            takes_a > 1 + partners_taking_a
        })
    }

    /// Whether `x` fits on a cell of the frontier and `y` on one of its partners, together.
    fn fits_together(&self, pos: &Position, x: u8, y: u8) -> bool {
        let board = pos.board();
        let limit = pos.rules().limit();
        self.cells.iter().filter(|&&(_, room)| room >= x).any(|&(cell, _)| {
            let first = board.sums_with(cell, x);
            board.partners(cell).any(|partner| {
                let second = board.sums_with(partner.cell, y);
                // The shared run counts the tiles between the two cells in both sums.
                let (shared, across_first, across_second) = match partner.axis {
                    Axis::Horizontal => (first.0 + second.0 - partner.between, first.1, second.1),
                    Axis::Vertical => (first.1 + second.1 - partner.between, first.0, second.0),
                };
                shared <= limit && across_first <= limit && across_second <= limit
            })
        })
    }
}

/// The evaluation's outlook of the turns (every player's) a dice game still runs from a position
/// whose draw is due: the turn to come, and the turns after it that games with as many empty cells
/// ran, scaled down by the chance that the next roll ends it ([`SHARE_BY_HAZARD`]); capped by the
/// `rounds` option. 0 once the game is over.
pub(crate) fn turns_left(pos: &Position) -> f64 {
    if pos.is_over() {
        return 0.0;
    }
    let cells = pos.board().geometry().cells().len() as f64;
    let empty = cells - pos.board().count() as f64;
    let scale = cells / MEASURED_CELLS;
    let by_empty = (on_line(&TURNS_BY_EMPTY, empty / scale) * scale).max(1.0);
    let share = on_line(&SHARE_BY_HAZARD, end_hazard(pos));
    let turns = (1.0 + (by_empty - 1.0) * share).max(1.0);
    let rules = pos.rules();
    if rules.rounds > 0 {
        let total = f64::from(rules.rounds) * f64::from(rules.players);
        let played = f64::from(pos.turn()) - 1.0;
        return turns.min((total - played).max(0.0));
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{MoveGen, Rules, Variant};
    use crate::search::greedy_choice;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Every position whose draw is due in greedy games under these rules, to their end.
    fn greedy_positions(rules: &Rules, games: u64) -> Vec<Position> {
        let mut out = Vec::new();
        for seed in 0..games {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut pos = Position::new(rules.clone());
            while !pos.is_over() {
                out.push(pos.clone());
                pos.draw_random(&mut rng).unwrap();
                let mv = greedy_choice(&pos).unwrap();
                pos.play(&mv).unwrap();
            }
        }
        out
    }

    /// The chance that the next roll cannot be written, by the move generator.
    fn generator_hazard(pos: &Position) -> f64 {
        pos.possible_draws()
            .into_iter()
            .filter(|(roll, _)| MoveGen::new(pos.rules(), pos.board(), *roll).largest_size() < 2)
            .map(|(_, p)| p)
            .sum()
    }

    /// The hazard is the move generator's, roll for roll, over whole greedy games (on the
    /// two-player board and on a larger one without the neighbour rule), and games close: some
    /// positions have a hazard strictly between 0 and 1.
    #[test]
    fn the_hazard_is_the_move_generators() {
        let boards = [
            (Rules::new(Variant::Dice, 2).unwrap(), 40),
            (Rules::with_options(Variant::Dice, 3, [("adjacent", "off")]).unwrap(), 3),
        ];
        let mut between = 0;
        for (rules, games) in boards {
            let positions = greedy_positions(&rules, games);
            for pos in &positions {
                let (got, want) = (end_hazard(pos), generator_hazard(pos));
                assert!((got - want).abs() < 1e-12, "{got} != {want} in {}", pos.to_line());
                between += usize::from(got > 0.0 && got < 1.0);
            }
        }
        assert!(between >= 5, "{between} positions with a hazard in (0, 1)");
    }

    /// The outlook: a full game ahead at the start, fewer turns as the board fills and as the
    /// next roll threatens the end, 1 turn when the next roll surely ends it, none once over.
    #[test]
    fn the_turns_left_fall_with_the_empty_cells_and_the_hazard() {
        let rules = Rules::new(Variant::Dice, 2).unwrap();
        let start = Position::new(rules.clone());
        assert!((turns_left(&start) - 36.8).abs() < 1e-9, "{}", turns_left(&start));
        let positions = greedy_positions(&rules, 10);
        for pos in &positions {
            let t = turns_left(pos);
            let h = end_hazard(pos);
            assert!(t >= 1.0, "{t} turns in {}", pos.to_line());
            if h > 1.0 - 1e-9 {
                assert!((t - 1.0).abs() < 1e-9, "{t} turns when the next roll ends the game");
            }
            let empty = (121 - pos.board().count()) as f64;
            if h == 0.0 {
                assert!((t - on_line(&TURNS_BY_EMPTY, empty).max(1.0)).abs() < 1e-9);
            } else {
                assert!(t < on_line(&TURNS_BY_EMPTY, empty).max(1.0) || t == 1.0);
            }
        }
        let mut over = positions.last().unwrap().clone();
        while !over.is_over() {
            over.draw(&[6, 6]).unwrap();
            let mv = greedy_choice(&over).unwrap();
            over.play(&mv).unwrap();
        }
        assert_eq!(turns_left(&over), 0.0);
    }

    #[test]
    fn the_lines_go_through_their_points_and_on_past_the_last() {
        assert_eq!(on_line(&TURNS_BY_EMPTY, 0.0), 1.0);
        assert_eq!(on_line(&TURNS_BY_EMPTY, 42.0), 4.2);
        assert!((on_line(&TURNS_BY_EMPTY, 46.0) - 5.35).abs() < 1e-12);
        assert!((on_line(&TURNS_BY_EMPTY, 134.0) - (36.8 + 6.3)).abs() < 1e-12);
        assert_eq!(on_line(&SHARE_BY_HAZARD, 1.0), 0.0);
        assert_eq!(on_line(&SHARE_BY_HAZARD, -1.0), 1.0);
    }
}
