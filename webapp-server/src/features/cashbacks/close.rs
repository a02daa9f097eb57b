//! The cashback clock (a job under the `cashback-periods` lease, `jobs.rs`): each programme's
//! periods close once they have ended (plus `CROUPIER_CASHBACK_GRACE_SECONDS`, so the period's
//! last wins land first), and unclaimed cashbacks past their claim time expire.
//!
//! **What a close reads.** The period's wallet movements (`wallet_transactions` by time: a bet,
//! win or rollback counts in the period its money moved) joined to the ledger postings they made
//! on the player's **main** account — so money a bonus staked, and what it won back to the bonus,
//! never counts — and to the round's game for its type. Nothing is read from a running counter.
//!
//! **Exactly once.** The lease keeps two replicas from closing at the same time. What makes a
//! repeat harmless anyway is the database: a cashback is unique per (programme, period, player,
//! currency) and written with `ON CONFLICT DO NOTHING`; its times come from the period's row,
//! written once when the close first starts. A close killed half-way leaves the period
//! `closing` and the programme's watermark where it was; the next run computes the same amounts
//! from the same postings, skips the rows already written and writes the rest. The period is
//! marked `closed` and the watermark moves in one transaction at the end.

use super::programmes::{self, HOUR_MS, Programme};
use crate::AppState;
use crate::db::now_ms;
use std::collections::BTreeMap;
use std::time::Duration;

/// Periods one programme closes per run at most (a programme starting long ago catches up
/// over several runs).
const CATCH_UP: usize = 24;
/// Cashbacks one run expires at most.
const EXPIRE_BATCH: i64 = 5_000;

/// How a close paces itself (from the configuration).
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    pub grace_ms: i64,
    pub chunk: usize,
    pub pause: Duration,
}

impl Pace {
    pub fn of(state: &AppState) -> Pace {
        let config = state.config();
        Pace { grace_ms: config.cashback_grace_ms, chunk: config.cashback_chunk, pause: config.cashback_chunk_pause }
    }
}

pub async fn run(state: AppState) -> anyhow::Result<()> {
    close_due(&state, now_ms()).await?;
    expire(&state, now_ms()).await?;
    Ok(())
}

/// Closes every active programme's periods that ended (with the grace) before `now`; answers
/// how many periods closed.
pub async fn close_due(state: &AppState, now: i64) -> anyhow::Result<usize> {
    let pace = Pace::of(state);
    let mut closed = 0;
    for programme in programmes::list(state.db(), true).await? {
        let mut start = programme.closed_through;
        for _ in 0..CATCH_UP {
            let end = start + programme.period_ms();
            if end + pace.grace_ms > now {
                break;
            }
            close_period(state, &programme, start, pace).await?;
            closed += 1;
            start = end;
        }
    }
    Ok(closed)
}

/// One player's cashback of a period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Computed {
    pub user_id: i64,
    pub currency: String,
    /// The net loss or turnover it comes from, all game types together.
    pub basis: i64,
    pub amount: i64,
    pub pending: bool,
}

/// What `programme` gives for the period starting at `start`, player by player (ascending ids).
pub async fn compute(state: &AppState, programme: &Programme, start: i64) -> anyhow::Result<Vec<Computed>> {
    let end = start + programme.period_ms();
    let rows: Vec<(i64, String, String, String, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT r.user_id, r.currency, g.game_type, wt.kind, CAST(SUM(p.amount) AS BIGINT) \
         FROM wallet_transactions wt \
         JOIN game_rounds r ON r.id = wt.round_id \
         JOIN games g ON g.id = r.game_id \
         JOIN users u ON u.id = r.user_id \
         JOIN ledger_transactions lt ON lt.idempotency_key = {} \
         JOIN ledger_postings p ON p.transaction_id = lt.id \
         JOIN ledger_accounts a ON a.id = p.account_id \
         WHERE wt.created_at >= $1 AND wt.created_at < $2 AND r.mode = 'real' AND u.status = 'active' \
         AND a.user_id = r.user_id AND a.kind = 'main' \
         GROUP BY r.user_id, r.currency, g.game_type, wt.kind",
        crate::features::games::wallet::movement_key("wt")
    )))
    .bind(start)
    .bind(end)
    .fetch_all(state.db().pool())
    .await?;
    let turnover = programme.settings.basis == "turnover";
    let mut players: BTreeMap<(i64, String), BTreeMap<String, i64>> = BTreeMap::new();
    for (user_id, currency, game_type, kind, flow) in rows {
        // `flow` is what the main account gained: a bet's is negative, a win's or a rollback's
        // positive. The net loss is what it lost; the turnover what bets took, less rollbacks.
        let basis = match (turnover, kind.as_str()) {
            (true, "win") => 0,
            _ => -flow,
        };
        *players.entry((user_id, currency)).or_default().entry(game_type).or_default() += basis;
    }
    Ok(players
        .into_iter()
        .filter_map(|((user_id, currency), by_type)| {
            let amount = programme.cashback(&currency, &by_type)?;
            let pending = programme.needs_approval(&currency, amount);
            Some(Computed { user_id, basis: by_type.values().sum(), currency, amount, pending })
        })
        .collect())
}

