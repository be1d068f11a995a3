//! The analysis behind `zatre-analyse`: games read from `position startpos ... moves ...` lines
//! or `zatre-match` records (`game.rs`), replayed turn by turn through an engine process that
//! values the best move and the move played (`analyser.rs`, with the referee's process handling),
//! and reported per turn and per seat as text or JSON (`report.rs`) or as a chart in SVG (`graph.rs`).

mod analyser;
mod answer;
mod game;
mod graph;
mod report;

pub use analyser::{hundredths, Analyser, EngineError, TurnAnalysis};
pub use answer::{AnswerError, Verdict};
pub use game::{GameInput, InputError, Source, Turn};
pub use graph::{curves, svg, SEAT_COLOURS};
pub use report::{GameReport, SeatSummary, WORST};
