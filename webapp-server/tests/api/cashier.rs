//! The cashier: deposits through the sandbox provider, webhooks, limits, withdrawals.

use crate::db_test;
use crate::helpers::{Backend, TestApp, expect_error, read_json};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn field<'a>(body: &'a Value, name: &str) -> &'a Value {
    &body["error"]["error_data"][name][0]
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder().cookie_store(true).redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// Starts a deposit and answers its id and the sandbox page's address on this test server.
pub(crate) async fn start_deposit(
    app: &TestApp,
    client: &reqwest::Client,
    method: &str,
    amount: &str,
) -> (String, String) {
    let mut form = vec![("method", method), ("amount", amount)];
    if method == "sandbox_bank" {
        form.push(("requisites", "bank=sandbox-post\niban=FR7630006000011234567890189"));
    }
    let (status, body) = app.post_as(client, "cashier.makedeposit", &form).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["status"], "pending");
    let id = body["data"]["id"].as_str().unwrap().to_owned();
    let url = body["data"]["redirect_url"].as_str().unwrap().replace("http://localhost:8080", &app.url(""));
    assert!(url.ends_with(&format!("/sandbox/pay/{id}")), "{url}");
    (id, url)
}

/// Chooses an outcome on the sandbox page; answers where the browser is sent.
pub(crate) async fn choose(page: &str, outcome: &str) -> String {
    let response = no_redirects().post(page).form(&[("outcome", outcome)]).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    response.headers()["location"].to_str().unwrap().to_owned()
}

pub(crate) async fn deposit(app: &TestApp, client: &reqwest::Client, method: &str, amount: &str) -> String {
    let (id, page) = start_deposit(app, client, method, amount).await;
    assert_eq!(choose(&page, "success").await, format!("/cashier/paysuccess/{id}"));
    id
}

async fn balance(app: &TestApp, client: &reqwest::Client) -> String {
    let (_, body) = app.get_as(client, "account.getBalance", &[]).await;
    body["data"]["balance_main"]["amount"].as_str().unwrap_or_else(|| panic!("{body}")).to_owned()
}

async fn ledger_is_clean(app: &TestApp) {
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

/// The profile a withdrawal needs, complete.
pub(crate) const WITHDRAWAL_PROFILE: [(&str, &str); 7] = [
    ("first_name", "Ann"),
    ("last_name", "Lee"),
    ("birth_date", "01.02.1985"),
    ("country_code", "GB"),
    ("home_town", "Leeds"),
    ("address", "2 Park Row"),
    ("postcode", "12345"),
];

/// A player who may withdraw: confirmed e-mail and a complete profile.
pub(crate) async fn verified_player(app: &TestApp, email: &str) -> reqwest::Client {
    let client = app.browser();
    app.register(&client, email).await;
    let code = app.last_code(email).await;
    app.post_as(&client, "account.confirmContact", &[("contact", email), ("code", &code)]).await;
    let (status, body) = app.post_as(&client, "account.saveProfileInfo", &WITHDRAWAL_PROFILE).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    client
}

db_test!(async fn a_sandbox_deposit_is_credited_once_and_shows_in_history(app) {
    let client = app.browser();
    app.register(&client, "dep@example.com").await;
    let (_, settings) = app.get_as(&client, "cashier.getdepositsettings", &[]).await;
    let card = settings["data"]["methods"].as_array().unwrap().iter().find(|m| m["sysname"] == "sandbox_card").unwrap().clone();
    assert_eq!(card["min"], json!({"amount": "10.00", "currency": "USD"}));
    assert_eq!(settings["data"]["amount_presets"][0]["amount"][1]["value"], 50);

    let (id, page) = start_deposit(app, &client, "sandbox_card", "50").await;
    let html = reqwest::get(&page).await.unwrap().text().await.unwrap();
    assert!(html.contains("50.00 USD") && html.contains("value=\"pending\""), "{html}");
    assert_eq!(balance(app, &client).await, "0.00", "nothing before the provider answers");
    assert_eq!(choose(&page, "success").await, format!("/cashier/paysuccess/{id}"));
    assert_eq!(balance(app, &client).await, "50.00");
    assert_eq!(choose(&page, "success").await, format!("/cashier/paysuccess/{id}"), "a finished payment stays finished");
    assert_eq!(balance(app, &client).await, "50.00");

    let (_, info) = app.get_as(&client, "cashier.getdepositinfo", &[("id", &id)]).await;
    assert_eq!((info["data"]["status"].as_str(), info["data"]["type"].as_str()), (Some("success"), Some("deposit")));
    assert_eq!(info["data"]["amount"], json!({"amount": "50.00", "currency": "USD"}));
    let stranger = app.browser();
    app.register(&stranger, "stranger@example.com").await;
    let (status, body) = app.get_as(&stranger, "cashier.getdepositinfo", &[("id", &id)]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "id"), "NOT_FOUND", "another player's payment does not exist for them");

    let (_, history) = app.get_as(&client, "cashier.gethistory", &[("type", "deposit")]).await;
    assert_eq!(history["data"]["total"], 1);
    assert_eq!(history["data"]["items"][0]["id"], id.as_str());
    let (_, none) = app.get_as(&client, "cashier.gethistory", &[("type", "deposit"), ("statuses", "fail,cancel")]).await;
    assert_eq!(none["data"]["total"], 0);
    let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
    assert_eq!(me["data"]["balance_main"]["amount"], "50.00");
    let (_, body) = app.post_as(&client, "account.setCurrency", &[("currency", "EUR")]).await;
    assert_eq!(*field(&body, "currency"), "LOCKED", "money moved: the currency is fixed");
    ledger_is_clean(app).await;
});

