//! The bridge `zatre-web` through real processes and a WebSocket client: the address it prints,
//! the page it serves, lines relayed verbatim, the commands it does not relay, who may connect,
//! the engine limits, the answer deadline, pings, over-long lines, the log, and that no engine
//! process outlives its page or the bridge.

use crate::bridge_process;
use crate::engine_path;

use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use tungstenite::Message;

use bridge_process::{expect_close, line, next, raw_upgrade, read_to_end, send, Bridge, Said};
use engine_path::{engine, BRIDGE};

/// Whether any live (not zombie) process is in process group `group`, or the process `group`
/// itself exists in any state.
fn group_alive(group: i32) -> bool {
    if Path::new(&format!("/proc/{group}")).exists() {
        return true;
    }
    let Ok(dir) = fs::read_dir("/proc") else { return false };
    dir.flatten().any(|entry| {
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else { return false };
        // pid (comm) state ppid pgrp ...
        let Some((_, rest)) = stat.rsplit_once(')') else { return false };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        fields.len() > 2 && fields[0] != "Z" && fields[2] == group.to_string()
    })
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let until = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        thread::sleep(Duration::from_millis(20));
    }
}

/// An engine that records its pid and every line it gets, ignores `quit` and outlives its stdin.
fn stubborn_engine(dir: &Path) -> String {
    format!(
        "echo $$ > {d}/pid; while IFS= read -r l; do printf '%s\\n' \"$l\" >> {d}/log; done; sleep 60",
        d = dir.display()
    )
}

/// A bridge running [`stubborn_engine`] and a page that sent it `first`: the engine's directory,
/// the bridge, the page and the engine's pid.
fn stubborn_page(first: &str) -> (tempfile::TempDir, Bridge, bridge_process::Socket, i32) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = Bridge::start(&stubborn_engine(dir.path()), &[]);
    let mut ws = bridge.open();
    send(&mut ws, first);
    let pid = read_pid(dir.path());
    (dir, bridge, ws, pid)
}

fn read_pid(dir: &Path) -> i32 {
    let path = dir.join("pid");
    wait_until("the engine's pid file", Duration::from_secs(10), || {
        fs::read_to_string(&path).is_ok_and(|s| s.ends_with('\n'))
    });
    fs::read_to_string(&path).expect("the pid file").trim().parse().expect("a pid")
}

#[test]
fn prints_its_address_and_serves_the_page() {
    let bridge = Bridge::start("true", &[]);
    assert!(bridge.addr.starts_with("127.0.0.1:"), "loopback by default: {}", bridge.addr);
    assert_ne!(bridge.addr, "127.0.0.1:0", "--port 0 takes a free port");
    let (status, body) = bridge.get("/");
    assert!(status.contains(" 200 "), "{status}");
    assert!(body.contains("<script type=\"module\" src=\"/js/app.js\">"), "the page: {body}");
    let (status, body) = bridge.get("/js/protocol.js");
    assert!(status.contains(" 200 "), "{status}");
    assert!(body.contains("export class"), "the protocol client module");
    let (status, _) = bridge.get("/nothing-here");
    assert!(status.contains(" 404 "), "{status}");
    assert!(!bridge.stderr().contains("warning"), "no warning on loopback: {}", bridge.stderr());
}

#[test]
fn relays_lines_verbatim_and_garbage_gets_the_engines_errors() {
    let bridge = Bridge::start(&engine().display().to_string(), &[]);
    let mut ws = bridge.open();
    send(&mut ws, "007\tprotocol_version ");
    assert_eq!(line(&mut ws), "=007 2");
    assert_eq!(line(&mut ws), "", "every response ends with an empty line");
    send(&mut ws, "9 place 1@a1");
    assert_eq!(line(&mut ws), "?9 invalid_argument 'a1' is not a cell of this board", "the engine's own");
    assert_eq!(line(&mut ws), "");
    send(&mut ws, "fly");
    assert_eq!(
        line(&mut ws),
        "? syntax_error zatre-web relays only commands that start with an id of 1 to 9 digits",
        "the bridge's, without an id"
    );
    assert_eq!(line(&mut ws), "");
    send(&mut ws, "10 isready");
    assert_eq!(line(&mut ws), "=10 readyok", "the engine and the bridge go on");
}

#[test]
fn other_origins_get_403_and_start_no_engine() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = Bridge::start(&stubborn_engine(dir.path()), &[]);
    let port = bridge.addr.rsplit(':').next().expect("a port").to_string();
    let other_port = format!("http://127.0.0.1:{}", port.parse::<u32>().expect("a number") + 1);
    for origin in [
        Some("http://evil.example"),
        Some(&format!("https://{}", bridge.addr)[..]),
        Some(&other_port[..]),
        Some("null"),
        None,
    ] {
        match bridge.connect(origin) {
            Err(tungstenite::Error::Http(response)) => {
                assert_eq!(response.status().as_u16(), 403, "origin {origin:?}")
            }
            Err(e) => panic!("origin {origin:?}: expected 403, got {e}"),
            Ok(_) => panic!("origin {origin:?} was let in"),
        }
    }
    thread::sleep(Duration::from_millis(300));
    assert!(!dir.path().join("pid").exists(), "no engine was started");
    // The page's own origin, under either loopback name, gets in.
    let mut ws = bridge.open();
    send(&mut ws, "hello");
    read_pid(dir.path());
}

