//! The `Ratings` port's conformance suite, on SQLite and on a PostgreSQL server the test starts:
//! a match applied once by its key (a retry and a racing second node change nothing), the
//! expectations the sweep reads, matches too short or over the daily cap recorded unrated, the
//! 4-player and fixed-pair ratings, history, the leaderboards and levels.

use burraco_ratings::{Category, Level};
use burraco_server::accounts::postgres::PostgresAccounts;
use burraco_server::accounts::sqlite::SqliteAccounts;
use burraco_server::ratings::postgres::PostgresRatings;
use burraco_server::ratings::sqlite::SqliteRatings;
use burraco_server::ratings::{
    Applied, FinishedMatch, NotRated, Policy, RatedSeat, Ratings, Subject, levels,
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

/// Head to head: South (`a`, side 0) scores `score`.
fn two(key: &str, a: &str, b: &str, score: f64) -> FinishedMatch {
    FinishedMatch {
        key: key.into(),
        category: Category::Two,
        seats: vec![seat(2, a), seat(0, b)],
        score,
        play_ms: 600_000,
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
    assert_eq!(r.expected(10).await.expect("read"), vec!["t-1".to_owned()]);

    // Anna beats Bruno 15-5: both move, once.
    let first = two("t-1", "u-anna", "u-bruno", 0.75);
    assert_eq!(
        rated(&r.apply(&first, policy(NOW, 5)).await.expect("apply")),
        2
    );
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
    let racing = two("t-race", "u-carla", "u-dario", 0.5);
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
        ..two("t-short", "u-anna", "u-bruno", 1.0)
    };
    assert_eq!(
        r.apply(&short, policy(NOW, 5)).await.expect("apply"),
        Applied::NotRated(NotRated::TooShort)
    );
    assert_eq!(r.match_applied("t-short").await.expect("read"), Some(false));
    assert_eq!(rating(r, Category::Two, "u-anna").await, (anna, 1));

    // The same two accounts: at most 2 rated matches a day here (t-1 was the first).
    let second = two("t-2", "u-bruno", "u-anna", 0.5);
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
            &two("t-3", "u-anna", "u-bruno", 0.9),
            policy(NOW + 120_000, 2)
        )
        .await
        .expect("apply"),
        Applied::NotRated(NotRated::DailyCap)
    );
    // A day later the count starts again.
    let later = two("t-4", "u-anna", "u-bruno", 0.6);
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
        score: 0.8,
        play_ms: 600_000,
    };
    assert_eq!(
        rated(&r.apply(&four, policy(NOW, 5)).await.expect("apply")),
        6
    );
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
        let m = two(&format!("t-g{n}"), "u-gina", "u-ugo", 0.7);
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
    let weekly = r
        .weekly(Category::Two, false, now - DAY_MS, 10)
        .await
        .expect("weekly");
    assert_eq!(weekly[0].subject.members, ["u-gina"]);
    assert_eq!(weekly[0].matches, 30);
    assert!(weekly[0].gain > 0.0);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_ratings_conform() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    SqliteAccounts::open(&store).expect("migrations");
    let r = SqliteRatings::open(&store).expect("ratings");
    let other = SqliteRatings::open_dir(dir.path()).expect("a second connection");
    conformance(&r, &other).await;
    drop((r, other, store));
    writer.join();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_ratings_conform() {
    let postgres = Postgres::start();
    let url = postgres.url();
    PostgresAccounts::connect(&url).await.expect("migrations");
    let (a, b) = tokio::join!(
        PostgresRatings::connect(&url),
        PostgresRatings::connect(&url)
    );
    conformance(&a.expect("node a"), &b.expect("node b")).await;
}
