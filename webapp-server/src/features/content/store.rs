//! Content storage: entries as JSON documents in `content_entries`, one row per (type, id,
//! locale), and a per-replica read cache kept correct by a version counter in the database.
//!
//! # Ids and locales
//!
//! An entry's id is shared by its locale variants (`/cms/api/pages/3?locale=fr` is the French
//! variant of page 3; Strapi v4 gives each variant an id of its own and links them, v5 shares one
//! document id as here). Ids count per type from 1; a single type's entry is always id 1. A
//! variant missing in the asked locale falls back to the default locale (`en`). Types that are
//! not localized keep one variant under the locale `''`.
//!
//! # The cache
//!
//! Every write runs in one transaction that first bumps `content_meta.version` (which also takes
//! that row's lock, so content writes are serialized: ids are `MAX(id) + 1`, and uniqueness is
//! checked without races). A read asks the database for the version — one indexed single-row
//! query — and reuses this replica's [`Snapshot`] while it matches, otherwise reloads all content
//! (it is configuration-sized). So a write on any replica is visible to the next read on every
//! replica, with no pub/sub message that could be missed; the cost is that one query per read.
//!
//! # First start, export and import
//!
//! [`seed_demo`] loads the demo brand of `webapp-server/content/` (embedded in the binary) into an
//! empty database once: the first replica to set `content_meta.seeded_at` wins, others (and later
//! starts) do nothing, and a database that already holds content is never reloaded.
//! [`export_dir`] / [`import_dir`] write and read the same layout: `{locale}/{type}.json` for
//! localized types and `global/{type}.json` for the others; a single type's file is an object of
//! its attributes, a collection's an array of entries with their `id`. An entry with
//! `"publishedAt": null` is a draft. Timestamps are not part of the files.

use super::schema::{self, Attr, ContentType, Kind, TYPES};
use crate::db::{Db, now_ms};
use croupier_shared::Locale;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Arc, RwLock};

/// Keys of a stored document that are not attributes.
pub const RESERVED: [&str; 6] = ["id", "locale", "createdAt", "updatedAt", "publishedAt", "localizations"];

/// The default locale: the fallback of every other.
pub const DEFAULT_LOCALE: &str = "en";

/// Directory name of types that are not localized, in exports.
const GLOBAL_DIR: &str = "global";

// ---------------------------------------------------------------------------------------------
// Snapshot and cache
// ---------------------------------------------------------------------------------------------

/// One locale variant of an entry, as the query evaluator sees it: attributes at the top, plus
/// `id`, `createdAt`, `updatedAt`, `publishedAt` and (localized types) `locale`; relations
/// joined in (their published variant of the same locale, with fallback).
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: i64,
    pub locale: String,
    pub published: bool,
    pub doc: Value,
}

/// Which variants a read wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocaleSel<'a> {
    /// This locale, falling back to the default locale per entry.
    One(&'a str),
    /// Every variant (`locale=all`).
    All,
}

/// All content at one version.
#[derive(Debug, Default)]
pub struct Snapshot {
    pub version: i64,
    /// Type (singular id) → entries ordered by id, then locale.
    entries: HashMap<&'static str, Vec<Entry>>,
}

impl Snapshot {
    /// The entries of `t` a read sees, in id order: published ones unless `preview`.
    pub fn variants(&self, t: &ContentType, locale: LocaleSel<'_>, preview: bool) -> Vec<&Entry> {
        let entries = self.entries.get(t.singular).map_or(&[][..], Vec::as_slice);
        let visible = entries.iter().filter(|e| preview || e.published);
        match (t.localized, locale) {
            (false, _) | (true, LocaleSel::All) => visible.collect(),
            (true, LocaleSel::One(code)) => {
                let mut out: Vec<&Entry> = Vec::new();
                let mut by_id: BTreeMap<i64, (Option<&Entry>, Option<&Entry>)> = BTreeMap::new();
                for e in visible {
                    let slot = by_id.entry(e.id).or_default();
                    if e.locale == code {
                        slot.0 = Some(e);
                    } else if e.locale == DEFAULT_LOCALE {
                        slot.1 = Some(e);
                    }
                }
                out.extend(by_id.into_values().filter_map(|(asked, fallback)| asked.or(fallback)));
                out
            }
        }
    }

    /// One entry by id, in `locale` with fallback.
    pub fn find_one(&self, t: &ContentType, id: i64, locale: LocaleSel<'_>, preview: bool) -> Option<&Entry> {
        self.variants(t, locale, preview).into_iter().find(|e| e.id == id)
    }

    /// A single type's published document in `locale` (with fallback), for the server's own use.
    pub fn single(&self, singular: &str, locale: &str) -> Option<&Value> {
        let t = schema::by_singular(singular)?;
        self.variants(t, LocaleSel::One(locale), false).into_iter().next().map(|e| &e.doc)
    }

    /// A collection's published documents in `locale` (with fallback), for the server's own use.
    pub fn collection(&self, singular: &str, locale: &str) -> Vec<&Value> {
        schema::by_singular(singular)
            .map(|t| self.variants(t, LocaleSel::One(locale), false).into_iter().map(|e| &e.doc).collect())
            .unwrap_or_default()
    }

