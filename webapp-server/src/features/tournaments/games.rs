//! Which games a tournament or a jackpot pool covers: named by game, category or provider, and
//! resolved against the catalogue when the operator saves it into `competition_games` (the
//! table the wallet reads with every game session). Naming nothing covers every game (one row
//! with game id 0).

use crate::api::ApiError;
use croupier_shared::FieldCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;

/// The games a competition covers: any game named, or in a category named, or of a provider
/// named. All empty: every game.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GameSelector {
    #[serde(default)]
    pub sysnames: Vec<String>,
    #[serde(default)]
    pub categories: Vec<String>,
    #[serde(default)]
    pub providers: Vec<String>,
}

impl GameSelector {
    pub fn is_all(&self) -> bool {
        self.sysnames.is_empty() && self.categories.is_empty() && self.providers.is_empty()
    }
}

fn quoted(names: &[String]) -> String {
    names.iter().map(|n| format!("'{}'", n.replace('\'', "''"))).collect::<Vec<_>>().join(",")
}

/// The game ids `selector` names (`[0]` for every game); a name the catalogue does not know is
/// refused with the field `games`.
pub async fn resolve(conn: &mut AnyConnection, selector: &GameSelector) -> Result<Vec<i64>, ApiError> {
    if selector.is_all() {
        return Ok(vec![0]);
    }
    let total = selector.sysnames.len() + selector.categories.len() + selector.providers.len();
    let name_ok = |n: &String| {
        !n.is_empty() && n.len() <= 100 && n.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    };
    if total > 500 || !selector.sysnames.iter().chain(&selector.categories).chain(&selector.providers).all(name_ok) {
        return Err(ApiError::field("games", FieldCode::Invalid));
    }
    for (table, column, names) in [
        ("games", "sysname", &selector.sysnames),
        ("game_categories", "slug", &selector.categories),
        ("game_providers", "sysname", &selector.providers),
    ] {
        if names.is_empty() {
            continue;
        }
        // Every name was checked above to be letters, digits, '-', '_' or '.'.
        let known: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM {table} WHERE {column} IN ({})",
            quoted(names)
        )))
        .fetch_one(&mut *conn)
        .await?;
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        if usize::try_from(known).unwrap_or(0) != distinct.len() {
            return Err(ApiError::field("games", FieldCode::NotFound));
        }
    }
    let mut clauses = Vec::new();
    if !selector.sysnames.is_empty() {
        clauses.push(format!("g.sysname IN ({})", quoted(&selector.sysnames)));
    }
    if !selector.providers.is_empty() {
        clauses.push(format!("g.provider IN ({})", quoted(&selector.providers)));
    }
    if !selector.categories.is_empty() {
        clauses.push(format!(
            "g.id IN (SELECT m.game_id FROM game_category_members m WHERE m.category IN ({}))",
            quoted(&selector.categories)
        ));
    }
    let ids: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT g.id FROM games g WHERE {} ORDER BY g.id",
        clauses.join(" OR ")
    )))
    .fetch_all(&mut *conn)
    .await?;
    if ids.is_empty() {
        return Err(ApiError::field("games", FieldCode::NotFound));
    }
    Ok(ids)
}

/// Writes what `kind` `id` covers until `ends_at` (unix ms), replacing what it covered before.
pub async fn cover(
    conn: &mut AnyConnection,
    kind: &str,
    id: i64,
    games: &[i64],
    ends_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM competition_games WHERE kind = $1 AND ref_id = $2")
        .bind(kind)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    for game in games {
        sqlx::query("INSERT INTO competition_games (kind, ref_id, game_id, ends_at) VALUES ($1, $2, $3, $4)")
            .bind(kind)
            .bind(id)
            .bind(game)
            .bind(ends_at)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Moves the end of what `kind` `id` covers (0: covers nothing any more; the rows stay for the
/// pages that list the games).
pub async fn set_end(conn: &mut AnyConnection, kind: &str, id: i64, ends_at: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE competition_games SET ends_at = $1 WHERE kind = $2 AND ref_id = $3")
        .bind(ends_at)
        .bind(kind)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The sysnames `kind` `id` covers (empty: every game).
pub async fn sysnames(conn: &mut AnyConnection, kind: &str, id: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT g.sysname FROM competition_games c JOIN games g ON g.id = c.game_id \
         WHERE c.kind = $1 AND c.ref_id = $2 ORDER BY g.sysname",
    )
    .bind(kind)
    .bind(id)
    .fetch_all(conn)
    .await
}
