//! The table's side of a server bot's link ([`crate::bots::TableLink`]): a bot's requests become
//! the table's commands, sent over the table's own handle with the seat's player id, exactly as a
//! connection's reader would send them. Here, not in the bots, so the bots never name the table's
//! types (no import cycle).

use burraco_protocol::wire::ClientMessage;
use tokio::sync::oneshot;

use super::handle::{Command, Request, TableHandle};
use crate::bots::TableLink;
use crate::outbound::Outbox;

/// A bot's way to its table: the handle, and the player id the table knows the seat by.
pub(super) struct BotLink {
    pub(super) table: TableHandle,
    pub(super) player: String,
}

impl TableLink for BotLink {
    async fn send(&mut self, request: ClientMessage, out: &Outbox) -> bool {
        let req = |id| {
            // Replies come in order with the events on the outbox; nobody waits for `done`.
            let (done, _) = oneshot::channel();
            Request {
                id,
                out: out.clone(),
                done,
                received: std::time::Instant::now(),
            }
        };
        let player = self.player.clone();
        let command = match request.into_table_action() {
            Ok(act) => Command::Act {
                player,
                action: act.action,
                req: req(act.id),
            },
            Err(ClientMessage::Sync { id, last_seq, .. }) => Command::Sync {
                player,
                last_seq,
                req: req(id),
            },
            // A seated session asks for nothing else.
            Err(other) => {
                tracing::debug!(kind = other.kind(), "a bot request the table does not take");
                return true;
            }
        };
        self.table.send(command).await
    }
}
