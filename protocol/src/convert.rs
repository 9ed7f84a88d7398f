//! Hand-written conversions between the rules crate's types and the wire's (serde stays here).

use burraco_rules::{
    ClockMode, Config, ConfigError, Event, HandEnd, HandScore, MatchLength, Meld, MeldShape,
    Players, Preset, Side, TableSettings,
};

use crate::cards::to_hex;
use crate::wire::{
    BurracoWire, SeatCards, ServerMessage, SideScoreWire, WireMeld, WireSeat, WireSettings,
};

/// Why wire settings do not make a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("unknown preset {0:?}: expected fitab, feburit or fedibur")]
    UnknownPreset(String),
    #[error("players must be 4 or 2, not {0}")]
    Players(u8),
    #[error("give either hands or target, not both")]
    HandsAndTarget,
    #[error("unknown clocks {0:?}: expected federation, relaxed or off")]
    UnknownClocks(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// Validates wire settings into a [`Config`].
pub fn config_from_wire(settings: &WireSettings) -> Result<Config, SettingsError> {
    let preset = Preset::from_code(&settings.preset)
        .ok_or_else(|| SettingsError::UnknownPreset(settings.preset.clone()))?;
    let players = match settings.players {
        None | Some(4) => Players::Four,
        Some(2) => Players::Two,
        Some(n) => return Err(SettingsError::Players(n)),
    };
    let match_length = match (settings.hands, settings.target) {
        (Some(_), Some(_)) => return Err(SettingsError::HandsAndTarget),
        (Some(h), None) => Some(MatchLength::Hands(h)),
        (None, Some(t)) => Some(MatchLength::Points(t)),
        (None, None) => None,
    };
    let clocks = settings
        .clocks
        .as_deref()
        .map(|c| ClockMode::from_code(c).ok_or_else(|| SettingsError::UnknownClocks(c.to_owned())))
        .transpose()?;
    Ok(Config::new(&TableSettings {
        preset,
        players: Some(players),
        match_length,
        clocks,
        semipulito: settings.semipulito,
        close_requires_pulito: settings.close_requires_pulito,
    })?)
}

/// Every setting of a config, explicit.
pub fn config_to_wire(config: &Config) -> WireSettings {
    let (hands, target) = match config.match_length() {
        MatchLength::Hands(h) => (Some(h), None),
        MatchLength::Points(p) => (None, Some(p)),
    };
    WireSettings {
        preset: config.preset().code().to_owned(),
        players: Some(config.players().count() as u8),
        hands,
        target,
        clocks: Some(config.clocks().code().to_owned()),
        semipulito: Some(config.semipulito()),
        close_requires_pulito: Some(config.close_requires_pulito()),
    }
}

pub fn meld_to_wire(id: u8, side: Side, players: Players, meld: &Meld) -> WireMeld {
    let kind = match meld.shape() {
        MeldShape::Sequence { .. } => "sequence",
        MeldShape::Combination { .. } => "combination",
    };
    WireMeld {
        id,
        side: players.side_label(side).to_owned(),
        kind: kind.to_owned(),
        start: meld.start(),
        cards: meld.cards().to_vec(),
        wild_at: meld.wild_position(),
        wild: meld.wild_card(),
    }
}

pub fn score_to_wire(score: &HandScore, players: Players) -> Vec<SideScoreWire> {
    Side::BOTH
        .iter()
        .map(|&side| {
            let s = &score.sides[side.index()];
            SideScoreWire {
                side: players.side_label(side).to_owned(),
                melded: s.melded,
                burracos: s
                    .burracos
                    .iter()
                    .map(|b| BurracoWire {
                        meld: b.meld,
                        kind: b.kind.code().to_owned(),
                        bonus: b.bonus,
                    })
                    .collect(),
                closing: s.closing,
                in_hand: s.in_hand,
                pozzetto: s.pozzetto,
                total: s.total(),
            }
        })
        .collect()
}

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
