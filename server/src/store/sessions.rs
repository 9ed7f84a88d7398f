//! Resume sessions: written through the writer thread (with the logs' appends, in its group
//! commit) and looked up by token on a kept read connection.

use rusqlite::OptionalExtension;
use tokio::sync::oneshot;

use super::{Job, Store, StoreError};
use crate::session::Session;

/// A resume session to persist (the tables' logs go through [`TableLog`]), under its token's
/// key ([`crate::session::ResumeKey`]: the store never sees the token).
#[derive(Debug, Clone)]
pub enum Write {
    Session { key: String, session: Session },
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

    /// The session of a resume token's key, from the database: sessions live in memory only
    /// while their player is connected or seated, so a token from long ago is found here.
    pub async fn session(&self, key: String) -> Result<Option<Session>, StoreError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            store.read(|conn| {
                Ok(conn
                    .prepare_cached(
                        "SELECT player, name, account FROM resume_sessions WHERE key = ?1",
                    )?
                    .query_row([key], |r| {
                        Ok(Session {
                            player: r.get(0)?,
                            name: r.get(1)?,
                            account: r.get(2)?,
                        })
                    })
                    .optional()?)
            })
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }
}
