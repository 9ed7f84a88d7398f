//! The durable form of a table's log: every change a restart (or, in a cluster, another node)
//! needs to rebuild the table, one [`TableEntry`] each, encoded once with postcard.
//!
//! The server keeps the entries of the hand in play in this encoding too, and builds the hand's
//! JSON record from them when it ends: an input is encoded exactly once, and what is stored, what
//! is kept in memory and what the record holds come from the same bytes.
//!
//! Version rule: entries are only ever added at the end of [`TableEntry`] (postcard numbers the
//! variants in order), and a variant's fields never change. A reader that meets a variant it does
//! not know refuses the log rather than skipping it.

use burraco_rules::{Action, Card, Input, Seat};
use serde::{Deserialize, Serialize};

use crate::record::RecordedInput;

/// One entry of a table's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableEntry {
    /// The table was created: its settings (the JSON of `WireSettings`), whether it is private,
    /// its invite code and the level of the bots it was created with.
    Created {
        settings: String,
        private: bool,
        invite: Option<String>,
        bots: Option<String>,
        created_ms: i64,
    },
    /// A seat was taken (`holder`) or freed (`None`).
    Seat {
        /// [`Seat::index`].
        seat: u8,
        holder: Option<SeatHolder>,
    },
    /// Everyone was ready: the match began, with this first dealer.
    MatchStarted {
        first_dealer: u8,
        /// Wall time of the start (the round clock is wall time).
        round_started_ms: i64,
    },
    /// A hand was dealt from `seed` (its commitment was published before any input).
    Dealt {
        hand: u32,
        dealer: u8,
        seed: [u8; 32],
        /// The table's sequence number before the deal's events. After a restart numbering goes
        /// on past it plus [`MAX_EVENTS_PER_INPUT`] per input logged since, so no number a client
        /// saw is reused.
        seq: u64,
    },
    /// An input the rules accepted, made durable before any of its events were published. Kept
    /// small (the hand in play holds its inputs in this form): no sequence number, and its time as
    /// the milliseconds since the previous input of the hand (or the deal).
    Input { after_ms: u64, input: LoggedInput },
    /// The hand ended: its JSON record, and the names that played it (for look-ups by player).
    HandFinished {
        hand: u32,
        record: String,
        names: Vec<String>,
    },
    /// The match ended: its [`MatchResult`] as JSON. The table is no longer in play.
    MatchFinished { result: String },
    /// The table closed before its match ended (everyone left a waiting table). No longer in play.
    Closed,
    /// Duplicate boards, fixed before the match (a tournament's round): hand k is dealt from
    /// `seeds[k - 1]` (past them, from fresh seeds), the first dealer is `first_dealer`, and the
    /// seeds are revealed neither in `hand_ended` nor in the hand records: the tournament reveals
    /// them once every table of the round has played them.
    Boards {
        seeds: Vec<[u8; 32]>,
        first_dealer: u8,
    },
    /// The match's round clock, set by its tournament's director (FEDIBUR's round time; it
    /// replaces the preset's), in milliseconds.
    RoundClock { ms: u64 },
    /// A tournament's table (logged with its creation): its seats are held for the entrants
    /// until the match ends, and it tells tournament `id` when it ends. In the log, so whichever
    /// node serves the table knows it.
    Tournament { id: String },
    /// A seat was taken by a signed-in account (protocol 1.4): as [`TableEntry::Seat`], with the
    /// account, so a restart or another node keeps labelling a bot account's seat as a bot's.
    /// A guest's or a server bot's seat is still a plain `Seat` (older logs hold only those).
    AccountSeat {
        /// [`Seat::index`].
        seat: u8,
        holder: SeatHolder,
        account: SeatAccount,
    },
    /// A rated table (protocol 1.5, logged with its creation, right after `Created`): it seats
    /// only accounts, and its finished match updates its players' ratings, exactly once, keyed
    /// by the table. In the log, so a restart or another node keeps the table rated.
    Rated,
    /// A mark against a seat's player during the match, for fair play's
    /// outcomes: in the log, so a restart or another node still knows who left or stalled.
    Conduct { seat: u8, mark: ConductMark },
    /// Protocol 1.6: its tournament's director paused the event at `at_ms` (the tournament's
    /// own `Paused` time): no hand is dealt and every clock of the table (the move clock, the
    /// round clock) stands still until `Resumed` (moves may still be played: docs/PROTOCOL.md 5). In the log, so a restart keeps
    /// the table paused and counts the pause out of the round clock.
    Paused { at_ms: i64 },
    /// Protocol 1.6: the director lifted the pause at `at_ms`; the round clock's deadline moves
    /// on by the pause's length, as the tournament's does.
    Resumed { at_ms: i64 },
    /// An arena table's start deadline (wall time, Unix ms): a match not started by then ends
    /// the table unplayed, each seat not ready marked [`ConductMark::NoShow`], then `Closed`
    /// (the server's `arena`, docs/BOTS.md "The arena"). Logged with the first table's creation,
    /// and at the second when the first ends. In the log, so a restart or another node keeps
    /// the deadline.
    StartBy { deadline_ms: i64 },
}

