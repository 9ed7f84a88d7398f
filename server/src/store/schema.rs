//! The database's schema, its version and the upgrade from older versions, how every
//! connection is opened (WAL, `synchronous=NORMAL`, a busy timeout), and the data directory and
//! file made for the server's user alone.

use std::path::Path;
use std::time::Duration;

use rusqlite::Connection;

use super::StoreError;

/// The schema's version (`PRAGMA user_version`). Version 1 (before the tables' logs had one
/// owner) kept tables in play as rows of five tables; those are dropped on upgrade, so a server
/// upgraded mid-match does not resume that match (records and sessions are kept). Version 3
/// links each log row to its table's row before it (`prev_row`) and keeps an ended table's last
/// row (`last_row`): rows written before it have no link, and their tables are read by a scan.
/// Version 4 keeps resume sessions by their token's SHA-256 (`resume_sessions.key`), never the
/// token, with the account that opened each; version 3's `sessions` (tokens in clear) are
/// hashed into it on upgrade.
pub(super) const SCHEMA_VERSION: i64 = 4;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS resume_sessions (
    key TEXT PRIMARY KEY, player TEXT NOT NULL, name TEXT NOT NULL, account TEXT);
CREATE TABLE IF NOT EXISTS table_log (
    table_id TEXT NOT NULL, entry BLOB NOT NULL, prev_row INTEGER);
CREATE TABLE IF NOT EXISTS log_tables (
    id TEXT PRIMARY KEY, first_row INTEGER NOT NULL, in_play INTEGER NOT NULL, last_row INTEGER);
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL, hand INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (table_id, hand));
CREATE TABLE IF NOT EXISTS record_players (
    name TEXT NOT NULL, table_id TEXT NOT NULL, hand INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS record_players_name ON record_players (name);
";

/// Makes the data directory if missing, for the server's user alone (0700 on Unix): it holds
/// the accounts' password hashes, the tables' logs and the hands' records.
pub(super) fn private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Makes the database file if missing, for the server's user alone (0600 on Unix), before
/// SQLite opens it: SQLite gives the WAL and shared-memory files it makes beside it the
/// database file's permissions.
pub(super) fn private_file(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// A connection to the database file, in WAL mode.
pub(super) fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(conn)
}

/// Brings a database made by an older server up to [`SCHEMA_VERSION`].
pub(super) fn migrate(conn: &Connection) -> Result<(), StoreError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version >= SCHEMA_VERSION {
        return Ok(());
    }
    if version < 2 {
        // Version 1's tables in play; `sessions`, `records` and `record_players` are unchanged.
        conn.execute_batch(
            "DROP TABLE IF EXISTS tables; DROP TABLE IF EXISTS seats; DROP TABLE IF EXISTS hands;
             DROP TABLE IF EXISTS inputs; DROP TABLE IF EXISTS input_log;",
        )?;
    }
    // Version 2's log, made before the links: a new database already has them from SCHEMA.
    if conn.prepare("SELECT prev_row FROM table_log").is_err() {
        conn.execute_batch(
            "ALTER TABLE table_log ADD COLUMN prev_row INTEGER;
             ALTER TABLE log_tables ADD COLUMN last_row INTEGER;",
        )?;
    }
    hash_resume_tokens(conn)?;
    conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    Ok(())
}

/// Version 3's `sessions` kept each resume token in clear: each becomes its key in
/// `resume_sessions` (a guest's session, as every session before accounts were bound to them
/// was presumed; an account's connection still resumes it under its own name), in one
/// transaction, and the old table goes.
fn hash_resume_tokens(conn: &Connection) -> Result<(), StoreError> {
    let old = conn
        .prepare("SELECT token, player, name FROM sessions")
        .and_then(|mut rows| {
            rows.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()
        });
    // No such table: a database made at version 4, or one whose upgrade already ran.
    let Ok(old) = old else { return Ok(()) };
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let moved = (|| {
        let mut insert = conn.prepare(
            "INSERT OR IGNORE INTO resume_sessions (key, player, name) VALUES (?1, ?2, ?3)",
        )?;
        for (token, player, name) in &old {
            insert.execute(rusqlite::params![
                crate::ids::secret_hash(token),
                player,
                name
            ])?;
        }
        conn.execute_batch("DROP TABLE sessions")
    })();
    match moved {
        Ok(()) => conn.execute_batch("COMMIT")?,
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(e.into());
        }
    }
    Ok(())
}
