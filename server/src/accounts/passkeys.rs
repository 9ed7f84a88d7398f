//! Passkeys (WebAuthn, `webauthn-rs`): a signed-in player registers one or more, signs in with
//! one without typing a name (a discoverable credential: the authenticator says whose it is),
//! lists and removes them. docs/ACCOUNTS.md has the endpoints.
//!
//! The relying party is the server's public origin (`--public-origin`, by default
//! `http://localhost:<port>`): a browser answers a ceremony only for that origin, and its host is
//! the RP id the passkeys are bound to. The ceremonies' state is `ceremonies.rs`.

use std::time::{Duration, Instant};

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use webauthn_rs::prelude::{
    CredentialID, DiscoverableKey, Passkey, PublicKeyCredential, RegisterPublicKeyCredential,
    Webauthn,
};

use super::audit::{Entry, Kind};
use super::ceremonies::{
    MAX_BODY, MAX_NAME_CHARS, MAX_PER_ACCOUNT, Passkeys, Registration, credential_key, user_handle,
};
use super::http::{self, ApiCode, ApiState, Refusal};
use super::limits::Limit;
use super::{Account, StoredPasskey};

/// The relying party, or `passkeys_unavailable` when the public origin is none WebAuthn takes.
fn webauthn(passkeys: &Passkeys) -> Result<&Webauthn, Refusal> {
    passkeys
        .webauthn
        .as_ref()
        .ok_or_else(|| ApiCode::PasskeysUnavailable.into())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartRegistration {
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FinishRegistration {
    ceremony: String,
    credential: RegisterPublicKeyCredential,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FinishSignIn {
    ceremony: String,
    credential: PublicKeyCredential,
}

#[derive(Serialize)]
struct PasskeyView<'a> {
    id: &'a str,
    name: &'a str,
    created_ms: i64,
    last_used_ms: Option<i64>,
}

impl<'a> From<&'a StoredPasskey> for PasskeyView<'a> {
    fn from(p: &'a StoredPasskey) -> Self {
        PasskeyView {
            id: &p.id,
            name: &p.name,
            created_ms: p.created_ms,
            last_used_ms: p.last_used_ms,
        }
    }
}

fn too_many_ceremonies() -> Refusal {
    Refusal {
        code: ApiCode::TooManyCeremonies,
        retry_after: Some(Duration::from_secs(5)),
    }
}

/// `POST /api/passkeys/register/start` `{"name": "laptop"}`: the options for
/// `navigator.credentials.create`.
pub async fn register_start(State(api): ApiState, request: Request) -> Result<Response, Refusal> {
    let (account, _) = api.signed_in(request.headers()).await?;
    let webauthn = webauthn(&api.passkeys)?;
    let from = http::address(&request, api.trust_forwarded_for());
    let body: StartRegistration = http::json_body(request, http::MAX_BODY).await?;
    let name = body.name.trim();
    if name.is_empty()
        || name.chars().count() > MAX_NAME_CHARS
        || name.chars().any(char::is_control)
    {
        return Err(ApiCode::InvalidPasskeyName.into());
    }
    let existing = api.accounts().passkeys(&account.id).await?;
    if existing.len() >= MAX_PER_ACCOUNT {
        return Err(ApiCode::TooManyPasskeys.into());
    }
    api.count_ceremony(from, Limit::registrations_from).await?;
    let exclude: Vec<CredentialID> = existing
        .iter()
        .filter_map(|p| serde_json::from_str::<Passkey>(&p.credential).ok())
        .map(|p| p.cred_id().clone())
        .collect();
    let (options, state) = webauthn
        .start_passkey_registration(
            user_handle(&account.id),
            &account.username,
            &account.username,
            Some(exclude),
        )
        .map_err(|e| {
            tracing::warn!("passkey registration start: {e}");
            ApiCode::PasskeysUnavailable
        })?;
    let registration = Registration {
        account: account.id.clone(),
        name: name.to_owned(),
        state,
    };
    let ceremony = api
        .passkeys
        .registrations
        .start_owned(&account.id, registration, Instant::now())
        .ok_or_else(too_many_ceremonies)?;
    let mut options = serde_json::to_value(&options).map_err(|_| ApiCode::PasskeysUnavailable)?;
    // webauthn-rs leaves the resident key to the authenticator; signing in without a name needs
    // the authenticator to keep it (a discoverable credential), so it is asked for.
    if let Some(selection) = options
        .pointer_mut("/publicKey/authenticatorSelection")
        .and_then(|s| s.as_object_mut())
    {
        selection.insert("residentKey".into(), "required".into());
        selection.insert("requireResidentKey".into(), true.into());
    }
    let body = serde_json::json!({"ceremony": ceremony, "options": options});
    Ok(http::private(axum::Json(body)))
}

/// `POST /api/passkeys/register/finish` `{"ceremony", "credential"}`: stores the new passkey.
pub async fn register_finish(State(api): ApiState, request: Request) -> Result<Response, Refusal> {
    let headers = request.headers().clone();
    let address = http::client_address(&request, api.trust_forwarded_for());
    let (account, _) = api.signed_in(&headers).await?;
    let webauthn = webauthn(&api.passkeys)?;
    let body: FinishRegistration = http::json_body(request, MAX_BODY).await?;
    let registration = api
        .passkeys
        .registrations
        .take(&body.ceremony, Instant::now())
        .filter(|r| r.account == account.id)
        .ok_or(ApiCode::NoSuchCeremony)?;
    let passkey = webauthn
        .finish_passkey_registration(&body.credential, &registration.state)
        .map_err(|e| {
            tracing::info!(account = %account.id, "passkey registration refused: {e}");
            ApiCode::PasskeyRejected
        })?;
    let stored = StoredPasskey {
        id: crate::ids::random_id("pk", 8),
        account: account.id.clone(),
        credential_id: credential_key(passkey.cred_id()),
        name: registration.name,
        credential: serde_json::to_string(&passkey).map_err(|_| ApiCode::PasskeysUnavailable)?,
        created_ms: crate::ids::unix_ms(),
        last_used_ms: None,
    };
    if !api.accounts().add_passkey(&stored).await? {
        return Err(ApiCode::PasskeyTaken.into());
    }
    tracing::info!(account = %account.id, passkey = %stored.id, "passkey added");
    api.audit(Entry::new(
        &account.id,
        Kind::PasskeyAdded,
        address,
        &stored.name,
    ))
    .await;
    Ok(http::private((
        StatusCode::CREATED,
        axum::Json(PasskeyView::from(&stored)),
    )))
}

/// `POST /api/passkeys/login/start`: the options for `navigator.credentials.get`, naming no
/// account (the authenticator offers its passkeys for this site).
pub async fn login_start(State(api): ApiState, request: Request) -> Result<Response, Refusal> {
    let webauthn = webauthn(&api.passkeys)?;
    let from = http::address(&request, api.trust_forwarded_for());
    api.count_ceremony(from, Limit::ceremonies_from).await?;
    let (options, state) = webauthn.start_discoverable_authentication().map_err(|e| {
        tracing::warn!("passkey sign-in start: {e}");
        ApiCode::PasskeysUnavailable
    })?;
    let ceremony = api
        .passkeys
        .sign_ins
        .start(state, Instant::now())
        .ok_or_else(too_many_ceremonies)?;
    let body = serde_json::json!({"ceremony": ceremony, "options": options});
    Ok(http::private(axum::Json(body)))
}

/// `POST /api/passkeys/login/finish` `{"ceremony", "credential"}`: signs in the passkey's
/// account, as `/api/login` does.
pub async fn login_finish(State(api): ApiState, request: Request) -> Result<Response, Refusal> {
    let headers = request.headers().clone();
    let address = http::client_address(&request, api.trust_forwarded_for());
    let webauthn = webauthn(&api.passkeys)?;
    let body: FinishSignIn = http::json_body(request, MAX_BODY).await?;
    let state = api
        .passkeys
        .sign_ins
        .take(&body.ceremony, Instant::now())
        .ok_or(ApiCode::NoSuchCeremony)?;
    let (handle, credential_id) = webauthn
        .identify_discoverable_authentication(&body.credential)
        .map_err(|_| ApiCode::PasskeyRejected)?;
    let credential_key = credential_key(&CredentialID::from(credential_id));
    let stored = api
        .accounts()
        .passkey_by_credential(&credential_key)
        .await?
        .filter(|p| user_handle(&p.account) == handle)
        .ok_or(ApiCode::PasskeyRejected)?;
    let mut passkey: Passkey =
        serde_json::from_str(&stored.credential).map_err(|_| ApiCode::PasskeyRejected)?;
    let result = match webauthn.finish_discoverable_authentication(
        &body.credential,
        state,
        &[DiscoverableKey::from(&passkey)],
    ) {
        Ok(result) => result,
        Err(e) => {
            tracing::info!(account = %stored.account, "passkey sign-in refused: {e}");
            api.audit(Entry::new(
                &stored.account,
                Kind::SignInFailed,
                address,
                "passkey",
            ))
            .await;
            return Err(ApiCode::PasskeyRejected.into());
        }
    };
    passkey.update_credential(&result);
    let credential = serde_json::to_string(&passkey).map_err(|_| ApiCode::PasskeysUnavailable)?;
    api.accounts()
        .touch_passkey(&stored.id, &credential, crate::ids::unix_ms())
        .await?;
    let account: Account = api
        .accounts()
        .by_id(&stored.account)
        .await?
        .ok_or(ApiCode::PasskeyRejected)?;
    api.refuse_disabled(&account, address.clone(), "passkey")
        .await?;
    tracing::info!(account = %account.id, "signed in with a passkey");
    api.audit(Entry::new(&account.id, Kind::SignedIn, address, "passkey"))
        .await;
    http::end_current(&api, &headers).await?;
    let cookie = api.open_session(&account, &headers).await?;
    Ok(http::with_cookie(
        StatusCode::OK,
        cookie,
        axum::Json(http::AccountView::from(&account)),
    ))
}

/// `GET /api/passkeys`: the account's passkeys, oldest first.
pub async fn list(State(api): ApiState, headers: HeaderMap) -> Result<Response, Refusal> {
    let (account, _) = api.signed_in(&headers).await?;
    let passkeys = api.accounts().passkeys(&account.id).await?;
    let list: Vec<PasskeyView<'_>> = passkeys.iter().map(PasskeyView::from).collect();
    Ok(http::private(axum::Json(
        serde_json::json!({ "passkeys": list }),
    )))
}

/// `DELETE /api/passkeys/{id}`.
pub async fn remove(
    State(api): ApiState,
    Path(id): Path<String>,
    request: Request,
) -> Result<Response, Refusal> {
    let address = http::client_address(&request, api.trust_forwarded_for());
    let (account, _) = api.signed_in(request.headers()).await?;
    let name = api
        .accounts()
        .passkeys(&account.id)
        .await?
        .into_iter()
        .find(|p| p.id == id)
        .map(|p| p.name)
        .ok_or(ApiCode::NoSuchPasskey)?;
    if !api.accounts().remove_passkey(&account.id, &id).await? {
        return Err(ApiCode::NoSuchPasskey.into());
    }
    tracing::info!(account = %account.id, passkey = %id, "passkey removed");
    api.audit(Entry::new(
        &account.id,
        Kind::PasskeyRemoved,
        address,
        &name,
    ))
    .await;
    Ok(StatusCode::NO_CONTENT.into_response())
}
