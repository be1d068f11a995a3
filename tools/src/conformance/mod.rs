//! The conformance kit behind `zatre-conformance`: it starts any engine as a process and checks it
//! against protocol/PROTOCOL.md, as chess referees' compliance checks do: the framing, ids, every
//! command's answers and errors, reads while `go` runs, `stop`, `quit`, limits, bad input and a
//! game played to its end with moves the rules core judges. Each failure names the section of
//! PROTOCOL.md it breaks ([`sections`]). Every read has a deadline, so a hanging engine fails
//! its check and never hangs the kit; each group of checks runs on a fresh process, so one fault
//! does not put the later groups out of step.
//!
//! What may change with version 3 (the exact payloads) is checked for its structure: a hand by
//! its values whatever the separators, `place` by its leading `points <n> crosses <k>`, errors by
//! their code and (version 3) their reason key, never by their message. The expected codes and
//! keys are the table in `checks.rs`, one line per case.

mod checks;
pub mod sections;
mod session;

use std::fmt::Write as _;
use std::time::Duration;

pub use session::{Failure, Response, Session, CODES};

/// How to run the kit.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine's command line, run by `sh -c`.
    pub engine: String,
    /// The protocol version to check: `None` for the highest the engine accepts (3 when it
    /// answers `protocol 3`, else 2).
    pub protocol: Option<u8>,
    /// The deadline of every read.
    pub timeout: Duration,
    /// How much longer than its `movetime` a `go` may take.
    pub tolerance: Duration,
    /// The seed of the game played to its end.
    pub seed: u64,
}

impl Config {
    /// The defaults for `engine`: the highest version, 5 s a read, 500 ms over a `movetime`.
    pub fn new(engine: &str) -> Config {
        Config {
            engine: engine.to_string(),
            protocol: None,
            timeout: Duration::from_secs(5),
            tolerance: Duration::from_millis(500),
            seed: 1,
        }
    }
}

/// One check and how it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The group and what it checks, e.g. `framing: ids are echoed as written`.
    pub name: String,
    pub failure: Option<Failure>,
}

/// Every check of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The protocol version checked.
    pub version: u8,
    pub outcomes: Vec<Outcome>,
    /// What the kit did not check (a command it does not know), for the reader.
    pub notes: Vec<String>,
}

impl Report {
    /// Records a check; whether it passed.
    pub fn check(&mut self, name: impl Into<String>, result: Result<(), Failure>) -> bool {
        let passed = result.is_ok();
        self.outcomes.push(Outcome { name: name.into(), failure: result.err() });
        passed
    }

    /// The failed checks.
    pub fn failures(&self) -> impl Iterator<Item = (&str, &Failure)> {
        self.outcomes.iter().filter_map(|o| o.failure.as_ref().map(|f| (o.name.as_str(), f)))
    }

    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.failures().next().is_none()
    }

    /// The report for a person: one line per check (`ok` or `FAIL` with what broke and the
    /// section of PROTOCOL.md), the notes, and a last line that sums it up.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for o in &self.outcomes {
            match &o.failure {
                None => {
                    let _ = writeln!(out, "ok   {}", o.name);
                }
                Some(f) => {
                    let _ = writeln!(out, "FAIL {}: {} [PROTOCOL.md: {}]", o.name, f.what, f.section);
                }
            }
        }
        for note in &self.notes {
            let _ = writeln!(out, "note {note}");
        }
        let failed = self.failures().count();
        let _ = writeln!(
            out,
            "conformance (protocol {}): {} checks, {} passed, {failed} failed",
            self.version,
            self.outcomes.len(),
            self.outcomes.len() - failed
        );
        out
    }
}

/// Why the kit could not check the engine at all: it could not be started, or never answered
/// its first `isready`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the engine could not be run: {0}")]
pub struct Unrunnable(pub String);

/// Runs every check on the engine of `config`.
///
/// # Errors
/// [`Unrunnable`] when the engine cannot be started or does not answer its first `isready`.
pub fn run(config: &Config) -> Result<Report, Unrunnable> {
    checks::run(config)
}
