//! Operator accounts: the `operators` resource (permission `operators.manage`) and the CLI's
//! `croupier-server admin operators create|list|disable`, which makes the first admin.
//!
//! A new operator has a password (at least 12 characters, argon2id) and no second factor: the
//! first sign-in enrols TOTP. Disabling an operator or resetting their TOTP ends their sessions.

use super::auth::{OPERATOR_COLUMNS, OperatorView, Role, end_sessions, load_view};
use super::lists::{Arg, ListQuery, Where};
use super::{Staff, bad, body, created, json, missing, reason, trail};
use crate::AppState;
use crate::api::{ApiError, FieldErrors};
use crate::db::now_ms;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery};
use axum::response::Response;
use croupier_shared::FieldCode;
use serde::Deserialize;
use serde_json::json;

pub const PASSWORD_MIN: usize = 12;

/// A new operator's fields, checked.
pub struct NewOperator {
    pub email: String,
    pub name: String,
    pub role: Role,
    pub password: String,
}

impl NewOperator {
    pub fn check(email: &str, name: &str, role: &str, password: &str) -> Result<NewOperator, ApiError> {
        let mut errors = FieldErrors::default();
        let email = email.trim().to_lowercase();
        if email.is_empty() {
            errors.add("email", FieldCode::Required);
        } else if email.len() > 254 || !email.split_once('@').is_some_and(|(a, d)| !a.is_empty() && d.contains('.')) {
            errors.add("email", FieldCode::Email);
        }
        let name = name.trim();
        if name.is_empty() {
            errors.add("name", FieldCode::Required);
        } else if name.chars().count() > 100 {
            errors.add_with("name", FieldCode::MaxLength, vec![("max", "100".into())]);
        }
        let parsed = Role::parse(role.trim());
        if role.trim().is_empty() {
            errors.add("role", FieldCode::Required);
        } else if parsed.is_none() {
            errors.add("role", FieldCode::Unsupported);
        }
        if password.chars().count() < PASSWORD_MIN {
            errors.add_with("password", FieldCode::MinLength, vec![("min", PASSWORD_MIN.to_string())]);
        } else if password.len() > 1024 {
            errors.add_with("password", FieldCode::MaxLength, vec![("max", "1024".into())]);
        }
        errors.into_result()?;
        Ok(NewOperator {
            email,
            name: name.to_owned(),
            role: parsed.unwrap_or(Role::Support),
            password: password.to_owned(),
        })
    }
}

