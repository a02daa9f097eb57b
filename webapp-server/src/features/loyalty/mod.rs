//! Loyalty (SPEC §2 `/loyalty`, `/loyalty/{sysname}`, `/loyalty/shop`, `/profile/loyalty`; §3
//! "Loyalty info", "Progress", "Loyalty notification"; §7 `loyalty.*`).
//!
//! **Points.** Every real-money stake earns points at a rate per game type and currency
//! (`loyalty_rates`, milli-points per major unit; `*` is any other game type). The part of a stake
//! paid with bonus money earns nothing, nor does demo play. Points are kept in thousandths so a
//! small stake still counts; every answer shows whole points (rounded down). The accrual is part of
//! the wallet's bet, in its transaction on the group committer ([`accrue`]); it is written on the
//! bet's own `wallet_transactions` row (`points`), so a rollback takes back exactly what that bet
//! earned ([`reverse`]). Every other movement (quests, purchases, operators' adjustments,
//! rollbacks) is a `loyalty_entries` row with a unique key: each happens once whatever the retries.
//! A player has two balances: spendable `points` (the shop spends them; a rollback after a
//! purchase can leave them negative, which blocks the shop until play earns them back) and
//! `lifetime` points, which only play, quests and adjustments move.
//!
//! **Levels** (`loyalty_levels`) are reached on lifetime points. Reaching one writes a notice,
//! grants its campaign through the bonus engine (claim key `loyalty:{user}:level:{level}`) and
//! tells the player through the bot. The hot path compares lifetime points with one stored number
//! (`next_level_at`); only crossing it reads the levels. A level never drops, unless the programme's
//! `levels_drop` switch says a rollback may take it back.
//!
//! **Where the configuration lives.** Rates, levels, characters, products, programmes and quests
//! move points and money, so they live in the database behind the admin API ([`admin`]): validated,
//! read in the transaction that uses them, the same on every replica. The content service keeps
//! what is only shown: the programme's title, description, rules, the points' alias
//! (`pointsAlias`), the notices' timing and the level images a level without its own falls back on.
//!
//! The methods: `loyalty.getinfo`, `loyalty.getcharacters`, `loyalty.setcharacter` (here);
//! `loyalty.getproducts`, `loyalty.buyproduct` ([`shop`]); `loyalty.getPrograms`,
//! `loyalty.getProgram` ([`quests`]); `loyalty.getnotifications` ([`notices`]).

pub mod admin;
pub mod notices;
pub mod quests;
pub mod shop;
pub mod summary;

use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, Registry};
use crate::db::now_ms;
use crate::features::bonuses::Rules;
use crate::features::content::store::Cache;
use crate::features::notify::{self, Notice};
use croupier_shared::{Currency, FieldCode, Locale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::AnyConnection;
use std::sync::Arc;

/// Milli-points in a point.
pub const MILLI: i64 = 1000;

pub fn register(api: &mut Registry, cache: &Arc<Cache>) {
    let info_cache = Arc::clone(cache);
    api.read(
        "loyalty.getinfo",
        "The player's loyalty account: points, lifetime points, level, progress, character, levels.",
        move |ctx, user, input: NoInput| getinfo(ctx, Arc::clone(&info_cache), user, input),
    );
    api.read("loyalty.getcharacters", "The characters a player may choose.", getcharacters);
    let set_cache = Arc::clone(cache);
    api.write(
        "loyalty.setcharacter",
        "Chooses the player's character (id); answers the loyalty account.",
        move |ctx, user, input: CharacterInput| setcharacter(ctx, Arc::clone(&set_cache), user, input),
    );
    shop::register(api);
    quests::register(api);
    notices::register(api);
}

/// Whole points of `milli` milli-points (rounded towards minus infinity: a debt shows whole).
pub fn whole(milli: i64) -> i64 {
    milli.div_euclid(MILLI)
}

/// The milli-points a real-money stake of `stake` minor units of `currency` earns at `rate`
/// milli-points per major unit.
pub fn earned(stake: i64, rate: i64, currency: Currency) -> i64 {
    let milli = i128::from(stake.max(0)) * i128::from(rate.max(0)) / i128::from(currency.scale().max(1));
    i64::try_from(milli).unwrap_or(i64::MAX)
}

/// The programme's switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub active: bool,
    pub levels_drop: bool,
}

