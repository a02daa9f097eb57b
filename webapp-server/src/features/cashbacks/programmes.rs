//! Cashback programmes: what operators configure so that the period job ([`super::close`]) gives
//! players part of their losses (or turnover) back.
//!
//! They live in the **admin API**, not in the content service: a programme is money policy
//! (rates, per-currency limits, an approval threshold) that the server must validate as a whole
//! and that the close reads in the same database as the ledger; the content service holds texts
//! and images, and a programme's two titles are all the text it has.
//!
//! - `GET /admin/cashback-programmes`, `POST /admin/cashback-programmes` (a [`ProgrammeInput`]),
//!   `PUT /admin/cashback-programmes/{id}` (the same, whole; period, length, start and basis
//!   cannot change once created, as closed periods were computed with them).
//! - `GET /admin/cashbacks?status=pending` — the approval queue (any status may be asked for);
//!   `POST /admin/cashbacks/{id}/approve`, `POST /admin/cashbacks/{id}/reject` `{reason}`.
//!
//! A programme's periods are `[starts_at + k·length, starts_at + (k+1)·length)`. Its `basis` is
//! `net_loss` (real-money stakes − real-money wins, rollbacks taken back; money a bonus staked
//! and what it won are not the player's and do not count) or `turnover` (real-money stakes).
//! Each game type (slot, casino, live, fast) has its rate in basis points ("*" for the others);
//! the cashback is Σ rate × basis of the type ÷ 10 000, nothing when that is not positive, then
//! held to the currency's `min` (below it: no cashback) and `max`. Only currencies listed in
//! `limits` qualify, and only active accounts (not guests, banned or deleted ones). A cashback
//! above the currency's `approve_above` waits for an operator (`pending`); the others are
//! `active` at once and can be claimed for `claim_hours`.

use super::{Amount, STATUSES};
use crate::AppState;
use crate::api::{ApiError, FieldErrors, Operator};
use crate::db::now_ms;
use crate::features::backoffice::{Staff, trail};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use croupier_shared::{Currency, FieldCode, Money};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;

pub const HOUR_MS: i64 = 3_600_000;
/// The game types a rate may name, beside "*".
pub const GAME_TYPES: [&str; 4] = ["slot", "casino", "live", "fast"];
/// 100 %, in basis points.
pub const FULL: i64 = 10_000;
/// The longest period and claim time, in hours (a year).
pub const MAX_HOURS: i64 = 8_760;
/// The shortest period of a net-loss programme, in hours.
pub const MIN_LOSS_HOURS: i64 = 24;

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/admin/cashback-programmes", get(admin_list).post(admin_create))
        .route("/admin/cashback-programmes/{id}", axum::routing::put(admin_update))
        .route("/admin/cashbacks", get(admin_queue).post(super::admin_create))
        .route("/admin/cashbacks/{id}/{action}", post(admin_decide))
}

/// One currency's bounds, in its minor units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limit {
    /// Below this, no cashback.
    #[serde(default)]
    pub min: i64,
    /// The most one cashback gives.
    pub max: i64,
    /// Above this an operator approves it first; none: never.
    #[serde(default)]
    pub approve_above: Option<i64>,
}

/// A programme as an operator writes it (times in Unix seconds).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ProgrammeInput {
    pub sysname: String,
    pub title_en: String,
    pub title_fr: String,
    /// daily, weekly or custom.
    pub period: String,
    /// custom only: the period's length in hours (at least 24 for net_loss).
    #[serde(default)]
    pub period_hours: Option<i64>,
    /// The first period's start; default: the start of the current UTC day.
    #[serde(default)]
    pub starts_at: Option<i64>,
    /// net_loss or turnover.
    pub basis: String,
    /// Basis points per game type, "*" for the others.
    pub rates: BTreeMap<String, i64>,
    /// The currencies that qualify and their bounds.
    pub limits: BTreeMap<String, Limit>,
    /// Hours a cashback may be claimed (default 72).
    #[serde(default)]
    pub claim_hours: Option<i64>,
    /// real (default) or bonus.
    #[serde(default)]
    pub pays: Option<String>,
    /// bonus only: the wagering multiplier (0 to 100) and days to wager it (1 to 365, default 7).
    #[serde(default)]
    pub wager_multiplier: i64,
    #[serde(default)]
    pub wager_days: Option<i64>,
    #[serde(default = "yes")]
    pub active: bool,
}

