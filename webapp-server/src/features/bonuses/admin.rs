//! The operator's side (bearer `CROUPIER_ADMIN_TOKEN`, see `api::Operator`; the CLI calls the
//! same functions): campaigns created, edited, paused, resumed, ended and reported on; promo codes
//! made and paused; a player's bonus granted or cancelled by hand, each with a reason; free-spin
//! packs given.
//!
//! - `GET /admin/campaigns`, `GET /admin/campaigns/{id}`: campaigns with their report (takers,
//!   bonuses by status, granted, converted, forfeited; cost = converted, the real money paid).
//! - `POST /admin/campaigns` (a [`CampaignInput`]), `PUT /admin/campaigns/{id}` (the same, whole).
//! - `POST /admin/campaigns/{id}/{pause|resume|end}`.
//! - `POST /admin/promo-codes` `{code, campaign_id, max_uses?}`; `POST /admin/promo-codes/{code}/{pause|resume}`.
//! - `POST /admin/bonuses` `{user_id, campaign_id, reason}`; `POST /admin/bonuses/{id}/cancel` `{reason}`.
//! - `POST /admin/freespins` (a [`GrantRequest`]).

use super::Rules;
use super::campaigns::{self, Amounts, CampaignRow};
use super::engine::{self, Actor, BonusError};
use crate::AppState;
use crate::api::{ApiError, FieldErrors, Operator};
use crate::db::{group::job, now_ms};
use crate::features::backoffice::{Staff, trail};
use crate::features::freespins;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use croupier_shared::{Currency, ErrorType, FieldCode};
use serde::{Deserialize, Serialize};
use serde_json::json;

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/admin/campaigns", get(list_campaigns).post(create_campaign))
        .route("/admin/campaigns/{id}", get(show_campaign).put(update_campaign))
        .route("/admin/campaigns/{id}/{action}", post(campaign_status))
        .route("/admin/promo-codes", post(create_code))
        .route("/admin/promo-codes/{code}/{action}", post(code_status))
        .route("/admin/bonuses", post(grant_bonus))
        .route("/admin/bonuses/{id}/cancel", post(cancel_bonus))
        .route("/admin/freespins", post(admin_grant_freespins))
}

fn ok(data: serde_json::Value) -> Response {
    Json(json!({ "status": "ok", "data": data })).into_response()
}

pub(crate) fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        tracing::debug!(error = %e, "admin body refused");
        ApiError::bad_request(Some(("body", FieldCode::Invalid)))
    })
}

pub(crate) fn answer(result: Result<serde_json::Value, ApiError>) -> Response {
    match result {
        Ok(data) => ok(data),
        Err(e) => e.into_response(),
    }
}

// ---------------------------------------------------------------------------------------------
// Campaigns.

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AmountInput {
    pub currency: String,
    #[serde(default)]
    pub min_deposit: i64,
    #[serde(default)]
    pub max_bonus: i64,
    #[serde(default)]
    pub max_bet: i64,
    #[serde(default)]
    pub max_conversion: Option<i64>,
    #[serde(default)]
    pub freespin_bet: i64,
}

/// A campaign as an operator writes it (amounts in minor units, times in Unix seconds).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignInput {
    pub sysname: String,
    /// draft (default), active or paused.
    #[serde(default)]
    pub status: Option<String>,
    /// registration, deposit, promo_code or manual.
    pub trigger: String,
    #[serde(default)]
    pub deposit_number: Option<i64>,
    #[serde(default)]
    pub exclude_methods: Vec<String>,
    #[serde(default)]
    pub countries: Vec<String>,
    /// deposit_match, fixed, freespins, freebet or odds_boost (see `betting`).
    pub reward: String,
    /// deposit_match: the percent of the deposit matched; odds_boost: the boost in percent of the
    /// bet's winnings (1 to 1000; the per-currency `max_bonus` caps the extra).
    #[serde(default)]
    pub match_percent: i64,
    #[serde(default)]
    pub freespin_game: Option<String>,
    #[serde(default)]
    pub freespin_count: i64,
    #[serde(default)]
    pub wager_multiplier: i64,
    #[serde(default)]
    pub wager_includes_deposit: bool,
    #[serde(default)]
    pub games: Vec<String>,
    pub title_en: String,
    pub title_fr: String,
    pub text_en: String,
    pub text_fr: String,
    #[serde(default)]
    pub terms_en: String,
    #[serde(default)]
    pub terms_fr: String,
    #[serde(default)]
    pub image_url: Option<String>,
    #[serde(default)]
    pub promotions: Vec<String>,
    #[serde(default)]
    pub starts_at: Option<i64>,
    #[serde(default)]
    pub ends_at: Option<i64>,
    #[serde(default)]
    pub claim_days: Option<i64>,
    #[serde(default)]
    pub wager_days: Option<i64>,
    #[serde(default)]
    pub max_takers: Option<i64>,
    pub amounts: Vec<AmountInput>,
    /// On an update: the `version` the editor read (`GET /admin/campaigns/{id}`). When another
    /// save came in between, the update is refused (409, `error_data.version: ["STALE"]`) instead
    /// of silently replacing that save. Absent: the update replaces whatever is there (scripts).
    #[serde(default)]
    pub version: Option<i64>,
}

const MAX_TEXT: usize = 2000;

pub(crate) fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

