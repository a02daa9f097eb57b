//! Player protection (issue 21): responsible gaming enforced on every money path, identity
//! verification through the sandbox page and signed webhooks (and the Sumsub adapter against a
//! local fake), support, bans and the maintenance switch. Both databases.

use crate::cashier::{deposit, verified_player};
use crate::games::{Aggregator, agg_game, agg_providers, funded, launch};
use crate::helpers::{Backend, TestApp, backends, expect_error, read_json};
use croupier_server::kyc::{DigestAlg, digest, format_timestamp};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The operator token the protection and hot-path tests start their apps with.
pub(crate) const ADMIN: &str = "operator-token-0123456789abcdef";

async fn roll(app: &TestApp, token: &str, bet: &str) -> (StatusCode, Value) {
    let r = reqwest::Client::new()
        .post(app.url("/games/house/dice/round"))
        .json(&json!({"token": token, "bet": bet, "target": "50.00", "condition": "under"}))
        .send()
        .await
        .unwrap();
    read_json(r).await
}

async fn admin(app: &TestApp, path: &str, body: Value) -> (StatusCode, Value) {
    let r = reqwest::Client::new().post(app.url(path)).bearer_auth(ADMIN).json(&body).send().await.unwrap();
    read_json(r).await
}

async fn admin_get(app: &TestApp, path: &str) -> (StatusCode, Value) {
    read_json(reqwest::Client::new().get(app.url(path)).bearer_auth(ADMIN).send().await.unwrap()).await
}

async fn uid(app: &TestApp, client: &reqwest::Client) -> i64 {
    app.get_as(client, "account.getInfo", &[]).await.1["data"]["uid"].as_i64().unwrap()
}

async fn main_balance(app: &TestApp, client: &reqwest::Client) -> String {
    app.get_as(client, "account.getBalance", &[]).await.1["data"]["balance_main"]["amount"].as_str().unwrap().to_owned()
}

