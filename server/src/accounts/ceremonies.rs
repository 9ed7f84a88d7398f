//! The passkeys' relying party and the ceremonies under way: the state the HTTP handlers
//! (`passkeys.rs`) work on, kept apart so the accounts' shared API value can hold it without
//! the handlers' module.
//!
//! A ceremony's state (its challenge) stays here, never in the client: each is used once, lives
//! [`CEREMONY_TTL`], and at most [`MAX_CEREMONIES`] wait at a time, so a flood of starts costs
//! bounded memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use webauthn_rs::prelude::{
    CredentialID, DiscoverableAuthentication, PasskeyRegistration, Url, Uuid, Webauthn,
    WebauthnBuilder,
};

/// How long a started ceremony waits for its answer (the browser's own prompt times out at 5
/// minutes too).
pub const CEREMONY_TTL: Duration = Duration::from_secs(300);
/// Ceremonies waiting at once, all accounts and addresses together.
pub const MAX_CEREMONIES: usize = 10_000;
/// A WebAuthn answer (attestation object, client data, extensions) is larger than a password.
pub const MAX_BODY: usize = 16 * 1024;
/// Passkeys one account may hold.
pub const MAX_PER_ACCOUNT: usize = 20;
/// Registrations one account may have waiting at once: a fourth start drops its oldest (a
/// prompt dismissed and asked again), so one account holds a handful of the node's places.
pub const WAITING_PER_ACCOUNT: usize = 3;
/// The longest name of a passkey, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// The relying party and the ceremonies under way.
#[derive(Debug)]
pub struct Passkeys {
    /// `None` when the public origin is no URL WebAuthn accepts (logged at start): every
    /// passkey endpoint answers `passkeys_unavailable`, passwords work as ever.
    pub(super) webauthn: Option<Webauthn>,
    pub(super) registrations: Ceremonies<Registration>,
    pub(super) sign_ins: Ceremonies<DiscoverableAuthentication>,
}

#[derive(Debug)]
pub(super) struct Registration {
    pub(super) account: String,
    pub(super) name: String,
    pub(super) state: PasskeyRegistration,
}

impl Passkeys {
    /// The relying party of `origin` (`scheme://host[:port]`); its RP id is the host.
    pub fn new(origin: &str) -> Passkeys {
        let webauthn = relying_party(origin)
            .inspect_err(|e| tracing::error!("passkeys are off: --public-origin {origin}: {e}"))
            .ok();
        Passkeys {
            webauthn,
            registrations: Ceremonies::default(),
            sign_ins: Ceremonies::default(),
        }
    }
}

pub use crate::config::check_origin;

/// Builds the relying party of `origin`; its RP id is the host.
pub fn relying_party(origin: &str) -> Result<Webauthn, String> {
    let url = Url::parse(origin).map_err(|e| e.to_string())?;
    let host = url.host_str().ok_or("no host")?.to_owned();
    WebauthnBuilder::new(&host, &url)
        .and_then(|b| b.rp_name("Burraco").build())
        .map_err(|e| e.to_string())
}

/// Ceremonies waiting for their answer, by a random id handed to the client, each with whose
/// it is when an account started it.
#[derive(Debug)]
pub(super) struct Ceremonies<T> {
    waiting: Mutex<HashMap<String, Waiting<T>>>,
}

#[derive(Debug)]
struct Waiting<T> {
    started: Instant,
    owner: Option<String>,
    state: T,
}

impl<T> Default for Ceremonies<T> {
    fn default() -> Self {
        Ceremonies {
            waiting: Mutex::default(),
        }
    }
}

impl<T> Ceremonies<T> {
    /// Keeps `state` under a new id; `None` when [`MAX_CEREMONIES`] live ones wait already.
    pub(super) fn start(&self, state: T, now: Instant) -> Option<String> {
        self.start_for(None, state, now)
    }

    /// [`Ceremonies::start`] for `owner`, who keeps [`WAITING_PER_ACCOUNT`] at most: its
    /// oldest goes to make room.
    pub(super) fn start_owned(&self, owner: &str, state: T, now: Instant) -> Option<String> {
        self.start_for(Some(owner), state, now)
    }

