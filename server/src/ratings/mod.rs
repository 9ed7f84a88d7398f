//! Rated play (issue 21): a rated table's finished match updates its players' ratings exactly
//! once, keyed by the match, behind one port, [`Ratings`], with two implementations that pass
//! one conformance suite (`server/tests/ratings`):
//!
//! - [`sqlite`]: the embedded store's file (one node), beside the accounts;
//! - [`postgres`]: PostgreSQL (`--database-url`), shared by every node of a cluster.
//!
//! The Glicko-2 step is the pure crate `burraco-ratings`; this module only says which ratings a
//! match moves ([`changes`]) and reads the match from the table's log ([`FinishedMatch::from_log`]),
//! the one source of a rating change.
//!
//! Exactly once: a rated table is recorded as expected ([`Ratings::expect`]) before its first
//! log entry, and every table's match as ended ([`Ratings::ended`]) before its end is logged:
//! that row is the pending list of all the match-end projections (`crate::projections`, which
//! sweeps it at start and every minute). The ratings' projection, [`settle_log`], reads the
//! match from the log and hands it to [`Ratings::apply`]: one store transaction that inserts
//! the match's key and the new ratings together (a second apply of the same key changes
//! nothing). The pending row goes only when every projection is done ([`Ratings::forget`]).
//!
//! A leaver (fair play's outcome `left`, judged from the same log) loses the match 0-20; the
//! leaver's partner and the opponents are not rated by it ([`changes`], docs/RATINGS.md).

pub mod expected;
pub mod finished;
pub mod http;
pub mod postgres;
pub mod sqlite;
pub mod tournament_levels;
pub mod weekly;

use std::collections::HashMap;
use std::sync::Arc;

use burraco_ratings::{Category, Config, Level, Outcome, Rating};

use crate::port::{PortError, PortFuture};
pub use finished::{FinishedMatch, LoggedEnd, RatedSeat, Subject, category_of, subjects};

/// Days without a rated match after which a rating leaves the leaderboards.
pub const ACTIVE_DAYS: i64 = 30;

/// Rows a leaderboard answers at most.
pub const BOARD_SIZE: u32 = 100;

/// A rating as stored: the Glicko-2 triple and when it last changed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stored {
    pub rating: Rating,
    pub matches: i64,
    pub last_ms: i64,
}

/// One rating a match changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub subject: Subject,
    /// Whether the subject is (or includes) a bot account: its own leaderboard.
    pub bot: bool,
    pub before: Rating,
    pub after: Rating,
}

