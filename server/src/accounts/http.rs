//! The accounts' HTTP API (docs/ACCOUNTS.md): sign up, sign in, sign out (here or everywhere),
//! who am I, the list of one's sessions with revoke, a new password. JSON in and out; every
//! refusal is an [`ApiCode`] with its HTTP status (`codes.rs`).
//!
//! A browser session is a cookie carrying a 256-bit random token, `HttpOnly` and `SameSite=Lax`
//! (`Secure` when served over TLS); the store keeps only its SHA-256. Signing in always makes a
//! new token and ends the session the request came with (no session fixation). Sign-ins and
//! sign-ups are held to the limits of `limits/`: each attempt is counted in the store before its
//! Argon2id work, and one held back is answered 429 at once, nothing sleeps.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

pub(crate) use super::address::{address, client_address};
use super::audit::{Entry, Kind};
use super::ceremonies::Passkeys;
pub use super::codes::{ApiCode, Refusal, upgrade_refused};
use super::identity::COOKIE;
use super::limits::{Limit, Reserved, Settle};
use super::live::LiveSignIns;
use super::password::{self, Hasher};
use super::{Account, Accounts, CreateError, NewAccount, NewSession, SessionInfo, username};

/// How long a browser session lasts.
pub const SESSION_TTL: Duration = Duration::from_secs(30 * 24 * 3600);
/// The largest request body read: a username and two passwords fit many times over.
pub const MAX_BODY: usize = 4 * 1024;

/// What the accounts' routes share: the handles and settings they read (not the server's hub,
/// so this module depends on what it uses), and their own hasher and passkeys.
#[derive(Debug)]
pub struct Api {
    accounts: Arc<dyn Accounts>,
    pub(super) sign_ins: Arc<LiveSignIns>,
    trust_forwarded_for: bool,
    secure_cookies: bool,
    hasher: Hasher,
    /// The limits' first delay (`ServerConfig::login_backoff`).
    backoff: Duration,
    pub(super) passkeys: Passkeys,
}

pub(super) type ApiState = State<Arc<Api>>;

impl Api {
    /// The accounts' API over their store, this node's live tokens and the settings (its
    /// limits, its passkeys' relying party).
    pub(super) fn new(
        accounts: Arc<dyn Accounts>,
        sign_ins: Arc<LiveSignIns>,
        config: &crate::config::ServerConfig,
    ) -> Api {
        Api {
            accounts,
            sign_ins,
            trust_forwarded_for: config.trust_forwarded_for,
            secure_cookies: config.secure_cookies,
            backoff: config.login_backoff,
            hasher: Hasher::new(),
            passkeys: Passkeys::new(
                config
                    .public_origin
                    .as_deref()
                    .unwrap_or("http://localhost"),
            ),
        }
    }
}

impl Api {
    pub(super) fn accounts(&self) -> &dyn Accounts {
        &*self.accounts
    }

    pub(super) fn trust_forwarded_for(&self) -> bool {
        self.trust_forwarded_for
    }

    /// Appends to the audit log. A failure is logged, not answered: the store that lost the
    /// entry fails the request's own writes too.
    pub(super) async fn audit(&self, entry: Entry) {
        if let Err(e) = self.accounts().record(&entry).await {
            tracing::warn!(account = %entry.account, "audit log: {e}");
        }
    }

    /// Refuses a sign-in to a disabled account (the credentials were right: the answer says
    /// why, and the audit log has it).
    pub(super) async fn refuse_disabled(
        &self,
        account: &Account,
        address: Option<String>,
        method: &str,
    ) -> Result<(), Refusal> {
        let status = self.accounts().status(&account.id).await?;
        if status.is_some_and(|s| s.disabled) {
            self.audit(Entry::new(
                &account.id,
                Kind::SignInRefused,
                address,
                method,
            ))
            .await;
            return Err(ApiCode::AccountDisabled.into());
        }
        Ok(())
    }

