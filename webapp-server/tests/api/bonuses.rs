//! The bonus engine through its calls: promo codes, offers, deposits that credit bonuses,
//! wagering in house games to completion, the maximum bet, removal, expiry, the withdrawal burn,
//! operators' grants and cancels, and bad input that changes nothing.

use crate::db_test;
use crate::games::{dice_rounds_in_flight, launch};
use crate::helpers::{TestApp, expect_error, read_json};
use croupier_server::features::backoffice::trail::Actor;
use croupier_server::features::bonuses::admin::{self, AmountInput, CampaignInput, GrantInput};
use croupier_server::features::bonuses::jobs;
use croupier_server::ledger::{self, Account, HouseAccount, PlayerAccount};
use croupier_shared::{Currency, Money};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn usd() -> Currency {
    Currency::parse("USD").unwrap()
}

fn minor(text: &Value) -> i64 {
    Money::parse_major(text.as_str().unwrap_or_else(|| panic!("not an amount: {text}")), usd()).unwrap().minor()
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder().cookie_store(true).redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// A deposit through the sandbox, paid; answers its id.
pub async fn deposit(app: &TestApp, client: &reqwest::Client, amount: &str, offer: Option<&str>) -> String {
    let mut form = vec![("method", "sandbox_card"), ("amount", amount)];
    if let Some(offer) = offer {
        form.push(("campaign_offer_id", offer));
    }
    let (status, body) = app.post_as(client, "cashier.makedeposit", &form).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["data"]["id"].as_str().unwrap().to_owned();
    let page = body["data"]["redirect_url"].as_str().unwrap().replace("http://localhost:8080", &app.url(""));
    let response = no_redirects().post(page).form(&[("outcome", "success")]).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    id
}

async fn account(app: &TestApp, user: i64, kind: PlayerAccount) -> i64 {
    let mut conn = app.state.db().pool().acquire().await.unwrap();
    ledger::balance(&mut conn, Account::Player { user_id: user, kind }, usd()).await.unwrap()
}

async fn liability(app: &TestApp) -> i64 {
    let mut conn = app.state.db().pool().acquire().await.unwrap();
    ledger::balance(&mut conn, Account::House(HouseAccount::BonusLiability), usd()).await.unwrap()
}

pub async fn ledger_clean(app: &TestApp) {
    let report = ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

async fn register_with(app: &TestApp, client: &reqwest::Client, email: &str, code: &str) -> i64 {
    let form = [("email", email), ("password", "secret123"), ("currency", "USD"), ("terms", "1"), ("promo_code", code)];
    let (status, body) = app.post_as(client, "auth.register", &form).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"]["uid"].as_i64().unwrap()
}

async fn bonuses(app: &TestApp, client: &reqwest::Client, statuses: &str) -> Vec<Value> {
    let (status, body) = app.get_as(client, "bonuses.get", &[("statuses", statuses)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"]["items"].as_array().unwrap().clone()
}

/// A campaign like the operator API makes them (amounts in USD minor units).
pub fn campaign(sysname: &str, trigger: &str, reward: &str, bonus: i64, multiplier: i64) -> CampaignInput {
    CampaignInput {
        sysname: sysname.into(),
        status: Some("active".into()),
        trigger: trigger.into(),
        deposit_number: None,
        exclude_methods: Vec::new(),
        countries: Vec::new(),
        reward: reward.into(),
        match_percent: if reward == "deposit_match" { 100 } else { 0 },
        freespin_game: None,
        freespin_count: 0,
        wager_multiplier: multiplier,
        wager_includes_deposit: false,
        games: Vec::new(),
        title_en: format!("{sysname} bonus"),
        title_fr: format!("Bonus {sysname}"),
        text_en: "A test bonus.".into(),
        text_fr: "Un bonus de test.".into(),
        terms_en: String::new(),
        terms_fr: String::new(),
        image_url: None,
        promotions: Vec::new(),
        starts_at: None,
        ends_at: None,
        claim_days: None,
        wager_days: None,
        max_takers: None,
        amounts: vec![AmountInput {
            currency: "USD".into(),
            min_deposit: 0,
            max_bonus: bonus,
            max_bet: 500,
            max_conversion: None,
            freespin_bet: 0,
        }],
        version: None,
    }
}

async fn token_for(app: &TestApp, client: &reqwest::Client, game: &str) -> String {
    let (status, launched) = launch(app, client, game, "play").await;
    assert_eq!(status, StatusCode::OK, "{launched}");
    launched["token"].as_str().unwrap().to_owned()
}

async fn dice(app: &TestApp, token: &str, bet: &str) -> (StatusCode, Value) {
    let body = json!({"token": token, "bet": bet, "target": "50.00", "condition": "over"});
    read_json(reqwest::Client::new().post(app.url("/games/house/dice/round")).json(&body).send().await.unwrap()).await
}

db_test!(async fn a_code_given_at_registration_is_credited_by_the_first_qualifying_deposit(app) {
    let client = app.browser();
    let user = register_with(app, &client, "weekender@example.com", "weekend").await;
    let waiting = bonuses(app, &client, "").await;
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    assert_eq!((waiting[0]["status"].as_str(), waiting[0]["awaiting_deposit"].as_bool()), (Some("active"), Some(true)));
    assert_eq!(waiting[0]["min_deposit"], "20.00");
    assert_eq!(waiting[0]["title"], "Weekend reload");
    // Its offer shows as taken; the welcome offer is open to the player.
    let (_, offers) = app.get_as(&client, "campaigns.getoffers", &[("offset", "0")]).await;
    let items = offers["data"]["items"].as_array().unwrap();
    let weekend = items.iter().find(|o| o["sysname"] == "weekend").unwrap();
    assert_eq!((weekend["taken"].as_bool(), weekend["trigger"]["action"].as_str()), (Some(true), Some("promo_code")));
    let welcome = items.iter().find(|o| o["sysname"] == "welcome").unwrap();
    assert_eq!(welcome["description"]["reward"], "100% up to 500.00 USD + 50 free spins");
    assert_eq!(welcome["trigger"]["user_satisfies_params"], true);

    // Too small a deposit leaves it waiting; the next qualifying one credits it.
    deposit(app, &client, "10", None).await;
    assert_eq!(bonuses(app, &client, "active").await.len(), 1);
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, 0);
    deposit(app, &client, "100", None).await;
    let credited = bonuses(app, &client, "wagering").await;
    assert_eq!(credited.len(), 1, "{credited:?}");
    let b = &credited[0];
    assert_eq!((minor(&b["amount"]), minor(&b["balance"]), minor(&b["wager_target"]), b["progress"].as_i64()), (5_000, 5_000, 150_000, Some(0)));
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, 5_000);
    assert_eq!(account(app, user, PlayerAccount::Main).await, 11_000);
    // The account shows the bonus balance.
    let (_, info) = app.get_as(&client, "account.getBalance", &[]).await;
    assert_eq!(info["data"]["balance_bonus"]["amount"], "50.00", "{info}");
    // The welcome offer is no longer for this player: the first deposit is behind them.
    let (_, offers) = app.get_as(&client, "campaigns.getoffers", &[]).await;
    let welcome = offers["data"]["items"].as_array().unwrap().iter().find(|o| o["sysname"] == "welcome").unwrap().clone();
    assert_eq!(welcome["trigger"]["user_satisfies_params"], false);
    // The bonuses tab of the cashier's history lists it.
    let (status, history) = app.get_as(&client, "cashier.gethistory", &[("type", "bonuses")]).await;
    assert_eq!(status, StatusCode::OK, "{history}");
    assert_eq!((history["data"]["total"].as_i64(), history["data"]["items"][0]["status"].as_str()), (Some(1), Some("wagering")));
    ledger_clean(app).await;
});

db_test!(async fn promo_codes_are_checked_used_once_and_rate_limited(app) {
    let client = app.browser();
    app.register(&client, "coder@example.com").await;
    let (status, body) = app.post_as(&client, "campaigns.checkPromocode", &[("promo_code", "WeekEnd")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["sysname"], "weekend");
    assert!(bonuses(app, &client, "").await.is_empty(), "checking changes nothing");
    for (code, want) in [("NOPE", "NOT_FOUND"), ("", "REQUIRED"), ("bad code!", "NOT_FOUND")] {
        let (status, body) = app.post_as(&client, "campaigns.activateOffer", &[("promo_code", code)]).await;
        let err = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(err["error_data"]["promo_code"][0], want, "{code}: {body}");
    }
    let (status, body) = app.post_as(&client, "campaigns.activateOffer", &[("promo_code", " weekend ")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!((body["data"]["offer"]["sysname"].as_str(), body["data"]["bonus"]["status"].as_str()), (Some("weekend"), Some("active")));
    let (status, body) = app.post_as(&client, "campaigns.activateOffer", &[("promo_code", "WEEKEND")]).await;
    let err = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(err["error_data"]["promo_code"][0], "PROMO_USED");
    // A paused campaign's code is no longer valid for anyone else.
    let other = app.browser();
    app.register(&other, "late@example.com").await;
    let weekend: i64 = sqlx::query_scalar("SELECT id FROM campaigns WHERE sysname = 'weekend'").fetch_one(app.state.db().pool()).await.unwrap();
    admin::set_campaign_status(&app.state, &Actor::cli(), weekend, "pause").await.unwrap();
    let (status, body) = app.post_as(&other, "campaigns.activateOffer", &[("promo_code", "WEEKEND")]).await;
    let err = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(err["error_data"]["promo_code"][0], "PROMO_EXPIRED");
    // Guessing is cut off.
    let mut limited = false;
    for _ in 0..20 {
        let (status, _) = app.post_as(&other, "campaigns.checkPromocode", &[("promo_code", "GUESS")]).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            limited = true;
            break;
        }
    }
    assert!(limited, "promo-code tries are rate-limited");
    // Guests cannot use codes.
    let (status, body) = app.api_post("campaigns.activateOffer", &[("promo_code", "WEEKEND")]).await;
    expect_error(status, &body, 401, "AuthorizationException");
});

db_test!(async fn a_bonus_is_wagered_in_house_games_to_completion(app) {
    // 20.00 fixed, wagered once (20.00 of stakes), bets up to 5.00.
    let id = campaign("reload", "deposit", "fixed", 2_000, 1).save(&app.state, &Actor::cli(), None).await.unwrap();
    let client = app.browser();
    let user = app.register(&client, "wagerer@example.com").await["uid"].as_i64().unwrap();
    deposit(app, &client, "100", Some(&id.to_string())).await;
    let b = bonuses(app, &client, "wagering").await;
    assert_eq!((b.len(), minor(&b[0]["balance"])), (1, 2_000), "{b:?}");
    let token = token_for(app, &client, "dice").await;
    // The game's page opens on what a round would answer: main plus the bonus money.
    let state: Value = reqwest::get(app.url(&format!("/games/house/dice/state?token={token}"))).await.unwrap().json().await.unwrap();
    assert_eq!(state["balance"], "120.00", "{state}");
    // Over the maximum bet: refused, nothing moves.
    let (status, body) = dice(app, &token, "6.00").await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::CONFLICT, Some("bonus_max_bet")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("5.00 USD"), "{body}");
    assert_eq!(body["max_bet"], "5.00 USD", "the page fills its own language's message with it");
    assert_eq!(account(app, user, PlayerAccount::Main).await, 10_000);
    // Real money is spent first: four bets of 5.00 from main complete the wagering.
    let mut last = Value::Null;
    for round in 1..=4 {
        let (status, body) = dice(app, &token, "5.00").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let b = bonuses(app, &client, "wagering,completed").await;
        assert_eq!(minor(&b[0]["wagered"]), 500 * round.min(4), "{b:?}");
        last = body;
    }
    let done = bonuses(app, &client, "completed").await;
    assert_eq!((done.len(), done[0]["progress"].as_i64()), (1, Some(100)), "{done:?}");
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, 0, "completion empties the bonus account");
    // The bonus's 20.00 became real money: what the game reported plus the conversion.
    assert_eq!(account(app, user, PlayerAccount::Main).await, minor(&last["balance"]) - 2_000 + 2_000);
    let converted: i64 = sqlx::query_scalar("SELECT converted FROM player_bonuses WHERE user_id = $1")
        .bind(user)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
    assert_eq!(converted, 2_000);
    let events: Vec<String> = sqlx::query_scalar(
        "SELECT e.to_status FROM bonus_events e JOIN player_bonuses b ON b.id = e.bonus_id WHERE b.user_id = $1 ORDER BY e.id",
    )
    .bind(user)
    .fetch_all(app.state.db().pool())
    .await
    .unwrap();
    assert_eq!(events, ["active", "wagering", "completed"]);
    ledger_clean(app).await;
});

db_test!(async fn removing_expiring_and_burning_a_bonus_forfeits_its_balance(app) {
    let fixed = campaign("gift", "manual", "fixed", 1_000, 10).save(&app.state, &Actor::cli(), None).await.unwrap();
    let client = app.browser();
    let user = app.register(&client, "remover@example.com").await["uid"].as_i64().unwrap();
    let before = liability(app).await;
    let grant = |reason: &str| GrantInput { user_id: user, campaign_id: fixed, reason: reason.into() };
    let first = admin::grant(&app.state, &Actor::cli(), &grant("goodwill")).await.unwrap();
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, 1_000);
    // The grant's audit row was written with it: who, for whom, why.
    type Audit = (String, Option<String>, Option<i64>, Option<String>);
    let audit: Vec<Audit> = sqlx::query_as(
        "SELECT role, target_id, user_id, reason FROM operator_audit WHERE action = 'bonuses.grant'",
    )
    .fetch_all(app.state.db().pool())
    .await
    .unwrap();
    assert_eq!(audit, [("automation".to_owned(), Some(first.to_string()), Some(user), Some("goodwill".to_owned()))]);
    // Another player cannot touch it; bad ids are refused; nothing changes.
    let stranger = app.browser();
    app.register(&stranger, "stranger@example.com").await;
    for (who, id, code) in [(&stranger, first.to_string(), "NOT_FOUND"), (&client, "999999".into(), "NOT_FOUND"), (&client, "x".into(), "INVALID")] {
        let (status, body) = app.post_as(who, "bonuses.remove", &[("bonus_id", &id)]).await;
        let err = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(err["error_data"]["bonus_id"][0], code, "{body}");
    }
    let (status, body) = app.post_as(&client, "bonuses.remove", &[]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    let (status, body) = app.post_as(&client, "bonuses.deactivate", &[("bonus_id", &first.to_string())]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, 1_000);
    // The player removes it: forfeited, its money back to the house.
    let (status, body) = app.post_as(&client, "bonuses.remove", &[("bonus_id", &first.to_string())]).await;
    assert_eq!((status, body["data"]["status"].as_str()), (StatusCode::OK, Some("forfeited")), "{body}");
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, 0);
    assert_eq!(liability(app).await, before);
    // Expiry: the job forfeits a bonus past its deadline.
    let second = admin::grant(&app.state, &Actor::cli(), &grant("second")).await.unwrap();
    sqlx::query("UPDATE player_bonuses SET expires_at = 1 WHERE id = $1").bind(second).execute(app.state.db().pool()).await.unwrap();
    assert_eq!(jobs::expire(&app.state, croupier_server::db::now_ms()).await.unwrap(), 1);
    assert_eq!(bonuses(app, &client, "expired").await.len(), 1);
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, 0);
    // An operator's cancel, with its reason in the bonus's events.
    let third = admin::grant(&app.state, &Actor::cli(), &grant("third")).await.unwrap();
    assert!(admin::cancel(&app.state, &Actor::cli(), third, " ").await.is_err(), "a reason is required");
    assert_eq!(admin::cancel(&app.state, &Actor::cli(), third, "abuse").await.unwrap(), "forfeited");
    let cancelled: Vec<(Option<String>, Option<String>)> =
        sqlx::query_as("SELECT target_id, reason FROM operator_audit WHERE action = 'bonuses.cancel'")
            .fetch_all(app.state.db().pool())
            .await
            .unwrap();
    assert_eq!(cancelled, [(Some(third.to_string()), Some("abuse".to_owned()))], "one row, for the cancel that happened");
    let reasons: Vec<String> = sqlx::query_scalar("SELECT reason FROM bonus_events WHERE bonus_id = $1 ORDER BY id")
        .bind(third)
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
    assert_eq!(reasons.last().map(String::as_str), Some("operator: abuse"), "{reasons:?}");
    // The report counts it all.
    let report = admin::all_campaigns(&app.state).await.unwrap();
    let gift = report.iter().find(|c| c["sysname"] == "gift").unwrap();
    assert_eq!((gift["report"]["granted"]["USD"].as_i64(), gift["report"]["forfeited"]["USD"].as_i64()), (Some(3_000), Some(3_000)), "{gift}");
    assert_eq!((gift["report"]["by_status"]["expired"].as_i64(), gift["report"]["by_status"]["forfeited"].as_i64()), (Some(1), Some(2)));
    ledger_clean(app).await;
});

