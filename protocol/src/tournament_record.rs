//! The tournament record: the JSON document `GET /api/tournaments/{id}` serves
//! (docs/TOURNAMENT_RECORD.md describes every field). The server folds a tournament's log
//! (`tournament_log`) into a [`TournamentRecord`] and serialises it once, at the edge; a client
//! or a checker reads it back with the same types.
//!
//! Every field is written, `null` included (the document lists each one), except a table
//! result's `matchpoints`, which only a complete round with duplicate boards has.
//!
//! Version rule: readers ignore fields they do not know, so fields may be added without a new
//! format tag; any change that makes an old reader misread a record (a field removed, renamed or
//! given a new meaning) bumps the number in [`FORMAT`]. Records written before a field was added
//! lack it, so every field added after the first records carries `#[serde(default)]` (an empty
//! list, `false`, `0` or `null`): [`TournamentRecord::from_json`] reads every record of this tag
//! ever written, and refuses another tag.

use serde::{Deserialize, Serialize};

use crate::wire::{WireStanding, WireTournamentSettings};

/// The format tag this crate writes.
pub const FORMAT: &str = "burraco-tournament-1";

/// A tournament, from its settings to its standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentRecord {
    /// Always [`FORMAT`].
    pub format: String,
    /// The tournament's id (`T-...`).
    pub tournament: String,
    pub settings: WireTournamentSettings,
    pub created_ms: i64,
    pub status: TournamentStatus,
    /// What a bye scores by the preset's code.
    pub bye_score: ScoreAwarded,
    /// Every entrant ever registered, by entrant number.
    pub entrants: Vec<RecordEntrant>,
    pub rounds: Vec<RecordRound>,
    pub adjustments: Vec<RecordAdjustment>,
    #[serde(default)]
    pub warnings: Vec<RecordWarning>,
    #[serde(default)]
    pub late_arrivals: Vec<RecordLateArrival>,
    /// Pairs of entrants the director kept apart in rounds paired by standing.
    #[serde(default)]
    pub forbidden_pairings: Vec<[u32; 2]>,
    /// The director's pauses as `[from_ms, to_ms]`, `to_ms` `null` while paused.
    #[serde(default)]
    pub pauses: Vec<(i64, Option<i64>)>,
    #[serde(default)]
    pub paused: bool,
    #[serde(default)]
    pub registration: RecordRegistration,
    /// The director's first-round order, `null` otherwise.
    #[serde(default)]
    pub first_round_order: Option<Vec<u32>>,
    /// The director's round time, `null` for the preset's clock.
    #[serde(default)]
    pub round_secs: Option<u32>,
    /// After the last complete round.
    pub standings: Vec<WireStanding>,
    /// A knock-out's winner once its final is played.
    #[serde(default)]
    pub knockout_winner: Option<u32>,
    /// Rated (protocol 1.6's `create_rated_tournament`): its tables are rated tables.
    #[serde(default)]
    pub rated: bool,
    /// The signed-in account that created it and directs it without the director key
    /// (protocol 1.6), `null` otherwise: a page signed in as that account shows it the
    /// director's panel.
    #[serde(default)]
    pub director_account: Option<String>,
}

/// Where a tournament is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking registrations: no round has started.
    Registering,
    /// A round has started and the tournament is not over.
    Playing,
    Finished,
}

impl TournamentStatus {
    /// The status as the record, the list and the wire spell it.
    pub fn code(self) -> &'static str {
        match self {
            TournamentStatus::Registering => "registering",
            TournamentStatus::Playing => "playing",
            TournamentStatus::Finished => "finished",
        }
    }
}

/// A score the code gives without play (a bye's): victory points and matchpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreAwarded {
    pub vp: u8,
    pub mp: i32,
}

/// One entrant (a player, pair or team) as registered and as it left, if it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordEntrant {
    /// Its number, from 0 in registration order.
    pub entrant: u32,
    pub names: Vec<String>,
    /// The players' stable ids, in the order of `names`.
    pub players: Vec<String>,
    pub bot: bool,
    pub unregistered: bool,
    /// The reason it was withdrawn.
    pub withdrawn: Option<String>,
    #[serde(default)]
    pub withdrawn_ms: Option<i64>,
    #[serde(default)]
    pub withdrawn_after_round: Option<u32>,
    /// The reason it was expelled.
    #[serde(default)]
    pub disqualified: Option<String>,
    #[serde(default)]
    pub disqualified_ms: Option<i64>,
    #[serde(default)]
    pub disqualified_after_round: Option<u32>,
    #[serde(default)]
    pub no_show: bool,
    #[serde(default)]
    pub checked_in: bool,
    #[serde(default)]
    pub server_bot: bool,
    /// Its warnings so far.
    #[serde(default)]
    pub warnings: u32,
    /// A team's line-up for the next round, players by index in `names`.
    #[serde(default)]
    pub lineup: Option<[u8; 4]>,
    /// The account of each player, in the order of `names`, `null` for a player who
    /// registered as a guest (or is a server bot); a log from before protocol 1.7 names none.
    #[serde(default)]
    pub accounts: Vec<Option<String>>,
}