impl CampaignInput {
    /// Every rule of a campaign, each failure named by its field.
    pub async fn check(&self, conn: &mut sqlx::AnyConnection) -> Result<(), ApiError> {
        let mut e = FieldErrors::default();
        if !is_slug(&self.sysname) {
            e.add("sysname", FieldCode::Invalid);
        }
        if !matches!(self.status.as_deref(), None | Some("draft" | "active" | "paused")) {
            e.add("status", FieldCode::Unsupported);
        }
        if !matches!(self.trigger.as_str(), "registration" | "deposit" | "promo_code" | "manual") {
            e.add("trigger", FieldCode::Unsupported);
        }
        if self.deposit_number.is_some_and(|n| !(1..=100).contains(&n)) {
            e.add_with("deposit_number", FieldCode::MaxValue, vec![("max", "100".into())]);
        }
        if !matches!(self.reward.as_str(), "deposit_match" | "fixed" | "freespins" | "freebet" | "odds_boost") {
            e.add("reward", FieldCode::Unsupported);
        }
        if matches!(self.reward.as_str(), "deposit_match" | "odds_boost") && !(1..=1000).contains(&self.match_percent) {
            e.add_with("match_percent", FieldCode::MaxValue, vec![("max", "1000".into())]);
        }
        if self.reward == "deposit_match" && self.trigger == "registration" {
            e.add("trigger", FieldCode::Invalid);
        }
        if self.countries.iter().any(|c| c.len() != 2 || !c.bytes().all(|b| b.is_ascii_alphabetic())) {
            e.add("countries", FieldCode::Invalid);
        }
        if self.reward == "freespins" && self.freespin_count == 0 {
            e.add("freespin_count", FieldCode::Required);
        }
        if !(0..=freespins::MAX_PACK).contains(&self.freespin_count) {
            e.add_with("freespin_count", FieldCode::MaxValue, vec![("max", freespins::MAX_PACK.to_string())]);
        }
        if self.freespin_count > 0 {
            let game = self.freespin_game.as_deref().unwrap_or("");
            let found: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM games WHERE sysname = $1 AND provider = 'house' AND sysname <> 'mines'",
            )
            .bind(game)
            .fetch_one(&mut *conn)
            .await?;
            if found == 0 {
                e.add("freespin_game", FieldCode::NotFound);
            }
        }
        if !(0..=200).contains(&self.wager_multiplier) {
            e.add_with("wager_multiplier", FieldCode::MaxValue, vec![("max", "200".into())]);
        }
        for g in &self.games {
            let found: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE sysname = $1")
                .bind(g)
                .fetch_one(&mut *conn)
                .await?;
            if found == 0 {
                e.add("games", FieldCode::NotFound);
                break;
            }
        }
        for (field, text, required) in [
            ("title_en", &self.title_en, true),
            ("title_fr", &self.title_fr, true),
            ("text_en", &self.text_en, true),
            ("text_fr", &self.text_fr, true),
            ("terms_en", &self.terms_en, false),
            ("terms_fr", &self.terms_fr, false),
        ] {
            if required && text.trim().is_empty() {
                e.add(field, FieldCode::Required);
            } else if text.chars().count() > MAX_TEXT {
                e.add_with(field, FieldCode::MaxLength, vec![("max", MAX_TEXT.to_string())]);
            }
        }
        if self.promotions.iter().any(|p| !is_slug(p)) || self.exclude_methods.iter().any(|m| !is_slug(m)) {
            e.add("promotions", FieldCode::Invalid);
        }
        if let (Some(s), Some(end)) = (self.starts_at, self.ends_at)
            && end <= s
        {
            e.add("ends_at", FieldCode::Date);
        }
        if self.claim_days.is_some_and(|d| !(1..=365).contains(&d)) {
            e.add_with("claim_days", FieldCode::MaxValue, vec![("max", "365".into())]);
        }
        if self.wager_days.is_some_and(|d| !(1..=365).contains(&d)) {
            e.add_with("wager_days", FieldCode::MaxValue, vec![("max", "365".into())]);
        }
        if self.max_takers.is_some_and(|m| m < 1) {
            e.add_with("max_takers", FieldCode::MinValue, vec![("min", "1".into())]);
        }
        if self.amounts.is_empty() {
            e.add("amounts", FieldCode::Required);
        }
        let mut seen = Vec::new();
        for a in &self.amounts {
            let Some(c) = Currency::parse(&a.currency) else {
                e.add("amounts.currency", FieldCode::Unsupported);
                continue;
            };
            if seen.contains(&c) {
                e.add("amounts.currency", FieldCode::Duplicate);
            }
            seen.push(c);
            if a.min_deposit < 0 || a.max_bet < 0 || a.max_conversion.is_some_and(|m| m < 0) {
                e.add_with("amounts", FieldCode::MinValue, vec![("min", "0".into())]);
            }
            if matches!(self.reward.as_str(), "deposit_match" | "fixed" | "freebet" | "odds_boost") && a.max_bonus <= 0
            {
                e.add_with("amounts.max_bonus", FieldCode::MinValue, vec![("min", "1".into())]);
            }
            if self.freespin_count > 0 && a.freespin_bet <= 0 {
                e.add_with("amounts.freespin_bet", FieldCode::MinValue, vec![("min", "1".into())]);
            }
        }
        e.into_result()
    }

    async fn write(&self, conn: &mut sqlx::AnyConnection, id: Option<i64>) -> Result<i64, ApiError> {
        let wanted = id;
        let now = now_ms();
        let audience =
            json!({ "countries": self.countries.iter().map(|c| c.to_ascii_uppercase()).collect::<Vec<_>>() });
        let status = self.status.clone().unwrap_or_else(|| "draft".to_owned());
        let sql = match id {
            None => {
                "INSERT INTO campaigns (sysname, status, trigger_action, deposit_number, exclude_methods, audience, reward, \
                 match_percent, freespin_game, freespin_count, wager_multiplier, wager_includes_deposit, games, title_en, title_fr, \
                 text_en, text_fr, terms_en, terms_fr, image_url, promotions, starts_at, ends_at, claim_days, wager_days, max_takers, \
                 takers, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
                 $18, $19, $20, $21, $22, $23, $24, $25, $26, 0, $27, $27) RETURNING id"
            }
            Some(_) => {
                "UPDATE campaigns SET sysname = $1, status = $2, trigger_action = $3, deposit_number = $4, exclude_methods = $5, \
                 audience = $6, reward = $7, match_percent = $8, freespin_game = $9, freespin_count = $10, wager_multiplier = $11, \
                 wager_includes_deposit = $12, games = $13, title_en = $14, title_fr = $15, text_en = $16, text_fr = $17, \
                 terms_en = $18, terms_fr = $19, image_url = $20, promotions = $21, starts_at = $22, ends_at = $23, claim_days = $24, \
                 wager_days = $25, max_takers = $26, updated_at = $27 WHERE id = $28 \
                 AND updated_at = COALESCE($29, updated_at) RETURNING id"
            }
        };
        let id: Option<i64> = sqlx::query_scalar(sql)
            .bind(&self.sysname)
            .bind(&status)
            .bind(&self.trigger)
            .bind(self.deposit_number)
            .bind(self.exclude_methods.join(","))
            .bind(audience.to_string())
            .bind(&self.reward)
            .bind(self.match_percent)
            .bind(self.freespin_game.as_deref().filter(|_| self.freespin_count > 0))
            .bind(self.freespin_count)
            .bind(self.wager_multiplier)
            .bind(i64::from(self.wager_includes_deposit))
            .bind(self.games.join(","))
            .bind(self.title_en.trim())
            .bind(self.title_fr.trim())
            .bind(self.text_en.trim())
            .bind(self.text_fr.trim())
            .bind(self.terms_en.trim())
            .bind(self.terms_fr.trim())
            .bind(&self.image_url)
            .bind(self.promotions.join(","))
            .bind(self.starts_at.map(|s| s.saturating_mul(1000)))
            .bind(self.ends_at.map(|s| s.saturating_mul(1000)))
            .bind(self.claim_days.unwrap_or(7))
            .bind(self.wager_days.unwrap_or(30))
            .bind(self.max_takers)
            .bind(now)
            .bind(id)
            .bind(self.version)
            .fetch_optional(&mut *conn)
            .await?;
        let id = match (id, wanted) {
            (Some(id), _) => id,
            (None, Some(wanted)) => {
                let current: Option<i64> = sqlx::query_scalar("SELECT updated_at FROM campaigns WHERE id = $1")
                    .bind(wanted)
                    .fetch_optional(&mut *conn)
                    .await?;
                return Err(match current {
                    Some(version) => ApiError::new(ErrorType::AccessDeniedException)
                        .with_status(axum::http::StatusCode::CONFLICT)
                        .with_data("version", json!(["STALE"]))
                        .with_data("current_version", version),
                    None => ApiError::field("id", FieldCode::NotFound),
                });
            }
            (None, None) => return Err(ApiError::field("id", FieldCode::NotFound)),
        };
        sqlx::query("DELETE FROM campaign_amounts WHERE campaign_id = $1").bind(id).execute(&mut *conn).await?;
        for a in &self.amounts {
            let currency = Currency::parse(&a.currency).map_or("", |c| c.code());
            sqlx::query(
                "INSERT INTO campaign_amounts (campaign_id, currency, min_deposit, max_bonus, max_bet, max_conversion, freespin_bet) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(id)
            .bind(currency)
            .bind(a.min_deposit)
            .bind(a.max_bonus)
            .bind(a.max_bet)
            .bind(a.max_conversion)
            .bind(a.freespin_bet)
            .execute(&mut *conn)
            .await?;
        }
        Ok(id)
    }

    /// Creates (no `id`) or replaces a campaign, checked first; answers its id. A taken
    /// campaign's bonuses keep the terms they were given with.
    ///
    /// `by`'s audit row (`campaigns.create` or `campaigns.update`, the campaign as sent, and the
    /// status it had before an update) is written in the change's own transaction.
    pub async fn save(&self, state: &AppState, by: &trail::Actor, id: Option<i64>) -> Result<i64, ApiError> {
        let mut tx = state.db().begin().await?;
        self.check(&mut tx).await?;
        let clash: Option<i64> = sqlx::query_scalar("SELECT id FROM campaigns WHERE sysname = $1")
            .bind(&self.sysname)
            .fetch_optional(&mut *tx)
            .await?;
        if clash.is_some_and(|c| Some(c) != id) {
            return Err(ApiError::field("sysname", FieldCode::Taken));
        }
        let before: Option<String> = match id {
            Some(id) => {
                sqlx::query_scalar("SELECT status FROM campaigns WHERE id = $1")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?
            }
            None => None,
        };
        let saved = self.write(&mut tx, id).await?;
        let target = saved.to_string();
        let action = if id.is_some() { "campaigns.update" } else { "campaigns.create" };
        let row = trail::Row {
            before: before.map(|status| json!({ "status": status })),
            after: serde_json::to_value(self).ok(),
            ..trail::Row::by(by).on(action, "campaign", &target)
        };
        trail::write(&mut *tx, &row).await?;
        tx.commit().await?;
        Ok(saved)
    }
}

