//! The score sheet: the `x2` (or `2x`/`4x`) column and the 10, 11, 12 columns (kids: 8, 9, 10).
//! Classic and dice columns fill on their own from the top, one box per column per move; the
//! kids' sheet takes one row per move. The boxes are private: `record` writes, [`Sheet::gain`]
//! says what a record would add, and the rows are read through [`SheetRow`], so the filling rules
//! live here.

use std::fmt;

use super::number::parse_number;
use super::options::{KidsScoring, Rules, Variant};
use super::scoring::{run_points, MoveScore};

/// What stands in a row's first column.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `x`: doubles the row (classic cross, kids' extra cell).
    Cross,
    /// `2x` (dice: one number on an extra cell).
    Double,
    /// `4x` (dice: both numbers on extra cells).
    Quadruple,
}

impl Mark {
    /// What the mark multiplies its row by: 2 (`x`, `2x`) or 4 (`4x`).
    pub fn factor(self) -> u32 {
        match self {
            Mark::Cross | Mark::Double => 2,
            Mark::Quadruple => 4,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Mark::Cross => "x",
            Mark::Double => "2x",
            Mark::Quadruple => "4x",
        }
    }
}

/// One row of a sheet, read-only: its mark and its three sum boxes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SheetRow {
    mark: Option<Mark>,
    boxes: [Option<u16>; 3],
}

impl SheetRow {
    /// The mark in the first column, if any.
    pub fn mark(&self) -> Option<Mark> {
        self.mark
    }

    /// The entries of the 10, 11, 12 columns (kids: 8, 9, 10): points, or dots.
    pub fn boxes(&self) -> [Option<u16>; 3] {
        self.boxes
    }

    /// Whether the three sum boxes are filled (classic and dice: the row earns its bonus).
    pub fn is_full(&self) -> bool {
        self.boxes.iter().all(Option::is_some)
    }

    /// `filled(0)` the mark box, `filled(1..=3)` a sum box.
    fn filled(&self, column: usize) -> bool {
        if column == 0 {
            self.mark.is_some()
        } else {
            self.boxes[column - 1].is_some()
        }
    }
}

/// One player's (or team's) score sheet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sheet {
    rows: Vec<SheetRow>,
    /// Classic and dice: how many boxes of each column are filled (0 the marks, 1..=3 the sums);
    /// columns fill from the top, so this is also the row of the column's next free box.
    filled: [usize; 4],
}

impl Sheet {
    /// An empty sheet.
    pub fn new() -> Sheet {
        Sheet::default()
    }

    /// The marks a classic or dice move writes, one below the other: how many and which.
    fn marks_of(rules: &Rules, score: &MoveScore) -> (usize, Mark) {
        match rules.variant {
            Variant::Classic => (usize::from(score.crosses), Mark::Cross),
            _ => match score.extra {
                0 => (0, Mark::Double),
                1 => (1, Mark::Double),
                _ => (1, Mark::Quadruple),
            },
        }
    }

    /// The row a kids' move writes.
    fn kids_row(rules: &Rules, score: &MoveScore) -> SheetRow {
        let dots = rules.scoring == KidsScoring::Dots;
        let points = run_points(rules.variant);
        let mut row = SheetRow { mark: (score.extra > 0 && !dots).then_some(Mark::Cross), boxes: [None; 3] };
        for (j, &n) in score.runs.iter().enumerate() {
            if n > 0 {
                row.boxes[j] = Some(if dots { u16::from(n) } else { u16::from(n) * points[j] });
            }
        }
        row
    }

    /// Row `index` of a classic or dice sheet with what a move writes into it.
    fn row_with(&self, rules: &Rules, index: usize, score: &MoveScore) -> SheetRow {
        let mut row = self.rows.get(index).copied().unwrap_or_default();
        let points = run_points(rules.variant);
        for (j, &n) in score.runs.iter().enumerate() {
            if n > 0 && self.filled[j + 1] == index {
                row.boxes[j] = Some(u16::from(n) * points[j]);
            }
        }
        let (count, mark) = Sheet::marks_of(rules, score);
        if (self.filled[0]..self.filled[0] + count).contains(&index) {
            row.mark = Some(mark);
        }
        row
    }

    /// The rows a classic or dice move writes in, without repeats: one per column it writes in,
    /// and its marks' rows. `None` when they are more than 8 (many crosses in one move).
    fn touched_rows(&self, rules: &Rules, score: &MoveScore) -> Option<([usize; 8], usize)> {
        let (count, _) = Sheet::marks_of(rules, score);
        if count > 5 {
            return None;
        }
        let mut touched = [usize::MAX; 8];
        let mut n = 0;
        let columns = (0..3).filter(|&j| score.runs[j] > 0).map(|j| self.filled[j + 1]);
        for r in columns.chain(self.filled[0]..self.filled[0] + count) {
            if !touched[..n].contains(&r) {
                touched[n] = r;
                n += 1;
            }
        }
        Some((touched, n))
    }