/// One round: how it was paired, its tables and, once complete, the standings after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordRound {
    /// From 1.
    pub round: u32,
    /// How it was paired (`mitchell`, `danish`, `knockout`...).
    pub movement: String,
    /// When it started (Unix ms); 0 in a record written before this field was.
    #[serde(default)]
    pub started_ms: i64,
    /// Duplicate boards, `null` without.
    #[serde(default)]
    pub boards: Option<RecordBoards>,
    pub tables: Vec<RecordTable>,
    /// The entrant resting this round.
    pub bye: Option<u32>,
    /// A knock-out round's entrants in bracket order, `null` for an empty place; `null` for
    /// other movements.
    #[serde(default)]
    pub bracket: Option<Vec<Option<u32>>>,
    /// A teams event's matches that are over (`null` for other kinds).
    #[serde(default)]
    pub matches: Option<Vec<RecordTeamMatch>>,
    /// A teams event's line-ups in force when the round started (`null` for other kinds).
    #[serde(default)]
    pub lineups: Option<Vec<RecordLineup>>,
    pub complete: bool,
    /// The standings after this round, `null` until it is complete.
    pub standings: Option<Vec<WireStanding>>,
}

/// A round's duplicate boards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordBoards {
    /// A seat code, the same at every table.
    pub first_dealer: String,
    pub hands: Vec<RecordBoard>,
}

/// One duplicate board: its commitment from the round's start, its seed once revealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordBoard {
    /// From 1.
    pub hand: u32,
    /// SHA-256 of the seed, hex.
    pub commitment: String,
    /// The seed, hex, once every table of the round finished the hand.
    pub seed: Option<String>,
}

/// One table of a round and its match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordTable {
    /// The movement's table number.
    pub number: u32,
    /// The table's id.
    pub table: String,
    pub ns: u32,
    pub ew: u32,
    /// An individual event's players South and West.
    #[serde(default)]
    pub ns_partner: Option<u32>,
    #[serde(default)]
    pub ew_partner: Option<u32>,
    /// The address of the table's hand records.
    pub hand_records: String,
    /// `null` while the match is in play.
    pub result: Option<RecordResult>,
    /// The rule that scored the match without its end ([`Award::code`]), `null` for a match
    /// played out. Kept as the log spells it: a rule a newer build logged reads as it was.
    #[serde(default)]
    pub awarded: Option<String>,
    /// The points late arrivals gave each side, North-South first.
    #[serde(default)]
    pub late_points: [i32; 2],
}

/// A table's match as scored, North-South first in every pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordResult {
    /// False when the table closed before its match began.
    pub played: bool,
    pub totals: [i32; 2],
    pub vp: [u8; 2],
    /// Each side's margin.
    pub mp: [i32; 2],
    pub burraco: [i32; 2],
    pub hands: u32,
    /// Duplicate matchpoints, once the round is complete (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matchpoints: Option<[u32; 2]>,
}

/// A teams event's match: its two tables together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordTeamMatch {
    /// The teams as the match's first table seats them.
    pub ns: u32,
    pub ew: u32,
    /// The two table numbers.
    pub tables: [u32; 2],
    pub totals: [i32; 2],
    pub vp: [u8; 2],
    pub mp: [i32; 2],
    pub burraco: [i32; 2],
}

/// A team's line-up in force for a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordLineup {
    pub entrant: u32,
    /// Its players by index in the team, the first two its first pair.
    pub order: [u8; 4],
}

/// A director's adjustment of an entrant's VP.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordAdjustment {
    pub entrant: u32,
    pub vp: i32,
    pub reason: String,
    pub at_ms: i64,
    /// Rounds started when it was made.
    pub after_round: u32,
}

/// A formal warning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordWarning {
    pub entrant: u32,
    pub reason: String,
    pub at_ms: i64,
    pub after_round: u32,
}

/// One step of a late arrival.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordLateArrival {
    pub round: u32,
    /// The table's id.
    pub table: String,
    /// The entrant that was late.
    pub entrant: u32,
    pub minutes: u32,
    /// What the present side's match total gets in all, by then.
    pub points: i32,
}

