//! The house games other than dice: lucky-sevens (classic slot), gem-rush (video slot with free
//! spins), roulette, mines (several steps, state on the server) and plinko — rounds through the
//! wallet code and the ledger, limits, verification from revealed seeds, and their pages.

use crate::db_test;
use crate::games::{dice_rounds_in_flight, funded, launch};
use crate::helpers::{TestApp, expect_error, read_json};
use croupier_shared::{Currency, Money};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn usd() -> Currency {
    Currency::parse("USD").unwrap()
}

fn minor(text: &Value) -> i64 {
    Money::parse_major(text.as_str().unwrap(), usd()).unwrap().minor()
}

async fn post(app: &TestApp, path: &str, body: Value) -> (StatusCode, Value) {
    read_json(reqwest::Client::new().post(app.url(path)).json(&body).send().await.unwrap()).await
}

async fn token_for(app: &TestApp, client: &reqwest::Client, game: &str, mode: &str) -> String {
    let (status, launched) = launch(app, client, game, mode).await;
    assert_eq!(status, StatusCode::OK, "{launched}");
    launched["token"].as_str().unwrap().to_owned()
}

async fn main_balance(app: &TestApp, client: &reqwest::Client) -> String {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["balance_main"]["amount"].as_str().unwrap().to_owned()
}

db_test!(async fn slots_plinko_and_roulette_pay_through_the_ledger_and_re_derive(app) {
    let client = funded(app, "player@example.com", 100_000).await;
    let mut balance = 100_000_i64;
    // (game, params, bet, rounds)
    let plays = [
        ("lucky-sevens", json!({}), "2.00", 15),
        ("gem-rush", json!({}), "1.00", 15),
        ("plinko", json!({"rows": 16, "risk": "high"}), "1.00", 10),
        ("plinko", json!({"rows": 8, "risk": "low"}), "1.00", 10),
        ("roulette", json!({"bets": [{"type": "red", "amount": "1.00"}, {"type": "straight", "number": 17, "amount": "0.50"}, {"type": "column", "number": 2, "amount": "0.50"}]}), "2.00", 15),
    ];
    let mut rounds = Vec::new();
    for (game, params, bet, count) in &plays {
        let token = token_for(app, &client, game, "play").await;
        for _ in 0..*count {
            let mut body = params.clone();
            body["token"] = json!(token);
            body["bet"] = json!(bet);
            let (status, r) = post(app, &format!("/games/house/{game}/round"), body).await;
            assert_eq!(status, StatusCode::OK, "{game}: {r}");
            let win = minor(&r["win"]);
            balance = balance - minor(&json!(bet)) + win;
            assert_eq!(minor(&r["balance"]), balance, "{game}: the balance moves by bet and win");
            assert_eq!(r["outcome"]["won"], win > 0, "{game}: {r}");
            match *game {
                "lucky-sevens" => {
                    let m = r["outcome"]["multiplier"].as_i64().unwrap();
                    assert_eq!(win, 200 * m, "the line pays its multiple of the bet");
                    assert_eq!(r["outcome"]["reels"].as_array().unwrap().len(), 3);
                }
                "gem-rush" => {
                    let units = r["outcome"]["line_bets"].as_i64().unwrap();
                    assert_eq!(win, 10 * units, "a line bet is a tenth of the bet");
                    let spins = r["outcome"]["spins"].as_array().unwrap();
                    assert_eq!(spins.len(), 1 + r["outcome"]["free_spins"].as_u64().unwrap() as usize);
                    assert_eq!(spins[0]["reels"].as_array().unwrap().len(), 5);
                }
                "plinko" => {
                    let path = r["outcome"]["path"].as_array().unwrap();
                    assert_eq!(path.len() as i64, params["rows"].as_i64().unwrap());
                    assert_eq!(r["outcome"]["slot"].as_u64().unwrap(), path.iter().filter(|p| **p == 1).count() as u64);
                }
                _ => {
                    let n = r["outcome"]["number"].as_i64().unwrap();
                    let red = croupier_server::features::games::house::roulette::RED.contains(&(n as u8));
                    let expected = if red { 200 } else { 0 } + if n == 17 { 1_800 } else { 0 } + if n > 0 && (n - 1) % 3 == 1 { 150 } else { 0 };
                    assert_eq!(win, expected, "pocket {n}");
                }
            }
            rounds.push((game.to_string(), params.clone(), r, token.clone()));
        }
    }
    assert_eq!(main_balance(app, &client).await, Money::from_minor(balance, usd()).to_decimal_string());
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);

    // Rotating the seeds reveals the server seed, from which every round re-derives.
    let (status, rotated) = post(app, "/games/house/fairness", json!({"token": rounds[0].3})).await;
    assert_eq!(status, StatusCode::OK, "{rotated}");
    let server_seed = rotated["previous"]["server_seed"].as_str().unwrap().to_owned();
    for (game, params, r, _) in &rounds {
        let mut query = vec![
            ("game".to_owned(), game.clone()),
            ("server_seed".to_owned(), server_seed.clone()),
            ("client_seed".to_owned(), r["client_seed"].as_str().unwrap().to_owned()),
            ("nonce".to_owned(), r["nonce"].to_string()),
        ];
        if *game == "plinko" {
            query.push(("rows".to_owned(), params["rows"].to_string()));
            query.push(("risk".to_owned(), params["risk"].as_str().unwrap().to_owned()));
        }
        let url = reqwest::Url::parse_with_params(&app.url("/games/house/verify"), &query).unwrap();
        let verified: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
        let (got, want) = (&verified["outcome"], &r["outcome"]);
        match game.as_str() {
            "lucky-sevens" => assert_eq!(got["reels"], want["reels"]),
            "gem-rush" => assert_eq!(got["spins"], want["spins"]),
            "plinko" => assert_eq!(got["path"], want["path"]),
            _ => assert_eq!(got["number"], want["number"]),
        }
    }
    let history: Value = reqwest::get(app.url(&format!("/games/house/history?token={}", rounds[0].3))).await.unwrap().json().await.unwrap();
    assert_eq!(history["items"].as_array().unwrap().len(), 15, "a game's history lists its own rounds");
    assert_eq!(history["items"][0]["server_seed"], server_seed.as_str());
});

