//! The provider wallet protocol of DESIGN.md (after Hub88's operator API):
//! `POST /provider/wallet/{provider}/{balance|bet|win|rollback}` with JSON bodies, signed with
//! `X-Croupier-Signature` = hex HMAC-SHA256(`timestamp + method + path + body`) under the
//! provider's secret and `X-Croupier-Timestamp` within ±30 s.
//!
//! Every bet, win and rollback is one database transaction: the ledger movement (key
//! `wallet:{provider}:{transaction_uuid}`; a merged call's is minted, `wallet#…`, and kept on its
//! record: `batch::ledger_key`), the round's totals and the answer are written together, and a
//! repeated `transaction_uuid` with the same fields gets the first answer again while one with
//! other fields is `RS_ERROR_DUPLICATE_TRANSACTION`. Rollback rules (after
//! Groove): a rollback of an unknown bet answers `RS_ERROR_TRANSACTION_DOES_NOT_EXIST` and moves
//! nothing; rollbacks and wins are accepted with an expired token; a rollback after the
//! round's win is refused. The house games call [`bet`] and [`win`] directly, inside the
//! transaction of their round: the same code an aggregator's calls run.
//!
//! A round belongs to the session that opened it: its player, mode (real or demo) and currency.
//! A call whose session is another's cannot touch it — a bet into it answers `RS_ERROR_UNKNOWN`,
//! a win into it or a rollback of one of its bets `RS_ERROR_TRANSACTION_DOES_NOT_EXIST` (for that
//! session it does not exist) — and moves nothing. Otherwise a provider's mix-up (or a forged
//! round id under a valid signature) would pay one player's win or refund to another, or a demo
//! round's win in real money. It keeps every change of a round on its owner's lane too (their
//! `users` row locked on PostgreSQL).

use crate::AppState;
use crate::db::now_ms;
use crate::features::account::limits;
use crate::features::bonuses::Rules;
use crate::features::bonuses::engine::{self as bonus, BonusError, Payout, Stake};
use crate::features::loyalty;
use crate::features::protection::Exclusion;
use crate::features::tournaments::competition;
use crate::features::winners;
use crate::ledger::{self, Account, Entry, HouseAccount, LedgerError, PlayerAccount, Posting};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use croupier_shared::{Currency, Money};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;
use std::sync::Arc;

/// How far a wallet call's timestamp may be from now, in seconds.
pub const TIMESTAMP_TOLERANCE: i64 = 30;

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct WalletRequest {
    pub request_uuid: String,
    #[serde(default)]
    pub transaction_uuid: String,
    #[serde(default)]
    pub reference_transaction_uuid: Option<String>,
    #[serde(default)]
    pub round: String,
    #[serde(default)]
    pub round_closed: bool,
    #[serde(default)]
    pub user: String,
    pub token: String,
    #[serde(default)]
    pub game_code: String,
    #[serde(default)]
    pub currency: String,
    /// Integer minor units, as aggregators send them.
    #[serde(default)]
    pub amount: i64,
}

impl WalletRequest {
    fn fingerprint(&self, kind: &str) -> String {
        format!(
            "{kind}|{}|{}|{}|{}|{}|{}",
            self.round,
            self.reference_transaction_uuid.as_deref().unwrap_or(""),
            self.user,
            self.game_code,
            self.currency.to_ascii_uppercase(),
            self.amount
        )
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct WalletResponse {
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    pub request_uuid: String,
}

fn answer(status: &str, request: &WalletRequest, balance: Option<(i64, &str)>) -> WalletResponse {
    WalletResponse {
        status: status.to_owned(),
        balance: balance.map(|(b, _)| b),
        currency: balance.map(|(_, c)| c.to_owned()),
        request_uuid: request.request_uuid.clone(),
    }
}

/// A launch session as the wallet sees it. Also read as a JSON array of its fields in this
/// order (the merged wallet calls' one-row read on SQLite, `batch::CALL_READ_SQLITE`).
#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct GameSession {
    pub user_id: i64,
    pub game_id: i64,
    pub sysname: String,
    pub provider: String,
    pub currency: String,
    pub mode: String,
    pub expires_at: i64,
    pub status: String,
    /// The player's time-out or self-exclusion end (unix ms), read with the session.
    pub blocked_until: Option<i64>,
    pub blocked_kind: Option<String>,
    /// 1: the player has loss or wager limits to check.
    pub play_limits: i64,
    /// How many of the player's bonuses are wagering (in the session's read): with none, a real
    /// bet is all main money, its win has no bonus to share with, and nothing can settle — the
    /// wallet then skips those reads.
    pub wagering: i64,
    /// The balance the session plays from (main, or fun in demo mode) as of the read. Inside
    /// the lane's transaction that is the balance until the call moves it (every movement of a
    /// player's money runs on their lane, `db::group`); outside, only a hint.
    pub held: i64,
    /// How many running tournaments and active jackpot pools cover the session's game
    /// (`competition_games`, in the same read): with none, the bet path skips them entirely.
    pub competing: i64,
}

impl GameSession {
    /// The balance a game is told, when the session's read already holds it: in demo mode, or
    /// with no wagering bonus (see [`balance_of`]). Inside the lane's transaction, until the
    /// call moves money.
    pub fn held_balance(&self) -> Option<i64> {
        (self.mode != "real" || self.wagering == 0).then_some(self.held)
    }

    /// The time-out or self-exclusion in force now, if any.
    pub fn exclusion(&self) -> Option<Exclusion> {
        Exclusion::in_force(self.blocked_until, self.blocked_kind.as_deref(), now_ms())
    }
}

pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// [`find_session`]'s query, with `$extra` columns (and a `$tail` after its `WHERE`); the `@` form
/// takes `$extra` columns, `$joins` and its own `$where` (and `$tail`).
macro_rules! session_query {
    ($extra:literal) => {
        session_query!($extra, "")
    };
    ($extra:literal, $tail:literal) => {
        session_query!(@ $extra, "", " WHERE s.token_hash = $1", $tail)
    };
    (@ $extra:expr, $joins:literal, $where:literal) => {
        session_query!(@ $extra, $joins, $where, "")
    };
    (@ $extra:expr, $joins:literal, $where:literal, $tail:literal) => {
        concat!(
            "SELECT s.user_id, s.game_id, g.sysname, g.provider, s.currency, s.mode, s.expires_at, u.status, \
             u.blocked_until, u.blocked_kind, u.play_limits, \
             CAST((SELECT COUNT(*) FROM player_bonuses b WHERE b.user_id = s.user_id AND b.status = 'wagering') AS BIGINT) AS wagering, \
             CAST(COALESCE((SELECT a.balance FROM ledger_accounts a WHERE a.user_id = s.user_id \
               AND a.kind = CASE WHEN s.mode = 'demo' THEN 'fun' ELSE 'main' END AND a.currency = s.currency), 0) AS BIGINT) AS held, \
             CAST((SELECT COUNT(*) FROM competition_games c WHERE c.game_id IN (s.game_id, 0) AND c.ends_at > $2) AS BIGINT) AS competing",
            $extra,
            " FROM game_sessions s JOIN games g ON g.id = s.game_id JOIN users u ON u.id = s.user_id",
            $joins,
            $where,
            $tail
        )
    };
}

/// The session of `token` with its player's state, the count of their wagering bonuses and the
/// balance it plays from: one indexed query.
pub async fn find_session(conn: &mut AnyConnection, token: &str) -> Result<Option<GameSession>, sqlx::Error> {
    sqlx::query_as(session_query!("")).bind(token_hash(token)).bind(now_ms()).fetch_optional(conn).await
}

/// [`find_session`] in a transaction that changes the player's money: on PostgreSQL it also locks
/// the player's `users` row in the same statement (`Db::lock_user`; SQLite's transactions hold
/// the write lock already).
pub async fn find_session_locked(conn: &mut AnyConnection, token: &str) -> Result<Option<GameSession>, sqlx::Error> {
    let sql = if ledger::is_postgres(conn) { session_query!("", " FOR UPDATE OF u") } else { session_query!("") };
    sqlx::query_as(sql).bind(token_hash(token)).bind(now_ms()).fetch_optional(conn).await
}

/// A session read with the earlier call of the same transaction id, if any ([`opened`]).
#[derive(sqlx::FromRow)]
struct SeenSession {
    #[sqlx(flatten)]
    session: GameSession,
    seen_fingerprint: Option<String>,
    seen_response: Option<String>,
    /// The player whose round the earlier call was in.
    seen_user: Option<i64>,
}

/// What a bet's or a win's first statement found.
enum Opened {
    /// The transaction id was seen with the same fields: its first answer.
    Replayed(WalletResponse),
    /// A new call, with its session (checked).
    Fresh(GameSession),
}

/// The replay lookup and the session's read of a bet or a win, in one statement: the first
/// answer for a repeated id (a duplicate when its fields differ), else the session, checked as
/// [`session_for`] checks it. A token that finds no session still gets the replay lookup (on its
/// own, as before the session read), so a replay answers whatever became of its token. A replay
/// is answered only to its own player: an id that another player's call used is a duplicate
/// (its answer holds that player's balance).
async fn opened(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    kind: &str,
    allow_expired: bool,
) -> Result<Opened, WalletError> {
    let row: Option<SeenSession> = sqlx::query_as(session_query!(
        @ ", w.fingerprint AS seen_fingerprint, w.response AS seen_response, wr.user_id AS seen_user",
        " LEFT JOIN wallet_transactions w ON w.provider = $3 AND w.transaction_uuid = $4 \
         LEFT JOIN game_rounds wr ON wr.id = w.round_id",
        " WHERE s.token_hash = $1"
    ))
    .bind(token_hash(&request.token))
    .bind(now_ms())
    .bind(provider)
    .bind(&request.transaction_uuid)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return match replay(conn, provider, request, kind, None).await? {
            Some(first) => Ok(Opened::Replayed(first)),
            None => Err(WalletError::Status("RS_ERROR_INVALID_TOKEN")),
        };
    };
    let seen = row.seen_fingerprint.zip(row.seen_response).map(|(f, r)| (f, r, row.seen_user));
    if let Some(first) = replayed(request, kind, seen, Some(row.session.user_id))? {
        return Ok(Opened::Replayed(first));
    }
    check_session(&row.session, provider, request, allow_expired)?;
    Ok(Opened::Fresh(row.session))
}

