//! Bot accounts and personal tokens at the raw HTTP / WebSocket level (protocol 1.4): tokens
//! created, listed, used and revoked; their scopes; the upgrade with `Authorization: Bearer`, a
//! session cookie (its `Origin` checked) or a `hello_token`; the `identity` after the welcome; a
//! revoke closing the token's connections within a second, on this node and on another one
//! sharing the database; a guest kept off registered names.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use burraco_protocol::codec;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::http::{Reply, http, http_post};
use crate::common::TestServer;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Signs `name` up; its session cookie's token.
async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let body = json!({"username": name, "password": "correct horse"}).to_string();
    let reply = http_post(addr, "/api/signup", None, &body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    reply.token()
}

fn cookie(session: &str) -> String {
    format!("burraco_session={session}")
}

/// `POST /api/tokens` with the session cookie.
async fn create_token(addr: SocketAddr, session: &str, body: Value) -> Reply {
    let cookie = cookie(session);
    http(
        addr,
        "POST",
        "/api/tokens",
        &[("Cookie", &cookie)],
        &body.to_string(),
    )
    .await
}

/// A new token with these scopes: (its id, the token).
async fn token_with(addr: SocketAddr, session: &str, scopes: &[&str]) -> (String, String) {
    let reply = create_token(addr, session, json!({"label": "my bot", "scopes": scopes})).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let body = reply.json();
    (
        body["id"].as_str().expect("id").to_owned(),
        body["token"].as_str().expect("token").to_owned(),
    )
}

async fn bearer_get(addr: SocketAddr, path: &str, token: &str) -> Reply {
    let auth = format!("Bearer {token}");
    http(addr, "GET", path, &[("Authorization", &auth)], "").await
}

/// The upgrade on the raw socket, with extra headers: the HTTP answer.
async fn raw_upgrade(addr: SocketAddr, headers: &[(&str, &str)]) -> Reply {
    let mut all = vec![
        ("Connection", "Upgrade"),
        ("Upgrade", "websocket"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    all.extend_from_slice(headers);
    // A 101 keeps the socket open: the helper's read ends on its 20 s timeout otherwise, so
    // only refusals are read this way.
    http(addr, "GET", "/ws", &all, "").await
}

/// Opens a WebSocket with extra upgrade headers.
async fn ws_with(addr: SocketAddr, headers: &[(&str, &str)]) -> Result<Ws, String> {
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("request");
    for (name, value) in headers {
        request.headers_mut().insert(
            axum::http::HeaderName::from_bytes(name.as_bytes()).expect("name"),
            value.parse().expect("value"),
        );
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, _)) => Ok(ws),
        Err(e) => Err(e.to_string()),
    }
}

async fn send(ws: &mut Ws, message: &ClientMessage) {
    ws.send(Message::text(codec::to_json(message)))
        .await
        .expect("send");
}

/// The next message; `Err(close code)` when the server closed.
async fn read(ws: &mut Ws) -> Result<ServerMessage, Option<u16>> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame in time");
        match frame {
            Some(Ok(Message::Text(text))) => {
                return Ok(codec::from_json(text.as_str(), usize::MAX)
                    .result
                    .expect("a server message"));
            }
            Some(Ok(Message::Close(frame))) => return Err(frame.map(|f| u16::from(f.code))),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Err(None),
        }
    }
}

fn hello(name: &str) -> ClientMessage {
    ClientMessage::Hello {
        version: "1.4".into(),
        name: name.into(),
        resume: None,
    }
}

/// Says `first`; the welcome's name and the identity's kind, account and name.
async fn greeted(ws: &mut Ws, first: &ClientMessage) -> (String, String, Option<String>, String) {
    send(ws, first).await;
    let welcome = read(ws).await.expect("a welcome");
    let ServerMessage::Welcome { name: welcomed, .. } = welcome else {
        panic!("expected welcome, got {welcome:?}");
    };
    let identity = read(ws).await.expect("the identity");
    let ServerMessage::Identity {
        kind,
        account,
        name,
    } = identity
    else {
        panic!("expected identity, got {identity:?}");
    };
    (welcomed, kind, account, name)
}

