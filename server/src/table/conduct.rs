//! What the table knows of each seat's conduct in its match, for fair play's outcomes
//! (`crate::fairplay::outcome`): the marks against a player (a disconnect grace that ran out, a
//! move clock that ran out on a connected player), logged as `TableEntry::Conduct` when they
//! happen and folded like every entry (`state.rs`), beside what the rest of the log says (a
//! seat given up, saved as a `left:` bot's seat; the account that held each seat; the hands
//! finished). The facts are read from the log alone ([`facts_of_log`]): the match-end
//! projections (`crate::projections`) judge the outcomes from there, after a restart or on
//! another node just as on the node that served the match.

use burraco_protocol::log::{ConductMark, EntryKind, TableEntry};
use burraco_rules::{Match, Seat};
use tokio::time::Instant;

use super::state::{GAVE_UP, Marks, TableState, fold};
use super::{Status, TableActor};
use crate::fairplay::outcome::{Think, is_forced_long_think};
use crate::fairplay::{MatchFacts, SeatConduct};

/// The facts of a table's match, from its folded state (its marks included).
pub(super) fn facts(state: &TableState, marks: &[Marks; 4]) -> MatchFacts {
    let mut facts = MatchFacts {
        hands_finished: state.matc.as_ref().map_or(0, Match::hands_played),
        seats: Default::default(),
    };
    for seat in state.config.players().seats() {
        let at = seat.index();
        let Some(slot) = &state.seats[at] else {
            continue;
        };
        let gave_up = slot.player.starts_with(GAVE_UP);
        // A server bot's own seat (never a player's) has no account and no outcome.
        facts.seats[at] = Some(SeatConduct {
            account: slot.account.as_ref().map(|a| a.id.clone()),
            gave_up,
            grace_ran_out: marks[at].grace_ran_out,
            clock_expiries: marks[at].clock_expiries,
            forced_long_thinks: marks[at].forced_long_thinks,
        });
    }
    facts
}

/// The facts of the match a table's log ended (`MatchFinished`, or `Closed` mid-match), read
/// up to that end (seats freed after it change nothing). `None`: the log has not ended, never
/// started a match, or does not fold.
pub fn facts_of_log(entries: &[Vec<u8>]) -> Option<MatchFacts> {
    let end = entries
        .iter()
        .position(|e| EntryKind::of(e).is_some_and(EntryKind::ends_table))?;
    let (state, _) = match fold(entries[..=end].iter().cloned(), Instant::now()) {
        Ok(folded) => folded,
        Err(e) => {
            tracing::warn!("a finished table's log does not fold: {e}");
            return None;
        }
    };
    state.matc.as_ref()?;
    Some(facts(&state, &state.marks))
}

impl TableActor {
    /// The move clock ran out on `seat`: counted against its player only when they were there
    /// to move (connected, no grace running, no stand-in playing for them).
    pub(super) async fn note_clock_expired(&mut self, seat: Seat) {
        let present = self.state.seats[seat.index()].as_ref().is_some_and(|slot| {
            slot.bot.is_none()
                && slot.grace_until.is_none()
                && slot.out.as_ref().is_some_and(|o| !o.is_gone())
        });
        if present {
            self.mark(seat, ConductMark::ClockExpired).await;
        }
    }

    /// The disconnect grace ran out on `seat`'s player during the match.
    pub(super) async fn note_grace_ran_out(&mut self, seat: Seat) {
        if self.state.status == Status::Playing && !self.state.marks[seat.index()].grace_ran_out {
            self.mark(seat, ConductMark::GraceRanOut).await;
        }
    }

    /// How `seat`'s coming action weighs for the stalling rule, before it is played (`None`:
    /// no hand, or no move clock). Whether it was forced is only asked of a think already long
    /// while losing: enumerating the legal actions is not free.
    pub(super) fn think(&self, seat: Seat, now: Instant) -> Option<Think> {
        // A stand-in's action is not its player's think.
        if self.state.seats[seat.index()].as_ref()?.bot.is_some() {
            return None;
        }
        let hand = self.state.hand.as_ref()?;
        let limit_ms = u64::from(hand.game().move_clock()?.limit_ms);
        let totals = self.state.matc.as_ref()?.totals();
        let side = hand.game().side_of(seat).index();
        let mut think = Think {
            forced: false,
            losing: totals[side] < totals[1 - side],
            used_ms: hand.since_last_input_ms(now),
            limit_ms,
        };
        think.forced = true;
        if !is_forced_long_think(&think) {
            return None;
        }
        think.forced = hand.game().legal_actions().len() == 1;
        Some(think)
    }

    /// A player's action was played after [`TableActor::think`]: a long think on a forced move
    /// while losing is marked.
    pub(super) async fn note_think(&mut self, seat: Seat, think: Option<Think>) {
        if think.as_ref().is_some_and(is_forced_long_think) {
            self.mark(seat, ConductMark::ForcedLongThink).await;
        }
    }

