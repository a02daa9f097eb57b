//! Games: catalogue, launch, the house dice game and the provider wallet protocol.

use crate::db_test;
use crate::helpers::{Backend, TestApp, expect_error, read_json};
use reqwest::StatusCode;
use serde_json::{Value, json};

pub async fn funded(app: &TestApp, email: &str, amount: i64) -> reqwest::Client {
    let client = app.browser();
    let info = app.register(&client, email).await;
    let user = info["uid"].as_i64().unwrap();
    let key = format!("test-funding:{user}");
    let usd = croupier_shared::Currency::parse("USD").unwrap();
    use croupier_server::ledger::{Account, Entry, HouseAccount};
    let entry = Entry::transfer(
        &key,
        "deposit",
        usd,
        Account::House(HouseAccount::PaymentClearing),
        Account::main(user),
        amount,
    )
    .by(Some(user));
    let mut tx = app.state.db().begin().await.unwrap();
    croupier_server::ledger::post(&mut tx, &entry).await.unwrap();
    tx.commit().await.unwrap();
    client
}

pub async fn launch(app: &TestApp, client: &reqwest::Client, sysname: &str, mode: &str) -> (StatusCode, Value) {
    let r = client
        .get(app.url(&format!("/platform/game/{sysname}/{mode}")))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    read_json(r).await
}

/// Dice rounds of 1.00 (target 50.00, `condition` under or over) in flight at once: for each
/// `(token, flights, rounds)` of `players`, `flights` tasks that each post `rounds` rounds one
/// after the other. Every answer, with its player's index in `players`.
pub async fn dice_rounds_in_flight(
    app: &TestApp,
    players: &[(String, usize, usize)],
    condition: &str,
) -> Vec<(usize, StatusCode, Value)> {
    let mut tasks = Vec::new();
    for (p, (token, flights, rounds)) in players.iter().enumerate() {
        for _ in 0..*flights {
            let url = app.url("/games/house/dice/round");
            let body = json!({"token": token, "bet": "1.00", "target": "50.00", "condition": condition});
            let rounds = *rounds;
            tasks.push(tokio::spawn(async move {
                let client = reqwest::Client::new();
                let mut answers = Vec::new();
                for _ in 0..rounds {
                    let r = client.post(&url).json(&body).send().await.unwrap();
                    answers.push((p, r.status(), r.json::<Value>().await.unwrap()));
                }
                answers
            }));
        }
    }
    let mut answers = Vec::new();
    for task in tasks {
        answers.extend(task.await.unwrap());
    }
    answers
}

db_test!(async fn the_lobby_lists_searches_and_filters_games(app) {
    let (status, body) = app.api_get("games.get", &[]).await;
    assert_eq!(status, StatusCode::OK);
    let dice = body["data"]["items"].as_array().unwrap().iter().find(|g| g["sysname"] == "dice").unwrap().clone();
    assert_eq!((dice["provider"].as_str(), dice["type"].as_str(), dice["rtp"].as_str()), (Some("house"), Some("fast"), Some("99.00")));
    assert_eq!(dice["description"]["img_288_192"], "/games/house/dice/tile.svg");
    assert_eq!(dice["config"]["visibleFullScreen"], "all");
    for (options, found) in [
        (json!({"search": "DÉS"}), true),
        (json!({"search": "roulette"}), true),
        (json!({"search": "ROULETTE europeenne"}), true),
        (json!({"search": "baccarat"}), false),
        (json!({"category": "originals"}), true),
        (json!({"category": "slots"}), true),
        (json!({"category": "table", "search": "dice"}), false),
        (json!({"providers": "house,other"}), true),
        (json!({"providers": "other"}), false),
        (json!({"type": "fast"}), true),
        (json!({"type": "live"}), false),
        (json!({"sysnames": ["dice"]}), true),
    ] {
        let (_, body) = app.api_get("games.get", &[("options", &options.to_string())]).await;
        assert_eq!(body["data"]["total"].as_i64().unwrap() > 0, found, "{options}: {body}");
    }
    for bad in ["{\"colour\":\"red\"}", "{\"sort\":\"random\"}", "{\"limit\":0}", "{\"offset\":-1}", "not json"] {
        let (status, body) = app.api_get("games.get", &[("options", bad)]).await;
        expect_error(status, &body, 422, "InvalidParameterException");
    }

    // The lobby is served from an in-memory index; a change to the games table (here an
    // operator's SQL) reaches it through the catalogue version within its check interval.
    sqlx::query("UPDATE games SET name_en = 'Dice Deluxe', search_text = 'dice deluxe des dice' WHERE sysname = 'dice'")
        .execute(app.state.db().pool())
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(
        u64::try_from(croupier_server::features::games::index::CHECK_EVERY_MS).unwrap() + 50,
    ))
    .await;
    let (_, body) = app.api_get("games.get", &[("options", "{\"search\":\"deluxe\",\"sort\":\"name\"}")]).await;
    assert_eq!((body["data"]["total"].as_i64(), body["data"]["items"][0]["name"].as_str()), (Some(1), Some("Dice Deluxe")), "{body}");
    let (_, body) = app.api_get("games.get", &[("options", "{\"sort\":\"name\",\"limit\":2,\"offset\":1}")]).await;
    assert_eq!(body["data"]["total"].as_i64(), Some(6), "a page keeps the whole count: {body}");
    assert_eq!(body["data"]["items"].as_array().unwrap().len(), 2);
    let (_, categories) = app.api_get("games.getCategories", &[]).await;
    assert!(categories["data"].as_array().unwrap().iter().any(|c| c["slug"] == "originals" && c["games"] == 6));
    let (_, providers) = app.api_get("games.getProviders", &[("types", "fast")]).await;
    assert_eq!(providers["data"][0]["sysname"], "house");
    let (_, none) = app.api_get("games.getProviders", &[("types", "live")]).await;
    assert_eq!(none["data"], json!([]));
});

