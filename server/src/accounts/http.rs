//! The accounts' HTTP API (docs/ACCOUNTS.md): sign up, sign in, sign out (here or everywhere),
//! who am I, the list of one's sessions with revoke, a new password. JSON in and out; every
//! refusal is an [`ApiCode`] with its HTTP status.
//!
//! A browser session is a cookie carrying a 256-bit random token, `HttpOnly` and `SameSite=Lax`
//! (`Secure` when served over TLS); the store keeps only its SHA-256. Signing in always makes a
//! new token and ends the session the request came with (no session fixation). Wrong passwords
//! are answered `too_many_attempts` (429) after a few, for a delay that doubles with each further
//! failure, per account and per address ([`Backoff`]): the answer is immediate, nothing sleeps.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::audit::{Entry, Kind};
use super::ceremonies::Passkeys;
use super::identity::COOKIE;
use super::live::LiveSignIns;
use super::password::{self, Hasher};
use super::{Account, Accounts, CreateError, NewAccount, NewSession, SessionInfo, username};

/// How long a browser session lasts.
pub const SESSION_TTL: Duration = Duration::from_secs(30 * 24 * 3600);
/// The largest request body read: a username and two passwords fit many times over.
pub const MAX_BODY: usize = 4 * 1024;
/// Wrong passwords allowed before the delays start: per account...
const FREE_PER_ACCOUNT: u32 = 5;
/// ...and per address (a club or a family may share one).
const FREE_PER_ADDRESS: u32 = 20;
/// Accounts created from one address before the delays start (each further one waits, as
/// wrong passwords do): every account costs an Argon2id hash and a name.
const FREE_SIGNUPS_PER_ADDRESS: u32 = 5;
/// Passkey sign-ins started from one address before the delays start (a ceremony holds a
/// challenge for 5 minutes).
const FREE_CEREMONIES_PER_ADDRESS: u32 = 30;
/// The longest delay.
const MAX_DELAY: Duration = Duration::from_secs(15 * 60);
/// Keys the backoff map keeps before forgetting those idle for [`IDLE`].
const BACKOFF_KEYS: usize = 100_000;
const IDLE: Duration = Duration::from_secs(3600);

/// Every refusal of the accounts' API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ApiCode {
    /// The body is not JSON of the expected shape.
    BadJson,
    /// The body is larger than [`MAX_BODY`].
    BodyTooLarge,
    /// A body without `Content-Type: application/json` (which also keeps plain cross-site
    /// forms out).
    NotJson,
    /// Not 3 to 24 letters, digits, `_`, `-` or `.`, or no letter or digit among them.
    InvalidUsername,
    /// Shorter than 8 or longer than 256 bytes.
    InvalidPassword,
    /// The same name (after NFKC and case folding) is registered.
    NameTaken,
    /// A registered name looks the same (UTS #39 confusables).
    NameConfusable,
    /// No such account, or the wrong password (never told apart).
    BadCredentials,
    /// Too many wrong passwords: retry after the `Retry-After` seconds.
    TooManyAttempts,
    /// Too many accounts created from this address: retry after the `Retry-After` seconds.
    TooManySignups,
    /// No session cookie, or its session ended.
    NotSignedIn,
    /// None of the account's sessions has that id.
    NoSuchSession,
    /// The accounts' store cannot be reached (or a cluster has none).
    AccountsUnavailable,
    /// A personal token sent to an endpoint of the web pages (only the session cookie signs
    /// in there).
    CookieRequired,
    /// A personal token that is malformed, unknown, revoked or expired.
    InvalidToken,
    /// The personal token lacks the scope the endpoint needs.
    MissingScope,
    /// None of the account's tokens has that id.
    NoSuchToken,
    /// An unknown scope, or none.
    InvalidScopes,
    /// An expiry outside 1 to 366 days, a label over 100 characters, or an account that
    /// already holds 50 live tokens.
    InvalidTokenSettings,
    /// A WebSocket upgrade with a session cookie from a page of another origin.
    OriginRefused,
    // passkeys, audit and administration
    /// The right password (or passkey), but an operator disabled the account.
    AccountDisabled,
    /// The server's `--public-origin` is no origin WebAuthn accepts: passwords only.
    PasskeysUnavailable,
    /// A passkey's name: 1 to 64 characters, no control characters.
    InvalidPasskeyName,
    /// The account holds the most passkeys it may (20).
    TooManyPasskeys,
    /// No live ceremony of that id for this client (unknown, used, or older than 5 minutes).
    NoSuchCeremony,
    /// The authenticator's answer did not verify (wrong origin, challenge or signature, or an
    /// unknown passkey).
    PasskeyRejected,
    /// That credential is registered already.
    PasskeyTaken,
    /// None of the account's passkeys has that id.
    NoSuchPasskey,
    /// Too many ceremonies wait at once: retry after `Retry-After` seconds.
    TooManyCeremonies,
}