/// How the entry list works; the invite code itself is never in the record.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordRegistration {
    /// Takes registrations now.
    pub open: bool,
    pub invite_only: bool,
    pub closes_ms: Option<i64>,
    pub starts_ms: Option<i64>,
    pub check_in: bool,
    pub bots_after_secs: Option<u32>,
}

/// Why a table's match was scored by the code rather than played to its end (the record's
/// `awarded`; the log's `MatchAwarded` carries its [`Award::code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Award {
    /// A side never came (FITAB art. 37, FE.BUR.IT art. 26): the match is forfeit.
    LateArrival,
    /// A side left the event mid-match: "a 0" (art. 36).
    Abandonment,
    /// A side could not go on for force majeure (FITAB art. 36).
    ForceMajeure,
    /// A side was expelled mid-match (FITAB 2014 art. 37 bis).
    Disqualification,
    /// A fixed schedule paired an entrant gone before the round started (art. 36).
    AbsentOpponent,
}

impl Award {
    pub const ALL: [Award; 5] = [
        Award::LateArrival,
        Award::Abandonment,
        Award::ForceMajeure,
        Award::Disqualification,
        Award::AbsentOpponent,
    ];

    /// The code the log and the record spell.
    pub fn code(self) -> &'static str {
        match self {
            Award::LateArrival => "late_arrival",
            Award::Abandonment => "abandonment",
            Award::ForceMajeure => "force_majeure",
            Award::Disqualification => "disqualification",
            Award::AbsentOpponent => "absent_opponent",
        }
    }

    pub fn from_code(code: &str) -> Option<Award> {
        Award::ALL.into_iter().find(|a| a.code() == code)
    }

    /// Whether the two sides met at the table, as FITAB 2014 art. 37 bis counts the pairs an
    /// expelled pair "met" (RULES.md section 11: at a table, not by an absent side's forfeit):
    /// they did when the match began and a side then left it; not when a side never came or
    /// was gone before the round.
    pub fn sides_met(self) -> bool {
        match self {
            Award::Abandonment | Award::ForceMajeure | Award::Disqualification => true,
            Award::LateArrival | Award::AbsentOpponent => false,
        }
    }
}

