//! The sandbox feed's clock: an operator (or a test) moves the sandbox's time forward so a match
//! in play now reaches its next minutes, its final whistle and its settlement at once, instead
//! of in real time. Only the sandbox feed has a clock to move; with another feed the call is
//! refused.
//!
//! `POST /admin/sportsbook/sandbox/advance` `{"minutes": 1..=2880, "reason"?}` (the automation
//! token, like the rest of `/admin`): the offset between the real clock and the sandbox's grows
//! by `minutes` (at most 30 days in all), the feed's snapshot at the new time is stored and the
//! bets whose markets changed are settled before the answer, which says
//! `{offset_minutes, feed_time, events_changed, bets_settled}`. `GET` answers the offset.
//!
//! The offset is a site switch (`site_switches.sportsbook_sandbox_offset_ms`), so every replica's
//! feed job reads the same time. Events keep the kick-off times their calendar slots give; moved
//! forward, the sandbox shows as in play (or over) the matches whose slots the moved clock has
//! reached. Each move is an operator action: a row of the operators' audit trail
//! (`operator_audit`, action `sportsbook.sandbox_advance`, the offsets before and after, the
//! reason) written in the move's transaction.

use super::settlement;
use super::store;
use crate::AppState;
use crate::api::{ApiError, Operator};
use crate::db::now_ms;
use crate::features::backoffice::Staff;
use crate::features::backoffice::trail::{self, Actor};
use crate::features::bonuses::admin::{answer, body};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use croupier_shared::FieldCode;
use serde::Deserialize;
use serde_json::json;

/// The switch that holds the offset, in milliseconds.
pub const SWITCH: &str = "sportsbook_sandbox_offset_ms";
const MINUTE: i64 = 60_000;
/// The most one call moves the clock: two days.
const MAX_STEP_MINUTES: i64 = 2 * 24 * 60;
/// The most the sandbox runs ahead of the real clock: 30 days.
const MAX_OFFSET: i64 = 30 * 24 * 60 * MINUTE;

pub fn routes() -> axum::Router<AppState> {
    axum::Router::new().route("/admin/sportsbook/sandbox/advance", axum::routing::get(get_route).post(advance_route))
}

/// The sandbox's offset from the real clock now (0 when never moved).
pub async fn offset(state: &AppState) -> Result<i64, sqlx::Error> {
    let value: Option<String> = sqlx::query_scalar("SELECT value FROM site_switches WHERE name = $1")
        .bind(SWITCH)
        .fetch_optional(state.db().pool())
        .await?;
    Ok(value.and_then(|v| v.parse().ok()).unwrap_or(0))
}

/// What a move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Advanced {
    pub offset_ms: i64,
    pub events_changed: usize,
    pub bets_settled: usize,
}

/// Moves the sandbox's clock `minutes` forward, stores the feed's snapshot at the new time and
/// settles what it changed.
pub async fn advance(state: &AppState, by: &Actor, minutes: i64, reason: &str) -> Result<Advanced, ApiError> {
    if state.config().sportsbook.feed != "sandbox" {
        return Err(ApiError::field("feed", FieldCode::Invalid)
            .with_data("reason", "not_sandbox")
            .with_status(StatusCode::CONFLICT));
    }
    if !(1..=MAX_STEP_MINUTES).contains(&minutes) {
        return Err(ApiError::field("minutes", FieldCode::Invalid).with_data("max", MAX_STEP_MINUTES));
    }
    let reason = reason.trim();
    if reason.chars().count() > 500 {
        return Err(ApiError::field("reason", FieldCode::MaxLength));
    }
    let db = state.db();
    let mut tx = db.begin().await?;
    let current: Option<String> = sqlx::query_scalar("SELECT value FROM site_switches WHERE name = $1")
        .bind(SWITCH)
        .fetch_optional(&mut *tx)
        .await?;
    let before = current.as_deref().and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
    let after = before.saturating_add(minutes * MINUTE);
    if after > MAX_OFFSET {
        return Err(ApiError::field("minutes", FieldCode::Invalid).with_data("max_offset_minutes", MAX_OFFSET / MINUTE));
    }
    // Compare-and-set: of two moves at once, the second fails instead of losing the first.
    let written = match current {
        Some(ref value) => {
            sqlx::query("UPDATE site_switches SET value = $1, reason = $2, updated_at = $3 WHERE name = $4 AND value = $5")
                .bind(after.to_string())
                .bind(reason)
                .bind(now_ms())
                .bind(SWITCH)
                .bind(value)
                .execute(&mut *tx)
                .await?
                .rows_affected()
        }
        None => {
            sqlx::query(
                "INSERT INTO site_switches (name, value, reason, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING",
            )
            .bind(SWITCH)
            .bind(after.to_string())
            .bind(reason)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?
            .rows_affected()
        }
    };
    if written != 1 {
        return Err(ApiError::field("minutes", FieldCode::Invalid)
            .with_data("reason", "moved_concurrently")
            .with_status(StatusCode::CONFLICT));
    }
    let row = trail::Row {
        action: "sportsbook.sandbox_advance",
        target_type: Some("switch"),
        target_id: Some(SWITCH),
        reason: Some(reason).filter(|r| !r.is_empty()),
        before: Some(json!({ "offset_ms": before })),
        after: Some(json!({ "offset_ms": after, "minutes": minutes })),
        ..trail::Row::by(by)
    };
    trail::write(&mut *tx, &row).await?;
    tx.commit().await?;
    tracing::info!(minutes, offset_ms = after, "sportsbook sandbox clock moved");
    let events_changed = store::run_at(state, now_ms()).await.map_err(ApiError::internal)?;
    let bets_settled = settlement::settle_dirty(state).await.map_err(ApiError::internal)?;
    Ok(Advanced { offset_ms: after, events_changed, bets_settled })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AdvanceBody {
    minutes: i64,
    #[serde(default)]
    reason: String,
}

async fn advance_route(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let input: AdvanceBody = body(&bytes)?;
        let done = advance(&state, &Actor::from(&staff), input.minutes, &input.reason).await?;
        Ok(json!({
            "offset_minutes": done.offset_ms / MINUTE,
            "feed_time": (now_ms() + done.offset_ms) / 1000,
            "events_changed": done.events_changed,
            "bets_settled": done.bets_settled,
        }))
    }
    .await;
    answer(result)
}

async fn get_route(State(state): State<AppState>, _: Operator) -> Response {
    let result = async {
        let offset_ms = offset(&state).await?;
        Ok(json!({
            "feed": state.config().sportsbook.feed,
            "offset_minutes": offset_ms / MINUTE,
            "feed_time": (now_ms() + offset_ms) / 1000,
        }))
    }
    .await;
    answer(result)
}
