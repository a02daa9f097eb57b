//! The house provider: Croupier's own provably-fair games, played through the same wallet code
//! (`wallet::bet` and `wallet::win`) an external aggregator's calls run. A round is one database
//! transaction: the seed's nonce advances, the bet is taken, the outcome derived, the win paid
//! and the round recorded together.

pub mod classic;
pub mod dice;
pub mod fair;
pub mod mines;
mod page;
pub mod plinko;
pub mod roulette;
pub mod video;

use super::freespins;
use super::wallet::{self, WalletError, WalletRequest};
use crate::db::now_ms;
use crate::ledger::{self, Account, PlayerAccount};
use crate::state::AppState;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use croupier_shared::{Currency, Money};
use futures::future::BoxFuture;
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::AnyConnection;

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/games/house/{sysname}", get(page::game_page))
        .route("/games/house/{sysname}/tile.svg", get(page::tile))
        .route("/games/house/{sysname}/paytable", get(paytable))
        .route("/games/house/{sysname}/round", post(round))
        // Mines only: a round of several steps.
        .route("/games/house/{sysname}/reveal", post(mines_reveal))
        .route("/games/house/{sysname}/cashout", post(mines_cashout))
        .route("/games/house/{sysname}/state", get(game_state))
        .route("/games/house/assets/{file}", get(page::asset))
        .route("/games/house/fairness", get(seeds).post(change_seeds))
        .route("/games/house/verify", get(verify))
        .route("/games/house/history", get(history))
}

/// The house games' sysnames.
pub const GAMES: [&str; 6] = ["dice", "lucky-sevens", "gem-rush", "roulette", "mines", "plinko"];

/// A game's table limits: the smallest bet in hundredths of a major unit and the largest in
/// major units (any currency), and the largest win as a multiple of the bet.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub min_hundredths: i64,
    pub max_major: i64,
    pub max_multiplier: i64,
    pub rtp_bp: i64,
}

pub fn limits(sysname: &str) -> Option<Limits> {
    let (min_hundredths, max_major, max_multiplier, rtp_bp) = match sysname {
        "dice" => (10, 100, 50, dice::RTP_BP),
        "lucky-sevens" => (10, 50, classic::THREE[0].1, classic::RTP_BP),
        "gem-rush" => (10, 50, video::MAX_MULTIPLIER, video::RTP_BP),
        "roulette" => (10, 200, 36, roulette::RTP_BP),
        "mines" => (10, 100, mines::MAX_MULTIPLIER, mines::RTP_BP),
        "plinko" => (10, 100, 1_000, plinko::RTP_BP),
        _ => return None,
    };
    Some(Limits { min_hundredths, max_major, max_multiplier, rtp_bp })
}

impl Limits {
    /// The smallest and largest bet in minor units of `currency`.
    pub fn bets(self, currency: Currency) -> (i64, i64) {
        let scale = 10_i64.pow(u32::from(currency.exponent()));
        ((self.min_hundredths * scale / 100).max(1), self.max_major * scale)
    }

    /// The win of a round: the game's multiple-of-bet cap and [`MAX_WIN_MAJOR`] both apply.
    pub fn cap(self, bet: i64, win: i128, currency: Currency) -> i64 {
        let scale = i128::from(10_i64.pow(u32::from(currency.exponent())));
        let capped = win.min(i128::from(bet) * i128::from(self.max_multiplier)).min(i128::from(MAX_WIN_MAJOR) * scale);
        i64::try_from(capped.max(0)).unwrap_or(i64::MAX)
    }
}

/// The largest win of one round, in major units.
pub const MAX_WIN_MAJOR: i64 = 5_000;

fn refuse(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({ "error": code, "message": message }))).into_response()
}

fn internal(e: &dyn std::fmt::Display) -> Response {
    tracing::error!(error = %e, "house round failed");
    refuse(StatusCode::INTERNAL_SERVER_ERROR, "internal", "Something went wrong.")
}

fn invalid_token() -> Response {
    refuse(StatusCode::UNAUTHORIZED, "invalid_token", "This game session is not valid. Open the game again.")
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
    match play(&state, &sysname, request).await {
        Ok(answer) => Json(answer).into_response(),
        Err(response) => response,
    }
}

