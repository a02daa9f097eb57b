//! Reports, the system page and the gate of the feature admin routes.
//!
//! The summary is computed from the tables that hold the facts, for one currency (amounts in its
//! minor units) and whole UTC days:
//! - bets, wins, GGR (bets − wins), active players: real-money `game_rounds` by the round's start;
//! - deposits: successful deposit `payments`; withdrawals: paid ones (by their last change);
//! - new players: `users` of that currency by registration;
//! - bonus cost: what the house accounts `promotions` (cashbacks, prizes) and `bonus_liability`
//!   (bonuses granted, less those forfeited back) handed to players, net, from the ledger.

use super::auth::{Staff, denied};
use super::{bad, body, csv, json, reason, trail};
use crate::AppState;
use crate::api::{ApiError, OperatorGrant};
use crate::db::now_ms;
use axum::body::{Body, Bytes};
use axum::extract::{Query, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use croupier_platform::http::csv_line;
use croupier_platform::time::{civil_from_days, days_from_civil};
use croupier_shared::{Currency, FieldCode};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

const DAY_MS: i64 = 86_400_000;
const MAX_DAYS: i64 = 366;

/// Days since 1970-01-01 of a `YYYY-MM-DD` date (proleptic Gregorian, 1970 to 9999). A day the
/// month does not have is refused: the date must come back unchanged from its day number.
pub fn days_of(text: &str) -> Option<i64> {
    let mut parts = text.split('-');
    let (y, m, d) =
        (parts.next()?.parse::<i64>().ok()?, parts.next()?.parse::<i64>().ok()?, parts.next()?.parse::<i64>().ok()?);
    if parts.next().is_some() || !(1970..=9999).contains(&y) || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let days = days_from_civil(y, m, d);
    (civil_from_days(days) == (y, m, d)).then_some(days)
}

/// The `YYYY-MM-DD` of a day number.
pub fn date_of(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

#[derive(Deserialize)]
pub struct SummaryQuery {
    from: Option<String>,
    to: Option<String>,
    currency: Option<String>,
}

#[derive(Serialize, Default, Clone)]
struct Day {
    date: String,
    bets: i64,
    wins: i64,
    ggr: i64,
    deposits: i64,
    withdrawals: i64,
    active_players: i64,
    new_players: i64,
    bonus_cost: i64,
}

#[derive(Serialize)]
struct Slice {
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    provider: Option<String>,
    bets: i64,
    wins: i64,
    ggr: i64,
}

#[derive(Serialize)]
struct Summary {
    currency: &'static str,
    days: Vec<Day>,
    by_game: Vec<Slice>,
    by_provider: Vec<Slice>,
}

#[derive(sqlx::FromRow)]
struct Sums {
    k: i64,
    a: i64,
    b: i64,
    c: i64,
}

#[derive(sqlx::FromRow)]
struct Named {
    name: String,
    a: i64,
    b: i64,
}

fn period(state: &AppState, q: &SummaryQuery) -> Result<(i64, i64, Currency), ApiError> {
    let today = now_ms().div_euclid(DAY_MS);
    let from = match q.from.as_deref().filter(|s| !s.is_empty()) {
        None => today - 29,
        Some(s) => days_of(s).ok_or_else(|| bad("from", FieldCode::Date))?,
    };
    let to = match q.to.as_deref().filter(|s| !s.is_empty()) {
        None => today,
        Some(s) => days_of(s).ok_or_else(|| bad("to", FieldCode::Date))?,
    };
    if to < from {
        return Err(bad("to", FieldCode::Date));
    }
    if to - from >= MAX_DAYS {
        return Err(ApiError::field_with("to", FieldCode::MaxValue, vec![("max", MAX_DAYS.to_string())]));
    }
    let currency = match q.currency.as_deref().filter(|s| !s.is_empty()) {
        None => state.config().default_currency,
        Some(code) => {
            Currency::parse(&code.to_ascii_uppercase()).ok_or_else(|| bad("currency", FieldCode::Unsupported))?
        }
    };
    Ok((from, to, currency))
}

async fn sums(state: &AppState, sql: &str, currency: Currency, from: i64, to: i64) -> Result<Vec<Sums>, ApiError> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql.to_owned()))
        .bind(currency.code())
        .bind(from * DAY_MS)
        .bind((to + 1) * DAY_MS)
        .fetch_all(state.db().pool())
        .await?)
}