pub async fn settings(conn: &mut AnyConnection) -> Result<Settings, sqlx::Error> {
    let row: Option<(i64, i64)> = sqlx::query_as("SELECT active, levels_drop FROM loyalty_settings WHERE id = 1")
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row.map_or(Settings { active: true, levels_drop: false }, |(a, d)| Settings {
        active: a != 0,
        levels_drop: d != 0,
    }))
}

// ---------------------------------------------------------------------------------------------
// The hot path: a bet earns points, its rollback takes them back.

/// The loyalty upsert of [`accrue`] and [`accrue_many`]: a new account (made on the first bet)
/// or the points added to an active one (an excluded account is left alone), after the caller's
/// `SELECT` of (player, milli-points) rows.
macro_rules! accrue_sql {
    ($select:literal) => {
        concat!(
            "INSERT INTO loyalty_accounts (user_id, points, lifetime, level, next_level_at, active, created_at, updated_at, last_earned) ",
            $select,
            " ON CONFLICT (user_id) DO UPDATE \
             SET points = loyalty_accounts.points + excluded.points, lifetime = loyalty_accounts.lifetime + excluded.lifetime, \
             updated_at = excluded.updated_at, last_earned = excluded.last_earned WHERE loyalty_accounts.active = 1"
        )
    };
}

/// Credits the points a real-money stake of `stake` (the part paid from main) earns on `game_id`,
/// in the bet's transaction. Answers the milli-points credited (0: no rate, programme off or the
/// account excluded), which the caller writes on the bet's wallet row.
pub async fn accrue(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    game_id: i64,
    currency: Currency,
    stake: i64,
) -> Result<i64, sqlx::Error> {
    if stake <= 0 {
        return Ok(0);
    }
    // One statement on the hot path: the rate (the game's own type wins over "*"; the
    // programme's switch rides along, no row: on), the points it earns — floor(stake × rate /
    // scale), computed as in [`earned`] without overflowing — and the account's update (made on
    // the first bet, left alone when excluded). `last_earned` answers what was credited.
    let scale = currency.scale().max(1);
    let row: Option<(i64, i64, i64)> = sqlx::query_as(concat!(accrue_sql!(
        "SELECT $1, e.milli, e.milli, 0, 0, 1, $2, $2, e.milli FROM ( \
           SELECT ($3 / $4) * r.milli_per_unit + (($3 % $4) * r.milli_per_unit) / $4 AS milli \
           FROM games g JOIN loyalty_rates r ON r.game_type IN (g.game_type, '*') \
           WHERE g.id = $5 AND r.currency = $6 AND NOT EXISTS (SELECT 1 FROM loyalty_settings s WHERE s.id = 1 AND s.active = 0) \
           ORDER BY CASE WHEN r.game_type = '*' THEN 1 ELSE 0 END LIMIT 1 \
         ) e WHERE e.milli > 0"
    ), " RETURNING lifetime, next_level_at, last_earned"))
    .bind(user_id)
    .bind(now_ms())
    .bind(stake)
    .bind(scale)
    .bind(game_id)
    .bind(currency.code())
    .fetch_optional(&mut *conn)
    .await?;
    let Some((lifetime, next, milli)) = row else { return Ok(0) };
    if lifetime >= next {
        advance(conn, rules, user_id).await?;
    }
    Ok(milli)
}

