//! Money actions: the withdrawal queue and balance corrections, both under the four-eyes rule.
//!
//! **Withdrawals.** The player's flow keeps `payments.status` (pending → processing → paid, or
//! rejected / failed / cancelled); the review lives beside it (`withdrawal_reviews`,
//! `withdrawal_approvals`, `withdrawal_history`). The states the console sees map as:
//!
//! | console state | payments.status | review |
//! |---|---|---|
//! | `pending` | pending | none |
//! | `in_review` | pending | in_review |
//! | `approved` | pending (decided, payout not sent) or processing (payout under way) | approved |
//! | `paid` | paid | — |
//! | `rejected` | rejected, or failed (the provider refused the payout; the hold returned) | — |
//! | `cancelled` | cancelled (by the player, while not yet paid) | — |
//!
//! `approve` records the operator's approval; at or above the currency's four-eyes limit
//! (`CROUPIER_FOUR_EYES_LIMITS`, else `CROUPIER_FOUR_EYES_MINOR`) a second,
//! different operator's approval completes it. `paid` sends the payout through the cashier's
//! existing path (`cashier::withdrawals::approve`: the provider pays, the hold goes to payment
//! clearing); `reject` returns the hold (`cashier::withdrawals::reject`). The player may still
//! cancel an approved withdrawal until it is paid, as before the back office.
//!
//! **Corrections.** A credit or debit of the player's main balance against the house account
//! `balance_corrections`, posted through the ledger on the player's group-commit lane with the
//! correction's row and its audit row in the same transaction (key `correction:{id}`, so a
//! replay moves nothing twice). At or above the limit it waits in `pending_approval` and moves
//! nothing until another operator approves; a debit never takes the balance below zero.

use super::lists::{Arg, ListQuery, Listing, Where};
use super::{Staff, bad, body, conflict, created, json, missing, reason, seconds, trail};
use crate::AppState;
use crate::api::ApiError;
use crate::db::group::job;
use crate::db::now_ms;
use crate::features::cashier::withdrawals::{self, Decision};
use crate::ledger::{self, Account, Entry, HouseAccount, LedgerError};
use axum::body::Bytes;
use axum::extract::{Path, RawQuery};
use axum::http::StatusCode;
use axum::response::Response;
use croupier_shared::{Currency, ErrorType, FieldCode};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;

/// The four-eyes limit of `currency` (minor units): `CROUPIER_FOUR_EYES_LIMITS`'s entry, else
/// `CROUPIER_FOUR_EYES_MINOR`. A currency the server does not know gets 0: every amount waits for
/// a second operator.
fn limit_of(staff: &Staff, currency: &str) -> i64 {
    Currency::parse(currency).map_or(0, |c| staff.state().config().four_eyes_limit(c))
}

fn four_eyes() -> ApiError {
    ApiError::new(ErrorType::AccessDeniedException).with_data("approver", json!(["FOUR_EYES"]))
}

#[derive(sqlx::FromRow, Clone)]
struct WithdrawalRow {
    id: String,
    user_id: i64,
    amount: i64,
    currency: String,
    method: String,
    status: String,
    review: Option<String>,
    created_at: i64,
    updated_at: i64,
}

impl WithdrawalRow {
    fn state(&self) -> &'static str {
        match (self.status.as_str(), self.review.as_deref()) {
            ("pending", Some("in_review")) => "in_review",
            ("pending", Some("approved")) | ("processing", _) => "approved",
            ("pending", _) => "pending",
            ("paid", _) => "paid",
            ("cancelled", _) => "cancelled",
            _ => "rejected",
        }
    }
}

const WITHDRAWAL_SELECT: &str = "SELECT p.id, p.user_id, p.amount, p.currency, p.method, p.status, r.review, p.created_at, p.updated_at \
     FROM payments p LEFT JOIN withdrawal_reviews r ON r.payment_id = p.id";

#[derive(sqlx::FromRow, Serialize)]
struct Approval {
    #[serde(skip)]
    payment_id: String,
    operator_id: Option<i64>,
    operator_name: String,
    at: i64,
}

#[derive(sqlx::FromRow, Serialize)]
struct Transition {
    #[serde(skip)]
    payment_id: String,
    #[sqlx(rename = "from_state")]
    from: String,
    #[sqlx(rename = "to_state")]
    to: String,
    operator_id: Option<i64>,
    operator_name: String,
    reason: String,
    at: i64,
}

#[derive(Serialize)]
struct WithdrawalItem {
    id: String,
    user_id: i64,
    amount: i64,
    currency: String,
    method: String,
    state: &'static str,
    approvals: Vec<Approval>,
    needs_second_approval: bool,
    history: Vec<Transition>,
    created_at: i64,
    updated_at: i64,
}

