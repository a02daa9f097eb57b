//! Social sign-in (SPEC §1, §7: a 640×480 popup at `/oauth/init`): the OAuth 2 authorization-code
//! flow with PKCE (S256) against OpenID Connect providers from `CROUPIER_OAUTH_PROVIDERS`.
//!
//! `GET /oauth/init?service=&redirect_url=&type_auth=` keeps the flow's state, PKCE verifier and
//! nonce in the coordination store for 10 minutes (any replica can finish the flow) and sends the
//! browser to the provider. `GET /oauth/callback/{provider}` exchanges the code (with the
//! verifier) at the token endpoint and reads the ID token's claims. The token arrives straight
//! from the token endpoint over TLS, so — as OpenID Connect Core §3.1.3.7 allows — its issuer is
//! trusted through TLS instead of a signature; `iss`, `aud`, `exp` and `nonce` are checked.
//!
//! Then: a known identity signs its account in; a signed-in player links the identity; otherwise
//! a new account is made with `is_registration_completed` false (currency and terms come next,
//! through `account.setCurrency`). A verified e-mail that no account uses becomes the new
//! account's confirmed login; one that another account uses is not linked silently (that would
//! let a provider account take over ours) — the player signs in and links instead.
//! The callback answers a page that tells the opener window and closes the popup.

use crate::AppState;
use crate::config::OAuthProvider;
use crate::db::now_ms;
use crate::features::account::rules;
use crate::session;
use axum::extract::{ConnectInfo, FromRef, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use croupier_platform::http::escape_html;
use croupier_shared::Locale;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::OnceCell;

const FLOW_TTL: Duration = Duration::from_secs(600);

/// The configured providers and their discovered endpoints.
pub struct OAuth {
    providers: Vec<(OAuthProvider, OnceCell<Discovery>)>,
    http: reqwest::Client,
}

#[derive(Debug, Clone, Deserialize)]
struct Discovery {
    issuer: String,
    authorization_endpoint: String,
    token_endpoint: String,
}

impl OAuth {
    pub fn new(providers: &[OAuthProvider]) -> anyhow::Result<OAuth> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build()?;
        Ok(OAuth { providers: providers.iter().map(|p| (p.clone(), OnceCell::new())).collect(), http })
    }

    async fn provider(&self, name: &str) -> Result<(&OAuthProvider, &Discovery), Failure> {
        let (provider, cell) = self.providers.iter().find(|(p, _)| p.name == name).ok_or(Failure::UnknownProvider)?;
        let discovery = cell
            .get_or_try_init(|| async {
                let url = format!("{}/.well-known/openid-configuration", provider.issuer);
                let response = self.http.get(&url).send().await?.error_for_status()?;
                response.json::<Discovery>().await
            })
            .await
            .map_err(|e| {
                tracing::warn!(provider = name, error = %e, "OpenID discovery failed");
                Failure::Provider
            })?;
        Ok((provider, discovery))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    UnknownProvider,
    Provider,
    Expired,
    Denied,
    Banned,
    AlreadyLinked,
}

impl Failure {
    fn code(self) -> &'static str {
        match self {
            Failure::UnknownProvider => "unknown_provider",
            Failure::Provider => "provider_error",
            Failure::Expired => "expired",
            Failure::Denied => "denied",
            Failure::Banned => "banned",
            Failure::AlreadyLinked => "already_linked",
        }
    }

    fn message(self, locale: Locale) -> &'static str {
        match (self, locale) {
            (Failure::UnknownProvider, Locale::En) => "This sign-in service is not available.",
            (Failure::UnknownProvider, Locale::Fr) => "Ce service de connexion n'est pas disponible.",
            (Failure::Provider, Locale::En) => "The sign-in service did not answer. Please try again.",
            (Failure::Provider, Locale::Fr) => "Le service de connexion n'a pas répondu. Veuillez réessayer.",
            (Failure::Expired, Locale::En) => "This sign-in attempt has expired. Please start again.",
            (Failure::Expired, Locale::Fr) => "Cette tentative de connexion a expiré. Recommencez.",
            (Failure::Denied, Locale::En) => "Sign-in was cancelled.",
            (Failure::Denied, Locale::Fr) => "La connexion a été annulée.",
            (Failure::Banned, Locale::En) => "This account has been blocked.",
            (Failure::Banned, Locale::Fr) => "Ce compte a été bloqué.",
            (Failure::AlreadyLinked, Locale::En) => "This account is already linked to another player.",
            (Failure::AlreadyLinked, Locale::Fr) => "Ce compte est déjà lié à un autre joueur.",
        }
    }
}

