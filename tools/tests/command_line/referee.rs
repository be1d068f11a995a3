//! The referee through real processes: a short match between built-in strategies, engines that
//! fault in every way the referee must survive, records that replay, shards that merge, and an
//! SPRT that stops early.
//!
//! The engine binary `zatre` belongs to another package: `engine_path` says where it is found.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use engine_path::engine;
use zatre_tools::referee::{read_records, Record};

use crate::engine_path;

const REFEREE: &str = env!("CARGO_BIN_EXE_zatre-match");

fn strategy(name: &str) -> String {
    format!("{} --option Strategy={name}", engine().display())
}

/// Runs the referee; panics with its stderr when it fails.
fn referee(args: &[&str]) -> Output {
    let out = Command::new(REFEREE).args(args).stdin(Stdio::null()).output().expect("the referee runs");
    assert!(out.status.success(), "zatre-match {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    out
}

fn records_of(path: &Path) -> Vec<Record> {
    let mut records = read_records(path).expect("records parse");
    records.sort_by_key(|r| r.game);
    records
}

#[test]
fn a_short_match_between_strategies_plays_pairs_with_the_same_draws() {
    let dir = tempfile::tempdir().expect("temp dir");
    let records = dir.path().join("games.jsonl");
    let out = referee(&[
        "--engine",
        &strategy("greedy"),
        "--engine",
        &strategy("random"),
        "--games",
        "4",
        "--movetime",
        "20",
        "--concurrency",
        "2",
        "--seed",
        "11",
        "--records",
        records.to_str().expect("utf-8 path"),
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("games 4: normal 4"), "{report}");
    assert!(
        report.contains("Strategy=greedy") && report.contains("elo (engine 1 minus engine 2)"),
        "{report}"
    );
    let records = records_of(&records);
    assert_eq!(records.len(), 4);
    for pair in records.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!(a.pair, b.pair);
        assert_eq!(a.seed, b.seed);
        assert_eq!(a.seating, vec![0, 1]);
        assert_eq!(b.seating, vec![1, 0]);
        assert_eq!(a.engines[0], b.engines[1]);
        // The same tiles in the same order in both games of a pair, however many each draw took.
        let drawn = |r: &Record| -> String {
            let moves = r.replay.split(" moves ").nth(1).unwrap_or("");
            moves.split(' ').filter_map(|t| t.strip_prefix('+')).collect()
        };
        let (da, db) = (drawn(a), drawn(b));
        let n = da.len().min(db.len());
        assert!(n > 20, "{da} / {db}");
        assert_eq!(da[..n], db[..n]);
    }
    for r in &records {
        assert_eq!(r.end, "normal");
        assert!(r.moves > 10, "{r:?}");
        assert_eq!(r.standings.last().map(String::as_str), Some("gameover"));
        assert_eq!(r.results.iter().filter(|o| *o == "win").count(), usize::from(r.winner.is_some()));
        // Every seat moved, so each waited some time for a `go`, and well within the margin.
        assert_eq!(r.slowest_go_millis.len(), 2, "{r:?}");
        assert!(r.slowest_go_millis.iter().all(|&ms| ms < 20 + 2000), "{r:?}");
    }
    let slowest = records.iter().flat_map(|r| r.slowest_go_millis.iter().copied()).max().unwrap_or(0);
    assert!(report.contains(&format!(" {slowest} ms")), "{report}");
    assert!(report.contains("longest go: engine 1 "), "{report}");
}

#[test]
fn records_replay_to_the_same_score_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let records = dir.path().join("games.jsonl");
    referee(&[
        "--engine",
        &strategy("random"),
        "--engine",
        &strategy("greedy"),
        "--games",
        "2",
        "--movetime",
        "10",
        "--seed",
        "5",
        "--records",
        records.to_str().expect("utf-8 path"),
    ]);
    for record in records_of(&records) {
        let mut child = Command::new(engine())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let mut stdin = child.stdin.take().expect("piped stdin");
        writeln!(stdin, "1 {}\n2 score\n3 quit", record.replay).expect("the engine reads");
        drop(stdin);
        let out = child.wait_with_output().expect("the engine ends");
        let text = String::from_utf8(out.stdout).expect("utf-8 output");
        let blocks: Vec<&str> = text.split("\n\n").collect();
        assert_eq!(blocks[0], "=1", "the replay was refused: {text}");
        let score = blocks[1].strip_prefix("=2 ").unwrap_or_else(|| panic!("no score response: {text}"));
        assert_eq!(score.lines().collect::<Vec<_>>(), record.standings, "replay of game {}", record.game);
    }
}

