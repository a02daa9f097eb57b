//! The bonus engine's core: a bonus's transitions and the wallet's hooks. Everything here runs in
//! the caller's database transaction (the group committer's for bets and deposits), so a bonus's
//! rows and the ledger's movements commit together or not at all.
//!
//! Invariant (checked by the model test): for each player and currency, the sum of the `balance`
//! of the player's `wagering` bonuses equals the ledger's bonus account.

use super::Rules;
use crate::db::now_ms;
use crate::features::freespins;
use crate::features::notify::{self, Notice};
use crate::ledger::{self, Account, Entry, HouseAccount, LedgerError, PlayerAccount, Posting};
use croupier_shared::{Currency, Money};
use sqlx::AnyConnection;

pub const DAY_MS: i64 = 86_400_000;

/// The columns [`BonusRow`] reads.
pub const COLUMNS: &str = "id, user_id, campaign_id, currency, status, reward, match_percent, max_bonus, min_deposit, \
     wager_multiplier, wager_includes_deposit, games, max_bet, max_conversion, freespin_game, freespin_count, freespin_bet, \
     freespin_pack_id, awaiting_deposit, payment_id, deposit_amount, amount, balance, wager_target, wagered, converted, \
     forfeited, wager_days, title_en, title_fr, text_en, text_fr, expires_at, created_at, activated_at, finished_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BonusRow {
    pub id: i64,
    pub user_id: i64,
    pub campaign_id: Option<i64>,
    pub currency: String,
    pub status: String,
    pub reward: String,
    pub match_percent: i64,
    pub max_bonus: i64,
    pub min_deposit: i64,
    pub wager_multiplier: i64,
    pub wager_includes_deposit: i64,
    pub games: String,
    pub max_bet: i64,
    pub max_conversion: Option<i64>,
    pub freespin_game: Option<String>,
    pub freespin_count: i64,
    pub freespin_bet: i64,
    pub freespin_pack_id: Option<i64>,
    pub awaiting_deposit: i64,
    pub payment_id: Option<String>,
    pub deposit_amount: i64,
    pub amount: i64,
    pub balance: i64,
    pub wager_target: i64,
    pub wagered: i64,
    pub converted: i64,
    pub forfeited: i64,
    pub wager_days: i64,
    pub title_en: String,
    pub title_fr: String,
    pub text_en: String,
    pub text_fr: String,
    pub expires_at: Option<i64>,
    pub created_at: i64,
    pub activated_at: Option<i64>,
    pub finished_at: Option<i64>,
}

impl BonusRow {
    pub fn currency(&self) -> Result<Currency, BonusError> {
        Currency::parse(&self.currency).ok_or(BonusError::Internal("a bonus in an unknown currency"))
    }

    /// Whether the bonus is for `sysname` (no list: every game).
    pub fn is_for(&self, sysname: &str) -> bool {
        self.games.is_empty() || self.games.split(',').any(|g| g == sysname)
    }
}

