//! The console's content editor (`/backoffice/api/content/...`): the content role lists, edits,
//! translates, publishes and deletes entries through the content service's own store; the edit
//! reaches the public content API and the cached pages at once; other roles are refused and
//! audited; bad input is refused with the envelope and leaves nothing behind.

use crate::backoffice::{Op, audit_count, get, operator, post, spawn, url};
use crate::content::cms_get;
use crate::helpers::{TestApp, backends, expect_error, read_json};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn put(op: &Op, app: &TestApp, path: &str, body: &Value) -> (StatusCode, Value) {
    read_json(op.http.put(url(app, path)).json(body).send().await.unwrap()).await
}

async fn delete(op: &Op, app: &TestApp, path: &str, body: &Value) -> (StatusCode, Value) {
    read_json(op.http.delete(url(app, path)).json(body).send().await.unwrap()).await
}

async fn version(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT version FROM content_meta WHERE id = 1").fetch_one(app.state.db().pool()).await.unwrap()
}

async fn page_html(app: &TestApp, path: &str) -> String {
    reqwest::get(app.url(path)).await.unwrap().text().await.unwrap()
}

/// The last audit row of `action`: (target, reason, before, after, outcome).
async fn last_audit(app: &TestApp, action: &str) -> (String, Option<String>, Value, Value, String) {
    let (target, reason, before, after, outcome): (
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        String,
    ) = sqlx::query_as(
        "SELECT target_id, reason, before_json, after_json, outcome FROM operator_audit WHERE action = $1 \
             ORDER BY id DESC LIMIT 1",
    )
    .bind(action)
    .fetch_one(app.state.db().pool())
    .await
    .unwrap();
    let parse = |t: Option<String>| t.map_or(Value::Null, |t| serde_json::from_str(&t).unwrap());
    (target.unwrap_or_default(), reason, parse(before), parse(after), outcome)
}