/// [`accrue`] for many stakes at once (the merged house rounds, `games::house::batch`, and an
/// aggregator's merged bets, `games::wallet`): `earned` holds (player, milli-points) per stake,
/// computed by the caller with [`earned`] at the rate it read in the lane's transaction (the
/// programme on, the account active or not made yet); a player's stakes are summed here. One
/// upsert for all, then each account that reached its next level is settled as [`accrue`]
/// settles it.
///
/// Only those accounts come back from the database (as a rule none). The upsert used to answer
/// every account's totals, a row per player decoded on the lane's serial path: in the lane's
/// trace of a run of ~105 merged aggregator calls the accrual took 653 µs (median) that way and
/// 389 µs this way (2026-11-30). On SQLite a `SELECT` after the upsert, in the same round trip,
/// names them; on PostgreSQL the upsert's own rows are filtered in the statement.
pub async fn accrue_many(conn: &mut AnyConnection, rules: &Rules, earned: &[(i64, i64)]) -> Result<(), sqlx::Error> {
    let mut by_player: std::collections::BTreeMap<i64, i64> = std::collections::BTreeMap::new();
    for &(user_id, milli) in earned.iter().filter(|(_, milli)| *milli > 0) {
        let sum = by_player.entry(user_id).or_default();
        *sum = sum.saturating_add(milli);
    }
    let earned: Vec<[i64; 2]> = by_player.into_iter().map(|(u, m)| [u, m]).collect();
    if earned.is_empty() {
        return Ok(());
    }
    const POSTGRES: &str = concat!(
        "WITH u AS (",
        accrue_sql!(
            "SELECT CAST(value ->> 0 AS BIGINT), CAST(value ->> 1 AS BIGINT), CAST(value ->> 1 AS BIGINT), 0, 0, 1, $2, $2, \
             CAST(value ->> 1 AS BIGINT) FROM jsonb_array_elements(CAST($1 AS JSONB))"
        ),
        " RETURNING user_id, lifetime, next_level_at) SELECT user_id FROM u WHERE lifetime >= next_level_at"
    );
    // `WHERE true`: SQLite's upsert after a SELECT … FROM needs a WHERE to parse. The excluded
    // accounts the upsert left alone are not named (`active = 1`), as they were not answered.
    const SQLITE: &str = concat!(
        accrue_sql!(
            "SELECT value ->> 0, value ->> 1, value ->> 1, 0, 0, 1, $2, $2, value ->> 1 FROM json_each($1) WHERE true"
        ),
        ";\nSELECT user_id FROM loyalty_accounts WHERE user_id IN (SELECT value ->> 0 FROM json_each($1)) \
         AND active = 1 AND lifetime >= next_level_at"
    );
    let sql = if crate::ledger::is_postgres(conn) { POSTGRES } else { SQLITE };
    // `fetch_all`: on SQLite the rows come from the batch's second statement.
    let reached: Vec<i64> = sqlx::query_scalar(sql)
        .bind(serde_json::to_string(&earned).unwrap_or_default())
        .bind(now_ms())
        .fetch_all(&mut *conn)
        .await?;
    for user_id in reached {
        advance(conn, rules, user_id).await?;
    }
    Ok(())
}

/// Takes back what a rolled-back bet earned (`milli`, read from its wallet row), once per
/// rollback (`key`). Under `levels_drop` the level follows lifetime points down.
pub async fn reverse(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    milli: i64,
    key: &str,
) -> Result<(), sqlx::Error> {
    if milli <= 0 {
        return Ok(());
    }
    if entry(conn, rules, user_id, key, "rollback", -milli, -milli, None).await? && settings(conn).await?.levels_drop {
        settle_level(conn, rules, user_id, true).await?;
    }
    Ok(())
}

