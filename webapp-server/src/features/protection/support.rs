//! Support: `support.getsettings` (the contact options and the live chat the client loads),
//! `Support.sendFeedback` (stored, rate-limited, e-mailed to `CROUPIER_SUPPORT_EMAIL`, listed for
//! operators at `/admin/support/feedback`) and the chat event storage call
//! `support.storeChatEvent` (what the widget reports, for the operators' reports).
//!
//! **The live chat** is chosen by configuration (`CROUPIER_CHAT_PROVIDER`) among LiveChat,
//! Intercom, Zendesk, Crisp, Tawk.to and Freshchat, or the sandbox (a panel the client draws
//! itself, which stores the player's messages through the chat event call). The client loads the
//! provider's official script; the site's CSP allows that provider's origins only ([`csp_origins`]).
//! A signed-in player is identified to the provider, with the provider's identity-verification
//! proof computed here from `CROUPIER_CHAT_SECRET` where the provider has one:
//! Intercom `user_hash` = hex HMAC-SHA256(secret, user id); Crisp and Tawk.to = hex
//! HMAC-SHA256(secret, e-mail); Zendesk messaging = an HS256 JWT (`external_id`, `name`, `email`,
//! `scope: user`). LiveChat and Freshchat get the identity without a proof (Freshchat's proof is
//! an RS256 JWT needing a private key this deployment does not hold; documented, not faked).

use crate::api::{ApiError, Ctx, FieldErrors, Input, MaybeUser, NoInput, One, Registry};
use crate::config::{CHAT_PROVIDERS, Config};
use crate::db::now_ms;
use crate::features::account::{rules, store};
use crate::messaging::{Channel, Outgoing};
use croupier_platform::crypto;
use croupier_shared::FieldCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::time::Duration;

pub fn register(api: &mut Registry) {
    api.read(
        "support.getsettings",
        "Support's contact options and the live chat to load (with the player's identity).",
        settings,
    );
    api.write("Support.sendFeedback", "Sends a message to support (e-mail, name, message).", send_feedback);
    api.write(
        "support.storeChatEvent",
        "Stores what the chat widget reports (provider, event, data).",
        store_chat_event,
    );
}

