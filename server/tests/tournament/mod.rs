/// A tournament's chat (protocol 1.7): who hears it, its text rule, history, refusals.
mod chat;
/// A tournament's chat line reported (protocol 1.8): its context, every refusal, a mute
/// answering it, and the report through another node than the tournament's.
mod chat_report;
/// The account that created a tournament directs it without the token (protocol 1.6).
mod director_account;
/// Presence at a tournament's table: a held seat joined by its entrant is connected to all.
mod presence;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::Duration;

use burraco_bot::Level;
use burraco_bot::tournament::{self as bots, TournamentOptions};
use burraco_protocol::wire::{
    ClientMessage, ServerMessage, WireRegistration, WireTournamentSettings,
};
use serde_json::Value;

use crate::common::*;
use crate::crash::ServerProcess;

fn settings(entrants: u32, rounds: &str, hands: u8) -> WireTournamentSettings {
    WireTournamentSettings {
        name: "test event".into(),
        kind: "pairs".into(),
        rounds: rounds.split(',').map(str::to_owned).collect(),
        hands,
        preset: "fitab".into(),
        max_entrants: Some(entrants),
        seating: Some("registration".into()),
        start_when_full: Some(false),
        clocks: Some("off".into()),
        duplicate: None,
    }
}

pub fn options(addr: SocketAddr, entrants: u32, rounds: &str, hands: u8) -> TournamentOptions {
    TournamentOptions {
        observer: None,
        url: format!("ws://{addr}/ws"),
        entrants,
        settings: settings(entrants, rounds, hands),
        level: Level::Greedy,
        seed: 11,
        deadline: Duration::from_secs(120),
        lineups: Vec::new(),
    }
}

/// The record has `rounds` rounds, every match of them played to its end in `hands` hands.
pub fn assert_every_match_played(record: &Value, rounds: usize, hands: u64) {
    let played = record["rounds"].as_array().expect("rounds");
    assert_eq!(played.len(), rounds);
    for round in played {
        for table in round["tables"].as_array().expect("tables") {
            assert_eq!(table["result"]["played"], true, "{table}");
            assert_eq!(table["result"]["hands"], hands, "{table}");
        }
    }
}

/// The director's `start_round`, answered `ok`.
pub async fn start_round(url: &str, tournament: &str, token: &str) {
    let (t, d) = (tournament.to_owned(), token.to_owned());
    let reply = bots::request(url, |id| ClientMessage::StartRound {
        id,
        tournament: t,
        director: d,
    })
    .await
    .expect("a reply");
    assert!(
        matches!(reply, ServerMessage::Ok { .. }),
        "start_round: {reply:?}"
    );
}

pub async fn get_json(addr: SocketAddr, path: &str) -> Value {
    let (status, body) = http_get(addr, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).expect("json")
}

/// FITAB's 2-hand VP column (RULES.md section 11; a one-hand match uses it too), written here
/// rather than taken from the code under test: the lowest margin of each VP from 10 up.
const FITAB_2_HANDS: [i32; 11] = [0, 55, 135, 215, 315, 415, 515, 635, 755, 885, 1015];

