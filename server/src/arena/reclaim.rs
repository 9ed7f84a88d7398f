//! An arena seat is its bot account's (docs/BOTS.md, "The arena"): whichever connection of the
//! account says hello, on any node, under a new session or a resumed one, is given the seats its
//! matches in play hold for the account and told those matches again (`arena_match`, with the
//! tables still to play), as a tournament's player is told `go_to_table` again after every
//! welcome. The matches are the arena store's (shared by a cluster's nodes), those of the last
//! day (a match is settled within hours: each table has its start deadline); a table still to
//! play is one served somewhere and not finished.
//!
//! [`Reclaim::find`] runs before the welcome (which lists the seats), [`Reclaim::claim`] after
//! it: each table is sent `Command::Claim`, which logs the seat as this session's player's and
//! hands it to the connection (a table served elsewhere hears it through its node).

use std::sync::Arc;

use burraco_protocol::log::SeatAccount;
use burraco_protocol::wire::{ArenaTable, ServerMessage, WireSeat};
use burraco_rules::Seat;

use crate::Shared;
use crate::accounts::identity::Identity;
use crate::outbound::Outbox;
use crate::session::Session;
use crate::table::Command;

/// How far back a bot account's matches are looked for: every match is settled well within it.
const LOOK_BACK_MS: i64 = 86_400_000;

/// A bot account's arena matches in play, found for one connection's welcome.
#[derive(Debug, Default)]
pub struct Reclaim {
    account: Option<SeatAccount>,
    /// Each match's notice and its tables still to play, with the seat held at each.
    owed: Vec<(ServerMessage, Vec<(String, Seat)>)>,
}

impl Reclaim {
    /// The matches in play of the connection's bot account (none for anyone else, or when the
    /// arena's store cannot answer: the bot can still `join` its tables by id, which claims the
    /// seat as well).
    pub async fn find(shared: &Arc<Shared>, identity: &Identity) -> Reclaim {
        let Identity::Account {
            account, bot: true, ..
        } = identity
        else {
            return Reclaim::default();
        };
        let since = crate::ids::unix_ms() - LOOK_BACK_MS;
        let made = match shared.arena_store.matches_of(&account.id, since).await {
            Ok(made) => made,
            Err(e) => {
                tracing::debug!("a bot account's arena matches not read: {e}");
                return Reclaim::default();
            }
        };
        let mut owed = Vec::new();
        for m in made {
            let side = usize::from(m.bot_a != account.id);
            let mut seats = Vec::new();
            for (table, seat) in super::tables_of(&m.arena)
                .into_iter()
                .zip(super::seats_of_side(side))
            {
                let to_play = crate::lobby::find(shared, &table)
                    .await
                    .is_some_and(|h| !h.info().finished);
                if to_play {
                    seats.push((table, seat));
                }
            }
            if seats.is_empty() {
                continue;
            }
            let tables = seats
                .iter()
                .map(|(table, seat)| ArenaTable {
                    table: table.clone(),
                    seat: WireSeat(*seat),
                })
                .collect();
            let hands = shared.config.arena_hands.max(1);
            owed.push((super::notice(&m, side, hands, tables), seats));
        }
        Reclaim {
            account: Some(SeatAccount {
                id: account.id.clone(),
                bot: true,
            }),
            owed,
        }
    }

    /// `seats` (those the session's player holds) with the account's arena seats added.
    pub fn with_seats(&self, mut seats: Vec<(String, Seat)>) -> Vec<(String, Seat)> {
        for (table, seat) in self.owed.iter().flat_map(|(_, s)| s) {
            if !seats.iter().any(|(t, _)| t == table) {
                seats.push((table.clone(), *seat));
            }
        }
        seats
    }

    /// After the welcome: each arena seat claimed for this session's player and taken by this
    /// connection, and each match told again.
    pub async fn claim(self, shared: &Arc<Shared>, session: &Session, out: &Outbox) {
        let Some(account) = self.account else {
            return;
        };
        let own = crate::lobby::seats_of(shared, &session.player);
        for (notice, seats) in self.owed {
            for (table, _) in seats {
                // A seat this session holds already is moved here by the welcome's attach.
                if own.iter().any(|(t, _)| *t == table) {
                    continue;
                }
                if let Some(handle) = crate::lobby::find(shared, &table).await {
                    handle
                        .send(Command::Claim {
                            player: session.player.clone(),
                            name: session.name.clone(),
                            account: account.clone(),
                            out: out.clone(),
                        })
                        .await;
                }
            }
            out.send_message(notice);
        }
    }
}
