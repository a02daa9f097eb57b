//! Withdrawals: at the request the amount moves from the player's main balance to the house's
//! withdrawal holds; the player may cancel while it waits; an operator approves it (the provider
//! pays it out and the hold goes to payment clearing) or rejects it (the hold returns). The
//! operator acts through `/admin/withdrawals` (bearer `CROUPIER_ADMIN_TOKEN`) or the
//! `croupier-server admin withdrawals` command. Responsible-gaming blocks never stop a withdrawal.
//! Every change that moves a withdrawal's money runs through the group committer on the player's
//! lane (`db::group`), like the wallet's and the deposits' changes.

use super::{PAYMENT_COLUMNS, PaymentInfo, PaymentRow, method_view, parse_amount};
use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, One, Operator, Registry};
use crate::db::group::job;
use crate::db::now_ms;
use crate::features::account::player_currency;
use crate::features::account::profile::FORM;
use crate::features::account::{MoneyView, store};
use crate::features::backoffice::trail::Actor;
use crate::features::backoffice::{Decided, Staff, money};
use crate::features::bonuses;
use crate::features::notify;
use crate::ledger::{self, Account, Entry, HouseAccount, LedgerError};
use crate::payments::Outcome;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use croupier_shared::{Currency, ErrorType, FieldCode, Money};
use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::Arc;

/// Most a player may withdraw in 24 hours, in major units of their currency.
pub const DAILY_MAX_MAJOR: i64 = 10_000;
const DAY_MS: i64 = 24 * 3600 * 1000;