/// The rows of `table` (approvals or history) of every withdrawal in `ids`, in one query.
async fn of_withdrawals<T>(staff: &Staff, columns: &str, table: &str, ids: &[&str]) -> Result<Vec<T>, ApiError>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let sql =
        format!("SELECT payment_id, {columns} FROM {table} WHERE payment_id IN ({}) ORDER BY id", marks.join(", "));
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    for id in ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(staff.state().db().pool()).await?)
}

/// The console's view of `rows`: each with its approvals and history (two queries for all).
async fn items(staff: &Staff, rows: Vec<WithdrawalRow>) -> Result<Vec<WithdrawalItem>, ApiError> {
    let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    let approvals: Vec<Approval> =
        of_withdrawals(staff, "operator_id, operator_name, at", "withdrawal_approvals", &ids).await?;
    let history: Vec<Transition> = of_withdrawals(
        staff,
        "from_state, to_state, operator_id, operator_name, reason, at",
        "withdrawal_history",
        &ids,
    )
    .await?;
    let mut approvals_of: HashMap<String, Vec<Approval>> = HashMap::new();
    for a in approvals {
        approvals_of.entry(a.payment_id.clone()).or_default().push(Approval { at: seconds(a.at), ..a });
    }
    let mut history_of: HashMap<String, Vec<Transition>> = HashMap::new();
    for h in history {
        history_of.entry(h.payment_id.clone()).or_default().push(Transition { at: seconds(h.at), ..h });
    }
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let mine = approvals_of.remove(&row.id).unwrap_or_default();
        let past = history_of.remove(&row.id).unwrap_or_default();
        let state = row.state();
        out.push(WithdrawalItem {
            needs_second_approval: matches!(state, "pending" | "in_review")
                && row.amount >= limit_of(staff, &row.currency)
                && mine.len() == 1,
            approvals: mine,
            history: past,
            id: row.id,
            user_id: row.user_id,
            amount: row.amount,
            currency: row.currency,
            method: row.method,
            state,
            created_at: seconds(row.created_at),
            updated_at: seconds(row.updated_at),
        });
    }
    Ok(out)
}

/// One withdrawal's view.
async fn item(staff: &Staff, row: WithdrawalRow) -> Result<WithdrawalItem, ApiError> {
    let mut one = items(staff, vec![row]).await?;
    one.pop().ok_or_else(|| ApiError::internal(anyhow::anyhow!("a withdrawal without its view")))
}

fn withdrawal_filters(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = Where::default();
    w.push("p.direction = 'withdrawal'", vec![]);
    w.eq_int(query, "user_id", "p.user_id")?;
    if let Some(state) = query.text("state")? {
        let clause = match state.as_str() {
            "pending" => "p.status = 'pending' AND r.review IS NULL",
            "in_review" => "p.status = 'pending' AND r.review = 'in_review'",
            "approved" => "((p.status = 'pending' AND r.review = 'approved') OR p.status = 'processing')",
            "paid" => "p.status = 'paid'",
            "rejected" => "p.status IN ('rejected', 'failed')",
            "cancelled" => "p.status = 'cancelled'",
            _ => return Err(bad("filter.state", FieldCode::Unsupported)),
        };
        w.push(clause, vec![]);
    }
    w.time_range(query, "p.created_at")?;
    Ok(w)
}

const WITHDRAWAL_SORTS: &[(&str, &str)] =
    &[("id", "p.id"), ("created_at", "p.created_at"), ("updated_at", "p.updated_at"), ("amount", "p.amount")];

const WITHDRAWALS: Listing = Listing {
    resource: "withdrawals",
    permission: "withdrawals.read",
    sorts: WITHDRAWAL_SORTS,
    default_sort: "created_at",
    select: WITHDRAWAL_SELECT,
    filters: withdrawal_filters,
};

/// `GET /backoffice/api/withdrawals`.
pub async fn withdrawals(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    let result = async {
        let (query, rows, total) = WITHDRAWALS.rows::<WithdrawalRow>(&staff, raw.as_deref()).await?;
        let items = items(&staff, rows).await?;
        Ok(super::lists::answer("withdrawals", &query, total, &items))
    }
    .await;
    staff.answer(result)
}

/// `GET /backoffice/api/withdrawals/export.csv`.
pub async fn withdrawals_export(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    let header = ["id", "user_id", "amount", "currency", "method", "state", "created_at", "updated_at"];
    WITHDRAWALS
        .export(staff, raw, &header, |r: WithdrawalRow| {
            let state = r.state();
            vec![
                r.id,
                r.user_id.to_string(),
                r.amount.to_string(),
                r.currency,
                r.method,
                state.to_owned(),
                seconds(r.created_at).to_string(),
                seconds(r.updated_at).to_string(),
            ]
        })
        .await
}

async fn load(staff: &Staff, id: &str) -> Result<WithdrawalRow, ApiError> {
    let row: Option<WithdrawalRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{WITHDRAWAL_SELECT} WHERE p.id = $1 AND p.direction = 'withdrawal'"
    )))
    .bind(id)
    .fetch_optional(staff.state().db().pool())
    .await?;
    row.ok_or_else(|| missing("id"))
}

