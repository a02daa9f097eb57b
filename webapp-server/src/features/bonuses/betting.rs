//! Betting bonuses (issue 20; SPEC §7 `BettingBonuses.get`, `BettingBonuses.activate`,
//! `BettingBonuses.remove`, and the betting-bonus-activated dialog): the sportsbook's bonuses,
//! granted through campaigns like any bonus (a reward `freebet` or `odds_boost`), kept in
//! `player_bonuses` with the engine's other bonuses.
//!
//! # Kinds
//! - **Free bet** (`freebet`): a stake of the campaign's `max_bonus` in the player's currency.
//!   The bet's stake is drawn from the betting-bonus balance; on a win the player gets the
//!   returns minus the stake (the stake is never returned), in main money; on a loss, or a void,
//!   nothing (the stake was the house's). A free bet is one single or accumulator whose total
//!   stake is exactly the free bet's amount. It has no cash-out.
//! - **Odds boost** (`odds_boost`): the campaign's `match_percent` is the boost in percent; its
//!   `max_bonus` per currency caps the extra winnings. It applies to the accumulated price of one
//!   single or accumulator placed with main money: the boosted price is `1 + (price − 1) × (1 +
//!   boost)`, i.e. the extra is the bet's winnings (returns − stake) × boost, rounded down, capped.
//!   The extra is paid by settlement as its own postings from the house's bonus liability to main
//!   money (see `features::sportsbook::settlement`).
//!
//! # States
//! `offered` (granted; or `active` with `awaiting_deposit` while a deposit-triggered campaign
//! waits for its deposit, then offered) → `active` (the player activated it: a free bet's stake
//! is credited to the betting-bonus balance; the bet slip offers it) → `used` (a bet was placed
//! with it; final: the bet carries it to settlement) / `expired` (its deadline passed, offered or
//! active) / `forfeited` (removed while active: a free bet's stake goes back to the house) /
//! `cancelled` (declined while offered). At most one betting bonus is active at a time:
//! activating another puts the active one back to offered (a free bet's stake back to the house).
//! An activated bonus must be used within the campaign's `wager_days`.
//!
//! # Money
//! A free bet's stake moves from the bonus liability to the betting-bonus balance on activation
//! (`bonus:{id}:freebet:a{n}`, n the activations before it) and back when it stops being active
//! without a bet (`bonus:{id}:freebet:r{n}`); the bet's stake leaves the betting-bonus balance
//! under the bet's own key. Every movement is in the caller's transaction.

use super::engine::{self, Actor, BonusError, BonusRow, DAY_MS};
use super::methods::{page_checks, refusal, rows_page, status_list};
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, Registry};
use crate::db::{group::job, now_ms};
use crate::ledger::{self, Account, Entry, HouseAccount, PlayerAccount};
use croupier_shared::{Currency, FieldCode, Locale, Money};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;

/// The rewards that make a betting bonus.
pub const KINDS: [&str; 2] = ["freebet", "odds_boost"];

/// A betting bonus's states (see the module docs).
pub const STATUSES: [&str; 6] = ["offered", "active", "used", "expired", "forfeited", "cancelled"];

/// The largest odds boost, in percent.
pub const MAX_BOOST_PERCENT: i64 = 1000;

pub fn is_betting(reward: &str) -> bool {
    KINDS.contains(&reward)
}

pub fn register(api: &mut Registry) {
    api.read(
        "BettingBonuses.get",
        "The player's betting bonuses: free bets and odds boosts (statuses, offset, count).",
        get,
    );
    api.write(
        "BettingBonuses.activate",
        "Activates an offered betting bonus (bonus_id): the bet slip then offers it; another active one goes back to offered.",
        activate_method,
    );
    api.write("BettingBonuses.remove", "Declines or forfeits a betting bonus (bonus_id).", remove_method);
}

async fn activations(conn: &mut AnyConnection, bonus_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM bonus_events WHERE bonus_id = $1 AND to_status = 'active' AND from_status = 'offered'",
    )
    .bind(bonus_id)
    .fetch_one(conn)
    .await
}

fn betting_account(user_id: i64) -> Account {
    Account::Player { user_id, kind: PlayerAccount::BettingBonus }
}

