//! zatre-huge-hands: plays seeded games in-process and prints the position line of every turn at
//! which the player to move holds many tiles (kept from earlier turns under the leftover rules), to
//! build the corpus of huge hands (`tests/golden/largest.txt`) and, with `--min-hand 3 --max-hand
//! 11`, that of middle hands (`tests/golden/middle-hands.txt`).
//!
//! Each printed line is `<seed> <turn> <hand size> <position line>`; the same position is
//! printed once. With `--per-hand N`, the positions are held until the games are over and at most
//! N of each hand size are printed, spread evenly over the games (for hand sizes that real games
//! reach much more often than others, as three tiles).

use std::collections::{BTreeMap, HashSet};
use std::io::Write;

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zatre::rules::{Game, Phase, Rules, Variant};
use zatre::search::greedy_choice;
use zatre_tools::rule_list::rule_pairs;

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
    /// The variant: `classic`, `dice` or `kids`.
    #[arg(long, default_value = "classic")]
    variant: String,
    /// Rule options, `key=value`, comma-separated (e.g. `rules=cz3` or `leftovers=cz4`).
    #[arg(long, default_value = "")]
    rules: String,
    /// `random` or `greedy`.
    #[arg(long, default_value = "random")]
    strategy: String,
    /// The least hand size printed.
    #[arg(long, default_value_t = 12)]
    min_hand: usize,
    /// The largest hand size printed (no limit when absent).
    #[arg(long)]
    max_hand: Option<usize>,
    /// At most this many positions of each hand size, spread evenly over those met, printed at
    /// the end (all of them, as they are met, when absent).
    #[arg(long)]
    per_hand: Option<usize>,
    /// Instead of real hands: at every `--stress`-th turn with a draw due, the board of the game
    /// with the hand to move filled up from the bag, at random, to 12 to 30 tiles (a stress test
    /// of the largest size on real boards; such hands are made up, not played).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
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
    let options = match rule_pairs(&args.rules) {
        Ok(pairs) => pairs,
        Err(e) => {
            eprintln!("zatre-huge-hands: --rules: {e}");
            std::process::exit(2);
        }
    };
    let options: Vec<(&str, &str)> = options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let Some(variant) = Variant::parse(&args.variant) else {
        eprintln!("unknown variant {}: classic, dice or kids", args.variant);
        std::process::exit(2);
    };
    let max_hand = args.max_hand.unwrap_or(usize::MAX);
    let rules = match Rules::with_options(variant, args.players, options.iter().copied()) {
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
    // With --per-hand: the positions met, by hand size.
    let mut held_back: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for seed in (0..args.games).map(|i| args.seed.wrapping_add(i)) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules.clone());
        while !game.position().is_over() {
            if let (Some(every), Phase::Draw) = (args.stress, game.position().phase()) {
                let pos = game.position();
                if pos.turn().is_multiple_of(every) && pos.board().count() > 0 {
                    let held = pos.hand_to_move().len();
                    let want = rng.random_range(12..=30usize).max(held);
                    let extra = (want - held).min(pos.bag().len());
                    if (args.min_hand..=max_hand).contains(&(held + extra)) {
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
            if (args.min_hand..=max_hand).contains(&hand) && args.stress.is_none() {
                let line = pos.to_line();
                if seen.insert(line.clone()) {
                    let record = format!("{seed} {} {hand} {line}", pos.turn());
                    if args.per_hand.is_some() {
                        held_back.entry(hand).or_default().push(record);
                    } else if writeln!(out, "{record}").and_then(|()| out.flush()).is_err() {
                        // A closed pipe ends the collection.
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
    if let Some(per_hand) = args.per_hand {
        for records in held_back.values() {
            for record in spread(records, per_hand) {
                if writeln!(out, "{record}").is_err() {
                    return;
                }
            }
        }
    }
}

/// At most `n` of `items`, evenly spaced: the middle one of each of `n` equal stretches.
fn spread<T>(items: &[T], n: usize) -> impl Iterator<Item = &T> {
    let len = items.len();
    let n = n.min(len);
    (0..n).map(move |j| &items[(2 * j + 1) * len / (2 * n)])
}
