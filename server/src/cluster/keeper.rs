//! A node's background work in the cluster: renewing its leases (stepping down from a table or
//! tournament whose lease it lost), taking over tables and tournaments nobody serves, and keeping
//! the lobby and routes current.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use burraco_protocol::log::EntryKind;

use tokio::sync::Semaphore;

use crate::Shared;
use crate::cluster::route::Router;
use crate::log::TableLog as _;
use crate::table::Command;

/// Starts every background task of cluster mode (nothing without `--nats`).
pub fn start(shared: &Arc<Shared>, cluster: &Arc<super::Cluster>) {
    let cluster = cluster.clone();
    let lease = cluster.leases.duration();
    let tracker = &shared.tracker;
    let stop = shared.shutdown.clone();

    // Renew a third of the way through the lease: two renewals can fail before it lapses.
    {
        let shared = shared.clone();
        let cluster = cluster.clone();
        let stop = stop.clone();
        tracker.spawn(async move {
            let mut tick = tokio::time::interval(lease / 3);
            loop {
                tokio::select! {
                    _ = stop.cancelled() => return,
                    _ = tick.tick() => {}
                }
                for table in cluster.leases.renew_all().await {
                    if let Some(handle) = shared.directory.table(&table) {
                        handle.send(Command::StepDown).await;
                    }
                    shared.tournaments.step_down(&table);
                }
            }
        });
    }

    // Take over what nobody serves: a table whose lease lapses (a dead node's) or is released
    // (a drained node's), as the lease watch reports it; and, as a backstop (a missed marker, a
    // node that died while this one was starting), every table in play without a lease, at a
    // slower scan.
    let (released_tx, mut released) = tokio::sync::mpsc::unbounded_channel::<String>();
    {
        let cluster = cluster.clone();
        let stop = stop.clone();
        tracker.spawn(async move {
            while !stop.is_cancelled() {
                let tx = released_tx.clone();
                if let Err(e) = cluster
                    .leases
                    .watch_released(stop.clone(), move |table| {
                        let _ = tx.send(table);
                    })
                    .await
                {
                    tracing::warn!("lease watch: {e}");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        });
    }
    {
        let shared = shared.clone();
        let cluster = cluster.clone();
        let stop = stop.clone();
        let in_flight = Arc::new(Semaphore::new(TAKEOVERS_IN_FLIGHT));
        tracker.spawn(async move {
            let mut tick = tokio::time::interval(full_scan(lease));
            loop {
                tokio::select! {
                    _ = stop.cancelled() => return,
                    _ = tick.tick() => {
                        if let Err(e) = take_over_orphans(&shared, &cluster, &in_flight).await {
                            tracing::warn!("takeover scan: {e}");
                        }
                    }
                    Some(table) = released.recv() => {
                        spawn_take_over(&shared, &cluster, &in_flight, table).await;
                    }
                }
            }
        });
    }

    {
        let cluster = cluster.clone();
        let shared = shared.clone();
        let stop = stop.clone();
        tracker.spawn(async move {
            let router = &cluster.router;
            // The watch is restarted after a NATS outage.
            while !stop.is_cancelled() {
                if let Err(e) = cluster
                    .lobby
                    .watch(
                        stop.clone(),
                        |table| router.forget_table(table),
                        |table| router.table_listed(&shared, table),
                    )
                    .await
                {
                    tracing::warn!("lobby watch: {e}");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        });
    }
    {
        let cluster = cluster.clone();
        tracker.spawn(async move { cluster.lobby.flush_loop(stop).await });
    }
    {
        let shared = shared.clone();
        let cluster = cluster.clone();
        tracker.spawn(async move {
            if let Err(e) = Router::serve(shared, cluster).await {
                tracing::error!("cannot serve routed requests: {e}");
            }
        });
    }
    {
        let shared = shared.clone();
        let cluster = cluster.clone();
        tracker.spawn(async move {
            if let Err(e) = super::tournaments::serve(shared, cluster).await {
                tracing::error!("cannot serve the cluster's tournament requests: {e}");
            }
        });
    }
}

/// Tables taken over at once: each takeover waits mostly on NATS (the lease, the log), so a
/// dead node's thousand tables are taken in parallel rather than one after the other; bounded,
/// so a takeover storm leaves room for play.
const TAKEOVERS_IN_FLIGHT: usize = 64;

/// Takes `table` over in a task of its own, once one of the [`TAKEOVERS_IN_FLIGHT`] places is
/// free (waits for it: the watch's queue holds the rest).
async fn spawn_take_over(
    shared: &Arc<Shared>,
    cluster: &Arc<super::Cluster>,
    in_flight: &Arc<Semaphore>,
    table: String,
) {
    let Ok(permit) = in_flight.clone().acquire_owned().await else {
        return;
    };
    let (shared, cluster) = (shared.clone(), cluster.clone());
    shared.tracker.clone().spawn(async move {
        if let Err(e) = take_over(&shared, &cluster, &table).await {
            tracing::warn!(table, "takeover: {e}");
        }
        drop(permit);
    });
}

/// How often a node lists every table in play to find those nobody serves (the backstop of the
/// lease watch): every three leases.
pub fn full_scan(lease: Duration) -> Duration {
    (lease * 3).max(Duration::from_secs(1))
}

/// Leases and rebuilds every table in play that no node holds a lease on.
async fn take_over_orphans(
    shared: &Arc<Shared>,
    cluster: &Arc<super::Cluster>,
    in_flight: &Arc<Semaphore>,
) -> Result<(), crate::cluster::ClusterError> {
    if cluster.is_draining() || shared.shutdown.is_cancelled() {
        return Ok(());
    }
    let listed = cluster.log.listed().await?;
    let leased: HashSet<String> = cluster.leases.leased().await?.into_iter().collect();
    let in_play: HashSet<&String> = listed.iter().collect();
    for table in &listed {
        if !leased.contains(table) {
            spawn_take_over(shared, cluster, in_flight, table.clone()).await;
        }
    }
    // Listings nobody will update: the table ended, or its node died after it finished.
    let listed_now = &in_play;
    for table in cluster.lobby.tables_elsewhere() {
        if !listed_now.contains(&table) && !leased.contains(&table) {
            cluster.lobby.unlist(&table);
        }
    }
    Ok(())
}

/// Leases `table` if nobody does and it is in play, and rebuilds it here by replaying its log.
async fn take_over(
    shared: &Arc<Shared>,
    cluster: &Arc<super::Cluster>,
    table: &str,
) -> Result<(), crate::cluster::ClusterError> {
    let tournament = burraco_protocol::tournament_log::is_tournament(table);
    // Another live node took it first (a dead node's tables are offered to every node at once):
    // known from the lease watch, so no round trip is spent on it.
    if cluster.is_draining()
        || shared.shutdown.is_cancelled()
        || shared.directory.table(table).is_some()
        || shared.tournaments.get(table).is_some()
        || cluster.leases.served_elsewhere(table)
        || !cluster.log.is_listed(table).await?
        || !cluster.leases.take(table).await?
    {
        return Ok(());
    }
    let leased = std::time::Instant::now();
    let Some(entries) = claim(cluster, table).await else {
        cluster.leases.release(table).await;
        return Ok(());
    };
    let claimed = leased.elapsed();
    let ended = entries
        .last()
        .and_then(|e| EntryKind::of(e))
        .is_some_and(EntryKind::ends_table);
    if entries.is_empty() || ended {
        cluster.log.unlist(table).await;
        cluster.leases.release(table).await;
        return Ok(());
    }
    if tournament {
        // Rebuilt as after a restart: its tables restore themselves wherever they are taken.
        return match crate::tournament::restore::restore(shared, table.to_owned(), entries) {
            Ok(()) => {
                tracing::info!(tournament = table, "took over the tournament");
                Ok(())
            }
            Err(e) => {
                tracing::error!(tournament = table, "cannot rebuild the tournament: {e}");
                cluster.leases.release(table).await;
                Ok(())
            }
        };
    }
    let restored = crate::table::restore(shared, table.to_owned(), entries);
    // The takeover's costs apart (docs/PERFORMANCE.md reads them with
    // `RUST_LOG=info,burraco_server::cluster::keeper=debug`).
    tracing::debug!(
        table,
        claim_us = claimed.as_micros() as u64,
        restore_us = (leased.elapsed() - claimed).as_micros() as u64,
        "takeover timed"
    );
    match restored {
        Ok(()) => tracing::info!(table, "took over the table"),
        Err(e) => {
            tracing::error!(table, "cannot rebuild the table from its log: {e}");
            cluster.leases.release(table).await;
        }
    }
    Ok(())
}

/// A table's log read and fenced for its new owner (see `JetStreamLog::fence`): what a former
/// owner wrote before the fence is in the entries, and nothing it sends later can land. An ended
/// or empty log is returned unfenced (nobody will serve it). `None` when the log cannot be read
/// or fenced now (the lease is given back; the scan tries again).
async fn claim(cluster: &super::Cluster, table: &str) -> Option<Vec<crate::log::Entry>> {
    // A write between the read and the fence is a former owner's last append landing: read
    // again, with it. A handful of tries: a former owner has at most one append in flight.
    for _ in 0..4 {
        let entries = match cluster.log.load(table).await {
            Ok(entries) => entries,
            Err(e) => {
                tracing::warn!(table, "cannot read the log of a table to take over: {e}");
                return None;
            }
        };
        let ended = entries
            .last()
            .and_then(|e| EntryKind::of(e))
            .is_some_and(EntryKind::ends_table);
        if entries.is_empty() || ended {
            return Some(entries);
        }
        match cluster.log.fence(table).await {
            Ok(()) => return Some(entries),
            Err(crate::log::LogError::Conflict { .. }) => {
                tracing::info!(table, "written while being taken over: reading it again");
            }
            Err(e) => {
                tracing::warn!(table, "cannot fence the log of a table to take over: {e}");
                return None;
            }
        }
    }
    None
}