/// A client may open `--max-connects-per-minute` WebSockets in a burst; more are refused with 429
/// before anything is checked or started (also those another check would refuse), and the log
/// says it once, not once a refusal (one client started 1,142 engines in ten seconds, and 20,000
/// refused requests wrote 4 MB of log).
#[test]
fn a_client_opens_at_most_its_connects_a_minute() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = Bridge::start(&stubborn_engine(dir.path()), &["--max-connects-per-minute", "3"]);
    let status = |origin: Option<&str>| match bridge.connect(origin) {
        Ok(_) => 101,
        Err(tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("{e}"),
    };
    let own = bridge.origin();
    assert_eq!(status(Some(&own)), 101);
    assert_eq!(status(Some("http://evil.example")), 403, "a refused one counts too");
    assert_eq!(status(Some(&own)), 101);
    for _ in 0..5 {
        assert_eq!(status(Some(&own)), 429);
    }
    assert_eq!(status(Some("http://evil.example")), 429, "not even looked at");
    let log = bridge.stderr();
    assert_eq!(log.matches("--max-connects-per-minute").count(), 1, "said once: {log}");
    assert_eq!(log.matches("evil.example").count(), 1, "the second foreign origin not logged: {log}");
}

#[test]
fn connections_beyond_max_engines_are_refused_with_a_message() {
    // The retries below, each refused until the first engine has ended, are this client's too: a
    // per-client limit above them, so that only --max-engines refuses (each retry is also read to
    // its end before the next, so none outlives its refusal).
    let bridge = Bridge::start("cat", &["--max-engines", "1", "--max-engines-per-client", "8"]);
    let mut first = bridge.open();
    send(&mut first, "1 isready");
    assert_eq!(line(&mut first), "1 isready", "cat echoes");
    let mut second = bridge.open();
    match next(&mut second) {
        Said::Closed(code, reason) => {
            assert_eq!(code, 4002);
            assert!(reason.contains("--max-engines 1"), "{reason}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    first.close(None).expect("closes");
    let _ = next(&mut first);
    // The slot is free again once the first engine has ended.
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let mut third = bridge.open();
        send(&mut third, "3 isready");
        match next(&mut third) {
            Said::Line(l) => {
                assert_eq!(l, "3 isready");
                break;
            }
            Said::Closed(4002, _) if Instant::now() < until => {
                read_to_end(&mut third);
                thread::sleep(Duration::from_millis(100));
            }
            other => panic!("expected the slot back, got {other:?}"),
        }
    }
}

#[test]
fn a_line_over_the_limit_closes_the_connection_with_a_message() {
    let (dir, bridge, mut ws, pid) = stubborn_page("1 isready");
    // 64 KiB is still a line; one byte more is not, though the frame may hold it for a trailing
    // \r (such a line was once relayed, and the engine's id-less refusal left its id unanswered).
    let longest = format!("2 position {}", "x".repeat(65536 - "2 position ".len()));
    assert_eq!(longest.len(), 65536);
    send(&mut ws, &longest);
    send(&mut ws, &"y".repeat(65537));
    expect_close(&mut ws, 4003, "longer than 65536 bytes");
    wait_until("the engine's end", Duration::from_secs(10), || !group_alive(pid));
    let log = fs::read_to_string(dir.path().join("log")).expect("the engine's log");
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 3, "the short lines and quit reach the engine, the long one does not");
    assert_eq!(lines[1].len(), 65536);
    assert_eq!(lines[2], "quit");
    // The bridge goes on.
    let mut again = bridge.open();
    send(&mut again, "3 isready");
    read_pid(dir.path());
}

#[test]
fn closing_the_page_sends_quit_and_leaves_no_process() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = Bridge::start(&stubborn_engine(dir.path()), &[]);
    let mut ws = bridge.open();
    send(&mut ws, "1 isready");
    let pid = read_pid(dir.path());
    assert!(group_alive(pid));
    let closed = Instant::now();
    ws.close(None).expect("closes");
    drop(ws);
    wait_until("the engine's end", Duration::from_secs(10), || !group_alive(pid));
    let took = closed.elapsed();
    assert!(took >= Duration::from_millis(500), "the engine had a grace period, took {took:?}");
    let log = fs::read_to_string(dir.path().join("log")).expect("the engine's log");
    assert_eq!(log, "1 isready\nquit\n");
}

#[test]
fn a_real_engine_quits_at_once_when_the_page_closes() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let cmd = format!("echo $$ > {}/pid; exec {}", dir.path().display(), engine().display());
    let bridge = Bridge::start(&cmd, &[]);
    let mut ws = bridge.open();
    send(&mut ws, "1 isready");
    assert_eq!(line(&mut ws), "=1 readyok");
    let pid = read_pid(dir.path());
    let closed = Instant::now();
    drop(ws); // no close frame: the TCP connection just ends, as when a tab is killed
    wait_until("the engine's end", Duration::from_secs(10), || !group_alive(pid));
    assert!(closed.elapsed() < Duration::from_millis(900), "quit ended it before the grace ran out");
}

/// A bridge running the real engine and a page that asked it `command`, answered `answer`.
fn real_engine_page(command: &str, answer: &str) -> (Bridge, bridge_process::Socket) {
    let bridge = Bridge::start(&engine().display().to_string(), &[]);
    let mut ws = bridge.open();
    send(&mut ws, command);
    assert_eq!(line(&mut ws), answer);
    assert_eq!(line(&mut ws), "", "every response ends with an empty line");
    (bridge, ws)
}

#[test]
fn an_engine_that_exits_or_crashes_is_reported_to_the_page() {
    let quits = Bridge::start("read l; echo =1; echo; exit 0", &[]);
    let mut ws = quits.open();
    send(&mut ws, "1 isready");
    assert_eq!(line(&mut ws), "=1");
    assert_eq!(line(&mut ws), "");
    assert_eq!(next(&mut ws), Said::Closed(4001, "the engine exited with status 0".to_string()));

    let crash = Bridge::start("read l; echo half a line; exit 3", &[]);
    let mut ws = crash.open();
    send(&mut ws, "1 isready");
    assert_eq!(line(&mut ws), "half a line");
    assert_eq!(next(&mut ws), Said::Closed(4001, "the engine exited with status 3".to_string()));
}