/// The engine's credit of a betting bonus: nothing is credited before the player activates it;
/// a deposit-triggered one that got its deposit becomes offered.
pub async fn on_credit(
    conn: &mut AnyConnection,
    bonus: &BonusRow,
    deposit: Option<(&str, i64)>,
    actor: Actor,
    reason: &str,
) -> Result<BonusRow, BonusError> {
    match (bonus.status.as_str(), bonus.awaiting_deposit) {
        ("active", 1) => {
            sqlx::query(
                "UPDATE player_bonuses SET awaiting_deposit = 0, payment_id = $1, deposit_amount = $2 WHERE id = $3",
            )
            .bind(deposit.map(|(p, _)| p))
            .bind(deposit.map_or(0, |(_, a)| a))
            .bind(bonus.id)
            .execute(&mut *conn)
            .await?;
            engine::transition(conn, bonus, "offered", reason, actor, 0).await?;
        }
        ("offered", _) => {}
        _ => return Err(BonusError::WrongState),
    }
    engine::load(conn, bonus.id).await?.ok_or(BonusError::NotFound)
}

/// Activates an offered betting bonus (the player's), putting their active one back to offered.
pub async fn activate(conn: &mut AnyConnection, bonus: &BonusRow) -> Result<(), BonusError> {
    if !is_betting(&bonus.reward) || bonus.status != "offered" || bonus.awaiting_deposit == 1 {
        return Err(BonusError::WrongState);
    }
    let others: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM player_bonuses WHERE user_id = $1 AND status = 'active' AND awaiting_deposit = 0 \
         AND reward IN ('freebet', 'odds_boost') AND id <> $2 ORDER BY id",
    )
    .bind(bonus.user_id)
    .bind(bonus.id)
    .fetch_all(&mut *conn)
    .await?;
    for id in others {
        if let Some(other) = engine::load(conn, id).await? {
            release(conn, &other, "offered", "another betting bonus activated", Actor::Player).await?;
        }
    }
    if bonus.reward == "freebet" {
        let n = activations(conn, bonus.id).await?;
        let key = format!("bonus:{}:freebet:a{n}", bonus.id);
        let reference = bonus.id.to_string();
        let entry = Entry::transfer(
            &key,
            "freebet_credit",
            bonus.currency()?,
            Account::House(HouseAccount::BonusLiability),
            betting_account(bonus.user_id),
            bonus.max_bonus,
        )
        .by(Some(bonus.user_id))
        .about(Some(&reference));
        ledger::post(conn, &entry).await?;
    }
    let now = now_ms();
    let amount = if bonus.reward == "freebet" { bonus.max_bonus } else { 0 };
    sqlx::query("UPDATE player_bonuses SET amount = $1, activated_at = $2, expires_at = $3 WHERE id = $4")
        .bind(amount)
        .bind(now)
        .bind(now + bonus.wager_days.max(1) * DAY_MS)
        .bind(bonus.id)
        .execute(&mut *conn)
        .await?;
    engine::transition(conn, bonus, "active", "activated by the player", Actor::Player, amount).await?;
    Ok(())
}

/// Ends or parks a betting bonus without a bet: `to` is offered (another one was activated),
/// expired, forfeited or cancelled. An active free bet's stake goes back to the house.
pub async fn release(
    conn: &mut AnyConnection,
    bonus: &BonusRow,
    to: &str,
    reason: &str,
    actor: Actor,
) -> Result<(), BonusError> {
    if !matches!(bonus.status.as_str(), "offered" | "active") {
        return Err(BonusError::WrongState);
    }
    let credited = bonus.status == "active" && bonus.awaiting_deposit == 0 && bonus.reward == "freebet";
    if credited && bonus.amount > 0 {
        let n = activations(conn, bonus.id).await?;
        let key = format!("bonus:{}:freebet:r{n}", bonus.id);
        let reference = bonus.id.to_string();
        let entry = Entry::transfer(
            &key,
            "freebet_forfeit",
            bonus.currency()?,
            betting_account(bonus.user_id),
            Account::House(HouseAccount::BonusLiability),
            bonus.amount,
        )
        .by(Some(bonus.user_id))
        .about(Some(&reference));
        ledger::post(conn, &entry).await?;
        sqlx::query("UPDATE player_bonuses SET forfeited = forfeited + $1 WHERE id = $2")
            .bind(bonus.amount)
            .bind(bonus.id)
            .execute(&mut *conn)
            .await?;
    }
    if to == "offered" {
        sqlx::query("UPDATE player_bonuses SET activated_at = NULL WHERE id = $1")
            .bind(bonus.id)
            .execute(&mut *conn)
            .await?;
    }
    engine::transition(conn, bonus, to, reason, actor, if credited { bonus.amount } else { 0 }).await?;
    Ok(())
}

