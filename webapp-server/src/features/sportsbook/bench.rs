//! Load-test fixtures for `make bench` (issue 20's bets-per-second row): players signed in and
//! funded through the ledger, and the prices open for betting now.

use crate::db::{Db, now_ms};
use croupier_shared::Currency;

/// `count` players of `currency`, each with `funds` on the main balance (a deposit posting) and a
/// session: answers their `Cookie` header values.
pub async fn bettors(db: &Db, count: usize, currency: Currency, funds: i64) -> anyhow::Result<Vec<String>> {
    let now = now_ms();
    let run = uuid::Uuid::new_v4().simple().to_string();
    let mut cookies = Vec::with_capacity(count);
    for i in 0..count {
        let mut tx = db.begin().await?;
        let key = format!("bench-bettor-funds:{run}:{i}");
        let user = crate::features::games::bench::funded_player(&mut tx, currency, funds, &key).await?;
        let token = format!("bench-bettor-{run}-{i}");
        sqlx::query("INSERT INTO sessions (id, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)")
            .bind(crate::session::hash(&token))
            .bind(user)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        cookies.push(format!("{}={token}", crate::session::COOKIE));
    }
    Ok(cookies)
}

/// The selections open for betting before kick-off (their prices move only every 15 minutes):
/// `(selection id, decimal odds)`, at most `limit`.
pub async fn open_prices(db: &Db, limit: i64) -> anyhow::Result<Vec<(i64, String)>> {
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT s.id, s.odds FROM sb_selections s JOIN sb_markets m ON m.id = s.market_id JOIN sb_events e ON e.id = m.event_id \
         WHERE e.status = 'scheduled' AND m.state = 'active' AND s.odds IS NOT NULL AND e.starts_at > $1 \
         ORDER BY e.starts_at, s.id LIMIT $2",
    )
    .bind(now_ms() + 20 * 60_000)
    .bind(limit)
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, odds)| {
            let odds = super::odds::Odds::from_scaled(u64::try_from(odds).ok()?).ok()?;
            Some((id, odds.to_string()))
        })
        .collect())
}
