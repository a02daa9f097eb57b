//! SEO rendered by the server: every head element on a game page, a content page and a French
//! page, redirects, 404s, robots.txt, the sitemap, mirrors and the client's build check.

use crate::content::{TOKEN, cms_send, cms_test};
use crate::db_test;
use crate::helpers::{Backend, INDEX_HTML, TestApp};
use reqwest::{Method, StatusCode, redirect};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

async fn page(app: &TestApp, path: &str) -> (StatusCode, String) {
    let response = app.client.get(app.url(path)).send().await.unwrap();
    let status = response.status();
    (status, response.text().await.unwrap())
}

/// Every `<script type="application/ld+json">` of a page.
fn json_ld(html: &str) -> Vec<Value> {
    html.split("<script type=\"application/ld+json\">")
        .skip(1)
        .map(|rest| serde_json::from_str(rest.split("</script>").next().unwrap()).unwrap())
        .collect()
}

fn ld_of<'a>(blocks: &'a [Value], kind: &str) -> &'a Value {
    blocks.iter().find(|b| b["@type"] == kind).unwrap_or_else(|| panic!("no {kind} in {blocks:?}"))
}

fn assert_has(html: &str, fragments: &[&str]) {
    for fragment in fragments {
        assert!(html.contains(fragment), "missing {fragment} in {html}");
    }
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder().redirect(redirect::Policy::none()).build().unwrap()
}

db_test!(async fn a_game_page_head_has_every_element(app) {
    let (status, html) = page(app, "/game/book-of-dead").await;
    assert_eq!(status, StatusCode::OK);
    let build = &hex::encode(Sha256::digest(INDEX_HTML.as_bytes()))[..16];
    assert_has(&html, &[
        "<html lang=\"en\">",
        "<title>Play Book Of Dead online | Croupier</title>",
        "<meta name=\"description\" content=\"Play Book Of Dead for real money or in demo mode at Croupier. 100% up to $500 on your first deposit.\">",
        "<meta name=\"robots\" content=\"index, follow\">",
        "<link rel=\"canonical\" href=\"http://localhost:8080/platform/game/book-of-dead\">",
        "<link rel=\"alternate\" hreflang=\"en\" href=\"http://localhost:8080/platform/game/book-of-dead\">",
        "<link rel=\"alternate\" hreflang=\"fr\" href=\"http://localhost:8080/fr/platform/game/book-of-dead\">",
        "<link rel=\"alternate\" hreflang=\"x-default\" href=\"http://localhost:8080/platform/game/book-of-dead\">",
        "<meta property=\"og:title\" content=\"Book Of Dead at Croupier\">",
        "<meta property=\"og:description\" content=\"Play Book Of Dead now: real money or demo mode.\">",
        "<meta property=\"og:type\" content=\"website\">",
        "<meta property=\"og:url\" content=\"http://localhost:8080/platform/game/book-of-dead\">",
        "<meta property=\"og:image\" content=\"http://localhost:8080/uploads/og-image.svg\">",
        "<meta property=\"og:site_name\" content=\"Croupier\">",
        "<meta property=\"og:locale\" content=\"en_US\">",
        "<meta name=\"twitter:card\" content=\"summary_large_image\">",
        "<meta name=\"application-name\" content=\"Croupier\">",
        "<meta property=\"og:locale:alternate\" content=\"fr_FR\">",
        "<link rel=\"icon\" href=\"/uploads/favicon.svg\" type=\"image/svg+xml\" sizes=\"any\">",
        "<link rel=\"apple-touch-icon\" href=\"/uploads/apple-touch-icon.svg\"",
        "<meta name=\"croupier-custom\" content=\"head\"></head>",
        "<body><noscript><p>Croupier needs JavaScript to run.</p></noscript><div id=\"root\"><main class=\"boot-main\"></main></div>",
        "<!-- croupier-custom: body end --></body>",
        "/assets/app-3f9a1c.js",
    ]);
    assert!(html.contains(&format!("<meta name=\"croupier-build\" content=\"{build}\">")), "{html}");
    assert!(!html.contains("analytics.example"), "a disabled custom code entry stays out");
    let blocks = json_ld(&html);
    let product = ld_of(&blocks, "Product");
    assert_eq!(product["@context"], "https://schema.org");
    assert_eq!(product["name"], "Book Of Dead");
    assert_eq!(product["sku"], "book-of-dead");
    assert_eq!(product["brand"], json!({"@type": "Brand", "name": "Croupier"}));
    assert!(blocks.iter().all(|b| b["@type"] != "Organization"), "the organization is the home page's");
    let (status, fr) = page(app, "/fr/GAME/book-of-dead/").await;
    assert_eq!(status, StatusCode::OK, "route segments match in any case, trailing slash or not");
    assert_has(&fr, &["<title>Jouer à Book Of Dead en ligne | Croupier</title>", "href=\"http://localhost:8080/fr/platform/game/book-of-dead\""]);
});