db_test!(async fn failed_cancelled_and_pending_deposits_land_on_their_pages(app) {
    let client = app.browser();
    app.register(&client, "outcomes@example.com").await;
    for outcome in ["fail", "cancel"] {
        let (id, page) = start_deposit(app, &client, "sandbox_card", "20").await;
        assert_eq!(choose(&page, outcome).await, format!("/cashier/pay{outcome}/{id}"));
        let (_, info) = app.get_as(&client, "cashier.getdepositinfo", &[("id", &id)]).await;
        assert_eq!(info["data"]["status"], outcome);
    }
    let (id, page) = start_deposit(app, &client, "sandbox_card", "30").await;
    assert_eq!(choose(&page, "pending").await, format!("/cashier/paypending/{id}"));
    let (_, info) = app.get_as(&client, "cashier.getdepositinfo", &[("id", &id)]).await;
    assert_eq!(info["data"]["status"], "pending");
    assert_eq!(balance(app, &client).await, "0.00");
    assert_eq!(choose(&page, "success").await, format!("/cashier/paysuccess/{id}"), "a pending payment settles later");
    assert_eq!(balance(app, &client).await, "30.00");
    ledger_is_clean(app).await;
});

db_test!(async fn a_lost_webhook_is_made_good_by_the_status_poll(app) {
    let client = app.browser();
    app.register(&client, "poll@example.com").await;
    let (id, _) = start_deposit(app, &client, "sandbox_card", "40").await;
    // The provider says success but its webhook never arrives.
    sqlx::query("UPDATE sandbox_payments SET status = 'success' WHERE id = $1").bind(&id).execute(app.state.db().pool()).await.unwrap();
    sqlx::query("UPDATE payments SET updated_at = updated_at - 120000 WHERE id = $1").bind(&id).execute(app.state.db().pool()).await.unwrap();
    croupier_server::features::cashier::deposits::poll_pending(app.state.platform().clone()).await.unwrap();
    assert_eq!(balance(app, &client).await, "40.00");
    croupier_server::features::cashier::deposits::poll_pending(app.state.platform().clone()).await.unwrap();
    assert_eq!(balance(app, &client).await, "40.00", "polling again credits nothing more");
});

async fn send_webhook(app: &TestApp, event: &Value, timestamp: i64, secret: &[u8]) -> (StatusCode, Value) {
    let body = serde_json::to_vec(event).unwrap();
    let signature = croupier_server::payments::sign(secret, timestamp, &body);
    let response = reqwest::Client::new()
        .post(app.url("/webhooks/payments/sandbox"))
        .header("content-type", "application/json")
        .header("x-croupier-timestamp", timestamp.to_string())
        .header("x-croupier-signature", signature)
        .body(body)
        .send()
        .await
        .unwrap();
    read_json(response).await
}

