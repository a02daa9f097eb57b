//! The console's content editor (`/backoffice/api/content/...`, permission `content.manage`):
//! the content service's entries per type and locale, written through the content store's own
//! functions (its checks, its content version, its cache invalidation), one audit row per change.
//!
//! | call | answer |
//! |---|---|
//! | `GET content/types` | every content type: `api_id`, `singular`, `kind` (`single`/`collection`), `localized`, `fields` |
//! | `GET content/{api_id}` | the entries in `filter.locale` (drafts included): `filter.q` (text), `filter.status` (`draft`/`published`), `sort` `id`/`label`/`updated_at`, `range`; `Content-Range` |
//! | `GET content/{api_id}/{id}?locale=` | one variant: `data` (attributes in storage form), `exists`, `published`, `locales`, `preview_url` |
//! | `POST content/{api_id}` `{locale, data, publish, reason}` | a new collection entry (201) |
//! | `PUT content/{api_id}/{id}` `{locale, data, reason}` | the variant changed (only the given attributes), or the missing translation created (as a draft) |
//! | `DELETE content/{api_id}/{id}` `{locale?, reason}` | one variant, or with no locale every variant |
//! | `POST content/{api_id}/{id}/publish` / `unpublish` `{locale, reason}` | the variant's publication state |
//!
//! Design:
//! - **Fields.** The content registry ([`crate::features::content::schema`]) names only what the
//!   query evaluator and the write checks need — components, media, relations, required, unique,
//!   enumerations; the scalar attributes are whatever the entries hold (Strapi's content-type
//!   builder is not part of this service). So the field list is the registry's attributes plus
//!   every attribute stored in any variant of the type, each scalar's kind read from its stored
//!   values (`boolean`, `integer`, `number`, `date`, `datetime`, `richtext` for HTML or long
//!   text, `string`, `json`). The editor may add none: a new attribute goes in through the
//!   Strapi API or an import.
//! - **Writes** run in one transaction opened by [`store::begin`] (the content write lock, the
//!   version moved on): the variant before, [`store::save_in`] / [`store::delete_in`] (the
//!   content service's own validation), the variant after, the audit row with both; committed
//!   together, then [`crate::hot::content_changed`] drops the page and API caches here and on the
//!   other replicas. A refused write leaves nothing: no change, no version move, no row.
//! - **Reasons**: every change carries a `reason` (the trail's "why"), like every other change
//!   made in the console.
//! - **Errors**: the project envelope. A refused attribute is `error_data.{path}: ["REQUIRED"]`
//!   or `["INVALID"]`, and `error_data.issues` lists the content service's own wording
//!   (`"slug: must be lower-case letters…"`), so the form can mark the field and say why.

use super::lists::{ListQuery, answer as list_answer};
use super::{Staff, bad, body, created, json, missing, reason, trail};
use crate::AppState;
use crate::api::ApiError;
use crate::features::content::schema::{self, Attr, ContentType, Kind, TYPES};
use crate::features::content::store::{self, Change, DEFAULT_LOCALE, LocaleSel, RESERVED, WriteError};
use crate::features::content::{Cache, Snapshot, seo};
use axum::body::Bytes;
use axum::extract::{FromRef, Path, Query, RawQuery, State};
use axum::response::Response;
use croupier_platform::api::error::FieldError;
use croupier_shared::{FieldCode, Locale};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The editor's routes (merged at the top, where the content cache is part of the state).
pub fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    AppState: FromRef<S>,
    Arc<Cache>: FromRef<S>,
{
    use axum::routing::{get, post};
    let api = super::API;
    axum::Router::new()
        .route(&format!("{api}/content/types"), get(types))
        .route(&format!("{api}/content/{{api_id}}"), get(list).post(create))
        .route(&format!("{api}/content/{{api_id}}/{{id}}"), get(show).put(update).delete(remove))
        .route(&format!("{api}/content/{{api_id}}/{{id}}/{{action}}"), post(publication))
}

const PERMISSION: &str = "content.manage";

// ---------------------------------------------------------------------------------------------
// The types and their fields
// ---------------------------------------------------------------------------------------------

