//! The sandbox verification provider: a working stand-in for Sumsub.
//!
//! An access token names a page at `/sandbox/kyc/{token}` (valid 20 minutes) where the player
//! uploads a document image (PNG, JPEG or WebP, up to 5 MB; only its name, type and size are
//! kept) and chooses what the reviewer decides: approve, reject with a retry, or reject for good,
//! with a comment for the player. The sandbox then sends Sumsub's webhooks — `applicantPending`,
//! then `applicantReviewed` — signed with `HMAC_SHA256_HEX`, to the server's own listening
//! address, the same HTTP path a real provider's webhook takes, and sends the browser back to
//! `/profile/verification`.

use super::{
    AccessToken, DIGEST_ALG_HEADER, DIGEST_HEADER, DigestAlg, KycError, KycProvider, ReviewEvent, ReviewResult,
};
use crate::db::{Db, now_ms};
use crate::http::{cookie_locale, escape_html};
use crate::keys::Keys;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use futures::FutureExt;
use futures::future::BoxFuture;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

pub const NAME: &str = "sandbox";
const TOKEN_TTL_MS: i64 = 20 * 60 * 1000;
/// The largest document image the page accepts.
pub const MAX_DOCUMENT_BYTES: usize = 5 * 1024 * 1024;

pub struct Sandbox {
    db: Db,
    secret: Vec<u8>,
    public_url: String,
    local_addr: Arc<OnceLock<SocketAddr>>,
}

impl Sandbox {
    pub fn new(db: Db, keys: &Keys, public_url: &str, local_addr: Arc<OnceLock<SocketAddr>>) -> Sandbox {
        let secret = keys.sign("sandbox-kyc-webhook", &[]).into_bytes();
        Sandbox { db, secret, public_url: public_url.to_owned(), local_addr }
    }

    /// Signs and sends one webhook to the server's own listening address.
    pub async fn deliver(&self, event: &ReviewEvent) -> anyhow::Result<()> {
        let addr = self.local_addr.get().ok_or_else(|| anyhow::anyhow!("the server's address is not known yet"))?;
        let host = if addr.ip().is_unspecified() { "127.0.0.1".to_owned() } else { addr.ip().to_string() };
        let body = serde_json::to_vec(event)?;
        let response = reqwest::Client::new()
            .post(format!("http://{host}:{}/webhooks/kyc/{NAME}", addr.port()))
            .header(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .header(DIGEST_ALG_HEADER, DigestAlg::Sha256.name())
            .header(DIGEST_HEADER, super::digest(DigestAlg::Sha256, &self.secret, &body))
            .body(body)
            .send()
            .await?;
        anyhow::ensure!(response.status().is_success(), "webhook answered {}", response.status());
        Ok(())
    }
}

impl KycProvider for Sandbox {
    fn name(&self) -> &'static str {
        NAME
    }

    fn create_applicant<'a>(
        &'a self,
        external_user_id: &'a str,
        _level: &'a str,
    ) -> BoxFuture<'a, Result<String, KycError>> {
        async move { Ok(format!("sandbox-{external_user_id}")) }.boxed()
    }

    fn access_token<'a>(
        &'a self,
        external_user_id: &'a str,
        level: &'a str,
        _external_action_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<AccessToken, KycError>> {
        async move {
            let token = hex::encode(rand::random::<[u8; 24]>());
            let now = now_ms();
            sqlx::query(
                "INSERT INTO kyc_sandbox (token, external_user_id, level_name, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&token)
            .bind(external_user_id)
            .bind(level)
            .bind(now)
            .bind(now + TOKEN_TTL_MS)
            .execute(self.db.pool())
            .await
            .map_err(|e| KycError::Unavailable(e.to_string()))?;
            let url = format!("{}/sandbox/kyc/{token}", self.public_url);
            Ok(AccessToken { token, user_id: external_user_id.to_owned(), url: Some(url) })
        }
        .boxed()
    }

    fn webhook_secret(&self) -> &[u8] {
        &self.secret
    }
}