    /// Logs a mark (folded on appending, like every entry).
    async fn mark(&mut self, seat: Seat, mark: ConductMark) {
        let entry = TableEntry::Conduct {
            seat: seat.index() as u8,
            mark,
        };
        if let Err(e) = self.append(&[entry]).await {
            tracing::error!("a conduct mark not saved: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use burraco_protocol::convert::config_to_wire;
    use burraco_protocol::log::{SeatAccount, SeatHolder, TableEntry};
    use burraco_rules::{Config, Preset, Seat};
    use tokio::time::Instant;

    use super::super::state::fold;
    use super::{GAVE_UP, Marks, facts, facts_of_log};
    use crate::fairplay::{Outcome, outcome::outcomes};
    use burraco_protocol::log::ConductMark;

    fn holder(player: &str, bot: Option<&str>) -> SeatHolder {
        SeatHolder {
            player: player.into(),
            name: format!("name of {player}"),
            bot: bot.map(str::to_owned),
        }
    }

    /// A 4-player table whose seats N, E, S, W were taken by accounts `u-n` ... `u-w`, its
    /// match started; then `more`.
    fn log(more: &[TableEntry]) -> Vec<Vec<u8>> {
        let config = Config::of(Preset::Fitab);
        let mut entries = vec![TableEntry::Created {
            settings: serde_json::to_string(&config_to_wire(&config)).unwrap(),
            private: false,
            invite: None,
            bots: None,
            created_ms: 1,
        }];
        for (seat, tag) in Seat::ALL.iter().zip(["n", "e", "s", "w"]) {
            entries.push(TableEntry::AccountSeat {
                seat: seat.index() as u8,
                holder: holder(&format!("p-{tag}"), None),
                account: SeatAccount {
                    id: format!("u-{tag}"),
                    bot: false,
                },
            });
        }
        entries.push(TableEntry::MatchStarted {
            first_dealer: 0,
            round_started_ms: 1,
        });
        entries.extend(more.iter().cloned());
        entries.iter().map(TableEntry::encode).collect()
    }

    fn judged(entries: Vec<Vec<u8>>, marks: &[Marks; 4]) -> Vec<(String, Outcome)> {
        let (state, _) = fold(entries, Instant::now()).expect("the log folds");
        outcomes(&facts(&state, marks))
            .into_iter()
            .map(|(_, account, outcome)| (account, outcome))
            .collect()
    }

    #[test]
    fn a_seat_given_up_mid_match_is_its_account_s_leave_after_a_restart_too() {
        let gave_up = TableEntry::Seat {
            seat: Seat::East.index() as u8,
            holder: Some(holder(&format!("{GAVE_UP}p-e"), Some("expert"))),
        };
        let got = judged(log(&[gave_up]), &[Marks::default(); 4]);
        // No hand finished in this log: the others' match never got going.
        assert_eq!(
            got,
            vec![
                ("u-n".into(), Outcome::Aborted),
                ("u-e".into(), Outcome::Left),
                ("u-s".into(), Outcome::Aborted),
                ("u-w".into(), Outcome::Aborted),
            ]
        );
    }

    #[test]
    fn live_marks_blame_only_their_own_seat() {
        let mut marks = [Marks::default(); 4];
        marks[Seat::North.index()].grace_ran_out = true;
        marks[Seat::West.index()].clock_expiries = 5;
        let got = judged(log(&[]), &marks);
        assert_eq!(
            got,
            vec![
                ("u-n".into(), Outcome::Left),
                ("u-e".into(), Outcome::Aborted),
                ("u-s".into(), Outcome::Aborted),
                ("u-w".into(), Outcome::Stalled),
            ]
        );
    }

    #[test]
    fn a_server_bot_s_seat_has_no_outcome() {
        let bot = TableEntry::Seat {
            seat: Seat::South.index() as u8,
            holder: Some(holder("b-1", Some("expert"))),
        };
        let got = judged(log(&[bot]), &[Marks::default(); 4]);
        assert!(got.iter().all(|(a, _)| a != "u-s"), "{got:?}");
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn conduct_marks_are_read_back_from_the_log_after_a_restart() {
        let mark = |seat: Seat, mark: ConductMark| TableEntry::Conduct {
            seat: seat.index() as u8,
            mark,
        };
        let entries = log(&[
            mark(Seat::North, ConductMark::GraceRanOut),
            mark(Seat::West, ConductMark::ClockExpired),
            mark(Seat::West, ConductMark::ClockExpired),
            mark(Seat::East, ConductMark::ClockExpired),
            mark(Seat::South, ConductMark::ForcedLongThink),
            mark(Seat::South, ConductMark::ForcedLongThink),
            mark(Seat::South, ConductMark::ForcedLongThink),
        ]);
        let (state, _) = fold(entries.clone(), Instant::now()).expect("the log folds");
        assert!(state.marks[Seat::North.index()].grace_ran_out);
        assert_eq!(state.marks[Seat::West.index()].clock_expiries, 2);
        assert_eq!(state.marks[Seat::East.index()].clock_expiries, 1);
        assert_eq!(state.marks[Seat::South.index()].forced_long_thinks, 3);
        let got: Vec<_> = outcomes(&facts(&state, &state.marks))
            .into_iter()
            .map(|(_, account, outcome)| (account, outcome))
            .collect();
        assert_eq!(
            got,
            vec![
                ("u-n".into(), Outcome::Left),
                ("u-e".into(), Outcome::Aborted),
                ("u-s".into(), Outcome::Stalled),
                ("u-w".into(), Outcome::Stalled),
            ]
        );
        // Not ended: no facts yet. Ended, then a seat freed: judged as the match ended.
        assert_eq!(facts_of_log(&entries), None);
        let mut ended = entries;
        ended.push(TableEntry::Closed.encode());
        ended.push(
            TableEntry::Seat {
                seat: Seat::North.index() as u8,
                holder: None,
            }
            .encode(),
        );
        let facts = facts_of_log(&ended).expect("ended");
        let north = facts.seats[Seat::North.index()].as_ref().expect("seated");
        assert_eq!(north.account.as_deref(), Some("u-n"));
        assert!(north.grace_ran_out);
    }
}
