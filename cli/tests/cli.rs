//! The `burraco` binary, run as a player or an arbiter would run it.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use burraco_fairplay::calibration::ONE_PERCENT;
use serde_json::Value;

/// The shuffled decks of two seeds, top first, computed once outside this workspace by a
/// pure-Python ChaCha20 (the RFC 7539 block function, checked against RFC 7539 section 2.3.2 and
/// the zero-key keystream of draft-nir-cfrg-chacha20-poly1305 test vector 1: ade0b876 903df1a0 ...)
/// and the Fisher-Yates with rejection sampling written from RULES.md section 3: key = seed, nonce 0,
/// counter 0, little-endian u32 words, for i = 107..1: n = i + 1, reject x >= 2^32 - 2^32 mod n,
/// j = x mod n, swap(i, j). Only the results are kept here.
const DECK_SEED_ZERO: &str = concat!(
    "7D 7H 8D 4S KD 6H KC JH QD QH 2C 2S JK 2S 8H 8S 9H 4C 2H 5H AS 3D 5D JK 3C JS KH 6C JK JD 6S ",
    "7H JS AH 8D 9D 3S 4H 9C KS 4D 5S 9S 2H 2D 4D 10D QD 4S 9D 6C 3S 5H 10C ",
    "4H 7S 7C 3D QS 8H AC QH 10H KS 3H JC JK 6D 7S 3C 4C 10D AD 10S AD 10H 9S 10S 2D 9C AC 10C QC ",
    "8C AH 9H 5C AS 5D JC 6S JD 6H KD 2C JH KC 5S KH 8S 6D 3H 8C QC 7D 7C QS 5C",
);
const SEED_0123: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const DECK_SEED_0123: &str = concat!(
    "7D 6D 7C KH JH 8H 10C AD 3S QD 7S 7D 9D QC 8C AH 5S 9H AH QC 4H 3C 9S KD QH 6H 6S KC JK 7H 4D ",
    "7H 2D JC 4S QH 7C JD QS 2H 10S JK 8C 4D JC AS JH 6D 10H 9D 3H 4S 6H 2S ",
    "10C 3S 5H 9S 5D 6C AC 4C 6S 2C KH 8S AC 10D 4H 5C 2D 8H 2H 3C 3H 8S JD 4C 10H QS JK 2C KS 6C ",
    "9H 5S 7S AS 9C AD JS QD 5D KD 8D 8D KC 3D 10D JS KS 5C 10S 9C 5H 3D 2S JK",
);
const ZERO: &str = "0000000000000000000000000000000000000000000000000000000000000000";
/// SHA-256 of 32 zero bytes.
const ZERO_COMMITMENT: &str = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925";

fn burraco(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_burraco"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../protocol/tests/fixtures")
        .join(format!("{name}.json"))
        .to_string_lossy()
        .into_owned()
}

/// A scratch file for one test.
fn scratch(name: &str, contents: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}.json"));
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

fn codes(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect()
}

/// Checks a `deal` output against a deck by the dealing order of RULES.md section 3.
fn check_deal(out: &Value, deck: &[&str], seats: &[&str]) {
    let n = seats.len();
    let hands = out["hands"].as_array().unwrap();
    assert_eq!(hands.len(), n);
    for (i, hand) in hands.iter().enumerate() {
        assert_eq!(
            out["seats"][i], seats[i],
            "hand {i} goes to the {i}-th seat from the dealer's left"
        );
        let expected: Vec<&str> = (0..11).map(|r| deck[r * n + i]).collect();
        assert_eq!(codes(hand), expected, "hand {i}");
    }
    let a: Vec<&str> = (0..11).map(|m| deck[107 - 2 * m]).collect();
    let b: Vec<&str> = (0..11).map(|m| deck[106 - 2 * m]).collect();
    assert_eq!(codes(&out["pozzetti"][0]), a, "pozzetto A from the bottom");
    assert_eq!(codes(&out["pozzetti"][1]), b, "pozzetto B");
    assert_eq!(out["discard"], deck[11 * n]);
    assert_eq!(codes(&out["tallone"]), &deck[11 * n + 1..86]);
}

