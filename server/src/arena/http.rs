//! `GET /api/arena/leaderboard`: every bot account the arena ever matched, with its head-to-head
//! rating in the bots' pool and its 95% interval (rating ± 2 deviations), beside the server
//! bots' levels as fixed anchors; highest first. Public, as every leaderboard.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use burraco_ratings::{Category, Rating};
use serde_json::{Value, json};

use super::store::ArenaStore;
use crate::ratings::Ratings;
use crate::ratings::finished::{ANCHORS, Subject, anchor, anchor_account};

/// What the leaderboard reads: the arena's bots and their ratings. Its own state rather than
/// the server's, so this module depends on what it uses.
#[derive(Debug, Clone)]
pub struct Api {
    pub arena_store: Arc<dyn ArenaStore>,
    pub ratings: Arc<dyn Ratings>,
}

pub fn routes(api: Api) -> Router {
    Router::new()
        .route("/api/arena/leaderboard", get(leaderboard))
        .with_state(api)
}

/// The endpoint's refusals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArenaApiCode {
    /// The arena's or the ratings' store cannot be read now.
    ArenaUnavailable,
}

impl ArenaApiCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ArenaApiCode::ArenaUnavailable => "arena_unavailable",
        }
    }
}

fn unavailable(e: impl std::fmt::Display) -> Response {
    tracing::warn!("arena leaderboard: {e}");
    let code = ArenaApiCode::ArenaUnavailable;
    let body = json!({"code": code.as_str(), "message": "the arena cannot be read now"});
    (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// One line of the board, its interval rating ± 2 deviations.
fn row(rating: &Rating, fields: Value) -> Value {
    let mut row = json!({
        "rating": round1(rating.rating),
        "deviation": round1(rating.deviation),
        "low": round1(rating.rating - 2.0 * rating.deviation),
        "high": round1(rating.rating + 2.0 * rating.deviation),
        "provisional": rating.is_provisional(),
    });
    if let (Some(row), Some(fields)) = (row.as_object_mut(), fields.as_object()) {
        row.extend(fields.clone());
    }
    row
}

async fn leaderboard(State(api): State<Api>) -> Response {
    let bots = match api.arena_store.bots().await {
        Ok(bots) => bots,
        Err(e) => return unavailable(e),
    };
    let subjects: Vec<Subject> = bots
        .iter()
        .map(|(id, _)| Subject::one(Category::Two, id))
        .collect();
    let stored = match api.ratings.ratings(&subjects).await {
        Ok(stored) => stored,
        Err(e) => return unavailable(e),
    };
    let mut rows: Vec<(f64, Value)> = Vec::new();
    for ((id, name), subject) in bots.iter().zip(&subjects) {
        // Matched, not rated yet (its match in play): no line.
        let Some(s) = stored.get(subject) else {
            continue;
        };
        let fields = json!({"account": id, "name": name, "server_bot": null, "anchor": false,
                            "matches": s.matches, "last_ms": s.last_ms,
                            "player": format!("/player.html?name={id}")});
        rows.push((s.rating.rating, row(&s.rating, fields)));
    }
    for (level, _) in ANCHORS {
        let Some(fixed) = anchor(&anchor_account(level)) else {
            continue;
        };
        let name = burraco_bot::Level::from_code(level).map(crate::bots::name);
        let fields = json!({"account": null, "name": name, "server_bot": level, "anchor": true,
                            "matches": null, "last_ms": null, "player": null});
        rows.push((fixed.rating, row(&fixed, fields)));
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let rows: Vec<Value> = rows
        .into_iter()
        .enumerate()
        .map(|(at, (_, mut row))| {
            row["rank"] = json!(at + 1);
            row
        })
        .collect();
    Json(json!({"category": "two", "interval": "rating ± 2 deviations (95%)", "rows": rows}))
        .into_response()
}
