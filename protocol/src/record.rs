//! The JSON hand record: what the server publishes at the end of every hand, and the evidence an
//! arbiter replays (docs/HAND_RECORD.md describes the format by example).
//!
//! A hand is fully determined by its settings, dealer, deal (a seed, or an explicit deck in tests)
//! and the ordered list of inputs; a record holds exactly that, plus the players' names, the seed
//! commitment published before the first action, a timestamp per input and, once the hand is over,
//! its outcome. [`HandRecord::replay`] folds the inputs through the rules again.
//!
//! The types here are the unvalidated form (public fields, anything that parses): replaying is what
//! validates a record. They mirror the rules types and are converted by hand, so serde never leaks
//! into the rules crate and the format can stay stable while the engine changes.
//!
//! Version rule: readers ignore fields they do not know, so fields may be added without a new
//! format tag; any change that makes an old reader misread a record (a field removed, renamed or
//! given a new meaning) bumps the number in [`FORMAT`].

use burraco_rules::{
    Action, BurracoKind, Card, Config, DECK_SIZE, DealSource, Event, Game, HandEnd, HandScore,
    IllegalAction, Input, MatchLength, Players, Seat, Seed, Side, SideScore, game::DealError,
};
use serde::{Deserialize, Serialize};

use crate::cards::{card, card_list, seat, to_hex};
use crate::convert::SettingsError;

/// The format tag this crate writes and reads.
pub const FORMAT: &str = "burraco-hand-record/1";

/// One hand, from the deal to its end (or as far as it went).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandRecord {
    /// Always [`FORMAT`], `"burraco-hand-record/1"`; a reader refuses any other tag.
    pub format: String,
    /// The table's settings, every one explicit (no preset defaults are applied on reading).
    pub settings: RecordSettings,
    /// Who sat where: each seat in play exactly once (N E S W; head to head S and N).
    pub seats: Vec<RecordSeat>,
    /// The seat that dealt; the player on its left plays first.
    #[serde(with = "seat")]
    pub dealer: Seat,
    /// The 32-byte shuffle seed as 64 hex digits (RULES.md section 3). Exactly one of `seed` and
    /// `deck` is present.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_seed")]
    pub seed: Option<Seed>,
    /// An explicit deck of 108 card codes, top first (test mode), instead of a seed.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_deck")]
    pub deck: Option<Vec<Card>>,
    /// SHA-256 of the seed as 64 hex digits, as published before the first action; absent (or
    /// `null`) for an explicit deck. Replay checks it against the seed.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_hex")]
    pub commitment: Option<[u8; 32]>,
    /// Every accepted input, in order. Refused requests are not inputs: they changed nothing.
    pub inputs: Vec<RecordedInput>,
    /// How the hand ended, once it has; absent while the hand is in play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<RecordOutcome>,
}

/// Every table setting of RULES.md section 1, explicit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSettings {
    /// `"fitab"`, `"feburit"` or `"fedibur"`.
    pub preset: String,
    /// 4 (two partnerships) or 2 (head to head).
    pub players: u8,
    /// The match this hand belongs to: `{"hands": n}` or `{"target": points}`.
    pub match_length: RecordMatchLength,
    /// `"federation"`, `"relaxed"` or `"off"`.
    pub clocks: String,
    /// Whether semipulito burracos exist (off: they score as sporco).
    pub semipulito: bool,
    /// Whether closing needs a burraco pulito (the FIBUR international rule).
    pub close_requires_pulito: bool,
}

/// How long the match lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordMatchLength {
    /// A fixed number of hands (1-8): `{"hands": 2}`.
    Hands(u8),
    /// Hands until a side's total exceeds the target: `{"target": 2000}`.
    Target(u32),
}

