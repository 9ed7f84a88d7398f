//! The browser client (`web/`), embedded in the binary at compile time by `build.rs`, served at
//! `/`: one command runs everything, no build step, no files to deploy beside the binary.
//!
//! A request is only ever a lookup in the generated table: a path that is not exactly one of the
//! embedded files (`..`, an absolute path, an encoded slash) is a 404, never a file system read.
//! Every response carries a content ETag; `Cache-Control: no-cache` makes browsers revalidate
//! (a cheap 304) so a new server version never leaves a stale client in a cache.

use axum::body::Body;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// One embedded file.
#[derive(Debug)]
pub struct Asset {
    /// Relative to `web/`, `/`-separated: `index.html`, `js/app.js`.
    pub path: &'static str,
    pub bytes: &'static [u8],
    pub content_type: &'static str,
    /// A quoted content hash.
    pub etag: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The embedded file at `path` (relative to `web/`), if any.
pub fn get(path: &str) -> Option<&'static Asset> {
    ASSETS
        .binary_search_by(|a| a.path.cmp(path))
        .ok()
        .map(|i| &ASSETS[i])
}

/// `GET /` is `index.html`; `GET /<path>` is that file; anything else is a 404.
pub async fn serve(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let Some(asset) = get(path) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == asset.etag));
    let common = [
        (header::ETAG, asset.etag),
        (header::CACHE_CONTROL, "no-cache"),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    let body = if method == Method::HEAD {
        Body::empty()
    } else {
        Body::from(asset.bytes)
    };
    (
        common,
        [
            (header::CONTENT_TYPE, asset.content_type),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}
