//! A finished match's VP, its outcome for each side, and its score for the rating: the VP share,
//! VP / 20 on the federations' 20-0 scale (RULES.md section 11), so a 10-10 is a draw and a 20-0
//! a rout.
//!
//! [`match_outcomes`] is the one decision of who won a match: the table's `match_ended`, the
//! players' index, the season's points, the ratings and the arena all call it with the match's
//! VP, so a match is told one way everywhere (a 10-10 is a draw whatever the totals).

use burraco_rules::{Config, MatchLength, VpTable};
use serde::{Deserialize, Serialize};

/// `vp_for / (vp_for + vp_against)`: on the 20-0 scale the sides' VP add up to 20, so this is
/// VP / 20 (10-10 gives 0.5, 20-0 gives 1). The denominator is the sum, not 20, because some
/// awards do not add up to 20 (a late arrival's 14-6 in 4 hands is 70% of 20 against 8, 14-8):
/// the share keeps what the two sides got relative to each other. 0-0 (both absent) is 0.5.
pub fn vp_share(vp_for: u8, vp_against: u8) -> f64 {
    let total = f64::from(vp_for) + f64::from(vp_against);
    if total == 0.0 {
        0.5
    } else {
        f64::from(vp_for) / total
    }
}

/// The VP of a finished match by side (the order of `totals`): the VP the table logged
/// (`burraco_protocol::log::MatchResult::vp`, `burraco_rules::MatchResult::vp`), or, for a match
/// by points played to its target (which has none), the VP of `table` (the preset's column,
/// [`scoring_column`]) for the difference of the totals.
pub fn match_vp(vp: Option<[u8; 2]>, totals: [i32; 2], table: VpTable) -> [u8; 2] {
    if let Some(vp) = vp {
        return vp;
    }
    let (winner, loser) = table.victory_points(totals[0].saturating_sub(totals[1]));
    if totals[0] >= totals[1] {
        [winner, loser]
    } else {
        [loser, winner]
    }
}

/// The column a finished match's VP come from when it logged none (a match by points played to
/// its target): the preset's column for the hands it played (`hands_played`); a match by hands
/// takes its own length's. Every reader of a finished match takes this column, the table that
/// announces it included, so they all find the same VP.
pub fn scoring_column(config: &Config, hands_played: u32) -> VpTable {
    let hands = match config.match_length() {
        MatchLength::Hands(n) => n,
        MatchLength::Points(_) => u8::try_from(hands_played).unwrap_or(u8::MAX),
    };
    VpTable::for_match(config.preset(), hands, false)
}

/// The score of side 0 (the first of `totals`, North-South, or South head to head) for the
/// rating: the VP share of [`match_vp`]. Side 1's is `1 - match_score(...)`.
pub fn match_score(vp: Option<[u8; 2]>, totals: [i32; 2], table: VpTable) -> f64 {
    let [a, b] = match_vp(vp, totals, table);
    vp_share(a, b)
}

/// How a finished match ended for one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchOutcome {
    Won,
    Draw,
    Lost,
}

impl MatchOutcome {
    /// `won`, `draw`, `lost`: the code the players' index stores and its API answers.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchOutcome::Won => "won",
            MatchOutcome::Draw => "draw",
            MatchOutcome::Lost => "lost",
        }
    }

    pub fn parse(text: &str) -> Option<MatchOutcome> {
        [MatchOutcome::Won, MatchOutcome::Draw, MatchOutcome::Lost]
            .into_iter()
            .find(|o| o.as_str() == text)
    }
}

/// Each side's outcome from the match's VP (in their order): more VP wins, equal VP draws.
/// The federations rank a match by its VP (RULES.md section 11: standings by VP, then MP), so
/// a difference of totals inside the 10-10 row (0 to 50 points in 2 hands of FITAB: -5 against
/// -55 is one) is a draw, as the rating (a VP share of one half) and the season's points count it.
pub fn vp_outcomes(vp: [u8; 2]) -> [MatchOutcome; 2] {
    match vp[0].cmp(&vp[1]) {
        std::cmp::Ordering::Greater => [MatchOutcome::Won, MatchOutcome::Lost],
        std::cmp::Ordering::Less => [MatchOutcome::Lost, MatchOutcome::Won],
        std::cmp::Ordering::Equal => [MatchOutcome::Draw, MatchOutcome::Draw],
    }
}

/// Each side's outcome of a finished match (the order of `totals`): [`vp_outcomes`] of
/// [`match_vp`], so a match by points played to its target is decided by its preset's column
/// too. The one decision of who won: every reader calls it.
pub fn match_outcomes(vp: Option<[u8; 2]>, totals: [i32; 2], table: VpTable) -> [MatchOutcome; 2] {
    vp_outcomes(match_vp(vp, totals, table))
}

/// The index (0 or 1) of the side that won, `None` for a draw.
pub fn winning_side(outcomes: [MatchOutcome; 2]) -> Option<usize> {
    outcomes.iter().position(|o| *o == MatchOutcome::Won)
}
