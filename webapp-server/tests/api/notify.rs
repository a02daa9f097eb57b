//! Telegram notifications through the outbox, the bot's internal API, and linking Telegram from
//! the web — against a fake Bot API started here.

use crate::db_test;
use crate::helpers::{Backend, TestApp, expect_error};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Json, Response};
use croupier_shared::telegram::login_widget;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOKEN: &str = "424242:TEST-notify-bot-token";
const SECRET: &str = "internal-secret-0123456789";

#[derive(Default)]
struct Fake {
    sent: Mutex<Vec<Value>>,
    blocked: Mutex<HashSet<i64>>,
    /// Updates the next getUpdates hands out.
    updates: Mutex<Vec<Value>>,
    /// answerCallbackQuery calls.
    answers: Mutex<Vec<Value>>,
}

async fn bot_api(State(fake): State<Arc<Fake>>, Path((_bot, method)): Path<(String, String)>, body: Bytes) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    if method.eq_ignore_ascii_case("getMe") {
        return Json(json!({"ok": true, "result": {
            "id": 424_242, "is_bot": true, "first_name": "Croupier", "username": "croupier_bot",
            "can_join_groups": true, "can_read_all_group_messages": false, "supports_inline_queries": false,
            "has_main_web_app": true
        }}))
        .into_response();
    }
    if method.eq_ignore_ascii_case("getUpdates") {
        let pending: Vec<Value> = fake.updates.lock().unwrap().drain(..).collect();
        if pending.is_empty() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        return Json(json!({"ok": true, "result": pending})).into_response();
    }
    if method.eq_ignore_ascii_case("answerCallbackQuery") {
        fake.answers.lock().unwrap().push(body);
        return Json(json!({"ok": true, "result": true})).into_response();
    }
    if !method.eq_ignore_ascii_case("sendMessage") {
        return Json(json!({"ok": true, "result": true})).into_response();
    }
    let chat = body["chat_id"].as_i64().unwrap();
    if fake.blocked.lock().unwrap().contains(&chat) {
        let answer = json!({"ok": false, "error_code": 403, "description": "Forbidden: bot was blocked by the user"});
        return (axum::http::StatusCode::FORBIDDEN, Json(answer)).into_response();
    }
    fake.sent.lock().unwrap().push(body.clone());
    Json(json!({"ok": true, "result": {
        "message_id": 1, "date": 1_700_000_000, "chat": {"id": chat, "type": "private", "first_name": "P"}, "text": body["text"]
    }}))
    .into_response()
}

async fn fake_api() -> (Arc<Fake>, String) {
    let fake = Arc::new(Fake::default());
    let app = axum::Router::new().route("/{bot}/{method}", axum::routing::post(bot_api)).with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (fake, format!("http://{addr}/"))
}

async fn app_with_fake(backend: Backend) -> (TestApp, Arc<Fake>) {
    let (fake, url) = fake_api().await;
    let env = [("TELEGRAM_BOT_TOKEN", TOKEN), ("TELEGRAM_API_URL", url.as_str()), ("CROUPIER_INTERNAL_SECRET", SECRET)];
    (TestApp::spawn_with(backend, &env, |_| {}).await, fake)
}

