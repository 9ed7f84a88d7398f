//! The moderation's HTTP API (docs/ACCOUNTS.md, "Reports and moderation"): a signed-in player
//! reports (`POST /api/reports`); moderators read the open reports with their context and act
//! (`/api/moderation/...`). Browser sessions only (the cookie), as the account's pages; every
//! refusal is a typed [`Code`].

use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

use super::Moderation;
use super::{
    ActError, Action, ActionKind, FileError, MAX_SANCTION_MINUTES, NewReport, Reason, Report,
    ReportKind, Standing,
};
use crate::accounts::{Account, identity, token_hash};
use crate::api_edge::Path;
use crate::backplane::Backplane;
use crate::directory::Directory;

/// What the routes read: the moderation's store and memory, the accounts (on the backplane),
/// and a reported table (here or on another node). Their own state rather than the server's,
/// so this module depends on what it uses.
#[derive(Debug, Clone)]
pub struct Api {
    pub moderation: Arc<Moderation>,
    pub directory: Arc<Directory>,
    pub backplane: Backplane,
}

/// The largest body read: a report's note (500 characters) fits with room.
const MAX_BODY: usize = 4 * 1024;
/// The longest reason of a moderator's action, in characters (a report's note: `MAX_NOTE`).
const MAX_TEXT: usize = 500;
/// Open reports one queue answer lists.
const QUEUE_LIMIT: u32 = 200;

/// Every refusal of the moderation's API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    BadJson,
    BodyTooLarge,
    NotJson,
    NotSignedIn,
    /// A personal token: moderation is for people, in the browser.
    CookieRequired,
    /// The account is neither a moderator nor an administrator.
    NotModerator,
    /// No account of that name (or the report's subject is a guest, who has none).
    UnknownAccount,
    /// No open report of that id.
    UnknownReport,
    /// No table of that id.
    UnknownTable,
    /// No chat line of that number among the table's recent lines on this node.
    UnknownLine,
    /// Nobody of that name sits at the table (or, without a table, no account of that name).
    UnknownPlayer,
    /// A report's fields do not fit together (a chat report without `seq`, one's own line...).
    InvalidReport,
    /// An action's fields do not fit together (no reason, a mute without minutes...).
    InvalidAction,
    /// The account filed its reports for the hour.
    TooManyReports,
    AccountsUnavailable,
}

impl Code {
    pub const ALL: [Code; 15] = [
        Code::BadJson,
        Code::BodyTooLarge,
        Code::NotJson,
        Code::NotSignedIn,
        Code::CookieRequired,
        Code::NotModerator,
        Code::UnknownAccount,
        Code::UnknownReport,
        Code::UnknownTable,
        Code::UnknownLine,
        Code::UnknownPlayer,
        Code::InvalidReport,
        Code::InvalidAction,
        Code::TooManyReports,
        Code::AccountsUnavailable,
    ];

    pub fn status(self) -> StatusCode {
        match self {
            Code::BadJson | Code::BodyTooLarge | Code::InvalidReport | Code::InvalidAction => {
                StatusCode::BAD_REQUEST
            }
            Code::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Code::NotSignedIn | Code::CookieRequired => StatusCode::UNAUTHORIZED,
            Code::NotModerator => StatusCode::FORBIDDEN,
            Code::UnknownAccount
            | Code::UnknownReport
            | Code::UnknownTable
            | Code::UnknownLine
            | Code::UnknownPlayer => StatusCode::NOT_FOUND,
            Code::TooManyReports => StatusCode::TOO_MANY_REQUESTS,
            Code::AccountsUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn message(self) -> &'static str {
        match self {
            Code::BadJson => "the body is not the JSON this endpoint takes",
            Code::BodyTooLarge => "the body is too large",
            Code::NotJson => "send Content-Type: application/json",
            Code::NotSignedIn => "not signed in",
            Code::CookieRequired => "sign in in the browser: a token cannot do this",
            Code::NotModerator => "moderators only",
            Code::UnknownAccount => "no such account",
            Code::UnknownReport => "no such open report",
            Code::UnknownTable => "no such table",
            Code::UnknownLine => "no such recent chat line at that table",
            Code::UnknownPlayer => "nobody of that name there",
            Code::InvalidReport => {
                "a report names a player, or a chat line by its seq, and a reason"
            }
            Code::InvalidAction => {
                "an action needs a reason (1 to 500 characters), an account or a report, and minutes (1 to 43200) for a mute or a time-out"
            }
            Code::TooManyReports => "too many reports: wait and retry",
            Code::AccountsUnavailable => "accounts are unavailable",
        }
    }
}

/// The one route with a path, an account's name: a path that does not read names none.
impl From<crate::api_edge::Malformed> for Code {
    fn from(_: crate::api_edge::Malformed) -> Code {
        Code::UnknownAccount
    }
}

impl IntoResponse for Code {
    fn into_response(self) -> Response {
        let body = serde_json::json!({"code": self, "message": self.message()});
        let mut response = (self.status(), axum::Json(body)).into_response();
        if self == Code::TooManyReports {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("600"));
        }
        response
    }
}