fn yes() -> bool {
    true
}

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

const MAX_TITLE: usize = 200;

/// A programme's checked settings, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub sysname: String,
    pub title_en: String,
    pub title_fr: String,
    pub period: String,
    pub period_hours: i64,
    pub starts_at: i64,
    pub basis: String,
    pub rates: BTreeMap<String, i64>,
    pub limits: BTreeMap<String, Limit>,
    pub claim_hours: i64,
    pub pays: String,
    pub wager_multiplier: i64,
    pub wager_days: i64,
    pub active: bool,
}

impl ProgrammeInput {
    /// Checks every part; answers the settings to store, or every field that is wrong.
    pub fn check(&self, now: i64) -> Result<Settings, ApiError> {
        let mut errors = FieldErrors::default();
        if !is_slug(&self.sysname) {
            errors.add("sysname", FieldCode::Invalid);
        }
        for (field, text) in [("title_en", &self.title_en), ("title_fr", &self.title_fr)] {
            if text.trim().is_empty() {
                errors.add(field, FieldCode::Required);
            } else if text.chars().count() > MAX_TITLE {
                errors.add_with(field, FieldCode::MaxLength, vec![("max", MAX_TITLE.to_string())]);
            }
        }
        let basis_ok = matches!(self.basis.as_str(), "net_loss" | "turnover");
        if !basis_ok {
            errors.add("basis", FieldCode::Unsupported);
        }
        let period_hours = match (self.period.as_str(), self.period_hours) {
            ("daily", None | Some(24)) => 24,
            ("weekly", None | Some(168)) => 168,
            ("daily" | "weekly", Some(_)) => {
                errors.add("period_hours", FieldCode::Invalid);
                0
            }
            ("custom", None) => {
                errors.add("period_hours", FieldCode::Required);
                0
            }
            ("custom", Some(h)) => {
                let min = if self.basis == "net_loss" { MIN_LOSS_HOURS } else { 1 };
                if h < min {
                    errors.add_with("period_hours", FieldCode::MinValue, vec![("min", min.to_string())]);
                } else if h > MAX_HOURS {
                    errors.add_with("period_hours", FieldCode::MaxValue, vec![("max", MAX_HOURS.to_string())]);
                }
                h
            }
            _ => {
                errors.add("period", FieldCode::Unsupported);
                0
            }
        };
        if self.rates.is_empty() || self.rates.values().all(|r| *r == 0) {
            errors.add("rates", FieldCode::Required);
        }
        for (kind, rate) in &self.rates {
            let field = format!("rates.{kind}");
            if kind != "*" && !GAME_TYPES.contains(&kind.as_str()) {
                errors.add(&field, FieldCode::Unsupported);
            } else if !(0..=FULL).contains(rate) {
                errors.add_with(&field, FieldCode::MaxValue, vec![("max", FULL.to_string())]);
            }
        }
        if self.limits.is_empty() {
            errors.add("limits", FieldCode::Required);
        }
        let mut limits = BTreeMap::new();
        for (code, limit) in &self.limits {
            let Some(currency) = Currency::parse(code) else {
                errors.add(&format!("limits.{code}"), FieldCode::Unsupported);
                continue;
            };
            let field = |part: &str| format!("limits.{}.{part}", currency.code());
            if limit.min < 0 {
                errors.add_with(&field("min"), FieldCode::MinValue, vec![("min", "0".into())]);
            }
            if limit.max < 1 {
                errors.add_with(&field("max"), FieldCode::MinValue, vec![("min", "1".into())]);
            } else if limit.max < limit.min {
                errors.add_with(&field("max"), FieldCode::MinValue, vec![("min", limit.min.to_string())]);
            }
            if limit.approve_above.is_some_and(|a| a < 0) {
                errors.add_with(&field("approve_above"), FieldCode::MinValue, vec![("min", "0".into())]);
            }
            limits.insert(currency.code().to_owned(), limit.clone());
        }
        let claim_hours = self.claim_hours.unwrap_or(72);
        if !(1..=MAX_HOURS).contains(&claim_hours) {
            errors.add("claim_hours", FieldCode::Invalid);
        }
        let pays = self.pays.clone().unwrap_or_else(|| "real".into());
        let wager_days = self.wager_days.unwrap_or(7);
        match pays.as_str() {
            "real" => {
                if self.wager_multiplier != 0 {
                    errors.add("wager_multiplier", FieldCode::Invalid);
                }
            }
            "bonus" => {
                if !(0..=100).contains(&self.wager_multiplier) {
                    errors.add_with("wager_multiplier", FieldCode::MaxValue, vec![("max", "100".into())]);
                }
                if !(1..=365).contains(&wager_days) {
                    errors.add("wager_days", FieldCode::Invalid);
                }
            }
            _ => errors.add("pays", FieldCode::Unsupported),
        }
        let starts_at = match self.starts_at {
            Some(s) => s.saturating_mul(1000),
            None => now - now.rem_euclid(24 * HOUR_MS),
        };
        // Not before 2000, nor more than a year ahead.
        if !(946_684_800_000..=now + MAX_HOURS * HOUR_MS).contains(&starts_at) {
            errors.add("starts_at", FieldCode::Date);
        }
        errors.into_result()?;
        Ok(Settings {
            sysname: self.sysname.clone(),
            title_en: self.title_en.trim().to_owned(),
            title_fr: self.title_fr.trim().to_owned(),
            period: self.period.clone(),
            period_hours,
            starts_at,
            basis: self.basis.clone(),
            rates: self.rates.clone(),
            limits,
            claim_hours,
            pays,
            wager_multiplier: self.wager_multiplier,
            wager_days,
            active: self.active,
        })
    }
}

