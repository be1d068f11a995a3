//! The ceiling report: for each player under test, the referee's figures (games, first place with
//! its interval, mean final score, mean margin over the best other seat, longest move), what
//! `greedy` got in the same seats on the same draws, the edge over it (`zatre-match compare`'s
//! game-by-game change from `greedy`'s games to the player's), and with both players the share of
//! the clairvoyant's edge that `search` gets.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::referee::{Comparison, Record, Report, Tally};

use super::CeilingRecord;

/// A ratio with its 95% interval, `mean ± half` (`half` is NaN with fewer than two groups).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub half: f64,
}

impl Estimate {
    /// `mean% [lo%, hi%]`.
    fn percent(&self) -> String {
        let (m, h) = (100.0 * self.mean, 100.0 * self.half);
        if !m.is_finite() {
            // The clairvoyant's edge is 0: no share of it can be told.
            return "n/a".to_string();
        }
        if h.is_finite() {
            format!("{m:.0}% [{:.0}%, {:.0}%]", m - h, m + h)
        } else {
            format!("{m:.0}% [n/a]")
        }
    }
}

/// What one player under test did.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSummary {
    /// `clairvoyant` or `search`.
    pub player: String,
    /// The referee's tally of the player (engine 1 of its games).
    pub tally: Tally,
    /// The 95% interval of its first-place rate, as `zatre-match` computes it.
    pub interval: (f64, f64),
    /// From `greedy` in its seats to the player, game by game on the same draws: `before` is
    /// `greedy`'s, `delta()` the edge. `None` when no game has a `greedy` game.
    pub edge: Option<Comparison>,
    /// Games by how they ended.
    pub ends: BTreeMap<String, u64>,
}

/// The share of the clairvoyant's edge that `search` gets.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Share {
    /// Of the edge in first place.
    pub first: Estimate,
    /// Of the edge in margin.
    pub margin: Estimate,
}

/// Everything the ceiling report says.
#[derive(Clone, Debug, PartialEq)]
pub struct CeilingReport {
    pub players: Vec<PlayerSummary>,
    /// With both players: the share of the clairvoyant's edge `search` gets.
    pub share: Option<Share>,
}

impl CeilingReport {
    /// The report of a set of records (of one run: the same rules, seed and games).
    pub fn from_records(records: &[CeilingRecord]) -> CeilingReport {
        let mut by_player: BTreeMap<&str, Vec<&CeilingRecord>> = BTreeMap::new();
        for r in records {
            by_player.entry(r.player.as_str()).or_default().push(r);
        }
        let players = by_player.iter().map(|(player, records)| summary(player, records)).collect();
        let share = match (by_player.get("search"), by_player.get("clairvoyant")) {
            (Some(search), Some(clairvoyant)) => share(search, clairvoyant),
            _ => None,
        };
        CeilingReport { players, share }
    }

    /// The report as text: a table of the players, how the games ended, and the share.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<12} {:>5} {:>22} {:>6} {:>7} {:>14} {:>16} {:>14} {:>8}",
            "player",
            "games",
            "first (95%)",
            "score",
            "margin",
            "greedy there",
            "edge: first",
            "edge: margin",
            "longest"
        );
        for p in &self.players {
            let t = &p.tally;
            let (greedy, edge_first, edge_margin) = match &p.edge {
                Some(e) => (
                    format!("{:.1}% {:+.1}", 100.0 * e.points.before, e.margin.before),
                    e.points.text(100.0, ""),
                    e.margin.text(1.0, ""),
                ),
                None => ("n/a".to_string(), "n/a".to_string(), "n/a".to_string()),
            };
            let _ = writeln!(
                out,
                "{:<12} {:>5} {:>22} {:>6.1} {:>+7.1} {:>14} {:>16} {:>14} {:>5} ms",
                p.player,
                t.games,
                format!(
                    "{:.1}% [{:.1}, {:.1}]",
                    100.0 * t.win_rate(),
                    100.0 * p.interval.0,
                    100.0 * p.interval.1
                ),
                t.mean_score(),
                t.mean_margin(),
                greedy,
                edge_first,
                edge_margin,
                t.slowest_go_millis
            );
        }
        for p in &self.players {
            let ends: Vec<String> = p.ends.iter().map(|(k, v)| format!("{k} {v}")).collect();
            let _ = writeln!(out, "{} games: {}", p.player, ends.join(", "));
        }
        if let Some(share) = &self.share {
            let _ = writeln!(
                out,
                "share of the clairvoyant's edge that search gets: margin {}, first place {}",
                share.margin.percent(),
                share.first.percent()
            );
        }
        out
    }
}

