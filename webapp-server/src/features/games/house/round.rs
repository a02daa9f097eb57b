//! One round of a one-step game (dice, slots, roulette, plinko) or a mines round's opening bet:
//! the request, its parameters and bet checked, then the round in the group committer's transaction.

use super::*;

#[derive(Deserialize)]
pub struct RoundRequest {
    pub(super) token: String,
    /// Decimal amount in the session's currency.
    pub(super) bet: String,
    #[serde(flatten)]
    pub(super) params: Value,
}

/// `POST /games/house/{sysname}/round`.
pub async fn round(
    State(state): State<AppState>,
    Path(sysname): Path<String>,
    Json(request): Json<RoundRequest>,
) -> Response {
    match play(&state, &sysname, request).await {
        Ok(answer) => Json(answer).into_response(),
        Err(e) => e.into_response(),
    }
}

/// A round's parameters, read and checked.
pub(super) enum Play {
    Dice(dice::Params),
    Classic,
    Video,
    Roulette(Vec<roulette::Chip>),
    Plinko(plinko::Params),
    Mines(usize),
}

impl Play {
    fn parse(sysname: &str, params: &Value, currency: Currency, min: i64, bet: i64) -> Result<Play, HouseError> {
        Ok(match sysname {
            "dice" => Play::Dice(
                dice::Params::parse(params)
                    .ok_or(HouseError::InvalidParams("Choose a target from 2.00 to 98.00, under or over."))?,
            ),
            "lucky-sevens" => Play::Classic,
            "gem-rush" => Play::Video,
            "roulette" => {
                Play::Roulette(roulette::parse(params, currency, min, bet).map_err(HouseError::InvalidParams)?)
            }
            "plinko" => Play::Plinko(
                plinko::Params::parse(params)
                    .ok_or(HouseError::InvalidParams("Choose 8, 12 or 16 rows and a low, medium or high risk."))?,
            ),
            "mines" => {
                Play::Mines(mines::parse(params).ok_or(HouseError::InvalidParams("Choose from 1 to 24 mines."))?)
            }
            _ => return Err(HouseError::UnknownGame),
        })
    }

    pub(super) fn floats(&self) -> usize {
        match self {
            Play::Dice(_) | Play::Roulette(_) => 1,
            Play::Classic => classic::FLOATS,
            Play::Video => video::FLOATS,
            Play::Plinko(p) => p.rows,
            Play::Mines(_) => mines::FLOATS,
        }
    }