/// The player removes a betting bonus: declined while offered (or waiting for its deposit),
/// forfeited while active.
pub async fn remove(conn: &mut AnyConnection, bonus: &BonusRow) -> Result<(), BonusError> {
    match (bonus.status.as_str(), bonus.awaiting_deposit) {
        ("offered", _) | ("active", 1) => {
            release(conn, bonus, "cancelled", "declined by the player", Actor::Player).await
        }
        ("active", _) => release(conn, bonus, "forfeited", "removed by the player", Actor::Player).await,
        _ => Err(BonusError::WrongState),
    }
}

/// What a bet takes from a betting bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BetBonusKind {
    /// The stake, drawn from the betting-bonus balance.
    Freebet { amount: i64 },
    /// The boost in basis points and the cap of the extra.
    Boost { bp: i64, cap: i64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BetBonus {
    pub id: i64,
    pub kind: BetBonusKind,
}

/// The betting bonus a bet uses: `bonus_id` (the player's, active, in `currency`), or with no id
/// and the betting-bonus funds chosen, the player's active free bet if any. `None`: no bonus.
pub async fn for_bet(
    conn: &mut AnyConnection,
    user_id: i64,
    bonus_id: Option<i64>,
    betting_funds: bool,
    currency: Currency,
) -> Result<Option<BetBonus>, BonusError> {
    let bonus = match bonus_id {
        Some(id) => engine::load_own(conn, user_id, id).await?,
        None if betting_funds => {
            let id: Option<i64> = sqlx::query_scalar(
                "SELECT id FROM player_bonuses WHERE user_id = $1 AND status = 'active' AND awaiting_deposit = 0 \
                 AND reward = 'freebet' ORDER BY id LIMIT 1",
            )
            .bind(user_id)
            .fetch_optional(&mut *conn)
            .await?;
            match id {
                Some(id) => engine::load_own(conn, user_id, id).await?,
                None => return Ok(None),
            }
        }
        None => return Ok(None),
    };
    if !is_betting(&bonus.reward) || bonus.status != "active" || bonus.awaiting_deposit == 1 {
        return Err(BonusError::WrongState);
    }
    if bonus.currency()? != currency {
        return Err(BonusError::WrongState);
    }
    let kind = if bonus.reward == "freebet" {
        BetBonusKind::Freebet { amount: bonus.amount }
    } else {
        BetBonusKind::Boost { bp: bonus.match_percent.clamp(0, MAX_BOOST_PERCENT) * 100, cap: bonus.max_bonus.max(0) }
    };
    Ok(Some(BetBonus { id: bonus.id, kind }))
}

/// Marks the bonus used by bet `bet_id` (in the bet's transaction, after its stake posted).
pub async fn mark_used(conn: &mut AnyConnection, bonus_id: i64, bet_id: i64) -> Result<(), BonusError> {
    let bonus = engine::load(conn, bonus_id).await?.ok_or(BonusError::NotFound)?;
    if bonus.status != "active" {
        return Err(BonusError::WrongState);
    }
    engine::transition(conn, &bonus, "used", &format!("sports bet {bet_id}"), Actor::Player, bonus.amount).await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The player's calls.

/// A betting bonus as `BettingBonuses.get` answers it (amounts decimal in its currency, times in
/// Unix seconds).
#[derive(Debug, Serialize, JsonSchema)]
pub struct BettingBonus {
    pub id: i64,
    /// freebet or odds_boost.
    pub kind: String,
    /// offered, active, used, expired, forfeited or cancelled.
    pub status: String,
    pub campaign_id: Option<i64>,
    pub title: String,
    pub description: String,
    pub currency: String,
    /// A free bet's stake.
    pub amount: Option<String>,
    /// An odds boost's boost, in percent of the winnings.
    pub boost_percent: Option<i64>,
    /// An odds boost's largest extra winnings.
    pub max_extra: Option<String>,
    /// Waiting for the deposit its campaign asks for.
    pub awaiting_deposit: bool,
    pub expires_at: Option<i64>,
    pub created_at: i64,
    pub activated_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub can_activate: bool,
    pub can_remove: bool,
}

pub fn view(b: &BonusRow, locale: Locale) -> BettingBonus {
    let fr = locale == Locale::Fr;
    let money = |m: i64| {
        Currency::parse(&b.currency).map_or_else(|| m.to_string(), |c| Money::from_minor(m, c).to_decimal_string())
    };
    let waiting = b.awaiting_deposit == 1 && matches!(b.status.as_str(), "offered" | "active");
    let freebet = b.reward == "freebet";
    BettingBonus {
        id: b.id,
        kind: b.reward.clone(),
        status: if waiting { "offered".to_owned() } else { b.status.clone() },
        campaign_id: b.campaign_id,
        title: if fr { b.title_fr.clone() } else { b.title_en.clone() },
        description: if fr { b.text_fr.clone() } else { b.text_en.clone() },
        currency: b.currency.clone(),
        amount: freebet.then(|| money(b.max_bonus)),
        boost_percent: (!freebet).then_some(b.match_percent),
        max_extra: (!freebet && b.max_bonus > 0).then(|| money(b.max_bonus)),
        awaiting_deposit: waiting,
        expires_at: b.expires_at.filter(|_| matches!(b.status.as_str(), "offered" | "active")).map(|t| t / 1000),
        created_at: b.created_at / 1000,
        activated_at: b.activated_at.filter(|_| b.status != "offered").map(|t| t / 1000),
        finished_at: b.finished_at.map(|t| t / 1000),
        can_activate: b.status == "offered" && !waiting,
        can_remove: matches!(b.status.as_str(), "offered" | "active"),
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BettingBonusesQuery {
    /// Comma-separated statuses; default offered,active.
    #[serde(default)]
    pub statuses: Option<String>,
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 50).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
}

impl BettingBonusesQuery {
    fn statuses(&self) -> Vec<&str> {
        status_list(self.statuses.as_deref(), &["offered", "active"])
    }
}

impl Input for BettingBonusesQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.statuses().iter().any(|s| !STATUSES.contains(s)) {
            errors.add("statuses", FieldCode::Unsupported);
        }
        page_checks(self.offset, self.count, errors);
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct BettingBonuses {
    pub total: i64,
    pub items: Vec<BettingBonus>,
}

async fn get(ctx: Ctx, user: AuthUser, query: BettingBonusesQuery) -> Result<BettingBonuses, ApiError> {
    let mut conn = ctx.state.db().pool().acquire().await?;
    let only = " AND reward IN ('freebet', 'odds_boost')";
    let (total, rows) =
        rows_page(&mut conn, user.id, &query.statuses(), only, query.offset.unwrap_or(0), query.count.unwrap_or(50))
            .await?;
    Ok(BettingBonuses { total, items: rows.iter().map(|r| view(r, ctx.locale)).collect() })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BettingBonusInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true), range(min = 1))]
    pub bonus_id: Option<i64>,
}

