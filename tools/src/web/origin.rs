//! Who may open an engine connection: only a page the operator serves, so that another web site
//! open in the same browser cannot start or drive engines (cross-site WebSocket hijacking), nor
//! reach them through a DNS name rebound to this address.
//!
//! A request carries exactly one `Origin` and one `Host` header (a header sent twice is refused,
//! whichever copy comes first). It is let in when either
//! - its origin is one of the public origins (`--public-origin`, compared exactly: scheme, name and
//!   port) and its `Host` is a name the operator allows: a public origin's name (with that
//!   origin's port or none, as a proxy may send it), an `--allow-host` value, or one of the
//!   bridge's own hosts below (a proxy that sends the upstream's address); or
//! - it comes straight from the page the bridge serves: its origin is `http://` and its `Host`,
//!   and that host is one of the bridge's own: `localhost` or a loopback address, or the bound
//!   address, with the bound port. On a wildcard address (`0.0.0.0`, `::`) any IP literal with the
//!   bound port is the bridge's own, but no other name: a rebound name is a name, never an
//!   address, and a name the operator serves must be given with `--public-origin`.

use std::fmt;
use std::net::{IpAddr, SocketAddr};

/// An origin `scheme://name[:port]`, with the port made explicit and the name in lower case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicOrigin {
    scheme: Scheme,
    name: String,
    port: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scheme {
    Http,
    Https,
}

impl Scheme {
    fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

/// Why an `--public-origin` or `--allow-host` value is not one.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OriginError {
    #[error("`{0}` is not an origin: write scheme://name[:port] with scheme http or https")]
    NotAnOrigin(String),
    #[error("`{0}` is not a host: write name[:port]")]
    NotAHost(String),
}

impl std::str::FromStr for PublicOrigin {
    type Err = OriginError;

    /// Parses `http://name[:port]` or `https://name[:port]`; one trailing `/` is allowed, a path is
    /// not (an origin has none).
    fn from_str(text: &str) -> Result<PublicOrigin, OriginError> {
        parse_origin(text.strip_suffix('/').unwrap_or(text))
            .ok_or_else(|| OriginError::NotAnOrigin(text.to_string()))
    }
}

impl fmt::Display for PublicOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = match self.scheme {
            Scheme::Http => "http",
            Scheme::Https => "https",
        };
        if self.port == self.scheme.default_port() {
            write!(f, "{scheme}://{}", self.name)
        } else {
            write!(f, "{scheme}://{}:{}", self.name, self.port)
        }
    }
}

/// A `Host` header's value: a name (a DNS name, an IPv4 address or a bracketed IPv6 one) and the
/// port when given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostName {
    name: String,
    port: Option<u16>,
}

impl std::str::FromStr for HostName {
    type Err = OriginError;

    fn from_str(text: &str) -> Result<HostName, OriginError> {
        parse_host(text).ok_or_else(|| OriginError::NotAHost(text.to_string()))
    }
}

fn parse_origin(text: &str) -> Option<PublicOrigin> {
    let text = text.to_ascii_lowercase();
    let (scheme, rest) = if let Some(rest) = text.strip_prefix("http://") {
        (Scheme::Http, rest)
    } else if let Some(rest) = text.strip_prefix("https://") {
        (Scheme::Https, rest)
    } else {
        return None;
    };
    let host = parse_host(rest)?;
    Some(PublicOrigin { scheme, port: host.port.unwrap_or(scheme.default_port()), name: host.name })
}

fn parse_host(text: &str) -> Option<HostName> {
    let (name, port) = if text.starts_with('[') {
        let end = text.find(']')?;
        let (name, rest) = text.split_at(end + 1);
        match rest {
            "" => (name, None),
            _ => (name, Some(rest.strip_prefix(':')?)),
        }
    } else {
        match text.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (text, None),
        }
    };
    let port = match port {
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => Some(p.parse().ok()?),
        Some(_) => return None,
        None => None,
    };
    let valid = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_');
    let ok = if let Some(inner) = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        inner.parse::<std::net::Ipv6Addr>().is_ok()
    } else {
        !name.is_empty() && name.bytes().all(valid)
    };
    ok.then(|| HostName { name: name.to_ascii_lowercase(), port })
}

impl HostName {
    /// The address the name spells, if it is an IP literal.
    fn ip(&self) -> Option<IpAddr> {
        match self.name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
            Some(v6) => v6.parse().ok(),
            None => self.name.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4),
        }
    }
}

/// Who may connect: the bridge's own address and what the operator allows.
#[derive(Clone, Debug)]
pub struct Origins {
    bound: SocketAddr,
    public: Vec<PublicOrigin>,
    hosts: Vec<HostName>,
}

