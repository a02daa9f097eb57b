//! The player's key–value storage (SPEC §7 `storage.get`, `storage.set`, `storage.getKeys`): small
//! strings the client keeps on the server so they follow the player across devices — today the
//! id of the last cashback whose popup the player has seen (`already_seen_cashback_id`, SPEC §4).
//! Signed-in players only; a full store answers `StorageQuotaExceededException`.

use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, Registry};
use crate::db::now_ms;
use croupier_shared::{ErrorType, FieldCode};
use schemars::JsonSchema;
use serde::Deserialize;

pub fn register(api: &mut Registry) {
    api.read("storage.get", "The value the player stored under a key, or null.", get);
    api.write("storage.set", "Stores a value under a key for the player (replacing any previous one).", set);
    api.read("storage.getKeys", "The keys the player has stored values under, sorted.", get_keys);
}

/// The longest key, in characters.
pub const MAX_KEY_LENGTH: usize = 64;
/// The longest value, in characters.
pub const MAX_VALUE_LENGTH: usize = 4096;
/// The most keys one player may hold.
pub const MAX_KEYS: i64 = 100;

/// [`check_key`] as the OpenAPI document states it.
const KEY_PATTERN: &str = r"^[A-Za-z0-9_.-]+$";

fn check_key(key: &str, errors: &mut FieldErrors) {
    if key.chars().count() > MAX_KEY_LENGTH {
        errors.add_with("key", FieldCode::MaxLength, vec![("max", MAX_KEY_LENGTH.to_string())]);
    } else if !key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')) {
        errors.add("key", FieldCode::Invalid);
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct KeyQuery {
    /// 1 to 64 characters of `A-Z a-z 0-9 _ . -`.
    #[schemars(length(max = MAX_KEY_LENGTH), pattern(KEY_PATTERN), example = &"theme")]
    pub key: String,
}

impl Input for KeyQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        check_key(&self.key, errors);
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SetRequest {
    /// 1 to 64 characters of `A-Z a-z 0-9 _ . -`.
    #[schemars(length(max = MAX_KEY_LENGTH), pattern(KEY_PATTERN), example = &"theme")]
    pub key: String,
    /// At most 4096 characters; may be empty.
    #[serde(default)]
    #[schemars(length(max = MAX_VALUE_LENGTH))]
    pub value: String,
}

impl Input for SetRequest {
    fn validate(&self, errors: &mut FieldErrors) {
        check_key(&self.key, errors);
        if self.value.chars().count() > MAX_VALUE_LENGTH {
            errors.add_with("value", FieldCode::MaxLength, vec![("max", MAX_VALUE_LENGTH.to_string())]);
        }
    }
}

async fn get(ctx: Ctx, user: AuthUser, query: KeyQuery) -> Result<Option<String>, ApiError> {
    let user_id = user.id;
    let value = sqlx::query_scalar("SELECT value FROM player_storage WHERE user_id = $1 AND key = $2")
        .bind(user_id)
        .bind(&query.key)
        .fetch_optional(ctx.state.db().pool())
        .await?;
    Ok(value)
}

async fn set(ctx: Ctx, user: AuthUser, request: SetRequest) -> Result<crate::api::One, ApiError> {
    let user_id = user.id;
    let db = ctx.state.db();
    let mut tx = db.begin().await?;
    // Two new keys written at once must not both pass the count below.
    db.lock_user(&mut tx, user_id).await?;
    let exists: Option<i64> = sqlx::query_scalar("SELECT 1 FROM player_storage WHERE user_id = $1 AND key = $2")
        .bind(user_id)
        .bind(&request.key)
        .fetch_optional(&mut *tx)
        .await?;
    if exists.is_none() {
        let held: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM player_storage WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
        if held >= MAX_KEYS {
            return Err(ApiError::new(ErrorType::StorageQuotaExceededException).with_data("max_keys", MAX_KEYS));
        }
    }
    sqlx::query(
        "INSERT INTO player_storage (user_id, key, value, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(&request.key)
    .bind(&request.value)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(crate::api::One)
}

async fn get_keys(ctx: Ctx, user: AuthUser, _: crate::api::NoInput) -> Result<Vec<String>, ApiError> {
    let user_id = user.id;
    let mut keys: Vec<String> = sqlx::query_scalar("SELECT key FROM player_storage WHERE user_id = $1")
        .bind(user_id)
        .fetch_all(ctx.state.db().pool())
        .await?;
    // Sorted here: PostgreSQL's collation and SQLite's byte order would disagree on case.
    keys.sort_unstable();
    Ok(keys)
}