/// `GET /backoffice/api/withdrawals/{id}`.
pub async fn withdrawal(staff: Staff, Path(id): Path<String>) -> Response {
    let result = async {
        staff.require("withdrawals.read", "withdrawals.show", Some(("withdrawal", id.clone()))).await?;
        let row = load(&staff, &id).await?;
        Ok(json(&item(&staff, row).await?))
    }
    .await;
    staff.answer(result)
}

/// A step of the review before the payout.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// pending → in_review.
    Review,
    /// One operator's approval; the withdrawal is approved when it is the last one needed.
    Approve,
}

/// Writes a step (the approval, the review state, the history and the audit row) in one
/// transaction, under the player's lock: the payment's state and the approvals already given are
/// read there, so two operators approving at once cannot both be "the first". Answers the state
/// the withdrawal is now in.
async fn record(staff: &Staff, row: &WithdrawalRow, why: &str, step: Step) -> Result<&'static str, ApiError> {
    let now = now_ms();
    let from = row.state();
    let mut tx = staff.state().db().begin().await?;
    staff.state().db().lock_user(&mut tx, row.user_id).await?;
    // The withdrawal must still be where it was read (the player may have cancelled meanwhile,
    // another operator may have moved it).
    let (status, review): (String, Option<String>) = sqlx::query_as(
        "SELECT p.status, r.review FROM payments p LEFT JOIN withdrawal_reviews r ON r.payment_id = p.id WHERE p.id = $1",
    )
    .bind(&row.id)
    .fetch_one(&mut *tx)
    .await?;
    let now_state = WithdrawalRow { status, review, ..row.clone() }.state();
    if now_state != from {
        return Err(conflict(now_state));
    }
    let to = match step {
        Step::Review => "in_review",
        Step::Approve => {
            let given: Vec<Option<i64>> =
                sqlx::query_scalar("SELECT operator_id FROM withdrawal_approvals WHERE payment_id = $1")
                    .bind(&row.id)
                    .fetch_all(&mut *tx)
                    .await?;
            if given.iter().any(|op| op.unwrap_or(0) == staff.id.unwrap_or(0)) {
                return Err(four_eyes());
            }
            sqlx::query(
                "INSERT INTO withdrawal_approvals (payment_id, operator_id, operator_name, at) VALUES ($1, $2, $3, $4)",
            )
            .bind(&row.id)
            .bind(staff.id)
            .bind(&staff.name)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            let complete = row.amount < limit_of(staff, &row.currency) || !given.is_empty();
            if complete { "approved" } else { from }
        }
    };
    if to != from {
        sqlx::query(
            "INSERT INTO withdrawal_reviews (payment_id, review, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (payment_id) DO UPDATE SET review = excluded.review, updated_at = excluded.updated_at",
        )
        .bind(&row.id)
        .bind(to)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    history(&mut tx, &trail::Actor::from(staff), &row.id, from, to, why, now).await?;
    trail::write(
        &mut *tx,
        &trail::Row {
            action: if step == Step::Approve { "withdrawals.approve" } else { "withdrawals.review" },
            target_type: Some("withdrawal"),
            target_id: Some(&row.id),
            user_id: Some(row.user_id),
            reason: Some(why),
            before: Some(json!({ "state": from })),
            after: Some(json!({ "state": to })),
            ..trail::Row::of(staff)
        },
    )
    .await?;
    tx.commit().await?;
    Ok(to)
}

