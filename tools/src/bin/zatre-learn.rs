//! `zatre-learn`: the learned evaluation's pipeline. `play` writes self-play data: seeded games
//! with every sampled position's targets, to a file `--resume` goes on with; `diagnose` measures
//! what the board tells; `train` makes the engine's learned model of a table.
//! Arguments and output here; the work is in `zatre_tools::learn`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use zatre::rules::Position;
use zatre::rules::{Rules, Variant};
use zatre::search::Strategy;
use zatre_tools::learn::data::{read, DataFile, Settings};
use zatre_tools::learn::diagnose::{
    errors, errors_of, examples, noise_floor, table_name, Errors, Example, Inputs, Linear,
};
use zatre_tools::learn::features::sheet_order;
use zatre_tools::learn::play::run_to_file;
use zatre_tools::progress;
use zatre_tools::rule_list::rule_pairs;

/// The learned evaluation's pipeline: self-play data (`play`), the diagnostic of what the board
/// tells (`diagnose`).
#[derive(Parser, Debug)]
#[command(version, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Play(PlayArgs),
    Diagnose(DiagnoseArgs),
    Train(TrainArgs),
}

/// Trains the learned evaluation of one table: a ridge least-squares fit of each sheet's points
/// still to come, less today's evaluation, on the features of the games of `--train` (`--inputs`;
/// sheets from the player to move), written as the engine's model file
/// (src/search/learned/model.rs). Reports the held-out errors of today's evaluation and of the
/// model (through the engine's own inference) on the games of `--test`.
///
/// Example: zatre-learn train --train search-4p.data --test diag-4p.data --out src/search/learned/weights/classic-4-de.txt
#[derive(Args, Debug)]
#[command(long_about)]
struct TrainArgs {
    #[command(flatten)]
    data: DataArgs,
    /// The ridge penalty on the standardised inputs.
    #[arg(long, default_value_t = 1.0)]
    ridge: f64,
    /// The inputs of the correction: `all` (the game's, the bag's, the board's and every
    /// sheet's) or `position` (all but the sheets' own: a move changes the correction only
    /// through the board it leaves).
    #[arg(long, default_value = "all")]
    inputs: String,
    /// The model file to write.
    #[arg(long)]
    out: PathBuf,
}

/// The training and held-out data of `diagnose` and `train`.
#[derive(Args, Debug)]
struct DataArgs {
    /// Training data files (comma-separated), of the same rules as --test.
    #[arg(long, value_delimiter = ',', required = true)]
    train: Vec<PathBuf>,
    /// At most this many games of each training file (the first ones).
    #[arg(long)]
    train_games: Option<usize>,
    /// The held-out data file (seeds kept apart from training: 2,000,000,000 and up).
    #[arg(long)]
    test: PathBuf,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
}

/// Does the board carry signal? On the held-out games of `--test`, the error at predicting each
/// sheet's points still to come of today's evaluation, of it plus a linear model over the sheet
/// features, and of it plus a linear model over the sheet and board features (both fitted by ridge
/// least squares on the games of `--train`), beside the noise floor: positions of the held-out
/// games played on with other draws, the spread of their outcomes. One Markdown table row.
///
/// Example: zatre-learn diagnose --train search-c4.data --test diag-c4.data --floor-positions 200 --continuations 12
#[derive(Args, Debug)]
#[command(long_about)]
struct DiagnoseArgs {
    #[command(flatten)]
    data: DataArgs,
    /// The ridge penalty on the standardised inputs.
    #[arg(long, default_value_t = 1.0)]
    ridge: f64,
    /// Positions of the noise floor, evenly spread over the held-out samples (0: no floor).
    #[arg(long, default_value_t = 200)]
    floor_positions: usize,
    /// Continuations of each noise-floor position (at least 2).
    #[arg(long, default_value_t = 12)]
    continuations: usize,
    /// Continuation j of floor position i draws from this seed + 1000 i + j.
    #[arg(long, default_value_t = 2_050_000_000)]
    floor_seed: u64,
    /// Print the table's header first.
    #[arg(long)]
    header: bool,
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
        Command::Diagnose(args) => diagnose(args),
        Command::Train(args) => train(args),
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
    let variant = Variant::parse(variant)
        .ok_or_else(|| format!("unknown variant '{variant}' (classic, dice or kids)"))?;
    let pairs = rule_pairs(options).map_err(|e| format!("--rules: {e}"))?;
    Rules::with_options(variant, players, pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| format!("bad rules: {e}"))
}

