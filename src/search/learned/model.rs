//! The learned model: per sheet from the player to move, a correction of today's evaluation,
//! linear in the [`Features`] (their standardisation folded into the weights when it was
//! trained, so that an evaluation is one dot product a sheet).
//!
//! A model is text (`zatre-learn train` writes it, `src/search/learned/weights/` holds the ones
//! built into the engine), format 1:
//!
//! ```text
//! zatre-learned 1 variant=classic players=4 options=<every rule option, key=value joined by commas>
//! features 97 sheets 4
//! sheet 0 <bias> <weight 0> ... <weight 96>
//! sheet 1 ...
//! ```
//!
//! The first line names the table it was trained for, as the data files' headers do (rules with
//! every option expanded); `features` is [`FEATURES`] of the code that trained it (a model of
//! other inputs is refused), `sheets` the table's; then one line per sheet, from the player to move
//! (`sheet k` is the sheet `k` seats on), its bias and one weight per input. Lines starting with
//! `#` are comments (the command that made the model).

use crate::rules::{Position, Rules};

use super::features::{Features, FEATURES, MAX_SHEETS};

/// The first word of a model file.
pub const MAGIC: &str = "zatre-learned";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;

/// A linear correction of today's evaluation, one set of weights per sheet from the player to
/// move.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The table it is for: `variant=... players=... options=...`.
    table: String,
    /// Per sheet from the player to move: the bias and the weights.
    sheets: Vec<(f64, Vec<f64>)>,
}

/// The table key of a set of rules: what a model's header names.
pub fn table_of(rules: &Rules) -> String {
    let options: Vec<String> = rules.option_fields().iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("variant={} players={} options={}", rules.variant.name(), rules.players, options.join(","))
}

impl Model {
    /// A model of `rules`' table from per-sheet biases and weights.
    ///
    /// # Errors
    /// Not one set a sheet of the table, more than [`MAX_SHEETS`], a set not [`FEATURES`] long, a
    /// number not finite.
    pub fn new(rules: &Rules, sheets: Vec<(f64, Vec<f64>)>) -> Result<Model, String> {
        Model::checked(table_of(rules), rules.sheet_count(), sheets)
    }

    fn checked(table: String, count: usize, sheets: Vec<(f64, Vec<f64>)>) -> Result<Model, String> {
        if sheets.len() != count || count > MAX_SHEETS || count == 0 {
            return Err(format!("{} sets of weights for a table of {count} sheets", sheets.len()));
        }
        for (k, (bias, w)) in sheets.iter().enumerate() {
            if w.len() != FEATURES {
                return Err(format!("sheet {k} has {} weights, not {FEATURES}", w.len()));
            }
            if !bias.is_finite() || w.iter().any(|v| !v.is_finite()) {
                return Err(format!("sheet {k} has a weight that is not a finite number"));
            }
        }
        Ok(Model { table, sheets })
    }

    /// The table the model is for ([`table_of`]).
    pub fn table(&self) -> &str {
        &self.table
    }

    /// Whether the model is for `rules`' table.
    pub fn fits(&self, rules: &Rules) -> bool {
        self.table == table_of(rules)
    }

    /// The model as its file writes it, after `comments` (each written as a `#` line).
    pub fn write(&self, comments: &[String]) -> String {
        let mut out = format!("{MAGIC} {VERSION} {}\n", self.table);
        for c in comments {
            out.push_str(&format!("# {c}\n"));
        }
        out.push_str(&format!("features {FEATURES} sheets {}\n", self.sheets.len()));
        for (k, (bias, w)) in self.sheets.iter().enumerate() {
            out.push_str(&format!("sheet {k} {bias:e}"));
            for v in w {
                out.push_str(&format!(" {v:e}"));
            }
            out.push('\n');
        }
        out
    }

