//! `/cms/api/…`: the content API in Strapi v4's REST dialect.
//!
//! | call | answer |
//! |---|---|
//! | `GET /cms/api/{plural}` | `{data: [entry…], meta: {pagination}}` (filters, sort, pagination, fields, populate, locale, publicationState) |
//! | `GET /cms/api/{plural}/{id}`, `GET /cms/api/{singular}` | `{data: entry, meta: {}}` |
//! | `POST /cms/api/{plural}` with `{data: {…}}` | the created entry |
//! | `PUT /cms/api/{plural}/{id}`, `PUT /cms/api/{singular}` with `{data: {…}}` | the entry, only the given attributes changed; a locale variant that does not exist yet is created |
//! | `POST /cms/api/{plural}/{id}/localizations` with `{locale, …}` | a new locale variant (Strapi v4's way) |
//! | `DELETE /cms/api/{plural}/{id}`, `DELETE /cms/api/{singular}` | the deleted entry; with `?locale=` only that variant, without it every variant |
//!
//! An entry is `{id, attributes}`. Reads are public; `publicationState=preview` (drafts) and
//! every write need `Authorization: Bearer` with a token of `CROUPIER_CMS_TOKENS` or the JWT of
//! an editor (see [`super::users`]). The locale of a write is `data.locale`, else `?locale=`,
//! else `en`; reads fall back to `en` per entry. `data.publishedAt: null` keeps a draft.
//! Errors are Strapi's: `{"data": null, "error": {"status", "name", "message", "details"}}`, a
//! malformed query a 400 `ValidationError` naming the parameter in `details.errors[].path`.

use super::Cache;
use super::query::{self, ContentQuery, PublicationState};
use super::schema::{self, ContentType, Kind};
use super::store::{self, Change, DEFAULT_LOCALE, LocaleSel, WriteError};
use super::users;
use crate::AppState;
use axum::Json;
use axum::body::Body;
use axum::extract::{FromRef, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use croupier_shared::Locale;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::time::Duration;

// ---------------------------------------------------------------------------------------------
// Strapi's error envelope
// ---------------------------------------------------------------------------------------------

/// A refused request, already rendered (boxed: a `Response` is too big for every `Err`).
pub(super) struct Refusal(Box<Response>);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        *self.0
    }
}

/// A handler's answer before the refusals are rendered.
pub(super) type Reply = Result<Response, Refusal>;

pub(super) fn error(status: StatusCode, name: &str, message: &str, details: Value) -> Refusal {
    let body = json!({
        "data": null,
        "error": { "status": status.as_u16(), "name": name, "message": message, "details": details },
    });
    Refusal(Box::new((status, Json(body)).into_response()))
}

pub(super) fn validation(message: &str) -> Refusal {
    error(StatusCode::BAD_REQUEST, "ValidationError", message, json!({}))
}

/// A 400 listing every refused attribute (`{path: ["slug"], message, name}`).
pub(super) fn invalid(issues: &[store::Issue]) -> Refusal {
    let errors: Vec<Value> = issues
        .iter()
        .map(|i| json!({ "path": i.path.split('.').collect::<Vec<_>>(), "message": i.message, "name": "ValidationError" }))
        .collect();
    let message = match issues {
        [one] => format!("{} {}", one.path, one.message),
        many => format!("{} errors occurred", many.len()),
    };
    error(StatusCode::BAD_REQUEST, "ValidationError", &message, json!({ "errors": errors }))
}

pub(super) fn not_found() -> Refusal {
    error(StatusCode::NOT_FOUND, "NotFoundError", "Not Found", json!({}))
}

pub(super) fn forbidden() -> Refusal {
    error(StatusCode::FORBIDDEN, "ForbiddenError", "Forbidden", json!({}))
}

pub(super) fn unauthorized() -> Refusal {
    error(StatusCode::UNAUTHORIZED, "UnauthorizedError", "Missing or invalid credentials", json!({}))
}

