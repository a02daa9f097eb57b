//! The account's Telegram link: `account.linkTelegram` (a Login Widget answer, checked with the
//! bot token) and `account.unlinkTelegram`. Signing in with Telegram is `auth.telegram`, which
//! shares the provider name and the age limit defined here.

use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, One, Registry};
use crate::db::now_ms;
use crate::features::account::{AccountInfo, account_info};
use croupier_shared::telegram::login_widget;
use croupier_shared::{ErrorType, FieldCode};
use schemars::JsonSchema;
use serde::Deserialize;
use std::time::{Duration, SystemTime};

/// How old init data or a Login Widget answer may be.
pub const MAX_AGE: Duration = Duration::from_secs(24 * 3600);
/// The identity provider name Telegram accounts are linked under.
pub const PROVIDER: &str = "telegram";

pub fn register(api: &mut Registry) {
    api.write(
        "account.linkTelegram",
        "Links the signed-in account to the Telegram user of a Login Widget answer; answers like account.getInfo.",
        link,
    );
    api.write("account.unlinkTelegram", "Removes the account's Telegram link.", unlink);
    api.read(
        "account.getTelegramLink",
        "Whether the account has Telegram linked, whether unlinking is allowed, and the bot the Login Widget uses.",
        link_state,
    );
}

/// What the profile's security page needs to offer linking and unlinking Telegram.
#[derive(Debug, serde::Serialize, JsonSchema)]
pub struct TelegramLink {
    /// The Login Widget can be offered (the bot's token and username are configured).
    pub available: bool,
    /// The bot's numeric id (the public part of its token), for `Telegram.Login.auth`.
    pub bot_id: Option<i64>,
    pub bot_username: Option<String>,
    pub linked: bool,
    /// Telegram is the account's only way to sign in: unlinking is refused.
    pub only_way_in: bool,
}

async fn link_state(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<TelegramLink, ApiError> {
    let config = ctx.state.config();
    let bot_id = config
        .telegram_bot_token
        .as_ref()
        .and_then(|t| t.expose().split_once(':').and_then(|(id, _)| id.parse::<i64>().ok()));
    let bot_username = config.telegram_bot_username.clone();
    let mut conn = ctx.state.db().pool().acquire().await?;
    let ways = ways_in(&mut conn, user.id).await?;
    Ok(TelegramLink {
        available: bot_id.is_some() && bot_username.is_some(),
        bot_id,
        bot_username,
        linked: ways.telegram,
        only_way_in: ways.telegram && !ways.other,
    })
}

/// How an account signs in: with Telegram, and any other way (a password, another provider).
struct WaysIn {
    telegram: bool,
    other: bool,
}

async fn ways_in(conn: &mut sqlx::AnyConnection, user_id: i64) -> Result<WaysIn, sqlx::Error> {
    let (telegram, password, others): (i64, Option<String>, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM social_identities s WHERE s.user_id = u.id AND s.provider = $1), u.password_hash, \
         (SELECT COUNT(*) FROM social_identities s WHERE s.user_id = u.id AND s.provider <> $1) FROM users u WHERE u.id = $2",
    )
    .bind(PROVIDER)
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    Ok(WaysIn { telegram: telegram > 0, other: password.is_some() || others > 0 })
}

/// Telegram data refused: `AuthorizationException` with the reason.
pub fn refused(reason: &str) -> ApiError {
    ApiError::new(ErrorType::AuthorizationException).with_data("reason", reason)
}

/// The Login Widget's fields as the web site received them (core.telegram.org/widgets/login).
/// Only the fields Telegram sent take part in the check, so empty ones are left out.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct LinkInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(max = 512))]
    pub id: String,
    #[serde(default)]
    #[schemars(length(max = 512))]
    pub first_name: String,
    #[serde(default)]
    #[schemars(length(max = 512))]
    pub last_name: String,
    #[serde(default)]
    #[schemars(length(max = 512))]
    pub username: String,
    #[serde(default)]
    #[schemars(length(max = 512))]
    pub photo_url: String,
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(max = 512))]
    pub auth_date: String,
    /// The widget's signature of the other fields (by the bot's token).
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(max = 128))]
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
    let ways = ways_in(&mut tx, user_id).await?;
    if !ways.telegram {
        return Err(ApiError::field("telegram", FieldCode::NotFound));
    }
    if !ways.other {
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
