//! The double-entry ledger (DESIGN.md "Money"): every movement of money is one transaction of
//! postings that sum to zero; player balances (main, bonus, betting bonus, fun) and the house's
//! (payment clearing, withdrawal holds, game settlement, bonus liability, jackpot pool, fun
//! supply) are ledger accounts whose balance is the sum of their postings.
//!
//! [`post`] runs inside the caller's database transaction, so a movement and the change that
//! causes it (a deposit's status, a withdrawal's row) commit together or not at all. Every entry
//! carries an idempotency key: posting the same key again answers the first transaction and
//! moves nothing; the same key with other postings is refused. A player account can never go
//! below zero: the balance is updated in the same statement that reads it, so two concurrent
//! movements cannot both spend the same money.
//!
//! House accounts are split into [`HOUSE_SHARDS`] rows each (`user_id` -1 … -16; the migration's
//! "0 for house accounts" predates this), chosen by the entry's player (`player mod 16`; by the
//! idempotency key when no player takes part): every deposit touches payment clearing and every
//! bet the game settlement, and one row would make all of them wait for each other's locks.
//! Choosing by player also keeps the group committer's PostgreSQL lanes apart (`db::group`). A house balance is the sum of its shards. Within an entry
//! player rows are locked first (in user order) and house rows last, so house rows are held
//! briefly and two entries over the same players cannot deadlock.
//!
//! Speed: a posting is the hot path of every bet and win, so it costs one round trip to the
//! database — one batch of statements on SQLite (a replayed key one more), one call of the
//! `ledger_post` function on PostgreSQL (migration 0014). [`post_many`] posts many entries in
//! that one call; the group committer uses it for the bare movements queued with `Db::post`.
//! `make bench` measures it against the raw write transaction rate of the same database.

