//! Accounts switched off ([`Unconfigured`]): every call of the port refused, but the server's
//! own names still kept from guests.

use std::time::Duration;

use super::limits::{Limit, Limits, Reserved, Settle};
use super::tokens::{NewToken, TokenHolder, TokenInfo};
use super::{
    Account, AccountStatus, Accounts, CreateError, MadeBot, NewAccount, NewSession, SessionInfo,
    StoredPasskey, audit, username,
};
use crate::port::{PortError, PortFuture};

/// Accounts switched off: a cluster started without `--database-url` (one node's SQLite file
/// would not be shared). Every call fails, the API answers `accounts_unavailable`, and guests
/// play as ever.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unconfigured;

fn off<T: Send + 'static>() -> PortFuture<'static, Result<T, PortError>> {
    Box::pin(async {
        Err(PortError(
            "accounts need --database-url in a cluster".into(),
        ))
    })
}

impl Accounts for Unconfigured {
    fn create<'a>(&'a self, _: &'a NewAccount) -> PortFuture<'a, Result<Account, CreateError>> {
        Box::pin(async { off::<Account>().await.map_err(CreateError::Port) })
    }
    fn by_id<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<Option<Account>, PortError>> {
        off()
    }
    fn by_name<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<Option<Account>, PortError>> {
        off()
    }
    fn password_hash<'a>(
        &'a self,
        _: &'a str,
    ) -> PortFuture<'a, Result<Option<String>, PortError>> {
        off()
    }
    fn set_password_hash<'a>(
        &'a self,
        _: &'a str,
        _: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
    fn open_session<'a>(&'a self, _: &'a NewSession) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
    fn session<'a>(
        &'a self,
        _: &'a str,
        _: i64,
    ) -> PortFuture<'a, Result<Option<(Account, SessionInfo)>, PortError>> {
        off()
    }
    fn sessions<'a>(
        &'a self,
        _: &'a str,
        _: i64,
    ) -> PortFuture<'a, Result<Vec<SessionInfo>, PortError>> {
        off()
    }
    fn revoke<'a>(&'a self, _: &'a str, _: &'a str) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
    fn revoke_all<'a>(
        &'a self,
        _: &'a str,
        _: Option<&'a str>,
    ) -> PortFuture<'a, Result<u64, PortError>> {
        off()
    }

    // tokens and bot accounts
    fn is_bot<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<Option<bool>, PortError>> {
        off()
    }
    fn make_bot<'a>(&'a self, _: &'a str, _: i64) -> PortFuture<'a, Result<MadeBot, PortError>> {
        off()
    }
    /// No account can be impersonated where none signs in, but the server's own names stay
    /// its own.
    fn name_registered<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<bool, PortError>> {
        let reserved = username::reserved(name);
        Box::pin(async move { Ok(reserved) })
    }
    fn create_token<'a>(
        &'a self,
        _: &'a NewToken,
        _: usize,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
    fn revoke_tokens<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<u64, PortError>> {
        off()
    }
    fn tokens<'a>(
        &'a self,
        _: &'a str,
        _: i64,
    ) -> PortFuture<'a, Result<Vec<TokenInfo>, PortError>> {
        off()
    }
    fn revoke_token<'a>(
        &'a self,
        _: &'a str,
        _: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
    fn token<'a>(
        &'a self,
        _: &'a str,
        _: i64,
    ) -> PortFuture<'a, Result<Option<TokenHolder>, PortError>> {
        off()
    }
    fn token_used<'a>(
        &'a self,
        _: &'a str,
        _: i64,
        _: &'a str,
    ) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
    fn live_tokens<'a>(
        &'a self,
        _: &'a [String],
        _: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>> {
        off()
    }
    fn live_sessions<'a>(
        &'a self,
        _: &'a [String],
        _: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>> {
        off()
    }
    fn add_passkey<'a>(&'a self, _: &'a StoredPasskey) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
    fn passkeys<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<Vec<StoredPasskey>, PortError>> {
        off()
    }
    fn passkey_by_credential<'a>(
        &'a self,
        _: &'a str,
    ) -> PortFuture<'a, Result<Option<StoredPasskey>, PortError>> {
        off()
    }
    fn touch_passkey<'a>(
        &'a self,
        _: &'a str,
        _: &'a str,
        _: i64,
    ) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
    fn remove_passkey<'a>(
        &'a self,
        _: &'a str,
        _: &'a str,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
    fn record<'a>(&'a self, _: &'a audit::Entry) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
    fn audit<'a>(
        &'a self,
        _: &'a str,
        _: u32,
    ) -> PortFuture<'a, Result<Vec<audit::Entry>, PortError>> {
        off()
    }
    fn status<'a>(
        &'a self,
        _: &'a str,
    ) -> PortFuture<'a, Result<Option<AccountStatus>, PortError>> {
        off()
    }
    fn set_status<'a>(
        &'a self,
        _: &'a str,
        _: AccountStatus,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
}

impl Limits for Unconfigured {
    fn reserve<'a>(
        &'a self,
        _: &'a [Limit],
        _: i64,
        _: Duration,
    ) -> PortFuture<'a, Result<Reserved, PortError>> {
        off()
    }
    fn settle<'a>(&'a self, _: &'a [(Limit, Settle)]) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
}