/// A fake engine: answers every command with an empty success, and does `on_go` on `go`.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r id cmd rest; do\n  case \"$cmd\" in\n    go) {on_go} ;;\n    *) printf '=%s\\n\\n' \"$id\" ;;\n  esac\ndone\n"
    );
    fs::write(&path, script).expect("write the script");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("make it executable");
    path.display().to_string()
}

/// Plays a pair between a faulty engine (first) and the real one; checks that the faulty engine
/// lost both games for `kind` and returns the records.
fn faulty_pair(name: &str, on_go: &str, kind: &str) -> Vec<Record> {
    let dir = tempfile::tempdir().expect("temp dir");
    let fake = fake_engine(dir.path(), name, on_go);
    let records = dir.path().join("games.jsonl");
    let out = referee(&[
        "--engine",
        &fake,
        "--engine",
        &strategy("random"),
        "--games",
        "2",
        "--movetime",
        "50",
        "--margin",
        "400",
        // Under load an engine's start alone may take longer than the margin: the real engine
        // must not lose before the fake is tried. One game at a time, so that one game's fake
        // (a flood of `info` lines above all) does not slow the other game's real engine.
        "--startup-timeout",
        "20000",
        "--concurrency",
        "1",
        "--records",
        records.to_str().expect("utf-8 path"),
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains(&format!("games 2: {kind} 2")), "{report}");
    let records = records_of(&records);
    assert_eq!(records.len(), 2);
    for r in &records {
        let seat = r.seating.iter().position(|&e| e == 0).expect("the fake has a seat");
        assert_eq!(r.end, kind, "{r:?}");
        assert_eq!(r.fault_seat, Some(seat + 1), "{r:?}");
        assert_eq!(r.results[seat], "loss");
        assert_eq!(r.results[1 - seat], "win");
        assert_eq!(r.winner, Some(2 - seat));
        assert!(r.detail.as_deref().is_some_and(|d| !d.is_empty()), "{r:?}");
    }
    records
}

#[test]
fn an_illegal_move_loses() {
    let records = faulty_pair("illegal.sh", "printf '=%s bestmove 1@a1\\n\\n' \"$id\"", "illegal_move");
    assert!(records[0].detail.as_deref().is_some_and(|d| d.contains("1@a1")), "{records:?}");
}

#[test]
fn a_move_that_does_not_parse_loses() {
    faulty_pair("nonsense.sh", "printf '=%s bestmove 9@zz99\\n\\n' \"$id\"", "illegal_move");
}

#[test]
fn no_answer_to_go_loses_on_time() {
    let records = faulty_pair("silent.sh", ":", "timeout");
    assert!(records[0].detail.as_deref().is_some_and(|d| d.contains("450 ms")), "{records:?}");
}

/// An engine that floods `info` lines during `go` and never answers loses on time at its deadline:
/// the lines waiting to be read do not hold the deadline off, and the referee's memory stays
/// bounded (it once grew without end). The flood comes in bursts of 20,000 lines (about 1 MB)
/// every 50 ms, so that it keeps the referee's queue full but stays far below the 64 MiB a
/// response may have before its deadline (an unthrottled `yes` reaches that limit first on a fast
/// machine, a `garbage` fault: the unit tests of engine_process.rs cover that limit).
#[test]
fn a_flood_of_info_lines_loses_on_time() {
    let started = std::time::Instant::now();
    let flood =
        "while :; do yes 'info string flood flood flood flood flood' | head -n 20000; sleep 0.05; done";
    let records = faulty_pair("flood.sh", flood, "timeout");
    assert!(records[0].detail.as_deref().is_some_and(|d| d.contains("450 ms")), "{records:?}");
    // Two timeouts of 450 ms and the other engine's moves, with room for a busy machine.
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(20), "the match took {took:?}");
}

