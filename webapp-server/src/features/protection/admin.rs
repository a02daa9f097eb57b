//! The operators' side of player protection (bearer token, like the rest of `/admin`; the back
//! office of issue 22 puts its console over these). Every action needs a reason and is recorded
//! in the operators' audit trail (`operator_audit`, [`trail`]) by whoever did it (the operator, the
//! automation token, the CLI), with the values before and after, in the transaction of the
//! change: a change is never committed without its row, nor a row without its change.
//!
//! - `POST /admin/players/{id}/ban` `{"reason", "ban_type"?}` and `/unban` `{"reason"}`: a ban
//!   takes effect on the player's next call, whichever session or device it comes from (each
//!   answers `UserBannedException` with the ban type, and the site shows the blocked page; game
//!   sessions' wallet calls answer `RS_ERROR_USER_DISABLED`, Telegram sign-in is refused). An
//!   unban ends the old sessions, so the player signs in afresh.
//! - `GET /admin/players/{id}/protection`: status, ban, exclusion, limits, verification.
//! - `POST /admin/players/{id}/verification` `{"status", "reason", "kyc_block"?}`: overrides the
//!   verification state (`none`, `pending`, `verified`, `retry`, `rejected`) and the KYC block.
//! - `GET|POST /admin/maintenance` `{"on", "reason"}`: the maintenance switch.
//! - `GET /admin/support/feedback?offset&count`: support messages, newest first.
//! - `GET /admin/security/refusals?offset&count&user_id&ip&action`: the refusals trail
//!   ([`crate::audit`]: wrong passwords, codes and promo codes, limits tripping), newest first.
//!
//! The CLI (`croupier-server admin players ban|unban …`, `admin maintenance on|off …`) calls the
//! same functions.

use super::{Exclusion, kyc};
use crate::AppState;
use crate::api::{ApiError, Operator};
use crate::db::now_ms;
use crate::features::backoffice::Staff;
use crate::features::backoffice::trail::{self, Actor};
use crate::features::bonuses::admin::{answer, body};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use croupier_shared::{ErrorType, FieldCode};
use serde::Deserialize;
use serde_json::{Value, json};

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/admin/players/{id}/ban", post(ban_route))
        .route("/admin/players/{id}/unban", post(unban_route))
        .route("/admin/players/{id}/protection", get(protection_route))
        .route("/admin/maintenance", get(maintenance_get).post(maintenance_set))
        .route("/admin/security/refusals", get(refusals_route))
        .merge(verification_routes())
        .merge(feedback_routes())
}

/// An operator's decision on a player's verification (served to the back office too).
pub fn verification_routes() -> axum::Router<AppState> {
    axum::Router::new().route("/admin/players/{id}/verification", axum::routing::post(verification_route))
}

/// The players' support messages (served to the back office too).
pub fn feedback_routes() -> axum::Router<AppState> {
    axum::Router::new().route("/admin/support/feedback", axum::routing::get(feedback_route))
}

fn reason_of(reason: &str) -> Result<String, ApiError> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(ApiError::field("reason", FieldCode::Required));
    }
    if reason.chars().count() > 500 {
        return Err(ApiError::field("reason", FieldCode::MaxLength));
    }
    Ok(reason.to_owned())
}

/// The audit row of a protection action on `user_id` (a player) or, with none, on the
/// maintenance switch, in the change's transaction.
async fn audit(
    conn: &mut sqlx::AnyConnection,
    by: &Actor,
    action: &str,
    user_id: Option<i64>,
    reason: &str,
    before: Value,
    after: Value,
) -> Result<(), ApiError> {
    let target_id = user_id.map_or_else(|| "maintenance".to_owned(), |id| id.to_string());
    let row = trail::Row {
        action,
        target_type: Some(if user_id.is_some() { "player" } else { "switch" }),
        target_id: Some(&target_id),
        user_id,
        reason: Some(reason),
        before: Some(before),
        after: Some(after),
        ..trail::Row::by(by)
    };
    trail::write(conn, &row).await
}

