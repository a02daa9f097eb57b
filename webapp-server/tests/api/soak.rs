//! The ledger at scale (issue 24, item 2): many players' random money movements, concurrently,
//! against a simple model — `CROUPIER_SOAK_OPS` operations per database (20,000 by default, as in
//! `make test`; `make soak` runs 1,000,000 and prints the table).
//!
//! Each worker owns a few players and plays their operations one after another, so the model of
//! a player is exact while the workers race each other through the group committer. The bulk are
//! bare movements queued with `ledger::queue` (a quarter run as `db.group` jobs that post, like the
//! withdrawal and bonus paths): deposits, withdrawal holds, returns and payouts, bets, wins,
//! rollbacks, bonus credits, conversions and forfeits, free-bet credits and stakes, cashbacks,
//! replays (the same key and postings: `Replayed`, nothing moves) and reused keys (other postings:
//! refused). Operator loyalty adjustments go through `loyalty::admin::adjust` (a repeated key
//! changes nothing). About a quarter are the real wallet path: signed aggregator calls over HTTP
//! (bets, wins, rollbacks, replays that must answer the first answer, reused transaction ids that
//! must be refused), whose answered balance must be the model's and whose bets earn loyalty points.
//!
//! After the run: every player's balances, every house account, every player's points and round
//! totals equal the model's, and `ledger check` is clean (no negative balance). A mismatch is
//! counted as a violation rather than stopping the run, so the table tells how many there were.

use crate::games::{AGG_SECRET, agg_game, agg_providers, launch, signed_wallet_call};
use crate::helpers::{Backend, TestApp, XorShift, backends};
use croupier_server::App;
use croupier_server::db::group::job;
use croupier_server::features::loyalty;
use croupier_server::ledger::{self, Account, Entry, HouseAccount, LedgerError, PlayerAccount, Posted, Posting};
use croupier_shared::Currency;
use futures::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

/// Operations per database when `CROUPIER_SOAK_OPS` is not set (the CI run).
const DEFAULT_OPS: u64 = 20_000;
const PLAYERS: usize = 64;
const WORKERS: usize = 32;
/// How many of a player's latest applied movements and answered calls are kept for replays.
const RECENT: usize = 32;
/// Violations kept with their text (all are counted).
const SHOWN: usize = 20;

const HOUSES: [HouseAccount; 6] = [
    HouseAccount::PaymentClearing,
    HouseAccount::WithdrawalHolds,
    HouseAccount::GameSettlement,
    HouseAccount::BonusLiability,
    HouseAccount::Promotions,
    HouseAccount::JackpotPool,
];

/// The model's house accounts, in the order of [`HOUSES`].
#[derive(Default)]
struct Houses([i64; HOUSES.len()]);

impl Houses {
    fn slot(kind: HouseAccount) -> usize {
        HOUSES.iter().position(|h| *h == kind).expect("a house account the soak moves")
    }

    fn add(&mut self, kind: HouseAccount, amount: i64) {
        self.0[Houses::slot(kind)] += amount;
    }

    fn merge(&mut self, other: &Houses) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }
}

fn usd() -> Currency {
    Currency::parse("USD").unwrap()
}

