//! The operators' side of jackpots: create, edit, pause, resume and close pools, and report.

use super::{draw, fund_seed, trigger_hash};
use crate::AppState;
use crate::api::{ApiError, FieldErrors, Operator};
use crate::db::now_ms;
use crate::features::backoffice::{Staff, trail};
use crate::features::bonuses::admin::{answer, body};
use crate::features::loyalty::admin::image_check;
use crate::features::tournaments::admin::check_text;
use crate::features::tournaments::games::{self, GameSelector};
use crate::ledger::{self, Account, Entry, HouseAccount, LedgerError};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use croupier_shared::{Currency, FieldCode};
use serde::{Deserialize, Serialize};
use serde_json::json;

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/admin/jackpots", get(list_route).post(create_route))
        .route("/admin/jackpots/{id}", axum::routing::put(update_route))
        .route("/admin/jackpots/{id}/report", get(report_route))
        .route("/admin/jackpots/{id}/{action}", post(action_route))
}

/// A pool as an operator writes it (amounts in minor units of `currency`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PoolInput {
    pub title_en: String,
    pub title_fr: String,
    #[serde(default)]
    pub description_en: String,
    #[serde(default)]
    pub description_fr: String,
    #[serde(default)]
    pub image: Option<String>,
    pub currency: String,
    /// What the house puts in when a cycle starts.
    pub seed: i64,
    /// Share of each real-money stake, in basis points (1 to 2000: 0.01 % to 20 %).
    pub contribution_bps: i64,
    /// must_drop or hidden.
    pub trigger: String,
    /// must_drop: the amount it drops at; hidden: the upper bound of the secret trigger.
    pub must_drop_before: i64,
    #[serde(default)]
    pub games: GameSelector,
    /// Per-game contributions that differ from `contribution_bps`: sysname → basis points
    /// (0 to 2000; 0: the game pays nothing in). Each game must be one the pool covers.
    #[serde(default)]
    pub game_contributions: std::collections::BTreeMap<String, i64>,
}

impl PoolInput {
    fn check(&self, state: &AppState) -> Result<Currency, ApiError> {
        let mut errors = FieldErrors::default();
        check_text(&mut errors, "title_en", &self.title_en, 1, 200);
        check_text(&mut errors, "title_fr", &self.title_fr, 1, 200);
        check_text(&mut errors, "description_en", &self.description_en, 0, 5_000);
        check_text(&mut errors, "description_fr", &self.description_fr, 0, 5_000);
        image_check(&mut errors, self.image.as_deref());
        let currency = Currency::parse(&self.currency).filter(|c| state.config().currencies.contains(c));
        if currency.is_none() {
            errors.add("currency", FieldCode::Unsupported);
        }
        if self.seed < 0 {
            errors.add_with("seed", FieldCode::MinValue, vec![("min", "0".into())]);
        }
        if !(1..=2_000).contains(&self.contribution_bps) {
            errors.add_with("contribution_bps", FieldCode::MaxValue, vec![("min", "1".into()), ("max", "2000".into())]);
        }
        if self.game_contributions.len() > 500 || self.game_contributions.values().any(|bps| !(0..=2_000).contains(bps))
        {
            errors.add_with("game_contributions", FieldCode::MaxValue, vec![("max", "2000".into())]);
        }
        if !matches!(self.trigger.as_str(), "must_drop" | "hidden") {
            errors.add("trigger", FieldCode::Unsupported);
        }
        if self.must_drop_before <= self.seed || self.must_drop_before > 1_000_000_000_000 {
            errors.add_with("must_drop_before", FieldCode::MinValue, vec![("min", (self.seed + 1).to_string())]);
        }
        errors.into_result()?;
        currency.ok_or_else(|| ApiError::field("currency", FieldCode::Unsupported))
    }
}

