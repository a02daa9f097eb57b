//! What a game's page reads: the session's balance and round in play, and the paytable.

use super::*;

/// `GET /games/house/{sysname}/state?token=`: the balance of the session's account and, for
/// mines, the round in play if any (after a reload).
pub async fn game_state(
    State(state): State<AppState>,
    Path(sysname): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Response {
    let result = async {
        let mut conn = state.db().pool().acquire().await.map_err(HouseError::internal)?;
        let session = live_session(&mut conn, &q.token, &sysname).await?;
        let open = if sysname == "mines" { open_mines(&mut conn, &session).await? } else { None };
        let pack = if session.mode == "real" && sysname != "mines" {
            freespins::usable(&mut conn, session.user_id, session.game_id, &session.currency)
                .await
                .map_err(HouseError::internal)?
        } else {
            None
        };
        let currency = Currency::parse(&session.currency).ok_or_else(|| HouseError::internal("bad currency"))?;
        // What a round would answer: main plus the bonus money spendable in this game.
        let (balance, _) = wallet::balance_of(&mut conn, &session, &Rules::of(&state))
            .await
            .map_err(|e| HouseError::internal(format!("{e:?}")))?;
        let round = open.map(|o| {
            json!({
                "round": o.round,
                "bet": Money::from_minor(o.bet, currency).to_decimal_string(),
                "outcome": serde_json::from_str::<Value>(&o.outcome).unwrap_or(Value::Null),
            })
        });
        Ok::<_, HouseError>(json!({
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
        Err(e) => e.into_response(),
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
        return HouseError::UnknownGame.into_response();
    };
    let Some(currency) = Currency::parse(q.currency.as_deref().unwrap_or("USD")) else {
        return HouseError::InvalidCurrency.into_response();
    };
    let (min, max) = limits.bets(currency);
    let scale = currency.scale();
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