/// Writes a new campaign checked by the caller (the demo seed); answers its id.
pub async fn write_campaign(conn: &mut sqlx::AnyConnection, input: &CampaignInput) -> anyhow::Result<i64> {
    input.write(conn, None).await.map_err(|e| anyhow::anyhow!("{e:?}"))
}

/// A campaign's figures.
#[derive(Debug, Serialize)]
pub struct Report {
    pub takers: i64,
    pub by_status: serde_json::Map<String, serde_json::Value>,
    /// Bonus money credited, per currency (minor units).
    pub granted: serde_json::Map<String, serde_json::Value>,
    pub converted: serde_json::Map<String, serde_json::Value>,
    pub forfeited: serde_json::Map<String, serde_json::Value>,
    /// The real money the campaign cost: what its bonuses converted, per currency.
    pub cost: serde_json::Map<String, serde_json::Value>,
}

pub async fn report(state: &AppState, campaign: &CampaignRow) -> Result<Report, ApiError> {
    let pool = state.db().pool();
    let statuses: Vec<(String, i64)> = sqlx::query_as(
        "SELECT status, COUNT(*) FROM player_bonuses WHERE campaign_id = $1 GROUP BY status ORDER BY status",
    )
    .bind(campaign.id)
    .fetch_all(pool)
    .await?;
    let sums: Vec<(String, i64, i64, i64)> = sqlx::query_as(
        "SELECT currency, CAST(COALESCE(SUM(amount), 0) AS BIGINT), CAST(COALESCE(SUM(converted), 0) AS BIGINT), \
         CAST(COALESCE(SUM(forfeited), 0) AS BIGINT) FROM player_bonuses WHERE campaign_id = $1 GROUP BY currency ORDER BY currency",
    )
    .bind(campaign.id)
    .fetch_all(pool)
    .await?;
    let map = |pick: fn(&(String, i64, i64, i64)) -> i64| {
        sums.iter().map(|row| (row.0.clone(), json!(pick(row)))).collect::<serde_json::Map<_, _>>()
    };
    Ok(Report {
        takers: campaign.takers,
        by_status: statuses.into_iter().map(|(s, n)| (s, json!(n))).collect(),
        granted: map(|r| r.1),
        converted: map(|r| r.2),
        forfeited: map(|r| r.3),
        cost: map(|r| r.2),
    })
}

