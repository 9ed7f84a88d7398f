//! The expected result of a rated match before it starts (issue 21, docs/RATINGS.md "The expected
//! VP before a match"): `GET /api/tables/{id}/expected`, each seat's expected VP from the seated
//! accounts' current ratings, so the ready check can show it. Over HTTP rather than in the
//! protocol: it changes no binary client's enums, and ratings are public reads already
//! (`GET /api/ratings/{account}`).

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use burraco_ratings::{Category, Config, Rating};
use burraco_rules::Seat;
use serde_json::json;

use super::Ratings;
use super::http::RatingsApiCode;
use super::{Stored, Subject, category_of};
use crate::api_edge::Path;
use crate::backplane::Backplane;
use crate::directory::Directory;

/// What the endpoint reads: a table by id (here or on another node) and the ratings. Its own
/// state rather than the server's, so this module depends on what it uses.
#[derive(Debug, Clone)]
pub struct Api {
    pub directory: Arc<Directory>,
    pub backplane: Backplane,
    pub ratings: Arc<dyn Ratings>,
}

pub fn routes(api: Api) -> Router {
    Router::new()
        .route("/api/tables/{id}/expected", get(expected))
        .with_state(api)
}

/// Each seat's expected VP (of 20) at a table of `players` seats whose seats are all held by the
/// accounts `accounts` (seat index, account id), from their stored ratings aged to `now_ms`
/// (absent: a new player's). Head to head, `expected_vp(south, north)`; four players, the pairs'
/// ratings (`pair(N, S)` against `pair(E, W)`), partners expecting the same. Empty while a seat is
/// not held by an account: there is no match to predict yet.
pub fn expected_by_seat(
    players: u8,
    accounts: &[(u8, String)],
    stored: &HashMap<Subject, Stored>,
    now_ms: i64,
    cfg: &Config,
) -> Vec<(Seat, f64)> {
    let category = category_of(players);
    let seats: &[Seat] = if players == 2 {
        &[Seat::North, Seat::South]
    } else {
        &Seat::ALL
    };
    let rating_at = |seat: Seat| -> Option<Rating> {
        let (_, account) = accounts
            .iter()
            .find(|(at, _)| usize::from(*at) == seat.index())?;
        Some(match stored.get(&Subject::one(category, account)) {
            Some(s) => {
                let days = (now_ms - s.last_ms).max(0) as f64 / 86_400_000.0;
                s.rating.aged(cfg.periods(days), cfg)
            }
            None => Rating::new(),
        })
    };
    let Some(ratings) = seats
        .iter()
        .map(|seat| rating_at(*seat))
        .collect::<Option<Vec<Rating>>>()
    else {
        return Vec::new();
    };
    if let [north, south] = ratings[..] {
        let south_vp = burraco_ratings::expected_vp(south, north);
        return vec![(Seat::South, south_vp), (Seat::North, 20.0 - south_vp)];
    }
    let [n, e, s, w] = ratings[..] else {
        return Vec::new();
    };
    let north_south =
        burraco_ratings::expected_vp(burraco_ratings::pair(n, s), burraco_ratings::pair(e, w));
    Seat::ALL
        .into_iter()
        .map(|seat| {
            let vp = if seat.side() == Seat::North.side() {
                north_south
            } else {
                20.0 - north_south
            };
            (seat, vp)
        })
        .collect()
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// `{"table", "rated", "category", "expected": [{"seat": "S", "vp": 12.4}, ...]}`; `expected` is
/// empty at a casual table and while a seat is free. Refusals: `404 unknown_table`, `400
/// bad_path`, `503 ratings_unavailable` ([`RatingsApiCode`]).
async fn expected(
    State(api): State<Api>,
    Path(id, _): Path<String, RatingsApiCode>,
) -> Result<Response, RatingsApiCode> {
    let handle = crate::lobby::find_in(&api.directory, &api.backplane, &id)
        .await
        .ok_or(RatingsApiCode::UnknownTable)?;
    let info = handle.info();
    let players = info.summary.players;
    let category: Category = category_of(players);
    let full = info.accounts.len() == usize::from(players);
    let by_seat = if info.rated && full {
        let subjects: Vec<Subject> = info
            .accounts
            .iter()
            .map(|(_, account)| Subject::one(category, account))
            .collect();
        let stored = api.ratings.ratings(&subjects).await?;
        expected_by_seat(
            players,
            &info.accounts,
            &stored,
            crate::ids::unix_ms(),
            &Config::new(),
        )
    } else {
        Vec::new()
    };
    let expected: Vec<serde_json::Value> = by_seat
        .iter()
        .map(|(seat, vp)| json!({"seat": seat.to_string(), "vp": round1(*vp)}))
        .collect();
    Ok(Json(json!({
        "table": id,
        "rated": info.rated,
        "category": category.as_str(),
        "expected": expected,
    }))
    .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(rating: f64, deviation: f64, last_ms: i64) -> Stored {
        Stored {
            rating: Rating {
                rating,
                deviation,
                ..Rating::new()
            },
            matches: 20,
            last_ms,
        }
    }

    #[test]
    fn head_to_head_the_stronger_expects_more_and_the_two_add_up_to_20() {
        let accounts = vec![(0, "u-north".to_owned()), (2, "u-south".to_owned())];
        let mut ratings = HashMap::new();
        ratings.insert(
            Subject::one(Category::Two, "u-south"),
            stored(1750.0, 60.0, 0),
        );
        ratings.insert(
            Subject::one(Category::Two, "u-north"),
            stored(1600.0, 60.0, 0),
        );
        let by_seat = expected_by_seat(2, &accounts, &ratings, 0, &Config::new());
        let vp = |seat: Seat| by_seat.iter().find(|(s, _)| *s == seat).map(|(_, vp)| *vp);
        let (south, north) = (vp(Seat::South).unwrap(), vp(Seat::North).unwrap());
        assert!((south + north - 20.0).abs() < 1e-9);
        // One level up (150 points), both established: about 14 VP (docs/RATINGS.md, "Levels").
        assert!((13.0..15.0).contains(&south), "south expects {south}");
        assert_eq!(
            south,
            burraco_ratings::expected_vp(
                ratings[&Subject::one(Category::Two, "u-south")].rating,
                ratings[&Subject::one(Category::Two, "u-north")].rating
            )
        );
    }

    #[test]
    fn new_accounts_expect_a_draw_and_a_free_seat_expects_nothing() {
        let accounts = vec![(0, "u-a".to_owned()), (2, "u-b".to_owned())];
        let by_seat = expected_by_seat(2, &accounts, &HashMap::new(), 0, &Config::new());
        assert_eq!(by_seat, vec![(Seat::South, 10.0), (Seat::North, 10.0)]);
        let alone = expected_by_seat(2, &accounts[..1], &HashMap::new(), 0, &Config::new());
        assert!(alone.is_empty());
        let three = vec![(0, "a".into()), (1, "b".into()), (2, "c".into())];
        assert!(expected_by_seat(4, &three, &HashMap::new(), 0, &Config::new()).is_empty());
    }

    #[test]
    fn four_players_compare_the_pairs_and_partners_expect_the_same() {
        let accounts: Vec<(u8, String)> = ["n", "e", "s", "w"]
            .iter()
            .enumerate()
            .map(|(at, a)| (at as u8, (*a).to_owned()))
            .collect();
        let mut ratings = HashMap::new();
        for (account, rating) in [("n", 1800.0), ("s", 1700.0), ("e", 1500.0), ("w", 1500.0)] {
            ratings.insert(
                Subject::one(Category::Four, account),
                stored(rating, 60.0, 0),
            );
        }
        let by_seat = expected_by_seat(4, &accounts, &ratings, 0, &Config::new());
        let vp = |seat: Seat| by_seat.iter().find(|(s, _)| *s == seat).unwrap().1;
        assert_eq!(vp(Seat::North), vp(Seat::South));
        assert_eq!(vp(Seat::East), vp(Seat::West));
        assert!(vp(Seat::North) > 10.0);
        assert!((vp(Seat::North) + vp(Seat::East) - 20.0).abs() < 1e-9);
        let rated = |a: &str| ratings[&Subject::one(Category::Four, a)].rating;
        let want = burraco_ratings::expected_vp(
            burraco_ratings::pair(rated("n"), rated("s")),
            burraco_ratings::pair(rated("e"), rated("w")),
        );
        assert_eq!(vp(Seat::North), want);
    }

    #[test]
    fn time_away_makes_the_forecast_less_sure() {
        let accounts = vec![(0, "u-north".to_owned()), (2, "u-south".to_owned())];
        let mut ratings = HashMap::new();
        ratings.insert(
            Subject::one(Category::Two, "u-south"),
            stored(1750.0, 60.0, 0),
        );
        ratings.insert(
            Subject::one(Category::Two, "u-north"),
            stored(1600.0, 60.0, 0),
        );
        let now = expected_by_seat(2, &accounts, &ratings, 0, &Config::new())[0].1;
        let year = 365 * 86_400_000;
        let later = expected_by_seat(2, &accounts, &ratings, year, &Config::new())[0].1;
        assert!(
            later < now && later > 10.0,
            "{later} after a year, {now} now"
        );
    }
}
