//! The learned evaluation's pipeline, the work behind `zatre-learn`: self-play data
//! ([`play`]: seeded games, any mix of `search`, `greedy` and exploration; [`data`]: the file they
//! are written to and read back from, replayable through the rules core) and the diagnostic of
//! what the board tells about the points still to come ([`features`], [`diagnose`]).

pub mod data;
pub mod diagnose;
pub mod features;
pub mod play;