#[test]
fn a_missing_engine_is_not_started_4004() {
    for cmd in [
        "/nonexistent/zatre",
        "/nonexistent/zatre --flag",
        "echo starting >&2; exec /nonexistent/zatre",
        "/dev/null",
    ] {
        let missing = Bridge::start(cmd, &[]);
        let mut ws = missing.open();
        match next(&mut ws) {
            Said::Closed(4004, reason) => {
                assert!(reason.starts_with("cannot start the engine"), "{cmd}: {reason}")
            }
            other => panic!("{cmd}: expected 4004, got {other:?}"),
        }
    }
}

#[test]
fn a_killed_engine_reports_its_own_signal() {
    let (bridge, mut ws) = real_engine_page("1 isready", "=1 readyok");
    let kids = children(bridge.child.id());
    assert_eq!(kids.len(), 1, "one engine process, no wrapper: {kids:?}");
    let comm = fs::read_to_string(format!("/proc/{}/comm", kids[0])).unwrap_or_default();
    assert_eq!(comm.trim(), "zatre", "the bridge's child is the engine itself");
    let status = Command::new("kill").args(["-9", &kids[0].to_string()]).status().expect("kill runs");
    assert!(status.success());
    assert_eq!(
        next(&mut ws),
        Said::Closed(4001, "the engine was killed by a signal: SIGKILL (9)".to_string())
    );
}

/// The pids of `parent`'s child processes.
fn children(parent: u32) -> Vec<u32> {
    let Ok(dir) = fs::read_dir("/proc") else { return Vec::new() };
    dir.flatten()
        .filter_map(|entry| {
            let stat = fs::read_to_string(entry.path().join("stat")).ok()?;
            let (_, rest) = stat.rsplit_once(')')?;
            let ppid: u32 = rest.split_whitespace().nth(1)?.parse().ok()?;
            (ppid == parent).then(|| entry.file_name().to_str()?.parse().ok()).flatten()
        })
        .collect()
}

#[test]
fn ctrl_c_stops_the_bridge_and_its_engines() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut bridge = Bridge::start(&stubborn_engine(dir.path()), &[]);
    let mut ws = bridge.open();
    send(&mut ws, "1 isready");
    let pid = read_pid(dir.path());
    let status =
        Command::new("kill").args(["-INT", &bridge.child.id().to_string()]).status().expect("kill runs");
    assert!(status.success());
    let until = Instant::now() + Duration::from_secs(10);
    let exit = loop {
        if let Some(s) = bridge.child.try_wait().expect("waits") {
            break s;
        }
        assert!(Instant::now() < until, "the bridge did not stop on SIGINT");
        thread::sleep(Duration::from_millis(20));
    };
    assert!(exit.success(), "{exit:?}");
    wait_until("the engine's end", Duration::from_secs(5), || !group_alive(pid));
}

#[test]
fn a_host_other_than_loopback_gets_a_warning() {
    let bridge = Bridge::start("true", &["--host", "0.0.0.0"]);
    assert!(bridge.addr.starts_with("0.0.0.0:"), "{}", bridge.addr);
    wait_until("the warning", Duration::from_secs(5), || bridge.stderr().contains("warning"));
    assert!(
        bridge.stderr().contains("anyone who can reach this address can start engines"),
        "{}",
        bridge.stderr()
    );
}

/// Writes one masked frame (mask key 0) with this first byte (FIN, RSV bits, opcode).
fn raw_frame(s: &mut TcpStream, first: u8, payload: &[u8]) {
    let mut frame = vec![first];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
    }
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(payload);
    s.write_all(&frame).expect("writes a frame");
}

/// Reads frames until a close frame: its code (None when the stream ends without one).
fn raw_close_code(s: &mut TcpStream) -> Option<u16> {
    loop {
        let mut head = [0u8; 2];
        s.read_exact(&mut head).ok()?;
        let len = match head[1] & 0x7f {
            126 => {
                let mut l = [0u8; 2];
                s.read_exact(&mut l).ok()?;
                u64::from(u16::from_be_bytes(l))
            }
            127 => {
                let mut l = [0u8; 8];
                s.read_exact(&mut l).ok()?;
                u64::from_be_bytes(l)
            }
            n => u64::from(n),
        };
        let mut payload = vec![0u8; usize::try_from(len).expect("a small frame")];
        s.read_exact(&mut payload).ok()?;
        if head[0] & 0x0f == 0x8 {
            return payload.get(..2).map(|c| u16::from_be_bytes([c[0], c[1]]));
        }
    }
}

#[test]
fn a_rebound_name_is_refused_on_every_address() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = Bridge::start(&stubborn_engine(dir.path()), &["--host", "0.0.0.0"]);
    let port = bridge.addr.rsplit(':').next().expect("a port").to_string();
    let local = format!("127.0.0.1:{port}");
    // evil.example resolved to this machine: the browser sends the name it was given.
    let evil = format!("evil.example:{port}");
    let (code, _) = raw_upgrade(&local, &[("Host", &evil), ("Origin", &format!("http://{evil}"))]);
    assert_eq!(code, 403, "a rebound name");
    thread::sleep(Duration::from_millis(300));
    assert!(!dir.path().join("pid").exists(), "no engine was started");
    // An address the machine is reached at is no name anyone can rebind.
    let (code, mut s) = raw_upgrade(&local, &[("Host", &local), ("Origin", &format!("http://{local}"))]);
    assert_eq!(code, 101, "the page's own address");
    raw_frame(&mut s, 0x81, b"1 hello");
    read_pid(dir.path());
}

#[test]
fn a_header_sent_twice_is_refused_whichever_copy_comes_first() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = Bridge::start(&stubborn_engine(dir.path()), &[]);
    let own = bridge.origin();
    let host = bridge.addr.clone();
    let cases: [&[(&str, &str)]; 3] = [
        &[("Host", &host), ("Origin", &own), ("Origin", "http://evil.example")],
        &[("Host", &host), ("Origin", &own), ("Origin", &own)],
        &[("Host", &host), ("Host", "evil.example"), ("Origin", &own)],
    ];
    for headers in cases {
        let (code, _) = raw_upgrade(&bridge.addr, headers);
        assert_eq!(code, 403, "{headers:?}");
    }
    thread::sleep(Duration::from_millis(300));
    assert!(!dir.path().join("pid").exists(), "no engine was started");
    let (code, _) = raw_upgrade(&bridge.addr, &[("Host", &host), ("Origin", &own)]);
    assert_eq!(code, 101, "one of each gets in");
}

