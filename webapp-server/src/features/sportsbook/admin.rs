//! The operators' sportsbook API (issue 20 "Operators"), for the automation token
//! (`Authorization: Bearer …`) and, mounted again under `/backoffice/api/admin/sportsbook/…`, for
//! operators with `sportsbook.manage` (`features::backoffice_routes`):
//!
//! - `GET /admin/sportsbook/markets` — `sport`, `event_id`, `state` (active, suspended, settled,
//!   cancelled, open, all; default: open and held), `held` (true/false), `offset`, `count`
//!   (≤ 1000): `{items, total}`, largest liability first ([`operations::markets`]).
//! - `GET /admin/sportsbook/markets/{id}` — one market, its selections with their liability.
//! - `POST /admin/sportsbook/markets/{id}/{action}` — `suspend`, `reopen`, `void` `{reason}`;
//!   `settle`, `resettle` `{reason, results: [{selection, result, dead_heat?}]}`
//!   ([`operations::act`]).
//! - `GET /admin/sportsbook/limits` — `{sports, players}`.
//! - `PUT /admin/sportsbook/limits/sports/{sport}` — `{currency, min_stake?, max_stake?,
//!   max_payout?, reason}` (minor units; none: removed).
//! - `PUT /admin/sportsbook/limits/players/{user_id}` — `{stake_factor_bp?, max_stake?, blocked,
//!   reason}`.
//! - `GET /admin/sportsbook/provider-bets` — the bets placed at external sportsbook providers,
//!   read-only, newest first: `provider`, `user_id`, `status` (open, settled, won, lost, void,
//!   cancelled, all), `offset`, `count` (≤ 500, default 50): `{items, total}`, amounts in minor
//!   units with each selection's result ([`provider::admin_bets`]).
//!
//! Answers are the project's envelope; bad input is a field error, a state conflict a 409. Every
//! change is audited with the caller's identity (the operator under the back office, else the
//! automation token) in its own transaction.

use super::limits::{self, PlayerLimitsInput, SportLimitsInput};
use super::operations::{self, Action, Actor, MarketFilter, ResultInput};
use super::provider::{self, AdminBetsFilter};
use crate::AppState;
use crate::api::{ApiError, Operator};
use crate::features::backoffice::{Staff, trail};
use crate::features::bonuses::admin::{answer, body};
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::response::Response;
use croupier_shared::FieldCode;
use serde::Deserialize;

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post, put};
    axum::Router::new()
        .route("/admin/sportsbook/markets", get(markets_route))
        .route("/admin/sportsbook/markets/{id}", get(market_route))
        .route("/admin/sportsbook/markets/{id}/{action}", post(act_route))
        .route("/admin/sportsbook/limits", get(limits_route))
        .route("/admin/sportsbook/limits/sports/{sport}", put(sport_limits_route))
        .route("/admin/sportsbook/limits/players/{user_id}", put(player_limits_route))
        .route("/admin/sportsbook/provider-bets", get(provider_bets_route))
}

/// The listing's query, as text: a bad number is a field error, not a bare 400.
#[derive(Debug, Default, Deserialize)]
struct ListQuery {
    sport: Option<String>,
    event_id: Option<String>,
    state: Option<String>,
    held: Option<String>,
    offset: Option<String>,
    count: Option<String>,
}

impl ListQuery {
    fn filter(&self) -> Result<MarketFilter, ApiError> {
        let number = |field: &str, text: &Option<String>| -> Result<Option<i64>, ApiError> {
            text.as_deref()
                .filter(|t| !t.is_empty())
                .map(|t| t.parse::<i64>().map_err(|_| ApiError::field(field, FieldCode::Invalid)))
                .transpose()
        };
        let held = match self.held.as_deref() {
            None | Some("") => None,
            Some("true" | "1") => Some(true),
            Some("false" | "0") => Some(false),
            Some(_) => return Err(ApiError::field("held", FieldCode::Invalid)),
        };
        Ok(MarketFilter {
            sport: self.sport.clone().filter(|s| !s.is_empty()),
            event_id: number("event_id", &self.event_id)?,
            state: self.state.clone().filter(|s| !s.is_empty()),
            held,
            offset: number("offset", &self.offset)?,
            count: number("count", &self.count)?,
        })
    }
}