/// Why a request was refused, for the log and the 403's body.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Refusal {
    #[error("no {0} header")]
    Missing(&'static str),
    #[error("the {0} header is sent more than once")]
    Repeated(&'static str),
    #[error("the {0} header is not valid")]
    Invalid(&'static str),
    #[error("the origin is not one this bridge serves")]
    ForeignOrigin,
    #[error("the Host is not a name this bridge serves")]
    ForeignHost,
}

impl Origins {
    /// The gate of a bridge listening on `bound`, with the operator's public origins and extra
    /// allowed `Host` values.
    pub fn new(bound: SocketAddr, public: Vec<PublicOrigin>, hosts: Vec<HostName>) -> Origins {
        Origins { bound, public, hosts }
    }

    /// The gate of a bridge listening on `addr` that serves its page itself and nothing else.
    pub fn for_listener(addr: SocketAddr) -> Origins {
        Origins::new(addr, Vec::new(), Vec::new())
    }

    /// Whether a request with these `Origin` and `Host` header values (every copy of each, in
    /// order) may open an engine connection.
    ///
    /// # Errors
    /// Says why it may not.
    pub fn check(&self, origins: &[&[u8]], hosts: &[&[u8]]) -> Result<(), Refusal> {
        let origin = single("Origin", origins)?;
        let host = single("Host", hosts)?;
        let host = parse_host(host).ok_or(Refusal::Invalid("Host"))?;
        let Some(origin) = parse_origin(origin) else {
            // `null` and anything else that is no http(s) origin.
            return Err(Refusal::ForeignOrigin);
        };
        if self.public.contains(&origin) {
            return if self.is_public_host(&host) || self.is_own_host(&host) {
                Ok(())
            } else {
                Err(Refusal::ForeignHost)
            };
        }
        let same = origin.scheme == Scheme::Http
            && origin.name == host.name
            && origin.port == host.port.unwrap_or(Scheme::Http.default_port());
        if !same {
            return Err(Refusal::ForeignOrigin);
        }
        if self.is_own_host(&host) {
            Ok(())
        } else {
            Err(Refusal::ForeignHost)
        }
    }

    /// `localhost`, a loopback address or the bound address (any IP literal when bound to every
    /// address), with the bound port.
    fn is_own_host(&self, host: &HostName) -> bool {
        if host.port.unwrap_or(Scheme::Http.default_port()) != self.bound.port() {
            return false;
        }
        if host.name == "localhost" {
            return true;
        }
        match host.ip() {
            Some(ip) => ip.is_loopback() || self.bound.ip().is_unspecified() || ip == self.bound.ip(),
            None => false,
        }
    }

    fn is_public_host(&self, host: &HostName) -> bool {
        let public = self.public.iter().any(|o| o.name == host.name && host.port.is_none_or(|p| p == o.port));
        let allowed =
            self.hosts.iter().any(|h| h.name == host.name && h.port.is_none_or(|p| Some(p) == host.port));
        public || allowed
    }
}

/// The one value of a header, refusing a missing or repeated one.
fn single<'a>(name: &'static str, values: &[&'a [u8]]) -> Result<&'a str, Refusal> {
    match values {
        [] => Err(Refusal::Missing(name)),
        [one] => std::str::from_utf8(one).map(str::trim).map_err(|_| Refusal::Invalid(name)),
        _ => Err(Refusal::Repeated(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(addr: &str) -> Origins {
        Origins::for_listener(addr.parse().expect("an address"))
    }

    fn check(o: &Origins, origin: &str, host: &str) -> Result<(), Refusal> {
        o.check(&[origin.as_bytes()], &[host.as_bytes()])
    }

    #[test]
    fn the_page_own_origin_is_allowed() {
        let o = gate("127.0.0.1:8080");
        assert_eq!(check(&o, "http://127.0.0.1:8080", "127.0.0.1:8080"), Ok(()));
        assert_eq!(check(&o, "http://localhost:8080", "localhost:8080"), Ok(()));
        assert_eq!(check(&o, "http://[::1]:8080", "[::1]:8080"), Ok(()));
    }

    #[test]
    fn other_sites_and_missing_headers_are_refused() {
        let o = gate("127.0.0.1:8080");
        assert_eq!(check(&o, "http://evil.example", "127.0.0.1:8080"), Err(Refusal::ForeignOrigin));
        assert_eq!(check(&o, "https://127.0.0.1:8080", "127.0.0.1:8080"), Err(Refusal::ForeignOrigin));
        assert_eq!(check(&o, "null", "127.0.0.1:8080"), Err(Refusal::ForeignOrigin));
        assert_eq!(o.check(&[], &[b"127.0.0.1:8080"]), Err(Refusal::Missing("Origin")));
        assert_eq!(o.check(&[b"http://127.0.0.1:8080"], &[]), Err(Refusal::Missing("Host")));
        assert_eq!(check(&o, "http://127.0.0.1:8081", "127.0.0.1:8081"), Err(Refusal::ForeignHost));
        assert_eq!(check(&o, "http://127.0.0.1:8080", "127.0.0.1:8080/x"), Err(Refusal::Invalid("Host")));
    }

    #[test]
    fn a_header_sent_twice_is_refused_whichever_copy_is_first() {
        let o = gate("127.0.0.1:8080");
        let good = b"http://127.0.0.1:8080".as_slice();
        let evil = b"http://evil.example:8080".as_slice();
        let host = b"127.0.0.1:8080".as_slice();
        assert_eq!(o.check(&[good, evil], &[host]), Err(Refusal::Repeated("Origin")));
        assert_eq!(o.check(&[good, good], &[host]), Err(Refusal::Repeated("Origin")));
        assert_eq!(o.check(&[good], &[host, b"evil.example:8080"]), Err(Refusal::Repeated("Host")));
    }

    #[test]
    fn a_rebound_name_is_refused_on_loopback_and_on_every_address() {
        // evil.example resolved to this address: origin and host agree, but the name is not ours.
        for addr in ["127.0.0.1:8080", "0.0.0.0:8080", "[::]:8080"] {
            let o = gate(addr);
            assert_eq!(
                check(&o, "http://evil.example:8080", "evil.example:8080"),
                Err(Refusal::ForeignHost),
                "{addr}"
            );
            assert_eq!(
                check(&o, "http://EVIL.example:8080", "evil.EXAMPLE:8080"),
                Err(Refusal::ForeignHost),
                "{addr}"
            );
        }
    }

    #[test]
    fn every_address_takes_ip_literals_with_its_own_origin() {
        let o = gate("0.0.0.0:9000");
        assert_eq!(check(&o, "http://192.168.1.5:9000", "192.168.1.5:9000"), Ok(()));
        assert_eq!(check(&o, "http://[fe80::1]:9000", "[fe80::1]:9000"), Ok(()));
        assert_eq!(check(&o, "http://localhost:9000", "localhost:9000"), Ok(()));
        assert_eq!(check(&o, "http://box.lan:9000", "box.lan:9000"), Err(Refusal::ForeignHost));
        assert_eq!(check(&o, "http://192.168.1.5:9001", "192.168.1.5:9001"), Err(Refusal::ForeignHost));
        assert_eq!(check(&o, "http://evil.example", "192.168.1.5:9000"), Err(Refusal::ForeignOrigin));
    }

    #[test]
    fn a_specific_address_takes_itself_and_loopback_only() {
        let o = gate("192.168.1.5:9000");
        assert_eq!(check(&o, "http://192.168.1.5:9000", "192.168.1.5:9000"), Ok(()));
        assert_eq!(check(&o, "http://10.0.0.1:9000", "10.0.0.1:9000"), Err(Refusal::ForeignHost));
    }

    #[test]
    fn public_origins_are_matched_exactly_and_their_names_allowed_as_hosts() {
        let public = vec!["https://zatre.example.org".parse().expect("an origin")];
        let hosts = vec!["zatre-upstream".parse().expect("a host")];
        let o = Origins::new("127.0.0.1:8081".parse().expect("an address"), public, hosts);
        for host in [
            "zatre.example.org",
            "zatre.example.org:443",
            "127.0.0.1:8081",
            "zatre-upstream",
            "zatre-upstream:8081",
        ] {
            assert_eq!(check(&o, "https://zatre.example.org", host), Ok(()), "{host}");
        }
        assert_eq!(
            check(&o, "https://zatre.example.org:443", "zatre.example.org"),
            Ok(()),
            "the default port"
        );
        // Not the public origin; as the page's own origin, a name that is not the bridge's.
        assert_eq!(check(&o, "http://zatre.example.org", "zatre.example.org"), Err(Refusal::ForeignHost));
        assert_eq!(
            check(&o, "https://zatre.example.org.evil", "zatre.example.org"),
            Err(Refusal::ForeignOrigin)
        );
        assert_eq!(
            check(&o, "https://zatre.example.org:8443", "zatre.example.org"),
            Err(Refusal::ForeignOrigin)
        );
        assert_eq!(check(&o, "https://zatre.example.org", "evil.example"), Err(Refusal::ForeignHost));
        assert_eq!(
            check(&o, "https://zatre.example.org", "zatre.example.org:8443"),
            Err(Refusal::ForeignHost)
        );
        // A public origin does not let foreign pages in under the bridge's own names.
        assert_eq!(check(&o, "http://evil.example", "zatre.example.org"), Err(Refusal::ForeignOrigin));
    }

    #[test]
    fn origins_and_hosts_parse_and_print() {
        let o: PublicOrigin = "HTTPS://Zatre.Example.org:443/".parse().expect("an origin");
        assert_eq!(o.to_string(), "https://zatre.example.org");
        let o: PublicOrigin = "http://127.0.0.1:8443".parse().expect("an origin");
        assert_eq!(o.to_string(), "http://127.0.0.1:8443");
        for bad in
            ["zatre.example.org", "ftp://x", "https://x/path", "https://", "https://x:99999", "https://a b"]
        {
            assert!(bad.parse::<PublicOrigin>().is_err(), "{bad}");
        }
        assert!("[::1]:80".parse::<HostName>().is_ok());
        assert!("[zz]:80".parse::<HostName>().is_err());
    }
}