/// A round's parameters, read and checked.
enum Play {
    Dice(dice::Params),
    Classic,
    Video,
    Roulette(Vec<roulette::Chip>),
    Plinko(plinko::Params),
    Mines(usize),
}

fn invalid_params(message: &str) -> Response {
    refuse(StatusCode::UNPROCESSABLE_ENTITY, "invalid_params", message)
}

impl Play {
    fn parse(sysname: &str, params: &Value, currency: Currency, min: i64, bet: i64) -> Result<Play, Box<Response>> {
        let invalid_params = |m: &str| Box::new(invalid_params(m));
        Ok(match sysname {
            "dice" => Play::Dice(
                dice::Params::parse(params)
                    .ok_or_else(|| invalid_params("Choose a target from 2.00 to 98.00, under or over."))?,
            ),
            "lucky-sevens" => Play::Classic,
            "gem-rush" => Play::Video,
            "roulette" => Play::Roulette(roulette::parse(params, currency, min, bet).map_err(invalid_params)?),
            "plinko" => Play::Plinko(
                plinko::Params::parse(params)
                    .ok_or_else(|| invalid_params("Choose 8, 12 or 16 rows and a low, medium or high risk."))?,
            ),
            "mines" => Play::Mines(mines::parse(params).ok_or_else(|| invalid_params("Choose from 1 to 24 mines."))?),
            _ => return Err(Box::new(refuse(StatusCode::NOT_FOUND, "unknown_game", "This game does not exist."))),
        })
    }

    fn floats(&self) -> usize {
        match self {
            Play::Dice(_) | Play::Roulette(_) => 1,
            Play::Classic => classic::FLOATS,
            Play::Video => video::FLOATS,
            Play::Plinko(p) => p.rows,
            Play::Mines(_) => mines::FLOATS,
        }
    }

    /// The uncapped win in minor units and what happened (a mines round only starts here).
    fn resolve(&self, floats: &[f64], bet: i64, currency: Currency) -> (i128, Value) {
        let times = |m: i64| i128::from(bet) * i128::from(m) / 10_000;
        match self {
            Play::Dice(p) => {
                let (m, o) = dice::play(*p, floats[0]);
                (times(m), o)
            }
            Play::Classic => {
                let (m, o) = classic::play(floats);
                (times(m), o)
            }
            Play::Video => {
                let (m, o) = video::play(floats);
                (times(m), o)
            }
            Play::Roulette(chips) => roulette::play(chips, floats[0], currency),
            Play::Plinko(p) => {
                let (m, o) = plinko::play(*p, floats);
                (times(m), o)
            }
            Play::Mines(count) => (0, mines_public(*count, &[], "open", None)),
        }
    }
}

/// The part of a mines round the player may see: the layout only once it is over.
fn mines_public(count: usize, revealed: &[usize], status: &str, layout: Option<&[usize]>) -> Value {
    let m = mines::multiplier_e4(count, revealed.len());
    let next = mines::multiplier_e4(count, (revealed.len() + 1).min(mines::CELLS - count));
    json!({
        "mines": count, "revealed": revealed, "status": status, "layout": layout,
        "multiplier": mines::fmt_e4(m), "next_multiplier": mines::fmt_e4(next), "won": status == "cashed",
    })
}

/// The launch session of a house game, still valid.
async fn live_session(conn: &mut AnyConnection, token: &str, sysname: &str) -> Result<wallet::GameSession, Response> {
    let session = wallet::find_session(conn, token).await.map_err(|e| internal(&e))?;
    let Some(session) = session.filter(|s| s.sysname == sysname && s.provider == "house") else {
        return Err(invalid_token());
    };
    if session.expires_at < now_ms() {
        return Err(refuse(
            StatusCode::UNAUTHORIZED,
            "token_expired",
            "This game session has expired. Open the game again.",
        ));
    }
    Ok(session)
}

fn not_enough_money() -> Response {
    refuse(StatusCode::PAYMENT_REQUIRED, "not_enough_money", "Not enough money for this bet.")
}

