//! Operators' side of loyalty (admin API, `Authorization: Bearer CROUPIER_ADMIN_TOKEN`; see the
//! module docs of `features::loyalty` for why the rules live here and not in the content service):
//!
//! - `GET /admin/loyalty`: the whole configuration.
//! - `PUT /admin/loyalty/settings` `{active, levels_drop}`.
//! - `PUT /admin/loyalty/rates` `{items: [{game_type, currency, milli_per_unit}]}` (replaces all).
//! - `PUT /admin/loyalty/levels` `{items: [{level, min_points, title_en, title_fr, description_en,
//!   description_fr, image?, campaign_id?}]}` (replaces all; thresholds rise with the level).
//! - `PUT /admin/loyalty/{characters|products|programs|quests}/{sysname}`: makes or changes one
//!   (inputs below); `active: false` takes it off the player's pages.
//! - `POST /admin/loyalty/points` `{user_id, points, reason, key?}`: a manual adjustment (spendable
//!   and lifetime points, signed; `key` makes a retry harmless).
//! - `GET /admin/loyalty/accounts/{user_id}`: a player's balances and last movements.
//!
//! The CLI has the adjustment too: `croupier-server admin loyalty points USER POINTS REASON`.

use super::{quests, shop};
use crate::AppState;
use crate::api::{ApiError, FieldErrors, Operator};
use crate::db::now_ms;
use crate::features::backoffice::{Staff, trail};
use crate::features::bonuses::Rules;
use crate::features::bonuses::admin::{answer, body, check_reason, is_slug};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use croupier_shared::{Currency, FieldCode};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::AnyConnection;

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post, put};
    axum::Router::new()
        .route("/admin/loyalty", get(admin_get))
        .route("/admin/loyalty/settings", put(admin_settings))
        .route("/admin/loyalty/rates", put(admin_rates))
        .route("/admin/loyalty/levels", put(admin_levels))
        .route("/admin/loyalty/points", post(admin_points))
        .route("/admin/loyalty/accounts/{user_id}", get(admin_account))
        .route("/admin/loyalty/{kind}/{sysname}", put(admin_put))
}

fn text_checks(e: &mut FieldErrors, fields: &[(&str, &str, usize)]) {
    for (name, value, max) in fields {
        if value.trim().is_empty() {
            e.add(name, FieldCode::Required);
        } else if value.chars().count() > *max {
            e.add_with(name, FieldCode::MaxLength, vec![("max", max.to_string())]);
        }
    }
}

pub(crate) fn image_check(e: &mut FieldErrors, image: Option<&str>) {
    if let Some(i) = image
        && (i.chars().count() > 500 || !(i.starts_with('/') || i.starts_with("https://")))
    {
        e.add("image", FieldCode::Invalid);
    }
}

// ----- settings, rates, levels -----

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsInput {
    pub active: bool,
    pub levels_drop: bool,
}

