//! The diagnostic: does the board carry signal? On held-out games it measures how well each
//! sheet's points still to come are predicted by today's evaluation ([`eval_to_come`]), by it plus
//! a linear model over the sheet features, and by it plus a linear model over the sheet and board
//! features ([`super::features`]), both fitted by ridge least squares on training data; beside
//! them the noise floor, the spread of the outcomes of one position replayed with other draws,
//! which no evaluation can go under.
//!
//! The errors are over every sample of the held-out games and every sheet; their 95% intervals
//! treat a game as one draw (its positions are not independent of one another). The noise floor
//! takes positions evenly spread over the held-out samples (so that it stands for the same mix of
//! early and late positions) and plays each on to the end `continuations` times with draws from
//! seeds of its own, every move as the held-out games were played (their file's settings): the
//! floor is the root of the mean variance of the outcomes of one position (each with `n - 1`).

use zatre::rules::{Position, Rules};
use zatre::search::learned::features::{BOARD_START, FEATURES, SHEETS_START};
use zatre::search::learned::Model;

use super::data::{replay, DataFile, Settings};
use super::features::{board_features, eval_to_come, sheet_features, sheet_order};
use super::play::{limits_of, movers_of, play_from};
use crate::jobs::map_indexed;

/// One sheet's view of one sampled position: what the models see and what came.
#[derive(Clone, Debug)]
pub struct Example {
    /// The game it comes from (its index in its file, and the file's number).
    pub game: (usize, usize),
    /// Sheet features and sheet plus board features.
    pub sheets: Vec<f64>,
    pub board: Vec<f64>,
    /// Today's evaluation of each sheet's points to come and the points that came, sheets from
    /// the player to move.
    pub eval: Vec<f64>,
    pub target: Vec<f64>,
}

/// The examples of every sample of a file's games (replayed through the rules core), and each
/// sample's position.
///
/// # Errors
/// A game that does not replay.
pub fn examples(data: &DataFile, file: usize, jobs: usize) -> Result<Vec<(Example, Position)>, String> {
    let rules = &data.settings.rules;
    let per_game = map_indexed(
        data.games.len(),
        jobs,
        |g| -> Result<Vec<(Example, Position)>, String> {
            let record = &data.games[g];
            let replayed = replay(record, rules).map_err(|e| format!("game {g}: {e}"))?;
            record
                .samples
                .iter()
                .map(|t| {
                    let pos = replayed
                        .positions
                        .get(t.ply.wrapping_sub(1))
                        .ok_or_else(|| format!("game {g}: no move {}", t.ply))?;
                    let order = sheet_order(pos);
                    let eval = eval_to_come(pos);
                    let example = Example {
                        game: (file, g),
                        sheets: sheet_features(pos),
                        board: board_features(pos),
                        eval: order.iter().map(|&s| eval[s]).collect(),
                        target: order.iter().map(|&s| t.to_come[s] as f64).collect(),
                    };
                    Ok((example, pos.clone()))
                })
                .collect()
        },
        || {},
    );
    Ok(per_game.into_iter().collect::<Result<Vec<_>, _>>()?.into_iter().flatten().collect())
}

/// Which inputs a model reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// Today's evaluation alone.
    Eval,
    /// Plus a linear model over the sheet features.
    Sheets,
    /// Plus a linear model over the sheet and board features.
    Board,
    /// Plus a linear model over the game's, the bag's and the board's features, none of a sheet's
    /// own: a correction that a move changes only through the board it leaves.
    Position,
}

impl Inputs {
    fn of(self, e: &Example) -> Vec<f64> {
        match self {
            Inputs::Eval => Vec::new(),
            Inputs::Sheets => e.sheets.clone(),
            Inputs::Board => e.sheets.iter().chain(&e.board).copied().collect(),
            Inputs::Position => e.sheets[..BOARD_START].iter().chain(&e.board).copied().collect(),
        }
    }
}

/// A linear model of the evaluation's error, one set of weights a sheet (from the player to move),
/// on standardised inputs.
#[derive(Clone, Debug)]
pub struct Linear {
    pub inputs: Inputs,
    mean: Vec<f64>,
    scale: Vec<f64>,
    /// Per sheet: the intercept and the weights.
    weights: Vec<(f64, Vec<f64>)>,
}