db_test!(async fn favourites_are_kept_per_player(app) {
    let client = app.browser();
    app.register(&client, "fan@example.com").await;
    let (status, _) = app.post_as(&client, "games.addLike", &[("sysname", "dice")]).await;
    assert_eq!(status, StatusCode::OK);
    let (_, likes) = app.get_as(&client, "games.getLikes", &[]).await;
    assert_eq!(likes["data"], json!(["dice"]));
    let (_, favs) = app.get_as(&client, "games.get", &[("options", "{\"favourites\":true}")]).await;
    assert_eq!(favs["data"]["items"][0]["is_favourite"], true);
    let (_, body) = app.post_as(&client, "games.addLike", &[("sysname", "nope")]).await;
    assert_eq!(body["error"]["error_data"]["sysname"][0], "NOT_FOUND");
    app.post_as(&client, "games.removeLike", &[("sysname", "dice")]).await;
    let (_, likes) = app.get_as(&client, "games.getLikes", &[]).await;
    assert_eq!(likes["data"], json!([]));
    let (status, body) = app.api_get("games.get", &[("options", "{\"favourites\":true}")]).await;
    expect_error(status, &body, 401, "AuthorizationException");
});

db_test!(async fn launching_needs_a_player_and_money_for_real_play_and_refills_demo_money(app) {
    let (status, body) = launch(app, &app.browser(), "dice", "play").await;
    expect_error(status, &body, 401, "AuthorizationException");
    let broke = app.browser();
    app.register(&broke, "broke@example.com").await;
    let (status, body) = launch(app, &broke, "dice", "play").await;
    expect_error(status, &body, 409, "UserNeedDepositException");
    let (status, body) = launch(app, &broke, "dice", "demo").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!((body["mode"].as_str(), body["currency"].as_str()), (Some("demo"), Some("USD")));
    // The session's end, told both ways: the game page warns by the device's own clock.
    assert_eq!(body["expires_in"], 4 * 3600, "{body}");
    let end = body["expires_at"].as_i64().unwrap() - crate::helpers::now_seconds();
    assert!((4 * 3600 - 5..=4 * 3600).contains(&end), "{body}");
    assert!(body["url"].as_str().unwrap().starts_with("http://localhost:8080/games/house/dice?token="));
    let (_, me) = app.get_as(&broke, "account.getInfo", &[]).await;
    assert_eq!(me["data"]["balance_fun"]["amount"], "1000.00");
    assert_eq!(me["data"]["balance_main"]["amount"], "0.00");

    let rich = funded(app, "rich@example.com", 5_000).await;
    let (status, body) = launch(app, &rich, "dice", "play").await;
    assert_eq!((status, body["mode"].as_str()), (StatusCode::OK, Some("real")));
    let page = rich.get(app.url("/platform/game/dice")).send().await.unwrap().text().await.unwrap();
    assert!(page.contains("<iframe src=\"http://localhost:8080/games/house/dice?token="), "{page}");
    let (status, _) = launch(app, &rich, "no-such-game", "play").await;
    assert_eq!(status.as_u16(), 422);
});

async fn roll(app: &TestApp, token: &str, bet: &str, target: &str, condition: &str) -> (StatusCode, Value) {
    let r = reqwest::Client::new()
        .post(app.url("/games/house/dice/round"))
        .json(&json!({"token": token, "bet": bet, "target": target, "condition": condition}))
        .send()
        .await
        .unwrap();
    read_json(r).await
}

