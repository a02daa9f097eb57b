//! The operators' side of tournaments: `POST /admin/tournaments` ([`TournamentInput`]),
//! `PUT /admin/tournaments/{id}` (the whole input again, only before it starts),
//! `POST /admin/tournaments/{id}/cancel` `{reason}` (before it closes: nothing was paid, so
//! nothing is refunded, and a second cancel changes nothing), `GET /admin/tournaments`,
//! `GET /admin/tournaments/{id}/report` (participants, turnover, prizes paid). The CLI's
//! `admin tournaments …` does the same. Each change writes its operator's audit row
//! (`tournaments.create`, `tournaments.update`, `tournaments.cancel`) in its own transaction.

use super::{PrizeTier, board, games};
use crate::AppState;
use crate::api::{ApiError, FieldErrors, Operator};
use crate::db::now_ms;
use crate::features::backoffice::{Staff, trail};
use crate::features::bonuses::admin::{answer, body};
use crate::features::loyalty::admin::image_check;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use croupier_shared::{Currency, FieldCode};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/admin/tournaments", get(list_route).post(create_route))
        .route("/admin/tournaments/{id}", axum::routing::put(update_route))
        .route("/admin/tournaments/{id}/report", get(report_route))
        .route("/admin/tournaments/{id}/cancel", post(cancel_route))
}

pub(crate) fn check_text(errors: &mut FieldErrors, field: &str, text: &str, min: usize, max: usize) {
    let n = text.trim().chars().count();
    if n < min {
        errors.add(field, FieldCode::Required);
    } else if n > max {
        errors.add_with(field, FieldCode::MaxLength, vec![("max", max.to_string())]);
    }
}

/// The longest window, in days.
pub const MAX_DAYS: i64 = 366;
/// The most prize ranks one tournament pays.
pub const MAX_RANK: i64 = 10_000;

/// A tournament as an operator writes it (times in unix seconds, amounts in minor units of the
/// first currency).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentInput {
    pub title_en: String,
    pub title_fr: String,
    #[serde(default)]
    pub description_en: String,
    #[serde(default)]
    pub description_fr: String,
    #[serde(default)]
    pub image: Option<String>,
    pub starts_at: i64,
    pub ends_at: i64,
    /// IANA name the window is announced in (e.g. Europe/Paris; default UTC).
    #[serde(default)]
    pub time_zone: Option<String>,
    pub currencies: Vec<String>,
    /// stake, win, multiplier or points.
    pub scoring: String,
    /// opt_in or automatic.
    pub participation: String,
    #[serde(default)]
    pub min_bet: Option<i64>,
    #[serde(default)]
    pub games: games::GameSelector,
    pub prizes: Vec<PrizeTier>,
    /// Days after which the next edition starts (0 or absent: none). The close schedules the
    /// next edition, with the same settings, when it freezes this one.
    #[serde(default)]
    pub repeat_days: Option<i64>,
}

