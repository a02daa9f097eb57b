//! Crash safety: the real server is killed (SIGKILL) in the middle of a deposit load, started
//! again on the same database, and every webhook is delivered again, twice. Nothing is lost,
//! nothing is doubled, and the ledger's invariants hold.

use crate::helpers::{Backend, TestDb, free_port, start_server, wait_ready};
use croupier_server::db::Db;
use croupier_server::keys::Keys;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_killed_server_on_sqlite_loses_and_doubles_nothing_when_webhooks_come_again() {
    crash_and_recover(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_killed_server_on_postgres_loses_and_doubles_nothing_when_webhooks_come_again() {
    if !crate::helpers::postgres_configured() {
        eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
        return;
    }
    crash_and_recover(Backend::Postgres).await;
}

async fn crash_and_recover(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let database = TestDb::create(backend).await;
    let db_url = database.url.clone();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = start_server(dir.path(), &db_url, port, &[]);
    wait_ready(&base).await;

    let mut players = Vec::new();
    for i in 0..8 {
        let client = reqwest::Client::builder().cookie_store(true).build().unwrap();
        let form = [
            ("email", format!("crash{i}@example.com")),
            ("password", "secret123".into()),
            ("currency", "USD".into()),
            ("terms", "1".into()),
        ];
        let r = client.post(format!("{base}/api/auth.register?v=2.34")).form(&form).send().await.unwrap();
        assert_eq!(r.status(), 200);
        players.push(client);
    }
    let mut payments = Vec::new();
    for (i, client) in players.iter().enumerate() {
        for _ in 0..5 {
            let r: serde_json::Value = client
                .post(format!("{base}/api/cashier.makedeposit?v=2.34"))
                .form(&[("method", "sandbox_card"), ("amount", "10")])
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            payments.push((i, r["data"]["id"].as_str().unwrap().to_owned()));
        }
    }
    // Players choose "success" on the sandbox page all at once; the server dies meanwhile.
    let no_redirect = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let mut load = Vec::new();
    for (_, id) in &payments {
        let url = format!("{base}/sandbox/pay/{id}");
        let http = no_redirect.clone();
        load.push(tokio::spawn(async move {
            http.post(url).form(&[("outcome", "success")]).send().await.map(|r| r.status())
        }));
    }
    tokio::time::sleep(Duration::from_millis(15)).await;
    server.kill().unwrap();
    server.wait().unwrap();
    let finished = futures::future::join_all(load).await.into_iter().filter(|r| matches!(r, Ok(Ok(_)))).count();

    let mut server = start_server(dir.path(), &db_url, port, &[]);
    wait_ready(&base).await;
    let db = Db::connect(&db_url, 2).await.unwrap();
    let keys = Keys::load(&db, None).await.unwrap();
    let secret = keys.sign("sandbox-payments-webhook", &[]).into_bytes();
    // The provider re-delivers a webhook for every payment it recorded as successful — twice,
    // with fresh event ids, as a provider retrying after timeouts would.
    let succeeded: Vec<String> = sqlx::query_scalar("SELECT id FROM sandbox_payments WHERE status = 'success'")
        .fetch_all(db.pool())
        .await
        .unwrap();
    for round in 0..2 {
        for id in &succeeded {
            let event = serde_json::json!({"event_id": format!("redeliver-{round}-{id}"), "payment_id": id, "status": "success", "amount": 1000, "currency": "USD"});
            let body = serde_json::to_vec(&event).unwrap();
            let ts = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
            let r = reqwest::Client::new()
                .post(format!("{base}/webhooks/payments/sandbox"))
                .header("content-type", "application/json")
                .header("x-croupier-timestamp", ts.to_string())
                .header("x-croupier-signature", croupier_server::payments::sign(&secret, ts, &body))
                .body(body)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200, "payment {id}");
        }
    }
    let credited: Vec<String> = sqlx::query_scalar("SELECT id FROM payments WHERE status = 'success' ORDER BY id")
        .fetch_all(db.pool())
        .await
        .unwrap();
    let mut expected = succeeded.clone();
    expected.sort();
    assert_eq!(credited, expected, "exactly the payments the provider confirmed are credited");
    let deposits: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ledger_transactions WHERE kind = 'deposit'")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(deposits as usize, succeeded.len(), "one credit per payment, never two");
    let total: i64 =
        sqlx::query_scalar("SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM ledger_accounts WHERE is_player = 1")
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert_eq!(total, 1000 * succeeded.len() as i64);
    let report = croupier_server::ledger::check(&db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    eprintln!(
        "crash test: {} deposits, {} answered before the kill, {} confirmed by the provider",
        payments.len(),
        finished,
        succeeded.len()
    );
    db.close().await;
    let _ = server.kill();
    let _ = server.wait();
    database.drop_database().await;
}

/// The cashback job killed in the middle of a period's close: a real server process closes a
/// period in small chunks (a pause between them), is killed (SIGKILL) once some players'
/// cashbacks are written, and is started again. The period then closes with exactly one cashback
/// per player, with the amounts a clean close computes, and nothing written twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_cashback_close_killed_half_way_on_sqlite_ends_with_the_same_rows() {
    cashback_close_crash(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_cashback_close_killed_half_way_on_postgres_ends_with_the_same_rows() {
    if !crate::helpers::postgres_configured() {
        eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
        return;
    }
    cashback_close_crash(Backend::Postgres).await;
}

async fn cashback_close_crash(backend: Backend) {
    use crate::games::{Aggregator, agg_game, agg_providers, funded};
    use crate::helpers::TestApp;
    use croupier_server::features::cashbacks::{close, programmes};
    // Registrations from one address are rate-limited (20 an hour): 15 players.
    const PLAYERS: i64 = 15;
    // The programme's first period ends `WINDOW` seconds from now: the players play before.
    const WINDOW: i64 = 20;
    let providers = agg_providers();
    let app = TestApp::spawn_with(backend, &[("CROUPIER_GAME_PROVIDERS", providers.as_str())], |_| {}).await;
    agg_game(&app, "agg-slot", "slot").await;
    let now_s = croupier_server::db::now_ms() / 1000;
    let input: programmes::ProgrammeInput = serde_json::from_value(serde_json::json!({
        "sysname": "hourly", "title_en": "Hourly turnover back", "title_fr": "Mises remboursées",
        "period": "custom", "period_hours": 1, "starts_at": now_s - 3_600 + WINDOW,
        "basis": "turnover", "rates": {"*": 10_000}, "limits": {"USD": {"min": 1, "max": 1_000_000}},
    }))
    .unwrap();
    let programme_id = programmes::create(app.state.db(), &input).await.unwrap();
    for i in 0..PLAYERS {
        let client = funded(&app, &format!("crash-cb{i}@example.com"), 100_000).await;
        let wallet = Aggregator::launched(&app, &client, "agg-slot").await;
        let bet = serde_json::json!({"transaction_uuid": format!("cb-{i}"), "round": format!("r-{i}"), "amount": 100 * (i + 1), "currency": "USD", "round_closed": true});
        assert_eq!(wallet.call("bet", bet).await["status"], "RS_OK");
    }
    let end_ms = (now_s + WINDOW) * 1000;
    assert!(croupier_server::db::now_ms() < end_ms, "the players played inside the period");
    let programme = programmes::load(app.state.db(), programme_id).await.unwrap().unwrap();
    let expected = close::compute(&app.state, &programme, programme.closed_through).await.unwrap();
    assert_eq!(expected.len() as i64, PLAYERS, "{expected:?}");
    tokio::time::sleep(Duration::from_millis(u64::try_from(end_ms - croupier_server::db::now_ms()).unwrap_or(0) + 200))
        .await;

    // A server that closes two players at a time, 300 ms apart — killed after the first chunks.
    let dir = tempfile::tempdir().unwrap();
    let db_url = app.database_url().to_owned();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let slow = [
        ("CROUPIER_CASHBACK_GRACE_SECONDS", "0"),
        ("CROUPIER_CASHBACK_CHUNK", "2"),
        ("CROUPIER_CASHBACK_CHUNK_PAUSE_MS", "300"),
    ];
    let mut server = start_server(dir.path(), &db_url, port, &slow);
    let count = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM cashbacks").fetch_one(app.state.db().pool()).await.unwrap()
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    let started = loop {
        if count().await >= 2 {
            break true;
        }
        if Instant::now() >= deadline {
            break false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(started, "the close did not start");
    let written_at_kill = count().await;
    assert!(written_at_kill < PLAYERS, "killed half-way: {written_at_kill} of {PLAYERS} written");
    let (status,): (String,) = sqlx::query_as("SELECT status FROM cashback_periods WHERE programme_id = $1")
        .bind(programme_id)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
    assert_eq!(status, "closing");

    // Started again: it finishes the same period.
    let mut server = start_server(dir.path(), &db_url, port, &slow[..1]);
    wait_ready(&base).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    let closed = loop {
        let closed: Option<String> =
            sqlx::query_scalar("SELECT status FROM cashback_periods WHERE programme_id = $1 AND status = 'closed'")
                .bind(programme_id)
                .fetch_optional(app.state.db().pool())
                .await
                .unwrap();
        if closed.is_some() {
            break true;
        }
        if Instant::now() >= deadline {
            break false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let _ = server.kill();
    let _ = server.wait();
    assert!(closed, "the restarted server did not close the period");

    let rows: Vec<(i64, String, i64, i64, String, Option<i64>)> = sqlx::query_as(
        "SELECT user_id, currency, amount, basis_amount, status, receiving_expired_at FROM cashbacks ORDER BY user_id",
    )
    .fetch_all(app.state.db().pool())
    .await
    .unwrap();
    let got: Vec<(i64, String, i64, i64)> = rows.iter().map(|r| (r.0, r.1.clone(), r.2, r.3)).collect();
    let want: Vec<(i64, String, i64, i64)> =
        expected.iter().map(|c| (c.user_id, c.currency.clone(), c.amount, c.basis)).collect();
    assert_eq!(got, want, "one cashback per player, as a clean close computes it");
    let deadlines: std::collections::BTreeSet<Option<i64>> = rows.iter().map(|r| r.5).collect();
    assert_eq!(deadlines.len(), 1, "every row's claim time comes from the period's first start: {deadlines:?}");
    assert!(rows.iter().all(|r| r.4 == "active"));
    let (given, through): (i64, i64) = sqlx::query_as(
        "SELECT p.given, g.closed_through FROM cashback_periods p JOIN cashback_programmes g ON g.id = p.programme_id",
    )
    .fetch_one(app.state.db().pool())
    .await
    .unwrap();
    assert_eq!((given, through), (PLAYERS, programme.closed_through + 3_600_000));
    eprintln!("cashback crash test: killed with {written_at_kill} of {PLAYERS} written; restarted, all {PLAYERS} once");
    app.finish().await;
}