db_test!(async fn dice_rounds_move_money_through_the_ledger_and_can_be_verified(app) {
    let client = funded(app, "dice@example.com", 10_000).await;
    let (_, launched) = launch(app, &client, "dice", "play").await;
    let token = launched["token"].as_str().unwrap().to_owned();
    let seeds: Value = reqwest::get(app.url(&format!("/games/house/fairness?token={token}"))).await.unwrap().json().await.unwrap();
    let committed_hash = seeds["server_seed_hash"].as_str().unwrap().to_owned();
    let mut balance = 10_000_i64;
    let mut rounds = Vec::new();
    for i in 0..12 {
        let (status, body) = roll(app, &token, "2.50", "60.00", if i % 2 == 0 { "under" } else { "over" }).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let win = croupier_shared::Money::parse_major(body["win"].as_str().unwrap(), croupier_shared::Currency::parse("USD").unwrap()).unwrap().minor();
        balance = balance - 250 + win;
        assert_eq!(body["balance"].as_str().unwrap(), croupier_shared::Money::from_minor(balance, croupier_shared::Currency::parse("USD").unwrap()).to_decimal_string());
        assert_eq!(body["server_seed_hash"], committed_hash.as_str());
        assert_eq!(body["nonce"], i + 1);
        assert_eq!(body["outcome"]["won"], win > 0);
        rounds.push(body);
    }
    let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
    assert_eq!(me["data"]["balance_main"]["amount"], croupier_shared::Money::from_minor(balance, croupier_shared::Currency::parse("USD").unwrap()).to_decimal_string());
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);

    // Rotating reveals the seed; every past round re-derives from it.
    let rotated: Value = reqwest::Client::new().post(app.url("/games/house/fairness")).json(&json!({"token": token, "client_seed": "mySeed42"})).send().await.unwrap().json().await.unwrap();
    let server_seed = rotated["previous"]["server_seed"].as_str().unwrap().to_owned();
    assert_eq!(croupier_server::features::games::house::fair::hash_seed(&server_seed), committed_hash, "the revealed seed is the one committed to");
    assert_eq!(rotated["current"]["client_seed"], "mySeed42");
    for r in &rounds {
        let url = reqwest::Url::parse_with_params(&app.url("/games/house/verify"), &[
            ("game", "dice"), ("server_seed", server_seed.as_str()), ("client_seed", r["client_seed"].as_str().unwrap()),
            ("nonce", &r["nonce"].to_string()), ("target", "60.00"), ("condition", r["outcome"]["condition"].as_str().unwrap()),
        ]).unwrap();
        let verified: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
        assert_eq!(verified["outcome"]["roll"], r["outcome"]["roll"], "round {} re-derives", r["nonce"]);
    }
    let history: Value = reqwest::get(app.url(&format!("/games/house/history?token={token}"))).await.unwrap().json().await.unwrap();
    assert_eq!(history["items"].as_array().unwrap().len(), 12);
    assert_eq!(history["items"][0]["server_seed"], server_seed.as_str(), "revealed seeds show in the history");
});

db_test!(async fn dice_refuses_bad_bets_tokens_and_overdrafts(app) {
    let client = funded(app, "careful@example.com", 500).await;
    let (_, launched) = launch(app, &client, "dice", "play").await;
    let token = launched["token"].as_str().unwrap().to_owned();
    for (bet, target, condition, code) in [
        ("0.01", "50.00", "under", "bet_limits"),
        ("100.01", "50.00", "under", "bet_limits"),
        ("abc", "50.00", "under", "invalid_bet"),
        ("1.00", "99.00", "under", "invalid_params"),
        ("1.00", "50.00", "sideways", "invalid_params"),
        ("6.00", "50.00", "under", "not_enough_money"),
    ] {
        let (status, body) = roll(app, &token, bet, target, condition).await;
        assert!(status.is_client_error(), "{bet} {target} {condition}: {status}");
        assert_eq!(body["error"], code, "{body}");
    }
    let (status, body) = roll(app, "forged-token", "1.00", "50.00", "under").await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("invalid_token")));
    let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
    assert_eq!(me["data"]["balance_main"]["amount"], "5.00", "refused rounds move nothing");
});

pub const AGG_SECRET: &str = "aggregator-secret-0123456789";

/// `CROUPIER_GAME_PROVIDERS` for the fake aggregator `fakeagg`.
/// A seamless-wallet call of the test aggregator (`fakeagg`) with `body` as it is, signed with
/// `secret` at `timestamp` (Unix seconds), ready to send to the server at `base`.
pub fn signed_wallet_call(
    http: &reqwest::Client,
    base: &str,
    action: &str,
    body: &Value,
    secret: &str,
    timestamp: i64,
) -> reqwest::RequestBuilder {
    let text = body.to_string();
    let path = format!("/provider/wallet/fakeagg/{action}");
    let timestamp = timestamp.to_string();
    let signature = croupier_server::features::games::wallet::signature(
        secret.as_bytes(),
        &timestamp,
        "POST",
        &path,
        text.as_bytes(),
    );
    http.post(format!("{base}{path}"))
        .header("content-type", "application/json")
        .header("x-croupier-timestamp", timestamp)
        .header("x-croupier-signature", signature)
        .body(text)
}

pub fn agg_providers() -> String {
    format!("fakeagg|https://agg.example/launch?t={{token}}&g={{game}}&m={{mode}}&c={{currency}}|{AGG_SECRET}")
}

/// Adds a game of the fake aggregator to the catalogue.
pub async fn agg_game(app: &TestApp, sysname: &str, game_type: &str) {
    sqlx::query(
        "INSERT INTO games (sysname, provider, game_type, name_en, name_fr, image_url, search_text, rtp_bp, volatility, has_demo, config, popularity, created_at) \
         VALUES ($1, 'fakeagg', $2, $1, $1, '/x.svg', $1, 9600, 'high', 1, '{}', 1, 0)",
    )
    .bind(sysname)
    .bind(game_type)
    .execute(app.state.db().pool())
    .await
    .unwrap();
}

/// The fake aggregator's signed wallet calls for one launch token.
pub struct Aggregator<'a> {
    pub app: &'a TestApp,
    pub token: String,
}

