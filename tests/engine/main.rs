//! The engine as its users drive it: the real binary spawned (timing, end of input, bad input,
//! flags), the protocol session in-process (transcripts, the README's session), fuzz and load,
//! and the search's limits. One test binary for the purpose, so the suite links once.

#[path = "../common/mod.rs"]
mod common;

mod binary;
mod fuzz;
mod load;
mod readme_session;
mod search_limits;
mod spec;
mod transcripts;
