//! Playbans that escalate: a pure function of an account's recent outcomes, its past bans, its
//! age and the time (an argument, never read here). The numbers start from Lichess's playban
//! rules and are documented in docs/FAIR_PLAY.md, "Playbans".

use super::outcome::Outcome;

/// The outcomes the ratio looks at: the account's last this many games.
pub const WINDOW: usize = 30;
/// The ratio bans only once at least this many of the window's games were bad.
pub const MIN_BAD: usize = 4;
/// Bad outcomes over the window's games at or above this ratio (percent) ban.
pub const BAD_PERCENT: usize = 40;
/// This many bad outcomes in a row, all since the last ban began, ban whatever the ratio.
pub const STREAK: usize = 3;
/// The first ban.
pub const BASE_MS: i64 = 10 * MINUTE;
/// Each ban begun within this much before now makes the next one [`REPEAT_FACTOR`] times longer.
pub const REPEAT_WINDOW_MS: i64 = 3 * DAY;
pub const REPEAT_FACTOR: i64 = 3;
/// An account younger than this gets bans [`NEW_ACCOUNT_FACTOR`] times longer.
pub const NEW_ACCOUNT_MS: i64 = 3 * DAY;
pub const NEW_ACCOUNT_FACTOR: i64 = 2;
/// No ban is longer.
pub const CAP_MS: i64 = 3 * DAY;

const MINUTE: i64 = 60_000;
const DAY: i64 = 24 * 60 * MINUTE;

/// A ban's span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ban {
    pub start_ms: i64,
    pub end_ms: i64,
}

/// Why a ban was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// [`BAD_PERCENT`] of the window's games were bad (and at least [`MIN_BAD`]).
    Ratio,
    /// [`STREAK`] bad games in a row.
    Streak,
}

impl Reason {
    pub const fn code(self) -> &'static str {
        match self {
            Reason::Ratio => "ratio",
            Reason::Streak => "streak",
        }
    }
}

