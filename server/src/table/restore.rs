//! Rebuilding a table from its log after a restart (or, in a cluster, on another node): the
//! entries are folded in order; every hand is rebuilt by [`HandLog::rebuild`], the replay of
//! `burraco replay`, and each finished one settles the match through [`settle_hand`], as live.
//!
//! Downtime is nobody's: the turn in play gets its move clock afresh, every seated player the
//! disconnect grace again, and the hand's time (`at_ms`) goes on from its last input; only the
//! round clock is wall time from the match's start.

use std::sync::Arc;

use burraco_bot::Level;
use burraco_protocol::log::{
    LogDecodeError, MAX_EVENTS_PER_INPUT, SeatHolder, TableEntry, seat_of,
};
use burraco_protocol::wire::WireSettings;
use burraco_rules::{Config, Match, Seat};
use tokio::time::Instant;

use super::hand_log::{HandLog, RebuildError};
use super::play::settle_hand;
use super::{BotRole, SEQ_RESTART_GAP, SeatSlot, Status, TableActor, spawn};
use crate::Shared;
use crate::log::Entry;

/// Why a table could not be rebuilt from its log.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error("an entry does not decode: {0}")]
    Decode(#[from] LogDecodeError),
    #[error("the log does not start with the table's creation")]
    NotCreated,
    #[error("the table's settings: {0}")]
    Settings(String),
    #[error("{0} before the match started")]
    BeforeMatch(&'static str),
    #[error("hand {0}: {1}")]
    Hand(u32, RebuildError),
}

/// A hand of the log being folded: its deal and its input entries.
struct Dealt {
    number: u32,
    names: Vec<(Seat, String)>,
    dealer: Seat,
    seed: [u8; 32],
    inputs: Vec<Entry>,
}

/// Rebuilds table `id` from its log entries and starts its actor.
pub fn restore(shared: &Arc<Shared>, id: String, log: Vec<Entry>) -> Result<(), RestoreError> {
    let log_len = log.len() as u64;
    let mut entries = log.into_iter();
    let first = entries.next().ok_or(RestoreError::NotCreated)?;
    let TableEntry::Created {
        settings,
        private,
        invite,
        bots,
        ..
    } = TableEntry::decode(&first)?
    else {
        return Err(RestoreError::NotCreated);
    };
    let config = config_of(&settings)?;
    let (mut actor, handle) = TableActor::new(shared.clone(), id.clone().into(), config, private);
    actor.log_len = log_len;
    actor.bot_level = bots.as_deref().and_then(Level::from_code);
    let now = Instant::now();
    let mut holders: [Option<SeatHolder>; 4] = Default::default();
    let mut dealt: Option<Dealt> = None;
    let mut round_started_ms = None;
    let mut seq = 0;
    for bytes in entries {
        match TableEntry::decode(&bytes)? {
            TableEntry::Created { .. } => return Err(RestoreError::NotCreated),
            TableEntry::Seat { seat, holder } => holders[seat_of(seat)?.index()] = holder,
            TableEntry::MatchStarted {
                first_dealer,
                round_started_ms: started,
            } => {
                let matc = Match::new(config, seat_of(first_dealer)?, false)
                    .map_err(|e| RestoreError::Settings(e.to_string()))?;
                actor.matc = Some(matc);
                actor.status = Status::Playing;
                round_started_ms = Some(started);
            }
            TableEntry::Dealt {
                hand,
                dealer,
                seed,
                seq: before,
            } => {
                seq = seq.max(before);
                if let Some(previous) = dealt.take() {
                    rebuild_hand(&mut actor, config, previous, now)?;
                }
                dealt = Some(Dealt {
                    number: hand,
                    names: names_of(&holders, config),
                    dealer: seat_of(dealer)?,
                    seed,
                    inputs: Vec::new(),
                });
            }
            TableEntry::Input { .. } => {
                seq += MAX_EVENTS_PER_INPUT;
                match &mut dealt {
                    Some(hand) => hand.inputs.push(bytes),
                    None => return Err(RestoreError::BeforeMatch("an input")),
                }
            }
            // The record and the result are for readers; the hand's own inputs rebuild it.
            TableEntry::HandFinished { .. }
            | TableEntry::MatchFinished { .. }
            | TableEntry::Closed => {}
            TableEntry::Boards {
                seeds,
                first_dealer,
            } => {
                actor.boards = Some(super::Boards {
                    seeds,
                    first_dealer: seat_of(first_dealer)?,
                });
            }
            TableEntry::RoundClock { ms } => actor.round_clock = Some(ms),
            TableEntry::Tournament { id } => actor.tournament = Some(id.into()),
        }
    }
    if let Some(last) = dealt.take() {
        rebuild_hand(&mut actor, config, last, now)?;
    }
    actor.seq = seq + SEQ_RESTART_GAP;
    seat_players(shared, &mut actor, holders, now);
    if let Some(code) = invite {
        shared.directory.register_invite(&code, &id);
        actor.invite = Some(code);
    }
    if let Some(matc) = &actor.matc {
        // A TIME OUT announced in the hand in play reaches the match at the hand's end.
        let timed_out = matc.is_timed_out()
            || actor
                .hand
                .as_ref()
                .is_some_and(|h| h.game().last_round().is_some());
        if let (Some(total), false) = (actor.round_clock_ms(), timed_out) {
            let started = round_started_ms.unwrap_or_else(crate::unix_ms);
            let elapsed = (crate::unix_ms() - started).max(0) as u64;
            actor.round_deadline =
                Some(now + std::time::Duration::from_millis(total.saturating_sub(elapsed)));
        }
        let over = matc.is_over();
        match actor.hand.as_ref().map(HandLog::game) {
            Some(game) if !game.is_over() => {
                let clock = game.move_clock();
                actor.set_turn_timer(clock);
            }
            _ if over => actor.status = Status::Finished,
            _ => actor.next_hand_at = Some(now),
        }
    }
    for seat in Seat::ALL {
        if actor.seats[seat.index()]
            .as_ref()
            .is_some_and(|s| s.bot.is_some())
        {
            actor.start_bot(seat);
        }
    }
    actor.refresh_info();
    spawn(actor, handle);
    Ok(())
}

/// Rebuilds a logged hand by replay; a finished one settles the match, as it did live.
fn rebuild_hand(
    actor: &mut TableActor,
    config: Config,
    hand: Dealt,
    now: Instant,
) -> Result<(), RestoreError> {
    let Some(matc) = actor.matc.as_mut() else {
        return Err(RestoreError::BeforeMatch("a deal"));
    };
    let rebuilt = HandLog::rebuild(
        config,
        hand.names,
        hand.dealer,
        hand.number,
        hand.seed,
        &hand.inputs,
        now,
    )
    .map_err(|e| RestoreError::Hand(hand.number, e))?;
    if rebuilt.is_over() {
        settle_hand(matc, rebuilt.game());
    }
    actor.hand_no = hand.number;
    actor.hand = Some(rebuilt);
    Ok(())
}

fn config_of(settings: &str) -> Result<Config, RestoreError> {
    let wire: WireSettings =
        serde_json::from_str(settings).map_err(|e| RestoreError::Settings(e.to_string()))?;
    burraco_protocol::convert::config_from_wire(&wire)
        .map_err(|e| RestoreError::Settings(e.to_string()))
}

fn names_of(holders: &[Option<SeatHolder>; 4], config: Config) -> Vec<(Seat, String)> {
    config
        .players()
        .seats()
        .iter()
        .map(|&s| {
            let name = holders[s.index()].as_ref().map(|h| h.name.clone());
            (s, name.unwrap_or_default())
        })
        .collect()
}

/// Seats the logged holders: players get the disconnect grace again, bots are ready.
fn seat_players(
    shared: &Arc<Shared>,
    actor: &mut TableActor,
    holders: [Option<SeatHolder>; 4],
    now: Instant,
) {
    for (index, holder) in holders.into_iter().enumerate() {
        let Some(holder) = holder else { continue };
        let seat = Seat::ALL[index];
        let bot = holder.bot.as_deref().and_then(Level::from_code);
        if bot.is_none() {
            shared
                .directory
                .seat_player(&holder.player, &actor.id, seat);
        }
        actor.bot_level = actor.bot_level.or(bot);
        actor.seats[index] = Some(SeatSlot {
            player: holder.player,
            name: holder.name,
            ready: bot.is_some(),
            out: None,
            grace_until: bot.is_none().then(|| now + shared.config.disconnect_grace),
            bot: bot.map(|level| BotRole {
                level,
                stand_in: false,
            }),
        });
    }
}
