//! The feed's snapshot, stored: events, markets and selections (migration 0025), and the job
//! that keeps them current (`sportsbook-feed` lease, `jobs.rs`).
//!
//! Each run reads the configured feed ([`feed_of`]) and writes, one short transaction per event,
//! only what changed: an event's status, clock and score, a market's state, a selection's price
//! and result. When a market's results change — it is settled, resettled after a corrected
//! result, rolled back to open, or cancelled — its `results_version` goes up and every bet with a
//! leg on it is marked dirty (a counter, so a change landing while the settlement of that bet
//! runs is not lost); then [`super::settlement`] recomputes those bets. Prices are stored as the
//! feed gives them; a bet takes the price stored when it is placed.
//!
//! **Operator holds** ([`super::operations`], migration 0028): a market an operator suspended,
//! settled or voided by hand (`operator_state` set) keeps its state and results whatever the
//! feed says; the feed still moves its prices and its own state is remembered in `feed_state`
//! (applied again when the operator reopens the market).

use super::feed::{EventStatus, Feed, FeedError, FeedEvent, FeedMarket, odds_api::OddsApi, sandbox::Sandbox};
use super::markets::MarketState;
use super::settle::{Outcome, Ratio};
use crate::AppState;
use crate::db::now_ms;
use sqlx::AnyConnection;

/// The feed the configuration names (`None`: off).
pub fn feed_of(state: &AppState) -> Result<Option<Box<dyn Feed>>, FeedError> {
    let c = &state.config().sportsbook;
    if c.feed == "off" {
        return Ok(None);
    }
    if c.feed == "oddsapi" {
        let key = c.odds_api_key.as_ref().map(|k| k.expose().to_owned()).unwrap_or_default();
        return Ok(Some(Box::new(OddsApi::new(
            &c.odds_api_url,
            &key,
            c.odds_api_sports.clone(),
            &c.odds_api_regions,
        )?)));
    }
    Ok(Some(Box::new(Sandbox::new(c.seed))))
}

/// The job: brings the stored events up to the feed's snapshot now, then settles what changed.
/// Settlement runs even when the feed cannot be read: bets already marked (a result stored by an
/// earlier run, a claw-back waiting for the balance) do not wait for the feed to come back.
pub async fn run(state: AppState) -> anyhow::Result<()> {
    let fed = run_at(&state, now_ms()).await;
    super::settlement::settle_dirty(&state).await?;
    fed.map(|_| ())
}

/// One writer of the snapshot at a time in this process: the job and an operator's move of the
/// sandbox clock ([`super::sandbox_clock`]) take turns. (Across replicas the job's lease keeps
/// to one writer; a move on another replica meanwhile at worst fails one event's write, which
/// the next run redoes: each event is its own transaction.)
static WRITER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Stores the configured feed's snapshot at `now` (unix ms); answers how many events changed.
/// The sandbox feed is read at its own clock: `now` plus the operators' offset.
pub async fn run_at(state: &AppState, now: i64) -> anyhow::Result<usize> {
    let Some(feed) = feed_of(state)? else { return Ok(0) };
    let _writer = WRITER.lock().await;
    let feed_now = if feed.name() == "sandbox" { now + super::sandbox_clock::offset(state).await? } else { now };
    let events = feed.events(feed_now).await?;
    store(state, feed.name(), &events, now).await
}

/// Writes `events` of feed `feed`; answers how many events changed.
pub async fn store(state: &AppState, feed: &str, events: &[FeedEvent], now: i64) -> anyhow::Result<usize> {
    let mut changed = 0;
    for event in events {
        let mut tx = state.db().begin().await?;
        let stored = store_event(&mut tx, feed, event, now).await?;
        tx.commit().await?;
        if let Some(stored) = stored {
            changed += 1;
            // Open pages hear of it once it is committed (`super::live`).
            if let Some(change) = stored {
                super::live::publish(state, change).await;
            }
        }
    }
    Ok(changed)
}

#[derive(sqlx::FromRow)]
struct EventRow {
    id: i64,
    status: String,
    clock: Option<i64>,
    home_score: Option<i64>,
    away_score: Option<i64>,
    starts_at: i64,
}

#[derive(sqlx::FromRow)]
struct SelectionRow {
    market_id: i64,
    market_key: String,
    state: String,
    operator_state: Option<String>,
    feed_state: Option<String>,
    selection_id: Option<i64>,
    selection_key: Option<String>,
    odds: Option<i64>,
    result: Option<String>,
}

/// A result as stored: `won|void_factor|dead_heat`.
pub fn result_text(o: &Outcome) -> String {
    format!("{}|{}|{}", u8::from(o.won), o.void_factor, o.dead_heat)
}

pub fn parse_result(text: &str) -> Option<Outcome> {
    let mut parts = text.split('|');
    let won = match parts.next()? {
        "1" => true,
        "0" => false,
        _ => return None,
    };
    Outcome::new(won, Ratio::parse(parts.next()?)?, Ratio::parse(parts.next()?)?)
}