/// Responsible gaming before a real-money bet of `amount`: none during a time-out or
/// self-exclusion, and none over a loss or wager limit (read only for players who have one).
async fn play_allowed(
    conn: &mut AnyConnection,
    session: &GameSession,
    currency: Currency,
    amount: i64,
) -> Result<(), WalletError> {
    if let Some(exclusion) = session.exclusion() {
        return Err(WalletError::Excluded(exclusion));
    }
    if session.play_limits != 0 && amount > 0 {
        match limits::enforce_play(conn, session.user_id, currency, amount, now_ms()).await {
            Ok(()) => {}
            Err(limits::PlayLimitRefusal::Reached(reached)) => return Err(WalletError::PlayLimit(reached)),
            Err(limits::PlayLimitRefusal::Db(e)) => return Err(WalletError::Db(e)),
        }
    }
    Ok(())
}

fn player_account(session: &GameSession) -> Account {
    let kind = if session.mode == "demo" { PlayerAccount::Fun } else { PlayerAccount::Main };
    Account::Player { user_id: session.user_id, kind }
}

fn settlement(session: &GameSession) -> Account {
    Account::House(if session.mode == "demo" { HouseAccount::FunSupply } else { HouseAccount::GameSettlement })
}

fn currency_of(session: &GameSession) -> Result<Currency, WalletError> {
    Currency::parse(&session.currency).ok_or(WalletError::Status("RS_ERROR_WRONG_CURRENCY"))
}

/// The balance a game is told: in real mode, main plus the bonus money spendable in this game
/// (`features::bonuses`); in demo mode, the fun balance.
pub async fn balance_of(
    conn: &mut AnyConnection,
    session: &GameSession,
    rules: &Rules,
) -> Result<(i64, Currency), WalletError> {
    let currency = currency_of(session)?;
    if session.mode == "real" && session.wagering > 0 {
        let (main, bonus) = bonus::spendable(conn, rules, session.user_id, currency, &session.sysname).await?;
        return Ok((main + bonus, currency));
    }
    Ok((ledger::balance(conn, player_account(session), currency).await?, currency))
}

#[derive(Debug)]
pub enum WalletError {
    /// An `RS_ERROR_*` answer.
    Status(&'static str),
    /// The bet is over a wagering bonus's maximum bet (minor units): `RS_ERROR_LIMIT_REACHED`.
    MaxBet(i64),
    /// A real-money bet while a time-out or self-exclusion is in force: `RS_ERROR_USER_DISABLED`.
    Excluded(Exclusion),
    /// A real-money bet over a loss or wager limit: `RS_ERROR_LIMIT_REACHED`.
    PlayLimit(limits::PlayLimitReached),
    Db(sqlx::Error),
}

impl WalletError {
    /// The `RS_ERROR_*` status of a refusal.
    pub fn status(&self) -> &'static str {
        match self {
            WalletError::Status(s) => s,
            WalletError::MaxBet(_) | WalletError::PlayLimit(_) => "RS_ERROR_LIMIT_REACHED",
            WalletError::Excluded(_) => "RS_ERROR_USER_DISABLED",
            WalletError::Db(_) => "RS_ERROR_UNKNOWN",
        }
    }
}

impl std::fmt::Display for WalletError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WalletError::Db(e) => write!(f, "database: {e}"),
            refused => f.write_str(refused.status()),
        }
    }
}

impl From<BonusError> for WalletError {
    fn from(e: BonusError) -> WalletError {
        match e {
            BonusError::MaxBet(max) => WalletError::MaxBet(max),
            BonusError::InsufficientFunds => WalletError::Status("RS_ERROR_NOT_ENOUGH_MONEY"),
            BonusError::Db(e) => WalletError::Db(e),
            other => {
                tracing::error!(error = %other, "a bonus refused a wallet call");
                WalletError::Status("RS_ERROR_UNKNOWN")
            }
        }
    }
}

/// A ledger refusal other than a lack of money is a protocol error; the bet maps that one itself.
impl From<LedgerError> for WalletError {
    fn from(e: LedgerError) -> WalletError {
        match e {
            LedgerError::Db(e) => WalletError::Db(e),
            _ => WalletError::Status("RS_ERROR_UNKNOWN"),
        }
    }
}

impl From<sqlx::Error> for WalletError {
    fn from(e: sqlx::Error) -> WalletError {
        WalletError::Db(e)
    }
}

/// Resolves the token: unknown → INVALID_TOKEN; expired → TOKEN_EXPIRED unless `allow_expired`;
/// a blocked player → USER_DISABLED; another provider's token → INVALID_TOKEN.
async fn session_for(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    allow_expired: bool,
) -> Result<GameSession, WalletError> {
    let session = find_session(conn, &request.token).await?.ok_or(WalletError::Status("RS_ERROR_INVALID_TOKEN"))?;
    check_session(&session, provider, request, allow_expired)?;
    Ok(session)
}

/// What [`session_for`] checks of a session read.
fn check_session(
    session: &GameSession,
    provider: &str,
    request: &WalletRequest,
    allow_expired: bool,
) -> Result<(), WalletError> {
    if session.provider != provider {
        return Err(WalletError::Status("RS_ERROR_INVALID_TOKEN"));
    }
    if !allow_expired && session.expires_at < now_ms() {
        return Err(WalletError::Status("RS_ERROR_TOKEN_EXPIRED"));
    }
    // Guests exist for demo play only.
    if session.status != "active" && !(session.status == super::launch::GUEST && session.mode == "demo") {
        return Err(WalletError::Status("RS_ERROR_USER_DISABLED"));
    }
    if !request.currency.is_empty() && !request.currency.eq_ignore_ascii_case(&session.currency) {
        return Err(WalletError::Status("RS_ERROR_WRONG_CURRENCY"));
    }
    // The player the provider names (`user`, the launch URL's `{user}`: the player's id) must be
    // the token's: a provider's mix-up of two players' tokens must not move the wrong player's
    // money. Empty: the provider does not send it (the token alone names the player).
    // It is compared with the id written as the launch URL writes it, so only that text names it
    // (no sign, leading zero or space).
    if !request.user.is_empty() && request.user != session.user_id.to_string() {
        return Err(WalletError::Status("RS_ERROR_INVALID_TOKEN"));
    }
    Ok(())
}