/// Creates a pool: its first cycle starts at once, funded with the seed. Answers its id. `by`'s
/// audit row (`jackpots.create`, the pool as sent) is written with it.
pub async fn create(state: &AppState, by: &trail::Actor, input: &PoolInput) -> Result<i64, ApiError> {
    let currency = input.check(state)?;
    let mut tx = state.db().begin().await?;
    let covered = games::resolve(&mut tx, &input.games).await?;
    let (trigger, salt, hash) = if input.trigger == "hidden" {
        draw(input.seed, input.must_drop_before)
    } else {
        let salt = hex::encode(rand::random::<[u8; 16]>());
        (input.must_drop_before, salt.clone(), trigger_hash(input.must_drop_before, &salt))
    };
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO jackpot_pools (title_en, title_fr, description_en, description_fr, image, currency, seed, contribution_bps, \
         trigger_kind, must_drop_before, games, status, cycle, amount, trigger_amount, salt, trigger_hash, cycle_started_at, updated_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'active', 1, $7, $12, $13, $14, $15, $15, $15) RETURNING id",
    )
    .bind(input.title_en.trim())
    .bind(input.title_fr.trim())
    .bind(input.description_en.trim())
    .bind(input.description_fr.trim())
    .bind(&input.image)
    .bind(currency.code())
    .bind(input.seed)
    .bind(input.contribution_bps)
    .bind(&input.trigger)
    .bind(input.must_drop_before)
    .bind(serde_json::to_string(&input.games).unwrap_or_default())
    .bind(trigger)
    .bind(salt)
    .bind(hash)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    fund_seed(&mut tx, id, 1, currency, input.seed, None).await?;
    games::cover(&mut tx, "jackpot", id, &covered, i64::MAX).await?;
    weigh(&mut tx, id, &covered, &input.game_contributions, i64::MAX).await?;
    audit(&mut tx, by, "jackpots.create", id, None, serde_json::to_value(input).ok()).await?;
    tx.commit().await?;
    Ok(id)
}

