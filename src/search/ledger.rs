//! A compact copy of a score sheet for the search: what a move would add to it, recording moves
//! during simulations, and the equity of a sheet (what its entries will be worth at the end).
//!
//! The rules core keeps its sheet boxes private; the ledger is read from the sheet's `Display`
//! form once per search and then kept up to date with the [`MoveScore`]s of simulated moves. A
//! test checks that its totals agree with [`Sheet::total`] over whole games.

use crate::rules::{KidsScoring, MoveScore, Rules, Sheet, Variant};

/// Points per run in the 10, 11, 12 columns (classic and dice).
const RUN_POINTS: [u16; 3] = [1, 2, 4];

/// One sheet: the factors of the mark column and the entries of the three sum columns, each from
/// the top (classic and dice); the kids' sheet only needs its running totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ledger {
    /// The factor of each mark box from the top: 2 for `x` and `2x`, 4 for `4x`.
    marks: Vec<u8>,
    /// The entries of the 10, 11, 12 columns from the top.
    cols: [Vec<u16>; 3],
    /// Kids: the sheet total (points, or the dots of the 10 column).
    kids_total: u32,
}

/// What the future probably brings to one sheet: expected entries per column and crosses.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Outlook {
    /// Expected number of future entries in the 10, 11, 12 columns.
    pub entries: [f64; 3],
    /// Expected number of future marks.
    pub marks: f64,
}

/// The mean value of a future entry of each sum column (two runs of one sum in a move are rare).
const MEAN_ENTRY: [f64; 3] = [1.06, 2.15, 4.9];

impl Ledger {
    /// Reads a sheet through its `Display` form (`x,1,2,4/-,1,-,-` or `none`).
    pub(crate) fn from_sheet(rules: &Rules, sheet: &Sheet) -> Ledger {
        let mut ledger = Ledger::default();
        if rules.variant == Variant::Kids {
            ledger.kids_total = sheet.total(rules);
            return ledger;
        }
        let text = sheet.to_string();
        if text == "none" {
            return ledger;
        }
        for row in text.split('/') {
            let mut fields = row.split(',');
            match fields.next() {
                Some("x") | Some("2x") => ledger.marks.push(2),
                Some("4x") => ledger.marks.push(4),
                _ => {}
            }
            for col in &mut ledger.cols {
                if let Some(n) = fields.next().and_then(|f| f.parse::<u16>().ok()) {
                    col.push(n);
                }
            }
        }
        ledger
    }

    fn rows(&self) -> usize {
        self.cols.iter().map(Vec::len).max().unwrap_or(0).max(self.marks.len())
    }

    fn row_total(&self, rules: &Rules, r: usize) -> u32 {
        let mut sum = 0u32;
        let mut full = true;
        for col in &self.cols {
            match col.get(r) {
                Some(&b) => sum += u32::from(b),
                None => full = false,
            }
        }
        let factor = self.marks.get(r).map_or(1, |&f| u32::from(f));
        (sum + if full { rules.bonus_of_row(r) } else { 0 }) * factor
    }

    /// The sum of the row totals, as [`Sheet::total`].
    #[cfg(test)]
    pub(crate) fn total(&self, rules: &Rules) -> u32 {
        if rules.variant == Variant::Kids {
            return self.kids_total;
        }
        (0..self.rows()).map(|r| self.row_total(rules, r)).sum()
    }

    /// The kids' row a move writes (0 when it writes none).
    fn kids_row(rules: &Rules, score: &MoveScore) -> u32 {
        let [a, b, c] = score.runs.map(u32::from);
        match rules.scoring {
            KidsScoring::Dots => c,
            KidsScoring::Points => (a + 2 * b + 3 * c) * if score.extra > 0 { 2 } else { 1 },
        }
    }

    /// The marks a move writes: how many and their factor.
    fn new_marks(rules: &Rules, score: &MoveScore) -> (usize, u8) {
        match rules.variant {
            Variant::Classic => (usize::from(score.crosses), 2),
            _ => match score.extra {
                0 => (0, 1),
                1 => (1, 2),
                _ => (1, 4),
            },
        }
    }

