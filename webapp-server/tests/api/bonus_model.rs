//! The bonus engine against a model: random funding, grants, bets in games of different
//! contributions (dice 100 %, roulette 10 %), wins, rollbacks, expiries and cancels, played
//! through the wallet's own functions (what house rounds and aggregators' calls run), each in
//! its own transaction. After every step the main balance, the bonus account and every bonus's
//! status, balance and wagering must equal a simple model's; at the end `ledger check` is clean.
//! Both spending rules (shared, isolated) on both databases.

use crate::games::launch;
use crate::helpers::XorShift;
use crate::helpers::{Backend, TestApp, postgres_configured};
use croupier_server::features::backoffice::trail::Actor;
use croupier_server::features::bonuses::Rules;
use croupier_server::features::bonuses::admin::{self, GrantInput};
use croupier_server::features::bonuses::jobs;
use croupier_server::features::games::wallet::{self, WalletRequest};
use croupier_server::ledger::{self, Account, Entry, HouseAccount, PlayerAccount};
use croupier_shared::Currency;
use reqwest::StatusCode;

/// Steps per run.
const STEPS: usize = 2_000;

#[derive(Debug, Clone)]
struct MBonus {
    id: i64,
    status: String,
    balance: i64,
    target: i64,
    wagered: i64,
    /// None: every game.
    game: Option<&'static str>,
    max_bet: i64,
    max_conversion: Option<i64>,
}

impl MBonus {
    fn is_for(&self, game: &str) -> bool {
        self.game.is_none_or(|g| g == game)
    }
}

#[derive(Debug, Clone)]
struct MStake {
    bonus: i64,
    staked: i64,
    counted: i64,
}

#[derive(Debug, Clone)]
struct MRound {
    round: String,
    game: &'static str,
    bet: i64,
    stakes: Vec<MStake>,
    open: bool,
    won: i64,
    rolled_back: bool,
}

#[derive(Default)]
struct Model {
    main: i64,
    bonuses: Vec<MBonus>,
    rounds: Vec<MRound>,
    isolation: bool,
}

fn contribution(game: &str) -> i64 {
    if game == "dice" { 100 } else { 10 }
}

impl Model {
    /// The model's bet: Ok(stakes, main part) or the wallet's refusal status.
    fn plan(&self, game: &str, amount: i64) -> Result<(i64, Vec<MStake>), &'static str> {
        let wagering: Vec<&MBonus> = self.bonuses.iter().filter(|b| b.status == "wagering").collect();
        if let Some(max) = wagering.iter().filter(|b| b.is_for(game) && b.max_bet > 0).map(|b| b.max_bet).min()
            && amount > max
        {
            return Err("RS_ERROR_LIMIT_REACHED");
        }
        let from_main = self.main.clamp(0, amount);
        let mut rest = amount - from_main;
        let mut stakes: Vec<MStake> = Vec::new();
        for b in wagering.iter().filter(|b| !self.isolation || b.is_for(game)) {
            if rest == 0 {
                break;
            }
            let take = b.balance.min(rest);
            if take > 0 {
                stakes.push(MStake { bonus: b.id, staked: take, counted: 0 });
                rest -= take;
            }
        }
        if rest > 0 {
            return Err("RS_ERROR_NOT_ENOUGH_MONEY");
        }
        if let Some(b) = wagering.iter().find(|b| b.is_for(game) && b.wagered < b.target) {
            let counted = amount * contribution(game) / 100;
            if counted > 0 {
                match stakes.iter_mut().find(|s| s.bonus == b.id) {
                    Some(s) => s.counted = counted,
                    None => stakes.push(MStake { bonus: b.id, staked: 0, counted }),
                }
            }
        }
        Ok((from_main, stakes))
    }

    fn bonus(&mut self, id: i64) -> &mut MBonus {
        self.bonuses.iter_mut().find(|b| b.id == id).unwrap()
    }

    /// Money back to a bonus (or main, or the house) by its status.
    fn pay(&mut self, id: i64, amount: i64) {
        let b = self.bonus(id);
        match b.status.as_str() {
            "wagering" => b.balance += amount,
            "completed" => self.main += amount,
            _ => {}
        }
    }

    fn settle(&mut self) {
        let open: Vec<i64> = self
            .rounds
            .iter()
            .filter(|r| r.open && !r.rolled_back)
            .flat_map(|r| r.stakes.iter().filter(|s| s.staked > 0).map(|s| s.bonus))
            .collect();
        let mut converted = 0;
        for b in self.bonuses.iter_mut() {
            if b.status != "wagering" || open.contains(&b.id) || !(b.wagered >= b.target || b.balance == 0) {
                continue;
            }
            if b.wagered >= b.target {
                converted += b.max_conversion.map_or(b.balance, |m| m.min(b.balance));
                b.status = "completed".into();
            } else {
                b.status = "forfeited".into();
            }
            b.balance = 0;
        }
        self.main += converted;
    }
}