impl<'a> Aggregator<'a> {
    /// Launches `sysname` for real money for `client` and answers its wallet.
    pub async fn launched(app: &'a TestApp, client: &reqwest::Client, sysname: &str) -> Aggregator<'a> {
        let (status, launched) = launch(app, client, sysname, "play").await;
        assert_eq!(status, StatusCode::OK, "{launched}");
        Aggregator { app, token: launched["token"].as_str().unwrap().to_owned() }
    }

    pub async fn call(&self, action: &str, body: Value) -> Value {
        self.call_at(
            action,
            body,
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64,
            AGG_SECRET,
        )
        .await
    }

    async fn call_at(&self, action: &str, mut body: Value, timestamp: i64, secret: &str) -> Value {
        if body.get("token").is_none() {
            body["token"] = json!(self.token);
        }
        if body.get("request_uuid").is_none() {
            body["request_uuid"] = json!(uuid::Uuid::new_v4().to_string());
        }
        let base = format!("http://{}", self.app.addr);
        signed_wallet_call(&reqwest::Client::new(), &base, action, &body, secret, timestamp)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }
}

/// An aggregator's display name (the fourth field of `CROUPIER_GAME_PROVIDERS`) is its name in the
/// lobby's providers, and a later start with another one renames it.
#[tokio::test]
async fn an_aggregators_display_name_is_its_name_in_the_lobby() {
    for backend in crate::helpers::backends() {
        let providers =
            format!("fakeagg|https://agg.example/launch?t={{token}}&g={{game}}|{AGG_SECRET}|Fake Aggregator Games");
        let app = TestApp::spawn_with(backend, &[("CROUPIER_GAME_PROVIDERS", providers.as_str())], |_| {}).await;
        agg_game(&app, "agg-named", "slot").await;
        let listed = |body: &Value, sysname: &str| {
            body["data"].as_array().unwrap().iter().find(|p| p["sysname"] == sysname).cloned().unwrap_or(Value::Null)
        };
        let (_, body) = app.api_get("games.getProviders", &[("types", "slot")]).await;
        assert_eq!(
            listed(&body, "fakeagg"),
            json!({"sysname": "fakeagg", "name": "Fake Aggregator Games", "games": 1, "game_params": {}})
        );
        // The next start's config names it again (here the seeding a start does, with a new name).
        let renamed = croupier_server::config::GameProvider {
            name: "fakeagg".into(),
            launch_url: "https://agg.example/launch?t={token}".into(),
            secret: croupier_server::config::Secret::new(AGG_SECRET),
            title: "Fake Games".into(),
        };
        croupier_server::features::games::catalogue::seed(app.state.db(), &[renamed]).await.unwrap();
        let (_, body) = app.api_get("games.getProviders", &[("types", "slot")]).await;
        assert_eq!(listed(&body, "fakeagg")["name"], "Fake Games", "{body}");
        assert_eq!(listed(&body, "house")["name"], "Croupier Originals", "{body}");
    }
}

#[tokio::test]
async fn an_external_aggregator_plays_through_the_signed_idempotent_wallet() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && !crate::helpers::postgres_configured() {
            continue;
        }
        let providers = format!(
            "fakeagg|https://agg.example/launch?t={{token}}&u={{user}}&g={{game}}&m={{mode}}&c={{currency}}|{AGG_SECRET}"
        );
        let app = TestApp::spawn_with(backend, &[("CROUPIER_GAME_PROVIDERS", providers.as_str())], |_| {}).await;
        sqlx::query("INSERT INTO games (sysname, provider, game_type, name_en, name_fr, image_url, search_text, rtp_bp, volatility, has_demo, config, popularity, created_at) \
                     VALUES ('agg-slot', 'fakeagg', 'slot', 'Agg Slot', 'Agg Slot', '/x.svg', 'agg slot', 9600, 'high', 1, '{}', 1, 0)")
            .execute(app.state.db().pool())
            .await
            .unwrap();
        let client = funded(&app, "agg@example.com", 1_000).await;
        let (status, launched) = launch(&app, &client, "agg-slot", "play").await;
        assert_eq!(status, StatusCode::OK, "{launched}");
        let token = launched["token"].as_str().unwrap().to_owned();
        let player: i64 =
            sqlx::query_scalar("SELECT user_id FROM game_sessions").fetch_one(app.state.db().pool()).await.unwrap();
        assert_eq!(launched["url"], format!("https://agg.example/launch?t={token}&u={player}&g=agg-slot&m=real&c=USD"));
        let agg = Aggregator { app: &app, token: token.clone() };

        let balance = agg.call("balance", json!({})).await;
        assert_eq!((balance["status"].as_str(), balance["balance"].as_i64()), (Some("RS_OK"), Some(1_000)));
        let bet = json!({"transaction_uuid": "t-1", "round": "r-1", "amount": 300, "currency": "USD", "game_code": "agg-slot"});
        let first = agg.call("bet", bet.clone()).await;
        assert_eq!((first["status"].as_str(), first["balance"].as_i64()), (Some("RS_OK"), Some(700)));
        let again = agg.call("bet", bet.clone()).await;
        assert_eq!(
            (again["status"].as_str(), again["balance"].as_i64()),
            (Some("RS_OK"), Some(700)),
            "a retry gets the first answer and moves nothing"
        );
        let mut other = bet.clone();
        other["amount"] = json!(301);
        assert_eq!(agg.call("bet", other).await["status"], "RS_ERROR_DUPLICATE_TRANSACTION");
        let broke = agg
            .call("bet", json!({"transaction_uuid": "t-2", "round": "r-2", "amount": 5_000, "currency": "USD"}))
            .await;
        assert_eq!(
            (broke["status"].as_str(), broke["balance"].as_i64()),
            (Some("RS_ERROR_NOT_ENOUGH_MONEY"), Some(700))
        );
        assert_eq!(
            agg.call("bet", json!({"transaction_uuid": "t-3", "round": "r-3", "amount": 10, "currency": "EUR"})).await
                ["status"],
            "RS_ERROR_WRONG_CURRENCY"
        );
        // `user`, when sent, must be the token's player (the launch URL's `{user}`), on every call.
        let named = |user: String, id: &str| json!({"transaction_uuid": id, "round": id, "amount": 10, "currency": "USD", "user": user});
        for (user, id) in [
            (format!("{}", player + 1), "u-1"),
            (format!("0{player}"), "u-2"),
            (format!(" {player}"), "u-3"),
            (format!("-{player}"), "u-4"),
        ] {
            let refused = agg.call("bet", named(user.clone(), id)).await;
            assert_eq!(refused["status"], "RS_ERROR_INVALID_TOKEN", "user {user:?}: {refused}");
            let balance = agg.call("balance", json!({"user": user})).await;
            assert_eq!(balance["status"], "RS_ERROR_INVALID_TOKEN", "user {user:?}: {balance}");
        }
        assert_eq!(agg.call("balance", json!({"user": player.to_string()})).await["balance"], 700, "nothing moved");
        let own = agg.call("bet", named(player.to_string(), "u-5")).await;
        assert_eq!((own["status"].as_str(), own["balance"].as_i64()), (Some("RS_OK"), Some(690)), "{own}");
        let own = agg.call("rollback", json!({"transaction_uuid": "u-6", "reference_transaction_uuid": "u-5", "round": "u-5", "round_closed": true, "currency": "USD", "user": player.to_string()})).await;
        assert_eq!((own["status"].as_str(), own["balance"].as_i64()), (Some("RS_OK"), Some(700)), "{own}");

