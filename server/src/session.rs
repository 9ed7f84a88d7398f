//! A player's session as the `Sessions` port keeps it (`crate::backplane`), and the key a store
//! keeps it under. The bottom layer: plain data, naming nothing of the crate but `ids`.

/// A player's session: the resume token maps to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub player: String,
    pub name: String,
    /// The account that opened it (`None`: a guest's). A resume restores it only to a
    /// connection of that account (`Session::resumable_by`).
    pub account: Option<String>,
}

impl Session {
    /// Whether a connection of `account` (`None`: a guest) may resume this session: the account
    /// that opened it, or a guest's session for the guest, or for the account that the guest
    /// signed up or in as under the session's name (the browser that signs in mid-match keeps
    /// its seats). `name_registered`: whether the session's name is an account's now; a guest
    /// may not go on under a name that has since been registered.
    pub fn resumable_by(&self, account: Option<(&str, &str)>, name_registered: bool) -> bool {
        match (&self.account, account) {
            (Some(owner), Some((id, _))) => owner == id,
            (Some(_), None) => false,
            (None, Some((_, username))) => self.name == username,
            (None, None) => !name_registered,
        }
    }
}

/// What a store keeps of a resume token: its SHA-256, never the token (a leaked store resumes
/// nobody's session).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ResumeKey {
    hash: String,
    /// The token itself, only to read a session that a cluster node of the version before the
    /// hashes stored under it (a rolling upgrade); never written anywhere.
    token: String,
}

impl ResumeKey {
    pub fn of(token: &str) -> ResumeKey {
        ResumeKey {
            hash: crate::ids::secret_hash(token),
            token: token.to_owned(),
        }
    }

    /// The hash in hex (64 characters): a database key, and a NATS KV key.
    pub fn as_str(&self) -> &str {
        &self.hash
    }

    /// The key an older node stored the session under (see the field).
    pub fn legacy(&self) -> &str {
        &self.token
    }
}
