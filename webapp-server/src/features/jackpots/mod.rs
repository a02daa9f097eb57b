//! Jackpots (`/jackpots`, `Jackpots.get`, `Jackpots.getWinners`, live at `/live/jackpots`).
//!
//! # Pools
//! A pool has a currency, the games it covers (by game, category or provider; none: every game),
//! a contribution in basis points of each real-money stake on those games (per game where the
//! operator sets one: `game_contributions`, e.g. 0 for a low-edge table game), a seed the house puts
//! in when a cycle starts, and a trigger:
//! - `must_drop`: it drops on the bet that takes it to `must_drop_before`, which everyone sees;
//! - `hidden`: when a cycle starts, a trigger amount is drawn from the operating system's CSPRNG
//!   (`rand::rng()`, ChaCha seeded by the OS) uniformly in `(seed, must_drop_before]`, with a
//!   random 128-bit salt; the pool publishes `trigger_hash` = hex SHA-256 of `"{trigger}:{salt}"`
//!   (the trigger in minor units) and reveals both when it drops, so anyone can check that the
//!   drop point was fixed before the first bet of the cycle.
//!
//! # Money
//! A contribution is a ledger movement from the house's game settlement to its jackpot pool
//! account, posted in the bet's own transaction under the key `jackpot:{pool}:{bet key}` (a
//! replayed wallet call never reaches it); the pool's `amount` moves in the same transaction.
//! The bet whose contribution takes the amount to the trigger wins the whole amount: the pool's
//! row is updated with `UPDATE … RETURNING` (PostgreSQL locks it until the bet's transaction ends;
//! SQLite has one writer), so of any number of concurrent bets exactly one crosses the trigger.
//! The win moves jackpot pool → the player's main balance (`jackpot:{pool}:win:{cycle}`), is a
//! round of its own in the player's history (provider `jackpot`), a row of `jackpot_wins` with the
//! revealed trigger, a winners-feed entry and a bot notice; the next cycle starts at once with
//! the seed (`jackpot:{pool}:seed:{cycle}`, game settlement → jackpot pool). Closing a pool
//! returns what it holds to the house once (`jackpot:{pool}:close`). The ledger's jackpot pool
//! account is therefore always the sum of the pools' amounts, which `tests/api/jackpots.rs` checks.
//!
//! A rolled-back bet's contribution stays in the pool: the refund comes from game settlement,
//! so the house bears it, and a pool never shrinks under the players watching it.
//!
//! # Operators
//! `POST /admin/jackpots` ([`PoolInput`]), `PUT /admin/jackpots/{id}` (texts, contribution and
//! games; the seed and trigger apply from the next cycle), `POST /admin/jackpots/{id}/pause`,
//! `/resume`, `/close`, `GET /admin/jackpots`, `GET /admin/jackpots/{id}/report`; the CLI's
//! `admin jackpots …` does the same.

pub mod admin;

use crate::AppState;
use crate::api::{ApiError, Ctx, FieldErrors, Input, Registry};
use crate::features::games::wallet::GameSession;
use crate::features::live::{self, Live};
use crate::features::notify::{self, Notice};
use crate::features::tournaments::competition::Bet;
use crate::features::winners::{self, GameRef, MoneyView};
use crate::ledger::{self, Account, Entry, HouseAccount, LedgerError};
use axum::extract::{Query, State};
use axum::response::Response;
use croupier_shared::{Currency, FieldCode, Locale};
use rand::RngExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;
use std::sync::Arc;

pub fn register(api: &mut Registry) {
    api.read("Jackpots.get", "The jackpot pools with their live amounts (an array; id: one pool).", get);
    api.read(
        "Jackpots.getWinners",
        "Who won the jackpots, newest first, with each drop's revealed trigger (id: one pool; offset; count 1 to 100).",
        get_winners,
    );
}

pub fn routes() -> axum::Router<crate::App> {
    axum::Router::new().route("/live/jackpots", axum::routing::get(live_jackpots))
}

