//! Bursts of quick plays: `askers` connections ask for a table of one kind at the same moment,
//! again and again (everyone leaves between bursts, so each burst starts from no waiting
//! table). Measured: how fast a burst is seated (quick plays per second, first ask to last
//! seat), each ask's time to its reply, and how many tables each burst made (whole tables: the
//! askers over the seats of one, when quick play brings simultaneous askers together).

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use burraco_protocol::codec::{from_json, to_json};
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::Barrier;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

use crate::metrics::{Metrics, Percentiles};
use crate::target::{Target, connect_from, sources, sources_for};

/// What a run asks.
#[derive(Debug, Clone)]
pub struct QuickPlayOptions {
    pub target: Target,
    pub askers: usize,
    pub players: u8,
    pub bursts: usize,
    pub preset: String,
}

/// What a run measured.
#[derive(Debug, Clone)]
pub struct QuickPlaySummary {
    /// Each burst's quick plays per second (askers / first ask to last seat).
    pub per_second: Vec<f64>,
    /// Each burst's tables.
    pub tables: Vec<usize>,
    pub latency: Percentiles,
    /// Quick plays answered with anything but a seat.
    pub refused: u64,
}

impl QuickPlaySummary {
    pub fn to_json(&self) -> serde_json::Value {
        let mut sorted = self.per_second.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
        serde_json::json!({
            "quick_plays_per_s_median": median,
            "quick_plays_per_s": self.per_second,
            "tables_per_burst": self.tables,
            "latency_ms": self.latency.to_json(),
            "refused": self.refused,
        })
    }
}

/// Why a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum QuickPlayError {
    #[error("connect: {0}")]
    Connect(String),
    #[error("an asker's connection closed: {0}")]
    Closed(String),
}

type Ws = WebSocketStream<TcpStream>;

async fn send(ws: &mut Ws, message: &ClientMessage) -> Result<(), QuickPlayError> {
    ws.send(Message::text(to_json(message)))
        .await
        .map_err(|e| QuickPlayError::Closed(e.to_string()))
}

/// The reply to request `id`, past any event.
async fn reply(ws: &mut Ws, id: u64) -> Result<ServerMessage, QuickPlayError> {
    loop {
        let frame = ws
            .next()
            .await
            .ok_or_else(|| QuickPlayError::Closed("no reply".into()))?
            .map_err(|e| QuickPlayError::Closed(e.to_string()))?;
        let Message::Text(text) = frame else { continue };
        let Ok(message) = from_json::<ServerMessage>(text.as_str(), usize::MAX).result else {
            continue;
        };
        let answered = match &message {
            ServerMessage::Seated { id: r, .. } | ServerMessage::Ok { id: r } => *r == id,
            ServerMessage::Error { id: r, .. } => *r == Some(id),
            _ => false,
        };
        if answered {
            return Ok(message);
        }
    }
}

/// Runs the bursts.
pub async fn run_quick_play(
    options: &QuickPlayOptions,
) -> Result<QuickPlaySummary, QuickPlayError> {
    let srcs = sources(sources_for(options.askers));
    let mut sockets = Vec::with_capacity(options.askers);
    for i in 0..options.askers {
        let tcp = connect_from(srcs[i % srcs.len()], options.target.addr)
            .await
            .map_err(|e| QuickPlayError::Connect(e.to_string()))?;
        let (mut ws, _) = tokio_tungstenite::client_async(options.target.url.as_str(), tcp)
            .await
            .map_err(|e| QuickPlayError::Connect(e.to_string()))?;
        // 1.8: a connection quick play never moves (on one node nothing splits to move).
        let hello = ClientMessage::Hello {
            version: "1.8".into(),
            name: format!("q{i}"),
            resume: None,
        };
        send(&mut ws, &hello).await?;
        // The welcome.
        ws.next()
            .await
            .ok_or_else(|| QuickPlayError::Connect("no welcome".into()))?
            .map_err(|e| QuickPlayError::Connect(e.to_string()))?;
        sockets.push(ws);
    }
    let metrics = Arc::new(Metrics::default());
    let mut summary = QuickPlaySummary {
        per_second: Vec::new(),
        tables: Vec::new(),
        latency: Percentiles::default(),
        refused: 0,
    };
    for burst in 0..options.bursts {
        let barrier = Arc::new(Barrier::new(options.askers + 1));
        let mut tasks = Vec::with_capacity(options.askers);
        for mut ws in sockets.drain(..) {
            let (barrier, metrics) = (barrier.clone(), metrics.clone());
            let ask = ClientMessage::QuickPlay {
                id: 1 + 2 * burst as u64,
                preset: Some(options.preset.clone()),
                players: Some(options.players),
            };
            tasks.push(tokio::spawn(async move {
                barrier.wait().await;
                let asked = Instant::now();
                send(&mut ws, &ask).await?;
                let answer = reply(&mut ws, ask.id().unwrap_or_default()).await?;
                Metrics::record(&metrics.reply, asked.elapsed());
                let table = match answer {
                    ServerMessage::Seated { table, .. } => Some(table),
                    _ => None,
                };
                Ok::<_, QuickPlayError>((ws, table, Instant::now()))
            }));
        }
        barrier.wait().await;
        let started = Instant::now();
        let mut last = started;
        let mut tables = HashSet::new();
        let mut seated = Vec::new();
        for task in tasks {
            let (ws, table, at) = task
                .await
                .map_err(|e| QuickPlayError::Closed(e.to_string()))??;
            last = last.max(at);
            match &table {
                Some(t) => {
                    tables.insert(t.clone());
                }
                None => summary.refused += 1,
            }
            seated.push((ws, table));
        }
        let took = last.duration_since(started).max(Duration::from_micros(1));
        summary
            .per_second
            .push(options.askers as f64 / took.as_secs_f64());
        summary.tables.push(tables.len());
        // Everyone leaves: the tables close, and the next burst starts from none.
        let id = 2 + 2 * burst as u64;
        for (mut ws, table) in seated {
            if let Some(table) = table {
                send(&mut ws, &ClientMessage::Leave { id, table }).await?;
                reply(&mut ws, id).await?;
            }
            sockets.push(ws);
        }
        if let Some(ws) = sockets.first_mut() {
            gone(ws, &tables, 1_000_000 + burst as u64 * 1000).await?;
        }
    }
    summary.latency = Percentiles::of(&metrics.reply);
    Ok(summary)
}

/// Until none of `tables` is listed any more (each closed once its players left), asked on `ws`
/// with request ids from `first_id`.
async fn gone(ws: &mut Ws, tables: &HashSet<String>, first_id: u64) -> Result<(), QuickPlayError> {
    for id in first_id.. {
        send(ws, &ClientMessage::ListTables { id }).await?;
        let listed = loop {
            let frame = ws
                .next()
                .await
                .ok_or_else(|| QuickPlayError::Closed("no list".into()))?
                .map_err(|e| QuickPlayError::Closed(e.to_string()))?;
            let Message::Text(text) = frame else { continue };
            if let Ok(ServerMessage::Tables { id: r, tables, .. }) =
                from_json::<ServerMessage>(text.as_str(), usize::MAX).result
                && r == id
            {
                break tables;
            }
        };
        if listed.iter().all(|t| !tables.contains(&t.table)) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Ok(())
}
