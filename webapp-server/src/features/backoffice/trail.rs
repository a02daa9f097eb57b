//! The operators' audit trail (`operator_audit`): one append-only row per action, per refused
//! attempt and per sign-in — who (operator, role, address), when, what (action, target, player),
//! why (the reason given), the values before and after, and the outcome (`ok`, `denied`).
//! Triggers refuse UPDATE and DELETE on both databases; no route edits it.

use super::lists::{Arg, ListQuery, Listing, Where};
use super::{Staff, json, missing, seconds};
use crate::api::ApiError;
use crate::db::now_ms;
use axum::extract::{Path, RawQuery};
use axum::response::Response;
use serde::Serialize;
use serde_json::Value;
use std::net::IpAddr;

/// One row to append.
pub struct Row<'a> {
    pub at: i64,
    pub operator_id: Option<i64>,
    pub operator_name: Option<&'a str>,
    pub role: &'a str,
    pub ip: Option<IpAddr>,
    pub action: &'a str,
    pub target_type: Option<&'a str>,
    pub target_id: Option<&'a str>,
    pub user_id: Option<i64>,
    pub reason: Option<&'a str>,
    pub before: Option<Value>,
    pub after: Option<Value>,
    pub outcome: &'a str,
}

/// Who does a change: an operator of the back office, the automation token or the CLI. Feature
/// functions that own their transaction take one and write their audit row in it.
#[derive(Debug, Clone)]
pub struct Actor {
    pub operator_id: Option<i64>,
    pub name: String,
    pub role: String,
    pub ip: Option<IpAddr>,
}

impl Actor {
    /// The CLI (`croupier-server admin …`), with the automation token's role.
    pub fn cli() -> Actor {
        Actor { operator_id: None, name: "cli".into(), role: "automation".into(), ip: None }
    }
}

impl From<&Staff> for Actor {
    fn from(staff: &Staff) -> Actor {
        Actor { operator_id: staff.id, name: staff.name.clone(), role: staff.role.name().to_owned(), ip: staff.ip }
    }
}

/// Marks a response whose handler wrote its own audit row in its transaction: the back office's
/// `/admin` gate then writes no generic row after it (one action, one row).
#[derive(Debug, Clone, Copy)]
pub struct Audited;

/// `response` marked [`Audited`].
pub fn audited(mut response: axum::response::Response) -> axum::response::Response {
    response.extensions_mut().insert(Audited);
    response
}