fn vp_for(margin: i32) -> i32 {
    let steps = FITAB_2_HANDS
        .iter()
        .rposition(|&low| margin.abs() >= low)
        .unwrap_or(0) as i32;
    if margin >= 0 { 10 + steps } else { 10 - steps }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Line {
    vp: i32,
    mp: i32,
    burraco: i32,
}

/// The standings after each round, computed from the hand records the record points to, the
/// pairings the record lists, and the adjustments: nothing of the server's scoring.
pub async fn recompute(addr: SocketAddr, record: &Value) -> Vec<Vec<(u64, Line)>> {
    let mut lines: HashMap<u64, Line> = HashMap::new();
    for e in record["entrants"].as_array().expect("entrants") {
        lines.insert(e["entrant"].as_u64().expect("id"), Line::default());
    }
    let mut after = Vec::new();
    for round in record["rounds"].as_array().expect("rounds") {
        if let Some(bye) = round["bye"].as_u64() {
            // FITAB's bye (art. 37): 14 VP / 315 MP in a 2-hand match, which one hand counts as.
            let line = lines.get_mut(&bye).expect("entrant");
            line.vp += 14;
            line.mp += 315;
        }
        for table in round["tables"].as_array().expect("tables") {
            let hands = get_json(addr, table["hand_records"].as_str().expect("address")).await;
            let mut totals = [0i32; 2];
            let mut burraco = [0i32; 2];
            for hand in hands.as_array().expect("hands") {
                let score = hand["outcome"]["score"].as_array().expect("score");
                // North-South first; head to head, South first.
                assert!(
                    score[0]["side"] == "NS" || score[0]["side"] == "S",
                    "{hand}"
                );
                for side in 0..2 {
                    totals[side] += score[side]["total"].as_i64().expect("total") as i32;
                    burraco[side] += score[side]["burracos"]
                        .as_array()
                        .expect("burracos")
                        .iter()
                        .map(|b| b["bonus"].as_i64().expect("bonus") as i32)
                        .sum::<i32>();
                }
            }
            assert_eq!(
                hands.as_array().map(Vec::len),
                record["settings"]["hands"].as_u64().map(|h| h as usize),
                "every hand of the match"
            );
            // An individual event's partners score as their side does, each for themself.
            for (side, keys) in [(0, ["ns", "ns_partner"]), (1, ["ew", "ew_partner"])] {
                for entrant in keys.iter().filter_map(|k| table[*k].as_u64()) {
                    let margin = totals[side] - totals[1 - side];
                    let line = lines.get_mut(&entrant).expect("entrant");
                    line.vp += vp_for(margin);
                    line.mp += margin;
                    line.burraco += burraco[side];
                }
            }
        }
        // An adjustment counts from the standings after the round in play when it was made
        // (`after_round`: the rounds started by then).
        let number = round["round"].as_u64().expect("round");
        for a in record["adjustments"].as_array().expect("adjustments") {
            let after = a["after_round"].as_u64().expect("after_round");
            if after == number || (after == 0 && number == 1) {
                let line = lines
                    .get_mut(&a["entrant"].as_u64().expect("id"))
                    .expect("entrant");
                line.vp += a["vp"].as_i64().expect("vp") as i32;
            }
        }
        let mut sorted: Vec<(u64, Line)> = lines.iter().map(|(e, l)| (*e, *l)).collect();
        sorted.sort_by_key(|(e, l)| (std::cmp::Reverse((l.vp, l.mp, l.burraco)), *e));
        after.push(sorted);
    }
    after
}

pub fn standings_of(value: &Value) -> Vec<(u64, Line)> {
    value
        .as_array()
        .expect("standings")
        .iter()
        .map(|s| {
            (
                s["entrant"].as_u64().expect("entrant"),
                Line {
                    vp: s["vp"].as_i64().expect("vp") as i32,
                    mp: s["mp"].as_i64().expect("mp") as i32,
                    burraco: s["burraco"].as_i64().expect("burraco") as i32,
                },
            )
        })
        .collect()
}

/// Equal lines may be listed in either order: compare the values in order, and the set.
pub fn assert_same_standings(server: &[(u64, Line)], test: &[(u64, Line)], what: &str) {
    let values = |s: &[(u64, Line)]| s.iter().map(|(_, l)| *l).collect::<Vec<_>>();
    assert_eq!(values(server), values(test), "{what}");
    let mut a: Vec<_> = server.to_vec();
    let mut b: Vec<_> = test.to_vec();
    a.sort_by_key(|(e, _)| *e);
    b.sort_by_key(|(e, _)| *e);
    assert_eq!(a, b, "{what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pairs_event_of_bots_scores_as_its_hand_records_say() {
    let server = TestServer::start().await;
    let options = options(server.addr, 8, "mitchell,danish", 1);
    let summary = bots::run(&options).await.expect("the tournament finishes");

    let record = get_json(
        server.addr,
        &format!("/api/tournaments/{}", summary.tournament),
    )
    .await;
    assert_eq!(record["status"], "finished");
    let entrants = record["entrants"].as_array().expect("entrants");
    assert_eq!(entrants.len(), 8);
    assert!(
        entrants.iter().all(|e| e["bot"] == true),
        "bots are labelled"
    );
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 2);
    // Round 1, Mitchell from the registration order: 0-1, 2-3, 4-5, 6-7.
    assert!(
        rounds.iter().all(|r| r["bye"].is_null()),
        "an even field has no bye"
    );
    let pairs = |round: &Value| -> Vec<(u64, u64)> {
        round["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .map(|t| (t["ns"].as_u64().unwrap(), t["ew"].as_u64().unwrap()))
            .collect()
    };
    assert_eq!(pairs(&rounds[0]), [(0, 1), (2, 3), (4, 5), (6, 7)]);

    let after = recompute(server.addr, &record).await;
    // Round 2, Danish: 1st v 2nd, 3rd v 4th... of the standings after round 1.
    let order: Vec<u64> = after[0].iter().map(|(e, _)| *e).collect();
    let mut danish = pairs(&rounds[1]);
    let server_after_1 = standings_of(&rounds[0]["standings"]);
    assert_same_standings(&server_after_1, &after[0], "after round 1");
    let server_order: Vec<u64> = server_after_1.iter().map(|(e, _)| *e).collect();
    let expected: Vec<(u64, u64)> = server_order.chunks(2).map(|c| (c[0], c[1])).collect();
    assert_eq!(danish, expected, "Danish pairing by the standings");
    danish.sort_unstable();
    assert_eq!(order.len(), 8);

    assert_same_standings(&standings_of(&record["standings"]), &after[1], "final");
    let told: Vec<(u64, Line)> = summary
        .standings
        .iter()
        .map(|s| {
            (
                u64::from(s.entrant),
                Line {
                    vp: s.vp,
                    mp: s.mp,
                    burraco: s.burraco,
                },
            )
        })
        .collect();
    assert_same_standings(
        &told,
        &after[1],
        "the players were told the final standings",
    );

    let list = get_json(server.addr, "/api/tournaments").await;
    assert!(
        list.as_array()
            .expect("list")
            .iter()
            .any(|t| t["tournament"] == summary.tournament.as_str() && t["status"] == "finished")
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_singles_round_robin_of_three_rests_each_once_and_scores_the_byes() {
    let server = TestServer::start().await;
    let mut options = options(server.addr, 3, "round_robin,round_robin,round_robin", 1);
    options.settings.kind = "singles".into();
    let summary = bots::run(&options).await.expect("the tournament finishes");
    let record = get_json(
        server.addr,
        &format!("/api/tournaments/{}", summary.tournament),
    )
    .await;
    assert_eq!(
        record["bye_score"],
        serde_json::json!({"vp": 14, "mp": 315})
    );
    let rounds = record["rounds"].as_array().expect("rounds");
    let mut byes: Vec<u64> = rounds
        .iter()
        .map(|r| r["bye"].as_u64().expect("a bye"))
        .collect();
    byes.sort_unstable();
    assert_eq!(byes, [0, 1, 2], "each rests once (Berger tables)");
    let mut met: Vec<(u64, u64)> = rounds
        .iter()
        .flat_map(|r| r["tables"].as_array().expect("tables").clone())
        .map(|t| {
            let (a, b) = (t["ns"].as_u64().unwrap(), t["ew"].as_u64().unwrap());
            (a.min(b), a.max(b))
        })
        .collect();
    met.sort_unstable();
    assert_eq!(met, [(0, 1), (0, 2), (1, 2)], "each meets each once");
    let after = recompute(server.addr, &record).await;
    assert_same_standings(&standings_of(&record["standings"]), &after[2], "final");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knockout_of_five_gives_the_top_seeds_byes_and_ends_with_one_winner() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    // A Sit&Go's list is a power of two (RULES.md section 11): one of five is refused, by
    // name, over the protocol; the same knock-out with the director starting it is not.
    let mut sit_and_go = singles(5, "knockout");
    sit_and_go.start_when_full = Some(true);
    let refusal = bots::create(&url, &sit_and_go)
        .await
        .expect_err("a Sit&Go of five is refused");
    assert!(
        refusal.to_string().contains("invalid_settings")
            && refusal.to_string().contains("2, 4, 8, 16"),
        "{refusal}"
    );
    let mut options = options(server.addr, 5, "knockout", 1);
    options.settings.kind = "singles".into();
    let summary = bots::run(&options).await.expect("the tournament finishes");
    let record = get_json(
        server.addr,
        &format!("/api/tournaments/{}", summary.tournament),
    )
    .await;
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3, "a bracket of 8: three rounds");
    let bracket = |r: &Value| -> Vec<Option<u64>> {
        r["bracket"]
            .as_array()
            .expect("a bracket")
            .iter()
            .map(Value::as_u64)
            .collect()
    };
    // Seeds by registration: 1 v (8), 4 v 5, 2 v (7), 3 v (6): seeds 1-3 go through.
    assert_eq!(
        bracket(&rounds[0]),
        [
            Some(0),
            None,
            Some(3),
            Some(4),
            Some(1),
            None,
            Some(2),
            None
        ]
    );
    assert_eq!(rounds[0]["tables"].as_array().map(Vec::len), Some(1));
    // Each match's winner (VP, then MP, then burraco bonus) takes its place in the next round.
    for (round, next) in rounds.iter().zip(&rounds[1..]) {
        let places = bracket(round);
        let mut winners = Vec::new();
        for place in places.chunks(2) {
            let winner = match place {
                [Some(a), Some(b)] => {
                    let table = round["tables"]
                        .as_array()
                        .expect("tables")
                        .iter()
                        .find(|t| t["ns"].as_u64() == Some(*a) && t["ew"].as_u64() == Some(*b))
                        .expect("their table");
                    let r = &table["result"];
                    let key = |side: usize| {
                        (
                            r["vp"][side].as_i64().unwrap(),
                            r["mp"][side].as_i64().unwrap(),
                            r["burraco"][side].as_i64().unwrap(),
                        )
                    };
                    Some(if key(1) > key(0) { *b } else { *a })
                }
                [Some(a), None] => Some(*a),
                _ => None,
            };
            winners.push(winner);
        }
        assert_eq!(bracket(next), winners);
    }
    let last = bracket(&rounds[2]);
    assert_eq!(last.len(), 2, "the final");
    assert!(
        record["knockout_winner"]
            .as_u64()
            .is_some_and(|w| last.contains(&Some(w)))
    );
    assert_eq!(record["status"], "finished");
    // The byes by draw (`knockout_drawn`): a bracket of eight, three empty places each facing
    // an entrant, played to one winner.
    let mut drawn = self::options(server.addr, 5, "knockout_drawn", 1);
    drawn.settings.kind = "singles".into();
    let summary = bots::run(&drawn)
        .await
        .expect("the drawn knock-out finishes");
    let record = record_of(server.addr, &summary.tournament).await;
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3, "{record}");
    assert!(rounds.iter().all(|r| r["movement"] == "knockout_drawn"));
    let first = bracket(&rounds[0]);
    assert_eq!(first.len(), 8);
    assert_eq!(first.iter().filter(|p| p.is_none()).count(), 3);
    assert!(first.chunks(2).all(|p| p.iter().any(Option::is_some)));
    assert!(record["knockout_winner"].as_u64().is_some(), "{record}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_individual_event_never_repeats_a_partner_and_scores_each_player() {
    let server = TestServer::start().await;
    // The announced criterion (RULES.md section 11): the rotation in round 1, then by standing.
    let mut options = options(server.addr, 8, "round_robin,danish,danish", 1);
    options.settings.kind = "individual".into();
    let summary = bots::run(&options).await.expect("the tournament finishes");
    let record = get_json(
        server.addr,
        &format!("/api/tournaments/{}", summary.tournament),
    )
    .await;
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3);
    let mut partners = std::collections::HashSet::new();
    for round in rounds {
        let mut seated = Vec::new();
        for table in round["tables"].as_array().expect("tables") {
            let at = |k: &str| table[k].as_u64().expect("a player");
            let (n, e, s, w) = (at("ns"), at("ew"), at("ns_partner"), at("ew_partner"));
            seated.extend([n, e, s, w]);
            for pair in [(n.min(s), n.max(s)), (e.min(w), e.max(w))] {
                assert!(partners.insert(pair), "partners twice: {pair:?}");
            }
        }
        seated.sort_unstable();
        assert_eq!(
            seated,
            (0..8).collect::<Vec<u64>>(),
            "everyone plays every round"
        );
    }
    let after = recompute(server.addr, &record).await;
    assert_same_standings(&standings_of(&record["standings"]), &after[2], "final");
    // A round by standing: each table in turn is led by the best-placed player (standings
    // after the round before, as computed here) not seated at an earlier table.
    for (round, before) in rounds.iter().zip(&after).skip(1) {
        let place = |e: u64| before.iter().position(|(p, _)| *p == e).expect("ranked");
        let mut unseated: Vec<u64> = before.iter().map(|(e, _)| *e).collect();
        for table in round["tables"].as_array().expect("tables") {
            let four: Vec<u64> = ["ns", "ew", "ns_partner", "ew_partner"]
                .iter()
                .map(|k| table[*k].as_u64().expect("a player"))
                .collect();
            let leader = four
                .iter()
                .copied()
                .min_by_key(|&e| place(e))
                .expect("four");
            assert_eq!(leader, unseated[0], "round {}: {four:?}", round["round"]);
            unseated.retain(|e| !four.contains(e));
        }
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_boards_are_dealt_at_every_table_and_each_revealed_once_every_table_finished_it()
{
    let server = TestServer::start().await;
    let addr = server.addr;
    // The federation's shape: 3 Mitchell rounds then a Danish one, 2 hands a match.
    let mut options = options(addr, 16, "mitchell,mitchell,mitchell,danish", 2);
    options.settings.duplicate = Some(true);
    let run = tokio::spawn(async move { bots::run(&options).await });
    // While it runs: a board's seed is in the record only once every table of its round has
    // finished it (each table's record of that board is then served), and a table's record of
    // a board is served only once the board is revealed (read again after); never a seed in a
    // duplicate table's hand record.
    let mut hidden = 0;
    while !run.is_finished() {
        let list = get_json(addr, "/api/tournaments").await;
        if let Some(id) = list[0]["tournament"].as_str() {
            let record = get_json(addr, &format!("/api/tournaments/{id}")).await;
            for round in record["rounds"].as_array().expect("rounds") {
                let number = round["round"].as_u64().expect("number") as usize;
                let boards = round["boards"]["hands"].as_array().expect("boards");
                let tables = round["tables"].as_array().expect("tables");
                let mut served = Vec::new();
                for table in tables {
                    let path = table["hand_records"].as_str().expect("address");
                    let hands = get_json(addr, path).await;
                    let hands = hands.as_array().expect("records").clone();
                    for hand in &hands {
                        assert!(hand["seed"].is_null(), "a seed in {hand}");
                    }
                    served.push(hands);
                }
                let again = get_json(addr, &format!("/api/tournaments/{id}")).await;
                let again = &again["rounds"][number - 1]["boards"]["hands"];
                for (k, board) in boards.iter().enumerate() {
                    if board["seed"].is_null() {
                        hidden += 1;
                    } else {
                        for (t, hands) in served.iter().enumerate() {
                            assert!(
                                hands.iter().any(|h| h["commitment"] == board["commitment"]),
                                "board {} revealed before table {} finished it",
                                k + 1,
                                t + 1
                            );
                        }
                    }
                    for hands in &served {
                        if hands.iter().any(|h| h["commitment"] == board["commitment"]) {
                            assert!(!again[k]["seed"].is_null(), "a record of a hidden board");
                        }
                    }
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(hidden > 0, "the record was read while a board was in play");
    let summary = run.await.expect("task").expect("the tournament finishes");
    let record = get_json(addr, &format!("/api/tournaments/{}", summary.tournament)).await;
    for round in record["rounds"].as_array().expect("rounds") {
        let boards = &round["boards"];
        let first_dealer = boards["first_dealer"].as_str().expect("a first dealer");
        let hands = boards["hands"].as_array().expect("boards");
        assert_eq!(hands.len(), 2);
        for hand in hands {
            // Revealed now, and it is what was committed to.
            let seed =
                burraco_rules::Seed::from_hex(hand["seed"].as_str().expect("a seed")).expect("hex");
            assert_eq!(
                seed.commitment_hex(),
                hand["commitment"].as_str().expect("hex")
            );
        }
        // Every table dealt those boards, from the same first dealer.
        let tables = round["tables"].as_array().expect("tables");
        let mut results: Vec<[Vec<i64>; 2]> = Vec::new();
        for table in tables {
            let records = get_json(addr, table["hand_records"].as_str().expect("address")).await;
            let records = records.as_array().expect("records");
            assert_eq!(records[0]["dealer"], first_dealer);
            let mut sides = [Vec::new(), Vec::new()];
            for (k, r) in records.iter().enumerate() {
                assert_eq!(r["commitment"], hands[k]["commitment"], "board {}", k + 1);
                let total = |s: usize| r["outcome"]["score"][s]["total"].as_i64().expect("total");
                sides[0].push(total(0) - total(1));
                sides[1].push(total(1) - total(0));
            }
            results.push(sides);
        }
        // Matchpoints, written here: on each board, 2 per table whose same side did worse,
        // 1 per equal one.
        for (i, table) in tables.iter().enumerate() {
            for side in 0..2 {
                let mut mp = 0;
                for board in 0..2 {
                    let mine = results[i][side][board];
                    for (j, other) in results.iter().enumerate() {
                        if j != i {
                            mp += match mine.cmp(&other[side][board]) {
                                std::cmp::Ordering::Greater => 2,
                                std::cmp::Ordering::Equal => 1,
                                std::cmp::Ordering::Less => 0,
                            };
                        }
                    }
                }
                assert_eq!(table["result"]["matchpoints"][side], mp, "{table}");
            }
        }
    }
    assert_eq!(record["rounds"].as_array().map(Vec::len), Some(4));
    let after = recompute(addr, &record).await;
    for (i, round) in record["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .enumerate()
    {
        let what = format!("after round {}", i + 1);
        assert_same_standings(&standings_of(&round["standings"]), &after[i], &what);
    }
    assert_same_standings(&standings_of(&record["standings"]), &after[3], "final");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_table_is_not_watched_before_its_match_ends() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let mut settings = settings(2, "danish", 1);
    settings.kind = "singles".into();
    settings.duplicate = Some(true);
    let (tournament, token) = bots::create(&url, &settings).await.expect("created");
    register_on_1_1(server.addr, "anna", &tournament).await;
    register_on_1_1(server.addr, "bruno", &tournament).await;
    start_round(&url, &tournament, &token).await;
    let record = get_json(server.addr, &format!("/api/tournaments/{tournament}")).await;
    let table = record["rounds"][0]["tables"][0]["table"]
        .as_str()
        .expect("a table")
        .to_owned();
    assert!(record["rounds"][0]["boards"]["hands"][0]["seed"].is_null());
    // Nobody has come: the table waits, its board unplayed, and nobody may watch it.
    let mut watcher = server.client("watcher").await;
    let reply = watcher
        .request(|id| ClientMessage::Spectate { id, table })
        .await;
    assert!(
        matches!(&reply, ServerMessage::Error { code, .. } if code == "duplicate_in_play"),
        "{reply:?}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_director_adjustment_is_in_the_record_and_the_standings() {
    let server = TestServer::start().await;
    let summary = bots::run(&options(server.addr, 4, "round_robin", 1))
        .await
        .expect("the tournament finishes");
    let url = format!("ws://{}/ws", server.addr);
    let last = summary.standings.last().expect("a last").entrant;
    let (tournament, token) = (summary.tournament.clone(), summary.director_token.clone());
    bots::request(&url, |id| ClientMessage::AdjustScore {
        id,
        tournament,
        director: token,
        entrant: last,
        vp: 40,
        reason: "scoring error at table 2, corrected".into(),
    })
    .await
    .expect("the director adjusts");
    // A wrong token is refused.
    let tournament = summary.tournament.clone();
    let refused = bots::request(&url, |id| ClientMessage::AdjustScore {
        id,
        tournament,
        director: "0".repeat(32),
        entrant: last,
        vp: 40,
        reason: "not the director".into(),
    })
    .await;
    assert!(
        matches!(&refused, Err(bots::TournamentError::Refused(_, e)) if e.starts_with("not_director")),
        "{refused:?}"
    );

    let record = get_json(
        server.addr,
        &format!("/api/tournaments/{}", summary.tournament),
    )
    .await;
    let adjustments = record["adjustments"].as_array().expect("adjustments");
    assert_eq!(adjustments.len(), 1);
    assert_eq!(
        adjustments[0]["reason"],
        "scoring error at table 2, corrected"
    );
    assert_eq!(adjustments[0]["vp"], 40);
    let standings = standings_of(&record["standings"]);
    assert_eq!(
        standings[0].0,
        u64::from(last),
        "40 VP take the last to the top"
    );
    let before = summary
        .standings
        .iter()
        .find(|s| s.entrant == last)
        .expect("line");
    assert_eq!(standings[0].1.vp, before.vp + 40);
    let after = recompute(server.addr, &record).await;
    assert_same_standings(
        &standings,
        after.last().expect("rounds"),
        "with the adjustment",
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_1_0_client_never_receives_a_1_1_message() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    // A 1.0 connection asking a 1.1 request is refused, in 1.0 terms.
    let mut old = server.client("old").await;
    let reply = old
        .request(|id| ClientMessage::RegisterTournament {
            id,
            tournament: "T-0000000000".into(),
            partner_code: None,
            bot: None,
        })
        .await;
    assert!(
        matches!(&reply, ServerMessage::Error { code, .. } if code == "needs_minor"),
        "{reply:?}"
    );

    // Two singles entrants register on 1.1; one of them comes back saying 1.0.
    let mut settings = settings(2, "danish", 1);
    settings.kind = "singles".into();
    let (tournament, token) = bots::create(&url, &settings).await.expect("created");
    let mut options = options(server.addr, 1, "danish", 1);
    options.settings = settings;
    let players = bots::register_and_play(&options, &tournament)
        .await
        .expect("a bot registers");
    let session = register_on_1_1(server.addr, "anna", &tournament).await;
    let (mut anna, _) = Client::connect(server.addr, "anna", Some(&session)).await;
    start_round(&url, &tournament, &token).await;
    // The 1.0 connection reads for a while: nothing of 1.1 (no go_to_table, no update).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
    let mut read = 0;
    while let Ok(Some(m)) = tokio::time::timeout_at(deadline, anna.read()).await {
        assert_eq!(m.minor(), 0, "a 1.0 client got {m:?}");
        read += 1;
    }
    // Its seat is held all the same: a resume lists it in the welcome.
    drop(anna);
    let (_, welcome) = Client::connect(server.addr, "anna", Some(&session)).await;
    let ServerMessage::Welcome { seats, .. } = welcome else {
        unreachable!()
    };
    assert_eq!(
        seats.len(),
        1,
        "the round's seat is held for the 1.0 player ({read} read)"
    );
    drop(players);
    server.stop().await;
}

/// Says hello as 1.1 on a raw socket and registers; returns the session's resume token.
async fn register_on_1_1(addr: SocketAddr, name: &str, tournament: &str) -> String {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("ws connect");
    let send = |m: ClientMessage| Message::text(burraco_protocol::codec::to_json(&m));
    ws.send(send(ClientMessage::Hello {
        version: "1.1".into(),
        name: name.into(),
        resume: None,
    }))
    .await
    .expect("hello");
    ws.send(send(ClientMessage::RegisterTournament {
        id: 1,
        tournament: tournament.into(),
        partner_code: None,
        bot: None,
    }))
    .await
    .expect("register");
    let mut token = None;
    while let Some(Ok(frame)) = ws.next().await {
        let Message::Text(text) = frame else { continue };
        let m: ServerMessage = burraco_protocol::codec::from_json(text.as_str(), usize::MAX)
            .result
            .expect("a message");
        match m {
            ServerMessage::Welcome { session, .. } => token = Some(session),
            ServerMessage::TournamentRegistered { .. } => break,
            ServerMessage::Error { .. } => panic!("{m:?}"),
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    token.expect("welcomed")
}

/// The real binary on `data` at `listen`; returns it and its address.
fn start_at(data: &std::path::Path, listen: &str) -> (ServerProcess, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_burraco-server"))
        .args(["--listen", listen, "--data"])
        .arg(data)
        .env("BURRACO_NEXT_HAND_DELAY_SECS", "0")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a first line");
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .expect("listening line")
        .parse()
        .expect("address");
    (ServerProcess(child), addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_round_then_restart_and_the_tournament_finishes() {
    let data = tempfile::tempdir().expect("temp dir");
    let (mut child, addr) = start_at(data.path(), "127.0.0.1:0");
    let options = options(addr, 4, "mitchell,danish,danish", 3);
    let (tournament, token) = bots::create(&options.url, &options.settings)
        .await
        .expect("created");
    let players = bots::register_and_play(&options, &tournament)
        .await
        .expect("registered");
    start_round(&options.url, &tournament, &token).await;
    // Mid-round: a round in play, some of its tables' hands dealt.
    let path = format!("/api/tournaments/{tournament}");
    loop {
        let record = get_json(addr, &path).await;
        let hands = record["rounds"][0]["tables"][0]["hand_records"]
            .as_str()
            .map(str::to_owned);
        if let Some(hands) = hands {
            let records = get_json(addr, &hands).await;
            if !records.as_array().expect("records").is_empty() {
                assert_eq!(record["status"], "playing");
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The operator's view of this process: one tournament in play, one round started.
    assert_eq!(metric_at(addr, "burraco_tournaments").await, 1.0);
    assert_eq!(
        metric_at(addr, "burraco_tournament_round_start_seconds_count").await,
        1.0
    );
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");

    // Same data, same address: the bots reconnect and resume.
    let (_child, addr) = start_at(data.path(), &addr.to_string());
    assert_eq!(
        metric_at(addr, "burraco_tournaments").await,
        1.0,
        "restored in play"
    );
    let finished = tokio::time::timeout(Duration::from_secs(60), bots::finish(players)).await;
    let Ok(finished) = finished else {
        panic!("not finished in time: {}", get_json(addr, &path).await);
    };
    let standings = finished.expect("the tournament finishes after the restart");
    assert_eq!(standings.len(), 4);
    let record = get_json(addr, &path).await;
    assert_eq!(record["status"], "finished");
    assert_every_match_played(&record, 3, 3);
    assert_eq!(standings_of(&record["standings"]).len(), 4);
    // This process resumed round 1 and started rounds 2 and 3; finished, nothing is in play.
    assert_eq!(metric_at(addr, "burraco_tournaments").await, 0.0);
    assert_eq!(
        metric_at(addr, "burraco_tournament_round_start_seconds_count").await,
        2.0
    );
    assert!(metric_at(addr, "burraco_tournament_results_seconds_count").await >= 3.0);
    assert!(metric_at(addr, "burraco_tournament_update_seconds_count").await >= 3.0);
}

/// A series' value in the `/metrics` of the server process at `addr` (its own process: exact).
async fn metric_at(addr: SocketAddr, series: &str) -> f64 {
    let (status, body) = http_get(addr, "/metrics").await;
    assert_eq!(status, 200, "{body}");
    body.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map(|value| value.trim().parse().expect("a number"))
        .unwrap_or_else(|| panic!("{series} missing from:\n{body}"))
}

/// A player on a raw socket whose hello says this server's version (1.2): sends requests and
/// keeps every other message it reads.
struct Player {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    next_id: u64,
    heard: Vec<ServerMessage>,
}

impl Player {
    async fn connect(addr: SocketAddr, name: &str) -> Player {
        Player::connect_saying(addr, name, &burraco_protocol::wire::protocol_version()).await
    }

    async fn connect_saying(addr: SocketAddr, name: &str, version: &str) -> Player {
        use futures_util::SinkExt;
        use tokio_tungstenite::tungstenite::Message;
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("ws connect");
        let hello = ClientMessage::Hello {
            version: version.into(),
            name: name.into(),
            resume: None,
        };
        ws.send(Message::text(burraco_protocol::codec::to_json(&hello)))
            .await
            .expect("hello");
        let mut player = Player {
            ws,
            next_id: 0,
            heard: Vec::new(),
        };
        let welcome = player.read().await.expect("welcome");
        assert!(
            matches!(welcome, ServerMessage::Welcome { .. }),
            "{welcome:?}"
        );
        player
    }

    async fn read(&mut self) -> Option<ServerMessage> {
        use futures_util::StreamExt;
        use tokio_tungstenite::tungstenite::Message;
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(30), self.ws.next())
                .await
                .ok()??
                .ok()?;
            if let Message::Text(text) = frame {
                return burraco_protocol::codec::from_json(text.as_str(), usize::MAX)
                    .result
                    .ok();
            }
        }
    }

    /// Sends a request; its reply (an error included).
    async fn request(&mut self, make: impl FnOnce(u64) -> ClientMessage) -> ServerMessage {
        use futures_util::SinkExt;
        use tokio_tungstenite::tungstenite::Message;
        self.next_id += 1;
        let id = self.next_id;
        let message = make(id);
        self.ws
            .send(Message::text(burraco_protocol::codec::to_json(&message)))
            .await
            .expect("send");
        loop {
            let m = self.read().await.expect("a reply");
            if reply_id(&m) == Some(id) {
                return m;
            }
            self.heard.push(m);
        }
    }

    /// Reads until a message `pred` accepts (kept in `heard` too).
    /// `register_tournament` as a plain entrant (no partner code, not a bot); the reply.
    async fn register(&mut self, tournament: &str) -> ServerMessage {
        let t = tournament.to_owned();
        self.request(|id| ClientMessage::RegisterTournament {
            id,
            tournament: t,
            partner_code: None,
            bot: None,
        })
        .await
    }

    async fn wait(&mut self, pred: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
        if let Some(m) = self.heard.iter().find(|m| pred(m)) {
            return m.clone();
        }
        loop {
            let m = self.read().await.expect("the awaited message");
            self.heard.push(m.clone());
            if pred(&m) {
                return m;
            }
        }
    }
}

fn error_code(m: &ServerMessage) -> Option<&str> {
    match m {
        ServerMessage::Error { code, .. } => Some(code.as_str()),
        _ => None,
    }
}

fn singles(entrants: u32, rounds: &str) -> WireTournamentSettings {
    let mut s = settings(entrants, rounds, 1);
    s.kind = "singles".into();
    s
}

/// The record of tournament `id`.
/// The record as the endpoint serves it, read as JSON (the tests check it as any reader would).
/// Every record fetched also reads as protocol's `TournamentRecord` and writes back the same:
/// the typed record holds every field, in the shape docs/TOURNAMENT_RECORD.md gives.
async fn record_of(addr: SocketAddr, id: &str) -> Value {
    let record: Value = get_json(addr, &format!("/api/tournaments/{id}")).await;
    let typed: burraco_protocol::tournament_record::TournamentRecord =
        serde_json::from_value(record.clone()).expect("a record reads as TournamentRecord");
    assert_eq!(
        serde_json::to_value(&typed).expect("json"),
        record,
        "the typed record writes back what was served"
    );
    record
}

/// Waits (bounded) until the record satisfies `done`; the record.
async fn record_until(addr: SocketAddr, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let record = record_of(addr, id).await;
        if done(&record) {
            return record;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never reached: {record}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// FITAB art. 37 on a 100 ms "minute": the entrant who never comes to its table is warned, the
/// present side is given 100 then 150 points, and past 10 minutes the match is lost 14-6 with
/// the equivalent MP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entrant_who_never_comes_is_warned_then_loses_the_match_by_the_code() {
    late_entrant_loses_by_the_code(false).await;
}

/// A `leave` at a tournament's table before the match keeps the seat held: the player is late
/// as if never come (the table is not closed as an empty one, scoring nothing to anyone).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entrant_who_sits_then_leaves_before_the_match_is_late_by_the_code() {
    late_entrant_loses_by_the_code(true).await;
}

async fn late_entrant_loses_by_the_code(sits_then_leaves: bool) {
    let server = TestServer::with(|c| c.tournament_minute = Duration::from_millis(100)).await;
    // Told where to go, the player stays away (or sits and leaves at once).
    let (tournament, _, bot, mut absent, go) =
        started_with_one_player(&server, 2, "danish", "absent").await;
    if sits_then_leaves {
        let ServerMessage::GoToTable { table, seat, .. } = go else {
            unreachable!()
        };
        let t = table.clone();
        let reply = absent
            .request(|id| ClientMessage::Join {
                id,
                table: Some(t),
                invite: None,
                seat: Some(seat),
            })
            .await;
        assert!(matches!(reply, ServerMessage::Seated { .. }), "{reply:?}");
        let t = table.clone();
        let reply = absent
            .request(|id| ClientMessage::Leave { id, table: t })
            .await;
        assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
        // The seat is still the entrant's: nobody else takes it.
        let mut other = Player::connect(server.addr, "seat-taker").await;
        let reply = other
            .request(|id| ClientMessage::Join {
                id,
                table: Some(table),
                invite: None,
                seat: Some(seat),
            })
            .await;
        assert!(
            matches!(reply, ServerMessage::Error { .. }),
            "the held seat was taken: {reply:?}"
        );
    }
    let record = record_until(server.addr, &tournament, |r| r["status"] == "finished").await;
    let table = &record["rounds"][0]["tables"][0];
    assert_eq!(table["awarded"], "late_arrival", "{table}");
    // The bot registered first: entrant 0, South (side 0).
    assert_eq!(table["result"]["vp"], serde_json::json!([14, 6]), "{table}");
    assert_eq!(
        table["result"]["mp"],
        serde_json::json!([315, -315]),
        "{table}"
    );
    let late = record["late_arrivals"].as_array().expect("late arrivals");
    let points: Vec<i64> = late
        .iter()
        .map(|l| l["points"].as_i64().expect("points"))
        .collect();
    assert!(points.contains(&100) && points.contains(&150), "{late:?}");
    assert!(late.iter().all(|l| l["entrant"] == 1), "{late:?}");
    assert_eq!(
        record["entrants"][1]["warnings"], 1,
        "one warning for being late"
    );
    // One warning costs nothing yet in FITAB (1 VP for every two).
    let standings = standings_of(&record["standings"]);
    assert_eq!(
        standings[0],
        (
            0,
            Line {
                vp: 14,
                mp: 315,
                burraco: 0
            }
        )
    );
    assert_eq!(
        standings[1],
        (
            1,
            Line {
                vp: 6,
                mp: -315,
                burraco: 0
            }
        )
    );
    // The present player heard the end.
    let told = bots::finish(bot).await.expect("the bot hears the end");
    assert_eq!(told[0].entrant, 0);
    assert_eq!(told[0].vp, 14);
    server.stop().await;
}

/// FITAB art. 36: an entrant that leaves during the event loses its match in play ("a 0"), the
/// innocent side gets the bye score (nothing was played), and the entrant's later opponents by
/// the fixed schedule get the bye score too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entrant_that_abandons_loses_and_its_opponents_get_the_bye_score() {
    let server = TestServer::start().await;
    let (tournament, _, bots_playing, mut leaver, _) =
        started_with_one_player(&server, 4, "mitchell,mitchell", "leaver").await;
    // Leaving after the start is abandoning.
    let t = tournament.clone();
    let reply = leaver
        .request(|id| ClientMessage::UnregisterTournament { id, tournament: t })
        .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let record = record_until(server.addr, &tournament, |r| r["status"] == "finished").await;
    assert_eq!(
        record["entrants"][3]["withdrawn"],
        "abandoned the tournament"
    );
    // Mitchell of 4 singles: 0-1 and 2-3, then 0-3 and 2-1.
    let find = |round: usize, entrant: u64| -> Value {
        record["rounds"][round]["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .find(|t| t["ns"] == entrant || t["ew"] == entrant)
            .cloned()
            .expect("a table")
    };
    let first = find(0, 3);
    assert_eq!(first["awarded"], "abandonment", "{first}");
    let second = find(1, 3);
    assert_eq!(second["awarded"], "absent_opponent", "{second}");
    for table in [&first, &second] {
        let leaver_side = usize::from(table["ew"] == 3);
        let innocent = 1 - leaver_side;
        assert_eq!(table["result"]["vp"][innocent], 14, "the bye's VP: {table}");
        assert_eq!(
            table["result"]["mp"][innocent], 315,
            "the bye's MP: {table}"
        );
        assert_eq!(table["result"]["vp"][leaver_side], 0, "{table}");
    }
    // The leaver ranks last with nothing; the others' standings are what their records say.
    let standings = standings_of(&record["standings"]);
    assert_eq!(standings.last().map(|(e, l)| (*e, l.vp)), Some((3, 0)));
    drop(bots_playing);
    server.stop().await;
}

/// FITAB art. 36: a side that cannot go on for force majeure (`excuse_entrant`, 1.3) gets 6 VP
/// in a match of 2 or 3 hands, with their equivalent MP, instead of "a 0"; the innocent side
/// the bye score. A 1.2 connection is refused the request by name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entrant_excused_for_force_majeure_gets_the_codes_6_vp() {
    let server = TestServer::start().await;
    let (tournament, token, bot, _excused, _) =
        started_with_one_player(&server, 2, "danish", "excused").await;
    let excuse = |id: u64| ClientMessage::ExcuseEntrant {
        id,
        tournament: tournament.clone(),
        director: token.clone(),
        entrant: 1,
        reason: "taken ill".into(),
    };
    let mut old = Player::connect_saying(server.addr, "old director", "1.2").await;
    let reply = old.request(excuse).await;
    assert_eq!(error_code(&reply), Some("needs_minor"), "{reply:?}");
    let mut director = Player::connect(server.addr, "director").await;
    let reply = director.request(excuse).await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let record = record_until(server.addr, &tournament, |r| r["status"] == "finished").await;
    assert_eq!(record["entrants"][1]["withdrawn"], "taken ill");
    let table = &record["rounds"][0]["tables"][0];
    assert_eq!(table["awarded"], "force_majeure", "{table}");
    let excused_side = usize::from(table["ew"] == 1);
    let innocent = 1 - excused_side;
    // FITAB, one hand (the 2-hand column): the bye's 14 VP / 315 MP; 6 VP are the 14-6 row's
    // loser, -315 MP.
    assert_eq!(table["result"]["vp"][innocent], 14, "{table}");
    assert_eq!(table["result"]["mp"][innocent], 315, "{table}");
    assert_eq!(table["result"]["vp"][excused_side], 6, "{table}");
    assert_eq!(table["result"]["mp"][excused_side], -315, "{table}");
    let standings = standings_of(&record["standings"]);
    assert_eq!(standings.last().map(|(e, l)| (*e, l.vp)), Some((1, 6)));
    drop(bot);
    server.stop().await;
}

/// `set_lineup` on a raw socket: a team's player sets it (in the record at once, as the
/// entrant's `lineup`); a line-up that is not the team's four players, a player of no team, and
/// an event without teams are refused by name, and nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_lineup_is_a_teams_players_and_refused_as_documented() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let mut teams = settings(2, "danish", 1);
    teams.kind = "teams".into();
    let (tournament, _) = bots::create(&url, &teams).await.expect("created");
    let lineup = |order: Vec<u8>| {
        let tournament = tournament.clone();
        move |id| ClientMessage::SetLineup {
            id,
            tournament,
            order,
        }
    };
    let mut outsider = Player::connect(server.addr, "outsider").await;
    let reply = outsider.request(lineup(vec![0, 2, 1, 3])).await;
    assert_eq!(error_code(&reply), Some("not_registered"), "{reply:?}");
    let mut captain = Player::connect(server.addr, "captain").await;
    let reply = captain.register(&tournament).await;
    assert!(
        matches!(
            reply,
            ServerMessage::TournamentRegistered { entrant: 0, .. }
        ),
        "{reply:?}"
    );
    for bad in [
        vec![0, 1, 2],
        vec![0, 0, 1, 2],
        vec![0, 1, 2, 4],
        vec![0, 1, 2, 3, 0],
    ] {
        let reply = captain.request(lineup(bad.clone())).await;
        assert_eq!(
            error_code(&reply),
            Some("invalid_message"),
            "{bad:?}: {reply:?}"
        );
    }
    assert_eq!(
        record_of(server.addr, &tournament).await["entrants"][0]["lineup"],
        Value::Null
    );
    let reply = captain.request(lineup(vec![0, 3, 1, 2])).await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    assert_eq!(
        record_of(server.addr, &tournament).await["entrants"][0]["lineup"],
        serde_json::json!([0, 3, 1, 2])
    );
    // Pairs: no line-ups.
    let (pairs, _) = bots::create(&url, &settings(2, "danish", 1))
        .await
        .expect("created");
    let reply = captain.register(&pairs).await;
    assert!(
        matches!(reply, ServerMessage::TournamentRegistered { .. }),
        "{reply:?}"
    );
    let reply = captain
        .request(|id| ClientMessage::SetLineup {
            id,
            tournament: pairs.clone(),
            order: vec![0, 1, 2, 3],
        })
        .await;
    assert_eq!(error_code(&reply), Some("invalid_message"), "{reply:?}");
    server.stop().await;
}

/// A singles tournament of `rounds` (one hand a match) with `entrants` - 1 bots and, last, a
/// player on a raw socket called `name`; its first round started and the player told its table
/// (the `go_to_table`): (tournament, director token, the bots playing, the player, the message).
async fn started_with_one_player(
    server: &TestServer,
    entrants: u32,
    rounds: &str,
    name: &str,
) -> (String, String, bots::Players, Player, ServerMessage) {
    let url = format!("ws://{}/ws", server.addr);
    let settings = singles(entrants, rounds);
    let (tournament, token) = bots::create(&url, &settings).await.expect("created");
    let mut options = options(server.addr, entrants - 1, rounds, 1);
    options.settings = settings;
    let bots_playing = bots::register_and_play(&options, &tournament)
        .await
        .expect("the bots register");
    let mut player = Player::connect(server.addr, name).await;
    let reply = player.register(&tournament).await;
    assert!(
        matches!(reply, ServerMessage::TournamentRegistered { entrant, .. } if entrant == entrants - 1),
        "{reply:?}"
    );
    start_round(&url, &tournament, &token).await;
    let go = player
        .wait(|m| matches!(m, ServerMessage::GoToTable { .. }))
        .await;
    (tournament, token, bots_playing, player, go)
}

/// `watch_tournament` (1.3) on a raw socket: a player who is no entrant hears where the
/// tournament stands at once and an update on every change (a registration here, then the
/// round's start), never a seat, a `go_to_table` or an entrant's `tournament_status`; refused
/// by name on a 1.2 connection and for an unknown tournament.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_hears_every_update_and_nothing_an_entrant_alone_hears() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let (tournament, token) = bots::create(&url, &singles(2, "danish"))
        .await
        .expect("created");
    let watch = |tournament: &str| {
        let tournament = tournament.to_owned();
        move |id| ClientMessage::WatchTournament { id, tournament }
    };
    let mut old = Player::connect_saying(server.addr, "old", "1.2").await;
    let reply = old.request(watch(&tournament)).await;
    assert_eq!(error_code(&reply), Some("needs_minor"), "{reply:?}");
    let mut watcher = Player::connect(server.addr, "watcher").await;
    let reply = watcher.request(watch("T-0000000000")).await;
    assert_eq!(error_code(&reply), Some("unknown_tournament"), "{reply:?}");
    let reply = watcher.request(watch(&tournament)).await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let update = |round: u32, status: &'static str, entrants: usize| {
        move |m: &ServerMessage| {
            matches!(m, ServerMessage::TournamentUpdate { round: r, status: s, standings, .. }
                if *r == round && s == status && standings.len() == entrants)
        }
    };
    watcher.wait(update(0, "registering", 0)).await;
    let mut anna = Player::connect(server.addr, "anna").await;
    anna.register(&tournament).await;
    watcher.wait(update(0, "registering", 1)).await;
    let mut bruno = Player::connect(server.addr, "bruno").await;
    bruno.register(&tournament).await;
    start_round(&url, &tournament, &token).await;
    watcher.wait(update(1, "playing", 2)).await;
    anna.wait(|m| matches!(m, ServerMessage::GoToTable { .. }))
        .await;
    for m in &watcher.heard {
        assert!(
            !matches!(
                m,
                ServerMessage::GoToTable { .. }
                    | ServerMessage::TournamentStatus { .. }
                    | ServerMessage::TournamentUpdate { table: Some(_), .. }
            ),
            "a watcher heard {m:?}"
        );
    }
    server.stop().await;
}

/// Sends a director request on a fresh 1.2 connection; the reply.
async fn direct(url: &str, make: impl FnOnce(u64) -> ClientMessage) -> ServerMessage {
    match bots::request(url, make).await {
        Ok(m) => m,
        Err(bots::TournamentError::Refused(_, e)) => ServerMessage::error(
            Some(1),
            burraco_protocol::ErrorCode::parse(e.split(':').next().unwrap_or(""))
                .unwrap_or(burraco_protocol::ErrorCode::InternalError),
            e.clone(),
            None,
        ),
        Err(e) => panic!("{e}"),
    }
}

/// The entrants of each table of a round, as pairs.
fn meetings(round: &Value) -> Vec<(u64, u64)> {
    round["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| (t["ns"].as_u64().expect("ns"), t["ew"].as_u64().expect("ew")))
        .collect()
}

/// The director's seating, a pause holding the next round, a forbidden pairing kept apart in a
/// Danish round, warnings costing VP (FITAB: 1 for every two) and an expulsion (its opponents
/// get at least 12 VP from their match with it, it ranks last); the standings computed here
/// from the record's results and those rules.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_director_seats_pauses_forbids_warns_and_disqualifies() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let mut settings = singles(4, "danish,danish");
    settings.seating = Some("director".into());
    let (tournament, token) = bots::create(&url, &settings).await.expect("created");
    let mut options = options(server.addr, 4, "danish,danish", 1);
    options.settings = settings;
    let players = bots::register_and_play(&options, &tournament)
        .await
        .expect("four bots register");
    let (t, d) = (tournament.clone(), token.clone());
    let reply = direct(&url, |id| ClientMessage::SeatEntrants {
        id,
        tournament: t,
        director: d,
        order: vec![3, 1, 2, 0],
    })
    .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::PauseTournament {
        id,
        tournament: t,
        director: d,
    })
    .await;
    let (t, d) = (tournament.clone(), token.clone());
    let refused = direct(&url, |id| ClientMessage::StartRound {
        id,
        tournament: t,
        director: d,
    })
    .await;
    assert_eq!(
        error_code(&refused),
        Some("tournament_paused"),
        "{refused:?}"
    );
    // Resumed, the round starts; paused again at once, the second waits for the director.
    for resume in [true, false] {
        let (t, d) = (tournament.clone(), token.clone());
        direct(&url, |id| {
            if resume {
                ClientMessage::ResumeTournament {
                    id,
                    tournament: t,
                    director: d,
                }
            } else {
                ClientMessage::StartRound {
                    id,
                    tournament: t,
                    director: d,
                }
            }
        })
        .await;
    }
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::PauseTournament {
        id,
        tournament: t,
        director: d,
    })
    .await;
    let record = record_until(server.addr, &tournament, |r| {
        r["rounds"][0]["complete"] == true
    })
    .await;
    assert_eq!(
        meetings(&record["rounds"][0]),
        [(3, 1), (2, 0)],
        "the director's order"
    );
    assert_eq!(record["first_round_order"], serde_json::json!([3, 1, 2, 0]));
    tokio::time::sleep(Duration::from_millis(500)).await;
    let record = record_of(server.addr, &tournament).await;
    assert_eq!(
        record["rounds"].as_array().map(Vec::len),
        Some(1),
        "paused: no round 2"
    );
    assert_eq!(record["paused"], true);
    // The Danish round would pair the first two: the director forbids it.
    let order: Vec<u64> = standings_of(&record["standings"])
        .iter()
        .map(|(e, _)| *e)
        .collect();
    let (t, d) = (tournament.clone(), token.clone());
    let forbidden = [order[0] as u32, order[1] as u32];
    direct(&url, |id| ClientMessage::ForbidPairing {
        id,
        tournament: t,
        director: d,
        entrants: forbidden.to_vec(),
    })
    .await;
    let warned = order[3] as u32;
    for reason in ["slow play", "slow play again"] {
        let (t, d) = (tournament.clone(), token.clone());
        direct(&url, |id| ClientMessage::WarnEntrant {
            id,
            tournament: t,
            director: d,
            entrant: warned,
            reason: reason.into(),
        })
        .await;
    }
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::ResumeTournament {
        id,
        tournament: t,
        director: d,
    })
    .await;
    let record = record_until(server.addr, &tournament, |r| r["status"] == "finished").await;
    let second = meetings(&record["rounds"][1]);
    assert_eq!(second.len(), 2);
    for (a, b) in &second {
        let pair = [*a as u32, *b as u32];
        assert!(
            pair != forbidden && pair != [forbidden[1], forbidden[0]],
            "the forbidden pairing was made: {second:?}"
        );
    }
    // Expelled after the end: the standings change, the results do not.
    let expelled = order[0] as u32;
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::DisqualifyEntrant {
        id,
        tournament: t,
        director: d,
        entrant: expelled,
        reason: "signalling".into(),
    })
    .await;
    let record = record_of(server.addr, &tournament).await;
    assert_eq!(
        record["entrants"][expelled as usize]["disqualified"],
        "signalling"
    );
    assert_eq!(record["entrants"][warned as usize]["warnings"], 2);
    // Written here: VP by the record's match results, at least 12 against the expelled entrant,
    // 1 VP off for two warnings; the expelled entrant last.
    let mut vp: HashMap<u64, i64> = HashMap::new();
    for round in record["rounds"].as_array().expect("rounds") {
        for table in round["tables"].as_array().expect("tables") {
            let sides = [
                table["ns"].as_u64().expect("ns"),
                table["ew"].as_u64().expect("ew"),
            ];
            for side in 0..2 {
                let mut got = table["result"]["vp"][side].as_i64().expect("vp");
                if sides[1 - side] == u64::from(expelled) {
                    got = got.max(12);
                }
                *vp.entry(sides[side]).or_default() += got;
            }
        }
    }
    *vp.get_mut(&u64::from(warned)).expect("warned") -= 1;
    let standings = standings_of(&record["standings"]);
    assert_eq!(standings.last().map(|(e, _)| *e), Some(u64::from(expelled)));
    for (entrant, line) in &standings {
        assert_eq!(
            i64::from(line.vp),
            vp[entrant],
            "entrant {entrant}: {standings:?}"
        );
    }
    drop(players);
    server.stop().await;
}

/// FITAB 2014 art. 37 bis gives at least 12 VP to the entrants an expelled one met at a table,
/// nobody else. A singles round robin of five, seated 4, 0, 1, 2, 3 (Berger: 4 rests, 0-3,
/// 1-2; then 2 rests, 3-1, 4-0; then 0 rests, 1-4, 2-3): entrant 4, a raw socket, abandons in
/// round 2, and 1 is expelled before round 3, where the two were to meet. That table is scored
/// `absent_opponent` (both gone: 0 VP each), and 4 keeps its 14 VP of the bye: it never met 1.
/// The record says when each left; the standings after round 1 are not rewritten, those after
/// round 2 on count the expulsion; here computed from the record's results and those rules.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expulsion_gives_12_vp_only_to_those_the_expelled_entrant_met_at_a_table() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let rounds = "round_robin,round_robin,round_robin";
    let mut settings = singles(5, rounds);
    settings.seating = Some("director".into());
    let (tournament, token) = bots::create(&url, &settings).await.expect("created");
    let mut options = options(server.addr, 4, rounds, 1);
    options.settings = settings;
    let players = bots::register_and_play(&options, &tournament)
        .await
        .expect("four bots register");
    let mut leaver = Player::connect(server.addr, "leaver").await;
    let reply = leaver.register(&tournament).await;
    assert!(
        matches!(
            reply,
            ServerMessage::TournamentRegistered { entrant: 4, .. }
        ),
        "{reply:?}"
    );
    let (t, d) = (tournament.clone(), token.clone());
    let reply = direct(&url, |id| ClientMessage::SeatEntrants {
        id,
        tournament: t,
        director: d,
        order: vec![4, 0, 1, 2, 3],
    })
    .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    start_round(&url, &tournament, &token).await;
    // Resting in round 1, the leaver is first sent to a table in round 2 (against 0). Round 3
    // is held until the expulsion.
    leaver
        .wait(|m| matches!(m, ServerMessage::GoToTable { .. }))
        .await;
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::PauseTournament {
        id,
        tournament: t,
        director: d,
    })
    .await;
    let t = tournament.clone();
    let reply = leaver
        .request(|id| ClientMessage::UnregisterTournament { id, tournament: t })
        .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let before = record_until(server.addr, &tournament, |r| {
        r["rounds"][1]["complete"] == true
    })
    .await;
    assert_eq!(meetings(&before["rounds"][0]), [(0, 3), (1, 2)]);
    assert_eq!(before["rounds"][0]["bye"], 4);
    assert_eq!(meetings(&before["rounds"][1]), [(3, 1), (4, 0)]);
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::DisqualifyEntrant {
        id,
        tournament: t,
        director: d,
        entrant: 1,
        reason: "signalling".into(),
    })
    .await;
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::ResumeTournament {
        id,
        tournament: t,
        director: d,
    })
    .await;
    let record = record_until(server.addr, &tournament, |r| r["status"] == "finished").await;
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3);
    assert_eq!(meetings(&rounds[2]), [(1, 4), (2, 3)]);
    let absent = &rounds[2]["tables"][0];
    assert_eq!(absent["awarded"], "absent_opponent", "{absent}");
    assert_eq!(
        absent["result"]["vp"],
        serde_json::json!([0, 0]),
        "{absent}"
    );
    // When each left: 4 during round 2, 1 between rounds 2 and 3.
    let (leaver_entry, expelled) = (&record["entrants"][4], &record["entrants"][1]);
    assert_eq!(leaver_entry["withdrawn"], "abandoned the tournament");
    assert_eq!(leaver_entry["withdrawn_after_round"], 2, "{leaver_entry}");
    assert_eq!(expelled["disqualified"], "signalling");
    assert_eq!(expelled["disqualified_after_round"], 2, "{expelled}");
    let ms = |v: &Value| v.as_i64().expect("ms");
    assert!(ms(&leaver_entry["withdrawn_ms"]) >= ms(&rounds[1]["started_ms"]));
    assert!(ms(&expelled["disqualified_ms"]) >= ms(&leaver_entry["withdrawn_ms"]));
    assert!(ms(&expelled["disqualified_ms"]) <= ms(&rounds[2]["started_ms"]));
    // The standings after round 1 are as they were before the expulsion.
    assert_eq!(
        rounds[0]["standings"], before["rounds"][0]["standings"],
        "round 1's standings rewritten"
    );
    // Written here: each round's VP from the record's results and byes (14, FITAB's bye with
    // one hand); from the standings after round 2 (`disqualified_after_round`), at least 12
    // against the expelled entrant where the two sat at a table (not `absent_opponent`).
    let vp_after = |after: usize| {
        let counts_expulsion = after >= 2;
        let mut vp: HashMap<u64, i64> = HashMap::new();
        for round in &rounds[..after] {
            if let Some(bye) = round["bye"].as_u64() {
                *vp.entry(bye).or_default() += 14;
            }
            for table in round["tables"].as_array().expect("tables") {
                let sides = [
                    table["ns"].as_u64().expect("ns"),
                    table["ew"].as_u64().expect("ew"),
                ];
                let met =
                    table["awarded"] != "absent_opponent" && table["awarded"] != "late_arrival";
                for side in 0..2 {
                    let mut got = table["result"]["vp"][side].as_i64().expect("vp");
                    if counts_expulsion && met && sides[1 - side] == 1 {
                        got = got.max(12);
                    }
                    *vp.entry(sides[side]).or_default() += got;
                }
            }
        }
        vp
    };
    let mut vp = HashMap::new();
    for (i, round) in rounds.iter().enumerate() {
        vp = vp_after(i + 1);
        let standings = standings_of(&round["standings"]);
        if i + 1 >= 2 {
            assert_eq!(standings.last().map(|(e, _)| *e), Some(1), "expelled last");
        }
        for (entrant, line) in &standings {
            assert_eq!(
                i64::from(line.vp),
                vp[entrant],
                "after round {}, entrant {entrant}: {standings:?}",
                i + 1
            );
        }
    }
    assert_eq!(vp[&4], 14, "the bye, then nothing: 4 never met 1");
    drop(players);
    server.stop().await;
}

/// An invite-only list with check-in: the code is needed, the list closes (by the director and
/// by its deadline), and an entrant that never checked in is a no-show: left out of the first
/// round and of the standings. A scheduled event starts by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_by_invitation_with_check_in_and_a_scheduled_start() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let (tournament, token) = bots::create(&url, &singles(4, "danish"))
        .await
        .expect("created");
    let (t, d) = (tournament.clone(), token.clone());
    let configured = direct(&url, |id| ClientMessage::ConfigureRegistration {
        id,
        tournament: t,
        director: d,
        registration: WireRegistration {
            open: true,
            invite_only: true,
            closes_ms: None,
            starts_ms: None,
            check_in: true,
            bots_after_secs: None,
        },
    })
    .await;
    let ServerMessage::RegistrationConfigured {
        invite: Some(invite),
        ..
    } = configured
    else {
        panic!("{configured:?}")
    };
    let mut players = Vec::new();
    for name in ["anna", "bruno", "carla"] {
        let mut p = Player::connect(server.addr, name).await;
        let plain = p.register(&tournament).await;
        assert_eq!(error_code(&plain), Some("bad_invite"), "{plain:?}");
        let t = tournament.clone();
        let wrong = p
            .request(|id| ClientMessage::RegisterInvited {
                id,
                tournament: t,
                invite: "00000000".into(),
                partner_code: None,
                bot: None,
            })
            .await;
        assert_eq!(error_code(&wrong), Some("bad_invite"), "{wrong:?}");
        let (t, code) = (tournament.clone(), invite.clone());
        let ok = p
            .request(|id| ClientMessage::RegisterInvited {
                id,
                tournament: t,
                invite: code,
                partner_code: None,
                bot: None,
            })
            .await;
        assert!(
            matches!(ok, ServerMessage::TournamentRegistered { .. }),
            "{ok:?}"
        );
        players.push(p);
    }
    // Anna and Bruno check in; Carla does not.
    for p in players.iter_mut().take(2) {
        let t = tournament.clone();
        let ok = p
            .request(|id| ClientMessage::CheckInTournament { id, tournament: t })
            .await;
        assert!(matches!(ok, ServerMessage::Ok { .. }), "{ok:?}");
    }
    let status = players[0]
        .wait(|m| {
            matches!(
                m,
                ServerMessage::TournamentStatus {
                    checked_in: Some(true),
                    ..
                }
            )
        })
        .await;
    assert!(
        matches!(
            status,
            ServerMessage::TournamentStatus {
                registration_open: true,
                ..
            }
        ),
        "{status:?}"
    );
    // A deadline already past is refused (it would close the list at once)...
    let configure = |closes_ms: i64| {
        let (t, d) = (tournament.clone(), token.clone());
        move |id| ClientMessage::ConfigureRegistration {
            id,
            tournament: t,
            director: d,
            registration: WireRegistration {
                open: true,
                invite_only: true,
                closes_ms: Some(closes_ms),
                starts_ms: None,
                check_in: true,
                bots_after_secs: None,
            },
        }
    };
    let past = direct(&url, configure(1)).await;
    assert_eq!(error_code(&past), Some("time_in_past"), "{past:?}");
    // ...one a moment ahead is taken, and sent again unchanged once past, it is kept.
    // Two seconds ahead: a director's connection and request take well over 300 ms on a busy
    // machine, and the deadline must still be ahead when the server reads it.
    let closes_ms = burraco_server::ids::unix_ms() + 2_000;
    let ahead = direct(&url, configure(closes_ms)).await;
    assert!(
        matches!(ahead, ServerMessage::RegistrationConfigured { .. }),
        "{ahead:?}"
    );
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let again = direct(&url, configure(closes_ms)).await;
    assert!(
        matches!(again, ServerMessage::RegistrationConfigured { .. }),
        "{again:?}"
    );
    // The deadline passed: nobody else comes in.
    let mut late = Player::connect(server.addr, "dario").await;
    let (t, code) = (tournament.clone(), invite.clone());
    let closed = late
        .request(|id| ClientMessage::RegisterInvited {
            id,
            tournament: t,
            invite: code,
            partner_code: None,
            bot: None,
        })
        .await;
    assert_eq!(
        error_code(&closed),
        Some("registration_closed"),
        "{closed:?}"
    );
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::StartRound {
        id,
        tournament: t,
        director: d,
    })
    .await;
    let record = record_of(server.addr, &tournament).await;
    assert_eq!(record["entrants"][2]["no_show"], true);
    assert_eq!(
        meetings(&record["rounds"][0]),
        [(0, 1)],
        "the no-show is not paired"
    );
    assert_eq!(record["registration"]["invite_only"], true);
    assert!(
        !record.to_string().contains(&invite),
        "the invitation code is secret"
    );
    // Carla is not in the standings; Anna and Bruno are told where to go.
    assert!(
        standings_of(&record["standings"])
            .iter()
            .all(|(e, _)| *e != 2)
    );
    players[0]
        .wait(|m| matches!(m, ServerMessage::GoToTable { .. }))
        .await;

    // A scheduled event: two bots register, and the round starts at its time by itself.
    let (scheduled, token) = bots::create(&url, &singles(2, "danish"))
        .await
        .expect("created");
    let (t, d) = (scheduled.clone(), token.clone());
    let starts_ms = burraco_server::ids::unix_ms() + 1_500;
    direct(&url, |id| ClientMessage::ConfigureRegistration {
        id,
        tournament: t,
        director: d,
        registration: WireRegistration {
            open: true,
            invite_only: false,
            closes_ms: None,
            starts_ms: Some(starts_ms),
            check_in: false,
            bots_after_secs: None,
        },
    })
    .await;
    let mut options = options(server.addr, 2, "danish", 1);
    options.settings = singles(2, "danish");
    let bots_playing = bots::register_and_play(&options, &scheduled)
        .await
        .expect("bots register");
    let standings = bots::finish(bots_playing).await.expect("it is played");
    assert_eq!(standings.len(), 2);
    let record = record_of(server.addr, &scheduled).await;
    let started = record["rounds"][0]["started_ms"].as_i64();
    assert!(started.is_none_or(|s| s >= starts_ms), "{record}");
    assert_eq!(record["status"], "finished");
    drop(players);
    server.stop().await;
}

/// A start time already past is refused (it would start the event at once, or end it short of
/// entrants): the event stays as it was. Each way a partner code fails has its own code, and a
/// tournament name with a bidi override or a double click's second create are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_times_partner_codes_bidi_names_and_double_creates_are_refused_by_their_codes() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let (tournament, token) = bots::create(&url, &settings(4, "mitchell", 1))
        .await
        .expect("created");
    let (t, d) = (tournament.clone(), token.clone());
    let past = direct(&url, |id| ClientMessage::ConfigureRegistration {
        id,
        tournament: t,
        director: d,
        registration: WireRegistration {
            open: true,
            invite_only: false,
            closes_ms: None,
            starts_ms: Some(burraco_server::ids::unix_ms() - 60_000),
            check_in: false,
            bots_after_secs: None,
        },
    })
    .await;
    assert_eq!(error_code(&past), Some("time_in_past"), "{past:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let record = record_of(server.addr, &tournament).await;
    assert_eq!(record["status"], "registering", "{record}");
    assert_eq!(record["registration"]["starts_ms"], Value::Null);

    let mut anna = Player::connect(server.addr, "anna").await;
    let ServerMessage::TournamentRegistered {
        partner_code: Some(code),
        ..
    } = anna.register(&tournament).await
    else {
        panic!("anna's registration")
    };
    let with_code = |code: &str| {
        let (t, c) = (tournament.clone(), code.to_owned());
        move |id| ClientMessage::RegisterTournament {
            id,
            tournament: t,
            partner_code: Some(c),
            bot: None,
        }
    };
    let mut bruno = Player::connect(server.addr, "bruno").await;
    let unknown = bruno.request(with_code("00000000")).await;
    assert_eq!(
        error_code(&unknown),
        Some("unknown_partner_code"),
        "{unknown:?}"
    );
    let joined = bruno.request(with_code(&code)).await;
    assert!(
        matches!(
            joined,
            ServerMessage::TournamentRegistered { entrant: 0, .. }
        ),
        "{joined:?}"
    );
    let mut carla = Player::connect(server.addr, "carla").await;
    let spent = carla.request(with_code(&code)).await;
    assert_eq!(error_code(&spent), Some("entrant_complete"), "{spent:?}");

    // A bidi override in a tournament's name; the same create twice at once.
    let mut bidi = settings(4, "mitchell", 1);
    bidi.name = "Bidi \u{202E}evil\u{202C} name".into();
    let refused = carla
        .request(|id| ClientMessage::CreateTournament {
            id,
            settings: Box::new(bidi),
        })
        .await;
    assert_eq!(
        error_code(&refused),
        Some("invalid_settings"),
        "{refused:?}"
    );
    let create = |id| ClientMessage::CreateTournament {
        id,
        settings: Box::new(settings(4, "mitchell", 1)),
    };
    let first = carla.request(create).await;
    assert!(
        matches!(first, ServerMessage::TournamentCreated { .. }),
        "{first:?}"
    );
    let second = carla.request(create).await;
    assert_eq!(error_code(&second), Some("repeated_create"), "{second:?}");
    server.stop().await;
}

/// A Sit&Go knock-out of 8: two players register, server bots (labelled) fill the other six
/// after the wait, and it starts; an entrant withdrawn after the quarter-finals leaves an empty
/// place, so its semi-final opponent goes through to the final without playing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sit_and_go_of_8_fills_with_server_bots_and_a_withdrawal_gives_a_bye_to_the_final() {
    let server = TestServer::with(|c| c.bot_delay = Duration::ZERO).await;
    let url = format!("ws://{}/ws", server.addr);
    let mut settings = singles(8, "knockout");
    settings.start_when_full = Some(true);
    let (tournament, token) = bots::create(&url, &settings).await.expect("created");
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::ConfigureRegistration {
        id,
        tournament: t,
        director: d,
        registration: WireRegistration {
            open: true,
            invite_only: false,
            closes_ms: None,
            starts_ms: None,
            check_in: false,
            bots_after_secs: Some(1),
        },
    })
    .await;
    let mut options = options(server.addr, 2, "knockout", 1);
    options.settings = settings;
    let players = bots::register_and_play(&options, &tournament)
        .await
        .expect("two register");
    // Filled and started: held at once, so the quarter-finals end with the director.
    let record = record_until(server.addr, &tournament, |r| {
        r["rounds"].as_array().is_some_and(|r| !r.is_empty())
    })
    .await;
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::PauseTournament {
        id,
        tournament: t,
        director: d,
    })
    .await;
    let entrants = record["entrants"].as_array().expect("entrants");
    assert_eq!(entrants.len(), 8);
    for (i, e) in entrants.iter().enumerate() {
        assert_eq!(e["bot"], true, "every entrant here is a bot: {e}");
        assert_eq!(e["server_bot"], i >= 2, "{e}");
    }
    assert_eq!(meetings(&record["rounds"][0]).len(), 4, "quarter-finals");
    let record = record_until(server.addr, &tournament, |r| {
        r["rounds"][0]["complete"] == true
    })
    .await;
    assert_eq!(
        record["rounds"].as_array().map(Vec::len),
        Some(1),
        "held by the pause"
    );
    // The quarter-finals' winners, by VP, from the record (a tie on VP is decided by MP, then
    // more: those are left out, so the one withdrawn below is surely a winner).
    let winners: Vec<u64> = record["rounds"][0]["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .filter(|t| t["result"]["vp"][0] != t["result"]["vp"][1])
        .map(|t| {
            let vp = &t["result"]["vp"];
            if vp[1].as_i64() > vp[0].as_i64() {
                t["ew"].as_u64()
            } else {
                t["ns"].as_u64()
            }
            .expect("entrant")
        })
        .collect();
    let withdrawn = winners[0] as u32;
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::WithdrawEntrant {
        id,
        tournament: t,
        director: d,
        entrant: withdrawn,
        reason: "had to leave".into(),
    })
    .await;
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::ResumeTournament {
        id,
        tournament: t,
        director: d,
    })
    .await;
    let record = record_until(server.addr, &tournament, |r| r["status"] == "finished").await;
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3, "quarter-finals, semi-finals, final");
    let semis = &rounds[1];
    assert_eq!(meetings(semis).len(), 1, "one semi-final is played");
    let bracket = semis["bracket"].as_array().expect("bracket");
    assert!(
        bracket.iter().any(Value::is_null),
        "an empty place: {bracket:?}"
    );
    // The withdrawn entrant's semi-final opponent is in the final without playing.
    let place = bracket
        .iter()
        .position(|e| e.is_null())
        .expect("the empty place");
    let through = bracket[place ^ 1].as_u64().expect("its opponent");
    let final_ = meetings(&rounds[2]);
    assert!(
        final_[0].0 == through || final_[0].1 == through,
        "{through} in the final {final_:?}"
    );
    assert!(record["knockout_winner"].as_u64().is_some());
    drop(players);
    server.stop().await;
}

