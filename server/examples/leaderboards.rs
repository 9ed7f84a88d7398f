//! The leaderboards' reads at scale (docs/PERFORMANCE.md, "Leaderboards"), on SQLite and on
//! PostgreSQL: the all-time board and the weekly board through the `Ratings` port, over a million
//! ratings and 200,000 rated results in the week.
//!
//! ```sh
//! cargo run --release -p burraco-server --example leaderboards -- [ACCOUNTS] [WEEK_RESULTS] [READS]
//! ```
//!
//! Defaults: 1,000,000 accounts rated in category `two` (ratings spread over 1000-2500, a fifth
//! established, last played up to 59 days ago, one in twenty a bot account), 200,000 results in
//! the week (two per subject, 100,000 subjects) and as many in each of the two weeks before, and
//! 1,000 reads of each board, the two boards alternated. Each store is filled by SQL (the
//! history's rows, then the accounts' migration 15's backfill of the weeks, the rows a match's
//! transaction keeps), analysed, and its weekly board's plan is checked to walk its index. For
//! comparison the example also times (20 reads) the query the weekly board ran before it was
//! kept, the history's sum per subject, over the same results (from the week's start).
//!
//! It starts its own PostgreSQL 15 (`scripts/postgres.sh`, on 127.0.0.1, its data in a temporary
//! directory) and stops it at the end; the SQLite store is a temporary directory too.

use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, bail};
use burraco_ratings::Category;
use burraco_server::accounts::postgres::PostgresAccounts;
use burraco_server::accounts::sqlite::SqliteAccounts;
use burraco_server::ratings::Ratings;
use burraco_server::ratings::postgres::PostgresRatings;
use burraco_server::ratings::sqlite::{SqliteRatings, WEEKLY_BOARD};
use burraco_server::ratings::weekly::{BACKFILL, week_of};
use burraco_server::store::Store;
use burraco_server::store::postgres::Database;

const DAY_MS: i64 = 86_400_000;
/// A Wednesday, 16:00 UTC: two and a half days into its week.
const NOW: i64 = 1_764_000_000_000 + 2 * DAY_MS;
/// Reads of the query the weekly board ran before issue 32 (seconds each at this scale).
const SCAN_READS: usize = 20;

struct Scale {
    accounts: i64,
    week_results: i64,
    reads: usize,
}

fn scale() -> anyhow::Result<Scale> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |at: usize, default: i64| -> anyhow::Result<i64> {
        args.get(at)
            .map_or(Ok(default), |a| a.parse().context("a number"))
    };
    let scale = Scale {
        accounts: arg(0, 1_000_000)?,
        week_results: arg(1, 200_000)?,
        reads: usize::try_from(arg(2, 1_000)?)?,
    };
    if !(100..=10_000_000).contains(&scale.accounts)
        || !(2..=10_000_000).contains(&scale.week_results)
        || !(1..=100_000).contains(&scale.reads)
    {
        bail!("ACCOUNTS 100..=10000000, WEEK_RESULTS 2..=10000000, READS 1..=100000");
    }
    Ok(scale)
}

/// The `INSERT ... SELECT`s of the data, after each store's own source of numbers `n(i)` (1 to
/// `count`): the ratings, then the history of three weeks (this one and the two before, each
/// `week_results` results, two per subject).
fn ratings_rows(now_ms: i64) -> String {
    format!(
        "INSERT INTO ratings (subject, category, member_a, member_b, bot, rating, deviation,
            volatility, matches, last_ms)
         SELECT 'u-' || i, 'two', 'u-' || i, NULL, (i % 20 = 0),
            1000.0 + ((i * 7919) % 15000) / 10.0, 50.0 + (i % 300), 0.06, 1 + (i % 200),
            {now_ms} - (i % 60) * 86400000
         FROM n"
    )
}

fn history_rows(s: &Scale, week_start: i64, span_ms: i64, tag: &str) -> String {
    let accounts = s.accounts;
    format!(
        "INSERT INTO rating_history (subject, category, match_key, at_ms, bot, rating_before,
            rating, deviation)
         SELECT 'u-' || k, 'two', '{tag}-' || i, {week_start} + (i * 9973) % {span_ms},
            (k % 20 = 0), 1500.0, 1500.0 + ((i * 37) % 200) - 100, 80.0
         FROM (SELECT i, ((i / 2) * 7919) % {accounts} + 1 AS k FROM n) m"
    )
}