impl TournamentRecord {
    /// The record's one JSON form.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a tournament record always serialises")
    }

    /// Reads a record of this crate's [`FORMAT`]: one written by an older build lacks the
    /// fields added since, read as their defaults. Another tag is refused (it may mean
    /// something else), as docs/TOURNAMENT_RECORD.md "Versions" says.
    pub fn from_json(json: &str) -> Result<TournamentRecord, serde_json::Error> {
        let record: TournamentRecord = serde_json::from_str(json)?;
        if record.format != FORMAT {
            return Err(serde::de::Error::custom(format_args!(
                "tournament record format {:?}, this reader knows {FORMAT:?}",
                record.format
            )));
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_awards_serde_name_is_its_log_code() {
        for award in Award::ALL {
            assert_eq!(
                serde_json::to_string(&award).unwrap(),
                format!("\"{}\"", award.code())
            );
            assert_eq!(Award::from_code(award.code()), Some(award));
        }
        assert_eq!(Award::from_code("walkover"), None);
    }

    #[test]
    fn a_status_serialises_as_its_code() {
        for status in [
            TournamentStatus::Registering,
            TournamentStatus::Playing,
            TournamentStatus::Finished,
        ] {
            assert_eq!(
                serde_json::to_string(&status).unwrap(),
                format!("\"{}\"", status.code())
            );
        }
    }

    #[test]
    fn matchpoints_are_absent_until_known_and_nulls_are_written() {
        let mut result = RecordResult {
            played: true,
            totals: [1200, 300],
            vp: [18, 2],
            mp: [900, -900],
            burraco: [200, 0],
            hands: 3,
            matchpoints: None,
        };
        let json: serde_json::Value = serde_json::to_value(&result).unwrap();
        assert!(json.get("matchpoints").is_none());
        result.matchpoints = Some([4, 0]);
        let json: serde_json::Value = serde_json::to_value(&result).unwrap();
        assert_eq!(json["matchpoints"], serde_json::json!([4, 0]));

        let table = RecordTable {
            number: 1,
            table: "t-abcde".into(),
            ns: 0,
            ew: 1,
            ns_partner: None,
            ew_partner: None,
            hand_records: "/api/tables/t-abcde/hands".into(),
            result: None,
            awarded: None,
            late_points: [0, 0],
        };
        let json: serde_json::Value = serde_json::to_value(&table).unwrap();
        for field in ["ns_partner", "ew_partner", "result", "awarded"] {
            assert_eq!(json[field], serde_json::Value::Null, "{field}");
            assert!(json.get(field).is_some(), "{field} is written");
        }
    }

    /// A record as the first builds wrote it (before warnings, late arrivals, pauses, the
    /// registration, the moments entrants left, a round's start, boards, brackets, team
    /// matches, line-ups, individual partners, `awarded` and late points): it still reads, each
    /// missing field as its default, and writes back with them.
    const FIRST_RECORD: &str = r#"{
      "format": "burraco-tournament-1", "tournament": "T-b544a6b340",
      "settings": {"name": "Tuesday singles", "kind": "singles", "rounds": ["danish"], "hands": 1, "preset": "fitab", "max_entrants": 2, "seating": "registration", "start_when_full": true, "clocks": "off"},
      "created_ms": 1795475701731, "status": "finished", "bye_score": {"vp": 14, "mp": 315},
      "entrants": [
        {"entrant": 0, "names": ["Anna"], "players": ["p-323bcd608680"], "bot": false, "unregistered": false, "withdrawn": null},
        {"entrant": 1, "names": ["Bruno"], "players": ["p-b9b2b9937e97"], "bot": false, "unregistered": false, "withdrawn": "abandoned the tournament"}
      ],
      "rounds": [{"round": 1, "movement": "danish",
        "tables": [{"number": 1, "table": "t-e67d91db2d", "ns": 0, "ew": 1, "hand_records": "/api/tables/t-e67d91db2d/hands",
          "result": {"played": true, "totals": [940, 505], "vp": [15, 5], "mp": [435, -435], "burraco": [300, 250], "hands": 1}}],
        "bye": null, "complete": true,
        "standings": [{"rank": 1, "entrant": 0, "names": ["Anna"], "bot": false, "vp": 15, "mp": 435, "burraco": 300},
                      {"rank": 2, "entrant": 1, "names": ["Bruno"], "bot": false, "vp": 4, "mp": -435, "burraco": 250}]}],
      "adjustments": [{"entrant": 1, "vp": -1, "reason": "two warnings (art. 21)", "at_ms": 1795475702147, "after_round": 1}],
      "standings": [{"rank": 1, "entrant": 0, "names": ["Anna"], "bot": false, "vp": 15, "mp": 435, "burraco": 300},
                    {"rank": 2, "entrant": 1, "names": ["Bruno"], "bot": false, "vp": 4, "mp": -435, "burraco": 250}]
    }"#;

    #[test]
    fn a_record_from_the_first_builds_reads_with_defaults() {
        let record = TournamentRecord::from_json(FIRST_RECORD).expect("an old record reads");
        let bruno = &record.entrants[1];
        assert_eq!(bruno.withdrawn.as_deref(), Some("abandoned the tournament"));
        assert_eq!(
            (bruno.withdrawn_ms, bruno.withdrawn_after_round),
            (None, None)
        );
        assert_eq!(bruno.disqualified, None);
        assert_eq!(
            (bruno.warnings, bruno.no_show, bruno.lineup),
            (0, false, None)
        );
        let round = &record.rounds[0];
        assert_eq!((round.started_ms, round.bracket.is_none()), (0, true));
        assert_eq!(round.tables[0].awarded, None);
        assert_eq!(round.tables[0].late_points, [0, 0]);
        assert!(record.warnings.is_empty() && record.pauses.is_empty() && !record.paused);
        assert_eq!(record.registration, RecordRegistration::default());
        assert_eq!(record.knockout_winner, None);
        // Written back, the record has every field (nulls included) and reads the same.
        let again = TournamentRecord::from_json(&record.to_json()).expect("reads back");
        assert_eq!(again, record);
        let json: serde_json::Value = serde_json::from_str(&record.to_json()).unwrap();
        assert!(
            json["entrants"][1]
                .get("disqualified_after_round")
                .is_some()
        );
    }

    /// The example docs/TOURNAMENT_RECORD.md opens with reads as a record.
    #[test]
    fn the_documented_example_reads() {
        let doc = include_str!("../../docs/TOURNAMENT_RECORD.md");
        let example = doc
            .split("```json\n")
            .nth(2)
            .and_then(|rest| rest.split("```").next())
            .expect("the complete record's example");
        let record = TournamentRecord::from_json(example).expect("the example reads");
        assert_eq!(record.format, FORMAT);
        assert_eq!(record.rounds.len(), 1);
    }

    #[test]
    fn another_format_tag_is_refused() {
        let newer = FIRST_RECORD.replace("burraco-tournament-1", "burraco-tournament-2");
        let error = TournamentRecord::from_json(&newer).expect_err("an unknown tag");
        assert!(
            error.to_string().contains("burraco-tournament-2"),
            "{error}"
        );
    }
}
