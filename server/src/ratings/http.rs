//! The ratings' HTTP API (docs/ACCOUNTS.md, "Ratings and leaderboards"):
//! `GET /api/leaderboards/{two|four|pair}` (`?period=week`, `?bots=true`) and
//! `GET /api/ratings/{account}`. Public reads: a rating is shown beside a name anyway.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use burraco_ratings::Category;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Ratings;
use super::{ACTIVE_DAYS, BOARD_SIZE, RatingRow};

/// History points `GET /api/ratings/{account}` gives at most (the newest).
const HISTORY_POINTS: u32 = 500;

/// The routes, over the ratings' store (all they read).
pub fn routes(ratings: Arc<dyn Ratings>) -> Router {
    Router::new()
        .route("/api/leaderboards/{category}", get(leaderboard))
        .route("/api/ratings/{account}", get(ratings_of))
        .with_state(ratings)
}

#[derive(Debug, Deserialize)]
pub struct BoardQuery {
    /// `week`: the weekly board (rating gained this calendar week, from Monday 00:00 UTC).
    period: Option<String>,
    /// `true`: bot accounts' board.
    #[serde(default)]
    bots: bool,
}

fn refusal(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({"code": code, "message": message}))).into_response()
}

fn unavailable(e: impl std::fmt::Display) -> Response {
    tracing::warn!("ratings' store: {e}");
    refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        "ratings_unavailable",
        "the ratings cannot be read now",
    )
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn row_json(rank: usize, row: &RatingRow) -> Value {
    json!({
        "rank": rank,
        "accounts": row.subject.members,
        "names": row.names,
        "rating": round1(row.rating.rating),
        "deviation": round1(row.rating.deviation),
        "level": burraco_ratings::level(&row.rating).map(|l| l.as_str()),
        "matches": row.matches,
        "last_ms": row.last_ms,
    })
}

async fn leaderboard(
    State(ratings): State<Arc<dyn Ratings>>,
    Path(category): Path<String>,
    Query(query): Query<BoardQuery>,
) -> Response {
    let Some(category) = Category::parse(&category) else {
        return refusal(
            StatusCode::NOT_FOUND,
            "unknown_category",
            "the categories are two, four and pair",
        );
    };
    let now = crate::ids::unix_ms();
    let weekly = match query.period.as_deref() {
        None => false,
        Some("week") => true,
        Some(_) => {
            return refusal(
                StatusCode::BAD_REQUEST,
                "unknown_period",
                "the period is week, or none",
            );
        }
    };
    let week_ms = super::weekly::week_of(now);
    let rows: Vec<Value> = if weekly {
        match ratings
            .weekly(category, query.bots, week_ms, BOARD_SIZE)
            .await
        {
            Ok(rows) => rows
                .iter()
                .enumerate()
                .map(|(at, row)| {
                    json!({
                        "rank": at + 1,
                        "accounts": row.subject.members,
                        "names": row.names,
                        "gain": round1(row.gain),
                        "matches": row.matches,
                        "rating": round1(row.rating),
                    })
                })
                .collect(),
            Err(e) => return unavailable(e),
        }
    } else {
        let since = now - ACTIVE_DAYS * 86_400_000;
        match ratings
            .leaderboard(category, query.bots, since, BOARD_SIZE)
            .await
        {
            Ok(rows) => rows
                .iter()
                .enumerate()
                .map(|(at, row)| row_json(at + 1, row))
                .collect(),
            Err(e) => return unavailable(e),
        }
    };
    let mut body = json!({
        "category": category.as_str(),
        "period": if weekly { "week" } else { "all" },
        "bots": query.bots,
        "rows": rows,
    });
    if weekly {
        // The week's first millisecond (Monday 00:00 UTC), for the page to say since when.
        body["week_ms"] = json!(week_ms);
    }
    Json(body).into_response()
}

async fn ratings_of(
    State(ratings): State<Arc<dyn Ratings>>,
    Path(account): Path<String>,
) -> Response {
    let rows = match ratings.ratings_of(&account).await {
        Ok(rows) => rows,
        Err(e) => return unavailable(e),
    };
    let history = match ratings.history(&account, HISTORY_POINTS).await {
        Ok(points) => points,
        Err(e) => return unavailable(e),
    };
    let ratings: Vec<Value> = rows
        .iter()
        .map(|row| {
            let mut value = json!({
                "category": row.subject.category.as_str(),
                "rating": round1(row.rating.rating),
                "deviation": round1(row.rating.deviation),
                "provisional": row.rating.is_provisional(),
                "level": burraco_ratings::level(&row.rating).map(|l| l.as_str()),
                "matches": row.matches,
                "last_ms": row.last_ms,
            });
            if row.subject.members.len() > 1 {
                value["partners"] = json!(row.subject.members);
                value["names"] = json!(row.names);
            }
            value
        })
        .collect();
    let history: Vec<Value> = history
        .iter()
        .map(|p| {
            json!({
                "category": p.category.as_str(),
                "match": p.key,
                "at_ms": p.at_ms,
                "before": round1(p.before),
                "rating": round1(p.rating),
                "deviation": round1(p.deviation),
            })
        })
        .collect();
    Json(json!({"account": account, "ratings": ratings, "history": history})).into_response()
}