/// The weekly board's query before issue 32: the history since a moment (then the last 7 days)
/// summed per subject (SQLite's; PostgreSQL's aggregated the joined columns with `MAX`).
fn scan_query(postgres: bool) -> &'static str {
    if postgres {
        "SELECT h.subject, SUM(h.rating - h.rating_before) AS gain, COUNT(*),
            MAX(r.rating), MAX(r.member_a), MAX(r.member_b),
            MAX(COALESCE(a.username, r.member_a)), MAX(COALESCE(b.username, r.member_b))
         FROM rating_history h
         JOIN ratings r ON r.subject = h.subject AND r.category = h.category
         LEFT JOIN accounts a ON a.id = r.member_a
         LEFT JOIN accounts b ON b.id = r.member_b
         WHERE h.category = $1 AND h.at_ms >= $2 AND h.bot = $3
         GROUP BY h.subject ORDER BY gain DESC, h.subject LIMIT $4"
    } else {
        "SELECT h.subject, SUM(h.rating - h.rating_before) AS gain, COUNT(*),
            r.rating, r.member_a, r.member_b,
            COALESCE(a.username, r.member_a), COALESCE(b.username, r.member_b)
         FROM rating_history h
         JOIN ratings r ON r.subject = h.subject AND r.category = h.category
         LEFT JOIN accounts a ON a.id = r.member_a
         LEFT JOIN accounts b ON b.id = r.member_b
         WHERE h.category = ?1 AND h.at_ms >= ?2 AND h.bot = ?3
         GROUP BY h.subject ORDER BY gain DESC, h.subject LIMIT ?4"
    }
}

/// Every statement filling a store, each after `numbers(count)`.
fn fills(s: &Scale) -> Vec<(i64, String)> {
    let week = week_of(NOW);
    let mut out = vec![(s.accounts, ratings_rows(NOW))];
    // This week up to now, and two whole weeks before it.
    out.push((s.week_results, history_rows(s, week, NOW - week, "w0")));
    for back in 1..=2 {
        let start = week - back * 7 * DAY_MS;
        let tag = format!("w{back}");
        out.push((s.week_results, history_rows(s, start, 7 * DAY_MS, &tag)));
    }
    out
}

/// Milliseconds, sorted: (p50, p99, max).
fn percentiles(mut times: Vec<f64>) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    (at(0.5), at(0.99), times[times.len() - 1])
}

fn report(store: &str, board: &str, times: Vec<f64>) {
    let reads = times.len();
    let (p50, p99, max) = percentiles(times);
    println!(
        "{store:<10} {board:<28} reads {reads:>5}  p50 {p50:>9.3} ms  p99 {p99:>9.3} ms  max {max:>9.3} ms"
    );
}

/// Times `reads` reads of each board through the port, the all-time and the weekly board
/// alternated, checking each gives a full page.
async fn boards(store: &str, r: &dyn Ratings, reads: usize) -> anyhow::Result<()> {
    let (mut all, mut week) = (Vec::with_capacity(reads), Vec::with_capacity(reads));
    for _ in 0..reads {
        let start = Instant::now();
        let rows = r
            .leaderboard(Category::Two, false, NOW - 30 * DAY_MS, 100)
            .await?;
        all.push(start.elapsed().as_secs_f64() * 1000.0);
        anyhow::ensure!(rows.len() == 100, "all time: {} rows", rows.len());
        let start = Instant::now();
        let rows = r.weekly(Category::Two, false, week_of(NOW), 100).await?;
        week.push(start.elapsed().as_secs_f64() * 1000.0);
        anyhow::ensure!(rows.len() == 100, "weekly: {} rows", rows.len());
    }
    report(store, "all time (ratings_board)", all);
    report(store, "weekly (rating_weeks_board)", week);
    Ok(())
}

