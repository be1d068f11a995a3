//! Rooms in `zatre-web` through real processes and WebSocket clients: a room made by `POST /rooms`
//! with two people and the computer, played to its end by the two people's sockets, each moving
//! (and asking `next`, answered to the mover alone) on its turn only; bad links refused; a
//! `kill -9` of the server mid-game and a restart on the same database losing no move and playing
//! none twice; and every frame a seat or a watcher got
//! checked against the true game (the log replayed into an engine of the test's own): never
//! another seat's face-down tiles, never the bag's count per value.

use crate::bridge_process;
use crate::browser::Judge;
use crate::engine_path;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::Message;
use zatre_tools::web::rooms::{view_line, RoomId, Store, Viewer};

use bridge_process::{expect_close, Bridge, Socket};
use engine_path::{engine, BRIDGE};

/// A `POST /rooms` with the page's origin: (status code, body).
fn post_room(bridge: &Bridge, origin: Option<&str>, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(&bridge.addr).expect("connects");
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    write!(
        s,
        "POST /rooms HTTP/1.1\r\nHost: {}\r\n{origin}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        bridge.addr,
        body.len()
    )
    .expect("writes");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("reads");
    let code = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default())
}

/// A room made by `POST /rooms` with the page's origin: its number and the server's answer.
fn make_room(bridge: &Bridge, body: &str) -> (i64, Value) {
    let (code, answer) = post_room(bridge, Some(&bridge.origin()), body);
    assert_eq!(code, 201, "{answer}");
    let made: Value = serde_json::from_str(&answer).expect("JSON");
    (made["room"].as_i64().expect("a room id"), made)
}

/// A socket of room `room`, the page's origin, reads timing out after `timeout`.
fn room_socket(bridge: &Bridge, room: i64, timeout: Duration) -> Socket {
    let mut request =
        format!("ws://{}/room/{room}/ws", bridge.addr).into_client_request().expect("a request");
    request.headers_mut().insert("Origin", bridge.origin().parse().expect("a header value"));
    let (mut socket, _) = tungstenite::connect(request).expect("the room's socket opens");
    if let MaybeTlsStream::Plain(s) = socket.get_mut() {
        s.set_read_timeout(Some(timeout)).expect("a timeout");
    }
    socket
}

fn start(db: &Path) -> Bridge {
    let db = db.display().to_string();
    Bridge::start(&engine().display().to_string(), &["--rooms", &db, "--max-engines", "6"])
}

/// The engine of the test, which knows the true game: the room's log replayed into it.
struct Truth(Judge);

impl Truth {
    fn new(newgame: &str) -> Truth {
        let mut truth = Truth(Judge::start());
        truth.ask(&format!("newgame {newgame}"));
        truth
    }

    /// The first payload line of the answer, which must be a success.
    fn ask(&mut self, command: &str) -> String {
        self.0.call(command).into_iter().next().unwrap_or_default()
    }
}

/// One socket of the room and every frame it got.
struct Client {
    viewer: Viewer,
    ws: Socket,
    frames: Vec<Value>,
}

impl Client {
    fn join(bridge: &Bridge, room: i64, viewer: Viewer, link: &str) -> Client {
        let token = link.split_once('#').expect("a fragment").1.to_string();
        assert!(link.starts_with(&format!("/room/{room}#")), "{link}");
        let mut ws = room_socket(bridge, room, Duration::from_millis(30));
        ws.send(Message::text(format!("join {token}"))).expect("sends");
        let mut client = Client { viewer, ws, frames: Vec::new() };
        let welcome = client.wait(0, |f| f["kind"] == "welcome");
        let seat = match viewer {
            Viewer::Seat(s) => Value::from(s),
            Viewer::Watcher => Value::Null,
        };
        assert_eq!(welcome["seat"], seat, "{welcome}");
        client.wait(0, |f| f["kind"] == "view");
        client
    }

