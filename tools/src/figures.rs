//! The published figures of zatre in one place: each figure is one [`Figure`] entry, with what it
//! measures, the exact command that produces it, the file under `docs/figures/` where that
//! command's output is kept, and how the figure is read off the output. `zatre-figures` runs the
//! commands, writes the table (docs/figures.md and the README's block) from the kept outputs, and
//! checks that nothing drifted: every kept output is there and readable, both tables are what
//! [`figures_md`] and [`readme_block`] write, and no document quotes a figure (a rate with its
//! interval, a `bench` signature) that the table does not hold.
//!
//! The figures are read from the kept outputs only, never measured while checking: `check` is
//! cheap and deterministic, and a new measurement is a deliberate `zatre-figures run <name>`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use thiserror::Error;

/// The folder, relative to the repository root, where the kept outputs are.
pub const OUTPUT_DIR: &str = "docs/figures";
/// The generated document with every figure, relative to the repository root.
pub const FIGURES_MD: &str = "docs/figures.md";
/// The README, whose figure table lies between [`README_BEGIN`] and [`README_END`].
pub const README: &str = "README.md";
/// The line before the README's generated table.
pub const README_BEGIN: &str =
    "<!-- figures: written by `zatre-figures table` from docs/figures/; do not edit -->";
/// The line after the README's generated table.
pub const README_END: &str = "<!-- end of figures -->";

/// The node limit of every strength run: `go nodes`, so that the machine's load does not change
/// a single move and a run can be repeated exactly.
pub const STRENGTH_NODES: u32 = 20_000;

/// One published figure.
#[derive(Debug, Clone, Copy)]
pub struct Figure {
    /// Its name on the command line and its anchor in docs/figures.md.
    pub name: &'static str,
    /// Its label in the tables, a few words.
    pub label: &'static str,
    /// What it measures, in one line.
    pub what: &'static str,
    /// The exact command that produces the output, run by `sh -c` at the repository root (the
    /// release binaries built first: `cargo build --release --workspace`).
    pub command: &'static str,
    /// The kept output, relative to the repository root.
    pub output: &'static str,
    /// How the figure is read off the output.
    pub reading: &'static str,
    /// The figure as the tables show it, read off the kept output.
    read: fn(&str) -> Result<String, String>,
}

impl Figure {
    /// The figure read off `output` (the kept output's text).
    pub fn read(&self, output: &str) -> Result<String, String> {
        (self.read)(output)
    }
}

/// How the strength runs read their figure.
const STRENGTH_READING: &str = "the row `1` of the report (the engine `search`): its first-place rate \
    (wins, draws half) with the 95% interval, its margin (mean final score less the best other seat's) \
    and its wins-draws-losses";

/// Starts `zatre-web` on core 1 (port 18080), runs `zatre-web-load` with the given flags on core
/// 0, and stops the bridge; the load's exit status is the command's.
macro_rules! board_load {
    ($flags:literal) => {
        concat!(
            "taskset -c 1 target/release/zatre-web --port 18080 --max-engines 64 --max-engines-per-client 64 \
             --max-connects-per-minute 1000 2>/dev/null & web=$!; sleep 1; taskset -c 0 \
             target/release/zatre-web-load --url ws://127.0.0.1:18080/ws --seconds 30 ",
            $flags,
            "; status=$?; kill $web; exit $status"
        )
    };
}
const BOARD_LOAD_1: &str = board_load!("--clients 1 --think 30");
const BOARD_LOAD_32: &str = board_load!("--clients 32 --think 2000");

/// How the board's load runs read their figure.
const BOARD_READING: &str = "the report of `zatre-web-load`: the median and 99th percentile of the \
    latency of the answers to `go` and to `draw` and `place`, the moves a second of all pages, the \
    median nodes a `go` searched, and the errors (any error fails the run)";