/// A new cycle's hidden trigger: uniform in `(seed, cap]`, with its salt and published hash.
pub fn draw(seed: i64, cap: i64) -> (i64, String, String) {
    let trigger = if cap > seed { rand::rng().random_range(seed + 1..=cap) } else { cap };
    let salt = hex::encode(rand::random::<[u8; 16]>());
    let hash = trigger_hash(trigger, &salt);
    (trigger, salt, hash)
}

/// hex SHA-256 of `"{trigger}:{salt}"`.
pub fn trigger_hash(trigger: i64, salt: &str) -> String {
    hex::encode(Sha256::digest(format!("{trigger}:{salt}").as_bytes()))
}

fn ledger_error(e: LedgerError) -> sqlx::Error {
    match e {
        LedgerError::Db(e) => e,
        other => sqlx::Error::Protocol(format!("jackpot movement refused: {other}")),
    }
}

/// Posts a movement of pool money (`amount` from one account to another), when there is any.
async fn move_pool_money(conn: &mut AnyConnection, entry: Entry<'_>) -> Result<(), sqlx::Error> {
    if entry.postings.iter().all(|p| p.amount <= 0) {
        return Ok(());
    }
    ledger::post(conn, &entry).await.map(|_| ()).map_err(ledger_error)
}

/// Funds a cycle's seed from the house.
pub async fn fund_seed(
    conn: &mut AnyConnection,
    pool: i64,
    cycle: i64,
    currency: Currency,
    seed: i64,
    player: Option<i64>,
) -> Result<(), sqlx::Error> {
    move_pool_money(
        conn,
        Entry::transfer(
            &format!("jackpot:{pool}:seed:{cycle}"),
            "jackpot_seed",
            currency,
            Account::House(HouseAccount::GameSettlement),
            Account::House(HouseAccount::JackpotPool),
            seed,
        )
        .by(player),
    )
    .await
}

/// A real-money bet on a covered game: each active pool of its currency that covers the game
/// takes its contribution; a pool that reaches its trigger drops to this player. Answers what the
/// player won (0 for none).
pub async fn on_bet(
    conn: &mut AnyConnection,
    session: &GameSession,
    currency: Currency,
    bet: &Bet<'_>,
    now: i64,
) -> Result<i64, sqlx::Error> {
    let pools: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT p.id, CAST(COALESCE((SELECT c.weight FROM competition_games c WHERE c.kind = 'jackpot' AND c.ref_id = p.id \
         AND c.game_id = $2), p.contribution_bps) AS BIGINT) FROM jackpot_pools p WHERE p.status = 'active' AND p.currency = $1 \
         AND EXISTS (SELECT 1 FROM competition_games c WHERE c.kind = 'jackpot' AND c.ref_id = p.id AND c.game_id IN ($2, 0)) \
         ORDER BY p.id",
    )
    .bind(currency.code())
    .bind(session.game_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut won = 0;
    for (pool, bps) in pools {
        let share = i64::try_from(i128::from(bet.real_part) * i128::from(bps) / 10_000).unwrap_or(0);
        if share <= 0 {
            continue;
        }
        move_pool_money(
            conn,
            Entry::transfer(
                &format!("jackpot:{pool}:{}", bet.key),
                "jackpot_contribution",
                currency,
                Account::House(HouseAccount::GameSettlement),
                Account::House(HouseAccount::JackpotPool),
                share,
            )
            .by(Some(session.user_id)),
        )
        .await?;
        let after: Option<(i64, i64)> = sqlx::query_as(
            "UPDATE jackpot_pools SET amount = amount + $1, updated_at = $2 WHERE id = $3 AND status = 'active' \
             RETURNING amount, trigger_amount",
        )
        .bind(share)
        .bind(now)
        .bind(pool)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some((amount, trigger)) = after
            && amount >= trigger
        {
            won += drop_pool(conn, pool, session, currency, bet, now).await?;
        }
    }
    Ok(won)
}

