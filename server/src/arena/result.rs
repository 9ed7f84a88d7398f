//! An arena match's result read from its tables' logs (the one source of its settlement): the
//! same deals played twice, the seats swapped, so the bot's score is the mean of its two VP
//! shares and the luck of the cards cancels. Who held each seat, who left it and who never came
//! are the tables' fold's (`table::arena_facts_of_log`), read as a restart reads them. Pure,
//! unit-tested without a server. A finished table's VP are summed over the two tables (the
//! bot's score the share of that sum, the mean of its two VP shares), and who won is decided by
//! that sum, by the one rule (`FinishedMatch::outcomes`).
//!
//! The settlement ([`settle`], docs/BOTS.md "The arena"):
//! - both tables finished and nobody left: one head-to-head match scored by the mean share;
//! - a bot that left a table (gave it up, or was gone past the disconnect grace while a server
//!   bot stood in for it) or never came to one (not ready at its start deadline) is a leaver:
//!   the match is rated as one a leaver lost (0-20 for each leaver, nobody else moved:
//!   docs/RATINGS.md "Leavers"), whatever a stand-in scored for it;
//! - a table nobody came to (every seat a no-show) voids the match: not rated, and not counted
//!   toward the daily cap.

use burraco_protocol::log::{MatchResult, TableEntry};
use burraco_ratings::Category;
use burraco_rules::{Config as GameConfig, Seat};

use crate::ratings::finished::{FinishedMatch, RatedSeat, anchor_account, logged_vp};
use crate::table::ArenaSeatFacts;

/// Who held a seat of an arena table, as its log says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// A bot account, by id.
    Account(String),
    /// A server bot, by its level's code (`"expert"`).
    ServerBot(String),
}

impl Holder {
    fn of(seat: &ArenaSeatFacts) -> Option<Holder> {
        match (&seat.account, &seat.server_bot) {
            (Some(account), _) => Some(Holder::Account(account.clone())),
            (None, Some(code)) => Some(Holder::ServerBot(code.clone())),
            (None, None) => None,
        }
    }
}

/// How an arena table's match stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// Not ended: waiting for its bots, or playing.
    InPlay,
    /// Finished: its VP, South's first, and the time its moves took.
    Finished { vp: [u8; 2], play_ms: u64 },
    /// Closed unplayed (its start deadline passed, or an earlier table's did).
    Closed,
}

/// One arena table read from its log.
#[derive(Debug, Clone, PartialEq)]
pub struct TableReading {
    pub standing: Standing,
    pub south: Option<Holder>,
    pub north: Option<Holder>,
    /// The bots that left the table or never came to it.
    pub leavers: Vec<Holder>,
    /// Every seat was a no-show.
    pub nobody_came: bool,
}

/// What the arena makes of a match.
#[derive(Debug, Clone, PartialEq)]
pub enum Settlement {
    /// One rated head-to-head match (its leavers in `left`).
    Rated(FinishedMatch),
    /// Not rated, and not counted toward the daily cap.
    Void,
}

/// The arena match an arena table's log belongs to (its `Tournament` entry names it), if any.
pub fn arena_of(entries: &[Vec<u8>]) -> Option<String> {
    entries
        .iter()
        .find_map(|bytes| match TableEntry::decode(bytes) {
            Ok(TableEntry::Tournament { id }) if super::is_arena(&id) => Some(id),
            _ => None,
        })
}

/// Reads one arena table's log; `None` when it is no table's log.
pub fn read_table(entries: &[Vec<u8>]) -> Option<TableReading> {
    let facts = crate::table::arena_facts_of_log(entries)?;
    let holder = |seat: Seat| facts.seats[seat.index()].as_ref().and_then(Holder::of);
    let in_play: Vec<&ArenaSeatFacts> = facts.seats.iter().flatten().collect();
    let leavers = in_play
        .iter()
        .filter(|s| s.left || s.no_show)
        .filter_map(|s| Holder::of(s))
        .collect();
    let nobody_came = !in_play.is_empty() && in_play.iter().all(|s| s.no_show);
    let standing = if facts.finished {
        finished_score(entries)?
    } else if facts.ended {
        Standing::Closed
    } else {
        Standing::InPlay
    };
    Some(TableReading {
        standing,
        south: holder(Seat::South),
        north: holder(Seat::North),
        leavers,
        nobody_came,
    })
}