/// The sandbox page's routes; they answer 404 when the sandbox does not run.
pub fn routes() -> axum::Router<AppState> {
    axum::Router::new()
        .route("/sandbox/kyc/{token}", axum::routing::get(page).post(submit))
        .layer(DefaultBodyLimit::max(MAX_DOCUMENT_BYTES + 64 * 1024))
}

#[derive(sqlx::FromRow)]
struct Row {
    external_user_id: String,
    level_name: String,
    decision: Option<String>,
    expires_at: i64,
}

async fn load(state: &AppState, token: &str) -> Option<Row> {
    sqlx::query_as("SELECT external_user_id, level_name, decision, expires_at FROM kyc_sandbox WHERE token = $1")
        .bind(token)
        .fetch_optional(state.db().pool())
        .await
        .ok()
        .flatten()
}

fn html(body: &str) -> Response {
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Sandbox identity verification</title><style>body{{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}}\
         label{{display:block;margin:.8rem 0 .3rem}}input,select,textarea{{width:100%;box-sizing:border-box;font-size:1rem}}\
         button{{display:block;width:100%;margin:1rem 0;padding:.8rem;font-size:1rem;cursor:pointer}}.error{{color:#b00020}}</style></head>\
         <body><h1>Sandbox identity verification</h1>{body}</body></html>"
    ))
    .into_response()
}

fn form(error: Option<&str>) -> String {
    let error = error.map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", escape_html(e))).unwrap_or_default();
    format!(
        "<p>Upload a photo of an identity document, then choose what the reviewer decides.</p>{error}\
         <form method=\"post\" enctype=\"multipart/form-data\">\
         <label for=\"document\">Document image (PNG, JPEG or WebP, up to 5 MB)</label>\
         <input id=\"document\" name=\"document\" type=\"file\" accept=\"image/png,image/jpeg,image/webp\" required>\
         <label for=\"decision\">Reviewer's decision</label>\
         <select id=\"decision\" name=\"decision\"><option value=\"approve\">Approve (GREEN)</option>\
         <option value=\"retry\">Reject, may resubmit (RED / RETRY)</option><option value=\"final\">Reject for good (RED / FINAL)</option></select>\
         <label for=\"comment\">Comment for the player (with a rejection)</label>\
         <textarea id=\"comment\" name=\"comment\" maxlength=\"300\">The document photo is blurred.</textarea>\
         <button type=\"submit\">Send the review</button></form>"
    )
}

/// `GET /sandbox/kyc/{token}`.
pub async fn page(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    if state.kyc().sandbox().is_none() {
        return StatusCode::NOT_FOUND.into_response();
    }
    match load(&state, &token).await {
        Some(row) if row.expires_at < now_ms() => {
            (StatusCode::GONE, html("<p>This verification link has expired.</p>")).into_response()
        }
        Some(row) if row.decision.is_some() => html("<p>This verification was sent for review.</p>"),
        Some(_) => html(&form(None)),
        None => (StatusCode::NOT_FOUND, "unknown verification").into_response(),
    }
}