pub(super) fn internal(cause: impl std::fmt::Display) -> Refusal {
    tracing::error!(error = %cause, "content API request failed");
    error(StatusCode::INTERNAL_SERVER_ERROR, "InternalServerError", "Internal Server Error", json!({}))
}

pub(super) fn too_many(retry_after: Duration) -> Refusal {
    let mut refusal =
        error(StatusCode::TOO_MANY_REQUESTS, "RateLimitError", "Too many requests, please try again later.", json!({}));
    let seconds = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
    if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
        refusal.0.headers_mut().insert(header::RETRY_AFTER, value);
    }
    refusal
}

fn method_not_allowed() -> Refusal {
    error(StatusCode::METHOD_NOT_ALLOWED, "MethodNotAllowedError", "Method Not Allowed", json!({}))
}

fn query_error(e: &query::QueryError) -> Refusal {
    let details = json!({ "errors": [{ "path": [e.param], "message": e.reason, "name": "ValidationError" }] });
    error(StatusCode::BAD_REQUEST, "ValidationError", &e.to_string(), details)
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

/// What the content API's own handlers need: the platform and this replica's content cache.
/// Axum builds it from any router state that can give both (`FromRef`).
#[derive(Clone)]
pub struct ContentState {
    pub platform: AppState,
    pub cache: Arc<Cache>,
}

impl std::ops::Deref for ContentState {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.platform
    }
}

impl<S> FromRef<S> for ContentState
where
    AppState: FromRef<S>,
    Arc<Cache>: FromRef<S>,
{
    fn from_ref(state: &S) -> ContentState {
        ContentState { platform: AppState::from_ref(state), cache: Arc::<Cache>::from_ref(state) }
    }
}

pub fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    AppState: FromRef<S>,
    Arc<Cache>: FromRef<S>,
{
    use axum::routing::{any, get, post, put};
    let api = axum::Router::new()
        .route("/auth/local", post(users::login))
        .route("/auth/local/register", post(users::register))
        .route("/auth/forgot-password", post(users::forgot_password))
        .route("/auth/reset-password", post(users::reset_password))
        .route("/auth/change-password", post(users::change_password))
        .route("/auth/send-email-confirmation", post(users::send_email_confirmation))
        .route("/auth/email-confirmation", get(users::email_confirmation))
        .route("/auth/{provider}/callback", get(users::provider_callback))
        .route("/users/me", get(users::me))
        .route("/users/{id}", put(users::update_user))
        .route("/{api_id}", any(by_type))
        .route("/{api_id}/{id}", any(by_id))
        .route("/{api_id}/{id}/localizations", any(localizations))
        .fallback(|| async { not_found() });
    axum::Router::new().nest("/cms/api", api)
}

/// What one read or write of `t` asked for in its query string.
struct Asked {
    /// The query string as sent (with the path, it keys the cached answers).
    raw: String,
    query: ContentQuery,
    /// `None` when no `locale` was given.
    locale: Option<String>,
}

fn asked(uri: &Uri) -> Result<Asked, Refusal> {
    let query = query::parse(uri.query().unwrap_or("")).map_err(|e| query_error(&e))?;
    let locale = query.locale.clone().filter(|l| !l.is_empty());
    Ok(Asked { raw: uri.query().unwrap_or("").to_owned(), query, locale })
}

/// The variants a read wants: `all`, a known locale, or the default.
fn read_locale<'a>(t: &ContentType, locale: Option<&'a str>) -> Result<LocaleSel<'a>, Refusal> {
    match locale {
        _ if !t.localized => Ok(LocaleSel::One(DEFAULT_LOCALE)),
        None => Ok(LocaleSel::One(DEFAULT_LOCALE)),
        Some("all") => Ok(LocaleSel::All),
        Some(code) => known_locale(code).map(LocaleSel::One),
    }
}

fn known_locale(code: &str) -> Result<&str, Refusal> {
    Locale::ALL
        .iter()
        .map(|l| l.code())
        .find(|known| *known == code)
        .ok_or_else(|| validation(&format!("Invalid locale `{code}`: the locales are en and fr")))
}

