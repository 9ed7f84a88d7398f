//! A match's score for the rating: its VP share, VP / 20 on the federations' 20-0 scale
//! (RULES.md section 11), so a 10-10 is a draw and a 20-0 a rout.

use burraco_rules::VpTable;

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
/// `VpTable::for_match`) for the difference of the totals.
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

/// The score of side 0 (the first of `totals`, North-South, or South head to head) for the
/// rating: the VP share of [`match_vp`]. Side 1's is `1 - match_score(...)`.
pub fn match_score(vp: Option<[u8; 2]>, totals: [i32; 2], table: VpTable) -> f64 {
    let [a, b] = match_vp(vp, totals, table);
    vp_share(a, b)
}
