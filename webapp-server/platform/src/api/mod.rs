//! The product API of SPEC §7: `GET|POST /api/{method}`.
//!
//! Each feature registers its methods in one place ([`Registry`]) with typed input and output;
//! the dispatcher reads `locale` and `v`, decodes the parameters strictly, checks the verb and the
//! origin, runs the method and wraps the answer in the envelope of DESIGN.md. The same registry
//! produces `/api/openapi.json`.

pub mod error;
pub mod extract;
pub mod openapi;
pub mod params;

pub use error::{ApiError, FieldErrors};
pub use extract::{AuthUser, FromCtx, MaybeUser, Operator, OperatorGrant};
pub use params::Params;

use crate::session::{self, Session};
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, Method as HttpMethod, StatusCode, header};
use axum::response::{IntoResponse, Response};
use croupier_shared::{API_VERSION, ErrorType, FieldCode, Locale};
use futures::FutureExt;
use futures::future::BoxFuture;
use schemars::JsonSchema;
use schemars::Schema;
use schemars::generate::SchemaGenerator;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use std::collections::BTreeMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a method may do, which decides the verbs it answers and the origin check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reads only: GET or POST.
    Read,
    /// Changes state: POST only, and only from the site's own origin.
    Write,
}

/// Everything a method knows about its call besides its input.
#[derive(Clone)]
pub struct Ctx {
    pub state: AppState,
    pub locale: Locale,
    pub headers: HeaderMap,
    /// The caller's address (the last `X-Forwarded-For` entry when `CROUPIER_TRUST_PROXY` is on).
    pub ip: Option<IpAddr>,
    /// The signed-in player's session; `None` for guests.
    pub session: Option<Session>,
    cookies: Arc<Mutex<Vec<String>>>,
}

impl Ctx {
    /// Adds a `Set-Cookie` header to the answer, whether it succeeds or fails.
    pub fn set_cookie(&self, cookie: String) {
        self.cookies.lock().unwrap_or_else(|p| p.into_inner()).push(cookie);
    }

    /// Counts one attempt of `action` by `key`; over `max` in `window` → `TooManyRequestsException`.
    /// The limit tripping is recorded in the refusals trail ([`crate::audit`]).
    pub async fn limit(&self, action: &str, key: &str, window: Duration, max: u64) -> Result<(), ApiError> {
        let decision = self.state.coord().hit(&format!("{action}:{key}"), window, max).await?;
        if decision.allowed {
            return Ok(());
        }
        if crate::audit::trips(decision.count, max) {
            let user_id = self.session.as_ref().map(|s| s.user_id);
            self.refused(action, "rate_limited", Some(key), user_id).await;
        }
        Err(ApiError::too_many_requests(decision.retry_after))
    }

    /// Records a refused guess of this call (a wrong password, code or promo code) with the
    /// caller's address: see [`crate::audit`].
    pub async fn refused(&self, action: &str, reason: &str, subject: Option<&str>, user_id: Option<i64>) {
        let refusal = crate::audit::Refusal { action, reason, subject, user_id, ip: self.ip };
        crate::audit::record(self.state.db(), refusal).await;
    }

    /// Counts one attempt per caller address (when known) and per `key`.
    pub async fn limit_ip_and(
        &self,
        action: &str,
        key: &str,
        window: Duration,
        per_ip: u64,
        per_key: u64,
    ) -> Result<(), ApiError> {
        if let Some(ip) = self.ip {
            self.limit(&format!("{action}:ip"), &ip.to_string(), window, per_ip).await?;
        }
        self.limit(action, key, window, per_key).await
    }
}

/// A method's input: decoded from the parameters, then checked by [`Input::validate`].
pub trait Input: DeserializeOwned + JsonSchema + Send + 'static {
    /// Business rules beyond the types; report every bad field into `errors`.
    fn validate(&self, _errors: &mut FieldErrors) {}
}

/// The input of methods that take no parameters.
#[derive(Debug, Default, serde::Deserialize, JsonSchema)]
pub struct NoInput {}

impl Input for NoInput {}

/// The answer of methods SPEC says "must return the value 1".
#[derive(Debug, Clone, Copy)]
pub struct One;

impl Serialize for One {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(1)
    }
}

impl JsonSchema for One {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "One".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({ "const": 1 })
    }
}

/// An answer serialised once and kept (a cache's entry), written as it is: its JSON is the
/// serialisation of a `T`, whose schema it has in the OpenAPI document. A repeat request answers
/// it without building and serialising the value again (issue 23: `account.getInfo`).
pub struct Serialised<T> {
    json: Arc<RawValue>,
    _of: std::marker::PhantomData<fn() -> T>,
}

