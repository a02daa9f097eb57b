//! The loyalty shop (SPEC §7 `loyalty.getproducts`, `loyalty.buyproduct`; the buy-confirm and
//! insufficient-funds dialogs of §4). A product is priced in whole points and grants, through the
//! bonus engine, a campaign's bonus money, free spins or free bet (`bonus`, `freespins`,
//! `freebet`), or a cashback boost (`cashback_boost`: basis points added to the player's next
//! cashback, see `cashbacks::close`).
//!
//! A purchase is one transaction on the player's lane: the points are spent (entry
//! `purchase:{id}`), the stock taken, the reward granted (claim key `loyalty:purchase:{id}`), the
//! notice written and the bot's message queued — or nothing at all. The client sends a
//! `request_id` made when the confirm dialog opens: a second press or a retry with it answers the
//! first purchase and spends nothing more.

use super::notices::{self, Draft};
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, MaybeUser, Registry};
use crate::db::now_ms;
use crate::features::bonuses::Rules;
use crate::features::notify::{self, Notice};
use croupier_shared::{FieldCode, Locale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;

pub fn register(api: &mut Registry) {
    api.read(
        "loyalty.getproducts",
        "The loyalty shop's products (offset, count); guests see them without availability.",
        getproducts,
    );
    api.write(
        "loyalty.buyproduct",
        "Buys a product with points (product_id, request_id: a retry with the same id buys once).",
        buyproduct,
    );
}

/// What a product can grant.
pub const KINDS: [&str; 4] = ["bonus", "freespins", "freebet", "cashback_boost"];

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProductRow {
    pub id: i64,
    pub sysname: String,
    pub title_en: String,
    pub title_fr: String,
    pub description_en: String,
    pub description_fr: String,
    pub image: Option<String>,
    pub price: i64,
    pub kind: String,
    pub campaign_id: Option<i64>,
    pub boost_bps: Option<i64>,
    pub min_level: i64,
    pub stock: Option<i64>,
}

const COLUMNS: &str = "id, sysname, title_en, title_fr, description_en, description_fr, image, price, kind, campaign_id, boost_bps, min_level, stock";

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ProductsQuery {
    /// 0 or more (default 0).
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 50).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
}

impl Input for ProductsQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        crate::features::bonuses::methods::page_checks(self.offset, self.count, errors);
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Product {
    pub id: i64,
    pub sysname: String,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    /// Whole points.
    pub price: i64,
    pub kind: String,
    pub min_level: i64,
    /// Left to sell; none: unlimited.
    pub stock: Option<i64>,
    /// The signed-in player may buy it now (level reached, in stock, programme on); points are
    /// checked when buying.
    pub available: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Products {
    pub total: i64,
    pub items: Vec<Product>,
}

async fn getproducts(ctx: Ctx, user: MaybeUser, query: ProductsQuery) -> Result<Products, ApiError> {
    let mut conn = ctx.state.db().pool().acquire().await?;
    let total: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM loyalty_products WHERE active = 1").fetch_one(&mut *conn).await?;
    let rows: Vec<ProductRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM loyalty_products WHERE active = 1 ORDER BY position, id LIMIT $1 OFFSET $2"
    )))
    .bind(query.count.unwrap_or(50))
    .bind(query.offset.unwrap_or(0))
    .fetch_all(&mut *conn)
    .await?;
    let on = super::settings(&mut conn).await?.active;
    let level = match user.0 {
        Some(user) => {
            let level: Option<i64> =
                sqlx::query_scalar("SELECT level FROM loyalty_accounts WHERE user_id = $1 AND active = 1")
                    .bind(user.id)
                    .fetch_optional(&mut *conn)
                    .await?;
            level
        }
        None => None,
    };
    let fr = ctx.locale == Locale::Fr;
    let items = rows
        .into_iter()
        .map(|p| Product {
            available: on && level.is_some_and(|l| l >= p.min_level) && p.stock.is_none_or(|s| s > 0),
            id: p.id,
            sysname: p.sysname,
            title: if fr { p.title_fr } else { p.title_en },
            description: if fr { p.description_fr } else { p.description_en },
            image: p.image,
            price: p.price,
            kind: p.kind,
            min_level: p.min_level,
            stock: p.stock,
        })
        .collect();
    Ok(Products { total, items })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BuyInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true), range(min = 1))]
    pub product_id: Option<i64>,
    /// Made by the client when the confirm dialog opens (at most 64 characters, not blank, no
    /// control characters).
    #[serde(default)]
    #[schemars(length(max = 64), pattern(r"^[^\x00-\x1F\x7F-\x9F]*\S[^\x00-\x1F\x7F-\x9F]*$"))]
    pub request_id: Option<String>,
}