db_test!(async fn webhooks_must_be_signed_fresh_consistent_and_are_handled_once(app) {
    let client = app.browser();
    app.register(&client, "hook@example.com").await;
    let (id, _) = start_deposit(app, &client, "sandbox_card", "25").await;
    let secret = app.state.payments().provider("sandbox").expect("the sandbox runs").webhook_secret();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let event = json!({"event_id": "evt-1", "payment_id": id, "status": "success", "amount": 2500, "currency": "USD"});

    let (status, _) = send_webhook(app, &event, now, b"not the secret").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a bad signature");
    let (status, _) = send_webhook(app, &event, now - 3600, &secret).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a stale timestamp");
    let unsigned = reqwest::Client::new().post(app.url("/webhooks/payments/sandbox")).body(event.to_string()).send().await.unwrap();
    assert_eq!(unsigned.status(), StatusCode::UNAUTHORIZED, "no signature at all");
    let mismatch = json!({"event_id": "evt-2", "payment_id": id, "status": "success", "amount": 999999, "currency": "USD"});
    let (status, body) = send_webhook(app, &mismatch, now, &secret).await;
    assert_eq!((status, body["status"].as_str()), (StatusCode::BAD_REQUEST, Some("payment mismatch")));
    assert_eq!(balance(app, &client).await, "0.00", "nothing moved so far");

    let (status, body) = send_webhook(app, &event, now, &secret).await;
    assert_eq!((status, body["status"].as_str()), (StatusCode::OK, Some("ok")));
    let (status, body) = send_webhook(app, &event, now, &secret).await;
    assert_eq!((status, body["status"].as_str()), (StatusCode::OK, Some("duplicate")), "a replay");
    let again = json!({"event_id": "evt-3", "payment_id": id, "status": "success", "amount": 2500, "currency": "USD"});
    let (status, _) = send_webhook(app, &again, now, &secret).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(balance(app, &client).await, "25.00", "credited exactly once");
    let late_fail = json!({"event_id": "evt-4", "payment_id": id, "status": "fail", "amount": 2500, "currency": "USD"});
    send_webhook(app, &late_fail, now, &secret).await;
    assert_eq!(balance(app, &client).await, "25.00", "a finished deposit does not change");
    ledger_is_clean(app).await;
});

