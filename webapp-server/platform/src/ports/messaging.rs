//! Sending messages to players, through two ports: [`MailSender`] (e-mail) and [`SmsSender`]
//! (SMS). Real adapters: SMTP over lettre (`CROUPIER_SMTP_URL`) and Twilio's Messages API over
//! HTTPS (`CROUPIER_SMS_TWILIO`). The sandbox adapter of both is the dev mailbox: in `dev` a copy
//! of every message is kept there and shown at `/dev/mailbox` (DESIGN.md "Dev mailbox"), which
//! tests read confirmation codes from; a channel with no real adapter delivers only there, which
//! outside dev is a delivery failure. The Telegram channel lives in the bot.

use crate::api::ApiError;
use crate::config::{Config, Env, TwilioSms};
use crate::db::{Db, now_ms};
use crate::http::escape_html;
use crate::state::AppState;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::get;
use futures::FutureExt;
use futures::future::BoxFuture;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use serde::{Deserialize, Serialize};
use std::time::Duration;

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

/// Why a message did not go out.
#[derive(Debug, thiserror::Error)]
pub enum MessagingError {
    #[error("no {0} provider is configured")]
    NoProvider(&'static str),
    #[error("the recipient {0:?} is not deliverable")]
    BadRecipient(String),
    #[error("the provider refused the message: {0}")]
    Refused(String),
    #[error("the provider is unreachable: {0}")]
    Unavailable(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A message that did not go out is the server's failure, never the caller's: a bare 500.
impl From<MessagingError> for ApiError {
    fn from(e: MessagingError) -> ApiError {
        ApiError::internal(e)
    }
}

/// The e-mail port.
pub trait MailSender: Send + Sync {
    fn send<'a>(&'a self, to: &'a str, subject: &'a str, body: &'a str) -> BoxFuture<'a, Result<(), MessagingError>>;
}

/// The SMS port; `to` is the number's digits, country code first.
pub trait SmsSender: Send + Sync {
    fn send<'a>(&'a self, to: &'a str, body: &'a str) -> BoxFuture<'a, Result<(), MessagingError>>;
}

/// E-mail over SMTP.
pub struct SmtpMail {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl MailSender for SmtpMail {
    fn send<'a>(&'a self, to: &'a str, subject: &'a str, body: &'a str) -> BoxFuture<'a, Result<(), MessagingError>> {
        async move {
            let to: Mailbox = to.parse().map_err(|_| MessagingError::BadRecipient(to.to_owned()))?;
            let email = lettre::Message::builder()
                .from(self.from.clone())
                .to(to)
                .subject(subject)
                .body(body.to_owned())
                .map_err(|e| MessagingError::Refused(e.to_string()))?;
            self.transport.send(email).await.map_err(|e| MessagingError::Unavailable(e.to_string()))?;
            Ok(())
        }
        .boxed()
    }
}

/// SMS through Twilio's Messages API: `POST {base}/2010-04-01/Accounts/{sid}/Messages.json`
/// with HTTP basic auth (account SID, auth token) and the form fields `To`, `From`, `Body`;
/// Twilio answers `201 Created` with the message resource, or an error object with `code` and
/// `message`.
pub struct TwilioSmsSender {
    http: reqwest::Client,
    url: String,
    account_sid: String,
    auth_token: String,
    from: String,
}

impl TwilioSmsSender {
    pub fn new(config: &TwilioSms, base_url: &str) -> anyhow::Result<TwilioSmsSender> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build()?;
        let url =
            format!("{}/2010-04-01/Accounts/{}/Messages.json", base_url.trim_end_matches('/'), config.account_sid);
        Ok(TwilioSmsSender {
            http,
            url,
            account_sid: config.account_sid.clone(),
            auth_token: config.auth_token.expose().to_owned(),
            from: config.from.clone(),
        })
    }
}

impl SmsSender for TwilioSmsSender {
    fn send<'a>(&'a self, to: &'a str, body: &'a str) -> BoxFuture<'a, Result<(), MessagingError>> {
        async move {
            if to.is_empty() || !to.bytes().all(|b| b.is_ascii_digit()) {
                return Err(MessagingError::BadRecipient(to.to_owned()));
            }
            let to = format!("+{to}");
            let response = self
                .http
                .post(&self.url)
                .basic_auth(&self.account_sid, Some(&self.auth_token))
                .form(&[("To", to.as_str()), ("From", self.from.as_str()), ("Body", body)])
                .send()
                .await
                .map_err(|e| MessagingError::Unavailable(e.without_url().to_string()))?;
            let status = response.status();
            if status.is_success() {
                return Ok(());
            }
            let detail: serde_json::Value = response.json().await.unwrap_or_default();
            let reason = format!(
                "HTTP {status}: {} {}",
                detail.get("code").map(ToString::to_string).unwrap_or_default(),
                detail.get("message").and_then(|m| m.as_str()).unwrap_or("")
            );
            if status.is_server_error() || status == reqwest::StatusCode::TOO_MANY_REQUESTS {
                Err(MessagingError::Unavailable(reason))
            } else {
                Err(MessagingError::Refused(reason))
            }
        }
        .boxed()
    }
}

/// Routes each message to its channel's adapter, keeping the dev mailbox's copy in dev.
pub struct Messenger {
    mail: Option<Box<dyn MailSender>>,
    sms: Option<Box<dyn SmsSender>>,
    dev_mailbox: bool,
}