/// The error a refused hello gets, and the close code after it.
async fn refused(ws: &mut Ws, first: &ClientMessage) -> (String, Option<u16>) {
    send(ws, first).await;
    let error = read(ws).await.expect("an error");
    let ServerMessage::Error { code, .. } = error else {
        panic!("expected an error, got {error:?}");
    };
    let closed = loop {
        match read(ws).await {
            Ok(_) => continue,
            Err(code) => break code,
        }
    };
    (code, closed)
}

/// The close code the server sends within `limit`, the socket otherwise idle.
async fn closed_within(ws: &mut Ws, limit: Duration) -> Option<u16> {
    tokio::time::timeout(limit, async {
        loop {
            match read(ws).await {
                Ok(_) => continue,
                Err(code) => return code,
            }
        }
    })
    .await
    .expect("closed in time")
}

async fn request(ws: &mut Ws, message: ClientMessage) -> ServerMessage {
    let id = message.id();
    send(ws, &message).await;
    loop {
        let reply = read(ws).await.expect("a reply");
        let reply_id = match &reply {
            ServerMessage::Error { id, .. } => *id,
            ServerMessage::TableCreated { id, .. }
            | ServerMessage::Seated { id, .. }
            | ServerMessage::Pong { id }
            | ServerMessage::Ok { id }
            | ServerMessage::Tables { id, .. } => Some(*id),
            _ => None,
        };
        if reply_id == id {
            return reply;
        }
    }
}

fn error_code(message: &ServerMessage) -> Option<&str> {
    match message {
        ServerMessage::Error { code, .. } => Some(code),
        _ => None,
    }
}

