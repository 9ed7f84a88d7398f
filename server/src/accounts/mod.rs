//! Player accounts (issue 20, first slice): usernames, password hashes and browser sessions
//! behind one port, [`Accounts`], with two implementations that pass one conformance suite
//! (`server/tests/accounts`):
//!
//! - [`sqlite`]: the embedded store's file (one node, the default, nothing to install);
//! - [`postgres`]: PostgreSQL (`--database-url`), which every node of a cluster shares.
//!
//! What the port stores is never a secret: a password arrives as its Argon2id hash
//! ([`password`]) and a session token as its SHA-256 ([`token_hash`]). The HTTP API is in
//! [`http`]. Guests (a name and play) do not touch any of this.

pub mod address;
pub mod audit;
pub mod ceremonies;
pub mod codes;
pub mod http;
pub mod identity;
pub mod limits;
pub mod live;
pub mod origin;
pub mod passkeys;
pub mod password;
pub mod postgres;
mod rekey;
pub mod routes;
pub mod sqlite;
pub mod tokens;
pub mod tokens_http;
mod unconfigured;
pub mod username;

pub use unconfigured::Unconfigured;

use crate::port::{PortError, PortFuture};
use tokens::{NewToken, TokenHolder, TokenInfo};

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// `u-` and 16 hex digits, never reused.
    pub id: String,
    /// The name as chosen (NFKC-normalised), shown to everyone.
    pub username: String,
    pub created_ms: i64,
}

/// An account to create: the caller has normalised the name and hashed the password.
#[derive(Debug, Clone)]
pub struct NewAccount {
    pub id: String,
    pub username: String,
    /// [`username::key`]: unique.
    pub key: String,
    /// [`username::skeleton`]: unique too, so a look-alike of a taken name is refused.
    pub skeleton: String,
    /// A PHC string (Argon2id).
    pub password_hash: String,
    pub created_ms: i64,
}

/// A browser session, as its owner sees it in the list (the token itself is never stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    /// A public id (16 hex digits) to name the session in the list and revoke it.
    pub id: String,
    pub account: String,
    pub created_ms: i64,
    pub expires_ms: i64,
    /// What the browser said it was at sign-in (cut to 200 characters).
    pub user_agent: String,
}

/// A session to store: [`SessionInfo`] and the SHA-256 of its token.
#[derive(Debug, Clone)]
pub struct NewSession {
    pub info: SessionInfo,
    /// [`token_hash`] of the cookie's token.
    pub token_hash: String,
}

/// A passkey as stored: who owns it and the credential `webauthn-rs` verifies against (its
/// public key and signature counter, as JSON), never a secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPasskey {
    /// A public id (`pk-` and 16 hex digits) to name it in the list and remove it.
    pub id: String,
    pub account: String,
    /// The WebAuthn credential id, base64url: unique across accounts.
    pub credential_id: String,
    /// What its owner called it ("laptop"), at most 64 characters.
    pub name: String,
    /// `webauthn_rs::prelude::Passkey` as JSON.
    pub credential: String,
    pub created_ms: i64,
    pub last_used_ms: Option<i64>,
}

/// What an operator set on an account (`burraco-server admin ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AccountStatus {
    /// Cannot sign in; has no sessions.
    pub disabled: bool,
    pub admin: bool,
}

/// What [`Accounts::make_bot`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MadeBot {
    /// The account is a bot account (now, or already).
    Made,
    NoSuchAccount,
    /// The account has a rating (it played rated games as a person): it stays a player.
    HasRatedGames,
}

/// Why an account was not created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// The same name after NFKC and case folding is taken.
    #[error("the name is taken")]
    NameTaken,
    /// A taken name looks the same (same UTS #39 skeleton).
    #[error("the name looks like a taken one")]
    NameConfusable,
    #[error(transparent)]
    Port(#[from] PortError),
}