fn wallet_refusal(e: WalletError) -> Response {
    match e {
        WalletError::Status("RS_ERROR_NOT_ENOUGH_MONEY") => not_enough_money(),
        WalletError::Status("RS_ERROR_USER_DISABLED") => {
            refuse(StatusCode::FORBIDDEN, "user_disabled", "This account cannot play.")
        }
        WalletError::Status(status) => refuse(StatusCode::CONFLICT, status, "The round was refused."),
        WalletError::Db(e) => internal(&e),
    }
}

fn wallet_request(round_id: &str, session: &wallet::GameSession, token: &str, amount: i64) -> WalletRequest {
    WalletRequest {
        request_uuid: format!("{round_id}:{amount}"),
        transaction_uuid: format!("{round_id}:bet"),
        reference_transaction_uuid: None,
        round: round_id.to_owned(),
        round_closed: false,
        user: session.user_id.to_string(),
        token: token.to_owned(),
        game_code: session.sysname.clone(),
        currency: session.currency.clone(),
        amount,
    }
}

/// Pays a round's win (possibly nothing) and closes it.
async fn settle(
    conn: &mut AnyConnection,
    round_id: &str,
    session: &wallet::GameSession,
    token: &str,
    win: i64,
) -> Result<i64, Response> {
    let request = WalletRequest {
        transaction_uuid: format!("{round_id}:win"),
        reference_transaction_uuid: Some(format!("{round_id}:bet")),
        round_closed: true,
        ..wallet_request(round_id, session, token, win)
    };
    let settled = wallet::win(conn, "house", &request).await.map_err(wallet_refusal)?;
    Ok(settled.balance.unwrap_or(0))
}

fn player_account(session: &wallet::GameSession) -> Account {
    let kind = if session.mode == "demo" { PlayerAccount::Fun } else { PlayerAccount::Main };
    Account::Player { user_id: session.user_id, kind }
}

/// A round's or a mines step's change refused or failed: the answer to send. Its job in the group
/// committer fails with it, so everything the change wrote is rolled back.
struct Refused(Response);

impl From<Response> for Refused {
    fn from(response: Response) -> Refused {
        Refused(response)
    }
}

impl From<sqlx::Error> for Refused {
    fn from(e: sqlx::Error) -> Refused {
        Refused(internal(&e))
    }
}

/// The session of `token` for `sysname`, read before a change is queued: its player picks the
/// group committer's lane (the change reads it again in its transaction).
async fn session_before(state: &AppState, token: &str, sysname: &str) -> Result<wallet::GameSession, Response> {
    let mut conn = state.db().pool().acquire().await.map_err(|e| internal(&e))?;
    live_session(&mut conn, token, sysname).await
}

/// Runs one round's or step's change through the group committer on `player`'s lane (see
/// `db::group`), like the wallet's calls: it shares a transaction with other players' changes,
/// and on PostgreSQL it never waits on another lane's rows. The change must be re-runnable: it
/// is a function of the connection, and everything it did is undone when its batch rolls back
/// (a round drawn again after a rollback uses the same seed and nonce, so the same outcome).
async fn on_lane<F>(state: &AppState, player: i64, change: F) -> Result<Value, Response>
where
    F: for<'c> Fn(&'c mut AnyConnection) -> BoxFuture<'c, Result<Value, Refused>> + Send + Sync + 'static,
{
    state.db().group(player, crate::db::group::job(change)).await.map_err(|Refused(response)| response)
}

/// A paid round's bet (not a free spin), within the game's limits, and its parameters.
fn paid_bet(sysname: &str, request: &RoundRequest, currency: Currency) -> Result<(Money, Play), Box<Response>> {
    let limits = limits(sysname)
        .ok_or_else(|| Box::new(refuse(StatusCode::NOT_FOUND, "unknown_game", "This game does not exist.")))?;
    let (min, max) = limits.bets(currency);
    let bet = Money::parse_major(request.bet.trim(), currency)
        .map_err(|_| Box::new(refuse(StatusCode::UNPROCESSABLE_ENTITY, "invalid_bet", "The bet is not an amount.")))?;
    if bet.minor() < min || bet.minor() > max {
        return Err(Box::new(refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bet_limits",
            &format!(
                "Bets go from {} to {} {currency}.",
                Money::from_minor(min, currency).to_decimal_string(),
                Money::from_minor(max, currency).to_decimal_string()
            ),
        )));
    }
    let game = Play::parse(sysname, &request.params, currency, min, bet.minor())?;
    Ok((bet, game))
}

