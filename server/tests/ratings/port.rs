//! The `Ratings` port's conformance suite, on SQLite and on a PostgreSQL server the test starts:
//! a match applied once by its key (a retry and a racing second node change nothing), the
//! expectations the sweep reads, matches too short or over the daily cap recorded unrated, the
//! 4-player and fixed-pair ratings, history, the leaderboards (the weekly board's weeks as the
//! matches keep them, and as the migration's backfill finds them; both boards' SQLite plans read
//! their index in order) and levels. The boards' reads at a million ratings are measured by
//! `server/examples/leaderboards.rs` (docs/PERFORMANCE.md).

use burraco_ratings::{Category, Level};
use burraco_server::accounts::sqlite::SqliteAccounts;
use burraco_server::ratings::postgres::PostgresRatings;
use burraco_server::ratings::sqlite::{SqliteRatings, WEEKLY_BOARD};
use burraco_server::ratings::weekly::{BACKFILL, week_of};
use burraco_server::ratings::{
    Applied, FinishedMatch, NotRated, Pending, Policy, RatedSeat, Ratings, Subject, WeeklyRow,
    levels,
};
use burraco_server::store::Store;

use crate::accounts::Postgres;

const DAY_MS: i64 = 86_400_000;
const NOW: i64 = 1_764_000_000_000;

fn seat(seat: u8, account: &str) -> RatedSeat {
    RatedSeat {
        seat,
        account: account.into(),
        bot: false,
    }
}

/// Head to head: South (`a`, side 0) scores `vp`, North `b` the rest.
fn two(key: &str, a: &str, b: &str, vp: [u8; 2]) -> FinishedMatch {
    FinishedMatch {
        key: key.into(),
        category: Category::Two,
        seats: vec![seat(2, a), seat(0, b)],
        vp,
        play_ms: 600_000,
        left: Vec::new(),
    }
}

fn policy(now_ms: i64, daily_cap: u32) -> Policy {
    Policy {
        min_play_ms: 60_000,
        daily_cap,
        now_ms,
    }
}

fn rated(applied: &Applied) -> usize {
    match applied {
        Applied::Rated(changes) => changes.len(),
        other => panic!("not rated: {other:?}"),
    }
}

async fn rating(r: &dyn Ratings, category: Category, account: &str) -> (f64, i64) {
    let subject = Subject::one(category, account);
    let stored = r
        .ratings(std::slice::from_ref(&subject))
        .await
        .expect("read");
    stored
        .get(&subject)
        .map_or((1500.0, 0), |s| (s.rating.rating, s.matches))
}

