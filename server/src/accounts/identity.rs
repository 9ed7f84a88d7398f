//! Who a WebSocket connection is (protocol 1.4): a guest, or an account signed in by its
//! browser session cookie or by a personal token (`Authorization: Bearer` on the upgrade, or
//! `hello_token`). A cookie is taken only from the server's own pages (the upgrade's `Origin`),
//! so a cross-site page cannot open a socket as a signed-in player.

use std::net::IpAddr;

use axum::http::{HeaderMap, header};
use burraco_protocol::wire::ClientMessage;

use super::tokens::{Scope, Scopes, TokenHolder, well_formed};
use super::{Account, Accounts, token_hash};

/// The session cookie's name.
pub const COOKIE: &str = "burraco_session";

/// A connection's identity, settled at the upgrade or the hello.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Identity {
    /// A name typed into a box; plays as ever, but not under a registered name.
    #[default]
    Guest,
    /// A signed-in account: a player or a bot account.
    Account {
        account: Account,
        bot: bool,
        /// What it signed in with: its end (a sign-out, a revoke, an expiry) ends the
        /// connection (`accounts::live`).
        via: Credential,
    },
}

/// What a connection signed in with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    /// A browser session (its cookie), by the session's public id: it may do everything.
    Session(String),
    /// A personal token, held to its scopes.
    Token(Grant),
}

/// A personal token's id and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub id: String,
    pub scopes: Scopes,
}

impl Identity {
    fn of_holder(holder: TokenHolder) -> Identity {
        Identity::Account {
            account: holder.account,
            bot: holder.bot,
            via: Credential::Token(Grant {
                id: holder.token.id,
                scopes: holder.token.scopes,
            }),
        }
    }

    /// `guest`, `player` or `bot`: the `identity` message's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Identity::Guest => "guest",
            Identity::Account { bot: false, .. } => "player",
            Identity::Account { bot: true, .. } => "bot",
        }
    }

    pub fn account(&self) -> Option<&Account> {
        match self {
            Identity::Guest => None,
            Identity::Account { account, .. } => Some(account),
        }
    }

    /// The token's grant, for a connection opened with one.
    pub fn grant(&self) -> Option<&Grant> {
        match self {
            Identity::Account {
                via: Credential::Token(grant),
                ..
            } => Some(grant),
            _ => None,
        }
    }

    /// The browser session's id, for a connection opened with its cookie.
    pub fn browser_session(&self) -> Option<&str> {
        match self {
            Identity::Account {
                via: Credential::Session(id),
                ..
            } => Some(id),
            _ => None,
        }
    }

    /// Whether the connection may make a request needing `scope`: a token only within its
    /// scopes; a guest or a browser session always.
    pub fn allows(&self, scope: Scope) -> bool {
        self.grant().is_none_or(|g| g.scopes.allows(scope))
    }
}

/// Why an upgrade is refused (answered with the HTTP status and a typed body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// `Authorization: Bearer` without a live, well-formed token: 401.
    InvalidToken,
    /// A session cookie from a page of another origin: 403.
    OriginRefused,
    /// The accounts' store cannot check a token: 503.
    Unavailable,
}

/// The identity of an upgrade request: its bearer token, else its session cookie (from an
/// allowed origin), else a guest. A cookie whose session ended makes a guest (a browser that
/// kept an old cookie still plays); a token that is not live is refused. `allowed_origins`:
/// the pages whose cookie is taken.
pub async fn at_upgrade(
    accounts: &dyn Accounts,
    allowed_origins: &[String],
    headers: &HeaderMap,
    address: Option<IpAddr>,
) -> Result<Identity, Refused> {
    if let Some(token) = bearer(headers) {
        return by_token(accounts, token, address).await;
    }
    let Some(cookie) = cookie_token(headers) else {
        return Ok(Identity::Guest);
    };
    if !origin_allowed(headers, allowed_origins) {
        return Err(Refused::OriginRefused);
    }
    match accounts
        .session(&token_hash(&cookie), crate::ids::unix_ms())
        .await
    {
        Ok(Some((account, session))) => {
            let bot = accounts.is_bot(&account.id).await.ok().flatten() == Some(true);
            Ok(Identity::Account {
                account,
                bot,
                via: Credential::Session(session.id),
            })
        }
        Ok(None) => Ok(Identity::Guest),
        Err(e) => {
            // No accounts (a cluster without a database) or none reachable: guests still play.
            tracing::debug!("session cookie not checked: {e}");
            Ok(Identity::Guest)
        }
    }
}

/// The token of an `Authorization: Bearer` header. Any other scheme (a proxy's Basic
/// authentication passed through) is not ours and is ignored.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The identity of a personal token (the upgrade's bearer or a `hello_token`): refused unless
/// well formed (prefix and checksum: no query for a typo) and live. Its use is recorded.
pub async fn by_token(
    accounts: &dyn Accounts,
    token: &str,
    address: Option<IpAddr>,
) -> Result<Identity, Refused> {
    if !well_formed(token) {
        return Err(Refused::InvalidToken);
    }
    let now = crate::ids::unix_ms();
    let holder = match accounts.token(&token_hash(token), now).await {
        Ok(Some(holder)) => holder,
        Ok(None) => return Err(Refused::InvalidToken),
        Err(e) => {
            tracing::warn!("token not checked: {e}");
            return Err(Refused::Unavailable);
        }
    };
    let address = address.map(|a| a.to_string()).unwrap_or_default();
    if let Err(e) = accounts.token_used(&holder.token.id, now, &address).await {
        tracing::warn!("token use not recorded: {e}");
    }
    tracing::info!(account = %holder.account.id, token = %holder.token.id, "token used");
    Ok(Identity::of_holder(holder))
}