async fn list(op: &Op, app: &TestApp, api_id: &str, filter: Value) -> (Vec<Value>, String) {
    let query = format!("?filter={}", urlencode(&filter.to_string()));
    let response = op.http.get(url(app, &format!("/content/{api_id}{query}"))).send().await.unwrap();
    let range = response.headers().get("content-range").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    let (status, body) = read_json(response).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (body.as_array().unwrap().clone(), range)
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_content_role_edits_translates_publishes_and_the_site_follows_at_once() {
    for backend in backends() {
        let app = spawn(backend).await;
        let op = operator(&app, "carla@casino.test", "content").await;

        // The schema: every type, its kind, locales and fields.
        let (status, types) = get(&op.http, &app, "/content/types").await;
        assert_eq!(status, StatusCode::OK, "{types}");
        let pages = types.as_array().unwrap().iter().find(|t| t["api_id"] == "pages").unwrap();
        assert_eq!(pages["kind"], "collection");
        assert_eq!(pages["localized"], true);
        let field =
            |name: &str| pages["fields"].as_array().unwrap().iter().find(|f| f["name"] == name).unwrap().clone();
        assert_eq!(field("slug")["required"], true);
        assert_eq!(field("slug")["unique"], true);
        assert_eq!(field("content")["kind"], "richtext");
        assert_eq!(field("cover")["kind"], "media");
        assert_eq!(field("seo")["kind"], "component");
        let common = types.as_array().unwrap().iter().find(|t| t["api_id"] == "common").unwrap();
        assert_eq!(common["kind"], "single");
        let popups = types.as_array().unwrap().iter().find(|t| t["api_id"] == "popups").unwrap();
        let kind = popups["fields"].as_array().unwrap().iter().find(|f| f["name"] == "kind").unwrap();
        assert_eq!(kind["kind"], "enumeration");
        assert_eq!(kind["options"], json!(["popup", "confirm", "curtain"]));

        // The list, per locale, with its total.
        let (rows, range) = list(&op, &app, "pages", json!({"locale": "en"})).await;
        assert_eq!(range, format!("content 0-{}/{}", rows.len() - 1, rows.len()));
        let about = rows.iter().find(|r| r["id"] == 1).unwrap();
        assert_eq!(about["label"], "About Croupier");
        assert_eq!(about["preview_url"], "/about");
        let (rows, _) = list(&op, &app, "pages", json!({"locale": "fr", "q": "about"})).await;
        assert!(rows.iter().all(|r| r["preview_url"].as_str().unwrap().starts_with("/fr/")), "{rows:?}");

        // The public answer and the page are cached before the edit.
        let before_html = page_html(&app, "/about").await;
        assert!(before_html.contains("<title>About Croupier"), "{before_html}");
        let (_, public) = cms_get(&app, "/cms/api/pages/1?locale=en").await;
        assert_eq!(public["data"]["attributes"]["title"], "About Croupier");
        let version_before = version(&app).await;

        let (status, entry) = put(
            &op,
            &app,
            "/content/pages/1",
            &json!({"locale": "en", "data": {"title": "About Us Today"}, "reason": "rebrand"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{entry}");
        assert_eq!(entry["data"]["title"], "About Us Today");
        assert_eq!(entry["data"]["slug"], "about", "only the given attributes change");
        assert_eq!(entry["published"], true);
        assert!(version(&app).await > version_before, "the content version moves");
        let (_, public) = cms_get(&app, "/cms/api/pages/1?locale=en").await;
        assert_eq!(public["data"]["attributes"]["title"], "About Us Today");
        assert!(page_html(&app, "/about").await.contains("<title>About Us Today"));
        let (target, reason, before, after, outcome) = last_audit(&app, "content.update").await;
        assert_eq!((target.as_str(), reason.as_deref(), outcome.as_str()), ("pages/1/en", Some("rebrand"), "ok"));
        assert_eq!(before["data"]["title"], "About Croupier");
        assert_eq!(after["data"]["title"], "About Us Today");
        assert_eq!(after["published"], true);

        // Unpublish: gone from the public API (drafts are not served), back on publish.
        let (status, entry) =
            post(&op.http, &app, "/content/pages/1/unpublish", &json!({"locale": "en", "reason": "review"})).await;
        assert_eq!(status, StatusCode::OK, "{entry}");
        assert_eq!(entry["published"], false);
        let (status, _) = cms_get(&app, "/cms/api/pages/1?locale=en").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (rows, _) = list(&op, &app, "pages", json!({"locale": "en", "status": "draft"})).await;
        assert_eq!(rows.iter().map(|r| r["id"].as_i64().unwrap()).collect::<Vec<_>>(), [1]);
        let (_, _, before, after, _) = last_audit(&app, "content.unpublish").await;
        assert_eq!((before["published"].clone(), after["published"].clone()), (json!(true), json!(false)));
        let (status, entry) =
            post(&op.http, &app, "/content/pages/1/publish", &json!({"locale": "en", "reason": "ok now"})).await;
        assert_eq!(status, StatusCode::OK, "{entry}");
        let (status, _) = cms_get(&app, "/cms/api/pages/1?locale=en").await;
        assert_eq!(status, StatusCode::OK);

        // A new page as a draft, its missing translation, then deleted variant by variant.
        let (status, created) = post(
            &op.http,
            &app,
            "/content/pages",
            &json!({"locale": "en", "publish": false, "reason": "new terms",
                    "data": {"slug": "promo-terms", "title": "Promo terms", "content": "<p>Terms</p>"}}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let id = created["id"].as_i64().unwrap();
        assert_eq!((created["published"].clone(), created["locales"].clone()), (json!(false), json!(["en"])));
        let (status, _) = cms_get(&app, &format!("/cms/api/pages/{id}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "a draft is not public");
        let (status, missing) = get(&op.http, &app, &format!("/content/pages/{id}?locale=fr")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(missing["exists"], false);
        assert_eq!(missing["data"]["title"], "Promo terms", "the translation starts from the default locale");
        let mut data = missing["data"].clone();
        data["title"] = json!("Conditions promo");
        let (status, fr) =
            put(&op, &app, &format!("/content/pages/{id}"), &json!({"locale": "fr", "data": data, "reason": "fr"}))
                .await;
        assert_eq!(status, StatusCode::OK, "{fr}");
        assert_eq!((fr["exists"].clone(), fr["published"].clone()), (json!(true), json!(false)));
        assert_eq!(fr["locales"], json!(["en", "fr"]));
        assert_eq!(fr["preview_url"], "/fr/promo-terms");
        let (target, _, before, after, _) = last_audit(&app, "content.translate").await;
        assert_eq!(target, format!("pages/{id}/fr"));
        assert_eq!((before, after["data"]["title"].clone()), (Value::Null, json!("Conditions promo")));
        let (status, body) =
            delete(&op, &app, &format!("/content/pages/{id}"), &json!({"locale": "fr", "reason": "drop fr"})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (_, en) = get(&op.http, &app, &format!("/content/pages/{id}?locale=en")).await;
        assert_eq!(en["locales"], json!(["en"]));
        let (status, _) = delete(&op, &app, &format!("/content/pages/{id}"), &json!({"reason": "gone"})).await;
        assert_eq!(status, StatusCode::OK);
        let (status, body) = get(&op.http, &app, &format!("/content/pages/{id}?locale=en")).await;
        expect_error(status, &body, 404, "InvalidParameterException");
        let (_, _, before, after, _) = last_audit(&app, "content.delete").await;
        assert_eq!((before["data"]["slug"].clone(), after), (json!("promo-terms"), Value::Null));

        // A single type is edited the same way.
        let (status, entry) = put(
            &op,
            &app,
            "/content/settings-seo/1",
            &json!({"locale": "fr", "data": {"notFoundTitle": "Page introuvable"}, "reason": "fr wording"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{entry}");
        let (_, public) = cms_get(&app, "/cms/api/settings-seo?locale=fr").await;
        assert_eq!(public["data"]["attributes"]["notFoundTitle"], "Page introuvable");
        app.finish().await;
    }
}

#[tokio::test]
async fn other_roles_are_refused_and_each_refusal_is_audited() {
    for backend in backends() {
        let app = spawn(backend).await;
        for role in ["finance", "support", "marketing"] {
            let op = operator(&app, &format!("{role}@casino.test"), role).await;
            let calls: [(&str, &str); 5] = [
                ("GET", "/content/types"),
                ("GET", "/content/pages"),
                ("GET", "/content/pages/1"),
                ("PUT", "/content/pages/1"),
                ("POST", "/content/pages/1/publish"),
            ];
            for (method, path) in calls {
                let denied = audit_count(&app, "denied").await;
                let version_before = version(&app).await;
                let response = op
                    .http
                    .request(method.parse().unwrap(), url(&app, path))
                    .json(&json!({"locale": "en", "data": {"title": "Hacked"}, "reason": "x"}))
                    .send()
                    .await
                    .unwrap();
                let (status, body) = read_json(response).await;
                let error = expect_error(status, &body, 403, "AccessDeniedException");
                assert_eq!(error["error_data"]["permission"], json!(["content.manage"]), "{role} {method} {path}");
                assert_eq!(audit_count(&app, "denied").await, denied + 1, "{role} {method} {path}");
                assert_eq!(version(&app).await, version_before);
            }
        }
        let (_, public) = cms_get(&app, "/cms/api/pages/1?locale=en").await;
        assert_eq!(public["data"]["attributes"]["title"], "About Croupier");
        let (_, _, _, after, outcome) = last_audit(&app, "content.update").await;
        assert_eq!((outcome.as_str(), after), ("denied", json!({"permission": "content.manage"})));
        app.finish().await;
    }
}

#[tokio::test]
async fn bad_input_is_refused_with_the_envelope_and_nothing_changes() {
    for backend in backends() {
        let app = spawn(backend).await;
        let op = operator(&app, "carla@casino.test", "content").await;
        let version_before = version(&app).await;
        let ok_before = audit_count(&app, "ok").await;
        let cases: Vec<(&str, &str, Value, u16, &str, &str)> = vec![
            (
                "PUT",
                "/content/pages/1",
                json!({"locale": "en", "data": {"slug": "Not A Slug"}, "reason": "x"}),
                400,
                "slug",
                "INVALID",
            ),
            (
                "PUT",
                "/content/pages/1",
                json!({"locale": "en", "data": {"title": ""}, "reason": "x"}),
                400,
                "title",
                "REQUIRED",
            ),
            ("PUT", "/content/pages/1", json!({"locale": "en", "data": {"title": "T"}}), 400, "reason", "REQUIRED"),
            (
                "PUT",
                "/content/pages/1",
                json!({"locale": "de", "data": {"title": "T"}, "reason": "x"}),
                400,
                "locale",
                "UNSUPPORTED",
            ),
            (
                "PUT",
                "/content/pages/1",
                json!({"locale": "en", "data": "title", "reason": "x"}),
                400,
                "data",
                "INVALID",
            ),
            (
                "PUT",
                "/content/pages/1",
                json!({"locale": "en", "data": {"cover": 5}, "reason": "x"}),
                400,
                "cover",
                "INVALID",
            ),
            (
                "PUT",
                "/content/popups/1",
                json!({"locale": "en", "data": {"kind": "banner"}, "reason": "x"}),
                400,
                "kind",
                "INVALID",
            ),
            (
                "PUT",
                "/content/pages/999",
                json!({"locale": "en", "data": {"title": "T"}, "reason": "x"}),
                404,
                "id",
                "NOT_FOUND",
            ),
            ("PUT", "/content/nothing/1", json!({"locale": "en", "data": {}, "reason": "x"}), 404, "type", "NOT_FOUND"),
            (
                "POST",
                "/content/pages",
                json!({"locale": "en", "data": {"slug": "about", "title": "Again"}, "reason": "x"}),
                400,
                "slug",
                "INVALID",
            ),
            (
                "POST",
                "/content/pages",
                json!({"locale": "en", "data": {"slug": "gamehall", "title": "Route"}, "reason": "x"}),
                400,
                "slug",
                "INVALID",
            ),
            ("POST", "/content/common", json!({"locale": "en", "data": {}, "reason": "x"}), 400, "type", "UNSUPPORTED"),
            ("POST", "/content/pages/999/publish", json!({"locale": "en", "reason": "x"}), 404, "id", "NOT_FOUND"),
            ("POST", "/content/pages/1/archive", json!({"locale": "en", "reason": "x"}), 404, "action", "NOT_FOUND"),
        ];
        for (method, path, body, want, field, code) in cases {
            let response = op.http.request(method.parse().unwrap(), url(&app, path)).json(&body).send().await.unwrap();
            let (status, answer) = read_json(response).await;
            assert_eq!(status.as_u16(), want, "{method} {path} {body}: {answer}");
            assert_eq!(answer["status"], "error", "{answer}");
            assert_eq!(answer["error"]["error_data"][field], json!([code]), "{method} {path} {body}: {answer}");
        }
        // The content service's own wording comes along.
        let (_, answer) =
            put(&op, &app, "/content/pages/1", &json!({"locale": "en", "data": {"slug": "Bad"}, "reason": "x"})).await;
        assert!(answer["error"]["error_data"]["issues"][0].as_str().unwrap().starts_with("slug: must be lower-case"));
        assert_eq!(version(&app).await, version_before, "no refused write moved the content version");
        assert_eq!(audit_count(&app, "ok").await, ok_before, "no refused write left an audit row");
        let (_, public) = cms_get(&app, "/cms/api/pages/1?locale=en").await;
        assert_eq!(public["data"]["attributes"]["slug"], "about");
        // Writes need the console's own origin (a cross-site form cannot post).
        let response = op
            .http
            .put(url(&app, "/content/pages/1"))
            .header("origin", "https://evil.example")
            .json(&json!({"locale": "en", "data": {"title": "T"}, "reason": "x"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        assert_eq!(version(&app).await, version_before);
        app.finish().await;
    }
}