/// What refuses a bonus change. The API and the wallet map it to their own errors.
#[derive(Debug, thiserror::Error)]
pub enum BonusError {
    #[error("no such bonus")]
    NotFound,
    #[error("the bonus cannot do that in its state")]
    WrongState,
    #[error("the player is wagering as many bonuses as allowed ({0})")]
    ActiveLimit(i64),
    #[error("the bet is over the bonus's maximum bet ({0})")]
    MaxBet(i64),
    #[error("not enough money")]
    InsufficientFunds,
    #[error("{0}")]
    Internal(&'static str),
    #[error(transparent)]
    Ledger(LedgerError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl From<LedgerError> for BonusError {
    fn from(e: LedgerError) -> BonusError {
        match e {
            LedgerError::Db(e) => BonusError::Db(e),
            LedgerError::InsufficientFunds => BonusError::InsufficientFunds,
            other => BonusError::Ledger(other),
        }
    }
}

/// Who made a transition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    Player,
    System,
    Operator,
}

impl Actor {
    fn name(self) -> &'static str {
        match self {
            Actor::Player => "player",
            Actor::System => "system",
            Actor::Operator => "operator",
        }
    }
}

pub async fn load(conn: &mut AnyConnection, id: i64) -> Result<Option<BonusRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM player_bonuses WHERE id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The player's bonus `id`; another player's is [`BonusError::NotFound`], like an unknown one.
pub async fn load_own(conn: &mut AnyConnection, user_id: i64, id: i64) -> Result<BonusRow, BonusError> {
    load(conn, id).await?.filter(|b| b.user_id == user_id).ok_or(BonusError::NotFound)
}

/// Records a transition: the row's new status and its event.
pub async fn transition(
    conn: &mut AnyConnection,
    bonus: &BonusRow,
    to: &str,
    reason: &str,
    actor: Actor,
    amount: i64,
) -> Result<(), sqlx::Error> {
    let now = now_ms();
    let finished = matches!(to, "completed" | "expired" | "forfeited" | "cancelled" | "used");
    sqlx::query("UPDATE player_bonuses SET status = $1, finished_at = CASE WHEN $2 = 1 THEN $3 ELSE finished_at END WHERE id = $4")
        .bind(to)
        .bind(i64::from(finished))
        .bind(now)
        .bind(bonus.id)
        .execute(&mut *conn)
        .await?;
    event(conn, bonus.id, Some(&bonus.status), to, reason, actor, amount).await
}

pub async fn event(
    conn: &mut AnyConnection,
    bonus_id: i64,
    from: Option<&str>,
    to: &str,
    reason: &str,
    actor: Actor,
    amount: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO bonus_events (bonus_id, from_status, to_status, reason, actor, amount, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(bonus_id)
    .bind(from)
    .bind(to)
    .bind(reason)
    .bind(actor.name())
    .bind(amount)
    .bind(now_ms())
    .execute(conn)
    .await?;
    Ok(())
}

fn bonus_account(user_id: i64) -> Account {
    Account::Player { user_id, kind: PlayerAccount::Bonus }
}

/// How many bonuses the player is wagering.
pub async fn wagering_count(conn: &mut AnyConnection, user_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM player_bonuses WHERE user_id = $1 AND status = 'wagering'")
        .bind(user_id)
        .fetch_one(conn)
        .await
}

/// Credits a bonus and starts its wagering: the money moves from the bonus liability to the
/// player's bonus account, its free-spin pack is given, its target and deadline are set. A
/// deposit-match bonus needs `deposit` (payment id and amount). Refused with
/// [`BonusError::ActiveLimit`] when the player already wagers as many bonuses as allowed.
pub async fn credit(
    conn: &mut AnyConnection,
    rules: &Rules,
    bonus: &BonusRow,
    deposit: Option<(&str, i64)>,
    actor: Actor,
    reason: &str,
) -> Result<BonusRow, BonusError> {
    if super::betting::is_betting(&bonus.reward) {
        // A betting bonus is credited when the player activates it (`betting::activate`).
        return super::betting::on_credit(conn, bonus, deposit, actor, reason).await;
    }
    if !matches!(bonus.status.as_str(), "offered" | "active") {
        return Err(BonusError::WrongState);
    }
    let limit = rules.max_active;
    if wagering_count(conn, bonus.user_id).await? >= limit {
        return Err(BonusError::ActiveLimit(limit));
    }
    let currency = bonus.currency()?;
    let deposit_amount = deposit.map_or(0, |(_, a)| a);
    let amount = match bonus.reward.as_str() {
        "deposit_match" => {
            let matched = i128::from(deposit_amount) * i128::from(bonus.match_percent) / 100;
            i64::try_from(matched).unwrap_or(i64::MAX).min(bonus.max_bonus).max(0)
        }
        "fixed" => bonus.max_bonus,
        _ => 0,
    };
    let multiplier = rules.multiplier(bonus.wager_multiplier);
    let base = amount + if bonus.wager_includes_deposit == 1 { deposit_amount } else { 0 };
    let target = base.saturating_mul(multiplier);
    let now = now_ms();
    if amount > 0 {
        let key = format!("bonus:{}:credit", bonus.id);
        let reference = bonus.id.to_string();
        let entry = Entry::transfer(
            &key,
            "bonus_credit",
            currency,
            Account::House(HouseAccount::BonusLiability),
            bonus_account(bonus.user_id),
            amount,
        )
        .by(Some(bonus.user_id))
        .about(Some(&reference));
        ledger::post(conn, &entry).await?;
    }
    let pack = match (&bonus.freespin_game, bonus.freespin_count) {
        (Some(game), count) if count > 0 => Some(
            freespins::grant_in(
                conn,
                bonus.user_id,
                game,
                currency,
                bonus.freespin_bet,
                count,
                Some(bonus.id),
                bonus.wager_days.max(1) * DAY_MS,
            )
            .await
            .map_err(|e| match e {
                freespins::GrantError::Db(e) => BonusError::Db(e),
                _ => BonusError::Internal("the bonus's free-spin pack cannot be given"),
            })?,
        ),
        _ => None,
    };
    sqlx::query(
        "UPDATE player_bonuses SET amount = $1, balance = $1, wager_target = $2, wagered = 0, deposit_amount = $3, \
         payment_id = $4, awaiting_deposit = 0, freespin_pack_id = $5, wager_multiplier = $6, activated_at = $7, expires_at = $8 \
         WHERE id = $9",
    )
    .bind(amount)
    .bind(target)
    .bind(deposit_amount)
    .bind(deposit.map(|(p, _)| p))
    .bind(pack)
    .bind(multiplier)
    .bind(now)
    .bind(now + bonus.wager_days.max(1) * DAY_MS)
    .bind(bonus.id)
    .execute(&mut *conn)
    .await?;
    transition(conn, bonus, "wagering", reason, actor, amount).await?;
    let notice = Notice::BonusCredited {
        bonus_id: bonus.id,
        amount: Money::from_minor(amount, currency).to_decimal_string(),
        currency: currency.code().to_owned(),
        title_en: bonus.title_en.clone(),
        title_fr: bonus.title_fr.clone(),
    };
    notify::enqueue(conn, bonus.user_id, &format!("bonus:{}:credited", bonus.id), &notice).await?;
    let credited = load(conn, bonus.id).await?.ok_or(BonusError::NotFound)?;
    // Nothing to wager (no target, no spins to play): done at once.
    if target == 0 && pack.is_none() {
        complete(conn, &credited, "nothing to wager").await?;
        return load(conn, bonus.id).await?.ok_or(BonusError::NotFound);
    }
    Ok(credited)
}

/// Completes a wagering bonus: its balance turns into real money up to its maximum conversion;
/// the rest goes back to the house.
pub async fn complete(conn: &mut AnyConnection, bonus: &BonusRow, reason: &str) -> Result<(), BonusError> {
    let currency = bonus.currency()?;
    let converted = bonus.max_conversion.map_or(bonus.balance, |m| m.min(bonus.balance)).max(0);
    let returned = bonus.balance - converted;
    let mut postings = Vec::new();
    if bonus.balance > 0 {
        postings.push(Posting { account: bonus_account(bonus.user_id), amount: -bonus.balance });
    }
    if converted > 0 {
        postings.push(Posting { account: Account::main(bonus.user_id), amount: converted });
    }
    if returned > 0 {
        postings.push(Posting { account: Account::House(HouseAccount::BonusLiability), amount: returned });
    }
    if !postings.is_empty() {
        let key = format!("bonus:{}:complete", bonus.id);
        let reference = bonus.id.to_string();
        let entry = Entry {
            key: &key,
            kind: "bonus_convert",
            user_id: Some(bonus.user_id),
            reference: Some(&reference),
            currency,
            postings,
        };
        ledger::post(conn, &entry).await?;
    }
    sqlx::query("UPDATE player_bonuses SET balance = 0, converted = $1, forfeited = $2 WHERE id = $3")
        .bind(converted)
        .bind(returned)
        .bind(bonus.id)
        .execute(&mut *conn)
        .await?;
    end_pack(conn, bonus).await?;
    transition(conn, bonus, "completed", reason, Actor::System, converted).await?;
    Ok(())
}

/// Ends a bonus without paying it: `to` is expired, forfeited or cancelled. Its balance goes back
/// to the house and its free spins end.
pub async fn forfeit(
    conn: &mut AnyConnection,
    bonus: &BonusRow,
    to: &str,
    reason: &str,
    actor: Actor,
) -> Result<(), BonusError> {
    if matches!(bonus.status.as_str(), "completed" | "expired" | "forfeited" | "cancelled") {
        return Err(BonusError::WrongState);
    }
    if super::betting::is_betting(&bonus.reward) {
        return super::betting::release(conn, bonus, to, reason, actor).await;
    }
    let currency = bonus.currency()?;
    if bonus.balance > 0 {
        let key = format!("bonus:{}:forfeit", bonus.id);
        let reference = bonus.id.to_string();
        let entry = Entry::transfer(
            &key,
            "bonus_forfeit",
            currency,
            bonus_account(bonus.user_id),
            Account::House(HouseAccount::BonusLiability),
            bonus.balance,
        )
        .by(Some(bonus.user_id))
        .about(Some(&reference));
        ledger::post(conn, &entry).await?;
    }
    sqlx::query("UPDATE player_bonuses SET balance = 0, forfeited = forfeited + $1 WHERE id = $2")
        .bind(bonus.balance)
        .bind(bonus.id)
        .execute(&mut *conn)
        .await?;
    end_pack(conn, bonus).await?;
    transition(conn, bonus, to, reason, actor, bonus.balance).await?;
    Ok(())
}

async fn end_pack(conn: &mut AnyConnection, bonus: &BonusRow) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE freespin_packs SET status = 'expired' WHERE bonus_id = $1 AND status = 'active'")
        .bind(bonus.id)
        .execute(conn)
        .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The wallet's hooks.

/// A wagering bonus as a bet sees it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Wagering {
    id: i64,
    currency: String,
    balance: i64,
    games: String,
    max_bet: i64,
    wager_target: i64,
    wagered: i64,
    /// The game's contribution in percent (see [`CONTRIBUTION`]); 100 where it was not asked for.
    percent: i64,
}

impl Wagering {
    fn is_for(&self, sysname: &str) -> bool {
        self.games.is_empty() || self.games.split(',').any(|g| g == sysname)
    }
}

async fn wagering(conn: &mut AnyConnection, user_id: i64, currency: Currency) -> Result<Vec<Wagering>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, currency, balance, games, max_bet, wager_target, wagered, CAST(100 AS BIGINT) AS percent FROM player_bonuses \
         WHERE user_id = $1 AND currency = $2 AND status = 'wagering' ORDER BY id",
    )
    .bind(user_id)
    .bind(currency.code())
    .fetch_all(conn)
    .await
}

