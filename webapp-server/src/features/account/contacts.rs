//! Contacts (SPEC §3 "Contact"): adding, confirming by code, subscriptions, unsubscribing from
//! a signed link, and the phone settings of the contact form.

use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, MaybeUser, NoInput, One, Registry};
use crate::features::account::codes::{self, Purpose};
use crate::features::account::rules;
use crate::features::account::store::{self, Login, field_error};
use croupier_shared::ErrorType;
use croupier_shared::FieldCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub fn register(api: &mut Registry) {
    api.write("account.addcontact", "Adds (or replaces) the player's e-mail or phone.", add_contact);
    api.write(
        "account.sendconfirmationtocontact",
        "Sends a 6-digit code to one of the player's contacts.",
        send_confirmation,
    );
    api.write("account.confirmContact", "Confirms a contact with the code it received.", confirm_contact);
    api.write(
        "account.confirmContactLink",
        "Confirms a contact from the link its e-mail carried (contact subject and code); no sign-in needed.",
        confirm_contact_link,
    );
    api.write(
        "account.changeSubscription",
        "Turns marketing messages to a contact on (1) or off (0).",
        change_subscription,
    );
    api.write(
        "account.unsubscribe",
        "Stops marketing messages: signed link `token`, or a signed-in player's `contact`.",
        unsubscribe,
    );
    api.read(
        "account.getContactPhoneSettings",
        "Country calling codes and input masks for phone fields.",
        phone_settings,
    );
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ContactInput {
    /// An e-mail address or a phone number.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::NOT_BLANK), example = &"player@example.com")]
    pub contact: String,
    /// For phones: the country calling code (digits, `+` allowed).
    #[serde(default)]
    pub phone_country_code: String,
}

impl ContactInput {
    fn is_phone(&self) -> bool {
        !self.phone_country_code.trim().is_empty() || !self.contact.contains('@')
    }

    /// The contact as stored: a lower-case e-mail, or phone digits with the country code first.
    fn login(&self) -> Login {
        if self.is_phone() {
            let digits: String = self.contact.chars().filter(char::is_ascii_digit).collect();
            let cc = self.phone_country_code.trim().trim_start_matches('+');
            let number = if cc.is_empty() || digits.starts_with(cc) { digits } else { format!("{cc}{digits}") };
            Login::Phone { number, country_code: cc.to_owned() }
        } else {
            Login::Email(rules::normalize_email(&self.contact))
        }
    }
}

impl Input for ContactInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.contact.trim().is_empty() {
            errors.add("contact", FieldCode::Required);
        } else if self.is_phone() && !self.phone_country_code.trim().is_empty() {
            rules::report(errors, "contact", rules::phone(&self.phone_country_code, &self.contact));
        } else if !self.is_phone() {
            rules::report(errors, "contact", rules::email(&self.contact));
        } else if self.contact.chars().filter(char::is_ascii_digit).count() < rules::PHONE_MIN_DIGITS {
            errors.add("contact", FieldCode::Phone);
        }
    }
}

/// A player has at most one e-mail and one phone. Adding one of a kind the player already has
/// replaces it (unconfirmed again); a contact another account uses is `TAKEN`.
async fn add_contact(ctx: Ctx, user: AuthUser, input: ContactInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let login = input.login();
    let existing = store::contacts(ctx.state.db(), user_id).await?.into_iter().find(|c| c.kind == login.kind());
    let country_code = match &login {
        Login::Phone { country_code, .. } if !country_code.is_empty() => Some(country_code.clone()),
        _ => None,
    };
    match existing {
        Some(c) if c.contact == login.value() => Ok(One),
        Some(c) => {
            sqlx::query("UPDATE contacts SET contact = $1, phone_country_code = $2, is_confirmed = 0 WHERE id = $3")
                .bind(login.value())
                .bind(country_code)
                .bind(c.id)
                .execute(ctx.state.db().pool())
                .await
                .map_err(|e| store::taken_or(e, "contact"))?;
            Ok(One)
        }
        None => {
            let mut conn = ctx.state.db().pool().acquire().await?;
            store::insert_contact(&mut conn, user_id, &login, false).await.map_err(|e| rename_field(e, "contact"))?;
            Ok(One)
        }
    }
}

fn rename_field(e: ApiError, field: &str) -> ApiError {
    match e.fields().first() {
        Some(f) if f.code == FieldCode::Taken => field_error(field, FieldCode::Taken),
        _ => e,
    }
}

async fn owned_contact(ctx: &Ctx, user_id: i64, input: &ContactInput) -> Result<store::ContactRow, ApiError> {
    let login = input.login();
    store::contacts(ctx.state.db(), user_id)
        .await?
        .into_iter()
        .find(|c| c.kind == login.kind() && c.contact == login.value())
        .ok_or_else(|| field_error("contact", FieldCode::NotFound))
}

