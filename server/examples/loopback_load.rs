//! Loopback measurements of a running `burraco-server` (docs/PERFORMANCE.md, "Server").
//!
//! - `idle ADDR PID N`: the server's RSS before and after N idle connections (hello only).
//! - `latency ADDR TABLES SECONDS THINK_MS [json|binary|bare]`: TABLES four-player tables
//!   (4 connections each) play draw-and-discard turns, each table pausing a think time between
//!   actions drawn uniformly from [THINK_MS/2, 3*THINK_MS/2] (0 = as fast as it can); reports
//!   actions/s and the latency from sending an action to the moment the last of the table's four
//!   seats has its event (p50, p90, p99, p99.9, max) over SECONDS of steady state. `binary` speaks
//!   postcard binary frames instead of JSON text. `bare` drives a bare tokio-tungstenite fan-out
//!   (`burraco-loadtest fanout-server`) the same way: no game, no store, the floor this machine
//!   and this client set. With `LATENCY_DUMP=PATH` every sample is written out as
//!   `microseconds-since-the-measurement-began latency-in-microseconds`, one per line.
//!
//!   How the load is spread, and why: with one start instant and one fixed think time, all
//!   tables act in the same millisecond every round, a burst of TABLES actions at once (measured:
//!   p99 12 ms at 1,200 actions/s, nearly all of it from those bursts). So think times are
//!   jittered, and the tables' starts are spread over about one hand (ACTIONS_PER_HAND think
//!   times): started within one think time, all 250 tables ended their hands within the same
//!   ~200 ms, every ~2.5 s (hand records, scores, the next deal), and those moments made most of
//!   the p99 (`LATENCY_DUMP`: the slow samples were in 100 ms windows every 2.45 s). Samples count
//!   only once every table is running, from the end of that spread.
//!
//! Loopback only; both modes are bounded in count and time.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use burraco_protocol::codec;
use burraco_protocol::wire::{ClientMessage, ServerMessage, WireSettings};
use burraco_rules::{Card, Seat};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

fn rss_kb(pid: u32) -> u64 {
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// Postcard binary frames instead of JSON text (`latency ... binary`): less decoding in this
/// client, which shares the two cores with the server.
static BINARY: AtomicBool = AtomicBool::new(false);

async fn send(ws: &mut Ws, m: &ClientMessage) {
    let frame = if BINARY.load(Ordering::Relaxed) {
        Message::Binary(codec::to_binary(m).into())
    } else {
        Message::Text(codec::to_json(m).into())
    };
    ws.send(frame).await.expect("send");
}

async fn recv(ws: &mut Ws) -> ServerMessage {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("a frame in 30 s");
        match frame.expect("open").expect("frame") {
            Message::Text(t) => {
                return codec::from_json(t.as_str(), usize::MAX)
                    .result
                    .expect("decodes");
            }
            Message::Binary(b) => {
                return codec::from_binary(&b, usize::MAX).result.expect("decodes");
            }
            Message::Close(_) => panic!("closed by the server"),
            _ => {}
        }
    }
}

async fn hello(addr: SocketAddr, name: &str) -> Ws {
    // No Nagle: a request must leave at once, as the server's frames do. A 4 KiB read buffer:
    // tungstenite zero-fills the whole buffer before every read, and with its 128 KiB default
    // that memset was a fifth of this client's CPU, taken from the server's two cores.
    let config = WebSocketConfig::default().read_buffer_size(4096);
    let (mut ws, _) =
        tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/ws"), Some(config), true)
            .await
            .expect("connect");
    send(
        &mut ws,
        &ClientMessage::Hello {
            version: "1.0".into(),
            name: name.into(),
            resume: None,
        },
    )
    .await;
    assert!(matches!(recv(&mut ws).await, ServerMessage::Welcome { .. }));
    ws
}