fn id_of(text: &str, field: &str) -> Result<i64, ApiError> {
    text.parse::<i64>().ok().filter(|id| *id > 0).ok_or_else(|| ApiError::field(field, FieldCode::Invalid))
}

async fn markets_route(State(state): State<AppState>, _: Operator, RawQuery(query): RawQuery) -> Response {
    let result = async {
        let query: ListQuery = serde_html_form::from_str(query.as_deref().unwrap_or(""))
            .map_err(|_| ApiError::field("query", FieldCode::Invalid))?;
        operations::markets(&state, &query.filter()?).await
    }
    .await;
    answer(result)
}

async fn market_route(State(state): State<AppState>, _: Operator, Path(id): Path<String>) -> Response {
    answer(async { operations::market(&state, id_of(&id, "market_id")?).await }.await)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActInput {
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    results: Option<Vec<ResultInput>>,
}

async fn act_route(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path((id, action)): Path<(String, String)>,
    bytes: Bytes,
) -> Response {
    let result = async {
        let id = id_of(&id, "market_id")?;
        let input: ActInput = body(&bytes)?;
        let results = || input.results.clone().ok_or_else(|| ApiError::field("results", FieldCode::Required));
        let action = match action.as_str() {
            "suspend" => Action::Suspend,
            "reopen" => Action::Reopen,
            "void" => Action::Void,
            "settle" => Action::Settle(results()?),
            "resettle" => Action::Resettle(results()?),
            _ => return Err(ApiError::field("action", FieldCode::Unsupported)),
        };
        if !matches!(action, Action::Settle(_) | Action::Resettle(_)) && input.results.is_some() {
            return Err(ApiError::field("results", FieldCode::Unsupported));
        }
        operations::act(&state, &Actor::from(&staff), id, action, input.reason.as_deref()).await
    }
    .await;
    // The change wrote its own audit row in its transaction.
    trail::audited(answer(result))
}

async fn limits_route(State(state): State<AppState>, _: Operator) -> Response {
    answer(limits::list(&state).await)
}

async fn sport_limits_route(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path(sport): Path<String>,
    bytes: Bytes,
) -> Response {
    let result = async {
        let input: SportLimitsInput = body(&bytes)?;
        limits::set_sport(&state, &Actor::from(&staff), &sport, &input).await
    }
    .await;
    // The change wrote its own audit row in its transaction.
    trail::audited(answer(result))
}

async fn player_limits_route(
    State(state): State<AppState>,
    _: Operator,
    staff: Staff,
    Path(user_id): Path<String>,
    bytes: Bytes,
) -> Response {
    let result = async {
        let user_id = id_of(&user_id, "user_id")?;
        let input: PlayerLimitsInput = body(&bytes)?;
        limits::set_player(&state, &Actor::from(&staff), user_id, &input).await
    }
    .await;
    // The change wrote its own audit row in its transaction.
    trail::audited(answer(result))
}

/// The provider bets' listing's query, as text: a bad number is a field error, not a bare 400.
#[derive(Debug, Default, Deserialize)]
struct ProviderBetsQuery {
    provider: Option<String>,
    user_id: Option<String>,
    status: Option<String>,
    offset: Option<String>,
    count: Option<String>,
}

async fn provider_bets_route(State(state): State<AppState>, _: Operator, RawQuery(query): RawQuery) -> Response {
    let result = async {
        let query: ProviderBetsQuery = serde_html_form::from_str(query.as_deref().unwrap_or(""))
            .map_err(|_| ApiError::field("query", FieldCode::Invalid))?;
        let number = |field: &str, text: &Option<String>| -> Result<Option<i64>, ApiError> {
            text.as_deref()
                .filter(|t| !t.is_empty())
                .map(|t| t.trim().parse::<i64>().map_err(|_| ApiError::field(field, FieldCode::Invalid)))
                .transpose()
        };
        let text = |value: &Option<String>| value.clone().filter(|v| !v.is_empty());
        let filter = AdminBetsFilter {
            provider: text(&query.provider),
            user_id: number("user_id", &query.user_id)?,
            status: text(&query.status),
            offset: number("offset", &query.offset)?,
            count: number("count", &query.count)?,
        };
        provider::admin_bets(&state, &filter).await
    }
    .await;
    answer(result)
}