/// The summary of one player's records.
fn summary(player: &str, records: &[&CeilingRecord]) -> PlayerSummary {
    let (greedy, games): (Vec<Record>, Vec<Record>) =
        records.iter().map(|r| (r.greedy.clone(), r.game.clone())).unzip();
    let report = Report::from_records(&games);
    let tally = report.engines.get(&0).cloned().unwrap_or_default();
    PlayerSummary {
        player: player.to_string(),
        interval: report.interval(&tally),
        tally,
        edge: Comparison::of(&greedy, &games, 0).ok(),
        ends: report.ends,
    }
}

/// By group (pair), the mean edge of the player under test over its games: (first place, margin).
fn edges_by_group(records: &[&CeilingRecord]) -> BTreeMap<u64, (f64, f64, f64)> {
    let mut sums: BTreeMap<u64, (f64, f64, f64)> = BTreeMap::new();
    for r in records {
        let Some(seat) = r.game.seat_of(0) else { continue };
        let (Some(margin), Some(greedy)) = (r.game.margin(seat), r.greedy.margin(seat)) else { continue };
        let s = sums.entry(r.game.pair).or_default();
        s.0 += r.game.points(seat) - r.greedy.points(seat);
        s.1 += (margin - greedy) as f64;
        s.2 += 1.0;
    }
    sums
}

