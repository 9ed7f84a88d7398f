//! The accounts' migration 13: every account's confusable skeleton made again under the
//! current rule ([`super::username::skeleton`], which since issue 32 drops `_`, `-` and `.`, so
//! that `Anna.` and `An.na` look like `Anna`). Run once by each store, inside the migration's
//! transaction, after the SQL migrations before it.
//!
//! Two accounts made before may now share a skeleton (`Anna` and `Anna.` both exist). Both stay
//! as they are to their owners (a name's key, which signing in uses, does not change); the
//! skeleton is unique, so the later of them in this pass keeps it suffixed with `#` and its id,
//! which no name's skeleton can be. New names like either are refused all the same: the other
//! holds the plain skeleton.

use super::username;

/// The migration's version in `account_migrations`.
pub const VERSION: i64 = 13;

/// The accounts whose skeleton changes, oldest first: (id, new skeleton).
fn changed(accounts: Vec<(String, String, String)>) -> Vec<(String, String)> {
    accounts
        .into_iter()
        .filter_map(|(id, name, old)| {
            let new = username::skeleton(&name);
            (new != old).then_some((id, new))
        })
        .collect()
}

/// The skeleton `id` may keep: `wanted`, unless another account holds it.
fn unique(wanted: String, id: &str, taken: bool) -> String {
    if taken {
        format!("{wanted}#{id}")
    } else {
        wanted
    }
}

pub(super) fn sqlite(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    let accounts = {
        let mut stmt =
            tx.prepare("SELECT id, username, skeleton FROM accounts ORDER BY created_ms, id")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()?
    };
    for (id, wanted) in changed(accounts) {
        let taken: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM accounts WHERE skeleton = ?1 AND id <> ?2)",
            rusqlite::params![wanted, id],
            |r| r.get(0),
        )?;
        tx.execute(
            "UPDATE accounts SET skeleton = ?2 WHERE id = ?1",
            rusqlite::params![id, unique(wanted, &id, taken)],
        )?;
    }
    Ok(())
}

pub(super) async fn postgres(
    tx: &tokio_postgres::Transaction<'_>,
) -> Result<(), tokio_postgres::Error> {
    let accounts = tx
        .query(
            "SELECT id, username, skeleton FROM accounts ORDER BY created_ms, id",
            &[],
        )
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    for (id, wanted) in changed(accounts) {
        let taken: bool = tx
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM accounts WHERE skeleton = $1 AND id <> $2)",
                &[&wanted, &id],
            )
            .await?
            .get(0);
        let skeleton = unique(wanted, &id, taken);
        tx.execute(
            "UPDATE accounts SET skeleton = $2 WHERE id = $1",
            &[&id, &skeleton],
        )
        .await?;
    }
    Ok(())
}
