//! Social sign-in against a small OpenID Connect provider started inside the test. The provider
//! itself checks the PKCE verifier, the client secret and the redirect URI, so a flow that
//! succeeds proves our side sent them right.

use crate::db_test;
use crate::helpers::{Backend, TestApp, expect_error, read_json};
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What an authorization code stands for: (PKCE challenge, nonce, redirect URI).
type Grant = (String, String, String);

#[derive(Clone, Default)]
struct Provider {
    issuer: String,
    /// The identity the next authorization signs in as: (sub, email, email_verified).
    identity: Arc<Mutex<(String, String, bool)>>,
    /// code → (challenge, nonce, redirect_uri)
    codes: Arc<Mutex<HashMap<String, Grant>>>,
}

async fn discovery(State(p): State<Provider>) -> Json<Value> {
    Json(json!({
        "issuer": p.issuer,
        "authorization_endpoint": format!("{}/authorize", p.issuer),
        "token_endpoint": format!("{}/token", p.issuer),
    }))
}

async fn authorize(State(p): State<Provider>, Query(q): Query<HashMap<String, String>>) -> Response {
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["client_id"], "croupier-test");
    assert_eq!(q["code_challenge_method"], "S256");
    assert!(q["scope"].split(' ').any(|s| s == "openid"));
    let code = uuid::Uuid::new_v4().simple().to_string();
    p.codes
        .lock()
        .unwrap()
        .insert(code.clone(), (q["code_challenge"].clone(), q["nonce"].clone(), q["redirect_uri"].clone()));
    Redirect::to(&format!("{}?code={code}&state={}", q["redirect_uri"], q["state"])).into_response()
}

