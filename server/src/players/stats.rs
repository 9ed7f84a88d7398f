//! A finished match's rows for the players' index, read from the table's log alone: who held
//! each seat (the last person to hold it once the match began: a player who left and was
//! replaced by a bot still played the match, and lost it), the match's result as the table
//! logged it (its outcome by the one rule, from its VP: `crate::ratings::finished::logged_outcomes`), and
//! each hand's record (burraco and closings from its outcome; the pozzetto taken first from its
//! replay). Pure: no IO, no clock.

use burraco_protocol::log::{MatchResult, TableEntry};
use burraco_protocol::record::HandRecord;
use burraco_ratings::MatchOutcome;
use burraco_rules::{Event, Players, Seat, Seed, Side};

use super::{Category, PlayedMatch, guest_key};

/// A person at a seat.
#[derive(Debug, Clone)]
struct Holder {
    player: String,
    name: String,
    /// The account's id; `None` for a guest.
    account: Option<String>,
}

impl Holder {
    fn key(&self) -> String {
        self.account
            .clone()
            .unwrap_or_else(|| guest_key(&self.player))
    }
}

/// The rows of the match `log` (table `table`'s decoded entries) ended with, one per seat a
/// person held (accounts and guests; server bots have none); empty if the log holds no
/// finished match. `finished_ms` is when it ended. The seats in `left` (by `Seat::index`) were
/// left by their players: a server bot finished the match for them, and their row is a loss
/// whatever it scored (as the ratings count a leaver's match, docs/RATINGS.md "Leavers").
pub fn played_matches(
    table: &str,
    log: &[TableEntry],
    finished_ms: i64,
    left: &[u8],
) -> Vec<PlayedMatch> {
    let mut seats: [Option<Holder>; 4] = Default::default();
    let mut started_ms = None;
    let mut match_no = 0u32;
    let mut tournament = None;
    let mut boards: Vec<[u8; 32]> = Vec::new();
    let mut records = Vec::new();
    let mut result = None;
    for entry in log {
        match entry {
            TableEntry::Seat { seat, holder } => {
                let Some(slot) = seats.get_mut(usize::from(*seat)) else {
                    continue;
                };
                match holder {
                    // A person: a new one, or the same one again (who keeps their account).
                    Some(h)
                        if h.bot.is_none()
                            && slot.as_ref().is_none_or(|s| s.player != h.player) =>
                    {
                        *slot = Some(Holder {
                            player: h.player.clone(),
                            name: h.name.clone(),
                            account: None,
                        });
                    }
                    Some(h) if h.bot.is_none() => {}
                    // A bot or nobody: before the match the seat is no one's; once it began,
                    // the person who left it played it.
                    _ if started_ms.is_none() => *slot = None,
                    _ => {}
                }
            }
            TableEntry::AccountSeat {
                seat,
                holder,
                account,
            } => {
                if let Some(slot) = seats.get_mut(usize::from(*seat)) {
                    *slot = Some(Holder {
                        player: holder.player.clone(),
                        name: holder.name.clone(),
                        account: Some(account.id.clone()),
                    });
                }
            }
            TableEntry::MatchStarted {
                round_started_ms, ..
            } => {
                started_ms = Some(*round_started_ms);
                match_no += 1;
            }
            TableEntry::Tournament { id } => tournament = Some(id.clone()),
            TableEntry::Boards { seeds, .. } => boards = seeds.clone(),
            TableEntry::HandFinished { hand, record, .. } => {
                if let Ok(mut record) = HandRecord::from_json(record) {
                    // A duplicate board's record hides its seed; the log has it.
                    if record.seed.is_none() && record.deck.is_none() {
                        let board = usize::try_from(*hand).ok().and_then(|h| h.checked_sub(1));
                        record.seed = board.and_then(|b| boards.get(b)).map(|s| Seed(*s));
                    }
                    records.push(record);
                }
            }
            TableEntry::MatchFinished { result: json } => {
                result = MatchResult::from_json(json).ok();
                break;
            }
            _ => {}
        }
    }
    let (Some(result), Some(first)) = (result, records.first()) else {
        return Vec::new();
    };
    let players = if first.settings.players == 2 {
        Players::Two
    } else {
        Players::Four
    };
    // The outcome by side in the result's order: its VP decide (a log's `winner` named the higher
    // total before issue 32, and is not read).
    let Ok(config) = first.config() else {
        return Vec::new();
    };
    let outcomes = crate::ratings::finished::logged_outcomes(&config, &result);
    let hands: Vec<HandFigures> = records
        .iter()
        .map(|r| HandFigures::of(r, players))
        .collect();
    // The names the table showed (bots included), from the last hand.
    let shown = |seat: Seat| {
        records
            .last()
            .and_then(|r| r.seats.iter().find(|s| s.seat == seat))
            .map(|s| s.name.clone())
            .unwrap_or_default()
    };
    let mut rows = Vec::new();
    for &seat in players.seats() {
        let Some(holder) = &seats[seat.index()] else {
            continue;
        };
        let side = players.side_of(seat);
        let (us, them) = (side.index(), side.other().index());
        let outcome = if left.contains(&(seat.index() as u8)) {
            MatchOutcome::Lost
        } else {
            outcomes[us]
        };
        let partner = match players {
            Players::Four => seats[seat.partner().index()]
                .as_ref()
                .and_then(|p| Some((p.account.clone()?, p.name.clone()))),
            Players::Two => None,
        };
        let sum = |f: fn(&HandFigures, Side) -> i64| hands.iter().map(|h| f(h, side)).sum();
        rows.push(PlayedMatch {
            account: holder.key(),
            table: table.to_owned(),
            match_no: match_no.max(1),
            seat: seat.code().to_owned(),
            name: holder.name.clone(),
            category: match players {
                Players::Two => Category::Two,
                Players::Four => Category::Four,
            },
            partner,
            opponents: players
                .members(side.other())
                .iter()
                .map(|&s| shown(s))
                .collect(),
            outcome,
            vp: result.vp.map(|vp| [i64::from(vp[us]), i64::from(vp[them])]),
            points: [i64::from(result.totals[us]), i64::from(result.totals[them])],
            hands: i64::from(result.hands),
            burraco: sum(|h, s| h.burraco[s.index()]),
            closings: sum(|h, s| i64::from(h.closed_by == Some(s))),
            pozzetti_first: sum(|h, s| i64::from(h.pozzetto_first == Some(s))),
            duration_ms: started_ms.map_or(0, |s| (finished_ms - s).max(0)),
            finished_ms,
            tournament: tournament.clone(),
        });
    }
    rows
}

