//! Deposits: `cashier.makedeposit` registers the payment with its provider and sends the player
//! to the provider's page; the provider's signed webhook (or the status poll) settles it. The
//! ledger credit carries the key `deposit:{id}`, so a deposit is credited exactly once however
//! many times it is reported.

use super::{PAYMENT_COLUMNS, PaymentInfo, PaymentRow, parse_amount};
use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, Registry};
use crate::db::group::job;
use crate::db::now_ms;
use crate::features::account::store::field_error;
use crate::features::account::{limits, player_currency};
use crate::features::bonuses::{Rules, campaigns, methods as bonus_methods};
use crate::features::notify::{self, Notice};
use crate::ledger::{self, Account, Entry, HouseAccount};
use crate::payments::{self, Outcome, SIGNATURE_HEADER, TIMESTAMP_HEADER, WebhookEvent};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use croupier_shared::{Currency, ErrorType, FieldCode};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::Arc;

pub fn register(api: &mut Registry) {
    api.write("cashier.makedeposit", "Starts a deposit; answers where to pay.", make_deposit);
    api.read("cashier.getdepositinfo", "One of the player's deposits or withdrawals.", deposit_info);
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct DepositInput {
    /// A method of `cashier.getdepositsettings`.
    #[serde(default)]
    #[schemars(extend("x-required" = true), example = &"sandbox_card")]
    pub method: String,
    /// Whole major units (SPEC §5 `sum`), within the method's limits.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(super::WHOLE_AMOUNT), example = &"100")]
    pub amount: String,
    /// An offer's id, `none` or `0` for no bonus; empty: the bonus waiting for a deposit, if any.
    #[serde(default)]
    #[schemars(pattern(r"^\s*(none|[0-9]{1,18})\s*$"))]
    pub campaign_offer_id: String,
    /// The method's fields, as the client collected them.
    #[serde(default)]
    #[schemars(length(max = 2000))]
    pub requisites: String,
}

impl Input for DepositInput {
    fn validate(&self, errors: &mut FieldErrors) {
        super::check_request(&self.method, &self.amount, &self.requisites, errors);
        // An offer's id, or none / 0 for no bonus (empty: the bonus waiting for a deposit, if any).
        let offer = self.campaign_offer_id.trim();
        if !(offer.is_empty() || offer == "none" || (offer.len() <= 18 && offer.bytes().all(|b| b.is_ascii_digit()))) {
            errors.add("campaign_offer_id", FieldCode::Invalid);
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DepositStarted {
    pub id: String,
    pub status: String,
    pub redirect_url: String,
}

async fn make_deposit(ctx: Ctx, user: AuthUser, input: DepositInput) -> Result<DepositStarted, ApiError> {
    let (user_id, currency) = player_currency(&ctx, &user).await?;
    let (provider, m) = ctx
        .state
        .payments()
        .method(&input.method)
        .filter(|(_, m)| m.deposit)
        .ok_or_else(|| field_error("method", FieldCode::Unsupported))?;
    let amount = parse_amount(&input.amount, m, currency)?;
    super::check_bank(provider, m, &input.requisites, currency)?;
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    let db = ctx.state.db();
    let mut tx = db.begin().await?;
    db.lock_user(&mut tx, user_id).await?;
    {
        use crate::features::protection::{Gate, check};
        check(&mut tx, user_id, &[Gate::Exclusion, Gate::Kyc]).await?;
    }
    limits::enforce(&mut tx, user_id, currency, amount.minor(), now).await?;
    let domain = ctx.headers.get(header::HOST).and_then(|h| h.to_str().ok()).map(str::to_owned);
    sqlx::query(
        "INSERT INTO payments (id, user_id, direction, method, provider, amount, currency, status, requisites, \
         campaign_offer_id, domain, created_at, updated_at) VALUES ($1, $2, 'deposit', $3, $4, $5, $6, 'pending', $7, $8, $9, $10, $10)",
    )
    .bind(&id)
    .bind(user_id)
    .bind(m.sysname)
    .bind(provider.name())
    .bind(amount.minor())
    .bind(currency.code())
    .bind(Some(input.requisites.as_str()).filter(|r| !r.is_empty()))
    .bind(Some(input.campaign_offer_id.as_str()).filter(|c| !c.is_empty()))
    .bind(domain)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    let redirect_url = match provider.start_deposit(&id, amount).await {
        Ok(url) => url,
        Err(e) => {
            tracing::warn!(error = %e, payment_id = %id, "the payment provider refused a deposit");
            finish(&ctx.state, &id, Outcome::Fail).await?;
            return Err(ApiError::new(ErrorType::BillingUnavailableException));
        }
    };
    Ok(DepositStarted { id, status: "pending".into(), redirect_url })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct InfoQuery {
    /// The deposit's id, as `cashier.makedeposit` answered it.
    #[serde(default)]
    #[schemars(extend("x-required" = true))]
    pub id: String,
}

impl Input for InfoQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.id.is_empty() {
            errors.add("id", FieldCode::Required);
        }
    }
}

/// Only the owner sees a payment; anyone else gets the same answer as for an unknown id.
async fn deposit_info(ctx: Ctx, user: AuthUser, query: InfoQuery) -> Result<PaymentInfo, ApiError> {
    let user_id = user.id;
    let row: Option<PaymentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PAYMENT_COLUMNS} FROM payments WHERE id = $1 AND user_id = $2"
    )))
    .bind(query.id.trim())
    .bind(user_id)
    .fetch_optional(ctx.state.db().pool())
    .await?;
    row.map(|r| r.info()).ok_or_else(|| field_error("id", FieldCode::NotFound))
}

