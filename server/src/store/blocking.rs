//! A SQLite connection of a store's own beside the writer thread (WAL lets them share the file),
//! its queries run on tokio's blocking pool, one at a time: what every SQLite implementation of a
//! port (the accounts, ratings, players' index, fair play, moderation, seasons) is kept on. Once
//! the store is open, no query runs on a runtime worker, so a slow one (a lock held by the
//! writer, a long scan) stalls no connection.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::Connection;

use super::{FILE_NAME, Store};
use crate::port::PortError;

/// A SQLite failure as a port's error.
fn port(e: impl std::fmt::Display) -> PortError {
    PortError(e.to_string())
}

/// One connection, shared by the clones of its store (a mutex: SQLite connections are not
/// `Sync`).
#[derive(Debug, Clone)]
pub struct BlockingConnection {
    conn: Arc<Mutex<Connection>>,
}

impl BlockingConnection {
    /// A connection of its own to `store`'s file.
    pub fn open(store: &Store) -> Result<BlockingConnection, PortError> {
        Ok(BlockingConnection::new(store.reader().map_err(port)?))
    }

    /// A connection to the store's file in data directory `dir` without the store itself (no
    /// writer thread: `burraco-server admin` beside a running server, tests): the directory
    /// made if missing, WAL mode, and a busy timeout, so it waits for the server's writer
    /// instead of failing. Made as the server makes them: for its user alone.
    pub fn open_dir(dir: &Path) -> Result<BlockingConnection, PortError> {
        let path = dir.join(FILE_NAME);
        super::schema::private_dir(dir)
            .and_then(|()| super::schema::private_file(&path))
            .map_err(port)?;
        let conn = Connection::open(path).map_err(port)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(port)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(port)?;
        Ok(BlockingConnection::new(conn))
    }

    fn new(conn: Connection) -> BlockingConnection {
        BlockingConnection {
            conn: Arc::new(Mutex::new(conn)),
        }
    }

    /// Runs `f` on the connection, on the blocking pool; a SQLite error (or the blocking task
    /// lost) is the port's. A store's own refusal travels inside: `f` answers
    /// `Ok(Err(refusal))`, and a transaction it began rolls back as it is dropped.
    pub async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, PortError> {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || f(&mut lock(&conn)).map_err(port))
            .await
            .map_err(port)?
    }

    /// Runs `f` on the connection on this thread: at opening (a store's migrations), before
    /// the store serves anything.
    pub fn with_here<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, PortError> {
        f(&mut lock(&self.conn)).map_err(port)
    }
}

/// The connection, even if a closure panicked while holding it: SQLite rolled back whatever
/// that closure's transaction had not committed, so the connection is as good as before.
fn lock(conn: &Mutex<Connection>) -> std::sync::MutexGuard<'_, Connection> {
    conn.lock().unwrap_or_else(|e| e.into_inner())
}

/// A store kept on a [`BlockingConnection`]: its queries are `self.with(|conn| ...)`.
pub trait OnBlockingConnection {
    fn connection(&self) -> &BlockingConnection;

    /// [`BlockingConnection::with`] on the store's connection.
    fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> impl Future<Output = Result<T, PortError>> + Send {
        self.connection().with(f)
    }
}