db_test!(async fn deposit_amounts_follow_the_sum_rule_and_the_method_bounds(app) {
    let client = app.browser();
    app.register(&client, "bounds@example.com").await;
    for (amount, code) in [("05", "INVALID"), ("12.5", "INVALID"), ("5", "MIN_VALUE"), ("5001", "MAX_VALUE")] {
        let (status, body) = app.post_as(&client, "cashier.makedeposit", &[("method", "sandbox_card"), ("amount", amount)]).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(*field(&body, "amount"), code, "{amount}");
    }
    let (_, body) = app.post_as(&client, "cashier.makedeposit", &[("method", "sandbox_card"), ("amount", "5")]).await;
    assert_eq!(body["error"]["message"], "Min value is 10 USD");
    let (_, body) = app.post_as(&client, "cashier.makedeposit", &[("method", "bitcoin"), ("amount", "50")]).await;
    assert_eq!(*field(&body, "method"), "UNSUPPORTED");
    let (status, body) = app.api_post("cashier.makedeposit", &[("method", "sandbox_card"), ("amount", "50")]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    let (_, history) = app.get_as(&client, "cashier.gethistory", &[]).await;
    assert_eq!(history["data"]["total"], 0, "refused deposits leave nothing behind");
});

db_test!(async fn deposit_limits_bind_at_once_when_lowered_and_a_day_later_when_raised(app) {
    let client = app.browser();
    app.register(&client, "limits@example.com").await;
    let (status, _) = app.post_as(&client, "account.setDepositLimit", &[("period", "day"), ("amount", "100")]).await;
    assert_eq!(status, StatusCode::OK);
    deposit(app, &client, "sandbox_card", "60").await;
    let (_pending_id, _) = start_deposit(app, &client, "sandbox_card", "20").await;
    let (status, body) = app.post_as(&client, "cashier.makedeposit", &[("method", "sandbox_card"), ("amount", "30")]).await;
    let error = expect_error(status, &body, 409, "BillingDepositLimitExceededException");
    assert_eq!(error["error_data"]["available_amount"], "20.00", "pending deposits count");
    assert_eq!(error["error_data"]["period"], "day");

    let (_, limits) = app.get_as(&client, "account.getDepositLimit", &[]).await;
    let day = limits["data"].as_array().unwrap().iter().find(|l| l["period"] == "day").unwrap().clone();
    assert_eq!(day["limit_amount"]["amount"], "100.00");
    assert_eq!(day["available_amount"]["amount"], "20.00");
    assert_eq!(day["expired_at"], Value::Null);

    app.post_as(&client, "account.setDepositLimit", &[("period", "day"), ("amount", "500")]).await;
    let (_, limits) = app.get_as(&client, "account.getDepositLimit", &[]).await;
    let day = limits["data"].as_array().unwrap().iter().find(|l| l["period"] == "day").unwrap().clone();
    assert_eq!(day["limit_amount"]["amount"], "100.00", "a raise waits 24 hours");
    assert_eq!(day["pending_limit_amount"]["amount"], "500.00");
    assert!(day["expired_at"].as_i64().unwrap() > 0);
    let (status, _) = app.post_as(&client, "cashier.makedeposit", &[("method", "sandbox_card"), ("amount", "30")]).await;
    assert_eq!(status, StatusCode::CONFLICT, "the old limit still binds");

    app.post_as(&client, "account.setDepositLimit", &[("period", "week"), ("amount", "70")]).await;
    let (_, limits) = app.get_as(&client, "account.getDepositLimit", &[]).await;
    let week = limits["data"].as_array().unwrap().iter().find(|l| l["period"] == "week").unwrap().clone();
    assert_eq!(week["limit_amount"]["amount"], "70.00", "a new limit binds at once");
    assert_eq!(week["available_amount"]["amount"], "0.00", "the lowest limit applies");

    // A day later the raise applies.
    sqlx::query("UPDATE rg_limits SET pending_from = pending_from - 86400001").execute(app.state.db().pool()).await.unwrap();
    sqlx::query("UPDATE rg_limits SET amount = NULL WHERE period = 'week'").execute(app.state.db().pool()).await.unwrap();
    let (status, body) = app.post_as(&client, "cashier.makedeposit", &[("method", "sandbox_card"), ("amount", "30")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, body) = app.post_as(&client, "account.setDepositLimit", &[("period", "year"), ("amount", "1")]).await;
    assert_eq!(*field(&body, "period"), "UNSUPPORTED");
});

db_test!(async fn a_withdrawal_needs_a_confirmed_contact_and_a_profile_and_money(app) {
    let client = app.browser();
    app.register(&client, "unready@example.com").await;
    deposit(app, &client, "sandbox_card", "100").await;
    let form = [("method", "sandbox_card"), ("amount", "50")];
    let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &form).await;
    expect_error(status, &body, 409, "UserNeedConfirmContactException");
    let code = app.last_code("unready@example.com").await;
    app.post_as(&client, "account.confirmContact", &[("contact", "unready@example.com"), ("code", &code)]).await;
    let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &form).await;
    expect_error(status, &body, 409, "UserNeedProfileDataException");
    let (_, settings) = app.get_as(&client, "cashier.getwithdrawsettings", &[]).await;
    assert_eq!(settings["data"]["requirements"]["contact_confirmed"], true);
    assert_eq!(settings["data"]["requirements"]["profile_complete"], false);

    let client = verified_player(app, "ready@example.com").await;
    deposit(app, &client, "sandbox_card", "100").await;
    let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "5")]).await;
    let error = expect_error(status, &body, 409, "WithdrawalLimitsExceededException");
    assert_eq!(error["error_data"]["min"], "10.00");
    let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "150")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "amount"), "MAX_VALUE");
    assert_eq!(body["error"]["message"], "Max value is 100.00", "the balance is the most one can withdraw");
    assert_eq!(balance(app, &client).await, "100.00");
    ledger_is_clean(app).await;
});

