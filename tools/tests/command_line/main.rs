//! The tools' command-line programs: the referee `zatre-match`, the analyser `zatre-analyse`,
//! the conformance kit `zatre-conformance` on zatre and on broken engines, the ceiling, the
//! weight fitter, the learned model's trainer, every tool's `--help`, the naive reference move
//! counter against the rules core and the golden files, and the published figures
//! (`zatre-figures check`).
//! One test binary for the purpose.

#[path = "../support/engine_path.rs"]
mod engine_path;

mod analyse;
mod ceiling;
mod conformance;
mod figures;
mod fit;
mod golden_naive;
mod help;
mod learn;
mod naive_agreement;
mod referee;
