//! Operators' commands, `burraco-server admin ...`: make an administrator, disable and enable an
//! account, reset a password (every session and token of the account ended). They work on the
//! same store the server uses (the SQLite file of `--data`, which must exist, or PostgreSQL by
//! `--database-url`), running or not: a disabled account's sessions end at once, since every
//! request reads the store. Each command is in the account's audit log.

use std::io::BufRead;

use crate::accounts::audit::{Entry, Kind};
use crate::accounts::password::{self, Hasher};
use crate::accounts::{Account, AccountStatus, Accounts, CreateError, NewAccount, username};
use crate::config::AdminCommand;
use crate::port::PortError;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("no account is named {0}")]
    NoSuchAccount(String),
    #[error("{0} is no valid username (3 to 24 letters, digits, '_', '-' or '.')")]
    InvalidUsername(String),
    #[error("a password is 8 to 256 bytes")]
    InvalidPassword,
    #[error("a registered name looks like {0}")]
    NameConfusable(String),
    #[error("cannot read the password from stdin: {0}")]
    Stdin(std::io::Error),
    #[error("the password hasher stopped")]
    Hasher,
    #[error("accounts store: {0}")]
    Store(#[from] PortError),
    #[error(
        "no accounts' store in {0}: give the server's own --data (or --database-url); nothing was made"
    )]
    NoStore(std::path::PathBuf),
}

/// Refuses a command on a store that does not exist: a data directory without the server's
/// SQLite file (a typo in `--data` would otherwise make an empty store and report success on
/// it). A database URL is checked by connecting.
pub fn check_store(config: &crate::config::ServerConfig) -> Result<(), AdminError> {
    if config.database_url.is_some() || config.cluster.is_some() {
        return Ok(());
    }
    let file = config.data_dir.join(crate::store::FILE_NAME);
    if file.is_file() {
        Ok(())
    } else {
        Err(AdminError::NoStore(config.data_dir.clone()))
    }
}

/// What the audit log says did it.
const OPERATOR: &str = "command line";