/// Waits for the `n`th message (1-based) the fake received.
async fn nth_message(fake: &Fake, n: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Some(message) = fake.sent.lock().unwrap().get(n - 1) {
            return message.clone();
        }
        assert!(Instant::now() < deadline, "message {n} never came: {:?}", fake.sent.lock().unwrap());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn now() -> String {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs().to_string()
}

/// Login Widget fields for Telegram user `id`, signed with the bot token.
fn widget(id: &str) -> Vec<(&'static str, String)> {
    let date = now();
    let fields = [("id", id), ("first_name", "Zoé"), ("username", "zoe"), ("auth_date", date.as_str())];
    let hash = login_widget::sign(&fields, TOKEN);
    vec![
        ("id", id.to_owned()),
        ("first_name", "Zoé".into()),
        ("username", "zoe".into()),
        ("auth_date", date),
        ("hash", hash),
    ]
}

async fn link(app: &TestApp, client: &reqwest::Client, id: &str) -> (StatusCode, Value) {
    let fields = widget(id);
    let form: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    app.post_as(client, "account.linkTelegram", &form).await
}

/// A registered player (USD) with Telegram user `telegram_id` linked.
async fn linked_player(app: &TestApp, email: &str, telegram_id: &str) -> reqwest::Client {
    let client = app.browser();
    app.register(&client, email).await;
    let (status, body) = link(app, &client, telegram_id).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    client
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// A sandbox deposit of `amount` ending in `outcome`; answers its id.
async fn deposit(app: &TestApp, client: &reqwest::Client, amount: &str, outcome: &str) -> String {
    let (status, body) =
        app.post_as(client, "cashier.makedeposit", &[("method", "sandbox_card"), ("amount", amount)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["data"]["id"].as_str().unwrap().to_owned();
    let page = body["data"]["redirect_url"].as_str().unwrap().replace("http://localhost:8080", &app.url(""));
    let response = no_redirects().post(page).form(&[("outcome", outcome)]).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    id
}

fn button_url(message: &Value) -> reqwest::Url {
    let button = &message["reply_markup"]["inline_keyboard"][0][0];
    let url = button["url"].as_str().or(button["web_app"]["url"].as_str()).unwrap_or_else(|| panic!("{message}"));
    reqwest::Url::parse(url).unwrap()
}

async fn outbox(app: &TestApp) -> Vec<(String, String, String)> {
    sqlx::query_as("SELECT idempotency_key, status, payload FROM notification_outbox ORDER BY id")
        .fetch_all(app.state.db().pool())
        .await
        .unwrap()
}

db_test!(async fn deposits_and_payouts_reach_the_player_on_telegram_once(app) {
    let (app, fake) = app_with_fake(app.backend).await;
    let client = linked_player(&app, "tg-cash@example.com", "777100").await;
    let id = deposit(&app, &client, "25", "success").await;
    let message = nth_message(&fake, 1).await;
    assert_eq!(message["chat_id"], 777_100);
    assert_eq!(message["text"], "Your deposit of 25.00 USD is on your balance. Good luck!");
    assert_eq!(message["reply_markup"]["inline_keyboard"][0][0]["text"], "Play now");
    let url = button_url(&message);
    assert_eq!(url.path(), "/gamehall");
    let key = format!("deposit:{id}:success");
    assert_eq!(url.query_pairs().collect::<Vec<_>>(), vec![("n".into(), key.clone().into())]);

    let failed = deposit(&app, &client, "10", "fail").await;
    let message = nth_message(&fake, 2).await;
    assert_eq!(message["text"], "Your deposit of 10.00 USD did not go through. No money was taken.");
    assert_eq!(button_url(&message).path(), "/cashier/deposit");

    // The same event again queues nothing new (the key is the event).
    let mut conn = app.state.db().pool().acquire().await.unwrap();
    let again = croupier_server::features::notify::Notice::DepositSucceeded {
        payment_id: id.clone(), amount: "25.00".into(), currency: "USD".into(),
    };
    croupier_server::features::notify::enqueue(&mut conn, 1, &key, &again).await.unwrap();
    drop(conn);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(fake.sent.lock().unwrap().len(), 2, "no duplicate");
    let rows = outbox(&app).await;
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].0, key);
    assert_eq!(rows[1].0, format!("deposit:{failed}:fail"));
    assert!(rows.iter().all(|(_, status, _)| status == "sent"), "{rows:?}");

    // A player without Telegram gets no row at all.
    let plain = app.browser();
    app.register(&plain, "no-tg@example.com").await;
    deposit(&app, &plain, "10", "success").await;
    assert_eq!(outbox(&app).await.len(), 2);
    app.finish().await;
});

db_test!(async fn a_paid_withdrawal_is_announced_in_the_players_language(app) {
    let (app, fake) = app_with_fake(app.backend).await;
    let client = linked_player(&app, "tg-pay@example.com", "777200").await;
    let (status, _) = app.post_as(&client, "account.changelocale", &[("locale", "fr")]).await;
    assert_eq!(status, StatusCode::OK);
    deposit(&app, &client, "100", "success").await;
    let first = nth_message(&fake, 1).await;
    assert_eq!(first["text"], "Votre dépôt de 100.00 USD est sur votre solde. Bonne chance !");
    assert!(button_url(&first).path().starts_with("/fr/gamehall"));
    let code = app.last_code("tg-pay@example.com").await;
    app.post_as(&client, "account.confirmContact", &[("contact", "tg-pay@example.com"), ("code", &code)]).await;
    let profile = [
        ("first_name", "Ann"), ("last_name", "Lee"), ("birth_date", "01.02.1985"), ("country_code", "GB"),
        ("home_town", "Leeds"), ("address", "2 Park Row"), ("postcode", "12345"),
    ];
    let (status, body) = app.post_as(&client, "account.saveProfileInfo", &profile).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "40")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["data"]["id"].as_str().unwrap().to_owned();
    use croupier_server::features::cashier::withdrawals::{Decision, approve};
    assert_eq!(approve(&app.state, &id, None).await.unwrap(), Decision::Paid);
    let message = nth_message(&fake, 2).await;
    assert_eq!(message["text"], "Votre retrait de 40.00 USD a été payé.");
    assert_eq!(message["reply_markup"]["inline_keyboard"][0][0]["text"], "Ouvrir la caisse");
    assert_eq!(button_url(&message).path(), "/fr/cashier");
    app.finish().await;
});

db_test!(async fn a_player_who_blocked_the_bot_is_marked_skipped_and_back_after_start(app) {
    let (app, fake) = app_with_fake(app.backend).await;
    fake.blocked.lock().unwrap().insert(777_300);
    let client = linked_player(&app, "tg-block@example.com", "777300").await;
    deposit(&app, &client, "10", "success").await;
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let blocked: Option<Option<i64>> = sqlx::query_scalar("SELECT blocked_at FROM telegram_chats WHERE telegram_id = $1")
            .bind("777300").fetch_optional(app.state.db().pool()).await.unwrap();
        if matches!(blocked, Some(Some(_))) { break; }
        assert!(Instant::now() < deadline, "the chat was never marked blocked");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    fake.blocked.lock().unwrap().clear();
    deposit(&app, &client, "11", "success").await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(fake.sent.lock().unwrap().is_empty(), "nothing is sent to a chat marked blocked");
    let statuses: Vec<(String, String, String)> = outbox(&app).await;
    assert!(statuses.iter().all(|(_, status, _)| status == "skipped"), "{statuses:?}");

    // The player /starts the bot again: the standalone bot tells the server.
    let http = reqwest::Client::new();
    let seen = json!({"telegram_id": 777_300, "chat_id": 777_300, "language_code": "fr", "payload": null});
    let wrong = http.post(app.url("/internal/telegram/seen")).header("x-croupier-internal-secret", "nope").json(&seen).send().await.unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let none = http.post(app.url("/internal/telegram/seen")).json(&seen).send().await.unwrap();
    assert_eq!(none.status(), StatusCode::UNAUTHORIZED);
    let right = http.post(app.url("/internal/telegram/seen")).header("x-croupier-internal-secret", SECRET).json(&seen).send().await.unwrap();
    assert_eq!(right.status(), StatusCode::OK);
    assert_eq!(right.json::<Value>().await.unwrap(), json!({"locale": "en"}), "the account's language");
    let language = json!({"telegram_id": 777_300, "locale": "fr"});
    let set = http.post(app.url("/internal/telegram/language")).header("x-croupier-internal-secret", SECRET).json(&language).send().await.unwrap();
    assert_eq!(set.status(), StatusCode::OK);
    deposit(&app, &client, "12", "success").await;
    let message = nth_message(&fake, 1).await;
    assert_eq!(message["text"], "Votre dépôt de 12.00 USD est sur votre solde. Bonne chance !", "the language chosen in the bot");
    app.finish().await;
});

db_test!(async fn two_factor_codes_also_come_by_telegram_and_are_wiped_once_sent(app) {
    let (app, fake) = app_with_fake(app.backend).await;
    let client = linked_player(&app, "tg-2fa@example.com", "777400").await;
    let uid: i64 = sqlx::query_scalar("SELECT user_id FROM social_identities WHERE subject = $1")
        .bind("777400").fetch_one(app.state.db().pool()).await.unwrap();
    sqlx::query("UPDATE users SET two_factor_auth = 1 WHERE id = $1").bind(uid).execute(app.state.db().pool()).await.unwrap();
    drop(client);
    let (status, body) = app.api_post("auth.login", &[("login", "tg-2fa@example.com"), ("password", "secret123")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    let code = app.last_code("tg-2fa@example.com").await;
    let message = nth_message(&fake, 1).await;
    assert_eq!(message["chat_id"], 777_400);
    assert_eq!(message["text"], format!("Your Croupier code is {code}. It expires in 5 minutes. Never share it."));
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let rows = outbox(&app).await;
        let code_row = rows.iter().find(|(key, _, _)| key.starts_with("code:")).expect("a code row");
        if code_row.1 == "sent" {
            assert_eq!(code_row.2, "{}", "the code is not kept once delivered");
            break;
        }
        assert!(Instant::now() < deadline, "{rows:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(app.last_code("telegram:777400").await, code, "dev keeps a copy of what Telegram carried");
    app.finish().await;
});

db_test!(async fn one_telegram_user_links_to_one_account_and_can_be_unlinked(app) {
    let (app, _fake) = app_with_fake(app.backend).await;
    let ann = linked_player(&app, "tg-ann@example.com", "777500").await;
    let (status, body) = link(&app, &ann, "777500").await;
    assert_eq!(status, StatusCode::OK, "linking the same pair again is fine: {body}");
    let (status, body) = link(&app, &ann, "777501").await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["id"][0], "LOCKED", "{body}");

    let bob = app.browser();
    app.register(&bob, "tg-bob@example.com").await;
    let (status, body) = link(&app, &bob, "777500").await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["id"][0], "TAKEN", "{body}");

    let mut forged = widget("777502");
    forged[1].1 = "Mallory".into();
    let form: Vec<(&str, &str)> = forged.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, body) = app.post_as(&bob, "account.linkTelegram", &form).await;
    expect_error(status, &body, 401, "AuthorizationException");
    let (status, body) = app.api_post("account.linkTelegram", &[("id", "1"), ("auth_date", "1"), ("hash", "00")]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    let (status, body) = app.post_as(&bob, "account.linkTelegram", &[]).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["hash"][0], "REQUIRED", "{body}");

    // The security page's view of it: linked, may unlink (ann has a password), the widget's bot.
    let bot_id: i64 = TOKEN.split_once(':').unwrap().0.parse().unwrap();
    let (_, state) = app.get_as(&ann, "account.getTelegramLink", &[]).await;
    assert_eq!(
        state["data"],
        json!({"available": false, "bot_id": bot_id, "bot_username": null, "linked": true, "only_way_in": false}),
        "no TELEGRAM_BOT_USERNAME: no widget"
    );
    let (_, state) = app.get_as(&bob, "account.getTelegramLink", &[]).await;
    assert_eq!((state["data"]["linked"].as_bool(), state["data"]["only_way_in"].as_bool()), (Some(false), Some(false)));
    let (status, body) = app.api_get("account.getTelegramLink", &[]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    let (status, body) = app.post_as(&ann, "account.unlinkTelegram", &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app.post_as(&ann, "account.unlinkTelegram", &[]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    let (status, body) = link(&app, &bob, "777500").await;
    assert_eq!(status, StatusCode::OK, "free again: {body}");
    app.finish().await;
});

#[tokio::test]
async fn a_telegram_only_account_cannot_unlink_its_only_way_in() {
    let (app, _fake) = app_with_fake(Backend::Sqlite).await;
    let user = json!({"id": 777_600, "first_name": "Zoé", "language_code": "en"}).to_string();
    let date = now();
    let raw = croupier_shared::telegram::init_data::sign_hmac(
        &[("auth_date", date.as_str()), ("user", user.as_str())],
        TOKEN,
    );
    let client = app.browser();
    let (status, body) = app.post_as(&client, "auth.telegram", &[("init_data", raw.as_str())]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, state) = app.get_as(&client, "account.getTelegramLink", &[]).await;
    assert_eq!((state["data"]["linked"].as_bool(), state["data"]["only_way_in"].as_bool()), (Some(true), Some(true)));
    let (status, body) = app.post_as(&client, "account.unlinkTelegram", &[]).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["telegram"][0], "LOCKED", "{body}");
    app.finish().await;
}

#[tokio::test]
async fn from_start_with_a_promo_in_telegram_to_a_signed_in_player_with_the_promo() {
    // The bot runs inside the server (CROUPIER_BOT=embedded) and polls the fake Bot API.
    let (fake, url) = fake_api().await;
    let env = [
        ("TELEGRAM_BOT_TOKEN", TOKEN),
        ("TELEGRAM_API_URL", url.as_str()),
        ("CROUPIER_BOT", "embedded"),
        ("CROUPIER_PUBLIC_URL", "https://casino.example"),
    ];
    let app = TestApp::spawn_with(Backend::Sqlite, &env, |_| {}).await;
    fake.updates.lock().unwrap().push(json!({"update_id": 1, "message": {
        "message_id": 1, "date": 1_700_000_000,
        "chat": {"id": 777_700, "type": "private", "first_name": "Zoé"},
        "from": {"id": 777_700, "is_bot": false, "first_name": "Zoé", "language_code": "fr"},
        "text": "/start pWELCOME50-vdeposit-xttd7",
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}]
    }}));
    let welcome = nth_message(&fake, 1).await;
    assert_eq!(welcome["chat_id"], 777_700);
    assert!(welcome["text"].as_str().unwrap().contains("Votre code promo WELCOME50"), "{welcome}");
    let open =
        reqwest::Url::parse(welcome["reply_markup"]["inline_keyboard"][0][0]["web_app"]["url"].as_str().unwrap())
            .unwrap();
    assert_eq!(open.path(), "/fr/cashier/deposit", "the deep-linked page");
    let payload = open.query_pairs().find(|(k, _)| k == "startapp").map(|(_, v)| v.into_owned()).unwrap();
    // The bot told the server about the chat in-process.
    let chat: i64 = sqlx::query_scalar("SELECT chat_id FROM telegram_chats WHERE telegram_id = $1")
        .bind("777700")
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
    assert_eq!(chat, 777_700);

    // The mini-app opens with init data signed by Telegram and hands the payload on.
    let user = json!({"id": 777_700, "first_name": "Zoé", "language_code": "fr"}).to_string();
    let date = now();
    let raw = croupier_shared::telegram::init_data::sign_hmac(
        &[("auth_date", date.as_str()), ("user", user.as_str())],
        TOKEN,
    );
    let client = app.browser();
    let (status, body) =
        app.post_as(&client, "auth.telegram", &[("init_data", raw.as_str()), ("payload", payload.as_str())]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["locale"], "fr");
    let uid = body["data"]["uid"].as_i64().unwrap();
    let (promo, tracking): (Option<String>, Option<String>) =
        sqlx::query_as("SELECT promo_code, tracking FROM users WHERE id = $1")
            .bind(uid)
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
    assert_eq!(promo.as_deref(), Some("WELCOME50"));
    assert!(tracking.unwrap().contains("td7"));
    app.finish().await;
}

/// A press on an inline button by Telegram user `from`, in their private chat.
fn press(update_id: i64, from: i64, data: &str) -> Value {
    json!({"update_id": update_id, "callback_query": {
        "id": format!("cq-{update_id}"),
        "from": {"id": from, "is_bot": false, "first_name": "Zoé", "language_code": "fr"},
        "chat_instance": "ci",
        "data": data,
        "message": {"message_id": 9, "date": 1_700_000_000, "chat": {"id": from, "type": "private", "first_name": "Zoé"}, "text": "x"}
    }})
}

async fn wait_until<F: Fn() -> bool>(what: &str, done: F) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !done() {
        assert!(Instant::now() < deadline, "{what} never happened");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Issue 18: a cashback ready to claim reaches the player in their language with a button that
/// opens the cashback page and one that claims it; pressed twice, it pays once and answers in the
/// chat. Promotions skip a player who unsubscribed from marketing, money news does not; and
/// `/summary on` brings the weekly club summary.
#[tokio::test]
async fn a_cashback_is_claimed_from_the_chat_once_and_promotions_respect_the_players_choice() {
    use croupier_server::features::cashbacks::{CreateRequest, announce};
    use croupier_server::features::notify::{Notice, enqueue};
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && !crate::helpers::postgres_configured() {
            continue;
        }
        let (fake, url) = fake_api().await;
        let env = [
            ("TELEGRAM_BOT_TOKEN", TOKEN),
            ("TELEGRAM_API_URL", url.as_str()),
            ("CROUPIER_BOT", "embedded"),
            ("CROUPIER_PUBLIC_URL", "https://casino.example"),
        ];
        let app = TestApp::spawn_with(backend, &env, |_| {}).await;
        let client = linked_player(&app, "tg-claim@example.com", "777200").await;
        let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
        let uid = me["data"]["uid"].as_i64().unwrap();
        app.sql("UPDATE users SET locale = $1 WHERE id = $2", "fr", uid).await;
        let end_date = croupier_server::db::now_ms() / 1000 + 86_400;
        let mut request = CreateRequest {
            reason: None,
            request_id: None,
            user_id: uid,
            amount: 1_250,
            currency: "USD".into(),
            description_en: "Weekly cashback".into(),
            description_fr: "Cashback hebdomadaire".into(),
            end_date,
        };
        let id = request.create(app.state.db()).await.unwrap();
        let mut tx = app.state.db().begin().await.unwrap();
        announce(&mut tx, id).await.unwrap();
        tx.commit().await.unwrap();

        let ready = nth_message(&fake, 1).await;
        assert_eq!(ready["chat_id"], 777_200);
        assert!(ready["text"].as_str().unwrap().starts_with("Cashback hebdomadaire : 12.50 USD à réclamer"), "{ready}");
        let rows = ready["reply_markup"]["inline_keyboard"].as_array().unwrap();
        assert_eq!(rows.len(), 2, "{ready}");
        assert_eq!(button_url(&ready).path(), "/fr/profile/cashback");
        assert_eq!(rows[1][0]["text"], "Réclamer 12.50 USD");
        assert_eq!(rows[1][0]["callback_data"], format!("cb:{id}"));

        // Pressed twice (a double tap, or Telegram's retry): paid once.
        fake.updates.lock().unwrap().push(press(10, 777_200, &format!("cb:{id}")));
        fake.updates.lock().unwrap().push(press(11, 777_200, &format!("cb:{id}")));
        wait_until("two answers", || fake.answers.lock().unwrap().len() >= 2).await;
        let answers = fake.answers.lock().unwrap().clone();
        assert_eq!(answers[0]["text"], "Votre cashback de 12.50 USD est sur votre solde.");
        assert_eq!(answers[1]["text"], "Ce cashback est déjà versé.");
        let said = nth_message(&fake, 3).await;
        assert_eq!(nth_message(&fake, 2).await["text"], "Votre cashback de 12.50 USD est sur votre solde.");
        assert_eq!(said["text"], "Ce cashback est déjà versé.");
        let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
        assert_eq!(me["data"]["balance_main"]["amount"], "12.50", "paid once");
        // Someone else's press, or an unknown cashback, pays nothing.
        fake.updates.lock().unwrap().push(press(12, 999_999, &format!("cb:{id}")));
        wait_until("a third answer", || fake.answers.lock().unwrap().len() >= 3).await;
        assert_eq!(
            fake.answers.lock().unwrap()[2]["text"],
            "Ce cashback ne peut pas être réclamé ici. Ouvrez le casino pour voir vos cashbacks."
        );
        // An expired one is said to be so; a banned player's press pays nothing.
        request.amount = 300;
        let expired = request.create(app.state.db()).await.unwrap();
        app.sql("UPDATE cashbacks SET status = $1 WHERE id = $2", "expired", expired).await;
        fake.updates.lock().unwrap().push(press(13, 777_200, &format!("cb:{expired}")));
        wait_until("a fourth answer", || fake.answers.lock().unwrap().len() >= 4).await;
        assert_eq!(fake.answers.lock().unwrap()[3]["text"], "Ce cashback ne peut plus être réclamé.");
        request.amount = 400;
        let later = request.create(app.state.db()).await.unwrap();
        app.sql("UPDATE users SET status = $1 WHERE id = $2", "banned", uid).await;
        fake.updates.lock().unwrap().push(press(14, 777_200, &format!("cb:{later}")));
        wait_until("a fifth answer", || fake.answers.lock().unwrap().len() >= 5).await;
        assert_eq!(
            fake.answers.lock().unwrap()[4]["text"],
            "Ce cashback ne peut pas être réclamé ici. Ouvrez le casino pour voir vos cashbacks."
        );
        app.sql("UPDATE users SET status = $1 WHERE id = $2", "active", uid).await;
        let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
        assert_eq!(me["data"]["balance_main"]["amount"], "12.50", "nothing more");
        let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
        assert!(report.violations.is_empty(), "{:?}", report.violations);
        assert!(
            outbox(&app).await.iter().all(|(key, _, _)| !key.ends_with(":paid")),
            "the chat said it; no second notice"
        );

        // A player who unsubscribed from marketing: promotions skipped, money news sent.
        let quiet = linked_player(&app, "tg-quiet@example.com", "777300").await;
        let (status, _) = app
            .post_as(
                &quiet,
                "account.changeSubscription",
                &[("contact", "tg-quiet@example.com"), ("subscription", "0")],
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (_, me) = app.get_as(&quiet, "account.getInfo", &[]).await;
        let quiet_id = me["data"]["uid"].as_i64().unwrap();
        let mut tx = app.state.db().begin().await.unwrap();
        let promo = Notice::QuestCompleted { quest_id: 1, title_en: "Q".into(), title_fr: "Q".into(), points: 5 };
        enqueue(&mut tx, quiet_id, "test:promo", &promo).await.unwrap();
        let money =
            Notice::CashbackPaid { cashback_id: 1, amount: "1.00".into(), currency: "USD".into(), as_bonus: false };
        enqueue(&mut tx, quiet_id, "test:money", &money).await.unwrap();
        tx.commit().await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(15);
        let statuses = loop {
            let rows = outbox(&app).await;
            let of = |k: &str| rows.iter().find(|r| r.0 == k).map(|r| r.1.clone()).unwrap();
            let (p, m) = (of("test:promo"), of("test:money"));
            if p != "pending" && m != "pending" {
                break (p, m);
            }
            assert!(Instant::now() < deadline, "the outbox did not settle");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(statuses, ("skipped".to_owned(), "sent".to_owned()));

        // `/summary on` from the chat, then the week's summary in French.
        fake.updates.lock().unwrap().push(json!({"update_id": 20, "message": {
            "message_id": 2, "date": 1_700_000_000,
            "chat": {"id": 777_200, "type": "private", "first_name": "Zoé"},
            "from": {"id": 777_200, "is_bot": false, "first_name": "Zoé", "language_code": "fr"},
            "text": "/summary on", "entities": [{"type": "bot_command", "offset": 0, "length": 8}]
        }}));
        let sent_before = fake.sent.lock().unwrap().len();
        let done = nth_message(&fake, sent_before + 1).await;
        assert_eq!(done["text"], "C'est fait : vous recevrez votre résumé du club chaque semaine.");
        let on: i64 = sqlx::query_scalar("SELECT weekly_summary FROM notification_preferences WHERE user_id = $1")
            .bind(uid)
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(on, 1);
        let now = croupier_server::db::now_ms();
        assert_eq!(croupier_server::features::loyalty::summary::send_due(&app.state, now).await.unwrap(), 1);
        assert_eq!(
            croupier_server::features::loyalty::summary::send_due(&app.state, now).await.unwrap(),
            0,
            "once a week"
        );
        let summary = nth_message(&fake, sent_before + 2).await;
        assert!(
            summary["text"].as_str().unwrap().starts_with("Votre semaine : 0 points à dépenser, niveau 1 (Bronze)."),
            "{summary}"
        );
        // 12.50 paid and 4.00 still to claim (the expired 3.00 does not count).
        assert!(summary["text"].as_str().unwrap().contains("Cashback de la semaine : 16.50 USD."), "{summary}");
        app.finish().await;
    }
}

db_test!(async fn a_standalone_bot_claims_and_sets_the_summary_through_the_internal_api(app) {
    use croupier_server::features::cashbacks::CreateRequest;
    // Without a configured secret the internal API does not exist.
    for path in ["/internal/telegram/cashback-claim", "/internal/telegram/summary"] {
        let answer = reqwest::Client::new()
            .post(app.url(path))
            .header("x-croupier-internal-secret", SECRET)
            .json(&json!({"telegram_id": 1, "cashback_id": 1, "on": true}))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), StatusCode::NOT_FOUND, "{path}");
    }
    let (app, _fake) = app_with_fake(app.backend).await;
    let client = linked_player(&app, "tg-internal@example.com", "777500").await;
    let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
    let uid = me["data"]["uid"].as_i64().unwrap();
    let request = CreateRequest {
        reason: None,
        request_id: None,
        user_id: uid,
        amount: 700,
        currency: "USD".into(),
        description_en: "Cashback".into(),
        description_fr: "Cashback".into(),
        end_date: croupier_server::db::now_ms() / 1000 + 86_400,
    };
    let id = request.create(app.state.db()).await.unwrap();
    let http = reqwest::Client::new();
    let post = |path: &'static str, secret: &'static str, body: Value| {
        http.post(app.url(path)).header("x-croupier-internal-secret", secret).json(&body).send()
    };
    let claim = json!({"telegram_id": 777_500, "cashback_id": id});
    let refused = post("/internal/telegram/cashback-claim", "nope", claim.clone()).await.unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let first = post("/internal/telegram/cashback-claim", SECRET, claim.clone()).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(
        first.json::<Value>().await.unwrap(),
        json!({"outcome": "paid", "amount": "7.00", "currency": "USD", "as_bonus": false, "locale": "en"})
    );
    let again = post("/internal/telegram/cashback-claim", SECRET, claim).await.unwrap();
    assert_eq!(again.json::<Value>().await.unwrap()["outcome"], "already_paid");
    let stranger = post("/internal/telegram/cashback-claim", SECRET, json!({"telegram_id": 1, "cashback_id": id}));
    assert_eq!(stranger.await.unwrap().json::<Value>().await.unwrap()["outcome"], "unavailable");
    let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
    assert_eq!(me["data"]["balance_main"]["amount"], "7.00", "paid once");

    let refused = post("/internal/telegram/summary", "nope", json!({"telegram_id": 777_500, "on": true})).await.unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let on = post("/internal/telegram/summary", SECRET, json!({"telegram_id": 777_500, "on": true})).await.unwrap();
    assert_eq!(on.json::<Value>().await.unwrap(), json!({"linked": true}));
    let flag = || async {
        sqlx::query_scalar::<_, i64>("SELECT weekly_summary FROM notification_preferences WHERE user_id = $1")
            .bind(uid)
            .fetch_one(app.state.db().pool())
            .await
            .unwrap()
    };
    assert_eq!(flag().await, 1);
    let off = post("/internal/telegram/summary", SECRET, json!({"telegram_id": 777_500, "on": false})).await.unwrap();
    assert_eq!(off.json::<Value>().await.unwrap(), json!({"linked": true}));
    assert_eq!(flag().await, 0);
    let nobody = post("/internal/telegram/summary", SECRET, json!({"telegram_id": 1, "on": true})).await.unwrap();
    assert_eq!(nobody.json::<Value>().await.unwrap(), json!({"linked": false}));
    app.finish().await;
});