#[derive(sqlx::FromRow)]
struct BanState {
    status: String,
    ban_type: Option<String>,
    ban_reason: Option<String>,
}

impl BanState {
    fn json(&self) -> Value {
        json!({ "status": self.status, "ban_type": self.ban_type, "ban_reason": self.ban_reason })
    }
}

async fn ban_state(conn: &mut sqlx::AnyConnection, user_id: i64) -> Result<BanState, ApiError> {
    sqlx::query_as("SELECT status, ban_type, ban_reason FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .ok_or_else(|| ApiError::field("user_id", FieldCode::NotFound).with_status(axum::http::StatusCode::NOT_FOUND))
}

/// Bans a player. `ban_type`: lower-case letters and `_` (default `permanent`).
pub async fn ban(
    state: &AppState,
    by: &Actor,
    user_id: i64,
    ban_type: Option<&str>,
    reason: &str,
) -> Result<(), ApiError> {
    let reason = reason_of(reason)?;
    let ban_type = ban_type.map(str::trim).filter(|t| !t.is_empty()).unwrap_or("permanent");
    if ban_type.len() > 30 || !ban_type.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
        return Err(ApiError::field("ban_type", FieldCode::Invalid));
    }
    let db = state.db();
    let mut tx = db.begin().await?;
    db.lock_user(&mut tx, user_id).await?;
    let before = ban_state(&mut tx, user_id).await?;
    if before.status == "deleted" {
        return Err(ApiError::new(ErrorType::UserDeletedException));
    }
    sqlx::query("UPDATE users SET status = 'banned', ban_type = $1, ban_reason = $2, updated_at = $3 WHERE id = $4")
        .bind(ban_type)
        .bind(&reason)
        .bind(now_ms())
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let after = ban_state(&mut tx, user_id).await?;
    audit(&mut tx, by, "players.ban", Some(user_id), &reason, before.json(), after.json()).await?;
    tx.commit().await?;
    state.player_changed(user_id).await;
    tracing::info!(user_id, ban_type, "player banned");
    Ok(())
}

/// Lifts a ban; the player's old sessions end.
pub async fn unban(state: &AppState, by: &Actor, user_id: i64, reason: &str) -> Result<(), ApiError> {
    let reason = reason_of(reason)?;
    let db = state.db();
    let mut tx = db.begin().await?;
    db.lock_user(&mut tx, user_id).await?;
    let before = ban_state(&mut tx, user_id).await?;
    if before.status != "banned" {
        return Err(ApiError::field("user_id", FieldCode::Invalid).with_data("reason", "not_banned"));
    }
    sqlx::query(
        "UPDATE users SET status = 'active', ban_type = NULL, ban_reason = NULL, updated_at = $1 WHERE id = $2",
    )
    .bind(now_ms())
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    crate::session::end_others(&mut tx, user_id, None).await?;
    let after = ban_state(&mut tx, user_id).await?;
    audit(&mut tx, by, "players.unban", Some(user_id), &reason, before.json(), after.json()).await?;
    tx.commit().await?;
    state.player_changed(user_id).await;
    tracing::info!(user_id, "player unbanned");
    Ok(())
}