pub fn register(api: &mut Registry) {
    api.read(
        "cashier.getwithdrawsettings",
        "Withdrawal methods, limits and what the player still has to do.",
        settings,
    );
    api.write(
        "cashier.makewithdrawal",
        "Requests a withdrawal; the amount is held until an operator decides.",
        make_withdrawal,
    );
    api.write("cashier.cancelwithdrawal", "Cancels a withdrawal still awaiting approval.", cancel_withdrawal);
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Requirements {
    pub contact_confirmed: bool,
    pub profile_complete: bool,
    pub kyc_required: bool,
    pub kyc_verified: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct WithdrawSettings {
    pub currency: String,
    pub methods: Vec<super::MethodView>,
    pub balance: MoneyView,
    pub period_limit: MoneyView,
    pub period_available: MoneyView,
    pub requirements: Requirements,
}

async fn requirements(ctx: &Ctx, user_id: i64) -> Result<Requirements, ApiError> {
    let db = ctx.state.db();
    let user = store::load(db, user_id).await?;
    let contacts = store::contacts(db, user_id).await?;
    let contact_confirmed = contacts.iter().any(|c| c.is_login != 0 && c.is_confirmed != 0);
    let filled: Vec<String> = sqlx::query_scalar(
        "SELECT CASE WHEN first_name IS NOT NULL THEN 'first_name,' ELSE '' END || \
                CASE WHEN last_name IS NOT NULL THEN 'last_name,' ELSE '' END || \
                CASE WHEN birth_date IS NOT NULL THEN 'birth_date,' ELSE '' END || \
                CASE WHEN home_town IS NOT NULL THEN 'home_town,' ELSE '' END || \
                CASE WHEN address IS NOT NULL THEN 'address,' ELSE '' END || \
                CASE WHEN postcode IS NOT NULL THEN 'postcode,' ELSE '' END FROM profiles WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_all(db.pool())
    .await?;
    let filled = filled.first().cloned().unwrap_or_default();
    let profile_complete = FORM.iter().filter(|(_, _, required, _)| *required).all(|(name, ..)| match *name {
        "country_code" => user.country_code.is_some(),
        other => filled.split(',').any(|f| f == other),
    });
    Ok(Requirements {
        contact_confirmed,
        profile_complete,
        kyc_required: ctx.state.config().kyc_for_withdrawal,
        kyc_verified: user.is_verified != 0,
    })
}

async fn withdrawn_today(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    currency: Currency,
    now: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payments WHERE user_id = $1 AND direction = 'withdrawal' \
         AND status IN ('pending', 'processing', 'paid') AND currency = $2 AND created_at >= $3",
    )
    .bind(user_id)
    .bind(currency.code())
    .bind(now - DAY_MS)
    .fetch_one(conn)
    .await
}

async fn settings(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<WithdrawSettings, ApiError> {
    let (user_id, currency) = player_currency(&ctx, &user).await?;
    let mut conn = ctx.state.db().pool().acquire().await?;
    let balance = ledger::balance(&mut conn, Account::main(user_id), currency).await?;
    let used = withdrawn_today(&mut conn, user_id, currency, now_ms()).await?;
    let limit = Money::from_major(DAILY_MAX_MAJOR, currency);
    let methods = ctx
        .state
        .payments()
        .all()
        .flat_map(|p| p.methods())
        .filter(|m| m.withdrawal)
        .map(|m| method_view(m, currency, ctx.locale))
        .collect();
    Ok(WithdrawSettings {
        currency: currency.code().to_owned(),
        methods,
        balance: Money::from_minor(balance, currency).into(),
        period_limit: limit.into(),
        period_available: Money::from_minor((limit.minor() - used).max(0), currency).into(),
        requirements: requirements(&ctx, user_id).await?,
    })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct WithdrawInput {
    /// A method of `cashier.getwithdrawsettings`.
    #[serde(default)]
    #[schemars(extend("x-required" = true), example = &"sandbox_card")]
    pub method: String,
    /// Whole major units (SPEC §5 `sum`), within the method's limits.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(super::WHOLE_AMOUNT), example = &"100")]
    pub amount: String,
    #[serde(default)]
    #[schemars(length(max = 2000))]
    pub requisites: String,
    /// `1`: the player confirmed that withdrawing burns their wagering bonuses.
    #[serde(default)]
    pub burn_bonuses: String,
}

impl Input for WithdrawInput {
    fn validate(&self, errors: &mut FieldErrors) {
        super::check_request(&self.method, &self.amount, &self.requisites, errors);
    }
}

/// Checks, in this order, each with its SPEC §8 error: the method and its per-request bounds,
/// the 24-hour limit, a confirmed contact, the profile data, identity verification when
/// configured, and the balance.
async fn make_withdrawal(ctx: Ctx, user: AuthUser, input: WithdrawInput) -> Result<PaymentInfo, ApiError> {
    let (user_id, currency) = player_currency(&ctx, &user).await?;
    let (provider, m) = ctx
        .state
        .payments()
        .method(&input.method)
        .filter(|(_, m)| m.withdrawal)
        .ok_or_else(|| store::field_error("method", FieldCode::Unsupported))?;
    let amount = parse_amount(&input.amount, m, currency).map_err(|e| {
        if e.fields().first().is_some_and(|f| matches!(f.code, FieldCode::MinValue | FieldCode::MaxValue)) {
            ApiError::new(ErrorType::WithdrawalLimitsExceededException)
                .with_data("min", Money::from_major(m.min_major, currency).to_decimal_string())
                .with_data("max", Money::from_major(m.max_major, currency).to_decimal_string())
        } else {
            e
        }
    })?;
    super::check_bank(provider, m, &input.requisites, currency)?;
    let now = now_ms();
    let checks = requirements(&ctx, user_id).await?;
    if !checks.contact_confirmed {
        return Err(ApiError::new(ErrorType::UserNeedConfirmContactException));
    }
    if !checks.profile_complete {
        return Err(ApiError::new(ErrorType::UserNeedProfileDataException));
    }
    if checks.kyc_required && !checks.kyc_verified {
        return Err(ApiError::new(ErrorType::KycWithdrawalException));
    }
    {
        use crate::features::protection::{Gate, check};
        let mut conn = ctx.state.db().pool().acquire().await?;
        check(&mut conn, user_id, &[Gate::Kyc]).await?;
    }
    // Withdrawing while a bonus is wagering burns it: the player confirms that first.
    let burn = input.burn_bonuses.trim() == "1";
    let (wagering, bonus_balance): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM player_bonuses WHERE user_id = $1 AND status = 'wagering'",
    )
    .bind(user_id)
    .fetch_one(ctx.state.db().pool())
    .await?;
    if wagering > 0 && !burn {
        return Err(ApiError::new(ErrorType::BonusBurnConfirmationRequiredException)
            .with_data("bonuses", wagering)
            .with_data("amount", Money::from_minor(bonus_balance, currency).to_decimal_string()));
    }
    let id = uuid::Uuid::new_v4().to_string();
    let request = Arc::new(HoldRequest {
        id: id.clone(),
        user_id,
        currency,
        amount: amount.minor(),
        method: m.sysname,
        provider: provider.name(),
        requisites: Some(input.requisites.clone()).filter(|r| !r.is_empty()),
        now,
    });
    let db = ctx.state.db().clone();
    ctx.state
        .db()
        .group(
            user_id,
            job(move |conn| {
                let (db, request) = (db.clone(), Arc::clone(&request));
                Box::pin(async move {
                    db.lock_user(conn, request.user_id).await?;
                    if burn {
                        bonuses::engine::forfeit_all(conn, request.user_id, "burnt by a withdrawal")
                            .await
                            .map_err(bonuses::methods::refusal)?;
                    }
                    hold(conn, &request).await
                })
            }),
        )
        .await?;
    load(&ctx.state, &id).await.map(|r| r.info())
}

/// A withdrawal request, checked outside and held in [`hold`].
struct HoldRequest {
    id: String,
    user_id: i64,
    currency: Currency,
    amount: i64,
    method: &'static str,
    provider: &'static str,
    requisites: Option<String>,
    now: i64,
}

/// Records the withdrawal and moves its amount to the holds, in the group committer's
/// transaction on the player's lane (`db::group`; re-runnable): refused over the 24-hour limit or
/// the balance.
async fn hold(conn: &mut sqlx::AnyConnection, r: &HoldRequest) -> Result<(), ApiError> {
    let used = withdrawn_today(conn, r.user_id, r.currency, r.now).await?;
    let limit = Money::from_major(DAILY_MAX_MAJOR, r.currency).minor();
    if used.saturating_add(r.amount) > limit {
        return Err(ApiError::new(ErrorType::WithdrawalLimitsPeriodExceededException)
            .with_data("available_amount", Money::from_minor((limit - used).max(0), r.currency).to_decimal_string()));
    }
    sqlx::query(
        "INSERT INTO payments (id, user_id, direction, method, provider, amount, currency, status, requisites, created_at, updated_at) \
         VALUES ($1, $2, 'withdrawal', $3, $4, $5, $6, 'pending', $7, $8, $8)",
    )
    .bind(&r.id)
    .bind(r.user_id)
    .bind(r.method)
    .bind(r.provider)
    .bind(r.amount)
    .bind(r.currency.code())
    .bind(r.requisites.as_deref())
    .bind(r.now)
    .execute(&mut *conn)
    .await?;
    let key = format!("withdrawal:{}", r.id);
    let entry = Entry::transfer(
        &key,
        "withdrawal_hold",
        r.currency,
        Account::main(r.user_id),
        Account::House(HouseAccount::WithdrawalHolds),
        r.amount,
    )
    .by(Some(r.user_id))
    .about(Some(&r.id));
    match ledger::post(conn, &entry).await {
        Ok(_) => Ok(()),
        Err(LedgerError::InsufficientFunds) => {
            let balance = ledger::balance(conn, Account::main(r.user_id), r.currency).await?;
            Err(crate::api::ApiError::invalid(vec![crate::api::error::FieldError {
                field: "amount".into(),
                code: FieldCode::MaxValue,
                params: vec![("max", Money::from_minor(balance, r.currency).to_decimal_string())],
            }]))
        }
        Err(e) => Err(ApiError::from(e)),
    }
}

async fn load(state: &AppState, id: &str) -> Result<PaymentRow, ApiError> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PAYMENT_COLUMNS} FROM payments WHERE id = $1 AND direction = 'withdrawal'"
    )))
    .bind(id)
    .fetch_optional(state.db().pool())
    .await?
    .ok_or_else(|| store::field_error("id", FieldCode::NotFound))
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CancelInput {
    /// The withdrawal's id.
    #[serde(default)]
    #[schemars(extend("x-required" = true))]
    pub id: String,
}