#[derive(Serialize, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub kind: &'static str,
    pub required: bool,
    pub unique: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<&'static str>>,
    /// The related type (`relation` fields).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<&'static str>,
}

#[derive(Serialize)]
struct TypeView {
    api_id: &'static str,
    singular: &'static str,
    kind: &'static str,
    localized: bool,
    fields: Vec<Field>,
}

/// What the stored values of one scalar attribute look like.
pub fn scalar_kind(values: &[&Value]) -> &'static str {
    let mut kind = None;
    for value in values {
        let this = match value {
            Value::Null => continue,
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::String(s) if is_date(s) => "date",
            Value::String(s) if is_datetime(s) => "datetime",
            Value::String(s) if s.contains('<') || s.contains('\n') || s.chars().count() > 160 => "richtext",
            Value::String(_) => "string",
            Value::Array(_) | Value::Object(_) => "json",
        };
        kind = Some(match (kind, this) {
            (None, this) => this,
            (Some(a), b) if a == b => a,
            (Some("integer" | "number"), "integer" | "number") => "number",
            (Some("string" | "richtext"), "string" | "richtext") => "richtext",
            _ => "json",
        });
    }
    kind.unwrap_or("string")
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && s.bytes().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

fn is_datetime(s: &str) -> bool {
    s.len() >= 16 && s.get(..10).is_some_and(is_date) && s.as_bytes().get(10) == Some(&b'T')
}

/// The fields of `t`: the registry's attributes and every attribute its entries hold.
pub fn fields(t: &ContentType, snapshot: &Snapshot) -> Vec<Field> {
    let mut seen: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for entry in snapshot.variants(t, LocaleSel::All, true) {
        if let Value::Object(doc) = &entry.doc {
            for (key, value) in doc {
                if !RESERVED.contains(&key.as_str()) {
                    seen.entry(key.clone()).or_default().push(value);
                }
            }
        }
    }
    let mut names: Vec<String> = t.required.iter().map(|s| (*s).to_owned()).collect();
    let declared = t.attributes.iter().map(|(p, _)| *p).chain(t.enums.iter().map(|(n, _)| *n)).chain(t.unique);
    let mut rest: BTreeSet<String> = declared.filter(|p| !p.contains('.')).map(str::to_owned).collect();
    rest.extend(seen.keys().cloned());
    for name in rest {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let (kind, options, target) = if let Some((_, options)) = t.enums.iter().find(|(n, _)| *n == name) {
                ("enumeration", Some(options.to_vec()), None)
            } else {
                match t.attr(&name) {
                    Some(Attr::Component) => ("component", None, None),
                    Some(Attr::Media) => ("media", None, None),
                    Some(Attr::Relation(target)) => ("relation", None, Some(target)),
                    None => (scalar_kind(seen.get(&name).map_or(&[][..], Vec::as_slice)), None, None),
                }
            };
            Field {
                required: t.required.contains(&name.as_str()),
                unique: t.unique == Some(name.as_str()),
                name,
                kind,
                options,
                target,
            }
        })
        .collect()
}

/// `GET /backoffice/api/content/types`.
async fn types(staff: Staff, State(cache): State<Arc<Cache>>) -> Response {
    let result = async {
        staff.require(PERMISSION, "content.types", None).await?;
        let snapshot = cache.snapshot(staff.state().db()).await?;
        let views: Vec<TypeView> = TYPES
            .iter()
            .map(|t| TypeView {
                api_id: t.api_id(),
                singular: t.singular,
                kind: match t.kind {
                    Kind::Single => "single",
                    Kind::Collection => "collection",
                },
                localized: t.localized,
                fields: fields(t, &snapshot),
            })
            .collect();
        Ok(json(&views))
    }
    .await;
    staff.answer(result)
}

// ---------------------------------------------------------------------------------------------
// Entries
// ---------------------------------------------------------------------------------------------

fn content_type(api_id: &str) -> Result<&'static ContentType, ApiError> {
    schema::by_api_id(api_id).ok_or_else(|| missing("type"))
}

