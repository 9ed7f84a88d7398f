//! The table log on JetStream: one stream, one subject per table (`burraco.log.<table>`), one
//! message per append (its entries framed together, so an append of several entries is atomic).
//!
//! Fencing is JetStream's: every append carries the expected last sequence of the table's
//! subject, so of two writers that both believe they own a table, the second is refused by the
//! stream itself, whatever either remembers. A writer's memory (how many entries, and the
//! subject's last sequence) only saves a round trip; a refusal makes it read the truth again.
//!
//! An append that times out (a NATS election, a lost ack) is retried under the same message id,
//! so JetStream's duplicate window makes the retry harmless if the first try was stored. The id
//! names this process, so another writer can never be taken for a duplicate of this one.
//!
//! Tables in play are keys of the KV bucket `burraco_in_play`: written before a table's first
//! append, deleted after the entry that ends it. A crash between the ending append and the delete
//! leaves a key whose log has ended; [`JetStreamLog::in_play`] checks and drops such keys.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_nats::jetstream::{self, consumer, kv, stream};
use burraco_protocol::log::EntryKind;
use futures_util::StreamExt;

use crate::log::{Entry, LogError, LogFuture, TableLog};

/// The stream holding every table's log.
pub const LOG_STREAM: &str = "BURRACO_LOG";
/// Subjects of the log stream: `burraco.log.<table>`.
const LOG_SUBJECTS: &str = "burraco.log.*";
/// The bucket of the tables in play.
pub const IN_PLAY_BUCKET: &str = "burraco_in_play";
/// The index of the tables each player name sat at (`/api/players/{name}/hands`).
pub const PLAYER_TABLES_BUCKET: &str = "burraco_player_tables";
/// The most tables a name's index keeps (the newest).
const PLAYER_TABLES_KEPT: usize = 200;
/// How long an append keeps retrying through an outage. A stream's election takes 4.6-9.6 s on
/// an idle machine (NATS's raft timeouts) and more on a loaded one: with 10 s, a whole-suite CI
/// run once had the move after a leader's kill -9 refused. A move that waits beats one refused.
const APPEND_PATIENCE: Duration = Duration::from_secs(20);
/// How long the stream remembers an append's message id: longer than [`APPEND_PATIENCE`], so
/// every retry of an append falls within it. A shorter one was tried and cost NATS more CPU
/// per append, not less (docs/PERFORMANCE.md, "A cheaper cluster", session 16).
const DUPLICATE_WINDOW: Duration = Duration::from_secs(120);

/// The most messages one batched direct get returns (the server's limit).
const DIRECT_BATCH: u64 = 1000;
/// How long a batched direct get waits for each message before reading through a consumer.
const DIRECT_PATIENCE: Duration = Duration::from_secs(2);

fn subject(table: &str) -> String {
    format!("burraco.log.{table}")
}

/// The log of every table, on JetStream.
#[derive(Debug)]
pub struct JetStreamLog {
    js: jetstream::Context,
    stream: stream::Stream,
    in_play: kv::Store,
    player_tables: kv::Store,
    /// Names this process in message ids: `<node>-<random>`.
    writer: String,
    /// Numbers this process's appends: with `writer`, the message id of one append (and of its
    /// retries), never of another.
    appends: AtomicU64,
    /// Per table this process has read or written: (entries, the subject's last sequence).
    known: Mutex<HashMap<String, (u64, u64)>>,
}

impl JetStreamLog {
    /// Opens (creating if needed) the log stream and the in-play bucket with `replicas` copies.
    pub async fn open(
        js: jetstream::Context,
        node: &str,
        replicas: usize,
    ) -> Result<JetStreamLog, LogError> {
        let stream = js
            .get_or_create_stream(stream::Config {
                name: LOG_STREAM.into(),
                subjects: vec![LOG_SUBJECTS.into()],
                storage: stream::StorageType::File,
                num_replicas: replicas,
                // Retries of an append within this window are recognised as duplicates.
                duplicate_window: DUPLICATE_WINDOW,
                allow_direct: true,
                ..Default::default()
            })
            .await
            .map_err(unavailable)?;
        let in_play = js
            .create_or_update_key_value(super::bucket(IN_PLAY_BUCKET, replicas))
            .await
            .map_err(unavailable)?;
        let player_tables = js
            .create_or_update_key_value(super::bucket(PLAYER_TABLES_BUCKET, replicas))
            .await
            .map_err(unavailable)?;
        Ok(JetStreamLog {
            js,
            stream,
            in_play,
            player_tables,
            writer: crate::ids::random_id(node, 8),
            appends: AtomicU64::new(0),
            known: Mutex::new(HashMap::new()),
        })
    }

