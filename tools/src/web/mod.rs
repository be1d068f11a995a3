//! The bridge behind `zatre-web`: an HTTP server that serves the board page and, for each
//! WebSocket connection of that page, starts one engine process and relays protocol lines between
//! them verbatim. It owns the processes, who may connect and the limits an operator sets; it never
//! reads the game.
//!
//! The WebSocket carries one protocol line per text message, in both directions, without the
//! `\n`. What the bridge itself has to say (the engine exited, too many engines, a line too long,
//! an idle page) ends the connection with a close code of [`CloseReason`] and a reason for a
//! person, so the data the page gets is only ever what the engine printed.
//!
//! Limits: at most `max_connections` TCP connections are served at once (more wait in the
//! listen queue), each must send its request headers within `header_timeout` (also between
//! requests on a kept-alive connection), at most `max_engines` of them hold an engine, and at most
//! `max_engines_per_client` of those belong to one client. What a page may ask of its engine is
//! the board page's own commands within caps ([`CommandLimits`]), each answered within a deadline.

mod accept;
mod allowlist;
mod assets;
mod bucket;
pub mod client;
mod clients;
mod engine;
mod origin;
pub mod rooms;
mod session;

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use accept::Peer;

pub use allowlist::CommandLimits;
pub use origin::{HostName, OriginError, Origins, PublicOrigin};
pub use session::{CloseReason, PageLimits};

/// The protocol's limit on one line, in bytes (PROTOCOL.md, Framing).
pub const MAX_LINE: usize = 65536;

/// The open files a page with an engine holds: its socket, the engine's stdin and stdout pipes
/// and the handle the runtime waits on the engine with.
pub const FILES_PER_ENGINE: usize = 4;

/// Open files kept for everything but connections: the standard streams, the listener, the
/// runtime's own, the engines' stderr.
pub const FILES_RESERVED: usize = 32;

/// How the bridge is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine's command line, run by `sh -c` in a process group of its own.
    pub engine: String,
    /// At most this many engines run at once.
    pub max_engines: usize,
    /// At most this many of them for one client (an IPv4 address or an IPv6 /64).
    pub max_engines_per_client: usize,
    /// At most this many WebSockets a minute from one client, in bursts of as many.
    pub max_connects_per_minute: u32,
    /// At most this many TCP connections are served at once; more wait to be accepted.
    pub max_connections: usize,
    /// A connection must send a request's headers within this time.
    pub header_timeout: Duration,
    /// What one page may do.
    pub limits: PageLimits,
    /// The origins of the pages served through a proxy (`--public-origin`).
    pub public_origins: Vec<PublicOrigin>,
    /// More `Host` values to accept with a public origin (`--allow-host`).
    pub allow_hosts: Vec<HostName>,
    /// Peers whose `X-Forwarded-For` names the client (`--trusted-proxy`), in the log and for
    /// `max_engines_per_client`.
    pub trusted_proxies: Vec<IpAddr>,
}

/// The most connections that fit in `open_files` descriptors when `max_engines` of them hold an
/// engine: `wanted`, or fewer.
///
/// # Errors
/// When not even the engines' connections fit.
pub fn connections_within(wanted: usize, max_engines: usize, open_files: u64) -> Result<usize, String> {
    let open_files = usize::try_from(open_files).unwrap_or(usize::MAX);
    let engines = max_engines.saturating_mul(FILES_PER_ENGINE);
    let room = open_files.saturating_sub(FILES_RESERVED).saturating_sub(engines);
    // Each engine's connection is counted in `engines`; the rest take one file each.
    let fits = room.saturating_add(max_engines);
    if fits <= max_engines {
        return Err(format!(
            "{max_engines} engine(s) need about {} open files and the limit is {open_files}: raise it (ulimit -n, LimitNOFILE=) or lower --max-engines",
            engines + FILES_RESERVED + 1
        ));
    }
    Ok(wanted.min(fits))
}

