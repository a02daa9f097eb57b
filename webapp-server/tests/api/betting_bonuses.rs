//! Betting bonuses over HTTP (`BettingBonuses.*`, `bets.place` with `betting_bonus_id`): free
//! bets and odds boosts granted through manual campaigns, activated, bet with and settled from
//! the sandbox feed's results, with the players' balances and the house's bonus liability checked
//! to the cent and `ledger check` clean; removal, switching and expiry give a free bet's stake
//! back to the house; another player's bonus and bad input are refused and change nothing.

use crate::bonuses::campaign;
use crate::db_test;
use crate::games::funded;
use crate::helpers::{TestApp, expect_error};
use croupier_server::features::backoffice::trail::Actor;
use croupier_server::features::bonuses::admin::{self, GrantInput};
use croupier_server::features::bonuses::jobs;
use croupier_server::features::sportsbook::feed::{EventStatus, FeedEvent, Sport, sandbox::Sandbox};
use croupier_server::features::sportsbook::markets::MarketState;
use croupier_server::features::sportsbook::settle::Outcome;
use croupier_server::features::sportsbook::{settlement, store};
use croupier_server::ledger::{self, Account, HouseAccount, PlayerAccount};
use croupier_shared::Currency;
use reqwest::StatusCode;
use serde_json::Value;

const NOON: i64 = 1_767_614_400_000;
const SEED: u64 = 20;
const HOUR: i64 = 3_600_000;

fn usd() -> Currency {
    Currency::parse("USD").unwrap()
}

async fn uid(app: &TestApp, client: &reqwest::Client) -> i64 {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["uid"].as_i64().unwrap()
}

async fn account(app: &TestApp, account: Account) -> i64 {
    let mut conn = app.state.db().pool().acquire().await.unwrap();
    ledger::balance(&mut conn, account, usd()).await.unwrap()
}

async fn main_of(app: &TestApp, user_id: i64) -> i64 {
    account(app, Account::main(user_id)).await
}

async fn betting_of(app: &TestApp, user_id: i64) -> i64 {
    account(app, Account::Player { user_id, kind: PlayerAccount::BettingBonus }).await
}

async fn liability(app: &TestApp) -> i64 {
    account(app, Account::House(HouseAccount::BonusLiability)).await
}

