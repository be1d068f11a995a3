//! `zatre-match compare`: two versions of an engine measured game by game on the same draws.
//!
//! Two matches played with the same `--seed`, seatings and rules deal the same draws to the same
//! games (as far as the moves allow), so the difference of an engine's result between them, game
//! by game, has much less noise than the difference of the two win rates: the luck of the draws
//! cancels. The games of a group (a pair for two engines) share their draws and are not
//! independent, so the interval comes from the groups' mean differences.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::record::Record;

/// A difference between the two matches, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    /// Mean of the first match.
    pub before: f64,
    /// Mean of the second match.
    pub after: f64,
    /// Half the width of the 95% interval of `after - before` (NaN with fewer than two groups:
    /// one group has no variance to measure).
    pub half_width: f64,
}

impl Change {
    /// The mean difference, the second match minus the first.
    pub fn delta(&self) -> f64 {
        self.after - self.before
    }

    /// `+delta unit ± half unit`, scaled; `± n/a` when there is no interval.
    pub fn text(&self, scale: f64, unit: &str) -> String {
        let delta = scale * self.delta();
        if self.half_width.is_finite() {
            format!("{delta:+.1}{unit} ± {:.1}{unit}", scale * self.half_width)
        } else {
            format!("{delta:+.1}{unit} ± n/a")
        }
    }
}

/// The result of one engine in two matches on the same games.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The engine compared: its index in the order of `--engine` (from 0).
    pub engine: usize,
    /// Games found in both matches.
    pub games: usize,
    /// Groups of games with the same draws among them.
    pub groups: usize,
    /// Points per game (wins 1, draws 1/2: finishing first with several players).
    pub points: Change,
    /// Final score minus the best other seat's (the final score alone).
    pub margin: Change,
    /// Final score.
    pub score: Change,
}

impl Comparison {
    /// Compares engine `engine` (from 0) between the records of two matches. Games are matched by
    /// their index, and must have the same seed and seating in both; games of only one match are
    /// left out.
    ///
    /// # Errors
    /// A game with the same index but another seed, seating, player count, variant or rule options
    /// (the matches were not played alike), or no game in common.
    pub fn of(first: &[Record], second: &[Record], engine: usize) -> Result<Comparison, String> {
        let by_game: BTreeMap<u64, &Record> = first.iter().map(|r| (r.game, r)).collect();
        // Per group: the sums of the differences of points, margin and score, and the games.
        let mut groups: BTreeMap<u64, ([f64; 3], [f64; 3], u32)> = BTreeMap::new();
        let mut games = 0;
        for b in second {
            let Some(a) = by_game.get(&b.game) else { continue };
            if a.seed != b.seed || a.seating != b.seating || a.scores.len() != b.scores.len() {
                return Err(format!(
                    "game {} was not played alike in both matches (seed, seating or players differ)",
                    b.game
                ));
            }
            if a.game_args() != b.game_args() {
                return Err(format!(
                    "game {} was not played alike in both matches: '{}' against '{}'",
                    b.game,
                    a.game_args(),
                    b.game_args()
                ));
            }
            let Some(seat) = b.seat_of(engine) else { continue };
            let (before, after, count) = groups.entry(b.pair).or_default();
            for (sums, r) in [(before, *a), (after, b)] {
                let margin = r.margin(seat).unwrap_or_else(|| r.score(seat));
                sums[0] += r.points(seat);
                sums[1] += margin as f64;
                sums[2] += r.score(seat) as f64;
            }
            *count += 1;
            games += 1;
        }
        if games == 0 {
            return Err(format!("the two matches have no game of engine {} in common", engine + 1));
        }
        let change = |k: usize| {
            let means: Vec<(f64, f64)> =
                groups.values().map(|(a, b, n)| (a[k] / f64::from(*n), b[k] / f64::from(*n))).collect();
            let n = means.len() as f64;
            let before = means.iter().map(|m| m.0).sum::<f64>() / n;
            let after = means.iter().map(|m| m.1).sum::<f64>() / n;
            let delta = after - before;
            let var = if means.len() < 2 {
                f64::NAN
            } else {
                means.iter().map(|m| (m.1 - m.0 - delta).powi(2)).sum::<f64>() / (n - 1.0)
            };
            Change { before, after, half_width: 1.96 * (var / n).sqrt() }
        };
        Ok(Comparison {
            engine,
            games,
            groups: groups.len(),
            points: change(0),
            margin: change(1),
            score: change(2),
        })
    }