/// The type of an image by its first bytes.
fn image_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]) {
        Some("image/png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else if bytes.len() > 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

struct Submission {
    document_name: String,
    document: Bytes,
    decision: String,
    comment: String,
}

async fn read_form(headers: &HeaderMap, body: Bytes) -> Option<Submission> {
    let content_type = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    let boundary = multer::parse_boundary(content_type).ok()?;
    let stream = futures::stream::once(async move { Ok::<Bytes, std::convert::Infallible>(body) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    let mut out = Submission {
        document_name: String::new(),
        document: Bytes::new(),
        decision: String::new(),
        comment: String::new(),
    };
    while let Ok(Some(field)) = multipart.next_field().await {
        match field.name().unwrap_or("") {
            "document" => {
                out.document_name = field.file_name().unwrap_or("document").chars().take(120).collect();
                out.document = field.bytes().await.ok()?;
            }
            "decision" => out.decision = field.text().await.ok()?,
            "comment" => out.comment = field.text().await.ok()?.chars().take(300).collect(),
            _ => {}
        }
    }
    Some(out)
}

/// `POST /sandbox/kyc/{token}`: checks the upload, sends the webhooks, returns the browser.
pub async fn submit(
    State(state): State<AppState>,
    Path(token): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(sandbox) = state.kyc().sandbox() else { return StatusCode::NOT_FOUND.into_response() };
    let Some(row) = load(&state, &token).await else {
        return (StatusCode::NOT_FOUND, "unknown verification").into_response();
    };
    if row.expires_at < now_ms() {
        return (StatusCode::GONE, html("<p>This verification link has expired.</p>")).into_response();
    }
    let Some(form_data) = read_form(&headers, body).await else {
        return (StatusCode::BAD_REQUEST, html(&form(Some("The form could not be read. Try again.")))).into_response();
    };
    let Some(kind) = image_type(&form_data.document) else {
        return (
            StatusCode::UNPROCESSABLE_ENTITY,
            html(&form(Some("Choose a PNG, JPEG or WebP image of the document."))),
        )
            .into_response();
    };
    let (answer, reject_type) = match form_data.decision.as_str() {
        "approve" => ("GREEN", None),
        "retry" => ("RED", Some("RETRY")),
        "final" => ("RED", Some("FINAL")),
        _ => return (StatusCode::UNPROCESSABLE_ENTITY, html(&form(Some("Choose a decision.")))).into_response(),
    };
    // One review per link: a second submission (a double click) finds the decision taken.
    let taken = sqlx::query(
        "UPDATE kyc_sandbox SET decision = $1, document_name = $2, document_type = $3, document_size = $4 \
         WHERE token = $5 AND decision IS NULL",
    )
    .bind(&form_data.decision)
    .bind(&form_data.document_name)
    .bind(kind)
    .bind(i64::try_from(form_data.document.len()).unwrap_or(i64::MAX))
    .bind(&token)
    .execute(state.db().pool())
    .await;
    let prefix = match cookie_locale(&headers) {
        Some(locale) if locale != croupier_shared::Locale::default() => format!("/{}", locale.code()),
        _ => String::new(),
    };
    match taken {
        Ok(done) if done.rows_affected() == 1 => {}
        Ok(_) => return Redirect::to(&format!("{prefix}/profile/verification")).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "sandbox kyc: cannot record the decision");
            return (StatusCode::INTERNAL_SERVER_ERROR, "sandbox error").into_response();
        }
    }
    let now = now_ms();
    let applicant_id = format!("sandbox-{}", row.external_user_id);
    let event = |kind: &str, at: i64, result: Option<ReviewResult>| ReviewEvent {
        kind: kind.to_owned(),
        applicant_id: applicant_id.clone(),
        external_user_id: row.external_user_id.clone(),
        level_name: Some(row.level_name.clone()),
        review_status: Some(if result.is_some() { "completed" } else { "pending" }.to_owned()),
        review_result: result,
        created_at_ms: super::format_timestamp(at),
    };
    let comment = form_data.comment.trim();
    let result = ReviewResult {
        review_answer: answer.to_owned(),
        reject_labels: if answer == "RED" { vec!["BAD_PROOF_OF_IDENTITY".to_owned()] } else { Vec::new() },
        review_reject_type: reject_type.map(str::to_owned),
        moderation_comment: (answer == "RED" && !comment.is_empty()).then(|| comment.to_owned()),
        client_comment: (answer == "RED").then(|| format!("sandbox reviewer: {}", form_data.decision)),
    };
    for event in [event("applicantPending", now - 1, None), event("applicantReviewed", now, Some(result))] {
        if let Err(e) = sandbox.deliver(&event).await {
            tracing::warn!(error = %e, "sandbox kyc: webhook not delivered");
        }
    }
    Redirect::to(&format!("{prefix}/profile/verification")).into_response()
}
