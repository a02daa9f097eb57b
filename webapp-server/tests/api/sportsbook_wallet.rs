//! The signed sportsbook wallet external sportsbook providers call
//! (`features::sportsbook::provider`): signatures, the launch token, placement, settlement,
//! resettlement, cancel and rollback through the internal sportsbook wallet, idempotency on the
//! provider's transaction ids, responsible gaming, one player's bets out of another's reach, and
//! a model test of random call sequences against the balances with `ledger check` clean.

use crate::games::funded;
use crate::helpers::{Backend, TestApp, backends, now_seconds};
use croupier_server::ledger;
use reqwest::StatusCode;
use serde_json::{Value, json};

pub const SECRET: &str = "sportsbook-provider-secret-0123";

pub fn providers() -> String {
    format!("bookco|https://book.example/frame?t={{token}}&c={{currency}}&l={{locale}}|{SECRET}")
}

async fn spawn(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, &[("CROUPIER_SPORTSBOOK_PROVIDERS", providers().as_str())], |_| {}).await
}

/// Sends `body` to `/provider/sportsbook/{provider}/{action}` signed with `secret` at `timestamp`.
pub async fn send(app: &TestApp, provider: &str, action: &str, body: &Value, secret: &str, timestamp: i64) -> Value {
    let text = body.to_string();
    let path = format!("/provider/sportsbook/{provider}/{action}");
    let timestamp = timestamp.to_string();
    let signature = croupier_server::features::games::wallet::signature(
        secret.as_bytes(),
        &timestamp,
        "POST",
        &path,
        text.as_bytes(),
    );
    let response = reqwest::Client::new()
        .post(app.url(&path))
        .header("content-type", "application/json")
        .header("x-croupier-timestamp", timestamp)
        .header("x-croupier-signature", signature)
        .body(text)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

/// One player's side of the provider: their launch token and user id.
struct Book<'a> {
    app: &'a TestApp,
    token: String,
    user: i64,
    client: reqwest::Client,
}

