//! The sequential probability ratio test that stops a match early, as chess testers run it: a
//! generalized SPRT on game pairs (pentanomial: a pair of games with swapped seats scores 0, 1/2,
//! 1, 3/2 or 2 for the first engine), with logistic Elo bounds and alpha = beta = 0.05.

use std::fmt;

/// What the test says so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither bound is reached.
    Continue,
    /// The lower bound is reached: the first engine is not `elo1` stronger (H0, `elo0`, holds).
    H0,
    /// The upper bound is reached: the first engine is `elo1` stronger (H1).
    H1,
}

/// The test's hypotheses and error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// The state of the test after some pairs.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub pairs: usize,
    pub verdict: Verdict,
}

impl fmt::Display for SprtState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = match self.verdict {
            Verdict::Continue => "no decision yet",
            Verdict::H0 => "H0 accepted (elo0 holds)",
            Verdict::H1 => "H1 accepted (elo1 holds)",
        };
        write!(
            f,
            "LLR {:.2} ({:.2}, {:.2}) after {} pairs: {verdict}",
            self.llr, self.lower, self.upper, self.pairs
        )
    }
}

/// The expected score of an Elo difference under the logistic model.
fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Pseudo-counts added to each of the five pair outcomes so that the variance of a short run of
/// identical pairs is not zero (which would make the first pairs decide the test).
const PRIOR: f64 = 0.5;

impl Sprt {
    /// The test of `elo0` against `elo1` with alpha = beta = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 }
    }

    /// Parses `elo0,elo1`.
    ///
    /// # Errors
    /// A message when the text is not two finite numbers with elo0 < elo1.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let (a, b) = text.split_once(',').ok_or_else(|| format!("--sprt takes elo0,elo1, not '{text}'"))?;
        let elo0: f64 = a.trim().parse().map_err(|_| format!("--sprt: '{a}' is not a number"))?;
        let elo1: f64 = b.trim().parse().map_err(|_| format!("--sprt: '{b}' is not a number"))?;
        if !elo0.is_finite() || !elo1.is_finite() {
            return Err(format!("--sprt: elo0 and elo1 must be finite, not '{text}'"));
        }
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!("--sprt: elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        Ok(Sprt::new(elo0, elo1))
    }

    /// The state of the test after pairs whose first-engine scores are given, each in 0..=1 (the
    /// pair's points divided by its games).
    pub fn state(&self, pair_scores: &[f64]) -> SprtState {
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let n = pair_scores.len();
        let llr = if n == 0 {
            0.0
        } else {
            // Mean and variance of the pair score, with PRIOR pseudo-pairs at 0, 1/4, ... 1.
            let prior_mass = 5.0 * PRIOR;
            let prior_sum: f64 = (0..5).map(|k| PRIOR * f64::from(k) / 4.0).sum();
            let prior_sq: f64 = (0..5).map(|k| PRIOR * (f64::from(k) / 4.0).powi(2)).sum();
            let total = n as f64 + prior_mass;
            let mean = (pair_scores.iter().sum::<f64>() + prior_sum) / total;
            let sq = (pair_scores.iter().map(|x| x * x).sum::<f64>() + prior_sq) / total;
            let var = (sq - mean * mean).max(1e-9);
            let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
            n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
        };
        let verdict = if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        SprtState { llr, lower, upper, pairs: n, verdict }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_those_of_alpha_beta_five_percent() {
        let s = Sprt::new(0.0, 10.0).state(&[]);
        assert!((s.upper - 2.944).abs() < 1e-3 && (s.lower + 2.944).abs() < 1e-3);
        assert_eq!(s.verdict, Verdict::Continue);
    }

    #[test]
    fn a_one_sided_run_accepts_h1_but_not_at_once() {
        let t = Sprt::new(0.0, 50.0);
        assert_eq!(t.state(&[1.0; 2]).verdict, Verdict::Continue);
        assert_eq!(t.state(&[1.0; 200]).verdict, Verdict::H1);
        assert_eq!(t.state(&[0.0; 200]).verdict, Verdict::H0);
    }

    #[test]
    fn even_pairs_accept_h0_against_a_large_elo1() {
        let even: Vec<f64> = (0..2000).map(|i| [0.0, 1.0, 0.5, 0.5][i % 4]).collect();
        assert_eq!(Sprt::new(0.0, 30.0).state(&even).verdict, Verdict::H0);
    }

    #[test]
    fn parse_checks_order() {
        assert!(Sprt::parse("0,5").is_ok());
        assert!(Sprt::parse("5,0").is_err());
        assert!(Sprt::parse("x").is_err());
    }
}
