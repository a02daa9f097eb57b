//! Cashbacks (SPEC §3 "Cashback": id, status, description, receiving_expired_at, paid_out_at,
//! end_date; §7 `cashbacks.get`, `cashbacks.payout`, `cashbacks.remove`). A cashback is an amount
//! the house gives a player back, described in both languages; the client shows the newest active
//! one in the "unseen cashback" popup after sign-in (SPEC §4) and lists them on
//! `/profile/cashback` and in the cashier history.
//!
//! Where they come from: a programme's period job ([`close`], configured in [`programmes`]) or
//! an operator's `POST /admin/cashbacks`.
//!
//! Statuses: `pending` (above the programme's approval threshold: an operator approves or
//! rejects it), `active` (the player may claim it until `receiving_expired_at`), `paid_out`,
//! `removed` (the player declined it), `expired` (not claimed in time), `rejected` (by an
//! operator). `cashbacks.get` answers all but `removed` and `rejected` unless `statuses` names them.
//!
//! A player claims one with `cashbacks.payout`: a real-money cashback moves from the house's
//! `promotions` account to their main balance through the ledger (key `cashback:{id}:payout`);
//! one a programme pays as a bonus becomes a wagering bonus through the bonus engine (claim key
//! `cashback:{id}`; it does not count against the player's active-bonus limit, as it is owed).
//! Either way a second press or a retry pays nothing more and answers the paid cashback; it all
//! happens in one transaction on the player's lane of the group committer. `cashbacks.remove`
//! declines an active one (nothing moves). The player hears through the bot when one is ready
//! and when it is paid.

#[cfg(feature = "bench")]
pub mod bench;
pub mod close;
pub mod programmes;

use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, Registry};
use crate::db::{Db, now_ms};
use crate::features::account::store::field_error;
use crate::features::bonuses::Rules;
use crate::features::bonuses::engine::{self, Actor};
use crate::features::notify::{self, Notice};
use crate::ledger::{self, Account, Entry, HouseAccount, LedgerError};
use croupier_shared::{Currency, FieldCode, Locale, Money};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub fn register(api: &mut Registry) {
    api.read(
        "cashbacks.get",
        "The player's cashbacks (offset, count, sort created_at or end_date, order, statuses: any of pending, active, paid_out, removed, expired, rejected).",
        get,
    );
    api.write("cashbacks.payout", "Pays an active cashback to the main balance (cashback_id); idempotent.", payout);
    api.write("cashbacks.remove", "Declines an active cashback (cashback_id).", remove);
}

/// The statuses a cashback can have.
pub const STATUSES: [&str; 6] = ["pending", "active", "paid_out", "removed", "expired", "rejected"];
/// What `cashbacks.get` answers when `statuses` is absent.
pub const SHOWN: [&str; 4] = ["pending", "active", "paid_out", "expired"];

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CashbacksQuery {
    /// 0 or more (default 0).
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
    /// created_at (default) or end_date.
    #[serde(default)]
    pub sort: Option<String>,
    /// desc (default) or asc.
    #[serde(default)]
    pub order: Option<String>,
    /// A comma-separated list of pending, active, paid_out, removed, expired and rejected;
    /// all but removed and rejected when absent.
    #[serde(default)]
    pub statuses: Option<String>,
    /// Accepted for the client's sake; every field is always answered.
    #[serde(default)]
    pub fields: Option<String>,
}

impl CashbacksQuery {
    fn statuses(&self) -> Vec<&str> {
        self.statuses
            .as_deref()
            .map_or_else(Vec::new, |s| s.split(',').map(str::trim).filter(|s| !s.is_empty()).collect())
    }

    /// The statuses asked for, as a quoted SQL list (each one from [`STATUSES`], checked).
    fn status_list(&self) -> String {
        let asked = self.statuses();
        let pick: Vec<&str> = STATUSES
            .iter()
            .copied()
            .filter(|s| if asked.is_empty() { SHOWN.contains(s) } else { asked.contains(s) })
            .collect();
        pick.iter().map(|s| format!("'{s}'")).collect::<Vec<_>>().join(", ")
    }
}

