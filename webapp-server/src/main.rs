//! `croupier-server`: reads the configuration, opens the stores and serves until SIGTERM.

use croupier_server::{App, Config};
use std::process::ExitCode;

// The C library's allocator, on purpose: mimalloc (tried 2026-11-27) kept the start-up's
// freed memory (migrations, demo content, precompressed assets) resident — 124 MiB at start and
// 174.5 MiB after `make bench`, over the 150 MB goal, against 61 MiB with its purging forced —
// for a throughput gain this 2-core machine's noise could not show.

const USAGE: &str = "usage: croupier-server [serve | ledger check | backup FILE | restore FILE | content export|import DIR | admin withdrawals list [STATUS] | admin withdrawals approve|reject ID | admin freespins grant USER GAME COUNT BET CURRENCY [main|bonus] [DAYS] | admin campaigns list | admin campaigns create FILE.json | admin campaigns update ID FILE.json | admin campaigns pause|resume|end ID | admin promo-codes create CODE CAMPAIGN_ID [MAX_USES] | admin bonuses grant USER CAMPAIGN_ID REASON | admin bonuses cancel BONUS_ID REASON | admin cashbacks approve ID | admin cashbacks reject ID REASON | admin loyalty points USER POINTS REASON | admin players ban USER REASON [BAN_TYPE] | admin players unban USER REASON | admin players verification USER STATUS REASON | admin maintenance on|off REASON | admin tournaments list | admin tournaments create|update [ID] FILE.json | admin tournaments cancel ID REASON | admin tournaments report ID | admin jackpots list | admin jackpots create|update [ID] FILE.json | admin jackpots pause|resume|close ID | admin jackpots report ID | admin sportsbook markets [EVENT_ID] | admin sportsbook market MARKET_ID | admin sportsbook suspend|reopen|void MARKET_ID REASON | admin sportsbook settle|resettle MARKET_ID RESULTS_JSON REASON | admin sportsbook limits | admin sportsbook limits sport SPORT CURRENCY MIN|- MAX|- MAX_PAYOUT|- REASON | admin sportsbook limits player USER FACTOR_BP|- MAX_STAKE|- blocked|open REASON | admin operators create --email EMAIL --name NAME --role ROLE [--password-file FILE] | admin operators create EMAIL ROLE NAME | admin operators list | admin operators disable EMAIL]\n\nAn operator's password is read from --password-file, else CROUPIER_OPERATOR_PASSWORD, else the first line of standard input (never from the command line).\n\nConfiguration comes from croupier.toml and the environment; see README.md.";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command: Vec<&str> = args.iter().map(String::as_str).collect();
    match command.as_slice() {
        [] | ["serve"] | ["ledger", "check"] | ["backup" | "restore", _] => {}
        ["content", "export" | "import", _] => {}
        ["admin", "withdrawals", "list"] | ["admin", "withdrawals", "list", _] => {}
        ["admin", "withdrawals", "approve" | "reject", _] => {}
        ["admin", "freespins", "grant", _, _, _, _, _] | ["admin", "freespins", "grant", _, _, _, _, _, _] => {}
        ["admin", "freespins", "grant", _, _, _, _, _, _, _] => {}
        ["admin", "campaigns", "list"]
        | ["admin", "campaigns", "create", _]
        | ["admin", "campaigns", "update", _, _] => {}
        ["admin", "campaigns", "pause" | "resume" | "end", _] => {}
        ["admin", "promo-codes", "create", _, _] | ["admin", "promo-codes", "create", _, _, _] => {}
        ["admin", "bonuses", "grant", _, _, _] | ["admin", "bonuses", "cancel", _, _] => {}
        ["admin", "cashbacks", "approve", _] | ["admin", "cashbacks", "reject", _, _] => {}
        ["admin", "loyalty", "points", _, _, _] => {}
        ["admin", "players", "ban", _, _] | ["admin", "players", "ban", _, _, _] => {}
        ["admin", "players", "unban", _, _] | ["admin", "players", "verification", _, _, _] => {}
        ["admin", "maintenance", "on" | "off", _] => {}
        ["admin", "tournaments" | "jackpots", "list"]
        | ["admin", "tournaments" | "jackpots", "create" | "report", _]
        | ["admin", "tournaments" | "jackpots", "update", _, _]
        | ["admin", "tournaments", "cancel", _, _]
        | ["admin", "jackpots", "pause" | "resume" | "close", _] => {}
        ["admin", "sportsbook", "markets"] | ["admin", "sportsbook", "markets" | "market", _] => {}
        ["admin", "sportsbook", "suspend" | "reopen" | "void", _, _] => {}
        ["admin", "sportsbook", "settle" | "resettle", _, _, _] => {}
        ["admin", "sportsbook", "limits"] => {}
        ["admin", "sportsbook", "limits", "sport", _, _, _, _, _, _] => {}
        ["admin", "sportsbook", "limits", "player", _, _, _, _, _] => {}
        ["admin", "operators", "create", ..]
        | ["admin", "operators", "list"]
        | ["admin", "operators", "disable", _] => {}
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
    if let [action @ ("backup" | "restore"), file] = command.as_slice() {
        return report(if *action == "backup" { backup(&config, file).await } else { restore(&config, file).await });
    }
    if let ["content", action, dir] = command.as_slice() {
        return content(config, action, dir).await;
    }
    if let ["admin", "freespins", "grant", rest @ ..] = command.as_slice() {
        return grant_freespins(config, rest).await;
    }
    if let ["admin", area @ ("campaigns" | "promo-codes" | "bonuses" | "cashbacks" | "loyalty"), rest @ ..] =
        command.as_slice()
    {
        return bonuses_admin(config, area, rest).await;
    }
    if let ["admin", area @ ("players" | "maintenance"), rest @ ..] = command.as_slice() {
        return protection_admin(config, area, rest).await;
    }
    if let ["admin", area @ ("tournaments" | "jackpots"), rest @ ..] = command.as_slice() {
        return competition_admin(config, area, rest).await;
    }
    if let ["admin", "sportsbook", rest @ ..] = command.as_slice() {
        return sportsbook_admin(config, rest).await;
    }
    if let ["admin", "operators", rest @ ..] = command.as_slice() {
        return operators_admin(config, rest).await;
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
            async {
                let imported = store::import_dir(&db, dir).await?;
                // Running replicas hear of it at once through Redis; without it, within a second.
                if let Some(url) = &config.redis_url {
                    let coord = croupier_server::coord::Coord::redis(url.expose(), &config.redis_prefix).await?;
                    croupier_server::hot::announce_content(&coord).await?;
                }
                anyhow::Ok(format!("imported {imported} entries from {}", dir.display()))
            }
            .await
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
    use croupier_server::features::bonuses::admin::GrantRequest;
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
        wager_multiplier: None,
    };
    let state = match App::build(config).await {
        Ok(state) => state,
        Err(e) => {
            eprintln!("croupier-server: {e:#}");
            return ExitCode::from(2);
        }
    };
    match request.grant(&state, &croupier_server::features::backoffice::trail::Actor::cli()).await {
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
            let decided = |action: &'static str| {
                Some(croupier_server::features::backoffice::Decided {
                    actor: croupier_server::features::backoffice::trail::Actor::cli(),
                    action,
                    reason: String::new(),
                    // The payment's status.
                    from: String::new(),
                })
            };
            let decision = if *action == "approve" {
                withdrawals::approve(&state, id, decided("withdrawals.paid")).await
            } else {
                withdrawals::reject(&state, id, decided("withdrawals.reject")).await
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

/// `croupier-server admin campaigns|promo-codes|bonuses …`: the bonus engine's operator actions,
/// through the same functions as the operator API (`features::bonuses::admin`).
#[allow(clippy::print_stdout)]
async fn bonuses_admin(config: Config, area: &str, args: &[&str]) -> ExitCode {
    use croupier_server::features::bonuses::admin;
    let state = match build(config).await {
        Ok(state) => state,
        Err(code) => return code,
    };
    let read = |path: &str| -> Result<admin::CampaignInput, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
    };
    let number = |text: &str| text.parse::<i64>().map_err(|_| format!("{text:?} is not a whole number"));
    let cli = croupier_server::features::backoffice::trail::Actor::cli();
    let result: Result<String, String> = async {
        match (area, args) {
            ("campaigns", ["list"]) => {
                let items = admin::all_campaigns(&state).await.map_err(|e| format!("{e:?}"))?;
                Ok(items.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("\n"))
            }
            ("campaigns", ["create", file]) => {
                let id = read(file)?.save(&state, &cli, None).await.map_err(|e| format!("{e:?}"))?;
                Ok(format!("campaign {id} created"))
            }
            ("campaigns", ["update", id, file]) => {
                let id = read(file)?.save(&state, &cli, Some(number(id)?)).await.map_err(|e| format!("{e:?}"))?;
                Ok(format!("campaign {id} updated"))
            }
            ("campaigns", [action, id]) => {
                let status = admin::set_campaign_status(&state, &cli, number(id)?, action)
                    .await
                    .map_err(|e| format!("{e:?}"))?;
                Ok(format!("campaign {id}: {status}"))
            }
            ("promo-codes", ["create", code, campaign, rest @ ..]) => {
                let max_uses = rest.first().map(|m| number(m)).transpose()?;
                let input = admin::CodeInput { code: (*code).to_owned(), campaign_id: number(campaign)?, max_uses };
                let key = admin::create_promo_code(&state, &cli, &input).await.map_err(|e| format!("{e:?}"))?;
                Ok(format!("promo code {key} created"))
            }
            ("bonuses", ["grant", user, campaign, reason]) => {
                let input = admin::GrantInput {
                    user_id: number(user)?,
                    campaign_id: number(campaign)?,
                    reason: (*reason).to_owned(),
                };
                let id = admin::grant(&state, &cli, &input).await.map_err(|e| format!("{e:?}"))?;
                Ok(format!("bonus {id} granted to player {user}"))
            }
            ("bonuses", ["cancel", id, reason]) => {
                let status = admin::cancel(&state, &cli, number(id)?, reason).await.map_err(|e| format!("{e:?}"))?;
                Ok(format!("bonus {id}: {status}"))
            }
            ("cashbacks", [action @ ("approve" | "reject"), id, rest @ ..]) => {
                use croupier_server::features::cashbacks::programmes::{Verdict, decide};
                let verdict = if *action == "approve" { Verdict::Approve } else { Verdict::Reject };
                decide(
                    &state,
                    &croupier_server::features::backoffice::trail::Actor::cli(),
                    number(id)?,
                    verdict,
                    rest.first().copied(),
                )
                .await
                .map_err(|e| format!("{e:?}"))?;
                Ok(format!("cashback {id}: {action}d"))
            }
            ("loyalty", ["points", user, points, reason]) => {
                use croupier_server::features::loyalty::admin::{PointsInput, adjust};
                let input = PointsInput {
                    user_id: number(user)?,
                    points: number(points)?,
                    reason: (*reason).to_owned(),
                    key: None,
                };
                adjust(&state, &croupier_server::features::backoffice::trail::Actor::cli(), &input)
                    .await
                    .map_err(|e| format!("{e:?}"))?;
                Ok(format!("{points} points for player {user}"))
            }
            _ => Err(USAGE.to_owned()),
        }
    }
    .await;
    report(result)
}

/// The app an operator command works through; exit code 2 (and why) when it cannot be built.
async fn build(config: Config) -> Result<App, ExitCode> {
    App::build(config).await.map_err(|e| {
        eprintln!("croupier-server: {e:#}");
        ExitCode::from(2)
    })
}

/// An operator command's outcome: its text on stdout, or why it failed (exit 1).
#[allow(clippy::print_stdout)]
fn report(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("croupier-server: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `croupier-server admin players ban|unban|verification …` and `admin maintenance on|off REASON`:
/// the operators' protection actions, through the same functions as the operator API
/// (`features::protection::admin`).
#[allow(clippy::print_stdout)]
async fn protection_admin(config: Config, area: &str, args: &[&str]) -> ExitCode {
    use croupier_server::features::backoffice::trail::Actor;
    use croupier_server::features::protection::admin;
    let cli = Actor::cli();
    let state = match build(config).await {
        Ok(state) => state,
        Err(code) => return code,
    };
    let number = |text: &str| text.parse::<i64>().map_err(|_| format!("{text:?} is not a whole number"));
    let result: Result<String, String> = async {
        match (area, args) {
            ("players", ["ban", user, reason, rest @ ..]) => {
                admin::ban(&state, &cli, number(user)?, rest.first().copied(), reason)
                    .await
                    .map_err(|e| format!("{e:?}"))?;
                Ok(format!("player {user} banned"))
            }
            ("players", ["unban", user, reason]) => {
                admin::unban(&state, &cli, number(user)?, reason).await.map_err(|e| format!("{e:?}"))?;
                Ok(format!("player {user} unbanned"))
            }
            ("players", ["verification", user, status, reason]) => {
                admin::set_verification(&state, &cli, number(user)?, status, None, reason)
                    .await
                    .map_err(|e| format!("{e:?}"))?;
                Ok(format!("player {user}: verification {status}"))
            }
            ("maintenance", [on @ ("on" | "off"), reason]) => {
                admin::set_maintenance(&state, &cli, *on == "on", reason).await.map_err(|e| format!("{e:?}"))?;
                Ok(format!("maintenance {on}"))
            }
            _ => Err(USAGE.to_owned()),
        }
    }
    .await;
    report(result)
}

/// `croupier-server admin tournaments …` and `admin jackpots …`: the same functions as the
/// operator API (`features::tournaments::admin`, `features::jackpots::admin`).
async fn competition_admin(config: Config, area: &str, args: &[&str]) -> ExitCode {
    use croupier_server::features::jackpots::admin as pools;
    use croupier_server::features::tournaments::admin as tournaments;
    let state = match build(config).await {
        Ok(state) => state,
        Err(code) => return code,
    };
    fn read<T: serde::de::DeserializeOwned>(path: &str) -> Result<T, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
    }
    let number = |text: &str| text.parse::<i64>().map_err(|_| format!("{text:?} is not a whole number"));
    let lines = |items: Vec<serde_json::Value>| items.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("\n");
    let cli = croupier_server::features::backoffice::trail::Actor::cli();
    let result: Result<String, String> = async {
        let e = |e: croupier_server::api::ApiError| format!("{e:?}");
        match (area, args) {
            ("tournaments", ["list"]) => Ok(lines(tournaments::list(&state).await.map_err(e)?)),
            ("tournaments", ["create", file]) => {
                let id = tournaments::create(&state, &cli, &read(file)?).await.map_err(e)?;
                Ok(format!("tournament {id} created"))
            }
            ("tournaments", ["update", id, file]) => {
                tournaments::update(&state, &cli, number(id)?, &read(file)?).await.map_err(e)?;
                Ok(format!("tournament {id} updated"))
            }
            ("tournaments", ["cancel", id, reason]) => {
                let status = tournaments::cancel(&state, &cli, number(id)?, reason).await.map_err(e)?;
                Ok(format!("tournament {id}: {status}"))
            }
            ("tournaments", ["report", id]) => {
                Ok(tournaments::report(&state, number(id)?).await.map_err(e)?.to_string())
            }
            ("jackpots", ["list"]) => Ok(lines(pools::list(&state).await.map_err(e)?)),
            ("jackpots", ["create", file]) => {
                let id = pools::create(&state, &cli, &read(file)?).await.map_err(e)?;
                Ok(format!("jackpot {id} created"))
            }
            ("jackpots", ["update", id, file]) => {
                pools::update(&state, &cli, number(id)?, &read(file)?).await.map_err(e)?;
                Ok(format!("jackpot {id} updated"))
            }
            ("jackpots", ["report", id]) => Ok(pools::report(&state, number(id)?).await.map_err(e)?.to_string()),
            ("jackpots", [action, id]) => {
                let status = pools::act(&state, &cli, number(id)?, action).await.map_err(e)?;
                Ok(format!("jackpot {id}: {status}"))
            }
            _ => Err(USAGE.to_owned()),
        }
    }
    .await;
    report(result)
}

/// `croupier-server admin sportsbook …`: the operators' sportsbook tools, through the same code as
/// `/admin/sportsbook/…` (audited as `cli`). RESULTS_JSON is the list the API takes:
/// `[{"selection":"home","result":"won"},{"selection":"draw","result":"lost"},…]`. Limits in minor
/// units, `-` for none.
async fn sportsbook_admin(config: Config, args: &[&str]) -> ExitCode {
    use croupier_server::features::sportsbook::limits::{self, PlayerLimitsInput, SportLimitsInput};
    use croupier_server::features::sportsbook::operations::{self, Action, Actor, MarketFilter};
    let state = match build(config).await {
        Ok(state) => state,
        Err(code) => return code,
    };
    let number = |text: &str| text.parse::<i64>().map_err(|_| format!("{text:?} is not a whole number"));
    let optional = |text: &str| if text == "-" { Ok(None) } else { number(text).map(Some) };
    let actor = Actor::cli();
    let result: Result<String, String> = async {
        let e = |e: croupier_server::api::ApiError| format!("{e:?}");
        let results = |text: &str| serde_json::from_str(text).map_err(|e| format!("RESULTS_JSON: {e}"));
        let pretty = |v: serde_json::Value| serde_json::to_string_pretty(&v).unwrap_or_default();
        match args {
            ["markets"] | ["markets", _] => {
                let event_id = args.get(1).map(|t| number(t)).transpose()?;
                let filter = MarketFilter {
                    event_id,
                    state: Some(if event_id.is_some() { "all" } else { "open" }.into()),
                    count: Some(1000),
                    ..MarketFilter::default()
                };
                let listed = operations::markets(&state, &filter).await.map_err(e)?;
                Ok(listed["items"]
                    .as_array()
                    .map(|items| items.iter().map(|i| i.to_string()).collect::<Vec<_>>().join("\n"))
                    .unwrap_or_default())
            }
            ["market", id] => Ok(pretty(operations::market(&state, number(id)?).await.map_err(e)?)),
            [action @ ("suspend" | "reopen" | "void"), id, reason] => {
                let action = match *action {
                    "suspend" => Action::Suspend,
                    "reopen" => Action::Reopen,
                    _ => Action::Void,
                };
                Ok(pretty(operations::act(&state, &actor, number(id)?, action, Some(reason)).await.map_err(e)?))
            }
            [action @ ("settle" | "resettle"), id, json, reason] => {
                let results = results(json)?;
                let action = if *action == "settle" { Action::Settle(results) } else { Action::Resettle(results) };
                Ok(pretty(operations::act(&state, &actor, number(id)?, action, Some(reason)).await.map_err(e)?))
            }
            ["limits"] => Ok(pretty(limits::list(&state).await.map_err(e)?)),
            ["limits", "sport", sport, currency, min, max, payout, reason] => {
                let input = SportLimitsInput {
                    currency: (*currency).to_owned(),
                    min_stake: optional(min)?,
                    max_stake: optional(max)?,
                    max_payout: optional(payout)?,
                    reason: Some((*reason).to_owned()),
                };
                Ok(pretty(limits::set_sport(&state, &actor, sport, &input).await.map_err(e)?))
            }
            ["limits", "player", user, factor, max, blocked @ ("blocked" | "open"), reason] => {
                let input = PlayerLimitsInput {
                    stake_factor_bp: optional(factor)?,
                    max_stake: optional(max)?,
                    blocked: *blocked == "blocked",
                    reason: Some((*reason).to_owned()),
                };
                Ok(pretty(limits::set_player(&state, &actor, number(user)?, &input).await.map_err(e)?))
            }
            _ => Err(USAGE.to_owned()),
        }
    }
    .await;
    report(result)
}

/// Opens the SQLite file `path` (it must exist), checks it is whole and its ledger holds;
/// answers its ledger's transaction count. (Opening it sets the WAL journal, as the server does.)
async fn verify_sqlite(path: &std::path::Path) -> Result<i64, String> {
    use croupier_server::db::Db;
    if !path.is_file() {
        return Err(format!("{}: no such file", path.display()));
    }
    let url = format!("sqlite://{}?mode=rw", path.display());
    let db = Db::connect(&url, 1).await.map_err(|e| format!("{}: not a SQLite database ({e})", path.display()))?;
    let result = async {
        let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(db.pool())
            .await
            .map_err(|e| format!("{}: not a SQLite database ({e})", path.display()))?;
        if integrity != "ok" {
            return Err(format!("{}: damaged ({integrity})", path.display()));
        }
        let migrated: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
            .fetch_one(db.pool())
            .await
            .map_err(|_| format!("{}: not a Croupier database (no migrations)", path.display()))?;
        if migrated == 0 {
            return Err(format!("{}: not a Croupier database (no migrations)", path.display()));
        }
        let report = croupier_server::ledger::check(&db).await.map_err(|e| format!("{}: {e}", path.display()))?;
        if !report.violations.is_empty() {
            return Err(format!("{}: the ledger does not hold: {:?}", path.display(), report.violations));
        }
        Ok(report.transactions)
    }
    .await;
    db.close().await;
    result
}

/// `croupier-server backup FILE`: a consistent copy of the running SQLite database, taken online
/// (`VACUUM INTO` reads one snapshot while the server goes on writing), then checked (integrity
/// and the ledger). It never overwrites a file. PostgreSQL is backed up with its own tools
/// (`pg_dump`, or base backups and WAL archiving for point-in-time recovery: deploy/README.md).
async fn backup(config: &Config, file: &str) -> Result<String, String> {
    let url = config.database_url.expose();
    if croupier_server::db::sqlite_path(url).is_none() {
        return Err("backup copies a SQLite database; back PostgreSQL up with pg_dump or WAL archiving (deploy/README.md, \"Backups\")".into());
    }
    let target = std::path::Path::new(file);
    if target.exists() {
        return Err(format!("{file} exists: a backup never overwrites a file"));
    }
    let db = croupier_server::db::Db::connect(url, 1).await.map_err(|e| format!("cannot open the database: {e}"))?;
    let copied = sqlx::query("VACUUM INTO $1").bind(file).execute(db.pool()).await;
    db.close().await;
    copied.map_err(|e| format!("backup failed: {e}"))?;
    let transactions = verify_sqlite(target).await?;
    let bytes = std::fs::metadata(target).map(|m| m.len()).unwrap_or(0);
    Ok(format!("backup written to {file}: {bytes} bytes, {transactions} ledger transactions, integrity and ledger ok"))
}

/// `croupier-server restore FILE`: puts a backup in place of the SQLite database of
/// `DATABASE_URL`, with the server stopped. The backup is checked first (integrity, migrations,
/// ledger); the database it replaces is kept beside it as `….replaced-<unix time>` (with its WAL
/// files), never deleted.
async fn restore(config: &Config, file: &str) -> Result<String, String> {
    let url = config.database_url.expose();
    let Some(target) = croupier_server::db::sqlite_path(url) else {
        return Err(
            "restore replaces a SQLite database; restore PostgreSQL with pg_restore (deploy/README.md, \"Backups\")"
                .into(),
        );
    };
    let source = std::path::Path::new(file);
    if !source.is_file() {
        return Err(format!("{file}: no such backup"));
    }
    if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    // The copy is checked, not the backup itself (which stays as it was).
    let staged = target.with_extension("restoring");
    std::fs::copy(source, &staged).map_err(|e| format!("cannot copy {file}: {e}"))?;
    let transactions = match verify_sqlite(&staged).await {
        Ok(n) => n,
        Err(e) => {
            let _ = std::fs::remove_file(&staged);
            return Err(e);
        }
    };
    std::fs::File::open(&staged).and_then(|f| f.sync_all()).map_err(|e| format!("{}: {e}", staged.display()))?;
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let mut kept = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        let current = std::path::PathBuf::from(format!("{}{suffix}", target.display()));
        if current.exists() {
            let aside = std::path::PathBuf::from(format!("{}{suffix}.replaced-{stamp}", target.display()));
            std::fs::rename(&current, &aside).map_err(|e| format!("{}: {e}", current.display()))?;
            kept.push(aside.display().to_string());
        }
    }
    std::fs::rename(&staged, &target).map_err(|e| format!("{}: {e}", target.display()))?;
    let kept =
        if kept.is_empty() { String::new() } else { format!("; the replaced files are kept: {}", kept.join(", ")) };
    Ok(format!("restored {file} into {} ({transactions} ledger transactions){kept}", target.display()))
}

/// `croupier-server admin operators create|list|disable …`: back-office accounts
/// (`features::backoffice::operators`). The first admin is made here.
async fn operators_admin(config: Config, args: &[&str]) -> ExitCode {
    use croupier_server::features::backoffice::operators::{self, NewOperator};
    let result: Result<String, String> = async {
        let new = match args {
            ["create", rest @ ..] => Some(create_args(rest)?),
            ["list"] | ["disable", _] => None,
            _ => return Err(USAGE.to_owned()),
        };
        let state = build(config).await.map_err(|_| "cannot open the database".to_owned())?;
        let fail = |e: croupier_server::api::ApiError| {
            let fields: Vec<String> = e.fields().iter().map(|f| format!("{}: {}", f.field, f.code.code())).collect();
            if fields.is_empty() { format!("{:?}", e.kind) } else { fields.join(", ") }
        };
        match (args, new) {
            (_, Some((email, name, role, password))) => {
                let new = NewOperator::check(&email, &name, &role, &password).map_err(fail)?;
                let id = operators::create_from_cli(&state, &new).await.map_err(fail)?;
                Ok(format!(
                    "operator {id} created: {} ({}); the first sign-in enrols the authenticator",
                    new.email,
                    new.role.name()
                ))
            }
            (["list"], None) => {
                let rows = operators::list_all(&state).await.map_err(fail)?;
                Ok(rows
                    .iter()
                    .map(|o| {
                        format!(
                            "{}\t{}\t{}\t{}\t{}{}",
                            o.id,
                            o.email,
                            o.role,
                            o.name,
                            if o.enrolled != 0 { "enrolled" } else { "not enrolled" },
                            if o.disabled != 0 { "\tdisabled" } else { "" }
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n"))
            }
            (["disable", email], None) => {
                let id = operators::disable_from_cli(&state, email).await.map_err(fail)?;
                Ok(format!("operator {id} disabled; their sessions ended"))
            }
            _ => Err(USAGE.to_owned()),
        }
    }
    .await;
    report(result)
}

/// `--email E --name N --role R [--password-file F]` or `EMAIL ROLE NAME`, and the password.
fn create_args(args: &[&str]) -> Result<(String, String, String, String), String> {
    let (mut email, mut name, mut role, mut file) = (None, None, None, None);
    if args.first().is_some_and(|a| a.starts_with("--")) {
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let value = it.next().map(|v| (*v).to_owned()).ok_or_else(|| format!("{flag} needs a value"))?;
            match *flag {
                "--email" => email = Some(value),
                "--name" => name = Some(value),
                "--role" => role = Some(value),
                "--password-file" => file = Some(value),
                "--password" => return Err("the password is never given on the command line: use --password-file, CROUPIER_OPERATOR_PASSWORD or standard input".into()),
                other => return Err(format!("unknown option {other}")),
            }
        }
    } else if let [e, r, n] = args {
        (email, role, name) = (Some((*e).to_owned()), Some((*r).to_owned()), Some((*n).to_owned()));
    } else {
        return Err(USAGE.to_owned());
    }
    let password = match file {
        Some(path) => std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?,
        None => match std::env::var("CROUPIER_OPERATOR_PASSWORD") {
            Ok(p) if !p.is_empty() => p,
            _ => {
                let mut line = String::new();
                std::io::stdin().read_line(&mut line).map_err(|e| format!("cannot read the password: {e}"))?;
                line
            }
        },
    };
    let password = password.trim_end_matches(['\r', '\n']).to_owned();
    Ok((
        email.ok_or("--email is required")?,
        name.ok_or("--name is required")?,
        role.ok_or("--role is required")?,
        password,
    ))
}