/// The first answer for a repeated id, or a duplicate ([`replayed`]).
async fn replay(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    kind: &str,
    caller: Option<i64>,
) -> Result<Option<WalletResponse>, WalletError> {
    let row: Option<(String, String, Option<i64>)> = sqlx::query_as(
        "SELECT w.fingerprint, w.response, r.user_id FROM wallet_transactions w LEFT JOIN game_rounds r ON r.id = w.round_id \
         WHERE w.provider = $1 AND w.transaction_uuid = $2",
    )
    .bind(provider)
    .bind(&request.transaction_uuid)
    .fetch_optional(&mut *conn)
    .await?;
    replayed(request, kind, row, caller)
}

/// The earlier call of a transaction id: its fingerprint, its answer and the player whose round
/// it was in.
type Earlier = (String, String, Option<i64>);

/// [`replay`]'s answer from the earlier call, if there was one: its first answer, or
/// `RS_ERROR_DUPLICATE_TRANSACTION` when its fields differ or when `caller` (the player of the
/// call's session, when it has one) is another player than the earlier call's — a replay is
/// answered to its own player only, as its answer holds their balance.
fn replayed(
    request: &WalletRequest,
    kind: &str,
    earlier: Option<Earlier>,
    caller: Option<i64>,
) -> Result<Option<WalletResponse>, WalletError> {
    match earlier {
        None => Ok(None),
        Some((fingerprint, _, player))
            if fingerprint != request.fingerprint(kind) || player.zip(caller).is_some_and(|(p, c)| p != c) =>
        {
            Err(WalletError::Status("RS_ERROR_DUPLICATE_TRANSACTION"))
        }
        Some((_, response, _)) => {
            let mut first: WalletResponse =
                serde_json::from_str(&response).map_err(|e| WalletError::Db(sqlx::Error::Decode(e.into())))?;
            first.request_uuid = request.request_uuid.clone();
            Ok(Some(first))
        }
    }
}

/// Opens the bet's round or adds the bet to it, in one statement: the round's id and status
/// before this bet (a refused bet's change goes with its rolled-back batch, `db::group`). A round
/// of another session's player, mode or currency is not touched: `RS_ERROR_UNKNOWN`.
async fn open_round(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    session: &GameSession,
) -> Result<(i64, String), WalletError> {
    let opened: Option<(i64, String)> = sqlx::query_as(
        "INSERT INTO game_rounds (provider, round, user_id, game_id, currency, mode, bet, win, status, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 'open', $8) \
         ON CONFLICT (provider, round) DO UPDATE SET bet = game_rounds.bet + excluded.bet \
         WHERE game_rounds.user_id = excluded.user_id AND game_rounds.mode = excluded.mode \
         AND game_rounds.currency = excluded.currency RETURNING id, status",
    )
    .bind(provider)
    .bind(&request.round)
    .bind(session.user_id)
    .bind(session.game_id)
    .bind(&session.currency)
    .bind(&session.mode)
    .bind(request.amount)
    .bind(now_ms())
    .fetch_optional(&mut *conn)
    .await?;
    opened.ok_or(WalletError::Status("RS_ERROR_UNKNOWN"))
}

#[allow(clippy::too_many_arguments)]
async fn record(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    kind: &str,
    round_id: i64,
    response: &WalletResponse,
    wagered: Option<(i64, i64)>,
    points: i64,
) -> Result<(), WalletError> {
    sqlx::query(
        "INSERT INTO wallet_transactions (provider, transaction_uuid, kind, round_id, reference_uuid, amount, fingerprint, response, created_at, bonus_id, bonus_wagered, points) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(provider)
    .bind(&request.transaction_uuid)
    .bind(kind)
    .bind(round_id)
    .bind(&request.reference_transaction_uuid)
    .bind(request.amount)
    .bind(request.fingerprint(kind))
    .bind(serde_json::to_string(response).unwrap_or_default())
    .bind(now_ms())
    .bind(wagered.map(|w| w.0))
    .bind(wagered.map_or(0, |w| w.1))
    .bind(points)
    .execute(conn)
    .await?;
    Ok(())
}

async fn close_if(conn: &mut AnyConnection, round_id: i64, closed: bool) -> Result<(), sqlx::Error> {
    if closed {
        sqlx::query("UPDATE game_rounds SET status = 'closed', closed_at = $1 WHERE id = $2")
            .bind(now_ms())
            .bind(round_id)
            .execute(conn)
            .await?;
    }
    Ok(())
}

fn move_money<'a>(key: &'a str, kind: &'a str, session: &GameSession, amount: Money, to_player: bool) -> Entry<'a> {
    let (from, to) = if to_player {
        (settlement(session), player_account(session))
    } else {
        (player_account(session), settlement(session))
    };
    Entry::transfer(key, kind, amount.currency(), from, to, amount.minor()).by(Some(session.user_id))
}

/// Takes a bet. Answers the balance after it, or `RS_ERROR_NOT_ENOUGH_MONEY` with the balance.
/// A real-money bet is paid from main first, then from wagering bonuses, and counts towards
/// wagering (`features::bonuses`); over a wagering bonus's maximum bet it is refused.
pub async fn bet(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    rules: &Rules,
) -> Result<WalletResponse, WalletError> {
    match opened(conn, provider, request, "bet", false).await? {
        Opened::Replayed(first) => Ok(first),
        Opened::Fresh(session) => Ok(bet_in(conn, provider, request, &session, rules).await?.response),
    }
}

/// A bet taken by [`bet_in`]: the answer and the round's id.
#[derive(Debug)]
pub struct Placed {
    pub response: WalletResponse,
    pub round_id: i64,
    /// The balance after the bet when the session's read held it ([`GameSession::held_balance`]):
    /// the bet was then all from that balance, and the answer's balance is exactly this.
    pub held_after: Option<i64>,
    /// A jackpot this bet won (paid to the main balance in the same transaction), minor units.
    pub jackpot: i64,
}

/// [`bet`] for a call whose transaction id cannot have been seen (a house round's new id) and
/// whose session was read in this transaction: no replay lookup, no second session read. The
/// session's checks are the same.
pub async fn bet_in(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    session: &GameSession,
    rules: &Rules,
) -> Result<Placed, WalletError> {
    check_session(session, provider, request, false)?;
    if request.amount < 0 || request.transaction_uuid.is_empty() || request.round.is_empty() {
        return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
    }
    let currency = currency_of(session)?;
    let real = session.mode == "real";
    if real {
        play_allowed(conn, session, currency, request.amount).await?;
    }
    let (round_id, status) = open_round(conn, provider, request, session).await?;
    if status != "open" {
        return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
    }
    let mut planned = None;
    let mut points = 0;
    let mut jackpot = 0;
    if request.amount > 0 {
        let key = format!("wallet:{provider}:{}", request.transaction_uuid);
        let stake = if real && session.wagering > 0 {
            bonus::plan_stake(conn, rules, session.user_id, currency, &session.sysname, request.amount).await?
        } else {
            Stake::all_main(request.amount)
        };
        let entry = if real {
            let mut postings = stake.postings(session.user_id);
            postings.push(Posting { account: settlement(session), amount: request.amount });
            Entry { key: &key, kind: "bet", user_id: Some(session.user_id), reference: None, currency, postings }
        } else {
            move_money(&key, "bet", session, Money::from_minor(request.amount, currency), false)
        };
        match ledger::post(conn, &entry).await {
            Ok(_) => {}
            Err(LedgerError::InsufficientFunds) => return Err(WalletError::Status("RS_ERROR_NOT_ENOUGH_MONEY")),
            Err(LedgerError::Db(e)) => return Err(WalletError::Db(e)),
            Err(_) => return Err(WalletError::Status("RS_ERROR_UNKNOWN")),
        }
        if !stake.from_bonuses.is_empty() || stake.wagered.is_some() {
            bonus::record_stake(conn, provider, &request.transaction_uuid, round_id, &stake).await?;
        }
        if real {
            // Only the part paid with real money earns loyalty points.
            points = loyalty::accrue(conn, rules, session.user_id, session.game_id, currency, stake.main).await?;
            if session.competing > 0 {
                let bet = competition::Bet { key: &key, round_id, amount: request.amount, real_part: stake.main };
                jackpot = competition::on_bet(conn, session, currency, &bet).await?;
            }
        }
        planned = Some(stake);
    }
    let stake = planned;
    close_if(conn, round_id, request.round_closed).await?;
    // In demo mode, or with no wagering bonus, the balance is what the session read less the
    // bet: every movement of the player's money runs on their lane, so nothing else moved it in
    // this transaction.
    // A jackpot the bet won went to main in this transaction.
    let held_after = session.held_balance().map(|held| held - request.amount + jackpot);
    let balance = if real && request.round_closed && session.wagering > 0 {
        bonus::settle(conn, session.user_id).await?;
        balance_of(conn, session, rules).await?.0
    } else if let Some(held) = held_after {
        held
    } else if let Some(stake) = &stake {
        // What planning read, less what the bet took (nothing else moved in this transaction).
        let main = match stake.main_after {
            Some(main) => main,
            None => ledger::balance(conn, Account::main(session.user_id), currency).await?,
        };
        main + stake.bonus_after + jackpot
    } else {
        balance_of(conn, session, rules).await?.0
    };
    let response = answer("RS_OK", request, Some((balance, currency.code())));
    record(conn, provider, request, "bet", round_id, &response, stake.as_ref().and_then(|s| s.wagered), points).await?;
    Ok(Placed { response, round_id, held_after, jackpot })
}

/// Where a win is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WinTo {
    /// The account the session plays from: main, or fun in demo mode.
    Session,
    /// The bonus balance, as the money of this bonus (the wins of a bonus's free-spin pack).
    Bonus(i64),
}

