//! `croupier-server`: reads the configuration, opens the stores and serves until SIGTERM.

use croupier_server::{AppState, Config};
use std::process::ExitCode;

const USAGE: &str =
    "usage: croupier-server [serve]\n\nConfiguration comes from croupier.toml and the environment; see README.md.";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] | ["serve"] => {}
        ["--help" | "-h" | "help"] => {
            eprintln!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    }
    let config = match Config::load() {
        Ok(config) => config,
        Err(e) => {
            eprintln!("croupier-server: configuration error: {e}");
            return ExitCode::from(2);
        }
    };
    croupier_server::telemetry::init(&config);
    match serve(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = format!("{e:#}"), "croupier-server stopped");
            eprintln!("croupier-server: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let addr = config.addr;
    tracing::info!(
        addr = %addr,
        env = ?config.env,
        database = %config.database_url_for_logs(),
        redis = config.redis_url.is_some(),
        web_dir = %config.web_dir.display(),
        "starting croupier-server"
    );
    let state = AppState::build(config).await?;
    let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
    tracing::info!(url = %format!("http://{}", listener.local_addr()?), "listening");
    croupier_server::serve(listener, state, croupier_server::shutdown_signal()).await.context("server error")
}