async fn history(
    conn: &mut sqlx::AnyConnection,
    by: &trail::Actor,
    id: &str,
    from: &str,
    to: &str,
    why: &str,
    at: i64,
) -> Result<(), ApiError> {
    sqlx::query(
        "INSERT INTO withdrawal_history (payment_id, from_state, to_state, operator_id, operator_name, reason, at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(from)
    .bind(to)
    .bind(by.operator_id)
    .bind(&by.name)
    .bind(why)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// An operator's payout or rejection of a withdrawal: the cashier writes it in the transaction
/// that moves the withdrawal's money ([`withdrawals::approve`], [`withdrawals::reject`]), so the
/// withdrawal's history, its audit row and the ledger posting commit together or not at all.
pub struct Decided {
    pub actor: trail::Actor,
    /// `withdrawals.paid` or `withdrawals.reject`.
    pub action: &'static str,
    /// Empty when the caller gave none (the automation API, the CLI).
    pub reason: String,
    /// The state before, as the console names it (`pending`, `in_review`, `approved`); empty:
    /// the payment's status.
    pub from: String,
}

impl Decided {
    /// The history row and the audit row of the withdrawal `payment_id` going to `to`.
    pub async fn write(
        &self,
        conn: &mut sqlx::AnyConnection,
        payment_id: &str,
        user_id: i64,
        to: &str,
    ) -> Result<(), ApiError> {
        history(conn, &self.actor, payment_id, &self.from, to, &self.reason, now_ms()).await?;
        let row = trail::Row {
            action: self.action,
            target_type: Some("withdrawal"),
            target_id: Some(payment_id),
            user_id: Some(user_id),
            reason: Some(self.reason.as_str()).filter(|r| !r.is_empty()),
            before: Some(json!({ "state": self.from })),
            after: Some(json!({ "state": to })),
            ..trail::Row::by(&self.actor)
        };
        trail::write(conn, &row).await
    }
}

fn decided(staff: &Staff, row: &WithdrawalRow, why: &str, action: &'static str) -> Option<Decided> {
    Some(Decided { actor: trail::Actor::from(staff), action, reason: why.to_owned(), from: row.state().to_owned() })
}

/// One approval of `row`; `Ok(true)` when the withdrawal is now approved.
async fn approve_one(staff: &Staff, row: &WithdrawalRow, why: &str) -> Result<bool, ApiError> {
    let id = row.id.as_str();
    if !matches!(row.state(), "pending" | "in_review") {
        return Err(conflict(row.state()));
    }
    let result = record(staff, row, why, Step::Approve).await;
    if let Err(e) = &result
        && e.status() == StatusCode::FORBIDDEN
    {
        four_eyes_refused(staff.state(), &trail::Actor::from(staff), id, row.user_id, Some(why)).await?;
    }
    result.map(|to| to == "approved")
}

/// The audit row of an approval or a payout that four eyes refused (a denied attempt of `by`:
/// the console's approval here, any payout in [`withdrawals::approve`]), written once the refusal
/// is known (it wrote nothing).
pub(crate) async fn four_eyes_refused(
    state: &AppState,
    by: &trail::Actor,
    id: &str,
    user_id: i64,
    why: Option<&str>,
) -> Result<(), ApiError> {
    trail::write(
        state.db().pool(),
        &trail::Row {
            action: "withdrawals.approve",
            target_type: Some("withdrawal"),
            target_id: Some(id),
            user_id: Some(user_id),
            reason: why,
            after: Some(json!({ "refused": "FOUR_EYES" })),
            outcome: "denied",
            ..trail::Row::by(by)
        },
    )
    .await
}

/// `POST /backoffice/api/withdrawals/{id}/{review|approve|reject|paid} {reason}`.
pub async fn transition(staff: Staff, Path((id, action)): Path<(String, String)>, bytes: Bytes) -> Response {
    let result = async {
        if !matches!(action.as_str(), "review" | "approve" | "reject" | "paid") {
            return Err(ApiError::new(ErrorType::MethodNotFoundException));
        }
        staff.require("withdrawals.decide", &format!("withdrawals.{action}"), Some(("withdrawal", id.clone()))).await?;
        let input: super::ReasonBody = body(&bytes)?;
        let why = reason(input.reason.as_deref())?;
        let row = load(&staff, &id).await?;
        let state = staff.state();
        match action.as_str() {
            "review" => {
                if row.state() != "pending" {
                    return Err(conflict(row.state()));
                }
                record(&staff, &row, &why, Step::Review).await?;
            }
            "approve" => {
                approve_one(&staff, &row, &why).await?;
            }
            "reject" => {
                if !matches!(row.state(), "pending" | "in_review")
                    && (row.state() != "approved" || row.status != "pending")
                {
                    return Err(conflict(row.state()));
                }
                match withdrawals::reject(state, &id, decided(&staff, &row, &why, "withdrawals.reject")).await? {
                    Decision::Rejected => {}
                    _ => return Err(conflict(load(&staff, &id).await?.state())),
                }
            }
            _ => {
                if row.state() != "approved" {
                    return Err(conflict(row.state()));
                }
                match withdrawals::approve(state, &id, decided(&staff, &row, &why, "withdrawals.paid")).await? {
                    Decision::Paid | Decision::Failed => {}
                    Decision::Rejected | Decision::NotWaiting(_) => {
                        return Err(conflict(load(&staff, &id).await?.state()));
                    }
                }
            }
        }
        let row = load(&staff, &id).await?;
        Ok(json(&item(&staff, row).await?))
    }
    .await;
    staff.answer(result)
}

#[derive(Deserialize)]
struct BulkBody {
    #[serde(default)]
    ids: Option<Vec<String>>,
    #[serde(default)]
    reason: Option<String>,
}

/// `POST /backoffice/api/withdrawals/bulk-approve {ids, reason}`: approves each below the
/// four-eyes limit; the others (and any that cannot be approved) report why.
pub async fn bulk_approve(staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        staff.require("withdrawals.decide", "withdrawals.bulk_approve", None).await?;
        let input: BulkBody = body(&bytes)?;
        let why = reason(input.reason.as_deref())?;
        let ids = input.ids.filter(|ids| !ids.is_empty()).ok_or_else(|| bad("ids", FieldCode::Required))?;
        if ids.len() > 200 {
            return Err(ApiError::field_with("ids", FieldCode::MaxLength, vec![("max", "200".into())]));
        }
        let mut results = Vec::with_capacity(ids.len());
        for id in ids {
            let row = match load(&staff, &id).await {
                Ok(row) => row,
                Err(_) => {
                    results.push(json!({ "id": id, "ok": false, "state": null, "error": "NOT_FOUND" }));
                    continue;
                }
            };
            if row.amount >= limit_of(&staff, &row.currency) {
                results.push(json!({ "id": id, "ok": false, "state": row.state(), "error": "ABOVE_LIMIT" }));
                continue;
            }
            match approve_one(&staff, &row, &why).await {
                Ok(_) => results.push(json!({ "id": id, "ok": true, "state": "approved" })),
                Err(e) => {
                    let error = if e.status() == StatusCode::CONFLICT {
                        "STATE"
                    } else if e.status() == StatusCode::FORBIDDEN {
                        "FOUR_EYES"
                    } else {
                        "FAILED"
                    };
                    let state = load(&staff, &id).await.map(|r| r.state()).unwrap_or("pending");
                    results.push(json!({ "id": id, "ok": false, "state": state, "error": error }));
                }
            }
        }
        Ok(json(&json!({ "results": results })))
    }
    .await;
    staff.answer(result)
}

#[derive(sqlx::FromRow, Serialize, Clone)]
struct Correction {
    id: i64,
    user_id: i64,
    direction: String,
    amount: i64,
    currency: String,
    reason_code: String,
    reason: String,
    state: String,
    requested_by: Option<i64>,
    requested_by_name: String,
    decided_by: Option<i64>,
    decided_by_name: Option<String>,
    created_at: i64,
    decided_at: Option<i64>,
    /// The console's idempotency key for the correction, if it sent one.
    request_id: Option<String>,
}

impl Correction {
    fn view(mut self) -> Correction {
        self.created_at = seconds(self.created_at);
        self.decided_at = self.decided_at.map(seconds);
        self
    }
}

const CORRECTION_SELECT: &str = "SELECT id, user_id, direction, amount, currency, reason_code, reason, state, requested_by, \
     requested_by_name, decided_by, decided_by_name, created_at, decided_at, request_id FROM balance_corrections";
const CORRECTION_SORTS: &[(&str, &str)] = &[("id", "id"), ("created_at", "created_at"), ("amount", "amount")];
pub const REASON_CODES: [&str; 5] = ["goodwill", "error", "chargeback", "fraud", "other"];
/// The largest correction: a typo of a few digits must not create billions.
const MAX_AMOUNT: i64 = 1_000_000_000_000;

fn correction_filters(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = Where::default();
    w.eq_int(query, "user_id", "user_id")?;
    if let Some(state) = query.text("state")? {
        if !matches!(state.as_str(), "applied" | "pending_approval" | "rejected") {
            return Err(bad("filter.state", FieldCode::Unsupported));
        }
        w.push("state = {}", vec![Arg::Text(state)]);
    }
    w.time_range(query, "created_at")?;
    Ok(w)
}

const CORRECTIONS: Listing = Listing {
    resource: "corrections",
    permission: "balance.correct",
    sorts: CORRECTION_SORTS,
    default_sort: "id",
    select: CORRECTION_SELECT,
    filters: correction_filters,
};

/// `GET /backoffice/api/corrections`.
pub async fn corrections(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    CORRECTIONS.page(staff, raw, Correction::view).await
}

/// `GET /backoffice/api/corrections/export.csv`.
pub async fn corrections_export(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    let header = [
        "id",
        "user_id",
        "direction",
        "amount",
        "currency",
        "reason_code",
        "reason",
        "state",
        "requested_by_name",
        "decided_by_name",
        "created_at",
        "decided_at",
    ];
    CORRECTIONS
        .export(staff, raw, &header, |c: Correction| {
            let c = c.view();
            vec![
                c.id.to_string(),
                c.user_id.to_string(),
                c.direction,
                c.amount.to_string(),
                c.currency,
                c.reason_code,
                c.reason,
                c.state,
                c.requested_by_name,
                c.decided_by_name.unwrap_or_default(),
                c.created_at.to_string(),
                c.decided_at.map(|v| v.to_string()).unwrap_or_default(),
            ]
        })
        .await
}

async fn load_correction(conn: impl sqlx::AnyExecutor<'_>, id: i64) -> Result<Correction, ApiError> {
    let row: Option<Correction> = sqlx::query_as(sqlx::AssertSqlSafe(format!("{CORRECTION_SELECT} WHERE id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await?;
    row.ok_or_else(|| missing("id"))
}

/// `GET /backoffice/api/corrections/{id}`.
pub async fn correction(staff: Staff, Path(id): Path<i64>) -> Response {
    let result = async {
        staff.require("balance.correct", "corrections.show", Some(("correction", id.to_string()))).await?;
        Ok(json(&load_correction(staff.state().db().pool(), id).await?.view()))
    }
    .await;
    staff.answer(result)
}

#[derive(Deserialize)]
struct CorrectionBody {
    #[serde(default)]
    user_id: Option<i64>,
    #[serde(default)]
    direction: Option<String>,
    #[serde(default)]
    amount: Option<serde_json::Value>,
    #[serde(default)]
    currency: Option<String>,
    #[serde(default)]
    reason_code: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    /// Idempotency key (1–64 of `A-Za-z0-9-_:`): the same key from the same operator answers the
    /// correction it made (and refuses other contents with DUPLICATE) instead of making another.
    #[serde(default)]
    request_id: Option<String>,
}

/// The ledger entry of an applied correction.
fn posting<'a>(c: &Correction, key: &'a str) -> Result<Entry<'a>, ApiError> {
    let currency = Currency::parse(&c.currency).ok_or_else(|| bad("currency", FieldCode::Unsupported))?;
    let (from, to) = if c.direction == "credit" {
        (Account::House(HouseAccount::Corrections), Account::main(c.user_id))
    } else {
        (Account::main(c.user_id), Account::House(HouseAccount::Corrections))
    };
    Ok(Entry::transfer(key, "balance_correction", currency, from, to, c.amount).by(Some(c.user_id)))
}

fn insufficient() -> ApiError {
    ApiError::new(ErrorType::InvalidParameterException)
        .with_status(StatusCode::BAD_REQUEST)
        .with_data("amount", json!(["INSUFFICIENT_FUNDS"]))
}

fn ledger_error(e: LedgerError) -> ApiError {
    match e {
        LedgerError::InsufficientFunds => insufficient(),
        other => ApiError::from(other),
    }
}

/// Validates a new correction against the player's currency.
async fn validate(staff: &Staff, input: CorrectionBody) -> Result<Correction, ApiError> {
    let mut errors = crate::api::FieldErrors::default();
    let direction = input.direction.as_deref().map(str::trim).unwrap_or("");
    if direction.is_empty() {
        errors.add("direction", FieldCode::Required);
    } else if !matches!(direction, "credit" | "debit") {
        errors.add("direction", FieldCode::Unsupported);
    }
    let amount = match &input.amount {
        None | Some(serde_json::Value::Null) => {
            errors.add("amount", FieldCode::Required);
            0
        }
        Some(value) => match value.as_i64() {
            Some(n) if n < 1 => {
                errors.add_with("amount", FieldCode::MinValue, vec![("min", "1".into())]);
                0
            }
            Some(n) if n > MAX_AMOUNT => {
                errors.add_with("amount", FieldCode::MaxValue, vec![("max", MAX_AMOUNT.to_string())]);
                0
            }
            Some(n) => n,
            None => {
                errors.add("amount", FieldCode::Invalid);
                0
            }
        },
    };
    let reason_code = input.reason_code.as_deref().map(str::trim).unwrap_or("");
    if reason_code.is_empty() {
        errors.add("reason_code", FieldCode::Required);
    } else if !REASON_CODES.contains(&reason_code) {
        errors.add("reason_code", FieldCode::Unsupported);
    }
    let why = match reason(input.reason.as_deref()) {
        Ok(why) => why,
        Err(e) => {
            for f in e.fields() {
                errors.add_with(&f.field, f.code, f.params.clone());
            }
            String::new()
        }
    };
    let currency: Option<Option<String>> = match input.user_id {
        None => {
            errors.add("user_id", FieldCode::Required);
            None
        }
        Some(id) => {
            sqlx::query_scalar("SELECT currency FROM users WHERE id = $1")
                .bind(id)
                .fetch_optional(staff.state().db().pool())
                .await?
        }
    };
    let given = input.currency.as_deref().map(str::trim).unwrap_or("");
    match (input.user_id, &currency) {
        (Some(_), None) => errors.add("user_id", FieldCode::NotFound),
        (Some(_), Some(None)) => errors.add("currency", FieldCode::Unsupported),
        (Some(_), Some(Some(theirs))) if given.is_empty() => {
            let _ = theirs;
            errors.add("currency", FieldCode::Required);
        }
        (Some(_), Some(Some(theirs))) if !given.eq_ignore_ascii_case(theirs) => {
            errors.add("currency", FieldCode::Unsupported)
        }
        _ => {}
    }
    let request_id = input.request_id.as_deref().map(str::trim).filter(|r| !r.is_empty());
    if let Some(r) = request_id {
        if r.len() > 64 {
            errors.add_with("request_id", FieldCode::MaxLength, vec![("max", "64".into())]);
        } else if !r.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':')) {
            errors.add("request_id", FieldCode::Invalid);
        }
    }
    errors.into_result()?;
    Ok(Correction {
        id: 0,
        user_id: input.user_id.unwrap_or(0),
        direction: direction.to_owned(),
        amount,
        currency: currency.flatten().unwrap_or_default(),
        reason_code: reason_code.to_owned(),
        reason: why,
        state: String::new(),
        requested_by: staff.id,
        requested_by_name: staff.name.clone(),
        decided_by: None,
        decided_by_name: None,
        created_at: now_ms(),
        decided_at: None,
        request_id: request_id.map(str::to_owned),
    })
}

