//! Graceful shutdown of the real binary: on SIGTERM with house rounds in flight and a live page
//! open, every answered round is in the database, nothing is half-written, the live stream ends
//! and the process exits 0 well within its grace period — on SQLite and PostgreSQL.

use crate::helpers::{Backend, TestDb, backends, read_json};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigterm_finishes_the_requests_in_flight_ends_live_streams_and_half_writes_nothing() {
    for backend in backends() {
        shutdown_under_load(backend).await;
    }
}

async fn shutdown_under_load(backend: Backend) {
    let database = TestDb::create(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_croupier-server"))
        .current_dir(dir.path())
        .env_clear()
        .env("CROUPIER_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", &database.url)
        .env("CROUPIER_LOG", "warn")
        .env("CROUPIER_SHUTDOWN_GRACE_SECONDS", "10")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !reqwest::get(format!("{base}/readyz")).await.is_ok_and(|r| r.status() == 200) {
        assert!(Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let player = reqwest::Client::builder().cookie_store(true).build().unwrap();
    let form = [("email", "drain@example.com"), ("password", "secret123"), ("currency", "USD"), ("terms", "1")];
    let (status, body) =
        read_json(player.post(format!("{base}/api/auth.register?v=2.34")).form(&form).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    let (status, launched) = read_json(
        player
            .get(format!("{base}/platform/game/dice/demo"))
            .header("accept", "application/json")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{launched}");
    let token = launched["token"].as_str().unwrap().to_owned();

    // A live page stays open through the shutdown.
    let mut live = reqwest::get(format!("{base}/live/jackpots")).await.unwrap();
    assert_eq!(live.status(), 200);

    // Sixteen players' worth of demo rounds, back to back, until the server goes away.
    let answered: Arc<Mutex<Vec<String>>> = Arc::default();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut load = Vec::new();
    for _ in 0..16 {
        let (answered, stop, token, base) = (Arc::clone(&answered), Arc::clone(&stop), token.clone(), base.clone());
        load.push(tokio::spawn(async move {
            let client = reqwest::Client::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let body = serde_json::json!({"token": token, "bet": "1.00", "target": "50.00", "condition": "over"});
                match client.post(format!("{base}/games/house/dice/round")).json(&body).send().await {
                    Ok(r) if r.status() == 200 => {
                        let round: serde_json::Value = r.json().await.unwrap();
                        answered.lock().unwrap().push(round["round"].as_str().unwrap().to_owned());
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let before = answered.lock().unwrap().len();
    assert!(before > 10, "rounds were being played: {before}");
    let signalled = Instant::now();
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(signalled.elapsed() < Duration::from_secs(15), "the server did not stop");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let took = signalled.elapsed();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for task in load {
        task.await.unwrap();
    }
    assert!(exit.success(), "a graceful stop exits 0: {exit:?}");
    assert!(took < Duration::from_secs(8), "the open live page did not hold the stop to the grace period: {took:?}");
    // The stream ended with the server (no hang).
    let ended =
        tokio::time::timeout(Duration::from_secs(5), async { while let Ok(Some(_)) = live.chunk().await {} }).await;
    assert!(ended.is_ok(), "the live stream ended");

    let db = croupier_server::db::Db::connect(&database.url, 2).await.unwrap();
    let answered = answered.lock().unwrap().clone();
    for round in &answered {
        let found: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM game_rounds WHERE provider = 'house' AND round = $1")
            .bind(round)
            .fetch_one(db.pool())
            .await
            .unwrap();
        assert_eq!(found, 1, "answered round {round} is stored");
    }
    let half: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM game_rounds r WHERE r.provider = 'house' AND (NOT EXISTS (SELECT 1 FROM house_rounds h WHERE h.round_id = r.id) \
         OR NOT EXISTS (SELECT 1 FROM wallet_transactions w WHERE w.round_id = r.id AND w.kind = 'bet'))",
    )
    .fetch_one(db.pool())
    .await
    .unwrap();
    assert_eq!(half, 0, "no round half-written");
    let report = croupier_server::ledger::check(&db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    eprintln!(
        "shutdown ({backend:?}): {} rounds answered ({before} before SIGTERM), stopped in {took:?}",
        answered.len()
    );
    db.close().await;
    database.drop_database().await;
}
