//! The back office's API (issue 22): operator sign-in with TOTP, the permission table, the
//! audit trail, four eyes on corrections and withdrawals, the withdrawal queue, CSV exports and
//! the console's page.

use crate::cashier::{deposit, verified_player};
use crate::helpers::{Backend, TestApp, backends, expect_error, read_json};
use croupier_server::features::backoffice::operators::{NewOperator, create_from_cli};
use croupier_server::features::backoffice::totp;
use reqwest::StatusCode;
use serde_json::{Value, json};

pub(crate) const TOKEN: &str = "backoffice-automation-token";
pub(crate) const BEARER: &str = "Bearer backoffice-automation-token";
const PASSWORD: &str = "correct horse battery";
/// Four eyes from 50.00 (minor units) in these tests.
const ENV: [(&str, &str); 2] = [("CROUPIER_ADMIN_TOKEN", TOKEN), ("CROUPIER_FOUR_EYES_MINOR", "5000")];

pub async fn spawn(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, &ENV, |_| {}).await
}

/// A signed-in operator of `role`: created, enrolled with the code computed here, signed in.
pub struct Op {
    pub http: reqwest::Client,
    pub id: i64,
}

pub async fn operator(app: &TestApp, email: &str, role: &str) -> Op {
    let new = NewOperator::check(email, &format!("{role} {email}"), role, PASSWORD).unwrap();
    let id = create_from_cli(app.state.platform(), &new).await.unwrap();
    let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
    let (status, body) = post(&http, app, "/session", &json!({"email": email, "password": PASSWORD})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let enrolment = &body["enrolment"];
    assert!(enrolment["qr_svg"].as_str().unwrap().contains("<svg"));
    assert!(enrolment["otpauth_url"].as_str().unwrap().starts_with("otpauth://totp/Croupier:"));
    let secret = totp::base32_decode(enrolment["secret"].as_str().unwrap()).unwrap();
    let code = totp::code_at(&secret, now());
    let (status, body) = post(&http, app, "/session/enrol", &json!({"token": enrolment["token"], "totp": code})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["operator"]["role"], role);
    Op { http, id }
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

pub fn url(app: &TestApp, path: &str) -> String {
    app.url(&format!("/backoffice/api{path}"))
}

pub async fn post(http: &reqwest::Client, app: &TestApp, path: &str, body: &Value) -> (StatusCode, Value) {
    let response = http.post(url(app, path)).json(body).send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

pub async fn get(http: &reqwest::Client, app: &TestApp, path: &str) -> (StatusCode, Value) {
    read_json(http.get(url(app, path)).send().await.unwrap()).await
}

pub async fn audit_count(app: &TestApp, outcome: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM operator_audit WHERE outcome = $1")
        .bind(outcome)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap()
}

async fn main_balance(app: &TestApp, user_id: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM ledger_accounts WHERE user_id = $1 AND kind = 'main'",
    )
    .bind(user_id)
    .fetch_one(app.state.db().pool())
    .await
    .unwrap()
}

async fn ledger_is_clean(app: &TestApp) {
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

/// Every endpoint and the permission it needs (`id` paths use ids that need not exist: the
/// permission is checked first).
const TABLE: &[(&str, &str, &str)] = &[
    ("GET", "/operators", "operators.manage"),
    ("POST", "/operators", "operators.manage"),
    ("GET", "/operators/1", "operators.manage"),
    ("PUT", "/operators/1", "operators.manage"),
    ("POST", "/operators/1/reset-totp", "operators.manage"),
    ("GET", "/players", "players.read"),
    ("GET", "/players/export.csv", "players.read"),
    ("GET", "/players/1", "players.read"),
    ("POST", "/players/1/ban", "players.ban"),
    ("POST", "/players/1/unban", "players.ban"),
    ("POST", "/players/1/sessions/end", "players.sessions"),
    ("GET", "/sessions", "players.read"),
    ("DELETE", "/sessions/nope", "players.sessions"),
    ("GET", "/notes", "players.read"),
    ("POST", "/notes", "players.notes"),
    ("GET", "/ledger", "players.read"),
    ("GET", "/ledger/export.csv", "players.read"),
    ("GET", "/deposits", "deposits.read"),
    ("GET", "/deposits/export.csv", "deposits.read"),
    ("GET", "/rounds", "rounds.read"),
    ("GET", "/rounds/export.csv", "rounds.read"),
    ("GET", "/bonuses", "players.read"),
    ("GET", "/refusals", "audit.read"),
    ("GET", "/withdrawals", "withdrawals.read"),
    ("GET", "/withdrawals/export.csv", "withdrawals.read"),
    ("GET", "/withdrawals/nope", "withdrawals.read"),
    ("POST", "/withdrawals/nope/review", "withdrawals.decide"),
    ("POST", "/withdrawals/nope/approve", "withdrawals.decide"),
    ("POST", "/withdrawals/nope/reject", "withdrawals.decide"),
    ("POST", "/withdrawals/nope/paid", "withdrawals.decide"),
    ("POST", "/withdrawals/bulk-approve", "withdrawals.decide"),
    ("GET", "/corrections", "balance.correct"),
    ("POST", "/corrections", "balance.correct"),
    ("GET", "/corrections/export.csv", "balance.correct"),
    ("GET", "/corrections/1", "balance.correct"),
    ("POST", "/corrections/1/approve", "balance.approve"),
    ("POST", "/corrections/1/reject", "balance.approve"),
    ("GET", "/audit", "audit.read"),
    ("GET", "/audit/export.csv", "audit.read"),
    ("GET", "/audit/1", "audit.read"),
    ("GET", "/reports/summary", "reports.read"),
    ("GET", "/reports/summary.csv", "reports.read"),
    ("GET", "/system", "system.manage"),
    ("POST", "/system/maintenance", "system.manage"),
    ("GET", "/admin/campaigns", "campaigns.manage"),
    ("POST", "/admin/campaigns", "campaigns.manage"),
    ("GET", "/admin/tournaments", "campaigns.manage"),
    ("GET", "/admin/jackpots", "campaigns.manage"),
    ("GET", "/admin/cashbacks", "campaigns.manage"),
    ("POST", "/admin/players/1/verification", "players.ban"),
    ("GET", "/admin/support/feedback", "players.read"),
    ("GET", "/admin/sportsbook/markets", "sportsbook.manage"),
    ("POST", "/admin/sportsbook/markets/1/suspend", "sportsbook.manage"),
    ("GET", "/admin/sportsbook/limits", "sportsbook.manage"),
];

/// The contract's roles → permissions.
fn allowed(role: &str, permission: &str) -> bool {
    let finance = [
        "players.read",
        "balance.correct",
        "balance.approve",
        "withdrawals.read",
        "withdrawals.decide",
        "deposits.read",
        "rounds.read",
        "reports.read",
        "audit.read",
        "sportsbook.manage",
    ];
    let support = [
        "players.read",
        "players.ban",
        "players.notes",
        "players.sessions",
        "withdrawals.read",
        "deposits.read",
        "rounds.read",
    ];
    match role {
        "admin" => true,
        "automation" => permission != "operators.manage",
        "finance" => finance.contains(&permission),
        "support" => support.contains(&permission),
        "marketing" => ["players.read", "campaigns.manage", "reports.read"].contains(&permission),
        "content" => permission == "content.manage",
        _ => false,
    }
}

#[tokio::test]
async fn each_role_is_allowed_or_refused_exactly_as_its_permissions_say() {
    for backend in backends() {
        let app = spawn(backend).await;
        let mut callers: Vec<(&str, reqwest::Client, Option<&str>)> = Vec::new();
        for role in ["admin", "finance", "support", "marketing", "content"] {
            let op = operator(&app, &format!("{role}@casino.test"), role).await;
            callers.push((role, op.http, None));
        }
        callers.push(("automation", reqwest::Client::new(), Some(BEARER)));
        for (method, path, permission) in TABLE {
            for (role, http, bearer) in &callers {
                let denied_before = audit_count(&app, "denied").await;
                let mut request = http.request(method.parse().unwrap(), url(&app, path));
                if let Some(bearer) = bearer {
                    request = request.header("authorization", *bearer);
                }
                // An empty object: the allowed get past the permission and meet validation.
                if *method != "GET" {
                    request = request.json(&json!({}));
                }
                let response = request.send().await.unwrap();
                let status = response.status();
                let text = response.text().await.unwrap();
                let denied_after = audit_count(&app, "denied").await;
                if allowed(role, permission) {
                    assert_ne!(status, StatusCode::FORBIDDEN, "{role} {method} {path}: {text}");
                    assert_ne!(status, StatusCode::UNAUTHORIZED, "{role} {method} {path}: {text}");
                    assert_eq!(denied_after, denied_before, "{role} {method} {path}");
                } else {
                    let body: Value = serde_json::from_str(&text).unwrap();
                    let error = expect_error(status, &body, 403, "AccessDeniedException");
                    assert_eq!(error["error_data"]["permission"], json!([permission]), "{role} {method} {path}");
                    assert_eq!(denied_after, denied_before + 1, "{role} {method} {path}: one audit row per refusal");
                }
            }
        }
        // Without a session or with a wrong token: 401.
        let (status, body) = get(&reqwest::Client::new(), &app, "/players").await;
        expect_error(status, &body, 401, "AuthorizationException");
        let response = reqwest::Client::new()
            .get(url(&app, "/players"))
            .header("authorization", "Bearer wrong")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        app.finish().await;
    }
}

#[tokio::test]
async fn sign_in_needs_the_password_and_a_fresh_totp_code_and_locks_after_five_failures() {
    for backend in backends() {
        let app = spawn(backend).await;
        let op = operator(&app, "ann@casino.test", "support").await;
        let (status, body) = get(&op.http, &app, "/session").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["operator"]["enrolled"], true);
        assert!(body["operator"]["permissions"].as_array().unwrap().contains(&json!("players.ban")));
        let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
        let (status, body) =
            post(&http, &app, "/session", &json!({"email": "ann@casino.test", "password": PASSWORD})).await;
        assert_eq!(
            expect_error(status, &body, 400, "InvalidParameterException")["error_data"]["totp"],
            json!(["REQUIRED"])
        );
        let (status, body) = post(
            &http,
            &app,
            "/session",
            &json!({"email": "ann@casino.test", "password": "wrong password!", "totp": "000000"}),
        )
        .await;
        assert_eq!(
            expect_error(status, &body, 401, "InvalidParameterException")["error_data"]["password"],
            json!(["INVALID"])
        );
        let (status, body) =
            post(&http, &app, "/session", &json!({"email": "nobody@casino.test", "password": PASSWORD})).await;
        assert_eq!(
            expect_error(status, &body, 401, "InvalidParameterException")["error_data"]["password"],
            json!(["INVALID"])
        );
        // The secret as sealed in the table, opened with the installation key: the next step's code.
        let sealed: String = sqlx::query_scalar("SELECT totp_secret FROM operators WHERE id = $1")
            .bind(op.id)
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        let secret = totp::unseal(app.state.keys(), &sealed).unwrap();
        let next = totp::code_at(&secret, now() + 30);
        let wrong = if next == "123456" { "654321" } else { "123456" };
        let (status, body) =
            post(&http, &app, "/session", &json!({"email": "ann@casino.test", "password": PASSWORD, "totp": wrong}))
                .await;
        assert_eq!(
            expect_error(status, &body, 401, "InvalidParameterException")["error_data"]["totp"],
            json!(["INVALID"])
        );
        let (status, body) =
            post(&http, &app, "/session", &json!({"email": "ann@casino.test", "password": PASSWORD, "totp": next}))
                .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        // The same code again is refused (a step is good once).
        let (status, _) =
            post(&http, &app, "/session", &json!({"email": "ann@casino.test", "password": PASSWORD, "totp": next}))
                .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        for _ in 0..5 {
            post(&http, &app, "/session", &json!({"email": "ann@casino.test", "password": "wrong password!"})).await;
        }
        let (status, body) = post(
            &http,
            &app,
            "/session",
            &json!({"email": "ann@casino.test", "password": PASSWORD, "totp": totp::code_at(&secret, now())}),
        )
        .await;
        assert_eq!(
            expect_error(status, &body, 423, "AccessDeniedException")["error_data"]["operator"],
            json!(["LOCKED"])
        );
        // Every attempt is in the trail.
        let sign_ins: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM operator_audit WHERE action = 'session.sign_in'")
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        assert!(sign_ins >= 11, "{sign_ins}");
        // Sign-out clears the cookie and ends the session.
        let response = op.http.delete(url(&app, "/session")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        assert!(response.headers()["set-cookie"].to_str().unwrap().contains("Max-Age=0"));
        let (status, _) = get(&op.http, &app, "/session").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        // A cross-site POST is refused.
        let response = http
            .post(url(&app, "/session"))
            .header("origin", "https://evil.example")
            .json(&json!({"email": "ann@casino.test", "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        app.finish().await;
    }
}

#[tokio::test]
async fn corrections_above_the_limit_need_a_second_operator_and_move_money_through_the_ledger() {
    for backend in backends() {
        let app = spawn(backend).await;
        let first = operator(&app, "fin1@casino.test", "finance").await;
        let second = operator(&app, "fin2@casino.test", "finance").await;
        let player = app.register(&app.browser(), "corrected@example.com").await;
        let user_id = player["id"].as_i64().unwrap_or_else(|| player["user_id"].as_i64().unwrap());
        // Bad input changes nothing.
        let rows_before = audit_count(&app, "ok").await;
        for (body, field) in [
            (
                json!({"user_id": user_id, "direction": "up", "amount": 100, "currency": "USD", "reason_code": "goodwill", "reason": "x"}),
                "direction",
            ),
            (
                json!({"user_id": user_id, "direction": "credit", "amount": -5, "currency": "USD", "reason_code": "goodwill", "reason": "x"}),
                "amount",
            ),
            (
                json!({"user_id": user_id, "direction": "credit", "amount": 100, "currency": "EUR", "reason_code": "goodwill", "reason": "x"}),
                "currency",
            ),
            (
                json!({"user_id": user_id, "direction": "credit", "amount": 100, "currency": "USD", "reason_code": "bribe", "reason": "x"}),
                "reason_code",
            ),
            (
                json!({"user_id": user_id, "direction": "credit", "amount": 100, "currency": "USD", "reason_code": "goodwill", "reason": " "}),
                "reason",
            ),
            (
                json!({"user_id": 999_999, "direction": "credit", "amount": 100, "currency": "USD", "reason_code": "goodwill", "reason": "x"}),
                "user_id",
            ),
        ] {
            let (status, answer) = post(&first.http, &app, "/corrections", &body).await;
            let error = expect_error(status, &answer, 400, "InvalidParameterException");
            assert!(error["error_data"][field].is_array(), "{field}: {answer}");
        }
        assert_eq!(audit_count(&app, "ok").await, rows_before);
        assert_eq!(main_balance(&app, user_id).await, 0);
        // Below the limit: applied at once.
        let (status, small) = post(&first.http, &app, "/corrections", &json!({"user_id": user_id, "direction": "credit", "amount": 1050, "currency": "USD", "reason_code": "goodwill", "reason": "sorry"})).await;
        assert_eq!(status, StatusCode::CREATED, "{small}");
        assert_eq!(small["state"], "applied");
        assert_eq!(main_balance(&app, user_id).await, 1050);
        // A debit beyond the balance: refused, nothing moves.
        let (status, answer) = post(&first.http, &app, "/corrections", &json!({"user_id": user_id, "direction": "debit", "amount": 2000, "currency": "USD", "reason_code": "error", "reason": "typo"})).await;
        assert_eq!(
            expect_error(status, &answer, 400, "InvalidParameterException")["error_data"]["amount"],
            json!(["INSUFFICIENT_FUNDS"])
        );
        assert_eq!(main_balance(&app, user_id).await, 1050);
        // At the limit: waits for a second operator.
        let (status, big) = post(&first.http, &app, "/corrections", &json!({"user_id": user_id, "direction": "credit", "amount": 5000, "currency": "USD", "reason_code": "chargeback", "reason": "bank reversed"})).await;
        assert_eq!(status, StatusCode::CREATED, "{big}");
        assert_eq!(big["state"], "pending_approval");
        assert_eq!(main_balance(&app, user_id).await, 1050);
        let id = big["id"].as_i64().unwrap();
        let (status, answer) =
            post(&first.http, &app, &format!("/corrections/{id}/approve"), &json!({"reason": "ok"})).await;
        assert_eq!(
            expect_error(status, &answer, 403, "AccessDeniedException")["error_data"]["approver"],
            json!(["FOUR_EYES"])
        );
        assert_eq!(main_balance(&app, user_id).await, 1050);
        let (status, answer) =
            get(&first.http, &app, "/corrections?filter=%7B%22state%22%3A%22pending_approval%22%7D").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(answer.as_array().unwrap().len(), 1);
        let (status, applied) =
            post(&second.http, &app, &format!("/corrections/{id}/approve"), &json!({"reason": "checked the bank"}))
                .await;
        assert_eq!(status, StatusCode::OK, "{applied}");
        assert_eq!(applied["state"], "applied");
        assert_eq!(applied["decided_by"], second.id);
        assert_eq!(main_balance(&app, user_id).await, 6050);
        let (status, _) =
            post(&second.http, &app, &format!("/corrections/{id}/approve"), &json!({"reason": "again"})).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(main_balance(&app, user_id).await, 6050);
        // The player's page and ledger show it; the ledger's invariants hold.
        let (_, page) = get(&second.http, &app, &format!("/players/{user_id}")).await;
        assert_eq!(page["balances"]["main"], json!({"amount": 6050, "currency": "USD"}));
        let (_, moves) = get(&second.http, &app, &format!("/ledger?filter=%7B%22user_id%22%3A{user_id}%7D")).await;
        assert_eq!(moves.as_array().unwrap().iter().filter(|m| m["kind"] == "balance_correction").count(), 2);
        ledger_is_clean(&app).await;
        let output = app.cli(&["ledger", "check"]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        // The trail: who asked, who approved, the refusal, with balances before and after.
        let (_, trail) = get(
            &second.http,
            &app,
            &format!("/audit?filter=%7B%22user_id%22%3A{user_id}%7D&sort=%5B%22id%22%2C%22ASC%22%5D"),
        )
        .await;
        let actions: Vec<(String, String)> = trail
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["action"].as_str().unwrap().to_owned(), r["outcome"].as_str().unwrap().to_owned()))
            .collect();
        assert_eq!(
            actions,
            [
                ("corrections.create", "ok"),
                ("corrections.create", "ok"),
                ("corrections.approve", "denied"),
                ("corrections.approve", "ok")
            ]
            .map(|(a, o)| (a.to_owned(), o.to_owned()))
        );
        let approval = &trail.as_array().unwrap()[3];
        assert_eq!(approval["operator_id"], second.id);
        assert_eq!(approval["before"]["balance"], 1050);
        assert_eq!(approval["after"]["balance"], 6050);
        assert_eq!(approval["reason"], "checked the bank");
        app.finish().await;
    }
}

#[tokio::test]
async fn the_four_eyes_limit_is_the_currencys_own_when_configured() {
    for backend in backends() {
        // 50.00 for every currency but USD, whose limit is 1,000.00.
        let env = [ENV[0], ENV[1], ("CROUPIER_FOUR_EYES_LIMITS", "USD:100000")];
        let app = TestApp::spawn_with(backend, &env, |_| {}).await;
        let first = operator(&app, "fin1@casino.test", "finance").await;
        let player = app.register(&app.browser(), "limits@example.com").await;
        let user_id = player["id"].as_i64().unwrap_or_else(|| player["user_id"].as_i64().unwrap());
        let correction = |amount: i64| json!({"user_id": user_id, "direction": "credit", "amount": amount, "currency": "USD", "reason_code": "goodwill", "reason": "limits"});
        // Above the default (5000) but below USD's own limit: applied at once.
        let (status, small) = post(&first.http, &app, "/corrections", &correction(90_000)).await;
        assert_eq!(status, StatusCode::CREATED, "{small}");
        assert_eq!(small["state"], "applied");
        assert_eq!(main_balance(&app, user_id).await, 90_000);
        // At USD's limit: waits for a second operator; nothing moves.
        let (status, big) = post(&first.http, &app, "/corrections", &correction(100_000)).await;
        assert_eq!(status, StatusCode::CREATED, "{big}");
        assert_eq!(big["state"], "pending_approval");
        assert_eq!(main_balance(&app, user_id).await, 90_000);
        app.finish().await;
    }
}

#[tokio::test]
async fn a_correction_sent_again_with_its_request_id_moves_money_once() {
    for backend in backends() {
        let app = spawn(backend).await;
        let first = operator(&app, "idem1@casino.test", "finance").await;
        let second = operator(&app, "idem2@casino.test", "finance").await;
        let player = app.register(&app.browser(), "idempotent@example.com").await;
        let user_id = player["id"].as_i64().unwrap_or_else(|| player["user_id"].as_i64().unwrap());
        let body = json!({"user_id": user_id, "direction": "credit", "amount": 700, "currency": "USD",
                          "reason_code": "goodwill", "reason": "sorry", "request_id": "console-1"});
        // Sent twice at once and once more after: one correction, one posting.
        let (a, b) = tokio::join!(
            post(&first.http, &app, "/corrections", &body),
            post(&first.http, &app, "/corrections", &body)
        );
        let (status, again) = post(&first.http, &app, "/corrections", &body).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        for (status, answer) in [a, b] {
            assert!(matches!(status, StatusCode::OK | StatusCode::CREATED), "{status} {answer}");
            assert_eq!(answer["id"], again["id"], "{answer}");
        }
        assert_eq!(again["state"], "applied");
        assert_eq!(main_balance(&app, user_id).await, 700);
        // The same id for another correction is refused and moves nothing.
        let other = json!({"user_id": user_id, "direction": "credit", "amount": 900, "currency": "USD",
                           "reason_code": "goodwill", "reason": "sorry", "request_id": "console-1"});
        let (status, answer) = post(&first.http, &app, "/corrections", &other).await;
        assert_eq!(
            expect_error(status, &answer, 400, "InvalidParameterException")["error_data"]["request_id"],
            json!(["DUPLICATE"])
        );
        let mut bad = body.clone();
        bad["request_id"] = json!("bad id!");
        let (status, answer) = post(&first.http, &app, "/corrections", &bad).await;
        assert_eq!(
            expect_error(status, &answer, 400, "InvalidParameterException")["error_data"]["request_id"],
            json!(["INVALID"])
        );
        assert_eq!(main_balance(&app, user_id).await, 700);
        // Another operator's key is their own.
        let (status, theirs) = post(&second.http, &app, "/corrections", &body).await;
        assert_eq!(status, StatusCode::CREATED, "{theirs}");
        assert_ne!(theirs["id"], again["id"]);
        assert_eq!(main_balance(&app, user_id).await, 1400);
        ledger_is_clean(&app).await;
        app.finish().await;
    }
}

#[tokio::test]
async fn the_withdrawal_queue_goes_pending_in_review_approved_paid_with_four_eyes() {
    for backend in backends() {
        let app = spawn(backend).await;
        let first = operator(&app, "w1@casino.test", "finance").await;
        let second = operator(&app, "w2@casino.test", "finance").await;
        let support = operator(&app, "s@casino.test", "support").await;
        let client = verified_player(&app, "queue@example.com").await;
        deposit(&app, &client, "sandbox_card", "300").await;
        let mut ids = Vec::new();
        for amount in ["100", "20", "10"] {
            let (status, body) =
                app.post_as(&client, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", amount)]).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            ids.push(body["data"]["id"].as_str().unwrap().to_owned());
        }
        let big = &ids[0];
        let (_, list) = get(&support.http, &app, "/withdrawals?filter=%7B%22state%22%3A%22pending%22%7D").await;
        assert_eq!(list.as_array().unwrap().len(), 3);
        // Reasons are required; paid before approval is a state conflict.
        let (status, body) = post(&first.http, &app, &format!("/withdrawals/{big}/review"), &json!({})).await;
        assert_eq!(
            expect_error(status, &body, 400, "InvalidParameterException")["error_data"]["reason"],
            json!(["REQUIRED"])
        );
        let (status, body) =
            post(&first.http, &app, &format!("/withdrawals/{big}/paid"), &json!({"reason": "x"})).await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        assert_eq!(body["error"]["error_data"]["state"], json!(["pending"]));
        let (status, body) =
            post(&first.http, &app, &format!("/withdrawals/{big}/review"), &json!({"reason": "looking"})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["state"], "in_review");
        // Nor can the automation token's older route pay it without the back office's approvals;
        // its attempt is audited as denied, as the console's are.
        let denied_before = audit_count(&app, "denied").await;
        let response = reqwest::Client::new()
            .post(app.url(&format!("/admin/withdrawals/{big}/approve")))
            .header("authorization", format!("Bearer {TOKEN}"))
            .send()
            .await
            .unwrap();
        let (status, body) = read_json(response).await;
        assert_eq!(
            expect_error(status, &body, 403, "AccessDeniedException")["error_data"]["approver"],
            json!(["FOUR_EYES"])
        );
        assert_eq!(audit_count(&app, "denied").await, denied_before + 1);
        let (action, target, refused): (String, String, String) = sqlx::query_as(
            "SELECT action, target_id, after_json FROM operator_audit WHERE outcome = 'denied' ORDER BY id DESC LIMIT 1",
        )
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!((action.as_str(), target.as_str()), ("withdrawals.approve", big.as_str()));
        assert!(refused.contains("FOUR_EYES"), "{refused}");
        // 100.00 is above the 50.00 limit: the first approval waits for another operator.
        let (status, body) =
            post(&first.http, &app, &format!("/withdrawals/{big}/approve"), &json!({"reason": "docs fine"})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["state"], "in_review");
        assert_eq!(body["needs_second_approval"], true);
        let (status, body) =
            post(&first.http, &app, &format!("/withdrawals/{big}/approve"), &json!({"reason": "again"})).await;
        assert_eq!(
            expect_error(status, &body, 403, "AccessDeniedException")["error_data"]["approver"],
            json!(["FOUR_EYES"])
        );
        let (status, body) =
            post(&second.http, &app, &format!("/withdrawals/{big}/approve"), &json!({"reason": "agree"})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["state"], "approved");
        assert_eq!(body["approvals"].as_array().unwrap().len(), 2);
        let (status, body) =
            post(&second.http, &app, &format!("/withdrawals/{big}/paid"), &json!({"reason": "sent"})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["state"], "paid");
        let history: Vec<(String, String)> = body["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["from"].as_str().unwrap().to_owned(), h["to"].as_str().unwrap().to_owned()))
            .collect();
        assert_eq!(
            history,
            [("pending", "in_review"), ("in_review", "in_review"), ("in_review", "approved"), ("approved", "paid")]
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
        // Bulk approval: within the limit only.
        let (status, body) = post(
            &first.http,
            &app,
            "/withdrawals/bulk-approve",
            &json!({"ids": [big, ids[1], ids[2]], "reason": "batch"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let results = body["results"].as_array().unwrap();
        assert_eq!(results[0]["ok"], false);
        assert_eq!(results[1]["ok"], true);
        assert_eq!(results[2]["ok"], true);
        // Reject returns the hold.
        let (status, body) =
            post(&first.http, &app, &format!("/withdrawals/{}/reject", ids[2]), &json!({"reason": "fraud check"}))
                .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["state"], "rejected");
        // The payout and the rejection are audited once each, written with their postings.
        let decisions: Vec<(String, Option<String>, String, String)> = sqlx::query_as(
            "SELECT action, target_id, before_json, after_json FROM operator_audit \
             WHERE action IN ('withdrawals.paid', 'withdrawals.reject') ORDER BY id",
        )
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        let decisions: Vec<(&str, String, Value, Value)> = decisions
            .iter()
            .map(|(a, t, b, f)| {
                (a.as_str(), t.clone().unwrap(), serde_json::from_str(b).unwrap(), serde_json::from_str(f).unwrap())
            })
            .collect();
        assert_eq!(
            decisions,
            [
                ("withdrawals.paid", big.clone(), json!({"state": "approved"}), json!({"state": "paid"})),
                ("withdrawals.reject", ids[2].clone(), json!({"state": "approved"}), json!({"state": "rejected"})),
            ]
        );
        let (_, paid) = get(&support.http, &app, "/withdrawals?filter=%7B%22state%22%3A%22paid%22%7D").await;
        assert_eq!(paid.as_array().unwrap().len(), 1);
        ledger_is_clean(&app).await;
        // CSV export of the queue.
        let response = first.http.get(url(&app, "/withdrawals/export.csv")).send().await.unwrap();
        assert_eq!(response.headers()["content-type"], "text/csv; charset=utf-8");
        let text = response.text().await.unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(text.contains(",paid,"), "{text}");
        app.finish().await;
    }
}

#[tokio::test]
async fn players_are_found_banned_noted_and_the_trail_is_append_only_and_exported() {
    for backend in backends() {
        let app = spawn(backend).await;
        let support = operator(&app, "help@casino.test", "support").await;
        let admin = operator(&app, "boss@casino.test", "admin").await;
        let player_client = app.browser();
        let player = app.register(&player_client, "found.me@example.com").await;
        let user_id = player["id"].as_i64().unwrap_or_else(|| player["user_id"].as_i64().unwrap());
        let (status, found) =
            get(&support.http, &app, "/players?filter=%7B%22q%22%3A%22found.me%40example.com%22%7D").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(found.as_array().unwrap().len(), 1);
        assert_eq!(found[0]["id"], user_id);
        let response = support.http.get(url(&app, "/players?range=%5B0%2C9%5D")).send().await.unwrap();
        assert_eq!(response.headers()["content-range"], "players 0-0/1");
        let (status, body) = get(&support.http, &app, "/players?sort=%5B%22password_hash%22%2C%22ASC%22%5D").await;
        expect_error(status, &body, 400, "InvalidParameterException");
        let (status, body) = get(&support.http, &app, "/players?filter=%7Bnope").await;
        expect_error(status, &body, 400, "InvalidParameterException");
        // Ban: the player's next call is refused; the trail has before and after.
        let (status, body) =
            post(&support.http, &app, &format!("/players/{user_id}/ban"), &json!({"reason": ""})).await;
        expect_error(status, &body, 400, "InvalidParameterException");
        let (status, body) =
            post(&support.http, &app, &format!("/players/{user_id}/ban"), &json!({"reason": "abuse"})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["banned"], true);
        let (status, _) = app.get_as(&player_client, "account.getInfo", &[]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, body) =
            post(&support.http, &app, &format!("/players/{user_id}/unban"), &json!({"reason": "appeal"})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, note) =
            post(&support.http, &app, "/notes", &json!({"user_id": user_id, "text": "called about a bonus"})).await;
        assert_eq!(status, StatusCode::CREATED, "{note}");
        let (_, notes) = get(&support.http, &app, &format!("/notes?filter=%7B%22user_id%22%3A{user_id}%7D")).await;
        assert_eq!(notes[0]["operator_name"], "support help@casino.test");
        let (_, trail) = get(&admin.http, &app, "/audit?filter=%7B%22action%22%3A%22players.ban%22%7D").await;
        assert_eq!(trail[0]["before"]["status"], "active");
        assert_eq!(trail[0]["after"]["status"], "banned");
        assert_eq!(trail[0]["reason"], "abuse");
        // Nobody edits the trail, not even through SQL.
        let pool = app.state.db().pool();
        assert!(sqlx::query("UPDATE operator_audit SET reason = 'nothing'").execute(pool).await.is_err());
        assert!(sqlx::query("DELETE FROM operator_audit").execute(pool).await.is_err());
        // CSV export with the same filters.
        let response = admin
            .http
            .get(url(&app, "/audit/export.csv?filter=%7B%22action%22%3A%22players.ban%22%7D"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.headers()["content-type"], "text/csv; charset=utf-8");
        assert!(response.headers()["content-disposition"].to_str().unwrap().starts_with("attachment"));
        let text = response.text().await.unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("id,at,operator_id"));
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[1].contains("players.ban") && lines[1].contains("abuse"));
        // The system page and maintenance switch; reports.
        let (status, system) =
            post(&admin.http, &app, "/system/maintenance", &json!({"on": true, "reason": "upgrade"})).await;
        assert_eq!(status, StatusCode::OK, "{system}");
        assert_eq!(system["maintenance"]["on"], true);
        post(&admin.http, &app, "/system/maintenance", &json!({"on": false, "reason": "done"})).await;
        let (status, report) =
            get(&admin.http, &app, "/reports/summary?from=2026-01-01&to=2026-01-07&currency=USD").await;
        assert_eq!(status, StatusCode::OK, "{report}");
        assert_eq!(report["days"].as_array().unwrap().len(), 7);
        let (status, body) = get(&admin.http, &app, "/reports/summary?from=2026-02-30").await;
        expect_error(status, &body, 400, "InvalidParameterException");
        let switched: Vec<(String, Option<i64>, String)> = sqlx::query_as(
            "SELECT action, operator_id, after_json FROM operator_audit WHERE action = 'system.maintenance' ORDER BY id",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        assert_eq!(switched.len(), 2, "one row per switch: {switched:?}");
        assert_eq!((switched[0].1, switched[0].2.as_str()), (Some(admin.id), r#"{"on":true}"#));
        // The feature admin routes through the gate: allowed, and a change audited.
        let (status, campaigns) = get(&admin.http, &app, "/admin/campaigns").await;
        assert_eq!(status, StatusCode::OK, "{campaigns}");
        // A verification decision through the gate: the protection feature's own row, written
        // with the change (the gate adds no generic one).
        let (status, body) = post(
            &support.http,
            &app,
            &format!("/admin/players/{user_id}/verification"),
            &json!({"status": "verified", "reason": "documents checked"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let rows: Vec<(String, Option<i64>, Option<String>, String)> = sqlx::query_as(
            "SELECT action, operator_id, reason, after_json FROM operator_audit \
             WHERE user_id = $1 AND action LIKE '%verification%' OR action LIKE 'admin.post%verification' ORDER BY id",
        )
        .bind(user_id)
        .fetch_all(pool)
        .await
        .unwrap();
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(
            (rows[0].0.as_str(), rows[0].1, rows[0].2.as_deref()),
            ("players.verification", Some(support.id), Some("documents checked"))
        );
        assert_eq!(serde_json::from_str::<Value>(&rows[0].3).unwrap()["status"], "verified");
        // Loyalty points given through the gate: the change's own row, written with it (one row
        // per action); a repeated key changes nothing and writes no row.
        let points = json!({"user_id": user_id, "points": 250, "reason": "goodwill", "key": "gate-points"});
        for _ in 0..2 {
            let (status, body) = post(&admin.http, &app, "/admin/loyalty/points", &points).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        type Audit = (String, Option<i64>, Option<String>, Option<String>);
        let rows: Vec<Audit> = sqlx::query_as(
            "SELECT action, operator_id, reason, target_id FROM operator_audit \
             WHERE action = 'loyalty.points' OR action LIKE 'admin.post%loyalty%' ORDER BY id",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(
            (rows[0].0.as_str(), rows[0].1, rows[0].2.as_deref(), rows[0].3.as_deref()),
            ("loyalty.points", Some(admin.id), Some("goodwill"), Some("adjust:gate-points"))
        );
        // Campaigns and promo codes through the gate: each change's own row, written with it,
        // and no generic one; the CLI's update is audited as the CLI.
        let spring = crate::bonuses::campaign("gate-spring", "promo_code", "fixed", 500, 5);
        let (status, body) = post(&admin.http, &app, "/admin/campaigns", &serde_json::to_value(&spring).unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let campaign = body["data"]["id"].as_i64().unwrap_or_else(|| panic!("{body}"));
        let steps = [
            (format!("/admin/campaigns/{campaign}/pause"), json!({})),
            ("/admin/promo-codes".to_owned(), json!({"code": "gate-26", "campaign_id": campaign, "max_uses": 3})),
            ("/admin/promo-codes/gate-26/pause".to_owned(), json!({})),
            // Paused again: nothing changes and no row is written.
            ("/admin/promo-codes/gate-26/pause".to_owned(), json!({})),
        ];
        for (path, sent) in &steps {
            let (status, body) = post(&admin.http, &app, path, sent).await;
            assert_eq!(status, StatusCode::OK, "{path}: {body}");
        }
        // A refused change (the code is unknown) writes nothing.
        let (status, _) = post(&admin.http, &app, "/admin/promo-codes/nope/pause", &json!({})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let cli = croupier_server::features::backoffice::trail::Actor::cli();
        spring.save(&app.state, &cli, Some(campaign)).await.unwrap();
        type Change = (String, Option<i64>, String, Option<String>, Option<String>, String);
        let rows: Vec<Change> = sqlx::query_as(
            "SELECT action, operator_id, role, target_id, before_json, after_json FROM operator_audit \
             WHERE action LIKE 'campaigns.%' OR action LIKE 'promo_codes.%' OR action LIKE 'admin.%campaigns%' \
             OR action LIKE 'admin.%promo-codes%' ORDER BY id",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        let seen: Vec<(&str, Option<i64>, &str, Option<&str>)> =
            rows.iter().map(|r| (r.0.as_str(), r.1, r.2.as_str(), r.3.as_deref())).collect();
        let (id, role) = (campaign.to_string(), "admin");
        assert_eq!(
            seen,
            vec![
                ("campaigns.create", Some(admin.id), role, Some(id.as_str())),
                ("campaigns.status", Some(admin.id), role, Some(id.as_str())),
                ("promo_codes.create", Some(admin.id), role, Some("GATE-26")),
                ("promo_codes.status", Some(admin.id), role, Some("GATE-26")),
                ("campaigns.update", None, "automation", Some(id.as_str())),
            ]
        );
        let after = |i: usize| serde_json::from_str::<Value>(&rows[i].5).unwrap();
        assert_eq!(after(0)["sysname"], "gate-spring");
        assert_eq!(
            (rows[1].4.as_deref(), after(1)["status"].as_str()),
            (Some(r#"{"status":"active"}"#), Some("paused"))
        );
        assert_eq!((after(2)["campaign_id"].as_i64(), after(2)["max_uses"].as_i64()), (Some(campaign), Some(3)));
        assert_eq!(
            (rows[3].4.as_deref(), after(3)["status"].as_str()),
            (Some(r#"{"status":"active"}"#), Some("paused"))
        );
        assert_eq!(rows[4].4.as_deref(), Some(r#"{"status":"paused"}"#), "the update's status before");
        // A jackpot made and paused through the gate: the feature's rows, no generic one.
        let pot = json!({"title_en": "Gate Pot", "title_fr": "Pot", "currency": "USD", "seed": 1_000,
                         "contribution_bps": 100, "trigger": "must_drop", "must_drop_before": 5_000});
        let (status, body) = post(&admin.http, &app, "/admin/jackpots", &pot).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let pot = body["data"]["id"].as_i64().unwrap_or_else(|| panic!("{body}"));
        for _ in 0..2 {
            // The second pause changes nothing and writes no row.
            let (status, body) = post(&admin.http, &app, &format!("/admin/jackpots/{pot}/pause"), &json!({})).await;
            assert_eq!((status, body["data"]["status"].as_str()), (StatusCode::OK, Some("paused")), "{body}");
        }
        let rows: Vec<(String, Option<i64>)> = sqlx::query_as(
            "SELECT action, operator_id FROM operator_audit WHERE action LIKE 'jackpots.%' OR action LIKE 'admin.%jackpots%' ORDER BY id",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        assert_eq!(
            rows,
            [("jackpots.create".to_owned(), Some(admin.id)), ("jackpots.status".to_owned(), Some(admin.id))]
        );
        // A free-spin pack and the loyalty programme's settings through the gate: the feature's
        // rows, written with the change, and no generic one.
        let pack = json!({"user_id": user_id, "game": "lucky-sevens", "currency": "USD", "bet": 100, "count": 2});
        let (status, body) = post(&admin.http, &app, "/admin/freespins", &pack).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let pack = body["data"]["id"].as_i64().unwrap_or_else(|| panic!("{body}"));
        let response = admin
            .http
            .put(url(&app, "/admin/loyalty/settings"))
            .json(&json!({"active": false, "levels_drop": true}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        type Audited = (String, Option<i64>, Option<String>, Option<i64>, Option<String>, Option<String>);
        let rows: Vec<Audited> = sqlx::query_as(
            "SELECT action, operator_id, target_id, user_id, before_json, after_json FROM operator_audit \
             WHERE (action LIKE 'freespins.%' OR action LIKE 'loyalty.%' OR action LIKE 'admin.%freespins%' \
             OR action LIKE 'admin.%loyalty%') AND action <> 'loyalty.points' ORDER BY id",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        type Seen<'a> = (&'a str, Option<i64>, Option<&'a str>, Option<i64>);
        let seen: Vec<Seen> = rows.iter().map(|r| (r.0.as_str(), r.1, r.2.as_deref(), r.3)).collect();
        let player = user_id.to_string();
        assert_eq!(
            seen,
            vec![
                ("freespins.grant", Some(admin.id), Some(player.as_str()), Some(user_id)),
                ("loyalty.settings", Some(admin.id), Some("1"), None),
            ]
        );
        let after = |i: usize| serde_json::from_str::<Value>(rows[i].5.as_deref().unwrap_or("null")).unwrap();
        assert_eq!(
            (after(0)["pack_id"].as_i64(), after(0)["count"].as_i64(), after(0)["win_account"].as_str()),
            (Some(pack), Some(2), Some("main"))
        );
        assert_eq!(rows[1].4.as_deref(), Some(r#"{"active":true,"levels_drop":false}"#), "the settings before");
        assert_eq!(after(1), json!({"active": false, "levels_drop": true}));
        app.finish().await;
    }
}

#[tokio::test]
async fn the_console_page_is_served_noindexed_and_the_api_never_falls_back_to_it() {
    let app = spawn(Backend::Sqlite).await;
    let http = reqwest::Client::new();
    let response = http.get(app.url("/backoffice")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(response.text().await.unwrap().contains("npm run build"));
    std::fs::write(app.state.config().web_dir.join("backoffice.html"), "<!doctype html><title>Back office</title>")
        .unwrap();
    for path in ["/backoffice", "/backoffice/", "/backoffice/players/12/show"] {
        let response = http.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["x-robots-tag"], "noindex, nofollow");
        assert!(response.headers().contains_key("content-security-policy"));
        assert!(response.text().await.unwrap().contains("Back office"));
    }
    let (status, body) = read_json(http.get(app.url("/backoffice/api/nothing-here")).send().await.unwrap()).await;
    expect_error(status, &body, 404, "MethodNotFoundException");
    app.finish().await;
}

#[tokio::test]
async fn the_cli_creates_lists_and_disables_operators_without_a_password_in_argv() {
    let app = spawn(Backend::Sqlite).await;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_croupier-server"))
        .args(["admin", "operators", "create", "--email", "first@casino.test", "--name", "First", "--role", "admin"])
        .env("DATABASE_URL", app.database_url())
        .env("CROUPIER_WEB_DIR", "/nonexistent")
        .env_remove("CROUPIER_CONFIG")
        .env_remove("CROUPIER_OPERATOR_PASSWORD")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(b"a long enough secret\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let output = app.cli(&[
        "admin",
        "operators",
        "create",
        "--email",
        "x@casino.test",
        "--name",
        "X",
        "--role",
        "admin",
        "--password",
        "inline",
    ]);
    assert!(!output.status.success());
    let listed = app.cli(&["admin", "operators", "list"]);
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.contains("first@casino.test") && text.contains("not enrolled"), "{text}");
    let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
    let (status, body) =
        post(&http, &app, "/session", &json!({"email": "first@casino.test", "password": "a long enough secret"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["enrolment"]["secret"].is_string());
    assert!(app.cli(&["admin", "operators", "disable", "first@casino.test"]).status.success());
    let (status, _) =
        post(&http, &app, "/session", &json!({"email": "first@casino.test", "password": "a long enough secret"})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    app.finish().await;
}