    /// Reads what has come, without waiting.
    fn pump(&mut self) {
        loop {
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    self.frames.push(serde_json::from_str(&t).unwrap_or_else(|e| panic!("{e}: {t}")))
                }
                Ok(Message::Close(frame)) => panic!("{:?} closed: {frame:?}", self.viewer),
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
                {
                    return
                }
                Err(e) => panic!("{:?}: the socket failed: {e}", self.viewer),
            }
        }
    }

    /// Waits for a frame that `want` takes, from frame `from` on.
    fn wait(&mut self, from: usize, want: impl Fn(&Value) -> bool) -> Value {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(f) = self.frames[from..].iter().find(|f| want(f)) {
                return f.clone();
            }
            assert!(
                Instant::now() < until,
                "{:?} waited in vain; got {:?}",
                self.viewer,
                &self.frames[from..]
            );
            self.pump();
        }
    }

    fn last_view(&self) -> Option<&Value> {
        self.frames.iter().rev().find(|f| f["kind"] == "view")
    }

    fn send(&mut self, text: &str) {
        self.ws.send(Message::text(text)).expect("sends");
    }

    /// Sends `text` and waits for its refusal: nothing else changes.
    fn refused(&mut self, text: &str, words: &str) {
        let seq = self.last_view().map(|v| v["seq"].clone());
        let from = self.frames.len();
        self.send(text);
        let refusal = self.wait(from, |f| f["kind"] == "refused");
        let reason = refusal["reason"].as_str().unwrap_or_default();
        assert!(reason.contains(words), "{text}: {reason}");
        assert_eq!(self.last_view().map(|v| v["seq"].clone()), seq, "a refusal changes nothing");
    }
}

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split(' ')
        .find_map(|t| t.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("{key}: {line}"))
}

const ROOM: &str = r#"{"newgame":"players 3 rounds=2","seats":[{"kind":"person"},{"kind":"computer","strategy":"greedy","movetime":20},{"kind":"person"}]}"#;

fn room_log(db: &Path, room: i64) -> Vec<String> {
    Store::open(db).expect("the database").load_room(RoomId(room)).expect("the room").log
}