#[test]
fn the_deal_of_seed_zero_is_the_spec_bit_for_bit() {
    let deck: Vec<&str> = DECK_SEED_ZERO.split(' ').collect();
    assert_eq!(deck.len(), 108);
    let out = burraco(&["deal", "--seed", ZERO]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout_json(&out);
    assert_eq!(json["commitment"], ZERO_COMMITMENT);
    assert_eq!(json["seed"], ZERO);
    assert_eq!(json["players"], 4);
    assert_eq!(json["dealer"], "N");
    check_deal(&json, &deck, &["E", "S", "W", "N"]);
    assert_eq!(json["tallone"].as_array().unwrap().len(), 41);
    // The first cards, spelled out: E gets 7D, S 7H, W 8D, N 4S, E KD...
    assert_eq!(json["hands"][0][0], "7D");
    assert_eq!(json["hands"][3][0], "4S");
    assert_eq!(json["pozzetti"][0][0], "5C");
    assert_eq!(json["discard"], "2D");
}

#[test]
fn a_head_to_head_deal_from_another_dealer() {
    let deck: Vec<&str> = DECK_SEED_0123.split(' ').collect();
    assert_eq!(deck.len(), 108);
    let out = burraco(&[
        "deal",
        "--seed",
        SEED_0123,
        "--players",
        "2",
        "--dealer",
        "S",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout_json(&out);
    check_deal(&json, &deck, &["N", "S"]);
    assert_eq!(json["tallone"].as_array().unwrap().len(), 63);

    let out = burraco(&["deal", "--seed", SEED_0123, "--dealer", "W"]);
    check_deal(&stdout_json(&out), &deck, &["N", "E", "S", "W"]);
}

#[test]
fn bad_deal_arguments_exit_2() {
    for args in [
        &["deal", "--seed", "xyz"][..],
        &["deal", "--seed", ZERO, "--players", "3"],
        &["deal", "--seed", ZERO, "--dealer", "X"],
        &["deal"],
    ] {
        let out = burraco(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&out).is_empty());
    }
    let out = burraco(&["deal", "--seed", ZERO, "--players", "2", "--dealer", "E"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not seated"), "{}", stderr(&out));
}

#[test]
fn verify_checks_the_commitment() {
    let out = burraco(&["verify", "--seed", ZERO, "--commitment", ZERO_COMMITMENT]);
    assert!(out.status.success());
    assert_eq!(stdout_json(&out)["ok"], true);

    let out = burraco(&[
        "verify",
        "--seed",
        SEED_0123,
        "--commitment",
        ZERO_COMMITMENT,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout_json(&out);
    assert_eq!(json["ok"], false);
    assert_ne!(json["commitment"], ZERO_COMMITMENT);

    let upper = ZERO_COMMITMENT.to_uppercase();
    assert!(
        burraco(&["verify", "--seed", ZERO, "--commitment", &upper])
            .status
            .success()
    );
    assert_eq!(
        burraco(&["verify", "--seed", ZERO, "--commitment", "66"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn replay_prints_the_score_and_its_breakdown() {
    let out = burraco(&["replay", &fixture("fitab_closing")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout_json(&out);
    assert_eq!(json["ok"], true);
    assert_eq!(json["end"], "closed");
    assert_eq!(json["closed_by"], "N");
    assert_eq!(json["score"]["NS"], 435);
    assert_eq!(json["score"]["EW"], -150);
    let ns = &json["breakdown"]["NS"];
    assert_eq!(ns["melded"], 205);
    assert_eq!(ns["burracos"][0]["kind"], "pulito");
    assert_eq!(ns["burracos"][0]["bonus"], 200);
    assert_eq!(ns["closing"], 100);
    assert_eq!(ns["in_hand"], -70);
    assert_eq!(ns["total"], 435);
    assert_eq!(json["breakdown"]["EW"]["in_hand"], -245);
}

#[test]
fn head_to_head_scores_are_keyed_by_seat() {
    let out = burraco(&["replay", &fixture("h2h_feburit_close_al_monte")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout_json(&out);
    assert_eq!(json["score"]["S"], 515);
    assert_eq!(json["score"]["N"], -175);
    assert!(json["score"].get("NS").is_none());
}

#[test]
fn replay_of_a_refused_input_names_it_and_exits_1() {
    let out = burraco(&["replay", &fixture("discard_picked_up_card_refused")]);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout_json(&out);
    assert_eq!(json["ok"], false);
    assert_eq!(json["action_index"], 1);
    assert_eq!(json["error"], "discard_picked_up_card");
    assert!(json["message"].as_str().unwrap().contains("art. 8"));

    let out = burraco(&["replay", &fixture("h2h_fitab_close_al_monte_refused")]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout_json(&out)["error"], "close_after_pile_pickup");
}

#[test]
fn malformed_records_exit_2() {
    let out = burraco(&["replay", &fixture("input_after_end_malformed")]);
    assert_eq!(out.status.code(), Some(2));
    let json = stdout_json(&out);
    assert_eq!(json["error"], "input_after_end");
    assert_eq!(json["action_index"], 1);
    assert!(stderr(&out).contains("malformed"));

    let out = burraco(&["replay", &scratch("not-json", "{ this is not json")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a hand record"),
        "{}",
        stderr(&out)
    );

    let out = burraco(&["replay", "/nonexistent/record.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));

    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("fitab_closing")).unwrap()).unwrap();
    record["deck"].as_array_mut().unwrap().pop();
    let out = burraco(&["replay", &scratch("short-deck", &record.to_string())]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout_json(&out)["error"], "incomplete_deck");
}

#[test]
fn a_record_whose_outcome_is_false_fails_replay() {
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("fitab_closing")).unwrap()).unwrap();
    record["outcome"]["score"][0]["total"] = 535.into();
    let out = burraco(&["replay", &scratch("false-outcome", &record.to_string())]);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout_json(&out);
    assert_eq!(json["ok"], false);
    assert_eq!(json["error"], "outcome_mismatch");
    assert_eq!(
        json["score"]["NS"], 435,
        "the replay's own score is still shown"
    );
}

#[test]
fn replay_reads_standard_input_and_unfinished_hands() {
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("fitab_closing")).unwrap()).unwrap();
    record["inputs"].as_array_mut().unwrap().truncate(4);
    record.as_object_mut().unwrap().remove("outcome");
    let mut child = Command::new(env!("CARGO_BIN_EXE_burraco"))
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(record.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout_json(&out);
    assert_eq!(json["ok"], true);
    assert_eq!(json["end"], Value::Null);
    assert_eq!(json["score"], Value::Null);
    assert_eq!(json["inputs"], 4);
}

#[test]
fn fairplay_scores_every_seated_player_of_a_record() {
    let fixture = fixture("fitab_closing");
    let out = burraco(&["fairplay", "--json", &fixture]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = stdout_json(&out);
    let players = report.as_array().expect("an array of players");
    assert_eq!(players.len(), 4);
    for p in players {
        assert_eq!(p["hands"], 1);
        assert_eq!(p["flagged"], false);
        // One hand is fewer than any measured number: the fewest's threshold holds.
        assert_eq!(p["threshold"], ONE_PERCENT[0].suspicion);
        let detectors: Vec<&str> = p["detectors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["detector"].as_str().unwrap())
            .collect();
        assert_eq!(
            detectors,
            [
                "partner_fit",
                "next_opponent_avoid",
                "tallone_take",
                "suit_signal",
                "signal_follow"
            ]
        );
    }
    // Text for a named player; an unknown name is a usage error.
    let name = players[0]["player"].as_str().unwrap();
    let text = burraco(&["fairplay", "--player", name, &fixture]);
    assert_eq!(text.status.code(), Some(0));
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.starts_with(&format!("{name}: 1 hands")), "{text}");
    // One hand is fewer than any measured: the threshold says it was measured on more.
    let quoted = format!(
        "(threshold {:.2}, 1% measured for more hands)",
        ONE_PERCENT[0].suspicion
    );
    assert!(text.lines().next().unwrap().contains(&quoted), "{text}");
    let unknown = burraco(&["fairplay", "--player", "nobody", &fixture]);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn fairplay_help_quotes_the_measured_thresholds() {
    let out = burraco(&["fairplay", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    // Wrapped or not, each measured threshold is there: the help reads the constant the docs
    // quote.
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for t in ONE_PERCENT {
        let quoted = format!("{} hands {:.2}", t.hands, t.suspicion);
        assert!(help.contains(&quoted), "{quoted} in {help}");
    }
}

#[test]
fn fairplay_refuses_a_record_that_does_not_replay() {
    let fixture = fixture("out_of_turn_refused");
    let out = burraco(&["fairplay", &fixture]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not replay"));
}

#[test]
fn fairplay_stops_quietly_when_its_reader_goes_away() {
    let fixture = fixture("fitab_closing");
    let mut child = Command::new(env!("CARGO_BIN_EXE_burraco"))
        .args(["fairplay", "--top", "3", &fixture])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Closing the read end before the report is written is `| head -0`: every write then fails
    // with a broken pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}
