//! Outcomes per game and player: what a match's end says of each account that sat in it, as a
//! pure function of what its table knows ([`MatchFacts`]). Nothing here reads a clock or a store.
//!
//! The definitions (docs/FAIR_PLAY.md, "Outcomes"):
//! - **left**: the player gave the seat up during the match (`leave`: a server bot took it for
//!   good), or was gone past the disconnect grace (a stand-in played for them), whether or not
//!   they came back later. A drop back within the grace is not counted.
//! - **stalled**: not left, and the move clock ran out on the player [`STALL_EXPIRIES`] times or
//!   more in the match while they were connected (an expiry during a drop's grace, or while a
//!   stand-in sat, is not theirs); or the player made [`FORCED_THINKS`] long thinks on a forced
//!   move while losing ([`is_forced_long_think`]).
//! - **aborted**: not left, and the match ended with no hand finished (its table closed early:
//!   a tournament scored it without play). Not held against anyone.
//! - **good**: everything else.
//!
//! Each seat is judged by its own conduct only: an opponent's or a partner's drop changes
//! nothing of anyone else's outcome.

use std::fmt;

/// Move clocks run out on a connected player this many times in one match: stalled.
pub const STALL_EXPIRIES: u32 = 2;

/// Long thinks on a forced move while losing, this many times in one match: stalled.
pub const FORCED_THINKS: u32 = 3;

/// A think is long when it took more than this share of the move clock (in percent).
pub const LONG_THINK_PERCENT: u64 = 80;

/// One move as the stalling rule sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Think {
    /// The mover had exactly one legal action.
    pub forced: bool,
    /// The mover's side was behind in the match's totals.
    pub losing: bool,
    /// The time the move took (since the previous input of the hand, or the deal).
    pub used_ms: u64,
    /// The move clock's limit for the turn (grace not counted); 0 without a move clock.
    pub limit_ms: u64,
}

/// Whether a move is a long think on a forced move while losing: nothing to decide, and most of
/// the clock spent not deciding it, while behind (a way to make the winners wait, or give up,
/// without ever letting the clock run out). Never without a move clock.
pub fn is_forced_long_think(think: &Think) -> bool {
    think.forced
        && think.losing
        && think.limit_ms > 0
        && u128::from(think.used_ms) * 100
            > u128::from(think.limit_ms) * u128::from(LONG_THINK_PERCENT)
}

/// One game's outcome for one account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Good,
    Aborted,
    Left,
    Stalled,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [
        Outcome::Good,
        Outcome::Aborted,
        Outcome::Left,
        Outcome::Stalled,
    ];

    /// As stored and as the API writes it.
    pub const fn code(self) -> &'static str {
        match self {
            Outcome::Good => "good",
            Outcome::Aborted => "aborted",
            Outcome::Left => "left",
            Outcome::Stalled => "stalled",
        }
    }

    pub fn from_code(code: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.code() == code)
    }

    /// Whether it counts towards a playban.
    pub const fn is_bad(self) -> bool {
        matches!(self, Outcome::Left | Outcome::Stalled)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// What a table knows of one seat's conduct in its match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatConduct {
    /// The account that held the seat (`None`: a guest or a server bot, who get no outcome).
    pub account: Option<String>,
    /// The player gave the seat up mid-match (`leave`).
    pub gave_up: bool,
    /// The disconnect grace ran out on the player during the match (a stand-in took over).
    pub grace_ran_out: bool,
    /// Move clocks that ran out on the player while connected and seated.
    pub clock_expiries: u32,
    /// Long thinks on a forced move while losing ([`is_forced_long_think`]).
    pub forced_long_thinks: u32,
}

/// What a table knows of its match when it ends.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchFacts {
    /// Hands finished in the match.
    pub hands_finished: u32,
    /// Each seat's conduct, by `Seat::index`; `None` for a seat not in play.
    pub seats: [Option<SeatConduct>; 4],
}