/// A comma-separated column as the list [`CampaignInput`] takes.
fn list(text: &str) -> Vec<&str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).collect()
}

/// A campaign as the operator API answers it: every field of [`CampaignInput`] under its name (so
/// an editor can send back what it read), with its takers, promo codes and report.
async fn campaign_json(state: &AppState, campaign: &CampaignRow) -> Result<serde_json::Value, ApiError> {
    let amounts: Vec<Amounts> = sqlx::query_as(
        "SELECT currency, min_deposit, max_bonus, max_bet, max_conversion, freespin_bet FROM campaign_amounts WHERE campaign_id = $1 ORDER BY currency",
    )
    .bind(campaign.id)
    .fetch_all(state.db().pool())
    .await?;
    let codes: Vec<(String, String, Option<i64>, i64)> =
        sqlx::query_as("SELECT code, status, max_uses, uses FROM promo_codes WHERE campaign_id = $1 ORDER BY code")
            .bind(campaign.id)
            .fetch_all(state.db().pool())
            .await?;
    Ok(json!({
        "id": campaign.id,
        // What an edit sends back as `version` (see `CampaignInput::version`).
        "version": campaign.updated_at,
        "sysname": campaign.sysname,
        "status": campaign.status,
        "trigger": campaign.trigger_action,
        "reward": campaign.reward,
        "deposit_number": campaign.deposit_number,
        "exclude_methods": campaign.exclude_list(),
        "countries": campaign.countries(),
        "match_percent": campaign.match_percent,
        "freespin_game": campaign.freespin_game,
        "freespin_count": campaign.freespin_count,
        "wager_multiplier": campaign.wager_multiplier,
        "wager_includes_deposit": campaign.wager_includes_deposit != 0,
        "games": list(&campaign.games),
        "title_en": campaign.title_en,
        "title_fr": campaign.title_fr,
        "text_en": campaign.text_en,
        "text_fr": campaign.text_fr,
        "terms_en": campaign.terms_en,
        "terms_fr": campaign.terms_fr,
        "image_url": campaign.image_url,
        "promotions": list(&campaign.promotions),
        "claim_days": campaign.claim_days,
        "wager_days": campaign.wager_days,
        "takers": campaign.takers,
        "max_takers": campaign.max_takers,
        "starts_at": campaign.starts_at.map(|t| t / 1000),
        "ends_at": campaign.ends_at.map(|t| t / 1000),
        "amounts": amounts.iter().map(|a| json!({"currency": a.currency, "min_deposit": a.min_deposit, "max_bonus": a.max_bonus, "max_bet": a.max_bet, "max_conversion": a.max_conversion, "freespin_bet": a.freespin_bet})).collect::<Vec<_>>(),
        "promo_codes": codes.iter().map(|(code, status, max, uses)| json!({"code": code, "status": status, "max_uses": max, "uses": uses})).collect::<Vec<_>>(),
        "report": report(state, campaign).await?,
    }))
}

