//! A small WebDriver client for the browser test: chromedriver driving headless Chromium over the
//! W3C protocol, plain HTTP/1.1 and JSON on a local socket. Only the few commands the test uses;
//! no async runtime and no crate beyond serde_json, so the test builds fast and fails plainly.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The key under which WebDriver names an element.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub const KEY_TAB: &str = "\u{E004}";
pub const KEY_ENTER: &str = "\u{E007}";
pub const KEY_ESCAPE: &str = "\u{E00C}";
pub const KEY_LEFT: &str = "\u{E012}";
pub const KEY_UP: &str = "\u{E013}";
pub const KEY_RIGHT: &str = "\u{E014}";
pub const KEY_DOWN: &str = "\u{E015}";

use super::prerequisites::{self, Prerequisite};

/// A chromedriver process and one browser session; both end when dropped.
pub struct Browser {
    driver: Child,
    chromium: PathBuf,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

/// An element of the page.
#[derive(Clone, Debug)]
pub struct Element(String);

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile.
    ///
    /// `None` when either is missing, after saying `SKIPPED` and why; under `CI=true` that
    /// fails instead (see `prerequisites`).
    pub fn start() -> Option<Browser> {
        Browser::start_in(None)
    }

    /// Starts it with a browser language (`de-DE`): `navigator.language` says it.
    pub fn start_in(lang: Option<&str>) -> Option<Browser> {
        let found = prerequisites::require(&[Prerequisite::Chromedriver, Prerequisite::Chromium])?;
        let (chromedriver, chromium) = (found[0].clone(), found[1].clone());
        let port = free_port();
        let driver = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile = tempfile::tempdir().expect("a profile directory");
        let mut browser = Browser { driver, chromium, port, session: String::new(), _profile: profile };
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(v) = browser.http("GET", "/status", None) {
                if v["value"]["ready"] == json!(true) {
                    break;
                }
            }
            assert!(Instant::now() < until, "chromedriver did not become ready");
            thread::sleep(Duration::from_millis(50));
        }
        let lang_arg = lang.map(|l| format!("--lang={l}"));
        let mut args: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--window-size=1360,1000",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        args.push(format!("--user-data-dir={}", browser._profile.path().display()));
        args.extend(lang_arg);
        let caps = json!({
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {
                        "binary": browser.chromium,
                        "args": args,
                        "prefs": { "intl": { "accept_languages": lang.unwrap_or("en-US") } }
                    },
                    "goog:loggingPrefs": { "browser": "ALL" }
                }
            }
        });
        let v = browser.http("POST", "/session", Some(caps)).expect("a session");
        browser.session = v["value"]["sessionId"].as_str().expect("a session id").to_string();
        Some(browser)
    }

    /// The browser's version, as the session reports it.
    pub fn version(&self) -> String {
        let out = Command::new(&self.chromium).arg("--version").output();
        out.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default()
    }

    pub fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    /// The first element matching a CSS selector, if any.
    pub fn find(&self, css: &str) -> Option<Element> {
        let r = self.http(
            "POST",
            &format!("/session/{}/element", self.session),
            Some(json!({ "using": "css selector", "value": css })),
        );
        match r {
            Ok(v) => v["value"][ELEMENT].as_str().map(|id| Element(id.to_string())),
            Err(_) => None,
        }
    }

    /// Waits for an element to be shown and clicks it, as a pointer does.
    pub fn click(&self, css: &str) {
        let el = self.wait_for_shown(css);
        self.click_element(&el);
    }

    pub fn click_element(&self, el: &Element) {
        self.cmd("POST", &format!("/element/{}/click", el.0), Some(json!({})));
    }

    /// Types into an input after clearing it, and checks that the input then holds the text.
    /// Waits for the input to be shown first: a panel a click opens may still be hidden, and a
    /// hidden input is "not interactable".
    pub fn type_into(&self, css: &str, text: &str) {
        for _ in 0..3 {
            let el = self.wait_for_shown(css);
            self.cmd("POST", &format!("/element/{}/clear", el.0), Some(json!({})));
            self.cmd("POST", &format!("/element/{}/value", el.0), Some(json!({ "text": text })));
            let now = self.cmd("GET", &format!("/element/{}/property/value", el.0), None);
            if now == json!(text) {
                return;
            }
        }
        panic!("{css} does not take the text {text:?}");
    }

    /// Chooses an option of a `<select>` by clicking it.
    pub fn select(&self, css: &str, value: &str) {
        self.click(&format!("{css} option[value=\"{value}\"]"));
    }

    /// Waits for an element that is displayed, as WebDriver judges it (not hidden, not in a
    /// closed `<details>`, of some size).
    pub fn wait_for_shown(&self, css: &str) -> Element {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(el) = self.find(css) {
                if self.cmd("GET", &format!("/element/{}/displayed", el.0), None) == json!(true) {
                    return el;
                }
            }
            assert!(Instant::now() < until, "no element {css} was shown");
            thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn wait_for(&self, css: &str) -> Element {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(el) = self.find(css) {
                return el;
            }
            assert!(Instant::now() < until, "no element {css} appeared");
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Runs a script in the page; returns its value.
    pub fn js(&self, script: &str) -> Value {
        self.cmd("POST", "/execute/sync", Some(json!({ "script": script, "args": [] })))
    }

    /// Runs an asynchronous script: its last argument is the callback that returns its value.
    pub fn js_async(&self, script: &str) -> Value {
        self.cmd("POST", "/execute/async", Some(json!({ "script": script, "args": [] })))
    }

    /// Presses keys, one after another, as the keyboard does (to the focused element). A key is a
    /// character or one of the `KEY_*` codes of WebDriver.
    pub fn keys(&self, keys: &[&str]) {
        let mut actions = Vec::new();
        for k in keys {
            actions.push(json!({ "type": "keyDown", "value": k }));
            actions.push(json!({ "type": "keyUp", "value": k }));
        }
        self.cmd(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        );
    }

    /// Shift+Tab.
    pub fn shift_tab(&self) {
        let actions = json!([
            { "type": "keyDown", "value": "\u{E008}" },
            { "type": "keyDown", "value": "\u{E004}" },
            { "type": "keyUp", "value": "\u{E004}" },
            { "type": "keyUp", "value": "\u{E008}" },
        ]);
        self.cmd(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        );
    }

    /// Sizes the window so that the page's viewport is `width` x `height` CSS pixels.
    pub fn set_viewport(&self, width: i64, height: i64) {
        let (mut w, mut h) = (width, height);
        // Under load (after a <select> popup or a device emulation ended) the window takes a
        // moment to settle: a few tries, each given a little time.
        for _ in 0..6 {
            self.cmd("POST", "/window/rect", Some(json!({ "width": w, "height": h })));
            thread::sleep(Duration::from_millis(50));
            let v = self.js("return [window.innerWidth, window.innerHeight]");
            let (iw, ih) = (v[0].as_i64().unwrap_or(width), v[1].as_i64().unwrap_or(height));
            if iw == width && ih == height {
                return;
            }
            w += width - iw;
            h += height - ih;
        }
        let v = self.js("return [window.innerWidth, window.innerHeight]");
        assert_eq!(v, json!([width, height]), "the viewport is {width}x{height}");
    }

    /// Polls a script until it returns something truthy; panics after `limit`.
    pub fn wait_until(&self, what: &str, script: &str, limit: Duration) -> Value {
        let until = Instant::now() + limit;
        loop {
            let v = self.js(script);
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            assert!(Instant::now() < until, "timed out waiting for {what}");
            thread::sleep(Duration::from_millis(15));
        }
    }

    /// The handle of the current window.
    pub fn window(&self) -> String {
        self.cmd("GET", "/window", None).as_str().expect("a window handle").to_string()
    }

    /// Opens a new tab and switches to it.
    pub fn new_window(&self) {
        let v = self.cmd("POST", "/window/new", Some(json!({ "type": "tab" })));
        let handle = v["handle"].as_str().expect("a window handle").to_string();
        self.switch_to(&handle);
    }

    pub fn switch_to(&self, handle: &str) {
        self.cmd("POST", "/window", Some(json!({ "handle": handle })));
    }

    /// Closes the current window.
    pub fn close_window(&self) {
        self.cmd("DELETE", "/window", None);
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.cmd("GET", "/screenshot", None);
        base64_decode(v.as_str().expect("base64 text"))
    }

    /// The browser console's entries since the last call: (level, message).
    pub fn console(&self) -> Vec<(String, String)> {
        let v = self.cmd("POST", "/se/log", Some(json!({ "type": "browser" })));
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|e| {
                        (
                            e["level"].as_str().unwrap_or_default().to_string(),
                            e["message"].as_str().unwrap_or_default().to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A session command; panics with the driver's error.
    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let full = format!("/session/{}{path}", self.session);
        match self.http(method, &full, body) {
            Ok(v) => v["value"].clone(),
            Err(e) => panic!("WebDriver {method} {path}: {e}"),
        }
    }

    /// One HTTP request to chromedriver; the JSON answer, or the error it reports.
    fn http(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(Duration::from_secs(120))).map_err(|e| e.to_string())?;
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
        let mut reader = BufReader::new(s);
        let mut status = String::new();
        reader.read_line(&mut status).map_err(|e| e.to_string())?;
        let mut length = None;
        loop {
            let mut h = String::new();
            reader.read_line(&mut h).map_err(|e| e.to_string())?;
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse::<usize>().ok();
                }
            }
        }
        let mut text = Vec::new();
        match length {
            Some(n) => {
                text.resize(n, 0);
                reader.read_exact(&mut text).map_err(|e| e.to_string())?;
            }
            None => {
                reader.read_to_end(&mut text).map_err(|e| e.to_string())?;
            }
        }
        let v: Value =
            serde_json::from_slice(&text).map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&text)))?;
        if v["value"].get("error").is_some() {
            return Err(format!("{status}{}", v["value"]));
        }
        Ok(v)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.http("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("an address").port()
}

