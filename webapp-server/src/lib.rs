//! `croupier-server`: the HTTP server behind every call of the Croupier site.
//!
//! [`app`] builds the router from an [`AppState`]; [`serve`] runs it on a listener until a
//! shutdown future resolves. `main.rs` and the tests both go through these two functions.

pub mod api;
pub mod config;
pub mod coord;
pub mod db;
pub mod features;
pub mod jobs;
pub mod keys;
pub mod ledger;
pub mod messaging;
pub mod metrics;
pub mod ops;
pub mod payments;
pub mod state;
pub mod telemetry;
pub mod web;

pub use config::Config;
pub use state::AppState;

use axum::Router;
use axum::http::{HeaderName, HeaderValue, Request, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{any, get};
use croupier_shared::ErrorType;
use std::future::Future;
use std::net::SocketAddr;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

/// The site runs inside Telegram's web clients, which frame it, so framing is allowed for
/// Telegram's origins only (CSP `frame-ancestors`; `X-Frame-Options` cannot express that).
/// Scripts come from the site itself plus Telegram's own `telegram-web-app.js`.
const CSP: &str = "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self'; frame-src 'self' https:; \
frame-ancestors 'self' https://web.telegram.org https://*.telegram.org https://t.me; base-uri 'self'; \
form-action 'self'; object-src 'none'";

/// The CSP of a server-rendered page: [`CSP`] plus the page's nonce, which only the content's
/// custom code entries carry (`web::stamp_scripts`).
pub(crate) fn csp_with_nonce(nonce: &str) -> String {
    CSP.replacen(
        "script-src 'self' https://telegram.org",
        &format!("script-src 'self' https://telegram.org 'nonce-{nonce}'"),
        1,
    )
}

pub fn app(state: AppState) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    let router = Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/api/{method}", any(api::dispatch))
        .merge(ops::routes())
        .merge(messaging::routes(state.config()))
        .merge(features::routes())
        .merge(web::routes(&state));
    #[cfg(feature = "bench")]
    let router = router.route("/bench/ceiling", get(bench_ceiling));
    let hsts = state.config().env == config::Env::Prod;
    router.with_state(state).layer(
        ServiceBuilder::new()
            .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
            .layer(TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                let id = request.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
                tracing::info_span!("http", method = %request.method(), path = %request.uri().path(), request_id = %id)
            }))
            .layer(PropagateRequestIdLayer::new(request_id))
            .layer(CatchPanicLayer::custom(|_| panic_response()))
            .layer(CompressionLayer::new())
            .layer(axum::middleware::map_response(move |response: Response| security_headers(response, hsts))),
    )
}

/// Security headers on every answer (a handler may set its own first).
async fn security_headers(mut response: Response, hsts: bool) -> Response {
    let headers = response.headers_mut();
    let mut set = |name: HeaderName, value: &'static str| {
        headers.entry(name).or_insert(HeaderValue::from_static(value));
    };
    set(header::CONTENT_SECURITY_POLICY, CSP);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "strict-origin-when-cross-origin");
    set(HeaderName::from_static("permissions-policy"), "camera=(), microphone=(), geolocation=()");
    // Social sign-in opens a popup that must talk back to its opener.
    set(HeaderName::from_static("cross-origin-opener-policy"), "same-origin-allow-popups");
    if hsts {
        set(header::STRICT_TRANSPORT_SECURITY, "max-age=31536000; includeSubDomains");
    }
    response
}

/// Whatever panicked, the client gets the ordinary 500 envelope and nothing internal.
fn panic_response() -> Response {
    tracing::error!("a request handler panicked");
    api::ApiError::new(ErrorType::InternalServerErrorException).into_response()
}

async fn openapi(axum::extract::State(state): axum::extract::State<AppState>) -> Json<serde_json::Value> {
    Json(api::openapi::document(state.api()))
}

/// The framework ceiling of `make bench`: the cheapest JSON answer this binary can give.
#[cfg(feature = "bench")]
async fn bench_ceiling() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok", "data": { "ok": true } }))
}

/// Serves `state` on `listener` until `shutdown` resolves, then finishes in-flight requests.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let db = state.db().clone();
    if let Ok(addr) = listener.local_addr() {
        state.set_local_addr(addr);
    }
    let jobs = jobs::spawn(state.clone());
    let telegram = features::notify::spawn(&state);
    let service = app(state).into_make_service_with_connect_info::<SocketAddr>();
    let result = axum::serve(listener, service).with_graceful_shutdown(shutdown).await;
    jobs.abort();
    for task in telegram {
        task.abort();
    }
    db.close().await;
    result
}

/// Resolves on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown requested; finishing in-flight requests");
}