/// The locale a write changes: `data.locale`, else the query's, else the default.
fn write_locale<'a>(t: &ContentType, data: &'a Map<String, Value>, query: Option<&'a str>) -> Result<&'a str, Refusal> {
    if !t.localized {
        return Ok("");
    }
    match data.get("locale") {
        Some(Value::String(code)) => known_locale(code),
        Some(Value::Null) | None => query.map_or(Ok(DEFAULT_LOCALE), known_locale),
        Some(_) => Err(validation("locale must be a locale code")),
    }
}

fn shaped(t: &ContentType, doc: &Value, query: &ContentQuery) -> Value {
    query::shape_entry(doc, query.fields.as_deref(), &query.populate, &|path| t.kind_of(path))
}

fn one(data: Value) -> Response {
    Json(json!({ "data": data, "meta": {} })).into_response()
}

/// Whether the caller may see drafts; `Err` when it asked for them without the right.
async fn preview(state: &ContentState, headers: &HeaderMap, query: &ContentQuery) -> Result<bool, Refusal> {
    if query.publication_state != PublicationState::Preview {
        return Ok(false);
    }
    if users::actor(state, headers).await?.can_write() { Ok(true) } else { Err(forbidden()) }
}

async fn writer(state: &ContentState, headers: &HeaderMap) -> Result<(), Refusal> {
    if users::actor(state, headers).await?.can_write() { Ok(()) } else { Err(forbidden()) }
}

fn entry_id(text: &str) -> Option<i64> {
    text.parse::<i64>().ok().filter(|id| *id > 0)
}

/// `/cms/api/{api_id}`: a collection's find and create, a single type's find, update and delete.
async fn by_type(
    State(state): State<ContentState>,
    path: Result<Path<String>, axum::extract::rejection::PathRejection>,
    request: Request,
) -> Response {
    let Some(t) = path.ok().and_then(|Path(api_id)| schema::by_api_id(&api_id)) else {
        return not_found().into_response();
    };
    let (parts, body) = request.into_parts();
    let asked = match asked(&parts.uri) {
        Ok(asked) => asked,
        Err(refusal) => return refusal.into_response(),
    };
    let headers = &parts.headers;
    let result = match (parts.method, t.kind) {
        (Method::GET, Kind::Collection) => find(&state, t, &asked, headers).await,
        (Method::GET, Kind::Single) => find_one(&state, t, 1, &asked, headers).await,
        (Method::POST, Kind::Collection) => write(&state, t, None, &asked, headers, body).await,
        (Method::PUT, Kind::Single) => write(&state, t, Some(1), &asked, headers, body).await,
        (Method::DELETE, Kind::Single) => remove(&state, t, 1, &asked, headers).await,
        _ => Err(method_not_allowed()),
    };
    result.unwrap_or_else(IntoResponse::into_response)
}

/// `/cms/api/{plural}/{id}`: findOne, update, delete.
async fn by_id(
    State(state): State<ContentState>,
    path: Result<Path<(String, String)>, axum::extract::rejection::PathRejection>,
    request: Request,
) -> Response {
    let Some((t, id)) = path.ok().and_then(|Path((api_id, id))| {
        let t = schema::by_api_id(&api_id).filter(|t| t.kind == Kind::Collection)?;
        Some((t, entry_id(&id)?))
    }) else {
        return not_found().into_response();
    };
    let (parts, body) = request.into_parts();
    let asked = match asked(&parts.uri) {
        Ok(asked) => asked,
        Err(refusal) => return refusal.into_response(),
    };
    let headers = &parts.headers;
    let result = match parts.method {
        Method::GET => find_one(&state, t, id, &asked, headers).await,
        Method::PUT => write(&state, t, Some(id), &asked, headers, body).await,
        Method::DELETE => remove(&state, t, id, &asked, headers).await,
        _ => Err(method_not_allowed()),
    };
    result.unwrap_or_else(IntoResponse::into_response)
}

