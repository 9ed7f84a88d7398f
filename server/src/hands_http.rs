//! `GET /api/tables/{id}/hands` and `GET /api/players/{name}/hands`: arrays of hand records
//! (docs/HAND_RECORD.md), leaving out the records of duplicate boards still being played at
//! other tables. Refusals are [`HandsApiCode`]s, as JSON.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;

use crate::Shared;
use crate::api_edge::{Malformed, Path};
use crate::port::PortError;

/// Every refusal of the hand records' endpoints, answered `{"code", "message"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HandsApiCode {
    /// A path that does not read (not UTF-8 once percent-decoded). An id or name nobody played
    /// under is no refusal: its list is empty.
    BadPath,
    /// The records cannot be read now.
    RecordsUnavailable,
}

impl HandsApiCode {
    pub fn status(self) -> StatusCode {
        match self {
            HandsApiCode::BadPath => StatusCode::BAD_REQUEST,
            HandsApiCode::RecordsUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn message(self) -> &'static str {
        match self {
            HandsApiCode::BadPath => "a path that does not read",
            HandsApiCode::RecordsUnavailable => "the hand records cannot be read now",
        }
    }
}

impl IntoResponse for HandsApiCode {
    fn into_response(self) -> Response {
        (
            self.status(),
            axum::Json(json!({"code": self, "message": self.message()})),
        )
            .into_response()
    }
}

impl From<Malformed> for HandsApiCode {
    fn from(_: Malformed) -> HandsApiCode {
        HandsApiCode::BadPath
    }
}

impl From<PortError> for HandsApiCode {
    fn from(e: PortError) -> HandsApiCode {
        tracing::warn!("hand records: {e}");
        HandsApiCode::RecordsUnavailable
    }
}

fn json_array(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

pub async fn of_table(
    State(shared): State<Arc<Shared>>,
    Path(id, _): Path<String, HandsApiCode>,
) -> Result<Response, HandsApiCode> {
    let records = shared.backplane.records.of_table(&id).await?;
    Ok(json_array(shared.tournaments.hide_embargoed(records).await))
}

pub async fn of_player(
    State(shared): State<Arc<Shared>>,
    Path(name, _): Path<String, HandsApiCode>,
) -> Result<Response, HandsApiCode> {
    let records = shared.backplane.records.of_player(&name).await?;
    Ok(json_array(shared.tournaments.hide_embargoed(records).await))
}