db_test!(async fn a_content_page_head_carries_its_article(app) {
    let (status, html) = page(app, "/about").await;
    assert_eq!(status, StatusCode::OK);
    assert_has(&html, &[
        "<title>About Croupier | Croupier</title>",
        "<meta name=\"description\" content=\"Who we are and how Croupier works: provably fair games, a transparent cashier and a loyalty club.\">",
        "<meta property=\"og:type\" content=\"article\">",
        "<meta property=\"og:image\" content=\"http://localhost:8080/uploads/page-cover.svg\">",
        "<link rel=\"canonical\" href=\"http://localhost:8080/about\">",
        "<link rel=\"alternate\" hreflang=\"fr\" href=\"http://localhost:8080/fr/about\">",
    ]);
    let blocks = json_ld(&html);
    let article = ld_of(&blocks, "Article");
    assert_eq!(article["headline"], "About Croupier");
    assert!(article["datePublished"].as_str().is_some_and(|d| d.ends_with('Z')));
    assert_eq!(article["image"], "http://localhost:8080/uploads/page-cover.svg");
    let (_, faq) = page(app, "/faq").await;
    let blocks = json_ld(&faq);
    let questions = ld_of(&blocks, "FAQPage")["mainEntity"].as_array().unwrap().clone();
    assert_eq!(questions.len(), 3);
    assert_eq!(questions[0]["name"], "Who can play at Croupier?");
    assert_eq!(questions[0]["acceptedAnswer"]["@type"], "Answer");
    ld_of(&blocks, "Article");
});

db_test!(async fn a_french_page_is_french_throughout(app) {
    let (status, html) = page(app, "/fr/gamehall").await;
    assert_eq!(status, StatusCode::OK);
    assert_has(&html, &[
        "<html lang=\"fr\">",
        "<title>Jeux de casino : machines à sous, direct et jeux de table | Croupier</title>",
        "100 % jusqu'à",
        "<meta property=\"og:locale\" content=\"fr_FR\">",
        "<meta property=\"og:locale:alternate\" content=\"en_US\">",
        "<link rel=\"canonical\" href=\"http://localhost:8080/fr/gamehall\">",
        "<link rel=\"alternate\" hreflang=\"en\" href=\"http://localhost:8080/gamehall\">",
        "<link rel=\"alternate\" hreflang=\"fr\" href=\"http://localhost:8080/fr/gamehall\">",
        "<noscript><p>Croupier a besoin de JavaScript pour fonctionner.</p></noscript>",
    ]);
    let (_, home) = page(app, "/fr").await;
    let blocks = json_ld(&home);
    assert_eq!(ld_of(&blocks, "Organization")["contactPoint"]["contactType"], "service client");
    assert_eq!(ld_of(&blocks, "FAQPage")["mainEntity"][0]["name"], "Comment obtenir le bonus de bienvenue ?");
    assert_has(&home, &["<link rel=\"canonical\" href=\"http://localhost:8080/fr\">"]);
});

db_test!(async fn the_home_page_has_organization_product_and_faq(app) {
    let (_, html) = page(app, "/").await;
    let blocks = json_ld(&html);
    let organization = ld_of(&blocks, "Organization");
    assert_eq!(organization["name"], "Croupier");
    assert_eq!(organization["url"], "http://localhost:8080");
    assert_eq!(organization["logo"], "http://localhost:8080/uploads/croupier-logo.svg");
    assert_eq!(organization["contactPoint"]["telephone"], "+1-800-555-0199");
    assert_eq!(ld_of(&blocks, "Product")["sku"], "croupier-casino");
    assert_eq!(ld_of(&blocks, "FAQPage")["mainEntity"].as_array().unwrap().len(), 3);
    assert_has(&html, &["<link rel=\"canonical\" href=\"http://localhost:8080\">"]);
});

