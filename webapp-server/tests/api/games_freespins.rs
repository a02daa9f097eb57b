//! Free-spin packs played in a house game, `freespins.get`, `games.getHistory` and the CSV
//! export of the history.

use crate::db_test;
use crate::games::{funded, launch};
use crate::helpers::{TestApp, expect_error, read_json};
use croupier_server::features::bonuses::admin::GrantRequest;
use croupier_server::features::freespins;
use croupier_server::ledger::{self, Account, PlayerAccount};
use croupier_shared::{Currency, Money};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn usd() -> Currency {
    Currency::parse("USD").unwrap()
}

fn minor(text: &Value) -> i64 {
    Money::parse_major(text.as_str().unwrap(), usd()).unwrap().minor()
}

async fn token_for(app: &TestApp, client: &reqwest::Client, game: &str) -> String {
    let (status, launched) = launch(app, client, game, "play").await;
    assert_eq!(status, StatusCode::OK, "{launched}");
    launched["token"].as_str().unwrap().to_owned()
}

async fn spin(app: &TestApp, token: &str, game: &str, free: bool) -> (StatusCode, Value) {
    let body = json!({"token": token, "bet": "1.00", "freespin": free, "rows": 8, "risk": "high"});
    read_json(
        reqwest::Client::new().post(app.url(&format!("/games/house/{game}/round"))).json(&body).send().await.unwrap(),
    )
    .await
}

async fn account(app: &TestApp, user: i64, kind: PlayerAccount) -> i64 {
    let mut conn = app.state.db().pool().acquire().await.unwrap();
    ledger::balance(&mut conn, Account::Player { user_id: user, kind }, usd()).await.unwrap()
}

async fn uid(app: &TestApp, client: &reqwest::Client) -> i64 {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["uid"].as_i64().or_else(|| me["data"]["id"].as_i64()).unwrap()
}