/// What every connection shares.
struct Shared {
    /// The rooms, when the server runs them (`--rooms`).
    rooms: Option<(Arc<rooms::Service>, rooms::RoomsConfig)>,
    config: Config,
    origins: Origins,
    slots: Arc<Semaphore>,
    clients: clients::Clients,
    connects: clients::Connects,
    groups: engine::Groups,
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
    serve_with_rooms(listener, config, None, stop).await
}

/// [`serve`], and with `rooms` (an open database and its flags) the rooms too: `POST /rooms`,
/// `GET /room/<id>` (the page) and `GET /room/<id>/ws`; their expiry runs at the start and
/// hourly.
///
/// # Errors
/// When the listener fails.
pub async fn serve_with_rooms(
    listener: TcpListener,
    config: Config,
    rooms: Option<(rooms::Store, rooms::RoomsConfig)>,
    stop: impl Future<Output = ()> + Send,
) -> io::Result<()> {
    let addr: SocketAddr = listener.local_addr()?;
    let groups: engine::Groups = Arc::new(Mutex::new(Default::default()));
    let max_connections = config.max_connections;
    let header_timeout = config.header_timeout;
    let slots = Arc::new(Semaphore::new(config.max_engines));
    let rooms = rooms.map(|(store, rooms_config)| {
        let service = Arc::new(rooms::Service {
            store: Arc::new(Mutex::new(store)),
            engine: config.engine.clone(),
            groups: groups.clone(),
            slots: slots.clone(),
            max_people: rooms_config.max_people,
            max_watchers: rooms_config.max_watchers,
            ping_interval: config.limits.ping_interval,
            ping_timeout: config.limits.ping_timeout,
            active: Mutex::new(Default::default()),
        });
        tokio::spawn(expire_rooms(service.clone(), rooms_config.keep));
        (service, rooms_config)
    });
    let shared = Arc::new(Shared {
        rooms,
        slots,
        clients: clients::Clients::default(),
        connects: clients::Connects::new(config.max_connects_per_minute),
        origins: Origins::new(addr, config.public_origins.clone(), config.allow_hosts.clone()),
        config,
        groups: groups.clone(),
    });
    let app = Router::new()
        .route("/ws", get(websocket))
        .route("/rooms", post(create_room))
        .route("/room/{id}", get(room_page))
        .route("/room/{id}/ws", get(room_websocket))
        .fallback(get(asset))
        .with_state(shared);
    let accept = accept::serve(listener, app, max_connections, header_timeout);
    tokio::select! {
        () = accept => {},
        () = stop => {},
    }
    engine::kill_all(&groups);
    Ok(())
}

/// Marks idle open rooms abandoned and removes the finished and abandoned ones older than
/// `keep`, now and every hour.
async fn expire_rooms(service: Arc<rooms::Service>, keep: Duration) {
    let mut every = tokio::time::interval(Duration::from_secs(3600));
    loop {
        every.tick().await;
        let now = std::time::SystemTime::now();
        let before = now.checked_sub(keep).unwrap_or(std::time::UNIX_EPOCH);
        let mut store = service.store.lock().unwrap_or_else(|p| p.into_inner());
        match store.abandon_idle(before, now).and_then(|a| Ok((a, store.expire(before)?))) {
            Ok((0, 0)) => {}
            Ok((abandoned, removed)) => {
                log::info!("rooms: {abandoned} idle room(s) abandoned, {removed} old room(s) removed")
            }
            Err(e) => log::error!("rooms: expiry failed: {e}"),
        }
    }
}

