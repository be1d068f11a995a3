//! `zatre-web` behind nginx, as docs/operating.md tells an operator to run it: Debian's nginx,
//! started by the test on a loopback port with a configuration of its own in a temporary directory,
//! balancing WebSocket connections over two bridges. The page loads and a game is played through
//! the proxy; a foreign origin, or a rebound name, is refused there too.
//!
//! Without nginx the test says `SKIPPED` and passes, unless `CI=true` (see `prerequisites`).

use crate::bridge_process;
use crate::engine_path;
use crate::prerequisites::{self, Prerequisite};

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use bridge_process::{connect, http_get, raw_upgrade, Bridge};
use engine_path::engine;
use zatre_tools::web::client::PageClient;

/// A free loopback port (free when this returns; nginx binds it right after).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("binds").local_addr().expect("an address").port()
}

/// nginx in the foreground, killed when dropped.
struct Nginx {
    child: Child,
    dir: tempfile::TempDir,
}

impl Nginx {
    fn start(binary: &Path, port: u16, upstreams: &[&str]) -> Nginx {
        let dir = tempfile::tempdir().expect("a temp dir");
        let d = dir.path().display();
        let servers: String = upstreams.iter().map(|u| format!("        server {u};\n")).collect();
        // The operator's configuration of docs/operating.md, with the paths and ports of the test.
        let conf = format!(
            r#"daemon off;
master_process off;
pid {d}/nginx.pid;
error_log {d}/error.log info;
events {{ worker_connections 256; }}
http {{
    access_log {d}/access.log;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    upstream zatre {{
{servers}    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://zatre;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
        location = /ws {{
            proxy_pass http://zatre;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }}
    }}
}}
"#
        );
        let conf_path = dir.path().join("nginx.conf");
        fs::write(&conf_path, conf).expect("writes the configuration");
        let child = Command::new(binary)
            .arg("-p")
            .arg(dir.path())
            .arg("-e")
            .arg(dir.path().join("error.log"))
            .arg("-c")
            .arg(&conf_path)
            .stdin(Stdio::null())
            .spawn()
            .expect("nginx starts");
        let mut nginx = Nginx { child, dir };
        let until = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = nginx.child.try_wait() {
                panic!("nginx exited with {status}: {}", nginx.error_log());
            }
            assert!(Instant::now() < until, "nginx does not listen: {}", nginx.error_log());
            thread::sleep(Duration::from_millis(50));
        }
        nginx
    }

    fn error_log(&self) -> String {
        fs::read_to_string(self.dir.path().join("error.log")).unwrap_or_default()
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The payload of a successful response.
fn ok(client: &mut PageClient, command: &str) -> String {
    let r = client.ask(command).unwrap_or_else(|e| panic!("{command}: {e}"));
    assert!(r.ok, "{command}: ?{}", r.payload());
    r.payload().to_string()
}

#[test]
fn games_are_played_through_nginx_balancing_two_bridges() {
    let Some(found) = prerequisites::require(&[Prerequisite::Nginx]) else { return };
    let binary = &found[0];
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}");
    let engine_cmd = engine().display().to_string();
    let args = ["--public-origin", &public, "--trusted-proxy", "127.0.0.1"];
    let bridges = [Bridge::start(&engine_cmd, &args), Bridge::start(&engine_cmd, &args)];
    let nginx = Nginx::start(binary, port, &[&bridges[0].addr, &bridges[1].addr]);
    let proxy = format!("127.0.0.1:{port}");

    // The page and its modules come through the proxy.
    let (status, body) = http_get(&proxy, "/");
    assert!(status.contains(" 200 "), "{status}: {}", nginx.error_log());
    assert!(body.contains("<script type=\"module\" src=\"/js/app.js\">"), "the page: {body}");
    let (status, body) = http_get(&proxy, "/js/protocol.js");
    assert!(status.contains(" 200 "), "{status}");
    assert!(body.contains("export class"), "the protocol client module");

    // Four pages, each a game of its own: the balancer spreads them over both bridges.
    let url = format!("ws://{proxy}/ws");
    let mut pages: Vec<PageClient> = (0..4)
        .map(|_| {
            PageClient::connect(&url, &public, Duration::from_secs(30)).expect("the public origin connects")
        })
        .collect();
    for (n, page) in pages.iter_mut().enumerate() {
        assert_eq!(ok(page, &format!("newgame seed {n}")), "");
        let mut played = Vec::new();
        for _turn in 0..4 {
            let hand = ok(page, "draw");
            assert!(
                !hand.is_empty() && hand.split(' ').all(|v| v == "-" || v.parse::<u8>().is_ok()),
                "a hand: {hand}"
            );
            let best = ok(page, "go movetime 100");
            let mv = best.strip_prefix("bestmove ").and_then(|r| r.split(' ').next());
            let mv = mv.unwrap_or_else(|| panic!("a bestmove: {best}"));
            let placed = ok(page, &format!("place {mv}"));
            assert!(placed.starts_with("points ") && placed.contains(" crosses "), "{placed}");
            played.push(mv.to_string());
        }
        let history = ok(page, "history");
        let moves: Vec<&str> = history
            .split(" moves ")
            .nth(1)
            .unwrap_or_default()
            .split(' ')
            .filter(|t| !t.starts_with('+'))
            .collect();
        assert_eq!(moves, played, "the game went on record: {history}");
    }
    for (k, b) in bridges.iter().enumerate() {
        let log = b.stderr();
        assert!(log.contains("connected; engine started"), "bridge {k} served no page: {log}");
        assert!(log.contains("127.0.0.1 (via 127.0.0.1:"), "the proxy names the client: {log}");
    }

    // A foreign site, or a name rebound to the proxy, is refused through it as well.
    match connect(&proxy, Some("http://evil.example")) {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status().as_u16(), 403),
        Err(e) => panic!("expected 403, got {e}"),
        Ok(_) => panic!("a foreign origin got in through the proxy"),
    }
    let evil = format!("evil.example:{port}");
    let (code, _) = raw_upgrade(&proxy, &[("Host", &evil), ("Origin", &format!("http://{evil}"))]);
    assert_eq!(code, 403, "a rebound name through the proxy");
    drop(pages);
}