fn is_free_spin(request: &RoundRequest) -> bool {
    request.params.get("freespin").and_then(Value::as_bool).unwrap_or(false)
}

async fn play(state: &AppState, sysname: &str, request: RoundRequest) -> Result<Value, Response> {
    // The session and a paid bet are checked before the round is queued, so a bad request never
    // costs a batch a rollback; the round checks them again in its transaction.
    let session = session_before(state, &request.token, sysname).await?;
    let currency = Currency::parse(&session.currency).ok_or_else(|| internal(&"bad currency"))?;
    if !is_free_spin(&request) {
        let (bet, _) = paid_bet(sysname, &request, currency).map_err(|e| *e)?;
        // So is a bet the balance cannot cover at this moment: a refused round would make its
        // batch roll back and run again without it.
        let mut conn = state.db().pool().acquire().await.map_err(|e| internal(&e))?;
        let balance = ledger::balance(&mut conn, player_account(&session), currency).await.map_err(|e| internal(&e))?;
        if balance < bet.minor() {
            return Err(not_enough_money());
        }
    }
    let (owned, sysname, request) = (state.clone(), sysname.to_owned(), std::sync::Arc::new(request));
    on_lane(state, session.user_id, move |conn| {
        let (state, sysname, request) = (owned.clone(), sysname.clone(), std::sync::Arc::clone(&request));
        Box::pin(async move { play_in(conn, &state, &sysname, &request).await })
    })
    .await
}

/// One round, in the group committer's transaction.
async fn play_in(
    tx: &mut AnyConnection,
    state: &AppState,
    sysname: &str,
    request: &RoundRequest,
) -> Result<Value, Refused> {
    let db = state.db();
    let session = live_session(tx, &request.token, sysname).await?;
    let currency = Currency::parse(&session.currency).ok_or_else(|| internal(&"bad currency"))?;
    let limits =
        limits(sysname).ok_or_else(|| refuse(StatusCode::NOT_FOUND, "unknown_game", "This game does not exist."))?;
    let (min, _) = limits.bets(currency);
    db.lock_user(tx, session.user_id).await?;
    // A free spin of a pack: the pack's bet, no debit.
    let pack = if is_free_spin(request) {
        let pack = if session.mode == "real" {
            freespins::usable(tx, session.user_id, session.game_id, &session.currency).await?
        } else {
            None
        };
        Some(pack.ok_or_else(|| refuse(StatusCode::CONFLICT, "no_free_spins", "No free spins left for this game."))?)
    } else {
        None
    };
    if pack.is_some() && sysname == "mines" {
        return Err(invalid_params("Free spins are for one-step games.").into());
    }
    let (bet, game) = match &pack {
        Some(p) => {
            let bet = Money::from_minor(p.bet, currency);
            (bet, Play::parse(sysname, &request.params, currency, min, bet.minor()).map_err(|e| *e)?)
        }
        None => paid_bet(sysname, request, currency).map_err(|e| *e)?,
    };
    if matches!(game, Play::Mines(_)) && open_mines(&mut *tx, &session).await?.is_some() {
        return Err(refuse(StatusCode::CONFLICT, "round_open", "Finish the round in play first.").into());
    }
    let seed = active_seed(&mut *tx, session.user_id).await.map_err(|e| internal(&e))?;
    let nonce = seed.nonce + 1;
    let floats = fair::floats(&seed.server_seed, &seed.client_seed, nonce, game.floats());
    let (raw_win, mut outcome) = game.resolve(&floats, bet.minor(), currency);
    let win = limits.cap(bet.minor(), raw_win, currency);
    if i128::from(win) < raw_win {
        outcome["capped"] = json!(true);
    }
    sqlx::query("UPDATE fairness_seeds SET nonce = $1 WHERE id = $2")
        .bind(nonce)
        .bind(seed.id)
        .execute(&mut *tx)
        .await
        .map_err(|e| internal(&e))?;
    let round_id = uuid::Uuid::new_v4().to_string();
    let staked = if pack.is_some() { 0 } else { bet.minor() };
    let placed = wallet::bet(&mut *tx, "house", &wallet_request(&round_id, &session, &request.token, staked))
        .await
        .map_err(wallet_refusal)?;
    let to_bonus = pack.as_ref().is_some_and(|p| p.win_account == "bonus");
    let mut balance = if matches!(game, Play::Mines(_)) {
        placed.balance.unwrap_or(0)
    } else {
        settle(&mut *tx, &round_id, &session, &request.token, if to_bonus { 0 } else { win }).await?
    };
    if let Some(p) = &pack {
        if to_bonus && win > 0 {
            let key = format!("freespin-win:{round_id}");
            let bonus = Account::Player { user_id: session.user_id, kind: PlayerAccount::Bonus };
            let entry = crate::ledger::Entry::transfer(
                &key,
                "freespin_win",
                currency,
                Account::House(crate::ledger::HouseAccount::GameSettlement),
                bonus,
                win,
            )
            .by(Some(session.user_id));
            ledger::post(&mut *tx, &entry).await.map_err(|e| internal(&format!("{e:?}")))?;
            sqlx::query("UPDATE game_rounds SET win = win + $1 WHERE provider = 'house' AND round = $2")
                .bind(win)
                .bind(&round_id)
                .execute(&mut *tx)
                .await
                .map_err(|e| internal(&e))?;
            balance = ledger::balance(&mut *tx, player_account(&session), currency).await.map_err(|e| internal(&e))?;
        }
        freespins::consume(&mut *tx, p, win).await.map_err(|e| internal(&e))?;
        outcome["freespin"] = json!({ "remaining": p.remaining_count - 1, "win_account": p.win_account });
    }
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
    outcome["nonce"] = json!(nonce);
    Ok(json!({
        "round": round_id,
        "outcome": outcome,
        "bet": bet.to_decimal_string(),
        "win": Money::from_minor(win, currency).to_decimal_string(),
        "balance": Money::from_minor(balance, currency).to_decimal_string(),
        "currency": currency.code(),
        "server_seed_hash": seed.server_seed_hash,
        "client_seed": seed.client_seed,
        "nonce": nonce,
    }))
}