async fn send_confirmation(ctx: Ctx, user: AuthUser, input: ContactInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let contact = owned_contact(&ctx, user_id, &input).await?;
    let login = contact.login();
    ctx.limit("contact-code", &login.subject(), std::time::Duration::from_secs(3600), 10).await?;
    let (channel, to) = store::delivery_of(&login);
    codes::issue(
        &ctx.state,
        Purpose::Contact,
        &login.subject(),
        Some(user_id),
        None,
        channel,
        &to,
        ctx.locale,
        "contact",
    )
    .await?;
    Ok(One)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ConfirmInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::NOT_BLANK))]
    pub contact: String,
    #[serde(default)]
    pub phone_country_code: String,
    /// The 6-digit code the contact received.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::CODE))]
    pub code: String,
}

impl Input for ConfirmInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.contact.trim().is_empty() {
            errors.add("contact", FieldCode::Required);
        }
        rules::report(errors, "code", rules::confirmation_code(&self.code));
    }
}

async fn confirm_contact(ctx: Ctx, user: AuthUser, input: ConfirmInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let as_contact =
        ContactInput { contact: input.contact.clone(), phone_country_code: input.phone_country_code.clone() };
    let contact = owned_contact(&ctx, user_id, &as_contact).await?;
    let subject = contact.login().subject();
    ctx.limit_ip_and("contact-confirm", &subject, std::time::Duration::from_secs(900), 60, 20).await?;
    let checked = codes::check(&ctx, Purpose::Contact, &subject, input.code.trim()).await?;
    match checked {
        Ok(c) if c.user_id == Some(user_id) => {
            sqlx::query("UPDATE contacts SET is_confirmed = 1 WHERE id = $1")
                .bind(contact.id)
                .execute(ctx.state.db().pool())
                .await?;
            Ok(One)
        }
        Ok(_) => {
            ctx.refused("code_contact", "other_player", Some(&subject), Some(user_id)).await;
            Err(codes::CodeError::Invalid.into_api("code"))
        }
        Err(e) => Err(e.into_api("code")),
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ConfirmLinkInput {
    /// The link's `contact`: `email:<address>` or `phone:<digits>` (at most 330 bytes).
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(r"^(email|phone):[\s\S]"), length(max = 330))]
    pub contact: String,
    /// The link's 6-digit `code`.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::CODE))]
    pub code: String,
}

impl ConfirmLinkInput {
    fn kind_and_value(&self) -> Option<(&str, &str)> {
        let (kind, value) = self.contact.split_once(':')?;
        (matches!(kind, "email" | "phone") && !value.is_empty()).then_some((kind, value))
    }
}

impl Input for ConfirmLinkInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.contact.is_empty() {
            errors.add("contact", FieldCode::Required);
        } else if self.contact.len() > 330 || self.kind_and_value().is_none() {
            errors.add("contact", FieldCode::Invalid);
        }
        rules::report(errors, "code", rules::confirmation_code(&self.code));
    }
}

/// `/confirmation?contact=…&code=…` (the link of a contact's confirmation e-mail): the code is
/// checked like a typed one (once, within its time, a few attempts), so the link works on any
/// device, signed in or not; the contact it was sent for is confirmed if it still exists.
async fn confirm_contact_link(ctx: Ctx, _: MaybeUser, input: ConfirmLinkInput) -> Result<One, ApiError> {
    let Some((kind, value)) = input.kind_and_value() else { return Err(field_error("contact", FieldCode::Invalid)) };
    ctx.limit_ip_and("contact-link", &input.contact, std::time::Duration::from_secs(900), 60, 20).await?;
    let checked = codes::check(&ctx, Purpose::Contact, &input.contact, input.code.trim()).await?;
    // One refusal whatever the cause: "invalid" (a live code exists) against "expired" (none) would
    // tell anyone, signed in or not, which contacts are waiting for a confirmation. A link's code
    // is right as sent, so its usual failure is the expired one.
    let Ok(codes::Checked { user_id: Some(user_id), .. }) = checked else {
        return Err(codes::CodeError::Expired.into_api("code"));
    };
    let confirmed =
        sqlx::query("UPDATE contacts SET is_confirmed = 1 WHERE user_id = $1 AND kind = $2 AND contact = $3")
            .bind(user_id)
            .bind(kind)
            .bind(value)
            .execute(ctx.state.db().pool())
            .await?;
    if confirmed.rows_affected() == 0 {
        return Err(field_error("contact", FieldCode::NotFound));
    }
    Ok(One)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SubscriptionInput {
    /// One of the player's contacts (e-mail, or phone digits).
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::NOT_BLANK))]
    pub contact: String,
    #[serde(default)]
    pub phone_country_code: String,
    /// 1 to receive marketing messages, 0 to stop.
    #[serde(default)]
    #[schemars(extend("x-required" = true), extend("enum" = ["0", "1"]))]
    pub subscription: String,
}