db_test!(async fn content_redirects_answer_301_before_anything_else(app) {
    let client = no_redirects();
    for (from, to) in [
        ("/casino", "/gamehall"),
        ("/casino/", "/gamehall"),
        ("/fr/casino", "/fr/gamehall"),
        ("/promo/summer-2026?track_id=x", "/promotions/summer-2026?track_id=x"),
        ("/fr/promo/ete", "/fr/promotions/ete"),
        ("/news/2026/launch", "https://news.croupier.example/2026/launch"),
        ("/help", "/support"),
    ] {
        let response = client.get(app.url(from)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::MOVED_PERMANENTLY, "{from}");
        assert_eq!(response.headers()["location"], to, "{from}");
    }
});

cms_test!(async fn a_new_redirect_applies_at_once_even_over_a_route_or_a_file(app) {
    for (from, to) in [("/jackpots", "/promotions"), ("/old-terms.pdf", "/terms")] {
        let body = json!({"data": {"from_url": from, "to_url": to}});
        let (status, created) = cms_send(app, Method::POST, "/cms/api/redirects", Some(TOKEN), body).await;
        assert_eq!(status, StatusCode::OK, "{created}");
        let response = no_redirects().get(app.url(from)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::MOVED_PERMANENTLY, "{from}");
        assert_eq!(response.headers()["location"], to);
    }
});

