//! What a client author meets first, checked on the raw WebSocket (close codes and reasons as the
//! socket carries them) against docs/PROTOCOL.md: the hard frame limit (section 7), the first
//! frame (section 2), flooding (section 7), a resume taking a session over (section 6), the id of
//! `frame_too_large`, names (section 2), and `/metrics` from the first scrape.

use std::net::SocketAddr;
use std::time::Duration;

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::ClientMessage;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::common::*;

type Raw = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How a raw connection ended.
#[derive(Debug, PartialEq)]
enum End {
    /// A close frame: its code and reason.
    Close(u16, String),
    /// A close frame without a code.
    CloseEmpty,
    /// The stream ended or failed without a close frame (a browser's 1006).
    Abnormal(String),
}

async fn raw(addr: SocketAddr) -> Raw {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("connect");
    ws
}

fn hello(name: &str, resume: Option<&str>) -> Message {
    let hello = ClientMessage::Hello {
        version: "1.0".into(),
        name: name.into(),
        resume: resume.map(str::to_owned),
    };
    Message::Text(burraco_protocol::codec::to_json(&hello).into())
}

/// A raw connection past its welcome (returned as JSON).
async fn raw_welcomed(addr: SocketAddr, name: &str, resume: Option<&str>) -> (Raw, Value) {
    let mut ws = raw(addr).await;
    ws.send(hello(name, resume)).await.expect("hello");
    let (frames, end) = read_frames(&mut ws, 1).await;
    assert_eq!(end, None, "welcomed, not closed");
    let welcome = frames.into_iter().next().expect("a welcome");
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    (ws, welcome)
}

/// Reads up to `max` data frames as JSON, or until the connection ends (then how), within 10 s.
async fn read_frames(ws: &mut Raw, max: usize) -> (Vec<Value>, Option<End>) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let mut frames = Vec::new();
    while frames.len() < max {
        let frame = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no end after {} frames", frames.len()));
        match frame {
            Some(Ok(Message::Text(text))) => {
                frames.push(serde_json::from_str(text.as_str()).expect("JSON"));
            }
            Some(Ok(Message::Close(Some(close)))) => {
                let end = End::Close(close.code.into(), close.reason.as_str().to_owned());
                return (frames, Some(end));
            }
            Some(Ok(Message::Close(None))) => return (frames, Some(End::CloseEmpty)),
            Some(Ok(_)) => {}
            Some(Err(e)) => return (frames, Some(End::Abnormal(e.to_string()))),
            None => return (frames, Some(End::Abnormal("end of stream".into()))),
        }
    }
    (frames, None)
}

/// Everything until the connection ends, and how it ended.
async fn read_to_end(ws: &mut Raw) -> (Vec<Value>, End) {
    let (frames, end) = read_frames(ws, usize::MAX).await;
    (frames, end.expect("an end"))
}

fn is_error(frame: &Value, code: ErrorCode) -> bool {
    frame["type"] == "error" && frame["code"] == code.as_str()
}

#[tokio::test]
async fn a_frame_over_the_hard_limit_gets_frame_too_large_then_close_1009() {
    let server = TestServer::start().await;
    // During the session.
    let (mut ws, _) = raw_welcomed(server.addr, "big", None).await;
    let huge = "x".repeat(128 * 1024);
    ws.send(Message::Text(huge.clone().into()))
        .await
        .expect("sent");
    let (frames, end) = read_to_end(&mut ws).await;
    assert_eq!(frames.len(), 1, "{frames:?}");
    assert!(is_error(&frames[0], ErrorCode::FrameTooLarge), "{frames:?}");
    assert_eq!(frames[0]["id"], Value::Null, "never read: no id");
    assert_eq!(end, End::Close(1009, String::new()));
    // As the first frame.
    let mut ws = raw(server.addr).await;
    ws.send(Message::Binary(vec![0u8; 100 * 1024].into()))
        .await
        .expect("sent");
    let (frames, end) = read_to_end(&mut ws).await;
    assert!(is_error(&frames[0], ErrorCode::FrameTooLarge), "{frames:?}");
    assert_eq!(end, End::Close(1009, String::new()));
    // The server serves on.
    let mut next = server.client("next").await;
    next.barrier().await;
    server.stop().await;
}

