//! What a run measures: counters, two HDR latency histograms, and the generator's own CPU and
//! memory (so a saturated generator is never mistaken for a slow server).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hdrhistogram::Histogram;

/// Shared by every table task.
#[derive(Debug)]
pub struct Metrics {
    pub connections: AtomicU64,
    pub connect_failures: AtomicU64,
    pub disconnects: AtomicU64,
    pub reconnects: AtomicU64,
    pub actions: AtomicU64,
    pub replies: AtomicU64,
    /// Error replies to actions, refused seat requests, undecodable frames.
    pub protocol_errors: AtomicU64,
    pub hands: AtomicU64,
    pub matches: AtomicU64,
    pub messages_in: AtomicU64,
    pub messages_out: AtomicU64,
    pub tables_active: AtomicU64,
    /// Action sent (or due, in the open model) to its reply, in microseconds.
    pub reply: Mutex<Histogram<u64>>,
    /// Action sent (or due) to the moment the last seat of the table received its first event.
    pub fanout: Mutex<Histogram<u64>>,
}

impl Default for Metrics {
    fn default() -> Self {
        let h = || Mutex::new(Histogram::new_with_bounds(1, 120_000_000, 3).expect("valid bounds"));
        Metrics {
            connections: AtomicU64::new(0),
            connect_failures: AtomicU64::new(0),
            disconnects: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            actions: AtomicU64::new(0),
            replies: AtomicU64::new(0),
            protocol_errors: AtomicU64::new(0),
            hands: AtomicU64::new(0),
            matches: AtomicU64::new(0),
            messages_in: AtomicU64::new(0),
            messages_out: AtomicU64::new(0),
            tables_active: AtomicU64::new(0),
            reply: h(),
            fanout: h(),
        }
    }
}

impl Metrics {
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    pub fn record(histogram: &Mutex<Histogram<u64>>, latency: Duration) {
        let us = latency.as_micros().clamp(1, 120_000_000) as u64;
        if let Ok(mut h) = histogram.lock() {
            let _ = h.record(us);
        }
    }

    /// Errors that fail a run: connections that could not be made, protocol errors.
    pub fn errors(&self) -> u64 {
        Metrics::get(&self.connect_failures) + Metrics::get(&self.protocol_errors)
    }
}

/// Latency percentiles in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Percentiles {
    pub count: u64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub p999: f64,
    pub max: f64,
}

impl Percentiles {
    pub fn of(histogram: &Mutex<Histogram<u64>>) -> Percentiles {
        let Ok(h) = histogram.lock() else {
            return Percentiles::default();
        };
        if h.is_empty() {
            return Percentiles::default();
        }
        let ms = |us: u64| us as f64 / 1000.0;
        Percentiles {
            count: h.len(),
            p50: ms(h.value_at_quantile(0.50)),
            p90: ms(h.value_at_quantile(0.90)),
            p99: ms(h.value_at_quantile(0.99)),
            p999: ms(h.value_at_quantile(0.999)),
            max: ms(h.max()),
        }
    }

    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "count": self.count, "p50": self.p50, "p90": self.p90, "p99": self.p99, "p999": self.p999, "max": self.max,
        })
    }
}

/// CPU seconds (user + system) and resident memory of a process, from /proc.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ProcUsage {
    pub cpu_seconds: f64,
    pub rss_bytes: u64,
}

impl ProcUsage {
    /// This process.
    pub fn own() -> Option<ProcUsage> {
        ProcUsage::read("self")
    }

    /// Another process by pid (e.g. the server, to compute actions per server core).
    pub fn of_pid(pid: u32) -> Option<ProcUsage> {
        ProcUsage::read(&pid.to_string())
    }

    fn read(which: &str) -> Option<ProcUsage> {
        let stat = std::fs::read_to_string(format!("/proc/{which}/stat")).ok()?;
        // Fields after the command name (which may hold spaces) start after the last ')'.
        let after = &stat[stat.rfind(')')? + 2..];
        let fields: Vec<&str> = after.split_whitespace().collect();
        // utime and stime are fields 14 and 15 of stat: 11 and 12 after the state field.
        let ticks: f64 =
            fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
        let status = std::fs::read_to_string(format!("/proc/{which}/status")).ok()?;
        let rss_kb = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0);
        // USER_HZ is 100 on every Linux configuration we run on.
        Some(ProcUsage {
            cpu_seconds: ticks / 100.0,
            rss_bytes: rss_kb * 1024,
        })
    }
}
