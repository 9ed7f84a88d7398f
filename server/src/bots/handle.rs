//! The table's side of [`super::TableLink`], kept here only until the table implements it over
//! its own handle: then this file goes, and the table calls [`super::spawn`] itself. It is the one
//! place in the bots that names the table's types.

use std::sync::Arc;

use burraco_bot::Level;
use burraco_protocol::wire::ClientMessage;
use burraco_rules::Seat;
use tokio::sync::oneshot;

use super::TableLink;
use crate::Shared;
use crate::outbound::Outbox;
use crate::table::{Command, Request, TableHandle};

/// A bot's way to its table: the handle, and the player id the table knows the seat by.
struct HandleLink {
    table: TableHandle,
    player: String,
}

impl TableLink for HandleLink {
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

/// Starts a bot playing `seat` of `table` as `player` (the id the table knows the seat by) and
/// returns the outbox the table must send the seat's frames to, beginning with a snapshot.
pub fn start(
    shared: &Arc<Shared>,
    table: TableHandle,
    player: String,
    seat: Seat,
    level: Level,
) -> Outbox {
    let id = table.id().to_owned();
    super::spawn(shared, &id, HandleLink { table, player }, seat, level)
}