/// Overrides a player's verification state and, when given, the KYC block.
pub async fn set_verification(
    state: &AppState,
    by: &Actor,
    user_id: i64,
    status: &str,
    kyc_block: Option<bool>,
    reason: &str,
) -> Result<(), ApiError> {
    let reason = reason_of(reason)?;
    if !kyc::STATUSES.contains(&status) {
        return Err(ApiError::field("status", FieldCode::Unsupported));
    }
    let db = state.db();
    let mut tx = db.begin().await?;
    db.lock_user(&mut tx, user_id).await?;
    let (before, block_before): (String, i64) =
        sqlx::query_as("SELECT kyc_status, is_kyc_block_enabled FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| {
                ApiError::field("user_id", FieldCode::NotFound).with_status(axum::http::StatusCode::NOT_FOUND)
            })?;
    kyc::set_status(&mut tx, user_id, status, None).await?;
    if let Some(block) = kyc_block {
        sqlx::query("UPDATE users SET is_kyc_block_enabled = $1 WHERE id = $2")
            .bind(i64::from(block))
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
    }
    let before = json!({ "status": before, "kyc_block": block_before != 0 });
    let after = json!({ "status": status, "kyc_block": kyc_block.unwrap_or(block_before != 0) });
    audit(&mut tx, by, "players.verification", Some(user_id), &reason, before, after).await?;
    tx.commit().await?;
    state.player_changed(user_id).await;
    Ok(())
}

/// Turns maintenance on or off for every replica.
pub async fn set_maintenance(state: &AppState, by: &Actor, on: bool, reason: &str) -> Result<(), ApiError> {
    let reason = reason_of(reason)?;
    let before = state.maintenance().await;
    let mut tx = state.db().begin().await?;
    croupier_platform::switches::Switches::write_maintenance(&mut tx, on, &reason).await?;
    audit(&mut tx, by, "system.maintenance", None, &reason, json!({ "on": before }), json!({ "on": on })).await?;
    tx.commit().await?;
    state.switches().remember(on);
    tracing::warn!(on, "maintenance switched");
    Ok(())
}

#[derive(Deserialize)]
struct BanBody {
    #[serde(default)]
    reason: String,
    #[serde(default)]
    ban_type: Option<String>,
}

async fn ban_route(state: State<AppState>, _: Operator, staff: Staff, id: Path<i64>, bytes: Bytes) -> Response {
    ban_or_unban(state, staff, id, bytes, true).await
}

async fn unban_route(state: State<AppState>, _: Operator, staff: Staff, id: Path<i64>, bytes: Bytes) -> Response {
    ban_or_unban(state, staff, id, bytes, false).await
}

async fn ban_or_unban(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<i64>,
    bytes: Bytes,
    banning: bool,
) -> Response {
    let result = async {
        let input: BanBody = body(&bytes)?;
        let by = Actor::from(&staff);
        if banning {
            ban(&state, &by, id, input.ban_type.as_deref(), &input.reason).await?;
        } else {
            unban(&state, &by, id, &input.reason).await?;
        }
        Ok(json!({ "user_id": id, "status": if banning { "banned" } else { "active" } }))
    }
    .await;
    answer(result)
}

#[derive(Deserialize)]
struct VerificationBody {
    #[serde(default)]
    status: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    kyc_block: Option<bool>,
}

async fn verification_route(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path(id): Path<i64>,
    bytes: Bytes,
) -> Response {
    let result = async {
        let input: VerificationBody = body(&bytes)?;
        set_verification(&state, &Actor::from(&staff), id, &input.status, input.kyc_block, &input.reason).await?;
        Ok(json!({ "user_id": id, "status": input.status }))
    }
    .await;
    // The change wrote its own audit row in its transaction.
    trail::audited(answer(result))
}

#[derive(sqlx::FromRow)]
struct ProtectionRow {
    status: String,
    ban_type: Option<String>,
    ban_reason: Option<String>,
    blocked_until: Option<i64>,
    blocked_kind: Option<String>,
    reality_check_minutes: Option<i64>,
    kyc_status: String,
    kyc_comment: Option<String>,
    is_kyc_block_enabled: i64,
}

#[derive(sqlx::FromRow)]
struct ApplicantRow {
    applicant_id: Option<String>,
    review_answer: Option<String>,
    reject_type: Option<String>,
    internal_comment: Option<String>,
}

