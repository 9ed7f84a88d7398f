//! The client's own pace: a token bucket kept under the server's request limits, so the runtime
//! never sends a request it knows the server would refuse `rate_limited`.
//!
//! The server limits each connection (100 requests a second, bursts of 200, by default) and a
//! personal token's connections together (40 a second, bursts of 80): docs/PROTOCOL.md section 7,
//! docs/ACCOUNTS.md. A bot that answered every reply at once outran them against another quick
//! bot, and the refusals, read as refusals of its moves, ran its move clock out (issue 32). The
//! server does not say its limits on the wire, so the pace starts from the documented ones, with
//! a margin, and learns from a `rate_limited` that it is slower than that (an operator's setting,
//! or other connections of the same token): the bucket is emptied and the rate halved, and it
//! steps back up after [`RECOVERY`] without another.
//!
//! Time is an argument: the caller's clock decides, and the tests step it by hand.

use std::time::{Duration, Instant};

/// A connection's limit, by default (`--rate-per-sec`, `--rate-burst`)...
pub const CONNECTION_RATE_PER_SEC: f64 = 100.0;
pub const CONNECTION_BURST: f64 = 200.0;
/// ...and a personal token's, its connections together (`accounts::live` at the server).
pub const TOKEN_RATE_PER_SEC: f64 = 40.0;
pub const TOKEN_BURST: f64 = 80.0;

/// The share of the server's rate the pace keeps to: frames bunch up on the way, so requests
/// sent at exactly the rate may arrive faster than it.
const RATE_MARGIN: f64 = 0.9;
/// The share of the server's burst the pace may spend at once: what is left absorbs the bunching.
const BURST_MARGIN: f64 = 0.5;
/// The slowest the pace goes after `rate_limited` answers in a row.
const MIN_RATE_PER_SEC: f64 = 1.0;
/// After this long without a `rate_limited`, a slowed pace doubles again (up to its start).
pub const RECOVERY: Duration = Duration::from_secs(10);

/// A token bucket that lets a request wait instead of refusing it.
#[derive(Debug, Clone)]
pub struct Pace {
    /// May be negative: requests reserved ahead of the refill, each waiting its turn.
    tokens: f64,
    rate: f64,
    burst: f64,
    /// The rate the pace started at, and steps back up to.
    full_rate: f64,
    last: Instant,
    /// The last `rate_limited`, while the rate is below `full_rate`.
    limited_at: Option<Instant>,
}

impl Pace {
    /// `rate` requests a second, bursts of `burst`; it starts full.
    pub fn new(rate: f64, burst: f64, now: Instant) -> Pace {
        let rate = rate.max(MIN_RATE_PER_SEC);
        let burst = burst.max(1.0);
        Pace {
            tokens: burst,
            rate,
            burst,
            full_rate: rate,
            last: now,
            limited_at: None,
        }
    }

    /// Under the server's documented limits with a margin: a connection's, or with a personal
    /// token the token's (the lower).
    pub fn for_server(token: bool, now: Instant) -> Pace {
        let (rate, burst) = if token {
            (TOKEN_RATE_PER_SEC, TOKEN_BURST)
        } else {
            (CONNECTION_RATE_PER_SEC, CONNECTION_BURST)
        };
        Pace::new(rate * RATE_MARGIN, burst * BURST_MARGIN, now)
    }

