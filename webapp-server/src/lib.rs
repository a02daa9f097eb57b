//! `croupier-server`: the HTTP server behind every call of the Croupier site.
//!
//! The layers (DESIGN.md "Layers inside croupier-server"), each importing only downwards:
//!
//! 1. `croupier-platform` (its own crate, `webapp-server/platform`): configuration, the
//!    database seam, the ledger, coordination, keys, metrics, the `/api` framework and the ports
//!    of external parties. It knows no feature; the compiler refuses an upward import.
//! 2. [`features`]: the product, one folder per API prefix. A feature imports the platform and,
//!    where it must, another feature's public items (listed in the architecture notes).
//! 3. [`web`]: the single-page app's files and server-rendered heads.
//! 4. This file: [`App`], the one place that knows every feature. It assembles the API registry,
//!    the routes, the web assets and each feature's own state.
//!
//! [`app`] builds the router from an [`App`]; [`serve`] runs it on a listener until a
//! shutdown future resolves. `main.rs` and the tests both go through these two functions.

pub mod features;
/// The server's fuzz entry points, gathered here (the one place that knows every feature) for the
/// cargo-fuzz targets and the stable harness: each takes any bytes and panics only when a promise
/// of the code under test is broken.
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::features::content::query::fuzz_one as content_query;
    pub use crate::features::games::fuzzing::wallet;
    pub use crate::features::games::house::fuzzing::round as house_round;
}
pub mod jobs;
pub mod web;

/// The platform's modules, under the names the features use.
pub use croupier_platform::ports::{kyc, messaging, payments};
pub use croupier_platform::{AppState, Config};
pub use croupier_platform::{
    api, audit, config, coord, crypto, db, hot, keys, ledger, metrics, ops, password, session, switches, telemetry,
};