impl Input for CashbacksQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.offset.is_some_and(|o| o < 0) {
            errors.add_with("offset", FieldCode::MinValue, vec![("min", "0".into())]);
        }
        match self.count {
            Some(c) if c < 1 => errors.add_with("count", FieldCode::MinValue, vec![("min", "1".into())]),
            Some(c) if c > 100 => errors.add_with("count", FieldCode::MaxValue, vec![("max", "100".into())]),
            _ => {}
        }
        if !matches!(self.sort.as_deref(), None | Some("created_at" | "end_date")) {
            errors.add("sort", FieldCode::Unsupported);
        }
        if !matches!(self.order.as_deref(), None | Some("asc" | "desc")) {
            errors.add("order", FieldCode::Unsupported);
        }
        if self.statuses().iter().any(|s| !STATUSES.contains(s)) {
            errors.add("statuses", FieldCode::Unsupported);
        }
    }
}

/// An amount with its currency, as the account's balances are written.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Amount {
    /// Decimal, e.g. "12.50".
    pub amount: String,
    pub currency: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Cashback {
    pub id: i64,
    /// pending, active, paid_out, removed, expired or rejected.
    pub status: String,
    /// real (to the main balance) or bonus (a wagering bonus).
    pub pays: String,
    /// In the request's language.
    pub description: String,
    pub amount: Amount,
    /// Unix seconds: the cashback can be claimed until then; null: no limit (or still pending).
    pub receiving_expired_at: Option<i64>,
    /// Unix seconds; null until the cashback is paid out.
    pub paid_out_at: Option<i64>,
    /// Unix seconds.
    pub end_date: i64,
    /// Unix seconds.
    pub created_at: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Cashbacks {
    pub total: i64,
    pub items: Vec<Cashback>,
}

#[derive(sqlx::FromRow)]
struct CashbackRow {
    id: i64,
    user_id: i64,
    status: String,
    pays: String,
    description_en: String,
    description_fr: String,
    amount: i64,
    currency: String,
    receiving_expired_at: Option<i64>,
    paid_out_at: Option<i64>,
    end_date: i64,
    created_at: i64,
    wager_multiplier: i64,
    wager_days: i64,
}

impl CashbackRow {
    /// The amount as a decimal string of its currency.
    fn money(&self) -> String {
        Currency::parse(&self.currency)
            .map_or_else(|| self.amount.to_string(), |c| Money::from_minor(self.amount, c).to_decimal_string())
    }

    fn into_item(self, locale: Locale) -> Cashback {
        let amount = self.money();
        Cashback {
            id: self.id,
            status: self.status,
            pays: self.pays,
            description: if locale == Locale::Fr { self.description_fr } else { self.description_en },
            amount: Amount { amount, currency: self.currency },
            receiving_expired_at: self.receiving_expired_at.map(|ms| ms / 1000),
            paid_out_at: self.paid_out_at.map(|ms| ms / 1000),
            end_date: self.end_date / 1000,
            created_at: self.created_at / 1000,
        }
    }
}

async fn get(ctx: Ctx, user: AuthUser, query: CashbacksQuery) -> Result<Cashbacks, ApiError> {
    let user_id = user.id;
    let db = ctx.state.db();
    // Only the statuses `validate` checked against the whitelist reach the SQL text.
    let filter = format!("user_id = $1 AND status IN ({})", query.status_list());
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM cashbacks WHERE {filter}")))
        .bind(user_id)
        .fetch_one(db.pool())
        .await?;
    // Both come from the whitelists `validate` checked; ties fall back on the id, in the same order.
    let column = if query.sort.as_deref() == Some("end_date") { "end_date" } else { "created_at" };
    let direction = if query.order.as_deref() == Some("asc") { "ASC" } else { "DESC" };
    let rows: Vec<CashbackRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM cashbacks WHERE {filter} ORDER BY {column} {direction}, id {direction} LIMIT $2 OFFSET $3"
    )))
    .bind(user_id)
    .bind(query.count.unwrap_or(20))
    .bind(query.offset.unwrap_or(0))
    .fetch_all(db.pool())
    .await?;
    Ok(Cashbacks { total, items: rows.into_iter().map(|r| r.into_item(ctx.locale)).collect() })
}