async fn compute(state: &AppState, q: &SummaryQuery) -> Result<Summary, ApiError> {
    let (from, to, currency) = period(state, q)?;
    let mut days: BTreeMap<i64, Day> = (from..=to).map(|d| (d, Day { date: date_of(d), ..Day::default() })).collect();
    let rounds = sums(
        state,
        "SELECT created_at / 86400000 AS k, CAST(COALESCE(SUM(bet), 0) AS BIGINT) AS a, CAST(COALESCE(SUM(win), 0) AS BIGINT) AS b, \
         COUNT(DISTINCT user_id) AS c FROM game_rounds WHERE mode = 'real' AND currency = $1 AND created_at >= $2 AND created_at < $3 \
         GROUP BY created_at / 86400000",
        currency,
        from,
        to,
    )
    .await?;
    for r in rounds {
        if let Some(day) = days.get_mut(&r.k) {
            (day.bets, day.wins, day.ggr, day.active_players) = (r.a, r.b, r.a - r.b, r.c);
        }
    }
    let payments = sums(
        state,
        "SELECT updated_at / 86400000 AS k, \
         CAST(COALESCE(SUM(CASE WHEN direction = 'deposit' AND status = 'success' THEN amount ELSE 0 END), 0) AS BIGINT) AS a, \
         CAST(COALESCE(SUM(CASE WHEN direction = 'withdrawal' AND status = 'paid' THEN amount ELSE 0 END), 0) AS BIGINT) AS b, \
         COUNT(*) AS c FROM payments WHERE currency = $1 AND updated_at >= $2 AND updated_at < $3 GROUP BY updated_at / 86400000",
        currency,
        from,
        to,
    )
    .await?;
    for r in payments {
        if let Some(day) = days.get_mut(&r.k) {
            (day.deposits, day.withdrawals) = (r.a, r.b);
        }
    }
    let players = sums(
        state,
        "SELECT reg_time / 86400000 AS k, COUNT(*) AS a, 0 AS b, 0 AS c FROM users \
         WHERE currency = $1 AND reg_time >= $2 AND reg_time < $3 GROUP BY reg_time / 86400000",
        currency,
        from,
        to,
    )
    .await?;
    for r in players {
        if let Some(day) = days.get_mut(&r.k) {
            day.new_players = r.a;
        }
    }
    let bonus = sums(
        state,
        "SELECT t.created_at / 86400000 AS k, CAST(COALESCE(-SUM(p.amount), 0) AS BIGINT) AS a, 0 AS b, 0 AS c \
         FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id JOIN ledger_transactions t ON t.id = p.transaction_id \
         WHERE a.user_id = 0 AND a.kind IN ('promotions', 'bonus_liability') AND a.currency = $1 \
         AND t.created_at >= $2 AND t.created_at < $3 GROUP BY t.created_at / 86400000",
        currency,
        from,
        to,
    )
    .await?;
    for r in bonus {
        if let Some(day) = days.get_mut(&r.k) {
            day.bonus_cost = r.a;
        }
    }
    let slices = |column: &str| {
        format!(
            "SELECT {column} AS name, CAST(COALESCE(SUM(r.bet), 0) AS BIGINT) AS a, CAST(COALESCE(SUM(r.win), 0) AS BIGINT) AS b \
             FROM game_rounds r LEFT JOIN games g ON g.id = r.game_id WHERE r.mode = 'real' AND r.currency = $1 \
             AND r.created_at >= $2 AND r.created_at < $3 GROUP BY {column} ORDER BY 2 DESC"
        )
    };
    let mut by = Vec::new();
    for column in ["COALESCE(g.sysname, '')", "r.provider"] {
        let rows: Vec<Named> = sqlx::query_as(sqlx::AssertSqlSafe(slices(column)))
            .bind(currency.code())
            .bind(from * DAY_MS)
            .bind((to + 1) * DAY_MS)
            .fetch_all(state.db().pool())
            .await?;
        by.push(rows);
    }
    let by_provider = by.pop().unwrap_or_default();
    let by_game = by.pop().unwrap_or_default();
    Ok(Summary {
        currency: currency.code(),
        days: days.into_values().collect(),
        by_game: by_game
            .into_iter()
            .map(|n| Slice { game: Some(n.name), provider: None, bets: n.a, wins: n.b, ggr: n.a - n.b })
            .collect(),
        by_provider: by_provider
            .into_iter()
            .map(|n| Slice { game: None, provider: Some(n.name), bets: n.a, wins: n.b, ggr: n.a - n.b })
            .collect(),
    })
}

