//! The table's side of a server bot's link ([`crate::bots::TableLink`]): a bot's requests reach the
//! table as a connection's do, a [`TableRequest`] with the seat's player id, read by the table's
//! one conversion. Here, not in the bots, so the bots never name the table's types (no import
//! cycle).

use burraco_protocol::wire::ClientMessage;
use tokio::sync::oneshot;

use super::handle::{Command, Request, TableHandle, TableRequest};
use crate::bots::TableLink;
use crate::outbound::Outbox;

/// A bot's way to its table: the handle, and the player id the table knows the seat by.
pub(super) struct BotLink {
    pub(super) table: TableHandle,
    pub(super) player: String,
}

impl TableLink for BotLink {
    async fn send(&mut self, request: ClientMessage, out: &Outbox) -> bool {
        // A seat the table gave asks for moves and syncs; its readiness is the table's to say.
        if !(request.is_action() || matches!(request, ClientMessage::Sync { .. })) {
            tracing::debug!(
                kind = request.kind(),
                "a bot request the table does not take"
            );
            return true;
        }
        // Replies come in order with the events on the outbox; nobody waits for `done`.
        let (done, _) = oneshot::channel();
        let req = Request {
            id: request.id().unwrap_or_default(),
            out: out.clone(),
            done,
            received: std::time::Instant::now(),
        };
        let request = TableRequest {
            message: request,
            player: self.player.clone(),
            // Moves and syncs show no name.
            name: String::new(),
            // A server bot has no account, nor address.
            account: None,
            address: None,
            req,
        };
        self.table.send(Command::Request(request)).await
    }
}
