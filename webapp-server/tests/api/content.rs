//! The content service (`/cms/api/…`, Strapi v4's REST dialect): queries over HTTP, every
//! content type in both locales, writes and who may make them, editors' sign-in, the demo content
//! loaded once, export and import through the real binary, and `metadata.get`.

use crate::db_test;
use crate::helpers::{Backend, TestApp, TestDb, expect_error, read_json};
use croupier_server::App;
use croupier_server::coord::Coord;
use croupier_server::db::Db;
use croupier_server::features::content::store;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The API token the tests configure (`CROUPIER_CMS_TOKENS`).
pub const TOKEN: &str = "cms-test-token-0123456789";

/// Like `db_test!`, with an API token configured for content writes.
macro_rules! cms_test {
    ($(#[$meta:meta])* async fn $name:ident($app:ident) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn run($app: &$crate::helpers::TestApp) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let app = $crate::content::spawn($crate::helpers::Backend::Sqlite).await;
                run(&app).await;
                app.finish().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if !$crate::helpers::postgres_configured() {
                    eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
                    return;
                }
                let app = $crate::content::spawn($crate::helpers::Backend::Postgres).await;
                run(&app).await;
                app.finish().await;
            }
        }
    };
}
pub(crate) use cms_test;

pub async fn spawn(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, &[("CROUPIER_CMS_TOKENS", TOKEN)], |_| {}).await
}

/// `GET` of a content-API path (brackets as written: the server parses them raw or encoded).
pub async fn cms_get(app: &TestApp, path: &str) -> (StatusCode, Value) {
    read_json(app.client.get(app.url(path)).send().await.unwrap()).await
}

/// A write with an optional bearer token.
pub async fn cms_send(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Value) {
    let mut request = app.client.request(method, app.url(path)).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    read_json(request.send().await.unwrap()).await
}

