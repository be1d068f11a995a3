//! zatre-selfplay: plays seeded games between two built-in strategies in-process, in pairs with
//! the seats swapped and the same draws, and prints the games, the win rate of the first strategy
//! with its 95% interval, the mean scores and the mean margin. With `--players 1` it plays the
//! first strategy alone and prints its mean score.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Parser;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zatre::rules::{Position, Rules, Variant};
use zatre::search::{run, Limits, SearchOptions, Strategy};
use zatre_tools::jobs::map_indexed;
use zatre_tools::rule_list::rule_pairs;

#[derive(Parser, Debug)]
#[command(about = "Self-play between two zatre strategies")]
struct Args {
    /// First strategy: random, greedy or search.
    #[arg(long, default_value = "search")]
    a: String,
    /// Second strategy.
    #[arg(long, default_value = "greedy")]
    b: String,
    /// Number of games (pairs of games with swapped seats when two players; at least 1).
    #[arg(long, default_value_t = 100, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    games: usize,
    /// The variant: classic, dice or kids.
    #[arg(long, default_value = "classic")]
    variant: String,
    /// Players: 1 plays the first strategy alone; with more, the seats alternate between the two
    /// strategies (a's seats against b's, each side scored by its best seat).
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// Extra rule options, `key=value`, comma-separated.
    #[arg(long, default_value = "")]
    rules: String,
    /// Node limit per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Time per move in milliseconds (at most a day).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: Option<u64>,
    /// Stages of search, as `go depth` (default: the engine's).
    #[arg(long)]
    depth: Option<u32>,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Print every game.
    #[arg(long)]
    verbose: bool,
}

struct Game {
    /// Final totals of the strategies a and b (b absent alone).
    a: i64,
    b: i64,
    turns: u32,
}

fn strategy(name: &str) -> Strategy {
    Strategy::parse(name).unwrap_or_else(|| {
        eprintln!("zatre-selfplay: unknown strategy '{name}' (random, greedy or search)");
        std::process::exit(2)
    })
}

/// Plays one game; `a_seat` is the seat (0 or 1) of strategy a.
fn play(args: &Args, rules: &Rules, seed: u64, a_seat: usize) -> Game {
    let (sa, sb) = (strategy(&args.a), strategy(&args.b));
    let mut draws = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::new(rules.clone());
    let limits = Limits {
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        depth: args.depth,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    while !pos.is_over() {
        if pos.draw_random(&mut draws).is_err() {
            break;
        }
        let seat = pos.to_move();
        let s = if rules.sheet_of_seat(seat) % 2 == a_seat % 2 || rules.players == 1 { sa } else { sb };
        let options = SearchOptions {
            strategy: s,
            threads: 1,
            multipv: 1,
            seed: seed.wrapping_mul(31) ^ u64::from(pos.turn()),
            ..SearchOptions::default()
        };
        let Some(outcome) = run(&pos, &limits, &options, &stop, &mut |_| {}) else { break };
        if let Err(e) = pos.play(&outcome.best) {
            eprintln!("illegal move {} from {}: {e}", outcome.best, s.name());
            std::process::exit(1);
        }
    }
    let st = pos.standings();
    if args.verbose {
        for s in &st {
            eprintln!("{s}");
        }
    }
    let total = |parity: usize| {
        st.iter().enumerate().filter(|(i, _)| i % 2 == parity % 2).map(|(_, s)| s.total).max().unwrap_or(0)
    };
    if rules.players == 1 {
        Game { a: st[0].total, b: 0, turns: pos.turn() - 1 }
    } else {
        Game { a: total(a_seat), b: total(a_seat + 1), turns: pos.turn() - 1 }
    }
}

fn main() {
    env_logger::init();
    let args = Args::parse();
    let fail = |message: String| -> ! {
        eprintln!("zatre-selfplay: {message}");
        std::process::exit(2)
    };
    let variant = Variant::parse(&args.variant)
        .unwrap_or_else(|| fail(format!("unknown variant '{}' (classic, dice or kids)", args.variant)));
    let options = rule_pairs(&args.rules).unwrap_or_else(|e| fail(format!("--rules: {e}")));
    let options = options.iter().map(|(k, v)| (k.as_str(), v.as_str()));
    let rules = Rules::with_options(variant, args.players, options)
        .unwrap_or_else(|e| fail(format!("bad rules: {e}")));
    strategy(&args.a);
    strategy(&args.b);
    let alone = args.players == 1;
    let results = map_indexed(
        args.games,
        args.jobs,
        |i| {
            let (seed, a_seat) = if alone {
                (args.seed.wrapping_add(i as u64), 0)
            } else {
                (args.seed.wrapping_add((i / 2) as u64), i % 2)
            };
            let g = play(&args, &rules, seed, a_seat);
            if args.verbose {
                eprintln!("game {i} seed {seed} a-seat {} a {} b {} turns {}", a_seat + 1, g.a, g.b, g.turns);
            }
            g
        },
        || {},
    );
    let n = results.len() as f64;
    let mean = |f: &dyn Fn(&Game) -> f64| results.iter().map(f).sum::<f64>() / n;
    let sd = |f: &dyn Fn(&Game) -> f64, m: f64| {
        (results.iter().map(|g| (f(g) - m).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt()
    };
    let turns = mean(&|g| f64::from(g.turns));
    if alone {
        let m = mean(&|g| g.a as f64);
        let s = sd(&|g| g.a as f64, m);
        println!(
            "{} alone, {} {} games: mean score {:.2} (sd {:.2}, 95% +-{:.2}), mean turns {:.1}",
            args.a,
            args.variant,
            results.len(),
            m,
            s,
            1.96 * s / n.sqrt(),
            turns
        );
        return;
    }
    let wins = results.iter().filter(|g| g.a > g.b).count();
    let draws = results.iter().filter(|g| g.a == g.b).count();
    let losses = results.len() - wins - draws;
    let p = (wins as f64 + 0.5 * draws as f64) / n;
    let half = 1.96 * (p * (1.0 - p) / n).sqrt();
    let margin = mean(&|g| (g.a - g.b) as f64);
    let msd = sd(&|g| (g.a - g.b) as f64, margin);
    println!("| a | b | games | a wins-draws-losses | a score rate (95%) | mean a | mean b | mean margin |");
    println!("|---|---|---|---|---|---|---|---|");
    println!(
        "| {} | {} | {} | {}-{}-{} | {:.1}% ({:.1}-{:.1}%) | {:.1} | {:.1} | {:+.1} (+-{:.1}) |",
        args.a,
        args.b,
        results.len(),
        wins,
        draws,
        losses,
        100.0 * p,
        100.0 * (p - half).max(0.0),
        100.0 * (p + half).min(1.0),
        mean(&|g| g.a as f64),
        mean(&|g| g.b as f64),
        margin,
        1.96 * msd / n.sqrt()
    );
    println!("mean turns {turns:.1}");
}
