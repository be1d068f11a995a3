//! The score sheet: the `x2` (or `2x`/`4x`) column and the 10, 11, 12 columns (kids: 8, 9, 10).
//! Classic and dice columns fill on their own from the top, one box per column per move; the
//! kids' sheet takes one row per move. The boxes are private: `record` and `total` are the only
//! ways in and out, so the filling rules live here.

use std::fmt;

use super::options::{KidsScoring, Rules, Variant};
use super::scoring::MoveScore;

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
    fn factor(self) -> u32 {
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

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Row {
    mark: Option<Mark>,
    boxes: [Option<u16>; 3],
}

/// One player's (or team's) score sheet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sheet {
    rows: Vec<Row>,
}

/// Points per run in the 10, 11, 12 columns of the classic and dice sheets.
const RUN_POINTS: [u16; 3] = [1, 2, 4];

impl Sheet {
    /// An empty sheet.
    pub fn new() -> Sheet {
        Sheet::default()
    }

    /// The row of the next free box of a column (0 the mark column, 1..=3 the sums).
    fn next_free(&self, column: usize) -> usize {
        let filled = |r: &Row| if column == 0 { r.mark.is_some() } else { r.boxes[column - 1].is_some() };
        self.rows.iter().position(|r| !filled(r)).unwrap_or(self.rows.len())
    }

    fn row_mut(&mut self, index: usize) -> &mut Row {
        if index == self.rows.len() {
            self.rows.push(Row::default());
        }
        &mut self.rows[index]
    }

    /// Enters a move on the sheet. Kids' sheets take a row for every move that writes a value,
    /// so `placed` says how many values the move wrote.
    pub fn record(&mut self, rules: &Rules, score: &MoveScore, placed: usize) {
        match rules.variant {
            Variant::Kids => {
                if placed == 0 {
                    return;
                }
                let dots = rules.scoring == KidsScoring::Dots;
                let mut row =
                    Row { mark: (score.extra > 0 && !dots).then_some(Mark::Cross), boxes: [None; 3] };
                for (j, &n) in score.runs.iter().enumerate() {
                    if n > 0 {
                        row.boxes[j] = Some(if dots { u16::from(n) } else { u16::from(n) * (j as u16 + 1) });
                    }
                }
                self.rows.push(row);
            }
            Variant::Classic | Variant::Dice => {
                for (j, &n) in score.runs.iter().enumerate() {
                    if n > 0 {
                        let i = self.next_free(j + 1);
                        self.row_mut(i).boxes[j] = Some(u16::from(n) * RUN_POINTS[j]);
                    }
                }
                let marks = match rules.variant {
                    Variant::Classic => vec![Mark::Cross; usize::from(score.crosses)],
                    _ => match score.extra {
                        0 => vec![],
                        1 => vec![Mark::Double],
                        _ => vec![Mark::Quadruple],
                    },
                };
                for mark in marks {
                    let i = self.next_free(0);
                    self.row_mut(i).mark = Some(mark);
                }
            }
        }
    }

    /// The total of a row, by the rules of the variant.
    fn row_total(&self, rules: &Rules, index: usize) -> u32 {
        let row = &self.rows[index];
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

    /// How many rows the sheet has.
    pub fn rows(&self) -> usize {
        self.rows.len()
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
                        text.parse::<u16>()
                            .ok()
                            .filter(|&n| n > 0 && n <= 999 && !text.starts_with('+'))
                            .ok_or_else(|| format!("box '{text}' is not a positive number or -"))?,
                    ),
                };
            }
            if rules.variant != Variant::Kids {
                for (j, b) in boxes.iter().enumerate() {
                    let ok = match b {
                        Some(n) => n % RUN_POINTS[j] == 0,
                        None => true,
                    };
                    if !ok {
                        return Err(format!("box {} is not a multiple of {}", b.unwrap_or(0), RUN_POINTS[j]));
                    }
                }
            }
            sheet.rows.push(Row { mark, boxes });
        }
        if rules.variant != Variant::Kids && sheet.rows.last().is_some_and(|r| *r == Row::default()) {
            return Err("the last row is empty".into());
        }
        if rules.variant != Variant::Kids {
            for column in 0..4 {
                let filled =
                    |r: &Row| if column == 0 { r.mark.is_some() } else { r.boxes[column - 1].is_some() };
                let n = sheet.rows.iter().take_while(|r| filled(r)).count();
                if sheet.rows[n..].iter().any(filled) {
                    return Err(format!("column {} has a gap: columns fill from the top", column + 1));
                }
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
