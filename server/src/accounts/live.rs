//! The live connections of each personal token on this node, so that revoking a token closes
//! them at once, and the limits per token (connections, requests per second) that its
//! connections share.
//!
//! A revoke through this node closes the token's connections here at once ([`LiveTokens::revoke`]).
//! Other nodes learn it by asking: every [`RECHECK`] each node asks the accounts' store which of
//! its connected tokens are still live ([`LiveTokens::recheck`]), and closes the connections of
//! any that is not (revoked anywhere, or expired). No broadcast is needed: the store is the one
//! truth every node already shares.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::outbound::{Kicked, Outbox};
use crate::rate::TokenBucket;

/// How often a node asks which of its tokens are still live: a revoke through another node
/// closes the connections here within this (plus the query).
pub const RECHECK: Duration = Duration::from_millis(500);
/// Live connections one token may hold (on one node): a bot plays a few tables at once.
pub const MAX_CONNECTIONS: usize = 8;
/// Requests per second one token's connections may send together...
pub const RATE_PER_SEC: f64 = 40.0;
/// ...and the burst they may send at once.
pub const BURST: f64 = 80.0;

/// Why a token's connection was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyConnections;

/// The registry: token id to its connections here and its shared request bucket.
#[derive(Debug, Default)]
pub struct LiveTokens {
    tokens: Mutex<HashMap<String, Entry>>,
}

#[derive(Debug)]
struct Entry {
    /// Connection id to its outbox (`None` between the hello and the welcome).
    conns: HashMap<u64, Option<Outbox>>,
    /// The request bucket the token's connections share.
    bucket: TokenBucket,
}

impl LiveTokens {
    fn tokens(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.tokens.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts connection `conn` for `token`, or refuses it when the token has
    /// [`MAX_CONNECTIONS`] already.
    pub fn reserve(&self, token: &str, conn: u64) -> Result<(), TooManyConnections> {
        let mut tokens = self.tokens();
        let entry = tokens.entry(token.to_owned()).or_insert_with(|| Entry {
            conns: HashMap::new(),
            bucket: TokenBucket::new(RATE_PER_SEC, BURST, Instant::now()),
        });
        if entry.conns.len() >= MAX_CONNECTIONS {
            return Err(TooManyConnections);
        }
        entry.conns.insert(conn, None);
        Ok(())
    }

    /// Gives a reserved connection its outbox (to be closed by a revoke). False when the token
    /// was revoked since the reservation: the caller closes the connection.
    pub fn attach(&self, token: &str, conn: u64, out: &Outbox) -> bool {
        let mut tokens = self.tokens();
        match tokens.get_mut(token).and_then(|e| e.conns.get_mut(&conn)) {
            Some(slot) => {
                *slot = Some(out.clone());
                true
            }
            None => false,
        }
    }

    /// Forgets a connection that ended.
    pub fn release(&self, token: &str, conn: u64) {
        let mut tokens = self.tokens();
        if let Some(entry) = tokens.get_mut(token) {
            entry.conns.remove(&conn);
            if entry.conns.is_empty() {
                tokens.remove(token);
            }
        }
    }

    /// One request by one of the token's connections: false when the token's connections
    /// together are over its rate.
    pub fn take(&self, token: &str) -> bool {
        let mut tokens = self.tokens();
        tokens
            .get_mut(token)
            .is_none_or(|e| e.bucket.take(Instant::now()))
    }

    /// Closes every connection of `token` here (close code 4003); returns how many.
    pub fn revoke(&self, token: &str) -> usize {
        let entry = self.tokens().remove(token);
        let Some(entry) = entry else { return 0 };
        let mut closed = 0;
        for out in entry.conns.into_values().flatten() {
            out.kick_for(Kicked::TokenRevoked);
            closed += 1;
        }
        closed
    }

    /// The tokens with connections here.
    pub fn ids(&self) -> Vec<String> {
        self.tokens().keys().cloned().collect()
    }

    /// How many connections `token` has here.
    pub fn connections(&self, token: &str) -> usize {
        self.tokens().get(token).map_or(0, |e| e.conns.len())
    }

    /// Asks the store which tokens with connections here are still live, and closes the
    /// connections of the others. A store that cannot answer closes nothing (a database
    /// outage does not end every bot's game; the next answer does).
    pub async fn recheck(&self, accounts: &dyn super::Accounts) {
        let ids = self.ids();
        if ids.is_empty() {
            return;
        }
        match accounts.live_tokens(&ids, crate::ids::unix_ms()).await {
            Ok(live) => {
                for id in ids.iter().filter(|id| !live.contains(id)) {
                    let closed = self.revoke(id);
                    if closed > 0 {
                        tracing::info!(token = %id, closed, "token no longer live: connections closed");
                    }
                }
            }
            Err(e) => tracing::warn!("cannot recheck tokens: {e}"),
        }
    }

    /// Rechecks `live`'s tokens against `accounts` every [`RECHECK`], on a task of `tracker`,
    /// until `shutdown`.
    pub fn start(
        live: &Arc<LiveTokens>,
        accounts: Arc<dyn super::Accounts>,
        tracker: &tokio_util::task::TaskTracker,
        shutdown: tokio_util::sync::CancellationToken,
    ) {
        let live = live.clone();
        tracker.spawn(async move {
            let mut tick = tokio::time::interval(RECHECK);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = shutdown.cancelled() => break,
                    _ = tick.tick() => {
                        live.recheck(&*accounts).await;
                    }
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_holds_at_most_its_connections_and_a_revoke_closes_them_all() {
        let live = LiveTokens::default();
        for conn in 0..MAX_CONNECTIONS as u64 {
            assert_eq!(live.reserve("tk-a", conn), Ok(()));
        }
        assert_eq!(live.reserve("tk-a", 99), Err(TooManyConnections));
        assert_eq!(live.reserve("tk-b", 99), Ok(()), "another token is apart");
        let (out, _inbox, kicked) = Outbox::channel(0, 4);
        assert!(live.attach("tk-a", 0, &out));
        assert_eq!(live.revoke("tk-a"), 1, "the attached connection is closed");
        assert!(kicked.is_cancelled());
        assert_eq!(out.kick_reason().get(), Some(Kicked::TokenRevoked));
        // A connection between its hello and its welcome learns it when it attaches.
        assert!(!live.attach("tk-a", 1, &out));
        live.release("tk-b", 99);
        assert!(live.ids().is_empty());
    }

    #[test]
    fn a_tokens_connections_share_one_rate() {
        let live = LiveTokens::default();
        live.reserve("tk-a", 1).expect("reserved");
        live.reserve("tk-a", 2).expect("reserved");
        let taken = (0..200).filter(|_| live.take("tk-a")).count();
        // The burst (plus what refills while the loop runs), not 200.
        assert!(
            (BURST as usize..BURST as usize + 5).contains(&taken),
            "{taken}"
        );
    }
}
