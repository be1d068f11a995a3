//! The match report: per engine games, wins, draws, losses, win rate with its 95% interval, mean
//! final score and mean margin; the Elo difference and the SPRT state for two engines. Computed
//! from records only, so that a match and `merge` of its shards print the same report.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::game::SeatResult;
use super::record::Record;
use super::sprt::{Sprt, SprtState};

/// The tally of one engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub command: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games lost by a fault of this engine.
    pub faults: u64,
    /// Points per game: 1, 1/2, 0.
    points: Vec<f64>,
    score_sum: f64,
    margin_sum: f64,
    /// The longest answer to `go` in any of its games, in milliseconds (0 when no record says).
    pub slowest_go_millis: u64,
}

impl Tally {
    /// Points per game, draws counting half.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points.iter().sum::<f64>() / self.games as f64
        }
    }

    /// The 95% interval of the win rate: the normal approximation on the points per game, or the
    /// Wilson interval when the games show no variance (all wins, say) or are too few.
    pub fn interval(&self) -> (f64, f64) {
        let n = self.points.len() as f64;
        let mean = self.win_rate();
        let var = if n < 2.0 {
            0.0
        } else {
            self.points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0)
        };
        if var <= 0.0 {
            return wilson(mean, n);
        }
        let half = 1.96 * (var / n).sqrt();
        ((mean - half).max(0.0), (mean + half).min(1.0))
    }

    pub fn mean_score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.score_sum / self.games as f64
        }
    }

    /// Mean of (own final score minus the best other seat's).
    pub fn mean_margin(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.margin_sum / self.games as f64
        }
    }
}

/// Everything the report says.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// By engine index.
    pub engines: BTreeMap<usize, Tally>,
    pub games: u64,
    /// Games by how they ended.
    pub ends: BTreeMap<String, u64>,
    /// The first engine's score of every complete pair (two engines only).
    pub pair_scores: Vec<f64>,
}

impl Report {
    /// The report of a set of records.
    pub fn from_records(records: &[Record]) -> Report {
        let mut engines: BTreeMap<usize, Tally> = BTreeMap::new();
        let mut ends: BTreeMap<String, u64> = BTreeMap::new();
        let mut pairs: BTreeMap<u64, Vec<&Record>> = BTreeMap::new();
        for r in records {
            *ends.entry(r.end.clone()).or_default() += 1;
            pairs.entry(r.pair).or_default().push(r);
            for (seat, &engine) in r.seating.iter().enumerate() {
                let t = engines.entry(engine).or_default();
                t.command = r.engines.get(seat).cloned().unwrap_or_default();
                t.games += 1;
                let outcome =
                    r.results.get(seat).and_then(|o| SeatResult::parse(o)).unwrap_or(SeatResult::Loss);
                match outcome {
                    SeatResult::Win => t.wins += 1,
                    SeatResult::Draw => t.draws += 1,
                    SeatResult::Loss => t.losses += 1,
                }
                if r.fault_seat == Some(seat + 1) {
                    t.faults += 1;
                }
                t.points.push(outcome.points());
                t.score_sum += r.score(seat) as f64;
                t.margin_sum += r.margin(seat).unwrap_or(0) as f64;
                let slowest = r.slowest_go_millis.get(seat).copied().unwrap_or(0);
                t.slowest_go_millis = t.slowest_go_millis.max(slowest);
            }
        }
        let mut pair_scores = Vec::new();
        if engines.len() == 2 {
            let first = engines.keys().next().copied().unwrap_or(0);
            for games in pairs.values() {
                // A pair is complete when each engine had each seat once.
                if games.len() != 2 || games[0].seating == games[1].seating {
                    continue;
                }
                let points: f64 = games.iter().filter_map(|r| Some(r.points(r.seat_of(first)?))).sum();
                pair_scores.push(points / 2.0);
            }
        }
        Report { engines, games: records.len() as u64, ends, pair_scores }
    }

