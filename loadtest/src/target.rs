//! Where the load goes: loopback only, with sockets spread over several 127.0.0.x sources.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};

/// Why a target is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    #[error("expected a ws:// URL, not {0:?}")]
    Scheme(String),
    #[error("cannot resolve {0:?}")]
    Resolve(String),
    #[error("{0} is not a loopback address: this tool only loads servers on this machine")]
    NotLoopback(String),
}

/// A loopback WebSocket endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub url: String,
    pub addr: SocketAddr,
}

impl Target {
    /// Accepts `ws://host:port/path` whose host resolves to loopback addresses only.
    pub fn parse(url: &str) -> Result<Target, TargetError> {
        let rest = url
            .strip_prefix("ws://")
            .ok_or_else(|| TargetError::Scheme(url.to_owned()))?;
        let authority = rest.split('/').next().unwrap_or_default();
        let with_port = if authority.contains(':') {
            authority.to_owned()
        } else {
            format!("{authority}:80")
        };
        let addrs: Vec<SocketAddr> = with_port
            .to_socket_addrs()
            .map_err(|_| TargetError::Resolve(authority.to_owned()))?
            .collect();
        let addr = *addrs
            .first()
            .ok_or_else(|| TargetError::Resolve(authority.to_owned()))?;
        if let Some(bad) = addrs.iter().find(|a| !a.ip().is_loopback()) {
            return Err(TargetError::NotLoopback(bad.ip().to_string()));
        }
        Ok(Target {
            url: url.to_owned(),
            addr,
        })
    }
}

/// Source addresses 127.0.0.1 .. 127.0.0.n: each gives its own ~28,000 ephemeral ports.
pub fn sources(n: usize) -> Vec<IpAddr> {
    (1..=n.clamp(1, 250))
        .map(|i| IpAddr::V4(Ipv4Addr::new(127, 0, 0, i as u8)))
        .collect()
}

/// Connections per source address. `bind()` to an address with port 0 picks the port without
/// knowing the destination, from (on Linux) the even half of the ~28,000 ephemeral ports, and
/// gets slow as that half fills: past ~11,000 bound sockets on one address, binding cost the
/// generator both cores during a ramp-up and stalled the server beside it.
pub const PER_SOURCE: usize = 10_000;

/// Enough sources for `connections` sockets at [`PER_SOURCE`] per source.
pub fn sources_for(connections: usize) -> usize {
    connections.div_ceil(PER_SOURCE).max(1)
}

/// Connects a TCP socket to `addr` from `source`, Nagle off. 127.0.0.1 (the source the kernel
/// picks anyway for a loopback destination) is not bound: `connect()` then chooses the port
/// knowing the destination, from the whole range, cheaply. Other sources are bound first.
pub async fn connect_from(
    source: IpAddr,
    addr: SocketAddr,
) -> std::io::Result<tokio::net::TcpStream> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    if addr.is_ipv4() && source.is_ipv4() && source != IpAddr::V4(Ipv4Addr::LOCALHOST) {
        socket.bind(SocketAddr::new(source, 0))?;
    }
    let stream = socket.connect(addr).await?;
    stream.set_nodelay(true)?;
    Ok(stream)
}