    /// Counts an attempt against `limits` in the store, before the work it guards: `Err` with
    /// `held_back` (and `Retry-After`) while one of them waits. None to count (no address known)
    /// lets the request through.
    pub(super) async fn hold(&self, limits: &[Limit], held_back: ApiCode) -> Result<(), Refusal> {
        if limits.is_empty() {
            return Ok(());
        }
        let now = crate::ids::unix_ms();
        match self.accounts().reserve(limits, now, self.backoff).await? {
            Reserved::Granted => Ok(()),
            Reserved::HeldBack { wait } => Err(Refusal {
                code: held_back,
                retry_after: Some(wait),
            }),
        }
    }

    /// Settles attempts [`Api::hold`] counted. A failure is logged, not answered: the attempt
    /// stays counted, which errs on the side of the limit.
    pub(super) async fn settle(&self, settled: &[(Limit, Settle)]) {
        if let Err(e) = self.accounts().settle(settled).await {
            tracing::warn!("accounts' limits not settled: {e}");
        }
    }

    /// Counts a passkey ceremony started from `address` against `limit`: after the free ones
    /// each further one waits, as wrong passwords do, so one address cannot fill the node's
    /// ceremonies and lock everybody else out.
    pub(super) async fn count_ceremony(
        &self,
        address: Option<IpAddr>,
        limit: fn(IpAddr) -> Limit,
    ) -> Result<(), Refusal> {
        let limits: Vec<Limit> = address.map(limit).into_iter().collect();
        self.hold(&limits, ApiCode::TooManyCeremonies).await
    }

    /// The signed-in account and session of a request's cookie. A request that carries a
    /// personal token (`Authorization: Bearer`) is refused: a token never acts as a browser
    /// session.
    pub(super) async fn signed_in(
        &self,
        headers: &HeaderMap,
    ) -> Result<(Account, SessionInfo), Refusal> {
        if super::identity::bearer(headers).is_some() {
            return Err(ApiCode::CookieRequired.into());
        }
        let token = super::identity::cookie_token(headers).ok_or(ApiCode::NotSignedIn)?;
        self.accounts()
            .session(&super::token_hash(&token), crate::ids::unix_ms())
            .await?
            .ok_or_else(|| ApiCode::NotSignedIn.into())
    }

    /// A new session for `account`: stored as its hash, handed out as a cookie.
    pub(super) async fn open_session(
        &self,
        account: &Account,
        headers: &HeaderMap,
    ) -> Result<HeaderValue, Refusal> {
        let token = super::new_token();
        let now = crate::ids::unix_ms();
        let user_agent: String = headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .chars()
            .take(200)
            .collect();
        let session = NewSession {
            info: SessionInfo {
                id: crate::ids::random_id("", 8),
                account: account.id.clone(),
                created_ms: now,
                expires_ms: now + SESSION_TTL.as_millis() as i64,
                user_agent,
            },
            token_hash: super::token_hash(&token),
        };
        self.accounts().open_session(&session).await?;
        let cookie = format!(
            "{COOKIE}={token}; Path=/; Max-Age={}; HttpOnly; SameSite=Lax{}",
            SESSION_TTL.as_secs(),
            if self.secure(headers) { "; Secure" } else { "" }
        );
        HeaderValue::from_str(&cookie).map_err(|_| ApiCode::AccountsUnavailable.into())
    }

    fn secure(&self, headers: &HeaderMap) -> bool {
        self.secure_cookies
            || headers
                .get("x-forwarded-proto")
                .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"))
    }

    fn clear_cookie(&self, headers: &HeaderMap) -> HeaderValue {
        let secure = if self.secure(headers) { "; Secure" } else { "" };
        HeaderValue::from_str(&format!(
            "{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{secure}"
        ))
        .unwrap_or_else(|_| HeaderValue::from_static("burraco_session=; Path=/; Max-Age=0"))
    }

