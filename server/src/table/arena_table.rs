//! An arena match's table (`crate::arena`, docs/BOTS.md "The arena"): its tournament is the
//! match (`A-...`), and two things set it apart, both kept in its log so that a restart, or
//! another node taking the table over, keeps them.
//!
//! - **Its seats are its bot accounts'.** Each is held for an account (`AccountSeat` from the
//!   creation), not for the session that was ready when the match was made: a connection of the
//!   account under another session (the bot's program restarted and lost its resume token, or
//!   the server restarted) claims it, with a `join` of the table or, after its welcome, through
//!   [`Command::Claim`](super::Command::Claim). The claim is logged as an `AccountSeat` naming
//!   the new player, which the fold reads as the same seat changing hands. A seat its bot gave
//!   up (`leave` mid-match) stays given up.
//! - **It must start by a deadline** (`TableEntry::StartBy`): logged with the first table's
//!   creation, and at the second when the first ends ([`Command::ArenaTurn`](super::Command::ArenaTurn),
//!   or, if that was lost with a node, when the second table is next started and finds the
//!   first's log ended). Past it, a table still waiting ends unplayed: each seat not ready is
//!   marked a no-show (`ConductMark::NoShow`), then `Closed`, the tables after it close too, and
//!   the match-end projections settle the match from the logs (`crate::arena::settle`). A
//!   deadline that passed while no node served the table is moved to the disconnect grace after
//!   the restore: downtime is nobody's, as for every seat's grace.
//!
//! [`arena_facts_of_log`] reads an arena table's log through the table's own fold for the
//! settlement: who held each seat, who left it (fair play's `left`) and who never came.

use std::time::Duration;

use burraco_protocol::log::{ConductMark, EntryKind, SeatAccount, SeatHolder, TableEntry};
use burraco_rules::Seat;
use tokio::time::Instant;

use super::state::{GAVE_UP, fold};
use super::{Command, Status, TableActor};
use crate::fairplay::Outcome;
use crate::outbound::Outbox;

/// One seat of an arena table as its log says, for the match's settlement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaSeatFacts {
    /// The bot account that held the seat (`None`: a server bot's own seat).
    pub account: Option<String>,
    /// A server bot's own seat: its level's code (`"expert"`).
    pub server_bot: Option<String>,
    /// Fair play's `left`: the seat given up, or its disconnect grace run out mid-match (a
    /// server bot stood in for the account from then on).
    pub left: bool,
    /// Not ready at the table's start deadline.
    pub no_show: bool,
}

/// An arena table's log as its fold reads it, up to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaTableFacts {
    /// The log ended (`MatchFinished` or `Closed`).
    pub ended: bool,
    /// Its match finished (`MatchFinished`).
    pub finished: bool,
    /// By `Seat::index`; `None` for a seat not in play.
    pub seats: [Option<ArenaSeatFacts>; 4],
}

/// Reads an arena table's log (up to its end) through the table's fold: the same reading a
/// restart makes, so the settlement, fair play and the table agree on who held each seat and
/// who left it. `None` for a log that does not fold.
pub fn arena_facts_of_log(entries: &[Vec<u8>]) -> Option<ArenaTableFacts> {
    let end = entries
        .iter()
        .position(|e| EntryKind::of(e).is_some_and(EntryKind::ends_table));
    let upto = end.map_or(entries.len(), |at| at + 1);
    let (state, _) = match fold(entries[..upto].iter().cloned(), Instant::now()) {
        Ok(folded) => folded,
        Err(e) => {
            tracing::warn!("an arena table's log does not fold: {e}");
            return None;
        }
    };
    let left: Vec<usize> =
        crate::fairplay::outcome::outcomes(&super::conduct::facts(&state, &state.marks))
            .into_iter()
            .filter(|(_, _, outcome)| *outcome == Outcome::Left)
            .map(|(at, _, _)| at)
            .collect();
    let mut seats: [Option<ArenaSeatFacts>; 4] = Default::default();
    for seat in state.config.players().seats() {
        let at = seat.index();
        let Some(slot) = &state.seats[at] else {
            continue;
        };
        let own_bot = slot.account.is_none() && !slot.player.starts_with(GAVE_UP);
        seats[at] = Some(ArenaSeatFacts {
            account: slot.account.as_ref().map(|a| a.id.clone()),
            server_bot: slot
                .bot
                .filter(|_| own_bot)
                .map(|b| b.level.code().to_owned()),
            left: left.contains(&at),
            no_show: state.marks[at].no_show,
        });
    }
    Some(ArenaTableFacts {
        ended: end.is_some(),
        finished: state.status == Status::Finished,
        seats,
    })
}

