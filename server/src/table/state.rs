//! The table as a fold of its log. [`TableState`] is everything a table's log says (its settings,
//! who holds each seat, the match and the hand in play, its tournament, boards and round clock,
//! whether it ended), and [`TableState::apply`] is the one place that state changes from an
//! entry: at creation (the first entries are appended, then folded: held seats and tournament
//! membership included, so whichever node serves the table next knows them), live (the actor
//! folds every entry it appends, once the append is durable) and at restore ([`LogFold`] folds
//! the stored entries in order).
//!
//! The hand in play is the one part with its own fold: live, [`HandLog`] checks each input,
//! which is appended and then played; reading a stored log, [`LogFold`] collects a hand's inputs
//! and rebuilds it by the replay of `burraco replay` ([`HandLog::rebuild`]), settling the match
//! through [`settle_hand`] for a finished hand, as the live table does when the hand ends.

use std::sync::Arc;

use burraco_bot::Level;
use burraco_protocol::log::{
    ConductMark, LogDecodeError, MAX_EVENTS_PER_INPUT, SeatAccount, SeatHolder, TableEntry, seat_of,
};
use burraco_protocol::wire::WireSettings;
use burraco_rules::{Config, Match, Seat};
use tokio::time::Instant;

use super::hand_log::{HandLog, RebuildError};
use super::play::settle_hand;
use super::{Boards, BotRole, SeatSlot, Status};
use crate::log::Entry;

/// The prefix of the player id of a seat given up mid-match (`seating.rs` `leave`): the fold
/// keeps such a seat its account's, so fair play judges the account that left.
pub(super) const GAVE_UP: &str = "left:";

/// One seat's conduct marks in the match (`TableEntry::Conduct`), for fair play's outcomes
/// (`conduct.rs`): folded from the log like the rest, so a restart or a takeover keeps them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Marks {
    pub(super) grace_ran_out: bool,
    pub(super) clock_expiries: u32,
    pub(super) forced_long_thinks: u32,
    /// Not ready at an arena table's start deadline (`arena_table.rs`).
    pub(super) no_show: bool,
}

/// Why a table's log does not fold into a table.
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

/// What a table's log says.
#[derive(Debug)]
pub(super) struct TableState {
    pub(super) config: Config,
    pub(super) private: bool,
    /// The table's invite code, forgotten with the table.
    pub(super) invite: Option<String>,
    /// The level of the bots the table was created with, and of its stand-ins (expert if none);
    /// the first bot seated sets it when the table was created without.
    pub(super) bot_level: Option<Level>,
    /// Who holds each seat. The log knows the holder; a fold seats a player not ready, with no
    /// connection and no grace running, and a bot ready (the actor adds what is live).
    pub(super) seats: [Option<SeatSlot>; 4],
    pub(super) status: Status,
    pub(super) matc: Option<Match>,
    /// Wall time of the match's start (the round clock is wall time).
    pub(super) round_started_ms: Option<i64>,
    pub(super) hand: Option<HandLog>,
    /// The number of the last hand dealt (0 before the first).
    pub(super) hand_no: u32,
    /// Duplicate boards (a tournament's round): the deals and first dealer, fixed; their seeds
    /// never revealed by the table.
    pub(super) boards: Option<Boards>,
    /// The round clock its tournament's director set (`TableEntry::RoundClock`), replacing the
    /// preset's.
    pub(super) round_clock: Option<u64>,
    /// The tournament this table plays a match of (`TableEntry::Tournament`): its seats are held
    /// while it waits, and the tournament is told when the table ends.
    pub(super) tournament: Option<Arc<str>>,
    /// The log ended with `Closed` (an empty waiting table, or one its tournament scored
    /// without it): the table leaves the lobby.
    pub(super) closed: bool,
    /// A rated table (`TableEntry::Rated`, protocol 1.5): only accounts sit, and its finished
    /// match updates their ratings (`crate::ratings`).
    pub(super) rated: bool,
    /// When the table was created (wall time, from `Created`): how long a rated table has
    /// waited widens the ratings rated quick play seats at it.
    pub(super) created_ms: i64,
    /// Each seat's conduct marks in the match, by `Seat::index`.
    pub(super) marks: [Marks; 4],
    /// Its tournament's pauses (`TableEntry::Paused` / `Resumed`, protocol 1.6) as (from, to)
    /// Unix ms, the last one open while paused: the round clock does not count them.
    pub(super) pauses: Vec<(i64, Option<i64>)>,
    /// An arena table's start deadline (`TableEntry::StartBy`, Unix ms): the no-show rule's.
    pub(super) start_by_ms: Option<i64>,
}