impl<T: Serialize> Serialised<T> {
    pub fn new(value: &T) -> Result<Serialised<T>, ApiError> {
        let json: Box<RawValue> = serde_json::value::to_raw_value(value).map_err(ApiError::internal)?;
        Ok(Serialised { json: Arc::from(json), _of: std::marker::PhantomData })
    }
}

impl<T> Clone for Serialised<T> {
    fn clone(&self) -> Serialised<T> {
        Serialised { json: Arc::clone(&self.json), _of: std::marker::PhantomData }
    }
}

impl<T> Serialize for Serialised<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(s)
    }
}

impl<T: JsonSchema> JsonSchema for Serialised<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

/// A method: its answer's `data`, already serialised (written into the envelope as it is).
type Handler = dyn Fn(Ctx, Params) -> BoxFuture<'static, Result<Box<RawValue>, ApiError>> + Send + Sync;

pub struct MethodSpec {
    pub name: &'static str,
    pub access: Access,
    pub summary: &'static str,
    /// Only a signed-in player may call it; a guest hears `AuthorizationException` (401).
    pub signed_in: bool,
    pub(crate) input_schema: fn(&mut SchemaGenerator) -> Schema,
    pub(crate) output_schema: fn(&mut SchemaGenerator) -> Schema,
    /// Answers while the site is under maintenance (every other method answers
    /// `ApplicationDisabledException`): see [`Registry::keep_during_maintenance`].
    pub during_maintenance: bool,
    handler: Arc<Handler>,
}

/// A function that answers an `/api` method: `async fn(Ctx, Input)`, or
/// `async fn(Ctx, X, Input)` where `X` is who may call it ([`AuthUser`], [`MaybeUser`],
/// [`Operator`]: see [`extract`]). `M` only tells the two shapes apart.
pub trait Method<M>: Send + Sync + 'static {
    type Input: Input;
    type Output: Serialize + JsonSchema + Send + 'static;
    /// Whether only a signed-in player may call it (the document's security requirement).
    const SIGNED_IN: bool;
    /// The method's future; the registry boxes it once, with the decoding around it.
    fn call(
        &self,
        ctx: Ctx,
        input: Self::Input,
    ) -> impl Future<Output = Result<Self::Output, ApiError>> + Send + 'static;
}

impl<F, Fut, I, O> Method<(I,)> for F
where
    F: Fn(Ctx, I) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, ApiError>> + Send + 'static,
    I: Input,
    O: Serialize + JsonSchema + Send + 'static,
{
    type Input = I;
    type Output = O;
    const SIGNED_IN: bool = false;

    fn call(&self, ctx: Ctx, input: I) -> impl Future<Output = Result<O, ApiError>> + Send + 'static {
        self(ctx, input)
    }
}

impl<F, Fut, X, I, O> Method<(X, I)> for F
where
    F: Fn(Ctx, X, I) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, ApiError>> + Send + 'static,
    X: FromCtx,
    I: Input,
    O: Serialize + JsonSchema + Send + 'static,
{
    type Input = I;
    type Output = O;
    const SIGNED_IN: bool = X::SIGNED_IN;

    fn call(&self, ctx: Ctx, input: I) -> impl Future<Output = Result<O, ApiError>> + Send + 'static {
        let call = X::from_ctx(&ctx).map(|caller| self(ctx, caller, input));
        async move { call?.await }
    }
}

/// Paths outside `/api` that the OpenAPI document describes too (a provider protocol): each
/// answers its `(path, path item)` pairs, with its schemas made by the document's generator.
pub type PathsDoc = fn(&mut SchemaGenerator) -> Vec<(String, serde_json::Value)>;

#[derive(Default)]
pub struct Registry {
    methods: BTreeMap<String, MethodSpec>,
    documents: Vec<PathsDoc>,
}

impl Registry {
    /// Registers a method that only reads.
    pub fn read<M, H: Method<M>>(&mut self, name: &'static str, summary: &'static str, method: H) {
        self.add(name, Access::Read, summary, method);
    }

    /// Registers a method that changes state.
    pub fn write<M, H: Method<M>>(&mut self, name: &'static str, summary: &'static str, method: H) {
        self.add(name, Access::Write, summary, method);
    }

