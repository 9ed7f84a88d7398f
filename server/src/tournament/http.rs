//! `GET /api/tournaments` (the tournaments this process serves, finished ones included) and
//! `GET /api/tournaments/{id}` (the tournament record, read from the log: docs/TOURNAMENT_RECORD.md).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use burraco_protocol::tournament_log::is_tournament;
use serde_json::json;

use crate::Shared;

pub async fn list(State(shared): State<Arc<Shared>>) -> Response {
    let list: Vec<_> = shared
        .tournaments
        .all()
        .iter()
        .map(|h| {
            let s = h.summary();
            json!({
                "tournament": h.id(),
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
    let log = match shared.log.load(&id).await {
        Ok(log) => log,
        Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    };
    match super::record::from_log(&id, &log) {
        Some(record) => json_response(record.to_string()),
        None => (StatusCode::NOT_FOUND, "no such tournament").into_response(),
    }
}

fn json_response(json: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}
