//! The accounts' audit log: what happened to an account, when and from which address (sign-ins
//! that worked and those that failed, passkeys added and removed, password changes, operators'
//! actions). Each store keeps it in its `account_audit` table; an account reads its own entries
//! at `GET /api/account/audit`. No secret is ever in an entry: a kind, an address, and a detail
//! that names a passkey or a method, never a password or a token.

use std::time::Duration;

use serde::Serialize;

/// How long entries are kept: older ones go as the account gets new ones.
pub const RETENTION: Duration = Duration::from_secs(180 * 24 * 3600);

/// What happened. Stored and served as its snake_case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The account was created (by its owner at `/api/signup`).
    SignedUp,
    /// A sign-in worked; the detail says how (`password` or `passkey`).
    SignedIn,
    /// A sign-in named this account with the wrong password (or was held back by the delays).
    SignInFailed,
    /// A sign-in with the right password to a disabled account.
    SignInRefused,
    PasswordChanged,
    /// Every session ended at the owner's request.
    SignedOutEverywhere,
    /// The detail is the passkey's name.
    PasskeyAdded,
    PasskeyRemoved,
    /// An operator's command (`burraco-server admin ...`), the detail names it.
    AdminCreated,
    AdminDisabled,
    AdminEnabled,
    AdminPasswordReset,
}

impl Kind {
    pub const ALL: [Kind; 12] = [
        Kind::SignedUp,
        Kind::SignedIn,
        Kind::SignInFailed,
        Kind::SignInRefused,
        Kind::PasswordChanged,
        Kind::SignedOutEverywhere,
        Kind::PasskeyAdded,
        Kind::PasskeyRemoved,
        Kind::AdminCreated,
        Kind::AdminDisabled,
        Kind::AdminEnabled,
        Kind::AdminPasswordReset,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::SignedUp => "signed_up",
            Kind::SignedIn => "signed_in",
            Kind::SignInFailed => "sign_in_failed",
            Kind::SignInRefused => "sign_in_refused",
            Kind::PasswordChanged => "password_changed",
            Kind::SignedOutEverywhere => "signed_out_everywhere",
            Kind::PasskeyAdded => "passkey_added",
            Kind::PasskeyRemoved => "passkey_removed",
            Kind::AdminCreated => "admin_created",
            Kind::AdminDisabled => "admin_disabled",
            Kind::AdminEnabled => "admin_enabled",
            Kind::AdminPasswordReset => "admin_password_reset",
        }
    }

    /// The kind a stored name stands for; `None` for a name this version does not know (a
    /// newer server's), which the list shows as it is rather than failing.
    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// One entry of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// `a-` and 16 hex digits.
    pub id: String,
    #[serde(skip)]
    pub account: String,
    pub at_ms: i64,
    /// [`Kind::as_str`] (kept as text so an entry a newer server wrote still reads).
    pub kind: String,
    /// The client's address (the peer, or the trusted proxy's `X-Forwarded-For` entry); `None`
    /// for an operator's command.
    pub address: Option<String>,
    /// How, or which: `password`, `passkey`, a passkey's name, `command line`.
    pub detail: String,
}

impl Entry {
    /// A new entry for `account`, now.
    pub fn new(account: &str, kind: Kind, address: Option<String>, detail: &str) -> Entry {
        Entry {
            id: crate::ids::random_id("a", 8),
            account: account.to_owned(),
            at_ms: crate::ids::unix_ms(),
            kind: kind.as_str().to_owned(),
            address,
            detail: detail.chars().take(100).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_distinct_snake_case_names_that_parse_back() {
        let names: std::collections::HashSet<_> = Kind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(names.len(), Kind::ALL.len());
        for kind in Kind::ALL {
            assert_eq!(
                serde_json::to_string(&kind).expect("json"),
                format!("\"{}\"", kind.as_str())
            );
            assert_eq!(Kind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(Kind::parse("from_the_future"), None);
    }
}