/// A seat and the name of the player in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSeat {
    /// `"N"`, `"E"`, `"S"` or `"W"`.
    #[serde(with = "seat")]
    pub seat: Seat,
    /// The player's display name (free text).
    pub name: String,
    /// Who held the seat when the hand ended (protocol 1.6, the same words as
    /// `seat_identities`): `"guest"`, `"player"`, `"bot"` (a bot account) or `"server_bot"`;
    /// absent in records written before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The account's id (`u-...`) of a `"player"` or `"bot"` seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// The level (`"L0"` to `"L3"`) of the server bot that played the seat at the end: a
    /// `"server_bot"`'s own, or one standing in for the seat's holder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_bot: Option<String>,
}

/// One input of the log, as the server can persist it one row at a time:
/// `{"type":"discard","seat":"E","card":"7H","at_ms":15250}`.
///
/// JSON only: the flattened `type` tag needs a self-describing format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedInput {
    /// What happened (the `type` field and its data).
    #[serde(flatten)]
    pub input: RecordInput,
    /// Milliseconds since the deal when the input was accepted. Informative: replay ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
}

/// An input, tagged by `type`: a seat's action, or the server's clock inputs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RecordInput {
    /// The seat drew the top card of the tallone (which card it was follows from the deal).
    Draw {
        #[serde(with = "seat")]
        seat: Seat,
    },
    /// The seat picked up the whole discard pile.
    PickUp {
        #[serde(with = "seat")]
        seat: Seat,
    },
    /// The seat opened a meld with `cards`; `wild_at` is the sequence position (1-14) it named for
    /// the wild, absent when the server placed it.
    Open {
        #[serde(with = "seat")]
        seat: Seat,
        #[serde(with = "card_list")]
        cards: Vec<Card>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wild_at: Option<u8>,
    },
    /// The seat attached `cards` to its side's meld number `meld` (melds are numbered 0, 1, 2...
    /// in the order they were opened, both sides together).
    Attach {
        #[serde(with = "seat")]
        seat: Seat,
        meld: u8,
        #[serde(with = "card_list")]
        cards: Vec<Card>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wild_at: Option<u8>,
    },
    /// The seat discarded `card`, ending its turn.
    Discard {
        #[serde(with = "seat")]
        seat: Seat,
        #[serde(with = "card")]
        card: Card,
    },
    /// The seat on turn ran out of time, grace included; the server completed its turn.
    ClockExpired,
    /// The round clock ran out: TIME OUT, the last round begins (RULES.md section 9).
    TimeOut,
}

/// How the hand ended and what each side scored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordOutcome {
    /// Why the hand ended.
    pub end: RecordEnd,
    /// The seat that closed, when `end` is `"closed"`.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_seat")]
    pub closed_by: Option<Seat>,
    /// One entry per side: North-South then East-West (head to head: S then N).
    pub score: Vec<RecordSideScore>,
    /// The cards left in each seat's hand at the end (in any order); optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<RecordHand>>,
}

/// The ends of a hand (RULES.md sections 7-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordEnd {
    /// A player closed (section 7).
    Closed,
    /// The third-to-last tallone card was drawn and that turn ended (section 8).
    TalloneExhausted,
    /// A further card exchange after a stallo (section 8).
    Stallo,
    /// The last round after a TIME OUT was played (section 9).
    TimeOut,
    /// TIME OUT before the first take under `fedibur`: the hand is not played, both scores are 0.
    Voided,
}

/// One side's score, item by item (RULES.md section 10); `total` is their sum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSideScore {
    /// `"NS"` or `"EW"`; head to head the seat, `"S"` or `"N"`.
    pub side: String,
    /// The value of every card in the side's melds.
    pub melded: i32,
    /// Each burraco's bonus.
    pub burracos: Vec<RecordBurraco>,
    /// 100 for the side that closed, else 0.
    pub closing: i32,
    /// Minus the value of the cards left in the side's hands (a pozzetto not played counts).
    pub in_hand: i32,
    /// -100 when the side never took its pozzetto, else 0.
    pub pozzetto: i32,
    /// The sum of the items above.
    pub total: i32,
}