impl TableActor {
    /// Whether this table plays an arena match.
    fn arena(&self) -> Option<String> {
        self.state
            .tournament
            .as_deref()
            .filter(|id| crate::arena::is_arena(id))
            .map(str::to_owned)
    }

    /// The seat an arena table holds for `account` that the player `player` may claim: one
    /// neither given up nor played by the account's own session already.
    fn claimable_seat(&self, player: &str, account: &SeatAccount) -> Option<Seat> {
        if self.arena().is_none() || self.state.closed || self.state.status == Status::Finished {
            return None;
        }
        Seat::ALL.into_iter().find(|seat| {
            self.state.seats[seat.index()].as_ref().is_some_and(|slot| {
                slot.account.as_ref().is_some_and(|a| a.id == account.id)
                    && slot.player != player
                    && !slot.player.starts_with(GAVE_UP)
            })
        })
    }

    /// Gives the arena seat held for `account` to `player` (logged first); the seat's earlier
    /// connection no longer reaches it. False when there is none to claim.
    pub(super) async fn claim_arena_seat(
        &mut self,
        player: &str,
        name: &str,
        account: &SeatAccount,
    ) -> bool {
        let Some(seat) = self.claimable_seat(player, account) else {
            return false;
        };
        let claimed = TableEntry::AccountSeat {
            seat: seat.index() as u8,
            holder: SeatHolder {
                player: player.to_owned(),
                name: name.to_owned(),
                bot: None,
            },
            account: account.clone(),
        };
        let before = self.state.seats[seat.index()]
            .as_ref()
            .map(|slot| slot.player.clone());
        if let Err(e) = self.append(&[claimed]).await {
            tracing::error!("an arena seat's claim not saved: {e}");
            return false;
        }
        // Folded on appending: the seat names the new player and keeps the rest. The earlier
        // session's connection (gone, or another program of the account's) is let go without a
        // close: it may be playing elsewhere. A server bot standing in keeps the seat's outbox,
        // for the attach that follows to stop it.
        if let Some(slot) = self.state.seats[seat.index()].as_mut()
            && slot.bot.is_none()
        {
            slot.out = None;
        }
        if let Some(before) = before {
            self.shared.directory.forget_seat(&before, &self.id);
        }
        self.shared.directory.seat_player(player, &self.id, seat);
        self.refresh_info();
        self.shared.backplane.listings.flush_table(&self.id).await;
        true
    }

    /// [`Command::Claim`]: the seat claimed (if this account holds one here), then taken by the
    /// connection, as a resume's attach.
    pub(super) async fn claim(
        &mut self,
        player: String,
        name: String,
        account: SeatAccount,
        out: Outbox,
    ) {
        self.claim_arena_seat(&player, &name, &account).await;
        if self.seat_of(&player).is_some() {
            self.attach(&player, out);
        }
    }

    /// Starts the timer of the table's logged start deadline, if it waits for its match.
    /// `restored`: the instant of a restore, after which a deadline already past is moved to
    /// the disconnect grace (nobody could come while no node served the table).
    pub(super) fn arm_start_deadline(&mut self, restored: Option<Instant>) {
        let Some(deadline_ms) = self.state.start_by_ms else {
            return;
        };
        if self.state.status != Status::Waiting || self.state.closed {
            self.start_deadline = None;
            return;
        }
        let now = Instant::now();
        let left_ms = deadline_ms.saturating_sub(crate::ids::unix_ms());
        let at = now + Duration::from_millis(u64::try_from(left_ms).unwrap_or(0));
        self.start_deadline = Some(match restored {
            Some(restored) if left_ms <= 0 => restored + self.shared.config.disconnect_grace,
            _ => at,
        });
    }

    /// [`Command::ArenaTurn`]: the match's table before this one ended; this one's start
    /// deadline is logged (once) and its timer started.
    pub(super) async fn arena_turn(&mut self, deadline_ms: i64) {
        if self.arena().is_none()
            || self.state.status != Status::Waiting
            || self.state.closed
            || self.state.start_by_ms.is_some()
        {
            return;
        }
        if let Err(e) = self.append(&[TableEntry::StartBy { deadline_ms }]).await {
            tracing::error!("an arena table's start deadline not saved: {e}");
            return;
        }
        self.arm_start_deadline(None);
    }

