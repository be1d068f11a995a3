//! zatre: the rules, the search and the text protocol of the number-tile game Zatre.
//!
//! Three layers, each depending only on the ones before it; each module's `pub use` list is its
//! whole public API, and every item has exactly one path:
//! - [`rules`]: the pure game (board, moves, legality, scoring, sheets, turn flow, the position
//!   line, the rule options and their description, perft);
//! - [`search`]: the strategies behind `go` ([`search::run`]) and the `bench` signature;
//! - [`protocol`]: the commands, the responses and the engine state machine of the text protocol.

pub mod protocol;
pub mod rules;
pub mod search;
