//! Tournaments, jackpots and winners: scoring from real play (house rounds and an aggregator's
//! wallet, replays and rollbacks), the leaderboard, the close paying every prize once (also
//! across a kill -9), jackpot pools dropping to exactly one of 200 concurrent players with the
//! pool's money conserved, the provably-fair hidden trigger, the winners feed with the players'
//! privacy choice, operators' input refused whole, and the Redis board giving the database's
//! ranks. Every test runs on SQLite and, with `TEST_DATABASE_URL`, on PostgreSQL.

use crate::games::{AGG_SECRET, Aggregator, agg_game, funded, launch};
use crate::helpers::{Backend, TestApp, TestDb, XorShift, backends, expect_error, read_json};
use croupier_server::db::now_ms;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const TOKEN: &str = "operator-token-123";

async fn spawn(backend: Backend) -> TestApp {
    let providers =
        format!("fakeagg|https://agg.example/launch?t={{token}}&g={{game}}&m={{mode}}&c={{currency}}|{AGG_SECRET}");
    let app = TestApp::spawn_with(
        backend,
        &[
            ("CROUPIER_ADMIN_TOKEN", TOKEN),
            ("CROUPIER_GAME_PROVIDERS", providers.as_str()),
            ("CROUPIER_REGISTRATIONS_PER_IP_HOUR", "1000"),
            ("CROUPIER_BIG_WIN_MULTIPLIER", "2"),
        ],
        |_| {},
    )
    .await;
    agg_game(&app, "agg-slot", "slot").await;
    app
}

async fn admin(app: &TestApp, method: reqwest::Method, path: &str, body: Value) -> (StatusCode, Value) {
    let request = reqwest::Client::new()
        .request(method, app.url(path))
        .header("authorization", format!("Bearer {TOKEN}"))
        .json(&body);
    read_json(request.send().await.unwrap()).await
}

async fn uid(app: &TestApp, client: &reqwest::Client) -> i64 {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["uid"].as_i64().unwrap()
}

async fn main_balance(app: &TestApp, user: i64) -> i64 {
    let usd = croupier_shared::Currency::parse("USD").unwrap();
    croupier_server::ledger::player_balances(app.state.db(), user, usd).await.unwrap()[0]
}

/// A dice round of `bet` (decimal) with `token`; answers the round.
async fn dice(app: &TestApp, token: &str, bet: &str, target: &str) -> Value {
    let body = json!({"token": token, "bet": bet, "target": target, "condition": "over"});
    let (status, r) =
        read_json(reqwest::Client::new().post(app.url("/games/house/dice/round")).json(&body).send().await.unwrap())
            .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    r
}

fn tournament(scoring: &str, participation: &str, ends_in: i64, prizes: Value) -> Value {
    let now = now_ms() / 1000;
    json!({
        "title_en": "Spring Sprint", "title_fr": "Sprint de printemps",
        "description_en": "Stake the most.", "description_fr": "Misez le plus.",
        "starts_at": now - 60, "ends_at": now + ends_in, "time_zone": "Europe/Paris",
        "currencies": ["USD"], "scoring": scoring, "participation": participation,
        "min_bet": 50, "games": {"sysnames": ["dice", "agg-slot"]}, "prizes": prizes,
    })
}

