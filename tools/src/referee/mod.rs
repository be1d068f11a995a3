//! The referee behind `zatre-match`: it drives engine processes over the text protocol, deals the
//! draws, judges every move with the rules core, survives faulty engines, and reports.

mod compare;
mod engine_process;
mod game;
mod interrupt;
mod record;
mod report;
mod runner;
mod sprt;

pub use compare::{Change, Comparison};
pub(crate) use engine_process::clip;
pub use engine_process::{EngineProcess, Fault, Reply};
pub use game::{deal_and_play, play, Dealer, End, GameSpec, Limits, Played, SeatResult, Slots};
pub use interrupt::exit_on_signals;
#[cfg(test)]
pub(crate) use record::test_record;
pub use record::{merge_records, read_records, Record};
pub use report::{Report, Tally};
pub use runner::{
    newgame_args, newgame_text, pair_seed, plan, plan_games, rules_of, run, GamePlan, MatchConfig,
    MatchError, MatchResult, Shard, MAX_GAMES,
};
pub use sprt::{Sprt, SprtState, Verdict};
