//! The durable form of a tournament's log: every change a restart needs to rebuild the tournament
//! and everything its record shows, one [`TournamentEntry`] each, encoded once with postcard.
//!
//! A tournament's log lives beside the tables' logs, behind the same `TableLog` trait, under an id
//! that starts with [`TOURNAMENT_PREFIX`] (table ids start with `t-`). The store reads an entry's
//! kind from its first byte ([`EntryKind::of`]), which for a tournament entry is its variant index
//! here; the variants are laid out so that this reading is right for them too:
//!
//! - 0 `Created` reads as a table's creation: the log is listed and loadable like a table's;
//! - 1 to 4 read as seats, a match's start, a deal, an input: ignored by the store;
//! - 5 reads as a hand's end, whose record the store projects: the variant there is a unit
//!   (`EndRequested`), a single byte that never decodes as a hand's record;
//! - 6 `Finished` and 7 `Cancelled` read as a match's end and a table's closing: the log leaves
//!   play;
//! - 8 reads as a table's duplicate boards, 9 as its round clock, 10 to 14 as a table's
//!   tournament, account seat, rated flag, pause and resume, all ignored by the store; 15 and
//!   later are no kind it knows: ignored. New variants go there, at the end (a test checks every
//!   variant's reading).
//!
//! A test pins this layout. Version rule as for tables: variants only at the end, fields never
//! change; a reader refuses a variant it does not know.

use serde::{Deserialize, Serialize};

use crate::log::{EntryKind, LogDecodeError};

/// Every tournament's log id starts with this (table ids start with `t-`).
pub const TOURNAMENT_PREFIX: &str = "T-";

/// Whether a log id is a tournament's.
pub fn is_tournament(id: &str) -> bool {
    id.starts_with(TOURNAMENT_PREFIX)
}

/// One entry of a tournament's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TournamentEntry {
    /// The tournament was created: its settings (the JSON of `WireTournamentSettings`), the
    /// SHA-256 of its director token, and the seed of its draws.
    Created {
        settings: String,
        created_ms: i64,
        director_hash: [u8; 32],
        seed: u64,
    },
    /// An entrant registered with its first player, or (`entrant` already known) its partner
    /// joined. `code` is what the partner registers with (secret: never in the record).
    Registered {
        entrant: u32,
        player: EntrantPlayer,
        bot: bool,
        code: Option<String>,
        at_ms: i64,
    },
    /// An entrant left the list before the first round.
    Unregistered { entrant: u32, at_ms: i64 },
    /// A round was paired and its tables named, before any of them was created: a restart
    /// creates those it finds missing. `bye`: the entrant resting (scored the bye). A knock-out
    /// round's `bracket` lists its entrants in bracket order, `None` for an empty place: places
    /// 2i and 2i+1 meet (an entrant facing an empty place goes through), and the winners, in
    /// order, are the next round's bracket. Empty for other movements.
    RoundStarted {
        round: u32,
        movement: String,
        tables: Vec<RoundTable>,
        bye: Option<u32>,
        bracket: Vec<Option<u32>>,
        /// Duplicate boards: every table of the round deals these (secret until the round is
        /// over; the record shows their commitments before).
        boards: Option<RoundBoards>,
        at_ms: i64,
    },
    /// A table's match ended and was scored (read from the table's log).
    MatchFinished {
        round: u32,
        table: String,
        result: MatchOutcome,
    },
    /// The director asked to end: no further round is paired.
    EndRequested,
    /// The last round was scored (or the director ended it): the log leaves play.
    Finished { at_ms: i64 },
    /// Reserved for a tournament called off before it started: the log leaves play.
    Cancelled,
    /// A director's adjustment of an entrant's VP, with its reason.
    Adjustment {
        entrant: u32,
        vp: i32,
        reason: String,
        at_ms: i64,
    },
    /// The director withdrew an entrant: it is paired no more.
    Withdrawn {
        entrant: u32,
        reason: String,
        at_ms: i64,
    },
    /// The director set how the entry list works (before the first round). `invite`: the code
    /// an invite-only list registers with (secret: never in the record).
    RegistrationConfigured {
        open: bool,
        invite: Option<String>,
        closes_ms: Option<i64>,
        starts_ms: Option<i64>,
        check_in: bool,
        bots_after_secs: Option<u32>,
        at_ms: i64,
    },
    /// A player of the entrant checked in.
    CheckedIn { entrant: u32, at_ms: i64 },
    /// The director paused the tournament.
    Paused { at_ms: i64 },
    /// The director lifted the pause.
    Resumed { at_ms: i64 },
    /// A formal warning (its VP cost by the preset's code).
    Warning {
        entrant: u32,
        reason: String,
        at_ms: i64,
    },
    /// The director expelled the entrant.
    Disqualified {
        entrant: u32,
        reason: String,
        at_ms: i64,
    },
    /// The director forbade these two entrants to meet in a round paired by standing.
    Forbidden { entrants: [u32; 2], at_ms: i64 },
    /// The director's first-round order.
    Seating { order: Vec<u32>, at_ms: i64 },
    /// Entrants that had not checked in when the first round started: left out.
    NoShows { entrants: Vec<u32>, at_ms: i64 },
    /// A match scored by the code rather than played to its end: `reason` says which rule
    /// (`late_arrival`, `abandonment`, `disqualification`, `absent_opponent`). Index 0 of the
    /// result is North-South.
    MatchAwarded {
        round: u32,
        table: String,
        result: MatchOutcome,
        reason: String,
        at_ms: i64,
    },
    /// An entrant not at its table `minutes` after the round started: a warning and `points`
    /// to the other side's match total (FITAB art. 37).
    LateArrival {
        round: u32,
        table: String,
        entrant: u32,
        minutes: u32,
        points: i32,
        at_ms: i64,
    },
    /// Server bots filled the free places of a Sit&Go, entrants `first` to `first + count - 1`.
    ServerBots { first: u32, count: u32, at_ms: i64 },
    /// Every table of the round finished its duplicate boards up to `hand`: their seeds (and
    /// those tables' records of them) are public from now.
    BoardsRevealed { round: u32, hand: u32, at_ms: i64 },
    /// The director's round time (seconds; `None`: the preset's clock) for rounds started from
    /// now on.
    RoundTime { secs: Option<u32>, at_ms: i64 },
    /// A team's line-up for the rounds started from now on: its players by index in the team,
    /// the first two its first pair (`set_lineup`).
    LineupSet {
        entrant: u32,
        order: [u8; 4],
        at_ms: i64,
    },
    /// Right after `Created` (protocol 1.6's `create_rated_tournament`): the tournament is rated,
    /// its tables are rated tables.
    Rated,
    /// Right after `Created` (protocol 1.6), when a signed-in account created the tournament:
    /// that account directs it without the director token, from any of its connections.
    DirectorAccount { account: String },
    /// Right after the `Registered` of `player` (protocol 1.7), when that player registered
    /// from a signed-in account's connection: the account behind the entrant's player, so the
    /// standings can show its level. A separate entry, not a field of `Registered` (postcard has
    /// no optional trailing fields): a log from before it reads as entrants without accounts.
    EntrantAccount {
        entrant: u32,
        player: String,
        account: String,
    },
}