fn time_zone_ok(tz: &str) -> bool {
    !tz.is_empty()
        && tz.len() <= 64
        && tz.chars().all(|c| c.is_ascii_alphanumeric() || "/_+-".contains(c))
        && tz.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

/// The rate of each currency into the first one, in millionths, from `CROUPIER_CURRENCY_RATES`
/// (rates against the site's default currency).
fn rates(state: &AppState, currencies: &[Currency]) -> BTreeMap<String, i64> {
    let micro = |code: &str| -> Option<i128> {
        let (_, rate) = state.config().currency_rates.iter().find(|(c, _)| c == code)?;
        let (whole, frac) = rate.split_once('.').unwrap_or((rate, ""));
        let frac: String = frac.chars().chain(std::iter::repeat('0')).take(6).collect();
        Some(whole.parse::<i128>().ok()? * 1_000_000 + frac.parse::<i128>().ok()?)
    };
    let first = currencies[0];
    let mut out = BTreeMap::new();
    for &c in currencies {
        let factor = match (micro(first.code()), micro(c.code())) {
            _ if c == first => Some(1_000_000),
            // rate_first / rate_c, with the minor units' scales.
            (Some(f), Some(r)) if r > 0 => {
                Some(f * 1_000_000 * i128::from(first.scale()) / (r * i128::from(c.scale())))
            }
            _ => None,
        };
        if let Some(factor) = factor.and_then(|f| i64::try_from(f).ok()) {
            out.insert(c.code().to_owned(), factor);
        }
    }
    out
}

impl TournamentInput {
    /// Checks everything; answers the currencies.
    pub fn check(&self, state: &AppState, now: i64) -> Result<Vec<Currency>, ApiError> {
        let mut errors = FieldErrors::default();
        check_text(&mut errors, "title_en", &self.title_en, 1, 200);
        check_text(&mut errors, "title_fr", &self.title_fr, 1, 200);
        check_text(&mut errors, "description_en", &self.description_en, 0, 5_000);
        check_text(&mut errors, "description_fr", &self.description_fr, 0, 5_000);
        image_check(&mut errors, self.image.as_deref());
        if self.starts_at <= 0 {
            errors.add("starts_at", FieldCode::Invalid);
        }
        if self.ends_at <= self.starts_at || self.ends_at * 1000 <= now {
            errors.add("ends_at", FieldCode::Invalid);
        }
        if self.ends_at - self.starts_at > MAX_DAYS * 86_400 {
            errors.add_with("ends_at", FieldCode::MaxValue, vec![("max", format!("{MAX_DAYS} days"))]);
        }
        if self.time_zone.as_deref().is_some_and(|tz| !time_zone_ok(tz)) {
            errors.add("time_zone", FieldCode::Invalid);
        }
        let mut currencies = Vec::new();
        for code in &self.currencies {
            match Currency::parse(code).filter(|c| state.config().currencies.contains(c)) {
                Some(c) if !currencies.contains(&c) => currencies.push(c),
                _ => errors.add("currencies", FieldCode::Unsupported),
            }
        }
        if self.currencies.is_empty() {
            errors.add("currencies", FieldCode::Required);
        }
        if !matches!(self.scoring.as_str(), "stake" | "win" | "multiplier" | "points") {
            errors.add("scoring", FieldCode::Unsupported);
        }
        if !matches!(self.participation.as_str(), "opt_in" | "automatic") {
            errors.add("participation", FieldCode::Unsupported);
        }
        if let Some(days) = self.repeat_days
            && days != 0
            && (!(1..=365).contains(&days) || days * 86_400 < self.ends_at - self.starts_at)
        {
            errors.add_with("repeat_days", FieldCode::MinValue, vec![("min", "the window's length in days".into())]);
        }
        if self.min_bet.is_some_and(|m| m < 0) {
            errors.add_with("min_bet", FieldCode::MinValue, vec![("min", "0".into())]);
        }
        self.check_prizes(&mut errors);
        errors.into_result()?;
        Ok(currencies)
    }

    fn check_prizes(&self, errors: &mut FieldErrors) {
        if self.prizes.is_empty() || self.prizes.len() > 100 {
            errors.add("prizes", FieldCode::Required);
            return;
        }
        // Tiers follow each other from rank 1 without gaps or overlaps.
        let mut next = 1;
        for (i, tier) in self.prizes.iter().enumerate() {
            let field = format!("prizes.{i}");
            if tier.rank_from != next || tier.rank_to < tier.rank_from || tier.rank_to > MAX_RANK {
                errors.add(&format!("{field}.rank_from"), FieldCode::Invalid);
            }
            next = tier.rank_to + 1;
            let positive = |v: Option<i64>| v.is_some_and(|v| v > 0 && v <= 1_000_000_000_000);
            match tier.kind.as_str() {
                "money" if positive(tier.amount) => {}
                "bonus"
                    if positive(tier.amount)
                        && tier.wager_multiplier.is_none_or(|m| (1..=100).contains(&m))
                        && tier.wager_days.is_none_or(|d| (1..=90).contains(&d)) => {}
                "points" if positive(tier.points) => {}
                "freespins"
                    if tier.freespins.as_ref().is_some_and(|s| {
                        s.count > 0
                            && s.count <= crate::features::freespins::MAX_PACK
                            && s.bet > 0
                            && !s.game.is_empty()
                    }) => {}
                "money" | "bonus" | "points" | "freespins" => {
                    errors.add(&format!("{field}.amount"), FieldCode::Invalid)
                }
                _ => errors.add(&format!("{field}.kind"), FieldCode::Unsupported),
            }
        }
    }
}

async fn check_spin_games(conn: &mut sqlx::AnyConnection, prizes: &[PrizeTier]) -> Result<(), ApiError> {
    for (i, tier) in prizes.iter().enumerate() {
        if let Some(spins) = &tier.freespins {
            let known: Option<i64> = sqlx::query_scalar(
                "SELECT id FROM games WHERE sysname = $1 AND provider = 'house' AND sysname <> 'mines'",
            )
            .bind(&spins.game)
            .fetch_optional(&mut *conn)
            .await?;
            if known.is_none() {
                return Err(ApiError::field(&format!("prizes.{i}.freespins.game"), FieldCode::NotFound));
            }
        }
    }
    Ok(())
}

/// Creates a tournament; answers its id.
pub async fn create(state: &AppState, by: &trail::Actor, input: &TournamentInput) -> Result<i64, ApiError> {
    save(state, Some(by), None, input).await
}

fn not_found() -> ApiError {
    ApiError::field("id", FieldCode::NotFound).with_status(axum::http::StatusCode::NOT_FOUND)
}

/// Replaces a tournament that has not started yet.
pub async fn update(state: &AppState, by: &trail::Actor, id: i64, input: &TournamentInput) -> Result<(), ApiError> {
    save(state, Some(by), Some(id), input).await.map(|_| ())
}

/// Writes a new tournament (`id` none) or replaces one that has not started, with what it covers,
/// and `by`'s audit row (none: the demo seed, no operator's change).
async fn save(
    state: &AppState,
    by: Option<&trail::Actor>,
    id: Option<i64>,
    input: &TournamentInput,
) -> Result<i64, ApiError> {
    let now = now_ms();
    let currencies = input.check(state, now)?;
    let mut tx = state.db().begin().await?;
    if let Some(id) = id {
        let current: Option<(String, i64)> = sqlx::query_as("SELECT status, starts_at FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some((status, starts_at)) = current else { return Err(not_found()) };
        if status != "scheduled" || starts_at <= now {
            return Err(ApiError::field("starts_at", FieldCode::Invalid).with_status(axum::http::StatusCode::CONFLICT));
        }
    }
    check_spin_games(&mut tx, &input.prizes).await?;
    let covered = games::resolve(&mut tx, &input.games).await?;
    let statement = match id {
        None => {
            "INSERT INTO tournaments (title_en, title_fr, description_en, description_fr, image, starts_at, ends_at, time_zone, currencies, rates, \
             scoring, participation, min_bet, games, prizes, updated_at, repeat_days, created_at, status, board_version) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $16, 'scheduled', 0) RETURNING id"
        }
        Some(_) => {
            "UPDATE tournaments SET title_en = $1, title_fr = $2, description_en = $3, description_fr = $4, image = $5, starts_at = $6, \
             ends_at = $7, time_zone = $8, currencies = $9, rates = $10, scoring = $11, participation = $12, min_bet = $13, games = $14, \
             prizes = $15, updated_at = $16, repeat_days = $17 WHERE id = $18 RETURNING id"
        }
    };
    let mut query = sqlx::query_scalar(statement)
        .bind(input.title_en.trim())
        .bind(input.title_fr.trim())
        .bind(input.description_en.trim())
        .bind(input.description_fr.trim())
        .bind(&input.image)
        .bind(input.starts_at * 1000)
        .bind(input.ends_at * 1000)
        .bind(input.time_zone.as_deref().unwrap_or("UTC"))
        .bind(currencies.iter().map(|c| c.code()).collect::<Vec<_>>().join(","))
        .bind(serde_json::to_string(&rates(state, &currencies)).unwrap_or_default())
        .bind(&input.scoring)
        .bind(&input.participation)
        .bind(input.min_bet)
        .bind(serde_json::to_string(&input.games).unwrap_or_default())
        .bind(serde_json::to_string(&input.prizes).unwrap_or_default())
        .bind(now)
        .bind(input.repeat_days.unwrap_or(0));
    if let Some(id) = id {
        query = query.bind(id);
    }
    let saved: i64 = query.fetch_one(&mut *tx).await?;
    games::cover(&mut tx, "tournament", saved, &covered, input.ends_at * 1000).await?;
    if let Some(by) = by {
        let target = saved.to_string();
        let action = if id.is_some() { "tournaments.update" } else { "tournaments.create" };
        let row = trail::Row {
            after: serde_json::to_value(input).ok(),
            ..trail::Row::by(by).on(action, "tournament", &target)
        };
        trail::write(&mut *tx, &row).await?;
    }
    tx.commit().await?;
    Ok(saved)
}

/// Cancels a tournament that has not closed: scores stop, no prize is paid. Answers the status
/// (cancelling a cancelled one changes nothing and writes no audit row). `by`'s audit row
/// (`tournaments.cancel`, with the reason) is written with the change.
pub async fn cancel(state: &AppState, by: &trail::Actor, id: i64, reason: &str) -> Result<String, ApiError> {
    crate::features::bonuses::admin::check_reason(reason)?;
    let mut tx = state.db().begin().await?;
    let status: Option<String> =
        sqlx::query_scalar("SELECT status FROM tournaments WHERE id = $1").bind(id).fetch_optional(&mut *tx).await?;
    let Some(status) = status else { return Err(not_found()) };
    match status.as_str() {
        "cancelled" => return Ok(status),
        "scheduled" => {}
        _ => return Err(ApiError::field("id", FieldCode::Invalid).with_status(axum::http::StatusCode::CONFLICT)),
    }
    sqlx::query("UPDATE tournaments SET status = 'cancelled', cancel_reason = $1, updated_at = $2 WHERE id = $3 AND status = 'scheduled'")
        .bind(reason.trim())
        .bind(now_ms())
        .bind(id)
        .execute(&mut *tx)
        .await?;
    games::set_end(&mut tx, "tournament", id, 0).await?;
    let target = id.to_string();
    let row = trail::Row {
        reason: Some(reason.trim()),
        before: Some(json!({ "status": status })),
        after: Some(json!({ "status": "cancelled" })),
        ..trail::Row::by(by).on("tournaments.cancel", "tournament", &target)
    };
    trail::write(&mut *tx, &row).await?;
    tx.commit().await?;
    board::forget(state, id).await?;
    Ok("cancelled".into())
}

/// Every tournament, newest first, as operators see them.
pub async fn list(state: &AppState) -> Result<Vec<serde_json::Value>, ApiError> {
    let rows: Vec<(i64, String, i64, i64, String, String, String)> = sqlx::query_as(
        "SELECT id, title_en, starts_at, ends_at, status, scoring, currencies FROM tournaments ORDER BY id DESC",
    )
    .fetch_all(state.db().pool())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            json!({ "id": r.0, "title_en": r.1, "starts_at": r.2 / 1000, "ends_at": r.3 / 1000, "status": r.4, "scoring": r.5, "currencies": r.6 })
        })
        .collect())
}

