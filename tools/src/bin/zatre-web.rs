//! `zatre-web`: the browser board. Serves one page and, for each of its connections, runs one
//! engine and relays protocol lines both ways. Arguments here; the work is in `zatre_tools::web`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;
use zatre_tools::web::{bind, serve, Config};

/// The zatre board in the browser: open the address it prints and play.
///
/// Each browser connection starts one engine from --engine, a command line run by `sh -c` in a
/// process group of its own (default: the `zatre` binary beside this one), and the page talks to
/// it over the text protocol. Only the page's own origin may connect.
#[derive(Parser, Debug)]
#[command(version, about, long_about)]
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
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
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
    let config = Config { engine, max_engines: cli.max_engines as usize };
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
        match serve(listener, config, stop_signal()).await {
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