db_test!(async fn withdrawals_are_held_cancelled_approved_and_rejected_through_the_ledger(app) {
    let client = verified_player(app, "cash@example.com").await;
    deposit(app, &client, "sandbox_card", "300").await;
    let withdraw = |amount: &'static str| {
        let client = client.clone();
        let app = &app;
        async move {
            let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", amount)]).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["data"]["status"], "pending");
            body["data"]["id"].as_str().unwrap().to_owned()
        }
    };
    let first = withdraw("100").await;
    assert_eq!(balance(app, &client).await, "200.00", "the amount is held at the request");
    let (status, _) = app.post_as(&client, "cashier.cancelwithdrawal", &[("id", &first)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(balance(app, &client).await, "300.00", "cancelling returns it");
    let (status, body) = app.post_as(&client, "cashier.cancelwithdrawal", &[("id", &first)]).await;
    expect_error(status, &body, 409, "WithdrawalDeclinedException");

    let second = withdraw("120").await;
    let third = withdraw("80").await;
    let state = &app.state;
    use croupier_server::features::cashier::withdrawals::{Decision, approve, reject};
    assert_eq!(approve(state, &second, None).await.unwrap(), Decision::Paid);
    assert_eq!(approve(state, &second, None).await.unwrap(), Decision::NotWaiting("paid".into()), "paid once");
    assert_eq!(reject(state, &third, None).await.unwrap(), Decision::Rejected);
    assert_eq!(balance(app, &client).await, "180.00");
    let (status, _) = app.post_as(&client, "cashier.cancelwithdrawal", &[("id", &second)]).await;
    assert_eq!(status, StatusCode::CONFLICT, "a paid withdrawal cannot be cancelled");

    let (_, history) = app.get_as(&client, "cashier.gethistory", &[("type", "withdrawal"), ("count", "10")]).await;
    let statuses: Vec<&str> = history["data"]["items"].as_array().unwrap().iter().map(|i| i["status"].as_str().unwrap()).collect();
    assert_eq!(history["data"]["total"], 3);
    assert!(statuses.contains(&"paid") && statuses.contains(&"rejected") && statuses.contains(&"cancelled"), "{statuses:?}");
    ledger_is_clean(app).await;
});

db_test!(async fn a_payout_interrupted_after_its_claim_is_resumed_and_posted_once(app) {
    use croupier_server::features::cashier::withdrawals::{Decision, approve};
    let client = verified_player(app, "resume@example.com").await;
    deposit(app, &client, "sandbox_card", "300").await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "50")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        ids.push(body["data"]["id"].as_str().unwrap().to_owned());
    }
    let db = app.state.db();
    // What a server killed mid-approval leaves: the claim made, the payout not posted — once
    // before the provider was asked, once after it had paid.
    for id in &ids {
        sqlx::query("UPDATE payments SET status = 'processing' WHERE id = $1").bind(id).execute(db.pool()).await.unwrap();
    }
    let payout = app.state.platform().payments().provider("sandbox").unwrap();
    let amount = croupier_shared::Money::from_minor(5_000, croupier_shared::Currency::parse("USD").unwrap());
    payout.payout(&ids[1], amount).await.unwrap();
    assert_eq!(balance(app, &client).await, "200.00", "both are held");
    for id in &ids {
        assert_eq!(approve(&app.state, id, None).await.unwrap(), Decision::Paid, "{id} resumed");
        assert_eq!(approve(&app.state, id, None).await.unwrap(), Decision::NotWaiting("paid".into()), "{id} paid once");
        let payouts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sandbox_payments WHERE id = $1 AND kind = 'payout'")
            .bind(id)
            .fetch_one(db.pool())
            .await
            .unwrap();
        let posted: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ledger_transactions WHERE idempotency_key = $1")
            .bind(format!("withdrawal-payout:{id}"))
            .fetch_one(db.pool())
            .await
            .unwrap();
        assert_eq!((payouts, posted), (1, 1), "{id}: one payout by the provider, one posting");
    }
    assert_eq!(balance(app, &client).await, "200.00");
    ledger_is_clean(app).await;
});

#[tokio::test]
async fn the_operator_api_needs_its_token_and_approves_withdrawals() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_ADMIN_TOKEN", "operator-token-123")], |_| {}).await;
    let client = verified_player(&app, "op@example.com").await;
    deposit(&app, &client, "sandbox_card", "50").await;
    let (_, body) =
        app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "20")]).await;
    let id = body["data"]["id"].as_str().unwrap().to_owned();
    let http = reqwest::Client::new();
    for token in ["", "Bearer wrong", "operator-token-123"] {
        let response =
            http.get(app.url("/admin/withdrawals?status=pending")).header("authorization", token).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{token:?}");
    }
    let bearer = "Bearer operator-token-123";
    let list: Value = http
        .get(app.url("/admin/withdrawals?status=pending"))
        .header("authorization", bearer)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["data"]["items"][0]["withdrawal"]["id"], id.as_str());
    let done = http
        .post(app.url(&format!("/admin/withdrawals/{id}/approve")))
        .header("authorization", bearer)
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), StatusCode::OK);
    let again = http
        .post(app.url(&format!("/admin/withdrawals/{id}/reject")))
        .header("authorization", bearer)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::CONFLICT);
    let (_, info) = app.get_as(&client, "cashier.getdepositinfo", &[("id", &id)]).await;
    assert_eq!(info["data"]["status"], "paid");
    app.finish().await;
}

