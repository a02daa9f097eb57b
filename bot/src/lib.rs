//! `croupier-bot`: the Telegram side of Croupier (DESIGN.md "Telegram").
//!
//! - `/start [payload]` welcomes the player in their language with a button into the mini-app at
//!   the page the deep link names (the payload is read with the one grammar of
//!   [`croupier_shared::telegram::deep_link`]; its promo code is announced and travels on to the
//!   mini-app as the `startapp` query parameter). `/play` opens the games, `/help` lists the
//!   commands, `/language [en|fr]` shows or changes the bot's language, `/summary on|off` turns
//!   the weekly club summary on or off ([`Backend::set_summary`]).
//! - Callback queries: a cashback notice's claim button (`cb:{cashback id}`) claims it through
//!   [`Backend::claim_cashback`]; the press is answered and the outcome said in the chat, in the
//!   player's language.
//! - In a private chat the button is a `web_app` button (Telegram opens the mini-app signed in);
//!   in groups, where `web_app` buttons are not allowed, it is a URL button to
//!   `https://t.me/<bot>?startapp=<payload>`, which opens the bot's main mini-app.
//! - [`setup`] sets the chat menu button to open the mini-app and registers the command list.
//! - Everything is sent through teloxide's [`Throttle`] with [`limits`]: 1 message a second per
//!   chat, 30 a second overall, 20 a minute per group; a 429 answer freezes the chat (or the
//!   bot) for its `retry_after` and the request is sent again.
//! - The bot never opens the database: what it must know or record about a player goes through
//!   a [`Backend`] — the server's internal API over HTTP ([`HttpBackend`], shared secret) when the
//!   bot runs apart, or the server's own functions in-process when it runs embedded.
//! - Updates arrive by long polling ([`run_polling`]) or through a webhook whose secret token
//!   header Telegram must send back ([`run_webhook`], [`webhook_router`]).
//! - [`notice`] renders and delivers the server's notifications.

pub mod notice;
pub mod texts;

use croupier_shared::Locale;
use croupier_shared::telegram::deep_link::{self, DeepLink};
use futures::future::BoxFuture;
use std::sync::Arc;
use teloxide::adaptors::Throttle;
pub use teloxide::adaptors::throttle::Limits;
use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::types::{BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, Me, MenuButton, WebAppInfo};
use teloxide::update_listeners::webhooks;
use teloxide::utils::command::BotCommands;

/// The bot as every part of Croupier uses it: throttled.
pub type TgBot = Throttle<Bot>;

pub type HandlerError = Box<dyn std::error::Error + Send + Sync + 'static>;
pub type HandlerResult = Result<(), HandlerError>;

/// Header carrying the shared secret on internal API calls.
pub const INTERNAL_SECRET_HEADER: &str = "x-croupier-internal-secret";

#[derive(BotCommands, Clone, Debug, PartialEq, Eq)]
#[command(rename_rule = "lowercase")]
pub enum Command {
    /// Open the casino.
    Start(String),
    /// Open the games.
    Play,
    /// Change the language.
    Language(String),
    /// The weekly club summary: on or off.
    Summary(String),
    /// What this bot can do.
    Help,
}

/// What the handlers need besides the update.
#[derive(Clone, Debug)]
pub struct BotSettings {
    /// The site's public origin; Telegram opens mini-apps only over HTTPS (over plain HTTP, as in
    /// development, the buttons are URL buttons instead).
    pub public_url: reqwest::Url,
    pub site_name: String,
}

/// Telegram's limits (core.telegram.org/bots/faq): 1 message a second in a chat, 30 a second
/// overall, 20 a minute in a group.
pub fn limits() -> Limits {
    Limits {
        messages_per_sec_chat: 1,
        messages_per_min_chat: 20,
        messages_per_min_channel_or_supergroup: 20,
        messages_per_sec_overall: 30,
    }
}

/// A throttled bot talking to `api_url` (Telegram, or a fake Bot API in tests). Needs a Tokio
/// runtime: the throttle's worker is spawned here.
pub fn connect(token: &str, api_url: reqwest::Url, limits: Limits) -> TgBot {
    Bot::new(token).set_api_url(api_url).throttle(limits)
}

