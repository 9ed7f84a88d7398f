//! `GET /api/tournaments` (the tournaments this process serves, finished ones included, and in
//! cluster mode those the other nodes list) and
//! `GET /api/tournaments/{id}` (the tournament record, read from the log: docs/TOURNAMENT_RECORD.md).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use burraco_protocol::tournament_log::is_tournament;
use serde_json::json;

use crate::Shared;

pub async fn list(State(shared): State<Arc<Shared>>) -> Response {
    let mut all: Vec<(String, super::Summary)> = shared
        .tournaments
        .all()
        .iter()
        .map(|h| (h.id().to_owned(), h.summary()))
        .collect();
    // The other nodes' too, as they list them.
    match shared.backplane.tournament_listings.listed().await {
        Ok(listed) => {
            for (id, summary) in listed {
                if !all.iter().any(|(known, _)| *known == id) {
                    all.push((id, summary));
                }
            }
        }
        Err(e) => tracing::warn!("cannot read the tournament listings: {e}"),
    }
    all.sort_by(|a, b| a.0.cmp(&b.0));
    let list: Vec<_> = all
        .into_iter()
        .map(|(id, s)| {
            json!({
                "tournament": id,
                "name": s.name,
                "kind": s.kind,
                "status": s.status,
                "entrants": s.entrants,
                "round": s.round,
                "rounds": s.rounds,
            })
        })
        .collect();
    json_response(json!(list).to_string())
}

pub async fn record(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> Response {
    if !is_tournament(&id) {
        return (StatusCode::NOT_FOUND, "no such tournament").into_response();
    }
    let log = match shared.backplane.log.load(&id).await {
        Ok(log) => log,
        Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    };
    match super::record::from_log(&id, &log) {
        Some(record) => json_response(record.to_json()),
        None => (StatusCode::NOT_FOUND, "no such tournament").into_response(),
    }
}

fn json_response(json: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}
