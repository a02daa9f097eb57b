//! Loyalty: points from real-money play (house rounds and an aggregator's wallet), taken back
//! with a rollback; levels and their rewards; characters; the shop's idempotent purchases;
//! quests; notices; the operators' API; other players' ids and bad input refused, nothing
//! changed. Every test runs on SQLite and, with `TEST_DATABASE_URL`, on PostgreSQL.

use crate::games::{AGG_SECRET, Aggregator, agg_game, funded, launch};
use crate::helpers::{Backend, TestApp, XorShift, backends, expect_error, read_json};
use reqwest::StatusCode;
use serde_json::{Value, json};

const OPERATOR: &str = "Bearer operator-token-123";

async fn spawn(backend: Backend) -> TestApp {
    let providers =
        format!("fakeagg|https://agg.example/launch?t={{token}}&g={{game}}&m={{mode}}&c={{currency}}|{AGG_SECRET}");
    let app = TestApp::spawn_with(
        backend,
        &[("CROUPIER_ADMIN_TOKEN", "operator-token-123"), ("CROUPIER_GAME_PROVIDERS", providers.as_str())],
        |_| {},
    )
    .await;
    agg_game(&app, "agg-slot", "slot").await;
    app
}

async fn admin(app: &TestApp, method: reqwest::Method, path: &str, body: Value) -> (StatusCode, Value) {
    let request = reqwest::Client::new().request(method, app.url(path)).header("authorization", OPERATOR).json(&body);
    read_json(request.send().await.unwrap()).await
}