fn soak_ops() -> u64 {
    std::env::var("CROUPIER_SOAK_OPS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(DEFAULT_OPS)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_soak_of_concurrent_money_movements_matches_the_model_on_every_database() {
    let ops = soak_ops();
    let mut results = Vec::new();
    for backend in backends() {
        results.push(soak(backend, ops).await);
    }
    eprintln!("\nledger soak: {PLAYERS} players, {WORKERS} concurrent workers");
    eprintln!("| database   | operations | seconds | operations/s | violations |");
    eprintln!("|------------|-----------:|--------:|-------------:|-----------:|");
    for r in &results {
        eprintln!(
            "| {:<10} | {:>10} | {:>7.1} | {:>12.0} | {:>10} |",
            format!("{:?}", r.backend),
            r.operations,
            r.seconds,
            r.operations as f64 / r.seconds.max(0.001),
            r.violations
        );
    }
    for r in &results {
        eprintln!("{:?}: what ran: {:?}", r.backend, r.tally);
        assert_eq!(r.violations, 0, "{:?}: {:#?}", r.backend, r.shown);
        assert!(r.operations >= ops, "{:?}: {} of {ops} operations ran", r.backend, r.operations);
        // A run that never reached a case proves nothing about it.
        for case in [
            "deposit",
            "hold",
            "hold short",
            "return",
            "payout",
            "bet",
            "bet short",
            "win",
            "rollback",
            "bonus credit",
            "bonus convert",
            "bonus forfeit",
            "freebet credit",
            "freebet stake",
            "cashback",
            "points",
            "points replay",
            "replay",
            "reused",
            "wallet bet",
            "wallet bet short",
            "wallet win",
            "wallet rollback",
            "wallet replay",
            "wallet reused",
        ] {
            assert!(r.tally.get(case).copied().unwrap_or(0) > 0, "{:?}: the run never did {case}", r.backend);
        }
    }
}

struct Outcome {
    backend: Backend,
    operations: u64,
    seconds: f64,
    violations: u64,
    shown: Vec<String>,
    tally: std::collections::BTreeMap<&'static str, u64>,
}

/// Violations of one worker or of the final comparison.
#[derive(Default)]
struct Faults {
    count: u64,
    shown: Vec<String>,
}

impl Faults {
    fn add(&mut self, what: String) {
        self.count += 1;
        if self.shown.len() < SHOWN {
            self.shown.push(what);
        }
    }

    fn merge(&mut self, other: Faults) {
        self.count += other.count;
        for s in other.shown {
            if self.shown.len() < SHOWN {
                self.shown.push(s);
            }
        }
    }
}

/// A movement as the model remembers it, to send again.
#[derive(Clone)]
struct Move {
    key: String,
    kind: &'static str,
    user: i64,
    postings: Vec<(Account, i64)>,
}

impl Move {
    fn entry(&self) -> Entry<'_> {
        Entry {
            key: &self.key,
            kind: self.kind,
            user_id: Some(self.user),
            reference: None,
            currency: usd(),
            postings: self.postings.iter().map(|&(account, amount)| Posting { account, amount }).collect(),
        }
    }
}

/// An answered wallet call, to send again.
#[derive(Clone)]
struct Call {
    action: &'static str,
    body: Value,
    status: String,
    balance: Option<i64>,
}

/// A wallet round with its bet still open (no win, no rollback).
struct Round {
    round: String,
    bet_uuid: String,
    amount: i64,
    points: i64,
}

/// One player as the model sees them.
struct Player {
    user: i64,
    token: String,
    main: i64,
    bonus: i64,
    betting: i64,
    /// Open withdrawal holds: (key, amount).
    holds: Vec<(String, i64)>,
    /// Ledger-level bets that may still be rolled back: (key, amount).
    bets: Vec<(String, i64)>,
    recent: VecDeque<Move>,
    calls: VecDeque<Call>,
    rounds: Vec<Round>,
    /// Loyalty points in thousandths.
    points: i64,
    /// The wallet's round totals (bets net of rollbacks, wins).
    round_bets: i64,
    round_wins: i64,
    next: u64,
}

impl Player {
    fn key(&mut self, what: &str) -> String {
        self.next += 1;
        format!("soak:{}:{}:{what}", self.user, self.next)
    }

    fn balance(&mut self, kind: PlayerAccount) -> &mut i64 {
        match kind {
            PlayerAccount::Main => &mut self.main,
            PlayerAccount::Bonus => &mut self.bonus,
            PlayerAccount::BettingBonus => &mut self.betting,
            PlayerAccount::Fun => unreachable!("the soak moves no demo money"),
        }
    }

    fn remember(&mut self, m: Move) {
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(m);
    }

    fn remember_call(&mut self, c: Call) {
        if self.calls.len() == RECENT {
            self.calls.pop_front();
        }
        self.calls.push_back(c);
    }
}

/// What a worker shares with the others: the app, where the wallet is, the loyalty rate.
#[derive(Clone)]
struct Shared {
    state: App,
    http: reqwest::Client,
    base: String,
    /// Thousandths of a point per unit staked in the aggregator's slot.
    rate: i64,
}