/// The accounts' storage. Every method answers from the shared state at once (no cache), so a
/// session revoked through one node is refused by every node on its next request. The limits'
/// counts ([`limits::Limits`]) are kept beside them, for the same reason.
pub trait Accounts: limits::Limits + Send + Sync + std::fmt::Debug {
    fn create<'a>(
        &'a self,
        account: &'a NewAccount,
    ) -> PortFuture<'a, Result<Account, CreateError>>;
    fn by_id<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<Account>, PortError>>;
    /// The account whose name has the same [`username::key`] as `name`.
    fn by_name<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<Option<Account>, PortError>>;
    /// The account's password hash (PHC string).
    fn password_hash<'a>(
        &'a self,
        id: &'a str,
    ) -> PortFuture<'a, Result<Option<String>, PortError>>;
    /// Replaces the password hash; false for an unknown account.
    fn set_password_hash<'a>(
        &'a self,
        id: &'a str,
        hash: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>>;
    /// Stores a new session, and forgets the account's sessions expired by its `created_ms`.
    fn open_session<'a>(&'a self, session: &'a NewSession)
    -> PortFuture<'a, Result<(), PortError>>;
    /// The live session whose token hashes to `token_hash` and its account; `None` when unknown,
    /// revoked or expired at `now_ms`.
    fn session<'a>(
        &'a self,
        token_hash: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Option<(Account, SessionInfo)>, PortError>>;
    /// An account's live sessions at `now_ms`, oldest first.
    fn sessions<'a>(
        &'a self,
        account: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<SessionInfo>, PortError>>;
    /// Revokes one of `account`'s sessions; false when it has none of that id.
    fn revoke<'a>(
        &'a self,
        account: &'a str,
        session: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>>;
    /// Revokes every session of `account` but `except`; returns how many.
    fn revoke_all<'a>(
        &'a self,
        account: &'a str,
        except: Option<&'a str>,
    ) -> PortFuture<'a, Result<u64, PortError>>;

    // passkeys, audit and administration

    /// Stores a passkey; false when its credential id is registered already (to any account).
    fn add_passkey<'a>(
        &'a self,
        passkey: &'a StoredPasskey,
    ) -> PortFuture<'a, Result<bool, PortError>>;
    /// An account's passkeys, oldest first.
    fn passkeys<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<StoredPasskey>, PortError>>;
    /// The passkey of a WebAuthn credential id (base64url), whoever owns it.
    fn passkey_by_credential<'a>(
        &'a self,
        credential_id: &'a str,
    ) -> PortFuture<'a, Result<Option<StoredPasskey>, PortError>>;
    /// After a sign-in with it: the credential's new state (its counter) and when.
    fn touch_passkey<'a>(
        &'a self,
        id: &'a str,
        credential: &'a str,
        used_ms: i64,
    ) -> PortFuture<'a, Result<(), PortError>>;
    /// Removes one of `account`'s passkeys; false when it has none of that id.
    fn remove_passkey<'a>(
        &'a self,
        account: &'a str,
        id: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>>;
    /// Appends to the audit log, and forgets the account's entries older than
    /// [`audit::RETENTION`].
    fn record<'a>(&'a self, entry: &'a audit::Entry) -> PortFuture<'a, Result<(), PortError>>;
    /// An account's audit entries, newest first, at most `limit`.
    fn audit<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<audit::Entry>, PortError>>;
    /// The account's status; `None` for an unknown account.
    fn status<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Option<AccountStatus>, PortError>>;
    /// Sets the account's status; false for an unknown account. Disabling does not end the
    /// sessions by itself ([`Accounts::revoke_all`] does), but [`Accounts::session`] finds no
    /// session of a disabled account.
    fn set_status<'a>(
        &'a self,
        account: &'a str,
        status: AccountStatus,
    ) -> PortFuture<'a, Result<bool, PortError>>;

    // tokens and bot accounts
    /// Whether the account is a bot account; `None` for an unknown account.
    fn is_bot<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<bool>, PortError>>;
    /// Makes the account a bot account, for good (there is no way back), unless it has a
    /// rating (a row in `ratings`: it played rated games as a person). Making a bot account a
    /// bot again changes nothing and answers [`MadeBot::Made`].
    fn make_bot<'a>(
        &'a self,
        id: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<MadeBot, PortError>>;
    /// Whether `name` is a registered account's name or looks like one (its
    /// [`username::key`] or its [`username::skeleton`] is taken), or is kept for the server's
    /// own ([`username::reserved`], answered without asking the store).
    fn name_registered<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<bool, PortError>>;
    /// Stores a new personal token (its hash only), unless its account holds `max_live` live
    /// tokens already (false): counted and inserted in one transaction, so tokens created at
    /// once through any nodes never exceed it.
    fn create_token<'a>(
        &'a self,
        token: &'a NewToken,
        max_live: usize,
    ) -> PortFuture<'a, Result<bool, PortError>>;
    /// Revokes (deletes) every token of `account`; returns how many.
    fn revoke_tokens<'a>(&'a self, account: &'a str) -> PortFuture<'a, Result<u64, PortError>>;
    /// The account's live tokens at `now_ms`, oldest first.
    fn tokens<'a>(
        &'a self,
        account: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<TokenInfo>, PortError>>;
    /// Revokes (deletes) one of `account`'s tokens; false when it has none of that id.
    fn revoke_token<'a>(
        &'a self,
        account: &'a str,
        token: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>>;
    /// The live token whose hash is `token_hash`, with its account; `None` when unknown,
    /// revoked, expired at `now_ms`, or its account is disabled.
    fn token<'a>(
        &'a self,
        token_hash: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Option<TokenHolder>, PortError>>;
    /// Records a use of the token: when, and from which address.
    fn token_used<'a>(
        &'a self,
        id: &'a str,
        now_ms: i64,
        address: &'a str,
    ) -> PortFuture<'a, Result<(), PortError>>;
    /// Which of these token ids are still live at `now_ms` (neither revoked nor expired, and
    /// their account not disabled): what a node asks every half second about the tokens its
    /// connections were opened with, so disabling an account closes its token connections.
    fn live_tokens<'a>(
        &'a self,
        ids: &'a [String],
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>>;
    /// Which of these browser session ids are still live at `now_ms` (neither ended nor
    /// expired, and their account not disabled): what a node asks every half second about the
    /// sessions its connections signed in with, so a sign-out through another node, or an
    /// operator's reset, closes them.
    fn live_sessions<'a>(
        &'a self,
        ids: &'a [String],
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>>;
}