impl<'a> Book<'a> {
    async fn launched(app: &'a TestApp, email: &str, funds: i64) -> Book<'a> {
        let client = funded(app, email, funds).await;
        let (status, launched) = app.post_as(&client, "sportsbook.launch", &[("provider", "bookco")]).await;
        assert_eq!(status, StatusCode::OK, "{launched}");
        let token = launched["data"]["token"].as_str().unwrap().to_owned();
        assert_eq!(launched["data"]["url"], format!("https://book.example/frame?t={token}&c=USD&l=en"));
        // Valid four hours, told both ways (the client relaunches before the end by its own clock).
        assert_eq!(launched["data"]["expires_in"], 4 * 3600, "{launched}");
        let end = launched["data"]["expires_at"].as_i64().unwrap() - now_seconds();
        assert!((4 * 3600 - 5..=4 * 3600).contains(&end), "{launched}");
        let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
        Book { app, token, user: me["data"]["uid"].as_i64().unwrap(), client }
    }

    async fn call(&self, action: &str, mut body: Value) -> Value {
        if body.get("token").is_none() {
            body["token"] = json!(self.token);
        }
        body["request_uuid"] = json!(format!("req-{action}"));
        send(self.app, "bookco", action, &body, SECRET, now_seconds()).await
    }

    async fn balance(&self) -> i64 {
        let usd = croupier_shared::Currency::parse("USD").unwrap();
        ledger::player_balances(self.app.state.db(), self.user, usd).await.unwrap()[0]
    }
}

pub fn place(tx: &str, bet: &str, amount: i64) -> Value {
    json!({
        "transaction_uuid": tx, "bet_id": bet, "amount": amount, "currency": "USD", "kind": "accumulator",
        "selections": [
            {"id": "s-1", "event": "Lyon v Nice", "market": "1x2", "name": "Lyon", "odds": "2.00"},
            {"id": "s-2", "event": "Metz v Brest", "market": "Total 2.5", "name": "Over", "odds": "1.50"},
        ],
    })
}

pub fn settle(tx: &str, bet: &str, amount: i64, results: &[(&str, &str)]) -> Value {
    let selections: Vec<Value> = results.iter().map(|(id, r)| json!({"id": id, "result": r})).collect();
    json!({"transaction_uuid": tx, "bet_id": bet, "amount": amount, "currency": "USD", "selections": selections})
}

fn bet_call(tx: &str, bet: &str) -> Value {
    json!({"transaction_uuid": tx, "bet_id": bet, "currency": "USD"})
}

fn status(answer: &Value) -> (&str, Option<i64>) {
    (answer["status"].as_str().unwrap_or(""), answer["balance"].as_i64())
}

async fn entries(app: &TestApp, key: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM ledger_transactions WHERE idempotency_key = $1")
        .bind(key)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap()
}

async fn ledger_clean(app: &TestApp) {
    let report = ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

#[tokio::test]
async fn only_calls_signed_with_the_providers_secret_and_fresh_are_heard() {
    let app = spawn(Backend::Sqlite).await;
    let book = Book::launched(&app, "signed@example.com", 1_000).await;
    let body = json!({"request_uuid": "r-1", "token": book.token, "currency": "USD"});
    let answer = send(&app, "bookco", "balance", &body, SECRET, now_seconds()).await;
    assert_eq!(status(&answer), ("RS_OK", Some(1_000)), "{answer}");
    assert_eq!(answer["request_uuid"], "r-1");
    let wrong_secret = send(&app, "bookco", "balance", &body, "another-secret-0123456789", now_seconds()).await;
    let stale = send(&app, "bookco", "balance", &body, SECRET, now_seconds() - 31).await;
    let future = send(&app, "bookco", "balance", &body, SECRET, now_seconds() + 31).await;
    let unknown = send(&app, "nobody", "balance", &body, SECRET, now_seconds()).await;
    for refused in [wrong_secret, stale, future, unknown] {
        assert_eq!(status(&refused), ("RS_ERROR_INVALID_SIGNATURE", None), "{refused}");
    }
    // The signature covers the path: a body signed for balance is refused as a place.
    let text = body.to_string();
    let timestamp = now_seconds().to_string();
    let signature = croupier_server::features::games::wallet::signature(
        SECRET.as_bytes(),
        &timestamp,
        "POST",
        "/provider/sportsbook/bookco/balance",
        text.as_bytes(),
    );
    let moved: Value = reqwest::Client::new()
        .post(app.url("/provider/sportsbook/bookco/place"))
        .header("x-croupier-timestamp", timestamp)
        .header("x-croupier-signature", signature)
        .body(text)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(moved["status"], "RS_ERROR_INVALID_SIGNATURE");
    // Signed but malformed, or an unknown action.
    let malformed = send(&app, "bookco", "place", &json!({"request_uuid": "r-2"}), SECRET, now_seconds()).await;
    assert_eq!(malformed["status"], "RS_ERROR_WRONG_REQUEST");
    let unknown_action = send(&app, "bookco", "payout", &body, SECRET, now_seconds()).await;
    assert_eq!(unknown_action["status"], "RS_ERROR_WRONG_REQUEST");
    let forged =
        send(&app, "bookco", "balance", &json!({"request_uuid": "r", "token": "forged"}), SECRET, now_seconds()).await;
    assert_eq!(forged["status"], "RS_ERROR_INVALID_TOKEN");
    // Launching needs a known provider.
    let client = app.browser();
    app.register(&client, "launcher@example.com").await;
    let (code, refused) = app.post_as(&client, "sportsbook.launch", &[("provider", "nobody")]).await;
    assert_eq!(
        (code, &refused["error"]["error_data"]["provider"][0]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("NOT_FOUND"))
    );
    let (code, refused) = app.post_as(&client, "sportsbook.launch", &[("provider", "Bad Name")]).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(book.balance().await, 1_000, "nothing moved");
    app.finish().await;
}

#[tokio::test]
async fn a_provider_bet_is_placed_settled_resettled_rolled_back_and_cancelled_through_the_ledger() {
    for backend in backends() {
        let app = spawn(backend).await;
        let book = Book::launched(&app, "bettor@example.com", 1_000).await;
        let answer = book.call("balance", json!({"currency": "USD"})).await;
        assert_eq!(status(&answer), ("RS_OK", Some(1_000)), "{answer}");

        // Place: the stake moves; a retry answers the same and moves nothing; the same id with
        // other fields is refused.
        let placed = book.call("place", place("t-1", "b-1", 300)).await;
        assert_eq!(status(&placed), ("RS_OK", Some(700)), "{placed}");
        assert_eq!(placed["bet_status"], "open");
        let again = book.call("place", place("t-1", "b-1", 300)).await;
        assert_eq!(again, placed, "a replay answers the first answer");
        assert_eq!(book.balance().await, 700);
        let conflicting = book.call("place", place("t-1", "b-1", 301)).await;
        assert_eq!(status(&conflicting), ("RS_ERROR_DUPLICATE_TRANSACTION", Some(700)), "{conflicting}");
        let same_bet = book.call("place", place("t-other", "b-1", 300)).await;
        assert_eq!(same_bet["status"], "RS_ERROR_DUPLICATE_TRANSACTION", "one bet id, one bet");
        let bet_row: i64 = sqlx::query_scalar("SELECT id FROM sb_provider_bets WHERE bet_ref = 'b-1'")
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(entries(&app, &format!("sportsbook:bookco:bet:{bet_row}:stake")).await, 1);
        let potential: i64 = sqlx::query_scalar("SELECT potential FROM sb_provider_bets WHERE id = $1")
            .bind(bet_row)
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(potential, 900, "300 at 2.00 × 1.50");

        // Not enough money: refused with the balance, nothing moves.
        let broke = book.call("place", place("t-2", "b-2", 800)).await;
        assert_eq!(status(&broke), ("RS_ERROR_NOT_ENOUGH_MONEY", Some(700)), "{broke}");
        let refused_bet: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sb_provider_bets WHERE bet_ref = 'b-2'")
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(refused_bet, 0, "a refused placement leaves no bet");
        // Bad slips.
        let mut trixie = place("t-3", "b-3", 301);
        trixie["kind"] = json!("system");
        trixie["system"] = json!("trixie");
        assert_eq!(book.call("place", trixie.clone()).await["status"], "RS_ERROR_WRONG_REQUEST", "a trixie has 3 legs");
        trixie["selections"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "s-3", "event": "Lens v Lille", "market": "1x2", "name": "Draw", "odds": "3.10"}));
        assert_eq!(book.call("place", trixie).await["status"], "RS_ERROR_WRONG_AMOUNT", "4 lines do not share 301");
        let mut bad_odds = place("t-3", "b-3", 100);
        bad_odds["selections"][0]["odds"] = json!("1.00");
        assert_eq!(book.call("place", bad_odds).await["status"], "RS_ERROR_WRONG_REQUEST");
        let mut twice = place("t-3", "b-3", 100);
        twice["selections"][1]["id"] = json!("s-1");
        assert_eq!(book.call("place", twice).await["status"], "RS_ERROR_WRONG_REQUEST");

        // Settle: above the potential is refused; results that do not decide the bet too.
        let too_much = book.call("settle", settle("t-4", "b-1", 901, &[("s-1", "won"), ("s-2", "won")])).await;
        assert_eq!(too_much["status"], "RS_ERROR_WRONG_AMOUNT", "{too_much}");
        let undecided = book.call("settle", settle("t-4", "b-1", 900, &[("s-1", "won")])).await;
        assert_eq!(undecided["status"], "RS_ERROR_WRONG_REQUEST", "{undecided}");
        let settled = book.call("settle", settle("t-4", "b-1", 900, &[("s-1", "won"), ("s-2", "won")])).await;
        assert_eq!(status(&settled), ("RS_OK", Some(1_600)), "{settled}");
        assert_eq!(settled["bet_status"], "won");
        let replay = book.call("settle", settle("t-4", "b-1", 900, &[("s-1", "won"), ("s-2", "won")])).await;
        assert_eq!(replay, settled);
        assert_eq!(book.balance().await, 1_600, "a replayed settlement pays once");
        let twice = book.call("settle", settle("t-5", "b-1", 900, &[("s-1", "won"), ("s-2", "won")])).await;
        assert_eq!(twice["status"], "RS_ERROR_BET_STATE", "a settled bet is resettled, not settled again");

        // Resettle: only the difference moves (s-2 void: 300 × 2.00 = 600, 300 back).
        let resettled = book.call("resettle", settle("t-6", "b-1", 600, &[("s-2", "void")])).await;
        assert_eq!(status(&resettled), ("RS_OK", Some(1_300)), "{resettled}");
        let difference: i64 = sqlx::query_scalar(
            "SELECT p.amount FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id \
             JOIN ledger_accounts a ON a.id = p.account_id WHERE t.idempotency_key = $1 AND a.user_id = $2",
        )
        .bind(format!("sportsbook:bookco:bet:{bet_row}:v2"))
        .bind(book.user)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(difference, -300, "the resettlement takes back the difference only");
        let expected: Option<i64> = sqlx::query_scalar("SELECT expected_payout FROM sb_provider_bets WHERE id = $1")
            .bind(bet_row)
            .fetch_one(app.state.db().pool())
            .await
            .unwrap();
        assert_eq!(expected, Some(600), "the house's own figure from the results");

        // Rollback: the payout goes back and the bet is open again; then it can be cancelled.
        let rolled = book.call("rollback", bet_call("t-7", "b-1")).await;
        assert_eq!(status(&rolled), ("RS_OK", Some(700)), "{rolled}");
        assert_eq!(rolled["bet_status"], "open");
        let again = book.call("rollback", bet_call("t-8", "b-1")).await;
        assert_eq!(again["status"], "RS_ERROR_BET_STATE", "an open bet has nothing to roll back");
        let cancelled = book.call("cancel", bet_call("t-9", "b-1")).await;
        assert_eq!(status(&cancelled), ("RS_OK", Some(1_000)), "{cancelled}");
        assert_eq!(cancelled["bet_status"], "cancelled");
        let after = book.call("settle", settle("t-10", "b-1", 900, &[("s-1", "won"), ("s-2", "won")])).await;
        assert_eq!(after["status"], "RS_ERROR_BET_STATE", "a cancelled bet is final");
        let cancel_replay = book.call("cancel", bet_call("t-9", "b-1")).await;
        assert_eq!(cancel_replay, cancelled);
        assert_eq!(entries(&app, &format!("sportsbook:bookco:bet:{bet_row}:cancel")).await, 1);

        // A claw-back the balance cannot cover is refused and moves nothing.
        let placed = book.call("place", place("t-11", "b-4", 100)).await;
        assert_eq!(status(&placed), ("RS_OK", Some(900)));
        let won = book.call("settle", settle("t-12", "b-4", 300, &[("s-1", "won"), ("s-2", "won")])).await;
        assert_eq!(status(&won), ("RS_OK", Some(1_200)));
        let spend = book.call("place", place("t-13", "b-5", 1_200)).await;
        assert_eq!(status(&spend), ("RS_OK", Some(0)), "{spend}");
        let clawback = book.call("resettle", settle("t-14", "b-4", 0, &[("s-1", "lost")])).await;
        assert_eq!(status(&clawback), ("RS_ERROR_NOT_ENOUGH_MONEY", Some(0)), "{clawback}");
        let lost_early = book.call("settle", settle("t-15", "b-5", 0, &[("s-2", "lost")])).await;
        assert_eq!(lost_early["bet_status"], "lost", "a lost leg decides an accumulator: {lost_early}");

        // Another player cannot touch this player's bets, nor see them.
        let other = Book::launched(&app, "other@example.com", 500).await;
        let theirs = other.call("rollback", bet_call("t-16", "b-4")).await;
        assert_eq!(status(&theirs), ("RS_ERROR_TRANSACTION_DOES_NOT_EXIST", Some(500)), "{theirs}");
        let theirs = other.call("settle", settle("t-17", "b-5", 0, &[("s-1", "lost")])).await;
        assert_eq!(theirs["status"], "RS_ERROR_TRANSACTION_DOES_NOT_EXIST");
        // Replaying this player's transaction id with the other's token is no replay.
        let stolen = other.call("place", place("t-11", "b-4", 100)).await;
        assert_eq!(stolen["status"], "RS_ERROR_DUPLICATE_TRANSACTION", "{stolen}");
        assert_eq!(other.balance().await, 500);

        // Settling calls accept an expired token; placing needs a fresh one.
        sqlx::query("UPDATE sb_provider_sessions SET expires_at = 0 WHERE user_id = $1")
            .bind(book.user)
            .execute(app.state.db().pool())
            .await
            .unwrap();
        let late = book.call("place", place("t-18", "b-6", 100)).await;
        assert_eq!(late["status"], "RS_ERROR_TOKEN_EXPIRED");
        let rolled = book.call("rollback", bet_call("t-19", "b-5")).await;
        assert_eq!(status(&rolled), ("RS_OK", Some(0)), "{rolled}");
        let wrong_currency =
            book.call("cancel", json!({"transaction_uuid": "t-20", "bet_id": "b-5", "currency": "EUR"})).await;
        assert_eq!(wrong_currency["status"], "RS_ERROR_WRONG_CURRENCY");
        let cancelled = book.call("cancel", bet_call("t-20", "b-5")).await;
        assert_eq!(status(&cancelled), ("RS_OK", Some(1_200)), "{cancelled}");

        // The player's history lists the provider's bets.
        let (code, history) = app.get_as(&book.client, "sportsbook.getProviderBets", &[("status", "all")]).await;
        assert_eq!(code, StatusCode::OK, "{history}");
        assert_eq!(history["data"]["total"], 3, "{history}");
        let first = &history["data"]["items"][2];
        assert_eq!((first["bet_id"].as_str(), first["status"].as_str()), (Some("b-1"), Some("cancelled")));
        assert_eq!(first["selections"][0]["odds"], "2.00");
        let (_, theirs) = app.get_as(&app.browser(), "sportsbook.getProviderBets", &[]).await;
        assert_eq!(theirs["error"]["type"], "AuthorizationException");
        ledger_clean(&app).await;
        app.finish().await;
    }
}

