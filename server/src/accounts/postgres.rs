//! Accounts in PostgreSQL (`--database-url`, env `BURRACO_DATABASE_URL`): what the nodes of a
//! cluster share, in the node's one pool ([`Database`]). The schema's migrations (every store's
//! tables) run when the accounts open, first of the stores, under an advisory lock, so nodes
//! starting together apply each one once.

use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;

/// A query parameter (an array's first one named so, the others coerce to it).
type Param<'a> = &'a (dyn ToSql + Sync);

use super::tokens::{NewToken, Scopes, TokenHolder, TokenInfo};
use super::{
    Account, AccountStatus, Accounts, CreateError, MIGRATIONS, MadeBot, NewAccount, NewSession,
    SessionInfo, StoredPasskey, audit, rekey,
};
use crate::port::{PortError, PortFuture};
use crate::store::postgres::{Database, OnDatabase, port, unstorable};

/// The advisory lock key the migrations take: "burraco" in ASCII.
const MIGRATION_LOCK: i64 = 0x0062_7572_7261_636f;

#[derive(Debug, Clone)]
pub struct PostgresAccounts {
    db: Database,
}

impl OnDatabase for PostgresAccounts {
    fn database(&self) -> &Database {
        &self.db
    }
}

impl PostgresAccounts {
    /// The accounts in `db`, the migrations not applied yet applied first.
    pub async fn open(db: &Database) -> Result<PostgresAccounts, PortError> {
        let accounts = PostgresAccounts { db: db.clone() };
        accounts.migrate().await?;
        Ok(accounts)
    }

    async fn migrate(&self) -> Result<(), PortError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(port)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(port)?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS account_migrations (
                version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)",
        )
        .await
        .map_err(port)?;
        for (version, sql) in MIGRATIONS {
            let done = tx
                .query_opt(
                    "SELECT 1 FROM account_migrations WHERE version = $1",
                    &[version],
                )
                .await
                .map_err(port)?
                .is_some();
            if !done {
                tx.batch_execute(sql).await.map_err(port)?;
                if *version == rekey::VERSION {
                    rekey::postgres(&tx).await.map_err(port)?;
                }
                tx.execute(
                    "INSERT INTO account_migrations (version, applied_ms) VALUES ($1, $2)",
                    &[version as Param, &crate::ids::unix_ms()],
                )
                .await
                .map_err(port)?;
            }
        }
        tx.commit().await.map_err(port)
    }

    /// Which of `ids` are still live by `query` (a token's or a session's row, unexpired at
    /// `$2`, of an account not disabled; `$1` the ids).
    async fn live_of(
        &self,
        query: &'static str,
        ids: &[String],
        now_ms: i64,
    ) -> Result<Vec<String>, PortError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let client = self.client().await?;
        let rows = client
            .query(query, &[&ids as Param, &now_ms])
            .await
            .map_err(port)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

fn account(row: &tokio_postgres::Row) -> Account {
    Account {
        id: row.get(0),
        username: row.get(1),
        created_ms: row.get(2),
    }
}

fn session(row: &tokio_postgres::Row, at: usize) -> SessionInfo {
    SessionInfo {
        id: row.get(at),
        account: row.get(at + 1),
        created_ms: row.get(at + 2),
        expires_ms: row.get(at + 3),
        user_agent: row.get(at + 4),
    }
}

const SESSION_COLUMNS: &str = "s.id, s.account_id, s.created_ms, s.expires_ms, s.user_agent";

const TOKEN_COLUMNS: &str = "t.id, t.account_id, t.label, t.scopes, t.created_ms, t.expires_ms, \
     t.last_used_ms, t.last_address";

fn token(row: &tokio_postgres::Row, at: usize) -> TokenInfo {
    TokenInfo {
        id: row.get(at),
        account: row.get(at + 1),
        label: row.get(at + 2),
        scopes: Scopes::from_text(row.get(at + 3)),
        created_ms: row.get(at + 4),
        expires_ms: row.get(at + 5),
        last_used_ms: row.get(at + 6),
        last_address: row.get(at + 7),
    }
}