/// Pays a win into the round of its bet (accepted with an expired token).
/// In real mode the win is split like the round's stakes between main and the bonuses that paid
/// them, and the player's bonuses that have met their target then complete.
pub async fn win(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    rules: &Rules,
) -> Result<WalletResponse, WalletError> {
    win_to(conn, provider, request, WinTo::Session, rules).await
}

/// [`win`], paid into `to`. The answer's balance is the session's, as for every call.
pub async fn win_to(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    to: WinTo,
    rules: &Rules,
) -> Result<WalletResponse, WalletError> {
    match opened(conn, provider, request, "win", true).await? {
        Opened::Replayed(first) => Ok(first),
        Opened::Fresh(session) => win_in(conn, provider, request, &session, to, None, rules).await,
    }
}

/// [`win_to`] for a call whose transaction id cannot have been seen and whose session was read
/// in this transaction; `placed` is the round's bet when it was taken in this transaction too
/// (a house round): a bet all from the held balance leaves the win nobody to share with, and its
/// balance plus the win is the answer.
pub async fn win_in(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    session: &GameSession,
    to: WinTo,
    placed: Option<&Placed>,
    rules: &Rules,
) -> Result<WalletResponse, WalletError> {
    check_session(session, provider, request, true)?;
    if request.amount < 0 || request.transaction_uuid.is_empty() {
        return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
    }
    // The round's totals first (nothing below reads its win): an unknown round, or another
    // session's (module docs), writes nothing.
    // It answers too how many bonus stakes the round holds: with none, the win is all main.
    let closed = i64::from(request.round_closed);
    let round: Option<(i64, i64, i64, i64)> = sqlx::query_as(
        "UPDATE game_rounds SET win = win + $1, status = CASE WHEN $2 = 1 THEN 'closed' ELSE status END, \
         closed_at = CASE WHEN $2 = 1 THEN $3 ELSE closed_at END WHERE provider = $4 AND round = $5 \
         AND user_id = $6 AND mode = $7 AND currency = $8 RETURNING id, bet, win, \
         CAST((SELECT COUNT(*) FROM bonus_stakes s WHERE s.round_id = game_rounds.id AND s.provider = $4 \
           AND s.rolled_back = 0 AND s.staked > 0) AS BIGINT)",
    )
    .bind(request.amount)
    .bind(closed)
    .bind(now_ms())
    .bind(provider)
    .bind(&request.round)
    .bind(session.user_id)
    .bind(&session.mode)
    .bind(&session.currency)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((round_id, round_bet, round_win, bonus_stakes)) = round else {
        return Err(WalletError::Status("RS_ERROR_TRANSACTION_DOES_NOT_EXIST"));
    };
    let currency = currency_of(session)?;
    let real = session.mode == "real";
    // A bet of this transaction paid all from main (or fun), or a round no bonus staked: the win
    // has nobody to share with.
    let held_after = placed.and_then(|p| p.held_after).filter(|_| to == WinTo::Session);
    // What the win adds to the balance the session plays from.
    let mut credited = 0;
    if request.amount > 0 {
        let key = format!("wallet:{provider}:{}", request.transaction_uuid);
        let payout = match (to, real) {
            (WinTo::Bonus(bonus_id), true) => Some(bonus::plan_pack_win(conn, bonus_id, request.amount).await?),
            (WinTo::Session, true) if held_after.is_some() || bonus_stakes == 0 => {
                Some(Payout { main: request.amount, ..Payout::default() })
            }
            (WinTo::Session, true) => Some(bonus::plan_win(conn, provider, round_id, request.amount).await?),
            (_, false) => None,
        };
        let entry = match &payout {
            Some(payout) => {
                let postings = payout.postings(session.user_id, settlement(session), request.amount);
                let kind = if matches!(to, WinTo::Bonus(_)) { "freespin_win" } else { "win" };
                Entry { key: &key, kind, user_id: Some(session.user_id), reference: None, currency, postings }
            }
            None => move_money(&key, "win", session, Money::from_minor(request.amount, currency), true),
        };
        ledger::post(conn, &entry).await.map_err(WalletError::from)?;
        if let Some(payout) = &payout {
            bonus::record_payout(conn, payout, matches!(to, WinTo::Bonus(_))).await?;
        }
        credited = payout.as_ref().map_or(request.amount, |p| p.main);
        if real {
            let won = competition::Win { key: &key, round_id, amount: request.amount, round_bet, round_win };
            if session.competing > 0 {
                competition::on_win(conn, session, currency, &won).await?;
            }
            winners::on_win(conn, session, currency, &won, rules.big_win).await?;
        }
    }
    if real && (session.wagering > 0 || to != WinTo::Session) {
        bonus::settle(conn, session.user_id).await?;
    }
    // The balance before the win, when known: the bet's of this transaction, or the session's
    // read (demo, or no wagering bonus), which is the balance until this win moves it (every
    // movement of the player's money runs on their lane).
    let before = match placed {
        Some(placed) => placed.held_after,
        None => session.held_balance(),
    };
    let balance = match before.filter(|_| to == WinTo::Session) {
        Some(held) => held + credited,
        None => balance_of(conn, session, rules).await?.0,
    };
    let response = answer("RS_OK", request, Some((balance, currency.code())));
    record(conn, provider, request, "win", round_id, &response, None, 0).await?;
    Ok(response)
}

/// A house round's draw, recorded with the round by [`house_round_in`].
#[derive(Debug)]
pub struct Drawn<'a> {
    pub seed_id: i64,
    pub nonce: i64,
    /// The round's parameters and outcome as JSON text (`house_rounds`).
    pub params: &'a str,
    pub outcome: &'a str,
}