        let win = agg.call("win", json!({"transaction_uuid": "t-4", "reference_transaction_uuid": "t-1", "round": "r-1", "round_closed": true, "amount": 900, "currency": "USD"})).await;
        assert_eq!((win["status"].as_str(), win["balance"].as_i64()), (Some("RS_OK"), Some(1_600)));
        let late = agg.call("rollback", json!({"transaction_uuid": "t-5", "reference_transaction_uuid": "t-1", "round": "r-1", "currency": "USD"})).await;
        assert_eq!(late["status"], "RS_ERROR_UNKNOWN", "no rollback after the round's win");
        let unknown = agg.call("rollback", json!({"transaction_uuid": "t-6", "reference_transaction_uuid": "never-bet", "round": "r-9", "currency": "USD"})).await;
        assert_eq!(unknown["status"], "RS_ERROR_TRANSACTION_DOES_NOT_EXIST");

        agg.call("bet", json!({"transaction_uuid": "t-7", "round": "r-7", "amount": 100, "currency": "USD"})).await;
        // The token expires; bets stop, but rollbacks and wins still settle.
        sqlx::query("UPDATE game_sessions SET expires_at = 0").execute(app.state.db().pool()).await.unwrap();
        assert_eq!(
            agg.call("bet", json!({"transaction_uuid": "t-8", "round": "r-8", "amount": 100, "currency": "USD"})).await
                ["status"],
            "RS_ERROR_TOKEN_EXPIRED"
        );
        let refund = agg.call("rollback", json!({"transaction_uuid": "t-9", "reference_transaction_uuid": "t-7", "round": "r-7", "round_closed": true, "currency": "USD"})).await;
        assert_eq!((refund["status"].as_str(), refund["balance"].as_i64()), (Some("RS_OK"), Some(1_600)));
        let twice = agg.call("rollback", json!({"transaction_uuid": "t-10", "reference_transaction_uuid": "t-7", "round": "r-7", "currency": "USD"})).await;
        assert_eq!(
            (twice["status"].as_str(), twice["balance"].as_i64()),
            (Some("RS_OK"), Some(1_600)),
            "a bet is refunded once"
        );

        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        assert_eq!(
            agg.call_at("balance", json!({}), now, "wrong-secret-000000000").await["status"],
            "RS_ERROR_INVALID_SIGNATURE"
        );
        assert_eq!(
            agg.call_at("balance", json!({}), now - 120, AGG_SECRET).await["status"],
            "RS_ERROR_INVALID_SIGNATURE",
            "a stale timestamp"
        );
        assert_eq!(agg.call("balance", json!({"token": "forged"})).await["status"], "RS_ERROR_INVALID_TOKEN");
        sqlx::query("UPDATE users SET status = 'banned'").execute(app.state.db().pool()).await.unwrap();
        sqlx::query("UPDATE game_sessions SET expires_at = 99999999999999")
            .execute(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(agg.call("balance", json!({})).await["status"], "RS_ERROR_USER_DISABLED");

        let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
        assert!(report.violations.is_empty(), "{:?}", report.violations);
        app.finish().await;
    }
}

