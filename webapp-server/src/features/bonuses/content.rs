//! `banners.get` and `popups.get`: the content service's banners and popups joined with the
//! campaigns' state. An entry may name a campaign (`campaign`: its sysname); it is shown only
//! while that campaign runs. Banners are also kept to their own window (`startsAt`,
//! `finishedAt`, ISO 8601 in UTC).

use crate::api::{ApiError, Ctx, FieldErrors, Input, NoInput, Registry};
use crate::db::now_ms;
use crate::features::content::Cache;
use croupier_shared::Locale;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::Arc;

pub fn register(api: &mut Registry, cache: &Arc<Cache>) {
    let banners_cache = Arc::clone(cache);
    api.read(
        "banners.get",
        "Content banners of running campaigns (offset, count default 10, fields).",
        move |ctx, input| banners(ctx, Arc::clone(&banners_cache), input),
    );
    let popups_cache = Arc::clone(cache);
    api.read("popups.get", "Content popups of running campaigns.", move |ctx, input: NoInput| {
        popups(ctx, Arc::clone(&popups_cache), input)
    });
}

/// The sysnames of the campaigns running now.
async fn running(ctx: &Ctx) -> Result<HashSet<String>, ApiError> {
    let now = now_ms();
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT sysname FROM campaigns WHERE status = 'active' AND (starts_at IS NULL OR starts_at <= $1) \
         AND (ends_at IS NULL OR ends_at > $1)",
    )
    .bind(now)
    .fetch_all(ctx.state.db().pool())
    .await?;
    Ok(rows.into_iter().collect())
}

/// Whether an entry's campaign (if it names one) is running.
fn campaign_runs(entry: &Value, running: &HashSet<String>) -> bool {
    match entry.get("campaign").and_then(Value::as_str).map(str::trim).filter(|c| !c.is_empty()) {
        Some(sysname) => running.contains(sysname),
        None => true,
    }
}

fn locale_code(locale: Locale) -> &'static str {
    if locale == Locale::Fr { "fr" } else { "en" }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BannersQuery {
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 10, SPEC §9).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
    /// Accepted for the client's sake (id, finished_at, description are always answered).
    #[serde(default)]
    pub fields: Option<String>,
}

impl Input for BannersQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        super::methods::page_checks(self.offset, self.count, errors);
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct BannerItem {
    pub id: i64,
    /// ISO 8601, or null for no end.
    pub finished_at: Option<String>,
    /// The content entry (title, subtitle, button, images, position, order…).
    pub description: Value,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Banners {
    pub count: i64,
    pub items: Vec<BannerItem>,
}

async fn banners(ctx: Ctx, cache: Arc<Cache>, query: BannersQuery) -> Result<Banners, ApiError> {
    let snapshot = cache.snapshot(ctx.state.db()).await?;
    let running = running(&ctx).await?;
    let now = crate::features::content::store::iso8601(now_ms());
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let mut shown: Vec<&Value> = snapshot
        .collection("banner", locale_code(ctx.locale))
        .into_iter()
        .filter(|b| campaign_runs(b, &running))
        .filter(|b| text(b, "startsAt").is_none_or(|s| s <= now))
        .filter(|b| text(b, "finishedAt").is_none_or(|f| f > now))
        .collect();
    shown.sort_by_key(|b| {
        (
            text(b, "position").unwrap_or_default(),
            b.get("order").and_then(Value::as_i64).unwrap_or(0),
            b.get("id").and_then(Value::as_i64).unwrap_or(0),
        )
    });
    let count = i64::try_from(shown.len()).unwrap_or(0);
    let offset = usize::try_from(query.offset.unwrap_or(0)).unwrap_or(0);
    let size = usize::try_from(query.count.unwrap_or(10)).unwrap_or(10);
    let items = shown
        .into_iter()
        .skip(offset)
        .take(size)
        .map(|b| BannerItem {
            id: b.get("id").and_then(Value::as_i64).unwrap_or(0),
            finished_at: text(b, "finishedAt"),
            description: b.clone(),
        })
        .collect();
    Ok(Banners { count, items })
}

async fn popups(ctx: Ctx, cache: Arc<Cache>, _: NoInput) -> Result<Vec<Value>, ApiError> {
    let snapshot = cache.snapshot(ctx.state.db()).await?;
    let running = running(&ctx).await?;
    Ok(snapshot
        .collection("popup", locale_code(ctx.locale))
        .into_iter()
        .filter(|p| campaign_runs(p, &running))
        .cloned()
        .collect())
}