const PASSKEY_COLUMNS: &str =
    "id, account_id, credential_id, name, credential, created_ms, last_used_ms";

fn passkey(row: &tokio_postgres::Row) -> StoredPasskey {
    StoredPasskey {
        id: row.get(0),
        account: row.get(1),
        credential_id: row.get(2),
        name: row.get(3),
        credential: row.get(4),
        created_ms: row.get(5),
        last_used_ms: row.get(6),
    }
}

impl Accounts for PostgresAccounts {
    fn create<'a>(&'a self, new: &'a NewAccount) -> PortFuture<'a, Result<Account, CreateError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let clash = client
                .query_opt(
                    "SELECT name_key FROM accounts WHERE name_key = $1 OR skeleton = $2
                     ORDER BY name_key = $1 DESC LIMIT 1",
                    &[&new.key, &new.skeleton],
                )
                .await
                .map_err(port)?;
            if let Some(row) = clash {
                let key: String = row.get(0);
                return Err(if key == new.key {
                    CreateError::NameTaken
                } else {
                    CreateError::NameConfusable
                });
            }
            let inserted = client
                .execute(
                    "INSERT INTO accounts (id, username, name_key, skeleton, password_hash, created_ms)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &[
                        &new.id as Param,
                        &new.username,
                        &new.key,
                        &new.skeleton,
                        &new.password_hash,
                        &new.created_ms,
                    ],
                )
                .await;
            match inserted {
                Ok(_) => Ok(Account {
                    id: new.id.clone(),
                    username: new.username.clone(),
                    created_ms: new.created_ms,
                }),
                // Another node took the name between the check and the insert.
                Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                    let constraint = e.as_db_error().and_then(|d| d.constraint()).unwrap_or("");
                    Err(if constraint.contains("skeleton") {
                        CreateError::NameConfusable
                    } else {
                        CreateError::NameTaken
                    })
                }
                Err(e) => Err(CreateError::Port(port(e))),
            }
        })
    }

    fn by_id<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<Account>, PortError>> {
        Box::pin(async move {
            if unstorable(id) {
                return Ok(None);
            }
            let client = self.client().await?;
            let row = client
                .query_opt(
                    "SELECT id, username, created_ms FROM accounts WHERE id = $1",
                    &[&id],
                )
                .await
                .map_err(port)?;
            Ok(row.as_ref().map(account))
        })
    }

    fn by_name<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<Option<Account>, PortError>> {
        Box::pin(async move {
            if unstorable(name) {
                return Ok(None);
            }
            let key = super::username::key(name);
            let client = self.client().await?;
            let row = client
                .query_opt(
                    "SELECT id, username, created_ms FROM accounts WHERE name_key = $1",
                    &[&key],
                )
                .await
                .map_err(port)?;
            Ok(row.as_ref().map(account))
        })
    }

    fn password_hash<'a>(
        &'a self,
        id: &'a str,
    ) -> PortFuture<'a, Result<Option<String>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt("SELECT password_hash FROM accounts WHERE id = $1", &[&id])
                .await
                .map_err(port)?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn set_password_hash<'a>(
        &'a self,
        id: &'a str,
        hash: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let changed = client
                .execute(
                    "UPDATE accounts SET password_hash = $2 WHERE id = $1",
                    &[&id as Param, &hash],
                )
                .await
                .map_err(port)?;
            Ok(changed == 1)
        })
    }

    fn open_session<'a>(&'a self, new: &'a NewSession) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let s = &new.info;
            // The account's expired sessions go as a new one comes: the table holds live ones.
            client
                .execute(
                    "DELETE FROM account_sessions WHERE account_id = $1 AND expires_ms <= $2",
                    &[&s.account as Param, &s.created_ms],
                )
                .await
                .map_err(port)?;
            client
                .execute(
                    "INSERT INTO account_sessions
                        (id, account_id, token_hash, created_ms, expires_ms, user_agent)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &[
                        &s.id as Param,
                        &s.account,
                        &new.token_hash,
                        &s.created_ms,
                        &s.expires_ms,
                        &s.user_agent,
                    ],
                )
                .await
                .map_err(port)?;
            Ok(())
        })
    }

    fn session<'a>(
        &'a self,
        token_hash: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Option<(Account, SessionInfo)>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    &format!(
                        "SELECT a.id, a.username, a.created_ms, {SESSION_COLUMNS}
                         FROM account_sessions s JOIN accounts a ON a.id = s.account_id
                         WHERE s.token_hash = $1 AND s.expires_ms > $2 AND NOT a.disabled"
                    ),
                    &[&token_hash as Param, &now_ms],
                )
                .await
                .map_err(port)?;
            Ok(row.map(|r| (account(&r), session(&r, 3))))
        })
    }

    fn sessions<'a>(
        &'a self,
        account: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<SessionInfo>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {SESSION_COLUMNS} FROM account_sessions s
                         WHERE s.account_id = $1 AND s.expires_ms > $2 ORDER BY s.created_ms, s.id"
                    ),
                    &[&account as Param, &now_ms],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(|r| session(r, 0)).collect())
        })
    }

    fn revoke<'a>(
        &'a self,
        account: &'a str,
        session: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            if unstorable(session) {
                return Ok(false);
            }
            let client = self.client().await?;
            let gone = client
                .execute(
                    "DELETE FROM account_sessions WHERE account_id = $1 AND id = $2",
                    &[&account as Param, &session],
                )
                .await
                .map_err(port)?;
            Ok(gone == 1)
        })
    }

    fn revoke_all<'a>(
        &'a self,
        account: &'a str,
        except: Option<&'a str>,
    ) -> PortFuture<'a, Result<u64, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute(
                    "DELETE FROM account_sessions
                     WHERE account_id = $1 AND id IS DISTINCT FROM $2",
                    &[&account as Param, &except],
                )
                .await
                .map_err(port)
        })
    }
    // tokens and bot accounts
    fn is_bot<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<bool>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    "SELECT bot_since_ms IS NOT NULL FROM accounts WHERE id = $1",
                    &[&id],
                )
                .await
                .map_err(port)?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn make_bot<'a>(
        &'a self,
        id: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<MadeBot, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            // One statement: a rating written meanwhile is either seen or written after.
            let row = client
                .query_opt(
                    "WITH a AS (SELECT id, bot_since_ms IS NOT NULL AS bot,
                        EXISTS (SELECT 1 FROM ratings WHERE member_a = $1 OR member_b = $1) AS rated
                        FROM accounts WHERE id = $1 FOR UPDATE),
                     made AS (UPDATE accounts SET bot_since_ms = $2
                        WHERE id = $1 AND id IN (SELECT id FROM a WHERE NOT bot AND NOT rated)
                        RETURNING id)
                     SELECT bot, rated FROM a",
                    &[&id as Param, &now_ms],
                )
                .await
                .map_err(port)?;
            Ok(
                match row.map(|r| (r.get::<_, bool>(0), r.get::<_, bool>(1))) {
                    None => MadeBot::NoSuchAccount,
                    Some((false, true)) => MadeBot::HasRatedGames,
                    Some(_) => MadeBot::Made,
                },
            )
        })
    }

    fn name_registered<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            if super::username::reserved(name) {
                return Ok(true);
            }
            if unstorable(name) {
                return Ok(false);
            }
            let (key, skeleton) = (super::username::key(name), super::username::skeleton(name));
            let client = self.client().await?;
            let row = client
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM accounts WHERE name_key = $1 OR skeleton = $2)",
                    &[&key as Param, &skeleton],
                )
                .await
                .map_err(port)?;
            Ok(row.get(0))
        })
    }

    fn create_token<'a>(
        &'a self,
        new: &'a NewToken,
        max_live: usize,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let t = &new.info;
            let tx = client.transaction().await.map_err(port)?;
            // The account's row locked: tokens asked for at once through any node are counted
            // one after another, so they never pass the limit together.
            let exists = tx
                .query_opt(
                    "SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE",
                    &[&t.account],
                )
                .await
                .map_err(port)?;
            if exists.is_none() {
                return Err(PortError(format!("no account {}", t.account)));
            }
            // The account's expired tokens go as a new one comes: the table holds live ones.
            tx.execute(
                "DELETE FROM account_tokens WHERE account_id = $1 AND expires_ms <= $2",
                &[&t.account as Param, &t.created_ms],
            )
            .await
            .map_err(port)?;
            let live: i64 = tx
                .query_one(
                    "SELECT COUNT(*) FROM account_tokens WHERE account_id = $1",
                    &[&t.account],
                )
                .await
                .map_err(port)?
                .get(0);
            if usize::try_from(live).unwrap_or(usize::MAX) >= max_live {
                return Ok(false);
            }
            tx.execute(
                "INSERT INTO account_tokens
                    (id, account_id, token_hash, label, scopes, created_ms, expires_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    &t.id as Param,
                    &t.account,
                    &new.token_hash,
                    &t.label,
                    &t.scopes.to_text(),
                    &t.created_ms,
                    &t.expires_ms,
                ],
            )
            .await
            .map_err(port)?;
            tx.commit().await.map_err(port)?;
            Ok(true)
        })
    }

    fn revoke_tokens<'a>(&'a self, account: &'a str) -> PortFuture<'a, Result<u64, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute(
                    "DELETE FROM account_tokens WHERE account_id = $1",
                    &[&account],
                )
                .await
                .map_err(port)
        })
    }

    fn tokens<'a>(
        &'a self,
        account: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<TokenInfo>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {TOKEN_COLUMNS} FROM account_tokens t
                         WHERE t.account_id = $1 AND t.expires_ms > $2 ORDER BY t.created_ms, t.id"
                    ),
                    &[&account as Param, &now_ms],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(|r| token(r, 0)).collect())
        })
    }

    fn revoke_token<'a>(
        &'a self,
        account: &'a str,
        token: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            if unstorable(token) {
                return Ok(false);
            }
            let client = self.client().await?;
            let gone = client
                .execute(
                    "DELETE FROM account_tokens WHERE account_id = $1 AND id = $2",
                    &[&account as Param, &token],
                )
                .await
                .map_err(port)?;
            Ok(gone == 1)
        })
    }

    fn token<'a>(
        &'a self,
        token_hash: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Option<TokenHolder>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    &format!(
                        "SELECT a.id, a.username, a.created_ms, a.bot_since_ms IS NOT NULL,
                            {TOKEN_COLUMNS}
                         FROM account_tokens t JOIN accounts a ON a.id = t.account_id
                         WHERE t.token_hash = $1 AND t.expires_ms > $2 AND NOT a.disabled"
                    ),
                    &[&token_hash as Param, &now_ms],
                )
                .await
                .map_err(port)?;
            Ok(row.map(|r| TokenHolder {
                account: account(&r),
                bot: r.get(3),
                token: token(&r, 4),
            }))
        })
    }

    fn token_used<'a>(
        &'a self,
        id: &'a str,
        now_ms: i64,
        address: &'a str,
    ) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute(
                    "UPDATE account_tokens SET last_used_ms = $2, last_address = $3 WHERE id = $1",
                    &[&id as Param, &now_ms, &address],
                )
                .await
                .map_err(port)?;
            Ok(())
        })
    }

    fn live_tokens<'a>(
        &'a self,
        ids: &'a [String],
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>> {
        Box::pin(self.live_of(
            "SELECT t.id FROM account_tokens t JOIN accounts a ON a.id = t.account_id
             WHERE t.id = ANY($1) AND t.expires_ms > $2 AND NOT a.disabled",
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
            "SELECT s.id FROM account_sessions s JOIN accounts a ON a.id = s.account_id
             WHERE s.id = ANY($1) AND s.expires_ms > $2 AND NOT a.disabled",
            ids,
            now_ms,
        ))
    }

    // passkeys, audit and administration

    fn add_passkey<'a>(
        &'a self,
        new: &'a StoredPasskey,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let added = client
                .execute(
                    &format!(
                        "INSERT INTO account_passkeys ({PASSKEY_COLUMNS})
                         VALUES ($1, $2, $3, $4, $5, $6, $7)
                         ON CONFLICT (credential_id) DO NOTHING"
                    ),
                    &[
                        &new.id as Param,
                        &new.account,
                        &new.credential_id,
                        &new.name,
                        &new.credential,
                        &new.created_ms,
                        &new.last_used_ms,
                    ],
                )
                .await
                .map_err(port)?;
            Ok(added == 1)
        })
    }

    fn passkeys<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<StoredPasskey>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {PASSKEY_COLUMNS} FROM account_passkeys WHERE account_id = $1
                         ORDER BY created_ms, id"
                    ),
                    &[&account],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(passkey).collect())
        })
    }

    fn passkey_by_credential<'a>(
        &'a self,
        credential_id: &'a str,
    ) -> PortFuture<'a, Result<Option<StoredPasskey>, PortError>> {
        Box::pin(async move {
            if unstorable(credential_id) {
                return Ok(None);
            }
            let client = self.client().await?;
            let row = client
                .query_opt(
                    &format!(
                        "SELECT {PASSKEY_COLUMNS} FROM account_passkeys WHERE credential_id = $1"
                    ),
                    &[&credential_id],
                )
                .await
                .map_err(port)?;
            Ok(row.as_ref().map(passkey))
        })
    }

    fn touch_passkey<'a>(
        &'a self,
        id: &'a str,
        credential: &'a str,
        used_ms: i64,
    ) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute(
                    "UPDATE account_passkeys SET credential = $2, last_used_ms = $3 WHERE id = $1",
                    &[&id as Param, &credential, &used_ms],
                )
                .await
                .map_err(port)?;
            Ok(())
        })
    }

    fn remove_passkey<'a>(
        &'a self,
        account: &'a str,
        id: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            if unstorable(id) {
                return Ok(false);
            }
            let client = self.client().await?;
            let gone = client
                .execute(
                    "DELETE FROM account_passkeys WHERE account_id = $1 AND id = $2",
                    &[&account as Param, &id],
                )
                .await
                .map_err(port)?;
            Ok(gone == 1)
        })
    }

    fn record<'a>(&'a self, entry: &'a audit::Entry) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let horizon = entry.at_ms - audit::RETENTION.as_millis() as i64;
            client
                .execute(
                    "DELETE FROM account_audit WHERE account_id = $1 AND at_ms < $2",
                    &[&entry.account as Param, &horizon],
                )
                .await
                .map_err(port)?;
            client
                .execute(
                    "INSERT INTO account_audit (id, account_id, at_ms, kind, address, detail)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &[
                        &entry.id as Param,
                        &entry.account,
                        &entry.at_ms,
                        &entry.kind,
                        &entry.address,
                        &entry.detail,
                    ],
                )
                .await
                .map_err(port)?;
            Ok(())
        })
    }

    fn audit<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<audit::Entry>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT id, account_id, at_ms, kind, address, detail FROM account_audit
                     WHERE account_id = $1 ORDER BY at_ms DESC, id DESC LIMIT $2",
                    &[&account as Param, &i64::from(limit)],
                )
                .await
                .map_err(port)?;
            Ok(rows
                .iter()
                .map(|r| audit::Entry {
                    id: r.get(0),
                    account: r.get(1),
                    at_ms: r.get(2),
                    kind: r.get(3),
                    address: r.get(4),
                    detail: r.get(5),
                })
                .collect())
        })
    }

    fn status<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Option<AccountStatus>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    "SELECT disabled, admin FROM accounts WHERE id = $1",
                    &[&account],
                )
                .await
                .map_err(port)?;
            Ok(row.map(|r| AccountStatus {
                disabled: r.get(0),
                admin: r.get(1),
            }))
        })
    }

    fn set_status<'a>(
        &'a self,
        account: &'a str,
        status: AccountStatus,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let changed = client
                .execute(
                    "UPDATE accounts SET disabled = $2, admin = $3 WHERE id = $1",
                    &[&account as Param, &status.disabled, &status.admin],
                )
                .await
                .map_err(port)?;
            Ok(changed == 1)
        })
    }
}