pub async fn write_settings(conn: &mut AnyConnection, input: &SettingsInput) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO loyalty_settings (id, active, levels_drop, updated_at) VALUES (1, $1, $2, $3) \
         ON CONFLICT (id) DO UPDATE SET active = excluded.active, levels_drop = excluded.levels_drop, updated_at = excluded.updated_at",
    )
    .bind(i64::from(input.active))
    .bind(i64::from(input.levels_drop))
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RateInput {
    /// A game type (casino, slot, live, fast, sport…) or `*` for any other.
    pub game_type: String,
    pub currency: String,
    /// Milli-points per major unit staked (100: a point per 10 units).
    pub milli_per_unit: i64,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Items<T> {
    pub items: Vec<T>,
}

pub fn check_rates(rates: &[RateInput]) -> Result<(), ApiError> {
    let mut e = FieldErrors::default();
    for (i, r) in rates.iter().enumerate() {
        if !(r.game_type == "*" || is_slug(&r.game_type)) {
            e.add("game_type", FieldCode::Invalid);
        }
        if Currency::parse(&r.currency).is_none() {
            e.add("currency", FieldCode::Unsupported);
        }
        if !(0..=1_000_000).contains(&r.milli_per_unit) {
            e.add_with("milli_per_unit", FieldCode::MaxValue, vec![("max", "1000000".into())]);
        }
        if rates[..i].iter().any(|o| o.game_type == r.game_type && o.currency == r.currency) {
            e.add("items", FieldCode::Duplicate);
        }
    }
    e.into_result()
}

pub async fn write_rates(conn: &mut AnyConnection, rates: &[RateInput]) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM loyalty_rates").execute(&mut *conn).await?;
    for r in rates {
        sqlx::query("INSERT INTO loyalty_rates (game_type, currency, milli_per_unit) VALUES ($1, $2, $3)")
            .bind(&r.game_type)
            .bind(&r.currency)
            .bind(r.milli_per_unit)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LevelInput {
    pub level: i64,
    pub min_points: i64,
    pub title_en: String,
    pub title_fr: String,
    #[serde(default)]
    pub description_en: String,
    #[serde(default)]
    pub description_fr: String,
    #[serde(default)]
    pub image: Option<String>,
    #[serde(default)]
    pub campaign_id: Option<i64>,
}

pub async fn check_levels(conn: &mut AnyConnection, levels: &[LevelInput]) -> Result<(), ApiError> {
    let mut e = FieldErrors::default();
    let mut sorted: Vec<&LevelInput> = levels.iter().collect();
    sorted.sort_by_key(|l| l.level);
    for (i, l) in sorted.iter().enumerate() {
        if !(1..=100).contains(&l.level) {
            e.add_with("level", FieldCode::MaxValue, vec![("max", "100".into())]);
        }
        if l.min_points < 0 {
            e.add_with("min_points", FieldCode::MinValue, vec![("min", "0".into())]);
        }
        if i > 0 && (sorted[i - 1].level == l.level || sorted[i - 1].min_points >= l.min_points) {
            e.add("min_points", FieldCode::Invalid);
        }
        text_checks(&mut e, &[("title_en", &l.title_en, 100), ("title_fr", &l.title_fr, 100)]);
        if l.description_en.chars().count() > 500 || l.description_fr.chars().count() > 500 {
            e.add_with("description_en", FieldCode::MaxLength, vec![("max", "500".into())]);
        }
        image_check(&mut e, l.image.as_deref());
        if let Some(c) = l.campaign_id {
            let found: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM campaigns WHERE id = $1 AND trigger_action = 'manual'")
                    .bind(c)
                    .fetch_one(&mut *conn)
                    .await?;
            if found == 0 {
                e.add("campaign_id", FieldCode::NotFound);
            }
        }
    }
    e.into_result()
}

pub async fn write_levels(conn: &mut AnyConnection, levels: &[LevelInput]) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM loyalty_levels").execute(&mut *conn).await?;
    for l in levels {
        sqlx::query(
            "INSERT INTO loyalty_levels (level, min_points, title_en, title_fr, description_en, description_fr, image, campaign_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(l.level)
        .bind(l.min_points)
        .bind(&l.title_en)
        .bind(&l.title_fr)
        .bind(&l.description_en)
        .bind(&l.description_fr)
        .bind(&l.image)
        .bind(l.campaign_id)
        .execute(&mut *conn)
        .await?;
    }
    // Every account looks at its level again with its next point (levels only rise, unless the
    // programme lets them drop on a rollback).
    sqlx::query("UPDATE loyalty_accounts SET next_level_at = 0").execute(&mut *conn).await?;
    Ok(())
}

// ----- characters, products, programmes, quests -----

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterInput {
    pub title_en: String,
    pub title_fr: String,
    #[serde(default)]
    pub description_en: String,
    #[serde(default)]
    pub description_fr: String,
    #[serde(default)]
    pub image: Option<String>,
    #[serde(default)]
    pub min_level: i64,
    #[serde(default)]
    pub position: i64,
    #[serde(default = "yes")]
    pub active: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ProductInput {
    pub title_en: String,
    pub title_fr: String,
    #[serde(default)]
    pub description_en: String,
    #[serde(default)]
    pub description_fr: String,
    #[serde(default)]
    pub image: Option<String>,
    /// Whole points, 1 or more.
    pub price: i64,
    /// bonus | freespins | freebet | cashback_boost
    pub kind: String,
    /// The manual campaign granted (bonus: a fixed reward; freespins; freebet).
    #[serde(default)]
    pub campaign_id: Option<i64>,
    /// cashback_boost: basis points added to the next cashback (1 to 10000).
    #[serde(default)]
    pub boost_bps: Option<i64>,
    #[serde(default)]
    pub min_level: i64,
    #[serde(default)]
    pub stock: Option<i64>,
    #[serde(default)]
    pub position: i64,
    #[serde(default = "yes")]
    pub active: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramInput {
    pub title_en: String,
    pub title_fr: String,
    #[serde(default)]
    pub description_en: String,
    #[serde(default)]
    pub description_fr: String,
    #[serde(default)]
    pub image: Option<String>,
    #[serde(default)]
    pub position: i64,
    #[serde(default = "yes")]
    pub active: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct QuestInput {
    /// The programme's sysname.
    pub program: String,
    pub title_en: String,
    pub title_fr: String,
    #[serde(default)]
    pub description_en: String,
    #[serde(default)]
    pub description_fr: String,
    /// confirm_email | fill_profile | deposits | rounds
    pub goal: String,
    #[serde(default = "one")]
    pub target: i64,
    /// rounds: only this game type counts.
    #[serde(default)]
    pub game_type: Option<String>,
    pub reward_points: i64,
    #[serde(default)]
    pub position: i64,
    #[serde(default = "yes")]
    pub active: bool,
}

fn one() -> i64 {
    1
}

fn common(e: &mut FieldErrors, title_en: &str, title_fr: &str, den: &str, dfr: &str, image: Option<&str>) {
    text_checks(e, &[("title_en", title_en, 100), ("title_fr", title_fr, 100)]);
    if den.chars().count() > 1000 {
        e.add_with("description_en", FieldCode::MaxLength, vec![("max", "1000".into())]);
    }
    if dfr.chars().count() > 1000 {
        e.add_with("description_fr", FieldCode::MaxLength, vec![("max", "1000".into())]);
    }
    image_check(e, image);
}

/// The reward of a manual campaign, or none.
async fn manual_campaign(conn: &mut AnyConnection, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT reward FROM campaigns WHERE id = $1 AND trigger_action = 'manual'")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await
}

pub async fn put_character(conn: &mut AnyConnection, sysname: &str, c: &CharacterInput) -> Result<i64, ApiError> {
    let mut e = FieldErrors::default();
    common(&mut e, &c.title_en, &c.title_fr, &c.description_en, &c.description_fr, c.image.as_deref());
    if !(0..=100).contains(&c.min_level) {
        e.add_with("min_level", FieldCode::MaxValue, vec![("max", "100".into())]);
    }
    e.into_result()?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO loyalty_characters (sysname, title_en, title_fr, description_en, description_fr, image, min_level, position, active) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (sysname) DO UPDATE SET title_en = excluded.title_en, \
         title_fr = excluded.title_fr, description_en = excluded.description_en, description_fr = excluded.description_fr, \
         image = excluded.image, min_level = excluded.min_level, position = excluded.position, active = excluded.active RETURNING id",
    )
    .bind(sysname)
    .bind(&c.title_en)
    .bind(&c.title_fr)
    .bind(&c.description_en)
    .bind(&c.description_fr)
    .bind(&c.image)
    .bind(c.min_level)
    .bind(c.position)
    .bind(i64::from(c.active))
    .fetch_one(&mut *conn)
    .await?;
    Ok(id)
}

pub async fn put_product(conn: &mut AnyConnection, sysname: &str, p: &ProductInput) -> Result<i64, ApiError> {
    let mut e = FieldErrors::default();
    common(&mut e, &p.title_en, &p.title_fr, &p.description_en, &p.description_fr, p.image.as_deref());
    if !(1..=100_000_000).contains(&p.price) {
        e.add_with("price", FieldCode::MinValue, vec![("min", "1".into())]);
    }
    if !(0..=100).contains(&p.min_level) {
        e.add_with("min_level", FieldCode::MaxValue, vec![("max", "100".into())]);
    }
    if p.stock.is_some_and(|s| s < 0) {
        e.add_with("stock", FieldCode::MinValue, vec![("min", "0".into())]);
    }
    match p.kind.as_str() {
        "cashback_boost" => {
            if !p.boost_bps.is_some_and(|b| (1..=10_000).contains(&b)) {
                e.add("boost_bps", FieldCode::Invalid);
            }
            if p.campaign_id.is_some() {
                e.add("campaign_id", FieldCode::Invalid);
            }
        }
        kind if shop::KINDS.contains(&kind) => {
            let wanted = match kind {
                "bonus" => "fixed",
                other => other,
            };
            match p.campaign_id {
                None => e.add("campaign_id", FieldCode::Required),
                Some(c) => match manual_campaign(conn, c).await? {
                    None => e.add("campaign_id", FieldCode::NotFound),
                    Some(reward) if reward != wanted => e.add("campaign_id", FieldCode::Unsupported),
                    Some(_) => {}
                },
            }
            if p.boost_bps.is_some() {
                e.add("boost_bps", FieldCode::Invalid);
            }
        }
        _ => e.add("kind", FieldCode::Unsupported),
    }
    e.into_result()?;
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO loyalty_products (sysname, title_en, title_fr, description_en, description_fr, image, price, kind, campaign_id, \
         boost_bps, min_level, stock, position, active, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) \
         ON CONFLICT (sysname) DO UPDATE SET title_en = excluded.title_en, title_fr = excluded.title_fr, \
         description_en = excluded.description_en, description_fr = excluded.description_fr, image = excluded.image, \
         price = excluded.price, kind = excluded.kind, campaign_id = excluded.campaign_id, boost_bps = excluded.boost_bps, \
         min_level = excluded.min_level, stock = excluded.stock, position = excluded.position, active = excluded.active, \
         updated_at = excluded.updated_at RETURNING id",
    )
    .bind(sysname)
    .bind(&p.title_en)
    .bind(&p.title_fr)
    .bind(&p.description_en)
    .bind(&p.description_fr)
    .bind(&p.image)
    .bind(p.price)
    .bind(&p.kind)
    .bind(p.campaign_id)
    .bind(p.boost_bps)
    .bind(p.min_level)
    .bind(p.stock)
    .bind(p.position)
    .bind(i64::from(p.active))
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    Ok(id)
}

pub async fn put_program(conn: &mut AnyConnection, sysname: &str, p: &ProgramInput) -> Result<i64, ApiError> {
    let mut e = FieldErrors::default();
    common(&mut e, &p.title_en, &p.title_fr, &p.description_en, &p.description_fr, p.image.as_deref());
    e.into_result()?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO loyalty_programs (sysname, title_en, title_fr, description_en, description_fr, image, position, active) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (sysname) DO UPDATE SET title_en = excluded.title_en, \
         title_fr = excluded.title_fr, description_en = excluded.description_en, description_fr = excluded.description_fr, \
         image = excluded.image, position = excluded.position, active = excluded.active RETURNING id",
    )
    .bind(sysname)
    .bind(&p.title_en)
    .bind(&p.title_fr)
    .bind(&p.description_en)
    .bind(&p.description_fr)
    .bind(&p.image)
    .bind(p.position)
    .bind(i64::from(p.active))
    .fetch_one(&mut *conn)
    .await?;
    Ok(id)
}

pub async fn put_quest(conn: &mut AnyConnection, sysname: &str, q: &QuestInput) -> Result<i64, ApiError> {
    let mut e = FieldErrors::default();
    common(&mut e, &q.title_en, &q.title_fr, &q.description_en, &q.description_fr, None);
    let program: Option<i64> = sqlx::query_scalar("SELECT id FROM loyalty_programs WHERE sysname = $1")
        .bind(&q.program)
        .fetch_optional(&mut *conn)
        .await?;
    if program.is_none() {
        e.add("program", FieldCode::NotFound);
    }
    if !quests::GOALS.contains(&q.goal.as_str()) {
        e.add("goal", FieldCode::Unsupported);
    }
    let single = matches!(q.goal.as_str(), "confirm_email" | "fill_profile");
    if !(1..=1_000_000).contains(&q.target) || (single && q.target != 1) {
        e.add("target", FieldCode::Invalid);
    }
    if q.game_type.as_deref().is_some_and(|g| q.goal != "rounds" || !is_slug(g)) {
        e.add("game_type", FieldCode::Invalid);
    }
    if !(0..=1_000_000).contains(&q.reward_points) {
        e.add_with("reward_points", FieldCode::MaxValue, vec![("max", "1000000".into())]);
    }
    e.into_result()?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO loyalty_quests (program_id, sysname, title_en, title_fr, description_en, description_fr, goal, target, game_type, \
         reward_points, position, active) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (sysname) DO UPDATE \
         SET program_id = excluded.program_id, title_en = excluded.title_en, title_fr = excluded.title_fr, \
         description_en = excluded.description_en, description_fr = excluded.description_fr, goal = excluded.goal, \
         target = excluded.target, game_type = excluded.game_type, reward_points = excluded.reward_points, \
         position = excluded.position, active = excluded.active RETURNING id",
    )
    .bind(program.unwrap_or(0))
    .bind(sysname)
    .bind(&q.title_en)
    .bind(&q.title_fr)
    .bind(&q.description_en)
    .bind(&q.description_fr)
    .bind(&q.goal)
    .bind(q.target)
    .bind(&q.game_type)
    .bind(q.reward_points)
    .bind(q.position)
    .bind(i64::from(q.active))
    .fetch_one(&mut *conn)
    .await?;
    Ok(id)
}

// ----- points by hand -----

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PointsInput {
    pub user_id: i64,
    /// Whole points, signed, not 0.
    pub points: i64,
    pub reason: String,
    /// Makes a retried adjustment harmless (at most 64 characters).
    #[serde(default)]
    pub key: Option<String>,
}

/// Adds (or takes) points by hand, on the player's lane. Answers whether it was written (false:
/// the same `key` was already).
///
/// `by`'s audit row (`loyalty.points`, with the operator's reason) is written in the change's own
/// transaction, when it wrote something (a repeated `key` writes nothing).
pub async fn adjust(state: &AppState, by: &trail::Actor, input: &PointsInput) -> Result<bool, ApiError> {
    check_reason(&input.reason)?;
    if input.points == 0 || input.points.abs() > 100_000_000 {
        return Err(ApiError::field("points", FieldCode::Invalid));
    }
    if input.key.as_deref().is_some_and(|k| k.is_empty() || k.chars().count() > 64) {
        return Err(ApiError::field("key", FieldCode::Invalid));
    }
    let (user_id, milli) = (input.user_id, input.points.saturating_mul(super::MILLI));
    let key = format!("adjust:{}", input.key.clone().unwrap_or_else(|| uuid::Uuid::new_v4().to_string()));
    let reason = format!("operator: {}", input.reason.trim());
    let (db, rules) = (state.db().clone(), Rules::of(state));
    let job_key = std::sync::Arc::new((key, reason, input.reason.trim().to_owned(), by.clone(), input.points));
    state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let (db, k) = (db.clone(), std::sync::Arc::clone(&job_key));
                Box::pin(async move {
                    let found: Option<String> = sqlx::query_scalar("SELECT status FROM users WHERE id = $1")
                        .bind(user_id)
                        .fetch_optional(&mut *conn)
                        .await?;
                    if found.is_none() {
                        return Err(ApiError::field("user_id", FieldCode::NotFound));
                    }
                    db.lock_user(conn, user_id).await?;
                    let written = super::entry(conn, &rules, user_id, &k.0, "adjust", milli, milli, Some(&k.1)).await?;
                    if written {
                        let row = trail::Row {
                            action: "loyalty.points",
                            target_type: Some("loyalty_entry"),
                            target_id: Some(&k.0),
                            user_id: Some(user_id),
                            reason: Some(&k.2),
                            after: Some(json!({ "points": k.4 })),
                            ..trail::Row::by(&k.3)
                        };
                        trail::write(&mut *conn, &row).await?;
                    }
                    Ok(written)
                })
            }),
        )
        .await
}

