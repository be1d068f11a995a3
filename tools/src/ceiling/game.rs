//! One game in-process: the referee's dealer deals, each seat's player chooses its move by a
//! call into the search (no engine process), the rules core judges and enters it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use zatre::rules::{Move, Phase, Position, Rules};
use zatre::search::{greedy_choice, run, run_foreseeing, Limits, SearchOptions};

use crate::referee::{draw_token, replay_line, Dealer, End, Fault, Played};

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

/// Plays one game to its end on the dealer of `seed`, `seats[s]` playing seat `s`, each search
/// under `limits`; `newgame_args` only names the game in its replay line.
pub fn play(rules: &Rules, newgame_args: &str, seed: u64, seats: &[Seat], limits: &Limits) -> Played {
    let started = Instant::now();
    let mut position = Position::new(rules.clone());
    let mut dealer = Dealer::new(seed);
    let mut tokens: Vec<String> = Vec::new();
    let mut moves = 0;
    let mut slowest = vec![Duration::ZERO; seats.len()];
    let mut end = End::Normal;
    loop {
        match position.phase() {
            Phase::Over => break,
            Phase::Draw => match dealer.deal(&mut position) {
                Ok(values) => tokens.push(draw_token(&values)),
                Err(message) => {
                    end = End::Aborted(message);
                    break;
                }
            },
            Phase::Place => {
                let seat = position.to_move();
                let asked = Instant::now();
                let chosen =
                    seats.get(seat).copied().unwrap_or(Seat::Greedy).choose(&position, &dealer, limits);
                slowest[seat] = slowest[seat].max(asked.elapsed());
                let played = chosen.and_then(|mv| {
                    position.play(&mv).map_err(|e| Fault::IllegalMove(format!("{mv}: {e}")))?;
                    Ok(mv)
                });
                match played {
                    Ok(mv) => {
                        tokens.push(mv.to_string());
                        moves += 1;
                    }
                    Err(fault) => {
                        end = End::Fault { seat, fault };
                        break;
                    }
                }
            }
        }
    }
    Played::of(&position, end, replay_line(newgame_args, &tokens), moves, started.elapsed(), slowest)
}