/// Every published figure, in the order of the tables.
pub const FIGURES: &[Figure] = &[
    Figure {
        name: "strength-2p",
        label: "`search` against `greedy`: 2 players, classic",
        what: "strength: `search` against `greedy`, 2 players, classic, 1,000 games",
        command: "G=\"target/release/zatre --option Strategy=greedy\"; target/release/zatre-match \
                  --engine target/release/zatre --engine \"$G\" --games 1000 --seed 7401 --nodes 20000 \
                  --concurrency 1",
        output: "docs/figures/strength-2p.txt",
        reading: STRENGTH_READING,
        read: read_strength,
    },
    Figure {
        name: "strength-3p",
        label: "`search` against two `greedy`: 3 players, classic",
        what: "strength: `search` against two `greedy`, 3 players, classic, 1,002 games",
        command: "G=\"target/release/zatre --option Strategy=greedy\"; target/release/zatre-match \
                  --engine target/release/zatre --engine \"$G\" --engine \"$G\" --games 1002 --seed 7402 \
                  --nodes 20000 --concurrency 1",
        output: "docs/figures/strength-3p.txt",
        reading: STRENGTH_READING,
        read: read_strength,
    },
    Figure {
        name: "strength-4p",
        label: "`search` against three `greedy`: 4 players, classic",
        what: "strength: `search` against three `greedy`, 4 players, classic, 1,000 games",
        command: "G=\"target/release/zatre --option Strategy=greedy\"; target/release/zatre-match \
                  --engine target/release/zatre --engine \"$G\" --engine \"$G\" --engine \"$G\" --games 1000 \
                  --seed 7403 --nodes 20000 --concurrency 1",
        output: "docs/figures/strength-4p.txt",
        reading: STRENGTH_READING,
        read: read_strength,
    },
    Figure {
        name: "strength-kids",
        label: "`search` against `greedy`: the kids' game",
        what: "strength: `search` against `greedy`, kids' game, 2 players, 1,000 games",
        command: "G=\"target/release/zatre --option Strategy=greedy\"; target/release/zatre-match \
                  --engine target/release/zatre --engine \"$G\" --variant kids --games 1000 --seed 7404 \
                  --nodes 20000 --concurrency 1",
        output: "docs/figures/strength-kids.txt",
        reading: STRENGTH_READING,
        read: read_strength,
    },
    Figure {
        name: "strength-dice",
        label: "`search` against `greedy`: the dice game",
        what: "strength: `search` against `greedy`, dice game, 2 players, 1,000 games",
        command: "G=\"target/release/zatre --option Strategy=greedy\"; target/release/zatre-match \
                  --engine target/release/zatre --engine \"$G\" --variant dice --games 1000 --seed 7405 \
                  --nodes 20000 --concurrency 1",
        output: "docs/figures/strength-dice.txt",
        reading: STRENGTH_READING,
        read: read_strength,
    },
    Figure {
        name: "bench",
        label: "the `bench` signature and the search's speed",
        what: "the `bench` signature and the search's speed: the nodes of a fixed search of six seeded \
               positions (which change exactly when the search's behaviour does) and the nodes a second \
               of CPU time",
        command: "for run in 1 2 3 4 5; do { /usr/bin/time -f 'cpu %U user %S sys' sh -c 'echo bench | \
                  target/release/zatre'; } 2>&1; done",
        output: "docs/figures/bench.txt",
        reading: "the `nodes` of the responses (the same in all five runs) is the signature; the speed is \
                  those nodes over the median of the five CPU times (user and system) that `/usr/bin/time` \
                  reports. The response's own `nps` is per second of wall time, which the other work of a \
                  shared machine changes, and is not published; CPU time varies less, by a third or so \
                  between quiet and busy hours on the shared 2-core machine",
        read: read_bench,
    },
    Figure {
        name: "movegen",
        label: "move generation: `legal count` over 1,700 seeded hands",
        what: "the speed of move generation: `legal count` in every position of \
               tests/golden/seeded-hands.txt (hands of 3 to 11 tiles from seeded games of every rule set, 1 to \
               4 players, solo included), against a94242f, the last commit before the move generator's \
               bounds, in CPU time",
        command: "RUNS=3 tools/compare-movegen.sh --processes",
        output: "docs/figures/movegen.txt",
        reading: "the whole corpus in one process (the least CPU time of the runs, base and new alternating): \
                  the ratio base/new; the hands slower than the base by more than 10% and 0.3 ms, each \
                  timed in its own process; the slowest hand in its own process, with the process start",
        read: read_movegen,
    },
    Figure {
        name: "board-clicks",
        label: "the board in a browser: a click to what it shows",
        what: "the latency of the board in headless Chromium, a whole classic game played by clicks \
               against the engine: from a click on a hand tile to the cells it may go to lit, and from a \
               click on a lit cell to the tile confirmed by the engine (`next`)",
        command: "cargo test --release -p zatre-tools --test board \
                  browser::a_whole_classic_game_by_clicks_against_the_engine -- --exact --nocapture",
        output: "docs/figures/board-clicks.txt",
        reading: "the test's two lines `latency, ...`: the median and the largest time of each kind of \
                  click, and the 90th percentile of the confirmed tiles",
        read: read_board_clicks,
    },
    Figure {
        name: "board-latency",
        label: "the board's answers: one page at full speed",
        what: "the latency of the board's answers through `zatre-web`: one page playing engine against \
               engine on loopback at the page's own pace (30 ms between moves), `go movetime 100`, 30 s; the \
               bridge and its engines on one core, the load tool on the other",
        command: BOARD_LOAD_1,
        output: "docs/figures/board-latency.txt",
        reading: BOARD_READING,
        read: read_board_load,
    },
    Figure {
        name: "board-load",
        label: "the board under load: 32 pages on one core",
        what: "how many games one core serves: 32 pages on loopback, each making a move every 2 s (a \
               person's pace), `go movetime 100`, 30 s; the bridge and its engines on one core, the load \
               tool on the other",
        command: BOARD_LOAD_32,
        output: "docs/figures/board-load.txt",
        reading: BOARD_READING,
        read: read_board_load,
    },
    Figure {
        name: "perft-2",
        label: "perft 2 from the start",
        what: "perft 2 at the start of the default game (classic, two players): the leaves of the game \
               tree two moves deep, every distinct draw expanded",
        command: "echo 'perft 2' | target/release/zatre",
        output: "docs/figures/perft-2.txt",
        reading: "the number of the response",
        read: read_perft,
    },
];