const COLUMNS: &str = "id, user_id, status, pays, description_en, description_fr, amount, currency, receiving_expired_at, paid_out_at, end_date, created_at, wager_multiplier, wager_days";

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CashbackInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true), range(min = 1))]
    pub cashback_id: Option<i64>,
}

impl Input for CashbackInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.cashback_id {
            None => errors.add("cashback_id", FieldCode::Required),
            Some(id) if id < 1 => errors.add("cashback_id", FieldCode::Invalid),
            Some(_) => {}
        }
    }
}

/// The player's own cashback `id`, read with the player's row locked.
async fn own(conn: &mut sqlx::AnyConnection, user_id: i64, id: i64) -> Result<CashbackRow, ApiError> {
    own_row(conn, user_id, id).await?.ok_or_else(|| ApiError::field("cashback_id", FieldCode::NotFound))
}

/// The player's own cashback `id`, if there is one.
async fn own_row(conn: &mut sqlx::AnyConnection, user_id: i64, id: i64) -> Result<Option<CashbackRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM cashbacks WHERE id = $1 AND user_id = $2")))
        .bind(id)
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await
}

#[derive(Clone, Copy)]
enum Claim {
    Payout,
    Remove,
}

async fn claim(ctx: Ctx, user: AuthUser, input: CashbackInput, what: Claim) -> Result<Cashback, ApiError> {
    let (user_id, id, locale) = (user.id, input.cashback_id.unwrap_or(0), ctx.locale);
    // A cashback paid as a bonus is owed: the player's active-bonus limit does not hold it back.
    let rules = Rules { max_active: i64::MAX, ..Rules::of(&ctx.state) };
    let db = ctx.state.db().clone();
    ctx.state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let (db, rules) = (db.clone(), rules);
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    let row = own(conn, user_id, id).await?;
                    match (what, row.status.as_str()) {
                        // A second press, or a retry, of a payout that went through.
                        (Claim::Payout, "paid_out") => return Ok(row.into_item(locale)),
                        (_, "active") => {}
                        (Claim::Payout, "expired") => {
                            return Err(ApiError::field("cashback_id", FieldCode::CodeExpired));
                        }
                        _ => return Err(ApiError::field("cashback_id", FieldCode::Locked)),
                    }
                    let now = now_ms();
                    match what {
                        Claim::Payout => {
                            if row.receiving_expired_at.is_some_and(|t| t <= now) {
                                return Err(ApiError::field("cashback_id", FieldCode::CodeExpired));
                            }
                            let bonus_id = paid_out(conn, &rules, &row, now).await?;
                            let notice = Notice::CashbackPaid {
                                cashback_id: id,
                                amount: row.money(),
                                currency: row.currency.clone(),
                                as_bonus: bonus_id.is_some(),
                            };
                            notify::enqueue(conn, user_id, &format!("cashback:{id}:paid"), &notice).await?;
                        }
                        Claim::Remove => {
                            sqlx::query("UPDATE cashbacks SET status = 'removed' WHERE id = $1")
                                .bind(id)
                                .execute(&mut *conn)
                                .await?;
                        }
                    }
                    Ok(own(conn, user_id, id).await?.into_item(locale))
                })
            }),
        )
        .await
}

/// Pays an active cashback and marks it paid out (answers the bonus's id when it pays as one).
async fn paid_out(
    conn: &mut sqlx::AnyConnection,
    rules: &Rules,
    row: &CashbackRow,
    now: i64,
) -> Result<Option<i64>, ApiError> {
    let bonus_id = pay(conn, rules, row).await?;
    sqlx::query("UPDATE cashbacks SET status = 'paid_out', paid_out_at = $1, bonus_id = $2 WHERE id = $3")
        .bind(now)
        .bind(bonus_id)
        .bind(row.id)
        .execute(&mut *conn)
        .await?;
    Ok(bonus_id)
}