impl Input for BettingBonusInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.bonus_id {
            None => errors.add("bonus_id", FieldCode::Required),
            Some(id) if id < 1 => errors.add("bonus_id", FieldCode::Invalid),
            Some(_) => {}
        }
    }
}

/// The answer to `BettingBonuses.activate`: the bonus, and the dialog the client opens.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Activated {
    pub bonus: BettingBonus,
    /// `betting-bonus-activated` (SPEC §dialogs).
    pub dialog: String,
}

/// Runs `change` on the player's own betting bonus `bonus_id` on their lane (one transaction,
/// the player locked); another player's bonus, or one that is not a betting bonus, is NOT_FOUND.
async fn change(
    ctx: &Ctx,
    user_id: i64,
    bonus_id: i64,
    action: fn(&mut AnyConnection, BonusRow) -> futures::future::BoxFuture<'_, Result<(), BonusError>>,
) -> Result<BettingBonus, ApiError> {
    let (db, locale) = (ctx.state.db().clone(), ctx.locale);
    ctx.state
        .db()
        .group(
            user_id,
            job(move |conn| {
                let db = db.clone();
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    let bonus = engine::load_own(conn, user_id, bonus_id)
                        .await
                        .and_then(|b| if is_betting(&b.reward) { Ok(b) } else { Err(BonusError::NotFound) })
                        .map_err(refusal)?;
                    action(conn, bonus).await.map_err(refusal)?;
                    let bonus = engine::load_own(conn, user_id, bonus_id).await.map_err(refusal)?;
                    Ok(view(&bonus, locale))
                })
            }),
        )
        .await
}

async fn activate_method(ctx: Ctx, user: AuthUser, input: BettingBonusInput) -> Result<Activated, ApiError> {
    crate::features::protection::refuse_if_excluded(&ctx.state, user.id).await?;
    let bonus =
        change(&ctx, user.id, input.bonus_id.unwrap_or(0), |conn, b| Box::pin(async move { activate(conn, &b).await }))
            .await?;
    Ok(Activated { bonus, dialog: "betting-bonus-activated".to_owned() })
}

async fn remove_method(ctx: Ctx, user: AuthUser, input: BettingBonusInput) -> Result<BettingBonus, ApiError> {
    change(&ctx, user.id, input.bonus_id.unwrap_or(0), |conn, b| Box::pin(async move { remove(conn, &b).await })).await
}