/// The share of a stake of the game named by the SQL expression `$game` that counts towards
/// wagering, in percent: the game's row of `bonus_contributions`, else its type's, else 100.
macro_rules! contribution {
    ($game:literal) => {
        concat!(
            "COALESCE((SELECT c.percent FROM bonus_contributions c WHERE (c.scope = 'game' AND c.name = ",
            $game,
            ") OR (c.scope = 'type' AND c.name = (SELECT g.game_type FROM games g WHERE g.sysname = ",
            $game,
            ")) ORDER BY CASE WHEN c.scope = 'game' THEN 0 ELSE 1 END LIMIT 1), 100)"
        )
    };
}

/// [`contribution!`] of the game `$3`.
const CONTRIBUTION: &str = contribution!("$3");

/// [`wagering`] with the contribution of `sysname` on each row: one statement, and the
/// contribution is looked up only for a player who has a bonus to count it towards.
async fn wagering_in(
    conn: &mut AnyConnection,
    user_id: i64,
    currency: Currency,
    sysname: &str,
) -> Result<Vec<Wagering>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, currency, balance, games, max_bet, wager_target, wagered, CAST({CONTRIBUTION} AS BIGINT) AS percent \
         FROM player_bonuses WHERE user_id = $1 AND currency = $2 AND status = 'wagering' ORDER BY id"
    )))
    .bind(user_id)
    .bind(currency.code())
    .bind(sysname)
    .fetch_all(conn)
    .await
}