/// Writes a new operator (inside `conn`'s transaction); `Taken` when the e-mail is.
pub async fn insert(conn: &mut sqlx::AnyConnection, new: &NewOperator) -> Result<i64, ApiError> {
    let hash = crate::password::hash(&new.password).await?;
    let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM operators WHERE email = $1")
        .bind(&new.email)
        .fetch_optional(&mut *conn)
        .await?;
    if taken.is_some() {
        return Err(bad("email", FieldCode::Taken));
    }
    Ok(sqlx::query_scalar(
        "INSERT INTO operators (email, name, role, password_hash, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(&new.email)
    .bind(&new.name)
    .bind(new.role.name())
    .bind(hash)
    .bind(now_ms())
    .fetch_one(conn)
    .await?)
}

/// The CLI's `admin operators create`: the operator and its audit row (role `cli`).
pub async fn create_from_cli(state: &AppState, new: &NewOperator) -> Result<i64, ApiError> {
    let mut tx = state.db().begin().await?;
    let id = insert(&mut tx, new).await?;
    trail::write(
        &mut *tx,
        &trail::Row {
            at: now_ms(),
            operator_id: None,
            operator_name: Some("cli"),
            role: "cli",
            ip: None,
            action: "operators.create",
            target_type: Some("operator"),
            target_id: Some(&id.to_string()),
            user_id: None,
            reason: Some("command line"),
            before: None,
            after: Some(json!({ "email": new.email, "name": new.name, "role": new.role.name() })),
            outcome: "ok",
        },
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// The CLI's `admin operators list`.
pub async fn list_all(state: &AppState) -> Result<Vec<OperatorView>, ApiError> {
    let rows: Vec<OperatorView> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {OPERATOR_COLUMNS} FROM operators ORDER BY id")))
            .fetch_all(state.db().pool())
            .await?;
    Ok(rows.into_iter().map(OperatorView::finish).collect())
}

/// The CLI's `admin operators disable EMAIL`: disabled, sessions ended, audited.
pub async fn disable_from_cli(state: &AppState, email: &str) -> Result<i64, ApiError> {
    let mut tx = state.db().begin().await?;
    let id: Option<i64> = sqlx::query_scalar("SELECT id FROM operators WHERE email = $1")
        .bind(email.trim().to_lowercase())
        .fetch_optional(&mut *tx)
        .await?;
    let id = id.ok_or_else(|| missing("email"))?;
    sqlx::query("UPDATE operators SET disabled = 1 WHERE id = $1").bind(id).execute(&mut *tx).await?;
    end_sessions(&mut tx, id).await?;
    trail::write(
        &mut *tx,
        &trail::Row {
            at: now_ms(),
            operator_id: None,
            operator_name: Some("cli"),
            role: "cli",
            ip: None,
            action: "operators.update",
            target_type: Some("operator"),
            target_id: Some(&id.to_string()),
            user_id: None,
            reason: Some("command line"),
            before: Some(json!({ "disabled": false })),
            after: Some(json!({ "disabled": true })),
            outcome: "ok",
        },
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

const SORTS: &[(&str, &str)] = &[("id", "id"), ("email", "email"), ("name", "name"), ("created_at", "created_at")];

/// `GET /backoffice/api/operators`.
pub async fn list(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    let result = async {
        staff.require("operators.manage", "operators.list", None).await?;
        let query = ListQuery::parse(raw.as_deref(), SORTS, "id")?;
        let mut w = Where::default();
        w.eq_text(&query, "role", "role")?;
        if let Some(q) = query.text("q")? {
            let like = format!("{}%", q.to_lowercase().replace(['%', '_'], ""));
            w.push("(email LIKE {} OR LOWER(name) LIKE {})", vec![Arg::Text(like.clone()), Arg::Text(like)]);
        }
        let (rows, total) = w
            .page::<OperatorView>(staff.state().db(), &format!("SELECT {OPERATOR_COLUMNS} FROM operators"), &query)
            .await?;
        let items: Vec<OperatorView> = rows.into_iter().map(OperatorView::finish).collect();
        Ok(super::lists::answer("operators", &query, total, &items))
    }
    .await;
    staff.answer(result)
}

/// `GET /backoffice/api/operators/{id}`.
pub async fn show(staff: Staff, Path(id): Path<i64>) -> Response {
    let result = async {
        staff.require("operators.manage", "operators.show", Some(("operator", id.to_string()))).await?;
        Ok(json(&load_view(staff.state().db().pool(), id).await?.ok_or_else(|| missing("id"))?))
    }
    .await;
    staff.answer(result)
}

#[derive(Deserialize)]
struct CreateBody {
    #[serde(default)]
    email: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    role: String,
    #[serde(default)]
    password: String,
}

/// `POST /backoffice/api/operators {email, name, role, password}`.
pub async fn create(staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        staff.require("operators.manage", "operators.create", None).await?;
        let input: CreateBody = body(&bytes)?;
        let new = NewOperator::check(&input.email, &input.name, &input.role, &input.password)?;
        let mut tx = staff.state().db().begin().await?;
        let id = insert(&mut tx, &new).await?;
        trail::write(
            &mut *tx,
            &trail::Row {
                action: "operators.create",
                target_type: Some("operator"),
                target_id: Some(&id.to_string()),
                after: Some(json!({ "email": new.email, "name": new.name, "role": new.role.name() })),
                ..trail::Row::of(&staff)
            },
        )
        .await?;
        let view = load_view(&mut *tx, id).await?.ok_or_else(|| missing("id"))?;
        tx.commit().await?;
        Ok(created(&view))
    }
    .await;
    staff.answer(result)
}

#[derive(Deserialize)]
struct UpdateBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    disabled: Option<bool>,
    #[serde(default)]
    locale: Option<String>,
    #[serde(default)]
    reason: Option<String>,
}

/// `PUT /backoffice/api/operators/{id} {name?, role?, disabled?, locale?, reason}`.
pub async fn update(staff: Staff, Path(id): Path<i64>, bytes: Bytes) -> Response {
    let result = async {
        staff.require("operators.manage", "operators.update", Some(("operator", id.to_string()))).await?;
        let input: UpdateBody = body(&bytes)?;
        let why = reason(input.reason.as_deref())?;
        let mut errors = FieldErrors::default();
        let name = input.name.as_deref().map(str::trim);
        if name.is_some_and(|n| n.is_empty() || n.chars().count() > 100) {
            errors.add("name", FieldCode::Invalid);
        }
        let role = input.role.as_deref().map(|r| Role::parse(r.trim()));
        if role.is_some_and(|r| r.is_none()) {
            errors.add("role", FieldCode::Unsupported);
        }
        if input.locale.as_deref().is_some_and(|l| !matches!(l, "en" | "fr")) {
            errors.add("locale", FieldCode::Unsupported);
        }
        if staff.id == Some(id) && (input.disabled == Some(true) || role.flatten().is_some_and(|r| r != Role::Admin)) {
            // An admin cannot lock themselves out of the console.
            errors.add("role", FieldCode::Locked);
        }
        errors.into_result()?;
        let mut tx = staff.state().db().begin().await?;
        let before = load_view(&mut *tx, id).await?.ok_or_else(|| missing("id"))?;
        sqlx::query(
            "UPDATE operators SET name = COALESCE($1, name), role = COALESCE($2, role), disabled = COALESCE($3, disabled), \
             locale = COALESCE($4, locale) WHERE id = $5",
        )
        .bind(name)
        .bind(role.flatten().map(Role::name))
        .bind(input.disabled.map(i64::from))
        .bind(input.locale.as_deref())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if input.disabled == Some(true) || role.flatten().is_some_and(|r| r.name() != before.role) {
            end_sessions(&mut tx, id).await?;
        }
        let after = load_view(&mut *tx, id).await?.ok_or_else(|| missing("id"))?;
        trail::write(
            &mut *tx,
            &trail::Row {
                action: "operators.update",
                target_type: Some("operator"),
                target_id: Some(&id.to_string()),
                reason: Some(&why),
                before: Some(json!({ "name": before.name, "role": before.role, "disabled": before.disabled != 0, "locale": before.locale })),
                after: Some(json!({ "name": after.name, "role": after.role, "disabled": after.disabled != 0, "locale": after.locale })),
                ..trail::Row::of(&staff)
            },
        )
        .await?;
        tx.commit().await?;
        Ok(json(&after))
    }
    .await;
    staff.answer(result)
}

/// `POST /backoffice/api/operators/{id}/reset-totp {reason}`: the next sign-in enrols again.
pub async fn reset_totp(staff: Staff, Path(id): Path<i64>, bytes: Bytes) -> Response {
    let result = async {
        staff.require("operators.manage", "operators.reset_totp", Some(("operator", id.to_string()))).await?;
        let input: super::ReasonBody = body(&bytes)?;
        let why = reason(input.reason.as_deref())?;
        let mut tx = staff.state().db().begin().await?;
        load_view(&mut *tx, id).await?.ok_or_else(|| missing("id"))?;
        sqlx::query("UPDATE operators SET totp_secret = NULL, enrolled = 0, totp_last_step = 0 WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        end_sessions(&mut tx, id).await?;
        trail::write(
            &mut *tx,
            &trail::Row {
                action: "operators.reset_totp",
                target_type: Some("operator"),
                target_id: Some(&id.to_string()),
                reason: Some(&why),
                after: Some(json!({ "enrolled": false })),
                ..trail::Row::of(&staff)
            },
        )
        .await?;
        let view = load_view(&mut *tx, id).await?.ok_or_else(|| missing("id"))?;
        tx.commit().await?;
        Ok(json(&view))
    }
    .await;
    staff.answer(result)
}