#[tokio::test]
async fn identity_verification_is_required_for_withdrawals_when_configured() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_KYC_FOR_WITHDRAWAL", "true")], |_| {}).await;
    let client = verified_player(&app, "kyc@example.com").await;
    deposit(&app, &client, "sandbox_card", "50").await;
    let (status, body) =
        app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "20")]).await;
    expect_error(status, &body, 409, "KycWithdrawalException");
    app.finish().await;
}

db_test!(async fn withdrawals_stop_at_the_daily_limit(app) {
    let client = verified_player(app, "daily@example.com").await;
    deposit(app, &client, "sandbox_bank", "15000").await;
    for _ in 0..2 {
        let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "5000")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "10")]).await;
    let error = expect_error(status, &body, 409, "WithdrawalLimitsPeriodExceededException");
    assert_eq!(error["error_data"]["available_amount"], "0.00");
    assert_eq!(balance(app, &client).await, "5000.00");
});

#[test]
fn ledger_check_command_reports_a_broken_ledger() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let app = runtime.block_on(async {
        let app = TestApp::spawn(Backend::Sqlite).await;
        let client = app.browser();
        app.register(&client, "cli@example.com").await;
        deposit(&app, &client, "sandbox_card", "40").await;
        app
    });
    let run = || app.cli(&["ledger", "check"]);
    let ok = run();
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stdout));
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("ledger ok: 1 transactions"));
    runtime.block_on(async {
        sqlx::query("UPDATE ledger_accounts SET balance = balance + 1 WHERE is_player = 1")
            .execute(app.state.db().pool())
            .await
            .unwrap();
    });
    let broken = run();
    assert_eq!(broken.status.code(), Some(1));
    let text = String::from_utf8_lossy(&broken.stdout);
    assert!(text.contains("VIOLATION: account") && text.contains("postings sum to 4000"), "{text}");
    // Postings have no foreign keys (migration 0013): a dangling one is the check's to find.
    runtime.block_on(async {
        sqlx::query("UPDATE ledger_accounts SET balance = balance - 1 WHERE is_player = 1")
            .execute(app.state.db().pool())
            .await
            .unwrap();
        sqlx::query("INSERT INTO ledger_postings (transaction_id, account_id, amount) VALUES (987654, 876543, 0)")
            .execute(app.state.db().pool())
            .await
            .unwrap();
    });
    let dangling = run();
    assert_eq!(dangling.status.code(), Some(1));
    let text = String::from_utf8_lossy(&dangling.stdout);
    assert!(text.contains("refers to transaction 987654, which does not exist"), "{text}");
    assert!(text.contains("refers to account 876543, which does not exist"), "{text}");
    assert!(!text.contains("postings sum to 4000"), "the balance was put back: {text}");
    runtime.block_on(app.finish());
}

#[test]
fn the_operator_command_lists_and_approves_withdrawals() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (app, id) = runtime.block_on(async {
        let app = TestApp::spawn(Backend::Sqlite).await;
        let client = verified_player(&app, "clipay@example.com").await;
        deposit(&app, &client, "sandbox_card", "60").await;
        let (_, body) =
            app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "25")]).await;
        (app, body["data"]["id"].as_str().unwrap().to_owned())
    });
    let run = |args: &[&str]| app.cli(args);
    let listed = run(&["admin", "withdrawals", "list", "pending"]);
    let text = String::from_utf8_lossy(&listed.stdout).to_string();
    assert!(listed.status.success() && text.contains(&id) && text.contains("25.00 USD"), "{text}");
    let approved = run(&["admin", "withdrawals", "approve", &id]);
    assert!(approved.status.success(), "{}", String::from_utf8_lossy(&approved.stderr));
    assert!(String::from_utf8_lossy(&approved.stdout).contains("Paid"));
    let again = run(&["admin", "withdrawals", "reject", &id]);
    assert_eq!(again.status.code(), Some(1), "a paid withdrawal cannot be rejected");
    assert!(String::from_utf8_lossy(&again.stderr).contains("status paid"));
    runtime.block_on(async {
        let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
        assert!(report.violations.is_empty(), "{:?}", report.violations);
        app.finish().await;
    });
}

