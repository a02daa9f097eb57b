//! Responsible-gaming limits (after UKGC RTS 12): **deposit**, **loss** and **wager** limits, one
//! of each per 24 hours, 7 days and month (rolling 30 days); every one that is set applies, so
//! the lowest binds. Lowering or setting a limit applies at once; raising or removing one applies
//! only 24 hours later (the player sees when). All live in `rg_limits` (kind, period).
//!
//! - A deposit over any deposit limit is refused with `BillingDepositLimitExceededException` and
//!   moves nothing. Deposits still pending count, so many open deposits cannot get around it.
//! - A real-money bet is refused (`enforce_play`, from the wallet's bet, so house rounds and
//!   aggregators alike) when the stakes of the window plus this one would pass a **wager**
//!   limit, or when the net loss of the window (stakes − wins) plus this stake — all of which
//!   may be lost — would pass a **loss** limit. Stakes paid with bonus money count too: a limit
//!   is about play, and the player cannot tell the two apart at the table.

use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, One, Registry};
use crate::db::now_ms;
use crate::features::account::MoneyView;
use crate::features::account::player_currency;
use croupier_shared::{Currency, ErrorType, FieldCode, Money};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

const DAY_MS: i64 = 24 * 3600 * 1000;
/// How long an increase (or a removal) waits before it applies.
pub const INCREASE_DELAY_MS: i64 = DAY_MS;

const PERIODS: [(&str, i64); 3] = [("day", DAY_MS), ("week", 7 * DAY_MS), ("month", 30 * DAY_MS)];

/// What a limit bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Deposit,
    Loss,
    Wager,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Deposit, Kind::Loss, Kind::Wager];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Deposit => "deposit",
            Kind::Loss => "loss",
            Kind::Wager => "wager",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == text)
    }
}

pub fn register(api: &mut Registry) {
    api.read("account.getDepositLimit", "The player's deposit limits per period with what is left.", get_limits);
    api.write("account.setDepositLimit", "Sets, lowers, raises or removes (empty amount) a deposit limit.", set_limit);
    api.read(
        "responsibleGaming.getLimits",
        "The player's deposit, loss and wager limits per period with what is left.",
        get_all_limits,
    );
    api.write(
        "responsibleGaming.setLimit",
        "Sets, lowers, raises or removes (empty amount) a deposit, loss or wager limit.",
        set_any_limit,
    );
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DepositLimit {
    /// deposit, loss or wager.
    pub kind: &'static str,
    /// day, week or month.
    pub period: &'static str,
    /// `null`: no limit.
    pub limit_amount: Option<MoneyView>,
    /// What may still be deposited in the period; `null` without a limit.
    pub available_amount: Option<MoneyView>,
    pub can_edit: bool,
    /// Unix seconds at which a waiting increase or removal applies; `null` if none waits.
    pub expired_at: Option<i64>,
    /// The limit that will apply at `expired_at` (`null` with a removal waiting).
    pub pending_limit_amount: Option<MoneyView>,
}

#[derive(sqlx::FromRow)]
struct LimitRow {
    period: String,
    amount: Option<i64>,
    pending_amount: Option<i64>,
    pending_removal: i64,
    pending_from: Option<i64>,
}

impl LimitRow {
    /// The limit in force at `now`, with a waiting change applied once its time has come.
    fn effective(&self, now: i64) -> Option<i64> {
        match self.pending_from {
            Some(from) if from <= now => {
                if self.pending_removal != 0 {
                    None
                } else {
                    self.pending_amount
                }
            }
            _ => self.amount,
        }
    }

    fn waiting(&self, now: i64) -> Option<i64> {
        self.pending_from.filter(|from| *from > now)
    }
}

async fn rows(conn: &mut sqlx::AnyConnection, user_id: i64, kind: Kind) -> Result<Vec<LimitRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT period, amount, pending_amount, pending_removal, pending_from FROM rg_limits WHERE user_id = $1 AND kind = $2",
    )
    .bind(user_id)
    .bind(kind.name())
    .fetch_all(conn)
    .await
}