impl ApiCode {
    pub const ALL: [ApiCode; 29] = [
        ApiCode::BadJson,
        ApiCode::BodyTooLarge,
        ApiCode::NotJson,
        ApiCode::InvalidUsername,
        ApiCode::InvalidPassword,
        ApiCode::NameTaken,
        ApiCode::NameConfusable,
        ApiCode::BadCredentials,
        ApiCode::TooManyAttempts,
        ApiCode::TooManySignups,
        ApiCode::NotSignedIn,
        ApiCode::NoSuchSession,
        ApiCode::AccountsUnavailable,
        ApiCode::CookieRequired,
        ApiCode::InvalidToken,
        ApiCode::MissingScope,
        ApiCode::NoSuchToken,
        ApiCode::InvalidScopes,
        ApiCode::InvalidTokenSettings,
        ApiCode::OriginRefused,
        ApiCode::AccountDisabled,
        ApiCode::PasskeysUnavailable,
        ApiCode::InvalidPasskeyName,
        ApiCode::TooManyPasskeys,
        ApiCode::NoSuchCeremony,
        ApiCode::PasskeyRejected,
        ApiCode::PasskeyTaken,
        ApiCode::NoSuchPasskey,
        ApiCode::TooManyCeremonies,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ApiCode::BadJson => "bad_json",
            ApiCode::BodyTooLarge => "body_too_large",
            ApiCode::NotJson => "not_json",
            ApiCode::InvalidUsername => "invalid_username",
            ApiCode::InvalidPassword => "invalid_password",
            ApiCode::NameTaken => "name_taken",
            ApiCode::NameConfusable => "name_confusable",
            ApiCode::BadCredentials => "bad_credentials",
            ApiCode::TooManyAttempts => "too_many_attempts",
            ApiCode::TooManySignups => "too_many_signups",
            ApiCode::NotSignedIn => "not_signed_in",
            ApiCode::NoSuchSession => "no_such_session",
            ApiCode::AccountsUnavailable => "accounts_unavailable",
            ApiCode::CookieRequired => "cookie_required",
            ApiCode::InvalidToken => "invalid_token",
            ApiCode::MissingScope => "missing_scope",
            ApiCode::NoSuchToken => "no_such_token",
            ApiCode::InvalidScopes => "invalid_scopes",
            ApiCode::InvalidTokenSettings => "invalid_token_settings",
            ApiCode::OriginRefused => "origin_refused",
            ApiCode::AccountDisabled => "account_disabled",
            ApiCode::PasskeysUnavailable => "passkeys_unavailable",
            ApiCode::InvalidPasskeyName => "invalid_passkey_name",
            ApiCode::TooManyPasskeys => "too_many_passkeys",
            ApiCode::NoSuchCeremony => "no_such_ceremony",
            ApiCode::PasskeyRejected => "passkey_rejected",
            ApiCode::PasskeyTaken => "passkey_taken",
            ApiCode::NoSuchPasskey => "no_such_passkey",
            ApiCode::TooManyCeremonies => "too_many_ceremonies",
        }
    }

    pub fn status(self) -> StatusCode {
        match self {
            ApiCode::BadJson
            | ApiCode::BodyTooLarge
            | ApiCode::InvalidUsername
            | ApiCode::InvalidPassword
            | ApiCode::InvalidScopes
            | ApiCode::InvalidTokenSettings => StatusCode::BAD_REQUEST,
            ApiCode::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiCode::NameTaken | ApiCode::NameConfusable => StatusCode::CONFLICT,
            ApiCode::BadCredentials
            | ApiCode::NotSignedIn
            | ApiCode::CookieRequired
            | ApiCode::InvalidToken => StatusCode::UNAUTHORIZED,
            ApiCode::MissingScope | ApiCode::OriginRefused => StatusCode::FORBIDDEN,
            ApiCode::TooManyAttempts | ApiCode::TooManySignups => StatusCode::TOO_MANY_REQUESTS,
            ApiCode::NoSuchSession | ApiCode::NoSuchToken => StatusCode::NOT_FOUND,
            ApiCode::AccountsUnavailable | ApiCode::PasskeysUnavailable => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiCode::AccountDisabled => StatusCode::FORBIDDEN,
            ApiCode::InvalidPasskeyName | ApiCode::NoSuchCeremony | ApiCode::PasskeyRejected => {
                StatusCode::BAD_REQUEST
            }
            ApiCode::TooManyPasskeys | ApiCode::PasskeyTaken => StatusCode::CONFLICT,
            ApiCode::NoSuchPasskey => StatusCode::NOT_FOUND,
            ApiCode::TooManyCeremonies => StatusCode::TOO_MANY_REQUESTS,
        }
    }

    fn message(self) -> &'static str {
        match self {
            ApiCode::BadJson => "the body is not the JSON this endpoint takes",
            ApiCode::BodyTooLarge => "the body is too large",
            ApiCode::NotJson => "send Content-Type: application/json",
            ApiCode::InvalidUsername => "a username is 3 to 24 letters, digits, '_', '-' or '.'",
            ApiCode::InvalidPassword => "a password is 8 to 256 bytes",
            ApiCode::NameTaken => "that name is taken",
            ApiCode::NameConfusable => "that name looks like a taken one",
            ApiCode::BadCredentials => "wrong username or password",
            ApiCode::TooManyAttempts => "too many wrong passwords: wait and retry",
            ApiCode::TooManySignups => "too many new accounts from this address: wait and retry",
            ApiCode::NotSignedIn => "not signed in",
            ApiCode::NoSuchSession => "no such session",
            ApiCode::AccountsUnavailable => "accounts are unavailable",
            ApiCode::CookieRequired => "sign in with a password: a token cannot sign in here",
            ApiCode::InvalidToken => "the token is malformed, unknown, revoked or expired",
            ApiCode::MissingScope => "the token has no scope for this",
            ApiCode::NoSuchToken => "no such token",
            ApiCode::InvalidScopes => {
                "scopes are one or more of play, create_tables, join_tournaments, read_account"
            }
            ApiCode::InvalidTokenSettings => {
                "a token expires in 1 to 366 days, its label is at most 100 characters, and an account holds at most 50"
            }
            ApiCode::OriginRefused => "a page of another site cannot use your session",
            ApiCode::AccountDisabled => "this account is disabled",
            ApiCode::PasskeysUnavailable => "passkeys are unavailable on this server",
            ApiCode::InvalidPasskeyName => "a passkey's name is 1 to 64 characters",
            ApiCode::TooManyPasskeys => "this account holds the most passkeys it may",
            ApiCode::NoSuchCeremony => "no such ceremony (it expired or was used): start again",
            ApiCode::PasskeyRejected => "the passkey was not accepted",
            ApiCode::PasskeyTaken => "that passkey is registered already",
            ApiCode::NoSuchPasskey => "no such passkey",
            ApiCode::TooManyCeremonies => "too many passkey ceremonies at once: wait and retry",
        }
    }
}