/// Participants, turnover (real-money stakes of participants in the covered games during the
/// window, per currency) and prizes (frozen, paid, by kind).
pub async fn report(state: &AppState, id: i64) -> Result<serde_json::Value, ApiError> {
    let pool = state.db().pool();
    let row = super::load(state, id).await?.ok_or_else(not_found)?;
    let participants: i64 =
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM tournament_scores WHERE tournament_id = $1")
            .bind(id)
            .fetch_one(pool)
            .await?;
    let turnover: Vec<(String, i64)> = sqlx::query_as(
        "SELECT r.currency, CAST(COALESCE(SUM(r.bet), 0) AS BIGINT) FROM game_rounds r \
         JOIN tournament_scores s ON s.tournament_id = $1 AND s.user_id = r.user_id \
         WHERE r.mode = 'real' AND r.created_at >= $2 AND r.created_at < $3 AND EXISTS (SELECT 1 FROM competition_games c \
         WHERE c.kind = 'tournament' AND c.ref_id = $1 AND c.game_id IN (r.game_id, 0)) GROUP BY r.currency ORDER BY r.currency",
    )
    .bind(id)
    .bind(row.starts_at)
    .bind(row.ends_at)
    .fetch_all(pool)
    .await?;
    let prizes: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT kind, status, CAST(COUNT(*) AS BIGINT) FROM tournament_prizes WHERE tournament_id = $1 GROUP BY kind, status ORDER BY kind, status",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    Ok(json!({
        "id": id,
        "title": row.title_en,
        "status": row.status,
        "participants": participants,
        "turnover": turnover.into_iter().map(|(c, t)| json!({ "currency": c, "amount": t })).collect::<Vec<_>>(),
        "prizes": prizes.into_iter().map(|(k, s, n)| json!({ "kind": k, "status": s, "count": n })).collect::<Vec<_>>(),
    }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CancelInput {
    reason: String,
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
        update(&state, &trail::Actor::from(&staff), id, &body::<TournamentInput>(&bytes)?).await?;
        Ok(json!({ "id": id }))
    }
    .await;
    trail::audited(answer(result))
}