    /// How much recording a move would add to the sheet's total, without recording it: the
    /// projection the search makes of every move it looks at.
    pub fn gain(&self, rules: &Rules, score: &MoveScore, placed: usize) -> u32 {
        if rules.variant == Variant::Kids {
            return if placed == 0 { 0 } else { Sheet::total_of(rules, 0, &Sheet::kids_row(rules, score)) };
        }
        let Some((touched, n)) = self.touched_rows(rules, score) else {
            let mut after = self.clone();
            after.record(rules, score, placed);
            return after.total(rules) - self.total(rules);
        };
        touched[..n]
            .iter()
            .map(|&r| {
                let before = self.rows.get(r).map_or(0, |row| Sheet::total_of(rules, r, row));
                Sheet::total_of(rules, r, &self.row_with(rules, r, score)) - before
            })
            .sum()
    }

    /// Enters a move on the sheet. Kids' sheets take a row for every move that writes a value,
    /// so `placed` says how many values the move wrote.
    pub fn record(&mut self, rules: &Rules, score: &MoveScore, placed: usize) {
        match rules.variant {
            Variant::Kids => {
                if placed > 0 {
                    self.rows.push(Sheet::kids_row(rules, score));
                }
            }
            Variant::Classic | Variant::Dice => {
                let points = run_points(rules.variant);
                for (j, &n) in score.runs.iter().enumerate() {
                    if n > 0 {
                        let r = self.filled[j + 1];
                        self.row_mut(r).boxes[j] = Some(u16::from(n) * points[j]);
                        self.filled[j + 1] += 1;
                    }
                }
                let (count, mark) = Sheet::marks_of(rules, score);
                for _ in 0..count {
                    let r = self.filled[0];
                    self.row_mut(r).mark = Some(mark);
                    self.filled[0] += 1;
                }
            }
        }
    }

    /// Row `index`, added when it is the next row.
    fn row_mut(&mut self, index: usize) -> &mut SheetRow {
        if index == self.rows.len() {
            self.rows.push(SheetRow::default());
        }
        &mut self.rows[index]
    }

    /// The total of a row, by the rules of the variant.
    pub fn row_total(&self, rules: &Rules, index: usize) -> u32 {
        self.rows.get(index).map_or(0, |row| Sheet::total_of(rules, index, row))
    }

    /// Every row's total as it counts now, top to bottom (what the protocol prints).
    pub fn row_totals(&self, rules: &Rules) -> Vec<u32> {
        self.rows.iter().enumerate().map(|(i, row)| Sheet::total_of(rules, i, row)).collect()
    }

    /// The total of row `index` holding `row`.
    fn total_of(rules: &Rules, index: usize, row: &SheetRow) -> u32 {
        let sum: u32 = row.boxes.iter().flatten().map(|&b| u32::from(b)).sum();
        let factor = row.mark.map_or(1, Mark::factor);
        match rules.variant {
            Variant::Kids => match rules.scoring {
                KidsScoring::Points => sum * factor,
                KidsScoring::Dots => row.boxes[2].map_or(0, u32::from),
            },
            Variant::Classic | Variant::Dice => {
                let full = row.boxes.iter().all(Option::is_some);
                (sum + if full { rules.bonus_of_row(index) } else { 0 }) * factor
            }
        }
    }

    /// The sum of the row totals (before any minus points for tiles in hand).
    pub fn total(&self, rules: &Rules) -> u32 {
        (0..self.rows.len()).map(|i| self.row_total(rules, i)).sum()
    }

    /// The dots (or points) in a sum column, 0 for the lowest sum: the kids' tie-breaks.
    pub fn column_total(&self, column: usize) -> u32 {
        self.rows.iter().filter_map(|r| r.boxes[column]).map(u32::from).sum()
    }

    /// The rows, top to bottom.
    pub fn rows(&self) -> &[SheetRow] {
        &self.rows
    }

    /// Classic and dice: how many marks are written (they fill the first column from the top).
    pub fn mark_count(&self) -> usize {
        self.filled[0]
    }

    /// Classic and dice: how many entries sum column `column` holds (0 for the lowest sum; they
    /// fill from the top).
    pub fn entry_count(&self, column: usize) -> usize {
        self.filled[column + 1]
    }