/// The origins a chat provider's widget loads scripts from and talks to: (script-src, connect-src).
pub fn csp_origins(provider: &str) -> Option<(&'static str, &'static str)> {
    Some(match provider {
        "livechat" => ("https://cdn.livechatinc.com", "https://*.livechatinc.com wss://*.livechatinc.com"),
        "intercom" => (
            "https://widget.intercom.io https://js.intercomcdn.com",
            "https://*.intercom.io wss://*.intercom.io https://uploads.intercomcdn.com https://*.intercomcdn.com",
        ),
        "zendesk" => {
            ("https://static.zdassets.com", "https://*.zendesk.com wss://*.zendesk.com https://*.zdassets.com")
        }
        "crisp" => (
            "https://client.crisp.chat",
            "https://client.crisp.chat https://client.relay.crisp.chat wss://client.relay.crisp.chat",
        ),
        "tawkto" => ("https://embed.tawk.to https://*.tawk.to", "https://*.tawk.to wss://*.tawk.to"),
        "freshchat" => {
            ("https://wchat.freshchat.com https://*.freshchat.com", "https://*.freshchat.com wss://*.freshchat.com")
        }
        _ => return None,
    })
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ChatSettings {
    /// off, sandbox, livechat, intercom, zendesk, crisp, tawkto or freshchat.
    pub provider: String,
    /// The provider's account id (license, app id, key, website id, property/widget, token@host).
    pub id: Option<String>,
    /// The signed-in player as the widget should know them; `null` for a guest.
    pub identity: Option<ChatIdentity>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ChatIdentity {
    pub user_id: String,
    pub email: Option<String>,
    pub name: Option<String>,
    /// The provider's identity-verification proof (hash or JWT); `null` without a secret or for
    /// a provider that has none.
    pub signature: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct SupportSettings {
    pub chat: ChatSettings,
    /// Whether messages sent with `Support.sendFeedback` reach a support mailbox.
    pub feedback_by_email: bool,
    /// The Telegram bot players can write to, when there is one.
    pub telegram_bot: Option<String>,
}

fn hmac_hex(secret: &[u8], text: &str) -> String {
    crypto::hmac_sha256_hex(secret, text.as_bytes())
}

/// The provider's proof of `identity`, when it has one and a secret is configured.
pub fn signature(config: &Config, identity: &ChatIdentity) -> Option<String> {
    let secret = config.chat.secret.as_ref()?.expose().as_bytes();
    match config.chat.provider.as_str() {
        "intercom" => Some(hmac_hex(secret, &identity.user_id)),
        "crisp" | "tawkto" => identity.email.as_deref().map(|e| hmac_hex(secret, e)),
        "zendesk" => Some(crypto::jwt_hs256(
            &serde_json::json!({
                "external_id": identity.user_id,
                "name": identity.name,
                "email": identity.email,
                "scope": "user",
            }),
            |signed| crypto::hmac_sha256(secret, signed.as_bytes()).to_vec(),
        )),
        _ => None,
    }
}

async fn settings(ctx: Ctx, caller: MaybeUser, _: NoInput) -> Result<SupportSettings, ApiError> {
    let config = ctx.state.config();
    let identity = match caller.id() {
        Some(user_id) if config.chat.provider != "off" => {
            let user = store::load(ctx.state.db(), user_id).await?;
            let contacts = store::contacts(ctx.state.db(), user_id).await?;
            let email = contacts.iter().find(|c| c.kind == "email").map(|c| c.contact.clone());
            let mut identity =
                ChatIdentity { user_id: user_id.to_string(), email, name: user.fakename, signature: None };
            identity.signature = signature(config, &identity);
            Some(identity)
        }
        _ => None,
    };
    let provider = config.chat.provider.clone();
    let id = if CHAT_PROVIDERS.contains(&provider.as_str()) { config.chat.id.clone() } else { None };
    Ok(SupportSettings {
        chat: ChatSettings { provider, id, identity },
        feedback_by_email: config.support_email.is_some(),
        telegram_bot: config.telegram_bot_username.clone(),
    })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FeedbackInput {
    /// Where support answers (defaults to the signed-in player's e-mail). The pattern is wider
    /// than the rule (SPEC §5).
    #[serde(default)]
    #[schemars(pattern(rules::schema::EMAIL))]
    pub email: String,
    /// 1–100 characters once surrounding whitespace is removed (a bound on the trimmed text,
    /// which JSON Schema cannot state).
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(rules::schema::NOT_BLANK), example = &"Ann")]
    pub name: String,
    /// 10–2000 characters once surrounding whitespace is removed (the minimum holds for the raw
    /// text too).
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(min = MESSAGE_MIN), pattern(rules::schema::NOT_BLANK), example = &"My deposit has not arrived yet.")]
    pub message: String,
}

const MESSAGE_MIN: usize = 10;
const MESSAGE_MAX: usize = 2000;

impl Input for FeedbackInput {
    fn validate(&self, errors: &mut FieldErrors) {
        let email = self.email.trim();
        if !email.is_empty() && rules::email(email).is_err() {
            errors.add("email", FieldCode::Email);
        }
        let name = self.name.trim().chars().count();
        if name == 0 {
            errors.add("name", FieldCode::Required);
        } else if name > 100 {
            errors.add_with("name", FieldCode::MaxLength, vec![("max", "100".to_owned())]);
        }
        let message = self.message.trim().chars().count();
        if message == 0 {
            errors.add("message", FieldCode::Required);
        } else if message < MESSAGE_MIN {
            errors.add_with("message", FieldCode::MinLength, vec![("min", "10".to_owned())]);
        } else if message > MESSAGE_MAX {
            errors.add_with("message", FieldCode::MaxLength, vec![("max", "2000".to_owned())]);
        }
    }
}