/// FEDIBUR has no round clock of its own: the director's round time is the tables' clock, and
/// a match still in play when it runs out ends by the preset's TIME OUT procedure (a slow
/// server bot against a fast one: 8 hands could never be played in 2 seconds).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_directors_round_time_is_the_fedibur_tables_clock() {
    let server = TestServer::with(|c| c.bot_delay = Duration::from_millis(100)).await;
    let url = format!("ws://{}/ws", server.addr);
    let mut settings = singles(2, "danish");
    settings.preset = "fedibur".into();
    settings.hands = 8;
    settings.clocks = None;
    settings.start_when_full = Some(true);
    let (tournament, token) = bots::create(&url, &settings).await.expect("created");
    let (t, d) = (tournament.clone(), token.clone());
    let reply = direct(&url, |id| ClientMessage::SetRoundTime {
        id,
        tournament: t,
        director: d,
        round_secs: Some(2),
    })
    .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let (t, d) = (tournament.clone(), token.clone());
    direct(&url, |id| ClientMessage::ConfigureRegistration {
        id,
        tournament: t,
        director: d,
        registration: WireRegistration {
            open: true,
            bots_after_secs: Some(0),
            ..WireRegistration::default()
        },
    })
    .await;
    let mut options = options(server.addr, 1, "danish", 8);
    options.settings = settings;
    let players = bots::register_and_play(&options, &tournament)
        .await
        .expect("a bot registers");
    let started = tokio::time::Instant::now();
    let record = record_until(server.addr, &tournament, |r| r["status"] == "finished").await;
    assert_eq!(record["round_secs"], 2);
    let result = &record["rounds"][0]["tables"][0]["result"];
    let hands = result["hands"].as_u64().expect("hands");
    assert!(hands < 8, "the clock ended the match: {result}");
    assert!(
        started.elapsed() < Duration::from_secs(40),
        "{:?}",
        started.elapsed()
    );
    drop(players);
    server.stop().await;
}

