//! Review mode of the board (a recorded game, analysed move by move) in a real browser: headless Chromium through Debian's
//! chromedriver, the page served by `zatre-web` with the real engine behind it.
//!
//! A recorded game with a deliberately bad move is opened as a file (a zatre-match record) and
//! analysed in the page at a small node limit; the bad move is the largest loss the page shows
//! (chart, worst moves, table); the arrow keys step through the turns; the board at a reviewed turn
//! is the engine's own replay of the game up to that turn; axe-core finds no serious or critical
//! violation in review mode; the saved analysis loads again without a search; a finished game on
//! the board opens in review mode from its result. Screenshots at 1280x720 and 390x844 are written
//! to the test's target directory (`review-desktop.png`, `review-phone.png`).

use std::path::PathBuf;
use std::time::Duration;

use engine_path::engine;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use webdriver::{Bridge, Browser, KEY_LEFT, KEY_RIGHT};
use zatre::rules::{Move, Phase, Position, Rules, Variant};
use zatre_tools::referee::EngineProcess;

use crate::engine_path;
#[allow(dead_code)]
use crate::webdriver;

/// WebDriver's Home and End keys.
const KEY_HOME: &str = "\u{E011}";
const KEY_END: &str = "\u{E010}";

/// The node limit of the page's analysis in the test: small, so that a debug engine is quick.
const NODES: &str = "20000";
/// Rounds of the recorded game (two seats: twice as many moves).
const ROUNDS: u32 = 6;

/// What a move adds to the mover's sheet now.
fn gain(position: &Position, mv: &Move) -> u32 {
    let rules = position.rules();
    let score = position.score_move(mv).expect("a legal move scores");
    position.sheets()[rules.sheet_of_seat(position.to_move())].gain(rules, &score, mv.len())
}

/// A classic two-player game of [`ROUNDS`] rounds on seeded draws where every move adds the most
/// to its sheet now, except one: at the first turn from the third on where the moves' gains differ
/// by at least 8 points, the move that adds least. Returns the `position startpos` line, the bad
/// move's turn (from 1), the token count before it, and the bad move.
fn game_with_a_bad_move(seed: u64) -> (String, u32, usize, String) {
    let rules = Rules::with_options(Variant::Classic, 2, [("rounds", ROUNDS.to_string().as_str())])
        .expect("classic rules");
    let mut position = Position::new(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tokens: Vec<String> = Vec::new();
    let mut bad = None;
    loop {
        match position.phase() {
            Phase::Over => break,
            Phase::Draw => {
                let values = position.draw_random(&mut rng).expect("the bag has tiles");
                tokens.push(format!("+{}", values.iter().map(u8::to_string).collect::<String>()));
            }
            Phase::Place => {
                let legal = position.movegen().legal_moves();
                let best = legal.iter().max_by_key(|mv| gain(&position, mv)).expect("a legal move").clone();
                let worst = legal.iter().min_by_key(|mv| gain(&position, mv)).expect("a legal move").clone();
                let turn = position.turn();
                let mv =
                    if bad.is_none() && turn >= 3 && gain(&position, &best) >= gain(&position, &worst) + 8 {
                        bad = Some((turn, tokens.len(), worst.to_string()));
                        worst
                    } else {
                        best
                    };
                position.play(&mv).expect("a generated move is legal");
                tokens.push(mv.to_string());
            }
        }
    }
    let (turn, before, mv) = bad.expect("a turn with a bad move to make");
    (format!("position startpos rounds={ROUNDS} moves {}", tokens.join(" ")), turn, before, mv)
}

/// The test's own engine: replays the game up to a turn and says what is on the board.
fn judge_board(replay_before: &str) -> Vec<String> {
    let mut judge = EngineProcess::spawn(&engine().display().to_string()).expect("the judge starts");
    let wait = Duration::from_secs(20);
    judge.request(replay_before, wait, false).expect("the judge replays the game");
    let reply = judge.request("position", wait, false).expect("the judge's position");
    judge.quit();
    let line = reply.payload.first().cloned().unwrap_or_default();
    let board =
        line.split_whitespace().find_map(|f| f.strip_prefix("board=")).expect("a board field").to_string();
    let mut cells: Vec<String> =
        board.split(',').filter(|s| !s.is_empty() && *s != "-").map(String::from).collect();
    cells.sort();
    cells
}

/// The board the page shows: its tiles before the move, and the move played drawn on it.
fn page_board(browser: &Browser) -> (Vec<String>, Vec<String>) {
    let v = browser.js(
        "const read = (sel) => [...document.querySelectorAll(sel)].map(t => `${t.dataset.value}@${t.closest('[data-cell]').dataset.cell}`).sort(); \
         return [read('#board .tile:not(.played)'), read('#board .tile.played')];",
    );
    let list = |x: &Value| -> Vec<String> {
        x.as_array()
            .map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect())
            .unwrap_or_default()
    };
    (list(&v[0]), list(&v[1]))
}

