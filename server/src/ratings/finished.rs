//! A finished match as the ratings read it from its table's log (`FinishedMatch::from_log`, the
//! one source of a rating change) and the subjects it rates: apart from the ratings' port, so
//! that what else a match's end feeds in the same transaction (the season's points) reads the
//! same facts without importing the stores. [`logged_vp`] and [`logged_outcomes`] read a logged
//! match's VP and outcome for every reader of a table's log (the players' index, the arena).

use burraco_protocol::log::{MatchResult, SeatAccount, TableEntry};
use burraco_ratings::{Category, MatchOutcome};
use burraco_rules::{Config as GameConfig, Seat};

/// A logged match's VP by side (the order of its `sides`): the VP the table logged, or for a
/// match by points its preset's column (`burraco_ratings::match_vp`, `scoring_column`).
pub fn logged_vp(config: &GameConfig, result: &MatchResult) -> [u8; 2] {
    let column = burraco_ratings::scoring_column(config, result.hands);
    burraco_ratings::match_vp(result.vp, result.totals, column)
}

/// A logged match's outcome by side (the order of its `sides`), by the one rule
/// (`burraco_ratings::match_outcomes`): its VP decide, never its totals, so a table's log written
/// when `winner` still named the higher total reads as the match is told today.
pub fn logged_outcomes(config: &GameConfig, result: &MatchResult) -> [MatchOutcome; 2] {
    burraco_ratings::vp_outcomes(logged_vp(config, result))
}

/// The rating category of a table of `players` seats (2 or 4).
pub fn category_of(players: u8) -> Category {
    if players == 2 {
        Category::Two
    } else {
        Category::Four
    }
}

/// One rated seat of a finished match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedSeat {
    /// [`Seat::index`].
    pub seat: u8,
    pub account: String,
    /// A bot account (half weight: docs/RATINGS.md).
    pub bot: bool,
}

/// A finished rated match, as its table's log says it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedMatch {
    /// The match's key: the table's id (a table plays one match).
    pub key: String,
    pub category: Category,
    /// The accounts at its seats, by seat: South and North head to head, N E S W with four.
    pub seats: Vec<RatedSeat>,
    /// The VP by side, side 0 (North-South; South head to head) first: the logged VP, or a match
    /// by points' by its preset's column ([`logged_vp`]). An arena match sums its two tables'.
    pub vp: [u8; 2],
    /// The time its moves took (between inputs, summed over its hands).
    pub play_ms: u64,
    /// The seats ([`Seat::index`]) whose players left the match (fair play's outcome `left`):
    /// only they are rated, each as losing 0-20 (see [`changes`]).
    pub left: Vec<u8>,
}

/// What the log of a rated table says.
#[derive(Debug, Clone, PartialEq)]
pub enum LoggedEnd {
    /// Not rated, or not a table's log.
    NotRated,
    /// Still in play.
    InPlay,
    /// Closed before its match ended: nothing to rate.
    Closed,
    /// The match ended, but a seat was not an account's (a guest's or a server bot's), or one
    /// account held two seats.
    NotAllAccounts,
    Finished(FinishedMatch),
}

