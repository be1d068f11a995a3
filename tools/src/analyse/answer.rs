//! What an engine's `analyse` says: one `info [id <id>] turn ...` line per turn analysed
//! (PROTOCOL.md, `analyse`), read by its field names into a [`TurnAnalysis`], and the response's
//! totals. The engine computes the values, the losses and the curves; nothing is computed here.

use thiserror::Error;

use super::analyser::TurnAnalysis;

/// A line of `analyse` that does not say what the analysis needs.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AnswerError {
    #[error("analyse gave a turn line without '{0}': '{1}'")]
    Missing(&'static str, String),
    #[error("a value that is not a number of points (at most {MAX_SCORE} either way): '{0}'")]
    BadScore(String),
    #[error("analyse answered '{0}' instead of analysed <k> of <n> ...")]
    NoTotals(String),
}

/// A move and what the engine says it is worth.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The move as the engine wrote it.
    pub best: String,
    /// The expected final margin in sheet points (PROTOCOL.md, `go`).
    pub score: f64,
    /// The standard error of a sampled score, when the engine gave one.
    pub stderr: Option<f64>,
    /// The playouts behind a sampled score, when the engine gave them.
    pub samples: Option<u64>,
    /// The nodes searched, when the engine said.
    pub nodes: Option<u64>,
}

/// The word after `name` among `words`, read by name as PROTOCOL.md asks.
fn field<'a>(words: &[&'a str], name: &str) -> Option<&'a str> {
    words.iter().position(|w| *w == name).and_then(|i| words.get(i + 1)).copied()
}

/// The largest value, either way, an engine's answer may give: far beyond any margin a game can
/// have, so that losses, their sums and the chart's scale stay finite numbers.
const MAX_SCORE: f64 = 1_000_000.0;

fn number(text: &str) -> Result<f64, AnswerError> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.abs() <= MAX_SCORE)
        .ok_or_else(|| AnswerError::BadScore(text.to_string()))
}

/// Whether `line` is a turn line of `analyse` (`info turn ...` or `info id <id> turn ...`).
pub fn is_turn_line(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().take(4).collect();
    matches!(words.as_slice(), ["info", "turn", ..] | ["info", "id", _, "turn"])
}

/// Reads one turn line of `analyse`.
///
/// # Errors
/// A field missing or a value that is not a number.
pub fn turn_line(line: &str) -> Result<TurnAnalysis, AnswerError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let get = |name: &'static str| field(&words, name).ok_or_else(|| AnswerError::Missing(name, line.into()));
    let whole =
        |name: &'static str| get(name)?.parse::<u64>().map_err(|_| AnswerError::Missing(name, line.into()));
    let margins = get("margins")?
        .split(',')
        .map(|m| if m == "-" { Ok(None) } else { number(m).map(Some) })
        .collect::<Result<Vec<_>, _>>()?;
    let nodes = Some(whole("nodes")?);
    let best = Verdict {
        best: get("best")?.to_string(),
        score: number(get("bestvalue")?)?,
        stderr: None,
        samples: None,
        nodes,
    };
    let played = get("played")?.to_string();
    let played_value = Verdict { best: played.clone(), score: number(get("value")?)?, ..best.clone() };
    Ok(TurnAnalysis {
        turn: u32::try_from(whole("turn")?).map_err(|_| AnswerError::Missing("turn", line.into()))?,
        seat: usize::try_from(whole("seat")?)
            .ok()
            .and_then(|s| s.checked_sub(1))
            .ok_or_else(|| AnswerError::Missing("seat", line.into()))?,
        played,
        played_value,
        best,
        played_is_best: get("bestplayed")? == "yes",
        lost: number(get("lost")?)?,
        margins,
    })
}

/// The response `analysed <k> of <n> lost <l>,... ...`: the turns analysed, the game's moves and
/// each seat's points lost, seat 1 first.
///
/// # Errors
/// Another response.
pub fn totals(payload: &str) -> Result<(usize, usize, Vec<f64>), AnswerError> {
    let bad = || AnswerError::NoTotals(payload.to_string());
    let words: Vec<&str> = payload.split_whitespace().collect();
    let ["analysed", k, "of", n, rest @ ..] = words.as_slice() else { return Err(bad()) };
    let lost = field(rest, "lost").ok_or_else(bad)?.split(',').map(number).collect::<Result<Vec<_>, _>>()?;
    match (k.parse(), n.parse()) {
        (Ok(k), Ok(n)) => Ok((k, n, lost)),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_line_is_read_by_its_field_names() {
        let line = "info id 7 turn 2 seat 2 played 2@i10,4@i11 points 4 value -18.77 best 4@i8,2@i7 \
                    bestpoints 4 bestvalue -8.52 bestplayed no lost 10.25 margins 18.77,-18.77,- nodes 4025";
        assert!(is_turn_line(line));
        let t = turn_line(line).expect("a full line");
        assert_eq!(
            (t.turn, t.seat, t.played.as_str(), t.best.best.as_str()),
            (2, 1, "2@i10,4@i11", "4@i8,2@i7")
        );
        assert_eq!((t.played_value.score, t.best.score, t.lost), (-18.77, -8.52, 10.25));
        assert!(!t.played_is_best);
        assert_eq!(t.margins, vec![Some(18.77), Some(-18.77), None]);
        assert!(!is_turn_line("info depth 1 score 2 pv pass"));
    }

    #[test]
    fn bad_lines_and_totals_say_why() {
        let full = "info turn 1 seat 1 played pass value 1 best pass bestvalue 1 bestplayed yes lost 0 margins 1 nodes 3";
        assert!(turn_line(full).is_ok());
        assert!(matches!(turn_line(&full.replace(" lost 0", "")), Err(AnswerError::Missing("lost", _))));
        assert!(matches!(turn_line(&full.replace("value 1 ", "value inf ")), Err(AnswerError::BadScore(_))));
        assert!(matches!(turn_line(&full.replace("seat 1", "seat 0")), Err(AnswerError::Missing("seat", _))));
        assert_eq!(totals("analysed 3 of 5 lost 1.00,2.50 nodes 9 stopped"), Ok((3, 5, vec![1.0, 2.5])));
        assert!(totals("analysed 3 of 5 nodes 9").is_err());
        assert!(totals("bestmove pass").is_err());
    }
}