#[test]
fn a_close_frame_frees_the_slot_even_if_the_page_keeps_its_socket_open() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let cmd = format!("echo $$ > {}/pid; exec {}", dir.path().display(), engine().display());
    let bridge = Bridge::start(&cmd, &["--max-engines", "1", "--max-commands-per-second", "100000"]);
    let mut hog = bridge.open();
    send(&mut hog, "0 isready");
    let pid = read_pid(dir.path());
    // Thousands of responses (2.8 MB) the page never reads fill every buffer on the way back to
    // it: the bridge is stuck sending when the Close frame comes.
    for i in 1..=3000 {
        send(&mut hog, &format!("{i} variants"));
    }
    // The engine answers until its output has nowhere to go.
    thread::sleep(Duration::from_millis(1500));
    hog.close(None).expect("sends its Close frame");
    // ...and keeps the socket open without reading (`hog` lives to the end of the test).
    wait_until("the engine's end and reaping", Duration::from_secs(10), || !group_alive(pid));
    let mut next_page = bridge.open();
    send(&mut next_page, "1 protocol_version");
    assert_eq!(next(&mut next_page), Said::Line("=1 2".to_string()), "the slot is free again");
    drop(hog);
}

#[test]
fn a_page_far_ahead_of_an_engine_that_reads_nothing_is_closed_4007() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = Bridge::start(&format!("echo $$ > {}/pid; exec sleep 60", dir.path().display()), &[]);
    let mut ws = bridge.open();
    let long = "x".repeat(60_000);
    // The engine's input pipe holds a line or so, the bridge 64 more: the page is told, not
    // buffered for without end, and still heard while the engine takes nothing.
    for i in 0..100 {
        if ws.send(Message::text(format!("{i} position {long}"))).is_err() {
            break;
        }
    }
    let pid = read_pid(dir.path());
    expect_close(&mut ws, 4007, "more than 64 commands wait for the engine");
    wait_until("the engine's end", Duration::from_secs(10), || !group_alive(pid));
}

#[test]
fn slow_header_senders_cannot_starve_other_clients() {
    // An open-file limit of 64 and 80 connections that send their headers a byte at a time, or
    // nothing: the page still loads and plays at once.
    let mut shell = Command::new("sh");
    shell.args(["-c", &format!("ulimit -n 64 && exec {BRIDGE} \"$@\""), "zatre-web"]);
    let bridge = Bridge::start_by(shell, "cat", &[]);
    let mut slow: Vec<TcpStream> = (0..80)
        .map(|i| {
            let mut s = TcpStream::connect(&bridge.addr).expect("connects");
            if i % 2 == 0 {
                let _ = s.write_all(b"GET / HTTP/1.1\r\n");
            }
            s
        })
        .collect();
    let feed = thread::spawn(move || {
        for _ in 0..20 {
            for s in &mut slow {
                let _ = s.write_all(b"X");
            }
            thread::sleep(Duration::from_millis(250));
        }
    });
    thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let (status, body) = bridge.get("/");
    assert!(status.contains(" 200 "), "{status}");
    assert!(body.contains("<html"), "the page");
    let mut ws = bridge.open();
    send(&mut ws, "1 isready");
    assert_eq!(line(&mut ws), "1 isready");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(3), "the page waited {took:?} behind slow senders");
    feed.join().expect("the feeder ends");
}

#[test]
fn a_connection_that_sends_no_headers_is_closed_after_the_header_timeout() {
    let bridge = Bridge::start("cat", &["--header-timeout", "1"]);
    for opening in [&b""[..], b"GET / HTTP/1.1\r\nHost: x\r\n"] {
        let mut s = TcpStream::connect(&bridge.addr).expect("connects");
        s.set_read_timeout(Some(Duration::from_secs(10))).expect("a timeout");
        s.write_all(opening).expect("writes");
        let started = Instant::now();
        let mut rest = Vec::new();
        let _ = s.read_to_end(&mut rest);
        let took = started.elapsed();
        assert!(took >= Duration::from_millis(900) && took < Duration::from_secs(5), "closed after {took:?}");
    }
}

#[test]
fn the_empty_line_after_a_response_is_not_held_back() {
    let bridge = Bridge::start(&engine().display().to_string(), &[]);
    let mut ws = bridge.open();
    let mut gaps = Vec::new();
    for i in 0..30 {
        send(&mut ws, &format!("{i} isready"));
        assert_eq!(line(&mut ws), format!("={i} readyok"));
        let answered = Instant::now();
        assert_eq!(line(&mut ws), "");
        gaps.push(answered.elapsed());
    }
    gaps.sort();
    let median = gaps[gaps.len() / 2];
    // With Nagle's algorithm on the bridge's socket the empty line waits for the client's delayed
    // ACK, about 40 ms; without it, microseconds.
    assert!(median < Duration::from_millis(20), "median gap {median:?}: {gaps:?}");
}

#[test]
fn a_message_is_one_line_and_text() {
    let (dir, bridge, mut ws, pid) = stubborn_page("1 isready\r");
    send(&mut ws, "2 isready\nquit");
    expect_close(&mut ws, 1008, "line break");
    wait_until("the engine's end", Duration::from_secs(10), || !group_alive(pid));
    let log = fs::read_to_string(dir.path().join("log")).expect("the engine's log");
    assert_eq!(log, "1 isready\nquit\n", "the two-line message never reached the engine");

    let mut ws = bridge.open();
    ws.send(Message::binary(b"3 isready".to_vec())).expect("sends");
    expect_close(&mut ws, 1003, "binary messages are refused");
}

