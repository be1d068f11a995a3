//! The engine options of `options` and `setoption` (and `--option` on the command line).

use thiserror::Error;

use crate::rules::parse_number;
use crate::search::{Eval, SearchOptions, Strategy};

/// The strategies, in the order `options` lists them.
const STRATEGIES: [Strategy; 3] = [Strategy::Random, Strategy::Greedy, Strategy::Search];

/// Why `setoption` refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionError {
    /// No option of that name.
    #[error("unknown option '{0}' (see options)")]
    Unknown(String),
    /// A value the option does not take.
    #[error("option {name} takes {expected}, not '{value}'")]
    Value {
        /// The option.
        name: &'static str,
        /// What it takes.
        expected: String,
        /// What was given.
        value: String,
    },
}

/// The engine options and their values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineOptions {
    /// `Threads`: search threads, 1..=64.
    pub threads: u32,
    /// `MultiPV`: how many best moves `go` reports in its `info` lines, 1..=256.
    pub multipv: u32,
    /// `Strategy`: random, greedy or search.
    pub strategy: Strategy,
    /// `Seed`: seeds the search's own generator (random strategy, tie breaks).
    pub seed: u64,
    /// `Eval`: the evaluation `search` values positions with, `sheets` (today's) or `learned`.
    pub eval: Eval,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions { threads: 1, multipv: 1, strategy: Strategy::Search, seed: 0, eval: DEFAULT_EVAL }
    }
}

/// The default of `Eval`: the matches of tools/STRENGTH.md ("The learned evaluation") found the
/// learned evaluation no stronger.
const DEFAULT_EVAL: Eval = Eval::Sheets;

/// The range of the `Threads` option.
const THREADS: (u32, u32) = (1, 64);
/// The range of the `MultiPV` option.
const MULTIPV: (u32, u32) = (1, 256);

impl EngineOptions {
    /// One line per option, UCI style, with the defaults.
    pub fn describe() -> Vec<String> {
        let d = EngineOptions::default();
        let vars: Vec<String> = STRATEGIES.iter().map(|s| format!("var {}", s.name())).collect();
        vec![
            format!(
                "option name Threads type spin default {} min {} max {}",
                d.threads, THREADS.0, THREADS.1
            ),
            format!(
                "option name MultiPV type spin default {} min {} max {}",
                d.multipv, MULTIPV.0, MULTIPV.1
            ),
            format!("option name Strategy type combo default {} {}", d.strategy.name(), vars.join(" ")),
            format!("option name Seed type spin default {} min 0 max {}", d.seed, u64::MAX),
            format!("option name Eval type combo default {} var sheets var learned", d.eval.name()),
        ]
    }

    /// The options of a search.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            strategy: self.strategy,
            threads: self.threads as usize,
            multipv: self.multipv as usize,
            seed: self.seed,
            eval: self.eval,
        }
    }

    /// Sets one option; the name is matched without regard to case.
    ///
    /// # Errors
    /// An unknown name or a value out of range; nothing changes then.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let spin = |name: &'static str, (min, max): (u32, u32)| {
            parse_number::<u32>(value).filter(|v| (min..=max).contains(v)).ok_or_else(|| OptionError::Value {
                name,
                expected: format!("a number from {min} to {max}"),
                value: value.to_owned(),
            })
        };
        match name.to_ascii_lowercase().as_str() {
            "threads" => self.threads = spin("Threads", THREADS)?,
            "multipv" => self.multipv = spin("MultiPV", MULTIPV)?,
            "strategy" => {
                self.strategy = Strategy::parse(value).ok_or_else(|| OptionError::Value {
                    name: "Strategy",
                    expected: "random, greedy or search".to_owned(),
                    value: value.to_owned(),
                })?;
            }
            "seed" => {
                self.seed = parse_number(value).ok_or_else(|| OptionError::Value {
                    name: "Seed",
                    expected: format!("a number from 0 to {}", u64::MAX),
                    value: value.to_owned(),
                })?;
            }
            "eval" => {
                self.eval = Eval::parse(value).ok_or_else(|| OptionError::Value {
                    name: "Eval",
                    expected: "sheets or learned".to_owned(),
                    value: value.to_owned(),
                })?;
            }
            _ => return Err(OptionError::Unknown(name.to_owned())),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_checks_names_and_ranges() {
        let mut o = EngineOptions::default();
        o.set("threads", "4").unwrap();
        o.set("MultiPV", "3").unwrap();
        o.set("Strategy", "greedy").unwrap();
        o.set("SEED", "18446744073709551615").unwrap();
        o.set("eval", "learned").unwrap();
        assert_eq!(
            o,
            EngineOptions {
                threads: 4,
                multipv: 3,
                strategy: Strategy::Greedy,
                seed: u64::MAX,
                eval: Eval::Learned
            }
        );
        let before = o;
        assert!(o.set("Threads", "0").is_err());
        assert!(o.set("Threads", "65").is_err());
        assert!(o.set("Strategy", "best").is_err());
        assert!(o.set("Seed", "-1").is_err());
        assert!(o.set("Eval", "classic").is_err());
        assert!(matches!(o.set("Hash", "16"), Err(OptionError::Unknown(_))));
        assert_eq!(o, before);
    }

    #[test]
    fn describe_lists_every_option() {
        let lines = EngineOptions::describe();
        assert_eq!(lines[0], "option name Threads type spin default 1 min 1 max 64");
        assert_eq!(
            lines[2],
            "option name Strategy type combo default search var random var greedy var search"
        );
        assert_eq!(lines[4], "option name Eval type combo default sheets var sheets var learned");
        assert_eq!(lines.len(), 5);
    }
}
