//! Accounts in the embedded store's SQLite file (one node). A connection of its own beside the
//! store's writer thread (WAL lets them share the file; sign-ups are rare next to the log's
//! appends), used on the blocking pool.

use rusqlite::{Connection, OptionalExtension, params};

use super::tokens::{NewToken, Scopes, TokenHolder, TokenInfo};
use super::{
    Account, AccountStatus, Accounts, CreateError, MIGRATIONS, MadeBot, NewAccount, NewSession,
    SessionInfo, StoredPasskey, audit, rekey,
};
use crate::port::{PortError, PortFuture};
use crate::store::Store;
use crate::store::blocking::{BlockingConnection, OnBlockingConnection};

/// The accounts' tables in the store's file.
#[derive(Debug, Clone)]
pub struct SqliteAccounts {
    conn: BlockingConnection,
}

impl OnBlockingConnection for SqliteAccounts {
    fn connection(&self) -> &BlockingConnection {
        &self.conn
    }
}

impl SqliteAccounts {
    /// Opens the accounts' tables in `store`'s file, applying the migrations not applied yet.
    pub fn open(store: &Store) -> Result<SqliteAccounts, PortError> {
        SqliteAccounts::migrated(BlockingConnection::open(store)?)
    }

    /// Opens the accounts' tables in the SQLite file of data directory `dir` without the game
    /// store's writer (`burraco-server admin` beside a running server: WAL lets both in).
    pub fn open_dir(dir: &std::path::Path) -> Result<SqliteAccounts, PortError> {
        SqliteAccounts::migrated(BlockingConnection::open_dir(dir)?)
    }

    fn migrated(conn: BlockingConnection) -> Result<SqliteAccounts, PortError> {
        conn.with_here(migrate)?;
        Ok(SqliteAccounts { conn })
    }

    /// Which of `ids` are still live by `query` (whether a token's or a session's row `?1` is
    /// unexpired at `?2`, of an account not disabled).
    fn live_of(
        &self,
        query: &'static str,
        ids: &[String],
        now_ms: i64,
    ) -> impl Future<Output = Result<Vec<String>, PortError>> + Send {
        let ids = ids.to_vec();
        self.with(move |conn| {
            let mut stmt = conn.prepare_cached(query)?;
            let mut live = Vec::new();
            for id in ids {
                if stmt.query_row(params![id, now_ms], |r| r.get::<_, bool>(0))? {
                    live.push(id);
                }
            }
            Ok(live)
        })
    }
}

/// Applies, in one transaction each, the migrations newer than the last one recorded.
fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS account_migrations (
            version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)",
    )?;
    for (version, sql) in MIGRATIONS {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let done: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM account_migrations WHERE version = ?1)",
            [version],
            |r| r.get(0),
        )?;
        if !done {
            tx.execute_batch(sql)?;
            if *version == rekey::VERSION {
                rekey::sqlite(&tx)?;
            }
            tx.execute(
                "INSERT INTO account_migrations (version, applied_ms) VALUES (?1, ?2)",
                params![version, crate::ids::unix_ms()],
            )?;
        }
        tx.commit()?;
    }
    Ok(())
}

fn account(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        username: r.get(1)?,
        created_ms: r.get(2)?,
    })
}

