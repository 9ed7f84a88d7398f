//! Personal tokens (docs/ACCOUNTS.md, "Personal tokens"): what a program (a bot above all)
//! signs in with instead of a password and a cookie.
//!
//! A token is `brc_`, 32 random bytes in base62 (43 digits), then the CRC32 of those 43 digits
//! in base62 (6 digits): 53 characters. The prefix and the checksum are what GitHub's tokens
//! have, so a secret scanner can tell a leaked token from random text without asking us, and a
//! typo is refused without a database query. The store keeps only its SHA-256
//! ([`super::token_hash`]).

use serde::{Deserialize, Serialize};

/// Every token starts so.
pub const PREFIX: &str = "brc_";
/// Base62 digits of the 32 random bytes (62^43 > 2^256).
const SECRET_DIGITS: usize = 43;
/// Base62 digits of the CRC32 (62^6 > 2^32).
const CHECK_DIGITS: usize = 6;
/// A token's whole length.
pub const TOKEN_LEN: usize = PREFIX.len() + SECRET_DIGITS + CHECK_DIGITS;

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A new token from 32 random bytes.
pub fn new_token() -> String {
    format_token(&crate::ids::random_bytes::<32>())
}

/// The token of these 32 bytes (tests pin the format with fixed bytes).
pub fn format_token(secret: &[u8; 32]) -> String {
    let digits = base62(secret, SECRET_DIGITS);
    let check = base62(&crc32(digits.as_bytes()).to_be_bytes(), CHECK_DIGITS);
    format!("{PREFIX}{digits}{check}")
}

/// Whether `text` has a token's form: the prefix, 49 base62 digits, a checksum that matches.
pub fn well_formed(text: &str) -> bool {
    let Some(rest) = text.strip_prefix(PREFIX) else {
        return false;
    };
    if rest.len() != SECRET_DIGITS + CHECK_DIGITS
        || !rest.bytes().all(|b| b.is_ascii_alphanumeric())
    {
        return false;
    }
    let (digits, check) = rest.split_at(SECRET_DIGITS);
    base62(&crc32(digits.as_bytes()).to_be_bytes(), CHECK_DIGITS) == check
}

/// `bytes` as a big-endian number in base62, `width` digits (left-padded with `0`).
fn base62(bytes: &[u8], width: usize) -> String {
    let mut number = bytes.to_vec();
    let mut digits = Vec::with_capacity(width);
    for _ in 0..width {
        // One long division of the number by 62; the remainder is the next digit.
        let mut remainder = 0u32;
        for byte in &mut number {
            let value = (remainder << 8) | u32::from(*byte);
            *byte = (value / 62) as u8;
            remainder = value % 62;
        }
        digits.push(BASE62[remainder as usize]);
    }
    digits.reverse();
    String::from_utf8(digits).unwrap_or_default()
}

/// CRC-32 (IEEE 802.3, reflected, as zlib and GitHub's tokens use).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

/// What a token may do. A browser session (the cookie) may do everything; a token only what
/// its scopes say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Sit at tables and play: join, quick play, ready, moves, leave, chat, sync.
    Play,
    /// Create tables (and fill their seats with server bots).
    CreateTables,
    /// Every tournament request: register, check in, line-ups; a director's requests.
    JoinTournaments,
    /// `GET /api/account` with the token.
    ReadAccount,
}

impl Scope {
    pub const ALL: [Scope; 4] = [
        Scope::Play,
        Scope::CreateTables,
        Scope::JoinTournaments,
        Scope::ReadAccount,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Play => "play",
            Scope::CreateTables => "create_tables",
            Scope::JoinTournaments => "join_tournaments",
            Scope::ReadAccount => "read_account",
        }
    }

    pub fn parse(text: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// A set of scopes, stored as their names joined by commas.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// Every scope (what a browser session may do).
    pub fn all() -> Scopes {
        Scopes(Scope::ALL.to_vec())
    }

    pub fn new(mut scopes: Vec<Scope>) -> Scopes {
        scopes.sort();
        scopes.dedup();
        Scopes(scopes)
    }

    pub fn allows(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    pub fn list(&self) -> &[Scope] {
        &self.0
    }

    /// The stored form: `play,create_tables`.
    pub fn to_text(&self) -> String {
        self.0
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The stored form read back; a name this version does not know is dropped (a token never
    /// gains a scope by a downgrade).
    pub fn from_text(text: &str) -> Scopes {
        Scopes::new(text.split(',').filter_map(Scope::parse).collect())
    }
}

/// A token as its owner sees it in the list (the token itself is never stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    /// A public id (`tk-` and 16 hex digits) to name it in the list and revoke it.
    pub id: String,
    pub account: String,
    /// The owner's note (what the token is for), at most 100 characters.
    pub label: String,
    pub scopes: Scopes,
    pub created_ms: i64,
    pub expires_ms: i64,
    /// When and from which address it was last used to connect or call the API.
    pub last_used_ms: Option<i64>,
    pub last_address: Option<String>,
}

/// A token to store: [`TokenInfo`] and the SHA-256 of the token.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub info: TokenInfo,
    pub token_hash: String,
}

/// A live token's holder: its account, whether that is a bot account, and the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenHolder {
    pub account: super::Account,
    pub bot: bool,
    pub token: TokenInfo,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_has_the_prefix_53_characters_and_a_checksum_that_catches_a_typo() {
        let token = format_token(&[0xAB; 32]);
        assert_eq!(token.len(), TOKEN_LEN);
        assert_eq!(TOKEN_LEN, 53);
        assert!(token.starts_with("brc_"));
        assert!(well_formed(&token));
        // One digit changed anywhere is caught by the checksum.
        for at in PREFIX.len()..token.len() {
            let mut typo = token.clone().into_bytes();
            typo[at] = if typo[at] == b'x' { b'y' } else { b'x' };
            let typo = String::from_utf8(typo).expect("ascii");
            assert!(!well_formed(&typo), "{typo}");
        }
        assert!(!well_formed(&token[1..]));
        assert!(!well_formed(&format!("{token}0")));
        assert!(!well_formed("brc_"));
        assert!(!well_formed(&"a".repeat(64)));
        // Fresh tokens differ and are well formed.
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert!(well_formed(&a) && well_formed(&b));
    }

    #[test]
    fn base62_and_crc32_match_known_values() {
        assert_eq!(base62(&[0; 4], 6), "000000");
        assert_eq!(base62(&[0, 0, 0, 62], 3), "010");
        assert_eq!(base62(&[0xFF; 32], 43).len(), 43);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn scopes_are_stored_as_names_and_unknown_ones_dropped() {
        let scopes = Scopes::new(vec![Scope::ReadAccount, Scope::Play, Scope::Play]);
        assert_eq!(scopes.to_text(), "play,read_account");
        assert_eq!(Scopes::from_text("play,read_account"), scopes);
        assert_eq!(
            Scopes::from_text("play,admin,"),
            Scopes::new(vec![Scope::Play])
        );
        assert!(Scopes::all().allows(Scope::JoinTournaments));
        assert!(!scopes.allows(Scope::CreateTables));
    }
}
