//! Operators' sign-in and the [`Staff`] extractor (see the module docs of `backoffice`).
//!
//! Sign-in: e-mail and password (argon2id), then the TOTP code. An operator that has not
//! enrolled yet gets an enrolment (a fresh sealed secret, its `otpauth://` address and QR code,
//! and a signed 10-minute token) instead of a session, and finishes with `session/enrol`.
//! Five failures in a row (password or code) lock the operator for 15 minutes (423); each
//! address may try 20 sign-ins a minute (429). Every sign-in, good or bad, is an audit row.

use super::{PERMISSIONS, answer, bad, body, json, seconds, totp, trail};
use crate::AppState;
use crate::api::{ApiError, client_ip};
use crate::db::now_ms;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRef, FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use croupier_shared::{ErrorType, FieldCode, Locale};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

pub const COOKIE: &str = "croupier_operator";
const IDLE_MS: i64 = 30 * 60 * 1000;
const ABSOLUTE_MS: i64 = 12 * 3600 * 1000;
const ENROL_MS: i64 = 10 * 60 * 1000;
const MAX_FAILURES: i64 = 5;
const LOCK_MS: i64 = 15 * 60 * 1000;
const SIGN_INS_PER_MINUTE: u64 = 20;
/// `last_seen_at` is written at most this often.
const TOUCH_MS: i64 = 15_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Admin,
    Finance,
    Support,
    Marketing,
    Content,
    /// The bearer token.
    Automation,
}

impl Role {
    /// The roles an operator account may have.
    pub const ACCOUNTS: [Role; 5] = [Role::Admin, Role::Finance, Role::Support, Role::Marketing, Role::Content];

    pub fn parse(text: &str) -> Option<Role> {
        Role::ACCOUNTS.into_iter().find(|r| r.name() == text)
    }

    pub fn name(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Finance => "finance",
            Role::Support => "support",
            Role::Marketing => "marketing",
            Role::Content => "content",
            Role::Automation => "automation",
        }
    }

    pub fn permissions(self) -> Vec<&'static str> {
        let list: &[&str] = match self {
            Role::Admin => &PERMISSIONS,
            Role::Finance => &[
                "players.read",
                "balance.correct",
                "balance.approve",
                "withdrawals.read",
                "withdrawals.decide",
                "deposits.read",
                "rounds.read",
                "reports.read",
                "audit.read",
                "sportsbook.manage",
            ],
            Role::Support => &[
                "players.read",
                "players.ban",
                "players.notes",
                "players.sessions",
                "withdrawals.read",
                "deposits.read",
                "rounds.read",
            ],
            Role::Marketing => &["players.read", "campaigns.manage", "reports.read"],
            Role::Content => &["content.manage"],
            Role::Automation => return PERMISSIONS.iter().copied().filter(|p| *p != "operators.manage").collect(),
        };
        list.to_vec()
    }

    pub fn can(self, permission: &str) -> bool {
        self.permissions().contains(&permission)
    }
}

/// The caller of `/backoffice/api`: an operator with a session, or the automation token.
#[derive(Clone)]
pub struct Staff {
    /// `None` for the automation token.
    pub id: Option<i64>,
    pub name: String,
    pub role: Role,
    pub locale: Locale,
    pub ip: Option<IpAddr>,
    state: AppState,
}

impl Staff {
    /// Refuses (403, audited) unless the caller has `permission`. `action` names what was tried.
    pub async fn require(
        &self,
        permission: &str,
        action: &str,
        target: Option<(&str, String)>,
    ) -> Result<(), ApiError> {
        if self.role.can(permission) {
            return Ok(());
        }
        let (target_type, target_id) = target.map_or((None, None), |(t, id)| (Some(t), Some(id)));
        trail::write(
            self.state.db().pool(),
            &trail::Row {
                action,
                target_type,
                target_id: target_id.as_deref(),
                outcome: "denied",
                after: Some(json!({ "permission": permission })),
                ..trail::Row::of(self)
            },
        )
        .await?;
        Err(denied(permission))
    }