/// A team's line-up (`set_lineup`) from the wire's list: its four players by index in the team,
/// each of 0 to 3 once; `None` for anything else.
pub fn lineup(order: &[u8]) -> Option<[u8; 4]> {
    let order: [u8; 4] = order.try_into().ok()?;
    let mut sorted = order;
    sorted.sort_unstable();
    (sorted == [0, 1, 2, 3]).then_some(order)
}

/// One player of an entrant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntrantPlayer {
    pub player: String,
    pub name: String,
}

/// One table of a round: its number, its id, the entrant North-South (side 0) and East-West
/// (side 1). In an individual event an entrant is one player: `ns` sits North and `ns_partner`
/// South, `ew` East and `ew_partner` West (`None` for other kinds).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundTable {
    pub number: u32,
    pub table: String,
    pub ns: u32,
    pub ew: u32,
    pub ns_partner: Option<u32>,
    pub ew_partner: Option<u32>,
}

/// A round's duplicate boards: hand k of every table is dealt from `seeds[k - 1]`, the first
/// dealer `first_dealer` (a seat index).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundBoards {
    pub seeds: Vec<[u8; 32]>,
    pub first_dealer: u8,
}

/// A table's match as the tournament scored it; index 0 is the North-South entrant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchOutcome {
    /// The match was played to its end (false: the table closed unplayed, 0 to both).
    pub played: bool,
    pub totals: [i32; 2],
    pub vp: [u8; 2],
    /// The burraco bonus points each side scored over the match's hands.
    pub burraco: [i32; 2],
    /// The hands played: the table's hand records 1..=hands.
    pub hands: u32,
    /// Each hand's totals, by side (duplicate boards compare them across tables).
    pub hand_totals: Vec<[i32; 2]>,
}

