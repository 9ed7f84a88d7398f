//! Watching a tournament (`watch_tournament`, 1.3): a player who is no entrant (a spectator, a
//! club's screen, a bot author's dashboard) hears every `tournament_update` as the entrants do,
//! instead of polling the record. Watchers are not logged: a restart forgets them, and a
//! watcher whose connection is gone when an update goes out is dropped (it watches again after
//! reconnecting).

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

use crate::outbound::Frame;

use super::TournamentActor;

/// The most players one tournament keeps telling beside its entrants; a new watcher past it
/// takes the place of the one that has watched longest.
pub const MAX_WATCHERS: usize = 1024;

/// A tournament's watchers, by player id, oldest first.
#[derive(Debug, Default)]
pub struct Watchers {
    players: VecDeque<String>,
}

impl Watchers {
    /// Adds `player` (again: it moves to the newest place); the oldest leaves past the cap.
    pub fn add(&mut self, player: &str) {
        self.players.retain(|p| p != player);
        if self.players.len() == MAX_WATCHERS {
            self.players.pop_front();
        }
        self.players.push_back(player.to_owned());
    }

    /// Keeps only the watchers `keep` says are still there.
    pub fn retain(&mut self, keep: impl FnMut(&String) -> bool) {
        self.players.retain(keep);
    }

    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.players.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }
}

impl TournamentActor {
    /// `player` watches: it hears where the tournament stands now, and every update after.
    pub(super) fn watch(&mut self, player: &str) {
        self.watchers.add(player);
        let frame = Frame::new(self.unseated_update());
        self.shared.tournaments.tell_frame(player, &frame);
    }

    /// Tells the watchers who are no entrants' players `update` (the frame the unseated
    /// entrants got). On one node, a watcher with no connection left is dropped first; in a
    /// cluster its node may be another, and the cap bounds the list.
    pub(super) fn tell_watchers(&mut self, update: &Arc<Frame>) {
        if self.watchers.is_empty() {
            return;
        }
        if !self.shared.backplane.peers.may_reach_others() {
            let tournaments = &self.shared.tournaments;
            self.watchers.retain(|p| tournaments.is_connected(p));
        }
        // The entrants' players heard it already; gathered once, not searched per watcher.
        let entrants: HashSet<&str> = self
            .state
            .entrants
            .iter()
            .filter(|e| !e.unregistered)
            .flat_map(|e| e.players.iter().map(|p| p.player.as_str()))
            .collect();
        for player in self.watchers.iter() {
            if !entrants.contains(player.as_str()) {
                self.shared.tournaments.tell_frame(player, update);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watcher_again_is_listed_once_and_the_oldest_leaves_past_the_cap() {
        let mut w = Watchers::default();
        w.add("a");
        w.add("b");
        w.add("a");
        assert_eq!(w.iter().collect::<Vec<_>>(), ["b", "a"]);
        for i in 0..MAX_WATCHERS {
            w.add(&format!("p{i}"));
        }
        assert_eq!(w.iter().count(), MAX_WATCHERS);
        assert!(!w.iter().any(|p| p == "b" || p == "a"), "the oldest left");
        w.retain(|p| p != "p0");
        assert_eq!(w.iter().count(), MAX_WATCHERS - 1);
    }
}