    /// Renders `result` in this operator's language.
    pub fn answer(&self, result: Result<Response, ApiError>) -> Response {
        answer(self.locale, result)
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }
}

pub fn denied(permission: &str) -> ApiError {
    ApiError::new(ErrorType::AccessDeniedException).with_data("permission", json!([permission]))
}

fn unauthorized() -> ApiError {
    ApiError::new(ErrorType::AuthorizationException)
}

fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn ip_of(state: &AppState, parts: &Parts) -> Option<IpAddr> {
    let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    client_ip(&parts.headers, peer, state.config().trust_proxy)
}

#[derive(sqlx::FromRow)]
struct SessionRow {
    operator_id: i64,
    name: String,
    role: String,
    locale: String,
    last_seen_at: i64,
    expires_at: i64,
}

/// Resolves the caller from the bearer token or the session cookie.
pub async fn resolve(state: &AppState, headers: &HeaderMap, ip: Option<IpAddr>) -> Result<Staff, ApiError> {
    if headers.contains_key(header::AUTHORIZATION) {
        if crate::api::Operator::authorized(state, headers) {
            return Ok(Staff {
                id: None,
                name: "automation".into(),
                role: Role::Automation,
                locale: Locale::En,
                ip,
                state: state.clone(),
            });
        }
        return Err(unauthorized());
    }
    let token = croupier_platform::http::cookie(headers, COOKIE).ok_or_else(unauthorized)?;
    let id = hash(token);
    let now = now_ms();
    let row: Option<SessionRow> = sqlx::query_as(
        "SELECT s.operator_id, o.name, o.role, o.locale, s.last_seen_at, s.expires_at FROM operator_sessions s \
         JOIN operators o ON o.id = s.operator_id WHERE s.id = $1 AND o.disabled = 0",
    )
    .bind(&id)
    .fetch_optional(state.db().pool())
    .await?;
    let Some(row) = row else { return Err(unauthorized()) };
    if now - row.last_seen_at > IDLE_MS || now > row.expires_at {
        sqlx::query("DELETE FROM operator_sessions WHERE id = $1").bind(&id).execute(state.db().pool()).await?;
        return Err(unauthorized());
    }
    if now - row.last_seen_at > TOUCH_MS {
        sqlx::query("UPDATE operator_sessions SET last_seen_at = $1 WHERE id = $2")
            .bind(now)
            .bind(&id)
            .execute(state.db().pool())
            .await?;
    }
    let role = Role::parse(&row.role).ok_or_else(unauthorized)?;
    Ok(Staff {
        id: Some(row.operator_id),
        name: row.name,
        role,
        locale: Locale::parse(&row.locale).unwrap_or(Locale::En),
        ip,
        state: state.clone(),
    })
}

impl<S> FromRequestParts<S> for Staff
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Staff, Response> {
        // Under the back office's `/admin` gate the caller is resolved already (only server code
        // puts a `Staff` into a request's extensions).
        if let Some(staff) = parts.extensions.get::<Staff>() {
            return Ok(staff.clone());
        }
        let state = AppState::from_ref(state);
        let ip = ip_of(&state, parts);
        if parts.method != axum::http::Method::GET && !parts.headers.contains_key(header::AUTHORIZATION) {
            crate::api::check_same_origin(&parts.headers, &state).map_err(IntoResponse::into_response)?;
        }
        resolve(&state, &parts.headers, ip).await.map_err(IntoResponse::into_response)
    }
}

/// An operator as the API shows it.
#[derive(Debug, Serialize, sqlx::FromRow)]
pub struct OperatorView {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: String,
    #[sqlx(skip)]
    pub permissions: Vec<&'static str>,
    pub locale: String,
    #[serde(serialize_with = "super::as_bool")]
    pub disabled: i64,
    #[serde(serialize_with = "super::as_bool")]
    pub enrolled: i64,
    pub created_at: i64,
    pub last_sign_in_at: Option<i64>,
}

pub const OPERATOR_COLUMNS: &str = "id, email, name, role, locale, disabled, enrolled, created_at, last_sign_in_at";