/// The accounts' store this server uses, its migrations applied (every store's tables: the
/// accounts open first): PostgreSQL given the node's database (`--database-url`); else the
/// SQLite file of a single node; none in a cluster without one.
pub async fn open(
    config: &crate::config::ServerConfig,
    store: &crate::store::Store,
    database: Option<&crate::store::postgres::Database>,
) -> Result<std::sync::Arc<dyn Accounts>, PortError> {
    Ok(match (database, &config.cluster) {
        (Some(db), _) => std::sync::Arc::new(postgres::PostgresAccounts::open(db).await?),
        (None, None) => std::sync::Arc::new(sqlite::SqliteAccounts::open(store)?),
        (None, Some(_)) => {
            tracing::warn!("cluster mode without --database-url: accounts are off, guests only");
            std::sync::Arc::new(Unconfigured)
        }
    })
}

/// The accounts' store of `burraco-server admin`: the server's own, by the same flags.
pub async fn open_for_admin(
    config: &crate::config::ServerConfig,
    database: Option<&crate::store::postgres::Database>,
) -> Result<std::sync::Arc<dyn Accounts>, PortError> {
    Ok(match (database, &config.cluster) {
        (Some(db), _) => std::sync::Arc::new(postgres::PostgresAccounts::open(db).await?),
        (None, None) => std::sync::Arc::new(sqlite::SqliteAccounts::open_dir(&config.data_dir)?),
        (None, Some(_)) => {
            return Err(PortError(
                "a cluster keeps accounts in PostgreSQL: give --database-url".into(),
            ));
        }
    })
}

/// A new session token: 256 random bits, as 64 hex digits (what the cookie carries).
pub fn new_token() -> String {
    burraco_protocol::cards::to_hex(&crate::ids::random_bytes::<32>())
}

/// What is stored of a token: its SHA-256, in hex. A stolen database gives no usable token
/// (the token has 256 random bits: no dictionary to try).
pub fn token_hash(token: &str) -> String {
    crate::ids::secret_hash(token)
}