/// Asserts Strapi's error envelope and answers the error object.
pub fn strapi_error(status: StatusCode, body: &Value, want_status: u16, want_name: &str) -> Value {
    assert_eq!(status.as_u16(), want_status, "{body}");
    assert_eq!(body["data"], Value::Null, "{body}");
    assert_eq!(body["error"]["status"], want_status, "{body}");
    assert_eq!(body["error"]["name"], want_name, "{body}");
    assert!(body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
    assert!(body["error"]["details"].is_object(), "{body}");
    body["error"].clone()
}

fn ids(body: &Value) -> Vec<i64> {
    body["data"].as_array().unwrap().iter().map(|e| e["id"].as_i64().unwrap()).collect()
}

fn slugs(body: &Value) -> Vec<String> {
    body["data"].as_array().unwrap().iter().map(|e| e["attributes"]["slug"].as_str().unwrap().to_owned()).collect()
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

db_test!(async fn a_collection_answers_entries_and_pagination_meta_like_strapi(app) {
    let (status, body) = cms_get(app, "/cms/api/pages").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(ids(&body), vec![1, 2, 3, 4, 5]);
    assert_eq!(body["meta"], json!({"pagination": {"page": 1, "pageSize": 25, "pageCount": 1, "total": 5}}));
    let about = &body["data"][0];
    assert_eq!(about["attributes"]["slug"], "about");
    assert_eq!(about["attributes"]["locale"], "en");
    for key in ["createdAt", "updatedAt", "publishedAt"] {
        assert!(about["attributes"][key].as_str().is_some_and(|t| t.ends_with('Z')), "{key}: {about}");
    }
    assert!(about["attributes"].get("cover").is_none(), "media is omitted unless populated");

    let (_, page2) = cms_get(app, "/cms/api/pages?pagination[page]=2&pagination[pageSize]=2").await;
    assert_eq!(ids(&page2), vec![3, 4]);
    assert_eq!(page2["meta"]["pagination"], json!({"page": 2, "pageSize": 2, "pageCount": 3, "total": 5}));
    let (_, offset) = cms_get(app, "/cms/api/pages?pagination[start]=4&pagination[limit]=10").await;
    assert_eq!(ids(&offset), vec![5]);
    assert_eq!(offset["meta"]["pagination"], json!({"start": 4, "limit": 10, "total": 5}));

    let (status, one) = cms_get(app, "/cms/api/pages/2").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(one, json!({"data": one["data"].clone(), "meta": {}}));
    assert_eq!(one["data"]["attributes"]["slug"], "terms");
    let (status, missing) = cms_get(app, "/cms/api/pages/99").await;
    strapi_error(status, &missing, 404, "NotFoundError");
    let (status, unknown) = cms_get(app, "/cms/api/no-such-type").await;
    strapi_error(status, &unknown, 404, "NotFoundError");
});

db_test!(async fn filters_sort_and_fields_apply_over_http(app) {
    let (_, body) = cms_get(app, "/cms/api/pages?filters[slug][$in][0]=about&filters[slug][$in][1]=faq").await;
    assert_eq!(slugs(&body), vec!["about", "faq"]);
    let (_, body) = cms_get(app, "/cms/api/pages?filters[title][$containsi]=POLICY").await;
    assert_eq!(slugs(&body), vec!["privacy"]);
    let query = "/cms/api/pages?filters[$or][0][slug][$eq]=terms&filters[$or][1][title][$startsWith]=Resp&sort=slug:desc";
    let (_, body) = cms_get(app, query).await;
    assert_eq!(slugs(&body), vec!["terms", "responsible-gaming"]);
    let (_, body) = cms_get(app, "/cms/api/pages?filters[slug]=about&fields[0]=title").await;
    assert_eq!(body["data"][0]["attributes"], json!({"title": "About Croupier"}), "only the asked fields");
    let (_, body) = cms_get(app, "/cms/api/page-seos?filters[url][$eq]=/gamehall&locale=fr").await;
    assert_eq!(body["data"].as_array().unwrap().len(), 1, "the client's page SEO lookup by url: {body}");
    assert!(body["data"][0]["attributes"]["title"].as_str().unwrap().starts_with("Jeux de casino"));
    let (_, body) = cms_get(app, "/cms/api/domain-seos?filters[host][$eq]=mirror.croupier.example").await;
    assert_eq!(body["data"][0]["attributes"]["robots"], "noindex, follow");
    let (_, body) = cms_get(app, "/cms/api/banners?locale=fr&filters[position][$eq]=home-top&sort[0]=order:desc").await;
    let titles: Vec<&str> = body["data"].as_array().unwrap().iter().map(|b| b["attributes"]["title"].as_str().unwrap()).collect();
    assert_eq!(titles, vec!["Tournoi de la semaine", "Casino en direct", "Bonus de bienvenue"]);
});

db_test!(async fn populate_wraps_media_relations_and_components_as_strapi_does(app) {
    let (_, bare) = cms_get(app, "/cms/api/prazer-config").await;
    let attributes = &bare["data"]["attributes"];
    assert_eq!(attributes["siteName"], "Croupier");
    for hidden in ["logo", "switches", "popupFallbacks"] {
        assert!(attributes.get(hidden).is_none(), "{hidden} needs populate: {attributes}");
    }
    let (_, star) = cms_get(app, "/cms/api/prazer-config?populate=*").await;
    let attributes = &star["data"]["attributes"];
    assert_eq!(attributes["logo"]["data"]["attributes"]["url"], "/uploads/croupier-logo.svg");
    assert_eq!(attributes["logo"]["data"]["attributes"]["mime"], "image/svg+xml");
    assert_eq!(attributes["switches"]["twoFactor"], true);
    assert_eq!(attributes["popupFallbacks"]["data"][0]["id"], 2);
    assert_eq!(attributes["popupFallbacks"]["data"][0]["attributes"]["sysname"], "fallback");
    assert!(attributes["loader"].get("image").is_none(), "`*` goes one level deep");

    let (_, deep) = cms_get(app, "/cms/api/common?populate=deep").await;
    let footer = &deep["data"]["attributes"]["footer"];
    assert_eq!(footer["columns"][0]["links"][0]["to"], "/gamehall");
    assert_eq!(footer["licenses"][0]["image"]["data"]["attributes"]["url"], "/uploads/badge-18.svg");
    let (_, nested) =
        cms_get(app, "/cms/api/common?populate[footer][populate][columns][populate]=links&populate[menu]=*").await;
    let attributes = &nested["data"]["attributes"];
    assert_eq!(attributes["footer"]["columns"][3]["links"][0]["to"], "/about");
    assert!(attributes["footer"].get("licenses").is_none(), "only what was named: {attributes}");
    assert_eq!(attributes["menu"][0]["label"], "casino");
    assert!(attributes.get("customCode").is_none());

    let (_, forms) = cms_get(app, "/cms/api/forms-config?populate[signUp][populate]=fields").await;
    let fields: Vec<&str> = forms["data"]["attributes"]["signUp"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(fields, vec!["email", "phone", "password", "currency", "fakename", "promo_code", "terms"]);
    assert!(forms["data"]["attributes"].get("signIn").is_none());
});

db_test!(async fn a_malformed_query_is_a_400_naming_the_parameter(app) {
    for (query, param) in [
        ("filters[title][$foo]=x", "filters[title][$foo]"),
        ("pagination[page]=abc", "pagination[page]"),
        ("pagination[page]=1&pagination[limit]=5", "pagination[limit]"),
        ("populate=*&populate[0]=logo", "populate[0]"),
        ("filters[%ZZ]=1", "filters[%ZZ]"),
        ("sort=title:sideways", "sort"),
        ("filters[title]]=x", "filters[title]]"),
        ("fields[0][x]=1", "fields[0]"),
        ("publicationState=draft", "publicationState"),
    ] {
        let (status, body) = cms_get(app, &format!("/cms/api/pages?{query}")).await;
        let error = strapi_error(status, &body, 400, "ValidationError");
        let named = error["details"]["errors"][0]["path"][0].as_str().unwrap_or("");
        assert_eq!(named, param, "{query}: {body}");
        assert!(error["message"].as_str().unwrap().contains(param), "{query}: {body}");
    }
    let (status, body) = cms_get(app, "/cms/api/pages?locale=de").await;
    let error = strapi_error(status, &body, 400, "ValidationError");
    assert!(error["message"].as_str().unwrap().contains("de"));
});

db_test!(async fn every_content_type_answers_in_both_locales(app) {
    // (API id, a populated attribute path whose text differs between the locales)
    let localized: [(&str, &[&str]); 17] = [
        ("popups", &["0", "title"]),
        ("settings-seo", &["defaultTitle"]),
        ("prazer-config", &["loader", "text"]),
        ("cashier-config", &["registrationHint", "text"]),
        ("meta-data-tool", &["meta", "2", "content"]),
        ("games-config", &["demoPopup", "title"]),
        ("search-config", &["placeholder"]),
        ("loyalty", &["title"]),
        ("forms-config", &["signIn", "title"]),
        ("auth-config", &["terms", "label"]),
        ("common", &["footer", "text"]),
        ("menu-banner", &["title"]),
        ("auth-banner", &["label"]),
        ("domain-seos", &["0", "title"]),
        ("banners", &["0", "title"]),
        ("page-seos", &["1", "title"]),
        ("pages", &["0", "title"]),
    ];
    for (api_id, path) in localized {
        let mut texts = Vec::new();
        for locale in ["en", "fr"] {
            let (status, body) = cms_get(app, &format!("/cms/api/{api_id}?populate=deep&locale={locale}")).await;
            assert_eq!(status, StatusCode::OK, "{api_id} {locale}: {body}");
            let entries: Vec<Value> = match &body["data"] {
                Value::Array(items) => items.clone(),
                single => vec![single.clone()],
            };
            assert!(!entries.is_empty(), "{api_id} {locale} has content");
            for entry in &entries {
                assert_eq!(entry["attributes"]["locale"], locale, "{api_id}: {entry}");
                assert!(entry["id"].as_i64().is_some_and(|id| id > 0));
            }
            let mut value = if body["data"].is_array() { body["data"].clone() } else { body["data"]["attributes"].clone() };
            for (i, segment) in path.iter().enumerate() {
                value = match segment.parse::<usize>() {
                    Ok(index) if i == 0 && body["data"].is_array() => value[index]["attributes"].clone(),
                    Ok(index) => value[index].clone(),
                    Err(_) => value[*segment].clone(),
                };
            }
            let text = value.as_str().unwrap_or_else(|| panic!("{api_id} {locale} {path:?}: {body}")).to_owned();
            texts.push(text);
        }
        assert_ne!(texts[0], texts[1], "{api_id} is translated");
    }
    for api_id in ["web-setting", "redirects"] {
        let (status, body) = cms_get(app, &format!("/cms/api/{api_id}?populate=deep&locale=fr")).await;
        assert_eq!(status, StatusCode::OK, "{api_id}: {body}");
        let first = if body["data"].is_array() { body["data"][0].clone() } else { body["data"].clone() };
        assert!(first["attributes"].get("locale").is_none(), "{api_id} is not localized: {first}");
    }
    let (_, web) = cms_get(app, "/cms/api/web-setting?populate[favicons][populate]=file").await;
    assert_eq!(web["data"]["attributes"]["favicons"][0]["file"]["data"]["attributes"]["url"], "/uploads/favicon.svg");
});

cms_test!(async fn a_missing_locale_variant_falls_back_to_english(app) {
    let (status, created) = cms_send(
        app,
        Method::POST,
        "/cms/api/pages",
        Some(TOKEN),
        json!({"data": {"slug": "bonus-rules", "title": "Bonus rules", "content": "<p>Rules</p>"}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let id = created["data"]["id"].as_i64().unwrap();
    assert_eq!(created["data"]["attributes"]["locale"], "en");
    let (_, fr) = cms_get(app, "/cms/api/pages?locale=fr&filters[slug]=bonus-rules").await;
    assert_eq!(fr["data"][0]["id"], id);
    assert_eq!(fr["data"][0]["attributes"]["locale"], "en", "served from the default locale");
    let (_, about_fr) = cms_get(app, "/cms/api/pages/1?locale=fr").await;
    assert_eq!(about_fr["data"]["attributes"]["title"], "À propos de Croupier");

    let body = json!({"locale": "fr", "slug": "bonus-rules", "title": "Règles des bonus"});
    let (status, localized) =
        cms_send(app, Method::POST, &format!("/cms/api/pages/{id}/localizations"), Some(TOKEN), body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{localized}");
    assert_eq!(localized["data"]["attributes"]["locale"], "fr");
    let (status, again) = cms_send(app, Method::POST, &format!("/cms/api/pages/{id}/localizations"), Some(TOKEN), body).await;
    strapi_error(status, &again, 400, "ApplicationError");
    let (_, fr) = cms_get(app, &format!("/cms/api/pages/{id}?locale=fr")).await;
    assert_eq!(fr["data"]["attributes"]["title"], "Règles des bonus");
    let (_, en) = cms_get(app, &format!("/cms/api/pages/{id}")).await;
    assert_eq!(en["data"]["attributes"]["title"], "Bonus rules");
    let (_, all) = cms_get(app, "/cms/api/pages?locale=all&filters[slug]=bonus-rules").await;
    let locales: Vec<&str> = all["data"].as_array().unwrap().iter().map(|e| e["attributes"]["locale"].as_str().unwrap()).collect();
    assert_eq!(locales, vec!["en", "fr"]);

    let (status, _) = cms_send(app, Method::DELETE, "/cms/api/common?locale=fr", Some(TOKEN), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let (_, common) = cms_get(app, "/cms/api/common?locale=fr&populate=footer").await;
    assert_eq!(common["data"]["attributes"]["locale"], "en", "a single type falls back too");
    assert!(common["data"]["attributes"]["footer"]["text"].as_str().unwrap().starts_with("Croupier is"));
});

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

cms_test!(async fn writes_are_refused_without_a_token_and_seen_at_once_with_one(app) {
    let page = json!({"data": {"slug": "vip", "title": "VIP club", "content": "<p>By invitation.</p>"}});
    let (status, body) = cms_send(app, Method::POST, "/cms/api/pages", None, page.clone()).await;
    strapi_error(status, &body, 403, "ForbiddenError");
    let (status, body) = cms_send(app, Method::POST, "/cms/api/pages", Some("not-a-token-at-all"), page.clone()).await;
    strapi_error(status, &body, 401, "UnauthorizedError");
    let (status, body) = cms_send(app, Method::PUT, "/cms/api/common", None, json!({"data": {"localeDetectStrategy": "none"}})).await;
    strapi_error(status, &body, 403, "ForbiddenError");
    let (status, body) = cms_send(app, Method::DELETE, "/cms/api/pages/1", None, json!({})).await;
    strapi_error(status, &body, 403, "ForbiddenError");
    let (_, unchanged) = cms_get(app, "/cms/api/pages").await;
    assert_eq!(ids(&unchanged), vec![1, 2, 3, 4, 5], "nothing changed");

    // Warm this replica's cache, then write: the next read must see the write.
    let _ = cms_get(app, "/cms/api/pages?filters[slug]=vip").await;
    let (status, created) = cms_send(app, Method::POST, "/cms/api/pages", Some(TOKEN), page).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert_eq!(created["data"]["id"], 6);
    assert_eq!(created["meta"], json!({}));
    let (_, found) = cms_get(app, "/cms/api/pages?filters[slug]=vip").await;
    assert_eq!(ids(&found), vec![6]);

    let (status, updated) =
        cms_send(app, Method::PUT, "/cms/api/pages/6", Some(TOKEN), json!({"data": {"title": "VIP lounge"}})).await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(updated["data"]["attributes"]["title"], "VIP lounge");
    assert_eq!(updated["data"]["attributes"]["content"], "<p>By invitation.</p>", "PUT changes only what it names");

    let (status, single) = cms_send(
        app,
        Method::PUT,
        "/cms/api/common?populate=menu",
        Some(TOKEN),
        json!({"data": {"localeDetectStrategy": "browser", "menu": [{"label": "casino", "title": "Games", "to": "/gamehall", "icon": "cards"}]}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{single}");
    assert_eq!(single["data"]["attributes"]["menu"][0]["title"], "Games");
    let (_, common) = cms_get(app, "/cms/api/common?populate=menu").await;
    assert_eq!(common["data"]["attributes"]["localeDetectStrategy"], "browser");
    assert_eq!(common["data"]["attributes"]["menu"].as_array().unwrap().len(), 1);

    let (status, deleted) = cms_send(app, Method::DELETE, "/cms/api/pages/6", Some(TOKEN), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(deleted["data"]["attributes"]["slug"], "vip");
    let (status, gone) = cms_get(app, "/cms/api/pages/6").await;
    strapi_error(status, &gone, 404, "NotFoundError");
    let (status, body) = cms_send(app, Method::PATCH, "/cms/api/pages/1", Some(TOKEN), json!({})).await;
    strapi_error(status, &body, 405, "MethodNotAllowedError");
});

cms_test!(async fn a_write_is_seen_by_another_replica_on_its_next_read(app) {
    let other_db = Db::connect(app.database_url(), 2).await.unwrap();
    let config = app.state.config().clone();
    let replica = App::from_parts(config, other_db.clone(), Coord::in_process()).await.unwrap();
    let before = replica.content().snapshot(&other_db).await.unwrap();
    assert_eq!(before.collection("page", "en").len(), 5);
    let page = json!({"data": {"slug": "news", "title": "News"}});
    let (status, _) = cms_send(app, Method::POST, "/cms/api/pages", Some(TOKEN), page).await;
    assert_eq!(status, StatusCode::OK);
    let after = replica.content().snapshot(&other_db).await.unwrap();
    assert!(after.version > before.version);
    assert_eq!(after.collection("page", "en").len(), 6, "no stale copy on the other replica");
    other_db.close().await;
});

cms_test!(async fn invalid_writes_name_each_refused_attribute(app) {
    let (status, body) =
        cms_send(app, Method::POST, "/cms/api/pages", Some(TOKEN), json!({"data": {"title": "No slug", "cover": 5}})).await;
    let error = strapi_error(status, &body, 400, "ValidationError");
    let paths: Vec<&str> = error["details"]["errors"].as_array().unwrap().iter().map(|e| e["path"][0].as_str().unwrap()).collect();
    assert_eq!(paths, vec!["cover", "slug"]);
    let (status, body) =
        cms_send(app, Method::POST, "/cms/api/pages", Some(TOKEN), json!({"data": {"slug": "about", "title": "Twice"}})).await;
    let error = strapi_error(status, &body, 400, "ValidationError");
    assert_eq!(error["details"]["errors"][0]["path"], json!(["slug"]), "slugs are unique per locale");
    let (status, body) =
        cms_send(app, Method::POST, "/cms/api/pages", Some(TOKEN), json!({"data": {"slug": "gamehall", "title": "Taken"}})).await;
    strapi_error(status, &body, 400, "ValidationError");
    let (status, body) = cms_send(app, Method::POST, "/cms/api/pages", Some(TOKEN), json!({"slug": "x"})).await;
    let error = strapi_error(status, &body, 400, "ValidationError");
    assert!(error["message"].as_str().unwrap().contains("data"));
    let (status, body) = cms_send(
        app,
        Method::PUT,
        "/cms/api/prazer-config",
        Some(TOKEN),
        json!({"data": {"popupFallbacks": [99]}}),
    )
    .await;
    strapi_error(status, &body, 400, "ValidationError");
    let (status, body) =
        cms_send(app, Method::POST, "/cms/api/pages?locale=de", Some(TOKEN), json!({"data": {"slug": "x", "title": "x"}})).await;
    strapi_error(status, &body, 400, "ValidationError");
});

cms_test!(async fn drafts_are_seen_only_in_preview_with_a_token(app) {
    let draft = json!({"data": {"slug": "coming-soon", "title": "Coming soon", "publishedAt": null}});
    let (status, created) = cms_send(app, Method::POST, "/cms/api/pages", Some(TOKEN), draft).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert_eq!(created["data"]["attributes"]["publishedAt"], Value::Null);
    let (_, live) = cms_get(app, "/cms/api/pages?filters[slug]=coming-soon").await;
    assert!(ids(&live).is_empty(), "drafts are not live");
    let (status, body) = cms_get(app, "/cms/api/pages?publicationState=preview").await;
    strapi_error(status, &body, 403, "ForbiddenError");
    let preview = app
        .client
        .get(app.url("/cms/api/pages?publicationState=preview&filters[slug]=coming-soon"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    let (_, body) = read_json(preview).await;
    assert_eq!(body["data"].as_array().unwrap().len(), 1);
    let id = body["data"][0]["id"].as_i64().unwrap();
    let publish = json!({"data": {"publishedAt": "2026-01-01T00:00:00.000Z"}});
    let (status, _) = cms_send(app, Method::PUT, &format!("/cms/api/pages/{id}"), Some(TOKEN), publish).await;
    assert_eq!(status, StatusCode::OK);
    let (_, live) = cms_get(app, "/cms/api/pages?filters[slug]=coming-soon").await;
    assert_eq!(ids(&live), vec![id]);
});

// ---------------------------------------------------------------------------------------------
// Content users (editors)
// ---------------------------------------------------------------------------------------------

async fn post(app: &TestApp, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
    cms_send(app, Method::POST, path, token, body).await
}

/// The confirmation link's code from the dev mailbox.
async fn mailed_code(app: &TestApp, to: &str) -> String {
    app.last_code(to).await
}

cms_test!(async fn an_editor_signs_up_confirms_signs_in_and_writes(app) {
    let email = "ed@croupier.test";
    let (status, body) = post(app, "/cms/api/auth/local/register", None, json!({"username": "Eddie", "email": email, "password": "s3cret-pass"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["confirmed"], false);
    assert!(body.get("jwt").is_none(), "no token before the address is confirmed");
    let (status, body) = post(app, "/cms/api/auth/local/register", None, json!({"username": "eddie", "email": "other@croupier.test", "password": "s3cret-pass"})).await;
    strapi_error(status, &body, 400, "ApplicationError");

    let login = json!({"identifier": email, "password": "s3cret-pass"});
    let (status, body) = post(app, "/cms/api/auth/local", None, login.clone()).await;
    let error = strapi_error(status, &body, 400, "ApplicationError");
    assert_eq!(error["message"], "Your account email is not confirmed");
    let code = mailed_code(app, email).await;
    let confirm = app
        .browser()
        .get(app.url(&format!("/cms/api/auth/email-confirmation?confirmation={code}")))
        .send()
        .await
        .unwrap();
    assert_eq!(confirm.url().path(), "/", "the browser lands on the site");
    let (status, body) = post(app, "/cms/api/auth/local", None, json!({"identifier": email, "password": "wrong-pass"})).await;
    strapi_error(status, &body, 400, "ValidationError");
    let (status, body) = post(app, "/cms/api/auth/local", None, login.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let jwt = body["jwt"].as_str().unwrap().to_owned();
    assert_eq!(jwt.split('.').count(), 3, "a JWT-shaped token");
    let user_id = body["user"]["id"].as_i64().unwrap();

    let me = app.client.get(app.url("/cms/api/users/me?populate=role")).bearer_auth(&jwt).send().await.unwrap();
    let (status, me) = read_json(me).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["email"], email);
    assert_eq!(me["role"]["type"], "authenticated");
    let (status, body) = cms_get(app, "/cms/api/users/me").await;
    strapi_error(status, &body, 401, "UnauthorizedError");

    let page = json!({"data": {"slug": "editors-pick", "title": "Editor's pick"}});
    let (status, body) = post(app, "/cms/api/pages", Some(&jwt), page.clone()).await;
    strapi_error(status, &body, 403, "ForbiddenError");
    let promote = json!({"role": "editor"});
    let (status, body) = cms_send(app, Method::PUT, &format!("/cms/api/users/{user_id}"), Some(&jwt), promote.clone()).await;
    strapi_error(status, &body, 403, "ForbiddenError");
    let (status, body) = cms_send(app, Method::PUT, &format!("/cms/api/users/{user_id}"), Some(TOKEN), promote).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["role"]["type"], "editor");
    let (status, body) = post(app, "/cms/api/pages", Some(&jwt), page).await;
    assert_eq!(status, StatusCode::OK, "an editor writes: {body}");

    let change = json!({"currentPassword": "s3cret-pass", "password": "n3w-pass!", "passwordConfirmation": "n3w-pass!"});
    let (status, body) = post(app, "/cms/api/auth/change-password", Some(&jwt), change).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let new_jwt = body["jwt"].as_str().unwrap().to_owned();
    let (status, body) = post(app, "/cms/api/pages", Some(&jwt), json!({"data": {"slug": "late", "title": "Late"}})).await;
    strapi_error(status, &body, 401, "UnauthorizedError");
    let (status, _) = post(app, "/cms/api/pages", Some(&new_jwt), json!({"data": {"slug": "late", "title": "Late"}})).await;
    assert_eq!(status, StatusCode::OK, "the new token works");

    let (status, body) = post(app, "/cms/api/auth/forgot-password", None, json!({"email": email})).await;
    assert_eq!((status, body), (StatusCode::OK, json!({"ok": true})));
    let (_, body) = post(app, "/cms/api/auth/forgot-password", None, json!({"email": "nobody@croupier.test"})).await;
    assert_eq!(body, json!({"ok": true}), "the answer tells nothing about the address");
    let code = mailed_code(app, email).await;
    let reset = json!({"code": code, "password": "reset-pass", "passwordConfirmation": "reset-pass"});
    let (status, body) = post(app, "/cms/api/auth/reset-password", None, reset.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["jwt"].is_string());
    let (status, body) = post(app, "/cms/api/auth/reset-password", None, reset).await;
    strapi_error(status, &body, 400, "ValidationError");
    let (status, _) = post(app, "/cms/api/pages", Some(&new_jwt), json!({"data": {"slug": "later", "title": "Later"}})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a reset ends older tokens");
    let (status, _) = post(app, "/cms/api/auth/local", None, json!({"identifier": "EDDIE", "password": "reset-pass"})).await;
    assert_eq!(status, StatusCode::OK, "the username signs in too, in any case");

    let (status, body) = post(app, "/cms/api/auth/send-email-confirmation", None, json!({"email": email})).await;
    assert_eq!((status, body), (StatusCode::OK, json!({"email": email, "sent": true})));
});

cms_test!(async fn sign_in_attempts_are_rate_limited(app) {
    let mut last = StatusCode::OK;
    let mut last_body = Value::Null;
    for _ in 0..11 {
        let (status, body) = post(app, "/cms/api/auth/local", None, json!({"identifier": "x@croupier.test", "password": "nope-nope"})).await;
        last = status;
        last_body = body;
    }
    strapi_error(last, &last_body, 429, "RateLimitError");
});

#[derive(Clone)]
struct UserInfo {
    issuer: String,
    email: String,
}

async fn start_userinfo_provider(email: &str) -> UserInfo {
    use axum::extract::State;
    use axum::http::HeaderMap;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let provider = UserInfo { issuer: format!("http://{}", listener.local_addr().unwrap()), email: email.to_owned() };
    let app = axum::Router::new()
        .route(
            "/.well-known/openid-configuration",
            axum::routing::get(|State(p): State<UserInfo>| async move {
                axum::Json(json!({"issuer": p.issuer, "userinfo_endpoint": format!("{}/userinfo", p.issuer)}))
            }),
        )
        .route(
            "/userinfo",
            axum::routing::get(|State(p): State<UserInfo>, headers: HeaderMap| async move {
                use axum::response::IntoResponse;
                if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer good-token") {
                    return StatusCode::UNAUTHORIZED.into_response();
                }
                axum::Json(json!({"sub": "42", "email": p.email, "email_verified": true})).into_response()
            }),
        )
        .with_state(provider.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    provider
}

#[tokio::test]
async fn a_provider_callback_signs_in_through_its_userinfo() {
    let provider = start_userinfo_provider("sso@croupier.test").await;
    let providers = format!("openid|{}|client|secret", provider.issuer);
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_OAUTH_PROVIDERS", &providers)], |_| {}).await;
    let (status, body) = cms_get(&app, "/cms/api/auth/openid/callback?access_token=good-token").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["email"], "sso@croupier.test");
    assert_eq!(body["user"]["provider"], "openid");
    assert_eq!(body["user"]["confirmed"], true);
    let first = body["user"]["id"].clone();
    let (_, again) = cms_get(&app, "/cms/api/auth/openid/callback?access_token=good-token").await;
    assert_eq!(again["user"]["id"], first, "the same account signs in again");
    let (status, body) = cms_get(&app, "/cms/api/auth/openid/callback?access_token=bad").await;
    strapi_error(status, &body, 400, "ApplicationError");
    let (status, body) = cms_get(&app, "/cms/api/auth/openid/callback").await;
    strapi_error(status, &body, 400, "ValidationError");
    let (status, body) = cms_get(&app, "/cms/api/auth/github/callback?access_token=good-token").await;
    let error = strapi_error(status, &body, 400, "ApplicationError");
    assert_eq!(error["message"], "This provider is disabled");
    app.finish().await;
}

// ---------------------------------------------------------------------------------------------
// Demo content, export and import
// ---------------------------------------------------------------------------------------------

async fn entry_count(db: &Db) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM content_entries").fetch_one(db.pool()).await.unwrap()
}

cms_test!(async fn the_demo_content_is_loaded_once_and_never_again(app) {
    let db = app.state.db();
    let loaded = entry_count(db).await;
    assert!(loaded > 40, "the demo brand is there: {loaded}");
    assert!(!store::seed_demo(db).await.unwrap(), "a second start loads nothing");
    let (status, _) = cms_send(app, Method::DELETE, "/cms/api/pages/5", Some(TOKEN), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let config = app.state.config().clone();
    let restarted = App::from_parts(config, db.clone(), Coord::in_process()).await.unwrap();
    assert_eq!(entry_count(restarted.db()).await, loaded - 2, "a deleted page stays deleted after a restart");
});

async fn two_replicas_start_on_one_empty_database(backend: Backend) {
    let test_db = TestDb::create(backend).await;
    let first = Db::connect(&test_db.url, 2).await.unwrap();
    first.migrate().await.unwrap();
    let second = Db::connect(&test_db.url, 2).await.unwrap();
    let (a, b) = tokio::join!(store::seed_demo(&first), store::seed_demo(&second));
    let loads = [a.unwrap(), b.unwrap()];
    assert_eq!(loads.iter().filter(|l| **l).count(), 1, "exactly one replica loads: {loads:?}");
    let count = entry_count(&first).await;
    assert!(count > 40, "the demo brand is there once: {count}");
    assert!(!store::seed_demo(&second).await.unwrap());
    assert_eq!(entry_count(&second).await, count);
    first.close().await;
    second.close().await;
    test_db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_starting_together_load_the_demo_once_on_sqlite() {
    two_replicas_start_on_one_empty_database(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_starting_together_load_the_demo_once_on_postgres() {
    if !crate::helpers::postgres_configured() {
        eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
        return;
    }
    two_replicas_start_on_one_empty_database(Backend::Postgres).await;
}

const BIN: &str = env!("CARGO_BIN_EXE_croupier-server");

fn content_command(database_url: &str, action: &str, dir: &std::path::Path) -> std::process::Output {
    std::process::Command::new(BIN)
        .env_clear()
        .env("DATABASE_URL", database_url)
        .env("CROUPIER_LOG", "warn")
        .args(["content", action, &dir.display().to_string()])
        .output()
        .unwrap()
}

fn read_tree(dir: &std::path::Path) -> HashMap<String, String> {
    let mut files = HashMap::new();
    for sub in std::fs::read_dir(dir).unwrap() {
        let sub = sub.unwrap();
        for file in std::fs::read_dir(sub.path()).unwrap() {
            let file = file.unwrap();
            let name = format!("{}/{}", sub.file_name().to_string_lossy(), file.file_name().to_string_lossy());
            files.insert(name, std::fs::read_to_string(file.path()).unwrap());
        }
    }
    files
}

cms_test!(async fn export_and_import_round_trip_through_the_binary(app) {
    let work = tempfile::tempdir().unwrap();
    let (first, second) = (work.path().join("first"), work.path().join("second"));
    let output = content_command(app.database_url(), "export", &first);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let exported = read_tree(&first);
    assert!(exported.contains_key("en/common.json") && exported.contains_key("fr/page.json"));
    assert!(exported.contains_key("global/redirect.json"));
    let refused = content_command(app.database_url(), "export", &first);
    assert!(!refused.status.success(), "an export never mixes with old files");

    let (status, _) = cms_send(app, Method::PUT, "/cms/api/pages/1", Some(TOKEN), json!({"data": {"title": "Changed"}})).await;
    assert_eq!(status, StatusCode::OK);
    let output = content_command(app.database_url(), "import", &first);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // Another process, no Redis to announce it: seen once the replica's version check is due.
    tokio::time::sleep(croupier_server::features::content::store::VERSION_TTL + std::time::Duration::from_millis(100)).await;
    let (_, about) = cms_get(app, "/cms/api/pages/1").await;
    assert_eq!(about["data"]["attributes"]["title"], "About Croupier", "the import replaced the change, and the cache saw it");

    let output = content_command(app.database_url(), "export", &second);
    assert!(output.status.success());
    assert_eq!(read_tree(&second), exported, "export → import → export gives the same files");

    std::fs::write(first.join("en/page.json"), "[{\"id\": 1, \"title\": \"No slug\"}]").unwrap();
    let output = content_command(app.database_url(), "import", &first);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("en/page.json: entry 1: slug"), "{}", String::from_utf8_lossy(&output.stderr));
    let (_, pages) = cms_get(app, "/cms/api/pages").await;
    assert_eq!(ids(&pages), vec![1, 2, 3, 4, 5], "a refused import changes nothing");
});

// ---------------------------------------------------------------------------------------------
// metadata.get
// ---------------------------------------------------------------------------------------------

db_test!(async fn metadata_get_answers_a_pages_seo_data_in_its_locale(app) {
    let (status, body) = app.api_get("metadata.get", &[("path", "/game/book-of-dead")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let data = &body["data"];
    assert_eq!(data["status"], 200);
    assert_eq!(data["title"], "Play Book Of Dead online | Croupier");
    assert_eq!(data["canonical"], "http://localhost:8080/platform/game/book-of-dead");
    assert_eq!(data["robots"], "index, follow");
    assert_eq!(data["product"]["sku"], "book-of-dead");
    assert_eq!(data["openGraph"]["locale"], "en_US");
    assert!(data["favicons"].as_array().is_some_and(|f| !f.is_empty()));
    assert!(data["replacements"].as_array().unwrap().iter().any(|r| r["from"] == "{bonus}"));

    let url = app.api_url("metadata.get", "fr", &[("path", "/gamehall")]);
    let (_, fr) = read_json(app.client.get(url).send().await.unwrap()).await;
    assert_eq!(fr["data"]["locale"], "fr");
    assert_eq!(fr["data"]["canonical"], "http://localhost:8080/fr/gamehall");
    assert!(fr["data"]["title"].as_str().unwrap().starts_with("Jeux de casino"));
    let (_, prefixed) = app.api_get("metadata.get", &[("path", "/fr/gamehall")]).await;
    assert_eq!(prefixed["data"]["title"], fr["data"]["title"], "a /fr path is French whatever the call's locale");

    let (_, faq) = app.api_get("metadata.get", &[("path", "/faq")]).await;
    assert_eq!(faq["data"]["schemaFaq"].as_array().unwrap().len(), 3);
    assert_eq!(faq["data"]["schemaArticle"]["headline"], "Frequently asked questions");
    let (_, missing) = app.api_get("metadata.get", &[("path", "/no/such/page")]).await;
    assert_eq!(missing["data"]["status"], 404);
    assert_eq!(missing["data"]["robots"], "noindex, follow");
    let (status, body) = app.api_get("metadata.get", &[("path", "gamehall")]).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["path"], json!(["INVALID"]));
    let (status, body) = app.api_get("metadata.get", &[]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
});
