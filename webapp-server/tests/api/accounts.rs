//! Accounts and sign-in (issue 3): registration, login with two-factor, sessions, restore.

use crate::db_test;
use crate::helpers::{Backend, TestApp, expect_error, read_json};
use reqwest::StatusCode;
use serde_json::Value;

fn field<'a>(body: &'a Value, name: &str) -> &'a Value {
    &body["error"]["error_data"][name][0]
}

db_test!(async fn registration_signs_the_player_in_and_get_info_describes_the_account(app) {
    let (_, guest) = app.api_get("account.getInfo", &[]).await;
    assert_eq!(guest["data"]["uid"], 0);
    assert_eq!(guest["data"]["balance_main"]["currency"], "USD");

    let info = app.register(&app.client, "Ann@Example.com").await;
    assert!(info["uid"].as_i64().unwrap() > 0);
    assert_eq!(info["login"], "ann@example.com");
    assert_eq!(info["currency"], "USD");
    assert_eq!(info["balance_main"], serde_json::json!({"amount": "0.00", "currency": "USD"}));
    assert_eq!(info["is_registration_completed"], true);
    assert_eq!(info["two_factor_auth"], false);
    assert_eq!(info["is_subscribed"], true);
    for key in ["reg_time", "fakename", "balance_bonus", "balance_betting_bonus", "balance_fun", "is_on_verification",
        "is_verified", "is_kyc_block_enabled", "country_code", "locale", "id"] {
        assert!(info.get(key).is_some(), "account info lacks {key}: {info}");
    }
    let (status, again) = app.api_get("account.getInfo", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["data"]["uid"], info["uid"], "the session cookie signs the player in");
    assert_eq!(app.mailbox_count("ann@example.com").await, 1, "a confirmation code was sent");
});

db_test!(async fn registration_names_every_invalid_field(app) {
    let form = [("email", "not-an-email"), ("password", "abc"), ("currency", ""), ("terms", "0"), ("fakename", "ab")];
    let (status, body) = app.api_post("auth.register", &form).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "email"), "EMAIL");
    assert_eq!(*field(&body, "password"), "MIN_LENGTH");
    assert_eq!(*field(&body, "currency"), "REQUIRED");
    assert_eq!(*field(&body, "terms"), "UNCHECKED");
    assert_eq!(*field(&body, "fakename"), "MIN_LENGTH");
    assert_eq!(body["error"]["message"], "Wrong email address");

    let form = [("email", "a@b.co"), ("password", "secret 12"), ("currency", "XXX"), ("terms", "1")];
    let (status, body) = app.api_post("auth.register", &form).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "password"), "PASSWORD");
    assert!(body["error"]["message"].as_str().unwrap().starts_with("Wrong password"), "{body}");

    let form = [("email", "a@b.co"), ("password", "secret12"), ("currency", "JPY"), ("terms", "1")];
    let (status, body) = app.api_post("auth.register", &form).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "currency"), "UNSUPPORTED", "a currency the site does not offer");
    let (_, info) = app.api_get("account.getInfo", &[]).await;
    assert_eq!(info["data"]["uid"], 0, "nothing was created");
});

db_test!(async fn an_email_or_fakename_in_use_is_taken(app) {
    let form = [("email", "bob@example.com"), ("password", "secret123"), ("currency", "EUR"), ("terms", "1"), ("fakename", "BobTheBold")];
    let (status, _) = app.post_as(&app.browser(), "auth.register", &form).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app.post_as(&app.browser(), "auth.register", &form).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "fakename"), "TAKEN");
    let form = [("email", "BOB@example.com"), ("password", "secret123"), ("currency", "EUR"), ("terms", "1")];
    let (status, body) = app.post_as(&app.browser(), "auth.register", &form).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "email"), "TAKEN");
});

