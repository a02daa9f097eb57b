//! Serving the client: the SPA shell with its language and title, caching, compression and
//! security headers.

use crate::helpers::{Backend, TestApp};
use reqwest::StatusCode;

#[tokio::test]
async fn client_paths_get_index_html_with_language_and_title() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (path, lang, title) in [
        ("/", "en", "<title>Croupier — Online casino and sportsbook</title>"),
        ("/fr", "fr", "<title>Croupier — Casino en ligne et paris sportifs</title>"),
        ("/fr/gamehall", "fr", "<title>Croupier</title>"),
        ("/gamehall?category=slots", "en", "<title>Croupier</title>"),
        ("/some/unknown/page", "en", "<title>Croupier</title>"),
        ("/index.html", "en", "<title>Croupier — Online casino and sportsbook</title>"),
        ("/fr/profile/settings?from=x", "fr", "<title>Croupier</title>"),
        ("/promotions/summer.2026/", "en", "<title>Croupier</title>"),
    ] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
        let html = response.text().await.unwrap();
        assert!(html.contains(&format!("<html lang=\"{lang}\">")), "{path}: {html}");
        assert!(html.contains(title), "{path}: {html}");
        assert!(html.contains("/assets/app-3f9a1c.js"), "the client's own markup stays: {html}");
    }
    app.finish().await;
}

#[tokio::test]
async fn the_site_name_in_titles_is_escaped() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_SITE_NAME", "Ace <&> Co")], |_| {}).await;
    let html = app.client.get(app.url("/")).send().await.unwrap().text().await.unwrap();
    assert!(html.contains("<title>Ace &lt;&amp;&gt; Co — Online casino and sportsbook</title>"), "{html}");
    app.finish().await;
}

#[tokio::test]
async fn hashed_assets_are_cached_for_a_year_and_compressed() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let response =
        app.client.get(app.url("/assets/app-3f9a1c.js")).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(response.headers()["content-encoding"], "gzip");
    let response = app.client.get(app.url("/favicon.svg")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "public, max-age=3600");
    let response = app.client.get(app.url("/assets/missing-123.js")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND, "a missing asset is not the SPA shell");
    app.finish().await;
}

#[tokio::test]
async fn security_headers_let_only_telegram_frame_the_site() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for path in ["/", "/api/metadata.getgeneralinfo?v=2.34", "/assets/app-3f9a1c.js"] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'self' https://web.telegram.org"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self' https://telegram.org"), "{csp}");
        assert!(csp.contains("object-src 'none'"), "{csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["referrer-policy"], "strict-origin-when-cross-origin");
        assert!(headers.get("x-frame-options").is_none(), "X-Frame-Options would block Telegram's web clients");
        assert!(headers.get("strict-transport-security").is_none(), "no HSTS in dev");
    }
    app.finish().await;
}

#[tokio::test]
async fn prod_adds_hsts() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_ENV", "prod")], |_| {}).await;
    let response = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(response.headers()["strict-transport-security"], "max-age=31536000; includeSubDomains");
    app.finish().await;
}
