//! Identifiers and times the server makes: random bytes and ids from the operating system's
//! source, and the wall clock in Unix milliseconds.

/// `n` random bytes from the operating system.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    if getrandom::fill(&mut bytes).is_err() {
        // No OS randomness is not recoverable for a card server.
        panic!("the operating system's random source failed");
    }
    bytes
}

/// `prefix-` followed by `n` random bytes in hex.
pub fn random_id(prefix: &str, n: usize) -> String {
    let bytes = random_bytes::<16>();
    let hex = burraco_protocol::cards::to_hex(&bytes[..n.min(16)]);
    if prefix.is_empty() {
        hex
    } else {
        format!("{prefix}-{hex}")
    }
}

/// The SHA-256 of a secret (a token) in hex: what stores keep of it.
pub fn secret_hash(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    burraco_protocol::cards::to_hex(&Sha256::digest(secret.as_bytes()))
}

/// The wall clock in Unix milliseconds (0 before 1970).
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