impl<'a> Row<'a> {
    /// A row by `staff`, now, `ok`, with nothing else filled in.
    pub fn of(staff: &'a Staff) -> Row<'a> {
        Row::blank(staff.id, &staff.name, staff.role.name(), staff.ip)
    }

    /// A row by `actor`, now, `ok`, with nothing else filled in.
    pub fn by(actor: &'a Actor) -> Row<'a> {
        Row::blank(actor.operator_id, &actor.name, &actor.role, actor.ip)
    }

    /// This row as `action` on the `target_type` whose id is `target_id`.
    pub fn on(self, action: &'a str, target_type: &'a str, target_id: &'a str) -> Row<'a> {
        Row { action, target_type: Some(target_type), target_id: Some(target_id), ..self }
    }

    fn blank(operator_id: Option<i64>, name: &'a str, role: &'a str, ip: Option<IpAddr>) -> Row<'a> {
        Row {
            at: now_ms(),
            operator_id,
            operator_name: Some(name),
            role,
            ip,
            action: "",
            target_type: None,
            target_id: None,
            user_id: None,
            reason: None,
            before: None,
            after: None,
            outcome: "ok",
        }
    }
}

/// Appends `row`.
pub async fn write(conn: impl sqlx::AnyExecutor<'_>, row: &Row<'_>) -> Result<(), ApiError> {
    sqlx::query(
        "INSERT INTO operator_audit (at, operator_id, operator_name, role, ip, action, target_type, target_id, user_id, \
         reason, before_json, after_json, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(row.at)
    .bind(row.operator_id)
    .bind(row.operator_name)
    .bind(row.role)
    .bind(row.ip.map(|ip| ip.to_string()))
    .bind(row.action)
    .bind(row.target_type)
    .bind(row.target_id)
    .bind(row.user_id)
    .bind(row.reason)
    .bind(row.before.as_ref().map(Value::to_string))
    .bind(row.after.as_ref().map(Value::to_string))
    .bind(row.outcome)
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct AuditRow {
    id: i64,
    at: i64,
    operator_id: Option<i64>,
    operator_name: Option<String>,
    role: String,
    ip: Option<String>,
    action: String,
    target_type: Option<String>,
    target_id: Option<String>,
    user_id: Option<i64>,
    reason: Option<String>,
    before_json: Option<String>,
    after_json: Option<String>,
    outcome: String,
}

#[derive(Serialize)]
struct AuditItem {
    id: i64,
    at: i64,
    operator_id: Option<i64>,
    operator_name: Option<String>,
    role: String,
    ip: Option<String>,
    action: String,
    target_type: Option<String>,
    target_id: Option<String>,
    user_id: Option<i64>,
    reason: Option<String>,
    before: Option<Value>,
    after: Option<Value>,
    outcome: String,
}

impl From<AuditRow> for AuditItem {
    fn from(r: AuditRow) -> AuditItem {
        let parse = |text: Option<String>| text.and_then(|t| serde_json::from_str(&t).ok());
        AuditItem {
            id: r.id,
            at: seconds(r.at),
            operator_id: r.operator_id,
            operator_name: r.operator_name,
            role: r.role,
            ip: r.ip,
            action: r.action,
            target_type: r.target_type,
            target_id: r.target_id,
            user_id: r.user_id,
            reason: r.reason,
            before: parse(r.before_json),
            after: parse(r.after_json),
            outcome: r.outcome,
        }
    }
}

const SELECT: &str = "SELECT id, at, operator_id, operator_name, role, ip, action, target_type, target_id, user_id, \
                      reason, before_json, after_json, outcome FROM operator_audit";

fn filters(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = Where::default();
    w.eq_int(query, "operator_id", "operator_id")?;
    w.eq_int(query, "user_id", "user_id")?;
    w.eq_text(query, "action", "action")?;
    if let Some(outcome) = query.text("outcome")? {
        if !matches!(outcome.as_str(), "ok" | "denied") {
            return Err(super::bad("filter.outcome", croupier_shared::FieldCode::Unsupported));
        }
        w.push("outcome = {}", vec![Arg::Text(outcome)]);
    }
    w.time_range(query, "at")?;
    Ok(w)
}

const SORTS: &[(&str, &str)] = &[("id", "id"), ("at", "at"), ("action", "action"), ("operator_id", "operator_id")];

const AUDIT: Listing =
    Listing { resource: "audit", permission: "audit.read", sorts: SORTS, default_sort: "id", select: SELECT, filters };

/// `GET /backoffice/api/audit`.
pub async fn list(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    AUDIT.page(staff, raw, <AuditItem as From<AuditRow>>::from).await
}

/// `GET /backoffice/api/audit/{id}`.
pub async fn show(staff: Staff, Path(id): Path<i64>) -> Response {
    let result = async {
        staff.require("audit.read", "audit.show", Some(("audit", id.to_string()))).await?;
        let row: Option<AuditRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} WHERE id = $1")))
            .bind(id)
            .fetch_optional(staff.state().db().pool())
            .await?;
        Ok(json(&AuditItem::from(row.ok_or_else(|| missing("id"))?)))
    }
    .await;
    staff.answer(result)
}

/// `GET /backoffice/api/audit/export.csv`.
pub async fn export(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    let header = [
        "id",
        "at",
        "operator_id",
        "operator_name",
        "role",
        "ip",
        "action",
        "target_type",
        "target_id",
        "user_id",
        "reason",
        "before",
        "after",
        "outcome",
    ];
    AUDIT
        .export(staff, raw, &header, |r: AuditRow| {
            let r = AuditItem::from(r);
            vec![
                r.id.to_string(),
                r.at.to_string(),
                r.operator_id.map(|v| v.to_string()).unwrap_or_default(),
                r.operator_name.unwrap_or_default(),
                r.role,
                r.ip.unwrap_or_default(),
                r.action,
                r.target_type.unwrap_or_default(),
                r.target_id.unwrap_or_default(),
                r.user_id.map(|v| v.to_string()).unwrap_or_default(),
                r.reason.unwrap_or_default(),
                r.before.map(|v| v.to_string()).unwrap_or_default(),
                r.after.map(|v| v.to_string()).unwrap_or_default(),
                r.outcome,
            ]
        })
        .await
}