impl From<crate::port::PortError> for Code {
    fn from(e: crate::port::PortError) -> Self {
        tracing::warn!("moderation store: {e}");
        Code::AccountsUnavailable
    }
}

/// The moderation's routes, merged into the server's router.
pub fn routes(api: Api) -> Router {
    Router::new()
        .route("/api/reports", post(report))
        .route("/api/moderation/me", get(me))
        .route("/api/moderation/reports", get(queue))
        .route("/api/moderation/actions", post(act))
        .route("/api/moderation/accounts/{name}", get(account))
        .with_state(api)
}

/// The account of the request's browser session.
async fn signed_in(api: &Api, headers: &HeaderMap) -> Result<Account, Code> {
    if identity::bearer(headers).is_some() {
        return Err(Code::CookieRequired);
    }
    let token = identity::cookie_token(headers).ok_or(Code::NotSignedIn)?;
    api.backplane
        .accounts
        .session(&token_hash(&token), crate::ids::unix_ms())
        .await?
        .map(|(account, _)| account)
        .ok_or(Code::NotSignedIn)
}

/// The signed-in moderator (or administrator) of the request.
async fn moderator(api: &Api, headers: &HeaderMap) -> Result<Account, Code> {
    let account = signed_in(api, headers).await?;
    let standing = api.moderation.store.standing(&account.id).await?;
    if standing.is_some_and(|s| s.moderator) {
        Ok(account)
    } else {
        Err(Code::NotModerator)
    }
}

async fn json_body<T: serde::de::DeserializeOwned>(request: Request) -> Result<T, Code> {
    let is_json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return Err(Code::NotJson);
    }
    let bytes = axum::body::to_bytes(request.into_body(), MAX_BODY)
        .await
        .map_err(|_| Code::BodyTooLarge)?;
    serde_json::from_slice(&bytes).map_err(|_| Code::BadJson)
}