impl Linear {
    /// Fits by ridge least squares (`ridge` on the standardised inputs, the intercept free) each
    /// sheet's points to come less today's evaluation of them.
    pub fn fit(train: &[Example], inputs: Inputs, ridge: f64) -> Linear {
        let xs: Vec<Vec<f64>> = train.iter().map(|e| inputs.of(e)).collect();
        let p = xs.first().map_or(0, Vec::len);
        let n = xs.len().max(1) as f64;
        let mean: Vec<f64> = (0..p).map(|j| xs.iter().map(|x| x[j]).sum::<f64>() / n).collect();
        let scale: Vec<f64> = (0..p)
            .map(|j| {
                let var = xs.iter().map(|x| (x[j] - mean[j]).powi(2)).sum::<f64>() / n;
                if var > 1e-12 {
                    var.sqrt()
                } else {
                    0.0
                }
            })
            .collect();
        let z = |x: &[f64]| -> Vec<f64> {
            x.iter()
                .zip(&mean)
                .zip(&scale)
                .map(|((v, m), s)| if *s > 0.0 { (v - m) / s } else { 0.0 })
                .collect()
        };
        let zs: Vec<Vec<f64>> = xs.iter().map(|x| z(x)).collect();
        let sheets = train.first().map_or(0, |e| e.target.len());
        let mut gram = vec![vec![0.0; p]; p];
        for x in &zs {
            for a in 0..p {
                for b in 0..=a {
                    gram[a][b] += x[a] * x[b];
                }
            }
        }
        // The lower triangle mirrored into the upper, the penalty on the diagonal.
        for a in 0..p {
            let row: Vec<f64> = gram[a][..a].to_vec();
            for (b, v) in row.into_iter().enumerate() {
                gram[b][a] = v;
            }
            gram[a][a] += ridge;
        }
        let weights = (0..sheets)
            .map(|k| {
                let r: Vec<f64> = train.iter().map(|e| e.target[k] - e.eval[k]).collect();
                let intercept = r.iter().sum::<f64>() / n;
                let mut rhs = vec![0.0; p];
                for (x, ri) in zs.iter().zip(&r) {
                    for (acc, xj) in rhs.iter_mut().zip(x) {
                        *acc += xj * (ri - intercept);
                    }
                }
                (intercept, solve(&gram, &rhs))
            })
            .collect();
        Linear { inputs, mean, scale, weights }
    }

    /// The predicted points to come of every sheet, from the player to move.
    pub fn predict(&self, e: &Example) -> Vec<f64> {
        let x = self.inputs.of(e);
        self.weights
            .iter()
            .zip(&e.eval)
            .map(|((b, w), eval)| {
                let dot: f64 = x
                    .iter()
                    .zip(&self.mean)
                    .zip(&self.scale)
                    .zip(w)
                    .map(|(((v, m), s), wj)| if *s > 0.0 { (v - m) / s * wj } else { 0.0 })
                    .sum();
                eval + b + dot
            })
            .collect()
    }
}

impl Linear {
    /// The engine's model of this fit ([`Model`]): the standardisation folded into the weights,
    /// the weights put in the order of the engine's inputs
    /// (`zatre::search::learned::Features::values`); a fit on the position's features alone
    /// ([`Inputs::Position`]) has no weight on the sheets'.
    ///
    /// # Errors
    /// A fit on other inputs, or one the engine's model cannot hold (more than four sheets).
    pub fn to_model(&self, rules: &Rules) -> Result<Model, String> {
        // Inputs::Board reads the sheet inputs (the game's, then the sheets') then the board's;
        // Inputs::Position the game's and the board's: the engine's order without the sheets.
        let index: Vec<usize> = match self.inputs {
            Inputs::Board => {
                (0..BOARD_START).chain(SHEETS_START..FEATURES).chain(BOARD_START..SHEETS_START).collect()
            }
            Inputs::Position => (0..SHEETS_START).collect(),
            Inputs::Eval | Inputs::Sheets => {
                return Err("only a fit on the board's features makes an engine model".into());
            }
        };
        if self.mean.len() != index.len() {
            return Err(format!(
                "the fit has {} inputs, the engine's model {}",
                self.mean.len(),
                index.len()
            ));
        }
        let sheets = self
            .weights
            .iter()
            .map(|(intercept, w)| {
                let mut raw = vec![0.0; FEATURES];
                let mut bias = *intercept;
                for (j, &wj) in w.iter().enumerate() {
                    if self.scale[j] > 0.0 {
                        raw[index[j]] = wj / self.scale[j];
                        bias -= wj * self.mean[j] / self.scale[j];
                    }
                }
                (bias, raw)
            })
            .collect();
        Model::new(rules, sheets)
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky); a pivot that vanishes (a
/// feature constant in the training data, standardised to 0) gives its unknown 0.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let p = b.len();
    let mut l = vec![vec![0.0; p]; p];
    for i in 0..p {
        for j in 0..=i {
            let s: f64 = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            l[i][j] = if i == j {
                s.max(0.0).sqrt()
            } else if l[j][j] > 1e-12 {
                s / l[j][j]
            } else {
                0.0
            };
        }
    }
    let mut y = vec![0.0; p];
    for i in 0..p {
        let s = b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>();
        y[i] = if l[i][i] > 1e-12 { s / l[i][i] } else { 0.0 };
    }
    let mut x = vec![0.0; p];
    for i in (0..p).rev() {
        let s = y[i] - (i + 1..p).map(|k| l[k][i] * x[k]).sum::<f64>();
        x[i] = if l[i][i] > 1e-12 { s / l[i][i] } else { 0.0 };
    }
    x
}

/// An error measure with its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The root mean squared and the mean absolute error of predictions, with 95% intervals from the
/// spread between groups (games, or the noise floor's positions).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Errors {
    pub rmse: Interval,
    pub mae: Interval,
    pub count: usize,
}

