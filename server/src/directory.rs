//! The server's directories, behind one owner: which tables exist (by id and by invite code),
//! which sessions are open (by resume token) and where each player holds a seat.
//!
//! Only names live here, never game state: a table's state is its actor's. The maps are private so
//! that every change goes through a method named for what it means (a table registered, a seat
//! taken, a seat given up), and the rules that tie the maps together live in one place (an invite
//! goes with its table; a player with no seat left has no entry).

use std::time::{Duration, Instant};

use burraco_protocol::wire::ClientMessage;
use burraco_rules::Seat;
use dashmap::DashMap;

use crate::table::TableHandle;

pub use crate::session::{ResumeKey, Session};

/// Tables, invite codes, sessions and seats (concurrent maps: every connection and table reads
/// them; none is held across an await).
#[derive(Debug, Default)]
pub struct Directory {
    /// Table id to handle.
    tables: DashMap<String, TableHandle>,
    /// Invite code (upper case) to table id.
    invites: DashMap<String, String>,
    /// Resume token to session, while its player is connected or seated.
    sessions: DashMap<String, Session>,
    /// Player id to the seats held (never an empty list).
    player_seats: DashMap<String, Vec<(String, Seat)>>,
    /// Player id to its last create request (a hash of its fields, without the request id) and
    /// when it came: the same one again within a moment is a double click, refused. A hash, not
    /// the fields: a burst of creates keeps an entry a player for the window.
    last_create: DashMap<String, (u64, Instant)>,
}

impl Directory {
    pub fn new() -> Directory {
        Directory::default()
    }

    // Creates.

    /// Whether `request` repeats the same player's previous create (`create_table`,
    /// `create_tournament` with the same fields) less than `window` ago: a double click, or a
    /// page sending twice, would otherwise make twin tables or tournaments. Notes a create that
    /// is not a repeat; other requests are never repeats.
    pub fn repeated_create(&self, player: &str, request: &ClientMessage, window: Duration) -> bool {
        let fields = match request {
            ClientMessage::CreateTable {
                settings,
                private,
                bots,
                ..
            } => format!("table {settings:?} {private:?} {bots:?}"),
            ClientMessage::CreateTournament { settings, .. } => format!("tournament {settings:?}"),
            _ => return false,
        };
        let fields = {
            let mut hasher = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(&fields, &mut hasher);
            std::hash::Hasher::finish(&hasher)
        };
        if window.is_zero() {
            return false;
        }
        let now = Instant::now();
        // Entries of players who stopped creating go, so the map stays as small as the moment.
        if self.last_create.len() > 1024 {
            self.last_create
                .retain(|_, (_, at)| now.duration_since(*at) < window);
        }
        let repeat = self
            .last_create
            .get(player)
            .is_some_and(|last| last.0 == fields && now.duration_since(last.1) < window);
        if !repeat {
            self.last_create.insert(player.to_owned(), (fields, now));
        }
        repeat
    }

    /// The player's last create failed (its settings refused): the same one again is a retry,
    /// answered with the same refusal, not a double click's "done already".
    pub fn forget_create(&self, player: &str) {
        self.last_create.remove(player);
    }

    // Tables.

    /// Lists a running table under its id.
    pub fn register_table(&self, handle: &TableHandle) {
        self.tables.insert(handle.id().to_owned(), handle.clone());
    }

    /// Makes `table` findable by its invite code.
    pub fn register_invite(&self, code: &str, table: &str) {
        self.invites.insert(code.to_owned(), table.to_owned());
    }

    /// Drops a stopped table, and its invite code if the code still leads to it.
    pub fn forget_table(&self, table: &str, invite: Option<&str>) {
        self.tables.remove(table);
        if let Some(code) = invite {
            self.invites.remove_if(code, |_, t| t == table);
        }
    }

    /// Drops every table (the server has stopped: nothing may reach them any more).
    pub fn forget_all_tables(&self) {
        self.tables.clear();
        self.invites.clear();
    }