/// The ratings `m` moves, from the subjects' stored ratings (absent: new) at `now_ms`: each aged
/// by its time away, then the Glicko-2 step of `burraco-ratings` (2 players: each against the
/// other with the VP share; 4 players: `update_four`, and each side's fixed pair against the
/// other side's). A match mixing people and bot accounts counts at `Config::bot_weight`.
pub fn changes(
    m: &FinishedMatch,
    current: &HashMap<Subject, Stored>,
    now_ms: i64,
    cfg: &Config,
) -> Vec<Change> {
    let aged = |subject: &Subject| -> Rating {
        if let Some(fixed) = subject.members.first().and_then(|a| finished::anchor(a)) {
            return fixed;
        }
        match current.get(subject) {
            Some(stored) => {
                let days = (now_ms - stored.last_ms).max(0) as f64 / 86_400_000.0;
                stored.rating.aged(cfg.periods(days), cfg)
            }
            None => Rating::new(),
        }
    };
    let weight = if m.mixed() { cfg.bot_weight } else { 1.0 };
    if !m.left.is_empty() {
        return leavers_changes(m, &aged, weight, cfg);
    }
    let score = m.score();
    let score_of = |side: usize| if side == 0 { score } else { 1.0 - score };
    let bot_of = |account: &str| m.seats.iter().any(|s| s.account == account && s.bot);
    let mut out = Vec::new();
    match m.category {
        Category::Two => {
            let [a, b] = [&m.seats[0], &m.seats[1]];
            let (sa, sb) = (
                Subject::one(Category::Two, &a.account),
                Subject::one(Category::Two, &b.account),
            );
            let (ra, rb) = (aged(&sa), aged(&sb));
            let [after_a, after_b] =
                burraco_ratings::update_two(ra, rb, score_of(m.side_of(a.seat)), weight, cfg);
            for (seat, subject, before, after) in [(a, sa, ra, after_a), (b, sb, rb, after_b)] {
                // A server bot's anchor (an arena match) is fixed: only its opponent moves.
                if finished::anchor(&seat.account).is_some() {
                    continue;
                }
                out.push(Change {
                    bot: seat.bot,
                    before,
                    after,
                    subject,
                });
            }
        }
        _ => {
            // By seat index: N E S W, side 0 = seats 0 and 2.
            let mut by_seat: Vec<&RatedSeat> = m.seats.iter().collect();
            by_seat.sort_by_key(|s| s.seat);
            let subjects: Vec<Subject> = by_seat
                .iter()
                .map(|s| Subject::one(Category::Four, &s.account))
                .collect();
            let before: Vec<Rating> = subjects.iter().map(aged).collect();
            if let Ok(four) = <[Rating; 4]>::try_from(before.clone()) {
                let after = burraco_ratings::pairs::update_four_weighted(four, score, weight, cfg);
                for (at, subject) in subjects.into_iter().enumerate() {
                    out.push(Change {
                        bot: by_seat[at].bot,
                        before: before[at],
                        after: after[at],
                        subject,
                    });
                }
                let pairs = [
                    Subject::pair(&by_seat[0].account, &by_seat[2].account),
                    Subject::pair(&by_seat[1].account, &by_seat[3].account),
                ];
                let pair_ratings = [aged(&pairs[0]), aged(&pairs[1])];
                // `update_fixed_pair` with the match's weight (a bot account partnering counts
                // at half weight here too).
                for side in 0..2 {
                    let me = pair_ratings[side];
                    let outcome = Outcome {
                        opponent: pair_ratings[1 - side],
                        score: score_of(side),
                        weight,
                    };
                    let subject = pairs[side].clone();
                    out.push(Change {
                        bot: subject.members.iter().any(|a| bot_of(a)),
                        after: burraco_ratings::update(me, &[outcome], cfg),
                        before: me,
                        subject,
                    });
                }
            }
        }
    }
    out
}

/// A match someone left: each leaver loses it 0-20 against the other side as it stood (4
/// players: the partnership's expectation, as [`changes`] does for everyone), and nobody else
/// is rated by it: not the leaver's partner (who was left to play with a stand-in and did
/// nothing wrong) and not the opponents (whose match was played in part against a server bot,
/// and who could otherwise be handed a 20-0 by a friend who leaves); no fixed pair either, as
/// every pair holds someone who is not rated. docs/RATINGS.md, "Leavers".
fn leavers_changes(
    m: &FinishedMatch,
    aged: &dyn Fn(&Subject) -> Rating,
    weight: f64,
    cfg: &Config,
) -> Vec<Change> {
    let mut by_seat: Vec<&RatedSeat> = m.seats.iter().collect();
    by_seat.sort_by_key(|s| s.seat);
    let subjects: Vec<Subject> = by_seat
        .iter()
        .map(|s| Subject::one(m.category, &s.account))
        .collect();
    let before: Vec<Rating> = subjects.iter().map(aged).collect();
    let mut out = Vec::new();
    for (at, seat) in by_seat.iter().enumerate() {
        if !m.left.contains(&seat.seat) {
            continue;
        }
        let lost = m.side_of(seat.seat);
        // Side 0's score when the leaver's side scored nothing.
        let side0 = if lost == 0 { 0.0 } else { 1.0 };
        let after = match (m.category, <[Rating; 4]>::try_from(before.clone())) {
            (Category::Four, Ok(four)) => {
                burraco_ratings::pairs::update_four_weighted(four, side0, weight, cfg)[at]
            }
            (Category::Four, Err(_)) => continue,
            _ => {
                let other = before[usize::from(at == 0)];
                burraco_ratings::update_two(before[at], other, 0.0, weight, cfg)[0]
            }
        };
        out.push(Change {
            subject: subjects[at].clone(),
            bot: seat.bot,
            before: before[at],
            after,
        });
    }
    out
}

/// Why a finished rated match changed no rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotRated {
    /// Its moves took less than `ServerConfig::rated_min_play`.
    TooShort,
    /// The same accounts played `ServerConfig::rated_daily_cap` rated matches in the last day.
    DailyCap,
}

impl NotRated {
    pub fn as_str(self) -> &'static str {
        match self {
            NotRated::TooShort => "too_short",
            NotRated::DailyCap => "daily_cap",
        }
    }
}