/// A round is its opener's (player, mode, currency): another player's bet, win or rollback, or the
/// same player's demo session, cannot touch it — on the merged path (`wallet::batch`) and on the
/// general one (a player with limits set takes it), and for two bets racing into one new round.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_round_is_its_openers_and_no_other_session_moves_money_through_it() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && !crate::helpers::postgres_configured() {
            continue;
        }
        let providers = agg_providers();
        let app = TestApp::spawn_with(backend, &[("CROUPIER_GAME_PROVIDERS", providers.as_str())], |_| {}).await;
        agg_game(&app, "agg-owned", "slot").await;
        let pool = app.state.db().pool().clone();
        let agg = |token: &str| Aggregator { app: &app, token: token.to_owned() };
        for path in ["merged", "general"] {
            let alice = funded(&app, &format!("owner-a-{path}@example.com"), 1_000).await;
            let bob = funded(&app, &format!("owner-b-{path}@example.com"), 1_000).await;
            let a = Aggregator::launched(&app, &alice, "agg-owned").await.token;
            let b = Aggregator::launched(&app, &bob, "agg-owned").await.token;
            let (status, demo) = launch(&app, &alice, "agg-owned", "demo").await;
            assert_eq!(status, StatusCode::OK, "{demo}");
            let a_demo = demo["token"].as_str().unwrap().to_owned();
            let mut ids = Vec::new();
            for token in [&a, &b] {
                let id: i64 = sqlx::query_scalar("SELECT user_id FROM game_sessions WHERE token_hash = $1")
                    .bind(croupier_server::features::games::wallet::token_hash(token))
                    .fetch_one(&pool)
                    .await
                    .unwrap();
                ids.push(id);
            }
            if path == "general" {
                // Limits to check (none set) send every real call down the general path.
                sqlx::query("UPDATE users SET play_limits = 1 WHERE id = $1 OR id = $2")
                    .bind(ids[0])
                    .bind(ids[1])
                    .execute(&pool)
                    .await
                    .unwrap();
            }
            let round = format!("own-{path}");
            let call = |id: &str, amount: i64| json!({"transaction_uuid": format!("{path}-{id}"), "round": round, "amount": amount, "currency": "USD"});
            let opened = agg(&a).call("bet", call("a-bet", 100)).await;
            assert_eq!((opened["status"].as_str(), opened["balance"].as_i64()), (Some("RS_OK"), Some(900)), "{path}");
            let status = |v: Value| v["status"].as_str().unwrap_or_default().to_owned();
            assert_eq!(
                status(agg(&b).call("bet", call("b-bet", 100)).await),
                "RS_ERROR_UNKNOWN",
                "{path}: a bet into another's round"
            );
            assert_eq!(
                status(agg(&b).call("win", call("b-win", 500)).await),
                "RS_ERROR_TRANSACTION_DOES_NOT_EXIST",
                "{path}: a win into another's round"
            );
            assert_eq!(
                status(agg(&a_demo).call("win", call("demo-win", 500)).await),
                "RS_ERROR_TRANSACTION_DOES_NOT_EXIST",
                "{path}: a demo session's win into a real round"
            );
            let mut refund = call("b-rollback", 0);
            refund["reference_transaction_uuid"] = json!(format!("{path}-a-bet"));
            assert_eq!(
                status(agg(&b).call("rollback", refund).await),
                "RS_ERROR_TRANSACTION_DOES_NOT_EXIST",
                "{path}: a rollback of another's bet"
            );
            assert_eq!(agg(&b).call("balance", json!({})).await["balance"], 1_000, "{path}: nothing moved for bob");
            let won = agg(&a).call("win", call("a-win", 300)).await;
            assert_eq!((won["status"].as_str(), won["balance"].as_i64()), (Some("RS_OK"), Some(1_200)), "{path}");
            let (bet, win, rolled): (i64, i64, i64) = sqlx::query_as(
                "SELECT r.bet, r.win, w.rolled_back FROM game_rounds r JOIN wallet_transactions w ON w.round_id = r.id \
                 WHERE r.round = $1 AND w.kind = 'bet'",
            )
            .bind(&round)
            .fetch_one(&pool)
            .await
            .unwrap();
            assert_eq!((bet, win, rolled), (100, 300, 0), "{path}: the round has only alice's calls");
            // A replay is answered to its own player only: bob resending alice's calls, fields
            // and all, learns nothing (her answer holds her balance); alice's own replay gets it.
            for (action, id, amount) in [("bet", "a-bet", 100), ("win", "a-win", 300)] {
                let replayed = agg(&b).call(action, call(id, amount)).await;
                assert_eq!(status(replayed), "RS_ERROR_DUPLICATE_TRANSACTION", "{path}: bob replays alice's {action}");
            }
            let again = agg(&a).call("bet", call("a-bet", 100)).await;
            assert_eq!((again["status"].as_str(), again["balance"].as_i64()), (Some("RS_OK"), Some(900)), "{path}");
            let second = json!({"transaction_uuid": format!("{path}-a-bet2"), "round": format!("{path}-rb"), "amount": 10, "currency": "USD"});
            assert_eq!(agg(&a).call("bet", second).await["balance"], 1_190, "{path}");
            let refund = json!({"transaction_uuid": format!("{path}-a-rb"), "reference_transaction_uuid": format!("{path}-a-bet2"), "round": format!("{path}-rb"), "currency": "USD"});
            assert_eq!(agg(&a).call("rollback", refund.clone()).await["balance"], 1_200, "{path}");
            assert_eq!(
                status(agg(&b).call("rollback", refund).await),
                "RS_ERROR_DUPLICATE_TRANSACTION",
                "{path}: bob replays alice's rollback"
            );

            // Two players' bets racing into one new round: one opens it, the other is refused.
            let race = format!("race-{path}");
            let body = |who: &str| json!({"transaction_uuid": format!("{path}-race-{who}"), "round": race, "amount": 50, "currency": "USD"});
            let (racer_a, racer_b) = (agg(&a), agg(&b));
            let (first, second) = tokio::join!(racer_a.call("bet", body("a")), racer_b.call("bet", body("b")));
            let mut statuses = [status(first), status(second)];
            statuses.sort();
            assert_eq!(statuses, ["RS_ERROR_UNKNOWN", "RS_OK"], "{path}");
            let (owner, staked, records): (i64, i64, i64) = sqlx::query_as(
                "SELECT r.user_id, r.bet, CAST((SELECT COUNT(*) FROM wallet_transactions w WHERE w.round_id = r.id) AS BIGINT) \
                 FROM game_rounds r WHERE r.round = $1",
            )
            .bind(&race)
            .fetch_one(&pool)
            .await
            .unwrap();
            assert!(ids.contains(&owner), "{path}: {owner}");
            assert_eq!((staked, records), (50, 1), "{path}: player {owner}'s round holds one bet");
        }
        let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
        assert!(report.violations.is_empty(), "{:?}", report.violations);
        app.finish().await;
    }
}

