//! Signing up, in and out: `auth.register`, `auth.login` (with the two-factor step),
//! `auth.logout`, `auth.restore` (SPEC §4, §7; DESIGN "Registration and login").

pub mod oauth;
pub mod telegram;

use crate::api::{ApiError, Ctx, FieldErrors, Input, One, Registry};
use crate::db::now_ms;
use crate::features::account::codes::{self, CodeError, Purpose};
use crate::features::account::rules;
use crate::features::account::store::{self, Login};
use crate::features::account::{AccountInfo, account_info};
use crate::messaging::Channel;
use crate::password;
use crate::session;
use croupier_shared::FieldCode;
use schemars::JsonSchema;
use serde::Deserialize;
use std::time::Duration;

const FIFTEEN_MINUTES: Duration = Duration::from_secs(15 * 60);
const ONE_HOUR: Duration = Duration::from_secs(3600);

pub fn register(api: &mut Registry) {
    api.write("auth.register", "Creates an account and signs it in; answers like account.getInfo.", register_account);
    api.write("auth.login", "Signs in with a login and password (and the two-factor code when enabled).", login);
    api.read("auth.logout", "Ends the current session.", logout);
    api.write("auth.restore", "Password reset: sends a code, then sets a new password with it.", restore);
    telegram::register(api);
}

/// Tracking parameters kept with a new account for the promotions work.
const TRACKING: [&str; 5] = ["track_id", "publisher_id", "goal_id", "goal_entry_id", "link_id"];

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RegisterInput {
    /// E-mail login; or give `phone` and `phone_country_code` instead. The pattern is wider than
    /// the rule (SPEC §5: letters, digits or `-` in two or three domain labels, at most 254
    /// characters).
    #[serde(default)]
    #[schemars(pattern(rules::schema::EMAIL), example = &"player@example.com")]
    pub email: String,
    /// Phone digits (spaces, dashes, dots and parentheses allowed), with `phone_country_code`:
    /// 8 to 15 digits in all. Used when `email` is empty.
    #[serde(default)]
    pub phone: String,
    /// 1 to 3 digits, not starting with 0, an optional leading `+`.
    #[serde(default)]
    pub phone_country_code: String,
    /// 6 to 20 printable ASCII characters, no space.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::PASSWORD), example = &"secret123")]
    pub password: String,
    /// ISO 4217 code, one of `available_currencies` (metadata.getgeneralinfo).
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::NOT_BLANK), example = &"USD")]
    pub currency: String,
    /// Must be checked (`1`, `true` or `on`): the player accepts the terms.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::CHECKBOX), example = &"1")]
    pub terms: String,
    /// 4 to 32 letters or digits; unique.
    #[serde(default)]
    #[schemars(pattern(rules::schema::FAKENAME))]
    pub fakename: String,
    #[serde(default)]
    #[schemars(length(max = 128))]
    pub promo_code: String,
    #[serde(default)]
    #[schemars(length(max = 128))]
    pub track_id: String,
    #[serde(default)]
    pub publisher_id: String,
    #[serde(default)]
    pub goal_id: String,
    #[serde(default)]
    pub goal_entry_id: String,
    #[serde(default)]
    pub link_id: String,
}

impl Input for RegisterInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if !self.phone.trim().is_empty() && self.email.trim().is_empty() {
            rules::report(errors, "phone", rules::phone(&self.phone_country_code, &self.phone));
        } else {
            rules::report(errors, "email", rules::email(&self.email));
        }
        rules::report(errors, "password", rules::password(&self.password));
        if self.currency.trim().is_empty() {
            errors.add("currency", FieldCode::Required);
        }
        rules::report(errors, "terms", rules::checkbox(&self.terms));
        if !self.fakename.is_empty() {
            rules::report(errors, "fakename", rules::fakename(&self.fakename));
        }
        for (name, value) in [("promo_code", &self.promo_code), ("track_id", &self.track_id)] {
            if value.chars().count() > 128 {
                errors.add_with(name, FieldCode::MaxLength, vec![("max", "128".into())]);
            }
        }
    }
}

impl RegisterInput {
    fn login(&self) -> Login {
        if !self.phone.trim().is_empty() && self.email.trim().is_empty() {
            Login::Phone {
                number: rules::normalize_phone(&self.phone_country_code, &self.phone),
                country_code: self.phone_country_code.trim().trim_start_matches('+').to_owned(),
            }
        } else {
            Login::Email(rules::normalize_email(&self.email))
        }
    }
}

