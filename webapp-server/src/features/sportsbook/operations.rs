//! What operators do to markets (issue 20 "Operators"): suspend and reopen, settle or void by
//! hand, resettle, and the liability of each market. Served by [`super::admin`] (the `/admin`
//! API, again under the back office) and the CLI (`admin sportsbook …`).
//!
//! **Holds** (`sb_markets.operator_state`, migration 0028). Suspending puts the market on hold
//! (`suspended`): the feed job ([`super::store`]) still moves its prices but never reopens it,
//! and never writes its results. Reopening clears the hold and the state the feed last gave
//! (`feed_state`) applies again — active or suspended; when the feed has meanwhile settled or
//! cancelled the market it stays suspended and the next feed run writes that result. Settling
//! or voiding by hand holds the market `settled` / `cancelled`: later feed results never
//! overwrite it; only an operator's resettle changes it again.
//!
//! **Rules** (each refusal is a 409 with the market's state in `error_data.state`):
//! - suspend: an active or suspended market not already held;
//! - reopen: a market held suspended;
//! - settle: a suspended market only. An active market still takes bets, so settling it by hand
//!   is refused: the operator suspends it first, so no bet lands between the result and the
//!   settlement. A settled or cancelled market is resettled instead;
//! - void: a suspended, or settled market (voiding after a result is a resettlement to void);
//! - resettle: a settled or cancelled market, with new results.
//!
//! Results are given per selection key (`home`, `over`, …): every selection of the market once,
//! each `won`, `lost`, `void`, `half_won` or `half_lost`, a won one optionally with a dead-heat
//! factor (`1/2`, `1/3`, …). Bad input is refused field by field (`results.{i}.result`, …) and
//! nothing is written.
//!
//! **Money**: a settle, void or resettle counts a new results version and marks every bet on the
//! market dirty in the change's transaction ([`super::store::set_state`]); after it commits, those
//! bets are recomputed at once through [`super::settlement::recompute`] — the one path of every
//! payout, versioned and idempotent, a ledger transaction per difference. A bet whose claw-back
//! waits for the player's balance stays dirty and the settlement job retries it.
//!
//! **Audit**: every change writes an `operator_audit` row (`sportsbook.market.{action}`, target
//! the market, the reason, the state before and after) in its own transaction. Under the back
//! office the gate writes its generic `admin.post …` row as well.
//!
//! **Live odds**: a hand change is published to open pages ([`super::live`]) after it commits,
//! as the feed's changes are.
//!
//! **Liability** ([`liability_of`]): per open bet (status open), in its currency. For each
//! selection: the stakes of the bets with a leg on it and what the house pays if it wins — the
//! sum of those bets' potential returns (a free bet's less its stake). An accumulator or system
//! bet counts its whole potential return against each of its legs' selections: an upper bound
//! (it pays that only if its other legs win too), which is what a trader limits against. The
//! market's stakes are those of every open bet with a leg on it (a bet has at most one leg per
//! market, legs being on different events), and the house's net if a selection wins is the
//! market's stakes less what it pays then.

use super::live;
use super::markets::MarketState;
use super::settle::{Outcome, Ratio};
use super::store::{parse_result, result_text, set_state};
use crate::AppState;
use crate::api::ApiError;
use crate::db::now_ms;
use crate::features::backoffice::{conflict, trail};
use axum::http::StatusCode;
use croupier_shared::FieldCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::AnyConnection;
use std::collections::BTreeMap;

pub use crate::features::backoffice::trail::Actor;

/// One selection's result as an operator gives it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ResultInput {
    /// The selection's key (`home`, `draw`, `over`, …).
    pub selection: String,
    /// won, lost, void, half_won or half_lost.
    pub result: String,
    /// A won selection's dead-heat factor (`1/2`): the part paid at full odds.
    #[serde(default)]
    pub dead_heat: Option<String>,
}

/// What an operator does to a market.
#[derive(Debug, Clone)]
pub enum Action {
    Suspend,
    Reopen,
    Settle(Vec<ResultInput>),
    Void,
    Resettle(Vec<ResultInput>),
}

