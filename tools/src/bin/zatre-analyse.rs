//! `zatre-analyse`: replays games through an engine and reports, for every move, the engine's
//! best move and value, the value of the move played and the points lost. Arguments and the
//! input and output here; the work is in `zatre_tools::analyse`.

use std::fs;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, Parser};
use indicatif::ProgressBar;
use zatre_tools::analyse::{svg, Analyser, GameInput, GameReport, InputError};
use zatre_tools::referee::Limits;

/// The node limit of every `go` when neither --nodes nor --movetime is given: enough for the
/// search's next two turns of its best three candidates in the middle game, so that the best move's
/// value and the played move's come from the same stage.
const DEFAULT_NODES: u64 = 1_000_000;

/// Analyses Zatre games with an engine: for every move, the engine's best move and its value,
/// the value of the move played and the points lost, all from the engine's `analyse` (one command
/// a game; PROTOCOL.md, `analyse`); then per seat the total lost and the five worst moves.
///
/// The input (FILE, or stdin when FILE is absent or `-`) holds one game a line, either a
/// `position startpos ... moves ...` line (or the `startpos ...` payload of `history`) or a
/// `zatre-match` JSON Lines record (its `replay`); blank lines and lines starting with `#` are
/// skipped. Values are the engine's `score`: the expected final margin over the best other sheet,
/// in sheet points; a move's loss is the best move's value minus its own, 0 when it is the best
/// move, and never below 0, as the engine says it.
///
/// Example: zatre-analyse --engine target/release/zatre games.jsonl
#[derive(Parser, Debug)]
#[command(name = "zatre-analyse", version = zatre::cli::VERSION, long_about)]
struct Cli {
    /// The analysing engine's command line, run by `sh -c` (default: `zatre` beside this program).
    #[arg(long, value_name = "COMMAND")]
    engine: Option<String>,
    /// Nodes per search, sent as `analyse nodes <n>` (the default: 1000000; deterministic with
    /// the engine's Threads at 1).
    #[arg(long, value_name = "N", conflicts_with = "movetime", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Time per search in milliseconds, sent as `analyse movetime <ms>`.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// How long any command but `go` may take, and how much longer than --movetime a `go` may.
    #[arg(long, value_name = "MS", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    margin: u64,
    /// The limit for each search of `analyse`, two a turn (default: 60000 with nodes, movetime +
    /// margin with --movetime).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,
    /// One JSON object per game (JSON Lines) instead of the text report.
    #[arg(long)]
    json: bool,
    /// Also draw each game's chart into FILE as SVG: each seat's expected final margin after every
    /// turn as a line, the points lost per turn as bars. With several games, the game of input
    /// line N goes to FILE with `-N` before its extension (`graph.svg`: `graph-3.svg`).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// The games, one a line (default: stdin).
    file: Option<PathBuf>,
}

fn main() -> ExitCode {
    if let Some(code) = zatre::cli::print_manpage_if_asked(Cli::command) {
        return code;
    }
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("zatre-analyse: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: &Cli) -> Result<ExitCode, String> {
    let engine = match &cli.engine {
        Some(e) => e.clone(),
        None => default_engine().ok_or("no `zatre` beside this program; give --engine")?,
    };
    let (go, default_timeout) = match (cli.nodes, cli.movetime) {
        (_, Some(ms)) => {
            let limit = ms.checked_add(cli.margin).ok_or("--movetime plus --margin is too large")?;
            (format!("movetime {ms}"), limit)
        }
        (nodes, None) => (format!("nodes {}", nodes.unwrap_or(DEFAULT_NODES)), 60_000),
    };
    let limits = Limits {
        go: go.clone(),
        go_timeout: Duration::from_millis(cli.timeout.unwrap_or(default_timeout)),
        command_timeout: Duration::from_millis(cli.margin),
    };
    let input = read_input(cli.file.as_deref())?;
    let games = parse_games(&input);
    if games.is_empty() {
        return Err("the input holds no game".to_string());
    }
    let total: usize = games.iter().filter_map(|(_, g)| g.as_ref().ok()).map(|g| g.turns.len()).sum();
    let bar = progress_bar(total as u64);
    let mut analyser = Analyser::new(&engine, limits);
    let mut failures = 0;
    let mut stdout = io::stdout().lock();
    for (line, game) in &games {
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                bar.suspend(|| eprintln!("zatre-analyse: line {line}: {e}"));
                failures += 1;
                continue;
            }
        };
        bar.set_message(format!("line {line}"));
        let before = bar.position();
        match analyser.analyse(game, |_| bar.inc(1)) {
            Ok(analysed) => {
                let mut report = GameReport::new(game, &engine, &go, analysed.turns);
                report.lost = Some(analysed.lost);
                if let Some(path) = &cli.svg {
                    let path = if games.len() == 1 { path.clone() } else { numbered(path, *line) };
                    fs::write(&path, svg(&report)).map_err(|e| format!("{}: {e}", path.display()))?;
                }
                let text = if cli.json {
                    format!("{}\n", report.to_json())
                } else {
                    format!("{}\n", report.render())
                };
                bar.suspend(|| stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()))
                    .map_err(|e| format!("writing the report: {e}"))?;
            }
            Err(e) => {
                bar.suspend(|| eprintln!("zatre-analyse: line {line}: {e}"));
                bar.set_position(before + game.turns.len() as u64);
                failures += 1;
            }
        }
    }
    bar.finish_and_clear();
    analyser.quit();
    if failures > 0 {
        eprintln!("zatre-analyse: {failures} of {} games not analysed", games.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `graph.svg` as `graph-<line>.svg`.
fn numbered(path: &Path, line: usize) -> PathBuf {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{line}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{line}"),
    };
    path.with_file_name(name)
}

/// The whole input, from the file or stdin.
fn read_input(file: Option<&Path>) -> Result<Vec<u8>, String> {
    match file {
        Some(path) if path != Path::new("-") => {
            fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
        }
        _ => {
            let mut bytes = Vec::new();
            io::stdin().read_to_end(&mut bytes).map_err(|e| format!("reading stdin: {e}"))?;
            Ok(bytes)
        }
    }
}

/// Every game line with its number from 1, parsed and replayed; blank and `#` lines are skipped.
fn parse_games(input: &[u8]) -> Vec<(usize, Result<GameInput, String>)> {
    let mut games = Vec::new();
    for (k, raw) in input.split(|&b| b == b'\n').enumerate() {
        let line = k + 1;
        let parsed = match std::str::from_utf8(raw) {
            Err(_) => Err("the line is not UTF-8".to_string()),
            Ok(text) => {
                let text = text.trim();
                if text.is_empty() || text.starts_with('#') {
                    continue;
                }
                GameInput::parse(line, text).map_err(|e: InputError| e.to_string())
            }
        };
        games.push((line, parsed));
    }
    games
}

/// A bar on stderr counting turns, hidden unless stderr is a terminal.
fn progress_bar(turns: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    zatre_tools::progress::bar(turns, "{bar:40} {pos}/{len} turns {msg} (eta {eta})")
}

/// `zatre` beside this executable, quoted for `sh -c`.
fn default_engine() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let beside = exe.parent().map(|d| d.join("zatre"))?;
    if !beside.is_file() {
        return None;
    }
    Some(format!("'{}'", beside.to_string_lossy().replace('\'', r"'\''")))
}