use crate::db::{Db, now_ms};
use croupier_shared::Currency;
use sqlx::{AnyConnection, Executor, Row};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerAccount {
    Main,
    Bonus,
    BettingBonus,
    Fun,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HouseAccount {
    /// Money on its way in or out through payment providers.
    PaymentClearing,
    /// Withdrawals requested and not yet paid or returned.
    WithdrawalHolds,
    /// The house's side of bets and wins.
    GameSettlement,
    BonusLiability,
    JackpotPool,
    /// Where demo (fun) money comes from.
    FunSupply,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Account {
    Player { user_id: i64, kind: PlayerAccount },
    House(HouseAccount),
}

impl Account {
    pub fn main(user_id: i64) -> Account {
        Account::Player { user_id, kind: PlayerAccount::Main }
    }

    fn parts(self) -> (i64, &'static str, bool) {
        match self {
            Account::Player { user_id, kind } => (
                user_id,
                match kind {
                    PlayerAccount::Main => "main",
                    PlayerAccount::Bonus => "bonus",
                    PlayerAccount::BettingBonus => "betting_bonus",
                    PlayerAccount::Fun => "fun",
                },
                true,
            ),
            Account::House(kind) => (
                0,
                match kind {
                    HouseAccount::PaymentClearing => "payment_clearing",
                    HouseAccount::WithdrawalHolds => "withdrawal_holds",
                    HouseAccount::GameSettlement => "game_settlement",
                    HouseAccount::BonusLiability => "bonus_liability",
                    HouseAccount::JackpotPool => "jackpot_pool",
                    HouseAccount::FunSupply => "fun_supply",
                },
                false,
            ),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Posting {
    pub account: Account,
    /// Signed minor units: what the account gains (negative: loses).
    pub amount: i64,
}

/// One movement of money.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub key: &'a str,
    pub kind: &'a str,
    pub user_id: Option<i64>,
    pub reference: Option<&'a str>,
    pub currency: Currency,
    pub postings: Vec<Posting>,
}

/// An [`Entry`] that owns its text.
#[derive(Debug, Clone)]
pub struct OwnedEntry {
    key: String,
    kind: String,
    user_id: Option<i64>,
    reference: Option<String>,
    currency: Currency,
    postings: Vec<Posting>,
}

impl OwnedEntry {
    pub fn entry(&self) -> Entry<'_> {
        Entry {
            key: &self.key,
            kind: &self.kind,
            user_id: self.user_id,
            reference: self.reference.as_deref(),
            currency: self.currency,
            postings: self.postings.clone(),
        }
    }
}

impl<'a> Entry<'a> {
    /// Moves `amount` from one account to another.
    pub fn transfer(
        key: &'a str,
        kind: &'a str,
        currency: Currency,
        from: Account,
        to: Account,
        amount: i64,
    ) -> Entry<'a> {
        Entry {
            key,
            kind,
            user_id: None,
            reference: None,
            currency,
            postings: vec![Posting { account: from, amount: -amount }, Posting { account: to, amount }],
        }
    }

    /// The player the movement concerns.
    pub fn by(mut self, user_id: Option<i64>) -> Self {
        self.user_id = user_id;
        self
    }

    /// What it is about (a payment id, a round id).
    pub fn about(mut self, reference: Option<&'a str>) -> Self {
        self.reference = reference;
        self
    }

    /// The player the movement is about: `user_id`, else the first player posting's. It picks the
    /// house shard here and the group committer's lane in `Db::post`.
    pub fn player(&self) -> Option<i64> {
        self.user_id.or_else(|| {
            self.postings.iter().find_map(|p| match p.account {
                Account::Player { user_id, .. } => Some(user_id),
                Account::House(_) => None,
            })
        })
    }

    /// A copy that owns its text, to be queued (`Db::post`).
    pub fn to_owned_entry(&self) -> OwnedEntry {
        OwnedEntry {
            key: self.key.to_owned(),
            kind: self.kind.to_owned(),
            user_id: self.user_id,
            reference: self.reference.map(str::to_owned),
            currency: self.currency,
            postings: self.postings.clone(),
        }
    }

    fn balanced(&self) -> bool {
        let total: i128 = self.postings.iter().map(|p| i128::from(p.amount)).sum();
        total == 0 && !self.postings.is_empty() && self.postings.iter().all(|p| p.amount != 0)
    }

    fn fingerprint(&self) -> String {
        let mut legs: Vec<String> = self
            .postings
            .iter()
            .map(|p| {
                let (user, kind, _) = p.account.parts();
                format!("{user}/{kind}:{}", p.amount)
            })
            .collect();
        legs.sort_unstable();
        format!("{}|{}|{}", self.kind, self.currency.code(), legs.join(";"))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Posted {
    Applied {
        transaction_id: i64,
    },
    /// The key was posted before with the same postings; nothing moved now.
    Replayed {
        transaction_id: i64,
    },
}

impl Posted {
    pub fn transaction_id(self) -> i64 {
        match self {
            Posted::Applied { transaction_id } | Posted::Replayed { transaction_id } => transaction_id,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("the postings do not sum to zero")]
    Unbalanced,
    #[error("not enough money")]
    InsufficientFunds,
    #[error("the idempotency key was used for another movement")]
    KeyReused,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// How many rows each house account is split into.
pub const HOUSE_SHARDS: u64 = 16;

/// The row id of the house accounts' shard for `entry` (-1 - [`house_shard`]).
fn house_row(entry: &Entry<'_>) -> i64 {
    -1 - i64::try_from(house_shard(entry)).unwrap_or(0)
}

/// The house shard `entry` posts to: its player's ([`Entry::player`]) modulo [`HOUSE_SHARDS`];
/// for an entry without a player, its key's (FNV-1a, stable across processes). `Db::post` queues
/// the entry on the lane of the same number (modulo the lanes, which divide [`HOUSE_SHARDS`]).
pub fn house_shard(entry: &Entry<'_>) -> u64 {
    match entry.player() {
        // The same residue as the committer's lane (`player.rem_euclid(lanes)`, lanes dividing 16).
        Some(user_id) => user_id.rem_euclid(i64::try_from(HOUSE_SHARDS).unwrap_or(16)).unsigned_abs(),
        None => {
            let hash = entry
                .key
                .bytes()
                .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
            hash % HOUSE_SHARDS
        }
    }
}

/// Records `entry` in the caller's transaction. On an error the caller must roll back (drop the
/// transaction): on SQLite postings already applied in it are then undone with it (PostgreSQL's
/// `ledger_post` writes nothing for a refused entry).
pub async fn post(conn: &mut AnyConnection, entry: &Entry<'_>) -> Result<Posted, LedgerError> {
    if !entry.balanced() {
        return Err(LedgerError::Unbalanced);
    }
    if is_postgres(conn) {
        let mut results = post_postgres(conn, std::slice::from_ref(entry)).await?;
        return results.pop().unwrap_or(Err(LedgerError::Db(sqlx::Error::RowNotFound)));
    }
    post_sqlite(conn, entry, &Plan::of(entry)).await
}

/// Posts `entries` in order in the caller's transaction, each as [`post`] would, except that a
/// refused entry (not enough money, a reused key, unbalanced) writes nothing and the entries
/// after it go on: answers one result per entry. The error is the database's, and the
/// transaction must then be rolled back. On PostgreSQL every entry goes in one round trip (one
/// call of `ledger_post`), which is how the group committer posts the bare movements queued with
/// `Db::post`; on SQLite each entry runs in a savepoint.
pub async fn post_many(
    conn: &mut AnyConnection,
    entries: &[Entry<'_>],
) -> Result<Vec<Result<Posted, LedgerError>>, sqlx::Error> {
    if is_postgres(conn) {
        return post_postgres(conn, entries).await;
    }
    let mut results = Vec::with_capacity(entries.len());
    for entry in entries {
        if !entry.balanced() {
            results.push(Err(LedgerError::Unbalanced));
            continue;
        }
        conn.execute("SAVEPOINT ledger_entry").await?;
        match post_sqlite(conn, entry, &Plan::of(entry)).await {
            Err(LedgerError::Db(e)) => return Err(e),
            Err(refused) => {
                conn.execute("ROLLBACK TO ledger_entry").await?;
                conn.execute("RELEASE ledger_entry").await?;
                results.push(Err(refused));
            }
            Ok(posted) => {
                conn.execute("RELEASE ledger_entry").await?;
                results.push(Ok(posted));
            }
        }
    }
    Ok(results)
}

fn is_postgres(conn: &AnyConnection) -> bool {
    conn.backend_name().to_ascii_lowercase().starts_with("postgres")
}

/// What [`post`] writes, worked out before it talks to the database.
struct Plan {
    now: i64,
    fingerprint: String,
    /// The ledger rows the entry touches with their net change, in lock order: players first
    /// (by user and kind, so two entries on the same players lock them in the same order), house
    /// shards last, so the rows every entry shares are held for the shortest time.
    accounts: Vec<(i64, &'static str, bool, i64)>,
    /// One posting per leg: (index into `accounts`, amount).
    legs: Vec<(usize, i64)>,
    /// The player whose first real-money movement this may be.
    first_money_user: Option<i64>,
}

impl Plan {
    fn of(entry: &Entry<'_>) -> Plan {
        let mut accounts: Vec<(i64, &'static str, bool, i64)> = Vec::new();
        let mut legs = Vec::with_capacity(entry.postings.len());
        let house = house_row(entry);
        for posting in &entry.postings {
            let (user_id, kind, is_player) = posting.account.parts();
            let user_id = if is_player { user_id } else { house };
            let index = match accounts.iter().position(|a| a.0 == user_id && a.1 == kind) {
                Some(i) => {
                    accounts[i].3 += posting.amount;
                    i
                }
                None => {
                    accounts.push((user_id, kind, is_player, posting.amount));
                    accounts.len() - 1
                }
            };
            legs.push((index, posting.amount));
        }
        let mut order: Vec<usize> = (0..accounts.len()).collect();
        order.sort_by_key(|&i| (!accounts[i].2, accounts[i].0, accounts[i].1));
        let sorted = order.iter().map(|&i| accounts[i]).collect();
        for leg in &mut legs {
            leg.0 = order.iter().position(|&i| i == leg.0).unwrap_or(leg.0);
        }
        let real_money = entry
            .postings
            .iter()
            .any(|p| matches!(p.account, Account::Player { kind, .. } if kind != PlayerAccount::Fun));
        Plan {
            now: now_ms(),
            fingerprint: entry.fingerprint(),
            accounts: sorted,
            legs,
            first_money_user: entry.user_id.filter(|_| real_money),
        }
    }

    /// The entry as `ledger_post` takes it (PostgreSQL; see migration 0014).
    fn json(&self, entry: &Entry<'_>) -> serde_json::Value {
        let accounts: Vec<serde_json::Value> = self
            .accounts
            .iter()
            .map(|&(user_id, kind, is_player, change)| serde_json::json!([user_id, kind, i64::from(is_player), change]))
            .collect();
        let legs: Vec<serde_json::Value> =
            self.legs.iter().map(|&(account, amount)| serde_json::json!([account, amount])).collect();
        serde_json::json!([
            entry.key,
            entry.kind,
            entry.user_id,
            entry.reference,
            self.fingerprint,
            self.now,
            entry.currency.code(),
            self.first_money_user,
            accounts,
            legs
        ])
    }

    /// SQLite: `$N` numbers of the parameters it binds in this order: 1 key, 2 kind, 3 user,
    /// 4 reference, 5 fingerprint, 6 now, 7 currency, 8 first-money user; then per account
    /// (user, kind, is_player, change) from 9; then one amount per leg.
    fn account_param(&self, account: usize, field: usize) -> usize {
        9 + account * 4 + field
    }

    fn leg_param(&self, leg: usize) -> usize {
        9 + self.accounts.len() * 4 + leg
    }

    /// One SQL row per account, from the `$N` numbers of its (user, kind, is_player, change)
    /// and its position.
    fn account_rows(&self, row: impl Fn([usize; 4], usize) -> String) -> Vec<String> {
        (0..self.accounts.len()).map(|i| row([0, 1, 2, 3].map(|f| self.account_param(i, f)), i)).collect()
    }

    /// One SQL row per leg, from the `$N` numbers of its account's user and kind and its amount.
    fn leg_rows(&self, row: impl Fn([usize; 3]) -> String) -> Vec<String> {
        self.legs
            .iter()
            .enumerate()
            .map(|(j, &(i, _))| row([self.account_param(i, 0), self.account_param(i, 1), self.leg_param(j)]))
            .collect()
    }

    fn bind<'q>(
        &'q self,
        entry: &'q Entry<'_>,
        sql: sqlx::AssertSqlSafe<String>,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
        let mut query = sqlx::query(sql)
            .bind(entry.key)
            .bind(entry.kind)
            .bind(entry.user_id)
            .bind(entry.reference)
            .bind(&self.fingerprint)
            .bind(self.now)
            .bind(entry.currency.code())
            .bind(self.first_money_user);
        for &(user_id, kind, is_player, change) in &self.accounts {
            query = query.bind(user_id).bind(kind).bind(i64::from(is_player)).bind(change);
        }
        for &(_, amount) in &self.legs {
            query = query.bind(amount);
        }
        query
    }
}

/// SQLite: the whole entry is one batch of statements sent in one round trip (the driver binds
/// `$N` by number across the statements of a batch). The transaction row is inserted without
/// `ON CONFLICT`: a replayed key fails that first statement, SQLite undoes just that statement
/// and stops the batch, and the transaction stays usable for the replay lookup.
async fn post_sqlite(conn: &mut AnyConnection, entry: &Entry<'_>, plan: &Plan) -> Result<Posted, LedgerError> {
    let values = plan.account_rows(|[u, k, p, c], _| format!("(${u}, ${k}, $7, ${p}, ${c}, $6)"));
    let legs = plan.leg_rows(|[u, k, amount]| format!("SELECT ${u} AS u, ${k} AS k, ${amount} AS amount"));
    let sql = format!(
        "INSERT INTO ledger_transactions (idempotency_key, kind, user_id, reference, fingerprint, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id; \
         INSERT INTO ledger_accounts (user_id, kind, currency, is_player, balance, updated_at) VALUES {} \
         ON CONFLICT (user_id, kind, currency) DO UPDATE SET \
         balance = ledger_accounts.balance + excluded.balance, updated_at = excluded.updated_at \
         RETURNING is_player, balance; \
         INSERT INTO ledger_postings (transaction_id, account_id, amount) \
         SELECT t.id, a.id, v.amount FROM ledger_transactions t, ({}) v \
         JOIN ledger_accounts a ON a.user_id = v.u AND a.kind = v.k AND a.currency = $7 \
         WHERE t.idempotency_key = $1; \
         UPDATE users SET first_money_movement_at = $6 WHERE id = $8 AND first_money_movement_at IS NULL",
        values.join(", "),
        legs.join(" UNION ALL ")
    );
    let rows = match plan.bind(entry, sqlx::AssertSqlSafe(sql)).fetch_all(&mut *conn).await {
        Ok(rows) => rows,
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() && e.message().contains("ledger_transactions") => {
            let (id, previous): (i64, String) =
                sqlx::query_as("SELECT id, fingerprint FROM ledger_transactions WHERE idempotency_key = $1")
                    .bind(entry.key)
                    .fetch_one(&mut *conn)
                    .await?;
            return if previous == plan.fingerprint {
                Ok(Posted::Replayed { transaction_id: id })
            } else {
                Err(LedgerError::KeyReused)
            };
        }
        Err(e) => return Err(e.into()),
    };
    let mut rows = rows.iter();
    let transaction_id: i64 = rows.next().ok_or(sqlx::Error::RowNotFound)?.try_get(0)?;
    let mut lowest = None;
    for row in rows {
        let (is_player, balance): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
        if is_player == 1 {
            lowest = Some(lowest.map_or(balance, |l: i64| l.min(balance)));
        }
    }
    if lowest.is_some_and(|balance| balance < 0) {
        return Err(LedgerError::InsufficientFunds);
    }
    Ok(Posted::Applied { transaction_id })
}

/// PostgreSQL: every balanced entry in one call of the `ledger_post` function (migration 0014),
/// which checks the funds before it writes, so a refused entry writes nothing; the unbalanced
/// ones are refused here without being sent.
async fn post_postgres(
    conn: &mut AnyConnection,
    entries: &[Entry<'_>],
) -> Result<Vec<Result<Posted, LedgerError>>, sqlx::Error> {
    let sent: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].balanced()).collect();
    let mut results: Vec<Option<Result<Posted, LedgerError>>> =
        entries.iter().map(|e| if e.balanced() { None } else { Some(Err(LedgerError::Unbalanced)) }).collect();
    if !sent.is_empty() {
        let json: Vec<serde_json::Value> = sent.iter().map(|&i| Plan::of(&entries[i]).json(&entries[i])).collect();
        let rows: Vec<(i64, Option<i64>, i64)> = sqlx::query_as(
            "SELECT CAST(ord AS BIGINT), transaction_id, CAST(outcome AS BIGINT) FROM ledger_post(CAST($1 AS JSONB))",
        )
        .bind(serde_json::Value::Array(json).to_string())
        .fetch_all(&mut *conn)
        .await?;
        for (ord, transaction_id, outcome) in rows {
            let Some(&i) = usize::try_from(ord).ok().and_then(|o| sent.get(o)) else { continue };
            results[i] = Some(match (outcome, transaction_id) {
                (0, Some(transaction_id)) => Ok(Posted::Applied { transaction_id }),
                (1, Some(transaction_id)) => Ok(Posted::Replayed { transaction_id }),
                (2, _) => Err(LedgerError::KeyReused),
                (3, _) => Err(LedgerError::InsufficientFunds),
                _ => Err(LedgerError::Db(sqlx::Error::Protocol(format!("ledger_post answered outcome {outcome}")))),
            });
        }
    }
    Ok(results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                Err(LedgerError::Db(sqlx::Error::Protocol("ledger_post left an entry unanswered".into())))
            })
        })
        .collect())
}

/// An account's balance in minor units (0 when it never moved).
pub async fn balance(conn: &mut AnyConnection, account: Account, currency: Currency) -> Result<i64, sqlx::Error> {
    let (user_id, kind, is_player) = account.parts();
    let sql = if is_player {
        "SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM ledger_accounts WHERE user_id = $1 AND kind = $2 AND currency = $3"
    } else {
        "SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM ledger_accounts WHERE user_id <= $1 AND kind = $2 AND currency = $3"
    };
    sqlx::query_scalar(sql).bind(user_id).bind(kind).bind(currency.code()).fetch_one(conn).await
}

/// A player's four balances in `currency`: main, bonus, betting bonus, fun.
pub async fn player_balances(db: &Db, user_id: i64, currency: Currency) -> Result<[i64; 4], sqlx::Error> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT kind, balance FROM ledger_accounts WHERE user_id = $1 AND currency = $2 AND is_player = 1",
    )
    .bind(user_id)
    .bind(currency.code())
    .fetch_all(db.pool())
    .await?;
    let get = |kind: &str| rows.iter().find(|(k, _)| k == kind).map_or(0, |(_, b)| *b);
    Ok([get("main"), get("bonus"), get("betting_bonus"), get("fun")])
}

/// What `croupier-server ledger check` found.
#[derive(Debug, Default)]
pub struct CheckReport {
    pub transactions: i64,
    pub accounts: i64,
    pub violations: Vec<String>,
}

/// Verifies the invariants: each transaction's postings sum to zero per currency and it has
/// postings; each posting's transaction and account exist; each account's balance equals the sum
/// of its postings; no player balance is negative.
pub async fn check(db: &Db) -> Result<CheckReport, sqlx::Error> {
    let pool = db.pool();
    let mut report = CheckReport {
        transactions: sqlx::query_scalar("SELECT COUNT(*) FROM ledger_transactions").fetch_one(pool).await?,
        accounts: sqlx::query_scalar("SELECT COUNT(*) FROM ledger_accounts").fetch_one(pool).await?,
        violations: Vec::new(),
    };
    let unbalanced: Vec<(i64, String, i64)> = sqlx::query_as(
        "SELECT p.transaction_id, a.currency, CAST(SUM(p.amount) AS BIGINT) FROM ledger_postings p \
         JOIN ledger_accounts a ON a.id = p.account_id GROUP BY p.transaction_id, a.currency \
         HAVING CAST(SUM(p.amount) AS BIGINT) <> 0",
    )
    .fetch_all(pool)
    .await?;
    for (id, currency, sum) in unbalanced {
        report.violations.push(format!("transaction {id}: postings sum to {sum} {currency}, not 0"));
    }
    let empty: Vec<i64> = sqlx::query_scalar(
        "SELECT t.id FROM ledger_transactions t WHERE NOT EXISTS (SELECT 1 FROM ledger_postings p WHERE p.transaction_id = t.id)",
    )
    .fetch_all(pool)
    .await?;
    for id in empty {
        report.violations.push(format!("transaction {id} has no postings"));
    }
    // Postings carry no foreign keys (migration 0013): their references are checked here.
    let orphans: Vec<(i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT p.id, p.transaction_id, p.account_id, \
         CASE WHEN EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = p.transaction_id) THEN 1 ELSE 0 END, \
         CASE WHEN EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = p.account_id) THEN 1 ELSE 0 END \
         FROM ledger_postings p \
         WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = p.transaction_id) \
         OR NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = p.account_id)",
    )
    .fetch_all(pool)
    .await?;
    for (id, transaction, account, has_transaction, has_account) in orphans {
        if has_transaction == 0 {
            report.violations.push(format!("posting {id} refers to transaction {transaction}, which does not exist"));
        }
        if has_account == 0 {
            report.violations.push(format!("posting {id} refers to account {account}, which does not exist"));
        }
    }
    let drifted: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT a.id, a.balance, CAST(COALESCE((SELECT SUM(p.amount) FROM ledger_postings p WHERE p.account_id = a.id), 0) AS BIGINT) \
         FROM ledger_accounts a \
         WHERE a.balance <> CAST(COALESCE((SELECT SUM(p.amount) FROM ledger_postings p WHERE p.account_id = a.id), 0) AS BIGINT)",
    )
    .fetch_all(pool)
    .await?;
    for (id, balance, sum) in drifted {
        report.violations.push(format!("account {id}: balance {balance} but its postings sum to {sum}"));
    }
    let negative: Vec<(i64, i64, i64)> =
        sqlx::query_as("SELECT id, user_id, balance FROM ledger_accounts WHERE is_player = 1 AND balance < 0")
            .fetch_all(pool)
            .await?;
    for (id, user_id, balance) in negative {
        report.violations.push(format!("account {id} of player {user_id} is negative: {balance}"));
    }
    Ok(report)
}
