//! `zatre-web-load`: load on a `zatre-web` on this machine. Opens N pages' WebSockets, each plays
//! games (`newgame`, then `draw`, `go movetime <ms>`, `place <bestmove>` until the game ends) for
//! a bounded time, and reports the latency of the engine's answers and every error. Loopback only,
//! at most 512 pages and 600 seconds.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use zatre_tools::web::client::{ClientError, PageClient};

/// Load on a zatre-web on this machine: N pages play games at `go movetime <ms>` for a while.
#[derive(Parser, Debug)]
#[command(version)]
struct Cli {
    /// The bridge's WebSocket (loopback only).
    #[arg(long, default_value = "ws://127.0.0.1:8080/ws")]
    url: String,
    /// The Origin the pages send (default: http:// and the URL's host and port).
    #[arg(long)]
    origin: Option<String>,
    /// Pages at once. All come from one address: start the bridge with `--max-engines`,
    /// `--max-engines-per-client` and `--max-connects-per-minute` at least this many.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=512))]
    clients: u32,
    /// How long the pages play, in seconds.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=600))]
    seconds: u64,
    /// The engine's time for each move.
    #[arg(long, value_name = "MS", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=60000))]
    movetime: u64,
    /// A pause before each move: the board page's own 30 ms between engine moves by default, a
    /// person's thinking time for more.
    #[arg(long, value_name = "MS", default_value_t = 30)]
    think: u64,
}

/// What one page saw.
#[derive(Default)]
struct Tally {
    /// Milliseconds from sending `go` to its response.
    go: Vec<f64>,
    /// Milliseconds from sending `draw` or `place` to its response.
    other: Vec<f64>,
    /// The nodes each `go` searched: how much of a core its engine got in its time.
    nodes: Vec<f64>,
    games: u64,
    moves: u64,
    errors: BTreeMap<String, u64>,
}

impl Tally {
    fn error(&mut self, what: String) {
        *self.errors.entry(what).or_default() += 1;
    }