    /// A table by id.
    pub fn table(&self, id: &str) -> Option<TableHandle> {
        self.tables.get(id).map(|t| t.value().clone())
    }

    /// A table by invite code (codes are case-insensitive).
    pub fn table_by_invite(&self, code: &str) -> Option<TableHandle> {
        let id = self.invites.get(&code.to_uppercase())?.value().clone();
        self.table(&id)
    }

    /// Every table, in no particular order (handles are cheap to clone: three shared pointers).
    pub fn tables(&self) -> Vec<TableHandle> {
        self.tables.iter().map(|t| t.value().clone()).collect()
    }

    // Seats.

    /// Records that `player` holds `seat` at `table`.
    pub fn seat_player(&self, player: &str, table: &str, seat: Seat) {
        self.player_seats
            .entry(player.to_owned())
            .or_default()
            .push((table.to_owned(), seat));
    }

    /// Drops a table from a player's seats (and the player, with no seat left).
    pub fn forget_seat(&self, player: &str, table: &str) {
        if let Some(mut seats) = self.player_seats.get_mut(player) {
            seats.retain(|(t, _)| t != table);
        }
        self.player_seats
            .remove_if(player, |_, seats| seats.is_empty());
    }

    /// The seats a player holds, as (table id, seat).
    pub fn seats_of(&self, player: &str) -> Vec<(String, Seat)> {
        self.player_seats
            .get(player)
            .map(|s| s.value().clone())
            .unwrap_or_default()
    }

    /// The player holding `seat` at `table`, one of this node's tables: a scan of every seated
    /// player, for a report over HTTP naming a guest (rare, and limited per account), never a
    /// hot path.
    pub fn holder(&self, table: &str, seat: Seat) -> Option<String> {
        self.player_seats.iter().find_map(|entry| {
            let holds = entry.value().iter().any(|(t, s)| t == table && *s == seat);
            holds.then(|| entry.key().clone())
        })
    }

    /// Whether a player holds any seat.
    pub fn is_seated(&self, player: &str) -> bool {
        self.player_seats.get(player).is_some_and(|s| !s.is_empty())
    }

    // Sessions.

    /// The session of a resume token, if it is in memory.
    pub fn session(&self, token: &str) -> Option<Session> {
        self.sessions.get(token).map(|s| s.value().clone())
    }

    /// Keeps a session in memory under its resume token.
    pub fn open_session(&self, token: &str, session: Session) {
        self.sessions.insert(token.to_owned(), session);
    }

    /// Forgets a session kept in memory (it stays in the store for a later resume).
    pub fn close_session(&self, token: &str) {
        self.sessions.remove(token);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burraco_protocol::wire::WireSettings;

    fn create(preset: &str) -> ClientMessage {
        ClientMessage::CreateTable {
            id: 7,
            settings: WireSettings {
                preset: preset.into(),
                ..Default::default()
            },
            private: false,
            bots: None,
        }
    }

    #[test]
    fn the_same_create_at_once_is_a_repeat_and_nothing_else_is() {
        let directory = Directory::new();
        let window = Duration::from_secs(2);
        assert!(!directory.repeated_create("p-1", &create("fitab"), window));
        assert!(directory.repeated_create("p-1", &create("fitab"), window));
        // Another player, other settings, another request: not repeats.
        assert!(!directory.repeated_create("p-2", &create("fitab"), window));
        assert!(!directory.repeated_create("p-1", &create("fedibur"), window));
        let list = ClientMessage::ListTables { id: 1 };
        assert!(!directory.repeated_create("p-1", &list, window));
        assert!(!directory.repeated_create("p-1", &list, window));
        // A refused create is retried, not a repeat; a zero window allows anything.
        directory.forget_create("p-1");
        assert!(!directory.repeated_create("p-1", &create("fedibur"), window));
        assert!(!directory.repeated_create("p-3", &create("fitab"), Duration::ZERO));
        assert!(!directory.repeated_create("p-3", &create("fitab"), Duration::ZERO));
    }
}
