//! Cashbacks: `cashbacks.get` for their owner only, with its filters and paging, and operators
//! creating them over `POST /admin/cashbacks`.

use crate::db_test;
use crate::helpers::{TestApp, expect_error, read_json};
use croupier_server::features::cashbacks::CreateRequest;
use reqwest::StatusCode;
use serde_json::{Value, json};

fn in_days(days: i64) -> i64 {
    croupier_server::db::now_ms() / 1000 + days * 86_400
}

async fn uid(app: &TestApp, client: &reqwest::Client) -> i64 {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["uid"].as_i64().unwrap()
}

/// Creates an active cashback of `amount` cents ending in `days` days; answers its id.
async fn promise(app: &TestApp, user_id: i64, amount: i64, days: i64, what: &str) -> i64 {
    CreateRequest {
        reason: None,
        request_id: None,
        user_id,
        amount,
        currency: "USD".into(),
        description_en: format!("{what} back"),
        description_fr: format!("{what} remboursé"),
        end_date: in_days(days),
    }
    .create(app.state.db())
    .await
    .unwrap()
}

fn ids(body: &Value) -> Vec<i64> {
    body["data"]["items"].as_array().unwrap().iter().map(|c| c["id"].as_i64().unwrap()).collect()
}

db_test!(async fn cashbacks_are_listed_for_their_owner_in_their_language(app) {
    let alice = app.browser();
    app.register(&alice, "alice@example.com").await;
    let bob = app.browser();
    app.register(&bob, "bob@example.com").await;
    let alice_id = uid(app, &alice).await;
    let bob_id = uid(app, &bob).await;
    let end = in_days(7);
    let mine = promise(app, alice_id, 1_250, 7, "10%").await;
    promise(app, bob_id, 900, 7, "5%").await;

    let (status, list) = app.get_as(&alice, "cashbacks.get", &[]).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["data"]["total"], 1, "only alice's own: {list}");
    let item = &list["data"]["items"][0];
    assert_eq!(item["id"], mine);
    assert_eq!(item["status"], "active");
    assert_eq!(item["description"], "10% back");
    assert_eq!(item["amount"], json!({"amount": "12.50", "currency": "USD"}));
    assert_eq!(item["paid_out_at"], Value::Null);
    assert_eq!(item["receiving_expired_at"], Value::Null);
    assert!((item["end_date"].as_i64().unwrap() - end).abs() <= 1, "{item}");

    let url = app.api_url("cashbacks.get", "fr", &[]);
    let (_, french) = read_json(alice.get(url).send().await.unwrap()).await;
    assert_eq!(french["data"]["items"][0]["description"], "10% remboursé");

    let (_, theirs) = app.get_as(&bob, "cashbacks.get", &[]).await;
    assert_eq!(theirs["data"]["total"], 1);
    assert_ne!(theirs["data"]["items"][0]["id"], mine);

    let (status, body) = app.api_get("cashbacks.get", &[]).await;
    expect_error(status, &body, 401, "AuthorizationException");
});

