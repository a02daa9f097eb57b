//! External sportsbook providers seen from the client and the back office (issue 20):
//! `sportsbook.getSports` names the configured providers (and their display names) and nothing
//! else of their configuration, `sportsbook.launch` tells a player without a currency what is missing,
//! `sportsbook.getProviderBets` filters by provider, and `GET /admin/sportsbook/provider-bets`
//! lists every player's provider bets for operators with `sportsbook.manage` (filters provider,
//! player, status; bad filters are field errors).

use crate::backoffice::{Op, TOKEN, get as bo_get, operator};
use crate::games::funded;
use crate::helpers::now_seconds;
use crate::helpers::{Backend, TestApp, backends, expect_error};
use crate::sportsbook_wallet::{SECRET, place, providers, send, settle};
use reqwest::StatusCode;
use serde_json::{Value, json};

const OTHER_SECRET: &str = "other-provider-secret-0123456789";

/// Two providers: `bookco` (the wallet tests') and `otherbook`, shown as "Other Book".
fn two_providers() -> String {
    format!("{},otherbook|https://other.example/play/{{token}}|{OTHER_SECRET}|Other Book", providers())
}

async fn spawn(backend: Backend) -> TestApp {
    let config = two_providers();
    TestApp::spawn_with(
        backend,
        &[("CROUPIER_SPORTSBOOK_PROVIDERS", config.as_str()), ("CROUPIER_ADMIN_TOKEN", TOKEN)],
        |_| {},
    )
    .await
}

/// Launches `provider` for `client` and places (and, with `payout`, settles) one two-leg bet there.
async fn bet_at(app: &TestApp, client: &reqwest::Client, provider: &str, bet: &str, payout: Option<i64>) {
    let (status, launched) = app.post_as(client, "sportsbook.launch", &[("provider", provider)]).await;
    assert_eq!(status, StatusCode::OK, "{launched}");
    let token = launched["data"]["token"].as_str().unwrap();
    let secret = if provider == "bookco" { SECRET } else { OTHER_SECRET };
    let mut body = place(&format!("{bet}-place"), bet, 300);
    body["token"] = json!(token);
    body["request_uuid"] = json!("r");
    let placed = send(app, provider, "place", &body, secret, now_seconds()).await;
    assert_eq!(placed["status"], "RS_OK", "{placed}");
    if let Some(amount) = payout {
        let result = if amount > 0 { "won" } else { "lost" };
        let mut body = settle(&format!("{bet}-settle"), bet, amount, &[("s-1", result), ("s-2", "won")]);
        body["token"] = json!(token);
        body["request_uuid"] = json!("r");
        let settled = send(app, provider, "settle", &body, secret, now_seconds()).await;
        assert_eq!(settled["status"], "RS_OK", "{settled}");
    }
}

/// The operators' listing with `query` as `op` sees it.
async fn list(op: &Op, app: &TestApp, query: &str) -> (StatusCode, Value) {
    bo_get(&op.http, app, &format!("/admin/sportsbook/provider-bets{query}")).await
}

async fn uid(app: &TestApp, client: &reqwest::Client) -> i64 {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["uid"].as_i64().unwrap()
}

#[tokio::test]
async fn get_sports_names_the_providers_and_never_their_secrets_or_frames() {
    for backend in backends() {
        let app = spawn(backend).await;
        let (status, sports) = app.api_get("sportsbook.getSports", &[]).await;
        assert_eq!(status, StatusCode::OK, "{sports}");
        assert_eq!(sports["data"]["providers"], json!(["bookco", "otherbook"]), "{sports}");
        // What players see: the display name when configured, else the name.
        assert_eq!(
            sports["data"]["provider_titles"],
            json!({"bookco": "bookco", "otherbook": "Other Book"}),
            "{sports}"
        );
        let text = sports.to_string();
        for hidden in [SECRET, OTHER_SECRET, "book.example", "other.example", "{token}"] {
            assert!(!text.contains(hidden), "{hidden} leaked: {text}");
        }
        // The OpenAPI document states the field.
        let doc: Value = app.client.get(app.url("/api/openapi.json")).send().await.unwrap().json().await.unwrap();
        let doc_text = doc.to_string();
        assert!(
            !doc_text.contains(SECRET) && !doc_text.contains("other.example"),
            "the document leaks the configuration"
        );
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let sports_schema = schemas
            .values()
            .find(|s| s["properties"]["providers"].is_object() && s["properties"]["items"].is_object())
            .unwrap_or_else(|| panic!("no schema with providers and items: {doc_text}"));
        assert_eq!(sports_schema["properties"]["providers"]["type"], "array", "{sports_schema}");
        app.finish().await;
    }
    // Without a provider configured the list is there and empty.
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, sports) = app.api_get("sportsbook.getSports", &[]).await;
    assert_eq!(sports["data"]["providers"], json!([]), "{sports}");
    assert_eq!(sports["data"]["provider_titles"], json!({}), "{sports}");
    app.finish().await;
}