/// Waits (polling) until `check` holds, for at most `secs` seconds.
async fn until<F, Fut>(secs: u64, what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the board syncer has handled every score change (reads from Redis follow it).
async fn synced(app: &TestApp) {
    until(10, "the board to sync", || async {
        let left: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM board_changes").fetch_one(app.state.db().pool()).await.unwrap();
        left == 0
    })
    .await;
}

async fn ledger_clean(app: &TestApp) {
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

#[tokio::test]
async fn a_tournament_scores_real_play_once_ranks_it_and_pays_every_prize_once() {
    for backend in backends() {
        let app = spawn(backend).await;
        // Operators' bad input is refused whole, naming the fields; nothing is written.
        let mut bad = tournament("stake", "opt_in", 30, json!([{"rank_from": 2, "rank_to": 1, "kind": "money"}]));
        bad["scoring"] = json!("luck");
        bad["currencies"] = json!(["XXX"]);
        bad["time_zone"] = json!("not a zone");
        let (status, body) = admin(&app, reqwest::Method::POST, "/admin/tournaments", bad).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        for field in ["scoring", "currencies", "time_zone", "prizes.0.rank_from", "prizes.0.amount"] {
            assert!(error["error_data"][field].is_array(), "{field}: {body}");
        }
        let mut unknown =
            tournament("stake", "opt_in", 30, json!([{"rank_from": 1, "rank_to": 1, "kind": "money", "amount": 100}]));
        unknown["games"] = json!({"sysnames": ["no-such-game"]});
        let (status, body) = admin(&app, reqwest::Method::POST, "/admin/tournaments", unknown).await;
        assert_eq!(status.as_u16(), 422, "{body}");
        let (_, none) = app.api_get("tournaments.get", &[]).await;
        assert_eq!(none["data"]["total"], 0, "nothing written: {none}");
        let (status, _) = reqwest::Client::new()
            .post(app.url("/admin/tournaments"))
            .json(&json!({}))
            .send()
            .await
            .map(|r| (r.status(), ()))
            .unwrap();
        assert_eq!(status, StatusCode::UNAUTHORIZED, "the operator API needs the token");

        // A running opt-in tournament on total stake: 1st 100.00, 2nd 5 free spins, 3rd 300 points.
        let prizes = json!([
            {"rank_from": 1, "rank_to": 1, "kind": "money", "amount": 10_000},
            {"rank_from": 2, "rank_to": 2, "kind": "freespins", "freespins": {"game": "dice", "count": 5, "bet": 100}},
            {"rank_from": 3, "rank_to": 3, "kind": "points", "points": 300},
        ]);
        let (status, created) =
            admin(&app, reqwest::Method::POST, "/admin/tournaments", tournament("stake", "opt_in", 15, prizes)).await;
        assert_eq!(status, StatusCode::OK, "{created}");
        let id = created["data"]["id"].as_i64().unwrap();
        let id_text = id.to_string();

        let alice = funded(&app, "alice@example.com", 100_000).await;
        let bob = funded(&app, "bob@example.com", 100_000).await;
        let carol = funded(&app, "carol@example.com", 100_000).await;
        let (alice_id, bob_id, carol_id) = (uid(&app, &alice).await, uid(&app, &bob).await, uid(&app, &carol).await);

        let (_, listed) = app.api_get("tournaments.get", &[("status", "running")]).await;
        assert_eq!(listed["data"]["total"], 1, "{listed}");
        let item = &listed["data"]["items"][0];
        assert_eq!((item["status"].as_str(), item["time_zone"].as_str()), (Some("running"), Some("Europe/Paris")));
        assert_eq!(item["game_sysnames"], json!(["agg-slot", "dice"]));
        assert_eq!(item["prize_pool"], json!({"amount": "100.00", "currency": "USD"}));
        assert_eq!(item["min_bet"], json!({"amount": "0.50", "currency": "USD"}));
        let (_, upcoming) = app.api_get("tournaments.get", &[("status", "upcoming")]).await;
        assert_eq!(upcoming["data"]["total"], 0);
        let (status, body) = app.api_get("tournaments.get", &[("status", "later")]).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        let (status, body) = app.api_post("tournaments.participate", &[("tournament_id", &id_text)]).await;
        expect_error(status, &body, 401, "AuthorizationException");

        // Alice and Carol join (Carol asks for her final rank); Bob plays without joining.
        let (status, joined) = app.post_as(&alice, "tournaments.participate", &[("tournament_id", &id_text)]).await;
        assert_eq!((status, joined["data"]["joined"].as_bool()), (StatusCode::OK, Some(true)), "{joined}");
        app.post_as(&carol, "tournaments.participate", &[("tournament_id", &id_text), ("notify", "1")]).await;
        let (status, body) = app.post_as(&alice, "tournaments.participate", &[("tournament_id", "999")]).await;
        expect_error(status, &body, 422, "InvalidParameterException");

        let token = |client: reqwest::Client| {
            let app = &app;
            async move { launch(app, &client, "dice", "play").await.1["token"].as_str().unwrap().to_owned() }
        };
        let (alice_dice, bob_dice, carol_dice) =
            (token(alice.clone()).await, token(bob.clone()).await, token(carol.clone()).await);
        dice(&app, &alice_dice, "10.00", "50.00").await;
        dice(&app, &alice_dice, "5.00", "50.00").await;
        dice(&app, &alice_dice, "0.10", "50.00").await; // below the minimum bet: no score
        dice(&app, &bob_dice, "50.00", "50.00").await;
        dice(&app, &carol_dice, "3.00", "50.00").await;
        let demo = launch(&app, &alice, "dice", "demo").await.1["token"].as_str().unwrap().to_owned();
        dice(&app, &demo, "100.00", "50.00").await; // fun money never scores

        // The aggregator's bet scores once (its replay nothing); a rolled-back bet scores nothing.
        let wallet = Aggregator::launched(&app, &carol, "agg-slot").await;
        let bet = json!({"transaction_uuid": "c-1", "round": "cr-1", "amount": 400, "currency": "USD"});
        assert_eq!(wallet.call("bet", bet.clone()).await["status"], "RS_OK");
        assert_eq!(wallet.call("bet", bet).await["status"], "RS_OK");
        let bet2 = json!({"transaction_uuid": "c-2", "round": "cr-2", "amount": 900, "currency": "USD"});
        assert_eq!(wallet.call("bet", bet2).await["status"], "RS_OK");
        let rollback = json!({"transaction_uuid": "c-3", "reference_transaction_uuid": "c-2", "round": "cr-2", "amount": 900, "currency": "USD", "round_closed": true});
        assert_eq!(wallet.call("rollback", rollback.clone()).await["status"], "RS_OK");
        assert_eq!(wallet.call("rollback", rollback).await["status"], "RS_OK");

        synced(&app).await;
        let (_, board) = app.get_as(&alice, "leaderboard.get", &[("tournament_id", &id_text)]).await;
        let data = &board["data"];
        assert_eq!(data["total"], 2, "only those who joined: {board}");
        let scores: Vec<(i64, i64, bool)> = data["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["rank"].as_i64().unwrap(), i["score"].as_i64().unwrap(), i["is_me"].as_bool().unwrap()))
            .collect();
        assert_eq!(scores, vec![(1, 1_500, true), (2, 700, false)], "{board}");
        assert_eq!(data["items"][0]["name"], "al***@***.com");
        assert_eq!(data["me"]["rank"], 1);
        assert_eq!(data["me"]["gap_to_prize"], Value::Null, "first already");
        assert_eq!(data["me"]["prize"]["kind"], "money");
        let (_, carols) = app.get_as(&carol, "leaderboard.get", &[("tournament_id", &id_text)]).await;
        assert_eq!(carols["data"]["me"]["gap_to_prize"], 801, "{carols}");
        let (_, guest) = app.api_get("leaderboard.get", &[("tournament_id", &id_text), ("count", "1")]).await;
        assert_eq!((guest["data"]["items"].as_array().unwrap().len(), &guest["data"]["me"]), (1, &Value::Null));
        let (_, detail) = app.get_as(&bob, "tournaments.get", &[("id", &id_text)]).await;
        assert_eq!(
            (detail["data"]["joined"].as_bool(), detail["data"]["participants"].as_i64()),
            (Some(false), Some(2))
        );

        // The close: frozen, every prize paid once, told through the winners feed.
        let before = (main_balance(&app, alice_id).await, main_balance(&app, bob_id).await);
        until(30, "the tournament to close", || async {
            let (_, t) = app.api_get("tournaments.get", &[("id", &id_text)]).await;
            let status: String = sqlx::query_scalar("SELECT status FROM tournaments WHERE id = $1")
                .bind(id)
                .fetch_one(app.state.db().pool())
                .await
                .unwrap();
            t["data"]["status"] == "finished" && status == "closed"
        })
        .await;
        assert_eq!(main_balance(&app, alice_id).await, before.0 + 10_000, "alice's 100.00");
        assert_eq!(main_balance(&app, bob_id).await, before.1, "bob took no part");
        let packs: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM freespin_packs WHERE user_id = $1 AND total_count = 5")
                .bind(carol_id)
                .fetch_one(app.state.db().pool())
                .await
                .unwrap();
        assert_eq!(packs, 1, "carol's spins");
        let prizes: Vec<(i64, i64, String)> = sqlx::query_as(
            "SELECT rank, user_id, status FROM tournament_prizes WHERE tournament_id = $1 ORDER BY rank",
        )
        .bind(id)
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(prizes, vec![(1, alice_id, "paid".into()), (2, carol_id, "paid".into())], "no third scorer");
        croupier_server::features::tournaments::close::run(app.state.platform()).await.unwrap();
        assert_eq!(main_balance(&app, alice_id).await, before.0 + 10_000, "a second pass pays nothing again");
        let (_, feed) = app.api_get("winners.get", &[("kind", "tournament")]).await;
        assert_eq!(feed["data"]["total"], 1, "{feed}");
        assert_eq!(feed["data"]["items"][0]["amount"], json!({"amount": "100.00", "currency": "USD"}));
        let (_, report) =
            admin(&app, reqwest::Method::GET, &format!("/admin/tournaments/{id}/report"), json!(null)).await;
        assert_eq!(report["data"]["participants"], 2, "{report}");
        // Finished: no more joining, no more scoring.
        let (status, body) = app.post_as(&bob, "tournaments.participate", &[("tournament_id", &id_text)]).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        ledger_clean(&app).await;
        app.finish().await;
    }
}

#[tokio::test]
async fn automatic_tournaments_count_wins_and_multipliers_and_cancel_pays_nothing() {
    for backend in backends() {
        let app = spawn(backend).await;
        let prizes = json!([{"rank_from": 1, "rank_to": 3, "kind": "money", "amount": 500}]);
        let (_, win_t) = admin(
            &app,
            reqwest::Method::POST,
            "/admin/tournaments",
            tournament("win", "automatic", 600, prizes.clone()),
        )
        .await;
        let (_, mult_t) = admin(
            &app,
            reqwest::Method::POST,
            "/admin/tournaments",
            tournament("multiplier", "automatic", 600, prizes.clone()),
        )
        .await;
        let (win_id, mult_id) = (win_t["data"]["id"].as_i64().unwrap(), mult_t["data"]["id"].as_i64().unwrap());
        let dave = funded(&app, "dave@example.com", 100_000).await;
        let wallet = Aggregator::launched(&app, &dave, "agg-slot").await;
        for (i, (bet, win)) in [(100, 300), (200, 100), (100, 1_250)].into_iter().enumerate() {
            let b = json!({"transaction_uuid": format!("b{i}"), "round": format!("r{i}"), "amount": bet, "currency": "USD"});
            assert_eq!(wallet.call("bet", b).await["status"], "RS_OK");
            let w = json!({"transaction_uuid": format!("w{i}"), "round": format!("r{i}"), "amount": win, "currency": "USD", "round_closed": true});
            assert_eq!(wallet.call("win", w.clone()).await["status"], "RS_OK");
            assert_eq!(wallet.call("win", w).await["status"], "RS_OK", "a replayed win scores nothing");
        }
        let board = |id: i64| {
            let app = &app;
            let dave = dave.clone();
            async move {
                synced(app).await;
                app.get_as(&dave, "leaderboard.get", &[("tournament_id", &id.to_string())]).await.1["data"]["me"]
                    .clone()
            }
        };
        assert_eq!(board(win_id).await["score"], 1_650, "total won");
        assert_eq!(board(mult_id).await["score"], 1_250, "the best round: ×12.50");
        // Big wins (≥ 2× here) reach the winners feed, named as the player chooses.
        let (_, feed) = app.api_get("winners.get", &[("kind", "game")]).await;
        assert_eq!(feed["data"]["total"], 2, "{feed}");
        assert_eq!(feed["data"]["items"][0]["multiplier"], "12.50");
        assert_eq!(feed["data"]["items"][0]["name"], "da***@***.com");
        app.post_as(&dave, "account.changefakename", &[("fakename", "DaveTheBrave")]).await;
        let (status, body) = app.post_as(&dave, "winners.setPrivacy", &[("display", "nickname")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (_, feed) = app.api_get("winners.get", &[]).await;
        assert_eq!(feed["data"]["items"][0]["name"], "DaveTheBrave", "{feed}");
        app.post_as(&dave, "winners.setPrivacy", &[("display", "hidden")]).await;
        let (_, feed) = app.api_get("winners.get", &[]).await;
        assert_eq!(feed["data"]["total"], 0, "hidden: out of the feed");
        synced(&app).await;
        let (_, hidden_board) = app.api_get("leaderboard.get", &[("tournament_id", &win_id.to_string())]).await;
        assert_eq!(hidden_board["data"]["items"][0]["name"], "Anonymous player", "still ranked, not named");
        let (status, body) = app.post_as(&dave, "winners.setPrivacy", &[("display", "everyone")]).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        let (_, privacy) = app.get_as(&dave, "winners.getPrivacy", &[]).await;
        assert_eq!(privacy["data"]["display"], "hidden");

        // Edits only before the start; a cancel stops scoring and pays nothing, twice or not.
        let (status, body) = admin(
            &app,
            reqwest::Method::PUT,
            &format!("/admin/tournaments/{win_id}"),
            tournament("win", "automatic", 600, prizes.clone()),
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        let reason = json!({"reason": "wrong prize table"});
        let (status, body) =
            admin(&app, reqwest::Method::POST, &format!("/admin/tournaments/{win_id}/cancel"), reason.clone()).await;
        assert_eq!((status, body["data"]["status"].as_str()), (StatusCode::OK, Some("cancelled")), "{body}");
        let (_, again) =
            admin(&app, reqwest::Method::POST, &format!("/admin/tournaments/{win_id}/cancel"), reason).await;
        assert_eq!(again["data"]["status"], "cancelled");
        let cancels: Vec<(Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT reason, before_json FROM operator_audit WHERE action = 'tournaments.cancel' AND target_id = $1",
        )
        .bind(win_id.to_string())
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(
            cancels,
            [(Some("wrong prize table".to_owned()), Some(r#"{"status":"scheduled"}"#.to_owned()))],
            "one row, for the cancel that changed something"
        );
        let b = json!({"transaction_uuid": "b9", "round": "r9", "amount": 100, "currency": "USD"});
        wallet.call("bet", b).await;
        let w =
            json!({"transaction_uuid": "w9", "round": "r9", "amount": 10_000, "currency": "USD", "round_closed": true});
        wallet.call("win", w).await;
        assert_eq!(board(win_id).await["score"], 1_650, "a cancelled tournament scores nothing more");
        let (_, listed) = app.api_get("tournaments.get", &[]).await;
        assert_eq!(listed["data"]["total"], 1, "cancelled ones are not listed: {listed}");
        // The operator CLI does the same through the same functions.
        let out = app.cli(&["admin", "tournaments", "list"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && text.contains("\"cancelled\"") && text.lines().count() == 2, "{text}");
        let out = app.cli(&["admin", "tournaments", "report", &mult_id.to_string()]);
        assert!(String::from_utf8_lossy(&out.stdout).contains("\"participants\":1"), "{out:?}");
        let out = app.cli(&["admin", "tournaments", "cancel", "999", "no such tournament"]);
        assert!(!out.status.success(), "{out:?}");
        ledger_clean(&app).await;
        app.finish().await;
    }
}

async fn pool(app: &TestApp, body: Value) -> i64 {
    let (status, created) = admin(app, reqwest::Method::POST, "/admin/jackpots", body).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    created["data"]["id"].as_i64().unwrap()
}

/// What the ledger's jackpot pool account holds in USD (every shard).
async fn pool_account(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM ledger_accounts WHERE kind = 'jackpot_pool' AND currency = 'USD'")
        .fetch_one(app.state.db().pool())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_players_betting_into_a_pool_near_its_trigger_make_exactly_one_winner() {
    const PLAYERS: usize = 200;
    for backend in backends() {
        let app = spawn(backend).await;
        // 10 % of each 1.00 bet: the 150th bet takes the pool from 1000.00 to its 1015.00 cap.
        let id = pool(
            &app,
            json!({"title_en": "Mega Pot", "title_fr": "Méga Pot", "currency": "USD", "seed": 100_000,
                   "contribution_bps": 1_000, "trigger": "must_drop", "must_drop_before": 101_500,
                   "games": {"sysnames": ["dice"]}}),
        )
        .await;
        let mut tokens = Vec::new();
        let mut users = Vec::new();
        for chunk in (0..PLAYERS).collect::<Vec<_>>().chunks(20) {
            let made = futures::future::join_all(chunk.iter().map(|i| {
                let app = &app;
                async move {
                    let client = funded(app, &format!("pot{i}@example.com"), 10_000).await;
                    let token = launch(app, &client, "dice", "play").await.1["token"].as_str().unwrap().to_owned();
                    (uid(app, &client).await, token)
                }
            }))
            .await;
            for (user, token) in made {
                users.push(user);
                tokens.push(token);
            }
        }
        let rounds = futures::future::join_all(tokens.iter().map(|t| dice(&app, t, "1.00", "50.00"))).await;
        let jackpots: Vec<&Value> = rounds.iter().filter_map(|r| r["outcome"].get("jackpot")).collect();
        assert_eq!(jackpots, vec![&json!("1015.00")], "exactly one winner, of the whole pool");
        let wins: Vec<(i64, i64, i64)> =
            sqlx::query_as("SELECT user_id, cycle, amount FROM jackpot_wins WHERE pool_id = $1")
                .bind(id)
                .fetch_all(app.state.db().pool())
                .await
                .unwrap();
        assert_eq!(wins.len(), 1, "{wins:?}");
        let (winner, cycle, amount) = wins[0];
        assert_eq!((cycle, amount), (1, 101_500));
        // Conservation: the pool now holds the seed and the 50 later contributions, and so does
        // the ledger's account; the players' money is what they had, less bets, plus wins.
        let (_, pools) = app.api_get("Jackpots.get", &[("id", &id.to_string())]).await;
        assert_eq!(pools["data"][0]["amount_minor"], 100_500, "{pools}");
        assert_eq!(pools["data"][0]["cycle"], 2);
        assert_eq!(pools["data"][0]["last_win"]["amount"], json!({"amount": "1015.00", "currency": "USD"}));
        assert_eq!(pool_account(&app).await, 100_500);
        let dice_wins: i64 = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(win), 0) AS BIGINT) FROM game_rounds WHERE provider = 'house'",
        )
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
        let mut held = 0;
        for &user in &users {
            held += main_balance(&app, user).await;
        }
        assert_eq!(held, 200 * 10_000 - 200 * 100 + dice_wins + 101_500, "to the cent");
        let history: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM game_rounds WHERE provider = 'jackpot' AND user_id = $1 AND win = 101500",
        )
        .bind(winner)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(history, 1, "the drop is a round of its own in the winner's history");
        let (_, report) = admin(&app, reqwest::Method::GET, &format!("/admin/jackpots/{id}/report"), json!(null)).await;
        assert_eq!(report["data"]["balanced"], true, "{report}");
        assert_eq!((report["data"]["contributions"].as_i64(), report["data"]["drops"].as_i64()), (Some(200), Some(1)));
        let (_, feed) = app.api_get("winners.get", &[("kind", "jackpot")]).await;
        assert_eq!(feed["data"]["total"], 1);
        // Closing returns what the pool holds to the house, once.
        let (_, closed) = admin(&app, reqwest::Method::POST, &format!("/admin/jackpots/{id}/close"), json!(null)).await;
        assert_eq!(closed["data"]["status"], "closed", "{closed}");
        admin(&app, reqwest::Method::POST, &format!("/admin/jackpots/{id}/close"), json!(null)).await;
        assert_eq!(pool_account(&app).await, 0);
        // Each change of the pool is one audit row, written with it; the second close changed
        // nothing and wrote none.
        let rows: Vec<(String, String, Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT action, role, before_json, after_json FROM operator_audit \
             WHERE target_type = 'jackpot' AND target_id = $1 ORDER BY id",
        )
        .bind(id.to_string())
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        let actions: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(actions, ["jackpots.create", "jackpots.status"], "{rows:?}");
        let closed: Value = serde_json::from_str(rows[1].3.as_deref().unwrap()).unwrap();
        assert_eq!((closed["status"].as_str(), closed["returned"].as_i64()), (Some("closed"), Some(100_500)));
        assert_eq!(rows[1].2.as_deref(), Some(r#"{"amount":100500,"status":"active"}"#));
        ledger_clean(&app).await;
        app.finish().await;
    }
}

#[tokio::test]
async fn a_hidden_trigger_is_published_as_a_hash_and_revealed_when_the_pool_drops() {
    for backend in backends() {
        let app = spawn(backend).await;
        let (status, body) = admin(
            &app,
            reqwest::Method::POST,
            "/admin/jackpots",
            json!({"title_en": "", "title_fr": "x", "currency": "ZZZ", "seed": 100, "contribution_bps": 0, "trigger": "soon", "must_drop_before": 50}),
        )
        .await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        for field in ["title_en", "currency", "contribution_bps", "trigger", "must_drop_before"] {
            assert!(error["error_data"][field].is_array(), "{field}: {body}");
        }
        let id = pool(
            &app,
            json!({"title_en": "Secret Pot", "title_fr": "Pot secret", "currency": "USD", "seed": 1_000,
                   "contribution_bps": 2_000, "trigger": "hidden", "must_drop_before": 1_400}),
        )
        .await;
        let (_, before) = app.api_get("Jackpots.get", &[]).await;
        let published = before["data"][0]["trigger_hash"].as_str().unwrap().to_owned();
        assert_eq!(before["data"][0]["must_drop_before"], Value::Null, "the trigger is secret");
        assert_eq!(before["data"][0]["game_sysnames"], json!([]), "every game");
        let eve = funded(&app, "eve@example.com", 100_000).await;
        let token = launch(&app, &eve, "dice", "play").await.1["token"].as_str().unwrap().to_owned();
        // 20 % of 1.00 per round: the trigger (at most 14.00) is reached within 20 rounds.
        let mut dropped = None;
        for _ in 0..25 {
            let round = dice(&app, &token, "1.00", "50.00").await;
            if let Some(amount) = round["outcome"].get("jackpot") {
                dropped = Some(amount.clone());
                break;
            }
        }
        assert!(dropped.is_some(), "the pool dropped");
        let (_, winners) = app.api_get("Jackpots.getWinners", &[("id", &id.to_string())]).await;
        let won = &winners["data"]["items"][0];
        assert_eq!(won["trigger_hash"], published.as_str());
        let trigger = won["trigger"].as_i64().unwrap();
        assert!((1_001..=1_400).contains(&trigger), "{trigger}");
        let salt = won["salt"].as_str().unwrap();
        assert_eq!(croupier_server::features::jackpots::trigger_hash(trigger, salt), published, "the reveal matches");
        let (_, after) = app.api_get("Jackpots.get", &[]).await;
        assert_ne!(after["data"][0]["trigger_hash"], published.as_str(), "a new cycle, a new commitment");
        ledger_clean(&app).await;
        app.finish().await;
    }
}

/// The Redis board against the database for the same random events: scores, ties, rollbacks.
#[tokio::test]
async fn the_redis_leaderboard_gives_the_databases_ranks_for_the_same_random_events() {
    use croupier_server::features::tournaments::board::{self, Source};
    if !crate::helpers::postgres_configured() || std::env::var("TEST_REDIS_URL").map_or(true, |u| u.is_empty()) {
        eprintln!("SKIPPED: the Redis board needs TEST_DATABASE_URL and TEST_REDIS_URL");
        return;
    }
    let app = spawn(Backend::Postgres).await;
    assert!(app.state.coord().as_redis().is_some());
    let prizes = json!([{"rank_from": 1, "rank_to": 1, "kind": "money", "amount": 100}]);
    let (_, created) =
        admin(&app, reqwest::Method::POST, "/admin/tournaments", tournament("stake", "automatic", 600, prizes)).await;
    let id = created["data"]["id"].as_i64().unwrap();
    let mut rng = XorShift(0x5eed_1234);
    for step in 0..600 {
        let mut tx = app.state.db().begin().await.unwrap();
        let user = rng.range(1, 80);
        // Few distinct times and amounts: many ties on score and on time.
        let at = 1_000 + rng.range(0, 5);
        match rng.below(10) {
            0 => {
                board::best(&mut tx, id, user, rng.range(1, 40) * 10, at, true).await.unwrap();
            }
            1 => {
                board::add(&mut tx, id, user, -rng.range(1, 20) * 10, at, false).await.unwrap();
            }
            _ => {
                board::add(&mut tx, id, user, rng.range(1, 20) * 10, at, true).await.unwrap();
            }
        }
        tx.commit().await.unwrap();
        if step % 97 == 0 {
            board::sync(app.state.platform()).await.unwrap();
        }
    }
    synced(&app).await;
    let db = Source::Database(app.state.db());
    let redis = Source::Redis(app.state.coord().as_redis().unwrap());
    let total = db.len(id).await.unwrap();
    assert_eq!(redis.len(id).await.unwrap(), total);
    assert!(total > 50, "{total}");
    let by_db = db.range(id, 0, total).await.unwrap();
    assert_eq!(redis.range(id, 0, total).await.unwrap(), by_db, "the same order, ties included");
    for standing in &by_db {
        assert_eq!(db.standing(id, standing.user).await.unwrap(), Some(*standing));
        assert_eq!(redis.standing(id, standing.user).await.unwrap(), Some(*standing));
    }
    assert_eq!(redis.range(id, 5, 3).await.unwrap(), by_db[5..8].to_vec());
    // What a page shows (the top, the size, the player's standing and the score to beat for the
    // next prize tier): the same from both, for players above, between and below the tiers, a
    // stranger and a guest.
    let ends = [1, 3, 10, 25];
    let viewers = by_db.iter().map(|s| Some(s.user)).chain([Some(9_999_999), None]);
    for user in viewers {
        for count in [0, 1, 5, total + 3] {
            let from_db = db.view(id, count, user, &ends).await.unwrap();
            assert_eq!(redis.view(id, count, user, &ends).await.unwrap(), from_db, "{user:?} {count}");
            let mine = by_db.iter().find(|s| Some(s.user) == user).copied();
            assert_eq!(from_db.mine, mine);
            let next = mine.and_then(|m| board::next_prize_rank(&ends, m.rank));
            assert_eq!(from_db.next_prize_score, next.map(|rank| by_db[usize::try_from(rank - 1).unwrap()].score));
            assert_eq!(from_db.top, by_db[..usize::try_from(count.min(total)).unwrap()].to_vec());
            assert_eq!(from_db.size, if count > 0 { total } else { 0 });
        }
    }
    assert_eq!(board::next_prize_rank(&ends, 1), None);
    assert_eq!(board::next_prize_rank(&ends, 4), Some(3));
    assert_eq!(board::next_prize_rank(&ends, 26), Some(25));
    // A board Redis lost is rebuilt from the database.
    board::forget(app.state.platform(), id).await.unwrap();
    assert_eq!(redis.len(id).await.unwrap(), 0);
    board::rebuild(app.state.platform(), id).await.unwrap();
    assert_eq!(redis.range(id, 0, total).await.unwrap(), by_db);
    app.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_tournament_close_killed_mid_payout_pays_every_prize_exactly_once_after_a_restart() {
    for backend in backends() {
        close_crash(backend).await;
    }
}

async fn close_crash(backend: Backend) {
    use std::process::{Command, Stdio};
    const PLAYERS: i64 = 12;
    let database = TestDb::create(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let start = |pause: &str| {
        Command::new(env!("CARGO_BIN_EXE_croupier-server"))
            .current_dir(dir.path())
            .env_clear()
            .env("CROUPIER_ADDR", format!("127.0.0.1:{port}"))
            .env("DATABASE_URL", &database.url)
            .env("CROUPIER_LOG", "warn")
            .env("CROUPIER_ADMIN_TOKEN", TOKEN)
            .env("CROUPIER_REGISTRATIONS_PER_IP_HOUR", "1000")
            .env("CROUPIER_TOURNAMENT_PAYOUT_PAUSE_MS", pause)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let ready = || async {
        until(30, "the server to start", || async {
            reqwest::get(format!("{base}/readyz")).await.is_ok_and(|r| r.status() == 200)
        })
        .await;
    };
    let mut server = start("250");
    ready().await;
    let db = croupier_server::db::Db::connect(&database.url, 2).await.unwrap();
    let mut users = Vec::new();
    for i in 0..PLAYERS {
        let client = reqwest::Client::builder().cookie_store(true).build().unwrap();
        let form = [
            ("email", format!("close{i}@example.com")),
            ("password", "secret123".into()),
            ("currency", "USD".into()),
            ("terms", "1".into()),
        ];
        let (status, body) =
            read_json(client.post(format!("{base}/api/auth.register?v=2.34")).form(&form).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        users.push(body["data"]["uid"].as_i64().unwrap());
    }
    let now = now_ms() / 1000;
    let mut input =
        tournament("stake", "opt_in", 2, json!([{"rank_from": 1, "rank_to": PLAYERS, "kind": "money", "amount": 500}]));
    input["starts_at"] = json!(now - 10);
    input["games"] = json!({});
    let (status, created) = read_json(
        reqwest::Client::new()
            .post(format!("{base}/admin/tournaments"))
            .bearer_auth(TOKEN)
            .json(&input)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let id = created["data"]["id"].as_i64().unwrap();
    for (i, user) in users.iter().enumerate() {
        sqlx::query("INSERT INTO tournament_scores (tournament_id, user_id, score, reached_at, seq, notify_rank, joined_at) VALUES ($1, $2, $3, $4, 1, 0, $4)")
            .bind(id)
            .bind(user)
            .bind(100 * (i64::try_from(i).unwrap() + 1))
            .bind(now_ms())
            .execute(db.pool())
            .await
            .unwrap();
    }
    let paid = || async {
        sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM tournament_prizes WHERE tournament_id = $1 AND status = 'paid'",
        )
        .bind(id)
        .fetch_one(db.pool())
        .await
        .unwrap()
    };
    until(30, "the payout to start", || async { paid().await >= 3 }).await;
    server.kill().unwrap();
    server.wait().unwrap();
    let at_kill = paid().await;
    assert!(at_kill < PLAYERS, "killed mid-payout: {at_kill} of {PLAYERS} paid");

    let mut server = start("0");
    ready().await;
    until(30, "the restarted server to finish the close", || async {
        let status: String = sqlx::query_scalar("SELECT status FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_one(db.pool())
            .await
            .unwrap();
        status == "closed"
    })
    .await;
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(paid().await, PLAYERS);
    let usd = croupier_shared::Currency::parse("USD").unwrap();
    for user in &users {
        let main = croupier_server::ledger::player_balances(&db, *user, usd).await.unwrap()[0];
        assert_eq!(main, 500, "player {user}: one prize, once");
    }
    let entries: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ledger_transactions WHERE kind = 'tournament_prize'")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(entries, PLAYERS);
    let report = croupier_server::ledger::check(&db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    eprintln!(
        "tournament close crash test ({backend:?}): killed with {at_kill} of {PLAYERS} paid; all {PLAYERS} once after the restart"
    );
    db.close().await;
    database.drop_database().await;
}

/// Reads server-sent events from `response` until one named `name` satisfies `want`, for at most
/// `secs` seconds; answers its data.
async fn next_event(
    response: &mut reqwest::Response,
    buffer: &mut String,
    name: &str,
    secs: u64,
    want: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let event = block.lines().find_map(|l| l.strip_prefix("event:")).map(str::trim);
            let data: String = block.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim_start).collect();
            if event == Some(name) {
                let value: Value = serde_json::from_str(&data).unwrap();
                if want(&value) {
                    return value;
                }
            }
        }
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(!left.is_zero(), "no `{name}` event as wanted within {secs} s");
        match tokio::time::timeout(left, response.chunk()).await {
            Ok(Ok(Some(chunk))) => buffer.push_str(&String::from_utf8_lossy(&chunk)),
            Ok(other) => panic!("the stream ended: {other:?}"),
            Err(_) => panic!("no `{name}` event as wanted within {secs} s"),
        }
    }
}

#[tokio::test]
async fn open_pages_see_the_leaderboard_and_the_jackpots_move_live() {
    for backend in backends() {
        let app = spawn(backend).await;
        let prizes = json!([{"rank_from": 1, "rank_to": 1, "kind": "money", "amount": 100}]);
        let (_, created) =
            admin(&app, reqwest::Method::POST, "/admin/tournaments", tournament("stake", "automatic", 600, prizes))
                .await;
        let id = created["data"]["id"].as_i64().unwrap();
        pool(
            &app,
            json!({"title_en": "Live Pot", "title_fr": "Pot en direct", "currency": "USD", "seed": 5_000,
                   "contribution_bps": 100, "game_contributions": {"dice": 500}, "trigger": "must_drop", "must_drop_before": 1_000_000}),
        )
        .await;
        let (_, shown) = app.api_get("Jackpots.get", &[]).await;
        assert_eq!(shown["data"][0]["game_sysnames"], json!([]), "every game: {shown}");
        assert_eq!(shown["data"][0]["game_contributions"], json!([{"sysname": "dice", "percent": "5.00"}]));
        let (status, body) = admin(
            &app,
            reqwest::Method::POST,
            "/admin/jackpots",
            json!({"title_en": "X", "title_fr": "X", "currency": "USD", "seed": 0, "contribution_bps": 100,
                   "game_contributions": {"no-such-game": 10}, "trigger": "must_drop", "must_drop_before": 100}),
        )
        .await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert!(error["error_data"]["game_contributions"].is_array(), "{body}");
        let (_, still_one) = app.api_get("Jackpots.get", &[]).await;
        assert_eq!(still_one["data"].as_array().unwrap().len(), 1, "a refused pool leaves nothing");
        let frank = funded(&app, "frank@example.com", 100_000).await;
        let token = launch(&app, &frank, "dice", "play").await.1["token"].as_str().unwrap().to_owned();

        let mut board = frank.get(app.url(&format!("/live/tournaments/{id}?locale=fr"))).send().await.unwrap();
        assert_eq!(board.status(), StatusCode::OK);
        assert!(board.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
        let mut pots = reqwest::Client::new().get(app.url("/live/jackpots")).send().await.unwrap();
        let (mut board_buf, mut pots_buf) = (String::new(), String::new());
        let first = next_event(&mut board, &mut board_buf, "leaderboard", 5, |_| true).await;
        assert_eq!((first["total"].as_i64(), &first["me"]), (Some(0), &Value::Null), "{first}");
        let pot = next_event(&mut pots, &mut pots_buf, "jackpots", 5, |_| true).await;
        assert_eq!(pot[0]["amount_minor"], 5_000);

        dice(&app, &token, "20.00", "50.00").await;
        let moved = next_event(&mut board, &mut board_buf, "leaderboard", 5, |b| b["total"] == 1).await;
        assert_eq!((moved["me"]["rank"].as_i64(), moved["me"]["score"].as_i64()), (Some(1), Some(2_000)), "{moved}");
        let grown = next_event(&mut pots, &mut pots_buf, "jackpots", 5, |p| p[0]["amount_minor"] != 5_000).await;
        assert_eq!(grown[0]["amount_minor"], 5_100, "dice's own 5 % of 20.00");

        let (status, body) = read_json(reqwest::get(app.url("/live/tournaments/999")).await.unwrap()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
        drop(board);
        drop(pots);
        app.finish().await;
    }
}

#[tokio::test]
async fn the_advertised_weekly_tournament_runs_on_a_fresh_site_and_a_repeating_one_schedules_its_next_edition() {
    for backend in backends() {
        let app = TestApp::spawn_with(
            backend,
            &[("CROUPIER_DEMO_TOURNAMENT", "true"), ("CROUPIER_ADMIN_TOKEN", TOKEN)],
            |_| {},
        )
        .await;
        let (_, running) = app.api_get("tournaments.get", &[("status", "running")]).await;
        assert_eq!(running["data"]["total"], 1, "{running}");
        let weekly = &running["data"]["items"][0];
        assert_eq!(
            (weekly["title"].as_str(), weekly["participation"].as_str()),
            (Some("Weekly tournament"), Some("opt_in"))
        );
        assert_eq!(weekly["ends_at"].as_i64().unwrap() - weekly["starts_at"].as_i64().unwrap(), 7 * 86_400);
        assert_eq!(weekly["prize_pool"], json!({"amount": "175.00", "currency": "USD"}));
        let (_, french) =
            read_json(reqwest::get(app.api_url("tournaments.get", "fr", &[("status", "running")])).await.unwrap())
                .await;
        assert_eq!(french["data"]["items"][0]["title"], "Tournoi de la semaine");

        // A daily tournament ending soon, whose prize is bonus money: its close pays it as a
        // wagering bonus, tells the Telegram-linked winner through the bot (and her final rank,
        // which she asked for), and schedules tomorrow's edition, once.
        let mut daily = tournament(
            "stake",
            "opt_in",
            10,
            json!([{"rank_from": 1, "rank_to": 1, "kind": "bonus", "amount": 2_500, "wager_multiplier": 10}]),
        );
        daily["games"] = json!({});
        daily["repeat_days"] = json!(1);
        let (status, created) = admin(&app, reqwest::Method::POST, "/admin/tournaments", daily.clone()).await;
        assert_eq!(status, StatusCode::OK, "{created}");
        let id = created["data"]["id"].as_i64().unwrap();
        let gina = funded(&app, "gina@example.com", 10_000).await;
        let gina_id = uid(&app, &gina).await;
        sqlx::query("INSERT INTO social_identities (provider, subject, user_id, created_at) VALUES ('telegram', '424242', $1, 0)")
            .bind(gina_id)
            .execute(app.state.db().pool())
            .await
            .unwrap();
        app.post_as(&gina, "tournaments.participate", &[("tournament_id", &id.to_string()), ("notify", "1")]).await;
        let token = launch(&app, &gina, "dice", "play").await.1["token"].as_str().unwrap().to_owned();
        dice(&app, &token, "1.00", "50.00").await;
        daily["repeat_days"] = json!(400);
        let (status, body) = admin(&app, reqwest::Method::POST, "/admin/tournaments", daily).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        until(30, "the daily tournament to close", || async {
            let status: String = sqlx::query_scalar("SELECT status FROM tournaments WHERE id = $1")
                .bind(id)
                .fetch_one(app.state.db().pool())
                .await
                .unwrap();
            status == "closed"
        })
        .await;
        croupier_server::features::tournaments::close::run(app.state.platform()).await.unwrap();
        let (_, bonuses) = app.get_as(&gina, "bonuses.get", &[]).await;
        let bonus = bonuses["data"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b.to_string().contains("prize for rank 1"))
            .cloned();
        let bonus = bonus.unwrap_or_else(|| panic!("the prize is a bonus: {bonuses}"));
        assert!(bonus.to_string().contains("25.00"), "{bonus}");
        let told: Vec<String> =
            sqlx::query_scalar("SELECT kind FROM notification_outbox WHERE user_id = $1 ORDER BY kind")
                .bind(gina_id)
                .fetch_all(app.state.db().pool())
                .await
                .unwrap();
        assert!(
            told.contains(&"tournament_prize".to_owned()) && told.contains(&"tournament_rank".to_owned()),
            "{told:?}"
        );
        let next: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT n.starts_at - o.starts_at, n.ends_at - o.ends_at FROM tournaments n JOIN tournaments o ON o.id = $1 WHERE n.id > $1",
        )
        .bind(id)
        .fetch_all(app.state.db().pool())
        .await
        .unwrap();
        assert_eq!(next, vec![(86_400_000, 86_400_000)], "exactly one next edition, a day later");
        let (_, upcoming) = app.api_get("tournaments.get", &[("status", "upcoming")]).await;
        assert_eq!(upcoming["data"]["items"][0]["game_sysnames"], json!([]), "{upcoming}");
        app.finish().await;
    }
}
