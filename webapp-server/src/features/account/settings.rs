//! Account settings: password, fakename, language, currency and two-factor sign-in.

use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, One, Registry};
use crate::db::now_ms;
use crate::features::account::codes::{self, Purpose};
use crate::features::account::rules;
use crate::features::account::store::{self, field_error};
use crate::password;
use crate::session;
use croupier_shared::{FieldCode, Locale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::time::Duration;

pub fn register(api: &mut Registry) {
    api.write("account.changepassword", "Changes the password; every other session ends.", change_password);
    api.write("account.changefakename", "Changes the public nickname.", change_fakename);
    api.write("account.changelocale", "Stores the player's language (en or fr).", change_locale);
    api.write("account.setCurrency", "Chooses the account currency while no money has moved.", set_currency);
    api.write(
        "account.changeTwoFactorAuth",
        "Asks to turn two-factor sign-in on (1) or off (0): sends a code.",
        change_two_factor,
    );
    api.write("account.confirmTwoFactorAuth", "Confirms the two-factor change with the code.", confirm_two_factor);
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ChangePasswordInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true))]
    pub old_password: String,
    /// 6 to 20 printable ASCII characters, no space.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::PASSWORD))]
    pub new_password: String,
    /// When given, must equal `new_password`.
    #[serde(default)]
    pub new_password_repeat: String,
}

impl Input for ChangePasswordInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.old_password.is_empty() {
            errors.add("old_password", FieldCode::Required);
        }
        rules::report(errors, "new_password", rules::password(&self.new_password));
        if !self.new_password_repeat.is_empty() {
            rules::report(
                errors,
                "new_password_repeat",
                rules::password_repeat(&self.new_password, &self.new_password_repeat),
            );
        }
    }
}

async fn change_password(ctx: Ctx, user: AuthUser, input: ChangePasswordInput) -> Result<One, ApiError> {
    let user_id = user.id;
    ctx.limit("change-password", &user_id.to_string(), Duration::from_secs(900), 10).await?;
    let user = store::load(ctx.state.db(), user_id).await?;
    if !password::verify(&input.old_password, user.password_hash.as_deref()).await? {
        ctx.refused("change_password", "wrong_password", None, Some(user_id)).await;
        return Err(field_error("old_password", FieldCode::Password));
    }
    let hash = password::hash(&input.new_password).await?;
    let mut tx = ctx.state.db().begin().await?;
    sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(&hash)
        .bind(now_ms())
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    session::end_others(&mut tx, user_id, ctx.session.as_ref().map(|s| s.id.as_str())).await?;
    tx.commit().await?;
    Ok(One)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FakenameInput {
    /// 4 to 32 letters or digits; unique.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::FAKENAME))]
    pub fakename: String,
}

impl Input for FakenameInput {
    fn validate(&self, errors: &mut FieldErrors) {
        rules::report(errors, "fakename", rules::fakename(&self.fakename));
    }
}

async fn change_fakename(ctx: Ctx, user: AuthUser, input: FakenameInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let name = input.fakename.trim();
    sqlx::query("UPDATE users SET fakename = $1, fakename_key = $2, updated_at = $3 WHERE id = $4")
        .bind(name)
        .bind(name.to_lowercase())
        .bind(now_ms())
        .bind(user_id)
        .execute(ctx.state.db().pool())
        .await
        .map_err(|e| store::taken_or(e, "fakename"))?;
    Ok(One)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct LocaleInput {
    /// en or fr (any case; surrounding whitespace ignored).
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(r"^\s*([Ee][Nn]|[Ff][Rr])\s*$"), example = &"fr")]
    pub locale: String,
}

impl Input for LocaleInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if Locale::parse(self.locale.trim()).is_none() {
            errors.add("locale", if self.locale.is_empty() { FieldCode::Required } else { FieldCode::Unsupported });
        }
    }
}

/// Guests may call it too (the client tells the server on every language switch); only a
/// signed-in player's choice is stored — it is the language of their messages.
async fn change_locale(ctx: Ctx, input: LocaleInput) -> Result<One, ApiError> {
    if let Some(session) = &ctx.session {
        let locale = Locale::parse(input.locale.trim()).unwrap_or_default();
        sqlx::query("UPDATE users SET locale = $1, updated_at = $2 WHERE id = $3")
            .bind(locale.code())
            .bind(now_ms())
            .bind(session.user_id)
            .execute(ctx.state.db().pool())
            .await?;
    }
    Ok(One)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CurrencyInput {
    /// One of `available_currencies`.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::NOT_BLANK), example = &"USD")]
    pub currency: String,
    /// 1 when the player accepts the terms (completes a social sign-up).
    #[serde(default)]
    pub terms: String,
}

impl Input for CurrencyInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.currency.trim().is_empty() {
            errors.add("currency", FieldCode::Required);
        }
    }
}