/// What a player did that the server should know: the chat to write to and the language.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Seen {
    pub telegram_id: i64,
    pub chat_id: i64,
    pub language_code: Option<String>,
    pub payload: Option<String>,
}

/// The server, as the bot sees it.
pub trait Backend: Send + Sync {
    /// A player wrote to the bot in a private chat (`/start`): the server records the chat (and
    /// that the player no longer blocks the bot) and answers the player's language, if it knows
    /// one (chosen with `/language`, or the linked account's).
    fn seen(&self, seen: Seen) -> BoxFuture<'_, anyhow::Result<Option<Locale>>>;
    /// The player chose a language with `/language`.
    fn set_language(&self, telegram_id: i64, locale: Locale) -> BoxFuture<'_, anyhow::Result<()>>;
    /// The player pressed a cashback notice's claim button: the server pays it (once) if it is
    /// theirs and still claimable.
    fn claim_cashback(&self, claim: ClaimBody) -> BoxFuture<'_, anyhow::Result<ClaimAnswer>>;
    /// `/summary on|off`: answers false when no account is linked to this Telegram user.
    fn set_summary(&self, telegram_id: i64, on: bool) -> BoxFuture<'_, anyhow::Result<bool>>;
}

/// A cashback claim from the chat.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClaimBody {
    pub telegram_id: i64,
    pub cashback_id: i64,
}

/// What a claim did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimOutcome {
    Paid,
    AlreadyPaid,
    Expired,
    /// Not this player's, unknown, declined, waiting for approval or rejected.
    Unavailable,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClaimAnswer {
    pub outcome: ClaimOutcome,
    /// Decimal, empty when unavailable.
    pub amount: String,
    pub currency: String,
    pub as_bonus: bool,
    /// The player's language, when the server knows it.
    pub locale: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SummaryBody {
    pub telegram_id: i64,
    pub on: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SummaryAnswer {
    pub linked: bool,
}

/// The server's internal API over HTTP, authenticated with the shared secret.
#[derive(Clone, Debug)]
pub struct HttpBackend {
    client: reqwest::Client,
    base: reqwest::Url,
    secret: String,
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct LanguageBody {
    pub telegram_id: i64,
    pub locale: String,
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct SeenAnswer {
    pub locale: Option<String>,
}

impl HttpBackend {
    pub fn new(base: reqwest::Url, secret: impl Into<String>) -> HttpBackend {
        let client = reqwest::Client::builder().timeout(std::time::Duration::from_secs(10)).build().unwrap_or_default();
        HttpBackend { client, base, secret: secret.into() }
    }

    async fn post<T: serde::Serialize>(&self, path: &str, body: &T) -> anyhow::Result<reqwest::Response> {
        let url = self.base.join(path)?;
        let response = self.client.post(url).header(INTERNAL_SECRET_HEADER, &self.secret).json(body).send().await?;
        if !response.status().is_success() {
            anyhow::bail!("internal API {path}: HTTP {}", response.status());
        }
        Ok(response)
    }
}

impl Backend for HttpBackend {
    fn seen(&self, seen: Seen) -> BoxFuture<'_, anyhow::Result<Option<Locale>>> {
        Box::pin(async move {
            let answer: SeenAnswer = self.post("/internal/telegram/seen", &seen).await?.json().await?;
            Ok(answer.locale.as_deref().and_then(Locale::parse))
        })
    }

    fn set_language(&self, telegram_id: i64, locale: Locale) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(async move {
            self.post("/internal/telegram/language", &LanguageBody { telegram_id, locale: locale.code().to_owned() })
                .await?;
            Ok(())
        })
    }

    fn claim_cashback(&self, claim: ClaimBody) -> BoxFuture<'_, anyhow::Result<ClaimAnswer>> {
        Box::pin(async move { Ok(self.post("/internal/telegram/cashback-claim", &claim).await?.json().await?) })
    }

    fn set_summary(&self, telegram_id: i64, on: bool) -> BoxFuture<'_, anyhow::Result<bool>> {
        Box::pin(async move {
            let answer: SummaryAnswer =
                self.post("/internal/telegram/summary", &SummaryBody { telegram_id, on }).await?.json().await?;
            Ok(answer.linked)
        })
    }
}