/// A stored programme.
#[derive(Debug, Clone)]
pub struct Programme {
    pub id: i64,
    pub settings: Settings,
    pub closed_through: i64,
}

impl Programme {
    pub fn period_ms(&self) -> i64 {
        self.settings.period_hours * HOUR_MS
    }

    /// The rate of a game type, in basis points.
    pub fn rate(&self, game_type: &str) -> i64 {
        let rates = &self.settings.rates;
        rates.get(game_type).or_else(|| rates.get("*")).copied().unwrap_or(0)
    }

    /// The cashback for one player and currency from their basis per game type, held to the
    /// currency's bounds; None when it gives nothing (not positive, below the minimum, or a
    /// currency the programme does not list).
    pub fn cashback(&self, currency: &str, basis_by_type: &BTreeMap<String, i64>) -> Option<i64> {
        let limit = self.settings.limits.get(currency)?;
        let weighted: i128 =
            basis_by_type.iter().map(|(kind, basis)| i128::from(*basis) * i128::from(self.rate(kind))).sum();
        let amount = weighted / i128::from(FULL);
        if amount <= 0 || amount < i128::from(limit.min.max(1)) {
            return None;
        }
        Some(i64::try_from(amount.min(i128::from(limit.max))).unwrap_or(limit.max))
    }

    /// Whether an operator approves a cashback of `amount` first.
    pub fn needs_approval(&self, currency: &str, amount: i64) -> bool {
        self.settings.limits.get(currency).and_then(|l| l.approve_above).is_some_and(|above| amount > above)
    }

    fn to_json(&self) -> serde_json::Value {
        let s = &self.settings;
        json!({
            "id": self.id,
            "sysname": s.sysname,
            "title_en": s.title_en,
            "title_fr": s.title_fr,
            "period": s.period,
            "period_hours": s.period_hours,
            "starts_at": s.starts_at / 1000,
            "basis": s.basis,
            "rates": s.rates,
            "limits": s.limits,
            "claim_hours": s.claim_hours,
            "pays": s.pays,
            "wager_multiplier": s.wager_multiplier,
            "wager_days": s.wager_days,
            "active": s.active,
            "closed_through": self.closed_through / 1000,
        })
    }
}