pub async fn all_campaigns(state: &AppState) -> Result<Vec<serde_json::Value>, ApiError> {
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM campaigns ORDER BY id").fetch_all(state.db().pool()).await?;
    let mut out = Vec::new();
    for id in ids {
        let mut conn = state.db().pool().acquire().await?;
        if let Some(c) = campaigns::load(&mut conn, id).await? {
            drop(conn);
            out.push(campaign_json(state, &c).await?);
        }
    }
    Ok(out)
}

async fn list_campaigns(State(state): State<AppState>, _: Operator) -> Response {
    answer(all_campaigns(&state).await.map(|items| json!({ "total": items.len(), "items": items })))
}

async fn show_campaign(State(state): State<AppState>, _: Operator, Path(id): Path<i64>) -> Response {
    let result = async {
        let mut conn = state.db().pool().acquire().await?;
        let campaign =
            campaigns::load(&mut conn, id).await?.ok_or_else(|| ApiError::field("id", FieldCode::NotFound))?;
        drop(conn);
        campaign_json(&state, &campaign).await
    }
    .await;
    answer(result)
}

// Each change below writes its own audit row in its transaction (`trail::audited`: the console's
// gate adds no generic row after it).

async fn create_campaign(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let input: CampaignInput = body(&bytes)?;
        Ok(json!({ "id": input.save(&state, &trail::Actor::from(&staff), None).await? }))
    }
    .await;
    trail::audited(answer(result))
}

async fn update_campaign(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path(id): Path<i64>,
    bytes: Bytes,
) -> Response {
    let result = async {
        let input: CampaignInput = body(&bytes)?;
        Ok(json!({ "id": input.save(&state, &trail::Actor::from(&staff), Some(id)).await? }))
    }
    .await;
    trail::audited(answer(result))
}

/// Pauses, resumes or ends a campaign. Ending is final; bonuses already taken run their course.
/// `by`'s audit row (`campaigns.status`, the status before and after) is written with the change.
pub async fn set_campaign_status(
    state: &AppState,
    by: &trail::Actor,
    id: i64,
    action: &str,
) -> Result<String, ApiError> {
    let (to, from): (&str, &[&str]) = match action {
        "pause" => ("paused", &["active"]),
        "resume" => ("active", &["paused", "draft"]),
        "end" => ("ended", &["active", "paused", "draft"]),
        _ => return Err(ApiError::field("action", FieldCode::Unsupported)),
    };
    let mut tx = state.db().begin().await?;
    let status: Option<String> =
        sqlx::query_scalar("SELECT status FROM campaigns WHERE id = $1").bind(id).fetch_optional(&mut *tx).await?;
    let status = status.ok_or_else(|| ApiError::field("id", FieldCode::NotFound))?;
    if !from.contains(&status.as_str()) {
        return Err(ApiError::field("action", FieldCode::Invalid).with_data("status", status));
    }
    sqlx::query("UPDATE campaigns SET status = $1, updated_at = $2 WHERE id = $3")
        .bind(to)
        .bind(now_ms())
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let target = id.to_string();
    let row = trail::Row {
        before: Some(json!({ "status": status })),
        after: Some(json!({ "status": to })),
        ..trail::Row::by(by).on("campaigns.status", "campaign", &target)
    };
    trail::write(&mut *tx, &row).await?;
    tx.commit().await?;
    Ok(to.to_owned())
}

async fn campaign_status(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path((id, action)): Path<(i64, String)>,
) -> Response {
    let result = set_campaign_status(&state, &trail::Actor::from(&staff), id, &action).await;
    trail::audited(answer(result.map(|s| json!({ "id": id, "status": s }))))
}

// ---------------------------------------------------------------------------------------------
// Promo codes.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeInput {
    pub code: String,
    pub campaign_id: i64,
    #[serde(default)]
    pub max_uses: Option<i64>,
}

/// Makes a promo code of a `promo_code` campaign; answers the code as players see it. `by`'s audit
/// row (`promo_codes.create`) is written with it.
pub async fn create_promo_code(state: &AppState, by: &trail::Actor, input: &CodeInput) -> Result<String, ApiError> {
    let code = input.code.trim();
    if code.is_empty()
        || code.len() > super::methods::MAX_CODE
        || !code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ApiError::field("code", FieldCode::Invalid));
    }
    if input.max_uses.is_some_and(|m| m < 1) {
        return Err(ApiError::field_with("max_uses", FieldCode::MinValue, vec![("min", "1".into())]));
    }
    let mut tx = state.db().begin().await?;
    let trigger: Option<String> = sqlx::query_scalar("SELECT trigger_action FROM campaigns WHERE id = $1")
        .bind(input.campaign_id)
        .fetch_optional(&mut *tx)
        .await?;
    match trigger.as_deref() {
        None => return Err(ApiError::field("campaign_id", FieldCode::NotFound)),
        Some("promo_code") => {}
        Some(_) => return Err(ApiError::field("campaign_id", FieldCode::Invalid)),
    }
    let key = super::campaigns::code_key(code);
    let exists: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM promo_codes WHERE code_key = $1")
        .bind(&key)
        .fetch_one(&mut *tx)
        .await?;
    if exists > 0 {
        return Err(ApiError::field("code", FieldCode::Taken));
    }
    sqlx::query(
        "INSERT INTO promo_codes (code_key, code, campaign_id, status, max_uses, uses, created_at) VALUES ($1, $2, $3, 'active', $4, 0, $5)",
    )
    .bind(&key)
    .bind(code)
    .bind(input.campaign_id)
    .bind(input.max_uses)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    let shown = code.to_uppercase();
    let row = trail::Row {
        after: Some(json!({ "code": shown, "campaign_id": input.campaign_id, "max_uses": input.max_uses })),
        ..trail::Row::by(by).on("promo_codes.create", "promo_code", &shown)
    };
    trail::write(&mut *tx, &row).await?;
    tx.commit().await?;
    Ok(shown)
}