impl FinishedMatch {
    /// Reads a table's log up to its end: whether it is rated, how it ended, who sat where, the
    /// VP. Seats freed after the end (players leaving the finished table) change nothing. No
    /// seat has left ([`FinishedMatch::left`]): fair play's outcomes say that.
    pub fn from_log(key: &str, entries: &[Vec<u8>]) -> LoggedEnd {
        let mut rated = false;
        let mut config: Option<GameConfig> = None;
        let mut accounts: [Option<SeatAccount>; 4] = Default::default();
        let mut play_ms = 0u64;
        let mut result: Option<MatchResult> = None;
        let mut closed = false;
        for bytes in entries {
            let Ok(entry) = TableEntry::decode(bytes) else {
                return LoggedEnd::NotRated;
            };
            match entry {
                TableEntry::Created { settings, .. } => {
                    config = serde_json::from_str(&settings)
                        .ok()
                        .and_then(|s| burraco_protocol::convert::config_from_wire(&s).ok());
                }
                TableEntry::Rated => rated = true,
                TableEntry::Seat { seat, holder } => {
                    // A seat given up to a stand-in keeps its account (the leaver is rated by
                    // the result); a seat freed or taken by a guest has none.
                    let given_up = holder.as_ref().is_some_and(|h| h.bot.is_some());
                    if !given_up && let Some(slot) = accounts.get_mut(usize::from(seat)) {
                        *slot = None;
                    }
                }
                TableEntry::AccountSeat { seat, account, .. } => {
                    if let Some(slot) = accounts.get_mut(usize::from(seat)) {
                        *slot = Some(account);
                    }
                }
                TableEntry::Input { after_ms, .. } => play_ms = play_ms.saturating_add(after_ms),
                TableEntry::MatchFinished { result: json } => {
                    result = MatchResult::from_json(&json).ok();
                    break;
                }
                TableEntry::Closed => {
                    closed = true;
                    break;
                }
                _ => {}
            }
        }
        let Some(config) = config.filter(|_| rated) else {
            return LoggedEnd::NotRated;
        };
        let Some(result) = result else {
            return if closed {
                LoggedEnd::Closed
            } else {
                LoggedEnd::InPlay
            };
        };
        let players = config.players();
        let mut seats: Vec<RatedSeat> = Vec::new();
        for &seat in players.seats() {
            match &accounts[seat.index()] {
                Some(account) => seats.push(RatedSeat {
                    seat: seat.index() as u8,
                    account: account.id.clone(),
                    bot: account.bot,
                }),
                None => return LoggedEnd::NotAllAccounts,
            }
        }
        // One account at two seats (never seated so, but a log is not trusted to be) is not a
        // match between players.
        let mut ids: Vec<&str> = seats.iter().map(|s| s.account.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() != seats.len() {
            return LoggedEnd::NotAllAccounts;
        }
        LoggedEnd::Finished(FinishedMatch {
            key: key.to_owned(),
            category: category_of(players.count() as u8),
            seats,
            vp: logged_vp(&config, &result),
            play_ms,
            left: Vec::new(),
        })
    }

    /// Side 0's score for the rating: its VP share.
    pub fn score(&self) -> f64 {
        burraco_ratings::vp_share(self.vp[0], self.vp[1])
    }

    /// Each side's outcome, side 0 first: the one rule, by the VP
    /// (`burraco_ratings::vp_outcomes`), which the season's points count.
    pub fn outcomes(&self) -> [MatchOutcome; 2] {
        burraco_ratings::vp_outcomes(self.vp)
    }

    /// The accounts of the match, sorted and joined by `,`: the same accounts' matches (the
    /// daily cap) are found by it.
    pub fn players_key(&self) -> String {
        let mut ids: Vec<&str> = self.seats.iter().map(|s| s.account.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.join(",")
    }

    /// A side's seats: side 0 is North-South (South head to head).
    pub(crate) fn side_of(&self, seat: u8) -> usize {
        let seat = Seat::ALL[usize::from(seat) % 4];
        match self.category {
            Category::Two => usize::from(seat == Seat::North),
            _ => seat.side().index(),
        }
    }

    /// Whether the match mixes people and bot accounts (it then counts at half weight).
    pub(crate) fn mixed(&self) -> bool {
        self.seats.iter().any(|s| s.bot) && self.seats.iter().any(|s| !s.bot)
    }
}

/// Who a rating belongs to: an account, or (category `pair`) two partners, sorted.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Subject {
    pub category: Category,
    /// One account, or the two partners, sorted.
    pub members: Vec<String>,
}

impl Subject {
    pub fn one(category: Category, account: &str) -> Subject {
        Subject {
            category,
            members: vec![account.to_owned()],
        }
    }

    pub fn pair(a: &str, b: &str) -> Subject {
        let mut members = vec![a.to_owned(), b.to_owned()];
        members.sort();
        Subject {
            category: Category::FixedPair,
            members,
        }
    }