impl Input for SubscriptionInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.contact.trim().is_empty() {
            errors.add("contact", FieldCode::Required);
        }
        if !matches!(self.subscription.as_str(), "0" | "1") {
            errors.add(
                "subscription",
                if self.subscription.is_empty() { FieldCode::Required } else { FieldCode::Invalid },
            );
        }
    }
}

async fn change_subscription(ctx: Ctx, user: AuthUser, input: SubscriptionInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let as_contact =
        ContactInput { contact: input.contact.clone(), phone_country_code: input.phone_country_code.clone() };
    let contact = owned_contact(&ctx, user_id, &as_contact).await?;
    if input.subscription == "1" {
        // Marketing stays off until a time-out or self-exclusion ends.
        crate::features::protection::refuse_if_excluded(&ctx.state, user_id).await?;
    }
    set_subscribed(&ctx.state, contact.id, input.subscription == "1").await?;
    Ok(One)
}

async fn set_subscribed(state: &AppState, contact_id: i64, subscribed: bool) -> Result<(), ApiError> {
    let owner: Option<i64> =
        sqlx::query_scalar("UPDATE contacts SET is_subscribed = $1 WHERE id = $2 RETURNING user_id")
            .bind(i64::from(subscribed))
            .bind(contact_id)
            .fetch_optional(state.db().pool())
            .await?;
    if let Some(user_id) = owner {
        state.player_changed(user_id).await;
    }
    Ok(())
}

/// The token of the unsubscribe link every marketing message carries: `{contact id}.{signature}`.
pub fn unsubscribe_token(state: &AppState, contact_id: i64) -> String {
    let id = contact_id.to_string();
    format!("{id}.{}", state.keys().sign("unsubscribe", &[&id]))
}

/// The link itself, on the site's unsubscribe page.
pub fn unsubscribe_link(state: &AppState, contact_id: i64) -> String {
    format!("{}/unsubscribe?token={}", state.config().public_url, unsubscribe_token(state, contact_id))
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct UnsubscribeInput {
    /// From the link in a marketing message; no sign-in needed. `token` or `contact` is required.
    #[serde(default)]
    pub token: String,
    /// For a signed-in player instead of a token.
    #[serde(default)]
    pub contact: String,
    #[serde(default)]
    pub phone_country_code: String,
}

impl Input for UnsubscribeInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.token.trim().is_empty() && self.contact.trim().is_empty() {
            errors.add("token", FieldCode::Required);
        }
    }
}

async fn unsubscribe(ctx: Ctx, user: MaybeUser, input: UnsubscribeInput) -> Result<One, ApiError> {
    let token = input.token.trim();
    let contact_id = if token.is_empty() {
        let user_id = user.id().ok_or_else(|| ApiError::new(ErrorType::AuthorizationException))?;
        let as_contact =
            ContactInput { contact: input.contact.clone(), phone_country_code: input.phone_country_code.clone() };
        owned_contact(&ctx, user_id, &as_contact).await?.id
    } else {
        let (id, signature) = token.split_once('.').ok_or_else(|| field_error("token", FieldCode::Invalid))?;
        if !ctx.state.keys().verify("unsubscribe", &[id], signature) {
            return Err(field_error("token", FieldCode::Invalid));
        }
        id.parse::<i64>().map_err(|_| field_error("token", FieldCode::Invalid))?
    };
    set_subscribed(&ctx.state, contact_id, false).await?;
    Ok(One)
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PhoneCountry {
    /// ISO 3166-1 alpha-2.
    pub country: &'static str,
    /// Calling code, digits only.
    pub code: &'static str,
    /// Input mask of the national number (SPEC §5 tokens: # digit).
    pub mask: &'static str,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PhoneSettings {
    pub default_country: &'static str,
    pub countries: Vec<PhoneCountry>,
}

const COUNTRIES: [(&str, &str, &str); 12] = [
    ("FR", "33", "# ## ## ## ##"),
    ("GB", "44", "#### ######"),
    ("US", "1", "(###) ###-####"),
    ("CA", "1", "(###) ###-####"),
    ("DE", "49", "#### #######"),
    ("ES", "34", "### ### ###"),
    ("IT", "39", "### ### ####"),
    ("BE", "32", "### ## ## ##"),
    ("CH", "41", "## ### ## ##"),
    ("BR", "55", "(##) #####-####"),
    ("PT", "351", "### ### ###"),
    ("IE", "353", "## ### ####"),
];

async fn phone_settings(ctx: Ctx, _: NoInput) -> Result<PhoneSettings, ApiError> {
    let default_country = if ctx.locale == croupier_shared::Locale::Fr { "FR" } else { "GB" };
    Ok(PhoneSettings {
        default_country,
        countries: COUNTRIES.iter().map(|(country, code, mask)| PhoneCountry { country, code, mask }).collect(),
    })
}
