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

mod bundle;
mod documents;
#[cfg(test)]
mod tests;
mod write;

pub use bundle::{Files, demo_files, export, export_dir, import, import_dir, seed_demo};
pub use documents::{Issue, Prepared, prepare};
pub use write::{Change, Tx, WriteError, begin, delete, delete_in, save, save_in, stored};

use super::schema::{self, Attr, ContentType, Kind, TYPES};
use crate::db::{Db, now_ms};
use crate::hot::Versioned;
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

/// How long a replica trusts the content version it last read, when no change was announced to
/// it (a write on another replica announces itself through the coordination store; only a write
/// by another process without Redis — `content import` — waits this long to be seen).
pub const VERSION_TTL: std::time::Duration = std::time::Duration::from_secs(1);

/// This replica's copy of the content, checked against the database version when a change is
/// announced ([`crate::hot::content_epoch`]) and at least every [`VERSION_TTL`].
#[derive(Default)]
pub struct Cache {
    current: RwLock<Option<Arc<Snapshot>>>,
    /// The content API's published answers (`/cms/api`), per query as sent.
    answers: Versioned<bytes::Bytes>,
    /// The epoch and the time of the last version check that matched `current`.
    checked: std::sync::Mutex<Option<(u64, std::time::Instant)>>,
    reload: tokio::sync::Mutex<()>,
}

impl Cache {
    /// The content as of now.
    pub async fn snapshot(&self, db: &Db) -> Result<Arc<Snapshot>, sqlx::Error> {
        let epoch = crate::hot::content_epoch();
        if let Some((at_epoch, at)) = *self.checked.lock().unwrap_or_else(|p| p.into_inner())
            && at_epoch == epoch
            && at.elapsed() < VERSION_TTL
            && let Some(snapshot) = self.peek()
        {
            return Ok(snapshot);
        }
        let version = current_version(db).await?;
        if let Some(snapshot) = self.peek()
            && snapshot.version == version
        {
            self.checked_at(epoch);
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
        self.checked_at(epoch);
        Ok(snapshot)
    }

    /// Records a version check made under `epoch` (read before the check's query).
    fn checked_at(&self, epoch: u64) {
        *self.checked.lock().unwrap_or_else(|p| p.into_inner()) = Some((epoch, std::time::Instant::now()));
    }

    /// The content API's published answers kept for the current version.
    pub fn answers(&self) -> &Versioned<bytes::Bytes> {
        &self.answers
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
    let (year, month, day) = croupier_platform::time::civil_from_days(ms.div_euclid(86_400_000));
    let rest = ms.rem_euclid(86_400_000);
    let (h, m, s, milli) = (rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}