/// The share of the clairvoyant's edge that `search` gets, over the groups both played: the
/// ratio of the mean edges, with the 95% interval of a ratio estimator (from the groups'
/// residuals `search - share * clairvoyant`); `None` when no group is common.
fn share(search: &[&CeilingRecord], clairvoyant: &[&CeilingRecord]) -> Option<Share> {
    let (s, c) = (edges_by_group(search), edges_by_group(clairvoyant));
    let common: Vec<[(f64, f64); 2]> = s
        .iter()
        .filter_map(|(pair, s)| {
            let c = c.get(pair)?;
            Some([(s.0 / s.2, c.0 / c.2), (s.1 / s.2, c.1 / c.2)])
        })
        .collect();
    if common.is_empty() {
        return None;
    }
    let n = common.len() as f64;
    let ratio = |k: usize| {
        let (ms, mc) = common.iter().fold((0.0, 0.0), |(a, b), g| (a + g[k].0 / n, b + g[k].1 / n));
        let r = ms / mc;
        let var = common.iter().map(|g| (g[k].0 - r * g[k].1).powi(2)).sum::<f64>() / (n - 1.0);
        Estimate { mean: r, half: 1.96 * (var / n).sqrt() / mc.abs() }
    };
    Some(Share { first: ratio(0), margin: ratio(1) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(player: &str, pair: u64, seating: [usize; 2], scores: [i64; 2]) -> Record {
        let mut r = crate::referee::test_record(pair * 2 + u64::from(seating[0] == 1), pair, seating, scores);
        r.engines =
            seating.iter().map(|&e| if e == 0 { player.to_string() } else { "greedy".into() }).collect();
        r.slowest_go_millis = vec![5, 5];
        r
    }

    fn record(
        player: &str,
        pair: u64,
        seating: [usize; 2],
        scores: [i64; 2],
        greedy: [i64; 2],
    ) -> CeilingRecord {
        CeilingRecord {
            player: player.to_string(),
            greedy: game("greedy", pair, seating, greedy),
            game: game(player, pair, seating, scores),
        }
    }

    /// The edge is the tested seat's result less greedy's in that seat on the same draws; the
    /// share is the ratio of the two players' mean edges.
    #[test]
    fn the_edge_is_over_greedy_in_the_same_seat_and_the_share_its_ratio() {
        // Greedy everywhere: pair 0 ends 30 to 20, pair 1 10 to 40.
        let records = vec![
            record("clairvoyant", 0, [0, 1], [40, 20], [30, 20]), // margin +20, greedy there +10
            record("clairvoyant", 0, [1, 0], [20, 40], [30, 20]), // +20, greedy there -10
            record("clairvoyant", 1, [0, 1], [30, 40], [10, 40]), // -10, greedy -30
            record("clairvoyant", 1, [1, 0], [30, 50], [10, 40]), // +20, greedy +30
            record("search", 0, [0, 1], [30, 25], [30, 20]),      // +5 vs +10
            record("search", 0, [1, 0], [20, 30], [30, 20]),      // +10 vs -10
            record("search", 1, [0, 1], [20, 40], [10, 40]),      // -20 vs -30
            record("search", 1, [1, 0], [35, 36], [10, 40]),      // +1 vs +30
        ];
        let report = CeilingReport::from_records(&records);
        let c = report.players.iter().find(|p| p.player == "clairvoyant").unwrap();
        let s = report.players.iter().find(|p| p.player == "search").unwrap();
        let (ce, se) = (c.edge.as_ref().unwrap(), s.edge.as_ref().unwrap());
        // Clairvoyant: edges +10, +30, +20, -10; it won 3 of 4 where greedy won 2 of 4.
        assert!((ce.margin.delta() - 12.5).abs() < 1e-9);
        assert_eq!(ce.margin.before, 0.0);
        assert!((c.tally.win_rate() - 0.75).abs() < 1e-9);
        assert!((ce.points.before - 0.5).abs() < 1e-9 && (ce.points.delta() - 0.25).abs() < 1e-9);
        // Search: edges -5, +20, +10, -29; it won 3 of 4 too.
        assert!((se.margin.delta() + 1.0).abs() < 1e-9);
        assert!((se.points.delta() - 0.25).abs() < 1e-9);
        let share = report.share.unwrap();
        assert!((share.margin.mean + 1.0 / 12.5).abs() < 1e-9, "{share:?}");
        assert!((share.first.mean - 1.0).abs() < 1e-9, "{share:?}");
        assert!(share.margin.half > 0.0);
        let text = report.render();
        assert!(text.contains("share of the clairvoyant's edge that search gets: margin -8% ["), "{text}");
        assert!(text.contains("clairvoyant      4"), "{text}");
        assert!(text.contains("+12.5 ± "), "{text}");
    }

    #[test]
    fn one_player_has_no_share_and_a_lone_group_no_interval() {
        let records = vec![record("search", 0, [0, 1], [30, 25], [30, 20])];
        let report = CeilingReport::from_records(&records);
        assert!(report.share.is_none());
        assert_eq!(report.players[0].edge.as_ref().unwrap().margin.delta(), -5.0);
        let both = [records[0].clone(), record("clairvoyant", 0, [0, 1], [40, 25], [30, 20])];
        let share = CeilingReport::from_records(&both).share.unwrap();
        assert_eq!(share.margin.mean, -1.0);
        assert!(share.margin.half.is_nan());
        let text = CeilingReport::from_records(&both).render();
        assert!(text.contains("margin -100% [n/a]"), "{text}");
        // One group: the edges have no interval either.
        assert!(text.contains("-5.0 ± n/a") && !text.contains("± 0.0"), "{text}");
    }

    /// A clairvoyant without an edge (it placed as greedy did there): no share of it, rather than
    /// `NaN%` or `inf%`.
    #[test]
    fn no_edge_of_the_clairvoyant_has_no_share() {
        let records = [
            record("clairvoyant", 0, [0, 1], [30, 20], [30, 20]),
            record("clairvoyant", 0, [1, 0], [20, 30], [20, 30]),
            record("search", 0, [0, 1], [30, 25], [30, 20]),
            record("search", 0, [1, 0], [20, 30], [20, 30]),
        ];
        let text = CeilingReport::from_records(&records).render();
        assert!(
            text.contains("share of the clairvoyant's edge that search gets: margin n/a, first place n/a"),
            "{text}"
        );
        assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    }
}
