//! Passwords: Argon2id with OWASP's parameters, computed on the blocking pool behind a semaphore
//! of one permit per core, so a storm of sign-ins queues for the cores instead of taking the
//! runtime's worker threads (the tables, the WebSockets) or every blocking thread.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

/// Shortest and longest passwords (bytes of UTF-8): long passphrases are welcome, but a
/// megabyte would only cost hashing time.
pub const MIN_BYTES: usize = 8;
pub const MAX_BYTES: usize = 256;

/// OWASP's Password Storage Cheat Sheet, Argon2id: 19 MiB of memory, 2 passes, 1 lane.
const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;

fn argon2() -> Argon2<'static> {
    // The parameters are constants within Argon2's bounds; `Params::new` cannot refuse them.
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The hasher: hashes and checks on the bounded blocking pool.
#[derive(Debug, Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
    /// A hash of a random password, checked when a sign-in names no account, so that such an
    /// answer takes as long as a wrong password (no telling which names exist by timing).
    decoy: Arc<String>,
}

/// The hashing task failed (the blocking pool is gone: the server is stopping).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("password hashing unavailable")]
pub struct Unavailable;

impl Hasher {
    /// One permit per core.
    pub fn new() -> Hasher {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        let decoy = hash_now(&crate::random_id("", 16)).unwrap_or_default();
        Hasher {
            permits: Arc::new(Semaphore::new(cores)),
            decoy: Arc::new(decoy),
        }
    }

    /// The PHC string of `password` with a fresh random salt.
    pub async fn hash(&self, password: String) -> Result<String, Unavailable> {
        let _permit = self.permits.acquire().await.map_err(|_| Unavailable)?;
        tokio::task::spawn_blocking(move || hash_now(&password))
            .await
            .map_err(|_| Unavailable)?
    }

    /// Whether `password` matches `hash` (`None`: check against the decoy, and answer false).
    pub async fn verify(
        &self,
        password: String,
        hash: Option<String>,
    ) -> Result<bool, Unavailable> {
        let _permit = self.permits.acquire().await.map_err(|_| Unavailable)?;
        let known = hash.is_some();
        let hash = hash.unwrap_or_else(|| self.decoy.as_ref().clone());
        let matches = tokio::task::spawn_blocking(move || {
            PasswordHash::new(&hash).is_ok_and(|parsed| {
                argon2()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
        })
        .await
        .map_err(|_| Unavailable)?;
        Ok(known && matches)
    }
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new()
    }
}

fn hash_now(password: &str) -> Result<String, Unavailable> {
    let salt = SaltString::encode_b64(&crate::random_bytes::<16>()).map_err(|_| Unavailable)?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|_| Unavailable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_with_owasp_parameters_and_salted() {
        let hasher = Hasher::new();
        let a = hasher.hash("correct horse".into()).await.expect("hash");
        let b = hasher.hash("correct horse".into()).await.expect("hash");
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "a fresh salt each time");
        assert!(!a.contains("correct horse"));
        assert!(
            hasher
                .verify("correct horse".into(), Some(a.clone()))
                .await
                .expect("verify")
        );
        assert!(
            !hasher
                .verify("correct horsf".into(), Some(a))
                .await
                .expect("verify")
        );
        assert!(
            !hasher
                .verify("anything".into(), None)
                .await
                .expect("verify")
        );
        assert!(
            !hasher
                .verify("x".into(), Some("not a hash".into()))
                .await
                .expect("verify")
        );
    }
}
