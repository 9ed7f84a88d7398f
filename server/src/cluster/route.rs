//! This node's end of the routing of tables between nodes: its subscriptions (requests other
//! nodes forward to its tables, frames other nodes' tables send its connections) and the handles
//! of tables served elsewhere. What travels, and each side of it, is in [`super::forward`]
//! (requests to a table's node) and [`super::relay`] (frames back to a connection's node); the
//! names this node keeps of both are its [`PeerDirectory`].

use std::sync::Arc;

use async_nats::Client;
use futures_util::StreamExt;

use super::Cluster;
use super::forward::{self, Answer, Forwarded, Forwarder};
use super::peer_directory::PeerDirectory;
use super::relay::{self, Relay};
use crate::Shared;
use crate::table::{Command, TableHandle, TableInfo};

/// This node's side of the routing.
#[derive(Debug)]
pub struct Router {
    pub(super) client: Client,
    pub(super) node: String,
    pub(super) directory: PeerDirectory,
    pub(super) relay: Relay,
}

impl Router {
    pub fn new(client: Client, node: &str) -> Router {
        Router {
            relay: Relay::new(client.clone()),
            client,
            node: node.to_owned(),
            directory: PeerDirectory::default(),
        }
    }

    /// A node listed `table` (its owner wrote its listing): the attaches held for it, whose
    /// connections are still open, are sent to whoever serves it now.
    pub fn table_listed(&self, shared: &Arc<Shared>, table: &str) {
        let Some(held) = self.directory.take_held_attaches(table) else {
            return;
        };
        let (shared, table) = (shared.clone(), table.to_owned());
        shared.tracker.clone().spawn(async move {
            let Some(handle) = crate::lobby::find(&shared, &table).await else {
                return;
            };
            for (player, out) in held {
                handle.send(Command::Attach { player, out }).await;
            }
        });
    }

    /// A connection of this node closed: frames for it are dropped from now on.
    pub fn forget_conn(&self, conn: u64) {
        self.directory.forget_conn(conn);
    }

    /// A table ended: its forwarder stops.
    pub fn forget_table(&self, table: &str) {
        self.directory.forget_remote_table(table);
    }

    /// The handle of a table served by `owner` (another node), with the lobby's `info` of it.
    pub fn remote_table(
        &self,
        shared: &Arc<Shared>,
        cluster: &Arc<Cluster>,
        table: &str,
        owner: &str,
        info: TableInfo,
    ) -> TableHandle {
        if let Some(handle) = self.directory.remote_table(table) {
            handle.set_info(info);
            return handle;
        }
        let handle = Forwarder::start(shared, cluster, table, owner, info);
        self.directory.register_remote_table(&handle);
        handle
    }

    /// Serves this node's side: requests for its tables, frames for its connections. Returns
    /// when the server shuts down.
    pub async fn serve(
        shared: Arc<Shared>,
        cluster: Arc<Cluster>,
    ) -> Result<(), async_nats::SubscribeError> {
        let router = &cluster.router;
        let mut requests = router
            .client
            .subscribe(forward::table_subject(&router.node))
            .await?;
        let mut frames = router
            .client
            .subscribe(format!("burraco.conn.{}.*", router.node))
            .await?;
        let stop = shared.shutdown.clone();
        loop {
            tokio::select! {
                _ = stop.cancelled() => return Ok(()),
                Some(message) = requests.next() => {
                    let answer = match postcard::from_bytes::<Forwarded>(&message.payload) {
                        Ok(forwarded) => forward::take(&shared, &cluster, forwarded),
                        Err(e) => {
                            tracing::warn!("a forwarded request does not decode: {e}");
                            Answer::NotHere
                        }
                    };
                    if let Some(reply) = message.reply {
                        let bytes = postcard::to_stdvec(&answer).expect("an answer encodes");
                        let _ = router.client.publish(reply, bytes.into()).await;
                    }
                }
                Some(message) = frames.next() => {
                    relay::deliver(&router.directory, &message.subject, &message.payload);
                }
                else => return Ok(()),
            }
        }
    }
}