/// What one hand's record says of each side.
#[derive(Debug, Clone, Default)]
struct HandFigures {
    burraco: [i64; 2],
    closed_by: Option<Side>,
    /// The side that took a pozzetto first (found by replaying the record; `None` when nobody
    /// did, or the record does not replay).
    pozzetto_first: Option<Side>,
}

impl HandFigures {
    fn of(record: &HandRecord, players: Players) -> HandFigures {
        let mut figures = HandFigures::default();
        if let Some(outcome) = &record.outcome {
            // One score per side, North-South (head to head: South) first.
            for (side, score) in outcome.score.iter().take(2).enumerate() {
                figures.burraco[side] = score.burracos.len() as i64;
            }
            figures.closed_by = outcome.closed_by.map(|s| players.side_of(s));
        }
        figures.pozzetto_first = record.replay().ok().and_then(|replayed| {
            replayed.events.iter().find_map(|e| match e {
                Event::PozzettoTaken { seat, .. } => Some(players.side_of(*seat)),
                _ => None,
            })
        });
        figures
    }
}

#[cfg(test)]
mod tests {
    use burraco_bot::Greedy;
    use burraco_bot::cheat::{Player, play_recorded_hand};
    use burraco_protocol::log::{MatchEndCode, SeatAccount, SeatHolder};
    use burraco_rules::{Config, Preset, TableSettings};

    use super::*;
    use crate::players::Outcome;

    fn holder(player: &str, name: &str, bot: Option<&str>) -> SeatHolder {
        SeatHolder {
            player: player.into(),
            name: name.into(),
            bot: bot.map(Into::into),
        }
    }

    fn account_seat(seat: Seat, player: &str, name: &str, account: &str) -> TableEntry {
        TableEntry::AccountSeat {
            seat: seat.index() as u8,
            holder: holder(player, name, None),
            account: SeatAccount {
                id: account.into(),
                bot: false,
            },
        }
    }

    fn config(players: Players) -> Config {
        Config::new(&TableSettings {
            preset: Preset::Fitab,
            players: Some(players),
            match_length: None,
            clocks: None,
            semipulito: None,
            close_requires_pulito: None,
        })
        .expect("a valid config")
    }

    /// Hands played in process by greedy bots, as their records.
    fn hands(players: Players, seeds: &[u8], names: &[String; 4]) -> Vec<HandRecord> {
        seeds
            .iter()
            .map(|&s| {
                let mut seats: [Player; 4] =
                    std::array::from_fn(|i| Player::Honest(Box::new(Greedy::new(i as u64))));
                play_recorded_hand(
                    config(players),
                    Seat::South,
                    Seed([s; 32]),
                    &mut seats,
                    names,
                    u64::from(s),
                )
                .expect("a hand plays")
            })
            .collect()
    }