/// Whether the upgrade's `Origin` may use a cookie: absent (not a browser: browsers always
/// send it on a WebSocket upgrade), the server's own (`scheme://` + the request's `Host`), or
/// one of `--allowed-origin`.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim().trim_end_matches('/');
    let own = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|host| {
            let host = host.trim();
            ["http://", "https://"].iter().any(|scheme| {
                origin
                    .strip_prefix(scheme)
                    .is_some_and(|rest| rest.eq_ignore_ascii_case(host))
            })
        });
    own || allowed
        .iter()
        .any(|a| a.trim().trim_end_matches('/').eq_ignore_ascii_case(origin))
}

/// The scope a request needs from a personal token; `None`: anyone may ask (listing tables,
/// watching, ping).
pub fn required_scope(request: &ClientMessage) -> Option<Scope> {
    use ClientMessage::*;
    match request {
        Hello { .. } | HelloToken { .. } | ListTables { .. } | Spectate { .. } | Ping { .. } => {
            None
        }
        WatchTournament { .. } | ListLobby { .. } | TableLevels { .. } | SeatIdentities { .. } => {
            None
        }
        CreateTable { .. } | AddBots { .. } | CreateRatedTable { .. } => Some(Scope::CreateTables),
        Join { .. }
        | QuickPlay { .. }
        | QuickPlayRated { .. }
        | Leave { .. }
        | Ready { .. }
        | Draw { .. }
        | PickUp { .. }
        | Open { .. }
        | Attach { .. }
        | Discard { .. }
        | Sync { .. }
        | Chat { .. }
        | Report { .. }
        | ArenaReady { .. }
        | ArenaChallenge { .. } => Some(Scope::Play),
        CreateTournament { .. }
        | RegisterTournament { .. }
        | UnregisterTournament { .. }
        | StartRound { .. }
        | AdjustScore { .. }
        | WithdrawEntrant { .. }
        | EndTournament { .. }
        | ConfigureRegistration { .. }
        | RegisterInvited { .. }
        | CheckInTournament { .. }
        | PauseTournament { .. }
        | ResumeTournament { .. }
        | WarnEntrant { .. }
        | DisqualifyEntrant { .. }
        | ForbidPairing { .. }
        | SeatEntrants { .. }
        | SetRoundTime { .. }
        | ExcuseEntrant { .. }
        | SetLineup { .. }
        | CreateRatedTournament { .. } => Some(Scope::JoinTournaments),
        // 1.7: a tournament's chat is said as its entrant or director; its lines, anyone reads.
        TournamentChat { .. } => Some(Scope::JoinTournaments),
        TournamentChatHistory { .. } => None,
        // 1.8: a report of a tournament's chat line, as the line itself was said.
        TournamentReport { .. } => Some(Scope::JoinTournaments),
    }
}

/// The token of the request's session cookie, when it has the form of one (64 hex digits).
pub(crate) fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim())
        .filter(|value| value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_ascii_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(name.clone(), HeaderValue::from_str(value).expect("header"));
        }
        map
    }

    #[test]
    fn a_cookie_is_taken_from_the_servers_own_origin_or_an_allowed_one() {
        let own = headers(&[
            (header::HOST, "play.example:8080"),
            (header::ORIGIN, "https://play.example:8080"),
        ]);
        assert!(origin_allowed(&own, &[]));
        let none = headers(&[(header::HOST, "play.example")]);
        assert!(origin_allowed(&none, &[]), "no Origin: not a browser");
        let evil = headers(&[
            (header::HOST, "play.example"),
            (header::ORIGIN, "https://evil.example"),
        ]);
        assert!(!origin_allowed(&evil, &[]));
        assert!(origin_allowed(&evil, &["https://evil.example/".into()]));
        let null = headers(&[(header::HOST, "play.example"), (header::ORIGIN, "null")]);
        assert!(!origin_allowed(&null, &[]));
        let prefix = headers(&[
            (header::HOST, "play.example"),
            (header::ORIGIN, "https://play.example.evil.example"),
        ]);
        assert!(!origin_allowed(&prefix, &[]));
    }

    #[test]
    fn a_token_allows_only_its_scopes_and_a_session_everything() {
        let account = Account {
            id: "u-1".into(),
            username: "robo".into(),
            created_ms: 0,
        };
        let token = Identity::Account {
            account: account.clone(),
            bot: true,
            via: Credential::Token(Grant {
                id: "tk-1".into(),
                scopes: Scopes::new(vec![Scope::Play]),
            }),
        };
        assert!(token.allows(Scope::Play));
        assert!(!token.allows(Scope::CreateTables));
        assert_eq!(token.kind(), "bot");
        let session = Identity::Account {
            account,
            bot: false,
            via: Credential::Session("0123456789abcdef".into()),
        };
        assert!(session.allows(Scope::CreateTables));
        assert_eq!(session.kind(), "player");
        assert!(Identity::Guest.allows(Scope::JoinTournaments));
        assert_eq!(Identity::Guest.kind(), "guest");
    }
}