    /// Parses the `score` form of a sheet (`x,1,2,4/x,1,2,-` or `none`) and checks it could have
    /// been written under these rules.
    ///
    /// # Errors
    /// A malformed row, a mark of another variant, or a column with a gap.
    pub fn parse(rules: &Rules, text: &str) -> Result<Sheet, String> {
        if text == "none" {
            return Ok(Sheet::new());
        }
        let mut sheet = Sheet::new();
        for row_text in text.split('/') {
            let fields: Vec<&str> = row_text.split(',').collect();
            let [mark, a, b, c] = fields[..] else {
                return Err(format!("row '{row_text}' needs 4 fields <mark>,<a>,<b>,<c>"));
            };
            let mark = match (mark, rules.variant) {
                ("-", _) => None,
                ("x", Variant::Classic) => Some(Mark::Cross),
                ("x", Variant::Kids) if rules.scoring == KidsScoring::Points => Some(Mark::Cross),
                ("2x", Variant::Dice) => Some(Mark::Double),
                ("4x", Variant::Dice) => Some(Mark::Quadruple),
                _ => return Err(format!("mark '{mark}' is not one of this game")),
            };
            let mut boxes = [None; 3];
            for (j, text) in [a, b, c].into_iter().enumerate() {
                boxes[j] = match text {
                    "-" => None,
                    _ => Some(
                        parse_number::<u16>(text)
                            .filter(|&n| n > 0 && n <= 999)
                            .ok_or_else(|| format!("box '{text}' is not a positive number or -"))?,
                    ),
                };
            }
            if rules.variant != Variant::Kids {
                let points = run_points(rules.variant);
                for (j, b) in boxes.iter().enumerate() {
                    let ok = match b {
                        Some(n) => n % points[j] == 0,
                        None => true,
                    };
                    if !ok {
                        return Err(format!("box {} is not a multiple of {}", b.unwrap_or(0), points[j]));
                    }
                }
            }
            sheet.rows.push(SheetRow { mark, boxes });
        }
        if rules.variant != Variant::Kids && sheet.rows.last().is_some_and(|r| *r == SheetRow::default()) {
            return Err("the last row is empty".into());
        }
        if rules.variant != Variant::Kids {
            for column in 0..4 {
                let n = sheet.rows.iter().take_while(|r| r.filled(column)).count();
                if sheet.rows[n..].iter().any(|r| r.filled(column)) {
                    return Err(format!("column {} has a gap: columns fill from the top", column + 1));
                }
                sheet.filled[column] = n;
            }
        }
        Ok(sheet)
    }
}

impl fmt::Display for Sheet {
    /// The rows joined by `/`, each `<mark>,<a>,<b>,<c>` with `-` for an empty box; `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rows.is_empty() {
            return f.write_str("none");
        }
        for (i, row) in self.rows.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            f.write_str(row.mark.map_or("-", Mark::name))?;
            for b in row.boxes {
                match b {
                    Some(n) => write!(f, ",{n}")?,
                    None => f.write_str(",-")?,
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Rules {
        Rules::new(Variant::Classic, 2).unwrap()
    }

    #[test]
    fn the_view_reads_marks_entries_and_row_totals() {
        let rules = classic();
        let sheet = Sheet::parse(&rules, "x,-,2,4/x,-,-,-").unwrap();
        assert_eq!(sheet.row_totals(&rules), [12, 0]);
        assert_eq!(
            (sheet.mark_count(), sheet.entry_count(0), sheet.entry_count(1), sheet.entry_count(2)),
            (2, 0, 1, 1)
        );
        assert_eq!(sheet.rows()[0].mark(), Some(Mark::Cross));
        assert_eq!(sheet.rows()[0].boxes(), [None, Some(2), Some(4)]);
        assert!(!sheet.rows()[0].is_full());
        assert_eq!(Sheet::new().row_totals(&rules), Vec::<u32>::new());
    }

    #[test]
    fn gain_is_what_recording_adds() {
        let rules = classic();
        let sheet = Sheet::parse(&rules, "x,-,2,4/x,-,-,-").unwrap();
        // A 10 fills the first row: (1 + 2 + 4 + bonus 3) x 2 = 20, 8 more than now.
        let ten = MoveScore { runs: [1, 0, 0], crosses: 0, extra: 0 };
        assert_eq!(sheet.gain(&rules, &ten, 1), 8);
        // Many crosses in one move (a huge kept hand) take the long way, with the same answer.
        for score in [ten, MoveScore { runs: [1, 1, 2], crosses: 7, extra: 0 }, MoveScore::default()] {
            let mut after = sheet.clone();
            after.record(&rules, &score, 3);
            assert_eq!(sheet.gain(&rules, &score, 3), after.total(&rules) - sheet.total(&rules));
            assert_eq!(Sheet::parse(&rules, &after.to_string()), Ok(after));
        }
    }
}