async fn create_code(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let input: CodeInput = body(&bytes)?;
        Ok(json!({ "code": create_promo_code(&state, &trail::Actor::from(&staff), &input).await? }))
    }
    .await;
    trail::audited(answer(result))
}

/// Pauses or resumes a promo code; answers its status. `by`'s audit row (`promo_codes.status`,
/// the status before and after) is written with the change.
pub async fn set_code_status(
    state: &AppState,
    by: &trail::Actor,
    code: &str,
    action: &str,
) -> Result<String, ApiError> {
    let to = match action {
        "pause" => "paused",
        "resume" => "active",
        _ => return Err(ApiError::field("action", FieldCode::Unsupported)),
    };
    let key = super::campaigns::code_key(code);
    let mut tx = state.db().begin().await?;
    let status: Option<String> = sqlx::query_scalar("SELECT status FROM promo_codes WHERE code_key = $1")
        .bind(&key)
        .fetch_optional(&mut *tx)
        .await?;
    let status = status.ok_or_else(|| ApiError::field("code", FieldCode::NotFound))?;
    // Pausing a paused code (or resuming an active one) changes nothing and writes no row.
    if status == to {
        return Ok(status);
    }
    sqlx::query("UPDATE promo_codes SET status = $1 WHERE code_key = $2").bind(to).bind(&key).execute(&mut *tx).await?;
    let shown = code.trim().to_uppercase();
    let row = trail::Row {
        before: Some(json!({ "status": status })),
        after: Some(json!({ "status": to })),
        ..trail::Row::by(by).on("promo_codes.status", "promo_code", &shown)
    };
    trail::write(&mut *tx, &row).await?;
    tx.commit().await?;
    Ok(to.to_owned())
}

async fn code_status(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path((code, action)): Path<(String, String)>,
) -> Response {
    let result = set_code_status(&state, &trail::Actor::from(&staff), &code, &action).await;
    trail::audited(answer(result.map(|to| json!({ "code": code.trim().to_uppercase(), "status": to }))))
}

// ---------------------------------------------------------------------------------------------
// A player's bonus, by hand.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrantInput {
    pub user_id: i64,
    pub campaign_id: i64,
    pub reason: String,
}

pub(crate) fn check_reason(reason: &str) -> Result<(), ApiError> {
    if reason.trim().is_empty() {
        return Err(ApiError::field("reason", FieldCode::Required));
    }
    if reason.chars().count() > 500 {
        return Err(ApiError::field_with("reason", FieldCode::MaxLength, vec![("max", "500".into())]));
    }
    Ok(())
}

/// Grants a player a bonus of a campaign by hand (any trigger; a player may get several this
/// way): one that needs a deposit waits for it, any other is credited now (or offered when the
/// player is at the active-bonus limit). Answers the bonus's id.
///
/// `by`'s audit row (`bonuses.grant`, with the operator's reason) is written in the grant's own
/// transaction: the money and its trail commit together.
pub async fn grant(state: &AppState, by: &trail::Actor, input: &GrantInput) -> Result<i64, ApiError> {
    check_reason(&input.reason)?;
    let (rules, input_user, campaign_id) = (Rules::of(state), input.user_id, input.campaign_id);
    let change = ByOperator::new(by, &input.reason);
    let db = state.db().clone();
    state
        .db()
        .group(
            input_user,
            job(move |conn| {
                let (db, change, rules) = (db.clone(), std::sync::Arc::clone(&change), rules);
                Box::pin(async move {
                    db.lock_user(conn, input_user).await?;
                    let claim = format!("manual:{}", uuid::Uuid::new_v4());
                    let bonus = grant_in(conn, &rules, input_user, campaign_id, &claim, &change.event_reason).await?;
                    let after = json!({ "bonus_id": bonus, "campaign_id": campaign_id });
                    change.audit(conn, "bonuses.grant", bonus, input_user, None, after).await?;
                    Ok(bonus)
                })
            }),
        )
        .await
}

/// An operator's change of a player's bonus (a grant, a cancel): who, their reason, and the
/// reason as the bonus's events keep it (`operator: …`).
struct ByOperator {
    by: trail::Actor,
    why: String,
    event_reason: String,
}

impl ByOperator {
    fn new(by: &trail::Actor, reason: &str) -> std::sync::Arc<ByOperator> {
        let why = reason.trim().to_owned();
        std::sync::Arc::new(ByOperator { by: by.clone(), event_reason: format!("operator: {why}"), why })
    }

    /// The change's audit row, written in its own transaction (`conn`).
    async fn audit(
        &self,
        conn: &mut sqlx::AnyConnection,
        action: &str,
        bonus_id: i64,
        user_id: i64,
        before: Option<serde_json::Value>,
        after: serde_json::Value,
    ) -> Result<(), ApiError> {
        let target = bonus_id.to_string();
        let row = trail::Row {
            user_id: Some(user_id),
            reason: Some(&self.why),
            before,
            after: Some(after),
            ..trail::Row::by(&self.by).on(action, "bonus", &target)
        };
        trail::write(conn, &row).await
    }
}