/// The bonus one burraco earned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordBurraco {
    /// The meld's number (as in [`RecordInput::Attach`]).
    pub meld: u8,
    /// `"reale"`, `"super"`, `"pulito"`, `"semipulito"` or `"sporco"` (the kind it scored as).
    pub kind: RecordBurracoKind,
    /// Its points.
    pub bonus: i32,
}

/// Burraco kinds (RULES.md section 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordBurracoKind {
    /// Reale (`fitab`) / over the top (`feburit`): 13 natural cards of a suit.
    Reale,
    /// Super (`fitab`) / superpulito (`feburit`): 8 natural cards of one rank.
    Super,
    /// No wild (a sequence's natural 2 is not one).
    Pulito,
    /// The wild at an end of a sequence beside 7+ naturals, or a combination of 7+ naturals and
    /// the wild (when the table has semipulito on).
    Semipulito,
    /// Any other burraco with a wild.
    Sporco,
}

/// The cards one seat held at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordHand {
    /// The seat, `"N"`, `"E"`, `"S"` or `"W"`.
    #[serde(with = "seat")]
    pub seat: Seat,
    /// Its cards as codes, in any order.
    #[serde(with = "card_list")]
    pub cards: Vec<Card>,
}

/// Why a record cannot be replayed: it is malformed, or an input in it was refused by the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The `format` tag is not [`FORMAT`].
    #[error("unknown record format {found:?}: this reader understands {FORMAT:?}")]
    UnknownFormat { found: String },
    /// The settings make no table (an unknown preset, 3 players, clocks under `fedibur`...).
    #[error("bad settings: {0}")]
    BadConfig(#[from] SettingsError),
    /// `seats` does not list each seat in play exactly once.
    #[error("the seats must be {expected}, each once; the record has {found}")]
    SeatsMismatch { expected: String, found: String },
    /// Both `seed` and `deck` are given (`both`), or neither.
    #[error("the record must hold either a seed or a deck, not {}", if *.both { "both" } else { "neither" })]
    DealSource { both: bool },
    /// `deck` is not a permutation of two decks and four jokers.
    #[error("the deck is not the 108 cards of two decks and four jokers ({len} cards given)")]
    IncompleteDeck { len: usize },
    /// `dealer` is not at the table (E or W head to head).
    #[error("the dealer {0} is not seated at this table")]
    DealerNotSeated(Seat),
    /// `commitment` is not SHA-256 of `seed` (or is given for an explicit deck, or missing for a seed).
    #[error("the commitment {recorded} does not match the deal, whose commitment is {computed}")]
    CommitmentMismatch {
        /// The record's commitment, or `"none"`.
        recorded: String,
        /// SHA-256 of the seed, or `"none"` for an explicit deck.
        computed: String,
    },
    /// An input follows the end of the hand.
    #[error("input {action_index} comes after the hand ended")]
    InputAfterEnd {
        /// The index in `inputs` of the first input after the end.
        action_index: usize,
    },
    /// The rules refused an input: the record holds an illegal move.
    #[error("input {action_index} was refused: {error}")]
    Refused {
        /// The index of the refused input in `inputs` (0-based, clock inputs included).
        action_index: usize,
        /// The rules' reason; [`IllegalAction::code`] is its stable code.
        error: IllegalAction,
    },
}

impl ReplayError {
    /// A stable identifier: the rules' code for a refused input, else the kind of malformation.
    pub fn code(&self) -> &'static str {
        match self {
            ReplayError::UnknownFormat { .. } => "unknown_format",
            ReplayError::BadConfig(_) => "bad_config",
            ReplayError::SeatsMismatch { .. } => "seats_mismatch",
            ReplayError::DealSource { .. } => "deal_source",
            ReplayError::IncompleteDeck { .. } => "incomplete_deck",
            ReplayError::DealerNotSeated(_) => "dealer_not_seated",
            ReplayError::CommitmentMismatch { .. } => "commitment_mismatch",
            ReplayError::InputAfterEnd { .. } => "input_after_end",
            ReplayError::Refused { error, .. } => error.code(),
        }
    }

    /// The index in `inputs` of the input at fault, if one is.
    pub fn action_index(&self) -> Option<usize> {
        match self {
            ReplayError::InputAfterEnd { action_index }
            | ReplayError::Refused { action_index, .. } => Some(*action_index),
            _ => None,
        }
    }

    /// Whether the record itself is malformed (as opposed to holding an input the rules refuse).
    pub fn is_malformed(&self) -> bool {
        !matches!(self, ReplayError::Refused { .. })
    }
}