impl Action {
    pub fn name(&self) -> &'static str {
        match self {
            Action::Suspend => "suspend",
            Action::Reopen => "reopen",
            Action::Settle(_) => "settle",
            Action::Void => "void",
            Action::Resettle(_) => "resettle",
        }
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct MarketRow {
    id: i64,
    event_id: i64,
    state: String,
    operator_state: Option<String>,
    feed_state: Option<String>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct SelectionRow {
    id: i64,
    selection_key: String,
    result: Option<String>,
}

fn not_found() -> ApiError {
    ApiError::field("market_id", FieldCode::NotFound).with_status(StatusCode::NOT_FOUND)
}

/// An outcome from its name and dead-heat factor; the error names the bad part.
fn outcome_of(input: &ResultInput) -> Result<Outcome, &'static str> {
    let base = match input.result.as_str() {
        "won" => Outcome::WON,
        "lost" => Outcome::LOST,
        "void" => Outcome::VOID,
        "half_won" => Outcome::HALF_WON,
        "half_lost" => Outcome::HALF_LOST,
        _ => return Err("result"),
    };
    match input.dead_heat.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        None => Ok(base),
        Some(_) if base != Outcome::WON => Err("dead_heat"),
        Some(text) => {
            Ratio::parse(text).filter(|r| r.num > 0).and_then(|r| Outcome::new(true, Ratio::ZERO, r)).ok_or("dead_heat")
        }
    }
}

/// Checks `results` against the market's selections: every selection once, each result valid.
/// Answers (selection id, stored result text) in the market's order.
fn check_results(results: &[ResultInput], selections: &[SelectionRow]) -> Result<Vec<(i64, String)>, ApiError> {
    let mut errors = crate::api::FieldErrors::default();
    if results.len() > 200 {
        return Err(ApiError::field_with("results", FieldCode::MaxLength, vec![("max", "200".into())]));
    }
    let mut given: BTreeMap<&str, Outcome> = BTreeMap::new();
    for (i, r) in results.iter().enumerate() {
        if !selections.iter().any(|s| s.selection_key == r.selection) {
            errors.add(&format!("results.{i}.selection"), FieldCode::NotFound);
            continue;
        }
        if given.contains_key(r.selection.as_str()) {
            errors.add(&format!("results.{i}.selection"), FieldCode::Duplicate);
            continue;
        }
        match outcome_of(r) {
            Ok(o) => {
                given.insert(&r.selection, o);
            }
            Err("result") => errors.add(&format!("results.{i}.result"), FieldCode::Unsupported),
            Err(part) => errors.add(&format!("results.{i}.{part}"), FieldCode::Invalid),
        }
    }
    let missing: Vec<&str> = selections
        .iter()
        .map(|s| s.selection_key.as_str())
        .filter(|k| !given.contains_key(k) && !results.iter().any(|r| r.selection == *k))
        .collect();
    if !missing.is_empty() {
        errors.add_with("results", FieldCode::Required, vec![("missing", missing.join(","))]);
    }
    errors.into_result()?;
    Ok(selections.iter().filter_map(|s| Some((s.id, result_text(given.get(s.selection_key.as_str())?)))).collect())
}

async fn market_row(conn: &mut AnyConnection, market_id: i64) -> Result<Option<MarketRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, event_id, state, operator_state, feed_state FROM sb_markets WHERE id = $1")
        .bind(market_id)
        .fetch_optional(&mut *conn)
        .await
}

async fn selection_rows(conn: &mut AnyConnection, market_id: i64) -> Result<Vec<SelectionRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, selection_key, result FROM sb_selections WHERE market_id = $1 ORDER BY id")
        .bind(market_id)
        .fetch_all(&mut *conn)
        .await
}

fn state_json(m: &MarketRow, selections: &[SelectionRow]) -> Value {
    let results: BTreeMap<&str, &'static str> = selections
        .iter()
        .map(|s| (s.selection_key.as_str(), super::bets::result_name(s.result.as_deref().and_then(parse_result))))
        .collect();
    json!({ "state": m.state, "operator_state": m.operator_state, "results": results })
}