impl OperatorView {
    /// Times in seconds and the role's permissions filled in.
    pub fn finish(mut self) -> OperatorView {
        self.permissions = Role::parse(&self.role).map(Role::permissions).unwrap_or_default();
        self.created_at = seconds(self.created_at);
        self.last_sign_in_at = self.last_sign_in_at.map(seconds);
        self
    }
}

pub async fn load_view(conn: impl sqlx::AnyExecutor<'_>, id: i64) -> Result<Option<OperatorView>, ApiError> {
    let row: Option<OperatorView> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {OPERATOR_COLUMNS} FROM operators WHERE id = $1")))
            .bind(id)
            .fetch_optional(conn)
            .await?;
    Ok(row.map(OperatorView::finish))
}

#[derive(sqlx::FromRow)]
struct Credentials {
    id: i64,
    name: String,
    role: String,
    password_hash: String,
    totp_secret: Option<String>,
    enrolled: i64,
    totp_last_step: i64,
    locked_until: Option<i64>,
    disabled: i64,
}

#[derive(Deserialize)]
pub struct SignIn {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    totp: Option<String>,
}

fn locale_of(headers: &HeaderMap) -> Locale {
    croupier_platform::http::cookie_locale(headers)
        .or_else(|| {
            headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .filter(|v| v.trim_start().starts_with("fr"))
                .map(|_| Locale::Fr)
        })
        .unwrap_or(Locale::En)
}

/// The trail row of a sign-in attempt (no operator session yet).
async fn sign_in_row(
    state: &AppState,
    ip: Option<IpAddr>,
    who: Option<(i64, &str, &str)>,
    email: &str,
    outcome: &str,
    why: &str,
) {
    let row = trail::Row {
        at: now_ms(),
        operator_id: who.map(|w| w.0),
        operator_name: who.map(|w| w.1),
        role: who.map_or("none", |w| w.2),
        ip,
        action: "session.sign_in",
        target_type: Some("operator"),
        target_id: Some(email),
        user_id: None,
        reason: None,
        before: None,
        after: Some(json!({ "result": why })),
        outcome,
    };
    if let Err(e) = trail::write(state.db().pool(), &row).await {
        tracing::error!(error = ?e, "sign-in not recorded");
    }
}

/// Counts a failure; the fifth in a row locks the operator.
async fn failed(state: &AppState, id: i64) -> Result<(), ApiError> {
    let now = now_ms();
    sqlx::query(
        "UPDATE operators SET failures = failures + 1, \
         locked_until = CASE WHEN failures + 1 >= $1 THEN $2 ELSE locked_until END WHERE id = $3",
    )
    .bind(MAX_FAILURES)
    .bind(now + LOCK_MS)
    .bind(id)
    .execute(state.db().pool())
    .await?;
    Ok(())
}

fn locked() -> ApiError {
    ApiError::new(ErrorType::AccessDeniedException)
        .with_status(StatusCode::LOCKED)
        .with_data("operator", json!(["LOCKED"]))
}

fn invalid(field: &str) -> ApiError {
    ApiError::field(field, FieldCode::Invalid).with_status(StatusCode::UNAUTHORIZED)
}

/// `POST /backoffice/api/session`.
pub async fn sign_in(State(state): State<AppState>, parts: Parts0, bytes: Bytes) -> Response {
    let locale = locale_of(&parts.headers);
    let result = sign_in_inner(&state, &parts, &bytes).await;
    answer(locale, result)
}

/// The request's parts a handler without [`Staff`] needs.
pub struct Parts0 {
    headers: HeaderMap,
    ip: Option<IpAddr>,
}

impl<S> FromRequestParts<S> for Parts0
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Parts0, Response> {
        let state = AppState::from_ref(state);
        if parts.method != axum::http::Method::GET {
            crate::api::check_same_origin(&parts.headers, &state).map_err(IntoResponse::into_response)?;
        }
        Ok(Parts0 { headers: parts.headers.clone(), ip: ip_of(&state, parts) })
    }
}

