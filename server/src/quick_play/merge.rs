//! Which waiting tables of one kind quick play brings together: a pure plan from the tables as
//! every node sees them (the lobby's listings), so each node computes the same plan and carries
//! out only the merges into its own tables (`super::matcher`).
//!
//! A merge moves every player of a table quick play opened (`movable`) into another waiting
//! table of the kind with room for them all. Its direction is fixed by what every node sees
//! alike, so two nodes never move two tables into each other: into an older table, or into one
//! whose players cannot be moved (not a quick play's, or someone there on an older client). A
//! table that receives players is not moved in the same plan, nor one already moved.
//! Rated tables merge when their mean ratings are within each other's window, which widens as
//! each waits ([`crate::ratings::quick_play_window`]): the wait is an argument, never read here.

use std::cmp::Ordering;

use crate::ratings::quick_play_window;

/// A waiting table of the kind, as the plan weighs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Waiting {
    pub table: String,
    /// When it was created (Unix ms): the older of two tables receives.
    pub created_ms: i64,
    /// How long it has waited (ms, as rated quick play counts a wait).
    pub waited_ms: i64,
    pub seated: usize,
    pub free: usize,
    /// Its players may be moved (all of them: a quick play's table, every player on 1.9).
    pub movable: bool,
    /// Rated: the mean rating of its seated accounts; `None` for a casual table.
    pub mean_rating: Option<f64>,
}

/// Move every player of `from` to `into`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    pub from: String,
    pub into: String,
}

impl Waiting {
    fn age_order(&self, other: &Waiting) -> Ordering {
        (self.created_ms, &self.table).cmp(&(other.created_ms, &other.table))
    }

    /// Whether this table's players may go to `into`, by direction and (rated) by rating.
    fn may_go_to(&self, into: &Waiting) -> bool {
        let direction = !into.movable || into.age_order(self) == Ordering::Less;
        let close = match (self.mean_rating, into.mean_rating) {
            (Some(a), Some(b)) => {
                (a - b).abs() <= quick_play_window(self.waited_ms.min(into.waited_ms))
            }
            (None, None) => true,
            _ => false,
        };
        direction && close && self.movable && self.seated > 0
    }
}

