//! The player's page's API (docs/ACCOUNTS.md, "Player pages"):
//!
//! - `GET /api/players/{account-or-username}`: an account's totals per category, favourite
//!   partners, tournaments and a page of recent matches (`?before=<cursor>&limit=<1..50>`);
//! - `GET /api/session/matches`: a guest's own games, keyed by its session's resume token (the
//!   `X-Burraco-Resume` header, which only the tab that holds the session knows).
//!
//! Every answer is a few reads by key of the index ([`super::PlayerIndex`]), never a scan of
//! the account's history.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Category, CategoryTotals, Cursor, PlayedMatch, PlayerIndex, guest_key};
use crate::accounts::Accounts;
use crate::api_edge::{Malformed, Path, Query};
use crate::backplane::Sessions;
use crate::directory::Directory;
use crate::port::PortError;
use crate::seasons::Seasons;

/// What the routes read: accounts, the index, the seasons' points and the sessions (this node's
/// first, then the shared ones). Their own state rather than the server's, so this module
/// depends on what it uses.
#[derive(Debug, Clone)]
pub struct Api {
    pub accounts: Arc<dyn Accounts>,
    pub players: Arc<dyn PlayerIndex>,
    pub seasons: Arc<dyn Seasons>,
    pub directory: Arc<Directory>,
    pub sessions: Arc<dyn Sessions>,
}

/// Recent matches per page, unless asked for fewer (or more, up to [`MAX_PAGE`]).
const PAGE: u32 = 20;
const MAX_PAGE: u32 = 50;
/// Favourite partners and tournaments shown.
const PARTNERS: u32 = 5;
const TOURNAMENTS: u32 = 20;
/// The header a guest's tab sends its resume token in.
pub const RESUME_HEADER: &str = "x-burraco-resume";

/// Every refusal of these endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerApiCode {
    /// No account of that id or name.
    NoSuchPlayer,
    /// `before` is not a cursor this API wrote, or `limit` is outside 1 to 50 or not a number.
    BadPage,
    /// No resume token, or none the server knows.
    NoSession,
    /// The index (or the accounts' store) cannot be reached, or a cluster has none.
    PlayersUnavailable,
}

