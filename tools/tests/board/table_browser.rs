//! A game at the table, in headless Chromium on a phone's screen (390x844, touch): the tiles come
//! from a real bag (the numbers from real dice), so a person enters every draw with the page's
//! value buttons, a computer seat's too, and the page draws nothing itself. The draws are entered
//! by taps (one corrected with Remove last before Confirm), a draw the bag cannot hold is refused
//! in words with nothing changed, the moves are entered by taps, and after every turn the page's
//! board, sheets' totals and status are the test's own engine's, replaying the page's save line.
//! The kids' game's buttons are 0 to 5. Screenshots of the draw step at a phone's and a desktop's
//! size, in English and German, land in Cargo's test temp directory.

use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::browser::{
    axe_check, check_against_engine, check_layout, choose_lang, load_line, no_console_errors,
    play_human_turn, screenshot, start_game_with, Judge,
};
use crate::engine_path::engine;
use crate::webdriver::{self, Bridge, Browser};

/// The value buttons shown, as numbers.
fn value_buttons(browser: &Browser) -> Vec<i64> {
    browser
        .js("return [...document.querySelectorAll('#table-values [data-draw-value]')].map(b => Number(b.dataset.drawValue))")
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

/// The values entered so far (the filled slots) and the slots in all.
fn entered(browser: &Browser) -> (Vec<i64>, usize) {
    let v = browser.js(
        "return { values: [...document.querySelectorAll('#table-drawn .drawn-tile[data-value]')].map(t => Number(t.dataset.value)), \
             slots: document.querySelectorAll('#table-drawn .drawn-tile').length };",
    );
    let values =
        v["values"].as_array().map(|a| a.iter().filter_map(Value::as_i64).collect()).unwrap_or_default();
    (values, v["slots"].as_u64().unwrap_or(0) as usize)
}

fn enabled(browser: &Browser, css: &str) -> bool {
    browser.js(&format!("const b = document.querySelector('{css}'); return Boolean(b) && !b.disabled"))
        == Value::Bool(true)
}

/// Taps the value button of `value`.
fn tap_value(browser: &Browser, value: i64) {
    browser.click(&format!("#table-values [data-draw-value=\"{value}\"]"));
}

/// Waits until a draw at the table is asked for (`draw`), a person is to place (`place`) or the
/// game is over (`over`).
fn wait_table_turn(browser: &Browser) -> String {
    browser
        .wait_until(
            "a draw to enter at the table, or the end",
            "const t = document.body.dataset.turn; const pad = !document.querySelector('#table-draw').hidden; \
             return document.body.dataset.busy === 'no' && ((t === 'draw' && pad && 'draw') || (t === 'over' && 'over') || (t === 'place' && 'place'))",
            Duration::from_secs(60),
        )
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The number of values the engine calls for now, by the judge's `status` (its `due`).
fn due_by_engine(judge: &mut Judge) -> usize {
    let status = judge.call("status");
    let due = status[0].split_whitespace().skip_while(|w| *w != "due").nth(1).expect("a due field");
    due.parse().expect("a count")
}

/// A field of the judge's `position` line (`bag`, `hands`...).
fn position_field(judge: &mut Judge, name: &str) -> String {
    let position = judge.call("position").join(" ");
    let key = format!("{name}=");
    position.split_whitespace().find_map(|f| f.strip_prefix(key.as_str())).expect("the field").to_string()
}

/// The values a draw can take from the bag the judge holds (its `position`): the values with the
/// most tiles left first, so that the bag holds them.
fn values_in_bag(judge: &mut Judge, due: usize) -> Vec<i64> {
    let bag = position_field(judge, "bag");
    let mut counts: Vec<(i64, u32)> =
        bag.split(',').enumerate().map(|(i, c)| (i as i64 + 1, c.parse().expect("a count"))).collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    (0..due).map(|i| counts[i % counts.len()].0).collect()
}

/// The lines the page sent (`zatreLog()`).
fn sent(browser: &Browser) -> Vec<String> {
    browser
        .js("return zatreLog()")
        .as_str()
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .map(str::to_string)
        .collect()
}

/// Every touch target of the draw step is 48 px or more each way.
fn targets_are_large(browser: &Browser, what: &str) {
    let sizes = browser.js(
        "return [...document.querySelectorAll('#table-values button, #table-remove, #table-confirm')] \
             .map(b => { const r = b.getBoundingClientRect(); return [b.id || b.dataset.drawValue, r.width, r.height, r.left, r.right]; });",
    );
    let inner = browser.js("return innerWidth").as_f64().unwrap_or(0.0);
    for s in sizes.as_array().expect("the buttons") {
        let (w, h) = (s[1].as_f64().unwrap_or(0.0), s[2].as_f64().unwrap_or(0.0));
        assert!(w >= 48.0 && h >= 48.0, "{what}: the touch target {} is {w}x{h} px, under 48", s[0]);
        assert!(
            s[3].as_f64().unwrap_or(-1.0) >= 0.0 && s[4].as_f64().unwrap_or(f64::MAX) <= inner,
            "{what}: {} is cut off: {s}",
            s[0]
        );
    }
}

/// The draw step is in view at the top of the screen (the pad above the board on a phone).
fn pad_in_view(browser: &Browser, what: &str) {
    let v = browser.js(
        "const r = document.querySelector('#table-draw').getBoundingClientRect(); return [r.top, r.bottom, innerHeight];",
    );
    let (top, bottom, height) =
        (v[0].as_f64().unwrap_or(-1.0), v[1].as_f64().unwrap_or(f64::MAX), v[2].as_f64().unwrap_or(0.0));
    assert!(top >= 0.0 && bottom <= height, "{what}: the draw step is in view: {v}");
}

/// Enters `values` by taps and confirms; waits until the page is past the draw.
fn enter_and_confirm(browser: &Browser, values: &[i64]) {
    for &v in values {
        tap_value(browser, v);
    }
    assert_eq!(entered(browser).0, values, "the values entered are shown");
    assert!(enabled(browser, "#table-confirm"), "Confirm once every value due is entered");
    browser.click("#table-confirm");
    browser.wait_until(
        "the draw taken",
        "return document.body.dataset.busy === 'no' && (document.querySelector('#table-draw').hidden || document.body.dataset.turn !== 'draw' || document.querySelectorAll('#table-drawn .drawn-tile[data-value]').length === 0)",
        Duration::from_secs(30),
    );
}

#[test]
fn a_game_at_the_table_with_the_draws_entered_on_a_phone() {
    let axe = webdriver::axe_script();
    let bridge = Bridge::start(&engine().display().to_string());
    let Some(browser) = Browser::start() else { return };
    browser.emulate_phone(Some((390, 844)));
    browser.goto(&bridge.url);
    choose_lang(&browser, "en");
    let mut judge = Judge::start();
    let mut rng = ChaCha8Rng::seed_from_u64(49);

    // A short classic game (two rounds) at the table: a person and a computer seat.
    start_game_with(&browser, "classic", &["human", "greedy"], "", |b| {
        b.type_into("#rule-rounds", "2");
        b.click("#draws-table");
        axe_check(b, axe.as_deref(), "the new-game dialog, at the table chosen");
        b.js("document.querySelector('#draws-table').scrollIntoView({ block: 'center' }); return true;");
        screenshot(b, "zatre-web-table-dialog-390x844-en.png");
    });
    assert_eq!(wait_table_turn(&browser), "draw", "the page asks for the start draw");
    check_against_engine(&browser, &mut judge);
    let due = due_by_engine(&mut judge);
    assert_eq!(due, 3, "the start player draws three tiles");
    assert_eq!(entered(&browser), (vec![], due), "a slot for each value the engine calls for");
    assert_eq!(value_buttons(&browser), vec![1, 2, 3, 4, 5, 6], "the classic tiles' values");
    assert_eq!(
        browser.js("return document.querySelector('#draw').closest('.buttons').hidden"),
        Value::Bool(true),
        "the page's own Draw is not there"
    );
    targets_are_large(&browser, "390x844, the start draw");
    pad_in_view(&browser, "390x844, the start draw");
    check_layout(&browser, "390x844, the start draw");
    // The smallest phone: the buttons still 48 px, in two rows of three.
    browser.emulate_phone(Some((320, 568)));
    targets_are_large(&browser, "320x568, the start draw");
    pad_in_view(&browser, "320x568, the start draw");
    check_layout(&browser, "320x568, the start draw");
    screenshot(&browser, "zatre-web-table-320x568-en.png");
    browser.emulate_phone(Some((390, 844)));
    let save = browser.js("return document.querySelector('#save-text').value");
    assert!(
        save.as_str().is_some_and(|s| s.contains(" draws=table position ")),
        "the saved line keeps the table: {save}"
    );

    // A mistake corrected before confirming: 5, 2, Remove last, then 3 and 4.
    tap_value(&browser, 5);
    tap_value(&browser, 2);
    assert_eq!(entered(&browser).0, vec![5, 2]);
    assert!(!enabled(&browser, "#table-confirm"), "no Confirm with a value still due");
    browser.click("#table-remove");
    assert_eq!(entered(&browser).0, vec![5], "Remove last takes the 2 back");
    tap_value(&browser, 3);
    tap_value(&browser, 4);
    assert!(!enabled(&browser, "#table-values [data-draw-value=\"1\"]"), "no more values than are due");
    axe_check(&browser, axe.as_deref(), "the draw at the table, every value entered");
    screenshot(&browser, "zatre-web-table-390x844-en.png");
    browser.click("#table-confirm");
    browser.wait_until(
        "the start player to place",
        "return document.body.dataset.turn === 'place' && document.body.dataset.busy === 'no'",
        Duration::from_secs(30),
    );
    let hand = browser.js(
        "return [...document.querySelectorAll('#hand [data-hand-tile]')].map(t => Number(t.dataset.value))",
    );
    assert_eq!(hand, serde_json::json!([3, 4, 5]), "the hand is the draw entered");
    let history = browser.js("return document.querySelector('#history').value");
    assert!(
        history.as_str().is_some_and(|h| h.ends_with("moves +534")),
        "the engine took the values entered: {history}"
    );
    check_against_engine(&browser, &mut judge);

    // The game to its end: the person's moves by taps, every draw (the computer's too) entered.
    let mut draws = 1;
    let mut moves = 0;
    loop {
        let turn = wait_table_turn(&browser);
        let status = check_against_engine(&browser, &mut judge);
        match turn.as_str() {
            "over" => break,
            "draw" => {
                let due = due_by_engine(&mut judge);
                assert_eq!(entered(&browser), (vec![], due), "the slots are the engine's due ({status})");
                let values = values_in_bag(&mut judge, due);
                enter_and_confirm(&browser, &values);
                draws += 1;
            }
            _ => {
                assert!(status.contains("tomove 1"), "only the person places by hand: {status}");
                play_human_turn(&browser, &mut rng);
                moves += 1;
            }
        }
        assert!(draws + moves < 40, "the two rounds end");
    }
    let status = judge.call("status");
    assert!(status.iter().any(|l| l == "end rounds"), "the game ended after its rounds: {status:?}");
    let totals: Vec<String> = status.iter().filter(|l| l.starts_with("rank ")).cloned().collect();
    let ranking = browser.js("return [...document.querySelectorAll('#ranking li')].map(l => l.dataset.who)");
    assert_eq!(
        ranking.as_array().map_or(0, Vec::len),
        totals.len(),
        "the ranking is the engine's: {ranking} {totals:?}"
    );
    // The page drew nothing itself: every `draw` it sent carries the values entered.
    let page_draws: Vec<String> =
        sent(&browser).into_iter().filter(|l| l.split_whitespace().nth(1) == Some("draw")).collect();
    assert_eq!(page_draws.len(), draws, "one draw sent for each entered: {page_draws:?}");
    assert!(
        page_draws.iter().all(|l| l.split_whitespace().count() == 3),
        "every draw with its values: {page_draws:?}"
    );
    println!("at the table: {draws} draws entered, {moves} moves by the person, {}", totals.join("; "));
    no_console_errors(&browser);

    // A saved line with a bad `draws=` word: said in words, the game on the board unchanged.
    let before = browser.js("return document.querySelector('#history').value");
    browser.click("#save-load");
    let line = before.as_str().unwrap_or_default().to_string();
    browser.type_into("#load-line", &format!("seats=human,human draws=sometimes {line}"));
    browser.click("#load");
    let code = browser.js("return document.querySelector('#error-box').dataset.code");
    assert_eq!(code, "load.badDraws", "a bad draws= word is refused");
    let said = browser.js("return document.querySelector('#save-dialog .dialog-error').textContent");
    assert!(said.as_str().is_some_and(|s| s.contains("draws=table or draws=page")), "in words: {said}");
    browser.click("#close-save");
    browser.click("#error-dismiss");
    assert_eq!(browser.js("return document.querySelector('#history').value"), before, "nothing loaded");

    // A draw the bag cannot hold: a game of the judge's own whose 6s are all drawn, loaded.
    let line = game_without_sixes(&mut judge);
    load_line(&browser, &format!("seats=human,human draws=table position {line}"));
    assert_eq!(wait_table_turn(&browser), "draw", "the loaded game is at the table and asks for a draw");
    check_against_engine(&browser, &mut judge);
    let due = due_by_engine(&mut judge);
    let before = browser.js("return [document.querySelector('#history').value, document.querySelector('#status').textContent, document.querySelector('#bag').textContent]");
    let mut refused = vec![6];
    refused.extend(values_in_bag(&mut judge, due - 1));
    for &v in &refused {
        tap_value(&browser, v);
    }
    browser.click("#table-confirm");
    browser.wait_until(
        "the refusal",
        "return !document.querySelector('#table-refusal').hidden && document.body.dataset.busy === 'no'",
        Duration::from_secs(20),
    );
    let words = browser.js("return [document.querySelector('#table-refusal').textContent, document.querySelector('#table-refusal').dataset.code]");
    let english = words[0].as_str().unwrap_or_default().to_string();
    assert_eq!(words[1], "illegal_draw", "the engine's code: {words}");
    pad_in_view(&browser, "390x844, a refused draw");
    assert!(
        english.contains("does not hold all")
            && english.contains(&refused.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
        "said in words: {english}"
    );
    let after = browser.js("return [document.querySelector('#history').value, document.querySelector('#status').textContent, document.querySelector('#bag').textContent]");
    assert_eq!(before, after, "the refused draw changed nothing");
    assert_eq!(entered(&browser).0, refused, "the values stay, to be corrected");
    assert!(!enabled(&browser, "#table-confirm"), "the same values cannot be confirmed again");
    let log = browser.js("return zatreLog()");
    assert!(log.as_str().is_some_and(|l| l.contains("illegal_draw not_in_bag")), "the engine refused it");
    assert_eq!(
        browser.js("return document.querySelector('#error').textContent"),
        Value::from(""),
        "said by the draw step, not the red bar"
    );
    axe_check(&browser, axe.as_deref(), "a refused draw at the table");
    choose_lang(&browser, "de");
    let german = browser.js("return document.querySelector('#table-refusal').textContent");
    assert!(german.as_str().is_some_and(|g| g.contains("Beutel") && g != english), "in German: {german}");
    screenshot(&browser, "zatre-web-table-refused-390x844-de.png");
    // Corrected: the values taken back, others entered and taken.
    for _ in 0..due {
        browser.click("#table-remove");
    }
    assert!(
        browser.js("return document.querySelector('#table-refusal').hidden") == Value::Bool(true),
        "the refusal goes with the values"
    );
    let good = values_in_bag(&mut judge, due);
    screenshot(&browser, "zatre-web-table-390x844-de.png");
    enter_and_confirm(&browser, &good);
    let history = browser.js("return document.querySelector('#history').value");
    let token = format!("+{}", good.iter().map(i64::to_string).collect::<String>());
    let mut sorted = good.clone();
    sorted.sort_unstable();
    let sorted_token = format!("+{}", sorted.iter().map(i64::to_string).collect::<String>());
    assert!(
        history.as_str().is_some_and(|h| h.ends_with(&token) || h.ends_with(&sorted_token)),
        "the corrected draw was taken: {history}"
    );
    check_against_engine(&browser, &mut judge);

    // A desktop's size, in German and in English: the draw step of the other person.
    browser.emulate_phone(None);
    browser.set_viewport(1280, 800);
    play_human_turn(&browser, &mut rng);
    assert_eq!(wait_table_turn(&browser), "draw", "the second person's draw");
    targets_are_large(&browser, "1280x800");
    pad_in_view(&browser, "1280x800");
    check_layout(&browser, "1280x800, a draw at the table");
    screenshot(&browser, "zatre-web-table-1280x800-de.png");
    choose_lang(&browser, "en");
    tap_value(&browser, values_in_bag(&mut judge, 1)[0]);
    screenshot(&browser, "zatre-web-table-1280x800-en.png");

    // How to play has the section "At the table" in each language, from its catalogue.
    for lang in ["en", "de", "cs", "hu"] {
        choose_lang(&browser, lang);
        browser.click("#help");
        let v = browser.js_async(&format!(
            "const done = arguments[arguments.length - 1]; import('/i18n/{lang}.js').then((c) => done({{ \
                 shown: [...document.querySelectorAll('#help-table p')].map(p => p.textContent).join('\\n'), \
                 title: document.querySelector('[data-i18n=\"help.tableTitle\"]').textContent, \
                 want: c.default['help.table'], wantTitle: c.default['help.tableTitle'] }}));"
        ));
        assert_eq!(v["shown"], v["want"], "{lang}: the help's At the table");
        assert_eq!(v["title"], v["wantTitle"], "{lang}: its title");
        browser.click("#close-help");
    }
    choose_lang(&browser, "en");

    // The kids' game rolls 0 to 5: those are its buttons; a digit key enters one too; Undo takes
    // a confirmed roll back to be entered again.
    browser.emulate_phone(Some((390, 844)));
    start_game_with(&browser, "kids", &["human"], "", |b| {
        b.type_into("#rule-rounds", "1");
        b.click("#draws-table");
    });
    assert_eq!(wait_table_turn(&browser), "draw", "the kids' roll is asked for");
    assert_eq!(value_buttons(&browser), vec![0, 1, 2, 3, 4, 5], "the kids' dice show 0 to 5");
    let prompt = browser.js("return document.querySelector('#table-draw-prompt').textContent");
    assert!(
        prompt.as_str().is_some_and(|p| p.contains("roll") && p.contains("six counts 0")),
        "the words of a roll: {prompt}"
    );
    tap_value(&browser, 0);
    browser.keys(&["5"]);
    assert_eq!(entered(&browser).0, vec![0, 5], "a tap and the key 5");
    browser.click("#table-confirm");
    browser.wait_until(
        "the roll written",
        "return document.body.dataset.turn === 'place' && document.body.dataset.busy === 'no'",
        Duration::from_secs(30),
    );
    check_against_engine(&browser, &mut judge);
    browser.click("#undo");
    assert_eq!(wait_table_turn(&browser), "draw", "Undo goes back to the roll to enter");
    assert_eq!(
        entered(&browser),
        (vec![], due_by_engine_after(&browser, &mut judge)),
        "nothing entered after Undo"
    );
    enter_and_confirm(&browser, &[1, 3]);
    check_against_engine(&browser, &mut judge);
    play_human_turn(&browser, &mut rng);
    assert_eq!(wait_table_turn(&browser), "over", "one round of one player");
    check_against_engine(&browser, &mut judge);
    no_console_errors(&browser);
}

/// The judge's due after the page's save line is replayed.
fn due_by_engine_after(browser: &Browser, judge: &mut Judge) -> usize {
    check_against_engine(browser, judge);
    due_by_engine(judge)
}

/// A classic game of the judge's own in which the draws take every 6 first, played (greedy) until
/// a draw is due and the bag holds no 6: its `history`.
fn game_without_sixes(judge: &mut Judge) -> String {
    judge.call("setoption name Strategy value greedy");
    judge.call("newgame variant classic players 2");
    for _ in 0..200 {
        let status = judge.call("status");
        assert!(!status[0].starts_with("phase over"), "the game ended before the 6s were drawn: {status:?}");
        if status[0].starts_with("phase draw") {
            let due = due_by_engine(judge);
            let bag: Vec<u32> =
                position_field(judge, "bag").split(',').map(|c| c.parse().expect("a count")).collect();
            if due > 0 && bag[5] == 0 {
                break;
            }
            // The 6s first, then whatever the bag holds most of.
            let mut left = bag.clone();
            // The judge speaks version 2: the values joined by spaces.
            let mut values = String::new();
            for _ in 0..due {
                let v =
                    if left[5] > 0 { 5 } else { (0..6).max_by_key(|&i| (left[i], 6 - i)).expect("a value") };
                left[v] -= 1;
                values.push_str(&format!(" {}", v + 1));
            }
            judge.call(&format!("draw{values}"));
            continue;
        }
        let best = judge.call("go nodes 200");
        let mv = best[0].split_whitespace().nth(1).expect("a bestmove").to_string();
        judge.call(&format!("place {mv}"));
    }
    judge.call("history").join(" ")
}
