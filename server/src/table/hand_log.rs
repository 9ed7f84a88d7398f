//! [`HandLog`]: the hand in play and its log, owned together. It deals, checks an input and
//! gives the one durable form to append, plays it once the append is durable, finishes into the
//! hand record, and rebuilds a hand from its stored inputs through [`HandRecord::replay`], the
//! replay `burraco replay` runs.
//!
//! An input is encoded once ([`TableEntry::Input`], postcard): those bytes are what the table
//! appends to its durable log, what this keeps in memory until the hand ends (a few bytes an
//! input), and what the record's inputs are decoded from.

use burraco_protocol::log::{LogDecodeError, TableEntry};
use burraco_protocol::record::{HandRecord, RecordOutcome, RecordedInput, ReplayError};
use burraco_rules::{
    Card, CheckedInput, Config, DealSource, Event, Game, IllegalAction, Input, Seat, Seed,
    game::DealError,
};
use tokio::time::Instant;

use crate::log::Entry;

/// The hand in play.
#[derive(Debug)]
pub struct HandLog {
    number: u32,
    game: Game,
    seed: [u8; 32],
    /// This hand's [`TableEntry::Input`] entries, back to back, as appended.
    inputs: Vec<u8>,
    /// When the hand was dealt: inputs are timed from here (`at_ms`).
    dealt: Instant,
    /// The `at_ms` of the last input, which a later one never goes below.
    last_at_ms: u64,
}

/// An input the rules accepted, with its durable form, waiting for the append to be durable.
#[derive(Debug)]
pub struct PendingInput {
    checked: CheckedInput,
    at_ms: u64,
    entry: Entry,
}

impl PendingInput {
    /// The entry to append (a copy: the hand keeps the same bytes once played).
    pub fn entry(&self) -> Entry {
        self.entry.clone()
    }
}

/// Why a hand could not be rebuilt from its log.
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    #[error("an entry of the hand is not an input: {0}")]
    Decode(#[from] LogDecodeError),
    #[error("the replay refused the log: {0}")]
    Replay(#[from] ReplayError),
}

impl HandLog {
    /// Deals hand `number` from `seed`; returns it with the deal's events. The hand's
    /// [`HandLog::dealt_entry`] must be appended before the events are published.
    pub fn deal(
        config: Config,
        dealer: Seat,
        number: u32,
        seed: [u8; 32],
        now: Instant,
    ) -> Result<(HandLog, Vec<Event>), DealError> {
        let (game, events) = Game::new(config, dealer, DealSource::Seed(Seed(seed)))?;
        let hand = HandLog {
            number,
            game,
            seed,
            inputs: Vec::new(),
            dealt: now,
            last_at_ms: 0,
        };
        Ok((hand, events))
    }

    /// The entry that records this deal; `seq` is the table's number before its events.
    pub fn dealt_entry(&self, seq: u64) -> TableEntry {
        TableEntry::Dealt {
            hand: self.number,
            dealer: self.game.dealer().index() as u8,
            seed: self.seed,
            seq,
        }
    }

    /// Rebuilds hand `number` from its stored input entries by replaying them; its time goes on
    /// from its last input (the time the server was down is nobody's).
    pub fn rebuild(
        config: Config,
        names: Vec<(Seat, String)>,
        dealer: Seat,
        number: u32,
        seed: [u8; 32],
        inputs: &[Entry],
        now: Instant,
    ) -> Result<HandLog, RebuildError> {
        let source = DealSource::Seed(Seed(seed));
        let mut record = HandRecord::new(&config, names, dealer, &source);
        record.inputs = decode_inputs(inputs.iter().map(|e| TableEntry::decode(e)))?;
        let last_at_ms = record.inputs.last().and_then(|i| i.at_ms).unwrap_or(0);
        let game = record.replay()?.game;
        let dealt = now
            .checked_sub(std::time::Duration::from_millis(last_at_ms))
            .unwrap_or(now);
        Ok(HandLog {
            number,
            game,
            seed,
            inputs: inputs.concat(),
            dealt,
            last_at_ms,
        })
    }

    pub fn number(&self) -> u32 {
        self.number
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn seed(&self) -> &[u8; 32] {
        &self.seed
    }

    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The milliseconds since the hand's last input (or its deal): how long the player on turn
    /// has been thinking.
    pub fn since_last_input_ms(&self, now: Instant) -> u64 {
        (now.saturating_duration_since(self.dealt).as_millis() as u64)
            .saturating_sub(self.last_at_ms)
    }

    /// Checks `input` against the hand as it is, changing nothing.
    pub fn check(&self, input: &Input, now: Instant) -> Result<PendingInput, IllegalAction> {
        let checked = self.game.check(input)?;
        let at_ms =
            (now.saturating_duration_since(self.dealt).as_millis() as u64).max(self.last_at_ms);
        let entry = TableEntry::Input {
            after_ms: at_ms.saturating_sub(self.last_at_ms),
            input: burraco_protocol::log::LoggedInput::from_rules(input),
        }
        .encode();
        Ok(PendingInput {
            checked,
            at_ms,
            entry,
        })
    }

    /// Plays an input whose entry is now durable. An error means the hand changed since the
    /// check (the table must not go on: its log and its game would differ).
    pub fn play(&mut self, pending: PendingInput) -> Result<Vec<Event>, IllegalAction> {
        let events = self.game.play(pending.checked)?;
        self.last_at_ms = pending.at_ms;
        self.inputs.extend_from_slice(&pending.entry);
        Ok(events)
    }

    /// The finished hand's record (every input, the outcome, the hands left), once the hand is
    /// over; the inputs kept in memory are released. `names` are the seats' players (the
    /// record's header is made here, not kept for the whole hand: a table holds less).
    pub fn finish(&mut self, names: Vec<(Seat, String)>) -> Option<HandRecord> {
        let (end, score) = self.game.result().map(|(e, s)| (e, s.clone()))?;
        let players = self.game.players();
        let hands: Vec<(Seat, Vec<Card>)> = players
            .seats()
            .iter()
            .map(|&s| (s, self.game.hand(s).to_vec()))
            .collect();
        let mut record = HandRecord::new(
            self.game.config(),
            names,
            self.game.dealer(),
            self.game.source(),
        );
        record.inputs = match decode_inputs(TableEntry::decode_concatenated(&self.inputs)) {
            Ok(inputs) => inputs,
            Err(e) => {
                tracing::error!("the hand's own inputs do not decode: {e}");
                Vec::new()
            }
        };
        record.finish(RecordOutcome::new(players, end, &score, Some(&hands)));
        self.inputs = Vec::new();
        Some(record)
    }
}

/// The record's rows of stored input entries, each timed from the deal (the entries hold the time
/// since the previous input).
fn decode_inputs(
    entries: impl Iterator<Item = Result<TableEntry, LogDecodeError>>,
) -> Result<Vec<RecordedInput>, LogDecodeError> {
    let mut at_ms = 0u64;
    entries
        .map(|entry| match entry? {
            TableEntry::Input { after_ms, input } => {
                at_ms = at_ms.saturating_add(after_ms);
                input.to_record(at_ms)
            }
            _ => Err(LogDecodeError::OutOfRange),
        })
        .collect()
}
