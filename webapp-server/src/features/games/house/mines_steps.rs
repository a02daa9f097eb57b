//! The steps of a mines round after its bet: reveal a cell, cash out.

use super::*;

/// The part of a mines round the player may see: the layout only once it is over.
pub(super) fn mines_public(count: usize, revealed: &[usize], status: &str, layout: Option<&[usize]>) -> Value {
    let m = mines::multiplier_e4(count, revealed.len());
    let next = mines::multiplier_e4(count, (revealed.len() + 1).min(mines::CELLS - count));
    json!({
        "mines": count, "revealed": revealed, "status": status, "layout": layout,
        "multiplier": mines::fmt_e4(m), "next_multiplier": mines::fmt_e4(next), "won": status == "cashed",
    })
}

#[derive(sqlx::FromRow)]
pub(super) struct OpenMines {
    pub(super) id: i64,
    pub(super) round: String,
    pub(super) bet: i64,
    pub(super) server_seed: String,
    pub(super) server_seed_hash: String,
    pub(super) client_seed: String,
    pub(super) nonce: i64,
    pub(super) outcome: String,
}

pub(super) async fn open_mines(
    conn: &mut AnyConnection,
    session: &wallet::GameSession,
) -> Result<Option<OpenMines>, HouseError> {
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
    .map_err(HouseError::internal)
}

#[derive(Deserialize)]
pub struct MinesAction {
    token: String,
    cell: Option<i64>,
}

pub(super) fn not_mines(sysname: &str) -> Option<HouseError> {
    (sysname != "mines").then_some(HouseError::NoSuchAction)
}

/// `POST /games/house/mines/reveal` `{token, cell}`: opens a cell (0–24, row by row).
pub async fn mines_reveal(
    State(state): State<AppState>,
    Path(sysname): Path<String>,
    Json(action): Json<MinesAction>,
) -> Response {
    if let Some(e) = not_mines(&sysname) {
        return e.into_response();
    }
    let Some(cell) = action.cell.and_then(|c| usize::try_from(c).ok()).filter(|c| *c < mines::CELLS) else {
        return HouseError::InvalidParams("Choose a cell from 0 to 24.").into_response();
    };
    match mines_step(&state, &action.token, Some(cell)).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => e.into_response(),
    }
}

/// `POST /games/house/mines/cashout` `{token}`: takes the current multiplier's win.
pub async fn mines_cashout(
    State(state): State<AppState>,
    Path(sysname): Path<String>,
    Json(action): Json<MinesAction>,
) -> Response {
    if let Some(e) = not_mines(&sysname) {
        return e.into_response();
    }
    match mines_step(&state, &action.token, None).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => e.into_response(),
    }
}

pub(super) async fn mines_step(state: &AppState, token: &str, reveal: Option<usize>) -> Result<Value, HouseError> {
    let session = session_before(state, token, "mines").await?;
    let (owned, token) = (state.clone(), token.to_owned());
    on_lane(state, session.user_id, move |conn| {
        let (state, token) = (owned.clone(), token.clone());
        Box::pin(async move { mines_step_in(conn, &state, &token, reveal).await })
    })
    .await
}

/// One mines step, in the group committer's transaction.
pub(super) async fn mines_step_in(
    tx: &mut AnyConnection,
    state: &AppState,
    token: &str,
    reveal: Option<usize>,
) -> Result<Value, HouseError> {
    let db = state.db();
    let session = live_session(tx, token, "mines").await?;
    let currency = Currency::parse(&session.currency).ok_or_else(|| HouseError::internal("bad currency"))?;
    db.lock_user(&mut *tx, session.user_id).await.map_err(HouseError::internal)?;
    let open = open_mines(&mut *tx, &session).await?.ok_or(HouseError::NoRound)?;
    let saved: Value = serde_json::from_str(&open.outcome).map_err(HouseError::internal)?;
    let count = saved["mines"].as_u64().and_then(|m| usize::try_from(m).ok()).unwrap_or(1);
    let mut revealed: Vec<usize> = saved["revealed"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| c.as_u64().and_then(|c| usize::try_from(c).ok())).collect())
        .unwrap_or_default();
    let layout = mines::layout(&fair::floats(&open.server_seed, &open.client_seed, open.nonce, mines::FLOATS), count);
    let limits = limits("mines").ok_or_else(|| HouseError::internal("mines limits"))?;
    let mut win = 0;
    let status = match reveal {
        Some(cell) if revealed.contains(&cell) => return Err(HouseError::InvalidParams("This cell is already open.")),
        Some(cell) if layout.contains(&cell) => {
            revealed.push(cell);
            "busted"
        }
        Some(cell) => {
            revealed.push(cell);
            if revealed.len() == mines::CELLS - count { "cashed" } else { "open" }
        }
        None if revealed.is_empty() => {
            return Err(HouseError::InvalidParams("Open at least one cell before cashing out."));
        }
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
        let rules = Rules::of(state);
        wallet::balance_of(&mut *tx, &session, &rules).await.map_err(HouseError::from)?.0
    } else {
        let rules = Rules::of(state);
        settle(
            &mut *tx,
            &open.round,
            &session,
            token,
            Money::from_minor(win, currency),
            wallet::WinTo::Session,
            None,
            &rules,
        )
        .await?
    };
    sqlx::query("UPDATE house_rounds SET outcome = $1 WHERE round_id = $2")
        .bind(outcome.to_string())
        .bind(open.id)
        .execute(&mut *tx)
        .await
        .map_err(HouseError::internal)?;
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
