//! Crash safety of the wallet path (issue 24, item 3): the real server is killed (SIGKILL) while
//! 200 players play house rounds, an aggregator sends signed bets, wins and rollbacks, and
//! withdrawals are requested and approved; it is started again on the same database, every
//! aggregator call whose answer was lost is sent again, then every call once more.
//!
//! Then: `ledger check` is clean; every round answered before the kill is stored as answered;
//! no round is half-written (a bet without its round, a round without its postings) and every
//! stored round's money is in the ledger once; every aggregator call answers what it first
//! answered; each withdrawal is either fully held (with its payout or return once) or not there
//! at all, approving again pays nobody twice, and the holds account is what the waiting ones
//! hold; and each player's balance is what the deposits, the stored rounds, the aggregator's
//! answers and the withdrawals imply. On SQLite and PostgreSQL.

use crate::cashier::WITHDRAWAL_PROFILE;
use crate::games::{AGG_SECRET, agg_providers, signed_wallet_call};
use crate::helpers::{Backend, TestDb, backends, free_port, read_json, start_server, wait_ready};
use croupier_server::db::Db;
use croupier_server::features::games::wallet;
use croupier_server::ledger::{self, Account, HouseAccount};
use croupier_shared::Currency;
use futures::StreamExt;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::process::Child;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const PLAYERS: usize = 200;
/// The players the aggregator also plays for.
const AGG_PLAYERS: usize = 40;
/// The players who withdraw (a confirmed contact and a full profile each).
const WITHDRAWERS: usize = 10;
/// Each player's deposit, minor units: far more than the load can spend, so no call is refused
/// for want of money and a replay cannot meet a balance its first attempt did not.
const FUNDS: i64 = 100_000;
const ADMIN: &str = "crash-operator-token-0123";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_server_killed_mid_play_and_mid_withdrawal_keeps_every_answered_movement_exactly_once() {
    for backend in backends() {
        crash_wallet(backend).await;
    }
}

/// The server of the load: the aggregator, the operator's token and room for 200 sign-ups.
fn start(dir: &std::path::Path, db_url: &str, port: u16) -> Child {
    let providers = agg_providers();
    let env = [
        ("CROUPIER_LOG", "error"),
        ("CROUPIER_GAME_PROVIDERS", providers.as_str()),
        ("CROUPIER_REGISTRATIONS_PER_IP_HOUR", "1000"),
        ("CROUPIER_ADMIN_TOKEN", ADMIN),
        ("CROUPIER_DEMO_TOURNAMENT", "false"),
    ];
    start_server(dir, db_url, port, &env)
}

/// One player of the load: their browser, ids and tokens.
struct Player {
    client: reqwest::Client,
    user: i64,
    house_token: String,
    agg_token: Option<String>,
}

async fn api(base: &str, client: &reqwest::Client, method: &str, form: &[(&str, &str)]) -> (u16, Value) {
    let r = client.post(format!("{base}/api/{method}?locale=en&v=2.34")).form(form).send().await.unwrap();
    let (status, body) = read_json(r).await;
    (status.as_u16(), body)
}

async fn launch(base: &str, client: &reqwest::Client, game: &str) -> String {
    let r = client
        .get(format!("{base}/platform/game/{game}/play"))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    let (status, body) = read_json(r).await;
    assert_eq!(status, 200, "launch {game}: {body}");
    body["token"].as_str().unwrap().to_owned()
}