    /// The requests a second the pace keeps to now.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    fn refill(&mut self, now: Instant) {
        if let Some(at) = self.limited_at
            && now.saturating_duration_since(at) >= RECOVERY
        {
            self.rate = (self.rate * 2.0).min(self.full_rate);
            self.limited_at = (self.rate < self.full_rate).then_some(now);
        }
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = self.last.max(now);
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
    }

    /// Reserves one request at `now`: how long to wait before sending it (zero when the bucket
    /// holds a token). Requests reserved together leave one after the other at the rate.
    pub fn reserve(&mut self, now: Instant) -> Duration {
        self.refill(now);
        self.tokens -= 1.0;
        if self.tokens >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-self.tokens / self.rate)
        }
    }

    /// The server answered `rate_limited` at `now`: it is slower than the pace believed. The
    /// bucket is emptied (the server's is) and the rate halved.
    pub fn limited(&mut self, now: Instant) {
        self.refill(now);
        self.tokens = self.tokens.min(0.0);
        self.rate = (self.rate / 2.0).max(MIN_RATE_PER_SEC);
        self.limited_at = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// What the server's bucket (`server/src/rate.rs`) would refuse of requests sent at `sent`.
    fn refused_by_server(rate: f64, burst: f64, sent: &[Instant]) -> usize {
        let mut tokens = burst;
        let mut last = sent[0];
        let mut refused = 0;
        for &at in sent {
            tokens = (tokens + at.duration_since(last).as_secs_f64() * rate).min(burst);
            last = at;
            if tokens >= 1.0 {
                tokens -= 1.0;
            } else {
                refused += 1;
            }
        }
        refused
    }

    /// A client that would send 1,000 requests at once sends its burst, then the rate; the
    /// server's bucket refuses none of them.
    #[test]
    fn a_flood_leaves_at_the_rate_and_the_server_refuses_none() {
        let t0 = Instant::now();
        let mut pace = Pace::for_server(true, t0);
        let sent: Vec<Instant> = (0..1000).map(|_| t0 + pace.reserve(t0)).collect();
        let at_once = sent.iter().filter(|&&t| t == t0).count();
        assert_eq!(at_once, (TOKEN_BURST * BURST_MARGIN) as usize);
        let last = sent.last().expect("sent").duration_since(t0).as_secs_f64();
        let expected = (1000.0 - TOKEN_BURST * BURST_MARGIN) / (TOKEN_RATE_PER_SEC * RATE_MARGIN);
        assert!((last - expected).abs() < 0.01, "{last} s, not {expected}");
        assert_eq!(refused_by_server(TOKEN_RATE_PER_SEC, TOKEN_BURST, &sent), 0);
        // Even when the frames bunch up on the way: each one 10 ms late, every fifth on time.
        let bunched: Vec<Instant> = sent
            .iter()
            .enumerate()
            .map(|(i, &t)| if i % 5 == 0 { t } else { t + 10 * MS })
            .collect();
        let mut arrived = bunched.clone();
        arrived.sort();
        assert_eq!(
            refused_by_server(TOKEN_RATE_PER_SEC, TOKEN_BURST, &arrived),
            0
        );
    }

    /// A bot that would ask twice as fast as a connection may (a request every 5 ms) sends
    /// its burst at once, then keeps to the pace; the server's bucket refuses none.
    #[test]
    fn a_client_faster_than_the_limit_is_held_to_it() {
        let t0 = Instant::now();
        let mut pace = Pace::for_server(false, t0);
        let sent: Vec<Instant> = (0..2000u32)
            .map(|i| {
                let wanted = t0 + 5 * MS * i;
                wanted + pace.reserve(wanted)
            })
            .collect();
        let waited = sent
            .iter()
            .enumerate()
            .position(|(i, &t)| t > t0 + 5 * MS * i as u32)
            .expect("some wait");
        assert!(waited > 100, "the burst and its refill first: {waited}");
        let rate = CONNECTION_RATE_PER_SEC * RATE_MARGIN;
        let last = sent.last().expect("sent").duration_since(t0).as_secs_f64();
        let expected = (2000.0 - CONNECTION_BURST * BURST_MARGIN) / rate;
        assert!((last - expected).abs() < 0.01, "{last} s, not {expected}");
        assert_eq!(
            refused_by_server(CONNECTION_RATE_PER_SEC, CONNECTION_BURST, &sent),
            0
        );
    }

    /// `rate_limited` empties the bucket and halves the rate, down to its floor; the pace steps
    /// back up after the recovery time without another.
    #[test]
    fn a_refusal_slows_the_pace_until_it_recovers() {
        let t0 = Instant::now();
        let mut pace = Pace::new(40.0, 40.0, t0);
        pace.limited(t0);
        assert_eq!(pace.rate(), 20.0);
        let wait = pace.reserve(t0);
        assert_eq!(wait, Duration::from_millis(50), "one token at 20 a second");
        for _ in 0..10 {
            pace.limited(t0);
        }
        assert_eq!(pace.rate(), MIN_RATE_PER_SEC);
        let later = t0 + RECOVERY;
        pace.reserve(later);
        assert_eq!(pace.rate(), 2.0);
        let much_later = later + RECOVERY * 10;
        pace.reserve(much_later);
        pace.reserve(much_later + RECOVERY);
        pace.reserve(much_later + RECOVERY * 2);
        pace.reserve(much_later + RECOVERY * 3);
        pace.reserve(much_later + RECOVERY * 4);
        assert_eq!(pace.rate(), 40.0, "back to its start, never above");
        pace.reserve(much_later + RECOVERY * 9);
        assert_eq!(pace.rate(), 40.0);
    }
}
