//! One table of four bot connections, driven by one task.
//!
//! The host creates a private table and the three guests join it by invite code, all through the
//! bot crate's [`Session`] (the real protocol: hello, seat, ready, events, resync). The task paces
//! the table's actions (closed model: think time after each reply; open model: actions due at a
//! constant rate, latency counted from when each was due) and measures, for every action, the
//! time to its reply and the time until the last of the four seats received its first event.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use burraco_bot::{Level, SearchBudget, SeatRequest, Session};
use burraco_protocol::codec::{from_json, to_json};
use burraco_protocol::wire::{ClientMessage, ServerMessage, WireSettings};
use futures_util::SinkExt;
use futures_util::stream::{SplitSink, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::metrics::Metrics;
use crate::target::{Target, connect_from};

/// How a table behaves.
#[derive(Debug, Clone)]
pub struct TableOptions {
    pub target: Target,
    pub sources: Arc<Vec<IpAddr>>,
    pub index: usize,
    /// Time between a table's actions; zero = flat out.
    pub think: Duration,
    /// Open model: actions due at a constant rate (one per `think`), latency from the due time.
    pub open_model: bool,
    pub deadline: Instant,
    /// When every connection drops and resumes at once.
    pub storm_at: Option<Instant>,
    pub preset: String,
    pub hands: u8,
    pub clocks: String,
    pub strategy: Level,
}

type Sink = SplitSink<WebSocketStream<TcpStream>, Message>;

struct Conn {
    session: Session,
    sink: Option<Sink>,
    reader: Option<JoinHandle<()>>,
    generation: u64,
}

struct Outstanding {
    seat: usize,
    id: u64,
    due: Instant,
    expected_seq: u64,
    replied: bool,
    seen: [bool; 4],
    fanout_done: bool,
}

/// Why a match could not be played to its end.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("connect: {0}")]
    Connect(String),
    #[error("the server refused a seat: {0}")]
    Seat(String),
    #[error("no progress for 60 s")]
    Stalled,
}

fn ws_config() -> WebSocketConfig {
    // Small buffers: tens of thousands of sockets (the 128 KiB default would be gigabytes), and
    // tungstenite zero-fills the whole read buffer before every read.
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(64 * 1024)
}

