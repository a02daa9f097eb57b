//! The sportsbook over HTTP: the sandbox calendar stored and listed, the bet slip's refusals
//! (changed odds, suspended markets, limits), and a model test of placement, settlement,
//! resettlement, cash-out and rollback against the players' balances, with `ledger check` clean
//! after every step. The feed is driven at a fixed moment (2026-01-05 12:00 UTC), far from the
//! job's own clock, so the prices do not move under the test.

use crate::db_test;
use crate::games::funded;
use crate::helpers::{TestApp, expect_error};
use croupier_server::features::sportsbook::feed::{EventStatus, FeedEvent, sandbox::Sandbox};
use croupier_server::features::sportsbook::markets::MarketState;
use croupier_server::features::sportsbook::settle::Outcome;
use croupier_server::features::sportsbook::{settlement, store};
use croupier_server::ledger;
use reqwest::StatusCode;
use serde_json::Value;

pub(crate) const NOON: i64 = 1_767_614_400_000;
pub(crate) const SEED: u64 = 20;
pub(crate) const HOUR: i64 = 3_600_000;

pub(crate) async fn uid(app: &TestApp, client: &reqwest::Client) -> i64 {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["uid"].as_i64().unwrap()
}

pub(crate) async fn main_balance(app: &TestApp, user: i64) -> i64 {
    let usd = croupier_shared::Currency::parse("USD").unwrap();
    ledger::player_balances(app.state.db(), user, usd).await.unwrap()[0]
}

