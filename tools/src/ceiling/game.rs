//! One game in-process: the referee's dealer deals, each seat's player chooses its move by a
//! call into the search (no engine process), the rules core judges and enters it.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use zatre::rules::{Move, Position, Rules};
use zatre::search::{greedy_choice, run, run_foreseeing, Limits, SearchOptions};

use crate::referee::{deal_and_play, Dealer, Fault, Played};

/// How many rolls ahead a clairvoyant player knows in dice and kids: far more than the search
/// simulates (two turns by default); beyond them it would take the expectation.
pub const ROLLS_AHEAD: usize = 32;

/// Who plays a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// `search` knowing the draws to come (the dealer's future).
    Clairvoyant,
    /// `search`, as the engine plays it.
    Search,
    /// `greedy`.
    Greedy,
}

impl Seat {
    /// `clairvoyant`, `search` or `greedy`: the name records and reports give it.
    pub fn name(self) -> &'static str {
        match self {
            Seat::Clairvoyant => "clairvoyant",
            Seat::Search => "search",
            Seat::Greedy => "greedy",
        }
    }

    /// The seat's move in `position`, and its fault when it has none.
    fn choose(self, position: &Position, dealer: &Dealer, limits: &Limits) -> Result<Move, Fault> {
        // The engine's defaults: one thread, one line, seed 0.
        let options = SearchOptions::default();
        let stop = AtomicBool::new(false);
        let found = match self {
            Seat::Greedy => return greedy_choice(position).ok_or_else(|| no_move(self)),
            Seat::Search => run(position, limits, &options, &stop, &mut |_| {}),
            Seat::Clairvoyant => {
                let foresight = dealer
                    .foresight(position.rules(), ROLLS_AHEAD)
                    .ok_or_else(|| Fault::Error("the dealer knows no future yet".to_string()))?;
                run_foreseeing(position, limits, &options, foresight, &stop, &mut |_| {})
                    .map_err(|e| Fault::Error(format!("the dealer's future: {e}")))?
            }
        };
        found.map(|f| f.best).ok_or_else(|| no_move(self))
    }
}

fn no_move(seat: Seat) -> Fault {
    Fault::Error(format!("{} found no move where one is due", seat.name()))
}

/// Plays one game to its end on the referee's dealer of `seed` ([`deal_and_play`]), `seats[s]`
/// playing seat `s`, each search under `limits`; `newgame_args` only names the game in its replay
/// line. The time of a move is the wall clock of its choice.
pub fn play(rules: &Rules, newgame_args: &str, seed: u64, seats: &[Seat], limits: &Limits) -> Played {
    deal_and_play(rules, seed, newgame_args, Instant::now(), |seat, position, dealer, _| {
        let asked = Instant::now();
        let player = seats.get(seat).copied().unwrap_or(Seat::Greedy);
        player.choose(position, dealer, limits).map(|mv| (mv, asked.elapsed()))
    })
}
