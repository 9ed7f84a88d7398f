//! The `Seasons` port's conformance suite, on SQLite and on a PostgreSQL server the test starts:
//! a rated match's points written by the ratings' own transaction (once, however often it is
//! applied, and none for a match not rated), the bots' own ladder, four players and their
//! pairs, a tournament's award once by its key (a retry and a racing second node add nothing),
//! past seasons listed, a ladder's order and pages, an account's lines.

use burraco_ratings::Category;
use burraco_server::accounts::sqlite::SqliteAccounts;
use burraco_server::ratings::postgres::PostgresRatings;
use burraco_server::ratings::sqlite::SqliteRatings;
use burraco_server::ratings::{Applied, FinishedMatch, Policy, RatedSeat, Ratings, Subject};
use burraco_server::seasons::postgres::PostgresSeasons;
use burraco_server::seasons::sqlite::SqliteSeasons;
use burraco_server::seasons::{Season, Seasons, season_of, tournament_award};
use burraco_server::store::Store;

use crate::accounts::Postgres;

/// 2025-11-24: the season 2025-q4.
const NOW: i64 = 1_764_000_000_000;
/// 2025-02-19: the season 2025-q1.
const LAST_WINTER: i64 = 1_740_000_000_000;

fn seat(seat: u8, account: &str, bot: bool) -> RatedSeat {
    RatedSeat {
        seat,
        account: account.into(),
        bot,
    }
}

/// Head to head: South (`a`, side 0) scores `vp`, North `b` the rest.
fn two(key: &str, a: &str, b: &str, vp: [u8; 2]) -> FinishedMatch {
    FinishedMatch {
        key: key.into(),
        category: Category::Two,
        seats: vec![seat(2, a, false), seat(0, b, false)],
        vp,
        play_ms: 600_000,
        left: Vec::new(),
    }
}

fn policy(now_ms: i64) -> Policy {
    Policy {
        min_play_ms: 60_000,
        daily_cap: 100,
        now_ms,
    }
}

/// A ladder page as (subject, points, matches).
async fn ladder(
    s: &dyn Seasons,
    season: Season,
    category: Category,
    bots: bool,
) -> Vec<(String, i64, i64)> {
    s.ladder(season, category, bots, 100, 0)
        .await
        .expect("ladder")
        .iter()
        .map(|r| (r.subject.key(), r.points, r.matches))
        .collect()
}

fn rows(list: &[(&str, i64, i64)]) -> Vec<(String, i64, i64)> {
    list.iter()
        .map(|(k, p, m)| ((*k).to_owned(), *p, *m))
        .collect()
}

