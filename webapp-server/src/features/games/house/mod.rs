//! The house provider: Croupier's own provably-fair games, played through the same wallet code
//! (`wallet::bet` and `wallet::win`) an external aggregator's calls run. A round is one database
//! transaction: the seed's nonce advances, the bet is taken, the outcome derived, the win paid
//! and the round recorded together.

pub mod dice;
pub mod fair;
mod page;

use super::wallet::{self, WalletError, WalletRequest};
use crate::db::now_ms;
use crate::state::AppState;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use croupier_shared::{Currency, Money};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::AnyConnection;

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/games/house/{sysname}", get(page::game_page))
        .route("/games/house/{sysname}/tile.svg", get(page::tile))
        .route("/games/house/{sysname}/round", post(round))
        .route("/games/house/assets/{file}", get(page::asset))
        .route("/games/house/fairness", get(seeds).post(change_seeds))
        .route("/games/house/verify", get(verify))
        .route("/games/house/history", get(history))
}

/// Bets per round, in major units of any currency (a tenth of a unit to a hundred units).
fn bet_bounds(currency: Currency) -> (i64, i64) {
    let scale = 10_i64.pow(u32::from(currency.exponent()));
    ((scale / 10).max(1), 100 * scale)
}

/// The largest win of one round, in major units.
pub const MAX_WIN_MAJOR: i64 = 5_000;

fn refuse(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({ "error": code, "message": message }))).into_response()
}

#[derive(sqlx::FromRow)]
struct Seed {
    id: i64,
    server_seed: String,
    server_seed_hash: String,
    client_seed: String,
    nonce: i64,
}

async fn active_seed(conn: &mut AnyConnection, user_id: i64) -> Result<Seed, sqlx::Error> {
    let found: Option<Seed> = sqlx::query_as(
        "SELECT id, server_seed, server_seed_hash, client_seed, nonce FROM fairness_seeds WHERE user_id = $1 AND active = 1 ORDER BY id DESC LIMIT 1",
    )
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(seed) = found {
        return Ok(seed);
    }
    let server_seed = fair::new_server_seed();
    let hash = fair::hash_seed(&server_seed);
    let client_seed = fair::new_client_seed();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO fairness_seeds (user_id, server_seed, server_seed_hash, client_seed, nonce, active, created_at) VALUES ($1, $2, $3, $4, 0, 1, $5) RETURNING id",
    )
    .bind(user_id)
    .bind(&server_seed)
    .bind(&hash)
    .bind(&client_seed)
    .bind(now_ms())
    .fetch_one(&mut *conn)
    .await?;
    Ok(Seed { id, server_seed, server_seed_hash: hash, client_seed, nonce: 0 })
}

#[derive(Deserialize)]
pub struct RoundRequest {
    token: String,
    /// Decimal amount in the session's currency.
    bet: String,
    #[serde(flatten)]
    params: Value,
}

/// `POST /games/house/{sysname}/round`.
pub async fn round(
    State(state): State<AppState>,
    Path(sysname): Path<String>,
    Json(request): Json<RoundRequest>,
) -> Response {
    match play(&state, &sysname, &request).await {
        Ok(answer) => Json(answer).into_response(),
        Err(response) => response,
    }
}