use anyhow::Context as _;
use axum::Router;
use axum::extract::FromRef;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use croupier_shared::ErrorType;
use features::auth::oauth::OAuth;
use features::content::Cache;
use features::games::index::Index;
use std::future::{Future, IntoFuture as _};
use std::net::SocketAddr;
use std::sync::Arc;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::{CompressionLayer, Predicate as _};
use tower_http::request_id::{MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::trace::TraceLayer;
use web::WebAssets;

/// Google Tag Manager's origins, allowed when `CROUPIER_GTM_ID` is set: its container script, and
/// where its tags report to.
pub const GTM_SCRIPT_ORIGIN: &str = "https://www.googletagmanager.com";
const GTM_CONNECT: &str = "https://www.googletagmanager.com https://www.google-analytics.com https://*.google-analytics.com https://*.analytics.google.com";
/// SEON's JavaScript agent (v6) and where it reports, allowed when `CROUPIER_SEON_ENABLED` is on.
pub const SEON_SCRIPT_ORIGIN: &str = "https://cdn.deviceinf.com";
const SEON_CONNECT: &str = "https://*.deviceinf.com";

/// The site's Content-Security-Policy. The site runs inside Telegram's web clients, which frame
/// it, so framing is allowed for Telegram's origins only (`frame-ancestors`; `X-Frame-Options`
/// cannot express that). Scripts come from the site itself, Telegram's own scripts (the Mini Apps
/// SDK, the Login Widget), and — only when the operator turns them on — exactly the origins of the
/// tag manager, the fraud agent and the configured live chat (`protection::support::csp_origins`); a server-rendered page adds its `nonce` (which only the
/// content's custom code entries carry, `web::stamp_scripts`).
pub(crate) fn csp(config: &config::Config, nonce: Option<&str>) -> String {
    let mut scripts = String::from("'self' https://telegram.org");
    let mut connect = String::from("'self'");
    if config.gtm_id.is_some() {
        scripts.push(' ');
        scripts.push_str(GTM_SCRIPT_ORIGIN);
        connect.push(' ');
        connect.push_str(GTM_CONNECT);
    }
    if config.seon_enabled {
        scripts.push(' ');
        scripts.push_str(SEON_SCRIPT_ORIGIN);
        connect.push(' ');
        connect.push_str(SEON_CONNECT);
    }
    if let Some((script, connects)) = features::protection::support::csp_origins(&config.chat.provider) {
        scripts.push(' ');
        scripts.push_str(script);
        connect.push(' ');
        connect.push_str(connects);
    }
    // Sumsub's WebSDK (its builder script, its frame and API), only when Sumsub verifies players.
    if matches!(config.kyc, config::KycConfig::Sumsub { .. }) {
        scripts.push_str(" https://static.sumsub.com");
        connect.push_str(" https://*.sumsub.com wss://*.sumsub.com");
    }
    if let Some(nonce) = nonce {
        scripts.push_str(&format!(" 'nonce-{nonce}'"));
    }
    // Frames: the site's own pages and any https page (the providers' games and sportsbooks),
    // plus the exact origin of a provider configured over plain http (a local or staging one).
    let mut frames = String::from("'self' https:");
    let templates = config.game_providers.iter().chain(&config.sportsbook_providers).map(|p| p.launch_url.as_str());
    for origin in templates.filter_map(http_origin) {
        if !frames.split(' ').any(|known| known == origin) {
            frames.push(' ');
            frames.push_str(origin);
        }
    }
    format!(
        "default-src 'self'; script-src {scripts}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob: https:; font-src 'self' data:; connect-src {connect}; frame-src {frames}; \
         frame-ancestors 'self' https://web.telegram.org https://*.telegram.org https://t.me; base-uri 'self'; \
         form-action 'self'; object-src 'none'"
    )
}

/// `http://host[:port]` of a plain-http frame address template; none for https or a template
/// whose origin is not plain text (a placeholder, a character a policy cannot carry).
fn http_origin(template: &str) -> Option<&str> {
    let rest = template.strip_prefix("http://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..end];
    let plain = !host.is_empty()
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'));
    plain.then(|| &template[.."http://".len() + end])
}

/// The server's top-level state: the platform's [`AppState`] plus what the top assembles — the
/// API registry, the client's files — and each feature's own state. Handlers never see `App`:
/// they ask for the part they need (`State<AppState>`, `State<Arc<Cache>>`, …) and axum hands it
/// over through the `FromRef` impls below.
///
/// One `Arc`, so the clone axum makes of the router's state for every request is one reference
/// count, not one per part.
#[derive(Clone)]
pub struct App {
    inner: Arc<AppParts>,
}

struct AppParts {
    platform: AppState,
    api: Arc<api::Registry>,
    web: Arc<WebAssets>,
    content: Arc<Cache>,
    oauth: Arc<OAuth>,
    live: Arc<features::live::Live>,
    /// This replica's live odds (`features::sportsbook::live`).
    odds: Arc<features::sportsbook::live::Hub>,
    /// This replica's game catalogue index (`games.get`, and the games pages' heads).
    games: Arc<Index>,
}

impl App {
    /// Opens the stores the configuration names and assembles the app over them.
    pub async fn build(config: Config) -> anyhow::Result<App> {
        let (db, coord) = AppState::open_stores(&config).await?;
        App::from_parts(config, db, coord).await
    }

    /// Assembles the app from already-open stores.
    pub async fn from_parts(config: Config, db: db::Db, coord: coord::Coord) -> anyhow::Result<App> {
        App::from_parts_with(config, db, coord, |_| {}).await
    }

    /// Like [`App::from_parts`], with more API methods registered after the features' own
    /// (tests use it to exercise the dispatcher with methods of their own).
    pub async fn from_parts_with(
        config: Config,
        db: db::Db,
        coord: coord::Coord,
        extra: impl FnOnce(&mut api::Registry),
    ) -> anyhow::Result<App> {
        let web = Arc::new(WebAssets::load(&config));
        features::games::catalogue::seed(&db, &config.game_providers).await.context("game catalogue")?;
        features::content::store::seed_demo(&db).await.context("demo content")?;
        features::bonuses::campaigns::rekey_promo_codes(&db).await.context("promo code keys")?;
        features::bonuses::seed_demo(&db).await.context("demo campaigns")?;
        features::loyalty::admin::seed_demo(&db).await.context("demo loyalty programme")?;
        let oauth = Arc::new(OAuth::new(&config.oauth_providers).context("social sign-in")?);
        let platform = AppState::new(config, db, coord).await?;
        features::tournaments::admin::seed_demo(&platform)
            .await
            .map_err(|e| anyhow::anyhow!("demo tournament: {e:?}"))?;
        let content = Arc::new(Cache::default());
        let mut api = api::Registry::default();
        // The catalogue's index serves `games.get` and the games pages' heads (their lead image).
        let games = Arc::new(Index::default());
        register_methods(&mut api, &content, &games);
        extra(&mut api);
        let live = Arc::new(features::live::Live::default());
        let odds = Arc::new(features::sportsbook::live::Hub::default());
        Ok(App { inner: Arc::new(AppParts { platform, api: Arc::new(api), web, content, oauth, live, odds, games }) })
    }

    /// The platform's state (configuration, database, ports, …).
    pub fn platform(&self) -> &AppState {
        &self.inner.platform
    }

    pub fn api(&self) -> &api::Registry {
        &self.inner.api
    }

    pub fn web(&self) -> &WebAssets {
        &self.inner.web
    }

    /// This replica's cached copy of the content (see `features::content::store`).
    pub fn content(&self) -> &Cache {
        &self.inner.content
    }
}

impl std::ops::Deref for App {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.inner.platform
    }
}

impl FromRef<App> for AppState {
    fn from_ref(app: &App) -> AppState {
        app.inner.platform.clone()
    }
}

impl FromRef<App> for Arc<api::Registry> {
    fn from_ref(app: &App) -> Arc<api::Registry> {
        Arc::clone(&app.inner.api)
    }
}

impl FromRef<App> for Arc<Cache> {
    fn from_ref(app: &App) -> Arc<Cache> {
        Arc::clone(&app.inner.content)
    }
}

impl FromRef<App> for Arc<features::live::Live> {
    fn from_ref(app: &App) -> Arc<features::live::Live> {
        Arc::clone(&app.inner.live)
    }
}

impl FromRef<App> for Arc<features::sportsbook::live::Hub> {
    fn from_ref(app: &App) -> Arc<features::sportsbook::live::Hub> {
        Arc::clone(&app.inner.odds)
    }
}

impl FromRef<App> for Arc<OAuth> {
    fn from_ref(app: &App) -> Arc<OAuth> {
        Arc::clone(&app.inner.oauth)
    }
}

/// Every feature's `/api` methods, in one registry.
fn register_methods(api: &mut api::Registry, content: &Arc<Cache>, games: &Arc<Index>) {
    use features::*;
    metadata::register(api, content);
    auth::register(api);
    account::register(api);
    cashier::register(api);
    games::register(api, games);
    storage::register(api);
    cashbacks::register(api);
    freespins::register(api);
    bonuses::register(api, content);
    loyalty::register(api, content);
    tracking::register(api);
    protection::register(api);
    tournaments::register(api);
    jackpots::register(api);
    winners::register(api);
    sportsbook::register(api);
}

pub fn app(app: App) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    let platform = app.inner.platform.clone();
    let site = web::Site {
        platform: platform.clone(),
        web: Arc::clone(&app.inner.web),
        content: Arc::clone(&app.inner.content),
        games: Arc::clone(&app.inner.games),
    };
    let router: Router<App> = Router::new()
        .merge(api::routes())
        .merge(ops::routes().with_state(platform.clone()))
        .merge(messaging::routes(platform.config()).with_state(platform.clone()))
        .merge(payments::sandbox::routes().with_state(platform.clone()))
        .merge(kyc::sandbox::routes().with_state(platform.clone()))
        .merge(features::routes().with_state(platform.clone()))
        .merge(features::backoffice_routes(platform.clone()).with_state(platform.clone()))
        .merge(features::content::routes())
        .merge(features::backoffice::content::routes())
        .merge(features::auth::oauth::routes())
        .merge(features::tournaments::routes())
        .merge(features::jackpots::routes())
        .merge(features::winners::routes())
        .merge(features::sportsbook::live::routes())
        .merge(web::routes(site));
    #[cfg(feature = "bench")]
    let router = router
        .route("/bench/ceiling", axum::routing::get(bench_ceiling))
        .route("/bench/odds", axum::routing::post(features::sportsbook::live::bench::move_price));
    let hsts = platform.config().env == config::Env::Prod;
    let policy =
        HeaderValue::from_str(&csp(platform.config(), None)).unwrap_or(HeaderValue::from_static("default-src 'self'"));
    let security: Arc<[(HeaderName, HeaderValue)]> = security_header_list(hsts, policy).into();
    // The client's hashed assets: answers prepared once with the security headers in them, and
    // none of the per-request middleware below (`web::asset_routes`).
    let assets = web::asset_routes(&app.inner.web, &security);
    let dynamic = router.with_state(app).layer(
        ServiceBuilder::new()
            .layer(SetRequestIdLayer::new(request_id.clone(), RandomRequestId))
            .layer(TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                let id = request.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
                tracing::info_span!("http", method = %request.method(), path = %request.uri().path(), request_id = %id)
            }))
            .layer(PropagateRequestIdLayer::new(request_id))
            .layer(CatchPanicLayer::custom(|_| panic_response()))
            // On-the-fly gzip for dynamic answers, never for a partial one (the client's assets
            // come precompressed from `web::assets` with their Content-Encoding, which it skips).
            .layer(CompressionLayer::new().compress_when(
                tower_http::compression::predicate::DefaultPredicate::new().and(
                    |status: StatusCode, _: http::Version, headers: &HeaderMap, _: &http::Extensions| {
                        status != StatusCode::PARTIAL_CONTENT && !headers.contains_key(header::CONTENT_RANGE)
                    },
                ),
            ))
            .layer(axum::middleware::map_response(move |response: Response| {
                security_headers(response, Arc::clone(&security))
            })),
    );
    dynamic.merge(assets)
}

