//! The bot's commands, driven through a fake Bot API: exact texts, buttons and payloads.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fake;

use croupier_bot::Backend;
use croupier_shared::Locale;
use fake::{FakeApi, MemoryBackend, message, settings};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

struct Harness {
    api: FakeApi,
    backend: Arc<MemoryBackend>,
    polling: tokio::task::JoinHandle<()>,
    next_update: std::sync::atomic::AtomicI64,
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.polling.abort();
    }
}

impl Harness {
    /// The bot, long polling the fake Bot API.
    async fn start() -> Harness {
        let api = FakeApi::start().await;
        let backend = Arc::new(MemoryBackend::default());
        let dyn_backend: Arc<dyn Backend> = backend.clone();
        let polling = tokio::spawn(croupier_bot::run_polling(api.bot(), settings(), dyn_backend, false));
        Harness { api, backend, polling, next_update: std::sync::atomic::AtomicI64::new(1) }
    }

    /// Sends `text` from user 42 (language `lang`) in `chat` and answers the one message sent back.
    async fn say(&self, chat: i64, lang: &str, text: &str) -> Value {
        let before = self.api.calls("sendMessage").len();
        let id = self.next_update.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.api.state.updates.lock().unwrap().push_back(message(id, chat, 42, lang, text));
        let calls = self.api.wait_for("sendMessage", before + 1, Duration::from_secs(10)).await;
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert_eq!(self.api.calls("sendMessage").len(), before + 1, "exactly one answer to {text}");
        calls[before].body.clone()
    }
}

fn button(body: &Value) -> Value {
    let rows = body["reply_markup"]["inline_keyboard"].as_array().expect("an inline keyboard");
    assert_eq!(rows.len(), 1);
    let row = rows[0].as_array().unwrap();
    assert_eq!(row.len(), 1);
    row[0].clone()
}

#[tokio::test]
async fn start_with_a_deep_link_welcomes_in_french_and_opens_the_game_with_the_promo() {
    let h = Harness::start().await;
    let body = h.say(42, "fr", "/start pWELCOME-gbook__of__dead-xttd__7").await;
    assert_eq!(body["chat_id"], 42);
    assert_eq!(
        body["text"],
        "Bienvenue chez Croupier ! Touchez le bouton pour ouvrir le casino.\n\nVotre code promo WELCOME est appliqué à l'inscription."
    );
    assert_eq!(
        button(&body),
        json!({"text": "Ouvrir le casino", "web_app": {
            "url": "https://casino.example/fr/game/book_of_dead?startapp=pWELCOME-gbook__of__dead-xttd__7"
        }})
    );
    let seen = h.backend.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].telegram_id, 42);
    assert_eq!(seen[0].chat_id, 42);
    assert_eq!(seen[0].language_code.as_deref(), Some("fr"));
    assert_eq!(seen[0].payload.as_deref(), Some("pWELCOME-gbook__of__dead-xttd__7"));
}

#[tokio::test]
async fn start_without_payload_in_english_opens_the_home_page() {
    let h = Harness::start().await;
    let body = h.say(42, "en-US", "/start").await;
    assert_eq!(body["text"], "Welcome to Croupier! Tap the button to open the casino.");
    assert_eq!(button(&body), json!({"text": "Open the casino", "web_app": {"url": "https://casino.example/"}}));
}

#[tokio::test]
async fn a_payload_that_does_not_read_still_gets_a_welcome_to_home() {
    let h = Harness::start().await;
    let body = h.say(42, "en", "/start zzz-unknown").await;
    assert_eq!(body["text"], "Welcome to Croupier! Tap the button to open the casino.");
    assert_eq!(button(&body)["web_app"]["url"], "https://casino.example/");
}

