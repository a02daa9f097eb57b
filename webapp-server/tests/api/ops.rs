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
