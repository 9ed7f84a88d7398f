//! The accounts' limits (docs/ACCOUNTS.md): wrong passwords per account and per address,
//! accounts created and passkey ceremonies started per address. After the free attempts of a
//! key, each further one waits a delay that doubles (from `ServerConfig::login_backoff`, 1 s,
//! up to 15 minutes); an hour of quiet forgives the key.
//!
//! The counts live in the accounts' store ([`Limits`], the `account_limits` table), the state
//! every node shares: SQLite on one node, PostgreSQL in a cluster, so two nodes count one
//! account's attempts together. An attempt is counted before the work it guards (the Argon2id
//! check, the new account), in one transaction with the check of the delay ([`reserve`]): a
//! burst of requests in flight cannot all pass the check before any is counted. What then went
//! well is given back ([`Settle`]). The rule itself is pure, here, and unit-tested; each store
//! reads the keys' [`Counter`]s locked, applies it and writes them back.

pub mod postgres;
pub mod sqlite;

use std::net::IpAddr;
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::port::{PortError, PortFuture};

/// Wrong passwords allowed for one account before the delays start...
pub const FREE_PER_ACCOUNT: u32 = 5;
/// ...and from one address (a club or a family may share one).
pub const FREE_PER_ADDRESS: u32 = 20;
/// Accounts created from one address before the delays start: every account costs an Argon2id
/// hash and a name.
pub const FREE_SIGNUPS_PER_ADDRESS: u32 = 5;
/// Passkey ceremonies (sign-ins; registrations apart) started from one address before the
/// delays start: a ceremony holds a challenge in the node's memory for 5 minutes.
pub const FREE_CEREMONIES_PER_ADDRESS: u32 = 30;
/// The longest delay.
pub const MAX_DELAY: Duration = Duration::from_secs(15 * 60);
/// Quiet that forgives a key's attempts (and lets the store forget its row).
pub const IDLE: Duration = Duration::from_secs(3600);

/// One count a request is held to: its key in the store and the attempts it allows before the
/// delays start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    pub key: String,
    pub free: u32,
}

impl Limit {
    /// Sign-ins naming the account of this name key ([`super::username::key`]). The key is
    /// hashed: a name typed at sign-in is anything up to the body's size, NUL included, and
    /// the store keeps 32 hex digits of it instead.
    pub fn sign_ins_of(name_key: &str) -> Limit {
        let digest = Sha256::digest(name_key.as_bytes());
        let hex = burraco_protocol::cards::to_hex(&digest[..16]);
        Limit {
            key: format!("account:{hex}"),
            free: FREE_PER_ACCOUNT,
        }
    }

    /// Sign-ins from this address (its /64 for IPv6: `super::address::address`).
    pub fn sign_ins_from(ip: IpAddr) -> Limit {
        Limit {
            key: format!("address:{ip}"),
            free: FREE_PER_ADDRESS,
        }
    }

    /// Accounts created from this address.
    pub fn sign_ups_from(ip: IpAddr) -> Limit {
        Limit {
            key: format!("signups:{ip}"),
            free: FREE_SIGNUPS_PER_ADDRESS,
        }
    }

    /// Passkey sign-ins started from this address.
    pub fn ceremonies_from(ip: IpAddr) -> Limit {
        Limit {
            key: format!("ceremonies:{ip}"),
            free: FREE_CEREMONIES_PER_ADDRESS,
        }
    }

    /// Passkey registrations started from this address (by any account).
    pub fn registrations_from(ip: IpAddr) -> Limit {
        Limit {
            key: format!("registrations:{ip}"),
            free: FREE_CEREMONIES_PER_ADDRESS,
        }
    }
}

/// A key's count as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counter {
    /// Attempts counted since the key was last forgiven (those in flight included).
    pub attempts: u32,
    /// Held back until then (unix ms); in the past when not.
    pub locked_until_ms: i64,
    /// The last attempt counted (unix ms).
    pub last_ms: i64,
}

/// What [`reserve`] answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reserved {
    /// Counted: the request may do its work.
    Granted,
    /// A key waits: answer 429 with `Retry-After`, nothing counted.
    HeldBack { wait: Duration },
}

/// What an attempt that was counted turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    /// Forget the key (a right password clears its account's count).
    Clear,
    /// Give the attempt back (a right password from an address; a sign-up that made no
    /// account).
    Refund,
}