impl Input for BuyInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.product_id {
            None => errors.add("product_id", FieldCode::Required),
            Some(id) if id < 1 => errors.add("product_id", FieldCode::Invalid),
            Some(_) => {}
        }
        if let Some(r) = &self.request_id {
            if r.chars().count() > 64 {
                errors.add_with("request_id", FieldCode::MaxLength, vec![("max", "64".into())]);
            } else if r.trim().is_empty() || r.chars().any(char::is_control) {
                errors.add("request_id", FieldCode::Invalid);
            }
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Purchase {
    pub id: i64,
    pub product_id: i64,
    pub title: String,
    pub price: i64,
    pub kind: String,
    /// Unix seconds.
    pub created_at: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Bought {
    pub purchase: Purchase,
    /// Spendable points after it.
    pub points: i64,
}

async fn buyproduct(ctx: Ctx, user: AuthUser, input: BuyInput) -> Result<Bought, ApiError> {
    crate::features::protection::refuse_if_excluded(&ctx.state, user.id).await?;
    let (user_id, product_id, locale) = (user.id, input.product_id.unwrap_or(0), ctx.locale);
    let request = input.request_id.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let request_key = std::sync::Arc::new(format!("{user_id}:{request}"));
    let (db, rules) = (ctx.state.db().clone(), Rules::of(&ctx.state));
    ctx.state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let (db, key) = (db.clone(), std::sync::Arc::clone(&request_key));
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    buy(conn, &rules, user_id, product_id, &key, locale).await
                })
            }),
        )
        .await
}

async fn product(conn: &mut AnyConnection, id: i64) -> Result<Option<ProductRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM loyalty_products WHERE id = $1")))
        .bind(id)
        .fetch_optional(&mut *conn)
        .await
}

async fn answer(
    conn: &mut AnyConnection,
    purchase_id: i64,
    product: &ProductRow,
    price: i64,
    created_at: i64,
    user_id: i64,
    locale: Locale,
) -> Result<Bought, ApiError> {
    let points: i64 = sqlx::query_scalar("SELECT points FROM loyalty_accounts WHERE user_id = $1")
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
    Ok(Bought {
        purchase: Purchase {
            id: purchase_id,
            product_id: product.id,
            title: if locale == Locale::Fr { product.title_fr.clone() } else { product.title_en.clone() },
            price,
            kind: product.kind.clone(),
            created_at: created_at / 1000,
        },
        points: super::whole(points),
    })
}

