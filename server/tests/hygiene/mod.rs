use std::time::Duration;

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

fn code_of(m: &ServerMessage) -> (Option<ErrorCode>, Option<u64>) {
    match m {
        ServerMessage::Error { code, id, .. } => (ErrorCode::parse(code), *id),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn malformed_and_oversized_frames_get_typed_errors_and_never_crash() {
    let server = TestServer::start().await;
    let mut c = server.client("fuzz").await;
    let cases: &[(&str, ErrorCode, Option<u64>)] = &[
        ("not json", ErrorCode::MalformedFrame, None),
        ("[1,2,3]", ErrorCode::MalformedFrame, None),
        (r#"{"id":3}"#, ErrorCode::MalformedFrame, Some(3)),
        (
            r#"{"type":"fly","id":4}"#,
            ErrorCode::InvalidMessage,
            Some(4),
        ),
        (
            r#"{"type":"discard","id":5,"table":"t","card":"1X"}"#,
            ErrorCode::InvalidMessage,
            Some(5),
        ),
        (
            r#"{"type":"discard","id":6,"table":"t"}"#,
            ErrorCode::InvalidMessage,
            Some(6),
        ),
        (
            r#"{"type":"open","id":7,"table":"t","cards":"7H","wild_at":null}"#,
            ErrorCode::InvalidMessage,
            Some(7),
        ),
        (
            r#"{"type":"ping","id":-1}"#,
            ErrorCode::InvalidMessage,
            None,
        ),
        (
            r#"{"type":"hello","version":"1.0","name":"again","resume":null}"#,
            ErrorCode::UnexpectedHello,
            None,
        ),
    ];
    for (frame, code, id) in cases {
        assert!(c.send_raw(Message::Text((*frame).into())).await);
        let reply = c.read().await.expect("still connected");
        assert_eq!(code_of(&reply), (Some(*code), *id), "{frame}");
    }
    assert!(c.send_raw(Message::Binary(vec![250, 1, 2, 3].into())).await);
    assert_eq!(
        code_of(&c.read().await.expect("open")).0,
        Some(ErrorCode::MalformedFrame)
    );
    // Above the protocol's limit: refused, connection kept.
    let big = format!(
        r#"{{"type":"ping","id":9,"pad":"{}"}}"#,
        "x".repeat(MAX_FRAME)
    );
    assert!(c.send_raw(Message::Text(big.into())).await);
    assert_eq!(
        code_of(&c.read().await.expect("open")).0,
        Some(ErrorCode::FrameTooLarge)
    );
    c.barrier().await;
    // Far above it: the connection is closed, the server lives on.
    let huge = "x".repeat(MAX_FRAME * 8);
    let _ = c.send_raw(Message::Text(huge.into())).await;
    assert!(c.closed_within(Duration::from_secs(5)).await);
    let mut d = server.client("next").await;
    d.barrier().await;
    server.stop().await;
}

#[tokio::test]
async fn the_version_rule_and_the_hello_rule() {
    let server = TestServer::start().await;
    for (first, code) in [
        (
            r#"{"type":"hello","version":"2.0","name":"x","resume":null}"#,
            ErrorCode::UnsupportedVersion,
        ),
        (
            r#"{"type":"hello","version":"one","name":"x","resume":null}"#,
            ErrorCode::UnsupportedVersion,
        ),
        (r#"{"type":"ping","id":1}"#, ErrorCode::HelloRequired),
        (
            r#"{"type":"hello","version":"1.0","name":"","resume":null}"#,
            ErrorCode::InvalidName,
        ),
    ] {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr))
            .await
            .expect("connect");
        use futures_util::{SinkExt, StreamExt};
        ws.send(Message::Text(first.into())).await.expect("send");
        let Some(Ok(Message::Text(reply))) = ws.next().await else {
            panic!("a reply")
        };
        let reply: serde_json::Value = serde_json::from_str(reply.as_str()).expect("json");
        assert_eq!(reply["type"], "error");
        assert_eq!(reply["code"], code.as_str(), "{first}");
        if code == ErrorCode::HelloRequired {
            assert_eq!(
                reply["id"], 1,
                "the refused request's id comes back: {reply}"
            );
        }
        assert!(
            matches!(
                ws.next().await,
                Some(Ok(Message::Close(_))) | None | Some(Err(_))
            ),
            "closed after {first}"
        );
    }
    // A later minor of the same major is spoken (as the server's own); unknown fields are not an
    // error of the hello.
    let (mut c, welcome) = Client::connect(server.addr, "future", None).await;
    let spoken = burraco_protocol::wire::protocol_version();
    assert!(matches!(welcome, ServerMessage::Welcome { ref version, .. } if *version == spoken));
    c.barrier().await;
    let (status, body) = server.http_get("/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    let (status, body) = server.http_get("/metrics").await;
    assert_eq!(status, 200);
    assert!(body.contains("burraco_connections"), "{body}");
    server.stop().await;
}

#[tokio::test]
async fn flooding_is_rate_limited_then_closed() {
    let server = TestServer::with(|c| {
        c.rate_per_sec = 5;
        c.rate_burst = 10;
        c.rate_strikes = 20;
    })
    .await;
    let mut c = server.client("flood").await;
    for id in 0..200u64 {
        if !c
            .send_raw(Message::Text(
                burraco_protocol::codec::to_json(&ClientMessage::Ping { id }).into(),
            ))
            .await
        {
            break;
        }
    }
    let mut pongs = 0;
    let mut limited = 0;
    while let Some(m) = c.read_within(Duration::from_secs(5)).await {
        match m {
            ServerMessage::Pong { .. } => pongs += 1,
            ServerMessage::Error { code, id, .. }
                if ErrorCode::parse(&code) == Some(ErrorCode::RateLimited) =>
            {
                assert!(id.is_some(), "a refused request's id comes back");
                limited += 1
            }
            ServerMessage::Error { code, .. }
                if ErrorCode::parse(&code) == Some(ErrorCode::Flooding) =>
            {
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert!((10..=12).contains(&pongs), "the burst passes: {pongs}");
    assert!(limited >= 20, "then typed refusals: {limited}");
    assert!(
        c.closed_within(Duration::from_secs(5)).await,
        "then the connection is closed"
    );
    let mut d = server.client("polite").await;
    d.barrier().await;
    server.stop().await;
}

#[tokio::test]
async fn a_slow_client_is_dropped_and_never_stalls_the_table() {
    let server = TestServer::with(|c| c.outbound_queue = 8).await;
    let mut table = Table::open(&server, settings("fitab", 2, Some(1), "off"), &["a", "b"]).await;
    let mut mirror = table.next_hand().await;
    // A spectator that never reads: its queue of 8 fills (and its socket buffers, eventually).
    let mut sleepy = server.client("sleepy").await;
    let t = table.id.clone();
    sleepy
        .ok(|id| ClientMessage::Spectate { id, table: t })
        .await;
    table.play_hand(&mut mirror, NoCheck).await;
    for (_, c) in &mut table.clients {
        c.wait(|m| matches!(m, ServerMessage::HandEnded { .. }))
            .await;
    }
    server.stop().await;
}

/// A raw WebSocket, past its welcome, whose TCP receive buffer is tiny: set before `connect`, so
/// the window is small from the handshake on and the kernel cannot absorb what it never reads.
async fn connect_with_tiny_receive_window(
    server: &TestServer,
    name: &str,
) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    use futures_util::{SinkExt, StreamExt};
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("receive buffer");
    let stream = socket.connect(server.addr).await.expect("connect");
    let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{}/ws", server.addr), stream)
        .await
        .expect("handshake");
    let hello = ClientMessage::Hello {
        version: "1.0".into(),
        name: name.into(),
        resume: None,
    };
    let hello = burraco_protocol::codec::to_json(&hello);
    ws.send(Message::Text(hello.into())).await.expect("hello");
    let welcome = ws.next().await.expect("a welcome").expect("a frame");
    assert!(
        welcome
            .to_text()
            .expect("text")
            .contains(r#""type":"welcome""#)
    );
    ws
}

/// A client that stops reading is dropped by its bounded outbound queue, at the socket level, and
/// the server serves on. Its receive window is tiny (so loopback's socket buffers cannot hide that
/// it never reads) and it asks for a ~10 KB table list over and over, four at a time: half its
/// queue of 8, with a healthy neighbour's ping round trip between rounds, so the server's writer
/// drains each round and only a client that does not read can fill the queue. It asks for more
/// (8 MB) than the server's socket buffer can ever take (`tcp_wmem` max: 4 MB here), then reads: the
/// stream ends (a 1008 close or a reset) before every reply has come, where a server without the
/// bound would deliver them all and keep the connection. The drop counter rises (it is
/// process-wide, so the close is what ties the drop to this client), and the neighbour is
/// answered throughout and after.
#[tokio::test]
async fn a_client_that_stops_reading_is_dropped_and_the_server_serves_on() {
    use futures_util::{SinkExt, StreamExt};
    const PER_ROUND: u64 = 4;
    const ROUNDS: u64 = 200;
    let server = TestServer::with(|c| {
        c.outbound_queue = 8;
        c.rate_per_sec = 100_000;
        c.rate_burst = 100_000;
        // Forty identical tables from one player on purpose: no double click here.
        c.repeat_create_window = Duration::ZERO;
    })
    .await;
    let mut neighbour = server.client("neighbour").await;
    for _ in 0..40 {
        let reply = neighbour
            .request(|id| ClientMessage::CreateTable {
                id,
                settings: settings("fitab", 4, Some(1), "off"),
                private: false,
                bots: None,
            })
            .await;
        assert!(
            matches!(reply, ServerMessage::TableCreated { .. }),
            "{reply:?}"
        );
    }
    let dropped_before = server.metric("burraco_slow_clients_dropped_total").await;
    let mut sleepy = connect_with_tiny_receive_window(&server, "sleepy").await;

    // Ask without reading; a failed write means the server has hung up already.
    let mut sent = 0;
    for _ in 0..ROUNDS {
        neighbour.barrier().await;
        let round = async {
            for _ in 0..PER_ROUND {
                let list =
                    burraco_protocol::codec::to_json(&ClientMessage::ListTables { id: sent + 1 });
                sleepy.feed(Message::Text(list.into())).await?;
                sent += 1;
            }
            sleepy.flush().await
        };
        let written = tokio::time::timeout(Duration::from_secs(2), round).await;
        if !matches!(written, Ok(Ok(()))) {
            break;
        }
    }

    // Now read: the stream ends short of the replies, in the close (1008 "too slow" when it got
    // out past the full socket) or a reset.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    let mut replies = 0;
    loop {
        let frame = tokio::time::timeout_at(deadline, sleepy.next())
            .await
            .unwrap_or_else(|_| panic!("still open after {replies} of {sent} replies"));
        match frame {
            Some(Ok(Message::Close(Some(close)))) => {
                assert_eq!(u16::from(close.code), 1008, "{close:?}");
                break;
            }
            Some(Ok(Message::Close(None))) | Some(Err(_)) | None => break,
            Some(Ok(_)) => replies += 1,
        }
    }
    assert!(replies < sent, "all {sent} replies came, then the close");
    while server.metric("burraco_slow_clients_dropped_total").await <= dropped_before {
        assert!(
            tokio::time::Instant::now() < deadline,
            "burraco_slow_clients_dropped_total did not rise"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let reply = neighbour
        .request(|id| ClientMessage::ListTables { id })
        .await;
    assert!(
        matches!(&reply, ServerMessage::Tables { tables, .. } if tables.len() == 40),
        "{reply:?}"
    );
    let mut newcomer = server.client("newcomer").await;
    newcomer.barrier().await;
    server.stop().await;
}
