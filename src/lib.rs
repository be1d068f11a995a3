//! zatre: the rules, the search and the text protocol of the number-tile game Zatre.

pub mod protocol;
pub mod rules;
pub mod search;
