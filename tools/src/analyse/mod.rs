//! The analysis behind `zatre-analyse`: games read from `position startpos ... moves ...` lines
//! or `zatre-match` records (`game.rs`), analysed by an engine process with one `analyse` a game
//! (`analyser.rs`, with the referee's process handling; `answer.rs` reads its lines),
//! and reported per turn and per seat as text or JSON (`report.rs`) or as a chart in SVG (`graph.rs`).

mod analyser;
mod answer;
mod game;
mod graph;
mod report;

pub use analyser::{hundredths, Analysed, Analyser, EngineError, TurnAnalysis};
pub use answer::{is_turn_line, turn_line, AnswerError, Verdict};
pub use game::{GameInput, InputError, Source, Turn};
pub use graph::{curves, svg, SEAT_COLOURS};
pub use report::{GameReport, SeatSummary, WORST};