async fn sign_in_inner(state: &AppState, parts: &Parts0, bytes: &[u8]) -> Result<Response, ApiError> {
    let input: SignIn = body(bytes)?;
    let email = input.email.trim().to_lowercase();
    if email.is_empty() {
        return Err(bad("email", FieldCode::Required));
    }
    if input.password.is_empty() {
        return Err(bad("password", FieldCode::Required));
    }
    if let Some(ip) = parts.ip {
        let decision = state
            .coord()
            .hit(&format!("backoffice-sign-in:{ip}"), Duration::from_secs(60), SIGN_INS_PER_MINUTE)
            .await?;
        if !decision.allowed {
            if crate::audit::trips(decision.count, SIGN_INS_PER_MINUTE) {
                sign_in_row(state, parts.ip, None, &email, "denied", "rate_limited").await;
            }
            return Err(ApiError::too_many_requests(decision.retry_after));
        }
    }
    let row: Option<Credentials> = sqlx::query_as(
        "SELECT id, name, role, password_hash, totp_secret, enrolled, totp_last_step, locked_until, disabled \
         FROM operators WHERE email = $1",
    )
    .bind(&email)
    .fetch_optional(state.db().pool())
    .await?;
    let now = now_ms();
    let good = crate::password::verify(&input.password, row.as_ref().map(|r| r.password_hash.as_str())).await?;
    let Some(op) = row.filter(|r| r.disabled == 0) else {
        sign_in_row(state, parts.ip, None, &email, "denied", "wrong_credentials").await;
        return Err(invalid("password"));
    };
    let who = Some((op.id, op.name.as_str(), op.role.as_str()));
    if op.locked_until.is_some_and(|until| until > now) {
        sign_in_row(state, parts.ip, who, &email, "denied", "locked").await;
        return Err(locked());
    }
    if !good {
        failed(state, op.id).await?;
        sign_in_row(state, parts.ip, who, &email, "denied", "wrong_credentials").await;
        return Err(invalid("password"));
    }
    if op.enrolled == 0 {
        // Password right, no second factor yet: a fresh secret and the enrolment token.
        let secret = totp::new_secret();
        sqlx::query("UPDATE operators SET totp_secret = $1 WHERE id = $2")
            .bind(totp::seal(state.keys(), &secret))
            .bind(op.id)
            .execute(state.db().pool())
            .await?;
        let expires = (now + ENROL_MS).to_string();
        let id = op.id.to_string();
        let token = format!("{id}.{expires}.{}", state.keys().sign("operator-enrol", &[&id, &expires]));
        let secret_b32 = totp::base32_encode(&secret);
        let url = totp::otpauth_url(&email, &secret_b32);
        sign_in_row(state, parts.ip, who, &email, "ok", "enrolment_started").await;
        return Ok(json(&json!({ "enrolment": {
            "token": token,
            "secret": secret_b32,
            "otpauth_url": url,
            "qr_svg": totp::qr_svg(&url).unwrap_or_default(),
        } })));
    }
    let Some(code) = input.totp.as_deref().map(str::trim).filter(|c| !c.is_empty()) else {
        return Err(bad("totp", FieldCode::Required));
    };
    let secret = op.totp_secret.as_deref().and_then(|s| totp::unseal(state.keys(), s));
    let Some(step) = secret.and_then(|s| totp::verify(&s, code, now / 1000, op.totp_last_step)) else {
        failed(state, op.id).await?;
        sign_in_row(state, parts.ip, who, &email, "denied", "totp_invalid").await;
        return Err(invalid("totp"));
    };
    open_session(state, parts, op.id, step, &email, (op.name.as_str(), op.role.as_str())).await
}