/// Closes one period: writes each player's cashback (chunk by chunk, skipping those already
/// written), then marks the period closed and moves the programme's watermark. Answers how many
/// cashbacks this call wrote.
pub async fn close_period(state: &AppState, programme: &Programme, start: i64, pace: Pace) -> anyhow::Result<usize> {
    let end = start + programme.period_ms();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO cashback_periods (programme_id, period_start, period_end, status, started_at) \
         VALUES ($1, $2, $3, 'closing', $4) ON CONFLICT (programme_id, period_start) DO NOTHING",
    )
    .bind(programme.id)
    .bind(start)
    .bind(end)
    .bind(now)
    .execute(state.db().pool())
    .await?;
    let (status, started_at): (String, i64) =
        sqlx::query_as("SELECT status, started_at FROM cashback_periods WHERE programme_id = $1 AND period_start = $2")
            .bind(programme.id)
            .bind(start)
            .fetch_one(state.db().pool())
            .await?;
    if status == "closed" {
        return Ok(0);
    }
    let computed = compute(state, programme, start).await?;
    let s = &programme.settings;
    let until = started_at + s.claim_hours * HOUR_MS;
    let mut written = 0;
    for (n, chunk) in computed.chunks(pace.chunk.max(1)).enumerate() {
        if n > 0 && !pace.pause.is_zero() {
            tokio::time::sleep(pace.pause).await;
        }
        let mut tx = state.db().begin().await?;
        for c in chunk {
            let status = if c.pending { "pending" } else { "active" };
            let id: Option<i64> = sqlx::query_scalar(
                "INSERT INTO cashbacks (user_id, status, description_en, description_fr, amount, currency, receiving_expired_at, \
                 end_date, created_at, programme_id, period_start, basis_amount, pays, wager_multiplier, wager_days, claim_hours) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) \
                 ON CONFLICT (programme_id, period_start, user_id, currency) DO NOTHING RETURNING id",
            )
            .bind(c.user_id)
            .bind(status)
            .bind(&s.title_en)
            .bind(&s.title_fr)
            .bind(c.amount)
            .bind(&c.currency)
            .bind(if c.pending { None } else { Some(until) })
            .bind(end)
            .bind(started_at)
            .bind(programme.id)
            .bind(start)
            .bind(c.basis)
            .bind(&s.pays)
            .bind(s.wager_multiplier)
            .bind(s.wager_days)
            .bind(s.claim_hours)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(id) = id {
                written += 1;
                boost(&mut tx, c.user_id, id).await?;
                if !c.pending {
                    super::announce(&mut tx, id).await?;
                }
            }
        }
        tx.commit().await?;
    }
    let mut tx = state.db().begin().await?;
    sqlx::query(
        "UPDATE cashback_periods SET status = 'closed', closed_at = $1, \
         given = (SELECT COUNT(*) FROM cashbacks WHERE programme_id = $2 AND period_start = $3) \
         WHERE programme_id = $2 AND period_start = $3",
    )
    .bind(now_ms())
    .bind(programme.id)
    .bind(start)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE cashback_programmes SET closed_through = $1 WHERE id = $2 AND closed_through = $3")
        .bind(end)
        .bind(programme.id)
        .bind(start)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(programme = %s.sysname, period_start = start, written, "cashback period closed");
    Ok(written)
}

/// A cashback boost the player bought in the loyalty shop (`features::loyalty::shop`): the
/// oldest unused one raises the cashback just written by its basis points, after the
/// programme's bounds and approval threshold (the boost is the player's, bought with points).
async fn boost(conn: &mut sqlx::AnyConnection, user_id: i64, cashback_id: i64) -> Result<(), sqlx::Error> {
    let bps: Option<i64> = sqlx::query_scalar(
        "UPDATE cashback_boosts SET cashback_id = $1 WHERE id = \
         (SELECT id FROM cashback_boosts WHERE user_id = $2 AND cashback_id IS NULL ORDER BY id LIMIT 1) RETURNING bps",
    )
    .bind(cashback_id)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(bps) = bps {
        sqlx::query("UPDATE cashbacks SET amount = amount + amount * $1 / 10000 WHERE id = $2")
            .bind(bps)
            .bind(cashback_id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Active cashbacks whose claim time passed before `now` become `expired`; answers how many.
pub async fn expire(state: &AppState, now: i64) -> anyhow::Result<u64> {
    let done = sqlx::query(
        "UPDATE cashbacks SET status = 'expired' WHERE id IN (SELECT id FROM cashbacks WHERE status = 'active' \
         AND receiving_expired_at IS NOT NULL AND receiving_expired_at <= $1 ORDER BY id LIMIT $2) \
         AND status = 'active'",
    )
    .bind(now)
    .bind(EXPIRE_BATCH)
    .execute(state.db().pool())
    .await?
    .rows_affected();
    Ok(done)
}