// ----- handlers -----

/// id, sysname, title, price, kind, campaign, boost, min level, stock, active.
type ProductSummary = (i64, String, String, i64, String, Option<i64>, Option<i64>, i64, Option<i64>, i64);
/// id, programme, sysname, goal, target, game type, reward, active.
type QuestSummary = (i64, i64, String, String, i64, Option<String>, i64, i64);

async fn admin_get(State(state): State<AppState>, _: Operator) -> Response {
    let result = async {
        let mut conn = state.db().pool().acquire().await?;
        let settings = super::settings(&mut conn).await?;
        let rates = rates_now(&mut conn).await?;
        let levels = levels_now(&mut conn).await?;
        let characters: Vec<(i64, String, String, i64, i64)> =
            sqlx::query_as("SELECT id, sysname, title_en, min_level, active FROM loyalty_characters ORDER BY position, id")
                .fetch_all(&mut *conn)
                .await?;
        let products: Vec<ProductSummary> = sqlx::query_as(
            "SELECT id, sysname, title_en, price, kind, campaign_id, boost_bps, min_level, stock, active FROM loyalty_products ORDER BY position, id",
        )
        .fetch_all(&mut *conn)
        .await?;
        let programs: Vec<(i64, String, String, i64)> =
            sqlx::query_as("SELECT id, sysname, title_en, active FROM loyalty_programs ORDER BY position, id")
                .fetch_all(&mut *conn)
                .await?;
        let quests: Vec<QuestSummary> = sqlx::query_as(
            "SELECT id, program_id, sysname, goal, target, game_type, reward_points, active FROM loyalty_quests ORDER BY position, id",
        )
        .fetch_all(&mut *conn)
        .await?;
        Ok(json!({
            "settings": {"active": settings.active, "levels_drop": settings.levels_drop},
            "rates": rates,
            "levels": levels,
            "characters": characters.iter().map(|(id, s, t, m, a)| json!({"id": id, "sysname": s, "title_en": t, "min_level": m, "active": *a != 0})).collect::<Vec<_>>(),
            "products": products.iter().map(|(id, s, t, p, k, c, b, m, st, a)| json!({"id": id, "sysname": s, "title_en": t,
                "price": p, "kind": k, "campaign_id": c, "boost_bps": b, "min_level": m, "stock": st, "active": *a != 0})).collect::<Vec<_>>(),
            "programs": programs.iter().map(|(id, s, t, a)| json!({"id": id, "sysname": s, "title_en": t, "active": *a != 0})).collect::<Vec<_>>(),
            "quests": quests.iter().map(|(id, p, s, g, t, gt, r, a)| json!({"id": id, "program_id": p, "sysname": s, "goal": g,
                "target": t, "game_type": gt, "reward_points": r, "active": *a != 0})).collect::<Vec<_>>(),
        }))
    }
    .await;
    answer(result)
}