#[derive(sqlx::FromRow)]
struct OpenMines {
    id: i64,
    round: String,
    bet: i64,
    server_seed: String,
    server_seed_hash: String,
    client_seed: String,
    nonce: i64,
    outcome: String,
}

async fn open_mines(conn: &mut AnyConnection, session: &wallet::GameSession) -> Result<Option<OpenMines>, Response> {
    sqlx::query_as(
        "SELECT r.id, r.round, r.bet, s.server_seed, s.server_seed_hash, s.client_seed, h.nonce, h.outcome \
         FROM game_rounds r JOIN house_rounds h ON h.round_id = r.id JOIN fairness_seeds s ON s.id = h.seed_id \
         WHERE r.user_id = $1 AND r.game_id = $2 AND r.mode = $3 AND r.currency = $4 AND r.provider = 'house' AND r.status = 'open' \
         ORDER BY r.id DESC LIMIT 1",
    )
    .bind(session.user_id)
    .bind(session.game_id)
    .bind(&session.mode)
    .bind(&session.currency)
    .fetch_optional(conn)
    .await
    .map_err(|e| internal(&e))
}

#[derive(Deserialize)]
pub struct MinesAction {
    token: String,
    cell: Option<i64>,
}

fn not_mines(sysname: &str) -> Option<Response> {
    (sysname != "mines").then(|| refuse(StatusCode::NOT_FOUND, "unknown_game", "This game has no such action."))
}

/// `POST /games/house/mines/reveal` `{token, cell}`: opens a cell (0–24, row by row).
pub async fn mines_reveal(
    State(state): State<AppState>,
    Path(sysname): Path<String>,
    Json(action): Json<MinesAction>,
) -> Response {
    if let Some(r) = not_mines(&sysname) {
        return r;
    }
    let Some(cell) = action.cell.and_then(|c| usize::try_from(c).ok()).filter(|c| *c < mines::CELLS) else {
        return invalid_params("Choose a cell from 0 to 24.");
    };
    match mines_step(&state, &action.token, Some(cell)).await {
        Ok(v) => Json(v).into_response(),
        Err(r) => r,
    }
}

