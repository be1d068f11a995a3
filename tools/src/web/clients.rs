//! How many engines each client holds, so that one client cannot take every engine slot
//! (`--max-engines-per-client`). A client is an IPv4 address, or an IPv6 /64 network (what one
//! subscriber is usually given, so that a host cannot count as many clients by changing its
//! address); behind a trusted proxy, the client its `X-Forwarded-For` names.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::bucket::Bucket;

/// The engines held, per client.
#[derive(Clone, Default)]
pub struct Clients {
    held: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One engine held by a client; given back when dropped.
pub struct Held {
    clients: Clients,
    key: IpAddr,
}

/// The key a client is counted under: an IPv4 address (also when written as IPv4-mapped IPv6), or
/// an IPv6 address's /64 network.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6([s[0], s[1], s[2], s[3], 0, 0, 0, 0].into())
            }
        },
    }
}

impl Clients {
    /// Takes one engine for the client at `ip` when it holds fewer than `max`.
    pub fn take(&self, ip: IpAddr, max: usize) -> Option<Held> {
        let key = client_key(ip);
        let mut held = self.lock();
        let n = held.entry(key).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(Held { clients: self.clone(), key })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        // A poisoned map still counts the engines.
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.clients.lock();
        if let Some(n) = held.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.key);
            }
        }
    }
}

/// How often each client may open a WebSocket (`--max-connects-per-minute`): a bucket of that
/// many, refilled at that rate. Every page's engine is started by one, so this bounds how fast a
/// client makes the bridge start processes; a refusal is answered before anything is started.
pub struct Connects {
    per_minute: f64,
    buckets: Mutex<HashMap<IpAddr, Dry>>,
}

/// A client's bucket, and whether it was refused since it was last let in.
struct Dry {
    bucket: Bucket,
    refused: bool,
}

/// Whether a client may open a WebSocket now.
#[derive(Debug, PartialEq, Eq)]
pub enum Connect {
    Allowed,
    /// Refused, the first time since it was last let in (worth a line in the log).
    RefusedFirst,
    /// Refused again (not logged: a client cannot flood the log).
    Refused,
}

/// The clients remembered at most before the ones whose bucket is full again are forgotten.
const REMEMBERED: usize = 4096;

impl Connects {
    pub fn new(per_minute: u32) -> Connects {
        Connects { per_minute: f64::from(per_minute), buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one connect of the client at `ip`, if it has one left at `now`.
    pub fn take(&self, ip: IpAddr, now: Instant) -> Connect {
        // A poisoned map still counts.
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= REMEMBERED {
            buckets.retain(|_, d| !d.bucket.is_full(now));
        }
        let client = buckets.entry(client_key(ip)).or_insert_with(|| Dry {
            bucket: Bucket::new(self.per_minute, self.per_minute / 60.0, now),
            refused: false,
        });
        if client.bucket.take(now) {
            client.refused = false;
            Connect::Allowed
        } else if client.refused {
            Connect::Refused
        } else {
            client.refused = true;
            Connect::RefusedFirst
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn a_client_holds_at_most_its_share_and_gets_it_back() {
        let clients = Clients::default();
        let a = clients.take(ip("203.0.113.9"), 2).expect("the first");
        let b = clients.take(ip("203.0.113.9"), 2).expect("the second");
        assert!(clients.take(ip("203.0.113.9"), 2).is_none(), "a third");
        assert!(clients.take(ip("203.0.113.10"), 2).is_some(), "another client");
        drop(a);
        let c = clients.take(ip("203.0.113.9"), 2).expect("one given back");
        drop((b, c));
        assert!(clients.lock().is_empty(), "nothing held, nothing kept");
    }

    #[test]
    fn a_client_connects_at_most_its_rate_and_is_logged_once_a_dry_spell() {
        use std::time::Duration;
        let connects = Connects::new(3);
        let t0 = Instant::now();
        let a = ip("203.0.113.9");
        let got: Vec<Connect> = (0..5).map(|_| connects.take(a, t0)).collect();
        assert_eq!(
            got,
            [Connect::Allowed, Connect::Allowed, Connect::Allowed, Connect::RefusedFirst, Connect::Refused]
        );
        assert_eq!(connects.take(ip("203.0.113.10"), t0), Connect::Allowed, "another client");
        assert_eq!(connects.take(ip("2001:db8::1"), t0), Connect::Allowed);
        // Three a minute: one more after 20 seconds, then dry again (and said again).
        let later = t0 + Duration::from_secs(20);
        assert_eq!(connects.take(a, later), Connect::Allowed);
        assert_eq!(connects.take(a, later), Connect::RefusedFirst);
    }

    #[test]
    fn clients_whose_bucket_is_full_again_are_forgotten_past_the_limit() {
        use std::time::Duration;
        let connects = Connects::new(60);
        let t0 = Instant::now();
        for k in 0..REMEMBERED as u32 {
            connects.take(IpAddr::V4(k.into()), t0);
        }
        let later = t0 + Duration::from_secs(2);
        assert_eq!(connects.take(ip("198.51.100.1"), later), Connect::Allowed);
        assert_eq!(connects.buckets.lock().expect("not poisoned").len(), 1, "the full ones forgotten");
    }

    #[test]
    fn an_ipv6_network_is_one_client_and_mapped_ipv4_is_ipv4() {
        assert_eq!(client_key(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(client_key(ip("2001:db8:1:2:bbbb::7")), client_key(ip("2001:db8:1:2::9")));
        assert_ne!(client_key(ip("2001:db8:1:3::1")), client_key(ip("2001:db8:1:2::1")));
        assert_eq!(client_key(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(client_key(ip("192.0.2.1")), ip("192.0.2.1"));
    }
}