/// Writes one points movement under `key` and applies it to the account (made if missing).
/// Answers false, changing nothing, when `key` was already written.
#[allow(clippy::too_many_arguments)]
pub async fn entry(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    key: &str,
    kind: &str,
    points: i64,
    lifetime: i64,
    reason: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let now = now_ms();
    let written: Option<i64> = sqlx::query_scalar(
        "INSERT INTO loyalty_entries (user_id, entry_key, kind, points, lifetime, reason, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (entry_key) DO NOTHING RETURNING id",
    )
    .bind(user_id)
    .bind(key)
    .bind(kind)
    .bind(points)
    .bind(lifetime)
    .bind(reason)
    .bind(now)
    .fetch_optional(&mut *conn)
    .await?;
    if written.is_none() {
        return Ok(false);
    }
    let (total, next): (i64, i64) = sqlx::query_as(
        "INSERT INTO loyalty_accounts (user_id, points, lifetime, level, next_level_at, active, created_at, updated_at) \
         VALUES ($1, $2, $3, 0, 0, 1, $4, $4) ON CONFLICT (user_id) DO UPDATE \
         SET points = loyalty_accounts.points + excluded.points, lifetime = loyalty_accounts.lifetime + excluded.lifetime, \
         updated_at = excluded.updated_at RETURNING lifetime, next_level_at",
    )
    .bind(user_id)
    .bind(points)
    .bind(lifetime)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    if total >= next {
        advance(conn, rules, user_id).await?;
    }
    Ok(true)
}

/// Makes the player's account if it does not exist yet (and welcomes them: level 1 and the
/// `register` notice once there is a level at 0 points).
pub async fn ensure(conn: &mut AnyConnection, rules: &Rules, user_id: i64) -> Result<(), sqlx::Error> {
    let now = now_ms();
    let made: Option<i64> = sqlx::query_scalar(
        "INSERT INTO loyalty_accounts (user_id, points, lifetime, level, next_level_at, active, created_at, updated_at) \
         VALUES ($1, 0, 0, 0, 0, 1, $2, $2) ON CONFLICT (user_id) DO NOTHING RETURNING user_id",
    )
    .bind(user_id)
    .bind(now)
    .fetch_optional(&mut *conn)
    .await?;
    if made.is_some() {
        advance(conn, rules, user_id).await?;
    }
    Ok(())
}

/// One level of the programme.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LevelRow {
    pub level: i64,
    pub min_points: i64,
    pub title_en: String,
    pub title_fr: String,
    pub description_en: String,
    pub description_fr: String,
    pub image: Option<String>,
    pub campaign_id: Option<i64>,
}

pub async fn levels(conn: &mut AnyConnection) -> Result<Vec<LevelRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT level, min_points, title_en, title_fr, description_en, description_fr, image, campaign_id \
         FROM loyalty_levels ORDER BY min_points, level",
    )
    .fetch_all(&mut *conn)
    .await
}

/// The level `lifetime` milli-points reach (0: none) and where the next one starts (i64::MAX:
/// the top).
pub fn level_of(levels: &[LevelRow], lifetime: i64) -> (i64, i64) {
    let mut reached = 0;
    let mut next = i64::MAX;
    for l in levels {
        if l.min_points.saturating_mul(MILLI) <= lifetime {
            reached = l.level;
        } else {
            next = l.min_points.saturating_mul(MILLI);
            break;
        }
    }
    (reached, next)
}

/// Crossed the next level's threshold: every level reached since is announced and rewarded.
async fn advance(conn: &mut AnyConnection, rules: &Rules, user_id: i64) -> Result<(), sqlx::Error> {
    settle_level(conn, rules, user_id, false).await
}