/// The correction `c`'s operator already made with `c`'s request id, if any: the same one, or a
/// DUPLICATE refusal when that id was used for another correction.
async fn earlier(staff: &Staff, c: &Correction) -> Result<Option<Correction>, ApiError> {
    let Some(request_id) = &c.request_id else { return Ok(None) };
    let sql = format!("{CORRECTION_SELECT} WHERE requested_by = $1 AND request_id = $2");
    let found: Option<Correction> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(c.requested_by)
        .bind(request_id)
        .fetch_optional(staff.state().db().pool())
        .await?;
    match found {
        Some(e)
            if (e.user_id, &e.direction, e.amount, &e.currency) == (c.user_id, &c.direction, c.amount, &c.currency) =>
        {
            Ok(Some(e))
        }
        Some(_) => Err(bad("request_id", FieldCode::Duplicate)),
        None => Ok(None),
    }
}

async fn insert(conn: &mut sqlx::AnyConnection, c: &Correction) -> Result<i64, ApiError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO balance_corrections (user_id, direction, amount, currency, reason_code, reason, state, requested_by, \
         requested_by_name, decided_by, decided_by_name, created_at, decided_at, request_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id",
    )
    .bind(c.user_id)
    .bind(&c.direction)
    .bind(c.amount)
    .bind(&c.currency)
    .bind(&c.reason_code)
    .bind(&c.reason)
    .bind(&c.state)
    .bind(c.requested_by)
    .bind(&c.requested_by_name)
    .bind(c.decided_by)
    .bind(&c.decided_by_name)
    .bind(c.created_at)
    .bind(c.decided_at)
    .bind(&c.request_id)
    .fetch_one(conn)
    .await?)
}