/// The ban an account earns now, if any.
///
/// `recent`: its outcomes with when each was recorded, newest first (the one just recorded
/// first); `bans`: its past bans, newest first; `created_ms`: the account's creation. A ban is
/// only given on a bad outcome (a good game never starts one) and never while one is running.
pub fn playban(
    recent: &[(Outcome, i64)],
    bans: &[Ban],
    created_ms: i64,
    now_ms: i64,
) -> Option<(Ban, Reason)> {
    let (latest, _) = recent.first()?;
    if !latest.is_bad() || bans.iter().any(|b| b.end_ms > now_ms) {
        return None;
    }
    let window = &recent[..recent.len().min(WINDOW)];
    let bad = window.iter().filter(|(o, _)| o.is_bad()).count();
    let since_last_ban = bans.first().map_or(i64::MIN, |b| b.start_ms);
    let streak = recent
        .iter()
        .take_while(|(o, at)| o.is_bad() && *at >= since_last_ban)
        .count();
    let reason = if streak >= STREAK {
        Reason::Streak
    } else if bad >= MIN_BAD && bad * 100 >= BAD_PERCENT * window.len() {
        Reason::Ratio
    } else {
        return None;
    };
    let repeats = bans
        .iter()
        .filter(|b| b.start_ms > now_ms - REPEAT_WINDOW_MS)
        .count() as u32;
    let mut length = BASE_MS.saturating_mul(REPEAT_FACTOR.saturating_pow(repeats));
    if now_ms - created_ms < NEW_ACCOUNT_MS {
        length = length.saturating_mul(NEW_ACCOUNT_FACTOR);
    }
    let length = length.min(CAP_MS);
    Some((
        Ban {
            start_ms: now_ms,
            end_ms: now_ms + length,
        },
        reason,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::{Good, Left, Stalled};

    const NOW: i64 = 100 * DAY;
    const OLD: i64 = 0;

    /// Outcomes newest first, one a minute back from now.
    fn games(outcomes: &[Outcome]) -> Vec<(Outcome, i64)> {
        outcomes
            .iter()
            .enumerate()
            .map(|(i, &o)| (o, NOW - i as i64 * MINUTE))
            .collect()
    }

    #[test]
    fn three_bad_games_in_a_row_ban_for_ten_minutes() {
        let got = playban(&games(&[Left, Stalled, Left, Good]), &[], OLD, NOW);
        assert_eq!(
            got,
            Some((
                Ban {
                    start_ms: NOW,
                    end_ms: NOW + 10 * MINUTE
                },
                Reason::Streak
            ))
        );
    }

    #[test]
    fn two_bad_games_are_not_enough() {
        assert_eq!(playban(&games(&[Left, Left, Good]), &[], OLD, NOW), None);
    }

    #[test]
    fn a_good_game_never_starts_a_ban() {
        assert_eq!(
            playban(&games(&[Good, Left, Left, Left, Left]), &[], OLD, NOW),
            None
        );
    }

    #[test]
    fn forty_percent_bad_of_the_window_bans_with_at_least_four() {
        // 4 bad of 10 (40%), never three in a row.
        let ten = [Left, Good, Left, Good, Good, Left, Good, Good, Left, Good];
        assert_eq!(
            playban(&games(&ten), &[], OLD, NOW).map(|(_, r)| r),
            Some(Reason::Ratio)
        );
        // 4 bad of 11 (36%): no.
        let mut eleven = ten.to_vec();
        eleven.push(Good);
        assert_eq!(playban(&games(&eleven), &[], OLD, NOW), None);
        // 3 bad of 5 (60%) but under the minimum count, not in a row: no.
        assert_eq!(
            playban(&games(&[Left, Good, Left, Good, Left]), &[], OLD, NOW),
            None
        );
    }

    #[test]
    fn only_the_last_thirty_games_count() {
        // 4 bad among the 30 newest games, out of the window beyond: 3 of 30 in it (10%).
        let mut many = vec![Left, Good, Left, Good, Left];
        many.extend(std::iter::repeat_n(Good, 25));
        many.extend([Left, Left]);
        assert_eq!(playban(&games(&many), &[], OLD, NOW), None);
    }

    #[test]
    fn repeats_within_three_days_triple_and_new_accounts_double_capped_at_three_days() {
        let bad = games(&[Left, Left, Left]);
        let ban = |start_ms: i64| Ban {
            start_ms,
            end_ms: start_ms + MINUTE,
        };
        // Bans in the streak's past: the streak counts only games since the last ban began.
        let after = |bans: &[Ban]| {
            let recent: Vec<_> = bad.clone();
            playban(&recent, bans, OLD, NOW).map(|(b, _)| b.end_ms - b.start_ms)
        };
        let earlier = NOW - 10 * MINUTE;
        assert_eq!(after(&[ban(earlier)]), Some(30 * MINUTE));
        assert_eq!(after(&[ban(earlier), ban(earlier - 1)]), Some(90 * MINUTE));
        // A ban four days ago no longer escalates.
        assert_eq!(after(&[ban(NOW - 4 * DAY)]), Some(10 * MINUTE));
        // A new account: twice as long.
        let young = playban(&bad, &[], NOW - DAY, NOW).map(|(b, _)| b.end_ms - b.start_ms);
        assert_eq!(young, Some(20 * MINUTE));
        // Ten recent bans: the cap.
        let ten: Vec<Ban> = (0..10).map(|i| ban(earlier - i)).collect();
        assert_eq!(after(&ten), Some(CAP_MS));
    }

    #[test]
    fn a_streak_spanning_a_ban_starts_over_but_a_bad_record_bans_again_longer() {
        let last = Ban {
            start_ms: NOW - 90_000,
            end_ms: NOW - 1,
        };
        // Banned 90 s ago after leaves; one more leave since. The streak is one game, but the
        // window is all bad: banned again, three times longer.
        let recent = games(&[Left, Left, Left, Left]);
        assert_eq!(
            playban(&recent, &[last], OLD, NOW),
            Some((
                Ban {
                    start_ms: NOW,
                    end_ms: NOW + 30 * MINUTE
                },
                Reason::Ratio
            ))
        );
        // With a good record behind the ban's leaves, the one leave since does not ban.
        let mut mostly_good = vec![Left, Left, Left, Left];
        mostly_good.extend(std::iter::repeat_n(Good, 10));
        assert_eq!(playban(&games(&mostly_good), &[last], OLD, NOW), None);
    }

    #[test]
    fn no_ban_while_one_runs() {
        let running = Ban {
            start_ms: NOW - MINUTE,
            end_ms: NOW + MINUTE,
        };
        assert_eq!(
            playban(&games(&[Left, Left, Left]), &[running], OLD, NOW),
            None
        );
    }
}