#[tokio::test]
async fn a_player_without_a_currency_is_told_what_is_missing_and_bets_filter_by_provider() {
    for backend in backends() {
        let app = spawn(backend).await;
        let client = funded(&app, "two-books@example.com", 10_000).await;
        let user = uid(&app, &client).await;
        bet_at(&app, &client, "bookco", "a-1", Some(900)).await;
        bet_at(&app, &client, "otherbook", "o-1", None).await;

        let (status, all) = app.get_as(&client, "sportsbook.getProviderBets", &[]).await;
        assert_eq!(status, StatusCode::OK, "{all}");
        assert_eq!(all["data"]["total"], 2, "{all}");
        let (_, other) = app.get_as(&client, "sportsbook.getProviderBets", &[("provider", "otherbook")]).await;
        assert_eq!(other["data"]["total"], 1, "{other}");
        assert_eq!(other["data"]["items"][0]["bet_id"], "o-1");
        assert_eq!(other["data"]["items"][0]["status"], "open");
        let (_, settled) =
            app.get_as(&client, "sportsbook.getProviderBets", &[("provider", "bookco"), ("status", "settled")]).await;
        assert_eq!(settled["data"]["total"], 1, "{settled}");
        let bet = &settled["data"]["items"][0];
        assert_eq!((bet["status"].as_str(), bet["payout"]["amount"].as_str()), (Some("won"), Some("9.00")), "{bet}");
        assert_eq!(bet["selections"][0]["event"], "Lyon v Nice");
        assert_eq!(bet["selections"][0]["result"], "won");
        let (_, none) = app.get_as(&client, "sportsbook.getProviderBets", &[("provider", "nobody")]).await;
        assert_eq!(none["data"]["total"], 0, "an unknown provider has no bets: {none}");
        let (status, bad) = app.get_as(&client, "sportsbook.getProviderBets", &[("provider", "Bad Name!")]).await;
        assert_eq!(
            expect_error(status, &bad, 422, "InvalidParameterException")["error_data"]["provider"][0],
            "INVALID"
        );

        // A player who has not chosen a currency (a social sign-up not completed) is told so.
        app.sql("UPDATE users SET currency = NULLIF($1, '') WHERE id = $2", "", user).await;
        let (status, refused) = app.post_as(&client, "sportsbook.launch", &[("provider", "bookco")]).await;
        let error = expect_error(status, &refused, 409, "UserNeedProfileDataException");
        assert_eq!(error["error_data"]["missing"], json!(["currency"]), "{refused}");
        app.finish().await;
    }
}

