//! Operations endpoints: liveness, readiness and Prometheus metrics.

use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use serde_json::json;

pub fn routes() -> Router<AppState> {
    Router::new().route("/healthz", get(healthz)).route("/readyz", get(readyz)).route("/metrics", get(metrics))
}

/// The process is up and serving.
async fn healthz() -> &'static str {
    "ok"
}

/// The process can do its work: the database and the coordination store answer.
async fn readyz(State(state): State<AppState>) -> Response {
    let db = state.db().ping().await;
    let coord = state.coord().ping().await;
    if let Err(e) = &db {
        tracing::warn!(error = %e, "readiness: database unreachable");
    }
    if let Err(e) = &coord {
        tracing::warn!(error = %e, "readiness: coordination store unreachable");
    }
    let ready = db.is_ok() && coord.is_ok();
    let body = json!({
        "status": if ready { "ok" } else { "unavailable" },
        "checks": {
            "database": { "backend": state.db().backend().name(), "ok": db.is_ok() },
            "coordination": { "backend": state.coord().kind(), "ok": coord.is_ok() },
        },
    });
    let status = if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(body)).into_response()
}

async fn metrics(State(state): State<AppState>) -> Response {
    let text = state.metrics().render(state.db().pool_stats());
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response()
}