    /// A snapshot of the given (type, id, locale, attributes) entries, all published.
    #[cfg(test)]
    pub fn for_tests(entries: Vec<(&'static ContentType, i64, &str, Map<String, Value>)>) -> Snapshot {
        let rows = entries
            .into_iter()
            .map(|(t, id, locale, data)| Row {
                t,
                id,
                locale: locale.to_owned(),
                data,
                published_at: Some(0),
                created_at: 0,
                updated_at: 0,
            })
            .collect();
        Snapshot::build(1, rows)
    }

    fn build(version: i64, rows: Vec<Row>) -> Snapshot {
        let mut raw: HashMap<&'static str, Vec<Row>> = HashMap::new();
        for row in rows {
            raw.entry(row.t.singular).or_default().push(row);
        }
        let mut snapshot = Snapshot { version, entries: HashMap::new() };
        // Relation targets come earlier in TYPES, so they are complete when joined.
        for t in TYPES {
            let mut rows = raw.remove(t.singular).unwrap_or_default();
            rows.sort_by(|a, b| (a.id, &a.locale).cmp(&(b.id, &b.locale)));
            let entries = rows
                .into_iter()
                .map(|row| {
                    let mut doc = row.document();
                    snapshot.join_relations(t, &row.locale, &mut doc);
                    Entry {
                        id: row.id,
                        locale: row.locale,
                        published: row.published_at.is_some(),
                        doc: Value::Object(doc),
                    }
                })
                .collect();
            snapshot.entries.insert(t.singular, entries);
        }
        snapshot
    }

    /// Replaces stored relation ids by the related entries.
    fn join_relations(&self, t: &ContentType, locale: &str, doc: &mut Map<String, Value>) {
        for (path, attr) in t.attributes {
            let Attr::Relation(target) = attr else { continue };
            let Some(target) = schema::by_singular(target) else { continue };
            let Some(value) = doc.get_mut(*path) else { continue };
            let locale = if locale.is_empty() { DEFAULT_LOCALE } else { locale };
            let related = self.variants(target, LocaleSel::One(locale), false);
            let resolve =
                |id: &Value| id.as_i64().and_then(|id| related.iter().find(|e| e.id == id)).map(|e| e.doc.clone());
            let joined = match &*value {
                Value::Array(ids) => Value::Array(ids.iter().filter_map(resolve).collect()),
                Value::Null => Value::Null,
                id => resolve(id).unwrap_or(Value::Null),
            };
            *value = joined;
        }
    }
}

/// This replica's copy of the content, checked against the database version on every read.
#[derive(Default)]
pub struct Cache {
    current: RwLock<Option<Arc<Snapshot>>>,
    reload: tokio::sync::Mutex<()>,
}

impl Cache {
    /// The content as of now.
    pub async fn snapshot(&self, db: &Db) -> Result<Arc<Snapshot>, sqlx::Error> {
        let version = current_version(db).await?;
        if let Some(snapshot) = self.peek()
            && snapshot.version == version
        {
            return Ok(snapshot);
        }
        let _one_loader = self.reload.lock().await;
        if let Some(snapshot) = self.peek()
            && snapshot.version >= version
        {
            return Ok(snapshot);
        }
        let snapshot = Arc::new(load(db).await?);
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Some(Arc::clone(&snapshot));
        Ok(snapshot)
    }