/// `POST /games/house/mines/cashout` `{token}`: takes the current multiplier's win.
pub async fn mines_cashout(
    State(state): State<AppState>,
    Path(sysname): Path<String>,
    Json(action): Json<MinesAction>,
) -> Response {
    if let Some(r) = not_mines(&sysname) {
        return r;
    }
    match mines_step(&state, &action.token, None).await {
        Ok(v) => Json(v).into_response(),
        Err(r) => r,
    }
}

async fn mines_step(state: &AppState, token: &str, reveal: Option<usize>) -> Result<Value, Response> {
    let session = session_before(state, token, "mines").await?;
    let (owned, token) = (state.clone(), token.to_owned());
    on_lane(state, session.user_id, move |conn| {
        let (state, token) = (owned.clone(), token.clone());
        Box::pin(async move { mines_step_in(conn, &state, &token, reveal).await })
    })
    .await
}

/// One mines step, in the group committer's transaction.
async fn mines_step_in(
    tx: &mut AnyConnection,
    state: &AppState,
    token: &str,
    reveal: Option<usize>,
) -> Result<Value, Refused> {
    let db = state.db();
    let session = live_session(tx, token, "mines").await?;
    let currency = Currency::parse(&session.currency).ok_or_else(|| internal(&"bad currency"))?;
    db.lock_user(&mut *tx, session.user_id).await.map_err(|e| internal(&e))?;
    let open = open_mines(&mut *tx, &session)
        .await?
        .ok_or_else(|| refuse(StatusCode::CONFLICT, "no_round", "Place a bet to start a round."))?;
    let saved: Value = serde_json::from_str(&open.outcome).map_err(|e| internal(&e))?;
    let count = saved["mines"].as_u64().and_then(|m| usize::try_from(m).ok()).unwrap_or(1);
    let mut revealed: Vec<usize> = saved["revealed"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| c.as_u64().and_then(|c| usize::try_from(c).ok())).collect())
        .unwrap_or_default();
    let layout = mines::layout(&fair::floats(&open.server_seed, &open.client_seed, open.nonce, mines::FLOATS), count);
    let limits = limits("mines").ok_or_else(|| internal(&"mines limits"))?;
    let mut win = 0;
    let status = match reveal {
        Some(cell) if revealed.contains(&cell) => return Err(invalid_params("This cell is already open.").into()),
        Some(cell) if layout.contains(&cell) => {
            revealed.push(cell);
            "busted"
        }
        Some(cell) => {
            revealed.push(cell);
            if revealed.len() == mines::CELLS - count { "cashed" } else { "open" }
        }
        None if revealed.is_empty() => return Err(invalid_params("Open at least one cell before cashing out.").into()),
        None => "cashed",
    };
    if status == "cashed" {
        let m = mines::multiplier_e4(count, revealed.len());
        win = limits.cap(open.bet, i128::from(open.bet) * i128::from(m) / 10_000, currency);
    }
    let shown = (status != "open").then_some(layout.as_slice());
    let mut outcome = mines_public(count, &revealed, status, shown);
    if status == "busted" {
        outcome["multiplier"] = json!(mines::fmt_e4(0));
    }
    let balance = if status == "open" {
        ledger::balance(&mut *tx, player_account(&session), currency).await.map_err(|e| internal(&e))?
    } else {
        settle(&mut *tx, &open.round, &session, token, win).await?
    };
    sqlx::query("UPDATE house_rounds SET outcome = $1 WHERE round_id = $2")
        .bind(outcome.to_string())
        .bind(open.id)
        .execute(&mut *tx)
        .await
        .map_err(|e| internal(&e))?;
    outcome["nonce"] = json!(open.nonce);
    Ok(json!({
        "round": open.round,
        "outcome": outcome,
        "bet": Money::from_minor(open.bet, currency).to_decimal_string(),
        "win": Money::from_minor(win, currency).to_decimal_string(),
        "balance": Money::from_minor(balance, currency).to_decimal_string(),
        "currency": currency.code(),
        "server_seed_hash": open.server_seed_hash,
        "client_seed": open.client_seed,
        "nonce": open.nonce,
    }))
}

