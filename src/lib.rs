//! zatre: the rules, the search and the text protocol of the number-tile game Zatre.
//!
//! The library behind the `zatre` engine offers three layers, each depending only on the ones
//! before it; each module's `pub use` list is its whole public API, and every item has exactly
//! one path:
//! - [`rules`], the rules core: the pure game of the three variants (classic, dice, kids) with
//!   every rule option: board, moves, legality, move generation, scoring, sheets, turn flow and
//!   the end, the position line, the description of the rule options, perft. No I/O.
//! - [`search`]: the strategies behind `go` (`random`, `greedy` and the strong `search`), run by
//!   [`search::run`] under node and time limits, reporting progress through a callback; and the
//!   `bench` signature.
//! - [`protocol`], the protocol session: the commands of the text protocol (`protocol/PROTOCOL.md`),
//!   their parser, the [`protocol::Engine`] that executes them on a game, and the
//!   [`protocol::Session`] that schedules them and their jobs as the protocol says and answers
//!   with the text to write. It touches no stream: the `zatre` binary feeds it lines from stdin.
//!
//! Beside them, [`cli`] holds what the command-line programs share: the version line with the
//! commit they were built from, and their manual pages.
//!
//! # Example
//!
//! A classic game for two: draw, check and play a move with the rules core, ask the search for
//! the next player's move, and the same first turn through the protocol session.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//!
//! use zatre::protocol::{Action, Engine, Event, RawLine, Session};
//! use zatre::rules::{Game, Move, Phase, Rules, Variant};
//! use zatre::search::{self, Limits, SearchOptions};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The rules core: the start player draws three tiles and places them from the centre h8.
//! let mut game = Game::new(Rules::new(Variant::Classic, 2)?);
//! game.draw(&[5, 6, 6])?;
//! let geometry = game.position().board().geometry();
//! let start = Move::parse(geometry, "5@h8,6@h9,6@i9")?;
//! assert_eq!(game.position().movegen().legal_moves().len(), 36); // as `legal count` answers
//! let score = game.play(&start)?;
//! assert_eq!((score.points(game.position().rules()), score.crosses), (6, 2));
//! // A move that breaks a rule is refused and changes nothing (c5 touches no tile).
//! game.draw(&[3, 4])?;
//! assert!(game.play(&Move::parse(geometry, "3@c5")?).is_err());
//!
//! // The search: the move of the player to move, within 20,000 nodes.
//! let limits = Limits { nodes: Some(20_000), ..Limits::default() };
//! let stop = AtomicBool::new(false);
//! let found = search::run(game.position(), &limits, &SearchOptions::default(), &stop, &mut |_| {})
//!     .expect("a move is due");
//! game.play(&found.best)?;
//! assert_eq!(game.position().phase(), Phase::Draw);
//!
//! // The protocol session: lines in, the text of the responses out.
//! let mut session = Session::new(Engine::new());
//! let mut output = String::new();
//! for line in ["1 newgame seed 1", "2 draw 5 6 6", "3 place 5@h8,6@h9,6@i9"] {
//!     for action in session.handle(Event::Line(RawLine::Bytes(line.as_bytes().to_vec()))) {
//!         if let Action::Write(text) = action {
//!             output.push_str(&text);
//!         }
//!     }
//! }
//! assert_eq!(output, "=1\n\n=2 5 6 6\n\n=3 points 6 crosses 2\n\n");
//! # Ok(())
//! # }
//! ```

pub mod cli;
pub mod protocol;
pub mod rules;
pub mod search;
