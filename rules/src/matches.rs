//! A match: the hands two sides play against each other, their running totals, and the result
//! (RULES.md section 11; the deal passing on, section 3; the round clock's TIME OUT, section 9).
//!
//! A [`Match`] knows nothing of the cards: the game reports each hand's [`HandScore`] and the match
//! keeps the score sheet, says who deals next and when the match is over.

use crate::config::{Config, MatchLength};
use crate::score::HandScore;
use crate::seat::{Seat, Side};
use crate::vp::VpTable;

/// Why a match refused a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error("seat {0} is not at this table and cannot deal")]
    DealerNotSeated(Seat),
    #[error("the match is over")]
    Over,
    #[error("a hand is void only when a TIME OUT stops it before it starts (FEDIBUR art. 10)")]
    VoidWithoutTimeOut,
}

/// How a match ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchEnd {
    /// All the hands of a match by hands were played.
    Hands,
    /// A side's total exceeded the target of a match by points, and the totals differ.
    Target,
    /// The round clock ran out and the last hand ended (or was void).
    TimeOut,
}

/// A finished match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchResult {
    /// Each side's total, indexed by [`Side::index`].
    pub totals: [i32; 2],
    /// The side with the higher total; `None` for equal totals (only possible in a match by
    /// hands, or one stopped by a TIME OUT).
    pub winner: Option<Side>,
    /// Match points: the absolute difference of the totals. The winner scores it as `+margin`
    /// and the loser as `-margin` (FEDIBUR art. 9), see [`MatchResult::match_points`].
    pub margin: i32,
    /// Victory points by side, from `vp_table`; `None` for a match by points played to its target.
    pub vp: Option<[u8; 2]>,
    /// The table the VP come from.
    pub vp_table: VpTable,
    /// Each side's burraco bonuses over the match, the standings' last tie-break (FEDIBUR art. 9).
    pub burraco_bonus: [i32; 2],
    /// The hands that counted (a void hand does not).
    pub hands: u32,
    pub end: MatchEnd,
}

impl MatchResult {
    /// A side's signed match points: `+margin` for the winner, `-margin` for the loser.
    pub fn match_points(&self, side: Side) -> i32 {
        let own = self.totals[side.index()];
        let theirs = self.totals[side.other().index()];
        if own >= theirs {
            self.margin
        } else {
            -self.margin
        }
    }
}

/// A match in progress.
///
/// - **By hands** ([`MatchLength::Hands`]): over when N hands are played, or when a hand ends
///   after the round clock's TIME OUT (RULES.md section 9: no new hand is dealt after the current
///   one). The higher total wins; equal totals draw. VP from the preset's table by the
///   difference.
/// - **By points** ([`MatchLength::Points`], FEDIBUR art. 7): over when, at the end of a hand, a
///   side's total exceeds ("supera") the target and the totals differ; the higher total wins.
///   Equal totals play another hand, even when both exceed the target. No VP, unless a TIME OUT
///   stopped the match (FEDIBUR art. 7: in tournaments of several tables the match ends with the
///   time and is scored in VP; art. 9).
///
/// The deal passes clockwise each hand among the seated players (section 3); head to head it
/// alternates South and North.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    config: Config,
    teams: bool,
    first_dealer: Seat,
    hands: Vec<HandScore>,
    totals: [i32; 2],
    burraco_bonus: [i32; 2],
    /// How many hands had been recorded when the TIME OUT came.
    time_out_after: Option<usize>,
    /// A hand voided by a TIME OUT before its first take (FEDIBUR art. 10).
    void_hand: bool,
}

