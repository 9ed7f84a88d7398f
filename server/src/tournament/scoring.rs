//! A table's match as the tournament scores it, read from the table's own log: the result the
//! table logged at the match's end (totals and the VP of the preset's table) and, from its hand
//! records, each side's burraco bonus (the standings' second tie-break). The same hand records
//! are what `/api/tables/{id}/hands` serves, so anyone can recompute this.

use burraco_protocol::log::{MatchResult, TableEntry};
use burraco_protocol::record::HandRecord;
use burraco_protocol::tournament_log::MatchOutcome;
use burraco_rules::tournament::MatchScore;

use crate::log::Entry;

/// What the hands a table finished so far add up to.
#[derive(Debug, Clone, Default)]
pub struct SoFar {
    /// The burraco bonus points each side scored.
    pub burraco: [i32; 2],
    pub hands: u32,
    /// Each hand's totals, by side.
    pub hand_totals: Vec<[i32; 2]>,
}

impl SoFar {
    fn add(&mut self, hand: u32, record: &str) {
        self.hands = self.hands.max(hand);
        let Ok(record) = HandRecord::from_json(record) else {
            return;
        };
        let totals: Vec<i32> = record
            .outcome
            .iter()
            .flat_map(|o| o.score.iter().map(|s| s.total))
            .collect();
        if let [ns, ew, ..] = totals[..] {
            self.hand_totals.push([ns, ew]);
        }
        // One score per side, North-South (head to head: South) first.
        for (side, score) in record
            .outcome
            .iter()
            .flat_map(|o| o.score.iter())
            .take(2)
            .enumerate()
        {
            self.burraco[side] += score.burracos.iter().map(|b| b.bonus).sum::<i32>();
        }
    }
}

/// Why a table's match was scored by the code rather than played to its end: the record's
/// `awarded` (docs/TOURNAMENT_RECORD.md), logged as its code.
pub use burraco_protocol::tournament_record::Award;

/// A match scored without its play by the code (late arrival, abandonment, an absent
/// opponent): the sides `out` (late, gone) get `absent`'s VP, the others `present`'s VP with its
/// MP as their total (MP are the margin). Nothing else is counted.
pub fn awarded(out: [bool; 2], present: MatchScore, absent: MatchScore) -> MatchOutcome {
    let mut result = MatchOutcome {
        played: true,
        totals: [0, 0],
        vp: [0, 0],
        burraco: [0, 0],
        hands: 0,
        hand_totals: Vec::new(),
    };
    for (side, out) in out.into_iter().enumerate() {
        if out {
            result.vp[side] = absent.vp;
        } else {
            result.vp[side] = present.vp;
            result.totals[side] = present.mp;
        }
    }
    result
}

/// The hands a table's log holds finished (a match abandoned is scored from these).
pub fn so_far(entries: &[Entry]) -> SoFar {
    let mut so_far = SoFar::default();
    for bytes in entries {
        if let Ok(TableEntry::HandFinished { hand, record, .. }) = TableEntry::decode(bytes) {
            so_far.add(hand, &record);
        }
    }
    so_far
}

/// The match's outcome once the table's log says it is over: its match ended (`played`), or the
/// table closed unplayed (nobody came: nothing to either side). `None` while in play.
pub fn outcome(entries: &[Entry]) -> Option<MatchOutcome> {
    let mut so_far = SoFar::default();
    for bytes in entries {
        match TableEntry::decode(bytes).ok()? {
            TableEntry::HandFinished { hand, record, .. } => so_far.add(hand, &record),
            TableEntry::MatchFinished { result } => {
                let result = MatchResult::from_json(&result).ok()?;
                return Some(MatchOutcome {
                    played: true,
                    totals: result.totals,
                    vp: result.vp.unwrap_or([0, 0]).map(|v| v.min(20)),
                    burraco: so_far.burraco,
                    hands: so_far.hands,
                    hand_totals: so_far.hand_totals,
                });
            }
            TableEntry::Closed => {
                return Some(MatchOutcome {
                    played: false,
                    totals: [0, 0],
                    vp: [0, 0],
                    burraco: [0, 0],
                    hands: so_far.hands,
                    hand_totals: so_far.hand_totals,
                });
            }
            _ => {}
        }
    }
    None
}