/// Sets the account's level from its lifetime points: up (announcing and rewarding each level
/// reached for the first time), and down only when `may_drop`.
async fn settle_level(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    may_drop: bool,
) -> Result<(), sqlx::Error> {
    let Some((lifetime, current)): Option<(i64, i64)> =
        sqlx::query_as("SELECT lifetime, level FROM loyalty_accounts WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *conn)
            .await?
    else {
        return Ok(());
    };
    let all = levels(conn).await?;
    let (reached, next) = level_of(&all, lifetime);
    let level = if reached < current && !may_drop { current } else { reached };
    // Under a level kept (no drop), the next threshold is the one above the kept level.
    let next = if level > reached {
        all.iter().find(|l| l.level > level).map_or(i64::MAX, |l| l.min_points.saturating_mul(MILLI))
    } else {
        next
    };
    sqlx::query("UPDATE loyalty_accounts SET level = $1, next_level_at = $2 WHERE user_id = $3")
        .bind(level)
        .bind(next)
        .bind(user_id)
        .execute(&mut *conn)
        .await?;
    if current == 0 && level > 0 {
        notices::add(
            conn,
            user_id,
            &format!("register:{user_id}"),
            notices::Draft {
                trigger: "register",
                kind: "other",
                title: ("Welcome to the club".into(), "Bienvenue au club".into()),
                message: (
                    "Every real-money bet now earns you points.".into(),
                    "Chaque mise en argent réel vous rapporte désormais des points.".into(),
                ),
                amount: None,
                image: None,
            },
        )
        .await?;
    }
    for l in all.iter().filter(|l| l.level > current && l.level <= level) {
        // The first level is where everyone starts: the welcome says it.
        if l.min_points == 0 {
            continue;
        }
        reached_level(conn, rules, user_id, l).await?;
    }
    Ok(())
}

/// Reaching `level` for the first time: the notice, its campaign, the bot's message (each once,
/// by key, so a level lost and reached again under `levels_drop` rewards once).
async fn reached_level(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    level: &LevelRow,
) -> Result<(), sqlx::Error> {
    let key = format!("level:{user_id}:{}", level.level);
    let fresh = notices::add(
        conn,
        user_id,
        &key,
        notices::Draft {
            trigger: "level",
            kind: "other",
            title: (
                format!("Level {}: {}", level.level, level.title_en),
                format!("Niveau {} : {}", level.level, level.title_fr),
            ),
            message: (level.description_en.clone(), level.description_fr.clone()),
            amount: None,
            image: level.image.clone(),
        },
    )
    .await?;
    if !fresh {
        return Ok(());
    }
    let mut reward = None;
    if let Some(campaign_id) = level.campaign_id {
        let claim = format!("loyalty:{user_id}:level:{}", level.level);
        let reason = format!("loyalty level {}", level.level);
        // A reward is owed: the active-bonus limit does not hold it back.
        let rules = Rules { max_active: i64::MAX, ..*rules };
        match crate::features::bonuses::admin::grant_in(conn, &rules, user_id, campaign_id, &claim, &reason).await {
            Ok(bonus) => reward = Some(bonus),
            // A reward that cannot be given (campaign ended, no amount in the player's currency)
            // leaves the level reached: operators see it in the log.
            Err(e) => tracing::warn!(user_id, level = level.level, error = ?e, "level reward not granted"),
        }
    }
    let (amount, currency) = match reward {
        Some(bonus_id) => {
            let row: Option<(i64, String)> =
                sqlx::query_as("SELECT amount, currency FROM player_bonuses WHERE id = $1")
                    .bind(bonus_id)
                    .fetch_optional(&mut *conn)
                    .await?;
            match row {
                Some((amount, code)) if amount > 0 => match Currency::parse(&code) {
                    Some(c) => (Some(notify::amount(amount, c)), Some(code)),
                    None => (None, None),
                },
                _ => (None, None),
            }
        }
        None => (None, None),
    };
    let notice = Notice::LoyaltyLevel {
        level: level.level,
        title_en: level.title_en.clone(),
        title_fr: level.title_fr.clone(),
        reward: amount,
        currency,
    };
    notify::enqueue(conn, user_id, &key, &notice).await
}

// ---------------------------------------------------------------------------------------------
// loyalty.getinfo

/// The account as the methods read it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AccountRow {
    pub user_id: i64,
    pub points: i64,
    pub lifetime: i64,
    pub level: i64,
    pub character_id: Option<i64>,
    pub active: i64,
}