impl TableState {
    /// The state a log's first entry makes; anything but `Created` is not a table's log.
    pub(super) fn created(entry: TableEntry) -> Result<TableState, RestoreError> {
        let TableEntry::Created {
            settings,
            private,
            invite,
            bots,
            created_ms,
        } = entry
        else {
            return Err(RestoreError::NotCreated);
        };
        Ok(TableState {
            config: config_of(&settings)?,
            private,
            invite,
            bot_level: bots.as_deref().and_then(Level::from_code),
            seats: Default::default(),
            status: Status::Waiting,
            matc: None,
            round_started_ms: None,
            hand: None,
            hand_no: 0,
            boards: None,
            round_clock: None,
            tournament: None,
            closed: false,
            rated: false,
            created_ms,
            marks: Default::default(),
            pauses: Vec::new(),
            start_by_ms: None,
        })
    }

    /// Folds one entry that follows the creation. A deal only counts the hand here and an input
    /// changes nothing here: the hand's own fold is [`HandLog`]'s (see the module's comment).
    pub(super) fn apply(&mut self, entry: &TableEntry) -> Result<(), RestoreError> {
        match entry {
            TableEntry::Created { .. } => return Err(RestoreError::NotCreated),
            TableEntry::Seat { seat, holder } => {
                let seat = seat_of(*seat)?;
                // A seat given up mid-match (`left:` and the player) stays its account's: fair
                // play judges the leave of that account. Live, the slot was renamed already.
                let account = holder.as_ref().and_then(|h| {
                    let player = h.player.strip_prefix(GAVE_UP)?;
                    let slot = self.seats[seat.index()].as_ref()?;
                    (slot.player == player || slot.player == h.player)
                        .then(|| slot.account.clone())?
                });
                self.seats[seat.index()] = holder.as_ref().map(|h| self.seat_slot(h, account));
            }
            TableEntry::AccountSeat {
                seat,
                holder,
                account,
            } => {
                let at = seat_of(*seat)?.index();
                match self.seats[at].as_mut() {
                    // The player already holds the seat (held for them by a tournament, or
                    // taken before they signed in): it learns their account, the rest stays.
                    Some(slot) if slot.player == holder.player => {
                        slot.account = Some(account.clone());
                    }
                    // The account already holds it: another session of the account claims it
                    // (an arena seat is its bot account's, `arena_table.rs`), and the seat keeps
                    // what the table knew of it.
                    Some(slot) if slot.account.as_ref().is_some_and(|a| a.id == account.id) => {
                        slot.player.clone_from(&holder.player);
                        slot.name.clone_from(&holder.name);
                    }
                    _ => self.seats[at] = Some(self.seat_slot(holder, Some(account.clone()))),
                }
            }
            TableEntry::MatchStarted {
                first_dealer,
                round_started_ms,
            } => {
                let matc = Match::new(self.config, seat_of(*first_dealer)?, false)
                    .map_err(|e| RestoreError::Settings(e.to_string()))?;
                self.matc = Some(matc);
                self.status = Status::Playing;
                self.round_started_ms = Some(*round_started_ms);
            }
            TableEntry::Dealt { hand, .. } => {
                if self.matc.is_none() {
                    return Err(RestoreError::BeforeMatch("a deal"));
                }
                self.hand_no = *hand;
            }
            TableEntry::Input { .. } => {
                if self.matc.is_none() {
                    return Err(RestoreError::BeforeMatch("an input"));
                }
            }
            // The record is for readers; the hand's own inputs rebuild it.
            TableEntry::HandFinished { .. } => {}
            TableEntry::MatchFinished { .. } => self.status = Status::Finished,
            TableEntry::Closed => self.closed = true,
            TableEntry::Boards {
                seeds,
                first_dealer,
            } => {
                self.boards = Some(Boards {
                    seeds: seeds.clone(),
                    first_dealer: seat_of(*first_dealer)?,
                });
            }
            TableEntry::RoundClock { ms } => self.round_clock = Some(*ms),
            TableEntry::Tournament { id } => self.tournament = Some(id.as_str().into()),
            TableEntry::Rated => self.rated = true,
            TableEntry::Conduct { seat, mark } => {
                let marks = &mut self.marks[seat_of(*seat)?.index()];
                match mark {
                    ConductMark::GraceRanOut => marks.grace_ran_out = true,
                    ConductMark::ClockExpired => {
                        marks.clock_expiries = marks.clock_expiries.saturating_add(1);
                    }
                    ConductMark::ForcedLongThink => {
                        marks.forced_long_thinks = marks.forced_long_thinks.saturating_add(1);
                    }
                    ConductMark::NoShow => marks.no_show = true,
                }
            }
            TableEntry::Paused { at_ms } => {
                if !self.paused() {
                    self.pauses.push((*at_ms, None));
                }
            }
            TableEntry::Resumed { at_ms } => {
                if let Some((from, end @ None)) = self.pauses.last_mut() {
                    *end = Some((*at_ms).max(*from));
                }
            }
            TableEntry::StartBy { deadline_ms } => self.start_by_ms = Some(*deadline_ms),
        }
        Ok(())
    }