async fn register_account(ctx: Ctx, input: RegisterInput) -> Result<AccountInfo, ApiError> {
    let ip = ctx.ip.map(|ip| ip.to_string()).unwrap_or_default();
    ctx.limit("register:ip", &ip, ONE_HOUR, ctx.state.config().registrations_per_ip_hour).await?;
    let config = ctx.state.config();
    let currency = config.currencies.iter().find(|c| c.code().eq_ignore_ascii_case(input.currency.trim())).copied();
    let Some(currency) = currency else { return Err(ApiError::field("currency", FieldCode::Unsupported)) };
    let login = input.login();
    let tracking: serde_json::Map<String, serde_json::Value> = TRACKING
        .iter()
        .zip([&input.track_id, &input.publisher_id, &input.goal_id, &input.goal_entry_id, &input.link_id])
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| ((*k).to_owned(), serde_json::Value::String(v.to_string())))
        .collect();
    let password_hash = password::hash(&input.password).await?;
    let now = now_ms();
    let mut tx = ctx.state.db().begin().await?;
    let fakename = Some(input.fakename.trim()).filter(|f| !f.is_empty());
    let user_id: i64 = sqlx::query_scalar(
        "INSERT INTO users (fakename, fakename_key, password_hash, currency, locale, promo_code, tracking, reg_time, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id",
    )
    .bind(fakename)
    .bind(fakename.map(str::to_lowercase))
    .bind(&password_hash)
    .bind(currency.code())
    .bind(ctx.locale.code())
    .bind(Some(input.promo_code.trim()).filter(|p| !p.is_empty()))
    .bind(if tracking.is_empty() { None } else { Some(serde_json::Value::Object(tracking).to_string()) })
    .bind(now)
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| store::taken_or(e, "fakename"))?;
    store::insert_contact(&mut tx, user_id, &login, true).await?;
    // Registration campaigns are offered and the promo code applied, with the account.
    let rules = crate::features::bonuses::Rules::of(&ctx.state);
    crate::features::bonuses::campaigns::on_registration(&mut tx, &rules, user_id, Some(input.promo_code.as_str()))
        .await
        .map_err(crate::features::bonuses::methods::refusal)?;
    session::start(&ctx, &mut tx, user_id).await?;
    tx.commit().await?;
    tracing::info!(user_id, "account registered");
    send_contact_code(&ctx, user_id, &login).await;
    account_info(&ctx, Some(user_id)).await
}

/// Sends the confirmation code of a new login contact; a failure is logged, not fatal: the
/// player can ask for another code from the profile.
async fn send_contact_code(ctx: &Ctx, user_id: i64, login: &Login) {
    let (channel, to) = match login {
        Login::Email(email) => (Channel::Email, email.clone()),
        Login::Phone { number, .. } => (Channel::Sms, number.clone()),
    };
    let subject = login.subject();
    let sent =
        codes::issue(&ctx.state, Purpose::Contact, &subject, Some(user_id), None, channel, &to, ctx.locale, "contact")
            .await;
    if let Err(e) = sent {
        tracing::warn!(user_id, error = ?e, "could not send the confirmation code of a new account");
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct LoginInput {
    /// E-mail, or phone digits without a leading +.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::NOT_BLANK), example = &"player@example.com")]
    pub login: String,
    #[serde(default)]
    #[schemars(extend("x-required" = true), example = &"secret123")]
    pub password: String,
    /// The two-factor code (6 digits), in the second step.
    #[serde(default)]
    #[schemars(pattern(rules::schema::CODE))]
    pub code: String,
}

impl Input for LoginInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.login.trim().is_empty() {
            errors.add("login", FieldCode::Required);
        }
        if self.password.is_empty() {
            errors.add("password", FieldCode::Required);
        }
        if !self.code.is_empty() {
            codes::check_format("code", self.code.trim(), errors);
        }
    }
}

fn wrong_credentials() -> ApiError {
    ApiError::field("password", FieldCode::WrongCredentials)
}

