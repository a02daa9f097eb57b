//! Operations: liveness, readiness, metrics, request ids.

use crate::db_test;
use crate::helpers::{Backend, TestApp};
use reqwest::StatusCode;

db_test!(async fn health_and_readiness_report_the_backends(app) {
    let response = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.text().await.unwrap(), "ok");

    let response = app.client.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    let backend = match app.backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    assert_eq!(body["checks"]["database"]["backend"], backend);
    assert_eq!(body["checks"]["database"]["ok"], true);
    let expected_coord = if app.backend == Backend::Postgres && std::env::var("TEST_REDIS_URL").is_ok() { "redis" } else { "memory" };
    assert_eq!(body["checks"]["coordination"]["backend"], expected_coord);
});

#[tokio::test]
async fn readiness_fails_when_the_database_is_gone() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.state.db().close().await;
    let response = app.client.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["checks"]["database"]["ok"], false);
    let response = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "liveness does not depend on the database");
    app.finish().await;
}

db_test!(async fn metrics_count_api_calls_per_method_and_show_the_pool(app) {
    for _ in 0..3 {
        app.api_get("metadata.getgeneralinfo", &[]).await;
    }
    app.api_get("no.such", &[]).await;
    let text = app.client.get(app.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(text.contains("croupier_api_requests_total{method=\"metadata.getgeneralinfo\",status=\"200\"} 3"), "{text}");
    assert!(text.contains("croupier_api_requests_total{method=\"unknown\",status=\"404\"} 1"), "{text}");
    assert!(text.contains("croupier_api_request_duration_seconds_count{method=\"metadata.getgeneralinfo\"} 3"), "{text}");
    assert!(text.contains("croupier_db_pool_connections "), "{text}");
    assert!(text.contains("croupier_db_pool_idle_connections "), "{text}");
});

#[tokio::test]
async fn every_answer_carries_a_request_id_and_keeps_a_given_one() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let response = app.client.get(app.url("/healthz")).send().await.unwrap();
    let id = response.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(id.len(), 36, "a UUID: {id}");
    let response = app.client.get(app.url("/healthz")).header("x-request-id", "trace-42").send().await.unwrap();
    assert_eq!(response.headers()["x-request-id"], "trace-42");
    app.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_write_ahead_log_is_copied_back_beside_the_writer() {
    // The server's checkpointer copies SQLite's write-ahead log into the database file from a
    // reader connection a few times a second; the one writer would do it only past 16,000
    // pages. The database file read without its log (`immutable=1` ignores the -wal file) shows
    // a new player within a second.
    let app = TestApp::spawn(Backend::Sqlite).await;
    let path = croupier_server::db::sqlite_path(app.database_url()).expect("a SQLite file");
    let file_only = format!("sqlite://{}?immutable=1", path.display());
    let client = app.browser();
    let user = app.register(&client, "wal@example.com").await["uid"].as_i64().expect("uid");
    let count = || async {
        let db = croupier_server::db::Db::connect(&file_only, 1).await.expect("open the file alone");
        // Before any checkpoint the file alone may not even have the tables yet.
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE id = $1")
            .bind(user)
            .fetch_one(db.pool())
            .await
            .unwrap_or(0);
        db.close().await;
        n
    };
    let mut seen = false;
    for _ in 0..40 {
        if count().await == 1 {
            seen = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(seen, "the log was copied back into the database file");
    app.finish().await;
}

/// The write-ahead log starts over under a steady stream of commits: a write that begins with
/// the whole log copied restarts it, which a stream of commits never leaves time for, so the
/// checkpointer asks the writer's lane to copy the last commits between two batches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_write_ahead_log_starts_over_when_the_lane_catches_up() {
    use croupier_server::db::{Db, group::job};
    let dir = std::env::temp_dir().join(format!("croupier-wal-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = Db::connect(&format!("sqlite://{}/wal.db", dir.display()), 4).await.unwrap();
    let write = |sql: &'static str| {
        let db = db.clone();
        async move {
            db.group(0, job(move |conn| Box::pin(async move { sqlx::query(sql).execute(conn).await.map(|_| ()) })))
                .await
        }
    };
    // A log's frames, and how many of them the file has: a passive checkpoint's answer.
    let pass =
        || async { sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(db.pool()).await };
    write("CREATE TABLE blobs (b BLOB)").await.unwrap();
    // Twenty commits (about ten pages each) and two small ones, none copied: a pass finds them all.
    let twenty = || async {
        for _ in 0..20 {
            write("INSERT INTO blobs (b) VALUES (randomblob(40000))").await.unwrap();
        }
    };
    twenty().await;
    write("INSERT INTO blobs (b) VALUES (1)").await.unwrap();
    write("INSERT INTO blobs (b) VALUES (2)").await.unwrap();
    let (_, log, copied) = pass().await.unwrap();
    assert!(log > 150 && copied == log, "the commits are all in the log: {log} frames, {copied} copied");
    // The same again, but the lane asked to catch up after the first small commit: it copies the
    // log after that batch, and the next batch starts the log over.
    twenty().await;
    write("INSERT INTO blobs (b) VALUES (1)").await.unwrap();
    db.ask_wal_restart();
    write("INSERT INTO blobs (b) VALUES (2)").await.unwrap();
    write("INSERT INTO blobs (b) VALUES (3)").await.unwrap();
    let (_, restarted, _) = pass().await.unwrap();
    assert!(restarted < 20, "the log started over: {restarted} frames, against {log}");
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM blobs").fetch_one(db.pool()).await.unwrap();
    assert_eq!(rows, 45, "nothing lost");
    db.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
