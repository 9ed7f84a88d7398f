//! The ratings crate against its oracles: Glickman's worked example and the `skillratings`
//! crate's Glicko-2; the VP share, a match's outcome, aging, provisional ratings, the 4-player
//! pairs and the levels.

use burraco_ratings::{
    Category, Config, Elo, Level, MatchOutcome, Outcome, Rating, expected_score, expected_vp,
    level, match_outcomes, match_score, match_vp, pair, predicted_score, scoring_column, update,
    update_four, update_four_weighted, update_two, vp_outcomes, vp_share, winning_side,
};
use burraco_rules::VpTable;
use proptest::prelude::*;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

fn rating(rating: f64, deviation: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

fn glickman_example() -> (Rating, Vec<Outcome>) {
    (
        rating(1500.0, 200.0),
        vec![
            Outcome::new(rating(1400.0, 30.0), 1.0),
            Outcome::new(rating(1550.0, 100.0), 0.0),
            Outcome::new(rating(1700.0, 300.0), 0.0),
        ],
    )
}

#[test]
fn glickmans_worked_example() {
    let (player, outcomes) = glickman_example();
    let new = update(player, &outcomes, &Config::default());
    // Step 8 of the paper: mu' = -0.2069, phi' = 0.8722 (4 decimals), sigma' = 0.05999 (the
    // paper truncates 0.0599960 to five decimals).
    assert_eq!(
        format!("{:.4}", (new.rating - 1500.0) / 173.7178),
        "-0.2069"
    );
    assert_eq!(format!("{:.4}", new.deviation / 173.7178), "0.8722");
    assert_eq!(format!("{:.6}", new.volatility), "0.059996");
    assert!((new.volatility - 0.05999).abs() < 1e-5);
    // r' = 1464.06 and RD' = 151.52: the paper converts its rounded mu' and phi', so the
    // unrounded step (1464.0507, 151.5165) is within its last printed digit of them.
    assert!((new.rating - 1464.06).abs() < 0.01, "{}", new.rating);
    assert!((new.deviation - 151.52).abs() < 0.01, "{}", new.deviation);
    assert_eq!(format!("{:.2}", new.deviation), "151.52");
}

#[test]
fn two_half_weight_games_are_one_game() {
    let (player, outcomes) = glickman_example();
    let halves: Vec<Outcome> = outcomes
        .iter()
        .flat_map(|o| {
            let half = Outcome { weight: 0.5, ..*o };
            [half, half]
        })
        .collect();
    let cfg = Config::default();
    let whole = update(player, &outcomes, &cfg);
    let split = update(player, &halves, &cfg);
    assert!((whole.rating - split.rating).abs() < 1e-9);
    assert!((whole.deviation - split.deviation).abs() < 1e-9);
    // And half a game moves the rating less than a whole one, the same way.
    let one = update(player, &outcomes[..1], &cfg);
    let half = update(
        player,
        &[Outcome {
            weight: 0.5,
            ..outcomes[0]
        }],
        &cfg,
    );
    assert!(half.rating > player.rating && half.rating < one.rating);
    assert!(half.deviation > one.deviation);
}

#[test]
fn a_weightless_game_is_no_game() {
    let (player, outcomes) = glickman_example();
    let cfg = Config::default();
    let weightless: Vec<Outcome> = outcomes
        .iter()
        .map(|o| Outcome { weight: 0.0, ..*o })
        .collect();
    assert_eq!(update(player, &weightless, &cfg), player.aged(1.0, &cfg));
    assert_eq!(update(player, &[], &cfg), player.aged(1.0, &cfg));
}

fn to_skill(r: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn arb_rating() -> impl Strategy<Value = Rating> {
    (800.0..2600.0f64, 30.0..350.0f64, 0.03..0.12f64).prop_map(|(rating, deviation, volatility)| {
        Rating {
            rating,
            deviation,
            volatility,
        }
    })
}

fn arb_outcome() -> impl Strategy<Value = (Rating, u8)> {
    (arb_rating(), 0u8..3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Weight 1 and scores of 0, 0.5 or 1 (all skillratings' `Outcomes` can say): the same
    /// step as skillratings' `glicko2_rating_period` (deviations capped at 350 on both sides).
    #[test]
    fn the_step_is_skillratings_glicko2(player in arb_rating(), games in prop::collection::vec(arb_outcome(), 1..12)) {
        let ours: Vec<Outcome> = games
            .iter()
            .map(|&(opponent, s)| Outcome::new(opponent, f64::from(s) / 2.0))
            .collect();
        let theirs: Vec<(Glicko2Rating, Outcomes)> = games
            .iter()
            .map(|&(opponent, s)| {
                let outcome = match s {
                    0 => Outcomes::LOSS,
                    1 => Outcomes::DRAW,
                    _ => Outcomes::WIN,
                };
                (to_skill(opponent), outcome)
            })
            .collect();
        let cfg = Config::default();
        let skill_cfg = Glicko2Config { tau: cfg.tau, convergence_tolerance: cfg.convergence_tolerance };
        let a = update(player, &ours, &cfg);
        let b = glicko2_rating_period(&to_skill(player), &theirs, &skill_cfg);
        prop_assert!((a.rating - b.rating).abs() < 1e-6, "rating {} vs {}", a.rating, b.rating);
        prop_assert!((a.deviation - b.deviation.min(350.0)).abs() < 1e-6, "deviation {} vs {}", a.deviation, b.deviation);
        prop_assert!((a.volatility - b.volatility).abs() < 1e-9, "volatility {} vs {}", a.volatility, b.volatility);
    }

    /// A win never lowers a rating, a loss never raises it, and a game lowers the deviation
    /// below its aged value.
    #[test]
    fn results_move_ratings_the_right_way(player in arb_rating(), opponent in arb_rating(), score in 0.0..=1.0f64) {
        let cfg = Config::default();
        let new = update(player, &[Outcome::new(opponent, score)], &cfg);
        let expected = expected_score(player, opponent);
        if score > expected {
            prop_assert!(new.rating >= player.rating);
        } else {
            prop_assert!(new.rating <= player.rating);
        }
        // Below the deviation aged one period with the new volatility (step 6's phi*).
        let phi_star = Rating { volatility: new.volatility, ..player }.aged(1.0, &cfg);
        prop_assert!(new.deviation <= phi_star.deviation + 1e-9);
        prop_assert!(new.rating.is_finite() && new.deviation > 0.0 && new.volatility > 0.0);
    }

    /// Seats rotated by one (the pairs swapped) with the complementary score: the same updates,
    /// rotated.
    #[test]
    fn four_players_swapping_pairs_swaps_updates(
        players in prop::array::uniform4(arb_rating()),
        score in 0.0..=1.0f64,
    ) {
        let cfg = Config::default();
        let new = update_four(players, score, &cfg);
        let rotated = [players[1], players[2], players[3], players[0]];
        let new_rotated = update_four(rotated, 1.0 - score, &cfg);
        for seat in 0..4 {
            let same = new_rotated[seat];
            let other = new[(seat + 1) % 4];
            prop_assert!((same.rating - other.rating).abs() < 1e-9);
            prop_assert!((same.deviation - other.deviation).abs() < 1e-9);
        }
        // Partners move the same way (the same surprise). Opponents need not move the other
        // way: each side's expectation uses the other pair's deviation, so the two do not
        // add up to 1 unless the pairs' deviations are equal.
        let surprise = new[0].rating - players[0].rating;
        prop_assert!(surprise * (new[2].rating - players[2].rating) >= 0.0);
    }

    /// With four equal deviations and volatilities a 4-player match moves no rating points
    /// into or out of the table.
    #[test]
    fn four_equal_deviations_conserve_points(
        ratings in prop::array::uniform4(900.0..2400.0f64),
        deviation in 40.0..350.0f64,
        score in 0.0..=1.0f64,
    ) {
        let players = ratings.map(|r| rating(r, deviation));
        let new = update_four(players, score, &Config::default());
        let change: f64 = (0..4).map(|i| new[i].rating - players[i].rating).sum();
        prop_assert!(change.abs() < 1e-6, "{change}");
    }

    /// Levels never go down as the rating goes up.
    #[test]
    fn levels_are_monotone(a in 0.0..3500.0f64, b in 0.0..3500.0f64) {
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        prop_assert!(Level::of_rating(low) <= Level::of_rating(high));
    }
}

#[test]
fn vp_share_is_vp_over_twenty() {
    assert_eq!(vp_share(10, 10), 0.5);
    assert_eq!(vp_share(20, 0), 1.0);
    assert_eq!(vp_share(0, 20), 0.0);
    assert_eq!(vp_share(13, 7), 0.65);
    assert_eq!(vp_share(0, 0), 0.5);
}

#[test]
fn a_match_by_points_is_scored_by_its_presets_table() {
    // Logged VP are taken as they are.
    assert_eq!(
        match_vp(Some([14, 6]), [900, 500], VpTable::Fedibur),
        [14, 6]
    );
    // FEDIBUR 2005 to 1500: 505 points, the 15-5 row.
    assert_eq!(match_vp(None, [2005, 1500], VpTable::Fedibur), [15, 5]);
    assert_eq!(match_vp(None, [1500, 2005], VpTable::Fedibur), [5, 15]);
    assert_eq!(match_score(None, [1500, 2005], VpTable::Fedibur), 0.25);
    assert_eq!(
        match_score(Some([10, 10]), [0, 0], VpTable::FitabTwoHands),
        0.5
    );
}

/// Issue 32: totals -5 against -55 in a match of FITAB's 2-hands column are 10-10 VP, a draw for
/// both sides, though one total is higher.
#[test]
fn a_match_is_won_by_its_vp_and_a_10_10_is_a_draw_whatever_the_totals() {
    use MatchOutcome::{Draw, Lost, Won};
    let column = VpTable::FitabTwoHands;
    assert_eq!(
        match_outcomes(Some([10, 10]), [-5, -55], column),
        [Draw, Draw]
    );
    assert_eq!(
        match_outcomes(Some([10, 10]), [-55, -5], column),
        [Draw, Draw]
    );
    assert_eq!(winning_side([Draw, Draw]), None);
    assert_eq!(match_score(Some([10, 10]), [-5, -55], column), 0.5);
    // One row up is a win.
    assert_eq!(match_outcomes(Some([11, 9]), [50, -5], column), [Won, Lost]);
    assert_eq!(match_outcomes(Some([9, 11]), [-5, 50], column), [Lost, Won]);
    assert_eq!(winning_side([Lost, Won]), Some(1));
    // An award's VP that do not add up to 20 (a late arrival's 14-8) and two absent sides.
    assert_eq!(vp_outcomes([14, 8]), [Won, Lost]);
    assert_eq!(vp_outcomes([0, 0]), [Draw, Draw]);
    // A match by points, no VP logged: its preset's column for the difference. FEDIBUR's 10-10
    // row is 0-50: 2010 against 1965 is a draw, 2010 against 1955 a win.
    assert_eq!(
        match_outcomes(None, [2010, 1965], VpTable::Fedibur),
        [Draw, Draw]
    );
    assert_eq!(
        match_outcomes(None, [1955, 2010], VpTable::Fedibur),
        [Lost, Won]
    );
    for outcome in [Won, Draw, Lost] {
        assert_eq!(MatchOutcome::parse(outcome.as_str()), Some(outcome));
    }
    assert_eq!(MatchOutcome::parse("drawn"), None);
    assert_eq!(serde_json::to_string(&Draw).unwrap(), "\"draw\"");
}

/// The column of a match without logged VP: a match by points is scored by its preset's column
/// for the hands it played; a match by hands by its own length's.
#[test]
fn the_scoring_column_is_the_presets_for_the_hands_played() {
    use burraco_rules::{Config as GameConfig, MatchLength, Preset, TableSettings};
    let config = |preset, match_length| {
        GameConfig::new(&TableSettings {
            preset,
            players: None,
            match_length: Some(match_length),
            clocks: None,
            semipulito: None,
            close_requires_pulito: None,
        })
        .expect("valid")
    };
    let by_points = config(Preset::Fitab, MatchLength::Points(1500));
    assert_eq!(scoring_column(&by_points, 2), VpTable::FitabTwoHands);
    assert_eq!(scoring_column(&by_points, 3), VpTable::FitabThreeHands);
    assert_eq!(scoring_column(&by_points, 7), VpTable::FitabFourHands);
    let by_hands = config(Preset::Feburit, MatchLength::Hands(4));
    assert_eq!(scoring_column(&by_hands, 2), VpTable::FeburitFourHands);
    let fedibur = config(Preset::Fedibur, MatchLength::Points(2000));
    assert_eq!(scoring_column(&fedibur, 9), VpTable::Fedibur);
}

#[test]
fn aging_grows_the_deviation_up_to_the_cap() {
    let cfg = Config::default();
    let r = rating(1800.0, 60.0);
    let a_month = r.aged(cfg.periods(30.0), &cfg);
    let a_year = r.aged(cfg.periods(365.0), &cfg);
    assert!(a_month.deviation > r.deviation);
    assert!(a_year.deviation > a_month.deviation);
    assert_eq!(a_year.rating, r.rating);
    // Variance grows linearly: two half periods are one period.
    let twice = r.aged(0.5, &cfg).aged(0.5, &cfg);
    assert!((twice.deviation - r.aged(1.0, &cfg).deviation).abs() < 1e-9);
    // Capped at a new player's deviation.
    let forever = r.aged(1e9, &cfg);
    assert_eq!(forever.deviation, 350.0);
    assert_eq!(r.aged(-5.0, &cfg), r);
}

#[test]
fn provisional_while_the_deviation_is_high() {
    assert!(Rating::new().is_provisional());
    assert_eq!(Rating::default(), Rating::new());
    assert!(rating(1500.0, 110.1).is_provisional());
    assert!(!rating(1500.0, 110.0).is_provisional());
    assert_eq!(level(&Rating::new()), None);
    assert_eq!(level(&rating(1500.0, 80.0)), Some(Level::Intermediate));
    assert_eq!(level(&rating(2100.0, 80.0)), Some(Level::Champion));
    assert_eq!(level(&rating(1000.0, 80.0)), Some(Level::Beginner));
}

/// Matches of weight `weight` a new player needs, drawing against an established opponent of
/// equal strength, to leave the provisional deviation.
fn matches_to_establish(weight: f64) -> usize {
    let cfg = Config::default();
    let opponent = rating(1500.0, 60.0);
    let mut player = Rating::new();
    let mut matches = 0;
    while player.is_provisional() {
        let outcome = Outcome {
            weight,
            ..Outcome::new(opponent, 0.5)
        };
        player = update(player, &[outcome], &cfg);
        matches += 1;
        assert!(matches < 100, "still provisional after 100 matches");
    }
    matches
}

#[test]
fn a_new_player_becomes_established_after_some_matches() {
    // docs/RATINGS.md: 10 matches against people, 20 against bots only (half weight).
    let full = matches_to_establish(1.0);
    let half = matches_to_establish(Config::default().bot_weight);
    assert_eq!((full, half), (10, 20));
}

#[test]
fn levels_are_named_and_parse_back() {
    for l in Level::ALL {
        assert_eq!(Level::parse(l.as_str()), Some(l));
        assert!(!l.name_it().is_empty() && !l.name_en().is_empty());
        assert_eq!(Level::of_rating(l.threshold().max(0.0)), l);
    }
    assert!(
        Level::ALL
            .windows(2)
            .all(|w| w[0] < w[1] && w[0].threshold() < w[1].threshold())
    );
    assert_eq!(Level::Beginner.name_it(), "Principiante");
    assert_eq!(Level::Novice.name_it(), "Esordiente");
}

#[test]
fn categories_parse_from_their_urls() {
    assert_eq!("two".parse::<Category>(), Ok(Category::Two));
    assert_eq!("four".parse::<Category>(), Ok(Category::Four));
    assert_eq!("pair".parse::<Category>(), Ok(Category::FixedPair));
    assert!("fixedpair".parse::<Category>().is_err());
    for c in Category::ALL {
        assert_eq!(Category::parse(c.as_str()), Some(c));
        assert_eq!(c.to_string(), c.as_str());
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            format!("\"{}\"", c.as_str())
        );
    }
}

#[test]
fn ratings_serialize_as_their_three_numbers() {
    let r = rating(1623.5, 87.25);
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(
        json,
        r#"{"rating":1623.5,"deviation":87.25,"volatility":0.06}"#
    );
    assert_eq!(serde_json::from_str::<Rating>(&json).unwrap(), r);
}

#[test]
fn the_expected_vp_favours_the_stronger_player() {
    let strong = rating(1800.0, 50.0);
    let weak = rating(1500.0, 50.0);
    let vp = expected_vp(strong, weak);
    assert!(vp > 10.0 && vp < 20.0, "{vp}");
    assert!((vp + expected_vp(weak, strong) - 20.0).abs() < 1e-9);
    assert_eq!(expected_vp(weak, weak), 10.0);
    // The forecast with both deviations is less sure than the step's term.
    let uncertain = rating(1800.0, 300.0);
    assert!(predicted_score(uncertain, weak) < expected_score(uncertain, weak));
    // The forecast is skillratings' `expected_score` (both deviations).
    let (theirs, _) = skillratings::glicko2::expected_score(&to_skill(uncertain), &to_skill(weak));
    assert!((predicted_score(uncertain, weak) - theirs).abs() < 1e-12);
}

#[test]
fn pairs_are_the_mean_of_their_partners() {
    let p = pair(rating(1400.0, 50.0), rating(1800.0, 350.0));
    assert_eq!(p.rating, 1600.0);
    assert!(p.deviation > 50.0 && p.deviation < 350.0);
    assert_eq!(pair(Rating::new(), Rating::new()).deviation, 350.0);
}

#[test]
fn a_new_partner_learns_more_than_an_established_one() {
    let cfg = Config::default();
    let players = [
        rating(1500.0, 50.0),
        rating(1500.0, 50.0),
        Rating::new(),
        rating(1500.0, 50.0),
    ];
    let new = update_four(players, 0.8, &cfg);
    let established = new[0].rating - players[0].rating;
    let newcomer = new[2].rating - players[2].rating;
    assert!(established > 0.0 && newcomer > 5.0 * established);
    // Half weight moves everyone less.
    let half = update_four_weighted(players, 0.8, 0.5, &cfg);
    assert!(half[2].rating < new[2].rating && half[2].rating > players[2].rating);
}

#[test]
fn elo_moves_by_k_times_the_surprise() {
    let a = Elo::new();
    let b = Elo { rating: 1700.0 };
    let e = a.expected(b);
    assert!((e - 0.2403).abs() < 1e-4);
    let after = a.updated(b, 1.0, Elo::K);
    assert!((after.rating - (1500.0 + 32.0 * (1.0 - e))).abs() < 1e-9);
    assert!((a.expected(b) + b.expected(a) - 1.0).abs() < 1e-12);
}

#[test]
fn a_head_to_head_match_rates_both_players() {
    let cfg = Config::default();
    let (a, b) = (rating(1600.0, 80.0), rating(1450.0, 200.0));
    let [a2, b2] = update_two(a, b, 0.7, 1.0, &cfg);
    assert_eq!(a2, update(a, &[Outcome::new(b, 0.7)], &cfg));
    assert_eq!(b2, update(b, &[Outcome::new(a, 0.3)], &cfg));
    // Against a bot at half weight: half the information.
    let [a_half, _] = update_two(a, b, 0.7, cfg.bot_weight, &cfg);
    assert!(a_half.rating - a.rating < a2.rating - a.rating);
    assert!(a_half.rating > a.rating);
    // A week away is one period.
    assert_eq!(cfg.periods_in_ms(7 * 86_400_000), 1.0);
}

#[test]
fn a_level_up_expects_about_fourteen_vp() {
    // docs/RATINGS.md: levels 150 points apart, about 70% of the VP between established players.
    let up = rating(1650.0, 60.0);
    let down = rating(1500.0, 60.0);
    assert_eq!(level(&up), Some(Level::Advanced));
    assert_eq!(level(&down), Some(Level::Intermediate));
    let vp = expected_vp(up, down);
    assert!((13.5..14.5).contains(&vp), "{vp}");
}

#[test]
fn four_players_compare_the_pairs_means() {
    let cfg = Config::default();
    // 1400 + 1600 against 1500 + 1500: equal means, so a 10-10 moves no rating, though the
    // weaker partner alone would have been expected to lose.
    let players = [
        rating(1400.0, 80.0),
        rating(1500.0, 80.0),
        rating(1600.0, 80.0),
        rating(1500.0, 120.0),
    ];
    let new = update_four(players, 0.5, &cfg);
    for seat in 0..4 {
        assert!((new[seat].rating - players[seat].rating).abs() < 1e-9);
        assert!(new[seat].deviation < players[seat].aged(1.0, &cfg).deviation);
    }
    // When partners are rated alike, each is updated exactly as one game against the
    // opponents' pair.
    let players = [
        rating(1550.0, 90.0),
        rating(1400.0, 70.0),
        rating(1550.0, 90.0),
        rating(1480.0, 200.0),
    ];
    let new = update_four(players, 0.7, &cfg);
    let alone = update(
        players[0],
        &[Outcome::new(pair(players[1], players[3]), 0.7)],
        &cfg,
    );
    assert_eq!(new[0], alone);
    assert_eq!(new[2], alone);
}