/// `GET /games/house/{sysname}/state?token=`: the balance of the session's account and, for
/// mines, the round in play if any (after a reload).
pub async fn game_state(
    State(state): State<AppState>,
    Path(sysname): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Response {
    let result = async {
        let mut conn = state.db().pool().acquire().await.map_err(|e| internal(&e))?;
        let session = live_session(&mut conn, &q.token, &sysname).await?;
        let open = if sysname == "mines" { open_mines(&mut conn, &session).await? } else { None };
        let pack = if session.mode == "real" && sysname != "mines" {
            freespins::usable(&mut conn, session.user_id, session.game_id, &session.currency)
                .await
                .map_err(|e| internal(&e))?
        } else {
            None
        };
        let currency = Currency::parse(&session.currency).ok_or_else(|| internal(&"bad currency"))?;
        let balance = ledger::balance(&mut conn, player_account(&session), currency).await.map_err(|e| internal(&e))?;
        let round = open.map(|o| {
            json!({
                "round": o.round,
                "bet": Money::from_minor(o.bet, currency).to_decimal_string(),
                "outcome": serde_json::from_str::<Value>(&o.outcome).unwrap_or(Value::Null),
            })
        });
        Ok::<_, Response>(json!({
            "round": round,
            "mode": session.mode,
            "freespins": pack.map(|p| json!({ "remaining": p.remaining_count, "bet": Money::from_minor(p.bet, currency).to_decimal_string() })),
            "balance": Money::from_minor(balance, currency).to_decimal_string(),
            "currency": currency.code(),
        }))
    }
    .await;
    match result {
        Ok(v) => Json(v).into_response(),
        Err(r) => r,
    }
}

#[derive(Deserialize)]
pub struct PaytableQuery {
    currency: Option<String>,
}

/// `GET /games/house/{sysname}/paytable?currency=`: the published rules — pays, RTP, bet limits
/// in the currency and the largest win.
pub async fn paytable(Path(sysname): Path<String>, Query(q): Query<PaytableQuery>) -> Response {
    let Some(limits) = limits(&sysname) else {
        return refuse(StatusCode::NOT_FOUND, "unknown_game", "This game does not exist.");
    };
    let Some(currency) = Currency::parse(q.currency.as_deref().unwrap_or("USD")) else {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, "invalid_currency", "Unknown currency.");
    };
    let (min, max) = limits.bets(currency);
    let scale = 10_i64.pow(u32::from(currency.exponent()));
    let table = match sysname.as_str() {
        "dice" => {
            json!({ "outcomes": dice::OUTCOMES, "targets": ["2.00", "98.00"], "multiplier": "99 % × 10,001 / winning outcomes" })
        }
        "lucky-sevens" => classic::paytable(),
        "gem-rush" => video::paytable(),
        "roulette" => roulette::paytable(),
        "mines" => mines::paytable(),
        _ => plinko::paytable(),
    };
    Json(json!({
        "game": sysname,
        "rtp": format!("{}.{:02}", limits.rtp_bp / 100, limits.rtp_bp % 100),
        "currency": currency.code(),
        "min_bet": Money::from_minor(min, currency).to_decimal_string(),
        "max_bet": Money::from_minor(max, currency).to_decimal_string(),
        "max_win_multiplier": limits.max_multiplier,
        "max_win": Money::from_minor(MAX_WIN_MAJOR * scale, currency).to_decimal_string(),
        "paytable": table,
    }))
    .into_response()
}

#[derive(Deserialize)]
pub struct TokenQuery {
    token: String,
}