/// A finished table's South VP share (from its logged result and settings) and play time.
fn finished_score(entries: &[Vec<u8>]) -> Option<Standing> {
    let mut config: Option<GameConfig> = None;
    let mut play_ms = 0u64;
    for bytes in entries {
        match TableEntry::decode(bytes).ok()? {
            TableEntry::Created { settings, .. } => {
                config = serde_json::from_str(&settings)
                    .ok()
                    .and_then(|s| burraco_protocol::convert::config_from_wire(&s).ok());
            }
            TableEntry::Input { after_ms, .. } => play_ms = play_ms.saturating_add(after_ms),
            TableEntry::MatchFinished { result } => {
                let result = MatchResult::from_json(&result).ok()?;
                let [first, second] = logged_vp(&config?, &result);
                // The result's first side is South's head to head; read it rather than assume.
                let south_first = result.sides.first().is_none_or(|s| s == "S");
                let vp = if south_first {
                    [first, second]
                } else {
                    [second, first]
                };
                return Some(Standing::Finished { vp, play_ms });
            }
            _ => {}
        }
    }
    None
}

/// The rating subject of a holder: a bot account's id, or a server bot's fixed anchor.
fn subject(holder: &Holder) -> Option<String> {
    match holder {
        Holder::Account(id) => Some(id.clone()),
        Holder::ServerBot(code) => {
            let level = burraco_bot::Level::from_code(code)?;
            Some(anchor_account(&level.short()))
        }
    }
}