pub(crate) async fn ledger_clean(app: &TestApp) {
    let report = ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

/// Stores the sandbox at `at` and settles what changed.
pub(crate) async fn feed_at(app: &TestApp, at: i64) {
    store::store(&app.state, "sandbox", &Sandbox::new(SEED).snapshot(at), at).await.unwrap();
    settlement::settle_dirty(&app.state).await.unwrap();
}

/// The stored id of a feed event.
pub(crate) async fn event_id(app: &TestApp, external: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM sb_events WHERE feed = 'sandbox' AND external_id = $1")
        .bind(external)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap()
}

/// The selections of an event's market: (id, key, decimal odds).
pub(crate) async fn market(app: &TestApp, event: i64, key: &str) -> Vec<(i64, String, String)> {
    let (status, body) = app.api_get("sportsbook.getEvent", &[("event_id", &event.to_string())]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let m = body["data"]["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["key"] == key)
        .unwrap_or_else(|| panic!("{key}: {body}"));
    m["selections"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !s["odds"].is_null())
        .map(|s| {
            (s["id"].as_i64().unwrap(), s["key"].as_str().unwrap().to_owned(), s["odds"].as_str().unwrap().to_owned())
        })
        .collect()
}

/// Football matches kicking off after noon with every market active, in kick-off order.
pub(crate) fn upcoming_football() -> Vec<FeedEvent> {
    Sandbox::new(SEED)
        .snapshot(NOON)
        .into_iter()
        .filter(|e| e.status == EventStatus::Scheduled && e.starts_at < NOON + 6 * HOUR)
        .filter(|e| e.markets.iter().all(|m| m.state == MarketState::Active))
        .filter(|e| e.sport == croupier_server::features::sportsbook::feed::Sport::Football)
        .collect()
}

pub(crate) async fn place(app: &TestApp, client: &reqwest::Client, form: &[(&str, &str)]) -> (StatusCode, Value) {
    app.post_as(client, "bets.place", form).await
}

db_test!(async fn the_sandbox_calendar_is_listed_by_sport_league_and_event(app) {
    feed_at(app, NOON).await;
    let (status, sports) = app.api_get("sportsbook.getSports", &[]).await;
    assert_eq!(status, StatusCode::OK, "{sports}");
    let names: Vec<&str> = sports["data"]["items"].as_array().unwrap().iter().map(|s| s["sport"].as_str().unwrap()).collect();
    assert_eq!(names, ["football", "tennis", "basketball", "ice_hockey"], "{sports}");
    let live_now: i64 = sports["data"]["items"].as_array().unwrap().iter().map(|s| s["live"].as_i64().unwrap()).sum();
    assert!(live_now >= 1, "{sports}");
    let fr: Value = app.client.get(app.api_url("sportsbook.getSports", "fr", &[])).send().await.unwrap().json().await.unwrap();
    assert_eq!(fr["data"]["items"][3]["name"], "Hockey sur glace", "{fr}");
    let (status, live) = app.api_get("sportsbook.getEvents", &[("status", "live")]).await;
    assert_eq!(status, StatusCode::OK, "{live}");
    assert_eq!(live["data"]["total"], live_now);
    let first = &live["data"]["items"][0];
    assert_eq!(first["status"], "live");
    assert_eq!(first["markets"].as_array().unwrap().len(), 1, "only the main market: {first}");
    assert!(first["markets"][0]["key"] == "1x2" || first["markets"][0]["key"] == "moneyline", "{first}");
    let football = event_id(app, &upcoming_football()[0].id).await.to_string();
    let (status, event) = app.api_get("sportsbook.getEvent", &[("event_id", &football), ("odds_format", "fractional")]).await;
    assert_eq!(status, StatusCode::OK, "{event}");
    let keys: Vec<&str> = event["data"]["markets"].as_array().unwrap().iter().map(|m| m["key"].as_str().unwrap()).collect();
    assert!(keys.contains(&"correct_score") && keys.contains(&"btts") && keys.contains(&"double_chance"), "{keys:?}");
    let display = event["data"]["markets"][0]["selections"][0]["odds_display"].as_str().unwrap();
    assert!(display.contains('/'), "{event}");
    // Each listed event carries its own main market: the page's markets are read in one go and
    // handed to their events.
    let (status, upcoming) = app.api_get("sportsbook.getEvents", &[("status", "upcoming"), ("count", "6")]).await;
    assert_eq!(status, StatusCode::OK, "{upcoming}");
    let listed = upcoming["data"]["items"].as_array().unwrap();
    assert_eq!(listed.len(), 6, "{upcoming}");
    for item in listed {
        let (status, full) = app.api_get("sportsbook.getEvent", &[("event_id", &item["id"].to_string())]).await;
        assert_eq!(status, StatusCode::OK, "{full}");
        let main = full["data"]["markets"].as_array().unwrap().iter().find(|m| m["key"] == item["markets"][0]["key"]).unwrap();
        assert_eq!(item["markets"][0]["id"], main["id"], "{item}");
        assert_eq!(item["markets"][0]["selections"], main["selections"], "{item}");
    }
    let (status, bad) = app.api_get("sportsbook.getEvents", &[("sport", "curling"), ("count", "500")]).await;
    let data = expect_error(status, &bad, 422, "InvalidParameterException")["error_data"].clone();
    assert_eq!(data["sport"][0], "UNSUPPORTED");
    assert_eq!(data["count"][0], "MAX_VALUE");
    let (status, missing) = app.api_get("sportsbook.getEvent", &[("event_id", "999999")]).await;
    expect_error(status, &missing, 422, "InvalidParameterException");
    // A second run over the same moment writes nothing.
    assert_eq!(store::store(&app.state, "sandbox", &Sandbox::new(SEED).snapshot(NOON), NOON).await.unwrap(), 0);
    // The tests' configuration turns the job's own feed off.
    assert_eq!(store::run_at(&app.state, NOON).await.unwrap(), 0);
});

db_test!(async fn a_bet_at_changed_odds_or_on_a_suspended_market_is_refused_with_the_prices_now(app) {
    feed_at(app, NOON).await;
    let alice = funded(app, "alice@example.com", 100_000).await;
    let user = uid(app, &alice).await;
    let event = upcoming_football()[0].clone();
    let id = event_id(app, &event.id).await;
    let sels = market(app, id, "1x2").await;
    let (sel, _, odds) = &sels[0];
    let sel_text = sel.to_string();
    // The slip shows a price that is no longer the price: refused, the price now in error_data.
    let (status, body) = place(app, &alice, &[("kind", "single"), ("selections", &sel_text), ("odds", "1.01"), ("stake", "5"), ("request_id", "a1")]).await;
    let data = expect_error(status, &body, 422, "InvalidParameterException")["error_data"].clone();
    assert_eq!(data["selections"][0], "ODDS_CHANGED", "{body}");
    assert_eq!(data["odds"][&sel_text], odds.as_str(), "{body}");
    // "higher" takes a longer price than shown, and the bet is at the price now.
    let (status, bet) = place(
        app,
        &alice,
        &[("kind", "single"), ("selections", &sel_text), ("odds", "1.01"), ("stake", "5"), ("accept_odds", "higher"), ("request_id", "a2")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{bet}");
    assert_eq!(bet["data"]["selections"][0]["odds"], odds.as_str());
    assert_eq!(bet["data"]["stake"]["amount"], "5.00");
    assert_eq!(main_balance(app, user).await, 100_000 - 500);
    // A retry of the same request places nothing more; the same id for another bet is refused.
    let (status, again) = place(
        app,
        &alice,
        &[("kind", "single"), ("selections", &sel_text), ("odds", "1.01"), ("stake", "5"), ("accept_odds", "higher"), ("request_id", "a2")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["data"]["id"], bet["data"]["id"]);
    assert_eq!(main_balance(app, user).await, 100_000 - 500);
    let (status, reused) = place(app, &alice, &[("kind", "single"), ("selections", &sel_text), ("odds", odds), ("stake", "6"), ("request_id", "a2")]).await;
    assert_eq!(expect_error(status, &reused, 422, "InvalidParameterException")["error_data"]["request_id"][0], "TAKEN");
    // Suspended: refused whatever the player accepts.
    sqlx::query("UPDATE sb_markets SET state = 'suspended' WHERE event_id = $1").bind(id).execute(app.state.db().pool()).await.unwrap();
    let (status, body) = place(app, &alice, &[("kind", "single"), ("selections", &sel_text), ("odds", odds), ("stake", "5"), ("accept_odds", "any"), ("request_id", "a3")]).await;
    assert_eq!(expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["selections"][0], "MARKET_SUSPENDED");
    // A retry of the request that placed a bet still answers that bet: the check of the prices
    // made before the bet is queued leaves replays alone.
    let (status, replay) = place(
        app,
        &alice,
        &[("kind", "single"), ("selections", &sel_text), ("odds", "1.01"), ("stake", "5"), ("accept_odds", "higher"), ("request_id", "a2")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    assert_eq!(replay["data"]["id"], bet["data"]["id"]);
    assert_eq!(main_balance(app, user).await, 100_000 - 500);
    // Limits: below the minimum stake, above the maximum, above the maximum payout, above the balance.
    sqlx::query("UPDATE sb_markets SET state = 'active' WHERE event_id = $1").bind(id).execute(app.state.db().pool()).await.unwrap();
    for (stake, code) in [("0.05", "MIN_VALUE"), ("1000.01", "MAX_VALUE"), ("999", "MAX_VALUE")] {
        let (status, body) = place(app, &alice, &[("kind", "single"), ("selections", &sel_text), ("odds", odds), ("stake", stake), ("request_id", "a4")]).await;
        let data = expect_error(status, &body, 422, "InvalidParameterException")["error_data"].clone();
        assert_eq!(data["stake"][0], code, "{stake}: {body}");
    }
    assert_eq!(main_balance(app, user).await, 100_000 - 500);
    // Two legs of one event do not make an accumulator.
    let two = format!("{},{}", sels[0].0, sels[1].0);
    let prices = format!("{},{}", sels[0].2, sels[1].2);
    let (status, body) = place(app, &alice, &[("kind", "accumulator"), ("selections", &two), ("odds", &prices), ("stake", "1"), ("request_id", "a5")]).await;
    assert_eq!(expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["selections"][0], "DUPLICATE");
    // Guests cannot bet.
    let (status, body) = app.api_post("bets.place", &[("kind", "single"), ("selections", &sel_text), ("odds", odds), ("stake", "1"), ("request_id", "g")]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    ledger_clean(app).await;
});

/// What a bet should have paid in total, from its selections' stored results (an independent
/// reading of the results: one line, legs multiplied in exact integers).
fn single_return(stake: i64, odds: &str, outcome: Outcome) -> i64 {
    let odds: i64 = {
        let (w, f) = odds.split_once('.').unwrap();
        w.parse::<i64>().unwrap() * 100 + f.parse::<i64>().unwrap()
    };
    let vf = (i64::from(outcome.void_factor.num), i64::from(outcome.void_factor.den));
    let won = if outcome.won { stake * (vf.1 - vf.0) * odds / (vf.1 * 100) } else { 0 };
    won + stake * vf.0 / vf.1
}

db_test!(async fn placement_settlement_resettlement_cash_out_and_rollback_keep_balances_and_ledger_right(app) {
    feed_at(app, NOON).await;
    let alice = funded(app, "alice@example.com", 100_000).await;
    let bob = funded(app, "bob@example.com", 50_000).await;
    let (alice_id, bob_id) = (uid(app, &alice).await, uid(app, &bob).await);
    let games = upcoming_football();
    assert!(games.len() >= 4, "{}", games.len());
    let ids: Vec<i64> = futures::future::join_all(games.iter().take(4).map(|g| event_id(app, &g.id))).await;
    let mut home = Vec::new();
    for id in &ids {
        home.push(market(app, *id, "1x2").await.into_iter().find(|(_, k, _)| k == "home").unwrap());
    }
    // Alice: a 10.00 single on the first home side, and a 1.00 yankee on the four.
    let single = (home[0].0.to_string(), home[0].2.clone());
    let (status, s) = place(app, &alice, &[("kind", "single"), ("selections", &single.0), ("odds", &single.1), ("stake", "10"), ("request_id", "s1")]).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let all: Vec<String> = home.iter().map(|h| h.0.to_string()).collect();
    let prices: Vec<String> = home.iter().map(|h| h.2.clone()).collect();
    let (status, y) = place(
        app,
        &alice,
        &[("kind", "system"), ("system", "yankee"), ("selections", &all.join(",")), ("odds", &prices.join(",")), ("stake", "1"), ("request_id", "y1")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{y}");
    assert_eq!(y["data"]["lines"], 11);
    assert_eq!(y["data"]["stake"]["amount"], "11.00");
    // Bob: a double on the first two, then cashes it out at once (prices unchanged: stake less 5%).
    let (status, d) = place(
        app,
        &bob,
        &[("kind", "accumulator"), ("selections", &all[..2].join(",")), ("odds", &prices[..2].join(",")), ("stake", "20"), ("request_id", "d1")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{d}");
    assert_eq!(main_balance(app, alice_id).await, 100_000 - 1000 - 1100);
    assert_eq!(main_balance(app, bob_id).await, 50_000 - 2000);
    let (_, bets) = app.get_as(&bob, "bets.get", &[("status", "open")]).await;
    assert_eq!(bets["data"]["items"][0]["cash_out"]["amount"], "19.00", "{bets}");
    let bet_id = d["data"]["id"].as_i64().unwrap().to_string();
    let (status, low) = app.post_as(&bob, "bets.cashOut", &[("bet_id", &bet_id), ("amount", "25")]).await;
    let data = expect_error(status, &low, 422, "InvalidParameterException")["error_data"].clone();
    assert_eq!(data["cash_out"], "19.00");
    let (status, cashed) = app.post_as(&bob, "bets.cashOut", &[("bet_id", &bet_id), ("amount", "19")]).await;
    assert_eq!(status, StatusCode::OK, "{cashed}");
    assert_eq!(cashed["data"]["status"], "cashed_out");
    assert_eq!(main_balance(app, bob_id).await, 50_000 - 2000 + 1900);
    let (status, twice) = app.post_as(&bob, "bets.cashOut", &[("bet_id", &bet_id)]).await;
    assert_eq!(expect_error(status, &twice, 422, "InvalidParameterException")["error_data"]["bet_id"][0], "LOCKED");
    // Alice cannot touch Bob's bet.
    let (status, theirs) = app.post_as(&alice, "bets.cashOut", &[("bet_id", &bet_id)]).await;
    assert_eq!(expect_error(status, &theirs, 422, "InvalidParameterException")["error_data"]["bet_id"][0], "NOT_FOUND");
    ledger_clean(app).await;

    // The matches are played: everything settles from the sandbox's results.
    let later = NOON + 8 * HOUR;
    feed_at(app, later).await;
    let results: Vec<Outcome> = games
        .iter()
        .take(4)
        .map(|g| {
            let e = Sandbox::new(SEED).event(&g.id, later).unwrap();
            assert_eq!(e.status, EventStatus::Finished);
            let m = e.markets.iter().find(|m| m.kind.key() == "1x2").unwrap();
            m.results.iter().find(|(k, _)| k == "home").unwrap().1
        })
        .collect();
    let single_pays = single_return(1000, &single.1, results[0]);
    let slip = y_slip(&prices, &results);
    let yankee_pays = slip.settle(i64::MAX).unwrap();
    assert_eq!(main_balance(app, alice_id).await, 100_000 - 2100 + single_pays + yankee_pays);
    assert_eq!(main_balance(app, bob_id).await, 50_000 - 100, "a cashed-out bet is final");
    let (_, history) = app.get_as(&alice, "bets.get", &[("status", "settled")]).await;
    assert_eq!(history["data"]["total"], 2, "{history}");
    let single_bet = history["data"]["items"].as_array().unwrap().iter().find(|b| b["kind"] == "single").unwrap();
    assert_eq!(single_bet["status"], if single_pays > 0 { "won" } else { "lost" });
    ledger_clean(app).await;

    // A corrected result: the first match's home result flips. Only the difference moves.
    let first = Sandbox::new(SEED).event(&games[0].id, later).unwrap();
    let mut corrected = first.clone();
    let flipped = if results[0].won { Outcome::LOST } else { Outcome::WON };
    for m in &mut corrected.markets {
        if m.kind.key() == "1x2" {
            for (k, o) in &mut m.results {
                if k == "home" {
                    *o = flipped;
                }
            }
        }
    }
    let before = main_balance(app, alice_id).await;
    // Alice keeps enough money for any claw-back.
    store::store(&app.state, "sandbox", &[corrected.clone()], later + HOUR).await.unwrap();
    settlement::settle_dirty(&app.state).await.unwrap();
    let mut new_results = results.clone();
    new_results[0] = flipped;
    let single_now = single_return(1000, &single.1, flipped);
    let yankee_now = y_slip(&prices, &new_results).settle(i64::MAX).unwrap();
    assert_eq!(main_balance(app, alice_id).await, before - single_pays - yankee_pays + single_now + yankee_now);
    ledger_clean(app).await;

    // Rolled back: the first match's markets reopen, its bets are open again and paid nothing.
    let mut reopened = first.clone();
    reopened.status = EventStatus::Live;
    for m in &mut reopened.markets {
        m.state = MarketState::Suspended;
        m.results.clear();
    }
    store::store(&app.state, "sandbox", &[reopened], later + 2 * HOUR).await.unwrap();
    settlement::settle_dirty(&app.state).await.unwrap();
    let (_, open) = app.get_as(&alice, "bets.get", &[("status", "open")]).await;
    let mut legs_open = y_slip(&prices, &results);
    legs_open.legs[0].outcome = None;
    // The yankee is lost already if every one of its lines has a lost leg among the others.
    let open_bets = if legs_open.lost() { 1 } else { 2 };
    assert_eq!(open["data"]["total"], open_bets, "{open}");
    assert_eq!(main_balance(app, alice_id).await, 100_000 - 2100);
    ledger_clean(app).await;

    // The feed reports the (original) result again: back to the first settlement, to the cent.
    feed_at(app, later + 3 * HOUR).await;
    assert_eq!(main_balance(app, alice_id).await, 100_000 - 2100 + single_pays + yankee_pays);
    // And a market cancelled after the event: every bet on it is void for that leg.
    let market_id: i64 = sqlx::query_scalar("SELECT market_id FROM sb_bet_legs WHERE selection_id = $1 LIMIT 1")
        .bind(home[0].0)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
    let mut tx = app.state.db().begin().await.unwrap();
    store::set_state(&mut tx, market_id, MarketState::Cancelled, true, later + 4 * HOUR).await.unwrap();
    tx.commit().await.unwrap();
    settlement::settle_dirty(&app.state).await.unwrap();
    let mut void_first = results.clone();
    void_first[0] = Outcome::VOID;
    let yankee_void = y_slip(&prices, &void_first).settle(i64::MAX).unwrap();
    assert_eq!(main_balance(app, alice_id).await, 100_000 - 2100 + 1000 + yankee_void);
    ledger_clean(app).await;
    // Money only moved between the players and the house: the house's account is the mirror.
    let usd = croupier_shared::Currency::parse("USD").unwrap();
    let mut conn = app.state.db().pool().acquire().await.unwrap();
    let house = ledger::balance(
        &mut conn,
        ledger::Account::House(ledger::HouseAccount::SportsbookSettlement),
        usd,
    )
    .await
    .unwrap();
    assert_eq!(house, (2100 - 1000 - yankee_void) + (2000 - 1900));
});

fn y_slip(prices: &[String], results: &[Outcome]) -> croupier_server::features::sportsbook::settle::Slip {
    use croupier_server::features::sportsbook::odds::Odds;
    use croupier_server::features::sportsbook::settle::{BetKind, Leg, Slip, System};
    let legs =
        prices.iter().zip(results).map(|(p, o)| Leg { odds: Odds::parse(p).unwrap(), outcome: Some(*o) }).collect();
    Slip::new(BetKind::System(System::Yankee), legs, 100).unwrap()
}
