//! The hot path's caches (issue 23) are right before they are fast: a cached session and account
//! summary, a cached page shell and content answer, each dropped by what changes it — logout,
//! ban, password change, balance change, content edit — on both databases, and, with Redis, on
//! another replica (a second server process on the same database and Redis).

use crate::content::{TOKEN, cms_get, cms_send};
use crate::games::{Aggregator, agg_game, agg_providers, funded};
use crate::helpers::{Backend, TestApp, backends, expect_error, postgres_configured, read_json};
use crate::protection::ADMIN;
use croupier_server::features::account::Summary;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use std::time::Duration;

async fn spawn(backend: Backend) -> TestApp {
    let providers = agg_providers();
    let env = [
        ("CROUPIER_GAME_PROVIDERS", providers.as_str()),
        ("CROUPIER_ADMIN_TOKEN", ADMIN),
        ("CROUPIER_CMS_TOKENS", TOKEN),
    ];
    TestApp::spawn_with(backend, &env, |_| {}).await
}

/// Signs `email` in from a client without a cookie jar; answers the session cookie to send.
async fn sign_in(base: &str, email: &str) -> String {
    let r = reqwest::Client::new()
        .post(format!("{base}/api/auth.login?locale=en&v=2.34"))
        .form(&[("login", email), ("password", "secret123")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let cookie = r.headers()["set-cookie"].to_str().unwrap();
    cookie.split(';').next().unwrap().to_owned()
}

async fn call(base: &str, cookie: &str, method: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let url = format!("{base}/api/{method}?locale=en&v=2.34");
    let request =
        if form.is_empty() { reqwest::Client::new().get(url) } else { reqwest::Client::new().post(url).form(form) };
    read_json(request.header("cookie", cookie).send().await.unwrap()).await
}

async fn info(base: &str, cookie: &str) -> Value {
    let (status, body) = call(base, cookie, "account.getInfo", &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"].clone()
}

/// Reads the account until the app serves it from memory: what was just done has settled
/// (`hot::SETTLE`) and the next call would be a cache hit. Proves the test exercises the cache.
async fn warm(app: &TestApp, cookie: &str) -> Value {
    tokio::time::sleep(croupier_server::hot::SETTLE + Duration::from_millis(100)).await;
    let first = info(&app.url(""), cookie).await;
    let uid = first["uid"].as_i64().unwrap();
    assert!(uid > 0);
    assert!(app.state.platform().hot().value::<Summary>(uid).is_some(), "the summary is cached");
    let again = info(&app.url(""), cookie).await;
    assert_eq!(first, again, "a repeat read answers the same");
    again
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cached_session_ends_with_logout_a_password_change_and_a_ban() {
    for backend in backends() {
        let app = spawn(backend).await;
        let base = app.url("");
        app.register(&app.browser(), "hot-session@example.com").await;
        let (first, second) =
            (sign_in(&base, "hot-session@example.com").await, sign_in(&base, "hot-session@example.com").await);
        let uid = warm(&app, &first).await["uid"].as_i64().unwrap();
        warm(&app, &second).await;

        // Logout: the same cookie, replayed at once, names nobody.
        let (status, _) = call(&base, &first, "auth.logout", &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(info(&base, &first).await["uid"], 0, "a logged-out cookie is a guest's at once");
        assert_eq!(info(&base, &second).await["uid"], uid, "the other session lives on");

        // Password change: the other sessions end at once, the caller's stays.
        let third = sign_in(&base, "hot-session@example.com").await;
        warm(&app, &second).await;
        warm(&app, &third).await;
        let (status, body) = call(
            &base,
            &third,
            "account.changepassword",
            &[("old_password", "secret123"), ("new_password", "another12")],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(info(&base, &second).await["uid"], 0, "a password change ends the other sessions at once");
        assert_eq!(info(&base, &third).await["uid"], uid);

        // Ban by an operator: the next call of the cached session is refused.
        warm(&app, &third).await;
        let r = reqwest::Client::new()
            .post(app.url(&format!("/admin/players/{uid}/ban")))
            .bearer_auth(ADMIN)
            .json(&json!({"reason": "chargeback", "ban_type": "fraud"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        let (status, body) = call(&base, &third, "account.getInfo", &[]).await;
        expect_error(status, &body, 403, "UserBannedException");
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cached_balance_follows_every_posting_and_profile_change() {
    for backend in backends() {
        let app = spawn(backend).await;
        let base = app.url("");
        agg_game(&app, "hot-slot", "slot").await;
        let browser = funded(&app, "hot-balance@example.com", 10_000).await;
        let cookie = sign_in(&base, "hot-balance@example.com").await;
        let agg = Aggregator::launched(&app, &browser, "hot-slot").await;
        assert_eq!(warm(&app, &cookie).await["balance_main"]["amount"], "100.00");

        // A provider's bet and win: postings no call of the player made.
        let bet =
            agg.call("bet", json!({"transaction_uuid": "h-1", "round": "h-1", "amount": 250, "currency": "USD"})).await;
        assert_eq!(bet["status"], "RS_OK", "{bet}");
        assert_eq!(info(&base, &cookie).await["balance_main"]["amount"], "97.50", "the bet shows at once");
        warm(&app, &cookie).await;
        let win = agg.call("win", json!({"transaction_uuid": "h-2", "round": "h-1", "amount": 1000, "currency": "USD", "round_closed": true})).await;
        assert_eq!(win["status"], "RS_OK", "{win}");
        assert_eq!(info(&base, &cookie).await["balance_main"]["amount"], "107.50", "the win shows at once");

        // The player's own change (a write method): seen on the next read.
        warm(&app, &cookie).await;
        let (status, body) = call(&base, &cookie, "account.changefakename", &[("fakename", "HotShot")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(info(&base, &cookie).await["fakename"], "HotShot");
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_content_edit_reaches_the_cached_page_and_content_answers_at_once() {
    for backend in backends() {
        let app = spawn(backend).await;
        let page = |app: &TestApp| {
            let url = app.url("/about");
            async move { reqwest::get(url).await.unwrap().text().await.unwrap() }
        };
        let before = page(&app).await;
        assert!(before.contains("<title>About Croupier"), "{before}");
        assert_eq!(page(&app).await, before, "a cached shell answers the same");
        let (_, about) = cms_get(&app, "/cms/api/pages/1?locale=en").await;
        assert_eq!(about["data"]["attributes"]["title"], "About Croupier");
        let (_, again) = cms_get(&app, "/cms/api/pages/1?locale=en").await;
        assert_eq!(about, again);

        let (status, body) =
            cms_send(&app, Method::PUT, "/cms/api/pages/1", Some(TOKEN), json!({"data": {"title": "About Us Now"}}))
                .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (_, about) = cms_get(&app, "/cms/api/pages/1?locale=en").await;
        assert_eq!(about["data"]["attributes"]["title"], "About Us Now", "the content answer follows the edit");
        let after = page(&app).await;
        assert!(after.contains("<title>About Us Now"), "the page's head follows the edit: {after}");

        // Drafts are never served from the published answers.
        let (status, _) = cms_get(&app, "/cms/api/pages/1?publicationState=preview").await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        app.finish().await;
    }
}

/// A second replica: the real binary on the same database and Redis prefix.
struct Replica {
    child: std::process::Child,
    base: String,
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn replica(app: &TestApp) -> Option<Replica> {
    let (url, prefix) = app.redis.clone()?;
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_croupier-server"))
        .env("CROUPIER_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", app.database_url())
        .env("REDIS_URL", url)
        .env("CROUPIER_REDIS_PREFIX", prefix)
        .env("CROUPIER_WEB_DIR", "/nonexistent")
        .env("CROUPIER_PUBLIC_URL", "http://localhost:8080")
        .env("CROUPIER_LOG", "warn")
        .env_remove("CROUPIER_CONFIG")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let replica = Replica { child, base: format!("http://127.0.0.1:{port}") };
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(r) = reqwest::get(format!("{}/readyz", replica.base)).await
            && r.status() == StatusCode::OK
        {
            return Some(replica);
        }
        assert!(std::time::Instant::now() < deadline, "the replica became ready");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Polls `read` for at most `within` (well under the caches' TTL) until it answers `want`.
async fn seen_within<F, Fut>(within: Duration, want: &Value, read: F) -> Value
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Value>,
{
    let deadline = std::time::Instant::now() + within;
    loop {
        let got = read().await;
        if &got == want || std::time::Instant::now() > deadline {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_redis_another_replica_drops_what_changed_here() {
    if !postgres_configured() || std::env::var("TEST_REDIS_URL").is_err() {
        eprintln!("SKIPPED: needs TEST_DATABASE_URL and TEST_REDIS_URL");
        return;
    }
    let app = spawn(Backend::Postgres).await;
    let other = replica(&app).await.expect("the app uses Redis");
    agg_game(&app, "hot-slot", "slot").await;
    let browser = funded(&app, "hot-replica@example.com", 10_000).await;
    let agg = Aggregator::launched(&app, &browser, "hot-slot").await;
    let cookie = sign_in(&app.url(""), "hot-replica@example.com").await;
    // Warm the other replica: two reads after the sign-in has settled.
    tokio::time::sleep(croupier_server::hot::SETTLE + Duration::from_millis(100)).await;
    let warm = info(&other.base, &cookie).await;
    assert_eq!(info(&other.base, &cookie).await, warm);
    assert_eq!(warm["balance_main"]["amount"], "100.00");

    // A balance change here is seen there well within the TTL.
    let bet =
        agg.call("bet", json!({"transaction_uuid": "r-1", "round": "r-1", "amount": 100, "currency": "USD"})).await;
    assert_eq!(bet["status"], "RS_OK");
    let within = croupier_server::hot::TTL / 4;
    let want = json!("99.00");
    let got =
        seen_within(within, &want, || async { info(&other.base, &cookie).await["balance_main"]["amount"].clone() })
            .await;
    assert_eq!(got, want, "the other replica saw the bet through Redis");

    // A content edit here, seen there: the page is first cached there, and the edit must reach it
    // sooner than that cache's own version check (`VERSION_TTL`) would.
    let cached = || async {
        let r = reqwest::get(format!("{}/cms/api/pages/1?locale=en", other.base)).await.unwrap();
        read_json(r).await.1["data"]["attributes"]["title"].clone()
    };
    assert_eq!(cached().await, "About Croupier");
    assert_eq!(cached().await, "About Croupier");
    assert!(Duration::from_millis(500) < croupier_server::features::content::store::VERSION_TTL);
    let (status, _) =
        cms_send(&app, Method::PUT, "/cms/api/pages/1", Some(TOKEN), json!({"data": {"title": "Replicated"}})).await;
    assert_eq!(status, StatusCode::OK);
    let want = json!("Replicated");
    let got = seen_within(Duration::from_millis(500), &want, cached).await;
    assert_eq!(got, want, "the other replica saw the edit through Redis");

    // Logout here: the cookie names nobody there.
    tokio::time::sleep(croupier_server::hot::SETTLE + Duration::from_millis(100)).await;
    info(&other.base, &cookie).await;
    let (status, _) = call(&app.url(""), &cookie, "auth.logout", &[]).await;
    assert_eq!(status, StatusCode::OK);
    let want = json!(0);
    let got = seen_within(within, &want, || async { info(&other.base, &cookie).await["uid"].clone() }).await;
    assert_eq!(got, want, "the other replica dropped the session through Redis");
    drop(other);
    app.finish().await;
}