pub async fn conformance(r: &dyn Ratings, other_node: &dyn Ratings) {
    // Expected before the table's first entry; the sweep reads the expectations.
    r.expect("t-1", NOW).await.expect("expect");
    r.expect("t-1", NOW).await.expect("expecting twice is once");
    let pending = |key: &str, ended_ms: Option<i64>| Pending {
        key: key.into(),
        ended_ms,
    };
    assert_eq!(
        r.expected(10).await.expect("read"),
        vec![pending("t-1", None)]
    );
    // Every table's match is pending once it ends (the match-end projections' list): a rated
    // table's row learns when, another's is new; a second end keeps the first time.
    r.ended("t-1", NOW + 50).await.expect("ended");
    other_node
        .ended("t-1", NOW + 90)
        .await
        .expect("ended again");
    r.ended("t-casual", NOW + 60).await.expect("ended");
    assert_eq!(
        r.expected(10).await.expect("read"),
        vec![
            pending("t-1", Some(NOW + 50)),
            pending("t-casual", Some(NOW + 60))
        ]
    );
    assert_eq!(r.expected(1).await.expect("read").len(), 1, "limited");

    // Anna beats Bruno 15-5: both move, once.
    let first = two("t-1", "u-anna", "u-bruno", [15, 5]);
    assert_eq!(
        rated(&r.apply(&first, policy(NOW, 5)).await.expect("apply")),
        2
    );
    // The pending row stays until every projection is done: then it is forgotten.
    assert_eq!(
        r.expected(10).await.expect("read").len(),
        2,
        "still pending"
    );
    r.forget("t-1").await.expect("forget");
    other_node.forget("t-casual").await.expect("forget");
    other_node
        .forget("t-casual")
        .await
        .expect("forgetting twice");
    assert!(r.expected(10).await.expect("read").is_empty(), "settled");
    let (anna, matches) = rating(r, Category::Two, "u-anna").await;
    assert!(anna > 1500.0 && matches == 1, "{anna} {matches}");
    let (bruno, _) = rating(r, Category::Two, "u-bruno").await;
    assert!(bruno < 1500.0, "{bruno}");
    // A retry, here or through another node, changes nothing.
    for store in [r, other_node] {
        assert_eq!(
            store
                .apply(&first, policy(NOW + 1000, 5))
                .await
                .expect("apply"),
            Applied::AlreadyApplied
        );
    }
    assert_eq!(rating(r, Category::Two, "u-anna").await, (anna, 1));
    assert_eq!(r.match_applied("t-1").await.expect("read"), Some(true));
    assert_eq!(r.match_applied("t-none").await.expect("read"), None);

    // Two nodes applying one match at the same moment: one rates it, the other finds it.
    let racing = two("t-race", "u-carla", "u-dario", [10, 10]);
    let (x, y) = tokio::join!(
        r.apply(&racing, policy(NOW, 5)),
        other_node.apply(&racing, policy(NOW, 5))
    );
    let outcomes = [x.expect("apply"), y.expect("apply")];
    assert_eq!(
        outcomes
            .iter()
            .filter(|o| **o == Applied::AlreadyApplied)
            .count(),
        1,
        "{outcomes:?}"
    );
    assert_eq!(rating(r, Category::Two, "u-carla").await.1, 1);

    // Thrown away in seconds: recorded, not rated.
    let short = FinishedMatch {
        play_ms: 5_000,
        ..two("t-short", "u-anna", "u-bruno", [20, 0])
    };
    assert_eq!(
        r.apply(&short, policy(NOW, 5)).await.expect("apply"),
        Applied::NotRated(NotRated::TooShort)
    );
    assert_eq!(r.match_applied("t-short").await.expect("read"), Some(false));
    assert_eq!(rating(r, Category::Two, "u-anna").await, (anna, 1));

    // The same two accounts: at most 2 rated matches a day here (t-1 was the first).
    let second = two("t-2", "u-bruno", "u-anna", [10, 10]);
    assert_eq!(
        rated(
            &r.apply(&second, policy(NOW + 60_000, 2))
                .await
                .expect("apply")
        ),
        2
    );
    assert_eq!(
        r.apply(
            &two("t-3", "u-anna", "u-bruno", [18, 2]),
            policy(NOW + 120_000, 2)
        )
        .await
        .expect("apply"),
        Applied::NotRated(NotRated::DailyCap)
    );
    // A day later the count starts again.
    let later = two("t-4", "u-anna", "u-bruno", [12, 8]);
    assert_eq!(
        rated(
            &r.apply(&later, policy(NOW + DAY_MS + 1, 2))
                .await
                .expect("apply")
        ),
        2
    );
    let history = r.history("u-anna", 10).await.expect("history");
    let keys: Vec<&str> = history.iter().map(|p| p.key.as_str()).collect();
    assert_eq!(
        keys,
        ["t-1", "t-2", "t-4"],
        "oldest first, rated matches only"
    );
    assert!(history.iter().all(|p| p.category == Category::Two));
    assert_eq!(history[0].before, 1500.0);

    // Four players: each player, and each side as a fixed pair (its accounts sorted).
    let four = FinishedMatch {
        key: "t-four".into(),
        category: Category::Four,
        seats: vec![
            seat(0, "u-nord"),
            seat(1, "u-est"),
            seat(2, "u-sud"),
            seat(3, "u-ovest"),
        ],
        vp: [16, 4],
        play_ms: 600_000,
        left: Vec::new(),
    };
    assert_eq!(
        rated(&r.apply(&four, policy(NOW, 5)).await.expect("apply")),
        6
    );
    // The same four again, North gone before the end: North alone loses it, 0-20; the pairs,
    // North's partner and the opponents keep their ratings.
    let (sud, est) = (
        rating(r, Category::Four, "u-sud").await,
        rating(r, Category::Four, "u-est").await,
    );
    let left = FinishedMatch {
        key: "t-four-left".into(),
        left: vec![0],
        ..four.clone()
    };
    assert_eq!(
        rated(&r.apply(&left, policy(NOW + 1, 5)).await.expect("apply")),
        1
    );
    assert_eq!(rating(r, Category::Four, "u-sud").await, sud);
    assert_eq!(rating(r, Category::Four, "u-est").await, est);
    assert_eq!(rating(r, Category::Four, "u-nord").await.1, 2);
    let mine = r.ratings_of("u-sud").await.expect("read");
    let categories: Vec<Category> = mine.iter().map(|row| row.subject.category).collect();
    assert!(categories.contains(&Category::Four), "{mine:?}");
    let pair = mine
        .iter()
        .find(|row| row.subject.category == Category::FixedPair)
        .expect("the pair's rating");
    assert_eq!(pair.subject.members, ["u-nord", "u-sud"]);
    assert!(pair.rating.rating > 1500.0);
    assert!(rating(r, Category::Four, "u-est").await.0 < 1500.0);

    // Established ratings reach the board: many matches between Gina and Ugo.
    let mut now = NOW + 2 * DAY_MS;
    for n in 0..30 {
        let m = two(&format!("t-g{n}"), "u-gina", "u-ugo", [14, 6]);
        now += 60_000;
        rated(&r.apply(&m, policy(now, 1000)).await.expect("apply"));
    }
    let board = r
        .leaderboard(Category::Two, false, now - DAY_MS, 10)
        .await
        .expect("board");
    let who: Vec<&str> = board
        .iter()
        .map(|row| row.subject.members[0].as_str())
        .collect();
    assert_eq!(who, ["u-gina", "u-ugo"], "established, active, best first");
    assert!(board.iter().all(|row| !row.rating.is_provisional()));
    // Provisional ratings (Anna's) and inactive ones are not listed; bots have their own board.
    assert!(
        r.leaderboard(Category::Two, false, now + 1, 10)
            .await
            .expect("board")
            .is_empty()
    );
    assert!(
        r.leaderboard(Category::Two, true, 0, 10)
            .await
            .expect("board")
            .is_empty()
    );
    let week = week_of(now);
    let weekly = r
        .weekly(Category::Two, false, week, 10)
        .await
        .expect("weekly");
    assert_eq!(weekly[0].subject.members, ["u-gina"]);
    assert_eq!(weekly[0].matches, 30);
    assert!(weekly[0].gain > 0.0);
    // The week's rows are kept by each match's transaction: Gina's gain is her history's.
    let gained: f64 = r
        .history("u-gina", 500)
        .await
        .expect("history")
        .iter()
        .filter(|p| p.category == Category::Two && week_of(p.at_ms) == week)
        .map(|p| p.rating - p.before)
        .sum();
    assert!((weekly[0].gain - gained).abs() < 1e-6, "{weekly:?}");
    let gains = |rows: &[WeeklyRow]| -> Vec<(String, i64)> {
        rows.iter().map(|w| (w.subject.key(), w.matches)).collect()
    };
    // A match in the next week starts that week's board and leaves this one as it was.
    let next_week = week + 7 * DAY_MS;
    let upset = two("t-next", "u-ugo", "u-gina", [20, 0]);
    rated(
        &r.apply(&upset, policy(next_week + 3_600_000, 1000))
            .await
            .expect("apply"),
    );
    let next = r
        .weekly(Category::Two, false, next_week, 10)
        .await
        .expect("weekly");
    assert_eq!(
        gains(&next),
        [("u-ugo".into(), 1), ("u-gina".into(), 1)],
        "the winner first"
    );
    let again = r
        .weekly(Category::Two, false, week, 10)
        .await
        .expect("weekly");
    assert_eq!(gains(&again), gains(&weekly));
    // Bots' board is their own; a week with nothing rated is empty.
    assert!(
        r.weekly(Category::Two, true, week, 10)
            .await
            .expect("weekly")
            .is_empty()
    );
    assert!(
        r.weekly(Category::Two, false, week - 7 * DAY_MS, 10)
            .await
            .expect("weekly")
            .is_empty()
    );
    let found = levels(
        r,
        &[
            ("u-gina".into(), Category::Two),
            ("u-anna".into(), Category::Two),
        ],
    )
    .await
    .expect("levels");
    assert!(
        found
            .get(&("u-gina".into(), Category::Two))
            .is_some_and(|l| *l > Level::Beginner)
    );
    assert!(
        !found.contains_key(&("u-anna".into(), Category::Two)),
        "provisional: no level"
    );

    // An expectation with nothing to rate is forgotten.
    r.expect("t-closed", NOW).await.expect("expect");
    r.forget("t-closed").await.expect("forget");
    assert!(r.expected(10).await.expect("read").is_empty());
}

