//! Notifications, throttling, 429s, blocked players, webhook and polling, through a fake Bot API.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fake;

use croupier_bot::notice::{DeliveryError, Notice, deliver};
use croupier_bot::{Backend, webhook_router};
use croupier_shared::Locale;
use fake::{FakeApi, MemoryBackend, message, settings};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

/// The throttle paces requests when it releases them; arrivals on a busy machine can bunch a
/// little. Without the throttle all 43 arrive within a few milliseconds.
const SECOND_LESS_JITTER: Duration = Duration::from_millis(700);

fn deposit(amount: &str) -> Notice {
    Notice::DepositSucceeded { payment_id: "p-1".into(), amount: amount.into(), currency: "EUR".into() }
}

#[tokio::test]
async fn each_notice_has_its_text_button_and_page_in_both_languages() {
    let api = FakeApi::start().await;
    let bot = api.bot();
    let s = settings();
    deliver(&bot, &s, 42, Locale::Fr, &deposit("10.00"), "outbox-1").await.expect("delivered");
    let failed = Notice::DepositFailed { payment_id: "p-2".into(), amount: "5.00".into(), currency: "USD".into() };
    deliver(&bot, &s, 43, Locale::En, &failed, "outbox-2").await.expect("delivered");
    let paid = Notice::WithdrawalPaid { payment_id: "p-3".into(), amount: "7.50".into(), currency: "USD".into() };
    deliver(&bot, &s, 44, Locale::En, &paid, "outbox-3").await.expect("delivered");
    deliver(&bot, &s, 45, Locale::En, &Notice::Code { code: "123456".into() }, "outbox-4").await.expect("delivered");
    let sent = api.calls("sendMessage");
    let body = |i: usize| sent[i].body.clone();
    assert_eq!(body(0)["chat_id"], 42);
    assert_eq!(body(0)["text"], "Votre dépôt de 10.00 EUR est sur votre solde. Bonne chance !");
    assert_eq!(
        body(0)["reply_markup"]["inline_keyboard"][0][0],
        json!({"text": "Jouer maintenant", "web_app": {"url": "https://casino.example/fr/gamehall?n=outbox-1"}})
    );
    assert_eq!(body(1)["text"], "Your deposit of 5.00 USD did not go through. No money was taken.");
    assert_eq!(
        body(1)["reply_markup"]["inline_keyboard"][0][0],
        json!({"text": "Try again", "web_app": {"url": "https://casino.example/cashier/deposit?n=outbox-2"}})
    );
    assert_eq!(body(2)["text"], "Your withdrawal of 7.50 USD has been paid.");
    assert_eq!(
        body(2)["reply_markup"]["inline_keyboard"][0][0]["web_app"]["url"],
        "https://casino.example/cashier?n=outbox-3"
    );
    assert_eq!(body(3)["text"], "Your Croupier code is 123456. It expires in 5 minutes. Never share it.");
    // The stored form names the kind.
    assert_eq!(
        serde_json::to_value(deposit("1.00")).unwrap(),
        json!({"kind": "deposit_succeeded", "payment_id": "p-1", "amount": "1.00", "currency": "EUR"})
    );
}

#[tokio::test]
async fn bonus_notices_name_the_bonus_and_open_the_bonuses_tab_in_both_languages() {
    let api = FakeApi::start().await;
    let bot = api.bot();
    let s = settings();
    let credited = |amount: &str| Notice::BonusCredited {
        bonus_id: 7,
        amount: amount.into(),
        currency: "USD".into(),
        title_en: "Welcome bonus".into(),
        title_fr: "Bonus de bienvenue".into(),
    };
    deliver(&bot, &s, 50, Locale::En, &credited("100.00"), "outbox-10").await.expect("delivered");
    deliver(&bot, &s, 51, Locale::Fr, &credited("100.00"), "outbox-11").await.expect("delivered");
    // Free spins alone: no money to announce.
    deliver(&bot, &s, 52, Locale::En, &credited("0.00"), "outbox-12").await.expect("delivered");
    let expiring = Notice::BonusExpiring { bonus_id: 7, balance: "42.50".into(), currency: "EUR".into(), progress: 61 };
    deliver(&bot, &s, 53, Locale::Fr, &expiring, "outbox-13").await.expect("delivered");
    let sent = api.calls("sendMessage");
    let body = |i: usize| sent[i].body.clone();
    assert_eq!(body(0)["text"], "Your bonus \u{201c}Welcome bonus\u{201d} of 100.00 USD is on your bonus balance.");
    assert_eq!(
        body(0)["reply_markup"]["inline_keyboard"][0][0],
        json!({"text": "See my bonuses", "web_app": {"url": "https://casino.example/profile/bonuses?n=outbox-10"}})
    );
    assert_eq!(
        body(1)["text"],
        "Votre bonus \u{ab}\u{a0}Bonus de bienvenue\u{a0}\u{bb} de 100.00 USD est sur votre solde bonus."
    );
    assert_eq!(
        body(1)["reply_markup"]["inline_keyboard"][0][0],
        json!({"text": "Voir mes bonus", "web_app": {"url": "https://casino.example/fr/profile/bonuses?n=outbox-11"}})
    );
    assert_eq!(body(2)["text"], "Your bonus \u{201c}Welcome bonus\u{201d} is ready. Enjoy!");
    assert_eq!(
        body(3)["text"],
        "Votre bonus de 42.50 EUR expire dans 24 heures. Mise effectuée : 61 %. Continuez à jouer pour le garder."
    );
    assert_eq!(
        serde_json::to_value(&expiring).unwrap(),
        json!({"kind": "bonus_expiring", "bonus_id": 7, "balance": "42.50", "currency": "EUR", "progress": 61})
    );
}