#[test]
fn a_room_is_played_to_its_end_through_a_kill_and_no_frame_shows_hidden_tiles() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let db = dir.path().join("rooms.db");
    let mut bridge = start(&db);
    // Another site's page, and bodies the server cannot take: refused, nothing made.
    assert_eq!(post_room(&bridge, Some("http://evil.example"), ROOM).0, 403);
    for (body, words) in [
        ("{", "not a room's JSON"),
        (
            r#"{"newgame":"players 3 seed 7","seats":[{"kind":"person"},{"kind":"person"},{"kind":"person"}]}"#,
            "seed",
        ),
        (r#"{"newgame":"players 3","seats":[{"kind":"person"}]}"#, "one seat per player"),
        (
            r#"{"newgame":"players 2","seats":[{"kind":"person"},{"kind":"computer","strategy":"genius","movetime":1}]}"#,
            "genius",
        ),
        (r#"{"newgame":"players 2 colour=red","seats":[{"kind":"person"},{"kind":"person"}]}"#, "newgame"),
    ] {
        let (code, answer) = post_room(&bridge, Some(&bridge.origin()), body);
        assert_eq!(code, 400, "{body}: {answer}");
        assert!(answer.contains(words), "{body}: {answer}");
    }
    let (room, made) = make_room(&bridge, ROOM);
    assert_eq!(room_log(&db, room).len(), 0);
    let links: Vec<(u8, String)> = made["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| (s["seat"].as_u64().expect("a seat") as u8, s["link"].as_str().expect("a link").to_string()))
        .collect();
    assert_eq!(links.iter().map(|(s, _)| *s).collect::<Vec<_>>(), vec![1, 3], "a link per person");
    let watchers = made["watchers"].as_str().expect("a watchers' link").to_string();

    // Bad links: a wrong token, another room's number, no join. All get the same refusal.
    let bad = "refused: this link is not valid";
    for (path_room, first) in [
        (room, format!("join {}", "ab".repeat(24))),
        (room + 1000, format!("join {}", links[0].1.split_once('#').expect("#").1)),
        (room, "join nonsense".to_string()),
    ] {
        let mut ws = room_socket(&bridge, path_room, Duration::from_secs(20));
        ws.send(Message::text(first)).expect("sends");
        expect_close(&mut ws, 4020, bad);
    }
    let mut ws = room_socket(&bridge, room, Duration::from_secs(20));
    ws.send(Message::text("place 5@h8")).expect("sends");
    expect_close(&mut ws, 4021, "join <token>");
    assert!(!bridge.stderr().contains(&"ab".repeat(24)), "no token in the log");

    let join_all = |bridge: &Bridge| -> Vec<Client> {
        vec![
            Client::join(bridge, room, Viewer::Seat(1), &links[0].1),
            Client::join(bridge, room, Viewer::Seat(3), &links[1].1),
            Client::join(bridge, room, Viewer::Watcher, &watchers),
        ]
    };
    let mut clients = join_all(&bridge);
    let mut frames: Vec<(Viewer, Value)> = Vec::new();
    let mut person_moves = 0;
    let mut killed = false;
    let mut last_move: Option<(usize, String)> = None;
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < Duration::from_secs(40), "the game takes too long");
        for c in clients.iter_mut() {
            c.pump();
        }
        let over = clients.iter().all(|c| c.last_view().is_some_and(|v| v["phase"] == "over"));
        if over {
            break;
        }
        let Some(mover) = clients.iter().position(|c| c.last_view().is_some_and(|v| v["yours"] == true))
        else {
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let view = clients[mover].last_view().expect("a view").clone();
        // Everyone else has the same view number first: the turn is the mover's for all.
        let seq = view["seq"].clone();
        for c in clients.iter_mut() {
            c.wait(0, |f| f["kind"] == "view" && f["seq"] == seq);
        }
        let log = room_log(&db, room);
        assert_eq!(Some(log.len() as u64), seq.as_u64(), "what a socket sees is in the log");
        let mut truth = Truth::new("players 3 rounds=2");
        for command in &log {
            truth.ask(command);
        }
        truth.ask("setoption name Strategy value greedy");
        let best = truth.ask("go movetime 20");
        let mv = best.split(' ').nth(1).expect("a best move").to_string();
        // The other person and the watcher cannot move now; a seat sends only moves.
        let other = 1 - mover;
        let to_move = view["tomove"].as_u64().expect("tomove");
        clients[other].refused(&format!("place {mv}"), &format!("seat {to_move}'s turn"));
        clients[other].refused("pass", "turn");
        clients[2].refused("pass", "a watcher cannot move");
        clients[mover].refused("draw 1 2 3", "place <move>");
        // `next` is the mover's only: refused to the other seat, out of its turn, and a watcher.
        clients[other].refused("next", &format!("seat {to_move}'s turn"));
        clients[other].refused("next 1@h8", "turn");
        clients[2].refused("next", "a watcher cannot move");
        clients[mover].refused("next 5@h8;quit", "`next` takes placements");
        // The mover's `next` is the engine's for its own hand, to its socket only.
        let heard: Vec<usize> = clients.iter().map(|c| c.frames.len()).collect();
        let first = if mv == "pass" { String::new() } else { mv.split(',').next().unwrap_or("").to_string() };
        let asked = if first.is_empty() { "next".to_string() } else { format!("next {first}") };
        let truth_next = truth.0.call(&asked);
        clients[mover].send(&asked);
        let answer = clients[mover].wait(heard[mover], |f| f["kind"] == "next");
        assert_eq!(answer["placements"], first.as_str(), "{answer}");
        let lines: Vec<String> = answer["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .map(|l| l.as_str().expect("a line").to_string())
            .collect();
        assert_eq!(lines, truth_next, "the engine's `next` for the mover's hand");
        // A placement the engine refuses: its words, to the mover only.
        clients[mover].refused("next 1@a1,1@a2,1@a3,1@a4", "");
        for (i, c) in clients.iter_mut().enumerate() {
            c.pump();
            if i != mover {
                assert!(
                    c.frames[heard[i]..].iter().all(|f| f["kind"] != "next"),
                    "{:?} heard the mover's `next`",
                    c.viewer
                );
            }
        }
        clients[mover].refused("place 5@h8;quit", "a move is");
        if let Some((seat, again)) = last_move.take().filter(|_| killed) {
            // After the restart the move before it, sent again, is not played twice.
            clients[seat].refused(again.as_str(), "turn");
        }
        clients[mover].send(&format!("place {mv}"));
        person_moves += 1;
        let next = seq.as_u64().expect("a number") + 1;
        clients[mover].wait(0, |f| f["kind"] == "view" && f["seq"].as_u64() >= Some(next));
        last_move = Some((mover, format!("place {mv}")));
        if person_moves == 2 && !killed {
            // Everything anyone saw, and then kill -9 and a restart on the same database.
            for c in clients.iter_mut() {
                c.pump();
            }
            let seen = clients.iter().flat_map(|c| &c.frames).filter_map(|f| f["seq"].as_u64()).max();
            let before = room_log(&db, room);
            assert_no_token(&bridge, &links, &watchers);
            bridge.child.kill().expect("kill -9");
            let _ = bridge.child.wait();
            for c in clients.drain(..) {
                frames.extend(c.frames.into_iter().map(|f| (c.viewer, f)));
            }
            bridge = start(&db);
            clients = join_all(&bridge);
            let after = room_log(&db, room);
            assert!(after.len() >= before.len() && after[..before.len()] == before[..], "no move lost");
            for c in &clients {
                let back = c.last_view().expect("a view")["seq"].as_u64();
                assert!(back >= seen, "{:?} is back at {back:?}, it had seen {seen:?}", c.viewer);
            }
            killed = true;
        }
    }
    assert!(killed && person_moves >= 3, "{person_moves} moves of people");
    for c in clients.drain(..) {
        frames.extend(c.frames.into_iter().map(|f| (c.viewer, f)));
    }

    // Every view against the true game at its number.
    let log = room_log(&db, room);
    let mut truth = Truth::new("players 3 rounds=2");
    let mut lines = vec![truth.ask("position")];
    for command in &log {
        assert!(command.starts_with("draw") || command.starts_with("place "), "{command}");
        truth.ask(command);
        lines.push(truth.ask("position"));
    }
    assert_eq!(field(lines.last().expect("a line"), "phase"), "over");
    let mut views = 0;
    let mut hidden = 0;
    for (viewer, frame) in &frames {
        let text = frame.to_string();
        if frame["kind"] != "view" {
            continue;
        }
        let seq = frame["seq"].as_u64().expect("seq") as usize;
        let real = &lines[seq];
        let shown = frame["position"].as_str().expect("a position");
        assert_eq!(shown, view_line(real, *viewer).expect("a view"), "{viewer:?} at {seq}");
        // And by itself: no hand but the viewer's while the game is on, the bag as one count.
        let over = field(real, "phase") == "over";
        for (i, (hand, seen)) in
            field(real, "hands").split('/').zip(field(shown, "hands").split('/')).enumerate()
        {
            if !over && *viewer != Viewer::Seat(i as u8 + 1) && hand != "-" {
                assert_eq!(seen, "?".repeat(hand.len()), "{viewer:?} sees seat {}: {text}", i + 1);
                hidden += hand.len();
            }
        }
        assert!(!field(shown, "bag").contains(','), "no count per value: {text}");
        views += 1;
    }
    eprintln!(
        "{views} views checked, {hidden} hidden tiles, {} commands logged, {person_moves} moves of people",
        log.len()
    );
    assert!(views > 30 && hidden > 10, "{views} views, {hidden} hidden tiles");
    assert_no_token(&bridge, &links, &watchers);
}

/// No token of the room's links is in the server's log.
fn assert_no_token(bridge: &Bridge, links: &[(u8, String)], watchers: &str) {
    let log = bridge.stderr();
    assert!(log.contains("joined as"), "the log is the server's: {log}");
    for link in links.iter().map(|(_, l)| l.as_str()).chain([watchers]) {
        let token = link.split_once('#').expect("#").1;
        assert!(!log.contains(token), "a token in the log: {log}");
    }
}

#[test]
fn a_rooms_database_that_cannot_be_opened_stops_the_start() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let not_sqlite = dir.path().join("notes.txt");
    std::fs::write(
        &not_sqlite,
        "these are not rooms, but long enough to be no SQLite header at all\n".repeat(20),
    )
    .expect("writes");
    let missing = dir.path().join("no/such/dir/rooms.db");
    for path in [&not_sqlite, &missing] {
        let out = Command::new(BRIDGE)
            .args(["--port", "0", "--engine", "true", "--rooms"])
            .arg(path)
            .stdin(Stdio::null())
            .output()
            .expect("zatre-web runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&path.display().to_string()), "the path named: {stderr}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("listening"), "never listened");
    }
}

#[test]
fn without_rooms_there_is_no_room() {
    let bridge = Bridge::start("true", &[]);
    let (code, body) = post_room(&bridge, Some(&bridge.origin()), ROOM);
    assert_eq!(code, 404, "{body}");
    assert!(body.contains("--rooms"), "{body}");
}

#[test]
fn the_rooms_limits_are_flags() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let db = dir.path().join("rooms.db").display().to_string();
    let engine = engine().display().to_string();
    let flags = [
        "--rooms",
        &db,
        "--max-rooms-per-client-hour",
        "2",
        "--max-room-watchers",
        "1",
        "--max-room-people",
        "1",
    ];
    let bridge = Bridge::start(&engine, &flags);
    let two = r#"{"newgame":"players 2","seats":[{"kind":"person"},{"kind":"person"}]}"#;
    let (room, made) = make_room(&bridge, two);
    // The link's page is the board.
    let (status, body) = bridge.get(&format!("/room/{room}"));
    assert!(status.contains(" 200 ") && body.contains("/js/app.js"), "{status}");
    // One watcher and one person's socket at most; the second of each is closed with 4022.
    let watchers = made["watchers"].as_str().expect("a link");
    let seat1 = made["seats"][0]["link"].as_str().expect("a link");
    let seat2 = made["seats"][1]["link"].as_str().expect("a link");
    let _watching = Client::join(&bridge, room, Viewer::Watcher, watchers);
    let _sitting = Client::join(&bridge, room, Viewer::Seat(1), seat1);
    for link in [watchers, seat2] {
        let mut ws = room_socket(&bridge, room, Duration::from_secs(20));
        let token = link.split_once('#').expect("#").1;
        ws.send(Message::text(format!("join {token}"))).expect("sends");
        expect_close(&mut ws, 4022, "connected already");
    }
    // Two rooms an hour from this client: the third is refused and nothing is made.
    assert_eq!(post_room(&bridge, Some(&bridge.origin()), two).0, 201);
    let (code, answer) = post_room(&bridge, Some(&bridge.origin()), two);
    assert_eq!(code, 429, "{answer}");
    assert!(answer.contains("in the last hour"), "{answer}");
    drop(bridge);
    let store = Store::open(Path::new(&db)).expect("the database");
    assert_eq!(store.count_rooms(None).expect("a count"), 2);
}

