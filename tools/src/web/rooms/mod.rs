//! Rooms: games that run on the server for people on their own devices, each seat played by a
//! person with the seat's link or by the computer, watchers beside them. This module holds what
//! the server keeps and decides: the seats' tokens (`token.rs`),
//! the database of rooms and their logs of accepted commands (`store.rs`), and who may play and
//! what each seat may see (`room.rs`); and, for the server, a room in play with its engine
//! (`live.rs`) and its HTTP and WebSocket ends (`http.rs`).

mod http;
mod live;
mod room;
mod store;
mod token;

pub use http::{create, socket, RoomsConfig, MAX_BODY};
pub use live::{code, Service};
pub use room::{view_line, view_of, Refusal, RoomState, SeatKind, Step, Table, Viewer, MAX_SEATS};
pub use store::{
    draw_command, place_command, Access, NewRoom, Room, RoomId, Store, StoreError, APPLICATION_ID,
    SCHEMA_VERSION,
};
pub use token::{SeatToken, TokenError, TokenHash, TOKEN_BYTES, TOKEN_TEXT_LEN};