db_test!(async fn a_withdrawal_asks_before_it_burns_a_wagering_bonus(app) {
    let fixed = campaign("burnable", "manual", "fixed", 1_000, 10).save(&app.state, &Actor::cli(), None).await.unwrap();
    let client = crate::cashier::verified_player(app, "burner@example.com").await;
    let user = {
        let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
        me["data"]["uid"].as_i64().unwrap()
    };
    deposit(app, &client, "50", Some("none")).await;
    assert!(bonuses(app, &client, "").await.is_empty(), "none asks for no bonus");
    admin::grant(&app.state, &Actor::cli(), &GrantInput { user_id: user, campaign_id: fixed, reason: "test".into() }).await.unwrap();
    let form = [("method", "sandbox_card"), ("amount", "20")];
    let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &form).await;
    let err = expect_error(status, &body, 409, "BonusBurnConfirmationRequiredException");
    assert_eq!((err["error_data"]["bonuses"].as_i64(), err["error_data"]["amount"].as_str()), (Some(1), Some("10.00")), "{body}");
    assert_eq!(account(app, user, PlayerAccount::Main).await, 5_000, "nothing moved");
    let mut confirmed = form.to_vec();
    confirmed.push(("burn_bonuses", "1"));
    let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &confirmed).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(bonuses(app, &client, "forfeited").await.len(), 1);
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, 0);
    assert_eq!(account(app, user, PlayerAccount::Main).await, 3_000);
    ledger_clean(app).await;
});

