//! `GET /api/tournaments` (the tournaments this process serves, finished ones included, and in
//! cluster mode those the other nodes list) and
//! `GET /api/tournaments/{id}` (the tournament record, read from the log: docs/TOURNAMENT_RECORD.md).
//! Refusals are [`TournamentApiCode`]s, as JSON.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use burraco_protocol::tournament_log::is_tournament;
use serde::Serialize;
use serde_json::json;

use crate::Shared;
use crate::api_edge::{Malformed, Path};

/// Every refusal of `GET /api/tournaments/{id}`, answered `{"code", "message"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentApiCode {
    /// Not a tournament's id (`T-...`), one no log holds, or a path that does not read.
    UnknownTournament,
    /// The tournaments' logs cannot be read now.
    TournamentsUnavailable,
}

impl TournamentApiCode {
    pub fn status(self) -> StatusCode {
        match self {
            TournamentApiCode::UnknownTournament => StatusCode::NOT_FOUND,
            TournamentApiCode::TournamentsUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn message(self) -> &'static str {
        match self {
            TournamentApiCode::UnknownTournament => "no such tournament",
            TournamentApiCode::TournamentsUnavailable => "the tournament cannot be read now",
        }
    }
}

impl IntoResponse for TournamentApiCode {
    fn into_response(self) -> Response {
        (
            self.status(),
            axum::Json(json!({"code": self, "message": self.message()})),
        )
            .into_response()
    }
}

/// A path that does not read names no tournament (the route has no query).
impl From<Malformed> for TournamentApiCode {
    fn from(_: Malformed) -> TournamentApiCode {
        TournamentApiCode::UnknownTournament
    }
}

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

pub async fn record(
    State(shared): State<Arc<Shared>>,
    Path(id, _): Path<String, TournamentApiCode>,
) -> Result<Response, TournamentApiCode> {
    if !is_tournament(&id) {
        return Err(TournamentApiCode::UnknownTournament);
    }
    let log = shared.backplane.log.load(&id).await.map_err(|e| {
        tracing::warn!("tournament log {id}: {e}");
        TournamentApiCode::TournamentsUnavailable
    })?;
    let record = super::record::from_log(&id, &log).ok_or(TournamentApiCode::UnknownTournament)?;
    Ok(json_response(record.to_json()))
}

fn json_response(json: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}
