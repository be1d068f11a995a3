//! Accepting TCP connections within the operator's limits: at most `max` served at once, request
//! headers within a timeout, `TCP_NODELAY` on every socket. When all places are taken, a new
//! connection takes the place of the one that has waited longest for a request (a slow or silent
//! sender: slowloris), so that such senders can never starve the others; when every place serves a
//! request or a page, new connections wait in the listen queue.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tower::Service;

/// A connection's peer and its place under the cap: held by the connection and, once it is a
/// WebSocket, by the page, so that the place is free when both are done.
#[derive(Clone)]
pub struct Peer {
    addr: SocketAddr,
    _place: Arc<OwnedSemaphorePermit>,
}

impl Peer {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// What a connection is doing.
const WAITING: u8 = 0;
const BUSY: u8 = 1;
const UPGRADED: u8 = 2;

/// One open connection, as the accept loop sees it.
struct Conn {
    state: AtomicU8,
    /// When it began to wait for a request, as a tick of [`Conns::clock`].
    since: AtomicU64,
    evict: Notify,
}

/// The open connections.
#[derive(Default)]
struct Conns {
    clock: AtomicU64,
    open: Mutex<HashMap<u64, Arc<Conn>>>,
}

impl Conns {
    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed)
    }

    fn open(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        // A poisoned map still lists the connections.
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Ends the connection that has waited longest for a request; false when none waits.
    fn evict_oldest_waiting(&self) -> bool {
        let open = self.open();
        let oldest = open
            .values()
            .filter(|c| c.state.load(Ordering::Relaxed) == WAITING)
            .min_by_key(|c| c.since.load(Ordering::Relaxed));
        match oldest {
            Some(c) => {
                // Marked so that it is not chosen twice.
                c.state.store(BUSY, Ordering::Relaxed);
                c.evict.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Accepts and serves connections with `app` until dropped.
pub async fn serve(listener: TcpListener, app: Router, max: usize, header_timeout: Duration) {
    let places = Arc::new(Semaphore::new(max));
    let conns = Arc::new(Conns::default());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(header_timeout);
    let mut next_id = 0u64;
    let mut warned = false;
    loop {
        let (stream, addr) = match listener.accept().await {
            Ok(s) => s,
            Err(e) => {
                // Out of files, or a connection reset before it was accepted: the listener itself
                // is fine; wait a little rather than spin.
                log::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let place = match places.clone().try_acquire_owned() {
            Ok(p) => {
                warned = false;
                p
            }
            Err(_) => {
                let evicted = conns.evict_oldest_waiting();
                if !warned {
                    warned = true;
                    if evicted {
                        log::warn!("{max} connections are open (--max-connections): the longest waiting for a request give way to new ones");
                    } else {
                        log::warn!("{max} connections are open (--max-connections) and busy: new ones wait");
                    }
                }
                // The semaphore is never closed, so this waits and never fails.
                let Ok(p) = places.clone().acquire_owned().await else { continue };
                p
            }
        };
        // Each protocol line and the empty line after a response are separate small writes:
        // without this, the second waits for the client's delayed ACK (about 40 ms).
        if let Err(e) = stream.set_nodelay(true) {
            log::warn!("{addr}: cannot set TCP_NODELAY: {e}");
        }
        let id = next_id;
        next_id += 1;
        let conn = Arc::new(Conn {
            state: AtomicU8::new(WAITING),
            since: AtomicU64::new(conns.tick()),
            evict: Notify::new(),
        });
        conns.open().insert(id, conn.clone());
        let peer = Peer { addr, _place: Arc::new(place) };
        let service = {
            let (app, conn, conns) = (app.clone(), conn.clone(), conns.clone());
            hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(peer.clone());
                conn.state.store(BUSY, Ordering::Relaxed);
                let (mut app, conn, conns) = (app.clone(), conn.clone(), conns.clone());
                async move {
                    let response = app.call(request).await;
                    if let Ok(r) = &response {
                        if r.status() == hyper::StatusCode::SWITCHING_PROTOCOLS {
                            conn.state.store(UPGRADED, Ordering::Relaxed);
                        } else {
                            conn.since.store(conns.tick(), Ordering::Relaxed);
                            conn.state.store(WAITING, Ordering::Relaxed);
                        }
                    }
                    response
                }
            })
        };
        let connection = http.serve_connection(TokioIo::new(stream), service).with_upgrades();
        let conns = conns.clone();
        tokio::spawn(async move {
            tokio::select! {
                r = connection => if let Err(e) = r {
                    log::debug!("{addr}: connection ended: {e}");
                },
                () = conn.evict.notified() => log::info!("{addr}: closed: it sent no request, and a new connection needs its place"),
            }
            conns.open().remove(&id);
        });
    }
}