pub async fn account(conn: &mut AnyConnection, rules: &Rules, user_id: i64) -> Result<AccountRow, sqlx::Error> {
    ensure(conn, rules, user_id).await?;
    sqlx::query_as(
        "SELECT user_id, points, lifetime, level, character_id, active FROM loyalty_accounts WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Amount {
    pub amount: String,
    pub currency: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Level {
    pub level: i64,
    pub title: String,
    pub description: String,
    pub min_points: i64,
    pub image: Option<String>,
    /// The bonus granted on reaching it, in the player's currency (none: no reward).
    pub reward: Option<Amount>,
    pub reached: bool,
}

/// SPEC §3 "Progress": the current level's threshold, the next one's, the lifetime points.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    pub min_value: i64,
    pub max_value: i64,
    pub exp_count: i64,
}

impl Progress {
    /// 0 to 100; 100 at the top level.
    pub fn percentage(&self) -> i64 {
        if self.max_value <= self.min_value {
            return 100;
        }
        ((self.exp_count - self.min_value) * 100 / (self.max_value - self.min_value)).clamp(0, 100)
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Character {
    pub id: i64,
    pub sysname: String,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
}

/// SPEC §3 "Loyalty info".
#[derive(Debug, Serialize, JsonSchema)]
pub struct Info {
    pub id: i64,
    pub is_active: bool,
    pub points: i64,
    pub lifetime_points: i64,
    pub level: i64,
    pub character: Option<Character>,
    pub levels: Vec<Level>,
    pub progress: Progress,
    #[serde(rename = "pointsAlias")]
    pub points_alias: String,
    pub uid: String,
}

fn pick<'a>(locale: Locale, en: &'a str, fr: &'a str) -> &'a str {
    if locale == Locale::Fr { fr } else { en }
}

async fn getinfo(ctx: Ctx, cache: Arc<Cache>, user: AuthUser, _: NoInput) -> Result<Info, ApiError> {
    opened(&ctx.state, user.id).await?;
    let mut conn = ctx.state.db().pool().acquire().await?;
    info(&ctx, &cache, &mut conn, user.id).await
}

/// Makes sure the player's account exists, making it (with its welcome) in one transaction on
/// the player's lane when it does not.
pub async fn opened(state: &crate::AppState, user_id: i64) -> Result<(), ApiError> {
    let exists: Option<i64> = sqlx::query_scalar("SELECT user_id FROM loyalty_accounts WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(state.db().pool())
        .await?;
    if exists.is_some() {
        return Ok(());
    }
    let (db, rules) = (state.db().clone(), Rules::of(state));
    state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let db = db.clone();
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    ensure(conn, &rules, user_id).await?;
                    Ok::<(), ApiError>(())
                })
            }),
        )
        .await
}