    /// Whether its tournament's director has paused play here.
    pub(super) fn paused(&self) -> bool {
        self.pauses.last().is_some_and(|(_, end)| end.is_none())
    }

    /// Milliseconds of pause between `from` and `to` (Unix ms), an open pause counted to `to`:
    /// the tournament's own reckoning (`TournamentState::paused_between`), over the same
    /// instants, so both round clocks move on by the same amount.
    pub(super) fn paused_between(&self, from: i64, to: i64) -> i64 {
        self.pauses
            .iter()
            .map(|(start, end)| {
                let start = (*start).max(from);
                let end = end.unwrap_or(to).min(to);
                (end - start).max(0)
            })
            .sum()
    }

    /// A logged holder's seat: a bot's is ready, and a table created without bots takes the
    /// first bot's level for its stand-ins. `account`: the signed-in account that took it.
    fn seat_slot(&mut self, holder: &SeatHolder, account: Option<SeatAccount>) -> SeatSlot {
        let bot = holder.bot.as_deref().and_then(Level::from_code);
        self.bot_level = self.bot_level.or(bot);
        SeatSlot {
            player: holder.player.clone(),
            name: holder.name.clone(),
            ready: bot.is_some(),
            out: None,
            grace_until: None,
            bot: bot.map(|level| BotRole {
                level,
                stand_in: false,
            }),
            account,
        }
    }

    /// Whether a restore (or a takeover) gives every seated player the disconnect grace again,
    /// after which a seat left empty is freed (waiting) or played by a stand-in. Not at a
    /// tournament's table still waiting: its seats are held for its entrants until the match,
    /// as at its creation (the tournament judges who is late).
    pub(super) fn players_get_grace_on_resume(&self) -> bool {
        !(self.tournament.is_some() && self.status == Status::Waiting)
    }

    /// The seats' names for a hand's record (empty for a free seat).
    pub(super) fn seat_names(&self) -> Vec<(Seat, String)> {
        self.config
            .players()
            .seats()
            .iter()
            .map(|&s| {
                (
                    s,
                    self.seats[s.index()]
                        .as_ref()
                        .map_or_else(String::new, |slot| slot.name.clone()),
                )
            })
            .collect()
    }
}

/// A stored log being folded into a [`TableState`]: the table-level fold, plus the hand read
/// last (its deal and inputs), rebuilt by replay at the next deal or at the log's end.
pub(super) struct LogFold {
    state: TableState,
    reading: Option<Dealt>,
    /// The table's numbering as the log bounds it: the last deal's `seq`, plus
    /// [`MAX_EVENTS_PER_INPUT`] an input since.
    seq: u64,
    /// The hand's time goes on from its last input (downtime is nobody's).
    now: Instant,
}

/// A hand of the log being folded: its deal and its input entries.
struct Dealt {
    number: u32,
    names: Vec<(Seat, String)>,
    dealer: Seat,
    seed: [u8; 32],
    inputs: Vec<Entry>,
}

