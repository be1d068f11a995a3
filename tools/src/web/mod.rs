//! The bridge behind `zatre-web`: an HTTP server that serves the board page and, for each
//! WebSocket connection of that page, starts one engine process and relays protocol lines between
//! them verbatim. It owns the processes and who may connect; it never reads the game.
//!
//! The WebSocket carries one protocol line per text message, in both directions, without the
//! `\n`. What the bridge itself has to say (the engine exited, too many engines, a line too long)
//! ends the connection with a close code of [`CloseReason`] and a reason for a person, so the
//! data the page gets is only ever what the engine printed.

mod assets;
mod origin;
mod session;

use std::collections::HashSet;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{FromRequestParts, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

pub use origin::Origins;
pub use session::CloseReason;

/// The protocol's limit on one line, in bytes (PROTOCOL.md, Framing).
pub const MAX_LINE: usize = 65536;

/// How the bridge is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine's command line, run by `sh -c` in a process group of its own.
    pub engine: String,
    /// At most this many engines run at once.
    pub max_engines: usize,
}

/// What every connection shares.
struct Shared {
    config: Config,
    origins: Origins,
    slots: Arc<Semaphore>,
    /// The process groups of the running engines, so that a stop can end them all.
    groups: Arc<Mutex<HashSet<i32>>>,
}

/// Binds the listening socket.
///
/// # Errors
/// When the address cannot be resolved or bound.
pub async fn bind(host: &str, port: u16) -> io::Result<TcpListener> {
    TcpListener::bind((host, port)).await
}

/// Serves the page and the engines on `listener` until `stop` completes; then kills every engine
/// still running.
///
/// # Errors
/// When the listener fails.
pub async fn serve(
    listener: TcpListener,
    config: Config,
    stop: impl Future<Output = ()> + Send,
) -> io::Result<()> {
    let addr: SocketAddr = listener.local_addr()?;
    let groups = Arc::new(Mutex::new(HashSet::new()));
    let shared = Arc::new(Shared {
        slots: Arc::new(Semaphore::new(config.max_engines)),
        config,
        origins: Origins::for_listener(addr),
        groups: groups.clone(),
    });
    let app = Router::new().route("/ws", get(websocket)).fallback(get(asset)).with_state(shared);
    let result = tokio::select! {
        r = axum::serve(listener, app) => r,
        () = stop => Ok(()),
    };
    session::kill_all(&groups);
    result
}

/// `GET /ws`: the engine connection, for the page's own origin only.
async fn websocket(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Response {
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    if !shared.origins.allows(origin, host) {
        log::warn!("refused a WebSocket from origin {origin:?} host {host:?}");
        return (StatusCode::FORBIDDEN, "forbidden: not the board's own origin\n").into_response();
    }
    let (mut parts, _body) = request.into_parts();
    let upgrade = match WebSocketUpgrade::from_request_parts(&mut parts, &shared).await {
        Ok(u) => u,
        Err(rejection) => return rejection.into_response(),
    };
    // Frames and messages over the protocol's line limit (and a trailing `\r`) are refused by the
    // WebSocket layer before they are read whole.
    upgrade.max_message_size(MAX_LINE + 1).max_frame_size(MAX_LINE + 1).on_upgrade(move |socket| {
        session::run(
            socket,
            shared.config.engine.clone(),
            shared.slots.clone(),
            shared.groups.clone(),
            shared.config.max_engines,
        )
    })
}

/// Any other `GET`: a file of the page. With `ZATRE_WEB_ASSETS` set to the page's directory
/// (`tools/web`), the files are read from there on every request instead, for work on the page
/// without a rebuild; the same names are served either way.
async fn asset(uri: Uri) -> Response {
    let Some((name, file)) = assets::find(uri.path()) else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    let body = match std::env::var_os("ZATRE_WEB_ASSETS") {
        Some(dir) => match std::fs::read(std::path::Path::new(&dir).join(name)) {
            Ok(bytes) => bytes,
            Err(_) => return (StatusCode::NOT_FOUND, "not found\n").into_response(),
        },
        None => file.body.to_vec(),
    };
    (
        [
            (header::CONTENT_TYPE, file.content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}
