//! The table's fan-out path against a bare tokio-tungstenite broadcast of the same frames, side by
//! side, on loopback: 4 receivers (a table), 200 events per iteration, each event a `discarded`
//! frame in postcard. An iteration ends when every receiver has read every frame.
//!
//! - `bare`: encode once, then `send` (write + flush) the frame on each socket in turn.
//! - `bare_tungstenite_batched`: encode once, `feed` every frame to every socket, flush each once
//!   (the cheapest baseline: no queue, no task).
//! - `table_path`: what a table does: [`Frame::new`] (encoded once, shared), [`Outbox::send`]
//!   (`try_send` into each receiver's bounded queue), and per receiver a writer task that feeds
//!   everything queued and flushes once, as `conn::write_loop` does.
//!
//! `cargo bench -p burraco-server --bench fanout`

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use burraco_protocol::codec;
use burraco_protocol::wire::{ServerMessage, WireSeat};
use burraco_rules::Seat;
use burraco_server::outbound::{Frame, Outbox};
use criterion::{Criterion, criterion_group, criterion_main};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

const RECEIVERS: usize = 4;
const EVENTS: u64 = 200;

fn event(seq: u64) -> ServerMessage {
    ServerMessage::Discarded {
        table: "t-3f9a1c22b0".into(),
        seq,
        seat: WireSeat(Seat::East),
        card: "KS".parse().unwrap(),
    }
}

struct Counter {
    received: AtomicU64,
    target: AtomicU64,
    done: Notify,
}

impl Counter {
    async fn wait(&self) {
        loop {
            let notified = self.done.notified();
            if self.received.load(Ordering::Acquire) >= self.target.load(Ordering::Acquire) {
                return;
            }
            notified.await;
        }
    }
}

/// Server-side sockets with a reading client each; the clients count frames.
async fn sockets(counter: Arc<Counter>) -> Vec<WebSocketStream<TcpStream>> {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut servers = Vec::new();
    for _ in 0..RECEIVERS {
        // Readers with a 4 KiB buffer: tungstenite zero-fills the whole read buffer before each
        // read, and the 128 KiB default made the readers' memset a large part of every variant.
        let connect = tokio::spawn(async move {
            let config = WebSocketConfig::default().read_buffer_size(4096);
            tokio_tungstenite::connect_async_with_config(
                format!("ws://{addr}/"),
                Some(config),
                true,
            )
            .await
            .unwrap()
            .0
        });
        let (tcp, _) = listener.accept().await.unwrap();
        tcp.set_nodelay(true).unwrap();
        servers.push(tokio_tungstenite::accept_async(tcp).await.unwrap());
        let mut client = connect.await.unwrap();
        let counter = counter.clone();
        tokio::spawn(async move {
            while let Some(Ok(_)) = client.next().await {
                let n = counter.received.fetch_add(1, Ordering::AcqRel) + 1;
                if n >= counter.target.load(Ordering::Acquire) {
                    counter.done.notify_one();
                }
            }
        });
    }
    servers
}

fn counter() -> Arc<Counter> {
    Arc::new(Counter {
        received: AtomicU64::new(0),
        target: AtomicU64::new(u64::MAX),
        done: Notify::new(),
    })
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("fanout_4_receivers_200_events");
    group
        .measurement_time(Duration::from_secs(5))
        .sample_size(30);

    let bare_counter = counter();
    let mut bare = rt.block_on(sockets(bare_counter.clone()));
    group.bench_function("bare_tungstenite_broadcast", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let base = bare_counter.received.load(Ordering::Acquire);
                    bare_counter
                        .target
                        .store(base + EVENTS * RECEIVERS as u64, Ordering::Release);
                    for seq in 0..EVENTS {
                        let bytes: tokio_tungstenite::tungstenite::Bytes =
                            codec::to_binary(&event(seq)).into();
                        for socket in &mut bare {
                            socket.send(Message::Binary(bytes.clone())).await.unwrap();
                        }
                    }
                    bare_counter.wait().await;
                }
                start.elapsed()
            })
        })
    });

    // The same broadcast, batched by hand: feed each socket every frame, then flush each once.
    // The cheapest possible baseline (no queues, no tasks), for an honest ratio.
    let batched_counter = counter();
    let mut batched = rt.block_on(sockets(batched_counter.clone()));
    group.bench_function("bare_tungstenite_batched", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let base = batched_counter.received.load(Ordering::Acquire);
                    batched_counter
                        .target
                        .store(base + EVENTS * RECEIVERS as u64, Ordering::Release);
                    for seq in 0..EVENTS {
                        let bytes: tokio_tungstenite::tungstenite::Bytes =
                            codec::to_binary(&event(seq)).into();
                        for socket in &mut batched {
                            socket.feed(Message::Binary(bytes.clone())).await.unwrap();
                        }
                    }
                    for socket in &mut batched {
                        socket.flush().await.unwrap();
                    }
                    batched_counter.wait().await;
                }
                start.elapsed()
            })
        })
    });

    let ours_counter = counter();
    let sockets = rt.block_on(sockets(ours_counter.clone()));
    let outboxes: Vec<Outbox> = rt.block_on(async {
        sockets
            .into_iter()
            .enumerate()
            .map(|(i, mut socket)| {
                let (outbox, mut rx, _kick) = Outbox::channel(i as u64, 1024);
                tokio::spawn(async move {
                    while let Some(frame) = rx.recv().await {
                        socket
                            .feed(Message::Binary(frame.binary().clone()))
                            .await
                            .unwrap();
                        while let Some(frame) = rx.try_recv() {
                            socket
                                .feed(Message::Binary(frame.binary().clone()))
                                .await
                                .unwrap();
                        }
                        socket.flush().await.unwrap();
                    }
                });
                outbox
            })
            .collect()
    });
    group.bench_function("table_path", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let base = ours_counter.received.load(Ordering::Acquire);
                    ours_counter
                        .target
                        .store(base + EVENTS * RECEIVERS as u64, Ordering::Release);
                    for seq in 0..EVENTS {
                        let frame = Frame::new(event(seq));
                        for outbox in &outboxes {
                            assert!(outbox.send(frame.clone()));
                        }
                    }
                    ours_counter.wait().await;
                }
                start.elapsed()
            })
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