#[derive(Debug, sqlx::FromRow)]
struct Cycle {
    title_en: String,
    title_fr: String,
    seed: i64,
    trigger_kind: String,
    must_drop_before: i64,
    cycle: i64,
    amount: i64,
    trigger_amount: i64,
    salt: String,
    trigger_hash: String,
}

/// The pool drops to the bet's player: pays the whole amount, records the drop, starts the next
/// cycle. In the bet's transaction, with the pool's row already locked by its update.
async fn drop_pool(
    conn: &mut AnyConnection,
    pool: i64,
    session: &GameSession,
    currency: Currency,
    bet: &Bet<'_>,
    now: i64,
) -> Result<i64, sqlx::Error> {
    let c: Cycle = sqlx::query_as(
        "SELECT title_en, title_fr, seed, trigger_kind, must_drop_before, cycle, amount, trigger_amount, salt, trigger_hash \
         FROM jackpot_pools WHERE id = $1",
    )
    .bind(pool)
    .fetch_one(&mut *conn)
    .await?;
    let user = session.user_id;
    let reference = format!("{pool}:{}", c.cycle);
    move_pool_money(
        conn,
        Entry::transfer(
            &format!("jackpot:{pool}:win:{}", c.cycle),
            "jackpot_win",
            currency,
            Account::House(HouseAccount::JackpotPool),
            Account::main(user),
            c.amount,
        )
        .by(Some(user)),
    )
    .await?;
    sqlx::query(
        "INSERT INTO jackpot_wins (pool_id, cycle, user_id, game_id, amount, currency, trigger_kind, trigger_amount, salt, trigger_hash, wallet_key, won_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(pool)
    .bind(c.cycle)
    .bind(user)
    .bind(session.game_id)
    .bind(c.amount)
    .bind(currency.code())
    .bind(&c.trigger_kind)
    .bind(c.trigger_amount)
    .bind(&c.salt)
    .bind(&c.trigger_hash)
    .bind(bet.key)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    // A round of its own in the player's history.
    sqlx::query(
        "INSERT INTO game_rounds (provider, round, user_id, game_id, currency, mode, bet, win, status, created_at, closed_at) \
         VALUES ('jackpot', $1, $2, $3, $4, 'real', 0, $5, 'closed', $6, $6)",
    )
    .bind(format!("jackpot:{reference}"))
    .bind(user)
    .bind(session.game_id)
    .bind(currency.code())
    .bind(c.amount)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    winners::record(
        conn,
        &winners::Record {
            kind: "jackpot",
            reference: &reference,
            user_id: user,
            game_id: Some(session.game_id),
            amount: c.amount,
            currency: currency.code(),
            multiplier_x100: None,
            tournament_id: None,
            pool_id: Some(pool),
        },
    )
    .await?;
    let notice = Notice::JackpotWon {
        pool_id: pool,
        amount: notify::amount(c.amount, currency),
        currency: currency.code().to_owned(),
        title_en: c.title_en.clone(),
        title_fr: c.title_fr.clone(),
    };
    notify::enqueue(conn, user, &format!("jackpot:{reference}:won"), &notice).await?;
    // The next cycle.
    let next = c.cycle + 1;
    let (trigger, salt, hash) = if c.trigger_kind == "hidden" {
        draw(c.seed, c.must_drop_before)
    } else {
        let salt = hex::encode(rand::random::<[u8; 16]>());
        let hash = trigger_hash(c.must_drop_before, &salt);
        (c.must_drop_before, salt, hash)
    };
    fund_seed(conn, pool, next, currency, c.seed, Some(user)).await?;
    sqlx::query(
        "UPDATE jackpot_pools SET cycle = $1, amount = $2, trigger_amount = $3, salt = $4, trigger_hash = $5, \
         cycle_started_at = $6, updated_at = $6 WHERE id = $7",
    )
    .bind(next)
    .bind(c.seed)
    .bind(trigger)
    .bind(salt)
    .bind(hash)
    .bind(now)
    .bind(pool)
    .execute(&mut *conn)
    .await?;
    Ok(c.amount)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PoolsQuery {
    /// One pool's id.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub id: Option<i64>,
}

impl Input for PoolsQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.id.is_some_and(|id| id < 1) {
            errors.add_with("id", FieldCode::MinValue, vec![("min", "1".into())]);
        }
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LastWin {
    pub name: String,
    pub amount: MoneyView,
    /// Unix seconds.
    pub at: i64,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GameContribution {
    pub sysname: String,
    /// e.g. "0.50".
    pub percent: String,
}

fn percent(bps: i64) -> String {
    format!("{}.{:02}", bps / 100, bps % 100)
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Pool {
    pub id: i64,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    /// active, paused or closed.
    pub status: String,
    pub amount: MoneyView,
    pub amount_minor: i64,
    pub currency: String,
    pub seed: MoneyView,
    /// must_drop or hidden.
    pub trigger: String,
    /// The public cap (must_drop pools).
    pub must_drop_before: Option<MoneyView>,
    /// hex SHA-256 of "{trigger}:{salt}" (hidden pools).
    pub trigger_hash: Option<String>,
    /// e.g. "1.50".
    pub contribution_percent: String,
    /// The games it covers (empty: every game).
    pub game_sysnames: Vec<String>,
    /// Games whose contribution differs from `contribution_percent`.
    pub game_contributions: Vec<GameContribution>,
    pub cycle: i64,
    pub updated_at_ms: i64,
    pub last_win: Option<LastWin>,
}

#[derive(Debug, sqlx::FromRow)]
struct PoolRow {
    id: i64,
    title_en: String,
    title_fr: String,
    description_en: String,
    description_fr: String,
    image: Option<String>,
    currency: String,
    seed: i64,
    contribution_bps: i64,
    trigger_kind: String,
    must_drop_before: i64,
    status: String,
    cycle: i64,
    amount: i64,
    trigger_hash: String,
    updated_at: i64,
}

const POOL_COLUMNS: &str = "id, title_en, title_fr, description_en, description_fr, image, currency, seed, contribution_bps, \
     trigger_kind, must_drop_before, status, cycle, amount, trigger_hash, updated_at";

/// The pools shown to players (every pool but closed ones), oldest first.
pub async fn pools(state: &AppState, locale: Locale, id: Option<i64>) -> Result<Vec<Pool>, ApiError> {
    let pool = state.db().pool();
    let rows: Vec<PoolRow> = match id {
        Some(id) => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {POOL_COLUMNS} FROM jackpot_pools WHERE id = $1")))
                .bind(id)
                .fetch_all(pool)
                .await?
        }
        None => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {POOL_COLUMNS} FROM jackpot_pools WHERE status <> 'closed' ORDER BY id"
            )))
            .fetch_all(pool)
            .await?
        }
    };
    if id.is_some() && rows.is_empty() {
        return Err(ApiError::field("id", FieldCode::NotFound));
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut conn = pool.acquire().await?;
    for r in rows {
        // What it covers: game 0 (no sysname) is every game; a weight is a game's own rate.
        let covered: Vec<(Option<String>, Option<i64>)> = sqlx::query_as(
            "SELECT g.sysname, c.weight FROM competition_games c LEFT JOIN games g ON g.id = c.game_id \
             WHERE c.kind = 'jackpot' AND c.ref_id = $1 ORDER BY g.sysname",
        )
        .bind(r.id)
        .fetch_all(&mut *conn)
        .await?;
        let every_game = covered.iter().any(|(sysname, _)| sysname.is_none());
        let game_contributions = covered
            .iter()
            .filter_map(|(sysname, weight)| {
                Some(GameContribution { sysname: sysname.clone()?, percent: percent((*weight)?) })
            })
            .collect();
        let games: Vec<String> =
            if every_game { Vec::new() } else { covered.into_iter().filter_map(|(sysname, _)| sysname).collect() };
        let last: Option<(i64, i64, i64)> = sqlx::query_as(
            "SELECT user_id, amount, won_at FROM jackpot_wins WHERE pool_id = $1 ORDER BY cycle DESC LIMIT 1",
        )
        .bind(r.id)
        .fetch_optional(&mut *conn)
        .await?;
        let last_win = match last {
            Some((user, amount, at)) => {
                let named = winners::named(&mut conn, &[user]).await?;
                let name = named.first().map(|n| winners::name(n, locale)).unwrap_or_default();
                Some(LastWin { name, amount: MoneyView::of(amount, &r.currency), at: at / 1000 })
            }
            None => None,
        };
        let hidden = r.trigger_kind == "hidden";
        out.push(Pool {
            id: r.id,
            title: if locale == Locale::Fr { r.title_fr } else { r.title_en },
            description: if locale == Locale::Fr { r.description_fr } else { r.description_en },
            image: r.image,
            status: r.status,
            amount: MoneyView::of(r.amount, &r.currency),
            amount_minor: r.amount,
            seed: MoneyView::of(r.seed, &r.currency),
            must_drop_before: (!hidden).then(|| MoneyView::of(r.must_drop_before, &r.currency)),
            trigger_hash: hidden.then_some(r.trigger_hash),
            trigger: r.trigger_kind,
            contribution_percent: percent(r.contribution_bps),
            currency: r.currency,
            game_sysnames: games,
            game_contributions,
            cycle: r.cycle,
            updated_at_ms: r.updated_at,
            last_win,
        });
    }
    Ok(out)
}

