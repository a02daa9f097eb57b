//! Mini-app sign-in, `auth.telegram` (DESIGN.md "Telegram sign-in"; SPEC §7's Telegram-style
//! sign-up fields `is_tg`, `id`, `username`, `hash`, `language_code`, `payload`). What is
//! trusted is the raw `init_data` alone, verified with the bot token (HMAC-SHA256 with the
//! `WebAppData` key) and no older than [`MAX_AGE`]; the loose fields are only cross-checked.
//! A known Telegram user is signed in; an unknown one gets an account (language from
//! `language_code`, registration incomplete until a currency and the terms are chosen) whose
//! promo code and tracking ids come from the deep-link payload. Wrong or stale data is an
//! `AuthorizationException` and creates nothing.

use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, One, Registry};
use crate::db::now_ms;
use crate::features::account::{AccountInfo, account_info, store};
use crate::session;
use croupier_shared::telegram::deep_link::{self, DeepLink};
use croupier_shared::telegram::{init_data, login_widget};
use croupier_shared::{ErrorType, FieldCode, Locale};
use schemars::JsonSchema;
use serde::Deserialize;
use std::time::{Duration, SystemTime};

/// How old init data may be.
pub const MAX_AGE: Duration = Duration::from_secs(24 * 3600);
/// The identity provider name Telegram accounts are linked under.
pub const PROVIDER: &str = "telegram";

pub fn register(api: &mut Registry) {
    api.write(
        "auth.telegram",
        "Signs in or registers from the mini-app's init data; answers like account.getInfo.",
        sign_in,
    );
    api.write(
        "account.linkTelegram",
        "Links the signed-in account to the Telegram user of a Login Widget answer; answers like account.getInfo.",
        link,
    );
    api.write("account.unlinkTelegram", "Removes the account's Telegram link.", unlink);
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TelegramInput {
    /// The raw `initData` string of the mini-app: the only thing trusted.
    #[serde(default)]
    pub init_data: String,
    #[serde(default)]
    pub is_tg: String,
    /// The Telegram user id the client read; must match the init data.
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub hash: String,
    #[serde(default)]
    pub language_code: String,
    /// A deep-link payload (start parameter) when the client has one beside the init data.
    #[serde(default)]
    pub payload: String,
}

impl Input for TelegramInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.init_data.is_empty() {
            errors.add("init_data", FieldCode::Required);
        }
        if self.init_data.len() > croupier_shared::telegram::MAX_RAW_LEN {
            errors.add_with(
                "init_data",
                FieldCode::MaxLength,
                vec![("max", croupier_shared::telegram::MAX_RAW_LEN.to_string())],
            );
        }
    }
}

fn refused(reason: &str) -> ApiError {
    ApiError::new(ErrorType::AuthorizationException).with_data("reason", reason)
}

async fn sign_in(ctx: Ctx, input: TelegramInput) -> Result<AccountInfo, ApiError> {
    let ip = ctx.ip.map(|ip| ip.to_string()).unwrap_or_default();
    ctx.limit("telegram:ip", &ip, Duration::from_secs(900), 60).await?;
    let token = ctx.state.config().telegram_bot_token.as_ref().ok_or_else(|| refused("telegram_not_configured"))?;
    let data = init_data::verify_hmac(&input.init_data, token.expose(), MAX_AGE, SystemTime::now()).map_err(|e| {
        tracing::info!(error = %e, "Telegram init data refused");
        refused("invalid_init_data")
    })?;
    let user = data.user.as_ref().ok_or_else(|| refused("no_user"))?;
    if !input.id.is_empty() && input.id != user.id.to_string() {
        return Err(refused("user_mismatch"));
    }
    let subject = user.id.to_string();
    let db = ctx.state.db();
    let known: Option<i64> =
        sqlx::query_scalar("SELECT user_id FROM social_identities WHERE provider = $1 AND subject = $2")
            .bind(PROVIDER)
            .bind(&subject)
            .fetch_optional(db.pool())
            .await?;
    let mut tx = db.begin().await?;
    let user_id = match known {
        Some(id) => {
            store::refuse_unless_active(&store::load(db, id).await?)?;
            id
        }
        None => {
            let locale =
                Locale::parse(user.language_code.as_deref().unwrap_or("").get(..2).unwrap_or("")).unwrap_or_default();
            let payload = data
                .start_param
                .clone()
                .filter(|p| !p.is_empty())
                .or_else(|| Some(input.payload.clone()).filter(|p| !p.is_empty()));
            let link: DeepLink = payload.as_deref().and_then(|p| deep_link::decode(p).ok()).unwrap_or_default();
            let tracking: serde_json::Map<String, serde_json::Value> = link
                .tracking
                .iter()
                .map(|(k, v)| (k.param().to_owned(), serde_json::Value::String(v.clone())))
                .collect();
            let now = now_ms();
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO users (locale, is_registration_completed, promo_code, tracking, reg_time, updated_at) \
                 VALUES ($1, 0, $2, $3, $4, $4) RETURNING id",
            )
            .bind(locale.code())
            .bind(&link.promo_code)
            .bind(if tracking.is_empty() { None } else { Some(serde_json::Value::Object(tracking).to_string()) })
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            sqlx::query("INSERT INTO social_identities (provider, subject, user_id, email, created_at) VALUES ($1, $2, $3, NULL, $4)")
                .bind(PROVIDER)
                .bind(&subject)
                .bind(id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            tracing::info!(user_id = id, "account registered from Telegram");
            id
        }
    };
    session::start(&ctx, &mut tx, user_id).await?;
    tx.commit().await?;
    account_info(&ctx, Some(user_id)).await
}

