//! `zatre-figures`: the published figures, their commands, their kept outputs and the generated
//! table. Arguments here; the work is in `zatre_tools::figures`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use zatre_tools::figures::{check, figure, run, values, write_tables, FIGURES};

/// The published figures of zatre: each with what it measures, the exact command that produces
/// it, its output kept under docs/figures/ and how the figure is read off it. The tables
/// (docs/figures.md and the README's figure table) are generated from the kept outputs.
///
/// Example: zatre-figures run bench && zatre-figures table && zatre-figures check
#[derive(Parser, Debug)]
#[command(version, long_about)]
struct Args {
    /// The repository root (the commands run there; the outputs and tables are under it).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    #[command(subcommand)]
    command: Action,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Every figure: its name, what it measures, its command, its kept output and its value today.
    List,
    /// Runs the command of one figure at the root and keeps its output (only when it succeeds).
    Run {
        /// The figure's name, as `list` shows it.
        name: String,
    },
    /// Writes docs/figures.md and the README's figure table from the kept outputs.
    Table,
    /// Fails when a kept output is missing or unreadable, when a table is not what `table` writes,
    /// or when a document quotes a figure the table does not hold.
    Check,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let root = &args.root;
    let result = match args.command {
        Action::List => {
            let kept = values(root).ok();
            for (k, f) in FIGURES.iter().enumerate() {
                let today = kept.as_ref().map_or("(a kept output is missing)", |v| v[k].1.as_str());
                println!(
                    "{}\n  what: {}\n  command: {}\n  kept output: {}\n  read off it: {}\n  today: {today}\n",
                    f.name, f.what, f.command, f.output, f.reading
                );
            }
            Ok(())
        }
        Action::Run { name } => {
            figure(&name).and_then(|f| run(root, f)).map(|value| println!("{name}: {value}"))
        }
        Action::Table => write_tables(root),
        Action::Check => {
            let problems = check(root);
            if problems.is_empty() {
                println!(
                    "the figures hold: {} kept outputs, the tables as written, every quoted figure in them",
                    FIGURES.len()
                );
                return ExitCode::SUCCESS;
            }
            for p in &problems {
                eprintln!("zatre-figures: {p}");
            }
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zatre-figures: {e}");
            ExitCode::FAILURE
        }
    }
}