#[derive(sqlx::FromRow)]
struct ProgrammeRow {
    id: i64,
    sysname: String,
    title_en: String,
    title_fr: String,
    period: String,
    period_hours: i64,
    starts_at: i64,
    basis: String,
    rates: String,
    limits: String,
    claim_hours: i64,
    pays: String,
    wager_multiplier: i64,
    wager_days: i64,
    active: i64,
    closed_through: i64,
}

const COLUMNS: &str = "id, sysname, title_en, title_fr, period, period_hours, starts_at, basis, rates, limits, claim_hours, pays, \
     wager_multiplier, wager_days, active, closed_through";

impl ProgrammeRow {
    fn into_programme(self) -> Result<Programme, sqlx::Error> {
        let decode = |e: serde_json::Error| sqlx::Error::Decode(Box::new(e));
        Ok(Programme {
            id: self.id,
            closed_through: self.closed_through,
            settings: Settings {
                sysname: self.sysname,
                title_en: self.title_en,
                title_fr: self.title_fr,
                period: self.period,
                period_hours: self.period_hours,
                starts_at: self.starts_at,
                basis: self.basis,
                rates: serde_json::from_str(&self.rates).map_err(decode)?,
                limits: serde_json::from_str(&self.limits).map_err(decode)?,
                claim_hours: self.claim_hours,
                pays: self.pays,
                wager_multiplier: self.wager_multiplier,
                wager_days: self.wager_days,
                active: self.active == 1,
            },
        })
    }
}

/// Every programme (active ones only with `active_only`), oldest first.
pub async fn list(db: &crate::db::Db, active_only: bool) -> Result<Vec<Programme>, sqlx::Error> {
    let rows: Vec<ProgrammeRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM cashback_programmes WHERE active = 1 OR $1 = 0 ORDER BY id"
    )))
    .bind(i64::from(active_only))
    .fetch_all(db.pool())
    .await?;
    rows.into_iter().map(ProgrammeRow::into_programme).collect()
}

pub async fn load(db: &crate::db::Db, id: i64) -> Result<Option<Programme>, sqlx::Error> {
    let row: Option<ProgrammeRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM cashback_programmes WHERE id = $1")))
            .bind(id)
            .fetch_optional(db.pool())
            .await?;
    row.map(ProgrammeRow::into_programme).transpose()
}

fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "{}".into())
}

/// Creates a programme; answers its id.
pub async fn create(db: &crate::db::Db, input: &ProgrammeInput) -> Result<i64, ApiError> {
    let now = now_ms();
    let s = input.check(now)?;
    let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM cashback_programmes WHERE sysname = $1")
        .bind(&s.sysname)
        .fetch_optional(db.pool())
        .await?;
    if taken.is_some() {
        return Err(ApiError::field("sysname", FieldCode::Taken));
    }
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO cashback_programmes (sysname, title_en, title_fr, period, period_hours, starts_at, basis, rates, limits, \
         claim_hours, pays, wager_multiplier, wager_days, active, closed_through, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $6, $15, $15) RETURNING id",
    )
    .bind(&s.sysname)
    .bind(&s.title_en)
    .bind(&s.title_fr)
    .bind(&s.period)
    .bind(s.period_hours)
    .bind(s.starts_at)
    .bind(&s.basis)
    .bind(json_text(&s.rates))
    .bind(json_text(&s.limits))
    .bind(s.claim_hours)
    .bind(&s.pays)
    .bind(s.wager_multiplier)
    .bind(s.wager_days)
    .bind(i64::from(s.active))
    .bind(now)
    .fetch_one(db.pool())
    .await?;
    Ok(id)
}