/// Applies a provider's outcome to a pending deposit: success credits the player (once),
/// fail and cancel close it, pending leaves it open. A finished deposit does not change again.
/// It runs through the group committer on the player's lane (`db::group`), like every other
/// change that moves a player's money in the background, so on PostgreSQL it never waits on
/// another lane's rows; the payment's player is read first to pick the lane.
pub async fn finish(state: &AppState, payment_id: &str, outcome: Outcome) -> Result<(), ApiError> {
    let player: Option<i64> = sqlx::query_scalar("SELECT user_id FROM payments WHERE id = $1")
        .bind(payment_id)
        .fetch_optional(state.db().pool())
        .await?;
    let payment_id = Arc::new(payment_id.to_owned());
    let rules = Rules::of(state);
    state
        .db()
        .group(
            player.unwrap_or(0),
            job(move |conn| {
                let payment_id = Arc::clone(&payment_id);
                Box::pin(async move { finish_in(conn, &payment_id, outcome, &rules).await })
            }),
        )
        .await
}

/// [`finish`] inside the caller's transaction.
async fn finish_in(
    tx: &mut sqlx::AnyConnection,
    payment_id: &str,
    outcome: Outcome,
    rules: &Rules,
) -> Result<(), ApiError> {
    let row: Option<PaymentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PAYMENT_COLUMNS} FROM payments WHERE id = $1 AND direction = 'deposit'"
    )))
    .bind(payment_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else { return Err(field_error("payment_id", FieldCode::NotFound)) };
    if row.status != "pending" || outcome == Outcome::Pending {
        return Ok(());
    }
    let currency = Currency::parse(&row.currency).ok_or_else(|| ApiError::internal(anyhow::anyhow!("bad currency")))?;
    sqlx::query("UPDATE payments SET status = $1, updated_at = $2 WHERE id = $3 AND status = 'pending'")
        .bind(outcome.name())
        .bind(now_ms())
        .bind(payment_id)
        .execute(&mut *tx)
        .await?;
    if outcome == Outcome::Success {
        let key = format!("deposit:{payment_id}");
        let entry = Entry::transfer(
            &key,
            "deposit",
            currency,
            Account::House(HouseAccount::PaymentClearing),
            Account::main(row.user_id),
            row.amount,
        )
        .by(Some(row.user_id))
        .about(Some(payment_id));
        ledger::post(&mut *tx, &entry).await.map_err(ApiError::from)?;
        // The bonus the deposit qualifies for is credited in the same transaction.
        let picked: Option<String> = sqlx::query_scalar("SELECT campaign_offer_id FROM payments WHERE id = $1")
            .bind(payment_id)
            .fetch_one(&mut *tx)
            .await?;
        campaigns::on_deposit(
            &mut *tx,
            rules,
            row.user_id,
            payment_id,
            row.amount,
            currency,
            &row.method,
            picked.as_deref(),
        )
        .await
        .map_err(bonus_methods::refusal)?;
    }
    // The player's Telegram notice, in this same transaction (the outbox, features::notify).
    let fields = || (payment_id.to_owned(), notify::amount(row.amount, currency), currency.code().to_owned());
    let notice = match outcome {
        Outcome::Success => {
            let (payment_id, amount, currency) = fields();
            Some(Notice::DepositSucceeded { payment_id, amount, currency })
        }
        Outcome::Fail => {
            let (payment_id, amount, currency) = fields();
            Some(Notice::DepositFailed { payment_id, amount, currency })
        }
        _ => None,
    };
    if let Some(notice) = notice {
        let key = format!("deposit:{payment_id}:{}", outcome.name());
        notify::enqueue(&mut *tx, row.user_id, &key, &notice).await?;
    }
    tracing::info!(payment_id, outcome = outcome.name(), "deposit finished");
    Ok(())
}