impl Messenger {
    pub fn new(config: &Config) -> anyhow::Result<Messenger> {
        let from = config.mail_from.parse::<Mailbox>().ok();
        let mail: Option<Box<dyn MailSender>> = match (&config.smtp_url, from) {
            (Some(url), Some(from)) => {
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())?.build();
                Some(Box::new(SmtpMail { transport, from }))
            }
            (Some(_), None) => {
                anyhow::bail!("CROUPIER_MAIL_FROM: {:?} is not a mailbox like `Name <address>`", config.mail_from)
            }
            (None, _) => None,
        };
        if mail.is_none() && config.env == Env::Prod {
            tracing::warn!("CROUPIER_SMTP_URL is not set: e-mail cannot be delivered in prod");
        }
        let sms: Option<Box<dyn SmsSender>> = match &config.sms_twilio {
            Some(twilio) => Some(Box::new(TwilioSmsSender::new(twilio, &config.sms_api_url)?)),
            None => None,
        };
        if sms.is_none() && config.env == Env::Prod {
            tracing::warn!("CROUPIER_SMS_TWILIO is not set: SMS cannot be delivered in prod");
        }
        Ok(Messenger { mail, sms, dev_mailbox: config.env == Env::Dev })
    }

    /// Delivers one message. In dev it is always kept in the dev mailbox too, so development and
    /// tests work without a mail server or an SMS provider.
    pub async fn send(&self, db: &Db, message: Outgoing) -> Result<(), MessagingError> {
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
        match message.channel {
            Channel::Email => match &self.mail {
                Some(mail) => mail.send(&message.to, &message.subject, &message.body).await,
                None if self.dev_mailbox => Ok(()),
                None => Err(MessagingError::NoProvider("email")),
            },
            Channel::Sms => match &self.sms {
                Some(sms) => sms.send(&message.to, &message.body).await,
                None if self.dev_mailbox => Ok(()),
                None => Err(MessagingError::NoProvider("sms")),
            },
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
    let esc = escape_html;
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::config::Secret;
    use axum::extract::Path;
    use axum::http::StatusCode;
    use axum::routing::post;
    use base64::Engine as _;
    use std::sync::{Arc, Mutex};

    type Seen = Arc<Mutex<Vec<(String, String, Vec<(String, String)>)>>>;

    /// A stand-in for Twilio's Messages API on 127.0.0.1: it records each request (account in
    /// the path, the Authorization header, the form) and answers like Twilio — 201 for a number
    /// it accepts, 400 with Twilio's error object for `+15005550001` (invalid), 503 for
    /// `+15005550009` (an outage).
    async fn fake_twilio() -> (String, Seen) {
        let seen: Seen = Arc::default();
        let record = Arc::clone(&seen);
        let app = Router::new().route(
            "/2010-04-01/Accounts/{sid}/Messages.json",
            post(move |Path(sid): Path<String>, headers: HeaderMap, body: String| {
                let record = Arc::clone(&record);
                async move {
                    let auth = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
                    let form: Vec<(String, String)> = form_urlencoded::parse(body.as_bytes()).into_owned().collect();
                    let to = form.iter().find(|(k, _)| k == "To").map(|(_, v)| v.clone()).unwrap_or_default();
                    record.lock().unwrap().push((sid, auth, form));
                    match to.as_str() {
                        "+15005550001" => (
                            StatusCode::BAD_REQUEST,
                            Json(serde_json::json!({"code": 21211, "message": "The 'To' number is not a valid phone number."})),
                        ),
                        "+15005550009" => (StatusCode::SERVICE_UNAVAILABLE, Json(serde_json::json!({}))),
                        _ => (StatusCode::CREATED, Json(serde_json::json!({"sid": "SM123", "status": "queued"}))),
                    }
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        (format!("http://{addr}"), seen)
    }

    fn sender(base: &str) -> TwilioSmsSender {
        let config =
            TwilioSms { account_sid: "AC123".into(), auth_token: Secret::new("tok"), from: "+15550001111".into() };
        TwilioSmsSender::new(&config, base).unwrap()
    }

    #[tokio::test]
    async fn the_twilio_adapter_posts_the_message_form_with_basic_auth() {
        let (base, seen) = fake_twilio().await;
        sender(&base).send("447700900123", "Your code is 123456").await.unwrap();
        let seen = seen.lock().unwrap();
        let (sid, auth, form) = &seen[0];
        assert_eq!(sid, "AC123");
        let expected = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode("AC123:tok"));
        assert_eq!(auth, &expected);
        let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        assert_eq!(field("To"), Some("+447700900123"));
        assert_eq!(field("From"), Some("+15550001111"));
        assert_eq!(field("Body"), Some("Your code is 123456"));
    }

    #[tokio::test]
    async fn the_twilio_adapter_tells_a_refusal_from_an_outage_and_checks_the_number_first() {
        let (base, seen) = fake_twilio().await;
        let twilio = sender(&base);
        let refused = twilio.send("15005550001", "x").await.unwrap_err();
        assert!(matches!(&refused, MessagingError::Refused(r) if r.contains("21211")), "{refused:?}");
        let down = twilio.send("15005550009", "x").await.unwrap_err();
        assert!(matches!(down, MessagingError::Unavailable(_)), "{down:?}");
        for bad in ["", "+44770", "44 770"] {
            assert!(matches!(twilio.send(bad, "x").await, Err(MessagingError::BadRecipient(_))), "{bad:?}");
        }
        assert_eq!(seen.lock().unwrap().len(), 2, "a malformed number never reaches the provider");
        let unreachable = sender("http://127.0.0.1:9").send("15550002222", "x").await.unwrap_err();
        assert!(matches!(unreachable, MessagingError::Unavailable(_)), "{unreachable:?}");
    }
}