/// How a bet is paid and counted: from the main balance, then from bonuses; the wagering it
/// counts, and towards which bonus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stake {
    pub main: i64,
    /// (bonus, amount taken from its balance), oldest bonus first.
    pub from_bonuses: Vec<(i64, i64)>,
    /// (bonus, stake counted towards its wagering).
    pub wagered: Option<(i64, i64)>,
    /// The main balance once the bet is paid, when planning read it (a player with a wagering
    /// bonus); the wallet's answer then needs no second read.
    pub main_after: Option<i64>,
    /// The bonus money spendable in the game once the bet is paid.
    pub bonus_after: i64,
}

impl Stake {
    pub fn all_main(amount: i64) -> Stake {
        Stake { main: amount, ..Stake::default() }
    }

    /// The bet's postings: what leaves the player's accounts (the caller adds the settlement).
    pub fn postings(&self, user_id: i64) -> Vec<Posting> {
        let mut postings = Vec::new();
        if self.main > 0 {
            postings.push(Posting { account: Account::main(user_id), amount: -self.main });
        }
        let bonus: i64 = self.from_bonuses.iter().map(|(_, a)| a).sum();
        if bonus > 0 {
            postings.push(Posting { account: bonus_account(user_id), amount: -bonus });
        }
        postings
    }
}

/// Plans a real-money bet of `amount` in `sysname` (the spending rule of the module docs):
/// refused over a wagering bonus's maximum bet, or when main and spendable bonus money together
/// cannot cover it. A player with no wagering bonus costs one indexed query.
pub async fn plan_stake(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    currency: Currency,
    sysname: &str,
    amount: i64,
) -> Result<Stake, BonusError> {
    let bonuses = wagering_in(conn, user_id, currency, sysname).await?;
    if bonuses.is_empty() {
        return Ok(Stake::all_main(amount));
    }
    let main = ledger::balance(conn, Account::main(user_id), currency).await?;
    let percent = bonuses.first().map_or(100, |b| b.percent);
    plan(&bonuses, percent, rules, currency, sysname, amount, main)
}

