//! `croupier-server`: reads the configuration, opens the stores and serves until SIGTERM.

use croupier_server::{App, Config};
use std::process::ExitCode;

const USAGE: &str = "usage: croupier-server [serve | ledger check | content export|import DIR | admin withdrawals list [STATUS] | admin withdrawals approve|reject ID | admin freespins grant USER GAME COUNT BET CURRENCY [main|bonus] [DAYS]]\n\nConfiguration comes from croupier.toml and the environment; see README.md.";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command: Vec<&str> = args.iter().map(String::as_str).collect();
    match command.as_slice() {
        [] | ["serve"] | ["ledger", "check"] => {}
        ["content", "export" | "import", _] => {}
        ["admin", "withdrawals", "list"] | ["admin", "withdrawals", "list", _] => {}
        ["admin", "withdrawals", "approve" | "reject", _] => {}
        ["admin", "freespins", "grant", _, _, _, _, _] | ["admin", "freespins", "grant", _, _, _, _, _, _] => {}
        ["admin", "freespins", "grant", _, _, _, _, _, _, _] => {}
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
    if command.as_slice() == ["ledger", "check"] {
        return ledger_check(config).await;
    }
    if let ["content", action, dir] = command.as_slice() {
        return content(config, action, dir).await;
    }
    if let ["admin", "freespins", "grant", rest @ ..] = command.as_slice() {
        return grant_freespins(config, rest).await;
    }
    if command.first() == Some(&"admin") {
        return admin(config, &command[2..]).await;
    }
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
    let state = App::build(config).await?;
    let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
    tracing::info!(url = %format!("http://{}", listener.local_addr()?), "listening");
    croupier_server::serve(listener, state, croupier_server::shutdown_signal()).await.context("server error")
}

/// `croupier-server ledger check`: verifies the ledger's invariants; exits 1 on a violation.
#[allow(clippy::print_stdout)]
async fn ledger_check(config: Config) -> ExitCode {
    let result = async {
        let db = croupier_server::db::Db::connect(config.database_url.expose(), 2).await?;
        db.migrate().await?;
        anyhow::Ok(croupier_server::ledger::check(&db).await?)
    }
    .await;
    match result {
        Ok(report) if report.violations.is_empty() => {
            println!(
                "ledger ok: {} transactions, {} accounts, every invariant holds",
                report.transactions, report.accounts
            );
            ExitCode::SUCCESS
        }
        Ok(report) => {
            for violation in &report.violations {
                println!("VIOLATION: {violation}");
            }
            println!("ledger BROKEN: {} violations", report.violations.len());
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("croupier-server: ledger check failed: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// `croupier-server content export|import <dir>`: writes all content as JSON files under `dir`,
/// or replaces all content with the files under `dir` (checked first; nothing changes on error).
#[allow(clippy::print_stdout)]
async fn content(config: Config, action: &str, dir: &str) -> ExitCode {
    use croupier_server::features::content::store;
    let result = async {
        let db = croupier_server::db::Db::connect(config.database_url.expose(), 2).await?;
        db.migrate().await?;
        let dir = std::path::Path::new(dir);
        let done = if action == "export" {
            store::export_dir(&db, dir).await.map(|files| format!("exported {files} files to {}", dir.display()))
        } else {
            store::import_dir(&db, dir)
                .await
                .map(|entries| format!("imported {entries} entries from {}", dir.display()))
        };
        db.close().await;
        done
    }
    .await;
    match result {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("croupier-server: content {action} failed: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `croupier-server admin freespins grant USER GAME COUNT BET CURRENCY [main|bonus] [DAYS]`: gives
/// a player a free-spin pack (BET in minor units), through the same code as the operator API.
#[allow(clippy::print_stdout)]
async fn grant_freespins(config: Config, args: &[&str]) -> ExitCode {
    use croupier_server::features::freespins::GrantRequest;
    let [user, game, count, bet, currency, rest @ ..] = args else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let (Ok(user_id), Ok(count), Ok(bet)) = (user.parse(), count.parse(), bet.parse()) else {
        eprintln!("croupier-server: USER, COUNT and BET are whole numbers");
        return ExitCode::from(2);
    };
    let valid_days = match rest.get(1).map(|d| d.parse::<i64>()) {
        None => None,
        Some(Ok(days)) => Some(days),
        Some(Err(_)) => {
            eprintln!("croupier-server: DAYS is a whole number");
            return ExitCode::from(2);
        }
    };
    let request = GrantRequest {
        user_id,
        game: (*game).to_owned(),
        currency: (*currency).to_owned(),
        bet,
        count,
        win_account: rest.first().map(|w| (*w).to_owned()),
        valid_days,
    };
    let state = match App::build(config).await {
        Ok(state) => state,
        Err(e) => {
            eprintln!("croupier-server: {e:#}");
            return ExitCode::from(2);
        }
    };
    match request.grant(state.db()).await {
        Ok(id) => {
            println!("free-spin pack {id}: {count} spins of {game} for player {user_id}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("croupier-server: {e:?}");
            ExitCode::FAILURE
        }
    }
}

/// `croupier-server admin withdrawals …`: the operator's decisions, through the same code as the
/// operator API.
#[allow(clippy::print_stdout)]
async fn admin(config: Config, args: &[&str]) -> ExitCode {
    use croupier_server::features::cashier::withdrawals;
    let state = match App::build(config).await {
        Ok(state) => state,
        Err(e) => {
            eprintln!("croupier-server: {e:#}");
            return ExitCode::from(2);
        }
    };
    match args {
        ["list", rest @ ..] => match withdrawals::list(&state, rest.first().copied()).await {
            Ok(items) => {
                for (user_id, w) in items {
                    println!(
                        "{}\tplayer {user_id}\t{} {}\t{}\t{}",
                        w.id, w.amount.amount, w.amount.currency, w.method, w.status
                    );
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("croupier-server: {e:?}");
                ExitCode::FAILURE
            }
        },
        [action @ ("approve" | "reject"), id] => {
            let decision = if *action == "approve" {
                withdrawals::approve(&state, id).await
            } else {
                withdrawals::reject(&state, id).await
            };
            match decision {
                Ok(withdrawals::Decision::NotWaiting(status)) => {
                    eprintln!("withdrawal {id} is not awaiting a decision (status {status})");
                    ExitCode::FAILURE
                }
                Ok(d) => {
                    println!("withdrawal {id}: {d:?}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("croupier-server: {e:?}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
