//! The bonus clock (a job under a lease, `jobs.rs`): bonuses past their deadline expire — an
//! offered or active one simply ends, a wagering one forfeits its balance to the house — and a
//! wagering bonus about a day from its deadline gets its "expires in 24 h" notice once.

use super::engine::{self, Actor, DAY_MS};
use crate::AppState;
use crate::db::{group::job, now_ms};
use crate::features::notify::{self, Notice};
use croupier_shared::{Currency, Money};

/// The most bonuses one run handles (the next run takes the rest).
const BATCH: i64 = 500;

pub async fn run(state: AppState) -> anyhow::Result<()> {
    expire(&state, now_ms()).await?;
    warn(&state, now_ms()).await?;
    Ok(())
}

/// Expires every bonus whose deadline is before `now`; answers how many.
pub async fn expire(state: &AppState, now: i64) -> anyhow::Result<usize> {
    let due: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, user_id FROM player_bonuses WHERE status IN ('offered', 'active', 'wagering') \
         AND expires_at IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2",
    )
    .bind(now)
    .bind(BATCH)
    .fetch_all(state.db().pool())
    .await?;
    let mut done = 0;
    for (id, user_id) in due {
        let db = state.db().clone();
        let expired = state
            .db()
            .group(
                user_id,
                job(move |conn| {
                    let db = db.clone();
                    Box::pin(async move {
                        db.lock_user(conn, user_id).await?;
                        // Read again under the lock: a bet may have completed it meanwhile.
                        let Some(bonus) = engine::load(conn, id).await? else {
                            return Ok::<bool, anyhow::Error>(false);
                        };
                        if !matches!(bonus.status.as_str(), "offered" | "active" | "wagering")
                            || bonus.expires_at.is_none_or(|e| e > now)
                        {
                            return Ok(false);
                        }
                        engine::forfeit(conn, &bonus, "expired", "deadline passed", Actor::System).await?;
                        Ok(true)
                    })
                }),
            )
            .await?;
        done += usize::from(expired);
    }
    Ok(done)
}

/// Queues the "expires in 24 h" notice of every wagering bonus due within a day of `now`.
pub async fn warn(state: &AppState, now: i64) -> anyhow::Result<usize> {
    let due: Vec<(i64, i64, i64, String, i64, i64)> = sqlx::query_as(
        "SELECT id, user_id, balance, currency, wagered, wager_target FROM player_bonuses WHERE status = 'wagering' \
         AND expiry_noticed = 0 AND expires_at IS NOT NULL AND expires_at > $1 AND expires_at <= $2 ORDER BY expires_at LIMIT $3",
    )
    .bind(now)
    .bind(now + DAY_MS)
    .bind(BATCH)
    .fetch_all(state.db().pool())
    .await?;
    let mut done = 0;
    for (id, user_id, balance, currency, wagered, target) in due {
        let Some(code) = Currency::parse(&currency) else { continue };
        let progress = if target > 0 { (i128::from(wagered) * 100 / i128::from(target)).clamp(0, 100) } else { 100 };
        let notice = Notice::BonusExpiring {
            bonus_id: id,
            balance: Money::from_minor(balance, code).to_decimal_string(),
            currency: currency.clone(),
            progress: i64::try_from(progress).unwrap_or(0),
        };
        let mut tx = state.db().begin().await?;
        let marked = sqlx::query("UPDATE player_bonuses SET expiry_noticed = 1 WHERE id = $1 AND expiry_noticed = 0")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if marked == 1 {
            notify::enqueue(&mut tx, user_id, &format!("bonus:{id}:expiring"), &notice).await?;
            done += 1;
        }
        tx.commit().await?;
    }
    Ok(done)
}