    /// How much a move would add to the sheet total, without recording it.
    pub(crate) fn gain(&self, rules: &Rules, score: &MoveScore) -> u32 {
        if rules.variant == Variant::Kids {
            return Ledger::kids_row(rules, score);
        }
        let (count, factor) = Ledger::new_marks(rules, score);
        // The rows the move touches: one per column it writes in, and its marks' rows.
        let mut touched = [usize::MAX; 8];
        let mut n = 0;
        let mut touch = |r: usize| {
            if n < touched.len() && !touched[..n].contains(&r) {
                touched[n] = r;
                n += 1;
            }
        };
        for (j, &runs) in score.runs.iter().enumerate() {
            if runs > 0 {
                touch(self.cols[j].len());
            }
        }
        for k in 0..count {
            touch(self.marks.len() + k);
        }
        let mut gain = 0u32;
        for &r in &touched[..n] {
            let before = if r < self.rows() { self.row_total(rules, r) } else { 0 };
            let mut sum = 0u32;
            let mut full = true;
            for (j, col) in self.cols.iter().enumerate() {
                let b = match col.get(r) {
                    Some(&b) => Some(b),
                    None if r == col.len() && score.runs[j] > 0 => {
                        Some(u16::from(score.runs[j]) * RUN_POINTS[j])
                    }
                    None => None,
                };
                match b {
                    Some(b) => sum += u32::from(b),
                    None => full = false,
                }
            }
            let f = match self.marks.get(r) {
                Some(&f) => f,
                None if r >= self.marks.len() && r < self.marks.len() + count => factor,
                None => 1,
            };
            let after = (sum + if full { rules.bonus_of_row(r) } else { 0 }) * u32::from(f);
            gain += after - before;
        }
        gain
    }

    /// Enters a move, as [`Sheet::record`].
    pub(crate) fn record(&mut self, rules: &Rules, score: &MoveScore, placed: usize) {
        if rules.variant == Variant::Kids {
            if placed > 0 {
                self.kids_total += Ledger::kids_row(rules, score);
            }
            return;
        }
        for (j, &runs) in score.runs.iter().enumerate() {
            if runs > 0 {
                self.cols[j].push(u16::from(runs) * RUN_POINTS[j]);
            }
        }
        let (count, factor) = Ledger::new_marks(rules, score);
        for _ in 0..count {
            self.marks.push(factor);
        }
    }

    /// What the sheet will probably be worth at the end, given what the future brings it: each
    /// empty box is filled with the chance that its column gets that many more entries
    /// (Poisson), rows complete with the product of their boxes' chances and then earn their
    /// bonus, and a mark doubles (quadruples) the row's expected value with its own chance.
    pub(crate) fn equity(&self, rules: &Rules, outlook: &Outlook, mark_factor: f64) -> f64 {
        if rules.variant == Variant::Kids {
            return f64::from(self.kids_total);
        }
        let tails: [Vec<f64>; 3] = std::array::from_fn(|j| poisson_tails(outlook.entries[j]));
        let mark_tails = poisson_tails(outlook.marks);
        let tail = |t: &[f64], k: usize| t.get(k).copied().unwrap_or(0.0);
        let mut equity = 0.0;
        let mut r = 0;
        loop {
            let mut expected = 0.0;
            let mut complete = 1.0;
            let mut open = false;
            for j in 0..3 {
                let col = &self.cols[j];
                if let Some(&b) = col.get(r) {
                    expected += f64::from(b);
                } else {
                    // Box r needs r - len + 1 more entries in this column.
                    let p = tail(&tails[j], r + 1 - col.len());
                    open |= p > 1e-3;
                    expected += p * MEAN_ENTRY[j];
                    complete *= p;
                }
            }
            let factor = match self.marks.get(r) {
                Some(&f) => f64::from(f),
                None => 1.0 + (mark_factor - 1.0) * tail(&mark_tails, r + 1 - self.marks.len()),
            };
            equity += (expected + complete * f64::from(rules.bonus_of_row(r))) * factor;
            r += 1;
            if r >= self.rows() && !open {
                break;
            }
        }
        equity
    }
}

/// P(X >= k) for X ~ Poisson(lambda), for k = 0, 1, ... until it is negligible.
fn poisson_tails(lambda: f64) -> Vec<f64> {
    let mut tails = vec![1.0];
    let mut term = (-lambda).exp();
    let mut cdf = 0.0;
    let mut k = 0.0;
    loop {
        cdf += term;
        let t = (1.0 - cdf).max(0.0);
        if t < 1e-4 || tails.len() > 200 {
            break;
        }
        tails.push(t);
        k += 1.0;
        term *= lambda / k;
    }
    tails
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poisson_tails_start_at_one_and_fall() {
        let t = poisson_tails(2.0);
        assert_eq!(t[0], 1.0);
        assert!((t[1] - (1.0 - (-2.0f64).exp())).abs() < 1e-12);
        assert!(t.windows(2).all(|w| w[0] >= w[1]));
    }
}