/// Signs the operator in: the step is used up, failures reset, a session and its cookie.
async fn open_session(
    state: &AppState,
    parts: &Parts0,
    operator_id: i64,
    step: i64,
    email: &str,
    (name, role): (&str, &str),
) -> Result<Response, ApiError> {
    let now = now_ms();
    let token = base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, rand::random::<[u8; 32]>());
    let user_agent: Option<String> =
        parts.headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(|ua| ua.chars().take(256).collect());
    let mut tx = state.db().begin().await?;
    let used = sqlx::query(
        "UPDATE operators SET totp_last_step = $1, failures = 0, locked_until = NULL, enrolled = 1, last_sign_in_at = $2 \
         WHERE id = $3 AND totp_last_step < $1",
    )
    .bind(step)
    .bind(now)
    .bind(operator_id)
    .execute(&mut *tx)
    .await?;
    if used.rows_affected() == 0 {
        // The same code raced in twice: only one of them signs in.
        return Err(invalid("totp"));
    }
    sqlx::query(
        "INSERT INTO operator_sessions (id, operator_id, created_at, last_seen_at, expires_at, ip, user_agent) \
         VALUES ($1, $2, $3, $3, $4, $5, $6)",
    )
    .bind(hash(&token))
    .bind(operator_id)
    .bind(now)
    .bind(now + ABSOLUTE_MS)
    .bind(parts.ip.map(|ip| ip.to_string()))
    .bind(user_agent)
    .execute(&mut *tx)
    .await?;
    trail::write(
        &mut *tx,
        &trail::Row {
            at: now,
            operator_id: Some(operator_id),
            operator_name: Some(name),
            role,
            ip: parts.ip,
            action: "session.sign_in",
            target_type: Some("operator"),
            target_id: Some(email),
            user_id: None,
            reason: None,
            before: None,
            after: Some(json!({ "result": "signed_in" })),
            outcome: "ok",
        },
    )
    .await?;
    let view = load_view(&mut *tx, operator_id).await?.ok_or_else(|| super::missing("operator"))?;
    tx.commit().await?;
    let mut response = json(&json!({ "operator": view }));
    let secure = if state.config().env == crate::config::Env::Prod { "; Secure" } else { "" };
    let cookie = format!("{COOKIE}={token}; Path=/backoffice; HttpOnly; SameSite=Strict{secure}");
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    Ok(response)
}

#[derive(Deserialize)]
pub struct Enrol {
    #[serde(default)]
    token: String,
    #[serde(default)]
    totp: String,
}