/// The player's loyalty info, in the request's language.
pub async fn info(ctx: &Ctx, cache: &Cache, conn: &mut AnyConnection, user_id: i64) -> Result<Info, ApiError> {
    let locale = ctx.locale;
    let account = account(conn, &Rules::of(&ctx.state), user_id).await?;
    let settings = settings(conn).await?;
    let all = levels(conn).await?;
    let snapshot = cache.snapshot(ctx.state.db()).await?;
    let content =
        snapshot.single("loyalty", if locale == Locale::Fr { "fr" } else { "en" }).cloned().unwrap_or(Value::Null);
    let content_image = |level: i64| -> Option<String> {
        content
            .get("levels")?
            .as_array()?
            .iter()
            .find(|l| l.get("level").and_then(Value::as_i64) == Some(level))?
            .get("image")?
            .get("url")?
            .as_str()
            .map(str::to_owned)
    };
    let currency: Option<String> = sqlx::query_scalar("SELECT currency FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?
        .flatten();
    let mut levels_out = Vec::with_capacity(all.len());
    for l in &all {
        let reward = match (l.campaign_id, currency.as_deref().and_then(Currency::parse)) {
            (Some(campaign), Some(c)) => campaign_reward(conn, campaign, c).await?,
            _ => None,
        };
        levels_out.push(Level {
            level: l.level,
            title: pick(locale, &l.title_en, &l.title_fr).to_owned(),
            description: pick(locale, &l.description_en, &l.description_fr).to_owned(),
            min_points: l.min_points,
            image: l.image.clone().or_else(|| content_image(l.level)),
            reward,
            reached: l.level <= account.level,
        });
    }
    let lifetime = whole(account.lifetime);
    let min_value = all.iter().find(|l| l.level == account.level).map_or(0, |l| l.min_points);
    let max_value = all.iter().find(|l| l.level > account.level).map_or(min_value, |l| l.min_points);
    let character = match account.character_id {
        Some(id) => characters(conn, locale).await?.into_iter().find(|c| c.id == id).map(|c| Character {
            id: c.id,
            sysname: c.sysname,
            title: c.title,
            description: c.description,
            image: c.image,
        }),
        None => None,
    };
    Ok(Info {
        id: account.user_id,
        is_active: account.active != 0 && settings.active,
        points: whole(account.points),
        lifetime_points: lifetime,
        level: account.level,
        character,
        levels: levels_out,
        progress: Progress { min_value, max_value, exp_count: lifetime },
        points_alias: content.get("pointsAlias").and_then(Value::as_str).unwrap_or("points").to_owned(),
        uid: format!("L-{:06}", account.user_id),
    })
}

/// What a campaign's fixed reward pays in `currency` (none for a deposit match or free spins).
async fn campaign_reward(
    conn: &mut AnyConnection,
    campaign_id: i64,
    currency: Currency,
) -> Result<Option<Amount>, sqlx::Error> {
    let row: Option<(String, i64)> = sqlx::query_as(
        "SELECT c.reward, a.max_bonus FROM campaigns c JOIN campaign_amounts a ON a.campaign_id = c.id \
         WHERE c.id = $1 AND a.currency = $2",
    )
    .bind(campaign_id)
    .bind(currency.code())
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row
        .filter(|(reward, amount)| reward == "fixed" && *amount > 0)
        .map(|(_, amount)| Amount { amount: notify::amount(amount, currency), currency: currency.code().to_owned() }))
}

// ---------------------------------------------------------------------------------------------
// Characters.

#[derive(Debug, Serialize, JsonSchema)]
pub struct CharacterItem {
    pub id: i64,
    pub sysname: String,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    pub min_level: i64,
    /// The player's level reaches `min_level`.
    pub available: bool,
    pub selected: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Characters {
    pub items: Vec<CharacterItem>,
}

/// id, sysname, titles, descriptions, image, min level.
type CharacterRow = (i64, String, String, String, String, String, Option<String>, i64);

async fn characters(conn: &mut AnyConnection, locale: Locale) -> Result<Vec<CharacterItem>, sqlx::Error> {
    let rows: Vec<CharacterRow> = sqlx::query_as(
        "SELECT id, sysname, title_en, title_fr, description_en, description_fr, image, min_level \
         FROM loyalty_characters WHERE active = 1 ORDER BY position, id",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, sysname, ten, tfr, den, dfr, image, min_level)| CharacterItem {
            id,
            sysname,
            title: pick(locale, &ten, &tfr).to_owned(),
            description: pick(locale, &den, &dfr).to_owned(),
            image,
            min_level,
            available: false,
            selected: false,
        })
        .collect())
}

