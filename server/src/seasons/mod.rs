//! Seasons (issue 21): a points ladder per calendar quarter (UTC), separate from the Glicko-2
//! rating, per category (two, four, fixed pair) and with bot accounts on their own ladder, as
//! the leaderboards are. Points (docs/RATINGS.md, "Seasons"):
//!
//! - a rated match: [`WIN_POINTS`], [`DRAW_POINTS`] or [`LOSS_POINTS`] by its outcome (the one
//!   rule, by the VP: `burraco_ratings::match_outcomes`), for
//!   each account at its table (and each fixed pair, with four); written by the ratings' own
//!   transaction ([`crate::ratings::Ratings::apply`]) keyed by the table, so the sweep's replay
//!   of a match cannot award it twice;
//! - a finished tournament: [`PLACE_POINTS`] by final place, for its entrants' accounts, keyed
//!   by the tournament and written before its `Finished` entry ([`tournament`]).
//!
//! One port, [`Seasons`], with a SQLite ([`sqlite`]) and a PostgreSQL ([`postgres`])
//! implementation passing one conformance suite (`server/tests/seasons`).

pub mod http;
pub mod postgres;
pub mod sqlite;
pub mod tournament;

use std::sync::Arc;

use burraco_ratings::{Category, MatchOutcome};

use crate::port::{PortError, PortFuture};
use crate::ratings::finished::{FinishedMatch, Subject};

/// Points for a rated match won (more VP), drawn (10-10) and lost. Three for
/// a win, one for a draw, as football's leagues: playing often helps, winning helps more, and
/// a loss costs nothing (the rating already measures strength; the ladder rewards taking part).
pub const WIN_POINTS: i64 = 3;
pub const DRAW_POINTS: i64 = 1;
pub const LOSS_POINTS: i64 = 0;

/// Points for a tournament's final places, first to fourth; every other ranked entrant gets
/// [`FINISHER_POINTS`]. A win is worth a little over three won matches: a tournament is several.
pub const PLACE_POINTS: [i64; 4] = [10, 6, 4, 2];
pub const FINISHER_POINTS: i64 = 1;

/// Rows a ladder answers at most per page.
pub const MAX_PAGE: u32 = 100;

const DAY_MS: i64 = 86_400_000;

/// A calendar quarter, UTC: Q1 is January to March.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Season {
    pub year: i32,
    /// 1 to 4.
    pub quarter: u8,
}

impl Season {
    /// `2026-q4`.
    pub fn id(self) -> String {
        format!("{}-q{}", self.year, self.quarter)
    }

    /// The inverse of [`Season::id`].
    pub fn parse(id: &str) -> Option<Season> {
        let (year, quarter) = id.split_once("-q")?;
        let year: i32 = year.parse().ok()?;
        let quarter: u8 = quarter.parse().ok()?;
        ((1..=4).contains(&quarter) && (1970..=9999).contains(&year))
            .then_some(Season { year, quarter })
    }

    /// Its first millisecond (Unix ms).
    pub fn start_ms(self) -> i64 {
        let month = u32::from(self.quarter - 1) * 3 + 1;
        days_from_civil(self.year, month, 1) * DAY_MS
    }

    /// The next season's first millisecond: this one's end, exclusive.
    pub fn end_ms(self) -> i64 {
        self.next().start_ms()
    }

    pub fn next(self) -> Season {
        if self.quarter == 4 {
            Season {
                year: self.year + 1,
                quarter: 1,
            }
        } else {
            Season {
                year: self.year,
                quarter: self.quarter + 1,
            }
        }
    }
}

/// The season `unix_ms` falls in (UTC).
pub fn season_of(unix_ms: i64) -> Season {
    let (year, month, _) = civil_from_days(unix_ms.div_euclid(DAY_MS));
    Season {
        year,
        quarter: ((month - 1) / 3 + 1) as u8,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(year: i32, month: u32, day: u32) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01 (H. Hinnant's `civil_from_days`): year, month, day.
fn civil_from_days(days: i64) -> (i32, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year as i32, month, day)
}

/// One subject's share of an award.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwardRow {
    pub subject: Subject,
    /// A bot account (or a pair with one): the bots' ladder.
    pub bot: bool,
    pub points: i64,
    /// Matches it adds (1 for a match, 0 for a tournament's place).
    pub matches: i64,
}

/// Points awarded once, by `key`: `match:<table>` or `tournament:<id>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Award {
    pub key: String,
    pub season: Season,
    pub at_ms: i64,
    pub rows: Vec<AwardRow>,
}