/// `POST /cms/api/{plural}/{id}/localizations`: Strapi v4's way to add a locale variant; the
/// body is the attributes themselves with `locale`, not wrapped in `data`.
async fn localizations(
    State(state): State<ContentState>,
    path: Result<Path<(String, String)>, axum::extract::rejection::PathRejection>,
    request: Request,
) -> Response {
    let Some((t, id)) = path.ok().and_then(|Path((api_id, id))| {
        let t = schema::by_api_id(&api_id).filter(|t| t.kind == Kind::Collection && t.localized)?;
        Some((t, entry_id(&id)?))
    }) else {
        return not_found().into_response();
    };
    let (parts, body) = request.into_parts();
    if parts.method != Method::POST {
        return method_not_allowed().into_response();
    }
    let result = async {
        let asked = asked(&parts.uri)?;
        writer(&state, &parts.headers).await?;
        let body = read_json(&state, body).await?;
        let Value::Object(attrs) = body else { return Err(validation("The body must be a JSON object")) };
        let locale = match attrs.get("locale").and_then(Value::as_str) {
            Some(code) => known_locale(code)?,
            None => return Err(validation("locale is a required field")),
        };
        let snapshot = state.cache.snapshot(state.db()).await.map_err(internal)?;
        if snapshot.find_one(t, id, LocaleSel::All, true).is_none() {
            return Err(not_found());
        }
        if snapshot.variants(t, LocaleSel::All, true).iter().any(|e| e.id == id && e.locale == locale) {
            return Err(error(StatusCode::BAD_REQUEST, "ApplicationError", "This locale is already used", json!({})));
        }
        save(&state, t, Some(id), locale, &attrs, &asked).await
    }
    .await;
    result.unwrap_or_else(IntoResponse::into_response)
}

/// A published read's answer, from the cache's answers when this version already gave it.
fn cached_answer(
    state: &ContentState,
    version: i64,
    key: Option<String>,
    build: impl FnOnce() -> Result<Value, Refusal>,
) -> Reply {
    if let Some(key) = &key
        && let Some(body) = state.cache.answers().get(version, key)
    {
        return Ok(json_bytes(body));
    }
    let body = bytes::Bytes::from(serde_json::to_vec(&build()?).map_err(internal)?);
    if let Some(key) = key {
        state.cache.answers().put(version, key, body.clone());
    }
    Ok(json_bytes(body))
}

fn json_bytes(body: bytes::Bytes) -> Response {
    ([(axum::http::header::CONTENT_TYPE, axum::http::HeaderValue::from_static("application/json"))], body)
        .into_response()
}

/// The key of a published read's answer: the type, the entry, the query string as sent.
fn answer_key(t: &ContentType, id: Option<i64>, asked: &Asked, preview: bool) -> Option<String> {
    (!preview).then(|| format!("{}/{}?{}", t.singular, id.unwrap_or(0), asked.raw))
}

async fn find(state: &ContentState, t: &ContentType, asked: &Asked, headers: &HeaderMap) -> Reply {
    let preview = preview(state, headers, &asked.query).await?;
    let locale = read_locale(t, asked.locale.as_deref())?;
    let snapshot = state.cache.snapshot(state.db()).await.map_err(internal)?;
    cached_answer(state, snapshot.version, answer_key(t, None, asked, preview), || {
        let mut docs: Vec<&Value> = snapshot.variants(t, locale, preview).into_iter().map(|e| &e.doc).collect();
        if let Some(filter) = &asked.query.filters {
            docs.retain(|doc| query::matches(filter, doc));
        }
        let sorted: Vec<Value>;
        if !asked.query.sort.is_empty() {
            let mut owned: Vec<Value> = docs.iter().map(|doc| (*doc).clone()).collect();
            query::sort_docs(&mut owned, &asked.query.sort);
            sorted = owned;
            docs = sorted.iter().collect();
        }
        let (range, meta) = query::paginate(docs.len(), &asked.query.pagination);
        let data: Vec<Value> = docs[range].iter().map(|doc| shaped(t, doc, &asked.query)).collect();
        Ok(json!({ "data": data, "meta": { "pagination": meta } }))
    })
}