/// A whole house round whose bet and win are known together (a one-step round: its ids are new
/// and its session was read in this transaction), in four statements instead of [`bet_in`]'s and
/// [`win_in`]'s nine: both movements in one [`ledger::post_many`] call (the bet checked for funds
/// first; a refused bet fails the call, and its batch's rollback takes the win back with it), the
/// loyalty points of a real bet, and the round, its draw, both wallet records and the seed's nonce
/// in one [`record_house_rounds`]. Only for a round whose balance the session's read holds (demo,
/// or no wagering bonus: [`GameSession::held_balance`]) and, in real money, covered by no
/// tournament or jackpot: `None` otherwise, and the caller runs [`bet_in`] and [`win_in`]; else
/// the balance after the win. The same checks as theirs (session, exclusion, play limits) and the same rows, answers and ledger
/// entries. Most such rounds are merged with their neighbours on the lane instead
/// (`house::batch`); this one is for the rounds that cannot be (a player with play limits, or
/// whose seed pair is made by this round).
pub async fn house_round_in(
    conn: &mut AnyConnection,
    bet: &WalletRequest,
    win: &WalletRequest,
    session: &GameSession,
    rules: &Rules,
    drawn: &Drawn<'_>,
) -> Result<Option<i64>, WalletError> {
    let real = session.mode == "real";
    let Some(held) = session.held_balance() else { return Ok(None) };
    if real && session.competing > 0 {
        return Ok(None);
    }
    check_house_bet(session, bet)?;
    check_house_win(bet, win)?;
    let currency = currency_of(session)?;
    if real {
        play_allowed(conn, session, currency, bet.amount).await?;
    }
    let (bet_key, win_key) =
        (format!("wallet:house:{}", bet.transaction_uuid), format!("wallet:house:{}", win.transaction_uuid));
    let entries = round_entries(session, currency, &bet_key, bet.amount, &win_key, win.amount);
    for (i, posted) in ledger::post_many(conn, &entries).await?.into_iter().enumerate() {
        match posted {
            Ok(_) => {}
            Err(LedgerError::InsufficientFunds) if i == 0 && bet.amount > 0 => {
                return Err(WalletError::Status("RS_ERROR_NOT_ENOUGH_MONEY"));
            }
            Err(e) => return Err(WalletError::from(e)),
        }
    }
    // Only the part paid with real money earns loyalty points: all of it here.
    let points = if real {
        loyalty::accrue(conn, rules, session.user_id, session.game_id, currency, bet.amount).await?
    } else {
        0
    };
    // Every movement of the player's money runs on their lane: the balance is the session's read
    // less the bet, plus the win.
    let after_bet = held - bet.amount;
    let after_win = after_bet + win.amount;
    let row = HouseRoundRow::new(
        session,
        bet,
        win,
        (after_bet, after_win),
        (points, None),
        now_ms(),
        (drawn.seed_id, drawn.nonce),
        (drawn.params.to_owned(), drawn.outcome.to_owned()),
    );
    record_house_rounds(conn, &[&row]).await?;
    if real && winners::is_big(bet.amount, win.amount, rules.big_win) {
        let round_id = house_round_id(conn, &bet.round).await?;
        let won = competition::Win {
            key: &win_key,
            round_id,
            amount: win.amount,
            round_bet: bet.amount,
            round_win: win.amount,
        };
        winners::on_win(conn, session, currency, &won, rules.big_win).await?;
    }
    Ok(Some(after_win))
}

/// [`house_round_in`]'s and the merged path's (`house::batch`) checks of a house round's bet
/// against the session read in the lane's transaction; its win is checked with
/// [`check_house_win`] once the draw has made it.
pub fn check_house_bet(session: &GameSession, bet: &WalletRequest) -> Result<(), WalletError> {
    check_session(session, "house", bet, false)?;
    if bet.amount < 0 || bet.transaction_uuid.is_empty() || bet.round.is_empty() {
        return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
    }
    Ok(())
}

/// The win's half of a house round's checks: a payment of the same round.
pub fn check_house_win(bet: &WalletRequest, win: &WalletRequest) -> Result<(), WalletError> {
    if win.amount < 0 || win.transaction_uuid.is_empty() || bet.round != win.round {
        return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
    }
    Ok(())
}

/// A house round's bet and win as ledger movements, built as [`bet_in`] and [`win_in`] build them
/// for a round whose balance the session's read holds: all main (or fun in demo mode). A zero
/// amount moves nothing.
pub fn round_entries<'a>(
    session: &GameSession,
    currency: Currency,
    bet_key: &'a str,
    bet: i64,
    win_key: &'a str,
    win: i64,
) -> Vec<Entry<'a>> {
    let mut entries = Vec::with_capacity(2);
    entries.extend(bet_entry(session, currency, bet_key, bet));
    entries.extend(win_entry(session, currency, win_key, win));
    entries
}

/// The SQL expression of the ledger key of the movement that the wallet record `record` (an alias
/// of `wallet_transactions`) made: the key kept on it (a merged call's, `batch::ledger_key`), else
/// `wallet:{provider}:{transaction id}`. Equated to `ledger_transactions.idempotency_key`, it
/// finds the record's movement by the key's unique index (a call that moved no money has none).
pub fn movement_key(record: &str) -> String {
    format!("COALESCE({record}.ledger_key, 'wallet:' || {record}.provider || ':' || {record}.transaction_uuid)")
}

/// A bet of `amount` all from the balance the session plays from (main, or fun in demo mode), as
/// [`bet_in`] posts it for a session with no wagering bonus; none for a zero bet.
fn bet_entry<'a>(session: &GameSession, currency: Currency, key: &'a str, amount: i64) -> Option<Entry<'a>> {
    (amount > 0).then(|| {
        if session.mode == "real" {
            let mut postings = Stake::all_main(amount).postings(session.user_id);
            postings.push(Posting { account: settlement(session), amount });
            Entry { key, kind: "bet", user_id: Some(session.user_id), reference: None, currency, postings }
        } else {
            move_money(key, "bet", session, Money::from_minor(amount, currency), false)
        }
    })
}

/// A win of `amount` all to the balance the session plays from, as [`win_in`] posts it for a
/// round no bonus staked; none for a zero win.
fn win_entry<'a>(session: &GameSession, currency: Currency, key: &'a str, amount: i64) -> Option<Entry<'a>> {
    (amount > 0).then(|| {
        if session.mode == "real" {
            let postings =
                Payout { main: amount, ..Payout::default() }.postings(session.user_id, settlement(session), amount);
            Entry { key, kind: "win", user_id: Some(session.user_id), reference: None, currency, postings }
        } else {
            move_money(key, "win", session, Money::from_minor(amount, currency), true)
        }
    })
}

/// A whole house round's rows — the round, its draw, its two wallet records and its seed's
/// nonce — as one element of [`record_house_rounds`]'s JSON array.
#[derive(Debug)]
pub struct HouseRoundRow {
    /// The round's id (`game_rounds.round`).
    pub round: String,
    /// The seed pair's id and the round's nonce.
    seed: (i64, i64),
    value: serde_json::Value,
}

impl HouseRoundRow {
    /// `balances`: after the bet and after the win; `earned`: the bet's loyalty points and the
    /// wagering it counted towards a bonus ([`Stake::wagered`]); `draw`: the seed pair's id and
    /// the round's nonce; `texts`: the round's parameters and outcome as JSON text.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        session: &GameSession,
        bet: &WalletRequest,
        win: &WalletRequest,
        balances: (i64, i64),
        earned: (i64, Option<(i64, i64)>),
        now: i64,
        draw: (i64, i64),
        texts: (String, String),
    ) -> HouseRoundRow {
        let (points, wagered) = earned;
        let code = session.currency.as_str();
        let bet_answer = answer("RS_OK", bet, Some((balances.0, code)));
        let win_answer = answer("RS_OK", win, Some((balances.1, code)));
        let value = serde_json::json!([
            bet.round,
            session.user_id,
            session.game_id,
            session.currency,
            session.mode,
            bet.amount,
            win.amount,
            now,
            draw.0,
            draw.1,
            texts.0,
            texts.1,
            bet.transaction_uuid,
            bet.fingerprint("bet"),
            serde_json::to_string(&bet_answer).unwrap_or_default(),
            points,
            win.transaction_uuid,
            win.reference_transaction_uuid,
            win.fingerprint("win"),
            serde_json::to_string(&win_answer).unwrap_or_default(),
            wagered.map(|w| w.0),
            wagered.map_or(0, |w| w.1),
        ]);
        HouseRoundRow { round: bet.round.clone(), seed: draw, value }
    }
}

/// Writes whole house rounds (closed, their bet and win already posted): the rounds, their draws,
/// both wallet records of each and the seed pairs' nonces, from one JSON array — one batch of
/// statements on SQLite (one hop to the driver's thread), one statement of data-modifying CTEs on
/// PostgreSQL; the same text whatever the number of rounds, so the prepared statements are reused.
pub async fn record_house_rounds(conn: &mut AnyConnection, rows: &[&HouseRoundRow]) -> Result<(), sqlx::Error> {
    if rows.is_empty() {
        return Ok(());
    }
    let [json, seeds] = house_round_lists(rows);
    let sql = if ledger::is_postgres(conn) { HOUSE_ROUNDS_POSTGRES } else { HOUSE_ROUNDS_SQLITE };
    sqlx::query(sql).bind(json).bind(seeds).execute(conn).await?;
    Ok(())
}

/// [`HOUSE_ROUNDS_SQLITE`] after the ledger's post, as one ([`ledger::post_fresh_sqlite_then`]).
static POST_AND_HOUSE_ROUNDS_SQLITE: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| ledger::post_fresh_sqlite_then(HOUSE_ROUNDS_SQLITE));