/// What [`Ratings::apply`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Applied {
    /// The match's key was stored with these changes (none, and why, when not rated).
    Rated(Vec<Change>),
    NotRated(NotRated),
    /// The key was already stored: nothing changed (a retry, or another node was first).
    AlreadyApplied,
}

/// The rules [`Ratings::apply`] applies inside its transaction.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    pub min_play_ms: u64,
    pub daily_cap: u32,
    pub now_ms: i64,
}

/// Decides, inside the store's transaction, what a match does: not rated (too short, or over the
/// daily cap given the same accounts' `rated_today`), else its [`changes`].
pub fn decide(
    m: &FinishedMatch,
    policy: Policy,
    rated_today: u32,
    current: &HashMap<Subject, Stored>,
) -> Result<Vec<Change>, NotRated> {
    if m.play_ms < policy.min_play_ms {
        return Err(NotRated::TooShort);
    }
    if rated_today >= policy.daily_cap {
        return Err(NotRated::DailyCap);
    }
    Ok(changes(m, current, policy.now_ms, &Config::new()))
}

/// A rating as the API shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    pub subject: Subject,
    pub rating: Rating,
    pub matches: i64,
    pub last_ms: i64,
    pub bot: bool,
    /// The members' names, in the order of `subject.members`.
    pub names: Vec<String>,
}

/// A point of a rating's history: after the match `key`, at `at_ms`.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryPoint {
    pub category: Category,
    pub key: String,
    pub at_ms: i64,
    pub before: f64,
    pub rating: f64,
    pub deviation: f64,
}

/// A line of the weekly board: the rating gained in a calendar week and the matches played.
#[derive(Debug, Clone, PartialEq)]
pub struct WeeklyRow {
    pub subject: Subject,
    pub gain: f64,
    pub matches: i64,
    pub rating: f64,
    pub names: Vec<String>,
}

/// A table in the match-end projections' pending list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub key: String,
    /// When its match ended ([`Ratings::ended`]); `None` for a rated table still expected.
    pub ended_ms: Option<i64>,
}

/// The ratings' storage, and the match-end projections' pending list.
pub trait Ratings: Send + Sync + std::fmt::Debug {
    /// Whether this server keeps ratings at all: false for [`sqlite::Unconfigured`] (a cluster
    /// without `--database-url`), where rated play is refused `rated_unavailable` before
    /// anything is created (protocol 1.7), not failed half way with `internal_error`.
    fn available(&self) -> bool {
        true
    }
    /// Records that table `key` is rated, before its first log entry: a sweep settles it once
    /// its log ends, whatever happens to the node that serves it.
    fn expect<'a>(&'a self, key: &'a str, at_ms: i64) -> PortFuture<'a, Result<(), PortError>>;
    /// Records that table `key`'s match ends at `ended_ms` (any table's, rated or not), before
    /// its end is logged: the pending row of every match-end projection (`crate::projections`).
    /// A row there already (a rated table's expectation) keeps its place and learns the time;
    /// a second call keeps the first time.
    fn ended<'a>(&'a self, key: &'a str, ended_ms: i64) -> PortFuture<'a, Result<(), PortError>>;
    /// The pending tables, oldest first, at most `limit`.
    fn expected(&self, limit: u32) -> PortFuture<'_, Result<Vec<Pending>, PortError>>;
    /// Forgets a pending table: every projection of its match is done, or it has none.
    fn forget<'a>(&'a self, key: &'a str) -> PortFuture<'a, Result<(), PortError>>;
    /// In one transaction: unless `m.key` is stored already, stores it with what [`decide`]
    /// says (the new ratings, a history point each, each change added to its subject's row of
    /// the week, [`weekly`]). The pending row stays (the other projections may not be done).
    fn apply<'a>(
        &'a self,
        m: &'a FinishedMatch,
        policy: Policy,
    ) -> PortFuture<'a, Result<Applied, PortError>>;
    /// The current ratings of `subjects` that exist.
    fn ratings<'a>(
        &'a self,
        subjects: &'a [Subject],
    ) -> PortFuture<'a, Result<HashMap<Subject, Stored>, PortError>>;
    /// Every rating an account has (its own in each category, and its fixed pairs').
    fn ratings_of<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<RatingRow>, PortError>>;
    /// An account's history points (its own categories), oldest first, the last `limit`.
    fn history<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<HistoryPoint>, PortError>>;
    /// The best established ratings of `category` (deviation under the provisional bound,
    /// played since `active_since_ms`), bot accounts' or people's, highest first.
    fn leaderboard<'a>(
        &'a self,
        category: Category,
        bots: bool,
        active_since_ms: i64,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<RatingRow>, PortError>>;
    /// The rating gained in `category` in the calendar week starting at `week_ms`
    /// ([`weekly::week_of`]), highest first (then by subject): the top of its rows in
    /// `rating_weeks`, which [`Ratings::apply`] keeps.
    fn weekly<'a>(
        &'a self,
        category: Category,
        bots: bool,
        week_ms: i64,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<WeeklyRow>, PortError>>;
    /// Whether the match `key` is stored, and whether it was rated.
    fn match_applied<'a>(&'a self, key: &'a str)
    -> PortFuture<'a, Result<Option<bool>, PortError>>;
}