#[tokio::test]
async fn operators_with_sportsbook_manage_list_every_players_provider_bets_with_filters() {
    for backend in backends() {
        let app = spawn(backend).await;
        let ann = funded(&app, "ann@example.com", 10_000).await;
        let bob = funded(&app, "bob@example.com", 10_000).await;
        let (ann_id, bob_id) = (uid(&app, &ann).await, uid(&app, &bob).await);
        bet_at(&app, &ann, "bookco", "ann-1", Some(900)).await;
        bet_at(&app, &ann, "otherbook", "ann-2", None).await;
        bet_at(&app, &bob, "bookco", "bob-1", Some(0)).await;

        let marketing = operator(&app, "marketing@casino.test", "marketing").await;
        let (status, body) = bo_get(&marketing.http, &app, "/admin/sportsbook/provider-bets").await;
        assert_eq!(
            expect_error(status, &body, 403, "AccessDeniedException")["error_data"]["permission"],
            json!(["sportsbook.manage"])
        );

        let finance = operator(&app, "finance@casino.test", "finance").await;
        let (status, body) = list(&finance, &app, "").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["data"]["total"], 3, "{body}");
        let refs: Vec<&str> =
            body["data"]["items"].as_array().unwrap().iter().map(|b| b["bet_id"].as_str().unwrap()).collect();
        assert_eq!(refs, ["bob-1", "ann-2", "ann-1"], "newest first");
        let ann_won = &body["data"]["items"][2];
        assert_eq!(ann_won["user_id"], ann_id);
        assert_eq!((ann_won["stake"].as_i64(), ann_won["payout"].as_i64()), (Some(300), Some(900)), "{ann_won}");
        assert_eq!(ann_won["expected_payout"], 900);
        assert_eq!((ann_won["status"].as_str(), ann_won["currency"].as_str()), (Some("won"), Some("USD")));
        assert_eq!(ann_won["selections"][1]["odds"], "1.50", "{ann_won}");
        assert_eq!(ann_won["selections"][1]["market"], "Total 2.5");

        let count = |body: &Value| body["data"]["total"].as_i64().unwrap();
        let (_, by_provider) = list(&finance, &app, "?provider=otherbook").await;
        assert_eq!(count(&by_provider), 1, "{by_provider}");
        assert_eq!(by_provider["data"]["items"][0]["provider"], "otherbook");
        let (_, by_player) = list(&finance, &app, &format!("?user_id={bob_id}")).await;
        assert_eq!(count(&by_player), 1, "{by_player}");
        assert_eq!(by_player["data"]["items"][0]["status"], "lost");
        let (_, open) = list(&finance, &app, "?status=open").await;
        assert_eq!(count(&open), 1, "{open}");
        let (_, settled) = list(&finance, &app, "?status=settled&provider=bookco").await;
        assert_eq!(count(&settled), 2, "{settled}");
        let (_, won) = list(&finance, &app, "?status=won").await;
        assert_eq!(count(&won), 1, "{won}");
        let (_, paged) = list(&finance, &app, "?count=1&offset=1").await;
        assert_eq!((count(&paged), paged["data"]["items"][0]["bet_id"].as_str()), (3, Some("ann-2")), "{paged}");

        let (status, bad) = list(&finance, &app, "?status=sideways&count=501&user_id=x").await;
        assert_eq!(
            expect_error(status, &bad, 422, "InvalidParameterException")["error_data"]["user_id"][0],
            "INVALID",
            "{bad}"
        );
        let (status, bad) = list(&finance, &app, "?status=sideways&count=501&provider=Bad%20Name").await;
        let data = expect_error(status, &bad, 422, "InvalidParameterException")["error_data"].clone();
        assert_eq!(
            (data["status"][0].as_str(), data["count"][0].as_str(), data["provider"][0].as_str()),
            (Some("UNSUPPORTED"), Some("MAX_VALUE"), Some("INVALID")),
            "{bad}"
        );
        app.finish().await;
    }
}

/// The `frame-src` of the Content-Security-Policy `/betting` answers with.
async fn frame_src(app: &TestApp) -> String {
    let response = reqwest::get(app.url("/betting")).await.unwrap();
    let csp = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
    csp.split(';').map(str::trim).find_map(|d| d.strip_prefix("frame-src ")).unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_provider_framed_over_plain_http_is_allowed_by_its_exact_origin_only() {
    let app = spawn(Backend::Sqlite).await;
    assert_eq!(frame_src(&app).await, "'self' https:", "https providers need nothing more");
    app.finish().await;
    let config = format!(
        "{},localbook|http://127.0.0.1:4567/frame?t={{token}}|{OTHER_SECRET},placeholder|http://{{host}}/x|{OTHER_SECRET}",
        providers()
    );
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_SPORTSBOOK_PROVIDERS", config.as_str())], |_| {}).await;
    assert_eq!(frame_src(&app).await, "'self' https: http://127.0.0.1:4567");
    app.finish().await;
}