/// [`record_house_rounds`]'s statements for `lists` ([`house_round_lists`]) as the rest of a
/// [`ledger::post_fresh_then`]: how the merged house rounds write with their money.
pub fn house_rounds_then(lists: &[String; 2]) -> ledger::Then<'_> {
    ledger::Then {
        sqlite_with_post: POST_AND_HOUSE_ROUNDS_SQLITE.as_str(),
        sqlite: HOUSE_ROUNDS_SQLITE,
        postgres: HOUSE_ROUNDS_POSTGRES,
        values: lists,
    }
}

/// [`record_house_rounds`]'s two lists: the rounds, and each seed pair's nonce after its last
/// round here.
pub fn house_round_lists(rows: &[&HouseRoundRow]) -> [String; 2] {
    let json = serde_json::Value::Array(rows.iter().map(|r| r.value.clone()).collect()).to_string();
    // Each seed pair's nonce after its last round here (a player may have several).
    let mut seeds: Vec<[i64; 2]> = Vec::new();
    for row in rows {
        match seeds.iter_mut().find(|s| s[0] == row.seed.0) {
            Some(seed) => seed[1] = seed[1].max(row.seed.1),
            None => seeds.push([row.seed.0, row.seed.1]),
        }
    }
    [json, serde_json::to_string(&seeds).unwrap_or_default()]
}

/// The row id of house round `round` (for the rare round that needs it: a big win's listing).
pub async fn house_round_id(conn: &mut AnyConnection, round: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM game_rounds WHERE provider = 'house' AND round = $1")
        .bind(round)
        .fetch_one(conn)
        .await
}

/// [`record_house_rounds`] on SQLite: `$1` the rounds, parsed once per statement into SQLite's
/// binary JSON (`jsonb_each`, so reading a field does not parse the round's text again), `$2` the
/// seed pairs' last nonces; each round's row id by a scalar lookup (as a join, SQLite's planner
/// would scan every house round for each batch). Element `i` of each round is `$[i]`: 0 round, 1 player,
/// 2 game, 3 currency, 4 mode, 5 bet, 6 win, 7 time, 8 seed pair, 9 nonce, 10 parameters,
/// 11 outcome, 12–15 the bet's record (transaction id, fingerprint, answer, loyalty points),
/// 16–19 the win's (transaction id, the bet's id, fingerprint, answer), 20–21 the bonus the bet's
/// wagering counted towards (null: none) and how much.
const HOUSE_ROUNDS_SQLITE: &str = "INSERT INTO game_rounds (provider, round, user_id, game_id, currency, mode, bet, win, status, created_at, closed_at) \
     SELECT 'house', value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, 'closed', value ->> 7, value ->> 7 \
     FROM jsonb_each(jsonb($1));\n\
     INSERT INTO house_rounds (round_id, seed_id, nonce, params, outcome) \
     SELECT (SELECT r.id FROM game_rounds r WHERE r.provider = 'house' AND r.round = j.value ->> 0), \
     j.value ->> 8, j.value ->> 9, j.value ->> 10, j.value ->> 11 FROM jsonb_each(jsonb($1)) j;\n\
     INSERT INTO wallet_transactions (provider, transaction_uuid, kind, round_id, reference_uuid, amount, fingerprint, response, created_at, bonus_id, bonus_wagered, points) \
     SELECT 'house', j.value ->> 12, 'bet', (SELECT r.id FROM game_rounds r WHERE r.provider = 'house' AND r.round = j.value ->> 0), \
     NULL, j.value ->> 5, j.value ->> 13, j.value ->> 14, j.value ->> 7, j.value ->> 20, j.value ->> 21, j.value ->> 15 FROM jsonb_each(jsonb($1)) j \
     UNION ALL SELECT 'house', j.value ->> 16, 'win', (SELECT r.id FROM game_rounds r WHERE r.provider = 'house' AND r.round = j.value ->> 0), \
     j.value ->> 17, j.value ->> 6, j.value ->> 18, j.value ->> 19, j.value ->> 7, NULL, 0, 0 FROM jsonb_each(jsonb($1)) j;\n\
     UPDATE fairness_seeds SET nonce = x.nonce FROM (SELECT value ->> 0 AS id, value ->> 1 AS nonce FROM json_each($2)) x \
     WHERE fairness_seeds.id = x.id";

/// The same on PostgreSQL (the foreign keys are checked at the statement's end).
const HOUSE_ROUNDS_POSTGRES: &str = "WITH j AS (SELECT value AS v FROM jsonb_array_elements(CAST($1 AS JSONB))), \
     r AS (INSERT INTO game_rounds (provider, round, user_id, game_id, currency, mode, bet, win, status, created_at, closed_at) \
     SELECT 'house', v ->> 0, CAST(v ->> 1 AS BIGINT), CAST(v ->> 2 AS BIGINT), v ->> 3, v ->> 4, CAST(v ->> 5 AS BIGINT), \
     CAST(v ->> 6 AS BIGINT), 'closed', CAST(v ->> 7 AS BIGINT), CAST(v ->> 7 AS BIGINT) FROM j RETURNING id, round), \
     h AS (INSERT INTO house_rounds (round_id, seed_id, nonce, params, outcome) \
     SELECT r.id, CAST(v ->> 8 AS BIGINT), CAST(v ->> 9 AS BIGINT), v ->> 10, v ->> 11 FROM j JOIN r ON r.round = j.v ->> 0), \
     w AS (INSERT INTO wallet_transactions (provider, transaction_uuid, kind, round_id, reference_uuid, amount, fingerprint, response, created_at, bonus_id, bonus_wagered, points) \
     SELECT 'house', v ->> 12, 'bet', r.id, CAST(NULL AS TEXT), CAST(v ->> 5 AS BIGINT), v ->> 13, v ->> 14, CAST(v ->> 7 AS BIGINT), CAST(v ->> 20 AS BIGINT), CAST(v ->> 21 AS BIGINT), CAST(v ->> 15 AS BIGINT) \
     FROM j JOIN r ON r.round = j.v ->> 0 \
     UNION ALL SELECT 'house', v ->> 16, 'win', r.id, v ->> 17, CAST(v ->> 6 AS BIGINT), v ->> 18, v ->> 19, CAST(v ->> 7 AS BIGINT), CAST(NULL AS BIGINT), 0, 0 \
     FROM j JOIN r ON r.round = j.v ->> 0), \
     s AS (UPDATE fairness_seeds f SET nonce = CAST(x.value ->> 1 AS BIGINT) FROM jsonb_array_elements(CAST($2 AS JSONB)) x \
     WHERE f.id = CAST(x.value ->> 0 AS BIGINT) RETURNING f.id) \
     SELECT CAST(COUNT(*) AS BIGINT) FROM r";

/// A session read for the merged house rounds (`house::batch`), with its player's active seed
/// pair and the loyalty terms of its game (on SQLite read as the JSON array `[[session…],
/// token_hash, seed_id, server_seed, server_seed_hash, client_seed, nonce, [loyalty…]]`,
/// [`read_house_rounds`]).
#[derive(sqlx::FromRow, Deserialize)]
pub struct HouseRead {
    #[sqlx(flatten)]
    pub session: GameSession,
    pub token_hash: String,
    pub seed_id: Option<i64>,
    pub server_seed: Option<String>,
    pub server_seed_hash: Option<String>,
    pub client_seed: Option<String>,
    pub nonce: Option<i64>,
    #[sqlx(flatten)]
    pub loyalty: LoyaltyTerms,
}

/// A balance a session plays from — (player, demo, currency): main, or fun in demo mode. The
/// merged paths (`house::batch`, `batch`) track what their run's earlier calls left per key.
pub type Held = (i64, bool, Currency);

/// A session's loyalty terms, read with it ([`loyalty_terms!`]); also as a JSON array of its
/// fields in this order, as [`GameSession`] is.
#[derive(sqlx::FromRow, Deserialize)]
pub struct LoyaltyTerms {
    /// Milli-points per major unit for the session's game and currency (none: no rate).
    pub loyalty_rate: Option<i64>,
    /// 1 when the loyalty programme is switched off.
    pub loyalty_off: i64,
    /// The player's loyalty account's `active` (none: no account yet; the bet makes it active).
    pub loyalty_active: Option<i64>,
}

impl LoyaltyTerms {
    /// The milli-points a real-money stake of `stake` earns, as [`loyalty::accrue`] would credit
    /// them: none with no rate, the programme off or the account excluded.
    pub fn points(&self, stake: i64, currency: Currency) -> i64 {
        match self.loyalty_rate {
            Some(rate) if self.loyalty_off == 0 && self.loyalty_active != Some(0) => {
                loyalty::earned(stake, rate, currency)
            }
            _ => 0,
        }
    }
}