fn sorted(move_text: &str) -> Vec<String> {
    let mut p: Vec<String> = move_text.split(',').map(String::from).collect();
    p.sort();
    p
}

fn axe_clean(browser: &Browser, state: &str) {
    let Some(script) = webdriver::axe_script() else { return };
    let found = browser.axe_violations(&script);
    assert!(found.is_empty(), "axe-core, {state}: serious or critical violations: {found:#?}");
    println!("axe-core, {state}: no serious or critical violation");
}

fn no_page_error(browser: &Browser) {
    let severe: Vec<_> = browser.console().into_iter().filter(|(level, _)| level == "SEVERE").collect();
    assert!(severe.is_empty(), "errors in the browser console: {severe:?}");
    let shown = browser.js("return document.querySelector('#error').textContent");
    assert_eq!(shown, Value::from(""), "the page showed an error");
}

fn shot(browser: &Browser, name: &str) {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, browser.screenshot()).expect("the screenshot is written");
    println!("screenshot: {}", path.display());
}

/// The page served by a new bridge, at 1280x720, its new-game dialog closed and review mode
/// entered (nothing loaded yet); `None` without a browser (the test is skipped, see `prerequisites`).
fn page_in_review_mode() -> Option<(Bridge, Browser)> {
    page_in_review_mode_with(&[])
}

/// [`page_in_review_mode`] of a bridge started with `extra` arguments.
fn page_in_review_mode_with(extra: &[&str]) -> Option<(Bridge, Browser)> {
    let browser = Browser::start()?;
    let bridge = Bridge::start_with(&engine().display().to_string(), extra);
    browser.set_viewport(1280, 720);
    browser.goto(&bridge.url);
    // The page connects, then asks for a new game: close that dialog and enter review mode.
    browser.wait_until(
        "the engine connected",
        "return !document.querySelector('#review-enter').disabled && document.querySelector('#new-game-dialog').open",
        Duration::from_secs(20),
    );
    browser.click("#cancel-new-game");
    browser.click("#review-enter");
    // The panel opens once the page has interrupted whatever ran (asynchronously).
    browser.wait_until(
        "review mode shown",
        "return !document.querySelector('#review-side').hidden",
        Duration::from_secs(10),
    );
    Some((bridge, browser))
}

/// The step the review shows: `data-turn` of the turn panel (none at the end).
fn shown_turn(browser: &Browser) -> Value {
    browser.js("const t = document.querySelector('#review-turn').dataset.turn; return t ? Number(t) : null")
}