/// FITAB's teams column (RULES.md section 11), written here: the lowest margin of each VP from
/// 10 up.
const FITAB_TEAMS: [i32; 11] = [0, 165, 365, 565, 815, 1065, 1315, 1615, 1915, 2215, 2515];

fn teams_vp_for(margin: i32) -> i32 {
    let steps = FITAB_TEAMS
        .iter()
        .rposition(|&low| margin.abs() >= low)
        .unwrap_or(0) as i32;
    if margin >= 0 { 10 + steps } else { 10 - steps }
}

/// A teams match from its two tables' hand records, computed here: the teams (the first
/// table's North-South first), each team's total over both tables and its burraco bonus. Checks
/// that eight different players sat, each team's two pairs one at each table.
async fn team_match(
    addr: SocketAddr,
    first: &Value,
    second: &Value,
) -> ([u64; 2], [i32; 2], [i32; 2]) {
    let mut totals = [0i32; 2];
    let mut burraco = [0i32; 2];
    let mut seats = Vec::new();
    for (k, table) in [first, second].into_iter().enumerate() {
        let hands = get_json(addr, table["hand_records"].as_str().expect("an address")).await;
        for hand in hands.as_array().expect("hands") {
            let score = hand["outcome"]["score"].as_array().expect("score");
            for (side, score) in score.iter().take(2).enumerate() {
                // The first team is North-South at the first table, East-West at the second.
                let team = if k == 0 { side } else { 1 - side };
                totals[team] += score["total"].as_i64().expect("total") as i32;
                burraco[team] += score["burracos"]
                    .as_array()
                    .expect("burracos")
                    .iter()
                    .map(|b| b["bonus"].as_i64().expect("bonus") as i32)
                    .sum::<i32>();
            }
            for seat in hand["seats"].as_array().expect("seats") {
                seats.push(seat["name"].as_str().expect("name").to_owned());
            }
        }
    }
    seats.sort();
    seats.dedup();
    assert_eq!(seats.len(), 8, "{seats:?}");
    let teams = [
        first["ns"].as_u64().expect("ns"),
        first["ew"].as_u64().expect("ew"),
    ];
    (teams, totals, burraco)
}

