//! The ceiling report: for each player under test, the referee's figures (games, first place with
//! its interval, mean final score, mean margin over the best other seat, longest move), what
//! `greedy` got in the same seats on the same draws, the edge over it, and with both players the
//! share of the clairvoyant's edge that `search` gets.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::referee::{Record, Report, SeatResult, Tally};

use super::CeilingRecord;

/// A mean with its 95% interval, `mean ± half` (`half` is NaN with fewer than two groups).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub half: f64,
}

impl Estimate {
    /// The mean of `values` with the normal 95% interval of the mean.
    fn of(values: &[f64]) -> Estimate {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        Estimate { mean, half: 1.96 * (var / n).sqrt() }
    }

    /// `mean [lo, hi]` scaled by `scale`, with `decimals` decimals, the mean signed when `sign`,
    /// each number followed by `unit`.
    fn text(&self, scale: f64, decimals: usize, sign: bool, unit: &str) -> String {
        let (m, h) = (self.mean * scale, self.half * scale);
        let mean = if sign { format!("{m:+.decimals$}") } else { format!("{m:.decimals$}") };
        if h.is_finite() {
            format!("{mean}{unit} [{:.decimals$}{unit}, {:.decimals$}{unit}]", m - h, m + h)
        } else {
            format!("{mean}{unit} [n/a]")
        }
    }
}

/// One game's figures for the player under test and for `greedy` in its seat on the same draws.
#[derive(Copy, Clone, Debug, PartialEq)]
struct SeatFigures {
    /// First place: 1, 1/2 for a shared lead, 0.
    first: f64,
    /// Final score less the best other seat's.
    margin: f64,
    greedy_first: f64,
    greedy_margin: f64,
}

impl SeatFigures {
    /// The figures of the tested seat (engine 0) of a record; `None` when it has none.
    fn of(record: &CeilingRecord) -> Option<SeatFigures> {
        let seat = record.game.seating.iter().position(|&e| e == 0)?;
        let (first, margin) = standing(&record.game.scores, &record.game.results, seat)?;
        let (greedy_first, greedy_margin) = standing(&record.greedy_scores, &record.greedy_results, seat)?;
        Some(SeatFigures { first, margin, greedy_first, greedy_margin })
    }
}

/// A seat's first-place points and its margin over the best other seat.
fn standing(scores: &[i64], results: &[String], seat: usize) -> Option<(f64, f64)> {
    let points = SeatResult::parse(results.get(seat)?)?.points();
    let own = *scores.get(seat)?;
    let best_other = scores.iter().enumerate().filter(|&(s, _)| s != seat).map(|(_, &v)| v).max()?;
    Some((points, (own - best_other) as f64))
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
    /// `greedy`'s first-place rate and mean margin in the same seats on the same draws.
    pub greedy_first: f64,
    pub greedy_margin: f64,
    /// The edge over `greedy` there, in first place and in margin, by group of games.
    pub edge_first: Estimate,
    pub edge_margin: Estimate,
    /// Games by how they ended.
    pub ends: BTreeMap<String, u64>,
    /// By group (pair), the mean edge over its games: (first place, margin).
    by_group: BTreeMap<u64, (f64, f64)>,
}

/// The share of the clairvoyant's edge that `search` gets.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Share {
    pub first: Estimate,
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
    /// The report of a set of records (of one match: the same rules, seed and games).
    pub fn from_records(records: &[CeilingRecord]) -> CeilingReport {
        let mut by_player: BTreeMap<&str, Vec<&CeilingRecord>> = BTreeMap::new();
        for r in records {
            by_player.entry(r.player.as_str()).or_default().push(r);
        }
        let players: Vec<PlayerSummary> =
            by_player.iter().map(|(player, records)| summary(player, records)).collect();
        let find = |name: &str| players.iter().find(|p| p.player == name);
        let share = match (find("search"), find("clairvoyant")) {
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
            "{:<12} {:>5} {:>22} {:>7} {:>7} {:>14} {:>20} {:>22} {:>8}",
            "player",
            "games",
            "first (95%)",
            "score",
            "margin",
            "greedy there",
            "edge: first (% pts)",
            "edge: margin",
            "longest"
        );
        for p in &self.players {
            let t = &p.tally;
            let _ = writeln!(
                out,
                "{:<12} {:>5} {:>22} {:>7.1} {:>+7.1} {:>14} {:>20} {:>22} {:>5} ms",
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
                format!("{:.1}% {:+.1}", 100.0 * p.greedy_first, p.greedy_margin),
                p.edge_first.text(100.0, 1, true, ""),
                p.edge_margin.text(1.0, 1, true, ""),
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
                share.margin.text(100.0, 0, false, "%"),
                share.first.text(100.0, 0, false, "%")
            );
        }
        out
    }
}