/// The origin check of a page's request (a WebSocket or a `POST /rooms`): the refusal, logged.
fn refuse_origin(shared: &Shared, headers: &HeaderMap, name: &str, what: &str) -> Option<Response> {
    let values = |h| headers.get_all(h).iter().map(|v| v.as_bytes()).collect::<Vec<_>>();
    let why = shared.origins.check(&values(header::ORIGIN), &values(header::HOST)).err()?;
    // Headers are the client's words: the log repeats a bounded piece of them.
    let shown = |h| allowlist::echo(&String::from_utf8_lossy(&values(h).join(&b", "[..])));
    log::warn!(
        "{name}: refused {what}: {why} (origin {:?}, host {:?})",
        shown(header::ORIGIN),
        shown(header::HOST)
    );
    Some((StatusCode::FORBIDDEN, format!("forbidden: {why}\n")).into_response())
}

/// `POST /rooms`: a new room, for the pages the operator serves only.
async fn create_room(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let Some((service, rooms_config)) = &shared.rooms else {
        return (StatusCode::NOT_FOUND, "this server runs no rooms (zatre-web --rooms)\n").into_response();
    };
    let (parts, body) = request.into_parts();
    let Some(peer) = parts.extensions.get::<Peer>().cloned() else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "no peer\n").into_response();
    };
    let (client, name) = client_of(peer.addr(), &parts.headers, &shared.config.trusted_proxies);
    if let Some(refused) = refuse_origin(&shared, &parts.headers, &name, "a new room") {
        return refused;
    }
    let body = match axum::body::to_bytes(body, rooms::MAX_BODY).await {
        Ok(b) => b,
        Err(_) => {
            let why = format!("a room's request is at most {} bytes\n", rooms::MAX_BODY);
            return (StatusCode::PAYLOAD_TOO_LARGE, why).into_response();
        }
    };
    let key = clients::client_key(client).to_string();
    rooms::create(service, rooms_config, key, &body).await
}

/// `GET /room/<id>`: the board page, which reads the token from the link's fragment.
async fn room_page() -> Response {
    asset(Uri::from_static("/")).await
}

/// `GET /room/<id>/ws`: a seat's or a watcher's socket.
async fn room_websocket(
    State(shared): State<Arc<Shared>>,
    axum::extract::Path(id): axum::extract::Path<String>,
    request: Request,
) -> Response {
    let Some((service, _)) = &shared.rooms else {
        return (StatusCode::NOT_FOUND, "this server runs no rooms (zatre-web --rooms)\n").into_response();
    };
    let Some(room) = id.parse::<i64>().ok().filter(|&n| n > 0).map(rooms::RoomId) else {
        return (StatusCode::NOT_FOUND, "no such room\n").into_response();
    };
    let (peer, _, name, upgrade) = match admit(&shared, request, "a room's WebSocket").await {
        Ok(admitted) => admitted,
        Err(refused) => return refused,
    };
    let service = service.clone();
    upgrade.max_message_size(MAX_LINE + 1).max_frame_size(MAX_LINE + 1).on_upgrade(move |socket| async move {
        rooms::socket(service, room, socket, name).await;
        drop(peer);
    })
}

