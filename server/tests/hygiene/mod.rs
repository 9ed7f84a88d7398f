use std::time::Duration;

use burraco_protocol::wire::{ClientMessage, ServerMessage};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

fn code_of(m: &ServerMessage) -> (&str, Option<u64>) {
    match m {
        ServerMessage::Error { code, id, .. } => (code.as_str(), *id),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn malformed_and_oversized_frames_get_typed_errors_and_never_crash() {
    let server = TestServer::start().await;
    let mut c = server.client("fuzz").await;
    let cases: &[(&str, &str, Option<u64>)] = &[
        ("not json", "malformed_frame", None),
        ("[1,2,3]", "malformed_frame", None),
        (r#"{"id":3}"#, "malformed_frame", Some(3)),
        (r#"{"type":"fly","id":4}"#, "invalid_message", Some(4)),
        (
            r#"{"type":"discard","id":5,"table":"t","card":"1X"}"#,
            "invalid_message",
            Some(5),
        ),
        (
            r#"{"type":"discard","id":6,"table":"t"}"#,
            "invalid_message",
            Some(6),
        ),
        (
            r#"{"type":"open","id":7,"table":"t","cards":"7H","wild_at":null}"#,
            "invalid_message",
            Some(7),
        ),
        (r#"{"type":"ping","id":-1}"#, "invalid_message", None),
        (
            r#"{"type":"hello","version":"1.0","name":"again","resume":null}"#,
            "unexpected_hello",
            None,
        ),
    ];
    for (frame, code, id) in cases {
        assert!(c.send_raw(Message::Text((*frame).into())).await);
        let reply = c.read().await.expect("still connected");
        assert_eq!(code_of(&reply), (*code, *id), "{frame}");
    }
    assert!(c.send_raw(Message::Binary(vec![250, 1, 2, 3].into())).await);
    assert_eq!(code_of(&c.read().await.expect("open")).0, "malformed_frame");
    // Above the protocol's limit: refused, connection kept.
    let big = format!(
        r#"{{"type":"ping","id":9,"pad":"{}"}}"#,
        "x".repeat(MAX_FRAME)
    );
    assert!(c.send_raw(Message::Text(big.into())).await);
    assert_eq!(code_of(&c.read().await.expect("open")).0, "frame_too_large");
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
            "unsupported_version",
        ),
        (
            r#"{"type":"hello","version":"one","name":"x","resume":null}"#,
            "unsupported_version",
        ),
        (r#"{"type":"ping","id":1}"#, "hello_required"),
        (
            r#"{"type":"hello","version":"1.0","name":"","resume":null}"#,
            "invalid_name",
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
        assert_eq!(reply["code"], code, "{first}");
        assert!(
            matches!(
                ws.next().await,
                Some(Ok(Message::Close(_))) | None | Some(Err(_))
            ),
            "closed after {first}"
        );
    }
    // A later minor of the same major is spoken (as 1.0); unknown fields are not an error of the hello.
    let (mut c, welcome) = Client::connect(server.addr, "future", None).await;
    assert!(matches!(welcome, ServerMessage::Welcome { ref version, .. } if version == "1.0"));
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
            ServerMessage::Error { code, .. } if code == "rate_limited" => limited += 1,
            ServerMessage::Error { code, .. } if code == "flooding" => break,
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