/// Every weekly board the conformance suite wrote (its two weeks, every category, people's and
/// bots'): subject, matches and gain (to a millionth).
async fn weekly_boards(r: &dyn Ratings) -> Vec<(String, i64, i64)> {
    let mut rows = Vec::new();
    for week in [week_of(NOW), week_of(NOW) + 7 * DAY_MS] {
        for category in [Category::Two, Category::Four, Category::FixedPair] {
            for bots in [false, true] {
                for row in r.weekly(category, bots, week, 100).await.expect("weekly") {
                    let gain = (row.gain * 1e6).round() as i64;
                    rows.push((row.subject.key(), row.matches, gain));
                }
            }
        }
    }
    assert!(rows.len() > 6, "{rows:?}");
    rows
}

/// The accounts' migration 15 fills the weeks from the history alone (`weekly::BACKFILL`): run
/// again on emptied weeks, it finds the boards the matches' transactions kept.
const REFILL: &str = "DELETE FROM rating_weeks;";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_ratings_conform() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    SqliteAccounts::open(&store).expect("migrations");
    let r = SqliteRatings::open(&store).expect("ratings");
    let other = SqliteRatings::open_dir(dir.path()).expect("a second connection");
    conformance(&r, &other).await;
    let kept = weekly_boards(&r).await;
    let conn = store.reader().expect("a connection");
    conn.execute_batch(&format!("{REFILL} {BACKFILL}"))
        .expect("the backfill");
    assert_eq!(weekly_boards(&r).await, kept);
    // Both boards walk their index from the top: no temporary B-tree (a sort). The all-time
    // board's filter and order, as `SqliteRatings::leaderboard` reads them.
    let all_time = "SELECT rating FROM ratings INDEXED BY ratings_board
        WHERE category = ?2 AND bot = ?3 AND deviation < 110 AND last_ms >= ?1
        ORDER BY rating DESC LIMIT ?4";
    for (board, query) in [
        ("rating_weeks_board", WEEKLY_BOARD),
        ("ratings_board", all_time),
    ] {
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {query}"))
            .expect("plan")
            .query_map(rusqlite::params![week_of(NOW), "two", false, 100], |r| {
                r.get::<_, String>(3)
            })
            .expect("plan")
            .collect::<Result<_, _>>()
            .expect("plan");
        assert!(
            plan.iter().all(|step| !step.contains("TEMP B-TREE")),
            "read in the index's order: {plan:?}"
        );
        assert!(plan.iter().any(|step| step.contains(board)), "{plan:?}");
    }
    drop(conn);
    drop((r, other, store));
    writer.join();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_ratings_conform() {
    let postgres = Postgres::start();
    let (a, b) = tokio::join!(postgres.node(), postgres.node());
    let r = PostgresRatings::new(&a);
    conformance(&r, &PostgresRatings::new(&b)).await;
    let kept = weekly_boards(&r).await;
    let (client, connection) = tokio_postgres::connect(&postgres.url(), tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(connection);
    client
        .batch_execute(&format!("{REFILL} {BACKFILL}"))
        .await
        .expect("the backfill");
    assert_eq!(weekly_boards(&r).await, kept);
}