#[tokio::test]
async fn a_player_who_blocked_the_bot_is_reported_as_blocked() {
    let api = FakeApi::start().await;
    api.state.blocked.lock().unwrap().insert(66);
    let bot = api.bot();
    let result = deliver(&bot, &settings(), 66, Locale::En, &deposit("1.00"), "k").await;
    assert!(matches!(result, Err(DeliveryError::Blocked)), "{result:?}");
    // Only one try: a 403 is not retried.
    assert_eq!(api.calls("sendMessage").len(), 1);
}

#[tokio::test]
async fn a_429_is_honoured_by_waiting_retry_after_then_sending_again() {
    let api = FakeApi::start().await;
    api.state.too_many.lock().unwrap().insert(7, 1);
    let bot = api.bot();
    deliver(&bot, &settings(), 7, Locale::En, &deposit("1.00"), "k").await.expect("delivered after the wait");
    let sent = api.calls("sendMessage");
    assert_eq!(sent.len(), 2, "refused once, then sent");
    let waited = sent[1].at - sent[0].at;
    assert!(waited >= Duration::from_millis(950), "waited only {waited:?}");
}

#[tokio::test]
async fn a_burst_never_exceeds_one_a_second_per_chat_nor_thirty_a_second_overall() {
    let api = FakeApi::start().await;
    let bot = api.bot();
    let s = settings();
    let mut tasks = Vec::new();
    // 3 to one chat and 40 to 40 other chats, all at once.
    for i in 0..43_i64 {
        let (bot, s) = (bot.clone(), s.clone());
        let chat = if i < 3 { 1 } else { 100 + i };
        tasks.push(tokio::spawn(async move {
            deliver(&bot, &s, chat, Locale::En, &deposit("1.00"), &format!("k{i}")).await.expect("delivered");
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let sent = api.calls("sendMessage");
    assert_eq!(sent.len(), 43);
    let same_chat: Vec<_> = sent.iter().filter(|c| c.body["chat_id"] == 1).map(|c| c.at).collect();
    for pair in same_chat.windows(2) {
        assert!(pair[1] - pair[0] >= SECOND_LESS_JITTER, "two in one chat {:?} apart", pair[1] - pair[0]);
    }
    let all: Vec<_> = sent.iter().map(|c| c.at).collect();
    for i in 30..all.len() {
        assert!(all[i] - all[i - 30] >= SECOND_LESS_JITTER, "31 messages within {:?}", all[i] - all[i - 30]);
    }
}

#[tokio::test]
async fn the_webhook_checks_telegrams_secret_token_then_answers_the_update() {
    let api = FakeApi::start().await;
    let backend: Arc<dyn Backend> = Arc::new(MemoryBackend::default());
    let url = reqwest::Url::parse("https://bot.casino.example/telegram").unwrap();
    let (router, run) = webhook_router(api.bot(), settings(), backend, url, "s3cret-Token_1".into());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    tokio::spawn(run);
    let client = reqwest::Client::new();
    let update = message(5, 42, 42, "en", "/help");
    let post = |secret: Option<&str>| {
        let mut request = client.post(format!("http://{addr}/telegram")).json(&update);
        if let Some(secret) = secret {
            request = request.header("X-Telegram-Bot-Api-Secret-Token", secret);
        }
        request.send()
    };
    assert_eq!(post(None).await.unwrap().status(), 401);
    assert_eq!(post(Some("wrong")).await.unwrap().status(), 401);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(api.calls("sendMessage").is_empty(), "nothing answered without the secret");
    assert_eq!(post(Some("s3cret-Token_1")).await.unwrap().status(), 200);
    let sent = api.wait_for("sendMessage", 1, Duration::from_secs(10)).await;
    assert!(sent[0].body["text"].as_str().unwrap().starts_with("/start opens the casino."));
}

#[tokio::test]
async fn long_polling_answers_start_and_sets_the_menu_button() {
    let api = FakeApi::start().await;
    api.state.updates.lock().unwrap().push_back(message(9, 42, 42, "fr", "/start pBONUS"));
    let backend = Arc::new(MemoryBackend::default());
    let dyn_backend: Arc<dyn Backend> = backend.clone();
    let polling = tokio::spawn(croupier_bot::run_polling(api.bot(), settings(), dyn_backend, false));
    let sent = api.wait_for("sendMessage", 1, Duration::from_secs(10)).await;
    polling.abort();
    assert_eq!(
        sent[0].body["text"],
        "Bienvenue chez Croupier ! Touchez le bouton pour ouvrir le casino.\n\nVotre code promo BONUS est appliqué à l'inscription."
    );
    assert_eq!(api.calls("setChatMenuButton").len(), 1);
    assert_eq!(backend.seen.lock().unwrap()[0].payload.as_deref(), Some("pBONUS"));
}
