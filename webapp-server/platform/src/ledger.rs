//! The double-entry ledger (DESIGN.md "Money"): every movement of money is one transaction of
//! postings that sum to zero; player balances (main, bonus, betting bonus, fun) and the house's
//! (payment clearing, withdrawal holds, game settlement, bonus liability, jackpot pool, fun
//! supply) are ledger accounts whose balance is the sum of their postings.
//!
//! [`post`] runs inside the caller's database transaction, so a movement and the change that
//! causes it (a deposit's status, a withdrawal's row) commit together or not at all. Every entry
//! carries an idempotency key: posting the same key again answers the first transaction and
//! moves nothing; the same key with other postings is refused. A player account can never go
//! below zero: the funds are checked in the transaction that moves them, with the row locked
//! until it commits (PostgreSQL locks the player rows it checks; SQLite has one writer at a
//! time), so two concurrent movements cannot both spend the same money.
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
//! database — one batch of statements on SQLite, one call of the `ledger_post` function on
//! PostgreSQL (migration 0014) — replays included. [`post_many`] posts many entries in that one
//! round trip; the group committer uses it for the bare movements queued with [`queue`].
//! `make bench` measures it against the raw write transaction rate of the same database.
//!
//! Both backends check an entry's key and funds before writing anything, so a refused entry
//! leaves no trace and the entries after it in the same transaction go on.

use crate::api::ApiError;
use crate::db::{Db, group::Batchable, now_ms};
use croupier_shared::Currency;
use futures::future::BoxFuture;
use sqlx::{AnyConnection, Row};

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
    /// What the house pays players out of its own pocket as rewards: cashbacks.
    Promotions,
    /// The house's side of sports bets: stakes in, payouts and cash-outs out.
    SportsbookSettlement,
    /// The other side of operators' balance corrections (the back office).
    Corrections,
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
                    HouseAccount::Promotions => "promotions",
                    HouseAccount::SportsbookSettlement => "sportsbook_settlement",
                    HouseAccount::Corrections => "balance_corrections",
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
    /// house shard here and the group committer's lane in [`queue`].
    pub fn player(&self) -> Option<i64> {
        self.user_id.or_else(|| {
            self.postings.iter().find_map(|p| match p.account {
                Account::Player { user_id, .. } => Some(user_id),
                Account::House(_) => None,
            })
        })
    }

    /// A copy that owns its text, to be queued ([`queue`]).
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
/// for an entry without a player, its key's (FNV-1a, stable across processes). [`queue`] queues
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

/// Records `entry` in the caller's transaction. A refused entry (not enough money, a reused key,
/// unbalanced) writes nothing; on any error the caller still rolls back (drops the transaction),
/// as the change the movement belongs to must not commit without it.
pub async fn post(conn: &mut AnyConnection, entry: &Entry<'_>) -> Result<Posted, LedgerError> {
    let mut results = post_many(conn, std::slice::from_ref(entry)).await?;
    results.pop().unwrap_or(Err(LedgerError::Db(sqlx::Error::RowNotFound)))
}

