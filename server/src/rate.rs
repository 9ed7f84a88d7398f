//! A token bucket: what limits a connection's requests (`conn`) and a personal token's
//! connections together (`accounts::live`). Time is an argument, so a caller's clock decides.

use std::time::Instant;

/// `rate` requests a second, bursts of `burst`; it starts full.
#[derive(Debug)]
pub struct TokenBucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl TokenBucket {
    pub fn new(rate: f64, burst: f64, now: Instant) -> TokenBucket {
        TokenBucket {
            tokens: burst,
            rate,
            burst,
            last: now,
        }
    }

    /// One request at `now`: false when the bucket is empty.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_then_the_rate() {
        let t0 = Instant::now();
        let mut bucket = TokenBucket::new(10.0, 3.0, t0);
        assert!((0..3).all(|_| bucket.take(t0)), "the burst");
        assert!(!bucket.take(t0), "empty");
        assert!(
            bucket.take(t0 + Duration::from_millis(100)),
            "one more after 1/rate"
        );
        assert!(!bucket.take(t0 + Duration::from_millis(100)));
        let later = t0 + Duration::from_secs(60);
        assert_eq!(
            (0..10).filter(|_| bucket.take(later)).count(),
            3,
            "never above the burst"
        );
    }
}