/// [`plan_stake`]'s rule on what was read: `bonuses` the player's wagering bonuses, oldest first
/// (those of other currencies are passed over), `percent` the game's contribution and `main` the
/// main balance. With no bonus in `currency` the bet is all main and nothing is read.
pub fn plan(
    bonuses: &[Wagering],
    percent: i64,
    rules: &Rules,
    currency: Currency,
    sysname: &str,
    amount: i64,
    main: i64,
) -> Result<Stake, BonusError> {
    let bonuses: Vec<&Wagering> = bonuses.iter().filter(|b| b.currency == currency.code()).collect();
    if bonuses.is_empty() {
        return Ok(Stake::all_main(amount));
    }
    if amount <= 0 {
        return Err(BonusError::WrongState);
    }
    let in_game: Vec<&Wagering> = bonuses.iter().copied().filter(|b| b.is_for(sysname)).collect();
    if let Some(max) = in_game.iter().filter(|b| b.max_bet > 0).map(|b| b.max_bet).min()
        && amount > max
    {
        return Err(BonusError::MaxBet(max));
    }
    let from_main = main.clamp(0, amount);
    let mut rest = amount - from_main;
    let mut from_bonuses = Vec::new();
    let mut bonus_after = 0;
    for b in bonuses.iter().filter(|b| !rules.isolation || b.is_for(sysname)) {
        let take = b.balance.min(rest).max(0);
        if take > 0 {
            from_bonuses.push((b.id, take));
            rest -= take;
        }
        bonus_after += b.balance - take;
    }
    if rest > 0 {
        return Err(BonusError::InsufficientFunds);
    }
    let counted = in_game.iter().find(|b| b.wagered < b.wager_target).and_then(|b| {
        let counted = i64::try_from(i128::from(amount) * i128::from(percent.clamp(0, 100)) / 100).unwrap_or(0);
        Some((b.id, counted)).filter(|(_, c)| *c > 0)
    });
    Ok(Stake { main: from_main, from_bonuses, wagered: counted, main_after: Some(main - from_main), bonus_after })
}

/// The wagering bonuses of `users` in every currency, by player, oldest first, for the merged
/// house rounds (`games::house::batch`), which plan stakes in memory with [`plan`]. Their
/// `percent` is not read (100): [`contributions`] answers it per game.
pub async fn wagering_of(
    conn: &mut AnyConnection,
    users: &[i64],
) -> Result<std::collections::HashMap<i64, Vec<Wagering>>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Of {
        user_id: i64,
        #[sqlx(flatten)]
        bonus: Wagering,
    }
    let users = serde_json::to_string(users).unwrap_or_default();
    let sql = if ledger::is_postgres(conn) {
        "SELECT user_id, id, currency, balance, games, max_bet, wager_target, wagered, CAST(100 AS BIGINT) AS percent \
         FROM player_bonuses WHERE user_id = ANY(ARRAY(SELECT CAST(value AS BIGINT) FROM jsonb_array_elements_text(CAST($1 AS JSONB)))) \
         AND status = 'wagering' ORDER BY id"
    } else {
        "SELECT user_id, id, currency, balance, games, max_bet, wager_target, wagered, CAST(100 AS BIGINT) AS percent \
         FROM player_bonuses WHERE user_id IN (SELECT value FROM json_each($1)) AND status = 'wagering' ORDER BY id"
    };
    let rows: Vec<Of> = sqlx::query_as(sql).bind(users).fetch_all(conn).await?;
    let mut by_player: std::collections::HashMap<i64, Vec<Wagering>> = std::collections::HashMap::new();
    for row in rows {
        by_player.entry(row.user_id).or_default().push(row.bonus);
    }
    Ok(by_player)
}

/// The wagering contribution in percent of each game of `sysnames` ([`contribution!`]).
pub async fn contributions(
    conn: &mut AnyConnection,
    sysnames: &[&str],
) -> Result<std::collections::HashMap<String, i64>, sqlx::Error> {
    let names = serde_json::to_string(sysnames).unwrap_or_default();
    let sql = if ledger::is_postgres(conn) {
        concat!(
            "SELECT t.value, CAST(",
            contribution!("t.value"),
            " AS BIGINT) FROM jsonb_array_elements_text(CAST($1 AS JSONB)) AS t(value)"
        )
    } else {
        concat!("SELECT t.value, CAST(", contribution!("t.value"), " AS BIGINT) FROM json_each($1) t")
    };
    let rows: Vec<(String, i64)> = sqlx::query_as(sql).bind(names).fetch_all(conn).await?;
    Ok(rows.into_iter().collect())
}

