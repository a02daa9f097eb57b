//! A fake Telegram Bot API (and a fake internal API of the server) on 127.0.0.1:0, recording
//! every call. teloxide is pointed at it with `set_api_url`.

#![allow(dead_code)]

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::post;
use croupier_bot::{Backend, BotSettings, ClaimAnswer, ClaimBody, ClaimOutcome, Seen, TgBot};
use croupier_shared::Locale;
use futures::future::BoxFuture;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const TOKEN: &str = "123456:TEST-token";
pub const INTERNAL_SECRET: &str = "internal-secret-for-tests";

#[derive(Debug, Clone)]
pub struct Call {
    pub method: String,
    pub body: Value,
    pub at: Instant,
}

#[derive(Default)]
pub struct FakeState {
    pub calls: Mutex<Vec<Call>>,
    /// Chats whose user blocked the bot: sendMessage answers 403.
    pub blocked: Mutex<HashSet<i64>>,
    /// Chats that get one 429 (retry after this many seconds) before being served.
    pub too_many: Mutex<HashMap<i64, u32>>,
    pub updates: Mutex<VecDeque<Value>>,
    /// Internal API calls that carried the right secret: (path, body).
    pub internal: Mutex<Vec<(String, Value)>>,
    /// What `/internal/telegram/seen` answers as the player's locale.
    pub known_locale: Mutex<Option<String>>,
    next_id: Mutex<i64>,
}

pub struct FakeApi {
    pub state: Arc<FakeState>,
    pub url: reqwest::Url,
}