/// A claim from the bot's chat (the cashback notice's claim button): the Telegram user's linked
/// player (an active account: a banned or deleted one could not call `cashbacks.payout` either),
/// their own cashback only, paid exactly like `cashbacks.payout` (same keys, same lane, once).
/// The bot answers in the chat, so no "paid" notice is queued.
pub async fn claim_from_chat(
    state: &crate::AppState,
    telegram_id: i64,
    cashback_id: i64,
) -> anyhow::Result<croupier_bot::ClaimAnswer> {
    use croupier_bot::{ClaimAnswer, ClaimOutcome};
    let player: Option<(i64, String, Option<String>)> = sqlx::query_as(
        "SELECT s.user_id, u.locale, c.locale FROM social_identities s JOIN users u ON u.id = s.user_id \
         LEFT JOIN telegram_chats c ON c.telegram_id = s.subject \
         WHERE s.provider = 'telegram' AND s.subject = $1 AND u.status = 'active' AND COALESCE(u.blocked_until, 0) <= $2",
    )
    .bind(telegram_id.to_string())
    // A time-out or self-exclusion in force: the button answers "unavailable" (`protection`).
    .bind(now_ms())
    .fetch_optional(state.db().pool())
    .await?;
    let unavailable = |locale: Option<String>| ClaimAnswer {
        outcome: ClaimOutcome::Unavailable,
        amount: String::new(),
        currency: String::new(),
        as_bonus: false,
        locale,
    };
    let Some((user_id, account_locale, chosen)) = player else { return Ok(unavailable(None)) };
    let locale = chosen.unwrap_or(account_locale);
    let rules = Rules { max_active: i64::MAX, ..Rules::of(state) };
    let db = state.db().clone();
    let done = state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let db = db.clone();
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    let Some(row) = own_row(conn, user_id, cashback_id).await? else {
                        return Ok::<_, ApiError>(None);
                    };
                    let now = now_ms();
                    let outcome = match row.status.as_str() {
                        "paid_out" => ClaimOutcome::AlreadyPaid,
                        "expired" => ClaimOutcome::Expired,
                        "active" if row.receiving_expired_at.is_some_and(|t| t <= now) => ClaimOutcome::Expired,
                        "active" => {
                            paid_out(conn, &rules, &row, now).await?;
                            ClaimOutcome::Paid
                        }
                        _ => ClaimOutcome::Unavailable,
                    };
                    Ok(Some((outcome, row.money(), row.currency.clone(), row.pays == "bonus")))
                })
            }),
        )
        .await
        .map_err(|e| anyhow::anyhow!("cashback claim from the chat: {e:?}"))?;
    Ok(match done {
        Some((outcome, amount, currency, as_bonus)) => {
            ClaimAnswer { outcome, amount, currency, as_bonus, locale: Some(locale) }
        }
        None => unavailable(Some(locale)),
    })
}