async fn find_one(state: &ContentState, t: &ContentType, id: i64, asked: &Asked, headers: &HeaderMap) -> Reply {
    let preview = preview(state, headers, &asked.query).await?;
    let locale = match read_locale(t, asked.locale.as_deref())? {
        LocaleSel::All => LocaleSel::One(DEFAULT_LOCALE),
        one => one,
    };
    let snapshot = state.cache.snapshot(state.db()).await.map_err(internal)?;
    cached_answer(state, snapshot.version, answer_key(t, Some(id), asked, preview), || {
        let entry = snapshot.find_one(t, id, locale, preview).ok_or_else(not_found)?;
        Ok(json!({ "data": shaped(t, &entry.doc, &asked.query), "meta": {} }))
    })
}

/// Reads a JSON body within the configured size limit.
async fn read_json(state: &ContentState, body: Body) -> Result<Value, Refusal> {
    let limit = state.config().body_limit;
    let bytes = axum::body::to_bytes(body, limit).await.map_err(|_| {
        error(StatusCode::PAYLOAD_TOO_LARGE, "PayloadTooLargeError", "request entity too large", json!({}))
    })?;
    serde_json::from_slice(&bytes).map_err(|_| validation("The body is not valid JSON"))
}

async fn write(
    state: &ContentState,
    t: &'static ContentType,
    id: Option<i64>,
    asked: &Asked,
    headers: &HeaderMap,
    body: Body,
) -> Reply {
    writer(state, headers).await?;
    let body = read_json(state, body).await?;
    let data = match body.get("data") {
        Some(Value::Object(data)) => data.clone(),
        Some(_) => return Err(validation("Invalid \"data\" payload in the request body: expected an object")),
        None => return Err(validation("Missing \"data\" payload in the request body")),
    };
    let locale = write_locale(t, &data, asked.locale.as_deref())?;
    save(state, t, id, locale, &data, asked).await
}

async fn save(
    state: &ContentState,
    t: &'static ContentType,
    id: Option<i64>,
    locale: &str,
    data: &Map<String, Value>,
    asked: &Asked,
) -> Reply {
    let publish = match data.get("publishedAt") {
        None => None,
        Some(Value::Null) => Some(false),
        Some(_) => Some(true),
    };
    let change = Change { t, id, locale, attrs: data, publish };
    let id = store::save(state.db(), change).await.map_err(write_error)?;
    let snapshot = state.cache.snapshot(state.db()).await.map_err(internal)?;
    let shown_locale = if t.localized { locale } else { DEFAULT_LOCALE };
    let entry = snapshot.find_one(t, id, LocaleSel::One(shown_locale), true).ok_or_else(not_found)?;
    Ok(one(shaped(t, &entry.doc, &asked.query)))
}

fn write_error(e: WriteError) -> Refusal {
    match e {
        WriteError::Invalid(issues) => invalid(&issues),
        WriteError::NotFound => not_found(),
        WriteError::Db(e) => internal(e),
    }
}

async fn remove(state: &ContentState, t: &'static ContentType, id: i64, asked: &Asked, headers: &HeaderMap) -> Reply {
    writer(state, headers).await?;
    let locale = match (t.localized, asked.locale.as_deref()) {
        (false, _) => None,
        (true, None) if t.kind == Kind::Single => Some(DEFAULT_LOCALE),
        (true, None) => None,
        (true, Some(code)) => Some(known_locale(code)?),
    };
    let snapshot = state.cache.snapshot(state.db()).await.map_err(internal)?;
    let shown = match locale {
        Some(code) => snapshot.variants(t, LocaleSel::All, true).into_iter().find(|e| e.id == id && e.locale == code),
        None => snapshot
            .find_one(t, id, LocaleSel::One(DEFAULT_LOCALE), true)
            .or_else(|| snapshot.variants(t, LocaleSel::All, true).into_iter().find(|e| e.id == id)),
    }
    .map(|e| shaped(t, &e.doc, &asked.query))
    .ok_or_else(not_found)?;
    store::delete(state.db(), t, id, locale).await.map_err(write_error)?;
    Ok(one(shown))
}