/// The player's main balance in the correction's currency, read in the lane's transaction (so
/// the trail's before and after are the balances the posting moved between).
async fn balance(conn: &mut sqlx::AnyConnection, c: &Correction) -> Result<i64, ApiError> {
    let currency = Currency::parse(&c.currency).ok_or_else(|| bad("currency", FieldCode::Unsupported))?;
    Ok(ledger::balance(conn, Account::main(c.user_id), currency).await?)
}

fn audit_row<'a>(staff: &'a Staff, action: &'a str, c: &'a Correction, id: &'a str) -> trail::Row<'a> {
    trail::Row {
        action,
        target_type: Some("correction"),
        target_id: Some(id),
        user_id: Some(c.user_id),
        reason: Some(&c.reason),
        ..trail::Row::of(staff)
    }
}

/// `POST /backoffice/api/corrections`.
pub async fn create_correction(staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        staff.require("balance.correct", "corrections.create", None).await?;
        let input: CorrectionBody = body(&bytes)?;
        let mut c = validate(&staff, input).await?;
        if let Some(done) = earlier(&staff, &c).await? {
            return Ok(json(&done.view()));
        }
        let db = staff.state().db();
        let made = if c.amount >= limit_of(&staff, &c.currency) {
            c.state = "pending_approval".into();
            async {
                let mut tx = db.begin().await?;
                let id = insert(&mut tx, &c).await?;
                let id_text = id.to_string();
                let row = trail::Row {
                    after: Some(json!({ "state": c.state, "direction": c.direction, "amount": c.amount, "currency": c.currency })),
                    ..audit_row(&staff, "corrections.create", &c, &id_text)
                };
                trail::write(&mut *tx, &row).await?;
                tx.commit().await?;
                Ok::<i64, ApiError>(id)
            }
            .await
        } else {
            c.state = "applied".into();
            c.decided_by = staff.id;
            c.decided_by_name = Some(staff.name.clone());
            c.decided_at = Some(c.created_at);
            let work = Arc::new((staff.clone(), c.clone()));
            db.group(
                c.user_id,
                job(move |conn| {
                    let work = Arc::clone(&work);
                    Box::pin(async move {
                        let (staff, c) = (&work.0, &work.1);
                        let before = balance(conn, c).await?;
                        let id = insert(conn, c).await?;
                        let key = format!("correction:{id}");
                        let reference = id.to_string();
                        let entry = posting(c, &key)?.about(Some(&reference));
                        ledger::post(conn, &entry).await.map_err(ledger_error)?;
                        let delta = if c.direction == "credit" { c.amount } else { -c.amount };
                        let row = trail::Row {
                            before: Some(json!({ "balance": before })),
                            after: Some(json!({ "balance": before + delta, "state": "applied", "amount": c.amount, "currency": c.currency })),
                            ..audit_row(staff, "corrections.create", c, &reference)
                        };
                        trail::write(&mut *conn, &row).await?;
                        Ok::<i64, ApiError>(id)
                    })
                }),
            )
            .await
        };
        let id = match made {
            Ok(id) => id,
            // The same request sent twice at once: the second insert met the first's key.
            Err(e) => match earlier(&staff, &c).await? {
                Some(done) => return Ok(json(&done.view())),
                None => return Err(e),
            },
        };
        Ok(created(&load_correction(db.pool(), id).await?.view()))
    }
    .await;
    staff.answer(result)
}

