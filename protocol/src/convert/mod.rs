//! Hand-written conversions between the rules crate's types and the wire's (serde stays here),
//! both ways: the server writes rules types to the wire, clients (bots) read them back, and
//! both sides use the same functions, so a message is spelled in one place.
//!
//! - here: settings, melds, scores and the short codes (phases, sides, pozzetti, burraco kinds,
//!   hand ends);
//! - `action.rs`: a client's move to the table and rules action it names ([`TableAction`]), and
//!   back;
//! - `event.rs`: rules events to table messages, and back;
//! - `snapshot.rs`: a seat's view of the hand to the snapshot's `hand`, and back.

mod action;
mod event;
mod snapshot;

use burraco_rules::{
    BurracoKind, BurracoScore, ClockMode, Config, ConfigError, HandEnd, HandScore, MatchLength,
    Meld, MeldShape, Phase, Players, PozzettoId, Preset, Side, SideScore, TableSettings,
};

pub use action::TableAction;
pub use event::{EventContext, event_from_wire, event_to_wire};
pub use snapshot::{SnapshotError, cards_held, hand_to_wire, view_from_wire};

use crate::wire::{BurracoWire, SideScoreWire, WireMeld, WireSeat, WireSettings};

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

/// A meld as laid, `side` its owners (written as [`Players::side_label`]).
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

/// A meld on the wire rebuilt: its cards and its wild's position are enough (the rules check it
/// again, so a message cannot smuggle in an invalid meld). `None` when they make no meld.
pub fn meld_from_wire(meld: &WireMeld) -> Option<Meld> {
    Meld::open(&meld.cards, meld.wild_at).ok()
}

/// A hand's score, side by side in [`Side::BOTH`] order.
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

/// A hand's score read back; a side the wire does not name scores nothing.
pub fn score_from_wire(score: &[SideScoreWire], players: Players) -> HandScore {
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
                    // A kind a newer server adds still scores its bonus; only its name is lost.
                    kind: burraco_kind_from_code(&b.kind).unwrap_or(BurracoKind::Sporco),
                    bonus: b.bonus,
                })
                .collect(),
            closing: s.closing,
            in_hand: s.in_hand,
            pozzetto: s.pozzetto,
        };
    }
    HandScore { sides }
}

/// `"take"`, `"play"` or `"over"`: a hand's phase in a snapshot.
pub fn phase_code(phase: Phase) -> &'static str {
    match phase {
        Phase::Take => "take",
        Phase::Play => "play",
        Phase::Over => "over",
    }
}

/// The inverse of [`phase_code`].
pub fn phase_from_code(code: &str) -> Option<Phase> {
    [Phase::Take, Phase::Play, Phase::Over]
        .into_iter()
        .find(|&p| phase_code(p) == code)
}

/// `"NS"`/`"EW"`, head to head `"S"`/`"N"`: the inverse of [`Players::side_label`].
pub fn side_from_label(label: &str, players: Players) -> Option<Side> {
    Side::BOTH
        .into_iter()
        .find(|&s| players.side_label(s) == label)
}

/// `"A"` or `"B"`: the inverse of [`PozzettoId::code`].
pub fn pozzetto_from_code(code: &str) -> Option<PozzettoId> {
    [PozzettoId::A, PozzettoId::B]
        .into_iter()
        .find(|p| p.code() == code)
}

/// The inverse of [`BurracoKind::code`].
pub fn burraco_kind_from_code(code: &str) -> Option<BurracoKind> {
    [
        BurracoKind::Reale,
        BurracoKind::Super,
        BurracoKind::Pulito,
        BurracoKind::Semipulito,
        BurracoKind::Sporco,
    ]
    .into_iter()
    .find(|k| k.code() == code)
}

/// The inverse of [`HandEnd::code`]; a closed hand names its closer in `closed_by`.
pub fn hand_end_from_wire(end: &str, closed_by: Option<WireSeat>) -> Option<HandEnd> {
    let closed = closed_by.map(|seat| HandEnd::Closed { seat: seat.0 });
    [
        closed,
        Some(HandEnd::TalloneExhausted),
        Some(HandEnd::Stallo),
        Some(HandEnd::TimeOut),
        Some(HandEnd::Voided),
    ]
    .into_iter()
    .flatten()
    .find(|e| e.code() == end)
}