#[test]
fn invalid_utf8_and_protocol_violations_get_their_rfc_close_codes() {
    let bridge = Bridge::start("cat", &[]);
    let headers = [("Host", &bridge.addr[..]), ("Origin", &bridge.origin()[..])];
    let (code, mut s) = raw_upgrade(&bridge.addr, &headers);
    assert_eq!(code, 101);
    raw_frame(&mut s, 0x81, b"1 ok");
    raw_frame(&mut s, 0x81, b"2 n\xffme");
    assert_eq!(raw_close_code(&mut s), Some(1007), "a text frame that is not UTF-8");

    let (_, mut s) = raw_upgrade(&bridge.addr, &headers);
    raw_frame(&mut s, 0x81 | 0x40, b"1 isready");
    assert_eq!(raw_close_code(&mut s), Some(1002), "a reserved bit set");

    let (_, mut s) = raw_upgrade(&bridge.addr, &headers);
    raw_frame(&mut s, 0x80, b"a continuation of nothing");
    assert_eq!(raw_close_code(&mut s), Some(1002), "a continuation frame first");
}

#[test]
fn an_idle_page_has_its_engine_ended_4006_and_can_come_back() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = Bridge::start(&stubborn_engine(dir.path()), &["--idle-timeout", "1"]);
    let mut ws = bridge.open();
    send(&mut ws, "1 isready");
    let pid = read_pid(dir.path());
    let started = Instant::now();
    expect_close(&mut ws, 4006, "after 1 s without a command");
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(800) && took < Duration::from_secs(5), "{took:?}");
    wait_until("the engine's end", Duration::from_secs(10), || !group_alive(pid));
    // Lines keep a page alive; a new page gets a new engine.
    fs::remove_file(dir.path().join("pid")).expect("removes the pid file");
    let mut ws = bridge.open();
    for i in 0..6 {
        send(&mut ws, &format!("{i} isready"));
        thread::sleep(Duration::from_millis(400));
    }
    read_pid(dir.path());
    let log = dir.path().join("log");
    wait_until("every line in the engine's log", Duration::from_secs(5), || {
        fs::read_to_string(&log).is_ok_and(|l| l.lines().filter(|l| l.ends_with(" isready")).count() == 7)
    });
    assert!(matches!(next(&mut ws), Said::Closed(4006, _)), "then idle again");
}

#[test]
fn a_page_over_its_commands_a_second_is_closed_4007() {
    let bridge = Bridge::start("cat", &["--max-commands-per-second", "5"]);
    let mut ws = bridge.open();
    for i in 0..5 {
        send(&mut ws, &format!("{i} isready"));
    }
    for i in 0..5 {
        assert_eq!(line(&mut ws), format!("{i} isready"), "a burst of 5 passes");
    }
    thread::sleep(Duration::from_millis(450));
    send(&mut ws, "5 isready");
    send(&mut ws, "6 isready");
    assert_eq!(line(&mut ws), "5 isready", "tokens come back at 5 a second");
    assert_eq!(line(&mut ws), "6 isready");
    // More than the bucket holds (5) and than it refills while they are read, however long the
    // lines above took on a loaded machine (a full bucket once let 5 through, and no close came).
    for i in 7..20 {
        if ws.send(Message::text(format!("{i} isready"))).is_err() {
            break;
        }
    }
    loop {
        match next(&mut ws) {
            Said::Line(l) => assert!(l.ends_with("isready"), "{l}"),
            Said::Closed(code, reason) => {
                assert_eq!(code, 4007, "{reason}");
                assert!(reason.contains("more than 5 commands a second"), "{reason}");
                break;
            }
        }
    }
}

#[test]
fn public_origins_connect_by_their_names_and_no_one_else() {
    let bridge = Bridge::start(
        "cat",
        &["--public-origin", "https://zatre.example.org", "--allow-host", "zatre-upstream"],
    );
    let own = bridge.origin();
    let allowed: [&[(&str, &str)]; 4] = [
        &[("Host", "zatre.example.org"), ("Origin", "https://zatre.example.org")],
        &[("Host", "zatre-upstream"), ("Origin", "https://zatre.example.org")],
        &[("Host", &bridge.addr), ("Origin", "https://zatre.example.org")],
        &[("Host", &bridge.addr), ("Origin", &own)],
    ];
    for headers in allowed {
        let (code, _) = raw_upgrade(&bridge.addr, headers);
        assert_eq!(code, 101, "{headers:?}");
    }
    let refused: [&[(&str, &str)]; 4] = [
        &[("Host", "zatre.example.org"), ("Origin", "http://zatre.example.org")],
        &[("Host", "evil.example"), ("Origin", "https://zatre.example.org")],
        &[("Host", "zatre.example.org"), ("Origin", "https://evil.example")],
        &[("Host", "zatre.example.org"), ("Origin", "https://zatre.example.org:8443")],
    ];
    for headers in refused {
        let (code, _) = raw_upgrade(&bridge.addr, headers);
        assert_eq!(code, 403, "{headers:?}");
    }
    let run = Command::new(BRIDGE).args(["--public-origin", "zatre.example.org"]).output().expect("runs");
    assert_eq!(run.status.code(), Some(2), "a bad origin is a usage error");
    assert!(String::from_utf8_lossy(&run.stderr).contains("is not an origin"), "{run:?}");
}