/// A replayed record: the final state and everything that happened.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The game after the last input.
    pub game: Game,
    /// Every event, from the deal's to the last input's, in order.
    pub events: Vec<Event>,
    /// How the hand ended; `None` when the record stops while the hand is in play.
    pub end: Option<HandEnd>,
    /// The hand's score, when it ended.
    pub score: Option<HandScore>,
}

impl Replayed {
    /// The outcome as a record writes it (final hands included), when the hand ended.
    pub fn outcome(&self) -> Option<RecordOutcome> {
        let (end, score) = self.end.zip(self.score.as_ref())?;
        let players = self.game.players();
        let hands = players
            .seats()
            .iter()
            .map(|&seat| (seat, self.game.hand(seat).to_vec()))
            .collect::<Vec<_>>();
        Some(RecordOutcome::new(players, end, score, Some(&hands)))
    }

    /// Whether `claimed` (a record's outcome) says what the replay found. Final hands are compared
    /// as multisets, and only when the claim has them.
    pub fn matches(&self, claimed: &RecordOutcome) -> bool {
        let Some(mut actual) = self.outcome() else {
            return false;
        };
        let mut claimed = claimed.clone();
        match &mut claimed.hands {
            None => actual.hands = None,
            Some(hands) => sort_hands(hands),
        }
        if let Some(hands) = &mut actual.hands {
            sort_hands(hands);
        }
        actual == claimed
    }
}

fn sort_hands(hands: &mut [RecordHand]) {
    hands.sort_by_key(|h| h.seat);
    for h in hands {
        h.cards.sort();
    }
}

impl HandRecord {
    /// Starts the record of a hand about to be played: the server calls this when it deals, then
    /// [`push`](Self::push) for every accepted input and [`finish`](Self::finish) at the end.
    pub fn new<S: Into<String>>(
        config: &Config,
        seats: impl IntoIterator<Item = (Seat, S)>,
        dealer: Seat,
        source: &DealSource,
    ) -> HandRecord {
        let (seed, deck) = match source {
            DealSource::Seed(seed) => (Some(*seed), None),
            DealSource::Deck(deck) => (None, Some(deck.to_vec())),
        };
        HandRecord {
            format: FORMAT.to_owned(),
            settings: RecordSettings::from_config(config),
            seats: seats
                .into_iter()
                .map(|(seat, name)| RecordSeat {
                    seat,
                    name: name.into(),
                    kind: None,
                    account: None,
                    server_bot: None,
                })
                .collect(),
            dealer,
            seed,
            deck,
            commitment: source.commitment(),
            inputs: Vec::new(),
            outcome: None,
        }
    }

    /// Appends an accepted input, `at_ms` milliseconds after the deal, and returns the row to persist.
    pub fn push(&mut self, input: &Input, at_ms: Option<u64>) -> &RecordedInput {
        self.inputs.push(RecordedInput {
            input: RecordInput::from_rules(input),
            at_ms,
        });
        self.inputs.last().expect("just pushed")
    }

    /// Records how the hand ended.
    pub fn finish(&mut self, outcome: RecordOutcome) {
        self.outcome = Some(outcome);
    }