async fn idle(addr: SocketAddr, pid: u32, n: usize) {
    let before = rss_kb(pid);
    let mut conns = Vec::with_capacity(n);
    for i in 0..n {
        conns.push(hello(addr, &format!("idle{i}")).await);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kb(pid);
    let per = (after.saturating_sub(before)) as f64 * 1024.0 / n as f64;
    println!(
        "idle connections: {n}; server RSS {before} kB -> {after} kB; {per:.0} bytes per idle connection"
    );
    drop(conns);
}

/// One table: its four connections, each seat's hand, whose turn it is.
struct TableDriver {
    id: String,
    seats: Vec<(Seat, Ws)>,
    hands: [Vec<Card>; 4],
    on_turn: Option<Seat>,
    next_id: u64,
    over: bool,
}

impl TableDriver {
    async fn open(addr: SocketAddr, n: usize) -> TableDriver {
        let mut creator = hello(addr, &format!("t{n}n")).await;
        let settings = WireSettings {
            preset: "fitab".into(),
            players: Some(4),
            hands: Some(8),
            clocks: Some("off".into()),
            ..WireSettings::default()
        };
        send(
            &mut creator,
            &ClientMessage::CreateTable {
                id: 1,
                settings,
                private: false,
                bots: None,
            },
        )
        .await;
        let (id, seat) = loop {
            if let ServerMessage::TableCreated { table, seat, .. } = recv(&mut creator).await {
                break (table, seat.0);
            }
        };
        let mut seats = vec![(seat, creator)];
        for k in 1..4 {
            let mut ws = hello(addr, &format!("t{n}s{k}")).await;
            send(
                &mut ws,
                &ClientMessage::Join {
                    id: 1,
                    table: Some(id.clone()),
                    invite: None,
                    seat: None,
                },
            )
            .await;
            let seat = loop {
                if let ServerMessage::Seated { seat, .. } = recv(&mut ws).await {
                    break seat.0;
                }
            };
            seats.push((seat, ws));
        }
        let mut driver = TableDriver {
            id,
            seats,
            hands: Default::default(),
            on_turn: None,
            next_id: 10,
            over: false,
        };
        for i in 0..4 {
            let table = driver.id.clone();
            send(
                &mut driver.seats[i].1,
                &ClientMessage::Ready { id: 2, table },
            )
            .await;
        }
        driver
    }

    /// What socket `k` learned: its own seat's cards; whose turn (from socket 0 only, so a
    /// socket read later never rewinds it).
    fn note(&mut self, k: usize, m: &ServerMessage) {
        let own = self.seats[k].0.index();
        match m {
            ServerMessage::Dealt { cards, .. } => self.hands[own] = cards.clone(),
            ServerMessage::DrewCard { card, .. } => self.hands[own].push(*card),
            ServerMessage::HandEnded { .. } => {
                self.hands[own].clear();
                if k == 0 {
                    self.on_turn = None;
                }
            }
            ServerMessage::TurnStarted { seat, .. } if k == 0 => self.on_turn = Some(seat.0),
            ServerMessage::MatchEnded { .. } => self.over = true,
            _ => {}
        }
    }

    /// Reads seat `i` until `done` says so.
    async fn read_until(&mut self, i: usize, done: impl Fn(&ServerMessage) -> bool) {
        loop {
            let m = recv(&mut self.seats[i].1).await;
            self.note(i, &m);
            if done(&m) {
                return;
            }
        }
    }

    /// Plays one action of the seat on turn; returns the latency to the last seat's event.
    async fn act(&mut self) -> Option<Duration> {
        while self.on_turn.is_none() && !self.over {
            self.read_until(0, |m| {
                matches!(
                    m,
                    ServerMessage::TurnStarted { .. } | ServerMessage::MatchEnded { .. }
                )
            })
            .await;
        }
        let seat = self.on_turn?;
        let i = self
            .seats
            .iter()
            .position(|(s, _)| *s == seat)
            .expect("seat");
        if self.hands[seat.index()].is_empty() {
            self.read_until(i, |m| matches!(m, ServerMessage::Dealt { .. }))
                .await;
        }
        let table = self.id.clone();
        self.next_id += 1;
        let id = self.next_id;
        let held = self.hands[seat.index()].len();
        let (request, is_draw) = if held % 2 == 1 {
            (ClientMessage::Draw { id, table }, true)
        } else {
            let card = self.hands[seat.index()].remove(0);
            (ClientMessage::Discard { id, table, card }, false)
        };
        let start = Instant::now();
        send(&mut self.seats[i].1, &request).await;
        for k in 0..4 {
            self.read_until(k, |m| match m {
                ServerMessage::Drew { seat: s, .. } => is_draw && s.0 == seat,
                ServerMessage::Discarded { seat: s, .. } => !is_draw && s.0 == seat,
                _ => false,
            })
            .await;
        }
        let latency = start.elapsed();
        if !is_draw {
            self.on_turn = None;
        }
        self.read_until(i, |m| matches!(m, ServerMessage::Ok { id: r } | ServerMessage::Error { id: Some(r), .. } if *r == id))
            .await;
        Some(latency)
    }
}

/// One table of the bare fan-out baseline (`burraco-loadtest fanout-server`): no game and no
/// store; every frame is answered with a reply to the sender and two events to each of the four.
/// The same measurement against it is the floor this machine sets (`latency ... bare`).
struct BareDriver {
    seats: Vec<Ws>,
    next: usize,
}

impl BareDriver {
    const ACTION: &str = r#"{"type":"discard","id":1,"table":"t000001","card":"7H"}"#;

    async fn open(addr: SocketAddr, n: usize) -> BareDriver {
        let config = WebSocketConfig::default().read_buffer_size(4096);
        let mut seats = Vec::new();
        for _ in 0..4 {
            let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
                format!("ws://{addr}/ws"),
                Some(config),
                true,
            )
            .await
            .expect("connect");
            let hello = format!(r#"{{"type":"hello","table":{n}}}"#);
            ws.send(Message::Text(hello.into())).await.expect("send");
            seats.push(ws);
        }
        BareDriver { seats, next: 0 }
    }

    async fn act(&mut self) -> Option<Duration> {
        let seat = self.next;
        self.next = (seat + 1) % 4;
        let start = Instant::now();
        let action = Message::Text(Self::ACTION.into());
        self.seats[seat].send(action).await.ok()?;
        for (k, ws) in self.seats.iter_mut().enumerate() {
            for _ in 0..if k == seat { 3 } else { 2 } {
                match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
                    Ok(Some(Ok(_))) => {}
                    _ => return None,
                }
            }
        }
        Some(start.elapsed())
    }
}

