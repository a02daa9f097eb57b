//! `make bench`: closing one cashback period for [`PLAYERS`] players on SQLite (issue 18: under
//! 60 s). Each player is funded and bets once through the ledger (the postings the close reads),
//! with the round and the wallet row the aggregator's wallet would write; then a turnover
//! programme's period is closed with the job's own function and default pace.

use super::close::{self, Pace};
use super::programmes::{self, ProgrammeInput};
use crate::AppState;
use crate::config::Config;
use crate::coord::Coord;
use crate::db::{Db, now_ms};
use crate::ledger::{self, Account, Entry, HouseAccount};
use croupier_shared::Currency;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

pub const PLAYERS: i64 = 100_000;

pub struct CloseRow {
    pub players: i64,
    pub written: usize,
    /// Making the players and their play.
    pub setup: Duration,
    /// The period's close.
    pub close: Duration,
}

pub async fn run(dir: &std::path::Path) -> anyhow::Result<CloseRow> {
    let url = format!("sqlite://{}/cashback.db", dir.display());
    let vars: HashMap<&str, String> = HashMap::from([
        ("DATABASE_URL", url.clone()),
        ("CROUPIER_WEB_DIR", dir.display().to_string()),
        ("CROUPIER_PUBLIC_URL", "https://casino.example".to_owned()),
    ]);
    let config = Config::from_sources(|k| vars.get(k).cloned(), |_| None)?;
    let db = Db::connect(&url, 10).await?;
    db.migrate().await?;
    let state = AppState::new(config, db.clone(), Coord::in_process()).await?;
    let usd = Currency::parse("USD").ok_or_else(|| anyhow::anyhow!("USD"))?;

    let started = Instant::now();
    let now = now_ms();
    let period_start = now - 3 * 3_600_000;
    let mut tx = db.begin().await?;
    sqlx::query("INSERT INTO game_providers (sysname, name, kind, sort) VALUES ('benchagg', 'Bench', 'external', 99)")
        .execute(&mut *tx)
        .await?;
    let game: i64 = sqlx::query_scalar(
        "INSERT INTO games (sysname, provider, game_type, name_en, name_fr, image_url, search_text, rtp_bp, volatility, has_demo, config, popularity, created_at) \
         VALUES ('bench-slot', 'benchagg', 'slot', 'Bench', 'Bench', '/x.svg', 'bench', 9600, 'high', 1, '{}', 0, 0) RETURNING id",
    )
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    for batch in 0..PLAYERS / 1_000 {
        let mut tx = db.begin().await?;
        for n in batch * 1_000..(batch + 1) * 1_000 {
            let at = period_start + 60_000 + n;
            let user: i64 = sqlx::query_scalar(
                "INSERT INTO users (locale, currency, is_registration_completed, reg_time, updated_at) VALUES ('en', 'USD', 1, $1, $1) RETURNING id",
            )
            .bind(at)
            .fetch_one(&mut *tx)
            .await?;
            let stake = 100 + n % 900;
            let deposit = format!("bench-deposit:{n}");
            let entry = Entry::transfer(
                &deposit,
                "deposit",
                usd,
                Account::House(HouseAccount::PaymentClearing),
                Account::main(user),
                1_000,
            )
            .by(Some(user));
            ledger::post(&mut tx, &entry).await?;
            let round: i64 = sqlx::query_scalar(
                "INSERT INTO game_rounds (provider, round, user_id, game_id, currency, mode, bet, win, status, created_at, closed_at) \
                 VALUES ('benchagg', $1, $2, $3, 'USD', 'real', $4, 0, 'closed', $5, $5) RETURNING id",
            )
            .bind(format!("r-{n}"))
            .bind(user)
            .bind(game)
            .bind(stake)
            .bind(at)
            .fetch_one(&mut *tx)
            .await?;
            let uuid = format!("b-{n}");
            let key = format!("wallet:benchagg:{uuid}");
            let entry = Entry::transfer(
                &key,
                "bet",
                usd,
                Account::main(user),
                Account::House(HouseAccount::GameSettlement),
                stake,
            )
            .by(Some(user));
            ledger::post(&mut tx, &entry).await?;
            sqlx::query(
                "INSERT INTO wallet_transactions (provider, transaction_uuid, kind, round_id, reference_uuid, amount, fingerprint, response, created_at) \
                 VALUES ('benchagg', $1, 'bet', $2, NULL, $3, '', '{}', $4)",
            )
            .bind(&uuid)
            .bind(round)
            .bind(stake)
            .bind(at)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
    }
    let input = ProgrammeInput {
        sysname: "bench".into(),
        title_en: "Bench cashback".into(),
        title_fr: "Cashback du banc".into(),
        period: "custom".into(),
        period_hours: Some(1),
        starts_at: Some(period_start / 1000),
        basis: "turnover".into(),
        rates: BTreeMap::from([("*".to_owned(), 1_000)]),
        limits: BTreeMap::from([("USD".to_owned(), programmes::Limit { min: 1, max: 1_000_000, approve_above: None })]),
        claim_hours: Some(72),
        pays: Some("real".into()),
        wager_multiplier: 0,
        wager_days: None,
        active: true,
    };
    let id = programmes::create(&db, &input).await.map_err(|e| anyhow::anyhow!("bench programme: {e:?}"))?;
    let programme = programmes::list(&db, true)
        .await?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or_else(|| anyhow::anyhow!("bench programme missing"))?;
    let setup = started.elapsed();
    let closing = Instant::now();
    let written = close::close_period(&state, &programme, programme.closed_through, Pace::of(&state)).await?;
    let close = closing.elapsed();
    anyhow::ensure!(written == usize::try_from(PLAYERS)?, "the close wrote {written} cashbacks for {PLAYERS} players");
    Ok(CloseRow { players: PLAYERS, written, setup, close })
}