/// A teams knock-out (RULES.md section 11's online formats, teams kind): three teams in a
/// bracket of four, the top seed through on a bye; each tie is one match of two tables, won by
/// the team ahead on VP (then MP, then burraco bonus, then the higher place) as computed here
/// from the hand records; the winner of the final is the record's `knockout_winner`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_teams_knockout_sends_each_ties_winner_over_its_two_tables_through() {
    let server = TestServer::start().await;
    let mut options = options(server.addr, 3, "knockout", 1);
    options.settings.kind = "teams".into();
    let summary = bots::run(&options).await.expect("the tournament finishes");
    let record = record_of(server.addr, &summary.tournament).await;
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(
        rounds.len(),
        2,
        "a bracket of four: semi-finals and the final"
    );
    let bracket = |r: &Value| -> Vec<Option<u64>> {
        r["bracket"]
            .as_array()
            .expect("a bracket")
            .iter()
            .map(Value::as_u64)
            .collect()
    };
    // Seeded by registration: 1 v (4), 2 v 3.
    assert_eq!(bracket(&rounds[0]), [Some(0), None, Some(1), Some(2)]);
    let mut winners = Vec::new();
    for (r, round) in rounds.iter().enumerate() {
        let mut tables: Vec<Value> = round["tables"].as_array().expect("tables").clone();
        tables.sort_by_key(|t| t["number"].as_u64());
        assert_eq!(tables.len(), 2, "round {}: one tie, two tables", r + 1);
        let (teams, totals, burraco) = team_match(server.addr, &tables[0], &tables[1]).await;
        let key = |side: usize| {
            let margin = totals[side] - totals[1 - side];
            (teams_vp_for(margin), margin, burraco[side])
        };
        // Equal on everything, the higher place (here the lower entrant number) goes through.
        let winner = match key(0).cmp(&key(1)) {
            std::cmp::Ordering::Greater => teams[0],
            std::cmp::Ordering::Less => teams[1],
            std::cmp::Ordering::Equal => teams[0].min(teams[1]),
        };
        winners.push(winner);
    }
    assert_eq!(
        bracket(&rounds[1]),
        [Some(0), Some(winners[0])],
        "the bye's team meets the semi-final's winner"
    );
    assert_eq!(record["knockout_winner"].as_u64(), Some(winners[1]));
    assert_eq!(record["status"], "finished");
    server.stop().await;
}