/// Whether [`settle`] would act on one of the player's wagering `bonuses` (every currency) once
/// `stake` is recorded: one that has met its target would complete, one with nothing left would
/// be forfeited. The merged house rounds leave such a round to the general path.
pub fn settles_after(bonuses: &[Wagering], stake: &Stake) -> bool {
    bonuses.iter().any(|b| {
        let taken: i64 = stake.from_bonuses.iter().filter(|(id, _)| *id == b.id).map(|(_, a)| a).sum();
        let counted: i64 = stake.wagered.filter(|(id, _)| *id == b.id).map_or(0, |(_, c)| c);
        b.wagered.saturating_add(counted) >= b.wager_target || b.balance.saturating_sub(taken) <= 0
    })
}

/// What [`record_stake`] writes, on the bonuses as read: the run of merged house rounds plans a
/// player's next round from them.
pub fn apply_stake(bonuses: &mut [Wagering], stake: &Stake) {
    for b in bonuses.iter_mut() {
        for (_, taken) in stake.from_bonuses.iter().filter(|(id, _)| *id == b.id) {
            b.balance = b.balance.saturating_sub(*taken);
        }
        if let Some((_, counted)) = stake.wagered.filter(|(id, _)| *id == b.id) {
            b.wagered = b.wagered.saturating_add(counted);
        }
    }
}

/// The wagering many all-main stakes counted, `(bonus, stake counted)` pairs in any order (a
/// bonus's are summed here: an `UPDATE … FROM` applies one source row per target row), in one
/// statement: the merged house rounds' [`record_stake`] (their stakes take nothing from the
/// bonuses, so no `bonus_stakes` row is written; the bet's `wallet_transactions` row keeps what
/// it counted).
pub async fn record_wagered(
    conn: &mut AnyConnection,
    counted: impl IntoIterator<Item = (i64, i64)>,
) -> Result<(), sqlx::Error> {
    let mut per_bonus: std::collections::BTreeMap<i64, i64> = std::collections::BTreeMap::new();
    for (bonus_id, amount) in counted {
        let sum = per_bonus.entry(bonus_id).or_default();
        *sum = sum.saturating_add(amount);
    }
    if per_bonus.is_empty() {
        return Ok(());
    }
    let pairs = serde_json::to_string(&per_bonus.into_iter().collect::<Vec<_>>()).unwrap_or_default();
    let sql = if ledger::is_postgres(conn) {
        "UPDATE player_bonuses b SET wagered = b.wagered + CAST(x.value ->> 1 AS BIGINT) \
         FROM jsonb_array_elements(CAST($1 AS JSONB)) x WHERE b.id = CAST(x.value ->> 0 AS BIGINT)"
    } else {
        "UPDATE player_bonuses SET wagered = wagered + x.counted \
         FROM (SELECT value ->> 0 AS id, value ->> 1 AS counted FROM json_each($1)) x WHERE player_bonuses.id = x.id"
    };
    sqlx::query(sql).bind(pairs).execute(conn).await?;
    Ok(())
}

/// What a player can bet in `sysname` now: main plus the bonus money spendable there.
pub async fn spendable(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    currency: Currency,
    sysname: &str,
) -> Result<(i64, i64), sqlx::Error> {
    let main = ledger::balance(conn, Account::main(user_id), currency).await?;
    let bonus: i64 = wagering(conn, user_id, currency)
        .await?
        .iter()
        .filter(|b| !rules.isolation || b.is_for(sysname))
        .map(|b| b.balance)
        .sum();
    Ok((main, bonus))
}