    fn finished(records: &[HandRecord]) -> Vec<TableEntry> {
        records
            .iter()
            .enumerate()
            .map(|(i, r)| TableEntry::HandFinished {
                hand: i as u32 + 1,
                record: r.to_json(),
                names: Vec::new(),
            })
            .collect()
    }

    fn result(sides: [&str; 2], totals: [i32; 2], winner: Option<&str>, vp: [u8; 2]) -> TableEntry {
        TableEntry::MatchFinished {
            result: MatchResult {
                sides: sides.map(String::from).to_vec(),
                totals,
                winner: winner.map(String::from),
                vp: Some(vp),
                end: MatchEndCode::Hands,
                hands: 2,
            }
            .to_json(),
        }
    }

    /// What the records say, counted independently of the code under test.
    fn expected(records: &[HandRecord], side: usize, seats_of_side: &[Seat]) -> (i64, i64, i64) {
        let mut burraco = 0;
        let mut closings = 0;
        let mut first = 0;
        for r in records {
            let o = r.outcome.as_ref().expect("finished");
            burraco += o.score[side].burracos.len() as i64;
            closings += i64::from(o.closed_by.is_some_and(|s| seats_of_side.contains(&s)));
            let replayed = r.replay().expect("replays");
            let taker = replayed.events.iter().find_map(|e| match e {
                Event::PozzettoTaken { seat, .. } => Some(*seat),
                _ => None,
            });
            first += i64::from(taker.is_some_and(|s| seats_of_side.contains(&s)));
        }
        (burraco, closings, first)
    }

    #[test]
    fn a_four_player_match_gives_each_person_a_row_with_their_sides_figures() {
        let names = ["Nora", "Ezio", "Sara", "Bot (expert)"].map(String::from);
        let records = hands(Players::Four, &[3, 7], &names);
        let mut log = vec![
            account_seat(Seat::North, "p-n", "Nora", "u-nora"),
            // A guest, replaced by a bot before the match: not counted.
            TableEntry::Seat {
                seat: 3,
                holder: Some(holder("p-x", "Xeno", None)),
            },
            TableEntry::Seat {
                seat: 3,
                holder: Some(holder("b-1", "Bot (expert)", Some("expert"))),
            },
            TableEntry::Seat {
                seat: 1,
                holder: Some(holder("p-e", "Ezio", None)),
            },
            account_seat(Seat::South, "p-s", "Sara", "u-sara"),
            TableEntry::Tournament { id: "T-1".into() },
            TableEntry::MatchStarted {
                first_dealer: 2,
                round_started_ms: 1_000,
            },
            // Ezio leaves mid-match: a bot takes the seat, Ezio still played the match.
            TableEntry::Seat {
                seat: 1,
                holder: Some(holder("b-2", "Bot (expert)", Some("expert"))),
            },
        ];
        log.extend(finished(&records));
        log.push(result(["NS", "EW"], [900, 400], Some("NS"), [16, 4]));
        let rows = played_matches("t-1", &log, 61_000, &[]);
        let by_seat = |code: &str| {
            rows.iter()
                .find(|r| r.seat == code)
                .unwrap_or_else(|| panic!("a row for {code}"))
        };
        assert_eq!(rows.len(), 3, "N, E, S; the bot's seat has none: {rows:?}");
        let nora = by_seat("N");
        assert_eq!(nora.account, "u-nora");
        assert_eq!(nora.category, Category::Four);
        assert_eq!(nora.partner, Some(("u-sara".into(), "Sara".into())));
        assert_eq!(nora.outcome, Outcome::Won);
        assert_eq!(nora.vp, Some([16, 4]));
        assert_eq!(nora.points, [900, 400]);
        assert_eq!(
            nora.opponents,
            vec!["Ezio".to_owned(), "Bot (expert)".into()]
        );
        assert_eq!(nora.duration_ms, 60_000);
        assert_eq!(nora.tournament.as_deref(), Some("T-1"));
        assert_eq!((nora.hands, nora.match_no), (2, 1));
        let ns = expected(&records, 0, &[Seat::North, Seat::South]);
        assert_eq!((nora.burraco, nora.closings, nora.pozzetti_first), ns);
        let ezio = by_seat("E");
        assert_eq!(
            ezio.account,
            guest_key("p-e"),
            "a guest's row is its session's"
        );
        assert_eq!(ezio.outcome, Outcome::Lost);
        assert_eq!(ezio.vp, Some([4, 16]));
        assert_eq!(ezio.partner, None, "a bot partner is nobody's account");
        let ew = expected(&records, 1, &[Seat::East, Seat::West]);
        assert_eq!((ezio.burraco, ezio.closings, ezio.pozzetti_first), ew);
        assert!(
            ns.0 + ew.0 + ns.1 + ew.1 + ns.2 + ew.2 > 0,
            "the hands chosen exercise the counts: {ns:?} {ew:?}"
        );
        assert_eq!(
            ns.1 + ew.1,
            records
                .iter()
                .filter(|r| r.outcome.as_ref().is_some_and(|o| o.closed_by.is_some()))
                .count() as i64,
            "every closing is one side's"
        );
    }