/// Moves a cashback's money: to the main balance through the ledger, or into a new wagering
/// bonus through the bonus engine (answers the bonus's id).
async fn pay(conn: &mut sqlx::AnyConnection, rules: &Rules, row: &CashbackRow) -> Result<Option<i64>, ApiError> {
    let id = row.id;
    let currency = Currency::parse(&row.currency)
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("cashback {id}: bad currency")))?;
    if row.pays == "bonus" {
        let bonus_id: i64 = sqlx::query_scalar(
            "INSERT INTO player_bonuses (user_id, claim_key, currency, status, reward, max_bonus, wager_multiplier, wager_days, \
             title_en, title_fr, text_en, text_fr, created_at) \
             VALUES ($1, $2, $3, 'offered', 'fixed', $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
        )
        .bind(row.user_id)
        .bind(format!("cashback:{id}"))
        .bind(currency.code())
        .bind(row.amount)
        .bind(row.wager_multiplier)
        .bind(row.wager_days.max(1))
        .bind(&row.description_en)
        .bind(&row.description_fr)
        .bind(&row.description_en)
        .bind(&row.description_fr)
        .bind(now_ms())
        .fetch_one(&mut *conn)
        .await?;
        let reason = format!("cashback {id}");
        engine::event(conn, bonus_id, None, "offered", &reason, Actor::System, 0).await?;
        let bonus = engine::load(conn, bonus_id)
            .await?
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("cashback {id}: its bonus vanished")))?;
        engine::credit(conn, rules, &bonus, None, Actor::System, &reason)
            .await
            .map_err(crate::features::bonuses::methods::refusal)?;
        return Ok(Some(bonus_id));
    }
    let key = format!("cashback:{id}:payout");
    let reference = id.to_string();
    let entry = Entry::transfer(
        &key,
        "cashback",
        currency,
        Account::House(HouseAccount::Promotions),
        Account::main(row.user_id),
        row.amount,
    )
    .by(Some(row.user_id))
    .about(Some(&reference));
    ledger::post(conn, &entry).await.map_err(|e| match e {
        LedgerError::Db(e) => ApiError::from(e),
        other => ApiError::internal(anyhow::anyhow!("cashback {id}: {other}")),
    })?;
    Ok(None)
}

/// Tells the player (through the bot) that cashback `id` is ready to claim, in the caller's
/// transaction; once per cashback.
pub async fn announce(conn: &mut sqlx::AnyConnection, id: i64) -> Result<(), sqlx::Error> {
    let row: Option<CashbackRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM cashbacks WHERE id = $1")))
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(row) = row else { return Ok(()) };
    let notice = Notice::CashbackReady {
        cashback_id: id,
        amount: row.money(),
        currency: row.currency.clone(),
        title_en: row.description_en.clone(),
        title_fr: row.description_fr.clone(),
        claim_until: row.receiving_expired_at.map(|ms| ms / 1000),
    };
    notify::enqueue(conn, row.user_id, &format!("cashback:{id}:ready"), &notice).await
}

async fn payout(ctx: Ctx, user: AuthUser, input: CashbackInput) -> Result<Cashback, ApiError> {
    crate::features::protection::refuse_if_excluded(&ctx.state, user.id).await?;
    claim(ctx, user, input, Claim::Payout).await
}

async fn remove(ctx: Ctx, user: AuthUser, input: CashbackInput) -> Result<Cashback, ApiError> {
    claim(ctx, user, input, Claim::Remove).await
}

/// The longest description, in characters.
pub const MAX_DESCRIPTION: usize = 1000;

/// `POST /admin/cashbacks` (operator API, bearer `CROUPIER_ADMIN_TOKEN`): promises a player a
/// cashback. `reason` (at most 500 characters) is kept with it for the player's file;
/// `request_id` (1 to 64 of `A-Z a-z 0-9 _ - :`) makes the call idempotent: the same id again
/// answers the cashback it made when the player, amount and currency are the same, and is refused
/// `DUPLICATE` otherwise.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub user_id: i64,
    /// Minor units, more than 0.
    pub amount: i64,
    pub currency: String,
    pub description_en: String,
    pub description_fr: String,
    /// Unix seconds, in the future.
    pub end_date: i64,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub request_id: Option<String>,
}