    fn merge(&mut self, other: Tally) {
        self.go.extend(other.go);
        self.other.extend(other.other);
        self.nodes.extend(other.nodes);
        self.games += other.games;
        self.moves += other.moves;
        for (k, v) in other.errors {
            *self.errors.entry(k).or_default() += v;
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let Some(authority) = loopback_authority(&cli.url) else {
        eprintln!(
            "zatre-web-load: {} is not a ws:// URL on loopback (127.0.0.0/8, [::1], localhost)",
            cli.url
        );
        return ExitCode::from(2);
    };
    let origin = cli.origin.clone().unwrap_or_else(|| format!("http://{authority}"));
    let until = Instant::now() + Duration::from_secs(cli.seconds);
    let started = Instant::now();
    let pages: Vec<_> = (0..cli.clients)
        .map(|n| {
            let (url, origin) = (cli.url.clone(), origin.clone());
            let (movetime, think) = (cli.movetime, Duration::from_millis(cli.think));
            // Pages arrive over the first second rather than all in one instant.
            let delay = Duration::from_millis(u64::from(n) * 1000 / u64::from(cli.clients));
            thread::spawn(move || {
                thread::sleep(delay);
                page(&url, &origin, u64::from(n), movetime, think, until)
            })
        })
        .collect();
    let mut total = Tally::default();
    for p in pages {
        match p.join() {
            Ok(t) => total.merge(t),
            Err(_) => total.error("a page's thread panicked".into()),
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "{} pages, {:.1} s, go movetime {} ms, think {} ms",
        cli.clients, elapsed, cli.movetime, cli.think
    );
    println!(
        "games finished {}, moves {} ({:.1} moves/s)",
        total.games,
        total.moves,
        total.moves as f64 / elapsed
    );
    report("go", &mut total.go);
    report("draw/place", &mut total.other);
    if !total.nodes.is_empty() {
        total.nodes.sort_by(f64::total_cmp);
        let n = &total.nodes;
        println!(
            "nodes per go: p10 {:.0}, p50 {:.0}, p90 {:.0}",
            n[n.len() / 10],
            n[n.len() / 2],
            n[n.len() * 9 / 10]
        );
    }
    if total.errors.is_empty() {
        println!("errors 0");
        ExitCode::SUCCESS
    } else {
        for (what, n) in &total.errors {
            println!("error x{n}: {what}");
        }
        ExitCode::FAILURE
    }
}

/// One page: plays games until `until`.
fn page(url: &str, origin: &str, n: u64, movetime: u64, think: Duration, until: Instant) -> Tally {
    let mut tally = Tally::default();
    let patience = Duration::from_millis(movetime + 30_000);
    let mut client = match PageClient::connect(url, origin, patience) {
        Ok(c) => c,
        Err(e) => {
            tally.error(describe(&e));
            return tally;
        }
    };
    let mut game = 0u64;
    'games: while Instant::now() < until {
        if let Err(e) = client.ask(&format!("newgame seed {}", n * 1_000_000 + game)) {
            tally.error(describe(&e));
            return tally;
        }
        game += 1;
        loop {
            if Instant::now() >= until {
                break 'games;
            }
            thread::sleep(think);
            let draw = match timed(&mut client, "draw", &mut tally.other) {
                Ok(r) => r,
                Err(e) => {
                    tally.error(describe(&e));
                    return tally;
                }
            };
            if !draw.ok {
                if draw.payload().starts_with("game_over") {
                    tally.games += 1;
                    continue 'games;
                }
                tally.error(format!("draw: ?{}", draw.payload()));
                continue 'games;
            }
            let best = match timed(&mut client, &format!("go movetime {movetime}"), &mut tally.go) {
                Ok(r) => r,
                Err(e) => {
                    tally.error(describe(&e));
                    return tally;
                }
            };
            let mv = best.payload().strip_prefix("bestmove ").and_then(|r| r.split(' ').next());
            let Some(mv) = mv.filter(|_| best.ok) else {
                tally.error(format!("go: {}", best.payload()));
                continue 'games;
            };
            let nodes = best.payload().split(' ').skip_while(|w| *w != "nodes").nth(1);
            if let Some(n) = nodes.and_then(|n| n.parse::<f64>().ok()) {
                tally.nodes.push(n);
            }
            match timed(&mut client, &format!("place {mv}"), &mut tally.other) {
                Ok(r) if r.ok => tally.moves += 1,
                Ok(r) => {
                    tally.error(format!("place: ?{}", r.payload()));
                    continue 'games;
                }
                Err(e) => {
                    tally.error(describe(&e));
                    return tally;
                }
            }
        }
    }
    client.close();
    tally
}

/// Asks `command` and records how long the response took, in milliseconds.
fn timed(
    client: &mut PageClient,
    command: &str,
    into: &mut Vec<f64>,
) -> Result<zatre_tools::web::client::Response, ClientError> {
    let sent = Instant::now();
    let r = client.ask(command)?;
    into.push(sent.elapsed().as_secs_f64() * 1000.0);
    Ok(r)
}

/// An error's kind, without the details that make every one different.
fn describe(e: &ClientError) -> String {
    match e {
        ClientError::Closed { code, reason } => format!("closed {code}: {reason}"),
        ClientError::Connect(tungstenite::Error::Http(r)) => format!("refused: HTTP {}", r.status()),
        other => other.to_string(),
    }
}

fn report(what: &str, ms: &mut [f64]) {
    if ms.is_empty() {
        println!("{what}: no answers");
        return;
    }
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    println!(
        "{what} latency ms (n {}): p50 {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}",
        ms.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        ms[ms.len() - 1]
    );
}

/// `host:port` of a `ws://` URL whose host is loopback.
fn loopback_authority(url: &str) -> Option<String> {
    let rest = url.strip_prefix("ws://")?;
    let authority = rest.split('/').next()?;
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    let loopback = host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    loopback.then(|| authority.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_urls_are_taken() {
        assert_eq!(loopback_authority("ws://127.0.0.1:8080/ws").as_deref(), Some("127.0.0.1:8080"));
        assert_eq!(loopback_authority("ws://[::1]:8080/ws").as_deref(), Some("[::1]:8080"));
        assert_eq!(loopback_authority("ws://localhost:9/ws").as_deref(), Some("localhost:9"));
        assert_eq!(loopback_authority("ws://10.0.0.1:8080/ws"), None);
        assert_eq!(loopback_authority("ws://example.org/ws"), None);
        assert_eq!(loopback_authority("wss://127.0.0.1/ws"), None);
    }
}