/// What went wrong running, writing or checking the figures.
#[derive(Debug, Error)]
pub enum FigureError {
    /// No entry has this name.
    #[error("no figure is named '{0}' (zatre-figures list names them)")]
    Unknown(String),
    /// A kept output could not be read or written.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What the system said.
        message: String,
    },
    /// A kept output does not hold its figure.
    #[error("{path}: {message}")]
    Unreadable {
        /// The kept output.
        path: String,
        /// What is missing.
        message: String,
    },
    /// The README has no generated block.
    #[error("README.md has no figure table between the lines '{README_BEGIN}' and '{README_END}'")]
    NoReadmeBlock,
    /// The command failed.
    #[error("the command of '{name}' failed ({status}): {command}")]
    Failed {
        /// The figure.
        name: String,
        /// Its exit status.
        status: String,
        /// Its command.
        command: String,
    },
}

/// The entry named `name`.
pub fn figure(name: &str) -> Result<&'static Figure, FigureError> {
    FIGURES.iter().find(|f| f.name == name).ok_or_else(|| FigureError::Unknown(name.to_string()))
}

fn read_file(root: &Path, relative: &str) -> Result<String, FigureError> {
    fs::read_to_string(root.join(relative))
        .map_err(|e| FigureError::File { path: relative.to_string(), message: e.to_string() })
}

/// Each figure with its value read off its kept output under `root`.
pub fn values(root: &Path) -> Result<Vec<(&'static Figure, String)>, FigureError> {
    FIGURES
        .iter()
        .map(|f| {
            let text = read_file(root, f.output)?;
            let value = f
                .read(&text)
                .map_err(|message| FigureError::Unreadable { path: f.output.to_string(), message })?;
            Ok((f, value))
        })
        .collect()
}

/// Runs the command of `figure` at `root` and keeps its standard output (standard error goes
/// to the terminal). The output is written only when the command succeeds and its figure can be
/// read off it, so a failed run leaves the kept output as it was.
pub fn run(root: &Path, figure: &Figure) -> Result<String, FigureError> {
    let out = Command::new("sh")
        .arg("-c")
        .arg(figure.command)
        .current_dir(root)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| FigureError::File { path: "sh".into(), message: e.to_string() })?;
    if !out.status.success() {
        return Err(FigureError::Failed {
            name: figure.name.to_string(),
            status: out.status.to_string(),
            command: figure.command.to_string(),
        });
    }
    let text = format!("{}{}", provenance(root, figure), String::from_utf8_lossy(&out.stdout));
    let value = figure.read(&text).map_err(|message| FigureError::Unreadable {
        path: format!("the output of '{}'", figure.name),
        message,
    })?;
    let path: PathBuf = root.join(figure.output);
    fs::write(&path, &text)
        .map_err(|e| FigureError::File { path: figure.output.to_string(), message: e.to_string() })?;
    Ok(value)
}

/// The lines `run` puts before a command's output: the figure, the commit it ran at (with
/// `+changes` when the work tree differed from it), the command and the machine's load average
/// (1, 5 and 15 minutes) when it started, each starting with `# `.
fn provenance(root: &Path, figure: &Figure) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    // The load of the machine when the run began: wall-clock figures are read beside it.
    let load = fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into());
    format!(
        "# figure: {}\n# commit: {commit}{}\n# command: {}\n# load average at the start: {load}\n",
        figure.name,
        if dirty { " +changes" } else { "" },
        figure.command
    )
}

