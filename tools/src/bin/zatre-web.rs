//! `zatre-web`: the browser board. Serves one page and, for each of its connections, runs one
//! engine and relays protocol lines both ways. Arguments here; the work is in `zatre_tools::web`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use std::net::IpAddr;
use std::time::Duration;

use clap::{CommandFactory, Parser};
use zatre_tools::web::rooms::{RoomsConfig, Store};
use zatre_tools::web::{
    bind, connections_within, serve_with_rooms, CommandLimits, Config, HostName, PageLimits, PublicOrigin,
};

/// The zatre board in the browser: open the address it prints and play.
///
/// Each browser connection starts one engine from --engine, a command line run by `sh -c` in a
/// process group of its own (default: the `zatre` binary beside this one), and the page talks to
/// it over the text protocol. Only the page's own origin may connect, and the origins given with
/// --public-origin. docs/operating.md tells how to run it on a server.
#[derive(Parser, Debug)]
#[command(name = "zatre-web", version = zatre::cli::VERSION, long_about)]
struct Cli {
    /// The engine's command line (default: `zatre` beside this program).
    #[arg(long, value_name = "COMMAND")]
    engine: Option<String>,
    /// The address to listen on. Anything but loopback lets whoever reaches it start engines.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port; 0 takes a free one.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// At most this many engines (browser connections) at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=1024))]
    max_engines: u32,
    /// At most this many engines for one client (an IPv4 address or an IPv6 /64; behind a
    /// --trusted-proxy, the client it forwards for), close code 4008.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1024))]
    max_engines_per_client: u32,
    /// At most this many WebSockets (pages, each starting an engine) a minute from one client, in
    /// bursts of as many; more are refused (HTTP 429) before anything is started or logged.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=100000))]
    max_connects_per_minute: u32,
    /// At most this many TCP connections at once (lowered to fit the open-file limit); when all
    /// are taken, a new one takes the place of the one longest waiting for a request.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    max_connections: u32,
    /// Seconds a connection has to send a request's headers, also between requests.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// Seconds without a line either way after which a page's engine is ended (close code 4006).
    #[arg(long, value_name = "SECONDS", default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..=604800))]
    idle_timeout: u64,
    /// At most this many commands a second from one page, in bursts of as many (close code 4007).
    /// The board page sends up to about 200 a second in an all-engine game whose moves are
    /// instant (six commands a move, 30 ms apart).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=100000))]
    max_commands_per_second: u32,
    /// Seconds the engine has to answer a relayed command; then it is ended (close code 4009).
    /// Longer than the longest search a page may ask for (--max-movetime, --max-nodes). An
    /// `analyse` has this long for each turn: every turn it reports restarts its time.
    #[arg(long, value_name = "SECONDS", default_value_t = 900, value_parser = clap::value_parser!(u64).range(1..=604800))]
    answer_timeout: u64,
    /// The largest `go movetime <ms>` relayed; the page offers up to 600000 a move.
    #[arg(long, value_name = "MS", default_value_t = 600_000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    max_movetime: u64,
    /// The largest `go nodes <n>` relayed; the page's review analysis takes up to 100000000.
    #[arg(long, default_value_t = 100_000_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    max_nodes: u64,
    /// The largest `setoption name MultiPV value <n>` relayed; the page's hints set 3.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=256))]
    max_multipv: u64,
    /// Seconds between the WebSocket pings the bridge sends each page.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    ping_interval: u64,
    /// Seconds without any frame from a page (its pongs included) after which it is taken for
    /// gone and its engine ended (close code 4010); more than --ping-interval.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(2..=7200))]
    ping_timeout: u64,
    /// An origin (`scheme://name[:port]`) whose pages may connect, as a reverse proxy serves them;
    /// repeatable. Its name is then an allowed Host, with its port or none.
    #[arg(long, value_name = "URL")]
    public_origin: Vec<PublicOrigin>,
    /// One more Host (`name[:port]`) to accept with a public origin, for a proxy that sends its
    /// upstream's name; repeatable.
    #[arg(long, value_name = "HOST")]
    allow_host: Vec<HostName>,
    /// A proxy's address whose X-Forwarded-For names the client, in the log and for
    /// --max-engines-per-client; repeatable.
    #[arg(long, value_name = "IP")]
    trusted_proxy: Vec<IpAddr>,
    /// The rooms' SQLite file, created if missing: games played by people on their own devices
    /// through links (docs/rooms.md). Without it the server runs no rooms. A file that cannot be
    /// opened or written stops the start.
    #[arg(long, value_name = "PATH")]
    rooms: Option<std::path::PathBuf>,
    /// Days a finished or abandoned room is kept before it is removed; an open room without a
    /// move for as long counts as abandoned. Checked at the start and hourly.
    #[arg(long, value_name = "DAYS", default_value_t = 7, value_parser = clap::value_parser!(u64).range(1..=3650))]
    room_days: u64,
    /// At most this many rooms made by one client in an hour (HTTP 429 beyond).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100000))]
    max_rooms_per_client_hour: u64,
    /// At most this many open rooms in the database (HTTP 503 beyond).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    max_rooms: u64,
    /// At most this many people's sockets connected to one room (close code 4022 beyond).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=1000))]
    max_room_people: u32,
    /// At most this many watchers' sockets connected to one room (close code 4022 beyond).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=10000))]
    max_room_watchers: u32,
}

