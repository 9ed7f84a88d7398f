use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::Duration;

use burraco_bot::Level;
use burraco_bot::tournament::{self as bots, TournamentOptions};
use burraco_protocol::wire::{ClientMessage, ServerMessage, WireTournamentSettings};
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

fn options(addr: SocketAddr, entrants: u32, rounds: &str, hands: u8) -> TournamentOptions {
    TournamentOptions {
        url: format!("ws://{addr}/ws"),
        entrants,
        settings: settings(entrants, rounds, hands),
        level: Level::Greedy,
        seed: 11,
        deadline: Duration::from_secs(120),
    }
}

async fn get_json(addr: SocketAddr, path: &str) -> Value {
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
struct Line {
    vp: i32,
    mp: i32,
    burraco: i32,
}

/// The standings after each round, computed from the hand records the record points to, the
/// pairings the record lists, and the adjustments: nothing of the server's scoring.
async fn recompute(addr: SocketAddr, record: &Value) -> Vec<Vec<(u64, Line)>> {
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

fn standings_of(value: &Value) -> Vec<(u64, Line)> {
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
fn assert_same_standings(server: &[(u64, Line)], test: &[(u64, Line)], what: &str) {
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
async fn a_sit_and_go_knockout_of_five_gives_the_top_seeds_byes_and_ends_with_one_winner() {
    let server = TestServer::start().await;
    let mut options = options(server.addr, 5, "knockout", 1);
    options.settings.kind = "singles".into();
    // A Sit&Go: nobody starts it, the fifth registration does.
    options.settings.start_when_full = Some(true);
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
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_individual_event_never_repeats_a_partner_and_scores_each_player() {
    let server = TestServer::start().await;
    let mut options = options(server.addr, 8, "danish,danish,danish", 1);
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
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_boards_are_dealt_at_every_table_and_revealed_only_after_the_round() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let mut options = options(addr, 8, "mitchell,mitchell", 2);
    options.settings.duplicate = Some(true);
    let run = tokio::spawn(async move { bots::run(&options).await });
    // While it runs: no seed of a round in play in the tournament's record, and no hand record
    // of its tables served (nor, ever, a seed in a duplicate table's hand record).
    let mut looked = 0;
    while !run.is_finished() {
        let list = get_json(addr, "/api/tournaments").await;
        if let Some(id) = list[0]["tournament"].as_str() {
            let record = get_json(addr, &format!("/api/tournaments/{id}")).await;
            for round in record["rounds"].as_array().expect("rounds") {
                if round["complete"] == false {
                    for hand in round["boards"]["hands"].as_array().expect("boards") {
                        assert!(hand["seed"].is_null(), "revealed early: {round}");
                        looked += 1;
                    }
                }
                // A table's hand records are served once every table played the boards: any
                // record seen means the round was complete by then (read again after).
                let number = round["round"].as_u64().expect("number");
                for table in round["tables"].as_array().expect("tables") {
                    let path = table["hand_records"].as_str().expect("address");
                    let hands = get_json(addr, path).await;
                    for hand in hands.as_array().expect("records") {
                        assert!(hand["seed"].is_null(), "a seed in {hand}");
                    }
                    if hands.as_array().is_some_and(|h| !h.is_empty()) {
                        let again = get_json(addr, &format!("/api/tournaments/{id}")).await;
                        let round = &again["rounds"][number as usize - 1];
                        assert_eq!(round["complete"], true, "records served mid-round");
                    }
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(looked > 0, "the record was read while a round was in play");
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
    let after = recompute(addr, &record).await;
    assert_same_standings(&standings_of(&record["standings"]), &after[1], "final");
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
    let t = tournament.clone();
    bots::request(&url, |id| ClientMessage::StartRound {
        id,
        tournament: t,
        director: token,
    })
    .await
    .expect("the round starts");
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
    let (t, d) = (tournament.clone(), token.clone());
    bots::request(&url, |id| ClientMessage::StartRound {
        id,
        tournament: t,
        director: d,
    })
    .await
    .expect("the round starts");
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
    let (t, d) = (tournament.clone(), token.clone());
    bots::request(&options.url, |id| ClientMessage::StartRound {
        id,
        tournament: t,
        director: d,
    })
    .await
    .expect("started");
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
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");

    // Same data, same address: the bots reconnect and resume.
    let (_child, addr) = start_at(data.path(), &addr.to_string());
    let finished = tokio::time::timeout(Duration::from_secs(60), bots::finish(players)).await;
    let Ok(finished) = finished else {
        panic!("not finished in time: {}", get_json(addr, &path).await);
    };
    let standings = finished.expect("the tournament finishes after the restart");
    assert_eq!(standings.len(), 4);
    let record = get_json(addr, &path).await;
    assert_eq!(record["status"], "finished");
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3);
    for round in rounds {
        for table in round["tables"].as_array().expect("tables") {
            assert_eq!(table["result"]["played"], true, "{table}");
            assert_eq!(table["result"]["hands"], 3, "{table}");
        }
    }
    assert_eq!(standings_of(&record["standings"]).len(), 4);
}
