//! Identity verification (KYC) through the provider port (`ports::kyc`: Sumsub or the sandbox).
//!
//! The player's state is `users.kyc_status` — `none`, `pending` (documents with the reviewer),
//! `verified`, `retry` (rejected, may resubmit: the moderation comment is shown) or `rejected`
//! (final) — mirrored into SPEC's flags `is_verified` and `is_on_verification`.
//!
//! - `verification.createApplicant` creates the player's applicant (external user id
//!   `cr-{user id}`), `verification.getAccessToken` (`externalActionId` optional) issues the
//!   WebSDK token (and, with the sandbox, the page to open), `verification.getStatus` answers the
//!   state and the comment, `account.setUserOnVerification` marks the documents sent.
//! - The webhook (`/webhooks/kyc/{provider}`) is checked in `ports::kyc::verify`, recorded once
//!   (the digest names the event: a replay changes nothing) and applied in one transaction only
//!   when newer than the last applied review (`kyc_applicants.last_event_at`), so a GREEN later
//!   turned RED ends RED in whatever order they arrive.
//! - An operator's override (`/admin/players/{id}/verification`, with a reason) sets the state
//!   and the KYC block (`is_kyc_block_enabled`: deposits and withdrawals answer
//!   `SumsubVerificationRequiredException` until verified: `protection::Gate::Kyc`).

use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, One, Registry};
use crate::db::now_ms;
use crate::kyc::{self, AccessToken, DIGEST_ALG_HEADER, DIGEST_HEADER, KycError, ReviewEvent};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use croupier_shared::{ErrorType, FieldCode};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::time::Duration;

pub const STATUSES: [&str; 5] = ["none", "pending", "verified", "retry", "rejected"];

pub fn register(api: &mut Registry) {
    api.write(
        "verification.createApplicant",
        "Creates the player's applicant at the verification provider.",
        create_applicant,
    );
    api.write(
        "verification.getAccessToken",
        "A verification access token (externalActionId optional), and the page to open with the sandbox.",
        access_token,
    );
    api.read("verification.getStatus", "The player's identity verification state and the reviewer's comment.", status);
    api.write("account.setUserOnVerification", "Marks the player's documents as sent for review.", set_on_verification);
}

/// The external user id of a player at the provider.
pub fn external_id(user_id: i64) -> String {
    format!("cr-{user_id}")
}

