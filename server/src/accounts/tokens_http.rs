//! The HTTP API of bot accounts and personal tokens (docs/ACCOUNTS.md): become a bot account,
//! create, list and revoke tokens (signed in by the browser session only), and read the
//! account with a token (`read_account`).

use std::time::Duration;

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::MadeBot;
use super::http::{ApiCode, ApiState, MAX_BODY, Refusal, json_body, private};
use super::identity::{self, Identity, Refused};
use super::tokens::{self, NewToken, Scope, Scopes, TokenInfo};

/// A token's life when the request names none.
pub const DEFAULT_TOKEN_DAYS: u32 = 365;
/// The longest life a token may ask for.
pub const MAX_TOKEN_DAYS: u32 = 366;
/// The longest label.
const MAX_LABEL_CHARS: usize = 100;
/// Live tokens one account may hold (each is a key to it: a leak of many is worse than one).
pub const MAX_TOKENS: usize = 50;
const DAY: Duration = Duration::from_secs(24 * 3600);

/// `POST /api/account/bot`: the signed-in account becomes a bot account, for good. Only an
/// account with no rated games (no rating) may: its games and rating stay a person's.
pub(crate) async fn become_bot(
    State(api): ApiState,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let (account, _) = api.signed_in(&headers).await?;
    match api
        .accounts()
        .make_bot(&account.id, crate::ids::unix_ms())
        .await?
    {
        MadeBot::Made => {}
        MadeBot::NoSuchAccount => return Err(ApiCode::NotSignedIn.into()),
        MadeBot::HasRatedGames => return Err(ApiCode::HasRatedGames.into()),
    }
    tracing::info!(account = %account.id, "became a bot account");
    Ok(private(axum::Json(serde_json::json!({
        "id": account.id,
        "username": account.username,
        "created_ms": account.created_ms,
        "bot": true,
    }))))
}

/// `GET /api/account`: the account, for its browser session or for a token with
/// `read_account`.
pub(crate) async fn account(State(api): ApiState, request: Request) -> Result<Response, Refusal> {
    let headers = request.headers();
    let account = if let Some(token) = identity::bearer(headers) {
        let address = super::http::address(&request, api.trust_forwarded_for());
        let identity = identity::by_token(api.accounts(), token, address)
            .await
            .map_err(|e| match e {
                Refused::Unavailable => ApiCode::AccountsUnavailable,
                Refused::InvalidToken | Refused::OriginRefused => ApiCode::InvalidToken,
            })?;
        if !identity.allows(Scope::ReadAccount) {
            return Err(ApiCode::MissingScope.into());
        }
        match identity {
            Identity::Account { account, .. } => account,
            Identity::Guest => return Err(ApiCode::InvalidToken.into()),
        }
    } else {
        api.signed_in(headers).await?.0
    };
    let bot = api.accounts().is_bot(&account.id).await? == Some(true);
    Ok(private(axum::Json(serde_json::json!({
        "id": account.id,
        "username": account.username,
        "created_ms": account.created_ms,
        "bot": bot,
    }))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenRequest {
    #[serde(default)]
    label: String,
    scopes: Vec<String>,
    expires_days: Option<u32>,
}

/// A label as stored: none, or a line under the protocol's text rule (no control, format or
/// invisible character, runs of spaces made one) of at most 100 characters; `None` if it is
/// neither.
fn token_label(label: &str) -> Option<String> {
    if label.trim().is_empty() {
        return Some(String::new());
    }
    burraco_protocol::text::normalise_line(label, MAX_LABEL_CHARS)
}

fn view(t: &TokenInfo) -> serde_json::Value {
    serde_json::json!({
        "id": t.id,
        "label": t.label,
        "scopes": t.scopes.list().iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        "created_ms": t.created_ms,
        "expires_ms": t.expires_ms,
        "last_used_ms": t.last_used_ms,
        "last_address": t.last_address,
    })
}

/// `POST /api/tokens`: a new token, shown in this answer and never again.
pub(crate) async fn create(State(api): ApiState, request: Request) -> Result<Response, Refusal> {
    let headers = request.headers().clone();
    let (account, _) = api.signed_in(&headers).await?;
    let body: TokenRequest = json_body(request, MAX_BODY).await?;
    let scopes: Option<Vec<Scope>> = body.scopes.iter().map(|s| Scope::parse(s)).collect();
    let scopes = match scopes {
        Some(scopes) if !scopes.is_empty() => Scopes::new(scopes),
        _ => return Err(ApiCode::InvalidScopes.into()),
    };
    let days = body.expires_days.unwrap_or(DEFAULT_TOKEN_DAYS);
    if !(1..=MAX_TOKEN_DAYS).contains(&days) {
        return Err(ApiCode::InvalidTokenSettings.into());
    }
    let label = token_label(&body.label).ok_or(ApiCode::InvalidTokenSettings)?;
    let now = crate::ids::unix_ms();
    let token = tokens::new_token();
    let info = TokenInfo {
        id: crate::ids::random_id("tk", 8),
        account: account.id.clone(),
        label,
        scopes,
        created_ms: now,
        expires_ms: now + (DAY.as_millis() as i64) * i64::from(days),
        last_used_ms: None,
        last_address: None,
    };
    let new = NewToken {
        info: info.clone(),
        token_hash: super::token_hash(&token),
    };
    // Counted with the insert, in the store: tokens asked for at once never pass the limit.
    if !api.accounts().create_token(&new, MAX_TOKENS).await? {
        return Err(ApiCode::InvalidTokenSettings.into());
    }
    tracing::info!(account = %account.id, token = %info.id, "token created");
    let mut body = view(&info);
    body["token"] = serde_json::Value::String(token);
    Ok((StatusCode::CREATED, private(axum::Json(body))).into_response())
}

/// `GET /api/tokens`: the account's live tokens (never the tokens themselves).
pub(crate) async fn list(State(api): ApiState, headers: HeaderMap) -> Result<Response, Refusal> {
    let (account, _) = api.signed_in(&headers).await?;
    let tokens = api
        .accounts()
        .tokens(&account.id, crate::ids::unix_ms())
        .await?;
    let body: Vec<_> = tokens.iter().map(view).collect();
    Ok(private(axum::Json(body)))
}

/// `DELETE /api/tokens/{id}`: revokes the token; its connections on this node close now,
/// on the others within [`super::live::RECHECK`].
pub(crate) async fn revoke(
    State(api): ApiState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let (account, _) = api.signed_in(&headers).await?;
    if !api.accounts().revoke_token(&account.id, &id).await? {
        return Err(ApiCode::NoSuchToken.into());
    }
    let closed = api.sign_ins.revoke(&id);
    tracing::info!(account = %account.id, token = %id, closed, "token revoked");
    Ok(StatusCode::NO_CONTENT.into_response())
}
