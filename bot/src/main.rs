//! `croupier-bot`: the standalone bot of the scaled setup (`CROUPIER_BOT=external` on the
//! servers). Reads its settings from the environment, talks to the server's internal API with
//! the shared secret, and receives updates by long polling, or through a webhook when
//! `CROUPIER_BOT_WEBHOOK_URL` is set (Telegram must then send `TELEGRAM_WEBHOOK_SECRET` back in
//! its secret-token header).

use croupier_bot::{BotSettings, HttpBackend, connect, limits};
use std::process::ExitCode;
use std::sync::Arc;

fn setting(name: &str, default: Option<&str>) -> Result<String, String> {
    match std::env::var(name) {
        Ok(value) if !value.trim().is_empty() => Ok(value.trim().to_owned()),
        _ => default.map(str::to_owned).ok_or_else(|| format!("{name}: is required")),
    }
}

fn url(name: &str, default: Option<&str>) -> Result<reqwest::Url, String> {
    let text = setting(name, default)?;
    reqwest::Url::parse(&text).map_err(|e| format!("{name}: {text:?} is not a URL ({e})"))
}

struct Webhook {
    url: reqwest::Url,
    secret: String,
    addr: std::net::SocketAddr,
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt().with_writer(std::io::stderr).init();
    let config = (|| -> Result<_, String> {
        let token = setting("TELEGRAM_BOT_TOKEN", None)?;
        let secret = setting("CROUPIER_INTERNAL_SECRET", None)?;
        let server = url("CROUPIER_SERVER_URL", Some("http://127.0.0.1:8080"))?;
        let api_url = url("TELEGRAM_API_URL", Some("https://api.telegram.org"))?;
        let public_url = url("CROUPIER_PUBLIC_URL", Some("http://localhost:8080"))?;
        let site_name = setting("CROUPIER_SITE_NAME", Some("Croupier"))?;
        let webhook = match setting("CROUPIER_BOT_WEBHOOK_URL", None) {
            Err(_) => None,
            Ok(_) => {
                let url = url("CROUPIER_BOT_WEBHOOK_URL", None)?;
                let secret = setting("TELEGRAM_WEBHOOK_SECRET", None)?;
                let valid = (1..=256).contains(&secret.len())
                    && secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
                if !valid {
                    return Err("TELEGRAM_WEBHOOK_SECRET: 1-256 characters A-Z a-z 0-9 _ -".to_owned());
                }
                let addr_text = setting("CROUPIER_BOT_ADDR", Some("0.0.0.0:8443"))?;
                let addr = addr_text
                    .parse()
                    .map_err(|_| format!("CROUPIER_BOT_ADDR: {addr_text:?} is not an address like 0.0.0.0:8443"))?;
                Some(Webhook { url, secret, addr })
            }
        };
        Ok((token, secret, server, api_url, webhook, BotSettings { public_url, site_name }))
    })();
    let (token, secret, server, api_url, webhook, settings) = match config {
        Ok(config) => config,
        Err(e) => {
            eprintln!("croupier-bot: configuration error: {e}");
            return ExitCode::from(2);
        }
    };
    let bot = connect(&token, api_url.clone(), limits());
    let backend = Arc::new(HttpBackend::new(server, secret));
    match webhook {
        None => {
            tracing::info!(api = %api_url, "starting croupier-bot (long polling)");
            croupier_bot::run_polling(bot, settings, backend, true).await;
        }
        Some(Webhook { url, secret, addr }) => {
            tracing::info!(api = %api_url, %addr, "starting croupier-bot (webhook)");
            if let Err(e) = croupier_bot::run_webhook(bot, settings, backend, addr, url, secret).await {
                eprintln!("croupier-bot: {e:#}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
