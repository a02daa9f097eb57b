//! `croupier-server backup` under load and `restore` into a fresh directory: the copy is
//! consistent (the ledger holds) and holds every movement answered before the backup began.

use crate::games::{funded, launch};
use crate::helpers::{Backend, TestApp};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn run(database_url: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_croupier-server"))
        .args(args)
        .env("DATABASE_URL", database_url)
        .env("CROUPIER_WEB_DIR", "/nonexistent")
        .env_remove("CROUPIER_CONFIG")
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_under_load_restores_into_a_fresh_directory_with_every_answered_round() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let player = funded(&app, "backup@example.com", 1_000_000).await;
    let token = launch(&app, &player, "dice", "play").await.1["token"].as_str().unwrap().to_owned();
    let answered: Arc<Mutex<Vec<String>>> = Arc::default();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut load = Vec::new();
    for _ in 0..4 {
        let (answered, stop, token, url) =
            (Arc::clone(&answered), Arc::clone(&stop), token.clone(), app.url("/games/house/dice/round"));
        load.push(tokio::spawn(async move {
            let client = reqwest::Client::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let body = serde_json::json!({"token": token, "bet": "1.00", "target": "50.00", "condition": "over"});
                let r = client.post(&url).json(&body).send().await.unwrap();
                assert_eq!(r.status(), 200);
                let round: serde_json::Value = r.json().await.unwrap();
                answered.lock().unwrap().push(round["round"].as_str().unwrap().to_owned());
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("croupier-backup.db");
    let file_text = file.display().to_string();
    let before: Vec<String> = answered.lock().unwrap().clone();
    let db_url = app.database_url().to_owned();
    let out = tokio::task::spawn_blocking({
        let (db_url, file_text) = (db_url.clone(), file_text.clone());
        move || run(&db_url, &["backup", &file_text])
    })
    .await
    .unwrap();
    let during = answered.lock().unwrap().len();
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for task in load {
        task.await.unwrap();
    }
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("integrity and ledger ok"), "{out:?}");
    assert!(during > before.len(), "the rounds went on while the backup ran ({} → {during})", before.len());
    let again = run(&db_url, &["backup", &file_text]);
    assert!(
        !again.status.success() && String::from_utf8_lossy(&again.stderr).contains("never overwrites"),
        "{again:?}"
    );

    // Restored into a fresh directory: every round answered before the backup began is there.
    let fresh = tempfile::tempdir().unwrap();
    let restored_url = format!("sqlite://{}/data/croupier.db", fresh.path().display());
    let out = run(&restored_url, &["restore", &file_text]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run(&restored_url, &["ledger", "check"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let restored = croupier_server::db::Db::connect(&restored_url, 1).await.unwrap();
    let rounds: Vec<String> = sqlx::query_scalar("SELECT round FROM game_rounds WHERE provider = 'house'")
        .fetch_all(restored.pool())
        .await
        .unwrap();
    let rounds: std::collections::HashSet<String> = rounds.into_iter().collect();
    for round in &before {
        assert!(rounds.contains(round), "round {round}, answered before the backup, is in it");
    }
    let usd = croupier_shared::Currency::parse("USD").unwrap();
    let user: i64 =
        sqlx::query_scalar("SELECT user_id FROM game_rounds LIMIT 1").fetch_one(restored.pool()).await.unwrap();
    let main = croupier_server::ledger::player_balances(&restored, user, usd).await.unwrap()[0];
    let (bets, wins): (i64, i64) =
        sqlx::query_as("SELECT CAST(SUM(bet) AS BIGINT), CAST(SUM(win) AS BIGINT) FROM game_rounds WHERE user_id = $1")
            .bind(user)
            .fetch_one(restored.pool())
            .await
            .unwrap();
    assert_eq!(main, 1_000_000 - bets + wins, "the copy is one moment: its balance is what its rounds imply");
    restored.close().await;

    // A restore of something that is not a backup changes nothing.
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, "not a database").unwrap();
    let out = run(&restored_url, &["restore", &junk.display().to_string()]);
    assert!(!out.status.success(), "{out:?}");
    assert!(run(&restored_url, &["ledger", "check"]).status.success(), "the restored database is untouched");
    app.finish().await;
}