/// The levels of these accounts in these categories, where established (for the lobby).
pub async fn levels(
    ratings: &dyn Ratings,
    wanted: &[(String, Category)],
) -> Result<HashMap<(String, Category), Level>, PortError> {
    if wanted.is_empty() {
        return Ok(HashMap::new());
    }
    let subjects: Vec<Subject> = wanted
        .iter()
        .map(|(account, category)| Subject::one(*category, account))
        .collect();
    let stored = ratings.ratings(&subjects).await?;
    Ok(stored
        .into_iter()
        .filter_map(|(subject, stored)| {
            let level = burraco_ratings::level(&stored.rating)?;
            Some(((subject.members.first()?.clone(), subject.category), level))
        })
        .collect())
}

/// The ratings' store this server uses: PostgreSQL given a database URL; else the SQLite file
/// of a single node; none in a cluster without one (rated play is then refused).
pub async fn open(
    config: &crate::config::ServerConfig,
    store: &crate::store::Store,
    database: Option<&crate::store::postgres::Database>,
) -> Result<Arc<dyn Ratings>, PortError> {
    Ok(match (database, &config.cluster) {
        (Some(db), _) => Arc::new(postgres::PostgresRatings::new(db)),
        (None, None) => Arc::new(sqlite::SqliteRatings::open(store)?),
        (None, Some(_)) => Arc::new(sqlite::Unconfigured),
    })
}

/// The ratings' projection of a match's end (`crate::projections`): reads the match from its
/// table's `entries` and applies it, exactly once by its key; `left`: the seats whose players
/// left it (fair play's outcomes, judged first). Nothing for an unrated table or one closed.
pub async fn settle_log(
    ratings: &dyn Ratings,
    config: &crate::config::ServerConfig,
    key: &str,
    entries: &[Vec<u8>],
    left: &[u8],
) -> Result<Option<Applied>, PortError> {
    let LoggedEnd::Finished(mut m) = FinishedMatch::from_log(key, entries) else {
        return Ok(None);
    };
    m.left = left.to_vec();
    let policy = Policy {
        min_play_ms: config.rated_min_play.as_millis() as u64,
        daily_cap: config.rated_daily_cap,
        now_ms: crate::ids::unix_ms(),
    };
    let applied = ratings.apply(&m, policy).await?;
    if let Applied::NotRated(why) = &applied {
        tracing::info!(table = key, reason = why.as_str(), "match not rated");
    }
    Ok(Some(applied))
}

/// Rated quick play: a waiting rated table takes a newcomer whose rating is within this many
/// points of its seated accounts' mean...
pub const QUICK_PLAY_WINDOW: f64 = 150.0;

/// ...widened by this many points per second the table has waited (a minute: 450; three
/// minutes: 1,050, anyone in practice), so nobody waits long for a close match.
pub const QUICK_PLAY_WIDENING_PER_SEC: f64 = 5.0;

/// How far from a waiting rated table's mean rating quick play reaches once it has waited
/// `waited_ms`: [`QUICK_PLAY_WINDOW`] widened by [`QUICK_PLAY_WIDENING_PER_SEC`].
pub fn quick_play_window(waited_ms: i64) -> f64 {
    QUICK_PLAY_WINDOW + QUICK_PLAY_WIDENING_PER_SEC * (waited_ms.max(0) as f64 / 1000.0)
}

/// A waiting rated table, as rated quick play weighs it.
#[derive(Debug, Clone, PartialEq)]
pub struct WaitingTable {
    pub table: String,
    /// The mean rating of the accounts seated (a new rating's for none).
    pub mean_rating: f64,
    pub waited_ms: i64,
}