/// The security headers of every answer, in order: the site's CSP (`policy`), then the fixed ones
/// (HSTS in production only).
fn security_header_list(hsts: bool, policy: HeaderValue) -> Vec<(HeaderName, HeaderValue)> {
    let mut list = vec![
        (header::CONTENT_SECURITY_POLICY, policy),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin")),
        (
            HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static("camera=(), microphone=(), geolocation=()"),
        ),
        // Social sign-in opens a popup that must talk back to its opener.
        (HeaderName::from_static("cross-origin-opener-policy"), HeaderValue::from_static("same-origin-allow-popups")),
    ];
    if hsts {
        list.push((header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static("max-age=31536000; includeSubDomains")));
    }
    list
}

/// Security headers on every answer (a handler may set its own first).
async fn security_headers(mut response: Response, security: Arc<[(HeaderName, HeaderValue)]>) -> Response {
    let headers = response.headers_mut();
    for (name, value) in security.iter() {
        headers.entry(name).or_insert_with(|| value.clone());
    }
    response
}

/// A random (version 4) UUID per request without an `X-Request-Id`, as `tower_http`'s
/// `MakeRequestUuid` makes, but drawn from the thread's generator: `Uuid::new_v4` asks the kernel
/// for every one (a `getrandom` call per request, issue 23's profile). Ids correlate logs; they
/// guard nothing.
#[derive(Clone, Copy)]
struct RandomRequestId;