/// The loyalty terms of a session's game read with it, as columns `loyalty_rate`, `loyalty_off`
/// and `loyalty_active` (see [`HouseRead`]): the merged paths credit points without a read of
/// their own.
macro_rules! loyalty_terms {
    () => {
        ", (SELECT r.milli_per_unit FROM loyalty_rates r WHERE r.game_type IN (g.game_type, '*') AND r.currency = s.currency \
           ORDER BY CASE WHEN r.game_type = '*' THEN 1 ELSE 0 END LIMIT 1) AS loyalty_rate, \
         CAST((SELECT COUNT(*) FROM loyalty_settings ls WHERE ls.id = 1 AND ls.active = 0) AS BIGINT) AS loyalty_off, \
         (SELECT la.active FROM loyalty_accounts la WHERE la.user_id = s.user_id) AS loyalty_active"
    };
}

/// A [`GameSession`] as a JSON array of its fields in their order, from the rows of a
/// `session_query!` named `x`: the merged paths' one-row reads ([`read_house_rounds`] and
/// `batch::CALL_READ_SQLITE` with SQLite's `json_array`, `batch::CALL_READ_POSTGRES` with
/// PostgreSQL's `json_build_array`).
macro_rules! session_array {
    () => {
        session_array!("json_array")
    };
    ($array:literal) => {
        concat!(
            $array,
            "(x.user_id, x.game_id, x.sysname, x.provider, x.currency, x.mode, x.expires_at, x.status, \
             x.blocked_until, x.blocked_kind, x.play_limits, x.wagering, x.held, x.competing)"
        )
    };
}

/// [`LoyaltyTerms`] as a JSON array of its fields in their order, as [`session_array!`].
macro_rules! loyalty_array {
    () => {
        loyalty_array!("json_array")
    };
    ($array:literal) => {
        concat!($array, "(x.loyalty_rate, x.loyalty_off, x.loyalty_active)")
    };
}

/// [`read_house_rounds`]'s read, with its dialect's way of naming many tokens in `$1`.
macro_rules! house_read {
    ($tokens:literal, $tail:literal) => {
        session_query!(
            @ concat!(", s.token_hash, f.id AS seed_id, f.server_seed, f.server_seed_hash, f.client_seed, f.nonce", loyalty_terms!()),
            " LEFT JOIN fairness_seeds f ON f.id = (SELECT fs.id FROM fairness_seeds fs WHERE fs.user_id = s.user_id AND fs.active = 1 ORDER BY fs.id DESC LIMIT 1)",
            $tokens,
            $tail
        )
    };
}

/// The sessions of many tokens (`token_hashes`, the [`token_hash`] of each) in one read, with
/// what a house round needs besides: the player's active seed pair and their loyalty terms.
///
/// On PostgreSQL the read locks the players' `users` rows in id order, in the same statement
/// (`ORDER BY u.id FOR UPDATE OF u`), as [`find_session_locked`] locks one; SQLite's transactions
/// hold the write lock already. The columns read from `users` (status, blocks, limits) are then
/// the locked rows' latest versions; the rest is the statement's snapshot, in which every earlier
/// change of these players' money is committed: money moves only on their lanes, and this is
/// their lane's next transaction. (It was a statement of its own before the read.)
pub async fn read_house_rounds(conn: &mut AnyConnection, token_hashes: &[&str]) -> Result<Vec<HouseRead>, sqlx::Error> {
    let tokens = serde_json::to_string(token_hashes).unwrap_or_default();
    if ledger::is_postgres(conn) {
        const READ: &str = house_read!(
            " WHERE s.token_hash = ANY(ARRAY(SELECT jsonb_array_elements_text(CAST($1 AS JSONB))))",
            " ORDER BY u.id FOR UPDATE OF u"
        );
        sqlx::query_as(READ).bind(tokens).bind(now_ms()).fetch_all(conn).await
    } else {
        // One row: the reads as one JSON array of arrays in [`HouseRead`]'s field order. Read row
        // by row, each of a round's ~25 values was copied out of SQLite, converted to the driver's
        // generic row and decoded alone, on the lane's serial path: a fifth of the lane task's
        // samples under the house rounds' load (`perf`, 2026-11-28), as the aggregator calls'
        // read was (`batch::CALL_READ_SQLITE`).
        const READ: &str = concat!(
            "SELECT json_group_array(json_array(",
            session_array!(),
            ", x.token_hash, x.seed_id, x.server_seed, x.server_seed_hash, x.client_seed, x.nonce, ",
            loyalty_array!(),
            ")) FROM (",
            house_read!(" WHERE s.token_hash IN (SELECT value FROM json_each($1))", ""),
            ") x"
        );
        let reads: String = sqlx::query_scalar(READ).bind(tokens).bind(now_ms()).fetch_one(conn).await?;
        serde_json::from_str(&reads).map_err(|e| sqlx::Error::Decode(Box::new(e)))
    }
}

mod batch;

/// The bet a rollback names, with its round's win and owner.
#[derive(sqlx::FromRow)]
struct RolledBet {
    round_id: i64,
    amount: i64,
    rolled_back: i64,
    bonus_id: Option<i64>,
    bonus_wagered: i64,
    points: i64,
    round_win: i64,
    round_user: i64,
    round_mode: String,
    round_currency: String,
}

/// Reverses a bet (accepted with an expired token; refused once the round has a win): what it
/// took from bonuses goes back to them and the wagering it counted is taken back.
pub async fn rollback(
    conn: &mut AnyConnection,
    provider: &str,
    request: &WalletRequest,
    rules: &Rules,
) -> Result<WalletResponse, WalletError> {
    // The token's session, once: a replay is answered to its player only (`replayed`), and the
    // rollback is checked against it (accepted expired, as every rollback).
    let session = find_session(conn, &request.token).await?;
    if let Some(first) = replay(conn, provider, request, "rollback", session.as_ref().map(|s| s.user_id)).await? {
        return Ok(first);
    }
    let reference = request.reference_transaction_uuid.clone().unwrap_or_default();
    let bet: Option<RolledBet> = sqlx::query_as(
        "SELECT w.round_id, w.amount, w.rolled_back, w.bonus_id, w.bonus_wagered, w.points, \
         r.win AS round_win, r.user_id AS round_user, r.mode AS round_mode, r.currency AS round_currency \
         FROM wallet_transactions w JOIN game_rounds r ON r.id = w.round_id \
         WHERE w.provider = $1 AND w.transaction_uuid = $2 AND w.kind = 'bet'",
    )
    .bind(provider)
    .bind(&reference)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(bet) = bet else {
        return Err(WalletError::Status("RS_ERROR_TRANSACTION_DOES_NOT_EXIST"));
    };
    let session = session.ok_or(WalletError::Status("RS_ERROR_INVALID_TOKEN"))?;
    check_session(&session, provider, request, true)?;
    // Another session's bet does not exist for this one (module docs).
    if (bet.round_user, bet.round_mode.as_str(), bet.round_currency.as_str())
        != (session.user_id, session.mode.as_str(), session.currency.as_str())
    {
        return Err(WalletError::Status("RS_ERROR_TRANSACTION_DOES_NOT_EXIST"));
    }
    let RolledBet { round_id, amount, rolled_back, bonus_id: wagered_bonus, bonus_wagered: wagered, points, .. } = bet;
    if bet.round_win > 0 {
        return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
    }
    let currency = currency_of(&session)?;
    let real = session.mode == "real";
    if rolled_back == 0 && amount > 0 {
        let key = format!("wallet:{provider}:{}", request.transaction_uuid);
        let entry = if real {
            let payout: Payout =
                bonus::plan_rollback(conn, provider, &reference, amount, wagered_bonus.map(|id| (id, wagered))).await?;
            let postings = payout.postings(session.user_id, settlement(&session), amount);
            let entry = Entry {
                key: &key,
                kind: "rollback",
                user_id: Some(session.user_id),
                reference: None,
                currency,
                postings,
            };
            ledger::post(conn, &entry).await.map_err(WalletError::from)?;
            bonus::record_payout(conn, &payout, false).await?;
            // What the bet earned goes back with it.
            loyalty::reverse(conn, rules, session.user_id, points, &format!("rollback:{provider}:{reference}")).await?;
            if session.competing > 0 {
                competition::on_rollback(conn, &format!("wallet:{provider}:{reference}")).await?;
            }
            None
        } else {
            Some(move_money(&key, "rollback", &session, Money::from_minor(amount, currency), true))
        };
        if let Some(entry) = entry {
            ledger::post(conn, &entry).await.map_err(WalletError::from)?;
        }
        sqlx::query("UPDATE wallet_transactions SET rolled_back = 1 WHERE provider = $1 AND transaction_uuid = $2")
            .bind(provider)
            .bind(&reference)
            .execute(&mut *conn)
            .await?;
        sqlx::query("UPDATE game_rounds SET bet = bet - $1 WHERE id = $2")
            .bind(amount)
            .bind(round_id)
            .execute(&mut *conn)
            .await?;
    }
    close_if(conn, round_id, request.round_closed).await?;
    if real {
        bonus::settle(conn, session.user_id).await?;
    }
    let (balance, _) = balance_of(conn, &session, rules).await?;
    let response = answer("RS_OK", request, Some((balance, currency.code())));
    record(conn, provider, request, "rollback", round_id, &response, None, 0).await?;
    Ok(response)
}

