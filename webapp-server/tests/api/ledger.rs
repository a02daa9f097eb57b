//! The ledger's proofs: a model-based random test and a 200-player concurrency test.

use crate::db_test;
use crate::helpers::XorShift;
use croupier_server::db::Db;
use croupier_server::ledger::{self, Account, Entry, HouseAccount, LedgerError, Posted};
use croupier_shared::Currency;

fn usd() -> Currency {
    Currency::parse("USD").unwrap()
}

async fn apply(db: &Db, entry: &Entry<'_>) -> Result<Posted, LedgerError> {
    let mut tx = db.begin().await?;
    let posted = ledger::post(&mut tx, entry).await?;
    tx.commit().await?;
    Ok(posted)
}

/// A posting's result in one word (a database error fails the test).
fn outcome(result: &Result<Posted, LedgerError>) -> &'static str {
    match result {
        Ok(Posted::Applied { .. }) => "applied",
        Ok(Posted::Replayed { .. }) => "replayed",
        Err(LedgerError::InsufficientFunds) => "short",
        Err(LedgerError::KeyReused) => "reused",
        Err(LedgerError::Unbalanced) => "unbalanced",
        Err(LedgerError::Db(e)) => panic!("{e}"),
    }
}

async fn main_balance(db: &Db, user: i64) -> i64 {
    let mut conn = db.pool().acquire().await.unwrap();
    ledger::balance(&mut conn, Account::main(user), usd()).await.unwrap()
}

#[derive(Clone)]
struct Applied {
    key: String,
    kind: &'static str,
    user: i64,
    from: Account,
    to: Account,
    amount: i64,
}

db_test!(async fn random_money_movements_always_match_a_simple_model(app) {
    let db = app.state.db();
    let players: Vec<i64> = (1..=6).map(|i| 1_000 + i).collect();
    let mut model_main = std::collections::HashMap::<i64, i64>::new();
    let mut holds: Vec<(i64, i64, String)> = Vec::new();
    let mut applied: Vec<Applied> = Vec::new();
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for step in 0..400 {
        let user = players[rng.below(players.len() as u64) as usize];
        let amount = 1 + rng.below(5_000) as i64;
        let key = format!("op-{step}");
        let player = Account::main(user);
        let op = rng.below(7);
        if op == 5 && !applied.is_empty() {
            let earlier = applied[rng.below(applied.len() as u64) as usize].clone();
            let entry = Entry::transfer(&earlier.key, earlier.kind, usd(), earlier.from, earlier.to, earlier.amount).by(Some(earlier.user));
            assert!(matches!(apply(db, &entry).await, Ok(Posted::Replayed { .. })), "step {step}: a replay moves nothing");
            let reused = Entry::transfer(&earlier.key, earlier.kind, usd(), earlier.from, earlier.to, earlier.amount + 1).by(Some(earlier.user));
            assert!(matches!(apply(db, &reused).await, Err(LedgerError::KeyReused)), "step {step}: a reused key is refused");
        } else {
            let (kind, from, to, spends, hold_index): (&'static str, Account, Account, bool, Option<usize>) = match op {
                0 => ("deposit", Account::House(HouseAccount::PaymentClearing), player, false, None),
                1 => ("withdrawal_hold", player, Account::House(HouseAccount::WithdrawalHolds), true, None),
                2 if !holds.is_empty() => {
                    let i = rng.below(holds.len() as u64) as usize;
                    ("withdrawal_return", Account::House(HouseAccount::WithdrawalHolds), Account::main(holds[i].0), false, Some(i))
                }
                3 => ("bet", player, Account::House(HouseAccount::GameSettlement), true, None),
                4 => ("win", Account::House(HouseAccount::GameSettlement), player, false, None),
                _ => ("deposit", Account::House(HouseAccount::PaymentClearing), player, false, None),
            };
            let (user, amount) = match hold_index {
                Some(i) => (holds[i].0, holds[i].1),
                None => (user, amount),
            };
            let entry = Entry::transfer(&key, kind, usd(), from, to, amount).by(Some(user));
            let before = *model_main.get(&user).unwrap_or(&0);
            let result = apply(db, &entry).await;
            if spends && before < amount {
                assert!(matches!(result, Err(LedgerError::InsufficientFunds)), "step {step}: {kind} of {amount} with {before}");
            } else {
                assert!(matches!(result, Ok(Posted::Applied { .. })), "step {step}: {kind} {result:?}");
                let delta = if spends { -amount } else { amount };
                *model_main.entry(user).or_default() += delta;
                match (kind, hold_index) {
                    ("withdrawal_hold", _) => holds.push((user, amount, key.clone())),
                    (_, Some(i)) => {
                        holds.remove(i);
                    }
                    _ => {}
                }
                applied.push(Applied { key: key.clone(), kind, user, from, to, amount });
            }
        }
        for p in &players {
            assert_eq!(main_balance(db, *p).await, *model_main.get(p).unwrap_or(&0), "step {step}: player {p}");
        }
        let mut conn = db.pool().acquire().await.unwrap();
        let held = ledger::balance(&mut conn, Account::House(HouseAccount::WithdrawalHolds), usd()).await.unwrap();
        assert_eq!(held, holds.iter().map(|h| h.1).sum::<i64>(), "step {step}: holds");
        drop(conn);
        let report = ledger::check(db).await.unwrap();
        assert!(report.violations.is_empty(), "step {step}: {:?}", report.violations);
    }
    assert!(applied.len() > 200, "the sequence did real work: {}", applied.len());
});

