//! The analysis of one game as a picture (`zatre-analyse --svg`): each seat's expected final
//! margin after every turn as a line, the points lost per turn as bars below it, each seat's
//! worst moves marked. The browser board draws the same chart in its review mode
//! (tools/web/js/review.js); both read the curves the same way ([`curves`]).

use std::fmt::Write as _;

use super::report::GameReport;

/// The width and height of the picture, in SVG user units.
const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 420.0;
/// Room for the axis labels on the left, the legend on the top and the turn numbers below.
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 36.0;
/// The share of the plot given to the lines; the bars of the losses get the rest.
const LINES_SHARE: f64 = 0.62;
/// The gap between the two panels.
const GAP: f64 = 26.0;
/// About how many grid lines each panel has (the page's chart has as many).
const VALUE_LINES: f64 = 6.0;
const LOSS_LINES: f64 = 3.0;

/// One colour per seat (up to six), told apart by people with the common colour blindnesses
/// (Okabe and Ito's palette), each with a contrast of at least 3:1 on white.
pub const SEAT_COLOURS: [&str; 6] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8a6d00", "#56606b"];
/// One line pattern per seat too (`stroke-dasharray`), so that the lines are told apart without
/// their colours (a grey print, forced colours); the page's chart (`tools/web/js/review.js`) has
/// the same.
pub const SEAT_DASHES: [&str; 6] = ["none", "8 4", "2 3", "10 3 2 3", "4 4", "1 3"];

/// Each seat's expected final margin after every turn of `report`, by seat, one entry per turn:
/// the engine's `margins` of each turn (PROTOCOL.md, `analyse`), `None` where it gives none.
pub fn curves(report: &GameReport) -> Vec<Vec<Option<f64>>> {
    (0..report.players)
        .map(|seat| report.turns.iter().map(|t| t.margins.get(seat).copied().flatten()).collect())
        .collect()
}

/// The chart of `report` as a standalone SVG document (English words: the command line's).
pub fn svg(report: &GameReport) -> String {
    let curves = curves(report);
    let n = report.turns.len().max(1);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM - GAP;
    let lines_h = plot_h * LINES_SHARE;
    let bars_top = TOP + lines_h + GAP;
    let bars_h = plot_h - lines_h;
    let step = plot_w / n as f64;
    let x = |i: usize| LEFT + step * (i as f64 + 0.5);

    let values = curves.iter().flatten().flatten().copied();
    let (lo, hi) = values.fold((0.0_f64, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = nice_range(lo, hi, VALUE_LINES);
    let y = |v: f64| TOP + lines_h * (hi - v) / (hi - lo);
    let max_loss = nice_range(0.0, report.turns.iter().map(|t| t.loss()).fold(0.0, f64::max), LOSS_LINES).1;
    let bar_h = |loss: f64| bars_h * loss / max_loss;

    let alone = report.players == 1;
    let what = if alone { "expected final score" } else { "expected final margin" };
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="title desc" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, "<title id=\"title\">Zatre game review: {what} and points lost per turn</title>");
    let _ = writeln!(
        s,
        "<desc id=\"desc\">{} turns analysed with go {}. Lines: each seat's {what} after every turn, in sheet points, as the engine values the move played. Bars: the points each move lost against the engine's best move.</desc>",
        report.turns.len(),
        escape(&report.go)
    );
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##);

    // The legend: one entry per seat.
    for seat in 0..report.players {
        let lx = LEFT + 150.0 * seat as f64;
        let colour = SEAT_COLOURS[seat % SEAT_COLOURS.len()];
        let dash = SEAT_DASHES[seat % SEAT_DASHES.len()];
        let _ = writeln!(
            s,
            r#"<g class="legend"><line x1="{lx}" x2="{}" y1="19" y2="19" stroke="{colour}" stroke-width="3" stroke-dasharray="{dash}"/><text x="{}" y="24">{}</text></g>"#,
            lx + 24.0,
            lx + 30.0,
            escape(&seat_label(report, seat))
        );
    }

    // The lines' panel: the grid, the zero line, the labels.
    let _ = writeln!(s, r##"<text x="{LEFT}" y="{}" fill="#333">{what}</text>"##, TOP - 4.0);
    for v in ticks(lo, hi, VALUE_LINES) {
        let ty = y(v);
        let stroke = if v == 0.0 { "#555555" } else { "#dddddd" };
        let _ = writeln!(
            s,
            r##"<line class="grid" x1="{LEFT}" x2="{}" y1="{ty:.1}" y2="{ty:.1}" stroke="{stroke}"/><text x="{}" y="{:.1}" text-anchor="end" fill="#333">{}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            ty + 4.0,
            number(v)
        );
    }
    for (seat, curve) in curves.iter().enumerate() {
        let colour = SEAT_COLOURS[seat % SEAT_COLOURS.len()];
        let dash = SEAT_DASHES[seat % SEAT_DASHES.len()];
        let points: Vec<String> = curve
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| format!("{:.1},{:.1}", x(i), y(v))))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline class="margin" data-seat="{}" points="{}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}" stroke-linejoin="round"/>"#,
            seat + 1,
            points.join(" ")
        );
    }

    // The bars' panel: one bar per move that lost points, in its seat's colour, the worst marked.
    let _ = writeln!(s, r##"<text x="{LEFT}" y="{}" fill="#333">points lost</text>"##, bars_top - 4.0);
    for v in ticks(0.0, max_loss, LOSS_LINES) {
        let ty = bars_top + bar_h(v);
        let _ = writeln!(
            s,
            r##"<line class="grid" x1="{LEFT}" x2="{}" y1="{ty:.1}" y2="{ty:.1}" stroke="#dddddd"/><text x="{}" y="{:.1}" text-anchor="end" fill="#333">{}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            ty + 4.0,
            number(v)
        );
    }
    let worst: Vec<usize> = report.seats().iter().flat_map(|s| s.worst.clone()).collect();
    for (i, turn) in report.turns.iter().enumerate() {
        let loss = turn.loss();
        if loss <= 0.0 {
            continue;
        }
        let colour = SEAT_COLOURS[turn.seat % SEAT_COLOURS.len()];
        let w = (step * 0.8).max(1.0);
        let class = if worst.contains(&i) { "loss worst" } else { "loss" };
        let _ = writeln!(
            s,
            r#"<rect class="{class}" data-turn="{}" data-seat="{}" data-loss="{loss:.2}" x="{:.1}" y="{bars_top:.1}" width="{w:.1}" height="{:.1}" fill="{colour}"><title>turn {}, seat {}: {} lost {loss:.2}</title></rect>"#,
            turn.turn,
            turn.seat + 1,
            x(i) - w / 2.0,
            bar_h(loss),
            turn.turn,
            turn.seat + 1,
            escape(&turn.played),
        );
    }

    // The turn numbers below.
    let every = (n / 12).max(1);
    let axis_y = HEIGHT - BOTTOM + 16.0;
    for (i, turn) in report.turns.iter().enumerate() {
        // Every `every`-th turn, and the last one when it is not too close to the one before.
        if i % every == 0 || (i + 1 == report.turns.len() && 2 * (i % every) >= every) {
            let _ = writeln!(
                s,
                r##"<text class="turn" x="{:.1}" y="{axis_y}" text-anchor="middle" fill="#333">{}</text>"##,
                x(i),
                turn.turn
            );
        }
    }
    let _ =
        writeln!(s, r##"<text x="{}" y="{axis_y}" text-anchor="end" fill="#333">turn</text>"##, LEFT - 6.0);
    s.push_str("</svg>\n");
    s
}

/// `seat 1`, `seat 1 (team 1)` or `seat 1: <engine>` for the legend.
fn seat_label(report: &GameReport, seat: usize) -> String {
    match &report.teams {
        Some(teams) => format!("seat {} (team {})", seat + 1, teams[seat]),
        None => format!("seat {}", seat + 1),
    }
}

/// A range around `lo..hi` (which hold 0) that ends on round numbers and is never empty.
fn nice_range(lo: f64, hi: f64, lines: f64) -> (f64, f64) {
    let step = tick_step(lo, hi, lines);
    let lo = (lo / step).floor() * step;
    let hi = (hi / step).ceil() * step;
    if hi - lo < step {
        (lo, lo + step)
    } else {
        (lo, hi)
    }
}

/// The distance of about `lines` grid lines over `lo..hi`: 1, 2 or 5 times a power of ten, at
/// least one point.
fn tick_step(lo: f64, hi: f64, lines: f64) -> f64 {
    let span = (hi - lo).max(lines);
    let raw = span / lines;
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * power).find(|&s| s >= raw).unwrap_or(10.0 * power)
}

