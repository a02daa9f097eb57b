//! Free-spin packs (SPEC §3 "Freespin pack": game.sysname, remaining_count; §7 `freespins.get`
//! with status active and count 99). A pack gives a player a number of rounds of one house game
//! at a fixed bet in a currency: each is played through the wallet with a bet of nothing, and
//! its win goes to the main or the bonus account as the pack says — always through the ledger.

use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, Registry};
use crate::db::{Db, now_ms};
use croupier_shared::{Currency, FieldCode, Money};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;

pub fn register(api: &mut Registry) {
    api.read("freespins.get", "The player's free-spin packs (status active, used, expired or all; count).", get);
}

/// Where a pack's wins are paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WinAccount {
    Main,
    Bonus,
}

impl WinAccount {
    pub fn code(self) -> &'static str {
        match self {
            WinAccount::Main => "main",
            WinAccount::Bonus => "bonus",
        }
    }
}

/// The most spins one pack may hold.
pub const MAX_PACK: i64 = 1_000;

/// Why a pack cannot be given.
#[derive(Debug, thiserror::Error)]
pub enum GrantError {
    #[error("{0}: {1:?}")]
    Field(&'static str, FieldCode),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl From<GrantError> for ApiError {
    fn from(e: GrantError) -> ApiError {
        match e {
            GrantError::Field("bet", _) => ApiError::field_with("bet", FieldCode::MinValue, vec![("min", "1".into())]),
            GrantError::Field("count", _) => {
                ApiError::field_with("count", FieldCode::MaxValue, vec![("max", MAX_PACK.to_string())])
            }
            GrantError::Field(field, code) => ApiError::field(field, code),
            GrantError::Db(e) => ApiError::from(e),
        }
    }
}

/// Gives `user_id` a pack of `count` free spins of `sysname` at `bet` minor units whose wins are
/// paid to the main balance (operators call this; bonuses give packs with [`grant_in`]). Answers
/// the pack's id.
pub async fn grant(
    db: &Db,
    user_id: i64,
    sysname: &str,
    currency: Currency,
    bet: i64,
    count: i64,
    valid_ms: i64,
) -> Result<i64, ApiError> {
    let mut tx = db.begin().await?;
    let id = grant_in(&mut tx, user_id, sysname, currency, bet, count, None, valid_ms).await?;
    tx.commit().await?;
    Ok(id)
}

/// [`grant`] in the caller's transaction. A pack of a bonus (`bonus_id`) pays its wins into the
/// bonus balance, as that bonus's money; any other pays into the main balance. The game is read
/// from the catalogue's table: it must be a one-step house game.
#[allow(clippy::too_many_arguments)]
pub async fn grant_in(
    conn: &mut AnyConnection,
    user_id: i64,
    sysname: &str,
    currency: Currency,
    bet: i64,
    count: i64,
    bonus_id: Option<i64>,
    valid_ms: i64,
) -> Result<i64, GrantError> {
    let game: Option<i64> =
        sqlx::query_scalar("SELECT id FROM games WHERE sysname = $1 AND provider = 'house' AND sysname <> 'mines'")
            .bind(sysname)
            .fetch_optional(&mut *conn)
            .await?;
    let game = game.ok_or(GrantError::Field("sysname", FieldCode::NotFound))?;
    if bet <= 0 {
        return Err(GrantError::Field("bet", FieldCode::MinValue));
    }
    if !(1..=MAX_PACK).contains(&count) {
        return Err(GrantError::Field("count", FieldCode::MaxValue));
    }
    let player: Option<(Option<String>, String)> = sqlx::query_as("SELECT currency, status FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?;
    match player {
        None => return Err(GrantError::Field("user_id", FieldCode::NotFound)),
        Some((_, status)) if status == GUEST => return Err(GrantError::Field("user_id", FieldCode::Invalid)),
        Some((Some(c), _)) if c != currency.code() => {
            // A pack in a currency the player does not hold could never be played.
            return Err(GrantError::Field("currency", FieldCode::Invalid));
        }
        Some(_) => {}
    }
    let win_account = if bonus_id.is_some() { WinAccount::Bonus } else { WinAccount::Main };
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO freespin_packs (user_id, game_id, currency, bet, total_count, remaining_count, win_account, won, status, created_at, expires_at, bonus_id) \
         VALUES ($1, $2, $3, $4, $5, $5, $6, 0, 'active', $7, $8, $9) RETURNING id",
    )
    .bind(user_id)
    .bind(game)
    .bind(currency.code())
    .bind(bet)
    .bind(count)
    .bind(win_account.code())
    .bind(now)
    .bind(now + valid_ms)
    .bind(bonus_id)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// The status of a guest (an account made for demo play only), as the users table stores it.
const GUEST: &str = "guest";

/// A pack being used by a round.
#[derive(Debug, sqlx::FromRow)]
pub struct ActivePack {
    pub id: i64,
    pub bet: i64,
    pub remaining_count: i64,
    pub win_account: String,
    /// The bonus whose pack it is: its wins are that bonus's money.
    pub bonus_id: Option<i64>,
}

/// The oldest usable pack of the player for the game and currency (the caller holds the
/// player's lock).
pub async fn usable(
    conn: &mut AnyConnection,
    user_id: i64,
    game_id: i64,
    currency: &str,
) -> Result<Option<ActivePack>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, bet, remaining_count, win_account, bonus_id FROM freespin_packs \
         WHERE user_id = $1 AND game_id = $2 AND currency = $3 AND status = 'active' AND remaining_count > 0 AND expires_at > $4 \
         ORDER BY id LIMIT 1",
    )
    .bind(user_id)
    .bind(game_id)
    .bind(currency)
    .bind(now_ms())
    .fetch_optional(conn)
    .await
}