/// Runs `f` in one transaction with the change's audit row (`action` on `target`, by `staff`):
/// `f` answers its result and what it replaced (`before`); `after` is the change as sent. A
/// refused change writes neither. The route is marked [`trail::audited`], so the console's gate
/// adds no generic row after the commit.
async fn audited_tx<T, F>(
    state: &AppState,
    staff: &Staff,
    (action, target_type, target_id): (&str, &str, &str),
    after: Value,
    f: F,
) -> Result<T, ApiError>
where
    F: for<'c> FnOnce(&'c mut AnyConnection) -> futures::future::BoxFuture<'c, Result<(T, Option<Value>), ApiError>>,
{
    let mut tx = state.db().begin().await?;
    let (out, before) = f(&mut tx).await?;
    let by = trail::Actor::from(staff);
    let row = trail::Row { before, after: Some(after), ..trail::Row::by(&by).on(action, target_type, target_id) };
    trail::write(&mut *tx, &row).await?;
    tx.commit().await?;
    Ok(out)
}

/// The rates as they stand (`GET /admin/loyalty`'s, and an audit row's `before`).
async fn rates_now(conn: &mut AnyConnection) -> Result<Value, sqlx::Error> {
    let rates: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT game_type, currency, milli_per_unit FROM loyalty_rates ORDER BY game_type, currency")
            .fetch_all(&mut *conn)
            .await?;
    Ok(json!(
        rates.iter().map(|(g, c, m)| json!({"game_type": g, "currency": c, "milli_per_unit": m})).collect::<Vec<_>>()
    ))
}