pub async fn conformance(r: &dyn Ratings, s: &dyn Seasons, other_node: &dyn Seasons) {
    let season = season_of(NOW);
    assert_eq!(season.id(), "2025-q4");
    assert!(s.seasons().await.expect("seasons").is_empty());

    // Anna beats Bruno 15-5: 3 and 0 points, a match each; a retry of the match adds nothing.
    let first = two("t-1", "u-anna", "u-bruno", [15, 5]);
    assert!(matches!(
        r.apply(&first, policy(NOW)).await.expect("apply"),
        Applied::Rated(_)
    ));
    assert!(s.awarded("match:t-1").await.expect("read"));
    assert_eq!(
        r.apply(&first, policy(NOW + 1000)).await.expect("apply"),
        Applied::AlreadyApplied
    );
    let expected = rows(&[("u-anna", 3, 1), ("u-bruno", 0, 1)]);
    assert_eq!(ladder(s, season, Category::Two, false).await, expected);
    // Thrown away in seconds: not rated, no points.
    let short = FinishedMatch {
        play_ms: 5_000,
        ..two("t-short", "u-bruno", "u-anna", [20, 0])
    };
    r.apply(&short, policy(NOW)).await.expect("apply");
    assert!(!s.awarded("match:t-short").await.expect("read"));
    assert_eq!(ladder(s, season, Category::Two, false).await, expected);
    // A draw: one each.
    r.apply(
        &two("t-2", "u-bruno", "u-anna", [10, 10]),
        policy(NOW + 60_000),
    )
    .await
    .expect("apply");
    assert_eq!(
        ladder(s, season, Category::Two, false).await,
        rows(&[("u-anna", 4, 2), ("u-bruno", 1, 2)])
    );
    // Against a bot account: the bot on the bots' ladder, Anna on the people's.
    let with_bot = FinishedMatch {
        seats: vec![seat(2, "u-anna", false), seat(0, "u-robot", true)],
        ..two("t-3", "", "", [4, 16])
    };
    r.apply(&with_bot, policy(NOW + 120_000))
        .await
        .expect("apply");
    assert_eq!(
        ladder(s, season, Category::Two, true).await,
        rows(&[("u-robot", 3, 1)])
    );
    assert_eq!(
        ladder(s, season, Category::Two, false).await,
        rows(&[("u-anna", 4, 3), ("u-bruno", 1, 2)])
    );

    // Four players: each account in `four`, each side's pair in `pair`; N-S win 14-6.
    let four = FinishedMatch {
        key: "t-4".into(),
        category: Category::Four,
        seats: vec![
            seat(0, "u-anna", false),
            seat(1, "u-carla", false),
            seat(2, "u-bruno", false),
            seat(3, "u-dario", false),
        ],
        vp: [14, 6],
        play_ms: 600_000,
        left: Vec::new(),
    };
    r.apply(&four, policy(NOW + 180_000)).await.expect("apply");
    assert_eq!(
        ladder(s, season, Category::Four, false).await,
        rows(&[
            ("u-anna", 3, 1),
            ("u-bruno", 3, 1),
            ("u-carla", 0, 1),
            ("u-dario", 0, 1)
        ])
    );
    assert_eq!(
        ladder(s, season, Category::FixedPair, false).await,
        rows(&[("u-anna+u-bruno", 3, 1), ("u-carla+u-dario", 0, 1)])
    );

    // A tournament's places, once by its key: a retry here or on another node adds nothing.
    let account = |id: &str| Some((id.to_owned(), false));
    let places = vec![
        vec![account("u-bruno")],
        vec![account("u-anna")],
        vec![None],
    ];
    let award = tournament_award("T-1", Category::Two, NOW + 240_000, &places);
    assert!(s.award(&award).await.expect("award"));
    for store in [s, other_node] {
        assert!(!store.award(&award).await.expect("award"), "once");
    }
    assert!(other_node.awarded("tournament:T-1").await.expect("read"));
    let after_tournament = rows(&[("u-bruno", 11, 2), ("u-anna", 10, 3)]);
    assert_eq!(
        ladder(s, season, Category::Two, false).await,
        after_tournament
    );
    // Two nodes awarding one tournament at the same moment: one adds it.
    let racing = tournament_award("T-2", Category::Two, NOW + 300_000, &places);
    let (x, y) = tokio::join!(s.award(&racing), other_node.award(&racing));
    let added = [x.expect("award"), y.expect("award")];
    assert_eq!(added.iter().filter(|new| **new).count(), 1, "{added:?}");
    assert_eq!(
        ladder(s, season, Category::Two, false).await,
        rows(&[("u-bruno", 21, 2), ("u-anna", 16, 3)])
    );

    // Pages: most points first, then fewer matches, then the key.
    let page: Vec<String> = s
        .ladder(season, Category::Four, false, 2, 1)
        .await
        .expect("page")
        .iter()
        .map(|r| r.subject.key())
        .collect();
    assert_eq!(page, ["u-bruno", "u-carla"]);

    // A past season: its own ladder, listed after the current one; the current one untouched.
    let past = tournament_award("T-old", Category::Two, LAST_WINTER, &places);
    assert_eq!(past.season.id(), "2025-q1");
    assert!(s.award(&past).await.expect("award"));
    assert_eq!(
        s.seasons().await.expect("seasons"),
        [season, Season::parse("2025-q1").expect("id")]
    );
    assert_eq!(
        ladder(s, past.season, Category::Two, false).await,
        rows(&[("u-bruno", 10, 0), ("u-anna", 6, 0)])
    );
    assert_eq!(
        ladder(s, season, Category::Two, false).await,
        rows(&[("u-bruno", 21, 2), ("u-anna", 16, 3)])
    );

    // An account's lines: its own in each category and its pair's, this season only.
    let mine: Vec<(String, &str, i64)> = s
        .points_of(season, "u-anna")
        .await
        .expect("points")
        .iter()
        .map(|l| (l.subject.key(), l.subject.category.as_str(), l.points))
        .collect();
    let expected_mine: Vec<(String, &str, i64)> = vec![
        ("u-anna".into(), "four", 3),
        ("u-anna+u-bruno".into(), "pair", 3),
        ("u-anna".into(), "two", 16),
    ];
    assert_eq!(mine, expected_mine, "by category");
    let pair = s.points_of(season, "u-bruno").await.expect("points");
    let pair = pair
        .iter()
        .find(|l| l.subject == Subject::pair("u-anna", "u-bruno"))
        .expect("found by its second member");
    assert_eq!(pair.names, ["u-anna", "u-bruno"], "no account: its id");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_seasons_conform() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    SqliteAccounts::open(&store).expect("migrations");
    let r = SqliteRatings::open(&store).expect("ratings");
    let s = SqliteSeasons::open(&store).expect("seasons");
    let other = SqliteSeasons::open(&store).expect("a second connection");
    conformance(&r, &s, &other).await;
    drop((r, s, other, store));
    writer.join();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_seasons_conform() {
    let postgres = Postgres::start();
    let (a, b) = tokio::join!(postgres.node(), postgres.node());
    let r = PostgresRatings::new(&a);
    let (a, b) = (PostgresSeasons::new(&a), PostgresSeasons::new(&b));
    conformance(&r, &a, &b).await;
}