    /// The comparison as text, one line per measure.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "engine {}: {} game{} in common ({} group{} with the same draws); second match minus first, 95% interval",
            self.engine + 1,
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.groups,
            if self.groups == 1 { "" } else { "s" }
        );
        let rows = [
            ("win rate", self.points, 100.0, "%"),
            ("margin", self.margin, 1.0, ""),
            ("score", self.score, 1.0, ""),
        ];
        for (name, c, scale, unit) in rows {
            let _ = writeln!(
                out,
                "{name:<9} {:>7.1}{unit} -> {:>7.1}{unit}   change {}",
                scale * c.before,
                scale * c.after,
                c.text(scale, unit)
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::test_record;

    fn record(game: u64, pair: u64, seating: [usize; 2], scores: [i64; 2]) -> Record {
        let mut r = test_record(game, pair, seating, scores);
        r.seed = 10 + pair;
        r
    }

    /// Two pairs; engine 0 sits first in games 0 and 2, second in games 1 and 3.
    fn matches(second_gain: i64) -> (Vec<Record>, Vec<Record>) {
        let first = vec![
            record(0, 0, [0, 1], [30, 20]),
            record(1, 0, [1, 0], [25, 20]),
            record(2, 1, [0, 1], [10, 40]),
            record(3, 1, [1, 0], [40, 30]),
        ];
        let second = first
            .iter()
            .map(|r| {
                let mut r = r.clone();
                let seat = r.seat_of(0).unwrap();
                r.scores[seat] += second_gain;
                record(r.game, r.pair, [r.seating[0], r.seating[1]], [r.scores[0], r.scores[1]])
            })
            .collect();
        (first, second)
    }

    #[test]
    fn the_same_games_compare_equal() {
        let (first, _) = matches(0);
        let c = Comparison::of(&first, &first, 0).unwrap();
        assert_eq!((c.games, c.groups), (4, 2));
        assert_eq!((c.margin.delta(), c.margin.half_width, c.points.delta()), (0.0, 0.0, 0.0));
        assert_eq!(c.margin.before, (10.0 - 5.0 - 30.0 - 10.0) / 4.0);
    }

    #[test]
    fn a_gain_in_every_game_is_measured_exactly_per_engine() {
        let (first, second) = matches(7);
        let c = Comparison::of(&first, &second, 0).unwrap();
        assert!((c.margin.delta() - 7.0).abs() < 1e-9 && c.margin.half_width < 1e-9, "{c:?}");
        assert!((c.score.delta() - 7.0).abs() < 1e-9);
        // Game 1 (25-20 against it) turns into a win (27 > 25): one game of four, in pair 0.
        assert!((c.points.delta() - 0.25).abs() < 1e-9, "{c:?}");
        assert!(c.points.half_width > 0.0);
        // The other engine lost what engine 0 gained wherever engine 0 was its best opponent.
        let other = Comparison::of(&first, &second, 1).unwrap();
        assert!((other.margin.delta() + 7.0).abs() < 1e-9 && other.score.delta() == 0.0, "{other:?}");
        assert!(c.render().contains("change +7.0 ± 0.0"), "{}", c.render());
    }

    /// One group has no variance: its change has no interval, rather than one of width 0.
    #[test]
    fn one_group_has_no_interval() {
        let (first, second) = matches(7);
        let c = Comparison::of(&first[..2], &second[..2], 0).unwrap();
        assert_eq!((c.games, c.groups), (2, 1));
        assert!(c.margin.half_width.is_nan(), "{c:?}");
        let text = c.render();
        assert!(text.contains("2 games in common (1 group with the same draws)"), "{text}");
        assert!(text.contains("change +7.0 ± n/a"), "{text}");
        assert!(!text.contains("± 0.0"), "{text}");
    }

    #[test]
    fn matches_played_differently_are_refused() {
        let (first, mut second) = matches(0);
        second[2].seed += 1;
        let err = Comparison::of(&first, &second, 0).unwrap_err();
        assert!(err.contains("game 2"), "{err}");
        assert!(Comparison::of(&first, &[], 0).unwrap_err().contains("no game"));
    }
}