/// An aggregator's bets and wins are merged on the group committer's lane (`wallet::batch`): many
/// players' calls, concurrent, in one run. Each answer must be what the call would get alone —
/// replays and duplicates within a run, funds spent by a player's earlier calls in the run, a
/// player's real and demo balances kept apart, closed and unknown rounds — and the rows, the
/// ledger and the loyalty points must add up.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn merged_aggregator_calls_answer_as_each_call_alone() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && !crate::helpers::postgres_configured() {
            continue;
        }
        let providers = agg_providers();
        let app = TestApp::spawn_with(backend, &[("CROUPIER_GAME_PROVIDERS", providers.as_str())], |_| {}).await;
        agg_game(&app, "agg-merged", "slot").await;
        let pool = app.state.db().pool().clone();
        let mut players = Vec::new();
        for n in 0..4 {
            let client = funded(&app, &format!("merged{n}@example.com"), 1_000).await;
            let real = Aggregator::launched(&app, &client, "agg-merged").await.token;
            let (status, demo) = launch(&app, &client, "agg-merged", "demo").await;
            assert_eq!(status, StatusCode::OK, "{demo}");
            players.push((real, demo["token"].as_str().unwrap().to_owned()));
        }
        let agg = |token: &str| Aggregator { app: &app, token: token.to_owned() };
        sqlx::query("DELETE FROM loyalty_rates").execute(&pool).await.unwrap();
        sqlx::query("INSERT INTO loyalty_rates (game_type, currency, milli_per_unit) VALUES ('*', 'USD', 1000)")
            .execute(&pool)
            .await
            .unwrap();
        let bet = |id: &str, round: &str, amount: i64| json!({"transaction_uuid": id, "round": round, "amount": amount, "currency": "USD"});

        // Ten concurrent bets of 300 per player, real (from 1,000: exactly three pass) and demo
        // (from the fun balance of 100,000: all pass) at once.
        let mut calls = Vec::new();
        for (p, (real, demo)) in players.iter().enumerate() {
            for i in 0..10 {
                for (token, mode) in [(real, "real"), (demo, "demo")] {
                    let (agg, body) = (agg(token), bet(&format!("{mode}-{p}-{i}"), &format!("{mode}-{p}-r{i}"), 300));
                    calls.push(async move { (p, mode, agg.call("bet", body).await) });
                }
            }
        }
        let answers = futures::future::join_all(calls).await;
        for (p, _) in players.iter().enumerate() {
            for mode in ["real", "demo"] {
                let mine: Vec<&Value> =
                    answers.iter().filter(|(q, m, _)| *q == p && *m == mode).map(|(_, _, a)| a).collect();
                let passed: Vec<i64> =
                    mine.iter().filter(|a| a["status"] == "RS_OK").map(|a| a["balance"].as_i64().unwrap()).collect();
                let mut sorted = passed.clone();
                sorted.sort_unstable();
                let expected: Vec<i64> = match mode {
                    "real" => vec![100, 400, 700],
                    _ => (0..10).map(|i| 97_000 + 300 * i).collect(),
                };
                assert_eq!(sorted, expected, "player {p} {mode}: {mine:?}");
                assert!(
                    mine.iter()
                        .filter(|a| a["status"] != "RS_OK")
                        .all(|a| a["status"] == "RS_ERROR_NOT_ENOUGH_MONEY" && a["balance"] == 100),
                    "player {p} {mode}: {mine:?}"
                );
            }
        }

        // The same bet sent five times at once moves money once and answers the same five
        // times; the same id with another amount at once is a duplicate.
        let (real0, _) = &players[0];
        let played: String =
            sqlx::query_scalar("SELECT round FROM game_rounds WHERE round LIKE 'real-0-%' ORDER BY round LIMIT 1")
                .fetch_one(&pool)
                .await
                .unwrap();
        let won = agg(real0).call("win", json!({"transaction_uuid": "w-0", "round": played, "amount": 2_000, "currency": "USD", "round_closed": true})).await;
        assert_eq!(won["balance"], 2_100, "{won}");
        let before = 2_100;
        let player0 = agg(real0);
        let same = (0..5).map(|_| player0.call("bet", bet("same-1", "same-r", 50)));
        let other = player0.call("bet", bet("same-2", "same-r2", 50));
        let clash = player0.call("bet", bet("same-2", "same-r2", 60));
        let (same, (other, clash)) =
            tokio::join!(futures::future::join_all(same), async { tokio::join!(other, clash) });
        assert!(same.iter().all(|a| a["status"] == "RS_OK" && a["balance"] == same[0]["balance"]), "{same:?}");
        let statuses = [other["status"].as_str().unwrap(), clash["status"].as_str().unwrap()];
        assert!(statuses.contains(&"RS_OK") && statuses.contains(&"RS_ERROR_DUPLICATE_TRANSACTION"), "{statuses:?}");
        let after = agg(real0).call("balance", json!({})).await["balance"].as_i64().unwrap();
        let moved = if other["status"] == "RS_OK" { 100 } else { 110 };
        assert_eq!(after, before - moved, "each bet moved once");

        // A round: bets into it, its win closes it, a bet after that is refused, an unknown round
        // has no win, a zero bet is a bet; then a big win is listed among the winners.
        let (real1, demo1) = &players[1];
        let round = [
            ("bet", json!({"transaction_uuid": "c-1", "round": "c-r", "amount": 0, "currency": "USD"})),
            (
                "win",
                json!({"transaction_uuid": "c-2", "round": "c-r", "amount": 50, "currency": "USD", "round_closed": true}),
            ),
            ("bet", json!({"transaction_uuid": "c-3", "round": "c-r", "amount": 10, "currency": "USD"})),
            ("win", json!({"transaction_uuid": "c-4", "round": "c-nope", "amount": 10, "currency": "USD"})),
        ];
        let mut answers = Vec::new();
        for (action, body) in round {
            answers.push(agg(real1).call(action, body).await["status"].as_str().unwrap().to_owned());
        }
        assert_eq!(answers, ["RS_OK", "RS_OK", "RS_ERROR_UNKNOWN", "RS_ERROR_TRANSACTION_DOES_NOT_EXIST"]);
        let (bet_total, win_total, status): (i64, i64, String) =
            sqlx::query_as("SELECT bet, win, status FROM game_rounds WHERE provider = 'fakeagg' AND round = 'c-r'")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!((bet_total, win_total, status.as_str()), (0, 50, "closed"));
        let big = agg(real1).call("bet", bet("big-1", "big-r", 10)).await;
        assert_eq!(big["status"], "RS_OK", "{big}");
        let won = agg(real1).call("win", json!({"transaction_uuid": "big-2", "round": "big-r", "amount": 500, "currency": "USD", "round_closed": true})).await;
        assert_eq!(won["balance"].as_i64(), big["balance"].as_i64().map(|b| b + 500), "{won}");
        let listed: i64 = sqlx::query_scalar(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM winners_feed WHERE kind = 'game' AND amount = 500",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(listed, 1, "a big real-money win is listed");
        let demo_won = agg(demo1)
            .call("win", json!({"transaction_uuid": "big-3", "round": "demo-1-r0", "amount": 5_000, "currency": "USD"}))
            .await;
        assert!(
            demo_won["status"] == "RS_OK" || demo_won["status"] == "RS_ERROR_TRANSACTION_DOES_NOT_EXIST",
            "{demo_won}"
        );

        // A time-out refuses real bets (not demo ones) on the merged path too.
        let (real2, demo2) = &players[2];
        let user2: i64 = sqlx::query_scalar("SELECT user_id FROM game_sessions WHERE token_hash = $1")
            .bind(croupier_server::features::games::wallet::token_hash(real2))
            .fetch_one(&pool)
            .await
            .unwrap();
        sqlx::query("UPDATE users SET blocked_until = $1, blocked_kind = 'timeout' WHERE id = $2")
            .bind(i64::MAX / 2)
            .bind(user2)
            .execute(&pool)
            .await
            .unwrap();
        assert_eq!(agg(real2).call("bet", bet("x-1", "x-r", 10)).await["status"], "RS_ERROR_USER_DISABLED");
        let demo_bet = agg(demo2).call("bet", bet("x-2", "x-r2", 10)).await;
        assert_eq!(demo_bet["status"], "RS_OK", "{demo_bet}");

        // Every accepted call has its record, every record its movement; the points credited are
        // the records' points; the ledger balances.
        let (records, points): (i64, i64) = sqlx::query_as(
            "SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(points), 0) AS BIGINT) FROM wallet_transactions WHERE provider = 'fakeagg'",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        // The merged calls' movements have minted keys (`wallet#…`, kept on their records), the
        // general path's `wallet:{provider}:{id}`: every movement is one record's.
        let moved: i64 = sqlx::query_scalar(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM ledger_transactions \
             WHERE idempotency_key LIKE 'wallet:fakeagg:%' OR idempotency_key LIKE 'wallet#%'",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        let (linked, minted): (i64, i64) = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT CAST(COUNT(*) AS BIGINT), CAST(COUNT(w.ledger_key) AS BIGINT) FROM wallet_transactions w \
             JOIN ledger_transactions t ON t.idempotency_key = {} WHERE w.provider = 'fakeagg'",
            croupier_server::features::games::wallet::movement_key("w")
        )))
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(linked, moved, "every movement is found from its record");
        assert!(minted > 0, "the merged calls' movements are keyed by their records' minted keys");
        let zero: i64 = sqlx::query_scalar(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM wallet_transactions WHERE provider = 'fakeagg' AND amount = 0",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(moved, records - zero, "one movement per record with an amount");
        let credited: i64 =
            sqlx::query_scalar("SELECT CAST(COALESCE(SUM(lifetime), 0) AS BIGINT) FROM loyalty_accounts")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(credited, points, "the loyalty points credited are the records'");
        assert!(points > 0, "real bets earn points");
        let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
        assert!(report.violations.is_empty(), "{:?}", report.violations);
        app.finish().await;
    }
}