/// Runs `command` on `accounts`; returns what to print.
pub async fn run(
    accounts: &dyn Accounts,
    moderation: &dyn crate::moderation::ModerationStore,
    command: &AdminCommand,
    stdin: impl BufRead,
) -> Result<String, AdminError> {
    match command {
        AdminCommand::CreateAdmin {
            name,
            password_stdin,
        } => {
            if let Some(account) = accounts.by_name(name).await? {
                let status = accounts.status(&account.id).await?.unwrap_or_default();
                set_status(
                    accounts,
                    &account,
                    AccountStatus {
                        admin: true,
                        ..status
                    },
                )
                .await?;
                audit(accounts, &account, Kind::AdminCreated, "promoted").await?;
                return Ok(format!(
                    "{} ({}) is an administrator",
                    account.username, account.id
                ));
            }
            let normalized =
                username::normalize(name).map_err(|_| AdminError::InvalidUsername(name.clone()))?;
            let (password, shown) = new_password(*password_stdin, stdin)?;
            let new = NewAccount {
                id: crate::ids::random_id("u", 8),
                key: username::key(&normalized),
                skeleton: username::skeleton(&normalized),
                password_hash: Hasher::new()
                    .hash(password.clone())
                    .await
                    .map_err(|_| AdminError::Hasher)?,
                username: normalized,
                created_ms: crate::ids::unix_ms(),
            };
            let account = accounts.create(&new).await.map_err(|e| match e {
                CreateError::NameTaken | CreateError::NameConfusable => {
                    AdminError::NameConfusable(name.clone())
                }
                CreateError::Port(e) => AdminError::Store(e),
            })?;
            let admin = AccountStatus {
                admin: true,
                disabled: false,
            };
            set_status(accounts, &account, admin).await?;
            audit(accounts, &account, Kind::AdminCreated, OPERATOR).await?;
            Ok(format!(
                "created the administrator {} ({}){}",
                account.username,
                account.id,
                shown_password(&password, shown)
            ))
        }
        AdminCommand::Disable { name } => {
            let account = find(accounts, name).await?;
            let status = accounts.status(&account.id).await?.unwrap_or_default();
            set_status(
                accounts,
                &account,
                AccountStatus {
                    disabled: true,
                    ..status
                },
            )
            .await?;
            let ended = accounts.revoke_all(&account.id, None).await?;
            audit(accounts, &account, Kind::AdminDisabled, OPERATOR).await?;
            Ok(format!(
                "disabled {} ({}); {ended} sessions ended",
                account.username, account.id
            ))
        }
        AdminCommand::GrantModerator { name } | AdminCommand::RevokeModerator { name } => {
            let account = find(accounts, name).await?;
            let grant = matches!(command, AdminCommand::GrantModerator { .. });
            if !moderation.set_moderator(&account.id, grant).await? {
                return Err(AdminError::NoSuchAccount(name.clone()));
            }
            let kind = if grant {
                "moderator_granted"
            } else {
                "moderator_revoked"
            };
            // The kind is the moderation's own (not one of `Kind`): the audit log keeps text.
            let entry = Entry {
                kind: kind.to_owned(),
                ..Entry::new(&account.id, Kind::AdminEnabled, None, OPERATOR)
            };
            accounts.record(&entry).await?;
            let role = if grant { "is" } else { "is no longer" };
            Ok(format!(
                "{} ({}) {role} a moderator",
                account.username, account.id
            ))
        }
        AdminCommand::Enable { name } => {
            let account = find(accounts, name).await?;
            let status = accounts.status(&account.id).await?.unwrap_or_default();
            set_status(
                accounts,
                &account,
                AccountStatus {
                    disabled: false,
                    ..status
                },
            )
            .await?;
            audit(accounts, &account, Kind::AdminEnabled, OPERATOR).await?;
            Ok(format!("enabled {} ({})", account.username, account.id))
        }
        AdminCommand::ResetPassword {
            name,
            password_stdin,
        } => {
            let account = find(accounts, name).await?;
            let (password, shown) = new_password(*password_stdin, stdin)?;
            let hash = Hasher::new()
                .hash(password.clone())
                .await
                .map_err(|_| AdminError::Hasher)?;
            if !accounts.set_password_hash(&account.id, &hash).await? {
                return Err(AdminError::NoSuchAccount(name.clone()));
            }
            // Whoever took the account is out: every session and every personal token ends
            // (a node closes the tokens' connections at its next check, within a second).
            let ended = accounts.revoke_all(&account.id, None).await?;
            let revoked = accounts.revoke_tokens(&account.id).await?;
            audit(accounts, &account, Kind::AdminPasswordReset, OPERATOR).await?;
            Ok(format!(
                "new password for {} ({}); {ended} sessions ended, {revoked} tokens revoked{}",
                account.username,
                account.id,
                shown_password(&password, shown)
            ))
        }
    }
}

async fn find(accounts: &dyn Accounts, name: &str) -> Result<Account, AdminError> {
    accounts
        .by_name(name)
        .await?
        .ok_or_else(|| AdminError::NoSuchAccount(name.to_owned()))
}

async fn set_status(
    accounts: &dyn Accounts,
    account: &Account,
    status: AccountStatus,
) -> Result<(), AdminError> {
    if accounts.set_status(&account.id, status).await? {
        Ok(())
    } else {
        Err(AdminError::NoSuchAccount(account.username.clone()))
    }
}

async fn audit(
    accounts: &dyn Accounts,
    account: &Account,
    kind: Kind,
    detail: &str,
) -> Result<(), AdminError> {
    Ok(accounts
        .record(&Entry::new(&account.id, kind, None, detail))
        .await?)
}

/// A password read from stdin's first line, or a new random one to show (20 base-32 letters
/// and digits, 100 bits: the player changes it after signing in).
fn new_password(from_stdin: bool, mut stdin: impl BufRead) -> Result<(String, bool), AdminError> {
    if from_stdin {
        let mut line = String::new();
        stdin.read_line(&mut line).map_err(AdminError::Stdin)?;
        let password = line.trim_end_matches(['\r', '\n']).to_owned();
        if !(password::MIN_BYTES..=password::MAX_BYTES).contains(&password.len()) {
            return Err(AdminError::InvalidPassword);
        }
        return Ok((password, false));
    }
    // Crockford's base 32: no I, L, O or U to misread.
    const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
    let password = crate::ids::random_bytes::<20>()
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b & 31)]))
        .collect();
    Ok((password, true))
}

fn shown_password(password: &str, shown: bool) -> String {
    if shown {
        format!("\none-time password (shown once; change it after signing in): {password}")
    } else {
        String::new()
    }
}