fn base64_decode(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

// ---- Added for the review test (tools/tests/board/review_browser.rs): a file for an
// `<input type="file">`, and axe-core run on the page. ----

impl Browser {
    /// Gives a file input the file at `path`, as choosing it in the file dialog does.
    #[allow(dead_code)] // each test crate that includes this module uses part of it
    pub fn choose_file(&self, css: &str, path: &Path) {
        let el = self.wait_for(css);
        self.cmd(
            "POST",
            &format!("/element/{}/value", el.0),
            Some(json!({ "text": path.display().to_string() })),
        );
    }

    /// Runs axe-core (`script`: its axe.min.js) on the page as it is: the serious and critical
    /// violations, each with its id, help and first nodes (empty when there is none).
    #[allow(dead_code)]
    pub fn axe_violations(&self, script: &str) -> Vec<Value> {
        if self.js("return typeof window.axe") != "object" {
            self.js(&format!("{script}\n;return true;"));
        }
        let found = self.js_async(
            "const done = arguments[arguments.length - 1]; \
             axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations \
                 .filter(v => v.impact === 'serious' || v.impact === 'critical') \
                 .map(v => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ')) })))) \
             .catch(e => done([{ id: 'axe failed', help: String(e) }]));",
        );
        found.as_array().cloned().unwrap_or_default()
    }
}

// ---- Touch screens: Chromium's device emulation over the DevTools protocol. ----

impl Browser {
    /// A DevTools command (`Emulation.*`) through chromedriver.
    #[allow(dead_code)]
    pub fn cdp(&self, command: &str, params: Value) -> Value {
        self.cmd("POST", "/goog/cdp/execute", Some(json!({ "cmd": command, "params": params })))
    }

    /// Emulates a phone: a touch screen (`pointer: coarse`) of `width` x `height` CSS pixels, or,
    /// with `None`, ends the emulation (a mouse and the window's own size again).
    #[allow(dead_code)]
    pub fn emulate_phone(&self, size: Option<(i64, i64)>) {
        match size {
            Some((width, height)) => {
                self.cdp(
                    "Emulation.setDeviceMetricsOverride",
                    json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": true }),
                );
                self.cdp(
                    "Emulation.setTouchEmulationEnabled",
                    json!({ "enabled": true, "maxTouchPoints": 5 }),
                );
            }
            None => {
                self.cdp("Emulation.setTouchEmulationEnabled", json!({ "enabled": false }));
                self.cdp("Emulation.clearDeviceMetricsOverride", json!({}));
            }
        }
    }
}

/// A running `zatre-web` on a free port with `engine_cmd` behind it; interrupted (SIGINT, then
/// killed after 5 s) when dropped.
#[allow(dead_code)]
pub struct Bridge {
    child: Child,
    /// The page's address, from the bridge's first line (`listening on <url>`).
    pub url: String,
}

#[allow(dead_code)]
impl Bridge {
    pub fn start(engine_cmd: &str) -> Bridge {
        Bridge::start_with(engine_cmd, &[])
    }

    /// The same with more flags of `zatre-web` (`--idle-timeout 2`).
    pub fn start_with(engine_cmd: &str, extra: &[&str]) -> Bridge {
        let mut child = Command::new(super::engine_path::BRIDGE)
            .args(["--port", "0", "--engine", engine_cmd])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("zatre-web starts");
        let line = super::engine_path::first_line(&mut child);
        let url = line.trim().strip_prefix("listening on ").expect("listening on <url>").to_string();
        Bridge { child, url }
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-INT", &self.child.id().to_string()]).status();
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// axe-core's script: `$ZATRE_AXE`, else `target/axe/axe.min.js` (unpacked by `tools/test` from
/// npm). `None` when it is missing outside CI, after saying `SKIPPED` (the caller skips its
/// accessibility checks); in CI (`CI=true`) a missing script fails.
#[allow(dead_code)]
pub fn axe_script() -> Option<String> {
    let path = prerequisites::require(&[Prerequisite::Axe])?.remove(0);
    let text = std::fs::read_to_string(&path);
    Some(text.unwrap_or_else(|e| panic!("axe-core at {}: {e}", path.display())))
}
