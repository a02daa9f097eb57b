//! The sandbox payment provider: a working stand-in for a card and bank-transfer processor.
//!
//! A deposit gets a page at `/sandbox/pay/{id}` that offers success, fail, pending and cancel.
//! Choosing one is a `POST outcome=<one>` to that page; the sandbox then records it, sends its
//! signed webhook to the server's own listening address — the same HTTP path a real provider's
//! webhook takes — and sends the browser to `/cashier/pay{outcome}/{id}`. A pending payment can
//! be finished later from the same page; the server's poll of [`PaymentProvider::status`] also
//! picks the change up if a webhook is lost. Payouts succeed at once.

use super::{
    BankInfo, MethodInfo, Outcome, PaymentProvider, ProviderError, SIGNATURE_HEADER, TIMESTAMP_HEADER, WebhookEvent,
};
use crate::db::{Db, now_ms};
use crate::http::{cookie_locale, escape_html};
use crate::keys::Keys;
use crate::state::AppState;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use croupier_shared::Money;
use futures::FutureExt;
use futures::future::BoxFuture;
use serde::Deserialize;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

pub const NAME: &str = "sandbox";

const METHODS: &[MethodInfo] = &[
    MethodInfo {
        sysname: "sandbox_card",
        name_en: "Card (sandbox)",
        name_fr: "Carte (sandbox)",
        deposit: true,
        withdrawal: true,
        min_major: 10,
        max_major: 5_000,
        requisites: &[],
    },
    MethodInfo {
        sysname: "sandbox_bank",
        name_en: "Bank transfer (sandbox)",
        name_fr: "Virement bancaire (sandbox)",
        deposit: true,
        withdrawal: true,
        min_major: 20,
        max_major: 20_000,
        requisites: &["bank", "iban"],
    },
];

/// The sandbox adapter: its records live in the `sandbox_payments` table, its webhooks go to
/// the server's own listening address, signed with a key derived from the server's keys.
pub struct Sandbox {
    db: Db,
    secret: Vec<u8>,
    public_url: String,
    local_addr: Arc<OnceLock<SocketAddr>>,
    /// Its own data, configured (`CROUPIER_SANDBOX_BANKS`).
    banks: Vec<BankInfo>,
}

impl Sandbox {
    pub fn new(
        db: Db,
        keys: &Keys,
        public_url: &str,
        local_addr: Arc<OnceLock<SocketAddr>>,
        banks: Vec<BankInfo>,
    ) -> Sandbox {
        let secret = keys.sign("sandbox-payments-webhook", &[]).into_bytes();
        Sandbox { db, secret, public_url: public_url.to_owned(), local_addr, banks }
    }