/// Replaces a programme's settings; its period, length, start and basis stay as created.
pub async fn update(db: &crate::db::Db, id: i64, input: &ProgrammeInput) -> Result<(), ApiError> {
    let Some(current) = load(db, id).await? else {
        return Err(ApiError::field("id", FieldCode::NotFound));
    };
    let mut input = input.clone();
    // The start defaults to the programme's own, not to today.
    input.starts_at = Some(input.starts_at.unwrap_or(current.settings.starts_at / 1000));
    let s = input.check(now_ms())?;
    let c = &current.settings;
    let mut errors = FieldErrors::default();
    for (field, same) in [
        ("sysname", s.sysname == c.sysname),
        ("period", s.period == c.period),
        ("period_hours", s.period_hours == c.period_hours),
        ("starts_at", s.starts_at == c.starts_at),
        ("basis", s.basis == c.basis),
    ] {
        if !same {
            errors.add(field, FieldCode::Locked);
        }
    }
    errors.into_result()?;
    sqlx::query(
        "UPDATE cashback_programmes SET title_en = $1, title_fr = $2, rates = $3, limits = $4, claim_hours = $5, pays = $6, \
         wager_multiplier = $7, wager_days = $8, active = $9, updated_at = $10 WHERE id = $11",
    )
    .bind(&s.title_en)
    .bind(&s.title_fr)
    .bind(json_text(&s.rates))
    .bind(json_text(&s.limits))
    .bind(s.claim_hours)
    .bind(&s.pays)
    .bind(s.wager_multiplier)
    .bind(s.wager_days)
    .bind(i64::from(s.active))
    .bind(now_ms())
    .bind(id)
    .execute(db.pool())
    .await?;
    Ok(())
}

fn ok(data: serde_json::Value) -> Response {
    Json(json!({ "status": "ok", "data": data })).into_response()
}

fn answer(result: Result<serde_json::Value, ApiError>) -> Response {
    match result {
        Ok(data) => ok(data),
        Err(e) => e.into_response(),
    }
}

fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|_| ApiError::bad_request(Some(("body", FieldCode::Invalid))))
}

async fn admin_list(State(state): State<AppState>, _: Operator) -> Response {
    let result = async {
        let programmes = list(state.db(), false).await?;
        Ok(json!({ "items": programmes.iter().map(Programme::to_json).collect::<Vec<_>>() }))
    }
    .await;
    answer(result)
}

async fn admin_create(State(state): State<AppState>, _: Operator, bytes: Bytes) -> Response {
    let result = async {
        let input: ProgrammeInput = body(&bytes)?;
        Ok(json!({ "id": create(state.db(), &input).await? }))
    }
    .await;
    answer(result)
}

async fn admin_update(State(state): State<AppState>, _: Operator, Path(id): Path<i64>, bytes: Bytes) -> Response {
    let result = async {
        let input: ProgrammeInput = body(&bytes)?;
        update(state.db(), id, &input).await?;
        Ok(json!({ "id": id }))
    }
    .await;
    answer(result)
}

#[derive(Debug, Deserialize)]
pub struct QueueQuery {
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub offset: Option<i64>,
    #[serde(default)]
    pub count: Option<i64>,
}

/// `GET /admin/cashbacks`: cashbacks of one status (default `pending`), oldest first.
/// A queued cashback: id, user, amount, currency, basis, programme, period start, created, reason.
type QueueRow = (i64, i64, i64, String, i64, Option<i64>, Option<i64>, i64, Option<String>);

