//! The live connections of each sign-in on this node: each personal token's and each browser
//! session's (the cookie's), so that the end of either closes them at once, and the limits per
//! token (connections, requests per second) that its connections share.
//!
//! An end through this node closes the connections here at once: a token revoked
//! ([`LiveSignIns::revoke`], close 4003), a browser session ended by a sign-out, a sign-out
//! everywhere, a password change, a revoke from the sessions list or a new sign-in in the same
//! browser ([`LiveSignIns::end_session`], [`LiveSignIns::end_sessions_of`], close 4005). Other
//! nodes, and `burraco-server admin` (another process), are learnt by asking: every [`RECHECK`]
//! each node asks the accounts' store which of its connected tokens and sessions are still live
//! ([`LiveSignIns::recheck`]), and closes the connections of the others (ended anywhere, or
//! expired).

use std::collections::HashMap;
use std::sync::Mutex;
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

/// The registry: token id to its connections here and its shared request bucket; browser
/// session id to its account and connections here.
#[derive(Debug, Default)]
pub struct LiveSignIns {
    tokens: Mutex<HashMap<String, Entry>>,
    sessions: Mutex<HashMap<String, SessionEntry>>,
}

#[derive(Debug)]
struct SessionEntry {
    account: String,
    conns: HashMap<u64, Outbox>,
}

#[derive(Debug)]
struct Entry {
    /// Connection id to its outbox (`None` between the hello and the welcome).
    conns: HashMap<u64, Option<Outbox>>,
    /// The request bucket the token's connections share.
    bucket: TokenBucket,
}

impl LiveSignIns {
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

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, SessionEntry>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts connection `out` of `account`'s browser session `session` (from its welcome to
    /// its end).
    pub fn add_session(&self, session: &str, account: &str, out: &Outbox) {
        self.sessions()
            .entry(session.to_owned())
            .or_insert_with(|| SessionEntry {
                account: account.to_owned(),
                conns: HashMap::new(),
            })
            .conns
            .insert(out.id(), out.clone());
    }

    /// Forgets a session's connection that ended.
    pub fn remove_session(&self, session: &str, conn: u64) {
        let mut sessions = self.sessions();
        if let Some(entry) = sessions.get_mut(session) {
            entry.conns.remove(&conn);
            if entry.conns.is_empty() {
                sessions.remove(session);
            }
        }
    }

    /// The browser session `session` ended: its connections here are closed (4005); returns
    /// how many.
    pub fn end_session(&self, session: &str) -> usize {
        let entry = self.sessions().remove(session);
        entry.map_or(0, |entry| kick_all(entry.conns.values()))
    }

    /// Every browser session of `account` but `except` ended (a sign-out everywhere, a new
    /// password): their connections here are closed; returns how many.
    pub fn end_sessions_of(&self, account: &str, except: Option<&str>) -> usize {
        let mut ended = Vec::new();
        self.sessions().retain(|id, entry| {
            let ends = entry.account == account && Some(id.as_str()) != except;
            if ends {
                ended.extend(entry.conns.drain().map(|(_, out)| out));
            }
            !ends
        });
        kick_all(ended.iter())
    }

    /// The browser sessions with connections here.
    pub fn session_ids(&self) -> Vec<String> {
        self.sessions().keys().cloned().collect()
    }

    /// Asks the store which tokens and browser sessions with connections here are still live,
    /// and closes the connections of the others. A store that cannot answer closes nothing (a
    /// database outage does not end every bot's game; the next answer does).
    pub async fn recheck(&self, accounts: &dyn super::Accounts) {
        let now = crate::ids::unix_ms();
        let ids = self.ids();
        if !ids.is_empty() {
            match accounts.live_tokens(&ids, now).await {
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
        let sessions = self.session_ids();
        if !sessions.is_empty() {
            match accounts.live_sessions(&sessions, now).await {
                Ok(live) => {
                    for id in sessions.iter().filter(|id| !live.contains(id)) {
                        let closed = self.end_session(id);
                        if closed > 0 {
                            tracing::info!(session = %id, closed, "browser session ended: connections closed");
                        }
                    }
                }
                Err(e) => tracing::warn!("cannot recheck browser sessions: {e}"),
            }
        }
    }
}

/// Closes each connection as signed out; returns how many.
fn kick_all<'a>(conns: impl Iterator<Item = &'a Outbox>) -> usize {
    let mut closed = 0;
    for out in conns {
        out.kick_for(Kicked::SignedOut);
        closed += 1;
    }
    closed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_holds_at_most_its_connections_and_a_revoke_closes_them_all() {
        let live = LiveSignIns::default();
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
    fn ending_a_browser_session_closes_its_connections_and_no_others() {
        let live = LiveSignIns::default();
        let (a1, _i1, k1) = Outbox::channel(1, 4);
        let (a2, _i2, k2) = Outbox::channel(2, 4);
        let (b1, _i3, k3) = Outbox::channel(3, 4);
        let (c1, _i4, k4) = Outbox::channel(4, 4);
        live.add_session("s-a", "u-1", &a1);
        live.add_session("s-a", "u-1", &a2);
        live.add_session("s-b", "u-1", &b1);
        live.add_session("s-c", "u-2", &c1);
        assert_eq!(live.end_session("s-a"), 2);
        assert!(k1.is_cancelled() && k2.is_cancelled());
        assert_eq!(a1.kick_reason().get(), Some(Kicked::SignedOut));
        assert!(!k3.is_cancelled() && !k4.is_cancelled());
        // Everywhere but the current session; another account's are untouched.
        let (b2, _i5, k5) = Outbox::channel(5, 4);
        live.add_session("s-keep", "u-1", &b2);
        assert_eq!(live.end_sessions_of("u-1", Some("s-keep")), 1);
        assert!(k3.is_cancelled() && !k5.is_cancelled() && !k4.is_cancelled());
        live.remove_session("s-keep", 5);
        live.remove_session("s-c", 4);
        assert!(live.session_ids().is_empty());
    }

    #[test]
    fn a_tokens_connections_share_one_rate() {
        let live = LiveSignIns::default();
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