/// A text a person wrote, trimmed, at most [`MAX_TEXT`] characters, none of them a control.
fn text(raw: &str) -> Option<String> {
    let trimmed = raw.trim();
    (trimmed.chars().count() <= MAX_TEXT && !trimmed.chars().any(char::is_control))
        .then(|| trimmed.to_owned())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportBody {
    /// `player` or `chat`.
    kind: String,
    table: Option<String>,
    /// A player report: the name as the table shows it.
    player: Option<String>,
    /// A chat report: the line's `seq`.
    seq: Option<u64>,
    reason: String,
    #[serde(default)]
    note: String,
}

/// `POST /api/reports`: a player or a chat line reported, with its context read here.
async fn report(State(api): State<Api>, request: Request) -> Response {
    match file_report(&api, request).await {
        Ok(id) => (
            StatusCode::CREATED,
            axum::Json(serde_json::json!({"id": id})),
        )
            .into_response(),
        Err(code) => code.into_response(),
    }
}

async fn file_report(api: &Api, request: Request) -> Result<String, Code> {
    let reporter = signed_in(api, request.headers()).await?;
    let body: ReportBody = json_body(request).await?;
    let kind = match ReportKind::parse(&body.kind) {
        Some(kind @ (ReportKind::Player | ReportKind::Chat)) => kind,
        _ => return Err(Code::InvalidReport),
    };
    let reason = Reason::parse(&body.reason).ok_or(Code::InvalidReport)?;
    let note = super::report_note(Some(&body.note)).ok_or(Code::InvalidReport)?;
    let handle = match &body.table {
        Some(table) => Some(
            crate::lobby::find_in(&api.directory, &api.backplane, table)
                .await
                .ok_or(Code::UnknownTable)?,
        ),
        None => None,
    };
    let mut context = match (&body.table, &handle) {
        (Some(table), Some(handle)) => super::signals::context_of(table, &handle.info()),
        _ => super::Context::default(),
    };
    let (subject, subject_name) = match kind {
        ReportKind::Chat => {
            let (Some(table), Some(seq)) = (&body.table, body.seq) else {
                return Err(Code::InvalidReport);
            };
            let (line, around) = api
                .moderation
                .chat
                .around(table, seq)
                .ok_or(Code::UnknownLine)?;
            context.chat_here = true;
            context.chat = around;
            context.line = Some(line.clone());
            if line.account.is_none() {
                context.guest = line.player.clone();
            }
            (line.account, line.name)
        }
        _ => {
            let name = body.player.as_deref().ok_or(Code::InvalidReport)?;
            let seated = context
                .seats
                .iter()
                .any(|s| s.name.as_deref() == Some(name));
            if handle.is_some() && !seated {
                return Err(Code::UnknownPlayer);
            }
            if let Some(table) = &body.table {
                context.chat = api.moderation.chat.latest(table);
                context.chat_here = !context.chat.is_empty();
            }
            // A guest cannot hold a registered name (nor one like it): a name that is an
            // account's is that account.
            let account = api.backplane.accounts.by_name(name).await?;
            match (account, &body.table, &handle) {
                (Some(account), _, _) => (Some(account.id), account.username),
                (None, Some(table), Some(handle)) => {
                    // A guest: its player id, what a moderator's mute of it names (as the
                    // protocol's `report` keeps it).
                    context.guest = guest_seated(api, table, &handle.info(), name).await;
                    (None, name.to_owned())
                }
                _ => return Err(Code::UnknownPlayer),
            }
        }
    };
    if subject.as_deref() == Some(reporter.id.as_str()) {
        return Err(Code::InvalidReport);
    }
    let report = NewReport::by_account(
        &reporter.id,
        kind,
        (subject, subject_name),
        body.table,
        (reason, note),
        context,
    );
    match api.moderation.file_by_account(&report).await {
        Ok(()) => Ok(report.id),
        Err(FileError::TooMany) => Err(Code::TooManyReports),
        Err(FileError::Port(e)) => Err(e.into()),
    }
}

/// The player id (`p-...`) of the guest seated at `table` under `name`: the seat by its name in
/// the table's summary, a guest's by its identity, and its holder in the directory (a table of
/// this node) or in the table's listing (another node's: the seats' player ids its node
/// publishes). `None` when no guest of that name sits there.
async fn guest_seated(
    api: &Api,
    table: &str,
    info: &crate::table::TableInfo,
    name: &str,
) -> Option<String> {
    let seat = info
        .summary
        .seats
        .iter()
        .find(|s| s.name.as_deref() == Some(name))?
        .seat;
    let guest = info
        .identities
        .iter()
        .any(|i| i.seat == seat && i.kind == "guest");
    if !guest {
        return None;
    }
    if let Some(player) = api.directory.holder(table, seat.0) {
        return Some(player);
    }
    let index = seat.0.index() as u8;
    let listing = api.backplane.listings.listing(table).await?;
    listing
        .players
        .into_iter()
        .find_map(|(player, at)| (at == index).then_some(player))
}

/// What `/api/moderation/me` says: one's role, and the sanctions in force now.
#[derive(Serialize)]
struct MeView {
    moderator: bool,
    muted_until_ms: Option<i64>,
    timed_out_until_ms: Option<i64>,
    warnings: u32,
}

async fn me(State(api): State<Api>, headers: HeaderMap) -> Response {
    let answer = async {
        let account = signed_in(&api, &headers).await?;
        let standing = api
            .moderation
            .store
            .standing(&account.id)
            .await?
            .unwrap_or_default();
        let now = crate::ids::unix_ms();
        Ok::<_, Code>(MeView {
            moderator: standing.moderator,
            muted_until_ms: standing.muted_at(now),
            timed_out_until_ms: standing.timed_out_at(now),
            warnings: standing.warnings,
        })
    };
    match answer.await {
        Ok(view) => no_store(axum::Json(view)),
        Err(code) => code.into_response(),
    }
}

fn no_store(body: impl IntoResponse) -> Response {
    let mut response = body.into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

#[derive(Serialize)]
struct Queue {
    reports: Vec<Report>,
}

/// `GET /api/moderation/reports`: the open reports, oldest first.
async fn queue(State(api): State<Api>, headers: HeaderMap) -> Response {
    let answer = async {
        moderator(&api, &headers).await?;
        Ok::<_, Code>(api.moderation.store.open_reports(QUEUE_LIMIT).await?)
    };
    match answer.await {
        Ok(reports) => no_store(axum::Json(Queue { reports })),
        Err(code) => code.into_response(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionBody {
    action: String,
    /// The report the action answers (closed by it).
    report: Option<String>,
    /// The account acted on, by name; the report's subject when left out.
    account: Option<String>,
    /// A guest acted on, by its player id (a report's `context.guest`, a chat line's
    /// `player`); a report about a guest names it when left out.
    guest: Option<String>,
    reason: String,
    /// A mute's or a time-out's length.
    minutes: Option<u32>,
}

/// `POST /api/moderation/actions`: a moderator's action, stored, applied and in the audit log.
async fn act(State(api): State<Api>, request: Request) -> Response {
    match take_action(&api, request).await {
        Ok(action) => no_store(axum::Json(serde_json::json!({ "action": action }))),
        Err(code) => code.into_response(),
    }
}

async fn take_action(api: &Api, request: Request) -> Result<Action, Code> {
    let moderator = moderator(api, request.headers()).await?;
    let body: ActionBody = json_body(request).await?;
    let kind = ActionKind::parse(&body.action).ok_or(Code::InvalidAction)?;
    let reason = text(&body.reason)
        .filter(|r| !r.is_empty())
        .ok_or(Code::InvalidAction)?;
    let now = crate::ids::unix_ms();
    let until_ms = match (kind.needs_duration(), body.minutes) {
        (true, Some(minutes @ 1..=MAX_SANCTION_MINUTES)) => Some(now + i64::from(minutes) * 60_000),
        (false, None) => None,
        _ => return Err(Code::InvalidAction),
    };
    let report = match &body.report {
        Some(id) => Some(
            api.moderation
                .store
                .report(id)
                .await?
                .filter(|r| r.closed_by.is_none())
                .ok_or(Code::UnknownReport)?,
        ),
        None if kind == ActionKind::Dismiss => return Err(Code::InvalidAction),
        None => None,
    };
    let accounts = &api.backplane.accounts;
    let account = match (&body.account, &body.guest, &report) {
        (Some(_), Some(_), _) => return Err(Code::InvalidAction),
        (Some(name), None, _) => Some(accounts.by_name(name).await?.ok_or(Code::UnknownAccount)?),
        (None, Some(_), _) => None,
        (None, None, Some(report)) => match &report.subject {
            Some(id) => Some(accounts.by_id(id).await?.ok_or(Code::UnknownAccount)?),
            None => None,
        },
        (None, None, None) => return Err(Code::InvalidAction),
    };
    // A guest: named, or the guest a report is about (its player id, kept by the node that
    // took the report).
    let guest = match (&account, &body.guest, &report) {
        (Some(_), _, _) => None,
        (None, Some(guest), _) => Some(guest_id(guest).ok_or(Code::InvalidAction)?),
        (None, None, Some(report)) => report.context.guest.clone(),
        (None, None, None) => None,
    };
    match (&account, &guest) {
        (Some(_), _) => {}
        // A guest has no account to time out or disable: a mute (or warning) is its sanction.
        (None, Some(_))
            if matches!(
                kind,
                ActionKind::Mute | ActionKind::Unmute | ActionKind::Warn | ActionKind::Dismiss
            ) => {}
        (None, Some(_)) => return Err(Code::InvalidAction),
        // A report about a guest the node did not know: nobody to act on but the report.
        (None, None) if kind == ActionKind::Dismiss => {}
        (None, None) => return Err(Code::UnknownAccount),
    }
    let action = Action {
        id: crate::ids::random_id("m", 8),
        kind,
        moderator: Some(moderator.id.clone()),
        account: account.as_ref().map(|a| a.id.clone()),
        guest,
        reason,
        until_ms,
        report: report.map(|r| r.id),
        at_ms: now,
    };
    match api.moderation.store.act(&action).await {
        Ok(()) => {}
        Err(ActError::UnknownAccount) => return Err(Code::UnknownAccount),
        Err(ActError::UnknownReport) => return Err(Code::UnknownReport),
        Err(ActError::Port(e)) => return Err(e.into()),
    }
    if let Some(account) = &account {
        apply_live(api, account, kind).await;
        let entry = crate::accounts::audit::Entry {
            id: crate::ids::random_id("a", 8),
            account: account.id.clone(),
            at_ms: now,
            kind: kind.audit_kind().to_owned(),
            address: None,
            detail: action.reason.chars().take(100).collect(),
        };
        if let Err(e) = accounts.record(&entry).await {
            tracing::warn!(account = %account.id, "audit log: {e}");
        }
    }
    tracing::info!(
        moderator = %moderator.id,
        action = kind.as_str(),
        account = action.account.as_deref().unwrap_or("-"),
        guest = action.guest.as_deref().unwrap_or("-"),
        "moderation"
    );
    Ok(action)
}

/// What an action changes at once beyond the store: a disabled account's sessions end, and its
/// connections here close (other nodes close theirs at their next recheck).
async fn apply_live(api: &Api, account: &Account, kind: ActionKind) {
    if kind == ActionKind::Disable
        && let Err(e) = api.backplane.accounts.revoke_all(&account.id, None).await
    {
        tracing::warn!(account = %account.id, "sessions not ended: {e}");
    }
    if matches!(kind, ActionKind::Disable | ActionKind::Timeout) {
        api.moderation.connections.close(&account.id);
    }
}

/// A guest's player id as a report shows it (`p-` and hex digits), or `None`.
fn guest_id(text: &str) -> Option<String> {
    let hex = text.strip_prefix("p-")?;
    (!hex.is_empty() && hex.len() <= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| text.to_owned())
}

#[derive(Serialize)]
struct AccountView {
    id: String,
    username: String,
    standing: Standing,
    actions: Vec<Action>,
}

/// `GET /api/moderation/accounts/{name}`: an account's standing and its latest actions.
async fn account(
    State(api): State<Api>,
    Path(name, _): Path<String, Code>,
    headers: HeaderMap,
) -> Response {
    let answer = async {
        moderator(&api, &headers).await?;
        let account = api
            .backplane
            .accounts
            .by_name(&name)
            .await?
            .ok_or(Code::UnknownAccount)?;
        let store = &api.moderation.store;
        let standing = store
            .standing(&account.id)
            .await?
            .ok_or(Code::UnknownAccount)?;
        let actions = store.actions(&account.id, 50).await?;
        Ok::<_, Code>(AccountView {
            id: account.id,
            username: account.username,
            standing,
            actions,
        })
    };
    match answer.await {
        Ok(view) => no_store(axum::Json(view)),
        Err(code) => code.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_snake_case_names() {
        let names: std::collections::HashSet<String> = Code::ALL
            .iter()
            .map(|c| serde_json::to_string(c).expect("json"))
            .collect();
        assert_eq!(names.len(), Code::ALL.len());
        assert!(names.contains("\"too_many_reports\""));
        assert_eq!(Code::NotModerator.status(), StatusCode::FORBIDDEN);
    }
}