#[tokio::test]
async fn provider_bets_respect_exclusions_and_play_limits() {
    for backend in backends() {
        let app = spawn(backend).await;
        let book = Book::launched(&app, "careful@example.com", 1_000).await;
        sqlx::query("UPDATE users SET blocked_until = $1, blocked_kind = 'time_out' WHERE id = $2")
            .bind(croupier_server::db::now_ms() + 3_600_000)
            .bind(book.user)
            .execute(app.state.db().pool())
            .await
            .unwrap();
        let excluded = book.call("place", place("t-1", "b-1", 100)).await;
        assert_eq!(status(&excluded), ("RS_ERROR_USER_DISABLED", Some(1_000)), "{excluded}");
        sqlx::query("UPDATE users SET blocked_until = NULL, blocked_kind = NULL WHERE id = $1")
            .bind(book.user)
            .execute(app.state.db().pool())
            .await
            .unwrap();
        let (code, set) = app
            .post_as(
                &book.client,
                "responsibleGaming.setLimit",
                &[("kind", "wager"), ("period", "day"), ("amount", "5")],
            )
            .await;
        assert_eq!(code, StatusCode::OK, "{set}");
        let placed = book.call("place", place("t-2", "b-2", 400)).await;
        assert_eq!(status(&placed), ("RS_OK", Some(600)), "{placed}");
        let over = book.call("place", place("t-3", "b-3", 200)).await;
        assert_eq!(status(&over), ("RS_ERROR_LIMIT_REACHED", Some(600)), "{over}");
        let within = book.call("place", place("t-4", "b-4", 100)).await;
        assert_eq!(status(&within), ("RS_OK", Some(500)), "{within}");
        ledger_clean(&app).await;
        app.finish().await;
    }
}

