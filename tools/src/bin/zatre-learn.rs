//! `zatre-learn`: the learned evaluation's pipeline (issue 46). `play` writes self-play data:
//! seeded games with every sampled position's targets, to a file `--resume` goes on with.
//! Arguments and output here; the work is in `zatre_tools::learn`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use zatre::rules::{Rules, Variant};
use zatre::search::Strategy;
use zatre_tools::learn::data::Settings;
use zatre_tools::learn::play::run_to_file;
use zatre_tools::progress;
use zatre_tools::rule_list::rule_pairs;

/// The learned evaluation's pipeline: self-play data (`play`).
#[derive(Parser, Debug)]
#[command(version, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Play(PlayArgs),
}

/// Plays seeded games, every seat by one strategy with a share of exploring moves, and writes
/// each game (its draws and moves, replayable) with the targets of a sampled share of its
/// positions: every sheet's points still to come and final rank. The file's format is described
/// in tools/README.md. The same settings and seed give the same file byte for byte, whatever
/// `--jobs`; a run stopped at any moment (Ctrl-C, kill) leaves whole games, and `--resume` with
/// the same command appends the games not yet written (or more, with a larger `--games`).
///
/// Example: zatre-learn play --players 4 --rules rules=cz4 --nodes 2000 --explore 0.1 --seed 100000000 --games 5000 --out cz4.data
#[derive(Args, Debug)]
#[command(long_about)]
struct PlayArgs {
    /// The variant: classic, dice or kids.
    #[arg(long, default_value = "classic")]
    variant: String,
    /// Players at the table (1 to 6).
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// Rule options, `key=value` joined by commas (`rules=cz3`, `scoring=dots`).
    #[arg(long, default_value = "")]
    rules: String,
    /// The strategy of every seat: search or greedy.
    #[arg(long, default_value = "search")]
    strategy: String,
    /// The node limit of a search move (greedy looks at up to 10^6 moves; no clock: reproducible).
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// The share of moves (0 to 1) chosen uniformly at random among greedy's best --top instead.
    #[arg(long, default_value_t = 0.0)]
    explore: f64,
    /// How many of greedy's best moves exploration chooses among.
    #[arg(long, default_value_t = 3)]
    top: usize,
    /// The share of positions after a move (0 to 1) whose targets are written.
    #[arg(long, default_value_t = 0.25)]
    sample: f64,
    /// The seed of game 0; game i draws from seed + i.
    #[arg(long)]
    seed: u64,
    /// Games the file is to hold.
    #[arg(long)]
    games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// The data file.
    #[arg(long)]
    out: PathBuf,
    /// Go on with an existing file of the same settings (without it, the file must not exist).
    #[arg(long)]
    resume: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Play(args) => play(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("zatre-learn: {message}");
            ExitCode::from(2)
        }
    }
}

/// The rules of `--variant`, `--players` and `--rules`.
fn rules_of(variant: &str, players: u8, options: &str) -> Result<Rules, String> {
    let variant = Variant::parse(variant).ok_or_else(|| format!("unknown variant '{variant}' (classic, dice or kids)"))?;
    let pairs = rule_pairs(options).map_err(|e| format!("--rules: {e}"))?;
    Rules::with_options(variant, players, pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| format!("bad rules: {e}"))
}

fn play(args: &PlayArgs) -> Result<(), String> {
    let settings = Settings {
        rules: rules_of(&args.variant, args.players, &args.rules)?,
        strategy: Strategy::parse(&args.strategy).ok_or_else(|| format!("unknown strategy '{}'", args.strategy))?,
        nodes: args.nodes,
        explore: args.explore,
        top: args.top,
        sample: args.sample,
        seed: args.seed,
    };
    settings.check()?;
    let started = Instant::now();
    let bar = std::io::stderr()
        .is_terminal()
        .then(|| progress::bar(args.games as u64, "{bar:30} {pos}/{len} games {elapsed}<{eta}"));
    // Without a terminal (a log), a line at every hundredth of the run.
    let step = (args.games / 100).max(1);
    let on_game = |held: usize| match &bar {
        Some(bar) => bar.set_position(held as u64),
        None if held % step == 0 || held == args.games => {
            eprintln!("{held}/{} games, {:.0} s", args.games, started.elapsed().as_secs_f64());
        }
        None => {}
    };
    let summary = run_to_file(&settings, args.games, args.jobs, &args.out, args.resume, &on_game);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let summary = summary?;
    eprintln!(
        "{}: {} games ({} written now), {:.1} s",
        args.out.display(),
        summary.after,
        summary.after - summary.before,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