impl PlayerApiCode {
    pub fn status(self) -> StatusCode {
        match self {
            PlayerApiCode::NoSuchPlayer => StatusCode::NOT_FOUND,
            PlayerApiCode::BadPage => StatusCode::BAD_REQUEST,
            PlayerApiCode::NoSession => StatusCode::UNAUTHORIZED,
            PlayerApiCode::PlayersUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for PlayerApiCode {
    fn into_response(self) -> Response {
        (self.status(), axum::Json(json!({ "code": self }))).into_response()
    }
}

/// A query that does not read can only be the page's (`?limit=abc`); a path that does not read
/// names no player.
impl From<Malformed> for PlayerApiCode {
    fn from(what: Malformed) -> PlayerApiCode {
        match what {
            Malformed::Query => PlayerApiCode::BadPage,
            Malformed::Path => PlayerApiCode::NoSuchPlayer,
        }
    }
}

impl From<PortError> for PlayerApiCode {
    fn from(e: PortError) -> PlayerApiCode {
        tracing::warn!("players' index: {e}");
        PlayerApiCode::PlayersUnavailable
    }
}

pub fn routes(api: Api) -> Router {
    Router::new()
        .route("/api/players/{name}", get(player))
        .route("/api/session/matches", get(session_matches))
        .with_state(api)
}

#[derive(Debug, Deserialize)]
pub struct PageQuery {
    before: Option<String>,
    limit: Option<u32>,
}

impl PageQuery {
    fn read(&self) -> Result<(Option<Cursor>, u32), PlayerApiCode> {
        let before = match &self.before {
            None => None,
            Some(text) => Some(Cursor::parse(text).ok_or(PlayerApiCode::BadPage)?),
        };
        let limit = self.limit.unwrap_or(PAGE);
        if !(1..=MAX_PAGE).contains(&limit) {
            return Err(PlayerApiCode::BadPage);
        }
        Ok((before, limit))
    }
}

/// Not kept by any cache: a page changes with every match.
fn fresh(body: Value) -> Response {
    let mut response = axum::Json(body).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn player(
    State(api): State<Api>,
    Path(name, _): Path<String, PlayerApiCode>,
    Query(page, _): Query<PageQuery, PlayerApiCode>,
) -> Result<Response, PlayerApiCode> {
    let (before, limit) = page.read()?;
    let accounts = &api.accounts;
    let by_id = if name.starts_with("u-") {
        accounts.by_id(&name).await?
    } else {
        None
    };
    let account = match by_id {
        Some(account) => account,
        None => accounts
            .by_name(&name)
            .await?
            .ok_or(PlayerApiCode::NoSuchPlayer)?,
    };
    let index = &api.players;
    let (totals, partners, tournaments, matches) = tokio::try_join!(
        index.totals(&account.id),
        index.partners(&account.id, PARTNERS),
        index.tournaments(&account.id, TOURNAMENTS),
        index.recent(&account.id, before.as_ref(), limit),
    )?;
    let bot = accounts.is_bot(&account.id).await?.unwrap_or(false);
    let season = crate::seasons::http::current_points(&*api.seasons, &account.id).await;
    Ok(fresh(json!({
        "account": {"id": account.id, "username": account.username, "bot": bot},
        "totals": totals.iter().map(|(c, t)| totals_json(*c, t)).collect::<Vec<_>>(),
        "partners": partners.iter().map(|p| json!({
            "account": p.partner, "username": p.name, "matches": p.matches, "won": p.won,
        })).collect::<Vec<_>>(),
        "tournaments": tournaments.iter().filter(|t| !crate::arena::is_arena(&t.tournament)).map(|t| json!({
            "tournament": t.tournament, "matches": t.matches, "won": t.won, "vp": t.vp_for,
            "last_ms": t.last_ms, "link": format!("/#tournament/{}", t.tournament),
        })).collect::<Vec<_>>(),
        "matches": page_json(&matches, limit),
        "next": next_cursor(&matches, limit),
        "season": season,
    })))
}

/// A guest's own games: its session's rows, found by its resume token.
async fn session_matches(
    State(api): State<Api>,
    headers: HeaderMap,
    Query(page, _): Query<PageQuery, PlayerApiCode>,
) -> Result<Response, PlayerApiCode> {
    let (before, limit) = page.read()?;
    let token = headers
        .get(RESUME_HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|t| !t.is_empty() && t.len() <= 128)
        .ok_or(PlayerApiCode::NoSession)?;
    let session = match api.directory.session(token) {
        Some(session) => session,
        None => api
            .sessions
            .find(&crate::session::ResumeKey::of(token))
            .await
            .ok_or(PlayerApiCode::NoSession)?,
    };
    let key = guest_key(&session.player);
    let index = &api.players;
    let (totals, matches) = tokio::try_join!(
        index.totals(&key),
        index.recent(&key, before.as_ref(), limit)
    )?;
    Ok(fresh(json!({
        "name": session.name,
        "totals": totals.iter().map(|(c, t)| totals_json(*c, t)).collect::<Vec<_>>(),
        "matches": page_json(&matches, limit),
        "next": next_cursor(&matches, limit),
    })))
}

/// A ratio, `None` when there is nothing to divide by (shown as "-", never as 0).
fn ratio(num: i64, den: i64) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

fn totals_json(category: Category, t: &CategoryTotals) -> Value {
    json!({
        "category": category,
        "matches": t.matches,
        "won": t.won,
        "drawn": t.drawn,
        "lost": t.matches - t.won - t.drawn,
        "average_vp": ratio(t.vp_for, t.vp_matches),
        "hands": t.hands,
        "burraco": t.burraco,
        "burraco_per_hand": ratio(t.burraco, t.hands),
        "closings": t.closings,
        "pozzetti_first": t.pozzetti_first,
    })
}

fn page_json(matches: &[PlayedMatch], limit: u32) -> Vec<Value> {
    matches
        .iter()
        .take(limit as usize)
        .map(|m| {
            json!({
                "table": m.table,
                "match": m.match_no,
                "category": m.category,
                "seat": m.seat,
                "name": m.name,
                "partner": m.partner.as_ref().map(|(id, name)| json!({"account": id, "username": name})),
                "opponents": m.opponents,
                "result": m.outcome,
                "vp": m.vp,
                "points": m.points,
                "hands": m.hands,
                "burraco": m.burraco,
                "closings": m.closings,
                "pozzetti_first": m.pozzetti_first,
                "duration_ms": m.duration_ms,
                "finished_ms": m.finished_ms,
                // An arena match's two tables name it as their tournament (`crate::arena`).
                "tournament": m.tournament.as_ref().filter(|t| !crate::arena::is_arena(t)),
                "arena": m.tournament.as_ref().filter(|t| crate::arena::is_arena(t)),
                "replay": format!("/#replay/{}", m.table),
                "verify": format!("/player.html#verify/{}", m.table),
                "records": format!("/api/tables/{}/hands", m.table),
            })
        })
        .collect()
}

/// The cursor of the page after this one; `None` on a short (so last) page.
fn next_cursor(matches: &[PlayedMatch], limit: u32) -> Option<String> {
    if matches.len() < limit as usize {
        return None;
    }
    matches.last().map(|m| Cursor::of(m).to_text())
}