db_test!(async fn cashbacks_filter_by_status_sort_and_page(app) {
    let client = app.browser();
    app.register(&client, "saver@example.com").await;
    let user = uid(app, &client).await;
    let first = promise(app, user, 100, 30, "first").await;
    let second = promise(app, user, 200, 10, "second").await;
    let third = promise(app, user, 300, 20, "third").await;
    app.sql("UPDATE cashbacks SET status = $1 WHERE id = $2", "paid_out", second).await;

    let (_, all) = app.get_as(&client, "cashbacks.get", &[]).await;
    assert_eq!(all["data"]["total"], 3);
    assert_eq!(ids(&all), vec![third, second, first], "newest first by default");

    let (_, active) = app.get_as(&client, "cashbacks.get", &[("statuses", "active"), ("count", "1"), ("sort", "created_at"), ("order", "desc")]).await;
    assert_eq!(active["data"]["total"], 2, "{active}");
    assert_eq!(ids(&active), vec![third], "the newest active one");
    let (_, paid) = app.get_as(&client, "cashbacks.get", &[("statuses", "paid_out")]).await;
    assert_eq!(ids(&paid), vec![second]);
    assert_eq!(paid["data"]["items"][0]["status"], "paid_out");
    let (_, both) = app.get_as(&client, "cashbacks.get", &[("statuses", "active,paid_out"), ("fields", "id,status")]).await;
    assert_eq!(both["data"]["total"], 3);

    let (_, by_end) = app.get_as(&client, "cashbacks.get", &[("sort", "end_date"), ("order", "asc")]).await;
    assert_eq!(ids(&by_end), vec![second, third, first]);
    let (_, oldest) = app.get_as(&client, "cashbacks.get", &[("order", "asc")]).await;
    assert_eq!(ids(&oldest), vec![first, second, third]);
    let (_, page) = app.get_as(&client, "cashbacks.get", &[("order", "asc"), ("offset", "1"), ("count", "1")]).await;
    assert_eq!((page["data"]["total"].as_i64(), ids(&page)), (Some(3), vec![second]));
    let (_, past) = app.get_as(&client, "cashbacks.get", &[("offset", "5")]).await;
    assert_eq!((past["data"]["total"].as_i64(), ids(&past)), (Some(3), vec![]));

    for (param, value) in [
        ("offset", "-1"),
        ("count", "0"),
        ("count", "101"),
        ("sort", "amount"),
        ("order", "sideways"),
        ("statuses", "active,lost"),
    ] {
        let (status, body) = app.get_as(&client, "cashbacks.get", &[(param, value)]).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert!(error["error_data"][param].is_array(), "{param}={value} → {body}");
    }
});

