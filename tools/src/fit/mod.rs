//! Fitting the evaluation's weights ([`Weights`]) to the outcomes of played games: [`generate`]
//! plays seeded games in-process, self-play or one strategy against others ([`Plan::opponents`]),
//! and keeps every position after a move together with the final score of every sheet; [`fit`]
//! finds the weights under which the evaluation's prediction of the chosen sheets' final scores
//! ([`equities_with`], [`Sheets`]) has the least mean [`huber`] loss over those positions
//! (Nelder-Mead on the weights the variant uses).
//!
//! The loss is Huber's, not the squared error: now and then the frontier of the board closes
//! (every cell next to a tile would make a run over 12) with most of the bag left, and both
//! players then draw until the bag is empty and end with 30 kept tiles and totals near 50. No
//! weight of the evaluation foresees that, and squared errors of 250 points would make a handful
//! of such games outweigh all the others.

use zatre::rules::{Position, Rules, Variant};
use zatre::search::{equities_with, Limits, Strategy, Weights};

use crate::jobs::map_indexed;
use crate::learn::data::totals;
use crate::learn::play::{play_game, Movers};

/// A position after a move and what each sheet was worth when its game ended.
#[derive(Clone, Debug)]
pub struct Sample {
    pub position: Position,
    pub finals: Vec<f64>,
    /// The sheet of the seat that played [`Plan::strategy`] when the others played
    /// [`Plan::opponents`]; `None` in self-play, where every sheet is the strategy's.
    pub own: Option<usize>,
}

/// Whose final scores a fit predicts: every sheet, the sheet of the strategy under study, or its
/// opponents' sheets (the same in self-play as every sheet, and none).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sheets {
    All,
    Own,
    Opponents,
}

impl Sheets {
    /// Parses `all`, `own` or `opponents`.
    pub fn parse(name: &str) -> Option<Sheets> {
        match name {
            "all" => Some(Sheets::All),
            "own" => Some(Sheets::Own),
            "opponents" => Some(Sheets::Opponents),
            _ => None,
        }
    }

    /// The name `parse` reads.
    pub fn name(self) -> &'static str {
        match self {
            Sheets::All => "all",
            Sheets::Own => "own",
            Sheets::Opponents => "opponents",
        }
    }

    /// Whether sheet `sheet` of a sample whose strategy wrote on `own` counts.
    fn counts(self, own: Option<usize>, sheet: usize) -> bool {
        match (self, own) {
            (Sheets::All, _) | (Sheets::Own, None) => true,
            (Sheets::Own, Some(o)) => sheet == o,
            (Sheets::Opponents, None) => false,
            (Sheets::Opponents, Some(o)) => sheet != o,
        }
    }
}

/// How the games of [`generate`] are played.
#[derive(Clone, Debug)]
pub struct Plan {
    pub rules: Rules,
    pub games: usize,
    /// Game `i` draws from the seed `seed + i`.
    pub seed: u64,
    /// The strategy under study: of every seat, or of one when `opponents` is set.
    pub strategy: Strategy,
    /// The strategy of the other seats, `None` for self-play. The seat of `strategy` rotates as
    /// in `zatre-match`: game `i` seats it at `i % players`.
    pub opponents: Option<Strategy>,
    pub limits: Limits,
    /// Games played at once.
    pub jobs: usize,
}

/// Plays game `game` of the plan (drawing from `seed`) and returns its positions after each move,
/// with the final scores; none when the game cannot be played to its end (a draw refused, no
/// move, an illegal move: a bug the fit must not learn from).
fn play(plan: &Plan, game: usize, seed: u64) -> Vec<Sample> {
    let studied = game % usize::from(plan.rules.players.max(1));
    let strategy_of_seat = move |seat: usize| match plan.opponents {
        Some(other) if seat != studied => other,
        _ => plan.strategy,
    };
    let movers =
        Movers { strategy_of_seat: Box::new(strategy_of_seat), limits: &plan.limits, explore: 0.0, top: 1 };
    let Ok(mut played) = play_game(&plan.rules, seed, &movers) else { return Vec::new() };
    let Some(end) = played.positions.pop() else { return Vec::new() };
    let finals: Vec<f64> = totals(&end).into_iter().map(|t| t as f64).collect();
    let own = plan.opponents.map(|_| plan.rules.sheet_of_seat(studied));
    played.positions.into_iter().map(|position| Sample { position, finals: finals.clone(), own }).collect()
}