db_test!(async fn two_hundred_players_in_parallel_lose_nothing_and_never_go_negative(app) {
    let db = app.state.db().clone();
    let mut tasks = Vec::new();
    for player in 0..200_i64 {
        // Two tasks per player race for the same balance.
        for lane in 0..2_i64 {
            let db = db.clone();
            tasks.push(tokio::spawn(async move {
                let user = 10_000 + player;
                let mut net = 0_i64;
                for round in 0..4 {
                    let key = format!("p{player}-l{lane}-r{round}");
                    let (dep_key, bet_key, win_key) = (format!("{key}-dep"), format!("{key}-bet"), format!("{key}-win"));
                    let deposit = Entry::transfer(&dep_key, "deposit", usd(), Account::House(HouseAccount::PaymentClearing), Account::main(user), 1_000).by(Some(user));
                    apply(&db, &deposit).await.expect("deposit");
                    net += 1_000;
                    let bet = Entry::transfer(&bet_key, "bet", usd(), Account::main(user), Account::House(HouseAccount::GameSettlement), 1_500).by(Some(user));
                    match apply(&db, &bet).await {
                        Ok(_) => net -= 1_500,
                        Err(LedgerError::InsufficientFunds) => {}
                        Err(e) => panic!("bet: {e}"),
                    }
                    let win = Entry::transfer(&win_key, "win", usd(), Account::House(HouseAccount::GameSettlement), Account::main(user), 300).by(Some(user));
                    apply(&db, &win).await.expect("win");
                    net += 300;
                    // The same win delivered again moves nothing.
                    assert!(matches!(apply(&db, &win).await, Ok(Posted::Replayed { .. })));
                }
                (user, net)
            }));
        }
    }
    let mut expected = std::collections::HashMap::<i64, i64>::new();
    for task in tasks {
        let (user, net) = task.await.unwrap();
        *expected.entry(user).or_default() += net;
    }
    for (user, net) in &expected {
        let balance = main_balance(&db, *user).await;
        assert_eq!(balance, *net, "player {user}");
        assert!(balance >= 0);
    }
    let report = ledger::check(&db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    let players: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ledger_accounts WHERE is_player = 1").fetch_one(db.pool()).await.unwrap();
    assert_eq!(players, 200);
    let shards: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ledger_accounts WHERE is_player = 0").fetch_one(db.pool()).await.unwrap();
    assert!((2..=2 * croupier_server::ledger::HOUSE_SHARDS as i64).contains(&shards), "house accounts are sharded: {shards}");
});

// Group commit: 300 concurrent jobs of 30 players share transactions; the jobs that overdraw
// fail alone (their batch is re-run job by job), a replayed key moves nothing, and every
// balance is exactly what some serial order of the accepted jobs gives.
db_test!(async fn grouped_postings_fail_alone_and_lose_nothing(app) {
    overdraw_in_groups(app.state.db().clone(), false).await;
});

// The same with half of the bets queued as bare movements (`ledger::queue`), interleaved with the
// jobs: on PostgreSQL a lane posts each run of movements in one `ledger_post` call, where a
// refused movement writes nothing and the rest of its batch goes on.
db_test!(async fn queued_movements_mixed_with_jobs_fail_alone_and_lose_nothing(app) {
    overdraw_in_groups(app.state.db().clone(), true).await;
});

async fn overdraw_in_groups(db: Db, movements: bool) {
    use croupier_server::db::group::job;
    use std::sync::Arc;
    let post = |key: String, from: Account, to: Account, amount: i64, movement: bool| {
        let db = db.clone();
        let key = Arc::new(key);
        let player = [from, to].iter().find_map(|a| match a {
            Account::Player { user_id, .. } => Some(*user_id),
            Account::House(_) => None,
        });
        async move {
            if movement {
                return croupier_server::ledger::queue(&db, &Entry::transfer(&key, "bet", usd(), from, to, amount))
                    .await;
            }
            db.group(
                player.unwrap_or(0),
                job(move |conn| {
                    let key = Arc::clone(&key);
                    Box::pin(
                        async move { ledger::post(conn, &Entry::transfer(&key, "bet", usd(), from, to, amount)).await },
                    )
                }),
            )
            .await
        }
    };
    let mut users = Vec::new();
    for _ in 0..30 {
        let user: i64 = sqlx::query_scalar(
            "INSERT INTO users (currency, locale, status, reg_time, updated_at) VALUES ('USD', 'en', 'active', 0, 0) RETURNING id",
        )
        .fetch_one(db.pool())
        .await
        .unwrap();
        post(
            format!("group-fund-{user}"),
            Account::House(HouseAccount::PaymentClearing),
            Account::main(user),
            1_000,
            movements,
        )
        .await
        .unwrap();
        users.push(user);
    }
    let house = Account::House(HouseAccount::GameSettlement);
    let mut tasks = Vec::new();
    for (i, &user) in users.iter().enumerate() {
        for n in 0..10 {
            // Nine bets of 100 and one of 500 against 1,000: some must be refused.
            let amount = if n == 9 { 500 } else { 100 };
            let movement = movements && (i + n) % 2 == 0;
            tasks.push(tokio::spawn(post(format!("group-bet-{i}-{n}"), Account::main(user), house, amount, movement)));
        }
    }
    for task in tasks {
        match task.await.unwrap() {
            Ok(_) | Err(LedgerError::InsufficientFunds) => {}
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    let mut conn = db.pool().acquire().await.unwrap();
    for (i, &user) in users.iter().enumerate() {
        let left = ledger::balance(&mut conn, Account::main(user), usd()).await.unwrap();
        let accepted: i64 = sqlx::query_scalar(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM ledger_transactions WHERE idempotency_key LIKE $1",
        )
        .bind(format!("group-bet-{i}-%"))
        .fetch_one(&mut *conn)
        .await
        .unwrap();
        let big: i64 =
            sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM ledger_transactions WHERE idempotency_key = $1")
                .bind(format!("group-bet-{i}-9"))
                .fetch_one(&mut *conn)
                .await
                .unwrap();
        // Serially: the 500 goes through (then five hundreds: nothing left) or is refused (nine
        // hundreds: 100 left). Anything else lost or doubled money.
        let expected = if big == 1 { (0, 6) } else { (100, 9) };
        assert_eq!((left, accepted), expected, "player {i}");
    }
    drop(conn);
    let funding = format!("group-fund-{}", users[0]);
    for movement in [false, true] {
        let replayed = post(
            funding.clone(),
            Account::House(HouseAccount::PaymentClearing),
            Account::main(users[0]),
            1_000,
            movement,
        )
        .await
        .unwrap();
        assert!(matches!(replayed, Posted::Replayed { .. }), "{replayed:?}");
    }
    let report = ledger::check(&db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

// `post_many` posts in order in one transaction: a refused entry (overdraft, reused key,
// unbalanced) writes nothing and the others go through; a replay answers the first transaction.
db_test!(async fn post_many_refuses_an_entry_alone(app) {
    let db = app.state.db();
    let (a, b) = (4_001, 4_002);
    let clearing = Account::House(HouseAccount::PaymentClearing);
    let house = Account::House(HouseAccount::GameSettlement);
    apply(db, &Entry::transfer("many-fund-a", "deposit", usd(), clearing, Account::main(a), 100)).await.unwrap();
    let unbalanced = Entry {
        key: "many-unbalanced",
        kind: "bet",
        user_id: Some(b),
        reference: None,
        currency: usd(),
        postings: vec![ledger::Posting { account: Account::main(b), amount: 5 }],
    };
    let entries = [
        Entry::transfer("many-fund-b", "deposit", usd(), clearing, Account::main(b), 50),
        Entry::transfer("many-over", "bet", usd(), Account::main(a), house, 150),
        Entry::transfer("many-bet", "bet", usd(), Account::main(a), house, 60),
        Entry::transfer("many-fund-a", "deposit", usd(), clearing, Account::main(a), 100),
        Entry::transfer("many-fund-a", "deposit", usd(), clearing, Account::main(a), 99),
        unbalanced,
        // Sees the bet before it: 40 left, so 41 is too much and 40 is not.
        Entry::transfer("many-over-2", "bet", usd(), Account::main(a), house, 41),
        Entry::transfer("many-all", "bet", usd(), Account::main(a), house, 40),
    ];
    let mut tx = db.begin().await.unwrap();
    let results = ledger::post_many(&mut tx, &entries).await.unwrap();
    tx.commit().await.unwrap();
    let outcomes: Vec<&str> = results.iter().map(outcome).collect();
    assert_eq!(outcomes, ["applied", "short", "applied", "replayed", "reused", "unbalanced", "short", "applied"]);
    assert_eq!((main_balance(db, a).await, main_balance(db, b).await), (0, 50));
    let written: Vec<String> =
        sqlx::query_scalar("SELECT idempotency_key FROM ledger_transactions WHERE idempotency_key LIKE 'many-%' ORDER BY idempotency_key")
            .fetch_all(db.pool())
            .await
            .unwrap();
    assert_eq!(written, ["many-all", "many-bet", "many-fund-a", "many-fund-b"]);
    let report = ledger::check(db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
});

// Postings carry no foreign keys (migration 0013 on both databases): `ledger check` finds a
// posting whose transaction or account is missing, and nothing else in a clean ledger.
db_test!(async fn the_check_finds_postings_that_refer_to_nothing(app) {
    let db = app.state.db().clone();
    let user: i64 = sqlx::query_scalar(
        "INSERT INTO users (currency, locale, status, reg_time, updated_at) VALUES ('USD', 'en', 'active', 0, 0) RETURNING id",
    )
    .fetch_one(db.pool())
    .await
    .unwrap();
    let deposit = Entry::transfer("orphans-deposit", "deposit", usd(), Account::House(HouseAccount::PaymentClearing), Account::main(user), 700).by(Some(user));
    apply(&db, &deposit).await.unwrap();
    assert!(ledger::check(&db).await.unwrap().violations.is_empty());
    let account: i64 = sqlx::query_scalar("SELECT id FROM ledger_accounts WHERE user_id = $1").bind(user).fetch_one(db.pool()).await.unwrap();
    let transaction: i64 = sqlx::query_scalar("SELECT id FROM ledger_transactions WHERE idempotency_key = 'orphans-deposit'").fetch_one(db.pool()).await.unwrap();
    sqlx::query("INSERT INTO ledger_postings (transaction_id, account_id, amount) VALUES ($1, $2, 0), ($3, $4, 0)")
        .bind(transaction + 1_000_000)
        .bind(account)
        .bind(transaction)
        .bind(account + 1_000_000)
        .execute(db.pool())
        .await
        .unwrap();
    let violations = ledger::check(&db).await.unwrap().violations;
    assert_eq!(violations.len(), 2, "{violations:?}");
    let says = |text: String| violations.iter().any(|v| v.contains(&text));
    assert!(says(format!("refers to transaction {}, which does not exist", transaction + 1_000_000)), "{violations:?}");
    assert!(says(format!("refers to account {}, which does not exist", account + 1_000_000)), "{violations:?}");
    sqlx::query("DELETE FROM ledger_postings WHERE amount = 0").execute(db.pool()).await.unwrap();
    assert!(ledger::check(&db).await.unwrap().violations.is_empty());
});

// `post_many` gives what posting the same entries one by one gives: 150 random entries of five
// players (deposits, bets that may overdraw, replays and reused keys, some in the same batch),
// once through `post` in a transaction each and once through one `post_many` (on SQLite: batches
// of 64, 16, 4, 2… entries, a run cut where a key comes again).
db_test!(async fn post_many_matches_posting_one_by_one(app) {
    let db = app.state.db();
    let clearing = Account::House(HouseAccount::PaymentClearing);
    let house = Account::House(HouseAccount::GameSettlement);
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    // (key number, player number, deposit?, amount)
    let mut script: Vec<(u64, i64, bool, i64)> = Vec::new();
    for n in 0..150_u64 {
        let key = if n > 10 && rng.below(8) == 0 { rng.below(n) } else { n };
        let player = rng.below(5) as i64;
        let deposit = rng.below(3) == 0;
        let amount = 1 + rng.below(400) as i64;
        // A reused key with its first postings is a replay; with others, a refusal.
        let same = script.iter().find(|s| s.0 == key).copied();
        script.push(match same {
            Some(first) if rng.below(2) == 0 => first,
            _ => (key, player, deposit, amount),
        });
    }
    let entries = |prefix: &str, base: i64| -> Vec<(String, Account, Account, i64)> {
        script
            .iter()
            .map(|&(key, player, deposit, amount)| {
                let user = Account::main(base + player);
                let (from, to) = if deposit { (clearing, user) } else { (user, house) };
                (format!("{prefix}-{key}"), from, to, amount)
            })
            .collect()
    };
    let mut one_by_one = Vec::new();
    for (key, from, to, amount) in entries("single", 6_000) {
        one_by_one.push(outcome(&apply(db, &Entry::transfer(&key, "bet", usd(), from, to, amount)).await));
    }
    let many = entries("many", 7_000);
    let many: Vec<Entry<'_>> =
        many.iter().map(|(key, from, to, amount)| Entry::transfer(key, "bet", usd(), *from, *to, *amount)).collect();
    let mut tx = db.begin().await.unwrap();
    let together: Vec<&str> = ledger::post_many(&mut tx, &many).await.unwrap().iter().map(outcome).collect();
    tx.commit().await.unwrap();
    assert_eq!(together, one_by_one);
    for kind in ["applied", "replayed", "short", "reused"] {
        assert!(together.contains(&kind), "the script exercises {kind}: {together:?}");
    }
    for player in 0..5 {
        assert_eq!(main_balance(db, 7_000 + player).await, main_balance(db, 6_000 + player).await, "player {player}");
    }
    let report = ledger::check(db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
});

// `post_fresh` (the merged house rounds' set-based post) writes what `post_many` writes for
// fresh keys the caller checked: 120 random bets, wins and deposits of four players (bets never
// overdraw in the script) give the same balances, the same transactions and the same postings
// per transaction. A batch that would overdraw a player, or that reuses a key, fails as a whole
// and its rolled-back transaction leaves nothing.
db_test!(async fn post_fresh_writes_what_post_many_writes_and_fails_as_a_whole(app) {
    let db = app.state.db();
    let clearing = Account::House(HouseAccount::PaymentClearing);
    let house = Account::House(HouseAccount::GameSettlement);
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut funds = [0_i64; 4];
    // (player number, from, to as 0 deposit / 1 bet / 2 win, amount)
    let mut script: Vec<(i64, u64, i64)> = Vec::new();
    for _ in 0..120 {
        let player = rng.below(4) as i64;
        let what = rng.below(3);
        let amount = 1 + rng.below(300) as i64;
        let slot = &mut funds[player as usize];
        match what {
            1 if *slot < amount => continue,
            1 => *slot -= amount,
            _ => *slot += amount,
        }
        script.push((player, what, amount));
    }
    let entries = |prefix: &str, base: i64| -> Vec<(String, &'static str, i64, Account, Account, i64)> {
        script
            .iter()
            .enumerate()
            .map(|(n, &(player, what, amount))| {
                let user = Account::main(base + player);
                let (kind, from, to) = match what {
                    0 => ("deposit", clearing, user),
                    1 => ("bet", user, house),
                    _ => ("win", house, user),
                };
                (format!("{prefix}-{n}"), kind, base + player, from, to, amount)
            })
            .collect()
    };
    let (many, fresh) = (entries("many", 8_100), entries("fresh", 8_200));
    fn as_entries<'a>(list: &'a [(String, &'static str, i64, Account, Account, i64)]) -> Vec<Entry<'a>> {
        list.iter()
            .map(|(key, kind, user, from, to, amount)| Entry::transfer(key, kind, usd(), *from, *to, *amount).by(Some(*user)))
            .collect()
    }
    let mut tx = db.begin().await.unwrap();
    for posted in ledger::post_many(&mut tx, &as_entries(&many)).await.unwrap() {
        assert!(matches!(posted, Ok(Posted::Applied { .. })), "{posted:?}");
    }
    ledger::post_fresh(&mut tx, &as_entries(&fresh)).await.unwrap();
    tx.commit().await.unwrap();
    for player in 0..4 {
        let (a, b) = (main_balance(db, 8_100 + player).await, main_balance(db, 8_200 + player).await);
        assert_eq!(a, b, "player {player}");
        assert_eq!(b, funds[player as usize], "player {player}");
    }
    // Each transaction as written: kind, player (less the base), fingerprint, and its postings.
    let written = |prefix: &'static str, base: i64| async move {
        let rows: Vec<(String, String, i64, String, i64, i64)> = sqlx::query_as(
            "SELECT t.idempotency_key, t.kind, t.user_id, t.fingerprint, CAST(COUNT(p.id) AS BIGINT), CAST(SUM(ABS(p.amount)) AS BIGINT) \
             FROM ledger_transactions t JOIN ledger_postings p ON p.transaction_id = t.id \
             WHERE t.idempotency_key LIKE $1 GROUP BY t.id, t.idempotency_key, t.kind, t.user_id, t.fingerprint ORDER BY t.id",
        )
        .bind(format!("{prefix}-%"))
        .fetch_all(db.pool())
        .await
        .unwrap();
        rows.into_iter()
            .map(|(key, kind, user, fingerprint, legs, moved)| {
                let fingerprint = fingerprint.replace(&format!("{user}/"), "P/");
                (key.trim_start_matches(prefix).to_owned(), kind, user - base, fingerprint, legs, moved)
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (written("many", 8_100).await, written("fresh", 8_200).await);
    assert_eq!(a.len(), script.len());
    assert_eq!(a, b);

    // Overdrawing: the whole call fails.
    let before = main_balance(db, 8_200).await;
    let over = [
        Entry::transfer("fresh-over-ok", "bet", usd(), Account::main(8_201), house, 1).by(Some(8_201)),
        Entry::transfer("fresh-over", "bet", usd(), Account::main(8_200), house, before + 1).by(Some(8_200)),
    ];
    let mut tx = db.begin().await.unwrap();
    assert!(matches!(ledger::post_fresh(&mut tx, &over).await, Err(LedgerError::InsufficientFunds)));
    drop(tx);
    // A key posted before: the insert fails.
    let again = [Entry::transfer("fresh-0", "deposit", usd(), clearing, Account::main(8_203), 5).by(Some(8_203))];
    let mut tx = db.begin().await.unwrap();
    assert!(matches!(ledger::post_fresh(&mut tx, &again).await, Err(LedgerError::KeyReused)));
    drop(tx);
    // The same postings under that key: still refused (the keys are promised new).
    let same = [Entry::transfer("fresh-0", fresh[0].1, usd(), fresh[0].3, fresh[0].4, fresh[0].5).by(Some(fresh[0].2))];
    let mut tx = db.begin().await.unwrap();
    assert!(matches!(ledger::post_fresh(&mut tx, &same).await, Err(LedgerError::KeyReused)));
    drop(tx);
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ledger_transactions WHERE idempotency_key LIKE 'fresh-%'")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(count, i64::try_from(script.len()).unwrap(), "the failed calls wrote nothing");
    assert_eq!(main_balance(db, 8_200).await, before);
    assert_eq!(main_balance(db, 8_201).await, funds[1]);
    let report = ledger::check(db).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
});

/// The money rules exist twice, for speed: Rust that builds SQLite statement batches and the
/// PL/pgSQL `ledger_post` function. This drives both with the same 600 random entries — one to
/// four legs over players' four balances and the house accounts, three currencies, overdraws,
/// replays, reused keys, unbalanced and zero legs — posted one by one and in `post_many` runs,
/// and compares every outcome, every balance and the stored transactions. Without
/// `TEST_DATABASE_URL` only SQLite runs, against the model's own expectations being non-trivial.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_and_postgresql_apply_the_same_money_rules() {
    use crate::helpers::{Backend, TestDb};
    use croupier_server::ledger::PlayerAccount;

    let currencies = ["USD", "EUR", "JPY"].map(|c| Currency::parse(c).unwrap());
    let kinds = [PlayerAccount::Main, PlayerAccount::Bonus, PlayerAccount::BettingBonus, PlayerAccount::Fun];
    let houses = [
        HouseAccount::PaymentClearing,
        HouseAccount::WithdrawalHolds,
        HouseAccount::GameSettlement,
        HouseAccount::BonusLiability,
        HouseAccount::JackpotPool,
        HouseAccount::FunSupply,
    ];
    let players: Vec<i64> = (1..=5).map(|i| 8_000 + i).collect();

    // The script: (key, currency, postings, user), in batches (a batch of one goes through `post`).
    struct Scripted {
        key: String,
        kind: &'static str,
        currency: Currency,
        postings: Vec<(Account, i64)>,
        user: Option<i64>,
    }
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    let mut script: Vec<Scripted> = Vec::new();
    for n in 0..600_u64 {
        let currency = currencies[rng.below(3) as usize];
        let player = |rng: &mut XorShift| {
            let user = players[rng.below(players.len() as u64) as usize];
            Account::Player { user_id: user, kind: kinds[rng.below(4) as usize] }
        };
        let house = |rng: &mut XorShift| Account::House(houses[rng.below(houses.len() as u64) as usize]);
        // Replays and reused keys: an earlier entry again, as it was or changed.
        if n > 20 && rng.below(10) == 0 {
            let earlier = &script[rng.below(script.len() as u64) as usize];
            let mut again = Scripted {
                key: earlier.key.clone(),
                kind: earlier.kind,
                currency: earlier.currency,
                postings: earlier.postings.clone(),
                user: earlier.user,
            };
            if rng.below(2) == 0 {
                again.postings[0].1 -= 1;
                let last = again.postings.len() - 1;
                again.postings[last].1 += 1;
            }
            script.push(again);
            continue;
        }
        let amount = 1 + rng.below(3_000) as i64;
        let postings: Vec<(Account, i64)> = match rng.below(9) {
            // Money in: house → player (deposits, wins, bonus grants).
            0..=2 => vec![(house(&mut rng), -amount), (player(&mut rng), amount)],
            // Money out of a player, which may overdraw.
            3..=4 => vec![(player(&mut rng), -amount), (house(&mut rng), amount)],
            // Player to player account (a bonus converted, a hold).
            5 => vec![(player(&mut rng), -amount), (player(&mut rng), amount)],
            // Three or four legs.
            6 => {
                let split = amount / 2;
                vec![(player(&mut rng), -amount), (house(&mut rng), split), (player(&mut rng), amount - split)]
            }
            7 => vec![
                (house(&mut rng), -amount),
                (player(&mut rng), amount / 3),
                (player(&mut rng), amount / 3),
                (house(&mut rng), amount - 2 * (amount / 3)),
            ],
            // Unbalanced, or a leg of zero: refused.
            _ => {
                if rng.below(2) == 0 {
                    vec![(house(&mut rng), -amount), (player(&mut rng), amount + 1)]
                } else {
                    vec![(house(&mut rng), 0), (player(&mut rng), 0)]
                }
            }
        };
        let user = postings.iter().find_map(|(a, _)| match a {
            Account::Player { user_id, .. } if rng.below(4) != 0 => Some(*user_id),
            _ => None,
        });
        let kind = ["deposit", "bet", "win", "bonus", "hold"][rng.below(5) as usize];
        script.push(Scripted { key: format!("x-{n}"), kind, currency, postings, user });
    }
    let mut batches: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    while start < script.len() {
        let len = if rng.below(2) == 0 { 1 } else { 1 + rng.below(40) as usize };
        let end = (start + len).min(script.len());
        batches.push(start..end);
        start = end;
    }
    let entries: Vec<Entry<'_>> = script
        .iter()
        .map(|s| Entry {
            key: &s.key,
            kind: s.kind,
            user_id: s.user,
            reference: None,
            currency: s.currency,
            postings: s
                .postings
                .iter()
                .map(|(account, amount)| ledger::Posting { account: *account, amount: *amount })
                .collect(),
        })
        .collect();

    // Runs the script on one backend: every outcome, then every balance and the stored entries.
    async fn run(
        backend: Backend,
        entries: &[Entry<'_>],
        batches: &[std::ops::Range<usize>],
    ) -> (Vec<&'static str>, Vec<String>) {
        let test_db = TestDb::create(backend).await;
        let db = Db::connect(&test_db.url, 2).await.unwrap();
        db.migrate().await.unwrap();
        let mut outcomes = Vec::new();
        for batch in batches {
            let mut tx = db.begin().await.unwrap();
            if batch.len() == 1 {
                outcomes.push(outcome(&ledger::post(&mut tx, &entries[batch.start]).await));
            } else {
                let results = ledger::post_many(&mut tx, &entries[batch.clone()]).await.unwrap();
                outcomes.extend(results.iter().map(outcome));
            }
            tx.commit().await.unwrap();
        }
        let report = ledger::check(&db).await.unwrap();
        assert!(report.violations.is_empty(), "{backend:?}: {:?}", report.violations);
        let mut state: Vec<String> = sqlx::query_as::<_, (i64, String, String, i64)>(
            "SELECT CASE WHEN user_id < 0 THEN 0 ELSE user_id END, kind, currency, CAST(SUM(balance) AS BIGINT) \
             FROM ledger_accounts GROUP BY CASE WHEN user_id < 0 THEN 0 ELSE user_id END, kind, currency",
        )
        .fetch_all(db.pool())
        .await
        .unwrap()
        .into_iter()
        .filter(|(_, _, _, balance)| *balance != 0)
        .map(|(user, kind, currency, balance)| format!("balance {user} {kind} {currency} {balance}"))
        .collect();
        let transactions: Vec<(String, String, Option<i64>)> =
            sqlx::query_as("SELECT idempotency_key, kind, user_id FROM ledger_transactions")
                .fetch_all(db.pool())
                .await
                .unwrap();
        state.extend(transactions.into_iter().map(|(key, kind, user)| format!("entry {key} {kind} {user:?}")));
        state.sort();
        db.close().await;
        test_db.drop_database().await;
        (outcomes, state)
    }

    let (sqlite_outcomes, sqlite_state) = run(Backend::Sqlite, &entries, &batches).await;
    assert_eq!(sqlite_outcomes.len(), entries.len());
    for kind in ["applied", "replayed", "short", "reused", "unbalanced"] {
        assert!(sqlite_outcomes.contains(&kind), "the script exercises {kind}: {sqlite_outcomes:?}");
    }
    assert!(sqlite_state.iter().filter(|s| s.starts_with("balance")).count() > 30, "{sqlite_state:?}");
    if !crate::helpers::postgres_configured() {
        eprintln!("SKIPPED the PostgreSQL half: TEST_DATABASE_URL is not set");
        return;
    }
    let (postgres_outcomes, postgres_state) = run(Backend::Postgres, &entries, &batches).await;
    for (i, (s, p)) in sqlite_outcomes.iter().zip(&postgres_outcomes).enumerate() {
        assert_eq!(s, p, "entry {i} ({}): SQLite {s}, PostgreSQL {p}", entries[i].key);
    }
    assert_eq!(sqlite_state, postgres_state);
}
