//! `zatre-naive-perft`: the naive reference move counter (see `zatre_tools::naive`).
//!
//! ```text
//! zatre-naive-perft                 # stdin: `<depth> <position line>` per line
//! zatre-naive-perft --depth D       # stdin: `<position line>` per line
//! zatre-naive-perft --regenerate    # stdin: golden file, stdout: it with fresh counts
//! zatre-naive-perft --check         # stdin: golden file, exit 1 on a wrong count
//! zatre-naive-perft --list          # stdin: `<position line>`, stdout: its legal moves
//! ```

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use zatre_tools::naive::driver::{process_line, LineOutput, Mode};
use zatre_tools::naive::error::NaiveError;

/// What `--help` prints.
const HELP: &str = "\
zatre-naive-perft: the naive reference move counter (tools/src/naive, no code shared with the
engine's rules core), reading position lines from stdin.

Usage: zatre-naive-perft [--depth D | --regenerate | --check | --list] < lines

  (no flag)      each line `<depth> <position line>`: prints its perft count
  --depth D      each line a position line: prints its perft count at depth D
  --regenerate   stdin a golden file (tests/golden/perft.txt): prints it with fresh counts
  --check        stdin a golden file: prints each count that differs (exit status 1)
  --list         each line a position line (phase=place): prints its legal moves, sorted
  -h, --help     this text

Exit status: 0, 1 when --check finds a count that differs, 2 on a bad flag or line.
";

/// Reads the mode from the command line arguments.
fn parse_args(args: &[String]) -> Result<Mode, NaiveError> {
    match args {
        [] => Ok(Mode::DepthAndPosition),
        [flag] if flag == "--regenerate" => Ok(Mode::Regenerate),
        [flag] if flag == "--check" => Ok(Mode::Check),
        [flag] if flag == "--list" => Ok(Mode::List),
        [flag, depth] if flag == "--depth" => {
            depth.parse().map(Mode::PositionOnly).map_err(|_| NaiveError::new(format!("bad depth `{depth}`")))
        }
        _ => Err(NaiveError::new(
            "usage: zatre-naive-perft [--depth D | --regenerate | --check | --list] < lines",
        )),
    }
}

/// Processes stdin; returns the number of mismatches found in check mode.
fn run(mode: Mode) -> Result<usize, Box<dyn std::error::Error>> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut mismatches = 0;
    for (number, line) in io::stdin().lock().lines().enumerate() {
        let line = line?;
        let outcome =
            process_line(mode, &line).map_err(|e| NaiveError::new(format!("line {}: {e}", number + 1)))?;
        match outcome {
            LineOutput::Line(text) => writeln!(out, "{text}")?,
            LineOutput::Mismatch(text) => {
                mismatches += 1;
                writeln!(out, "MISMATCH line {}: {text}", number + 1)?;
            }
            LineOutput::Nothing => {}
        }
        out.flush()?;
    }
    Ok(mismatches)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag] = args.as_slice() {
        if flag == "--help" || flag == "-h" {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
    }
    let result = parse_args(&args).map_err(Into::into).and_then(run);
    match result {
        Ok(0) => ExitCode::SUCCESS,
        Ok(n) => {
            eprintln!("{n} count(s) differ");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("zatre-naive-perft: {e}");
            ExitCode::from(2)
        }
    }
}