/// Plays the plan's games, `jobs` at a time, calling `on_game` after each; the samples come in
/// game order, so the same plan gives the same samples.
pub fn generate(plan: &Plan, on_game: &(dyn Fn() + Sync)) -> Vec<Sample> {
    map_indexed(plan.games, plan.jobs, |i| play(plan, i, plan.seed.wrapping_add(i as u64)), on_game)
        .into_iter()
        .flatten()
        .collect()
}

/// Errors up to this many points count squared, larger ones linearly ([`huber`]).
pub const HUBER_POINTS: f64 = 40.0;

/// Huber's loss of an error: `e^2 / 2` up to [`HUBER_POINTS`], linear beyond, with the same slope.
pub fn huber(e: f64) -> f64 {
    let a = e.abs();
    if a <= HUBER_POINTS {
        0.5 * a * a
    } else {
        HUBER_POINTS * (a - 0.5 * HUBER_POINTS)
    }
}

/// The mean [`huber`] loss of the evaluation's prediction of the final scores, over the `sheets`
/// of every sample, under `w`; infinite when a weight is negative (no rate or value can be), 0
/// when no sheet counts.
pub fn loss(samples: &[Sample], w: &Weights, sheets: Sheets, jobs: usize) -> f64 {
    if !w.is_sound() {
        return f64::INFINITY;
    }
    let chunk = samples.len().div_ceil(jobs.max(1)).max(1);
    let (sum, count) = std::thread::scope(|s| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter().fold((0.0, 0usize), |(sum, n), sample| {
                        let predicted = equities_with(&sample.position, w);
                        predicted
                            .iter()
                            .zip(&sample.finals)
                            .enumerate()
                            .filter(|&(i, _)| sheets.counts(sample.own, i))
                            .fold((sum, n), |(sum, n), (_, (p, f))| (sum + huber(p - f), n + 1))
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or((f64::NAN, 0)))
            .fold((0.0, 0), |(a, n), (b, m)| (a + b, n + m))
    });
    if count == 0 {
        0.0
    } else {
        sum / count as f64
    }
}

/// The weights fitted in a variant, as indices into [`Weights::to_vec`]: the per-turn rates, the
/// mark factor in the dice game (a classic cross always doubles), the kept tiles' weight in the classic
/// game (dice and kids keep no tiles). The mean entries are not fitted: they are what entries are
/// worth, read off any sheet, and with them free the fit trades them against the rates (a rate
/// halved and an entry worth double predict nearly the same).
pub fn free_weights(variant: Variant) -> Vec<usize> {
    match variant {
        Variant::Classic => vec![0, 1, 2, 3, 8, 9, 10, 11, 12],
        Variant::Dice => vec![0, 1, 2, 3, 7, 9, 10, 11, 12],
        Variant::Kids => Vec::new(),
    }
}

/// What [`fit`] found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub weights: Weights,
    /// The loss under the starting weights and under the fitted ones.
    pub start_loss: f64,
    pub loss: f64,
    /// Loss evaluations spent.
    pub evaluations: usize,
}

/// Nelder-Mead from `start` over the weights `free` (indices into [`Weights::to_vec`]), the
/// others held, on the loss over the `sheets` ([`loss`]), until the simplex's losses agree to
/// `1e-9` relatively or `max_evaluations` are spent. The first simplex steps each free weight by a
/// fifth of its value.
pub fn fit(
    samples: &[Sample],
    start: &Weights,
    free: &[usize],
    sheets: Sheets,
    max_evaluations: usize,
    jobs: usize,
) -> Fit {
    let base = start.to_vec();
    let weights_of = |x: &[f64]| {
        let mut v = base.clone();
        for (&i, &xi) in free.iter().zip(x) {
            v[i] = xi;
        }
        Weights::from_slice(&v).expect("as many numbers as the weights have")
    };
    let mut evaluations = 0;
    let mut f = |x: &[f64]| {
        evaluations += 1;
        loss(samples, &weights_of(x), sheets, jobs)
    };
    let x0: Vec<f64> = free.iter().map(|&i| base[i]).collect();
    let start_loss = f(&x0);
    let best = nelder_mead(&mut f, &x0, start_loss, max_evaluations);
    Fit { weights: weights_of(&best.0), start_loss, loss: best.1, evaluations }
}

