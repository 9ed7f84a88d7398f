//! Rules events to table messages and back. A table message that is a hand event carries the
//! event whole, so reading it back gives the very event (tested over whole hands).

use burraco_rules::{Event, HandEnd, MoveClock, Players, Seed};

use super::{
    hand_end_from_wire, meld_from_wire, meld_to_wire, pozzetto_from_code, score_from_wire,
    score_to_wire,
};
use crate::cards::to_hex;
use crate::wire::{SeatCards, ServerMessage, WireSeat};

/// Where a hand-ended event gets what the rules event does not know.
#[derive(Debug, Clone, Copy)]
pub struct EventContext<'a> {
    pub table: &'a str,
    pub seq: u64,
    pub players: Players,
    /// The number of the hand in the match (1-based).
    pub hand: u32,
    /// The seed to reveal in `hand_ended`, when it may be revealed.
    pub seed: Option<&'a [u8; 32]>,
}

/// The wire message for one rules event, before any per-seat projection.
pub fn event_to_wire(event: &Event, cx: EventContext<'_>) -> ServerMessage {
    let table = cx.table.to_owned();
    let seq = cx.seq;
    let players = cx.players;
    let side_of = |seat| players.side_of(seat);
    match event {
        Event::HandStarted {
            dealer,
            first,
            up_card,
            commitment,
        } => ServerMessage::HandStarted {
            table,
            seq,
            hand: cx.hand,
            dealer: WireSeat(*dealer),
            first: WireSeat(*first),
            up_card: *up_card,
            commitment: commitment.as_ref().map(|c| to_hex(c)),
        },
        Event::Dealt { seat, cards } => ServerMessage::Dealt {
            table,
            seq,
            seat: WireSeat(*seat),
            cards: cards.clone(),
        },
        Event::TurnStarted {
            seat,
            cards_held,
            clock,
        } => ServerMessage::TurnStarted {
            table,
            seq,
            seat: WireSeat(*seat),
            cards_held: *cards_held,
            clock_ms: clock.map(|c| c.limit_ms),
            grace_ms: clock.map(|c| c.grace_ms),
        },
        Event::Drew { seat } => ServerMessage::Drew {
            table,
            seq,
            seat: WireSeat(*seat),
        },
        Event::DrewCard { seat, card } => ServerMessage::DrewCard {
            table,
            seq,
            seat: WireSeat(*seat),
            card: *card,
        },
        Event::PickedUp { seat, cards } => ServerMessage::PickedUp {
            table,
            seq,
            seat: WireSeat(*seat),
            cards: cards.clone(),
        },
        Event::Opened {
            seat,
            meld,
            cards,
            result,
        } => ServerMessage::Opened {
            table,
            seq,
            seat: WireSeat(*seat),
            cards: cards.clone(),
            meld: meld_to_wire(*meld, side_of(*seat), players, result),
        },
        Event::Attached {
            seat,
            meld,
            cards,
            result,
        } => ServerMessage::Attached {
            table,
            seq,
            seat: WireSeat(*seat),
            cards: cards.clone(),
            meld: meld_to_wire(*meld, side_of(*seat), players, result),
        },
        Event::PozzettoTaken {
            seat,
            pozzetto,
            in_diretta,
        } => ServerMessage::PozzettoTaken {
            table,
            seq,
            seat: WireSeat(*seat),
            pozzetto: pozzetto.code().to_owned(),
            in_diretta: *in_diretta,
        },
        Event::PozzettoCards { seat, cards } => ServerMessage::PozzettoCards {
            table,
            seq,
            seat: WireSeat(*seat),
            cards: cards.clone(),
        },
        Event::Discarded { seat, card } => ServerMessage::Discarded {
            table,
            seq,
            seat: WireSeat(*seat),
            card: *card,
        },
        Event::ClockExpired { seat } => ServerMessage::ClockExpired {
            table,
            seq,
            seat: WireSeat(*seat),
        },
        Event::TimeOutAnnounced { turns_left } => ServerMessage::TimeOut {
            table,
            seq,
            turns_left: *turns_left,
        },
        Event::StalloWarning { exchanges } => ServerMessage::StalloWarning {
            table,
            seq,
            exchanges: *exchanges,
        },
        Event::Stallo { must_draw } => ServerMessage::Stallo {
            table,
            seq,
            must_draw: must_draw.map(WireSeat),
        },
        Event::HandEnded { end, score, hands } => ServerMessage::HandEnded {
            table,
            seq,
            hand: cx.hand,
            end: end.code().to_owned(),
            closed_by: match end {
                HandEnd::Closed { seat } => Some(WireSeat(*seat)),
                _ => None,
            },
            score: score_to_wire(score, players),
            hands: hands
                .iter()
                .map(|(seat, cards)| SeatCards {
                    seat: WireSeat(*seat),
                    cards: cards.clone(),
                })
                .collect(),
            seed: cx.seed.map(|s| to_hex(s)),
        },
    }
}