/// The versioned schema changes of the accounts' tables, applied in order at start by both
/// stores (each keeps the last version applied in its own `account_migrations` table, so the
/// game store's `user_version` is left alone). Plain SQL both SQLite and PostgreSQL accept.
pub const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        "CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        skeleton TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_ms BIGINT NOT NULL);
     CREATE TABLE account_sessions (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        token_hash TEXT NOT NULL UNIQUE,
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL,
        user_agent TEXT NOT NULL);
     CREATE INDEX account_sessions_account ON account_sessions (account_id);",
    ),
    // Bot accounts and personal tokens. `bot_since_ms` is set once and never cleared (a bot
    // account stays one). A revoked token's row is deleted; an expired one is ignored, and
    // goes when its account makes a new one.
    (
        2,
        "ALTER TABLE accounts ADD COLUMN bot_since_ms BIGINT;
     CREATE TABLE account_tokens (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        token_hash TEXT NOT NULL UNIQUE,
        label TEXT NOT NULL,
        scopes TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL,
        last_used_ms BIGINT,
        last_address TEXT);
     CREATE INDEX account_tokens_account ON account_tokens (account_id);",
    ),
    // Disabled and administrator accounts, passkeys and the audit log.
    (
        3,
        "ALTER TABLE accounts ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE;
     ALTER TABLE accounts ADD COLUMN admin BOOLEAN NOT NULL DEFAULT FALSE;
     CREATE TABLE account_passkeys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        credential_id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        credential TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        last_used_ms BIGINT);
     CREATE INDEX account_passkeys_account ON account_passkeys (account_id);
     CREATE TABLE account_audit (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        kind TEXT NOT NULL,
        address TEXT,
        detail TEXT NOT NULL);
     CREATE INDEX account_audit_account ON account_audit (account_id, at_ms);",
    ),
    // Ratings (`crate::ratings`): the current rating per subject (an account, or two partners
    // `a+b`) and category, indexed for the leaderboards; a history point per rated match; each
    // finished rated match's key once (exactly once); the rated tables not settled yet.
    (
        4,
        "CREATE TABLE ratings (
        subject TEXT NOT NULL,
        category TEXT NOT NULL,
        member_a TEXT NOT NULL,
        member_b TEXT,
        bot BOOLEAN NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        matches BIGINT NOT NULL,
        last_ms BIGINT NOT NULL,
        PRIMARY KEY (subject, category));
     CREATE INDEX ratings_board ON ratings (category, bot, rating);
     CREATE INDEX ratings_member_b ON ratings (member_b);
     CREATE INDEX ratings_member_a ON ratings (member_a);
     CREATE TABLE rating_history (
        subject TEXT NOT NULL,
        category TEXT NOT NULL,
        match_key TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        bot BOOLEAN NOT NULL,
        rating_before DOUBLE PRECISION NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (subject, category, match_key));
     CREATE INDEX rating_history_at ON rating_history (subject, at_ms);
     CREATE INDEX rating_history_week ON rating_history (category, at_ms);
     CREATE TABLE rated_matches (
        match_key TEXT PRIMARY KEY,
        category TEXT NOT NULL,
        players TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        rated BOOLEAN NOT NULL,
        reason TEXT);
     CREATE INDEX rated_matches_players ON rated_matches (players, at_ms);
     CREATE TABLE rated_pending (
        match_key TEXT PRIMARY KEY,
        since_ms BIGINT NOT NULL);",
    ),
    // The players' match index (`crate::players`): a row per seat of a finished match, and
    // each account's sums beside them, kept in the row's transaction (the page reads by key).
    (5, crate::players::MIGRATION),
    // Fair play (`crate::fairplay`): each account's outcome per table's match (judged once:
    // keyed by table and account), and playbans.
    (
        6,
        "CREATE TABLE fairplay_outcomes (
        table_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (table_id, account_id));
     CREATE INDEX fairplay_outcomes_account ON fairplay_outcomes (account_id, at_ms);
     CREATE TABLE fairplay_bans (
        account_id TEXT NOT NULL,
        start_ms BIGINT NOT NULL,
        end_ms BIGINT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (account_id, start_ms));",
    ),
    // Moderation (`crate::moderation`): the moderator role, mutes and time-outs, reports (their
    // context as JSON) and moderators' actions.
    (
        7,
        "ALTER TABLE accounts ADD COLUMN moderator BOOLEAN NOT NULL DEFAULT FALSE;
     ALTER TABLE accounts ADD COLUMN muted_until_ms BIGINT;
     ALTER TABLE accounts ADD COLUMN timed_out_until_ms BIGINT;
     CREATE TABLE moderation_reports (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        reporter_id TEXT,
        flood_key TEXT NOT NULL,
        subject_id TEXT,
        subject_name TEXT NOT NULL,
        table_id TEXT,
        reason TEXT NOT NULL,
        note TEXT NOT NULL,
        context TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        closed_by TEXT);
     CREATE INDEX moderation_reports_open ON moderation_reports (closed_by, created_ms);
     CREATE INDEX moderation_reports_flood ON moderation_reports (flood_key, created_ms);
     CREATE TABLE moderation_actions (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        moderator_id TEXT,
        account_id TEXT,
        reason TEXT NOT NULL,
        until_ms BIGINT,
        report_id TEXT,
        at_ms BIGINT NOT NULL);
     CREATE INDEX moderation_actions_account ON moderation_actions (account_id, at_ms);",
    ),
    // Seasons (`crate::seasons`): each season's points per subject and category, indexed for
    // its ladder and by member (the player's page); each award's key once (exactly once).
    (
        8,
        "CREATE TABLE season_points (
        season TEXT NOT NULL,
        category TEXT NOT NULL,
        subject TEXT NOT NULL,
        member_a TEXT NOT NULL,
        member_b TEXT,
        bot BOOLEAN NOT NULL,
        points BIGINT NOT NULL,
        matches BIGINT NOT NULL,
        last_ms BIGINT NOT NULL,
        PRIMARY KEY (season, category, subject));
     CREATE INDEX season_points_ladder ON season_points (season, category, bot, points);
     CREATE INDEX season_points_member_a ON season_points (member_a, season);
     CREATE INDEX season_points_member_b ON season_points (member_b, season);
     CREATE TABLE season_awards (
        award_key TEXT PRIMARY KEY,
        season TEXT NOT NULL,
        at_ms BIGINT NOT NULL);
     CREATE INDEX season_awards_season ON season_awards (season);",
    ),
    // The match-end projections' pending list (`crate::projections`): the ratings' pending
    // row, now written for every table's match before its end is logged, with the end's time
    // (every projection reads that time, so a retry writes what the first attempt wrote).
    (9, "ALTER TABLE rated_pending ADD COLUMN ended_ms BIGINT;"),
    // Moderation of guests (`crate::moderation`): an action's guest (a player id, a guest
    // having no account) and the guests' mutes.
    (
        10,
        "ALTER TABLE moderation_actions ADD COLUMN guest_id TEXT;
     CREATE TABLE moderation_guest_mutes (
        player_id TEXT PRIMARY KEY,
        until_ms BIGINT NOT NULL);",
    ),
    // The arena's matches made (`crate::arena::store`): the daily cap and the board's bots.
    (11, crate::arena::store::MIGRATION),
    // The accounts' limits (`limits`): each key's attempts and delay, shared by the nodes.
    (
        12,
        "CREATE TABLE account_limits (
        limit_key TEXT PRIMARY KEY,
        attempts BIGINT NOT NULL,
        locked_until_ms BIGINT NOT NULL,
        last_ms BIGINT NOT NULL);
     CREATE INDEX account_limits_idle ON account_limits (last_ms);",
    ),
    // Every skeleton made again without the quiet punctuation `_-.` (`rekey.rs`, run in Rust
    // by both stores after this version's SQL, which is none).
    (rekey::VERSION, ""),
    // The players' index's outcomes decided by the VP, as every reader now decides them
    // (issue 32): the older rows and their counts.
    (14, crate::players::OUTCOMES_BY_VP),
    // The weekly board kept by each rated match's transaction (`crate::ratings::weekly`), filled
    // from the history rated before it.
    (15, crate::ratings::weekly::MIGRATION),
];