db_test!(async fn offers_are_taken_once_and_guests_see_them(app) {
    let (status, body) = app.api_get("campaigns.getoffers", &[("offset", "0")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let items = body["data"]["items"].as_array().unwrap();
    assert!(items.iter().any(|o| o["sysname"] == "welcome"), "{body}");
    assert!(!items.iter().any(|o| o["sysname"] == "weekend"), "code campaigns stay hidden");
    let (status, body) = app.api_get("bonuses.get", &[]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    let (status, body) = app.api_get("campaigns.getoffers", &[("offset", "-1")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    // Taking the welcome offer: it waits for the first deposit, which credits it with its spins.
    let client = app.browser();
    let user = app.register(&client, "taker@example.com").await["uid"].as_i64().unwrap();
    let welcome: i64 = sqlx::query_scalar("SELECT id FROM campaigns WHERE sysname = 'welcome'").fetch_one(app.state.db().pool()).await.unwrap();
    let (status, body) = app.post_as(&client, "campaigns.takepromotions", &[("offer_id", &welcome.to_string())]).await;
    assert_eq!((status, body["data"]["bonus"]["status"].as_str()), (StatusCode::OK, Some("active")), "{body}");
    let (status, body) = app.post_as(&client, "campaigns.takepromotions", &[("offer_id", &welcome.to_string())]).await;
    let err = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(err["error_data"]["offer_id"][0], "PROMO_USED");
    let (status, body) = app.post_as(&client, "campaigns.takepromotions", &[("offer_id", "424242")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    // Deactivate and activate again, then deposit.
    let bonus = bonuses(app, &client, "").await[0]["id"].as_i64().unwrap().to_string();
    let (_, body) = app.post_as(&client, "bonuses.deactivate", &[("bonus_id", &bonus)]).await;
    assert_eq!(body["data"]["status"], "offered", "{body}");
    let (_, body) = app.post_as(&client, "bonuses.activate", &[("bonus_id", &bonus)]).await;
    assert_eq!(body["data"]["status"], "active", "{body}");
    deposit(app, &client, "30", None).await;
    let b = bonuses(app, &client, "wagering").await;
    assert_eq!((minor(&b[0]["balance"]), b[0]["freespins"]["remaining_count"].as_i64()), (3_000, Some(50)), "{b:?}");
    let (_, packs) = app.get_as(&client, "freespins.get", &[("status", "active"), ("count", "99")]).await;
    assert_eq!(packs["data"]["items"][0]["game"]["sysname"], "gem-rush");
    assert_eq!(account(app, user, PlayerAccount::Bonus).await, 3_000);
    ledger_clean(app).await;
});

db_test!(async fn banners_and_popups_follow_their_campaigns(app) {
    let (status, body) = app.api_get("banners.get", &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let count = body["data"]["count"].as_i64().unwrap();
    assert!(body["data"]["items"].as_array().unwrap().iter().any(|b| b["description"]["campaign"] == "welcome"));
    let (_, popups) = app.api_get("popups.get", &[]).await;
    assert!(popups["data"].as_array().unwrap().iter().any(|p| p["sysname"] == "welcome-bonus"));
    let welcome: i64 = sqlx::query_scalar("SELECT id FROM campaigns WHERE sysname = 'welcome'").fetch_one(app.state.db().pool()).await.unwrap();
    admin::set_campaign_status(&app.state, &Actor::cli(), welcome, "end").await.unwrap();
    let (_, body) = app.api_get("banners.get", &[("count", "10")]).await;
    assert_eq!(body["data"]["count"].as_i64().unwrap(), count - 1, "the ended campaign's banner is gone");
    let (_, popups) = app.api_get("popups.get", &[]).await;
    assert!(!popups["data"].as_array().unwrap().iter().any(|p| p["sysname"] == "welcome-bonus"));
    let (status, body) = app.api_get("banners.get", &[("count", "0")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
});

db_test!(async fn operators_manage_campaigns_and_codes_with_checked_input(app) {
    let mut bad = campaign("Bad Name", "sometimes", "fixed", 0, 500);
    bad.amounts[0].currency = "XXX".into();
    let err = bad.save(&app.state, &Actor::cli(), None).await.unwrap_err();
    let fields: Vec<String> = err.fields().iter().map(|f| f.field.clone()).collect();
    for field in ["sysname", "trigger", "wager_multiplier", "amounts.currency"] {
        assert!(fields.contains(&field.to_owned()), "{field} in {fields:?}");
    }
    let id = campaign("spring", "promo_code", "fixed", 500, 5).save(&app.state, &Actor::cli(), None).await.unwrap();
    assert!(campaign("spring", "promo_code", "fixed", 500, 5).save(&app.state, &Actor::cli(), None).await.is_err(), "sysnames are unique");
    let code = admin::CodeInput { code: "Spring-26".into(), campaign_id: id, max_uses: Some(1) };
    assert_eq!(admin::create_promo_code(&app.state, &Actor::cli(), &code).await.unwrap(), "SPRING-26");
    assert!(admin::create_promo_code(&app.state, &Actor::cli(), &code).await.is_err(), "codes are unique");
    let welcome: i64 = sqlx::query_scalar("SELECT id FROM campaigns WHERE sysname = 'welcome'").fetch_one(app.state.db().pool()).await.unwrap();
    let wrong = admin::CodeInput { code: "W2".into(), campaign_id: welcome, max_uses: None };
    assert!(admin::create_promo_code(&app.state, &Actor::cli(), &wrong).await.is_err(), "only promo-code campaigns take codes");
    // One use in all: the second player finds it spent.
    let a = app.browser();
    app.register(&a, "first-spring@example.com").await;
    let (status, body) = app.post_as(&a, "campaigns.activateOffer", &[("promo_code", "spring-26")]).await;
    assert_eq!((status, body["data"]["bonus"]["status"].as_str()), (StatusCode::OK, Some("wagering")), "{body}");
    let b = app.browser();
    app.register(&b, "second-spring@example.com").await;
    let (status, body) = app.post_as(&b, "campaigns.activateOffer", &[("promo_code", "SPRING-26")]).await;
    let err = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(err["error_data"]["promo_code"][0], "PROMO_EXPIRED");
    // Pause, resume, end; an ended campaign does not resume.
    assert_eq!(admin::set_campaign_status(&app.state, &Actor::cli(), id, "pause").await.unwrap(), "paused");
    assert_eq!(admin::set_campaign_status(&app.state, &Actor::cli(), id, "resume").await.unwrap(), "active");
    assert_eq!(admin::set_campaign_status(&app.state, &Actor::cli(), id, "end").await.unwrap(), "ended");
    assert!(admin::set_campaign_status(&app.state, &Actor::cli(), id, "resume").await.is_err());
    // The operator API needs its token.
    let response = reqwest::Client::new().get(app.url("/admin/campaigns")).send().await.unwrap();
    assert_ne!(response.status(), StatusCode::OK);
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_run_campaigns_over_http_and_from_the_command_line() {
    use crate::helpers::Backend;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && !crate::helpers::postgres_configured() {
            continue;
        }
        let app = TestApp::spawn_with(backend, &[("CROUPIER_ADMIN_TOKEN", "operator-token-123")], |_| {}).await;
        let http = reqwest::Client::new();
        let auth = "Bearer operator-token-123";
        let body = serde_json::to_value(campaign("autumn", "promo_code", "fixed", 700, 3)).unwrap();
        let response = http.post(app.url("/admin/campaigns")).json(&body).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        let mut bad = body.clone();
        bad["reward"] = json!("gold");
        let (status, answer) = read_json(
            http.post(app.url("/admin/campaigns")).header("authorization", auth).json(&bad).send().await.unwrap(),
        )
        .await;
        let err = expect_error(status, &answer, 422, "InvalidParameterException");
        assert!(err["error_data"]["reward"].is_array(), "{answer}");
        let (status, answer) = read_json(
            http.post(app.url("/admin/campaigns")).header("authorization", auth).json(&body).send().await.unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let id = answer["data"]["id"].as_i64().unwrap();
        let code = json!({"code": "AUTUMN", "campaign_id": id});
        let (status, answer) = read_json(
            http.post(app.url("/admin/promo-codes")).header("authorization", auth).json(&code).send().await.unwrap(),
        )
        .await;
        assert_eq!((status, answer["data"]["code"].as_str()), (StatusCode::OK, Some("AUTUMN")), "{answer}");
        // A player uses it; the report shows the taker and the money.
        let client = app.browser();
        let user = app.register(&client, "autumn@example.com").await["uid"].as_i64().unwrap();
        let (status, answer) = app.post_as(&client, "campaigns.activateOffer", &[("promo_code", "autumn")]).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let (_, shown) = read_json(
            http.get(app.url(&format!("/admin/campaigns/{id}"))).header("authorization", auth).send().await.unwrap(),
        )
        .await;
        assert_eq!(
            (shown["data"]["report"]["takers"].as_i64(), shown["data"]["report"]["granted"]["USD"].as_i64()),
            (Some(1), Some(700)),
            "{shown}"
        );
        assert_eq!(shown["data"]["promo_codes"][0]["uses"], 1);
        // Two editors opened it: the first save goes in; the second, made over what the first
        // replaced, is refused and changes nothing.
        let version = shown["data"]["version"].as_i64().unwrap();
        let edit = |title: &str| {
            let mut edit = body.clone();
            edit["title_en"] = json!(title);
            edit["version"] = json!(version);
            edit
        };
        let put = |edit: Value| {
            http.put(app.url(&format!("/admin/campaigns/{id}"))).header("authorization", auth).json(&edit).send()
        };
        let (status, answer) = read_json(put(edit("Autumn gift")).await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let (status, answer) = read_json(put(edit("Autumn surprise")).await.unwrap()).await;
        assert_eq!(status, StatusCode::CONFLICT, "{answer}");
        assert_eq!(answer["error"]["error_data"]["version"], json!(["STALE"]), "{answer}");
        let (_, shown) = read_json(
            http.get(app.url(&format!("/admin/campaigns/{id}"))).header("authorization", auth).send().await.unwrap(),
        )
        .await;
        assert_eq!(shown["data"]["title_en"], "Autumn gift");
        assert!(shown["data"]["version"].as_i64().unwrap() > version);
        // The command line: list, pause, grant and cancel by hand.
        let out = app.cli(&["admin", "campaigns", "list"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("\"autumn\""));
        let out = app.cli(&["admin", "campaigns", "pause", &id.to_string()]);
        assert!(String::from_utf8_lossy(&out.stdout).contains("paused"), "{}", String::from_utf8_lossy(&out.stderr));
        let out = app.cli(&["admin", "bonuses", "grant", &user.to_string(), &id.to_string(), "apology"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let granted: i64 = String::from_utf8_lossy(&out.stdout).split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(account(&app, user, PlayerAccount::Bonus).await, 1_400, "two bonuses of 7.00");
        let out = app.cli(&["admin", "bonuses", "cancel", &granted.to_string(), "mistake"]);
        assert!(String::from_utf8_lossy(&out.stdout).contains("forfeited"), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(account(&app, user, PlayerAccount::Bonus).await, 700);
        let out = app.cli(&["admin", "bonuses", "cancel", "999999", "mistake"]);
        assert!(!out.status.success());
        ledger_clean(&app).await;
        app.finish().await;
    }
}

db_test!(async fn rounds_wagering_a_bonus_merged_on_the_lane_count_and_settle_like_single_rounds(app) {
    // Dice counts half its stakes towards wagering; the bonus (20.00, wagered once: a 20.00
    // target) completes on its player's 40th round of 1.00 (plus the 0.10 first one). Three
    // players play at once, several rounds in flight each, so the lane merges their rounds
    // (`house::batch`): A wagers a bonus with main money to spare and completes it mid-run; B was
    // granted one and has no main money, so its stakes take bonus money (those rounds take the
    // general path, which records the stakes and pays the wins to the bonus); C has no bonus. Every answer's balance is main plus the bonus
    // money, one round after the other; the wagering each bet counted is on its record and sums
    // to the bonus's; the ledger's bonus account matches the bonuses.
    sqlx::query("INSERT INTO bonus_contributions (scope, name, percent) VALUES ('game', 'dice', 50)")
        .execute(app.state.db().pool())
        .await
        .unwrap();
    let id = campaign("reload", "deposit", "fixed", 2_000, 1).save(&app.state, &Actor::cli(), None).await.unwrap();
    let gift = campaign("gift", "manual", "fixed", 2_000, 1).save(&app.state, &Actor::cli(), None).await.unwrap();
    let mut players = Vec::new();
    for name in ["a", "b", "c"] {
        let client = app.browser();
        let user = app.register(&client, &format!("merged-{name}@example.com")).await["uid"].as_i64().unwrap();
        match name {
            "a" => drop(deposit(app, &client, "100", Some(&id.to_string())).await),
            "b" => drop(deposit(app, &client, "10", None).await),
            _ => drop(deposit(app, &client, "100", None).await),
        }
        let token = token_for(app, &client, "dice").await;
        if name == "b" {
            // The deposit opened real play; an operator's correction takes the money back.
            let main = Account::Player { user_id: user, kind: PlayerAccount::Main };
            let corrections = Account::House(HouseAccount::Corrections);
            let taken = ledger::Entry::transfer("test-take-b", "correction", usd(), main, corrections, 1_000);
            let mut tx = app.state.db().begin().await.unwrap();
            ledger::post(&mut tx, &taken).await.unwrap();
            tx.commit().await.unwrap();
            admin::grant(&app.state, &Actor::cli(), &GrantInput { user_id: user, campaign_id: gift, reason: "test".into() }).await.unwrap();
        }
        // The first round makes the seed pair (the general path).
        let (status, first) = dice(app, &token, "0.10").await;
        assert_eq!(status, StatusCode::OK, "{first}");
        players.push((client, user, token, first));
    }
    let in_flight: Vec<(String, usize, usize)> = players
        .iter()
        .enumerate()
        .map(|(p, (_, _, token, _))| if p == 1 { (token.clone(), 2, 6) } else { (token.clone(), 4, 12) })
        .collect();
    let answers = dice_rounds_in_flight(app, &in_flight, "over").await;
    let pool = app.state.db().pool();
    for (p, (client, user, _, first)) in players.iter().enumerate() {
        let mut played: Vec<&Value> = answers.iter().filter(|a| a.0 == p).map(|a| {
            assert_eq!(a.1, StatusCode::OK, "player {p}: {}", a.2);
            &a.2
        }).collect();
        assert_eq!(played.len(), if p == 1 { 12 } else { 48 });
        played.sort_by_key(|r| r["nonce"].as_i64().unwrap());
        let mut balance = minor(&first["balance"]);
        for r in &played {
            balance = balance - 100 + minor(&r["win"]);
            assert_eq!(minor(&r["balance"]), balance, "player {p}: main plus bonus money, round after round: {r}");
        }
        let bonus_money = account(app, *user, PlayerAccount::Bonus).await;
        assert_eq!(account(app, *user, PlayerAccount::Main).await + bonus_money, balance, "player {p}");
        // What each bet counted is on its record, and the records sum to the bonus's wagering.
        let (counted, bets_counting): (i64, i64) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(w.bonus_wagered), 0) AS BIGINT), CAST(COUNT(w.bonus_id) AS BIGINT) FROM wallet_transactions w \
             JOIN game_rounds r ON r.id = w.round_id WHERE r.user_id = $1 AND w.kind = 'bet'",
        )
        .bind(user)
        .fetch_one(pool)
        .await
        .unwrap();
        let bonus: Option<(i64, String, i64)> =
            sqlx::query_as("SELECT wagered, status, balance FROM player_bonuses WHERE user_id = $1")
                .bind(user)
                .fetch_optional(pool)
                .await
                .unwrap();
        match p {
            0 => {
                // 0.05 + 40 × 0.50: the 40th round of 1.00 met the target and completed it; the
                // 8 after it had no bonus to count towards.
                assert_eq!(bonus, Some((2_005, "completed".to_owned(), 0)), "{bonus:?}");
                assert_eq!((counted, bets_counting), (2_005, 41));
                assert_eq!(bonus_money, 0);
                let done = bonuses(app, client, "completed").await;
                assert_eq!(done.len(), 1, "{done:?}");
            }
            1 => {
                let (wagered, status, left) = bonus.clone().unwrap();
                assert_eq!((wagered, status.as_str()), (5 + 12 * 50, "wagering"), "{bonus:?}");
                assert_eq!((counted, bets_counting), (5 + 12 * 50, 13));
                assert_eq!(left, bonus_money, "the bonus's balance is the bonus account's");
                assert_eq!(account(app, *user, PlayerAccount::Main).await, 0, "B's wins went to the bonus that staked them");
                let staked: i64 = sqlx::query_scalar(
                    "SELECT CAST(COUNT(*) AS BIGINT) FROM bonus_stakes s JOIN player_bonuses b ON b.id = s.bonus_id WHERE b.user_id = $1",
                )
                .bind(user)
                .fetch_one(pool)
                .await
                .unwrap();
                assert_eq!(staked, 13, "every stake took bonus money and is recorded");
            }
            _ => {
                assert_eq!(bonus, None);
                assert_eq!((counted, bets_counting), (0, 0));
            }
        }
    }
    ledger_clean(app).await;
});