impl Input for CancelInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.id.is_empty() {
            errors.add("id", FieldCode::Required);
        }
    }
}

async fn cancel_withdrawal(ctx: Ctx, user: AuthUser, input: CancelInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let row = load(&ctx.state, input.id.trim()).await?;
    if row.user_id != user_id {
        return Err(store::field_error("id", FieldCode::NotFound));
    }
    if !release(&ctx.state, &row, "cancelled", None).await? {
        return Err(ApiError::new(ErrorType::WithdrawalDeclinedException).with_data("status", row.status));
    }
    Ok(One)
}

/// A withdrawal as its changes on the committer see it.
struct Withdrawal {
    id: String,
    user_id: i64,
    amount: i64,
    currency: Currency,
    /// An operator's decision, recorded in the same transaction as the posting.
    decided: Option<Decided>,
}

impl Withdrawal {
    /// Writes the operator's decision (history and audit rows), if any, as the withdrawal goes to `to`.
    async fn record(&self, conn: &mut sqlx::AnyConnection, to: &str) -> Result<(), ApiError> {
        match &self.decided {
            Some(decided) => decided.write(conn, &self.id, self.user_id, to).await,
            None => Ok(()),
        }
    }
}

/// Runs `change` — one change of the withdrawal `row`, re-runnable — through the group committer
/// on its player's lane (`db::group`).
async fn on_lane<T, F>(state: &AppState, row: &PaymentRow, decided: Option<Decided>, change: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: for<'c> Fn(&'c mut sqlx::AnyConnection, Arc<Withdrawal>) -> BoxFuture<'c, Result<T, ApiError>>
        + Send
        + Sync
        + 'static,
{
    let money = row.money()?;
    let withdrawal = Arc::new(Withdrawal {
        id: row.id.clone(),
        user_id: row.user_id,
        amount: money.minor(),
        currency: money.currency(),
        // A decision that does not name the state before has the payment's status.
        decided: decided.map(|d| if d.from.is_empty() { Decided { from: row.status.clone(), ..d } } else { d }),
    });
    state.db().group(row.user_id, job(move |conn| change(conn, Arc::clone(&withdrawal)))).await
}