/// Records a posted bet's stake: the bonuses' balances and wagering, and what the bet took from
/// each bonus (for its win and its rollback). The wagering it counted is kept on the bet's own
/// `wallet_transactions` row (`Stake::wagered`, written by the wallet).
pub async fn record_stake(
    conn: &mut AnyConnection,
    provider: &str,
    transaction_uuid: &str,
    round_id: i64,
    stake: &Stake,
) -> Result<(), sqlx::Error> {
    let mut rows: Vec<(i64, i64, i64)> = stake.from_bonuses.iter().map(|&(id, a)| (id, a, 0)).collect();
    if let Some((id, counted)) = stake.wagered {
        match rows.iter_mut().find(|r| r.0 == id) {
            Some(r) => r.2 = counted,
            None => rows.push((id, 0, counted)),
        }
    }
    for (bonus_id, staked, counted) in rows {
        sqlx::query("UPDATE player_bonuses SET balance = balance - $1, wagered = wagered + $2 WHERE id = $3")
            .bind(staked)
            .bind(counted)
            .bind(bonus_id)
            .execute(&mut *conn)
            .await?;
        if staked > 0 {
            sqlx::query(
                "INSERT INTO bonus_stakes (provider, transaction_uuid, round_id, bonus_id, staked, wagered) VALUES ($1, $2, $3, $4, $5, 0)",
            )
            .bind(provider)
            .bind(transaction_uuid)
            .bind(round_id)
            .bind(bonus_id)
            .bind(staked)
            .execute(&mut *conn)
            .await?;
        }
    }
    Ok(())
}

/// Where the money of a win or a rollback goes: main, bonuses still wagering (by id), and the
/// house (the share of a bonus that ended unpaid meanwhile).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Payout {
    pub main: i64,
    pub to_bonuses: Vec<(i64, i64)>,
    pub to_house: i64,
}

impl Payout {
    /// The postings that pay it out of `from` (the game settlement).
    pub fn postings(&self, user_id: i64, from: Account, total: i64) -> Vec<Posting> {
        let mut postings = vec![Posting { account: from, amount: -total }];
        if self.main > 0 {
            postings.push(Posting { account: Account::main(user_id), amount: self.main });
        }
        let bonus: i64 = self.to_bonuses.iter().map(|(_, a)| a).sum();
        if bonus > 0 {
            postings.push(Posting { account: bonus_account(user_id), amount: bonus });
        }
        if self.to_house > 0 {
            postings.push(Posting { account: Account::House(HouseAccount::BonusLiability), amount: self.to_house });
        }
        postings
    }

    fn add(&mut self, status: &str, bonus_id: i64, amount: i64) {
        match status {
            "wagering" => match self.to_bonuses.iter_mut().find(|(id, _)| *id == bonus_id) {
                Some(b) => b.1 += amount,
                None => self.to_bonuses.push((bonus_id, amount)),
            },
            // Completed: its money is real now.
            "completed" => self.main += amount,
            _ => self.to_house += amount,
        }
    }
}

/// Splits a win of `amount` on `round_id` like the round's stakes: each bonus's share is the win
/// times the part of the round's bet it paid (rounded down); main gets the rest.
pub async fn plan_win(
    conn: &mut AnyConnection,
    provider: &str,
    round_id: i64,
    amount: i64,
) -> Result<Payout, sqlx::Error> {
    let mut payout = Payout { main: amount, ..Payout::default() };
    if amount <= 0 {
        return Ok(payout);
    }
    let stakes: Vec<(i64, i64, String)> = sqlx::query_as(
        "SELECT s.bonus_id, CAST(SUM(s.staked) AS BIGINT), b.status FROM bonus_stakes s JOIN player_bonuses b ON b.id = s.bonus_id \
         WHERE s.round_id = $1 AND s.provider = $2 AND s.rolled_back = 0 AND s.staked > 0 GROUP BY s.bonus_id, b.status ORDER BY s.bonus_id",
    )
    .bind(round_id)
    .bind(provider)
    .fetch_all(&mut *conn)
    .await?;
    if stakes.is_empty() {
        return Ok(payout);
    }
    let bet: i64 =
        sqlx::query_scalar("SELECT bet FROM game_rounds WHERE id = $1").bind(round_id).fetch_one(&mut *conn).await?;
    if bet <= 0 {
        return Ok(payout);
    }
    for (bonus_id, staked, status) in stakes {
        let share = i64::try_from(i128::from(amount) * i128::from(staked.min(bet)) / i128::from(bet)).unwrap_or(0);
        if share > 0 {
            payout.main -= share;
            payout.add(&status, bonus_id, share);
        }
    }
    Ok(payout)
}

/// A free-spin pack's win: all of it is its bonus's (while the bonus is wagering), and it adds
/// win × the bonus's multiplier to the wagering target.
pub async fn plan_pack_win(conn: &mut AnyConnection, bonus_id: i64, amount: i64) -> Result<Payout, sqlx::Error> {
    let status: Option<String> = sqlx::query_scalar("SELECT status FROM player_bonuses WHERE id = $1")
        .bind(bonus_id)
        .fetch_optional(&mut *conn)
        .await?;
    let mut payout = Payout::default();
    if amount > 0 {
        payout.add(status.as_deref().unwrap_or("cancelled"), bonus_id, amount);
    }
    Ok(payout)
}

