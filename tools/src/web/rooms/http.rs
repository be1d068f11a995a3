//! Rooms over HTTP: `POST /rooms` makes a room and answers its links, `GET /room/<id>/ws` is a
//! seat's or a watcher's WebSocket (docs/rooms.md says the wire protocol). It decides what a
//! request must hold and what a refusal says; the game itself is `live.rs`'s.
//!
//! The tokens travel only in a link's fragment (`/room/7#<token>`), which a browser never sends,
//! and in the socket's first message; neither is ever logged.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::{mpsc, oneshot};
use zatre::search::Strategy;

use super::live::{check_newgame, code, lock, Cmd, Out, Service};
use super::room::SeatKind;
use super::store::RoomId;
use super::token::SeatToken;

/// How a server runs rooms: the flags of `zatre-web`.
#[derive(Clone, Debug)]
pub struct RoomsConfig {
    /// The SQLite file (`--rooms`).
    pub path: PathBuf,
    /// How long a finished or abandoned room is kept, and how long an open room may go without a
    /// move before it counts as abandoned (`--room-days`).
    pub keep: Duration,
    /// Rooms one client may make in an hour (`--max-rooms-per-client-hour`).
    pub per_client_hour: u64,
    /// Open rooms at most (`--max-rooms`).
    pub max_open: u64,
    /// People's sockets in one room at most (`--max-room-people`).
    pub max_people: usize,
    /// Watchers' sockets in one room at most (`--max-room-watchers`).
    pub max_watchers: usize,
    /// The longest time per move a computer seat may have, in ms (`--max-movetime`).
    pub max_movetime: u64,
}

/// The first message a socket must send within this time.
const JOIN_TIMEOUT: Duration = Duration::from_secs(20);

/// The most bytes of a `POST /rooms` body.
pub const MAX_BODY: usize = 16 * 1024;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewRoomRequest {
    /// The `newgame` arguments, as the page sends them to its engine.
    #[serde(default)]
    newgame: String,
    seats: Vec<SeatRequest>,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum SeatRequest {
    Person,
    Computer { strategy: String, movetime: u32 },
}

fn refusal(status: StatusCode, why: &str) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], json!({ "error": why }).to_string())
        .into_response()
}

