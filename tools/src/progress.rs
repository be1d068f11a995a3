//! The progress bar the long-running tools draw on stderr (zatre-match, zatre-ceiling,
//! zatre-analyse).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `len` steps on stderr, drawn with `template` (indicatif's template syntax).
pub fn bar(len: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    // The templates are constants known to parse; fall back to the default style if one did not.
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}
