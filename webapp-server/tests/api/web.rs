//! Serving the client: the SPA shell with its language and title, caching, compression and
//! security headers.

use crate::helpers::{Backend, TestApp};
use reqwest::StatusCode;

#[tokio::test]
async fn client_paths_get_index_html_with_language_title_and_status() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (path, status, lang, title) in [
        ("/", 200, "en", "<title>Croupier — Online casino and sportsbook</title>"),
        ("/fr", 200, "fr", "<title>Croupier — Casino en ligne et paris sportifs</title>"),
        (
            "/fr/gamehall",
            200,
            "fr",
            "<title>Jeux de casino : machines à sous, direct et jeux de table | Croupier</title>",
        ),
        ("/gamehall?category=slots", 200, "en", "<title>Casino games: slots, live and table games | Croupier</title>"),
        ("/some/unknown/page", 404, "en", "<title>Page not found | Croupier</title>"),
        ("/index.html", 200, "en", "<title>Croupier — Online casino and sportsbook</title>"),
        ("/fr/profile/settings?from=x", 200, "fr", "<title>Croupier — Casino en ligne et paris sportifs</title>"),
        ("/promotions/summer.2026/", 200, "en", "<title>Summer.2026 — promotion | Croupier</title>"),
    ] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{path}");
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
    assert_eq!(response.headers()["content-encoding"], "gzip", "a client that takes gzip only gets gzip");
    let response = app.client.get(app.url("/favicon.svg")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "public, max-age=3600");
    let response = app.client.get(app.url("/assets/missing-123.js")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND, "a missing asset is not the SPA shell");
    app.finish().await;
}

#[tokio::test]
async fn hashed_assets_come_precompressed_from_memory_with_validators_and_ranges() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let url = app.url("/assets/app-3f9a1c.js");
    // reqwest is built without decompression here: bodies arrive as sent.
    let plain = reqwest::Client::new();
    let get = |encoding: &'static str| plain.get(&url).header("accept-encoding", encoding);
    let original = get("identity").send().await.unwrap();
    assert_eq!(original.status(), StatusCode::OK);
    assert!(original.headers().get("content-encoding").is_none());
    assert_eq!(original.headers()["content-type"], "text/javascript; charset=utf-8");
    assert_eq!(original.headers()["vary"], "accept-encoding");
    assert_eq!(original.headers()["accept-ranges"], "bytes");
    let etag = original.headers()["etag"].to_str().unwrap().to_owned();
    let last_modified = original.headers()["last-modified"].to_str().unwrap().to_owned();
    let text = original.bytes().await.unwrap();
    assert!(text.starts_with(b"console.log("));

    // Brotli is preferred, gzip next; each is a representation of its own, smaller, and decodes back.
    let br = get("gzip, deflate, br").send().await.unwrap();
    assert_eq!(br.headers()["content-encoding"], "br");
    let br_tag = br.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(br_tag, etag);
    let br_body = br.bytes().await.unwrap();
    let mut decoded = Vec::new();
    brotli::BrotliDecompress(&mut std::io::Cursor::new(&br_body[..]), &mut decoded).unwrap();
    assert_eq!(decoded, text);
    assert!(br_body.len() < text.len());
    let gz = get("gzip;q=1, br;q=0").send().await.unwrap();
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    let mut decoded = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz.bytes().await.unwrap()[..]), &mut decoded)
        .unwrap();
    assert_eq!(decoded, text);

    // Validators: 304 for the representation's own tag and for an unchanged date.
    let again = get("br").header("if-none-match", br_tag.as_str()).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers()["etag"], br_tag.as_str());
    let other = get("identity").header("if-none-match", br_tag.as_str()).send().await.unwrap();
    assert_eq!(other.status(), StatusCode::OK, "another representation's tag is another entity");
    let since = get("identity").header("if-modified-since", last_modified.as_str()).send().await.unwrap();
    assert_eq!(since.status(), StatusCode::NOT_MODIFIED);

    // Ranges on the chosen representation.
    let part = get("identity").header("range", "bytes=0-6").send().await.unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.headers()["content-range"], format!("bytes 0-6/{}", text.len()));
    assert_eq!(part.bytes().await.unwrap(), &text[..7]);
    let tail = get("identity").header("range", "bytes=-5").send().await.unwrap();
    assert_eq!(tail.bytes().await.unwrap(), &text[text.len() - 5..]);
    let beyond = get("identity").header("range", format!("bytes={}-", text.len())).send().await.unwrap();
    assert_eq!(beyond.status(), StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(beyond.headers()["content-range"], format!("bytes */{}", text.len()));
    let stale = get("identity").header("range", "bytes=0-6").header("if-range", "\"old\"").send().await.unwrap();
    assert_eq!(stale.status(), StatusCode::OK, "If-Range with another tag gets the whole file");
    let head = plain.head(&url).header("accept-encoding", "br").send().await.unwrap();
    assert_eq!((head.status(), head.headers()["content-encoding"].to_str().unwrap()), (StatusCode::OK, "br"));
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
        assert!(csp.contains("connect-src 'self';"), "{csp}");
        assert!(!csp.contains("googletagmanager") && !csp.contains("deviceinf"), "no third party while off: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["referrer-policy"], "strict-origin-when-cross-origin");
        assert!(headers.get("x-frame-options").is_none(), "X-Frame-Options would block Telegram's web clients");
        assert!(headers.get("strict-transport-security").is_none(), "no HSTS in dev");
    }
    app.finish().await;
}

/// The tag manager and the fraud agent: their origins, exactly, and only when the operator turns
/// them on (the client then loads their scripts: `metadata.getgeneralinfo` says so).
#[tokio::test]
async fn the_tag_manager_and_the_fraud_agent_widen_the_policy_only_when_configured() {
    let env = [("CROUPIER_GTM_ID", "GTM-TEST123"), ("CROUPIER_SEON_ENABLED", "true")];
    let app = TestApp::spawn_with(Backend::Sqlite, &env, |_| {}).await;
    for path in ["/", "/fr/gamehall", "/api/metadata.getgeneralinfo?v=2.34"] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        let csp = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
        let scripts = csp.split("; ").find(|d| d.starts_with("script-src ")).unwrap_or_default();
        assert!(
            scripts.starts_with(
                "script-src 'self' https://telegram.org https://www.googletagmanager.com https://cdn.deviceinf.com"
            ),
            "{path}: {csp}"
        );
        let connect = csp.split("; ").find(|d| d.starts_with("connect-src ")).unwrap_or_default();
        assert!(
            connect.contains("https://*.google-analytics.com") && connect.contains("https://*.deviceinf.com"),
            "{csp}"
        );
        assert!(!csp.contains("'unsafe-eval'") && !scripts.contains("https:;"), "{csp}");
    }
    let (_, info) = app.api_get("metadata.getgeneralinfo", &[]).await;
    assert_eq!(info["data"]["analytic"]["gtm_id"], "GTM-TEST123");
    assert_eq!(info["data"]["is_seon_enabled"], true);
    app.finish().await;
}

#[tokio::test]
async fn prod_adds_hsts() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_ENV", "prod")], |_| {}).await;
    let response = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(response.headers()["strict-transport-security"], "max-age=31536000; includeSubDomains");
    app.finish().await;
}