/// The points of a match's outcome.
pub fn match_points(outcome: MatchOutcome) -> i64 {
    match outcome {
        MatchOutcome::Won => WIN_POINTS,
        MatchOutcome::Draw => DRAW_POINTS,
        MatchOutcome::Lost => LOSS_POINTS,
    }
}

/// What a rated match awards at `now_ms`: each subject the ratings move (each account, and with
/// four each side's fixed pair) its side's points.
pub fn match_award(m: &FinishedMatch, now_ms: i64) -> Award {
    let side_of_account = |account: &str| {
        m.seats
            .iter()
            .find(|s| s.account == account)
            .map_or(0, |s| m.side_of(s.seat))
    };
    let bot_of = |account: &str| m.seats.iter().any(|s| s.account == account && s.bot);
    // A match someone left counts, as in the ratings, only for its leavers, each a loss: the
    // others played part of it against a stand-in, and a friend leaving must not hand them points.
    let left = |account: &str| {
        m.seats
            .iter()
            .any(|s| s.account == account && m.left.contains(&s.seat))
    };
    let outcomes = m.outcomes();
    let rows = crate::ratings::finished::subjects(m)
        .into_iter()
        .filter(|subject| {
            m.left.is_empty() || (subject.members.len() == 1 && left(&subject.members[0]))
        })
        .map(|subject| {
            let outcome = if m.left.is_empty() {
                outcomes[side_of_account(&subject.members[0])]
            } else {
                MatchOutcome::Lost
            };
            AwardRow {
                bot: subject.members.iter().any(|a| bot_of(a)),
                points: match_points(outcome),
                matches: 1,
                subject,
            }
        })
        .collect();
    Award {
        key: format!("match:{}", m.key),
        season: season_of(now_ms),
        at_ms: now_ms,
        rows,
    }
}

/// The points of a tournament's place `place` (from 0).
pub fn place_points(place: usize) -> i64 {
    PLACE_POINTS.get(place).copied().unwrap_or(FINISHER_POINTS)
}

/// An account as a tournament's tables logged it: its id and whether it is a bot account.
pub type PlacedAccount = (String, bool);

/// What a tournament finished at `at_ms` awards: `places` holds its ranked entrants, best first,
/// each with its players' accounts (`None`: a guest or a server bot, given nothing). The
/// category is the event's: head to head `two`; fixed pairs `pair` (both partners accounts);
/// individual and teams `four`, each account on its own.
pub fn tournament_award(
    id: &str,
    category: Category,
    at_ms: i64,
    places: &[Vec<Option<PlacedAccount>>],
) -> Award {
    let mut rows = Vec::new();
    for (place, players) in places.iter().enumerate() {
        let points = place_points(place);
        match category {
            Category::FixedPair => {
                if let [Some((a, a_bot)), Some((b, b_bot))] = &players[..]
                    && a != b
                {
                    rows.push(AwardRow {
                        subject: Subject::pair(a, b),
                        bot: *a_bot || *b_bot,
                        points,
                        matches: 0,
                    });
                }
            }
            _ => {
                for (account, bot) in players.iter().flatten() {
                    rows.push(AwardRow {
                        subject: Subject::one(category, account),
                        bot: *bot,
                        points,
                        matches: 0,
                    });
                }
            }
        }
    }
    Award {
        key: format!("tournament:{id}"),
        season: season_of(at_ms),
        at_ms,
        rows,
    }
}

/// A line of a season's ladder.
#[derive(Debug, Clone, PartialEq)]
pub struct LadderRow {
    pub subject: Subject,
    pub bot: bool,
    pub points: i64,
    pub matches: i64,
    /// The members' names, in the order of `subject.members`.
    pub names: Vec<String>,
}