#[test]
fn the_log_names_the_peer_of_each_connect_refusal_and_engine_end() {
    let bridge = Bridge::start("cat", &["--trusted-proxy", "127.0.0.1"]);
    let (code, mut s) = raw_upgrade(
        &bridge.addr,
        &[("Host", &bridge.addr), ("Origin", &bridge.origin()), ("X-Forwarded-For", "10.1.1.1, 203.0.113.9")],
    );
    assert_eq!(code, 101);
    raw_frame(&mut s, 0x88, &1000u16.to_be_bytes());
    assert_eq!(raw_close_code(&mut s), Some(1000));
    let (code, _) = raw_upgrade(&bridge.addr, &[("Host", &bridge.addr), ("Origin", "http://evil.example")]);
    assert_eq!(code, 403);
    wait_until("the log lines", Duration::from_secs(10), || bridge.stderr().contains("engine (pid"));
    let log = bridge.stderr();
    let via = "203.0.113.9 (via 127.0.0.1:";
    assert!(log.lines().any(|l| l.contains(via) && l.contains("connected; engine started")), "{log}");
    assert!(log.lines().any(|l| l.contains(via) && l.contains("the page closed; engine (pid")), "{log}");
    assert!(log.lines().any(|l| l.contains("127.0.0.1:") && l.contains("refused a WebSocket")), "{log}");

    // Without --trusted-proxy, X-Forwarded-For is anyone's word and is not logged.
    let bridge = Bridge::start("cat", &[]);
    let (code, _) = raw_upgrade(
        &bridge.addr,
        &[("Host", &bridge.addr), ("Origin", &bridge.origin()), ("X-Forwarded-For", "203.0.113.9")],
    );
    assert_eq!(code, 101);
    wait_until("the log line", Duration::from_secs(10), || bridge.stderr().contains("connected"));
    assert!(!bridge.stderr().contains("203.0.113.9"), "{}", bridge.stderr());
}

// ---- What a page may ask of its engine (the security audit of the bridge) ----

/// An engine command line that writes every line it is given to `log` and then runs the engine.
fn logged_engine(log: &Path) -> String {
    format!("tee {} | exec {}", log.display(), engine().display())
}

/// Reads one response: its lines up to and without the empty line that ends it, `info` lines
/// before it left out.
fn response(ws: &mut bridge_process::Socket) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let l = line(ws);
        if l.is_empty() {
            assert!(!lines.is_empty(), "an empty line before any response line");
            return lines;
        }
        if lines.is_empty() && l.starts_with("info ") {
            continue;
        }
        lines.push(l);
    }
}

#[test]
fn only_the_pages_commands_reach_the_engine_the_rest_get_errors_with_their_ids() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let log = dir.path().join("in");
    let bridge = Bridge::start(&logged_engine(&log), &[]);
    let mut ws = bridge.open();
    let refused = [
        ("2 legal", "?2 unknown_command zatre-web does not relay 'legal' to the engine"),
        ("3 legal count", "?3 unknown_command zatre-web does not relay 'legal' to the engine"),
        ("4 perft 3", "?4 unknown_command zatre-web does not relay 'perft' to the engine"),
        ("5 bench", "?5 unknown_command zatre-web does not relay 'bench' to the engine"),
        ("6 setoption name Threads value 64", "?6 invalid_argument zatre-web relays setoption name MultiPV value <n> and name Strategy value <s> only"),
        ("7 setoption name MultiPV value 4", "?7 invalid_argument MultiPV takes 1 to 3 here (zatre-web --max-multipv)"),
        ("8 go infinite", "?8 invalid_argument zatre-web relays go movetime <ms> or go nodes <n> [searchmoves <move> ...] only"),
        ("9 go nodes 1000000000000 depth 20", "?9 invalid_argument nodes takes 1 to 100000000 here (zatre-web --max-nodes)"),
        ("10 go movetime 600001", "?10 invalid_argument movetime takes 1 to 600000 ms here (zatre-web --max-movetime)"),
        ("11 go depth 20", "?11 invalid_argument zatre-web relays go movetime <ms> or go nodes <n> [searchmoves <move> ...] only"),
        ("12 quit", "?12 unknown_command zatre-web does not relay 'quit' to the engine"),
        ("13 go movetime 100 searchmoves 1@h8 infinite", "?13 invalid_argument zatre-web relays go movetime <ms> or go nodes <n> [searchmoves <move> ...] only"),
        ("14 setoption name Strategy value minimax", "?14 invalid_argument Strategy takes search, greedy or random"),
    ];
    send(&mut ws, "1 newgame seed 7");
    assert_eq!(response(&mut ws), ["=1"]);
    for (command, answer) in refused {
        send(&mut ws, command);
        assert_eq!(response(&mut ws), [answer], "{command}");
    }
    // After `protocol 3` the bridge's own refusals carry a reason key too, as the engine's do.
    send(&mut ws, "15 protocol 3");
    assert_eq!(response(&mut ws), ["=15 3"]);
    send(&mut ws, "16 perft 3");
    assert_eq!(
        response(&mut ws),
        ["?16 unknown_command not_relayed zatre-web does not relay 'perft' to the engine"]
    );
    send(&mut ws, "17 protocol 2");
    assert_eq!(response(&mut ws), ["=17 2"]);
    // What the page itself sends is relayed, the searches of play, hints and review included.
    for (command, start) in [
        ("20 draw", "=20 "),
        ("21 setoption name MultiPV value 3", "=21"),
        ("22 go movetime 50", "=22 bestmove "),
        ("23 go nodes 2000", "=23 bestmove "),
        ("24 next", "=24 "),
        ("25 stop", "=25"),
        ("27 setoption name Strategy value greedy", "=27"),
        ("28 go movetime 50", "=28 bestmove "),
        ("29 setoption name Strategy value search", "=29"),
    ] {
        send(&mut ws, command);
        let r = response(&mut ws);
        assert!(r[0].starts_with(start), "{command}: {r:?}");
    }
    send(&mut ws, "26 go nodes 2000 searchmoves pass");
    assert!(response(&mut ws)[0].starts_with("?26 illegal_move "), "the engine checks what is relayed");
    let seen = fs::read_to_string(&log).expect("the engine's input");
    for word in ["legal", "perft", "bench", "Threads", "infinite", "depth", "quit", "value 4", "minimax"] {
        assert!(!seen.contains(word), "`{word}` reached the engine: {seen}");
    }
    assert!(seen.contains("21 setoption name MultiPV value 3\n"), "{seen}");
    assert!(seen.contains("27 setoption name Strategy value greedy\n"), "{seen}");
}