async fn soak(backend: Backend, ops: u64) -> Outcome {
    let providers = agg_providers();
    let env = [
        ("CROUPIER_GAME_PROVIDERS", providers.as_str()),
        ("CROUPIER_REGISTRATIONS_PER_IP_HOUR", "1000"),
        // Eight group-commit lanes on PostgreSQL, as a production pool would run.
        ("CROUPIER_DB_MAX_CONNECTIONS", "16"),
    ];
    let app = TestApp::spawn_with(backend, &env, |_| {}).await;
    agg_game(&app, "soak-slot", "slot").await;
    let db = app.state.db().clone();
    // A level's reward is a wagering bonus, which would change how the wallet spends (the bonus
    // model test's subject): here levels are reached without one.
    sqlx::query("UPDATE loyalty_levels SET campaign_id = NULL").execute(db.pool()).await.unwrap();
    let rate: i64 = sqlx::query_scalar(
        "SELECT milli_per_unit FROM loyalty_rates WHERE game_type IN ('slot', '*') AND currency = 'USD' \
         ORDER BY CASE WHEN game_type = '*' THEN 1 ELSE 0 END LIMIT 1",
    )
    .fetch_optional(db.pool())
    .await
    .unwrap()
    .unwrap_or(0);
    assert!(rate > 0, "the demo loyalty programme earns points on slots");
    let shared = Shared { state: app.state.clone(), http: reqwest::Client::new(), base: app.url(""), rate };

    // Players: registered (the wallet needs a launch), a first deposit, a real-money session;
    // eight at a time, as registrations hash passwords.
    let mut players: Vec<(Player, Houses)> = futures::stream::iter((0..PLAYERS).map(|i| {
        let app = &app;
        let shared = shared.clone();
        async move {
            let client = app.browser();
            let info = app.register(&client, &format!("soak{i}@example.com")).await;
            let user = info["uid"].as_i64().unwrap();
            let mut player = Player {
                user,
                token: String::new(),
                main: 0,
                bonus: 0,
                betting: 0,
                holds: Vec::new(),
                bets: Vec::new(),
                recent: VecDeque::new(),
                calls: VecDeque::new(),
                rounds: Vec::new(),
                points: 0,
                round_bets: 0,
                round_wins: 0,
                next: 0,
            };
            let mut faults = Faults::default();
            let mut house = Houses::default();
            let mut tally = std::collections::BTreeMap::new();
            let clearing = Account::House(HouseAccount::PaymentClearing);
            let key = player.key("first");
            let first = Move {
                key,
                kind: "deposit",
                user,
                postings: vec![(clearing, -100_000), (Account::main(user), 100_000)],
            };
            post(&shared, &mut player, first, false, "deposit", &mut house, &mut faults, &mut tally).await;
            let (status, launched) = launch(app, &client, "soak-slot", "play").await;
            assert_eq!(status, StatusCode::OK, "{launched}");
            player.token = launched["token"].as_str().unwrap().to_owned();
            assert_eq!(faults.count, 0, "{:?}", faults.shown);
            (player, house)
        }
    }))
    .buffered(8)
    .collect()
    .await;

    let started = Instant::now();
    let mut tasks = Vec::new();
    let per_worker = ops.div_ceil(WORKERS as u64);
    for w in 0..WORKERS {
        let mine: Vec<(Player, Houses)> = players.drain(..(PLAYERS / WORKERS).min(players.len())).collect();
        let shared = shared.clone();
        tasks.push(tokio::spawn(worker(shared, mine, per_worker, 0x50AC_0000 + w as u64)));
    }
    let mut faults = Faults::default();
    let mut house = Houses::default();
    let mut tally = std::collections::BTreeMap::new();
    let mut all = Vec::new();
    let mut operations = 0;
    for task in tasks {
        let done = task.await.unwrap();
        operations += done.operations;
        faults.merge(done.faults);
        house.merge(&done.house);
        for (k, v) in done.tally {
            *tally.entry(k).or_default() += v;
        }
        all.extend(done.players);
    }
    let seconds = started.elapsed().as_secs_f64();

    // The model against the database.
    for p in &all {
        let [main, bonus, betting, _] = ledger::player_balances(&db, p.user, usd()).await.unwrap();
        if (main, bonus, betting) != (p.main, p.bonus, p.betting) {
            faults.add(format!(
                "player {}: ledger main/bonus/betting {main}/{bonus}/{betting}, model {}/{}/{}",
                p.user, p.main, p.bonus, p.betting
            ));
        }
        let points: i64 = sqlx::query_scalar("SELECT points FROM loyalty_accounts WHERE user_id = $1")
            .bind(p.user)
            .fetch_optional(db.pool())
            .await
            .unwrap()
            .unwrap_or(0);
        if points != p.points {
            faults.add(format!("player {}: {points} thousandths of points, model {}", p.user, p.points));
        }
        let (bets, wins): (i64, i64) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(bet), 0) AS BIGINT), CAST(COALESCE(SUM(win), 0) AS BIGINT) FROM game_rounds WHERE user_id = $1",
        )
        .bind(p.user)
        .fetch_one(db.pool())
        .await
        .unwrap();
        if (bets, wins) != (p.round_bets, p.round_wins) {
            faults.add(format!(
                "player {}: rounds bet/won {bets}/{wins}, model {}/{}",
                p.user, p.round_bets, p.round_wins
            ));
        }
    }
    let mut conn = db.pool().acquire().await.unwrap();
    for kind in HOUSES {
        let balance = ledger::balance(&mut conn, Account::House(kind), usd()).await.unwrap();
        let model = house.0[Houses::slot(kind)];
        if balance != model {
            faults.add(format!("house {kind:?}: ledger {balance}, model {model}"));
        }
    }
    drop(conn);
    let report = ledger::check(&db).await.unwrap();
    for v in report.violations {
        faults.add(format!("ledger check: {v}"));
    }
    app.finish().await;
    Outcome { backend, operations, seconds, violations: faults.count, shown: faults.shown, tally }
}