db_test!(async fn free_spins_cost_nothing_and_pay_where_the_pack_says(app) {
    let client = funded(app, "lucky@example.com", 1_000).await;
    let user = uid(app, &client).await;
    let db = app.state.db();
    let main_pack = freespins::grant(db, user, "lucky-sevens", usd(), 200, 3, 3_600_000).await.unwrap();
    // A pack paying into the bonus balance is a bonus's: its wins are to be wagered twice.
    let bonus_pack = GrantRequest {
        user_id: user,
        game: "plinko".into(),
        currency: "USD".into(),
        bet: 500,
        count: 2,
        win_account: Some("bonus".into()),
        valid_days: Some(1),
        wager_multiplier: Some(2),
    };
    bonus_pack.grant(&app.state, &croupier_server::features::backoffice::trail::Actor::cli()).await.unwrap();
    assert!(freespins::grant(db, user, "mines", usd(), 100, 2, 3_600_000).await.is_err(), "mines rounds have several steps");
    freespins::grant(db, user, "gem-rush", usd(), 100, 1, -1).await.unwrap();

    let (status, packs) = app.get_as(&client, "freespins.get", &[("status", "active"), ("count", "99")]).await;
    assert_eq!(status, StatusCode::OK, "{packs}");
    assert_eq!(packs["data"]["total"], 2, "the expired pack is not active: {packs}");
    let first = packs["data"]["items"].as_array().unwrap().iter().find(|p| p["id"] == main_pack).unwrap().clone();
    assert_eq!((first["game"]["sysname"].as_str(), first["remaining_count"].as_i64(), first["bet"].as_str()), (Some("lucky-sevens"), Some(3), Some("2.00")));
    let (_, expired) = app.get_as(&client, "freespins.get", &[("status", "expired")]).await;
    assert_eq!(expired["data"]["items"][0]["game"]["sysname"], "gem-rush");
    let (status, body) = app.get_as(&client, "freespins.get", &[("status", "spent")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");

    // Main-account pack: no debit, wins to main, three spins and no more.
    let token = token_for(app, &client, "lucky-sevens").await;
    let state: Value = reqwest::get(app.url(&format!("/games/house/lucky-sevens/state?token={token}"))).await.unwrap().json().await.unwrap();
    assert_eq!(state["freespins"], json!({"remaining": 3, "bet": "2.00"}), "the game page offers the pack");
    let mut main = 1_000;
    for left in [2, 1, 0] {
        let (status, r) = spin(app, &token, "lucky-sevens", true).await;
        assert_eq!(status, StatusCode::OK, "{r}");
        assert_eq!(r["bet"], "2.00");
        main += minor(&r["win"]);
        assert_eq!(minor(&r["balance"]), main, "a free spin takes nothing");
        assert_eq!(r["outcome"]["freespin"]["remaining"], left);
        assert_eq!(minor(&r["win"]), 200 * r["outcome"]["multiplier"].as_i64().unwrap());
    }
    let (status, r) = spin(app, &token, "lucky-sevens", true).await;
    assert_eq!((status, r["error"].as_str()), (StatusCode::CONFLICT, Some("no_free_spins")));
    let state: Value = reqwest::get(app.url(&format!("/games/house/lucky-sevens/state?token={token}"))).await.unwrap().json().await.unwrap();
    assert!(state["freespins"].is_null());
    assert_eq!(account(app, user, PlayerAccount::Main).await, main);

    // Bonus-account pack: the main balance does not move; wins land on the bonus account.
    let token = token_for(app, &client, "plinko").await;
    let mut bonus = 0;
    for _ in 0..2 {
        let (status, r) = spin(app, &token, "plinko", true).await;
        assert_eq!(status, StatusCode::OK, "{r}");
        bonus += minor(&r["win"]);
        assert_eq!(minor(&r["balance"]), main + bonus, "a game is told main plus the bonus money it may spend");
        assert!(minor(&r["win"]) > 0, "plinko 8 high pays at least 0.2 ×");
    }
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, bonus);
    assert_eq!(account(app, user, PlayerAccount::Main).await, main);
    // The pack's bonus holds those wins, to be wagered twice over.
    let (_, bonuses) = app.get_as(&client, "bonuses.get", &[]).await;
    let held = &bonuses["data"]["items"][0];
    assert_eq!((held["status"].as_str(), minor(&held["balance"]), minor(&held["wager_target"])), (Some("wagering"), bonus, 2 * bonus), "{bonuses}");
    let (_, used) = app.get_as(&client, "freespins.get", &[("status", "used")]).await;
    assert_eq!(used["data"]["total"], 2);
    let report = ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);

    // The history shows every round, the free ones with no stake.
    let (status, history) = app.get_as(&client, "games.getHistory", &[("count", "10")]).await;
    assert_eq!(status, StatusCode::OK, "{history}");
    assert_eq!(history["data"]["total"], 5);
    assert_eq!(history["data"]["items"][0]["game"]["sysname"], "plinko");
    assert_eq!(history["data"]["items"][0]["bet"], "0.00");
    // The balance after each round is the one the game was told; a house round carries what it
    // takes to verify it (the server seed stays hidden until the seeds are rotated).
    assert_eq!(minor(&history["data"]["items"][0]["balance_after"]), main + bonus, "{history}");
    let fair = &history["data"]["items"][0]["fairness"];
    assert_eq!(fair["server_seed_hash"].as_str().map(str::len), Some(64), "{history}");
    assert!(fair["server_seed"].is_null() && fair["nonce"].is_i64() && fair["outcome"].is_object(), "{fair}");
    assert!(fair["client_seed"].is_string() && fair["params"].is_object(), "{fair}");
    assert!(history["data"]["items"][4]["fairness"]["server_seed_hash"].is_string(), "{history}");
    assert_eq!(minor(&history["data"]["items"][2]["balance_after"]), main, "the last main-pack spin: {history}");
    assert_eq!(minor(&history["data"]["items"][0]["win"]) + minor(&history["data"]["items"][1]["win"]), bonus);
    let (_, page) = app.get_as(&client, "games.getHistory", &[("count", "2"), ("offset", "4")]).await;
    assert_eq!(page["data"]["items"].as_array().unwrap().len(), 1);
    let (_, only) = app.get_as(&client, "games.getHistory", &[("sysname", "lucky-sevens")]).await;
    assert_eq!(only["data"]["total"], 3);
    let (status, body) = app.get_as(&client, "games.getHistory", &[("count", "500")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    let (status, body) = app.api_get("games.getHistory", &[]).await;
    expect_error(status, &body, 401, "AuthorizationException");
});

db_test!(async fn the_history_export_is_a_csv_for_its_owner_only(app) {
    let client = funded(app, "exporter@example.com", 10_000).await;
    let token = token_for(app, &client, "plinko").await;
    for _ in 0..3 {
        let (status, r) = spin(app, &token, "plinko", false).await;
        assert_eq!(status, StatusCode::OK, "{r}");
    }
    let (_, none) = app.get_as(&client, "games.gethistoryexportrequest", &[]).await;
    assert_eq!(none["data"], Value::Null);
    let (status, created) = app.post_as(&client, "games.createhistoryexportrequest", &[]).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert!(matches!(created["data"]["status"].as_str(), Some("pending" | "ready")));
    let mut ready = Value::Null;
    for _ in 0..100 {
        let (_, got) = app.get_as(&client, "games.gethistoryexportrequest", &[]).await;
        if got["data"]["status"] == "ready" {
            ready = got["data"].clone();
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(ready["rows"], 3, "{ready}");
    assert!(ready["expires_at"].as_i64().unwrap() > ready["created_at"].as_i64().unwrap());
    let url = ready["url"].as_str().unwrap().replace("http://localhost:8080", &app.url(""));
    let file = client.get(&url).send().await.unwrap();
    assert_eq!(file.status(), StatusCode::OK);
    assert_eq!(file.headers()["content-type"], "text/csv; charset=utf-8");
    let csv = file.text().await.unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "round,game,provider,mode,currency,bet,win,balance_after,status,created_at");
    assert_eq!(lines.len(), 4);
    assert!(lines[1].contains(",plinko,house,real,USD,1.00,"), "{csv}");
    // Each line's balance after is the balance before it, less its bet, plus its win.
    let money = |f: &str| Money::parse_major(f, usd()).unwrap().minor();
    let fields: Vec<Vec<&str>> = lines[1..].iter().map(|l| l.split(',').collect()).collect();
    for pair in fields.windows(2) {
        let (newer, older) = (&pair[0], &pair[1]);
        assert_eq!(money(newer[7]), money(older[7]) - money(newer[5]) + money(newer[6]), "{csv}");
    }

    let stranger = app.browser();
    app.register(&stranger, "stranger@example.com").await;
    assert_eq!(stranger.get(&url).send().await.unwrap().status(), StatusCode::NOT_FOUND, "not for other players");
    assert_eq!(reqwest::get(&url).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    assert_eq!(client.get(url.replace(".csv", "0.csv")).send().await.unwrap().status(), StatusCode::NOT_FOUND);
    // Past its time the link stops working and the request says so.
    sqlx::query("UPDATE game_history_exports SET expires_at = 1").execute(app.state.db().pool()).await.unwrap();
    assert_eq!(client.get(&url).send().await.unwrap().status(), StatusCode::GONE);
    let (_, expired) = app.get_as(&client, "games.gethistoryexportrequest", &[]).await;
    assert_eq!((expired["data"]["status"].as_str(), expired["data"]["url"].is_null()), (Some("expired"), true));
    let (status, body) = app.api_post("games.createhistoryexportrequest", &[]).await;
    expect_error(status, &body, 401, "AuthorizationException");
});

/// With the operator's switch off, the export is refused (and its links stop working); the
/// history itself stays readable.
#[tokio::test]
async fn the_history_export_obeys_the_operators_switch() {
    use crate::helpers::Backend;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && !crate::helpers::postgres_configured() {
            continue;
        }
        let app = TestApp::spawn_with(backend, &[("CROUPIER_GAME_HISTORY_EXPORT", "false")], |_| {}).await;
        let client = funded(&app, "no-export@example.com", 1_000).await;
        let (_, info) = app.api_get("metadata.getgeneralinfo", &[]).await;
        assert_eq!(info["data"]["is_game_history_export_enabled"], false);
        let (status, body) = app.post_as(&client, "games.createhistoryexportrequest", &[]).await;
        expect_error(status, &body, 403, "AccessDeniedException");
        let (status, body) = app.get_as(&client, "games.gethistoryexportrequest", &[]).await;
        expect_error(status, &body, 403, "AccessDeniedException");
        let written: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM game_history_exports")
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(written, 0, "a refused request writes nothing");
        let (status, history) = app.get_as(&client, "games.getHistory", &[]).await;
        assert_eq!((status, history["data"]["total"].as_i64()), (StatusCode::OK, Some(0)), "{history}");
        app.finish().await;
    }
}

/// Operators grant packs over HTTP with the admin token (on both databases) and from the CLI;
/// every part of the grant is checked and a refused grant writes nothing.
#[tokio::test]
async fn operators_grant_free_spins_over_http_and_from_the_command_line() {
    use crate::helpers::Backend;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && !crate::helpers::postgres_configured() {
            continue;
        }
        let app = TestApp::spawn_with(backend, &[("CROUPIER_ADMIN_TOKEN", "operator-token-123")], |_| {}).await;
        let client = funded(&app, "granted@example.com", 1_000).await;
        let user = uid(&app, &client).await;
        let http = reqwest::Client::new();
        let grant = |body: Value, token: &'static str| {
            http.post(app.url("/admin/freespins")).header("authorization", token).json(&body).send()
        };
        let good = json!({"user_id": user, "game": "lucky-sevens", "currency": "USD", "bet": 100, "count": 5, "win_account": "bonus", "valid_days": 3});
        for token in ["", "Bearer wrong"] {
            assert_eq!(grant(good.clone(), token).await.unwrap().status(), StatusCode::UNAUTHORIZED);
        }
        for (body, field) in [
            (json!({"user_id": user, "game": "mines", "currency": "USD", "bet": 100, "count": 5}), "sysname"),
            (json!({"user_id": user, "game": "lucky-sevens", "currency": "EUR", "bet": 100, "count": 5}), "currency"),
            (json!({"user_id": user, "game": "lucky-sevens", "currency": "XXX", "bet": 100, "count": 5}), "currency"),
            (json!({"user_id": user, "game": "lucky-sevens", "currency": "USD", "bet": 0, "count": 5}), "bet"),
            (json!({"user_id": user, "game": "lucky-sevens", "currency": "USD", "bet": 100, "count": 5_000}), "count"),
            (
                json!({"user_id": user, "game": "lucky-sevens", "currency": "USD", "bet": 100, "count": 5, "valid_days": 0}),
                "valid_days",
            ),
            (
                json!({"user_id": user, "game": "lucky-sevens", "currency": "USD", "bet": 100, "count": 5, "win_account": "x"}),
                "win_account",
            ),
            (json!({"user_id": 999_999, "game": "lucky-sevens", "currency": "USD", "bet": 100, "count": 5}), "user_id"),
        ] {
            let response = grant(body.clone(), "Bearer operator-token-123").await.unwrap();
            let (status, answer) = read_json(response).await;
            let error = expect_error(status, &answer, 422, "InvalidParameterException");
            assert!(error["error_data"][field].is_array(), "{body} → {answer}");
        }
        let (status, answer) = read_json(grant(json!({"user": 1}), "Bearer operator-token-123").await.unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        let (_, none) = app.get_as(&client, "freespins.get", &[("status", "all")]).await;
        assert_eq!(none["data"]["total"], 0, "refused grants write nothing: {none}");

        let (status, answer) = read_json(grant(good, "Bearer operator-token-123").await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let (_, packs) = app.get_as(&client, "freespins.get", &[("status", "active"), ("count", "99")]).await;
        assert_eq!(packs["data"]["items"][0]["id"], answer["data"]["id"], "{packs}");
        assert_eq!(packs["data"]["items"][0]["remaining_count"], 5);

        if backend == Backend::Sqlite {
            let run = |args: &[&str]| app.cli(args);
            let user = user.to_string();
            let done = run(&["admin", "freespins", "grant", &user, "plinko", "2", "50", "USD", "main", "1"]);
            assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
            assert!(String::from_utf8_lossy(&done.stdout).contains("2 spins of plinko"));
            let refused = run(&["admin", "freespins", "grant", &user, "plinko", "2", "0", "USD"]);
            assert_eq!(refused.status.code(), Some(1), "a zero bet is refused");
            let (_, packs) = app.get_as(&client, "freespins.get", &[("status", "active")]).await;
            assert_eq!(packs["data"]["total"], 2, "{packs}");
        }
        // Each grant is audited with the pack it made, by whoever made it; a refused one wrote none.
        type Grant = (String, String, Option<String>, Option<i64>, String);
        let rows: Vec<Grant> = sqlx::query_as(
            "SELECT operator_name, role, target_id, user_id, after_json FROM operator_audit \
             WHERE action = 'freespins.grant' ORDER BY id",
        )
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(rows.len(), if backend == Backend::Sqlite { 2 } else { 1 }, "{rows:?}");
        let (target, after) = (user.to_string(), serde_json::from_str::<Value>(&rows[0].4).unwrap());
        assert_eq!(
            (rows[0].1.as_str(), rows[0].2.as_deref(), rows[0].3),
            ("automation", Some(target.as_str()), Some(user))
        );
        assert_eq!(after["pack_id"], answer["data"]["id"]);
        assert_eq!((after["win_account"].as_str(), after["valid_days"].as_i64()), (Some("bonus"), Some(3)));
        assert!(after["bonus_id"].as_i64().is_some(), "a bonus pack names its bonus: {after}");
        if let Some(cli) = rows.get(1) {
            let after = serde_json::from_str::<Value>(&cli.4).unwrap();
            assert_eq!(
                (cli.0.as_str(), after["game"].as_str(), after["bonus_id"].as_i64()),
                ("cli", Some("plinko"), None)
            );
        }
        app.finish().await;
    }
}