/// The delay after `over` attempts beyond the free ones (0: the last free one).
fn delay(base: Duration, over: u32) -> Duration {
    base.saturating_mul(1u32 << over.min(20)).min(MAX_DELAY)
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The rule: a request counted against every one of `limits` (their stored counters beside
/// them, `None` for a key never counted) at `now_ms`. Held back, nothing counted, while any key
/// waits; else each key counts one more attempt, and a key reaching its free attempts waits
/// `base`, doubling with each attempt after. Returns the answer and the counters to store (as
/// read, forgiveness aside, when held back: the caller then writes nothing).
pub fn reserve(
    limits: &[(u32, Option<Counter>)],
    now_ms: i64,
    base: Duration,
) -> (Reserved, Vec<Counter>) {
    let idle = millis(IDLE);
    let mut counters: Vec<Counter> = limits
        .iter()
        .map(|(_, stored)| {
            let mut c = stored.unwrap_or_default();
            // An hour of quiet forgives: a typo next month does not start where this one ended.
            if c.locked_until_ms <= now_ms && now_ms.saturating_sub(c.last_ms) >= idle {
                c.attempts = 0;
            }
            c
        })
        .collect();
    if let Some(wait) = held_back(counters.iter().map(|c| c.locked_until_ms), now_ms) {
        return (Reserved::HeldBack { wait }, counters);
    }
    for (c, (free, _)) in counters.iter_mut().zip(limits) {
        c.attempts = c.attempts.saturating_add(1);
        c.last_ms = now_ms;
        if c.attempts >= *free {
            let over = c.attempts - free;
            c.locked_until_ms = now_ms.saturating_add(millis(delay(base, over)));
        }
    }
    (Reserved::Granted, counters)
}

/// How long the longest of these delays (each key's `locked_until_ms`) still runs at `now_ms`,
/// if any does. A store asks it first, on a plain read: a request held back counts nothing, so
/// it needs no lock, and a burst's refusals do not queue for the keys' rows (a delay is only
/// ever lengthened while it runs, or ended by a right password, whose client may retry).
pub fn held_back(locked_until_ms: impl IntoIterator<Item = i64>, now_ms: i64) -> Option<Duration> {
    let wait_ms = locked_until_ms
        .into_iter()
        .map(|until| until.saturating_sub(now_ms))
        .max()
        .unwrap_or(0);
    (wait_ms > 0).then(|| Duration::from_millis(u64::try_from(wait_ms).unwrap_or(u64::MAX)))
}

/// An attempt given back: one fewer, and no delay once below the free ones (the delay this
/// attempt started ends with it).
pub fn refund(counter: Counter, free: u32) -> Counter {
    let attempts = counter.attempts.saturating_sub(1);
    Counter {
        attempts,
        locked_until_ms: if attempts < free {
            0
        } else {
            counter.locked_until_ms
        },
        ..counter
    }
}

/// The limits' counts, kept by the accounts' store (a supertrait of [`super::Accounts`]).
pub trait Limits {
    /// [`reserve`] on the stored counters of `limits`, read and written in one transaction
    /// that no other request on any node interleaves with.
    fn reserve<'a>(
        &'a self,
        limits: &'a [Limit],
        now_ms: i64,
        base: Duration,
    ) -> PortFuture<'a, Result<Reserved, PortError>>;
    /// Settles attempts [`Limits::reserve`] counted.
    fn settle<'a>(
        &'a self,
        settled: &'a [(Limit, Settle)],
    ) -> PortFuture<'a, Result<(), PortError>>;
}

/// Keys in one order, once each: every transaction locks them in that order (no deadlock
/// between two requests naming the same two keys).
fn sorted(limits: &[Limit]) -> Vec<&Limit> {
    let mut sorted: Vec<&Limit> = limits.iter().collect();
    sorted.sort_by(|a, b| a.key.cmp(&b.key));
    sorted.dedup_by(|a, b| a.key == b.key);
    sorted
}

