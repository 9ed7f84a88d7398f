//! Resume sessions: written through the writer thread (with the logs' appends, in its group
//! commit) and looked up by token on a kept read connection.

use rusqlite::OptionalExtension;
use tokio::sync::oneshot;

use super::{Job, Store, StoreError};

/// A resume session to persist (the tables' logs go through [`TableLog`]).
#[derive(Debug, Clone)]
pub enum Write {
    Session {
        token: String,
        player: String,
        name: String,
    },
}

impl Store {
    /// Persists session `writes` and returns once they are committed.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let (ack, done) = oneshot::channel();
        self.tx
            .send(Job::Sessions { writes, ack })
            .await
            .map_err(|_| StoreError::Closed)?;
        self.wait(done).await.ok_or(StoreError::Closed)?
    }

    /// The session of a resume token, from the database: sessions live in memory only while
    /// their player is connected or seated, so a token from long ago is found here.
    pub async fn session(&self, token: String) -> Result<Option<(String, String)>, StoreError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            store.read(|conn| {
                Ok(conn
                    .prepare_cached("SELECT player, name FROM sessions WHERE token = ?1")?
                    .query_row([token], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()?)
            })
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }
}