async fn connect(
    options: &TableOptions,
    slot: usize,
    generation: u64,
    tx: &mpsc::Sender<(usize, u64, Option<Message>)>,
    metrics: &Metrics,
) -> Result<(Sink, JoinHandle<()>), TableError> {
    let source = options.sources[(options.index * 4 + slot) % options.sources.len()];
    let attempt = async {
        let tcp = connect_from(source, options.target.addr)
            .await
            .map_err(|e| e.to_string())?;
        let (ws, _) = tokio_tungstenite::client_async_with_config(
            options.target.url.as_str(),
            tcp,
            Some(ws_config()),
        )
        .await
        .map_err(|e| e.to_string())?;
        Ok::<_, String>(ws)
    };
    let ws = match timeout(Duration::from_secs(20), attempt).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            Metrics::add(&metrics.connect_failures, 1);
            return Err(TableError::Connect(e));
        }
        Err(_) => {
            Metrics::add(&metrics.connect_failures, 1);
            return Err(TableError::Connect("timed out".into()));
        }
    };
    Metrics::add(&metrics.connections, 1);
    let (sink, mut stream) = ws.split();
    let tx = tx.clone();
    let reader = tokio::spawn(async move {
        while let Some(frame) = stream.next().await {
            match frame {
                Ok(m) => {
                    if tx.send((slot, generation, Some(m))).await.is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send((slot, generation, None)).await;
    });
    Ok((sink, reader))
}

async fn send(conn: &mut Conn, message: &ClientMessage, metrics: &Metrics) -> bool {
    let Some(sink) = conn.sink.as_mut() else {
        return false;
    };
    Metrics::add(&metrics.messages_out, 1);
    sink.send(Message::text(to_json(message))).await.is_ok()
}

fn drop_conn(conn: &mut Conn) {
    if let Some(r) = conn.reader.take() {
        r.abort();
    }
    conn.sink = None;
}

/// (Re)connects slot `k` and says hello (resuming when the session has a token).
async fn open(
    conns: &mut [Conn],
    k: usize,
    options: &TableOptions,
    tx: &mpsc::Sender<(usize, u64, Option<Message>)>,
    metrics: &Metrics,
) -> Result<(), TableError> {
    drop_conn(&mut conns[k]);
    conns[k].generation += 1;
    let (sink, reader) = connect(options, k, conns[k].generation, tx, metrics).await?;
    conns[k].sink = Some(sink);
    conns[k].reader = Some(reader);
    let hello = conns[k].session.hello();
    send(&mut conns[k], &hello, metrics).await;
    Ok(())
}

fn session(options: &TableOptions, k: usize, request: SeatRequest) -> Session {
    let level = options.strategy;
    let seed = (options.index as u64) << 8 | k as u64;
    let budget = SearchBudget {
        worlds: 4,
        max_time: None,
        horizon: 6,
    };
    Session::new(
        format!("lt{}-{k}", options.index),
        request,
        1,
        Box::new(move || level.strategy(seed, budget)),
        seed,
    )
}

/// Plays matches at this table until the deadline.
pub async fn run_table(options: TableOptions, metrics: Arc<Metrics>) {
    Metrics::add(&metrics.tables_active, 1);
    let mut storm = options.storm_at;
    while Instant::now() < options.deadline {
        match play_match(&options, &metrics, &mut storm).await {
            Ok(true) => Metrics::add(&metrics.matches, 1),
            Ok(false) => break,
            Err(_) => {
                Metrics::add(&metrics.protocol_errors, 1);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
    metrics
        .tables_active
        .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
}

/// One match: `Ok(true)` when it ended, `Ok(false)` at the deadline.
async fn play_match(
    options: &TableOptions,
    metrics: &Metrics,
    storm: &mut Option<Instant>,
) -> Result<bool, TableError> {
    let (tx, mut rx) = mpsc::channel::<(usize, u64, Option<Message>)>(256);
    let settings = WireSettings {
        preset: options.preset.clone(),
        players: Some(4),
        hands: Some(options.hands),
        clocks: Some(options.clocks.clone()),
        ..WireSettings::default()
    };
    let host = session(
        options,
        0,
        SeatRequest::Create {
            settings,
            private: true,
        },
    );
    let mut conns: Vec<Conn> = vec![Conn {
        session: host,
        sink: None,
        reader: None,
        generation: 0,
    }];
    let result = drive(options, metrics, storm, &mut conns, &tx, &mut rx).await;
    for c in &mut conns {
        if let Some(sink) = c.sink.as_mut() {
            let _ = sink.close().await;
        }
        drop_conn(c);
    }
    result
}

async fn drive(
    options: &TableOptions,
    metrics: &Metrics,
    storm: &mut Option<Instant>,
    conns: &mut Vec<Conn>,
    tx: &mpsc::Sender<(usize, u64, Option<Message>)>,
    rx: &mut mpsc::Receiver<(usize, u64, Option<Message>)>,
) -> Result<bool, TableError> {
    open(conns, 0, options, tx, metrics).await?;
    let mut out = Vec::new();
    let mut next_due = Instant::now();
    let mut outstanding: Option<Outstanding> = None;
    let mut last_progress = Instant::now();
    let mut hands_seen = 0u64;
    loop {
        let now = Instant::now();
        if now >= options.deadline {
            return Ok(false);
        }
        if now.duration_since(last_progress) > Duration::from_secs(60) {
            return Err(TableError::Stalled);
        }
        if conns.len() == 4 && conns.iter().all(|c| c.session.is_finished()) {
            return Ok(true);
        }
        // The host knows the invite code: seat the guests.
        if conns.len() == 1 {
            if let Some(code) = conns[0].session.invite().map(str::to_owned) {
                for k in 1..4 {
                    conns.push(Conn {
                        session: session(options, k, SeatRequest::Invite { code: code.clone() }),
                        sink: None,
                        reader: None,
                        generation: 0,
                    });
                    open(conns, k, options, tx, metrics).await?;
                }
            } else if conns[0].session.is_finished() {
                return Err(TableError::Seat(
                    conns[0]
                        .session
                        .last_error()
                        .unwrap_or("refused")
                        .to_owned(),
                ));
            }
        }
        if let Some(at) = *storm
            && now >= at
        {
            *storm = None;
            outstanding = None;
            for k in 0..conns.len() {
                Metrics::add(&metrics.reconnects, 1);
                open(conns, k, options, tx, metrics).await?;
            }
        }
        // Act when the table's pacing allows and nothing is in flight.
        if outstanding.is_none() && now >= next_due {
            for (k, conn) in conns.iter_mut().enumerate() {
                let before_seq = conn.session.last_seq();
                if let Some(message) = conn.session.poll_action() {
                    let id = message.id().unwrap_or(0);
                    let due = if options.open_model { next_due } else { now };
                    outstanding = Some(Outstanding {
                        seat: k,
                        id,
                        due,
                        expected_seq: before_seq + 1,
                        replied: false,
                        seen: [false; 4],
                        fanout_done: false,
                    });
                    Metrics::add(&metrics.actions, 1);
                    send(conn, &message, metrics).await;
                    next_due = if options.open_model {
                        next_due + options.think
                    } else {
                        Instant::now() + options.think
                    };
                    break;
                }
            }
        }
        let wake = [
            Some(options.deadline),
            *storm,
            (outstanding.is_none()).then_some(next_due),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(options.deadline)
        .max(Instant::now() + Duration::from_micros(100));
        let received = tokio::select! {
            r = rx.recv() => r,
            _ = sleep_until(wake.min(last_progress + Duration::from_secs(61))) => continue,
        };
        let Some((k, generation, frame)) = received else {
            return Err(TableError::Stalled);
        };
        if k >= conns.len() || generation != conns[k].generation {
            continue; // a frame from a connection already replaced
        }
        let Some(frame) = frame else {
            // The server closed this connection: resume it.
            Metrics::add(&metrics.disconnects, 1);
            if conns[k].session.is_finished() {
                drop_conn(&mut conns[k]);
                continue;
            }
            Metrics::add(&metrics.reconnects, 1);
            open(conns, k, options, tx, metrics).await?;
            continue;
        };
        let Message::Text(text) = frame else { continue };
        Metrics::add(&metrics.messages_in, 1);
        last_progress = Instant::now();
        let Ok(message) = from_json::<ServerMessage>(text.as_str(), usize::MAX).result else {
            Metrics::add(&metrics.protocol_errors, 1);
            continue;
        };
        if let Some(o) = outstanding.as_mut()
            && o.seat == k
            && !o.replied
            && matches!(&message, ServerMessage::Ok { id } | ServerMessage::Error { id: Some(id), .. } if *id == o.id)
        {
            o.replied = true;
            Metrics::add(&metrics.replies, 1);
            Metrics::record(&metrics.reply, o.due.elapsed());
            if matches!(message, ServerMessage::Error { .. }) {
                // Refused: no event follows. The bot picks another action.
                o.fanout_done = true;
            }
        }
        if outstanding
            .as_ref()
            .is_some_and(|o| o.due.elapsed() > Duration::from_secs(30))
        {
            Metrics::add(&metrics.protocol_errors, 1);
            outstanding = None;
        }
        if k == 0 && matches!(message, ServerMessage::HandEnded { .. }) {
            Metrics::add(&metrics.hands, 1);
        }
        // An error is what the session counts as one: not the expected refusal of its ready
        // between hands once the match is over.
        let errors = conns[k].session.stats().errors;
        conns[k].session.handle(&message, &mut out);
        Metrics::add(
            &metrics.protocol_errors,
            conns[k].session.stats().errors - errors,
        );
        for m in out.drain(..) {
            send(&mut conns[k], &m, metrics).await;
        }
        if let Some(o) = outstanding.as_mut() {
            if !o.fanout_done && conns[k].session.last_seq() >= o.expected_seq {
                o.seen[k] = true;
                if (0..conns.len()).all(|i| o.seen[i]) {
                    o.fanout_done = true;
                    Metrics::record(&metrics.fanout, o.due.elapsed());
                }
            }
            if o.replied && o.fanout_done {
                outstanding = None;
            }
        }
        // A new hand restarts the open model's schedule (the deal pause is not the server's lag).
        let hands = conns[0].session.stats().hands;
        if hands != hands_seen {
            hands_seen = hands;
            next_due = Instant::now() + options.think;
        }
    }
}