    /// Reads a record from JSON (fields this version does not know are ignored).
    pub fn from_json(text: &str) -> Result<HandRecord, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The record as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serializes")
    }

    /// The record as indented JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serializes")
    }

    /// The validated configuration.
    pub fn config(&self) -> Result<Config, ReplayError> {
        Ok(self.settings.to_config()?)
    }

    /// Where the cards come from, checked against the commitment.
    pub fn deal_source(&self) -> Result<DealSource, ReplayError> {
        let source = match (&self.seed, &self.deck) {
            (Some(seed), None) => DealSource::Seed(*seed),
            (None, Some(deck)) => {
                let cards: [Card; DECK_SIZE] = deck
                    .as_slice()
                    .try_into()
                    .map_err(|_| ReplayError::IncompleteDeck { len: deck.len() })?;
                DealSource::Deck(Box::new(cards))
            }
            (seed, _) => {
                return Err(ReplayError::DealSource {
                    both: seed.is_some(),
                });
            }
        };
        let computed = source.commitment();
        if computed != self.commitment {
            let show = |c: Option<[u8; 32]>| c.map_or_else(|| "none".to_owned(), |c| to_hex(&c));
            return Err(ReplayError::CommitmentMismatch {
                recorded: show(self.commitment),
                computed: show(computed),
            });
        }
        Ok(source)
    }

    /// Deals the hand and applies every input in order.
    ///
    /// Checks, in order: the format tag, the settings, the seats, the deal source and commitment,
    /// the dealer, then each input (an input after the hand ended is
    /// [`ReplayError::InputAfterEnd`], one the rules refuse [`ReplayError::Refused`]). The
    /// timestamps and the recorded outcome are not consulted; compare the outcome with
    /// [`Replayed::matches`].
    pub fn replay(&self) -> Result<Replayed, ReplayError> {
        if self.format != FORMAT {
            return Err(ReplayError::UnknownFormat {
                found: self.format.clone(),
            });
        }
        let config = self.config()?;
        self.check_seats(config.players())?;
        let source = self.deal_source()?;
        let (mut game, mut events) =
            Game::new(config, self.dealer, source).map_err(|e| match e {
                DealError::IncompleteDeck => ReplayError::IncompleteDeck { len: DECK_SIZE },
                DealError::DealerNotSeated(seat) => ReplayError::DealerNotSeated(seat),
            })?;
        for (action_index, recorded) in self.inputs.iter().enumerate() {
            if game.is_over() {
                return Err(ReplayError::InputAfterEnd { action_index });
            }
            let new =
                game.apply(&recorded.input.to_rules())
                    .map_err(|error| ReplayError::Refused {
                        action_index,
                        error,
                    })?;
            events.extend(new);
        }
        let (end, score) = match game.result() {
            Some((end, score)) => (Some(end), Some(score.clone())),
            None => (None, None),
        };
        Ok(Replayed {
            game,
            events,
            end,
            score,
        })
    }

    fn check_seats(&self, players: Players) -> Result<(), ReplayError> {
        let mut found: Vec<Seat> = self.seats.iter().map(|s| s.seat).collect();
        found.sort();
        let expected = players.seats();
        if found != expected {
            let show =
                |seats: &[Seat]| seats.iter().map(|s| s.code()).collect::<Vec<_>>().join(" ");
            return Err(ReplayError::SeatsMismatch {
                expected: show(expected),
                found: show(&found),
            });
        }
        Ok(())
    }
}

impl RecordSettings {
    /// Every setting of a validated config.
    pub fn from_config(config: &Config) -> RecordSettings {
        RecordSettings {
            preset: config.preset().code().to_owned(),
            players: config.players().count() as u8,
            match_length: match config.match_length() {
                MatchLength::Hands(n) => RecordMatchLength::Hands(n),
                MatchLength::Points(p) => RecordMatchLength::Target(p),
            },
            clocks: config.clocks().code().to_owned(),
            semipulito: config.semipulito(),
            close_requires_pulito: config.close_requires_pulito(),
        }
    }

