//! Hand records: every fixture in `tests/fixtures/` replayed to its expected outcome, the builder the
//! server uses, and the malformed records replay must refuse.
//!
//! A fixture is a hand record (docs/HAND_RECORD.md) with extra fields that readers ignore, as the
//! format's version rule allows:
//! - `why`: how the play goes and how each expected score was computed by hand from RULES.md
//!   section 10 (never copied from the engine);
//! - `layout` (explicit decks): the deal the deck was built for, checked here against the deck by
//!   the dealing order of RULES.md section 3;
//! - `expect_refused`: `{"action_index": k, "error": "<code>"}` for a record that must be refused;
//!   otherwise the record's own `outcome` is the expected outcome (with the final hands).
//!
//! The fixtures were written with a throwaway script that turns a layout into a 108-card deck
//! (card k to hand k % players, pozzetti from the bottom, then the up card and the tallone); the
//! seeded ones were dealt by an independent Python ChaCha20 (see `cli/tests/cli.rs`).

use std::path::{Path, PathBuf};

use burraco_protocol::record::{HandRecord, RecordEnd, RecordOutcome, ReplayError};
use burraco_rules::{Card, Event, Input, Players, Seat, Seed, Side};
use serde_json::Value;

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Every fixture: its file stem, its JSON as a value, and the record read from it.
fn fixtures() -> Vec<(String, Value, HandRecord)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("tests/fixtures exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let value: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: not JSON: {e}"));
            let record = HandRecord::from_json(&text)
                .unwrap_or_else(|e| panic!("{name}: not a hand record: {e}"));
            (name, value, record)
        })
        .collect()
}

fn fixture(name: &str) -> HandRecord {
    fixtures()
        .into_iter()
        .find(|(n, _, _)| n == name)
        .unwrap_or_else(|| panic!("no fixture {name}"))
        .2
}

fn pretty(outcome: &RecordOutcome) -> String {
    serde_json::to_string_pretty(outcome).unwrap()
}

