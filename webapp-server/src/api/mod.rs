//! The product API of SPEC §7: `GET|POST /api/{method}`.
//!
//! Each feature registers its methods in one place ([`Registry`]) with typed input and output;
//! the dispatcher reads `locale` and `v`, decodes the parameters strictly, checks the verb and the
//! origin, runs the method and wraps the answer in the envelope of DESIGN.md. The same registry
//! produces `/api/openapi.json`.

pub mod error;
pub mod openapi;
pub mod params;

pub use error::{ApiError, FieldErrors};
pub use params::Params;

use crate::state::AppState;
use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, Method as HttpMethod, StatusCode, header};
use axum::response::{IntoResponse, Response};
use croupier_shared::{API_VERSION, FieldCode, Locale};
use futures::FutureExt;
use futures::future::BoxFuture;
use schemars::JsonSchema;
use schemars::Schema;
use schemars::generate::SchemaGenerator;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

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

type Handler = dyn Fn(Ctx, Params) -> BoxFuture<'static, Result<Value, ApiError>> + Send + Sync;

pub struct MethodSpec {
    pub name: &'static str,
    pub access: Access,
    pub summary: &'static str,
    pub(crate) input_schema: fn(&mut SchemaGenerator) -> Schema,
    pub(crate) output_schema: fn(&mut SchemaGenerator) -> Schema,
    handler: Arc<Handler>,
}

#[derive(Default)]
pub struct Registry {
    methods: BTreeMap<String, MethodSpec>,
}

impl Registry {
    /// Registers a method that only reads.
    pub fn read<I, O, F, Fut>(&mut self, name: &'static str, summary: &'static str, f: F)
    where
        I: Input,
        O: Serialize + JsonSchema,
        F: Fn(Ctx, I) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ApiError>> + Send + 'static,
    {
        self.add(name, Access::Read, summary, f);
    }

    /// Registers a method that changes state.
    pub fn write<I, O, F, Fut>(&mut self, name: &'static str, summary: &'static str, f: F)
    where
        I: Input,
        O: Serialize + JsonSchema,
        F: Fn(Ctx, I) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ApiError>> + Send + 'static,
    {
        self.add(name, Access::Write, summary, f);
    }

    fn add<I, O, F, Fut>(&mut self, name: &'static str, access: Access, summary: &'static str, f: F)
    where
        I: Input,
        O: Serialize + JsonSchema,
        F: Fn(Ctx, I) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ApiError>> + Send + 'static,
    {
        let f = Arc::new(f);
        let handler: Arc<Handler> = Arc::new(move |ctx: Ctx, params: Params| {
            let f = Arc::clone(&f);
            async move {
                let input: I = params.deserialize()?;
                let mut errors = FieldErrors::default();
                input.validate(&mut errors);
                errors.into_result()?;
                let output = f(ctx, input).await?;
                serde_json::to_value(output).map_err(ApiError::internal)
            }
            .boxed()
        });
        let spec = MethodSpec {
            name,
            access,
            summary,
            input_schema: |g| I::json_schema(g),
            output_schema: |g| g.subschema_for::<O>(),
            handler,
        };
        let previous = self.methods.insert(name.to_ascii_lowercase(), spec);
        assert!(previous.is_none(), "API method {name} registered twice");
    }

    /// Looks a method up by name, case-insensitively.
    pub fn find(&self, name: &str) -> Option<&MethodSpec> {
        self.methods.get(&name.to_ascii_lowercase())
    }

    pub fn methods(&self) -> impl Iterator<Item = &MethodSpec> {
        self.methods.values()
    }
}

/// The query parameters every call carries; they never reach a method's input.
const ENVELOPE_PARAMS: [&str; 2] = ["locale", "v"];

/// `GET|POST /api/{method}`.
pub async fn dispatch(State(state): State<AppState>, Path(name): Path<String>, request: Request) -> Response {
    let started = Instant::now();
    let query = request.uri().query().unwrap_or("").to_owned();
    let locale = Locale::parse_or_default(lenient_param(&query, "locale").as_deref());
    let spec = state.api().find(&name);
    let label = spec.map_or("unknown", |s| s.name);
    let response = match run(&state, spec, &query, locale, request).await {
        Ok(data) => Json(json!({ "status": "ok", "data": data })).into_response(),
        Err(err) => err.render(locale),
    };
    state.metrics().observe_api(label, response.status().as_u16(), started.elapsed());
    response
}

async fn run(
    state: &AppState,
    spec: Option<&MethodSpec>,
    query: &str,
    locale: Locale,
    request: Request,
) -> Result<Value, ApiError> {
    let mut params = Params::new(params::parse_urlencoded(query.as_bytes(), params::Source::Query)?);
    match params.get("v") {
        Some(API_VERSION) => {}
        Some(_) => return Err(ApiError::bad_request(Some(("v", FieldCode::Unsupported)))),
        None => return Err(ApiError::bad_request(Some(("v", FieldCode::Required)))),
    }
    let spec = spec.ok_or_else(|| ApiError::new(croupier_shared::ErrorType::MethodNotFoundException))?;
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
    let ctx = Ctx { state: state.clone(), locale, headers: parts.headers };
    (spec.handler)(ctx, params.without(&ENVELOPE_PARAMS)).await
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
/// neither header are not from a browser and carry no ambient cookie risk.
fn check_same_origin(headers: &HeaderMap, state: &AppState) -> Result<(), ApiError> {
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

/// Reads one query parameter without failing, only to choose the language of an error.
fn lenient_param(query: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == name).map(|(_, v)| v.into_owned())
}
