//! Who may write content, and the auth-style routes of SPEC §7 ("Headless content service"), as
//! Strapi's users-permissions plugin answers them.
//!
//! - **API tokens**: `CROUPIER_CMS_TOKENS` lists full-access tokens (Strapi's "full access" API
//!   tokens) for an operator's tooling.
//! - **Content users** (`content_users`, apart from players): `POST /auth/local/register` makes
//!   one with the `authenticated` role, which may read drafts of nothing and write nothing; an API
//!   token holder makes it an `editor` with `PUT /cms/api/users/{id}` (`{"role": "editor"}`),
//!   and editors may write. Registration needs the e-mail confirmed (link sent by mail, as
//!   Strapi's "email confirmation" setting does); `/auth/{provider}/callback?access_token=` signs
//!   in through a configured OpenID Connect provider's userinfo endpoint.
//! - **The JWT** `POST /auth/local` answers is JWT-shaped (`header.payload.signature`, payload
//!   `{id, iat, exp, ver}`, 30 days like Strapi's default) but signed with the installation key
//!   through [`crate::keys::Keys`] (HMAC-SHA256, domain-separated), so every replica verifies it and
//!   no other secret exists. `ver` is the user's token version, moved on by every password change
//!   and reset, which ends all older tokens.
//! - One-time codes (password reset 1 h, e-mail confirmation 24 h) are random, stored only as
//!   their SHA-256, and used once.
//!
//! Every route is rate limited per caller address and per account through the coordination
//! store (shared by all replicas); over the limit answers Strapi's 429 `RateLimitError`.

use super::rest::{Refusal, Reply, error, forbidden, internal, not_found, too_many, unauthorized, validation};
use crate::AppState;
use crate::db::{Db, now_ms};
use crate::features::account::rules;
use crate::messaging::{Channel, Outgoing};
use crate::password;
use axum::Json;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Duration;

const JWT_PURPOSE: &str = "cms-jwt";
const JWT_LIFETIME_SECONDS: i64 = 30 * 24 * 3600;
const RESET_TTL_MS: i64 = 3600 * 1000;
const CONFIRM_TTL_MS: i64 = 24 * 3600 * 1000;
const PASSWORD_MIN: usize = 6;
/// bcrypt's limit in Strapi; argon2 has none, but a bound keeps hashing cheap.
const PASSWORD_MAX: usize = 72;
const HOUR: Duration = Duration::from_secs(3600);
const QUARTER: Duration = Duration::from_secs(900);

/// A content user.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CmsUser {
    pub id: i64,
    pub username: String,
    pub email: String,
    pub provider: String,
    pub password_hash: Option<String>,
    /// `authenticated` or `editor`.
    pub role: String,
    pub confirmed: i64,
    pub blocked: i64,
    pub token_version: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// `SELECT` of every user column with a fixed condition.
macro_rules! select_user {
    ($condition:literal) => {
        concat!(
            "SELECT id, username, email, provider, password_hash, role, confirmed, blocked, token_version, created_at, \
             updated_at FROM content_users WHERE ",
            $condition
        )
    };
}

impl CmsUser {
    fn json(&self, with_role: bool) -> Value {
        let mut user = json!({
            "id": self.id,
            "username": self.username,
            "email": self.email,
            "provider": self.provider,
            "confirmed": self.confirmed != 0,
            "blocked": self.blocked != 0,
            "createdAt": super::store::iso8601(self.created_at),
            "updatedAt": super::store::iso8601(self.updated_at),
        });
        if with_role && let Value::Object(map) = &mut user {
            map.insert("role".into(), role_json(&self.role));
        }
        user
    }
}

fn role_json(role: &str) -> Value {
    match role {
        "editor" => {
            json!({"id": 3, "name": "Editor", "description": "May create, change and delete content.", "type": "editor"})
        }
        _ => {
            json!({"id": 1, "name": "Authenticated", "description": "Default role given to authenticated user.", "type": "authenticated"})
        }
    }
}

/// Who is calling the content API.
#[derive(Debug, Clone)]
pub enum Actor {
    Public,
    ApiToken,
    User(CmsUser),
}