#[derive(sqlx::FromRow)]
struct LimitRow {
    kind: String,
    period: String,
    amount: Option<i64>,
    pending_amount: Option<i64>,
    pending_from: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct FeedbackRow {
    id: i64,
    user_id: Option<i64>,
    email: String,
    name: String,
    message: String,
    locale: String,
    created_at: i64,
    emailed_at: Option<i64>,
}

async fn protection_route(State(state): State<AppState>, _: Operator, Path(id): Path<i64>) -> Response {
    let result = async {
        let pool = state.db().pool();
        let row: ProtectionRow = sqlx::query_as(
            "SELECT status, ban_type, ban_reason, blocked_until, blocked_kind, reality_check_minutes, kyc_status, kyc_comment, \
             is_kyc_block_enabled FROM users WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| ApiError::field("user_id", FieldCode::NotFound).with_status(axum::http::StatusCode::NOT_FOUND))?;
        let applicant: Option<ApplicantRow> = sqlx::query_as(
            "SELECT applicant_id, review_answer, reject_type, internal_comment FROM kyc_applicants WHERE user_id = $1",
        )
        .bind(id)
        .fetch_optional(pool)
        .await?;
        let limits: Vec<LimitRow> = sqlx::query_as(
            "SELECT kind, period, amount, pending_amount, pending_from FROM rg_limits WHERE user_id = $1 ORDER BY kind, period",
        )
        .bind(id)
        .fetch_all(pool)
        .await?;
        let exclusions: Vec<(String, i64, i64)> =
            sqlx::query_as("SELECT kind, starts_at, ends_at FROM exclusions WHERE user_id = $1 ORDER BY id DESC LIMIT 20")
                .bind(id)
                .fetch_all(pool)
                .await?;
        Ok(json!({
            "user_id": id,
            "status": row.status,
            "ban": { "type": row.ban_type, "reason": row.ban_reason },
            "exclusion": Exclusion::in_force(row.blocked_until, row.blocked_kind.as_deref(), now_ms()),
            "exclusions": exclusions.iter().map(|(k, s, e)| json!({ "kind": k, "starts_at": s / 1000, "ends_at": e / 1000 })).collect::<Vec<_>>(),
            "reality_check_minutes": row.reality_check_minutes,
            "limits": limits.iter().map(|l| json!({ "kind": l.kind, "period": l.period, "amount": l.amount, "pending_amount": l.pending_amount, "pending_from": l.pending_from.map(|ms| ms / 1000) })).collect::<Vec<_>>(),
            "verification": {
                "status": row.kyc_status,
                "comment": row.kyc_comment,
                "kyc_block": row.is_kyc_block_enabled != 0,
                "applicant_id": applicant.as_ref().and_then(|a| a.applicant_id.clone()),
                "review_answer": applicant.as_ref().and_then(|a| a.review_answer.clone()),
                "reject_type": applicant.as_ref().and_then(|a| a.reject_type.clone()),
                "internal_comment": applicant.as_ref().and_then(|a| a.internal_comment.clone()),
            },
        }))
    }
    .await;
    answer(result)
}

async fn maintenance_get(State(state): State<AppState>, _: Operator) -> Response {
    let on = state.maintenance().await;
    answer(Ok(json!({ "on": on, "forced_by_configuration": state.switches().forced() })))
}

#[derive(Deserialize)]
struct MaintenanceBody {
    on: bool,
    #[serde(default)]
    reason: String,
}

async fn maintenance_set(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let input: MaintenanceBody = body(&bytes)?;
        set_maintenance(&state, &Actor::from(&staff), input.on, &input.reason).await?;
        Ok(json!({ "on": state.maintenance().await, "forced_by_configuration": state.switches().forced() }))
    }
    .await;
    answer(result)
}

#[derive(Deserialize)]
struct Paging {
    #[serde(default)]
    offset: Option<i64>,
    #[serde(default)]
    count: Option<i64>,
}

async fn feedback_route(State(state): State<AppState>, _: Operator, Query(paging): Query<Paging>) -> Response {
    let result = async {
        let offset = paging.offset.unwrap_or(0).max(0);
        let count = paging.count.unwrap_or(50).clamp(1, 200);
        let rows: Vec<FeedbackRow> = sqlx::query_as(
            "SELECT id, user_id, email, name, message, locale, created_at, emailed_at FROM support_feedback \
             ORDER BY id DESC LIMIT $1 OFFSET $2",
        )
        .bind(count)
        .bind(offset)
        .fetch_all(state.db().pool())
        .await?;
        let items: Vec<_> = rows
            .into_iter()
            .map(|f| {
                json!({ "id": f.id, "user_id": f.user_id, "email": f.email, "name": f.name, "message": f.message, "locale": f.locale,
                        "created_at": f.created_at / 1000, "emailed_at": f.emailed_at.map(|ms| ms / 1000) })
            })
            .collect();
        Ok(json!({ "items": items }))
    }
    .await;
    answer(result)
}

#[derive(Deserialize)]
struct RefusalFilter {
    #[serde(default)]
    offset: Option<i64>,
    #[serde(default)]
    count: Option<i64>,
    #[serde(default)]
    user_id: Option<i64>,
    #[serde(default)]
    ip: Option<String>,
    #[serde(default)]
    action: Option<String>,
}

#[derive(sqlx::FromRow)]
struct RefusalRow {
    id: i64,
    action: String,
    reason: String,
    subject: Option<String>,
    user_id: Option<i64>,
    ip: Option<String>,
    created_at: i64,
}

async fn refusals_route(State(state): State<AppState>, _: Operator, Query(filter): Query<RefusalFilter>) -> Response {
    let result = async {
        let offset = filter.offset.unwrap_or(0).max(0);
        let count = filter.count.unwrap_or(50).clamp(1, 500);
        let ip = filter.ip.as_deref().map(str::trim).filter(|ip| !ip.is_empty());
        if ip.is_some_and(|ip| ip.parse::<std::net::IpAddr>().is_err()) {
            return Err(ApiError::field("ip", FieldCode::Invalid));
        }
        let action = filter.action.as_deref().map(str::trim).filter(|a| !a.is_empty());
        // Only the filters given become conditions, each bound in order.
        let mut conditions = Vec::new();
        if filter.user_id.is_some() {
            conditions.push(format!("user_id = ${}", conditions.len() + 1));
        }
        if ip.is_some() {
            conditions.push(format!("ip = ${}", conditions.len() + 1));
        }
        if action.is_some() {
            conditions.push(format!("action = ${}", conditions.len() + 1));
        }
        let filter_sql =
            if conditions.is_empty() { String::new() } else { format!("WHERE {}", conditions.join(" AND ")) };
        let n = conditions.len();
        let sql = format!(
            "SELECT id, action, reason, subject, user_id, ip, created_at FROM security_refusals {filter_sql} \
             ORDER BY id DESC LIMIT ${} OFFSET ${}",
            n + 1,
            n + 2
        );
        // Only fixed condition texts and placeholders are spliced in; every value is bound.
        let mut query = sqlx::query_as::<_, RefusalRow>(sqlx::AssertSqlSafe(sql));
        if let Some(user_id) = filter.user_id {
            query = query.bind(user_id);
        }
        if let Some(ip) = ip {
            query = query.bind(ip);
        }
        if let Some(action) = action {
            query = query.bind(action);
        }
        let rows = query.bind(count).bind(offset).fetch_all(state.db().pool()).await?;
        let items: Vec<_> = rows
            .into_iter()
            .map(|r| {
                json!({ "id": r.id, "action": r.action, "reason": r.reason, "subject": r.subject, "user_id": r.user_id,
                        "ip": r.ip, "created_at": r.created_at / 1000 })
            })
            .collect();
        Ok(json!({ "items": items }))
    }
    .await;
    answer(result)
}