#[derive(Deserialize)]
pub struct InitQuery {
    service: String,
    redirect_url: Option<String>,
    type_auth: Option<String>,
    locale: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Flow {
    provider: String,
    verifier: String,
    nonce: String,
    redirect_url: String,
    locale: Locale,
}

fn random_token(bytes: usize) -> String {
    let data: Vec<u8> = (0..bytes).map(|_| rand::random::<u8>()).collect();
    URL_SAFE_NO_PAD.encode(data)
}

/// Only paths of this site: `/x` but never `//host` or `https://…` (an open redirect).
fn safe_redirect(url: Option<&str>) -> String {
    match url {
        Some(u) if u.starts_with('/') && !u.starts_with("//") && !u.contains('\\') => u.to_owned(),
        _ => "/".to_owned(),
    }
}

fn callback_url(state: &AppState, provider: &str) -> String {
    format!("{}/oauth/callback/{provider}", state.config().public_url)
}

/// `/oauth/init` and `/oauth/callback/{provider}`, over any state that gives the platform and
/// the OAuth client.
pub fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    AppState: FromRef<S>,
    Arc<OAuth>: FromRef<S>,
{
    axum::Router::new()
        .route("/oauth/init", axum::routing::get(init))
        .route("/oauth/callback/{provider}", axum::routing::get(callback))
}

/// `GET /oauth/init`: starts the flow and sends the browser to the provider.
pub async fn init(
    State(state): State<AppState>,
    State(oauth): State<Arc<OAuth>>,
    Query(query): Query<InitQuery>,
) -> Response {
    let locale = Locale::parse_or_default(query.locale.as_deref());
    let (provider, discovery) = match oauth.provider(&query.service).await {
        Ok(found) => found,
        Err(failure) => return finish_page(&state, locale, Err(failure), "/"),
    };
    let flow = Flow {
        provider: provider.name.clone(),
        verifier: random_token(32),
        nonce: random_token(16),
        redirect_url: safe_redirect(query.redirect_url.as_deref()),
        locale,
    };
    let state_token = random_token(24);
    let stored = serde_json::to_string(&flow).unwrap_or_default();
    if let Err(e) = state.coord().cache_set(&format!("oauth:{state_token}"), &stored, FLOW_TTL).await {
        tracing::error!(error = %e, "cannot keep the OAuth flow");
        return finish_page(&state, locale, Err(Failure::Provider), "/");
    }
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(flow.verifier.as_bytes()));
    let mut url = match reqwest::Url::parse(&discovery.authorization_endpoint) {
        Ok(url) => url,
        Err(_) => return finish_page(&state, locale, Err(Failure::Provider), "/"),
    };
    url.query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &provider.client_id)
        .append_pair("redirect_uri", &callback_url(&state, &provider.name))
        .append_pair("scope", "openid email profile")
        .append_pair("state", &state_token)
        .append_pair("nonce", &flow.nonce)
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S256");
    if query.type_auth.as_deref() == Some("registration") {
        url.query_pairs_mut().append_pair("prompt", "select_account");
    }
    Redirect::to(url.as_str()).into_response()
}

#[derive(Deserialize)]
pub struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

#[derive(Deserialize)]
struct TokenResponse {
    id_token: String,
}

#[derive(Deserialize)]
struct Claims {
    iss: String,
    sub: String,
    aud: Value,
    exp: i64,
    nonce: Option<String>,
    email: Option<String>,
    email_verified: Option<bool>,
}