/// The levels as they stand (`GET /admin/loyalty`'s, and an audit row's `before`).
async fn levels_now(conn: &mut AnyConnection) -> Result<Value, sqlx::Error> {
    let levels = super::levels(conn).await?;
    let level = |l: &super::LevelRow| {
        json!({"level": l.level, "min_points": l.min_points, "title_en": l.title_en, "title_fr": l.title_fr,
            "description_en": l.description_en, "description_fr": l.description_fr, "image": l.image,
            "campaign_id": l.campaign_id})
    };
    Ok(json!(levels.iter().map(level).collect::<Vec<_>>()))
}

/// The row of `sysname` in a catalogue's `table` before a put (none: the put makes it), for an
/// audit row's `before`: its id and whether it was on the players' pages.
async fn item_now(conn: &mut AnyConnection, table: &str, sysname: &str) -> Result<Option<Value>, sqlx::Error> {
    let sql = format!("SELECT id, active FROM {table} WHERE sysname = $1");
    let row: Option<(i64, i64)> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(sysname).fetch_optional(&mut *conn).await?;
    Ok(row.map(|(id, active)| json!({ "id": id, "active": active != 0 })))
}

async fn admin_settings(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let input: SettingsInput = body(&bytes)?;
        let after = serde_json::to_value(&input).unwrap_or_default();
        let target = ("loyalty.settings", "loyalty_settings", "1");
        audited_tx(&state, &staff, target, after, |conn| {
            Box::pin(async move {
                let was = super::settings(conn).await?;
                write_settings(conn, &input).await?;
                Ok(((), Some(json!({ "active": was.active, "levels_drop": was.levels_drop }))))
            })
        })
        .await?;
        Ok(json!({}))
    }
    .await;
    trail::audited(answer(result))
}

async fn admin_rates(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let input: Items<RateInput> = body(&bytes)?;
        check_rates(&input.items)?;
        let after = serde_json::to_value(&input.items).unwrap_or_default();
        audited_tx(&state, &staff, ("loyalty.rates", "loyalty_rates", "*"), after, |conn| {
            Box::pin(async move {
                let before = rates_now(conn).await?;
                write_rates(conn, &input.items).await?;
                Ok(((), Some(before)))
            })
        })
        .await?;
        Ok(json!({}))
    }
    .await;
    trail::audited(answer(result))
}

