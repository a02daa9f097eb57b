//! Telegram notifications through a transactional outbox, the bot's internal API, and where the
//! bot runs (DESIGN.md "Telegram", "Background work").
//!
//! - **Outbox.** A feature that wants to tell a player something calls [`enqueue`] with its own
//!   open transaction, so the notice exists exactly when the event does (a rolled-back deposit
//!   never announces itself). Each row has an idempotency key naming the event
//!   (`deposit:{id}:success`, …): a webhook delivered twice queues one notice. Only players with
//!   Telegram linked get rows. The kinds and their texts are [`croupier_bot::notice::Notice`]:
//!   adding one is a variant and its template there, and an `enqueue` call where it happens.
//! - **Delivery.** [`spawn`] runs the delivery job every second under the `notify-outbox` lease
//!   (one replica at a time). For each due row it first *claims* it (pushes `next_attempt_at`
//!   out by [`CLAIM`] in a conditional update, so even two workers never both take it), then
//!   sends it through the throttled bot in the player's language (the one chosen with
//!   `/language`, else the account's) with a button opening the right mini-app page, then marks
//!   it sent. A crash between sending and marking sends it again after the claim lapses: at
//!   least once, never lost. A 403 (blocked bot, deactivated user) marks the chat blocked and
//!   skips the row — and every later one — until the player `/start`s again; other failures
//!   retry with backoff, and give up after [`MAX_ATTEMPTS`].
//! - **Choices.** Promotional notices ([`Notice::is_promotional`]) are skipped at delivery, for
//!   every producer alike, when [`PROMOTIONS_OFF`] says so (read with the batch, no query per
//!   row): today, a player who unsubscribed every contact from marketing; `/summary on|off` in the bot sets the weekly club summary
//!   (`notification_preferences.weekly_summary`, sent by the loyalty feature).
//! - **Internal API.** `POST /internal/telegram/seen`, `/language`, `/cashback-claim` (a cashback
//!   notice's claim button) and `/summary`, with
//!   the shared secret `CROUPIER_INTERNAL_SECRET` in [`croupier_bot::INTERNAL_SECRET_HEADER`],
//!   are how a standalone `croupier-bot` tells the server about chats and languages; embedded,
//!   the bot calls the same functions in-process ([`InProcess`]).
//! - **Where the bot runs** is `CROUPIER_BOT` ([`crate::config::BotMode`]): `off` (default),
//!   `embedded` (long polling inside this process) or `external`.

#[cfg(feature = "bench")]
pub mod bench;

use crate::AppState;
use crate::config::{BotMode, Env};
use crate::db::now_ms;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
pub use croupier_bot::notice::Notice;
use croupier_bot::notice::{DeliveryError, deliver};
use croupier_bot::{BotSettings, Seen, SeenAnswer, TgBot};
use croupier_shared::{Currency, Locale, Money};
use futures::StreamExt;
use futures::future::BoxFuture;
use std::sync::Arc;
use std::time::Duration;

/// How long a claimed row is left alone before another attempt may send it again.
pub const CLAIM: Duration = Duration::from_secs(120);
/// After this many failed attempts a row is given up (`failed`).
pub const MAX_ATTEMPTS: i64 = 8;
/// Rows taken per run of the job.
const BATCH: i64 = 500;
const BATCH_SIZE: u64 = 500;
/// Sends in flight at once (the throttle decides the pace).
const PARALLEL: usize = 256;
const TICK: Duration = Duration::from_secs(1);
const LEASE: Duration = Duration::from_secs(30);

