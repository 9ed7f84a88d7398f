//! An arena match's result read from its two tables' logs (the one source of its rating): the
//! same deals played twice, the seats swapped, so the bot's VP are the sum of its VP at the two
//! tables (its score the share of that sum, the mean of its two VP shares) and the luck of the
//! cards cancels; who won is decided by that sum, by the one rule (`FinishedMatch::outcomes`).
//! Pure, unit-tested without a server.

use burraco_protocol::log::{MatchResult, TableEntry};
use burraco_ratings::Category;
use burraco_rules::{Config as GameConfig, Seat};

use crate::ratings::finished::{FinishedMatch, RatedSeat, anchor_account, logged_vp};

/// Who held a seat of an arena table, as its log says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// A bot account, by id.
    Account(String),
    /// A server bot, by its level's code (`"expert"`).
    ServerBot(String),
}

/// One arena table's finished match: who sat South and North, their VP (South's first), its
/// play time.
#[derive(Debug, Clone, PartialEq)]
pub struct TableOutcome {
    pub south: Holder,
    pub north: Holder,
    pub vp: [u8; 2],
    pub play_ms: u64,
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

/// Reads one arena table's log up to its match's end; `None` while it plays, or when it closed
/// unplayed (an arena match with a table that never finished is never rated).
pub fn table_outcome(entries: &[Vec<u8>]) -> Option<TableOutcome> {
    let mut config: Option<GameConfig> = None;
    let mut holders: [Option<Holder>; 4] = Default::default();
    let mut play_ms = 0u64;
    for bytes in entries {
        match TableEntry::decode(bytes).ok()? {
            TableEntry::Created { settings, .. } => {
                config = serde_json::from_str(&settings)
                    .ok()
                    .and_then(|s| burraco_protocol::convert::config_from_wire(&s).ok());
            }
            TableEntry::Seat { seat, holder } => {
                let held = holder.and_then(|h| h.bot).map(Holder::ServerBot);
                // A held seat's later account entry (the bot joined) overrides a plain seat.
                if let Some(slot) = holders.get_mut(usize::from(seat))
                    && (held.is_some() || slot.is_none())
                {
                    *slot = held;
                }
            }
            TableEntry::AccountSeat { seat, account, .. } => {
                if let Some(slot) = holders.get_mut(usize::from(seat)) {
                    *slot = Some(Holder::Account(account.id));
                }
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
                let [south, north] =
                    [Seat::South, Seat::North].map(|seat| holders[seat.index()].clone());
                return Some(TableOutcome {
                    south: south?,
                    north: north?,
                    vp,
                    play_ms,
                });
            }
            TableEntry::Closed => return None,
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

/// The arena match `arena` as one rated head-to-head match: the first table's South (the bot
/// that asked) against its North, with its VP at the first table (South) and at the second
/// (North, the same deals) summed, out of 40. `None` unless both tables finished with the seats
/// swapped.
pub fn duplicate(
    arena: &str,
    first: &TableOutcome,
    second: &TableOutcome,
) -> Option<FinishedMatch> {
    if first.south != second.north || first.north != second.south {
        return None;
    }
    let (a, b) = (subject(&first.south)?, subject(&first.north)?);
    // Each side's VP over both tables: at most 20 + 20.
    let vp = [
        first.vp[0].saturating_add(second.vp[1]),
        first.vp[1].saturating_add(second.vp[0]),
    ];
    Some(FinishedMatch {
        key: arena.to_owned(),
        category: Category::Two,
        seats: vec![
            RatedSeat {
                seat: Seat::South.index() as u8,
                account: a,
                bot: true,
            },
            RatedSeat {
                seat: Seat::North.index() as u8,
                account: b,
                bot: true,
            },
        ],
        vp,
        play_ms: first.play_ms.saturating_add(second.play_ms),
        left: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use burraco_protocol::log::{MatchEndCode, SeatAccount, SeatHolder};
    use burraco_ratings::MatchOutcome;

    fn log(south: &Holder, north: &Holder, vp: [u8; 2]) -> Vec<Vec<u8>> {
        log_of(south, north, [900, 300], vp)
    }

    fn log_of(south: &Holder, north: &Holder, totals: [i32; 2], vp: [u8; 2]) -> Vec<Vec<u8>> {
        let sit = |seat: Seat, holder: &Holder| match holder {
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
        };
        let result = MatchResult {
            sides: vec!["S".into(), "N".into()],
            totals,
            // As tables logged it before issue 32: the higher total, whatever the VP.
            winner: Some(if totals[0] >= totals[1] { "S" } else { "N" }.into()),
            vp: Some(vp),
            end: MatchEndCode::Hands,
            hands: 1,
        };
        [
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
            TableEntry::MatchFinished {
                result: result.to_json(),
            },
        ]
        .iter()
        .map(TableEntry::encode)
        .collect()
    }

    #[test]
    fn both_directions_make_one_match_scored_by_the_mean_share() {
        let (a, b) = (Holder::Account("u-a".into()), Holder::Account("u-b".into()));
        let first = log(&a, &b, [16, 4]);
        assert_eq!(arena_of(&first).as_deref(), Some("A-1"));
        let first = table_outcome(&first).expect("finished");
        // At the second table B holds South's cards and scores 12-8.
        let second = table_outcome(&log(&b, &a, [12, 8])).expect("finished");
        let m = duplicate("A-1", &first, &second).expect("a match");
        assert_eq!(m.vp, [24, 16]);
        assert!(
            (m.score() - (0.8 + 0.4) / 2.0).abs() < 1e-9,
            "{}",
            m.score()
        );
        assert_eq!(m.outcomes(), [MatchOutcome::Won, MatchOutcome::Lost]);
        assert_eq!(m.players_key(), "u-a,u-b");
        // The same seats at both tables is no duplicate pair.
        let same = table_outcome(&log(&a, &b, [12, 8])).expect("finished");
        assert_eq!(duplicate("A-1", &first, &same), None);
    }

    #[test]
    fn a_server_bot_is_its_levels_anchor_and_an_unfinished_table_rates_nothing() {
        let (a, bot) = (
            Holder::Account("u-a".into()),
            Holder::ServerBot("expert".into()),
        );
        let first = table_outcome(&log(&a, &bot, [10, 10])).expect("finished");
        let second = table_outcome(&log(&bot, &a, [10, 10])).expect("finished");
        let m = duplicate("A-1", &first, &second).expect("a match");
        assert_eq!(m.seats[1].account, anchor_account("L2"));
        let mut open = log(&a, &bot, [10, 10]);
        open.pop();
        assert_eq!(table_outcome(&open), None);
    }

    /// Issue 32: a table ending -5 to -55 is 10-10 VP; two such tables are a 20-20 draw, scored a
    /// half, whatever the totals (and the `winner` tables used to log by them).
    #[test]
    fn two_tables_of_10_10_are_a_drawn_arena_match_whatever_the_totals() {
        let (a, b) = (Holder::Account("u-a".into()), Holder::Account("u-b".into()));
        let first = table_outcome(&log_of(&a, &b, [-5, -55], [10, 10])).expect("finished");
        let second = table_outcome(&log_of(&b, &a, [-55, -5], [10, 10])).expect("finished");
        let m = duplicate("A-1", &first, &second).expect("a match");
        assert_eq!(m.vp, [20, 20]);
        assert_eq!(m.outcomes(), [MatchOutcome::Draw, MatchOutcome::Draw]);
        assert_eq!(m.score(), 0.5);
    }
}