#[tokio::test]
async fn in_a_group_the_button_is_a_startapp_link_and_the_server_is_not_told() {
    let h = Harness::start().await;
    let body = h.say(-100_777, "en", "/start@croupier_bot pWELCOME-vdeposit").await;
    assert_eq!(body["chat_id"], -100_777);
    assert_eq!(
        button(&body),
        json!({"text": "Open the casino", "url": "https://t.me/croupier_bot?startapp=pWELCOME-vdeposit"})
    );
    let body = h.say(-100_777, "fr", "/play@croupier_bot").await;
    assert_eq!(button(&body), json!({"text": "Jouer", "url": "https://t.me/croupier_bot?startapp=vgamehall"}));
    assert!(h.backend.seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn play_opens_the_game_hall() {
    let h = Harness::start().await;
    let body = h.say(42, "en", "/play").await;
    assert_eq!(body["text"], "Your games are one tap away.");
    assert_eq!(
        button(&body),
        json!({"text": "Play", "web_app": {"url": "https://casino.example/gamehall?startapp=vgamehall"}})
    );
}

#[tokio::test]
async fn help_lists_the_commands_in_the_players_language() {
    let h = Harness::start().await;
    let body = h.say(42, "fr", "/help").await;
    assert_eq!(
        body["text"],
        "/start ouvre le casino.\n/play ouvre les jeux.\n/language en ou /language fr change ma langue.\n/summary on ou /summary off active ou arrête votre résumé hebdomadaire du club.\n/help affiche ce message."
    );
    assert_eq!(button(&body)["web_app"]["url"], "https://casino.example/fr");
}

#[tokio::test]
async fn summary_turns_the_weekly_summary_on_and_off() {
    let h = Harness::start().await;
    let body = h.say(42, "en", "/summary").await;
    assert!(body["text"].as_str().unwrap().starts_with("Send /summary on"), "{body}");
    let body = h.say(42, "fr", "/summary on").await;
    assert_eq!(body["text"], "C'est fait : vous recevrez votre résumé du club chaque semaine.");
    let body = h.say(42, "en", "/summary off").await;
    assert_eq!(body["text"], "Done: no more weekly summary.");
    assert_eq!(h.backend.summaries.lock().unwrap().clone(), vec![(42, true), (42, false)]);
}

/// A press on an inline button of a message the bot sent in chat 42.
fn press(update_id: i64, from: i64, lang: &str, data: &str) -> Value {
    json!({"update_id": update_id, "callback_query": {
        "id": format!("cq-{update_id}"),
        "from": {"id": from, "is_bot": false, "first_name": "Ann", "language_code": lang},
        "chat_instance": "ci-1",
        "data": data,
        "message": {"message_id": 5, "date": 1_700_000_000, "chat": {"id": from, "type": "private", "first_name": "Ann"}, "text": "Cashback"}
    }})
}

#[tokio::test]
async fn a_claim_button_claims_through_the_server_and_answers_in_the_chat() {
    let h = Harness::start().await;
    h.api.state.updates.lock().unwrap().push_back(press(100, 42, "fr", "cb:7"));
    let answers = h.api.wait_for("answerCallbackQuery", 1, Duration::from_secs(10)).await;
    assert_eq!(answers[0].body["callback_query_id"], "cq-100");
    assert_eq!(answers[0].body["text"], "Votre cashback de 12.50 USD est sur votre solde.");
    let sent = h.api.wait_for("sendMessage", 1, Duration::from_secs(10)).await;
    assert_eq!(sent[0].body["chat_id"], 42);
    assert_eq!(sent[0].body["text"], "Votre cashback de 12.50 USD est sur votre solde.");
    h.api.state.updates.lock().unwrap().push_back(press(101, 42, "en", "cb:7"));
    let answers = h.api.wait_for("answerCallbackQuery", 2, Duration::from_secs(10)).await;
    assert_eq!(answers[1].body["text"], "This cashback is already paid.");
    h.api.state.updates.lock().unwrap().push_back(press(102, 42, "en", "something-else"));
    let answers = h.api.wait_for("answerCallbackQuery", 3, Duration::from_secs(10)).await;
    assert!(answers[2].body.get("text").is_none_or(Value::is_null), "{:?}", answers[2].body);
    let claims = h.backend.claims.lock().unwrap().clone();
    assert_eq!(claims, vec![croupier_bot::ClaimBody { telegram_id: 42, cashback_id: 7 }; 2]);
}

#[tokio::test]
async fn language_shows_changes_and_refuses_unknown_languages() {
    let h = Harness::start().await;
    let body = h.say(42, "en", "/language").await;
    assert_eq!(body["text"], "I speak English with you. To change: /language fr (français) or /language en (English).");
    let body = h.say(42, "en", "/language fr").await;
    assert_eq!(body["text"], "C'est fait : je vous parlerai en français.");
    assert_eq!(h.backend.languages.lock().unwrap().clone(), vec![(42, Locale::Fr)]);
    // The server now knows French; Telegram still says English.
    let body = h.say(42, "en", "/help").await;
    assert!(body["text"].as_str().unwrap().starts_with("/start ouvre le casino."), "{body}");
    let body = h.say(42, "en", "/language de").await;
    assert_eq!(body["text"], "Je ne connais pas cette langue. Choisissez /language en ou /language fr.");
    assert_eq!(h.backend.languages.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn setup_registers_the_commands_in_both_languages_and_the_menu_button() {
    let api = FakeApi::start().await;
    let bot = api.bot();
    croupier_bot::setup(&bot, &settings()).await.expect("setup");
    let commands = api.calls("setMyCommands");
    assert_eq!(commands.len(), 2);
    assert_eq!(commands[0].body["commands"][0], json!({"command": "start", "description": "Open the casino"}));
    assert_eq!(commands[0].body.get("language_code"), None);
    assert_eq!(commands[1].body["language_code"], "fr");
    assert_eq!(commands[1].body["commands"][2], json!({"command": "language", "description": "Changer de langue"}));
    let menu = api.calls("setChatMenuButton");
    assert_eq!(menu.len(), 1);
    assert_eq!(
        menu[0].body["menu_button"],
        json!({"type": "web_app", "text": "Open the casino", "web_app": {"url": "https://casino.example/"}})
    );
}

#[tokio::test]
async fn the_http_backend_calls_the_internal_api_with_the_shared_secret() {
    let api = FakeApi::start().await;
    *api.state.known_locale.lock().unwrap() = Some("fr".into());
    let backend = croupier_bot::HttpBackend::new(api.url.clone(), fake::INTERNAL_SECRET);
    let seen = croupier_bot::Seen { telegram_id: 9, chat_id: 9, language_code: Some("en".into()), payload: None };
    assert_eq!(backend.seen(seen).await.expect("seen"), Some(Locale::Fr));
    backend.set_language(9, Locale::En).await.expect("language");
    let calls = api.state.internal.lock().unwrap().clone();
    assert_eq!(calls[0].0, "seen");
    assert_eq!(calls[0].1["telegram_id"], 9);
    assert_eq!(calls[1], ("language".to_owned(), json!({"telegram_id": 9, "locale": "en"})));
    let wrong = croupier_bot::HttpBackend::new(api.url.clone(), "not-the-secret");
    assert!(wrong.set_language(9, Locale::Fr).await.is_err());
    assert_eq!(api.state.internal.lock().unwrap().len(), 2);
    let answer =
        backend.claim_cashback(croupier_bot::ClaimBody { telegram_id: 9, cashback_id: 4 }).await.expect("claim");
    assert_eq!(
        answer,
        croupier_bot::ClaimAnswer {
            outcome: croupier_bot::ClaimOutcome::AlreadyPaid,
            amount: "3.00".into(),
            currency: "EUR".into(),
            as_bonus: true,
            locale: Some("fr".into()),
        }
    );
    assert!(!backend.set_summary(9, true).await.expect("summary"), "the server knows no such player");
    let calls = api.state.internal.lock().unwrap().clone();
    assert_eq!(calls[2], ("cashback-claim".to_owned(), json!({"telegram_id": 9, "cashback_id": 4})));
    assert_eq!(calls[3], ("summary".to_owned(), json!({"telegram_id": 9, "on": true})));
    assert!(wrong.claim_cashback(croupier_bot::ClaimBody { telegram_id: 9, cashback_id: 4 }).await.is_err());
    assert!(wrong.set_summary(9, true).await.is_err());
    assert_eq!(api.state.internal.lock().unwrap().len(), 4);
}