/// Posts `entries` in order in the caller's transaction, each as [`post`] would: a refused entry
/// writes nothing and the entries after it go on. Answers one result per entry; the error is the
/// database's, and the transaction must then be rolled back. Every entry goes in one round trip
/// (one call of `ledger_post` on PostgreSQL, one batch of statements per 64 entries on SQLite),
/// which is how the group committer posts the bare movements queued with [`queue`].
pub async fn post_many(
    conn: &mut AnyConnection,
    entries: &[Entry<'_>],
) -> Result<Vec<Result<Posted, LedgerError>>, sqlx::Error> {
    touch_players(entries);
    if is_postgres(conn) { post_postgres(conn, entries).await } else { post_sqlite(conn, entries).await }
}

/// Balances are about to change: the hot path's caches of the players `entries` move stop
/// serving them (before the commit; `hot::SETTLE` covers the time to it).
fn touch_players(entries: &[Entry<'_>]) {
    for entry in entries {
        for posting in &entry.postings {
            if let Account::Player { user_id, .. } = posting.account {
                crate::hot::touch(user_id);
            }
        }
    }
}

/// [`post_many`] for entries made for this call, whose keys are new (time-ordered ids minted by
/// the caller: the merged house rounds, `games::house::batch`) and whose player accounts the
/// caller has checked for funds under the lane's order. On SQLite every entry goes in with five
/// set-based statements in one round trip whatever their number (`post_many` writes five per
/// entry), and on PostgreSQL in one statement ([`POST_FRESH_POSTGRES`]) where `post_many`'s
/// function runs about seven per entry. The guarantees still hold, as
/// a failure of the whole call that the caller's transaction then rolls back: a key that exists
/// already fails the insert (its unique index; [`LedgerError::KeyReused`] on both databases,
/// even for the same postings), an unbalanced entry is refused before anything is
/// sent, and a player account left below zero fails the call ([`LedgerError::InsufficientFunds`]).
pub async fn post_fresh(conn: &mut AnyConnection, entries: &[Entry<'_>]) -> Result<(), LedgerError> {
    post_fresh_sent(conn, entries, None).await
}

/// How many parameters [`post_fresh`]'s SQLite statements take (`$1` to `$5`): a [`Then`]'s
/// statements sent with them number theirs from `$6`.
pub const POST_FRESH_PARAMS: usize = 5;

/// [`post_fresh`]'s SQLite statements followed by `tail`, whose own `$1`, `$2`… become `$6`,
/// `$7`… ([`POST_FRESH_PARAMS`]): a [`Then::sqlite_with_post`]. Made once per tail (a
/// `LazyLock`), so the driver's statement cache keeps it prepared.
pub fn post_fresh_sqlite_then(tail: &str) -> String {
    format!("{POST_FRESH_SQLITE};\n{}", renumber_parameters(tail, POST_FRESH_PARAMS).0)
}

/// `sql` with every `$N` parameter made `$(N + by)`, and the highest `N` it had (0: none).
fn renumber_parameters(sql: &str, by: usize) -> (String, usize) {
    let (mut out, mut highest) = (String::with_capacity(sql.len() + 16), 0);
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        match after[..digits].parse::<usize>() {
            Ok(n) => {
                highest = highest.max(n);
                out.push_str(&format!("${}", n + by));
            }
            Err(_) => out.push('$'),
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    (out, highest)
}

/// The rest of a change that [`post_fresh_then`] writes after its money: the statements in each
/// dialect, with their parameters' values (`$1`, `$2`… in order). Their answer, if any, is not read.
pub struct Then<'a> {
    /// The post's statements and these, as one ([`post_fresh_sqlite_then`]).
    pub sqlite_with_post: &'a str,
    /// These alone, on SQLite (when there is no money to post).
    pub sqlite: &'a str,
    pub postgres: &'a str,
    pub values: &'a [String],
}

/// [`post_fresh`], then the rest of the change, `then`: on SQLite in the post's round trip when
/// there is money to post, else (PostgreSQL, where a statement with parameters is one statement,
/// or no entries) as one more statement after it. Every statement sent to the single writer's
/// connection is a hand-off to its thread and back, worth up to a millisecond of the lane's
/// critical path on the loaded 2-core machine (the lane's trace, 2026-11-29: the merged
/// aggregator calls' post and records took 5.8 ms as two calls, 5.0 ms as one), so the merged
/// wallet calls and house rounds send their records with their money. A failure of `then` fails
/// the whole call, as a failure of the post does ([`LedgerError::KeyReused`] for a unique key).
pub async fn post_fresh_then(
    conn: &mut AnyConnection,
    entries: &[Entry<'_>],
    then: &Then<'_>,
) -> Result<(), LedgerError> {
    if !is_postgres(conn) && !entries.is_empty() {
        return post_fresh_sent(conn, entries, Some((then.sqlite_with_post, then.values))).await;
    }
    post_fresh(conn, entries).await?;
    let sql = if is_postgres(conn) { then.postgres } else { then.sqlite };
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for value in then.values {
        query = query.bind(value.as_str());
    }
    query.execute(&mut *conn).await.map_err(ledger_error)?;
    Ok(())
}

/// A database error of a post: a unique key's violation is [`LedgerError::KeyReused`].
fn ledger_error(e: sqlx::Error) -> LedgerError {
    match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => LedgerError::KeyReused,
        other => LedgerError::Db(other),
    }
}

/// [`post_fresh`], with on SQLite the statements `with_post` (the post's and a tail's, from
/// [`post_fresh_sqlite_then`]) and the tail's values instead of the post's statements alone.
async fn post_fresh_sent(
    conn: &mut AnyConnection,
    entries: &[Entry<'_>],
    with_post: Option<(&str, &[String])>,
) -> Result<(), LedgerError> {
    if entries.is_empty() {
        return Ok(());
    }
    if entries.iter().any(|e| !e.balanced()) {
        return Err(LedgerError::Unbalanced);
    }
    touch_players(entries);
    let now = now_ms();
    let (mut transactions, mut legs) = (Vec::new(), Vec::new());
    let mut movers = std::collections::BTreeSet::new();
    // Each account's net change over the whole call, keyed in `post_many`'s lock order (players
    // first, house shards last): (not a player, row user, kind, currency).
    let mut accounts: std::collections::BTreeMap<(bool, i64, &'static str, &'static str), i64> =
        std::collections::BTreeMap::new();
    for entry in entries {
        let plan = Plan::of(entry);
        let currency = entry.currency.code();
        transactions.push(serde_json::json!([entry.key, entry.kind, entry.user_id, entry.reference, plan.fingerprint]));
        for &(account, amount) in &plan.legs {
            let (user_id, kind, _, _) = plan.accounts[account];
            legs.push(serde_json::json!([entry.key, user_id, kind, currency, amount]));
        }
        for &(user_id, kind, is_player, change) in &plan.accounts {
            *accounts.entry((!is_player, user_id, kind, currency)).or_default() += change;
        }
        movers.extend(plan.first_money_user);
    }
    let accounts: Vec<serde_json::Value> = accounts
        .into_iter()
        .map(|((house, user_id, kind, currency), change)| {
            serde_json::json!([user_id, kind, currency, i64::from(!house), change])
        })
        .collect();
    let text = |v: &[serde_json::Value]| serde_json::to_string(v).unwrap_or_default();
    let postgres = is_postgres(conn);
    let (sql, tail_values) = match with_post {
        Some((sql, values)) if !postgres => (sql, values),
        _ => (if postgres { POST_FRESH_POSTGRES } else { POST_FRESH_SQLITE }, &[][..]),
    };
    // `fetch_all`: the driver answers a batch's rows through its stream (`fetch_one` would stop
    // at the first statement, which answers none).
    let mut query = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql))
        .bind(text(&transactions))
        .bind(text(&accounts))
        .bind(now)
        .bind(text(&legs))
        .bind(serde_json::to_string(&movers).unwrap_or_default());
    for value in tail_values {
        query = query.bind(value.as_str());
    }
    let answered: Vec<i64> = query.fetch_all(&mut *conn).await.map_err(ledger_error)?;
    // The funds check's row, the only one: the tails answer none.
    let Some(&overdrawn) = answered.last() else {
        return Err(LedgerError::Db(sqlx::Error::RowNotFound));
    };
    if overdrawn > 0 {
        return Err(LedgerError::InsufficientFunds);
    }
    Ok(())
}

/// [`post_fresh`] on SQLite: `$1` the transactions (`[key, kind, player, reference, fingerprint]`),
/// `$2` each account's net change (`[row user, kind, currency, is player, change]`), `$3` the
/// time, `$4` the postings (`[key, row user, kind, currency, amount]`), `$5` the players whose
/// first real-money movement this may be. The JSON is parsed once per statement into SQLite's
/// binary form (`jsonb_each`); every row is found by its unique key with a scalar lookup. The
/// last statement answers how many of the player accounts it moved are below zero.
const POST_FRESH_SQLITE: &str = "INSERT INTO ledger_transactions (idempotency_key, kind, user_id, reference, fingerprint, created_at) \
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, $3 FROM jsonb_each(jsonb($1)) ORDER BY key;\n\
     INSERT INTO ledger_accounts (user_id, kind, currency, is_player, balance, updated_at) \
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, $3 FROM jsonb_each(jsonb($2)) WHERE true \
     ON CONFLICT (user_id, kind, currency) DO UPDATE SET \
     balance = ledger_accounts.balance + excluded.balance, updated_at = excluded.updated_at;\n\
     INSERT INTO ledger_postings (transaction_id, account_id, amount) \
     SELECT (SELECT t.id FROM ledger_transactions t WHERE t.idempotency_key = j.value ->> 0), \
     (SELECT a.id FROM ledger_accounts a WHERE a.user_id = j.value ->> 1 AND a.kind = j.value ->> 2 AND a.currency = j.value ->> 3), \
     j.value ->> 4 FROM jsonb_each(jsonb($4)) j ORDER BY j.key;\n\
     UPDATE users SET first_money_movement_at = $3 WHERE first_money_movement_at IS NULL AND id IN (SELECT value FROM json_each($5));\n\
     SELECT COUNT(*) FROM jsonb_each(jsonb($2)) j WHERE j.value ->> 3 = 1 AND (SELECT a.balance FROM ledger_accounts a \
     WHERE a.user_id = j.value ->> 0 AND a.kind = j.value ->> 1 AND a.currency = j.value ->> 2) < 0";

/// [`post_fresh`] on PostgreSQL, the same lists as [`POST_FRESH_SQLITE`] in one statement of
/// data-modifying CTEs: the transactions, the accounts' net changes (in `post_many`'s lock order:
/// players first), the postings (each naming its transaction and account from the rows the
/// statement wrote), the first movements; it answers how many player accounts it left below zero.
/// Before (2026-11-27) it was [`post_many`]'s `ledger_post`, a loop of about seven statements per
/// entry, each with its executor set-up: a profile of PostgreSQL under the wallet's load was flat
/// across that per-statement work.
const POST_FRESH_POSTGRES: &str = "WITH t AS (INSERT INTO ledger_transactions (idempotency_key, kind, user_id, reference, fingerprint, created_at) \
     SELECT v ->> 0, v ->> 1, CAST(v ->> 2 AS BIGINT), v ->> 3, v ->> 4, $3 \
     FROM jsonb_array_elements(CAST($1 AS JSONB)) WITH ORDINALITY AS x(v, n) ORDER BY n RETURNING id, idempotency_key), \
     a AS (INSERT INTO ledger_accounts (user_id, kind, currency, is_player, balance, updated_at) \
     SELECT CAST(v ->> 0 AS BIGINT), v ->> 1, v ->> 2, CAST(v ->> 3 AS BIGINT), CAST(v ->> 4 AS BIGINT), $3 \
     FROM jsonb_array_elements(CAST($2 AS JSONB)) WITH ORDINALITY AS x(v, n) ORDER BY n \
     ON CONFLICT (user_id, kind, currency) DO UPDATE SET \
     balance = ledger_accounts.balance + excluded.balance, updated_at = excluded.updated_at \
     RETURNING id, user_id, kind, currency, is_player, balance), \
     p AS (INSERT INTO ledger_postings (transaction_id, account_id, amount) \
     SELECT t.id, a.id, CAST(x.v ->> 4 AS BIGINT) FROM jsonb_array_elements(CAST($4 AS JSONB)) WITH ORDINALITY AS x(v, n) \
     JOIN t ON t.idempotency_key = x.v ->> 0 \
     JOIN a ON a.user_id = CAST(x.v ->> 1 AS BIGINT) AND a.kind = x.v ->> 2 AND a.currency = x.v ->> 3 \
     ORDER BY x.n RETURNING 1), \
     u AS (UPDATE users SET first_money_movement_at = $3 WHERE first_money_movement_at IS NULL \
     AND id = ANY(ARRAY(SELECT CAST(jsonb_array_elements_text(CAST($5 AS JSONB)) AS BIGINT))) RETURNING 1) \
     SELECT CAST(COUNT(*) AS BIGINT) FROM a WHERE a.is_player = 1 AND a.balance < 0";

/// Posts `entry`, a movement of money that is the whole change (no other row changes with it),
/// through the group committer on its player's lane: [`post`]'s result. On PostgreSQL a lane posts
/// the movements queued together in one round trip ([`post_many`]).
pub async fn queue(db: &Db, entry: &Entry<'_>) -> Result<Posted, LedgerError> {
    db.submit(i64::try_from(house_shard(entry)).unwrap_or(0), entry.to_owned_entry()).await
}

/// A queued movement is a change the group committer merges with its neighbours: a run of them
/// is one [`post_many`] call, which refuses an entry without writing anything.
impl Batchable for OwnedEntry {
    type Output = Posted;
    type Error = LedgerError;

    fn run_one<'a>(&'a self, conn: &'a mut AnyConnection) -> BoxFuture<'a, Result<Posted, LedgerError>> {
        Box::pin(async move { post(conn, &self.entry()).await })
    }

    fn run_many<'a>(
        conn: &'a mut AnyConnection,
        items: &'a [&'a OwnedEntry],
    ) -> BoxFuture<'a, Result<Vec<Result<Posted, LedgerError>>, LedgerError>> {
        Box::pin(async move {
            let entries: Vec<Entry<'_>> = items.iter().map(|e| e.entry()).collect();
            Ok(post_many(conn, &entries).await?)
        })
    }
}