/// `POST /rooms` from `client` (the key the hourly limit counts by): makes the room the body
/// asks for and answers its links.
pub async fn create(service: &Arc<Service>, config: &RoomsConfig, client: String, body: &[u8]) -> Response {
    let request: NewRoomRequest = match serde_json::from_slice(body) {
        Ok(r) => r,
        Err(e) => return refusal(StatusCode::BAD_REQUEST, &format!("the body is not a room's JSON: {e}")),
    };
    let mut seats = Vec::new();
    for (n, seat) in (1..).zip(&request.seats) {
        seats.push(match seat {
            SeatRequest::Person => SeatKind::Person,
            SeatRequest::Computer { strategy, movetime } => {
                let Some(strategy) = Strategy::parse(strategy) else {
                    let why = format!("seat {n}: no computer level '{strategy}' (random, greedy, search)");
                    return refusal(StatusCode::BAD_REQUEST, &why);
                };
                if u64::from(*movetime) > config.max_movetime {
                    let why = format!("seat {n}: at most {} ms a move", config.max_movetime);
                    return refusal(StatusCode::BAD_REQUEST, &why);
                }
                SeatKind::Computer { strategy, movetime_ms: *movetime }
            }
        });
    }
    if !seats.contains(&SeatKind::Person) {
        return refusal(StatusCode::BAD_REQUEST, "a room needs at least one person's seat");
    }
    let now = SystemTime::now();
    {
        let store = lock(&service.store);
        let hour_ago = now.checked_sub(Duration::from_secs(3600)).unwrap_or(SystemTime::UNIX_EPOCH);
        match (store.rooms_created_by(&client, hour_ago), store.count_rooms(Some(super::RoomState::Open))) {
            (Ok(made), _) if made >= config.per_client_hour => {
                let why = format!("this client made {made} rooms in the last hour, the most it may");
                return refusal(StatusCode::TOO_MANY_REQUESTS, &why);
            }
            (_, Ok(open)) if open >= config.max_open => {
                return refusal(StatusCode::SERVICE_UNAVAILABLE, "the server holds as many rooms as it may");
            }
            (Err(e), _) | (_, Err(e)) => {
                log::error!("rooms database: {e}");
                return refusal(StatusCode::INTERNAL_SERVER_ERROR, "the rooms database failed");
            }
            _ => {}
        }
    }
    let newgame = request.newgame.trim().to_string();
    if let Err(why) = check_newgame(service, &newgame, seats.len()).await {
        return match why {
            Out::Text(why) => refusal(StatusCode::BAD_REQUEST, &why),
            Out::Close(_, why) => refusal(StatusCode::SERVICE_UNAVAILABLE, &why),
        };
    }
    let made = lock(&service.store).create_room(&newgame, &seats, &client, now);
    let new = match made {
        Ok(n) => n,
        Err(e @ (super::StoreError::BadLine | super::StoreError::SeatCount(_))) => {
            return refusal(StatusCode::BAD_REQUEST, &e.to_string());
        }
        Err(e) => {
            log::error!("rooms database: {e}");
            return refusal(StatusCode::INTERNAL_SERVER_ERROR, "the rooms database failed");
        }
    };
    log::info!("room {}: made with {} seat(s)", new.id, seats.len());
    let link = |token: &SeatToken| format!("/room/{}#{}", new.id, token.link_text());
    let links: Vec<serde_json::Value> =
        new.seats.iter().map(|(seat, token)| json!({ "seat": seat, "link": link(token) })).collect();
    let body = json!({ "room": new.id.0, "seats": links, "watchers": link(&new.watchers) });
    (
        StatusCode::CREATED,
        [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")],
        body.to_string(),
    )
        .into_response()
}

async fn close(socket: &mut WebSocket, code: u16, why: &str) {
    let mut text = why.to_string();
    while text.len() > 123 {
        text.pop();
    }
    let frame = CloseFrame { code, reason: Utf8Bytes::from(text) };
    let _ = tokio::time::timeout(Duration::from_secs(2), socket.send(Message::Close(Some(frame)))).await;
}

/// The next text message, `None` when the socket ends or sends something else.
async fn next_text(socket: &mut WebSocket) -> Option<String> {
    loop {
        match socket.next().await? {
            Ok(Message::Text(t)) => return Some(t.to_string()),
            Ok(Message::Ping(_) | Message::Pong(_)) => {}
            _ => return None,
        }
    }
}

/// A room's WebSocket, for the room `room` of its path (`peer` names it in the log).
pub async fn socket(service: Arc<Service>, room: RoomId, mut socket: WebSocket, peer: String) {
    let bad = "refused: this link is not valid (a wrong or old link); ask for a new one";
    let first = match tokio::time::timeout(JOIN_TIMEOUT, next_text(&mut socket)).await {
        Ok(Some(text)) => text,
        Ok(None) => return,
        Err(_) => {
            return close(&mut socket, code::NO_JOIN, "refused: the first message must be `join <token>`")
                .await
        }
    };
    let Some(text) = first.strip_prefix("join ") else {
        return close(&mut socket, code::NO_JOIN, "refused: the first message must be `join <token>`").await;
    };
    let found =
        SeatToken::parse(text.trim()).ok().map(|token| lock(&service.store).find_seat_by_token(&token));
    let viewer = match found {
        Some(Ok(Some(access))) if access.room == room => access.viewer,
        Some(Err(e)) => {
            log::error!("{peer}: room {room}: rooms database: {e}");
            return close(&mut socket, code::ROOM_FAILED, "the rooms database failed").await;
        }
        _ => {
            log::warn!("{peer}: room {room}: refused a link that is not valid");
            return close(&mut socket, code::BAD_LINK, bad).await;
        }
    };
    let (out_tx, mut out_rx) = mpsc::unbounded_channel();
    let (answer_tx, answer_rx) = oneshot::channel();
    service.send(room, Cmd::Join { viewer, out: out_tx, answer: answer_tx });
    let member = match answer_rx.await {
        Ok(Ok(member)) => member,
        Ok(Err(Out::Close(code, why))) => return close(&mut socket, code, &why).await,
        Ok(Err(Out::Text(_))) | Err(_) => {
            return close(&mut socket, code::ROOM_FAILED, "the room could not be opened").await
        }
    };
    log::info!("{peer}: room {room}: joined as {viewer:?}");
    let mut ping =
        tokio::time::interval_at(tokio::time::Instant::now() + service.ping_interval, service.ping_interval);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            out = out_rx.recv() => match out {
                Some(Out::Text(text)) => {
                    if socket.send(Message::text(text)).await.is_err() {
                        break;
                    }
                }
                Some(Out::Close(code, why)) => {
                    close(&mut socket, code, &why).await;
                    break;
                }
                None => break,
            },
            frame = socket.next() => {
                heard = tokio::time::Instant::now();
                match frame {
                    Some(Ok(Message::Text(text))) => {
                        service.send(room, Cmd::Said { member, text: text.to_string() })
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    _ => break,
                }
            }
            _ = ping.tick() => {
                if heard.elapsed() >= service.ping_timeout {
                    let secs = service.ping_timeout.as_secs();
                    close(&mut socket, code::SILENT, &format!("the page answered no ping for {secs} s")).await;
                    break;
                }
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
        }
    }
    service.send(room, Cmd::Left { member });
    log::info!("{peer}: room {room}: left");
}