db_test!(async fn unknown_paths_are_404_with_the_spa_and_known_ones_200(app) {
    for path in ["/nope", "/fr/nope", "/game", "/game/a/b", "/fr/bets/x", "/gamehall/1/2", "/about/more", "/Terms-and-more"] {
        let (status, html) = page(app, path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_has(&html, &["<div id=\"root\"><main class=\"boot-main\"></main></div>", "/assets/app-3f9a1c.js", "<meta name=\"robots\" content=\"noindex, follow\">"]);
        assert!(!html.contains("rel=\"canonical\""), "{path}: no canonical for a missing page");
    }
    let (_, html) = page(app, "/fr/nope").await;
    assert_has(&html, &["<title>Page introuvable | Croupier</title>", "<html lang=\"fr\">"]);
    for path in [
        "/bets/live/123",
        "/GameHall",
        "/gamehall/7",
        "/about",
        "/fr/about",
        "/fr/responsible-gaming",
        "/tournaments/9/gamehall",
        "/profile/cashback",
        "/cashier/paysuccess/abc",
        "/forms/sign_up",
        "/_icons",
        "/fr/platform/game/book-of-dead",
    ] {
        let (status, _) = page(app, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
    }
});

db_test!(async fn disallowed_paths_are_noindex_but_followed(app) {
    for path in ["/cashier/deposit", "/fr/profile/settings", "/forms/sign_in", "/confirmation/success"] {
        let (status, html) = page(app, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_has(&html, &["<meta name=\"robots\" content=\"noindex, follow\">"]);
    }
    let (_, html) = page(app, "/promotions").await;
    assert_has(&html, &["<meta name=\"robots\" content=\"index, follow\">"]);
});

db_test!(async fn robots_txt_and_the_sitemap_come_from_content(app) {
    let response = app.client.get(app.url("/robots.txt")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    let robots = response.text().await.unwrap();
    assert_has(&robots, &["User-agent: *\n", "Disallow: /cashier\n", "Disallow: /fr/profile\n", "Sitemap: http://localhost:8080/sitemap.xml\n"]);

    let response = app.client.get(app.url("/sitemap.xml")).send().await.unwrap();
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("application/xml"));
    let sitemap = response.text().await.unwrap();
    assert!(sitemap.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    assert_has(&sitemap, &[
        "<loc>http://localhost:8080</loc>",
        "<loc>http://localhost:8080/fr</loc>",
        "<loc>http://localhost:8080/gamehall</loc>",
        "<loc>http://localhost:8080/fr/gamehall</loc>",
        "<loc>http://localhost:8080/loyalty/shop</loc>",
        "<loc>http://localhost:8080/about</loc><lastmod>",
        "<loc>http://localhost:8080/fr/responsible-gaming</loc>",
        "<xhtml:link rel=\"alternate\" hreflang=\"fr\" href=\"http://localhost:8080/fr/terms\"/>",
    ]);
    for absent in ["/cashier", "/profile", "/forms", "{", "/_icons"] {
        assert!(!sitemap.contains(&format!("http://localhost:8080{absent}")), "{absent} is not in the sitemap");
    }
});

cms_test!(async fn a_new_content_page_is_served_and_listed_at_once(app) {
    let (status, _) = page(app, "/vip").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let body = json!({"data": {"slug": "vip", "title": "VIP club", "seo": {"metaDescription": "Invitation only, {bonus} included."}}});
    let (status, created) = cms_send(app, Method::POST, "/cms/api/pages", Some(TOKEN), body).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let (status, html) = page(app, "/fr/vip").await;
    assert_eq!(status, StatusCode::OK, "French falls back to the English page");
    assert_has(&html, &["<title>VIP club | Croupier</title>", "content=\"Invitation only, 100 % jusqu'à"]);
    let sitemap = app.client.get(app.url("/sitemap.xml")).send().await.unwrap().text().await.unwrap();
    assert_has(&sitemap, &["<loc>http://localhost:8080/vip</loc>", "<loc>http://localhost:8080/fr/vip</loc>"]);
    let replacement = json!({"data": {"replacements": [{"from": "{bonus}", "to": "200 % jusqu'à 1 000 $"}]}});
    let (status, _) = cms_send(app, Method::PUT, "/cms/api/settings-seo?locale=fr", Some(TOKEN), replacement).await;
    assert_eq!(status, StatusCode::OK);
    let (_, html) = page(app, "/fr/vip").await;
    assert_has(&html, &["content=\"Invitation only, 200 % jusqu'à 1 000 $ included.\""]);
});

#[tokio::test]
async fn the_site_name_reaches_every_text() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_SITE_NAME", "Lucky Ace")], |_| {}).await;
    let (_, html) = page(&app, "/support").await;
    assert_has(
        &html,
        &["<title>Support | Lucky Ace</title>", "<meta property=\"og:site_name\" content=\"Lucky Ace\">"],
    );
    app.finish().await;
}

db_test!(async fn a_mirror_host_gets_its_own_home_seo(app) {
    let response = app.client.get(app.url("/")).header("host", "mirror.croupier.example").send().await.unwrap();
    let html = response.text().await.unwrap();
    assert_has(&html, &[
        "<title>Croupier mirror — Online casino and sportsbook</title>",
        "<meta name=\"robots\" content=\"noindex, follow\">",
        "<link rel=\"canonical\" href=\"http://localhost:8080\">",
    ]);
    let response = app.client.get(app.url("/gamehall")).header("host", "mirror.croupier.example").send().await.unwrap();
    let html = response.text().await.unwrap();
    assert_has(&html, &["<title>Casino games: slots, live and table games | Croupier</title>", "content=\"noindex, follow\""]);
});

db_test!(async fn the_build_check_knows_only_the_served_build(app) {
    let build = app.state.web().build_id().to_owned();
    assert_eq!(build, &hex::encode(Sha256::digest(INDEX_HTML.as_bytes()))[..16]);
    let latest: Value = app.client.get(app.url("/builds/latest.json")).send().await.unwrap().json().await.unwrap();
    assert_eq!(latest["id"], build);
    assert!(latest["timestamp"].as_i64().is_some_and(|t| t > 0));
    let response = app.client.get(app.url(&format!("/builds/meta/{build}.json"))).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "no-cache");
    let meta: Value = response.json().await.unwrap();
    assert_eq!(meta["id"], build);
    assert!(meta["matcher"].is_object() && meta["prerendered"].is_array());
    let response = app.client.get(app.url("/builds/meta/0123456789abcdef.json")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND, "an old build is gone: the client reloads");
});

db_test!(async fn the_demo_artwork_is_served_under_uploads(app) {
    let response = app.client.get(app.url("/uploads/croupier-logo.svg")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    assert!(response.text().await.unwrap().starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    let response = app.client.get(app.url("/uploads/missing.svg")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
});

cms_test!(async fn custom_code_scripts_run_under_a_fresh_nonce_and_nothing_else_does(app) {
    let custom = json!({"data": {"customCode": [
        {"isEnabled": true, "position": "bodyEnd", "code": "<script>window.croupierTag = 1</script>"},
        {"isEnabled": true, "position": "head", "code": "<script src=\"https://analytics.example/tag.js\" async></script>"}
    ]}});
    let (status, body) = cms_send(app, Method::PUT, "/cms/api/common", Some(TOKEN), custom).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mut nonces = Vec::new();
    for _ in 0..2 {
        let response = app.client.get(app.url("/about")).send().await.unwrap();
        let csp = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
        let nonce = csp.split("'nonce-").nth(1).and_then(|r| r.split('\'').next()).expect("a nonce in the CSP").to_owned();
        assert!(csp.contains(&format!("script-src 'self' https://telegram.org 'nonce-{nonce}';")), "{csp}");
        assert!(nonce.len() >= 32, "{nonce}");
        let html = response.text().await.unwrap();
        assert_has(&html, &[
            &format!("<script nonce=\"{nonce}\">window.croupierTag = 1</script></body>"),
            &format!("<script nonce=\"{nonce}\" src=\"https://analytics.example/tag.js\" async></script>"),
        ]);
        assert_eq!(html.matches(&format!("nonce=\"{nonce}\"")).count(), 2, "only custom code carries the nonce");
        assert!(!html.contains("croupier-nonce-"), "the cached shell's placeholder is never sent");
        nonces.push(nonce);
    }
    assert_ne!(nonces[0], nonces[1], "every answer has its own nonce");
    let api = app.client.get(app.url("/api/metadata.getgeneralinfo?locale=en&v=2.34")).send().await.unwrap();
    assert!(!api.headers()["content-security-policy"].to_str().unwrap().contains("nonce-"), "API answers keep the plain policy");
});

db_test!(async fn the_home_page_preloads_its_first_banner_image(app) {
    // The demo's first home-top banner (issue 23: the LCP image is discoverable in the HTML).
    for path in ["/", "/fr"] {
        let (status, html) = page(app, path).await;
        assert_eq!(status, StatusCode::OK);
        assert_has(&html, &[
            "<link rel=\"preload\" as=\"image\" href=\"/uploads/banner-welcome-mobile.svg\" media=\"(max-width: 767px)\" fetchpriority=\"high\">",
            "<link rel=\"preload\" as=\"image\" href=\"/uploads/banner-welcome.svg\" media=\"(min-width: 768px)\" fetchpriority=\"high\">",
        ]);
        let head = html.split("</head>").next().unwrap();
        assert!(head.find("rel=\"preload\"").unwrap() < head.find("<title>").unwrap(), "preloads open the head: {head}");
        // The app shell shows it before the client runs (the LCP needs no JavaScript).
        assert_has(&html, &["<main class=\"boot-main\"><div class=\"boot-lead boot-banner\"><picture><source media=\"(min-width: 768px)\" srcset=\"/uploads/banner-welcome.svg\"><img src=\"/uploads/banner-welcome-mobile.svg\" alt=\"\" fetchpriority=\"high\"></picture></div></main>"]);
    }
    let (_, html) = page(app, "/gamehall").await;
    assert!(!html.contains("banner-welcome"), "only the home page preloads a banner: {html}");
});

fn image_preload(href: &str) -> String {
    format!("<link rel=\"preload\" as=\"image\" href=\"{href}\" fetchpriority=\"high\">")
}

db_test!(async fn games_pages_preload_their_lead_tile_and_follow_the_catalogue(app) {
    // A game's page: its cover, in both languages.
    for path in ["/game/dice", "/fr/game/dice", "/game/dice/"] {
        let (status, html) = page(app, path).await;
        assert_eq!(status, StatusCode::OK);
        assert_has(&html, &[&image_preload("/games/house/dice/tile.svg")]);
        assert_has(&html, &["<main class=\"boot-main\"><div class=\"boot-lead boot-tile\"><picture><img src=\"/games/house/dice/tile.svg\" alt=\"\" fetchpriority=\"high\"></picture></div></main>"]);
    }
    // The unfiltered lobby: the first tile `games.get` answers with the client's default options.
    let (_, games) = app.api_get("games.get", &[("options", "{\"limit\":1}")]).await;
    let first = games["data"]["items"][0]["image_url"].as_str().unwrap().to_owned();
    let (_, html) = page(app, "/gamehall").await;
    assert_has(&html, &[&image_preload(&first)]);
    assert_eq!(html.matches("rel=\"preload\" as=\"image\"").count(), 1, "{html}");
    // A filtered lobby (the cached unfiltered page must not answer it) and an unknown game: none.
    for path in ["/gamehall?category=slots", "/game/no-such-game"] {
        let (_, html) = page(app, path).await;
        assert!(!html.contains("rel=\"preload\" as=\"image\""), "{path}: {html}");
        assert!(html.contains("<main class=\"boot-main\"></main>"), "{path}: no lead image in the shell: {html}");
    }
    // A new tile reaches the kept page once the catalogue's new version is seen.
    sqlx::query("UPDATE games SET image_url = '/uploads/dice-new.svg' WHERE sysname = 'dice'")
        .execute(app.state.db().pool())
        .await
        .unwrap();
    let mut seen = false;
    for _ in 0..50 {
        let (_, html) = page(app, "/game/dice").await;
        if html.contains(&image_preload("/uploads/dice-new.svg")) {
            seen = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(seen, "the game page kept its old tile after the catalogue changed");
});
