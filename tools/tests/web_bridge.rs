//! The bridge `zatre-web` through real processes and a WebSocket client: the address it prints,
//! the page it serves, lines relayed verbatim, who may connect, the engine limit, over-long lines,
//! and that no engine process outlives its page or the bridge.

mod bridge_process;
mod engine_path;

use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use tungstenite::Message;

use bridge_process::{expect_close, line, next, raw_upgrade, send, Bridge, Said};
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
    send(&mut ws, "007 name");
    assert_eq!(line(&mut ws), "=007 zatre");
    assert_eq!(line(&mut ws), "", "every response ends with an empty line");
    send(&mut ws, "fly");
    assert_eq!(line(&mut ws), "? unknown_command unknown command 'fly'");
    assert_eq!(line(&mut ws), "");
    send(&mut ws, "9 place 1@zz99 and more");
    assert!(line(&mut ws).starts_with("?9 "), "the engine's own error");
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

#[test]
fn connections_beyond_max_engines_are_refused_with_a_message() {
    let bridge = Bridge::start("cat", &["--max-engines", "1"]);
    let mut first = bridge.open();
    send(&mut first, "1 one");
    assert_eq!(line(&mut first), "1 one", "cat echoes");
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
        send(&mut third, "3 three");
        match next(&mut third) {
            Said::Line(l) => {
                assert_eq!(l, "3 three");
                break;
            }
            Said::Closed(4002, _) if Instant::now() < until => thread::sleep(Duration::from_millis(100)),
            other => panic!("expected the slot back, got {other:?}"),
        }
    }
}

#[test]
fn a_line_over_the_limit_closes_the_connection_with_a_message() {
    let (dir, bridge, mut ws, pid) = stubborn_page("1 fine");
    // 64 KiB is still a line; one byte more (and a trailing \r) is not.
    send(&mut ws, &"x".repeat(65536));
    send(&mut ws, &"y".repeat(65538));
    expect_close(&mut ws, 4003, "longer than 65536 bytes");
    wait_until("the engine's end", Duration::from_secs(10), || !group_alive(pid));
    let log = fs::read_to_string(dir.path().join("log")).expect("the engine's log");
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 3, "the short lines and quit reach the engine, the long one does not");
    assert_eq!(lines[1].len(), 65536);
    assert_eq!(lines[2], "quit");
    // The bridge goes on.
    let mut again = bridge.open();
    send(&mut again, "2 again");
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
    let (_bridge, mut ws) = real_engine_page("4 quit", "=4");
    assert_eq!(next(&mut ws), Said::Closed(4001, "the engine exited with status 0".to_string()));

    let crash = Bridge::start("read l; echo half a line; exit 3", &[]);
    let mut ws = crash.open();
    send(&mut ws, "1 name");
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
    // Thousands of responses (6.6 MB) the page never reads fill every buffer on the way back to
    // it: the bridge is stuck sending when the Close frame comes.
    for i in 1..=3000 {
        send(&mut hog, &format!("{i} help"));
    }
    // The engine answers until its output has nowhere to go.
    thread::sleep(Duration::from_millis(1500));
    hog.close(None).expect("sends its Close frame");
    // ...and keeps the socket open without reading (`hog` lives to the end of the test).
    wait_until("the engine's end and reaping", Duration::from_secs(10), || !group_alive(pid));
    let mut next_page = bridge.open();
    send(&mut next_page, "1 name");
    assert_eq!(next(&mut next_page), Said::Line("=1 zatre".to_string()), "the slot is free again");
    drop(hog);
}

#[test]
fn a_page_far_ahead_of_an_engine_that_reads_nothing_is_closed_4007() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bridge = Bridge::start(&format!("echo $$ > {}/pid; exec sleep 60", dir.path().display()), &[]);
    let mut ws = bridge.open();
    let line = "x".repeat(60_000);
    // The engine's input pipe holds a line or so, the bridge 64 more: the page is told, not
    // buffered for without end, and still heard while the engine takes nothing.
    for _ in 0..100 {
        if ws.send(Message::text(line.clone())).is_err() {
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
        send(&mut ws, &format!("{i} fine"));
    }
    for i in 0..5 {
        assert_eq!(line(&mut ws), format!("{i} fine"), "a burst of 5 passes");
    }
    thread::sleep(Duration::from_millis(450));
    send(&mut ws, "5 fine");
    send(&mut ws, "6 fine");
    assert_eq!(line(&mut ws), "5 fine", "tokens come back at 5 a second");
    assert_eq!(line(&mut ws), "6 fine");
    for i in 7..12 {
        send(&mut ws, &format!("{i} too many"));
    }
    loop {
        match next(&mut ws) {
            Said::Line(l) => assert!(l.ends_with("too many"), "{l}"),
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
