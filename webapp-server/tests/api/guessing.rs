//! Guessing is slow and leaves a trail (issue 24, item 6): passwords, two-factor and
//! confirmation codes, password restore, promo codes and the content service's sign-in are
//! limited per account and per address, and every refusal — each wrong guess, and each limit
//! as it trips — is one row of the append-only `security_refusals`, never holding the secret
//! that was tried.
//!
//! The app trusts `X-Forwarded-For` here so that one test can speak from many addresses.

use crate::content::{TOKEN, cms_send, strapi_error};
use crate::helpers::{Backend, TestApp, backends, expect_error, read_json};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

const ADMIN: &str = "guessing-admin-token-0123456789";

async fn spawn(backend: Backend) -> TestApp {
    let env = [("CROUPIER_TRUST_PROXY", "true"), ("CROUPIER_CMS_TOKENS", TOKEN), ("CROUPIER_ADMIN_TOKEN", ADMIN)];
    TestApp::spawn_with(backend, &env, |_| {}).await
}

/// A call of `method` from `ip` with `client`'s cookies.
async fn post_from(
    app: &TestApp,
    client: &reqwest::Client,
    ip: &str,
    method: &str,
    form: &[(&str, &str)],
) -> (StatusCode, Value) {
    let response =
        client.post(app.api_url(method, "en", &[])).header("x-forwarded-for", ip).form(form).send().await.unwrap();
    read_json(response).await
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
struct Row {
    reason: String,
    subject: Option<String>,
    user_id: Option<i64>,
    ip: Option<String>,
}

/// The trail's rows of `action`, oldest first.
async fn trail(app: &TestApp, action: &str) -> Vec<Row> {
    sqlx::query_as("SELECT reason, subject, user_id, ip FROM security_refusals WHERE action = $1 ORDER BY id")
        .bind(action)
        .fetch_all(app.state.db().pool())
        .await
        .unwrap()
}

fn reasons(rows: &[Row]) -> Vec<&str> {
    rows.iter().map(|r| r.reason.as_str()).collect()
}

fn code_field(body: &Value) -> &str {
    body["error"]["error_data"]["code"][0].as_str().unwrap_or_default()
}

/// A six-digit code that is not `code`.
fn other_than(code: &str) -> &'static str {
    if code == "111111" { "222222" } else { "111111" }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_passwords_are_limited_per_account_and_per_address_and_each_is_audited() {
    for backend in backends() {
        let app = spawn(backend).await;
        let uid = app.register(&app.browser(), "victim@example.com").await["uid"].as_i64().unwrap();

        // Ten wrong passwords from ten addresses: each refused and recorded with its address.
        for i in 0..10 {
            let ip = format!("198.51.100.{i}");
            let form = [("login", "victim@example.com"), ("password", "guess-number-one")];
            let (status, body) = post_from(&app, &app.browser(), &ip, "auth.login", &form).await;
            let err = expect_error(status, &body, 422, "InvalidParameterException");
            assert_eq!(err["error_data"]["password"][0], "WRONG_CREDENTIALS", "{body}");
        }
        let rows = trail(&app, "login").await;
        assert_eq!(rows.len(), 10, "{rows:?}");
        for (i, row) in rows.iter().enumerate() {
            assert_eq!((row.reason.as_str(), row.user_id), ("wrong_credentials", Some(uid)));
            assert_eq!(row.ip.as_deref(), Some(format!("198.51.100.{i}").as_str()));
            assert!(row.subject.as_deref().is_some_and(|s| s.contains("victim@example.com")), "{row:?}");
        }

        // The account is now closed to guesses from anywhere, even with the right password, and
        // the limit tripping is recorded once however many tries follow.
        for ip in ["203.0.113.1", "203.0.113.2", "203.0.113.3"] {
            let form = [("login", "victim@example.com"), ("password", "secret123")];
            let (status, body) = post_from(&app, &app.browser(), ip, "auth.login", &form).await;
            expect_error(status, &body, 429, "TooManyRequestsException");
        }
        let rows = trail(&app, "login").await;
        assert_eq!(reasons(&rows[10..]), ["rate_limited"], "{rows:?}");
        assert_eq!(rows[10].ip.as_deref(), Some("203.0.113.1"));

        // One address trying many accounts is cut off too: 50 tries per 15 minutes.
        let mut refused_at = None;
        for i in 0..52 {
            let login = format!("nobody{i}@example.com");
            let form = [("login", login.as_str()), ("password", "guess-number-one")];
            let (status, _) = post_from(&app, &app.browser(), "192.0.2.77", "auth.login", &form).await;
            if status == StatusCode::TOO_MANY_REQUESTS {
                refused_at.get_or_insert(i);
            } else {
                assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
            }
        }
        assert_eq!(refused_at, Some(50), "the 51st try from one address is refused");
        let per_address = trail(&app, "login:ip").await;
        assert_eq!(per_address.len(), 1, "{per_address:?}");
        assert_eq!(
            (per_address[0].reason.as_str(), per_address[0].subject.as_deref(), per_address[0].ip.as_deref()),
            ("rate_limited", Some("192.0.2.77"), Some("192.0.2.77"))
        );
        let unknown = trail(&app, "login")
            .await
            .into_iter()
            .filter(|r| r.reason == "wrong_credentials" && r.user_id.is_none())
            .count();
        assert_eq!(unknown, 50, "a guess at an unknown account is recorded too, with no player");

        // The trail never holds what was tried, and nobody can rewrite it.
        let leaked: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM security_refusals WHERE subject LIKE '%guess-number%'")
                .fetch_one(app.state.db().pool())
                .await
                .unwrap();
        assert_eq!(leaked, 0);
        assert!(sqlx::query("UPDATE security_refusals SET reason = 'x'").execute(app.state.db().pool()).await.is_err());
        assert!(sqlx::query("DELETE FROM security_refusals").execute(app.state.db().pool()).await.is_err());
        assert_eq!(trail(&app, "login").await.len(), 61);

        // Operators read the trail, newest first, filtered by player, address or action.
        let admin = |query: &str| {
            let url = app.url(&format!("/admin/security/refusals?{query}"));
            async move { read_json(reqwest::Client::new().get(url).bearer_auth(ADMIN).send().await.unwrap()).await }
        };
        let (status, body) = admin(&format!("user_id={uid}&count=3")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let items = body["data"]["items"].as_array().unwrap();
        let ips: Vec<_> = items.iter().map(|i| i["ip"].as_str().unwrap()).collect();
        assert_eq!(ips, ["198.51.100.9", "198.51.100.8", "198.51.100.7"]);
        let (_, body) = admin("ip=192.0.2.77&action=login:ip").await;
        assert_eq!(body["data"]["items"].as_array().map(Vec::len), Some(1), "{body}");
        assert_eq!(body["data"]["items"][0]["reason"], "rate_limited");
        let (status, body) = admin("ip=not-an-address").await;
        expect_error(status, &body, 422, "InvalidParameterException");
        let anonymous = reqwest::get(app.url("/admin/security/refusals")).await.unwrap();
        assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_codes_are_audited_for_every_purpose_and_limited_per_address() {
    for backend in backends() {
        let app = spawn(backend).await;
        let browser = app.browser();
        let email = "coded@example.com";
        let uid = app.register(&browser, email).await["uid"].as_i64().unwrap();

        // Contact confirmation.
        let code = app.last_code(email).await;
        let (_, body) = post_from(
            &app,
            &browser,
            "198.51.100.20",
            "account.confirmContact",
            &[("contact", email), ("code", other_than(&code))],
        )
        .await;
        assert_eq!(code_field(&body), "CODE_INVALID", "{body}");
        let (status, _) = post_from(
            &app,
            &browser,
            "198.51.100.20",
            "account.confirmContact",
            &[("contact", email), ("code", &code)],
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let rows = trail(&app, "code_contact").await;
        assert_eq!(rows.len(), 1, "the right code is not a refusal: {rows:?}");
        assert_eq!(
            (rows[0].reason.as_str(), rows[0].user_id, rows[0].ip.as_deref()),
            ("code_invalid", Some(uid), Some("198.51.100.20"))
        );

        // Switching two-factor on.
        let (status, body) =
            post_from(&app, &browser, "198.51.100.21", "account.changeTwoFactorAuth", &[("enable", "1")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let code = app.last_code(email).await;
        let (_, body) =
            post_from(&app, &browser, "198.51.100.21", "account.confirmTwoFactorAuth", &[("code", other_than(&code))])
                .await;
        assert_eq!(code_field(&body), "CODE_INVALID", "{body}");
        let (status, _) =
            post_from(&app, &browser, "198.51.100.21", "account.confirmTwoFactorAuth", &[("code", &code)]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(reasons(&trail(&app, "code_toggle_2fa").await), ["code_invalid"]);

        // The two-factor step of signing in: five misses use the code up, the sixth is recorded
        // as an expired code.
        let credentials = [("login", email), ("password", "secret123")];
        let (_, body) = post_from(&app, &app.browser(), "198.51.100.22", "auth.login", &credentials).await;
        assert_eq!(code_field(&body), "TWO_FACTOR_REQUIRED", "{body}");
        let code = app.last_code(email).await;
        for _ in 0..6 {
            let form = [("login", email), ("password", "secret123"), ("code", other_than(&code))];
            post_from(&app, &app.browser(), "198.51.100.22", "auth.login", &form).await;
        }
        let rows = trail(&app, "code_login").await;
        assert_eq!(reasons(&rows), ["code_invalid"; 5].into_iter().chain(["code_expired"]).collect::<Vec<_>>());
        assert!(
            rows.iter().all(|r| r.user_id == Some(uid) && r.subject.as_deref() == Some(format!("user:{uid}").as_str()))
        );

        // Password restore: a wrong code for the account, and a code for an account that does
        // not exist (answered alike, recorded apart).
        let (status, _) = post_from(&app, &app.browser(), "198.51.100.23", "auth.restore", &[("login", email)]).await;
        assert_eq!(status, StatusCode::OK);
        let code = app.last_code(email).await;
        let form = [
            ("login", email),
            ("code", other_than(&code)),
            ("password", "newsecret9"),
            ("password_repeat", "newsecret9"),
        ];
        let (_, body) = post_from(&app, &app.browser(), "198.51.100.23", "auth.restore", &form).await;
        assert_eq!(code_field(&body), "CODE_INVALID");
        let form = [
            ("login", "ghost@example.com"),
            ("code", "123456"),
            ("password", "newsecret9"),
            ("password_repeat", "newsecret9"),
        ];
        let (_, body) = post_from(&app, &app.browser(), "198.51.100.23", "auth.restore", &form).await;
        assert_eq!(code_field(&body), "CODE_INVALID");
        let rows = trail(&app, "code_restore").await;
        assert_eq!(reasons(&rows), ["code_invalid", "no_account"]);
        assert_eq!((rows[0].user_id, rows[1].user_id), (Some(uid), None));

        // Codes typed into a signed-in page are limited per address as well as per account:
        // one address confirming codes for many players is cut off at 60 tries.
        let mut limited = false;
        for i in 0..7 {
            let player = app.browser();
            let address = format!("spray{i}@example.com");
            app.register(&player, &address).await;
            for _ in 0..10 {
                let (status, _) = post_from(
                    &app,
                    &player,
                    "192.0.2.99",
                    "account.confirmContact",
                    &[("contact", &address), ("code", "000000")],
                )
                .await;
                limited |= status == StatusCode::TOO_MANY_REQUESTS;
            }
        }
        assert!(limited, "one address is limited across accounts");
        let rows = trail(&app, "contact-confirm:ip").await;
        assert_eq!(
            (rows.len(), rows[0].reason.as_str(), rows[0].ip.as_deref()),
            (1, "rate_limited", Some("192.0.2.99"))
        );
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn promo_code_guesses_are_audited_and_codes_are_found_by_digest() {
    for backend in backends() {
        let app = spawn(backend).await;
        let player = app.browser();
        let uid = app.register(&player, "promo@example.com").await["uid"].as_i64().unwrap();

        // The demo code is stored under its digest, never as itself, and still works in any case.
        let keys: Vec<(String, String)> =
            sqlx::query_as("SELECT code_key, code FROM promo_codes").fetch_all(app.state.db().pool()).await.unwrap();
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].1, "WEEKEND");
        assert_eq!(keys[0].0, croupier_server::features::bonuses::campaigns::code_key(" weekend "));
        assert!(!keys[0].0.to_uppercase().contains("WEEKEND"));
        let (status, body) =
            post_from(&app, &player, "198.51.100.30", "campaigns.checkPromocode", &[("promo_code", "weekEND")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");

        for code in ["WEEKEN", "WEEKEND1", "FREEMONEY"] {
            let (status, body) =
                post_from(&app, &player, "198.51.100.30", "campaigns.checkPromocode", &[("promo_code", code)]).await;
            let err = expect_error(status, &body, 422, "InvalidParameterException");
            assert_eq!(err["error_data"]["promo_code"][0], "NOT_FOUND");
        }
        let (status, body) =
            post_from(&app, &player, "198.51.100.30", "campaigns.activateOffer", &[("promo_code", "LUCKY7")]).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        let rows = trail(&app, "promo_code").await;
        let tried: Vec<_> = rows.iter().map(|r| r.subject.as_deref().unwrap_or_default()).collect();
        assert_eq!(tried, ["WEEKEN", "WEEKEND1", "FREEMONEY", "LUCKY7"]);
        assert!(
            rows.iter()
                .all(|r| r.reason == "NOT_FOUND" && r.user_id == Some(uid) && r.ip.as_deref() == Some("198.51.100.30"))
        );

        // Ten tries per player per ten minutes (five are used): the limit trips once.
        let mut statuses = Vec::new();
        for _ in 0..7 {
            let (status, _) =
                post_from(&app, &player, "198.51.100.31", "campaigns.checkPromocode", &[("promo_code", "GUESS")]).await;
            statuses.push(status.as_u16());
        }
        assert_eq!(statuses, [422, 422, 422, 422, 422, 429, 429]);
        let limited = trail(&app, "promo").await;
        assert_eq!(limited.len(), 1, "{limited:?}");
        assert_eq!(
            (limited[0].reason.as_str(), limited[0].subject.as_deref()),
            ("rate_limited", Some(format!("user:{uid}").as_str()))
        );
        app.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn promo_codes_stored_by_an_older_version_are_rekeyed_at_start() {
    use croupier_server::features::bonuses::campaigns::{code_key, rekey_promo_codes};
    for backend in backends() {
        let app = spawn(backend).await;
        let db = app.state.db();
        let campaign: i64 = sqlx::query_scalar("SELECT id FROM campaigns WHERE sysname = 'weekend'")
            .fetch_one(db.pool())
            .await
            .unwrap();
        sqlx::query("INSERT INTO promo_codes (code_key, code, campaign_id, status, max_uses, uses, created_at) VALUES ('SPRING-24', 'Spring-24', $1, 'active', NULL, 0, 0)")
            .bind(campaign)
            .execute(db.pool())
            .await
            .unwrap();
        assert_eq!(rekey_promo_codes(db).await.unwrap(), 1, "only the old row is re-keyed");
        assert_eq!(rekey_promo_codes(db).await.unwrap(), 0, "a second start changes nothing");
        let key: String = sqlx::query_scalar("SELECT code_key FROM promo_codes WHERE code = 'Spring-24'")
            .fetch_one(db.pool())
            .await
            .unwrap();
        assert_eq!(key, code_key("spring-24"));
        let player = app.browser();
        app.register(&player, "spring@example.com").await;
        let (status, body) = app.post_as(&player, "campaigns.checkPromocode", &[("promo_code", "spring-24")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        app.finish().await;
    }
}

async fn cms_post(app: &TestApp, ip: &str, path: &str, body: Value) -> (StatusCode, Value) {
    let request = app.client.request(Method::POST, app.url(path)).header("x-forwarded-for", ip).json(&body);
    read_json(request.send().await.unwrap()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_content_services_sign_in_is_limited_and_audited() {
    for backend in backends() {
        let app = spawn(backend).await;
        let email = "editor@croupier.test";
        let (status, body) = cms_send(
            &app,
            Method::POST,
            "/cms/api/auth/local/register",
            None,
            json!({"username": "Editor", "email": email, "password": "s3cret-pass"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let editor = body["user"]["id"].as_i64().unwrap();

        for i in 0..10 {
            let (status, body) = cms_post(
                &app,
                &format!("198.51.100.{}", 40 + i),
                "/cms/api/auth/local",
                json!({"identifier": email, "password": "not-it"}),
            )
            .await;
            strapi_error(status, &body, 400, "ValidationError");
        }
        let (status, body) = cms_post(
            &app,
            "198.51.100.60",
            "/cms/api/auth/local",
            json!({"identifier": email, "password": "s3cret-pass"}),
        )
        .await;
        strapi_error(status, &body, 429, "RateLimitError");
        let rows = trail(&app, "cms_login").await;
        assert_eq!(reasons(&rows), ["wrong_credentials"; 10].into_iter().chain(["rate_limited"]).collect::<Vec<_>>());
        assert!(rows[..10].iter().all(|r| r.user_id == Some(editor) && r.subject.as_deref() == Some(email)));
        assert_eq!(rows[10].ip.as_deref(), Some("198.51.100.60"));

        // A made-up reset code or confirmation link is recorded with its address.
        let reset = json!({"code": "0".repeat(64), "password": "n3w-secret", "passwordConfirmation": "n3w-secret"});
        let (status, body) = cms_post(&app, "198.51.100.61", "/cms/api/auth/reset-password", reset).await;
        strapi_error(status, &body, 400, "ValidationError");
        let link = app.url(&format!("/cms/api/auth/email-confirmation?confirmation={}", "f".repeat(64)));
        let response = app.client.get(link).header("x-forwarded-for", "198.51.100.62").send().await.unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let reset = trail(&app, "cms_reset").await;
        let confirmation = trail(&app, "cms_confirmation").await;
        assert_eq!(
            (reset.len(), reset[0].reason.as_str(), reset[0].ip.as_deref()),
            (1, "code_invalid", Some("198.51.100.61"))
        );
        assert_eq!((confirmation.len(), confirmation[0].ip.as_deref()), (1, Some("198.51.100.62")));
        app.finish().await;
    }
}