/// The grid values from `lo` to `hi` (both round numbers of the same step).
fn ticks(lo: f64, hi: f64, lines: f64) -> Vec<f64> {
    let step = tick_step(lo, hi, lines);
    let count = ((hi - lo) / step).round() as usize;
    (0..=count).map(|k| lo + step * k as f64).collect()
}

/// A grid label: no decimals when whole.
fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Text for SVG's character data and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::{GameInput, TurnAnalysis, Verdict};

    fn turn(turn: u32, seat: usize, margins: &[Option<f64>]) -> TurnAnalysis {
        let verdict =
            |score: f64| Verdict { best: "1@h8".into(), score, stderr: None, samples: None, nodes: None };
        TurnAnalysis {
            turn,
            seat,
            played: "1@h8".into(),
            played_value: verdict(0.0),
            best: verdict(0.0),
            played_is_best: true,
            lost: 0.0,
            margins: margins.to_vec(),
        }
    }

    fn report(players: usize, turns: Vec<TurnAnalysis>) -> GameReport {
        let line = format!("position startpos players {players} moves +441 4@h8,1@h9,4@h10");
        let game = GameInput::parse(1, &line).expect("a game");
        GameReport::new(&game, "zatre", "nodes 10", turns)
    }

    /// The curves are the engine's margins, a line per seat; a seat it says nothing of has no
    /// point (nor has one the engine left out).
    #[test]
    fn the_curves_are_the_engines_margins_by_seat() {
        let three = report(
            3,
            vec![
                turn(1, 0, &[Some(3.0), None, None]),
                turn(2, 1, &[Some(3.0), Some(5.0), None]),
                turn(3, 2, &[]),
            ],
        );
        assert_eq!(
            curves(&three),
            vec![vec![Some(3.0), Some(3.0), None], vec![None, Some(5.0), None], vec![None, None, None]]
        );
    }

    #[test]
    fn round_ranges_and_ticks() {
        assert_eq!(nice_range(-3.2, 17.5, 6.0), (-5.0, 20.0));
        assert_eq!(nice_range(-53.0, 54.0, 6.0), (-60.0, 60.0));
        assert_eq!(ticks(-60.0, 60.0, 6.0), vec![-60.0, -40.0, -20.0, 0.0, 20.0, 40.0, 60.0]);
        assert_eq!(nice_range(0.0, 0.0, 3.0), (0.0, 1.0));
        assert_eq!(ticks(0.0, 6.0, 3.0), vec![0.0, 2.0, 4.0, 6.0]);
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