impl TournamentEntry {
    /// The one encoding.
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_stdvec(self).expect("an entry always encodes")
    }

    pub fn decode(bytes: &[u8]) -> Result<TournamentEntry, LogDecodeError> {
        postcard::from_bytes(bytes).map_err(|e| LogDecodeError::Postcard(e.to_string()))
    }

    /// What a store that reads only the first byte takes this entry for (see the module's
    /// comment).
    pub fn store_kind(&self) -> Option<EntryKind> {
        EntryKind::of(&self.encode())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::TableEntry;

    fn samples() -> Vec<TournamentEntry> {
        vec![
            TournamentEntry::Created {
                settings: "{}".into(),
                created_ms: 1,
                director_hash: [7; 32],
                seed: 3,
            },
            TournamentEntry::Registered {
                entrant: 5,
                player: EntrantPlayer {
                    player: "p-1".into(),
                    name: "Anna".into(),
                },
                bot: false,
                code: Some("AB12".into()),
                at_ms: 2,
            },
            TournamentEntry::Unregistered {
                entrant: 5,
                at_ms: 3,
            },
            TournamentEntry::RoundStarted {
                round: 1,
                movement: "mitchell".into(),
                tables: vec![RoundTable {
                    number: 1,
                    table: "t-1".into(),
                    ns: 0,
                    ew: 1,
                    ns_partner: None,
                    ew_partner: None,
                }],
                bye: Some(2),
                bracket: vec![Some(0), None, Some(1), Some(2)],
                boards: Some(RoundBoards {
                    seeds: vec![[9; 32]],
                    first_dealer: 1,
                }),
                at_ms: 4,
            },
            TournamentEntry::MatchFinished {
                round: 1,
                table: "t-1".into(),
                result: MatchOutcome {
                    played: true,
                    totals: [1200, 300],
                    vp: [17, 3],
                    burraco: [400, 0],
                    hands: 2,
                    hand_totals: vec![[900, 200], [300, 100]],
                },
            },
            TournamentEntry::EndRequested,
            TournamentEntry::Finished { at_ms: 5 },
            TournamentEntry::Cancelled,
            TournamentEntry::Adjustment {
                entrant: 5,
                vp: -1,
                reason: "slow play".into(),
                at_ms: 6,
            },
            TournamentEntry::Withdrawn {
                entrant: 5,
                reason: "left".into(),
                at_ms: 7,
            },
            TournamentEntry::RegistrationConfigured {
                open: true,
                invite: Some("C4E81B07".into()),
                closes_ms: Some(8),
                starts_ms: Some(9),
                check_in: true,
                bots_after_secs: Some(60),
                at_ms: 8,
            },
            TournamentEntry::CheckedIn {
                entrant: 5,
                at_ms: 9,
            },
            TournamentEntry::Paused { at_ms: 10 },
            TournamentEntry::Resumed { at_ms: 11 },
            TournamentEntry::Warning {
                entrant: 5,
                reason: "late".into(),
                at_ms: 12,
            },
            TournamentEntry::Disqualified {
                entrant: 5,
                reason: "signalling".into(),
                at_ms: 13,
            },
            TournamentEntry::Forbidden {
                entrants: [1, 2],
                at_ms: 14,
            },
            TournamentEntry::Seating {
                order: vec![2, 0, 1],
                at_ms: 15,
            },
            TournamentEntry::NoShows {
                entrants: vec![3],
                at_ms: 16,
            },
            TournamentEntry::MatchAwarded {
                round: 1,
                table: "t-1".into(),
                result: MatchOutcome {
                    played: true,
                    totals: [315, 0],
                    vp: [14, 6],
                    burraco: [0, 0],
                    hands: 0,
                    hand_totals: Vec::new(),
                },
                reason: "late_arrival".into(),
                at_ms: 17,
            },
            TournamentEntry::LateArrival {
                round: 1,
                table: "t-1".into(),
                entrant: 2,
                minutes: 2,
                points: 100,
                at_ms: 18,
            },
            TournamentEntry::ServerBots {
                first: 6,
                count: 2,
                at_ms: 19,
            },
            TournamentEntry::BoardsRevealed {
                round: 1,
                hand: 1,
                at_ms: 20,
            },
            TournamentEntry::RoundTime {
                secs: Some(2_700),
                at_ms: 21,
            },
            TournamentEntry::LineupSet {
                entrant: 1,
                order: [0, 2, 1, 3],
                at_ms: 22,
            },
            TournamentEntry::Rated,
            TournamentEntry::DirectorAccount {
                account: "a-1".into(),
            },
            TournamentEntry::EntrantAccount {
                entrant: 5,
                player: "p-1".into(),
                account: "u-0123456789abcdef".into(),
            },
        ]
    }

    #[test]
    fn a_lineup_is_the_four_players_each_once() {
        assert_eq!(lineup(&[0, 2, 1, 3]), Some([0, 2, 1, 3]));
        for bad in [
            &[0, 1, 2][..],
            &[0, 0, 1, 2],
            &[0, 1, 2, 4],
            &[0, 1, 2, 3, 0],
        ] {
            assert_eq!(lineup(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn entries_round_trip() {
        for entry in samples() {
            assert_eq!(TournamentEntry::decode(&entry.encode()), Ok(entry));
        }
    }

    /// The layout the module's comment promises the store: what it takes each entry for.
    #[test]
    fn the_store_reads_every_entry_as_the_right_kind() {
        for entry in samples() {
            let kind = entry.store_kind();
            match &entry {
                TournamentEntry::Created { .. } => assert_eq!(kind, Some(EntryKind::Created)),
                TournamentEntry::Finished { .. } | TournamentEntry::Cancelled => {
                    assert!(kind.is_some_and(EntryKind::ends_table), "{entry:?}")
                }
                _ => {
                    assert!(!kind.is_some_and(EntryKind::ends_table), "{entry:?}");
                    assert_ne!(kind, Some(EntryKind::Created), "{entry:?}");
                }
            }
            if kind == Some(EntryKind::HandFinished) {
                // Never projected as a hand's record.
                assert!(TableEntry::decode(&entry.encode()).is_err(), "{entry:?}");
            }
        }
    }
}
