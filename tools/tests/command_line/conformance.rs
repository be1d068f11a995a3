//! The conformance kit `zatre-conformance`: it passes on zatre in both protocol versions, and on
//! each class of fault a small broken engine makes it fail, naming the section of PROTOCOL.md
//! the fault breaks. A broken engine is zatre behind a line filter (GNU `sed -u`) that breaks one
//! thing, written by the test as a shell script into a temp dir. Every section the kit can name
//! is a heading of PROTOCOL.md.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output, Stdio};

use zatre_tools::conformance::sections;

use crate::engine_path::engine;

const KIT: &str = env!("CARGO_BIN_EXE_zatre-conformance");

/// Runs the kit on an engine command line. The tolerance over `movetime` is wide: the tests run
/// beside others on a shared machine, and what they check is behaviour, not speed.
fn kit(engine: &str, args: &[&str]) -> Output {
    Command::new(KIT)
        .args(["--engine", engine, "--tolerance-ms", "5000", "--timeout-ms", "3000"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the kit runs")
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn the_kit_passes_on_zatre_in_both_versions() {
    let zatre = engine().display().to_string();
    for (args, version) in [(&[][..], "3"), (&["--protocol", "2"][..], "2"), (&["--protocol", "3"][..], "3")]
    {
        let out = kit(&zatre, args);
        let report = text(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}:\n{report}");
        assert!(!report.contains("FAIL"), "{args:?}:\n{report}");
        let summary = report.lines().last().unwrap_or("");
        assert!(summary.starts_with(&format!("conformance (protocol {version}): ")), "{summary}");
        assert!(summary.ends_with(" 0 failed"), "{summary}");
        // The game and the limits were checked, not skipped.
        assert!(report.contains("ok   game: a classic game plays to its end with legal moves ("), "{report}");
        assert!(report.contains("ok   stop: the stopped go answers a legal bestmove"), "{report}");
    }
}

/// One broken engine: zatre's input or output through `sed -u`, as a script in `dir`.
fn broken(dir: &std::path::Path, name: &str, pipeline: &str) -> String {
    let zatre = engine().display().to_string();
    let script = dir.join(format!("{name}.sh"));
    let body = pipeline.replace("ZATRE", &format!("'{zatre}'"));
    fs::write(&script, format!("#!/bin/sh\n{body}\n")).expect("the script is written");
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).expect("it is executable");
    script.display().to_string()
}

/// Each class of fault fails the kit with exit status 1 and a failure that names the check and
/// the section it breaks.
#[test]
fn each_broken_engine_fails_naming_its_section() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = [
        // The empty line that ends each response is dropped.
        ("bad-framing", "ZATRE | sed -u '/^$/d'", "framing: ", sections::FRAMING),
        // A 1 is put before every id.
        ("wrong-id", r"ZATRE | sed -u 's/^\([=?]\)\([0-9]\)/\11\2/'", "framing: ", sections::FRAMING),
        // go never reaches the engine.
        ("hangs-on-go", "sed -u '/^[0-9]* *go /d' | ZATRE", "go: ", sections::GO),
        // stop never reaches the engine, so the go infinite is never ended.
        ("ignores-stop", "sed -u '/^[0-9]* *stop$/d' | ZATRE", "stop: stop is answered", sections::STOP),
        // quit becomes stop: answered as quit is, but the engine goes on answering.
        (
            "answers-after-quit",
            r"sed -u 's/^\([0-9]*\) *quit$/\1 stop/' | ZATRE",
            "quit: the lines after it get no answer",
            sections::FRAMING,
        ),
        // invalid_argument becomes syntax_error.
        (
            "wrong-error-code",
            r"ZATRE | sed -u 's/^?\([0-9]*\) invalid_argument/?\1 syntax_error/'",
            "refusals: newgame players 9 is invalid_argument",
            sections::NEWGAME,
        ),
        // A line that is not UTF-8 ends the engine's input: it exits without an answer.
        ("crashes-on-bad-input", r"LC_ALL=C sed -u '/\xff/Q' | ZATRE", "bad input: ", sections::FRAMING),
        // Every bestmove is a move off the board.
        (
            "illegal-bestmove",
            "ZATRE | sed -u 's/bestmove [^ ]*/bestmove 1@a1/'",
            "game: a classic game plays to its end with legal moves",
            sections::GO,
        ),
    ];
    // The cases wait on their engines' timeouts, not on the processor: all at once.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = cases
            .iter()
            .map(|&(name, pipeline, check, section)| {
                let dir = dir.path();
                scope.spawn(move || {
                    judge(name, &kit(&broken(dir, name, pipeline), &["--quiet"]), check, section)
                })
            })
            .collect();
        runs.into_iter().filter_map(|run| run.join().expect("a case runs").err()).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The kit's verdict on one broken engine: status 1, a failure of `check` naming `section`, and
/// under `--quiet` no passed check printed.
fn judge(name: &str, out: &Output, check: &str, section: &str) -> Result<(), String> {
    let report = text(out);
    let named = report.lines().any(|l| {
        l.starts_with(&format!("FAIL {check}")) && l.ends_with(&format!("[PROTOCOL.md: {section}]"))
    });
    if out.status.code() != Some(1) {
        Err(format!("{name}: exit status {:?}:\n{report}", out.status.code()))
    } else if !named {
        Err(format!("{name}: no failure of '{check}' naming '{section}':\n{report}"))
    } else if report.contains("\nok ") {
        Err(format!("{name}: --quiet prints only the failures:\n{report}"))
    } else {
        Ok(())
    }
}

/// An engine that cannot be started, or never answers, is exit status 2 with the reason.
#[test]
fn an_engine_that_cannot_run_is_status_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("no-such-engine").display().to_string();
    for engine in [missing.as_str(), "sleep 30", "exit 3"] {
        let out = kit(engine, &[]);
        let report = text(&out);
        assert_eq!(out.status.code(), Some(2), "{engine}:\n{report}");
        assert!(report.contains("the engine could not be run"), "{engine}:\n{report}");
    }
}

/// Every section a failure can name is the text of a heading of PROTOCOL.md.
#[test]
fn every_named_section_is_a_heading_of_the_protocol() {
    let protocol = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../protocol/PROTOCOL.md"))
        .expect("PROTOCOL.md is read");
    let headings: Vec<&str> = protocol
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect();
    for section in sections::ALL {
        assert!(headings.contains(&section), "'{section}' is no heading of PROTOCOL.md");
    }
    // ALL holds every section the module defines.
    let module = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/conformance/sections.rs"))
        .expect("sections.rs is read");
    let defined = module.matches("pub const ").count() - 1;
    assert_eq!(defined, sections::ALL.len(), "a section of sections.rs is missing from sections::ALL");
}