#[test]
fn a_recorded_game_is_reviewed_in_the_page() {
    let (line, bad_turn, bad_before, bad_move) = game_with_a_bad_move(7);
    let record = serde_json::json!({ "game": 0, "engines": ["greedy", "greedy"], "replay": line });
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("games.jsonl");
    std::fs::write(&file, format!("{record}\n")).expect("the record is written");

    let Some((_bridge, browser)) = page_in_review_mode() else { return };
    // The engine is the review's: New game and Save/Load wait for Close review.
    let off = "return ['#new-game', '#save-load'].map(s => document.querySelector(s).disabled)";
    assert_eq!(browser.js(off), serde_json::json!([true, true]), "in review mode");
    // Input that is not a game is refused with the reason.
    for (bad, says) in [("hello", "position startpos"), ("{\"game\":1}", "replay")] {
        browser.type_into("#review-input", bad);
        browser.click("#review-open-text");
        let error = browser.wait_until(
            "the refusal",
            "return !document.querySelector('#error-box').hidden && document.querySelector('#error').textContent",
            Duration::from_secs(10),
        );
        assert!(error.as_str().is_some_and(|e| e.contains(says)), "{bad}: {error}");
        browser.click("#error-dismiss");
    }
    browser.choose_file("#review-file", &file);
    let turns = browser.wait_until(
        "the game replayed",
        "return document.querySelectorAll('#review-table tr[data-turn]').length || null",
        Duration::from_secs(20),
    );
    assert_eq!(turns, Value::from(2 * ROUNDS), "a row per move");
    assert_eq!(shown_turn(&browser), Value::from(1), "the review starts before the first turn");

    // The analysis, with its progress bar; Stop ends it, Analyse goes on. The engine analyses the
    // game in one `analyse`, so the first run gets ten times the nodes: Stop comes while it runs.
    browser.type_into("#review-nodes", &format!("{NODES}0"));
    browser.click("#review-run");
    browser.wait_until(
        "a first turn analysed",
        "return Number(document.querySelector('#review-progress').value) >= 1",
        Duration::from_secs(30),
    );
    // The turn on show (turn 1) says its analysis as soon as it is done, with no step.
    browser.wait_until(
        "turn 1's analysis shown",
        "return document.querySelector('#review-turn .review-loss, #review-turn .review-best') !== null",
        Duration::from_secs(10),
    );
    browser.click("#review-stop");
    browser.wait_until("stopped", "return document.body.dataset.review === 'idle'", Duration::from_secs(30));
    let done = browser.js("return Number(document.querySelector('#review-progress').value)");
    assert!(done.as_u64().is_some_and(|d| d >= 1 && d < u64::from(2 * ROUNDS)), "stopped after {done}");
    browser.type_into("#review-nodes", NODES);
    browser.click("#review-run");
    browser.wait_until(
        "the analysis done",
        "return document.body.dataset.review === 'done'",
        Duration::from_secs(60),
    );
    no_page_error(&browser);

    // The bad move is the largest loss: in the chart's bars, the worst moves and the table.
    let bars = browser.js(
        "return [...document.querySelectorAll('#review-chart rect.loss')].map(r => [Number(r.dataset.turn), Number(r.dataset.loss), Number(r.getAttribute('height'))])",
    );
    let bars = bars.as_array().expect("bars");
    let tallest = bars
        .iter()
        .max_by(|a, b| a[1].as_f64().unwrap_or(0.0).total_cmp(&b[1].as_f64().unwrap_or(0.0)))
        .expect("at least one move lost points");
    assert_eq!(
        tallest[0],
        Value::from(bad_turn),
        "the largest loss: {bars:?} (bad move {bad_move} at turn {bad_turn})"
    );
    let highest = bars.iter().map(|b| b[2].as_f64().unwrap_or(0.0)).fold(0.0, f64::max);
    assert_eq!(tallest[2].as_f64(), Some(highest), "the largest loss is the tallest bar");
    let seat = if bad_turn % 2 == 1 { 1 } else { 2 };
    let first_worst = browser.js(&format!(
        "return Number(document.querySelector('#review-worst ol[data-seat=\"{seat}\"] button[data-turn]').dataset.turn)"
    ));
    assert_eq!(first_worst, Value::from(bad_turn), "the bad move heads its seat's worst moves");
    let lines = browser.js("return [...document.querySelectorAll('#review-chart polyline.margin')].map(p => p.getAttribute('points').trim().split(/\\s+/).length)");
    assert_eq!(lines, serde_json::json!([2 * ROUNDS, 2 * ROUNDS]), "a line per seat, a point per turn");

    // The worst move's link goes to its turn; the arrow keys step from there.
    browser.click(&format!("#review-worst button[data-turn=\"{bad_turn}\"]"));
    assert_eq!(shown_turn(&browser), Value::from(bad_turn));
    assert_eq!(browser.js("return document.activeElement.id"), Value::from("review-step"));
    browser.keys(&[KEY_LEFT, KEY_LEFT]);
    assert_eq!(shown_turn(&browser), Value::from(bad_turn - 2));
    browser.keys(&[KEY_RIGHT, KEY_RIGHT]);
    assert_eq!(shown_turn(&browser), Value::from(bad_turn));
    browser.keys(&[KEY_HOME]);
    assert_eq!(shown_turn(&browser), Value::from(1));
    browser.keys(&[KEY_END]);
    assert_eq!(shown_turn(&browser), Value::Null, "End: the end of the game");
    let (tiles, played) = page_board(&browser);
    assert_eq!(tiles, judge_board(&line), "the board at the end");
    assert!(played.is_empty());
    // A click on the chart goes to the turn under it.
    browser.click(&format!("#review-chart rect.loss[data-turn=\"{bad_turn}\"]"));
    assert_eq!(shown_turn(&browser), Value::from(bad_turn), "the chart's bar of turn {bad_turn} clicked");
    // Outside the slider too: focus on the page itself.
    browser.js("document.activeElement.blur(); return true");
    browser.keys(&[KEY_RIGHT]);
    assert_eq!(shown_turn(&browser), Value::from(bad_turn + 1));
    browser.keys(&[KEY_LEFT]);
    assert_eq!(shown_turn(&browser), Value::from(bad_turn));

    // The board at the bad turn: the engine's replay up to it, with the bad move drawn on it and
    // the engine's best move marked.
    let before: Vec<&str> = line.split(" moves ").nth(1).expect("moves").split_whitespace().collect();
    let replay_before = format!("position startpos rounds={ROUNDS} moves {}", before[..bad_before].join(" "));
    let (tiles, played) = page_board(&browser);
    assert_eq!(tiles, judge_board(&replay_before), "the board before turn {bad_turn}");
    assert_eq!(played, sorted(&bad_move), "the move played drawn on the board");
    let saved: Value =
        serde_json::from_str(browser.js("return zatreReview()").as_str().expect("the analysis as JSON"))
            .expect("valid JSON");
    let bad = &saved["turns"][bad_turn as usize - 1];
    assert_eq!(bad["played"], bad_move.as_str());
    // The table says the moves in words, as the turn box does.
    let words: Vec<String> = bad_move
        .split(',')
        .map(|p| p.split_once('@').map(|(v, c)| format!("{v} on {c}")).expect("value@cell"))
        .collect();
    assert_eq!(
        browser.js(&format!(
            "return document.querySelector('#review-table tr[data-turn=\"{bad_turn}\"] td:nth-child(3)').textContent"
        )),
        Value::from(words.join(", ")),
        "the move played in the table"
    );
    let marks = browser.js(
        "return [...document.querySelectorAll('#board .best-mark')].map(t => `${t.dataset.value}@${t.closest('[data-cell]').dataset.cell}`).sort()",
    );
    assert_eq!(
        marks,
        serde_json::json!(sorted(bad["best"].as_str().expect("a best move"))),
        "the best move marked"
    );
    let text = browser.js("return document.querySelector('#review-turn').textContent");
    assert!(text.as_str().is_some_and(|t| t.contains("Points lost")), "{text}");
    // Values in words a player reads, to a tenth: not the engine's signed hundredths.
    assert!(
        text.as_str().is_some_and(|t| t.contains("expected to finish") && !t.contains("value")),
        "{text}"
    );
    let hundredths = browser.js(
        "return [...document.querySelectorAll('#review-turn p, #review-worst li, #review-table td')].map(e => e.textContent).filter(t => /\\d[.,]\\d\\d/.test(t))",
    );
    assert_eq!(hundredths, serde_json::json!([]), "numbers to a tenth");
    let dashes = browser.js("return [...document.querySelectorAll('#review-chart polyline.margin, .review-legend line')].map(p => p.getAttribute('stroke-dasharray'))");
    assert_eq!(
        dashes,
        serde_json::json!(["none", "8 4", "none", "8 4"]),
        "each seat's line has its own pattern, in the chart and its legend"
    );

    // axe-core in review mode, with the table of turns open.
    browser.js("document.querySelector('.review-table-box').open = true; return true");
    axe_clean(&browser, "review mode");
    browser.js("window.scrollTo(0, 0); return true");
    shot(&browser, "review-desktop.png");
    browser.js("document.querySelector('#review-worst').scrollIntoView(); return true");
    shot(&browser, "review-desktop-lower.png");
    browser.js("document.querySelector('#review-table').scrollIntoView(); return true");
    shot(&browser, "review-desktop-table.png");
    browser.set_viewport(390, 844);
    // The chart is drawn again for the phone's width: its axis text is not shrunk below 12 px.
    let axis = browser.wait_until(
        "the chart drawn for the phone",
        "const s = document.querySelector('#review-chart svg.review-svg'); \
         const scale = s.getBoundingClientRect().width / s.viewBox.baseVal.width; \
         const px = Math.min(...[...s.querySelectorAll('text.axis')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale)); \
         return px >= 12 ? px : null",
        Duration::from_secs(5),
    );
    assert!(axis.as_f64().is_some_and(|px| px >= 12.0), "axis text {axis} px");
    let wide = browser.js("return document.documentElement.scrollWidth");
    assert!(wide.as_i64().is_some_and(|w| w <= 390), "nothing scrolls sideways on a phone: {wide}");
    axe_clean(&browser, "review mode on a phone");
    let small = browser.js("return [...document.querySelectorAll('.review-nav button, #review-step')]\
         .map(b => b.getBoundingClientRect()).filter(r => r.width < 44 || r.height < 44)\
         .map(r => [r.width, r.height])");
    assert_eq!(small, serde_json::json!([]), "the step buttons are 44 px touch targets on a phone");
    browser.set_viewport(360, 640);
    let wide = browser.js("return document.documentElement.scrollWidth");
    assert!(wide.as_i64().is_some_and(|w| w <= 360), "nothing scrolls sideways on a small phone: {wide}");
    browser.set_viewport(390, 844);
    browser.js("window.scrollTo(0, 0); return true");
    shot(&browser, "review-phone.png");
    browser.set_viewport(1280, 720);

    // A second look costs nothing: the saved analysis loads with no search.
    let json = browser.js("return zatreReview()");
    let gos_before = browser.js("return zatreLog().split('\\n').filter(l => / go /.test(l)).length");
    browser.js(&format!(
        "const t = document.querySelector('#review-input'); t.value = {}; document.querySelector('#review-load').open = true; return true",
        serde_json::to_string(&json).expect("a JSON string")
    ));
    browser.click("#review-open-text");
    browser.wait_until(
        "the saved review loaded",
        "return document.body.dataset.review === 'done'",
        Duration::from_secs(20),
    );
    let gos_after = browser.js("return zatreLog().split('\\n').filter(l => / go /.test(l)).length");
    assert_eq!(gos_before, gos_after, "no search for a saved analysis");
    assert_eq!(browser.js("return zatreReview()"), json, "the same analysis");

    // From the end of a game on the board: back to the game, load the finished game, review it.
    browser.click("#review-close");
    browser.wait_until(
        "the game is back",
        "return document.querySelector('#review').hidden",
        Duration::from_secs(20),
    );
    browser.wait_until(
        "New game and Save/Load back",
        "return ['#new-game', '#save-load'].every(s => !document.querySelector(s).disabled)",
        Duration::from_secs(20),
    );
    browser.click("#save-load");
    browser.js(&format!(
        "document.querySelector('#load-line').value = {}; return true",
        serde_json::to_string(&line).expect("JSON")
    ));
    browser.click("#load");
    browser.wait_until(
        "the result of the loaded game",
        "return !document.querySelector('#result').hidden",
        Duration::from_secs(20),
    );
    browser.click("#review-this");
    browser.wait_until(
        "the game on the board under review",
        "return document.querySelectorAll('#review-table tr[data-turn]').length || null",
        Duration::from_secs(20),
    );
    assert_eq!(
        browser.js("return document.querySelectorAll('#review-table tr[data-turn]').length"),
        Value::from(2 * ROUNDS)
    );
    no_page_error(&browser);
}