/// Whether process `pid` has ended (a zombie that waits to be reaped counts as ended), waiting up
/// to two seconds for it.
fn ended(pid: u32) -> bool {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        let state = fs::read_to_string(format!("/proc/{pid}/stat")).ok();
        // The state follows the command name in parentheses, which may hold spaces.
        let running = state
            .as_deref()
            .and_then(|s| s.rsplit_once(") "))
            .is_some_and(|(_, rest)| !rest.starts_with('Z'));
        if !running {
            return true;
        }
        if std::time::Instant::now() > until {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The pids a fake engine wrote, one a line, to `file`.
fn pids_in(file: &Path) -> Vec<u32> {
    let text = fs::read_to_string(file).unwrap_or_default();
    text.lines().filter_map(|l| l.trim().parse().ok()).collect()
}

/// A faulty engine's whole process group is killed, what its shell started too, without a `kill`
/// program on PATH (the referee once ran `kill` to end the group).
#[test]
fn a_faulty_engines_children_are_killed_without_a_kill_program() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pids = dir.path().join("pids");
    let fake = dir.path().join("spawner.sh");
    let script = format!(
        "#!/bin/sh\n/bin/sleep 1000 </dev/null >/dev/null 2>&1 &\necho $! >> '{}'\nwhile read -r id cmd rest; do\n  case \"$cmd\" in\n    go) : ;;\n    *) printf '=%s\\n\\n' \"$id\" ;;\n  esac\ndone\n",
        pids.display()
    );
    fs::write(&fake, script).expect("write the script");
    fs::set_permissions(&fake, fs::Permissions::from_mode(0o755)).expect("make it executable");
    let bin = dir.path().join("bin");
    fs::create_dir(&bin).expect("a bin directory");
    std::os::unix::fs::symlink("/bin/sh", bin.join("sh")).expect("link sh");
    let out = Command::new(REFEREE)
        .args(["--engine", &fake.display().to_string(), "--engine", &strategy("random")])
        .args(["--games", "2", "--movetime", "20", "--margin", "200", "--concurrency", "1"])
        .env("PATH", &bin)
        .stdin(Stdio::null())
        .output()
        .expect("the referee runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("games 2: timeout 2"), "{report}{}", String::from_utf8_lossy(&out.stderr));
    let pids = pids_in(&pids);
    assert_eq!(pids.len(), 2, "one engine process a game");
    for pid in pids {
        assert!(ended(pid), "the engine's child {pid} survived");
    }
}

/// SIGTERM, SIGINT or SIGHUP during a match kills every engine's process group (each in a group
/// of its own, out of reach of a terminal's signal) and exits with 128 + the signal; the records
/// file holds whole lines only.
#[test]
fn a_signal_kills_the_engines_and_exits() {
    for (signal, name) in [(libc::SIGTERM, "TERM"), (libc::SIGINT, "INT"), (libc::SIGHUP, "HUP")] {
        let dir = tempfile::tempdir().expect("temp dir");
        let pids = dir.path().join("pids");
        // The engine writes its pid and its child's, then never answers `go`.
        let script = format!(
            "#!/bin/sh\necho $$ >> '{0}'\nsleep 1000 </dev/null >/dev/null 2>&1 &\necho $! >> '{0}'\nwhile read -r id cmd rest; do\n  case \"$cmd\" in\n    go) echo go >> '{0}' ;;\n    *) printf '=%s\\n\\n' \"$id\" ;;\n  esac\ndone\n",
            pids.display()
        );
        let fake = dir.path().join("hang.sh");
        fs::write(&fake, script).expect("write the script");
        fs::set_permissions(&fake, fs::Permissions::from_mode(0o755)).expect("make it executable");
        let records = dir.path().join("games.jsonl");
        let child = Command::new(REFEREE)
            .args(["--engine", &fake.display().to_string(), "--engine", &strategy("random")])
            .args(["--games", "2", "--movetime", "20", "--margin", "60000", "--concurrency", "1"])
            .args(["--records", records.to_str().expect("utf-8 path")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the referee starts");
        let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while !fs::read_to_string(&pids).unwrap_or_default().contains("go") {
            assert!(std::time::Instant::now() < until, "the engine was never asked to move");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let referee = libc::pid_t::try_from(child.id()).expect("a pid");
        // SAFETY: kill only sends a signal, here to the referee this test started.
        assert_eq!(unsafe { libc::kill(referee, signal) }, 0);
        let out = child.wait_with_output().expect("the referee ends");
        assert_eq!(
            out.status.code(),
            Some(128 + signal),
            "SIG{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pids = pids_in(&pids);
        assert_eq!(pids.len(), 2, "SIG{name}: the engine and its child");
        for pid in pids {
            assert!(ended(pid), "SIG{name}: engine process {pid} survived");
        }
        let written = fs::read_to_string(&records).unwrap_or_default();
        assert!(written.is_empty() || written.ends_with('\n'), "SIG{name}: {written}");
    }
}

/// An engine that cannot be started (not found, or not executable) is a `spawn` fault, not a
/// crash, and when it cannot start for its first game the match is abandoned: exit status 2, the
/// reason on stderr and no report.
#[test]
fn an_engine_that_cannot_start_abandons_the_match() {
    let dir = tempfile::tempdir().expect("temp dir");
    let not_executable = dir.path().join("engine.sh");
    fs::write(&not_executable, "#!/bin/sh\n").expect("write the file");
    let missing = dir.path().join("no-such-engine").display().to_string();
    let cases =
        [(missing.as_str(), "not found"), (not_executable.to_str().expect("utf-8 path"), "not executable")];
    for (command, cause) in cases {
        let random = strategy("random");
        let records = dir.path().join("games.jsonl");
        let out = Command::new(REFEREE)
            .args(["--engine", &random, "--engine", command, "--games", "2", "--movetime", "10"])
            .args(["--records", records.to_str().expect("utf-8 path")])
            .stdin(Stdio::null())
            .output()
            .expect("the referee runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("engine 2 cannot be started (spawn: ") && stderr.contains(cause), "{stderr}");
        assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
        assert_eq!(fs::read_to_string(&records).unwrap_or_default(), "", "no game is recorded");
    }
}

/// Output after an engine's last move of a game is charged to that game, not to the engine's next
/// one: with two rounds the fake (which asks the real engine for its moves) prints a stray line
/// after its second move, and each game it played to the end is its `garbage` loss, the moves
/// all played.
#[test]
fn stray_output_after_the_last_move_loses_that_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fake = dir.path().join("stray.sh");
    let script = format!(
        "#!/bin/sh\nn=0\nwhile read -r id cmd rest; do\n  case \"$cmd\" in\n    newgame) n=0; printf '=%s\\n\\n' \"$id\" ;;\n    position) pos=\"$cmd $rest\"; printf '=%s\\n\\n' \"$id\" ;;\n    go) mv=$(printf '1 %s\\n2 go %s\\n3 quit\\n' \"$pos\" \"$rest\" | '{}' | sed -n 's/^=2 bestmove \\([^ ]*\\).*/\\1/p')\n        printf '=%s bestmove %s\\n\\n' \"$id\" \"$mv\"; n=$((n+1)); [ $n -eq 2 ] && echo 'stray line' ;;\n    *) printf '=%s\\n\\n' \"$id\" ;;\n  esac\ndone\n",
        engine().display()
    );
    fs::write(&fake, script).expect("write the script");
    fs::set_permissions(&fake, fs::Permissions::from_mode(0o755)).expect("make it executable");
    let records = dir.path().join("games.jsonl");
    referee(&[
        "--engine",
        &fake.display().to_string(),
        "--engine",
        &strategy("random"),
        "--rule",
        "rounds=2",
        "--games",
        "2",
        "--movetime",
        "10",
        "--concurrency",
        "1",
        "--records",
        records.to_str().expect("utf-8 path"),
    ]);
    for r in records_of(&records) {
        let seat = r.seating.iter().position(|&e| e == 0).expect("the fake has a seat");
        assert_eq!((r.end.as_str(), r.fault_seat), ("garbage", Some(seat + 1)), "{r:?}");
        let detail = r.detail.as_deref().unwrap_or("");
        assert!(detail.contains("after the last move") && detail.contains("stray line"), "{r:?}");
        assert_eq!(r.moves, 4, "{r:?}");
        assert_eq!(r.standings.last().map(String::as_str), Some("gameover"), "{r:?}");
        assert_eq!(r.results[seat], "loss", "{r:?}");
    }
}

/// An engine that takes a second to start times out on `newgame` within `--margin`, every game
/// (each fault starts a fresh process); `--startup-timeout` gives the first command after a start
/// longer, and the games are played.
#[test]
fn a_slow_starting_engine_needs_a_startup_timeout() {
    let dir = tempfile::tempdir().expect("temp dir");
    let slow = dir.path().join("slow.sh");
    let script = format!("#!/bin/sh\nsleep 1\nexec {}\n", strategy("random"));
    fs::write(&slow, script).expect("write the script");
    fs::set_permissions(&slow, fs::Permissions::from_mode(0o755)).expect("make it executable");
    let random = strategy("random");
    let slow = slow.display().to_string();
    let common =
        ["--engine", &slow, "--engine", &random, "--games", "2", "--movetime", "10", "--margin", "300"];
    let out = referee(&common);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("games 2: timeout 2"), "{report}");
    let out = referee(&[&common[..], &["--startup-timeout", "10000"]].concat());
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("games 2: normal 2"), "{report}");
}

#[test]
fn a_crash_loses() {
    let records = faulty_pair("crash.sh", "exit 3", "crash");
    // Both games end in `go`: after the first crash a fresh process answered newgame and position.
    for r in &records {
        let detail = r.detail.as_deref().unwrap_or("");
        assert!(detail.contains("during go") && detail.contains("exit status: 3"), "{r:?}");
    }
}

#[test]
fn garbage_loses() {
    faulty_pair("garbage.sh", "echo 'hello, referee'", "garbage");
}

#[test]
fn a_response_with_the_wrong_id_loses() {
    faulty_pair("wrongid.sh", "printf '=999 bestmove pass\\n\\n'", "garbage");
}

#[test]
fn info_lines_then_an_error_response_loses() {
    faulty_pair("error.sh", "printf 'info depth 1\\n?%s internal oops\\n\\n' \"$id\"", "error");
}

#[test]
fn shards_merge_into_the_report_of_the_whole_match() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name).to_str().expect("utf-8 path").to_string();
    let (greedy, random) = (strategy("greedy"), strategy("random"));
    let common =
        ["--engine", &greedy, "--engine", &random, "--games", "6", "--movetime", "10", "--seed", "3"];
    let whole = referee(&[&common[..], &["--records", &path("all.jsonl")]].concat());
    for i in 1..=2 {
        referee(
            &[&common[..], &["--shard", &format!("{i}/2"), "--records", &path(&format!("s{i}.jsonl"))]]
                .concat(),
        );
    }
    let shard1 = records_of(Path::new(&path("s1.jsonl")));
    assert_eq!(shard1.iter().map(|r| r.game).collect::<Vec<_>>(), vec![0, 1, 4, 5]);
    let merged = referee(&["merge", &path("s1.jsonl"), &path("s2.jsonl")]);
    // The same report but for the times, which differ from run to run; merge takes the longest
    // answers from the shards' records.
    let untimed = |out: &[u8]| -> String {
        String::from_utf8_lossy(out).lines().filter(|l| !l.starts_with("longest go:")).collect()
    };
    assert_eq!(untimed(&merged.stdout), untimed(&whole.stdout));
    let shards = [shard1.clone(), records_of(Path::new(&path("s2.jsonl")))].concat();
    let longest = |engine: usize| {
        let seats = shards.iter().flat_map(|r| r.seating.iter().zip(&r.slowest_go_millis));
        seats.filter(|&(&e, _)| e == engine).map(|(_, &ms)| ms).max().unwrap_or(0)
    };
    let line = format!("longest go: engine 1 {} ms, engine 2 {} ms", longest(0), longest(1));
    assert!(String::from_utf8_lossy(&merged.stdout).contains(&line), "{line}");
    let all: Vec<String> =
        records_of(Path::new(&path("all.jsonl"))).iter().map(|r| r.replay.clone()).collect();
    let mut parts: Vec<Record> = shard1;
    parts.extend(records_of(Path::new(&path("s2.jsonl"))));
    parts.sort_by_key(|r| r.game);
    assert_eq!(parts.iter().map(|r| r.replay.clone()).collect::<Vec<_>>(), all);
}

#[test]
fn compare_measures_a_change_of_engine_game_by_game_and_refuses_other_draws() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name).to_str().expect("utf-8 path").to_string();
    let (greedy, random) = (strategy("greedy"), strategy("random"));
    let play = |first: &str, seed: &str, file: &str| {
        referee(&[
            "--engine",
            first,
            "--engine",
            &random,
            "--games",
            "4",
            "--movetime",
            "10",
            "--seed",
            seed,
            "--records",
            &path(file),
        ]);
    };
    play(&greedy, "3", "greedy.jsonl");
    play(&random, "3", "random.jsonl");
    play(&random, "4", "other.jsonl");
    let out = referee(&["compare", &path("greedy.jsonl"), &path("random.jsonl")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("engine 1: 4 games in common (2 groups"), "{text}");
    // Greedy beats random by hundreds of points; the same seat played randomly does not.
    let change = |name: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with(name)).expect("a line per measure");
        let after = line.split("change ").nth(1).expect("a change");
        after.split([' ', '%']).next().and_then(|v| v.parse().ok()).expect("a number")
    };
    assert!(change("margin") < -100.0 && change("score") < -100.0, "{text}");
    assert!(change("win rate") < 0.0, "{text}");
    let refused = Command::new(REFEREE)
        .args(["compare", &path("greedy.jsonl"), &path("other.jsonl")])
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not played alike"));
}