async fn info(app: &TestApp, client: &reqwest::Client) -> Value {
    let (status, body) = app.get_as(client, "loyalty.getinfo", &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"].clone()
}

async fn uid(app: &TestApp, client: &reqwest::Client) -> i64 {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["uid"].as_i64().unwrap()
}

async fn notices(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    let (status, body) = app.get_as(client, "loyalty.getnotifications", &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"]["items"].as_array().unwrap().clone()
}

async fn house_round(app: &TestApp, token: &str, game: &str, bet: &str) -> Value {
    let mut body = if game == "dice" { json!({"target": "50.00", "condition": "over"}) } else { json!({}) };
    body["token"] = json!(token);
    body["bet"] = json!(bet);
    let (status, r) = read_json(
        reqwest::Client::new().post(app.url(&format!("/games/house/{game}/round"))).json(&body).send().await.unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{game}: {r}");
    r
}

async fn buy(app: &TestApp, client: &reqwest::Client, product: i64, request: &str) -> (StatusCode, Value) {
    app.post_as(client, "loyalty.buyproduct", &[("product_id", &product.to_string()), ("request_id", request)]).await
}

async fn product_id(app: &TestApp, sysname: &str) -> i64 {
    let (_, body) = app.api_get("loyalty.getproducts", &[]).await;
    body["data"]["items"].as_array().unwrap().iter().find(|p| p["sysname"] == sysname).unwrap()["id"].as_i64().unwrap()
}

async fn bonus_count(app: &TestApp, user: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM player_bonuses WHERE user_id = $1")
        .bind(user)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap()
}

#[tokio::test]
async fn play_earns_points_levels_reward_and_the_shop_spends_them_once() {
    for backend in backends() {
        let app = spawn(backend).await;
        let alice = funded(&app, "alice@example.com", 1_000_000).await;
        let alice_id = uid(&app, &alice).await;

        // A new member: Bronze, nothing earned, welcomed once.
        let start = info(&app, &alice).await;
        assert_eq!(
            (start["points"].as_i64(), start["lifetime_points"].as_i64(), start["level"].as_i64()),
            (Some(0), Some(0), Some(1)),
            "{start}"
        );
        assert_eq!(start["levels"].as_array().unwrap().len(), 4);
        assert_eq!(start["progress"], json!({"minValue": 0, "maxValue": 1000, "expCount": 0}));
        assert_eq!(start["pointsAlias"], "chips");
        assert_eq!(start["uid"], format!("L-{alice_id:06}"));
        assert_eq!(start["levels"][1]["reward"], json!({"amount": "10.00", "currency": "USD"}));
        let welcome = notices(&app, &alice).await;
        assert_eq!(welcome.len(), 1, "{welcome:?}");
        assert_eq!(welcome[0]["trigger"], "register");
        assert!(notices(&app, &alice).await.is_empty(), "a notice is answered once");

        // House rounds: 1 chip per 10 dollars staked, whatever the outcome; demo play earns nothing.
        let token = launch(&app, &alice, "dice", "play").await.1["token"].as_str().unwrap().to_owned();
        for _ in 0..3 {
            house_round(&app, &token, "dice", "25.00").await;
        }
        assert_eq!(info(&app, &alice).await["points"], 7, "75 dollars: 7.5 chips, shown whole");
        house_round(&app, &token, "dice", "5.00").await;
        assert_eq!(info(&app, &alice).await["lifetime_points"], 8);
        let demo = launch(&app, &alice, "dice", "demo").await.1["token"].as_str().unwrap().to_owned();
        house_round(&app, &demo, "dice", "100.00").await;
        assert_eq!(info(&app, &alice).await["points"], 8, "fun money earns no chips");

        // An operator's adjustment crosses Silver: the level's bonus, a notice.
        let before = bonus_count(&app, alice_id).await;
        let adjust = json!({"user_id": alice_id, "points": 1000, "reason": "goodwill", "key": "goodwill-1"});
        let (status, body) = admin(&app, reqwest::Method::POST, "/admin/loyalty/points", adjust.clone()).await;
        assert_eq!((status, body["data"]["written"].as_bool()), (StatusCode::OK, Some(true)), "{body}");
        let (_, again) = admin(&app, reqwest::Method::POST, "/admin/loyalty/points", adjust).await;
        assert_eq!(again["data"]["written"], false, "the same key adjusts once");
        let silver = info(&app, &alice).await;
        assert_eq!((silver["points"].as_i64(), silver["level"].as_i64()), (Some(1008), Some(2)), "{silver}");
        assert_eq!(silver["progress"], json!({"minValue": 1000, "maxValue": 5000, "expCount": 1008}));
        assert_eq!(bonus_count(&app, alice_id).await, before + 1, "Silver's bonus");
        let (_, bonuses) = app.get_as(&alice, "bonuses.get", &[]).await;
        assert!(bonuses.to_string().contains("Silver level bonus"), "{bonuses}");
        let level = notices(&app, &alice).await;
        assert_eq!(level.iter().map(|n| n["trigger"].as_str().unwrap()).collect::<Vec<_>>(), ["level"], "{level:?}");
        let (status, refused) = admin(
            &app,
            reqwest::Method::POST,
            "/admin/loyalty/points",
            json!({"user_id": alice_id, "points": 5, "reason": " "}),
        )
        .await;
        expect_error(status, &refused, 422, "InvalidParameterException");
        let (status, _) = read_json(
            reqwest::Client::new()
                .post(app.url("/admin/loyalty/points"))
                .json(&json!({"user_id": alice_id, "points": 5, "reason": "x"}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert!(status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN, "{status}");

        // The shop: a guest sees the products, not as available.
        let (_, guest) = app.api_get("loyalty.getproducts", &[]).await;
        assert_eq!(guest["data"]["total"], 4, "{guest}");
        assert!(guest["data"]["items"].as_array().unwrap().iter().all(|p| p["available"] == false));
        let bonus5 = product_id(&app, "bonus-5").await;
        let big = product_id(&app, "bonus-50").await;
        let boost = product_id(&app, "cashback-boost").await;
        let bonuses_before = bonus_count(&app, alice_id).await;
        let (status, first) = buy(&app, &alice, bonus5, "req-1").await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!(first["data"]["points"], 908);
        let (_, second) = buy(&app, &alice, bonus5, "req-1").await;
        assert_eq!(second["data"]["purchase"]["id"], first["data"]["purchase"]["id"], "a second press buys once");
        assert_eq!(second["data"]["points"], 908);
        assert_eq!(bonus_count(&app, alice_id).await, bonuses_before + 1, "one bonus for one purchase");
        let (status, other) = buy(&app, &alice, big, "req-1").await;
        let err = expect_error(status, &other, 422, "InvalidParameterException");
        assert_eq!(err["error_data"]["request_id"][0], "DUPLICATE");
        let (status, poor) = buy(&app, &alice, big, "req-2").await;
        let err = expect_error(status, &poor, 422, "InvalidParameterException");
        assert_eq!(err["error_data"]["product_id"][0], "INSUFFICIENT_POINTS");
        let (status, boosted) = buy(&app, &alice, boost, "req-3").await;
        assert_eq!(status, StatusCode::OK, "Silver may buy the boost: {boosted}");
        assert_eq!(boosted["data"]["points"], 608);
        for (form, field, code) in [
            (vec![("request_id", "x")], "product_id", "REQUIRED"),
            (vec![("product_id", "0")], "product_id", "INVALID"),
            (vec![("product_id", "99999"), ("request_id", "r")], "product_id", "NOT_FOUND"),
            (vec![("product_id", &bonus5.to_string()), ("request_id", &"x".repeat(65))], "request_id", "MAX_LENGTH"),
        ] {
            let (status, body) = app.post_as(&alice, "loyalty.buyproduct", &form).await;
            let err = expect_error(status, &body, 422, "InvalidParameterException");
            assert_eq!(err["error_data"][field][0], code, "{body}");
        }
        assert_eq!(info(&app, &alice).await["points"], 608, "refused purchases spend nothing");
        let bought = notices(&app, &alice).await;
        assert_eq!(bought.iter().filter(|n| n["trigger"] == "product").count(), 2, "{bought:?}");
        let boosts: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM cashback_boosts WHERE user_id = $1 AND cashback_id IS NULL")
                .bind(alice_id)
                .fetch_one(app.state.db().pool())
                .await
                .unwrap();
        assert_eq!(boosts, 1);

        // Another player: their own account, no level for the boost, alice's request id is theirs to use.
        let bob = funded(&app, "bob@example.com", 100).await;
        let bob_info = info(&app, &bob).await;
        assert_eq!((bob_info["points"].as_i64(), bob_info["level"].as_i64()), (Some(0), Some(1)));
        let (status, body) = buy(&app, &bob, boost, "req-1").await;
        let err = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(err["error_data"]["product_id"][0], "LOCKED", "Bronze cannot buy a Silver product");
        let (status, body) = buy(&app, &bob, bonus5, "req-1").await;
        let err = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(err["error_data"]["product_id"][0], "INSUFFICIENT_POINTS");
        assert_eq!(info(&app, &alice).await["points"], 608, "bob's tries touch nothing of alice's");

        // Characters: chosen within the level reached.
        let (_, chars) = app.get_as(&alice, "loyalty.getcharacters", &[]).await;
        let items = chars["data"]["items"].as_array().unwrap();
        let id_of = |s: &str| items.iter().find(|c| c["sysname"] == s).unwrap()["id"].as_i64().unwrap();
        assert_eq!(items.iter().map(|c| c["available"].as_bool().unwrap()).collect::<Vec<_>>(), [true, true, false]);
        let (status, body) =
            app.post_as(&alice, "loyalty.setcharacter", &[("id", &id_of("high-roller").to_string())]).await;
        let err = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(err["error_data"]["id"][0], "LOCKED");
        let (status, body) = app.post_as(&alice, "loyalty.setcharacter", &[("id", &id_of("shark").to_string())]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["data"]["character"]["sysname"], "shark");
        let (status, body) = app.post_as(&alice, "loyalty.setcharacter", &[("id", "424242")]).await;
        assert_eq!(expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["id"][0], "NOT_FOUND");
        let (status, body) = app.post_as(&alice, "loyalty.setcharacter", &[]).await;
        assert_eq!(expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["id"][0], "REQUIRED");
        assert_eq!(info(&app, &alice).await["character"]["sysname"], "shark");
        assert_eq!(info(&app, &bob).await["character"], Value::Null);

        // In French.
        let url = app.api_url("loyalty.getinfo", "fr", &[]);
        let (_, french) = read_json(alice.get(url).send().await.unwrap()).await;
        assert_eq!(french["data"]["levels"][1]["title"], "Argent");
        assert_eq!(french["data"]["pointsAlias"], "jetons");

        // Guests are refused everything but the products.
        for method in ["loyalty.getinfo", "loyalty.getcharacters", "loyalty.getPrograms", "loyalty.getnotifications"] {
            let (status, body) = app.api_get(method, &[]).await;
            expect_error(status, &body, 401, "AuthorizationException");
        }
        let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
        assert!(report.violations.is_empty(), "{:?}", report.violations);
        app.finish().await;
    }
}

#[tokio::test]
async fn a_rollback_takes_back_what_its_bet_earned_and_bonus_money_earns_nothing() {
    for backend in backends() {
        let app = spawn(backend).await;
        let client = funded(&app, "roller@example.com", 100_000).await;
        let user = uid(&app, &client).await;
        let agg = Aggregator::launched(&app, &client, "agg-slot").await;
        let bet = |id: &str, round: &str, amount: i64| json!({"transaction_uuid": id, "round": round, "amount": amount, "currency": "USD"});
        assert_eq!(agg.call("bet", bet("b-1", "r-1", 20_000)).await["status"], "RS_OK");
        assert_eq!(agg.call("bet", bet("b-1", "r-1", 20_000)).await["status"], "RS_OK", "a retry");
        assert_eq!(info(&app, &client).await["points"], 20, "200 dollars, once");
        let rollback =
            json!({"transaction_uuid": "rb-1", "reference_transaction_uuid": "b-1", "round": "r-1", "currency": "USD"});
        assert_eq!(agg.call("rollback", rollback.clone()).await["status"], "RS_OK");
        let back = info(&app, &client).await;
        assert_eq!((back["points"].as_i64(), back["lifetime_points"].as_i64()), (Some(0), Some(0)), "{back}");
        assert_eq!(agg.call("rollback", rollback).await["status"], "RS_OK");
        assert_eq!(info(&app, &client).await["lifetime_points"], 0, "taken back once");

        // All the main money staked (1000 dollars: 100 chips), then a wagering bonus's money: nothing more.
        assert_eq!(agg.call("bet", bet("b-2", "r-2", 100_000)).await["status"], "RS_OK");
        assert_eq!(info(&app, &client).await["points"], 100);
        let campaign: i64 = sqlx::query_scalar("SELECT id FROM campaigns WHERE sysname = 'loyalty-shop-50'")
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        let grant = croupier_server::features::bonuses::admin::GrantInput {
            user_id: user,
            campaign_id: campaign,
            reason: "test".into(),
        };
        croupier_server::features::bonuses::admin::grant(
            &app.state,
            &croupier_server::features::backoffice::trail::Actor::cli(),
            &grant,
        )
        .await
        .unwrap();
        let paid = agg.call("bet", bet("b-3", "r-3", 400)).await;
        assert_eq!(paid["status"], "RS_OK", "{paid}");
        assert_eq!(info(&app, &client).await["points"], 100, "bonus money earns no chips");
        app.finish().await;
    }
}

#[tokio::test]
async fn quests_complete_from_the_records_and_credit_once() {
    for backend in backends() {
        let app = spawn(backend).await;
        let client = funded(&app, "quester@example.com", 100_000).await;
        let user = uid(&app, &client).await;
        let (status, programs) = app.get_as(&client, "loyalty.getPrograms", &[]).await;
        assert_eq!(status, StatusCode::OK, "{programs}");
        let items = programs["data"]["items"].as_array().unwrap();
        assert_eq!(
            items.iter().map(|p| p["sysname"].as_str().unwrap()).collect::<Vec<_>>(),
            ["first-steps", "slot-explorer"]
        );
        assert_eq!((items[0]["completed"].as_i64(), items[0]["total"].as_i64()), (Some(0), Some(3)));

        // The slot quest made short by an operator; two real slot rounds complete it.
        let quest = json!({"program": "slot-explorer", "title_en": "Play 2 slot rounds", "title_fr": "Jouez 2 tours", "goal": "rounds",
            "target": 2, "game_type": "slot", "reward_points": 200});
        let (status, body) =
            admin(&app, reqwest::Method::PUT, "/admin/loyalty/quests/hundred-slot-rounds", quest).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, bad) = admin(
            &app,
            reqwest::Method::PUT,
            "/admin/loyalty/quests/x",
            json!({"program": "nope", "title_en": "a",
            "title_fr": "b", "goal": "dance", "target": 0, "reward_points": -1}),
        )
        .await;
        let err = expect_error(status, &bad, 422, "InvalidParameterException");
        for field in ["program", "goal", "target", "reward_points"] {
            assert!(err["error_data"].get(field).is_some(), "{field}: {bad}");
        }
        let agg = Aggregator::launched(&app, &client, "agg-slot").await;
        agg.call(
            "bet",
            json!({"transaction_uuid": "q-1", "round": "qr-1", "amount": 100, "currency": "USD", "round_closed": true}),
        )
        .await;
        let (_, one) = app.get_as(&client, "loyalty.getProgram", &[("sysname", "slot-explorer")]).await;
        assert_eq!(
            (one["data"]["quests"][0]["progress"].as_i64(), one["data"]["quests"][0]["completed"].as_bool()),
            (Some(1), Some(false)),
            "{one}"
        );
        agg.call(
            "bet",
            json!({"transaction_uuid": "q-2", "round": "qr-2", "amount": 100, "currency": "USD", "round_closed": true}),
        )
        .await;
        let credited = notices(&app, &client).await;
        let quest_notice = credited.iter().find(|n| n["trigger"] == "quest").unwrap_or_else(|| panic!("{credited:?}"));
        assert_eq!(
            (quest_notice["type"].as_str(), quest_notice["amount"].as_i64(), quest_notice["amountType"].as_str()),
            (Some("credit"), Some(200), Some("points"))
        );
        assert_eq!(info(&app, &client).await["points"], 200, "200 for the quest (20 cents of play earn no whole chip)");
        let (_, one) = app.get_as(&client, "loyalty.getProgram", &[("sysname", "slot-explorer")]).await;
        assert_eq!(one["data"]["quests"][0]["completed"], true);
        assert_eq!(one["data"]["completed"], 1);

        // Filling in the profile (the `profile` trigger), once however often the player looks.
        sqlx::query("INSERT INTO profiles (user_id, first_name, last_name, birth_date, country, updated_at) VALUES ($1, 'Ada', 'Lovelace', '1990-12-10', 'FR', 0)")
            .bind(user)
            .execute(app.state.db().pool())
            .await
            .unwrap();
        for _ in 0..3 {
            app.get_as(&client, "loyalty.getPrograms", &[]).await;
        }
        assert_eq!(info(&app, &client).await["points"], 250);
        let profile = notices(&app, &client).await;
        assert_eq!(profile.iter().map(|n| n["trigger"].as_str().unwrap()).collect::<Vec<_>>(), ["profile"]);

        let (status, body) = app.get_as(&client, "loyalty.getProgram", &[("sysname", "nope")]).await;
        assert_eq!(
            expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["sysname"][0],
            "NOT_FOUND"
        );
        let (status, body) = app.get_as(&client, "loyalty.getProgram", &[]).await;
        assert_eq!(
            expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["sysname"][0],
            "REQUIRED"
        );

        // Another player's progress is theirs.
        let other = funded(&app, "other@example.com", 100).await;
        let (_, theirs) = app.get_as(&other, "loyalty.getProgram", &[("sysname", "slot-explorer")]).await;
        assert_eq!(theirs["data"]["quests"][0]["progress"], 0);
        app.finish().await;
    }
}

#[tokio::test]
async fn operators_configure_the_programme_and_bad_config_is_refused_whole() {
    for backend in backends() {
        let app = spawn(backend).await;
        let (status, all) = admin(&app, reqwest::Method::GET, "/admin/loyalty", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{all}");
        assert_eq!(all["data"]["levels"].as_array().unwrap().len(), 4);
        let (status, body) = admin(
            &app,
            reqwest::Method::PUT,
            "/admin/loyalty/levels",
            json!({"items": [
                {"level": 1, "min_points": 0, "title_en": "A", "title_fr": "A"},
                {"level": 2, "min_points": 0, "title_en": "B", "title_fr": "B"}
            ]}),
        )
        .await;
        let err = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(err["error_data"]["min_points"][0], "INVALID", "thresholds must rise");
        let (_, after) = admin(&app, reqwest::Method::GET, "/admin/loyalty", json!({})).await;
        assert_eq!(after["data"]["levels"], all["data"]["levels"], "nothing half-written");
        let (status, body) = admin(
            &app,
            reqwest::Method::PUT,
            "/admin/loyalty/rates",
            json!({"items": [
                {"game_type": "*", "currency": "XXX", "milli_per_unit": 100}
            ]}),
        )
        .await;
        assert_eq!(
            expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["currency"][0],
            "UNSUPPORTED"
        );
        let (status, body) = admin(
            &app,
            reqwest::Method::PUT,
            "/admin/loyalty/products/free-lunch",
            json!({
                "title_en": "Lunch", "title_fr": "Déjeuner", "price": 10, "kind": "bonus"
            }),
        )
        .await;
        assert_eq!(
            expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["campaign_id"][0],
            "REQUIRED"
        );

        // The programme switched off: nothing accrues, the shop is closed.
        let (status, _) = admin(
            &app,
            reqwest::Method::PUT,
            "/admin/loyalty/settings",
            json!({"active": false, "levels_drop": false}),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let client = funded(&app, "off@example.com", 100_000).await;
        let token = launch(&app, &client, "dice", "play").await.1["token"].as_str().unwrap().to_owned();
        house_round(&app, &token, "dice", "100.00").await;
        let off = info(&app, &client).await;
        assert_eq!((off["points"].as_i64(), off["is_active"].as_bool()), (Some(0), Some(false)), "{off}");
        let (_, products) = app.get_as(&client, "loyalty.getproducts", &[]).await;
        assert!(products["data"]["items"].as_array().unwrap().iter().all(|p| p["available"] == false));

        // Rates changed: sports-like games earn double, slots nothing.
        admin(&app, reqwest::Method::PUT, "/admin/loyalty/settings", json!({"active": true, "levels_drop": false}))
            .await;
        let (status, body) = admin(
            &app,
            reqwest::Method::PUT,
            "/admin/loyalty/rates",
            json!({"items": [
                {"game_type": "fast", "currency": "USD", "milli_per_unit": 200},
                {"game_type": "slot", "currency": "USD", "milli_per_unit": 0}
            ]}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        house_round(&app, &token, "dice", "100.00").await;
        assert_eq!(info(&app, &client).await["points"], 20);

        // The CLI adjusts too, with a reason.
        let user = uid(&app, &client).await.to_string();
        let out = app.cli(&["admin", "loyalty", "points", &user, "-5", "correction"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(info(&app, &client).await["points"], 15);
        let out = app.cli(&["admin", "loyalty", "points", &user, "0", "nothing"]);
        assert!(!out.status.success(), "0 points is refused");

        // A programme made, then changed: each put audited with what it replaced.
        for title in ["Tour", "Grand tour"] {
            let sent = json!({"title_en": title, "title_fr": title});
            let (status, body) = admin(&app, reqwest::Method::PUT, "/admin/loyalty/programs/audit-tour", sent).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        // Every accepted change has its own row, in order; the refused ones above wrote none.
        type Change = (String, Option<String>, Option<String>, Option<String>);
        let rows: Vec<Change> = sqlx::query_as(
            "SELECT action, target_id, before_json, after_json FROM operator_audit WHERE action LIKE 'loyalty.%' \
             AND action <> 'loyalty.points' ORDER BY id",
        )
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        let actions: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(
            actions,
            ["loyalty.settings", "loyalty.settings", "loyalty.rates", "loyalty.program", "loyalty.program"]
        );
        let json = |text: &Option<String>| serde_json::from_str::<Value>(text.as_deref().unwrap_or("null")).unwrap();
        assert_eq!(json(&rows[0].2), json!({"active": true, "levels_drop": false}));
        assert_eq!(json(&rows[0].3), json!({"active": false, "levels_drop": false}));
        let rates_before = json(&rows[2].2);
        assert!(rates_before.as_array().is_some_and(|r| !r.is_empty()), "the rates replaced: {rates_before}");
        assert_eq!(json(&rows[2].3)[0]["game_type"], "fast");
        assert_eq!((rows[3].1.as_deref(), rows[3].2.as_deref()), (Some("audit-tour"), None), "made by the put");
        let made = json(&rows[4].2);
        assert_eq!((made["active"].as_bool(), json(&rows[4].3)["title_en"].as_str()), (Some(true), Some("Grand tour")));
        assert!(made["id"].as_i64().is_some(), "{made}");
        app.finish().await;
    }
}

/// A model of points and levels against random bets, wins and rollbacks through the wallet.
#[tokio::test]
async fn points_and_levels_follow_a_model_of_random_play() {
    for backend in backends() {
        let app = spawn(backend).await;
        // Levels close together so random play crosses several; rollbacks may take them down.
        let (status, body) = admin(
            &app,
            reqwest::Method::PUT,
            "/admin/loyalty/levels",
            json!({"items": [
                {"level": 1, "min_points": 0, "title_en": "One", "title_fr": "Un"},
                {"level": 2, "min_points": 30, "title_en": "Two", "title_fr": "Deux"},
                {"level": 3, "min_points": 80, "title_en": "Three", "title_fr": "Trois"},
                {"level": 4, "min_points": 150, "title_en": "Four", "title_fr": "Quatre"}
            ]}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        for levels_drop in [false, true] {
            admin(
                &app,
                reqwest::Method::PUT,
                "/admin/loyalty/settings",
                json!({"active": true, "levels_drop": levels_drop}),
            )
            .await;
            let client = funded(&app, &format!("model-{levels_drop}@example.com"), 10_000_000).await;
            let agg = Aggregator::launched(&app, &client, "agg-slot").await;
            let mut rng = XorShift(0x5eed_1234 + u64::from(levels_drop));
            // (uuid, round, milli-points earned, rolled back, won)
            let mut bets: Vec<(String, String, i64, bool, bool)> = Vec::new();
            let (mut level, mut peak) = (1_i64, 1_i64);
            for step in 0..60 {
                match rng.below(10) {
                    0..=5 => {
                        let amount = rng.range(1, 30_000);
                        let (id, round) = (format!("m-{levels_drop}-{step}"), format!("mr-{levels_drop}-{step}"));
                        let r = agg
                            .call(
                                "bet",
                                json!({"transaction_uuid": id, "round": round, "amount": amount, "currency": "USD"}),
                            )
                            .await;
                        assert_eq!(r["status"], "RS_OK", "{r}");
                        bets.push((id, round, amount, false, false));
                    }
                    6..=7 if !bets.is_empty() => {
                        let i = rng.below(bets.len() as u64) as usize;
                        let (id, round, _, rolled, won) = bets[i].clone();
                        let r = agg.call("rollback", json!({"transaction_uuid": format!("rb-{levels_drop}-{step}"), "reference_transaction_uuid": id, "round": round, "currency": "USD"})).await;
                        if won {
                            assert_eq!(r["status"], "RS_ERROR_UNKNOWN", "no rollback after a win");
                        } else {
                            assert_eq!(r["status"], "RS_OK", "{r}");
                            if !rolled {
                                bets[i].3 = true;
                            }
                        }
                    }
                    _ if !bets.is_empty() => {
                        let i = rng.below(bets.len() as u64) as usize;
                        let (id, round, ..) = bets[i].clone();
                        let r = agg.call("win", json!({"transaction_uuid": format!("w-{levels_drop}-{step}"), "reference_transaction_uuid": id, "round": round, "amount": rng.range(1, 5_000), "currency": "USD"})).await;
                        assert_eq!(r["status"], "RS_OK", "{r}");
                        bets[i].4 = true;
                    }
                    _ => continue,
                }
                // The model: 100 milli-points per dollar, i.e. one per cent staked and kept.
                let milli: i64 = bets.iter().filter(|b| !b.3).map(|b| b.2).sum();
                let lifetime = milli / 1000;
                let reached = [(150, 4), (80, 3), (30, 2), (0, 1)].iter().find(|(min, _)| lifetime >= *min).unwrap().1;
                peak = peak.max(reached);
                level = if levels_drop { reached } else { level.max(reached) };
                let got = info(&app, &client).await;
                assert_eq!(
                    (got["points"].as_i64(), got["lifetime_points"].as_i64(), got["level"].as_i64()),
                    (Some(lifetime), Some(lifetime), Some(level)),
                    "step {step}, levels_drop {levels_drop}: {got}"
                );
            }
            assert!(peak >= 2, "the walk crossed a level (peak {peak})");
            // Each level reached was announced once, however often it was crossed.
            let user = uid(&app, &client).await;
            let announced: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM loyalty_notifications WHERE user_id = $1 AND trigger_kind = 'level'",
            )
            .bind(user)
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
            assert_eq!(announced, peak - 1);
        }
        app.finish().await;
    }
}
