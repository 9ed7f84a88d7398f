//! From the wire back to the rules: a bot reads server messages as the rules events and views
//! its strategy knows, and writes its actions as client messages.

use burraco_protocol::convert::config_from_wire;
use burraco_protocol::wire::{ClientMessage, ServerMessage, TableSnapshot, WireMeld};
use burraco_rules::view::MeldView;
use burraco_rules::{
    Action, BurracoKind, BurracoScore, Config, Event, HandEnd, HandScore, Meld, MoveClock, Phase,
    Players, PozzettoId, Seat, SeatKnowledge, Side, SideScore, TableView, Viewer,
};

/// The rules event a table message carries, `None` for messages that are not hand events.
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
            commitment: commitment
                .as_deref()
                .and_then(burraco_rules::Seed::from_hex)
                .map(|s| s.0),
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
            pozzetto: if pozzetto == "B" {
                PozzettoId::B
            } else {
                PozzettoId::A
            },
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
        } => {
            let end = match end.as_str() {
                "closed" => HandEnd::Closed {
                    seat: closed_by.map_or(Seat::South, |s| s.0),
                },
                "tallone_exhausted" => HandEnd::TalloneExhausted,
                "stallo" => HandEnd::Stallo,
                "time_out" => HandEnd::TimeOut,
                _ => HandEnd::Voided,
            };
            let mut sides: [SideScore; 2] = Default::default();
            for s in score {
                let Some(side) = side_from_label(&s.side, players) else {
                    continue;
                };
                sides[side.index()] = SideScore {
                    melded: s.melded,
                    burracos: s
                        .burracos
                        .iter()
                        .map(|b| BurracoScore {
                            meld: b.meld,
                            kind: kind_from_code(&b.kind),
                            bonus: b.bonus,
                        })
                        .collect(),
                    closing: s.closing,
                    in_hand: s.in_hand,
                    pozzetto: s.pozzetto,
                };
            }
            Event::HandEnded {
                end,
                score: HandScore { sides },
                hands: hands.iter().map(|h| (h.seat.0, h.cards.clone())).collect(),
            }
        }
        _ => return None,
    })
}

fn kind_from_code(code: &str) -> BurracoKind {
    match code {
        "reale" => BurracoKind::Reale,
        "super" => BurracoKind::Super,
        "pulito" => BurracoKind::Pulito,
        "semipulito" => BurracoKind::Semipulito,
        _ => BurracoKind::Sporco,
    }
}

/// `"NS"`/`"EW"`, head to head `"S"`/`"N"`.
pub fn side_from_label(label: &str, players: Players) -> Option<Side> {
    Side::BOTH
        .into_iter()
        .find(|&s| players.side_label(s) == label)
}

/// A meld as laid on the table: its cards and its wild's position are enough to rebuild it.
pub fn meld_from_wire(meld: &WireMeld) -> Option<Meld> {
    Meld::open(&meld.cards, meld.wild_at).ok()
}

/// The table's configuration and what `seat` knows, from a snapshot. The knowledge is `None`
/// before the first deal.
pub fn knowledge_from_snapshot(
    snapshot: &TableSnapshot,
    seat: Seat,
) -> Option<(Config, Option<SeatKnowledge>)> {
    let config = config_from_wire(&snapshot.settings).ok()?;
    let players = config.players();
    let Some(hand) = &snapshot.hand else {
        return Some((config, None));
    };
    let phase = match hand.phase.as_str() {
        "take" => Phase::Take,
        "play" => Phase::Play,
        _ => Phase::Over,
    };
    let mut pozzetti = [None, None];
    for (i, p) in hand.pozzetti.iter().enumerate().take(2) {
        pozzetti[i] = p.as_deref().and_then(|l| side_from_label(l, players));
    }
    let view = TableView {
        viewer: Viewer::Seat(seat),
        players,
        dealer: hand.dealer.0,
        on_turn: hand.on_turn.0,
        phase,
        hand: hand.hand.clone(),
        hand_sizes: players
            .seats()
            .iter()
            .map(|&s| {
                let n = snapshot
                    .seats
                    .iter()
                    .find(|st| st.seat.0 == s)
                    .and_then(|st| st.cards)
                    .unwrap_or(0);
                (s, usize::from(n))
            })
            .collect(),
        melds: hand
            .melds
            .iter()
            .filter_map(|m| {
                Some(MeldView {
                    id: m.id,
                    side: side_from_label(&m.side, players)?,
                    meld: meld_from_wire(m)?,
                })
            })
            .collect(),
        pile: hand.pile.clone(),
        tallone: usize::from(hand.tallone),
        pozzetti,
        picked_single_card: hand.picked_single_card,
        commitment: None,
        move_clock: None,
        last_round: hand.last_round,
        stallo_exchanges: hand.stallo_exchanges,
        stallo_must_draw: hand.stallo_must_draw.map(|s| s.0),
        result: None,
        final_hands: None,
    };
    if phase == Phase::Over {
        return Some((config, None));
    }
    Some((
        config,
        Some(SeatKnowledge::from_view(config, &view, None, None)),
    ))
}

/// The client message for an action at `table` with request `id`.
pub fn action_to_wire(action: &Action, id: u64, table: &str) -> ClientMessage {
    let table = table.to_owned();
    match action {
        Action::Draw => ClientMessage::Draw { id, table },
        Action::PickUp => ClientMessage::PickUp { id, table },
        Action::Open { cards, wild_at } => ClientMessage::Open {
            id,
            table,
            cards: cards.clone(),
            wild_at: *wild_at,
        },
        Action::Attach {
            meld,
            cards,
            wild_at,
        } => ClientMessage::Attach {
            id,
            table,
            meld: *meld,
            cards: cards.clone(),
            wild_at: *wild_at,
        },
        Action::Discard { card } => ClientMessage::Discard {
            id,
            table,
            card: *card,
        },
    }
}