    /// Reads a model file.
    ///
    /// # Errors
    /// Not a model file, another version or other inputs, a line malformed (named by its number).
    pub fn parse(text: &str) -> Result<Model, String> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.starts_with('#'));
        let (_, header) = lines.next().ok_or("the model file is empty")?;
        let rest = header
            .strip_prefix(MAGIC)
            .and_then(|r| r.strip_prefix(' '))
            .ok_or_else(|| format!("not a model file (it does not start with '{MAGIC}')"))?;
        let (version, table) = rest.split_once(' ').ok_or("the header names no table")?;
        if version != VERSION.to_string() {
            return Err(format!("model format {version}; this engine reads format {VERSION}"));
        }
        let (i, line) = lines.next().ok_or("the model file has no features line")?;
        let count = line
            .strip_prefix(&format!("features {FEATURES} sheets "))
            .and_then(|n| n.parse::<usize>().ok())
            .ok_or_else(|| {
                format!("line {}: '{line}' where 'features {FEATURES} sheets <n>' belongs", i + 1)
            })?;
        let mut sheets = Vec::new();
        for (i, line) in lines {
            let bad = |what: &str| format!("line {}: {what}", i + 1);
            let mut words = line.split(' ');
            if words.next() != Some("sheet") || words.next() != Some(sheets.len().to_string().as_str()) {
                return Err(bad(&format!("not 'sheet {}'", sheets.len())));
            }
            let numbers: Vec<f64> = words
                .map(|w| w.parse::<f64>().map_err(|_| bad(&format!("'{w}' is not a number"))))
                .collect::<Result<_, _>>()?;
            let (bias, w) = numbers.split_first().ok_or_else(|| bad("no bias"))?;
            sheets.push((*bias, w.to_vec()));
        }
        Model::checked(table.to_owned(), count, sheets)
    }

    /// Every sheet's value (what it will be worth at the end): today's evaluation plus the
    /// model's correction, by sheet (in the order of [`Position::sheets`]).
    pub fn values(&self, f: &Features) -> Vec<f64> {
        let mut out = f.equities[..f.sheets].to_vec();
        self.add_corrections(f, &mut out);
        out
    }

    /// Adds the model's correction of today's evaluation to every sheet's value in `values` (by
    /// sheet, as [`Position::sheets`]).
    pub fn add_corrections(&self, f: &Features, values: &mut [f64]) {
        for (k, (bias, w)) in self.sheets.iter().enumerate().take(f.sheets) {
            let dot: f64 = w.iter().zip(&f.values).map(|(a, b)| a * b).sum();
            values[f.order[k]] += bias + dot;
        }
    }

    /// [`Model::add_corrections`] of a position; false (nothing added) when the model is not for
    /// its table.
    pub fn correct(&self, pos: &Position, values: &mut [f64]) -> bool {
        match Features::of(pos) {
            Some(f) if f.sheets == self.sheets.len() && values.len() == f.sheets => {
                self.add_corrections(&f, values);
                true
            }
            _ => false,
        }
    }

    /// [`Model::values`] of a position; `None` when the model is not for its table.
    pub fn values_of(&self, pos: &Position) -> Option<Vec<f64>> {
        let f = Features::of(pos)?;
        (f.sheets == self.sheets.len()).then(|| self.values(&f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn rules() -> Rules {
        Rules::new(Variant::Classic, 2).expect("two players")
    }

    /// A model written and read back is the same model, and its correction is its bias plus the
    /// weighted inputs: a weight on the bag's size moves the first sheet by that many times it.
    #[test]
    fn a_model_reads_back_and_adds_its_correction() {
        let mut w0 = vec![0.0; FEATURES];
        w0[super::super::features::GAME + 6] = 0.5;
        let model = Model::new(&rules(), vec![(1.25, w0), (-2.0, vec![0.0; FEATURES])]).expect("a model");
        let text = model.write(&["made by hand".into()]);
        assert_eq!(Model::parse(&text).expect("it reads back"), model);

        let mut pos = Position::new(rules());
        pos.draw(&[5, 6, 1]).expect("a draw");
        pos.play(&crate::rules::Move::parse(pos.board().geometry(), "5@h8,6@h9,1@i8").expect("a move"))
            .expect("a legal move");
        let f = Features::of(&pos).expect("two sheets");
        let values = model.values(&f);
        let bag = pos.bag().len() as f64;
        // The second seat is to move: it is sheet 0 of the model.
        assert!((values[1] - (f.equities[1] + 1.25 + 0.5 * bag)).abs() < 1e-9);
        assert!((values[0] - (f.equities[0] - 2.0)).abs() < 1e-9);
        // The same correction added to other values.
        let mut others = vec![10.0, 20.0];
        assert!(model.correct(&pos, &mut others));
        assert!((others[1] - (20.0 + 1.25 + 0.5 * bag)).abs() < 1e-9 && (others[0] - 8.0).abs() < 1e-9);
        let mut three = vec![0.0; 3];
        assert!(!model.correct(&pos, &mut three), "values of another table");
        assert_eq!(three, vec![0.0; 3]);
    }

    #[test]
    fn a_bad_model_file_is_refused_with_its_line() {
        let model = Model::new(&rules(), vec![(0.0, vec![0.0; FEATURES]); 2]).expect("a model");
        let text = model.write(&[]);
        assert!(Model::parse("").is_err());
        assert!(Model::parse(&text.replace(MAGIC, "zatre")).unwrap_err().contains("not a model file"));
        assert!(Model::parse(&text.replace(" 1 variant", " 2 variant")).unwrap_err().contains("format 2"));
        let short = text.replace(&format!("features {FEATURES}"), "features 3");
        assert!(Model::parse(&text.replace("sheets 2", "sheets two")).unwrap_err().contains("line 2"));
        assert!(Model::parse(&short).unwrap_err().contains("line 2"));
        let cut: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert!(Model::parse(&cut).unwrap_err().contains("1 sets"));
        let nan = text.replacen("sheet 1 0e0", "sheet 1 x", 1);
        assert!(Model::parse(&nan).unwrap_err().contains("'x' is not a number"), "{nan}");
        assert!(Model::new(&rules(), vec![(0.0, vec![0.0; 3]); 2]).is_err());
        assert!(Model::new(&rules(), vec![(f64::NAN, vec![0.0; FEATURES]); 2]).is_err());
    }
}