async fn admin_levels(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let input: Items<LevelInput> = body(&bytes)?;
        let after = serde_json::to_value(&input.items).unwrap_or_default();
        audited_tx(&state, &staff, ("loyalty.levels", "loyalty_levels", "*"), after, |conn| {
            Box::pin(async move {
                check_levels(conn, &input.items).await?;
                let before = levels_now(conn).await?;
                write_levels(conn, &input.items).await?;
                Ok(((), Some(before)))
            })
        })
        .await?;
        Ok(json!({}))
    }
    .await;
    trail::audited(answer(result))
}

/// `PUT /admin/loyalty/{kind}/{sysname}`: audited as `loyalty.character|product|program|quest`
/// on the item's sysname, `before` its id and visibility (none: made by this put), `after` the
/// item as sent with its id.
async fn admin_put(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path((kind, sysname)): Path<(String, String)>,
    bytes: Bytes,
) -> Response {
    let result = async {
        if !is_slug(&sysname) {
            return Err(ApiError::field("sysname", FieldCode::Invalid));
        }
        let (action, table) = match kind.as_str() {
            "characters" => ("loyalty.character", "loyalty_characters"),
            "products" => ("loyalty.product", "loyalty_products"),
            "programs" => ("loyalty.program", "loyalty_programs"),
            "quests" => ("loyalty.quest", "loyalty_quests"),
            _ => return Err(ApiError::field("kind", FieldCode::NotFound)),
        };
        let target = (action, table, sysname.as_str());
        // Each kind: its input, read from the body, put in one audited transaction with what
        // the put replaced.
        macro_rules! put {
            ($input:ty, $put:path) => {{
                let (input, name): ($input, String) = (body(&bytes)?, sysname.clone());
                audited_tx(&state, &staff, target, serde_json::to_value(&input).unwrap_or_default(), |conn| {
                    Box::pin(async move {
                        let before = item_now(conn, table, &name).await?;
                        Ok(($put(conn, &name, &input).await?, before))
                    })
                })
                .await?
            }};
        }
        let id = match kind.as_str() {
            "characters" => put!(CharacterInput, put_character),
            "products" => put!(ProductInput, put_product),
            "programs" => put!(ProgramInput, put_program),
            _ => put!(QuestInput, put_quest),
        };
        Ok(json!({ "id": id }))
    }
    .await;
    trail::audited(answer(result))
}

async fn admin_points(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let input: PointsInput = body(&bytes)?;
        let written = adjust(&state, &trail::Actor::from(&staff), &input).await?;
        Ok(json!({ "written": written }))
    }
    .await;
    // The change wrote its own audit row in its transaction (a repeated key changed nothing).
    trail::audited(answer(result))
}

