//! The back office's server side (issue 22): operator accounts with mandatory TOTP, roles and
//! permissions, an append-only audit trail, and the `/backoffice/api/...` resources the console
//! (the client build's second entry, `dist/backoffice.html`) reads and changes. The contract
//! between this API and the console is README.md's "Back office" section.
//!
//! Design:
//! - **Who is calling** is [`Staff`], an extractor: the operator of a live `croupier_operator`
//!   session (cookie on `Path=/backoffice`, HttpOnly, SameSite=Strict; the table keeps only the
//!   token's SHA-256; 30 minutes idle, 12 hours at most), or the automation bearer token
//!   (`CROUPIER_ADMIN_TOKEN`, role `automation`: every permission but `operators.manage`).
//! - **Permissions** are per action ([`PERMISSIONS`], [`Role::permissions`]); [`Staff::require`]
//!   refuses with 403 and writes the refusal to the trail, so every denied attempt is recorded.
//! - **The trail** (`operator_audit`) is append-only: triggers on both databases refuse UPDATE,
//!   DELETE (and TRUNCATE on PostgreSQL), and no route edits it. A change and its audit row are
//!   written in one transaction: where a feature function owns the transaction (bans,
//!   verification, the maintenance switch, withdrawal payouts and rejections, sportsbook
//!   markets) it takes the [`trail::Actor`] (or [`Decided`]) and writes the row in it. The
//!   `/admin` routers mounted again under the console ([`admin_mount`]) get a generic row from
//!   the gate after a success, unless the handler marked its answer [`trail::Audited`] (it wrote
//!   its own): one action, one row.
//! - **Errors** are the project's envelope in the operator's language; validation answers 400
//!   (the console maps `error_data` to form fields), state conflicts 409 with the current state.
//! - **Four eyes**: a balance correction or a withdrawal approval at or above its currency's
//!   limit (`CROUPIER_FOUR_EYES_LIMITS` per currency, `CROUPIER_FOUR_EYES_MINOR` for the others,
//!   both in minor units) needs a second, different operator (see [`money`]).
//! - POSTs are same-origin only (like the player API); the bearer token is not a browser's.

pub mod auth;
pub mod content;
mod lists;
pub(crate) mod money;
pub mod operators;
mod players;
mod reports;
pub mod totp;
pub mod trail;

pub use auth::{Role, Staff};
pub use money::Decided;

use crate::AppState;
use crate::api::ApiError;
use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use croupier_shared::{ErrorType, FieldCode, Locale};
use serde::Serialize;

/// Every permission, in the order the README's table lists them.
pub const PERMISSIONS: [&str; 17] = [
    "players.read",
    "players.ban",
    "players.notes",
    "players.sessions",
    "balance.correct",
    "balance.approve",
    "withdrawals.read",
    "withdrawals.decide",
    "deposits.read",
    "rounds.read",
    "campaigns.manage",
    "content.manage",
    "sportsbook.manage",
    "reports.read",
    "audit.read",
    "operators.manage",
    "system.manage",
];

/// The routes under `/backoffice/api` (the console's pages are served by `web`).
pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{MethodRouter, delete, get, post};
    let table: Vec<(&str, MethodRouter<AppState>)> = vec![
        ("/session", get(auth::current).post(auth::sign_in).delete(auth::sign_out)),
        ("/session/enrol", post(auth::enrol)),
        ("/operators", get(operators::list).post(operators::create)),
        ("/operators/{id}", get(operators::show).put(operators::update)),
        ("/operators/{id}/reset-totp", post(operators::reset_totp)),
        ("/players", get(players::list)),
        ("/players/export.csv", get(players::export)),
        ("/players/{id}", get(players::show)),
        ("/players/{id}/ban", post(players::ban)),
        ("/players/{id}/unban", post(players::unban)),
        ("/players/{id}/sessions/end", post(players::end_sessions)),
        ("/sessions", get(players::sessions)),
        ("/sessions/{id}", delete(players::end_session)),
        ("/notes", get(players::notes).post(players::add_note)),
        ("/ledger", get(players::ledger)),
        ("/ledger/export.csv", get(players::ledger_export)),
        ("/deposits", get(players::deposits)),
        ("/deposits/export.csv", get(players::deposits_export)),
        ("/rounds", get(players::rounds)),
        ("/rounds/export.csv", get(players::rounds_export)),
        ("/bonuses", get(players::bonuses)),
        ("/refusals", get(players::refusals)),
        ("/withdrawals", get(money::withdrawals)),
        ("/withdrawals/export.csv", get(money::withdrawals_export)),
        ("/withdrawals/bulk-approve", post(money::bulk_approve)),
        ("/withdrawals/{id}", get(money::withdrawal)),
        ("/withdrawals/{id}/{action}", post(money::transition)),
        ("/corrections", get(money::corrections).post(money::create_correction)),
        ("/corrections/export.csv", get(money::corrections_export)),
        ("/corrections/{id}", get(money::correction)),
        ("/corrections/{id}/{action}", post(money::decide_correction)),
        ("/audit", get(trail::list)),
        ("/audit/export.csv", get(trail::export)),
        ("/audit/{id}", get(trail::show)),
        ("/reports/summary", get(reports::summary)),
        ("/reports/summary.csv", get(reports::summary_csv)),
        ("/system", get(reports::system)),
        ("/system/maintenance", post(reports::maintenance)),
    ];
    table.into_iter().fold(axum::Router::new(), |router, (path, method)| router.route(&format!("{API}{path}"), method))
}