/// The seasons' storage.
pub trait Seasons: Send + Sync + std::fmt::Debug {
    /// In one transaction: unless `award.key` is stored already, stores it and adds its rows.
    /// Whether it was new.
    fn award<'a>(&'a self, award: &'a Award) -> PortFuture<'a, Result<bool, PortError>>;
    /// Whether `key` was awarded.
    fn awarded<'a>(&'a self, key: &'a str) -> PortFuture<'a, Result<bool, PortError>>;
    /// The seasons with any award, newest first.
    fn seasons(&self) -> PortFuture<'_, Result<Vec<Season>, PortError>>;
    /// A page of `season`'s ladder in `category`: most points first (then fewer matches, then
    /// the subject's key), bot accounts' or people's.
    fn ladder<'a>(
        &'a self,
        season: Season,
        category: Category,
        bots: bool,
        limit: u32,
        offset: u32,
    ) -> PortFuture<'a, Result<Vec<LadderRow>, PortError>>;
    /// Every line `account` has in `season` (its own in each category, and its fixed pairs').
    fn points_of<'a>(
        &'a self,
        season: Season,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<LadderRow>, PortError>>;
}

/// The seasons' store: the ratings' kind (PostgreSQL given a database URL, else the SQLite
/// file of a single node, none in a cluster without one).
pub async fn open(
    config: &crate::config::ServerConfig,
    store: &crate::store::Store,
    database: Option<&crate::store::postgres::Database>,
) -> Result<Arc<dyn Seasons>, PortError> {
    Ok(match (database, &config.cluster) {
        (Some(db), _) => Arc::new(postgres::PostgresSeasons::new(db)),
        (None, None) => Arc::new(sqlite::SqliteSeasons::open(store)?),
        (None, Some(_)) => Arc::new(sqlite::Unconfigured),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::finished::RatedSeat;

    /// 2026-01-01T00:00:00Z.
    const JAN_2026: i64 = 1_767_225_600_000;

    #[test]
    fn a_season_is_a_utc_calendar_quarter_and_its_boundaries_belong_to_the_new_one() {
        let q1 = Season {
            year: 2026,
            quarter: 1,
        };
        assert_eq!(q1.start_ms(), JAN_2026);
        assert_eq!(season_of(JAN_2026), q1);
        assert_eq!(season_of(JAN_2026 - 1).id(), "2025-q4");
        // 2026-04-01T00:00:00Z (Q1 is 90 days): its last millisecond is Q1's, the next Q2's.
        let april = JAN_2026 + 90 * DAY_MS;
        assert_eq!(q1.end_ms(), april);
        assert_eq!(season_of(april - 1), q1);
        assert_eq!(season_of(april).id(), "2026-q2");
        assert_eq!(season_of(q1.next().end_ms()).id(), "2026-q3");
        // A leap year's Q1 has 91 days; Q4 runs to the new year.
        let q1_2028 = Season::parse("2028-q1").expect("parses");
        assert_eq!(q1_2028.end_ms() - q1_2028.start_ms(), 91 * DAY_MS);
        assert_eq!(season_of(0).id(), "1970-q1");
        let q4 = Season::parse("2025-q4").expect("parses");
        assert_eq!(q4.next(), q1);
        assert_eq!(q4.end_ms(), JAN_2026);
        assert_eq!(season_of(q4.start_ms()), q4);
        for bad in ["2026-q5", "2026-q0", "2026", "q1", "x-q1", "2026-q1x"] {
            assert_eq!(Season::parse(bad), None, "{bad}");
        }
    }

    fn seat(seat: u8, account: &str, bot: bool) -> RatedSeat {
        RatedSeat {
            seat,
            account: account.into(),
            bot,
        }
    }

    #[test]
    fn a_match_someone_left_counts_only_for_the_leaver_as_a_loss() {
        // Four players; East (seat 1) left a match its side was winning 14-6.
        let four = FinishedMatch {
            key: "t-9".into(),
            category: Category::Four,
            seats: vec![
                seat(0, "u-n", false),
                seat(1, "u-e", false),
                seat(2, "u-s", false),
                seat(3, "u-w", false),
            ],
            vp: [6, 14],
            play_ms: 600_000,
            left: vec![1],
        };
        let award = match_award(&four, JAN_2026);
        let points: Vec<(String, i64, i64)> = award
            .rows
            .iter()
            .map(|r| (r.subject.key(), r.points, r.matches))
            .collect();
        assert_eq!(
            points,
            [("u-e".into(), 0, 1)],
            "only the leaver, a loss; no pair, nobody else"
        );
    }

    #[test]
    fn a_rated_match_gives_three_to_the_winners_one_each_for_a_draw_and_none_to_the_losers() {
        assert_eq!(match_points(MatchOutcome::Won), WIN_POINTS);
        assert_eq!(match_points(MatchOutcome::Draw), DRAW_POINTS);
        assert_eq!(match_points(MatchOutcome::Lost), LOSS_POINTS);
        // Head to head: South is side 0 and won 15-5.
        let two = FinishedMatch {
            key: "t-1".into(),
            category: Category::Two,
            seats: vec![seat(2, "u-s", false), seat(0, "u-n", true)],
            vp: [15, 5],
            play_ms: 600_000,
            left: Vec::new(),
        };
        let award = match_award(&two, JAN_2026);
        assert_eq!(award.key, "match:t-1");
        assert_eq!(award.season.id(), "2026-q1");
        let points: Vec<(String, i64, bool)> = award
            .rows
            .iter()
            .map(|r| (r.subject.key(), r.points, r.bot))
            .collect();
        assert_eq!(
            points,
            [("u-s".into(), 3, false), ("u-n".into(), 0, true)],
            "the bot account loses, on its own ladder"
        );
        // Four: N and S (side 0) lose 6-14; each account and each pair.
        let four = FinishedMatch {
            key: "t-2".into(),
            category: Category::Four,
            seats: vec![
                seat(0, "u-n", false),
                seat(1, "u-e", false),
                seat(2, "u-s", false),
                seat(3, "u-w", false),
            ],
            vp: [6, 14],
            play_ms: 600_000,
            left: Vec::new(),
        };
        let award = match_award(&four, JAN_2026);
        let mut points: Vec<(String, &str, i64)> = award
            .rows
            .iter()
            .map(|r| (r.subject.key(), r.subject.category.as_str(), r.points))
            .collect();
        points.sort();
        assert_eq!(
            points,
            [
                ("u-e".into(), "four", 3),
                ("u-e+u-w".into(), "pair", 3),
                ("u-n".into(), "four", 0),
                ("u-n+u-s".into(), "pair", 0),
                ("u-s".into(), "four", 0),
                ("u-w".into(), "four", 3),
            ]
        );
    }

    /// Issue 32: a rated match folded from its log, -5 against -55 and 10-10 VP, gives each
    /// player a draw's point, whatever the totals and the `winner` its table logged by them.
    #[test]
    fn a_logged_10_10_gives_each_player_a_draws_point() {
        let log = crate::ratings::finished::tests::rated_log([-5, -55], [10, 10], Some("S"));
        let crate::ratings::LoggedEnd::Finished(m) = FinishedMatch::from_log("t-5", &log) else {
            panic!("finished")
        };
        let award = match_award(&m, JAN_2026);
        let points: Vec<(String, i64)> = award
            .rows
            .iter()
            .map(|r| (r.subject.key(), r.points))
            .collect();
        assert_eq!(points, [("u-n".into(), 1), ("u-s".into(), 1)]);
    }

    #[test]
    fn a_tournament_gives_its_top_places_most_and_its_guests_nothing() {
        let account = |id: &str| Some((id.to_owned(), false));
        let places = vec![
            vec![account("u-1")],
            vec![None],
            vec![account("u-3")],
            vec![account("u-4")],
            vec![account("u-5")],
        ];
        let award = tournament_award("T-1", Category::Two, JAN_2026, &places);
        assert_eq!(award.key, "tournament:T-1");
        let points: Vec<(String, i64, i64)> = award
            .rows
            .iter()
            .map(|r| (r.subject.key(), r.points, r.matches))
            .collect();
        assert_eq!(
            points,
            [
                ("u-1".into(), 10, 0),
                ("u-3".into(), 4, 0),
                ("u-4".into(), 2, 0),
                ("u-5".into(), 1, 0),
            ]
        );
        // Fixed pairs: a pair of two accounts, as the pair; half a guest pair, nothing.
        let pairs = vec![
            vec![account("u-b"), account("u-a")],
            vec![account("u-c"), None],
        ];
        let award = tournament_award("T-2", Category::FixedPair, JAN_2026, &pairs);
        assert_eq!(award.rows.len(), 1);
        assert_eq!(award.rows[0].subject, Subject::pair("u-a", "u-b"));
        assert_eq!(award.rows[0].points, 10);
    }
}