/// Minimises `f` from `x0` (whose value is `f0`) by Nelder-Mead with the standard coefficients;
/// returns the best point and its value.
fn nelder_mead(
    f: &mut dyn FnMut(&[f64]) -> f64,
    x0: &[f64],
    f0: f64,
    max_evaluations: usize,
) -> (Vec<f64>, f64) {
    let n = x0.len();
    if n == 0 {
        return (x0.to_vec(), f0);
    }
    let mut simplex: Vec<(Vec<f64>, f64)> = vec![(x0.to_vec(), f0)];
    for i in 0..n {
        let mut x = x0.to_vec();
        x[i] += if x[i] == 0.0 { 0.05 } else { 0.2 * x[i] };
        let fx = f(&x);
        simplex.push((x, fx));
    }
    let mut spent = n + 1;
    while spent < max_evaluations {
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        let (best, worst) = (simplex[0].1, simplex[n].1);
        if (worst - best).abs() <= 1e-9 * best.abs().max(1e-12) {
            break;
        }
        let centroid: Vec<f64> =
            (0..n).map(|j| simplex[..n].iter().map(|(x, _)| x[j]).sum::<f64>() / n as f64).collect();
        let towards = |t: f64| -> Vec<f64> {
            centroid.iter().zip(&simplex[n].0).map(|(c, w)| c + t * (w - c)).collect()
        };
        let reflected = towards(-1.0);
        let fr = f(&reflected);
        spent += 1;
        if fr < simplex[0].1 {
            let expanded = towards(-2.0);
            let fe = f(&expanded);
            spent += 1;
            simplex[n] = if fe < fr { (expanded, fe) } else { (reflected, fr) };
        } else if fr < simplex[n - 1].1 {
            simplex[n] = (reflected, fr);
        } else {
            let contracted = if fr < simplex[n].1 { towards(-0.5) } else { towards(0.5) };
            let fc = f(&contracted);
            spent += 1;
            if fc < fr.min(simplex[n].1) {
                simplex[n] = (contracted, fc);
            } else {
                let x_best = simplex[0].0.clone();
                for (x, fx) in simplex.iter_mut().skip(1) {
                    for (xi, bi) in x.iter_mut().zip(&x_best) {
                        *xi = bi + 0.5 * (*xi - bi);
                    }
                    *fx = f(x);
                    spent += 1;
                }
            }
        }
    }
    simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
    simplex.swap_remove(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples of real greedy games whose final scores are what the evaluation predicts under
    /// `truth`: the fit, started from today's weights, finds `truth` again.
    #[test]
    fn the_fit_recovers_the_weights_that_made_the_scores() {
        let rules =
            Rules::with_options(Variant::Classic, 2, Vec::<(&str, &str)>::new()).expect("the default rules");
        let classic = Weights::of(&rules);
        let plan = Plan {
            rules,
            games: 6,
            seed: 3,
            strategy: Strategy::Greedy,
            opponents: None,
            limits: Limits::default(),
            jobs: 2,
        };
        let truth =
            Weights { rates: [0.5, 0.3, 0.65, 0.3], hand: 0.8, slopes: [0.2, 0.0, 0.1, 0.4], ..classic };
        let samples: Vec<Sample> = generate(&plan, &|| {})
            .into_iter()
            .map(|s| Sample { finals: equities_with(&s.position, &truth), ..s })
            .collect();
        assert!(samples.len() > 300, "{} samples", samples.len());
        let start = classic;
        let found = fit(&samples, &start, &free_weights(Variant::Classic), Sheets::All, 3000, 2);
        assert!(found.start_loss > 1.0, "today's weights already fit: {}", found.start_loss);
        assert!(found.loss < 1e-4 * found.start_loss, "{found:?}");
        for (got, want) in found.weights.to_vec().iter().zip(truth.to_vec()) {
            assert!((got - want).abs() < 0.01, "{:?} is not {truth:?}", found.weights);
        }
    }

    /// Three-player games of `greedy` against two `random` players, seeded.
    fn greedy_against_random(games: usize) -> Vec<Sample> {
        let rules =
            Rules::with_options(Variant::Classic, 3, Vec::<(&str, &str)>::new()).expect("the default rules");
        let plan = Plan {
            rules,
            games,
            seed: 5,
            strategy: Strategy::Greedy,
            opponents: Some(Strategy::Random),
            limits: Limits::default(),
            jobs: 2,
        };
        generate(&plan, &|| {})
    }

    /// With opponents, the strategy's seat rotates game by game as in `zatre-match`, and the seat
    /// it names is the one that played it: `greedy` ends every game far ahead of two random
    /// players.
    #[test]
    fn the_studied_strategy_takes_each_seat_in_turn() {
        let samples = greedy_against_random(6);
        let mut seats = Vec::new();
        for s in &samples {
            let own = s.own.expect("games against opponents name the studied sheet");
            if seats.last() != Some(&own) {
                seats.push(own);
            }
            let best_other = s.finals.iter().enumerate().filter(|&(i, _)| i != own).map(|(_, &f)| f);
            let best_other = best_other.fold(f64::MIN, f64::max);
            assert!(s.finals[own] > best_other + 20.0, "seat {own} ends with {:?}", s.finals);
        }
        assert_eq!(seats, [0, 1, 2, 0, 1, 2]);
    }

    /// A fit to the studied sheets sees only theirs: the studied sheets' scores are what the
    /// evaluation predicts under `truth`, the opponents' are nonsense; fitted to the own sheets the
    /// weights are `truth` again, fitted to every sheet they are not.
    #[test]
    fn a_fit_to_the_own_sheets_ignores_the_opponents() {
        let start = Weights::of(
            &Rules::with_options(Variant::Classic, 3, Vec::<(&str, &str)>::new()).expect("the default rules"),
        );
        let truth =
            Weights { rates: [0.5, 0.3, 0.65, 0.3], hand: 0.8, slopes: [0.2, 0.0, 0.1, 0.4], ..start };
        let samples: Vec<Sample> = greedy_against_random(6)
            .into_iter()
            .map(|s| {
                let own = s.own.expect("games against opponents name the studied sheet");
                let mut finals = vec![400.0; s.finals.len()];
                finals[own] = equities_with(&s.position, &truth)[own];
                Sample { finals, ..s }
            })
            .collect();
        let free = free_weights(Variant::Classic);
        let own = fit(&samples, &start, &free, Sheets::Own, 3000, 2);
        assert!(own.loss < 1e-4 * own.start_loss, "{own:?}");
        // One sheet a game over six games tells the weights less sharply than every sheet (the
        // 12s' rate and slope trade off), and greedy's sheet keeps tiles too rarely to tell the
        // kept tiles' weight at all: the rest is near `truth`.
        let hand = 8; // the kept tiles' weight in `Weights::to_vec`
        for (i, (got, want)) in own.weights.to_vec().iter().zip(truth.to_vec()).enumerate() {
            if i != hand {
                assert!((got - want).abs() < 0.1, "{:?} is not {truth:?}", own.weights);
            }
        }
        let all = fit(&samples, &start, &free, Sheets::All, 3000, 2);
        assert!(loss(&samples, &all.weights, Sheets::Own, 2) > 1e4 * own.loss + 1.0, "{all:?}");
        assert!(loss(&samples, &truth, Sheets::Opponents, 2) > 1000.0);
    }

    /// Nelder-Mead finds the minimum of a skewed quadratic bowl in four dimensions.
    #[test]
    fn nelder_mead_finds_the_bottom_of_a_bowl() {
        let target = [0.4, 1.5, 3.0, 0.25];
        let mut f = |x: &[f64]| -> f64 {
            x.iter().zip(&target).enumerate().map(|(i, (a, b))| (i as f64 + 1.0) * (a - b).powi(2)).sum()
        };
        let x0 = [1.0, 1.0, 1.0, 1.0];
        let f0 = f(&x0);
        let (x, fx) = nelder_mead(&mut f, &x0, f0, 5000);
        assert!(fx < 1e-8, "{fx} at {x:?}");
        for (a, b) in x.iter().zip(&target) {
            assert!((a - b).abs() < 1e-3, "{x:?}");
        }
    }
}