/// The handler tree; [`run_polling`] and [`run_webhook`] both use it.
pub fn schema() -> UpdateHandler<HandlerError> {
    dptree::entry()
        .branch(Update::filter_message().filter_command::<Command>().endpoint(answer))
        .branch(Update::filter_callback_query().endpoint(on_callback))
}

/// A button press: `cb:{id}` claims that cashback for the presser, answers the press and says
/// in the chat what happened. Other data is acknowledged and ignored.
async fn on_callback(bot: TgBot, query: CallbackQuery, backend: Arc<dyn Backend>) -> HandlerResult {
    let Some(cashback_id) =
        query.data.as_deref().and_then(|d| d.strip_prefix("cb:")).and_then(|id| id.parse::<i64>().ok())
    else {
        bot.answer_callback_query(query.id.clone()).await?;
        return Ok(());
    };
    let telegram_id = i64::try_from(query.from.id.0).unwrap_or(i64::MAX);
    let fallback = locale_of(query.from.language_code.as_deref());
    let answer = match backend.claim_cashback(ClaimBody { telegram_id, cashback_id }).await {
        Ok(answer) => answer,
        Err(e) => {
            tracing::warn!(error = format!("{e:#}"), "cashback claim from the chat failed");
            bot.answer_callback_query(query.id.clone()).text(texts::claim_failed(fallback)).await?;
            return Ok(());
        }
    };
    let locale = answer.locale.as_deref().and_then(Locale::parse).unwrap_or(fallback);
    let text = texts::claimed(locale, answer.outcome, &answer.amount, &answer.currency, answer.as_bonus);
    bot.answer_callback_query(query.id.clone()).text(text.clone()).await?;
    // The chat the button was in (a private chat's id is the user's).
    let chat = query.message.as_ref().map_or(ChatId(telegram_id), |m| m.chat().id);
    bot.send_message(chat, text).await?;
    Ok(())
}

/// Telegram's `language_code` as one of ours (`fr…` is French, anything else English).
pub fn locale_of(language_code: Option<&str>) -> Locale {
    if language_code.is_some_and(|code| code.to_ascii_lowercase().starts_with("fr")) { Locale::Fr } else { Locale::En }
}

/// `path` in the mini-app, in `locale` (French under `/fr`), with `query`.
pub fn app_url(settings: &BotSettings, locale: Locale, path: &str, query: &[(&str, &str)]) -> reqwest::Url {
    let mut url = settings.public_url.clone();
    let full = match (locale, path) {
        (Locale::Fr, "/") => "/fr".to_owned(),
        (Locale::Fr, path) => format!("/fr{path}"),
        (_, path) => path.to_owned(),
    };
    url.set_path(&full);
    url.set_query(None);
    if !query.is_empty() {
        url.query_pairs_mut().extend_pairs(query);
    }
    url
}

/// A button opening `url` in the mini-app (`web_app`, HTTPS only), else an ordinary URL button.
pub fn app_button(label: &str, url: reqwest::Url) -> InlineKeyboardButton {
    if url.scheme() == "https" {
        InlineKeyboardButton::web_app(label, WebAppInfo { url })
    } else {
        InlineKeyboardButton::url(label, url)
    }
}

/// The group-chat form of a deep link: `https://t.me/<bot>?startapp=<payload>`.
pub fn startapp_link(bot_username: &str, payload: &str) -> reqwest::Url {
    let text = if payload.is_empty() {
        format!("https://t.me/{bot_username}?startapp")
    } else {
        format!("https://t.me/{bot_username}?startapp={payload}")
    };
    reqwest::Url::parse(&text).unwrap_or_else(|_| unreachable!("bot usernames and payloads are URL-safe"))
}