async fn get(ctx: Ctx, input: PoolsQuery) -> Result<Vec<Pool>, ApiError> {
    pools(&ctx.state, ctx.locale, input.id).await
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct WinnersQuery {
    /// One pool's id.
    #[serde(default)]
    pub id: Option<i64>,
    /// 0 or more (default 0).
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
}

impl Input for WinnersQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.id.is_some_and(|id| id < 1) {
            errors.add_with("id", FieldCode::MinValue, vec![("min", "1".into())]);
        }
        winners::page_checks(self.offset, self.count, 100, errors);
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct JackpotWinner {
    pub id: i64,
    pub pool_id: i64,
    pub pool_title: String,
    pub name: String,
    pub amount: MoneyView,
    pub game: Option<GameRef>,
    /// Unix seconds.
    pub at: i64,
    pub cycle: i64,
    /// The revealed trigger, minor units (hidden pools).
    pub trigger: Option<i64>,
    pub salt: Option<String>,
    pub trigger_hash: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct JackpotWinners {
    pub items: Vec<JackpotWinner>,
    pub total: i64,
}

#[derive(Debug, sqlx::FromRow)]
struct WinRow {
    id: i64,
    pool_id: i64,
    title_en: String,
    title_fr: String,
    user_id: i64,
    amount: i64,
    currency: String,
    sysname: Option<String>,
    name_en: Option<String>,
    name_fr: Option<String>,
    won_at: i64,
    cycle: i64,
    trigger_kind: String,
    trigger_amount: i64,
    salt: String,
    trigger_hash: String,
    fakename: Option<String>,
    winners_display: String,
    login: Option<String>,
}

async fn get_winners(ctx: Ctx, input: WinnersQuery) -> Result<JackpotWinners, ApiError> {
    let pool = ctx.state.db().pool();
    let filter = if input.id.is_some() { " AND w.pool_id = $3" } else { "" };
    let mut query = sqlx::query_as::<_, WinRow>(sqlx::AssertSqlSafe(format!(
        "SELECT w.id, w.pool_id, p.title_en, p.title_fr, w.user_id, w.amount, w.currency, g.sysname, g.name_en, g.name_fr, \
         w.won_at, w.cycle, w.trigger_kind, w.trigger_amount, w.salt, w.trigger_hash, u.fakename, u.winners_display, {} \
         FROM jackpot_wins w JOIN jackpot_pools p ON p.id = w.pool_id JOIN users u ON u.id = w.user_id \
         LEFT JOIN games g ON g.id = w.game_id WHERE u.winners_display <> 'hidden'{filter} ORDER BY w.id DESC LIMIT $1 OFFSET $2",
        winners::login_column!()
    )))
    .bind(input.count.unwrap_or(20))
    .bind(input.offset.unwrap_or(0));
    if let Some(id) = input.id {
        query = query.bind(id);
    }
    let rows = query.fetch_all(pool).await?;
    let mut total = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
        "SELECT CAST(COUNT(*) AS BIGINT) FROM jackpot_wins w JOIN users u ON u.id = w.user_id WHERE u.winners_display <> 'hidden'{}",
        if input.id.is_some() { " AND w.pool_id = $1" } else { "" }
    )));
    if let Some(id) = input.id {
        total = total.bind(id);
    }
    let total = total.fetch_one(pool).await?;
    let fr = ctx.locale == Locale::Fr;
    let items = rows
        .into_iter()
        .map(|r| {
            let named = winners::Named {
                id: r.user_id,
                fakename: r.fakename,
                winners_display: r.winners_display,
                login: r.login,
            };
            let hidden = r.trigger_kind == "hidden";
            JackpotWinner {
                id: r.id,
                pool_id: r.pool_id,
                pool_title: if fr { r.title_fr } else { r.title_en },
                name: winners::name(&named, ctx.locale),
                amount: MoneyView::of(r.amount, &r.currency),
                game: r.sysname.map(|sysname| GameRef {
                    sysname,
                    title: if fr { r.name_fr } else { r.name_en }.unwrap_or_default(),
                }),
                at: r.won_at / 1000,
                cycle: r.cycle,
                trigger: hidden.then_some(r.trigger_amount),
                salt: hidden.then_some(r.salt),
                trigger_hash: hidden.then_some(r.trigger_hash),
            }
        })
        .collect();
    Ok(JackpotWinners { items, total })
}