impl Actor {
    pub fn can_write(&self) -> bool {
        match self {
            Actor::ApiToken => true,
            Actor::User(user) => user.role == "editor" && user.blocked == 0,
            Actor::Public => false,
        }
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}

/// The caller: an API token, a signed-in content user, or the public. A bearer token that is
/// neither is refused (401), as Strapi refuses it.
pub async fn actor(state: &AppState, headers: &HeaderMap) -> Result<Actor, Refusal> {
    let Some(token) = bearer(headers) else { return Ok(Actor::Public) };
    let digest = Sha256::digest(token.as_bytes());
    // Comparing digests: equal-length values, and nothing about a token leaks through timing.
    if state.config().cms_tokens.iter().any(|t| Sha256::digest(t.expose().as_bytes()) == digest) {
        return Ok(Actor::ApiToken);
    }
    let Some(claims) = verify_jwt(state, token) else { return Err(unauthorized()) };
    match user_by_id(state.db(), claims.id).await.map_err(internal)? {
        Some(user) if user.token_version == claims.ver && user.blocked == 0 => Ok(Actor::User(user)),
        _ => Err(unauthorized()),
    }
}

struct Claims {
    id: i64,
    ver: i64,
}

fn issue_jwt(state: &AppState, user: &CmsUser) -> String {
    let now = now_ms() / 1000;
    let claims = json!({"id": user.id, "iat": now, "exp": now + JWT_LIFETIME_SECONDS, "ver": user.token_version});
    croupier_platform::crypto::jwt_hs256(&claims, |signed| {
        hex::decode(state.keys().sign(JWT_PURPOSE, &[signed])).unwrap_or_default()
    })
}

fn verify_jwt(state: &AppState, token: &str) -> Option<Claims> {
    let (signed, signature) = token.rsplit_once('.')?;
    let signature = URL_SAFE_NO_PAD.decode(signature).ok()?;
    if !state.keys().verify(JWT_PURPOSE, &[signed], &hex::encode(signature)) {
        return None;
    }
    let (_, payload) = signed.split_once('.')?;
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).ok()?).ok()?;
    let exp = claims.get("exp")?.as_i64()?;
    (exp > now_ms() / 1000).then_some(())?;
    Some(Claims { id: claims.get("id")?.as_i64()?, ver: claims.get("ver")?.as_i64()? })
}

async fn user_by_id(db: &Db, id: i64) -> Result<Option<CmsUser>, sqlx::Error> {
    sqlx::query_as(select_user!("id = $1")).bind(id).fetch_optional(db.pool()).await
}

async fn user_by_email(db: &Db, email: &str) -> Result<Option<CmsUser>, sqlx::Error> {
    sqlx::query_as(select_user!("email = $1")).bind(email).fetch_optional(db.pool()).await
}

/// Counts one attempt; the limit tripping is recorded in the refusals trail as `cms_<action>`.
async fn limit(
    state: &AppState,
    ip: Option<IpAddr>,
    action: &str,
    key: &str,
    window: Duration,
    max: u64,
) -> Result<(), Refusal> {
    let decision = state.coord().hit(&format!("cms:{action}:{key}"), window, max).await.map_err(internal)?;
    if decision.allowed {
        return Ok(());
    }
    if crate::audit::trips(decision.count, max) {
        refused(state, ip, action, "rate_limited", Some(key), None).await;
    }
    Err(too_many(decision.retry_after))
}

/// Records a refused guess at the content service's sign-in in the refusals trail.
async fn refused(
    state: &AppState,
    ip: Option<IpAddr>,
    action: &str,
    reason: &str,
    subject: Option<&str>,
    user_id: Option<i64>,
) {
    let action = format!("cms_{action}");
    let refusal = crate::audit::Refusal { action: &action, reason, subject, user_id, ip };
    crate::audit::record(state.db(), refusal).await;
}

async fn limit_ip(
    state: &AppState,
    ip: Option<IpAddr>,
    action: &str,
    window: Duration,
    max: u64,
) -> Result<(), Refusal> {
    match ip {
        Some(ip) => limit(state, Some(ip), action, &format!("ip:{ip}"), window, max).await,
        None => Ok(()),
    }
}