    fn add<M, H: Method<M>>(&mut self, name: &'static str, access: Access, summary: &'static str, method: H) {
        let method = Arc::new(method);
        let handler: Arc<Handler> = Arc::new(move |ctx: Ctx, params: Params| {
            let method = Arc::clone(&method);
            async move {
                let input: H::Input = params.deserialize()?;
                let mut errors = FieldErrors::default();
                input.validate(&mut errors);
                errors.into_result()?;
                let output = method.call(ctx, input).await?;
                serde_json::value::to_raw_value(&output).map_err(ApiError::internal)
            }
            .boxed()
        });
        let spec = MethodSpec {
            name,
            access,
            summary,
            signed_in: H::SIGNED_IN,
            input_schema: |g| <H::Input as JsonSchema>::json_schema(g),
            output_schema: |g| g.subschema_for::<H::Output>(),
            during_maintenance: false,
            handler,
        };
        let previous = self.methods.insert(name.to_ascii_lowercase(), spec);
        assert!(previous.is_none(), "API method {name} registered twice");
    }

    /// Lets a registered method answer during maintenance (the one that tells the client the
    /// site's state). Panics for a method that is not registered: a typo must not pass.
    pub fn keep_during_maintenance(&mut self, name: &str) {
        let spec = self.methods.get_mut(&name.to_ascii_lowercase());
        spec.unwrap_or_else(|| panic!("API method {name} is not registered")).during_maintenance = true;
    }

    /// Looks a method up by name, case-insensitively.
    pub fn find(&self, name: &str) -> Option<&MethodSpec> {
        self.methods.get(&name.to_ascii_lowercase())
    }

    pub fn methods(&self) -> impl Iterator<Item = &MethodSpec> {
        self.methods.values()
    }

    /// Adds paths outside `/api` to the OpenAPI document ([`PathsDoc`]).
    pub fn document(&mut self, paths: PathsDoc) {
        self.documents.push(paths);
    }

    /// The documents of paths outside `/api`.
    pub fn documents(&self) -> impl Iterator<Item = &PathsDoc> {
        self.documents.iter()
    }
}