db_test!(async fn a_phone_registration_logs_in_with_digits_and_no_plus(app) {
    let form = [("phone", "6 12 34 56 78"), ("phone_country_code", "+33"), ("password", "secret123"), ("currency", "EUR"), ("terms", "1")];
    let (status, body) = app.post_as(&app.browser(), "auth.register", &form).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["login"], "33612345678");
    assert_eq!(app.mailbox_count("33612345678").await, 1, "the SMS sandbox delivered the code");
    let browser = app.browser();
    let (status, body) = app.post_as(&browser, "auth.login", &[("login", "33612345678"), ("password", "secret123")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app.post_as(&app.browser(), "auth.register", &[("phone", "12"), ("phone_country_code", "33"), ("password", "secret123"), ("currency", "EUR"), ("terms", "1")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "phone"), "PHONE");
});

db_test!(async fn a_wrong_password_and_an_unknown_login_get_the_same_answer(app) {
    app.register(&app.browser(), "carl@example.com").await;
    let (s1, wrong) = app.api_post("auth.login", &[("login", "carl@example.com"), ("password", "nottheone")]).await;
    let (s2, unknown) = app.api_post("auth.login", &[("login", "nobody@example.com"), ("password", "nottheone")]).await;
    expect_error(s1, &wrong, 422, "InvalidParameterException");
    assert_eq!(s1, s2);
    assert_eq!(wrong, unknown);
    assert_eq!(*field(&wrong, "password"), "WRONG_CREDENTIALS");
    let (status, body) = app.api_post("auth.login", &[("login", ""), ("password", "")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "login"), "REQUIRED");
});

db_test!(async fn register_confirm_logout_two_factor_login_and_restore_is_one_journey(app) {
    let browser = app.browser();
    let email = "journey@example.com";
    app.register(&browser, email).await;

    // Confirm the e-mail with the code from the dev mailbox; a wrong code first.
    let (status, body) = app.post_as(&browser, "account.confirmContact", &[("contact", email), ("code", "000000")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "code"), "CODE_INVALID");
    let code = app.last_code(email).await;
    let (status, body) = app.post_as(&browser, "account.confirmContact", &[("contact", email), ("code", &code)]).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)), "{body}");
    let (_, profile) = app.get_as(&browser, "account.getprofileinfo", &[("fields", "contacts")]).await;
    assert_eq!(profile["data"]["contacts"][0]["is_confirmed"], true, "{profile}");

    // Turn two-factor on: a code to the login contact, then its confirmation.
    let (status, body) = app.post_as(&browser, "account.changeTwoFactorAuth", &[("enable", "1")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["resend_time"], 60);
    let code = app.last_code(email).await;
    let (status, _) = app.post_as(&browser, "account.confirmTwoFactorAuth", &[("code", &code)]).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app.post_as(&browser, "account.changeTwoFactorAuth", &[("enable", "1")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "enable"), "ALREADY_ENABLED");

    // Log out.
    let (status, body) = app.get_as(&browser, "auth.logout", &[]).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)));
    let (_, info) = app.get_as(&browser, "account.getInfo", &[]).await;
    assert_eq!(info["data"]["uid"], 0);

    // Log in: the password alone is not enough.
    let credentials = [("login", email), ("password", "secret123")];
    let (status, body) = app.post_as(&browser, "auth.login", &credentials).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "code"), "TWO_FACTOR_REQUIRED");
    assert_eq!(body["error"]["error_data"]["resend_time"], 60);
    assert!(body["error"]["message"].as_str().unwrap().contains("Two-factor"), "{body}");
    let (status, body) = app.post_as(&browser, "auth.login", &credentials).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "code"), "RESEND_TIME", "no second code before the resend time");
    assert!(body["error"]["error_data"]["resend_time"].as_i64().unwrap() > 0);
    let (status, body) = app.post_as(&browser, "auth.login", &[("login", email), ("password", "secret123"), ("code", "12345")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "code"), "CODE_LENGTH");
    assert_eq!(body["error"]["message"], "The code must contain 6 digits");
    let code = app.last_code(email).await;
    let wrong = if code == "111111" { "222222" } else { "111111" };
    let (status, body) = app.post_as(&browser, "auth.login", &[("login", email), ("password", "secret123"), ("code", wrong)]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "code"), "CODE_INVALID");
    let (status, body) = app.post_as(&browser, "auth.login", &[("login", email), ("password", "secret123"), ("code", &code)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["two_factor_auth"], true);
    let (status, body) = app.post_as(&app.browser(), "auth.login", &[("login", email), ("password", "secret123"), ("code", &code)]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "code"), "CODE_EXPIRED", "a used code does not work twice");

    // Restore the password from another browser.
    let other = app.browser();
    let (status, body) = app.post_as(&other, "auth.restore", &[("login", email)]).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)));
    let code = app.last_code(email).await;
    let form = [("login", email), ("code", code.as_str()), ("password", "newsecret9"), ("password_repeat", "newsecret9")];
    let (status, body) = app.post_as(&other, "auth.restore", &form).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, info) = app.get_as(&browser, "account.getInfo", &[]).await;
    assert_eq!(info["data"]["uid"], 0, "a reset ends the other sessions");
    let (_, info) = app.get_as(&other, "account.getInfo", &[]).await;
    assert!(info["data"]["uid"].as_i64().unwrap() > 0, "the reset signs in");
    let (status, _) = app.post_as(&app.browser(), "auth.login", &[("login", email), ("password", "secret123")]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "the old password is gone");
});