/// `GET /backoffice/api/reports/summary?from=YYYY-MM-DD&to=YYYY-MM-DD&currency=EUR`.
pub async fn summary(staff: Staff, Query(q): Query<SummaryQuery>) -> Response {
    let result = async {
        staff.require("reports.read", "reports.summary", None).await?;
        Ok(json(&compute(staff.state(), &q).await?))
    }
    .await;
    staff.answer(result)
}

/// `GET /backoffice/api/reports/summary.csv`: the days.
pub async fn summary_csv(staff: Staff, Query(q): Query<SummaryQuery>) -> Response {
    let result = async {
        staff.require("reports.read", "reports.export", None).await?;
        let s = compute(staff.state(), &q).await?;
        let mut out = csv_line([
            "date",
            "currency",
            "bets",
            "wins",
            "ggr",
            "deposits",
            "withdrawals",
            "active_players",
            "new_players",
            "bonus_cost",
        ]);
        for d in s.days {
            out.push_str(&csv_line([
                d.date,
                s.currency.to_owned(),
                d.bets.to_string(),
                d.wins.to_string(),
                d.ggr.to_string(),
                d.deposits.to_string(),
                d.withdrawals.to_string(),
                d.active_players.to_string(),
                d.new_players.to_string(),
                d.bonus_cost.to_string(),
            ]));
        }
        Ok(csv("summary", out))
    }
    .await;
    staff.answer(result)
}

#[derive(sqlx::FromRow, Serialize)]
struct JobRun {
    name: String,
    last_run_at: i64,
    #[serde(serialize_with = "super::as_bool")]
    last_ok: i64,
    last_error: Option<String>,
}

async fn system_view(state: &AppState) -> Result<Value, ApiError> {
    let on = state.maintenance().await;
    let reason: Option<String> = sqlx::query_scalar("SELECT reason FROM site_switches WHERE name = 'maintenance'")
        .fetch_optional(state.db().pool())
        .await?
        .flatten();
    let mut jobs: Vec<JobRun> =
        sqlx::query_as("SELECT name, last_run_at, last_ok, last_error FROM job_runs ORDER BY name")
            .fetch_all(state.db().pool())
            .await?;
    jobs.iter_mut().for_each(|j| j.last_run_at = super::seconds(j.last_run_at));
    let (pending, oldest): (i64, Option<i64>) =
        sqlx::query_as("SELECT COUNT(*), MIN(created_at) FROM notification_outbox WHERE status = 'pending'")
            .fetch_one(state.db().pool())
            .await?;
    Ok(json!({
        "maintenance": { "on": on, "reason": if on { reason } else { None } },
        "jobs": jobs,
        "outbox": { "pending": pending, "oldest_at": oldest.map(super::seconds) },
    }))
}

/// `GET /backoffice/api/system`.
pub async fn system(staff: Staff) -> Response {
    let result = async {
        staff.require("system.manage", "system.show", None).await?;
        Ok(json(&system_view(staff.state()).await?))
    }
    .await;
    staff.answer(result)
}

