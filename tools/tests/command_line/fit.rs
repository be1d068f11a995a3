//! `zatre-fit` through its binary: a fit to games of one strategy against others reports the
//! sheets it fitted and the ones it did not, and bad flags get clear errors.

use std::process::{Command, Output, Stdio};

const FIT: &str = env!("CARGO_BIN_EXE_zatre-fit");

fn fit(args: &[&str]) -> Output {
    Command::new(FIT).args(args).stdin(Stdio::null()).output().expect("zatre-fit runs")
}

/// Tiny fits to greedy's sheets, then to every sheet, in games against two random players: the
/// header names both strategies, each fit names the sheets it fitted, and its held-out games
/// report the sheets it did not fit too.
#[test]
fn a_fit_against_opponents_reports_own_and_opponents_sheets() {
    let out = fit(&[
        "--players",
        "3",
        "--strategy",
        "greedy",
        "--opponents",
        "random",
        "--sheets",
        "own,all",
        "--games",
        "3",
        "--holdout",
        "3",
        "--seed",
        "5",
        "--max-evaluations",
        "40",
        "--jobs",
        "1",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.starts_with("3 games (classic 3 players, greedy against random at nodes 20000, seeds 5..)"),
        "{stdout}"
    );
    let fits: Vec<&str> = stdout.split("mean Huber loss").skip(1).collect();
    assert_eq!(fits.len(), 2, "{stdout}");
    for (fit, (fitted, other)) in fits.iter().zip([("own", "opponents"), ("all", "own")]) {
        assert!(fit.contains(&format!("predicted final scores of {fitted} sheets:")), "{fit}");
        assert!(fit.contains("\n  held-out games: "), "{fit}");
        assert!(fit.contains(&format!("\n  held-out games, {other} sheets: ")), "{fit}");
        assert!(fit.contains("\nfitted:  Weights { rates: ["), "{fit}");
    }
    assert!(!fits[0].contains("own sheets: "), "{}", fits[0]);
    assert!(fits[1].contains("opponents sheets: "), "{}", fits[1]);
}

/// Self-play has no opponents' sheets to report.
#[test]
fn self_play_reports_every_sheet_alone() {
    let out = fit(&[
        "--strategy",
        "greedy",
        "--games",
        "2",
        "--holdout",
        "1",
        "--max-evaluations",
        "20",
        "--jobs",
        "1",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("2 games (classic 2 players, greedy at nodes 20000, seeds 1..)"), "{stdout}");
    assert!(stdout.contains("predicted final scores of all sheets:"), "{stdout}");
    assert!(!stdout.contains("opponents sheets"), "{stdout}");
}

#[test]
fn bad_flags_are_refused_before_any_game() {
    let cases: [(&[&str], &str); 7] = [
        // No game to fit: it played the held-out games and "fitted" nothing, with status 0.
        (&["--games", "0"], "--games"),
        (&["--nodes", "0"], "--nodes"),
        (&["--sheets", "own"], "--sheets own needs --opponents"),
        (&["--sheets", "all,opponents"], "--sheets opponents needs --opponents"),
        (&["--opponents", "best"], "unknown strategy 'best'"),
        (&["--opponents", "greedy", "--sheets", "mine"], "unknown sheets 'mine'"),
        (&["--players", "4", "--rule", "teams=on", "--opponents", "greedy"], "cannot share a team's sheet"),
    ];
    for (args, message) in cases {
        let out = fit(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