impl FakeApi {
    pub async fn start() -> FakeApi {
        let state = Arc::new(FakeState::default());
        let app = Router::new()
            .route("/internal/telegram/{what}", post(internal))
            .route("/{bot}/{method}", post(bot_api))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind fake api");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            axum::serve(listener, app).await.expect("fake api");
        });
        FakeApi { state, url: reqwest::Url::parse(&format!("http://{addr}/")).expect("url") }
    }

    pub fn bot(&self) -> TgBot {
        croupier_bot::connect(TOKEN, self.url.clone(), croupier_bot::limits())
    }

    pub fn calls(&self, method: &str) -> Vec<Call> {
        self.state.calls.lock().unwrap().iter().filter(|c| c.method.eq_ignore_ascii_case(method)).cloned().collect()
    }

    /// Waits until `count` calls of `method` were made (or fails after `within`).
    pub async fn wait_for(&self, method: &str, count: usize, within: Duration) -> Vec<Call> {
        let deadline = Instant::now() + within;
        loop {
            let calls = self.calls(method);
            if calls.len() >= count {
                return calls;
            }
            assert!(Instant::now() < deadline, "only {} {method} calls after {within:?}", calls.len());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

pub fn settings() -> BotSettings {
    BotSettings { public_url: reqwest::Url::parse("https://casino.example").unwrap(), site_name: "Croupier".into() }
}

fn fail(code: u16, description: &str, retry_after: Option<u32>) -> Response {
    let mut body = json!({"ok": false, "error_code": code, "description": description});
    if let Some(seconds) = retry_after {
        body["parameters"] = json!({"retry_after": seconds});
    }
    (StatusCode::from_u16(code).unwrap(), Json(body)).into_response()
}

async fn bot_api(
    State(state): State<Arc<FakeState>>,
    Path((bot, method)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    if bot != format!("bot{TOKEN}") {
        return fail(401, "Unauthorized", None);
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    state.calls.lock().unwrap().push(Call { method: method.clone(), body: body.clone(), at: Instant::now() });
    match method.to_ascii_lowercase().as_str() {
        "getme" => Json(json!({"ok": true, "result": {
            "id": 123456, "is_bot": true, "first_name": "Croupier", "username": "croupier_bot",
            "can_join_groups": true, "can_read_all_group_messages": false, "supports_inline_queries": false, "has_main_web_app": true
        }}))
        .into_response(),
        "sendmessage" => {
            let chat = body["chat_id"].as_i64().unwrap_or_default();
            if state.blocked.lock().unwrap().contains(&chat) {
                return fail(403, "Forbidden: bot was blocked by the user", None);
            }
            if let Some(seconds) = state.too_many.lock().unwrap().remove(&chat) {
                return fail(429, &format!("Too Many Requests: retry after {seconds}"), Some(seconds));
            }
            let id = {
                let mut next = state.next_id.lock().unwrap();
                *next += 1;
                *next
            };
            let chat_json = if chat < 0 {
                json!({"id": chat, "type": "supergroup", "title": "Group"})
            } else {
                json!({"id": chat, "type": "private", "first_name": "Player"})
            };
            Json(json!({"ok": true, "result": {
                "message_id": id, "date": 1_700_000_000, "chat": chat_json, "text": body["text"].clone()
            }}))
            .into_response()
        }
        "getupdates" => {
            let pending: Vec<Value> = state.updates.lock().unwrap().drain(..).collect();
            if pending.is_empty() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Json(json!({"ok": true, "result": pending})).into_response()
        }
        _ => Json(json!({"ok": true, "result": true})).into_response(),
    }
}

async fn internal(
    State(state): State<Arc<FakeState>>,
    Path(what): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if headers.get(croupier_bot::INTERNAL_SECRET_HEADER).and_then(|v| v.to_str().ok()) != Some(INTERNAL_SECRET) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    state.internal.lock().unwrap().push((what.clone(), body));
    match what.as_str() {
        "seen" => Json(json!({"locale": state.known_locale.lock().unwrap().clone()})).into_response(),
        "cashback-claim" => Json(json!({
            "outcome": "already_paid", "amount": "3.00", "currency": "EUR", "as_bonus": true, "locale": "fr"
        }))
        .into_response(),
        "summary" => Json(json!({"linked": false})).into_response(),
        _ => Json(json!({"ok": true})).into_response(),
    }
}

/// A `Backend` that remembers what it was told, with a language it may already know.
#[derive(Default)]
pub struct MemoryBackend {
    pub seen: Mutex<Vec<Seen>>,
    pub languages: Mutex<Vec<(i64, Locale)>>,
    pub known: Mutex<Option<Locale>>,
    pub claims: Mutex<Vec<ClaimBody>>,
    pub summaries: Mutex<Vec<(i64, bool)>>,
}

impl Backend for MemoryBackend {
    fn seen(&self, seen: Seen) -> BoxFuture<'_, anyhow::Result<Option<Locale>>> {
        self.seen.lock().unwrap().push(seen);
        let known = *self.known.lock().unwrap();
        Box::pin(async move { Ok(known) })
    }

    fn set_language(&self, telegram_id: i64, locale: Locale) -> BoxFuture<'_, anyhow::Result<()>> {
        self.languages.lock().unwrap().push((telegram_id, locale));
        *self.known.lock().unwrap() = Some(locale);
        Box::pin(async { Ok(()) })
    }

    fn claim_cashback(&self, claim: ClaimBody) -> BoxFuture<'_, anyhow::Result<ClaimAnswer>> {
        // A memory of one cashback (id 7, 12.50 USD) that pays once.
        let mut claims = self.claims.lock().unwrap();
        let outcome = if claim.cashback_id != 7 {
            ClaimOutcome::Unavailable
        } else if claims.iter().any(|c| c.cashback_id == 7) {
            ClaimOutcome::AlreadyPaid
        } else {
            ClaimOutcome::Paid
        };
        claims.push(claim);
        let locale = self.known.lock().unwrap().map(|l| l.code().to_owned());
        Box::pin(async move {
            Ok(ClaimAnswer { outcome, amount: "12.50".into(), currency: "USD".into(), as_bonus: false, locale })
        })
    }

    fn set_summary(&self, telegram_id: i64, on: bool) -> BoxFuture<'_, anyhow::Result<bool>> {
        self.summaries.lock().unwrap().push((telegram_id, on));
        Box::pin(async { Ok(true) })
    }
}

/// A text message update from user `from` (language `lang`) in `chat` (negative: a group).
pub fn message(update_id: i64, chat: i64, from: i64, lang: &str, text: &str) -> Value {
    let chat_json = if chat < 0 {
        json!({"id": chat, "type": "supergroup", "title": "Casino fans"})
    } else {
        json!({"id": chat, "type": "private", "first_name": "Ann"})
    };
    let command_len = text.split_whitespace().next().map(str::len).unwrap_or(0);
    json!({
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": 1_700_000_000,
            "chat": chat_json,
            "from": {"id": from, "is_bot": false, "first_name": "Ann", "language_code": lang},
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": command_len}]
        }
    })
}
