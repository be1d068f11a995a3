//! `zatre-analyse` through real processes: a deliberately bad move in an otherwise normal game is
//! the largest loss of that game; real `zatre-match` records and position lines analyse, as text
//! and as JSON with every turn; bad input and a failing engine give clear errors, never a panic.
//!
//! The engine binary `zatre` belongs to another package: `engine_path` says where it is found.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use engine_path::engine;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use zatre::rules::{Move, Phase, Position, Rules, Variant};
use zatre_tools::referee::{read_records, EngineProcess};

use crate::engine_path;

const ANALYSE: &str = env!("CARGO_BIN_EXE_zatre-analyse");
const REFEREE: &str = env!("CARGO_BIN_EXE_zatre-match");

/// The node limit of the tests: small, so that a game takes seconds even with a debug engine.
const NODES: &str = "20000";

/// Runs `zatre-analyse` with `args` and `input` on stdin.
fn analyse(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(ANALYSE)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("zatre-analyse starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(input.as_ref()).expect("zatre-analyse reads its input");
    drop(stdin);
    child.wait_with_output().expect("zatre-analyse ends")
}

/// Runs it on the real engine at [`NODES`] (plus `extra` arguments); panics with its stderr when it
/// fails.
fn analyse_ok(extra: &[&str], input: &str) -> String {
    let engine = engine().display().to_string();
    let mut args = vec!["--engine", &engine, "--nodes", NODES];
    args.extend_from_slice(extra);
    let out = analyse(&args, input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "zatre-analyse {args:?} failed:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Every line of `--json` output, parsed.
fn json_games(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

/// What a move adds to the mover's sheet now.
fn gain(position: &Position, mv: &Move) -> u32 {
    let rules = position.rules();
    let score = position.score_move(mv).expect("a legal move scores");
    position.sheets()[rules.sheet_of_seat(position.to_move())].gain(rules, &score, mv.len())
}

/// A normal classic two-player game of `rounds` rounds (to the end when 0): seeded draws and
/// greedy moves (the move that adds most to the mover's sheet now). Returns the game as a
/// `position startpos` line and its moves.
fn seeded_game(seed: u64, rounds: u32) -> (String, Vec<String>) {
    let rounds_text = rounds.to_string();
    let options = if rounds > 0 { vec![("rounds", rounds_text.as_str())] } else { vec![] };
    let rules = Rules::with_options(Variant::Classic, 2, options).expect("classic rules");
    let mut position = Position::new(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut tokens, mut moves) = (Vec::new(), Vec::new());
    loop {
        match position.phase() {
            Phase::Over => break,
            Phase::Draw => {
                let values = position.draw_random(&mut rng).expect("the bag has tiles");
                tokens.push(draw_token(&values));
            }
            Phase::Place => {
                let legal = position.movegen().legal_moves();
                let mv = legal.iter().max_by_key(|mv| gain(&position, mv)).expect("a legal move").clone();
                position.play(&mv).expect("a generated move is legal");
                tokens.push(mv.to_string());
                moves.push(mv.to_string());
            }
        }
    }
    let start = if rounds > 0 {
        format!("position startpos rounds={rounds}")
    } else {
        "position startpos".to_string()
    };
    (format!("{start} moves {}", tokens.join(" ")), moves)
}

fn draw_token(values: &[u8]) -> String {
    format!("+{}", values.iter().map(u8::to_string).collect::<String>())
}

/// A classic two-player game played to its end by the engine (`go nodes 5000`, fewer nodes than
/// the analysis gets, so that it makes the small mistakes of a normal game) on seeded draws,
/// except at turn `bad_turn`: there the legal move that the engine values lowest
/// (`go depth 0 searchmoves <move>`, every legal move in turn) is played. Returns the game as a
/// `position startpos` line, its moves, and the bad move.
fn engine_game_with_a_bad_move(seed: u64, bad_turn: u32) -> (String, Vec<String>, String) {
    let mut process = EngineProcess::spawn(&engine().display().to_string()).expect("the engine starts");
    let wait = Duration::from_secs(60);
    // `bestmove <move> score <s> ...`: the move and its score.
    let mut ask = |setup: &str, go: &str| -> (String, f64) {
        process.request(setup, wait, false).unwrap_or_else(|f| panic!("{setup}: {f}"));
        let reply = process.request(go, wait, true).unwrap_or_else(|f| panic!("{go}: {f}"));
        let words: Vec<&str> = reply.payload[0].split_whitespace().collect();
        match words.as_slice() {
            ["bestmove", mv, "score", score, ..] => (mv.to_string(), score.parse().expect("a score")),
            _ => panic!("{go}: {:?}", reply.payload),
        }
    };
    let mut position = Position::new(Rules::new(Variant::Classic, 2).expect("2 players are allowed"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut tokens, mut moves, mut bad) = (Vec::new(), Vec::new(), None);
    loop {
        match position.phase() {
            Phase::Over => break,
            Phase::Draw => {
                tokens.push(draw_token(&position.draw_random(&mut rng).expect("the bag has tiles")))
            }
            Phase::Place => {
                let setup = format!("position startpos moves {}", tokens.join(" "));
                let geometry = position.board().geometry();
                let parse = |text: &str| Move::parse(geometry, text).expect("the engine's move parses");
                let mv = if position.turn() == bad_turn {
                    let lowest = position
                        .movegen()
                        .legal_moves()
                        .into_iter()
                        .map(|mv| {
                            let value = ask(&setup, &format!("go depth 0 searchmoves {mv}"));
                            (value.1, mv)
                        })
                        .min_by(|a, b| a.0.total_cmp(&b.0))
                        .map(|(_, mv)| mv)
                        .expect("a legal move");
                    bad = Some(lowest.to_string());
                    lowest
                } else {
                    parse(&ask(&setup, "go nodes 5000").0)
                };
                position.play(&mv).expect("the engine's move is legal");
                tokens.push(mv.to_string());
                moves.push(mv.to_string());
            }
        }
    }
    process.quit();
    (
        format!("position startpos moves {}", tokens.join(" ")),
        moves,
        bad.expect("the game reached the bad turn"),
    )
}

#[test]
fn a_deliberately_bad_move_is_the_largest_loss_of_its_game() {
    let turn = 21;
    let (line, moves, bad) = engine_game_with_a_bad_move(2026, turn);
    let dir = tempfile::tempdir().expect("temp dir");
    let graph = dir.path().join("graph.svg");
    let out = analyse_ok(&["--json", "--svg", &graph.display().to_string()], &line);
    let games = json_games(&out);
    assert_eq!(games.len(), 1, "{out}");
    let game = &games[0];
    let turns = game["turns"].as_array().expect("turns");
    assert_eq!(turns.len(), moves.len(), "every move is a turn");
    assert_eq!(turns[turn as usize - 1]["played"], bad.as_str());
    let loss = |t: &Value| t["loss"].as_f64().expect("a loss");
    let largest = turns.iter().max_by(|a, b| loss(a).total_cmp(&loss(b))).expect("turns");
    let table: Vec<String> = turns
        .iter()
        .map(|t| format!("{} {} {} {} {}", t["turn"], t["played"], t["played_value"], t["best"], t["loss"]))
        .collect();
    assert_eq!(
        largest["turn"].as_u64(),
        Some(u64::from(turn)),
        "the bad move {bad} at turn {turn} should be the largest loss of\n{line}\n{}",
        table.join("\n")
    );
    assert!(loss(largest) > 5.0, "{largest}");
    // The seat that blundered lists it first among its worst moves.
    let seat = largest["seat"].as_u64().expect("a seat");
    let summary = &game["seats"][usize::try_from(seat - 1).expect("small")];
    assert_eq!(summary["worst"][0]["turn"], largest["turn"], "{summary}");
    assert!(summary["worst"].as_array().is_some_and(|w| (1..=5).contains(&w.len())), "{summary}");
    // In the chart too, the bad move's bar is the tallest.
    let svg = std::fs::read_to_string(&graph).expect("--svg wrote the graph");
    let chart = Chart::read(&svg);
    let tallest = chart.bars.iter().max_by(|a, b| a.height.total_cmp(&b.height)).expect("bars");
    assert_eq!(tallest.turn, turn, "{svg}");
}

/// What a test reads of a `--svg` chart: the lines by seat (their points) and the bars.
struct Chart {
    /// By seat: the (x, y) points of its line, in SVG units (y grows downwards).
    lines: Vec<Vec<(f64, f64)>>,
    bars: Vec<Bar>,
}

/// One bar of the losses.
struct Bar {
    turn: u32,
    seat: usize,
    loss: f64,
    height: f64,
}

impl Chart {
    /// Parses `svg` as XML (it must be well-formed) and reads the chart's parts.
    fn read(svg: &str) -> Chart {
        let doc =
            roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{svg}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
        assert!(root.children().any(|n| n.has_tag_name("title")), "a title for screen readers");
        let number = |node: roxmltree::Node, name: &str| -> f64 {
            node.attribute(name).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{name} of {node:?}"))
        };
        let mut lines = Vec::new();
        let mut dashes = Vec::new();
        for node in doc.descendants().filter(|n| n.has_tag_name("polyline")) {
            assert_eq!(node.attribute("class"), Some("margin"));
            // Told apart without their colours: each seat's line has its own pattern.
            let dash = node.attribute("stroke-dasharray").expect("a line pattern");
            assert!(!dashes.contains(&dash), "seat lines' patterns repeat: {dash}");
            dashes.push(dash);
            let seat: usize = number(node, "data-seat") as usize;
            assert_eq!(seat, lines.len() + 1, "lines in seat order");
            let points = node
                .attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap_or_else(|| panic!("a point x,y: {p}"));
                    (x.parse().expect("x"), y.parse().expect("y"))
                })
                .collect();
            lines.push(points);
        }
        let bars = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("class").is_some_and(|c| c.starts_with("loss")))
            .map(|n| Bar {
                turn: number(n, "data-turn") as u32,
                seat: number(n, "data-seat") as usize,
                loss: number(n, "data-loss"),
                height: number(n, "height"),
            })
            .collect();
        Chart { lines, bars }
    }
}

#[test]
fn the_svg_graph_has_a_line_per_seat_with_a_point_per_turn_and_a_bar_per_loss() {
    let (line, moves) = seeded_game(5, 5);
    let dir = tempfile::tempdir().expect("temp dir");
    let graph = dir.path().join("graph.svg");
    let out = analyse_ok(&["--json", "--svg", &graph.display().to_string()], &line);
    let game = &json_games(&out)[0];
    assert_eq!(game["replay"], line.as_str(), "the JSON holds the game, to load it again");
    let turns = game["turns"].as_array().expect("turns");
    let chart = Chart::read(&std::fs::read_to_string(&graph).expect("--svg wrote the graph"));
    assert_eq!(chart.lines.len(), 2, "one line per seat");
    for points in &chart.lines {
        assert_eq!(points.len(), moves.len(), "a point per turn");
        assert!(points.windows(2).all(|w| w[0].0 < w[1].0), "turns from left to right: {points:?}");
    }
    for (k, t) in turns.iter().enumerate() {
        // The mover's line is above the other's exactly when the mover expects to be ahead.
        let mover = t["seat"].as_u64().expect("a seat") as usize - 1;
        let value = t["played_value"].as_f64().expect("a value");
        let (mine, theirs) = (chart.lines[mover][k].1, chart.lines[1 - mover][k].1);
        if value > 0.05 {
            assert!(mine < theirs, "turn {}: value {value}, y {mine} against {theirs}", k + 1);
        } else if value < -0.05 {
            assert!(mine > theirs, "turn {}: value {value}, y {mine} against {theirs}", k + 1);
        }
    }
    let lost: Vec<&Value> = turns.iter().filter(|t| t["loss"].as_f64() > Some(0.0)).collect();
    assert_eq!(chart.bars.len(), lost.len(), "a bar per move that lost points");
    for (bar, t) in chart.bars.iter().zip(&lost) {
        assert_eq!(Some(u64::from(bar.turn)), t["turn"].as_u64());
        assert_eq!(Some(bar.seat as u64), t["seat"].as_u64());
        assert_eq!(Some(bar.loss), t["loss"].as_f64());
    }
    // Heights in proportion to the losses.
    for pair in chart.bars.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert!(
            (a.height * b.loss - b.height * a.loss).abs() < 0.2 * a.loss.max(b.loss),
            "{:?}",
            (a.loss, a.height, b.loss, b.height)
        );
    }
}

#[test]
fn real_match_records_analyse_as_text_and_json() {
    let dir = tempfile::tempdir().expect("temp dir");
    let records = dir.path().join("games.jsonl");
    let greedy = format!("{} --option Strategy=greedy", engine().display());
    let random = format!("{} --option Strategy=random", engine().display());
    let played = Command::new(REFEREE)
        .args(["--engine", &greedy, "--engine", &random, "--games", "2", "--nodes", "2000"])
        .args(["--rule", "rounds=6", "--concurrency", "1", "--seed", "3", "--records"])
        .arg(&records)
        .stdin(Stdio::null())
        .output()
        .expect("the referee runs");
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let mut expected = read_records(&records).expect("records parse");
    expected.sort_by_key(|r| r.game);
    let input = std::fs::read_to_string(&records).expect("the records file");
    let graph = dir.path().join("graph.svg");
    let mut games = json_games(&analyse_ok(&["--json", "--svg", &graph.display().to_string()], &input));
    games.sort_by_key(|g| g["game"].as_u64());
    assert_eq!(games.len(), 2);
    // Two games: a chart each, named by its input line.
    for line in [1, 2] {
        let svg =
            std::fs::read_to_string(dir.path().join(format!("graph-{line}.svg"))).expect("a chart per game");
        assert_eq!(Chart::read(&svg).lines.len(), 2);
    }
    assert!(!graph.exists(), "with several games, no chart under the bare name");
    for (game, record) in games.iter().zip(&expected) {
        assert_eq!(game["source"], "record");
        assert_eq!(game["game"].as_u64(), Some(record.game));
        assert_eq!(game["go"], format!("nodes {NODES}"));
        assert_eq!(game["finished"], true);
        let turns = game["turns"].as_array().expect("turns");
        assert_eq!(turns.len(), record.moves as usize, "every move of the record is a turn");
        assert_eq!(turns.first().map(|t| &t["turn"]), Some(&Value::from(1)));
        for (k, t) in turns.iter().enumerate() {
            assert_eq!(t["seat"].as_u64(), Some(k as u64 % 2 + 1), "{t}");
            assert!(t["loss"].as_f64().is_some_and(|l| l >= 0.0), "{t}");
            assert!(t["best_value"].is_f64() && t["played_value"].is_f64() && t["margins"].is_array(), "{t}");
            if t["played_is_best"] == true {
                assert_eq!(t["loss"], 0.0, "{t}");
                // The same placements, maybe written in another order.
                let placements = |v: &Value| {
                    let mut p: Vec<String> = v.as_str().unwrap_or("").split(',').map(String::from).collect();
                    p.sort();
                    p
                };
                assert_eq!(placements(&t["best"]), placements(&t["played"]), "{t}");
            }
        }
        for (seat, summary) in game["seats"].as_array().expect("seats").iter().enumerate() {
            assert_eq!(summary["engine"].as_str(), Some(record.engines[seat].as_str()));
            assert_eq!(summary["moves"].as_u64(), Some(6));
            let lost: f64 = turns
                .iter()
                .filter(|t| t["seat"] == seat + 1)
                .map(|t| t["loss"].as_f64().unwrap_or(0.0))
                .sum();
            assert!((summary["lost"].as_f64().expect("lost") - lost).abs() < 0.011, "{summary}");
        }
    }
    // The text report of the same file: a table per game and each seat's summary with its engine.
    let text = analyse_ok(&[], &input);
    assert_eq!(text.matches("zatre-match record of game").count(), 2, "{text}");
    assert!(
        text.contains(&format!("seat 1 {greedy}: lost "))
            || text.contains(&format!("seat 2 {greedy}: lost ")),
        "{text}"
    );
    assert!(text.contains(" turn seat  played"), "{text}");
}

#[test]
fn a_position_line_analyses_from_stdin_and_names_every_turn() {
    let (line, moves) = seeded_game(9, 3);
    assert_eq!(moves.len(), 6);
    let text = analyse_ok(&[], &format!("# a comment, then a blank line\n\n{line}\n"));
    assert!(text.starts_with("game on line 3 (position line): rounds=3, 6 moves, to the end"), "{text}");
    for (turn, played) in moves.iter().enumerate() {
        let row = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", turn + 1)))
            .unwrap_or_else(|| panic!("no row for turn {}:\n{text}", turn + 1));
        assert!(row.contains(played.as_str()), "{row}");
    }
    assert!(text.contains("seat 1: lost ") && text.contains("seat 2: lost "), "{text}");
    // The payload of `history` reads too, and gives the same analysis (fixed nodes, one thread).
    let history = line.strip_prefix("position ").expect("a position command");
    let again = analyse_ok(&[], history);
    assert_eq!(again.replace("line 1", "line 3"), text);
}

#[test]
fn bad_input_is_an_error_naming_the_line_and_good_lines_still_analyse() {
    let engine = engine().display().to_string();
    let (good, moves) = seeded_game(4, 1);
    let bad_token = good.replacen(&moves[1], "6@a1", 1);
    let mut input = format!(
        "hello\n{{\"game\": 1}}\n{bad_token}\n{good}\nposition variant=classic players=2\nposition startpos moves +441\n"
    )
    .into_bytes();
    input.extend_from_slice(b"position startpos \xff\n");
    let out = analyse(&["--engine", &engine, "--nodes", "2000", "--json"], &input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for expected in [
        "line 1: not a position line: unknown command 'hello'",
        "line 2: not a zatre-match record: missing field `replay`",
        "line 3: token 4 '6@a1': ",
        "line 5: a position line without startpos",
        "line 6: the game has no move to analyse",
        "line 7: the line is not UTF-8",
        "6 of 7 games not analysed",
    ] {
        assert!(stderr.contains(expected), "missing '{expected}' in:\n{stderr}");
    }
    let games = json_games(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["line"], 4);
    assert_eq!(games[0]["turns"].as_array().map(Vec::len), Some(2));
    // Nothing to read at all, and a file that does not exist: usage errors.
    let empty = analyse(&["--engine", &engine], "\n# nothing\n");
    assert_eq!(empty.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("the input holds no game"));
    let missing = analyse(&["--engine", &engine, "/nonexistent/games.jsonl"], "");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/games.jsonl"));
}

/// Limits that make no analysis are usage errors before any engine starts: no nodes, no time,
/// and a `go` deadline (--movetime plus --margin) past 64 bits, which panicked on overflow.
#[test]
fn limits_out_of_range_are_usage_errors() {
    let overflow = u64::MAX.to_string();
    let cases: [(&[&str], &str); 4] = [
        (&["--nodes", "0"], "--nodes"),
        (&["--movetime", "0"], "--movetime"),
        (&["--movetime", &overflow], "--movetime plus --margin is too large"),
        (&["--movetime", "10", "--margin", &overflow], "--movetime plus --margin is too large"),
    ];
    for (args, says) in cases {
        // No input: the limits are refused before it is read.
        let out = analyse(&[&["--engine", "/nonexistent/engine"], args].concat(), "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says) && !stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn an_engine_that_fails_is_an_error_naming_the_turn() {
    let (good, moves) = seeded_game(5, 3);
    // The real engine behind a filter that ends its output after the second turn line of
    // `analyse`: the analysis loses its engine while it waits for turn 3.
    let crashing = format!(
        "{} | {{ n=0; while IFS= read -r line; do case \"$line\" in 'info '*) n=$((n+1)); \
         [ $n -ge 3 ] && exit 3;; esac; printf '%s\\n' \"$line\"; done; }}",
        engine().display()
    );
    let out = analyse(&["--engine", &crashing, "--nodes", "2000"], format!("{good}\n{good}\n"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let expected = format!("turn 3 (seat 1, played {}): crash: ", moves[2]);
    assert_eq!(stderr.matches(&expected).count(), 2, "{stderr}");
    assert!(stderr.contains("2 of 2 games not analysed"), "{stderr}");
    // An engine that cannot start, and one that answers go with an error response.
    let out = analyse(&["--engine", "/nonexistent/zatre"], &good);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("line 1: the engine '/nonexistent/zatre' did not start: spawn: "), "{stderr}");
    let refusing =
        "while read -r id cmd rest; do case \"$cmd\" in analyse) printf '?%s internal no search\\n\\n' \"$id\";; \
                    *) printf '=%s\\n\\n' \"$id\";; esac; done";
    let out = analyse(&["--engine", refusing], &good);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let expected =
        format!("line 1: turn 1 (seat 1, played {}): error: analyse: internal no search", moves[0]);
    assert!(stderr.contains(&expected), "{stderr}");
}
