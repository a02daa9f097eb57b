//! The sportsbook's operator tools (issue 20 "Operators"): a hold survives the feed, settling,
//! resettling and voiding by hand move money only through the ledger (`ledger check` clean after
//! each), limits per sport and per player refuse bets with the currency limits' errors,
//! liability figures for known bets, permissions with their audit rows, and bad input refused
//! with nothing changed. The feed is driven at the sportsbook tests' fixed moment.

use crate::backoffice::{BEARER, TOKEN, get as bo_get, operator, post as bo_post};
use crate::games::funded;
use crate::helpers::{Backend, TestApp, backends, expect_error, read_json};
use crate::sportsbook::{
    HOUR, NOON, SEED, event_id, feed_at, ledger_clean, main_balance, market, place, uid, upcoming_football,
};
use croupier_server::features::sportsbook::feed::sandbox::Sandbox;
use croupier_server::features::sportsbook::odds::Odds;
use croupier_server::features::sportsbook::store;
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn spawn(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, &[("CROUPIER_ADMIN_TOKEN", TOKEN)], |_| {}).await
}

/// `/admin{path}` with the automation token.
async fn admin(app: &TestApp, method: &str, path: &str, body: Option<Value>) -> (StatusCode, Value) {
    let mut request =
        app.client.request(method.parse().unwrap(), app.url(&format!("/admin{path}"))).header("authorization", BEARER);
    if let Some(body) = body {
        request = request.json(&body);
    }
    read_json(request.send().await.unwrap()).await
}

/// Decimal money text ("12.50") in minor units.
fn minor(text: &str) -> i64 {
    let (w, f) = text.split_once('.').unwrap_or((text, "0"));
    w.parse::<i64>().unwrap() * 100 + format!("{f:0<2}")[..2].parse::<i64>().unwrap()
}

/// The stored id of an event's market.
async fn market_id(app: &TestApp, event: i64, key: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM sb_markets WHERE event_id = $1 AND market_key = $2")
        .bind(event)
        .bind(key)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap()
}

async fn audit_rows(app: &TestApp, action: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM operator_audit WHERE action = $1")
        .bind(action)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap()
}

fn results(pairs: &[(&str, &str)]) -> Value {
    Value::Array(pairs.iter().map(|(s, r)| json!({ "selection": s, "result": r })).collect())
}