    fn peek(&self) -> Option<Arc<Snapshot>> {
        self.current.read().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

async fn current_version(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM content_meta WHERE id = 1").fetch_one(db.pool()).await
}

/// A stored row.
struct Row {
    t: &'static ContentType,
    id: i64,
    locale: String,
    data: Map<String, Value>,
    published_at: Option<i64>,
    created_at: i64,
    updated_at: i64,
}

impl Row {
    fn document(&self) -> Map<String, Value> {
        let mut doc = self.data.clone();
        doc.insert("id".into(), Value::from(self.id));
        if self.t.localized {
            doc.insert("locale".into(), Value::String(self.locale.clone()));
        }
        doc.insert("createdAt".into(), Value::String(iso8601(self.created_at)));
        doc.insert("updatedAt".into(), Value::String(iso8601(self.updated_at)));
        doc.insert("publishedAt".into(), self.published_at.map_or(Value::Null, |at| Value::String(iso8601(at))));
        doc
    }
}

type RawRow = (String, i64, String, String, Option<i64>, i64, i64);

const SELECT_ROWS: &str =
    "SELECT content_type, id, locale, data, published_at, created_at, updated_at FROM content_entries";

fn parse_rows(raw: Vec<RawRow>) -> Vec<Row> {
    raw.into_iter()
        .filter_map(|(type_name, id, locale, data, published_at, created_at, updated_at)| {
            let Some(t) = schema::by_singular(&type_name) else {
                tracing::warn!(content_type = type_name, "stored content of an unknown type is ignored");
                return None;
            };
            match serde_json::from_str::<Map<String, Value>>(&data) {
                Ok(data) => Some(Row { t, id, locale, data, published_at, created_at, updated_at }),
                Err(e) => {
                    tracing::warn!(content_type = type_name, id, error = %e, "stored content is not a JSON object");
                    None
                }
            }
        })
        .collect()
}

/// Reads all content. The version is read first, so the entries are at least that new.
async fn load(db: &Db) -> Result<Snapshot, sqlx::Error> {
    let version = current_version(db).await?;
    let raw: Vec<RawRow> = sqlx::query_as(SELECT_ROWS).fetch_all(db.pool()).await?;
    Ok(Snapshot::build(version, parse_rows(raw)))
}

/// `2026-01-02T03:04:05.678Z` from unix milliseconds (Strapi's timestamp format).
pub fn iso8601(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rest = ms.rem_euclid(86_400_000);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s, milli) = (rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

// ---------------------------------------------------------------------------------------------
// Checking and normalising documents
// ---------------------------------------------------------------------------------------------

/// One refused attribute: its path (`footer.columns.0.title`) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub path: String,
    pub message: String,
}

impl Issue {
    fn new(path: impl Into<String>, message: impl Into<String>) -> Issue {
        Issue { path: path.into(), message: message.into() }
    }
}

/// A checked document: its attributes in storage form and the relation ids it points at.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub data: Map<String, Value>,
    pub relations: Vec<(&'static str, i64)>,
}

fn is_attribute_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.len() <= 128
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Checks attributes for `t` and brings them to storage form: media as Strapi file objects with
/// ids, components with ids, relations as ids. `existing` (an update) is merged under `attrs`
/// (Strapi's PUT changes only the attributes it is given).
pub fn prepare(
    t: &'static ContentType,
    attrs: &Map<String, Value>,
    existing: Option<&Map<String, Value>>,
) -> Result<Prepared, Vec<Issue>> {
    let mut issues = Vec::new();
    let mut data = existing.cloned().unwrap_or_default();
    let mut relations = Vec::new();
    for (key, value) in attrs {
        if RESERVED.contains(&key.as_str()) {
            continue;
        }
        if !is_attribute_name(key) {
            issues.push(Issue::new(key.clone(), "is not a valid attribute name"));
            continue;
        }
        let normalised = normalise(t, key, key, value, &mut issues, &mut relations);
        data.insert(key.clone(), normalised);
    }
    assign_component_ids(t, &mut data);
    for required in t.required {
        let missing = match data.get(*required) {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.trim().is_empty(),
            Some(_) => false,
        };
        if missing {
            issues.push(Issue::new(*required, "is a required field"));
        }
    }
    check_type_rules(t, &data, &mut issues);
    if issues.is_empty() { Ok(Prepared { data, relations }) } else { Err(issues) }
}

fn normalise(
    t: &ContentType,
    schema_path: &str,
    shown_path: &str,
    value: &Value,
    issues: &mut Vec<Issue>,
    relations: &mut Vec<(&'static str, i64)>,
) -> Value {
    match t.attr(schema_path) {
        None => value.clone(),
        Some(Attr::Component) => {
            let component =
                |item: &Map<String, Value>, shown: &str, issues: &mut Vec<Issue>, relations: &mut Vec<_>| {
                    let mut out = Map::new();
                    for (key, child) in item {
                        if key == "id" || key == "__component" {
                            out.insert(key.clone(), child.clone());
                            continue;
                        }
                        if !is_attribute_name(key) {
                            issues.push(Issue::new(format!("{shown}.{key}"), "is not a valid attribute name"));
                            continue;
                        }
                        let child_schema = format!("{schema_path}.{key}");
                        let child_shown = format!("{shown}.{key}");
                        out.insert(key.clone(), normalise(t, &child_schema, &child_shown, child, issues, relations));
                    }
                    Value::Object(out)
                };
            match value {
                Value::Null => Value::Null,
                Value::Object(item) => component(item, shown_path, issues, relations),
                Value::Array(items) => Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| match item {
                            Value::Object(item) => component(item, &format!("{shown_path}.{i}"), issues, relations),
                            _ => {
                                issues.push(Issue::new(format!("{shown_path}.{i}"), "must be a component (an object)"));
                                Value::Null
                            }
                        })
                        .collect(),
                ),
                _ => {
                    issues.push(Issue::new(shown_path, "must be a component (an object), a list of them or null"));
                    Value::Null
                }
            }
        }
        Some(Attr::Media) => match value {
            Value::Null => Value::Null,
            Value::Array(items) => Value::Array(
                items.iter().enumerate().map(|(i, item)| media(item, &format!("{shown_path}.{i}"), issues)).collect(),
            ),
            single => media(single, shown_path, issues),
        },
        Some(Attr::Relation(target)) => {
            let target: &'static str = target;
            let mut id_of = |item: &Value, shown: &str, issues: &mut Vec<Issue>| -> Value {
                let id = match item {
                    Value::Object(map) => map.get("id").and_then(Value::as_i64),
                    other => other.as_i64(),
                };
                match id {
                    Some(id) if id > 0 => {
                        relations.push((target, id));
                        Value::from(id)
                    }
                    _ => {
                        issues.push(Issue::new(shown, format!("must be the id of a {target} entry")));
                        Value::Null
                    }
                }
            };
            // Strapi's relation syntax: an id, a list of ids, or `{set: [...]}` / `{connect: [...]}`.
            let value = match value {
                Value::Object(map) if map.contains_key("set") || map.contains_key("connect") => {
                    map.get("set").or_else(|| map.get("connect")).unwrap_or(&Value::Null)
                }
                other => other,
            };
            match value {
                Value::Null => Value::Null,
                Value::Array(items) => Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| id_of(item, &format!("{shown_path}.{i}"), issues))
                        .collect(),
                ),
                single => id_of(single, shown_path, issues),
            }
        }
    }
}

