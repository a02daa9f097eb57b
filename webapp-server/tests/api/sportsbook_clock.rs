//! The sandbox feed's clock moved by an operator (`POST /admin/sportsbook/sandbox/advance`): a bet
//! on a match in play is settled by the feed once the clock passes the final whistle, the money
//! follows through the ledger, bad input changes nothing, and another feed refuses the move.

use crate::games::funded;
use crate::helpers::{TestApp, backends, expect_error, read_json};
use croupier_server::ledger;
use reqwest::StatusCode;
use serde_json::{Value, json};

const TOKEN: &str = "sandbox-clock-token-1";

async fn advance(app: &TestApp, body: Value) -> (StatusCode, Value) {
    let http = reqwest::Client::new();
    let request =
        http.post(app.url("/admin/sportsbook/sandbox/advance")).header("authorization", format!("Bearer {TOKEN}"));
    read_json(request.json(&body).send().await.unwrap()).await
}

async fn offset_minutes(app: &TestApp) -> i64 {
    let http = reqwest::Client::new();
    let request =
        http.get(app.url("/admin/sportsbook/sandbox/advance")).header("authorization", format!("Bearer {TOKEN}"));
    let (status, body) = read_json(request.send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"]["offset_minutes"].as_i64().unwrap()
}

/// A selection of a live football match's active 1x2 market: (selection id, decimal odds).
async fn live_price(app: &TestApp) -> Option<(i64, String)> {
    let (status, live) =
        app.api_get("sportsbook.getEvents", &[("status", "live"), ("sport", "football"), ("count", "50")]).await;
    assert_eq!(status, StatusCode::OK, "{live}");
    for event in live["data"]["items"].as_array().unwrap() {
        let id = event["id"].as_i64().unwrap().to_string();
        let (_, full) = app.api_get("sportsbook.getEvent", &[("event_id", &id)]).await;
        let markets = full["data"]["markets"].as_array().unwrap();
        let Some(market) = markets.iter().find(|m| m["key"] == "1x2" && m["state"] == "active") else { continue };
        if let Some(s) = market["selections"].as_array().unwrap().iter().find(|s| !s["odds"].is_null()) {
            return Some((s["id"].as_i64().unwrap(), s["odds"].as_str().unwrap().to_owned()));
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_the_sandbox_clock_plays_a_match_in_play_to_its_settlement() {
    for backend in backends() {
        let env = [("CROUPIER_ADMIN_TOKEN", TOKEN), ("CROUPIER_SPORTSBOOK_FEED", "sandbox")];
        let app = TestApp::spawn_with(backend, &env, |_| {}).await;

        // Only operators move it, and only by a sensible step; a refused move changes nothing.
        let anonymous =
            reqwest::Client::new().post(app.url("/admin/sportsbook/sandbox/advance")).json(&json!({"minutes": 5}));
        assert_eq!(anonymous.send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
        for minutes in [0, -5, 2881] {
            let (status, body) = advance(&app, json!({ "minutes": minutes })).await;
            assert_eq!(
                expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["minutes"][0],
                "INVALID"
            );
        }
        let (status, body) = advance(&app, json!({ "minutes": "soon" })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(offset_minutes(&app).await, 0);

        // One minute on: the calendar is stored at the sandbox's time, a match is in play.
        let (status, moved) = advance(&app, json!({ "minutes": 1, "reason": "test" })).await;
        assert_eq!(status, StatusCode::OK, "{moved}");
        assert_eq!(moved["data"]["offset_minutes"], 1);
        let mut price = live_price(&app).await;
        while price.is_none() {
            // A goal suspends a match's markets for a minute.
            let (status, moved) = advance(&app, json!({ "minutes": 2 })).await;
            assert_eq!(status, StatusCode::OK, "{moved}");
            price = live_price(&app).await;
        }
        let (selection, odds) = price.unwrap();
        let player = funded(&app, "clock@example.com", 10_000).await;
        let (status, bet) = app
            .post_as(
                &player,
                "bets.place",
                &[
                    ("kind", "single"),
                    ("selections", &selection.to_string()),
                    ("odds", &odds),
                    ("stake", "2"),
                    ("accept_odds", "any"),
                    ("request_id", "clock-1"),
                ],
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{bet}");
        let taken = bet["data"]["selections"][0]["odds"].as_str().unwrap().to_owned();
        let user = app.get_as(&player, "account.getInfo", &[]).await.1["data"]["uid"].as_i64().unwrap();
        let usd = croupier_shared::Currency::parse("USD").unwrap();
        assert_eq!(ledger::player_balances(app.state.db(), user, usd).await.unwrap()[0], 10_000 - 200);

        // Four hours on, the match is over: the feed's result settles the bet before the answer.
        let before = offset_minutes(&app).await;
        let (status, moved) = advance(&app, json!({ "minutes": 240, "reason": "to the final whistle" })).await;
        assert_eq!(status, StatusCode::OK, "{moved}");
        assert!(moved["data"]["bets_settled"].as_i64().unwrap() >= 1, "{moved}");
        assert_eq!(offset_minutes(&app).await, before + 240);
        let (_, bets) = app.get_as(&player, "bets.get", &[("status", "settled")]).await;
        let settled = &bets["data"]["items"][0];
        assert_eq!(settled["id"], bet["data"]["id"], "{bets}");
        assert_eq!(settled["selections"][0]["event_status"], "finished", "{settled}");
        let balance = ledger::player_balances(app.state.db(), user, usd).await.unwrap()[0];
        let payout: i64 = settled["payout"]["amount"].as_str().unwrap().replace('.', "").parse().unwrap();
        assert_eq!(balance, 10_000 - 200 + payout, "{settled}");
        // The odds shown have two places: a win pays 2.00 × odds within a cent.
        let hundredths: i64 = taken.replace('.', "").parse().unwrap();
        match settled["status"].as_str().unwrap() {
            "won" => assert!((payout - 2 * hundredths).abs() <= 1, "{settled}"),
            "lost" => assert_eq!(payout, 0, "{settled}"),
            other => panic!("a 1x2 selection of a finished match is won or lost, not {other}: {settled}"),
        }
        let report = ledger::check(app.state.db()).await.unwrap();
        assert!(report.violations.is_empty(), "{:?}", report.violations);
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_feed_has_no_clock_to_move() {
    let env = [("CROUPIER_ADMIN_TOKEN", TOKEN)];
    let app = TestApp::spawn_with(crate::helpers::Backend::Sqlite, &env, |_| {}).await;
    let (status, body) = advance(&app, json!({ "minutes": 10 })).await;
    let err = expect_error(status, &body, 409, "InvalidParameterException");
    assert_eq!(err["error_data"]["reason"], "not_sandbox", "{body}");
    assert_eq!(offset_minutes(&app).await, 0);
    app.finish().await;
}