    /// Checks `password` for `account` (`None`: no such account, checked against a decoy all
    /// the same) after counting it against the limits of the account's name key and of the
    /// address: held back (`too_many_attempts`) while either waits, with no check run. A right
    /// password clears the account's count and gives the address its attempt back.
    async fn check_password(
        &self,
        account: Option<Account>,
        name_key: &str,
        password: String,
        address: Option<IpAddr>,
    ) -> Result<Account, Refusal> {
        let of_account = Limit::sign_ins_of(name_key);
        let from_address = address.map(Limit::sign_ins_from);
        let limits: Vec<Limit> = std::iter::once(of_account.clone())
            .chain(from_address.clone())
            .collect();
        if let Err(refusal) = self.hold(&limits, ApiCode::TooManyAttempts).await {
            if refusal.code == ApiCode::TooManyAttempts {
                metrics::counter!("burraco_account_signins_total", "result" => "throttled")
                    .increment(1);
            }
            return Err(refusal);
        }
        let hash = match &account {
            Some(account) => self.accounts().password_hash(&account.id).await?,
            None => None,
        };
        if self.hasher.verify(password, hash).await?
            && let Some(account) = account
        {
            let settled: Vec<(Limit, Settle)> = std::iter::once((of_account, Settle::Clear))
                .chain(from_address.map(|limit| (limit, Settle::Refund)))
                .collect();
            self.settle(&settled).await;
            metrics::counter!("burraco_account_signins_total", "result" => "ok").increment(1);
            return Ok(account);
        }
        metrics::counter!("burraco_account_signins_total", "result" => "bad_credentials")
            .increment(1);
        Err(ApiCode::BadCredentials.into())
    }
}

/// Reads a JSON body of at most `limit` bytes.
pub(super) async fn json_body<T: serde::de::DeserializeOwned>(
    request: Request,
    limit: usize,
) -> Result<T, Refusal> {
    let is_json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return Err(ApiCode::NotJson.into());
    }
    let bytes = axum::body::to_bytes(request.into_body(), limit)
        .await
        .map_err(|_| ApiCode::BodyTooLarge)?;
    serde_json::from_slice(&bytes).map_err(|_| ApiCode::BadJson.into())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    current: String,
    new: String,
}

#[derive(Serialize)]
pub(super) struct AccountView<'a> {
    id: &'a str,
    username: &'a str,
    created_ms: i64,
}

impl<'a> From<&'a Account> for AccountView<'a> {
    fn from(a: &'a Account) -> Self {
        AccountView {
            id: &a.id,
            username: &a.username,
            created_ms: a.created_ms,
        }
    }
}

fn check_password_length(password: &str) -> Result<(), Refusal> {
    if (password::MIN_BYTES..=password::MAX_BYTES).contains(&password.len()) {
        Ok(())
    } else {
        Err(ApiCode::InvalidPassword.into())
    }
}

