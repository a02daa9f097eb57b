//! Bundles, the file form of all content: the demo brand, export and import.

use super::write::{bump_version, insert};
use super::*;

/// One entry variant of a bundle, checked.
#[derive(Debug, Clone)]
pub(super) struct BundleEntry {
    pub(super) t: &'static ContentType,
    pub(super) id: i64,
    pub(super) locale: String,
    pub(super) data: Map<String, Value>,
    pub(super) published: bool,
}

/// All content in file form: relative path (`en/common.json`) → JSON text.
pub type Files = BTreeMap<String, String>;

/// The path of a type's file for a locale (`''` for types that are not localized).
pub(super) fn file_path(t: &ContentType, locale: &str) -> String {
    let dir = if t.localized { locale } else { GLOBAL_DIR };
    format!("{dir}/{}.json", t.singular)
}

/// Reads and checks a bundle; every problem is reported with its file.
pub(super) fn parse_bundle(files: &Files) -> Result<Vec<BundleEntry>, Vec<String>> {
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

pub(super) async fn insert_bundle(
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
    super::super::demo::FILES.iter().map(|(path, text)| ((*path).to_owned(), (*text).to_owned())).collect()
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
    crate::hot::content_changed();
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
    crate::hot::content_changed();
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