async fn ledger_clean(app: &TestApp) {
    let report = ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

async fn feed_at(app: &TestApp, at: i64) {
    store::store(&app.state, "sandbox", &Sandbox::new(SEED).snapshot(at), at).await.unwrap();
    settlement::settle_dirty(&app.state).await.unwrap();
}

fn upcoming_football() -> Vec<FeedEvent> {
    Sandbox::new(SEED)
        .snapshot(NOON)
        .into_iter()
        .filter(|e| e.status == EventStatus::Scheduled && e.starts_at < NOON + 6 * HOUR)
        .filter(|e| e.markets.iter().all(|m| m.state == MarketState::Active))
        .filter(|e| e.sport == Sport::Football)
        .collect()
}

/// The stored 1x2 selection of `event` that the sandbox's result (at `later`) makes a plain win:
/// (selection id, decimal odds).
async fn winner(app: &TestApp, event: &FeedEvent, later: i64) -> Option<(i64, String)> {
    let played = Sandbox::new(SEED).event(&event.id, later)?;
    let market = played.markets.iter().find(|m| m.kind.key() == "1x2")?;
    let (key, _) = market.results.iter().find(|(_, o)| *o == Outcome::WON)?;
    let id: i64 = sqlx::query_scalar("SELECT id FROM sb_events WHERE feed = 'sandbox' AND external_id = $1")
        .bind(&event.id)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
    let (status, body) = app.api_get("sportsbook.getEvent", &[("event_id", &id.to_string())]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let m = body["data"]["markets"].as_array().unwrap().iter().find(|m| m["key"] == "1x2")?.clone();
    let s = m["selections"].as_array()?.iter().find(|s| s["key"] == key.as_str())?.clone();
    Some((s["id"].as_i64()?, s["odds"].as_str()?.to_owned()))
}

/// What a winning single of `stake` minor units at decimal `odds` returns (rounded down once).
fn returns(stake: i64, odds: &str) -> i64 {
    let (w, f) = odds.split_once('.').unwrap_or((odds, "0"));
    let scaled = w.parse::<i64>().unwrap() * 10_000 + format!("{f:0<4}")[..4].parse::<i64>().unwrap();
    stake * scaled / 10_000
}

async fn grant(app: &TestApp, user_id: i64, campaign_id: i64) -> i64 {
    admin::grant(&app.state, &Actor::cli(), &GrantInput { user_id, campaign_id, reason: "betting bonus test".into() })
        .await
        .unwrap()
}

async fn betting_bonuses(app: &TestApp, client: &reqwest::Client, statuses: &str) -> Vec<Value> {
    let (status, body) = app.get_as(client, "BettingBonuses.get", &[("statuses", statuses)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"]["items"].as_array().unwrap().clone()
}

fn field(status: StatusCode, body: &Value, name: &str) -> String {
    let err = expect_error(status, body, 422, "InvalidParameterException");
    err["error_data"][name][0].as_str().unwrap_or_else(|| panic!("no {name}: {body}")).to_owned()
}

db_test!(async fn a_free_bet_wins_its_winnings_only_and_an_odds_boost_pays_its_capped_extra(app) {
    feed_at(app, NOON).await;
    let later = NOON + 8 * HOUR;
    let mut picks = Vec::new();
    for event in upcoming_football() {
        if let Some(pick) = winner(app, &event, later).await {
            picks.push(pick);
        }
    }
    assert!(picks.len() >= 2, "two matches with a plain winner: {picks:?}");
    let alice = funded(app, "alice@example.com", 100_000).await;
    let bob = funded(app, "bob@example.com", 50_000).await;
    let (alice_id, bob_id) = (uid(app, &alice).await, uid(app, &bob).await);
    // A 10.00 free bet, and a 50 % odds boost whose extra is capped at 1.00.
    let freebet = campaign("free-tenner", "manual", "freebet", 1_000, 0).save(&app.state, &Actor::cli(), None).await.unwrap();
    let mut boost = campaign("half-boost", "manual", "odds_boost", 100, 0);
    boost.match_percent = 50;
    let boost = boost.save(&app.state, &Actor::cli(), None).await.unwrap();
    let liability_before = liability(app).await;
    let free_id = grant(app, alice_id, freebet).await;
    let boost_id = grant(app, alice_id, boost).await;
    let listed = betting_bonuses(app, &alice, "offered").await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    let free_view = listed.iter().find(|b| b["id"] == free_id).unwrap();
    assert_eq!((free_view["kind"].as_str(), free_view["amount"].as_str()), (Some("freebet"), Some("10.00")), "{free_view}");
    let boost_view = listed.iter().find(|b| b["id"] == boost_id).unwrap();
    assert_eq!((boost_view["boost_percent"].as_i64(), boost_view["max_extra"].as_str()), (Some(50), Some("1.00")));
    assert_eq!(betting_of(app, alice_id).await, 0, "nothing is credited before activation");
    assert!(betting_bonuses(app, &bob, "offered,active").await.is_empty(), "Bob sees none of Alice's");

    // Another player cannot activate, remove or bet with Alice's bonus; nothing moves.
    for method in ["BettingBonuses.activate", "BettingBonuses.remove"] {
        let (status, body) = app.post_as(&bob, method, &[("bonus_id", &free_id.to_string())]).await;
        assert_eq!(field(status, &body, "bonus_id"), "NOT_FOUND", "{method}");
    }
    // Alice activates the free bet: its stake waits on her betting-bonus balance.
    let (status, body) = app.post_as(&alice, "BettingBonuses.activate", &[("bonus_id", &free_id.to_string())]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["dialog"], "betting-bonus-activated");
    assert_eq!(body["data"]["bonus"]["status"], "active");
    assert_eq!(betting_of(app, alice_id).await, 1_000);
    assert_eq!(liability(app).await, liability_before - 1_000);

    let (sel, odds) = picks[0].clone();
    let sel = sel.to_string();
    let free_text = free_id.to_string();
    let slip = |stake: &'static str, request: &'static str| {
        vec![("kind", "single"), ("selections", sel.as_str()), ("odds", odds.as_str()), ("stake", stake), ("request_id", request)]
    };
    let mut theirs = slip("10", "b1");
    theirs.push(("betting_bonus_id", free_text.as_str()));
    let (status, body) = app.post_as(&bob, "bets.place", &theirs).await;
    assert_eq!(field(status, &body, "betting_bonus_id"), "NOT_FOUND");
    assert_eq!(main_of(app, bob_id).await, 50_000);
    // A free bet's stake is its amount.
    let mut wrong = slip("5", "f0");
    wrong.push(("betting_bonus_id", free_text.as_str()));
    let (status, body) = app.post_as(&alice, "bets.place", &wrong).await;
    assert_eq!(field(status, &body, "stake"), "INVALID", "{body}");
    let mut free_bet = slip("10", "f1");
    free_bet.push(("betting_bonus_id", free_text.as_str()));
    let (status, placed) = app.post_as(&alice, "bets.place", &free_bet).await;
    assert_eq!(status, StatusCode::OK, "{placed}");
    assert_eq!((placed["data"]["funds"].as_str(), placed["data"]["betting_bonus_id"].as_i64()), (Some("betting_bonus"), Some(free_id)));
    assert!(placed["data"]["cash_out"].is_null(), "a free bet has no cash-out: {placed}");
    assert_eq!((betting_of(app, alice_id).await, main_of(app, alice_id).await), (0, 100_000));
    let used = betting_bonuses(app, &alice, "used").await;
    assert_eq!(used.len(), 1);
    assert_eq!(used[0]["id"], free_id);
    // Used: it cannot be used twice, nor removed.
    let mut again = slip("10", "f2");
    again.push(("betting_bonus_id", free_text.as_str()));
    let (status, body) = app.post_as(&alice, "bets.place", &again).await;
    assert_eq!(field(status, &body, "betting_bonus_id"), "INVALID");
    let (status, body) = app.post_as(&alice, "BettingBonuses.remove", &[("bonus_id", &free_text)]).await;
    assert_eq!(field(status, &body, "bonus_id"), "INVALID");
    let bet_id = placed["data"]["id"].as_i64().unwrap().to_string();
    let (status, body) = app.post_as(&alice, "bets.cashOut", &[("bet_id", &bet_id)]).await;
    assert_eq!(field(status, &body, "bet_id"), "LOCKED");

    // The odds boost on a 10.00 single with main money.
    let boost_text = boost_id.to_string();
    let (status, body) = app.post_as(&alice, "BettingBonuses.activate", &[("bonus_id", &boost_text)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (sel2, odds2) = picks[1].clone();
    let sel2 = sel2.to_string();
    let mut boosted = vec![("kind", "single"), ("selections", sel2.as_str()), ("odds", odds2.as_str()), ("stake", "10"), ("request_id", "o1"), ("betting_bonus_id", boost_text.as_str())];
    boosted.push(("funds", "betting_bonus"));
    let (status, body) = app.post_as(&alice, "bets.place", &boosted).await;
    assert_eq!(field(status, &body, "funds"), "INVALID", "a boost is for main money");
    boosted.pop();
    let (status, placed) = app.post_as(&alice, "bets.place", &boosted).await;
    assert_eq!(status, StatusCode::OK, "{placed}");
    assert_eq!(placed["data"]["funds"], "main");
    assert_eq!(main_of(app, alice_id).await, 100_000 - 1_000);
    let liability_placed = liability(app).await;
    ledger_clean(app).await;

    // The matches are played.
    feed_at(app, later).await;
    let free_returns = returns(1_000, &odds);
    let boost_returns = returns(1_000, &odds2);
    let extra = ((boost_returns - 1_000) * 5_000 / 10_000).min(100);
    assert!(extra > 0);
    assert_eq!(
        main_of(app, alice_id).await,
        100_000 - 1_000 + (free_returns - 1_000) + boost_returns + extra,
        "the free bet pays its winnings only, the boost its capped extra"
    );
    assert_eq!(betting_of(app, alice_id).await, 0, "a free bet's stake is never returned");
    assert_eq!(liability(app).await, liability_placed - extra, "the extra comes from the bonus liability");
    let (_, history) = app.get_as(&alice, "bets.get", &[("status", "settled")]).await;
    let items = history["data"]["items"].as_array().unwrap();
    let free = items.iter().find(|b| b["betting_bonus_id"] == free_id).unwrap();
    assert_eq!(free["status"], "won", "{free}");
    assert_eq!(free["payout"]["amount"], croupier_shared::Money::from_minor(free_returns - 1_000, usd()).to_decimal_string());
    let boosted = items.iter().find(|b| b["betting_bonus_id"] == boost_id).unwrap();
    assert_eq!(boosted["boost_paid"]["amount"], croupier_shared::Money::from_minor(extra, usd()).to_decimal_string());
    // A second settlement run moves nothing.
    let before = main_of(app, alice_id).await;
    feed_at(app, later).await;
    assert_eq!(main_of(app, alice_id).await, before);
    ledger_clean(app).await;
});

db_test!(async fn removing_switching_and_expiring_give_a_free_bets_stake_back_and_bad_input_changes_nothing(app) {
    let client = app.browser();
    let user = app.register(&client, "punter@example.com").await["uid"].as_i64().unwrap();
    let first = campaign("fb-one", "manual", "freebet", 500, 0).save(&app.state, &Actor::cli(), None).await.unwrap();
    let second = campaign("fb-two", "manual", "freebet", 700, 0).save(&app.state, &Actor::cli(), None).await.unwrap();
    let before = liability(app).await;
    let a = grant(app, user, first).await;
    let b = grant(app, user, second).await;
    // Bad input: named by its field, nothing changes.
    let (status, body) = app.post_as(&client, "BettingBonuses.activate", &[]).await;
    assert_eq!(field(status, &body, "bonus_id"), "REQUIRED");
    let (status, body) = app.post_as(&client, "BettingBonuses.activate", &[("bonus_id", "0")]).await;
    assert_eq!(field(status, &body, "bonus_id"), "INVALID");
    let (status, body) = app.post_as(&client, "BettingBonuses.activate", &[("bonus_id", "999999")]).await;
    assert_eq!(field(status, &body, "bonus_id"), "NOT_FOUND");
    let (status, body) = app.get_as(&client, "BettingBonuses.get", &[("statuses", "wagering"), ("count", "500")]).await;
    let err = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!((err["error_data"]["statuses"][0].as_str(), err["error_data"]["count"][0].as_str()), (Some("UNSUPPORTED"), Some("MAX_VALUE")));
    let (status, body) = app.api_get("BettingBonuses.get", &[]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    assert_eq!(betting_of(app, user).await, 0);
    // A casino bonus is not a betting bonus.
    let fixed = campaign("casino-gift", "manual", "fixed", 1_000, 10).save(&app.state, &Actor::cli(), None).await.unwrap();
    let casino = grant(app, user, fixed).await;
    let (status, body) = app.post_as(&client, "BettingBonuses.remove", &[("bonus_id", &casino.to_string())]).await;
    assert_eq!(field(status, &body, "bonus_id"), "NOT_FOUND");

    // Switching: activating the second puts the first back to offered, its stake back.
    let (status, _) = app.post_as(&client, "BettingBonuses.activate", &[("bonus_id", &a.to_string())]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(betting_of(app, user).await, 500);
    let (status, _) = app.post_as(&client, "BettingBonuses.activate", &[("bonus_id", &b.to_string())]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(betting_of(app, user).await, 700);
    let offered = betting_bonuses(app, &client, "offered").await;
    assert_eq!(offered.iter().map(|x| x["id"].as_i64().unwrap()).collect::<Vec<_>>(), vec![a]);
    // And back again: keys of a second activation do not collide with the first's.
    let (status, _) = app.post_as(&client, "BettingBonuses.activate", &[("bonus_id", &a.to_string())]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(betting_of(app, user).await, 500);
    // Removing the active one forfeits its stake to the house; the offered one is declined.
    let (status, body) = app.post_as(&client, "BettingBonuses.remove", &[("bonus_id", &a.to_string())]).await;
    assert_eq!((status, body["data"]["status"].as_str()), (StatusCode::OK, Some("forfeited")), "{body}");
    assert_eq!(betting_of(app, user).await, 0);
    let (status, body) = app.post_as(&client, "BettingBonuses.remove", &[("bonus_id", &b.to_string())]).await;
    assert_eq!((status, body["data"]["status"].as_str()), (StatusCode::OK, Some("cancelled")), "{body}");
    let (status, body) = app.post_as(&client, "BettingBonuses.activate", &[("bonus_id", &a.to_string())]).await;
    assert_eq!(field(status, &body, "bonus_id"), "INVALID");
    // Expiry of an active free bet gives its stake back too.
    let third = campaign("fb-three", "manual", "freebet", 300, 0).save(&app.state, &Actor::cli(), None).await.unwrap();
    let c = grant(app, user, third).await;
    let (status, _) = app.post_as(&client, "BettingBonuses.activate", &[("bonus_id", &c.to_string())]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(betting_of(app, user).await, 300);
    sqlx::query("UPDATE player_bonuses SET expires_at = 1 WHERE id = $1").bind(c).execute(app.state.db().pool()).await.unwrap();
    assert!(jobs::expire(&app.state, croupier_server::db::now_ms()).await.unwrap() >= 1);
    assert_eq!(betting_bonuses(app, &client, "expired").await.len(), 1);
    assert_eq!(betting_of(app, user).await, 0);
    // The casino bonus is untouched; the betting bonuses' money is all back with the house.
    assert_eq!(liability(app).await, before - 1_000);
    // Campaign rules: an odds boost needs its percent and its cap.
    let bad = campaign("bad-boost", "manual", "odds_boost", 0, 0).save(&app.state, &Actor::cli(), None).await.unwrap_err();
    let fields: Vec<&str> = bad.fields().iter().map(|f| f.field.as_str()).collect();
    assert!(fields.contains(&"match_percent") && fields.contains(&"amounts.max_bonus"), "{fields:?}");
    ledger_clean(app).await;
});