/// A whole classic game, every move the first legal one: its `position startpos` line and its
/// number of moves.
fn a_whole_game() -> (String, usize) {
    let mut position = Position::new(Rules::new(Variant::Classic, 2).expect("classic rules"));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut tokens: Vec<String> = Vec::new();
    let mut moves = 0;
    while position.phase() != Phase::Over {
        if position.phase() == Phase::Draw {
            let values = position.draw_random(&mut rng).expect("the bag has tiles");
            tokens.push(format!("+{}", values.iter().map(u8::to_string).collect::<String>()));
        } else {
            let mv = position.movegen().legal_moves().into_iter().next().expect("a legal move");
            position.play(&mv).expect("a generated move is legal");
            tokens.push(mv.to_string());
            moves += 1;
        }
    }
    (format!("position startpos moves {}", tokens.join(" ")), moves)
}

/// Opening a whole game asks the engine some five commands a move, as fast as they are answered:
/// the page paces them to 200 a second, so a bridge that allows 210 keeps it (it closed such a
/// page with 4007, too many commands a second). A second click on Open while it loads is not a
/// second replay.
#[test]
fn a_whole_game_opens_in_review_paced_under_the_bridges_limit() {
    let (line, moves) = a_whole_game();
    assert!(moves * 5 > 250, "a game long enough to pass the limit unpaced: {moves} moves");
    let Some((_bridge, browser)) = page_in_review_mode_with(&["--max-commands-per-second", "210"]) else {
        return;
    };
    browser.js(&format!(
        "document.querySelector('#review-input').value = {}; return true",
        serde_json::to_string(&line).expect("JSON")
    ));
    let held =
        browser.js("const b = document.querySelector('#review-open-text'); b.click(); return b.disabled");
    assert_eq!(held, Value::Bool(true), "Open waits while the game loads");
    // Replayed, or closed (then the banner says why).
    let rows = browser.wait_until(
        "the game replayed",
        "const c = document.querySelector('#connection'); \
         return document.querySelectorAll('#review-table tr[data-turn]').length || (!c.hidden && c.textContent) || null",
        Duration::from_secs(120),
    );
    assert_eq!(rows, Value::from(moves), "a row per move, still connected");
    assert_eq!(browser.js("return document.querySelector('#review-open-text').disabled"), Value::Bool(false));
    no_page_error(&browser);
}