    #[test]
    fn a_head_to_head_draw_and_a_duplicate_boards_seed_from_the_log() {
        let names = ["Nino", "", "Sofia", ""].map(String::from);
        let mut records = hands(Players::Two, &[11], &names);
        let seed = records[0].seed.expect("seeded").0;
        // As a tournament's duplicate-board table logs it: the record without its seed.
        let counted = expected(&records, 0, &[Seat::South]);
        records[0].seed = None;
        let mut log = vec![
            TableEntry::Boards {
                seeds: vec![seed],
                first_dealer: 2,
            },
            account_seat(Seat::South, "p-s", "Sofia", "u-sofia"),
            account_seat(Seat::North, "p-n", "Nino", "u-nino"),
            TableEntry::MatchStarted {
                first_dealer: 2,
                round_started_ms: 5_000,
            },
        ];
        log.extend(finished(&records));
        log.push(result(["S", "N"], [300, 300], None, [10, 10]));
        let rows = played_matches("t-2", &log, 4_000, &[]);
        assert_eq!(rows.len(), 2);
        let sofia = rows.iter().find(|r| r.seat == "S").expect("South's row");
        assert_eq!(sofia.category, Category::Two);
        assert_eq!(sofia.outcome, Outcome::Draw);
        assert_eq!(sofia.opponents, vec!["Nino".to_owned()]);
        assert_eq!(sofia.partner, None);
        assert_eq!(
            sofia.duration_ms, 0,
            "a clock that went back is no negative time"
        );
        assert_eq!(
            (sofia.burraco, sofia.closings, sofia.pozzetti_first),
            counted,
            "the board's seed came from the log, so the replay found the pozzetti"
        );
        // Had Sofia left it (a server bot finishing the match for her), the draw is not hers:
        // her row is a loss; Nino's stays a draw.
        let rows = played_matches("t-2", &log, 4_000, &[Seat::South.index() as u8]);
        let outcome = |seat: &str| rows.iter().find(|r| r.seat == seat).map(|r| r.outcome);
        assert_eq!(outcome("S"), Some(Outcome::Lost));
        assert_eq!(outcome("N"), Some(Outcome::Draw));
    }

    /// Issue 32: totals -5 against -55 in two hands of FITAB are 10-10 VP, a draw for both, as
    /// the rating and the season count it; the log's `winner` (the higher total, as tables
    /// logged it before) is not what decides.
    #[test]
    fn a_10_10_is_a_draw_for_both_whatever_the_totals_and_the_logged_winner() {
        let names = ["Nino", "", "Sofia", ""].map(String::from);
        let records = hands(Players::Two, &[11], &names);
        let mut log = vec![
            account_seat(Seat::South, "p-s", "Sofia", "u-sofia"),
            account_seat(Seat::North, "p-n", "Nino", "u-nino"),
            TableEntry::MatchStarted {
                first_dealer: 2,
                round_started_ms: 5_000,
            },
        ];
        log.extend(finished(&records));
        log.push(result(["S", "N"], [-5, -55], Some("S"), [10, 10]));
        let rows = played_matches("t-4", &log, 65_000, &[]);
        let mut outcomes: Vec<(&str, Outcome)> =
            rows.iter().map(|r| (r.seat.as_str(), r.outcome)).collect();
        outcomes.sort_by_key(|o| o.0);
        assert_eq!(outcomes, [("N", Outcome::Draw), ("S", Outcome::Draw)]);
        let south = rows.iter().find(|r| r.seat == "S").expect("South's row");
        assert_eq!((south.vp, south.points), (Some([10, 10]), [-5, -55]));
        // One VP less is a loss.
        log.pop();
        log.push(result(["S", "N"], [-5, 50], Some("N"), [9, 11]));
        let rows = played_matches("t-4", &log, 65_000, &[]);
        let south = rows.iter().find(|r| r.seat == "S").expect("South's row");
        assert_eq!(south.outcome, Outcome::Lost);
    }

    #[test]
    fn a_log_without_a_finished_match_gives_no_rows() {
        let names = ["A", "B", "C", "D"].map(String::from);
        let mut log = vec![
            account_seat(Seat::North, "p-n", "A", "u-a"),
            TableEntry::MatchStarted {
                first_dealer: 0,
                round_started_ms: 0,
            },
        ];
        log.extend(finished(&hands(Players::Four, &[5], &names)));
        assert!(played_matches("t-3", &log, 1, &[]).is_empty());
        assert!(played_matches("t-3", &[], 1, &[]).is_empty());
    }
}