/// The stored locale of a variant of `t`: `''` for types that are not localized, else en or fr
/// (`None`: the default).
fn locale_of(t: &ContentType, asked: Option<&str>) -> Result<&'static str, ApiError> {
    if !t.localized {
        return Ok("");
    }
    match asked.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(DEFAULT_LOCALE),
        Some(code) => Locale::ALL
            .iter()
            .map(|l| l.code())
            .find(|known| *known == code)
            .ok_or_else(|| bad("locale", FieldCode::Unsupported)),
    }
}

fn entry_id(text: &str) -> Result<i64, ApiError> {
    text.parse::<i64>().ok().filter(|id| *id > 0).ok_or_else(|| missing("id"))
}

/// Where the site shows a variant: a page at its slug, a page's SEO data at its URL, anything
/// else (site-wide settings, banners, popups) on the home page; in the variant's locale.
fn preview_url(t: &ContentType, locale: &str, data: &Map<String, Value>) -> String {
    let text = |key: &str| data.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
    let rest = match t.singular {
        "page" if !text("slug").is_empty() => format!("/{}", text("slug")),
        "page-seo" if text("url").starts_with('/') => text("url"),
        _ => "/".to_owned(),
    };
    let prefix = seo::prefix(Locale::parse(locale).unwrap_or(Locale::En));
    match (prefix.is_empty(), rest.as_str()) {
        (false, "/") => prefix,
        _ => format!("{prefix}{rest}"),
    }
}

/// An entry's name in lists: its first naming attribute.
fn label(t: &ContentType, doc: &Value) -> String {
    ["title", "name", "sysname", "slug", "url", "host", "from_url", "siteName"]
        .iter()
        .find_map(|key| doc.get(*key).and_then(Value::as_str).filter(|s| !s.is_empty()))
        .map_or_else(|| t.singular.to_owned(), str::to_owned)
}

/// A snapshot document back in storage form: attributes only, relations as their ids.
fn storage_form(t: &ContentType, doc: &Value) -> Map<String, Value> {
    let mut data = doc.as_object().cloned().unwrap_or_default();
    data.retain(|key, _| !RESERVED.contains(&key.as_str()));
    for (path, attr) in t.attributes {
        if let (Attr::Relation(_), Some(value)) = (attr, data.get_mut(*path)) {
            let id = |v: &Value| v.get("id").cloned().unwrap_or(Value::Null);
            *value = match &*value {
                Value::Array(items) => Value::Array(items.iter().map(id).collect()),
                object @ Value::Object(_) => id(object),
                other => other.clone(),
            };
        }
    }
    data
}

#[derive(Serialize)]
struct Row {
    id: i64,
    locale: String,
    label: String,
    /// Whether the variant exists in the asked locale (else the row shows the default's).
    translated: bool,
    published: bool,
    updated_at: Value,
    locales: Vec<String>,
    preview_url: String,
}

/// The variants of one entry id, in locale order.
fn variants_of<'s>(snapshot: &'s Snapshot, t: &ContentType, id: i64) -> Vec<&'s store::Entry> {
    snapshot.variants(t, LocaleSel::All, true).into_iter().filter(|e| e.id == id).collect()
}

fn rows(t: &ContentType, snapshot: &Snapshot, locale: &str) -> Vec<Row> {
    let all = snapshot.variants(t, LocaleSel::All, true);
    let ids: BTreeSet<i64> = all.iter().map(|e| e.id).collect();
    ids.into_iter()
        .filter_map(|id| {
            let variants: Vec<&store::Entry> = all.iter().copied().filter(|e| e.id == id).collect();
            let asked = variants.iter().find(|e| e.locale == locale);
            let shown = asked.or_else(|| variants.iter().find(|e| e.locale == DEFAULT_LOCALE)).or(variants.first())?;
            let data = storage_form(t, &shown.doc);
            Some(Row {
                id,
                locale: locale.to_owned(),
                label: label(t, &shown.doc),
                translated: asked.is_some(),
                published: asked.is_some_and(|e| e.published),
                updated_at: shown.doc.get("updatedAt").cloned().unwrap_or(Value::Null),
                locales: variants.iter().map(|e| e.locale.clone()).collect(),
                preview_url: preview_url(t, locale, &data),
            })
        })
        .collect()
}