    /// Validates the settings (the same checks as a table's creation).
    pub fn to_config(&self) -> Result<Config, SettingsError> {
        let (hands, target) = match self.match_length {
            RecordMatchLength::Hands(n) => (Some(n), None),
            RecordMatchLength::Target(p) => (None, Some(p)),
        };
        crate::convert::config_from_wire(&crate::wire::WireSettings {
            preset: self.preset.clone(),
            players: Some(self.players),
            hands,
            target,
            clocks: Some(self.clocks.clone()),
            semipulito: Some(self.semipulito),
            close_requires_pulito: Some(self.close_requires_pulito),
        })
    }
}

impl RecordInput {
    /// The record form of a rules input.
    pub fn from_rules(input: &Input) -> RecordInput {
        match input {
            Input::Act { seat, action } => {
                let seat = *seat;
                match action {
                    Action::Draw => RecordInput::Draw { seat },
                    Action::PickUp => RecordInput::PickUp { seat },
                    Action::Open { cards, wild_at } => RecordInput::Open {
                        seat,
                        cards: cards.clone(),
                        wild_at: *wild_at,
                    },
                    Action::Attach {
                        meld,
                        cards,
                        wild_at,
                    } => RecordInput::Attach {
                        seat,
                        meld: *meld,
                        cards: cards.clone(),
                        wild_at: *wild_at,
                    },
                    Action::Discard { card } => RecordInput::Discard { seat, card: *card },
                }
            }
            Input::ClockExpired => RecordInput::ClockExpired,
            Input::TimeOut => RecordInput::TimeOut,
        }
    }

    /// The rules input this row stands for.
    pub fn to_rules(&self) -> Input {
        let act = |seat: &Seat, action| Input::Act {
            seat: *seat,
            action,
        };
        match self {
            RecordInput::Draw { seat } => act(seat, Action::Draw),
            RecordInput::PickUp { seat } => act(seat, Action::PickUp),
            RecordInput::Open {
                seat,
                cards,
                wild_at,
            } => act(
                seat,
                Action::Open {
                    cards: cards.clone(),
                    wild_at: *wild_at,
                },
            ),
            RecordInput::Attach {
                seat,
                meld,
                cards,
                wild_at,
            } => act(
                seat,
                Action::Attach {
                    meld: *meld,
                    cards: cards.clone(),
                    wild_at: *wild_at,
                },
            ),
            RecordInput::Discard { seat, card } => act(seat, Action::Discard { card: *card }),
            RecordInput::ClockExpired => Input::ClockExpired,
            RecordInput::TimeOut => Input::TimeOut,
        }
    }
}

impl RecordedInput {
    /// One row, with its timestamp.
    pub fn new(input: &Input, at_ms: Option<u64>) -> RecordedInput {
        RecordedInput {
            input: RecordInput::from_rules(input),
            at_ms,
        }
    }

    /// Reads one persisted row.
    pub fn from_json(text: &str) -> Result<RecordedInput, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// One row as compact JSON, e.g. `{"type":"draw","seat":"E","at_ms":1200}`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an input always serializes")
    }
}

impl RecordOutcome {
    /// The outcome of a hand as the rules report it ([`Event::HandEnded`] holds all three).
    pub fn new(
        players: Players,
        end: HandEnd,
        score: &HandScore,
        hands: Option<&[(Seat, Vec<Card>)]>,
    ) -> RecordOutcome {
        RecordOutcome {
            end: RecordEnd::from_rules(end),
            closed_by: match end {
                HandEnd::Closed { seat } => Some(seat),
                _ => None,
            },
            score: Side::BOTH
                .iter()
                .map(|&side| {
                    RecordSideScore::from_rules(
                        players.side_label(side),
                        &score.sides[side.index()],
                    )
                })
                .collect(),
            hands: hands.map(|hands| {
                hands
                    .iter()
                    .map(|(seat, cards)| RecordHand {
                        seat: *seat,
                        cards: cards.clone(),
                    })
                    .collect()
            }),
        }
    }