/// [`Errors`] of `(group, error)` pairs; the groups in order (a group's errors side by side).
pub fn errors(errs: &[(usize, f64)]) -> Errors {
    let mut groups: Vec<(f64, f64, f64)> = Vec::new(); // (count, sum of squares, sum of absolutes)
    let mut last = None;
    for &(g, e) in errs {
        if last != Some(g) {
            groups.push((0.0, 0.0, 0.0));
            last = Some(g);
        }
        let s = groups.last_mut().expect("a group was pushed");
        *s = (s.0 + 1.0, s.1 + e * e, s.2 + e.abs());
    }
    let interval = |pick: &dyn Fn(&(f64, f64, f64)) -> f64, root: bool| {
        let n: f64 = groups.iter().map(|g| g.0).sum();
        let m = groups.iter().map(pick).sum::<f64>() / n.max(1.0);
        let k = groups.len() as f64;
        let var = groups.iter().map(|g| (pick(g) - m * g.0).powi(2)).sum::<f64>() / (n * n).max(1.0)
            * (k / (k - 1.0).max(1.0));
        let half = 1.96 * var.sqrt();
        let f = |x: f64| if root { x.max(0.0).sqrt() } else { x };
        Interval { value: f(m), low: f((m - half).max(0.0)), high: f(m + half) }
    };
    Errors { rmse: interval(&|g| g.1, true), mae: interval(&|g| g.2, false), count: errs.len() }
}

/// The errors of a predictor over every sheet of every example, grouped by game.
pub fn errors_of(test: &[Example], predict: &dyn Fn(&Example) -> Vec<f64>) -> Errors {
    let errs: Vec<(usize, f64)> = test
        .iter()
        .flat_map(|e| {
            let group = e.game.0 * 1_000_000_000 + e.game.1;
            predict(e).into_iter().zip(&e.target).map(move |(p, y)| (group, y - p)).collect::<Vec<_>>()
        })
        .collect();
    errors(&errs)
}

/// The noise floor of `positions` (each with its game's seed), each played on `continuations`
/// times as `settings` play, continuation `j` of position `i` drawing from `seed + i * 1000 + j`:
/// the errors of the mean outcome of each position (sheets from the player to move), corrected
/// for the mean being of the same outcomes (`n / (n - 1)` on the squares, its root on the
/// absolute errors).
///
/// # Errors
/// A continuation that cannot be played.
pub fn noise_floor(
    positions: &[Position],
    settings: &Settings,
    continuations: usize,
    seed: u64,
    jobs: usize,
) -> Result<Errors, String> {
    let c = continuations.max(2);
    let limits = limits_of(settings);
    let movers = movers_of(settings, &limits);
    let outcomes = map_indexed(
        positions.len() * c,
        jobs,
        |t| -> Result<Vec<f64>, String> {
            let (i, j) = (t / c, t % c);
            let start = &positions[i];
            let now = super::data::totals(start);
            let played = play_from(start.clone(), seed.wrapping_add((i * 1000 + j) as u64), &movers)?;
            let end = played.positions.last().unwrap_or(start);
            let finals = super::data::totals(end);
            Ok(sheet_order(start).iter().map(|&s| (finals[s] - now[s]) as f64).collect())
        },
        || {},
    )
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;
    let square = (c as f64 / (c as f64 - 1.0)).sqrt();
    let mut errs = Vec::new();
    for (i, block) in outcomes.chunks(c).enumerate() {
        for k in 0..block[0].len() {
            let mean = block.iter().map(|o| o[k]).sum::<f64>() / c as f64;
            errs.extend(block.iter().map(|o| (i, (o[k] - mean) * square)));
        }
    }
    Ok(errors(&errs))
}