/// Writes one event; answers `None` when nothing changed, else what open pages should hear of
/// it (`Some(None)`: nothing they show, e.g. only a result).
async fn store_event(
    conn: &mut AnyConnection,
    feed: &str,
    event: &FeedEvent,
    now: i64,
) -> Result<Option<Option<super::live::Change>>, sqlx::Error> {
    let (home_score, away_score) = event.score.map_or((None, None), |(h, a)| (Some(i64::from(h)), Some(i64::from(a))));
    let clock = event.clock.map(i64::from);
    let existing: Option<EventRow> = sqlx::query_as(
        "SELECT id, status, clock, home_score, away_score, starts_at FROM sb_events WHERE feed = $1 AND external_id = $2",
    )
    .bind(feed)
    .bind(&event.id)
    .fetch_optional(&mut *conn)
    .await?;
    let mut changed = false;
    // What open pages saw before this run (`super::live::diff`).
    let before_event = existing.as_ref().map(|row| super::live::StoredEvent {
        status: row.status.clone(),
        clock: row.clock,
        home_score: row.home_score,
        away_score: row.away_score,
    });
    let event_id = match existing {
        Some(row) => {
            // A result-only entry (starts_at 0) never moves a known kick-off.
            let starts_at = if event.starts_at == 0 { row.starts_at } else { event.starts_at };
            if row.status != event.status.as_str()
                || row.clock != clock
                || (row.home_score, row.away_score) != (home_score, away_score)
                || row.starts_at != starts_at
            {
                sqlx::query(
                    "UPDATE sb_events SET status = $1, clock = $2, home_score = $3, away_score = $4, starts_at = $5, updated_at = $6 WHERE id = $7",
                )
                .bind(event.status.as_str())
                .bind(clock)
                .bind(home_score)
                .bind(away_score)
                .bind(starts_at)
                .bind(now)
                .bind(row.id)
                .execute(&mut *conn)
                .await?;
                changed = true;
            }
            row.id
        }
        None => {
            changed = true;
            sqlx::query_scalar(
                "INSERT INTO sb_events (feed, external_id, sport, league, home, away, starts_at, status, clock, home_score, away_score, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
            )
            .bind(feed)
            .bind(&event.id)
            .bind(event.sport.key())
            .bind(&event.league)
            .bind(&event.home)
            .bind(&event.away)
            .bind(event.starts_at)
            .bind(event.status.as_str())
            .bind(clock)
            .bind(home_score)
            .bind(away_score)
            .bind(now)
            .fetch_one(&mut *conn)
            .await?
        }
    };
    let rows: Vec<SelectionRow> = sqlx::query_as(
        "SELECT m.id AS market_id, m.market_key, m.state, m.operator_state, m.feed_state, s.id AS selection_id, s.selection_key, s.odds, s.result \
         FROM sb_markets m LEFT JOIN sb_selections s ON s.market_id = m.id WHERE m.event_id = $1",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut markets = event.markets.clone();
    // A finished event whose feed stopped listing markets (results only): settle what is stored.
    if event.status == EventStatus::Finished
        && markets.is_empty()
        && let Some((h, a)) = event.score
    {
        let mut keys: Vec<&str> = rows.iter().map(|r| r.market_key.as_str()).collect();
        // Each market once: the join's rows come in no promised order, so sort before dedup.
        keys.sort_unstable();
        keys.dedup();
        for key in keys {
            if let Some(kind) = super::markets::MarketKind::parse(key) {
                markets.push(FeedMarket {
                    kind,
                    state: MarketState::Settled,
                    prices: Vec::new(),
                    results: super::feed::results_from_score(kind, h, a),
                });
            }
        }
    }
    for market in &markets {
        changed |= store_market(conn, event_id, market, &rows, now).await?;
    }
    if !changed {
        return Ok(None);
    }
    let before_rows = rows
        .iter()
        .filter_map(|r| {
            Some(super::live::Stored {
                market_id: r.market_id,
                state: r.state.clone(),
                selection_id: r.selection_id?,
                odds: r.odds,
            })
        })
        .collect();
    let before = (before_event, before_rows);
    let after = super::live::snapshot(conn, event_id).await?;
    Ok(Some(super::live::diff(event_id, &before, &after)))
}

async fn store_market(
    conn: &mut AnyConnection,
    event_id: i64,
    market: &FeedMarket,
    rows: &[SelectionRow],
    now: i64,
) -> Result<bool, sqlx::Error> {
    let key = market.kind.key();
    let stored: Vec<&SelectionRow> = rows.iter().filter(|r| r.market_key == key).collect();
    let mut changed = false;
    let market_id = match stored.first() {
        Some(row) => row.market_id,
        None => {
            changed = true;
            sqlx::query_scalar(
                "INSERT INTO sb_markets (event_id, market_key, state, feed_state, updated_at) VALUES ($1, $2, $3, $3, $4) RETURNING id",
            )
            .bind(event_id)
            .bind(&key)
            .bind(market.state.as_str())
            .bind(now)
            .fetch_one(&mut *conn)
            .await?
        }
    };
    // The state the feed gives is remembered, held or not (`super::operations`: a reopened market
    // takes it again).
    if let Some(row) = stored.first()
        && row.feed_state.as_deref() != Some(market.state.as_str())
    {
        sqlx::query("UPDATE sb_markets SET feed_state = $1 WHERE id = $2")
            .bind(market.state.as_str())
            .bind(market_id)
            .execute(&mut *conn)
            .await?;
    }
    // An operator's hold: the feed moves prices only, never the state or the results.
    if stored.first().is_some_and(|r| r.operator_state.is_some()) {
        return store_prices(conn, market_id, market, &stored).await;
    }
    let old_state = stored.first().map_or(market.state.as_str(), |r| r.state.as_str());
    let mut results_changed = old_state != market.state.as_str()
        && (old_state == "settled"
            || old_state == "cancelled"
            || market.state == MarketState::Settled
            || market.state == MarketState::Cancelled);
    for selection in market.kind.selections() {
        let odds = market.prices.iter().find(|(k, _)| *k == selection).map(|(_, o)| o.scaled() as i64);
        let result = market.results.iter().find(|(k, _)| *k == selection).map(|(_, o)| result_text(o));
        match stored.iter().find(|r| r.selection_key.as_deref() == Some(selection.as_str())) {
            Some(row) if row.odds == odds && row.result == result => {}
            Some(row) => {
                results_changed |= row.result != result;
                changed = true;
                sqlx::query("UPDATE sb_selections SET odds = $1, result = $2 WHERE id = $3")
                    .bind(odds)
                    .bind(&result)
                    .bind(row.selection_id)
                    .execute(&mut *conn)
                    .await?;
            }
            None => {
                changed = true;
                sqlx::query(
                    "INSERT INTO sb_selections (market_id, selection_key, odds, result) VALUES ($1, $2, $3, $4)",
                )
                .bind(market_id)
                .bind(&selection)
                .bind(odds)
                .bind(&result)
                .execute(&mut *conn)
                .await?;
            }
        }
    }
    if old_state != market.state.as_str() || results_changed {
        changed = true;
        set_state(conn, market_id, market.state, results_changed, now).await?;
    }
    Ok(changed)
}

/// The prices of a market an operator holds: written (new selections too, without a result);
/// its state and results stay the operator's.
async fn store_prices(
    conn: &mut AnyConnection,
    market_id: i64,
    market: &FeedMarket,
    stored: &[&SelectionRow],
) -> Result<bool, sqlx::Error> {
    let mut changed = false;
    for selection in market.kind.selections() {
        let odds = market.prices.iter().find(|(k, _)| *k == selection).map(|(_, o)| o.scaled() as i64);
        match stored.iter().find(|r| r.selection_key.as_deref() == Some(selection.as_str())) {
            Some(row) if row.odds == odds => {}
            Some(row) => {
                changed = true;
                sqlx::query("UPDATE sb_selections SET odds = $1 WHERE id = $2")
                    .bind(odds)
                    .bind(row.selection_id)
                    .execute(&mut *conn)
                    .await?;
            }
            None => {
                changed = true;
                sqlx::query("INSERT INTO sb_selections (market_id, selection_key, odds) VALUES ($1, $2, $3)")
                    .bind(market_id)
                    .bind(&selection)
                    .bind(odds)
                    .execute(&mut *conn)
                    .await?;
            }
        }
    }
    Ok(changed)
}

/// Sets a market's state; when its results changed, counts a new results version and marks the
/// bets on it dirty.
pub async fn set_state(
    conn: &mut AnyConnection,
    market_id: i64,
    state: MarketState,
    results_changed: bool,
    now: i64,
) -> Result<(), sqlx::Error> {
    let settled = matches!(state, MarketState::Settled | MarketState::Cancelled);
    sqlx::query(
        "UPDATE sb_markets SET state = $1, updated_at = $2, \
         results_version = results_version + $3, settled_at = CASE WHEN $4 = 1 THEN $2 ELSE settled_at END WHERE id = $5",
    )
    .bind(state.as_str())
    .bind(now)
    .bind(i64::from(results_changed))
    .bind(i64::from(settled && results_changed))
    .bind(market_id)
    .execute(&mut *conn)
    .await?;
    if results_changed {
        sqlx::query(
            "UPDATE sb_bets SET dirty = dirty + 1 WHERE status <> 'cashed_out' AND id IN (SELECT bet_id FROM sb_bet_legs WHERE market_id = $1)",
        )
        .bind(market_id)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_stored_as_text_and_read_back() {
        for o in [Outcome::WON, Outcome::LOST, Outcome::VOID, Outcome::HALF_WON, Outcome::HALF_LOST] {
            assert_eq!(parse_result(&result_text(&o)), Some(o));
        }
        let dh = Outcome::new(true, Ratio::ZERO, Ratio { num: 1, den: 3 }).expect("valid");
        assert_eq!(result_text(&dh), "1|0|1/3");
        assert_eq!(parse_result("1|0|1/3"), Some(dh));
        assert_eq!(parse_result("2|0|1"), None);
        assert_eq!(parse_result("1|1/3|1"), None);
    }
}