async fn login(ctx: Ctx, input: LoginInput) -> Result<AccountInfo, ApiError> {
    let login = Login::parse(&input.login);
    ctx.limit_ip_and("login", &login.subject(), FIFTEEN_MINUTES, 50, 10).await?;
    let found = store::find_by_login(ctx.state.db(), &login).await?;
    let matches = password::verify(&input.password, found.as_ref().and_then(|u| u.password_hash.as_deref())).await?;
    let found_id = found.as_ref().map(|u| u.id);
    let Some(user) = found.filter(|_| matches) else {
        ctx.refused("login", "wrong_credentials", Some(&login.subject()), found_id).await;
        return Err(wrong_credentials());
    };
    store::refuse_unless_active(&user)?;
    if user.two_factor_auth != 0 {
        let subject = format!("user:{}", user.id);
        let code = input.code.trim();
        if code.is_empty() {
            if let Some(seconds) = codes::resend_wait(&ctx.state, Purpose::Login, &subject).await? {
                return Err(codes::resend_error("code", seconds));
            }
            let (channel, to) = store::delivery_of(&login);
            codes::issue(&ctx.state, Purpose::Login, &subject, Some(user.id), None, channel, &to, ctx.locale, "code")
                .await?;
            let err = ApiError::field("code", FieldCode::TwoFactorRequired);
            return Err(err.with_data("resend_time", codes::RESEND_MS / 1000));
        }
        if let Err(e) = codes::check(&ctx, Purpose::Login, &subject, code).await? {
            return Err(e.into_api("code"));
        }
    }
    let mut tx = ctx.state.db().begin().await?;
    session::start(&ctx, &mut tx, user.id).await?;
    tx.commit().await?;
    account_info(&ctx, Some(user.id)).await
}

async fn logout(ctx: Ctx, _: crate::api::NoInput) -> Result<One, ApiError> {
    session::end(&ctx).await?;
    Ok(One)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RestoreInput {
    /// The account's login (e-mail, or phone digits without a leading +).
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::NOT_BLANK), example = &"player@example.com")]
    pub login: String,
    /// Step two: the code received (6 digits).
    #[serde(default)]
    #[schemars(pattern(rules::schema::CODE))]
    pub code: String,
    /// Step two: the new password (6 to 20 printable ASCII characters, no space); required
    /// with `code`.
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub password_repeat: String,
}

impl Input for RestoreInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.login.trim().is_empty() {
            errors.add("login", FieldCode::Required);
        }
        if !self.code.is_empty() {
            codes::check_format("code", self.code.trim(), errors);
            rules::report(errors, "password", rules::password(&self.password));
            if !self.password_repeat.is_empty() {
                rules::report(errors, "password_repeat", rules::password_repeat(&self.password, &self.password_repeat));
            }
        }
    }
}

/// Step one (`login` only) answers 1 whether or not the account exists and sends a code to its
/// login contact when it does. Step two (`login`, `code`, `password`) sets the password, confirms
/// the login contact (receiving the code proved it), ends every session and signs in afresh.
async fn restore(ctx: Ctx, input: RestoreInput) -> Result<One, ApiError> {
    let login = Login::parse(&input.login);
    let found = store::find_by_login(ctx.state.db(), &login).await?;
    let code = input.code.trim();
    if code.is_empty() {
        ctx.limit_ip_and("restore", &login.subject(), ONE_HOUR, 20, 5).await?;
        if let Some(user) = found.filter(|u| u.status == "active") {
            let (channel, to) = store::delivery_of(&login);
            let subject = format!("user:{}", user.id);
            // A refusal (resend time) would tell that the account exists: it is logged instead.
            let sent = codes::issue(
                &ctx.state,
                Purpose::Restore,
                &subject,
                Some(user.id),
                None,
                channel,
                &to,
                ctx.locale,
                "login",
            )
            .await;
            if let Err(e) = sent {
                tracing::info!(user_id = user.id, error = ?e, "restore code not sent");
            }
        }
        return Ok(One);
    }
    ctx.limit_ip_and("restore-check", &login.subject(), FIFTEEN_MINUTES, 30, 10).await?;
    let Some(user) = found.filter(|u| u.status == "active") else {
        ctx.refused("code_restore", "no_account", Some(&login.subject()), None).await;
        return Err(CodeError::Invalid.into_api("code"));
    };
    // Every refusal is the unknown login's: "expired" (no live code) would tell that the account
    // exists, since only a real one can have had a code. The trail keeps the real reason.
    if codes::check(&ctx, Purpose::Restore, &format!("user:{}", user.id), code).await?.is_err() {
        return Err(CodeError::Invalid.into_api("code"));
    }
    let password_hash = password::hash(&input.password).await?;
    let mut tx = ctx.state.db().begin().await?;
    sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(&password_hash)
        .bind(now_ms())
        .bind(user.id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE contacts SET is_confirmed = 1 WHERE user_id = $1 AND is_login = 1")
        .bind(user.id)
        .execute(&mut *tx)
        .await?;
    session::end_others(&mut tx, user.id, None).await?;
    session::start(&ctx, &mut tx, user.id).await?;
    tx.commit().await?;
    Ok(One)
}