async fn admin_account(State(state): State<AppState>, _: Operator, Path(user_id): Path<i64>) -> Response {
    let result = async {
        let mut conn = state.db().pool().acquire().await?;
        let row: Option<(i64, i64, i64, Option<i64>, i64)> = sqlx::query_as(
            "SELECT points, lifetime, level, character_id, active FROM loyalty_accounts WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?;
        let Some((points, lifetime, level, character, active)) = row else {
            return Err(ApiError::field("user_id", FieldCode::NotFound));
        };
        let entries: Vec<(String, String, i64, i64, Option<String>, i64)> = sqlx::query_as(
            "SELECT entry_key, kind, points, lifetime, reason, created_at FROM loyalty_entries WHERE user_id = $1 ORDER BY id DESC LIMIT 50",
        )
        .bind(user_id)
        .fetch_all(&mut *conn)
        .await?;
        let earned: i64 = sqlx::query_scalar(
            "SELECT COALESCE(SUM(w.points), 0) FROM wallet_transactions w JOIN game_rounds r ON r.id = w.round_id \
             WHERE r.user_id = $1 AND w.kind = 'bet'",
        )
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
        Ok(json!({
            "user_id": user_id,
            "points": super::whole(points), "points_milli": points,
            "lifetime_points": super::whole(lifetime), "lifetime_milli": lifetime,
            "earned_by_bets_milli": earned,
            "level": level, "character_id": character, "active": active != 0,
            "entries": entries.iter().map(|(k, kind, p, l, r, at)| json!({"key": k, "kind": kind, "points_milli": p,
                "lifetime_milli": l, "reason": r, "created_at": at / 1000})).collect::<Vec<Value>>(),
        }))
    }
    .await;
    answer(result)
}

// ----- the demo programme -----

/// The demo programme the demo content describes ("Croupier Club": a point per 10 units on
/// casino games, one per 5 on sports; Bronze, Silver, Gold, Platinum; three characters; a shop;
/// two programmes of quests), made once, when there is no level yet. Its rewards are manual
/// campaigns (`loyalty-*`), made with it. Operators change any of it over the admin API.
pub async fn seed_demo(db: &crate::db::Db) -> anyhow::Result<bool> {
    use crate::features::bonuses::admin::{AmountInput, CampaignInput, write_campaign};
    let mut tx = db.begin().await?;
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM loyalty_levels").fetch_one(&mut *tx).await?;
    if count > 0 {
        return Ok(false);
    }
    let campaign =
        |sysname: &str, reward: &str, amount: i64, spins: i64, en: (&str, &str), fr: (&str, &str)| CampaignInput {
            sysname: sysname.into(),
            status: Some("active".into()),
            trigger: "manual".into(),
            deposit_number: None,
            exclude_methods: Vec::new(),
            countries: Vec::new(),
            reward: reward.into(),
            match_percent: 0,
            freespin_game: (spins > 0).then(|| "gem-rush".into()),
            freespin_count: spins,
            wager_multiplier: 10,
            wager_includes_deposit: false,
            games: Vec::new(),
            title_en: en.0.into(),
            title_fr: fr.0.into(),
            text_en: en.1.into(),
            text_fr: fr.1.into(),
            terms_en: "Wager the bonus 10 times within 14 days.".into(),
            terms_fr: "Misez le bonus 10 fois en 14 jours.".into(),
            image_url: None,
            promotions: Vec::new(),
            starts_at: None,
            ends_at: None,
            claim_days: Some(14),
            wager_days: Some(14),
            max_takers: None,
            amounts: ["USD", "EUR", "GBP", "CAD"]
                .iter()
                .map(|c| AmountInput {
                    currency: (*c).to_owned(),
                    min_deposit: 0,
                    max_bonus: amount,
                    max_bet: 500,
                    max_conversion: None,
                    freespin_bet: if spins > 0 { 20 } else { 0 },
                })
                .collect(),
            version: None,
        };
    let mut ids = std::collections::HashMap::new();
    for c in [
        campaign(
            "loyalty-silver",
            "fixed",
            1_000,
            0,
            ("Silver level bonus", "A bonus for reaching Silver."),
            ("Bonus niveau Argent", "Un bonus pour avoir atteint le niveau Argent."),
        ),
        campaign(
            "loyalty-gold",
            "fixed",
            2_500,
            0,
            ("Gold level bonus", "A bonus for reaching Gold."),
            ("Bonus niveau Or", "Un bonus pour avoir atteint le niveau Or."),
        ),
        campaign(
            "loyalty-platinum",
            "fixed",
            10_000,
            0,
            ("Platinum level bonus", "A bonus for reaching Platinum."),
            ("Bonus niveau Platine", "Un bonus pour avoir atteint le niveau Platine."),
        ),
        campaign(
            "loyalty-shop-5",
            "fixed",
            500,
            0,
            ("Club bonus", "A bonus bought with chips."),
            ("Bonus du club", "Un bonus acheté avec des jetons."),
        ),
        campaign(
            "loyalty-shop-50",
            "fixed",
            5_000,
            0,
            ("Big club bonus", "A big bonus bought with chips."),
            ("Gros bonus du club", "Un gros bonus acheté avec des jetons."),
        ),
        campaign(
            "loyalty-shop-spins",
            "freespins",
            0,
            20,
            ("Club free spins", "20 free spins on Gem Rush."),
            ("Tours gratuits du club", "20 tours gratuits sur Gem Rush."),
        ),
    ] {
        let existing: Option<i64> = sqlx::query_scalar("SELECT id FROM campaigns WHERE sysname = $1")
            .bind(&c.sysname)
            .fetch_optional(&mut *tx)
            .await?;
        let id = match existing {
            Some(id) => id,
            None => {
                c.check(&mut tx).await.map_err(|e| anyhow::anyhow!("demo campaign {}: {e:?}", c.sysname))?;
                write_campaign(&mut tx, &c).await?
            }
        };
        ids.insert(c.sysname.clone(), id);
    }
    write_settings(&mut tx, &SettingsInput { active: true, levels_drop: false }).await?;
    let mut rates = Vec::new();
    for currency in ["USD", "EUR", "GBP", "CAD"] {
        rates.push(RateInput { game_type: "*".into(), currency: currency.into(), milli_per_unit: 100 });
        rates.push(RateInput { game_type: "sport".into(), currency: currency.into(), milli_per_unit: 200 });
    }
    write_rates(&mut tx, &rates).await?;
    let level = |level: i64, min_points: i64, en: (&str, &str), fr: (&str, &str), campaign: Option<&str>| LevelInput {
        level,
        min_points,
        title_en: en.0.into(),
        title_fr: fr.0.into(),
        description_en: en.1.into(),
        description_fr: fr.1.into(),
        image: None,
        campaign_id: campaign.and_then(|c| ids.get(c).copied()),
    };
    let levels = [
        level(
            1,
            0,
            ("Bronze", "Welcome to the club: weekly cashback of 5%."),
            ("Bronze", "Bienvenue au club : cashback hebdomadaire de 5 %."),
            None,
        ),
        level(
            2,
            1_000,
            ("Silver", "Cashback of 7% and a birthday bonus."),
            ("Argent", "Cashback de 7 % et un bonus d'anniversaire."),
            Some("loyalty-silver"),
        ),
        level(
            3,
            5_000,
            ("Gold", "Cashback of 10% and faster withdrawals."),
            ("Or", "Cashback de 10 % et des retraits plus rapides."),
            Some("loyalty-gold"),
        ),
        level(
            4,
            20_000,
            ("Platinum", "Cashback of 15% and a personal manager."),
            ("Platine", "Cashback de 15 % et un gestionnaire personnel."),
            Some("loyalty-platinum"),
        ),
    ];
    check_levels(&mut tx, &levels).await.map_err(|e| anyhow::anyhow!("demo levels: {e:?}"))?;
    write_levels(&mut tx, &levels).await?;
    let character = |en: (&str, &str), fr: (&str, &str), min_level: i64, position: i64| CharacterInput {
        title_en: en.0.into(),
        title_fr: fr.0.into(),
        description_en: en.1.into(),
        description_fr: fr.1.into(),
        image: None,
        min_level,
        position,
        active: true,
    };
    put_character(
        &mut tx,
        "rookie",
        &character(
            ("The Rookie", "Fresh at the table, eyes wide open."),
            ("Le Débutant", "Tout juste arrivé à la table, les yeux grands ouverts."),
            1,
            1,
        ),
    )
    .await
    .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    put_character(
        &mut tx,
        "shark",
        &character(
            ("The Shark", "Calm, patient, always circling."),
            ("Le Requin", "Calme, patient, toujours en chasse."),
            2,
            2,
        ),
    )
    .await
    .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    put_character(
        &mut tx,
        "high-roller",
        &character(
            ("The High Roller", "Big stakes, bigger smile."),
            ("Le Flambeur", "Grosses mises, plus grand sourire."),
            3,
            3,
        ),
    )
    .await
    .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let product = |en: (&str, &str),
                   fr: (&str, &str),
                   price: i64,
                   kind: &str,
                   campaign: Option<&str>,
                   boost: Option<i64>,
                   min_level: i64,
                   position: i64| ProductInput {
        title_en: en.0.into(),
        title_fr: fr.0.into(),
        description_en: en.1.into(),
        description_fr: fr.1.into(),
        image: None,
        price,
        kind: kind.into(),
        campaign_id: campaign.and_then(|c| ids.get(c).copied()),
        boost_bps: boost,
        min_level,
        stock: None,
        position,
        active: true,
    };
    for (sysname, p) in [
        (
            "bonus-5",
            product(
                ("5 bonus", "5 of bonus money, wager 10 times."),
                ("Bonus de 5", "5 de bonus, à miser 10 fois."),
                100,
                "bonus",
                Some("loyalty-shop-5"),
                None,
                1,
                1,
            ),
        ),
        (
            "spins-20",
            product(
                ("20 free spins", "20 free spins on Gem Rush."),
                ("20 tours gratuits", "20 tours gratuits sur Gem Rush."),
                150,
                "freespins",
                Some("loyalty-shop-spins"),
                None,
                1,
                2,
            ),
        ),
        (
            "cashback-boost",
            product(
                ("Cashback boost +5%", "Your next cashback is 5% higher."),
                ("Cashback boosté +5 %", "Votre prochain cashback est 5 % plus élevé."),
                300,
                "cashback_boost",
                None,
                Some(500),
                2,
                3,
            ),
        ),
        (
            "bonus-50",
            product(
                ("50 bonus", "50 of bonus money, wager 10 times."),
                ("Bonus de 50", "50 de bonus, à miser 10 fois."),
                2_000,
                "bonus",
                Some("loyalty-shop-50"),
                None,
                1,
                4,
            ),
        ),
    ] {
        put_product(&mut tx, sysname, &p).await.map_err(|e| anyhow::anyhow!("demo product {sysname}: {e:?}"))?;
    }
    let program = |en: (&str, &str), fr: (&str, &str), position: i64| ProgramInput {
        title_en: en.0.into(),
        title_fr: fr.0.into(),
        description_en: en.1.into(),
        description_fr: fr.1.into(),
        image: None,
        position,
        active: true,
    };
    put_program(
        &mut tx,
        "first-steps",
        &program(
            ("First steps", "Settle in and earn your first chips."),
            ("Premiers pas", "Installez-vous et gagnez vos premiers jetons."),
            1,
        ),
    )
    .await
    .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    put_program(
        &mut tx,
        "slot-explorer",
        &program(
            ("Slot explorer", "Spin the reels and get rewarded."),
            ("Explorateur de machines à sous", "Faites tourner les rouleaux et soyez récompensé."),
            2,
        ),
    )
    .await
    .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let quest = |program: &str,
                 en: (&str, &str),
                 fr: (&str, &str),
                 goal: &str,
                 target: i64,
                 game_type: Option<&str>,
                 reward: i64,
                 position: i64| QuestInput {
        program: program.into(),
        title_en: en.0.into(),
        title_fr: fr.0.into(),
        description_en: en.1.into(),
        description_fr: fr.1.into(),
        goal: goal.into(),
        target,
        game_type: game_type.map(str::to_owned),
        reward_points: reward,
        position,
        active: true,
    };
    for (sysname, q) in [
        (
            "confirm-email",
            quest(
                "first-steps",
                ("Confirm your e-mail", "Confirm your e-mail address."),
                ("Confirmez votre e-mail", "Confirmez votre adresse e-mail."),
                "confirm_email",
                1,
                None,
                50,
                1,
            ),
        ),
        (
            "fill-profile",
            quest(
                "first-steps",
                ("Fill in your profile", "Give your name, birth date and country."),
                ("Complétez votre profil", "Indiquez vos nom, date de naissance et pays."),
                "fill_profile",
                1,
                None,
                50,
                2,
            ),
        ),
        (
            "three-deposits",
            quest(
                "first-steps",
                ("Make 3 deposits", "Make three successful deposits."),
                ("Faites 3 dépôts", "Réussissez trois dépôts."),
                "deposits",
                3,
                None,
                100,
                3,
            ),
        ),
        (
            "hundred-slot-rounds",
            quest(
                "slot-explorer",
                ("Play 100 slot rounds", "Play 100 real-money rounds on slots."),
                ("Jouez 100 tours de machines à sous", "Jouez 100 tours en argent réel sur les machines à sous."),
                "rounds",
                100,
                Some("slot"),
                200,
                1,
            ),
        ),
    ] {
        put_quest(&mut tx, sysname, &q).await.map_err(|e| anyhow::anyhow!("demo quest {sysname}: {e:?}"))?;
    }
    tx.commit().await?;
    tracing::info!("demo loyalty programme made");
    Ok(true)
}