#[derive(Deserialize)]
struct MaintenanceBody {
    #[serde(default)]
    on: Option<bool>,
    #[serde(default)]
    reason: Option<String>,
}

/// `POST /backoffice/api/system/maintenance {on, reason}`: the protection feature's switch.
pub async fn maintenance(staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        staff.require("system.manage", "system.maintenance", None).await?;
        let input: MaintenanceBody = body(&bytes)?;
        let on = input.on.ok_or_else(|| bad("on", FieldCode::Required))?;
        let why = reason(input.reason.as_deref())?;
        let state = staff.state();
        // The protection feature writes the switch and its audit row in one transaction.
        crate::features::protection::admin::set_maintenance(state, &trail::Actor::from(&staff), on, &why).await?;
        Ok(json(&system_view(state).await?))
    }
    .await;
    staff.answer(result)
}

/// The largest body the gate reads to find a `reason` (the admin bodies are small JSON).
const GATE_BODY_MAX: usize = 1 << 20;

/// In front of the `/admin` routers mounted under `/backoffice/api`: the caller must be staff
/// with the mount's `permission` (refusals audited); a change is audited with its path, its body
/// (as `after`) and the body's `reason`, once it succeeded.
pub async fn admin_gate(
    State((state, permission)): State<(AppState, &'static str)>,
    request: Request,
    next: Next,
) -> Response {
    let (mut parts, body_in) = request.into_parts();
    let staff = match <Staff as axum::extract::FromRequestParts<AppState>>::from_request_parts(&mut parts, &state).await
    {
        Ok(staff) => staff,
        Err(rejection) => return rejection,
    };
    let path = parts.uri.path().to_owned();
    let action =
        format!("admin.{} {}", parts.method.as_str().to_lowercase(), path.trim_start_matches("/backoffice/api"));
    if !staff.role.can(permission) {
        let row = trail::Row {
            action: &action,
            outcome: "denied",
            after: Some(json!({ "permission": permission })),
            ..trail::Row::of(&staff)
        };
        if let Err(e) = trail::write(state.db().pool(), &row).await {
            return staff.answer(Err(e));
        }
        return staff.answer(Err(denied(permission)));
    }
    let bytes = match axum::body::to_bytes(body_in, GATE_BODY_MAX).await {
        Ok(bytes) => bytes,
        Err(_) => return staff.answer(Err(bad("body", FieldCode::Invalid))),
    };
    let changes = parts.method != Method::GET && parts.method != Method::HEAD;
    parts.extensions.insert(OperatorGrant);
    // The handler's own `Staff` is this one (not resolved again).
    parts.extensions.insert(staff.clone());
    let response = next.run(Request::from_parts(parts, Body::from(bytes.clone()))).await;
    // A handler that wrote its own row in its transaction marked its answer: one row per action.
    // The others' changes are committed by now; their generic row follows.
    if changes && response.status().is_success() && response.extensions().get::<trail::Audited>().is_none() {
        let sent: Option<Value> = serde_json::from_slice(&bytes).ok();
        let why = sent.as_ref().and_then(|v| v.get("reason")).and_then(Value::as_str).map(str::to_owned);
        let row = trail::Row { action: &action, reason: why.as_deref(), after: sent, ..trail::Row::of(&staff) };
        if let Err(e) = trail::write(state.db().pool(), &row).await {
            tracing::error!(error = ?e, action, "admin action not audited");
        }
    }
    response.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        assert_eq!(days_of("1970-01-01"), Some(0));
        assert_eq!(days_of("2000-03-01"), Some(11_017));
        assert_eq!(date_of(11_017), "2000-03-01");
        assert_eq!(date_of(days_of("2024-02-29").unwrap()), "2024-02-29");
        for d in [0, 59, 60, 365, 10_000, 20_000, 2_932_896] {
            assert_eq!(days_of(&date_of(d)), Some(d));
        }
        for bad in ["2023-02-29", "2024-13-01", "2024-00-10", "x", "2024-01", "2024-01-01-01", "1969-12-31"] {
            assert_eq!(days_of(bad), None, "{bad}");
        }
    }
}
