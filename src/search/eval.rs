//! The static evaluation: what every sheet will probably be worth at the end of the game, and the
//! margin of the player to move over the best opponent.
//!
//! A sheet's equity is what its entries will probably be worth at the end ([`sheet_equity`]) under
//! an outlook built from the turns its seats still have (from the bag in the classic game, from the
//! empty cells in the dice games, capped by the `rounds` option) and per-turn entry rates, which
//! in the classic game fall as the game goes on; classic kept tiles cost their pips times a fitted
//! weight while more than a round is left (1.8: kept tiles go with a closing board and more kept
//! tiles to come), their pips in the last round. The numbers it rests on are [`Weights`], one set
//! per variant and, in the classic game, per number of players.

use crate::rules::{Position, Rules, Sheet, Variant};

/// The numbers the evaluation rests on, one set per variant that has them (the kids' sheet is
/// worth its total). [`Weights::of`] gives the ones `go` uses; `zatre-fit` (tools/) fits them to
/// the final scores of self-played games.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Weights {
    /// Per own turn at the end of the game: the chance of an entry in the 10, 11, 12 columns and
    /// of a mark.
    pub rates: [f64; 4],
    /// How much higher each rate is at the start of the game than at its end: the rate of a turn
    /// is `rates + slopes * s`, `s` the share of the game still to come
    /// ([`Position::game_left_share`]), falling to `rates` at the end. (In self-played games,
    /// crosses come about twice as often in the first half of the game as in the last, and 10s
    /// about half as often again.)
    pub slopes: [f64; 4],
    /// The mean value of a future entry of each sum column (two runs of one sum in a move are
    /// rare).
    pub mean_entry: [f64; 3],
    /// The mean factor of a mark (classic: a cross doubles; dice: `2x` or `4x`).
    pub mark_factor: f64,
    /// How many times its pips a kept tile costs a sheet while more than a round is left (its
    /// pips alone in the last round). Classic only.
    pub hand: f64,
}

/// Classic, two players (and one): fitted by `zatre-fit --games 400 --holdout 200 --seed 1 --nodes
/// 20000` to the games of the engine with the weights before (b5bfc60: no slopes, rates 0.394,
/// 0.458, 0.593, 0.345, themselves fitted to the games of hand-set weights); the mean entries are
/// the measured ones. The kept tiles' weight above 1 is what the outcomes say: kept tiles go with
/// a closing board and more kept tiles to come. What each fit was worth: tools/STRENGTH.md.
const CLASSIC: Weights = Weights {
    rates: [0.289, 0.407, 0.617, 0.204],
    mean_entry: [1.06, 2.15, 4.9],
    mark_factor: 2.0,
    hand: 1.760,
    slopes: [0.313, 0.119, 0.038, 0.341],
};
/// Classic, three players: fitted by `zatre-fit --players 3 --games 300 --holdout 100 --seed 1
/// --nodes 20000` to the games of the engine with the two-player weights. Sets fitted to games of
/// the engine against two greedy players (`--opponents greedy`) played no better measurably
/// (docs/archive/strength-history.md, "Weights fitted to games against greedy").
const CLASSIC_3: Weights = Weights {
    rates: [0.260, 0.364, 0.683, 0.273],
    mean_entry: [1.06, 2.15, 4.9],
    mark_factor: 2.0,
    hand: 1.784,
    slopes: [0.316, 0.092, 0.030, 0.295],
};
/// Classic, four players or more: fitted by `zatre-fit --players 4 --games 300 --holdout 100
/// --seed 1 --nodes 20000` to the games of the engine with the two-player weights. Sets fitted to
/// games of the engine against three greedy players (to its own sheets, every sheet or the
/// opponents') played worse (docs/archive/strength-history.md, "Weights fitted to games against
/// greedy").
const CLASSIC_4: Weights = Weights {
    rates: [0.284, 0.332, 0.655, 0.309],
    mean_entry: [1.06, 2.15, 4.9],
    mark_factor: 2.0,
    hand: 1.910,
    slopes: [0.329, 0.259, 0.063, 0.111],
};
/// Dice: fitted to the final scores of the engine's own sheets in games against `greedy`, by
/// `zatre-fit --variant dice --opponents greedy --sheets own --games 400 --holdout 200 --seed 4001
/// --nodes 100000 --jobs 1`, from the games of the engine with the weights before (rates 0.415,
/// 0.498, 0.632, 0.291, mark factor 1.995, no slopes; themselves fitted to self-play). Fitted to
/// the engine's own sheets because those are the sheets whose value the search compares; it
/// played stronger against `greedy` than the set before, while sets fitted to every sheet of those
/// games, or to self-play again, played worse or no better (docs/archive/strength-history.md,
/// "Dice: weights fitted to the engine's own sheets").
const DICE: Weights = Weights {
    rates: [0.208, 0.508, 0.684, 0.786],
    mean_entry: [1.06, 2.15, 4.9],
    mark_factor: 1.612,
    hand: 0.0,
    slopes: [0.383, 0.117, 0.217, 0.188],
};

