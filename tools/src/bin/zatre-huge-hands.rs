//! zatre-huge-hands: plays seeded classic games in-process and prints the position line of every
//! turn at which the player to move holds many tiles (kept from earlier turns under the leftover
//! rules), to build the corpus of huge hands (`tests/golden/largest.txt`).
//!
//! Each printed line is `<seed> <turn> <hand size> <position line>`; the same position is
//! printed once.

use std::collections::HashSet;
use std::io::Write;

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zatre::rules::{Game, Phase, Rules, Variant};
use zatre::search::greedy_choice;

#[derive(Parser, Debug)]
#[command(about = "Collects positions with huge hands from seeded in-process games")]
struct Args {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of players.
    #[arg(long, default_value_t = 1)]
    players: u8,
    /// Rule options, `key=value`, comma-separated (e.g. `rules=cz3` or `leftovers=cz4`).
    #[arg(long, default_value = "")]
    rules: String,
    /// `random` or `greedy`.
    #[arg(long, default_value = "random")]
    strategy: String,
    /// The least hand size printed.
    #[arg(long, default_value_t = 12)]
    min_hand: usize,
    /// Instead of real hands: at every `--stress`-th turn with a draw due, the board of the game
    /// with the hand to move filled up from the bag, at random, to 12 to 30 tiles (a stress test
    /// of the largest size on real boards; such hands are made up, not played).
    #[arg(long)]
    stress: Option<u32>,
}

/// The position line with `extra` tiles drawn at random from the bag added to the hand to move.
fn with_bigger_hand(line: &str, to_move: usize, extra: usize, rng: &mut ChaCha8Rng) -> Option<String> {
    let mut fields: Vec<String> = line.split(' ').map(str::to_string).collect();
    let bag_at = fields.iter().position(|f| f.starts_with("bag="))?;
    let hands_at = fields.iter().position(|f| f.starts_with("hands="))?;
    let counts: Vec<u8> = fields[bag_at][4..].split(',').map(|c| c.parse().ok()).collect::<Option<_>>()?;
    let mut bag = zatre::rules::Tiles::empty();
    for (v, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            bag.add(v as u8 + 1);
        }
    }
    let mut hands: Vec<String> = fields[hands_at][6..].split('/').map(str::to_string).collect();
    let hand = hands.get_mut(to_move)?;
    if hand == "-" {
        hand.clear();
    }
    for _ in 0..extra {
        let v = bag.take_random(rng)?;
        hand.push(char::from(b'0' + v));
    }
    fields[bag_at] =
        format!("bag={}", (1..=6).map(|v| bag.count(v).to_string()).collect::<Vec<_>>().join(","));
    fields[hands_at] = format!("hands={}", hands.join("/"));
    Some(fields.join(" "))
}

fn main() {
    let args = Args::parse();
    let options: Vec<(&str, &str)> =
        args.rules.split(',').filter(|s| !s.is_empty()).filter_map(|kv| kv.split_once('=')).collect();
    let rules = match Rules::with_options(Variant::Classic, args.players, options.iter().copied()) {
        Ok(rules) => rules,
        Err(e) => {
            eprintln!("bad rules: {e}");
            std::process::exit(2);
        }
    };
    let greedy = match args.strategy.as_str() {
        "greedy" => true,
        "random" => false,
        other => {
            eprintln!("unknown strategy {other}: random or greedy");
            std::process::exit(2);
        }
    };
    let mut seen = HashSet::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for seed in args.seed..args.seed + args.games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules.clone());
        while !game.position().is_over() {
            if let (Some(every), Phase::Draw) = (args.stress, game.position().phase()) {
                let pos = game.position();
                if pos.turn().is_multiple_of(every) && pos.board().count() > 0 {
                    let held = pos.hand_to_move().len();
                    let want = rng.random_range(12..=30usize).max(held);
                    let extra = (want - held).min(pos.bag().len());
                    if held + extra >= args.min_hand {
                        let line = pos.to_line().replace("phase=draw", "phase=place");
                        if let Some(line) = with_bigger_hand(&line, pos.to_move(), extra, &mut rng) {
                            if writeln!(out, "{seed} {} {} {line}", pos.turn(), held + extra)
                                .and_then(|()| out.flush())
                                .is_err()
                            {
                                return;
                            }
                        }
                    }
                }
            }
            if game.position().phase() == Phase::Draw {
                if let Err(e) = game.draw_random(&mut rng) {
                    eprintln!("seed {seed}: {e}");
                    break;
                }
                continue;
            }
            let pos = game.position().clone();
            let hand = pos.hand_to_move().len();
            if hand >= args.min_hand && args.stress.is_none() {
                let line = pos.to_line();
                if seen.insert(line.clone()) {
                    // A closed pipe ends the collection.
                    if writeln!(out, "{seed} {} {hand} {line}", pos.turn())
                        .and_then(|()| out.flush())
                        .is_err()
                    {
                        return;
                    }
                }
            }
            let chosen = if greedy {
                greedy_choice(&pos).unwrap_or_else(zatre::rules::Move::pass)
            } else {
                pos.movegen().random_legal(&mut rng, 1000).0
            };
            if let Err(e) = game.play(&chosen) {
                eprintln!("seed {seed}: the chosen move {chosen} is not legal: {e}");
                break;
            }
        }
    }
}
