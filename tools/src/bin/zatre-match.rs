//! `zatre-match`: the referee. Plays matches between engines over the text protocol, merges the
//! records of shards into one report, or compares two matches game by game. Arguments here; the work is in `zatre_tools::referee`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand};
use zatre_tools::referee::{
    exit_on_signals, merge_records, read_records, rules_of, run, Comparison, Limits, MatchConfig, MatchError,
    Report, Shard, Sprt, MAX_GAMES,
};

/// The zatre referee: plays games between engines that speak the zatre text protocol, judging
/// every move with the rules core.
///
/// Each --engine is a command line run by `sh -c` (so quotes, redirections and environment
/// assignments work), in a process group of its own that the referee kills when it is done or when
/// the engine faults. With k engines every game has k players, and the games come in groups of k
/// with the seats rotated and the same draws (pairs with swapped seats for two engines); the
/// referee owns the bag and tells each engine the draws and moves with
/// `position startpos ... moves ...` before each `go`.
///
/// An engine that answers an illegal move, does not answer `go` within its time plus --margin,
/// exits, or breaks the framing loses that game; the record says why, and a fresh process
/// replaces it.
///
/// Example: zatre-match --engine "target/release/zatre --option Strategy=greedy"
/// --engine "target/release/zatre --option Strategy=random" --games 100 --movetime 50
///
/// `zatre-match merge` makes one report of the records of a match's shards, `zatre-match
/// compare` compares an engine's results in two matches game by game (docs/referee.md). Exit
/// status: 0 when the report is printed, 2 on a usage error, bad records or an engine that cannot
/// start, 128 + the signal when interrupted.
#[derive(Parser, Debug)]
#[command(name = "zatre-match", version = zatre::cli::VERSION, long_about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Combines records files (of the shards of one match) into one report.
    Merge {
        /// The SPRT to evaluate on the merged pairs, as `elo0,elo1`.
        #[arg(long, value_name = "ELO0,ELO1")]
        sprt: Option<String>,
        /// JSON Lines records files written by --records.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Compares one engine's results in two matches played on the same seed, game by game: the
    /// change of its win rate, margin and score with 95% intervals (the luck of the draws cancels).
    Compare {
        /// The engine to compare, by its place in the order of --engine (from 1).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        engine: u16,
        /// The records of the first match (--records).
        first: PathBuf,
        /// The records of the second match, with the same --seed, engines' seating and rules.
        second: PathBuf,
    },
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// An engine's command line (repeat: one per seat; at least one).
    #[arg(long = "engine", value_name = "COMMAND")]
    engines: Vec<String>,
    /// Games in the whole match (over all shards; at most 1,000,000); best a multiple of the
    /// number of engines.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// The match seed: the draws of every pair derive from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time per move in milliseconds, sent as `go movetime <ms>` (the default: 100).
    #[arg(long, value_name = "MS", conflicts_with = "nodes", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Nodes per move, sent as `go nodes <n>`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Search depth, sent as `go ... depth <d>` to every engine (the strategies that do not
    /// search ignore it): to measure a stage of `search`, e.g. `--nodes 300000 --depth 1`.
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// How much longer than --movetime an engine may take before it loses on time; also the
    /// limit for every command other than `go`.
    #[arg(long, value_name = "MS", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    margin: u64,
    /// The limit for `go` with --nodes (or to override movetime + margin).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,
    /// The limit for the first command after an engine starts (its `newgame`), for engines slow
    /// to start (default: --margin, as every command other than `go`).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    startup_timeout: Option<u64>,
    /// The variant: classic, dice or kids.
    #[arg(long, default_value = "classic")]
    variant: String,
    /// A rule option as `newgame` takes it, e.g. `--rule center_cross=never` (repeatable).
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
    /// Games played at once, each thread with its own engine processes (default: the cores).
    #[arg(long, value_name = "K")]
    concurrency: Option<usize>,
    /// Write one JSON object per game to this file (JSON Lines).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// Play only the i-th of n slices of the game list (whole pairs), e.g. 3/10.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Stop early when a sequential test of elo0 against elo1 (first engine minus second,
    /// alpha = beta = 0.05, on game pairs) decides; two engines only.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
}