/// A refusal as a response: `{"code": ..., "message": ...}` with the code's status.
#[derive(Debug)]
pub struct Refusal {
    pub(super) code: ApiCode,
    pub(super) retry_after: Option<Duration>,
}

impl From<ApiCode> for Refusal {
    fn from(code: ApiCode) -> Self {
        Refusal {
            code,
            retry_after: None,
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = serde_json::json!({"code": self.code, "message": self.code.message()});
        let mut response = (self.code.status(), axum::Json(body)).into_response();
        if let Some(wait) = self.retry_after {
            // Whole seconds, rounded up: a client that waits that long is let in.
            let secs = wait.as_millis().div_ceil(1000).max(1);
            if let Ok(value) = HeaderValue::from_str(&secs.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
        }
        response
    }
}

/// A refused WebSocket upgrade, as a typed JSON answer (docs/ACCOUNTS.md).
pub fn upgrade_refused(refused: super::identity::Refused) -> Response {
    use super::identity::Refused;
    let code = match refused {
        Refused::InvalidToken => ApiCode::InvalidToken,
        Refused::OriginRefused => ApiCode::OriginRefused,
        Refused::Unavailable => ApiCode::AccountsUnavailable,
    };
    Refusal::from(code).into_response()
}

impl From<crate::backplane::PortError> for Refusal {
    fn from(e: crate::backplane::PortError) -> Self {
        tracing::warn!("accounts store: {e}");
        ApiCode::AccountsUnavailable.into()
    }
}

impl From<password::Unavailable> for Refusal {
    fn from(_: password::Unavailable) -> Self {
        ApiCode::AccountsUnavailable.into()
    }
}

/// Failures counted per key; after the free ones, each failure locks the key for a delay that
/// doubles (from `base`, at most [`MAX_DELAY`]).
#[derive(Debug)]
pub struct Backoff {
    base: Duration,
    keys: Mutex<HashMap<String, Strikes>>,
}

#[derive(Debug, Clone, Copy)]
struct Strikes {
    failures: u32,
    locked_until: Instant,
    last: Instant,
}

impl Backoff {
    pub fn new(base: Duration) -> Backoff {
        Backoff {
            base,
            keys: Mutex::default(),
        }
    }

    fn keys(&self) -> std::sync::MutexGuard<'_, HashMap<String, Strikes>> {
        self.keys.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How long `key` stays locked, if it is.
    pub fn locked(&self, key: &str, now: Instant) -> Option<Duration> {
        let keys = self.keys();
        let strikes = keys.get(key)?;
        (strikes.locked_until > now).then(|| strikes.locked_until - now)
    }

    /// Counts a failure; returns the lock it starts, if any.
    pub fn fail(&self, key: &str, free: u32, now: Instant) -> Option<Duration> {
        let mut keys = self.keys();
        if keys.len() >= BACKOFF_KEYS {
            keys.retain(|_, s| now.duration_since(s.last) < IDLE || s.locked_until > now);
            // Still full (a flood of names within the hour): keep only the keys held back now,
            // so the map stays bounded and a held key stays held.
            if keys.len() >= BACKOFF_KEYS {
                keys.retain(|_, s| s.locked_until > now);
            }
        }
        let strikes = keys.entry(key.to_owned()).or_insert(Strikes {
            failures: 0,
            locked_until: now,
            last: now,
        });
        // An hour of quiet forgives: a typo next month does not start where this one ended.
        if now.duration_since(strikes.last) >= IDLE {
            strikes.failures = 0;
        }
        strikes.failures = strikes.failures.saturating_add(1);
        strikes.last = now;
        let over = strikes
            .failures
            .checked_sub(free)
            .filter(|over| *over > 0)?;
        let delay = self
            .base
            .saturating_mul(1u32 << (over - 1).min(20))
            .min(MAX_DELAY);
        strikes.locked_until = now + delay;
        Some(delay)
    }

    pub fn clear(&self, key: &str) {
        self.keys().remove(key);
    }
}

/// What the accounts' routes share: the handles and settings they read (not the server's hub,
/// so this module depends on what it uses), and their own hasher, backoff and passkeys.
#[derive(Debug)]
pub struct Api {
    accounts: Arc<dyn Accounts>,
    pub(super) sign_ins: Arc<LiveSignIns>,
    trust_forwarded_for: bool,
    secure_cookies: bool,
    hasher: Hasher,
    backoff: Backoff,
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
            backoff: Backoff::new(config.login_backoff),
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

    /// Counts a passkey sign-in started from `request`'s address: after
    /// [`FREE_CEREMONIES_PER_ADDRESS`] in an hour each further one waits, as wrong passwords do,
    /// so one address cannot fill the ceremonies' room and lock everybody else out.
    pub(super) fn count_ceremony(&self, request: &Request) -> Result<(), Refusal> {
        let Some(ip) = address(request, self.trust_forwarded_for()) else {
            return Ok(());
        };
        let key = format!("ceremonies:{ip}");
        let now = Instant::now();
        if let Some(wait) = self.backoff.locked(&key, now) {
            return Err(Refusal {
                code: ApiCode::TooManyCeremonies,
                retry_after: Some(wait),
            });
        }
        self.backoff.fail(&key, FREE_CEREMONIES_PER_ADDRESS, now);
        Ok(())
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
    /// the same), under the backoff of the account's key and of the address. Ok(account) on a
    /// match.
    async fn check_password(
        &self,
        account: Option<Account>,
        name_key: &str,
        password: String,
        address: Option<IpAddr>,
    ) -> Result<Account, Refusal> {
        let account_key = format!("account:{name_key}");
        let address_key = address.map(|ip| format!("address:{ip}"));
        let now = Instant::now();
        let locked = [Some(&account_key), address_key.as_ref()]
            .into_iter()
            .flatten()
            .filter_map(|key| self.backoff.locked(key, now))
            .max();
        if let Some(wait) = locked {
            metrics::counter!("burraco_account_signins_total", "result" => "throttled")
                .increment(1);
            return Err(Refusal {
                code: ApiCode::TooManyAttempts,
                retry_after: Some(wait),
            });
        }
        let hash = match &account {
            Some(account) => self.accounts().password_hash(&account.id).await?,
            None => None,
        };
        if self.hasher.verify(password, hash).await?
            && let Some(account) = account
        {
            self.backoff.clear(&account_key);
            metrics::counter!("burraco_account_signins_total", "result" => "ok").increment(1);
            return Ok(account);
        }
        metrics::counter!("burraco_account_signins_total", "result" => "bad_credentials")
            .increment(1);
        let now = Instant::now();
        self.backoff.fail(&account_key, FREE_PER_ACCOUNT, now);
        if let Some(key) = &address_key {
            self.backoff.fail(key, FREE_PER_ADDRESS, now);
        }
        Err(ApiCode::BadCredentials.into())
    }
}

/// Whom the per-address limits count: the peer, or (`--trust-forwarded-for`, behind a proxy
/// that appends it) the last address of `X-Forwarded-For`; an IPv6 address by its /64, the
/// block one subscriber holds (counting each of its addresses apart would count nothing).
pub(crate) fn address(request: &Request, trust_forwarded_for: bool) -> Option<IpAddr> {
    client_ip(request, trust_forwarded_for).map(limit_block)
}

/// The client's whole address, as the audit log records it.
pub(super) fn client_address(request: &Request, trust_forwarded_for: bool) -> Option<String> {
    client_ip(request, trust_forwarded_for).map(|ip| ip.to_canonical().to_string())
}

fn client_ip(request: &Request, trust_forwarded_for: bool) -> Option<IpAddr> {
    // Only the last entry is the proxy's own: any before it came from the client. A last entry
    // that is no address counts the peer instead.
    let forwarded = trust_forwarded_for
        .then(|| {
            request
                .headers()
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .next_back()
                .and_then(|a| a.trim().parse::<IpAddr>().ok())
        })
        .flatten();
    let peer = || {
        request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
    };
    forwarded.or_else(peer)
}

fn limit_block(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut octets = v6.octets();
                octets[8..].fill(0);
                IpAddr::V6(octets.into())
            }
        },
        v4 => v4,
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
    let signups_key =
        address(&request, api.trust_forwarded_for()).map(|ip| format!("signups:{ip}"));
    if let Some(wait) = signups_key
        .as_ref()
        .and_then(|key| api.backoff.locked(key, Instant::now()))
    {
        return Err(Refusal {
            code: ApiCode::TooManySignups,
            retry_after: Some(wait),
        });
    }
    let body: Credentials = json_body(request, MAX_BODY).await?;
    let name = username::normalize(&body.username).map_err(|_| ApiCode::InvalidUsername)?;
    check_password_length(&body.password)?;
    // Refused before hashing: a taken name costs no Argon2 run.
    if api.accounts().by_name(&name).await?.is_some() {
        return Err(ApiCode::NameTaken.into());
    }
    let new = NewAccount {
        id: crate::ids::random_id("u", 8),
        key: username::key(&name),
        skeleton: username::skeleton(&name),
        password_hash: api.hasher.hash(body.password).await?,
        username: name,
        created_ms: crate::ids::unix_ms(),
    };
    let account = api.accounts().create(&new).await.map_err(|e| match e {
        CreateError::NameTaken => ApiCode::NameTaken.into(),
        CreateError::NameConfusable => ApiCode::NameConfusable.into(),
        CreateError::Port(e) => Refusal::from(e),
    })?;
    tracing::info!(account = %account.id, "account created");
    api.audit(Entry::new(&account.id, Kind::SignedUp, client, "password"))
        .await;
    if let Some(key) = &signups_key {
        api.backoff
            .fail(key, FREE_SIGNUPS_PER_ADDRESS, Instant::now());
    }
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
    fn codes_are_distinct_snake_case_strings() {
        let names: std::collections::HashSet<_> = ApiCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(names.len(), ApiCode::ALL.len());
        for code in ApiCode::ALL {
            let json = serde_json::to_string(&code).expect("json");
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }

    #[test]
    fn the_backoff_doubles_after_the_free_failures_and_clears() {
        let backoff = Backoff::new(Duration::from_secs(1));
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(backoff.fail("k", 3, t0), None);
        }
        assert_eq!(backoff.locked("k", t0), None);
        assert_eq!(backoff.fail("k", 3, t0), Some(Duration::from_secs(1)));
        assert_eq!(backoff.locked("k", t0), Some(Duration::from_secs(1)));
        let t1 = t0 + Duration::from_secs(3);
        assert_eq!(backoff.locked("k", t1), None);
        assert_eq!(backoff.fail("k", 3, t1), Some(Duration::from_secs(2)));
        assert_eq!(backoff.fail("k", 3, t1), Some(Duration::from_secs(4)));
        for _ in 0..40 {
            backoff.fail("k", 3, t1);
        }
        assert_eq!(backoff.locked("k", t1), Some(MAX_DELAY));
        // An hour of quiet after the delay forgives the failures.
        let later = t1 + MAX_DELAY + IDLE;
        assert_eq!(backoff.fail("k", 3, later), None);
        assert_eq!(backoff.locked("k", later), None);
        assert_eq!(backoff.locked("other", t1), None);
        backoff.clear("k");
        assert_eq!(backoff.locked("k", t1), None);
    }

    #[test]
    fn addresses_are_counted_by_peer_or_trusted_proxy_and_ipv6_by_its_64() {
        let request = |forwarded: Option<&str>, peer: &str| {
            let mut request = Request::new(axum::body::Body::empty());
            if let Some(f) = forwarded {
                request
                    .headers_mut()
                    .insert("x-forwarded-for", HeaderValue::from_str(f).expect("header"));
            }
            let peer: SocketAddr = peer.parse().expect("peer");
            request.extensions_mut().insert(ConnectInfo(peer));
            request
        };
        let ip = |s: &str| Some(s.parse::<IpAddr>().expect("ip"));
        let proxied = request(Some("203.0.113.9, 198.51.100.7"), "10.0.0.2:5000");
        assert_eq!(
            address(&proxied, false),
            ip("10.0.0.2"),
            "not trusted: the peer"
        );
        assert_eq!(
            address(&proxied, true),
            ip("198.51.100.7"),
            "the proxy's own entry"
        );
        let junk = request(Some("198.51.100.7, not an address"), "10.0.0.2:5000");
        assert_eq!(address(&junk, true), ip("10.0.0.2"));
        let v6 = request(None, "[2001:db8:1:2:3:4:5:6]:443");
        assert_eq!(address(&v6, false), ip("2001:db8:1:2::"));
        let mapped = request(None, "[::ffff:192.0.2.1]:443");
        assert_eq!(address(&mapped, false), ip("192.0.2.1"));
    }

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