/// The summary of one player's records.
fn summary(player: &str, records: &[&CeilingRecord]) -> PlayerSummary {
    let games: Vec<Record> = records.iter().map(|r| r.game.clone()).collect();
    let report = Report::from_records(&games);
    let tally = report.engines.get(&0).cloned().unwrap_or_default();
    let interval = report.interval(&tally);
    let figures: Vec<(u64, SeatFigures)> =
        records.iter().filter_map(|r| Some((r.game.pair, SeatFigures::of(r)?))).collect();
    let n = figures.len().max(1) as f64;
    let greedy_first = figures.iter().map(|(_, f)| f.greedy_first).sum::<f64>() / n;
    let greedy_margin = figures.iter().map(|(_, f)| f.greedy_margin).sum::<f64>() / n;
    let mut sums: BTreeMap<u64, (f64, f64, f64)> = BTreeMap::new();
    for (pair, f) in &figures {
        let s = sums.entry(*pair).or_default();
        s.0 += f.first - f.greedy_first;
        s.1 += f.margin - f.greedy_margin;
        s.2 += 1.0;
    }
    let by_group: BTreeMap<u64, (f64, f64)> =
        sums.into_iter().map(|(p, (a, b, k))| (p, (a / k, b / k))).collect();
    let firsts: Vec<f64> = by_group.values().map(|g| g.0).collect();
    let margins: Vec<f64> = by_group.values().map(|g| g.1).collect();
    PlayerSummary {
        player: player.to_string(),
        tally,
        interval,
        greedy_first,
        greedy_margin,
        edge_first: Estimate::of(&firsts),
        edge_margin: Estimate::of(&margins),
        ends: report.ends.clone(),
        by_group,
    }
}