/// Each account's outcome, by seat index (only seats with an account).
pub fn outcomes(facts: &MatchFacts) -> Vec<(usize, String, Outcome)> {
    let aborted = facts.hands_finished == 0;
    facts
        .seats
        .iter()
        .enumerate()
        .filter_map(|(at, seat)| {
            let seat = seat.as_ref()?;
            let account = seat.account.clone()?;
            let outcome = if seat.gave_up || seat.grace_ran_out {
                Outcome::Left
            } else if seat.clock_expiries >= STALL_EXPIRIES
                || seat.forced_long_thinks >= FORCED_THINKS
            {
                Outcome::Stalled
            } else if aborted {
                Outcome::Aborted
            } else {
                Outcome::Good
            };
            Some((at, account, outcome))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(account: &str) -> Option<SeatConduct> {
        Some(SeatConduct {
            account: Some(account.into()),
            ..SeatConduct::default()
        })
    }

    fn played(seats: [Option<SeatConduct>; 4]) -> MatchFacts {
        MatchFacts {
            hands_finished: 3,
            seats,
        }
    }

    #[test]
    fn a_match_played_through_is_good_for_everyone() {
        let facts = played([seat("u-n"), seat("u-e"), seat("u-s"), seat("u-w")]);
        let all: Vec<_> = outcomes(&facts).into_iter().map(|(_, _, o)| o).collect();
        assert_eq!(all, vec![Outcome::Good; 4]);
    }

    #[test]
    fn the_leaver_alone_is_blamed_not_the_partner_nor_the_opponents() {
        let mut facts = played([seat("u-n"), seat("u-e"), seat("u-s"), seat("u-w")]);
        facts.seats[0].as_mut().unwrap().gave_up = true;
        facts.seats[1].as_mut().unwrap().grace_ran_out = true;
        let got = outcomes(&facts);
        assert_eq!(
            got,
            vec![
                (0, "u-n".into(), Outcome::Left),
                (1, "u-e".into(), Outcome::Left),
                (2, "u-s".into(), Outcome::Good),
                (3, "u-w".into(), Outcome::Good),
            ]
        );
    }

    #[test]
    fn guests_and_server_bots_get_no_outcome() {
        let mut facts = played([seat("u-n"), Some(SeatConduct::default()), None, None]);
        facts.seats[1].as_mut().unwrap().gave_up = true;
        assert_eq!(outcomes(&facts), vec![(0, "u-n".into(), Outcome::Good)]);
    }

    #[test]
    fn clocks_run_out_repeatedly_is_stalling_once_is_not() {
        let mut facts = played([seat("u-n"), seat("u-e"), None, None]);
        facts.seats[0].as_mut().unwrap().clock_expiries = STALL_EXPIRIES;
        facts.seats[1].as_mut().unwrap().clock_expiries = STALL_EXPIRIES - 1;
        let got: Vec<_> = outcomes(&facts).into_iter().map(|(_, _, o)| o).collect();
        assert_eq!(got, vec![Outcome::Stalled, Outcome::Good]);
    }

    #[test]
    fn a_match_closed_before_any_hand_is_aborted_but_a_leaver_still_left() {
        let mut facts = MatchFacts {
            hands_finished: 0,
            seats: [seat("u-n"), seat("u-e"), None, None],
        };
        facts.seats[1].as_mut().unwrap().gave_up = true;
        let got: Vec<_> = outcomes(&facts).into_iter().map(|(_, _, o)| o).collect();
        assert_eq!(got, vec![Outcome::Aborted, Outcome::Left]);
    }

    #[test]
    fn a_long_think_on_a_forced_move_while_losing_counts_and_nothing_less_does() {
        let think = |forced, losing, used_ms| Think {
            forced,
            losing,
            used_ms,
            limit_ms: 30_000,
        };
        // 80% of 30 s is 24 s: more is long.
        assert!(is_forced_long_think(&think(true, true, 24_001)));
        assert!(!is_forced_long_think(&think(true, true, 24_000)));
        // A choice to make, or not behind: thinking is allowed.
        assert!(!is_forced_long_think(&think(false, true, 29_000)));
        assert!(!is_forced_long_think(&think(true, false, 29_000)));
        // No move clock: no rule.
        let unclocked = Think {
            limit_ms: 0,
            ..think(true, true, 600_000)
        };
        assert!(!is_forced_long_think(&unclocked));
    }

    #[test]
    fn repeated_forced_long_thinks_are_stalling() {
        let mut facts = played([seat("u-n"), seat("u-e"), None, None]);
        facts.seats[0].as_mut().unwrap().forced_long_thinks = FORCED_THINKS;
        facts.seats[1].as_mut().unwrap().forced_long_thinks = FORCED_THINKS - 1;
        let got: Vec<_> = outcomes(&facts).into_iter().map(|(_, _, o)| o).collect();
        assert_eq!(got, vec![Outcome::Stalled, Outcome::Good]);
    }

    #[test]
    fn codes_read_back() {
        for o in Outcome::ALL {
            assert_eq!(Outcome::from_code(o.code()), Some(o));
        }
        assert_eq!(Outcome::from_code("nope"), None);
    }
}
