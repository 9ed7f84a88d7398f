//! Whom a request comes from: the address the accounts' limits count and the audit log
//! records. The peer's, or behind a trusted proxy (`--trust-forwarded-for`) the last entry of
//! `X-Forwarded-For`.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Request};

/// Whom the per-address limits count: the peer, or (`--trust-forwarded-for`, behind a proxy
/// that appends it) the last address of `X-Forwarded-For`; an IPv6 address by its /64, the
/// block one subscriber holds (counting each of its addresses apart would count nothing).
pub(crate) fn address(request: &Request, trust_forwarded_for: bool) -> Option<IpAddr> {
    client_ip(request, trust_forwarded_for).map(subscriber_block)
}

/// The client's whole address, as the audit log records it.
pub(crate) fn client_address(request: &Request, trust_forwarded_for: bool) -> Option<String> {
    client_ip(request, trust_forwarded_for).map(|ip| ip.to_canonical().to_string())
}

fn client_ip(request: &Request, trust_forwarded_for: bool) -> Option<IpAddr> {
    // Only the last entry is the proxy's own: any before it came from the client. A last entry
    // that is no address counts the peer instead.
    let forwarded = trust_forwarded_for
        .then(|| {
            request
                .headers()
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .next_back()
                .and_then(|a| a.trim().parse::<IpAddr>().ok())
        })
        .flatten();
    let peer = || {
        request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
    };
    forwarded.or_else(peer)
}

/// The block one subscriber holds, as the limits and the same-address signal count it: an IPv4
/// address (an IPv4-mapped IPv6 one read as IPv4), or an IPv6 /64.
pub(crate) fn subscriber_block(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut octets = v6.octets();
                octets[8..].fill(0);
                IpAddr::V6(octets.into())
            }
        },
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn addresses_are_counted_by_peer_or_trusted_proxy_and_ipv6_by_its_64() {
        let request = |forwarded: Option<&str>, peer: &str| {
            let mut request = Request::new(axum::body::Body::empty());
            if let Some(f) = forwarded {
                request
                    .headers_mut()
                    .insert("x-forwarded-for", HeaderValue::from_str(f).expect("header"));
            }
            let peer: SocketAddr = peer.parse().expect("peer");
            request.extensions_mut().insert(ConnectInfo(peer));
            request
        };
        let ip = |s: &str| Some(s.parse::<IpAddr>().expect("ip"));
        let proxied = request(Some("203.0.113.9, 198.51.100.7"), "10.0.0.2:5000");
        assert_eq!(
            address(&proxied, false),
            ip("10.0.0.2"),
            "not trusted: the peer"
        );
        assert_eq!(
            address(&proxied, true),
            ip("198.51.100.7"),
            "the proxy's own entry"
        );
        let junk = request(Some("198.51.100.7, not an address"), "10.0.0.2:5000");
        assert_eq!(address(&junk, true), ip("10.0.0.2"));
        let v6 = request(None, "[2001:db8:1:2:3:4:5:6]:443");
        assert_eq!(address(&v6, false), ip("2001:db8:1:2::"));
        let mapped = request(None, "[::ffff:192.0.2.1]:443");
        assert_eq!(address(&mapped, false), ip("192.0.2.1"));
    }

    #[test]
    fn an_ipv6_subscriber_is_its_slash_64() {
        let a: IpAddr = "2001:db8:1:2::7".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:ffff::1".parse().expect("ip");
        let c: IpAddr = "2001:db8:1:3::7".parse().expect("ip");
        assert_eq!(subscriber_block(a), subscriber_block(b));
        assert_ne!(subscriber_block(a), subscriber_block(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().expect("ip");
        assert_eq!(
            subscriber_block(mapped),
            "192.0.2.7".parse::<IpAddr>().expect("ip")
        );
    }
}
