//! A page's side of the bridge, for programs (the load tool, the proxy test): one blocking
//! WebSocket, a command sent with a fresh id, its response read up to the empty line that ends it.

use std::net::TcpStream;
use std::time::Duration;

use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Why a command got no response.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("cannot connect: {0}")]
    Connect(tungstenite::Error),
    #[error("`{0}` cannot be an Origin header")]
    BadOrigin(String),
    #[error("the bridge closed the connection: {code} {reason}")]
    Closed { code: u16, reason: String },
    #[error("the socket failed: {0}")]
    Socket(tungstenite::Error),
    #[error("a response that does not answer `{id}`: {line}")]
    Unexpected { id: u64, line: String },
}

/// One response: `=` (ok) or `?`, and its lines (the first without its `=<id>` or `?<id>`, `info`
/// lines left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub ok: bool,
    pub lines: Vec<String>,
}

impl Response {
    /// The first line's payload.
    pub fn payload(&self) -> &str {
        self.lines.first().map(String::as_str).unwrap_or_default()
    }
}

/// A connected page.
pub struct PageClient {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl PageClient {
    /// Connects to `url` (`ws://host:port/ws`) with this `Origin`; reads time out after `patience`.
    ///
    /// # Errors
    /// When the connection or the handshake fails (a refusal is `tungstenite::Error::Http`).
    pub fn connect(url: &str, origin: &str, patience: Duration) -> Result<PageClient, ClientError> {
        let mut request = url.into_client_request().map_err(ClientError::Connect)?;
        let value = origin.parse().map_err(|_| ClientError::BadOrigin(origin.to_string()))?;
        request.headers_mut().insert("Origin", value);
        let (mut socket, _) = tungstenite::connect(request).map_err(ClientError::Connect)?;
        if let MaybeTlsStream::Plain(s) = socket.get_mut() {
            s.set_read_timeout(Some(patience)).map_err(|e| ClientError::Connect(e.into()))?;
            s.set_nodelay(true).map_err(|e| ClientError::Connect(e.into()))?;
        }
        Ok(PageClient { socket, next_id: 1 })
    }

    /// Sends `<id> <command>` and reads its response.
    ///
    /// # Errors
    /// When the connection ends first or the engine answers something else.
    pub fn ask(&mut self, command: &str) -> Result<Response, ClientError> {
        let id = self.next_id;
        self.next_id += 1;
        self.socket.send(Message::text(format!("{id} {command}"))).map_err(ClientError::Socket)?;
        let mut response: Option<Response> = None;
        loop {
            let line = self.line()?;
            if line.is_empty() {
                if let Some(r) = response {
                    return Ok(r);
                }
                return Err(ClientError::Unexpected { id, line });
            }
            match &mut response {
                Some(r) if !line.starts_with("info ") => r.lines.push(line),
                Some(_) => {}
                None if line.starts_with("info ") => {}
                None => {
                    let (ok, rest) = match line.as_bytes().first() {
                        Some(b'=') => (true, &line[1..]),
                        Some(b'?') => (false, &line[1..]),
                        _ => return Err(ClientError::Unexpected { id, line }),
                    };
                    let Some(payload) = rest.strip_prefix(&id.to_string()) else {
                        return Err(ClientError::Unexpected { id, line });
                    };
                    response = Some(Response { ok, lines: vec![payload.trim_start().to_string()] });
                }
            }
        }
    }

    /// Closes the connection (a Close frame, then the socket).
    pub fn close(mut self) {
        let _ = self.socket.close(None);
        let _ = self.socket.flush();
    }

    fn line(&mut self) -> Result<String, ClientError> {
        loop {
            match self.socket.read() {
                Ok(Message::Text(t)) => return Ok(t.to_string()),
                Ok(Message::Close(frame)) => {
                    let (code, reason) = frame
                        .map(|f| (u16::from(f.code), f.reason.to_string()))
                        .unwrap_or((1005, String::new()));
                    return Err(ClientError::Closed { code, reason });
                }
                Ok(_) => continue,
                Err(e) => return Err(ClientError::Socket(e)),
            }
        }
    }
}