/// A JSON (or urlencoded form) body as an object.
async fn body(state: &AppState, request: Request) -> Result<Map<String, Value>, Refusal> {
    let form = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("application/x-www-form-urlencoded"));
    let bytes = axum::body::to_bytes(request.into_body(), state.config().body_limit).await.map_err(|_| {
        error(StatusCode::PAYLOAD_TOO_LARGE, "PayloadTooLargeError", "request entity too large", json!({}))
    })?;
    if form {
        return Ok(form_urlencoded::parse(&bytes)
            .map(|(k, v)| (k.into_owned(), Value::String(v.into_owned())))
            .collect());
    }
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(validation("The body must be a JSON object")),
    }
}

fn field<'a>(body: &'a Map<String, Value>, name: &str) -> Result<&'a str, Refusal> {
    body.get(name)
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| validation(&format!("{name} is a required field")))
}

fn check_password(password: &str, confirmation: Option<&str>) -> Result<(), Refusal> {
    let length = password.chars().count();
    if length < PASSWORD_MIN {
        return Err(validation(&format!("password must be at least {PASSWORD_MIN} characters")));
    }
    if length > PASSWORD_MAX {
        return Err(validation(&format!("password must be at most {PASSWORD_MAX} characters")));
    }
    if confirmation.is_some_and(|c| c != password) {
        return Err(validation("Passwords do not match"));
    }
    Ok(())
}

fn signed_in(state: &AppState, user: &CmsUser) -> Response {
    Json(json!({ "jwt": issue_jwt(state, user), "user": user.json(false) })).into_response()
}

fn application_error(message: &str) -> Refusal {
    error(StatusCode::BAD_REQUEST, "ApplicationError", message, json!({}))
}

fn hash_code(code: &str) -> String {
    hex::encode(Sha256::digest(code.as_bytes()))
}