/// Registers player `i`, deposits [`FUNDS`] through the sandbox provider and opens their games;
/// a withdrawer also confirms the e-mail and fills in the profile.
async fn enrol(base: String, i: usize) -> Player {
    let client = reqwest::Client::builder().cookie_store(true).build().unwrap();
    let email = format!("crashw{i}@example.com");
    let form = [("email", email.as_str()), ("password", "secret123"), ("currency", "USD"), ("terms", "1")];
    let (status, body) = api(&base, &client, "auth.register", &form).await;
    assert_eq!(status, 200, "{body}");
    let user = body["data"]["uid"].as_i64().unwrap();
    let (status, body) = api(
        &base,
        &client,
        "cashier.makedeposit",
        &[("method", "sandbox_card"), ("amount", &(FUNDS / 100).to_string())],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_str().unwrap().to_owned();
    let no_redirect = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let paid =
        no_redirect.post(format!("{base}/sandbox/pay/{id}")).form(&[("outcome", "success")]).send().await.unwrap();
    assert!(paid.status().is_redirection(), "{}", paid.status());
    if i < WITHDRAWERS {
        let url = reqwest::Url::parse_with_params(&format!("{base}/dev/mailbox"), &[("to", email.as_str())]).unwrap();
        let mail: Value = client.get(url).send().await.unwrap().json().await.unwrap();
        let code = mail[0]["code"].as_str().unwrap().to_owned();
        let (status, body) =
            api(&base, &client, "account.confirmContact", &[("contact", &email), ("code", &code)]).await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = api(&base, &client, "account.saveProfileInfo", &WITHDRAWAL_PROFILE).await;
        assert_eq!(status, 200, "{body}");
    }
    let house_token = launch(&base, &client, "dice").await;
    let agg_token = if i < AGG_PLAYERS { Some(launch(&base, &client, "crash-slot").await) } else { None };
    Player { client, user, house_token, agg_token }
}

/// A signed aggregator call: its answer, or None when the connection failed (the answer is lost).
async fn agg_call(http: &reqwest::Client, base: &str, action: &str, body: &Value) -> Option<Value> {
    let mut body = body.clone();
    body["request_uuid"] = json!(uuid::Uuid::new_v4().to_string());
    let now = croupier_server::db::now_ms() / 1000;
    let response = signed_wallet_call(http, base, action, &body, AGG_SECRET, now).send().await.ok()?;
    response.json().await.ok()
}

/// An aggregator call as sent, with its (first) answer.
#[derive(Clone)]
struct AggCall {
    user: i64,
    action: &'static str,
    body: Value,
    answer: Option<Value>,
}

/// An answered house round: (user, round id, bet, win) in minor units.
type Answered = (i64, String, i64, i64);
/// A withdrawal: id, player, amount, status, and how many holds, payouts and returns the ledger
/// has for it and payouts the provider made.
type WithdrawalRow = (String, i64, i64, String, i64, i64, i64, i64);
/// A stored round: provider, player, round id, bet, win, its bet records, its house-round records
/// (1 for an aggregator's) and what its wallet movements moved on the player's accounts.
type StoredRound = (String, i64, String, i64, i64, i64, i64, i64);

async fn crash_wallet(backend: Backend) {
    let started = Instant::now();
    let database = TestDb::create(backend).await;
    let db = Db::connect(&database.url, 4).await.unwrap();
    db.migrate().await.unwrap();
    // The aggregator and its game, as the catalogue's seeding would list them.
    sqlx::query("INSERT INTO game_providers (sysname, name, kind, sort) VALUES ('fakeagg', 'fakeagg', 'external', 1)")
        .execute(db.pool())
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO games (sysname, provider, game_type, name_en, name_fr, image_url, search_text, rtp_bp, volatility, has_demo, config, popularity, created_at) \
         VALUES ('crash-slot', 'fakeagg', 'slot', 'Crash Slot', 'Crash Slot', '/x.svg', 'crash slot', 9600, 'high', 1, '{}', 1, 0)",
    )
    .execute(db.pool())
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = start(dir.path(), &database.url, port);
    wait_ready(&base).await;

    let players: Vec<Arc<Player>> = futures::stream::iter(0..PLAYERS)
        .map(|i| enrol(base.clone(), i))
        .buffered(16)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .map(Arc::new)
        .collect();
    let enrolled = started.elapsed();

    // The load, until the server goes away.
    let stop = Arc::new(AtomicBool::new(false));
    let rounds: Arc<Mutex<Vec<Answered>>> = Arc::default();
    let calls: Arc<Mutex<Vec<AggCall>>> = Arc::default();
    let withdrawals: Arc<Mutex<Vec<String>>> = Arc::default();
    let approvals: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut load = Vec::new();
    for p in &players {
        let (p, base, stop, rounds) = (Arc::clone(p), base.clone(), Arc::clone(&stop), Arc::clone(&rounds));
        load.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                let bet = 100 + 5 * (n % 20);
                let body = json!({"token": p.house_token, "bet": format!("{}.{:02}", bet / 100, bet % 100), "target": "50.00", "condition": if n % 2 == 0 { "over" } else { "under" }});
                let Ok(r) = http.post(format!("{base}/games/house/dice/round")).json(&body).send().await else { break };
                let status = r.status();
                let Ok(answer) = r.json::<Value>().await else { break };
                assert_eq!(status, 200, "{answer}");
                let usd = Currency::parse("USD").unwrap();
                let win = croupier_shared::Money::parse_major(answer["win"].as_str().unwrap(), usd).unwrap().minor();
                rounds.lock().unwrap().push((p.user, answer["round"].as_str().unwrap().to_owned(), bet, win));
            }
        }));
    }
    for p in players.iter().filter(|p| p.agg_token.is_some()) {
        let (p, base, stop, calls) = (Arc::clone(p), base.clone(), Arc::clone(&stop), Arc::clone(&calls));
        load.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            let token = p.agg_token.clone().unwrap();
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                let round = format!("agg-{}-{n}", p.user);
                let amount = 50 + n % 7 * 10;
                let bet = json!({"token": token, "transaction_uuid": format!("{round}:bet"), "round": round, "amount": amount, "currency": "USD"});
                // Odd rounds win (sometimes nothing), even ones are rolled back.
                let settle = if n % 2 == 1 {
                    ("win", json!({"token": token, "transaction_uuid": format!("{round}:win"), "reference_transaction_uuid": format!("{round}:bet"), "round": round, "round_closed": true, "amount": (n % 3) * amount, "currency": "USD"}))
                } else {
                    ("rollback", json!({"token": token, "transaction_uuid": format!("{round}:rollback"), "reference_transaction_uuid": format!("{round}:bet"), "round": round, "round_closed": true, "currency": "USD"}))
                };
                let mut lost = false;
                for (action, body) in [("bet", bet), settle] {
                    let answer = agg_call(&http, &base, action, &body).await;
                    lost = answer.is_none();
                    calls.lock().unwrap().push(AggCall { user: p.user, action, body, answer });
                    if lost {
                        break;
                    }
                }
                if lost {
                    break;
                }
            }
        }));
    }
    for p in players.iter().take(WITHDRAWERS) {
        let (p, base, stop, withdrawals) = (Arc::clone(p), base.clone(), Arc::clone(&stop), Arc::clone(&withdrawals));
        load.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let form = [("method", "sandbox_card"), ("amount", "10")];
                let Ok(r) = p
                    .client
                    .post(format!("{base}/api/cashier.makewithdrawal?locale=en&v=2.34"))
                    .form(&form)
                    .send()
                    .await
                else {
                    break;
                };
                let Ok(answer) = r.json::<Value>().await else { break };
                let id = answer["data"]["id"].as_str().unwrap_or_else(|| panic!("{answer}")).to_owned();
                withdrawals.lock().unwrap().push(id);
                // A few a second: the player's funds last the whole load.
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }));
    }
    {
        // The operator approves what waits, as fast as it can.
        let (base, stop, approvals) = (base.clone(), Arc::clone(&stop), Arc::clone(&approvals));
        load.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            let bearer = format!("Bearer {ADMIN}");
            'outer: while !stop.load(Ordering::Relaxed) {
                let Ok(r) = http
                    .get(format!("{base}/admin/withdrawals?status=pending"))
                    .header("authorization", &bearer)
                    .send()
                    .await
                else {
                    break;
                };
                let Ok(list) = r.json::<Value>().await else { break };
                let ids: Vec<String> = list["data"]["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| i["withdrawal"]["id"].as_str().unwrap().to_owned())
                    .collect();
                for id in ids {
                    let r = http
                        .post(format!("{base}/admin/withdrawals/{id}/approve"))
                        .header("authorization", &bearer)
                        .send()
                        .await;
                    let lost = match r {
                        Ok(r) => r.bytes().await.is_err(),
                        Err(_) => true,
                    };
                    approvals.lock().unwrap().push(id);
                    if lost {
                        break 'outer;
                    }
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    server.kill().unwrap();
    server.wait().unwrap();
    stop.store(true, Ordering::Relaxed);
    for task in load {
        task.await.unwrap();
    }
    let calls = calls.lock().unwrap().clone();
    let answered_rounds = rounds.lock().unwrap().clone();
    let withdrawals = withdrawals.lock().unwrap().clone();
    let approvals = approvals.lock().unwrap().clone();
    assert!(answered_rounds.len() > 200, "house rounds were being played: {}", answered_rounds.len());
    assert!(calls.len() > 40, "the aggregator was calling: {}", calls.len());
    assert!(!withdrawals.is_empty() && !approvals.is_empty(), "withdrawals were requested and approved");

    let mut server = start(dir.path(), &database.url, port);
    wait_ready(&base).await;

    // The aggregator sends again every call whose answer was lost, then every call once more:
    // each answers what it answered first (a replay moves nothing).
    let http = reqwest::Client::new();
    let lost_calls = calls.iter().filter(|c| c.answer.is_none()).count();
    let mut settled = Vec::with_capacity(calls.len());
    for mut c in calls {
        if c.answer.is_none() {
            c.answer = agg_call(&http, &base, c.action, &c.body).await;
        }
        let first = c.answer.clone().expect("the restarted server answers");
        assert_eq!(first["status"], "RS_OK", "{} {}: {first}", c.action, c.body);
        settled.push(c);
    }
    for c in &settled {
        let first = c.answer.as_ref().unwrap();
        let again = agg_call(&http, &base, c.action, &c.body).await.expect("answered");
        assert_eq!(
            (&again["status"], &again["balance"]),
            (&first["status"], &first["balance"]),
            "{} {} sent again",
            c.action,
            c.body
        );
    }
    // What the aggregator's answered calls move, per player.
    let mut agg_net: HashMap<i64, i64> = HashMap::new();
    let bets: HashMap<String, i64> = settled
        .iter()
        .filter(|c| c.action == "bet")
        .map(|c| (c.body["transaction_uuid"].as_str().unwrap().to_owned(), c.body["amount"].as_i64().unwrap()))
        .collect();
    for c in &settled {
        *agg_net.entry(c.user).or_default() += match c.action {
            "bet" => -c.body["amount"].as_i64().unwrap(),
            "win" => c.body["amount"].as_i64().unwrap(),
            _ => bets[c.body["reference_transaction_uuid"].as_str().unwrap()],
        };
    }

    // The operator approves again every withdrawal it approved (answered or not) and every one
    // still waiting: nobody is paid twice, and a payout the kill interrupted (left `processing`,
    // perhaps already paid by the provider) is resumed and posted once.
    let bearer = format!("Bearer {ADMIN}");
    let pending: Vec<String> =
        sqlx::query_scalar("SELECT id FROM payments WHERE direction = 'withdrawal' AND status = 'pending'")
            .fetch_all(db.pool())
            .await
            .unwrap();
    for id in approvals.iter().chain(&pending).chain(&approvals) {
        let r = http
            .post(format!("{base}/admin/withdrawals/{id}/approve"))
            .header("authorization", &bearer)
            .send()
            .await
            .unwrap();
        assert!(matches!(r.status().as_u16(), 200 | 409), "approve {id} again: {}", r.status());
    }
    let _ = server.kill();
    let _ = server.wait();

    // Withdrawals: every answered request is there; each is fully held, with its payout or its
    // return once, or it is not there at all; the holds are what the waiting ones hold.
    let rows: Vec<WithdrawalRow> = sqlx::query_as(
        "SELECT p.id, p.user_id, p.amount, p.status, \
         (SELECT COUNT(*) FROM ledger_transactions t WHERE t.idempotency_key = 'withdrawal:' || p.id), \
         (SELECT COUNT(*) FROM ledger_transactions t WHERE t.idempotency_key = 'withdrawal-payout:' || p.id), \
         (SELECT COUNT(*) FROM ledger_transactions t WHERE t.idempotency_key = 'withdrawal-return:' || p.id), \
         (SELECT COUNT(*) FROM sandbox_payments s WHERE s.id = p.id AND s.kind = 'payout') \
         FROM payments p WHERE p.direction = 'withdrawal'",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    let stored: HashMap<&str, &str> = rows.iter().map(|r| (r.0.as_str(), r.3.as_str())).collect();
    for id in &withdrawals {
        assert!(stored.contains_key(id.as_str()), "answered withdrawal {id} is stored");
    }
    let mut withdrawn: HashMap<i64, i64> = HashMap::new();
    let (mut waiting, mut stuck, mut paid_but_held) = (0, 0, 0);
    for (id, user, amount, status, hold, payout, back, provider_paid) in &rows {
        let want = match status.as_str() {
            "pending" | "processing" => (1, 0, 0),
            "paid" => (1, 1, 0),
            "rejected" | "cancelled" | "failed" => (1, 0, 1),
            other => panic!("withdrawal {id}: status {other}"),
        };
        assert_eq!((*hold, *payout, *back), want, "withdrawal {id} ({status}): hold, payout, return");
        assert!(*provider_paid <= 1);
        if status == "paid" {
            assert_eq!(*provider_paid, 1, "withdrawal {id} is paid by the provider once");
        }
        if matches!(status.as_str(), "pending" | "processing" | "paid") {
            *withdrawn.entry(*user).or_default() += amount;
        }
        if matches!(status.as_str(), "pending" | "processing") {
            waiting += amount;
        }
        stuck += usize::from(status == "processing");
        paid_but_held += usize::from(status == "processing" && *provider_paid == 1);
    }
    assert_eq!(
        stuck, 0,
        "approving again resumes every interrupted payout ({paid_but_held} were paid by the provider)"
    );
    let orphans: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM ledger_transactions t WHERE t.kind LIKE 'withdrawal%' \
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = t.reference)",
    )
    .fetch_one(db.pool())
    .await
    .unwrap();
    assert_eq!(orphans, 0, "no withdrawal movement without its withdrawal");
    let usd = Currency::parse("USD").unwrap();
    let mut conn = db.pool().acquire().await.unwrap();
    let held = ledger::balance(&mut conn, Account::House(HouseAccount::WithdrawalHolds), usd).await.unwrap();
    drop(conn);
    assert_eq!(held, waiting, "the holds account holds the waiting withdrawals");

    // Rounds: every answered one is stored as answered; none is half-written; every stored
    // round's money is in the ledger once.
    let stored_rounds: Vec<StoredRound> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT r.provider, r.user_id, r.round, r.bet, r.win, \
         (SELECT COUNT(*) FROM wallet_transactions w WHERE w.round_id = r.id AND w.kind = 'bet'), \
         CASE WHEN r.provider = 'house' THEN (SELECT COUNT(*) FROM house_rounds h WHERE h.round_id = r.id) ELSE 1 END, \
         CAST(COALESCE((SELECT SUM(p.amount) FROM wallet_transactions w \
           JOIN ledger_transactions t ON t.idempotency_key = {} \
           JOIN ledger_postings p ON p.transaction_id = t.id JOIN ledger_accounts a ON a.id = p.account_id \
           WHERE w.round_id = r.id AND a.is_player = 1), 0) AS BIGINT) \
         FROM game_rounds r",
        wallet::movement_key("w")
    )))
    .fetch_all(db.pool())
    .await
    .unwrap();
    let by_round: HashMap<&str, (i64, i64)> =
        stored_rounds.iter().filter(|r| r.0 == "house").map(|r| (r.2.as_str(), (r.3, r.4))).collect();
    for (user, round, bet, win) in &answered_rounds {
        assert_eq!(by_round.get(round.as_str()), Some(&(*bet, *win)), "player {user}'s answered round {round}");
    }
    let mut house_net: HashMap<i64, i64> = HashMap::new();
    for (provider, user, round, bet, win, bet_rows, house_rows, moved) in &stored_rounds {
        assert_eq!((*bet_rows, *house_rows), (1, 1), "{provider} round {round} is whole");
        // A rolled-back bet's round has bet 0 left, its bet and refund both in the ledger.
        assert_eq!(*moved, win - bet, "{provider} round {round}: its money is in the ledger once");
        if provider == "house" {
            *house_net.entry(*user).or_default() += win - bet;
        }
    }
    let loose: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM ledger_transactions t WHERE (t.idempotency_key LIKE 'wallet:%' OR t.idempotency_key LIKE 'wallet#%') \
         AND NOT EXISTS (SELECT 1 FROM wallet_transactions w WHERE {} = t.idempotency_key)",
        wallet::movement_key("w")
    )))
    .fetch_one(db.pool())
    .await
    .unwrap();
    assert_eq!(loose, 0, "no wallet movement without its round's record");

    // Each player's balance is what the deposit, the rounds, the aggregator and the withdrawals imply.
    for p in &players {
        let [main, ..] = ledger::player_balances(&db, p.user, usd).await.unwrap();
        let expected =
            FUNDS + house_net.get(&p.user).copied().unwrap_or(0) + agg_net.get(&p.user).copied().unwrap_or(0)
                - withdrawn.get(&p.user).copied().unwrap_or(0);
        assert_eq!(main, expected, "player {}", p.user);
    }
    let report = ledger::check(&db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    eprintln!(
        "wallet crash ({backend:?}): {PLAYERS} players ready in {enrolled:.1?}; killed with {} rounds answered ({} stored), \
         {} aggregator calls ({lost_calls} answer lost, sent again), {} withdrawals answered ({} stored, {stuck} left \
         processing, {paid_but_held} of them paid by the provider), {} approvals; {:.1?} in all",
        answered_rounds.len(),
        by_round.len(),
        settled.len(),
        withdrawals.len(),
        rows.len(),
        approvals.len(),
        started.elapsed()
    );
    db.close().await;
    database.drop_database().await;
}