fn main() -> ExitCode {
    if let Some(code) = zatre::cli::print_manpage_if_asked(Cli::command) {
        return code;
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Merge { sprt, files }) => merge(sprt.as_deref(), &files),
        Some(Command::Compare { engine, first, second }) => compare(engine, &first, &second),
        None => play(cli.play),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("zatre-match: {message}");
            ExitCode::from(2)
        }
    }
}

fn parse_sprt(text: Option<&str>) -> Result<Option<Sprt>, String> {
    text.map(Sprt::parse).transpose()
}

fn merge(sprt: Option<&str>, files: &[PathBuf]) -> Result<ExitCode, String> {
    let sprt = parse_sprt(sprt)?;
    let mut parts = Vec::new();
    for file in files {
        let records = read_records(file).map_err(|e| e.to_string())?;
        parts.push((file.display().to_string(), records));
    }
    let (records, duplicates) = merge_records(parts)?;
    if records.is_empty() {
        return Err("the records files hold no game".to_string());
    }
    if duplicates > 0 {
        eprintln!("zatre-match: {duplicates} duplicate games ignored");
    }
    print!("{}", Report::from_records(&records).render(sprt.as_ref()));
    Ok(ExitCode::SUCCESS)
}

fn compare(engine: u16, first: &Path, second: &Path) -> Result<ExitCode, String> {
    let read = |path: &Path| match read_records(path) {
        Ok(records) if records.is_empty() => Err(format!("{}: the file holds no game", path.display())),
        Ok(records) => Ok(records),
        Err(e) => Err(e.to_string()),
    };
    let engine = usize::from(engine - 1);
    print!("{}", Comparison::of(&read(first)?, &read(second)?, engine)?.render());
    Ok(ExitCode::SUCCESS)
}

fn play(args: PlayArgs) -> Result<ExitCode, String> {
    if args.engines.is_empty() {
        return Err("give at least one --engine (see --help)".to_string());
    }
    let players = u8::try_from(args.engines.len())
        .ok()
        .filter(|p| (1..=6).contains(p))
        .ok_or_else(|| format!("{} engines: a game takes 1 to 6 players", args.engines.len()))?;
    let rules = rules_of(&args.variant, players, &args.rules)?;
    let sprt = parse_sprt(args.sprt.as_deref())?;
    if sprt.is_some() && args.engines.len() != 2 {
        return Err("--sprt needs exactly two engines".to_string());
    }
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?.unwrap_or(Shard::ALL);
    let (mut go, default_timeout) = match (args.nodes, args.movetime) {
        (Some(n), _) => (format!("nodes {n}"), 60_000),
        (None, movetime) => {
            let ms = movetime.unwrap_or(100);
            let limit = ms.checked_add(args.margin).ok_or("--movetime plus --margin is too large")?;
            (format!("movetime {ms}"), limit)
        }
    };
    if let Some(d) = args.depth {
        go.push_str(&format!(" depth {d}"));
    }
    let limits = Limits {
        go,
        go_timeout: Duration::from_millis(args.timeout.unwrap_or(default_timeout)),
        command_timeout: Duration::from_millis(args.margin),
    };
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
        .max(1);
    if !args.games.is_multiple_of(args.engines.len() as u64) {
        eprintln!(
            "zatre-match: {} games is not a multiple of {} engines: the last group is incomplete",
            args.games,
            args.engines.len()
        );
    }
    let config = MatchConfig {
        engines: args.engines,
        games: args.games,
        seed: args.seed,
        rules,
        rule_args: args.rules,
        limits,
        startup_timeout: args.startup_timeout.map(Duration::from_millis),
        concurrency,
        shard,
        sprt,
        records: args.records,
        progress: std::io::stderr().is_terminal(),
    };
    exit_on_signals(|signal| {
        eprintln!("zatre-match: stopped by signal {signal}; the engines are killed");
        std::process::exit(128 + signal)
    })
    .map_err(|e| format!("handling signals: {e}"))?;
    let result = run(&config).map_err(|e| match (&e, &config.records) {
        (MatchError::Records(_), Some(path)) => format!("{}: {e}", path.display()),
        _ => e.to_string(),
    })?;
    if result.records.len() < result.planned {
        eprintln!(
            "zatre-match: stopped after {} of {} games (sprt decided)",
            result.records.len(),
            result.planned
        );
    }
    print!("{}", Report::from_records(&result.records).render(config.sprt.as_ref()));
    Ok(ExitCode::SUCCESS)
}
