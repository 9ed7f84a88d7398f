//! The addresses of the connections through other nodes of a cluster that asked this node's
//! tables for seats: a forwarded `join` or `quick_play` carries its connection's address
//! (`cluster/forward.rs`), and the table's node notes it here, by the account and the
//! connection's stand-in (`cluster/relay.rs`: one per connection of the other node). The
//! same-address signal ([`super::signals::seated`]) reads the address of the connection that
//! holds a seat now: its own connections' from [`super::connections`], the others' from here.
//!
//! By connection, not by account: an account's address is where it is connected from now. Kept
//! by account it was the last one seen at any join for 12 hours, so a player who had left from
//! one network and come back from another was still "connected from one address" with whoever
//! sat at the first (issue 32).
//!
//! Kept in memory only, bounded: a note is forgotten [`FORGET_AFTER_MS`] after it was made, and
//! an account keeps its [`PER_ACCOUNT`] latest connections. Never sent to anyone: a table is
//! told which seats share an address, never the address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

/// A connection's note is kept this long: a match of any length is over by then.
pub const FORGET_AFTER_MS: i64 = 12 * 3600 * 1000;
/// Connections kept per account: a personal token's live connections on one node
/// (`accounts::live::MAX_CONNECTIONS`).
pub const PER_ACCOUNT: usize = 8;
/// Every this many notes, accounts whose notes all expired are swept.
const SWEEP_EVERY: u64 = 1024;

#[derive(Debug, Default)]
pub struct SeenAddresses {
    inner: Mutex<Inner>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Note {
    conn: u64,
    address: IpAddr,
    at_ms: i64,
}

#[derive(Debug, Default)]
struct Inner {
    accounts: HashMap<String, Vec<Note>>,
    noted: u64,
}

impl SeenAddresses {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `account` asked for a seat at `now_ms` through connection `conn` (its outbox's id here),
    /// connected from `address`.
    pub fn note(&self, account: &str, conn: u64, address: IpAddr, now_ms: i64) {
        let mut inner = self.inner();
        inner.noted += 1;
        if inner.noted.is_multiple_of(SWEEP_EVERY) {
            let oldest = now_ms - FORGET_AFTER_MS;
            inner
                .accounts
                .retain(|_, notes| notes.iter().any(|n| n.at_ms >= oldest));
        }
        let notes = inner.accounts.entry(account.to_owned()).or_default();
        notes.retain(|n| n.conn != conn);
        notes.push(Note {
            conn,
            address,
            at_ms: now_ms,
        });
        if notes.len() > PER_ACCOUNT {
            notes.remove(0);
        }
    }

    /// The address connection `conn` of `account` asked for a seat from, noted within
    /// [`FORGET_AFTER_MS`] of `now_ms`.
    pub fn of_connection(&self, account: &str, conn: u64, now_ms: i64) -> Option<IpAddr> {
        let oldest = now_ms - FORGET_AFTER_MS;
        self.inner()
            .accounts
            .get(account)?
            .iter()
            .find(|n| n.conn == conn && n.at_ms >= oldest)
            .map(|n| n.address)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_is_at_the_address_it_asked_from_and_no_other() {
        let seen = SeenAddresses::default();
        let ip = |last: u8| IpAddr::from([192, 0, 2, last]);
        seen.note("u-a", 1, ip(1), 1000);
        // The account, back through another connection from another network.
        seen.note("u-a", 2, ip(2), 2000);
        assert_eq!(seen.of_connection("u-a", 2, 2000), Some(ip(2)));
        assert_eq!(seen.of_connection("u-a", 1, 2000), Some(ip(1)));
        assert_eq!(seen.of_connection("u-a", 3, 2000), None, "never guessed");
        assert_eq!(seen.of_connection("u-b", 1, 2000), None);
        // Asked again through the same connection: its newest address.
        seen.note("u-a", 1, ip(3), 3000);
        assert_eq!(seen.of_connection("u-a", 1, 3000), Some(ip(3)));
        // Bounded: the oldest connections go first, every note after its time.
        for conn in 10..10 + PER_ACCOUNT as u64 {
            seen.note("u-a", conn, ip(9), 4000);
        }
        assert_eq!(seen.of_connection("u-a", 1, 4000), None);
        assert_eq!(seen.of_connection("u-a", 10, 4000), Some(ip(9)));
        assert_eq!(
            seen.of_connection("u-a", 10, 4000 + FORGET_AFTER_MS + 1),
            None
        );
    }
}