fn user_of(external_user_id: &str) -> Option<i64> {
    external_user_id.strip_prefix("cr-")?.parse().ok()
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct VerificationStatus {
    /// none, pending, verified, retry or rejected.
    pub status: String,
    /// The reviewer's comment for the player (after a rejection).
    pub comment: Option<String>,
    /// Whether the player may (re)submit documents now.
    pub can_submit: bool,
    /// Whether an operator requires verification before any deposit or withdrawal.
    pub is_kyc_block_enabled: bool,
    /// Whether withdrawals need a verified identity on this site.
    pub required_for_withdrawal: bool,
    pub provider: String,
}

async fn status(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<VerificationStatus, ApiError> {
    let (status, comment, block): (String, Option<String>, i64) =
        sqlx::query_as("SELECT kyc_status, kyc_comment, is_kyc_block_enabled FROM users WHERE id = $1")
            .bind(user.id)
            .fetch_one(ctx.state.db().pool())
            .await?;
    Ok(VerificationStatus {
        can_submit: matches!(status.as_str(), "none" | "retry"),
        comment: if matches!(status.as_str(), "retry" | "rejected") { comment } else { None },
        status,
        is_kyc_block_enabled: block != 0,
        required_for_withdrawal: ctx.state.config().kyc_for_withdrawal,
        provider: ctx.state.kyc().provider().name().to_owned(),
    })
}

fn provider_error(e: KycError) -> ApiError {
    tracing::warn!(error = %e, "verification provider call failed");
    ApiError::new(ErrorType::ApplicationUnavailableException).with_status(StatusCode::BAD_GATEWAY)
}

/// Refuses to start a verification that cannot change anything.
fn check_can_submit(status: &str) -> Result<(), ApiError> {
    match status {
        // `status: LOCKED`: verified already, or documents with the reviewer.
        "verified" | "pending" => Err(ApiError::field("status", FieldCode::Locked)),
        "rejected" => Err(ApiError::new(ErrorType::KycUserProfileException).with_data("status", "rejected")),
        _ => Ok(()),
    }
}

/// The player's applicant, created at the provider on first use.
async fn ensure_applicant(ctx: &Ctx, user_id: i64) -> Result<String, ApiError> {
    let pool = ctx.state.db().pool();
    let existing: Option<Option<String>> =
        sqlx::query_scalar("SELECT applicant_id FROM kyc_applicants WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(pool)
            .await?;
    if let Some(Some(id)) = existing {
        return Ok(id);
    }
    let provider = ctx.state.kyc().provider();
    let external = external_id(user_id);
    let applicant =
        provider.create_applicant(&external, ctx.state.config().kyc.level()).await.map_err(provider_error)?;
    let now = now_ms();
    sqlx::query(
        "INSERT INTO kyc_applicants (user_id, provider, external_user_id, applicant_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (user_id) DO UPDATE SET applicant_id = excluded.applicant_id, \
         provider = excluded.provider, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(provider.name())
    .bind(&external)
    .bind(&applicant)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(applicant)
}

async fn kyc_status(ctx: &Ctx, user_id: i64) -> Result<String, ApiError> {
    Ok(sqlx::query_scalar("SELECT kyc_status FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(ctx.state.db().pool())
        .await?)
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Applicant {
    pub applicant_id: String,
    pub external_user_id: String,
}

async fn create_applicant(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<Applicant, ApiError> {
    ctx.limit("kyc-applicant", &user.id.to_string(), Duration::from_secs(3600), 20).await?;
    check_can_submit(&kyc_status(&ctx, user.id).await?)?;
    let applicant_id = ensure_applicant(&ctx, user.id).await?;
    Ok(Applicant { applicant_id, external_user_id: external_id(user.id) })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TokenInput {
    /// A one-off verification action's id (letters, digits, `-_.:`; up to 100).
    #[serde(default, rename = "externalActionId")]
    #[schemars(pattern(r"^[A-Za-z0-9_.:-]{1,100}$"))]
    pub external_action_id: Option<String>,
}

impl Input for TokenInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if let Some(id) = &self.external_action_id
            && (id.len() > 100 || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b)))
        {
            errors.add("externalActionId", FieldCode::Invalid);
        }
    }
}

async fn access_token(ctx: Ctx, user: AuthUser, input: TokenInput) -> Result<AccessToken, ApiError> {
    ctx.limit("kyc-token", &user.id.to_string(), Duration::from_secs(3600), 20).await?;
    check_can_submit(&kyc_status(&ctx, user.id).await?)?;
    ensure_applicant(&ctx, user.id).await?;
    let action = input.external_action_id.as_deref().filter(|a| !a.is_empty());
    ctx.state
        .kyc()
        .provider()
        .access_token(&external_id(user.id), ctx.state.config().kyc.level(), action)
        .await
        .map_err(provider_error)
}

async fn set_on_verification(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<One, ApiError> {
    // Only from a state where documents can be sent; a verified or finally rejected player stays so.
    sqlx::query(
        "UPDATE users SET is_on_verification = 1, kyc_status = 'pending', updated_at = $1 \
         WHERE id = $2 AND kyc_status IN ('none', 'retry')",
    )
    .bind(now_ms())
    .bind(user.id)
    .execute(ctx.state.db().pool())
    .await?;
    Ok(One)
}

/// Sets a player's verification state (the webhook's and the operator's one write).
pub async fn set_status(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    status: &str,
    comment: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE users SET kyc_status = $1, is_verified = $2, is_on_verification = $3, kyc_comment = $4, updated_at = $5 WHERE id = $6",
    )
    .bind(status)
    .bind(i64::from(status == "verified"))
    .bind(i64::from(status == "pending"))
    .bind(comment)
    .bind(now_ms())
    .bind(user_id)
    .execute(conn)
    .await?;
    crate::hot::touch(user_id);
    Ok(())
}

/// What an event makes of the player's state; `None`: it changes nothing.
fn outcome(event: &ReviewEvent) -> Option<(&'static str, Option<String>)> {
    match event.kind.as_str() {
        "applicantPending" | "applicantOnHold" => Some(("pending", None)),
        "applicantReset" => Some(("none", None)),
        "applicantReviewed" => {
            let result = event.review_result.as_ref()?;
            match (result.review_answer.as_str(), result.review_reject_type.as_deref()) {
                ("GREEN", _) => Some(("verified", None)),
                ("RED", Some("RETRY")) => Some(("retry", result.moderation_comment.clone())),
                ("RED", _) => Some(("rejected", result.moderation_comment.clone())),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `POST /webhooks/kyc/{provider}`: Sumsub's webhook (and the sandbox's, in the same format).
pub async fn webhook(
    State(state): State<AppState>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let provider = state.kyc().provider();
    if provider.name() != name {
        return (StatusCode::NOT_FOUND, Json(json!({"status": "unknown provider"}))).into_response();
    }
    let header = |n: &str| headers.get(n).and_then(|v| v.to_str().ok());
    if let Err(e) = kyc::verify(provider.webhook_secret(), header(DIGEST_ALG_HEADER), header(DIGEST_HEADER), &body) {
        tracing::warn!(provider = name, reason = ?e, "kyc webhook refused");
        return (StatusCode::UNAUTHORIZED, Json(json!({"status": "invalid digest"}))).into_response();
    }
    let Ok(event) = serde_json::from_slice::<ReviewEvent>(&body) else {
        return (StatusCode::BAD_REQUEST, Json(json!({"status": "malformed event"}))).into_response();
    };
    let Some(created) = event.created_ms() else {
        return (StatusCode::BAD_REQUEST, Json(json!({"status": "malformed createdAtMs"}))).into_response();
    };
    match apply(&state, provider.name(), &event, created, &body).await {
        Ok(result) => Json(json!({"status": result})).into_response(),
        // A 5xx makes the provider deliver again later; nothing was half-written.
        Err(e) => e.into_response(),
    }
}

async fn apply(
    state: &AppState,
    provider: &str,
    event: &ReviewEvent,
    created: i64,
    body: &[u8],
) -> Result<&'static str, ApiError> {
    let key = hex::encode(Sha256::digest(body));
    let user_id = user_of(&event.external_user_id);
    let db = state.db();
    let mut tx = db.begin().await?;
    let recorded = sqlx::query(
        "INSERT INTO kyc_events (provider, event_key, user_id, type, created_at_ms, received_at) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (provider, event_key) DO NOTHING",
    )
    .bind(provider)
    .bind(&key)
    .bind(user_id)
    .bind(&event.kind)
    .bind(created)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    if recorded.rows_affected() == 0 {
        return Ok("duplicate");
    }
    let Some(user_id) = user_id else {
        tx.commit().await?;
        tracing::warn!(external_user_id = %event.external_user_id, "kyc webhook for an unknown applicant");
        return Ok("unknown applicant");
    };
    let Some((status, comment)) = outcome(event) else {
        tx.commit().await?;
        return Ok("ignored");
    };
    db.lock_user(&mut tx, user_id).await?;
    let last: Option<i64> = sqlx::query_scalar("SELECT last_event_at FROM kyc_applicants WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(&mut *tx)
        .await?;
    let Some(last) = last else {
        tx.commit().await?;
        tracing::warn!(user_id, "kyc webhook for a player without an applicant");
        return Ok("unknown applicant");
    };
    if created <= last {
        // An older event than the one applied: recorded, changes nothing.
        tx.commit().await?;
        return Ok("stale");
    }
    let internal = event.review_result.as_ref().and_then(|r| r.client_comment.clone());
    sqlx::query(
        "UPDATE kyc_applicants SET last_event_at = $1, review_answer = $2, reject_type = $3, internal_comment = $4, \
         applicant_id = COALESCE(applicant_id, $5), updated_at = $6 WHERE user_id = $7",
    )
    .bind(created)
    .bind(event.review_result.as_ref().map(|r| r.review_answer.clone()))
    .bind(event.review_result.as_ref().and_then(|r| r.review_reject_type.clone()))
    .bind(internal)
    .bind(&event.applicant_id)
    .bind(now_ms())
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    set_status(&mut tx, user_id, status, comment.as_deref()).await?;
    tx.commit().await?;
    tracing::info!(user_id, status, "verification state changed");
    Ok("ok")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kyc::ReviewResult;

    fn reviewed(answer: &str, reject: Option<&str>) -> ReviewEvent {
        ReviewEvent {
            kind: "applicantReviewed".into(),
            applicant_id: "a".into(),
            external_user_id: "cr-7".into(),
            level_name: None,
            review_status: Some("completed".into()),
            review_result: Some(ReviewResult {
                review_answer: answer.into(),
                reject_labels: vec![],
                review_reject_type: reject.map(Into::into),
                moderation_comment: Some("blurred".into()),
                client_comment: Some("internal".into()),
            }),
            created_at_ms: "2024-01-01 00:00:00.000".into(),
        }
    }

    #[test]
    fn reviews_map_to_states_and_never_show_the_internal_comment() {
        assert_eq!(outcome(&reviewed("GREEN", None)), Some(("verified", None)));
        assert_eq!(outcome(&reviewed("RED", Some("RETRY"))), Some(("retry", Some("blurred".into()))));
        assert_eq!(outcome(&reviewed("RED", Some("FINAL"))), Some(("rejected", Some("blurred".into()))));
        assert_eq!(outcome(&reviewed("YELLOW", None)), None);
        assert_eq!(user_of("cr-42"), Some(42));
        assert_eq!(user_of("42"), None);
        assert_eq!(user_of("cr-x"), None);
    }
}