/// A media value in storage form: Strapi's upload-file object, from a URL or such an object.
fn media(value: &Value, shown: &str, issues: &mut Vec<Issue>) -> Value {
    let mut file = match value {
        Value::String(url) => {
            let mut file = Map::new();
            file.insert("url".into(), Value::String(url.clone()));
            file
        }
        Value::Object(map) if map.get("url").is_some_and(Value::is_string) => map.clone(),
        _ => {
            issues.push(Issue::new(shown, "must be a file: a URL or an object with a `url`"));
            return Value::Null;
        }
    };
    let url = file.get("url").and_then(Value::as_str).unwrap_or("").to_owned();
    let safe =
        (url.starts_with('/') && !url.starts_with("//")) || url.starts_with("https://") || url.starts_with("http://");
    if !safe || url.chars().any(|c| c.is_whitespace() || c == '"' || c == '<' || c == '>') {
        issues.push(Issue::new(shown, "must be a site path or an http(s) URL"));
    }
    let name = url.rsplit('/').next().unwrap_or("").split(['?', '#']).next().unwrap_or("").to_owned();
    let ext = name.rsplit_once('.').map(|(_, ext)| format!(".{}", ext.to_ascii_lowercase())).unwrap_or_default();
    file.entry("id").or_insert_with(|| Value::from(media_id(&url)));
    file.entry("name").or_insert_with(|| Value::String(name));
    file.entry("mime").or_insert_with(|| mime_of(&ext).map_or(Value::Null, |m| Value::String(m.into())));
    file.entry("ext").or_insert_with(|| Value::String(ext));
    for key in ["alternativeText", "width", "height"] {
        file.entry(key).or_insert(Value::Null);
    }
    Value::Object(file)
}

/// A stable id for a file known only by its URL (there is no upload library to number them).
fn media_id(url: &str) -> i64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in url.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    i64::try_from(hash % 2_000_000_000).unwrap_or(0) + 1
}

fn mime_of(ext: &str) -> Option<&'static str> {
    Some(match ext {
        ".svg" => "image/svg+xml",
        ".png" => "image/png",
        ".jpg" | ".jpeg" => "image/jpeg",
        ".webp" => "image/webp",
        ".gif" => "image/gif",
        ".ico" => "image/x-icon",
        ".mp3" => "audio/mpeg",
        ".json" | ".webmanifest" => "application/manifest+json",
        _ => return None,
    })
}

/// Gives every component object without an id the next free one (Strapi numbers components).
fn assign_component_ids(t: &ContentType, data: &mut Map<String, Value>) {
    fn walk(t: &ContentType, path: &str, value: &mut Value, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
        if t.attr(path) != Some(Attr::Component) {
            return;
        }
        let items: Vec<&mut Value> = match value {
            Value::Array(items) => items.iter_mut().collect(),
            other => vec![other],
        };
        for item in items {
            if let Value::Object(map) = item {
                visit(map);
                for (key, child) in map.iter_mut() {
                    walk(t, &format!("{path}.{key}"), child, visit);
                }
            }
        }
    }
    let mut max = 0;
    for (key, value) in data.iter_mut() {
        walk(t, key, value, &mut |map| max = max.max(map.get("id").and_then(Value::as_i64).unwrap_or(0)));
    }
    for (key, value) in data.iter_mut() {
        walk(t, key, value, &mut |map| {
            if !map.get("id").is_some_and(Value::is_i64) {
                max += 1;
                map.insert("id".into(), Value::from(max));
            }
        });
    }
}

fn text<'a>(data: &'a Map<String, Value>, key: &str) -> &'a str {
    data.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Rules of particular types, beyond shapes.