/// Queues `notice` for `user_id` inside the caller's transaction, under `key` (a second call with
/// the same key does nothing). Players without Telegram linked get no row.
pub async fn enqueue(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    key: &str,
    notice: &Notice,
) -> Result<(), sqlx::Error> {
    let payload = serde_json::to_string(notice).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let now = now_ms();
    sqlx::query(
        "INSERT INTO notification_outbox (idempotency_key, user_id, kind, payload, status, attempts, next_attempt_at, created_at) \
         SELECT $1, $2, $3, $4, 'pending', 0, $5, $5 WHERE EXISTS \
         (SELECT 1 FROM social_identities WHERE provider = 'telegram' AND user_id = $2) \
         ON CONFLICT (idempotency_key) DO NOTHING",
    )
    .bind(key)
    .bind(user_id)
    .bind(notice.kind())
    .bind(payload)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// `minor` units of `currency` as the wire's decimal string (`"10.00"`).
pub fn amount(minor: i64, currency: Currency) -> String {
    Money::from_minor(minor, currency).to_decimal_string()
}

// ----- the bot's side: chats and languages -----

/// A player wrote to the bot in private: remember the chat, clear a block, answer their language.
pub async fn seen(state: &AppState, seen: &Seen) -> anyhow::Result<Option<Locale>> {
    let telegram_id = seen.telegram_id.to_string();
    let language_code = seen.language_code.as_deref().map(|c| c.chars().take(16).collect::<String>());
    sqlx::query(
        "INSERT INTO telegram_chats (telegram_id, chat_id, locale, language_code, blocked_at, updated_at) \
         VALUES ($1, $2, NULL, $3, NULL, $4) ON CONFLICT (telegram_id) DO UPDATE \
         SET chat_id = excluded.chat_id, language_code = excluded.language_code, blocked_at = NULL, updated_at = excluded.updated_at",
    )
    .bind(&telegram_id)
    .bind(seen.chat_id)
    .bind(language_code)
    .bind(now_ms())
    .execute(state.db().pool())
    .await?;
    let row: Option<(Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT c.locale, u.locale FROM telegram_chats c \
         LEFT JOIN social_identities s ON s.provider = 'telegram' AND s.subject = c.telegram_id \
         LEFT JOIN users u ON u.id = s.user_id WHERE c.telegram_id = $1",
    )
    .bind(&telegram_id)
    .fetch_optional(state.db().pool())
    .await?;
    Ok(row.and_then(|(chosen, account)| chosen.or(account)).as_deref().and_then(Locale::parse))
}

/// `/language xx`: the bot's language for this player (notifications follow it too).
pub async fn set_language(state: &AppState, telegram_id: i64, locale: Locale) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO telegram_chats (telegram_id, chat_id, locale, language_code, blocked_at, updated_at) \
         VALUES ($1, $2, $3, NULL, NULL, $4) ON CONFLICT (telegram_id) DO UPDATE \
         SET locale = excluded.locale, updated_at = excluded.updated_at",
    )
    .bind(telegram_id.to_string())
    .bind(telegram_id)
    .bind(locale.code())
    .bind(now_ms())
    .execute(state.db().pool())
    .await?;
    Ok(())
}

/// The bot's [`croupier_bot::Backend`] when it runs inside this process.
pub struct InProcess(pub AppState);

impl croupier_bot::Backend for InProcess {
    fn seen(&self, seen_: Seen) -> BoxFuture<'_, anyhow::Result<Option<Locale>>> {
        Box::pin(async move { seen(&self.0, &seen_).await })
    }

    fn set_language(&self, telegram_id: i64, locale: Locale) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(async move { set_language(&self.0, telegram_id, locale).await })
    }

    fn claim_cashback(
        &self,
        claim: croupier_bot::ClaimBody,
    ) -> BoxFuture<'_, anyhow::Result<croupier_bot::ClaimAnswer>> {
        Box::pin(async move {
            crate::features::cashbacks::claim_from_chat(&self.0, claim.telegram_id, claim.cashback_id).await
        })
    }

    fn set_summary(&self, telegram_id: i64, on: bool) -> BoxFuture<'_, anyhow::Result<bool>> {
        Box::pin(async move { set_summary(&self.0, telegram_id, on).await })
    }
}

