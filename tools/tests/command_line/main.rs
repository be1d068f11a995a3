//! The tools' command-line programs: the referee `zatre-match`, the analyser `zatre-analyse`,
//! the ceiling, the weight fitter, every tool's `--help`, and the naive reference move counter
//! against the rules core and the golden files. One test binary for the purpose.

#[path = "../support/engine_path.rs"]
mod engine_path;

mod analyse;
mod ceiling;
mod fit;
mod golden_naive;
mod help;
mod naive_agreement;
mod referee;