    /// The sandbox's own record of a payment (a retried payout keeps its first record).
    async fn record(&self, id: &str, kind: &str, amount: Money, status: &str) -> Result<(), ProviderError> {
        sqlx::query(
            "INSERT INTO sandbox_payments (id, kind, amount, currency, status, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(kind)
        .bind(amount.minor())
        .bind(amount.currency().code())
        .bind(status)
        .bind(now_ms())
        .execute(self.db.pool())
        .await
        .map_err(|e| ProviderError::Unavailable(e.to_string()))?;
        Ok(())
    }

    async fn load(&self, id: &str) -> Option<SandboxRow> {
        sqlx::query_as("SELECT amount, currency, status FROM sandbox_payments WHERE id = $1 AND kind = 'deposit'")
            .bind(id)
            .fetch_optional(self.db.pool())
            .await
            .ok()
            .flatten()
    }

    /// Sends a signed webhook to the server's own listening address.
    pub async fn deliver(&self, event: &WebhookEvent) -> anyhow::Result<()> {
        let addr = self.local_addr.get().ok_or_else(|| anyhow::anyhow!("the server's address is not known yet"))?;
        let host = if addr.ip().is_unspecified() { "127.0.0.1".to_owned() } else { addr.ip().to_string() };
        let url = format!("http://{host}:{}/webhooks/payments/{NAME}", addr.port());
        let body = serde_json::to_vec(event)?;
        let timestamp = now_ms() / 1000;
        let signature = super::sign(&self.secret, timestamp, &body);
        let response = reqwest::Client::new()
            .post(url)
            .header(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .header(TIMESTAMP_HEADER, timestamp.to_string())
            .header(SIGNATURE_HEADER, signature)
            .body(body)
            .send()
            .await?;
        anyhow::ensure!(response.status().is_success(), "webhook answered {}", response.status());
        Ok(())
    }
}

impl PaymentProvider for Sandbox {
    fn name(&self) -> &'static str {
        NAME
    }

    fn methods(&self) -> &[MethodInfo] {
        METHODS
    }

    fn banks(&self) -> &[BankInfo] {
        &self.banks
    }

    fn webhook_secret(&self) -> Vec<u8> {
        self.secret.clone()
    }

    fn start_deposit<'a>(&'a self, payment_id: &'a str, amount: Money) -> BoxFuture<'a, Result<String, ProviderError>> {
        async move {
            self.record(payment_id, "deposit", amount, "created").await?;
            Ok(format!("{}/sandbox/pay/{payment_id}", self.public_url))
        }
        .boxed()
    }

    fn payout<'a>(&'a self, payment_id: &'a str, amount: Money) -> BoxFuture<'a, Result<Outcome, ProviderError>> {
        async move {
            self.record(payment_id, "payout", amount, "success").await?;
            Ok(Outcome::Success)
        }
        .boxed()
    }

    fn status<'a>(&'a self, payment_id: &'a str) -> BoxFuture<'a, Result<Option<Outcome>, ProviderError>> {
        async move {
            let status: Option<String> = sqlx::query_scalar("SELECT status FROM sandbox_payments WHERE id = $1")
                .bind(payment_id)
                .fetch_optional(self.db.pool())
                .await
                .map_err(|e| ProviderError::Unavailable(e.to_string()))?;
            Ok(status.as_deref().and_then(Outcome::parse))
        }
        .boxed()
    }
}

/// The sandbox page's routes (`/sandbox/pay/{id}`); they answer 404 when the sandbox does not run.
pub fn routes() -> axum::Router<AppState> {
    axum::Router::new().route("/sandbox/pay/{id}", axum::routing::get(page).post(choose))
}

#[derive(sqlx::FromRow)]
struct SandboxRow {
    amount: i64,
    currency: String,
    status: String,
}

/// `GET /sandbox/pay/{id}`: the sandbox's payment page.
pub async fn page(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let Some(sandbox) = state.payments().sandbox() else { return StatusCode::NOT_FOUND.into_response() };
    let Some(row) = sandbox.load(&id).await else {
        return (StatusCode::NOT_FOUND, "unknown sandbox payment").into_response();
    };
    let amount = croupier_shared::Currency::parse(&row.currency).map_or_else(
        || row.amount.to_string(),
        |c| croupier_shared::Money::from_minor(row.amount, c).to_decimal_string(),
    );
    let finished = matches!(row.status.as_str(), "success" | "fail" | "cancel");
    let buttons = if finished {
        format!("<p>This payment is finished: <b>{}</b>.</p>", escape_html(&row.status))
    } else {
        ["success", "fail", "pending", "cancel"]
            .iter()
            .map(|o| format!("<button type=\"submit\" name=\"outcome\" value=\"{o}\">{o}</button>"))
            .collect::<String>()
    };
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Sandbox payment</title><style>body{{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}}\
         button{{display:block;width:100%;margin:.5rem 0;padding:.8rem;font-size:1rem;cursor:pointer}}</style></head><body>\
         <h1>Sandbox payment</h1><p>Amount: <b id=\"amount\">{amount} {currency}</b></p>\
         <p>Status: <b id=\"status\">{status}</b></p><p>Choose what the payment provider answers.</p>\
         <form method=\"post\">{buttons}</form></body></html>",
        currency = escape_html(&row.currency),
        status = escape_html(&row.status),
    );
    Html(html).into_response()
}

#[derive(Deserialize)]
pub struct OutcomeForm {
    outcome: String,
}

/// `POST /sandbox/pay/{id}`: records the outcome, sends the webhook, returns the browser.
/// The browser lands on the result page in the player's language: the site keeps it in the
/// `i18n_locale` cookie, which the sandbox page (same origin) receives; French pages live under `/fr`.
pub async fn choose(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    Form(form): Form<OutcomeForm>,
) -> Response {
    let Some(sandbox) = state.payments().sandbox() else { return StatusCode::NOT_FOUND.into_response() };
    let prefix = match cookie_locale(&headers) {
        Some(locale) if locale != croupier_shared::Locale::default() => format!("/{}", locale.code()),
        _ => String::new(),
    };
    let Some(outcome) = Outcome::parse(&form.outcome) else {
        return (StatusCode::BAD_REQUEST, "unknown outcome").into_response();
    };
    let Some(row) = sandbox.load(&id).await else {
        return (StatusCode::NOT_FOUND, "unknown sandbox payment").into_response();
    };
    if matches!(row.status.as_str(), "success" | "fail" | "cancel") {
        return Redirect::to(&format!("{prefix}/cashier/pay{}/{id}", row.status)).into_response();
    }
    let updated = sqlx::query("UPDATE sandbox_payments SET status = $1, updated_at = $2 WHERE id = $3")
        .bind(outcome.name())
        .bind(now_ms())
        .bind(&id)
        .execute(state.db().pool())
        .await;
    if let Err(e) = updated {
        tracing::error!(error = %e, "sandbox: cannot record the outcome");
        return (StatusCode::INTERNAL_SERVER_ERROR, "sandbox error").into_response();
    }
    let event = WebhookEvent {
        event_id: uuid::Uuid::new_v4().to_string(),
        payment_id: id.clone(),
        status: outcome.name().to_owned(),
        amount: row.amount,
        currency: row.currency,
    };
    if let Err(e) = sandbox.deliver(&event).await {
        // Not fatal: the server's poll of pending deposits asks the sandbox for the status.
        tracing::warn!(error = %e, payment_id = %id, "sandbox: webhook not delivered");
    }
    Redirect::to(&format!("{prefix}/cashier/pay{}/{id}", outcome.name())).into_response()
}