/// Settles arena match `arena` from its tables' readings, in the order they are played (the
/// tables after one closed unplayed need not be read): `None` while it must wait (a table in
/// play before any closed), or when its tables do not make a duplicate pair. The first table's
/// South is the bot that asked (side 0), its North the opponent; the second has them swapped.
pub fn settle(arena: &str, tables: &[TableReading]) -> Option<Settlement> {
    let first = tables.first()?;
    let (a, b) = (first.south.clone()?, first.north.clone()?);
    // Each side's VP over the tables finished (side 0: South at the first table).
    let mut vp = [0u8; 2];
    let mut finished = 0;
    let mut play_ms = 0u64;
    let mut leavers: Vec<&Holder> = Vec::new();
    let mut closed = false;
    for (at, table) in tables.iter().enumerate() {
        let (south, north) = if at % 2 == 0 { (&a, &b) } else { (&b, &a) };
        if table.south.as_ref() != Some(south) || table.north.as_ref() != Some(north) {
            return None;
        }
        leavers.extend(&table.leavers);
        match &table.standing {
            Standing::InPlay => return None,
            Standing::Finished {
                vp: [south, north],
                play_ms: ms,
            } => {
                // Side 0 holds South's cards at the first table, North's at the second.
                let (ours, theirs) = if at % 2 == 0 {
                    (south, north)
                } else {
                    (north, south)
                };
                vp = [vp[0].saturating_add(*ours), vp[1].saturating_add(*theirs)];
                finished += 1;
                play_ms = play_ms.saturating_add(*ms);
            }
            Standing::Closed if table.nobody_came => return Some(Settlement::Void),
            Standing::Closed => {
                closed = true;
                break;
            }
        }
    }
    let mut left = Vec::new();
    for (holder, seat) in [(&a, Seat::South), (&b, Seat::North)] {
        if leavers.contains(&holder) {
            left.push(seat.index() as u8);
        }
    }
    // A table closed with nobody at fault (no log is written so, but a log is not trusted to
    // be): nothing to rate.
    // Only a match's leavers are rated when one left (by the 0-20 they lost, not its VP).
    if left.is_empty() && (closed || finished < 2) {
        return Some(Settlement::Void);
    }
    Some(Settlement::Rated(FinishedMatch {
        key: arena.to_owned(),
        category: Category::Two,
        seats: vec![
            RatedSeat {
                seat: Seat::South.index() as u8,
                account: subject(&a)?,
                bot: true,
            },
            RatedSeat {
                seat: Seat::North.index() as u8,
                account: subject(&b)?,
                bot: true,
            },
        ],
        vp,
        play_ms,
        left,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use burraco_protocol::log::{ConductMark, MatchEndCode, SeatAccount, SeatHolder};
    use burraco_ratings::MatchOutcome;

    fn sit(seat: Seat, holder: &Holder) -> TableEntry {
        match holder {
            Holder::Account(id) => TableEntry::AccountSeat {
                seat: seat.index() as u8,
                holder: SeatHolder {
                    player: format!("p-{id}"),
                    name: id.clone(),
                    bot: None,
                },
                account: SeatAccount {
                    id: id.clone(),
                    bot: true,
                },
            },
            Holder::ServerBot(code) => TableEntry::Seat {
                seat: seat.index() as u8,
                holder: Some(SeatHolder {
                    player: "bot-1".into(),
                    name: format!("Bot ({code})"),
                    bot: Some(code.clone()),
                }),
            },
        }
    }

    /// An arena table's log: created with `south` and `north` seated, then `more`.
    fn table(south: &Holder, north: &Holder, more: &[TableEntry]) -> Vec<Vec<u8>> {
        let mut entries = vec![
            TableEntry::Created {
                settings: r#"{"preset":"fitab","players":2,"hands":1,"target":null,"clocks":"off","semipulito":null,"close_requires_pulito":null}"#.into(),
                private: false,
                invite: None,
                bots: None,
                created_ms: 1,
            },
            TableEntry::Tournament { id: "A-1".into() },
            sit(Seat::South, south),
            sit(Seat::North, north),
        ];
        entries.extend(more.iter().cloned());
        entries.iter().map(TableEntry::encode).collect()
    }

    fn finished(vp: [u8; 2]) -> TableEntry {
        finished_with([900, 300], vp)
    }

    /// A match finished with `totals` and `vp`, its `winner` the higher total, as tables logged
    /// it before issue 32, whatever the VP.
    fn finished_with(totals: [i32; 2], vp: [u8; 2]) -> TableEntry {
        let result = MatchResult {
            sides: vec!["S".into(), "N".into()],
            totals,
            winner: Some(if totals[0] >= totals[1] { "S" } else { "N" }.into()),
            vp: Some(vp),
            end: MatchEndCode::Hands,
            hands: 1,
        };
        TableEntry::MatchFinished {
            result: result.to_json(),
        }
    }

    fn mark(seat: Seat, mark: ConductMark) -> TableEntry {
        TableEntry::Conduct {
            seat: seat.index() as u8,
            mark,
        }
    }

    fn read(entries: &[Vec<u8>]) -> TableReading {
        read_table(entries).expect("a table's log")
    }

    fn rated(settled: Option<Settlement>) -> FinishedMatch {
        match settled {
            Some(Settlement::Rated(m)) => m,
            other => panic!("not rated: {other:?}"),
        }
    }

    #[test]
    fn both_directions_make_one_match_scored_by_the_mean_share() {
        let (a, b) = (Holder::Account("u-a".into()), Holder::Account("u-b".into()));
        let first = table(&a, &b, &[finished([16, 4])]);
        assert_eq!(arena_of(&first).as_deref(), Some("A-1"));
        let first = read(&first);
        // At the second table B holds South's cards and scores 12-8.
        let second = read(&table(&b, &a, &[finished([12, 8])]));
        let m = rated(settle("A-1", &[first.clone(), second]));
        assert_eq!(m.vp, [24, 16]);
        assert!(
            (m.score() - (0.8 + 0.4) / 2.0).abs() < 1e-9,
            "{}",
            m.score()
        );
        assert_eq!(m.outcomes(), [MatchOutcome::Won, MatchOutcome::Lost]);
        assert_eq!(m.players_key(), "u-a,u-b");
        assert!(m.left.is_empty());
        // The same seats at both tables is no duplicate pair.
        let same = read(&table(&a, &b, &[finished([12, 8])]));
        assert_eq!(settle("A-1", &[first.clone(), same]), None);
        // The second table still to play: nothing yet.
        let waiting = read(&table(&b, &a, &[]));
        assert_eq!(waiting.standing, Standing::InPlay);
        assert_eq!(settle("A-1", &[first, waiting]), None);
    }

    #[test]
    fn a_server_bot_is_its_levels_anchor_and_a_table_in_play_rates_nothing() {
        let (a, bot) = (
            Holder::Account("u-a".into()),
            Holder::ServerBot("expert".into()),
        );
        let first = read(&table(&a, &bot, &[finished([10, 10])]));
        let second = read(&table(&bot, &a, &[finished([10, 10])]));
        let m = rated(settle("A-1", &[first, second]));
        assert_eq!(m.seats[1].account, anchor_account("L2"));
        let playing = read(&table(
            &a,
            &bot,
            &[TableEntry::MatchStarted {
                first_dealer: 0,
                round_started_ms: 1,
            }],
        ));
        assert_eq!(settle("A-1", &[playing]), None);
    }

    #[test]
    fn a_seat_a_server_bot_finished_for_its_account_is_that_accounts_loss() {
        let (a, b) = (Holder::Account("u-a".into()), Holder::Account("u-b".into()));
        // B's grace ran out at the first table: a stand-in played on and won it 16-4.
        let started = TableEntry::MatchStarted {
            first_dealer: 0,
            round_started_ms: 1,
        };
        let first = read(&table(
            &a,
            &b,
            &[
                started.clone(),
                mark(Seat::North, ConductMark::GraceRanOut),
                finished([4, 16]),
            ],
        ));
        assert_eq!(first.leavers, vec![b.clone()]);
        let second = read(&table(&b, &a, &[started, finished([10, 10])]));
        let m = rated(settle("A-1", &[first, second]));
        // B is rated as a leaver (0-20, nobody else moves): never by what the stand-in won.
        assert_eq!(m.left, vec![Seat::North.index() as u8]);
    }

    #[test]
    fn a_no_show_loses_as_a_leaver_and_a_table_nobody_came_to_voids_the_match() {
        let (a, b) = (Holder::Account("u-a".into()), Holder::Account("u-b".into()));
        let no_show = |seats: &[Seat]| {
            let mut entries: Vec<TableEntry> = seats
                .iter()
                .map(|&s| mark(s, ConductMark::NoShow))
                .collect();
            entries.push(TableEntry::Closed);
            entries
        };
        // A came to the first table, B did not: B loses; the second table is never read.
        let first = read(&table(&a, &b, &no_show(&[Seat::North])));
        assert_eq!(first.standing, Standing::Closed);
        let m = rated(settle("A-1", &[first]));
        assert_eq!(m.left, vec![Seat::North.index() as u8]);
        // After the first table, A never came to the second (A sits North there).
        let played = read(&table(&a, &b, &[finished([12, 8])]));
        let second = read(&table(&b, &a, &no_show(&[Seat::North])));
        let m = rated(settle("A-1", &[played.clone(), second]));
        assert_eq!(m.left, vec![Seat::South.index() as u8]);
        // Nobody came: void.
        let nobody = read(&table(&b, &a, &no_show(&[Seat::South, Seat::North])));
        assert!(nobody.nobody_came);
        assert_eq!(settle("A-1", &[played, nobody]), Some(Settlement::Void));
    }

    /// Issue 32: a table ending -5 to -55 is 10-10 VP; two such tables are a 20-20 draw, scored a
    /// half, whatever the totals (and the `winner` tables used to log by them).
    #[test]
    fn two_tables_of_10_10_are_a_drawn_arena_match_whatever_the_totals() {
        let (a, b) = (Holder::Account("u-a".into()), Holder::Account("u-b".into()));
        let first = read(&table(&a, &b, &[finished_with([-5, -55], [10, 10])]));
        let second = read(&table(&b, &a, &[finished_with([-55, -5], [10, 10])]));
        let m = rated(settle("A-1", &[first, second]));
        assert_eq!(m.vp, [20, 20]);
        assert_eq!(m.outcomes(), [MatchOutcome::Draw, MatchOutcome::Draw]);
        assert_eq!(m.score(), 0.5);
    }
}