db_test!(async fn each_game_has_its_limits_and_refuses_bad_parameters(app) {
    let client = funded(app, "limits@example.com", 30_000).await;
    let cases: [(&str, Value, &str, u16, &str); 12] = [
        ("lucky-sevens", json!({}), "50.01", 422, "bet_limits"),
        ("lucky-sevens", json!({}), "0.09", 422, "bet_limits"),
        ("gem-rush", json!({}), "50.01", 422, "bet_limits"),
        ("plinko", json!({"rows": 10, "risk": "low"}), "1.00", 422, "invalid_params"),
        ("plinko", json!({"rows": 8, "risk": "extreme"}), "1.00", 422, "invalid_params"),
        ("roulette", json!({"bets": [{"type": "red", "amount": "1.00"}]}), "2.00", 422, "invalid_params"),
        ("roulette", json!({"bets": [{"type": "straight", "number": 37, "amount": "1.00"}]}), "1.00", 422, "invalid_params"),
        ("roulette", json!({"bets": [{"type": "dozen", "amount": "1.00"}]}), "1.00", 422, "invalid_params"),
        ("roulette", json!({"bets": [{"type": "red", "amount": "0.05"}, {"type": "black", "amount": "0.95"}]}), "1.00", 422, "invalid_params"),
        ("roulette", json!({"bets": []}), "1.00", 422, "invalid_params"),
        ("mines", json!({"mines": 25}), "1.00", 422, "invalid_params"),
        ("roulette", json!({"bets": [{"type": "red", "amount": "150.00"}, {"type": "black", "amount": "150.00"}]}), "300.00", 422, "bet_limits"),
    ];
    for (game, params, bet, status, code) in cases {
        let token = token_for(app, &client, game, "play").await;
        let mut body = params.clone();
        body["token"] = json!(token);
        body["bet"] = json!(bet);
        let (got, r) = post(app, &format!("/games/house/{game}/round"), body).await;
        assert_eq!((got.as_u16(), r["error"].as_str()), (status, Some(code)), "{game} {params} {bet}: {r}");
    }
    // Roulette's table takes 200 in all; more than the balance is refused as such.
    let token = token_for(app, &client, "roulette", "play").await;
    let bets = json!([{"type": "red", "amount": "100.00"}, {"type": "black", "amount": "100.00"}]);
    let (status, r) = post(app, "/games/house/roulette/round", json!({"token": token, "bet": "200.00", "bets": bets})).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let left = minor(&r["balance"]);
    let (status, r) = post(app, "/games/house/plinko/round", json!({"token": token, "bet": "1.00", "rows": 8, "risk": "low"})).await;
    assert_eq!((status, r["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("invalid_token")), "a token is for its game");
    let token = token_for(app, &client, "plinko", "play").await;
    let too_much = Money::from_minor(left + 100, usd()).to_decimal_string();
    if left + 100 <= 10_000 {
        let (status, r) = post(app, "/games/house/plinko/round", json!({"token": token, "bet": too_much, "rows": 8, "risk": "low"})).await;
        assert_eq!((status, r["error"].as_str()), (StatusCode::PAYMENT_REQUIRED, Some("not_enough_money")));
    }
    // The paytable is published with the limits in the player's currency.
    let (status, table) = read_json(reqwest::get(app.url("/games/house/gem-rush/paytable?currency=USD")).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((table["rtp"].as_str(), table["min_bet"].as_str(), table["max_bet"].as_str()), (Some("96.16"), Some("0.10"), Some("50.00")));
    assert_eq!(table["paytable"]["free_spins"], 8);
    assert_eq!(table["paytable"]["lines"].as_array().unwrap().len(), 10);
    let (_, table) = read_json(reqwest::get(app.url("/games/house/roulette/paytable")).await.unwrap()).await;
    assert_eq!(table["rtp"], "97.29");
    let (status, _) = read_json(reqwest::get(app.url("/games/house/nothing/paytable")).await.unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
});

/// The mine layout of the round in play, read from the database as only the server knows it.
async fn hidden_layout(app: &TestApp, mines: usize) -> Vec<usize> {
    let (seed, client, nonce): (String, String, i64) = sqlx::query_as(
        "SELECT s.server_seed, s.client_seed, h.nonce FROM house_rounds h JOIN fairness_seeds s ON s.id = h.seed_id \
         JOIN game_rounds r ON r.id = h.round_id WHERE r.status = 'open' ORDER BY r.id DESC LIMIT 1",
    )
    .fetch_one(app.state.db().pool())
    .await
    .unwrap();
    use croupier_server::features::games::house::{fair, mines as m};
    m::layout(&fair::floats(&seed, &client, nonce, m::FLOATS), mines)
}

db_test!(async fn mines_keeps_its_round_on_the_server_until_cash_out_or_a_mine(app) {
    let client = funded(app, "sapper@example.com", 10_000).await;
    let token = token_for(app, &client, "mines", "play").await;
    let (status, r) = post(app, "/games/house/mines/cashout", json!({"token": token})).await;
    assert_eq!((status, r["error"].as_str()), (StatusCode::CONFLICT, Some("no_round")));
    let (status, start) = post(app, "/games/house/mines/round", json!({"token": token, "bet": "1.00", "mines": 3})).await;
    assert_eq!(status, StatusCode::OK, "{start}");
    assert_eq!((start["outcome"]["status"].as_str(), start["balance"].as_str()), (Some("open"), Some("99.00")));
    assert!(start["outcome"]["layout"].is_null(), "the field stays hidden");
    let layout = hidden_layout(app, 3).await;
    let safe: Vec<usize> = (0..25).filter(|c| !layout.contains(c)).collect();

    let (status, r) = post(app, "/games/house/mines/round", json!({"token": token, "bet": "1.00", "mines": 3})).await;
    assert_eq!((status, r["error"].as_str()), (StatusCode::CONFLICT, Some("round_open")), "one round at a time");
    let (status, r) = post(app, "/games/house/fairness", json!({"token": token})).await;
    assert_eq!((status, r["error"].as_str()), (StatusCode::CONFLICT, Some("round_open")), "no seed reveal mid-round");
    let (status, r) = post(app, "/games/house/mines/cashout", json!({"token": token})).await;
    assert_eq!((status, r["error"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_params")));
    let (status, _) = post(app, "/games/house/mines/reveal", json!({"token": token, "cell": 25})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    for (i, cell) in safe.iter().take(2).enumerate() {
        let (status, r) = post(app, "/games/house/mines/reveal", json!({"token": token, "cell": cell})).await;
        assert_eq!(status, StatusCode::OK, "{r}");
        assert_eq!(r["outcome"]["status"], "open");
        assert_eq!(r["outcome"]["revealed"].as_array().unwrap().len(), i + 1);
        assert!(r["outcome"]["layout"].is_null());
    }
    let (status, r) = post(app, "/games/house/mines/reveal", json!({"token": token, "cell": safe[0]})).await;
    assert_eq!((status, r["error"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_params")), "a cell opens once");
    // A reload finds the round.
    let state: Value = reqwest::get(app.url(&format!("/games/house/mines/state?token={token}"))).await.unwrap().json().await.unwrap();
    assert_eq!(state["round"]["outcome"]["revealed"].as_array().unwrap().len(), 2);
    assert!(state["round"]["outcome"].get("layout").is_none_or(Value::is_null));

    let (status, cashed) = post(app, "/games/house/mines/cashout", json!({"token": token})).await;
    assert_eq!(status, StatusCode::OK, "{cashed}");
    let m = croupier_server::features::games::house::mines::multiplier_e4(3, 2);
    assert_eq!(minor(&cashed["win"]), 100 * m / 10_000);
    assert_eq!(cashed["outcome"]["status"], "cashed");
    assert_eq!(cashed["outcome"]["layout"], json!(layout), "the field is shown once the round is over");
    assert_eq!(minor(&cashed["balance"]), 9_900 + 100 * m / 10_000);

    // Second round: straight onto a mine.
    let (_, _) = post(app, "/games/house/mines/round", json!({"token": token, "bet": "2.00", "mines": 5})).await;
    let layout = hidden_layout(app, 5).await;
    let (status, busted) = post(app, "/games/house/mines/reveal", json!({"token": token, "cell": layout[0]})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((busted["outcome"]["status"].as_str(), busted["win"].as_str()), (Some("busted"), Some("0.00")));
    assert_eq!(main_balance(app, &client).await, Money::from_minor(9_700 + 100 * m / 10_000, usd()).to_decimal_string());
    let (status, r) = post(app, "/games/house/mines/reveal", json!({"token": token, "cell": 0})).await;
    assert_eq!((status, r["error"].as_str()), (StatusCode::CONFLICT, Some("no_round")));

    // Now the seed can rotate, and the revealed seed re-derives the fields.
    let (status, rotated) = post(app, "/games/house/fairness", json!({"token": token})).await;
    assert_eq!(status, StatusCode::OK);
    let url = reqwest::Url::parse_with_params(&app.url("/games/house/verify"), &[
        ("game", "mines"), ("server_seed", rotated["previous"]["server_seed"].as_str().unwrap()),
        ("client_seed", busted["client_seed"].as_str().unwrap()), ("nonce", &busted["nonce"].to_string()), ("mines", "5"),
    ]).unwrap();
    let verified: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
    assert_eq!(verified["outcome"]["layout"], json!(layout));
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
});

db_test!(async fn demo_rounds_use_the_fun_balance_and_pages_speak_both_languages(app) {
    let client = app.browser();
    app.register(&client, "visitor@example.com").await;
    let token = token_for(app, &client, "plinko", "demo").await;
    let (status, r) = post(app, "/games/house/plinko/round", json!({"token": token, "bet": "10.00", "rows": 12, "risk": "medium"})).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(minor(&r["balance"]), 100_000 - 1_000 + minor(&r["win"]));
    assert_eq!(main_balance(app, &client).await, "0.00", "demo money is not real money");
    for game in ["lucky-sevens", "gem-rush", "roulette", "mines", "plinko"] {
        for (locale, word) in [("en", "Balance"), ("fr", "Solde")] {
            let page = reqwest::get(app.url(&format!("/games/house/{game}?token=abc&locale={locale}"))).await.unwrap();
            assert_eq!(page.status(), StatusCode::OK);
            let html = page.text().await.unwrap();
            assert!(html.contains(word) && html.contains(&format!("data-game=\"{game}\"")), "{game} {locale}");
            assert!(html.contains("/games/house/assets/house.js") && html.contains("width=device-width"));
        }
        let tile = reqwest::get(app.url(&format!("/games/house/{game}/tile.svg"))).await.unwrap();
        assert_eq!(tile.headers()["content-type"], "image/svg+xml");
    }
    let js = reqwest::get(app.url("/games/house/assets/house.js")).await.unwrap().text().await.unwrap();
    assert!(js.contains("/games/house/mines/cashout"));
    let css = reqwest::get(app.url("/games/house/assets/house.css")).await.unwrap();
    assert_eq!(css.headers()["content-type"], "text/css; charset=utf-8");
    let missing = reqwest::get(app.url("/games/house/nothing?token=abc")).await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
});

// A crawler following demo links without keeping cookies makes a guest per request: one address
// makes at most 60 new guests an hour, then gets 429 with Retry-After; a browser that kept its
// cookie keeps its guest and is not refused.
db_test!(async fn one_address_makes_a_bounded_number_of_guests(app) {
    use croupier_server::features::games::launch::GUESTS_PER_ADDRESS_PER_HOUR;
    let kept = app.browser();
    let r = kept.get(app.url("/platform/game/plinko/demo")).header("accept", "application/json").send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let crawler = reqwest::Client::new();
    let mut refused = None;
    for n in 1..=GUESTS_PER_ADDRESS_PER_HOUR {
        let r = crawler.get(app.url("/platform/game/plinko/demo")).header("accept", "application/json").send().await.unwrap();
        if r.status() != StatusCode::OK {
            refused = Some((n, r));
            break;
        }
    }
    let (n, r) = refused.expect("the address runs out of new guests");
    assert_eq!((n, r.status()), (GUESTS_PER_ADDRESS_PER_HOUR, StatusCode::TOO_MANY_REQUESTS));
    assert!(r.headers().contains_key("retry-after"));
    let (status, body) = read_json(r).await;
    expect_error(status, &body, 429, "TooManyRequestsException");
    let guests: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE status = 'guest'").fetch_one(app.state.db().pool()).await.unwrap();
    assert_eq!(guests, GUESTS_PER_ADDRESS_PER_HOUR as i64);
    let r = kept.get(app.url("/platform/game/plinko/demo")).header("accept", "application/json").send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK, "the kept guest still launches");
    let page = crawler.get(app.url("/platform/game/plinko/demo")).header("cookie", "i18n_locale=fr").send().await.unwrap();
    assert_eq!(page.status(), StatusCode::TOO_MANY_REQUESTS, "the page says it too");
    assert!(page.text().await.unwrap().contains("Trop de tentatives"));
});

db_test!(async fn guests_play_demo_rounds_with_fun_money_that_refills(app) {
    let guest = app.browser();
    let (status, body) = launch(app, &guest, "plinko", "play").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "real play needs a player: {body}");
    let r = guest.get(app.url("/platform/game/plinko/demo")).header("accept", "application/json").send().await.unwrap();
    assert!(r.headers().get_all("set-cookie").iter().any(|c| c.to_str().unwrap().starts_with("croupier_guest=")));
    let (status, launched) = read_json(r).await;
    assert_eq!((status, launched["mode"].as_str()), (StatusCode::OK, Some("demo")), "{launched}");
    let token = launched["token"].as_str().unwrap().to_owned();
    let (status, round) = post(app, "/games/house/plinko/round", json!({"token": token, "bet": "100.00", "rows": 8, "risk": "low"})).await;
    assert_eq!(status, StatusCode::OK, "{round}");
    assert_eq!(minor(&round["balance"]), 100_000 - 10_000 + minor(&round["win"]));

    // The same browser stays the same guest; its fun money refills below a tenth.
    let guests = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM users WHERE status = 'guest'").fetch_one(app.state.db().pool()).await.unwrap()
    };
    assert_eq!(guests().await, 1);
    let user: i64 = sqlx::query_scalar("SELECT id FROM users WHERE status = 'guest'").fetch_one(app.state.db().pool()).await.unwrap();
    use croupier_server::ledger::{Account, Entry, HouseAccount, PlayerAccount};
    let fun = Account::Player { user_id: user, kind: PlayerAccount::Fun };
    let mut tx = app.state.db().begin().await.unwrap();
    let left = croupier_server::ledger::balance(&mut tx, fun, usd()).await.unwrap();
    let drain = Entry::transfer("test-drain", "fun_top_up", usd(), fun, Account::House(HouseAccount::FunSupply), left - 5_000);
    croupier_server::ledger::post(&mut tx, &drain).await.unwrap();
    tx.commit().await.unwrap();
    let token = token_for(app, &guest, "mines", "demo").await;
    assert_eq!(guests().await, 1);
    let state: Value = reqwest::get(app.url(&format!("/games/house/mines/state?token={token}"))).await.unwrap().json().await.unwrap();
    assert_eq!(state["balance"], "1000.00");
    assert_eq!(state["mode"], "demo");

    // An idle guest is swept: fun money back to the house, sessions gone, a new guest next time.
    sqlx::query("UPDATE users SET reg_time = 0 WHERE status = 'guest'").execute(app.state.db().pool()).await.unwrap();
    croupier_server::features::games::launch::sweep_guests(app.state.platform().clone()).await.unwrap();
    assert_eq!(guests().await, 1, "a guest with a recent launch stays");
    sqlx::query("UPDATE game_sessions SET created_at = 0 WHERE user_id = $1").bind(user).execute(app.state.db().pool()).await.unwrap();
    croupier_server::features::games::launch::sweep_guests(app.state.platform().clone()).await.unwrap();
    assert_eq!(guests().await, 0);
    let mut conn = app.state.db().pool().acquire().await.unwrap();
    assert_eq!(croupier_server::ledger::balance(&mut conn, fun, usd()).await.unwrap(), 0);
    drop(conn);
    let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM game_sessions WHERE user_id = $1").bind(user).fetch_one(app.state.db().pool()).await.unwrap();
    assert_eq!(sessions, 0);
    let state = reqwest::get(app.url(&format!("/games/house/mines/state?token={token}"))).await.unwrap();
    assert_ne!(state.status(), StatusCode::OK, "the swept guest's token is gone");
    let again = token_for(app, &guest, "mines", "demo").await;
    assert_ne!(again, token);
    assert_eq!(guests().await, 1, "the same browser becomes a new guest");
    let new_user: i64 = sqlx::query_scalar("SELECT id FROM users WHERE status = 'guest'").fetch_one(app.state.db().pool()).await.unwrap();
    assert_ne!(new_user, user);
    croupier_server::features::games::launch::sweep_guests(app.state.platform().clone()).await.unwrap();
    assert_eq!(guests().await, 1, "sweeping twice changes nothing");

    // A game whose config does not allow it keeps guests out.
    sqlx::query("UPDATE games SET config = '{\"canPlayDemoAsGuest\":false}' WHERE sysname = 'dice'").execute(app.state.db().pool()).await.unwrap();
    let (status, _) = launch(app, &app.browser(), "dice", "demo").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
});

db_test!(async fn concurrent_rounds_merged_on_the_lane_keep_balances_nonces_and_the_ledger(app) {
    // Six players, the first with money for a few bets only, each with three rounds in flight at
    // once: the lane merges what is queued together (`house::batch`), a player's rounds in one
    // run play one after the other from the balance and nonce the last one left, and a refused
    // round takes nobody else's with it.
    let mut players = Vec::new();
    for i in 0..6_i64 {
        let funds = if i == 0 { 250 } else { 50_000 };
        let client = funded(app, &format!("merged{i}@example.com"), funds).await;
        let token = token_for(app, &client, "dice", "play").await;
        // The first round makes the seed pair (the general path); the rest may be merged.
        let body = json!({"token": token, "bet": "0.10", "target": "50.00", "condition": "under"});
        let (status, first) = post(app, "/games/house/dice/round", body).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
        players.push((client, token, me["data"]["uid"].as_i64().unwrap(), minor(&first["balance"]), first["nonce"].as_i64().unwrap()));
    }
    let in_flight: Vec<(String, usize, usize)> = players.iter().map(|(_, token, ..)| (token.clone(), 3, 5)).collect();
    let answers = dice_rounds_in_flight(app, &in_flight, "under").await;
    for (p, (client, token, user, start, first_nonce)) in players.iter().enumerate() {
        let mut played: Vec<&Value> = answers.iter().filter(|a| a.0 == p && a.1 == StatusCode::OK).map(|a| &a.2).collect();
        for (_, status, r) in answers.iter().filter(|a| a.0 == p && a.1 != StatusCode::OK) {
            assert_eq!((*status, r["error"].as_str()), (StatusCode::PAYMENT_REQUIRED, Some("not_enough_money")), "player {p}: {r}");
        }
        if p > 0 {
            assert_eq!(played.len(), 15, "player {p}: every funded round plays");
        }
        // The nonces follow each other, and each answer's balance is the one before it less the
        // bet plus the win: the rounds played in order, whatever run they were merged in.
        played.sort_by_key(|r| r["nonce"].as_i64().unwrap());
        let mut balance = *start;
        for (i, r) in played.iter().enumerate() {
            assert_eq!(r["nonce"].as_i64().unwrap(), first_nonce + 1 + i as i64, "player {p}: {r}");
            balance = balance - 100 + minor(&r["win"]);
            assert!(balance >= 0);
            assert_eq!(minor(&r["balance"]), balance, "player {p}: {r}");
        }
        assert_eq!(main_balance(app, client).await, Money::from_minor(balance, usd()).to_decimal_string());
        let pool = app.state.db().pool();
        let rounds: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM game_rounds WHERE user_id = $1 AND status = 'closed'")
            .bind(user).fetch_one(pool).await.unwrap();
        assert_eq!(rounds, played.len() as i64 + 1, "player {p}: one closed round per answer");
        let records: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM wallet_transactions w JOIN game_rounds r ON r.id = w.round_id WHERE r.user_id = $1",
        ).bind(user).fetch_one(pool).await.unwrap();
        assert_eq!(records, 2 * rounds, "player {p}: a bet and a win recorded per round");
        let draws: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM house_rounds h JOIN game_rounds r ON r.id = h.round_id WHERE r.user_id = $1")
            .bind(user).fetch_one(pool).await.unwrap();
        assert_eq!(draws, rounds);
        // The loyalty points the records say each bet earned are the account's.
        let (earned, lifetime): (i64, i64) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(w.points), 0) AS BIGINT), CAST(COALESCE((SELECT l.lifetime FROM loyalty_accounts l WHERE l.user_id = $1), 0) AS BIGINT) \
             FROM wallet_transactions w JOIN game_rounds r ON r.id = w.round_id WHERE r.user_id = $1",
        ).bind(user).fetch_one(pool).await.unwrap();
        assert!(earned > 0, "player {p}: dice earns points in the demo programme");
        assert_eq!(earned, lifetime, "player {p}");
        // The seed's nonce is the last round's, and each round re-derives from the revealed seed.
        let (status, rotated) = post(app, "/games/house/fairness", json!({"token": token})).await;
        assert_eq!(status, StatusCode::OK, "{rotated}");
        assert_eq!(rotated["previous"]["nonce"].as_i64(), Some(first_nonce + played.len() as i64), "{rotated}");
        let server_seed = rotated["previous"]["server_seed"].as_str().unwrap();
        for r in played.iter().take(4) {
            let query = [
                ("game", "dice".to_owned()),
                ("server_seed", server_seed.to_owned()),
                ("client_seed", r["client_seed"].as_str().unwrap().to_owned()),
                ("nonce", r["nonce"].to_string()),
                ("target", "50.00".to_owned()),
                ("condition", "under".to_owned()),
            ];
            let url = reqwest::Url::parse_with_params(&app.url("/games/house/verify"), &query).unwrap();
            let verified: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
            assert_eq!(verified["outcome"]["roll"], r["outcome"]["roll"], "{verified} {r}");
        }
    }
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
});

db_test!(async fn a_players_demo_and_real_rounds_merged_together_keep_their_own_balances(app) {
    // One player with a real and a demo session of dice, rounds of both in flight at once: a run
    // that merges them (`house::batch`) plays each from its own balance — main or fun — while
    // the nonces of the player's one seed pair follow each other across both.
    let client = funded(app, "both@example.com", 50_000).await;
    let real = token_for(app, &client, "dice", "play").await;
    let demo = token_for(app, &client, "dice", "demo").await;
    let round = |token: &str| json!({"token": token, "bet": "1.00", "target": "50.00", "condition": "under"});
    let mut start = std::collections::HashMap::new();
    for (mode, token) in [("real", &real), ("demo", &demo)] {
        let (status, first) = post(app, "/games/house/dice/round", round(token)).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        start.insert(mode, minor(&first["balance"]));
    }
    let mut tasks = Vec::new();
    for (mode, token) in [("real", &real), ("demo", &demo), ("real", &real), ("demo", &demo)] {
        let (url, body) = (app.url("/games/house/dice/round"), round(token));
        tasks.push(tokio::spawn(async move {
            let client = reqwest::Client::new();
            let mut answers = Vec::new();
            for _ in 0..6 {
                let r = client.post(&url).json(&body).send().await.unwrap();
                assert_eq!(r.status(), StatusCode::OK);
                answers.push((mode, r.json::<Value>().await.unwrap()));
            }
            answers
        }));
    }
    let mut answers = Vec::new();
    for task in tasks {
        answers.extend(task.await.unwrap());
    }
    answers.sort_by_key(|(_, r)| r["nonce"].as_i64().unwrap());
    let mut balances = start.clone();
    for (i, (mode, r)) in answers.iter().enumerate() {
        assert_eq!(r["nonce"].as_i64().unwrap(), 3 + i as i64, "{r}");
        let balance = balances.get_mut(mode).unwrap();
        *balance = *balance - 100 + minor(&r["win"]);
        assert_eq!(minor(&r["balance"]), *balance, "round {i} ({mode}): {r}");
    }
    let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
    assert_eq!(minor(&me["data"]["balance_main"]["amount"]), balances["real"]);
    assert_eq!(minor(&me["data"]["balance_fun"]["amount"]), balances["demo"]);
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
});