impl Match {
    /// A new match. `first_dealer` is drawn at random by the caller (section 3) and must be
    /// seated; `teams` chooses the team VP columns ([`VpTable::for_match`]).
    pub fn new(config: Config, first_dealer: Seat, teams: bool) -> Result<Match, MatchError> {
        if !config.players().is_seated(first_dealer) {
            return Err(MatchError::DealerNotSeated(first_dealer));
        }
        Ok(Match {
            config,
            teams,
            first_dealer,
            hands: Vec::new(),
            totals: [0; 2],
            burraco_bonus: [0; 2],
            time_out_after: None,
            void_hand: false,
        })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn teams(&self) -> bool {
        self.teams
    }

    pub fn first_dealer(&self) -> Seat {
        self.first_dealer
    }

    /// The scores of the hands played, in order.
    pub fn hands(&self) -> &[HandScore] {
        &self.hands
    }

    /// Hands played and counted (a void hand is not).
    pub fn hands_played(&self) -> u32 {
        self.hands.len() as u32
    }

    /// Each side's running total, indexed by [`Side::index`].
    pub fn totals(&self) -> [i32; 2] {
        self.totals
    }

    /// Each side's burraco bonuses so far.
    pub fn burraco_bonus(&self) -> [i32; 2] {
        self.burraco_bonus
    }

    /// Whether the round clock's TIME OUT has been announced.
    pub fn is_timed_out(&self) -> bool {
        self.time_out_after.is_some()
    }

    /// The VP column the match is scored on: for a match by hands the scheduled number of
    /// hands chooses it (a TIME OUT does not change the kind of match); for a match by points,
    /// the hands played.
    pub fn vp_table(&self) -> VpTable {
        let hands = match self.config.match_length() {
            MatchLength::Hands(n) => n,
            MatchLength::Points(_) => u8::try_from(self.hands.len()).unwrap_or(u8::MAX),
        };
        VpTable::for_match(self.config.preset(), hands, self.teams)
    }

    /// Who deals the next hand, `None` once the match is over. The first dealer deals the first
    /// hand; the deal then passes to the next seated player clockwise for each hand played.
    pub fn dealer_of_next_hand(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        let players = self.config.players();
        let mut dealer = self.first_dealer;
        for _ in 0..self.hands.len() % players.count() {
            dealer = players.next(dealer);
        }
        Some(dealer)
    }

    /// Records the score of the hand just ended.
    pub fn record_hand(&mut self, score: &HandScore) -> Result<(), MatchError> {
        if self.is_over() {
            return Err(MatchError::Over);
        }
        for side in Side::BOTH {
            let s = &score.sides[side.index()];
            let i = side.index();
            self.totals[i] = self.totals[i].saturating_add(s.total());
            self.burraco_bonus[i] = self.burraco_bonus[i].saturating_add(s.burraco_bonus());
        }
        self.hands.push(score.clone());
        Ok(())
    }

    /// Adds points to a side's total outside the hands: a late arrival's penalty
    /// ([`crate::tournament::late_arrival`]: FITAB art. 37 credits 100 or 150 points to the
    /// present pair, FE.BUR.IT art. 26 takes 100 off the late one). Refused once the match is over.
    pub fn credit(&mut self, side: Side, points: i32) -> Result<(), MatchError> {
        if self.is_over() {
            return Err(MatchError::Over);
        }
        let i = side.index();
        self.totals[i] = self.totals[i].saturating_add(points);
        Ok(())
    }

    /// The round clock ran out (RULES.md section 9): no new hand is dealt after the current one.
    ///
    /// "The current one" is the hand in play, or, between two hands, the hand being dealt: with
    /// `fitab`/`feburit` it is played with a last round (FITAB art. 15, FE.BUR.IT art. 22); with
    /// `fedibur` it is void ([`Match::record_void_hand`]). The match is over once that hand is
    /// recorded or voided. A second call, or a call once the match is over, changes nothing.
    pub fn time_out(&mut self) {
        if !self.is_over() && self.time_out_after.is_none() {
            self.time_out_after = Some(self.hands.len());
        }
    }

    /// FEDIBUR art. 10: the TIME OUT came during the deal or before the first take, so "the hand
    /// is not played and the final score is the one of the hand just completed".
    ///
    /// The hand does not count: totals and [`Match::hands_played`] stay as they were, and the
    /// deal does not pass (nobody dealt a hand that counted). Since the TIME OUT means no new
    /// hand, the match is then over. Refused unless [`Match::time_out`] came first.
    pub fn record_void_hand(&mut self) -> Result<(), MatchError> {
        if self.is_over() {
            return Err(MatchError::Over);
        }
        if self.time_out_after.is_none() {
            return Err(MatchError::VoidWithoutTimeOut);
        }
        self.void_hand = true;
        Ok(())
    }

    fn end(&self) -> Option<MatchEnd> {
        let played = self.hands.len();
        if self.void_hand || self.time_out_after.is_some_and(|at| played > at) {
            return Some(MatchEnd::TimeOut);
        }
        match self.config.match_length() {
            MatchLength::Hands(n) => (played >= usize::from(n)).then_some(MatchEnd::Hands),
            MatchLength::Points(target) => {
                let [a, b] = self.totals;
                // Checked at the end of a hand: points credited before the first do not end it.
                let exceeded = a.max(b) > i32::try_from(target).unwrap_or(i32::MAX);
                (played > 0 && exceeded && a != b).then_some(MatchEnd::Target)
            }
        }
    }

    pub fn is_over(&self) -> bool {
        self.end().is_some()
    }

    /// The result, once the match is over.
    pub fn result(&self) -> Option<MatchResult> {
        let end = self.end()?;
        let [a, b] = self.totals;
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Side::NorthSouth),
            std::cmp::Ordering::Less => Some(Side::EastWest),
            std::cmp::Ordering::Equal => None,
        };
        let margin = a.abs_diff(b).min(i32::MAX as u32) as i32;
        let vp_table = self.vp_table();
        let scored_in_vp = match self.config.match_length() {
            MatchLength::Hands(_) => true,
            MatchLength::Points(_) => end == MatchEnd::TimeOut,
        };
        let vp = scored_in_vp.then(|| {
            let (w, l) = vp_table.victory_points(margin);
            match winner {
                Some(Side::EastWest) => [l, w],
                _ => [w, l],
            }
        });
        Some(MatchResult {
            totals: self.totals,
            winner,
            margin,
            vp,
            vp_table,
            burraco_bonus: self.burraco_bonus,
            hands: self.hands.len() as u32,
            end,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Preset, TableSettings};
    use crate::meld::BurracoKind;
    use crate::score::{BurracoScore, SideScore};
    use crate::seat::Players;

    fn config(preset: Preset, players: Players, length: MatchLength) -> Config {
        Config::new(&TableSettings {
            preset,
            players: Some(players),
            match_length: Some(length),
            ..TableSettings::default()
        })
        .unwrap()
    }

    /// A hand where North-South score `ns` and East-West `ew`, each with one burraco of `bonus`.
    fn hand(ns: i32, ew: i32) -> HandScore {
        let side = |total: i32| SideScore {
            melded: total - 200,
            burracos: vec![BurracoScore {
                meld: 0,
                kind: BurracoKind::Pulito,
                bonus: 200,
            }],
            ..SideScore::default()
        };
        HandScore {
            sides: [side(ns), side(ew)],
        }
    }

    #[test]
    fn dealer_must_be_seated() {
        let head_to_head = config(Preset::Fitab, Players::Two, MatchLength::Hands(2));
        assert_eq!(
            Match::new(head_to_head, Seat::East, false).unwrap_err(),
            MatchError::DealerNotSeated(Seat::East)
        );
        assert!(Match::new(head_to_head, Seat::North, false).is_ok());
    }

    #[test]
    fn deal_passes_clockwise_with_four_players() {
        let c = config(Preset::Fitab, Players::Four, MatchLength::Hands(6));
        let mut m = Match::new(c, Seat::West, false).unwrap();
        let mut dealers = Vec::new();
        while let Some(d) = m.dealer_of_next_hand() {
            dealers.push(d);
            m.record_hand(&hand(100, 50)).unwrap();
        }
        assert_eq!(
            dealers,
            [
                Seat::West,
                Seat::North,
                Seat::East,
                Seat::South,
                Seat::West,
                Seat::North
            ]
        );
    }

    #[test]
    fn deal_alternates_head_to_head() {
        let c = config(Preset::Feburit, Players::Two, MatchLength::Hands(4));
        let mut m = Match::new(c, Seat::South, false).unwrap();
        let mut dealers = Vec::new();
        while let Some(d) = m.dealer_of_next_hand() {
            dealers.push(d);
            m.record_hand(&hand(0, 0)).unwrap();
        }
        assert_eq!(
            dealers,
            [Seat::South, Seat::North, Seat::South, Seat::North]
        );
    }

    #[test]
    fn match_by_hands_ends_after_n_hands_with_vp() {
        let c = config(Preset::Fitab, Players::Four, MatchLength::Hands(2));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        m.record_hand(&hand(800, 300)).unwrap();
        assert!(!m.is_over());
        assert_eq!(m.result(), None);
        m.record_hand(&hand(-100, 85)).unwrap();
        assert!(m.is_over());
        assert_eq!(m.record_hand(&hand(0, 0)), Err(MatchError::Over));
        assert_eq!(m.hands_played(), 2);
        assert_eq!(m.totals(), [700, 385]);
        let r = m.result().unwrap();
        assert_eq!(r.winner, Some(Side::NorthSouth));
        assert_eq!(r.margin, 315);
        assert_eq!(r.match_points(Side::NorthSouth), 315);
        assert_eq!(r.match_points(Side::EastWest), -315);
        assert_eq!(r.vp_table, VpTable::FitabTwoHands);
        assert_eq!(r.vp, Some([14, 6]));
        assert_eq!(r.burraco_bonus, [400, 400]);
        assert_eq!(r.end, MatchEnd::Hands);
    }

    #[test]
    fn loser_north_south_gets_the_low_vp() {
        let c = config(Preset::Feburit, Players::Four, MatchLength::Hands(3));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        for _ in 0..3 {
            m.record_hand(&hand(100, 500)).unwrap();
        }
        let r = m.result().unwrap();
        assert_eq!(r.winner, Some(Side::EastWest));
        assert_eq!(r.margin, 1200);
        assert_eq!(r.vp_table, VpTable::FeburitThreeHands);
        assert_eq!(r.vp, Some([3, 17]));
    }

    #[test]
    fn equal_totals_draw_in_a_match_by_hands() {
        let c = config(Preset::Fitab, Players::Four, MatchLength::Hands(1));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        m.record_hand(&hand(250, 250)).unwrap();
        let r = m.result().unwrap();
        assert_eq!(r.winner, None);
        assert_eq!(r.margin, 0);
        assert_eq!(r.vp, Some([10, 10]));
        assert_eq!(r.match_points(Side::EastWest), 0);
    }

    #[test]
    fn teams_flag_chooses_the_team_column() {
        let c = config(Preset::Fitab, Players::Four, MatchLength::Hands(4));
        let mut m = Match::new(c, Seat::North, true).unwrap();
        assert_eq!(m.vp_table(), VpTable::FitabTeams);
        for _ in 0..4 {
            m.record_hand(&hand(300, 100)).unwrap();
        }
        // 800 is 14-6 in the 4-hands column but 13-7 in the teams one.
        assert_eq!(m.result().unwrap().vp, Some([13, 7]));
        let mut pairs = Match::new(c, Seat::North, false).unwrap();
        for _ in 0..4 {
            pairs.record_hand(&hand(300, 100)).unwrap();
        }
        assert_eq!(pairs.result().unwrap().vp, Some([14, 6]));
    }

    #[test]
    fn time_out_ends_the_match_after_the_current_hand() {
        let c = config(Preset::Fitab, Players::Four, MatchLength::Hands(3));
        let mut m = Match::new(c, Seat::East, false).unwrap();
        m.record_hand(&hand(400, 100)).unwrap();
        m.time_out();
        assert!(m.is_timed_out());
        assert!(!m.is_over(), "the hand in play is finished");
        assert_eq!(m.dealer_of_next_hand(), Some(Seat::South));
        m.record_hand(&hand(100, 100)).unwrap();
        assert!(m.is_over());
        assert_eq!(m.dealer_of_next_hand(), None);
        let r = m.result().unwrap();
        assert_eq!(r.end, MatchEnd::TimeOut);
        assert_eq!(r.hands, 2);
        // Scored on the column of the scheduled 3 hands.
        assert_eq!(r.vp_table, VpTable::FitabThreeHands);
        assert_eq!(r.vp, Some([13, 7]));
        // Once over, a time out changes nothing.
        m.time_out();
        assert_eq!(m.result(), Some(r));
    }

    #[test]
    fn time_out_during_the_last_hand_ends_it_normally() {
        let c = config(Preset::Fitab, Players::Four, MatchLength::Hands(2));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        m.record_hand(&hand(0, 0)).unwrap();
        m.time_out();
        m.time_out();
        m.record_hand(&hand(50, 0)).unwrap();
        assert!(m.is_over());
        assert_eq!(m.hands_played(), 2);
    }

    #[test]
    fn void_hand_keeps_the_previous_score_and_ends_the_match() {
        let c = config(Preset::Fedibur, Players::Four, MatchLength::Hands(4));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        m.record_hand(&hand(600, 100)).unwrap();
        assert_eq!(m.record_void_hand(), Err(MatchError::VoidWithoutTimeOut));
        m.time_out();
        m.record_void_hand().unwrap();
        assert!(m.is_over());
        assert_eq!(m.hands_played(), 1);
        assert_eq!(m.totals(), [600, 100]);
        assert_eq!(m.record_void_hand(), Err(MatchError::Over));
        let r = m.result().unwrap();
        assert_eq!(r.end, MatchEnd::TimeOut);
        assert_eq!(r.vp_table, VpTable::Fedibur);
        assert_eq!(r.vp, Some([14, 6]));
    }

    #[test]
    fn match_by_points_needs_a_total_above_the_target() {
        let c = config(Preset::Fedibur, Players::Four, MatchLength::Points(2000));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        m.record_hand(&hand(1000, 400)).unwrap();
        m.record_hand(&hand(1000, 400)).unwrap();
        // Exactly 2000 does not exceed the target.
        assert_eq!(m.totals(), [2000, 800]);
        assert!(!m.is_over());
        m.record_hand(&hand(5, 0)).unwrap();
        assert!(m.is_over());
        let r = m.result().unwrap();
        assert_eq!(r.winner, Some(Side::NorthSouth));
        assert_eq!(r.margin, 1205);
        assert_eq!(r.vp, None);
        assert_eq!(r.end, MatchEnd::Target);
        assert_eq!(r.hands, 3);
    }

    #[test]
    fn match_by_points_higher_total_wins_even_if_the_other_exceeded_first() {
        let c = config(Preset::Fedibur, Players::Two, MatchLength::Points(1005));
        let mut m = Match::new(c, Seat::South, false).unwrap();
        m.record_hand(&hand(900, 1000)).unwrap();
        m.record_hand(&hand(300, 100)).unwrap();
        let r = m.result().unwrap();
        assert_eq!(r.totals, [1200, 1100]);
        assert_eq!(r.winner, Some(Side::NorthSouth));
    }

    #[test]
    fn match_by_points_equal_totals_play_on() {
        let c = config(Preset::Fedibur, Players::Four, MatchLength::Points(2000));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        m.record_hand(&hand(2100, 2100)).unwrap();
        assert!(!m.is_over(), "both exceed with equal totals");
        assert_eq!(m.dealer_of_next_hand(), Some(Seat::East));
        m.record_hand(&hand(-50, 0)).unwrap();
        let r = m.result().unwrap();
        assert_eq!(r.winner, Some(Side::EastWest));
        assert_eq!(r.margin, 50);
        assert_eq!(r.match_points(Side::EastWest), 50);
        assert_eq!(r.match_points(Side::NorthSouth), -50);
    }

    #[test]
    fn match_by_points_stopped_by_time_out_is_scored_in_vp() {
        let c = config(Preset::Fedibur, Players::Four, MatchLength::Points(2000));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        m.record_hand(&hand(300, 300)).unwrap();
        m.time_out();
        m.record_hand(&hand(0, 0)).unwrap();
        let r = m.result().unwrap();
        assert_eq!(r.end, MatchEnd::TimeOut);
        assert_eq!(r.winner, None);
        assert_eq!(r.vp, Some([10, 10]));
    }

    #[test]
    fn credited_points_count_in_the_totals() {
        let c = config(Preset::Fitab, Players::Four, MatchLength::Hands(1));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        // East-West were 6 minutes late (FITAB art. 37): 150 points to North-South.
        m.credit(Side::NorthSouth, 150).unwrap();
        m.record_hand(&hand(200, 300)).unwrap();
        let r = m.result().unwrap();
        assert_eq!(r.totals, [350, 300]);
        assert_eq!(r.winner, Some(Side::NorthSouth));
        assert_eq!(m.credit(Side::EastWest, 10), Err(MatchError::Over));

        let c = config(Preset::Fedibur, Players::Four, MatchLength::Points(100));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        m.credit(Side::EastWest, 150).unwrap();
        assert!(!m.is_over(), "a match by points ends at the end of a hand");
        m.record_hand(&hand(0, 0)).unwrap();
        assert_eq!(m.result().unwrap().winner, Some(Side::EastWest));
    }

    #[test]
    fn many_hands_do_not_overflow() {
        let c = config(Preset::Fedibur, Players::Four, MatchLength::Points(100_000));
        let mut m = Match::new(c, Seat::North, false).unwrap();
        for _ in 0..300 {
            m.record_hand(&hand(0, 0)).unwrap();
        }
        assert_eq!(m.vp_table(), VpTable::Fedibur);
        assert_eq!(m.dealer_of_next_hand(), Some(Seat::North));
    }
}