    fn known(&self, table: &str) -> Option<(u64, u64)> {
        self.lock().get(table).copied()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (u64, u64)>> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every entry of a table's log and the subject's last sequence (0 for an empty log).
    async fn read(&self, table: &str) -> Result<(Vec<Entry>, u64), LogError> {
        let subject = subject(table);
        let last = match self.stream.get_last_raw_message_by_subject(&subject).await {
            Ok(message) => message.sequence,
            Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => {
                return Ok((Vec::new(), 0));
            }
            Err(e) => return Err(unavailable(e)),
        };
        if let Some(entries) = self.read_direct(&subject, last).await? {
            return Ok((entries, last));
        }
        let consumer = self
            .stream
            .create_consumer(consumer::pull::OrderedConfig {
                filter_subject: subject,
                deliver_policy: consumer::DeliverPolicy::All,
                ..Default::default()
            })
            .await
            .map_err(unavailable)?;
        let mut messages = consumer.messages().await.map_err(unavailable)?;
        let mut entries = Vec::new();
        while let Some(message) = messages.next().await {
            let message = message.map_err(unavailable)?;
            let sequence = message.info().map_err(unavailable)?.stream_sequence;
            entries.extend(unframe(&message.payload)?);
            if sequence >= last {
                break;
            }
        }
        Ok((entries, last))
    }

    /// A subject's messages up to `last` by batched direct gets (ADR-31, NATS 2.11): a request
    /// answered by any replica with up to [`DIRECT_BATCH`] messages, no consumer made. A
    /// consumer is a JetStream API call that a clustered server assigns through its metadata
    /// group: reading a dead node's thousand logs through consumers took twice as long and was
    /// most of a takeover (docs/PERFORMANCE.md). `None` when the answer does not reach `last` (a
    /// replica behind the leader, an older server, no answer in time): read through a consumer.
    async fn read_direct(&self, subject: &str, last: u64) -> Result<Option<Vec<Entry>>, LogError> {
        let client = self.js.client();
        let mut entries = Vec::new();
        let mut next = 1;
        loop {
            let inbox = client.new_inbox();
            let mut replies = client.subscribe(inbox.clone()).await.map_err(unavailable)?;
            let request = serde_json::json!({
                "seq": next,
                "next_by_subj": subject,
                "batch": DIRECT_BATCH,
            });
            client
                .publish_with_reply(
                    format!("$JS.API.DIRECT.GET.{LOG_STREAM}"),
                    inbox,
                    request.to_string().into(),
                )
                .await
                .map_err(unavailable)?;
            let mut read = 0;
            loop {
                let Ok(Some(message)) = tokio::time::timeout(DIRECT_PATIENCE, replies.next()).await
                else {
                    return Ok(None);
                };
                let headers = message.headers.as_ref();
                let sequence = headers
                    .and_then(|h| h.get(async_nats::header::NATS_SEQUENCE))
                    .and_then(|v| v.as_str().parse::<u64>().ok());
                let Some(sequence) = sequence.filter(|_| message.status.is_none()) else {
                    // The end of the batch (204), or nothing from `next` on (404).
                    break;
                };
                if headers.and_then(|h| h.get("Nats-Num-Pending")).is_none() {
                    // A server without batches answered one message.
                    return Ok(None);
                }
                entries.extend(unframe(&message.payload)?);
                read += 1;
                next = sequence + 1;
                if sequence >= last {
                    return Ok(Some(entries));
                }
            }
            if read == 0 {
                return Ok(None);
            }
        }
    }

    /// The last sequence of a table's subject in the stream (0 for none).
    async fn subject_last(&self, table: &str) -> Result<u64, LogError> {
        match self
            .stream
            .get_last_raw_message_by_subject(&subject(table))
            .await
        {
            Ok(message) => Ok(message.sequence),
            Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => Ok(0),
            Err(e) => Err(unavailable(e)),
        }
    }

    /// The table's length and last sequence, from memory or from the stream.
    async fn position(&self, table: &str) -> Result<(u64, u64), LogError> {
        if let Some(known) = self.known(table) {
            return Ok(known);
        }
        let (entries, last) = self.read(table).await?;
        let position = (entries.len() as u64, last);
        self.lock().insert(table.to_owned(), position);
        Ok(position)
    }

    /// The conflict to report: the length the log really has now.
    async fn conflict(&self, table: &str, expected: u64) -> LogError {
        self.lock().remove(table);
        match self.position(table).await {
            Ok((found, _)) => LogError::Conflict {
                table: table.to_owned(),
                expected,
                found,
            },
            Err(e) => e,
        }
    }

    async fn append_inner(
        &self,
        table: &str,
        expected: u64,
        entries: Vec<Entry>,
    ) -> Result<u64, LogError> {
        // An unknown table counts as empty: an append at 0 then expects an empty subject, and the
        // stream refuses it if the table exists (the conflict reads the truth).
        let (length, last) = match self.known(table) {
            Some(known) => known,
            None if expected == 0 => (0, 0),
            None => self.position(table).await?,
        };
        if length != expected {
            return Err(LogError::Conflict {
                table: table.to_owned(),
                expected,
                found: length,
            });
        }
        let ends = entries
            .iter()
            .any(|e| EntryKind::of(e).is_some_and(EntryKind::ends_table));
        if expected == 0 {
            // Listed before its first entry, so a crash right after the append still lists it.
            self.in_play
                .put(table, Default::default())
                .await
                .map_err(unavailable)?;
        }
        let count = entries.len() as u64;
        let payload = frame(&entries);
        let new_message_id = || {
            format!(
                "{}-{}",
                self.writer,
                self.appends.fetch_add(1, Ordering::Relaxed)
            )
        };
        let mut message_id = new_message_id();
        let deadline = tokio::time::Instant::now() + APPEND_PATIENCE;
        let mut pause = Duration::from_millis(50);
        let ack = loop {
            let publish = jetstream::message::PublishMessage::build()
                .payload(payload.clone().into())
                .message_id(&message_id)
                .expected_last_subject_sequence(last);
            let attempt = async { self.js.send_publish(subject(table), publish).await?.await };
            match attempt.await {
                Ok(ack) => break ack,
                Err(e) if e.kind() == jetstream::context::PublishErrorKind::WrongLastSequence => {
                    return Err(self.conflict(table, expected).await);
                }
                Err(e) if jetstream_code(&e) == Some(WRONG_LAST_SEQUENCE_CONSTANT) => {
                    // A clustered stream's leader could not check the expected sequence this
                    // time (seen under load with a write of the subject still settling). Read
                    // the subject's true last sequence: if it is still the one this writer
                    // expects, nobody else wrote, and the append is tried again (under a new id:
                    // the refused one may stay "in process" for the duplicate window).
                    if self.subject_last(table).await? != last {
                        return Err(self.conflict(table, expected).await);
                    }
                    if tokio::time::Instant::now() >= deadline {
                        self.lock().remove(table);
                        return Err(unavailable(e));
                    }
                    tracing::debug!(table, "append refused unchecked, retrying: {e}");
                    message_id = new_message_id();
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
                Err(e) if tokio::time::Instant::now() < deadline => {
                    tracing::warn!(table, "append to the log failed, retrying: {e}");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
                Err(e) => {
                    // Whether it was stored is unknown: forget what this writer believed.
                    self.lock().remove(table);
                    return Err(unavailable(e));
                }
            }
        };
        let length = expected + count;
        self.lock().insert(table.to_owned(), (length, ack.sequence));
        for names in hands_finished(&payload) {
            for name in names {
                self.index_player(&name, table).await;
            }
        }
        if ends {
            if let Err(e) = self.in_play.delete(table).await {
                // in_play() drops a key whose log has ended, so this only costs a read later.
                tracing::warn!(table, "could not take the table out of play: {e}");
            }
            self.lock().remove(table);
        }
        Ok(length)
    }

    /// Fences a table this node just took over: an empty message (no entries) appended after
    /// the last one its load read. A former owner cut off from NATS may still have an append in
    /// flight (held in a socket buffer through a partition, sent when it heals) expecting that
    /// same last sequence: once the fence is stored, the stream refuses it, so a node that lost
    /// the table can never write to it again, whether or not the new owner has played yet.
    /// `Conflict` when something was written after the load (read the log again).
    pub async fn fence(&self, table: &str) -> Result<(), LogError> {
        let Some((length, last)) = self.known(table) else {
            return Err(LogError::Unavailable(format!(
                "{table} not loaded before its fence"
            )));
        };
        let publish = jetstream::message::PublishMessage::build()
            .payload(frame(&[]).into())
            .message_id(format!(
                "{}-{}",
                self.writer,
                self.appends.fetch_add(1, Ordering::Relaxed)
            ))
            .expected_last_subject_sequence(last);
        let attempt = async { self.js.send_publish(subject(table), publish).await?.await };
        match attempt.await {
            Ok(ack) => {
                self.lock().insert(table.to_owned(), (length, ack.sequence));
                Ok(())
            }
            Err(e) if e.kind() == jetstream::context::PublishErrorKind::WrongLastSequence => {
                Err(self.conflict(table, length).await)
            }
            Err(e) => {
                self.lock().remove(table);
                Err(unavailable(e))
            }
        }
    }

    /// The tables listed in play, oldest first (the order their keys were written), without
    /// checking their logs (see [`TableLog::in_play`] for that).
    pub async fn listed(&self) -> Result<Vec<String>, LogError> {
        let mut keys = self.in_play.keys().await.map_err(unavailable)?;
        let mut tables = Vec::new();
        while let Some(key) = keys.next().await {
            tables.push(key.map_err(unavailable)?);
        }
        Ok(tables)
    }

    /// Whether `table` is listed in play.
    pub async fn is_listed(&self, table: &str) -> Result<bool, LogError> {
        Ok(self
            .in_play
            .get(table)
            .await
            .map_err(unavailable)?
            .is_some())
    }

    /// Takes a table whose log has ended (or never began) off the list of tables in play.
    pub async fn unlist(&self, table: &str) {
        if let Err(e) = self.in_play.delete(table).await {
            tracing::warn!(table, "could not take the table out of play: {e}");
        }
    }

    async fn in_play_inner(&self) -> Result<Vec<String>, LogError> {
        let tables = self.listed().await?;
        // Drop a table whose ending append landed but whose key outlived it (a crash between).
        let mut playing = Vec::with_capacity(tables.len());
        for table in tables {
            match self
                .stream
                .get_last_raw_message_by_subject(&subject(&table))
                .await
            {
                Ok(last)
                    if unframe(&last.payload)?
                        .iter()
                        .any(|e| EntryKind::of(e).is_some_and(EntryKind::ends_table)) =>
                {
                    let _ = self.in_play.delete(&table).await;
                }
                Ok(_) => playing.push(table),
                // Listed, but the first append never landed: not a table.
                Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => {}
                Err(e) => return Err(unavailable(e)),
            }
        }
        Ok(playing)
    }
}

impl JetStreamLog {
    /// Adds `table` to the tables `name` sat at (best effort: the record itself is in the log).
    async fn index_player(&self, name: &str, table: &str) {
        let key = player_key(name);
        for _ in 0..5 {
            let (mut tables, revision) = match self.player_tables.entry(&key).await {
                Ok(Some(entry)) if entry.operation == kv::Operation::Put => (
                    serde_json::from_slice::<Vec<String>>(&entry.value).unwrap_or_default(),
                    Some(entry.revision),
                ),
                Ok(_) => (Vec::new(), None),
                Err(e) => {
                    tracing::warn!(table, "player index not read: {e}");
                    return;
                }
            };
            if tables.last().map(String::as_str) == Some(table) {
                return;
            }
            tables.retain(|t| t != table);
            tables.push(table.to_owned());
            let excess = tables.len().saturating_sub(PLAYER_TABLES_KEPT);
            tables.drain(..excess);
            let value = serde_json::to_vec(&tables).expect("ids serialize").into();
            let written = match revision {
                Some(revision) => self
                    .player_tables
                    .update(&key, value, revision)
                    .await
                    .map(drop)
                    .map_err(|e| e.to_string()),
                None => self
                    .player_tables
                    .create(&key, value)
                    .await
                    .map(drop)
                    .map_err(|e| e.to_string()),
            };
            match written {
                Ok(()) => return,
                // Another node indexed the same name meanwhile: read again.
                Err(e) => tracing::debug!(table, "player index raced: {e}"),
            }
        }
        tracing::warn!(table, "player index not updated after 5 tries");
    }

    /// The tables a player name sat at, oldest first.
    pub async fn tables_of_player(&self, name: &str) -> Result<Vec<String>, LogError> {
        match self
            .player_tables
            .get(player_key(name))
            .await
            .map_err(unavailable)?
        {
            Some(value) => Ok(serde_json::from_slice(&value).unwrap_or_default()),
            None => Ok(Vec::new()),
        }
    }
}

/// A KV key for any name: its UTF-8 bytes in hex (keys allow few characters).
fn player_key(name: &str) -> String {
    format!("n{}", burraco_protocol::cards::to_hex(name.as_bytes()))
}

/// The seated names of every hand-finished entry of an append.
fn hands_finished(payload: &[u8]) -> Vec<Vec<String>> {
    let Ok(entries) = unframe(payload) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter(|e| EntryKind::of(e) == Some(EntryKind::HandFinished))
        .filter_map(|e| match burraco_protocol::log::TableEntry::decode(e) {
            Ok(burraco_protocol::log::TableEntry::HandFinished { names, .. }) => Some(names),
            _ => None,
        })
        .collect()
}

impl TableLog for JetStreamLog {
    fn append(&self, table: &str, expected: u64, entries: Vec<Entry>) -> LogFuture<'_, u64> {
        let table = table.to_owned();
        Box::pin(async move { self.append_inner(&table, expected, entries).await })
    }

    fn load(&self, table: &str) -> LogFuture<'_, Vec<Entry>> {
        let table = table.to_owned();
        Box::pin(async move {
            let (entries, last) = self.read(&table).await?;
            self.lock()
                .insert(table.clone(), (entries.len() as u64, last));
            Ok(entries)
        })
    }

    fn is_in_play<'a>(&'a self, table: &'a str) -> LogFuture<'a, bool> {
        Box::pin(self.is_listed(table))
    }

    fn in_play(&self) -> LogFuture<'_, Vec<String>> {
        Box::pin(self.in_play_inner())
    }
}

/// JetStream's "wrong last sequence" without the sequence: the check could not be made.
const WRONG_LAST_SEQUENCE_CONSTANT: u64 =
    jetstream::ErrorCode::STREAM_WRONG_LAST_SEQUENCE_CONSTANT.0;

/// The JetStream error code behind a refused publish, if the server gave one.
fn jetstream_code(e: &jetstream::context::PublishError) -> Option<u64> {
    std::error::Error::source(e)
        .and_then(|source| source.downcast_ref::<jetstream::Error>())
        .map(|error| error.error_code().0)
}

/// One append's entries as one message: postcard's sequence of byte strings.
fn frame(entries: &[Entry]) -> Vec<u8> {
    postcard::to_stdvec(entries).expect("byte strings always encode")
}

fn unframe(payload: &[u8]) -> Result<Vec<Entry>, LogError> {
    postcard::from_bytes(payload)
        .map_err(|e| LogError::Unavailable(format!("a log message is not entries: {e}")))
}

fn unavailable(e: impl std::fmt::Display) -> LogError {
    LogError::Unavailable(e.to_string())
}