    /// The uncapped win in minor units and what happened (a mines round only starts here).
    pub(super) fn resolve(&self, floats: &[f64], bet: i64, currency: Currency) -> (i128, Value) {
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

/// A paid round's bet (not a free spin), within the game's limits, and its parameters.
pub(super) fn paid_bet(sysname: &str, request: &RoundRequest, currency: Currency) -> Result<(Money, Play), HouseError> {
    let limits = limits(sysname).ok_or(HouseError::UnknownGame)?;
    let (min, max) = limits.bets(currency);
    let bet = Money::parse_major(request.bet.trim(), currency).map_err(|_| HouseError::InvalidBet)?;
    if bet.minor() < min || bet.minor() > max {
        return Err(HouseError::BetLimits {
            min: Money::from_minor(min, currency),
            max: Money::from_minor(max, currency),
        });
    }
    let game = Play::parse(sysname, &request.params, currency, min, bet.minor())?;
    Ok((bet, game))
}

pub(super) fn is_free_spin(request: &RoundRequest) -> bool {
    request.params.get("freespin").and_then(Value::as_bool).unwrap_or(false)
}

pub(super) async fn play(state: &AppState, sysname: &str, request: RoundRequest) -> Result<Value, HouseError> {
    let request = std::sync::Arc::new(request);
    // SQLite has one lane, so no player is needed to choose it (nor a row lock: its transactions
    // hold the write lock); on PostgreSQL the lane is the player's, known without a read once
    // this replica has seen the session (`wallet::game_player`). Then a paid one-step round goes
    // to the merged path at once, which reads the session in the lane's transaction and refuses
    // a bad request without writing anything (`batch`); one that does not fit there comes back
    // here.
    // The token's hash, once, on the round's own task: it finds the lane here and the session on
    // the lane (whose run is serial: the less it computes, the sooner the next run starts).
    let hash = wallet::token_hash(&request.token);
    let lane = match state.db().backend() {
        crate::db::Backend::Sqlite => Some(0),
        _ => state.hot().game_player(&hash),
    };
    let merged_tried = sysname != "mines" && !is_free_spin(&request) && lane.is_some();
    if merged_tried
        && let Some(player) = lane
        && let Some(answer) = merged(state, sysname, &request, &hash, player).await?
    {
        return Ok(answer);
    }
    // The session and a paid bet are checked before the round is queued, so a bad request never
    // costs a batch a rollback; the round checks them again in its transaction.
    let session = session_before(state, &request.token, sysname).await?;
    let currency = Currency::parse(&session.currency).ok_or_else(|| HouseError::internal("bad currency"))?;
    if session.mode == "real"
        && let Some(exclusion) = session.exclusion()
    {
        return Err(HouseError::Excluded { until: exclusion.until });
    }
    if !is_free_spin(&request) {
        let (bet, _) = paid_bet(sysname, &request, currency)?;
        // So is a bet the balance cannot cover at this moment: a refused round would make its
        // batch roll back and run again without it. With no wagering bonus the session's read
        // already holds the balance.
        let balance = match session.held_balance() {
            Some(held) => held,
            None => {
                let mut conn = state.db().pool().acquire().await.map_err(HouseError::internal)?;
                wallet::balance_of(&mut conn, &session, &Rules::of(state)).await.map_err(HouseError::from)?.0
            }
        };
        if balance < bet.minor() {
            return Err(HouseError::NotEnoughMoney);
        }
    }
    // A paid one-step round whose balance the session's read holds is queued as data and merged
    // with its neighbours on its player's lane (`batch`); one that no longer fits there comes back.
    if !merged_tried
        && batch::QueuedRound::fits(&session, sysname, &request)
        && let Some(answer) = merged(state, sysname, &request, &hash, session.user_id).await?
    {
        return Ok(answer);
    }
    let (owned, sysname) = (state.clone(), sysname.to_owned());
    on_lane(state, session.user_id, move |conn| {
        let (state, sysname, request) = (owned.clone(), sysname.clone(), std::sync::Arc::clone(&request));
        Box::pin(async move { play_in(conn, &state, &sysname, &request).await })
    })
    .await
}

/// The round queued on the merged path (`batch`) on `player`'s lane (0 on SQLite, whose one lane
/// needs no player), with its token's `token_hash`. `None`: it did not fit there after all.
async fn merged(
    state: &AppState,
    sysname: &str,
    request: &std::sync::Arc<RoundRequest>,
    token_hash: &str,
    player: i64,
) -> Result<Option<Value>, HouseError> {
    let queued = batch::QueuedRound {
        state: state.clone(),
        sysname: sysname.to_owned(),
        request: std::sync::Arc::clone(request),
        token_hash: token_hash.to_owned(),
        user_id: player,
    };
    Ok(state.db().submit(player, queued).await?.map(Played::answer))
}

/// One round, in the group committer's transaction.
pub(super) async fn play_in(
    tx: &mut AnyConnection,
    state: &AppState,
    sysname: &str,
    request: &RoundRequest,
) -> Result<Value, HouseError> {
    // Read with the player's row locked (PostgreSQL), as `Db::lock_user` would.
    let session = live_session_locked(tx, &request.token, sysname).await?;
    let currency = Currency::parse(&session.currency).ok_or_else(|| HouseError::internal("bad currency"))?;
    let limits = limits(sysname).ok_or(HouseError::UnknownGame)?;
    let (min, _) = limits.bets(currency);
    // A free spin of a pack: the pack's bet, no debit.
    let pack = if is_free_spin(request) {
        let pack = if session.mode == "real" {
            freespins::usable(tx, session.user_id, session.game_id, &session.currency).await?
        } else {
            None
        };
        Some(pack.ok_or(HouseError::NoFreeSpins)?)
    } else {
        None
    };
    if pack.is_some() && sysname == "mines" {
        return Err(HouseError::InvalidParams("Free spins are for one-step games."));
    }
    let (bet, game) = match &pack {
        Some(p) => {
            let bet = Money::from_minor(p.bet, currency);
            (bet, Play::parse(sysname, &request.params, currency, min, bet.minor())?)
        }
        None => paid_bet(sysname, request, currency)?,
    };
    if matches!(game, Play::Mines(_)) && open_mines(&mut *tx, &session).await?.is_some() {
        return Err(HouseError::RoundOpen);
    }
    let seed = next_nonce(&mut *tx, session.user_id).await.map_err(HouseError::internal)?;
    let nonce = seed.nonce;
    let floats = fair::floats(&seed.server_seed, &seed.client_seed, nonce, game.floats());
    let (raw_win, mut outcome) = game.resolve(&floats, bet.minor(), currency);
    let win = limits.cap(bet.minor(), raw_win, currency);
    if i128::from(win) < raw_win {
        outcome["capped"] = json!(true);
    }
    // Time-ordered (UUIDv7): the round's keys (`game_rounds`, `wallet_transactions`, the
    // ledger's idempotency keys) then go in at the end of their indexes, a few pages per batch,
    // where random ids dirtied a page of each index per round.
    let round_id = uuid::Uuid::now_v7().to_string();
    let staked = if pack.is_some() { Money::zero(currency) } else { bet };
    let rules = Rules::of(state);
    // A paid one-step round whose balance the session's read holds (and that did not fit the
    // merged path): bet, win, round and draw together in four statements
    // (`wallet::house_round_in`); any other round below.
    if pack.is_none() && !matches!(game, Play::Mines(_)) {
        let bet_request = wallet_request(&round_id, &session, &request.token, staked);
        let win_request = settle_request(&round_id, &session, &request.token, Money::from_minor(win, currency));
        let (params, recorded) = (request.params.to_string(), outcome.to_string());
        let drawn = wallet::Drawn { seed_id: seed.id, nonce, params: &params, outcome: &recorded };
        let played = wallet::house_round_in(&mut *tx, &bet_request, &win_request, &session, &rules, &drawn)
            .await
            .map_err(|e| bet_refusal(e, currency))?;
        if let Some(balance) = played {
            return Ok(answer(&round_id, outcome, bet, win, balance, currency, &seed, nonce));
        }
    }
    // The round's id is new and its session was read in this transaction: the wallet skips the
    // replay lookup and the second read, and the win below knows how the bet was paid.
    let placed = wallet::bet_in(
        &mut *tx,
        "house",
        &wallet_request(&round_id, &session, &request.token, staked),
        &session,
        &rules,
    )
    .await
    .map_err(|e| bet_refusal(e, currency))?;
    // A bonus's pack has its wins paid to that bonus, by the wallet like any win; any other
    // pack's wins are real money.
    let to = match pack.as_ref().and_then(|p| p.bonus_id) {
        Some(bonus_id) => wallet::WinTo::Bonus(bonus_id),
        None => wallet::WinTo::Session,
    };
    // The spin is counted before the round settles: a bonus whose last spin this is may complete.
    if let Some(p) = &pack {
        freespins::consume(&mut *tx, p, win).await.map_err(HouseError::internal)?;
    }
    let balance = if matches!(game, Play::Mines(_)) {
        placed.response.balance.unwrap_or(0)
    } else {
        let win = Money::from_minor(win, currency);
        settle(&mut *tx, &round_id, &session, &request.token, win, to, Some(&placed), &rules).await?
    };
    if let Some(p) = &pack {
        outcome["freespin"] = json!({ "remaining": p.remaining_count - 1, "win_account": p.win_account });
    }
    // A jackpot this bet triggered: already on the main balance (and in `balance`).
    if placed.jackpot > 0 {
        outcome["jackpot"] = json!(Money::from_minor(placed.jackpot, currency).to_decimal_string());
    }
    let game_round = placed.round_id;
    sqlx::query("INSERT INTO house_rounds (round_id, seed_id, nonce, params, outcome) VALUES ($1, $2, $3, $4, $5)")
        .bind(game_round)
        .bind(seed.id)
        .bind(nonce)
        .bind(request.params.to_string())
        .bind(outcome.to_string())
        .execute(&mut *tx)
        .await
        .map_err(HouseError::internal)?;
    Ok(answer(&round_id, outcome, bet, win, balance, currency, &seed, nonce))
}

/// A round's answer (its outcome with the nonce added).
#[allow(clippy::too_many_arguments)]
pub(super) fn answer(
    round_id: &str,
    outcome: Value,
    bet: Money,
    win: i64,
    balance: i64,
    currency: Currency,
    seed: &seeds::Seed,
    nonce: i64,
) -> Value {
    Played {
        round_id: round_id.to_owned(),
        outcome,
        bet,
        win,
        balance,
        currency,
        server_seed_hash: seed.server_seed_hash.clone(),
        client_seed: seed.client_seed.clone(),
        nonce,
    }
    .answer()
}

/// A round played, before its answer is JSON. The merged path (`batch`) hands this back from the
/// lane and the round's own task makes the JSON: the lane runs its rounds one after another, so
/// whatever it does per round is on every round's path (`perf`, 2026-11-28: the answers' JSON
/// was a twelfth of the lane task's samples).
pub(super) struct Played {
    pub(super) round_id: String,
    pub(super) outcome: Value,
    pub(super) bet: Money,
    pub(super) win: i64,
    pub(super) balance: i64,
    pub(super) currency: Currency,
    pub(super) server_seed_hash: String,
    pub(super) client_seed: String,
    pub(super) nonce: i64,
}

impl Played {
    /// The round's answer (its outcome with the nonce added).
    pub(super) fn answer(self) -> Value {
        let Played { round_id, mut outcome, bet, win, balance, currency, server_seed_hash, client_seed, nonce } = self;
        outcome["nonce"] = json!(nonce);
        json!({
            "round": round_id,
            "outcome": outcome,
            "bet": bet.to_decimal_string(),
            "win": Money::from_minor(win, currency).to_decimal_string(),
            "balance": Money::from_minor(balance, currency).to_decimal_string(),
            "currency": currency.code(),
            "server_seed_hash": server_seed_hash,
            "client_seed": client_seed,
            "nonce": nonce,
        })
    }
}

/// A bet's refusal as the house tells it.
pub(super) fn bet_refusal(e: wallet::WalletError, currency: Currency) -> HouseError {
    match e {
        wallet::WalletError::MaxBet(max) => HouseError::BonusMaxBet(Money::from_minor(max, currency)),
        wallet::WalletError::PlayLimit(reached) => HouseError::PlayLimit {
            kind: reached.kind.name(),
            period: reached.period,
            available: Money::from_minor(reached.available, currency),
        },
        other => HouseError::from(other),
    }
}