async fn send_feedback(ctx: Ctx, caller: MaybeUser, input: FeedbackInput) -> Result<One, ApiError> {
    let who = caller.id().map_or_else(|| "guest".to_owned(), |id| id.to_string());
    ctx.limit_ip_and("support-feedback", &who, Duration::from_secs(3600), 10, 5).await?;
    let mut email = rules::normalize_email(input.email.trim());
    if email.is_empty()
        && let Some(user_id) = caller.id()
    {
        let contacts = store::contacts(ctx.state.db(), user_id).await?;
        email = contacts.iter().find(|c| c.kind == "email").map(|c| c.contact.clone()).unwrap_or_default();
    }
    if email.is_empty() {
        return Err(ApiError::field("email", FieldCode::Required));
    }
    let (name, message) = (input.name.trim().to_owned(), input.message.trim().to_owned());
    let pool = ctx.state.db().pool();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO support_feedback (user_id, email, name, message, locale, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(caller.id())
    .bind(&email)
    .bind(&name)
    .bind(&message)
    .bind(ctx.locale.code())
    .bind(now_ms())
    .fetch_one(pool)
    .await?;
    if let Some(to) = ctx.state.config().support_email.clone() {
        let outgoing = Outgoing {
            channel: Channel::Email,
            to,
            subject: format!("Support request #{id} from {name}"),
            body: format!("From: {name} <{email}>\nPlayer: {who}\nLanguage: {}\n\n{message}\n", ctx.locale.code()),
            code: None,
        };
        // Stored first: a mail failure loses nothing (operators list it), and is retried by nobody
        // but visible as `emailed_at` NULL.
        match ctx.state.messenger().send(ctx.state.db(), outgoing).await {
            Ok(()) => {
                sqlx::query("UPDATE support_feedback SET emailed_at = $1 WHERE id = $2")
                    .bind(now_ms())
                    .bind(id)
                    .execute(pool)
                    .await?;
            }
            Err(e) => tracing::warn!(error = %e, feedback = id, "support feedback not e-mailed"),
        }
    }
    Ok(One)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ChatEventInput {
    /// The provider that reported it (the configured one, or `sandbox`).
    #[serde(default)]
    #[schemars(extend("x-required" = true), example = &"sandbox")]
    pub provider: String,
    /// What happened: lower-case letters and `_`, up to 40 (`opened`, `message_sent`, …).
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(r"^[a-z_]{1,40}$"), example = &"opened")]
    pub event: String,
    /// A JSON object with the event's detail (up to 2000 characters).
    #[serde(default)]
    #[schemars(length(max = 2000), pattern(r"^\s*\{"), example = &"{}")]
    pub data: Option<String>,
}

impl Input for ChatEventInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.provider.is_empty() {
            errors.add("provider", FieldCode::Required);
        } else if !(self.provider == "sandbox" || CHAT_PROVIDERS.contains(&self.provider.as_str())) {
            errors.add("provider", FieldCode::Unsupported);
        }
        if self.event.is_empty() {
            errors.add("event", FieldCode::Required);
        } else if self.event.len() > 40 || !self.event.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
            errors.add("event", FieldCode::Invalid);
        }
        if let Some(data) = &self.data {
            if data.chars().count() > 2000 {
                errors.add_with("data", FieldCode::MaxLength, vec![("max", "2000".to_owned())]);
            } else if !data.is_empty() && !serde_json::from_str::<serde_json::Value>(data).is_ok_and(|v| v.is_object())
            {
                errors.add("data", FieldCode::Invalid);
            }
        }
    }
}

async fn store_chat_event(ctx: Ctx, caller: MaybeUser, input: ChatEventInput) -> Result<One, ApiError> {
    if input.provider != ctx.state.config().chat.provider {
        return Err(ApiError::field("provider", FieldCode::Unsupported));
    }
    let who = caller.id().map_or_else(|| "guest".to_owned(), |id| id.to_string());
    ctx.limit_ip_and("support-chat-event", &who, Duration::from_secs(60), 60, 30).await?;
    sqlx::query(
        "INSERT INTO support_chat_events (user_id, provider, event, data, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(caller.id())
    .bind(&input.provider)
    .bind(&input.event)
    .bind(input.data.filter(|d| !d.is_empty()))
    .bind(now_ms())
    .execute(ctx.state.db().pool())
    .await?;
    Ok(One)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_match_recorded_examples() {
        // printf 42 | openssl dgst -sha256 -hmac s
        assert_eq!(hmac_hex(b"s", "42"), "94568d5108ef7f10a4703672424461bc51540ee0fffa1b7dea9414dca202bbe0");
        for provider in CHAT_PROVIDERS {
            assert!(csp_origins(provider).is_some(), "{provider}");
        }
        assert!(csp_origins("sandbox").is_none());
    }
}