    /// The 95% interval of an engine's win rate: for two engines from the variance of the pair
    /// scores (the two games of a pair share their draws, so they are not independent), centred on
    /// the win rate; otherwise from the games.
    pub fn interval(&self, tally: &Tally) -> (f64, f64) {
        let n = self.pair_scores.len() as f64;
        if self.engines.len() != 2 || n < 2.0 {
            return tally.interval();
        }
        let mean = self.pair_scores.iter().sum::<f64>() / n;
        let var = self.pair_scores.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0);
        if var <= 0.0 {
            return tally.interval();
        }
        let half = 1.96 * (var / n).sqrt();
        let rate = tally.win_rate();
        ((rate - half).max(0.0), (rate + half).min(1.0))
    }

    /// The SPRT state on the complete pairs.
    pub fn sprt(&self, test: &Sprt) -> SprtState {
        test.state(&self.pair_scores)
    }

    /// The report as text: the table, how games ended, and for two engines the Elo difference and
    /// the SPRT state.
    pub fn render(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        let width = self.engines.values().map(|t| t.command.len()).max().unwrap_or(6).clamp(6, 48);
        let _ = writeln!(
            out,
            "{:<3} {:<width$} {:>6} {:>6} {:>6} {:>6} {:>6} {:>21} {:>9} {:>9}",
            "#", "engine", "games", "wins", "draws", "losses", "faults", "win rate (95%)", "score", "margin"
        );
        for (index, t) in &self.engines {
            let (lo, hi) = self.interval(t);
            let mut name = t.command.clone();
            let chars = name.chars().count();
            if chars > width {
                name = format!("...{}", name.chars().skip(chars - (width - 3)).collect::<String>());
            }
            let _ = writeln!(
                out,
                "{:<3} {:<width$} {:>6} {:>6} {:>6} {:>6} {:>6} {:>21} {:>9.1} {:>+9.1}",
                index + 1,
                name,
                t.games,
                t.wins,
                t.draws,
                t.losses,
                t.faults,
                format!("{:.1}% [{:.1}, {:.1}]", 100.0 * t.win_rate(), 100.0 * lo, 100.0 * hi),
                t.mean_score(),
                t.mean_margin()
            );
        }
        let ends: Vec<String> = self.ends.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(out, "games {}: {}", self.games, ends.join(", "));
        let slowest: Vec<String> = self
            .engines
            .iter()
            .map(|(i, t)| format!("engine {} {} ms", i + 1, t.slowest_go_millis))
            .collect();
        let _ = writeln!(out, "longest go: {}", slowest.join(", "));
        if self.engines.len() == 2 {
            if let Some(t) = self.engines.values().next() {
                let (lo, hi) = self.interval(t);
                let _ = writeln!(
                    out,
                    "elo (engine 1 minus engine 2): {} [{}, {}] over {} complete pairs",
                    elo_text(t.win_rate()),
                    elo_text(lo),
                    elo_text(hi),
                    self.pair_scores.len()
                );
            }
            if let Some(test) = sprt {
                let _ = writeln!(out, "sprt elo0={} elo1={}: {}", test.elo0, test.elo1, self.sprt(test));
            }
        }
        out
    }
}

/// The Wilson score interval (95%) of a rate observed over n games; (0, 1) with no games.
fn wilson(rate: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = 1.96f64 * 1.96;
    let centre = (rate + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = 1.96 * (rate * (1.0 - rate) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The logistic Elo difference of a score, `inf` at the ends.
fn elo_text(score: f64) -> String {
    if score <= 0.0 {
        "-inf".to_string()
    } else if score >= 1.0 {
        "+inf".to_string()
    } else {
        // Adding 0.0 turns -0 into +0.
        format!("{:+.0}", -400.0 * (1.0 / score - 1.0).log10() + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record whose results are given (a draw need not have equal scores here).
    fn record(pair: u64, seating: [usize; 2], results: [&str; 2], scores: [i64; 2]) -> Record {
        let mut r = crate::referee::test_record(0, pair, seating, scores);
        r.results = results.iter().map(|s| s.to_string()).collect();
        r.slowest_go_millis = vec![seating[0] as u64 * 100 + 7, seating[1] as u64 * 100 + 7];
        r
    }

    #[test]
    fn tallies_pairs_and_margins() {
        let records = vec![
            record(0, [0, 1], ["win", "loss"], [30, 20]),
            record(0, [1, 0], ["draw", "draw"], [25, 25]),
            record(1, [0, 1], ["loss", "win"], [10, 40]),
        ];
        let r = Report::from_records(&records);
        let a = &r.engines[&0];
        assert_eq!((a.games, a.wins, a.draws, a.losses), (3, 1, 1, 1));
        assert!((a.win_rate() - 0.5).abs() < 1e-9);
        assert!((a.mean_margin() - (10.0 + 0.0 - 30.0) / 3.0).abs() < 1e-9);
        assert_eq!(r.pair_scores, vec![0.75]);
        let text = r.render(Some(&Sprt::new(0.0, 10.0)));
        assert!(text.contains("sprt elo0=0 elo1=10"), "{text}");
        assert_eq!((a.slowest_go_millis, r.engines[&1].slowest_go_millis), (7, 107));
        assert!(text.contains("longest go: engine 1 7 ms, engine 2 107 ms"), "{text}");
    }

    #[test]
    fn wilson_never_collapses() {
        let (lo, hi) = wilson(1.0, 2.0);
        assert!(lo > 0.1 && lo < 0.5 && (hi - 1.0).abs() < 1e-9, "{lo} {hi}");
        assert_eq!(wilson(0.5, 0.0), (0.0, 1.0));
    }

    #[test]
    fn elo_of_scores() {
        assert_eq!(elo_text(0.5), "+0");
        assert_eq!(elo_text(0.0), "-inf");
        assert_eq!(elo_text(0.75), "+191");
    }
}