/// `POST /backoffice/api/session/enrol` `{token, totp}`.
pub async fn enrol(State(state): State<AppState>, parts: Parts0, bytes: Bytes) -> Response {
    let locale = locale_of(&parts.headers);
    let result = async {
        let input: Enrol = body(&bytes)?;
        let mut pieces = input.token.splitn(3, '.');
        let (Some(id), Some(expires), Some(mac)) = (pieces.next(), pieces.next(), pieces.next()) else {
            return Err(bad("token", FieldCode::Invalid));
        };
        if !state.keys().verify("operator-enrol", &[id, expires], mac) {
            return Err(bad("token", FieldCode::Invalid));
        }
        let (Ok(id), Ok(expires)) = (id.parse::<i64>(), expires.parse::<i64>()) else {
            return Err(bad("token", FieldCode::Invalid));
        };
        if expires < now_ms() {
            return Err(bad("token", FieldCode::CodeExpired));
        }
        if input.totp.trim().is_empty() {
            return Err(bad("totp", FieldCode::Required));
        }
        let row: Option<Credentials> = sqlx::query_as(
            "SELECT id, name, role, password_hash, totp_secret, enrolled, totp_last_step, locked_until, disabled \
             FROM operators WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(state.db().pool())
        .await?;
        let Some(op) = row.filter(|r| r.disabled == 0 && r.enrolled == 0) else {
            return Err(bad("token", FieldCode::Invalid));
        };
        let email: String = sqlx::query_scalar("SELECT email FROM operators WHERE id = $1")
            .bind(id)
            .fetch_one(state.db().pool())
            .await?;
        let who = Some((op.id, op.name.as_str(), op.role.as_str()));
        if op.locked_until.is_some_and(|until| until > now_ms()) {
            sign_in_row(&state, parts.ip, who, &email, "denied", "locked").await;
            return Err(locked());
        }
        let secret = op.totp_secret.as_deref().and_then(|s| totp::unseal(state.keys(), s));
        let Some(step) = secret.and_then(|s| totp::verify(&s, &input.totp, now_ms() / 1000, op.totp_last_step)) else {
            failed(&state, op.id).await?;
            sign_in_row(&state, parts.ip, who, &email, "denied", "totp_invalid").await;
            return Err(invalid("totp"));
        };
        open_session(&state, &parts, op.id, step, &email, (op.name.as_str(), op.role.as_str())).await
    }
    .await;
    answer(locale, result)
}

/// `GET /backoffice/api/session`.
pub async fn current(staff: Staff) -> Response {
    let result = async {
        let Some(id) = staff.id else {
            let permissions = staff.role.permissions();
            return Ok(json(&json!({ "operator": {
                "id": 0, "email": "", "name": staff.name, "role": staff.role.name(), "permissions": permissions,
                "locale": "en", "disabled": false, "enrolled": true, "created_at": 0, "last_sign_in_at": null,
            } })));
        };
        let view = load_view(staff.state().db().pool(), id).await?.ok_or_else(unauthorized)?;
        Ok(json(&json!({ "operator": view })))
    }
    .await;
    staff.answer(result)
}

/// `DELETE /backoffice/api/session`: 204 and the cookie cleared (also without a live session).
pub async fn sign_out(State(state): State<AppState>, parts: Parts0) -> Response {
    let result = async {
        if let Some(token) = croupier_platform::http::cookie(&parts.headers, COOKIE) {
            let id = hash(token);
            let who: Option<(i64, String, String)> = sqlx::query_as(
                "SELECT o.id, o.name, o.role FROM operator_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.id = $1",
            )
            .bind(&id)
            .fetch_optional(state.db().pool())
            .await?;
            let mut tx = state.db().begin().await?;
            sqlx::query("DELETE FROM operator_sessions WHERE id = $1").bind(&id).execute(&mut *tx).await?;
            if let Some((oid, name, role)) = &who {
                trail::write(
                    &mut *tx,
                    &trail::Row {
                        at: now_ms(),
                        operator_id: Some(*oid),
                        operator_name: Some(name),
                        role,
                        ip: parts.ip,
                        action: "session.sign_out",
                        target_type: Some("operator"),
                        target_id: Some(&oid.to_string()),
                        user_id: None,
                        reason: None,
                        before: None,
                        after: None,
                        outcome: "ok",
                    },
                )
                .await?;
            }
            tx.commit().await?;
        }
        let secure = if state.config().env == crate::config::Env::Prod { "; Secure" } else { "" };
        let mut response = StatusCode::NO_CONTENT.into_response();
        if let Ok(value) =
            HeaderValue::from_str(&format!("{COOKIE}=; Path=/backoffice; HttpOnly; SameSite=Strict; Max-Age=0{secure}"))
        {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
        Ok(response)
    }
    .await;
    answer(locale_of(&parts.headers), result)
}

/// Ends every session of an operator (disabled, TOTP reset).
pub async fn end_sessions(conn: &mut sqlx::AnyConnection, operator_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM operator_sessions WHERE operator_id = $1").bind(operator_id).execute(conn).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_have_the_contracts_permissions() {
        assert_eq!(Role::Admin.permissions().len(), PERMISSIONS.len());
        assert!(!Role::Automation.can("operators.manage"));
        assert_eq!(Role::Automation.permissions().len(), PERMISSIONS.len() - 1);
        assert!(Role::Finance.can("balance.approve") && !Role::Finance.can("players.ban"));
        assert!(Role::Support.can("players.ban") && !Role::Support.can("balance.correct"));
        assert_eq!(Role::Content.permissions(), vec!["content.manage"]);
        assert_eq!(Role::parse("automation"), None, "no account has the token's role");
        for p in Role::ACCOUNTS.into_iter().flat_map(Role::permissions) {
            assert!(PERMISSIONS.contains(&p));
        }
    }
}
