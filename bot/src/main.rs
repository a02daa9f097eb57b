//! `croupier-bot`: reads its settings from the environment and polls Telegram until stopped.

use croupier_bot::{BotSettings, schema};
use std::process::ExitCode;
use teloxide::prelude::*;

fn setting(name: &str, default: Option<&str>) -> Result<String, String> {
    match std::env::var(name) {
        Ok(value) if !value.trim().is_empty() => Ok(value.trim().to_owned()),
        _ => default.map(str::to_owned).ok_or_else(|| format!("{name}: is required")),
    }
}

fn url(name: &str, default: &str) -> Result<reqwest::Url, String> {
    let text = setting(name, Some(default))?;
    reqwest::Url::parse(&text).map_err(|e| format!("{name}: {text:?} is not a URL ({e})"))
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt().with_writer(std::io::stderr).init();
    let config = (|| -> Result<_, String> {
        let token = setting("TELEGRAM_BOT_TOKEN", None)?;
        let api_url = url("TELEGRAM_API_URL", "https://api.telegram.org")?;
        let public_url = url("CROUPIER_PUBLIC_URL", "http://localhost:8080")?;
        let site_name = setting("CROUPIER_SITE_NAME", Some("Croupier"))?;
        Ok((token, api_url, BotSettings { public_url, site_name }))
    })();
    let (token, api_url, settings) = match config {
        Ok(config) => config,
        Err(e) => {
            eprintln!("croupier-bot: configuration error: {e}");
            return ExitCode::from(2);
        }
    };
    tracing::info!(api = %api_url, "starting croupier-bot (long polling)");
    let bot = Bot::new(token).set_api_url(api_url);
    Dispatcher::builder(bot, schema())
        .dependencies(dptree::deps![settings])
        .enable_ctrlc_handler()
        .build()
        .dispatch()
        .await;
    ExitCode::SUCCESS
}