struct WorkerDone {
    operations: u64,
    faults: Faults,
    house: Houses,
    tally: std::collections::BTreeMap<&'static str, u64>,
    players: Vec<Player>,
}

async fn worker(shared: Shared, mine: Vec<(Player, Houses)>, ops: u64, seed: u64) -> WorkerDone {
    let mut rng = XorShift(seed);
    let mut faults = Faults::default();
    let mut tally = std::collections::BTreeMap::new();
    let mut house = Houses::default();
    let mut players = Vec::new();
    for (player, h) in mine {
        house.merge(&h);
        players.push(player);
    }
    let h = Account::House;
    for _ in 0..ops {
        let pick = rng.below(players.len() as u64) as usize;
        let p = &mut players[pick];
        let user = p.user;
        let main = Account::main(user);
        let bonus = Account::Player { user_id: user, kind: PlayerAccount::Bonus };
        let betting = Account::Player { user_id: user, kind: PlayerAccount::BettingBonus };
        // A quarter of the movements run as a job that posts, the rest queued bare.
        let as_job = rng.below(4) == 0;
        let amount = |rng: &mut XorShift, most: i64| rng.range(1, most);
        let roll = rng.below(100);
        let (kind, case, postings): (&'static str, &'static str, Vec<(Account, i64)>) = match roll {
            0..=11 => {
                let a = amount(&mut rng, 20_000);
                ("deposit", "deposit", vec![(h(HouseAccount::PaymentClearing), -a), (main, a)])
            }
            12..=19 => {
                let a = spend(&mut rng, p.main, 5_000);
                ("withdrawal_hold", "hold", vec![(main, -a), (h(HouseAccount::WithdrawalHolds), a)])
            }
            20..=27 if !p.holds.is_empty() => {
                let (hold, a) = p.holds.swap_remove(rng.below(p.holds.len() as u64) as usize);
                let pay = roll >= 24;
                let key = format!("{hold}:{}", if pay { "payout" } else { "return" });
                let to = if pay { h(HouseAccount::PaymentClearing) } else { main };
                let m = Move {
                    key,
                    kind: if pay { "withdrawal_payout" } else { "withdrawal_return" },
                    user,
                    postings: vec![(h(HouseAccount::WithdrawalHolds), -a), (to, a)],
                };
                post(&shared, p, m, as_job, if pay { "payout" } else { "return" }, &mut house, &mut faults, &mut tally)
                    .await;
                continue;
            }
            28..=39 => {
                let a = spend(&mut rng, p.main, 3_000);
                ("bet", "bet", vec![(main, -a), (h(HouseAccount::GameSettlement), a)])
            }
            40..=47 => {
                let a = amount(&mut rng, 6_000);
                ("win", "win", vec![(h(HouseAccount::GameSettlement), -a), (main, a)])
            }
            48..=51 if !p.bets.is_empty() => {
                let (bet, a) = p.bets.swap_remove(rng.below(p.bets.len() as u64) as usize);
                let m = Move {
                    key: format!("{bet}:rollback"),
                    kind: "rollback",
                    user,
                    postings: vec![(h(HouseAccount::GameSettlement), -a), (main, a)],
                };
                post(&shared, p, m, as_job, "rollback", &mut house, &mut faults, &mut tally).await;
                continue;
            }
            52..=54 => {
                let a = amount(&mut rng, 2_000);
                ("bonus_credit", "bonus credit", vec![(h(HouseAccount::BonusLiability), -a), (bonus, a)])
            }
            55..=56 => {
                // Completing a bonus: part of it becomes real money, the rest goes back.
                let a = amount(&mut rng, 2_000);
                let converted = a - a / 3;
                let mut legs = vec![(bonus, -a), (main, converted)];
                if a - converted > 0 {
                    legs.push((h(HouseAccount::BonusLiability), a - converted));
                }
                ("bonus_convert", "bonus convert", legs)
            }
            57..=58 if p.bonus > 0 => {
                let a = p.bonus;
                ("bonus_forfeit", "bonus forfeit", vec![(bonus, -a), (h(HouseAccount::BonusLiability), a)])
            }
            59 => {
                let a = amount(&mut rng, 1_000);
                ("freebet_credit", "freebet credit", vec![(h(HouseAccount::BonusLiability), -a), (betting, a)])
            }
            60 => {
                let a = spend(&mut rng, p.betting, 1_000);
                ("freebet_stake", "freebet stake", vec![(betting, -a), (h(HouseAccount::GameSettlement), a)])
            }
            61..=62 => {
                let a = amount(&mut rng, 1_500);
                ("cashback", "cashback", vec![(h(HouseAccount::Promotions), -a), (main, a)])
            }
            63..=65 => {
                points(&shared, p, &mut rng, &mut faults, &mut tally).await;
                continue;
            }
            66..=71 if !p.recent.is_empty() => {
                let m = p.recent[rng.below(p.recent.len() as u64) as usize].clone();
                let got = send(&shared, &m, as_job).await;
                bump(&mut tally, "replay");
                if !matches!(got, Ok(Posted::Replayed { .. })) {
                    faults.add(format!("replay of {}: {got:?}", m.key));
                }
                continue;
            }
            72..=74 if !p.recent.is_empty() => {
                let mut m = p.recent[rng.below(p.recent.len() as u64) as usize].clone();
                let last = m.postings.len() - 1;
                m.postings[0].1 -= 1;
                m.postings[last].1 += 1;
                let got = send(&shared, &m, as_job).await;
                bump(&mut tally, "reused");
                if !matches!(got, Err(LedgerError::KeyReused)) {
                    faults.add(format!("reused key {}: {got:?}", m.key));
                }
                continue;
            }
            75..=99 => {
                wallet(&shared, p, &mut rng, &mut house, &mut faults, &mut tally).await;
                continue;
            }
            // A case whose precondition does not hold (no hold, bet or bonus yet): a deposit.
            _ => {
                let a = amount(&mut rng, 20_000);
                ("deposit", "deposit", vec![(h(HouseAccount::PaymentClearing), -a), (main, a)])
            }
        };
        let key = p.key(kind);
        let m = Move { key, kind, user, postings };
        post(&shared, p, m, as_job, case, &mut house, &mut faults, &mut tally).await;
    }
    let operations = tally.values().sum();
    WorkerDone { operations, faults, house, tally, players }
}

