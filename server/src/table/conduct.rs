//! What the table knows of each seat's conduct in its match, for fair play's outcomes
//! (`crate::fairplay::outcome`): live marks the log does not hold (a disconnect grace that ran
//! out, a move clock that ran out on a connected player) beside what it does (a seat given up,
//! saved as a `left:` bot's seat; the account that held each seat; the hands finished). When
//! the match ends, or its tournament closes the table mid-match, the facts go to
//! [`crate::fairplay::judge`], which stores each account's outcome and any playban it earns.
//!
//! The live marks start afresh after a restart or a takeover (downtime is nobody's: every
//! seated player gets the grace again), so a clock that ran out before it is not counted.

use burraco_rules::{Match, Seat};

use super::state::{GAVE_UP, TableState};
use super::{Status, TableActor};
use crate::fairplay::{MatchFacts, SeatConduct};

/// One seat's live marks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Marks {
    pub(super) grace_ran_out: bool,
    pub(super) clock_expiries: u32,
}

/// The facts of a table's match, from its folded state and the live marks.
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
        });
    }
    facts
}

impl TableActor {
    /// The move clock ran out on `seat`: counted against its player only when they were there
    /// to move (connected, no grace running, no stand-in playing for them).
    pub(super) fn note_clock_expired(&mut self, seat: Seat) {
        let present = self.state.seats[seat.index()].as_ref().is_some_and(|slot| {
            slot.bot.is_none()
                && slot.grace_until.is_none()
                && slot.out.as_ref().is_some_and(|o| !o.is_gone())
        });
        if present {
            self.marks[seat.index()].clock_expiries += 1;
        }
    }

    /// The disconnect grace ran out on `seat`'s player during the match.
    pub(super) fn note_grace_ran_out(&mut self, seat: Seat) {
        if self.state.status == Status::Playing {
            self.marks[seat.index()].grace_ran_out = true;
        }
    }

    /// The match ended (or its table closed mid-match): each account's outcome is judged.
    pub(super) fn judge_match(&self) {
        if self.state.matc.is_none() {
            return;
        }
        let facts = facts(&self.state, &self.marks);
        crate::fairplay::judge(&self.shared, &self.id, &facts, crate::unix_ms());
    }
}

#[cfg(test)]
mod tests {
    use burraco_protocol::convert::config_to_wire;
    use burraco_protocol::log::{SeatAccount, SeatHolder, TableEntry};
    use burraco_rules::{Config, Preset, Seat};
    use tokio::time::Instant;

    use super::super::state::fold;
    use super::{GAVE_UP, Marks, facts};
    use crate::fairplay::{Outcome, outcome::outcomes};

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
}
