//! Provable fairness for players: the seed pair in use, rotating it, re-deriving a round from
//! revealed seeds, and the history of rounds with their seeds.

use super::*;

#[derive(sqlx::FromRow)]
pub(super) struct Seed {
    pub(super) id: i64,
    pub(super) server_seed: String,
    pub(super) server_seed_hash: String,
    pub(super) client_seed: String,
    pub(super) nonce: i64,
}

pub(super) async fn active_seed(conn: &mut AnyConnection, user_id: i64) -> Result<Seed, sqlx::Error> {
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

/// The active seed pair with its nonce moved on by one, for the round about to be drawn (the
/// pair is made on the player's first round): one statement when the pair exists.
pub(super) async fn next_nonce(conn: &mut AnyConnection, user_id: i64) -> Result<Seed, sqlx::Error> {
    const NEXT: &str = "UPDATE fairness_seeds SET nonce = nonce + 1 WHERE id = \
        (SELECT id FROM fairness_seeds WHERE user_id = $1 AND active = 1 ORDER BY id DESC LIMIT 1) \
        RETURNING id, server_seed, server_seed_hash, client_seed, nonce";
    let moved: Option<Seed> = sqlx::query_as(NEXT).bind(user_id).fetch_optional(&mut *conn).await?;
    if let Some(seed) = moved {
        return Ok(seed);
    }
    active_seed(conn, user_id).await?;
    sqlx::query_as(NEXT).bind(user_id).fetch_one(&mut *conn).await
}

#[derive(Deserialize)]
pub struct TokenQuery {
    pub(super) token: String,
}

pub(super) async fn session_of(state: &AppState, token: &str) -> Result<wallet::GameSession, HouseError> {
    let mut conn = state.db().pool().acquire().await.map_err(|_| HouseError::Unavailable)?;
    match wallet::find_session(&mut conn, token).await {
        Ok(Some(s)) if s.provider == "house" => Ok(s),
        _ => Err(HouseError::InvalidToken),
    }
}

/// `GET /games/house/fairness?token=`: the hash of the server seed in use, the client seed and
/// the nonce of the last round.
pub async fn seeds(State(state): State<AppState>, Query(q): Query<TokenQuery>) -> Response {
    let user_id = match session_of(&state, &q.token).await {
        Ok(s) => s.user_id,
        Err(e) => return e.into_response(),
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
        Err(e) => HouseError::internal(e).into_response(),
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
        Err(e) => return e.into_response(),
    };
    let client_seed = change.client_seed.clone().filter(|c| !c.is_empty()).unwrap_or_else(fair::new_client_seed);
    if client_seed.len() > 64 || !client_seed.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return HouseError::InvalidClientSeed.into_response();
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
        Ok(None) => HouseError::RoundOpenSeeds.into_response(),
        Ok(Some((old, hash))) => Json(json!({
            "previous": { "server_seed": old.server_seed, "server_seed_hash": old.server_seed_hash, "client_seed": old.client_seed, "nonce": old.nonce },
            "current": { "server_seed_hash": hash, "client_seed": client_seed, "nonce": 0 },
        }))
        .into_response(),
        Err(e) => HouseError::internal(e).into_response(),
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
        _ => return HouseError::UnknownGame.into_response(),
    };
    match outcome {
        Some(outcome) => {
            Json(json!({ "server_seed_hash": fair::hash_seed(&q.server_seed), "nonce": q.nonce, "outcome": outcome }))
                .into_response()
        }
        None => HouseError::InvalidParams(
            "This game's parameters are needed (dice: target, condition; plinko: rows, risk; mines: mines).",
        )
        .into_response(),
    }
}

#[derive(sqlx::FromRow)]
pub(super) struct HistoryRow {
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
        Err(e) => return e.into_response(),
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
        Err(e) => HouseError::internal(e).into_response(),
    }
}