/// What a [`TableEntry::Conduct`] marks. Only ever added at the end, as [`TableEntry`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConductMark {
    /// The disconnect grace ran out on the player during the match (a stand-in took over).
    GraceRanOut,
    /// The move clock ran out on the player while connected and seated.
    ClockExpired,
    /// A long think on a forced move while the player's side was losing (fair play's stalling
    /// rule, the server's `fairplay::outcome::is_forced_long_think`).
    ForcedLongThink,
    /// An arena table's seat not ready when its start deadline ([`TableEntry::StartBy`])
    /// passed: its bot never came (or never said ready).
    NoShow,
}

/// The account that holds a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatAccount {
    /// The account's id (`u-` and 16 hex digits).
    pub id: String,
    /// A bot account: a program plays the seat.
    pub bot: bool,
}

/// The most events one input can publish (a closing discard: the discard, the pozzetto, the turn,
/// the hand's end, and what the table adds), with room to spare: the bound a restart numbers from.
pub const MAX_EVENTS_PER_INPUT: u64 = 16;

/// Who holds a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatHolder {
    pub player: String,
    pub name: String,
    /// The level code of the server bot that owns the seat (a bot's seat, or one its player
    /// gave up), so a restart seats the bot again.
    pub bot: Option<String>,
}

/// An input in a few bytes: seats and cards as their indexes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoggedInput {
    Draw {
        seat: u8,
    },
    PickUp {
        seat: u8,
    },
    Open {
        seat: u8,
        cards: Vec<u8>,
        wild_at: Option<u8>,
    },
    Attach {
        seat: u8,
        meld: u8,
        cards: Vec<u8>,
        wild_at: Option<u8>,
    },
    Discard {
        seat: u8,
        card: u8,
    },
    ClockExpired,
    TimeOut,
}

/// How a table's match ended, as its log keeps it (`TableEntry::MatchFinished`), written by
/// the table and read by its tournament: encoded once, here. JSON text inside the log's
/// postcard entry, so the logs written before this type read the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The sides' labels (`"NS"`, `"EW"`; head to head, the seats' names for them).
    pub sides: Vec<String>,
    /// Each side's total, in the order of `sides`.
    pub totals: [i32; 2],
    /// The label of the side that won the match by its VP (`burraco_ratings::match_outcomes`:
    /// a 10-10 is a draw whatever the totals; a match by points by its preset's column); `None`
    /// for a draw. Tables before issue 32 logged the higher total here, so the server's readers
    /// decide from `vp` and `totals` and never read this field.
    pub winner: Option<String>,
    /// Victory points by side; `None` for a match by points played to its target.
    pub vp: Option<[u8; 2]>,
    /// Why it ended.
    pub end: MatchEndCode,
    /// Hands played.
    pub hands: u32,
}

/// Why a match ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchEndCode {
    /// Its number of hands was played.
    Hands,
    /// A side reached the target score.
    Target,
    /// The round clock ran out (TIME OUT).
    TimeOut,
}