fn sqlite(s: &Scale, dir: &Path) -> anyhow::Result<()> {
    let (store, writer) = Store::open(dir, false)?;
    SqliteAccounts::open(&store)?;
    {
        let conn = store.reader()?;
        let started = Instant::now();
        let mut batch = String::from("BEGIN IMMEDIATE;");
        for (count, fill) in fills(s) {
            batch.push_str(&format!(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count}) {fill};"
            ));
        }
        batch.push_str(BACKFILL);
        batch.push_str("COMMIT; ANALYZE;");
        conn.execute_batch(&batch)?;
        println!(
            "sqlite     filled in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {WEEKLY_BOARD}"))?
            .query_map(rusqlite::params![week_of(NOW), "two", false, 100], |r| {
                r.get::<_, String>(3)
            })?
            .collect::<Result<_, _>>()?;
        anyhow::ensure!(
            plan.iter().all(|step| !step.contains("TEMP B-TREE")),
            "the weekly board sorts: {plan:?}"
        );
        let mut scan = Vec::with_capacity(SCAN_READS);
        let mut stmt = conn.prepare(scan_query(false))?;
        for _ in 0..SCAN_READS {
            let start = Instant::now();
            let rows = stmt
                .query_map(rusqlite::params!["two", week_of(NOW), false, 100], |r| {
                    r.get::<_, String>(0)
                })?
                .count();
            scan.push(start.elapsed().as_secs_f64() * 1000.0);
            anyhow::ensure!(rows == 100, "the scan: {rows} rows");
        }
        report("sqlite", "weekly before (history scan)", scan);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let ratings = SqliteRatings::open(&store)?;
    runtime.block_on(boards("sqlite", &ratings, s.reads))?;
    drop((ratings, store));
    writer.join();
    Ok(())
}

/// A PostgreSQL server of the example's own, stopped when dropped.
struct Postgres {
    dir: tempfile::TempDir,
    port: u16,
}

fn script() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/postgres.sh")
}

impl Postgres {
    fn start() -> anyhow::Result<Postgres> {
        let dir = tempfile::tempdir()?;
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let path = dir.path().to_string_lossy().into_owned();
        let out = Command::new("bash")
            .arg(script())
            .args(["start", &path, &port.to_string()])
            .output()?;
        if !out.status.success() {
            bail!(
                "scripts/postgres.sh start: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Ok(Postgres { dir, port })
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let path = self.dir.path().to_string_lossy().into_owned();
        let _ = Command::new("bash")
            .arg(script())
            .args(["stop", &path])
            .output();
    }
}

async fn postgres(s: &Scale, server: &Postgres) -> anyhow::Result<()> {
    let db = Database::connect(&server.url(), 4).await?;
    PostgresAccounts::open(&db).await?;
    let (client, connection) =
        tokio_postgres::connect(&server.url(), tokio_postgres::NoTls).await?;
    let connection = tokio::spawn(connection);
    let started = Instant::now();
    for (count, fill) in fills(s) {
        client
            .batch_execute(&format!(
                "WITH n(i) AS (SELECT generate_series(1, {count})::bigint) {fill}"
            ))
            .await?;
    }
    client.batch_execute(BACKFILL).await?;
    client
        .batch_execute("ANALYZE ratings; ANALYZE rating_history; ANALYZE rating_weeks;")
        .await?;
    println!(
        "postgres   filled in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let weekly = WEEKLY_BOARD
        .replace(" INDEXED BY rating_weeks_board", "")
        .replace('?', "$");
    let plan: Vec<String> = client
        .query(
            &format!("EXPLAIN {weekly}"),
            &[&week_of(NOW), &"two", &false, &100i64],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    anyhow::ensure!(
        plan.iter().any(|line| line.contains("rating_weeks_board")),
        "the weekly board does not walk its index: {plan:#?}"
    );
    let mut scan = Vec::with_capacity(SCAN_READS);
    for _ in 0..SCAN_READS {
        let start = Instant::now();
        let rows = client
            .query(scan_query(true), &[&"two", &week_of(NOW), &false, &100i64])
            .await?;
        scan.push(start.elapsed().as_secs_f64() * 1000.0);
        anyhow::ensure!(rows.len() == 100, "the scan: {} rows", rows.len());
    }
    report("postgres", "weekly before (history scan)", scan);
    boards("postgres", &PostgresRatings::new(&db), s.reads).await?;
    drop(client);
    let _ = connection.await;
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let s = scale()?;
    println!(
        "{} ratings, {} results in the week (and in each of the two before), {} reads per board",
        s.accounts, s.week_results, s.reads
    );
    let dir = tempfile::tempdir()?;
    sqlite(&s, dir.path())?;
    drop(dir);
    let server = Postgres::start()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(postgres(&s, &server))?;
    Ok(())
}