async fn ledger_clean(app: &TestApp) {
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_self_excluded_player_can_do_no_money_action_through_any_entry_point() {
    for backend in backends() {
        let providers = agg_providers();
        let env = [("CROUPIER_GAME_PROVIDERS", providers.as_str()), ("CROUPIER_ADMIN_TOKEN", ADMIN)];
        let app = TestApp::spawn_with(backend, &env, |_| {}).await;
        agg_game(&app, "agg-slot", "slot").await;
        let client = funded(&app, "excluded@example.com", 10_000).await;
        let id = uid(&app, &client).await;
        // A cashback waiting to be claimed from a Telegram notice's button.
        let end_date =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64 + 86_400;
        let (status, body) = admin(
            &app,
            "/admin/cashbacks",
            json!({"user_id": id, "amount": 500, "currency": "USD",
            "description_en": "Weekly", "description_fr": "Hebdo", "end_date": end_date}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let cashback_id = body["data"]["id"].as_i64().unwrap();
        sqlx::query("INSERT INTO social_identities (provider, subject, user_id, created_at) VALUES ('telegram', '777000', $1, 0)")
            .bind(id)
            .execute(app.state.db().pool())
            .await
            .unwrap();
        let (_, dice) = launch(&app, &client, "dice", "play").await;
        let dice = dice["token"].as_str().unwrap().to_owned();
        let agg = Aggregator::launched(&app, &client, "agg-slot").await;
        let (status, _) = roll(&app, &dice, "1.00").await;
        assert_eq!(status, StatusCode::OK);

        // Bad input first: every field is checked, nothing starts.
        let (status, body) =
            app.post_as(&client, "responsibleGaming.exclude", &[("kind", "self_exclusion"), ("days", "30")]).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"]["days"][0], "UNSUPPORTED", "{body}");
        assert_eq!(error["error_data"]["confirm"][0], "UNCHECKED", "{body}");
        let (status, body) = app
            .post_as(&client, "responsibleGaming.exclude", &[("kind", "time_out"), ("days", "43"), ("confirm", "1")])
            .await;
        assert_eq!(expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["days"][0], "MAX_VALUE");
        let (status, body) = app
            .post_as(&client, "responsibleGaming.exclude", &[("kind", "holiday"), ("days", "1"), ("confirm", "1")])
            .await;
        assert_eq!(
            expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["kind"][0],
            "UNSUPPORTED"
        );
        assert_eq!(app.get_as(&client, "account.getInfo", &[]).await.1["data"]["exclusion"], Value::Null);

        let (status, body) = app
            .post_as(
                &client,
                "responsibleGaming.exclude",
                &[("kind", "self_exclusion"), ("days", "183"), ("confirm", "1")],
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let until = body["data"]["until"].as_i64().unwrap();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        assert!((until - now - 183 * 86_400).abs() < 60, "{body}");
        // Signed out at once, everywhere.
        assert_eq!(uid(&app, &client).await, 0, "the session ended");
        let (status, body) =
            app.post_as(&client, "auth.login", &[("login", "excluded@example.com"), ("password", "secret123")]).await;
        assert_eq!(status, StatusCode::OK, "an excluded player may sign in to withdraw: {body}");
        let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
        assert_eq!(me["data"]["exclusion"]["kind"], "self_exclusion", "{me}");
        assert_eq!(me["data"]["is_subscribed"], false, "marketing is off");
        let before = main_balance(&app, &client).await;

        // Every money path refuses, and moves nothing.
        let (status, body) =
            app.post_as(&client, "cashier.makedeposit", &[("method", "sandbox_card"), ("amount", "50")]).await;
        let error = expect_error(status, &body, 409, "PlayerExcludedException");
        assert_eq!(
            (error["error_data"]["kind"].as_str(), error["error_data"]["until"].as_i64()),
            (Some("self_exclusion"), Some(until))
        );
        let (status, body) = roll(&app, &dice, "1.00").await;
        assert_eq!(
            (status, body["error"].as_str(), body["until"].as_i64()),
            (StatusCode::CONFLICT, Some("excluded"), Some(until)),
            "{body}"
        );
        let bet =
            agg.call("bet", json!({"transaction_uuid": "x-1", "round": "x-1", "amount": 100, "currency": "USD"})).await;
        assert_eq!(bet["status"], "RS_ERROR_USER_DISABLED", "{bet}");
        let (status, body) = launch(&app, &client, "dice", "play").await;
        expect_error(status, &body, 409, "PlayerExcludedException");
        let (status, body) = launch(&app, &client, "dice", "demo").await;
        assert_eq!(status, StatusCode::OK, "demo play moves no money: {body}");
        for (method, form) in [
            ("campaigns.activateOffer", vec![("promo_code", "WELCOME")]),
            ("campaigns.checkPromocode", vec![("promo_code", "WELCOME")]),
            ("campaigns.takepromotions", vec![("offer_id", "1")]),
            ("bonuses.activate", vec![("bonus_id", "1")]),
            ("cashbacks.payout", vec![("cashback_id", "1")]),
            ("loyalty.buyproduct", vec![("product_id", "1")]),
            ("account.changeSubscription", vec![("contact", "excluded@example.com"), ("subscription", "1")]),
            (
                "bets.place",
                vec![
                    ("kind", "single"),
                    ("selections", "1"),
                    ("odds", "2.00"),
                    ("stake", "1.00"),
                    ("accept_odds", "any"),
                    ("request_id", "excluded-1"),
                ],
            ),
        ] {
            let (status, body) = app.post_as(&client, method, &form).await;
            expect_error(status, &body, 409, "PlayerExcludedException");
        }
        let claim =
            croupier_server::features::cashbacks::claim_from_chat(&app.state, 777_000, cashback_id).await.unwrap();
        assert_eq!(claim.outcome, croupier_bot::ClaimOutcome::Unavailable, "the bot's claim button pays nothing");
        assert_eq!(main_balance(&app, &client).await, before);

        // Never shortened: a time-out now leaves the self-exclusion as it was.
        let (status, body) = app
            .post_as(&client, "responsibleGaming.exclude", &[("kind", "time_out"), ("days", "1"), ("confirm", "1")])
            .await;
        assert_eq!(
            (status, body["data"]["kind"].as_str(), body["data"]["until"].as_i64()),
            (StatusCode::OK, Some("self_exclusion"), Some(until))
        );
        // Promotional Telegram notices are skipped for the player (the delivery batch's SQL).
        let sql = format!(
            "SELECT {} FROM users u JOIN (SELECT id AS user_id FROM users) o ON o.user_id = u.id WHERE u.id = $2",
            croupier_server::features::notify::PROMOTIONS_OFF
        );
        let off: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .bind(now * 1000)
            .bind(id)
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(off, 1);
        ledger_clean(&app).await;
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loss_and_wager_limits_refuse_bets_and_rise_only_a_day_later() {
    for backend in backends() {
        let providers = agg_providers();
        let app = TestApp::spawn_with(backend, &[("CROUPIER_GAME_PROVIDERS", providers.as_str())], |_| {}).await;
        agg_game(&app, "agg-slot", "slot").await;
        let client = funded(&app, "wager@example.com", 10_000).await;
        let (_, dice) = launch(&app, &client, "dice", "play").await;
        let dice = dice["token"].as_str().unwrap().to_owned();

        let (status, body) = app
            .post_as(&client, "responsibleGaming.setLimit", &[("kind", "bets"), ("period", "year"), ("amount", "5")])
            .await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(
            (error["error_data"]["kind"][0].as_str(), error["error_data"]["period"][0].as_str()),
            (Some("UNSUPPORTED"), Some("UNSUPPORTED"))
        );
        let (status, _) = app
            .post_as(&client, "responsibleGaming.setLimit", &[("kind", "wager"), ("period", "day"), ("amount", "5")])
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(roll(&app, &dice, "3.00").await.0, StatusCode::OK);
        let (status, body) = roll(&app, &dice, "3.00").await;
        assert_eq!(
            (
                status,
                body["error"].as_str(),
                body["kind"].as_str(),
                body["period"].as_str(),
                body["available"].as_str()
            ),
            (StatusCode::CONFLICT, Some("play_limit"), Some("wager"), Some("day"), Some("2.00 USD")),
            "{body}"
        );
        assert_eq!(roll(&app, &dice, "2.00").await.0, StatusCode::OK, "up to the limit exactly");
        let agg = Aggregator::launched(&app, &client, "agg-slot").await;
        let bet =
            agg.call("bet", json!({"transaction_uuid": "w-1", "round": "w-1", "amount": 1, "currency": "USD"})).await;
        assert_eq!(bet["status"], "RS_ERROR_LIMIT_REACHED", "{bet}");

        // A rise waits 24 hours, and the player sees when it applies.
        let (status, _) = app
            .post_as(&client, "responsibleGaming.setLimit", &[("kind", "wager"), ("period", "day"), ("amount", "50")])
            .await;
        assert_eq!(status, StatusCode::OK);
        let (_, limits) = app.get_as(&client, "responsibleGaming.getLimits", &[]).await;
        let day = limits["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["kind"] == "wager" && l["period"] == "day")
            .unwrap()
            .clone();
        assert_eq!(
            (
                day["limit_amount"]["amount"].as_str(),
                day["pending_limit_amount"]["amount"].as_str(),
                day["available_amount"]["amount"].as_str()
            ),
            (Some("5.00"), Some("50.00"), Some("0.00")),
            "{day}"
        );
        assert!(day["expired_at"].as_i64().is_some());
        assert_eq!(roll(&app, &dice, "1.00").await.0, StatusCode::CONFLICT);
        sqlx::query("UPDATE rg_limits SET pending_from = pending_from - 86400001")
            .execute(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(roll(&app, &dice, "1.00").await.0, StatusCode::OK, "the rise applies after 24 hours");

        // Window edges: stakes older than 24 hours leave the day's window but stay in the week's.
        let (status, _) = app
            .post_as(&client, "responsibleGaming.setLimit", &[("kind", "wager"), ("period", "week"), ("amount", "9")])
            .await;
        assert_eq!(status, StatusCode::OK);
        sqlx::query("UPDATE game_rounds SET created_at = created_at - 90000000")
            .execute(app.state.db().pool())
            .await
            .unwrap();
        let (status, body) = roll(&app, &dice, "4.00").await;
        assert_eq!(
            (status, body["period"].as_str(), body["available"].as_str()),
            (StatusCode::CONFLICT, Some("week"), Some("3.00 USD")),
            "{body}"
        );
        assert_eq!(roll(&app, &dice, "3.00").await.0, StatusCode::OK);

        // A loss limit counts every stake as possibly lost.
        let other = funded(&app, "loss@example.com", 10_000).await;
        let (_, t) = launch(&app, &other, "dice", "play").await;
        let t = t["token"].as_str().unwrap().to_owned();
        app.post_as(&other, "responsibleGaming.setLimit", &[("kind", "loss"), ("period", "month"), ("amount", "1")])
            .await;
        let (status, body) = roll(&app, &t, "2.00").await;
        assert_eq!((status, body["kind"].as_str()), (StatusCode::CONFLICT, Some("loss")), "{body}");
        assert_eq!(roll(&app, &t, "1.00").await.0, StatusCode::OK);
        // Deposit limits share the table and the rules.
        let (_, deposit_limits) = app.get_as(&other, "account.getDepositLimit", &[]).await;
        assert_eq!(deposit_limits["data"].as_array().unwrap().len(), 3);
        assert!(deposit_limits["data"].as_array().unwrap().iter().all(|l| l["kind"] == "deposit"));
        ledger_clean(&app).await;
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reality_check_reports_the_session() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let client = funded(&app, "reality@example.com", 10_000).await;
        let (status, body) = app.post_as(&client, "responsibleGaming.setRealityCheck", &[("minutes", "7")]).await;
        assert_eq!(
            expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["minutes"][0],
            "UNSUPPORTED"
        );
        assert_eq!(
            app.post_as(&client, "responsibleGaming.setRealityCheck", &[("minutes", "15")]).await.0,
            StatusCode::OK
        );
        let (_, state) = app.get_as(&client, "responsibleGaming.get", &[]).await;
        assert_eq!(state["data"]["reality_check_minutes"], 15);
        let (_, dice) = launch(&app, &client, "dice", "play").await;
        let (_, round) = roll(&app, dice["token"].as_str().unwrap(), "2.00").await;
        let (_, check) = app.get_as(&client, "responsibleGaming.realityCheck", &[]).await;
        assert_eq!(check["data"]["interval_minutes"], 15, "{check}");
        assert_eq!(check["data"]["stakes"]["amount"], "2.00");
        assert_eq!(check["data"]["wins"]["amount"], round["win"], "{check} {round}");
        assert!(check["data"]["session_seconds"].as_i64().unwrap() >= 0);
        let (status, body) = app.get_as(&app.browser(), "responsibleGaming.realityCheck", &[]).await;
        expect_error(status, &body, 401, "AuthorizationException");
        app.post_as(&client, "responsibleGaming.setRealityCheck", &[("minutes", "0")]).await;
        assert_eq!(
            app.get_as(&client, "responsibleGaming.get", &[]).await.1["data"]["reality_check_minutes"],
            Value::Null
        );
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bans_stop_every_call_and_maintenance_stops_product_calls_only() {
    for backend in backends() {
        let providers = agg_providers();
        let env = [("CROUPIER_GAME_PROVIDERS", providers.as_str()), ("CROUPIER_ADMIN_TOKEN", ADMIN)];
        let app = TestApp::spawn_with(backend, &env, |_| {}).await;
        agg_game(&app, "agg-slot", "slot").await;
        let client = funded(&app, "banned@example.com", 1_000).await;
        let id = uid(&app, &client).await;
        let agg = Aggregator::launched(&app, &client, "agg-slot").await;

        let (status, body) = admin(&app, &format!("/admin/players/{id}/ban"), json!({"reason": " "})).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        let r = reqwest::Client::new()
            .post(app.url(&format!("/admin/players/{id}/ban")))
            .json(&json!({"reason": "x"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "the operator API needs its token");
        let (status, body) = admin(
            &app,
            &format!("/admin/players/{id}/ban"),
            json!({"reason": "chargeback fraud", "ban_type": "fraud"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) = app.get_as(&client, "account.getInfo", &[]).await;
        assert_eq!(expect_error(status, &body, 403, "UserBannedException")["error_data"]["ban_type"], "fraud");
        let bet =
            agg.call("bet", json!({"transaction_uuid": "b-1", "round": "b-1", "amount": 1, "currency": "USD"})).await;
        assert_eq!(bet["status"], "RS_ERROR_USER_DISABLED");
        let fresh = app.browser();
        let (status, body) =
            app.post_as(&fresh, "auth.login", &[("login", "banned@example.com"), ("password", "secret123")]).await;
        expect_error(status, &body, 403, "UserBannedException");
        let (_, protection) = admin_get(&app, &format!("/admin/players/{id}/protection")).await;
        assert_eq!(
            (protection["data"]["status"].as_str(), protection["data"]["ban"]["reason"].as_str()),
            (Some("banned"), Some("chargeback fraud"))
        );
        let (status, _) = admin(&app, &format!("/admin/players/{id}/unban"), json!({"reason": "appeal upheld"})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(uid(&app, &client).await, 0, "an unban ends the old sessions");
        let (status, _) =
            app.post_as(&fresh, "auth.login", &[("login", "banned@example.com"), ("password", "secret123")]).await;
        assert_eq!(status, StatusCode::OK);
        let actions: Vec<(String, String, Option<String>, String, String)> = sqlx::query_as(
            "SELECT action, role, reason, before_json, after_json FROM operator_audit WHERE user_id = $1 ORDER BY id",
        )
        .bind(id)
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        let seen: Vec<(&str, &str, Option<&str>)> =
            actions.iter().map(|(a, r, why, _, _)| (a.as_str(), r.as_str(), why.as_deref())).collect();
        assert_eq!(
            seen,
            [
                ("players.ban", "automation", Some("chargeback fraud")),
                ("players.unban", "automation", Some("appeal upheld"))
            ],
            "each action is one audit row by the token's role, with its reason"
        );
        let before: serde_json::Value = serde_json::from_str(&actions[0].3).unwrap();
        let after: serde_json::Value = serde_json::from_str(&actions[0].4).unwrap();
        assert_eq!((before["status"].as_str(), after["status"].as_str()), (Some("active"), Some("banned")));

        // Maintenance: product calls answer 503, the page says so, operators and health go on.
        let (status, body) = admin(&app, "/admin/maintenance", json!({"on": true, "reason": "database upgrade"})).await;
        assert_eq!((status, body["data"]["on"].as_bool()), (StatusCode::OK, Some(true)), "{body}");
        let (status, body) = app.get_as(&fresh, "account.getInfo", &[]).await;
        expect_error(status, &body, 503, "ApplicationDisabledException");
        let (status, body) = app.api_get("metadata.getgeneralinfo", &[]).await;
        assert_eq!((status, body["data"]["domain_state"].as_str()), (StatusCode::OK, Some("maintenance")));
        let page = reqwest::get(app.url("/gamehall")).await.unwrap();
        assert_eq!(page.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(page.headers()["retry-after"], "300");
        assert_eq!(reqwest::get(app.url("/healthz")).await.unwrap().status(), StatusCode::OK);
        let balance = agg.call("balance", json!({})).await;
        assert_eq!(balance["status"], "RS_OK", "provider wallets settle rounds in play: {balance}");
        let (status, _) = admin(&app, "/admin/maintenance", json!({"on": false, "reason": "done"})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(app.api_get("metadata.getgeneralinfo", &[]).await.1["data"]["domain_state"], "active");
        assert_eq!(app.get_as(&fresh, "account.getInfo", &[]).await.0, StatusCode::OK);

        // The CLI goes through the same functions; other processes see the switch within seconds
        // (the ban at once with Redis, else when the cached session expires: hot::TTL).
        let out = app.cli(&["admin", "players", "ban", &id.to_string(), "support ticket 42"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        tokio::time::sleep(croupier_server::hot::TTL + std::time::Duration::from_millis(100)).await;
        let (status, body) = app.get_as(&fresh, "account.getInfo", &[]).await;
        expect_error(status, &body, 403, "UserBannedException");
        let out = app.cli(&["admin", "maintenance", "on", "cli test"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        tokio::time::sleep(croupier_server::switches::REFRESH + std::time::Duration::from_millis(200)).await;
        assert_eq!(app.api_get("metadata.getgeneralinfo", &[]).await.1["data"]["domain_state"], "maintenance");
        let out = app.cli(&["admin", "maintenance", "off", "cli test over"]);
        assert!(out.status.success());
        app.finish().await;
    }
}

/// A 1×1 PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8,
    6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0x0f, 0, 0x01,
    0x01, 0x01, 0, 0x18, 0xdd, 0x8d, 0xb0, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

async fn submit_sandbox(page: &str, image: &[u8], decision: &str) -> reqwest::Response {
    let form = reqwest::multipart::Form::new()
        .part(
            "document",
            reqwest::multipart::Part::bytes(image.to_vec()).file_name("passport.png").mime_str("image/png").unwrap(),
        )
        .text("decision", decision.to_owned())
        .text("comment", "The photo is blurred.");
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .post(page)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

fn review(user: i64, kind: &str, answer: Option<(&str, Option<&str>)>, at_ms: i64) -> Value {
    let mut event = json!({
        "type": kind, "applicantId": "app-1", "externalUserId": format!("cr-{user}"), "levelName": "basic-kyc-level",
        "reviewStatus": "completed", "createdAtMs": format_timestamp(at_ms),
    });
    if let Some((answer, reject)) = answer {
        event["reviewResult"] = json!({"reviewAnswer": answer, "reviewRejectType": reject, "rejectLabels": [],
            "moderationComment": "Please send a sharper photo.", "clientComment": "internal: suspected edit"});
    }
    event
}

async fn webhook(app: &TestApp, provider: &str, event: &Value, alg: &str, secret: &[u8]) -> (StatusCode, Value) {
    let body = event.to_string();
    let alg_kind = DigestAlg::parse(alg).unwrap_or(DigestAlg::Sha256);
    let r = reqwest::Client::new()
        .post(app.url(&format!("/webhooks/kyc/{provider}")))
        .header("content-type", "application/json")
        .header("x-payload-digest-alg", alg)
        .header("x-payload-digest", digest(alg_kind, secret, body.as_bytes()))
        .body(body)
        .send()
        .await
        .unwrap();
    read_json(r).await
}

async fn kyc_status(app: &TestApp, client: &reqwest::Client) -> Value {
    app.get_as(client, "verification.getStatus", &[]).await.1["data"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verification_through_the_sandbox_page_and_ordered_signed_webhooks() {
    for backend in backends() {
        let env = [("CROUPIER_KYC_FOR_WITHDRAWAL", "true"), ("CROUPIER_ADMIN_TOKEN", ADMIN)];
        let app = TestApp::spawn_with(backend, &env, |_| {}).await;
        let client = verified_player(&app, "kyc@example.com").await;
        let id = uid(&app, &client).await;
        assert_eq!(kyc_status(&app, &client).await["status"], "none");
        let (status, body) =
            app.post_as(&client, "verification.getAccessToken", &[("externalActionId", "bad id!")]).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        let (status, token) = app.post_as(&client, "verification.getAccessToken", &[]).await;
        assert_eq!(status, StatusCode::OK, "{token}");
        let page = token["data"]["url"].as_str().unwrap().replace("http://localhost:8080", &app.url(""));
        let html = reqwest::get(&page).await.unwrap().text().await.unwrap();
        assert!(html.contains("type=\"file\"") && html.contains("value=\"approve\""), "{html}");
        let refused = submit_sandbox(&page, b"not an image at all", "approve").await;
        assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let sent = submit_sandbox(&page, PNG, "approve").await;
        assert_eq!(
            (sent.status(), sent.headers()["location"].to_str().unwrap()),
            (StatusCode::SEE_OTHER, "/profile/verification")
        );
        assert_eq!(kyc_status(&app, &client).await["status"], "verified");
        let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
        assert_eq!(
            (me["data"]["is_verified"].as_bool(), me["data"]["is_on_verification"].as_bool()),
            (Some(true), Some(false))
        );
        deposit(&app, &client, "sandbox_card", "50").await;
        let (status, body) =
            app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "20")]).await;
        assert_eq!(status, StatusCode::OK, "a verified player withdraws: {body}");
        let (status, body) = app.post_as(&client, "verification.getAccessToken", &[]).await;
        assert_eq!(expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["status"][0], "LOCKED");

        // The webhook: digest, algorithm, replays and order.
        let secret = app.state.kyc().provider().webhook_secret().to_vec();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        let red_final = review(id, "applicantReviewed", Some(("RED", Some("FINAL"))), now + 2_000);
        let (status, _) = webhook(&app, "sandbox", &red_final, "HMAC_SHA256_HEX", b"wrong secret").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, _) = webhook(&app, "sandbox", &red_final, "HMAC_MD5_HEX", &secret).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "an algorithm we do not accept");
        let (status, _) = webhook(&app, "sumsub", &red_final, "HMAC_SHA256_HEX", &secret).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "another provider's receiver is not open");
        assert_eq!(kyc_status(&app, &client).await["status"], "verified", "refused events change nothing");
        // RED arrives first, the GREEN created before it arrives later: RED stands.
        let (_, body) = webhook(&app, "sandbox", &red_final, "HMAC_SHA512_HEX", &secret).await;
        assert_eq!(body["status"], "ok");
        let green = review(id, "applicantReviewed", Some(("GREEN", None)), now + 1_000);
        let (_, body) = webhook(&app, "sandbox", &green, "HMAC_SHA1_HEX", &secret).await;
        assert_eq!(body["status"], "stale");
        let (_, body) = webhook(&app, "sandbox", &red_final, "HMAC_SHA256_HEX", &secret).await;
        assert_eq!(body["status"], "duplicate", "a replay is applied once");
        let state = kyc_status(&app, &client).await;
        assert_eq!(
            (state["status"].as_str(), state["can_submit"].as_bool()),
            (Some("rejected"), Some(false)),
            "{state}"
        );
        let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
        assert_eq!(me["data"]["is_verified"], false);
        let (status, body) =
            app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "10")]).await;
        expect_error(status, &body, 409, "KycWithdrawalException");
        // A RETRY shows the moderation comment, never the internal one.
        let retry = review(id, "applicantReviewed", Some(("RED", Some("RETRY"))), now + 3_000);
        webhook(&app, "sandbox", &retry, "HMAC_SHA256_HEX", &secret).await;
        let state = kyc_status(&app, &client).await;
        assert_eq!(
            (state["status"].as_str(), state["comment"].as_str(), state["can_submit"].as_bool()),
            (Some("retry"), Some("Please send a sharper photo."), Some(true))
        );
        assert!(!state.to_string().contains("internal"), "{state}");

        // Operators see everything and override with a reason; a KYC block stops deposits.
        let (_, protection) = admin_get(&app, &format!("/admin/players/{id}/protection")).await;
        assert_eq!(protection["data"]["verification"]["internal_comment"], "internal: suspected edit");
        let (status, body) =
            admin(&app, &format!("/admin/players/{id}/verification"), json!({"status": "verified"})).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        let (status, body) = admin(
            &app,
            &format!("/admin/players/{id}/verification"),
            json!({"status": "none", "kyc_block": true, "reason": "source of funds"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) =
            app.post_as(&client, "cashier.makedeposit", &[("method", "sandbox_card"), ("amount", "50")]).await;
        expect_error(status, &body, 409, "SumsubVerificationRequiredException");
        assert_eq!(app.post_as(&client, "account.setUserOnVerification", &[]).await.0, StatusCode::OK);
        assert_eq!(app.get_as(&client, "account.getInfo", &[]).await.1["data"]["is_on_verification"], true);
        app.finish().await;
    }
}

/// A fake Sumsub: checks every request's signature, answers like Sumsub.
async fn fake_sumsub(
    app_token: &'static str,
    secret: &'static str,
) -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use axum::body::Bytes;
    use axum::http::{HeaderMap, Uri};
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = std::sync::Arc::clone(&seen);
    let handler = move |method: axum::http::Method, uri: Uri, headers: HeaderMap, body: Bytes| {
        let log = std::sync::Arc::clone(&log);
        async move {
            let h = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
            let path = uri.path_and_query().map(|p| p.as_str().to_owned()).unwrap_or_default();
            let ts: i64 = h("x-app-access-ts").parse().unwrap_or(0);
            let expected =
                croupier_server::kyc::sumsub::signature(secret.as_bytes(), ts, method.as_str(), &path, &body);
            if h("x-app-token") != app_token || h("x-app-access-sig") != expected {
                return (StatusCode::UNAUTHORIZED, axum::Json(json!({"description": "bad signature"})));
            }
            log.lock().unwrap().push(format!("{method} {path}"));
            if path.starts_with("/resources/applicants?") {
                // Created before: Sumsub answers 409.
                (StatusCode::CONFLICT, axum::Json(json!({"description": "already exists"})))
            } else if path.starts_with("/resources/applicants/-;externalUserId=") {
                (StatusCode::OK, axum::Json(json!({"id": "5f0d5c"})))
            } else if path.starts_with("/resources/accessTokens?") {
                (StatusCode::OK, axum::Json(json!({"token": "_act-sbx-123", "userId": "cr-1"})))
            } else {
                (StatusCode::NOT_FOUND, axum::Json(json!({})))
            }
        }
    };
    let router = axum::Router::new().fallback(handler);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    (format!("http://{addr}"), seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sumsub_adapter_signs_its_requests_and_its_webhook_is_checked() {
    for backend in backends() {
        let (url, seen) = fake_sumsub("app-token-1", "secret-key-1").await;
        let env = [
            ("CROUPIER_KYC_PROVIDER", "sumsub"),
            ("CROUPIER_SUMSUB_URL", url.as_str()),
            ("CROUPIER_SUMSUB_APP_TOKEN", "app-token-1"),
            ("CROUPIER_SUMSUB_SECRET_KEY", "secret-key-1"),
            ("CROUPIER_SUMSUB_WEBHOOK_SECRET", "webhook-secret-1"),
        ];
        let app = TestApp::spawn_with(backend, &env, |_| {}).await;
        let client = app.browser();
        app.register(&client, "sumsub@example.com").await;
        let id = uid(&app, &client).await;
        let (status, body) = app.post_as(&client, "verification.createApplicant", &[]).await;
        assert_eq!((status, body["data"]["applicant_id"].as_str()), (StatusCode::OK, Some("5f0d5c")), "{body}");
        let (status, body) =
            app.post_as(&client, "verification.getAccessToken", &[("externalActionId", "withdrawal-1")]).await;
        assert_eq!(
            (status, body["data"]["token"].as_str(), body["data"]["url"].clone()),
            (StatusCode::OK, Some("_act-sbx-123"), Value::Null),
            "{body}"
        );
        let seen = seen.lock().unwrap().clone();
        assert!(seen.iter().any(|s| s == "POST /resources/applicants?levelName=basic-kyc-level"), "{seen:?}");
        assert!(
            seen.iter().any(|s| s
                .starts_with(&format!("POST /resources/accessTokens?userId=cr-{id}&levelName=basic-kyc-level"))
                && s.ends_with("&externalActionId=withdrawal-1")),
            "{seen:?}"
        );
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        let green = review(id, "applicantReviewed", Some(("GREEN", None)), now);
        let (status, _) = webhook(&app, "sumsub", &green, "HMAC_SHA256_HEX", b"other").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, body) = webhook(&app, "sumsub", &green, "HMAC_SHA1_HEX", b"webhook-secret-1").await;
        assert_eq!((status, body["status"].as_str()), (StatusCode::OK, Some("ok")), "{body}");
        assert_eq!(kyc_status(&app, &client).await["status"], "verified");
        let csp = reqwest::get(app.url("/profile/verification")).await.unwrap().headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(csp.contains("https://static.sumsub.com"), "the WebSDK may load: {csp}");
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn support_stores_feedback_and_identifies_players_to_the_chat() {
    for backend in backends() {
        let env = [
            ("CROUPIER_SUPPORT_EMAIL", "help@croupier.test"),
            ("CROUPIER_ADMIN_TOKEN", ADMIN),
            ("CROUPIER_CHAT_PROVIDER", "intercom"),
            ("CROUPIER_CHAT_ID", "abc123"),
            ("CROUPIER_CHAT_SECRET", "chat-secret"),
        ];
        let app = TestApp::spawn_with(backend, &env, |_| {}).await;
        let (status, guest) = app.api_get("support.getsettings", &[]).await;
        assert_eq!(
            (status, guest["data"]["chat"]["provider"].as_str(), guest["data"]["chat"]["id"].as_str()),
            (StatusCode::OK, Some("intercom"), Some("abc123"))
        );
        assert_eq!(guest["data"]["chat"]["identity"], Value::Null);
        let client = app.browser();
        app.register(&client, "chatty@example.com").await;
        let id = uid(&app, &client).await;
        let (_, mine) = app.get_as(&client, "support.getsettings", &[]).await;
        let identity = &mine["data"]["chat"]["identity"];
        assert_eq!(
            (identity["user_id"].as_str(), identity["email"].as_str()),
            (Some(id.to_string().as_str()), Some("chatty@example.com"))
        );
        let expected = {
            use hmac::{KeyInit, Mac};
            let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(b"chat-secret").unwrap();
            mac.update(id.to_string().as_bytes());
            hex::encode(mac.finalize().into_bytes())
        };
        assert_eq!(identity["signature"].as_str(), Some(expected.as_str()), "Intercom's user_hash");
        let csp = reqwest::get(app.url("/support")).await.unwrap().headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(csp.contains("https://widget.intercom.io") && !csp.contains("tawk.to"), "{csp}");

        let (status, body) =
            app.api_post("Support.sendFeedback", &[("email", "not-an-email"), ("message", "short")]).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(
            (
                error["error_data"]["email"][0].as_str(),
                error["error_data"]["name"][0].as_str(),
                error["error_data"]["message"][0].as_str()
            ),
            (Some("EMAIL"), Some("REQUIRED"), Some("MIN_LENGTH"))
        );
        let (status, body) = app
            .post_as(&client, "Support.sendFeedback", &[("name", "Chatty"), ("message", "My deposit is not showing.")])
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(app.mailbox_count("help@croupier.test").await, 1, "e-mailed to support");
        for _ in 0..4 {
            app.post_as(&client, "Support.sendFeedback", &[("name", "Chatty"), ("message", "Another message here.")])
                .await;
        }
        let (status, body) = app
            .post_as(&client, "Support.sendFeedback", &[("name", "Chatty"), ("message", "One message too many.")])
            .await;
        expect_error(status, &body, 429, "TooManyRequestsException");
        let (_, list) = admin_get(&app, "/admin/support/feedback?count=10").await;
        let items = list["data"]["items"].as_array().unwrap();
        assert_eq!(items.len(), 5);
        assert_eq!(
            (items[4]["email"].as_str(), items[4]["message"].as_str(), items[4]["user_id"].as_i64()),
            (Some("chatty@example.com"), Some("My deposit is not showing."), Some(id))
        );
        assert!(items[4]["emailed_at"].as_i64().is_some());

        let (status, body) =
            app.post_as(&client, "support.storeChatEvent", &[("provider", "crisp"), ("event", "opened")]).await;
        assert_eq!(
            expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["provider"][0],
            "UNSUPPORTED"
        );
        let (status, body) =
            app.post_as(&client, "support.storeChatEvent", &[("provider", "intercom"), ("event", "Opened!")]).await;
        assert_eq!(expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["event"][0], "INVALID");
        let (status, _) = app
            .post_as(
                &client,
                "support.storeChatEvent",
                &[("provider", "intercom"), ("event", "message_sent"), ("data", "{\"length\":12}")],
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let stored: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM support_chat_events WHERE user_id = $1 AND event = 'message_sent'",
        )
        .bind(id)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(stored, 1);
        app.finish().await;
    }
}

#[tokio::test]
async fn the_default_csp_allows_no_chat_provider_and_the_sandbox_chat_needs_none() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let csp = reqwest::get(app.url("/support")).await.unwrap().headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    for origin in ["intercom", "livechatinc", "zdassets", "crisp.chat", "tawk.to", "freshchat", "sumsub"] {
        assert!(!csp.contains(origin), "{origin} in {csp}");
    }
    let (_, settings) = app.api_get("support.getsettings", &[]).await;
    assert_eq!(settings["data"]["chat"]["provider"], "sandbox");
    app.finish().await;
}
