//! `zatre-ceiling`: the ceiling of `search` against `greedy`. Arguments here; the work is in
//! `zatre_tools::ceiling`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use zatre::search::Limits;
use zatre_tools::ceiling::{run, CeilingConfig, CeilingReport, Seat};
use zatre_tools::referee::{rules_of, MAX_GAMES};

/// The ceiling of `search`: a clairvoyant player (the same search, knowing the draws of the bag or
/// the dice to come exactly) and `search` itself, each in one seat of a table of `greedy` players,
/// on the same draws, in-process.
///
/// The games follow `zatre-match`: the referee's dealer, the pair seeds of --seed, the seat of the
/// player under test rotating through every seat over each group of --players games. For each
/// player the report gives the games, first place (draws half) with its 95% interval, the mean
/// final score, the mean margin over the best other seat, what `greedy` got in the same seats on
/// the same draws (the group's game with `greedy` everywhere), the edge over it (first place and
/// margin, with 95% intervals over the groups), and the longest move; with --player both, the share
/// of the clairvoyant's edge that `search` gets.
///
/// Example: zatre-ceiling --players 4 --games 300 --movetime 100 --concurrency 2
#[derive(Parser, Debug)]
#[command(version, long_about)]
struct Args {
    /// Players at the table: one under test, the others greedy (2 to 6).
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// The variant: classic, dice or kids.
    #[arg(long, default_value = "classic")]
    variant: String,
    /// A rule option as `newgame` takes it, e.g. `--rule rules=cz3` (repeatable).
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
    /// Games of each player under test (at most 1,000,000, as `zatre-match`); best a multiple of
    /// --players.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(..=MAX_GAMES))]
    games: u64,
    /// The match seed: the draws of every group derive from it, as in `zatre-match`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time per move of the player under test in milliseconds (the default: 100).
    #[arg(long, value_name = "MS", conflicts_with = "nodes", value_parser = clap::value_parser!(u64).range(..=86_400_000))]
    movetime: Option<u64>,
    /// Nodes per move of the player under test instead of a time.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Search depth of the players under test, as `go depth` (default: the engine's, the next two
    /// turns with opponents; 3 or more: playouts of that many turns, which a clairvoyant plays
    /// on the true draws: a deeper ceiling).
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Games played at once (threads).
    #[arg(long, value_name = "K", default_value_t = 2)]
    concurrency: usize,
    /// The player under test: clairvoyant, search or both (the same games for each).
    #[arg(long, default_value = "both")]
    player: String,
    /// Write one JSON object per game to this file (JSON Lines): the referee's record with the
    /// player under test as engine 1, and greedy's scores and results on the same draws.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match ceiling(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("zatre-ceiling: {message}");
            ExitCode::from(2)
        }
    }
}

fn ceiling(args: Args) -> Result<(), String> {
    if !(2..=6).contains(&args.players) {
        return Err(format!("--players {}: the table takes 2 to 6 players (one under test)", args.players));
    }
    let rules = rules_of(&args.variant, args.players, &args.rules)?;
    let tested = match args.player.as_str() {
        "clairvoyant" => vec![Seat::Clairvoyant],
        "search" => vec![Seat::Search],
        "both" => vec![Seat::Clairvoyant, Seat::Search],
        other => return Err(format!("unknown --player '{other}' (clairvoyant, search or both)")),
    };
    if args.games == 0 {
        return Err("--games 0: nothing to play".to_string());
    }
    if args.concurrency == 0 {
        return Err("--concurrency 0: at least one game at a time".to_string());
    }
    let mut limits = match (args.nodes, args.movetime) {
        (Some(0), _) => return Err("--nodes 0: a search needs nodes".to_string()),
        (Some(n), _) => Limits { nodes: Some(n), ..Limits::default() },
        (None, Some(0)) => return Err("--movetime 0: a search needs time".to_string()),
        (None, ms) => {
            Limits { movetime: Some(Duration::from_millis(ms.unwrap_or(100))), ..Limits::default() }
        }
    };
    limits.depth = args.depth;
    if !args.games.is_multiple_of(u64::from(args.players)) {
        eprintln!(
            "zatre-ceiling: {} games is not a multiple of {} players: the last group is incomplete",
            args.games, args.players
        );
    }
    let config = CeilingConfig {
        rules,
        rule_args: args.rules,
        games: args.games,
        seed: args.seed,
        limits,
        concurrency: args.concurrency,
        tested,
        records: args.records,
        progress: std::io::stderr().is_terminal(),
    };
    let records = run(&config).map_err(|e| match &config.records {
        Some(path) => format!("{}: writing records: {e}", path.display()),
        None => format!("writing records: {e}"),
    })?;
    let limit = match (args.nodes, args.movetime) {
        (Some(n), _) => format!("{n} nodes"),
        (None, ms) => format!("{} ms", ms.unwrap_or(100)),
    } + &args.depth.map(|d| format!(", depth {d}")).unwrap_or_default();
    println!(
        "{} players, {}{}, seed {}, {} a move",
        config.rules.players,
        config.rules.variant,
        config.rule_args.iter().map(|r| format!(" {r}")).collect::<String>(),
        config.seed,
        limit
    );
    print!("{}", CeilingReport::from_records(&records).render());
    Ok(())
}
