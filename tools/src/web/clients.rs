//! How many engines each client holds, so that one client cannot take every engine slot
//! (`--max-engines-per-client`). A client is an IPv4 address, or an IPv6 /64 network (what one
//! subscriber is usually given, so that a host cannot count as many clients by changing its
//! address); behind a trusted proxy, the client its `X-Forwarded-For` names.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

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
    fn an_ipv6_network_is_one_client_and_mapped_ipv4_is_ipv4() {
        assert_eq!(client_key(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(client_key(ip("2001:db8:1:2:bbbb::7")), client_key(ip("2001:db8:1:2::9")));
        assert_ne!(client_key(ip("2001:db8:1:3::1")), client_key(ip("2001:db8:1:2::1")));
        assert_eq!(client_key(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(client_key(ip("192.0.2.1")), ip("192.0.2.1"));
    }
}
