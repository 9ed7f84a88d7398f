//! Who holds each seat, as protocol 1.6 labels it (`seat_identities`, the hand records' seats):
//! a guest, a player account, a bot account or a server bot. The seats' older `bot` flag says
//! only "a program plays here", which a server bot and a bot account both are.

use burraco_protocol::record::HandRecord;
use burraco_protocol::wire::{SeatIdentity, WireSeat};
use burraco_rules::Seat;

use super::{SeatSlot, TableActor};

impl TableActor {
    /// Every occupied seat's holder, in seat order.
    pub(super) fn seat_identities(&self) -> Vec<SeatIdentity> {
        Seat::ALL
            .into_iter()
            .filter_map(|seat| Some(identity_of(seat, self.state.seats[seat.index()].as_ref()?)))
            .collect()
    }
}

/// Labels a finished hand's record with its seats' holders ([`TableActor::seat_identities`]),
/// so the record served over HTTP tells a server bot from a bot account as the table did.
pub(super) fn label_record(record: &mut HandRecord, identities: &[SeatIdentity]) {
    for seat in &mut record.seats {
        let Some(identity) = identities.iter().find(|i| i.seat.0 == seat.seat) else {
            continue;
        };
        seat.kind = Some(identity.kind.clone());
        seat.account = identity.account.clone();
        seat.server_bot = identity.server_bot.clone();
    }
}

fn identity_of(seat: Seat, slot: &SeatSlot) -> SeatIdentity {
    let server_bot = slot.bot.map(|role| role.level.short());
    // A seat a server bot holds for good (its own, or one its player gave up) is the bot's; a
    // stand-in keeps the seat its holder's, who takes it back on resuming.
    let owned_by_server_bot = slot.bot.is_some_and(|role| !role.stand_in);
    let (kind, account) = match &slot.account {
        _ if owned_by_server_bot => ("server_bot", None),
        Some(account) if account.bot => ("bot", Some(account.id.clone())),
        Some(account) => ("player", Some(account.id.clone())),
        None => ("guest", None),
    };
    SeatIdentity {
        seat: WireSeat(seat),
        kind: kind.to_owned(),
        name: slot.name.clone(),
        account,
        server_bot,
    }
}