/// What counts against a limit of `kind` since `since`: deposits (pending or paid), real-money
/// stakes (casino rounds and sports bets), or the net loss (stakes − wins and payouts, negative
/// when ahead).
async fn used_since(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    kind: Kind,
    currency: Currency,
    since: i64,
) -> Result<i64, sqlx::Error> {
    let sql = match kind {
        Kind::Deposit => {
            "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payments WHERE user_id = $1 AND direction = 'deposit' \
             AND status IN ('pending', 'success') AND currency = $2 AND created_at >= $3"
        }
        // Casino rounds and sports bets staked from the main balance (house and external
        // providers' alike; a cancelled provider bet gave its stake back) count alike.
        Kind::Wager => {
            "SELECT CAST(COALESCE(SUM(staked), 0) AS BIGINT) FROM ( \
             SELECT bet AS staked FROM game_rounds WHERE user_id = $1 AND mode = 'real' AND currency = $2 AND created_at >= $3 \
             UNION ALL SELECT stake AS staked FROM sb_bets WHERE user_id = $1 AND funds = 'main' AND currency = $2 AND created_at >= $3 \
             UNION ALL SELECT stake AS staked FROM sb_provider_bets WHERE user_id = $1 AND status <> 'cancelled' AND currency = $2 AND created_at >= $3 \
             ) AS played"
        }
        Kind::Loss => {
            "SELECT CAST(COALESCE(SUM(lost), 0) AS BIGINT) FROM ( \
             SELECT bet - win AS lost FROM game_rounds WHERE user_id = $1 AND mode = 'real' AND currency = $2 AND created_at >= $3 \
             UNION ALL SELECT stake - payout AS lost FROM sb_bets WHERE user_id = $1 AND funds = 'main' AND currency = $2 AND created_at >= $3 \
             UNION ALL SELECT stake - payout AS lost FROM sb_provider_bets WHERE user_id = $1 AND status <> 'cancelled' AND currency = $2 AND created_at >= $3 \
             ) AS played"
        }
    };
    sqlx::query_scalar(sql).bind(user_id).bind(currency.code()).bind(since).fetch_one(conn).await
}

fn window(period: &str) -> i64 {
    PERIODS.iter().find(|(p, _)| *p == period).map_or(DAY_MS, |(_, w)| *w)
}

/// A bet refused by a loss or wager limit.
#[derive(Debug, Clone)]
pub struct PlayLimitReached {
    pub kind: Kind,
    pub period: String,
    /// What may still be staked in the window (minor units, never negative).
    pub available: i64,
}

/// Refuses a real-money `stake` that would pass a loss or wager limit in force. Call inside the
/// bet's transaction, after locking the player, only for players with limits (`users.play_limits`).
pub async fn enforce_play(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    currency: Currency,
    stake: i64,
    now: i64,
) -> Result<(), PlayLimitRefusal> {
    for kind in [Kind::Loss, Kind::Wager] {
        for row in rows(conn, user_id, kind).await? {
            let Some(limit) = row.effective(now) else { continue };
            let used = used_since(conn, user_id, kind, currency, now - window(&row.period)).await?;
            if used.saturating_add(stake) > limit {
                return Err(PlayLimitRefusal::Reached(PlayLimitReached {
                    kind,
                    period: row.period.clone(),
                    available: limit.saturating_sub(used).max(0),
                }));
            }
        }
    }
    Ok(())
}

#[derive(Debug)]
pub enum PlayLimitRefusal {
    Reached(PlayLimitReached),
    Db(sqlx::Error),
}

impl From<sqlx::Error> for PlayLimitRefusal {
    fn from(e: sqlx::Error) -> PlayLimitRefusal {
        PlayLimitRefusal::Db(e)
    }
}

impl PlayLimitRefusal {
    /// The `/api` answer (a wallet answers its own protocol's status instead).
    pub fn into_api(self, currency: Currency) -> ApiError {
        match self {
            PlayLimitRefusal::Reached(r) => ApiError::new(ErrorType::PlayLimitReachedException)
                .with_data("kind", r.kind.name())
                .with_data("period", r.period)
                .with_data("available_amount", Money::from_minor(r.available, currency).to_decimal_string()),
            PlayLimitRefusal::Db(e) => e.into(),
        }
    }
}

/// Refuses `amount` when it would pass any limit in force. Call inside the deposit's transaction,
/// after locking the player.
pub async fn enforce(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    currency: Currency,
    amount: i64,
    now: i64,
) -> Result<(), ApiError> {
    for row in rows(conn, user_id, Kind::Deposit).await? {
        let Some(limit) = row.effective(now) else { continue };
        let used = used_since(conn, user_id, Kind::Deposit, currency, now - window(&row.period)).await?;
        if used.saturating_add(amount) > limit {
            let available = (limit - used).max(0);
            return Err(ApiError::new(ErrorType::BillingDepositLimitExceededException)
                .with_data("period", row.period.clone())
                .with_data("available_amount", Money::from_minor(available, currency).to_decimal_string()));
        }
    }
    Ok(())
}

/// The three periods of `kind` with their limit (or none) and what is left.
pub async fn current(
    state: &AppState,
    user_id: i64,
    currency: Currency,
    kind: Kind,
) -> Result<Vec<DepositLimit>, ApiError> {
    let now = now_ms();
    let mut conn = state.db().pool().acquire().await?;
    let rows = rows(&mut conn, user_id, kind).await?;
    let mut out = Vec::new();
    for (period, window) in PERIODS {
        let row = rows.iter().find(|r| r.period == period);
        let limit = row.and_then(|r| r.effective(now));
        let available = match limit {
            Some(limit) => Some((limit - used_since(&mut conn, user_id, kind, currency, now - window).await?).max(0)),
            None => None,
        };
        let waiting = row.and_then(|r| r.waiting(now));
        let money = |minor: i64| MoneyView::from(Money::from_minor(minor, currency));
        out.push(DepositLimit {
            kind: kind.name(),
            period,
            limit_amount: limit.map(money),
            available_amount: available.map(money),
            can_edit: true,
            expired_at: waiting.map(|ms| ms / 1000),
            pending_limit_amount: row
                .filter(|r| waiting.is_some() && r.pending_removal == 0)
                .and_then(|r| r.pending_amount)
                .map(money),
        });
    }
    Ok(out)
}