/// `compare` and `merge` refuse matches that were not played alike: `compare` of a classic and a
/// kids match on the same seed, `merge` of files of two matches (another variant, another seed),
/// where it once dropped the games of one as duplicates.
#[test]
fn compare_and_merge_refuse_matches_not_played_alike() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name).to_str().expect("utf-8 path").to_string();
    let random = strategy("random");
    let play = |variant: &str, seed: &str, file: &str| {
        referee(&[
            "--engine",
            &random,
            "--engine",
            &random,
            "--variant",
            variant,
            "--games",
            "2",
            "--movetime",
            "10",
            "--seed",
            seed,
            "--records",
            &path(file),
        ]);
    };
    play("classic", "3", "classic.jsonl");
    play("kids", "3", "kids.jsonl");
    play("classic", "4", "other.jsonl");
    let refused = |args: &[&str], says: &str| {
        let out = Command::new(REFEREE).args(args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
    };
    refused(&["compare", &path("classic.jsonl"), &path("kids.jsonl")], "not played alike");
    refused(&["merge", &path("classic.jsonl"), &path("kids.jsonl")], "variant kids");
    refused(&["merge", &path("classic.jsonl"), &path("other.jsonl")], "another seed");
    // The same file twice is one match: its games are duplicates.
    let twice = referee(&["merge", &path("classic.jsonl"), &path("classic.jsonl")]);
    assert!(String::from_utf8_lossy(&twice.stderr).contains("2 duplicate games ignored"));
    assert!(String::from_utf8_lossy(&twice.stdout).contains("games 2:"));
}

