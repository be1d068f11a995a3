//! The one error type of the naive counter: a message.

use std::fmt;

/// An input error (a bad position line, a bad command line), with a message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveError(String);

impl NaiveError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> NaiveError {
        NaiveError(message.into())
    }
}

impl fmt::Display for NaiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NaiveError {}