/// A seeded run of random calls (fresh or repeated transaction ids, any action on any bet) against
/// a model of each bet's state and the balance: every answer is the model's, and the ledger is
/// clean at the end.
#[tokio::test]
async fn random_call_sequences_match_the_model() {
    #[derive(Clone, Copy, PartialEq, Debug)]
    enum State {
        Open,
        Settled(i64),
        Cancelled,
    }
    let app = spawn(Backend::Sqlite).await;
    let book = Book::launched(&app, "model@example.com", 2_000).await;
    let mut seed: u64 = 0x5eed_2026;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut balance = 2_000_i64;
    let mut bets: Vec<(String, i64, State)> = Vec::new();
    let mut done: Vec<(String, Value, Value)> = Vec::new();
    for step in 0..120 {
        // Now and then, repeat an earlier call exactly: the first answer, nothing moves.
        if !done.is_empty() && next(6) == 0 {
            let (action, body, first) = done[next(done.len() as u64) as usize].clone();
            let again = book.call(&action, body).await;
            assert_eq!(again, first, "step {step}: replay of {action}");
            continue;
        }
        let tx = format!("m-{step}");
        let pick = if bets.is_empty() { 0 } else { next(5) };
        let (action, body, expect) = if pick == 0 {
            let stake = 1 + next(400) as i64;
            let bet = format!("mb-{step}");
            let ok = stake <= balance;
            if ok {
                balance -= stake;
                bets.push((bet.clone(), stake, State::Open));
            }
            ("place", place(&tx, &bet, stake), if ok { "RS_OK" } else { "RS_ERROR_NOT_ENOUGH_MONEY" })
        } else {
            let i = next(bets.len() as u64) as usize;
            let (bet, stake, state) = bets[i].clone();
            let potential = stake * 3;
            match pick {
                1 | 2 => {
                    let resettle = matches!(state, State::Settled(_));
                    let payout = [0, stake, potential][next(3) as usize];
                    let results: &[(&str, &str)] = match payout {
                        0 => &[("s-1", "lost"), ("s-2", "won")],
                        p if p == stake => &[("s-1", "void"), ("s-2", "void")],
                        _ => &[("s-1", "won"), ("s-2", "won")],
                    };
                    let action = if resettle { "resettle" } else { "settle" };
                    let expect = match state {
                        State::Cancelled => "RS_ERROR_BET_STATE",
                        State::Settled(paid) if paid - payout > balance => "RS_ERROR_NOT_ENOUGH_MONEY",
                        State::Settled(paid) => {
                            balance += payout - paid;
                            bets[i].2 = State::Settled(payout);
                            "RS_OK"
                        }
                        State::Open => {
                            balance += payout;
                            bets[i].2 = State::Settled(payout);
                            "RS_OK"
                        }
                    };
                    (action, settle(&tx, &bet, payout, results), expect)
                }
                3 => {
                    let expect = match state {
                        State::Settled(paid) if paid > balance => "RS_ERROR_NOT_ENOUGH_MONEY",
                        State::Settled(paid) => {
                            balance -= paid;
                            bets[i].2 = State::Open;
                            "RS_OK"
                        }
                        _ => "RS_ERROR_BET_STATE",
                    };
                    ("rollback", bet_call(&tx, &bet), expect)
                }
                _ => {
                    let expect = if state == State::Open {
                        balance += stake;
                        bets[i].2 = State::Cancelled;
                        "RS_OK"
                    } else {
                        "RS_ERROR_BET_STATE"
                    };
                    ("cancel", bet_call(&tx, &bet), expect)
                }
            }
        };
        let answer = book.call(action, body.clone()).await;
        assert_eq!(status(&answer), (expect, Some(balance)), "step {step}: {action} {body} → {answer}");
        if expect == "RS_OK" {
            done.push((action.to_owned(), body, answer));
        }
    }
    assert_eq!(book.balance().await, balance);
    ledger_clean(&app).await;
    app.finish().await;
}