impl MatchResult {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a match result serializes")
    }

    pub fn from_json(json: &str) -> Result<MatchResult, serde_json::Error> {
        serde_json::from_str(json)
    }
}

/// What kind an encoded entry is, read from its first byte without decoding the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    Created,
    Seat,
    MatchStarted,
    Dealt,
    Input,
    HandFinished,
    MatchFinished,
    Closed,
    Boards,
    RoundClock,
    Tournament,
    AccountSeat,
    Rated,
    Conduct,
    Paused,
    Resumed,
    StartBy,
}

impl EntryKind {
    /// In the order of [`TableEntry`]'s variants, which is postcard's numbering.
    const ALL: [EntryKind; 17] = [
        EntryKind::Created,
        EntryKind::Seat,
        EntryKind::MatchStarted,
        EntryKind::Dealt,
        EntryKind::Input,
        EntryKind::HandFinished,
        EntryKind::MatchFinished,
        EntryKind::Closed,
        EntryKind::Boards,
        EntryKind::RoundClock,
        EntryKind::Tournament,
        EntryKind::AccountSeat,
        EntryKind::Rated,
        EntryKind::Conduct,
        EntryKind::Paused,
        EntryKind::Resumed,
        EntryKind::StartBy,
    ];

    /// The kind of an encoded entry: postcard writes a variant's index first, as a varint, one
    /// byte below 128.
    pub fn of(bytes: &[u8]) -> Option<EntryKind> {
        EntryKind::ALL.get(usize::from(*bytes.first()?)).copied()
    }

    /// Whether an entry of this kind ends the table's time in play.
    pub fn ends_table(self) -> bool {
        matches!(self, EntryKind::MatchFinished | EntryKind::Closed)
    }
}

/// Why bytes are not an entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogDecodeError {
    #[error("not a log entry: {0}")]
    Postcard(String),
    #[error("the entry names a seat or card that does not exist")]
    OutOfRange,
}

impl TableEntry {
    /// The one encoding.
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_stdvec(self).expect("an entry always encodes")
    }

    pub fn decode(bytes: &[u8]) -> Result<TableEntry, LogDecodeError> {
        postcard::from_bytes(bytes).map_err(|e| LogDecodeError::Postcard(e.to_string()))
    }

    /// The entries of a buffer of encoded entries laid back to back.
    pub fn decode_concatenated(
        mut bytes: &[u8],
    ) -> impl Iterator<Item = Result<TableEntry, LogDecodeError>> + '_ {
        std::iter::from_fn(move || {
            if bytes.is_empty() {
                return None;
            }
            match postcard::take_from_bytes(bytes) {
                Ok((entry, rest)) => {
                    bytes = rest;
                    Some(Ok(entry))
                }
                Err(e) => {
                    bytes = &[];
                    Some(Err(LogDecodeError::Postcard(e.to_string())))
                }
            }
        })
    }

    pub fn kind(&self) -> EntryKind {
        match self {
            TableEntry::Created { .. } => EntryKind::Created,
            TableEntry::Seat { .. } => EntryKind::Seat,
            TableEntry::MatchStarted { .. } => EntryKind::MatchStarted,
            TableEntry::Dealt { .. } => EntryKind::Dealt,
            TableEntry::Input { .. } => EntryKind::Input,
            TableEntry::HandFinished { .. } => EntryKind::HandFinished,
            TableEntry::MatchFinished { .. } => EntryKind::MatchFinished,
            TableEntry::Closed => EntryKind::Closed,
            TableEntry::Boards { .. } => EntryKind::Boards,
            TableEntry::RoundClock { .. } => EntryKind::RoundClock,
            TableEntry::Tournament { .. } => EntryKind::Tournament,
            TableEntry::AccountSeat { .. } => EntryKind::AccountSeat,
            TableEntry::Rated => EntryKind::Rated,
            TableEntry::Conduct { .. } => EntryKind::Conduct,
            TableEntry::Paused { .. } => EntryKind::Paused,
            TableEntry::Resumed { .. } => EntryKind::Resumed,
            TableEntry::StartBy { .. } => EntryKind::StartBy,
        }
    }
}

