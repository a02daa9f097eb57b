//! The game catalogue (SPEC §3 Game, Game config, Provider, Favourites): `games.get` with its
//! options, categories, providers and likes. The house games and the lobby's categories are
//! written at start (idempotently); external providers come from `CROUPIER_GAME_PROVIDERS`.

use super::index::{Index, Query, Sort};
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, One, Registry};
use crate::db::{Db, now_ms};
use crate::features::account::store::field_error;
use croupier_shared::{FieldCode, Locale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::Arc;

/// The catalogue's `/api` methods; `games.get` reads this replica's `index`.
pub fn register(api: &mut Registry, index: &Arc<Index>) {
    let index = Arc::clone(index);
    api.read("games.get", "Games of the lobby, filtered by the JSON `options`.", move |ctx, query| {
        get_games(ctx, Arc::clone(&index), query)
    });
    api.read("games.getCategories", "The lobby's categories.", categories);
    api.read("games.getProviders", "Game providers (optionally only those with games of `types`).", providers);
    api.read("games.getLikes", "The sysnames of the player's favourite games.", likes);
    api.write("games.addLike", "Adds a game to the player's favourites.", add_like);
    api.write("games.removeLike", "Removes a game from the player's favourites.", remove_like);
}

/// A house game of the demo catalogue: (sysname, type, English name, French name, RTP basis points, volatility).
pub const HOUSE_GAMES: [(&str, &str, &str, &str, i64, &str); 6] = [
    ("dice", "fast", "Dice", "Dés", super::house::dice::RTP_BP, "low"),
    ("lucky-sevens", "slot", "Lucky Sevens", "Sept chanceux", super::house::classic::RTP_BP, "medium"),
    ("gem-rush", "slot", "Gem Rush", "Ruée des gemmes", super::house::video::RTP_BP, "high"),
    ("roulette", "casino", "European Roulette", "Roulette européenne", super::house::roulette::RTP_BP, "medium"),
    ("mines", "fast", "Mines", "Mines", super::house::mines::RTP_BP, "high"),
    ("plinko", "fast", "Plinko", "Plinko", super::house::plinko::RTP_BP, "high"),
];

const CATEGORIES: [(&str, &str, &str); 6] = [
    ("popular", "Popular", "Populaires"),
    ("new", "New", "Nouveautés"),
    ("originals", "Croupier Originals", "Originaux Croupier"),
    ("fast", "Fast games", "Jeux rapides"),
    ("slots", "Slots", "Machines à sous"),
    ("table", "Table games", "Jeux de table"),
];

/// Lower-case, accents removed: `Dés` and `des` find each other.
pub fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
            'ç' => 'c',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ñ' => 'n',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ý' | 'ÿ' => 'y',
            'œ' => 'o',
            other => other,
        })
        .collect()
}