/// Returns a waiting withdrawal's hold to the player and closes it with `status`; false when it
/// was no longer waiting.
async fn release(
    state: &AppState,
    row: &PaymentRow,
    status: &'static str,
    decided: Option<Decided>,
) -> Result<bool, ApiError> {
    on_lane(state, row, decided, move |conn, w| {
        Box::pin(async move {
                    let (id, user_id, amount, currency) = (&w.id, w.user_id, w.amount, w.currency);
                    let changed = sqlx::query(
                        "UPDATE payments SET status = $1, updated_at = $2 WHERE id = $3 AND status IN ('pending', 'processing')",
                    )
                    .bind(status)
                    .bind(now_ms())
                    .bind(id.as_str())
                    .execute(&mut *conn)
                    .await?;
                    if changed.rows_affected() == 0 {
                        return Ok(false);
                    }
                    let key = format!("withdrawal-return:{id}");
                    let entry = Entry::transfer(
                        &key,
                        "withdrawal_return",
                        currency,
                        Account::House(HouseAccount::WithdrawalHolds),
                        Account::main(user_id),
                        amount,
                    )
                    .by(Some(user_id))
                    .about(Some(id));
                    ledger::post(&mut *conn, &entry).await.map_err(ApiError::from)?;
                    // The console shows a refused payout as rejected too.
                    w.record(conn, if status == "cancelled" { "cancelled" } else { "rejected" }).await?;
                    Ok(true)
        })
    })
    .await
}