/// `{"status":"ok","data":…}` around an answer already serialised (no second pass over it).
fn ok_envelope(data: &RawValue) -> Response {
    let data = data.get();
    let mut body = Vec::with_capacity(data.len() + 26);
    body.extend_from_slice(br#"{"status":"ok","data":"#);
    body.extend_from_slice(data.as_bytes());
    body.push(b'}');
    ([(header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"))], body).into_response()
}

/// The query parameters every call carries; they never reach a method's input.
const ENVELOPE_PARAMS: [&str; 2] = ["locale", "v"];

/// `GET|POST /api/{method}`, and `/api/openapi.json` (the registry's methods as OpenAPI).
pub fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    AppState: axum::extract::FromRef<S>,
    Arc<Registry>: axum::extract::FromRef<S>,
{
    axum::Router::new()
        .route("/api/openapi.json", axum::routing::get(openapi_json))
        .route("/api/{method}", axum::routing::any(dispatch))
}

async fn openapi_json(State(api): State<Arc<Registry>>) -> axum::Json<serde_json::Value> {
    axum::Json(openapi::document(&api))
}

/// `GET|POST /api/{method}`.
pub async fn dispatch(
    State(state): State<AppState>,
    State(api): State<Arc<Registry>>,
    Path(name): Path<String>,
    request: Request,
) -> Response {
    let started = Instant::now();
    let query = request.uri().query().unwrap_or("").to_owned();
    let locale = Locale::parse_or_default(lenient_param(&query, "locale").as_deref());
    let spec = api.find(&name);
    let label = spec.map_or("unknown", |s| s.name);
    let cookies = Arc::new(Mutex::new(Vec::new()));
    let mut response = match run(&state, spec, &query, locale, request, Arc::clone(&cookies)).await {
        Ok(data) => ok_envelope(&data),
        Err(err) => err.render(locale),
    };
    for cookie in cookies.lock().unwrap_or_else(|p| p.into_inner()).drain(..) {
        if let Ok(value) = http::HeaderValue::from_str(&cookie) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response.headers_mut().insert(header::CACHE_CONTROL, http::HeaderValue::from_static("no-store"));
    state.metrics().observe_api(label, response.status().as_u16(), started.elapsed());
    response
}

async fn run(
    state: &AppState,
    spec: Option<&MethodSpec>,
    query: &str,
    locale: Locale,
    request: Request,
    cookies: Arc<Mutex<Vec<String>>>,
) -> Result<Box<RawValue>, ApiError> {
    let query_params = Params::new(params::parse_urlencoded(query.as_bytes(), params::Source::Query)?);
    match query_params.get("v") {
        Some(API_VERSION) => {}
        Some(_) => return Err(ApiError::bad_request(Some(("v", FieldCode::Unsupported)))),
        None => return Err(ApiError::bad_request(Some(("v", FieldCode::Required)))),
    }
    let spec = spec.ok_or_else(|| ApiError::new(ErrorType::MethodNotFoundException))?;
    // Maintenance: product calls stop here (operators' routes, health checks and webhooks are not
    // `/api` methods and keep working).
    if !spec.during_maintenance && state.maintenance().await {
        return Err(ApiError::new(ErrorType::ApplicationDisabledException));
    }
    // `locale` and `v` in the query belong to the envelope; a body may have fields of those names
    // (`account.changelocale` takes `locale`).
    let mut params = query_params.without(&ENVELOPE_PARAMS);
    let (parts, body) = request.into_parts();
    match (&parts.method, spec.access) {
        (&HttpMethod::GET, Access::Read) => {}
        (&HttpMethod::POST, _) => {
            if spec.access == Access::Write {
                check_same_origin(&parts.headers, state)?;
            }
            let body = read_body(body, state.config().body_limit).await?;
            let content_type = parts.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
            params.extend(params::parse_body(content_type, body).await?);
        }
        _ => {
            return Err(ApiError::bad_request(Some(("method", FieldCode::Unsupported)))
                .with_status(StatusCode::METHOD_NOT_ALLOWED));
        }
    }
    let peer = parts.extensions.get::<axum::extract::ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let ip = client_ip(&parts.headers, peer, state.config().trust_proxy);
    let resolved = session::resolve(state, &parts.headers).await;
    let session = match resolved {
        Ok(session::Resolved { session, clear_cookie }) => {
            if clear_cookie {
                cookies.lock().unwrap_or_else(|p| p.into_inner()).push(session::clear_cookie(state.config()));
            }
            session
        }
        Err((err, clear_cookie)) => {
            if clear_cookie {
                cookies.lock().unwrap_or_else(|p| p.into_inner()).push(session::clear_cookie(state.config()));
            }
            return Err(err);
        }
    };
    // A write method may change anything about its caller: their cached session and account
    // summary are read again (crate::hot), whatever the method's own code touches.
    let writer = (spec.access == Access::Write).then(|| session.as_ref().map(|s| s.user_id)).flatten();
    let ctx = Ctx { state: state.clone(), locale, headers: parts.headers, ip, session, cookies };
    if let Some(user_id) = writer {
        crate::hot::touch(user_id);
    }
    let answer = (spec.handler)(ctx, params).await;
    if let Some(user_id) = writer {
        crate::hot::touch(user_id);
    }
    answer
}

async fn read_body(body: Body, limit: usize) -> Result<bytes::Bytes, ApiError> {
    axum::body::to_bytes(body, limit).await.map_err(|_| {
        ApiError::bad_request(Some(("body", FieldCode::MaxLength)))
            .with_status(StatusCode::PAYLOAD_TOO_LARGE)
            .with_data("max_bytes", limit)
    })
}

/// State-changing calls must come from the site itself: browsers send `Sec-Fetch-Site` and
/// `Origin` on cross-site POSTs, so either one naming another site is refused. Requests with
/// neither header are not from a browser and carry no ambient cookie risk. (The back office's
/// API applies the same rule.)
pub fn check_same_origin(headers: &HeaderMap, state: &AppState) -> Result<(), ApiError> {
    let denied =
        || ApiError::new(croupier_shared::ErrorType::AccessDeniedException).with_data("reason", "cross_origin");
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok())
        && !matches!(site, "same-origin" | "none")
    {
        return Err(denied());
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().map_err(|_| denied())?;
        let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
        let origin_host = origin.split_once("://").map_or("", |(_, h)| h);
        let same_host = !host.is_empty() && origin_host.eq_ignore_ascii_case(host);
        if !(same_host || origin.eq_ignore_ascii_case(&state.config().public_url)) {
            return Err(denied());
        }
    }
    Ok(())
}

/// The caller's address: the socket peer, or behind a trusted proxy the last `X-Forwarded-For`
/// entry (the one the proxy itself appended; earlier entries are the client's to forge).
pub fn client_ip(headers: &HeaderMap, peer: Option<IpAddr>, trust_proxy: bool) -> Option<IpAddr> {
    if trust_proxy
        && let Some(forwarded) = headers.get("x-forwarded-for").and_then(|v| v.to_str().ok())
        && let Some(last) = forwarded.rsplit(',').next()
        && let Ok(ip) = last.trim().parse()
    {
        return Some(ip);
    }
    peer
}

/// [`client_ip`] of a request, its peer taken from the connection (`ConnectInfo`).
pub fn request_ip(state: &AppState, request: &Request) -> Option<IpAddr> {
    let peer = request.extensions().get::<axum::extract::ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    client_ip(request.headers(), peer, state.config().trust_proxy)
}

/// Reads one query parameter without failing, only to choose the language of an error.
fn lenient_param(query: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == name).map(|(_, v)| v.into_owned())
}
