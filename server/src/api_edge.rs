//! The `/api` routes' edge: a query string or a path that does not parse (`?limit=abc`,
//! `?bots=maybe`, a path segment that is not UTF-8) is refused with the route's own typed JSON
//! error, never axum's plain-text 400. Each route's error enum says what a malformed query and a
//! malformed path mean to it (`From<Malformed>`), and its handler takes [`Query`] and [`Path`]
//! from here instead of axum's:
//!
//! ```ignore
//! async fn player(Path(name, _): Path<String, PlayerApiCode>, Query(page, _): Query<PageQuery, PlayerApiCode>)
//! ```

use std::marker::PhantomData;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::IntoResponse;
use serde::de::DeserializeOwned;

/// What of a request did not parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Malformed {
    /// The query string: a parameter of the wrong type (`?limit=abc`), or not decodable.
    Query,
    /// A path segment: not UTF-8 once percent-decoded, or not of the type the route takes.
    Path,
}

/// axum's `Query<T>`, refused as the route's error `E`.
#[derive(Debug)]
pub struct Query<T, E>(pub T, pub PhantomData<fn() -> E>);

/// axum's `Path<T>`, refused as the route's error `E`.
#[derive(Debug)]
pub struct Path<T, E>(pub T, pub PhantomData<fn() -> E>);

impl<T, E, S> FromRequestParts<S> for Query<T, E>
where
    T: DeserializeOwned,
    E: From<Malformed> + IntoResponse,
    S: Send + Sync,
{
    type Rejection = E;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, E> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Query(value, PhantomData)),
            Err(rejection) => {
                tracing::debug!(uri = %parts.uri, "a malformed query: {}", rejection.body_text());
                Err(E::from(Malformed::Query))
            }
        }
    }
}

impl<T, E, S> FromRequestParts<S> for Path<T, E>
where
    T: DeserializeOwned + Send,
    E: From<Malformed> + IntoResponse,
    S: Send + Sync,
{
    type Rejection = E;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, E> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value, PhantomData)),
            Err(rejection) => {
                tracing::debug!(uri = %parts.uri, "a malformed path: {}", rejection.body_text());
                Err(E::from(Malformed::Path))
            }
        }
    }
}
