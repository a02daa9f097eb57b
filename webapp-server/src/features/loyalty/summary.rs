//! The weekly club summary (issue 18): for each player who opted in with the bot's `/summary on`
//! (`notification_preferences.weekly_summary`), once per calendar week (Unix time / 7 days), a
//! bot message with their spendable points, level and progress, and the cashback they were given
//! that week. The job runs with the others (one replica at a time); the outbox key
//! `summary:{user}:{week}` and the row's `summary_week` make a week's summary go once.

use crate::AppState;
use crate::db::now_ms;
use crate::features::notify::{self, Notice};
use croupier_shared::Currency;

pub const WEEK_MS: i64 = 7 * 24 * 3_600_000;
/// Players summarised per run.
const BATCH: i64 = 500;

pub async fn run(state: AppState) -> anyhow::Result<()> {
    send_due(&state, now_ms()).await.map(|_| ())
}

/// Queues this week's summary for every opted-in player who has not had it; answers how many.
pub async fn send_due(state: &AppState, now: i64) -> anyhow::Result<usize> {
    let week = now / WEEK_MS;
    let due: Vec<i64> = sqlx::query_scalar(
        "SELECT user_id FROM notification_preferences WHERE weekly_summary = 1 AND summary_week < $1 ORDER BY user_id LIMIT $2",
    )
    .bind(week)
    .bind(BATCH)
    .fetch_all(state.db().pool())
    .await?;
    let levels = {
        let mut conn = state.db().pool().acquire().await?;
        super::levels(&mut conn).await?
    };
    let mut sent = 0;
    for user_id in due {
        let mut tx = state.db().begin().await?;
        let account: Option<(i64, i64, i64)> =
            sqlx::query_as("SELECT points, lifetime, level FROM loyalty_accounts WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(&mut *tx)
                .await?;
        // No account yet: nothing earned, at the level everyone starts at.
        let (points, lifetime, level) = account.unwrap_or_else(|| (0, 0, super::level_of(&levels, 0).0));
        let current = levels.iter().find(|l| l.level == level);
        let next = levels.iter().find(|l| l.level > level).map(|l| l.min_points);
        let currency: Option<String> = sqlx::query_scalar("SELECT currency FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?
            .flatten();
        let cashback: Option<(i64, String)> = match currency.as_deref() {
            Some(code) => {
                let total: i64 = sqlx::query_scalar(
                    "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM cashbacks WHERE user_id = $1 AND currency = $2 \
                     AND created_at >= $3 AND status IN ('pending', 'active', 'paid_out')",
                )
                .bind(user_id)
                .bind(code)
                .bind(now - WEEK_MS)
                .fetch_one(&mut *tx)
                .await?;
                (total > 0).then(|| (total, code.to_owned()))
            }
            None => None,
        };
        let notice = Notice::WeeklySummary {
            points: super::whole(points),
            lifetime_points: super::whole(lifetime),
            level,
            level_title_en: current.map_or_else(String::new, |l| l.title_en.clone()),
            level_title_fr: current.map_or_else(String::new, |l| l.title_fr.clone()),
            next_level_points: next,
            cashback: cashback.as_ref().and_then(|(a, c)| Currency::parse(c).map(|c| notify::amount(*a, c))),
            currency: cashback.map(|(_, c)| c),
        };
        notify::enqueue(&mut tx, user_id, &format!("summary:{user_id}:{week}"), &notice).await?;
        sqlx::query("UPDATE notification_preferences SET summary_week = $1 WHERE user_id = $2")
            .bind(week)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        sent += 1;
    }
    Ok(sent)
}
