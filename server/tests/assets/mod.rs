use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::*;

/// A raw HTTP/1.1 GET: status, headers (lowercase names), body.
async fn get(addr: SocketAddr, path: &str, extra: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{extra}\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8_lossy(&response[..split]).into_owned();
    let body = response[split + 4..].to_vec();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

#[tokio::test]
async fn the_browser_client_is_served_at_the_root_and_nothing_else_is() {
    let server = TestServer::start().await;
    let (status, headers, body) = get(server.addr, "/", "").await;
    if let Some(index) = burraco_server::assets::get("index.html") {
        assert_eq!(status, 200);
        assert_eq!(
            header(&headers, "content-type"),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(body, index.bytes, "/ is index.html, byte for byte");
        assert!(
            String::from_utf8_lossy(&body)
                .to_ascii_lowercase()
                .contains("<html")
        );
        let etag = header(&headers, "etag").expect("an etag").to_owned();
        assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
        // Revalidation: a 304 without a body.
        let (status, _, body) = get(server.addr, "/", &format!("If-None-Match: {etag}\r\n")).await;
        assert_eq!((status, body.len()), (304, 0));
        // Every embedded file by its path, with its type.
        for asset in burraco_server::assets::ASSETS {
            let (status, headers, body) = get(server.addr, &format!("/{}", asset.path), "").await;
            assert_eq!(status, 200, "{}", asset.path);
            assert_eq!(header(&headers, "content-type"), Some(asset.content_type));
            assert_eq!(body, asset.bytes);
        }
        if let Some(js) = burraco_server::assets::ASSETS
            .iter()
            .find(|a| a.path.ends_with(".js"))
        {
            assert_eq!(js.content_type, "text/javascript; charset=utf-8");
        }
    } else {
        // Built without a client: the root is a clean 404.
        assert_eq!(status, 404);
    }
    // The client's tooling is not embedded, and only table lookups happen: no traversal.
    for path in [
        "/no-such-file.js",
        "/package.json",
        "/package-lock.json",
        "/jsconfig.json",
        "/README.md",
        "/.gitignore",
        "/node_modules/ws/package.json",
        "/e2e/run.mjs",
        "/../Cargo.toml",
        "/js/../../Cargo.toml",
        "/%2e%2e/%2e%2e/Cargo.toml",
        "/..%2f..%2fCargo.toml",
        "//etc/passwd",
        "/index.html/",
    ] {
        let (status, _, _) = get(server.addr, path, "").await;
        assert_eq!(status, 404, "{path}");
    }
    // The API routes are untouched by the fallback.
    let (status, body) = server.http_get("/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    server.stop().await;
}
