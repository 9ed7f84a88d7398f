//! Levels in a tournament's standings (issue 21: "shown beside names (lobby, seats, standings)"):
//! `GET /api/tournaments/{id}/levels`, the established level of each entrant's players from the
//! accounts its log names (`TournamentEntry::EntrantAccount`, protocol 1.7). Over HTTP beside the
//! record it completes, rather than in the protocol's standings: a field added to
//! `WireStanding` would break every postcard client (no optional trailing fields), levels change
//! with every rated match anywhere while the record is a fold of the tournament's own log, and
//! any node answers it from the shared log and store.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use burraco_protocol::tournament_log::{TournamentEntry, is_tournament};
use burraco_ratings::{Category, Level};
use serde_json::{Value, json};

use super::Ratings;
use super::http::RatingsApiCode;
use crate::api_edge::Path;
use crate::log::TableLog;
use crate::tournament::settings::Kind;
use crate::tournament::state::TournamentState;

/// What the endpoint reads: the tournaments' logs and the ratings. Its own state rather than the
/// server's, so this module depends on what it uses.
#[derive(Debug, Clone)]
pub struct Api {
    pub log: Arc<dyn TableLog>,
    pub ratings: Arc<dyn Ratings>,
}

pub fn routes(api: Api) -> Router {
    Router::new()
        .route("/api/tournaments/{id}/levels", get(levels))
        .with_state(api)
}

/// The rating an entrant's players are shown by: head to head for singles, the player's own
/// four-player rating in every other kind (a pair's own rating is the pair's, not a player's).
pub fn category_of(kind: Kind) -> Category {
    match kind {
        Kind::Singles => Category::Two,
        Kind::Pairs | Kind::Individual | Kind::Teams => Category::Four,
    }
}

/// Each entrant's players' levels, in the order of its names (`None`: a guest, a server bot, a
/// provisional rating), from `level_of` an account's established level.
pub fn entrant_levels(
    state: &TournamentState,
    level_of: impl Fn(&str) -> Option<Level>,
) -> Vec<(u32, bool, Vec<Option<Level>>)> {
    state
        .entrants
        .iter()
        .filter(|e| !e.unregistered)
        .map(|e| {
            let levels = e
                .player_accounts()
                .iter()
                .map(|account| account.as_deref().and_then(&level_of))
                .collect();
            (e.id, e.bot, levels)
        })
        .collect()
}

/// `{"tournament", "category", "entrants": [{"entrant": 0, "bot": false, "levels":
/// ["advanced", null]}]}`. Refusals ([`RatingsApiCode`]): `404 unknown_tournament`, `400
/// bad_path`, `503 ratings_unavailable`.
async fn levels(
    State(api): State<Api>,
    Path(id, _): Path<String, RatingsApiCode>,
) -> Result<Response, RatingsApiCode> {
    if !is_tournament(&id) {
        return Err(RatingsApiCode::UnknownTournament);
    }
    let log = api.log.load(&id).await.map_err(|e| {
        tracing::warn!("tournament log {id}: {e}");
        RatingsApiCode::RatingsUnavailable
    })?;
    let entries = log
        .iter()
        .map(|e| TournamentEntry::decode(e))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| RatingsApiCode::UnknownTournament)?;
    let state = TournamentState::fold(id.clone(), &entries)
        .map_err(|_| RatingsApiCode::UnknownTournament)?;
    let category = category_of(state.settings.kind);
    let wanted: Vec<(String, Category)> = state
        .entrants
        .iter()
        .flat_map(|e| {
            e.accounts
                .iter()
                .map(|(_, account)| (account.clone(), category))
        })
        .collect();
    let known = super::levels(&*api.ratings, &wanted).await?;
    let level_of = |account: &str| known.get(&(account.to_owned(), category)).copied();
    let entrants: Vec<Value> = entrant_levels(&state, level_of)
        .into_iter()
        .map(|(entrant, bot, levels)| {
            let levels: Vec<Option<&str>> = levels.iter().map(|l| l.map(Level::as_str)).collect();
            json!({"entrant": entrant, "bot": bot, "levels": levels})
        })
        .collect();
    Ok(Json(json!({
        "tournament": id,
        "category": category.as_str(),
        "entrants": entrants,
    }))
    .into_response())
}
