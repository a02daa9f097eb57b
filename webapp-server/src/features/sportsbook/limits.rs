//! Betting limits per sport and per player (issue 20 "Operators", migration 0028), on top of the
//! limits of the player's currency (`CROUPIER_SPORTSBOOK_LIMITS`).
//!
//! - **Per sport and currency** (`sb_sport_limits`): a minimum stake per line, a maximum total
//!   stake and a maximum payout, each optional. A bet with legs on several sports takes the
//!   tightest of each.
//! - **Per player** (`sb_player_limits`): a stake factor in basis points (10,000 = as everyone;
//!   2,500 = a quarter of the maximum stake that applies), an absolute maximum total stake in the
//!   player's currency, and a `blocked` flag (no bet at all).
//!
//! [`effective`] answers the tightest (min stake, max stake, max payout) and `bets.place` refuses
//! with the same errors as for the currency's limits: `stake` MIN_VALUE / MAX_VALUE with `min` /
//! `max` (a blocked player's maximum is 0, so every stake is refused with `max` 0.00), and the
//! payout refusal with `max_payout`. Limits are read in the placement's transaction.
//!
//! Operators set them with `PUT /admin/sportsbook/limits/sports/{sport}` and
//! `PUT /admin/sportsbook/limits/players/{user_id}` ([`super::admin`]) or the CLI.

use croupier_shared::Currency;
use sqlx::AnyConnection;

/// The factor meaning "as everyone".
pub const FULL_FACTOR_BP: i64 = 10_000;

/// A sport's limits in one currency, as stored.
#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize)]
pub struct SportLimits {
    pub sport: String,
    pub currency: String,
    pub min_stake: Option<i64>,
    pub max_stake: Option<i64>,
    pub max_payout: Option<i64>,
    pub reason: String,
    pub updated_by: String,
    pub updated_at: i64,
}

/// A player's limits, as stored.
#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize)]
pub struct PlayerLimits {
    pub user_id: i64,
    pub stake_factor_bp: Option<i64>,
    pub max_stake: Option<i64>,
    pub currency: Option<String>,
    pub blocked: i64,
    pub reason: String,
    pub updated_by: String,
    pub updated_at: i64,
}