async fn getcharacters(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<Characters, ApiError> {
    opened(&ctx.state, user.id).await?;
    let mut conn = ctx.state.db().pool().acquire().await?;
    let account = account(&mut conn, &Rules::of(&ctx.state), user.id).await?;
    let mut items = characters(&mut conn, ctx.locale).await?;
    for c in &mut items {
        c.available = account.level >= c.min_level;
        c.selected = account.character_id == Some(c.id);
    }
    Ok(Characters { items })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CharacterInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true), range(min = 1))]
    pub id: Option<i64>,
}

impl Input for CharacterInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.id {
            None => errors.add("id", FieldCode::Required),
            Some(id) if id < 1 => errors.add("id", FieldCode::Invalid),
            Some(_) => {}
        }
    }
}

async fn setcharacter(ctx: Ctx, cache: Arc<Cache>, user: AuthUser, input: CharacterInput) -> Result<Info, ApiError> {
    let (user_id, id, rules) = (user.id, input.id.unwrap_or(0), Rules::of(&ctx.state));
    let db = ctx.state.db().clone();
    ctx.state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let db = db.clone();
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    let account = account(conn, &rules, user_id).await?;
                    let min_level: Option<i64> =
                        sqlx::query_scalar("SELECT min_level FROM loyalty_characters WHERE id = $1 AND active = 1")
                            .bind(id)
                            .fetch_optional(&mut *conn)
                            .await?;
                    let Some(min_level) = min_level else { return Err(ApiError::field("id", FieldCode::NotFound)) };
                    if account.level < min_level {
                        return Err(ApiError::field("id", FieldCode::Locked));
                    }
                    sqlx::query("UPDATE loyalty_accounts SET character_id = $1, updated_at = $2 WHERE user_id = $3")
                        .bind(id)
                        .bind(now_ms())
                        .bind(user_id)
                        .execute(&mut *conn)
                        .await?;
                    Ok::<(), ApiError>(())
                })
            }),
        )
        .await?;
    let mut conn = ctx.state.db().pool().acquire().await?;
    info(&ctx, &cache, &mut conn, user_id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(level: i64, min_points: i64) -> LevelRow {
        LevelRow {
            level,
            min_points,
            title_en: String::new(),
            title_fr: String::new(),
            description_en: String::new(),
            description_fr: String::new(),
            image: None,
            campaign_id: None,
        }
    }

    #[test]
    fn stakes_earn_milli_points_by_the_currencys_scale() {
        let usd = Currency::parse("USD").unwrap();
        // 1 point per 10 dollars: 100 milli-points per dollar.
        assert_eq!(earned(1_000, 100, usd), 1_000);
        assert_eq!(earned(1, 100, usd), 1);
        assert_eq!(earned(0, 100, usd), 0);
        assert_eq!(earned(-5, 100, usd), 0);
        assert_eq!(earned(i64::MAX, i64::MAX, usd), i64::MAX);
        assert_eq!(whole(1_999), 1);
        assert_eq!(whole(-1), -1);
    }

    #[test]
    fn levels_are_reached_on_lifetime_points() {
        let all = [level(1, 0), level(2, 1_000), level(3, 5_000)];
        assert_eq!(level_of(&all, 0), (1, 1_000_000));
        assert_eq!(level_of(&all, 999_999), (1, 1_000_000));
        assert_eq!(level_of(&all, 1_000_000), (2, 5_000_000));
        assert_eq!(level_of(&all, 9_000_000), (3, i64::MAX));
        assert_eq!(level_of(&[level(1, 10)], 0), (0, 10_000));
        assert_eq!(level_of(&[], 5), (0, i64::MAX));
    }

    #[test]
    fn progress_is_a_percentage_of_the_way_to_the_next_level() {
        assert_eq!(Progress { min_value: 1000, max_value: 5000, exp_count: 3000 }.percentage(), 50);
        assert_eq!(Progress { min_value: 5000, max_value: 5000, exp_count: 9000 }.percentage(), 100);
        assert_eq!(Progress { min_value: 0, max_value: 1000, exp_count: -5 }.percentage(), 0);
    }
}
