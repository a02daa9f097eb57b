//! Loyalty notices (SPEC §3 "Loyalty notification", §4: fetched on the first interaction and on
//! every path change, shown 300 ms later for 5 s). The server writes one with the event that
//! causes it, in the same transaction, under a unique key (a retried event notices once), in both
//! languages; `loyalty.getnotifications` answers the unseen ones in the request's language and
//! marks them seen, so each is shown once.

use crate::api::{ApiError, AuthUser, Ctx, NoInput, Registry};
use crate::db::now_ms;
use croupier_shared::Locale;
use schemars::JsonSchema;
use serde::Serialize;
use sqlx::AnyConnection;

pub fn register(api: &mut Registry) {
    api.read(
        "loyalty.getnotifications",
        "The player's unseen loyalty notices, oldest first; answering them marks them seen.",
        getnotifications,
    );
}

/// The most notices one call answers (the rest come with the next call).
const PAGE: i64 = 20;

/// A notice to write: texts in (English, French).
pub struct Draft {
    /// quest | register | profile | confirm | product | level
    pub trigger: &'static str,
    /// credit (points or money given) | other
    pub kind: &'static str,
    pub title: (String, String),
    pub message: (String, String),
    /// (amount, its type: `points` or a currency code)
    pub amount: Option<(i64, String)>,
    pub image: Option<String>,
}

/// Writes a notice under `key`; answers false, writing nothing, when the key exists.
pub async fn add(conn: &mut AnyConnection, user_id: i64, key: &str, draft: Draft) -> Result<bool, sqlx::Error> {
    let (amount, amount_type) = draft.amount.map_or((None, None), |(a, t)| (Some(a), Some(t)));
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO loyalty_notifications (user_id, notice_key, trigger_kind, notice_type, title_en, title_fr, message_en, message_fr, \
         amount, amount_type, image, seen_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, $12) \
         ON CONFLICT (notice_key) DO NOTHING RETURNING id",
    )
    .bind(user_id)
    .bind(key)
    .bind(draft.trigger)
    .bind(draft.kind)
    .bind(draft.title.0)
    .bind(draft.title.1)
    .bind(draft.message.0)
    .bind(draft.message.1)
    .bind(amount)
    .bind(amount_type)
    .bind(draft.image)
    .bind(now_ms())
    .fetch_optional(&mut *conn)
    .await?;
    Ok(id.is_some())
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Notification {
    pub id: i64,
    pub trigger: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub message: String,
    pub amount: Option<i64>,
    #[serde(rename = "amountType")]
    pub amount_type: Option<String>,
    pub image: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Notifications {
    pub items: Vec<Notification>,
}

type Row = (i64, String, String, String, String, String, String, Option<i64>, Option<String>, Option<String>, i64);

async fn getnotifications(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<Notifications, ApiError> {
    let user_id = user.id;
    super::opened(&ctx.state, user_id).await?;
    // Quests the player completed since the last look are credited (and noticed) first.
    super::quests::check(&ctx.state, user_id).await?;
    let mut tx = ctx.state.db().begin().await?;
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, trigger_kind, notice_type, title_en, title_fr, message_en, message_fr, amount, amount_type, image, created_at \
         FROM loyalty_notifications WHERE user_id = $1 AND seen_at IS NULL ORDER BY id LIMIT $2",
    )
    .bind(user_id)
    .bind(PAGE)
    .fetch_all(&mut *tx)
    .await?;
    if let Some(last) = rows.last() {
        // Only what this answer carries is marked; a notice written meanwhile waits for the next.
        sqlx::query(
            "UPDATE loyalty_notifications SET seen_at = $1 WHERE user_id = $2 AND seen_at IS NULL AND id <= $3",
        )
        .bind(now_ms())
        .bind(user_id)
        .bind(last.0)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    let fr = ctx.locale == Locale::Fr;
    let items = rows
        .into_iter()
        .map(|(id, trigger, kind, ten, tfr, men, mfr, amount, amount_type, image, created_at)| Notification {
            id,
            trigger,
            kind,
            title: if fr { tfr } else { ten },
            message: if fr { mfr } else { men },
            amount,
            amount_type,
            image,
            created_at: created_at / 1000,
        })
        .collect();
    Ok(Notifications { items })
}