const SORTS: &[(&str, &str)] = &[("id", "id"), ("label", "label"), ("updated_at", "updated_at")];

/// `GET /backoffice/api/content/{api_id}`.
async fn list(
    staff: Staff,
    State(cache): State<Arc<Cache>>,
    Path(api_id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let result = async {
        staff.require(PERMISSION, "content.list", Some(("content", api_id.clone()))).await?;
        let t = content_type(&api_id)?;
        let query = ListQuery::parse(raw.as_deref(), SORTS, "id")?;
        let locale = locale_of(t, query.text("locale")?.as_deref())?;
        let needle = query.text("q")?.map(|q| q.to_lowercase());
        let status = query.text("status")?;
        let wanted_published = match status.as_deref() {
            None => None,
            Some("published") => Some(true),
            Some("draft") => Some(false),
            Some(_) => return Err(bad("filter.status", FieldCode::Unsupported)),
        };
        let snapshot = cache.snapshot(staff.state().db()).await?;
        let mut rows = rows(t, &snapshot, locale);
        rows.retain(|row| wanted_published.is_none_or(|p| row.translated && row.published == p));
        if let Some(needle) = &needle {
            rows.retain(|row| {
                let doc = variants_of(&snapshot, t, row.id)
                    .into_iter()
                    .find(|e| e.locale == row.locale)
                    .map(|e| e.doc.to_string().to_lowercase());
                row.label.to_lowercase().contains(needle) || doc.is_some_and(|d| d.contains(needle))
            });
        }
        let (column, desc) = query.order;
        rows.sort_by(|a, b| {
            let order = match column {
                "label" => a.label.to_lowercase().cmp(&b.label.to_lowercase()),
                "updated_at" => a.updated_at.as_str().cmp(&b.updated_at.as_str()),
                _ => a.id.cmp(&b.id),
            };
            if desc { order.reverse() } else { order }
        });
        let total = rows.len() as i64;
        let page: Vec<Row> = rows
            .into_iter()
            .skip(usize::try_from(query.offset).unwrap_or(0))
            .take(usize::try_from(query.limit).unwrap_or(0))
            .collect();
        Ok(list_answer("content", &query, total, &page))
    }
    .await;
    staff.answer(result)
}

#[derive(Serialize)]
struct EntryView {
    /// `{id}` for collections, `{id}` too for single types (always 1).
    id: i64,
    api_id: &'static str,
    locale: String,
    /// Whether this locale's variant exists; when not, `data` is the default locale's (the
    /// starting point of the translation).
    exists: bool,
    published: bool,
    data: Map<String, Value>,
    locales: Vec<String>,
    created_at: Value,
    updated_at: Value,
    preview_url: String,
}

fn entry_view(t: &'static ContentType, snapshot: &Snapshot, id: i64, locale: &str) -> Result<EntryView, ApiError> {
    let variants = variants_of(snapshot, t, id);
    let asked = variants.iter().find(|e| e.locale == locale);
    let shown = asked
        .or_else(|| variants.iter().find(|e| e.locale == DEFAULT_LOCALE))
        .or(variants.first())
        .ok_or_else(|| missing("id"))?;
    let data = storage_form(t, &shown.doc);
    Ok(EntryView {
        id,
        api_id: t.api_id(),
        locale: locale.to_owned(),
        exists: asked.is_some(),
        published: asked.is_some_and(|e| e.published),
        preview_url: preview_url(t, locale, &data),
        data,
        locales: variants.iter().map(|e| e.locale.clone()).collect(),
        created_at: shown.doc.get("createdAt").cloned().unwrap_or(Value::Null),
        updated_at: shown.doc.get("updatedAt").cloned().unwrap_or(Value::Null),
    })
}

#[derive(Deserialize)]
struct LocaleQuery {
    locale: Option<String>,
}

/// `GET /backoffice/api/content/{api_id}/{id}?locale=`.
async fn show(
    staff: Staff,
    State(cache): State<Arc<Cache>>,
    Path((api_id, id)): Path<(String, String)>,
    Query(q): Query<LocaleQuery>,
) -> Response {
    let result = async {
        staff.require(PERMISSION, "content.show", Some(("content", format!("{api_id}/{id}")))).await?;
        let t = content_type(&api_id)?;
        let id = entry_id(&id)?;
        let locale = locale_of(t, q.locale.as_deref())?;
        let snapshot = cache.snapshot(staff.state().db()).await?;
        Ok(json(&entry_view(t, &snapshot, id, locale)?))
    }
    .await;
    staff.answer(result)
}

#[derive(Deserialize, Default)]
struct WriteBody {
    #[serde(default)]
    locale: Option<String>,
    #[serde(default)]
    data: Option<Value>,
    /// Creation only: publish at once (default) or keep a draft.
    #[serde(default)]
    publish: Option<bool>,
    #[serde(default)]
    reason: Option<String>,
}

fn write_error(e: WriteError) -> ApiError {
    match e {
        WriteError::Invalid(issues) => {
            let fields = issues
                .iter()
                .map(|i| FieldError {
                    field: i.path.clone(),
                    code: if i.message == "is a required field" { FieldCode::Required } else { FieldCode::Invalid },
                    params: Vec::new(),
                })
                .collect();
            let wording: Vec<String> = issues.iter().map(|i| format!("{}: {}", i.path, i.message)).collect();
            ApiError::invalid(fields).with_data("issues", wording)
        }
        WriteError::NotFound => missing("id"),
        WriteError::Db(e) => e.into(),
    }
}

/// A variant as the trail keeps it.
fn trail_value(variant: Option<&(Map<String, Value>, Option<i64>)>) -> Option<Value> {
    variant.map(|(data, published_at)| json!({ "published": published_at.is_some(), "data": data }))
}

/// What one change does inside its transaction.
enum Op<'a> {
    Save { id: Option<i64>, attrs: &'a Map<String, Value>, publish: Option<bool> },
    Delete { id: i64, every_locale: bool },
}

/// Runs one change and its audit row in one content write; answers the entry id.
async fn change(
    staff: &Staff,
    t: &'static ContentType,
    locale: &str,
    op: Op<'_>,
    action: &str,
    why: &str,
) -> Result<i64, ApiError> {
    let db = staff.state().db();
    let mut tx = store::begin(db).await?;
    let known_id = match &op {
        Op::Save { id, .. } => *id,
        Op::Delete { id, .. } => Some(*id),
    };
    let before = match known_id {
        Some(id) => store::stored(&mut tx, t, id, locale).await?,
        None => None,
    };
    let id = match op {
        Op::Save { id, attrs, publish } => {
            store::save_in(&mut tx, Change { t, id, locale, attrs, publish }).await.map_err(write_error)?
        }
        Op::Delete { id, every_locale } => {
            store::delete_in(&mut tx, t, id, if every_locale { None } else { Some(locale) })
                .await
                .map_err(write_error)?;
            id
        }
    };
    let after = store::stored(&mut tx, t, id, locale).await?;
    let target = if t.localized { format!("{}/{id}/{locale}", t.api_id()) } else { format!("{}/{id}", t.api_id()) };
    trail::write(
        &mut *tx,
        &trail::Row {
            action,
            target_type: Some("content"),
            target_id: Some(&target),
            reason: Some(why),
            before: trail_value(before.as_ref()),
            after: trail_value(after.as_ref()),
            ..trail::Row::of(staff)
        },
    )
    .await?;
    tx.commit().await?;
    crate::hot::content_changed();
    Ok(id)
}

fn attrs_of(data: Option<Value>) -> Result<Map<String, Value>, ApiError> {
    match data {
        Some(Value::Object(map)) => Ok(map),
        None => Err(bad("data", FieldCode::Required)),
        Some(_) => Err(bad("data", FieldCode::Invalid)),
    }
}

/// `POST /backoffice/api/content/{api_id}`: a new collection entry.
async fn create(staff: Staff, State(cache): State<Arc<Cache>>, Path(api_id): Path<String>, bytes: Bytes) -> Response {
    let result = async {
        staff.require(PERMISSION, "content.create", Some(("content", api_id.clone()))).await?;
        let t = content_type(&api_id)?;
        if t.kind == Kind::Single {
            return Err(bad("type", FieldCode::Unsupported));
        }
        let input: WriteBody = body(&bytes)?;
        let locale = locale_of(t, input.locale.as_deref())?;
        let attrs = attrs_of(input.data)?;
        let why = reason(input.reason.as_deref())?;
        let publish = Some(input.publish.unwrap_or(true));
        let id =
            change(&staff, t, locale, Op::Save { id: None, attrs: &attrs, publish }, "content.create", &why).await?;
        let snapshot = cache.snapshot(staff.state().db()).await?;
        Ok(created(&entry_view(t, &snapshot, id, locale)?))
    }
    .await;
    staff.answer(result)
}

/// `PUT /backoffice/api/content/{api_id}/{id}`: changes a variant or adds a translation.
async fn update(
    staff: Staff,
    State(cache): State<Arc<Cache>>,
    Path((api_id, id)): Path<(String, String)>,
    bytes: Bytes,
) -> Response {
    let result = async {
        staff.require(PERMISSION, "content.update", Some(("content", format!("{api_id}/{id}")))).await?;
        let t = content_type(&api_id)?;
        let id = entry_id(&id)?;
        if t.kind == Kind::Single && id != 1 {
            return Err(missing("id"));
        }
        let input: WriteBody = body(&bytes)?;
        let locale = locale_of(t, input.locale.as_deref())?;
        let attrs = attrs_of(input.data)?;
        let why = reason(input.reason.as_deref())?;
        let snapshot = cache.snapshot(staff.state().db()).await?;
        let exists = variants_of(&snapshot, t, id).iter().any(|e| e.locale == locale);
        if variants_of(&snapshot, t, id).is_empty() && t.kind == Kind::Collection {
            return Err(missing("id"));
        }
        // A new translation starts as a draft; an edit keeps the variant's state.
        let (publish, action) = if exists { (None, "content.update") } else { (Some(false), "content.translate") };
        change(&staff, t, locale, Op::Save { id: Some(id), attrs: &attrs, publish }, action, &why).await?;
        let snapshot = cache.snapshot(staff.state().db()).await?;
        Ok(json(&entry_view(t, &snapshot, id, locale)?))
    }
    .await;
    staff.answer(result)
}

/// `DELETE /backoffice/api/content/{api_id}/{id}` `{locale?, reason}`.
async fn remove(staff: Staff, Path((api_id, id)): Path<(String, String)>, bytes: Bytes) -> Response {
    let result = async {
        staff.require(PERMISSION, "content.delete", Some(("content", format!("{api_id}/{id}")))).await?;
        let t = content_type(&api_id)?;
        let id = entry_id(&id)?;
        let input: WriteBody = body(&bytes)?;
        let every_locale = !t.localized || input.locale.as_deref().is_none_or(|l| l.trim().is_empty());
        let locale = if every_locale { locale_of(t, None)? } else { locale_of(t, input.locale.as_deref())? };
        let why = reason(input.reason.as_deref())?;
        change(&staff, t, locale, Op::Delete { id, every_locale }, "content.delete", &why).await?;
        Ok(json(&json!({ "id": id, "deleted": true })))
    }
    .await;
    staff.answer(result)
}

/// `POST /backoffice/api/content/{api_id}/{id}/publish|unpublish` `{locale, reason}`.
async fn publication(
    staff: Staff,
    State(cache): State<Arc<Cache>>,
    Path((api_id, id, action)): Path<(String, String, String)>,
    bytes: Bytes,
) -> Response {
    let result = async {
        let publish = match action.as_str() {
            "publish" => true,
            "unpublish" => false,
            _ => return Err(missing("action")),
        };
        let name = if publish { "content.publish" } else { "content.unpublish" };
        staff.require(PERMISSION, name, Some(("content", format!("{api_id}/{id}")))).await?;
        let t = content_type(&api_id)?;
        let id = entry_id(&id)?;
        let input: WriteBody = body(&bytes)?;
        let locale = locale_of(t, input.locale.as_deref())?;
        let why = reason(input.reason.as_deref())?;
        let snapshot = cache.snapshot(staff.state().db()).await?;
        if !variants_of(&snapshot, t, id).iter().any(|e| e.locale == locale) {
            return Err(missing("id"));
        }
        let none = Map::new();
        change(&staff, t, locale, Op::Save { id: Some(id), attrs: &none, publish: Some(publish) }, name, &why).await?;
        let snapshot = cache.snapshot(staff.state().db()).await?;
        Ok(json(&entry_view(t, &snapshot, id, locale)?))
    }
    .await;
    staff.answer(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_kinds_follow_the_stored_values() {
        let v = |x: Value| x;
        assert_eq!(scalar_kind(&[&v(json!(true))]), "boolean");
        assert_eq!(scalar_kind(&[&v(json!(3)), &v(Value::Null)]), "integer");
        assert_eq!(scalar_kind(&[&v(json!(3)), &v(json!(1.5))]), "number");
        assert_eq!(scalar_kind(&[&v(json!("2026-01-02"))]), "date");
        assert_eq!(scalar_kind(&[&v(json!("2026-01-02T10:00:00.000Z"))]), "datetime");
        assert_eq!(scalar_kind(&[&v(json!("<p>Hi</p>"))]), "richtext");
        assert_eq!(scalar_kind(&[&v(json!("Hi")), &v(json!("<p>long</p>"))]), "richtext");
        assert_eq!(scalar_kind(&[&v(json!("Hi"))]), "string");
        assert_eq!(scalar_kind(&[&v(json!("Machines à sous, casino"))]), "string", "multi-byte text");
        assert_eq!(scalar_kind(&[&v(json!({"a": 1}))]), "json");
        assert_eq!(scalar_kind(&[&v(json!("x")), &v(json!(1))]), "json");
        assert_eq!(scalar_kind(&[]), "string");
    }

    #[test]
    fn fields_join_the_registry_and_the_stored_attributes() {
        let t = schema::by_api_id("popups").unwrap();
        let mut doc = Map::new();
        doc.insert("sysname".into(), json!("welcome"));
        doc.insert("title".into(), json!("Hi"));
        doc.insert("kind".into(), json!("popup"));
        doc.insert("showAfterLogin".into(), json!(true));
        let snapshot = Snapshot::for_tests(vec![(t, 1, "en", doc)]);
        let found = fields(t, &snapshot);
        let names: Vec<&str> = found.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(&names[..2], ["sysname", "title"], "required first");
        let by = |n: &str| found.iter().find(|f| f.name == n).unwrap();
        assert!(by("sysname").required && by("sysname").unique);
        assert_eq!(by("kind").kind, "enumeration");
        assert_eq!(by("kind").options.as_deref(), Some(&["popup", "confirm", "curtain"][..]));
        assert_eq!(by("image").kind, "media");
        assert_eq!(by("showAfterLogin").kind, "boolean");
        let config = schema::by_api_id("prazer-config").unwrap();
        let f = fields(config, &Snapshot::for_tests(vec![]));
        assert_eq!(f.iter().find(|f| f.name == "popupFallbacks").unwrap().target, Some("popup"));
        assert!(f.iter().all(|f| !f.name.contains('.')), "nested component attributes are not fields");
    }

    #[test]
    fn preview_links_open_the_variant_on_the_site() {
        let page = schema::by_api_id("pages").unwrap();
        let mut data = Map::new();
        data.insert("slug".into(), json!("about"));
        assert_eq!(preview_url(page, "en", &data), "/about");
        assert_eq!(preview_url(page, "fr", &data), "/fr/about");
        let common = schema::by_api_id("common").unwrap();
        assert_eq!(preview_url(common, "en", &Map::new()), "/");
        assert_eq!(preview_url(common, "fr", &Map::new()), "/fr");
    }
}