async fn session_of(state: &AppState, token: &str) -> Result<wallet::GameSession, Response> {
    let mut conn = state
        .db()
        .pool()
        .acquire()
        .await
        .map_err(|_| refuse(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "Try again."))?;
    match wallet::find_session(&mut conn, token).await {
        Ok(Some(s)) if s.provider == "house" => Ok(s),
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
    let user_id = match session_of(&state, &q.token).await {
        Ok(s) => s.user_id,
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
    let user_id = match session_of(&state, &change.token).await {
        Ok(s) => s.user_id,
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
        // A round in play (mines) was dealt from the current seed: revealing it would show the field.
        let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM game_rounds WHERE user_id = $1 AND provider = 'house' AND status = 'open'")
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
        if open > 0 {
            return Ok(None);
        }
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
        Ok::<_, sqlx::Error>(Some((old, hash)))
    }
    .await;
    match result {
        Ok(None) => refuse(StatusCode::CONFLICT, "round_open", "Finish the round in play before changing seeds."),
        Ok(Some((old, hash))) => Json(json!({
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

/// `GET /games/house/verify?game=&server_seed=&client_seed=&nonce=&…`: re-derives a round from
/// revealed seeds — anyone can check. Games with parameters take them as query fields (dice:
/// target, condition; plinko: rows, risk; mines: mines); roulette's pocket needs none.
pub async fn verify(Query(q): Query<VerifyQuery>) -> Response {
    let params = serde_json::to_value(&q.params).unwrap_or(Value::Null);
    let floats = |n: usize| fair::floats(&q.server_seed, &q.client_seed, q.nonce, n);
    let usd = Currency::parse("USD").unwrap_or_else(|| unreachable!("USD is a currency"));
    let outcome = match q.game.as_str() {
        "dice" => dice::Params::parse(&params).map(|p| dice::play(p, floats(1)[0]).1),
        "lucky-sevens" => Some(classic::play(&floats(classic::FLOATS)).1),
        "gem-rush" => Some(video::play(&floats(video::FLOATS)).1),
        "roulette" => Some(roulette::play(&[], floats(1)[0], usd).1),
        "plinko" => plinko::Params::parse(&params).map(|p| plinko::play(p, &floats(p.rows)).1),
        "mines" => {
            mines::parse(&params).map(|m| json!({ "mines": m, "layout": mines::layout(&floats(mines::FLOATS), m) }))
        }
        _ => return refuse(StatusCode::NOT_FOUND, "unknown_game", "This game does not exist."),
    };
    match outcome {
        Some(outcome) => {
            Json(json!({ "server_seed_hash": fair::hash_seed(&q.server_seed), "nonce": q.nonce, "outcome": outcome }))
                .into_response()
        }
        None => invalid_params(
            "This game's parameters are needed (dice: target, condition; plinko: rows, risk; mines: mines).",
        ),
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
    params: String,
    hash: String,
    seed: Option<String>,
    client: String,
    at: i64,
}

/// `GET /games/house/history?token=`: the player's last rounds of house games, with the seed
/// hash and nonce of each, and the server seed once it has been revealed.
pub async fn history(State(state): State<AppState>, Query(q): Query<TokenQuery>) -> Response {
    let session = match session_of(&state, &q.token).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let rows: Result<Vec<HistoryRow>, _> = sqlx::query_as(
        "SELECT r.round, g.sysname AS game, r.bet, r.win, r.currency, h.nonce, h.outcome, h.params, s.server_seed_hash AS hash, \
         CASE WHEN s.revealed_at IS NULL THEN NULL ELSE s.server_seed END AS seed, s.client_seed AS client, r.created_at AS at \
         FROM game_rounds r JOIN house_rounds h ON h.round_id = r.id JOIN fairness_seeds s ON s.id = h.seed_id JOIN games g ON g.id = r.game_id \
         WHERE r.user_id = $1 AND r.game_id = $2 ORDER BY r.id DESC LIMIT 20",
    )
    .bind(session.user_id)
    .bind(session.game_id)
    .fetch_all(state.db().pool())
    .await;
    match rows {
        Ok(rows) => Json(json!({ "items": rows.into_iter().map(|HistoryRow { round, game, bet, win, currency, nonce, outcome, params, hash, seed, client, at }| {
            let c = Currency::parse(&currency);
            let money = |m: i64| c.map_or_else(|| m.to_string(), |c| Money::from_minor(m, c).to_decimal_string());
            json!({ "round": round, "game": game, "bet": money(bet), "win": money(win), "currency": currency, "nonce": nonce,
                    "outcome": serde_json::from_str::<Value>(&outcome).unwrap_or(Value::Null), "server_seed_hash": hash,
                    "params": serde_json::from_str::<Value>(&params).unwrap_or(Value::Null),
                    "server_seed": seed, "client_seed": client, "created_at": at / 1000 })
        }).collect::<Vec<_>>() }))
        .into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "internal", &e.to_string()),
    }
}