/// The share of the clairvoyant's edge that `search` gets, over the groups both played: the
/// ratio of the mean edges, with the 95% interval of a ratio estimator (the groups' residuals
/// `search - share * clairvoyant`); `None` when no group is common.
fn share(search: &PlayerSummary, clairvoyant: &PlayerSummary) -> Option<Share> {
    let common: Vec<((f64, f64), (f64, f64))> =
        search.by_group.iter().filter_map(|(pair, s)| Some((*s, *clairvoyant.by_group.get(pair)?))).collect();
    if common.is_empty() {
        return None;
    }
    let ratio = |part: fn(&(f64, f64)) -> f64| {
        let s: Vec<f64> = common.iter().map(|(s, _)| part(s)).collect();
        let c: Vec<f64> = common.iter().map(|(_, c)| part(c)).collect();
        let n = s.len() as f64;
        let (ms, mc) = (s.iter().sum::<f64>() / n, c.iter().sum::<f64>() / n);
        let r = ms / mc;
        let residuals: Vec<f64> = s.iter().zip(&c).map(|(s, c)| s - r * c).collect();
        let spread = Estimate::of(&residuals).half / mc.abs();
        Estimate { mean: r, half: spread }
    };
    Some(Share { first: ratio(|g| g.0), margin: ratio(|g| g.1) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(
        player: &str,
        pair: u64,
        seating: [usize; 2],
        scores: [i64; 2],
        greedy: [i64; 2],
    ) -> CeilingRecord {
        let result = |a: i64, b: i64| match a.cmp(&b) {
            std::cmp::Ordering::Greater => "win",
            std::cmp::Ordering::Equal => "draw",
            std::cmp::Ordering::Less => "loss",
        };
        let results = |s: [i64; 2]| vec![result(s[0], s[1]).to_string(), result(s[1], s[0]).to_string()];
        CeilingRecord {
            player: player.to_string(),
            greedy_scores: greedy.to_vec(),
            greedy_results: results(greedy),
            game: Record {
                game: 0,
                pair,
                seed: 1,
                engines: seating
                    .iter()
                    .map(|&e| if e == 0 { player.to_string() } else { "greedy".into() })
                    .collect(),
                seating: seating.to_vec(),
                replay: String::new(),
                scores: scores.to_vec(),
                winner: None,
                results: results(scores),
                end: "normal".into(),
                fault_seat: None,
                detail: None,
                standings: vec![],
                moves: 0,
                millis: 0,
                slowest_go_millis: vec![5, 5],
            },
        }
    }

    /// The edge is the tested seat's result less greedy's in that seat on the same draws, a mean
    /// by group; the share is the ratio of the two players' mean edges.
    #[test]
    fn the_edge_is_over_greedy_in_the_same_seat_and_the_share_its_ratio() {
        // Pair 0: greedy's seat 1 wins 30 to 20 with greedy everywhere; pair 1: seat 1 loses 10 to 40.
        let records = vec![
            record("clairvoyant", 0, [0, 1], [40, 20], [30, 20]), // margin +20, greedy there +10
            record("clairvoyant", 0, [1, 0], [20, 40], [30, 20]), // +20, greedy there -10
            record("clairvoyant", 1, [0, 1], [30, 40], [10, 40]), // -10, greedy -30
            record("clairvoyant", 1, [1, 0], [30, 50], [10, 40]), // +20, greedy +30
            record("search", 0, [0, 1], [30, 25], [30, 20]),      // +5 vs +10
            record("search", 0, [1, 0], [20, 30], [30, 20]),      // +10 vs -10
            record("search", 1, [0, 1], [20, 40], [10, 40]),      // -20 vs -30
            record("search", 1, [1, 0], [35, 40], [10, 40]),      // +5 vs +30
        ];
        let report = CeilingReport::from_records(&records);
        let c = report.players.iter().find(|p| p.player == "clairvoyant").unwrap();
        let s = report.players.iter().find(|p| p.player == "search").unwrap();
        // Clairvoyant margin edges: +10, +30 (pair 0: mean 20), +20, -10 (pair 1: mean 5).
        assert_eq!(c.by_group[&0].1, 20.0);
        assert_eq!(c.by_group[&1].1, 5.0);
        assert!((c.edge_margin.mean - 12.5).abs() < 1e-9);
        // Search: -5, +20 (7.5); +10, -25 (-7.5).
        assert!((s.edge_margin.mean - 0.0).abs() < 1e-9);
        // First place: clairvoyant won 3 of 4 where greedy won 2 of 4.
        assert!((c.tally.win_rate() - 0.75).abs() < 1e-9);
        assert!((c.greedy_first - 0.5).abs() < 1e-9);
        assert!((c.edge_first.mean - 0.25).abs() < 1e-9);
        assert_eq!(c.greedy_margin, 0.0);
        let share = report.share.unwrap();
        assert!((share.margin.mean - 0.0).abs() < 1e-9);
        // Search won 3 of 4 too: the same edge in first place as the clairvoyant's.
        assert!((s.edge_first.mean - 0.25).abs() < 1e-9);
        assert!((share.first.mean - 1.0).abs() < 1e-9);
        let text = report.render();
        assert!(text.contains("share of the clairvoyant's edge that search gets: margin 0% ["), "{text}");
        assert!(text.contains("clairvoyant      4"), "{text}");
    }

    #[test]
    fn one_player_has_no_share_and_a_lone_group_no_interval() {
        let records = vec![record("search", 0, [0, 1], [30, 25], [30, 20])];
        let report = CeilingReport::from_records(&records);
        assert!(report.share.is_none());
        assert!(report.players[0].edge_margin.half.is_nan());
        assert!(report.render().contains("-5.0 [n/a]"), "{}", report.render());
    }
}