/// Grants `user_id` a bonus of `campaign_id` under `claim` (unique: the same claim grants once),
/// inside the caller's transaction, with the player's row already locked: one that needs a
/// deposit waits for it, any other is credited now (or offered when the player is at the
/// active-bonus limit). Operators' grants, loyalty levels and the loyalty shop use it.
pub async fn grant_in(
    conn: &mut sqlx::AnyConnection,
    rules: &Rules,
    user_id: i64,
    campaign_id: i64,
    claim: &str,
    reason: &str,
) -> Result<i64, ApiError> {
    let player = campaigns::player(conn, user_id)
        .await?
        .filter(|p| p.status == "active")
        .ok_or_else(|| ApiError::field("user_id", FieldCode::NotFound))?;
    let campaign = campaigns::load(conn, campaign_id)
        .await?
        .filter(|c| c.status != "ended")
        .ok_or_else(|| ApiError::field("campaign_id", FieldCode::NotFound))?;
    let currency = player
        .currency
        .as_deref()
        .and_then(Currency::parse)
        .ok_or_else(|| ApiError::field("user_id", FieldCode::Invalid))?;
    let amounts = campaigns::amounts(conn, campaign.id, currency)
        .await?
        .ok_or_else(|| ApiError::field("campaign_id", FieldCode::PromoNotEligible))?;
    let status = if campaign.needs_deposit() { "active" } else { "offered" };
    let bonus = campaigns::create_bonus(conn, &campaign, &amounts, user_id, claim, status, reason, Actor::Operator)
        .await
        .map_err(super::methods::refusal)?;
    if !campaign.needs_deposit() {
        match engine::credit(conn, rules, &bonus, None, Actor::Operator, reason).await {
            Ok(_) | Err(BonusError::ActiveLimit(_)) => {}
            Err(e) => return Err(super::methods::refusal(e)),
        }
    }
    Ok(bonus.id)
}

/// Cancels a player's bonus by hand: unpaid, whatever it holds goes back to the house. `by`'s
/// audit row (`bonuses.cancel`) is written in the same transaction.
pub async fn cancel(state: &AppState, by: &trail::Actor, bonus_id: i64, reason: &str) -> Result<String, ApiError> {
    check_reason(reason)?;
    let user_id: Option<i64> = sqlx::query_scalar("SELECT user_id FROM player_bonuses WHERE id = $1")
        .bind(bonus_id)
        .fetch_optional(state.db().pool())
        .await?;
    let user_id = user_id.ok_or_else(|| ApiError::field("bonus_id", FieldCode::NotFound))?;
    let change = ByOperator::new(by, reason);
    let db = state.db().clone();
    state
        .db()
        .group(
            user_id,
            job(move |conn| {
                let (db, change) = (db.clone(), std::sync::Arc::clone(&change));
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    let bonus = engine::load(conn, bonus_id)
                        .await?
                        .ok_or_else(|| ApiError::field("bonus_id", FieldCode::NotFound))?;
                    let to = if bonus.status == "wagering" { "forfeited" } else { "cancelled" };
                    engine::forfeit(conn, &bonus, to, &change.event_reason, Actor::Operator)
                        .await
                        .map_err(super::methods::refusal)?;
                    let before = Some(json!({ "status": bonus.status }));
                    change.audit(conn, "bonuses.cancel", bonus_id, user_id, before, json!({ "status": to })).await?;
                    Ok(to.to_owned())
                })
            }),
        )
        .await
}

async fn grant_bonus(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let input: GrantInput = body(&bytes)?;
        Ok(json!({ "id": grant(&state, &trail::Actor::from(&staff), &input).await? }))
    }
    .await;
    // The grant wrote its own audit row in its transaction.
    trail::audited(answer(result))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CancelInput {
    reason: String,
}

async fn cancel_bonus(
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
    // The cancel wrote its own audit row in its transaction.
    trail::audited(answer(result))
}

// ---------------------------------------------------------------------------------------------
// Free-spin packs.

/// `POST /admin/freespins`: gives a player a pack. Its wins go to the main balance; with
/// `win_account` `bonus` the pack is a bonus's (a manual freespins bonus whose wins must be
/// wagered `wager_multiplier` times, 0 by default), as every bonus-balance money is.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrantRequest {
    pub user_id: i64,
    /// A house game's sysname (not mines: its rounds have several steps).
    pub game: String,
    pub currency: String,
    /// The fixed bet of each spin, in minor units.
    pub bet: i64,
    pub count: i64,
    /// `main` (default) or `bonus`.
    #[serde(default)]
    pub win_account: Option<String>,
    /// Days the pack can be used, 1 to 365 (default 7).
    #[serde(default)]
    pub valid_days: Option<i64>,
    #[serde(default)]
    pub wager_multiplier: Option<i64>,
}

