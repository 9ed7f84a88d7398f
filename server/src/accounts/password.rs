//! Passwords: Argon2id with OWASP's parameters, each check on a thread of its own whose nice
//! value is raised (Linux) so that the scheduler gives a core to the runtime's worker threads
//! (the tables, the WebSockets), the store and the blocking pool whenever they want one, and the
//! checks take what is left; a semaphore of one permit per core bounds the checks running at
//! once, so a storm of sign-ins queues instead of taking memory without bound.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::{OnceCell, Semaphore};

/// Shortest and longest passwords (bytes of UTF-8): long passphrases are welcome, but a
/// megabyte would only cost hashing time.
pub const MIN_BYTES: usize = 8;
pub const MAX_BYTES: usize = 256;

/// OWASP's Password Storage Cheat Sheet, Argon2id: 19 MiB of memory, 2 passes, 1 lane.
const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;

/// How many nice steps a check's thread goes below the rest of the server. At +10 the
/// scheduler weighs it about a tenth of a nice-0 thread (110 against 1024), so a waking worker
/// thread is picked before it and gets nine tenths of a shared core, while on idle cores the
/// checks still run at full speed (nice only matters when threads compete). Higher would starve
/// sign-ins behind any other busy process on the machine; lower would share more with the tables.
const NICE_STEPS: i32 = 10;

fn argon2() -> Argon2<'static> {
    // The parameters are constants within Argon2's bounds; `Params::new` cannot refuse them.
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The hasher: hashes and checks on low-priority threads, at most one per core at a time.
#[derive(Debug, Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
    /// A hash of a random password, checked when a sign-in names no account, so that such an
    /// answer takes as long as a wrong password (no telling which names exist by timing). Made
    /// at the first such sign-in, on the checks' own threads, not at start: a hash is ~19 MiB
    /// and tens of milliseconds that a (re)start would otherwise wait for before serving.
    decoy: Arc<OnceCell<String>>,
}

/// The hashing thread could not be started or did not answer (the server is stopping, or out
/// of threads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("password hashing unavailable")]
pub struct Unavailable;

impl Hasher {
    /// One permit per core.
    pub fn new() -> Hasher {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Hasher {
            permits: Arc::new(Semaphore::new(cores)),
            decoy: Arc::new(OnceCell::new()),
        }
    }

    /// The PHC string of `password` with a fresh random salt.
    pub async fn hash(&self, password: String) -> Result<String, Unavailable> {
        self.off_the_runtime(move || hash_now(&password)).await?
    }

    /// Whether `password` matches `hash` (`None`: check against the decoy, and answer false).
    /// The parameters are read from the PHC string, so hashes made with another cost still verify.
    pub async fn verify(
        &self,
        password: String,
        hash: Option<String>,
    ) -> Result<bool, Unavailable> {
        let known = hash.is_some();
        let hash = match hash {
            Some(hash) => hash,
            None => self
                .decoy
                .get_or_try_init(|| self.hash(crate::ids::random_id("", 16)))
                .await?
                .clone(),
        };
        let matches = self
            .off_the_runtime(move || {
                PasswordHash::new(&hash).is_ok_and(|parsed| {
                    argon2()
                        .verify_password(password.as_bytes(), &parsed)
                        .is_ok()
                })
            })
            .await?;
        Ok(known && matches)
    }

    /// Runs `work` on a new low-priority thread once a permit is free. The thread holds the
    /// permit until `work` is done, even if the caller stops waiting (a client that hangs up),
    /// so abandoned checks still count against the bound. A thread per check costs some tens
    /// of microseconds against the check's tens of milliseconds, and leaves no long-lived thread
    /// at low priority (nor a pool's thread at low priority for other work: a nice value can
    /// be raised but not lowered back without privilege).
    async fn off_the_runtime<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Unavailable> {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Unavailable)?;
        let (done, answer) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("password-check".into())
            .spawn(move || {
                yield_to_the_server();
                // The caller may be gone; the answer is then nobody's.
                let _ = done.send(work());
                drop(permit);
            })
            .map_err(|_| Unavailable)?;
        answer.await.map_err(|_| Unavailable)
    }
}

