//! Game launch: `GET /platform/game/{sysname}/{mode}` (and `custom/{id}/{mode}`), mode `play`
//! (default) or `demo`. Real play needs a signed-in player with a currency and — unless the
//! game's config says `canAccessSlotWithZeroBalance` — money; demo plays with the fun balance,
//! which is topped up when it runs low; guests (not signed in) may play demo rounds of games
//! whose config has `canPlayDemoAsGuest`, as a guest player kept by a signed cookie. A session
//! token binds player, game, currency and mode and expires after [`SESSION_TTL_MS`]: bets on it
//! are refused from then on (wins and rollbacks are still taken). Browsers get a page framing the
//! game; `Accept: application/json` gets `{"url","token","mode","currency"}` (DESIGN.md "Game
//! launch") and `expires_at` / `expires_in`, by which the game page tells a player whose session
//! is ending to start the game again (its frame cannot tell, an aggregator's game shows its own
//! error).

use super::catalogue::{self, GameRow};
use super::wallet::token_hash;
use crate::AppState;
use crate::api::{ApiError, MaybeUser};
use crate::db::group::job;
use crate::db::{Db, now_ms};
use crate::features::account::store;
use crate::ledger::{self, Account, Entry, HouseAccount, PlayerAccount};
use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{Extensions, HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use croupier_platform::http::escape_html;
use croupier_platform::http::{cookie, cookie_locale};
use croupier_shared::{Currency, ErrorType, Locale};
use serde::Serialize;
use sqlx::AnyConnection;
use std::net::{IpAddr, SocketAddr};

pub const SESSION_TTL_MS: i64 = 4 * 3600 * 1000;
/// The fun balance a demo session starts with (major units), topped up when below a tenth of it.
pub const FUN_BALANCE_MAJOR: i64 = 1_000;

#[derive(Debug, Serialize)]
pub struct Launch {
    pub url: String,
    pub token: String,
    pub mode: String,
    pub currency: String,
    /// Unix seconds: the session's end for bets.
    pub expires_at: i64,
    /// Seconds from this answer to the session's end: the client times its notice by its own
    /// clock, which may not agree with the server's `expires_at`.
    pub expires_in: i64,
}

fn wants_json(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("application/json"))
}

pub async fn by_sysname(
    State(state): State<AppState>,
    Path((sysname, mode)): Path<(String, String)>,
    user: MaybeUser,
    extensions: Extensions,
    headers: HeaderMap,
) -> Response {
    launch(&state, user, &sysname, &mode, &headers, &extensions).await
}

pub async fn by_sysname_default(
    State(state): State<AppState>,
    Path(sysname): Path<String>,
    user: MaybeUser,
    extensions: Extensions,
    headers: HeaderMap,
) -> Response {
    launch(&state, user, &sysname, "play", &headers, &extensions).await
}