/// `POST /webhooks/payments/{provider}`: a signed event from a payment provider.
pub async fn webhook(
    State(state): State<AppState>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(provider) = state.payments().provider(&name) else {
        return (StatusCode::NOT_FOUND, Json(json!({"status": "unknown provider"}))).into_response();
    };
    let header_text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Err(e) = payments::verify(
        &provider.webhook_secret(),
        header_text(TIMESTAMP_HEADER),
        header_text(SIGNATURE_HEADER),
        &body,
        now_ms() / 1000,
    ) {
        tracing::warn!(provider = name, reason = ?e, "webhook refused");
        return (StatusCode::UNAUTHORIZED, Json(json!({"status": "invalid signature"}))).into_response();
    }
    let Ok(event) = serde_json::from_slice::<WebhookEvent>(&body) else {
        return (StatusCode::BAD_REQUEST, Json(json!({"status": "malformed event"}))).into_response();
    };
    match handle_event(&state, provider.name(), &event).await {
        Ok(EventResult::Handled) => Json(json!({"status": "ok"})).into_response(),
        Ok(EventResult::Duplicate) => Json(json!({"status": "duplicate"})).into_response(),
        Ok(EventResult::Rejected(reason)) => (StatusCode::BAD_REQUEST, Json(json!({"status": reason}))).into_response(),
        // A 5xx makes the provider deliver again later; nothing was half-written.
        Err(e) => e.into_response(),
    }
}

enum EventResult {
    Handled,
    Duplicate,
    Rejected(&'static str),
}

async fn handle_event(state: &AppState, provider: &str, event: &WebhookEvent) -> Result<EventResult, ApiError> {
    let Some(outcome) = Outcome::parse(&event.status) else { return Ok(EventResult::Rejected("unknown status")) };
    let row: Option<(i64, String, String, i64)> =
        sqlx::query_as("SELECT amount, currency, provider, user_id FROM payments WHERE id = $1")
            .bind(&event.payment_id)
            .fetch_optional(state.db().pool())
            .await?;
    let Some((amount, currency, owner, player)) = row else { return Ok(EventResult::Rejected("unknown payment")) };
    if owner != provider || amount != event.amount || !currency.eq_ignore_ascii_case(&event.currency) {
        tracing::error!(payment_id = %event.payment_id, "webhook disagrees with the payment; ignored");
        return Ok(EventResult::Rejected("payment mismatch"));
    }
    // The event is recorded in the transaction that applies it: either both happen or neither,
    // so a provider's retry after a failure is handled, never taken for a replay. It runs through
    // the group committer on the player's lane, as `finish` does.
    let event = Arc::new((provider.to_owned(), event.event_id.clone(), event.payment_id.clone()));
    let rules = Rules::of(state);
    state
        .db()
        .group(
            player,
            job(move |conn| {
                let event = Arc::clone(&event);
                Box::pin(async move {
                    let (provider, event_id, payment_id) = &*event;
                    let first = sqlx::query(
                        "INSERT INTO webhook_events (provider, event_id, received_at) VALUES ($1, $2, $3) ON CONFLICT (provider, event_id) DO NOTHING",
                    )
                    .bind(provider)
                    .bind(event_id)
                    .bind(now_ms())
                    .execute(&mut *conn)
                    .await?;
                    if first.rows_affected() == 0 {
                        return Ok(EventResult::Duplicate);
                    }
                    finish_in(conn, payment_id, outcome, &rules).await?;
                    Ok(EventResult::Handled)
                })
            }),
        )
        .await
}

/// The job behind pending deposits: asks each provider about deposits pending for more than a
/// minute (a lost webhook must not strand money) and applies what it says.
pub async fn poll_pending(state: AppState) -> anyhow::Result<()> {
    let cutoff = now_ms() - 60_000;
    let pending: Vec<(String, String)> = sqlx::query_as(
        "SELECT id, provider FROM payments WHERE direction = 'deposit' AND status = 'pending' AND updated_at < $1 ORDER BY updated_at LIMIT 200",
    )
    .bind(cutoff)
    .fetch_all(state.db().pool())
    .await?;
    for (id, name) in pending {
        let Some(provider) = state.payments().provider(&name) else { continue };
        match provider.status(&id).await {
            Ok(Some(outcome)) if outcome != Outcome::Pending => {
                if let Err(e) = finish(&state, &id, outcome).await {
                    tracing::warn!(payment_id = %id, error = ?e, "poll could not finish a deposit");
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(payment_id = %id, error = %e, "provider status unavailable"),
        }
    }
    Ok(())
}