/// The Login Widget's fields as the web site received them (core.telegram.org/widgets/login).
/// Only the fields Telegram sent take part in the check, so empty ones are left out.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct LinkInput {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub photo_url: String,
    #[serde(default)]
    pub auth_date: String,
    #[serde(default)]
    pub hash: String,
}

impl Input for LinkInput {
    fn validate(&self, errors: &mut FieldErrors) {
        for (name, value) in [("id", &self.id), ("auth_date", &self.auth_date), ("hash", &self.hash)] {
            if value.is_empty() {
                errors.add(name, FieldCode::Required);
            }
        }
        let fields = [&self.id, &self.first_name, &self.last_name, &self.username, &self.photo_url, &self.auth_date];
        if fields.iter().any(|v| v.len() > 512) || self.hash.len() > 128 {
            errors.add_with("hash", FieldCode::MaxLength, vec![("max", "512".to_owned())]);
        }
    }
}

/// `account.linkTelegram`: one Telegram user belongs to one account, and an account has at most
/// one Telegram user; linking the same pair again changes nothing.
async fn link(ctx: Ctx, user: AuthUser, input: LinkInput) -> Result<AccountInfo, ApiError> {
    let user_id = user.id;
    ctx.limit("telegram-link:user", &user_id.to_string(), Duration::from_secs(900), 20).await?;
    let token = ctx.state.config().telegram_bot_token.as_ref().ok_or_else(|| refused("telegram_not_configured"))?;
    let given = [
        ("id", &input.id),
        ("first_name", &input.first_name),
        ("last_name", &input.last_name),
        ("username", &input.username),
        ("photo_url", &input.photo_url),
        ("auth_date", &input.auth_date),
        ("hash", &input.hash),
    ];
    let fields = given.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| (*k, v.as_str()));
    let data = login_widget::verify(fields, token.expose(), MAX_AGE, SystemTime::now()).map_err(|e| {
        tracing::info!(error = %e, "Telegram Login Widget data refused");
        refused("invalid_widget_data")
    })?;
    let subject = data.id.to_string();
    let db = ctx.state.db();
    let mut tx = db.begin().await?;
    let owner: Option<i64> =
        sqlx::query_scalar("SELECT user_id FROM social_identities WHERE provider = $1 AND subject = $2")
            .bind(PROVIDER)
            .bind(&subject)
            .fetch_optional(&mut *tx)
            .await?;
    match owner {
        Some(owner) if owner == user_id => {}
        Some(_) => return Err(ApiError::field("id", FieldCode::Taken).with_data("reason", "telegram_linked_elsewhere")),
        None => {
            let mine: Option<String> =
                sqlx::query_scalar("SELECT subject FROM social_identities WHERE provider = $1 AND user_id = $2")
                    .bind(PROVIDER)
                    .bind(user_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            if mine.is_some() {
                return Err(ApiError::field("id", FieldCode::Locked).with_data("reason", "account_has_telegram"));
            }
            sqlx::query(
                "INSERT INTO social_identities (provider, subject, user_id, email, created_at) VALUES ($1, $2, $3, NULL, $4)",
            )
            .bind(PROVIDER)
            .bind(&subject)
            .bind(user_id)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
            tracing::info!(user_id, "Telegram linked");
        }
    }
    tx.commit().await?;
    account_info(&ctx, Some(user_id)).await
}

/// `account.unlinkTelegram`: refused when Telegram is the account's only way to sign in.
async fn unlink(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let db = ctx.state.db();
    let mut tx = db.begin().await?;
    let linked: Option<String> =
        sqlx::query_scalar("SELECT subject FROM social_identities WHERE provider = $1 AND user_id = $2")
            .bind(PROVIDER)
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?;
    if linked.is_none() {
        return Err(ApiError::field("telegram", FieldCode::NotFound));
    }
    let (password, others): (Option<String>, i64) = sqlx::query_as(
        "SELECT u.password_hash, (SELECT COUNT(*) FROM social_identities s WHERE s.user_id = u.id AND s.provider <> $1) \
         FROM users u WHERE u.id = $2",
    )
    .bind(PROVIDER)
    .bind(user_id)
    .fetch_one(&mut *tx)
    .await?;
    if password.is_none() && others == 0 {
        return Err(ApiError::field("telegram", FieldCode::Locked).with_data("reason", "only_sign_in_method"));
    }
    sqlx::query("DELETE FROM social_identities WHERE provider = $1 AND user_id = $2")
        .bind(PROVIDER)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(user_id, "Telegram unlinked");
    Ok(One)
}