/// A short name of a table: the variant, the players and, in the classic game, the leftovers rule
/// (`de`, `cz3`, `cz4`).
pub fn table_name(rules: &Rules) -> String {
    let mut name = format!("{} {}p", rules.variant.name(), rules.players);
    if rules.variant == zatre::rules::Variant::Classic {
        name.push_str(&format!(" {}", rules.leftovers.name()));
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Targets that are a known linear function of a feature, less the evaluation, are found.
    #[test]
    fn ridge_recovers_a_linear_law() {
        let examples: Vec<Example> = (0..200)
            .map(|i| {
                let x = [(i % 17) as f64, (i % 5) as f64 * 2.0, 3.0];
                Example {
                    game: (0, i / 4),
                    sheets: x.to_vec(),
                    board: vec![(i % 7) as f64],
                    eval: vec![10.0, 20.0],
                    target: vec![10.0 + 4.0 + 1.5 * x[0], 20.0 - 2.0 * x[1]],
                }
            })
            .collect();
        let model = Linear::fit(&examples, Inputs::Sheets, 1e-9);
        for e in &examples {
            for (p, y) in model.predict(e).iter().zip(&e.target) {
                assert!((p - y).abs() < 1e-6, "{p} for {y}");
            }
        }
        let eval = errors_of(&examples, &|e| e.eval.clone());
        assert!(eval.rmse.value > 5.0);
        assert!(errors_of(&examples, &|e| model.predict(e)).rmse.value < 1e-6);
    }

    /// The engine's model of a fit predicts what the fit predicts, sheet by sheet from the player
    /// to move, on the positions of a greedy game (targets drawn from the inputs, so that every
    /// input has a weight).
    #[test]
    fn the_engine_model_of_a_fit_predicts_as_the_fit() {
        let rules = Rules::new(zatre::rules::Variant::Classic, 3).expect("three players");
        let mut pos = Position::new(rules.clone());
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
        let mut positions = Vec::new();
        while !pos.is_over() && positions.len() < 40 {
            pos.draw_random(&mut rng).expect("a draw");
            let mv = zatre::search::greedy_choice(&pos).expect("a move");
            pos.play(&mv).expect("greedy plays legal moves");
            positions.push(pos.clone());
        }
        let examples: Vec<Example> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let order = sheet_order(p);
                let eval = eval_to_come(p);
                let sheets = sheet_features(p);
                let board = board_features(p);
                let target = (0..order.len())
                    .map(|k| sheets[k * 5 % sheets.len()] - board[(k + i) % board.len()])
                    .collect();
                Example {
                    game: (0, i),
                    sheets,
                    board,
                    eval: order.iter().map(|&s| eval[s]).collect(),
                    target,
                }
            })
            .collect();
        let fit = Linear::fit(&examples, Inputs::Board, 0.5);
        let model = fit.to_model(&rules).expect("a model of three sheets");
        for (e, p) in examples.iter().zip(&positions) {
            let values = model.values_of(p).expect("the model is for this table");
            let totals = super::super::data::totals(p);
            for (k, (&sheet, predicted)) in sheet_order(p).iter().zip(fit.predict(e)).enumerate() {
                let engine = values[sheet] - totals[sheet] as f64;
                assert!((engine - predicted).abs() < 1e-6, "sheet {k}: {engine} against {predicted}");
            }
        }
        assert!(Linear::fit(&examples, Inputs::Sheets, 0.5).to_model(&rules).is_err());
        let fit = Linear::fit(&examples, Inputs::Position, 0.5);
        let model = fit.to_model(&rules).expect("a model of three sheets");
        for (e, p) in examples.iter().zip(&positions) {
            let values = model.values_of(p).expect("the model is for this table");
            let totals = super::super::data::totals(p);
            for (&sheet, predicted) in sheet_order(p).iter().zip(fit.predict(e)) {
                assert!((values[sheet] - totals[sheet] as f64 - predicted).abs() < 1e-6);
            }
        }
    }

    /// Errors of 3 and -3 have an RMSE and MAE of 3; groups that agree give a narrow interval.
    #[test]
    fn errors_are_measured_with_intervals() {
        let errs: Vec<(usize, f64)> =
            (0..100).map(|i| (i / 2, if i % 2 == 0 { 3.0 } else { -3.0 })).collect();
        let e = errors(&errs);
        assert!((e.rmse.value - 3.0).abs() < 1e-12 && (e.mae.value - 3.0).abs() < 1e-12);
        assert!(e.rmse.high - e.rmse.low < 1e-9, "{e:?}");
        let spread: Vec<(usize, f64)> = (0..100).map(|i| (i, (i % 10) as f64)).collect();
        let s = errors(&spread);
        assert!(s.mae.low < 4.5 && 4.5 < s.mae.high, "{s:?}");
    }
}
