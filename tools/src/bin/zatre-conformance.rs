//! `zatre-conformance`: checks an engine against protocol/PROTOCOL.md. Arguments and the report
//! here; the checks are in `zatre_tools::conformance`.

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use zatre_tools::conformance::{run, Config};

/// The conformance kit: starts an engine that speaks the zatre text protocol and checks it
/// against protocol/PROTOCOL.md: the framing and ids, every command's answers and errors (in
/// version 3 their reason keys), reads while `go` runs, `stop`, `isready`, `quit`, the end of
/// input, `movetime` and `nodes` limits, bad input, and a game played to its end with moves the
/// rules core judges.
///
/// The engine is a command line run by `sh -c`, started afresh for each group of checks. Every
/// read has a deadline (--timeout-ms), so an engine that hangs fails its check and never hangs
/// the kit. Each failure names the section of PROTOCOL.md it breaks.
///
/// Example: zatre-conformance --engine "target/release/zatre"
///
/// Exit status: 0 when every check passed, 1 when one failed, 2 when the engine could not be run
/// (not started, or no answer to its first `isready`) or on a usage error.
#[derive(Parser, Debug)]
#[command(name = "zatre-conformance", version = zatre::cli::VERSION, long_about)]
struct Cli {
    /// The engine's command line, run by `sh -c`.
    #[arg(long, value_name = "COMMAND")]
    engine: String,
    /// The protocol version to check, 2 or 3; without it the highest the engine accepts (3 when
    /// it answers `protocol 3`).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=3))]
    protocol: Option<u8>,
    /// How long any read waits for the engine, in milliseconds.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    timeout_ms: u64,
    /// How much longer than its `movetime` a `go` may take, in milliseconds.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(0..=600_000))]
    tolerance_ms: u64,
    /// The seed of the game played to its end.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print only the failures and the summary.
    #[arg(long)]
    quiet: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut config = Config::new(&cli.engine);
    config.protocol = cli.protocol;
    config.timeout = Duration::from_millis(cli.timeout_ms);
    config.tolerance = Duration::from_millis(cli.tolerance_ms);
    config.seed = cli.seed;
    match run(&config) {
        Ok(report) => {
            let text = report.text();
            for line in text.lines() {
                if !cli.quiet || !line.starts_with("ok ") {
                    println!("{line}");
                }
            }
            if report.passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("zatre-conformance: {e}");
            ExitCode::from(2)
        }
    }
}
