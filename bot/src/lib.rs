//! `croupier-bot`: the Telegram side of Croupier.
//!
//! Today it greets `/start` and `/help` in the player's language with a button into the mini-app.
//! Deep-link payloads, notifications and the internal API come with the Telegram issue; the
//! handler tree is already built by [`schema`] so tests can drive it against a fake Bot API.

use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo};
use teloxide::utils::command::BotCommands;

#[derive(BotCommands, Clone, Debug)]
#[command(rename_rule = "lowercase")]
pub enum Command {
    /// Open the casino.
    Start(String),
    /// What this bot can do.
    Help,
}

/// What the handlers need besides the update.
#[derive(Clone, Debug)]
pub struct BotSettings {
    /// The site's public origin; Telegram opens mini-apps only over HTTPS.
    pub public_url: reqwest::Url,
    pub site_name: String,
}

pub type HandlerResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

pub fn schema() -> UpdateHandler<Box<dyn std::error::Error + Send + Sync + 'static>> {
    Update::filter_message().filter_command::<Command>().endpoint(answer)
}

fn is_french(msg: &Message) -> bool {
    msg.from.as_ref().and_then(|u| u.language_code.as_deref()).is_some_and(|code| code.starts_with("fr"))
}

async fn answer(bot: Bot, msg: Message, command: Command, settings: BotSettings) -> HandlerResult {
    let french = is_french(&msg);
    let text = match (&command, french) {
        (Command::Start(_), false) => format!("Welcome to {}! Tap the button to open the casino.", settings.site_name),
        (Command::Start(_), true) => {
            format!("Bienvenue chez {} ! Touchez le bouton pour ouvrir le casino.", settings.site_name)
        }
        (Command::Help, false) => "/start opens the casino. Your account, deposits and games are inside.".to_owned(),
        (Command::Help, true) => {
            "/start ouvre le casino. Votre compte, vos dépôts et vos jeux s'y trouvent.".to_owned()
        }
    };
    let mut url = settings.public_url.clone();
    if french {
        url.set_path("/fr");
    }
    let label = if french { "Ouvrir le casino" } else { "Open the casino" };
    let button = if url.scheme() == "https" {
        InlineKeyboardButton::web_app(label, WebAppInfo { url })
    } else {
        InlineKeyboardButton::url(label, url)
    };
    bot.send_message(msg.chat.id, text).reply_markup(InlineKeyboardMarkup::new([[button]])).await?;
    Ok(())
}