#[test]
fn a_refusal_never_lands_inside_a_response_of_the_engine() {
    // An engine whose answer comes in two parts a second apart: the bridge's answer to a refused
    // command sent in between waits for the response's end, so the page reads both whole.
    let bridge = Bridge::start("read l; printf '=1 first\\n'; sleep 1; printf 'second\\n\\n'; sleep 60", &[]);
    let mut ws = bridge.open();
    send(&mut ws, "1 status");
    assert_eq!(line(&mut ws), "=1 first");
    send(&mut ws, "2 legal");
    assert_eq!(line(&mut ws), "second");
    assert_eq!(line(&mut ws), "");
    assert_eq!(line(&mut ws), "?2 unknown_command zatre-web does not relay 'legal' to the engine");
    assert_eq!(line(&mut ws), "");
    // An id still waiting for its answer is not taken twice.
    let bridge = Bridge::start("sleep 60", &[]);
    let mut ws = bridge.open();
    send(&mut ws, "5 status");
    send(&mut ws, "5 history");
    assert_eq!(response(&mut ws), ["?5 syntax_error the id 5 is taken by a command not answered yet"]);
}

#[test]
fn the_caps_on_go_and_multipv_are_flags() {
    let bridge = Bridge::start(
        &engine().display().to_string(),
        &["--max-movetime", "50", "--max-nodes", "1000", "--max-multipv", "5"],
    );
    let mut ws = bridge.open();
    for (command, start) in [
        ("0 draw", "=0 "),
        ("1 go movetime 51", "?1 invalid_argument movetime takes 1 to 50 ms here (zatre-web --max-movetime)"),
        ("2 go nodes 1001", "?2 invalid_argument nodes takes 1 to 1000 here (zatre-web --max-nodes)"),
        ("3 setoption name multipv value 5", "=3"),
        ("4 go movetime 50", "=4 bestmove "),
        ("5 go nodes 1000", "=5 bestmove "),
    ] {
        send(&mut ws, command);
        let r = response(&mut ws);
        assert!(r[0].starts_with(start), "{command}: {r:?}");
    }
}

#[test]
fn a_command_not_answered_in_time_ends_the_engine_4009() {
    // An engine that answers `status` at once and never answers `go` (as a search that runs on
    // would): the idle timer never ends it (the page's reads keep the connection busy), the
    // answer deadline does.
    let dir = tempfile::tempdir().expect("a temp dir");
    let cmd = format!(
        "echo $$ > {}/pid; while read -r id command rest; do \
         if [ \"$command\" = status ]; then printf '=%s phase place\\n\\n' \"$id\"; fi; done",
        dir.path().display()
    );
    let bridge = Bridge::start(&cmd, &["--answer-timeout", "2", "--idle-timeout", "1"]);
    let mut ws = bridge.open();
    send(&mut ws, "1 status");
    assert_eq!(response(&mut ws), ["=1 phase place"], "an answer within the deadline");
    let pid = read_pid(dir.path());
    let started = Instant::now();
    send(&mut ws, "2 go movetime 600000");
    let mut k = 3;
    let (code, reason) = loop {
        send(&mut ws, &format!("{k} status"));
        k += 1;
        thread::sleep(Duration::from_millis(300));
        let mut closed = None;
        while closed.is_none() {
            match next(&mut ws) {
                Said::Line(l) if l.starts_with(&format!("={} ", k - 1)) => break,
                Said::Line(l) if l.starts_with("=2 ") || l.starts_with("?2 ") => {
                    panic!("the long search was answered: {l}")
                }
                Said::Line(_) => {}
                Said::Closed(code, reason) => closed = Some((code, reason)),
            }
        }
        if let Some(c) = closed {
            break c;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still open");
    };
    let took = started.elapsed();
    assert_eq!(code, 4009, "{reason}");
    assert!(reason.contains("did not answer a command within 2 s"), "{reason}");
    assert!(took >= Duration::from_millis(1800) && took < Duration::from_secs(6), "{took:?}");
    wait_until("the engine's end", Duration::from_secs(10), || !group_alive(pid));
    assert!(bridge.stderr().contains("did not answer command 2 within 2 s"), "{}", bridge.stderr());
}

/// A page of the client that a trusted proxy (127.0.0.1) forwards for.
fn open_for(bridge: &Bridge, client: &str) -> bridge_process::Socket {
    use tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/ws", bridge.addr).into_client_request().expect("a request");
    request.headers_mut().insert("Origin", bridge.origin().parse().expect("a value"));
    request.headers_mut().insert("X-Forwarded-For", client.parse().expect("a value"));
    let (mut socket, _) = tungstenite::connect(request).expect("connects");
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = socket.get_mut() {
        s.set_read_timeout(Some(Duration::from_secs(20))).expect("a timeout");
    }
    socket
}

#[test]
fn one_client_holds_at_most_its_share_of_the_engines_4008() {
    // By default two engines a client, of four.
    let bridge = Bridge::start("cat", &[]);
    let mut pages: Vec<_> = (0..2).map(|_| bridge.open()).collect();
    for (k, page) in pages.iter_mut().enumerate() {
        send(page, &format!("{k} isready"));
        assert_eq!(line(page), format!("{k} isready"));
    }
    let mut third = bridge.open();
    expect_close(&mut third, 4008, "--max-engines-per-client 2");
    assert!(bridge.stderr().contains("refused: this client has 2 engine(s) already"), "{}", bridge.stderr());
    // A page that closes gives its place back.
    let mut first = pages.remove(0);
    first.close(None).expect("closes");
    let _ = next(&mut first);
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let mut again = bridge.open();
        send(&mut again, "9 isready");
        match next(&mut again) {
            Said::Line(l) => {
                assert_eq!(l, "9 isready");
                break;
            }
            Said::Closed(4008, _) if Instant::now() < until => thread::sleep(Duration::from_millis(100)),
            other => panic!("expected the place back, got {other:?}"),
        }
    }

    // Behind a trusted proxy, the client it forwards for counts.
    let bridge = Bridge::start("cat", &["--trusted-proxy", "127.0.0.1", "--max-engines-per-client", "1"]);
    let mut a = open_for(&bridge, "203.0.113.9");
    send(&mut a, "1 isready");
    assert_eq!(line(&mut a), "1 isready");
    let mut a2 = open_for(&bridge, "10.0.0.1, 203.0.113.9");
    expect_close(&mut a2, 4008, "--max-engines-per-client 1");
    let mut b = open_for(&bridge, "203.0.113.10");
    send(&mut b, "1 isready");
    assert_eq!(line(&mut b), "1 isready", "another client");
    // An IPv6 /64 is one client.
    let mut c = open_for(&bridge, "2001:db8:1:2::1");
    send(&mut c, "1 isready");
    assert_eq!(line(&mut c), "1 isready");
    let mut c2 = open_for(&bridge, "2001:db8:1:2:ffff::2");
    expect_close(&mut c2, 4008, "--max-engines-per-client 1");
}

