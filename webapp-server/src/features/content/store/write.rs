//! Writing entries: one transaction per change, the content version bumped with it.

use super::*;

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
    let mut tx = begin(db).await?;
    let id = save_in(&mut tx, change).await?;
    tx.commit().await?;
    crate::hot::content_changed();
    Ok(id)
}

/// The transaction a content write runs in (see [`begin`]).
pub type Tx = sqlx::Transaction<'static, sqlx::Any>;

/// Opens a content write: a transaction holding the content write lock, the version already
/// moved on. Run [`save_in`] / [`delete_in`] (and the caller's own rows, e.g. an audit row) in
/// it, commit, then call [`crate::hot::content_changed`].
pub async fn begin(db: &Db) -> Result<Tx, sqlx::Error> {
    let mut tx = db.begin().await?;
    bump_version(&mut tx).await?;
    Ok(tx)
}

/// A stored variant's attributes (storage form) and its publication time, read in `tx`.
pub async fn stored(
    tx: &mut Tx,
    t: &ContentType,
    id: i64,
    locale: &str,
) -> Result<Option<(Map<String, Value>, Option<i64>)>, sqlx::Error> {
    let row: Option<(String, Option<i64>)> = sqlx::query_as(
        "SELECT data, published_at FROM content_entries WHERE content_type = $1 AND id = $2 AND locale = $3",
    )
    .bind(t.singular)
    .bind(id)
    .bind(locale)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|(data, at)| (serde_json::from_str(&data).unwrap_or_default(), at)))
}

/// [`save`] inside a content write opened by [`begin`] (nothing committed, nothing announced).
pub async fn save_in(tx: &mut Tx, change: Change<'_>) -> Result<i64, WriteError> {
    let t = change.t;
    let id = match (change.id, t.kind) {
        (Some(id), _) => id,
        (None, Kind::Single) => 1,
        (None, Kind::Collection) => {
            let max: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM content_entries WHERE content_type = $1")
                .bind(t.singular)
                .fetch_one(&mut **tx)
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
    .fetch_optional(&mut **tx)
    .await?;
    if change.id.is_some() && t.kind == Kind::Collection && existing.is_none() {
        let any: Option<i64> = sqlx::query_scalar("SELECT id FROM content_entries WHERE content_type = $1 AND id = $2")
            .bind(t.singular)
            .bind(id)
            .fetch_optional(&mut **tx)
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
                .fetch_optional(&mut **tx)
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
                .fetch_all(&mut **tx)
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
        .execute(&mut **tx)
        .await?;
    } else {
        insert(tx, t.singular, id, change.locale, &data, published_at, now).await?;
    }
    Ok(id)
}

/// Deletes one locale variant (`Some(locale)`) or every variant of an entry.
pub async fn delete(db: &Db, t: &ContentType, id: i64, locale: Option<&str>) -> Result<(), WriteError> {
    let mut tx = begin(db).await?;
    delete_in(&mut tx, t, id, locale).await?;
    tx.commit().await?;
    crate::hot::content_changed();
    Ok(())
}

/// [`delete`] inside a content write opened by [`begin`].
pub async fn delete_in(tx: &mut Tx, t: &ContentType, id: i64, locale: Option<&str>) -> Result<(), WriteError> {
    let result = match locale {
        Some(locale) => {
            sqlx::query("DELETE FROM content_entries WHERE content_type = $1 AND id = $2 AND locale = $3")
                .bind(t.singular)
                .bind(id)
                .bind(locale)
                .execute(&mut **tx)
                .await?
        }
        None => {
            sqlx::query("DELETE FROM content_entries WHERE content_type = $1 AND id = $2")
                .bind(t.singular)
                .bind(id)
                .execute(&mut **tx)
                .await?
        }
    };
    if result.rows_affected() == 0 {
        return Err(WriteError::NotFound);
    }
    Ok(())
}

/// Takes the content write lock (the `content_meta` row) and moves the version on.
pub(super) async fn bump_version(tx: &mut sqlx::Transaction<'static, sqlx::Any>) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE content_meta SET version = version + 1 WHERE id = 1").execute(&mut **tx).await?;
    Ok(())
}

pub(super) async fn insert(
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
