//! The addresses accounts took seats from, as the node serving the table learnt them: from its
//! own connections ([`super::connections`]) and, for a player connected through another node of
//! a cluster, from the address its node sends with a forwarded `join` or `quick_play`
//! (`cluster/forward.rs`). The same-address signal ([`super::signals::seated`]) reads both.
//!
//! Kept in memory only, bounded: an address is forgotten [`FORGET_AFTER_MS`] after it was last
//! seen, and an account keeps its [`PER_ACCOUNT`] latest. Never sent to anyone: a table is told
//! which seats share an address, never the address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

/// An address seen at a join is kept this long: a match of any length is over by then.
pub const FORGET_AFTER_MS: i64 = 12 * 3600 * 1000;
/// Addresses kept per account (a phone moving between networks has a few).
pub const PER_ACCOUNT: usize = 4;
/// Every this many notes, accounts whose addresses all expired are swept.
const SWEEP_EVERY: u64 = 1024;

#[derive(Debug, Default)]
pub struct SeenAddresses {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    accounts: HashMap<String, Vec<(IpAddr, i64)>>,
    noted: u64,
}

impl SeenAddresses {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `account` asked for a seat from `address` at `now_ms`.
    pub fn note(&self, account: &str, address: IpAddr, now_ms: i64) {
        let mut inner = self.inner();
        inner.noted += 1;
        if inner.noted.is_multiple_of(SWEEP_EVERY) {
            let oldest = now_ms - FORGET_AFTER_MS;
            inner
                .accounts
                .retain(|_, seen| seen.iter().any(|&(_, at)| at >= oldest));
        }
        let seen = inner.accounts.entry(account.to_owned()).or_default();
        seen.retain(|&(a, _)| a != address);
        seen.push((address, now_ms));
        if seen.len() > PER_ACCOUNT {
            seen.remove(0);
        }
    }

    /// The addresses `account` was seen at within [`FORGET_AFTER_MS`] of `now_ms`.
    pub fn of(&self, account: &str, now_ms: i64) -> Vec<IpAddr> {
        let oldest = now_ms - FORGET_AFTER_MS;
        self.inner()
            .accounts
            .get(account)
            .map(|seen| {
                seen.iter()
                    .filter(|&&(_, at)| at >= oldest)
                    .map(|&(a, _)| a)
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_keeps_its_latest_addresses_until_they_expire() {
        let seen = SeenAddresses::default();
        let ip = |last: u8| IpAddr::from([192, 0, 2, last]);
        for last in 1..=6 {
            seen.note("u-a", ip(last), 1000);
        }
        assert_eq!(seen.of("u-a", 1000), vec![ip(3), ip(4), ip(5), ip(6)]);
        // Seen again: kept once, as the newest.
        seen.note("u-a", ip(3), 2000);
        assert_eq!(seen.of("u-a", 2000), vec![ip(4), ip(5), ip(6), ip(3)]);
        assert_eq!(seen.of("u-a", 1000 + FORGET_AFTER_MS + 1), vec![ip(3)]);
        assert!(seen.of("u-b", 1000).is_empty());
    }
}