#[test]
fn a_page_that_answers_no_ping_is_closed_4010_and_one_that_does_stays() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge =
        Bridge::start(&stubborn_engine(dir.path()), &["--ping-interval", "1", "--ping-timeout", "3"]);
    // A client that vanished: it neither reads nor writes (no pong).
    let headers = [("Host", &bridge.addr[..]), ("Origin", &bridge.origin()[..])];
    let (code, mut gone) = raw_upgrade(&bridge.addr, &headers);
    assert_eq!(code, 101);
    let pid = read_pid(dir.path());
    let started = Instant::now();
    // The bridge's pings come; this client never answers them.
    let mut pings = 0;
    let close = loop {
        let mut head = [0u8; 2];
        gone.read_exact(&mut head).expect("a frame");
        let mut payload = vec![0u8; usize::from(head[1] & 0x7f)];
        gone.read_exact(&mut payload).expect("its payload");
        match head[0] & 0x0f {
            0x9 => pings += 1,
            0x8 => break u16::from_be_bytes([payload[0], payload[1]]),
            other => panic!("frame {other}"),
        }
    };
    let took = started.elapsed();
    assert_eq!(close, 4010);
    assert!(pings >= 2, "{pings} pings");
    assert!(took >= Duration::from_millis(2800) && took < Duration::from_secs(6), "{took:?}");
    wait_until("the engine's end", Duration::from_secs(10), || !group_alive(pid));
    assert!(bridge.stderr().contains("no frame from the page for 3 s"), "{}", bridge.stderr());

    // A page that reads (and so answers pings, as a browser does) and says nothing stays.
    let mut ws = bridge.open();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(Duration::from_secs(5))).expect("a timeout");
    }
    let quiet = Instant::now() + Duration::from_secs(5);
    let mut pinged = 0;
    while Instant::now() < quiet {
        match ws.read() {
            Ok(Message::Ping(_)) => pinged += 1,
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            other => panic!("expected only pings for 5 s, got {other:?}"),
        }
    }
    assert!(pinged >= 3, "{pinged} pings in 5 s");
    send(&mut ws, "1 isready");
    wait_until("the line in the engine's log", Duration::from_secs(5), || {
        fs::read_to_string(dir.path().join("log")).is_ok_and(|l| l.contains("1 isready"))
    });
}

#[test]
fn engines_do_not_get_the_bridges_rust_log_and_the_log_repeats_pages_briefly() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut command = Command::new(BRIDGE);
    command.env("RUST_LOG", "warn");
    let cmd = format!("echo \"engine RUST_LOG=${{RUST_LOG-unset}}\" >&2; exec {}", engine().display());
    let bridge = Bridge::start_by(command, &cmd, &[]);
    let mut ws = bridge.open();
    // Long lines the engine refuses (it would log each at warn, repeating it) and long lines the
    // bridge refuses (it logs the first few, cut short).
    let long = "x".repeat(65_000);
    for k in 0..20 {
        send(&mut ws, &format!("{k} position {long}"));
        assert!(response(&mut ws)[0].starts_with(&format!("?{k} syntax_error position: ")));
        send(&mut ws, &format!("{} {long}", k + 100));
        assert_eq!(response(&mut ws).len(), 1);
    }
    ws.close(None).expect("closes");
    let _ = next(&mut ws);
    let until = Instant::now() + Duration::from_secs(10);
    while !bridge.stderr().contains("commands in all") {
        assert!(Instant::now() < until, "the end is not in the log: {}", bridge.stderr());
        thread::sleep(Duration::from_millis(20));
    }
    let log = bridge.stderr();
    drop(dir);
    assert!(log.contains("engine RUST_LOG=unset"), "{}", &log[..log.len().min(2000)]);
    assert!(log.len() < 4000, "{} bytes of log: {}", log.len(), &log[..log.len().min(2000)]);
    let refusals: Vec<&str> = log.lines().filter(|l| l.contains("refused `")).collect();
    assert_eq!(refusals.len(), 3, "the first three: {log}");
    for l in &refusals {
        assert!(l.contains("127.0.0.1:") && l.contains("... (65004 bytes)"), "{l}");
    }
    assert!(log.contains("refused 20 commands in all"), "{log}");
}

#[test]
fn the_page_is_served_with_a_strict_content_security_policy() {
    let bridge = Bridge::start("true", &[]);
    for path in ["/", "/js/app.js", "/favicon.ico"] {
        let mut s = TcpStream::connect(&bridge.addr).expect("connects");
        write!(s, "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", bridge.addr)
            .expect("writes");
        let mut text = String::new();
        s.read_to_string(&mut text).expect("reads");
        let head = text.split("\r\n\r\n").next().unwrap_or_default().to_ascii_lowercase();
        assert!(
            head.contains(
                "\r\ncontent-security-policy: default-src 'self'; \
                 connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; \
                 frame-ancestors 'none'\r\n"
            ),
            "{path}: {head}"
        );
        assert!(head.contains("\r\nx-frame-options: deny\r\n"), "{path}: {head}");
    }
}