/// `GET /live/jackpots`: a `jackpots` event with every pool when any amount or cycle moved.
async fn live_jackpots(
    State(state): State<AppState>,
    State(live): State<Arc<Live>>,
    Query(query): Query<winners::LiveQuery>,
) -> Response {
    let locale = query.locale.as_deref().and_then(Locale::parse).unwrap_or(Locale::En);
    live::stream(&Arc::clone(&live), (state, live, -1_i64), move |(state, live, seen)| async move {
        let pool = state.db().pool().clone();
        let version = live
            .version("jackpots", async move {
                // Amounts only grow within a cycle and cycles only grow: their sums move whenever
                // anything shown moves (status changes touch updated_at).
                sqlx::query_scalar(
                    "SELECT CAST(COALESCE(SUM(amount), 0) + COALESCE(SUM(cycle), 0) * 7919 + COALESCE(MAX(updated_at), 0) AS BIGINT) FROM jackpot_pools",
                )
                .fetch_one(&pool)
                .await
            })
            .await;
        let Ok(version) = version else { return ((state, live, seen), Vec::new()) };
        if version == seen {
            return ((state, live, seen), Vec::new());
        }
        let topic = format!("jackpots:{}", locale.code());
        let owned = state.clone();
        let value = live.value(&topic, version, async move { pools(&owned, locale, None).await }).await;
        match value {
            Ok(value) => ((state, live, version), vec![live::event("jackpots", &serde_json::json!(*value))]),
            Err(_) => ((state, live, seen), Vec::new()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{draw, trigger_hash};

    #[test]
    fn a_hidden_trigger_lies_above_the_seed_within_the_cap_and_its_hash_commits_to_it() {
        for _ in 0..200 {
            let (trigger, salt, hash) = draw(1_000, 1_050);
            assert!((1_001..=1_050).contains(&trigger), "{trigger}");
            assert_eq!(salt.len(), 32);
            assert_eq!(hash, trigger_hash(trigger, &salt));
            assert_ne!(hash, trigger_hash(trigger + 1, &salt));
        }
        // sha256("1234:abc"), computed with `printf '1234:abc' | sha256sum`.
        assert_eq!(trigger_hash(1234, "abc"), "cb536e7b8734de9256c16a60e3b666f272d6faa23aad66f15796d2d3023bd1eb");
    }
}