impl GrantRequest {
    /// Checks every part, then grants; answers the pack's id. The grant writes its audit row
    /// (`freespins.grant`, by `by`: the pack as granted) in its own transaction.
    pub async fn grant(&self, state: &AppState, by: &trail::Actor) -> Result<i64, ApiError> {
        let currency =
            Currency::parse(&self.currency).ok_or_else(|| ApiError::field("currency", FieldCode::Unsupported))?;
        let bonus = match self.win_account.as_deref() {
            None | Some("main") => false,
            Some("bonus") => true,
            Some(_) => return Err(ApiError::field("win_account", FieldCode::Unsupported)),
        };
        let days = self.valid_days.unwrap_or(7);
        if !(1..=365).contains(&days) {
            return Err(ApiError::field_with("valid_days", FieldCode::MaxValue, vec![("max", "365".into())]));
        }
        let multiplier = self.wager_multiplier.unwrap_or(0);
        if !(0..=200).contains(&multiplier) {
            return Err(ApiError::field_with("wager_multiplier", FieldCode::MaxValue, vec![("max", "200".into())]));
        }
        if !bonus {
            let mut tx = state.db().begin().await?;
            let (user_id, valid) = (self.user_id, days * engine::DAY_MS);
            let id =
                freespins::grant_in(&mut tx, user_id, &self.game, currency, self.bet, self.count, None, valid).await?;
            self.audit(&mut tx, by, id, None).await?;
            tx.commit().await?;
            return Ok(id);
        }
        if bet_or_count_bad(self.bet, self.count) {
            return Err(if self.bet <= 0 {
                ApiError::field_with("bet", FieldCode::MinValue, vec![("min", "1".into())])
            } else {
                ApiError::field_with("count", FieldCode::MaxValue, vec![("max", freespins::MAX_PACK.to_string())])
            });
        }
        let (user_id, bet, count) = (self.user_id, self.bet, self.count);
        // A bonus of free spins only: the player's active-bonus limit does not hold it back.
        let rules = Rules { max_active: i64::MAX, ..Rules::of(state) };
        let db = state.db().clone();
        // The job may run again (its batch retried): it owns the request and the operator.
        let (request, by) = (std::sync::Arc::new(self.clone()), std::sync::Arc::new(by.clone()));
        state
            .db()
            .group(
                user_id,
                job(move |conn| {
                    let (db, request, by) = (db.clone(), request.clone(), by.clone());
                    Box::pin(async move {
                        let game = &request.game;
                        db.lock_user(conn, user_id).await?;
                        let player = campaigns::player(conn, user_id)
                            .await?
                            .ok_or_else(|| ApiError::field("user_id", FieldCode::NotFound))?;
                        if player.status != "active" {
                            return Err(ApiError::field("user_id", FieldCode::Invalid));
                        }
                        if player.currency.as_deref().is_some_and(|c| c != currency.code()) {
                            return Err(ApiError::field("currency", FieldCode::Invalid));
                        }
                        let now = now_ms();
                        let claim = format!("manual:{}", uuid::Uuid::new_v4());
                        let (title_en, title_fr) = ("Free spins".to_owned(), "Tours gratuits".to_owned());
                        let (text_en, text_fr) =
                            (format!("{count} free spins of {game}."), format!("{count} tours gratuits de {game}."));
                        let id: i64 = sqlx::query_scalar(
                            "INSERT INTO player_bonuses (user_id, claim_key, currency, status, reward, wager_multiplier, games, \
                             freespin_game, freespin_count, freespin_bet, wager_days, title_en, title_fr, text_en, text_fr, created_at) \
                             VALUES ($1, $2, $3, 'offered', 'freespins', $4, $5, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
                        )
                        .bind(user_id)
                        .bind(&claim)
                        .bind(currency.code())
                        .bind(multiplier)
                        .bind(game)
                        .bind(count)
                        .bind(bet)
                        .bind(days)
                        .bind(&title_en)
                        .bind(&title_fr)
                        .bind(&text_en)
                        .bind(&text_fr)
                        .bind(now)
                        .fetch_one(&mut *conn)
                        .await?;
                        engine::event(conn, id, None, "offered", "operator: free spins", Actor::Operator, 0).await?;
                        let bonus = engine::load(conn, id).await?.ok_or_else(|| ApiError::field("user_id", FieldCode::NotFound))?;
                        let credited = engine::credit(conn, &rules, &bonus, None, Actor::Operator, "operator: free spins")
                            .await
                            .map_err(|e| match e {
                                BonusError::Internal(_) => ApiError::field("game", FieldCode::NotFound),
                                other => super::methods::refusal(other),
                            })?;
                        let pack = credited.freespin_pack_id.ok_or_else(|| ApiError::field("game", FieldCode::NotFound))?;
                        request.audit(conn, &by, pack, Some(id)).await?;
                        Ok(pack)
                    })
                }),
            )
            .await
    }

    /// The grant's audit row in its transaction: the player, the pack made (`pack`) and, for a
    /// pack that pays into a bonus, that bonus (`bonus`), with the request as given.
    async fn audit(
        &self,
        conn: &mut sqlx::AnyConnection,
        by: &trail::Actor,
        pack: i64,
        bonus: Option<i64>,
    ) -> Result<(), ApiError> {
        let target = self.user_id.to_string();
        let row = trail::Row {
            user_id: Some(self.user_id),
            after: Some(json!({
                "pack_id": pack,
                "bonus_id": bonus,
                "game": self.game,
                "count": self.count,
                "bet": self.bet,
                "currency": self.currency,
                "win_account": if bonus.is_some() { "bonus" } else { "main" },
                "valid_days": self.valid_days.unwrap_or(7),
                "wager_multiplier": self.wager_multiplier.unwrap_or(0),
            })),
            ..trail::Row::by(by).on("freespins.grant", "player", &target)
        };
        trail::write(conn, &row).await
    }
}

fn bet_or_count_bad(bet: i64, count: i64) -> bool {
    bet <= 0 || !(1..=freespins::MAX_PACK).contains(&count)
}

async fn admin_grant_freespins(State(state): State<AppState>, _: Operator, staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        let request: GrantRequest = body(&bytes)?;
        Ok(json!({ "id": request.grant(&state, &trail::Actor::from(&staff)).await? }))
    }
    .await;
    trail::audited(answer(result))
}