#[test]
fn a_socket_that_answers_no_ping_is_taken_for_gone() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let db = dir.path().join("rooms.db").display().to_string();
    let engine = engine().display().to_string();
    let bridge = Bridge::start(&engine, &["--rooms", &db, "--ping-interval", "1", "--ping-timeout", "2"]);
    let two = r#"{"newgame":"players 2","seats":[{"kind":"person"},{"kind":"person"}]}"#;
    let (room, made) = make_room(&bridge, two);
    let mut here =
        Client::join(&bridge, room, Viewer::Seat(1), made["seats"][0]["link"].as_str().expect("a link"));
    let mut gone =
        Client::join(&bridge, room, Viewer::Seat(2), made["seats"][1]["link"].as_str().expect("a link"));
    here.wait(0, |f| f["kind"] == "view" && f["connected"] == serde_json::json!([true, true]));
    // Seat 2 reads nothing, so it answers no ping; seat 1 reads (and so answers) all along.
    let from = here.frames.len();
    let view = here.wait(from, |f| f["kind"] == "view" && f["connected"] == serde_json::json!([true, false]));
    assert_eq!(view["seq"], here.frames[from - 1]["seq"], "nothing else changed");
    // What was sent before the close comes first.
    loop {
        match bridge_process::next(&mut gone.ws) {
            bridge_process::Said::Line(_) => {}
            bridge_process::Said::Closed(code, reason) => {
                assert_eq!(code, 4010, "{reason}");
                assert!(reason.contains("no ping"), "{reason}");
                break;
            }
        }
    }
}