    fn start_for(&self, owner: Option<&str>, state: T, now: Instant) -> Option<String> {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(owner) = owner {
            let mut own: Vec<(Instant, String)> = waiting
                .iter()
                .filter(|(_, w)| w.owner.as_deref() == Some(owner))
                .map(|(id, w)| (w.started, id.clone()))
                .collect();
            own.sort();
            let extra = (own.len() + 1).saturating_sub(WAITING_PER_ACCOUNT);
            for (_, id) in own.into_iter().take(extra) {
                waiting.remove(&id);
            }
        }
        if waiting.len() >= MAX_CEREMONIES {
            waiting.retain(|_, w| now.duration_since(w.started) < CEREMONY_TTL);
            if waiting.len() >= MAX_CEREMONIES {
                return None;
            }
        }
        let id = crate::ids::random_id("", 16);
        let entry = Waiting {
            started: now,
            owner: owner.map(str::to_owned),
            state,
        };
        waiting.insert(id.clone(), entry);
        Some(id)
    }

    /// Takes the state of ceremony `id` (once: a replayed answer finds nothing), if it is live.
    pub(super) fn take(&self, id: &str, now: Instant) -> Option<T> {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        let w = waiting.remove(id)?;
        (now.duration_since(w.started) < CEREMONY_TTL).then_some(w.state)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.waiting.lock().map(|w| w.len()).unwrap_or(0)
    }
}

/// The WebAuthn user handle of an account: 16 bytes of its id's SHA-256 (stable, and no
/// account id in the authenticator).
pub(super) fn user_handle(account: &str) -> Uuid {
    let digest = Sha256::digest(account.as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    Uuid::from_bytes(bytes)
}

/// A credential id as stored: base64url without padding.
pub(super) fn credential_key(id: &CredentialID) -> String {
    serde_json::to_value(id)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceremonies_are_taken_once_expire_and_are_bounded() {
        let ceremonies = Ceremonies::<u32>::default();
        let t0 = Instant::now();
        let id = ceremonies.start(7, t0).expect("room");
        assert_eq!(ceremonies.take(&id, t0), Some(7));
        assert_eq!(ceremonies.take(&id, t0), None, "used once");
        let late = ceremonies.start(8, t0).expect("room");
        assert_eq!(ceremonies.take(&late, t0 + CEREMONY_TTL), None, "expired");
        for i in 0..MAX_CEREMONIES {
            assert!(ceremonies.start(i as u32, t0).is_some());
        }
        assert_eq!(ceremonies.start(0, t0), None, "full of live ones");
        assert_eq!(ceremonies.len(), MAX_CEREMONIES);
        // Once they have expired, a new one pushes them out.
        assert!(ceremonies.start(0, t0 + CEREMONY_TTL).is_some());
        assert_eq!(ceremonies.len(), 1);
    }

    #[test]
    fn an_account_keeps_a_few_registrations_waiting_its_oldest_dropped() {
        let ceremonies = Ceremonies::<u32>::default();
        let t0 = Instant::now();
        let ids: Vec<String> = (0..5)
            .map(|i| {
                let at = t0 + Duration::from_millis(i);
                ceremonies.start_owned("u-a", i as u32, at).expect("room")
            })
            .collect();
        let other = ceremonies.start_owned("u-b", 9, t0).expect("room");
        assert_eq!(ceremonies.len(), WAITING_PER_ACCOUNT + 1);
        assert_eq!(ceremonies.take(&ids[0], t0), None, "dropped");
        assert_eq!(ceremonies.take(&ids[1], t0), None, "dropped");
        assert_eq!(ceremonies.take(&ids[4], t0), Some(4));
        assert_eq!(ceremonies.take(&other, t0), Some(9), "another's untouched");
    }

    #[test]
    fn the_relying_party_is_the_origin_and_its_host() {
        assert!(relying_party("http://localhost:8080").is_ok());
        assert!(relying_party("https://burraco.example").is_ok());
        assert!(relying_party("not a url").is_err());
        assert!(
            relying_party("http://127.0.0.1:8080").is_err(),
            "no host name"
        );
        assert!(
            check_origin("http://127.0.0.1:8080").is_ok(),
            "served, passkeys off"
        );
        assert!(check_origin("https://burraco.example").is_ok());
        assert!(check_origin("not a url").is_err());
        assert!(check_origin("ftp://burraco.example").is_err());
        assert_eq!(user_handle("u-1"), user_handle("u-1"));
        assert_ne!(user_handle("u-1"), user_handle("u-2"));
    }
}