impl Weights {
    /// The weights `go` uses under these rules: the classic game has a set for two players (and
    /// one), three, and four or more (the more players, the more crowded the board between one's
    /// turns); the dice game one set.
    pub fn of(rules: &Rules) -> Weights {
        match (rules.variant, rules.players) {
            (Variant::Dice, _) => DICE,
            (_, 0..=2) => CLASSIC,
            (_, 3) => CLASSIC_3,
            _ => CLASSIC_4,
        }
    }

    /// The numbers as one list, in the order of the fields, for fitting.
    pub fn to_vec(&self) -> Vec<f64> {
        let mut v = self.rates.to_vec();
        v.extend(self.mean_entry);
        v.extend([self.mark_factor, self.hand]);
        v.extend(self.slopes);
        v
    }

    /// The inverse of [`Weights::to_vec`]; `None` when `v` has not 13 numbers.
    pub fn from_slice(v: &[f64]) -> Option<Weights> {
        let v: &[f64; 13] = v.try_into().ok()?;
        Some(Weights {
            rates: [v[0], v[1], v[2], v[3]],
            mean_entry: [v[4], v[5], v[6]],
            mark_factor: v[7],
            hand: v[8],
            slopes: [v[9], v[10], v[11], v[12]],
        })
    }

    /// Whether every number is one a rate, value or factor can be: the rates at the end and at the
    /// start of the game (`rates + slopes`) not negative, nor the values, a mark at least 1.
    pub fn is_sound(&self) -> bool {
        let rates = self.rates.iter().zip(&self.slopes).all(|(&r, &s)| r >= 0.0 && r + s >= 0.0);
        rates && self.mean_entry.iter().all(|&m| m >= 0.0) && self.mark_factor >= 1.0 && self.hand >= 0.0
    }

    /// The mean rates of the turns still to come, when a share `left` of the game is: the rate
    /// falls linearly from `rates + slopes * left` now to `rates` at the end.
    fn mean_rates(&self, left: f64) -> [f64; 4] {
        std::array::from_fn(|j| (self.rates[j] + self.slopes[j] * left / 2.0).max(0.0))
    }
}

/// The turns each sheet's seats still have, out of `game` turns starting with the player to move.
fn sheet_turns(pos: &Position, game: f64) -> Vec<f64> {
    let rules = pos.rules();
    let players = usize::from(rules.players);
    let full = (game / players as f64).floor();
    let rest = game - full * players as f64;
    let mut turns = vec![0.0; rules.sheet_count()];
    for offset in 0..players {
        let seat = (pos.to_move() + offset) % players;
        let extra = (rest - offset as f64).clamp(0.0, 1.0);
        turns[rules.sheet_of_seat(seat)] += full + extra;
    }
    turns
}

/// What the future probably brings to one sheet: expected entries per column and marks.
#[derive(Copy, Clone, Debug)]
struct Outlook {
    /// Expected number of future entries in the 10, 11, 12 columns.
    entries: [f64; 3],
    /// Expected number of future marks.
    marks: f64,
}

/// A sheet's equity without the hand, given the turns its seats still have and the share of the
/// game still to come.
fn turns_equity(rules: &Rules, sheet: &Sheet, turns: f64, left: f64, w: &Weights) -> f64 {
    let t = turns.max(0.0);
    let r = w.mean_rates(left);
    let outlook = Outlook { entries: [r[0] * t, r[1] * t, r[2] * t], marks: r[3] * t };
    sheet_equity(rules, sheet, &outlook, w)
}

/// What a sheet will probably be worth at the end, given what the future brings it: each empty
/// box is filled with the chance that its column gets that many more entries (Poisson), rows
/// complete with the product of their boxes' chances and then earn their bonus, and a mark doubles
/// (quadruples) the row's expected value with its own chance. Kids: the total now.
fn sheet_equity(rules: &Rules, sheet: &Sheet, outlook: &Outlook, w: &Weights) -> f64 {
    if rules.variant == Variant::Kids {
        return f64::from(sheet.total(rules));
    }
    let tails: [Vec<f64>; 3] = std::array::from_fn(|j| poisson_tails(outlook.entries[j]));
    let mark_tails = poisson_tails(outlook.marks);
    let tail = |t: &[f64], k: usize| t.get(k).copied().unwrap_or(0.0);
    // The chance that box r of column j (empty: the column holds at most r entries) is filled:
    // the column needs r + 1 - filled more entries.
    let filled_by_then = |j: usize, r: usize| tail(&tails[j], r + 1 - sheet.entry_count(j).min(r));
    let rows = sheet.rows();
    let mut equity = 0.0;
    let mut r = 0;
    // Rows written, then rows to come while some column may still reach them.
    while r < rows.len() || (0..3).any(|j| filled_by_then(j, r) > 1e-3) {
        let row = rows.get(r);
        let mut expected = 0.0;
        let mut complete = 1.0;
        for (j, mean) in w.mean_entry.iter().enumerate() {
            if let Some(b) = row.and_then(|row| row.boxes()[j]) {
                expected += f64::from(b);
            } else {
                let p = filled_by_then(j, r);
                expected += p * mean;
                complete *= p;
            }
        }
        let factor = match row.and_then(|row| row.mark()) {
            Some(mark) => f64::from(mark.factor()),
            None => 1.0 + (w.mark_factor - 1.0) * tail(&mark_tails, r + 1 - sheet.mark_count()),
        };
        equity += (expected + complete * f64::from(rules.bonus_of_row(r))) * factor;
        r += 1;
    }
    equity
}