/// The rules event a table message carries; `None` for messages that are not hand events, and
/// for a hand event that does not read back (a meld the rules refuse, an unknown pozzetto or
/// hand end: only a newer or broken server sends those).
pub fn event_from_wire(message: &ServerMessage, players: Players) -> Option<Event> {
    use ServerMessage as M;
    Some(match message {
        M::HandStarted {
            dealer,
            first,
            up_card,
            commitment,
            ..
        } => Event::HandStarted {
            dealer: dealer.0,
            first: first.0,
            up_card: *up_card,
            commitment: commitment.as_deref().and_then(Seed::from_hex).map(|s| s.0),
        },
        M::Dealt { seat, cards, .. } => Event::Dealt {
            seat: seat.0,
            cards: cards.clone(),
        },
        M::TurnStarted {
            seat,
            cards_held,
            clock_ms,
            grace_ms,
            ..
        } => Event::TurnStarted {
            seat: seat.0,
            cards_held: *cards_held,
            clock: clock_ms.map(|limit_ms| MoveClock {
                limit_ms,
                grace_ms: grace_ms.unwrap_or(0),
            }),
        },
        M::Drew { seat, .. } => Event::Drew { seat: seat.0 },
        M::DrewCard { seat, card, .. } => Event::DrewCard {
            seat: seat.0,
            card: *card,
        },
        M::PickedUp { seat, cards, .. } => Event::PickedUp {
            seat: seat.0,
            cards: cards.clone(),
        },
        M::Opened {
            seat, cards, meld, ..
        } => Event::Opened {
            seat: seat.0,
            meld: meld.id,
            cards: cards.clone(),
            result: meld_from_wire(meld)?,
        },
        M::Attached {
            seat, cards, meld, ..
        } => Event::Attached {
            seat: seat.0,
            meld: meld.id,
            cards: cards.clone(),
            result: meld_from_wire(meld)?,
        },
        M::PozzettoTaken {
            seat,
            pozzetto,
            in_diretta,
            ..
        } => Event::PozzettoTaken {
            seat: seat.0,
            pozzetto: pozzetto_from_code(pozzetto)?,
            in_diretta: *in_diretta,
        },
        M::PozzettoCards { seat, cards, .. } => Event::PozzettoCards {
            seat: seat.0,
            cards: cards.clone(),
        },
        M::Discarded { seat, card, .. } => Event::Discarded {
            seat: seat.0,
            card: *card,
        },
        M::ClockExpired { seat, .. } => Event::ClockExpired { seat: seat.0 },
        M::TimeOut { turns_left, .. } => Event::TimeOutAnnounced {
            turns_left: *turns_left,
        },
        M::StalloWarning { exchanges, .. } => Event::StalloWarning {
            exchanges: *exchanges,
        },
        M::Stallo { must_draw, .. } => Event::Stallo {
            must_draw: must_draw.map(|s| s.0),
        },
        M::HandEnded {
            end,
            closed_by,
            score,
            hands,
            ..
        } => Event::HandEnded {
            end: hand_end_from_wire(end, *closed_by)?,
            score: score_from_wire(score, players),
            hands: hands.iter().map(|h| (h.seat.0, h.cards.clone())).collect(),
        },
        _ => return None,
    })
}