/// The README's picture of a reviewed game: the game of `$ZATRE_REVIEW_GAME` (a file holding a
/// `zatre-analyse --json` line, so that the page searches nothing, or a record, then analysed at
/// `$ZATRE_REVIEW_NODES`, 1000000 by default) at its largest loss, 1280x720, written to
/// tools/web/screenshots/review.png.
#[test]
#[ignore = "writes the README's screenshot; needs ZATRE_REVIEW_GAME"]
fn readme_screenshot_of_a_reviewed_game() {
    let game = PathBuf::from(
        std::env::var_os("ZATRE_REVIEW_GAME").expect("ZATRE_REVIEW_GAME names the game's file"),
    );
    let Some((_bridge, browser)) = page_in_review_mode() else { return };
    browser.choose_file("#review-file", &game);
    browser.wait_until(
        "the game replayed",
        "return document.querySelectorAll('#review-table tr[data-turn]').length || null",
        Duration::from_secs(60),
    );
    if browser.js("return document.body.dataset.review") != "done" {
        browser.type_into(
            "#review-nodes",
            &std::env::var("ZATRE_REVIEW_NODES").unwrap_or_else(|_| "1000000".into()),
        );
        browser.click("#review-run");
        browser.wait_until(
            "the analysis done",
            "return document.body.dataset.review === 'done'",
            Duration::from_secs(600),
        );
    }
    let largest = browser.js(
        "return [...document.querySelectorAll('#review-chart rect.loss')].sort((a, b) => b.dataset.loss - a.dataset.loss)[0].dataset.turn",
    );
    let turn = largest.as_str().expect("a move lost points").to_string();
    browser.click(&format!("#review-worst button[data-turn=\"{turn}\"]"));
    no_page_error(&browser);
    browser.js("document.activeElement.blur(); window.scrollTo(0, 0); return true");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("web").join("screenshots").join("review.png");
    std::fs::write(&path, browser.screenshot()).expect("the screenshot is written");
    println!("screenshot: {}", path.display());
}