/// Where the API lives (the operator cookie's `Path=/backoffice` covers it).
pub const API: &str = "/backoffice/api";

/// The feature routers of `/admin/...` mounted again under `/backoffice/api` (so
/// `/backoffice/api/admin/campaigns` …), behind [`reports::admin_gate`]: `permission`, an audit
/// row per change and per refusal, then the `/admin` handler itself with an
/// [`crate::api::OperatorGrant`].
pub fn admin_mount(admin: axum::Router<AppState>, state: AppState, permission: &'static str) -> axum::Router<AppState> {
    axum::Router::new()
        .nest(API, admin)
        .layer(axum::middleware::from_fn_with_state((state, permission), reports::admin_gate))
}

/// An unknown `/backoffice/api/...` path: the envelope's 404, never the console's page.
pub async fn not_found() -> Response {
    ApiError::new(ErrorType::MethodNotFoundException).into_response()
}

/// The answer of a handler: `Ok` as is, an error rendered in `locale` (validation as 400).
pub fn answer(locale: Locale, result: Result<Response, ApiError>) -> Response {
    match result {
        Ok(response) => response,
        Err(e) => {
            let e =
                if e.status() == StatusCode::UNPROCESSABLE_ENTITY { e.with_status(StatusCode::BAD_REQUEST) } else { e };
            e.render(locale)
        }
    }
}

/// An object answer.
pub fn json<T: Serialize>(value: &T) -> Response {
    Json(value).into_response()
}

/// A 201 answer.
pub fn created<T: Serialize>(value: &T) -> Response {
    (StatusCode::CREATED, Json(value)).into_response()
}

/// A CSV download.
pub fn csv(name: &str, body: String) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}.csv\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

/// A validation failure of one field (400 once answered).
pub fn bad(field: &str, code: FieldCode) -> ApiError {
    ApiError::field(field, code)
}

/// The project's not-found answer for `what` (404).
pub fn missing(what: &str) -> ApiError {
    ApiError::field(what, FieldCode::NotFound).with_status(StatusCode::NOT_FOUND)
}

/// A state conflict (409) naming the current state.
pub fn conflict(state: &str) -> ApiError {
    ApiError::new(ErrorType::AccessDeniedException)
        .with_status(StatusCode::CONFLICT)
        .with_data("state", serde_json::json!([state]))
}

/// The `reason` every mutation carries: non-empty, at most 500 characters.
pub fn reason(text: Option<&str>) -> Result<String, ApiError> {
    let text = text.map(str::trim).unwrap_or("");
    if text.is_empty() {
        return Err(bad("reason", FieldCode::Required));
    }
    if text.chars().count() > 500 {
        return Err(ApiError::field_with("reason", FieldCode::MaxLength, vec![("max", "500".into())]));
    }
    Ok(text.to_owned())
}

/// A JSON body, or 400 naming the body.
pub fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let text = if bytes.is_empty() { b"{}".as_slice() } else { bytes };
    serde_json::from_slice(text).map_err(|e| {
        let field = e.to_string().split('`').nth(1).map(str::to_owned).unwrap_or_else(|| "body".to_owned());
        ApiError::bad_request(Some((&field, FieldCode::Invalid))).with_status(StatusCode::BAD_REQUEST)
    })
}

/// The body of a mutation that takes nothing but its `reason`.
#[derive(serde::Deserialize, Default)]
pub struct ReasonBody {
    #[serde(default)]
    pub reason: Option<String>,
}

/// Serializes a stored 0/1 flag as a JSON boolean (`#[serde(serialize_with = "as_bool")]`).
pub fn as_bool<S: serde::Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bool(*v != 0)
}

/// Milliseconds (as stored) to Unix seconds (as answered).
pub fn seconds(ms: i64) -> i64 {
    ms.div_euclid(1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_required_and_bounded() {
        assert!(reason(None).is_err());
        assert!(reason(Some("  ")).is_err());
        assert!(reason(Some(&"x".repeat(501))).is_err());
        assert_eq!(reason(Some(" ok ")).unwrap(), "ok");
    }
}