fn check_type_rules(t: &ContentType, data: &Map<String, Value>, issues: &mut Vec<Issue>) {
    match t.singular {
        "page" => {
            let slug = text(data, "slug");
            let well_formed = !slug.is_empty()
                && slug
                    .split('-')
                    .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
            if !slug.is_empty() && !well_formed {
                issues.push(Issue::new("slug", "must be lower-case letters and digits joined by single dashes"));
            } else if !slug.is_empty() && super::seo::is_route_segment(slug) {
                issues.push(Issue::new("slug", "is a route of the site and cannot be a content page"));
            }
        }
        "page-seo" => {
            let url = text(data, "url");
            if !url.is_empty() && (!url.starts_with('/') || super::seo::has_locale_prefix(url)) {
                issues.push(Issue::new("url", "must be a site path without the locale prefix, like /gamehall"));
            }
        }
        "redirect" => {
            let (from, to) = (text(data, "from_url"), text(data, "to_url"));
            if !from.is_empty() && !from.starts_with('/') {
                issues.push(Issue::new("from_url", "must be a site path starting with /"));
            }
            let internal = to.starts_with('/') && !to.starts_with("//");
            if !(to.is_empty() || internal || to.starts_with("https://") || to.starts_with("http://")) {
                issues.push(Issue::new("to_url", "must be a site path or an http(s) URL"));
            }
            if !from.is_empty() && from == to {
                issues.push(Issue::new("to_url", "must differ from from_url"));
            }
        }
        "domain-seo" => {
            let host = text(data, "host");
            if !host.is_empty()
                && !host.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-.:".contains(&b))
            {
                issues.push(Issue::new("host", "must be a lower-case host name, optionally with a port"));
            }
        }
        "common" => {
            if let Some(Value::Array(entries)) = data.get("customCode") {
                for (i, entry) in entries.iter().enumerate() {
                    let position = entry.get("position").and_then(Value::as_str).unwrap_or("");
                    if !matches!(position, "head" | "bodyStart" | "bodyEnd") {
                        issues
                            .push(Issue::new(format!("customCode.{i}.position"), "must be head, bodyStart or bodyEnd"));
                    }
                }
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("invalid content")]
    Invalid(Vec<Issue>),
    #[error("no such entry")]
    NotFound,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// What a write asks for.
#[derive(Debug, Clone)]
pub struct Change<'a> {
    pub t: &'static ContentType,
    /// `None` creates a new entry of a collection.
    pub id: Option<i64>,
    /// `''` for types that are not localized.
    pub locale: &'a str,
    pub attrs: &'a Map<String, Value>,
    /// `Some(false)`: keep as a draft; `Some(true)`: publish; `None`: publish when creating,
    /// keep the state when updating.
    pub publish: Option<bool>,
}

/// Creates or updates one locale variant; answers its id.
pub async fn save(db: &Db, change: Change<'_>) -> Result<i64, WriteError> {
    let t = change.t;
    let mut tx = db.begin().await?;
    bump_version(&mut tx).await?;
    let id = match (change.id, t.kind) {
        (Some(id), _) => id,
        (None, Kind::Single) => 1,
        (None, Kind::Collection) => {
            let max: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM content_entries WHERE content_type = $1")
                .bind(t.singular)
                .fetch_one(&mut *tx)
                .await?;
            max.unwrap_or(0) + 1
        }
    };
    let existing: Option<(String, Option<i64>)> = sqlx::query_as(
        "SELECT data, published_at FROM content_entries WHERE content_type = $1 AND id = $2 AND locale = $3",
    )
    .bind(t.singular)
    .bind(id)
    .bind(change.locale)
    .fetch_optional(&mut *tx)
    .await?;
    if change.id.is_some() && t.kind == Kind::Collection && existing.is_none() {
        let any: Option<i64> = sqlx::query_scalar("SELECT id FROM content_entries WHERE content_type = $1 AND id = $2")
            .bind(t.singular)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        if any.is_none() {
            return Err(WriteError::NotFound);
        }
    }
    let existing_data = existing.as_ref().and_then(|(data, _)| serde_json::from_str::<Map<String, Value>>(data).ok());
    let prepared = prepare(t, change.attrs, existing_data.as_ref()).map_err(WriteError::Invalid)?;
    let mut issues = Vec::new();
    for (target, target_id) in &prepared.relations {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT id FROM content_entries WHERE content_type = $1 AND id = $2")
                .bind(*target)
                .bind(*target_id)
                .fetch_optional(&mut *tx)
                .await?;
        if found.is_none() {
            issues.push(Issue::new(*target, format!("there is no {target} with id {target_id}")));
        }
    }
    if let Some(unique) = t.unique
        && let Some(value) = prepared.data.get(unique)
    {
        let others: Vec<(i64, String)> =
            sqlx::query_as("SELECT id, data FROM content_entries WHERE content_type = $1 AND locale = $2 AND id <> $3")
                .bind(t.singular)
                .bind(change.locale)
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        let taken = others.iter().any(|(_, data)| {
            serde_json::from_str::<Map<String, Value>>(data).is_ok_and(|other| other.get(unique) == Some(value))
        });
        if taken {
            issues.push(Issue::new(unique, "This attribute must be unique"));
        }
    }
    if !issues.is_empty() {
        return Err(WriteError::Invalid(issues));
    }
    let now = now_ms();
    let published_at = match (change.publish, &existing) {
        (Some(false), _) => None,
        (Some(true), Some((_, Some(at)))) => Some(*at),
        (None, Some((_, at))) => *at,
        (Some(true) | None, _) => Some(now),
    };
    let data = Value::Object(prepared.data).to_string();
    if existing.is_some() {
        sqlx::query(
            "UPDATE content_entries SET data = $1, published_at = $2, updated_at = $3 \
             WHERE content_type = $4 AND id = $5 AND locale = $6",
        )
        .bind(data)
        .bind(published_at)
        .bind(now)
        .bind(t.singular)
        .bind(id)
        .bind(change.locale)
        .execute(&mut *tx)
        .await?;
    } else {
        insert(&mut tx, t.singular, id, change.locale, &data, published_at, now).await?;
    }
    tx.commit().await?;
    Ok(id)
}

/// Deletes one locale variant (`Some(locale)`) or every variant of an entry.
pub async fn delete(db: &Db, t: &ContentType, id: i64, locale: Option<&str>) -> Result<(), WriteError> {
    let mut tx = db.begin().await?;
    bump_version(&mut tx).await?;
    let result = match locale {
        Some(locale) => {
            sqlx::query("DELETE FROM content_entries WHERE content_type = $1 AND id = $2 AND locale = $3")
                .bind(t.singular)
                .bind(id)
                .bind(locale)
                .execute(&mut *tx)
                .await?
        }
        None => {
            sqlx::query("DELETE FROM content_entries WHERE content_type = $1 AND id = $2")
                .bind(t.singular)
                .bind(id)
                .execute(&mut *tx)
                .await?
        }
    };
    if result.rows_affected() == 0 {
        return Err(WriteError::NotFound);
    }
    tx.commit().await?;
    Ok(())
}

/// Takes the content write lock (the `content_meta` row) and moves the version on.
async fn bump_version(tx: &mut sqlx::Transaction<'static, sqlx::Any>) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE content_meta SET version = version + 1 WHERE id = 1").execute(&mut **tx).await?;
    Ok(())
}

async fn insert(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    type_name: &str,
    id: i64,
    locale: &str,
    data: &str,
    published_at: Option<i64>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO content_entries (content_type, id, locale, data, published_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(type_name)
    .bind(id)
    .bind(locale)
    .bind(data)
    .bind(published_at)
    .bind(now)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Bundles: the file form of all content (demo, export, import)
// ---------------------------------------------------------------------------------------------

/// One entry variant of a bundle, checked.
#[derive(Debug, Clone)]
struct BundleEntry {
    t: &'static ContentType,
    id: i64,
    locale: String,
    data: Map<String, Value>,
    published: bool,
}

/// All content in file form: relative path (`en/common.json`) → JSON text.
pub type Files = BTreeMap<String, String>;

/// The path of a type's file for a locale (`''` for types that are not localized).
fn file_path(t: &ContentType, locale: &str) -> String {
    let dir = if t.localized { locale } else { GLOBAL_DIR };
    format!("{dir}/{}.json", t.singular)
}

/// Reads and checks a bundle; every problem is reported with its file.
fn parse_bundle(files: &Files) -> Result<Vec<BundleEntry>, Vec<String>> {
    let mut errors = Vec::new();
    let mut entries = Vec::new();
    let mut known = Vec::new();
    for t in TYPES {
        let locales: Vec<&str> = if t.localized { Locale::ALL.iter().map(|l| l.code()).collect() } else { vec![""] };
        for locale in locales {
            let path = file_path(t, locale);
            let Some(text) = files.get(&path) else { continue };
            known.push(path.clone());
            let value: Value = match serde_json::from_str(text) {
                Ok(value) => value,
                Err(e) => {
                    errors.push(format!("{path}: not JSON: {e}"));
                    continue;
                }
            };
            let items: Vec<(i64, Map<String, Value>)> = match (t.kind, value) {
                (Kind::Single, Value::Object(map)) => vec![(1, map)],
                (Kind::Collection, Value::Array(items)) => {
                    let mut out = Vec::new();
                    for (i, item) in items.into_iter().enumerate() {
                        match item {
                            Value::Object(map) => match map.get("id").and_then(Value::as_i64).filter(|id| *id > 0) {
                                Some(id) if out.iter().any(|(other, _)| *other == id) => {
                                    errors.push(format!("{path}: entry {i}: id {id} is used twice"));
                                }
                                Some(id) => out.push((id, map)),
                                None => errors.push(format!("{path}: entry {i}: needs a positive integer `id`")),
                            },
                            _ => errors.push(format!("{path}: entry {i} is not an object")),
                        }
                    }
                    out
                }
                (Kind::Single, _) => {
                    errors.push(format!("{path}: a single type's file holds one object"));
                    continue;
                }
                (Kind::Collection, _) => {
                    errors.push(format!("{path}: a collection's file holds an array of entries"));
                    continue;
                }
            };
            let mut unique_values: Vec<Value> = Vec::new();
            for (id, map) in items {
                let published = !matches!(map.get("publishedAt"), Some(Value::Null));
                match prepare(t, &map, None) {
                    Ok(prepared) => {
                        if let Some(unique) = t.unique
                            && let Some(value) = prepared.data.get(unique)
                        {
                            if unique_values.contains(value) {
                                errors.push(format!("{path}: entry {id}: {unique} {value} is used twice"));
                            }
                            unique_values.push(value.clone());
                        }
                        entries.push(BundleEntry { t, id, locale: locale.to_owned(), data: prepared.data, published });
                        for (target, target_id) in prepared.relations {
                            let exists = |e: &BundleEntry| e.t.singular == target && e.id == target_id;
                            if !entries.iter().any(exists) {
                                errors.push(format!("{path}: entry {id}: there is no {target} with id {target_id}"));
                            }
                        }
                    }
                    Err(issues) => {
                        for issue in issues {
                            errors.push(format!("{path}: entry {id}: {} {}", issue.path, issue.message));
                        }
                    }
                }
            }
        }
    }
    for path in files.keys() {
        if !known.contains(path) {
            errors.push(format!(
                "{path}: not a content file (expected {{locale}}/{{type}}.json or global/{{type}}.json)"
            ));
        }
    }
    if errors.is_empty() { Ok(entries) } else { Err(errors) }
}

async fn insert_bundle(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    entries: &[BundleEntry],
) -> Result<(), sqlx::Error> {
    let now = now_ms();
    for e in entries {
        let data = Value::Object(e.data.clone()).to_string();
        insert(tx, e.t.singular, e.id, &e.locale, &data, e.published.then_some(now), now).await?;
    }
    Ok(())
}

/// The demo brand, embedded from `webapp-server/content/`.
pub fn demo_files() -> Files {
    super::demo::FILES.iter().map(|(path, text)| ((*path).to_owned(), (*text).to_owned())).collect()
}

/// Loads the demo content into an empty database, once (see the module docs). Answers whether
/// this call loaded it.
pub async fn seed_demo(db: &Db) -> anyhow::Result<bool> {
    let entries =
        parse_bundle(&demo_files()).map_err(|errors| anyhow::anyhow!("demo content: {}", errors.join("; ")))?;
    let mut tx = db.begin().await?;
    let claimed = sqlx::query("UPDATE content_meta SET seeded_at = $1 WHERE id = 1 AND seeded_at IS NULL")
        .bind(now_ms())
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if claimed == 0 {
        return Ok(false);
    }
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM content_entries").fetch_one(&mut *tx).await?;
    if count > 0 {
        tx.commit().await?;
        return Ok(false);
    }
    bump_version(&mut tx).await?;
    insert_bundle(&mut tx, &entries).await?;
    tx.commit().await?;
    tracing::info!(entries = entries.len(), "demo content loaded");
    Ok(true)
}

/// Replaces all content with the bundle's (after checking all of it); answers the entry count.
pub async fn import(db: &Db, files: &Files) -> anyhow::Result<usize> {
    let entries = parse_bundle(files).map_err(|errors| anyhow::anyhow!("{}", errors.join("\n")))?;
    let mut tx = db.begin().await?;
    bump_version(&mut tx).await?;
    sqlx::query("UPDATE content_meta SET seeded_at = COALESCE(seeded_at, $1) WHERE id = 1")
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM content_entries").execute(&mut *tx).await?;
    insert_bundle(&mut tx, &entries).await?;
    tx.commit().await?;
    Ok(entries.len())
}

/// All stored content in file form.
pub async fn export(db: &Db) -> anyhow::Result<Files> {
    let raw: Vec<RawRow> = sqlx::query_as(SELECT_ROWS).fetch_all(db.pool()).await?;
    let mut rows = parse_rows(raw);
    rows.sort_by(|a, b| (a.id, &a.locale).cmp(&(b.id, &b.locale)));
    let mut files = Files::new();
    for t in TYPES {
        let mut by_file: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for row in rows.iter().filter(|r| std::ptr::eq(r.t, t)) {
            let mut doc = row.data.clone();
            if t.kind == Kind::Collection {
                doc.insert("id".into(), Value::from(row.id));
            }
            if row.published_at.is_none() {
                doc.insert("publishedAt".into(), Value::Null);
            }
            by_file.entry(file_path(t, &row.locale)).or_default().push(Value::Object(doc));
        }
        for (path, mut docs) in by_file {
            let value = match t.kind {
                Kind::Single => docs.pop().unwrap_or(Value::Null),
                Kind::Collection => Value::Array(docs),
            };
            files.insert(path, format!("{}\n", serde_json::to_string_pretty(&value)?));
        }
    }
    Ok(files)
}

/// Writes [`export`] under `dir`, which must be missing or empty (so no stale file survives).
pub async fn export_dir(db: &Db, dir: &Path) -> anyhow::Result<usize> {
    use anyhow::Context as _;
    if dir.exists() && std::fs::read_dir(dir)?.next().is_some() {
        anyhow::bail!("{} is not empty; export into a new or empty directory", dir.display());
    }
    let files = export(db).await?;
    for (path, text) in &files {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&target, text).with_context(|| format!("cannot write {}", target.display()))?;
    }
    Ok(files.len())
}

/// Reads every `*.json` file one or two levels under `dir` and [`import`]s them.
pub async fn import_dir(db: &Db, dir: &Path) -> anyhow::Result<usize> {
    use anyhow::Context as _;
    let mut files = Files::new();
    for sub in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let sub = sub?;
        let name = sub.file_name().to_string_lossy().into_owned();
        if !sub.file_type()?.is_dir() {
            anyhow::bail!("{name}: content files live in {{locale}}/ or global/ folders");
        }
        for file in std::fs::read_dir(sub.path())? {
            let file = file?;
            let path = format!("{name}/{}", file.file_name().to_string_lossy());
            let text = std::fs::read_to_string(file.path()).with_context(|| format!("cannot read {path}"))?;
            files.insert(path, text);
        }
    }
    import(db, &files).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn timestamps_are_written_like_strapi() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_767_323_045_678), "2026-01-02T03:04:05.678Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn the_demo_content_is_a_valid_bundle_with_both_locales() {
        let entries = parse_bundle(&demo_files()).unwrap_or_else(|e| panic!("{}", e.join("\n")));
        for t in TYPES {
            let locales: Vec<&str> =
                entries.iter().filter(|e| std::ptr::eq(e.t, t)).map(|e| e.locale.as_str()).collect();
            if t.localized {
                assert!(locales.contains(&"en") && locales.contains(&"fr"), "{} needs en and fr", t.singular);
            } else {
                assert!(locales.contains(&""), "{} has demo content", t.singular);
            }
        }
    }

    #[test]
    fn every_demo_file_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let embedded = demo_files();
        for dir in std::fs::read_dir(&root).unwrap() {
            let dir = dir.unwrap();
            if !dir.file_type().unwrap().is_dir() || dir.file_name() == "media" {
                continue;
            }
            for file in std::fs::read_dir(dir.path()).unwrap() {
                let path =
                    format!("{}/{}", dir.file_name().to_string_lossy(), file.unwrap().file_name().to_string_lossy());
                assert!(embedded.contains_key(&path), "{path} is not listed in demo.rs");
            }
        }
    }

    #[test]
    fn every_file_the_demo_content_names_is_served() {
        for (path, text) in super::super::demo::FILES {
            for piece in text.split("\"/uploads/").skip(1) {
                let name = piece.split('"').next().unwrap();
                assert!(super::super::demo::MEDIA.iter().any(|(m, _)| *m == name), "{path} names /uploads/{name}");
            }
        }
    }

    #[test]
    fn media_and_components_get_storage_form() {
        let t = schema::by_singular("common").unwrap();
        let prepared = prepare(
            t,
            &map(json!({"footer": {"licenses": [{"title": "A", "image": "/uploads/a.svg"}]}, "menu": [{"id": 7}, {}]})),
            None,
        )
        .unwrap();
        let license = &prepared.data["footer"]["licenses"][0];
        assert_eq!(license["image"]["url"], "/uploads/a.svg");
        assert_eq!(license["image"]["mime"], "image/svg+xml");
        assert_eq!(license["image"]["name"], "a.svg");
        assert!(license["image"]["id"].as_i64().is_some_and(|id| id > 0));
        assert!(license["id"].is_i64() && prepared.data["footer"]["id"].is_i64());
        assert_eq!(prepared.data["menu"][0]["id"], 7, "a given component id is kept");
        assert!(prepared.data["menu"][1]["id"].as_i64().is_some_and(|id| id > 7));
        let again = prepare(t, &prepared.data, None).unwrap();
        assert_eq!(again.data, prepared.data, "storage form is stable");
    }

    #[test]
    fn shapes_and_rules_are_checked() {
        let page = schema::by_singular("page").unwrap();
        let issues = prepare(page, &map(json!({"slug": "gamehall", "title": ""})), None).unwrap_err();
        let paths: Vec<&str> = issues.iter().map(|i| i.path.as_str()).collect();
        assert_eq!(paths, vec!["title", "slug"]);
        let issues =
            prepare(page, &map(json!({"slug": "About Us", "title": "x", "seo": 3, "cover": 5})), None).unwrap_err();
        let paths: Vec<&str> = issues.iter().map(|i| i.path.as_str()).collect();
        assert_eq!(paths, vec!["cover", "seo", "slug"]);
        let redirect = schema::by_singular("redirect").unwrap();
        assert!(prepare(redirect, &map(json!({"from_url": "/a", "to_url": "javascript:x"})), None).is_err());
        assert!(prepare(redirect, &map(json!({"from_url": "/a*", "to_url": "https://example.com/*"})), None).is_ok());
        let config = schema::by_singular("prazer-config").unwrap();
        let prepared = prepare(config, &map(json!({"popupFallbacks": {"set": [{"id": 2}, 3]}})), None).unwrap();
        assert_eq!(prepared.data["popupFallbacks"], json!([2, 3]));
        assert_eq!(prepared.relations, vec![("popup", 2), ("popup", 3)]);
    }

    #[test]
    fn an_update_changes_only_the_given_attributes() {
        let t = schema::by_singular("page").unwrap();
        let existing = map(json!({"slug": "about", "title": "About", "content": "x"}));
        let prepared = prepare(t, &map(json!({"title": "About us", "id": 99})), Some(&existing)).unwrap();
        assert_eq!(prepared.data, map(json!({"slug": "about", "title": "About us", "content": "x"})));
    }
}
