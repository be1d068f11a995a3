//! `zatre-ceiling` through its binary: tiny node-limited games in every variant, both players on
//! the same games, records that say what the report says, and clear errors on bad flags.

use std::process::{Command, Output, Stdio};

use zatre_tools::ceiling::{CeilingRecord, CeilingReport};

const CEILING: &str = env!("CARGO_BIN_EXE_zatre-ceiling");

fn ceiling(args: &[&str]) -> Output {
    Command::new(CEILING).args(args).stdin(Stdio::null()).output().expect("zatre-ceiling runs")
}

fn read(path: &std::path::Path) -> Vec<CeilingRecord> {
    let text = std::fs::read_to_string(path).expect("records written");
    text.lines().map(|l| serde_json::from_str(l).expect("a record parses")).collect()
}

/// The replay's tokens after `moves`.
fn tokens(replay: &str) -> Vec<&str> {
    replay.split(" moves ").nth(1).unwrap_or("").split(' ').collect()
}

#[test]
fn both_players_play_the_same_games_in_every_variant() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tables: [(&str, u64); 5] = [("classic", 2), ("classic", 3), ("classic", 4), ("dice", 2), ("kids", 2)];
    for (variant, players) in tables {
        let file = dir.path().join(format!("{variant}{players}.jsonl"));
        let games = players.to_string();
        let out = ceiling(&[
            "--variant",
            variant,
            "--players",
            &games,
            "--games",
            &games,
            "--nodes",
            "2000",
            "--seed",
            "5",
            "--records",
            file.to_str().expect("utf-8 path"),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{variant} {players}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(
            stdout.starts_with(&format!("{players} players, {variant}, seed 5, 2000 nodes a move")),
            "{stdout}"
        );
        for player in ["clairvoyant", "search"] {
            assert!(stdout.contains(&format!("{player} games: normal {players}")), "{stdout}");
        }
        assert!(stdout.contains("share of the clairvoyant's edge that search gets: margin"), "{stdout}");

        let records = read(&file);
        assert_eq!(records.len() as u64, 2 * players, "{variant} {players}");
        // The report of the records is the one printed.
        assert!(stdout.ends_with(&CeilingReport::from_records(&records).render()), "{stdout}");
        for game in 0..players {
            let of = |player: &str| {
                records
                    .iter()
                    .find(|r| r.player == player && r.game.game == game)
                    .expect("a game of each player")
            };
            let (c, s) = (of("clairvoyant"), of("search"));
            assert_eq!((c.game.seed, &c.game.seating), (s.game.seed, &s.game.seating));
            assert_eq!(
                c.game.seating[((players - game % players) % players) as usize],
                0,
                "the seat rotates"
            );
            assert_eq!(c.greedy, s.greedy, "one greedy game a group");
            assert_eq!((c.greedy.seed, &c.greedy.seating), (c.game.seed, &c.game.seating));
            assert_eq!(c.greedy.engines, vec!["greedy"; players as usize]);
            // The same dealer for greedy's game too.
            assert_eq!(tokens(&c.greedy.replay)[0], tokens(&c.game.replay)[0]);
            // The same dealer: the same first draw (classic: the start draw; dice: the first roll).
            assert_eq!(tokens(&c.game.replay)[0], tokens(&s.game.replay)[0]);
            assert!(c.game.scores.iter().all(|&v| v > 0), "{variant}: {:?}", c.game.scores);
        }
    }
}

#[test]
fn bad_flags_get_a_clear_error_and_play_nothing() {
    let cases: [(&[&str], &str); 12] = [
        (&["--players", "1"], "--players 1: the table takes 2 to 6 players"),
        (&["--players", "7"], "--players 7: the table takes 2 to 6 players"),
        (&["--variant", "chess"], "unknown variant 'chess'"),
        (&["--player", "oracle"], "unknown --player 'oracle' (clairvoyant, search or both)"),
        (&["--rule", "teams"], "--rule takes KEY=VALUE, not 'teams'"),
        (&["--rule", "center_cross=maybe"], "center_cross"),
        (&["--games", "0"], "--games 0"),
        (&["--nodes", "0"], "--nodes 0"),
        (&["--movetime", "0"], "--movetime 0"),
        (&["--concurrency", "0"], "--concurrency 0"),
        (
            &["--nodes", "10", "--records", "/nonexistent/dir/games.jsonl"],
            "/nonexistent/dir/games.jsonl: writing records",
        ),
        // Every game is planned first: far too many ran out of memory instead of being refused.
        (&["--games", "1000001"], "--games"),
    ];
    for (args, message) in cases {
        let out = ceiling(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed a report");
    }
    let both = ceiling(&["--movetime", "10", "--nodes", "10"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("cannot be used with"));
}

/// One player alone gets no share; `--depth` reaches its search (playouts, on the true draws for
/// the clairvoyant).
#[test]
fn one_player_at_a_depth_of_its_own() {
    let out = ceiling(&["--player", "clairvoyant", "--nodes", "5000", "--depth", "3", "--games", "2"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("2 players, classic, seed 1, 5000 nodes, depth 3 a move"), "{stdout}");
    assert!(stdout.contains("clairvoyant games: normal 2") && !stdout.contains("search games"), "{stdout}");
    assert!(!stdout.contains("share"), "{stdout}");
}