db_test!(async fn restore_never_reveals_whether_an_account_exists(app) {
    let (status, body) = app.api_post("auth.restore", &[("login", "ghost@example.com")]).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)));
    assert_eq!(app.mailbox_count("ghost@example.com").await, 0);
    let form = [("login", "ghost@example.com"), ("code", "123456"), ("password", "newsecret9")];
    let (status, body) = app.api_post("auth.restore", &form).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "code"), "CODE_INVALID");
});

db_test!(async fn five_wrong_codes_use_a_code_up(app) {
    let browser = app.browser();
    app.register(&browser, "tries@example.com").await;
    let code = app.last_code("tries@example.com").await;
    let wrong = if code == "999999" { "888888" } else { "999999" };
    for _ in 0..5 {
        let (_, body) = app.post_as(&browser, "account.confirmContact", &[("contact", "tries@example.com"), ("code", wrong)]).await;
        assert_eq!(*field(&body, "code"), "CODE_INVALID");
    }
    let (_, body) = app.post_as(&browser, "account.confirmContact", &[("contact", "tries@example.com"), ("code", &code)]).await;
    assert_eq!(*field(&body, "code"), "CODE_EXPIRED", "the right code no longer works after 5 misses");
});

db_test!(async fn the_session_cookie_is_http_only_and_renewed_at_every_login(app) {
    let browser = app.browser();
    let form = [("email", "cookie@example.com"), ("password", "secret123"), ("currency", "USD"), ("terms", "1")];
    let response = browser.post(app.api_url("auth.register", "en", &[])).form(&form).send().await.unwrap();
    let first = response.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(first.starts_with("croupier_session="), "{first}");
    assert!(first.contains("HttpOnly") && first.contains("SameSite=Lax") && first.contains("Path=/"), "{first}");
    assert!(!first.contains("Secure"), "no Secure cookie over plain HTTP in dev");
    let login = [("login", "cookie@example.com"), ("password", "secret123")];
    let response = browser.post(app.api_url("auth.login", "en", &[])).form(&login).send().await.unwrap();
    let second = response.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert_ne!(first.split(';').next(), second.split(';').next(), "a new session id at every login");
    let stolen = first.split(';').next().unwrap().to_owned();
    let response = app.browser().get(app.api_url("account.getInfo", "en", &[])).header("cookie", &stolen).send().await.unwrap();
    let clear = response.headers().get("set-cookie").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    let (_, body) = read_json(response).await;
    assert_eq!(body["data"]["uid"], 0, "the replaced session no longer signs in");
    assert!(clear.contains("Max-Age=0"), "a dead cookie is cleared: {clear}");
});