    /// The score entry of the side labelled `label` (`"NS"`, `"EW"`, or head to head `"S"`, `"N"`).
    pub fn side(&self, label: &str) -> Option<&RecordSideScore> {
        self.score.iter().find(|s| s.side == label)
    }
}

impl RecordEnd {
    /// The record form of a rules end (the closing seat goes to [`RecordOutcome::closed_by`]).
    pub fn from_rules(end: HandEnd) -> RecordEnd {
        match end {
            HandEnd::Closed { .. } => RecordEnd::Closed,
            HandEnd::TalloneExhausted => RecordEnd::TalloneExhausted,
            HandEnd::Stallo => RecordEnd::Stallo,
            HandEnd::TimeOut => RecordEnd::TimeOut,
            HandEnd::Voided => RecordEnd::Voided,
        }
    }

    /// The code as written in JSON (the same as [`HandEnd::code`]).
    pub fn code(self) -> &'static str {
        match self {
            RecordEnd::Closed => "closed",
            RecordEnd::TalloneExhausted => "tallone_exhausted",
            RecordEnd::Stallo => "stallo",
            RecordEnd::TimeOut => "time_out",
            RecordEnd::Voided => "voided",
        }
    }
}

impl RecordSideScore {
    /// The record form of a side's score, written as `label` (see [`Players::side_label`]).
    pub fn from_rules(label: &str, score: &SideScore) -> RecordSideScore {
        RecordSideScore {
            side: label.to_owned(),
            melded: score.melded,
            burracos: score
                .burracos
                .iter()
                .map(|b| RecordBurraco {
                    meld: b.meld,
                    kind: RecordBurracoKind::from_rules(b.kind),
                    bonus: b.bonus,
                })
                .collect(),
            closing: score.closing,
            in_hand: score.in_hand,
            pozzetto: score.pozzetto,
            total: score.total(),
        }
    }
}

impl RecordBurracoKind {
    /// The record form of a kind.
    pub fn from_rules(kind: BurracoKind) -> RecordBurracoKind {
        match kind {
            BurracoKind::Reale => RecordBurracoKind::Reale,
            BurracoKind::Super => RecordBurracoKind::Super,
            BurracoKind::Pulito => RecordBurracoKind::Pulito,
            BurracoKind::Semipulito => RecordBurracoKind::Semipulito,
            BurracoKind::Sporco => RecordBurracoKind::Sporco,
        }
    }
}

/// An optional seed as 64 hex digits.
mod opt_seed {
    use super::*;
    use serde::de::Error as _;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(seed: &Option<Seed>, s: S) -> Result<S::Ok, S::Error> {
        seed.map(|seed| seed.to_hex()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Seed>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| {
                Seed::from_hex(&text).ok_or_else(|| D::Error::custom("a seed is 64 hex digits"))
            })
            .transpose()
    }
}

