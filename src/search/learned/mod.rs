//! The learned evaluation: today's evaluation of the sheets (`search::eval`)
//! corrected by a model trained on self-play (`zatre-learn train`) from inputs of the board and
//! the sheets ([`features`]); the models built into the engine are the files of `weights/`
//! (docs/learn.md says how they were made). The search uses it where a model of the table exists
//! and the `Eval` option asks for it ([`Eval`]).

pub mod features;
pub mod model;

use std::sync::OnceLock;

use crate::rules::Rules;

pub use features::Features;
pub use model::Model;

/// Which evaluation the search values positions with (the engine option `Eval`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Today's evaluation of the sheets (`search::eval`).
    Sheets,
    /// The learned correction of it, where a model of the table is built in (elsewhere
    /// [`Eval::Sheets`]).
    Learned,
}

impl Eval {
    /// Parses `sheets` or `learned`.
    pub fn parse(name: &str) -> Option<Eval> {
        match name {
            "sheets" => Some(Eval::Sheets),
            "learned" => Some(Eval::Learned),
            _ => None,
        }
    }

    /// The name [`Eval::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Eval::Sheets => "sheets",
            Eval::Learned => "learned",
        }
    }
}

/// The model files built into the engine.
const BUILT_IN: &[&str] = &[
    include_str!("weights/classic-3-de.txt"),
    include_str!("weights/classic-4-de.txt"),
    include_str!("weights/classic-4-cz4.txt"),
];

/// The built-in models, read once.
fn built_in() -> &'static [Model] {
    static MODELS: OnceLock<Vec<Model>> = OnceLock::new();
    // A built-in file that does not read is left out (a test reads every one of them).
    MODELS.get_or_init(|| BUILT_IN.iter().filter_map(|text| Model::parse(text).ok()).collect())
}

/// The built-in model of `rules`' table, if there is one.
pub fn model_of(rules: &Rules) -> Option<&'static Model> {
    built_in().iter().find(|m| m.fits(rules))
}

/// The model the search uses under `eval` for `rules`: none for [`Eval::Sheets`] or a table
/// without a built-in model.
pub(crate) fn model_for(eval: Eval, rules: &Rules) -> Option<&'static Model> {
    match eval {
        Eval::Sheets => None,
        Eval::Learned => model_of(rules),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_model_reads() {
        for text in BUILT_IN {
            Model::parse(text).expect("a built-in model reads");
        }
        assert_eq!(built_in().len(), BUILT_IN.len());
    }

    #[test]
    fn eval_names_read_back() {
        for e in [Eval::Sheets, Eval::Learned] {
            assert_eq!(Eval::parse(e.name()), Some(e));
        }
        assert_eq!(Eval::parse("classic"), None);
    }
}