async fn token(State(p): State<Provider>, Form(f): Form<HashMap<String, String>>) -> Response {
    let Some((challenge, nonce, redirect_uri)) = p.codes.lock().unwrap().remove(&f["code"]) else {
        return (StatusCode::BAD_REQUEST, Json(json!({"error": "invalid_grant"}))).into_response();
    };
    let verifier_ok = URL_SAFE_NO_PAD.encode(Sha256::digest(f["code_verifier"].as_bytes())) == challenge;
    if !verifier_ok
        || f["client_secret"] != "s3cret"
        || f["redirect_uri"] != redirect_uri
        || f["grant_type"] != "authorization_code"
    {
        return (StatusCode::BAD_REQUEST, Json(json!({"error": "invalid_grant"}))).into_response();
    }
    let (sub, email, verified) = p.identity.lock().unwrap().clone();
    let exp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() + 300;
    let claims = json!({"iss": p.issuer, "sub": sub, "aud": "croupier-test", "exp": exp, "nonce": nonce, "email": email, "email_verified": verified});
    let id_token =
        format!("{}.{}.sig", URL_SAFE_NO_PAD.encode(br#"{"alg":"RS256"}"#), URL_SAFE_NO_PAD.encode(claims.to_string()));
    Json(json!({"access_token": "at", "token_type": "Bearer", "id_token": id_token})).into_response()
}

async fn start_provider() -> Provider {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let provider = Provider { issuer: format!("http://{}", listener.local_addr().unwrap()), ..Provider::default() };
    let app = Router::new()
        .route("/.well-known/openid-configuration", get(discovery))
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .with_state(provider.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    provider
}

async fn app_with(provider: &Provider, backend: Backend) -> TestApp {
    let providers = format!("test|{}|croupier-test|s3cret", provider.issuer);
    TestApp::spawn_with(backend, &[("CROUPIER_OAUTH_PROVIDERS", providers.as_str())], |_| {}).await
}

fn browser() -> reqwest::Client {
    reqwest::Client::builder().cookie_store(true).redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// Runs the popup's journey: init → provider → callback. Answers the callback's status and page.
async fn sign_in(
    app: &TestApp,
    client: &reqwest::Client,
    provider: &Provider,
    identity: (&str, &str, bool),
) -> (StatusCode, String) {
    *provider.identity.lock().unwrap() = (identity.0.to_owned(), identity.1.to_owned(), identity.2);
    let init = client
        .get(app.url("/oauth/init?service=test&redirect_url=/cashier/deposit&type_auth=login"))
        .send()
        .await
        .unwrap();
    assert_eq!(init.status(), StatusCode::SEE_OTHER, "init redirects to the provider");
    let to_provider = init.headers()["location"].to_str().unwrap().to_owned();
    assert!(to_provider.starts_with(&provider.issuer), "{to_provider}");
    assert!(
        to_provider.contains("redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Foauth%2Fcallback%2Ftest"),
        "{to_provider}"
    );
    let back = client.get(&to_provider).send().await.unwrap();
    let callback = back.headers()["location"].to_str().unwrap().replace("http://localhost:8080", &app.url(""));
    let page = client.get(&callback).send().await.unwrap();
    (page.status(), page.text().await.unwrap())
}

async fn info(app: &TestApp, client: &reqwest::Client) -> Value {
    let (_, body) = read_json(client.get(app.api_url("account.getInfo", "en", &[])).send().await.unwrap()).await;
    body["data"].clone()
}

db_test!(async fn a_new_social_player_completes_registration_and_comes_back_to_the_same_account(app) {
    let _ = app;
    let provider = start_provider().await;
    let app = app_with(&provider, app.backend).await;
    let client = browser();
    let (status, page) = sign_in(&app, &client, &provider, ("g-123", "Social@Example.com", true)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains(r#""status":"ok""#) && page.contains(r#""is_registration_completed":false"#), "{page}");
    assert!(page.contains(r#""redirect_url":"/cashier/deposit""#), "{page}");
    let me = info(&app, &client).await;
    let uid = me["uid"].as_i64().unwrap();
    assert!(uid > 0);
    assert_eq!(me["login"], "social@example.com", "a verified, unused e-mail becomes the login");
    assert_eq!(me["is_registration_completed"], false);
    assert_eq!(me["currency"], Value::Null);

    let form = [("currency", "EUR")];
    let (status, body) = read_json(client.post(app.api_url("account.setCurrency", "en", &[])).form(&form).send().await.unwrap()).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(body["error"]["error_data"]["terms"][0], "UNCHECKED");
    let form = [("currency", "EUR"), ("terms", "1")];
    let (status, _) = read_json(client.post(app.api_url("account.setCurrency", "en", &[])).form(&form).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info(&app, &client).await["is_registration_completed"], true);

    let again = browser();
    let (status, page) = sign_in(&app, &again, &provider, ("g-123", "social@example.com", true)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(r#""is_registration_completed":true"#), "{page}");
    assert_eq!(info(&app, &again).await["uid"], uid, "the same identity signs the same account in");
    app.finish().await;
});

db_test!(async fn an_email_used_by_another_account_is_not_taken_over(app) {
    let _ = app;
    let provider = start_provider().await;
    let app = app_with(&provider, app.backend).await;
    let owner = app.register(&app.browser(), "owner@example.com").await;
    let client = browser();
    let (status, _) = sign_in(&app, &client, &provider, ("g-evil", "owner@example.com", true)).await;
    assert_eq!(status, StatusCode::OK);
    let me = info(&app, &client).await;
    assert_ne!(me["uid"], owner["uid"]);
    assert_eq!(me["login"], "", "the e-mail stays with its owner");
    app.finish().await;
});

db_test!(async fn a_signed_in_player_links_an_identity_that_nobody_else_may_link(app) {
    let _ = app;
    let provider = start_provider().await;
    let app = app_with(&provider, app.backend).await;
    let client = browser();
    let form = [("email", "linker@example.com"), ("password", "secret123"), ("currency", "USD"), ("terms", "1")];
    let (status, me) = read_json(client.post(app.api_url("auth.register", "en", &[])).form(&form).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    let (status, page) = sign_in(&app, &client, &provider, ("tg-42", "", false)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(info(&app, &client).await["uid"], me["data"]["uid"], "linking keeps the session");

    let fresh = browser();
    let (status, _) = sign_in(&app, &fresh, &provider, ("tg-42", "", false)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info(&app, &fresh).await["uid"], me["data"]["uid"], "the linked identity signs in to the linked account");

    let other = browser();
    let form = [("email", "second@example.com"), ("password", "secret123"), ("currency", "USD"), ("terms", "1")];
    other.post(app.api_url("auth.register", "en", &[])).form(&form).send().await.unwrap();
    let (status, page) = sign_in(&app, &other, &provider, ("tg-42", "", false)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(page.contains("already_linked"), "{page}");
    app.finish().await;
});

#[tokio::test]
async fn a_flow_is_refused_when_its_state_is_unknown_or_the_service_is_not_configured() {
    let provider = start_provider().await;
    let app = app_with(&provider, Backend::Sqlite).await;
    let client = browser();
    let page = client.get(app.url("/oauth/callback/test?code=x&state=forged")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::BAD_REQUEST);
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains("script-src 'nonce-"), "{csp}");
    let text = page.text().await.unwrap();
    assert!(text.contains(r#""error":"expired""#), "{text}");

    let page = client.get(app.url("/oauth/init?service=myspace&locale=fr")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::NOT_FOUND);
    assert!(page.text().await.unwrap().contains("n'est pas disponible"));

    let init = client.get(app.url("/oauth/init?service=test&redirect_url=https://evil.example")).send().await.unwrap();
    let to_provider = init.headers()["location"].to_str().unwrap().to_owned();
    let back = client.get(&to_provider).send().await.unwrap();
    let callback = back.headers()["location"].to_str().unwrap().replace("http://localhost:8080", &app.url(""));
    let text = client.get(&callback).send().await.unwrap().text().await.unwrap();
    assert!(text.contains(r#""redirect_url":"/""#), "no open redirect: {text}");
    let replay = client.get(&callback).send().await.unwrap();
    assert_eq!(replay.status(), StatusCode::BAD_REQUEST, "a state works once");
    app.finish().await;
}