async fn play(state: &AppState, sysname: &str, request: &RoundRequest) -> Result<Value, Response> {
    let internal = |e: &dyn std::fmt::Display| {
        tracing::error!(error = %e, "house round failed");
        refuse(StatusCode::INTERNAL_SERVER_ERROR, "internal", "Something went wrong.")
    };
    let db = state.db();
    let mut tx = db.begin().await.map_err(|e| internal(&e))?;
    let session = wallet::find_session(&mut tx, &request.token).await.map_err(|e| internal(&e))?;
    let Some(session) = session.filter(|s| s.sysname == sysname && s.provider == "house") else {
        return Err(refuse(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "This game session is not valid. Open the game again.",
        ));
    };
    if session.expires_at < now_ms() {
        return Err(refuse(
            StatusCode::UNAUTHORIZED,
            "token_expired",
            "This game session has expired. Open the game again.",
        ));
    }
    let currency = Currency::parse(&session.currency).ok_or_else(|| internal(&"bad currency"))?;
    let bet = Money::parse_major(request.bet.trim(), currency)
        .map_err(|_| refuse(StatusCode::UNPROCESSABLE_ENTITY, "invalid_bet", "The bet is not an amount."))?;
    let (min, max) = bet_bounds(currency);
    if bet.minor() < min || bet.minor() > max {
        return Err(refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bet_limits",
            &format!(
                "Bets go from {} to {} {currency}.",
                Money::from_minor(min, currency).to_decimal_string(),
                Money::from_minor(max, currency).to_decimal_string()
            ),
        ));
    }
    let (multiplier_e4, mut outcome, seed, nonce) = match sysname {
        "dice" => {
            let params = dice::Params::parse(&request.params).ok_or_else(|| {
                refuse(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "invalid_params",
                    "Choose a target from 2.00 to 98.00, under or over.",
                )
            })?;
            db.lock_user(&mut tx, session.user_id).await.map_err(|e| internal(&e))?;
            let seed = active_seed(&mut tx, session.user_id).await.map_err(|e| internal(&e))?;
            let nonce = seed.nonce + 1;
            let f = fair::floats(&seed.server_seed, &seed.client_seed, nonce, 1)[0];
            let (m, outcome) = dice::play(params, f);
            (m, outcome, seed, nonce)
        }
        _ => return Err(refuse(StatusCode::NOT_FOUND, "unknown_game", "This game does not exist.")),
    };
    sqlx::query("UPDATE fairness_seeds SET nonce = $1 WHERE id = $2")
        .bind(nonce)
        .bind(seed.id)
        .execute(&mut *tx)
        .await
        .map_err(|e| internal(&e))?;
    let win = (i128::from(bet.minor()) * i128::from(multiplier_e4) / 10_000)
        .min(i128::from(MAX_WIN_MAJOR) * i128::from(10_i64.pow(u32::from(currency.exponent()))));
    let win = i64::try_from(win).unwrap_or(i64::MAX);
    let round_id = uuid::Uuid::new_v4().to_string();
    let base = WalletRequest {
        request_uuid: round_id.clone(),
        transaction_uuid: format!("{round_id}:bet"),
        reference_transaction_uuid: None,
        round: round_id.clone(),
        round_closed: false,
        user: session.user_id.to_string(),
        token: request.token.clone(),
        game_code: sysname.to_owned(),
        currency: currency.code().to_owned(),
        amount: bet.minor(),
    };
    match wallet::bet(&mut tx, "house", &base).await {
        Ok(_) => {}
        Err(WalletError::Status("RS_ERROR_NOT_ENOUGH_MONEY")) => {
            return Err(refuse(StatusCode::PAYMENT_REQUIRED, "not_enough_money", "Not enough money for this bet."));
        }
        Err(WalletError::Status(status)) => return Err(refuse(StatusCode::CONFLICT, status, "The bet was refused.")),
        Err(WalletError::Db(e)) => return Err(internal(&e)),
    }
    let win_request = WalletRequest {
        transaction_uuid: format!("{round_id}:win"),
        reference_transaction_uuid: Some(format!("{round_id}:bet")),
        round_closed: true,
        amount: win,
        ..base
    };
    let settled = match wallet::win(&mut tx, "house", &win_request).await {
        Ok(r) => r,
        Err(WalletError::Status(status)) => {
            return Err(refuse(StatusCode::CONFLICT, status, "The round could not be settled."));
        }
        Err(WalletError::Db(e)) => return Err(internal(&e)),
    };
    let game_round: i64 = sqlx::query_scalar("SELECT id FROM game_rounds WHERE provider = 'house' AND round = $1")
        .bind(&round_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| internal(&e))?;
    sqlx::query("INSERT INTO house_rounds (round_id, seed_id, nonce, params, outcome) VALUES ($1, $2, $3, $4, $5)")
        .bind(game_round)
        .bind(seed.id)
        .bind(nonce)
        .bind(request.params.to_string())
        .bind(outcome.to_string())
        .execute(&mut *tx)
        .await
        .map_err(|e| internal(&e))?;
    tx.commit().await.map_err(|e| internal(&e))?;
    outcome["nonce"] = json!(nonce);
    Ok(json!({
        "round": round_id,
        "outcome": outcome,
        "bet": bet.to_decimal_string(),
        "win": Money::from_minor(win, currency).to_decimal_string(),
        "balance": Money::from_minor(settled.balance.unwrap_or(0), currency).to_decimal_string(),
        "currency": currency.code(),
        "server_seed_hash": seed.server_seed_hash,
        "client_seed": seed.client_seed,
        "nonce": nonce,
    }))
}

#[derive(Deserialize)]
pub struct TokenQuery {
    token: String,
}

async fn user_of(state: &AppState, token: &str) -> Result<i64, Response> {
    let mut conn = state
        .db()
        .pool()
        .acquire()
        .await
        .map_err(|_| refuse(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "Try again."))?;
    match wallet::find_session(&mut conn, token).await {
        Ok(Some(s)) if s.provider == "house" => Ok(s.user_id),
        _ => Err(refuse(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "This game session is not valid. Open the game again.",
        )),
    }
}

/// `GET /games/house/fairness?token=`: the hash of the server seed in use, the client seed and
/// the nonce of the last round.
pub async fn seeds(State(state): State<AppState>, Query(q): Query<TokenQuery>) -> Response {
    let user_id = match user_of(&state, &q.token).await {
        Ok(id) => id,
        Err(r) => return r,
    };
    let result = async {
        let mut tx = state.db().begin().await?;
        let seed = active_seed(&mut tx, user_id).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(seed)
    }
    .await;
    match result {
        Ok(seed) => Json(
            json!({ "server_seed_hash": seed.server_seed_hash, "client_seed": seed.client_seed, "nonce": seed.nonce }),
        )
        .into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "internal", &e.to_string()),
    }
}

#[derive(Deserialize)]
pub struct SeedChange {
    token: String,
    /// A new client seed (1–64 letters and digits); the server seed rotates with it.
    client_seed: Option<String>,
}