/// Does `action` to market `market_id` for `actor` with `reason`: one transaction with its audit
/// row, then the live frame and the recomputation of the bets on it. Answers the market as
/// [`market`] shows it, with `bets_settled` / `bets_pending` after a result change.
pub async fn act(
    state: &AppState,
    actor: &Actor,
    market_id: i64,
    action: Action,
    reason: Option<&str>,
) -> Result<Value, ApiError> {
    let reason = crate::features::backoffice::reason(reason)?;
    let now = now_ms();
    let mut tx = state.db().begin().await?;
    let Some(before) = market_row(&mut tx, market_id).await? else { return Err(not_found()) };
    let selections = selection_rows(&mut tx, market_id).await?;
    let before_json = state_json(&before, &selections);
    let live_before = live::snapshot(&mut tx, before.event_id).await?;
    let held = before.operator_state.as_deref();
    let current = before.state.as_str();
    let results_changed = match &action {
        Action::Suspend => {
            if held.is_some() || !matches!(current, "active" | "suspended") {
                return Err(conflict(held.unwrap_or(current)));
            }
            hold(&mut tx, &before, "suspended", actor, &reason, now).await?;
            false
        }
        Action::Reopen => {
            if held != Some("suspended") {
                return Err(conflict(held.unwrap_or(current)));
            }
            // The feed's own state applies again; a result it gave meanwhile comes with its next run.
            let next = match before.feed_state.as_deref() {
                Some("active") => "active",
                _ => "suspended",
            };
            let done = sqlx::query(
                "UPDATE sb_markets SET state = $1, operator_state = NULL, held_by = NULL, held_reason = NULL, held_at = NULL, updated_at = $2 \
                 WHERE id = $3 AND operator_state = 'suspended'",
            )
            .bind(next)
            .bind(now)
            .bind(market_id)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Err(conflict(current));
            }
            false
        }
        Action::Settle(results) | Action::Resettle(results) => {
            let resettle = matches!(action, Action::Resettle(_));
            let allowed = if resettle { matches!(current, "settled" | "cancelled") } else { current == "suspended" };
            if !allowed {
                return Err(conflict(current));
            }
            let texts = check_results(results, &selections)?;
            for (id, text) in &texts {
                sqlx::query("UPDATE sb_selections SET result = $1 WHERE id = $2")
                    .bind(text)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            hold(&mut tx, &before, "settled", actor, &reason, now).await?;
            set_state(&mut tx, market_id, MarketState::Settled, true, now).await?;
            true
        }
        Action::Void => {
            if !matches!(current, "suspended" | "settled") {
                return Err(conflict(current));
            }
            sqlx::query("UPDATE sb_selections SET result = NULL WHERE market_id = $1")
                .bind(market_id)
                .execute(&mut *tx)
                .await?;
            hold(&mut tx, &before, "cancelled", actor, &reason, now).await?;
            set_state(&mut tx, market_id, MarketState::Cancelled, true, now).await?;
            true
        }
    };
    let after = market_row(&mut tx, market_id).await?.ok_or_else(not_found)?;
    let after_selections = selection_rows(&mut tx, market_id).await?;
    let action_name = format!("sportsbook.market.{}", action.name());
    let target = market_id.to_string();
    let row = trail::Row {
        at: now,
        operator_id: actor.operator_id,
        operator_name: Some(&actor.name),
        role: &actor.role,
        ip: actor.ip,
        action: &action_name,
        target_type: Some("sb_market"),
        target_id: Some(&target),
        user_id: None,
        reason: Some(&reason),
        before: Some(before_json),
        after: Some(state_json(&after, &after_selections)),
        outcome: "ok",
    };
    trail::write(&mut *tx, &row).await?;
    let live_after = live::snapshot(&mut tx, before.event_id).await?;
    tx.commit().await?;
    if let Some(change) = live::diff(before.event_id, &live_before, &live_after) {
        live::publish(state, change).await;
    }
    let mut answer = market(state, market_id).await?;
    if results_changed {
        let (settled, pending) = recompute_market(state, market_id).await?;
        answer = market(state, market_id).await?;
        answer["bets_settled"] = json!(settled);
        answer["bets_pending"] = json!(pending);
    }
    Ok(answer)
}

/// Puts the market on hold `kind` (suspended, settled or cancelled) by `actor`.
async fn hold(
    conn: &mut AnyConnection,
    market: &MarketRow,
    kind: &str,
    actor: &Actor,
    reason: &str,
    now: i64,
) -> Result<(), ApiError> {
    let done = sqlx::query(
        "UPDATE sb_markets SET state = CASE WHEN $1 = 'suspended' THEN 'suspended' ELSE state END, operator_state = $1, \
         held_by = $2, held_reason = $3, held_at = $4, updated_at = $4 WHERE id = $5 AND state = $6",
    )
    .bind(kind)
    .bind(&actor.name)
    .bind(reason)
    .bind(now)
    .bind(market.id)
    .bind(&market.state)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() != 1 {
        // Another change got there first.
        return Err(conflict(&market.state));
    }
    Ok(())
}