fn request(token: &str, round: &str, uuid: &str, reference: Option<&str>, amount: i64, closed: bool) -> WalletRequest {
    WalletRequest {
        request_uuid: uuid::Uuid::new_v4().to_string(),
        transaction_uuid: uuid.to_owned(),
        reference_transaction_uuid: reference.map(str::to_owned),
        round: round.to_owned(),
        round_closed: closed,
        user: String::new(),
        token: token.to_owned(),
        game_code: String::new(),
        currency: "USD".into(),
        amount,
    }
}

async fn run(backend: Backend, isolation: bool, seed: u64) {
    let env =
        [("CROUPIER_BONUS_ISOLATION", if isolation { "true" } else { "false" }), ("CROUPIER_BONUS_MAX_ACTIVE", "3")];
    let app = TestApp::spawn_with(backend, &env, |_| {}).await;
    let usd = Currency::parse("USD").unwrap();
    let rules = Rules::of(&app.state);
    assert_eq!(rules.isolation, isolation);
    // Two campaigns: any game, capped at 5.00 a bet; dice only, no cap, conversion capped at 8.00.
    let mut any = crate::bonuses::campaign("model-any", "manual", "fixed", 2_000, 2);
    any.amounts[0].max_bet = 500;
    let any = any.save(&app.state, &Actor::cli(), None).await.unwrap();
    let mut dice_only = crate::bonuses::campaign("model-dice", "manual", "fixed", 1_000, 1);
    dice_only.games = vec!["dice".into()];
    dice_only.amounts[0].max_bet = 0;
    dice_only.amounts[0].max_conversion = Some(800);
    let dice_only = dice_only.save(&app.state, &Actor::cli(), None).await.unwrap();

    // Real play needs a first deposit: the model starts with it.
    let client = crate::games::funded(&app, "model@example.com", 5_000).await;
    let (_, me) = app.get_as(&client, "account.getInfo", &[]).await;
    let user = me["data"]["uid"].as_i64().unwrap();
    let mut tokens = Vec::new();
    for game in ["dice", "roulette"] {
        let (status, launched) = launch(&app, &client, game, "play").await;
        assert_eq!(status, StatusCode::OK, "{launched}");
        tokens.push((game, launched["token"].as_str().unwrap().to_owned()));
    }
    let db = app.state.db();
    let mut rng = XorShift(seed);
    let mut model = Model { isolation, main: 5_000, ..Model::default() };
    let mut counter = 0;
    // What the run went through, so a run that never reaches a rule cannot pass unseen.
    let (mut bonus_bets, mut max_bets, mut broke) = (0, 0, 0);
    for step in 0..STEPS {
        counter += 1;
        let roll = rng.below(100);
        let what;
        if roll < 4 {
            what = "fund";
            let amount = rng.range(1, 1_000);
            let key = format!("model-fund:{user}:{counter}");
            let entry = Entry::transfer(
                &key,
                "deposit",
                usd,
                Account::House(HouseAccount::PaymentClearing),
                Account::main(user),
                amount,
            )
            .by(Some(user));
            let mut tx = db.begin().await.unwrap();
            ledger::post(&mut tx, &entry).await.unwrap();
            tx.commit().await.unwrap();
            model.main += amount;
        } else if roll < 10 {
            what = "grant";
            let (campaign, amount, multiplier, game, max_bet, conversion) = if rng.below(2) == 0 {
                (any, 2_000, 2, None, 500, None)
            } else {
                (dice_only, 1_000, 1, Some("dice"), 0, Some(800))
            };
            let id = admin::grant(
                &app.state,
                &Actor::cli(),
                &GrantInput { user_id: user, campaign_id: campaign, reason: "model".into() },
            )
            .await
            .unwrap();
            let wagering = model.bonuses.iter().filter(|b| b.status == "wagering").count();
            let credited = wagering < 3;
            model.bonuses.push(MBonus {
                id,
                status: if credited { "wagering" } else { "offered" }.into(),
                balance: if credited { amount } else { 0 },
                target: if credited { amount * multiplier } else { 0 },
                wagered: 0,
                game,
                max_bet,
                max_conversion: conversion,
            });
        } else if roll < 65 {
            what = "bet";
            let (game, token) = tokens[usize::try_from(rng.below(2)).unwrap()].clone();
            let amount = rng.range(1, 800);
            let round = format!("model-{counter}");
            let uuid = format!("{round}:bet");
            let expected = model.plan(game, amount);
            let mut tx = db.begin().await.unwrap();
            let result =
                wallet::bet(&mut tx, "house", &request(&token, &round, &uuid, None, amount, false), &rules).await;
            match (&expected, result) {
                (Ok((from_main, stakes)), Ok(_)) => {
                    tx.commit().await.unwrap();
                    bonus_bets += usize::from(stakes.iter().any(|s| s.staked > 0));
                    model.main -= from_main;
                    for s in stakes {
                        let b = model.bonus(s.bonus);
                        b.balance -= s.staked;
                        b.wagered += s.counted;
                    }
                    model.rounds.push(MRound {
                        round,
                        game,
                        bet: amount,
                        stakes: stakes.clone(),
                        open: true,
                        won: 0,
                        rolled_back: false,
                    });
                }
                (Err(want), Err(got)) => {
                    drop(tx);
                    assert_eq!(got.status(), *want, "step {step}: bet {amount} in {game}");
                    if *want == "RS_ERROR_LIMIT_REACHED" {
                        max_bets += 1;
                    } else {
                        broke += 1;
                    }
                }
                (want, got) => panic!("step {step}: bet {amount} in {game}: model {want:?}, engine {got:?}"),
            }
        } else if roll < 87 {
            what = "win";
            let open: Vec<usize> = (0..model.rounds.len()).filter(|&i| model.rounds[i].open).collect();
            if open.is_empty() {
                continue;
            }
            let i = open[usize::try_from(rng.below(u64::try_from(open.len()).unwrap())).unwrap()];
            let r = model.rounds[i].clone();
            let amount = if rng.below(3) == 0 { 0 } else { rng.range(0, r.bet * 2) };
            let token = tokens.iter().find(|(g, _)| *g == r.game).unwrap().1.clone();
            let mut tx = db.begin().await.unwrap();
            wallet::win(
                &mut tx,
                "house",
                &request(&token, &r.round, &format!("{}:win", r.round), None, amount, true),
                &rules,
            )
            .await
            .unwrap_or_else(|e| panic!("step {step}: win {e:?}"));
            tx.commit().await.unwrap();
            let mut to_main = amount;
            if amount > 0 && r.bet > 0 {
                for s in r.stakes.iter().filter(|s| s.staked > 0) {
                    let share = amount * s.staked.min(r.bet) / r.bet;
                    if share > 0 {
                        to_main -= share;
                        model.pay(s.bonus, share);
                    }
                }
            }
            model.main += to_main;
            model.rounds[i].open = false;
            model.rounds[i].won += amount;
            model.settle();
        } else if roll < 97 {
            what = "rollback";
            let open: Vec<usize> =
                (0..model.rounds.len()).filter(|&i| model.rounds[i].open && model.rounds[i].won == 0).collect();
            if open.is_empty() {
                continue;
            }
            let i = open[usize::try_from(rng.below(u64::try_from(open.len()).unwrap())).unwrap()];
            let r = model.rounds[i].clone();
            let token = tokens.iter().find(|(g, _)| *g == r.game).unwrap().1.clone();
            let bet_uuid = format!("{}:bet", r.round);
            let req = request(&token, &r.round, &format!("{}:rollback", r.round), Some(&bet_uuid), r.bet, true);
            let mut tx = db.begin().await.unwrap();
            wallet::rollback(&mut tx, "house", &req, &rules)
                .await
                .unwrap_or_else(|e| panic!("step {step}: rollback {e:?}"));
            tx.commit().await.unwrap();
            let mut to_main = r.bet;
            for s in &r.stakes {
                if s.staked > 0 {
                    to_main -= s.staked;
                    model.pay(s.bonus, s.staked);
                }
                let b = model.bonus(s.bonus);
                if b.status == "wagering" {
                    b.wagered -= s.counted;
                }
            }
            model.main += to_main;
            model.rounds[i].open = false;
            model.rounds[i].rolled_back = true;
            model.settle();
        } else {
            what = if roll < 99 { "expire" } else { "cancel" };
            let live: Vec<i64> = model.bonuses.iter().filter(|b| b.status == "wagering").map(|b| b.id).collect();
            if live.is_empty() {
                continue;
            }
            let id = live[usize::try_from(rng.below(u64::try_from(live.len()).unwrap())).unwrap()];
            if what == "expire" {
                sqlx::query("UPDATE player_bonuses SET expires_at = 1 WHERE id = $1")
                    .bind(id)
                    .execute(db.pool())
                    .await
                    .unwrap();
                assert_eq!(jobs::expire(&app.state, croupier_server::db::now_ms()).await.unwrap(), 1, "step {step}");
                let b = model.bonus(id);
                b.status = "expired".into();
                b.balance = 0;
            } else {
                admin::cancel(&app.state, &Actor::cli(), id, "model").await.unwrap();
                let b = model.bonus(id);
                b.status = "forfeited".into();
                b.balance = 0;
            }
        }
        // Compare everything.
        let mut conn = db.pool().acquire().await.unwrap();
        let main = ledger::balance(&mut conn, Account::main(user), usd).await.unwrap();
        let bonus = ledger::balance(&mut conn, Account::Player { user_id: user, kind: PlayerAccount::Bonus }, usd)
            .await
            .unwrap();
        assert_eq!(main, model.main, "step {step} ({what}): main");
        let held: i64 = model.bonuses.iter().filter(|b| b.status == "wagering").map(|b| b.balance).sum();
        assert_eq!(bonus, held, "step {step} ({what}): the bonus account is the wagering bonuses' balances");
        let rows: Vec<(i64, String, i64, i64, i64)> = sqlx::query_as(
            "SELECT id, status, balance, wager_target, wagered FROM player_bonuses WHERE user_id = $1 ORDER BY id",
        )
        .bind(user)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        assert_eq!(rows.len(), model.bonuses.len());
        for (row, b) in rows.iter().zip(&model.bonuses) {
            assert_eq!(
                (row.0, row.1.as_str(), row.2, row.3, row.4),
                (b.id, b.status.as_str(), b.balance, b.target, b.wagered),
                "step {step} ({what}): bonus {}",
                b.id
            );
        }
    }
    assert!(
        bonus_bets > 0 && max_bets > 0 && broke > 0,
        "bets from bonuses {bonus_bets}, over the max {max_bets}, unfunded {broke}"
    );
    let statuses: Vec<&str> = model.bonuses.iter().map(|b| b.status.as_str()).collect();
    for status in ["completed", "forfeited", "expired"] {
        assert!(statuses.contains(&status), "the run reached no {status} bonus: {statuses:?}");
    }
    let report = ledger::check(db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    app.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_spending_matches_the_model_on_sqlite() {
    run(Backend::Sqlite, false, 0x5eed_0001).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn isolated_spending_matches_the_model_on_sqlite() {
    run(Backend::Sqlite, true, 0x5eed_0002).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_spending_matches_the_model_on_postgres() {
    if !postgres_configured() {
        eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
        return;
    }
    run(Backend::Postgres, false, 0x5eed_0003).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn isolated_spending_matches_the_model_on_postgres() {
    if !postgres_configured() {
        eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
        return;
    }
    run(Backend::Postgres, true, 0x5eed_0004).await;
}
