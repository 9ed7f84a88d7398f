//! The floor of what NATS costs per game action (docs/PERFORMANCE.md, "A cheaper cluster"):
//! bare JetStream appends made as the table log makes them, with no game, no node and no KV
//! write beside them, for `deploy/nats-cost.sh` (`BARE=1`) to read the NATS servers' CPU against.
//!
//!   bare-appends NATS_URLS TABLES THINK_MS SECS BYTES DUPLICATE_WINDOW_SECS
//!
//! Makes a stream like the log's (`BURRACO_LOG`'s settings: file storage, 3 replicas, direct
//! gets, the given duplicate window) named `BARE_LOG`, then TABLES tasks each append BYTES
//! bytes to its own subject once every THINK_MS (jittered over [THINK_MS/2, 3*THINK_MS/2],
//! starts spread over one think time), each append carrying a message id and the subject's
//! expected last sequence and waiting for its acknowledgement, as `cluster/log.rs` does. Prints
//! the acknowledged appends. Loopback only; bounded by SECS.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_nats::jetstream::{self, stream};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [urls, tables, think, secs, bytes, window] = args.as_slice() else {
        anyhow::bail!(
            "usage: bare-appends NATS_URLS TABLES THINK_MS SECS BYTES DUPLICATE_WINDOW_SECS"
        );
    };
    let tables: u64 = tables.parse()?;
    let think: u64 = think.parse()?;
    let secs: u64 = secs.parse()?;
    let bytes: usize = bytes.parse()?;
    let window: u64 = window.parse()?;

    let urls: Vec<String> = urls.split(',').map(str::to_owned).collect();
    let client = async_nats::connect(urls.as_slice()).await?;
    let js = jetstream::new(client);
    let config = stream::Config {
        name: "BARE_LOG".into(),
        subjects: vec!["bare.log.*".into()],
        storage: stream::StorageType::File,
        num_replicas: 3,
        duplicate_window: Duration::from_secs(window),
        allow_direct: true,
        ..Default::default()
    };
    // A cluster just started may not have elected its metadata leader yet.
    let mut tries = 0;
    while let Err(e) = js.get_or_create_stream(config.clone()).await {
        tries += 1;
        anyhow::ensure!(tries < 60, "no stream: {e}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    let acked = Arc::new(AtomicU64::new(0));
    let end = tokio::time::Instant::now() + Duration::from_secs(secs);
    let payload = vec![b'x'; bytes];
    let mut tasks = Vec::new();
    for table in 0..tables {
        let (js, acked, payload) = (js.clone(), acked.clone(), payload.clone());
        tasks.push(tokio::spawn(async move {
            // Spread the starts over one think time, and jitter each pause, as the load tool
            // does: all tables at one instant would be a burst, not a steady rate.
            let mut seed = table.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let mut random = move |below: u64| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed % below.max(1)
            };
            tokio::time::sleep(Duration::from_millis(random(think))).await;
            let subject = format!("bare.log.t{table}");
            let mut last = 0;
            let mut appended = 0u64;
            while tokio::time::Instant::now() < end {
                let publish = jetstream::message::PublishMessage::build()
                    .payload(payload.clone().into())
                    .message_id(format!("bare-{table}-{appended}"))
                    .expected_last_subject_sequence(last);
                let ack = async { js.send_publish(subject.clone(), publish).await?.await };
                match ack.await {
                    Ok(ack) => {
                        last = ack.sequence;
                        appended += 1;
                        acked.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) => eprintln!("append refused: {e}"),
                }
                let pause = think / 2 + random(think + 1);
                tokio::time::sleep(Duration::from_millis(pause)).await;
            }
        }));
    }
    for task in tasks {
        task.await?;
    }
    println!("{}", acked.load(Ordering::Relaxed));
    Ok(())
}