impl LoggedInput {
    pub fn from_rules(input: &Input) -> LoggedInput {
        let indexes = |cards: &[Card]| cards.iter().map(|c| c.index() as u8).collect();
        match input {
            Input::Act { seat, action } => {
                let seat = seat.index() as u8;
                match action {
                    Action::Draw => LoggedInput::Draw { seat },
                    Action::PickUp => LoggedInput::PickUp { seat },
                    Action::Open { cards, wild_at } => LoggedInput::Open {
                        seat,
                        cards: indexes(cards),
                        wild_at: *wild_at,
                    },
                    Action::Attach {
                        meld,
                        cards,
                        wild_at,
                    } => LoggedInput::Attach {
                        seat,
                        meld: *meld,
                        cards: indexes(cards),
                        wild_at: *wild_at,
                    },
                    Action::Discard { card } => LoggedInput::Discard {
                        seat,
                        card: card.index() as u8,
                    },
                }
            }
            Input::ClockExpired => LoggedInput::ClockExpired,
            Input::TimeOut => LoggedInput::TimeOut,
        }
    }

    pub fn to_rules(&self) -> Result<Input, LogDecodeError> {
        let seat = |i: &u8| seat_of(*i);
        let cards = |list: &[u8]| -> Result<Vec<Card>, LogDecodeError> {
            list.iter().map(|&i| card_of(i)).collect()
        };
        let act = |seat: Seat, action| Input::Act { seat, action };
        Ok(match self {
            LoggedInput::Draw { seat: s } => act(seat(s)?, Action::Draw),
            LoggedInput::PickUp { seat: s } => act(seat(s)?, Action::PickUp),
            LoggedInput::Open {
                seat: s,
                cards: c,
                wild_at,
            } => act(
                seat(s)?,
                Action::Open {
                    cards: cards(c)?,
                    wild_at: *wild_at,
                },
            ),
            LoggedInput::Attach {
                seat: s,
                meld,
                cards: c,
                wild_at,
            } => act(
                seat(s)?,
                Action::Attach {
                    meld: *meld,
                    cards: cards(c)?,
                    wild_at: *wild_at,
                },
            ),
            LoggedInput::Discard { seat: s, card } => act(
                seat(s)?,
                Action::Discard {
                    card: card_of(*card)?,
                },
            ),
            LoggedInput::ClockExpired => Input::ClockExpired,
            LoggedInput::TimeOut => Input::TimeOut,
        })
    }

    /// The hand record's row for this input, `at_ms` after the deal.
    pub fn to_record(&self, at_ms: u64) -> Result<RecordedInput, LogDecodeError> {
        Ok(RecordedInput::new(&self.to_rules()?, Some(at_ms)))
    }
}

/// The seat of an index stored in a log.
pub fn seat_of(index: u8) -> Result<Seat, LogDecodeError> {
    Seat::ALL
        .get(usize::from(index))
        .copied()
        .ok_or(LogDecodeError::OutOfRange)
}

