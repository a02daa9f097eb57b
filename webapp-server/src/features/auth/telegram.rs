//! Mini-app sign-in, `auth.telegram` (DESIGN.md "Telegram sign-in"; SPEC §7's Telegram-style
//! sign-up fields `is_tg`, `id`, `username`, `hash`, `language_code`, `payload`). What is
//! trusted is the raw `init_data` alone, verified with the bot token (HMAC-SHA256 with the
//! `WebAppData` key) and no older than [`MAX_AGE`]; the loose fields are only cross-checked.
//! A known Telegram user is signed in; an unknown one gets an account (language from
//! `language_code`, registration incomplete until a currency and the terms are chosen) whose
//! promo code and tracking ids come from the deep-link payload. Wrong or stale data is an
//! `AuthorizationException` and creates nothing.

use crate::api::{ApiError, Ctx, FieldErrors, Input, Registry};
use crate::db::now_ms;
use crate::features::account::telegram::{MAX_AGE, PROVIDER, refused};
use crate::features::account::{AccountInfo, account_info, store};
use crate::session;
use croupier_shared::telegram::deep_link::{self, DeepLink};
use croupier_shared::telegram::init_data;
use croupier_shared::{FieldCode, Locale};
use schemars::JsonSchema;
use serde::Deserialize;
use std::time::{Duration, SystemTime};

pub fn register(api: &mut Registry) {
    api.write(
        "auth.telegram",
        "Signs in or registers from the mini-app's init data; answers like account.getInfo.",
        sign_in,
    );
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TelegramInput {
    /// The raw `initData` string of the mini-app: the only thing trusted (signed by the bot's
    /// token, so only Telegram's own is accepted).
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(max = croupier_shared::telegram::MAX_RAW_LEN))]
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