fn session(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<SessionInfo> {
    Ok(SessionInfo {
        id: r.get(at)?,
        account: r.get(at + 1)?,
        created_ms: r.get(at + 2)?,
        expires_ms: r.get(at + 3)?,
        user_agent: r.get(at + 4)?,
    })
}

const SESSION_COLUMNS: &str = "s.id, s.account_id, s.created_ms, s.expires_ms, s.user_agent";

const TOKEN_COLUMNS: &str = "t.id, t.account_id, t.label, t.scopes, t.created_ms, t.expires_ms, \
     t.last_used_ms, t.last_address";

fn token(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<TokenInfo> {
    Ok(TokenInfo {
        id: r.get(at)?,
        account: r.get(at + 1)?,
        label: r.get(at + 2)?,
        scopes: Scopes::from_text(&r.get::<_, String>(at + 3)?),
        created_ms: r.get(at + 4)?,
        expires_ms: r.get(at + 5)?,
        last_used_ms: r.get(at + 6)?,
        last_address: r.get(at + 7)?,
    })
}

const PASSKEY_COLUMNS: &str =
    "id, account_id, credential_id, name, credential, created_ms, last_used_ms";

fn passkey(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredPasskey> {
    Ok(StoredPasskey {
        id: r.get(0)?,
        account: r.get(1)?,
        credential_id: r.get(2)?,
        name: r.get(3)?,
        credential: r.get(4)?,
        created_ms: r.get(5)?,
        last_used_ms: r.get(6)?,
    })
}

impl Accounts for SqliteAccounts {
    fn create<'a>(&'a self, new: &'a NewAccount) -> PortFuture<'a, Result<Account, CreateError>> {
        let new = new.clone();
        Box::pin(async move {
            self.with(move |conn| {
                let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                let clash: Option<String> = tx
                    .query_row(
                        "SELECT name_key FROM accounts WHERE name_key = ?1 OR skeleton = ?2
                         ORDER BY name_key = ?1 DESC LIMIT 1",
                        params![new.key, new.skeleton],
                        |r| r.get(0),
                    )
                    .optional()?;
                if let Some(key) = clash {
                    return Ok(Err(if key == new.key {
                        CreateError::NameTaken
                    } else {
                        CreateError::NameConfusable
                    }));
                }
                tx.execute(
                    "INSERT INTO accounts (id, username, name_key, skeleton, password_hash, created_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        new.id,
                        new.username,
                        new.key,
                        new.skeleton,
                        new.password_hash,
                        new.created_ms
                    ],
                )?;
                tx.commit()?;
                Ok(Ok(Account {
                    id: new.id,
                    username: new.username,
                    created_ms: new.created_ms,
                }))
            })
            .await?
        })
    }

    fn by_id<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<Account>, PortError>> {
        let id = id.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached("SELECT id, username, created_ms FROM accounts WHERE id = ?1")?
                .query_row([id], account)
                .optional()
        }))
    }

    fn by_name<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<Option<Account>, PortError>> {
        let key = super::username::key(name);
        Box::pin(self.with(move |conn| {
            conn.prepare_cached(
                "SELECT id, username, created_ms FROM accounts WHERE name_key = ?1",
            )?
            .query_row([key], account)
            .optional()
        }))
    }

    fn password_hash<'a>(
        &'a self,
        id: &'a str,
    ) -> PortFuture<'a, Result<Option<String>, PortError>> {
        let id = id.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached("SELECT password_hash FROM accounts WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()
        }))
    }

    fn set_password_hash<'a>(
        &'a self,
        id: &'a str,
        hash: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        let (id, hash) = (id.to_owned(), hash.to_owned());
        Box::pin(self.with(move |conn| {
            let changed = conn.execute(
                "UPDATE accounts SET password_hash = ?2 WHERE id = ?1",
                params![id, hash],
            )?;
            Ok(changed == 1)
        }))
    }

    fn open_session<'a>(&'a self, new: &'a NewSession) -> PortFuture<'a, Result<(), PortError>> {
        let new = new.clone();
        Box::pin(self.with(move |conn| {
            let s = &new.info;
            // The account's expired sessions go as a new one comes: the table holds live ones.
            conn.execute(
                "DELETE FROM account_sessions WHERE account_id = ?1 AND expires_ms <= ?2",
                params![s.account, s.created_ms],
            )?;
            conn.execute(
                "INSERT INTO account_sessions
                    (id, account_id, token_hash, created_ms, expires_ms, user_agent)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    s.id,
                    s.account,
                    new.token_hash,
                    s.created_ms,
                    s.expires_ms,
                    s.user_agent
                ],
            )?;
            Ok(())
        }))
    }

    fn session<'a>(
        &'a self,
        token_hash: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Option<(Account, SessionInfo)>, PortError>> {
        let token_hash = token_hash.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT a.id, a.username, a.created_ms, {SESSION_COLUMNS}
                 FROM account_sessions s JOIN accounts a ON a.id = s.account_id
                 WHERE s.token_hash = ?1 AND s.expires_ms > ?2 AND NOT a.disabled"
            ))?
            .query_row(params![token_hash, now_ms], |r| {
                Ok((account(r)?, session(r, 3)?))
            })
            .optional()
        }))
    }

    fn sessions<'a>(
        &'a self,
        account: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<SessionInfo>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {SESSION_COLUMNS} FROM account_sessions s
                 WHERE s.account_id = ?1 AND s.expires_ms > ?2 ORDER BY s.created_ms, s.id"
            ))?;
            let rows = stmt.query_map(params![account, now_ms], |r| session(r, 0))?;
            rows.collect()
        }))
    }

    fn revoke<'a>(
        &'a self,
        account: &'a str,
        session: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        let (account, session) = (account.to_owned(), session.to_owned());
        Box::pin(self.with(move |conn| {
            let gone = conn.execute(
                "DELETE FROM account_sessions WHERE account_id = ?1 AND id = ?2",
                params![account, session],
            )?;
            Ok(gone == 1)
        }))
    }

    fn revoke_all<'a>(
        &'a self,
        account: &'a str,
        except: Option<&'a str>,
    ) -> PortFuture<'a, Result<u64, PortError>> {
        let (account, except) = (account.to_owned(), except.map(str::to_owned));
        Box::pin(self.with(move |conn| {
            let gone = conn.execute(
                "DELETE FROM account_sessions WHERE account_id = ?1 AND id IS NOT ?2",
                params![account, except],
            )?;
            Ok(gone as u64)
        }))
    }
    // tokens and bot accounts
    fn is_bot<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<bool>, PortError>> {
        let id = id.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached("SELECT bot_since_ms IS NOT NULL FROM accounts WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()
        }))
    }

    fn make_bot<'a>(
        &'a self,
        id: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<MadeBot, PortError>> {
        let id = id.to_owned();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let found: Option<(bool, bool)> = tx
                .query_row(
                    "SELECT bot_since_ms IS NOT NULL,
                        EXISTS (SELECT 1 FROM ratings WHERE member_a = ?1 OR member_b = ?1)
                     FROM accounts WHERE id = ?1",
                    [&id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let made = match found {
                None => MadeBot::NoSuchAccount,
                Some((true, _)) => MadeBot::Made,
                Some((false, true)) => MadeBot::HasRatedGames,
                Some((false, false)) => {
                    tx.execute(
                        "UPDATE accounts SET bot_since_ms = ?2 WHERE id = ?1",
                        params![id, now_ms],
                    )?;
                    MadeBot::Made
                }
            };
            tx.commit()?;
            Ok(made)
        }))
    }

    fn name_registered<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<bool, PortError>> {
        if super::username::reserved(name) {
            return Box::pin(async { Ok(true) });
        }
        let (key, skeleton) = (super::username::key(name), super::username::skeleton(name));
        Box::pin(self.with(move |conn| {
            conn.prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM accounts WHERE name_key = ?1 OR skeleton = ?2)",
            )?
            .query_row(params![key, skeleton], |r| r.get(0))
        }))
    }

    fn create_token<'a>(
        &'a self,
        new: &'a NewToken,
        max_live: usize,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        let new = new.clone();
        Box::pin(self.with(move |conn| {
            let t = &new.info;
            // Counted and inserted under the file's write lock: tokens asked for at once never
            // pass the limit together.
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            // The account's expired tokens go as a new one comes: the table holds live ones.
            tx.execute(
                "DELETE FROM account_tokens WHERE account_id = ?1 AND expires_ms <= ?2",
                params![t.account, t.created_ms],
            )?;
            let live: i64 = tx.query_row(
                "SELECT COUNT(*) FROM account_tokens WHERE account_id = ?1",
                [&t.account],
                |r| r.get(0),
            )?;
            if usize::try_from(live).unwrap_or(usize::MAX) >= max_live {
                return Ok(false);
            }
            tx.execute(
                "INSERT INTO account_tokens
                    (id, account_id, token_hash, label, scopes, created_ms, expires_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    t.id,
                    t.account,
                    new.token_hash,
                    t.label,
                    t.scopes.to_text(),
                    t.created_ms,
                    t.expires_ms
                ],
            )?;
            tx.commit()?;
            Ok(true)
        }))
    }

    fn revoke_tokens<'a>(&'a self, account: &'a str) -> PortFuture<'a, Result<u64, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let gone = conn.execute(
                "DELETE FROM account_tokens WHERE account_id = ?1",
                [account],
            )?;
            Ok(gone as u64)
        }))
    }

    fn tokens<'a>(
        &'a self,
        account: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<TokenInfo>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {TOKEN_COLUMNS} FROM account_tokens t
                 WHERE t.account_id = ?1 AND t.expires_ms > ?2 ORDER BY t.created_ms, t.id"
            ))?;
            let rows = stmt.query_map(params![account, now_ms], |r| token(r, 0))?;
            rows.collect()
        }))
    }

    fn revoke_token<'a>(
        &'a self,
        account: &'a str,
        token: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        let (account, token) = (account.to_owned(), token.to_owned());
        Box::pin(self.with(move |conn| {
            let gone = conn.execute(
                "DELETE FROM account_tokens WHERE account_id = ?1 AND id = ?2",
                params![account, token],
            )?;
            Ok(gone == 1)
        }))
    }

    fn token<'a>(
        &'a self,
        token_hash: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Option<TokenHolder>, PortError>> {
        let token_hash = token_hash.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT a.id, a.username, a.created_ms, a.bot_since_ms IS NOT NULL, {TOKEN_COLUMNS}
                 FROM account_tokens t JOIN accounts a ON a.id = t.account_id
                 WHERE t.token_hash = ?1 AND t.expires_ms > ?2 AND NOT a.disabled"
            ))?
            .query_row(params![token_hash, now_ms], |r| {
                Ok(TokenHolder {
                    account: account(r)?,
                    bot: r.get(3)?,
                    token: token(r, 4)?,
                })
            })
            .optional()
        }))
    }

    fn token_used<'a>(
        &'a self,
        id: &'a str,
        now_ms: i64,
        address: &'a str,
    ) -> PortFuture<'a, Result<(), PortError>> {
        let (id, address) = (id.to_owned(), address.to_owned());
        Box::pin(self.with(move |conn| {
            conn.execute(
                "UPDATE account_tokens SET last_used_ms = ?2, last_address = ?3 WHERE id = ?1",
                params![id, now_ms, address],
            )?;
            Ok(())
        }))
    }

    fn live_tokens<'a>(
        &'a self,
        ids: &'a [String],
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>> {
        Box::pin(self.live_of(
            "SELECT EXISTS (SELECT 1 FROM account_tokens t JOIN accounts a ON a.id = t.account_id
             WHERE t.id = ?1 AND t.expires_ms > ?2 AND NOT a.disabled)",
            ids,
            now_ms,
        ))
    }

    fn live_sessions<'a>(
        &'a self,
        ids: &'a [String],
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>> {
        Box::pin(self.live_of(
            "SELECT EXISTS (SELECT 1 FROM account_sessions s JOIN accounts a ON a.id = s.account_id
             WHERE s.id = ?1 AND s.expires_ms > ?2 AND NOT a.disabled)",
            ids,
            now_ms,
        ))
    }

    // passkeys, audit and administration

    fn add_passkey<'a>(
        &'a self,
        new: &'a StoredPasskey,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        let new = new.clone();
        Box::pin(self.with(move |conn| {
            let added = conn.execute(
                &format!(
                    "INSERT INTO account_passkeys ({PASSKEY_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                     ON CONFLICT (credential_id) DO NOTHING"
                ),
                params![
                    new.id,
                    new.account,
                    new.credential_id,
                    new.name,
                    new.credential,
                    new.created_ms,
                    new.last_used_ms
                ],
            )?;
            Ok(added == 1)
        }))
    }

    fn passkeys<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<StoredPasskey>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {PASSKEY_COLUMNS} FROM account_passkeys WHERE account_id = ?1
                 ORDER BY created_ms, id"
            ))?;
            let rows = stmt.query_map([account], passkey)?;
            rows.collect()
        }))
    }

    fn passkey_by_credential<'a>(
        &'a self,
        credential_id: &'a str,
    ) -> PortFuture<'a, Result<Option<StoredPasskey>, PortError>> {
        let credential_id = credential_id.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT {PASSKEY_COLUMNS} FROM account_passkeys WHERE credential_id = ?1"
            ))?
            .query_row([credential_id], passkey)
            .optional()
        }))
    }

    fn touch_passkey<'a>(
        &'a self,
        id: &'a str,
        credential: &'a str,
        used_ms: i64,
    ) -> PortFuture<'a, Result<(), PortError>> {
        let (id, credential) = (id.to_owned(), credential.to_owned());
        Box::pin(self.with(move |conn| {
            conn.execute(
                "UPDATE account_passkeys SET credential = ?2, last_used_ms = ?3 WHERE id = ?1",
                params![id, credential, used_ms],
            )?;
            Ok(())
        }))
    }

    fn remove_passkey<'a>(
        &'a self,
        account: &'a str,
        id: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        let (account, id) = (account.to_owned(), id.to_owned());
        Box::pin(self.with(move |conn| {
            let gone = conn.execute(
                "DELETE FROM account_passkeys WHERE account_id = ?1 AND id = ?2",
                params![account, id],
            )?;
            Ok(gone == 1)
        }))
    }

    fn record<'a>(&'a self, entry: &'a audit::Entry) -> PortFuture<'a, Result<(), PortError>> {
        let entry = entry.clone();
        Box::pin(self.with(move |conn| {
            let horizon = entry.at_ms - audit::RETENTION.as_millis() as i64;
            conn.execute(
                "DELETE FROM account_audit WHERE account_id = ?1 AND at_ms < ?2",
                params![entry.account, horizon],
            )?;
            conn.execute(
                "INSERT INTO account_audit (id, account_id, at_ms, kind, address, detail)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    entry.id,
                    entry.account,
                    entry.at_ms,
                    entry.kind,
                    entry.address,
                    entry.detail
                ],
            )?;
            Ok(())
        }))
    }

    fn audit<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<audit::Entry>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, account_id, at_ms, kind, address, detail FROM account_audit
                 WHERE account_id = ?1 ORDER BY at_ms DESC, id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![account, limit], |r| {
                Ok(audit::Entry {
                    id: r.get(0)?,
                    account: r.get(1)?,
                    at_ms: r.get(2)?,
                    kind: r.get(3)?,
                    address: r.get(4)?,
                    detail: r.get(5)?,
                })
            })?;
            rows.collect()
        }))
    }

    fn status<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Option<AccountStatus>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached("SELECT disabled, admin FROM accounts WHERE id = ?1")?
                .query_row([account], |r| {
                    Ok(AccountStatus {
                        disabled: r.get(0)?,
                        admin: r.get(1)?,
                    })
                })
                .optional()
        }))
    }

    fn set_status<'a>(
        &'a self,
        account: &'a str,
        status: AccountStatus,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let changed = conn.execute(
                "UPDATE accounts SET disabled = ?2, admin = ?3 WHERE id = ?1",
                params![account, status.disabled, status.admin],
            )?;
            Ok(changed == 1)
        }))
    }
}