/// Recomputes every bet on the market still marked dirty; answers (brought up to date, left
/// for the settlement job).
async fn recompute_market(state: &AppState, market_id: i64) -> Result<(i64, i64), ApiError> {
    let bets: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT b.id, b.user_id FROM sb_bets b WHERE b.dirty > 0 AND b.id IN (SELECT bet_id FROM sb_bet_legs WHERE market_id = $1) ORDER BY b.id",
    )
    .bind(market_id)
    .fetch_all(state.db().pool())
    .await?;
    let (mut settled, mut pending) = (0, 0);
    for (bet_id, user_id) in bets {
        match super::settlement::recompute(state, user_id, bet_id).await {
            Ok(true) => settled += 1,
            Ok(false) => pending += 1,
            Err(e) => {
                tracing::warn!(bet_id, error = ?e, "a bet of a market settled by hand waits for the settlement job");
                pending += 1;
            }
        }
    }
    Ok((settled, pending))
}

// ---------------------------------------------------------------------------------------------
// Listing and liability.

/// The listing's filters.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MarketFilter {
    pub sport: Option<String>,
    pub event_id: Option<i64>,
    /// active, suspended, settled, cancelled, open (active or suspended) or all. Default: open
    /// markets and every held one.
    pub state: Option<String>,
    /// true: only held markets; false: only markets the feed drives.
    pub held: Option<bool>,
    pub offset: Option<i64>,
    pub count: Option<i64>,
}

/// The most markets one listing answers.
pub const MAX_COUNT: i64 = 1000;

impl MarketFilter {
    pub fn check(&self) -> Result<(), ApiError> {
        let mut errors = crate::api::FieldErrors::default();
        if self.sport.as_deref().is_some_and(|s| super::feed::Sport::parse(s).is_none()) {
            errors.add("sport", FieldCode::Unsupported);
        }
        if self.event_id.is_some_and(|id| id < 1) {
            errors.add("event_id", FieldCode::Invalid);
        }
        if !matches!(
            self.state.as_deref(),
            None | Some("active" | "suspended" | "settled" | "cancelled" | "open" | "all")
        ) {
            errors.add("state", FieldCode::Unsupported);
        }
        if self.offset.is_some_and(|o| o < 0) {
            errors.add_with("offset", FieldCode::MinValue, vec![("min", "0".into())]);
        }
        match self.count {
            Some(c) if c < 1 => errors.add_with("count", FieldCode::MinValue, vec![("min", "1".into())]),
            Some(c) if c > MAX_COUNT => {
                errors.add_with("count", FieldCode::MaxValue, vec![("max", MAX_COUNT.to_string())])
            }
            _ => {}
        }
        errors.into_result()
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct ListedRow {
    id: i64,
    event_id: i64,
    market_key: String,
    state: String,
    operator_state: Option<String>,
    feed_state: Option<String>,
    held_by: Option<String>,
    held_reason: Option<String>,
    held_at: Option<i64>,
    results_version: i64,
    sport: String,
    league: String,
    home: String,
    away: String,
    event_status: String,
    starts_at: i64,
}

const LISTED: &str = "SELECT m.id, m.event_id, m.market_key, m.state, m.operator_state, m.feed_state, m.held_by, m.held_reason, m.held_at, \
     m.results_version, e.sport, e.league, e.home, e.away, e.status AS event_status, e.starts_at \
     FROM sb_markets m JOIN sb_events e ON e.id = m.event_id";

/// One selection's open stakes and payout in one currency.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct SelectionLiability {
    pub bets: i64,
    pub stakes: i64,
    /// What the house pays if the selection wins.
    pub payout: i64,
    /// The market's stakes less `payout`: the house's result if the selection wins.
    pub net: i64,
}

/// A market's liability in one currency.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct CurrencyLiability {
    pub currency: String,
    pub bets: i64,
    pub stakes: i64,
    /// The largest payout of one of its selections: what the house may have to pay.
    pub max_payout: i64,
    /// Per selection id.
    pub selections: BTreeMap<i64, SelectionLiability>,
}