/// Rows idle for an hour and held back no more are forgotten (the rule would forgive them):
/// at most once a minute per process, so a burst does not scan for them at every attempt.
fn prune_due(last_prune: &std::sync::atomic::AtomicI64, now_ms: i64) -> bool {
    use std::sync::atomic::Ordering;
    let last = last_prune.load(Ordering::Relaxed);
    now_ms.saturating_sub(last) >= 60_000
        && last_prune
            .compare_exchange(last, now_ms, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: i64 = 1000;
    const BASE: Duration = Duration::from_secs(1);

    /// Attempts on one key of `free` at the times given, each stored back when granted.
    fn run(free: u32, start: Option<Counter>, times: &[i64]) -> (Vec<Reserved>, Counter) {
        let mut stored = start;
        let mut answers = Vec::new();
        for now in times {
            let (answer, next) = reserve(&[(free, stored)], *now, BASE);
            if answer == Reserved::Granted {
                stored = Some(next[0]);
            }
            answers.push(answer);
        }
        (answers, stored.unwrap_or_default())
    }

    fn held(secs: u64) -> Reserved {
        Reserved::HeldBack {
            wait: Duration::from_secs(secs),
        }
    }

    #[test]
    fn the_free_attempts_pass_then_each_waits_a_doubling_delay() {
        // Five at once: all granted, the fifth starts the first delay; the sixth waits it.
        let t = 10_000 * S;
        let (answers, counter) = run(5, None, &[t, t, t, t, t, t]);
        assert_eq!(answers[..5], [Reserved::Granted; 5]);
        assert_eq!(answers[5], held(1));
        assert_eq!(counter.attempts, 5);
        // After it, one more is let through, and the next delay is twice as long.
        let (answers, counter) = run(5, Some(counter), &[t + S, t + S, t + 3 * S, t + 7 * S]);
        assert_eq!(
            answers,
            [
                Reserved::Granted,
                held(2),
                Reserved::Granted,
                Reserved::Granted
            ]
        );
        assert_eq!(counter.attempts, 8);
        assert_eq!(counter.locked_until_ms, t + 7 * S + 8 * S);
        // The delay stops growing at 15 minutes.
        let mut c = counter;
        c.attempts = 60;
        c.locked_until_ms = 0;
        let (_, next) = reserve(&[(5, Some(c))], t + 100 * S, BASE);
        assert_eq!(next[0].locked_until_ms, t + 100 * S + millis(MAX_DELAY));
    }

    #[test]
    fn any_key_waiting_holds_the_request_back_and_counts_nothing() {
        let now = 50_000 * S;
        let waiting = Counter {
            attempts: 5,
            locked_until_ms: now + 2 * S,
            last_ms: now,
        };
        let (answer, next) = reserve(&[(20, None), (5, Some(waiting))], now, BASE);
        assert_eq!(answer, held(2));
        assert_eq!(next, [Counter::default(), waiting], "nothing counted");
        assert_eq!(
            held_back([0, waiting.locked_until_ms], now),
            Some(Duration::from_secs(2))
        );
        assert_eq!(held_back([waiting.locked_until_ms], now + 2 * S), None);
        assert_eq!(held_back([], now), None);
        let (answer, next) = reserve(&[(20, None), (5, Some(waiting))], now + 2 * S, BASE);
        assert_eq!(answer, Reserved::Granted);
        assert_eq!(next[0].attempts, 1);
        assert_eq!(next[1].attempts, 6);
    }

    #[test]
    fn an_hour_of_quiet_forgives_and_a_refund_gives_the_attempt_back() {
        let now = 90_000 * S;
        let old = Counter {
            attempts: 40,
            locked_until_ms: now - millis(IDLE),
            last_ms: now - millis(IDLE),
        };
        let (answer, next) = reserve(&[(5, Some(old))], now, BASE);
        assert_eq!(answer, Reserved::Granted);
        assert_eq!(next[0].attempts, 1, "forgiven");
        // A refund below the free attempts ends the delay the attempt started.
        let fifth = Counter {
            attempts: 5,
            locked_until_ms: now + S,
            last_ms: now,
        };
        assert_eq!(
            refund(fifth, 5),
            Counter {
                attempts: 4,
                locked_until_ms: 0,
                last_ms: now
            }
        );
        let ninth = Counter {
            attempts: 9,
            ..fifth
        };
        assert_eq!(refund(ninth, 5).locked_until_ms, now + S, "others failed");
        assert_eq!(refund(Counter::default(), 5).attempts, 0);
    }

    #[test]
    fn keys_are_hashed_names_and_addresses_sorted_once() {
        let a = Limit::sign_ins_of("anna");
        assert_eq!(a.key.len(), "account:".len() + 32);
        assert_eq!(a, Limit::sign_ins_of("anna"));
        assert_ne!(a, Limit::sign_ins_of("anna\0"));
        assert!(!Limit::sign_ins_of("an\0na").key.contains('\0'));
        let ip: IpAddr = "192.0.2.7".parse().expect("ip");
        assert_eq!(Limit::sign_ins_from(ip).key, "address:192.0.2.7");
        let limits = [Limit::sign_ins_from(ip), a.clone(), a.clone()];
        let keys: Vec<&str> = sorted(&limits).iter().map(|l| l.key.as_str()).collect();
        assert_eq!(keys, [a.key.as_str(), "address:192.0.2.7"]);
    }
}