/// The secret that signs `provider`'s calls: configured for external providers.
fn secret(state: &AppState, provider: &str) -> Option<Vec<u8>> {
    state.config().game_providers.iter().find(|p| p.name == provider).map(|p| p.secret.expose().as_bytes().to_vec())
}

pub fn signature(secret: &[u8], timestamp: &str, method: &str, path: &str, body: &[u8]) -> String {
    use hmac::{Hmac, KeyInit, Mac};
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret).unwrap_or_else(|_| unreachable!("any key length"));
    mac.update(timestamp.as_bytes());
    mac.update(method.as_bytes());
    mac.update(path.as_bytes());
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

fn verify(state: &AppState, provider: &str, action: &str, headers: &HeaderMap, body: &[u8]) -> bool {
    let Some(secret) = secret(state, provider) else { return false };
    verify_headers(&secret, &format!("/provider/wallet/{provider}/{action}"), headers, body)
}

/// Whether a provider's call to `path` carries `secret`'s `X-Croupier-Signature` of its
/// `X-Croupier-Timestamp`, method, path and body, with the timestamp fresh ([`signed`]). Every
/// signed provider protocol checks its calls with this: the casino wallet here and the
/// sportsbook wallet (`features::sportsbook::provider`).
pub fn verify_headers(secret: &[u8], path: &str, headers: &HeaderMap, body: &[u8]) -> bool {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    signed(secret, text("x-croupier-timestamp"), text("x-croupier-signature"), path, body, now_ms() / 1000)
}

/// Whether a call to `path` carries `secret`'s signature of its timestamp and body, with the
/// timestamp within [`TIMESTAMP_TOLERANCE`] of `now_seconds`. Public for the fuzz target.
#[doc(hidden)]
pub fn signed(secret: &[u8], timestamp: &str, given: &str, path: &str, body: &[u8], now_seconds: i64) -> bool {
    // `abs_diff`: a timestamp of `i64::MIN` must be stale, not an overflow (found by fuzzing).
    let fresh = timestamp.parse::<i64>().is_ok_and(|t| now_seconds.abs_diff(t) <= TIMESTAMP_TOLERANCE.unsigned_abs());
    let expected = signature(secret, timestamp, "POST", path, body);
    fresh && croupier_platform::crypto::same_bytes(given.as_bytes(), expected.as_bytes())
}

/// The player of the game session whose token hashes to `hash` ([`token_hash`]): this replica's
/// memory of it ([`Hot::game_player`]: a session's player never changes), else one indexed read,
/// remembered. Chooses a wallet call's lane on PostgreSQL; whatever runs there reads the session
/// itself.
///
/// [`Hot::game_player`]: croupier_platform::hot::Hot::game_player
pub async fn game_player(state: &AppState, hash: &str) -> Result<Option<i64>, sqlx::Error> {
    if let Some(player) = state.hot().game_player(hash) {
        return Ok(Some(player));
    }
    let mut conn = state.db().pool().acquire().await?;
    let player: Option<i64> = sqlx::query_scalar("SELECT user_id FROM game_sessions WHERE token_hash = $1")
        .bind(hash)
        .fetch_optional(&mut *conn)
        .await?;
    if let Some(player) = player {
        state.hot().put_game_player(hash, player);
    }
    Ok(player)
}

/// `POST /provider/wallet/{provider}/{action}`.
pub async fn handle(
    State(state): State<AppState>,
    Path((provider, action)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let request: Option<WalletRequest> = serde_json::from_slice(&body).ok();
    let fallback = WalletRequest {
        request_uuid: request.as_ref().map(|r| r.request_uuid.clone()).unwrap_or_default(),
        transaction_uuid: String::new(),
        reference_transaction_uuid: None,
        round: String::new(),
        round_closed: false,
        user: String::new(),
        token: String::new(),
        game_code: String::new(),
        currency: String::new(),
        amount: 0,
    };
    if !verify(&state, &provider, &action, &headers, &body) {
        return Json(answer("RS_ERROR_INVALID_SIGNATURE", &fallback, None)).into_response();
    }
    let Some(request) = request else { return Json(answer("RS_ERROR_UNKNOWN", &fallback, None)).into_response() };
    let result = run(&state, &provider, &action, &request).await;
    let response = match result {
        Ok(response) => response,
        Err(
            refused @ (WalletError::Status(_)
            | WalletError::MaxBet(_)
            | WalletError::Excluded(_)
            | WalletError::PlayLimit(_)),
        ) => {
            let status = refused.status();
            // Refusals still tell the balance when the token is known (NOT_ENOUGH_MONEY needs it).
            let rules = Rules::of(&state);
            let balance = match state.db().pool().acquire().await {
                Ok(mut conn) => match find_session(&mut conn, &request.token).await {
                    Ok(Some(session)) => balance_of(&mut conn, &session, &rules).await.ok().map(|(b, c)| (b, c.code())),
                    _ => None,
                },
                Err(_) => None,
            };
            answer(status, &request, balance)
        }
        Err(WalletError::Db(e)) => {
            tracing::error!(error = %e, provider, action, "wallet call failed");
            answer("RS_ERROR_UNKNOWN", &request, None)
        }
    };
    Json(response).into_response()
}

async fn run(
    state: &AppState,
    provider: &str,
    action: &str,
    request: &WalletRequest,
) -> Result<WalletResponse, WalletError> {
    let rules = Rules::of(state);
    if action == "balance" {
        let mut conn = state.db().pool().acquire().await?;
        let session = session_for(&mut conn, provider, request, false).await?;
        let (balance, currency) = balance_of(&mut conn, &session, &rules).await?;
        return Ok(answer("RS_OK", request, Some((balance, currency.code()))));
    }
    if !matches!(action, "bet" | "win" | "rollback") {
        return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
    }
    // Bets, wins and rollbacks of every round go through the group committer: many players'
    // calls share one transaction (see `db::group`). With several lanes (PostgreSQL) the call
    // goes on its player's lane; an unknown token fails inside the job whichever lane runs it.
    // The token's hash, once, on the call's own task: it finds the lane here and the session on
    // the lane (whose run is serial: the less it computes, the sooner the next run starts).
    let hash = token_hash(&request.token);
    let player = if state.db().lanes() > 1 { game_player(state, &hash).await?.unwrap_or(0) } else { 0 };
    // A bet or a win is queued as data and merged with its neighbours on the lane (`batch`); one
    // that does not fit there comes back and runs as a job of the general path.
    if action != "rollback" {
        let call = batch::QueuedCall {
            rules,
            provider: provider.to_owned(),
            win: action == "win",
            request: request.clone(),
            token_hash: hash,
            user_id: player,
        };
        if let Some(answer) = state.db().submit(player, call).await? {
            return Ok(answer);
        }
    }
    let call = Arc::new((provider.to_owned(), action.to_owned(), request.clone()));
    state
        .db()
        .group(
            player,
            crate::db::group::job(move |conn| {
                let call = Arc::clone(&call);
                Box::pin(async move {
                    let (provider, action, request) = &*call;
                    match action.as_str() {
                        "bet" => bet(conn, provider, request, &rules).await,
                        "win" => win(conn, provider, request, &rules).await,
                        _ => rollback(conn, provider, request, &rules).await,
                    }
                })
            }),
        )
        .await
}
