//! Sessions: an HttpOnly, SameSite=Lax cookie holding a random token (Secure in prod); the
//! database keeps only the token's SHA-256, so a leaked table signs nobody in. A new token at
//! every sign-in; a session ends at logout, at a password change (the others), and after
//! `time_to_force_logout` without a call.
//!
//! A live session is kept in this replica's memory between calls ([`crate::hot`]): ending one,
//! or any change to its player, touches the player and the next call reads the row again.

use crate::api::{ApiError, Ctx};
use crate::config::{Config, Env};
use crate::db::now_ms;
use crate::state::AppState;
use axum::http::{HeaderMap, header};
use croupier_shared::ErrorType;
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;

pub const COOKIE: &str = "croupier_session";
/// The cookie outlives inactivity checks; the server decides when a session is over.
const COOKIE_MAX_AGE_SECONDS: u64 = 30 * 24 * 3600;
/// `last_seen_at` is written at most this often, not on every call.
const TOUCH_EVERY_MS: i64 = 15_000;

#[derive(Debug, Clone)]
pub struct Session {
    /// SHA-256 of the cookie's token, hex.
    pub id: String,
    pub user_id: i64,
}

pub struct Resolved {
    pub session: Option<Session>,
    /// The browser holds a cookie that no longer names a live session.
    pub clear_cookie: bool,
}

/// What the `sessions` table keeps of a session's cookie token: its SHA-256, in hex.
pub fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn cookie_token(headers: &HeaderMap) -> Option<&str> {
    crate::http::cookie(headers, COOKIE)
}

/// Finds the caller's session. A banned player gets `UserBannedException` (with the ban type) on
/// every call; a deleted one `UserDeletedException`. The `bool` of an error says whether to clear
/// the cookie.
pub async fn resolve(state: &AppState, headers: &HeaderMap) -> Result<Resolved, (ApiError, bool)> {
    let Some(token) = cookie_token(headers) else { return Ok(Resolved { session: None, clear_cookie: false }) };
    let id = hash(token);
    let now = now_ms();
    let idle_limit = i64::try_from(state.config().force_logout_seconds).unwrap_or(i64::MAX / 1000) * 1000;
    let touch_every = TOUCH_EVERY_MS.min(idle_limit / 4);
    let db = state.db().pool();
    // Repeat requests: a live session of a player untouched since it was read (crate::hot).
    if let Some(cached) = state.hot().session(&id)
        && now - cached.last_seen_at <= idle_limit
    {
        if now - cached.last_seen_at > touch_every {
            mark_seen(db, &id, now).await?;
            state.hot().seen(&id, now);
        }
        return Ok(Resolved { session: Some(Session { id, user_id: cached.user_id }), clear_cookie: false });
    }
    let stamp = crate::hot::stamp();
    let row: Option<(i64, i64, String, Option<String>)> = sqlx::query_as(
        "SELECT s.user_id, s.last_seen_at, u.status, u.ban_type FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1",
    )
    .bind(&id)
    .fetch_optional(db)
    .await
    .map_err(|e| (ApiError::from(e), false))?;
    let Some((user_id, mut last_seen_at, status, ban_type)) = row else {
        state.hot().forget_session(&id);
        return Ok(Resolved { session: None, clear_cookie: true });
    };
    if now - last_seen_at > idle_limit {
        sqlx::query("DELETE FROM sessions WHERE id = $1").bind(&id).execute(db).await.map_err(|e| (e.into(), false))?;
        state.hot().forget_session(&id);
        return Ok(Resolved { session: None, clear_cookie: true });
    }
    match status.as_str() {
        "banned" => {
            let ban = ban_type.unwrap_or_else(|| "permanent".to_owned());
            return Err((ApiError::new(ErrorType::UserBannedException).with_data("ban_type", ban), false));
        }
        "deleted" => {
            sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(user_id)
                .execute(db)
                .await
                .map_err(|e| (e.into(), false))?;
            crate::hot::touch(user_id);
            return Err((ApiError::new(ErrorType::UserDeletedException), true));
        }
        _ => {}
    }
    // Written at most every 15 s, and always often enough for a short idle limit.
    if now - last_seen_at > touch_every {
        mark_seen(db, &id, now).await?;
        last_seen_at = now;
    }
    state.hot().put_session(&id, user_id, last_seen_at, stamp);
    Ok(Resolved { session: Some(Session { id, user_id }), clear_cookie: false })
}

/// Writes the session's `last_seen_at` (the idle limit counts from it).
async fn mark_seen(db: &sqlx::AnyPool, id: &str, now: i64) -> Result<(), (ApiError, bool)> {
    sqlx::query("UPDATE sessions SET last_seen_at = $1 WHERE id = $2")
        .bind(now)
        .bind(id)
        .execute(db)
        .await
        .map_err(|e| (e.into(), false))?;
    Ok(())
}

/// Opens a new session for `user_id` inside the caller's transaction and sets its cookie.
pub async fn start(ctx: &Ctx, conn: &mut AnyConnection, user_id: i64) -> Result<(), ApiError> {
    let user_agent = ctx.headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok());
    let cookie =
        open(ctx.state.config(), conn, user_id, ctx.ip.map(|ip| ip.to_string()), user_agent, ctx.session.as_ref())
            .await?;
    ctx.set_cookie(cookie);
    Ok(())
}

/// Writes a new session and answers its `Set-Cookie` value. The `previous` session of the same
/// browser ends: one browser, one session.
pub async fn open(
    config: &Config,
    conn: &mut AnyConnection,
    user_id: i64,
    ip: Option<String>,
    user_agent: Option<&str>,
    previous: Option<&Session>,
) -> Result<String, ApiError> {
    let token = base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, rand::random::<[u8; 32]>());
    let now = now_ms();
    let user_agent: Option<String> = user_agent.map(|ua| ua.chars().take(256).collect());
    sqlx::query(
        "INSERT INTO sessions (id, user_id, created_at, last_seen_at, ip, user_agent) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(hash(&token))
    .bind(user_id)
    .bind(now)
    .bind(now)
    .bind(ip)
    .bind(user_agent)
    .execute(&mut *conn)
    .await?;
    if let Some(old) = previous {
        sqlx::query("DELETE FROM sessions WHERE id = $1").bind(&old.id).execute(&mut *conn).await?;
        crate::hot::touch(old.user_id);
    }
    Ok(set_cookie(config, &token))
}

/// Ends every session of `user_id` except `keep`.
pub async fn end_others(conn: &mut AnyConnection, user_id: i64, keep: Option<&str>) -> Result<(), ApiError> {
    sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
        .bind(user_id)
        .bind(keep.unwrap_or(""))
        .execute(conn)
        .await?;
    crate::hot::touch(user_id);
    Ok(())
}

/// Ends the caller's session and clears the cookie.
pub async fn end(ctx: &Ctx) -> Result<(), ApiError> {
    if let Some(session) = &ctx.session {
        sqlx::query("DELETE FROM sessions WHERE id = $1").bind(&session.id).execute(ctx.state.db().pool()).await?;
        ctx.state.hot().forget_session(&session.id);
        crate::hot::touch(session.user_id);
    }
    ctx.set_cookie(clear_cookie(ctx.state.config()));
    Ok(())
}

fn set_cookie(config: &Config, token: &str) -> String {
    let secure = if config.env == Env::Prod { "; Secure" } else { "" };
    format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={COOKIE_MAX_AGE_SECONDS}{secure}")
}

pub fn clear_cookie(config: &Config) -> String {
    let secure = if config.env == Env::Prod { "; Secure" } else { "" };
    format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}")
}
