//! The bare fan-out baseline: a tokio-tungstenite server with no game at all, and its driver.
//!
//! A connection's first frame names its table (`{"type":"hello","table":N}`). Every later frame a
//! client sends is answered like a server answers an action: a reply to the sender, then two event
//! frames (the typical Burraco action causes two: e.g. `discarded` then `turn_started`) to each of
//! the four, each connection's frames fed then flushed once by its writer task. The driver plays
//! the same closed loop as the real tables flat out: the four seats take turns, each sending the
//! next action once the previous one's reply and events are in. Actions per second per CPU-second
//! of this server against the same figure for the Burraco server is the overhead of the game.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio::sync::{Mutex, mpsc};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::metrics::Metrics;
use crate::target::{Target, connect_from};

const REPLY: &str = r#"{"type":"ok","id":1}"#;
const EVENT: &str = r#"{"type":"discarded","table":"t000001","seq":123,"seat":"E","card":"7H"}"#;
const ACTION: &str = r#"{"type":"discard","id":1,"table":"t000001","card":"7H"}"#;

type Tables = Arc<Mutex<std::collections::HashMap<u64, Vec<mpsc::Sender<Message>>>>>;

/// Serves the fan-out baseline on `listener` until the process ends.
pub async fn serve(listener: TcpListener) -> std::io::Result<()> {
    let tables: Tables = Arc::new(Mutex::new(std::collections::HashMap::new()));
    loop {
        let (tcp, _) = listener.accept().await?;
        let _ = tcp.set_nodelay(true);
        let tables = tables.clone();
        tokio::spawn(async move {
            let Ok(ws) = tokio_tungstenite::accept_async(tcp).await else {
                return;
            };
            let (mut sink, mut stream) = ws.split();
            let (tx, mut rx) = mpsc::channel::<Message>(256);
            // The hello names the table.
            let table = loop {
                match stream.next().await {
                    Some(Ok(Message::Text(t))) => {
                        let digits: String = t.chars().filter(char::is_ascii_digit).collect();
                        break digits.parse::<u64>().unwrap_or(0);
                    }
                    Some(Ok(_)) => continue,
                    _ => return,
                }
            };
            tables
                .lock()
                .await
                .entry(table)
                .or_default()
                .push(tx.clone());
            tokio::spawn(async move {
                while let Some(m) = rx.recv().await {
                    if sink.feed(m).await.is_err() {
                        return;
                    }
                    while let Ok(m) = rx.try_recv() {
                        if sink.feed(m).await.is_err() {
                            return;
                        }
                    }
                    if sink.flush().await.is_err() {
                        return;
                    }
                }
            });
            while let Some(Ok(frame)) = stream.next().await {
                if !frame.is_text() {
                    continue;
                }
                let _ = tx.try_send(Message::text(REPLY));
                let members = tables.lock().await.get(&table).cloned().unwrap_or_default();
                for m in &members {
                    let _ = m.try_send(Message::text(EVENT));
                    let _ = m.try_send(Message::text(EVENT));
                }
            }
        });
    }
}

/// Drives `tables` baseline tables flat out for `duration`; returns the actions completed.
pub async fn drive(
    target: &Target,
    sources: &[std::net::IpAddr],
    tables: usize,
    duration: Duration,
    metrics: Arc<Metrics>,
) -> u64 {
    let deadline = Instant::now() + duration;
    let mut tasks = Vec::new();
    for t in 0..tables {
        let addr: SocketAddr = target.addr;
        let url = target.url.clone();
        let sources = sources.to_vec();
        let metrics = metrics.clone();
        tasks.push(tokio::spawn(async move {
            let mut conns = Vec::new();
            for k in 0..4 {
                let source = sources[(t * 4 + k) % sources.len()];
                let Ok(tcp) = connect_from(source, addr).await else {
                    Metrics::add(&metrics.connect_failures, 1);
                    return 0u64;
                };
                let Ok((ws, _)) = tokio_tungstenite::client_async(url.as_str(), tcp).await else {
                    Metrics::add(&metrics.connect_failures, 1);
                    return 0;
                };
                Metrics::add(&metrics.connections, 1);
                let mut ws = ws;
                let _ = ws
                    .send(Message::text(format!(r#"{{"type":"hello","table":{t}}}"#)))
                    .await;
                conns.push(ws);
            }
            // Let the server register all four before the first action.
            tokio::time::sleep(Duration::from_millis(200)).await;
            let mut done = 0u64;
            let mut seat = 0;
            while Instant::now() < deadline {
                let sent = Instant::now();
                if conns[seat].send(Message::text(ACTION)).await.is_err() {
                    break;
                }
                Metrics::add(&metrics.actions, 1);
                // The sender gets the reply and two events; the others two events each.
                let mut last = sent;
                for (k, ws) in conns.iter_mut().enumerate() {
                    let n = if k == seat { 3 } else { 2 };
                    for i in 0..n {
                        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
                            Ok(Some(Ok(_))) => {
                                Metrics::add(&metrics.messages_in, 1);
                                if k == seat && i == 0 {
                                    Metrics::record(&metrics.reply, sent.elapsed());
                                }
                            }
                            _ => {
                                Metrics::add(&metrics.protocol_errors, 1);
                                return done;
                            }
                        }
                    }
                    last = last.max(Instant::now());
                }
                Metrics::record(&metrics.fanout, last - sent);
                done += 1;
                seat = (seat + 1) % 4;
            }
            for ws in &mut conns {
                let _ = ws.close(None).await;
            }
            done
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += t.await.unwrap_or(0);
    }
    total
}
