//! What an engine's answer to `go` says: the move and its value. The value is the `score` of the
//! `bestmove` line, or, when an engine leaves it out there, of the last `info` line of the first
//! candidate (`multipv 1`, or none given) before it; `stderr` and `samples` come from that line.

use thiserror::Error;

use crate::referee::Reply;

/// An answer to `go` that does not say what the analysis needs.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AnswerError {
    #[error("go answered '{0}' instead of bestmove <move>")]
    NoBestMove(String),
    #[error("go gave no score for its move {0} (neither on bestmove nor on an info line)")]
    NoScore(String),
    #[error("a score that is not a number of points (at most {MAX_SCORE} either way): '{0}'")]
    BadScore(String),
}

/// The engine's verdict on a position: its move and what it is worth.
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

impl Verdict {
    /// Reads a successful answer to `go`.
    ///
    /// # Errors
    /// No `bestmove <move>` first, or no score for it, or a score that is not a number.
    pub fn of(reply: &Reply) -> Result<Verdict, AnswerError> {
        let first = reply.payload.first().map(String::as_str).unwrap_or("");
        let mut words = first.split_whitespace();
        let best = match (words.next(), words.next()) {
            (Some("bestmove"), Some(mv)) => mv.to_string(),
            _ => return Err(AnswerError::NoBestMove(first.to_string())),
        };
        let fields: Vec<&str> = words.collect();
        let info = reply
            .info
            .iter()
            .rev()
            .map(|line| line.split_whitespace().collect::<Vec<_>>())
            .find(|f| field(f, "multipv").is_none_or(|k| k == "1") && field(f, "score").is_some());
        let score = match field(&fields, "score").or_else(|| info.as_deref().and_then(|f| field(f, "score")))
        {
            Some(text) => number(text)?,
            None => return Err(AnswerError::NoScore(best)),
        };
        let info = info.unwrap_or_default();
        let stderr = field(&info, "stderr").map(number).transpose()?;
        let samples = field(&info, "samples").and_then(|s| s.parse().ok());
        let nodes = field(&fields, "nodes").or_else(|| field(&info, "nodes")).and_then(|s| s.parse().ok());
        Ok(Verdict { best, score, stderr, samples, nodes })
    }
}

/// The word after `name` among `words`, read by name as PROTOCOL.md asks.
fn field<'a>(words: &[&'a str], name: &str) -> Option<&'a str> {
    words.iter().position(|w| *w == name).and_then(|i| words.get(i + 1)).copied()
}

/// The largest score, either way, an engine's answer may give: far beyond any margin a game can
/// have, so that losses, their sums and the chart's scale stay finite numbers.
const MAX_SCORE: f64 = 1_000_000.0;

fn number(text: &str) -> Result<f64, AnswerError> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.abs() <= MAX_SCORE)
        .ok_or_else(|| AnswerError::BadScore(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(payload: &str, info: &[&str]) -> Reply {
        Reply { payload: vec![payload.to_string()], info: info.iter().map(|s| s.to_string()).collect() }
    }

    #[test]
    fn the_score_of_bestmove_and_the_spread_of_the_last_info_line() {
        let r = reply(
            "bestmove 4@h8,1@i8,4@j8 score 2.56 nodes 398897",
            &[
                "info depth 3 multipv 1 score 2.29 stderr 0.79 samples 64 winprob 0.594 nodes 42592 nps 1 time 32 pv 4@h8",
                "info depth 3 multipv 1 score 2.56 stderr 0.16 samples 1511 winprob 0.658 nodes 398897 nps 1 time 280 pv 4@h8,1@i8,4@j8",
                "info depth 3 multipv 2 score 1.00 stderr 0.20 samples 10 nodes 398897 nps 1 time 280 pv 1@h8",
            ],
        );
        let v = Verdict::of(&r).expect("a full answer");
        assert_eq!(v.best, "4@h8,1@i8,4@j8");
        assert_eq!(v.score, 2.56);
        assert_eq!(v.stderr, Some(0.16));
        assert_eq!(v.samples, Some(1511));
        assert_eq!(v.nodes, Some(398897));
    }

    #[test]
    fn an_engine_that_scores_only_in_info_lines_or_not_at_all() {
        let v = Verdict::of(&reply("bestmove pass", &["info score -1.5 pv pass"])).expect("info's score");
        assert_eq!((v.best.as_str(), v.score, v.stderr), ("pass", -1.5, None));
        assert_eq!(Verdict::of(&reply("bestmove pass", &[])), Err(AnswerError::NoScore("pass".into())));
        assert!(matches!(Verdict::of(&reply("move 5@h8", &[])), Err(AnswerError::NoBestMove(_))));
        assert!(matches!(Verdict::of(&reply("bestmove pass score x", &[])), Err(AnswerError::BadScore(_))));
        assert!(matches!(Verdict::of(&reply("bestmove pass score inf", &[])), Err(AnswerError::BadScore(_))));
        // Finite but absurd: its loss overflowed to inf, and the chart drew NaN.
        assert!(matches!(
            Verdict::of(&reply("bestmove pass score 1.7e308", &[])),
            Err(AnswerError::BadScore(_))
        ));
        assert!(Verdict::of(&reply("bestmove pass score -999999.5", &[])).is_ok());
    }
}