/// Operators create cashbacks with the admin token, on both databases; every part is checked and a
/// refused request writes nothing.
#[tokio::test]
async fn operators_create_cashbacks_with_the_admin_token() {
    use crate::helpers::Backend;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && !crate::helpers::postgres_configured() {
            eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
            continue;
        }
        let app = TestApp::spawn_with(backend, &[("CROUPIER_ADMIN_TOKEN", "operator-token-123")], |_| {}).await;
        let client = app.browser();
        app.register(&client, "promised@example.com").await;
        let user = uid(&app, &client).await;
        let http = reqwest::Client::new();
        let create = |body: Value, token: &'static str| {
            http.post(app.url("/admin/cashbacks")).header("authorization", token).json(&body).send()
        };
        let good = json!({
            "user_id": user, "amount": 500, "currency": "USD",
            "description_en": "10% of your week's losses", "description_fr": "10 % de vos pertes de la semaine",
            "end_date": in_days(7),
        });
        for token in ["", "Bearer wrong", "operator-token-123"] {
            let (status, body) = read_json(create(good.clone(), token).await.unwrap()).await;
            expect_error(status, &body, 401, "AuthorizationException");
        }
        let with = |field: &str, value: Value| {
            let mut body = good.clone();
            body[field] = value;
            body
        };
        for (body, field) in [
            (with("amount", json!(0)), "amount"),
            (with("currency", json!("XXX")), "currency"),
            (with("description_en", json!("  ")), "description_en"),
            (with("description_fr", json!("x".repeat(1001))), "description_fr"),
            (with("end_date", json!(in_days(-1))), "end_date"),
            (with("user_id", json!(999_999)), "user_id"),
        ] {
            let (status, answer) = read_json(create(body.clone(), "Bearer operator-token-123").await.unwrap()).await;
            let error = expect_error(status, &answer, 422, "InvalidParameterException");
            assert!(error["error_data"][field].is_array(), "{body} → {answer}");
        }
        let (status, answer) =
            read_json(create(json!({"user": user}), "Bearer operator-token-123").await.unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        let (_, none) = app.get_as(&client, "cashbacks.get", &[]).await;
        assert_eq!(none["data"]["total"], 0, "refused requests write nothing: {none}");

        let (status, answer) = read_json(create(good.clone(), "Bearer operator-token-123").await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let (_, list) = app.get_as(&client, "cashbacks.get", &[("statuses", "active")]).await;
        assert_eq!(list["data"]["items"][0]["id"], answer["data"]["id"], "{list}");
        assert_eq!(list["data"]["items"][0]["description"], "10% of your week's losses");
        assert_eq!(list["data"]["items"][0]["amount"]["amount"], "5.00");

        // With a request id and a reason: a retry answers the same promise, another body with the
        // same id is refused, and neither writes a second cashback.
        let keyed = with("request_id", json!("grant-7f3a"));
        let mut keyed = keyed;
        keyed["reason"] = json!("goodwill after a support ticket");
        let (status, first) = read_json(create(keyed.clone(), "Bearer operator-token-123").await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        let (status, again) = read_json(create(keyed.clone(), "Bearer operator-token-123").await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_eq!(again["data"]["id"], first["data"]["id"]);
        let mut other = keyed.clone();
        other["amount"] = json!(900);
        let (status, answer) = read_json(create(other, "Bearer operator-token-123").await.unwrap()).await;
        assert_eq!(
            expect_error(status, &answer, 422, "InvalidParameterException")["error_data"]["request_id"][0],
            "DUPLICATE"
        );
        for (field, value) in [("request_id", json!("no spaces here")), ("reason", json!("r".repeat(501)))] {
            let mut bad = keyed.clone();
            bad[field] = value;
            bad["request_id"] = if field == "request_id" { bad["request_id"].clone() } else { json!("grant-other") };
            let (status, answer) = read_json(create(bad.clone(), "Bearer operator-token-123").await.unwrap()).await;
            let error = expect_error(status, &answer, 422, "InvalidParameterException");
            assert!(error["error_data"][field].is_array(), "{bad} → {answer}");
        }
        let (_, list) = app.get_as(&client, "cashbacks.get", &[("statuses", "active")]).await;
        assert_eq!(list["data"]["total"], 2, "one promise per request id: {list}");
        let reason: Option<String> = sqlx::query_scalar("SELECT reason FROM cashbacks WHERE request_id = 'grant-7f3a'")
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(reason.as_deref(), Some("goodwill after a support ticket"));
        app.finish().await;
    }
}

/// Without `CROUPIER_ADMIN_TOKEN` the operator API is off.
#[tokio::test]
async fn the_cashback_admin_api_is_off_without_a_token() {
    let app = TestApp::spawn(crate::helpers::Backend::Sqlite).await;
    let response = reqwest::Client::new()
        .post(app.url("/admin/cashbacks"))
        .header("authorization", "Bearer anything")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let (status, body) = read_json(response).await;
    expect_error(status, &body, 401, "AuthorizationException");
    app.finish().await;
}

async fn main_balance(app: &TestApp, client: &reqwest::Client) -> String {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["balance_main"]["amount"].as_str().unwrap().to_owned()
}

db_test!(async fn a_cashback_is_paid_once_to_its_owner_and_can_be_declined(app) {
    let alice = app.browser();
    app.register(&alice, "alice@example.com").await;
    let bob = app.browser();
    app.register(&bob, "bob@example.com").await;
    let alice_id = uid(app, &alice).await;
    let paid = promise(app, alice_id, 1_250, 7, "10%").await.to_string();
    let declined = promise(app, alice_id, 500, 7, "5%").await.to_string();

    // Bad input and another player's id: refused, nothing moves.
    for (form, field, code) in [
        (vec![], "cashback_id", "REQUIRED"),
        (vec![("cashback_id", "0")], "cashback_id", "INVALID"),
        (vec![("cashback_id", "999999")], "cashback_id", "NOT_FOUND"),
    ] {
        let (status, body) = app.post_as(&alice, "cashbacks.payout", &form).await;
        let err = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(err["error_data"][field][0], code, "{body}");
    }
    let (status, body) = app.post_as(&alice, "cashbacks.payout", &[("cashback_id", "abc")]).await;
    assert_eq!(status.as_u16(), 422, "{body}");
    let (status, body) = app.post_as(&bob, "cashbacks.payout", &[("cashback_id", &paid)]).await;
    let err = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(err["error_data"]["cashback_id"][0], "NOT_FOUND", "{body}");
    let (status, body) = app.post_as(&bob, "cashbacks.remove", &[("cashback_id", &paid)]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(main_balance(app, &alice).await, "0.00");

    // Paid into main; pressed again (or retried) it pays nothing more and answers the same.
    let (status, first) = app.post_as(&alice, "cashbacks.payout", &[("cashback_id", &paid)]).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["data"]["status"], "paid_out");
    assert!(first["data"]["paid_out_at"].as_i64().is_some(), "{first}");
    let (status, again) = app.post_as(&alice, "cashbacks.payout", &[("cashback_id", &paid)]).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["data"], first["data"]);
    assert_eq!(main_balance(app, &alice).await, "12.50");
    // A paid cashback cannot be declined any more.
    let (status, body) = app.post_as(&alice, "cashbacks.remove", &[("cashback_id", &paid)]).await;
    let err = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(err["error_data"]["cashback_id"][0], "LOCKED", "{body}");

    // Declined: nothing moves, it can no longer be paid, and it leaves the default list.
    let (status, body) = app.post_as(&alice, "cashbacks.remove", &[("cashback_id", &declined)]).await;
    assert_eq!((status, body["data"]["status"].as_str()), (StatusCode::OK, Some("removed")), "{body}");
    let (status, body) = app.post_as(&alice, "cashbacks.payout", &[("cashback_id", &declined)]).await;
    let err = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(err["error_data"]["cashback_id"][0], "LOCKED", "{body}");
    assert_eq!(main_balance(app, &alice).await, "12.50");
    let (_, list) = app.get_as(&alice, "cashbacks.get", &[]).await;
    assert_eq!(ids(&list), vec![paid.parse::<i64>().unwrap()], "{list}");
    let (_, list) = app.get_as(&alice, "cashbacks.get", &[("statuses", "removed")]).await;
    assert_eq!(ids(&list), vec![declined.parse::<i64>().unwrap()], "{list}");

    let check = app.cli(&["ledger", "check"]);
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
});

db_test!(async fn a_cashback_past_its_claim_time_is_not_paid(app) {
    let alice = app.browser();
    app.register(&alice, "alice@example.com").await;
    let alice_id = uid(app, &alice).await;
    let id = promise(app, alice_id, 700, 7, "Late").await;
    sqlx::query("UPDATE cashbacks SET receiving_expired_at = $1 WHERE id = $2")
        .bind(croupier_server::db::now_ms() - 1_000)
        .bind(id)
        .execute(app.state.db().pool())
        .await
        .unwrap();
    let (status, body) = app.post_as(&alice, "cashbacks.payout", &[("cashback_id", &id.to_string())]).await;
    let err = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(err["error_data"]["cashback_id"][0], "CODE_EXPIRED", "{body}");
    assert_eq!(main_balance(app, &alice).await, "0.00");
});

const OPERATOR: &str = "Bearer operator-token-123";

async fn admin(app: &TestApp, method: reqwest::Method, path: &str, body: Option<Value>) -> (StatusCode, Value) {
    let mut request = reqwest::Client::new().request(method, app.url(path)).header("authorization", OPERATOR);
    if let Some(body) = body {
        request = request.json(&body);
    }
    read_json(request.send().await.unwrap()).await
}

/// The player's cashbacks of every status, by description.
async fn all_cashbacks(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    let statuses = "pending,active,paid_out,removed,expired,rejected";
    let (status, list) = app.get_as(client, "cashbacks.get", &[("statuses", statuses), ("order", "asc")]).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list["data"]["items"].as_array().unwrap().clone()
}

fn amounts(items: &[Value]) -> Vec<(String, String, String)> {
    items
        .iter()
        .map(|c| {
            (
                c["description"].as_str().unwrap().to_owned(),
                c["amount"]["amount"].as_str().unwrap().to_owned(),
                c["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Two programmes (a daily net-loss one paying real money, with an approval threshold, and a
/// turnover one paying a wagering bonus) close a period from what the players' wallet calls did
/// to their main balances: per game type, rollbacks taken back, winners and idle players left
/// out, once however often the close runs. Then the approval queue, claims, a decline and
/// expiry, and bad input refused on both databases.
#[tokio::test]
async fn programmes_close_periods_into_cashbacks_once_from_real_money_play() {
    use crate::games::{Aggregator, agg_game, agg_providers, funded};
    use crate::helpers::Backend;
    use croupier_server::features::cashbacks::close;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && !crate::helpers::postgres_configured() {
            eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
            continue;
        }
        let providers = agg_providers();
        let env = [
            ("CROUPIER_ADMIN_TOKEN", "operator-token-123"),
            ("CROUPIER_GAME_PROVIDERS", providers.as_str()),
            ("CROUPIER_CASHBACK_GRACE_SECONDS", "0"),
        ];
        let app = TestApp::spawn_with(backend, &env, |_| {}).await;
        agg_game(&app, "agg-slot", "slot").await;
        agg_game(&app, "agg-live", "live").await;
        let now_s = croupier_server::db::now_ms() / 1000;
        let programme = |sysname: &str, basis: &str, rates: Value, limits: Value, pays: &str| {
            json!({
                "sysname": sysname, "title_en": format!("{sysname} back"), "title_fr": format!("{sysname} remboursé"),
                "period": "daily", "starts_at": now_s - 3_600, "basis": basis, "rates": rates, "limits": limits,
                "claim_hours": 48, "pays": pays, "wager_multiplier": if pays == "bonus" { 5 } else { 0 },
            })
        };
        let losses = programme(
            "losses",
            "net_loss",
            json!({"slot": 1000, "*": 500}),
            json!({"USD": {"min": 100, "max": 5000, "approve_above": 250}}),
            "real",
        );
        let turnover =
            programme("turnover", "turnover", json!({"*": 100}), json!({"USD": {"min": 1, "max": 100000}}), "bonus");

        // Bad programmes are refused field by field, and without the token not at all.
        let mut bad = losses.clone();
        bad["period"] = json!("custom");
        bad["period_hours"] = json!(6);
        bad["rates"] = json!({"bingo": 100});
        bad["limits"] = json!({"USD": {"min": 500, "max": 100}});
        let (status, body) = admin(&app, reqwest::Method::POST, "/admin/cashback-programmes", Some(bad)).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        for field in ["period_hours", "rates.bingo", "limits.USD.max"] {
            assert!(error["error_data"][field].is_array(), "{field}: {body}");
        }
        let response = reqwest::Client::new().get(app.url("/admin/cashback-programmes")).send().await.unwrap();
        let (status, body) = read_json(response).await;
        expect_error(status, &body, 401, "AuthorizationException");
        for body in [losses.clone(), turnover] {
            let (status, created) = admin(&app, reqwest::Method::POST, "/admin/cashback-programmes", Some(body)).await;
            assert_eq!(status, StatusCode::OK, "{created}");
        }
        let (status, taken) =
            admin(&app, reqwest::Method::POST, "/admin/cashback-programmes", Some(losses.clone())).await;
        let error = expect_error(status, &taken, 422, "InvalidParameterException");
        assert_eq!(error["error_data"]["sysname"][0], "TAKEN");
        let (_, listed) = admin(&app, reqwest::Method::GET, "/admin/cashback-programmes", None).await;
        let programmes = listed["data"]["items"].as_array().unwrap().clone();
        assert_eq!(programmes.len(), 2, "{listed}");
        let losses_id = programmes[0]["id"].as_i64().unwrap();
        let mut moved = losses.clone();
        moved["basis"] = json!("turnover");
        let (status, body) =
            admin(&app, reqwest::Method::PUT, &format!("/admin/cashback-programmes/{losses_id}"), Some(moved)).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"]["basis"][0], "LOCKED", "closed periods were computed with it");

        // Alice loses 20.00 on slots and 20.00 live; a rolled-back bet counts for nothing.
        let alice = funded(&app, "alice@example.com", 10_000).await;
        let slot = Aggregator::launched(&app, &alice, "agg-slot").await;
        let bet = |id: &str, round: &str, amount: i64| json!({"transaction_uuid": id, "round": round, "amount": amount, "currency": "USD"});
        let win = |id: &str, round: &str, amount: i64| json!({"transaction_uuid": id, "round": round, "amount": amount, "currency": "USD", "round_closed": true});
        assert_eq!(slot.call("bet", bet("a-1", "ar-1", 3_000)).await["status"], "RS_OK");
        assert_eq!(slot.call("win", win("a-2", "ar-1", 1_000)).await["status"], "RS_OK");
        assert_eq!(slot.call("bet", bet("a-3", "ar-2", 500)).await["status"], "RS_OK");
        let rollback = json!({"transaction_uuid": "a-4", "reference_transaction_uuid": "a-3", "round": "ar-2", "round_closed": true, "currency": "USD"});
        assert_eq!(slot.call("rollback", rollback).await["status"], "RS_OK");
        let live = Aggregator::launched(&app, &alice, "agg-live").await;
        assert_eq!(live.call("bet", bet("a-5", "ar-3", 2_000)).await["status"], "RS_OK");
        assert_eq!(live.call("win", win("a-6", "ar-3", 0)).await["status"], "RS_OK");
        // Bob wins overall; Carol loses 15.00 on slots; Dan only deposits.
        let bob = funded(&app, "bob@example.com", 10_000).await;
        let bob_slot = Aggregator::launched(&app, &bob, "agg-slot").await;
        assert_eq!(bob_slot.call("bet", bet("b-1", "br-1", 1_000)).await["status"], "RS_OK");
        assert_eq!(bob_slot.call("win", win("b-2", "br-1", 5_000)).await["status"], "RS_OK");
        let carol = funded(&app, "carol@example.com", 10_000).await;
        let carol_slot = Aggregator::launched(&app, &carol, "agg-slot").await;
        assert_eq!(carol_slot.call("bet", bet("c-1", "cr-1", 1_500)).await["status"], "RS_OK");
        let dan = funded(&app, "dan@example.com", 10_000).await;

        // Not yet: the period has not ended.
        assert_eq!(close::close_due(&app.state, croupier_server::db::now_ms()).await.unwrap(), 0);
        let later = (now_s + 24 * 3_600) * 1000;
        assert_eq!(close::close_due(&app.state, later).await.unwrap(), 2, "both programmes' first period");
        assert_eq!(close::close_due(&app.state, later).await.unwrap(), 0, "closed once");
        // A close run again by hand (a second replica, a restart) writes nothing more.
        let programme =
            croupier_server::features::cashbacks::programmes::load(app.state.db(), losses_id).await.unwrap().unwrap();
        let pace = close::Pace { grace_ms: 0, chunk: 1, pause: std::time::Duration::ZERO };
        let start = (now_s - 3_600) * 1000;
        assert_eq!(close::close_period(&app.state, &programme, start, pace).await.unwrap(), 0);

        // 10 % of 20.00 + 5 % of 20.00 = 3.00, above 2.50: waits for an operator. Turnover 1 %.
        let pending = |s: &str| (s.to_owned(), "3.00".to_owned(), "pending".to_owned());
        let row = |d: &str, a: &str, s: &str| (d.to_owned(), a.to_owned(), s.to_owned());
        assert_eq!(
            amounts(&all_cashbacks(&app, &alice).await),
            vec![pending("losses back"), row("turnover back", "0.50", "active")]
        );
        assert_eq!(
            amounts(&all_cashbacks(&app, &bob).await),
            vec![row("turnover back", "0.10", "active")],
            "no loss, no loss cashback"
        );
        assert_eq!(
            amounts(&all_cashbacks(&app, &carol).await),
            vec![row("losses back", "1.50", "active"), row("turnover back", "0.15", "active")]
        );
        assert!(all_cashbacks(&app, &dan).await.is_empty(), "nothing played, nothing back");

        // The approval queue: a pending cashback cannot be claimed; rejecting needs a reason.
        let (_, queue) = admin(&app, reqwest::Method::GET, "/admin/cashbacks?status=pending", None).await;
        let queued = queue["data"]["items"].as_array().unwrap().clone();
        assert_eq!(queued.len(), 1, "{queue}");
        assert_eq!(
            (queued[0]["amount"]["amount"].as_str(), queued[0]["basis_amount"].as_str()),
            (Some("3.00"), Some("40.00"))
        );
        let pending_id = queued[0]["id"].as_i64().unwrap().to_string();
        let (status, body) = app.post_as(&alice, "cashbacks.payout", &[("cashback_id", &pending_id)]).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"]["cashback_id"][0], "LOCKED");
        let path = format!("/admin/cashbacks/{pending_id}/reject");
        let (status, body) = admin(&app, reqwest::Method::POST, &path, Some(json!({}))).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"]["reason"][0], "REQUIRED");
        let (status, body) = admin(&app, reqwest::Method::POST, "/admin/cashbacks/999999/approve", None).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        let (status, body) =
            admin(&app, reqwest::Method::POST, &format!("/admin/cashbacks/{pending_id}/approve"), None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) =
            admin(&app, reqwest::Method::POST, &format!("/admin/cashbacks/{pending_id}/approve"), None).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"]["status"][0], "LOCKED", "decided once");
        // The approval's audit row was written with it, by the token's automation role; the
        // refused attempts wrote none.
        let audit: Vec<(String, String, Option<String>)> = sqlx::query_as(
            "SELECT action, role, target_id FROM operator_audit WHERE action LIKE 'cashbacks.%' ORDER BY id",
        )
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(audit, [("cashbacks.approve".to_owned(), "automation".to_owned(), Some(pending_id.clone()))]);

        // Claims: real money to main, the turnover one as a wagering bonus; others' ids refused.
        let (status, body) = app.post_as(&bob, "cashbacks.payout", &[("cashback_id", &pending_id)]).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"]["cashback_id"][0], "NOT_FOUND");
        let (status, paid) = app.post_as(&alice, "cashbacks.payout", &[("cashback_id", &pending_id)]).await;
        assert_eq!((status, paid["data"]["status"].as_str()), (StatusCode::OK, Some("paid_out")), "{paid}");
        assert_eq!(main_balance(&app, &alice).await, "63.00", "100.00 − 40.00 lost + 3.00 back");
        let bonus_cashback = all_cashbacks(&app, &alice).await[1]["id"].as_i64().unwrap().to_string();
        let (status, paid) = app.post_as(&alice, "cashbacks.payout", &[("cashback_id", &bonus_cashback)]).await;
        assert_eq!((status, paid["data"]["pays"].as_str()), (StatusCode::OK, Some("bonus")), "{paid}");
        let (_, again) = app.post_as(&alice, "cashbacks.payout", &[("cashback_id", &bonus_cashback)]).await;
        assert_eq!(again["data"], paid["data"], "a second press pays nothing more");
        let (_, bonuses) = app.get_as(&alice, "bonuses.get", &[("statuses", "wagering")]).await;
        let bonus = &bonuses["data"]["items"][0];
        assert_eq!(
            (bonus["title"].as_str(), bonus["balance"].as_str()),
            (Some("turnover back"), Some("0.50")),
            "{bonuses}"
        );
        assert_eq!(bonus["wager_target"], "2.50");
        assert_eq!(main_balance(&app, &alice).await, "63.00", "a bonus cashback is not main money");

        // Bob declines his; Carol's are left to expire after their 48 hours.
        let bobs = all_cashbacks(&app, &bob).await[0]["id"].as_i64().unwrap().to_string();
        let (status, _) = app.post_as(&bob, "cashbacks.remove", &[("cashback_id", &bobs)]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(close::expire(&app.state, later).await.unwrap(), 0, "still claimable");
        let expired = close::expire(&app.state, later + 49 * 3_600_000).await.unwrap();
        assert_eq!(expired, 2, "Carol's two");
        let carols = all_cashbacks(&app, &carol).await;
        assert!(carols.iter().all(|c| c["status"] == "expired"), "{carols:?}");
        let (status, body) =
            app.post_as(&carol, "cashbacks.payout", &[("cashback_id", &carols[0]["id"].to_string())]).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"]["cashback_id"][0], "CODE_EXPIRED");
        assert_eq!(main_balance(&app, &carol).await, "85.00");

        let check = app.cli(&["ledger", "check"]);
        assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
        app.finish().await;
    }
}
