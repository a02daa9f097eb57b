//! Sending messages to players: e-mail over SMTP (lettre) when configured, SMS through the
//! sandbox provider, and — in `dev` only — a copy of everything in the dev mailbox, shown at
//! `/dev/mailbox` (DESIGN.md "Dev mailbox"), which tests read confirmation codes from.
//! The Telegram channel joins with the bot issue.

use crate::api::ApiError;
use crate::config::{Config, Env};
use crate::db::{Db, now_ms};
use crate::state::AppState;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::get;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Email,
    Sms,
}

impl Channel {
    pub fn name(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Sms => "sms",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Outgoing {
    pub channel: Channel,
    /// An e-mail address, or a phone number's digits (country code first).
    pub to: String,
    pub subject: String,
    pub body: String,
    /// The one-time code the message carries, when it carries one.
    pub code: Option<String>,
}

pub struct Messenger {
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: Option<Mailbox>,
    dev_mailbox: bool,
}

impl Messenger {
    pub fn new(config: &Config) -> anyhow::Result<Messenger> {
        let smtp = match &config.smtp_url {
            Some(url) => Some(AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())?.build()),
            None => None,
        };
        let from = config.mail_from.parse::<Mailbox>().ok();
        if smtp.is_some() && from.is_none() {
            anyhow::bail!("CROUPIER_MAIL_FROM: {:?} is not a mailbox like `Name <address>`", config.mail_from);
        }
        if smtp.is_none() && config.env == Env::Prod {
            tracing::warn!("CROUPIER_SMTP_URL is not set: e-mail cannot be delivered in prod");
        }
        Ok(Messenger { smtp, from, dev_mailbox: config.env == Env::Dev })
    }

    /// Delivers one message. In dev it is always kept in the dev mailbox too, so development and
    /// tests work without a mail server.
    pub async fn send(&self, db: &Db, message: Outgoing) -> Result<(), ApiError> {
        if self.dev_mailbox {
            sqlx::query(
                "INSERT INTO dev_mailbox (channel, recipient, subject, body, code, sent_at) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(message.channel.name())
            .bind(&message.to)
            .bind(&message.subject)
            .bind(&message.body)
            .bind(&message.code)
            .bind(now_ms())
            .execute(db.pool())
            .await?;
        }
        match (message.channel, &self.smtp, &self.from) {
            (Channel::Email, Some(smtp), Some(from)) => {
                let to: Mailbox = message.to.parse().map_err(ApiError::internal)?;
                let email = lettre::Message::builder()
                    .from(from.clone())
                    .to(to)
                    .subject(&message.subject)
                    .body(message.body.clone())
                    .map_err(ApiError::internal)?;
                smtp.send(email).await.map_err(ApiError::internal)?;
                Ok(())
            }
            // The sandbox SMS provider and an unconfigured mail server deliver to the dev mailbox
            // only; outside dev that is a delivery failure the caller must see.
            _ if self.dev_mailbox => Ok(()),
            _ => Err(ApiError::internal(anyhow::anyhow!("no {} provider is configured", message.channel.name()))),
        }
    }
}

pub fn routes(config: &Config) -> Router<AppState> {
    if config.env == Env::Dev { Router::new().route("/dev/mailbox", get(mailbox)) } else { Router::new() }
}

#[derive(Deserialize)]
struct MailboxQuery {
    to: Option<String>,
}

#[derive(Serialize, sqlx::FromRow)]
struct MailboxEntry {
    channel: String,
    to: String,
    subject: String,
    body: String,
    code: Option<String>,
    sent_at: i64,
}

/// `GET /dev/mailbox?to=…`: JSON newest first, or an HTML list when a browser asks.
async fn mailbox(State(state): State<AppState>, Query(query): Query<MailboxQuery>, headers: HeaderMap) -> Response {
    let rows = sqlx::query_as::<_, MailboxEntry>(
        "SELECT channel, recipient AS \"to\", subject, body, code, sent_at FROM dev_mailbox \
         WHERE ($1 = '' OR recipient = $1) ORDER BY id DESC LIMIT 200",
    )
    .bind(query.to.as_deref().map(str::trim).unwrap_or(""))
    .fetch_all(state.db().pool())
    .await;
    let rows = match rows {
        Ok(rows) => rows,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let wants_html = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("text/html"));
    if !wants_html {
        return Json(rows).into_response();
    }
    let esc = crate::web::escape_html;
    let items: String = rows
        .iter()
        .map(|m| {
            format!(
                "<li><b>{}</b> → {} <small>({})</small><br><i>{}</i><pre>{}</pre></li>",
                esc(&m.channel),
                esc(&m.to),
                m.sent_at,
                esc(&m.subject),
                esc(&m.body)
            )
        })
        .collect();
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Dev mailbox</title></head>\
         <body><h1>Dev mailbox</h1><p>Every message the server sent (dev mode only), newest first.</p><ol>{items}</ol></body></html>"
    ))
    .into_response()
}