/// `POST /games/house/fairness`: rotates the seed pair, revealing the old server seed.
pub async fn change_seeds(State(state): State<AppState>, Json(change): Json<SeedChange>) -> Response {
    let user_id = match user_of(&state, &change.token).await {
        Ok(id) => id,
        Err(r) => return r,
    };
    let client_seed = change.client_seed.clone().filter(|c| !c.is_empty()).unwrap_or_else(fair::new_client_seed);
    if client_seed.len() > 64 || !client_seed.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_client_seed",
            "A client seed is 1 to 64 letters and digits.",
        );
    }
    let result = async {
        let db = state.db();
        let mut tx = db.begin().await?;
        db.lock_user(&mut tx, user_id).await?;
        let old = active_seed(&mut tx, user_id).await?;
        sqlx::query("UPDATE fairness_seeds SET active = 0, revealed_at = $1 WHERE id = $2").bind(now_ms()).bind(old.id).execute(&mut *tx).await?;
        let server_seed = fair::new_server_seed();
        let hash = fair::hash_seed(&server_seed);
        sqlx::query(
            "INSERT INTO fairness_seeds (user_id, server_seed, server_seed_hash, client_seed, nonce, active, created_at) VALUES ($1, $2, $3, $4, 0, 1, $5)",
        )
        .bind(user_id)
        .bind(&server_seed)
        .bind(&hash)
        .bind(&client_seed)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>((old, hash))
    }
    .await;
    match result {
        Ok((old, hash)) => Json(json!({
            "previous": { "server_seed": old.server_seed, "server_seed_hash": old.server_seed_hash, "client_seed": old.client_seed, "nonce": old.nonce },
            "current": { "server_seed_hash": hash, "client_seed": client_seed, "nonce": 0 },
        }))
        .into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "internal", &e.to_string()),
    }
}

#[derive(Deserialize)]
pub struct VerifyQuery {
    game: String,
    server_seed: String,
    client_seed: String,
    nonce: i64,
    #[serde(flatten)]
    params: std::collections::HashMap<String, String>,
}

/// `GET /games/house/verify`: re-derives a round from revealed seeds — anyone can check.
pub async fn verify(Query(q): Query<VerifyQuery>) -> Response {
    match q.game.as_str() {
        "dice" => {
            let params = serde_json::to_value(&q.params).unwrap_or(Value::Null);
            let Some(params) = dice::Params::parse(&params) else {
                return refuse(StatusCode::UNPROCESSABLE_ENTITY, "invalid_params", "target and condition are needed.");
            };
            let f = fair::floats(&q.server_seed, &q.client_seed, q.nonce, 1)[0];
            let (_, outcome) = dice::play(params, f);
            Json(json!({ "server_seed_hash": fair::hash_seed(&q.server_seed), "nonce": q.nonce, "outcome": outcome }))
                .into_response()
        }
        _ => refuse(StatusCode::NOT_FOUND, "unknown_game", "This game does not exist."),
    }
}

#[derive(sqlx::FromRow)]
struct HistoryRow {
    round: String,
    game: String,
    bet: i64,
    win: i64,
    currency: String,
    nonce: i64,
    outcome: String,
    hash: String,
    seed: Option<String>,
    client: String,
    at: i64,
}

/// `GET /games/house/history?token=`: the player's last rounds of house games, with the seed
/// hash and nonce of each, and the server seed once it has been revealed.
pub async fn history(State(state): State<AppState>, Query(q): Query<TokenQuery>) -> Response {
    let user_id = match user_of(&state, &q.token).await {
        Ok(id) => id,
        Err(r) => return r,
    };
    let rows: Result<Vec<HistoryRow>, _> = sqlx::query_as(
        "SELECT r.round, g.sysname AS game, r.bet, r.win, r.currency, h.nonce, h.outcome, s.server_seed_hash AS hash, \
         CASE WHEN s.revealed_at IS NULL THEN NULL ELSE s.server_seed END AS seed, s.client_seed AS client, r.created_at AS at \
         FROM game_rounds r JOIN house_rounds h ON h.round_id = r.id JOIN fairness_seeds s ON s.id = h.seed_id JOIN games g ON g.id = r.game_id \
         WHERE r.user_id = $1 ORDER BY r.id DESC LIMIT 20",
    )
    .bind(user_id)
    .fetch_all(state.db().pool())
    .await;
    match rows {
        Ok(rows) => Json(json!({ "items": rows.into_iter().map(|HistoryRow { round, game, bet, win, currency, nonce, outcome, hash, seed, client, at }| {
            let c = Currency::parse(&currency);
            let money = |m: i64| c.map_or_else(|| m.to_string(), |c| Money::from_minor(m, c).to_decimal_string());
            json!({ "round": round, "game": game, "bet": money(bet), "win": money(win), "currency": currency, "nonce": nonce,
                    "outcome": serde_json::from_str::<Value>(&outcome).unwrap_or(Value::Null), "server_seed_hash": hash,
                    "server_seed": seed, "client_seed": client, "created_at": at / 1000 })
        }).collect::<Vec<_>>() }))
        .into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "internal", &e.to_string()),
    }
}