/// `GET /oauth/callback/{provider}`: finishes the flow and closes the popup.
pub async fn callback(
    State(state): State<AppState>,
    State(oauth): State<Arc<OAuth>>,
    Path(provider_name): Path<String>,
    Query(query): Query<CallbackQuery>,
    request: axum::extract::Request,
) -> Response {
    let ip = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip().to_string());
    let headers = request.headers().clone();
    let key = format!("oauth:{}", query.state.as_deref().unwrap_or(""));
    let flow: Option<Flow> = match state.coord().cache_get(&key).await {
        Ok(stored) => stored.and_then(|s| serde_json::from_str(&s).ok()),
        Err(e) => {
            tracing::error!(error = %e, "cannot read the OAuth flow");
            None
        }
    };
    // A flow is used once, whatever happens next.
    let _ = state.coord().cache_delete(&key).await;
    let Some(flow) = flow.filter(|f| f.provider == provider_name) else {
        return finish_page(&state, Locale::En, Err(Failure::Expired), "/");
    };
    let locale = flow.locale;
    if query.error.is_some() {
        return finish_page(&state, locale, Err(Failure::Denied), &flow.redirect_url);
    }
    let Some(code) = query.code.as_deref() else {
        return finish_page(&state, locale, Err(Failure::Denied), &flow.redirect_url);
    };
    let claims = match exchange(&state, &oauth, &flow, code).await {
        Ok(claims) => claims,
        Err(failure) => return finish_page(&state, locale, Err(failure), &flow.redirect_url),
    };
    match sign_in(&state, &headers, &flow, &claims, ip).await {
        Ok(outcome) => {
            let mut response = finish_page(&state, locale, Ok(outcome.completed), &flow.redirect_url);
            if let Some(cookie) = outcome.cookie
                && let Ok(value) = HeaderValue::from_str(&cookie)
            {
                response.headers_mut().append(header::SET_COOKIE, value);
            }
            response
        }
        Err(SignInError::Failure(failure)) => finish_page(&state, locale, Err(failure), &flow.redirect_url),
        Err(SignInError::Internal(e)) => {
            tracing::error!(error = ?e, "social sign-in failed");
            finish_page(&state, locale, Err(Failure::Provider), &flow.redirect_url)
        }
    }
}

async fn exchange(state: &AppState, oauth: &OAuth, flow: &Flow, code: &str) -> Result<Claims, Failure> {
    let (provider, discovery) = oauth.provider(&flow.provider).await?;
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", &callback_url(state, &provider.name)),
        ("client_id", &provider.client_id),
        ("client_secret", provider.client_secret.expose()),
        ("code_verifier", &flow.verifier),
    ];
    let response = oauth.http.post(&discovery.token_endpoint).form(&form).send().await.map_err(|e| {
        tracing::warn!(error = %e, "token endpoint unreachable");
        Failure::Provider
    })?;
    if !response.status().is_success() {
        tracing::warn!(status = %response.status(), "token endpoint refused the code");
        return Err(Failure::Denied);
    }
    let tokens: TokenResponse = response.json().await.map_err(|_| Failure::Provider)?;
    let payload = tokens.id_token.split('.').nth(1).ok_or(Failure::Provider)?;
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).map_err(|_| Failure::Provider)?;
    let claims: Claims = serde_json::from_slice(&bytes).map_err(|_| Failure::Provider)?;
    let audience_ok = match &claims.aud {
        Value::String(aud) => *aud == provider.client_id,
        Value::Array(list) => list.iter().any(|a| a.as_str() == Some(provider.client_id.as_str())),
        _ => false,
    };
    let valid = claims.iss.trim_end_matches('/') == discovery.issuer.trim_end_matches('/')
        && audience_ok
        && claims.exp * 1000 > now_ms()
        && claims.nonce.as_deref() == Some(flow.nonce.as_str())
        && !claims.sub.is_empty();
    if valid {
        Ok(claims)
    } else {
        tracing::warn!(provider = %flow.provider, "ID token claims refused");
        Err(Failure::Denied)
    }
}

struct Outcome {
    completed: bool,
    cookie: Option<String>,
}

enum SignInError {
    Failure(Failure),
    Internal(anyhow::Error),
}

impl From<sqlx::Error> for SignInError {
    fn from(e: sqlx::Error) -> SignInError {
        SignInError::Internal(e.into())
    }
}

impl From<crate::api::ApiError> for SignInError {
    fn from(e: crate::api::ApiError) -> SignInError {
        SignInError::Internal(anyhow::anyhow!("{e:?}"))
    }
}