/// The liability of markets `ids` (see the module docs), per market, per currency.
pub async fn liability_of(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<BTreeMap<i64, Vec<CurrencyLiability>>, sqlx::Error> {
    let mut out: BTreeMap<i64, BTreeMap<String, CurrencyLiability>> = BTreeMap::new();
    for chunk in ids.chunks(500) {
        if chunk.is_empty() {
            continue;
        }
        let list = chunk.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        let rows: Vec<(i64, i64, String, i64, i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT l.market_id, l.selection_id, b.currency, CAST(COUNT(*) AS BIGINT), CAST(SUM(b.stake) AS BIGINT), \
             CAST(SUM(CASE WHEN b.funds = 'betting_bonus' THEN b.potential - b.stake ELSE b.potential END) AS BIGINT) \
             FROM sb_bet_legs l JOIN sb_bets b ON b.id = l.bet_id WHERE b.status = 'open' AND l.market_id IN ({list}) \
             GROUP BY l.market_id, l.selection_id, b.currency"
        )))
        .fetch_all(&mut *conn)
        .await?;
        for (market, selection, currency, bets, stakes, payout) in rows {
            let entry = out
                .entry(market)
                .or_default()
                .entry(currency.clone())
                .or_insert_with(|| CurrencyLiability { currency, ..CurrencyLiability::default() });
            // A bet has one leg per market: the market's bets and stakes are the sums over selections.
            entry.bets += bets;
            entry.stakes += stakes;
            entry.selections.insert(selection, SelectionLiability { bets, stakes, payout: payout.max(0), net: 0 });
        }
    }
    Ok(out
        .into_iter()
        .map(|(market, by_currency)| {
            let list = by_currency
                .into_values()
                .map(|mut c| {
                    c.max_payout = c.selections.values().map(|s| s.payout).max().unwrap_or(0);
                    let stakes = c.stakes;
                    for s in c.selections.values_mut() {
                        s.net = stakes - s.payout;
                    }
                    c
                })
                .collect();
            (market, list)
        })
        .collect())
}

fn listed_json(row: &ListedRow, liability: &[CurrencyLiability]) -> Value {
    json!({
        "id": row.id,
        "event_id": row.event_id,
        "event": format!("{} v {}", row.home, row.away),
        "sport": row.sport,
        "league": row.league,
        "event_status": row.event_status,
        "starts_at": row.starts_at / 1000,
        "market": row.market_key,
        "state": row.state,
        "held": row.operator_state.is_some(),
        "operator_state": row.operator_state,
        "feed_state": row.feed_state,
        "held_by": row.held_by,
        "held_reason": row.held_reason,
        "held_at": row.held_at.map(|t| t / 1000),
        "results_version": row.results_version,
        // The largest payout of a selection in any currency, in minor units (the sort key).
        "liability": liability.iter().map(|c| c.max_payout).max().unwrap_or(0),
        "liabilities": liability.iter().map(|c| json!({
            "currency": c.currency, "bets": c.bets, "stakes": c.stakes, "max_payout": c.max_payout,
        })).collect::<Vec<_>>(),
    })
}

/// Markets matching `filter` with their liability, largest first; `{items, total}`.
pub async fn markets(state: &AppState, filter: &MarketFilter) -> Result<Value, ApiError> {
    filter.check()?;
    let mut sql = format!("{LISTED} WHERE 1 = 1");
    let mut args: Vec<String> = Vec::new();
    if let Some(sport) = &filter.sport {
        args.push(sport.clone());
        sql.push_str(&format!(" AND e.sport = ${}", args.len()));
    }
    if let Some(event) = filter.event_id {
        sql.push_str(&format!(" AND m.event_id = {event}"));
    }
    match filter.state.as_deref() {
        None => sql.push_str(" AND (m.state IN ('active', 'suspended') OR m.operator_state IS NOT NULL)"),
        Some("all") => {}
        Some("open") => sql.push_str(" AND m.state IN ('active', 'suspended')"),
        Some(s) => {
            args.push(s.to_owned());
            sql.push_str(&format!(" AND m.state = ${}", args.len()));
        }
    }
    match filter.held {
        Some(true) => sql.push_str(" AND m.operator_state IS NOT NULL"),
        Some(false) => sql.push_str(" AND m.operator_state IS NULL"),
        None => {}
    }
    let mut conn = state.db().pool().acquire().await?;
    let mut query = sqlx::query_as::<_, ListedRow>(sqlx::AssertSqlSafe(sql));
    for a in &args {
        query = query.bind(a);
    }
    let rows = query.fetch_all(&mut *conn).await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let liability = liability_of(&mut conn, &ids).await?;
    let empty = Vec::new();
    let mut items: Vec<(i64, Value)> = rows
        .iter()
        .map(|r| {
            let l = liability.get(&r.id).unwrap_or(&empty);
            (l.iter().map(|c| c.max_payout).max().unwrap_or(0), listed_json(r, l))
        })
        .collect();
    items.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1["id"].as_i64().cmp(&b.1["id"].as_i64())));
    let total = items.len();
    let offset = usize::try_from(filter.offset.unwrap_or(0)).unwrap_or(0);
    let count = usize::try_from(filter.count.unwrap_or(200)).unwrap_or(200);
    let page: Vec<Value> = items.into_iter().skip(offset).take(count).map(|(_, v)| v).collect();
    Ok(json!({ "items": page, "total": total }))
}