/// An amount to spend from `balance`: mostly up to `most`, one time in ten all of it or a unit
/// more (the edge where a movement is refused).
fn spend(rng: &mut XorShift, balance: i64, most: i64) -> i64 {
    if rng.below(10) == 0 { (balance + rng.range(0, 1)).max(1) } else { rng.range(1, most) }
}

fn bump(tally: &mut std::collections::BTreeMap<&'static str, u64>, case: &'static str) {
    *tally.entry(case).or_default() += 1;
}

/// Posts `m` through the group committer: queued bare, or as a job that posts it.
async fn send(shared: &Shared, m: &Move, as_job: bool) -> Result<Posted, LedgerError> {
    let db = shared.state.db();
    if !as_job {
        return ledger::queue(db, &m.entry()).await;
    }
    let owned = Arc::new(m.clone());
    db.group(
        m.user,
        job(move |conn| {
            let m = Arc::clone(&owned);
            Box::pin(async move { ledger::post(conn, &m.entry()).await })
        }),
    )
    .await
}

/// Posts a new movement and checks its outcome against the model: applied, or refused for want
/// of money exactly when a player account would go below zero.
#[allow(clippy::too_many_arguments)]
async fn post(
    shared: &Shared,
    p: &mut Player,
    m: Move,
    as_job: bool,
    case: &'static str,
    house: &mut Houses,
    faults: &mut Faults,
    tally: &mut std::collections::BTreeMap<&'static str, u64>,
) {
    let short = m.postings.iter().any(|&(account, amount)| match account {
        Account::Player { kind, .. } => *p.balance(kind) + amount < 0,
        Account::House(_) => false,
    });
    let got = send(shared, &m, as_job).await;
    match (short, &got) {
        (true, Err(LedgerError::InsufficientFunds)) => {
            // A refused hold or bet leaves nothing to return or roll back.
            bump(
                tally,
                match case {
                    "hold" => "hold short",
                    "bet" => "bet short",
                    "bonus convert" => "bonus convert short",
                    "freebet stake" => "freebet stake short",
                    _ => "short",
                },
            );
        }
        (false, Ok(Posted::Applied { .. })) => {
            bump(tally, case);
            for &(account, amount) in &m.postings {
                match account {
                    Account::Player { kind, .. } => *p.balance(kind) += amount,
                    Account::House(kind) => house.add(kind, amount),
                }
            }
            let spent = -m.postings[0].1;
            match case {
                "hold" => p.holds.push((m.key.clone(), spent)),
                "bet" => p.bets.push((m.key.clone(), spent)),
                _ => {}
            }
            p.remember(m);
        }
        _ => faults.add(format!("{case} {}: model {}, ledger {got:?}", m.key, if short { "short" } else { "applied" })),
    }
}

