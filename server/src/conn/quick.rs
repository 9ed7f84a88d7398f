//! `quick_play` (and 1.5's `quick_play_rated`): a seat at the open table of the kind (for
//! rated play, the closest rating within its window) or at a new one, claimed in one step per
//! kind ([`crate::quick_play::claim_seat`]), then joined at its first free seat.

use burraco_protocol::log::SeatAccount;

use super::*;
use crate::accounts::identity::Identity;
use crate::quick_play::{self, Kind};

/// Tables a quick play tries when the one picked stops before seating anyone (its last player
/// left as the request arrived): then another is picked.
const ATTEMPTS: usize = 3;

/// How a quick play's join at the table picked ended.
enum Joined {
    /// The table answered (seated, or a refusal the asker reads).
    Answered,
    /// The table stopped before it read the request: pick again.
    Gone,
}

impl Connection {
    pub(super) async fn quick_play(
        &mut self,
        id: u64,
        preset: Option<String>,
        players: Option<u8>,
        rated: bool,
    ) {
        let preset = match preset.as_deref().map(Preset::from_code) {
            None => Preset::Fitab,
            Some(Some(p)) => p,
            Some(None) => {
                self.out.send_message(error(
                    Some(id),
                    ErrorCode::InvalidSettings,
                    "unknown preset",
                ));
                return;
            }
        };
        let players = match players {
            None | Some(4) => Players::Four,
            Some(2) => Players::Two,
            Some(_) => {
                self.out.send_message(error(
                    Some(id),
                    ErrorCode::InvalidSettings,
                    "players must be 4 or 2",
                ));
                return;
            }
        };
        let kind = Kind {
            preset,
            players,
            rated,
        };
        let account = match &self.identity {
            Identity::Account { account, bot, .. } => Some(SeatAccount {
                id: account.id.clone(),
                bot: *bot,
            }),
            Identity::Guest => None,
        };
        let rated_as = account.as_ref().filter(|_| rated).map(|a| a.id.clone());
        // The table picked is joined at its first free seat.
        let request = ClientMessage::QuickPlay {
            id,
            preset: Some(preset.code().into()),
            players: Some(players.count() as u8),
        };
        for _ in 0..ATTEMPTS {
            let shared = self.shared.clone();
            let player = self.session.player.clone();
            let claimed = quick_play::claim_seat(&shared, kind, &player, rated_as.as_deref()).await;
            let claim = match claimed {
                Ok(claim) => claim,
                Err((code, message)) => {
                    self.out.send_message(error(Some(id), code, message));
                    return;
                }
            };
            let joined = self
                .join_picked(&claim.table, request.clone(), account.clone())
                .await;
            // Answered: the seat is in the table's info (or was refused); the claim goes.
            drop(claim);
            if let Joined::Answered = joined {
                return;
            }
        }
        self.out.send_message(error(
            Some(id),
            ErrorCode::ShuttingDown,
            "the tables picked stopped before answering: retry",
        ));
    }

    /// The quick play's request to the table picked, as [`Connection::request`] sends one, but
    /// a table that stopped before reading it is [`Joined::Gone`], not a refusal.
    async fn join_picked(
        &mut self,
        handle: &TableHandle,
        message: ClientMessage,
        account: Option<SeatAccount>,
    ) -> Joined {
        let (done, replied) = oneshot::channel();
        let id = message.id().unwrap_or_default();
        let req = Request {
            id,
            out: self.out.clone(),
            done,
            received: std::time::Instant::now(),
        };
        let command = Command::Request(TableRequest {
            message,
            player: self.session.player.clone(),
            name: self.session.name.clone(),
            account,
            address: self.address,
            req,
        });
        match handle.try_send(command) {
            Ok(()) => {}
            Err(crate::table::Unavailable::Closed) => return Joined::Gone,
            Err(crate::table::Unavailable::Busy) => {
                self.out.send_message(error(
                    Some(id),
                    ErrorCode::TableBusy,
                    "the table is busy: retry",
                ));
                return Joined::Answered;
            }
        }
        match replied.await {
            Ok(()) => Joined::Answered,
            Err(_) => Joined::Gone,
        }
    }
}