/// A table of either server.
enum Driver {
    Game(TableDriver),
    Bare(BareDriver),
}

impl Driver {
    async fn act(&mut self) -> Option<Duration> {
        match self {
            Driver::Game(d) if d.over => None,
            Driver::Game(d) => d.act().await,
            Driver::Bare(d) => d.act().await,
        }
    }
}

/// Draw-and-discard turns in a hand, about: the tables' starts are spread over this many think
/// times so that their hands end at different moments (see the module comment).
const ACTIONS_PER_HAND: u64 = 100;

async fn latency(addr: SocketAddr, tables: usize, seconds: u64, think_ms: u64, bare: bool) {
    let mut drivers = Vec::new();
    for n in 0..tables {
        drivers.push(if bare {
            Driver::Bare(BareDriver::open(addr, n).await)
        } else {
            Driver::Game(TableDriver::open(addr, n).await)
        });
    }
    if bare {
        // Let the fan-out server register every connection before the first action.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    println!("{} connections open", tables * 4);
    // Flat out needs no spreading: every table is busy all the time anyway. The bare server has
    // no hands: spreading its starts the same way keeps the two measurements alike.
    let spread = Duration::from_millis(think_ms * ACTIONS_PER_HAND);
    let started = Instant::now();
    let measure_from = started + spread;
    let deadline = measure_from + Duration::from_secs(seconds);
    let tasks: Vec<_> = drivers
        .into_iter()
        .enumerate()
        .map(|(n, mut d)| {
            let offset = spread.mul_f64(n as f64 / tables as f64);
            let mut jitter = SplitMix(n as u64);
            tokio::spawn(async move {
                let mut samples = Vec::new();
                tokio::time::sleep(offset).await;
                while Instant::now() < deadline {
                    let sent = Instant::now();
                    match d.act().await {
                        Some(l) if sent >= measure_from => samples.push((sent, l)),
                        Some(_) => {}
                        None => break,
                    }
                    if think_ms > 0 {
                        let think = think_ms * 500 + jitter.next() % (think_ms * 1000);
                        tokio::time::sleep(Duration::from_micros(think)).await;
                    }
                }
                samples
            })
        })
        .collect();
    let mut timed = Vec::new();
    for t in tasks {
        timed.extend(t.await.expect("driver"));
    }
    let elapsed = measure_from.elapsed().as_secs_f64();
    if let Ok(path) = std::env::var("LATENCY_DUMP") {
        let text: String = timed
            .iter()
            .map(|(sent, l)| {
                let at = sent.duration_since(measure_from).as_micros();
                format!("{at} {}\n", l.as_micros())
            })
            .collect();
        std::fs::write(path, text).expect("write LATENCY_DUMP");
    }
    let mut all: Vec<u64> = timed.iter().map(|(_, l)| l.as_micros() as u64).collect();
    all.sort_unstable();
    let pct = |p: f64| all[((all.len() as f64 - 1.0) * p) as usize];
    println!(
        "tables {tables}, think {think_ms} ms: {} actions in {elapsed:.1} s = {:.0} actions/s; \
         action -> last seat's event: p50 {} us, p90 {} us, p99 {} us, p99.9 {} us, max {} us",
        all.len(),
        all.len() as f64 / elapsed,
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(0.999),
        all.last().copied().unwrap_or(0)
    );
}

/// SplitMix64: the think-time jitter (any well-spread sequence does; no need for a crate).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: loopback_load idle ADDR PID N | latency ADDR TABLES SECONDS THINK_MS [json|binary|bare]";
    let addr: SocketAddr = args.get(2).and_then(|a| a.parse().ok()).expect(usage);
    assert!(addr.ip().is_loopback(), "loopback targets only");
    let num = |i: usize| {
        args.get(i)
            .and_then(|a| a.parse::<u64>().ok())
            .expect(usage)
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    match args.get(1).map(String::as_str) {
        Some("idle") => rt.block_on(idle(addr, num(3) as u32, num(4).min(20_000) as usize)),
        Some("latency") => {
            let (binary, bare) = match args.get(6).map(String::as_str) {
                None | Some("json") => (false, false),
                Some("binary") => (true, false),
                Some("bare") => (false, true),
                Some(_) => panic!("{usage}"),
            };
            BINARY.store(binary, Ordering::Relaxed);
            rt.block_on(latency(
                addr,
                num(3).min(2_000) as usize,
                num(4).min(300),
                num(5),
                bare,
            ))
        }
        _ => panic!("{usage}"),
    }
}
