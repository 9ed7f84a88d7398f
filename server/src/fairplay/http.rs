//! `GET /api/account/playban`: an account's running playban (if any), its recent outcomes and
//! its bans, for the player themself: the browser session's cookie, or a personal token with
//! `read_account` (docs/ACCOUNTS.md).

use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::FairPlay;
use crate::accounts::Accounts;
use crate::accounts::http::{ApiCode, Refusal};
use crate::accounts::identity::{self, Identity, Refused};
use crate::accounts::tokens::Scope;

/// The outcomes shown: the policy's window.
const SHOWN: u32 = super::policy::WINDOW as u32;

/// What the route reads: the accounts (who asks), fair play's store, and whether a proxy's
/// `X-Forwarded-For` names the client. Its own state rather than the server's, so this module
/// depends on what it uses.
#[derive(Debug, Clone)]
pub struct Api {
    pub accounts: Arc<dyn Accounts>,
    pub fairplay: Arc<dyn FairPlay>,
    pub trust_forwarded_for: bool,
}

/// The fair-play routes, merged into the server's router.
pub fn routes(api: Api) -> Router {
    Router::new()
        .route("/api/account/playban", get(playban))
        .with_state(api)
}

/// The signed-in account of the request: a token's with `read_account`, else the cookie's.
async fn account_of(
    api: &Api,
    headers: &HeaderMap,
    address: Option<IpAddr>,
) -> Result<String, Refusal> {
    let accounts = api.accounts.as_ref();
    if let Some(token) = identity::bearer(headers) {
        let identity = identity::by_token(accounts, token, address)
            .await
            .map_err(|e| match e {
                Refused::Unavailable => ApiCode::AccountsUnavailable,
                Refused::InvalidToken | Refused::OriginRefused => ApiCode::InvalidToken,
            })?;
        if !identity.allows(Scope::ReadAccount) {
            return Err(ApiCode::MissingScope.into());
        }
        return match identity {
            Identity::Account { account, .. } => Ok(account.id),
            Identity::Guest => Err(ApiCode::InvalidToken.into()),
        };
    }
    let token = identity::cookie_token(headers).ok_or(ApiCode::NotSignedIn)?;
    let (account, _) = accounts
        .session(&crate::accounts::token_hash(&token), crate::ids::unix_ms())
        .await?
        .ok_or(ApiCode::NotSignedIn)?;
    Ok(account.id)
}

async fn playban(State(api): State<Api>, request: Request) -> Response {
    // Read before any await: a request's body is not `Sync`, so no reference to it is held.
    let address = crate::accounts::http::address(&request, api.trust_forwarded_for);
    let headers = request.headers().clone();
    match answer(&api, &headers, address).await {
        Ok(response) => response,
        Err(refusal) => refusal.into_response(),
    }
}

async fn answer(
    api: &Api,
    headers: &HeaderMap,
    address: Option<IpAddr>,
) -> Result<Response, Refusal> {
    let account = account_of(api, headers, address).await?;
    let store = api.fairplay.as_ref();
    let now = crate::ids::unix_ms();
    let outcomes = store.outcomes(&account, SHOWN).await?;
    let bans = store.bans(&account, 10).await?;
    let running = bans.iter().find(|b| b.end_ms > now);
    let body = serde_json::json!({
        "playban": running.map(|b| serde_json::json!({
            "until_ms": b.end_ms,
            "since_ms": b.start_ms,
            "reason": b.reason,
        })),
        "outcomes": outcomes.iter().map(|o| serde_json::json!({
            "table": o.table,
            "outcome": o.outcome.code(),
            "at_ms": o.at_ms,
        })).collect::<Vec<_>>(),
        "bans": bans.iter().map(|b| serde_json::json!({
            "since_ms": b.start_ms,
            "until_ms": b.end_ms,
            "reason": b.reason,
        })).collect::<Vec<_>>(),
    });
    let mut response = axum::Json(body).into_response();
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    Ok(response)
}