/// The merges among `tables` (one kind): each movable table, newest first, goes to the table
/// with room whose rating is closest (rated) or that is oldest (casual; ties: the oldest).
pub fn merges(tables: &[Waiting]) -> Vec<Merge> {
    let mut order: Vec<usize> = (0..tables.len()).collect();
    order.sort_by(|&a, &b| tables[a].age_order(&tables[b]));
    let mut room: Vec<usize> = tables.iter().map(|t| t.free).collect();
    let mut receiving = vec![false; tables.len()];
    let mut moved = vec![false; tables.len()];
    let mut out = Vec::new();
    for &from in order.iter().rev() {
        let source = &tables[from];
        if receiving[from] {
            continue;
        }
        let distance = |to: usize| match (source.mean_rating, tables[to].mean_rating) {
            (Some(a), Some(b)) => (a - b).abs(),
            _ => 0.0,
        };
        // `order` is oldest first: among equally close targets the first found stays.
        let mut best: Option<usize> = None;
        for &to in &order {
            let fits = to != from
                && !moved[to]
                && room[to] >= source.seated
                && source.may_go_to(&tables[to]);
            if fits && best.is_none_or(|b| distance(to) < distance(b)) {
                best = Some(to);
            }
        }
        if let Some(to) = best {
            room[to] -= source.seated;
            receiving[to] = true;
            moved[from] = true;
            out.push(Merge {
                from: source.table.clone(),
                into: tables[to].table.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(table: &str, created_ms: i64, seated: usize, free: usize) -> Waiting {
        Waiting {
            table: table.into(),
            created_ms,
            waited_ms: 0,
            seated,
            free,
            movable: true,
            mean_rating: None,
        }
    }

    fn rated(table: &str, created_ms: i64, rating: f64, waited_ms: i64) -> Waiting {
        Waiting {
            mean_rating: Some(rating),
            waited_ms,
            ..waiting(table, created_ms, 1, 1)
        }
    }

    fn merge(from: &str, into: &str) -> Merge {
        Merge {
            from: from.into(),
            into: into.into(),
        }
    }

    #[test]
    fn askers_split_over_tables_meet_at_the_oldest() {
        // Head to head, one player at each of two tables: the newer one's player moves.
        let two = [waiting("t-b", 20, 1, 1), waiting("t-a", 10, 1, 1)];
        assert_eq!(merges(&two), [merge("t-b", "t-a")]);
        // Four at a table, one asker at each of four tables (two nodes, say): three fill the
        // oldest; the table that received is not moved on.
        let four = [
            waiting("t-1", 10, 1, 3),
            waiting("t-2", 11, 1, 3),
            waiting("t-3", 12, 1, 3),
            waiting("t-4", 13, 1, 3),
        ];
        assert_eq!(
            merges(&four),
            [
                merge("t-4", "t-1"),
                merge("t-3", "t-1"),
                merge("t-2", "t-1")
            ]
        );
        // Two and two: one table of four.
        let pairs = [waiting("t-x", 10, 2, 2), waiting("t-y", 11, 2, 2)];
        assert_eq!(merges(&pairs), [merge("t-y", "t-x")]);
        // Three and two do not fit at one table: nobody moves.
        let apart = [waiting("t-x", 10, 3, 1), waiting("t-y", 11, 2, 2)];
        assert_eq!(merges(&apart), []);
    }

    #[test]
    fn only_a_quick_play_table_whose_players_can_follow_moves() {
        // The older table cannot be moved (not a quick play's, or an older client there): the
        // newer one goes to it; the other way round the newer one receives.
        let mut fixed = waiting("t-a", 10, 1, 1);
        fixed.movable = false;
        assert_eq!(
            merges(&[fixed.clone(), waiting("t-b", 20, 1, 1)]),
            [merge("t-b", "t-a")]
        );
        let mut newer_fixed = fixed.clone();
        newer_fixed.created_ms = 30;
        assert_eq!(
            merges(&[waiting("t-b", 20, 1, 1), newer_fixed.clone()]),
            [merge("t-b", "t-a")]
        );
        // Neither movable: nothing.
        let mut other = newer_fixed;
        other.table = "t-c".into();
        assert_eq!(merges(&[fixed, other]), []);
        // An empty table moves nobody.
        assert_eq!(
            merges(&[waiting("t-a", 10, 1, 1), waiting("t-b", 20, 0, 2)]),
            []
        );
    }

    #[test]
    fn rated_players_meet_once_their_windows_reach_each_other() {
        // The two accounts, 1180 and 1586 (406 apart), each alone at a rated table.
        let at = |waited_ms| {
            [
                rated("t-a", 10, 1180.0, waited_ms),
                rated("t-b", 20, 1586.0, waited_ms),
            ]
        };
        assert_eq!(merges(&at(0)), []);
        // 150 + 5 a second: 406 is reached after 51.2 s.
        assert_eq!(merges(&at(51_000)), []);
        assert_eq!(merges(&at(51_200)), [merge("t-b", "t-a")]);
        // Within each other's window: the table that has waited less decides.
        let once = [
            rated("t-a", 10, 1180.0, 150_000),
            rated("t-b", 20, 1586.0, 10_000),
        ];
        assert_eq!(merges(&once), []);
        // Among tables within reach, the closest rating; a casual table never.
        let three = [
            rated("t-far", 10, 1700.0, 60_000),
            rated("t-near", 11, 1450.0, 60_000),
            rated("t-new", 20, 1500.0, 60_000),
            waiting("t-casual", 5, 1, 1),
        ];
        assert_eq!(merges(&three), [merge("t-new", "t-near")]);
    }
}