/// Counts a spin of the pack and its win.
pub async fn consume(conn: &mut AnyConnection, pack: &ActivePack, win: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE freespin_packs SET remaining_count = remaining_count - 1, won = won + $1, \
         status = CASE WHEN remaining_count - 1 <= 0 THEN 'used' ELSE status END WHERE id = $2",
    )
    .bind(win)
    .bind(pack.id)
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FreespinsQuery {
    /// active (default), used, expired or all.
    #[serde(default)]
    #[schemars(extend("enum" = ["active", "used", "expired", "all"]))]
    pub status: Option<String>,
    /// At most 100; 99 in SPEC §9.
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
}

impl Input for FreespinsQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if !matches!(self.status.as_deref(), None | Some("active" | "used" | "expired" | "all")) {
            errors.add("status", FieldCode::Unsupported);
        }
        if self.count.is_some_and(|c| !(1..=100).contains(&c)) {
            errors.add_with("count", FieldCode::MaxValue, vec![("max", "100".into())]);
        }
        if self.offset.is_some_and(|o| o < 0) {
            errors.add_with("offset", FieldCode::MinValue, vec![("min", "0".into())]);
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PackGame {
    pub sysname: String,
    pub name: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Pack {
    pub id: i64,
    pub game: PackGame,
    pub remaining_count: i64,
    pub total_count: i64,
    /// The bet of each spin, decimal.
    pub bet: String,
    pub currency: String,
    /// main or bonus: where wins go.
    pub win_account: String,
    /// Won so far, decimal.
    pub won: String,
    pub status: String,
    /// Unix seconds.
    pub expires_at: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Packs {
    pub total: i64,
    pub items: Vec<Pack>,
}

#[derive(sqlx::FromRow)]
struct PackRow {
    id: i64,
    sysname: String,
    name_en: String,
    name_fr: String,
    remaining_count: i64,
    total_count: i64,
    bet: i64,
    currency: String,
    win_account: String,
    won: i64,
    status: String,
    expires_at: i64,
}

/// Packs past their date answer `expired` whatever their stored status.
const STATUS: &str = "CASE WHEN p.status = 'active' AND p.expires_at <= $2 THEN 'expired' ELSE p.status END";

async fn get(ctx: Ctx, user: AuthUser, query: FreespinsQuery) -> Result<Packs, ApiError> {
    let user_id = user.id;
    let status = query.status.clone().unwrap_or_else(|| "active".to_owned());
    let filter = format!("p.user_id = $1 AND ($3 = 'all' OR {STATUS} = $3)");
    let db = ctx.state.db();
    let now = now_ms();
    let total: i64 =
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM freespin_packs p WHERE {filter}")))
            .bind(user_id)
            .bind(now)
            .bind(&status)
            .fetch_one(db.pool())
            .await?;
    let rows: Vec<PackRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT p.id, g.sysname, g.name_en, g.name_fr, p.remaining_count, p.total_count, p.bet, p.currency, p.win_account, p.won, \
         {STATUS} AS status, p.expires_at FROM freespin_packs p JOIN games g ON g.id = p.game_id WHERE {filter} \
         ORDER BY p.id DESC LIMIT $4 OFFSET $5"
    )))
    .bind(user_id)
    .bind(now)
    .bind(&status)
    .bind(query.count.unwrap_or(99))
    .bind(query.offset.unwrap_or(0))
    .fetch_all(db.pool())
    .await?;
    let fr = ctx.locale == croupier_shared::Locale::Fr;
    Ok(Packs {
        total,
        items: rows
            .into_iter()
            .map(|r| {
                let money = |m: i64| {
                    Currency::parse(&r.currency)
                        .map_or_else(|| m.to_string(), |c| Money::from_minor(m, c).to_decimal_string())
                };
                Pack {
                    id: r.id,
                    game: PackGame {
                        sysname: r.sysname.clone(),
                        name: if fr { r.name_fr.clone() } else { r.name_en.clone() },
                    },
                    remaining_count: r.remaining_count,
                    total_count: r.total_count,
                    bet: money(r.bet),
                    won: money(r.won),
                    currency: r.currency,
                    win_account: r.win_account,
                    status: r.status,
                    expires_at: r.expires_at / 1000,
                }
            })
            .collect(),
    })
}