    /// The start deadline passed: a table still waiting ends by the no-show rule. Its seats not
    /// ready are marked, the table closes (pending for the match-end projections first, which
    /// settle the match from the logs), and so do the match's tables after it.
    pub(super) async fn start_deadline_passed(&mut self) {
        if self.state.status != Status::Waiting || self.state.closed {
            return;
        }
        let Some(arena) = self.arena() else {
            return;
        };
        let absent: Vec<Seat> = self
            .players()
            .seats()
            .iter()
            .copied()
            .filter(|seat| {
                self.state.seats[seat.index()]
                    .as_ref()
                    .is_none_or(|slot| !slot.ready)
            })
            .collect();
        if absent.is_empty() {
            return;
        }
        let ended_ms = crate::match_end::pending(&*self.shared.ratings, &self.id).await;
        let mut entries: Vec<TableEntry> = absent
            .iter()
            .map(|seat| TableEntry::Conduct {
                seat: seat.index() as u8,
                mark: ConductMark::NoShow,
            })
            .collect();
        entries.push(TableEntry::Closed);
        if let Err(e) = self.append(&entries).await {
            // Tried again shortly: the deadline has passed, the table must not wait for ever.
            tracing::error!("an arena table's no-show not saved: {e}");
            self.start_deadline = Some(Instant::now() + Duration::from_secs(1));
            return;
        }
        tracing::info!(table = %self.id, ?absent, "an arena table not started in time: closed");
        self.shared.match_ends.announce(&self.id, ended_ms);
        for slot in self.state.seats.iter().flatten() {
            self.shared.directory.forget_seat(&slot.player, &self.id);
        }
        self.stop_bots();
        self.stopping = true;
        crate::arena::close_later_tables(&self.shared, &arena, &self.id);
    }