/// `POST /backoffice/api/corrections/{id}/{approve|reject} {reason}`.
pub async fn decide_correction(staff: Staff, Path((id, action)): Path<(i64, String)>, bytes: Bytes) -> Response {
    let result = async {
        if !matches!(action.as_str(), "approve" | "reject") {
            return Err(ApiError::new(ErrorType::MethodNotFoundException));
        }
        let audit_action = format!("corrections.{action}");
        staff.require("balance.approve", &audit_action, Some(("correction", id.to_string()))).await?;
        let input: super::ReasonBody = body(&bytes)?;
        let why = reason(input.reason.as_deref())?;
        let db = staff.state().db();
        let c = load_correction(db.pool(), id).await?;
        if c.state != "pending_approval" {
            return Err(conflict(&c.state));
        }
        let id_text = id.to_string();
        if action == "approve" {
            if c.requested_by.unwrap_or(0) == staff.id.unwrap_or(0) {
                let row = trail::Row {
                    reason: Some(&why),
                    outcome: "denied",
                    after: Some(json!({ "refused": "FOUR_EYES" })),
                    ..audit_row(&staff, &audit_action, &c, &id_text)
                };
                trail::write(db.pool(), &row).await?;
                return Err(four_eyes());
            }
            let work = Arc::new((staff.clone(), c.clone(), why.clone()));
            db.group(
                c.user_id,
                job(move |conn| {
                    let work = Arc::clone(&work);
                    Box::pin(async move {
                        let (staff, c, why) = (&work.0, &work.1, &work.2);
                        let now = now_ms();
                        let moved = sqlx::query(
                            "UPDATE balance_corrections SET state = 'applied', decided_by = $1, decided_by_name = $2, decided_at = $3 \
                             WHERE id = $4 AND state = 'pending_approval'",
                        )
                        .bind(staff.id)
                        .bind(&staff.name)
                        .bind(now)
                        .bind(c.id)
                        .execute(&mut *conn)
                        .await?;
                        if moved.rows_affected() == 0 {
                            let state: String = sqlx::query_scalar("SELECT state FROM balance_corrections WHERE id = $1")
                                .bind(c.id)
                                .fetch_one(&mut *conn)
                                .await?;
                            return Err(conflict(&state));
                        }
                        let before = balance(conn, c).await?;
                        let key = format!("correction:{}", c.id);
                        let reference = c.id.to_string();
                        let entry = posting(c, &key)?.about(Some(&reference));
                        ledger::post(conn, &entry).await.map_err(ledger_error)?;
                        let delta = if c.direction == "credit" { c.amount } else { -c.amount };
                        let row = trail::Row {
                            reason: Some(why),
                            before: Some(json!({ "state": "pending_approval", "balance": before })),
                            after: Some(json!({ "state": "applied", "balance": before + delta })),
                            ..audit_row(staff, "corrections.approve", c, &reference)
                        };
                        trail::write(&mut *conn, &row).await?;
                        Ok::<(), ApiError>(())
                    })
                }),
            )
            .await?;
        } else {
            let mut tx = db.begin().await?;
            let moved = sqlx::query(
                "UPDATE balance_corrections SET state = 'rejected', decided_by = $1, decided_by_name = $2, decided_at = $3 \
                 WHERE id = $4 AND state = 'pending_approval'",
            )
            .bind(staff.id)
            .bind(&staff.name)
            .bind(now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if moved.rows_affected() == 0 {
                let state: String = sqlx::query_scalar("SELECT state FROM balance_corrections WHERE id = $1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
                return Err(conflict(&state));
            }
            let row = trail::Row {
                reason: Some(&why),
                before: Some(json!({ "state": "pending_approval" })),
                after: Some(json!({ "state": "rejected" })),
                ..audit_row(&staff, "corrections.reject", &c, &id_text)
            };
            trail::write(&mut *tx, &row).await?;
            tx.commit().await?;
        }
        Ok(json(&load_correction(db.pool(), id).await?.view()))
    }
    .await;
    staff.answer(result)
}