#[tokio::test]
async fn a_hold_survives_the_feed_and_hand_results_pay_resettle_and_void_through_the_ledger() {
    for backend in backends() {
        let owned = spawn(backend).await;
        let app = &owned;
        feed_at(app, NOON).await;
        let alice = funded(app, "alice@example.com", 100_000).await;
        let bob = funded(app, "bob@example.com", 50_000).await;
        let (alice_id, bob_id) = (uid(app, &alice).await, uid(app, &bob).await);
        let game = upcoming_football()[0].clone();
        let event = event_id(app, &game.id).await;
        let sels = market(app, event, "1x2").await;
        let pick = |key: &str| sels.iter().find(|(_, k, _)| k == key).unwrap().clone();
        let (home, draw) = (pick("home"), pick("draw"));
        let (status, a) = place(
            app,
            &alice,
            &[
                ("kind", "single"),
                ("selections", &home.0.to_string()),
                ("odds", &home.2),
                ("stake", "10"),
                ("request_id", "a1"),
            ],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{a}");
        let (status, b) = place(
            app,
            &bob,
            &[
                ("kind", "single"),
                ("selections", &draw.0.to_string()),
                ("odds", &draw.2),
                ("stake", "5"),
                ("request_id", "b1"),
            ],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{b}");
        let (a_pot, b_pot) = (
            minor(a["data"]["potential"]["amount"].as_str().unwrap()),
            minor(b["data"]["potential"]["amount"].as_str().unwrap()),
        );
        let id = market_id(app, event, "1x2").await;

        // Liability: the listing and the market's page.
        let (status, listed) = admin(app, "GET", &format!("/sportsbook/markets?event_id={event}"), None).await;
        assert_eq!(status, StatusCode::OK, "{listed}");
        let items = listed["data"]["items"].as_array().unwrap();
        assert_eq!(items[0]["id"], id, "the largest liability first: {listed}");
        assert_eq!(items[0]["liability"], a_pot.max(b_pot));
        assert_eq!(
            items[0]["liabilities"][0],
            json!({ "currency": "USD", "bets": 2, "stakes": 1500, "max_payout": a_pot.max(b_pot) })
        );
        let (status, page) = admin(app, "GET", &format!("/sportsbook/markets/{id}"), None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let selection = |key: &str| {
            page["data"]["selections"].as_array().unwrap().iter().find(|s| s["key"] == key).unwrap().clone()
        };
        assert_eq!(
            selection("home")["liability"][0],
            json!({ "currency": "USD", "bets": 1, "stakes": 1000, "payout": a_pot, "net": 1500 - a_pot })
        );
        assert_eq!(
            selection("draw")["liability"][0],
            json!({ "currency": "USD", "bets": 1, "stakes": 500, "payout": b_pot, "net": 1500 - b_pot })
        );
        assert_eq!(
            selection("away")["liability"][0],
            json!({ "currency": "USD", "bets": 0, "stakes": 0, "payout": 0, "net": 1500 })
        );

        // Settling an active market is refused: it still takes bets.
        let (status, body) = admin(app, "POST", &format!("/sportsbook/markets/{id}/settle"), Some(json!({ "reason": "result", "results": results(&[("home", "won"), ("draw", "lost"), ("away", "lost")]) }))).await;
        assert_eq!(expect_error(status, &body, 409, "AccessDeniedException")["error_data"]["state"], json!(["active"]));

        // Suspend: held; a feed run moves the prices but never reopens it.
        let (status, held) = admin(
            app,
            "POST",
            &format!("/sportsbook/markets/{id}/suspend"),
            Some(json!({ "reason": "suspicious money" })),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{held}");
        assert_eq!((held["data"]["state"].as_str(), held["data"]["held"].as_bool()), (Some("suspended"), Some(true)));
        assert_eq!(audit_rows(app, "sportsbook.market.suspend").await, 1);
        let mut moved = Sandbox::new(SEED).event(&game.id, NOON + 60_000).unwrap();
        let m = moved.markets.iter_mut().find(|m| m.kind.key() == "1x2").unwrap();
        m.prices.iter_mut().find(|(k, _)| k == "home").unwrap().1 = Odds::decimal("7.77").unwrap();
        store::store(&app.state, "sandbox", &[moved], NOON + 60_000).await.unwrap();
        let (_, page) = admin(app, "GET", &format!("/sportsbook/markets/{id}"), None).await;
        let price =
            page["data"]["selections"].as_array().unwrap().iter().find(|s| s["key"] == "home").unwrap()["odds"].clone();
        assert_eq!(
            (price, page["data"]["state"].clone()),
            (json!("7.77"), json!("suspended")),
            "prices move, the hold stays: {page}"
        );
        feed_at(app, NOON + 120_000).await;
        let (_, page) = admin(app, "GET", &format!("/sportsbook/markets/{id}"), None).await;
        assert_eq!(page["data"]["state"], "suspended", "{page}");
        assert_eq!(page["data"]["feed_state"], "active", "{page}");
        let (status, refused) = place(
            app,
            &alice,
            &[
                ("kind", "single"),
                ("selections", &home.0.to_string()),
                ("odds", "7.77"),
                ("stake", "1"),
                ("request_id", "a2"),
                ("accept_odds", "any"),
            ],
        )
        .await;
        assert_eq!(
            expect_error(status, &refused, 422, "InvalidParameterException")["error_data"]["selections"][0],
            "MARKET_SUSPENDED"
        );

        // Another market: suspended then reopened, the feed's own state applies and bets are taken.
        let other = market_id(app, event_id(app, &upcoming_football()[1].id).await, "1x2").await;
        let (status, _) =
            admin(app, "POST", &format!("/sportsbook/markets/{other}/suspend"), Some(json!({ "reason": "check" })))
                .await;
        assert_eq!(status, StatusCode::OK);
        let (status, body) =
            admin(app, "POST", &format!("/sportsbook/markets/{other}/suspend"), Some(json!({ "reason": "again" })))
                .await;
        expect_error(status, &body, 409, "AccessDeniedException");
        let (status, reopened) =
            admin(app, "POST", &format!("/sportsbook/markets/{other}/reopen"), Some(json!({ "reason": "all clear" })))
                .await;
        assert_eq!(status, StatusCode::OK, "{reopened}");
        assert_eq!(
            (reopened["data"]["state"].as_str(), reopened["data"]["held"].as_bool()),
            (Some("active"), Some(false))
        );
        let (status, body) =
            admin(app, "POST", &format!("/sportsbook/markets/{other}/reopen"), Some(json!({ "reason": "again" })))
                .await;
        expect_error(status, &body, 409, "AccessDeniedException");
        // Bad results: refused field by field, nothing changes.
        let version = page["data"]["results_version"].clone();
        for (bad, field, code) in [
            (json!({ "reason": "r", "results": results(&[("home", "won")]) }), "results", "REQUIRED"),
            (
                json!({ "reason": "r", "results": results(&[("home", "maybe"), ("draw", "lost"), ("away", "lost")]) }),
                "results.0.result",
                "UNSUPPORTED",
            ),
            (
                json!({ "reason": "r", "results": [{ "selection": "home", "result": "lost", "dead_heat": "1/2" }, { "selection": "draw", "result": "lost" }, { "selection": "away", "result": "lost" }] }),
                "results.0.dead_heat",
                "INVALID",
            ),
            (
                json!({ "results": results(&[("home", "won"), ("draw", "lost"), ("away", "lost")]) }),
                "reason",
                "REQUIRED",
            ),
        ] {
            let (status, body) = admin(app, "POST", &format!("/sportsbook/markets/{id}/settle"), Some(bad)).await;
            assert_eq!(
                expect_error(status, &body, 422, "InvalidParameterException")["error_data"][field][0],
                code,
                "{body}"
            );
        }
        let (status, body) =
            admin(app, "POST", &format!("/sportsbook/markets/{id}/settle"), Some(json!({ "reason": "r" }))).await;
        assert_eq!(
            expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["results"][0],
            "REQUIRED"
        );
        let (status, body) =
            admin(app, "POST", "/sportsbook/markets/999999/suspend", Some(json!({ "reason": "r" }))).await;
        expect_error(status, &body, 404, "InvalidParameterException");
        let (_, page) = admin(app, "GET", &format!("/sportsbook/markets/{id}"), None).await;
        assert_eq!(
            (page["data"]["state"].clone(), page["data"]["results_version"].clone()),
            (json!("suspended"), version)
        );
        assert_eq!(audit_rows(app, "sportsbook.market.settle").await, 0);

        // Settle by hand: home won. Alice is paid her potential return, Bob nothing.
        let (status, settled) = admin(app, "POST", &format!("/sportsbook/markets/{id}/settle"), Some(json!({ "reason": "official result", "results": results(&[("home", "won"), ("draw", "lost"), ("away", "lost")]) }))).await;
        assert_eq!(status, StatusCode::OK, "{settled}");
        assert_eq!(settled["data"]["bets_settled"], 2, "{settled}");
        assert_eq!(main_balance(app, alice_id).await, 100_000 - 1000 + a_pot);
        assert_eq!(main_balance(app, bob_id).await, 50_000 - 500);
        ledger_clean(app).await;

        // The match ends in the feed with its own results: the hand result stands.
        feed_at(app, NOON + 8 * HOUR).await;
        let (_, page) = admin(app, "GET", &format!("/sportsbook/markets/{id}"), None).await;
        assert_eq!(
            (page["data"]["state"].as_str(), page["data"]["operator_state"].as_str()),
            (Some("settled"), Some("settled")),
            "{page}"
        );
        let selection = |key: &str| {
            page["data"]["selections"].as_array().unwrap().iter().find(|s| s["key"] == key).unwrap().clone()
        };
        assert_eq!(selection("home")["result"], "won", "{page}");
        assert_eq!(main_balance(app, alice_id).await, 100_000 - 1000 + a_pot);
        ledger_clean(app).await;

        // Resettle: the draw won after all. Alice's winnings are taken back, Bob is paid.
        let (status, again) = admin(app, "POST", &format!("/sportsbook/markets/{id}/resettle"), Some(json!({ "reason": "result corrected", "results": results(&[("home", "lost"), ("draw", "won"), ("away", "lost")]) }))).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_eq!(main_balance(app, alice_id).await, 100_000 - 1000);
        assert_eq!(main_balance(app, bob_id).await, 50_000 - 500 + b_pot);
        ledger_clean(app).await;

        // Void: both stakes back.
        let (status, voided) =
            admin(app, "POST", &format!("/sportsbook/markets/{id}/void"), Some(json!({ "reason": "match abandoned" })))
                .await;
        assert_eq!(status, StatusCode::OK, "{voided}");
        assert_eq!(voided["data"]["state"], "cancelled");
        assert_eq!(main_balance(app, alice_id).await, 100_000);
        assert_eq!(main_balance(app, bob_id).await, 50_000);
        ledger_clean(app).await;
        let (status, body) =
            admin(app, "POST", &format!("/sportsbook/markets/{id}/void"), Some(json!({ "reason": "twice" }))).await;
        expect_error(status, &body, 409, "AccessDeniedException");
        let void_rows: Vec<(String, Option<String>, String)> = sqlx::query_as(
            "SELECT role, reason, before_json FROM operator_audit WHERE action = 'sportsbook.market.void'",
        )
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(void_rows.len(), 1);
        assert_eq!((void_rows[0].0.as_str(), void_rows[0].1.as_deref()), ("automation", Some("match abandoned")));
        assert!(void_rows[0].2.contains("\"settled\""), "{:?}", void_rows[0]);

        owned.finish().await;
    }
}

#[tokio::test]
async fn limits_per_sport_and_player_refuse_bets_with_the_stake_errors() {
    for backend in backends() {
        let owned = spawn(backend).await;
        let app = &owned;
        feed_at(app, NOON).await;
        let alice = funded(app, "alice@example.com", 100_000).await;
        let alice_id = uid(app, &alice).await;
        let event = event_id(app, &upcoming_football()[0].id).await;
        let home = market(app, event, "1x2").await.into_iter().find(|(_, k, _)| k == "home").unwrap();
        let sel = home.0.to_string();
        let bet = |stake: &'static str, request: &'static str| {
            let (sel, odds, alice) = (sel.clone(), home.2.clone(), alice.clone());
            async move {
                place(
                    app,
                    &alice,
                    &[
                        ("kind", "single"),
                        ("selections", &sel),
                        ("odds", &odds),
                        ("stake", stake),
                        ("request_id", request),
                    ],
                )
                .await
            }
        };
        let stake_error = |status: StatusCode, body: &Value| {
            expect_error(status, body, 422, "InvalidParameterException")["error_data"].clone()
        };

        // Bad input: refused, nothing stored.
        for (path, body, field, code) in [
            (
                "/sportsbook/limits/sports/curling",
                json!({ "currency": "USD", "max_stake": 500, "reason": "r" }),
                "sport",
                "UNSUPPORTED",
            ),
            (
                "/sportsbook/limits/sports/football",
                json!({ "currency": "XXX", "max_stake": 500, "reason": "r" }),
                "currency",
                "UNSUPPORTED",
            ),
            (
                "/sportsbook/limits/sports/football",
                json!({ "currency": "USD", "max_stake": 0, "reason": "r" }),
                "max_stake",
                "MIN_VALUE",
            ),
            (
                "/sportsbook/limits/sports/football",
                json!({ "currency": "USD", "min_stake": 900, "max_stake": 500, "reason": "r" }),
                "min_stake",
                "MAX_VALUE",
            ),
            (
                "/sportsbook/limits/sports/football",
                json!({ "currency": "USD", "max_stake": 500 }),
                "reason",
                "REQUIRED",
            ),
            (
                "/sportsbook/limits/players/1",
                json!({ "stake_factor_bp": 20_000, "reason": "r" }),
                "stake_factor_bp",
                "MAX_VALUE",
            ),
        ] {
            let (status, answer) = admin(app, "PUT", path, Some(body)).await;
            assert_eq!(stake_error(status, &answer)[field][0], code, "{path}: {answer}");
        }
        let (status, answer) =
            admin(app, "PUT", "/sportsbook/limits/players/999999", Some(json!({ "blocked": true, "reason": "r" })))
                .await;
        expect_error(status, &answer, 404, "InvalidParameterException");
        let (_, listed) = admin(app, "GET", "/sportsbook/limits", None).await;
        assert_eq!(listed["data"], json!({ "sports": [], "players": [] }));

        // Football in USD: at most 5.00 a bet, at least 2.00.
        let (status, set) = admin(
            app,
            "PUT",
            "/sportsbook/limits/sports/football",
            Some(json!({ "currency": "USD", "min_stake": 200, "max_stake": 500, "reason": "lower football limits" })),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{set}");
        let (status, body) = bet("10", "l1").await;
        let data = stake_error(status, &body);
        assert_eq!(data["stake"][0], "MAX_VALUE", "{body}");
        assert!(body["error"]["message"].as_str().unwrap().contains("5.00"), "{body}");
        let (status, body) = bet("1", "l2").await;
        let data = stake_error(status, &body);
        assert_eq!(data["stake"][0], "MIN_VALUE", "{body}");
        assert!(body["error"]["message"].as_str().unwrap().contains("2.00"), "{body}");
        let (status, body) = bet("5", "l3").await;
        assert_eq!(status, StatusCode::OK, "{body}");

        // Alice: a quarter of the maximum, then blocked.
        let (status, set) = admin(
            app,
            "PUT",
            &format!("/sportsbook/limits/players/{alice_id}"),
            Some(json!({ "stake_factor_bp": 2500, "reason": "sharp player" })),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{set}");
        let (status, body) = bet("2", "l4").await;
        let data = stake_error(status, &body);
        assert_eq!(data["stake"][0], "MAX_VALUE", "{body}");
        assert!(body["error"]["message"].as_str().unwrap().contains("1.25"), "{body}");
        let (status, _) = admin(
            app,
            "PUT",
            &format!("/sportsbook/limits/players/{alice_id}"),
            Some(json!({ "blocked": true, "reason": "closed for betting" })),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let (status, body) = bet("2", "l5").await;
        let data = stake_error(status, &body);
        assert_eq!(data["stake"][0], "MAX_VALUE", "{body}");
        assert!(body["error"]["message"].as_str().unwrap().contains("0.00"), "{body}");
        let (_, listed) = admin(app, "GET", "/sportsbook/limits", None).await;
        assert_eq!(listed["data"]["players"][0]["blocked"], true, "{listed}");
        assert_eq!(listed["data"]["sports"][0]["max_stake"], 500, "{listed}");

        // Removed: the currency's limits alone again.
        admin(app, "PUT", &format!("/sportsbook/limits/players/{alice_id}"), Some(json!({ "reason": "reopened" })))
            .await;
        admin(
            app,
            "PUT",
            "/sportsbook/limits/sports/football",
            Some(json!({ "currency": "USD", "reason": "back to normal" })),
        )
        .await;
        let (status, body) = bet("10", "l6").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(main_balance(app, alice_id).await, 100_000 - 500 - 1000);
        assert_eq!(audit_rows(app, "sportsbook.limits.sport").await, 2);
        assert_eq!(audit_rows(app, "sportsbook.limits.player").await, 3);
        ledger_clean(app).await;
        owned.finish().await;
    }
}

#[tokio::test]
async fn only_operators_with_sportsbook_manage_reach_the_tools_and_every_refusal_is_audited() {
    for backend in backends() {
        let owned = spawn(backend).await;
        let app = &owned;
        feed_at(app, NOON).await;
        let id = market_id(app, event_id(app, &upcoming_football()[0].id).await, "1x2").await;
        let path = format!("/admin/sportsbook/markets/{id}/suspend");
        let marketing = operator(app, "marketing@casino.test", "marketing").await;
        let (status, body) = bo_get(&marketing.http, app, "/admin/sportsbook/markets").await;
        expect_error(status, &body, 403, "AccessDeniedException");
        let (status, body) = bo_post(&marketing.http, app, &path, &json!({ "reason": "try" })).await;
        assert_eq!(
            expect_error(status, &body, 403, "AccessDeniedException")["error_data"]["permission"],
            json!(["sportsbook.manage"])
        );
        let denied: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM operator_audit WHERE outcome = 'denied' AND operator_id = $1")
                .bind(marketing.id)
                .fetch_one(app.state.db().pool())
                .await
                .unwrap();
        assert_eq!(denied, 2);
        let (_, page) = admin(app, "GET", &format!("/sportsbook/markets/{id}"), None).await;
        assert_eq!(page["data"]["state"], "active", "nothing changed: {page}");

        // Finance may: the change is audited under the operator's name.
        let finance = operator(app, "finance@casino.test", "finance").await;
        let (status, body) = bo_get(&finance.http, app, "/admin/sportsbook/markets").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(body["data"]["items"].as_array().unwrap().iter().any(|m| m["id"] == id), "{body}");
        let (status, body) = bo_post(&finance.http, app, &path, &json!({ "reason": "integrity alert" })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["data"]["held_by"], "finance finance@casino.test");
        let row: (Option<i64>, String, Option<String>) = sqlx::query_as(
            "SELECT operator_id, role, target_id FROM operator_audit WHERE action = 'sportsbook.market.suspend'",
        )
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(row, (Some(finance.id), "finance".to_owned(), Some(id.to_string())));
        let rows_of_finance: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM operator_audit WHERE operator_id = $1 AND action <> 'session.sign_in'",
        )
        .bind(finance.id)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(rows_of_finance, 1, "one action, one row: the gate adds no generic row to the market's own");
        // Listing filters are checked.
        let (status, body) =
            admin(app, "GET", "/admin/sportsbook/markets?state=sideways&count=5000".trim_start_matches("/admin"), None)
                .await;
        let data = expect_error(status, &body, 422, "InvalidParameterException")["error_data"].clone();
        assert_eq!(
            (data["state"][0].as_str(), data["count"][0].as_str()),
            (Some("UNSUPPORTED"), Some("MAX_VALUE")),
            "{body}"
        );
        let (status, body) = admin(app, "GET", "/sportsbook/markets?held=true", None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["data"]["total"], 1, "{body}");
        owned.finish().await;
    }
}