    /// The stored key: the account, or the partners joined by `+`.
    pub fn key(&self) -> String {
        self.members.join("+")
    }
}

/// How an arena match (`crate::arena`) names a server bot's level in a [`RatedSeat`]: a fixed
/// anchor, never stored, whose rating is [`anchor`]'s.
pub const ANCHOR_PREFIX: &str = "server-bot:";

/// The anchor account of a server bot's level (`"L2"`).
pub fn anchor_account(level: &str) -> String {
    format!("{ANCHOR_PREFIX}{level}")
}

/// The server bots' levels and their fixed ratings in the bots' pool: where the quality
/// measurement of docs/RATINGS.md left each level's bot accounts (head to head, L0 near 1100,
/// L1 near 1575, L2 and L3 near 1645-1655), with a deviation of 50. Fixed, so a bot author's
/// rating against them means the same from one day to the next.
pub const ANCHORS: [(&str, f64); 4] = [
    ("L0", 1100.0),
    ("L1", 1575.0),
    ("L2", 1645.0),
    ("L3", 1655.0),
];

/// The deviation the anchors are given (their strength does not drift).
pub const ANCHOR_DEVIATION: f64 = 50.0;

/// The fixed rating of an anchor account (see [`ANCHOR_PREFIX`]); `None` for any other.
pub fn anchor(account: &str) -> Option<burraco_ratings::Rating> {
    let level = account.strip_prefix(ANCHOR_PREFIX)?;
    let (_, rating) = ANCHORS.iter().find(|(l, _)| *l == level)?;
    Some(burraco_ratings::Rating {
        rating: *rating,
        deviation: ANCHOR_DEVIATION,
        ..burraco_ratings::Rating::new()
    })
}

/// Which subjects a match rates: each account in its category and, with four, each side as a
/// fixed pair (its two accounts sorted). A server bot's anchor is none: it never moves.
pub fn subjects(m: &FinishedMatch) -> Vec<Subject> {
    let mut subjects: Vec<Subject> = m
        .seats
        .iter()
        .filter(|s| anchor(&s.account).is_none())
        .map(|s| Subject::one(m.category, &s.account))
        .collect();
    if m.category == Category::Four {
        for side in 0..2 {
            let members: Vec<&RatedSeat> = m
                .seats
                .iter()
                .filter(|s| m.side_of(s.seat) == side)
                .collect();
            if let [a, b] = members[..] {
                subjects.push(Subject::pair(&a.account, &b.account));
            }
        }
    }
    subjects
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use burraco_protocol::log::{MatchEndCode, SeatHolder};

    /// An account's seat entry: `id` at `seat`, its player `p-{id}`.
    pub(crate) fn account_seat(seat: u8, id: &str) -> TableEntry {
        TableEntry::AccountSeat {
            seat,
            holder: SeatHolder {
                player: format!("p-{id}"),
                name: id.into(),
                bot: None,
            },
            account: SeatAccount {
                id: id.into(),
                bot: false,
            },
        }
    }

    /// A rated head-to-head table's entries for one `fitab` hand, South `u-s` and North `u-n`,
    /// ended with `totals` and `vp` (South's first) and `winner` as the table logged it: created,
    /// rated, the two seats, the match's end.
    pub(crate) fn rated_entries(
        totals: [i32; 2],
        vp: [u8; 2],
        winner: Option<&str>,
    ) -> Vec<TableEntry> {
        let result = MatchResult {
            sides: vec!["S".into(), "N".into()],
            totals,
            winner: winner.map(String::from),
            vp: Some(vp),
            end: MatchEndCode::Hands,
            hands: 1,
        };
        vec![
            TableEntry::Created {
                settings: r#"{"preset":"fitab","players":2,"hands":1,"target":null,"clocks":"off","semipulito":null,"close_requires_pulito":null}"#.into(),
                private: false,
                invite: None,
                bots: None,
                created_ms: 1,
            },
            TableEntry::Rated,
            account_seat(2, "u-s"),
            account_seat(0, "u-n"),
            TableEntry::MatchFinished {
                result: result.to_json(),
            },
        ]
    }

    /// [`rated_entries`] encoded, as a store keeps them.
    pub(crate) fn rated_log(totals: [i32; 2], vp: [u8; 2], winner: Option<&str>) -> Vec<Vec<u8>> {
        rated_entries(totals, vp, winner)
            .iter()
            .map(TableEntry::encode)
            .collect()
    }

    /// Issue 32: -5 against -55 in FITAB's 2-hands column is 10-10, a draw: a half each for the
    /// rating, whatever the totals and the `winner` a table logged by them before.
    #[test]
    fn a_logged_10_10_is_a_drawn_match_whatever_the_totals() {
        let log = rated_log([-5, -55], [10, 10], Some("S"));
        let LoggedEnd::Finished(m) = FinishedMatch::from_log("t-1", &log) else {
            panic!("finished")
        };
        assert_eq!(m.vp, [10, 10]);
        assert_eq!(m.outcomes(), [MatchOutcome::Draw, MatchOutcome::Draw]);
        assert_eq!(m.score(), 0.5);
        // Two new players drawing: neither rating moves.
        let changes = crate::ratings::changes(
            &m,
            &std::collections::HashMap::new(),
            0,
            &burraco_ratings::Config::new(),
        );
        assert_eq!(changes.len(), 2);
        for change in &changes {
            assert_eq!(change.after.rating, change.before.rating, "{change:?}");
        }
    }

    /// A match by points logs no VP: its preset's column decides, for every reader alike.
    #[test]
    fn a_match_by_points_is_decided_by_its_presets_column() {
        let config = GameConfig::of(burraco_rules::Preset::Fedibur);
        let result = |totals: [i32; 2]| MatchResult {
            sides: vec!["NS".into(), "EW".into()],
            totals,
            winner: Some("NS".into()),
            vp: None,
            end: MatchEndCode::Target,
            hands: 6,
        };
        // FEDIBUR's 10-10 row is 0-50 points.
        assert_eq!(logged_vp(&config, &result([2010, 1965])), [10, 10]);
        assert_eq!(
            logged_outcomes(&config, &result([2010, 1965])),
            [MatchOutcome::Draw, MatchOutcome::Draw]
        );
        assert_eq!(
            logged_outcomes(&config, &result([2010, 1500])),
            [MatchOutcome::Won, MatchOutcome::Lost]
        );
    }
}