/// The OpenAPI document describes every call of the protocol with the signature scheme, and the
/// fields it marks required are the ones whose absence the server refuses.
#[tokio::test]
async fn the_openapi_document_describes_the_protocol_as_the_server_reads_it() {
    let app = spawn(Backend::Sqlite).await;
    let book = Book::launched(&app, "documented@example.com", 1_000).await;
    let doc: Value = app.client.get(app.url("/api/openapi.json")).send().await.unwrap().json().await.unwrap();
    let scheme = &doc["components"]["securitySchemes"]["providerSignature"];
    assert_eq!((scheme["in"].as_str(), scheme["name"].as_str()), (Some("header"), Some("X-Croupier-Signature")));
    let resolve = |schema: &Value| -> Value {
        match schema["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/schemas/")) {
            Some(name) => doc["components"]["schemas"][name].clone(),
            None => schema.clone(),
        }
    };
    let valid = |action: &str| -> Value {
        let mut body = match action {
            "balance" => json!({"currency": "USD"}),
            "place" => place("d-1", "d-1", 100),
            "settle" | "resettle" => settle("d-2", "d-1", 0, &[("s-1", "lost")]),
            _ => bet_call("d-3", "d-1"),
        };
        body["token"] = json!(book.token);
        body["request_uuid"] = json!("d");
        body
    };
    let mut required_seen = 0;
    for action in croupier_server::features::sportsbook::provider::ACTIONS {
        let post = &doc["paths"][format!("/provider/sportsbook/{{provider}}/{action}")]["post"];
        assert_eq!(post["security"], json!([{ "providerSignature": [] }]), "{action}: {post}");
        let headers: Vec<&str> =
            post["parameters"].as_array().unwrap().iter().filter_map(|p| p["name"].as_str()).collect();
        assert!(headers.contains(&"X-Croupier-Timestamp"), "{action}");
        let schema = resolve(&post["requestBody"]["content"]["application/json"]["schema"]);
        let answer = resolve(&post["responses"]["200"]["content"]["application/json"]["schema"]);
        assert!(answer["properties"]["status"].is_object(), "{action}: {answer}");
        let properties = schema["properties"].as_object().unwrap();
        let sent = valid(action);
        for field in sent.as_object().unwrap().keys() {
            assert!(properties.contains_key(field), "{action}: {field} is not documented");
        }
        for field in schema["required"].as_array().unwrap().iter().filter_map(Value::as_str) {
            let mut body = sent.clone();
            body.as_object_mut().unwrap().remove(field);
            let refused = send(&app, "bookco", action, &body, SECRET, now_seconds()).await;
            assert_eq!(refused["status"], "RS_ERROR_WRONG_REQUEST", "{action} without {field}: {refused}");
            required_seen += 1;
        }
    }
    assert!(required_seen >= 25, "{required_seen}");
    assert_eq!(book.balance().await, 1_000, "nothing moved");
    app.finish().await;
}
