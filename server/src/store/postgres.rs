//! The PostgreSQL database (`--database-url`, env `BURRACO_DATABASE_URL`) that the nodes of a
//! cluster share, and where every PostgreSQL implementation of a port (the accounts, ratings,
//! players' index, fair play, moderation, seasons) keeps its tables. A node opens one pool of
//! connections at start ([`Database::connect`], `--database-pool` of them at most) and hands a
//! clone to each store, so its connections to the database are that many whatever the number
//! of stores. The schema is the accounts' migrations, which `PostgresAccounts::open` applies
//! before any other store is opened.

use std::str::FromStr;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use tokio_postgres::NoTls;

use crate::port::PortError;

pub use crate::config::DEFAULT_POOL_SIZE;

/// A PostgreSQL failure as a port's error (every store on PostgreSQL reports them so).
pub fn port(e: impl std::fmt::Display) -> PortError {
    PortError(format!("postgres: {e}"))
}

/// Whether `text` matches nothing PostgreSQL can hold: a NUL, which its text type refuses (a
/// query naming one fails instead of finding nothing). A lookup by such a text answers "none"
/// without asking, as SQLite, which finds nothing, does; no store is ever given one to keep
/// (the edges refuse control characters in what they store).
pub fn unstorable(text: &str) -> bool {
    text.contains('\0')
}

/// A node's pool of connections to the database; cloning shares the pool.
#[derive(Debug, Clone)]
pub struct Database {
    pool: Pool,
}

impl Database {
    /// A pool of at most `max_size` connections to `url` (a `postgres://` URL or key=value
    /// string), after one connection made: an unreachable database fails the start, not the
    /// first request that needs it.
    pub async fn connect(url: &str, max_size: usize) -> Result<Database, PortError> {
        let mut config = tokio_postgres::Config::from_str(url).map_err(port)?;
        // An unreachable database fails the start (or the request) instead of hanging on
        // TCP's own timeout.
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(std::time::Duration::from_secs(10));
        }
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(max_size.max(1))
            .build()
            .map_err(port)?;
        let database = Database { pool };
        drop(database.client().await?);
        Ok(database)
    }

    /// A connection from the pool, waited for while all are in use.
    pub async fn client(&self) -> Result<Object, PortError> {
        self.pool.get().await.map_err(port)
    }
}

/// A store kept in the [`Database`]: its queries are `self.client().await?`.
pub trait OnDatabase {
    fn database(&self) -> &Database;

    /// [`Database::client`] of the store's pool.
    fn client(&self) -> impl Future<Output = Result<Object, PortError>> + Send {
        self.database().client()
    }
}
