//! `zatre-fit`: fits the evaluation's weights to the final scores of self-played games (or of one
//! strategy against others) and prints them, with the error before and after, on the games fitted
//! and on games held out.
//! Arguments and output here; the work is in `zatre_tools::fit`.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use zatre::rules::{Rules, Variant};
use zatre::search::{Limits, Strategy, Weights};
use zatre_tools::fit::{fit, free_weights, generate, loss, Plan, Sample, Sheets, HUBER_POINTS};

/// Fits the weights of the static evaluation (the per-turn rates of entries and marks, the cost of
/// kept tiles, the dice mark factor) to the final scores of self-played games, or of games of one
/// strategy against others (`--opponents`): the fitted weights predict the chosen sheets' final
/// scores (`--sheets`), from every position after a move, with the least mean Huber loss. The
/// games are seeded, so one command reproduces the fit.
///
/// Example: zatre-fit --games 400 --holdout 200 --seed 1 --nodes 20000 --jobs 2
///
/// Example: zatre-fit --players 4 --opponents greedy --sheets own --games 400 --holdout 200
#[derive(Parser, Debug)]
#[command(version, long_about)]
struct Cli {
    /// The variant: classic or dice (the kids' evaluation has no weights).
    #[arg(long, default_value = "classic")]
    variant: String,
    /// Players at the table (1 to 6); the classic weights are one set for one or two players,
    /// one for three, one for four or more.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// Rule options as `newgame` takes them, `key=value` (repeatable).
    #[arg(long, value_name = "KEY=VALUE")]
    rule: Vec<String>,
    /// Games to fit on (at least 1).
    #[arg(long, default_value_t = 400, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    games: usize,
    /// Games to check the fit on, seeded after the fitted ones.
    #[arg(long, default_value_t = 200)]
    holdout: usize,
    /// The seed of the first game; game i draws from seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The strategy of every seat (of one seat with --opponents): search, greedy or random.
    #[arg(long, default_value = "search")]
    strategy: String,
    /// The strategy of the other seats: search, greedy or random. The seat of --strategy rotates
    /// game by game (game i seats it at i % players). Without it every seat plays --strategy.
    #[arg(long)]
    opponents: Option<String>,
    /// Whose final scores are fitted: all, own (the sheet of --strategy's seat) or opponents;
    /// own and opponents need --opponents. A list (`own,all`) fits each in turn on the same games.
    #[arg(long, default_value = "all", value_delimiter = ',')]
    sheets: Vec<String>,
    /// Nodes per move (at least 1).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played at once, and threads of the fit.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// The most loss evaluations the fit spends (it always spends the first simplex's: one more
    /// than the weights fitted).
    #[arg(long, default_value_t = 3000)]
    max_evaluations: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("zatre-fit: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: &Cli) -> Result<(), String> {
    let variant = Variant::parse(&cli.variant).ok_or_else(|| format!("unknown variant '{}'", cli.variant))?;
    let free = free_weights(variant);
    if free.is_empty() {
        return Err(format!("the {} evaluation has no weights to fit", variant.name()));
    }
    let options: Vec<(&str, &str)> = cli
        .rule
        .iter()
        .map(|kv| kv.split_once('=').ok_or_else(|| format!("a rule is key=value, found '{kv}'")))
        .collect::<Result<_, _>>()?;
    let rules = Rules::with_options(variant, cli.players, options).map_err(|e| e.to_string())?;
    let strategy_of = |name: &str| Strategy::parse(name).ok_or_else(|| format!("unknown strategy '{name}'"));
    let strategy = strategy_of(&cli.strategy)?;
    let opponents = cli.opponents.as_deref().map(strategy_of).transpose()?;
    if opponents.is_some() && rules.teams {
        return Err("--opponents seats one strategy alone: it cannot share a team's sheet".into());
    }
    let sheet_sets: Vec<Sheets> = cli
        .sheets
        .iter()
        .map(|name| Sheets::parse(name).ok_or_else(|| format!("unknown sheets '{name}'")))
        .collect::<Result<_, _>>()?;
    if let Some(needy) = sheet_sets.iter().find(|&&s| s != Sheets::All).filter(|_| opponents.is_none()) {
        return Err(format!(
            "--sheets {} needs --opponents: in self-play every sheet is the strategy's",
            needy.name()
        ));
    }
    let limits = Limits { nodes: Some(cli.nodes), ..Limits::default() };
    let plan = |games: usize, seed: u64| Plan {
        rules: rules.clone(),
        games,
        seed,
        strategy,
        opponents,
        limits: limits.clone(),
        jobs: cli.jobs,
    };
    let samples = play(&plan(cli.games, cli.seed), "fitted games");
    let held = play(&plan(cli.holdout, cli.seed.wrapping_add(cli.games as u64)), "held-out games");
    let start = Weights::of(&rules);
    let seats = match opponents {
        Some(other) => format!("{} against {}", strategy.name(), other.name()),
        None => strategy.name().to_string(),
    };
    println!(
        "{} games ({} {} players, {seats} at nodes {}, seeds {}..): {} positions",
        cli.games,
        variant.name(),
        cli.players,
        cli.nodes,
        cli.seed,
        samples.len()
    );
    println!("today's: {}", rust(&start));
    for &sheets in &sheet_sets {
        let found = fit(&samples, &start, &free, sheets, cli.max_evaluations, cli.jobs);
        println!(
            "mean Huber loss (errors over {HUBER_POINTS} points count linearly) of the predicted final scores of {} sheets:",
            sheets.name()
        );
        println!(
            "  fitted games:   {:.1} with today's weights, {:.1} fitted ({} evaluations)",
            found.start_loss, found.loss, found.evaluations
        );
        if !held.is_empty() {
            println!(
                "  held-out games: {:.1} with today's weights, {:.1} fitted ({} games, {} positions)",
                loss(&held, &start, sheets, cli.jobs),
                loss(&held, &found.weights, sheets, cli.jobs),
                cli.holdout,
                held.len()
            );
            // With opponents, what the fit does to the sheets it did not see, on the held-out games.
            let others = [Sheets::Own, Sheets::Opponents].into_iter().filter(|&s| s != sheets);
            for other in others.filter(|_| opponents.is_some()) {
                println!(
                    "  held-out games, {} sheets: {:.1} with today's weights, {:.1} fitted",
                    other.name(),
                    loss(&held, &start, other, cli.jobs),
                    loss(&held, &found.weights, other, cli.jobs)
                );
            }
        }
        println!("fitted:  {}", rust(&found.weights));
    }
    Ok(())
}

/// Plays a plan's games with a progress bar on a terminal.
fn play(plan: &Plan, what: &str) -> Vec<Sample> {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::with_draw_target(Some(plan.games as u64), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} {elapsed}<{eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_message(what.to_string());
        bar
    });
    let samples = generate(plan, &|| {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    samples
}

/// The weights as the Rust expression `src/search/eval.rs` holds.
fn rust(w: &Weights) -> String {
    let list = |v: &[f64]| v.iter().map(|x| format!("{x:.3}")).collect::<Vec<_>>().join(", ");
    format!(
        "Weights {{ rates: [{}], mean_entry: [{}], mark_factor: {:.3}, hand: {:.3}, slopes: [{}] }}",
        list(&w.rates),
        list(&w.mean_entry),
        w.mark_factor,
        w.hand,
        list(&w.slopes)
    )
}