async fn answer(
    bot: TgBot,
    msg: Message,
    me: Me,
    command: Command,
    settings: BotSettings,
    backend: Arc<dyn Backend>,
) -> HandlerResult {
    let from = msg.from.as_ref();
    let language_code = from.and_then(|u| u.language_code.clone());
    let mut locale = locale_of(language_code.as_deref());
    let private = msg.chat.is_private();
    let payload = match &command {
        Command::Start(payload) => payload.trim().to_owned(),
        _ => String::new(),
    };
    if let (true, Some(user)) = (private, from) {
        let telegram_id = i64::try_from(user.id.0).unwrap_or(i64::MAX);
        let seen = Seen {
            telegram_id,
            chat_id: msg.chat.id.0,
            language_code: language_code.clone(),
            payload: Some(payload.clone()).filter(|p| !p.is_empty()),
        };
        match backend.seen(seen).await {
            Ok(Some(known)) => locale = known,
            Ok(None) => {}
            Err(e) => tracing::warn!(error = format!("{e:#}"), "the server did not take the player's chat"),
        }
    }
    let (text, label, link): (String, &str, DeepLink) = match &command {
        Command::Start(_) => {
            let link = if payload.is_empty() {
                DeepLink::default()
            } else {
                deep_link::decode(&payload).unwrap_or_else(|e| {
                    tracing::info!(error = %e, "a /start payload that does not read; welcoming anyway");
                    DeepLink::default()
                })
            };
            (texts::welcome(locale, &settings.site_name, link.promo_code.as_deref()), texts::open_casino(locale), link)
        }
        Command::Play => {
            let link =
                DeepLink { target: Some(deep_link::Target::Page(deep_link::Page::Gamehall)), ..DeepLink::default() };
            (texts::play(locale).to_owned(), texts::open_games(locale), link)
        }
        Command::Help => (texts::help(locale).to_owned(), texts::open_casino(locale), DeepLink::default()),
        Command::Summary(arg) => {
            let on = match arg.trim().to_ascii_lowercase().as_str() {
                "on" | "oui" | "yes" => Some(true),
                "off" | "non" | "no" => Some(false),
                _ => None,
            };
            let linked = match (on, from) {
                (Some(on), Some(user)) => {
                    let telegram_id = i64::try_from(user.id.0).unwrap_or(i64::MAX);
                    backend.set_summary(telegram_id, on).await.map_err(|e| -> HandlerError { e.into() })?
                }
                // Nothing to change (no argument), or no sender to change it for.
                (None, _) => true,
                (Some(_), None) => false,
            };
            (texts::summary(locale, on, linked).to_owned(), texts::open_casino(locale), DeepLink::default())
        }
        Command::Language(arg) => {
            let arg = arg.trim();
            let text = if arg.is_empty() {
                texts::language_current(locale)
            } else if let Some(chosen) = Locale::parse(&arg.to_ascii_lowercase()) {
                if let Some(user) = from {
                    let telegram_id = i64::try_from(user.id.0).unwrap_or(i64::MAX);
                    backend.set_language(telegram_id, chosen).await.map_err(|e| -> HandlerError { e.into() })?;
                }
                locale = chosen;
                texts::language_set(chosen)
            } else {
                texts::language_unknown(locale)
            };
            (text.to_owned(), texts::open_casino(locale), DeepLink::default())
        }
    };
    // The link as re-encoded (only what was understood travels on to the mini-app).
    let startapp = deep_link::encode(&link, deep_link::Limit::StartApp).unwrap_or_default();
    let button = if private {
        let path = link.target.as_ref().map(|t| t.path()).unwrap_or_else(|| "/".to_owned());
        let query: Vec<(&str, &str)> =
            if startapp.is_empty() { Vec::new() } else { vec![("startapp", startapp.as_str())] };
        app_button(label, app_url(&settings, locale, &path, &query))
    } else {
        InlineKeyboardButton::url(label, startapp_link(me.username(), &startapp))
    };
    bot.send_message(msg.chat.id, text).reply_markup(InlineKeyboardMarkup::new([[button]])).await?;
    Ok(())
}