/// docs/figures.md as `table` writes it.
pub fn figures_md(values: &[(&Figure, String)]) -> String {
    let mut out = String::from(
        "# Figures\n\n\
         Every figure that zatre publishes, generated by `zatre-figures table` from the outputs kept in\n\
         [figures/](figures/); do not edit it by hand. Each is produced by the command shown\n\
         (`zatre-figures run <name>` runs it at the repository root, after `cargo build --release\n\
         --workspace`, and keeps its output), and `zatre-figures check` (run by the test suite) fails\n\
         when a kept output is missing, when this file or the README's table is not what `table`\n\
         writes, or when a document quotes a figure that this table does not hold. Documents link here\n\
         instead of copying a figure.\n\n",
    );
    out.push_str(&format!(
        "The strength runs play at `go nodes {STRENGTH_NODES}` a move (`zatre-match --nodes`), so that the load\n\
         of the machine changes no move and a run is repeated exactly; their seeds were used for no\n\
         tuning. Each kept output opens with the commit it was measured at. Rates: first place, draws\n\
         half, with the 95% interval; margin: the mean final score less the best other seat's.\n\n"
    ));
    out.push_str("| figure | today | kept output |\n|---|---|---|\n");
    for (f, value) in values {
        let file = f.output.trim_start_matches("docs/");
        out.push_str(&format!("| [{}](#{}) | {} | [{}]({}) |\n", f.label, f.name, value, file, file));
    }
    for (f, value) in values {
        out.push_str(&format!(
            "\n## {}\n\n{}.\n\n- today: {}\n- command: `{}`\n- kept output: [{}]({})\n- read off it: {}.\n",
            f.name,
            capitalized(f.what),
            value,
            f.command,
            f.output.trim_start_matches("docs/"),
            f.output.trim_start_matches("docs/"),
            f.reading
        ));
    }
    out
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The README's generated block (the marker lines included).
pub fn readme_block(values: &[(&Figure, String)]) -> String {
    let mut out = format!("{README_BEGIN}\n| figure | today |\n|---|---|\n");
    for (f, value) in values {
        out.push_str(&format!("| [{}](docs/figures.md#{}) | {} |\n", f.label, f.name, value));
    }
    out.push_str(README_END);
    out
}

/// `readme` with its generated block replaced by `block`.
pub fn with_readme_block(readme: &str, block: &str) -> Result<String, FigureError> {
    let begin = readme.find(README_BEGIN).ok_or(FigureError::NoReadmeBlock)?;
    let end = readme[begin..].find(README_END).ok_or(FigureError::NoReadmeBlock)? + begin + README_END.len();
    Ok(format!("{}{}{}", &readme[..begin], block, &readme[end..]))
}

/// Writes docs/figures.md and the README's block from the kept outputs under `root`.
pub fn write_tables(root: &Path) -> Result<(), FigureError> {
    let values = values(root)?;
    let write = |relative: &str, text: &str| {
        fs::write(root.join(relative), text)
            .map_err(|e| FigureError::File { path: relative.to_string(), message: e.to_string() })
    };
    write(FIGURES_MD, &figures_md(&values))?;
    let readme = read_file(root, README)?;
    write(README, &with_readme_block(&readme, &readme_block(&values))?)
}

/// Everything `check` finds wrong under `root`, one line each; empty when the figures hold.
pub fn check(root: &Path) -> Vec<String> {
    let values = match values(root) {
        Ok(values) => values,
        Err(e) => return vec![e.to_string()],
    };
    let mut problems = Vec::new();
    let expected = figures_md(&values);
    match read_file(root, FIGURES_MD) {
        Ok(text) if text == expected => {}
        Ok(_) => problems.push(format!("{FIGURES_MD} is not what `zatre-figures table` writes: run it")),
        Err(e) => problems.push(e.to_string()),
    }
    match read_file(root, README) {
        Ok(text) => match with_readme_block(&text, &readme_block(&values)) {
            Ok(written) if written == text => {}
            Ok(_) => problems.push(format!(
                "the figure table of {README} is not what `zatre-figures table` writes: run it"
            )),
            Err(e) => problems.push(e.to_string()),
        },
        Err(e) => problems.push(e.to_string()),
    }
    let held = held_figures(&values);
    for path in documents(root) {
        let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        let Ok(text) = fs::read_to_string(&path) else { continue };
        for (line, quote) in quotes_in_prose(&text) {
            if !held.contains(&quote) {
                problems.push(format!(
                    "{shown}:{line}: quotes the figure '{quote}', which the figure table ({FIGURES_MD}) does not hold: \
                     link the table instead, or add an entry to tools/src/figures.rs"
                ));
            }
        }
    }
    problems
}

/// The documents whose figures must come from the table: every Markdown file of the repository
/// but the generated table itself, the archive (docs/archive/: past results, kept as they were)
/// and the CHANGELOG (what each version changed, at the time), outside build output and hidden
/// folders.
pub fn documents(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect_markdown(root, root, &mut out);
    out.sort();
    out
}

fn collect_markdown(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let relative = path.strip_prefix(root).unwrap_or(&path);
        if path.is_dir() {
            let skipped = name.starts_with('.') || ["target", "node_modules"].contains(&name);
            if !skipped && relative != Path::new("docs/archive") {
                collect_markdown(root, &path, out);
            }
        } else if name.ends_with(".md")
            && relative != Path::new(FIGURES_MD)
            && relative != Path::new("CHANGELOG.md")
        {
            out.push(path);
        }
    }
}