async fn admin_queue(State(state): State<AppState>, _: Operator, Query(query): Query<QueueQuery>) -> Response {
    let result = async {
        let status = query.status.unwrap_or_else(|| "pending".into());
        let mut errors = FieldErrors::default();
        if !STATUSES.contains(&status.as_str()) {
            errors.add("status", FieldCode::Unsupported);
        }
        let count = query.count.unwrap_or(50);
        if !(1..=500).contains(&count) {
            errors.add("count", FieldCode::Invalid);
        }
        let offset = query.offset.unwrap_or(0);
        if offset < 0 {
            errors.add("offset", FieldCode::Invalid);
        }
        errors.into_result()?;
        let rows: Vec<QueueRow> = sqlx::query_as(
            "SELECT id, user_id, amount, currency, basis_amount, programme_id, period_start, created_at, decision_reason \
             FROM cashbacks WHERE status = $1 ORDER BY id LIMIT $2 OFFSET $3",
        )
        .bind(&status)
        .bind(count)
        .bind(offset)
        .fetch_all(state.db().pool())
        .await?;
        let items: Vec<_> = rows
            .into_iter()
            .map(|(id, user_id, amount, currency, basis, programme_id, period_start, created_at, reason)| {
                let money = |minor: i64| {
                    Currency::parse(&currency)
                        .map_or_else(|| minor.to_string(), |c| Money::from_minor(minor, c).to_decimal_string())
                };
                json!({
                    "id": id,
                    "user_id": user_id,
                    "status": status,
                    "amount": Amount { amount: money(amount), currency: currency.clone() },
                    "basis_amount": money(basis),
                    "programme_id": programme_id,
                    "period_start": period_start.map(|p| p / 1000),
                    "created_at": created_at / 1000,
                    "reason": reason,
                })
            })
            .collect();
        Ok(json!({ "items": items }))
    }
    .await;
    answer(result)
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    #[serde(default)]
    pub reason: Option<String>,
}

/// What an operator decides about a pending cashback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Approve,
    Reject,
}

/// Approves (it becomes `active`, claimable for the programme's claim time from now, and the
/// player is told) or rejects (`rejected`, with the reason) a `pending` cashback. `by`'s audit row
/// (`cashbacks.approve` or `cashbacks.reject`) is written in the decision's transaction.
pub async fn decide(
    state: &AppState,
    by: &trail::Actor,
    id: i64,
    verdict: Verdict,
    reason: Option<&str>,
) -> Result<(), ApiError> {
    let reason = reason.map(str::trim).filter(|r| !r.is_empty()).map(str::to_owned);
    if verdict == Verdict::Reject && reason.is_none() {
        return Err(ApiError::field("reason", FieldCode::Required));
    }
    if reason.as_ref().is_some_and(|r| r.chars().count() > 500) {
        return Err(ApiError::field_with("reason", FieldCode::MaxLength, vec![("max", "500".into())]));
    }
    let user_id: Option<i64> = sqlx::query_scalar("SELECT user_id FROM cashbacks WHERE id = $1")
        .bind(id)
        .fetch_optional(state.db().pool())
        .await?;
    let Some(user_id) = user_id else { return Err(ApiError::field("id", FieldCode::NotFound)) };
    let db = state.db().clone();
    let by = by.clone();
    state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let (db, reason, by) = (db.clone(), reason.clone(), by.clone());
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    let row: Option<(String, Option<i64>)> =
                        sqlx::query_as("SELECT status, claim_hours FROM cashbacks WHERE id = $1")
                            .bind(id)
                            .fetch_optional(&mut *conn)
                            .await?;
                    let Some((status, claim_hours)) = row else { return Err(ApiError::field("id", FieldCode::NotFound)) };
                    if status != "pending" {
                        return Err(ApiError::field("status", FieldCode::Locked));
                    }
                    let now = now_ms();
                    match verdict {
                        Verdict::Approve => {
                            let until = claim_hours.map(|h| now + h * HOUR_MS);
                            sqlx::query(
                                "UPDATE cashbacks SET status = 'active', receiving_expired_at = $1, decided_at = $2, \
                                 decision_reason = $3 WHERE id = $4",
                            )
                            .bind(until)
                            .bind(now)
                            .bind(&reason)
                            .bind(id)
                            .execute(&mut *conn)
                            .await?;
                            super::announce(conn, id).await?;
                        }
                        Verdict::Reject => {
                            sqlx::query(
                                "UPDATE cashbacks SET status = 'rejected', decided_at = $1, decision_reason = $2 WHERE id = $3",
                            )
                            .bind(now)
                            .bind(&reason)
                            .bind(id)
                            .execute(&mut *conn)
                            .await?;
                        }
                    }
                    let target = id.to_string();
                    let row = trail::Row {
                        action: if verdict == Verdict::Approve { "cashbacks.approve" } else { "cashbacks.reject" },
                        target_type: Some("cashback"),
                        target_id: Some(&target),
                        user_id: Some(user_id),
                        reason: reason.as_deref(),
                        before: Some(json!({ "status": status })),
                        ..trail::Row::by(&by)
                    };
                    trail::write(&mut *conn, &row).await?;
                    Ok(())
                })
            }),
        )
        .await
}