/// The tightest of `currency_limits` (min stake, max stake, max payout of the currency), the
/// limits of every sport in `sports` (the slip's, each once) in `currency` and the player's own.
pub async fn effective(
    conn: &mut AnyConnection,
    currency_limits: (i64, i64, i64),
    user_id: i64,
    currency: Currency,
    sports: &[&str],
) -> Result<(i64, i64, i64), sqlx::Error> {
    let (mut min_stake, mut max_stake, mut max_payout) = currency_limits;
    for &sport in sports {
        let row: Option<(Option<i64>, Option<i64>, Option<i64>)> = sqlx::query_as(
            "SELECT min_stake, max_stake, max_payout FROM sb_sport_limits WHERE sport = $1 AND currency = $2",
        )
        .bind(sport)
        .bind(currency.code())
        .fetch_optional(&mut *conn)
        .await?;
        if let Some((min, max, payout)) = row {
            min_stake = min_stake.max(min.unwrap_or(0));
            max_stake = max_stake.min(max.unwrap_or(i64::MAX));
            max_payout = max_payout.min(payout.unwrap_or(i64::MAX));
        }
    }
    let player: Option<PlayerRow> =
        sqlx::query_as("SELECT stake_factor_bp, max_stake, currency, blocked FROM sb_player_limits WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *conn)
            .await?;
    if let Some(p) = player {
        Ok((
            min_stake,
            player_max(
                max_stake,
                p.stake_factor_bp,
                p.max_stake,
                p.currency.as_deref() == Some(currency.code()),
                p.blocked != 0,
            ),
            max_payout,
        ))
    } else {
        Ok((min_stake, max_stake, max_payout))
    }
}

/// A player's row of `sb_player_limits`.
#[derive(sqlx::FromRow)]
struct PlayerRow {
    stake_factor_bp: Option<i64>,
    max_stake: Option<i64>,
    currency: Option<String>,
    blocked: i64,
}

/// A player's maximum stake: the maximum that applies scaled by their factor (rounded down),
/// capped by their own maximum when it is in the bet's currency; 0 when they are blocked.
pub fn player_max(
    max_stake: i64,
    factor_bp: Option<i64>,
    own_max: Option<i64>,
    same_currency: bool,
    blocked: bool,
) -> i64 {
    if blocked {
        return 0;
    }
    let mut max = max_stake;
    if let Some(bp) = factor_bp {
        let scaled = i128::from(max) * i128::from(bp.clamp(0, FULL_FACTOR_BP)) / i128::from(FULL_FACTOR_BP);
        max = i64::try_from(scaled).unwrap_or(max);
    }
    if same_currency && let Some(own) = own_max {
        max = max.min(own);
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_maximum_is_the_tightest_and_blocked_is_zero() {
        assert_eq!(player_max(10_000, None, None, true, false), 10_000);
        assert_eq!(player_max(10_000, Some(2_500), None, true, false), 2_500);
        assert_eq!(player_max(10_001, Some(3_333), None, true, false), 3_333);
        assert_eq!(player_max(10_000, Some(5_000), Some(1_000), true, false), 1_000);
        // An own maximum in another currency does not apply to this bet.
        assert_eq!(player_max(10_000, Some(5_000), Some(1_000), false, false), 5_000);
        assert_eq!(player_max(10_000, None, Some(20_000), true, false), 10_000);
        assert_eq!(player_max(10_000, Some(10_000), Some(20_000), true, true), 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Setting them (operators).

use super::operations::Actor;
use crate::AppState;
use crate::api::{ApiError, FieldErrors};
use crate::db::now_ms;
use crate::features::backoffice::trail;
use croupier_shared::FieldCode;
use serde::Deserialize;
use serde_json::{Value, json};

/// The largest amount a limit may name, in minor units.
pub const MAX_AMOUNT: i64 = 1_000_000_000_000_000;

/// A sport's limits in one currency as an operator sets them (minor units; absent: none). All
/// three absent removes the sport's limits in that currency.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SportLimitsInput {
    pub currency: String,
    #[serde(default)]
    pub min_stake: Option<i64>,
    #[serde(default)]
    pub max_stake: Option<i64>,
    #[serde(default)]
    pub max_payout: Option<i64>,
    #[serde(default)]
    pub reason: Option<String>,
}

/// A player's limits as an operator sets them. Nothing set and not blocked removes them.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerLimitsInput {
    /// 0 to 10,000.
    #[serde(default)]
    pub stake_factor_bp: Option<i64>,
    /// Minor units of the player's currency.
    #[serde(default)]
    pub max_stake: Option<i64>,
    #[serde(default)]
    pub blocked: bool,
    #[serde(default)]
    pub reason: Option<String>,
}

fn amount_check(errors: &mut FieldErrors, field: &str, value: Option<i64>) {
    match value {
        Some(v) if v < 1 => errors.add_with(field, FieldCode::MinValue, vec![("min", "1".into())]),
        Some(v) if v > MAX_AMOUNT => errors.add_with(field, FieldCode::MaxValue, vec![("max", MAX_AMOUNT.to_string())]),
        _ => {}
    }
}

/// Every sport's and player's limits.
pub async fn list(state: &AppState) -> Result<Value, ApiError> {
    let pool = state.db().pool();
    let sports: Vec<SportLimits> = sqlx::query_as(
        "SELECT sport, currency, min_stake, max_stake, max_payout, reason, updated_by, updated_at FROM sb_sport_limits ORDER BY sport, currency",
    )
    .fetch_all(pool)
    .await?;
    let players: Vec<PlayerLimits> = sqlx::query_as(
        "SELECT user_id, stake_factor_bp, max_stake, currency, blocked, reason, updated_by, updated_at FROM sb_player_limits ORDER BY user_id",
    )
    .fetch_all(pool)
    .await?;
    let seconds = |ms: i64| ms.div_euclid(1000);
    Ok(json!({
        "sports": sports.into_iter().map(|s| json!({
            "id": format!("{}:{}", s.sport, s.currency), "sport": s.sport, "currency": s.currency,
            "min_stake": s.min_stake, "max_stake": s.max_stake, "max_payout": s.max_payout,
            "reason": s.reason, "updated_by": s.updated_by, "updated_at": seconds(s.updated_at),
        })).collect::<Vec<_>>(),
        "players": players.into_iter().map(|p| json!({
            "id": p.user_id, "user_id": p.user_id, "stake_factor_bp": p.stake_factor_bp, "max_stake": p.max_stake,
            "currency": p.currency, "blocked": p.blocked != 0, "reason": p.reason, "updated_by": p.updated_by,
            "updated_at": seconds(p.updated_at),
        })).collect::<Vec<_>>(),
    }))
}

/// Sets (or with nothing given removes) `sport`'s limits in a currency; one transaction with its
/// audit row. Answers the limits now (`null` when removed).
pub async fn set_sport(
    state: &AppState,
    actor: &Actor,
    sport: &str,
    input: &SportLimitsInput,
) -> Result<Value, ApiError> {
    let reason = crate::features::backoffice::reason(input.reason.as_deref())?;
    let mut errors = FieldErrors::default();
    if super::feed::Sport::parse(sport).is_none() {
        errors.add("sport", FieldCode::Unsupported);
    }
    let currency = Currency::parse(&input.currency).filter(|c| state.config().currencies.contains(c));
    if currency.is_none() {
        errors.add("currency", FieldCode::Unsupported);
    }
    amount_check(&mut errors, "min_stake", input.min_stake);
    amount_check(&mut errors, "max_stake", input.max_stake);
    amount_check(&mut errors, "max_payout", input.max_payout);
    if let (Some(min), Some(max)) = (input.min_stake, input.max_stake)
        && min > max
    {
        errors.add_with("min_stake", FieldCode::MaxValue, vec![("max", max.to_string())]);
    }
    errors.into_result()?;
    let code = currency.map(|c| c.code()).unwrap_or_default();
    let now = now_ms();
    let mut tx = state.db().begin().await?;
    let before: Option<(Option<i64>, Option<i64>, Option<i64>)> = sqlx::query_as(
        "SELECT min_stake, max_stake, max_payout FROM sb_sport_limits WHERE sport = $1 AND currency = $2",
    )
    .bind(sport)
    .bind(code)
    .fetch_optional(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM sb_sport_limits WHERE sport = $1 AND currency = $2")
        .bind(sport)
        .bind(code)
        .execute(&mut *tx)
        .await?;
    let remove = input.min_stake.is_none() && input.max_stake.is_none() && input.max_payout.is_none();
    let after = (!remove)
        .then(|| json!({ "min_stake": input.min_stake, "max_stake": input.max_stake, "max_payout": input.max_payout }));
    if !remove {
        sqlx::query(
            "INSERT INTO sb_sport_limits (sport, currency, min_stake, max_stake, max_payout, reason, updated_by, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(sport)
        .bind(code)
        .bind(input.min_stake)
        .bind(input.max_stake)
        .bind(input.max_payout)
        .bind(&reason)
        .bind(&actor.name)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    let target = format!("{sport}:{code}");
    audit(
        &mut tx,
        actor,
        "sportsbook.limits.sport",
        "sb_sport_limits",
        &target,
        None,
        &reason,
        before.map(|(a, b, c)| json!({ "min_stake": a, "max_stake": b, "max_payout": c })),
        after.clone(),
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(json!({ "id": target, "sport": sport, "currency": code, "limits": after }))
}

/// Sets (or with nothing given removes) player `user_id`'s limits; one transaction with its
/// audit row. Their maximum stake is in their currency (the site's default before their first
/// movement).
pub async fn set_player(
    state: &AppState,
    actor: &Actor,
    user_id: i64,
    input: &PlayerLimitsInput,
) -> Result<Value, ApiError> {
    let reason = crate::features::backoffice::reason(input.reason.as_deref())?;
    let mut errors = FieldErrors::default();
    if input.stake_factor_bp.is_some_and(|f| !(0..=FULL_FACTOR_BP).contains(&f)) {
        errors.add_with("stake_factor_bp", FieldCode::MaxValue, vec![("max", FULL_FACTOR_BP.to_string())]);
    }
    amount_check(&mut errors, "max_stake", input.max_stake);
    errors.into_result()?;
    let now = now_ms();
    let mut tx = state.db().begin().await?;
    let user: Option<Option<String>> =
        sqlx::query_scalar("SELECT currency FROM users WHERE id = $1").bind(user_id).fetch_optional(&mut *tx).await?;
    let Some(currency) = user else {
        return Err(ApiError::field("user_id", FieldCode::NotFound).with_status(axum::http::StatusCode::NOT_FOUND));
    };
    let currency = currency.unwrap_or_else(|| state.config().default_currency.code().to_owned());
    let before: Option<(Option<i64>, Option<i64>, i64)> =
        sqlx::query_as("SELECT stake_factor_bp, max_stake, blocked FROM sb_player_limits WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?;
    sqlx::query("DELETE FROM sb_player_limits WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
    let remove = input.stake_factor_bp.is_none() && input.max_stake.is_none() && !input.blocked;
    let after = (!remove).then(|| {
        json!({ "stake_factor_bp": input.stake_factor_bp, "max_stake": input.max_stake, "currency": currency, "blocked": input.blocked })
    });
    if !remove {
        sqlx::query(
            "INSERT INTO sb_player_limits (user_id, stake_factor_bp, max_stake, currency, blocked, reason, updated_by, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(user_id)
        .bind(input.stake_factor_bp)
        .bind(input.max_stake)
        .bind(&currency)
        .bind(i64::from(input.blocked))
        .bind(&reason)
        .bind(&actor.name)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    audit(
        &mut tx,
        actor,
        "sportsbook.limits.player",
        "user",
        &user_id.to_string(),
        Some(user_id),
        &reason,
        before.map(|(f, m, b)| json!({ "stake_factor_bp": f, "max_stake": m, "blocked": b != 0 })),
        after.clone(),
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(json!({ "id": user_id, "user_id": user_id, "limits": after }))
}

#[allow(clippy::too_many_arguments)]
async fn audit(
    conn: &mut AnyConnection,
    actor: &Actor,
    action: &str,
    target_type: &str,
    target_id: &str,
    user_id: Option<i64>,
    reason: &str,
    before: Option<Value>,
    after: Option<Value>,
    now: i64,
) -> Result<(), ApiError> {
    let row = trail::Row {
        at: now,
        operator_id: actor.operator_id,
        operator_name: Some(&actor.name),
        role: &actor.role,
        ip: actor.ip,
        action,
        target_type: Some(target_type),
        target_id: Some(target_id),
        user_id,
        reason: Some(reason),
        before,
        after,
        outcome: "ok",
    };
    trail::write(conn, &row).await
}