/// A teams event: four players a team, each match two tables on the same deals (the teams'
/// first pairs at one, their second pairs at the other, sides swapped), the team's total its
/// two tables' totals and its VP from the teams column; the standings after every round
/// recomputed here from the hand records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_teams_event_scores_each_match_over_its_two_tables() {
    let server = TestServer::start().await;
    let mut options = options(server.addr, 4, "round_robin,round_robin,round_robin", 1);
    options.settings.kind = "teams".into();
    // Pairs may change between matches (RULES.md section 11): each team's first player sets
    // the next round's line-up (`set_lineup`) as a round starts, so every two of its players
    // partner once.
    let lineups: [[u8; 4]; 3] = [[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2]];
    options.lineups = lineups.to_vec();
    let summary = bots::run(&options).await.expect("the tournament finishes");
    let record = record_of(server.addr, &summary.tournament).await;
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3, "a round robin of four teams");
    assert_eq!(
        record["entrants"][0]["players"].as_array().map(Vec::len),
        Some(4)
    );
    let mut lines: HashMap<u64, Line> = (0..4).map(|e| (e, Line::default())).collect();
    for (r, round) in rounds.iter().enumerate() {
        assert!(
            !round["boards"].is_null(),
            "a teams event plays duplicate boards"
        );
        let mut tables: Vec<Value> = round["tables"].as_array().expect("tables").clone();
        tables.sort_by_key(|t| t["number"].as_u64());
        assert_eq!(tables.len(), 4, "two matches of two tables");
        // Rounds 2 and 3 were set while the round before was in play; round 1's line-up,
        // registration order, may have landed after the start (then it is not listed).
        for set in round["lineups"]
            .as_array()
            .expect("a teams event's line-ups")
        {
            assert_eq!(
                set["order"],
                serde_json::json!(lineups[r]),
                "round {}",
                r + 1
            );
        }
        if r > 0 {
            assert_eq!(round["lineups"].as_array().map(Vec::len), Some(4));
        }
        let order = lineups[r];
        let name = |team: &Value, index: u8| -> String {
            let e = team.as_u64().expect("team") as usize;
            record["entrants"][e]["names"][usize::from(order[usize::from(index)])]
                .as_str()
                .expect("a name")
                .to_owned()
        };
        for two in tables.chunks(2) {
            let (first, second) = (&two[0], &two[1]);
            // Who sits where by the line-up: the team North-South at a table seats the pair
            // it plays there North and South.
            for (table, pair) in [(first, 0), (second, 2)] {
                let hands = get_json(server.addr, table["hand_records"].as_str().expect("a")).await;
                let seats = &hands[0]["seats"];
                let at = |seat: &str| -> String {
                    seats
                        .as_array()
                        .expect("seats")
                        .iter()
                        .find(|s| s["seat"] == seat)
                        .and_then(|s| s["name"].as_str())
                        .expect("the seat's name")
                        .to_owned()
                };
                assert_eq!(at("N"), name(&table["ns"], pair), "round {}", r + 1);
                assert_eq!(at("S"), name(&table["ns"], pair + 1), "round {}", r + 1);
                assert_eq!(at("E"), name(&table["ew"], pair), "round {}", r + 1);
                assert_eq!(at("W"), name(&table["ew"], pair + 1), "round {}", r + 1);
            }
            assert_eq!(
                first["ns"], second["ew"],
                "sides swapped at the second table"
            );
            assert_eq!(first["ew"], second["ns"]);
            let (teams, totals, burraco) = team_match(server.addr, first, second).await;
            for side in 0..2 {
                let margin = totals[side] - totals[1 - side];
                let line = lines.get_mut(&teams[side]).expect("team");
                line.vp += teams_vp_for(margin);
                line.mp += margin;
                line.burraco += burraco[side];
            }
        }
        let mut sorted: Vec<(u64, Line)> = lines.iter().map(|(e, l)| (*e, *l)).collect();
        sorted.sort_by_key(|(e, l)| (std::cmp::Reverse((l.vp, l.mp, l.burraco)), *e));
        let what = format!("after round {}", r + 1);
        assert_same_standings(&standings_of(&round["standings"]), &sorted, &what);
        assert_eq!(round["matches"].as_array().map(Vec::len), Some(2), "{what}");
    }
    server.stop().await;
}