/// An operator's loyalty adjustment, new or repeated (a repeat under the same key changes nothing).
async fn points(
    shared: &Shared,
    p: &mut Player,
    rng: &mut XorShift,
    faults: &mut Faults,
    tally: &mut std::collections::BTreeMap<&'static str, u64>,
) {
    use croupier_server::features::loyalty::admin::{PointsInput, adjust};
    let again = rng.below(3) == 0 && p.next > 0;
    let (key, whole) = if again {
        // The same key as an earlier adjustment of this player (or one never made: then it is new).
        let n = rng.range(1, i64::try_from(p.next).unwrap());
        (format!("soak-{}-{n}", p.user), 1 + (n % 50))
    } else {
        p.next += 1;
        (format!("soak-{}-{}", p.user, p.next), 1 + (i64::try_from(p.next).unwrap() % 50))
    };
    let input = PointsInput { user_id: p.user, points: whole, reason: "soak".into(), key: Some(key.clone()) };
    let written = adjust(&shared.state, &croupier_server::features::backoffice::trail::Actor::cli(), &input).await;
    let known: bool = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM loyalty_entries WHERE entry_key = $1")
        .bind(format!("adjust:{key}"))
        .fetch_one(shared.state.db().pool())
        .await
        .unwrap()
        > 0;
    match written {
        Ok(true) => {
            bump(tally, "points");
            p.points += whole * loyalty::MILLI;
        }
        Ok(false) if known => bump(tally, "points replay"),
        other => faults.add(format!("points {key}: {other:?}")),
    }
}

/// One signed aggregator call: the answer's status and balance.
async fn call(shared: &Shared, action: &str, body: &Value) -> (String, Option<i64>) {
    let mut body = body.clone();
    body["request_uuid"] = json!(uuid::Uuid::new_v4().to_string());
    let now = croupier_server::db::now_ms() / 1000;
    let answer: Value = signed_wallet_call(&shared.http, &shared.base, action, &body, AGG_SECRET, now)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    (answer["status"].as_str().unwrap_or("").to_owned(), answer["balance"].as_i64())
}

