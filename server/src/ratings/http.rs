//! The ratings' HTTP API (docs/ACCOUNTS.md, "Ratings and leaderboards"):
//! `GET /api/leaderboards/{two|four|pair}` (`?period=week`, `?bots=true`) and
//! `GET /api/ratings/{account-or-username}`. Public reads: a rating is shown beside a name
//! anyway. Refusals are [`RatingsApiCode`]s, which `GET /api/tables/{id}/expected` and
//! `GET /api/tournaments/{id}/levels` answer too.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use burraco_ratings::Category;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Ratings;
use super::{ACTIVE_DAYS, BOARD_SIZE, RatingRow};
use crate::accounts::Accounts;
use crate::api_edge::{Malformed, Path, Query};
use crate::port::PortError;

/// History points `GET /api/ratings/{account}` gives at most (the newest).
const HISTORY_POINTS: u32 = 500;

/// Every refusal of the ratings' endpoints, answered `{"code", "message"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingsApiCode {
    /// Not `two`, `four` or `pair`.
    UnknownCategory,
    /// `period` is neither `week` nor absent.
    UnknownPeriod,
    /// A query parameter that does not read (`?bots=maybe`).
    BadQuery,
    /// A path segment that does not read (not UTF-8 once percent-decoded).
    BadPath,
    /// No account of that id or username.
    NoSuchAccount,
    /// No table of that id (`/api/tables/{id}/expected`).
    UnknownTable,
    /// No tournament of that id (`/api/tournaments/{id}/levels`).
    UnknownTournament,
    /// The store cannot be read now, or a cluster keeps none.
    RatingsUnavailable,
}

impl RatingsApiCode {
    pub fn status(self) -> StatusCode {
        match self {
            RatingsApiCode::UnknownCategory
            | RatingsApiCode::NoSuchAccount
            | RatingsApiCode::UnknownTable
            | RatingsApiCode::UnknownTournament => StatusCode::NOT_FOUND,
            RatingsApiCode::UnknownPeriod | RatingsApiCode::BadQuery | RatingsApiCode::BadPath => {
                StatusCode::BAD_REQUEST
            }
            RatingsApiCode::RatingsUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn message(self) -> &'static str {
        match self {
            RatingsApiCode::UnknownCategory => "the categories are two, four and pair",
            RatingsApiCode::UnknownPeriod => "the period is week, or none",
            RatingsApiCode::BadQuery => "a query parameter that does not read",
            RatingsApiCode::BadPath => "a path that does not read",
            RatingsApiCode::NoSuchAccount => "no such account",
            RatingsApiCode::UnknownTable => "no such table",
            RatingsApiCode::UnknownTournament => "no such tournament",
            RatingsApiCode::RatingsUnavailable => "the ratings cannot be read now",
        }
    }
}

impl IntoResponse for RatingsApiCode {
    fn into_response(self) -> Response {
        (
            self.status(),
            Json(json!({"code": self, "message": self.message()})),
        )
            .into_response()
    }
}

impl From<PortError> for RatingsApiCode {
    fn from(e: PortError) -> RatingsApiCode {
        tracing::warn!("ratings' store: {e}");
        RatingsApiCode::RatingsUnavailable
    }
}

impl From<Malformed> for RatingsApiCode {
    fn from(what: Malformed) -> RatingsApiCode {
        match what {
            Malformed::Query => RatingsApiCode::BadQuery,
            Malformed::Path => RatingsApiCode::BadPath,
        }
    }
}

/// What the routes read: the ratings, and the accounts (a username names an account).
#[derive(Debug, Clone)]
pub struct Api {
    pub ratings: Arc<dyn Ratings>,
    pub accounts: Arc<dyn Accounts>,
}

/// The routes, over the ratings' store and the accounts.
pub fn routes(api: Api) -> Router {
    Router::new()
        .route("/api/leaderboards/{category}", get(leaderboard))
        .route("/api/ratings/{account}", get(ratings_of))
        .with_state(api)
}

#[derive(Debug, Deserialize)]
pub struct BoardQuery {
    /// `week`: the weekly board (rating gained this calendar week, from Monday 00:00 UTC).
    period: Option<String>,
    /// `true`: bot accounts' board.
    #[serde(default)]
    bots: bool,
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
    State(api): State<Api>,
    Path(category, _): Path<String, RatingsApiCode>,
    Query(query, _): Query<BoardQuery, RatingsApiCode>,
) -> Result<Response, RatingsApiCode> {
    let category = Category::parse(&category).ok_or(RatingsApiCode::UnknownCategory)?;
    let now = crate::ids::unix_ms();
    let weekly = match query.period.as_deref() {
        None => false,
        Some("week") => true,
        Some(_) => return Err(RatingsApiCode::UnknownPeriod),
    };
    let week_ms = super::weekly::week_of(now);
    let rows: Vec<Value> = if weekly {
        api.ratings
            .weekly(category, query.bots, week_ms, BOARD_SIZE)
            .await?
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
            .collect()
    } else {
        let since = now - ACTIVE_DAYS * 86_400_000;
        api.ratings
            .leaderboard(category, query.bots, since, BOARD_SIZE)
            .await?
            .iter()
            .enumerate()
            .map(|(at, row)| row_json(at + 1, row))
            .collect()
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
    Ok(Json(body).into_response())
}

/// The account `name` names: its id (`u-...`) or its username, as the player page takes either.
async fn account_named(accounts: &dyn Accounts, name: &str) -> Result<String, RatingsApiCode> {
    if name.starts_with("u-")
        && let Some(account) = accounts.by_id(name).await?
    {
        return Ok(account.id);
    }
    let account = accounts
        .by_name(name)
        .await?
        .ok_or(RatingsApiCode::NoSuchAccount)?;
    Ok(account.id)
}

async fn ratings_of(
    State(api): State<Api>,
    Path(name, _): Path<String, RatingsApiCode>,
) -> Result<Response, RatingsApiCode> {
    let account = account_named(&*api.accounts, &name).await?;
    let rows = api.ratings.ratings_of(&account).await?;
    let history = api.ratings.history(&account, HISTORY_POINTS).await?;
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
    Ok(Json(json!({"account": account, "ratings": ratings, "history": history})).into_response())
}