async fn get_limits(ctx: Ctx, user: AuthUser, _: crate::api::NoInput) -> Result<Vec<DepositLimit>, ApiError> {
    let (user_id, currency) = player_currency(&ctx, &user).await?;
    current(&ctx.state, user_id, currency, Kind::Deposit).await
}

async fn get_all_limits(ctx: Ctx, user: AuthUser, _: crate::api::NoInput) -> Result<Vec<DepositLimit>, ApiError> {
    let (user_id, currency) = player_currency(&ctx, &user).await?;
    let mut out = Vec::new();
    for kind in Kind::ALL {
        out.extend(current(&ctx.state, user_id, currency, kind).await?);
    }
    Ok(out)
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SetAnyLimitInput {
    /// deposit, loss or wager.
    #[serde(default)]
    #[schemars(extend("x-required" = true), extend("enum" = ["deposit", "loss", "wager"]))]
    pub kind: String,
    /// day, week or month.
    #[serde(default)]
    #[schemars(extend("x-required" = true), extend("enum" = ["day", "week", "month"]))]
    pub period: String,
    /// Whole major units; empty removes the limit (after 24 hours).
    #[serde(default)]
    pub amount: String,
}

impl Input for SetAnyLimitInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if Kind::parse(&self.kind).is_none() {
            errors.add("kind", if self.kind.is_empty() { FieldCode::Required } else { FieldCode::Unsupported });
        }
        check_period(&self.period, errors);
    }
}

async fn set_any_limit(ctx: Ctx, user: AuthUser, input: SetAnyLimitInput) -> Result<One, ApiError> {
    let kind = Kind::parse(&input.kind).unwrap_or(Kind::Deposit);
    set(&ctx, &user, kind, &input.period, &input.amount).await
}

fn check_period(period: &str, errors: &mut FieldErrors) {
    if !PERIODS.iter().any(|(p, _)| *p == period) {
        errors.add("period", if period.is_empty() { FieldCode::Required } else { FieldCode::Unsupported });
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SetLimitInput {
    /// day, week or month.
    #[serde(default)]
    #[schemars(extend("x-required" = true), extend("enum" = ["day", "week", "month"]))]
    pub period: String,
    /// Whole major units; empty removes the limit (after 24 hours).
    #[serde(default)]
    pub amount: String,
}

impl Input for SetLimitInput {
    fn validate(&self, errors: &mut FieldErrors) {
        check_period(&self.period, errors);
    }
}

async fn set_limit(ctx: Ctx, user: AuthUser, input: SetLimitInput) -> Result<One, ApiError> {
    set(&ctx, &user, Kind::Deposit, &input.period, &input.amount).await
}

/// Sets a limit: lower (or new) at once, higher or removed after [`INCREASE_DELAY_MS`].
async fn set(ctx: &Ctx, user: &AuthUser, kind: Kind, period: &str, amount: &str) -> Result<One, ApiError> {
    let (user_id, currency) = player_currency(ctx, user).await?;
    let wanted = if amount.trim().is_empty() {
        None
    } else {
        Some(
            Money::parse_whole_major(amount.trim(), currency)
                .ok_or_else(|| crate::features::account::store::field_error("amount", FieldCode::Invalid))?
                .minor(),
        )
    };
    let now = now_ms();
    let db = ctx.state.db();
    let mut tx = db.begin().await?;
    db.lock_user(&mut tx, user_id).await?;
    let existing = rows(&mut tx, user_id, kind).await?.into_iter().find(|r| r.period == period);
    let in_force = existing.as_ref().and_then(|r| r.effective(now));
    let lowers = match (in_force, wanted) {
        (None, Some(_)) => true,
        (Some(current), Some(new)) => new <= current,
        (_, None) => false,
    };
    let (amount, pending_amount, pending_removal, pending_from) = if lowers {
        (wanted, None, 0_i64, None)
    } else if in_force.is_none() && wanted.is_none() {
        (None, None, 0, None)
    } else {
        (in_force, wanted, i64::from(wanted.is_none()), Some(now + INCREASE_DELAY_MS))
    };
    sqlx::query(
        "INSERT INTO rg_limits (user_id, kind, period, amount, pending_amount, pending_removal, pending_from, updated_at) \
         VALUES ($1, $8, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, kind, period) DO UPDATE SET amount = excluded.amount, \
         pending_amount = excluded.pending_amount, pending_removal = excluded.pending_removal, \
         pending_from = excluded.pending_from, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(period)
    .bind(amount)
    .bind(pending_amount)
    .bind(pending_removal)
    .bind(pending_from)
    .bind(now)
    .bind(kind.name())
    .execute(&mut *tx)
    .await?;
    if kind != Kind::Deposit {
        // The bet path reads loss and wager limits only for players who have one.
        sqlx::query("UPDATE users SET play_limits = 1 WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(One)
}