/// An optional SHA-256 digest as 64 hex digits.
mod opt_hex {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &Option<[u8; 32]>, s: S) -> Result<S::Ok, S::Error> {
        bytes.map(|b| to_hex(&b)).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[u8; 32]>, D::Error> {
        #[derive(Deserialize)]
        #[serde(transparent)]
        struct Hex(#[serde(with = "crate::cards::hex32")] [u8; 32]);
        Ok(Option::<Hex>::deserialize(d)?.map(|h| h.0))
    }
}

/// An optional list of card codes.
mod opt_deck {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(cards: &Option<Vec<Card>>, s: S) -> Result<S::Ok, S::Error> {
        cards
            .as_ref()
            .map(|cards| cards.iter().map(|c| c.to_string()).collect::<Vec<_>>())
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Card>>, D::Error> {
        #[derive(Deserialize)]
        #[serde(transparent)]
        struct Cards(#[serde(with = "card_list")] Vec<Card>);
        Ok(Option::<Cards>::deserialize(d)?.map(|c| c.0))
    }
}

/// An optional seat code.
mod opt_seat {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(seat: &Option<Seat>, s: S) -> Result<S::Ok, S::Error> {
        seat.map(|seat| seat.code()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Seat>, D::Error> {
        #[derive(Deserialize)]
        #[serde(transparent)]
        struct One(#[serde(with = "crate::cards::seat")] Seat);
        Ok(Option::<One>::deserialize(d)?.map(|s| s.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burraco_rules::{Preset, parse_cards};

    fn sample() -> HandRecord {
        let config = Config::of(Preset::Fitab);
        let source = DealSource::Seed(Seed([0; 32]));
        let mut record = HandRecord::new(
            &config,
            [
                (Seat::North, "Anna"),
                (Seat::East, "Bruno"),
                (Seat::South, "Carla"),
                (Seat::West, "Dario"),
            ],
            Seat::North,
            &source,
        );
        record.push(
            &Input::Act {
                seat: Seat::East,
                action: Action::Draw,
            },
            Some(1200),
        );
        record.push(&Input::ClockExpired, None);
        record
    }

    #[test]
    fn a_record_round_trips_through_json() {
        let record = sample();
        let json = record.to_json();
        assert!(json.starts_with(r#"{"format":"burraco-hand-record/1","settings":{"preset":"fitab","players":4,"match_length":{"hands":2},"clocks":"federation","semipulito":true,"close_requires_pulito":false},"seats":[{"seat":"N","name":"Anna"}"#), "{json}");
        assert!(json.contains(r#""seed":"0000000000000000000000000000000000000000000000000000000000000000","commitment":"66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925""#));
        assert!(json.contains(
            r#""inputs":[{"type":"draw","seat":"E","at_ms":1200},{"type":"clock_expired"}]"#
        ));
        assert!(!json.contains("deck"));
        assert_eq!(HandRecord::from_json(&json).unwrap(), record);
        assert_eq!(
            HandRecord::from_json(&record.to_json_pretty()).unwrap(),
            record
        );
    }

    #[test]
    fn every_input_round_trips_one_row_at_a_time() {
        let cards = parse_cards("7H 8H JK").unwrap();
        let inputs = [
            Input::Act {
                seat: Seat::South,
                action: Action::PickUp,
            },
            Input::Act {
                seat: Seat::South,
                action: Action::Open {
                    cards: cards.clone(),
                    wild_at: Some(9),
                },
            },
            Input::Act {
                seat: Seat::South,
                action: Action::Attach {
                    meld: 3,
                    cards,
                    wild_at: None,
                },
            },
            Input::Act {
                seat: Seat::South,
                action: Action::Discard {
                    card: "10S".parse().unwrap(),
                },
            },
            Input::TimeOut,
        ];
        for input in inputs {
            let row = RecordedInput::new(&input, Some(7));
            let back = RecordedInput::from_json(&row.to_json()).unwrap();
            assert_eq!(back, row);
            assert_eq!(back.input.to_rules(), input);
        }
        assert_eq!(
            RecordedInput::new(
                &Input::Act {
                    seat: Seat::West,
                    action: Action::Discard { card: Card::JOKER }
                },
                None
            )
            .to_json(),
            r#"{"type":"discard","seat":"W","card":"JK"}"#
        );
    }

    #[test]
    fn unknown_fields_are_ignored_and_unknown_tags_refused() {
        let mut value: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
        value["comment"] = "added by a newer writer".into();
        value["inputs"][0]["thinking_ms"] = 5.into();
        let record: HandRecord = serde_json::from_value(value).unwrap();
        assert_eq!(record, sample());
        let mut newer = sample();
        newer.format = "burraco-hand-record/2".into();
        assert_eq!(newer.replay().unwrap_err().code(), "unknown_format");
    }

    #[test]
    fn a_seed_must_match_its_commitment() {
        let mut record = sample();
        record.commitment = Some([1; 32]);
        let err = record.replay().unwrap_err();
        assert_eq!(err.code(), "commitment_mismatch");
        assert!(err.is_malformed());
        record.commitment = None;
        assert_eq!(record.replay().unwrap_err().code(), "commitment_mismatch");
    }
}