    /// A restored table of an arena match that waits with no start deadline and follows
    /// another table: the turn may have come while no node served it (its notice lost with a
    /// node). The earlier table's log says: ended, the turn is now (a full start limit from
    /// here); closed unplayed, this one closes too.
    pub(super) fn look_for_turn(&self) {
        if self.state.status != Status::Waiting
            || self.state.closed
            || self.state.start_by_ms.is_some()
        {
            return;
        }
        let Some(arena) = self.arena() else {
            return;
        };
        let Some(before) = crate::arena::table_before(&arena, &self.id) else {
            return;
        };
        let (shared, weak) = (self.shared.clone(), self.weak.clone());
        let tracker = shared.tracker.clone();
        tracker.spawn(async move {
            let entries = match shared.backplane.log.load(&before).await {
                Ok(entries) => entries,
                Err(e) => {
                    tracing::warn!(table = %before, "an arena table's turn not read: {e}");
                    return;
                }
            };
            let ended = entries
                .iter()
                .filter_map(|e| EntryKind::of(e))
                .find(|kind| kind.ends_table());
            let command = match ended {
                Some(EntryKind::MatchFinished) => {
                    let limit = i64::try_from(shared.config.arena_start_limit.as_millis())
                        .unwrap_or(i64::MAX);
                    Command::ArenaTurn {
                        deadline_ms: crate::ids::unix_ms().saturating_add(limit),
                    }
                }
                Some(_) => Command::Close,
                None => return,
            };
            if let Some(tx) = weak.upgrade() {
                let _ = tx.send(Box::new(command)).await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use burraco_bot::Level;
    use burraco_protocol::convert::config_from_wire;
    use burraco_protocol::log::{ConductMark, SeatAccount, SeatHolder, TableEntry};
    use burraco_protocol::wire::WireSettings;
    use burraco_rules::Seat;
    use tokio::time::Instant;

    use super::super::held_seats::{HeldExtras, HeldSeat, held_entries};
    use super::super::state::fold;
    use super::{ArenaSeatFacts, arena_facts_of_log};

    fn account(id: &str) -> SeatAccount {
        SeatAccount {
            id: id.into(),
            bot: true,
        }
    }

    /// An arena table as `arena::make_match` creates it: RoboAnna South, held for her account,
    /// and `north` (a bot account's, or an expert server bot's), with a start deadline.
    fn created(north: Option<&str>) -> Vec<TableEntry> {
        let settings = WireSettings {
            preset: "fitab".into(),
            players: Some(2),
            hands: Some(1),
            clocks: Some("federation".into()),
            ..WireSettings::default()
        };
        let config = config_from_wire(&settings).expect("settings");
        let held = |seat: Seat, player: &str, id: Option<&str>| HeldSeat {
            seat,
            player: player.into(),
            name: format!("name of {player}"),
            bot: id.is_none().then_some(Level::Expert),
            account: id.map(account),
        };
        let seats = vec![
            held(Seat::South, "p-anna", Some("u-anna")),
            held(Seat::North, north.map_or("bot-1", |_| "p-bruno"), north),
        ];
        let extras = HeldExtras {
            start_by_ms: Some(1_764_163_800_000),
            ..HeldExtras::default()
        };
        held_entries("A-1", &config, &seats, &extras)
    }

    fn encoded(entries: &[TableEntry]) -> Vec<Vec<u8>> {
        entries.iter().map(TableEntry::encode).collect()
    }

    #[test]
    fn an_arena_seat_is_held_for_its_account_and_another_session_of_it_takes_it_over() {
        let mut entries = created(Some("u-bruno"));
        let (state, _) = fold(encoded(&entries), Instant::now()).expect("folds");
        assert_eq!(state.start_by_ms, Some(1_764_163_800_000));
        let north = state.seats[Seat::North.index()].as_ref().expect("held");
        assert_eq!(north.account.as_ref(), Some(&account("u-bruno")));
        // Bruno's program comes back under a new session: the seat changes hands, and stays
        // the account's; what the table knew of the seat (here: ready) stays.
        let mut live = state;
        if let Some(north) = live.seats[Seat::North.index()].as_mut() {
            north.ready = true;
        }
        let claimed = TableEntry::AccountSeat {
            seat: Seat::North.index() as u8,
            holder: SeatHolder {
                player: "p-bruno-2".into(),
                name: "RoboBruno".into(),
                bot: None,
            },
            account: account("u-bruno"),
        };
        live.apply(&claimed).expect("applies");
        let north = live.seats[Seat::North.index()].as_ref().expect("held");
        assert_eq!(north.player, "p-bruno-2");
        assert!(north.ready);
        assert_eq!(north.account.as_ref(), Some(&account("u-bruno")));
        // A restart reads the same.
        entries.push(claimed);
        let (restored, _) = fold(encoded(&entries), Instant::now()).expect("folds");
        let north = restored.seats[Seat::North.index()].as_ref().expect("held");
        assert_eq!(north.player, "p-bruno-2");
        assert_eq!(north.account.as_ref(), Some(&account("u-bruno")));
    }

    #[test]
    fn the_settlement_reads_who_left_who_never_came_and_a_server_bots_own_seat_from_the_fold() {
        let mut entries = created(None);
        entries.push(TableEntry::Conduct {
            seat: Seat::South.index() as u8,
            mark: ConductMark::NoShow,
        });
        entries.push(TableEntry::Closed);
        let facts = arena_facts_of_log(&encoded(&entries)).expect("reads");
        assert!(facts.ended && !facts.finished);
        assert_eq!(
            facts.seats[Seat::South.index()],
            Some(ArenaSeatFacts {
                account: Some("u-anna".into()),
                server_bot: None,
                left: false,
                no_show: true,
            })
        );
        assert_eq!(
            facts.seats[Seat::North.index()],
            Some(ArenaSeatFacts {
                account: None,
                server_bot: Some("expert".into()),
                left: false,
                no_show: false,
            })
        );
        // Mid-match: Bruno's grace ran out (a server bot stood in); the seat stays Bruno's, left.
        let mut entries = created(Some("u-bruno"));
        entries.push(TableEntry::MatchStarted {
            first_dealer: Seat::South.index() as u8,
            round_started_ms: 1,
        });
        entries.push(TableEntry::Conduct {
            seat: Seat::North.index() as u8,
            mark: ConductMark::GraceRanOut,
        });
        let facts = arena_facts_of_log(&encoded(&entries)).expect("reads");
        assert!(!facts.ended);
        let north = facts.seats[Seat::North.index()].as_ref().expect("held");
        assert_eq!(north.account.as_deref(), Some("u-bruno"));
        assert!(north.left && !north.no_show && north.server_bot.is_none());
        assert!(
            !facts.seats[Seat::South.index()]
                .as_ref()
                .expect("held")
                .left
        );
    }
}