/// The figures a Markdown text quotes outside fenced code blocks (which hold example sessions, not
/// published figures), with their line numbers from 1: every rate with its interval, and every
/// large number ([`large_numbers`], code spans left out) of a paragraph or table row that speaks of
/// `bench` or a signature, which is how the `bench` signature is quoted.
pub fn quotes_in_prose(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    // The lines of the current unit (a paragraph, or one table row), with their numbers.
    let mut unit: Vec<(usize, &str)> = Vec::new();
    let flush = |unit: &mut Vec<(usize, &str)>, out: &mut Vec<(usize, String)>| {
        let speaks_of_bench = unit.iter().any(|(_, l)| {
            let lower = l.to_ascii_lowercase();
            lower.contains("bench") || lower.contains("signature")
        });
        for &(number, line) in unit.iter() {
            out.extend(rate_quotes(line).into_iter().map(|q| (number, q)));
            if speaks_of_bench {
                out.extend(large_numbers(&without_code_spans(line)).into_iter().map(|q| (number, q)));
            }
        }
        unit.clear();
    };
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            flush(&mut unit, &mut out);
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let row = line.trim_start().starts_with('|');
        if line.trim().is_empty() || row {
            flush(&mut unit, &mut out);
        }
        if !line.trim().is_empty() {
            unit.push((index + 1, line));
        }
        if row {
            flush(&mut unit, &mut out);
        }
    }
    flush(&mut unit, &mut out);
    out.sort();
    out
}

/// The figures the table holds, in the forms [`quotes_in_prose`] finds them.
pub fn held_figures(values: &[(&Figure, String)]) -> BTreeSet<String> {
    values.iter().flat_map(|(_, v)| rate_quotes(v).into_iter().chain(large_numbers(v))).collect()
}

/// The rates with their interval that a line quotes: `85.4% [83.4, 87.4]`.
pub fn rate_quotes(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("% [") {
        let start = text[..at].rfind(|c: char| !(c.is_ascii_digit() || c == '.')).map_or(0, |i| i + 1);
        let Some(close) = text[at..].find(']') else { continue };
        let rate = &text[start..at];
        let interval = &text[at + 3..at + close];
        let numbers: Vec<&str> = interval.split(", ").collect();
        let number = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.');
        if number(rate) && numbers.len() == 2 && numbers.iter().all(|n| number(n)) {
            out.push(text[start..at + close + 1].to_string());
        }
    }
    out
}

/// The numbers a `bench` signature is written as in a text: six digits or more, not grouped by
/// commas (the engine prints them so) and not round (ending in four zeros or more: a limit such as
/// `go nodes 1000000`, not a count), nor part of a word or a decimal; `2,401,906` and `388,752`
/// are counts written for a reader, not signatures.
pub fn large_numbers(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let glued_before =
            at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || matches!(bytes[at - 1], b'.' | b','));
        if !bytes[at].is_ascii_digit() || glued_before {
            at += 1;
            continue;
        }
        let end = at + bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
        let next = bytes.get(end).copied();
        let glued_after = next.is_some_and(|c| c.is_ascii_alphabetic())
            || (matches!(next, Some(b'.' | b',')) && bytes.get(end + 1).is_some_and(u8::is_ascii_digit));
        let digits = &text[at..end];
        if digits.len() >= 6 && !digits.ends_with("0000") && !glued_after {
            out.push(digits.to_string());
        }
        at = end;
    }
    out
}

/// A line with its code spans (`` `...` ``) blanked out.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else {
            out.push(if in_code { ' ' } else { c });
        }
    }
    out
}

/// `zatre-match`'s report: the row `1` as `85.4% [83.4, 87.4], margin +40.4 (852-4-144)`.
fn read_strength(output: &str) -> Result<String, String> {
    let header = output
        .lines()
        .find(|l| l.starts_with("#   engine"))
        .ok_or("no report header (a line starting with '#   engine')")?;
    let columns: Vec<&str> = header.split_whitespace().collect();
    let row = output.lines().find(|l| l.starts_with("1 ")).ok_or("no row '1' in the report")?;
    let at = row.find("% [").ok_or("row 1 has no rate with its interval")?;
    let close = row[at..].find(']').ok_or("row 1's interval is not closed")? + at;
    let start = row[..at].rfind(' ').map_or(0, |i| i + 1);
    let rate = &row[start..=close];
    let before: Vec<&str> = row[..start].split_whitespace().collect();
    let after: Vec<&str> = row[close + 1..].split_whitespace().collect();
    let margin = after.last().ok_or("row 1 has no margin")?;
    if columns.last() != Some(&"margin") {
        return Err("the report's last column is not 'margin'".into());
    }
    // The counts are the four numbers before the rate: wins, draws, losses, faults.
    let counts: Vec<&str> = before.iter().rev().take(4).rev().copied().collect();
    let [wins, draws, losses, _faults] = counts[..] else { return Err("row 1 has no counts".into()) };
    if ![wins, draws, losses].iter().all(|n| n.parse::<u32>().is_ok()) {
        return Err(format!("row 1's counts are not numbers: {wins} {draws} {losses}"));
    }
    Ok(format!("{rate}, margin {margin} ({wins}-{draws}-{losses})"))
}