#[test]
fn two_servers_share_one_rooms_file() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let db = dir.path().join("rooms.db");
    let (a, b) = (start(&db), start(&db));
    let two = r#"{"newgame":"players 2","seats":[{"kind":"person"},{"kind":"computer","strategy":"random","movetime":1}]}"#;
    let made: Value = serde_json::from_str(&post_room(&a, Some(&a.origin()), two).1).expect("JSON");
    let other: Value = serde_json::from_str(&post_room(&b, Some(&b.origin()), two).1).expect("JSON");
    assert_ne!(made["room"], other["room"], "room numbers stay unique");
    let room = made["room"].as_i64().expect("a room id");
    // The room made on one server is played on the other.
    let mut seat =
        Client::join(&b, room, Viewer::Seat(1), made["seats"][0]["link"].as_str().expect("a link"));
    let view = seat.wait(0, |f| f["kind"] == "view" && f["yours"] == true);
    assert_eq!(view["seq"], 1, "the server drew for seat 1: {view}");
    assert_eq!(room_log(&db, room).len(), 1);
}

#[test]
fn the_page_reads_a_rooms_view_line() {
    let Some(browser) = crate::webdriver::Browser::start() else { return };
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = start(&dir.path().join("rooms.db"));
    let (room, made) = make_room(&bridge, ROOM);
    let mut seat =
        Client::join(&bridge, room, Viewer::Seat(1), made["seats"][0]["link"].as_str().expect("a link"));
    // Seat 1 moves (the test's engine finds a move in the room's log), the computer seat 2
    // moves, and seat 3 has drawn: in seat 1's view seat 3's hand lies face down.
    seat.wait(0, |f| f["kind"] == "view" && f["yours"] == true);
    let mut truth = Truth::new("players 3 rounds=2");
    for command in room_log(&dir.path().join("rooms.db"), room) {
        truth.ask(&command);
    }
    let best = truth.ask("go movetime 20");
    seat.send(&format!("place {}", best.split(' ').nth(1).expect("a move")));
    let view = seat.wait(0, |f| f["kind"] == "view" && f["tomove"] == 3 && f["phase"] == "place");
    let line = view["position"].as_str().expect("a position").to_string();
    assert!(field(&line, "hands").ends_with("/??"), "seat 3's tiles face down: {line}");
    browser.goto(&format!("{}/room/{room}", bridge.origin()));
    let read = browser.js_async(&format!(
        "const done = arguments[arguments.length - 1]; \
         import('/js/parse.js').then(P => done(P.position({}))).catch(e => done(String(e)));",
        Value::from(line.as_str())
    ));
    let hands: Vec<&str> = field(&line, "hands").split('/').collect();
    let own: Vec<u64> = hands[0].chars().filter_map(|c| c.to_digit(10)).map(u64::from).collect();
    assert_eq!(read["hands"][0], serde_json::json!(own), "{line}: {read}");
    for (i, hand) in hands.iter().enumerate().skip(1) {
        let hidden = hand.matches('?').count();
        assert_eq!(read["hidden"][i], hidden, "seat {}: {line}: {read}", i + 1);
        assert_eq!(read["hands"][i], serde_json::json!([]), "no value of a face-down tile: {read}");
    }
    assert_eq!(read["bag"], Value::Null, "no count per value: {read}");
    assert_eq!(read["bagCount"].as_u64(), field(&line, "bag").parse().ok(), "{line}: {read}");
    let unseen: Vec<u64> = field(&line, "unseen").split(',').map(|c| c.parse().expect("a count")).collect();
    assert_eq!(read["unseen"], serde_json::json!(unseen), "{line}: {read}");
    // The engine's own line reads as before: the bag's counts per value and their sum.
    let engine_line = "variant=classic players=2 turn=1 tomove=1 phase=place board=- bag=19,20,20,20,20,20 hands=1/- sheets=-";
    let read = browser.js_async(&format!(
        "const done = arguments[arguments.length - 1]; \
         import('/js/parse.js').then(P => done(P.position({}))).catch(e => done(String(e)));",
        Value::from(engine_line)
    ));
    assert_eq!(read["bag"], serde_json::json!([19, 20, 20, 20, 20, 20]), "{read}");
    assert_eq!(read["bagCount"], 119, "{read}");
    assert_eq!(read["hidden"], serde_json::json!([0, 0]), "{read}");
}