fn play(args: &PlayArgs) -> Result<(), String> {
    let settings = Settings {
        rules: rules_of(&args.variant, args.players, &args.rules)?,
        strategy: Strategy::parse(&args.strategy)
            .ok_or_else(|| format!("unknown strategy '{}'", args.strategy))?,
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
        None if held.is_multiple_of(step) || held == args.games => {
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

/// Reads a data file whole.
fn load(path: &std::path::Path) -> Result<DataFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The examples of `diagnose` and `train`: the training files' and the held-out file's (with each
/// held-out sample's position), the held-out file, and the training games.
struct Loaded {
    train: Vec<Example>,
    train_games: usize,
    test: DataFile,
    test_examples: Vec<Example>,
    positions: Vec<Position>,
}

fn load_examples(args: &DataArgs) -> Result<Loaded, String> {
    let test = load(&args.test)?;
    let mut train = Vec::new();
    let mut train_games = 0;
    for (f, path) in args.train.iter().enumerate() {
        let mut data = load(path)?;
        if data.settings.rules != test.settings.rules {
            return Err(format!("{} is of other rules than {}", path.display(), args.test.display()));
        }
        if let Some(n) = args.train_games {
            data.games.truncate(n);
        }
        train_games += data.games.len();
        train.extend(examples(&data, f + 1, args.jobs)?.into_iter().map(|(e, _)| e));
    }
    let (test_examples, positions): (Vec<_>, Vec<_>) = examples(&test, 0, args.jobs)?.into_iter().unzip();
    if train.is_empty() || test_examples.is_empty() {
        return Err("no samples to fit on or to test".into());
    }
    Ok(Loaded { train, train_games, test, test_examples, positions })
}

/// An error cell pair: RMSE and MAE with their intervals.
fn cell(e: &Errors) -> String {
    format!(
        "{:.2} ({:.2}-{:.2}) | {:.2} ({:.2}-{:.2})",
        e.rmse.value, e.rmse.low, e.rmse.high, e.mae.value, e.mae.low, e.mae.high
    )
}

fn train(args: &TrainArgs) -> Result<(), String> {
    let started = Instant::now();
    let Loaded { train, train_games, test, test_examples, positions } = load_examples(&args.data)?;
    let rules = &test.settings.rules;
    let inputs = match args.inputs.as_str() {
        "all" => Inputs::Board,
        "position" => Inputs::Position,
        other => return Err(format!("--inputs takes all or position, not '{other}'")),
    };
    let fit = Linear::fit(&train, inputs, args.ridge);
    let model = fit.to_model(rules)?;
    // The held-out errors through the engine's inference, which is what the search will see.
    let mut errs = Vec::new();
    for (e, pos) in test_examples.iter().zip(&positions) {
        let values = model.values_of(pos).ok_or("the model does not read the held-out positions")?;
        let totals = zatre_tools::learn::data::totals(pos);
        for (&sheet, y) in sheet_order(pos).iter().zip(&e.target) {
            errs.push((e.game.1, y - (values[sheet] - totals[sheet] as f64)));
        }
    }
    let learned = errors(&errs);
    let eval = errors_of(&test_examples, &|e| e.eval.clone());
    // The files by name only, so that the model is the same wherever its data was kept.
    let files: Vec<String> = args
        .data
        .train
        .iter()
        .map(|p| p.file_name().unwrap_or(p.as_os_str()).to_string_lossy().into_owned())
        .collect();
    let comments = vec![
        format!(
            "{}: trained by zatre-learn train, inputs {}, ridge {}",
            table_name(rules),
            args.inputs,
            args.ridge
        ),
        format!("on {train_games} games ({} positions) of {}", train.len(), files.join(", ")),
        format!(
            "held out {} games ({} positions): RMSE of today's evaluation {:.2}, of this model {:.2}",
            test.games.len(),
            test_examples.len(),
            eval.rmse.value,
            learned.rmse.value
        ),
    ];
    std::fs::write(&args.out, model.write(&comments))
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "| {} | {train_games}, {} | {}, {} | {} | {} |",
        table_name(rules),
        train.len(),
        test.games.len(),
        test_examples.len(),
        cell(&eval),
        cell(&learned)
    );
    eprintln!("train: {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn diagnose(args: &DiagnoseArgs) -> Result<(), String> {
    let started = Instant::now();
    let Loaded { train, train_games, test, test_examples, positions } = load_examples(&args.data)?;
    let sheets = Linear::fit(&train, Inputs::Sheets, args.ridge);
    let board = Linear::fit(&train, Inputs::Board, args.ridge);
    let eval = errors_of(&test_examples, &|e| e.eval.clone());
    let with_sheets = errors_of(&test_examples, &|e| sheets.predict(e));
    let with_board = errors_of(&test_examples, &|e| board.predict(e));
    let floor = if args.floor_positions > 0 {
        let step = (positions.len() as f64 / args.floor_positions as f64).max(1.0);
        let chosen: Vec<_> = (0..args.floor_positions.min(positions.len()))
            .map(|i| positions[(i as f64 * step) as usize].clone())
            .collect();
        Some((
            chosen.len(),
            noise_floor(&chosen, &test.settings, args.continuations, args.floor_seed, args.data.jobs)?,
        ))
    } else {
        None
    };
    if args.header {
        println!("| table | training games, positions | held-out games, positions | today's evaluation: RMSE (95%) | MAE (95%) | + linear, sheet features: RMSE | MAE | + linear, sheet and board features: RMSE | MAE | noise floor (positions x continuations): RMSE | MAE |");
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
    }
    let floor_cells = match &floor {
        Some((n, e)) => format!(
            "{:.2} ({:.2}-{:.2}), {n} x {} | {:.2} ({:.2}-{:.2})",
            e.rmse.value, e.rmse.low, e.rmse.high, args.continuations, e.mae.value, e.mae.low, e.mae.high
        ),
        None => "- | -".into(),
    };
    println!(
        "| {} | {train_games}, {} | {}, {} | {} | {} | {} | {floor_cells} |",
        table_name(&test.settings.rules),
        train.len(),
        test.games.len(),
        test_examples.len(),
        cell(&eval),
        cell(&with_sheets),
        cell(&with_board),
    );
    eprintln!("diagnose: {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}