async fn sign_in(
    state: &AppState,
    headers: &HeaderMap,
    flow: &Flow,
    claims: &Claims,
    ip: Option<String>,
) -> Result<Outcome, SignInError> {
    let current = session::resolve(state, headers).await.ok().and_then(|r| r.session);
    let db = state.db();
    let known: Option<i64> =
        sqlx::query_scalar("SELECT user_id FROM social_identities WHERE provider = $1 AND subject = $2")
            .bind(&flow.provider)
            .bind(&claims.sub)
            .fetch_optional(db.pool())
            .await?;
    let now = now_ms();
    let mut tx = db.begin().await?;
    let user_id = match (known, &current) {
        (Some(owner), Some(me)) if owner != me.user_id => return Err(SignInError::Failure(Failure::AlreadyLinked)),
        (Some(owner), _) => owner,
        (None, Some(me)) => {
            link(&mut tx, flow, claims, me.user_id, now).await?;
            me.user_id
        }
        (None, None) => {
            let user_id: i64 = sqlx::query_scalar(
                "INSERT INTO users (locale, is_registration_completed, reg_time, updated_at) VALUES ($1, 0, $2, $2) RETURNING id",
            )
            .bind(flow.locale.code())
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            link(&mut tx, flow, claims, user_id, now).await?;
            let email = claims.email.as_deref().filter(|e| rules::email(e).is_ok()).map(rules::normalize_email);
            if let (Some(email), Some(true)) = (email, claims.email_verified) {
                let used: Option<i64> =
                    sqlx::query_scalar("SELECT id FROM contacts WHERE kind = 'email' AND contact = $1")
                        .bind(&email)
                        .fetch_optional(&mut *tx)
                        .await?;
                if used.is_none() {
                    sqlx::query(
                        "INSERT INTO contacts (user_id, kind, contact, is_login, is_confirmed, is_subscribed, created_at) \
                         VALUES ($1, 'email', $2, 1, 1, 1, $3)",
                    )
                    .bind(user_id)
                    .bind(&email)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            tracing::info!(user_id, provider = %flow.provider, "account registered through social sign-in");
            user_id
        }
    };
    let (status, completed): (String, i64) =
        sqlx::query_as("SELECT status, is_registration_completed FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
    if status != "active" {
        return Err(SignInError::Failure(Failure::Banned));
    }
    let cookie = if current.as_ref().is_some_and(|c| c.user_id == user_id) {
        None
    } else {
        let user_agent = headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok());
        Some(session::open(state.config(), &mut tx, user_id, ip, user_agent, current.as_ref()).await?)
    };
    tx.commit().await?;
    Ok(Outcome { completed: completed != 0, cookie })
}

async fn link(
    tx: &mut sqlx::AnyConnection,
    flow: &Flow,
    claims: &Claims,
    user_id: i64,
    now: i64,
) -> Result<(), SignInError> {
    sqlx::query(
        "INSERT INTO social_identities (provider, subject, user_id, email, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&flow.provider)
    .bind(&claims.sub)
    .bind(user_id)
    .bind(&claims.email)
    .bind(now)
    .execute(tx)
    .await?;
    Ok(())
}

/// The page the popup ends on: it tells the opener (same origin only) and closes itself; opened
/// without an opener it sends the browser on to `redirect_url`.
fn finish_page(state: &AppState, locale: Locale, result: Result<bool, Failure>, redirect_url: &str) -> Response {
    let nonce = random_token(16);
    let (status, message_json, text) = match result {
        Ok(completed) => (
            StatusCode::OK,
            serde_json::json!({ "type": "croupier:oauth", "status": "ok", "is_registration_completed": completed, "redirect_url": redirect_url }),
            if locale == Locale::Fr {
                "Connexion réussie. Cette fenêtre va se fermer."
            } else {
                "Signed in. This window will close."
            },
        ),
        Err(failure) => (
            if failure == Failure::UnknownProvider { StatusCode::NOT_FOUND } else { StatusCode::BAD_REQUEST },
            serde_json::json!({ "type": "croupier:oauth", "status": "error", "error": failure.code(), "redirect_url": redirect_url }),
            failure.message(locale),
        ),
    };
    // `</` cannot appear in JSON produced by serde_json from these values except inside strings;
    // escaping `<` keeps the script block unbreakable whatever the redirect URL holds.
    let message = message_json.to_string().replace('<', "\\u003c");
    let origin = serde_json::to_string(&state.config().public_url).unwrap_or_default().replace('<', "\\u003c");
    let lang = locale.code();
    let body = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{site}</title></head><body>\
         <p>{text}</p><script nonce=\"{nonce}\">(function(){{var m={message};\
         if(window.opener){{window.opener.postMessage(m,{origin});window.close();}}\
         else{{window.location.replace(m.redirect_url);}}}})();</script></body></html>",
        site = escape_html(&state.config().site_name),
        text = escape_html(text),
    );
    let mut response = (status, Html(body)).into_response();
    let csp = format!("default-src 'none'; script-src 'nonce-{nonce}'; base-uri 'none'; frame-ancestors 'none'");
    if let Ok(value) = HeaderValue::from_str(&csp) {
        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, value);
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::safe_redirect;

    #[test]
    fn only_paths_of_this_site_are_redirect_targets() {
        assert_eq!(safe_redirect(Some("/cashier/deposit?x=1")), "/cashier/deposit?x=1");
        for bad in ["//evil.example", "https://evil.example", "javascript:alert(1)", "/\\evil.example", ""] {
            assert_eq!(safe_redirect(Some(bad)), "/", "{bad}");
        }
        assert_eq!(safe_redirect(None), "/");
    }
}