impl CreateRequest {
    /// Checks every part, then creates the cashback; answers its id.
    pub async fn create(&self, db: &Db) -> Result<i64, ApiError> {
        let mut errors = FieldErrors::default();
        if self.amount <= 0 {
            errors.add_with("amount", FieldCode::MinValue, vec![("min", "1".into())]);
        }
        let currency = Currency::parse(&self.currency);
        if currency.is_none() {
            errors.add("currency", FieldCode::Unsupported);
        }
        for (field, text) in [("description_en", &self.description_en), ("description_fr", &self.description_fr)] {
            if text.trim().is_empty() {
                errors.add(field, FieldCode::Required);
            } else if text.chars().count() > MAX_DESCRIPTION {
                errors.add_with(field, FieldCode::MaxLength, vec![("max", MAX_DESCRIPTION.to_string())]);
            }
        }
        let now = now_ms();
        let end_date = self.end_date.saturating_mul(1000);
        if end_date <= now {
            errors.add("end_date", FieldCode::Date);
        }
        let reason = self.reason.as_deref().map(str::trim).filter(|r| !r.is_empty());
        if reason.is_some_and(|r| r.chars().count() > 500) {
            errors.add_with("reason", FieldCode::MaxLength, vec![("max", "500".into())]);
        }
        let request_id = self.request_id.as_deref().map(str::trim).filter(|r| !r.is_empty());
        if let Some(r) = request_id {
            if r.len() > 64 {
                errors.add_with("request_id", FieldCode::MaxLength, vec![("max", "64".into())]);
            } else if !r.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':')) {
                errors.add("request_id", FieldCode::Invalid);
            }
        }
        errors.into_result()?;
        if let Some(id) = self.earlier(db, request_id).await? {
            return Ok(id);
        }
        let status: Option<String> = sqlx::query_scalar("SELECT status FROM users WHERE id = $1")
            .bind(self.user_id)
            .fetch_optional(db.pool())
            .await?;
        match status.as_deref() {
            None => return Err(field_error("user_id", FieldCode::NotFound)),
            Some(crate::features::games::launch::GUEST) => return Err(field_error("user_id", FieldCode::Invalid)),
            Some(_) => {}
        }
        let currency = currency.map_or("", |c| c.code());
        let inserted: Result<i64, sqlx::Error> = sqlx::query_scalar(
            "INSERT INTO cashbacks (user_id, status, description_en, description_fr, amount, currency, end_date, created_at, reason, request_id) \
             VALUES ($1, 'active', $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(self.user_id)
        .bind(self.description_en.trim())
        .bind(self.description_fr.trim())
        .bind(self.amount)
        .bind(currency)
        .bind(end_date)
        .bind(now)
        .bind(reason)
        .bind(request_id)
        .fetch_one(db.pool())
        .await;
        match inserted {
            Ok(id) => Ok(id),
            // The same request at the same moment: the one that got in answers both.
            Err(e) if crate::db::is_unique_violation(&e) => {
                self.earlier(db, request_id).await?.ok_or_else(|| ApiError::internal(e))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The cashback an earlier call with `request_id` made, when it was this one; `DUPLICATE`
    /// when the id was used for another.
    async fn earlier(&self, db: &Db, request_id: Option<&str>) -> Result<Option<i64>, ApiError> {
        let Some(request_id) = request_id else { return Ok(None) };
        let found: Option<(i64, i64, i64, String)> =
            sqlx::query_as("SELECT id, user_id, amount, currency FROM cashbacks WHERE request_id = $1")
                .bind(request_id)
                .fetch_optional(db.pool())
                .await?;
        match found {
            Some((id, user, amount, currency))
                if (user, amount) == (self.user_id, self.amount)
                    && currency.eq_ignore_ascii_case(self.currency.trim()) =>
            {
                Ok(Some(id))
            }
            Some(_) => Err(field_error("request_id", FieldCode::Duplicate)),
            None => Ok(None),
        }
    }
}

pub async fn admin_create(
    axum::extract::State(state): axum::extract::State<crate::AppState>,
    _: crate::api::Operator,
    body: axum::body::Bytes,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let request: CreateRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(_) => return ApiError::bad_request(Some(("body", FieldCode::Invalid))).into_response(),
    };
    match request.create(state.db()).await {
        Ok(id) => axum::Json(serde_json::json!({ "status": "ok", "data": { "id": id } })).into_response(),
        Err(e) => e.into_response(),
    }
}