/// One market: the listing's fields, its selections with price, result and liability per
/// currency, and its held state.
pub async fn market(state: &AppState, market_id: i64) -> Result<Value, ApiError> {
    let mut conn = state.db().pool().acquire().await?;
    let row: Option<ListedRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!("{LISTED} WHERE m.id = $1")))
        .bind(market_id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else { return Err(not_found()) };
    let selections: Vec<(i64, String, Option<i64>, Option<String>)> =
        sqlx::query_as("SELECT id, selection_key, odds, result FROM sb_selections WHERE market_id = $1 ORDER BY id")
            .bind(market_id)
            .fetch_all(&mut *conn)
            .await?;
    let liability = liability_of(&mut conn, &[market_id]).await?.remove(&market_id).unwrap_or_default();
    let mut out = listed_json(&row, &liability);
    out["selections"] = selections
        .iter()
        .map(|(id, key, odds, result)| {
            let outcome = result.as_deref().and_then(parse_result);
            let per_currency: Vec<Value> = liability
                .iter()
                .map(|c| {
                    let s = c.selections.get(id).cloned().unwrap_or(SelectionLiability {
                        net: c.stakes,
                        ..SelectionLiability::default()
                    });
                    json!({ "currency": c.currency, "bets": s.bets, "stakes": s.stakes, "payout": s.payout, "net": s.net })
                })
                .collect();
            json!({
                "id": id,
                "key": key,
                "odds": odds.and_then(|o| super::odds::Odds::from_scaled(u64::try_from(o).ok()?).ok()).map(|o| o.to_string()),
                "result": super::bets::result_name(outcome),
                "dead_heat": outcome.filter(|o| o.won && o.dead_heat != Ratio::ONE).map(|o| o.dead_heat.to_string()),
                "liability": per_currency,
            })
        })
        .collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(id: i64, key: &str) -> SelectionRow {
        SelectionRow { id, selection_key: key.into(), result: None }
    }

    fn r(selection: &str, result: &str, dead_heat: Option<&str>) -> ResultInput {
        ResultInput { selection: selection.into(), result: result.into(), dead_heat: dead_heat.map(Into::into) }
    }

    #[test]
    fn results_cover_every_selection_once_with_valid_outcomes() {
        let market = [sel(1, "home"), sel(2, "draw"), sel(3, "away")];
        let ok =
            check_results(&[r("away", "lost", None), r("home", "won", Some("1/2")), r("draw", "void", None)], &market)
                .expect("valid");
        assert_eq!(ok, vec![(1, "1|0|1/2".to_owned()), (2, "0|1|1".to_owned()), (3, "0|0|1".to_owned())]);
        let missing = check_results(&[r("home", "won", None)], &market).unwrap_err();
        assert!(format!("{missing:?}").contains("results"), "{missing:?}");
        for bad in [
            vec![r("home", "won", None), r("home", "lost", None), r("draw", "lost", None), r("away", "lost", None)],
            vec![r("home", "maybe", None), r("draw", "lost", None), r("away", "lost", None)],
            vec![r("home", "lost", Some("1/2")), r("draw", "lost", None), r("away", "lost", None)],
            vec![r("home", "won", Some("0")), r("draw", "lost", None), r("away", "lost", None)],
            vec![r("home", "won", Some("3/2")), r("draw", "lost", None), r("away", "lost", None)],
            vec![r("nobody", "won", None), r("home", "lost", None), r("draw", "lost", None), r("away", "lost", None)],
        ] {
            assert!(check_results(&bad, &market).is_err(), "{bad:?}");
        }
    }
}