fn main() -> ExitCode {
    if let Some(code) = zatre::cli::print_manpage_if_asked(Cli::command) {
        return code;
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let cli = Cli::parse();
    if cli.ping_timeout <= cli.ping_interval {
        eprintln!(
            "zatre-web: --ping-timeout ({} s) must be longer than --ping-interval ({} s)",
            cli.ping_timeout, cli.ping_interval
        );
        return ExitCode::from(2);
    }
    let engine = match cli.engine {
        Some(e) => e,
        None => match default_engine() {
            Some(e) => e,
            None => {
                eprintln!("zatre-web: no `zatre` beside this program; give --engine");
                return ExitCode::from(2);
            }
        },
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("zatre-web: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let max_engines = cli.max_engines as usize;
    let wanted = cli.max_connections as usize;
    let max_connections = match connections_within(wanted, max_engines, open_file_limit()) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("zatre-web: {e}");
            return ExitCode::from(2);
        }
    };
    if max_connections < wanted {
        eprintln!(
            "zatre-web: warning: at most {max_connections} connections fit the open-file limit {} (--max-connections {wanted})",
            open_file_limit()
        );
    }
    let rooms = match &cli.rooms {
        None => None,
        Some(path) => match Store::open(path) {
            Ok(store) => Some((
                store,
                RoomsConfig {
                    path: path.clone(),
                    keep: Duration::from_secs(cli.room_days * 86_400),
                    per_client_hour: cli.max_rooms_per_client_hour,
                    max_open: cli.max_rooms,
                    max_people: cli.max_room_people as usize,
                    max_watchers: cli.max_room_watchers as usize,
                    max_movetime: cli.max_movetime,
                },
            )),
            Err(e) => {
                eprintln!("zatre-web: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let config = Config {
        engine,
        max_engines,
        max_engines_per_client: cli.max_engines_per_client as usize,
        max_connects_per_minute: cli.max_connects_per_minute,
        max_connections,
        header_timeout: Duration::from_secs(cli.header_timeout),
        limits: PageLimits {
            idle: Duration::from_secs(cli.idle_timeout),
            commands_per_second: cli.max_commands_per_second,
            answer: Duration::from_secs(cli.answer_timeout),
            ping_interval: Duration::from_secs(cli.ping_interval),
            ping_timeout: Duration::from_secs(cli.ping_timeout),
            commands: CommandLimits {
                max_movetime: cli.max_movetime,
                max_nodes: cli.max_nodes,
                max_multipv: cli.max_multipv,
            },
        },
        public_origins: cli.public_origin,
        allow_hosts: cli.allow_host,
        trusted_proxies: cli.trusted_proxy,
    };
    runtime.block_on(async move {
        let listener = match bind(&cli.host, cli.port).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("zatre-web: cannot listen on {}:{}: {e}", cli.host, cli.port);
                return ExitCode::FAILURE;
            }
        };
        let addr = match listener.local_addr() {
            Ok(a) => a,
            Err(e) => {
                eprintln!("zatre-web: {e}");
                return ExitCode::FAILURE;
            }
        };
        if !addr.ip().is_loopback() {
            eprintln!(
                "zatre-web: warning: listening on {addr}, not loopback: anyone who can reach this address can start engines on this machine"
            );
        }
        let mut out = std::io::stdout();
        let _ = writeln!(out, "listening on http://{addr}/").and_then(|()| out.flush());
        log::info!("engine command line: {}", config.engine);
        for o in &config.public_origins {
            log::info!("public origin: {o}");
        }
        if let Some((_, r)) = &rooms {
            log::info!("rooms database: {}", r.path.display());
        }
        match serve_with_rooms(listener, config, rooms, stop_signal()).await {
            Ok(()) => {
                eprintln!("zatre-web: stopped");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("zatre-web: {e}");
                ExitCode::FAILURE
            }
        }
    })
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM.
async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(e) => {
            log::error!("cannot watch SIGTERM: {e}");
            let _ = tokio::signal::ctrl_c().await;
            return;
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {},
        _ = term.recv() => {},
    }
}

/// The soft limit on open files of this process.
fn open_file_limit() -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit(2) writes only into the struct we own.
    let r = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    if r == 0 {
        limit.rlim_cur
    } else {
        1024
    }
}

/// `zatre` beside this executable, quoted for `sh -c`.
fn default_engine() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let beside = exe.parent().map(|d| d.join("zatre"))?;
    if !beside.is_file() {
        return None;
    }
    Some(shell_quote(&beside))
}

fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.to_string_lossy().replace('\'', r"'\''"))
}