/// Who a connection is: the client's address (the peer's, or the one a trusted proxy forwards
/// for) and how the log names it.
fn client_of(addr: SocketAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> (IpAddr, String) {
    if !trusted.contains(&addr.ip()) {
        return (addr.ip(), addr.to_string());
    }
    // The proxy appends the address it saw to the list: the last entry is the one it vouches for.
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .next_back()
        .and_then(|a| a.trim().parse::<IpAddr>().ok());
    match forwarded {
        Some(client) => (client, format!("{client} (via {addr})")),
        None => (addr.ip(), addr.to_string()),
    }
}

/// What lets a WebSocket (`what`, for the log) in: the client's connects a minute, then its
/// origin, then the upgrade itself. The connection's peer, the client, how the log names it and
/// the upgrade; or the refusal.
async fn admit(
    shared: &Arc<Shared>,
    request: Request,
    what: &str,
) -> Result<(Peer, IpAddr, String, WebSocketUpgrade), Response> {
    let (mut parts, _body) = request.into_parts();
    let Some(peer) = parts.extensions.get::<Peer>().cloned() else {
        return Err((StatusCode::INTERNAL_SERVER_ERROR, "no peer\n").into_response());
    };
    let (client, name) = client_of(peer.addr(), &parts.headers, &shared.config.trusted_proxies);
    // First, before anything is checked, started or logged: how often this client comes.
    let connect = shared.connects.take(client, std::time::Instant::now());
    if connect != clients::Connect::Allowed {
        let most = shared.config.max_connects_per_minute;
        if connect == clients::Connect::RefusedFirst {
            log::warn!(
                "{name}: refused: more than {most} WebSockets a minute from this client (--max-connects-per-minute); \
                 further refusals are not logged until it is let in again"
            );
        }
        let why = format!("too many connections: more than {most} a minute from this client\n");
        return Err((StatusCode::TOO_MANY_REQUESTS, why).into_response());
    }
    if let Some(refused) = refuse_origin(shared, &parts.headers, &name, what) {
        return Err(refused);
    }
    match WebSocketUpgrade::from_request_parts(&mut parts, shared).await {
        Ok(upgrade) => Ok((peer, client, name, upgrade)),
        Err(rejection) => Err(rejection.into_response()),
    }
}

/// `GET /ws`: the engine connection, for the pages the operator serves only.
async fn websocket(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (peer, client, name, upgrade) = match admit(&shared, request, "a WebSocket").await {
        Ok(admitted) => admitted,
        Err(refused) => return refused,
    };
    // Frames and messages over the protocol's line limit (and a trailing `\r`) are refused by the
    // WebSocket layer before they are read whole.
    upgrade.max_message_size(MAX_LINE + 1).max_frame_size(MAX_LINE + 1).on_upgrade(move |socket| async move {
        let page = session::Page {
            peer: name,
            client,
            engine: shared.config.engine.clone(),
            slots: shared.slots.clone(),
            max_engines: shared.config.max_engines,
            clients: shared.clients.clone(),
            max_engines_per_client: shared.config.max_engines_per_client,
            groups: shared.groups.clone(),
            limits: shared.config.limits,
        };
        session::run(socket, page).await;
        // The connection's place under the cap is free once the page is done.
        drop(peer);
    })
}

/// The page's Content-Security-Policy: its own scripts, styles, images and WebSocket only; no
/// inline script or style, no plugin, no `<base>`, no form, no framing. The page sets styles
/// through the CSSOM (`element.style`), which no policy blocks, never as `style` attributes.
pub const CSP: &str = "default-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

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
            // No other site may frame the board (clickjacking) or learn its address, and the page
            // runs nothing, loads nothing and connects nowhere but its own files and WebSocket.
            (header::X_FRAME_OPTIONS, "DENY"),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_fit_the_open_file_limit() {
        assert_eq!(connections_within(512, 4, 65536), Ok(512));
        // 64 files: 32 kept, 16 for four engines' pages, 16 more for other connections.
        assert_eq!(connections_within(512, 4, 64), Ok(20));
        assert!(connections_within(512, 16, 64).is_err());
    }

    #[test]
    fn a_trusted_proxy_names_the_client_others_do_not() {
        let peer: SocketAddr = "127.0.0.1:5000".parse().expect("an address");
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "10.9.9.9, 203.0.113.7".parse().expect("a value"));
        let trusted: Vec<IpAddr> = vec!["127.0.0.1".parse().expect("an address")];
        let ip = |a: &str| a.parse::<IpAddr>().expect("an address");
        assert_eq!(
            client_of(peer, &headers, &trusted),
            (ip("203.0.113.7"), "203.0.113.7 (via 127.0.0.1:5000)".to_string())
        );
        assert_eq!(client_of(peer, &headers, &[]), (ip("127.0.0.1"), "127.0.0.1:5000".to_string()));
        assert_eq!(
            client_of(peer, &HeaderMap::new(), &trusted),
            (ip("127.0.0.1"), "127.0.0.1:5000".to_string())
        );
    }
}