/// The currency is fixed by the first money movement. An account whose registration is not
/// complete (a social sign-up) completes it here, with the terms accepted.
async fn set_currency(ctx: Ctx, user: AuthUser, input: CurrencyInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let config = ctx.state.config();
    let currency = config
        .currencies
        .iter()
        .find(|c| c.code().eq_ignore_ascii_case(input.currency.trim()))
        .ok_or_else(|| field_error("currency", FieldCode::Unsupported))?;
    let user = store::load(ctx.state.db(), user_id).await?;
    if user.is_registration_completed == 0 && rules::checkbox(&input.terms).is_err() {
        return Err(field_error("terms", FieldCode::Unchecked));
    }
    // The condition re-checks in the same statement, so a concurrent first deposit wins.
    let mut tx = ctx.state.db().begin().await?;
    let updated = sqlx::query(
        "UPDATE users SET currency = $1, is_registration_completed = 1, updated_at = $2 \
         WHERE id = $3 AND first_money_movement_at IS NULL",
    )
    .bind(currency.code())
    .bind(now_ms())
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    if updated.rows_affected() == 0 {
        return Err(field_error("currency", FieldCode::Locked));
    }
    // A social sign-up completes here: now that the account has a currency, registration
    // campaigns are offered and the promo code of its link applied.
    if user.is_registration_completed == 0 {
        let rules = crate::features::bonuses::Rules::of(&ctx.state);
        let code: Option<String> =
            sqlx::query_scalar("SELECT promo_code FROM users WHERE id = $1").bind(user_id).fetch_one(&mut *tx).await?;
        crate::features::bonuses::campaigns::on_registration(&mut tx, &rules, user_id, code.as_deref())
            .await
            .map_err(crate::features::bonuses::methods::refusal)?;
    }
    tx.commit().await?;
    Ok(One)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TwoFactorInput {
    /// 1 to turn two-factor sign-in on, 0 to turn it off.
    #[serde(default)]
    #[schemars(extend("x-required" = true), extend("enum" = ["0", "1"]))]
    pub enable: String,
}

impl Input for TwoFactorInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if !matches!(self.enable.as_str(), "0" | "1") {
            errors.add("enable", if self.enable.is_empty() { FieldCode::Required } else { FieldCode::Invalid });
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct CodeSent {
    /// Seconds before another code can be asked for.
    pub resend_time: i64,
}

async fn change_two_factor(ctx: Ctx, user: AuthUser, input: TwoFactorInput) -> Result<CodeSent, ApiError> {
    let user_id = user.id;
    let user = store::load(ctx.state.db(), user_id).await?;
    let enable = input.enable == "1";
    match (enable, user.two_factor_auth != 0) {
        (true, true) => return Err(field_error("enable", FieldCode::AlreadyEnabled)),
        (false, false) => return Err(field_error("enable", FieldCode::AlreadyDisabled)),
        _ => {}
    }
    let login = store::contacts(ctx.state.db(), user_id)
        .await?
        .into_iter()
        .find(|c| c.is_login != 0)
        .ok_or_else(|| field_error("enable", FieldCode::NotFound))?
        .login();
    let (channel, to) = store::delivery_of(&login);
    let subject = format!("user:{user_id}");
    codes::issue(
        &ctx.state,
        Purpose::ToggleTwoFactor,
        &subject,
        Some(user_id),
        Some(&input.enable),
        channel,
        &to,
        ctx.locale,
        "enable",
    )
    .await?;
    Ok(CodeSent { resend_time: codes::RESEND_MS / 1000 })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ConfirmTwoFactorInput {
    /// The 6-digit code sent.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::CODE))]
    pub code: String,
}

impl Input for ConfirmTwoFactorInput {
    fn validate(&self, errors: &mut FieldErrors) {
        codes::check_format("code", self.code.trim(), errors);
    }
}

async fn confirm_two_factor(ctx: Ctx, user: AuthUser, input: ConfirmTwoFactorInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let subject = format!("user:{user_id}");
    ctx.limit_ip_and("toggle-2fa-confirm", &subject, Duration::from_secs(900), 60, 20).await?;
    let checked = codes::check(&ctx, Purpose::ToggleTwoFactor, &subject, input.code.trim())
        .await?
        .map_err(|e| e.into_api("code"))?;
    let enable = checked.payload.as_deref() == Some("1");
    let mut tx = ctx.state.db().begin().await?;
    sqlx::query("UPDATE users SET two_factor_auth = $1, updated_at = $2 WHERE id = $3")
        .bind(i64::from(enable))
        .bind(now_ms())
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    // Receiving the code proved the login contact.
    sqlx::query("UPDATE contacts SET is_confirmed = 1 WHERE user_id = $1 AND is_login = 1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(One)
}