/// The responses of `bench` (`nodes <n> nps <n>`), each followed by its CPU time (`cpu <user>
/// user <system> sys`), as `nodes <n>, <m> M nodes a CPU second` over the median CPU time. The
/// runs must agree on the nodes: the signature does not depend on the machine.
fn read_bench(output: &str) -> Result<String, String> {
    let words: Vec<&str> = output.split_whitespace().collect();
    let mut nodes = BTreeSet::new();
    let mut seconds = Vec::new();
    for (k, word) in words.iter().enumerate() {
        let number = |at: usize| words.get(at).and_then(|w| w.parse::<f64>().ok());
        if *word == "nodes" {
            nodes.insert(
                words.get(k + 1).and_then(|n| n.parse::<u64>().ok()).ok_or("no node count after 'nodes'")?,
            );
        } else if *word == "cpu" {
            let (Some(user), Some(system)) = (number(k + 1), number(k + 3)) else {
                return Err("a 'cpu' line has no user and system seconds".into());
            };
            seconds.push(user + system);
        }
    }
    let [signature] = nodes.into_iter().collect::<Vec<_>>()[..] else {
        return Err("not one node count: no 'nodes' in the responses, or runs that disagree".into());
    };
    if seconds.is_empty() {
        return Err("no 'cpu' line of /usr/bin/time".into());
    }
    seconds.sort_by(f64::total_cmp);
    let median = seconds[seconds.len() / 2];
    if median <= 0.0 {
        return Err("the CPU time is zero".into());
    }
    Ok(format!("nodes {signature}, {:.1} M nodes a CPU second", signature as f64 / median / 1e6))
}

/// The report of `tools/compare-movegen.sh --processes`, as `2.64x faster than a94242f (1086 ms
/// against 2862 ms), 0 hands slower; slowest 116 ms with the start (a94242f 197 ms)`.
fn read_movegen(output: &str) -> Result<String, String> {
    let numbers = |line: &str| -> Vec<f64> {
        line.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(|w| w.trim_end_matches('.').parse::<f64>().ok())
            .collect()
    };
    let whole = output
        .lines()
        .find(|l| l.starts_with("the whole corpus ("))
        .ok_or("no line 'the whole corpus (...) in one process: ...'")?;
    let [positions, base, new, ratio] = numbers(whole)[..] else {
        return Err(format!(
            "the whole corpus's line does not read 'N positions, base, new, ratio': {whole}"
        ));
    };
    let slowest =
        output.lines().find(|l| l.starts_with("slowest: line ")).ok_or("no line 'slowest: line ...'")?;
    let [_line, _moves, slowest_base, slowest_new] = numbers(slowest)[..] else {
        return Err(format!("the slowest line does not read 'line, moves, base ms, new ms': {slowest}"));
    };
    let slower = output
        .lines()
        .skip_while(|l| !l.starts_with("slower than the base"))
        .skip(1)
        .take_while(|l| !l.starts_with("sum "))
        .filter(|l| !l.trim().is_empty())
        .count();
    Ok(format!(
        "{positions:.0} hands: {ratio:.2}x faster than a94242f in one process ({new:.0} ms against {base:.0} \
         ms of CPU), {slower} slower in their own process; slowest {slowest_new:.0} ms with the start \
         (a94242f {slowest_base:.0} ms)"
    ))
}

/// The two latency lines of the browser test, as `a hand tile to its lit cells: median 12 ms (at
/// most 40); a lit cell to the confirmed tile: median 20 / p90 35 ms (at most 80)`.
fn read_board_clicks(output: &str) -> Result<String, String> {
    let line = |start: &str| {
        output.lines().find(|l| l.starts_with(start)).ok_or_else(|| format!("no line '{start} ...'"))
    };
    let select = line("latency, hand tile click to lit cells")?;
    let place = line("latency, lit cell click to the engine-confirmed tile")?;
    Ok(format!(
        "a hand tile to its lit cells: median {:.0} ms (at most {:.0}); a lit cell to the confirmed tile: \
         median {:.0} / p90 {:.0} ms (at most {:.0})",
        number_after(select, "median")?,
        number_after(select, "max")?,
        number_after(place, "median")?,
        number_after(place, "p90")?,
        number_after(place, "max")?,
    ))
}

