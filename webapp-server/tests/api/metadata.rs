//! `metadata.getgeneralinfo` (SPEC §3 "General info").

use crate::db_test;
use crate::helpers::{Backend, TestApp};
use reqwest::StatusCode;

const FIELDS: [&str; 12] = [
    "analytic",
    "available_currencies",
    "available_locales",
    "default_currency",
    "is_seon_enabled",
    "domain_state",
    "domain_type",
    "time_to_force_logout",
    "is_bonus_isolation_enabled",
    "is_game_history_export_enabled",
    "user_inactivity_cashier_time",
    "user_inactivity_pp_time",
];

db_test!(async fn general_info_has_every_field_of_the_spec(app) {
    let (status, body) = app.api_get("metadata.getgeneralinfo", &[]).await;
    assert_eq!(status, StatusCode::OK);
    let data = body["data"].as_object().unwrap();
    for field in FIELDS {
        assert!(data.contains_key(field), "missing {field}: {body}");
    }
    assert_eq!(body["data"]["available_locales"], serde_json::json!(["en", "fr"]));
    assert_eq!(body["data"]["available_currencies"], serde_json::json!(["USD", "EUR", "GBP", "CAD"]));
    assert_eq!(body["data"]["default_currency"], "USD");
    assert_eq!(body["data"]["time_to_force_logout"], 1800);
    assert_eq!(body["data"]["domain_state"], "active");
});

#[tokio::test]
async fn general_info_comes_from_configuration() {
    let env = [
        ("CROUPIER_CURRENCIES", "EUR,GBP"),
        ("CROUPIER_DEFAULT_CURRENCY", "GBP"),
        ("CROUPIER_FORCE_LOGOUT_SECONDS", "600"),
        ("CROUPIER_INACTIVITY_CASHIER_SECONDS", "120"),
        ("CROUPIER_INACTIVITY_PP_SECONDS", "240"),
        ("CROUPIER_GTM_ID", "GTM-TEST1"),
        ("CROUPIER_SEON_ENABLED", "true"),
        ("CROUPIER_GAME_HISTORY_EXPORT", "false"),
    ];
    let app = TestApp::spawn_with(Backend::Sqlite, &env, |_| {}).await;
    let (_, body) = app.api_get("metadata.getgeneralinfo", &[]).await;
    let data = &body["data"];
    assert_eq!(data["available_currencies"], serde_json::json!(["EUR", "GBP"]));
    assert_eq!(data["default_currency"], "GBP");
    assert_eq!(data["time_to_force_logout"], 600);
    assert_eq!(data["user_inactivity_cashier_time"], 120);
    assert_eq!(data["user_inactivity_pp_time"], 240);
    assert_eq!(data["analytic"]["gtm_id"], "GTM-TEST1");
    assert_eq!(data["is_seon_enabled"], true);
    assert_eq!(data["is_game_history_export_enabled"], false);
    app.finish().await;
}

#[tokio::test]
async fn the_public_host_is_main_and_any_other_a_mirror() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let url = app.api_url("metadata.getgeneralinfo", "en", &[]);
    let main: serde_json::Value =
        app.client.get(&url).header("host", "localhost:8080").send().await.unwrap().json().await.unwrap();
    assert_eq!(main["data"]["domain_type"], "main");
    let mirror: serde_json::Value =
        app.client.get(&url).header("host", "mirror.example:8080").send().await.unwrap().json().await.unwrap();
    assert_eq!(mirror["data"]["domain_type"], "mirror");
    app.finish().await;
}