#[test]
fn every_fixture_replays_to_its_expected_outcome() {
    let all = fixtures();
    assert!(all.len() >= 20, "fixtures missing: found {}", all.len());
    let mut failures = Vec::new();
    for (name, value, record) in &all {
        let refused = value.get("expect_refused");
        match (refused, &record.outcome, record.replay()) {
            (Some(expect), None, Err(e)) => {
                let index = expect["action_index"].as_u64().map(|i| i as usize);
                let code = expect["error"].as_str().unwrap();
                if e.action_index() != index || e.code() != code {
                    failures.push(format!(
                        "{name}: expected refusal {code} at {index:?}, got {} at {:?} ({e})",
                        e.code(),
                        e.action_index()
                    ));
                }
            }
            (Some(_), None, Ok(r)) => {
                failures.push(format!(
                    "{name}: expected a refusal, replay ended {:?}",
                    r.end
                ));
            }
            (None, Some(expected), Ok(replayed)) => match replayed.outcome() {
                Some(actual) if replayed.matches(expected) => {
                    // The claim is checked item by item too, for the arithmetic of the fixture itself.
                    for side in &expected.score {
                        let items = side.melded
                            + side.burracos.iter().map(|b| b.bonus).sum::<i32>()
                            + side.closing
                            + side.in_hand
                            + side.pozzetto;
                        assert_eq!(
                            items, side.total,
                            "{name}: {} items do not add up",
                            side.side
                        );
                    }
                    assert_eq!(actual.end, expected.end);
                }
                Some(actual) => failures.push(format!(
                    "{name}: expected\n{}\nreplay gives\n{}",
                    pretty(expected),
                    pretty(&actual)
                )),
                None => failures.push(format!("{name}: the hand did not end")),
            },
            (None, Some(_), Err(e)) => failures.push(format!("{name}: refused: {e}")),
            (_, _, _) => failures.push(format!(
                "{name}: a fixture has either an outcome or expect_refused"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_fixture_says_why() {
    for (name, value, _) in fixtures() {
        let why = value["why"].as_str().unwrap_or_default();
        assert!(
            why.len() > 40,
            "{name}: explain the fixture in a `why` field"
        );
    }
}

/// The deal RULES.md section 3 describes, written again from the text: card k of the deck goes to
/// hand k % n (hand 0 on the dealer's left), pozzetto A takes deck[107], deck[105], ..., B deck[106],
/// deck[104], ...; then deck[11n] is the up card and the tallone follows, top first.
#[test]
fn fixture_decks_deal_the_layouts_their_notes_describe() {
    let mut checked = 0;
    for (name, value, record) in fixtures() {
        let Some(layout) = value.get("layout") else {
            continue;
        };
        let deck = record
            .deck
            .as_ref()
            .expect("a layout goes with an explicit deck");
        let players = record.settings.players as usize;
        let codes = |v: &Value| -> Vec<String> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect()
        };
        let at = |k: usize| deck[k].to_string();
        let mut seat = record.dealer;
        for i in 0..players {
            seat = if players == 4 {
                seat.left()
            } else {
                seat.partner()
            };
            let dealt: Vec<String> = (0..11).map(|r| at(r * players + i)).collect();
            assert_eq!(
                dealt,
                codes(&layout["hands"][seat.code()]),
                "{name}: hand of {seat}"
            );
        }
        for (key, first) in [("pozzetto_a", 107), ("pozzetto_b", 106)] {
            let expected = codes(&layout[key]);
            let dealt: Vec<String> = (0..expected.len()).map(|m| at(first - 2 * m)).collect();
            assert_eq!(dealt, expected, "{name}: {key}");
        }
        assert_eq!(
            at(11 * players),
            layout["up_card"].as_str().unwrap(),
            "{name}: up card"
        );
        let top = codes(&layout["tallone_top"]);
        let dealt: Vec<String> = (0..top.len()).map(|k| at(11 * players + 1 + k)).collect();
        assert_eq!(dealt, top, "{name}: tallone");
        checked += 1;
    }
    assert!(checked >= 15);
}

#[test]
fn seeded_fixtures_cover_every_preset_and_publish_their_commitment() {
    let mut presets = Vec::new();
    for (name, _, record) in fixtures() {
        if let Some(seed) = record.seed {
            assert_eq!(record.commitment, Some(seed.commitment()), "{name}");
            assert!(record.deck.is_none());
            assert!(record.replay().is_ok(), "{name}");
            presets.push(record.settings.preset.clone());
        } else {
            assert_eq!(
                record.commitment, None,
                "{name}: an explicit deck has no commitment"
            );
        }
    }
    presets.sort();
    assert_eq!(presets, ["feburit", "fedibur", "fitab"]);
}

/// The server's path: `new`, `push` per accepted input (persisting each row), `finish`.
#[test]
fn the_builder_writes_what_replay_reads() {
    for (name, _, fixture) in fixtures() {
        let Ok(replayed) = fixture.replay() else {
            continue;
        };
        let config = fixture.config().unwrap();
        let source = fixture.deal_source().unwrap();
        let seats = fixture.seats.iter().map(|s| (s.seat, s.name.clone()));
        let mut record = HandRecord::new(&config, seats, fixture.dealer, &source);
        let mut rows = Vec::new();
        for (i, input) in fixture.inputs.iter().enumerate() {
            let row = record.push(&input.input.to_rules(), Some(1000 * i as u64));
            rows.push(row.to_json());
        }
        // The rows persisted one at a time read back as the same inputs.
        let reread: Vec<Input> = rows
            .iter()
            .map(|r| {
                burraco_protocol::record::RecordedInput::from_json(r)
                    .unwrap()
                    .input
                    .to_rules()
            })
            .collect();
        let original: Vec<Input> = fixture.inputs.iter().map(|i| i.input.to_rules()).collect();
        assert_eq!(reread, original, "{name}");

        let Some(Event::HandEnded { end, score, hands }) = replayed.events.last().cloned() else {
            panic!("{name}: the last event of a finished hand is HandEnded");
        };
        record.finish(RecordOutcome::new(
            config.players(),
            end,
            &score,
            Some(&hands),
        ));
        let again = HandRecord::from_json(&record.to_json()).unwrap();
        assert_eq!(again, record, "{name}");
        let replayed_again = again.replay().unwrap();
        assert!(
            replayed_again.matches(fixture.outcome.as_ref().unwrap()),
            "{name}"
        );
        assert!(
            replayed_again.matches(again.outcome.as_ref().unwrap()),
            "{name}"
        );
        assert_eq!(
            again.settings, fixture.settings,
            "{name}: every setting written explicitly"
        );
    }
}

#[test]
fn a_wrong_outcome_is_noticed() {
    let record = fixture("fitab_closing");
    let replayed = record.replay().unwrap();
    let mut claim = record.outcome.clone().unwrap();
    assert!(replayed.matches(&claim));
    claim.hands = None;
    assert!(replayed.matches(&claim), "final hands are optional");
    claim.score[1].total += 5;
    assert!(!replayed.matches(&claim));
    let mut claim = record.outcome.clone().unwrap();
    claim.end = RecordEnd::Stallo;
    assert!(!replayed.matches(&claim));
    let mut claim = record.outcome.clone().unwrap();
    claim.hands.as_mut().unwrap()[0].cards.push(Card::JOKER);
    assert!(!replayed.matches(&claim));
}

#[test]
fn a_record_may_stop_while_the_hand_is_in_play() {
    let mut record = fixture("fitab_closing");
    record.inputs.truncate(5);
    record.outcome = None;
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.end, None);
    assert_eq!(replayed.score, None);
    assert!(replayed.outcome().is_none());
    assert_eq!(replayed.game.on_turn(), Seat::East);
}

/// A seat's holder (protocol 1.6: guest, player, bot account, server bot) is written beside its
/// name and read back; a record without it (every record before) reads and writes as it was.
#[test]
fn a_seats_holder_is_labelled_and_older_records_stay_as_they_were() {
    let old = fixture("fitab_closing");
    assert!(old.seats.iter().all(|s| s.kind.is_none()));
    let old_json: Value = serde_json::from_str(&old.to_json()).unwrap();
    assert!(
        old_json["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.as_object().unwrap().len() == 2),
        "no label written where none is known: {old_json}"
    );
    let mut labelled = old.clone();
    labelled.seats[0].kind = Some("server_bot".into());
    labelled.seats[0].server_bot = Some("L2".into());
    labelled.seats[1].kind = Some("bot".into());
    labelled.seats[1].account = Some("u-3a9f0c2b7d1e4f60".into());
    let json: Value = serde_json::from_str(&labelled.to_json()).unwrap();
    assert_eq!(json["seats"][0]["kind"], "server_bot");
    assert_eq!(json["seats"][0]["server_bot"], "L2");
    assert!(json["seats"][0].get("account").is_none());
    assert_eq!(json["seats"][1]["account"], "u-3a9f0c2b7d1e4f60");
    let back = HandRecord::from_json(&labelled.to_json()).unwrap();
    assert_eq!(back, labelled);
    // The labels are the table's, not the hand's: the replay is the same.
    assert_eq!(
        back.replay().unwrap().outcome(),
        old.replay().unwrap().outcome()
    );
}

/// Records that are not evidence of a hand at all: each refused with its own variant.
#[test]
fn malformed_records_are_refused_before_any_input() {
    let base = fixture("fitab_closing");
    let seeded = fixture("seeded_fitab");
    let check = |record: HandRecord, code: &str| {
        let err = record.replay().unwrap_err();
        assert_eq!(err.code(), code, "{err}");
        assert!(err.is_malformed());
        assert_eq!(err.action_index(), None);
        err
    };

    let mut r = base.clone();
    r.format = "burraco-hand-record/2".into();
    check(r, "unknown_format");

    let mut r = base.clone();
    r.settings.players = 3;
    check(r, "bad_config");
    let mut r = base.clone();
    r.settings.preset = "scala40".into();
    check(r, "bad_config");
    let mut r = seeded.clone();
    r.settings.preset = "fedibur".into(); // fedibur has no clocks, the record says federation
    check(r, "bad_config");

    let mut r = base.clone();
    r.seats.pop();
    assert!(matches!(
        check(r, "seats_mismatch"),
        ReplayError::SeatsMismatch { .. }
    ));
    let mut r = base.clone();
    r.seats[1].seat = Seat::North;
    check(r, "seats_mismatch");

    let mut r = base.clone();
    r.deck.as_mut().unwrap().pop();
    assert_eq!(
        check(r, "incomplete_deck"),
        ReplayError::IncompleteDeck { len: 107 }
    );
    let mut r = base.clone();
    r.deck.as_mut().unwrap()[0] = Card::JOKER; // five jokers, one 3H short
    check(r, "incomplete_deck");

    let mut r = base.clone();
    r.seed = Some(Seed([0; 32]));
    check(r, "deal_source");
    let mut r = base.clone();
    r.deck = None;
    check(r, "deal_source");

    let mut r = base.clone();
    r.commitment = Some(Seed([0; 32]).commitment());
    check(r, "commitment_mismatch");
    let mut r = seeded.clone();
    r.seed = Some(Seed([0x12; 32]));
    check(r, "commitment_mismatch");

    let mut r = fixture("h2h_fitab_time_out");
    r.dealer = Seat::East;
    assert_eq!(
        check(r, "dealer_not_seated"),
        ReplayError::DealerNotSeated(Seat::East)
    );
}

#[test]
fn refusals_carry_the_rules_code_and_message() {
    let err = fixture("discard_picked_up_card_refused")
        .replay()
        .unwrap_err();
    let ReplayError::Refused {
        action_index,
        error,
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!(*action_index, 1);
    assert_eq!(error.code(), "discard_picked_up_card");
    assert!(!err.is_malformed());
    assert!(err.to_string().contains("art. 8"), "{err}");
}

#[test]
fn head_to_head_sides_are_named_by_seat() {
    let record = fixture("h2h_feburit_close_al_monte");
    let outcome = record.replay().unwrap().outcome().unwrap();
    assert_eq!(Players::Two.side_label(Side::NorthSouth), "S");
    assert_eq!(outcome.score[0].side, "S");
    assert_eq!(outcome.score[1].side, "N");
    assert_eq!(outcome.side("S").unwrap().total, 515);
    assert_eq!(outcome.closed_by, Some(Seat::South));
}

/// docs/HAND_RECORD.md documents the format by example: its examples must stay true.
#[test]
fn the_documented_examples_replay() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/HAND_RECORD.md"),
    )
    .expect("docs/HAND_RECORD.md");
    let blocks: Vec<&str> = doc
        .split("```json\n")
        .skip(1)
        .map(|rest| rest.split("\n```").next().unwrap())
        .collect();
    assert!(blocks.len() >= 3);
    let record = HandRecord::from_json(blocks[0]).expect("the complete example is a record");
    let replayed = record.replay().expect("the complete example replays");
    assert!(replayed.matches(record.outcome.as_ref().unwrap()));
    assert!(record.inputs.iter().all(|i| i.at_ms.is_some()));
    for line in blocks[1..].iter().flat_map(|b| b.lines()) {
        let as_input = burraco_protocol::record::RecordedInput::from_json(line);
        let as_score = serde_json::from_str::<burraco_protocol::record::RecordSideScore>(line);
        assert!(
            as_input.is_ok() || as_score.is_ok(),
            "not a documented type: {line}"
        );
    }
}

/// A match's result as the table logs it: typed both ways, and the JSON the tables wrote before
/// the type existed (keys in another order) reads the same.
#[test]
fn a_logged_match_result_reads_back_and_reads_the_older_form() {
    use burraco_protocol::log::{MatchEndCode, MatchResult};
    let result = MatchResult {
        sides: vec!["NS".into(), "EW".into()],
        totals: [2105, -40],
        winner: Some("NS".into()),
        vp: Some([20, 0]),
        end: MatchEndCode::TimeOut,
        hands: 3,
    };
    assert_eq!(MatchResult::from_json(&result.to_json()).unwrap(), result);
    let older = r#"{"end":"time_out","hands":3,"sides":["NS","EW"],"totals":[2105,-40],"vp":[20,0],"winner":"NS"}"#;
    assert_eq!(MatchResult::from_json(older).unwrap(), result);
    let by_points = r#"{"end":"target","hands":7,"sides":["S","N"],"totals":[2005,1540],"vp":null,"winner":"S"}"#;
    let read = MatchResult::from_json(by_points).unwrap();
    assert_eq!(
        (read.vp, read.end, read.hands),
        (None, MatchEndCode::Target, 7)
    );
    assert!(MatchResult::from_json(r#"{"end":"resigned"}"#).is_err());
}
