//! `auth.telegram`: mini-app sign-in from init data signed with the bot token.

use crate::db_test;
use crate::helpers::{Backend, TestApp, expect_error};
use croupier_shared::telegram::deep_link::{self, DeepLink, Limit, TrackingKey};
use croupier_shared::telegram::init_data::sign_hmac;
use reqwest::StatusCode;
use serde_json::json;

const TOKEN: &str = "123456789:TEST-bot-token-for-croupier";

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

fn init_data(user_id: i64, language: &str, auth_date: u64, start_param: Option<&str>) -> String {
    let user =
        json!({"id": user_id, "first_name": "Zoé", "username": "zoe_plays", "language_code": language}).to_string();
    let date = auth_date.to_string();
    let mut fields =
        vec![("auth_date", date.as_str()), ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc"), ("user", user.as_str())];
    if let Some(p) = start_param {
        fields.push(("start_param", p));
    }
    sign_hmac(&fields, TOKEN)
}

async fn app_with_bot(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, &[("TELEGRAM_BOT_TOKEN", TOKEN)], |_| {}).await
}

db_test!(async fn a_telegram_user_lands_signed_in_with_the_payloads_promo_code(app) {
    let _ = app;
    let app = app_with_bot(app.backend).await;
    let link = DeepLink { promo_code: Some("WELCOME50".into()), tracking: vec![(TrackingKey::TrackId, "td7".into())], ..DeepLink::default() };
    let payload = deep_link::encode(&link, Limit::StartApp).unwrap();
    let raw = init_data(777_001, "fr", now(), Some(&payload));
    let browser = app.browser();
    let (status, body) = app.post_as(&browser, "auth.telegram", &[("init_data", raw.as_str()), ("is_tg", "1"), ("id", "777001")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let uid = body["data"]["uid"].as_i64().unwrap();
    assert!(uid > 0);
    assert_eq!(body["data"]["locale"], "fr");
    assert_eq!(body["data"]["is_registration_completed"], false, "currency and terms come next");
    let (promo, tracking): (Option<String>, Option<String>) =
        sqlx::query_as("SELECT promo_code, tracking FROM users WHERE id = $1").bind(uid).fetch_one(app.state.db().pool()).await.unwrap();
    assert_eq!(promo.as_deref(), Some("WELCOME50"));
    assert!(tracking.unwrap().contains("\"track_id\":\"td7\""));
    let (_, me) = app.get_as(&browser, "account.getInfo", &[]).await;
    assert_eq!(me["data"]["uid"], uid, "the session cookie is set");

    let again = app.browser();
    let (_, body) = app.post_as(&again, "auth.telegram", &[("init_data", init_data(777_001, "fr", now(), None).as_str())]).await;
    assert_eq!(body["data"]["uid"], uid, "the same Telegram user is the same account");
    app.finish().await;
});

db_test!(async fn forged_stale_or_mismatched_init_data_creates_nothing(app) {
    let _ = app;
    let app = app_with_bot(app.backend).await;
    let good = init_data(42, "en", now(), None);
    let tampered = good.replace("zoe_plays", "admin");
    let stale = init_data(42, "en", now() - 2 * 24 * 3600, None);
    let other_bot = sign_hmac(&[("auth_date", &now().to_string()), ("user", "{\"id\":42,\"first_name\":\"X\"}")], "999:other-token");
    for (raw, id, reason) in [
        (tampered.as_str(), "", "invalid_init_data"),
        (stale.as_str(), "", "invalid_init_data"),
        (other_bot.as_str(), "", "invalid_init_data"),
        ("auth_date=1&hash=00", "", "invalid_init_data"),
        (good.as_str(), "43", "user_mismatch"),
    ] {
        let (status, body) = app.api_post("auth.telegram", &[("init_data", raw), ("id", id)]).await;
        let error = expect_error(status, &body, 401, "AuthorizationException");
        assert_eq!(error["error_data"]["reason"], reason, "{raw}");
    }
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(app.state.db().pool()).await.unwrap();
    assert_eq!(users, 0, "nothing was created");
    app.finish().await;
});

#[tokio::test]
async fn without_a_bot_token_telegram_sign_in_is_refused() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) =
        app.api_post("auth.telegram", &[("init_data", init_data(1, "en", now(), None).as_str())]).await;
    let error = expect_error(status, &body, 401, "AuthorizationException");
    assert_eq!(error["error_data"]["reason"], "telegram_not_configured");
    app.finish().await;
}