impl MakeRequestId for RandomRequestId {
    fn make_request_id<B>(&mut self, _: &Request<B>) -> Option<RequestId> {
        let id = uuid::Builder::from_random_bytes(rand::random()).into_uuid();
        let mut text = [0_u8; uuid::fmt::Hyphenated::LENGTH];
        HeaderValue::from_bytes(id.hyphenated().encode_lower(&mut text).as_bytes()).ok().map(RequestId::new)
    }
}

/// Whatever panicked, the client gets the ordinary 500 envelope and nothing internal.
fn panic_response() -> Response {
    tracing::error!("a request handler panicked");
    api::ApiError::new(ErrorType::InternalServerErrorException).into_response()
}

/// The framework ceiling of `make bench`: the cheapest JSON answer this binary can give.
#[cfg(feature = "bench")]
async fn bench_ceiling() -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({ "status": "ok", "data": { "ok": true } }))
}

/// Serves `app` on `listener` until `shutdown` resolves, then finishes in-flight requests.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: App,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = app.inner.platform.clone();
    let db = state.db().clone();
    if let Ok(addr) = listener.local_addr() {
        state.set_local_addr(addr);
    }
    let jobs = jobs::spawn(state.clone());
    let checkpointer = db.spawn_checkpointer();
    let competition = features::tournaments::close::spawn(state.clone());
    let telegram = features::notify::spawn(&state);
    let relay = hot::spawn_relay(state.coord());
    let odds = features::sportsbook::live::spawn_relay(Arc::clone(&app.inner.odds), state.coord().clone());
    let live = Arc::clone(&app.inner.live);
    let grace = state.config().shutdown_grace;
    let service = self::app(app).into_make_service_with_connect_info::<SocketAddr>();
    // On the signal: stop accepting, end the live streams (they never end by themselves), let
    // the requests in flight finish — their group-committer batches with them — for at most the
    // grace period.
    let (fired, signalled) = tokio::sync::oneshot::channel::<()>();
    let signal = async move {
        shutdown.await;
        live.close();
        let _ = fired.send(());
    };
    let deadline = async move {
        if signalled.await.is_ok() {
            tokio::time::sleep(grace).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    let server = axum::serve(listener, service).with_graceful_shutdown(signal);
    let result = tokio::select! {
        result = server.into_future() => result,
        () = deadline => {
            tracing::warn!(seconds = grace.as_secs(), "grace period over: stopping with requests still in flight");
            Ok(())
        }
    };
    jobs.abort();
    if let Some(checkpointer) = checkpointer {
        checkpointer.abort();
    }
    competition.abort();
    odds.abort();
    for task in telegram.into_iter().chain(relay) {
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