/// Edits a pool: texts, image, contribution and games now; seed, trigger and cap from its next
/// cycle (the current cycle's trigger was published and stays). The currency cannot change.
/// `by`'s audit row (`jackpots.update`) is written with the change.
pub async fn update(state: &AppState, by: &trail::Actor, id: i64, input: &PoolInput) -> Result<(), ApiError> {
    let currency = input.check(state)?;
    let mut tx = state.db().begin().await?;
    let current: Option<(String, String)> = sqlx::query_as("SELECT currency, status FROM jackpot_pools WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    let Some((was, status)) = current else { return Err(not_found()) };
    if was != currency.code() {
        return Err(ApiError::field("currency", FieldCode::Invalid));
    }
    if status == "closed" {
        return Err(ApiError::field("status", FieldCode::Invalid));
    }
    let covered = games::resolve(&mut tx, &input.games).await?;
    sqlx::query(
        "UPDATE jackpot_pools SET title_en = $1, title_fr = $2, description_en = $3, description_fr = $4, image = $5, seed = $6, \
         contribution_bps = $7, trigger_kind = $8, must_drop_before = $9, games = $10, updated_at = $11 WHERE id = $12",
    )
    .bind(input.title_en.trim())
    .bind(input.title_fr.trim())
    .bind(input.description_en.trim())
    .bind(input.description_fr.trim())
    .bind(&input.image)
    .bind(input.seed)
    .bind(input.contribution_bps)
    .bind(&input.trigger)
    .bind(input.must_drop_before)
    .bind(serde_json::to_string(&input.games).unwrap_or_default())
    .bind(now_ms())
    .bind(id)
    .execute(&mut *tx)
    .await?;
    let ends_at = if status == "active" { i64::MAX } else { 0 };
    games::cover(&mut tx, "jackpot", id, &covered, ends_at).await?;
    weigh(&mut tx, id, &covered, &input.game_contributions, ends_at).await?;
    audit(&mut tx, by, "jackpots.update", id, None, serde_json::to_value(input).ok()).await?;
    tx.commit().await?;
    Ok(())
}

/// Writes the per-game contributions of pool `id` (which covers `covered`, `[0]`: every game).
async fn weigh(
    conn: &mut sqlx::AnyConnection,
    id: i64,
    covered: &[i64],
    weights: &std::collections::BTreeMap<String, i64>,
    ends_at: i64,
) -> Result<(), ApiError> {
    for (sysname, bps) in weights {
        let game: Option<i64> = sqlx::query_scalar("SELECT id FROM games WHERE sysname = $1")
            .bind(sysname)
            .fetch_optional(&mut *conn)
            .await?;
        let Some(game) = game.filter(|g| covered == [0] || covered.contains(g)) else {
            return Err(ApiError::field("game_contributions", FieldCode::NotFound));
        };
        // A pool of every game covers it through its game-0 row: the game gets a row of its own.
        sqlx::query(
            "INSERT INTO competition_games (kind, ref_id, game_id, ends_at, weight) VALUES ('jackpot', $1, $2, $3, $4) \
             ON CONFLICT (kind, ref_id, game_id) DO UPDATE SET weight = excluded.weight",
        )
        .bind(id)
        .bind(game)
        .bind(ends_at)
        .bind(bps)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

fn not_found() -> ApiError {
    ApiError::field("id", FieldCode::NotFound).with_status(axum::http::StatusCode::NOT_FOUND)
}

/// pause, resume or close. Closing gives what the pool holds back to the house, once; closing a
/// closed pool, pausing a paused one or resuming an active one answers its status, changes nothing
/// and writes no audit row. `by`'s audit row
/// (`jackpots.status`: the status before and after, and what a close gave back) is written with
/// the change and its ledger posting.
pub async fn act(state: &AppState, by: &trail::Actor, id: i64, action: &str) -> Result<String, ApiError> {
    let mut tx = state.db().begin().await?;
    let current: Option<(String, String, i64)> =
        sqlx::query_as("SELECT status, currency, amount FROM jackpot_pools WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let Some((status, currency, amount)) = current else { return Err(not_found()) };
    let now = now_ms();
    let next = match (action, status.as_str()) {
        (_, "closed") => return Ok(status),
        ("pause", _) => "paused",
        ("resume", _) => "active",
        ("close", _) => "closed",
        _ => {
            return Err(
                ApiError::field("action", FieldCode::Unsupported).with_status(axum::http::StatusCode::NOT_FOUND)
            );
        }
    };
    if next == status {
        return Ok(status);
    }
    if next == "closed" && amount > 0 {
        let currency =
            Currency::parse(&currency).ok_or_else(|| ApiError::internal(anyhow::anyhow!("pool {id}: bad currency")))?;
        let key = format!("jackpot:{id}:close");
        let entry = Entry::transfer(
            &key,
            "jackpot_close",
            currency,
            Account::House(HouseAccount::JackpotPool),
            Account::House(HouseAccount::GameSettlement),
            amount,
        );
        ledger::post(&mut tx, &entry).await.map_err(|e| match e {
            LedgerError::Db(e) => ApiError::from(e),
            other => ApiError::internal(anyhow::anyhow!("pool {id}: {other}")),
        })?;
    }
    sqlx::query("UPDATE jackpot_pools SET status = $1, amount = CASE WHEN $1 = 'closed' THEN 0 ELSE amount END, updated_at = $2 WHERE id = $3")
        .bind(next)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    games::set_end(&mut tx, "jackpot", id, if next == "active" { i64::MAX } else { 0 }).await?;
    let returned = if next == "closed" { amount } else { 0 };
    let before = Some(json!({ "status": status, "amount": amount }));
    let after = json!({ "status": next, "returned": returned, "currency": currency });
    audit(&mut tx, by, "jackpots.status", id, before, Some(after)).await?;
    tx.commit().await?;
    Ok(next.to_owned())
}

/// `by`'s audit row of a change of pool `id`, in the change's transaction.
async fn audit(
    conn: &mut sqlx::AnyConnection,
    by: &trail::Actor,
    action: &str,
    id: i64,
    before: Option<serde_json::Value>,
    after: Option<serde_json::Value>,
) -> Result<(), ApiError> {
    let target = id.to_string();
    trail::write(conn, &trail::Row { before, after, ..trail::Row::by(by).on(action, "jackpot", &target) }).await
}

/// Every pool, as operators see them (never the hidden trigger of the running cycle).
pub async fn list(state: &AppState) -> Result<Vec<serde_json::Value>, ApiError> {
    #[derive(sqlx::FromRow, Serialize)]
    struct Listed {
        id: i64,
        title_en: String,
        currency: String,
        seed: i64,
        contribution_bps: i64,
        #[serde(rename = "trigger")]
        trigger_kind: String,
        must_drop_before: i64,
        status: String,
        cycle: i64,
        amount: i64,
        trigger_hash: String,
    }
    let rows: Vec<Listed> = sqlx::query_as(
        "SELECT id, title_en, currency, seed, contribution_bps, trigger_kind, must_drop_before, status, cycle, amount, trigger_hash \
         FROM jackpot_pools ORDER BY id",
    )
    .fetch_all(state.db().pool())
    .await?;
    Ok(rows.iter().map(|r| json!(r)).collect())
}

/// A pool's figures: contributions, seeds, drops paid, money returned, what it holds.
pub async fn report(state: &AppState, id: i64) -> Result<serde_json::Value, ApiError> {
    let pool = state.db().pool();
    let row: Option<(String, String, i64, i64, String)> =
        sqlx::query_as("SELECT title_en, currency, amount, cycle, status FROM jackpot_pools WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?;
    let Some((title, currency, amount, cycle, status)) = row else { return Err(not_found()) };
    // What moved into (or out of) the jackpot pool account under this pool's keys, by kind.
    let moved: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT t.kind, CAST(COUNT(*) AS BIGINT), CAST(SUM(p.amount) AS BIGINT) FROM ledger_transactions t \
         JOIN ledger_postings p ON p.transaction_id = t.id JOIN ledger_accounts a ON a.id = p.account_id \
         WHERE t.idempotency_key LIKE $1 AND a.kind = 'jackpot_pool' GROUP BY t.kind",
    )
    .bind(format!("jackpot:{id}:%"))
    .fetch_all(pool)
    .await?;
    let by = |kind: &str| moved.iter().find(|m| m.0 == kind).map_or((0, 0), |m| (m.1, m.2));
    let (contributions, contributed) = by("jackpot_contribution");
    let (seeds, seeded) = by("jackpot_seed");
    let (drops, paid) = by("jackpot_win");
    let (_, returned) = by("jackpot_close");
    Ok(json!({
        "id": id, "title": title, "currency": currency, "status": status, "cycle": cycle, "amount": amount,
        "contributions": contributions, "contributed": contributed, "seeds": seeds, "seeded": seeded,
        "drops": drops, "paid": -paid, "returned": -returned,
        "balanced": contributed + seeded + paid + returned == amount,
    }))
}

async fn list_route(State(state): State<AppState>, _: Operator) -> Response {
    answer(list(&state).await.map(|items| json!({ "items": items })))
}

// Each change writes its own audit row in its transaction (`trail::audited`: the console's gate
// adds no generic row after it).

async fn create_route(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let by = trail::Actor::from(&staff);
    let result = async { Ok(json!({ "id": create(&state, &by, &body(&bytes)?).await? })) }.await;
    trail::audited(answer(result))
}

async fn update_route(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path(id): Path<i64>,
    bytes: Bytes,
) -> Response {
    let result = async {
        update(&state, &trail::Actor::from(&staff), id, &body::<PoolInput>(&bytes)?).await?;
        Ok(json!({ "id": id }))
    }
    .await;
    trail::audited(answer(result))
}

async fn action_route(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path((id, action)): Path<(i64, String)>,
) -> Response {
    let result = act(&state, &trail::Actor::from(&staff), id, &action).await;
    trail::audited(answer(result.map(|status| json!({ "id": id, "status": status }))))
}

async fn report_route(State(state): State<AppState>, _: Operator, Path(id): Path<i64>) -> Response {
    answer(report(&state, id).await)
}