#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    Paid,
    Failed,
    Rejected,
    NotWaiting(String),
}

/// The operator approves: the provider pays out; the hold goes to payment clearing (or back to
/// the player if the provider refuses the payout).
///
/// Approving a withdrawal left `processing` resumes it: a server that died (or lost its
/// connection) between claiming a payout and posting it leaves the row there, possibly with the
/// provider's payout already made. The payout call is idempotent on the payment id (the provider
/// pays an id at most once and answers the first outcome again), so asking again is safe, and
/// the posting below happens once whoever gets there first. A provider that cannot be reached
/// leaves the withdrawal `processing` with its hold in place — never returned, since the payout
/// may have gone through — until an approval is tried again.
pub async fn approve(state: &AppState, id: &str, decided: Option<Decided>) -> Result<Decision, ApiError> {
    let row = load(state, id).await?;
    // Four eyes (issue 22): at or above the currency's limit (`Config::four_eyes_limit`; an
    // unknown currency has 0) a payout needs two different
    // operators' approvals (the back office records them), whoever asks for it — the console,
    // the automation token's `/admin` route or the CLI. A payout already under way is resumed.
    let limit = Currency::parse(&row.currency).map_or(0, |c| state.config().four_eyes_limit(c));
    if row.status == "pending" && row.amount >= limit {
        let approvers: i64 = sqlx::query_scalar(
            "SELECT COUNT(DISTINCT operator_id) FROM withdrawal_approvals WHERE payment_id = $1 AND operator_id IS NOT NULL",
        )
        .bind(id)
        .fetch_one(state.db().pool())
        .await?;
        if approvers < 2 {
            // A denied attempt of whoever asked, audited as the console's refused approvals are.
            if let Some(decided) = &decided {
                let why = Some(decided.reason.as_str()).filter(|r| !r.is_empty());
                money::four_eyes_refused(state, &decided.actor, id, row.user_id, why).await?;
            }
            return Err(ApiError::new(ErrorType::AccessDeniedException).with_data("approver", json!(["FOUR_EYES"])));
        }
    }
    let claimed =
        sqlx::query("UPDATE payments SET status = 'processing', updated_at = $1 WHERE id = $2 AND status = 'pending'")
            .bind(now_ms())
            .bind(id)
            .execute(state.db().pool())
            .await?;
    if claimed.rows_affected() == 0 && row.status != "processing" {
        return Ok(Decision::NotWaiting(row.status));
    }
    let provider = state
        .payments()
        .provider(&row.provider)
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("unknown provider {}", row.provider)))?;
    match provider.payout(id, row.money()?).await {
        Ok(Outcome::Success) => {}
        Ok(Outcome::Pending) => return Ok(Decision::NotWaiting("processing".into())),
        Ok(outcome) => {
            tracing::warn!(payment_id = id, outcome = ?outcome, "payout refused; the hold returns to the player");
            release(state, &row, "failed", decided).await?;
            return Ok(Decision::Failed);
        }
        Err(e) => {
            tracing::warn!(payment_id = id, error = %e, "payout not confirmed; the withdrawal stays processing");
            return Err(ApiError::new(ErrorType::ApplicationUnavailableException));
        }
    }
    on_lane(state, &row, decided, move |conn, w| {
        Box::pin(async move {
            let (id, user_id, amount, currency) = (&w.id, w.user_id, w.amount, w.currency);
            let paid = sqlx::query(
                "UPDATE payments SET status = 'paid', updated_at = $1 WHERE id = $2 AND status = 'processing'",
            )
            .bind(now_ms())
            .bind(id.as_str())
            .execute(&mut *conn)
            .await?;
            if paid.rows_affected() == 0 {
                // Another approval of the same resumed payout posted it first.
                return Ok(Decision::NotWaiting("paid".into()));
            }
            let key = format!("withdrawal-payout:{id}");
            let entry = Entry::transfer(
                &key,
                "withdrawal_payout",
                currency,
                Account::House(HouseAccount::WithdrawalHolds),
                Account::House(HouseAccount::PaymentClearing),
                amount,
            )
            .by(Some(user_id))
            .about(Some(id));
            ledger::post(&mut *conn, &entry).await.map_err(ApiError::from)?;
            w.record(&mut *conn, "paid").await?;
            let notice = notify::Notice::WithdrawalPaid {
                payment_id: id.to_string(),
                amount: notify::amount(amount, currency),
                currency: currency.code().to_owned(),
            };
            notify::enqueue(conn, user_id, &format!("withdrawal:{id}:paid"), &notice).await?;
            Ok(Decision::Paid)
        })
    })
    .await
}

