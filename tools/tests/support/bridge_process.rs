//! A `zatre-web` process for the tests and a WebSocket client of it: start one on a free port,
//! talk to it as a page does, or write the upgrade request by hand.

// Each test crate that includes this module uses part of it.
#![allow(dead_code)]
use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tungstenite::client::IntoClientRequest;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use super::engine_path::{first_line, BRIDGE};

/// A plain HTTP GET of `http://<addr><path>`: (status line, body).
pub fn http_get(addr: &str, path: &str) -> (String, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").expect("writes");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("reads");
    let status = text.lines().next().unwrap_or_default().to_string();
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

/// A WebSocket to `ws://<addr>/ws` with this `Origin` (none when None), reads timing out in 20 s.
///
/// # Errors
/// When the handshake fails (a refusal is `tungstenite::Error::Http`).
pub fn connect(addr: &str, origin: Option<&str>) -> Result<Socket, tungstenite::Error> {
    let mut request = format!("ws://{addr}/ws").into_client_request().expect("a request");
    if let Some(o) = origin {
        request.headers_mut().insert("Origin", o.parse().expect("a header value"));
    }
    let (mut socket, _) = tungstenite::connect(request)?;
    if let MaybeTlsStream::Plain(s) = socket.get_mut() {
        s.set_read_timeout(Some(Duration::from_secs(20))).expect("a timeout");
    }
    Ok(socket)
}

pub type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// A running bridge on a free port; killed when dropped.
pub struct Bridge {
    pub child: Child,
    /// `host:port`
    pub addr: String,
    pub stderr: tempfile::NamedTempFile,
}

impl Bridge {
    pub fn start(engine_cmd: &str, extra: &[&str]) -> Bridge {
        Bridge::start_by(Command::new(BRIDGE), engine_cmd, extra)
    }

    /// Starts the bridge by `command` (the bridge itself, or a shell that runs it with the
    /// arguments that follow), on a free port.
    pub fn start_by(mut command: Command, engine_cmd: &str, extra: &[&str]) -> Bridge {
        let stderr = tempfile::NamedTempFile::new().expect("a temp file");
        let mut child = command
            .args(["--port", "0", "--engine", engine_cmd])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr.reopen().expect("the temp file reopens"))
            .spawn()
            .expect("zatre-web starts");
        let line = first_line(&mut child);
        let addr = line
            .trim_end()
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("the first line is `listening on http://<host>:<port>/`, not {line:?}"))
            .to_string();
        Bridge { child, addr, stderr }
    }

    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn connect(&self, origin: Option<&str>) -> Result<Socket, tungstenite::Error> {
        connect(&self.addr, origin)
    }

    pub fn open(&self) -> Socket {
        self.connect(Some(&self.origin())).expect("the page's own origin connects")
    }

    pub fn stderr(&self) -> String {
        fs::read_to_string(self.stderr.path()).unwrap_or_default()
    }

    /// A plain HTTP GET: (status line, body).
    pub fn get(&self, path: &str) -> (String, String) {
        http_get(&self.addr, path)
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the socket says next: a text line, or how it was closed.
#[derive(Debug, PartialEq)]
pub enum Said {
    Line(String),
    Closed(u16, String),
}

pub fn next(socket: &mut Socket) -> Said {
    loop {
        match socket.read() {
            Ok(Message::Text(t)) => return Said::Line(t.to_string()),
            Ok(Message::Close(frame)) => {
                return match frame {
                    Some(f) => Said::Closed(u16::from(f.code), f.reason.to_string()),
                    None => Said::Closed(u16::from(CloseCode::Status), String::new()),
                }
            }
            Ok(_) => continue,
            Err(e) => panic!("the socket failed instead of closing cleanly: {e}"),
        }
    }
}

/// Reads on after a close to the end of the connection: the bridge has closed its side (its
/// connection task has ended) when this returns.
pub fn read_to_end(socket: &mut Socket) {
    while socket.read().is_ok() {}
}

/// Reads on to the close and checks its code and that its reason holds `words`.
pub fn expect_close(socket: &mut Socket, code: u16, words: &str) {
    match next(socket) {
        Said::Closed(c, reason) => {
            assert_eq!(c, code, "{reason}");
            assert!(reason.contains(words), "{reason}");
        }
        other => panic!("expected the connection closed, got {other:?}"),
    }
}

pub fn line(socket: &mut Socket) -> String {
    match next(socket) {
        Said::Line(l) => l,
        other => panic!("expected a line, got {other:?}"),
    }
}

pub fn send(socket: &mut Socket, text: &str) {
    socket.send(Message::text(text)).expect("sends");
}

/// A WebSocket upgrade written by hand, with exactly these headers besides the upgrade's own:
/// the response's status code and the stream after the response head.
pub fn raw_upgrade(addr: &str, headers: &[(&str, &str)]) -> (u16, TcpStream) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(20))).expect("a timeout");
    let mut request = String::from("GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n");
    request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
    for (name, value) in headers {
        request += &format!("{name}: {value}\r\n");
    }
    request += "\r\n";
    s.write_all(request.as_bytes()).expect("writes");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match s.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    let head = String::from_utf8_lossy(&head);
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, s)
}