#[tokio::test]
async fn frame_too_large_gives_the_id_when_the_frames_beginning_has_it() {
    let server = TestServer::start().await;
    let (mut ws, _) = raw_welcomed(server.addr, "long", None).await;
    let pad = "x".repeat(MAX_FRAME);
    let cases = [
        (
            format!(r#"{{"type":"ping","id":9,"pad":"{pad}"}}"#),
            Value::from(9),
        ),
        (
            format!(r#"{{ "id" : 10 , "type":"ping","pad":"{pad}"}}"#),
            Value::from(10),
        ),
        // Not the id: inside a string, inside a nested object, or past the frame's beginning.
        (
            format!(r#"{{"type":"chat","text":"\"id\":5","pad":"{pad}","id":11}}"#),
            Value::Null,
        ),
        (
            format!(r#"{{"type":"x","settings":{{"id":6}},"pad":"{pad}"}}"#),
            Value::Null,
        ),
        (
            format!(r#"{{"type":"ping","pad":"{pad}","id":12}}"#),
            Value::Null,
        ),
    ];
    for (frame, id) in cases {
        ws.send(Message::Text(frame.clone().into()))
            .await
            .expect("sent");
        let (frames, end) = read_frames(&mut ws, 1).await;
        assert_eq!(end, None, "the connection is kept");
        assert!(is_error(&frames[0], ErrorCode::FrameTooLarge), "{frames:?}");
        assert_eq!(frames[0]["id"], id, "{}", &frame[..40]);
    }
    // Postcard: a ping (variant 15) with id 300 (varint ac 02), then padding.
    let mut binary = vec![15, 0xac, 0x02];
    binary.resize(MAX_FRAME + 100, 0);
    ws.send(Message::Binary(binary.into())).await.expect("sent");
    let (frames, _) = read_frames(&mut ws, 1).await;
    assert!(is_error(&frames[0], ErrorCode::FrameTooLarge), "{frames:?}");
    assert_eq!(frames[0]["id"], 300);
    server.stop().await;
}

/// A first frame that cannot be decoded gets the decode error it would get at any other time (it
/// says what is wrong with the frame); a decodable message that is not a hello gets
/// `hello_required`. Both close with 1008.
#[tokio::test]
async fn a_first_frame_gets_its_decode_error_or_hello_required_then_1008() {
    let server = TestServer::start().await;
    for (first, code) in [
        ("not json", ErrorCode::MalformedFrame),
        (r#"{"type":"hello","version":1}"#, ErrorCode::InvalidMessage),
        (r#"{"type":"ping","id":1}"#, ErrorCode::HelloRequired),
    ] {
        let mut ws = raw(server.addr).await;
        ws.send(Message::Text(first.into())).await.expect("sent");
        let (frames, end) = read_to_end(&mut ws).await;
        assert_eq!(frames.len(), 1, "{first}: {frames:?}");
        assert!(is_error(&frames[0], code), "{first}: {frames:?}");
        assert_eq!(end, End::Close(1008, String::new()), "{first}");
    }
    server.stop().await;
}

/// At the default limits (100 requests/s, bursts of 200, 50 refusals in a row), a client that
/// sends pings without pausing (and reads at the same time) gets every reply it is owed, the
/// burst's pongs and the refusals, then `flooding`, then a close 1008; and the server, though the
/// client was still sending, waits for the client's close before it closes the socket, so the
/// client sees the end of the stream, not a reset (a browser reports a reset as 1006 and may
/// drop what it had not yet read).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_gets_its_replies_then_flooding_then_a_clean_1008() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let defaults = burraco_server::ServerConfig::default();
    let server = TestServer::with(|c| {
        c.rate_per_sec = defaults.rate_per_sec;
        c.rate_burst = defaults.rate_burst;
        c.rate_strikes = defaults.rate_strikes;
    })
    .await;
    let (ws, _) = raw_welcomed(server.addr, "flood", None).await;
    let (mut sink, mut stream) = ws.split();
    let stop = Arc::new(AtomicBool::new(false));
    // Sends until told to stop or the server stops taking frames (bounded: 100,000 pings).
    let flood = tokio::spawn({
        let stop = stop.clone();
        async move {
            for id in 1..=100_000u64 {
                let ping = burraco_protocol::codec::to_json(&ClientMessage::Ping { id });
                if stop.load(Ordering::Relaxed)
                    || sink.send(Message::Text(ping.into())).await.is_err()
                {
                    break;
                }
            }
        }
    });
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    let mut frames = Vec::new();
    let end = loop {
        let frame = tokio::time::timeout_at(deadline, stream.next())
            .await
            .expect("an end in time");
        match frame {
            Some(Ok(Message::Text(text))) => {
                frames.push(serde_json::from_str::<Value>(text.as_str()).expect("JSON"));
            }
            Some(Ok(Message::Close(Some(close)))) => {
                break End::Close(close.code.into(), close.reason.as_str().to_owned());
            }
            Some(Ok(Message::Close(None))) => break End::CloseEmpty,
            Some(Ok(_)) => {}
            Some(Err(e)) => break End::Abnormal(e.to_string()),
            None => break End::Abnormal("end of stream".into()),
        }
    };
    let pongs = frames.iter().filter(|f| f["type"] == "pong").count();
    let limited = frames
        .iter()
        .filter(|f| is_error(f, ErrorCode::RateLimited))
        .count();
    assert!(pongs >= 200, "the burst is answered: {pongs} ({end:?})");
    assert!(limited > 50, "then 51 refusals: {limited} ({end:?})");
    let last = frames.last().expect("frames");
    assert!(is_error(last, ErrorCode::Flooding), "{last}");
    assert_eq!(end, End::Close(1008, String::new()));
    // The client stops and answers the close (on its next read); the server then ends the stream.
    stop.store(true, Ordering::Relaxed);
    flood.await.expect("the flood stops");
    let after = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("the stream ends in time");
    assert!(
        matches!(
            after,
            None | Some(Err(tokio_tungstenite::tungstenite::Error::ConnectionClosed))
        ),
        "a clean end, not a reset: {after:?}"
    );
    server.stop().await;
}

/// A resume of a session that is connected elsewhere takes its seats, and the older connection
/// closes with 4001 "session taken over", not the slow reader's 1008 "too slow" (a client that
/// resumed on that would take the session back, and so on for ever).
#[tokio::test]
async fn a_resume_that_takes_a_session_over_closes_the_older_connection_with_4001() {
    let server = TestServer::start().await;
    let (mut first, welcome) = raw_welcomed(server.addr, "anna", None).await;
    let token = welcome["session"].as_str().expect("a token").to_owned();
    let create = ClientMessage::CreateTable {
        id: 1,
        settings: settings("fitab", 2, Some(1), "off"),
        private: false,
        bots: None,
    };
    first
        .send(Message::Text(
            burraco_protocol::codec::to_json(&create).into(),
        ))
        .await
        .expect("sent");
    let (frames, _) = read_frames(&mut first, 1).await;
    assert_eq!(frames[0]["type"], "table_created", "{frames:?}");
    let (_second, welcome) = raw_welcomed(server.addr, "anna", Some(&token)).await;
    assert_eq!(welcome["resumed"], true);
    let (_, end) = read_to_end(&mut first).await;
    assert_eq!(end, End::Close(4001, "session taken over".into()));
    server.stop().await;
}

/// Names are trimmed and their runs of spaces made one; control, format (zero-width, bidi) and
/// invisible characters are refused with `invalid_name`.
#[tokio::test]
async fn names_are_normalised_and_invisible_tricks_refused() {
    let server = TestServer::start().await;
    for (name, shown) in [
        ("  Anna   Maria ", "Anna Maria"),
        ("Anna\u{00A0}\u{3000}Maria", "Anna Maria"),
        ("Zoë", "Zoë"),
        ("Łukasz Ōta", "Łukasz Ōta"),
    ] {
        let (_ws, welcome) = raw_welcomed(server.addr, name, None).await;
        assert_eq!(welcome["name"], shown, "{name:?}");
    }
    for name in [
        "",
        "   ",
        "Anna\u{200B}",                      // zero-width space
        "\u{202E}annA",                      // right-to-left override
        "An\u{2066}na",                      // left-to-right isolate
        "Anna\u{FEFF}",                      // zero-width no-break space
        "An\u{00AD}na",                      // soft hyphen
        "Anna\u{E0041}",                     // tag letter
        "Anna\u{FE0F}",                      // variation selector
        "\u{3164}",                          // Hangul filler (a blank letter)
        "Anna\u{0007}",                      // control
        "Anna\nMaria",                       // control inside
        "Anna\u{E000}",                      // private use
        "\u{0301}Anna",                      // starts with a combining mark
        "abcdefghijklmnopqrstuvwxyzabcdefg", // 33 characters: too long
    ] {
        let mut ws = raw(server.addr).await;
        ws.send(hello(name, None)).await.expect("sent");
        let (frames, end) = read_to_end(&mut ws).await;
        assert!(
            frames
                .first()
                .is_some_and(|f| is_error(f, ErrorCode::InvalidName)),
            "{name:?}: {frames:?}"
        );
        assert_eq!(end, End::Close(1008, String::new()), "{name:?}");
    }
    server.stop().await;
}

/// A server that has done nothing yet already lists its gauges and counters at 0 (a fresh
/// process: the recorder is process-wide, so a server in this test binary would see others').
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_listed_at_zero_from_the_start() {
    let data = tempfile::tempdir().expect("temp dir");
    let (_child, addr) = crate::crash::start_with(data.path(), &[]);
    let (status, body) = http_get(addr, "/metrics").await;
    assert_eq!(status, 200);
    let value = |line_start: &str| {
        body.lines()
            .find_map(|l| l.strip_prefix(line_start)?.strip_prefix(' '))
            .map(|v| v.trim().to_owned())
            .unwrap_or_else(|| panic!("{line_start} missing from:\n{body}"))
    };
    for name in [
        "burraco_connections",
        "burraco_tables",
        "burraco_bots",
        "burraco_tournaments",
        "burraco_actions_total",
        "burraco_slow_clients_dropped_total",
        "burraco_bot_refusals_total",
    ] {
        assert_eq!(value(name), "0", "{name}");
    }
    for code in ErrorCode::ALL {
        let line = format!("burraco_errors_total{{code=\"{}\"}}", code.as_str());
        assert_eq!(value(&line), "0", "{line}");
    }
}
