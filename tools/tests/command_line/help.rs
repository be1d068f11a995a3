//! The tools other than the board, as a user first meets them: `-h` and `--help` say what each
//! program itself does (not the description of the tools crate, clap's bare `about`) and exit 0;
//! the small tools (`zatre-selfplay`, `zatre-huge-hands`, `zatre-largest`) refuse bad input.

use std::process::{Command, Output};

/// The description of the `zatre-tools` crate, which `-h` printed for every tool.
const CRATE_DESCRIPTION: &str = env!("CARGO_PKG_DESCRIPTION");

fn run(program: &str, flag: &str) -> Output {
    Command::new(program).arg(flag).output().expect("the tool runs")
}

/// The binaries and a phrase of their own that `-h` and `--help` must both say.
const TOOLS: [(&str, &str); 11] = [
    (env!("CARGO_BIN_EXE_zatre-match"), "The zatre referee"),
    (env!("CARGO_BIN_EXE_zatre-analyse"), "Analyses Zatre games"),
    (env!("CARGO_BIN_EXE_zatre-fit"), "Fits the weights"),
    (env!("CARGO_BIN_EXE_zatre-ceiling"), "The ceiling of `search`"),
    (env!("CARGO_BIN_EXE_zatre-web-load"), "Load on a zatre-web"),
    (env!("CARGO_BIN_EXE_zatre-naive-perft"), "the naive reference move counter"),
    (env!("CARGO_BIN_EXE_zatre-largest"), "The largest move size"),
    (env!("CARGO_BIN_EXE_zatre-huge-hands"), "huge hands"),
    (env!("CARGO_BIN_EXE_zatre-selfplay"), "Self-play"),
    (env!("CARGO_BIN_EXE_zatre-web"), "The zatre board in the browser"),
    (env!("CARGO_BIN_EXE_zatre-conformance"), "The conformance kit"),
];

#[test]
fn every_tool_describes_itself() {
    for (program, says) in TOOLS {
        for flag in ["-h", "--help"] {
            let out = run(program, flag);
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{program} {flag}: {}", String::from_utf8_lossy(&out.stderr));
            assert!(text.contains(says), "{program} {flag}:\n{text}");
            assert!(!text.contains(CRATE_DESCRIPTION), "{program} {flag}:\n{text}");
        }
    }
}

/// `zatre-match --help` had no description at all: its doc comment was attached to a constant.
#[test]
fn the_referees_help_tells_how_a_match_runs_and_its_exit_status() {
    let text = String::from_utf8_lossy(&run(TOOLS[0].0, "--help").stdout).into_owned();
    assert!(text.contains("Each --engine is a command line run by `sh -c`"), "{text}");
    assert!(text.contains("Exit status: 0 when the report is printed"), "{text}");
}

/// Runs `program` with `args` and `input` on stdin.
fn run_with(program: &str, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tool starts");
    child.stdin.take().expect("piped stdin").write_all(input.as_bytes()).expect("the tool reads");
    child.wait_with_output().expect("the tool ends")
}

/// The small tools refuse what they silently ignored (a rule option without `=`, which played
/// the default rules; `--stress 0`, which printed nothing; no game, which printed `NaN`) with
/// status 2, and the last seed plays rather than overflowing. The referee's and analyser's time
/// limits are 1 ms or more (at 0 every engine lost on time).
#[test]
fn the_small_tools_refuse_bad_input_and_take_any_seed() {
    let (selfplay, huge_hands, largest) = (TOOLS[8].0, TOOLS[7].0, TOOLS[6].0);
    let cases: [(&str, &[&str], &str, &str); 7] = [
        (selfplay, &["--games", "0"], "", "--games"),
        // A move of 2^64 ms hung on the first move.
        (selfplay, &["--games", "2", "--movetime", "18446744073709551615"], "", "--movetime"),
        (selfplay, &["--games", "2", "--rules", "rounds"], "", "key=value joined by commas, not 'rounds'"),
        (selfplay, &["--games", "2", "--variant", "chess"], "", "unknown variant 'chess'"),
        (huge_hands, &["--games", "2", "--rules", "leftovers"], "", "--rules: rule options are key=value"),
        (huge_hands, &["--games", "2", "--stress", "0"], "", "--stress"),
        (largest, &[], "# a comment\ngarbage\n", "zatre-largest: line 2: no position line in 'garbage'"),
    ];
    for (program, args, input, says) in cases {
        let out = run_with(program, args, input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{program} {args:?}: {stderr}");
        assert!(stderr.contains(says), "{program} {args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stdout));
    }
    for (program, flag, value) in [
        (env!("CARGO_BIN_EXE_zatre-match"), "--margin", "0"),
        (env!("CARGO_BIN_EXE_zatre-match"), "--timeout", "0"),
        (env!("CARGO_BIN_EXE_zatre-analyse"), "--margin", "0"),
        (env!("CARGO_BIN_EXE_zatre-ceiling"), "--movetime", "18446744073709551615"),
    ] {
        let out = run_with(program, &[flag, value], "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{program} {flag} {value}: {stderr}");
        assert!(stderr.contains(&format!("invalid value '{value}' for '{flag}")), "{program}: {stderr}");
    }
    let last = u64::MAX.to_string();
    // A value with commas of its own (it was cut at the first).
    let out =
        run_with(selfplay, &["--games", "1", "--rules", "rounds=2,bonus=3,3,3,3,4,4,4,4,5,5,5,5,6"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for (program, args) in [
        (selfplay, ["--games", "2", "--a", "random", "--b", "random", "--seed", &last]),
        (huge_hands, ["--games", "2", "--min-hand", "3", "--players", "2", "--seed", &last]),
    ] {
        let out = run_with(program, &args, "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && !stderr.contains("panicked"), "{program} {args:?}: {stderr}");
        assert!(!out.stdout.is_empty(), "{program} {args:?} played nothing");
    }
}

/// The packaged programs print their manual page with `--manpage` alone (`tools/package` writes
/// the pages so): a roff page of section 1 under the program's name, its description, and every
/// long option that `--help` lists.
#[test]
fn the_packaged_programs_print_their_manual_pages() {
    let engine = crate::engine_path::engine().display().to_string();
    let programs = [
        (engine.as_str(), "zatre"),
        (TOOLS[9].0, "zatre-web"),
        (TOOLS[0].0, "zatre-match"),
        (TOOLS[1].0, "zatre-analyse"),
    ];
    for (program, name) in programs {
        let out = run(program, "--manpage");
        assert!(out.status.success(), "{program} --manpage: {}", String::from_utf8_lossy(&out.stderr));
        let page = String::from_utf8_lossy(&out.stdout);
        assert!(page.contains(&format!(".TH {name} 1 ")), "{name}: a page of section 1:\n{page}");
        assert!(page.contains(&format!(".SH NAME\n{}", name.replace('-', "\\-"))), "{name}:\n{page}");
        let help = String::from_utf8_lossy(&run(program, "--help").stdout).into_owned();
        let options = help.split_whitespace().filter(|w| w.starts_with("--") && w.len() > 2);
        for option in options {
            let option = option.trim_end_matches([',', '.', ')']).split(['=', '[', '<']).next().unwrap_or("");
            let roff = option.replace('-', "\\-");
            assert!(page.contains(&roff), "{name}: {option} of --help is not in the page");
        }
        // Anything else with it is an ordinary (bad) argument: the page is not printed.
        let mixed = Command::new(program).args(["--manpage", "--help"]).output().expect("runs");
        assert!(!String::from_utf8_lossy(&mixed.stdout).contains(".SH NAME"), "{name}");
    }
}
