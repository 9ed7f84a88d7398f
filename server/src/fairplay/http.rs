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

use crate::Shared;
use crate::accounts::http::{ApiCode, Refusal};
use crate::accounts::identity::{self, Identity, Refused};
use crate::accounts::tokens::Scope;

/// The outcomes shown: the policy's window.
const SHOWN: u32 = super::policy::WINDOW as u32;

/// The fair-play routes, merged into the server's router.
pub fn routes(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/account/playban", get(playban))
        .with_state(shared)
}

/// The signed-in account of the request: a token's with `read_account`, else the cookie's.
async fn account_of(
    shared: &Shared,
    headers: &HeaderMap,
    address: Option<IpAddr>,
) -> Result<String, Refusal> {
    let accounts = shared.backplane.accounts.as_ref();
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
        .session(&crate::accounts::token_hash(&token), crate::unix_ms())
        .await?
        .ok_or(ApiCode::NotSignedIn)?;
    Ok(account.id)
}

async fn playban(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    // Read before any await: a request's body is not `Sync`, so no reference to it is held.
    let address = crate::accounts::http::address(&request, shared.config.trust_forwarded_for);
    let headers = request.headers().clone();
    match answer(&shared, &headers, address).await {
        Ok(response) => response,
        Err(refusal) => refusal.into_response(),
    }
}

async fn answer(
    shared: &Shared,
    headers: &HeaderMap,
    address: Option<IpAddr>,
) -> Result<Response, Refusal> {
    let account = account_of(shared, headers, address).await?;
    let store = shared.backplane.fairplay.as_ref();
    let now = crate::unix_ms();
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