/// The 1.2 requests on a raw socket, refused as PROTOCOL.md says: on a 1.1 connection, for an
/// unknown tournament, with another token, and with fields that do not make sense; nothing of
/// it changes the tournament.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_1_2_requests_are_refused_as_documented_on_a_raw_socket() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let (tournament, token) = bots::create(&url, &singles(4, "danish"))
        .await
        .expect("created");
    let mut old = Player::connect_saying(server.addr, "old", "1.1").await;
    let (t, d) = (tournament.clone(), token.clone());
    let reply = old
        .request(|id| ClientMessage::PauseTournament {
            id,
            tournament: t,
            director: d,
        })
        .await;
    assert_eq!(error_code(&reply), Some("needs_minor"), "{reply:?}");

    let mut p = Player::connect(server.addr, "director").await;
    let d = token.clone();
    let reply = p
        .request(|id| ClientMessage::PauseTournament {
            id,
            tournament: "T-0000000000".into(),
            director: d,
        })
        .await;
    assert_eq!(error_code(&reply), Some("unknown_tournament"), "{reply:?}");
    let t = tournament.clone();
    let reply = p
        .request(|id| ClientMessage::PauseTournament {
            id,
            tournament: t,
            director: "0".repeat(32),
        })
        .await;
    assert_eq!(error_code(&reply), Some("not_director"), "{reply:?}");
    // Two entrants register.
    for name in ["anna", "bruno"] {
        let mut e = Player::connect(server.addr, name).await;
        let ok = e.register(&tournament).await;
        assert!(
            matches!(ok, ServerMessage::TournamentRegistered { .. }),
            "{ok:?}"
        );
    }
    let (t, d) = (tournament.clone(), token.clone());
    type Make = Box<dyn FnOnce(u64) -> ClientMessage>;
    let forbid = |entrants: Vec<u32>| -> Make {
        let (tournament, director) = (t.clone(), d.clone());
        Box::new(move |id| ClientMessage::ForbidPairing {
            id,
            tournament,
            director,
            entrants,
        })
    };
    let warn = |entrant: u32, reason: String| -> Make {
        let (tournament, director) = (t.clone(), d.clone());
        Box::new(move |id| ClientMessage::WarnEntrant {
            id,
            tournament,
            director,
            entrant,
            reason,
        })
    };
    let (tournament_, director) = (t.clone(), d.clone());
    let seat: Make = Box::new(move |id| ClientMessage::SeatEntrants {
        id,
        tournament: tournament_,
        director,
        order: vec![1, 0],
    });
    let (tournament_, director) = (t.clone(), d.clone());
    let no_time: Make = Box::new(move |id| ClientMessage::SetRoundTime {
        id,
        tournament: tournament_,
        director,
        round_secs: Some(0),
    });
    let refusals: Vec<(&str, Make)> = vec![
        ("three entrants", forbid(vec![0, 1, 0])),
        ("an entrant with itself", forbid(vec![1, 1])),
        ("an unknown entrant", warn(9, "who".into())),
        ("a reason too long", warn(0, "x".repeat(201))),
        ("a seating for a tournament seated by registration", seat),
        ("a round time of 0", no_time),
    ];
    for (what, make) in refusals {
        let reply = p.request(make).await;
        assert_eq!(
            error_code(&reply),
            Some("invalid_message"),
            "{what}: {reply:?}"
        );
    }
    // Someone not registered checks in.
    let t = tournament.clone();
    let reply = p
        .request(|id| ClientMessage::CheckInTournament { id, tournament: t })
        .await;
    assert_eq!(error_code(&reply), Some("not_registered"), "{reply:?}");
    // Nothing of it reached the record.
    let record = record_of(server.addr, &tournament).await;
    assert_eq!(record["warnings"], serde_json::json!([]));
    assert_eq!(record["forbidden_pairings"], serde_json::json!([]));
    assert!(record["round_secs"].is_null());
    assert_eq!(record["paused"], false);
    assert_eq!(record["entrants"].as_array().map(Vec::len), Some(2));
    server.stop().await;
}

