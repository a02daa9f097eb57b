//! Crash safety: the real server is killed (SIGKILL) in the middle of a deposit load, started
//! again on the same database, and every webhook is delivered again, twice. Nothing is lost,
//! nothing is doubled, and the ledger's invariants hold.

use crate::helpers::{Backend, TestDb};
use croupier_server::db::Db;
use croupier_server::keys::Keys;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_croupier-server");

fn start(dir: &std::path::Path, db_url: &str, port: u16) -> Child {
    Command::new(BIN)
        .current_dir(dir)
        .env_clear()
        .env("CROUPIER_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", db_url)
        .env("CROUPIER_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

async fn wait_ready(base: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(r) = reqwest::get(format!("{base}/readyz")).await
            && r.status() == 200
        {
            return;
        }
        assert!(Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

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
    let mut server = start(dir.path(), &db_url, port);
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

    let mut server = start(dir.path(), &db_url, port);
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