pub async fn reject(state: &AppState, id: &str, decided: Option<Decided>) -> Result<Decision, ApiError> {
    let row = load(state, id).await?;
    if row.status != "pending" {
        return Ok(Decision::NotWaiting(row.status));
    }
    Ok(if release(state, &row, "rejected", decided).await? {
        Decision::Rejected
    } else {
        Decision::NotWaiting(row.status)
    })
}

/// Withdrawals with `status` (all when `None`), oldest first.
pub async fn list(state: &AppState, status: Option<&str>) -> Result<Vec<(i64, PaymentInfo)>, ApiError> {
    let rows: Vec<PaymentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PAYMENT_COLUMNS} FROM payments WHERE direction = 'withdrawal' AND ($1 = '' OR status = $1) ORDER BY created_at LIMIT 500"
    )))
    .bind(status.unwrap_or(""))
    .fetch_all(state.db().pool())
    .await?;
    Ok(rows.iter().map(|r| (r.user_id, r.info())).collect())
}

#[derive(Deserialize)]
pub struct ListQuery {
    status: Option<String>,
}

/// `GET /admin/withdrawals?status=pending`
/// (The operator API is on only with `CROUPIER_ADMIN_TOKEN`: see [`Operator`].)
pub async fn admin_list(State(state): State<AppState>, _: Operator, Query(query): Query<ListQuery>) -> Response {
    match list(&state, query.status.as_deref()).await {
        Ok(items) => Json(json!({ "status": "ok", "data": { "total": items.len(), "items": items.into_iter().map(|(user_id, info)| json!({"user_id": user_id, "withdrawal": info})).collect::<Vec<_>>() } })).into_response(),
        Err(e) => e.into_response(),
    }
}

/// `POST /admin/withdrawals/{id}/{approve|reject}`
pub async fn admin_decide(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path((id, action)): Path<(String, String)>,
) -> Response {
    // Recorded as the automation token's decision (no reason given; `from` the payment's status).
    let decided = |action: &'static str| {
        Some(Decided { actor: Actor::from(&staff), action, reason: String::new(), from: String::new() })
    };
    let decision = match action.as_str() {
        "approve" => approve(&state, &id, decided("withdrawals.paid")).await,
        "reject" => reject(&state, &id, decided("withdrawals.reject")).await,
        _ => return (StatusCode::NOT_FOUND, Json(json!({"status": "error"}))).into_response(),
    };
    match decision {
        Ok(Decision::NotWaiting(status)) => {
            ApiError::new(ErrorType::WithdrawalDeclinedException).with_data("status", status).into_response()
        }
        Ok(d) => Json(json!({ "status": "ok", "data": { "result": format!("{d:?}").to_lowercase() } })).into_response(),
        Err(e) => e.into_response(),
    }
}