pub(super) fn with_cookie(
    status: StatusCode,
    cookie: HeaderValue,
    body: impl IntoResponse,
) -> Response {
    let mut response = (status, body).into_response();
    response.headers_mut().append(header::SET_COOKIE, cookie);
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A response about one account: no cache (a shared one above all) may keep it.
pub(super) fn private(body: impl IntoResponse) -> Response {
    let mut response = body.into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Ends the session the request came with, if any (a sign-in rotates the token).
pub(super) async fn end_current(api: &Api, headers: &HeaderMap) -> Result<(), Refusal> {
    if let Ok((account, session)) = api.signed_in(headers).await {
        api.accounts().revoke(&account.id, &session.id).await?;
        api.sign_ins.end_session(&session.id);
    }
    Ok(())
}

pub(super) async fn signup(State(api): ApiState, request: Request) -> Result<Response, Refusal> {
    let headers = request.headers().clone();
    let client = client_address(&request, api.trust_forwarded_for());
    let from_address: Vec<Limit> = address(&request, api.trust_forwarded_for())
        .map(Limit::sign_ups_from)
        .into_iter()
        .collect();
    let body: Credentials = json_body(request, MAX_BODY).await?;
    let name = username::normalize(&body.username).map_err(|_| ApiCode::InvalidUsername)?;
    check_password_length(&body.password)?;
    if username::reserved(&name) {
        return Err(ApiCode::NameReserved.into());
    }
    // Refused before hashing and counting: a taken name costs no Argon2 run.
    if api.accounts().by_name(&name).await?.is_some() {
        return Err(ApiCode::NameTaken.into());
    }
    // Counted before the hash, so sign-ups sent at once cannot all pass the count.
    api.hold(&from_address, ApiCode::TooManySignups).await?;
    let made = async {
        let new = NewAccount {
            id: crate::ids::random_id("u", 8),
            key: username::key(&name),
            skeleton: username::skeleton(&name),
            password_hash: api.hasher.hash(body.password).await?,
            username: name,
            created_ms: crate::ids::unix_ms(),
        };
        api.accounts().create(&new).await.map_err(|e| match e {
            CreateError::NameTaken => ApiCode::NameTaken.into(),
            CreateError::NameConfusable => ApiCode::NameConfusable.into(),
            CreateError::Port(e) => Refusal::from(e),
        })
    };
    let account = match made.await {
        Ok(account) => account,
        Err(refusal) => {
            // No account made: the address gets its attempt back.
            let refund: Vec<(Limit, Settle)> = from_address
                .into_iter()
                .map(|limit| (limit, Settle::Refund))
                .collect();
            api.settle(&refund).await;
            return Err(refusal);
        }
    };
    tracing::info!(account = %account.id, "account created");
    api.audit(Entry::new(&account.id, Kind::SignedUp, client, "password"))
        .await;
    end_current(&api, &headers).await?;
    let cookie = api.open_session(&account, &headers).await?;
    Ok(with_cookie(
        StatusCode::CREATED,
        cookie,
        axum::Json(AccountView::from(&account)),
    ))
}

pub(super) async fn login(State(api): ApiState, request: Request) -> Result<Response, Refusal> {
    let headers = request.headers().clone();
    let address = address(&request, api.trust_forwarded_for());
    let client = client_address(&request, api.trust_forwarded_for());
    let body: Credentials = json_body(request, MAX_BODY).await?;
    if body.password.len() > password::MAX_BYTES {
        return Err(ApiCode::InvalidPassword.into());
    }
    let key = username::key(&body.username);
    let account = api.accounts().by_name(&body.username).await?;
    let named = account.as_ref().map(|a| a.id.clone());
    let account = match api
        .check_password(account, &key, body.password, address)
        .await
    {
        Ok(account) => account,
        Err(refusal) => {
            // Only failures naming an account are its business; a name nobody holds has no log.
            if let Some(id) = named {
                let detail = match refusal.code {
                    ApiCode::TooManyAttempts => "password, held back",
                    _ => "password",
                };
                api.audit(Entry::new(&id, Kind::SignInFailed, client, detail))
                    .await;
            }
            return Err(refusal);
        }
    };
    api.refuse_disabled(&account, client.clone(), "password")
        .await?;
    tracing::info!(account = %account.id, "signed in");
    api.audit(Entry::new(&account.id, Kind::SignedIn, client, "password"))
        .await;
    end_current(&api, &headers).await?;
    let cookie = api.open_session(&account, &headers).await?;
    Ok(with_cookie(
        StatusCode::OK,
        cookie,
        axum::Json(AccountView::from(&account)),
    ))
}

pub(super) async fn logout(State(api): ApiState, headers: HeaderMap) -> Result<Response, Refusal> {
    end_current(&api, &headers).await?;
    Ok(with_cookie(
        StatusCode::NO_CONTENT,
        api.clear_cookie(&headers),
        (),
    ))
}

pub(super) async fn logout_everywhere(
    State(api): ApiState,
    request: Request,
) -> Result<Response, Refusal> {
    let client = client_address(&request, api.trust_forwarded_for());
    let headers = request.headers().clone();
    let (account, _) = api.signed_in(&headers).await?;
    let ended = api.accounts().revoke_all(&account.id, None).await?;
    api.sign_ins.end_sessions_of(&account.id, None);
    tracing::info!(account = %account.id, sessions = ended, "signed out everywhere");
    api.audit(Entry::new(
        &account.id,
        Kind::SignedOutEverywhere,
        client,
        &format!("{ended} sessions"),
    ))
    .await;
    Ok(with_cookie(
        StatusCode::NO_CONTENT,
        api.clear_cookie(&headers),
        (),
    ))
}

pub(super) async fn me(State(api): ApiState, headers: HeaderMap) -> Result<Response, Refusal> {
    let (account, session) = api.signed_in(&headers).await?;
    let body = serde_json::json!({
        "id": account.id,
        "username": account.username,
        "created_ms": account.created_ms,
        "session": session.id,
    });
    Ok(private(axum::Json(body)))
}

pub(super) async fn sessions(
    State(api): ApiState,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let (account, current) = api.signed_in(&headers).await?;
    let list = api
        .accounts()
        .sessions(&account.id, crate::ids::unix_ms())
        .await?;
    let body: Vec<_> = list
        .iter()
        .map(|s| {
            serde_json::json!({
                "id": s.id,
                "created_ms": s.created_ms,
                "expires_ms": s.expires_ms,
                "user_agent": s.user_agent,
                "current": s.id == current.id,
            })
        })
        .collect();
    Ok(private(axum::Json(body)))
}

pub(super) async fn revoke(
    State(api): ApiState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let (account, _) = api.signed_in(&headers).await?;
    if api.accounts().revoke(&account.id, &id).await? {
        api.sign_ins.end_session(&id);
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(ApiCode::NoSuchSession.into())
    }
}

pub(super) async fn change_password(
    State(api): ApiState,
    request: Request,
) -> Result<Response, Refusal> {
    let headers = request.headers().clone();
    let address = address(&request, api.trust_forwarded_for());
    let client = client_address(&request, api.trust_forwarded_for());
    let (account, session) = api.signed_in(&headers).await?;
    let body: NewPassword = json_body(request, MAX_BODY).await?;
    check_password_length(&body.new)?;
    if body.current.len() > password::MAX_BYTES {
        return Err(ApiCode::BadCredentials.into());
    }
    let key = username::key(&account.username);
    let account = api
        .check_password(Some(account), &key, body.current, address)
        .await?;
    let hash = api.hasher.hash(body.new).await?;
    api.accounts().set_password_hash(&account.id, &hash).await?;
    // Whoever else held a session (perhaps why the password changes) is signed out.
    api.accounts()
        .revoke_all(&account.id, Some(&session.id))
        .await?;
    api.sign_ins.end_sessions_of(&account.id, Some(&session.id));
    tracing::info!(account = %account.id, "password changed");
    api.audit(Entry::new(
        &account.id,
        Kind::PasswordChanged,
        client,
        "password",
    ))
    .await;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// How many entries `GET /api/account/audit` shows: the newest.
const AUDIT_PAGE: u32 = 100;

/// `GET /api/account/audit`: the account's own audit log, newest first.
pub(super) async fn own_audit(
    State(api): ApiState,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let (account, _) = api.signed_in(&headers).await?;
    let entries = api.accounts().audit(&account.id, AUDIT_PAGE).await?;
    Ok(private(axum::Json(
        serde_json::json!({ "entries": entries }),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_well_formed_cookie_is_read() {
        let token = "ab".repeat(32);
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("x=1; {COOKIE}={token}; y=2")).expect("header"),
        );
        assert_eq!(super::super::identity::cookie_token(&headers), Some(token));
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("burraco_session=not-a-token"),
        );
        assert_eq!(super::super::identity::cookie_token(&headers), None);
    }
}