/// The table whose mean rating is closest to `rating` among those whose window (by their wait)
/// reaches it; ties go to the table that has waited longest. `None`: open a new table.
pub fn closest_table(rating: f64, tables: &[WaitingTable]) -> Option<String> {
    tables
        .iter()
        .filter(|t| (t.mean_rating - rating).abs() <= quick_play_window(t.waited_ms))
        .min_by(|a, b| {
            let (ga, gb) = (
                (a.mean_rating - rating).abs(),
                (b.mean_rating - rating).abs(),
            );
            ga.total_cmp(&gb).then(b.waited_ms.cmp(&a.waited_ms))
        })
        .map(|t| t.table.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use burraco_protocol::log::TableEntry;

    fn waiting(table: &str, mean_rating: f64, waited_ms: i64) -> WaitingTable {
        WaitingTable {
            table: table.into(),
            mean_rating,
            waited_ms,
        }
    }

    #[test]
    fn rated_quick_play_seats_the_closest_rating_within_a_window_widening_with_the_wait() {
        let tables = [waiting("t-far", 1900.0, 0), waiting("t-near", 1580.0, 0)];
        assert_eq!(closest_table(1500.0, &tables).as_deref(), Some("t-near"));
        // 400 points apart: no table at once, the far one after a minute's wait (window 450).
        assert_eq!(closest_table(1500.0, &tables[..1]), None);
        let waited = [waiting("t-far", 1900.0, 60_000)];
        assert_eq!(closest_table(1500.0, &waited).as_deref(), Some("t-far"));
        // Equally close: the one that has waited longest.
        let tied = [waiting("t-a", 1550.0, 1_000), waiting("t-b", 1450.0, 9_000)];
        assert_eq!(closest_table(1500.0, &tied).as_deref(), Some("t-b"));
    }

    #[test]
    fn a_match_against_a_bot_account_moves_a_rating_half_as_far_and_four_rate_their_pairs() {
        let seat = |seat: u8, account: &str, bot: bool| RatedSeat {
            seat,
            account: account.into(),
            bot,
        };
        let people = FinishedMatch {
            key: "t-1".into(),
            category: Category::Two,
            seats: vec![seat(0, "u-n", false), seat(2, "u-s", false)],
            vp: [16, 4],
            play_ms: 600_000,
            left: Vec::new(),
        };
        let against_bot = FinishedMatch {
            seats: vec![seat(0, "u-n", true), seat(2, "u-s", false)],
            ..people.clone()
        };
        let gain = |m: &FinishedMatch| {
            let changes = changes(m, &HashMap::new(), 0, &Config::new());
            let south = changes
                .iter()
                .find(|c| c.subject.members == ["u-s"])
                .expect("south rated");
            south.after.rating - south.before.rating
        };
        assert!(gain(&people) > 0.0);
        assert!(gain(&against_bot) < gain(&people) * 0.75, "half weight");
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
        let changes = changes(&four, &HashMap::new(), 0, &Config::new());
        let pairs: Vec<&Change> = changes
            .iter()
            .filter(|c| c.subject.category == Category::FixedPair)
            .collect();
        assert_eq!(pairs.len(), 2);
        let ns = pairs.iter().find(|c| c.subject.members == ["u-n", "u-s"]);
        assert!(ns.is_some_and(|c| c.after.rating < 1500.0), "NS lost 6-14");
        assert_eq!(changes.len(), 6);
    }

    #[test]
    fn an_arena_match_against_a_server_bot_moves_the_bot_only_against_the_fixed_anchor() {
        let anchor = finished::anchor_account("L2");
        let seat = |seat: u8, account: &str| RatedSeat {
            seat,
            account: account.into(),
            bot: true,
        };
        let m = FinishedMatch {
            key: "A-1".into(),
            category: Category::Two,
            seats: vec![seat(2, "u-bot"), seat(0, &anchor)],
            vp: [15, 5],
            play_ms: 600_000,
            left: Vec::new(),
        };
        // The anchor is never read from the store, nor written.
        assert_eq!(subjects(&m), vec![Subject::one(Category::Two, "u-bot")]);
        let cfg = Config::new();
        let got = changes(&m, &HashMap::new(), 0, &cfg);
        assert_eq!(got.len(), 1, "{got:?}");
        let fixed = finished::anchor(&anchor).expect("L2 is an anchor");
        assert_eq!(fixed.rating, 1645.0);
        let outcome = Outcome {
            opponent: fixed,
            score: 0.75,
            weight: 1.0,
        };
        let expected = burraco_ratings::update(Rating::new(), &[outcome], &cfg);
        assert!(
            (got[0].after.rating - expected.rating).abs() < 1e-9,
            "{got:?}"
        );
        assert!(got[0].after.rating > 1500.0);
        assert_eq!(finished::anchor("u-bot"), None);
        assert_eq!(finished::anchor(&finished::anchor_account("L9")), None);
    }

    #[test]
    fn a_leaver_alone_loses_0_20_and_nobody_else_moves() {
        let seat = |seat: u8, account: &str| RatedSeat {
            seat,
            account: account.into(),
            bot: false,
        };
        // North-South won 14-6, but North left: North loses as 0-20, nobody else is rated.
        let four = FinishedMatch {
            key: "t-3".into(),
            category: Category::Four,
            seats: vec![
                seat(0, "u-n"),
                seat(1, "u-e"),
                seat(2, "u-s"),
                seat(3, "u-w"),
            ],
            vp: [14, 6],
            play_ms: 600_000,
            left: vec![0],
        };
        let cfg = Config::new();
        let got = changes(&four, &HashMap::new(), 0, &cfg);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].subject, Subject::one(Category::Four, "u-n"));
        let as_routed = FinishedMatch {
            vp: [0, 20],
            left: Vec::new(),
            ..four.clone()
        };
        let routed = changes(&as_routed, &HashMap::new(), 0, &cfg);
        let north = routed
            .iter()
            .find(|c| c.subject == Subject::one(Category::Four, "u-n"))
            .expect("north");
        assert_eq!(got[0].after, north.after, "the same as losing 0-20");
        assert!(got[0].after.rating < 1500.0);
        // Head to head: South left a match it was winning; only South moves, and down.
        let two = FinishedMatch {
            key: "t-4".into(),
            category: Category::Two,
            seats: vec![seat(0, "u-n"), seat(2, "u-s")],
            vp: [4, 16],
            play_ms: 600_000,
            left: vec![2],
        };
        let got = changes(&two, &HashMap::new(), 0, &cfg);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].subject, Subject::one(Category::Two, "u-s"));
        assert!(got[0].after.rating < got[0].before.rating);
    }

    #[test]
    fn a_played_log_reads_back_as_its_rated_match() {
        use super::finished::tests::{account_seat, rated_entries};
        use burraco_protocol::log::SeatHolder;
        let mut log = rated_entries([900, 300], [16, 4], Some("S"));
        let end = log.pop().expect("the match's end");
        let encoded =
            |log: &[TableEntry]| -> Vec<Vec<u8>> { log.iter().map(TableEntry::encode).collect() };
        assert_eq!(
            FinishedMatch::from_log("t-1", &encoded(&log)),
            LoggedEnd::InPlay
        );
        log.push(end);
        let LoggedEnd::Finished(m) = FinishedMatch::from_log("t-1", &encoded(&log)) else {
            panic!("finished")
        };
        assert_eq!(m.category, Category::Two);
        assert_eq!(m.vp, [16, 4], "South's 16 of 20 VP");
        assert!((m.score() - 0.8).abs() < 1e-9);
        assert_eq!(m.players_key(), "u-n,u-s");
        // Not rated: no `Rated` entry; a guest's seat; closed before the end.
        let casual: Vec<TableEntry> = log
            .iter()
            .filter(|e| **e != TableEntry::Rated)
            .cloned()
            .collect();
        assert_eq!(
            FinishedMatch::from_log("t-1", &encoded(&casual)),
            LoggedEnd::NotRated
        );
        let mut guest = log.clone();
        guest.insert(
            4,
            TableEntry::Seat {
                seat: 0,
                holder: Some(SeatHolder {
                    player: "p-g".into(),
                    name: "Gianni".into(),
                    bot: None,
                }),
            },
        );
        assert_eq!(
            FinishedMatch::from_log("t-1", &encoded(&guest)),
            LoggedEnd::NotAllAccounts
        );
        let mut twice = log.clone();
        twice[3] = account_seat(0, "u-s");
        assert_eq!(
            FinishedMatch::from_log("t-1", &encoded(&twice)),
            LoggedEnd::NotAllAccounts
        );
        let closed = vec![log[0].clone(), TableEntry::Rated, TableEntry::Closed];
        assert_eq!(
            FinishedMatch::from_log("t-1", &encoded(&closed)),
            LoggedEnd::Closed
        );
    }
}