/// One purchase (see the module's docs), in the caller's transaction with the player locked.
pub async fn buy(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    product_id: i64,
    request_key: &str,
    locale: Locale,
) -> Result<Bought, ApiError> {
    let before: Option<(i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT id, product_id, price, created_at FROM loyalty_purchases WHERE request_key = $1 AND user_id = $2",
    )
    .bind(request_key)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((id, bought, price, at)) = before {
        // The same request again: the first answer, nothing spent twice.
        if bought != product_id {
            return Err(ApiError::field("request_id", FieldCode::Duplicate));
        }
        let Some(p) = product(conn, bought).await? else {
            return Err(ApiError::field("product_id", FieldCode::NotFound));
        };
        return answer(conn, id, &p, price, at, user_id, locale).await;
    }
    let Some(p) = product(conn, product_id).await? else {
        return Err(ApiError::field("product_id", FieldCode::NotFound));
    };
    let active: i64 = sqlx::query_scalar("SELECT active FROM loyalty_products WHERE id = $1")
        .bind(product_id)
        .fetch_one(&mut *conn)
        .await?;
    if active == 0 {
        return Err(ApiError::field("product_id", FieldCode::NotFound));
    }
    let account = super::account(conn, rules, user_id).await?;
    let on = super::settings(conn).await?.active;
    if !on || account.active == 0 || account.level < p.min_level || p.stock.is_some_and(|s| s <= 0) {
        return Err(ApiError::field("product_id", FieldCode::Locked));
    }
    let cost = p.price.saturating_mul(super::MILLI);
    if account.points < cost {
        return Err(ApiError::field("product_id", FieldCode::InsufficientPoints));
    }
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO loyalty_purchases (user_id, product_id, request_key, price, bonus_id, created_at) \
         VALUES ($1, $2, $3, $4, NULL, $5) RETURNING id",
    )
    .bind(user_id)
    .bind(p.id)
    .bind(request_key)
    .bind(p.price)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    if p.stock.is_some() {
        sqlx::query("UPDATE loyalty_products SET stock = stock - 1 WHERE id = $1 AND stock > 0")
            .bind(p.id)
            .execute(&mut *conn)
            .await?;
    }
    super::entry(conn, rules, user_id, &format!("purchase:{id}"), "purchase", -cost, 0, Some(&p.sysname)).await?;
    match (p.kind.as_str(), p.campaign_id, p.boost_bps) {
        ("cashback_boost", _, Some(bps)) => {
            sqlx::query("INSERT INTO cashback_boosts (user_id, purchase_id, bps, cashback_id, created_at) VALUES ($1, $2, $3, NULL, $4)")
                .bind(user_id)
                .bind(id)
                .bind(bps)
                .bind(now)
                .execute(&mut *conn)
                .await?;
        }
        (_, Some(campaign_id), _) => {
            // Bought and paid for: the active-bonus limit does not hold it back.
            let owed = Rules { max_active: i64::MAX, ..*rules };
            let claim = format!("loyalty:purchase:{id}");
            let bonus_id = crate::features::bonuses::admin::grant_in(
                conn,
                &owed,
                user_id,
                campaign_id,
                &claim,
                &format!("loyalty shop: {}", p.sysname),
            )
            .await
            .map_err(|e| {
                tracing::warn!(user_id, product = %p.sysname, error = ?e, "shop product cannot be granted");
                ApiError::field("product_id", FieldCode::PromoNotEligible)
            })?;
            sqlx::query("UPDATE loyalty_purchases SET bonus_id = $1 WHERE id = $2")
                .bind(bonus_id)
                .bind(id)
                .execute(&mut *conn)
                .await?;
        }
        _ => {
            tracing::error!(product = %p.sysname, "shop product has nothing to grant");
            return Err(ApiError::field("product_id", FieldCode::Locked));
        }
    }
    let key = format!("purchase:{id}");
    notices::add(
        conn,
        user_id,
        &key,
        Draft {
            trigger: "product",
            kind: "other",
            title: (format!("You bought {}", p.title_en), format!("Vous avez acheté {}", p.title_fr)),
            message: (p.description_en.clone(), p.description_fr.clone()),
            amount: Some((p.price, "points".to_owned())),
            image: p.image.clone(),
        },
    )
    .await?;
    let notice = Notice::ProductBought {
        purchase_id: id,
        title_en: p.title_en.clone(),
        title_fr: p.title_fr.clone(),
        price: p.price,
    };
    notify::enqueue(conn, user_id, &key, &notice).await?;
    answer(conn, id, &p, p.price, now, user_id, locale).await
}