db_test!(async fn banks_and_reference_rates_are_listed(app) {
    let ids = |body: &Value| -> Vec<String> {
        body["data"].as_array().unwrap_or_else(|| panic!("{body}")).iter().map(|b| b["id"].as_str().unwrap().to_owned()).collect()
    };
    // The provider's own list (CROUPIER_SANDBOX_BANKS), by currency and country.
    let (status, body) = app.api_get("cashier.getbanks", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ids(&body), ["sandbox-north", "sandbox-south", "sandbox-coop", "sandbox-post"]);
    assert_eq!(body["data"][0]["name"], "North Sandbox Bank");
    let (_, body) = app.api_get("cashier.getbanks", &[("currency", "EUR")]).await;
    assert_eq!(ids(&body), ["sandbox-coop", "sandbox-post"]);
    let (_, body) = app.api_get("cashier.getbanks", &[("currency", "EUR"), ("country", "de")]).await;
    assert_eq!(ids(&body), ["sandbox-post"]);
    let (_, body) = app.api_get("cashier.getbanks", &[("country", "GB"), ("method", "sandbox_bank")]).await;
    assert_eq!(ids(&body), ["sandbox-north", "sandbox-south", "sandbox-post"]);
    for (field, query) in [("currency", ("currency", "XXX")), ("country", ("country", "FRA")), ("method", ("method", "sandbox_card"))] {
        let (status, body) = app.api_get("cashier.getbanks", &[query]).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert!(error["error_data"][field][0].is_string(), "{body}");
    }
    // A signed-in player sees their currency's banks, and pays only through one of them.
    let client = app.browser();
    app.register(&client, "banks@example.com").await;
    let (_, body) = app.get_as(&client, "cashier.getbanks", &[]).await;
    assert_eq!(ids(&body), ["sandbox-north", "sandbox-post"], "USD");
    for (requisites, code) in [("iban=FR76", "REQUIRED"), ("bank=sandbox-coop\niban=FR76", "UNSUPPORTED"), ("bank=nowhere", "UNSUPPORTED")] {
        let (status, body) = app
            .post_as(&client, "cashier.makedeposit", &[("method", "sandbox_bank"), ("amount", "50"), ("requisites", requisites)])
            .await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"]["requisites"][0], code, "{body}");
        assert_eq!(error["error_data"]["requisite"], "bank", "{body}");
    }
    let written: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payments").fetch_one(app.state.db().pool()).await.unwrap();
    assert_eq!(written, 0, "a refused deposit writes nothing");
    let (status, body) = app
        .post_as(&client, "cashier.makedeposit", &[("method", "sandbox_bank"), ("amount", "50"), ("requisites", "bank=sandbox-north")])
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, rates) = app.api_get("account.getcurrencyrates", &[]).await;
    assert_eq!(rates["data"]["base"], "USD");
    let eur = rates["data"]["rates"].as_array().unwrap().iter().find(|r| r["currency"] == "EUR").unwrap().clone();
    assert_eq!(eur["rate"], "0.92", "rates are decimal strings, never floats");
});

db_test!(async fn a_french_player_comes_back_to_the_french_result_page(app) {
    let client = app.browser();
    app.register(&client, "retour@example.com").await;
    let (id, page) = start_deposit(app, &client, "sandbox_card", "20").await;
    let back = |cookie: &'static str| {
        no_redirects().post(page.clone()).header("cookie", cookie).form(&[("outcome", "success")]).send()
    };
    let response = back("theme=dark; i18n_locale=fr").await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], format!("/fr/cashier/paysuccess/{id}"));
    let response = back("i18n_locale=en").await.unwrap();
    assert_eq!(response.headers()["location"], format!("/cashier/paysuccess/{id}"), "a settled payment, in English");
    let response = back("i18n_locale=xx").await.unwrap();
    assert_eq!(response.headers()["location"], format!("/cashier/paysuccess/{id}"), "an unknown locale is the default");
});