/// The command list (English by default, French for French clients) and the chat menu button
/// that opens the mini-app (HTTPS only; over HTTP the menu keeps the command list).
pub async fn setup(bot: &TgBot, settings: &BotSettings) -> Result<(), teloxide::RequestError> {
    let list = |locale| texts::commands(locale).map(|(c, d)| BotCommand::new(c, d)).to_vec();
    bot.set_my_commands(list(Locale::En)).await?;
    bot.set_my_commands(list(Locale::Fr)).language_code("fr").await?;
    if settings.public_url.scheme() == "https" {
        let web_app = WebAppInfo { url: app_url(settings, Locale::En, "/", &[]) };
        bot.set_chat_menu_button()
            .menu_button(MenuButton::WebApp { text: texts::open_casino(Locale::En).to_owned(), web_app })
            .await?;
    }
    Ok(())
}

fn dispatcher(
    bot: TgBot,
    settings: BotSettings,
    backend: Arc<dyn Backend>,
) -> Dispatcher<TgBot, HandlerError, teloxide::dispatching::DefaultKey> {
    Dispatcher::builder(bot, schema())
        .dependencies(dptree::deps![settings, backend])
        .default_handler(|_| async {})
        .build()
}

/// Long polling until the task is dropped or Ctrl-C (when `ctrlc` is set).
pub async fn run_polling(bot: TgBot, settings: BotSettings, backend: Arc<dyn Backend>, ctrlc: bool) {
    if let Err(e) = setup(&bot, &settings).await {
        tracing::warn!(error = %e, "cannot set the bot's commands and menu button");
    }
    let mut dispatcher = dispatcher(bot, settings, backend);
    if ctrlc {
        dispatcher = dispatcher_with_ctrlc(dispatcher);
    }
    dispatcher.dispatch().await;
}

fn dispatcher_with_ctrlc(
    dispatcher: Dispatcher<TgBot, HandlerError, teloxide::dispatching::DefaultKey>,
) -> Dispatcher<TgBot, HandlerError, teloxide::dispatching::DefaultKey> {
    let token = dispatcher.shutdown_token();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok()
            && let Ok(done) = token.shutdown()
        {
            done.await;
        }
    });
    dispatcher
}

/// The webhook endpoint as an axum router (Telegram must send `secret` in its
/// `X-Telegram-Bot-Api-Secret-Token` header; anything else is answered 401) and the dispatcher
/// fed by it. Nothing is registered with Telegram: [`run_webhook`] does that.
pub fn webhook_router(
    bot: TgBot,
    settings: BotSettings,
    backend: Arc<dyn Backend>,
    url: reqwest::Url,
    secret: String,
) -> (axum::Router, BoxFuture<'static, ()>) {
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let options = webhooks::Options::new(address, url).secret_token(secret);
    let (listener, stop_flag, router) = webhooks::axum_no_setup(options);
    let mut dispatcher = dispatcher(bot, settings, backend);
    let run = async move {
        let _stop = stop_flag;
        dispatcher
            .dispatch_with_listener(listener, LoggingErrorHandler::with_custom_text("webhook update listener"))
            .await;
    };
    (router, Box::pin(run))
}

/// Webhook mode: registers `url` with Telegram (with the secret token), listens on `address`
/// and dispatches until Ctrl-C.
pub async fn run_webhook(
    bot: TgBot,
    settings: BotSettings,
    backend: Arc<dyn Backend>,
    address: std::net::SocketAddr,
    url: reqwest::Url,
    secret: String,
) -> anyhow::Result<()> {
    if let Err(e) = setup(&bot, &settings).await {
        tracing::warn!(error = %e, "cannot set the bot's commands and menu button");
    }
    let options = webhooks::Options::new(address, url).secret_token(secret);
    let listener = webhooks::axum(bot.clone(), options).await?;
    let mut dispatcher = dispatcher_with_ctrlc(dispatcher(bot, settings, backend));
    dispatcher.dispatch_with_listener(listener, LoggingErrorHandler::with_custom_text("webhook update listener")).await;
    Ok(())
}