fn create_table(id: u64) -> ClientMessage {
    let settings: burraco_protocol::wire::WireSettings = serde_json::from_value(
        json!({"preset": "fitab", "players": 2, "hands": 1, "target": null,
            "clocks": "off", "semipulito": null, "close_requires_pulito": null}),
    )
    .expect("settings");
    ClientMessage::CreateTable {
        id,
        settings,
        private: false,
        bots: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn personal_tokens_are_created_listed_scoped_used_and_revoked() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let session = sign_up(addr, "Anna").await;

    // Created: shown once, with the prefix and a checksum.
    let reply = create_token(
        addr,
        &session,
        json!({"label": "my bot", "scopes": ["play", "read_account"]}),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let body = reply.json();
    let (id, token) = (
        body["id"].as_str().expect("id").to_owned(),
        body["token"].as_str().expect("token").to_owned(),
    );
    assert!(token.starts_with("brc_") && token.len() == 53, "{token}");
    assert!(burraco_server::accounts::tokens::well_formed(&token));
    assert_eq!(body["scopes"], json!(["play", "read_account"]));
    let year = body["expires_ms"].as_i64().expect("expiry")
        - body["created_ms"].as_i64().expect("created");
    assert_eq!(year, 365 * 24 * 3600 * 1000, "a year by default");

    // Listed without the token itself, not used yet.
    let cookie_header = cookie(&session);
    let list = http(
        addr,
        "GET",
        "/api/tokens",
        &[("Cookie", &cookie_header)],
        "",
    )
    .await;
    assert_eq!(list.status, 200);
    let listed = list.json();
    assert_eq!(listed[0]["id"], id.as_str());
    assert!(listed[0].get("token").is_none());
    assert!(!list.body.contains(&token));
    assert_eq!(listed[0]["last_used_ms"], Value::Null);

    // Bad requests: typed.
    for (body, code) in [
        (json!({"scopes": []}), "invalid_scopes"),
        (json!({"scopes": ["play", "admin"]}), "invalid_scopes"),
        (
            json!({"scopes": ["play"], "expires_days": 0}),
            "invalid_token_settings",
        ),
        (
            json!({"scopes": ["play"], "expires_days": 400}),
            "invalid_token_settings",
        ),
        (json!({"scopes": ["play"], "owner": "x"}), "bad_json"),
    ] {
        let reply = create_token(addr, &session, body.clone()).await;
        assert_eq!(
            (reply.status, reply.code()),
            (400, code.to_owned()),
            "{body}"
        );
    }
    let no_cookie = http_post(
        addr,
        "/api/tokens",
        None,
        &json!({"scopes": ["play"]}).to_string(),
    )
    .await;
    assert_eq!(
        (no_cookie.status, no_cookie.code()),
        (401, "not_signed_in".into())
    );

    // The token reads the account (read_account), and its use is recorded.
    let account = bearer_get(addr, "/api/account", &token).await;
    assert_eq!(account.status, 200, "{}", account.body);
    assert_eq!(account.json()["username"], "Anna");
    assert_eq!(account.json()["bot"], false);
    let listed = http(
        addr,
        "GET",
        "/api/tokens",
        &[("Cookie", &cookie_header)],
        "",
    )
    .await
    .json();
    assert!(listed[0]["last_used_ms"].as_i64().is_some(), "{listed}");
    assert_eq!(listed[0]["last_address"], "127.0.0.1");

    // A token cannot act as a browser session: the cookie endpoints refuse it.
    for (method, path) in [
        ("GET", "/api/me"),
        ("GET", "/api/sessions"),
        ("GET", "/api/tokens"),
        ("POST", "/api/account/bot"),
        ("POST", "/api/logout/everywhere"),
    ] {
        let auth = format!("Bearer {token}");
        let reply = http(addr, method, path, &[("Authorization", &auth)], "").await;
        assert_eq!(
            (reply.status, reply.code()),
            (401, "cookie_required".into()),
            "{path}"
        );
    }
    // Nor does it pass for a cookie.
    let as_cookie = cookie(&token);
    let reply = http(addr, "GET", "/api/me", &[("Cookie", &as_cookie)], "").await;
    assert_eq!(reply.code(), "not_signed_in");

    // Without read_account: refused; a typo: refused before any query.
    let (_, play_only) = token_with(addr, &session, &["play"]).await;
    let reply = bearer_get(addr, "/api/account", &play_only).await;
    assert_eq!((reply.status, reply.code()), (403, "missing_scope".into()));
    let mut typo = token.clone().into_bytes();
    typo[10] = if typo[10] == b'a' { b'b' } else { b'a' };
    let typo = String::from_utf8(typo).expect("ascii");
    let reply = bearer_get(addr, "/api/account", &typo).await;
    assert_eq!((reply.status, reply.code()), (401, "invalid_token".into()));

    // On the socket: the bearer upgrade plays as the account, under its name, within scopes.
    let auth = format!("Bearer {play_only}");
    let mut bot = ws_with(addr, &[("Authorization", &auth)])
        .await
        .expect("upgrade");
    let (welcomed, kind, account_id, name) = greeted(&mut bot, &hello("Whoever")).await;
    assert_eq!(
        (welcomed.as_str(), kind.as_str(), name.as_str()),
        ("Anna", "player", "Anna")
    );
    assert!(account_id.is_some_and(|a| a.starts_with("u-")));
    let refused_create = request(&mut bot, create_table(1)).await;
    assert_eq!(
        error_code(&refused_create),
        Some("missing_scope"),
        "{refused_create:?}"
    );
    let quick = request(
        &mut bot,
        ClientMessage::QuickPlay {
            id: 2,
            preset: None,
            players: Some(2),
        },
    )
    .await;
    assert!(matches!(quick, ServerMessage::Seated { .. }), "{quick:?}");

    // The same token in a hello_token, on a plain upgrade.
    let mut second = ws_with(addr, &[]).await.expect("upgrade");
    let first = ClientMessage::HelloToken {
        version: "1.4".into(),
        name: "ignored".into(),
        resume: None,
        token: play_only.clone(),
    };
    let (welcomed, kind, _, _) = greeted(&mut second, &first).await;
    assert_eq!((welcomed.as_str(), kind.as_str()), ("Anna", "player"));

    // Revoked: both connections close (4003) within a second; the token is refused after.
    let listed = http(
        addr,
        "GET",
        "/api/tokens",
        &[("Cookie", &cookie_header)],
        "",
    )
    .await
    .json();
    let play_only_id = listed
        .as_array()
        .expect("list")
        .iter()
        .find(|t| t["scopes"] == json!(["play"]))
        .and_then(|t| t["id"].as_str())
        .expect("the play token")
        .to_owned();
    let started = Instant::now();
    let path = format!("/api/tokens/{play_only_id}");
    let revoked = http(addr, "DELETE", &path, &[("Cookie", &cookie_header)], "").await;
    assert_eq!(revoked.status, 204, "{}", revoked.body);
    assert_eq!(
        closed_within(&mut bot, Duration::from_secs(1)).await,
        Some(4003)
    );
    assert_eq!(
        closed_within(&mut second, Duration::from_secs(1)).await,
        Some(4003)
    );
    assert!(started.elapsed() < Duration::from_secs(1));
    let upgrade = raw_upgrade(addr, &[("Authorization", &auth)]).await;
    assert_eq!(
        (upgrade.status, upgrade.code()),
        (401, "invalid_token".into())
    );
    let mut third = ws_with(addr, &[]).await.expect("upgrade");
    assert_eq!(
        refused(&mut third, &first).await,
        ("invalid_token".into(), Some(1008))
    );
    let again = http(addr, "DELETE", &path, &[("Cookie", &cookie_header)], "").await;
    assert_eq!((again.status, again.code()), (404, "no_such_token".into()));
    // Another scheme (a proxy's Basic authentication passed on) is not a token: a guest.
    let mut basic = ws_with(addr, &[("Authorization", "Basic YW5uYTpwdw==")])
        .await
        .expect("upgrade");
    assert_eq!(greeted(&mut basic, &hello("Basil")).await.1, "guest");
    let lower = format!("bearer {token}");
    let reply = http(
        addr,
        "GET",
        "/api/account",
        &[("Authorization", &lower)],
        "",
    )
    .await;
    assert_eq!(reply.status, 200, "the scheme is case-insensitive");

    // The other token still works.
    assert_eq!(bearer_get(addr, "/api/account", &token).await.status, 200);
    let _ = id;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_holds_a_limited_number_of_connections_and_shares_one_rate() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let session = sign_up(addr, "Robo").await;
    let (_, token) = token_with(addr, &session, &["play"]).await;
    let auth = format!("Bearer {token}");
    let max = burraco_server::accounts::live::MAX_CONNECTIONS;
    let mut open = Vec::new();
    for _ in 0..max {
        let mut ws = ws_with(addr, &[("Authorization", &auth)])
            .await
            .expect("upgrade");
        greeted(&mut ws, &hello("x")).await;
        open.push(ws);
    }
    let mut over = ws_with(addr, &[("Authorization", &auth)])
        .await
        .expect("upgrade");
    assert_eq!(
        refused(&mut over, &hello("x")).await,
        ("too_many_connections".into(), Some(1008))
    );
    // One closes: a new one is let in.
    let mut first = open.remove(0);
    first.close(None).await.expect("close");
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut ws = ws_with(addr, &[("Authorization", &auth)])
            .await
            .expect("upgrade");
        send(&mut ws, &hello("x")).await;
        match read(&mut ws).await {
            Ok(ServerMessage::Welcome { .. }) => break,
            other => {
                assert!(Instant::now() < deadline, "never let in again: {other:?}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
    // The token's connections share one rate: a burst over it from two of them is refused.
    let (a, b) = open.split_at_mut(1);
    let (a, b) = (&mut a[0], &mut b[0]);
    for i in 0..60u64 {
        send(a, &ClientMessage::Ping { id: i }).await;
        send(b, &ClientMessage::Ping { id: i }).await;
    }
    let mut limited = 0;
    for ws in [a, b] {
        for _ in 0..60 {
            if let Ok(ServerMessage::Error { code, .. }) = read(ws).await {
                assert_eq!(code, "rate_limited");
                limited += 1;
            }
        }
    }
    assert!(limited > 0, "120 pings at once exceed the token's burst");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_becomes_a_bot_account_for_good_and_is_told_so() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let session = sign_up(addr, "RoboCarla").await;
    let cookie_header = cookie(&session);
    // A player first.
    let mut ws = ws_with(addr, &[("Cookie", &cookie_header)])
        .await
        .expect("upgrade");
    let (_, kind, _, _) = greeted(&mut ws, &hello("x")).await;
    assert_eq!(kind, "player");
    // No rated games (none exist yet): it may become a bot account, and it stays one.
    for _ in 0..2 {
        let reply = http(
            addr,
            "POST",
            "/api/account/bot",
            &[("Cookie", &cookie_header)],
            "",
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(reply.json()["bot"], true);
    }
    let no_cookie = http(addr, "POST", "/api/account/bot", &[], "").await;
    assert_eq!(no_cookie.code(), "not_signed_in");
    let mut ws = ws_with(addr, &[("Cookie", &cookie_header)])
        .await
        .expect("upgrade");
    let (welcomed, kind, account, name) = greeted(&mut ws, &hello("x")).await;
    assert_eq!(
        (welcomed.as_str(), kind.as_str(), name.as_str()),
        ("RoboCarla", "bot", "RoboCarla")
    );
    assert!(account.is_some());
    // Its token says bot too.
    let (_, token) = token_with(addr, &session, &["play", "read_account"]).await;
    assert_eq!(
        bearer_get(addr, "/api/account", &token).await.json()["bot"],
        true
    );
    let mut ws = ws_with(addr, &[]).await.expect("upgrade");
    let first = ClientMessage::HelloToken {
        version: "1.4".into(),
        name: "x".into(),
        resume: None,
        token,
    };
    assert_eq!(greeted(&mut ws, &first).await.1, "bot");
    // A guest is a guest; a 1.3 hello gets no identity message (nothing newer than it said).
    let mut guest = ws_with(addr, &[]).await.expect("upgrade");
    let (_, kind, account, name) = greeted(&mut guest, &hello("Dario")).await;
    assert_eq!(
        (kind.as_str(), account, name.as_str()),
        ("guest", None, "Dario")
    );
    let mut old = ws_with(addr, &[]).await.expect("upgrade");
    send(
        &mut old,
        &ClientMessage::Hello {
            version: "1.3".into(),
            name: "Elena".into(),
            resume: None,
        },
    )
    .await;
    assert!(matches!(
        read(&mut old).await,
        Ok(ServerMessage::Welcome { .. })
    ));
    let pong = request(&mut old, ClientMessage::Ping { id: 9 }).await;
    assert!(
        matches!(pong, ServerMessage::Pong { id: 9 }),
        "no identity before it: {pong:?}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_cannot_take_a_registered_name_and_a_player_plays_under_theirs() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let session = sign_up(addr, "Anna").await;
    for taken in [
        "Anna",
        "anna",
        "ＡＮＮＡ",
        "\u{0430}nn\u{0430}",
        "\u{0391}NN\u{0391}",
    ] {
        let mut ws = ws_with(addr, &[]).await.expect("upgrade");
        assert_eq!(
            refused(&mut ws, &hello(taken)).await,
            ("name_registered".into(), Some(1008)),
            "{taken}"
        );
    }
    // Older clients are kept off it too (the code is a refusal they read as such).
    let mut ws = ws_with(addr, &[]).await.expect("upgrade");
    let old = ClientMessage::Hello {
        version: "1.0".into(),
        name: "ANNA".into(),
        resume: None,
    };
    assert_eq!(refused(&mut ws, &old).await.0, "name_registered");
    let mut ws = ws_with(addr, &[]).await.expect("upgrade");
    assert_eq!(greeted(&mut ws, &hello("Anna Maria")).await.1, "guest");
    // Signed in (the cookie, from the server's own page), Anna is Anna whatever she types.
    let cookie_header = cookie(&session);
    let own = format!("http://{addr}");
    let mut ws = ws_with(addr, &[("Cookie", &cookie_header), ("Origin", &own)])
        .await
        .expect("upgrade");
    let (welcomed, kind, _, _) = greeted(&mut ws, &hello("Zed")).await;
    assert_eq!((welcomed.as_str(), kind.as_str()), ("Anna", "player"));
    // A cookie whose session ended is a guest's upgrade, not a refusal.
    let out = http_post(addr, "/api/logout", Some(&session), "").await;
    assert_eq!(out.status, 204);
    let mut ws = ws_with(addr, &[("Cookie", &cookie_header)])
        .await
        .expect("upgrade");
    assert_eq!(greeted(&mut ws, &hello("Zed")).await.1, "guest");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_another_site_cannot_open_a_socket_with_a_players_cookie() {
    let server = TestServer::with(|config| {
        config.allowed_origins = vec!["https://burraco.example".into()];
    })
    .await;
    let addr = server.addr;
    let session = sign_up(addr, "Anna").await;
    let cookie_header = cookie(&session);
    let refused = raw_upgrade(
        addr,
        &[
            ("Cookie", &cookie_header),
            ("Origin", "https://evil.example"),
        ],
    )
    .await;
    assert_eq!(
        (refused.status, refused.code()),
        (403, "origin_refused".into())
    );
    assert!(
        ws_with(addr, &[("Cookie", &cookie_header), ("Origin", "null")])
            .await
            .is_err()
    );
    // The server's own origin and an allowed one may.
    let own = format!("http://{addr}");
    for origin in [own.as_str(), "https://burraco.example"] {
        let mut ws = ws_with(addr, &[("Cookie", &cookie_header), ("Origin", origin)])
            .await
            .expect(origin);
        assert_eq!(greeted(&mut ws, &hello("x")).await.1, "player", "{origin}");
    }
    // Without a cookie any page may open a guest's socket, as ever.
    let mut ws = ws_with(addr, &[("Origin", "https://evil.example")])
        .await
        .expect("guest");
    assert_eq!(greeted(&mut ws, &hello("Bruno")).await.1, "guest");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoke_through_one_node_closes_the_tokens_connections_on_another() {
    let postgres = super::Postgres::start();
    let url = postgres.url();
    let a = TestServer::with(|config| config.database_url = Some(url.clone())).await;
    let b = TestServer::with(|config| config.database_url = Some(url.clone())).await;
    let session = sign_up(a.addr, "Nodes").await;
    let (id, token) = token_with(a.addr, &session, &["play"]).await;
    let auth = format!("Bearer {token}");
    let mut on_b = ws_with(b.addr, &[("Authorization", &auth)])
        .await
        .expect("upgrade");
    assert_eq!(greeted(&mut on_b, &hello("x")).await.1, "player");
    let cookie_header = cookie(&session);
    let started = Instant::now();
    let path = format!("/api/tokens/{id}");
    let revoked = http(a.addr, "DELETE", &path, &[("Cookie", &cookie_header)], "").await;
    assert_eq!(revoked.status, 204);
    assert_eq!(
        closed_within(&mut on_b, Duration::from_secs(2)).await,
        Some(4003)
    );
    let took = started.elapsed();
    assert!(took < Duration::from_secs(1), "closed after {took:?}");
    let upgrade = raw_upgrade(b.addr, &[("Authorization", &auth)]).await;
    assert_eq!(
        (upgrade.status, upgrade.code()),
        (401, "invalid_token".into())
    );
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disabling_an_account_closes_its_token_connections_and_refuses_its_tokens() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let session = sign_up(addr, "Fabio").await;
    let (_, token) = token_with(addr, &session, &["play"]).await;
    let auth = format!("Bearer {token}");
    let mut bot = ws_with(addr, &[("Authorization", &auth)])
        .await
        .expect("upgrade");
    assert_eq!(greeted(&mut bot, &hello("x")).await.1, "player");
    // The operator's command, on the running server's SQLite file.
    let data = server.dir.path().to_string_lossy().into_owned();
    let started = Instant::now();
    let (ok, out, err) = super::admin::admin(&["--data", &data], &["disable", "fabio"], "");
    assert!(ok, "{out}{err}");
    let ran = started.elapsed();
    assert_eq!(
        closed_within(&mut bot, Duration::from_secs(2)).await,
        Some(4003)
    );
    let took = started.elapsed() - ran;
    assert!(
        took < Duration::from_secs(1),
        "closed {took:?} after the command"
    );
    let upgrade = raw_upgrade(addr, &[("Authorization", &auth)]).await;
    assert_eq!(
        (upgrade.status, upgrade.code()),
        (401, "invalid_token".into())
    );
    // Enabled again, the same token signs in again (it was refused, not revoked).
    let (ok, out, err) = super::admin::admin(&["--data", &data], &["enable", "fabio"], "");
    assert!(ok, "{out}{err}");
    let mut again = ws_with(addr, &[("Authorization", &auth)])
        .await
        .expect("upgrade");
    assert_eq!(greeted(&mut again, &hello("x")).await.1, "player");
    server.stop().await;
}

/// The next message that matches `pick`, skipping others.
async fn next_of<T>(ws: &mut Ws, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(found) = pick(read(ws).await.expect("a message")) {
                return found;
            }
        }
    })
    .await
    .expect("in time")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_accounts_seat_is_a_bot_in_the_lobby_the_events_and_the_snapshot() {
    // The data outlives the first server: the restart below reads the same log.
    let data = tempfile::tempdir().expect("temp dir");
    let on_data = |config: &mut burraco_server::ServerConfig| {
        config.data_dir = data.path().to_owned();
    };
    let server = TestServer::with(on_data).await;
    let addr = server.addr;
    let session = sign_up(addr, "RoboGina").await;
    let cookie_header = cookie(&session);
    let made = http(
        addr,
        "POST",
        "/api/account/bot",
        &[("Cookie", &cookie_header)],
        "",
    )
    .await;
    assert_eq!(made.status, 200, "{}", made.body);
    // A guest opens a table; the bot account joins it by its token.
    let mut guest = ws_with(addr, &[]).await.expect("upgrade");
    greeted(&mut guest, &hello("Dario")).await;
    let ServerMessage::TableCreated { table, .. } = request(&mut guest, create_table(1)).await
    else {
        panic!("expected table_created");
    };
    let (_, token) = token_with(addr, &session, &["play"]).await;
    let auth = format!("Bearer {token}");
    let mut robo = ws_with(addr, &[("Authorization", &auth)])
        .await
        .expect("upgrade");
    assert_eq!(greeted(&mut robo, &hello("x")).await.1, "bot");
    let join = ClientMessage::Join {
        id: 2,
        table: Some(table.clone()),
        invite: None,
        seat: None,
    };
    let seated = request(&mut robo, join).await;
    let ServerMessage::Seated { seat, .. } = seated else {
        panic!("expected seated, got {seated:?}");
    };
    // Its own snapshot: its seat is a program's, the guest's is not.
    let seats = next_of(&mut robo, |m| match m {
        ServerMessage::Snapshot { view, .. } => Some(view.seats),
        _ => None,
    })
    .await;
    let flags: Vec<_> = seats
        .iter()
        .map(|s| (s.name.clone().unwrap_or_default(), s.bot))
        .collect();
    assert_eq!(
        flags,
        [("Dario".to_owned(), false), ("RoboGina".to_owned(), true)]
    );
    // The guest hears of it as a bot (after its own join, not one), and the lobby lists it as
    // one.
    let mut joined = Vec::new();
    while joined.len() < 2 {
        joined.push(
            next_of(&mut guest, |m| match m {
                ServerMessage::PlayerJoined {
                    seat, name, bot, ..
                } => Some((seat, name, bot)),
                _ => None,
            })
            .await,
        );
    }
    assert_eq!(joined[0].1, "Dario");
    assert!(!joined[0].2, "a guest is no bot");
    assert_eq!(joined[1], (seat, "RoboGina".to_owned(), true));
    let ServerMessage::Tables { tables, .. } =
        request(&mut guest, ClientMessage::ListTables { id: 3 }).await
    else {
        panic!("expected tables");
    };
    let listed = tables.iter().find(|t| t.table == table).expect("listed");
    let flags: Vec<_> = listed
        .seats
        .iter()
        .map(|s| (s.name.clone().unwrap_or_default(), s.bot))
        .collect();
    assert_eq!(
        flags,
        [("Dario".to_owned(), false), ("RoboGina".to_owned(), true)]
    );
    // A player account's seat is no bot's.
    let anna = sign_up(addr, "Anna").await;
    let anna_cookie = cookie(&anna);
    let mut player = ws_with(addr, &[("Cookie", &anna_cookie)])
        .await
        .expect("upgrade");
    assert_eq!(greeted(&mut player, &hello("x")).await.1, "player");
    let ServerMessage::TableCreated { table, .. } = request(&mut player, create_table(4)).await
    else {
        panic!("expected table_created");
    };
    let seats = next_of(&mut player, |m| match m {
        ServerMessage::Snapshot { view, .. } => Some(view.seats),
        _ => None,
    })
    .await;
    assert_eq!(
        seats.iter().map(|s| s.bot).collect::<Vec<_>>(),
        [false, false],
        "{table}"
    );
    // A restart folds the seat's account back from the table's log: still a bot.
    let robo_table = listed.table.clone();
    server.stop().await;
    let server = TestServer::with(on_data).await;
    let mut guest = ws_with(server.addr, &[]).await.expect("upgrade");
    greeted(&mut guest, &hello("Elena")).await;
    let ServerMessage::Tables { tables, .. } =
        request(&mut guest, ClientMessage::ListTables { id: 5 }).await
    else {
        panic!("expected tables");
    };
    let listed = tables
        .iter()
        .find(|t| t.table == robo_table)
        .expect("restored");
    let robo = listed
        .seats
        .iter()
        .find(|s| s.name.as_deref() == Some("RoboGina"));
    assert_eq!(robo.map(|s| s.bot), Some(true), "{listed:?}");
    server.stop().await;
}

/// In a cluster, a bot account's join through a node that does not serve the table travels to
/// the table's node with its account: the seat is a program's there too, for every player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_account_joining_through_another_node_is_a_bot_at_the_table() {
    let postgres = super::Postgres::start();
    let url = postgres.url();
    let nats = crate::cluster::Nats::start(1);
    let a = crate::cluster::Node::start_with(&nats, "node-a", &["--database-url", &url]);
    let b = crate::cluster::Node::start_with(&nats, "node-b", &["--database-url", &url]);
    let session = sign_up(a.addr, "RoboNodi").await;
    let made = http(
        a.addr,
        "POST",
        "/api/account/bot",
        &[("Cookie", &cookie(&session))],
        "",
    )
    .await;
    assert_eq!(made.status, 200, "{}", made.body);
    // A guest opens a table on node-a; the bot account joins it by id through node-b.
    let mut guest = ws_with(a.addr, &[]).await.expect("upgrade");
    greeted(&mut guest, &hello("Dario")).await;
    let ServerMessage::TableCreated { table, .. } = request(&mut guest, create_table(1)).await
    else {
        panic!("expected table_created");
    };
    let (_, token) = token_with(a.addr, &session, &["play"]).await;
    let auth = format!("Bearer {token}");
    let mut robo = ws_with(b.addr, &[("Authorization", &auth)])
        .await
        .expect("upgrade");
    assert_eq!(greeted(&mut robo, &hello("x")).await.1, "bot");
    let join = ClientMessage::Join {
        id: 2,
        table: Some(table.clone()),
        invite: None,
        seat: None,
    };
    let seated = request(&mut robo, join).await;
    let ServerMessage::Seated { seat, .. } = seated else {
        panic!("expected seated, got {seated:?}");
    };
    let seats = next_of(&mut robo, |m| match m {
        ServerMessage::Snapshot { view, .. } => Some(view.seats),
        _ => None,
    })
    .await;
    let flags: Vec<_> = seats
        .iter()
        .map(|s| (s.name.clone().unwrap_or_default(), s.bot))
        .collect();
    assert_eq!(
        flags,
        [("Dario".to_owned(), false), ("RoboNodi".to_owned(), true)]
    );
    // The guest, on the table's own node, hears the bot account join as a bot.
    let joined = loop {
        let (at, name, bot) = next_of(&mut guest, |m| match m {
            ServerMessage::PlayerJoined {
                seat, name, bot, ..
            } => Some((seat, name, bot)),
            _ => None,
        })
        .await;
        if name == "RoboNodi" {
            break (at, bot);
        }
    };
    assert_eq!(joined, (seat, true));
}
