//! Every refusal of the accounts' API ([`ApiCode`], each with its HTTP status and an English
//! message) and the response it makes ([`Refusal`]: `{"code", "message"}`, and `Retry-After`
//! when a limit holds the client back). Clients branch on the code, never on the message.

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::password;

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
    // issue 32
    /// The name is kept for the server's own (staff, its bots): `admin`, `Bot (expert)`...
    NameReserved,
    /// The account has a rating: it played rated games as a person, so it cannot become a
    /// bot account.
    HasRatedGames,
}

impl ApiCode {
    pub const ALL: [ApiCode; 31] = [
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
        ApiCode::NameReserved,
        ApiCode::HasRatedGames,
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
            ApiCode::NameReserved => "name_reserved",
            ApiCode::HasRatedGames => "has_rated_games",
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
            ApiCode::NameReserved | ApiCode::HasRatedGames => StatusCode::CONFLICT,
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
            ApiCode::NameReserved => "that name is kept for the server's own",
            ApiCode::HasRatedGames => "an account with rated games cannot become a bot account",
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

impl From<crate::port::PortError> for Refusal {
    fn from(e: crate::port::PortError) -> Self {
        tracing::warn!("accounts store: {e}");
        ApiCode::AccountsUnavailable.into()
    }
}

impl From<password::Unavailable> for Refusal {
    fn from(_: password::Unavailable) -> Self {
        ApiCode::AccountsUnavailable.into()
    }
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
}
