//! Who may open an engine connection: only the page served by this bridge, so that another web
//! site open in the same browser cannot start or drive engines (cross-site WebSocket hijacking),
//! nor reach them through a DNS name rebound to this address.

use std::net::SocketAddr;

/// The `Host` values under which the page can be reached, and so the origins it can have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origins {
    /// Exactly these `host:port` values (a loopback or a specific address).
    Hosts(Vec<String>),
    /// Listening on every address (`0.0.0.0`, `::`): any host name, as long as the origin is the
    /// page's own (`http://` and the request's `Host`).
    AnyHost,
}

impl Origins {
    /// The origins of a bridge listening on `addr`.
    pub fn for_listener(addr: SocketAddr) -> Origins {
        let port = addr.port();
        let ip = addr.ip();
        if ip.is_unspecified() {
            return Origins::AnyHost;
        }
        let mut hosts = vec![addr.to_string()];
        if ip.is_loopback() {
            for name in ["localhost", "127.0.0.1", "[::1]"] {
                let h = format!("{name}:{port}");
                if !hosts.contains(&h) {
                    hosts.push(h);
                }
            }
        }
        Origins::Hosts(hosts)
    }

    /// Whether a request with these `Origin` and `Host` headers comes from the page: the origin is
    /// `http://<host>` and the host is one of the bridge's own.
    pub fn allows(&self, origin: Option<&str>, host: Option<&str>) -> bool {
        let (Some(origin), Some(host)) = (origin, host) else {
            return false;
        };
        let Some(origin_host) = origin.strip_prefix("http://") else {
            return false;
        };
        if !origin_host.eq_ignore_ascii_case(host) {
            return false;
        }
        match self {
            Origins::AnyHost => !host.is_empty(),
            Origins::Hosts(hosts) => hosts.iter().any(|h| h.eq_ignore_ascii_case(host)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> Origins {
        Origins::for_listener("127.0.0.1:8080".parse().expect("an address"))
    }

    #[test]
    fn the_page_own_origin_is_allowed() {
        let o = loopback();
        assert!(o.allows(Some("http://127.0.0.1:8080"), Some("127.0.0.1:8080")));
        assert!(o.allows(Some("http://localhost:8080"), Some("localhost:8080")));
    }

    #[test]
    fn other_sites_and_missing_headers_are_refused() {
        let o = loopback();
        assert!(!o.allows(Some("http://evil.example"), Some("127.0.0.1:8080")));
        assert!(!o.allows(Some("https://127.0.0.1:8080"), Some("127.0.0.1:8080")));
        assert!(!o.allows(Some("null"), Some("127.0.0.1:8080")));
        assert!(!o.allows(None, Some("127.0.0.1:8080")));
        assert!(!o.allows(Some("http://127.0.0.1:8080"), None));
        assert!(!o.allows(Some("http://127.0.0.1:8081"), Some("127.0.0.1:8081")));
    }

    #[test]
    fn a_rebound_name_is_refused_on_loopback() {
        // evil.example resolved to 127.0.0.1: origin and host agree, but the host is not ours.
        assert!(!loopback().allows(Some("http://evil.example:8080"), Some("evil.example:8080")));
    }

    #[test]
    fn every_address_takes_any_host_with_its_own_origin() {
        let o = Origins::for_listener("0.0.0.0:9000".parse().expect("an address"));
        assert_eq!(o, Origins::AnyHost);
        assert!(o.allows(Some("http://box.lan:9000"), Some("box.lan:9000")));
        assert!(!o.allows(Some("http://evil.example"), Some("box.lan:9000")));
    }
}