impl LogFold {
    /// Starts a fold at the log's first entry, which must be the table's creation.
    pub(super) fn new(first: &[u8], now: Instant) -> Result<LogFold, RestoreError> {
        Ok(LogFold {
            state: TableState::created(TableEntry::decode(first)?)?,
            reading: None,
            seq: 0,
            now,
        })
    }

    /// Folds the next stored entry.
    pub(super) fn apply(&mut self, bytes: Entry) -> Result<(), RestoreError> {
        let entry = TableEntry::decode(&bytes)?;
        self.state.apply(&entry)?;
        match entry {
            TableEntry::Dealt {
                hand,
                dealer,
                seed,
                seq,
            } => {
                self.seq = self.seq.max(seq);
                self.rebuild_read_hand()?;
                self.reading = Some(Dealt {
                    number: hand,
                    names: self.state.seat_names(),
                    dealer: seat_of(dealer)?,
                    seed,
                    inputs: Vec::new(),
                });
            }
            TableEntry::Input { .. } => {
                self.seq += MAX_EVENTS_PER_INPUT;
                match &mut self.reading {
                    Some(hand) => hand.inputs.push(bytes),
                    None => return Err(RestoreError::BeforeMatch("an input")),
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The folded table, with the highest number the log lets its events have had.
    pub(super) fn finish(mut self) -> Result<(TableState, u64), RestoreError> {
        self.rebuild_read_hand()?;
        let mut state = self.state;
        // A match over whose end was not logged (its append failed) is over all the same.
        let hand_over = state.hand.as_ref().is_none_or(HandLog::is_over);
        if hand_over && state.matc.as_ref().is_some_and(Match::is_over) {
            state.status = Status::Finished;
        }
        Ok((state, self.seq))
    }

    /// Rebuilds the hand read last by replay; a finished one settles the match, as it did live.
    fn rebuild_read_hand(&mut self) -> Result<(), RestoreError> {
        let Some(hand) = self.reading.take() else {
            return Ok(());
        };
        let Some(matc) = self.state.matc.as_mut() else {
            return Err(RestoreError::BeforeMatch("a deal"));
        };
        let rebuilt = HandLog::rebuild(
            self.state.config,
            hand.names,
            hand.dealer,
            hand.number,
            hand.seed,
            &hand.inputs,
            self.now,
        )
        .map_err(|e| RestoreError::Hand(hand.number, e))?;
        if rebuilt.is_over() {
            settle_hand(matc, rebuilt.game());
        }
        self.state.hand = Some(rebuilt);
        Ok(())
    }
}

/// Folds a whole stored log.
pub(super) fn fold(
    log: impl IntoIterator<Item = Entry>,
    now: Instant,
) -> Result<(TableState, u64), RestoreError> {
    let mut entries = log.into_iter();
    let first = entries.next().ok_or(RestoreError::NotCreated)?;
    let mut fold = LogFold::new(&first, now)?;
    for entry in entries {
        fold.apply(entry)?;
    }
    fold.finish()
}

fn config_of(settings: &str) -> Result<Config, RestoreError> {
    let wire: WireSettings =
        serde_json::from_str(settings).map_err(|e| RestoreError::Settings(e.to_string()))?;
    burraco_protocol::convert::config_from_wire(&wire)
        .map_err(|e| RestoreError::Settings(e.to_string()))
}

#[cfg(test)]
mod tests {
    use burraco_bot::Level;
    use burraco_protocol::convert::config_to_wire;
    use burraco_protocol::log::{SeatAccount, SeatHolder, TableEntry};
    use burraco_rules::{Config, Input, Preset, Seat};
    use tokio::time::Instant;

    use super::super::hand_log::HandLog;
    use super::super::held_seats::{HeldExtras, HeldSeat, held_entries};
    use super::super::play::settle_hand;
    use super::super::{Boards, Status};
    use super::{RestoreError, TableState, fold};
    use crate::log::Entry;

    fn created(config: &Config) -> TableEntry {
        TableEntry::Created {
            settings: serde_json::to_string(&config_to_wire(config)).unwrap(),
            private: false,
            invite: Some("ABCD".into()),
            bots: None,
            created_ms: 1,
        }
    }

    fn seat(seat: Seat, player: &str, bot: Option<Level>) -> TableEntry {
        TableEntry::Seat {
            seat: seat.index() as u8,
            holder: Some(SeatHolder {
                player: player.into(),
                name: format!("name of {player}"),
                bot: bot.map(|level| level.code().into()),
            }),
        }
    }

    /// What a comparison of two folds looks at: everything the log says, seats by their logged
    /// part (the live parts are the actor's).
    fn summary(state: &TableState) -> String {
        let seats: Vec<_> = state
            .seats
            .iter()
            .map(|s| {
                s.as_ref().map(|s| {
                    let bot = s.bot.map(|b| b.level);
                    (s.player.clone(), s.name.clone(), bot, s.account.clone())
                })
            })
            .collect();
        format!(
            "{:?} {} {:?} {:?} {:?} {:?} {:?} {} {:?} {:?} {:?} {}",
            seats,
            state.private,
            state.invite,
            state.bot_level,
            state.status,
            state.matc,
            state.hand.as_ref().map(HandLog::game),
            state.hand_no,
            state
                .boards
                .as_ref()
                .map(|b| (b.seeds.clone(), b.first_dealer)),
            state.round_clock,
            state.tournament,
            state.closed,
        )
    }

    /// The live path without a server: each table entry folded as the actor folds it once
    /// appended, the hand dealt and its inputs checked and played by [`HandLog`], the match
    /// settled when the hand ends; every entry kept as the log would hold it.
    struct Live {
        state: TableState,
        log: Vec<Entry>,
    }

    impl Live {
        fn new(first: TableEntry) -> Live {
            Live {
                log: vec![first.encode()],
                state: TableState::created(first).unwrap(),
            }
        }

        fn append(&mut self, entry: TableEntry) {
            self.log.push(entry.encode());
            self.state.apply(&entry).unwrap();
        }

        fn deal(&mut self, seed: [u8; 32]) {
            let dealer = self
                .state
                .matc
                .as_ref()
                .unwrap()
                .dealer_of_next_hand()
                .unwrap();
            let number = self.state.hand_no + 1;
            let (hand, _events) =
                HandLog::deal(self.state.config, dealer, number, seed, Instant::now()).unwrap();
            self.append(hand.dealt_entry(0));
            self.state.hand = Some(hand);
        }

        /// Plays the first legal take or discard of the seat on turn; false once the hand is over.
        fn play_one(&mut self) -> bool {
            let hand = self.state.hand.as_mut().unwrap();
            if hand.is_over() {
                return false;
            }
            let game = hand.game();
            let seat = game.on_turn();
            let action = game
                .legal_takes()
                .into_iter()
                .next()
                .or_else(|| game.legal_discard_actions().into_iter().next())
                .expect("a legal action");
            let pending = hand
                .check(&Input::Act { seat, action }, Instant::now())
                .unwrap();
            self.log.push(pending.entry());
            hand.play(pending).unwrap();
            if hand.is_over() {
                settle_hand(self.state.matc.as_mut().unwrap(), hand.game());
            }
            true
        }
    }

    #[test]
    fn a_played_log_folds_to_the_live_state() {
        let config = Config::of(Preset::Fitab);
        let mut live = Live::new(created(&config));
        live.append(seat(Seat::South, "p1", None));
        live.append(seat(Seat::West, "p2", None));
        live.append(seat(Seat::North, "b1", Some(Level::Greedy)));
        live.append(seat(Seat::East, "p4", None));
        // A seat freed and taken again before the match.
        live.append(TableEntry::Seat {
            seat: Seat::East.index() as u8,
            holder: None,
        });
        live.append(seat(Seat::East, "p5", None));
        live.append(TableEntry::MatchStarted {
            first_dealer: Seat::South.index() as u8,
            round_started_ms: 7,
        });
        live.deal([3; 32]);
        for _ in 0..25 {
            live.play_one();
        }
        // A player gives up the seat in play: a bot's for good.
        live.append(seat(Seat::West, "left:p2", Some(Level::Expert)));
        for _ in 0..10 {
            live.play_one();
        }
        let (restored, seq) = fold(live.log.clone(), Instant::now()).unwrap();
        assert_eq!(summary(&restored), summary(&live.state));
        assert_eq!(restored.status, Status::Playing);
        assert_eq!(restored.bot_level, Some(Level::Greedy));
        assert_eq!(restored.round_started_ms, Some(7));
        assert!(seq >= 35 * burraco_protocol::log::MAX_EVENTS_PER_INPUT);
    }

    #[test]
    fn a_finished_hand_settles_the_match_in_the_fold_as_live() {
        let config = Config::of(Preset::Fitab);
        let mut live = Live::new(created(&config));
        for (s, p) in [
            (Seat::South, "a"),
            (Seat::West, "b"),
            (Seat::North, "c"),
            (Seat::East, "d"),
        ] {
            live.append(seat(s, p, None));
        }
        live.append(TableEntry::MatchStarted {
            first_dealer: Seat::West.index() as u8,
            round_started_ms: 0,
        });
        live.deal([9; 32]);
        let mut inputs = 0;
        while live.play_one() {
            inputs += 1;
            assert!(inputs < 2000, "the hand never ended");
        }
        live.deal([10; 32]);
        live.play_one();
        let (restored, _) = fold(live.log.clone(), Instant::now()).unwrap();
        assert_eq!(restored.hand_no, 2);
        assert!(restored.players_get_grace_on_resume());
        assert_eq!(summary(&restored), summary(&live.state));
    }

    #[test]
    fn a_held_table_folds_its_seats_tournament_boards_and_clock() {
        let config = Config::of(Preset::Fedibur);
        let held = vec![
            HeldSeat {
                seat: Seat::South,
                player: "p1".into(),
                name: "Ada".into(),
                bot: None,
                account: None,
            },
            HeldSeat {
                seat: Seat::North,
                player: "b1".into(),
                name: "Bot".into(),
                bot: Some(Level::Random),
                account: None,
            },
        ];
        let boards = Boards {
            seeds: vec![[1; 32], [2; 32]],
            first_dealer: Seat::East,
        };
        let extras = HeldExtras {
            boards: Some(boards.clone()),
            round_clock_ms: Some(60_000),
            start_by_ms: None,
        };
        let entries = held_entries("u1", &config, &held, &extras);
        let (state, _) = fold(entries.iter().map(TableEntry::encode), Instant::now()).unwrap();
        assert_eq!(state.tournament.as_deref(), Some("u1"));
        assert_eq!(state.round_clock, Some(60_000));
        let folded = state.boards.as_ref().unwrap();
        assert_eq!(folded.seeds, boards.seeds);
        assert_eq!(folded.first_dealer, Seat::East);
        let south = state.seats[Seat::South.index()].as_ref().unwrap();
        assert_eq!((south.player.as_str(), south.name.as_str()), ("p1", "Ada"));
        // The player's seat waits for them: not ready, no grace running; the bot is ready.
        assert!(!south.ready && south.grace_until.is_none() && south.bot.is_none());
        let north = state.seats[Seat::North.index()].as_ref().unwrap();
        assert!(north.ready);
        assert_eq!(
            north.bot.map(|b| (b.level, b.stand_in)),
            Some((Level::Random, false))
        );
        assert!(state.seats[Seat::East.index()].is_none());
        assert_eq!(state.status, Status::Waiting);
        // Taken over before the match, the seats stay held: no grace runs out on them.
        assert!(!state.players_get_grace_on_resume());
        // Folded entry by entry after the first, the same state.
        let mut live = Live::new(entries[0].clone());
        for entry in &entries[1..] {
            live.append(entry.clone());
        }
        assert_eq!(summary(&live.state), summary(&state));
    }

    #[test]
    fn the_fold_refuses_a_log_that_is_not_a_table() {
        let config = Config::of(Preset::Fitab);
        assert!(matches!(
            fold(Vec::<Entry>::new(), Instant::now()),
            Err(RestoreError::NotCreated)
        ));
        assert!(matches!(
            fold(vec![TableEntry::Closed.encode()], Instant::now()),
            Err(RestoreError::NotCreated)
        ));
        let twice = vec![created(&config).encode(), created(&config).encode()];
        assert!(matches!(
            fold(twice, Instant::now()),
            Err(RestoreError::NotCreated)
        ));
        let early_deal = vec![
            created(&config).encode(),
            TableEntry::Dealt {
                hand: 1,
                dealer: 0,
                seed: [0; 32],
                seq: 0,
            }
            .encode(),
        ];
        assert!(matches!(
            fold(early_deal, Instant::now()),
            Err(RestoreError::BeforeMatch(_))
        ));
    }

    #[test]
    fn a_tournaments_pauses_fold_and_count_as_the_tournament_counts_them() {
        let config = Config::of(Preset::Fitab);
        let log = vec![
            created(&config).encode(),
            TableEntry::Paused { at_ms: 1_000 }.encode(),
            TableEntry::Resumed { at_ms: 4_000 }.encode(),
            TableEntry::Paused { at_ms: 10_000 }.encode(),
            // A repeated notice changes nothing.
            TableEntry::Paused { at_ms: 11_000 }.encode(),
        ];
        let (state, _) = fold(log, Instant::now()).unwrap();
        assert!(state.paused());
        assert_eq!(state.pauses, vec![(1_000, Some(4_000)), (10_000, None)]);
        // From 2 s to 12 s: 2 s of the first pause, the open one counted to 12 s.
        assert_eq!(state.paused_between(2_000, 12_000), 2_000 + 2_000);
        assert_eq!(state.paused_between(5_000, 9_000), 0);
        let mut live = Live::new(created(&config));
        live.append(TableEntry::Paused { at_ms: 10_000 });
        live.append(TableEntry::Resumed { at_ms: 13_000 });
        assert!(!live.state.paused());
        assert_eq!(live.state.paused_between(0, 20_000), 3_000);
    }

    #[test]
    fn a_closed_or_finished_log_folds_out_of_play() {
        let config = Config::of(Preset::Fitab);
        let log = vec![
            created(&config).encode(),
            seat(Seat::South, "p1", None).encode(),
            TableEntry::Seat {
                seat: Seat::South.index() as u8,
                holder: None,
            }
            .encode(),
            TableEntry::Closed.encode(),
        ];
        let (state, _) = fold(log, Instant::now()).unwrap();
        assert!(state.closed);
        assert!(state.seats.iter().all(Option::is_none));
        assert_eq!(state.invite.as_deref(), Some("ABCD"));
    }

    #[test]
    fn an_account_seat_keeps_its_account_and_a_bot_account_reads_as_a_program() {
        let config = Config::of(Preset::Fitab);
        let robo = SeatAccount {
            id: "u-3a9f0c2b7d1e4f60".into(),
            bot: true,
        };
        let log = [
            created(&config),
            TableEntry::AccountSeat {
                seat: Seat::North.index() as u8,
                holder: SeatHolder {
                    player: "p-robo".into(),
                    name: "RoboAnna".into(),
                    bot: None,
                },
                account: robo.clone(),
            },
            seat(Seat::South, "p-guest", None),
        ];
        let (state, _) = fold(log.iter().map(TableEntry::encode), Instant::now()).expect("folds");
        let north = state.seats[Seat::North.index()].as_ref().expect("seated");
        assert_eq!(north.account.as_ref(), Some(&robo));
        // A program plays it, yet it is no server bot: not ready until it says so.
        assert!(north.played_by_program() && north.bot.is_none() && !north.ready);
        let south = state.seats[Seat::South.index()].as_ref().expect("seated");
        assert!(south.account.is_none() && !south.played_by_program());
        // A seat its player already holds (held by a tournament) learns the account, and keeps
        // what the table knew of it.
        let mut state = state;
        if let Some(south) = state.seats[Seat::South.index()].as_mut() {
            south.ready = true;
        }
        let anna = SeatAccount {
            id: "u-0000000000000001".into(),
            bot: false,
        };
        state
            .apply(&TableEntry::AccountSeat {
                seat: Seat::South.index() as u8,
                holder: SeatHolder {
                    player: "p-guest".into(),
                    name: "name of p-guest".into(),
                    bot: None,
                },
                account: anna.clone(),
            })
            .expect("applies");
        let south = state.seats[Seat::South.index()].as_ref().expect("seated");
        assert!(south.ready && !south.played_by_program());
        assert_eq!(south.account.as_ref(), Some(&anna));
        // Freed, the seat forgets its account.
        state
            .apply(&TableEntry::Seat {
                seat: Seat::North.index() as u8,
                holder: None,
            })
            .expect("applies");
        assert!(state.seats[Seat::North.index()].is_none());
    }
}
