//! One-time 6-digit codes: contact confirmation, the two-factor login step, switching two-factor
//! on or off, and password restore. Only an HMAC of each code is stored; a code lives 5 minutes,
//! allows 5 tries, is compared in constant time, and a new one cannot be sent before the
//! resend time has passed (SPEC §8's two-factor messages map onto [`CodeError`]).

use crate::AppState;
use crate::api::{ApiError, Ctx, FieldErrors};
use crate::db::now_ms;
use crate::features::notify::Notice;
use crate::messaging::{Channel, Outgoing};
use croupier_shared::{FieldCode, Locale};
use rand::RngExt;

pub const TTL_MS: i64 = 5 * 60 * 1000;
pub const RESEND_MS: i64 = 60 * 1000;
pub const MAX_ATTEMPTS: i64 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Proves a contact belongs to the player.
    Contact,
    /// The second step of signing in with two-factor enabled.
    Login,
    /// Switching two-factor on or off.
    ToggleTwoFactor,
    /// Setting a new password without the old one.
    Restore,
}

impl Purpose {
    fn name(self) -> &'static str {
        match self {
            Purpose::Contact => "contact",
            Purpose::Login => "login",
            Purpose::ToggleTwoFactor => "toggle_2fa",
            Purpose::Restore => "restore",
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum CodeError {
    /// No live code: none was sent, it expired, or its tries are used up.
    Expired,
    Invalid,
}

impl CodeError {
    /// The error answer, naming `field`.
    pub fn into_api(self, field: &str) -> ApiError {
        ApiError::field(field, if self == CodeError::Expired { FieldCode::CodeExpired } else { FieldCode::CodeInvalid })
    }
}

/// A code that checked out.
#[derive(Debug)]
pub struct Checked {
    pub user_id: Option<i64>,
    pub payload: Option<String>,
}

/// Seconds until a new code may be sent for `subject`, if one was sent too recently.
pub async fn resend_wait(state: &AppState, purpose: Purpose, subject: &str) -> Result<Option<i64>, ApiError> {
    let last: Option<i64> = sqlx::query_scalar(
        "SELECT sent_at FROM verification_codes WHERE purpose = $1 AND subject = $2 ORDER BY id DESC LIMIT 1",
    )
    .bind(purpose.name())
    .bind(subject)
    .fetch_optional(state.db().pool())
    .await?;
    let wait = last.map(|sent| sent + RESEND_MS - now_ms()).filter(|ms| *ms > 0);
    Ok(wait.map(|ms| (ms + 999) / 1000))
}

/// The `RESEND_TIME` refusal with the seconds left.
pub fn resend_error(field: &str, seconds: i64) -> ApiError {
    ApiError::field_with(field, FieldCode::ResendTime, vec![("seconds", seconds.to_string())])
        .with_data("resend_time", seconds)
}

/// Issues a new code for `subject` (earlier ones stop working) and sends it to `to`.
/// Refused with `RESEND_TIME` while the previous one is younger than the resend time.
#[allow(clippy::too_many_arguments)]
pub async fn issue(
    state: &AppState,
    purpose: Purpose,
    subject: &str,
    user_id: Option<i64>,
    payload: Option<&str>,
    channel: Channel,
    to: &str,
    locale: Locale,
    field: &str,
) -> Result<(), ApiError> {
    if let Some(seconds) = resend_wait(state, purpose, subject).await? {
        return Err(resend_error(field, seconds));
    }
    let code = format!("{:06}", rand::rng().random_range(0..1_000_000_u32));
    let now = now_ms();
    let mac = state.keys().sign("code", &[purpose.name(), subject, &code]);
    let mut tx = state.db().begin().await?;
    sqlx::query(
        "UPDATE verification_codes SET consumed_at = $1 WHERE purpose = $2 AND subject = $3 AND consumed_at IS NULL",
    )
    .bind(now)
    .bind(purpose.name())
    .bind(subject)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO verification_codes (purpose, subject, user_id, code_mac, payload, attempts, sent_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, 0, $6, $7)",
    )
    .bind(purpose.name())
    .bind(subject)
    .bind(user_id)
    .bind(&mac)
    .bind(payload)
    .bind(now)
    .bind(now + TTL_MS)
    .execute(&mut *tx)
    .await?;
    // The Telegram channel: a player with Telegram linked also gets the code from the bot.
    if let Some(user_id) = user_id {
        let key = format!("code:{}", uuid::Uuid::new_v4());
        crate::features::notify::enqueue(&mut tx, user_id, &key, &Notice::Code { code: code.clone() }).await?;
    }
    tx.commit().await?;
    let (title, mut body) = message(purpose, locale, &state.config().site_name, &code);
    // An e-mailed contact code also comes as a link: /confirmation confirms it in one click.
    if purpose == Purpose::Contact && channel == Channel::Email {
        let query: String = form_urlencoded::Serializer::new(String::new())
            .append_pair("contact", subject)
            .append_pair("code", &code)
            .finish();
        let link = format!(
            "{}{}/confirmation?{query}",
            state.config().public_url.trim_end_matches('/'),
            crate::features::content::seo::prefix(locale)
        );
        body.push_str(match locale {
            Locale::En => "\n\nOr confirm in one click: ",
            Locale::Fr => "\n\nOu confirmez en un clic : ",
        });
        body.push_str(&link);
    }
    state
        .messenger()
        .send(state.db(), Outgoing { channel, to: to.to_owned(), subject: title, body, code: Some(code) })
        .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct CodeRow {
    id: i64,
    code_mac: String,
    user_id: Option<i64>,
    payload: Option<String>,
    attempts: i64,
    expires_at: i64,
}

/// Checks `code` against the live code of `subject` and uses it up when it matches. Every
/// refusal is recorded in the refusals trail (action `code_<purpose>`), naming the subject and,
/// when the code was sent to a player, that player.
pub async fn check(
    ctx: &Ctx,
    purpose: Purpose,
    subject: &str,
    code: &str,
) -> Result<Result<Checked, CodeError>, ApiError> {
    let outcome = compare(&ctx.state, purpose, subject, code).await?;
    if let Err((error, user_id)) = &outcome {
        let reason = if *error == CodeError::Expired { "code_expired" } else { "code_invalid" };
        let user_id = user_id.or(ctx.session.as_ref().map(|s| s.user_id));
        ctx.refused(&format!("code_{}", purpose.name()), reason, Some(subject), user_id).await;
    }
    Ok(outcome.map_err(|(error, _)| error))
}

/// The comparison itself: a refusal comes with the player the live code was sent to, if any.
async fn compare(
    state: &AppState,
    purpose: Purpose,
    subject: &str,
    code: &str,
) -> Result<Result<Checked, (CodeError, Option<i64>)>, ApiError> {
    let row: Option<CodeRow> = sqlx::query_as(
        "SELECT id, code_mac, user_id, payload, attempts, expires_at FROM verification_codes \
         WHERE purpose = $1 AND subject = $2 AND consumed_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .bind(purpose.name())
    .bind(subject)
    .fetch_optional(state.db().pool())
    .await?;
    let Some(CodeRow { id, code_mac: mac, user_id, payload, attempts, expires_at }) = row else {
        return Ok(Err((CodeError::Expired, None)));
    };
    let now = now_ms();
    if expires_at < now || attempts >= MAX_ATTEMPTS {
        return Ok(Err((CodeError::Expired, user_id)));
    }
    if !state.keys().verify("code", &[purpose.name(), subject, code], &mac) {
        sqlx::query("UPDATE verification_codes SET attempts = attempts + 1 WHERE id = $1")
            .bind(id)
            .execute(state.db().pool())
            .await?;
        return Ok(Err((CodeError::Invalid, user_id)));
    }
    // The condition makes a code usable once even when two requests race with it.
    let used = sqlx::query("UPDATE verification_codes SET consumed_at = $1 WHERE id = $2 AND consumed_at IS NULL")
        .bind(now)
        .bind(id)
        .execute(state.db().pool())
        .await?;
    if used.rows_affected() != 1 {
        return Ok(Err((CodeError::Expired, user_id)));
    }
    Ok(Ok(Checked { user_id, payload }))
}

/// `Ok` for exactly six ASCII digits, else the SPEC §8 "code must contain 6 digits" refusal.
pub fn check_format(field: &str, code: &str, errors: &mut FieldErrors) {
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        errors.add(field, FieldCode::CodeLength);
    }
}

fn message(purpose: Purpose, locale: Locale, site: &str, code: &str) -> (String, String) {
    match (purpose, locale) {
        (Purpose::Contact, Locale::En) => (
            format!("{site}: confirm your contact"),
            format!("Your confirmation code is {code}. It expires in 5 minutes."),
        ),
        (Purpose::Contact, Locale::Fr) => (
            format!("{site} : confirmez vos coordonnées"),
            format!("Votre code de confirmation est {code}. Il expire dans 5 minutes."),
        ),
        (Purpose::Login, Locale::En) => {
            (format!("{site}: your sign-in code"), format!("Your sign-in code is {code}. It expires in 5 minutes."))
        }
        (Purpose::Login, Locale::Fr) => (
            format!("{site} : votre code de connexion"),
            format!("Votre code de connexion est {code}. Il expire dans 5 minutes."),
        ),
        (Purpose::ToggleTwoFactor, Locale::En) => (
            format!("{site}: two-factor authentication"),
            format!("Your code to change two-factor authentication is {code}. It expires in 5 minutes."),
        ),
        (Purpose::ToggleTwoFactor, Locale::Fr) => (
            format!("{site} : double authentification"),
            format!("Votre code pour modifier la double authentification est {code}. Il expire dans 5 minutes."),
        ),
        (Purpose::Restore, Locale::En) => (
            format!("{site}: reset your password"),
            format!(
                "Your password reset code is {code}. It expires in 5 minutes. If you did not ask for it, ignore this message."
            ),
        ),
        (Purpose::Restore, Locale::Fr) => (
            format!("{site} : réinitialisez votre mot de passe"),
            format!(
                "Votre code de réinitialisation est {code}. Il expire dans 5 minutes. Si vous ne l'avez pas demandé, ignorez ce message."
            ),
        ),
    }
}