async fn cancel_route(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path(id): Path<i64>,
    bytes: Bytes,
) -> Response {
    let result = async {
        let input: CancelInput = body(&bytes)?;
        Ok(json!({ "id": id, "status": cancel(&state, &trail::Actor::from(&staff), id, &input.reason).await? }))
    }
    .await;
    trail::audited(answer(result))
}

async fn report_route(State(state): State<AppState>, _: Operator, Path(id): Path<i64>) -> Response {
    answer(report(&state, id).await)
}

/// The weekly tournament the demo content advertises ("Weekly tournament", `/tournaments`):
/// made once, when there has never been a tournament and `CROUPIER_DEMO_TOURNAMENT` is on. It runs
/// from the last Monday 00:00 UTC for a week and repeats every week; players join it
/// (`tournaments.participate`), their stakes on every game count, and the top three win
/// 100.00 / 50.00 / 25.00 of the site's currency, places 4 to 10 500 loyalty points.
pub async fn seed_demo(state: &AppState) -> Result<bool, ApiError> {
    if !state.config().demo_tournament {
        return Ok(false);
    }
    let any: i64 =
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM tournaments").fetch_one(state.db().pool()).await?;
    if any > 0 {
        return Ok(false);
    }
    let now = now_ms() / 1000;
    // 1970-01-01 was a Thursday: Mondays fall 4 days after a multiple of 7 days.
    let week = 7 * 86_400;
    let monday = (now - 4 * 86_400).div_euclid(week) * week + 4 * 86_400;
    let currency = state.config().default_currency.code().to_owned();
    let prize = |from: i64, to: i64, kind: &str, amount: Option<i64>, points: Option<i64>| PrizeTier {
        rank_from: from,
        rank_to: to,
        kind: kind.to_owned(),
        amount,
        wager_multiplier: None,
        wager_days: None,
        points,
        freespins: None,
    };
    let scale = state.config().default_currency.scale();
    let input = TournamentInput {
        title_en: "Weekly tournament".into(),
        title_fr: "Tournoi de la semaine".into(),
        description_en: "Join, play any game and climb the leaderboard: every stake counts. The top three share the prizes every Monday.".into(),
        description_fr: "Inscrivez-vous, jouez à n'importe quel jeu et grimpez au classement : chaque mise compte. Les trois premiers se partagent les prix chaque lundi.".into(),
        image: Some("/uploads/banner-tournament.svg".into()),
        starts_at: monday,
        ends_at: monday + week,
        time_zone: Some("UTC".into()),
        currencies: vec![currency],
        scoring: "stake".into(),
        participation: "opt_in".into(),
        min_bet: None,
        games: games::GameSelector::default(),
        prizes: vec![
            prize(1, 1, "money", Some(100 * scale), None),
            prize(2, 2, "money", Some(50 * scale), None),
            prize(3, 3, "money", Some(25 * scale), None),
            prize(4, 10, "points", None, Some(500)),
        ],
        repeat_days: Some(7),
    };
    save(state, None, None, &input).await?;
    Ok(true)
}
