//! The edge every state-changing request under `/api` passes (one layer over the whole router,
//! `lib.rs`): a browser says where a request comes from (`Origin`, `Sec-Fetch-Site`), and one
//! from a page of another site is refused `403 origin_refused` before any handler runs, so a
//! form or a script there cannot act with a player's cookie. `SameSite=Lax` alone lets a
//! sibling subdomain's page through (the same *site*), hence the check. A request with neither
//! header (curl, a bot with its token) goes on; so do the server's own pages (`Origin` is
//! `http(s)://` + `Host`), its `--public-origin` and the `--allowed-origin` ones.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::codes::{ApiCode, Refusal};
use super::identity::origin_allowed;

/// The origins besides the server's own whose pages may act.
#[derive(Debug, Clone)]
pub struct Origins {
    allowed: Arc<[String]>,
}

impl Origins {
    /// `--allowed-origin`s and the public origin.
    pub fn new(config: &crate::config::ServerConfig) -> Origins {
        let allowed: Vec<String> = config
            .allowed_origins
            .iter()
            .chain(&config.public_origin)
            .cloned()
            .collect();
        Origins {
            allowed: allowed.into(),
        }
    }
}

/// Whether a request comes from a page of another site: its `Origin` is none of the allowed
/// (`null` included), or without one, its `Sec-Fetch-Site` says `cross-site` or `same-site`.
pub fn foreign(headers: &HeaderMap, allowed: &[String]) -> bool {
    if headers.contains_key(header::ORIGIN) {
        return !origin_allowed(headers, allowed);
    }
    headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|site| {
            let site = site.trim();
            site.eq_ignore_ascii_case("cross-site") || site.eq_ignore_ascii_case("same-site")
        })
}

/// What a request does to the server: anything but reading.
fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The layer: refuses a state-changing `/api` request from a page of another site.
pub async fn guard(State(origins): State<Origins>, request: Request, next: Next) -> Response {
    if changes_state(request.method())
        && request.uri().path().starts_with("/api/")
        && foreign(request.headers(), &origins.allowed)
    {
        return Refusal::from(ApiCode::OriginRefused).into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("burraco.example"));
        for (name, value) in pairs {
            headers.insert(*name, HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn another_sites_page_is_foreign_and_a_program_is_not() {
        let allowed = ["https://friends.example".to_owned()];
        for foreign_page in [
            &[("origin", "https://evil.example")][..],
            &[("origin", "null")],
            &[("origin", "https://sub.burraco.example")],
            &[("sec-fetch-site", "cross-site")],
            &[("sec-fetch-site", "Same-Site")],
            &[
                ("origin", "https://evil.example"),
                ("sec-fetch-site", "same-origin"),
            ],
        ] {
            assert!(
                foreign(&headers(foreign_page), &allowed),
                "{foreign_page:?}"
            );
        }
        for ours in [
            &[][..],
            &[("origin", "https://burraco.example")],
            &[("origin", "http://burraco.example/")],
            &[("origin", "https://friends.example")],
            &[("sec-fetch-site", "same-origin")],
            &[("sec-fetch-site", "none")],
        ] {
            assert!(!foreign(&headers(ours), &allowed), "{ours:?}");
        }
        assert!(changes_state(&Method::POST) && changes_state(&Method::DELETE));
        assert!(!changes_state(&Method::GET) && !changes_state(&Method::HEAD));
    }
}