/// A record as `zatre-match` writes it, of game `game` (group `game / 2`) of a two-engine match.
fn record_json(game: u64) -> serde_json::Value {
    let seating = if game.is_multiple_of(2) { [0, 1] } else { [1, 0] };
    serde_json::json!({
        "game": game, "pair": game / 2, "seed": 7 + game / 2,
        "engines": seating.map(|e| format!("engine{e}")), "seating": seating,
        "replay": format!("position startpos variant classic players 2 seed {} moves +441 4@h8,1@h9,4@h10", 7 + game / 2),
        "scores": [30, 20], "winner": 1, "results": ["win", "loss"], "end": "normal",
        "standings": [], "moves": 1, "millis": 3, "slowest_go_millis": [1, 2]
    })
}

/// Records that parse as JSON but do not hold together (no engines, an unknown result, a seat
/// out of range, ...) were counted as losses, zero scores or an engine "0"; `merge` and `compare`
/// now refuse them with the file and line, status 2, and print no report. An empty records file
/// was an empty report with status 0.
#[test]
fn malformed_records_are_refused_with_their_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, lines: &[String]| {
        let path = dir.path().join(name);
        fs::write(&path, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).expect("write");
        path.to_str().expect("utf-8 path").to_string()
    };
    let good = write("good.jsonl", &[record_json(0).to_string(), record_json(1).to_string()]);
    let run = |args: &[&str]| Command::new(REFEREE).args(args).stdin(Stdio::null()).output().expect("runs");
    let merged = run(&["merge", &good]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let broken: [(&str, serde_json::Value, &str); 12] = [
        ("engines", serde_json::json!([]), "0 engines for 2 seats"),
        ("scores", serde_json::json!([30]), "1 scores for 2 seats"),
        // A margin of these once overflowed (a panic in merge and compare).
        ("scores", serde_json::json!([i64::MAX, -1]), "score 9223372036854775807 is out of range"),
        ("results", serde_json::json!(["win", "lost"]), "result 'lost'"),
        ("seating", serde_json::json!([0, 0]), "seating [0, 0]"),
        ("seating", serde_json::json!([18446744073709551615u64, 1]), "is not an order"),
        ("seating", serde_json::json!([]), "0 seats"),
        ("pair", serde_json::json!(5), "is in group 0, not 5"),
        ("replay", serde_json::json!("nonsense"), "replay 'nonsense'"),
        ("end", serde_json::json!("won"), "end 'won'"),
        ("fault_seat", serde_json::json!(3), "fault_seat 3"),
        ("winner", serde_json::json!(0), "winner 0"),
    ];
    for (field, value, says) in broken {
        let mut bad = record_json(1);
        bad[field] = value;
        let file = write("bad.jsonl", &[record_json(0).to_string(), bad.to_string()]);
        for args in [vec!["merge", &file], vec!["compare", &good, &file], vec!["compare", &file, &good]] {
            let out = run(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{field}: {args:?}: {stderr}");
            assert!(
                stderr.contains(&format!("{file}:2: not a record of zatre-match: ")),
                "{field}: {stderr}"
            );
            assert!(stderr.contains(says), "{field}: {stderr}");
            assert!(out.stdout.is_empty(), "{field}: {}", String::from_utf8_lossy(&out.stdout));
        }
    }
    // Not JSON, not UTF-8, nothing at all: each named once, with its line.
    let not_json = write("text.jsonl", &["garbage".to_string()]);
    let stderr = String::from_utf8_lossy(&run(&["merge", &not_json]).stderr).into_owned();
    assert!(stderr.starts_with(&format!("zatre-match: {not_json}:1: not a record")), "{stderr}");
    assert_eq!(stderr.matches(&not_json).count(), 1, "{stderr}");
    let binary = dir.path().join("binary.jsonl");
    fs::write(&binary, [record_json(0).to_string().as_bytes(), b"\n\xff\xfe\n"].concat()).expect("write");
    let out = run(&["merge", binary.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("binary.jsonl:2: the line is not UTF-8"));
    // One endless line is refused at its limit, not read into memory whole.
    let endless = dir.path().join("endless.jsonl");
    fs::write(&endless, vec![b'x'; (16 << 20) + 2]).expect("write");
    let out = run(&["merge", endless.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("endless.jsonl:1: the line is longer than 16777216 bytes"));
    let empty = write("empty.jsonl", &[]);
    for args in [vec!["merge", &empty], vec!["compare", &good, &empty]] {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("no game"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn sprt_stops_a_match_between_equals_early() {
    let random = strategy("random");
    let out = referee(&[
        "--engine",
        &random,
        "--engine",
        &random,
        "--games",
        "400",
        "--movetime",
        "10",
        "--sprt",
        "0,50",
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("H0 accepted"), "{report}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stopped after"), "{stderr}");
}

#[test]
fn bad_arguments_are_refused() {
    let out = Command::new(REFEREE).args(["--games", "2"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(REFEREE).args(["--engine", "x", "--shard", "3/2"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(REFEREE).args(["--engine", "x", "--variant", "chess"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    // Out of range: far too many games (planning them aborted on allocation), an infinite SPRT
    // bound, a limit that does not fit in 64 bits. None of them starts an engine.
    let overflow = u64::MAX.to_string();
    let cases: [&[&str]; 6] = [
        &["--games", &overflow],
        &["--games", "1000001"],
        // No game at all was an empty report with status 0.
        &["--games", "0"],
        &["--sprt=-inf,0", "--engine", "y"],
        &["--sprt", "0,NaN", "--engine", "y"],
        &["--movetime", &overflow, "--margin", "10"],
    ];
    for args in cases {
        let out = Command::new(REFEREE).args(["--engine", "x"]).args(args).output().expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // No time or no nodes a move is a usage error naming the flag (as zatre-analyse and
    // zatre-ceiling say), not a match of engines that cannot search.
    for flag in ["--nodes", "--movetime"] {
        let out = Command::new(REFEREE).args(["--engine", "x", flag, "0"]).output().expect("runs");
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(flag) && stderr.contains("not in 1.."), "{stderr}");
    }
    // A records file that cannot be written is named.
    let out = Command::new(REFEREE)
        .args(["--engine", "x", "--records", "/nonexistent-dir/games.jsonl"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/nonexistent-dir/games.jsonl: writing records: "), "{stderr}");
}

#[test]
fn output_that_is_not_utf8_loses() {
    let records = faulty_pair("binary.sh", "printf '\\377\\376\\n'", "garbage");
    assert!(records[0].detail.as_deref().is_some_and(|d| d.contains("UTF-8")), "{records:?}");
}