/// Makes a one-time code for `user_id`, replacing earlier ones of the same purpose.
async fn new_code(db: &Db, user_id: i64, purpose: &str, ttl_ms: i64) -> Result<String, sqlx::Error> {
    let code = hex::encode(rand::random::<[u8; 32]>());
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM content_user_codes WHERE user_id = $1 AND purpose = $2")
        .bind(user_id)
        .bind(purpose)
        .execute(&mut *tx)
        .await?;
    sqlx::query("INSERT INTO content_user_codes (code_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(hash_code(&code))
        .bind(user_id)
        .bind(purpose)
        .bind(now_ms() + ttl_ms)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(code)
}

/// Uses a one-time code: answers its user when it is valid, and deletes it either way.
async fn take_code(db: &Db, code: &str, purpose: &str) -> Result<Option<i64>, sqlx::Error> {
    let hash = hash_code(code);
    let row: Option<(i64, i64)> =
        sqlx::query_as("SELECT user_id, expires_at FROM content_user_codes WHERE code_hash = $1 AND purpose = $2")
            .bind(&hash)
            .bind(purpose)
            .fetch_optional(db.pool())
            .await?;
    let Some((user_id, expires_at)) = row else { return Ok(None) };
    let deleted =
        sqlx::query("DELETE FROM content_user_codes WHERE code_hash = $1").bind(&hash).execute(db.pool()).await?;
    // Two requests racing with one code: only the one that deleted it may use it.
    Ok((deleted.rows_affected() == 1 && expires_at > now_ms()).then_some(user_id))
}

async fn send_mail(state: &AppState, to: &str, subject: &str, body: String, code: String) -> Result<(), Refusal> {
    let message =
        Outgoing { channel: Channel::Email, to: to.to_owned(), subject: subject.to_owned(), body, code: Some(code) };
    state.messenger().send(state.db(), message).await.map_err(|e| internal(format!("{e:?}")))
}

async fn send_confirmation(state: &AppState, user: &CmsUser) -> Result<(), Refusal> {
    let code = new_code(state.db(), user.id, "confirm", CONFIRM_TTL_MS).await.map_err(internal)?;
    let link = format!("{}/cms/api/auth/email-confirmation?confirmation={code}", state.config().public_url);
    let body = format!(
        "Hello {},\n\nConfirm your e-mail address for {}'s content service:\n{link}\n",
        user.username,
        state.config().site_name
    );
    send_mail(state, &user.email, "Confirm your e-mail address", body, code).await
}

/// `POST /cms/api/auth/local`: `{identifier, password}` → `{jwt, user}`.
pub async fn login(State(state): State<AppState>, request: Request) -> Response {
    let ip = crate::api::request_ip(&state, &request);
    async move {
        limit_ip(&state, ip, "login", QUARTER, 50).await?;
        let body = body(&state, request).await?;
        let identifier = field(&body, "identifier")?.trim().to_lowercase();
        let password = field(&body, "password")?;
        limit(&state, ip, "login", &identifier, QUARTER, 10).await?;
        let user: Option<CmsUser> =
            sqlx::query_as(select_user!("(email = $1 OR username_key = $1) AND provider = 'local'"))
                .bind(&identifier)
                .fetch_optional(state.db().pool())
                .await
                .map_err(internal)?;
        let matches = password::verify(password, user.as_ref().and_then(|u| u.password_hash.as_deref()))
            .await
            .map_err(|e| internal(format!("{e:?}")))?;
        let user = match user {
            Some(user) if matches => user,
            other => {
                let user_id = other.map(|u| u.id);
                refused(&state, ip, "login", "wrong_credentials", Some(&identifier), user_id).await;
                return Err(validation("Invalid identifier or password"));
            }
        };
        if user.confirmed == 0 {
            return Err(application_error("Your account email is not confirmed"));
        }
        if user.blocked != 0 {
            return Err(application_error("Your account has been blocked by an administrator"));
        }
        Ok(signed_in(&state, &user))
    }
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /cms/api/auth/local/register`: `{username, email, password}` → `{user}`; the account
/// signs in once its e-mail is confirmed through the link sent to it.
pub async fn register(State(state): State<AppState>, request: Request) -> Response {
    let ip = crate::api::request_ip(&state, &request);
    async move {
        limit_ip(&state, ip, "register", HOUR, 10).await?;
        let body = body(&state, request).await?;
        let username = field(&body, "username")?.trim().to_owned();
        let email = field(&body, "email")?;
        let password = field(&body, "password")?;
        let username_length = username.chars().count();
        if !(3..=64).contains(&username_length) || username.chars().any(char::is_control) {
            return Err(validation("username must be 3 to 64 characters"));
        }
        if rules::email(email).is_err() {
            return Err(validation("email must be a valid email"));
        }
        check_password(password, None)?;
        let email = rules::normalize_email(email);
        let hash = password::hash(password).await.map_err(|e| internal(format!("{e:?}")))?;
        let now = now_ms();
        let inserted = sqlx::query(
            "INSERT INTO content_users (username, username_key, email, provider, password_hash, role, confirmed, blocked, \
             token_version, created_at, updated_at) VALUES ($1, $2, $3, 'local', $4, 'authenticated', 0, 0, 0, $5, $5)",
        )
        .bind(&username)
        .bind(username.to_lowercase())
        .bind(&email)
        .bind(hash)
        .bind(now)
        .execute(state.db().pool())
        .await;
        match inserted {
            Ok(_) => {}
            Err(e) if crate::db::is_unique_violation(&e) => return Err(application_error("Email or Username are already taken")),
            Err(e) => return Err(internal(e)),
        }
        let user = user_by_email(state.db(), &email).await.map_err(internal)?.ok_or_else(not_found)?;
        send_confirmation(&state, &user).await?;
        Ok(Json(json!({ "user": user.json(false) })).into_response())
    }
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /cms/api/auth/forgot-password`: `{email}` → `{ok: true}`, whether or not the address
/// has an account (so the answer tells nothing); the account gets a reset code by mail.
pub async fn forgot_password(State(state): State<AppState>, request: Request) -> Response {
    let ip = crate::api::request_ip(&state, &request);
    async move {
        limit_ip(&state, ip, "forgot", HOUR, 10).await?;
        let body = body(&state, request).await?;
        let email = rules::normalize_email(field(&body, "email")?);
        limit(&state, ip, "forgot", &email, HOUR, 3).await?;
        if let Some(user) = user_by_email(state.db(), &email).await.map_err(internal)?.filter(|u| u.provider == "local")
            && user.blocked == 0
        {
            let code = new_code(state.db(), user.id, "reset", RESET_TTL_MS).await.map_err(internal)?;
            let body = format!(
                "Hello {},\n\nYour code to choose a new password is:\n{code}\n\nSend it with your new password to \
                 POST /cms/api/auth/reset-password within an hour. If you did not ask, ignore this message.\n",
                user.username
            );
            send_mail(&state, &user.email, "Reset your password", body, code).await?;
        }
        Reply::Ok(Json(json!({ "ok": true })).into_response())
    }
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

async fn set_password(db: &Db, user_id: i64, password: &str, confirm: bool) -> Result<(), Refusal> {
    let hash = password::hash(password).await.map_err(|e| internal(format!("{e:?}")))?;
    let sql = if confirm {
        "UPDATE content_users SET password_hash = $1, token_version = token_version + 1, confirmed = 1, updated_at = $2 WHERE id = $3"
    } else {
        "UPDATE content_users SET password_hash = $1, token_version = token_version + 1, updated_at = $2 WHERE id = $3"
    };
    sqlx::query(sql).bind(hash).bind(now_ms()).bind(user_id).execute(db.pool()).await.map_err(internal)?;
    Ok(())
}

/// `POST /cms/api/auth/reset-password`: `{code, password, passwordConfirmation}` → `{jwt, user}`.
/// Older tokens of the account stop working.
pub async fn reset_password(State(state): State<AppState>, request: Request) -> Response {
    let ip = crate::api::request_ip(&state, &request);
    async move {
        limit_ip(&state, ip, "reset", HOUR, 20).await?;
        let body = body(&state, request).await?;
        let code = field(&body, "code")?;
        let password = field(&body, "password")?;
        check_password(password, Some(field(&body, "passwordConfirmation")?))?;
        let user_id = take_code(state.db(), code, "reset").await.map_err(internal)?;
        let Some(user_id) = user_id else {
            refused(&state, ip, "reset", "code_invalid", None, None).await;
            return Err(validation("Incorrect code provided"));
        };
        // Resetting through a mailed code proves the address, as confirming it would.
        set_password(state.db(), user_id, password, true).await?;
        let user = user_by_id(state.db(), user_id).await.map_err(internal)?.ok_or_else(not_found)?;
        Ok(signed_in(&state, &user))
    }
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /cms/api/auth/change-password` (signed in): `{currentPassword, password,
/// passwordConfirmation}` → `{jwt, user}`; older tokens stop working.
pub async fn change_password(State(state): State<AppState>, request: Request) -> Response {
    let ip = crate::api::request_ip(&state, &request);
    async move {
        let Actor::User(user) = actor(&state, request.headers()).await? else { return Err(unauthorized()) };
        limit_ip(&state, ip, "change", HOUR, 30).await?;
        limit(&state, ip, "change", &user.id.to_string(), HOUR, 10).await?;
        let body = body(&state, request).await?;
        let current = field(&body, "currentPassword")?;
        let password = field(&body, "password")?;
        check_password(password, Some(field(&body, "passwordConfirmation")?))?;
        let valid =
            password::verify(current, user.password_hash.as_deref()).await.map_err(|e| internal(format!("{e:?}")))?;
        if !valid {
            refused(&state, ip, "change", "wrong_password", None, Some(user.id)).await;
            return Err(validation("The provided current password is invalid"));
        }
        if current == password {
            return Err(validation("Your new password must be different than your current password"));
        }
        set_password(state.db(), user.id, password, false).await?;
        let user = user_by_id(state.db(), user.id).await.map_err(internal)?.ok_or_else(not_found)?;
        Ok(signed_in(&state, &user))
    }
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /cms/api/auth/send-email-confirmation`: `{email}` → `{email, sent: true}`; an
/// unconfirmed account gets a new link (the answer is the same for any address).
pub async fn send_email_confirmation(State(state): State<AppState>, request: Request) -> Response {
    let ip = crate::api::request_ip(&state, &request);
    async move {
        limit_ip(&state, ip, "confirm", HOUR, 10).await?;
        let body = body(&state, request).await?;
        let email = rules::normalize_email(field(&body, "email")?);
        limit(&state, ip, "confirm", &email, HOUR, 3).await?;
        if let Some(user) = user_by_email(state.db(), &email).await.map_err(internal)?.filter(|u| u.provider == "local")
            && user.confirmed == 0
            && user.blocked == 0
        {
            send_confirmation(&state, &user).await?;
        }
        Reply::Ok(Json(json!({ "email": email, "sent": true })).into_response())
    }
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

#[derive(Deserialize)]
pub struct ConfirmationQuery {
    confirmation: Option<String>,
}

/// `GET /cms/api/auth/email-confirmation?confirmation=…`: confirms the address and sends the
/// browser to the site.
pub async fn email_confirmation(
    State(state): State<AppState>,
    Query(query): Query<ConfirmationQuery>,
    request: Request,
) -> Response {
    let ip = crate::api::request_ip(&state, &request);
    if let Err(refusal) = limit_ip(&state, ip, "confirmation", HOUR, 60).await {
        return refusal.into_response();
    }
    let Some(code) = query.confirmation.filter(|c| !c.is_empty()) else {
        return validation("Invalid token").into_response();
    };
    match take_code(state.db(), &code, "confirm").await {
        Ok(Some(user_id)) => {
            let updated = sqlx::query("UPDATE content_users SET confirmed = 1, updated_at = $1 WHERE id = $2")
                .bind(now_ms())
                .bind(user_id)
                .execute(state.db().pool())
                .await;
            match updated {
                Ok(_) => Redirect::to("/").into_response(),
                Err(e) => internal(e).into_response(),
            }
        }
        Ok(None) => {
            refused(&state, ip, "confirmation", "code_invalid", None, None).await;
            validation("Invalid token").into_response()
        }
        Err(e) => internal(e).into_response(),
    }
}

fn http() -> &'static reqwest::Client {
    static CLIENT: std::sync::OnceLock<reqwest::Client> = std::sync::OnceLock::new();
    CLIENT.get_or_init(|| reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap_or_default())
}

/// The identity an OpenID Connect provider's userinfo endpoint gives for `access_token`.
async fn userinfo(issuer: &str, access_token: &str) -> Option<Value> {
    let discovery: Value = http()
        .get(format!("{issuer}/.well-known/openid-configuration"))
        .send()
        .await
        .ok()?
        .error_for_status()
        .ok()?
        .json()
        .await
        .ok()?;
    let endpoint = discovery.get("userinfo_endpoint")?.as_str()?;
    http().get(endpoint).bearer_auth(access_token).send().await.ok()?.error_for_status().ok()?.json().await.ok()
}

/// `GET /cms/api/auth/{provider}/callback?access_token=…` → `{jwt, user}`: the provider (one of
/// `CROUPIER_OAUTH_PROVIDERS`) vouches for the address through its userinfo endpoint; an
/// address another provider (or a password account) holds is refused, as Strapi refuses it.
pub async fn provider_callback(
    State(state): State<AppState>,
    Path(provider): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    request: Request,
) -> Response {
    let ip = crate::api::request_ip(&state, &request);
    async move {
        let Some(config) = state.config().oauth_providers.iter().find(|p| p.name == provider) else {
            return Err(application_error("This provider is disabled"));
        };
        let Some(access_token) = query.get("access_token").filter(|t| !t.is_empty()) else {
            return Err(validation("No access_token."));
        };
        limit_ip(&state, ip, "provider", QUARTER, 30).await?;
        let Some(profile) = userinfo(&config.issuer, access_token).await else {
            return Err(application_error("The provider did not accept the access token"));
        };
        let verified = profile.get("email_verified").and_then(Value::as_bool) != Some(false);
        let Some(email) = profile.get("email").and_then(Value::as_str).filter(|e| verified && rules::email(e).is_ok()) else {
            return Err(application_error("Email was not available."));
        };
        let email = rules::normalize_email(email);
        if let Some(user) = user_by_email(state.db(), &email).await.map_err(internal)? {
            if user.provider != provider {
                return Err(application_error("Email is already taken."));
            }
            if user.blocked != 0 {
                return Err(application_error("Your account has been blocked by an administrator"));
            }
            return Ok(signed_in(&state, &user));
        }
        let base = profile
            .get("preferred_username")
            .and_then(Value::as_str)
            .unwrap_or_else(|| email.split('@').next().unwrap_or("user"))
            .chars()
            .take(56)
            .collect::<String>();
        let now = now_ms();
        for attempt in 0..5 {
            let username = if attempt == 0 { base.clone() } else { format!("{base}-{}", rand::random::<u16>()) };
            let inserted = sqlx::query(
                "INSERT INTO content_users (username, username_key, email, provider, password_hash, role, confirmed, \
                 blocked, token_version, created_at, updated_at) VALUES ($1, $2, $3, $4, NULL, 'authenticated', 1, 0, 0, $5, $5)",
            )
            .bind(&username)
            .bind(username.to_lowercase())
            .bind(&email)
            .bind(&provider)
            .bind(now)
            .execute(state.db().pool())
            .await;
            match inserted {
                Ok(_) => {
                    let user = user_by_email(state.db(), &email).await.map_err(internal)?.ok_or_else(not_found)?;
                    return Ok(signed_in(&state, &user));
                }
                Err(e) if crate::db::is_unique_violation(&e) => {
                    if user_by_email(state.db(), &email).await.map_err(internal)?.is_some() {
                        return Err(application_error("Email is already taken."));
                    }
                }
                Err(e) => return Err(internal(e)),
            }
        }
        Err(application_error("Username is already taken."))
    }
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

#[derive(Deserialize)]
pub struct MeQuery {
    populate: Option<String>,
}

/// `GET /cms/api/users/me`: the signed-in content user (`?populate=role` adds the role).
pub async fn me(State(state): State<AppState>, Query(query): Query<MeQuery>, headers: HeaderMap) -> Response {
    match actor(&state, &headers).await {
        Ok(Actor::User(user)) => {
            let with_role =
                query.populate.as_deref().is_some_and(|p| p == "*" || p.split(',').any(|p| p.trim() == "role"));
            Json(user.json(with_role)).into_response()
        }
        Ok(_) => unauthorized().into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// `PUT /cms/api/users/{id}` (API tokens only): `{role, blocked, confirmed}`. `role` is
/// `editor` / `authenticated` or Strapi's role id (3 / 1).
pub async fn update_user(State(state): State<AppState>, Path(id): Path<String>, request: Request) -> Response {
    async {
        match actor(&state, request.headers()).await? {
            Actor::ApiToken => {}
            _ => return Err(forbidden()),
        }
        let id: i64 = id.parse().map_err(|_| not_found())?;
        let user = user_by_id(state.db(), id).await.map_err(internal)?.ok_or_else(not_found)?;
        let body = body(&state, request).await?;
        let role = match body.get("role") {
            None => user.role.clone(),
            Some(Value::String(r)) if r == "editor" || r == "authenticated" => r.clone(),
            Some(v) if v.as_i64() == Some(3) => "editor".to_owned(),
            Some(v) if v.as_i64() == Some(1) => "authenticated".to_owned(),
            Some(_) => return Err(validation("role must be editor or authenticated")),
        };
        let flag = |name: &str, current: i64| -> Result<i64, Refusal> {
            match body.get(name) {
                None => Ok(current),
                Some(Value::Bool(b)) => Ok(i64::from(*b)),
                Some(_) => Err(validation(&format!("{name} must be true or false"))),
            }
        };
        let (blocked, confirmed) = (flag("blocked", user.blocked)?, flag("confirmed", user.confirmed)?);
        sqlx::query("UPDATE content_users SET role = $1, blocked = $2, confirmed = $3, updated_at = $4 WHERE id = $5")
            .bind(&role)
            .bind(blocked)
            .bind(confirmed)
            .bind(now_ms())
            .bind(id)
            .execute(state.db().pool())
            .await
            .map_err(internal)?;
        let user = user_by_id(state.db(), id).await.map_err(internal)?.ok_or_else(not_found)?;
        Ok(Json(user.json(true)).into_response())
    }
    .await
    .unwrap_or_else(IntoResponse::into_response)
}