/// The real wallet path: a bet, a win, a rollback, a replay or a reused transaction id, over HTTP.
async fn wallet(
    shared: &Shared,
    p: &mut Player,
    rng: &mut XorShift,
    house: &mut Houses,
    faults: &mut Faults,
    tally: &mut std::collections::BTreeMap<&'static str, u64>,
) {
    let settlement = HouseAccount::GameSettlement;
    let roll = rng.below(100);
    if roll < 12 && !p.calls.is_empty() {
        let c = p.calls[rng.below(p.calls.len() as u64) as usize].clone();
        let got = call(shared, c.action, &c.body).await;
        bump(tally, "wallet replay");
        if got != (c.status.clone(), c.balance) {
            faults.add(format!("wallet replay {}: first {:?} {:?}, now {got:?}", c.body, c.status, c.balance));
        }
        return;
    }
    if roll < 20 && !p.calls.is_empty() {
        let c = p.calls[rng.below(p.calls.len() as u64) as usize].clone();
        let mut body = c.body.clone();
        body["amount"] = json!(body["amount"].as_i64().unwrap_or(0) + 1);
        let (status, _) = call(shared, c.action, &body).await;
        bump(tally, "wallet reused");
        if status != "RS_ERROR_DUPLICATE_TRANSACTION" {
            faults.add(format!("wallet reused {}: {status}", c.body));
        }
        return;
    }
    if roll < 45 && !p.rounds.is_empty() {
        let r = p.rounds.swap_remove(rng.below(p.rounds.len() as u64) as usize);
        let rollback = roll < 28;
        let uuid = format!("{}:{}", r.round, if rollback { "rollback" } else { "win" });
        let (action, body, amount) = if rollback {
            let body = json!({"token": p.token, "transaction_uuid": uuid, "reference_transaction_uuid": r.bet_uuid,
                "round": r.round, "round_closed": true, "currency": "USD"});
            ("rollback", body, r.amount)
        } else {
            let won = if rng.below(3) == 0 { 0 } else { rng.range(0, 2 * r.amount) };
            let body = json!({"token": p.token, "transaction_uuid": uuid, "reference_transaction_uuid": r.bet_uuid,
                "round": r.round, "round_closed": true, "amount": won, "currency": "USD"});
            ("win", body, won)
        };
        let got = call(shared, action, &body).await;
        let want = ("RS_OK".to_owned(), Some(p.main + amount));
        bump(tally, if rollback { "wallet rollback" } else { "wallet win" });
        if got != want {
            faults.add(format!("wallet {action} {body}: model {want:?}, wallet {got:?}"));
            return;
        }
        p.main += amount;
        house.add(settlement, -amount);
        if rollback {
            p.round_bets -= r.amount;
            p.points -= r.points;
        } else {
            p.round_wins += amount;
        }
        p.remember_call(Call { action, body, status: got.0, balance: got.1 });
        return;
    }
    let n = {
        p.next += 1;
        p.next
    };
    let round = format!("soak-{}-{n}", p.user);
    let bet_uuid = format!("{round}:bet");
    let amount = spend(rng, p.main, 2_500);
    let body = json!({"token": p.token, "transaction_uuid": bet_uuid, "round": round, "amount": amount, "currency": "USD",
        "game_code": "soak-slot"});
    let got = call(shared, "bet", &body).await;
    if amount > p.main {
        bump(tally, "wallet bet short");
        let want = ("RS_ERROR_NOT_ENOUGH_MONEY".to_owned(), Some(p.main));
        if got != want {
            faults.add(format!("wallet bet {body}: model {want:?}, wallet {got:?}"));
        }
        return;
    }
    bump(tally, "wallet bet");
    let want = ("RS_OK".to_owned(), Some(p.main - amount));
    if got != want {
        faults.add(format!("wallet bet {body}: model {want:?}, wallet {got:?}"));
        return;
    }
    p.main -= amount;
    house.add(settlement, amount);
    let earned = loyalty::earned(amount, shared.rate, usd());
    p.points += earned;
    p.round_bets += amount;
    p.rounds.push(Round { round, bet_uuid, amount, points: earned });
    p.remember_call(Call { action: "bet", body, status: got.0, balance: got.1 });
}