/// The clocks of a paused tournament's table: what `table_paused` says of one of its players.
fn paused_clocks(m: &ServerMessage) -> Option<(bool, Option<u64>, Option<u32>)> {
    match m {
        ServerMessage::TablePaused {
            paused,
            round_clock_left_ms,
            move_clock_left_ms,
            ..
        } => Some((*paused, *round_clock_left_ms, *move_clock_left_ms)),
        _ => None,
    }
}

/// Issue 24, defect 5: the director's pause reaches the tables. Two raw sockets sit at a
/// round's table (federation clocks, a 10-minute round time); the director pauses while the
/// first player is on turn: both hear `table_paused` with the round clock and the move clock
/// held, both clocks stand still (a snapshot 1.5 s later says the same milliseconds), nothing
/// times out, and after the resume the table's round clock agrees with the tournament's
/// `round_ends_ms` (both count the pause out, from the same instants).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directors_pause_holds_every_clock_of_the_tables_and_the_resume_agrees() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let mut settings = singles(2, "danish");
    settings.hands = 2;
    settings.clocks = Some("federation".into());
    let (tournament, token) = bots::create(&url, &settings).await.expect("created");
    let (t, d) = (tournament.clone(), token.clone());
    let reply = direct(&url, |id| ClientMessage::SetRoundTime {
        id,
        tournament: t,
        director: d,
        round_secs: Some(600),
    })
    .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let mut players = Vec::new();
    for name in ["anna", "bruno"] {
        let mut p = Player::connect(server.addr, name).await;
        let ok = p.register(&tournament).await;
        assert!(
            matches!(ok, ServerMessage::TournamentRegistered { .. }),
            "{ok:?}"
        );
        players.push(p);
    }
    start_round(&url, &tournament, &token).await;
    let mut table = String::new();
    for p in &mut players {
        let ServerMessage::GoToTable {
            table: at, seat, ..
        } = p
            .wait(|m| matches!(m, ServerMessage::GoToTable { .. }))
            .await
        else {
            unreachable!()
        };
        let t = at.clone();
        let reply = p
            .request(|id| ClientMessage::Join {
                id,
                table: Some(t),
                invite: None,
                seat: Some(seat),
            })
            .await;
        assert!(matches!(reply, ServerMessage::Seated { .. }), "{reply:?}");
        let t = at.clone();
        p.request(|id| ClientMessage::Ready { id, table: t }).await;
        table = at;
    }
    for p in &mut players {
        p.wait(|m| matches!(m, ServerMessage::TurnStarted { .. }))
            .await;
    }
    let (t, d) = (tournament.clone(), token.clone());
    let reply = direct(&url, |id| ClientMessage::PauseTournament {
        id,
        tournament: t,
        director: d,
    })
    .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let mut held = Vec::new();
    for p in &mut players {
        let m = p.wait(|m| paused_clocks(m).is_some()).await;
        held.push(paused_clocks(&m).expect("table_paused"));
    }
    let (paused, round_left, move_left) = held[0];
    assert!(paused, "{held:?}");
    assert_eq!(held[0], held[1], "both players hear the same clocks");
    let round_left = round_left.expect("the round clock runs");
    assert!(
        (590_000..=600_000).contains(&round_left),
        "{round_left} ms left"
    );
    let move_left = move_left.expect("the move clock runs");
    // Had either clock run, 1.5 s would show in what follows.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    // Later: a `sync`'s catch-up ends with the pause, a snapshot (the seat's `join` again) holds
    // the same milliseconds on both clocks and is followed by the pause.
    let t = table.clone();
    let p = &mut players[0];
    p.heard.clear();
    let reply = p
        .request(|id| ClientMessage::Sync {
            id,
            table: t,
            last_seq: 0,
        })
        .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let again = p.heard.iter().find_map(paused_clocks);
    assert_eq!(again, Some((true, Some(round_left), Some(move_left))));
    let t = table.clone();
    let reply = p
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    assert!(matches!(reply, ServerMessage::Seated { .. }), "{reply:?}");
    let ServerMessage::Snapshot { view, .. } = p
        .wait(|m| matches!(m, ServerMessage::Snapshot { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(view.round_clock_left_ms, Some(round_left));
    assert_eq!(
        view.hand.as_ref().and_then(|h| h.move_clock_left_ms),
        Some(move_left)
    );
    p.heard.clear();
    let after = p.wait(|m| paused_clocks(m).is_some()).await;
    assert_eq!(
        paused_clocks(&after),
        Some((true, Some(round_left), Some(move_left)))
    );
    assert!(
        !p.heard
            .iter()
            .any(|m| matches!(m, ServerMessage::GraceStarted { .. })),
        "no clock ran: {:?}",
        p.heard
    );
    players[1].heard.clear();
    let (t, d) = (tournament.clone(), token.clone());
    let reply = direct(&url, |id| ClientMessage::ResumeTournament {
        id,
        tournament: t,
        director: d,
    })
    .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let m = players[1]
        .wait(|m| paused_clocks(m).is_some_and(|(paused, ..)| !paused))
        .await;
    let resumed_at = burraco_server::ids::unix_ms();
    let (_, left_after, move_after) = paused_clocks(&m).expect("table_paused");
    let left_after = left_after.expect("the round clock runs again");
    assert!(
        round_left.abs_diff(left_after) < 500,
        "{round_left} ms before the pause, {left_after} after"
    );
    assert!(move_after.is_some_and(|ms| ms.abs_diff(move_left) < 500));
    // The tournament's round clock says the same end (the tables started a moment after the
    // round: the ready check).
    let status = players[1]
        .wait(|m| matches!(m, ServerMessage::TournamentStatus { paused: false, .. }))
        .await;
    let ServerMessage::TournamentStatus {
        round_ends_ms: Some(ends),
        ..
    } = status
    else {
        panic!("{status:?}")
    };
    let table_ends = resumed_at + left_after as i64;
    assert!(
        (ends - table_ends).abs() < 3_000,
        "the tournament's round ends at {ends}, the table's at {table_ends}"
    );
    drop(players);
    server.stop().await;
}