/// Raises the calling thread's nice value by [`NICE_STEPS`] (on Linux the nice value is a
/// thread's own). Failing leaves the check at the server's priority: slower tables under a
/// storm, nothing worse, so it is logged, not refused.
#[cfg(target_os = "linux")]
fn yield_to_the_server() {
    use rustix::process::{getpriority_process, setpriority_process};
    let thread = Some(rustix::thread::gettid());
    let lowered = getpriority_process(thread)
        .and_then(|nice| setpriority_process(thread, (nice + NICE_STEPS).min(19)));
    if let Err(error) = lowered {
        tracing::debug!(%error, "a password check runs at the server's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn yield_to_the_server() {}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new()
    }
}

fn hash_now(password: &str) -> Result<String, Unavailable> {
    let salt =
        SaltString::encode_b64(&crate::ids::random_bytes::<16>()).map_err(|_| Unavailable)?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|_| Unavailable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_unknown_name_is_checked_against_a_decoy_made_at_the_first_need() {
        let hasher = Hasher::new();
        assert!(hasher.decoy.get().is_none(), "nothing hashed at start");
        assert_eq!(hasher.verify("anything".into(), None).await, Ok(false));
        let decoy = hasher
            .decoy
            .get()
            .cloned()
            .expect("made by the first check");
        assert!(decoy.starts_with("$argon2id$"), "{decoy}");
        assert_eq!(hasher.verify("anything".into(), None).await, Ok(false));
        assert_eq!(hasher.decoy.get(), Some(&decoy), "made once");
    }

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

    #[tokio::test]
    async fn hashes_made_with_other_owasp_parameters_still_verify() {
        // The PHC string carries its own cost: a hash stored under another of OWASP's
        // equivalent sets (or this module's former one) keeps verifying after a change.
        let hasher = Hasher::new();
        for (memory_kib, passes) in [(19 * 1024, 2), (47104, 1), (12288, 3), (7168, 5)] {
            let params = Params::new(memory_kib, passes, 1, None).expect("params");
            let salt = SaltString::encode_b64(&[7; 16]).expect("salt");
            let stored = Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
                .hash_password(b"correct horse", &salt)
                .expect("hash")
                .to_string();
            assert!(
                stored.starts_with(&format!("$argon2id$v=19$m={memory_kib},t={passes},p=1$")),
                "{stored}"
            );
            assert!(
                hasher
                    .verify("correct horse".into(), Some(stored.clone()))
                    .await
                    .expect("verify"),
                "{stored}"
            );
            assert!(
                !hasher
                    .verify("correct horsf".into(), Some(stored))
                    .await
                    .expect("verify")
            );
        }
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn checks_run_below_the_servers_priority() {
        use rustix::process::getpriority_process;
        let server = getpriority_process(None).expect("nice");
        let check = Hasher::new()
            .off_the_runtime(|| getpriority_process(None).expect("nice"))
            .await
            .expect("check");
        assert_eq!(check, (server + NICE_STEPS).min(19));
        assert_eq!(
            getpriority_process(None).expect("nice"),
            server,
            "the caller's own priority is untouched"
        );
    }

    #[tokio::test]
    async fn a_check_holds_its_permit_until_done_even_if_its_caller_left() {
        let hasher = Hasher::new();
        let cores = hasher.permits.available_permits();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let caller = tokio::spawn({
            let hasher = hasher.clone();
            async move { hasher.off_the_runtime(move || released.recv()).await }
        });
        while hasher.permits.available_permits() == cores {
            tokio::task::yield_now().await;
        }
        caller.abort();
        let _ = caller.await;
        assert_eq!(hasher.permits.available_permits(), cores - 1);
        release.send(()).expect("the check is still running");
        let freed = tokio::time::timeout(std::time::Duration::from_secs(10), async {
            while hasher.permits.available_permits() < cores {
                tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            }
        })
        .await;
        assert!(freed.is_ok(), "the permit comes back when the check ends");
    }
}