/// The number after `key ` in `line`: `p50 101.0, ...` gives 101.0 for `p50`.
fn number_after(line: &str, key: &str) -> Result<f64, String> {
    line.split(&format!("{key} "))
        .nth(1)
        .and_then(|rest| rest.split([',', ' ', ')']).next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("no number after '{key}' in: {line}"))
}

/// The report of `zatre-web-load`, as `1 page, think 30 ms: go p50 101 / p99 109 ms, draw and
/// place p50 0.4 / p99 4.2 ms, 8.1 moves/s, 205052 nodes a `go` (median), no errors`.
fn read_board_load(output: &str) -> Result<String, String> {
    let line = |start: &str| {
        output.lines().find(|l| l.starts_with(start)).ok_or_else(|| format!("no line '{start} ...'"))
    };
    let header = output
        .lines()
        .find(|l| l.contains(" pages, ") && l.starts_with(|c: char| c.is_ascii_digit()))
        .ok_or("no line '<n> pages, <s> s, go movetime <ms> ms, think <ms> ms'")?;
    let pages = header.split(' ').next().and_then(|n| n.parse::<u32>().ok()).ok_or("no page count")?;
    let think = number_after(header, "think")?;
    let go = line("go latency ms")?;
    let other = line("draw/place latency ms")?;
    let nodes = number_after(line("nodes per go:")?, "p50")?;
    let moves = line("games finished")?;
    let rate = moves
        .split('(')
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse::<f64>().ok())
        .ok_or("no moves/s")?;
    // A run with an error exits with status 1, and `run` keeps no output of a failed command.
    if !output.lines().any(|l| l == "errors 0") {
        return Err("no line 'errors 0'".into());
    }
    Ok(format!(
        "{pages} page{}, think {think:.0} ms: `go` p50 {:.0} / p99 {:.0} ms, `draw` and `place` p50 {:.1} / p99 \
         {:.1} ms, {rate:.1} moves/s, {nodes:.0} nodes a `go` (median), no errors",
        if pages == 1 { "" } else { "s" },
        number_after(go, "p50")?,
        number_after(go, "p99")?,
        number_after(other, "p50")?,
        number_after(other, "p99")?,
    ))
}