/// P(X >= k) for X ~ Poisson(lambda), for k = 0, 1, ... until it is negligible.
fn poisson_tails(lambda: f64) -> Vec<f64> {
    // Room for the tails up to about six standard deviations above the mean, so that the vector
    // is allocated once (growing it took a tenth of the search's time).
    let mut tails = Vec::with_capacity((lambda + 6.0 * lambda.sqrt()) as usize + 8);
    tails.push(1.0);
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

/// The equity of every sheet: what the search expects each to be worth at the end.
pub(crate) fn equities(pos: &Position) -> Vec<f64> {
    equities_with(pos, &Weights::of(pos.rules()))
}

/// `equities` under other weights: what `zatre-fit` compares with the final scores.
pub fn equities_with(pos: &Position, w: &Weights) -> Vec<f64> {
    let rules = pos.rules();
    let game = pos.turns_left_estimate();
    let turns = sheet_turns(pos, game);
    let left = pos.game_left_share();
    let hand_weight = if game <= f64::from(rules.players) { 1.0 } else { w.hand };
    pos.sheets()
        .iter()
        .enumerate()
        .map(|(i, sheet)| {
            let mut e = turns_equity(rules, sheet, turns[i], left, w);
            if rules.variant == Variant::Classic {
                let pips: u32 = (0..usize::from(rules.players))
                    .filter(|&s| rules.sheet_of_seat(s) == i)
                    .map(|s| pos.hand(s).pips())
                    .sum();
                e -= hand_weight * f64::from(pips);
            }
            e
        })
        .collect()
}

/// What one sheet will probably be worth at the end, its hand left out: the equity a simulated
/// turn changes (a turn's value is the change of this, less the pips of the tiles it kept).
pub(crate) fn sheet_equity_now(pos: &Position, sheet: usize) -> f64 {
    let rules = pos.rules();
    let turns = sheet_turns(pos, pos.turns_left_estimate());
    turns_equity(rules, &pos.sheets()[sheet], turns[sheet], pos.game_left_share(), &Weights::of(rules))
}

/// The margin of a sheet over the best other sheet; its own value when it is alone.
pub(crate) fn margin(values: &[f64], me: usize) -> f64 {
    let best_other = values
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != me)
        .map(|(_, &v)| v)
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
    values[me] - best_other.unwrap_or(0.0)
}

/// The exact final margin of a finished game (or the margin of the standings now).
pub(crate) fn final_margin(pos: &Position, me: usize) -> f64 {
    let totals: Vec<f64> = pos.standings().iter().map(|s| s.total as f64).collect();
    margin(&totals, me)
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

    /// The equity of the second player's sheet in a mid-game position with this sheet.
    fn second_sheet_equity(sheet: &str) -> f64 {
        let line = format!(
            "variant=classic players=2 turn=7 tomove=1 phase=place board=2@h8,6@k8,2@h9,5@i9,4@k9,\
             4@h10,1@i10,5@j10,2@k10,3@h11,2@i11,6@j11,4@i12 bag=19,16,19,16,18,18 hands=14/- \
             sheets=x,-,2,4/-,-,-,4;{sheet}"
        );
        equities(&Position::from_line(&line).expect("a valid position"))[1]
    }

    /// One more entry never makes a sheet worth less, and a sheet whose rows are all complete
    /// still has the rows to come (they were once left out: a complete sheet lost 235 points).
    #[test]
    fn an_entry_more_is_never_worth_less() {
        let sheets = ["x,-,-,-", "x,1,-,-", "x,1,4,-", "x,1,4,4", "x,1,4,4/-,1,-,-", "x,1,4,4/-,1,2,-"];
        let values: Vec<f64> = sheets.iter().map(|s| second_sheet_equity(s)).collect();
        for (pair, names) in values.windows(2).zip(sheets.windows(2)) {
            assert!(
                pair[1] >= pair[0],
                "{} is worth {} but {} only {}",
                names[0],
                pair[0],
                names[1],
                pair[1]
            );
        }
        // Many turns are left: the rows to come are worth more than the row written.
        assert!(values[3] > 2.0 * 24.0, "x,1,4,4 is worth {}", values[3]);
    }
}
