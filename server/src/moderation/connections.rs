//! Which live connections on this node belong to which account, and from which address: a
//! disable or a time-out closes them (close code 4004), whatever signed them in (the browser's
//! cookie or a personal token), and the same-address signal reads their addresses.
//!
//! A personal token's connection is closed with the token's own code, 4003, as a disabled
//! account's token connections always were (`accounts::live`, which may close it first).
//!
//! A moderator's action through this node closes its connections here at once
//! ([`AccountConnections::close`]). Other nodes, and `burraco-server admin disable` (another
//! process), are learnt by asking, as personal tokens are (`accounts::live`): every
//! `accounts::live::RECHECK` each node asks the store which of its connected accounts are barred (disabled,
//! or timed out) and closes their connections. A connection of an account barred already is
//! closed as it arrives ([`AccountConnections::admit`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use crate::outbound::{Kicked, Outbox};

#[derive(Debug, Default)]
pub struct AccountConnections {
    accounts: Mutex<HashMap<String, HashMap<u64, Live>>>,
}

#[derive(Debug)]
struct Live {
    out: Outbox,
    address: Option<IpAddr>,
    /// Signed in with a personal token (closed with 4003), not the browser's cookie (4004).
    token: bool,
}

impl AccountConnections {
    fn accounts(&self) -> std::sync::MutexGuard<'_, HashMap<String, HashMap<u64, Live>>> {
        self.accounts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a connection of `account` (from its welcome to its end).
    pub fn add(&self, account: &str, out: &Outbox, address: Option<IpAddr>, token: bool) {
        self.accounts()
            .entry(account.to_owned())
            .or_default()
            .insert(
                out.id(),
                Live {
                    out: out.clone(),
                    address,
                    token,
                },
            );
    }

    /// Counts the connection, then closes it at once if its account is barred already (a
    /// timed-out player reconnecting). A store that cannot answer admits it: the recheck
    /// closes it when the store answers again.
    pub async fn admit(
        &self,
        store: &dyn super::ModerationStore,
        account: &str,
        out: &Outbox,
        address: Option<IpAddr>,
        token: bool,
    ) {
        self.add(account, out, address, token);
        let ids = [account.to_owned()];
        if let Ok(barred) = store.barred(&ids, crate::ids::unix_ms()).await
            && !barred.is_empty()
        {
            out.kick_for(kick(token));
        }
    }

    /// Forgets a connection that ended.
    pub fn remove(&self, account: &str, conn: u64) {
        let mut accounts = self.accounts();
        if let Some(conns) = accounts.get_mut(account) {
            conns.remove(&conn);
            if conns.is_empty() {
                accounts.remove(account);
            }
        }
    }

    /// Closes every connection of `account` here (4004); returns how many.
    pub fn close(&self, account: &str) -> usize {
        let conns = self.accounts().remove(account).unwrap_or_default();
        for live in conns.values() {
            live.out.kick_for(kick(live.token));
        }
        conns.len()
    }

    /// The accounts with connections here.
    pub fn ids(&self) -> Vec<String> {
        self.accounts().keys().cloned().collect()
    }

    /// The address connection `conn` of `account` is connected from here; `None` for a
    /// connection not of this node (or not of that account), or of an unknown address.
    pub fn address_of(&self, account: &str, conn: u64) -> Option<IpAddr> {
        self.accounts().get(account)?.get(&conn)?.address
    }

    /// Asks the store which connected accounts are barred and closes their connections. A store
    /// that cannot answer closes nothing (the next answer does).
    pub async fn recheck(&self, store: &dyn super::ModerationStore) {
        let ids = self.ids();
        if ids.is_empty() {
            return;
        }
        match store.barred(&ids, crate::ids::unix_ms()).await {
            Ok(barred) => {
                for account in barred {
                    let closed = self.close(&account);
                    if closed > 0 {
                        tracing::info!(%account, closed, "account barred: connections closed");
                    }
                }
            }
            Err(e) => tracing::warn!("cannot recheck barred accounts: {e}"),
        }
    }
}

/// How a barred account's connection is closed.
fn kick(token: bool) -> Kicked {
    if token {
        Kicked::TokenRevoked
    } else {
        Kicked::AccountBarred
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closing_an_account_kicks_every_connection_of_it_and_no_other() {
        let connections = AccountConnections::default();
        let (a1, _i1, k1) = Outbox::channel(1, 4);
        let (a2, _i2, k2) = Outbox::channel(2, 4);
        let (b1, _i3, k3) = Outbox::channel(3, 4);
        let home: IpAddr = "192.0.2.7".parse().expect("ip");
        connections.add("u-a", &a1, Some(home), false);
        connections.add("u-a", &a2, None, true);
        connections.add("u-b", &b1, Some(home), false);
        assert_eq!(connections.address_of("u-a", 1), Some(home));
        assert_eq!(connections.address_of("u-a", 2), None, "no address known");
        assert_eq!(connections.address_of("u-b", 1), None, "another account's");
        assert_eq!(connections.close("u-a"), 2);
        assert!(k1.is_cancelled() && k2.is_cancelled() && !k3.is_cancelled());
        assert_eq!(a1.kick_reason().get(), Some(Kicked::AccountBarred));
        assert_eq!(a2.kick_reason().get(), Some(Kicked::TokenRevoked));
        connections.remove("u-b", 3);
        assert!(connections.ids().is_empty());
    }
}