db_test!(async fn a_password_change_ends_every_other_session(app) {
    let first = app.browser();
    app.register(&first, "pw@example.com").await;
    let second = app.browser();
    let (status, _) = app.post_as(&second, "auth.login", &[("login", "pw@example.com"), ("password", "secret123")]).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app.post_as(&first, "account.changepassword", &[("old_password", "wrongwrong"), ("new_password", "another12")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "old_password"), "PASSWORD");
    let form = [("old_password", "secret123"), ("new_password", "another12"), ("new_password_repeat", "another13")];
    let (_, body) = app.post_as(&first, "account.changepassword", &form).await;
    assert_eq!(*field(&body, "new_password_repeat"), "SAME_AS");
    let (status, _) = app.post_as(&first, "account.changepassword", &[("old_password", "secret123"), ("new_password", "another12")]).await;
    assert_eq!(status, StatusCode::OK);
    let (_, mine) = app.get_as(&first, "account.getInfo", &[]).await;
    let (_, theirs) = app.get_as(&second, "account.getInfo", &[]).await;
    assert!(mine["data"]["uid"].as_i64().unwrap() > 0, "the changing session stays");
    assert_eq!(theirs["data"]["uid"], 0, "the other session ended");
});

#[tokio::test]
async fn an_idle_session_ends_after_the_forced_logout_time() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_FORCE_LOGOUT_SECONDS", "1")], |_| {}).await;
    app.register(&app.client, "idle@example.com").await;
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let (_, info) = app.api_get("account.getInfo", &[]).await;
    assert_eq!(info["data"]["uid"], 0);
    app.finish().await;
}

db_test!(async fn a_banned_player_is_refused_on_every_call_and_a_deleted_one_is_signed_out(app) {
    let browser = app.browser();
    let info = app.register(&browser, "banned@example.com").await;
    let id = info["uid"].as_i64().unwrap();
    app.sql("UPDATE users SET status = 'banned', ban_type = $1 WHERE id = $2", "self_exclusion", id).await;
    for method in ["account.getInfo", "metadata.getgeneralinfo"] {
        let (status, body) = app.get_as(&browser, method, &[]).await;
        let error = expect_error(status, &body, 403, "UserBannedException");
        assert_eq!(error["error_data"]["ban_type"], "self_exclusion");
    }
    let (status, body) = app.post_as(&app.browser(), "auth.login", &[("login", "banned@example.com"), ("password", "secret123")]).await;
    expect_error(status, &body, 403, "UserBannedException");

    let other = app.browser();
    let info = app.register(&other, "gone@example.com").await;
    app.sql("UPDATE users SET status = $1 WHERE id = $2", "deleted", info["uid"].as_i64().unwrap()).await;
    let (status, body) = app.get_as(&other, "account.getInfo", &[]).await;
    expect_error(status, &body, 401, "UserDeletedException");
    let (_, body) = app.get_as(&other, "account.getInfo", &[]).await;
    assert_eq!(body["data"]["uid"], 0, "the deleted account's session is gone");
});

db_test!(async fn guessing_passwords_is_rate_limited(app) {
    app.register(&app.browser(), "target@example.com").await;
    let mut last = (StatusCode::OK, Value::Null);
    for _ in 0..11 {
        last = app.api_post("auth.login", &[("login", "target@example.com"), ("password", "guess-123")]).await;
    }
    let error = expect_error(last.0, &last.1, 429, "TooManyRequestsException");
    assert!(error["error_data"]["retry_after"].as_u64().unwrap() > 0);
    let response = app.client.post(app.api_url("auth.login", "en", &[])).form(&[("login", "target@example.com"), ("password", "secret123")]).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS, "even the right password waits");
    assert!(response.headers().contains_key("retry-after"));
});

db_test!(async fn guests_cannot_use_account_methods(app) {
    for method in ["account.getprofileinfo", "Account.getPersonalDataFields"] {
        let (status, body) = app.api_get(method, &[]).await;
        expect_error(status, &body, 401, "AuthorizationException");
    }
    let (status, body) = app.api_post("account.changefakename", &[("fakename", "Someone1")]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    let (status, body) = app.api_post("account.changelocale", &[("locale", "fr")]).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)), "a guest's language switch is fine");
});

#[tokio::test]
async fn a_short_idle_limit_keeps_an_active_session_alive() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_FORCE_LOGOUT_SECONDS", "2")], |_| {}).await;
    app.register(&app.client, "active@example.com").await;
    for _ in 0..6 {
        tokio::time::sleep(std::time::Duration::from_millis(700)).await;
        let (_, info) = app.api_get("account.getInfo", &[]).await;
        assert!(info["data"]["uid"].as_i64().unwrap() > 0, "calls keep the session alive");
    }
    app.finish().await;
}