fn card_of(index: u8) -> Result<Card, LogDecodeError> {
    Card::from_index(usize::from(index)).ok_or(LogDecodeError::OutOfRange)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_kind() -> Vec<TableEntry> {
        vec![
            TableEntry::Created {
                settings: "{}".into(),
                private: true,
                invite: Some("ABCD".into()),
                bots: None,
                created_ms: 1,
            },
            TableEntry::Seat {
                seat: 2,
                holder: Some(SeatHolder {
                    player: "p".into(),
                    name: "Anna".into(),
                    bot: None,
                }),
            },
            TableEntry::MatchStarted {
                first_dealer: 1,
                round_started_ms: 5,
            },
            TableEntry::Dealt {
                hand: 1,
                dealer: 0,
                seed: [7; 32],
                seq: 9,
            },
            TableEntry::Input {
                after_ms: 300,
                input: LoggedInput::Discard { seat: 1, card: 5 },
            },
            TableEntry::HandFinished {
                hand: 1,
                record: "{}".into(),
                names: vec!["Anna".into()],
            },
            TableEntry::MatchFinished {
                result: "{}".into(),
            },
            TableEntry::Closed,
            TableEntry::Boards {
                seeds: vec![[3; 32]],
                first_dealer: 2,
            },
            TableEntry::RoundClock { ms: 1_500_000 },
            TableEntry::Tournament {
                id: "T-0a1b2c3d4e".into(),
            },
            TableEntry::AccountSeat {
                seat: 1,
                holder: SeatHolder {
                    player: "p-1".into(),
                    name: "RoboAnna".into(),
                    bot: None,
                },
                account: SeatAccount {
                    id: "u-3a9f0c2b7d1e4f60".into(),
                    bot: true,
                },
            },
            TableEntry::Rated,
            TableEntry::Conduct {
                seat: 3,
                mark: ConductMark::ClockExpired,
            },
            TableEntry::Paused { at_ms: 1_000 },
            TableEntry::Resumed { at_ms: 61_000 },
            TableEntry::StartBy {
                deadline_ms: 1_764_163_800_000,
            },
        ]
    }

    #[test]
    fn the_variants_keep_their_numbers() {
        // Stored logs hold these first bytes: a variant added at the end takes the next one, and
        // an old entry still decodes as it did.
        let numbers: Vec<u8> = every_kind().iter().map(|e| e.encode()[0]).collect();
        assert_eq!(numbers, (0..17).collect::<Vec<u8>>());
        let old_seat = [1, 2, 1, 1, b'p', 4, b'A', b'n', b'n', b'a', 0];
        assert_eq!(TableEntry::decode(&old_seat), Ok(every_kind()[1].clone()));
        // The conduct marks too: a mark added at the end takes the next number.
        let marks = [
            ConductMark::GraceRanOut,
            ConductMark::ClockExpired,
            ConductMark::ForcedLongThink,
            ConductMark::NoShow,
        ];
        for (number, mark) in marks.into_iter().enumerate() {
            let bytes = TableEntry::Conduct { seat: 1, mark }.encode();
            assert_eq!(bytes, [13, 1, number as u8], "{mark:?}");
        }
    }

    #[test]
    fn the_kind_is_read_from_the_first_byte_and_entries_round_trip() {
        let entries = every_kind();
        assert_eq!(entries.len(), EntryKind::ALL.len());
        let mut concatenated = Vec::new();
        for entry in &entries {
            let bytes = entry.encode();
            assert_eq!(EntryKind::of(&bytes), Some(entry.kind()));
            assert_eq!(TableEntry::decode(&bytes).as_ref(), Ok(entry));
            concatenated.extend(bytes);
        }
        let decoded: Vec<_> = TableEntry::decode_concatenated(&concatenated).collect();
        assert_eq!(decoded, entries.into_iter().map(Ok).collect::<Vec<_>>());
        assert_eq!(EntryKind::of(&[]), None);
        assert_eq!(EntryKind::of(&[200]), None);
    }

    #[test]
    fn an_input_is_a_few_bytes_and_converts_both_ways() {
        let input = Input::Act {
            seat: Seat::East,
            action: Action::Attach {
                meld: 3,
                cards: vec![Card::from_index(0).unwrap(), Card::JOKER],
                wild_at: Some(4),
            },
        };
        let logged = LoggedInput::from_rules(&input);
        assert_eq!(logged.to_rules(), Ok(input));
        let entry = TableEntry::Input {
            after_ms: 1_500,
            input: logged,
        };
        assert!(entry.encode().len() <= 11, "{:?}", entry.encode());
        // The commonest input, a discard, 1.5 s after the previous one: 6 bytes.
        let discard = TableEntry::Input {
            after_ms: 1_500,
            input: LoggedInput::Discard { seat: 1, card: 5 },
        };
        assert_eq!(discard.encode().len(), 6, "{:?}", discard.encode());
        let bad = LoggedInput::Discard { seat: 9, card: 0 };
        assert_eq!(bad.to_rules(), Err(LogDecodeError::OutOfRange));
    }
}