/// Records a posted payout on the bonuses' balances (a pack's win also raises its bonus's target).
pub async fn record_payout(conn: &mut AnyConnection, payout: &Payout, pack_win: bool) -> Result<(), sqlx::Error> {
    for &(bonus_id, amount) in &payout.to_bonuses {
        let sql = if pack_win {
            "UPDATE player_bonuses SET balance = balance + $1, amount = amount + $1, \
             wager_target = wager_target + $1 * wager_multiplier WHERE id = $2"
        } else {
            "UPDATE player_bonuses SET balance = balance + $1 WHERE id = $2"
        };
        sqlx::query(sql).bind(amount).bind(bonus_id).execute(&mut *conn).await?;
    }
    Ok(())
}

/// A rolled-back bet's stake: what goes back where, and the wagering it counted (`wagered`, as
/// the bet's row keeps it) taken back. The stake rows are marked rolled back.
pub async fn plan_rollback(
    conn: &mut AnyConnection,
    provider: &str,
    bet_uuid: &str,
    amount: i64,
    wagered: Option<(i64, i64)>,
) -> Result<Payout, sqlx::Error> {
    let stakes: Vec<(i64, i64, String)> = sqlx::query_as(
        "SELECT s.bonus_id, s.staked, b.status FROM bonus_stakes s JOIN player_bonuses b ON b.id = s.bonus_id \
         WHERE s.provider = $1 AND s.transaction_uuid = $2 AND s.rolled_back = 0 ORDER BY s.bonus_id",
    )
    .bind(provider)
    .bind(bet_uuid)
    .fetch_all(&mut *conn)
    .await?;
    let mut payout = Payout { main: amount, ..Payout::default() };
    for (bonus_id, staked, status) in &stakes {
        if *staked > 0 {
            payout.main -= staked;
            payout.add(status, *bonus_id, *staked);
        }
    }
    if let Some((bonus_id, counted)) = wagered.filter(|(_, c)| *c > 0) {
        sqlx::query("UPDATE player_bonuses SET wagered = wagered - $1 WHERE id = $2 AND status = 'wagering'")
            .bind(counted)
            .bind(bonus_id)
            .execute(&mut *conn)
            .await?;
    }
    if !stakes.is_empty() {
        sqlx::query("UPDATE bonus_stakes SET rolled_back = 1 WHERE provider = $1 AND transaction_uuid = $2")
            .bind(provider)
            .bind(bet_uuid)
            .execute(&mut *conn)
            .await?;
    }
    Ok(payout)
}

/// After a round settles: each of the player's wagering bonuses that has met its target completes
/// (converting its balance), and one with nothing left to play with is forfeited — unless a round
/// it paid into is still open or its free spins are not all played.
pub async fn settle(conn: &mut AnyConnection, user_id: i64) -> Result<(), BonusError> {
    let due: Vec<i64> = sqlx::query_scalar(
        "SELECT b.id FROM player_bonuses b WHERE b.user_id = $1 AND b.status = 'wagering' \
         AND (b.wagered >= b.wager_target OR b.balance = 0) \
         AND NOT EXISTS (SELECT 1 FROM freespin_packs p WHERE p.bonus_id = b.id AND p.status = 'active' AND p.remaining_count > 0) \
         AND NOT EXISTS (SELECT 1 FROM bonus_stakes s JOIN game_rounds r ON r.id = s.round_id \
             WHERE s.bonus_id = b.id AND s.rolled_back = 0 AND s.staked > 0 AND r.status = 'open') ORDER BY b.id",
    )
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    for id in due {
        let Some(bonus) = load(conn, id).await? else { continue };
        if bonus.wagered >= bonus.wager_target {
            complete(conn, &bonus, "wagering done").await?;
        } else {
            forfeit(conn, &bonus, "forfeited", "bonus balance spent", Actor::System).await?;
        }
    }
    Ok(())
}

/// Forfeits every bonus the player is wagering (a withdrawal the player confirmed burns them).
pub async fn forfeit_all(conn: &mut AnyConnection, user_id: i64, reason: &str) -> Result<usize, BonusError> {
    let ids: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM player_bonuses WHERE user_id = $1 AND status = 'wagering' ORDER BY id")
            .bind(user_id)
            .fetch_all(&mut *conn)
            .await?;
    for id in &ids {
        if let Some(bonus) = load(conn, *id).await? {
            forfeit(conn, &bonus, "forfeited", reason, Actor::Player).await?;
        }
    }
    Ok(ids.len())
}