/// The response of `perft 2`: its number.
fn read_perft(output: &str) -> Result<String, String> {
    let words: Vec<&str> = output.split_whitespace().collect();
    let number = words
        .iter()
        .rev()
        .find_map(|w| w.trim_start_matches('=').parse::<u64>().ok().filter(|n| *n > 1))
        .ok_or("no leaf count in the response")?;
    Ok(format!("{number} leaves"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "\
#   engine                                         games   wins  draws losses faults        win rate (95%)     score    margin
1   target/release/zatre                              10      7      0      3      0    70.0% [46.0, 94.0]     317.3     +35.3
2   target/release/zatre --option Strategy=greedy     10      3      0      7      0     30.0% [6.0, 54.0]     282.0     -35.3
games 10: normal 10
";

    #[test]
    fn a_strength_report_is_read_off_row_one() {
        assert_eq!(read_strength(REPORT).unwrap(), "70.0% [46.0, 94.0], margin +35.3 (7-0-3)");
        assert!(read_strength("games 10: normal 10\n").is_err());
    }

    #[test]
    fn bench_and_perft_responses_are_read() {
        let bench = "=1 nodes 2401906 nps 449795\n\ncpu 1.19 user 0.01 sys\n";
        assert_eq!(read_bench(bench).unwrap(), "nodes 2401906, 2.0 M nodes a CPU second");
        let three = format!("{bench}= nodes 2401906 nps 1\n\ncpu 0.40 user 0.00 sys\n{bench}");
        assert_eq!(read_bench(&three).unwrap(), "nodes 2401906, 2.0 M nodes a CPU second", "the median");
        let disagreeing = format!("{bench}= nodes 2401907 nps 1\n\ncpu 1.20 user 0.00 sys\n");
        assert!(read_bench(&disagreeing).is_err());
        assert!(read_bench("=1 nps 3\n").is_err());
        assert!(read_bench("=1 nodes 2401906 nps 3\n").is_err(), "the CPU time is needed");
        assert_eq!(read_perft("=1 1070036\n\n").unwrap(), "1070036 leaves");
    }

    #[test]
    fn a_move_generation_comparison_is_read_off_its_summary_lines() {
        let report = "# figure: movegen\nbase_ms new_ms moves line tiles rules\n2.39 2.41 16 1 3 maximum_allow\n\
                      slower than the base by more than 10% and 0.3 ms:\n{slower}\
                      sum 3 tiles                189 positions  base     332.6  new     338.9  ratio  0.98\n\
                      slowest: line 1160 (78961 moves): base 196.86 ms, new 116.35 ms\n\
                      the whole corpus (1700 positions) in one process: base 2861.9 ms, new 1086.1 ms, ratio 2.64\n";
        let none = report.replace("{slower}", "");
        assert_eq!(
            read_movegen(&none).unwrap(),
            "1700 hands: 2.64x faster than a94242f in one process (1086 ms against 2862 ms of CPU), 0 slower \
             in their own process; slowest 116 ms with the start (a94242f 197 ms)"
        );
        let two =
            report.replace("{slower}", "2.00 2.60 40 7 4 maximum_forbid\n3.1 3.9 50 9 5 maximal_allow\n");
        assert!(read_movegen(&two).unwrap().contains(", 2 slower in their own process;"));
        assert!(read_movegen(&none.replace("the whole corpus", "all")).is_err());
        assert!(read_movegen(&none.replace("slowest: line", "slowest")).is_err());
    }

    #[test]
    fn the_browser_test_s_latencies_are_read() {
        let output = "running 1 test\ngame: 30 human turns, 200 checks against the engine, 41.0 s\n\
                      latency, hand tile click to lit cells (from human turn 5 on, n=25): median 12.4 ms, max 40.2 ms\n\
                      latency, lit cell click to the engine-confirmed tile via `next` (n=60): median 20.1 ms, p90 \
                      35.0 ms, max 80.3 ms\ntest browser::a ... ok\n";
        assert_eq!(
            read_board_clicks(output).unwrap(),
            "a hand tile to its lit cells: median 12 ms (at most 40); a lit cell to the confirmed tile: median \
             20 / p90 35 ms (at most 80)"
        );
        assert!(read_board_clicks("test browser::a ... SKIPPED: no chromium\n").is_err());
    }

    #[test]
    fn a_board_load_report_is_read() {
        let report = "# figure: board-load\n32 pages, 30.0 s, go movetime 100 ms, think 2000 ms\n\
                      games finished 0, moves 436 (14.5 moves/s)\n\
                      go latency ms (n 436): p50 102.4, p90 110.0, p99 126.3, max 168.0\n\
                      draw/place latency ms (n 872): p50 1.2, p90 3.0, p99 8.4, max 20.0\n\
                      nodes per go: p10 1, p50 60717, p90 90000\nerrors 0\n";
        assert_eq!(
            read_board_load(report).unwrap(),
            "32 pages, think 2000 ms: `go` p50 102 / p99 126 ms, `draw` and `place` p50 1.2 / p99 8.4 ms, \
             14.5 moves/s, 60717 nodes a `go` (median), no errors"
        );
        let one = report.replace("32 pages", "1 pages");
        assert!(read_board_load(&one).unwrap().starts_with("1 page, think"));
        assert!(read_board_load(&report.replace("errors 0", "error x2: closed")).is_err());
        assert!(read_board_load(&report.replace("go latency ms", "go: no answers\nx")).is_err());
    }

    #[test]
    fn quoted_figures_are_rates_with_intervals_and_signatures_near_bench() {
        let line = "wins 85.4% [83.4, 87.4] and 60% of the games and [1, 2] and 3% [x, y]";
        assert_eq!(rate_quotes(line), ["85.4% [83.4, 87.4]"]);
        let numbers =
            "nodes 2401906, 2,401,941 or 400 or go nodes 1000000, 400000 nodes, 1234567.5, x1234567 \
                       1234567ms (2401941; 1234568)";
        assert_eq!(large_numbers(numbers), ["2401906", "2401941", "1234568"]);
        let text = "a 50.0% [40.0, 60.0]\n```\n70.0% [46.0, 94.0] bench 2401906\n```\n\
                    the bench\nsays 1234567, `9999999`\n\nnot here: 7654321\n\
                    | bench | 1111111 |\n| load | 200,000 |\n";
        assert_eq!(
            quotes_in_prose(text),
            [(1, "50.0% [40.0, 60.0]".to_string()), (6, "1234567".to_string()), (9, "1111111".to_string())]
        );
    }

    #[test]
    fn the_readme_block_is_replaced_between_its_markers() {
        let readme = format!("intro\n{README_BEGIN}\nold\n{README_END}\nend\n");
        assert_eq!(with_readme_block(&readme, "NEW").unwrap(), "intro\nNEW\nend\n");
        assert!(matches!(with_readme_block("no block", "NEW"), Err(FigureError::NoReadmeBlock)));
    }

    #[test]
    fn every_name_is_one_figure_with_a_kept_output_under_docs_figures() {
        let names: BTreeSet<&str> = FIGURES.iter().map(|f| f.name).collect();
        assert_eq!(names.len(), FIGURES.len());
        assert!(FIGURES.iter().all(|f| f.output.starts_with(OUTPUT_DIR)));
        assert!(matches!(figure("nonesuch"), Err(FigureError::Unknown(_))));
    }
}