/// `/summary on|off`: the weekly summary of the player linked to `telegram_id` (false: none is).
pub async fn set_summary(state: &AppState, telegram_id: i64, on: bool) -> anyhow::Result<bool> {
    let user: Option<i64> =
        sqlx::query_scalar("SELECT user_id FROM social_identities WHERE provider = 'telegram' AND subject = $1")
            .bind(telegram_id.to_string())
            .fetch_optional(state.db().pool())
            .await?;
    let Some(user_id) = user else { return Ok(false) };
    sqlx::query(
        "INSERT INTO notification_preferences (user_id, weekly_summary, summary_week, updated_at) VALUES ($1, $2, 0, $3) \
         ON CONFLICT (user_id) DO UPDATE SET weekly_summary = excluded.weekly_summary, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(i64::from(on))
    .bind(now_ms())
    .execute(state.db().pool())
    .await?;
    Ok(true)
}

/// The internal API's routes (answer 404 while no internal secret is configured).
pub fn routes() -> axum::Router<AppState> {
    axum::Router::new()
        .route("/internal/telegram/seen", axum::routing::post(internal_seen))
        .route("/internal/telegram/language", axum::routing::post(internal_language))
        .route("/internal/telegram/cashback-claim", axum::routing::post(internal_claim))
        .route("/internal/telegram/summary", axum::routing::post(internal_summary))
}

async fn internal_claim(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Json<croupier_bot::ClaimBody>,
) -> Response {
    if let Some(status) = refuse(&state, &headers) {
        return status.into_response();
    }
    match crate::features::cashbacks::claim_from_chat(&state, body.telegram_id, body.cashback_id).await {
        Ok(answer) => Json(answer).into_response(),
        Err(e) => {
            tracing::warn!(error = format!("{e:#}"), "internal cashback claim failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

async fn internal_summary(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Json<croupier_bot::SummaryBody>,
) -> Response {
    if let Some(status) = refuse(&state, &headers) {
        return status.into_response();
    }
    match set_summary(&state, body.telegram_id, body.on).await {
        Ok(linked) => Json(croupier_bot::SummaryAnswer { linked }).into_response(),
        Err(e) => {
            tracing::warn!(error = format!("{e:#}"), "internal summary failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// `Some(status)` when the call must be refused.
fn refuse(state: &AppState, headers: &HeaderMap) -> Option<StatusCode> {
    let Some(secret) = state.config().internal_secret.as_ref() else { return Some(StatusCode::NOT_FOUND) };
    let given = headers.get(croupier_bot::INTERNAL_SECRET_HEADER).map(|v| v.as_bytes()).unwrap_or_default();
    let expected = secret.expose().as_bytes();
    // Constant time over the expected length.
    let mut diff = u8::from(given.len() != expected.len());
    for (i, b) in expected.iter().enumerate() {
        diff |= b ^ given.get(i).copied().unwrap_or(0);
    }
    (diff != 0).then_some(StatusCode::UNAUTHORIZED)
}

async fn internal_seen(State(state): State<AppState>, headers: HeaderMap, body: Json<Seen>) -> Response {
    if let Some(status) = refuse(&state, &headers) {
        return status.into_response();
    }
    match seen(&state, &body).await {
        Ok(locale) => Json(SeenAnswer { locale: locale.map(|l| l.code().to_owned()) }).into_response(),
        Err(e) => {
            tracing::warn!(error = format!("{e:#}"), "internal seen failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

async fn internal_language(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Json<croupier_bot::LanguageBody>,
) -> Response {
    if let Some(status) = refuse(&state, &headers) {
        return status.into_response();
    }
    let Some(locale) = Locale::parse(&body.locale) else { return StatusCode::UNPROCESSABLE_ENTITY.into_response() };
    match set_language(&state, body.telegram_id, locale).await {
        Ok(()) => Json(serde_json::json!({"ok": true})).into_response(),
        Err(e) => {
            tracing::warn!(error = format!("{e:#}"), "internal language failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

// ----- delivery -----

/// The bot's settings as the server configures them.
pub fn bot_settings(state: &AppState) -> anyhow::Result<BotSettings> {
    let config = state.config();
    Ok(BotSettings { public_url: reqwest::Url::parse(&config.public_url)?, site_name: config.site_name.clone() })
}

/// What one run of the job did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Delivered {
    /// Rows read (a full batch means more may be due).
    pub taken: u64,
    pub sent: u64,
    pub skipped: u64,
    pub retried: u64,
}

#[derive(sqlx::FromRow)]
struct Due {
    id: i64,
    idempotency_key: String,
    payload: String,
    attempts: i64,
    account_locale: Option<String>,
    telegram_id: Option<String>,
    chat_id: Option<i64>,
    chosen_locale: Option<String>,
    blocked_at: Option<i64>,
    /// 1: the player may not be sent promotional messages now (see [`PROMOTIONS_OFF`]).
    promotions_off: i64,
}

/// Whether the outbox row's player may not be sent promotional messages now (offers, rewards,
/// the club; [`Notice::is_promotional`]), as SQL over `o.user_id`, read with the delivery batch.
/// Money movements and codes are sent regardless.
///
/// Off: they have contacts and unsubscribed every one of them from marketing
/// (`/profile/notification`, `account.changeSubscription`, the signed unsubscribe link). A player
/// with no contact (Telegram only) has no such switch yet. A time-out or self-exclusion in force
/// (`users.blocked_until` past `$1`, the batch's now) stops promotional messages for everyone;
/// this is the one place the delivery job asks.
pub const PROMOTIONS_OFF: &str = "CASE WHEN COALESCE(u.blocked_until, 0) > $1 THEN 1 WHEN EXISTS (SELECT 1 FROM contacts k WHERE k.user_id = o.user_id) \
     AND NOT EXISTS (SELECT 1 FROM contacts k WHERE k.user_id = o.user_id AND k.is_subscribed = 1) THEN 1 ELSE 0 END";

enum Outcome {
    /// `copy`: what the dev mailbox keeps of a code sent by Telegram (recipient, text, code).
    Sent {
        secret: bool,
        copy: Option<(String, String, String)>,
    },
    /// Another worker claimed the row first: leave it to them.
    Elsewhere,
    Skip(&'static str),
    /// The player blocked the bot: (telegram id, chat id).
    Blocked(String, i64),
    Retry(String),
}

/// Sends what is due (at most one batch) and answers what happened.
pub async fn deliver_due(state: &AppState, bot: &TgBot, settings: &BotSettings) -> anyhow::Result<Delivered> {
    let now = now_ms();
    let due: Vec<Due> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT o.id, o.idempotency_key, o.payload, o.attempts, u.locale AS account_locale, \
         s.subject AS telegram_id, c.chat_id, c.locale AS chosen_locale, c.blocked_at, {PROMOTIONS_OFF} AS promotions_off \
         FROM notification_outbox o JOIN users u ON u.id = o.user_id \
         LEFT JOIN social_identities s ON s.provider = 'telegram' AND s.user_id = o.user_id \
         LEFT JOIN telegram_chats c ON c.telegram_id = s.subject \
         WHERE o.status = 'pending' AND o.next_attempt_at <= $1 ORDER BY o.id LIMIT $2"
    )))
    .bind(now)
    .bind(BATCH)
    .fetch_all(state.db().pool())
    .await?;
    let mut done = Delivered { taken: due.len() as u64, ..Delivered::default() };
    let results: Vec<(i64, i64, Outcome)> = futures::stream::iter(due)
        .map(|row| async move {
            let outcome = attempt(state, bot, settings, &row).await;
            (row.id, row.attempts, outcome)
        })
        .buffer_unordered(PARALLEL)
        .collect()
        .await;
    for (id, attempts, outcome) in results {
        match outcome {
            Outcome::Sent { secret, copy } => {
                done.sent += 1;
                if let (Some((to, body, code)), Env::Dev) = (copy, state.config().env) {
                    sqlx::query(
                        "INSERT INTO dev_mailbox (channel, recipient, subject, body, code, sent_at) VALUES ('telegram', $1, $2, $3, $4, $5)",
                    )
                    .bind(to)
                    .bind(&settings.site_name)
                    .bind(body)
                    .bind(code)
                    .bind(now_ms())
                    .execute(state.db().pool())
                    .await?;
                }
                let payload = if secret { Some("{}") } else { None };
                sqlx::query(
                    "UPDATE notification_outbox SET status = 'sent', sent_at = $1, payload = COALESCE($2, payload) \
                     WHERE id = $3 AND status = 'pending'",
                )
                .bind(now_ms())
                .bind(payload)
                .bind(id)
                .execute(state.db().pool())
                .await?;
            }
            Outcome::Elsewhere => {}
            Outcome::Skip(reason) => {
                done.skipped += 1;
                finish(state, id, "skipped", reason).await?;
            }
            Outcome::Blocked(telegram_id, chat_id) => {
                done.skipped += 1;
                sqlx::query(
                    "INSERT INTO telegram_chats (telegram_id, chat_id, locale, language_code, blocked_at, updated_at) \
                     VALUES ($1, $2, NULL, NULL, $3, $3) ON CONFLICT (telegram_id) DO UPDATE \
                     SET blocked_at = excluded.blocked_at, updated_at = excluded.updated_at",
                )
                .bind(&telegram_id)
                .bind(chat_id)
                .bind(now_ms())
                .execute(state.db().pool())
                .await?;
                finish(state, id, "skipped", "blocked").await?;
            }
            Outcome::Retry(error) => {
                done.retried += 1;
                if attempts + 1 >= MAX_ATTEMPTS {
                    finish(state, id, "failed", &error).await?;
                } else {
                    // Exponential backoff from 2 s, capped at 10 minutes.
                    let wait_ms = (2_000_i64 << attempts.clamp(0, 10)).min(600_000);
                    sqlx::query(
                        "UPDATE notification_outbox SET next_attempt_at = $1, last_error = $2 WHERE id = $3 AND status = 'pending'",
                    )
                    .bind(now_ms() + wait_ms)
                    .bind(error.chars().take(500).collect::<String>())
                    .bind(id)
                    .execute(state.db().pool())
                    .await?;
                }
            }
        }
    }
    Ok(done)
}

async fn finish(state: &AppState, id: i64, status: &str, reason: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE notification_outbox SET status = $1, last_error = $2 WHERE id = $3 AND status = 'pending'")
        .bind(status)
        .bind(reason)
        .bind(id)
        .execute(state.db().pool())
        .await?;
    Ok(())
}

async fn attempt(state: &AppState, bot: &TgBot, settings: &BotSettings, row: &Due) -> Outcome {
    let Some(telegram_id) = row.telegram_id.clone() else { return Outcome::Skip("no_telegram") };
    if row.blocked_at.is_some() {
        return Outcome::Skip("blocked");
    }
    let Ok(notice) = serde_json::from_str::<Notice>(&row.payload) else { return Outcome::Skip("unreadable") };
    if row.promotions_off != 0 && notice.is_promotional() {
        return Outcome::Skip("unsubscribed");
    }
    // Private chats have the user's id; a player who never wrote to the bot still has one.
    let Some(chat_id) = row.chat_id.or_else(|| telegram_id.parse().ok()) else { return Outcome::Skip("no_chat") };
    let claimed = sqlx::query(
        "UPDATE notification_outbox SET next_attempt_at = $1, attempts = attempts + 1 \
         WHERE id = $2 AND status = 'pending' AND attempts = $3",
    )
    .bind(now_ms() + i64::try_from(CLAIM.as_millis()).unwrap_or(i64::MAX))
    .bind(row.id)
    .bind(row.attempts)
    .execute(state.db().pool())
    .await;
    match claimed {
        Ok(done) if done.rows_affected() == 1 => {}
        Ok(_) => return Outcome::Elsewhere,
        Err(e) => return Outcome::Retry(e.to_string()),
    }
    let locale =
        row.chosen_locale.as_deref().or(row.account_locale.as_deref()).and_then(Locale::parse).unwrap_or_default();
    match deliver(bot, settings, chat_id, locale, &notice, &row.idempotency_key).await {
        Ok(()) => {
            // In dev, codes sent by Telegram are kept in the dev mailbox too (DESIGN.md), under
            // `telegram:<id>`.
            let copy = match &notice {
                Notice::Code { code } => Some((
                    format!("telegram:{telegram_id}"),
                    notice.render(locale, &settings.site_name).text,
                    code.clone(),
                )),
                _ => None,
            };
            Outcome::Sent { secret: notice.is_secret(), copy }
        }
        Err(DeliveryError::Blocked) => Outcome::Blocked(telegram_id, chat_id),
        Err(DeliveryError::Failed(e)) => Outcome::Retry(e),
    }
}

/// Starts the Telegram side of this process: the outbox delivery job whenever a bot token is set,
/// and the bot's long polling when `CROUPIER_BOT=embedded`. Answers the tasks to stop on shutdown.
pub fn spawn(state: &AppState) -> Vec<tokio::task::JoinHandle<()>> {
    let config = state.config();
    let Some(token) = config.telegram_bot_token.as_ref() else {
        if config.bot_mode == BotMode::Embedded {
            tracing::warn!("CROUPIER_BOT=embedded but TELEGRAM_BOT_TOKEN is not set: no bot");
        }
        return Vec::new();
    };
    let (api_url, settings) = match (reqwest::Url::parse(&config.telegram_api_url), bot_settings(state)) {
        (Ok(api), Ok(settings)) => (api, settings),
        _ => {
            tracing::error!("TELEGRAM_API_URL or CROUPIER_PUBLIC_URL is not a URL: no bot");
            return Vec::new();
        }
    };
    // One throttled bot for replies and notifications alike, so this process keeps the limits.
    let bot = croupier_bot::connect(token.expose(), api_url, croupier_bot::limits());
    let mut tasks = vec![spawn_outbox(state.clone(), bot.clone(), settings.clone(), TICK)];
    if config.bot_mode == BotMode::Embedded {
        let backend: Arc<dyn croupier_bot::Backend> = Arc::new(InProcess(state.clone()));
        tracing::info!("the Telegram bot runs inside this process (long polling)");
        tasks.push(tokio::spawn(croupier_bot::run_polling(bot, settings, backend, false)));
    }
    tasks
}

/// The delivery job: every `tick`, under the `notify-outbox` lease, until aborted.
pub fn spawn_outbox(state: AppState, bot: TgBot, settings: BotSettings, tick: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let holder = uuid::Uuid::new_v4().to_string();
        let mut ticker = tokio::time::interval(tick);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            // A full batch means more is waiting: go on at once (renewing the lease each time).
            loop {
                match state.coord().acquire_lease("job:notify-outbox", &holder, LEASE).await {
                    Ok(true) => match deliver_due(&state, &bot, &settings).await {
                        Ok(done) if done.taken >= BATCH_SIZE => continue,
                        Ok(_) => {}
                        Err(e) => tracing::warn!(error = format!("{e:#}"), "notification delivery failed"),
                    },
                    Ok(false) => {}
                    Err(e) => tracing::warn!(error = %e, "cannot take the notification lease"),
                }
                break;
            }
        }
    })
}
