//! The seasons' HTTP API (docs/ACCOUNTS.md, "Seasons"):
//!
//! - `GET /api/seasons`: the current season and the past ones with points, with their dates;
//! - `GET /api/seasons/{id|current}/{two|four|pair}` (`?bots=true`, `?limit=1..100`,
//!   `?offset=n`): a page of a season's ladder.
//!
//! Public reads, as the leaderboards are.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use burraco_ratings::Category;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{LadderRow, MAX_PAGE, Season, Seasons, season_of};
use crate::api_edge::{Malformed, Path, Query};
use crate::port::PortError;

/// Rows a page has unless asked for fewer or more.
const PAGE: u32 = 50;

/// Every refusal of these endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeasonApiCode {
    /// Not a season's id (`2026-q4`, or `current`), or a season still to come.
    UnknownSeason,
    /// Not `two`, `four` or `pair`.
    UnknownCategory,
    /// `limit` outside 1 to 100, `offset` over 100,000, or a query that does not read
    /// (`?limit=abc`, `?bots=maybe`).
    BadPage,
    /// The store cannot be reached, or a cluster has none.
    SeasonsUnavailable,
}

impl SeasonApiCode {
    pub fn status(self) -> StatusCode {
        match self {
            SeasonApiCode::UnknownSeason | SeasonApiCode::UnknownCategory => StatusCode::NOT_FOUND,
            SeasonApiCode::BadPage => StatusCode::BAD_REQUEST,
            SeasonApiCode::SeasonsUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for SeasonApiCode {
    fn into_response(self) -> Response {
        (self.status(), axum::Json(json!({ "code": self }))).into_response()
    }
}

/// A query that does not read is the page's; a path that does not read names no season.
impl From<Malformed> for SeasonApiCode {
    fn from(what: Malformed) -> SeasonApiCode {
        match what {
            Malformed::Query => SeasonApiCode::BadPage,
            Malformed::Path => SeasonApiCode::UnknownSeason,
        }
    }
}

impl From<PortError> for SeasonApiCode {
    fn from(e: PortError) -> SeasonApiCode {
        tracing::warn!("seasons' store: {e}");
        SeasonApiCode::SeasonsUnavailable
    }
}

/// The deepest page offset served: a ladder is read from its index's top.
const MAX_OFFSET: u32 = 100_000;

/// The routes, over the seasons' store (all they read).
pub fn routes(seasons: Arc<dyn Seasons>) -> Router {
    Router::new()
        .route("/api/seasons", get(list))
        .route("/api/seasons/{season}/{category}", get(ladder))
        .with_state(seasons)
}

fn season_json(season: Season, current: Season) -> Value {
    json!({
        "id": season.id(),
        "year": season.year,
        "quarter": season.quarter,
        "start_ms": season.start_ms(),
        "end_ms": season.end_ms(),
        "current": season == current,
    })
}

async fn list(State(store): State<Arc<dyn Seasons>>) -> Result<Response, SeasonApiCode> {
    let current = season_of(crate::ids::unix_ms());
    let mut seasons = store.seasons().await?;
    seasons.retain(|s| *s <= current);
    if !seasons.contains(&current) {
        seasons.insert(0, current);
    }
    seasons.sort_unstable_by(|a, b| b.cmp(a));
    Ok(axum::Json(json!({
        "current": current.id(),
        "seasons": seasons.iter().map(|s| season_json(*s, current)).collect::<Vec<_>>(),
    }))
    .into_response())
}

#[derive(Debug, Deserialize)]
pub struct LadderQuery {
    /// `true`: bot accounts' ladder.
    #[serde(default)]
    bots: bool,
    limit: Option<u32>,
    offset: Option<u32>,
}

fn row_json(rank: u32, row: &LadderRow) -> Value {
    json!({
        "rank": rank,
        "account": row.subject.members.first(),
        "username": row.names.first(),
        "accounts": row.subject.members,
        "names": row.names,
        "points": row.points,
        "matches": row.matches,
        "bot": row.bot,
    })
}

async fn ladder(
    State(seasons): State<Arc<dyn Seasons>>,
    Path((season, category), _): Path<(String, String), SeasonApiCode>,
    Query(query, _): Query<LadderQuery, SeasonApiCode>,
) -> Result<Response, SeasonApiCode> {
    let current = season_of(crate::ids::unix_ms());
    let season = if season == "current" {
        current
    } else {
        Season::parse(&season)
            .filter(|s| *s <= current)
            .ok_or(SeasonApiCode::UnknownSeason)?
    };
    let category = Category::parse(&category).ok_or(SeasonApiCode::UnknownCategory)?;
    let limit = query.limit.unwrap_or(PAGE);
    let offset = query.offset.unwrap_or(0);
    if !(1..=MAX_PAGE).contains(&limit) || offset > MAX_OFFSET {
        return Err(SeasonApiCode::BadPage);
    }
    let rows = seasons
        .ladder(season, category, query.bots, limit, offset)
        .await?;
    Ok(axum::Json(json!({
        "season": season_json(season, current),
        "category": category.as_str(),
        "bots": query.bots,
        "limit": limit,
        "offset": offset,
        "rows": rows
            .iter()
            .enumerate()
            .map(|(at, row)| row_json(offset + at as u32 + 1, row))
            .collect::<Vec<_>>(),
    }))
    .into_response())
}

/// The player's page's line (`GET /api/players/{..}`): `account`'s points in the current season
/// per category (its fixed pairs each with the partner). A store that cannot be read leaves the
/// page whole, with `null` here.
pub async fn current_points(seasons: &dyn Seasons, account: &str) -> Value {
    let current = season_of(crate::ids::unix_ms());
    match seasons.points_of(current, account).await {
        Ok(rows) => json!({
            "id": current.id(),
            "start_ms": current.start_ms(),
            "end_ms": current.end_ms(),
            "points": rows.iter().map(|row| {
                let mut value = json!({
                    "category": row.subject.category.as_str(),
                    "points": row.points,
                    "matches": row.matches,
                });
                if row.subject.members.len() > 1 {
                    value["partners"] = json!(row.subject.members);
                    value["names"] = json!(row.names);
                }
                value
            }).collect::<Vec<_>>(),
        }),
        Err(e) => {
            tracing::warn!("seasons' store: {e}");
            Value::Null
        }
    }
}