/// `custom/{id}` launches address a game by its catalogue id.
pub async fn by_custom_id(
    State(state): State<AppState>,
    Path((id, mode)): Path<(i64, String)>,
    user: MaybeUser,
    extensions: Extensions,
    headers: HeaderMap,
) -> Response {
    let sysname: Option<String> = sqlx::query_scalar("SELECT sysname FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(state.db().pool())
        .await
        .ok()
        .flatten();
    match sysname {
        Some(sysname) => launch(&state, user, &sysname, &mode, &headers, &extensions).await,
        None => ApiError::new(ErrorType::MethodNotFoundException).with_status(StatusCode::NOT_FOUND).into_response(),
    }
}

async fn launch(
    state: &AppState,
    user: MaybeUser,
    sysname: &str,
    mode: &str,
    headers: &HeaderMap,
    extensions: &Extensions,
) -> Response {
    let locale = cookie_locale(headers).unwrap_or_default();
    let peer = extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let ip = crate::api::client_ip(headers, peer, state.config().trust_proxy);
    let with_cookie = |mut response: Response, set: Option<String>| {
        if let Some(value) = set.and_then(|c| axum::http::HeaderValue::from_str(&c).ok()) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
        response
    };
    match start(state, user.id(), sysname, mode, headers, ip, locale).await {
        Ok((launch, set)) if wants_json(headers) => with_cookie(Json(launch).into_response(), set),
        Ok((launch, set)) => {
            let html = format!(
                "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
                 <title>{title}</title><style>html,body{{margin:0;height:100%;background:#0b0f14}}iframe{{border:0;width:100%;height:100%;display:block}}</style>\
                 </head><body><iframe src=\"{url}\" title=\"{title}\" allow=\"fullscreen; autoplay\" allowfullscreen></iframe></body></html>",
                lang = locale.code(),
                title = escape_html(sysname),
                url = escape_html(&launch.url),
            );
            with_cookie(Html(html).into_response(), set)
        }
        Err(e) => e.render(locale),
    }
}

async fn start(
    state: &AppState,
    signed_in: Option<i64>,
    sysname: &str,
    mode: &str,
    headers: &HeaderMap,
    ip: Option<IpAddr>,
    locale: Locale,
) -> Result<(Launch, Option<String>), ApiError> {
    let mode = match mode {
        "play" | "real" => "real",
        "demo" => "demo",
        _ => return Err(store::field_error("mode", croupier_shared::FieldCode::Unsupported)),
    };
    let game = catalogue::find(state.db(), sysname)
        .await?
        .ok_or_else(|| store::field_error("sysname", croupier_shared::FieldCode::NotFound))?;
    let mut guest_cookie = None;
    let user_id = match signed_in {
        Some(id) => id,
        // Guests play demo rounds of the games that allow it, as a guest player of their own.
        None if mode == "demo" && game.has_demo != 0 && game.allows_guest_demo() => {
            let (id, cookie) = guest(state, headers, ip, locale).await?;
            guest_cookie = cookie;
            id
        }
        None => return Err(ApiError::new(ErrorType::AuthorizationException)),
    };
    let user = store::load(state.db(), user_id).await?;
    if user.status != GUEST {
        store::refuse_unless_active(&user)?;
    }
    // No real-money play during a time-out or self-exclusion (the wallet refuses the bets too).
    if mode == "real"
        && let Some(exclusion) = crate::features::protection::Exclusion::in_force(
            user.blocked_until,
            user.blocked_kind.as_deref(),
            crate::db::now_ms(),
        )
    {
        return Err(exclusion.error());
    }
    let currency = user
        .currency
        .as_deref()
        .and_then(Currency::parse)
        .ok_or_else(|| ApiError::new(ErrorType::UserNeedProfileDataException))?;
    if mode == "demo" {
        if game.has_demo == 0 {
            return Err(store::field_error("mode", croupier_shared::FieldCode::Unsupported));
        }
        top_up_fun(state, user_id, currency).await?;
    } else if !game.allows_zero_balance() {
        let mut conn = state.db().pool().acquire().await?;
        if ledger::balance(&mut conn, Account::main(user_id), currency).await? <= 0 {
            return Err(ApiError::new(ErrorType::UserNeedDepositException));
        }
    }
    let token = base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, rand::random::<[u8; 32]>());
    let now = now_ms();
    let hash = token_hash(&token);
    sqlx::query("INSERT INTO game_sessions (token_hash, user_id, game_id, currency, mode, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(&hash)
        .bind(user_id)
        .bind(game.id)
        .bind(currency.code())
        .bind(mode)
        .bind(now)
        .bind(now + SESSION_TTL_MS)
        .execute(state.db().pool())
        .await?;
    // The wallet's calls and the house rounds of this session find their lane without a read.
    state.hot().put_game_player(&hash, user_id);
    Ok((
        Launch {
            url: game_url(state, &game, user_id, &token, mode, currency, user.locale.as_str()),
            token,
            mode: mode.to_owned(),
            currency: currency.code().to_owned(),
            expires_at: (now + SESSION_TTL_MS) / 1000,
            expires_in: SESSION_TTL_MS / 1000,
        },
        guest_cookie,
    ))
}

/// The status of a guest player: no sign-in, demo rounds only.
pub const GUEST: &str = "guest";
/// A guest swept after [`GUEST_IDLE_DAYS`] without a launch (see [`sweep_guests`]).
pub const GUEST_EXPIRED: &str = "guest_expired";
/// The guest cookie's lifetime: after it, the browser can no longer come back as that guest.
pub const GUEST_IDLE_DAYS: i64 = 30;
const GUEST_COOKIE: &str = "croupier_guest";

/// New guests one address may make per hour: a crawler following demo links would otherwise make
/// a player row per request. Generous, because many phones share a carrier's address; a browser
/// that keeps its cookie keeps its guest and is not counted again.
pub const GUESTS_PER_ADDRESS_PER_HOUR: u64 = 60;

/// The guest player of this browser (from its signed cookie), or a new one with the cookie to set
/// (at most [`GUESTS_PER_ADDRESS_PER_HOUR`] new ones per caller address, else
/// `TooManyRequestsException`).
async fn guest(
    state: &AppState,
    headers: &HeaderMap,
    ip: Option<IpAddr>,
    locale: Locale,
) -> Result<(i64, Option<String>), ApiError> {
    let known = cookie(headers, GUEST_COOKIE).and_then(|v| {
        let (id, mac) = v.split_once('.')?;
        (state.keys().sign("guest-demo", &[id]) == mac).then(|| id.parse::<i64>().ok()).flatten()
    });
    if let Some(id) = known {
        let status: Option<String> = sqlx::query_scalar("SELECT status FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(state.db().pool())
            .await?;
        if status.as_deref() == Some(GUEST) {
            return Ok((id, None));
        }
    }
    if let Some(ip) = ip {
        let address = state.keys().sign("guest-address", &[&ip.to_string()]);
        let decision = state
            .coord()
            .hit(&format!("guest:{address}"), std::time::Duration::from_secs(3600), GUESTS_PER_ADDRESS_PER_HOUR)
            .await?;
        if !decision.allowed {
            return Err(ApiError::too_many_requests(decision.retry_after));
        }
    }
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO users (currency, locale, status, is_registration_completed, reg_time, updated_at) VALUES ($1, $2, $3, 0, $4, $4) RETURNING id",
    )
    .bind(state.config().default_currency.code())
    .bind(locale.code())
    .bind(GUEST)
    .bind(now)
    .fetch_one(state.db().pool())
    .await?;
    let value = format!("{id}.{}", state.keys().sign("guest-demo", &[&id.to_string()]));
    let secure = if state.config().env == crate::config::Env::Prod { "; Secure" } else { "" };
    Ok((id, Some(format!("{GUEST_COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000{secure}"))))
}

/// Closes guests idle for [`GUEST_IDLE_DAYS`] (a background job, at most 500 per run): their fun
/// money goes back to the house's fun supply through the ledger, their launch sessions are
/// deleted and their status becomes [`GUEST_EXPIRED`]. The `users` row itself stays, as a small
/// tombstone: the ledger is append-only and its postings name the account. A browser whose cookie
/// still names a swept guest simply gets a new guest.
pub async fn sweep_guests(state: AppState) -> anyhow::Result<()> {
    let cutoff = now_ms() - GUEST_IDLE_DAYS * 86_400_000;
    let idle: Vec<(i64, Option<String>)> = sqlx::query_as(
        "SELECT u.id, u.currency FROM users u WHERE u.status = $1 AND u.reg_time < $2 \
         AND NOT EXISTS (SELECT 1 FROM game_sessions s WHERE s.user_id = u.id AND s.created_at >= $2) ORDER BY u.id LIMIT 500",
    )
    .bind(GUEST)
    .bind(cutoff)
    .fetch_all(state.db().pool())
    .await?;
    for (user_id, currency) in idle {
        let currency = currency.as_deref().and_then(Currency::parse).unwrap_or(state.config().default_currency);
        let db = state.db().clone();
        // On the guest's lane of the group committer, like every change that moves money.
        state
            .db()
            .group(
                user_id,
                job(move |conn| {
                    let db = db.clone();
                    Box::pin(async move { sweep_guest(conn, &db, user_id, currency).await })
                }),
            )
            .await?;
    }
    Ok(())
}

/// One idle guest's sweep (see [`sweep_guests`]), in the committer's transaction.
async fn sweep_guest(conn: &mut AnyConnection, db: &Db, user_id: i64, currency: Currency) -> anyhow::Result<()> {
    db.lock_user(conn, user_id).await?;
    let fun = Account::Player { user_id, kind: PlayerAccount::Fun };
    let left = ledger::balance(conn, fun, currency).await?;
    if left > 0 {
        let key = format!("guest-expired:{user_id}:{}", currency.code());
        let entry = Entry::transfer(&key, "fun_expiry", currency, fun, Account::House(HouseAccount::FunSupply), left);
        ledger::post(conn, &entry).await.map_err(|e| anyhow::anyhow!("{e:?}"))?;
    }
    sqlx::query("DELETE FROM game_sessions WHERE user_id = $1").bind(user_id).execute(&mut *conn).await?;
    sqlx::query("UPDATE users SET status = $1, updated_at = $2 WHERE id = $3 AND status = $4")
        .bind(GUEST_EXPIRED)
        .bind(now_ms())
        .bind(user_id)
        .bind(GUEST)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The game's address: an external provider's template with its placeholders filled (`{user}` is
/// the player's id, which the provider may send back as its wallet calls' `user`: the wallet
/// then refuses a call whose `user` is not the token's player), else the house game's page.
fn game_url(
    state: &AppState,
    game: &GameRow,
    user_id: i64,
    token: &str,
    mode: &str,
    currency: Currency,
    locale: &str,
) -> String {
    match state.config().game_providers.iter().find(|p| p.name == game.provider) {
        Some(provider) => provider
            .launch_url
            .replace("{token}", token)
            .replace("{user}", &user_id.to_string())
            .replace("{game}", &game.sysname)
            .replace("{mode}", mode)
            .replace("{currency}", currency.code())
            .replace("{locale}", locale),
        None => format!("{}/games/house/{}?token={token}&locale={locale}", state.config().public_url, game.sysname),
    }
}

/// Demo money refills itself: below a tenth of the starting fun balance it is brought back up.
async fn top_up_fun(state: &AppState, user_id: i64, currency: Currency) -> Result<(), ApiError> {
    let full = croupier_shared::Money::from_major(FUN_BALANCE_MAJOR, currency).minor();
    // On the player's lane of the group committer, like every change that moves money.
    state
        .db()
        .group(
            user_id,
            job(move |conn| {
                Box::pin(async move {
                    let fun = Account::Player { user_id, kind: PlayerAccount::Fun };
                    let balance = ledger::balance(conn, fun, currency).await?;
                    if balance < full / 10 {
                        let key = format!("fun-top-up:{user_id}:{}", uuid::Uuid::new_v4());
                        let from = Account::House(HouseAccount::FunSupply);
                        let entry = Entry::transfer(&key, "fun_top_up", currency, from, fun, full - balance);
                        ledger::post(conn, &entry).await.map_err(ApiError::from)?;
                    }
                    Ok(())
                })
            }),
        )
        .await
}