/// The one conversion of a ledger refusal at the HTTP edge. A caller that can explain a refusal
/// to the player (not enough money for a withdrawal, say) matches it before this; one that
/// reaches here is the server's failure: a bare 500, the cause logged.
impl From<LedgerError> for ApiError {
    fn from(e: LedgerError) -> ApiError {
        match e {
            LedgerError::Db(e) => ApiError::internal(e),
            other => ApiError::internal(anyhow::anyhow!(other)),
        }
    }
}

/// Whether `conn` talks to PostgreSQL (else SQLite), for the statements written per dialect.
pub fn is_postgres(conn: &AnyConnection) -> bool {
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
}

/// SQLite: the entries go in one batch of statements sent in one round trip (one hop to the
/// driver's worker thread), at most [`SQLITE_CHUNK`] entries and no key twice per batch. Like
/// PostgreSQL's `ledger_post`, each entry checks its funds and its key before it writes, so a
/// refused entry writes nothing: its transaction row is inserted only when the key is new and
/// every player account it takes from holds enough; `changes()` tells the next statement whether
/// that happened, which records the new transaction in the connection's scratch table
/// `temp.ledger_batch` (made by the batch itself, [`SQLITE_BATCH_PROLOGUE`]), and the entry's
/// other statements write only when their transaction is there. The batch's last statement
/// answers, per entry, its new transaction or the key's earlier one.
async fn post_sqlite(
    conn: &mut AnyConnection,
    entries: &[Entry<'_>],
) -> Result<Vec<Result<Posted, LedgerError>>, sqlx::Error> {
    let mut results = Vec::with_capacity(entries.len());
    let mut run: Vec<&Entry<'_>> = Vec::new();
    for entry in entries {
        if !entry.balanced() {
            results.append(&mut post_sqlite_run(conn, &run).await?);
            run.clear();
            results.push(Err(LedgerError::Unbalanced));
            continue;
        }
        if run.iter().any(|e| e.key == entry.key) {
            results.append(&mut post_sqlite_run(conn, &run).await?);
            run.clear();
        }
        run.push(entry);
    }
    results.append(&mut post_sqlite_run(conn, &run).await?);
    Ok(results)
}

/// Most entries in one SQLite batch of statements.
const SQLITE_CHUNK: usize = 64;

/// `entries` in batches of a power of two entries, largest first (at most [`SQLITE_CHUNK`]): the
/// driver caches each batch's prepared statements by its text, and this keeps the texts to seven
/// per shape of entry instead of one per length.
async fn post_sqlite_run(
    conn: &mut AnyConnection,
    mut entries: &[&Entry<'_>],
) -> Result<Vec<Result<Posted, LedgerError>>, sqlx::Error> {
    let mut results = Vec::with_capacity(entries.len());
    while !entries.is_empty() {
        let size = SQLITE_CHUNK.min(1 << entries.len().ilog2());
        let (chunk, rest) = entries.split_at(size);
        results.append(&mut post_sqlite_chunk(conn, chunk).await?);
        entries = rest;
    }
    Ok(results)
}

/// SQL text with its parameters, numbered as they are added.
#[derive(Default)]
struct Statements {
    sql: String,
    binds: Vec<Bind>,
}

enum Bind {
    Int(Option<i64>),
    Text(Option<String>),
}

impl Statements {
    fn int(&mut self, value: impl Into<Option<i64>>) -> String {
        self.binds.push(Bind::Int(value.into()));
        format!("${}", self.binds.len())
    }

    fn text(&mut self, value: Option<&str>) -> String {
        self.binds.push(Bind::Text(value.map(str::to_owned)));
        format!("${}", self.binds.len())
    }
}

/// Every SQLite batch starts with its scratch table: made on the connection's first batch (a
/// temporary table is the connection's own) and a no-op after that, so the storage seam needs
/// to know nothing of the ledger.
const SQLITE_BATCH_PROLOGUE: &str = "CREATE TEMP TABLE IF NOT EXISTS ledger_batch (ord INTEGER PRIMARY KEY, tx INTEGER NOT NULL);\nDELETE FROM temp.ledger_batch;\n";

/// One SQLite batch for `entries` (balanced, keys distinct): see [`post_sqlite`].
async fn post_sqlite_chunk(
    conn: &mut AnyConnection,
    entries: &[&Entry<'_>],
) -> Result<Vec<Result<Posted, LedgerError>>, sqlx::Error> {
    if entries.is_empty() {
        return Ok(Vec::new());
    }
    let plans: Vec<Plan> = entries.iter().map(|e| Plan::of(e)).collect();
    let mut q = Statements { sql: SQLITE_BATCH_PROLOGUE.to_owned(), binds: Vec::new() };
    let mut keys = Vec::with_capacity(entries.len());
    for (ord, (entry, plan)) in entries.iter().zip(&plans).enumerate() {
        let currency = Some(entry.currency.code());
        let mut funds = String::new();
        for &(user_id, kind, is_player, change) in &plan.accounts {
            // Every player account is checked, the credited ones too (always true there): one
            // statement text per shape of entry keeps the driver's statement cache hitting.
            if is_player {
                let (u, k, c, d) = (q.int(user_id), q.text(Some(kind)), q.text(currency), q.int(change));
                funds.push_str(&format!(
                    " AND COALESCE((SELECT balance FROM ledger_accounts WHERE user_id = {u} AND kind = {k} AND currency = {c}), 0) + {d} >= 0"
                ));
            }
        }
        let (key, kind, user, reference) =
            (q.text(Some(entry.key)), q.text(Some(entry.kind)), q.int(entry.user_id), q.text(entry.reference));
        let (fingerprint, now, key_again) = (q.text(Some(&plan.fingerprint)), q.int(plan.now), q.text(Some(entry.key)));
        q.sql.push_str(&format!(
            "INSERT INTO ledger_transactions (idempotency_key, kind, user_id, reference, fingerprint, created_at) \
             SELECT {key}, {kind}, {user}, {reference}, {fingerprint}, {now} \
             WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions WHERE idempotency_key = {key_again}){funds};\n\
             INSERT INTO temp.ledger_batch (ord, tx) SELECT {ord}, last_insert_rowid() WHERE changes() = 1;\n"
        ));
        let mut rows = Vec::with_capacity(plan.accounts.len());
        for &(user_id, kind, is_player, change) in &plan.accounts {
            let row = [
                q.int(user_id),
                q.text(Some(kind)),
                q.text(currency),
                q.int(i64::from(is_player)),
                q.int(change),
                q.int(plan.now),
            ];
            rows.push(format!("({})", row.join(", ")));
        }
        q.sql.push_str(&format!(
            "INSERT INTO ledger_accounts (user_id, kind, currency, is_player, balance, updated_at) \
             SELECT column1, column2, column3, column4, column5, column6 FROM (VALUES {}) \
             WHERE EXISTS (SELECT 1 FROM temp.ledger_batch WHERE ord = {ord}) \
             ON CONFLICT (user_id, kind, currency) DO UPDATE SET \
             balance = ledger_accounts.balance + excluded.balance, updated_at = excluded.updated_at;\n",
            rows.join(", ")
        ));
        let mut legs = Vec::with_capacity(plan.legs.len());
        for &(account, amount) in &plan.legs {
            let (user_id, kind, _, _) = plan.accounts[account];
            legs.push(format!(
                "SELECT {} AS u, {} AS k, {} AS amount",
                q.int(user_id),
                q.text(Some(kind)),
                q.int(amount)
            ));
        }
        let c = q.text(currency);
        q.sql.push_str(&format!(
            "INSERT INTO ledger_postings (transaction_id, account_id, amount) \
             SELECT b.tx, a.id, v.amount FROM temp.ledger_batch b, ({}) v \
             JOIN ledger_accounts a ON a.user_id = v.u AND a.kind = v.k AND a.currency = {c} WHERE b.ord = {ord};\n",
            legs.join(" UNION ALL ")
        ));
        // Always there (a NULL user changes nothing), for the same reason.
        let (now, user) = (q.int(plan.now), q.int(plan.first_money_user));
        q.sql.push_str(&format!(
            "UPDATE users SET first_money_movement_at = {now} WHERE id = {user} AND first_money_movement_at IS NULL \
             AND EXISTS (SELECT 1 FROM temp.ledger_batch WHERE ord = {ord});\n"
        ));
        keys.push(format!("SELECT {ord} AS ord, {} AS key", q.text(Some(entry.key))));
    }
    q.sql.push_str(&format!(
        "SELECT b.tx, t.id, t.fingerprint FROM ({}) v LEFT JOIN temp.ledger_batch b ON b.ord = v.ord \
         LEFT JOIN ledger_transactions t ON t.idempotency_key = v.key ORDER BY v.ord",
        keys.join(" UNION ALL ")
    ));
    let mut query = sqlx::query(sqlx::AssertSqlSafe(q.sql));
    for bind in q.binds {
        query = match bind {
            Bind::Int(value) => query.bind(value),
            Bind::Text(value) => query.bind(value),
        };
    }
    let rows = query.fetch_all(&mut *conn).await?;
    if rows.len() != entries.len() {
        return Err(sqlx::Error::Protocol(format!(
            "the ledger batch answered {} rows for {} entries",
            rows.len(),
            entries.len()
        )));
    }
    rows.iter()
        .zip(&plans)
        .map(|(row, plan)| {
            let (applied, existing, fingerprint): (Option<i64>, Option<i64>, Option<String>) =
                (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
            Ok(match (applied, existing) {
                (Some(transaction_id), _) => Ok(Posted::Applied { transaction_id }),
                (None, Some(transaction_id)) if fingerprint.as_deref() == Some(plan.fingerprint.as_str()) => {
                    Ok(Posted::Replayed { transaction_id })
                }
                (None, Some(_)) => Err(LedgerError::KeyReused),
                (None, None) => Err(LedgerError::InsufficientFunds),
            })
        })
        .collect()
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
         CASE WHEN t.id IS NULL THEN 0 ELSE 1 END, CASE WHEN a.id IS NULL THEN 0 ELSE 1 END \
         FROM ledger_postings p \
         LEFT JOIN ledger_transactions t ON t.id = p.transaction_id \
         LEFT JOIN ledger_accounts a ON a.id = p.account_id \
         WHERE t.id IS NULL OR a.id IS NULL",
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_tails_parameters_follow_the_posts() {
        assert_eq!(
            super::renumber_parameters("SELECT $1, $2 FROM t WHERE a = $10 AND b = '$' AND c = $2", 5),
            ("SELECT $6, $7 FROM t WHERE a = $15 AND b = '$' AND c = $7".to_owned(), 10)
        );
        assert_eq!(super::renumber_parameters("SELECT 1", 5), ("SELECT 1".to_owned(), 0));
        let sql = super::post_fresh_sqlite_then("UPDATE x SET y = $1, z = $2");
        assert!(sql.starts_with(super::POST_FRESH_SQLITE));
        assert!(sql.ends_with(";\nUPDATE x SET y = $6, z = $7"), "{sql}");
        assert_eq!(super::renumber_parameters(super::POST_FRESH_SQLITE, 0).1, super::POST_FRESH_PARAMS);
    }
}
