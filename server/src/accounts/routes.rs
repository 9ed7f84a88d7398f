//! The accounts' routes: every endpoint of `http.rs` (accounts and sessions), `tokens_http.rs`
//! (bot accounts and personal tokens) and `passkeys.rs`, over one shared [`Api`]. Apart from the
//! handlers so that none of their modules needs another's.

use std::sync::Arc;

use axum::Router;
use axum::routing::{delete, get, post};

use super::http::{self, Api};
use super::live::LiveSignIns;
use super::{Accounts, passkeys, tokens_http};
use crate::config::ServerConfig;

/// The accounts' routes, merged into the server's router: over the accounts' store, this node's
/// live tokens (a revoke closes their connections) and the settings they read.
pub fn routes(
    accounts: Arc<dyn Accounts>,
    sign_ins: Arc<LiveSignIns>,
    config: &ServerConfig,
) -> Router {
    let api = Arc::new(Api::new(accounts, sign_ins, config));
    Router::new()
        .route("/api/signup", post(http::signup))
        .route("/api/login", post(http::login))
        .route("/api/logout", post(http::logout))
        .route("/api/logout/everywhere", post(http::logout_everywhere))
        .route("/api/me", get(http::me))
        .route("/api/password", post(http::change_password))
        .route("/api/sessions", get(http::sessions))
        .route("/api/sessions/{id}", delete(http::revoke))
        .route("/api/account/bot", post(tokens_http::become_bot))
        .route("/api/account", get(tokens_http::account))
        .route(
            "/api/tokens",
            post(tokens_http::create).get(tokens_http::list),
        )
        .route("/api/tokens/{id}", delete(tokens_http::revoke))
        // passkeys, audit and administration
        .route("/api/passkeys", get(passkeys::list))
        .route("/api/passkeys/{id}", delete(passkeys::remove))
        .route(
            "/api/passkeys/register/start",
            post(passkeys::register_start),
        )
        .route(
            "/api/passkeys/register/finish",
            post(passkeys::register_finish),
        )
        .route("/api/passkeys/login/start", post(passkeys::login_start))
        .route("/api/passkeys/login/finish", post(passkeys::login_finish))
        .route("/api/account/audit", get(http::own_audit))
        .with_state(api)
}