async fn admin_decide(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path((id, action)): Path<(i64, String)>,
    bytes: Bytes,
) -> Response {
    let result = async {
        let verdict = match action.as_str() {
            "approve" => Verdict::Approve,
            "reject" => Verdict::Reject,
            _ => return Err(ApiError::field("id", FieldCode::NotFound)),
        };
        let decision: Decision = if bytes.is_empty() { Decision::default() } else { body(&bytes)? };
        decide(&state, &trail::Actor::from(&staff), id, verdict, decision.reason.as_deref()).await?;
        Ok(json!({ "id": id }))
    }
    .await;
    // The decision wrote its own audit row in its transaction.
    trail::audited(answer(result))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> ProgrammeInput {
        serde_json::from_value(json!({
            "sysname": "weekly",
            "title_en": "Weekly cashback",
            "title_fr": "Cashback hebdomadaire",
            "period": "weekly",
            "basis": "net_loss",
            "rates": {"slot": 1000, "*": 500},
            "limits": {"USD": {"min": 100, "max": 10000, "approve_above": 5000}},
        }))
        .unwrap()
    }

    fn programme(input: &ProgrammeInput) -> Programme {
        Programme { id: 1, settings: input.check(1_800_000_000_000).unwrap(), closed_through: 0 }
    }

    #[test]
    fn the_cashback_weighs_each_game_type_and_keeps_to_the_bounds() {
        let p = programme(&input());
        let basis = |pairs: &[(&str, i64)]| pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect();
        // 10 % of 300.00 on slots + 5 % of 100.00 at the table.
        assert_eq!(p.cashback("USD", &basis(&[("slot", 30_000), ("casino", 10_000)])), Some(3_500));
        // A win at the table offsets the loss on slots at its own rate.
        assert_eq!(p.cashback("USD", &basis(&[("slot", 30_000), ("casino", -20_000)])), Some(2_000));
        assert_eq!(p.cashback("USD", &basis(&[("slot", 500_000)])), Some(10_000), "held to the maximum");
        assert_eq!(p.cashback("USD", &basis(&[("slot", 999)])), None, "below the minimum");
        assert_eq!(p.cashback("USD", &basis(&[("slot", -30_000)])), None, "a winner gets nothing");
        assert_eq!(p.cashback("EUR", &basis(&[("slot", 30_000)])), None, "a currency not listed");
        assert!(p.needs_approval("USD", 5_001));
        assert!(!p.needs_approval("USD", 5_000));
    }

    #[test]
    fn bad_settings_are_refused_field_by_field() {
        let mut bad = input();
        bad.sysname = "Not A Slug".into();
        bad.period = "custom".into();
        bad.period_hours = Some(6);
        bad.rates.insert("bingo".into(), 100);
        bad.rates.insert("slot".into(), 10_001);
        bad.limits.insert("XYZ".into(), Limit { min: 0, max: 1, approve_above: None });
        bad.limits.insert("USD".into(), Limit { min: 500, max: 100, approve_above: Some(-1) });
        bad.pays = Some("real".into());
        bad.wager_multiplier = 5;
        let error = bad.check(1_800_000_000_000).unwrap_err();
        let names: Vec<&str> = error.fields().iter().map(|f| f.field.as_str()).collect();
        for field in [
            "sysname",
            "period_hours",
            "rates.bingo",
            "rates.slot",
            "limits.XYZ",
            "limits.USD.max",
            "limits.USD.approve_above",
            "wager_multiplier",
        ] {
            assert!(names.contains(&field), "{field} missing from {names:?}");
        }
        let mut turnover = input();
        turnover.basis = "turnover".into();
        turnover.period = "custom".into();
        turnover.period_hours = Some(6);
        assert_eq!(turnover.check(1_800_000_000_000).unwrap().period_hours, 6, "a turnover period may be short");
    }
}