/// Writes the house provider, its games, the lobby's categories and the configured external
/// providers; existing rows are left as they are, except an external provider's name, which is
/// its configured display name (`CROUPIER_GAME_PROVIDERS`' fourth field, else its name) as of
/// this start: the config is where an operator names it.
pub async fn seed(db: &Db, external: &[crate::config::GameProvider]) -> Result<(), sqlx::Error> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    sqlx::query("INSERT INTO game_providers (sysname, name, kind, sort) VALUES ('house', 'Croupier Originals', 'house', 0) ON CONFLICT (sysname) DO NOTHING")
        .execute(&mut *tx)
        .await?;
    for (i, p) in external.iter().enumerate() {
        sqlx::query(
            "INSERT INTO game_providers (sysname, name, kind, sort) VALUES ($1, $2, 'external', $3) \
             ON CONFLICT (sysname) DO UPDATE SET name = excluded.name",
        )
        .bind(&p.name)
        .bind(&p.title)
        .bind(i64::try_from(i).unwrap_or(0) + 1)
        .execute(&mut *tx)
        .await?;
    }
    for (i, (slug, en, fr)) in CATEGORIES.iter().enumerate() {
        sqlx::query("INSERT INTO game_categories (slug, name_en, name_fr, sort) VALUES ($1, $2, $3, $4) ON CONFLICT (slug) DO NOTHING")
            .bind(slug)
            .bind(en)
            .bind(fr)
            .bind(i64::try_from(i).unwrap_or(0))
            .execute(&mut *tx)
            .await?;
    }
    for (sysname, game_type, en, fr, rtp, volatility) in HOUSE_GAMES {
        let config = serde_json::json!({
            "canAccessSlotWithZeroBalance": false,
            "canPlayDemoAsGuest": true,
            "canVisibleFavoriteIcon": true,
            "visibleFullScreen": "all",
            "contentViewType": "iframe",
        });
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO games (sysname, provider, game_type, name_en, name_fr, image_url, search_text, rtp_bp, volatility, has_demo, config, popularity, created_at) \
             VALUES ($1, 'house', $2, $3, $4, $5, $6, $7, $8, 1, $9, 100, $10) ON CONFLICT (sysname) DO NOTHING RETURNING id",
        )
        .bind(sysname)
        .bind(game_type)
        .bind(en)
        .bind(fr)
        .bind(format!("/games/house/{sysname}/tile.svg"))
        .bind(fold(&format!("{en} {fr} {sysname}")))
        .bind(rtp)
        .bind(volatility)
        .bind(config.to_string())
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(id) = id {
            let by_type = match game_type {
                "slot" => "slots",
                "casino" => "table",
                other => other,
            };
            for category in ["popular", "new", "originals", by_type] {
                sqlx::query("INSERT INTO game_category_members (category, game_id, sort) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING")
                    .bind(category)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
        }
    }
    tx.commit().await
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameOptions {
    pub sysnames: Option<Vec<String>>,
    pub category: Option<String>,
    /// Comma-joined provider sysnames (SPEC §2 `providers`).
    pub providers: Option<String>,
    /// all | casino | slot | live | fast
    #[serde(rename = "type")]
    pub game_type: Option<String>,
    pub search: Option<String>,
    /// Only the player's favourites.
    pub favourites: Option<bool>,
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    /// popular | new | name
    pub sort: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GamesQuery {
    /// The options as a JSON string (SPEC §7).
    #[serde(default)]
    pub options: String,
}

impl Input for GamesQuery {}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GameDescription {
    pub name: String,
    pub img_288_192: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GameItem {
    pub id: i64,
    pub sysname: String,
    pub name: String,
    pub image_url: String,
    pub description: GameDescription,
    pub provider: String,
    #[serde(rename = "type")]
    pub game_type: String,
    /// Declared return to player, percent with two decimals.
    pub rtp: String,
    pub volatility: String,
    pub has_demo: bool,
    pub config: Value,
    pub is_favourite: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct GameList {
    pub total: i64,
    pub items: Vec<GameItem>,
}

#[derive(sqlx::FromRow)]
pub struct GameRow {
    pub id: i64,
    pub sysname: String,
    pub provider: String,
    pub game_type: String,
    pub name_en: String,
    pub name_fr: String,
    pub image_url: String,
    pub rtp_bp: i64,
    pub volatility: String,
    pub has_demo: i64,
    pub config: String,
}

pub const GAME_COLUMNS: &str = "g.id, g.sysname, g.provider, g.game_type, g.name_en, g.name_fr, g.image_url, g.rtp_bp, g.volatility, g.has_demo, g.config";

impl GameRow {
    pub fn item(&self, locale: Locale, favourite: bool) -> GameItem {
        let name = if locale == Locale::Fr { self.name_fr.clone() } else { self.name_en.clone() };
        GameItem {
            id: self.id,
            sysname: self.sysname.clone(),
            description: GameDescription { name: name.clone(), img_288_192: self.image_url.clone() },
            name,
            image_url: self.image_url.clone(),
            provider: self.provider.clone(),
            game_type: self.game_type.clone(),
            rtp: format!("{}.{:02}", self.rtp_bp / 100, self.rtp_bp % 100),
            volatility: self.volatility.clone(),
            has_demo: self.has_demo != 0,
            config: serde_json::from_str(&self.config).unwrap_or(Value::Null),
            is_favourite: favourite,
        }
    }

    /// Whether guests (not signed in) may play its demo (game config `canPlayDemoAsGuest`).
    pub fn allows_guest_demo(&self) -> bool {
        serde_json::from_str::<Value>(&self.config)
            .ok()
            .and_then(|c| c["canPlayDemoAsGuest"].as_bool())
            .unwrap_or(false)
    }

    /// Whether real play may start with a zero balance (SPEC §3 game config).
    pub fn allows_zero_balance(&self) -> bool {
        serde_json::from_str::<Value>(&self.config)
            .ok()
            .and_then(|c| c["canAccessSlotWithZeroBalance"].as_bool())
            .unwrap_or(false)
    }
}

pub async fn find(db: &Db, sysname: &str) -> Result<Option<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {GAME_COLUMNS} FROM games g WHERE g.sysname = $1")))
        .bind(sysname)
        .fetch_optional(db.pool())
        .await
}

async fn get_games(ctx: Ctx, index: Arc<Index>, query: GamesQuery) -> Result<super::index::Page, ApiError> {
    // A guest's page is kept per catalogue version (only successful answers are kept, so a bad
    // request is still checked every time).
    let snapshot = index.snapshot(ctx.state.db()).await?;
    let guest = ctx.session.is_none().then(|| super::index::guest_key(ctx.locale, &query.options));
    if let Some(key) = &guest
        && let Some(page) = index.guest_page(&snapshot, key)
    {
        return Ok(page);
    }
    let options: GameOptions = if query.options.trim().is_empty() {
        GameOptions::default()
    } else {
        serde_json::from_str(&query.options).map_err(|_| field_error("options", FieldCode::Invalid))?
    };
    let limit = options.limit.unwrap_or(48);
    let offset = options.offset.unwrap_or(0);
    if !(1..=1000).contains(&limit) || offset < 0 {
        return Err(field_error("options", FieldCode::Invalid));
    }
    let user_id = ctx.session.as_ref().map_or(0, |s| s.user_id);
    if options.favourites == Some(true) && user_id == 0 {
        return Err(ApiError::new(croupier_shared::ErrorType::AuthorizationException));
    }
    let sort = match options.sort.as_deref() {
        None | Some("popular") => Sort::Popular,
        Some("new") => Sort::New,
        Some("name") => Sort::Name,
        Some(_) => return Err(field_error("options", FieldCode::Invalid)),
    };
    let liked: HashSet<i64> = if user_id == 0 {
        HashSet::new()
    } else {
        sqlx::query_scalar::<_, i64>("SELECT game_id FROM game_likes WHERE user_id = $1")
            .bind(user_id)
            .fetch_all(ctx.state.db().pool())
            .await?
            .into_iter()
            .collect()
    };
    let query = Query {
        category: options.category.as_deref().filter(|c| !c.is_empty()),
        providers: options
            .providers
            .as_deref()
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect(),
        game_type: options.game_type.as_deref().filter(|t| !t.is_empty() && *t != "all"),
        search: options.search.as_deref().map(fold).unwrap_or_default(),
        sysnames: options.sysnames.as_ref().map(|s| s.iter().map(String::as_str).collect()),
        only: (options.favourites == Some(true)).then_some(&liked),
        sort: Some(sort),
        locale: ctx.locale,
        limit: usize::try_from(limit).unwrap_or(48),
        offset: usize::try_from(offset).unwrap_or(0),
    };
    let page = snapshot.query(&query, &liked);
    if let Some(key) = guest {
        index.keep_guest_page(key, &page);
    }
    Ok(page)
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Category {
    pub slug: String,
    pub name: String,
    pub games: i64,
}

async fn categories(ctx: Ctx, _: NoInput) -> Result<Vec<Category>, ApiError> {
    let rows: Vec<(String, String, String, i64)> = sqlx::query_as(
        "SELECT c.slug, c.name_en, c.name_fr, (SELECT COUNT(*) FROM game_category_members m WHERE m.category = c.slug) \
         FROM game_categories c ORDER BY c.sort, c.slug",
    )
    .fetch_all(ctx.state.db().pool())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(slug, en, fr, games)| Category { slug, name: if ctx.locale == Locale::Fr { fr } else { en }, games })
        .collect())
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ProvidersQuery {
    /// Comma-separated game types; only providers with games of these types.
    #[serde(default)]
    pub types: String,
    #[serde(default)]
    pub fields: String,
}

impl Input for ProvidersQuery {}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ProviderItem {
    pub sysname: String,
    pub name: String,
    pub games: i64,
    pub game_params: Value,
}

async fn providers(ctx: Ctx, query: ProvidersQuery) -> Result<Vec<ProviderItem>, ApiError> {
    let types =
        format!(",{},", query.types.split(',').map(str::trim).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(","));
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT p.sysname, p.name, (SELECT COUNT(*) FROM games g WHERE g.provider = p.sysname AND ($1 = ',,' OR $1 LIKE '%,' || g.game_type || ',%')) AS n \
         FROM game_providers p ORDER BY p.sort, p.sysname",
    )
    .bind(&types)
    .fetch_all(ctx.state.db().pool())
    .await?;
    Ok(rows
        .into_iter()
        .filter(|(_, _, n)| *n > 0)
        .map(|(sysname, name, games)| ProviderItem { sysname, name, games, game_params: serde_json::json!({}) })
        .collect())
}

async fn likes(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<Vec<String>, ApiError> {
    let user_id = user.id;
    Ok(sqlx::query_scalar("SELECT g.sysname FROM game_likes l JOIN games g ON g.id = l.game_id WHERE l.user_id = $1 ORDER BY l.created_at")
        .bind(user_id)
        .fetch_all(ctx.state.db().pool())
        .await?)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct LikeInput {
    /// The game's sysname (games.get).
    #[serde(default)]
    #[schemars(extend("x-required" = true), example = &"dice")]
    pub sysname: String,
}

impl Input for LikeInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.sysname.is_empty() {
            errors.add("sysname", FieldCode::Required);
        }
    }
}

async fn add_like(ctx: Ctx, user: AuthUser, input: LikeInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let game =
        find(ctx.state.db(), &input.sysname).await?.ok_or_else(|| field_error("sysname", FieldCode::NotFound))?;
    sqlx::query("INSERT INTO game_likes (user_id, game_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(user_id)
        .bind(game.id)
        .bind(now_ms())
        .execute(ctx.state.db().pool())
        .await?;
    Ok(One)
}

async fn remove_like(ctx: Ctx, user: AuthUser, input: LikeInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let game =
        find(ctx.state.db(), &input.sysname).await?.ok_or_else(|| field_error("sysname", FieldCode::NotFound))?;
    sqlx::query("DELETE FROM game_likes WHERE user_id = $1 AND game_id = $2")
        .bind(user_id)
        .bind(game.id)
        .execute(ctx.state.db().pool())
        .await?;
    Ok(One)
}

#[cfg(test)]
mod tests {
    #[test]
    fn folding_removes_case_and_accents() {
        assert_eq!(super::fold("Dés Ÿ Œuvre"), "des y ouvre");
    }
}
