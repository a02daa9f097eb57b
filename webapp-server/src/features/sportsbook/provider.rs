//! The sportsbook wallet protocol for external sportsbook providers (issue 20): a casino platform
//! embeds a provider's sportsbook frame in `/betting`, and the provider calls the operator's
//! wallet. `POST /provider/sportsbook/{provider}/{balance|place|settle|cancel|resettle|rollback}`
//! with JSON bodies, signed exactly like the casino wallet (`features::games::wallet`, whose
//! [`verify_headers`] this calls): `X-Croupier-Signature` = hex HMAC-SHA256 of
//! `timestamp + "POST" + path + body` under the provider's secret (`CROUPIER_SPORTSBOOK_PROVIDERS`),
//! `X-Croupier-Timestamp` within ±30 s. Every answer is HTTP 200 with `{status, balance,
//! currency, request_uuid, bet_status}`; `status` is `RS_OK` or one of the refusals below. The
//! OpenAPI document (`/api/openapi.json`, paths `/provider/sportsbook/…`) states the schemas.
//!
//! **The player.** A signed-in player opens a provider's frame with `sportsbook.launch`
//! (`provider`): it answers the frame's address (the provider's template with `{token}`,
//! `{currency}`, `{locale}`) and a launch token, stored hashed in `sb_provider_sessions`, bound
//! to player, provider and currency, valid 4 hours — the same model as a casino game launch. Each
//! wallet call carries the `token`; `balance` and `place` need it unexpired, the calls that
//! settle a bet accept it expired (results come after the session), and every call touches only
//! the bets of the token's player (another player's `bet_id` is `RS_ERROR_TRANSACTION_DOES_NOT_EXIST`).
//!
//! **Money** moves only through the sportsbook's internal wallet ([`super::wallet`], which the
//! house bets use too), from and to the player's main balance (a provider's bet cannot use the
//! house's betting bonuses), keys `sportsbook:{provider}:bet:{id}:stake|v{n}|cancel`.
//!
//! **Idempotency.** Every call but `balance` carries the provider's `transaction_uuid`; the call,
//! its fingerprint (the player, the action and every field but `request_uuid` and `token`) and
//! its answer are written in the transaction that moves the money. A repeated id with the same
//! fingerprint answers the first answer again (its balance as it was then) and moves nothing; with
//! another, `RS_ERROR_DUPLICATE_TRANSACTION`. A `place` of a `bet_id` the provider already placed
//! under another transaction id is a duplicate too. Refusals are not recorded: a retry is
//! judged again.
//!
//! **Calls** (amounts in integer minor units of the session's currency):
//! - `balance`: the main balance.
//! - `place`: `bet_id` (the provider's), `amount` (the total stake), `kind` (single, accumulator
//!   or system with `system`, the house's names: trixie, yankee, from_2, …) and the slip's
//!   `selections` (`id`, `event`, `market`, `name`, `odds` as decimal text "2.50"). The stake must
//!   divide evenly into the kind's lines. Responsible gaming as for house bets: refused during a
//!   time-out or self-exclusion (`RS_ERROR_USER_DISABLED`) and over a loss or wager limit
//!   (`RS_ERROR_LIMIT_REACHED`; provider stakes count towards them). The bet's potential return
//!   is computed from the prices with the house's exact arithmetic (`settle`). Not enough money:
//!   `RS_ERROR_NOT_ENOUGH_MONEY` with the balance.
//! - `settle` (an open bet) and `resettle` (a settled one): `amount`, the bet's total payout as the
//!   provider computed it, and the per-selection `selections` results (`id`, `result`: won, lost,
//!   void, half_won or half_lost, optional `dead_heat` factor such as "1/2"). **The provider
//!   computes the payout; the operator records the results**, refuses a payout above the bet's
//!   potential (`RS_ERROR_WRONG_AMOUNT`) and a set of results that does not decide the bet
//!   (every selection has a result, or lost ones decide every line), and keeps its own figure
//!   from the results (`expected_payout`, logged when it differs) for reconciliation. The
//!   payout is a settlement version: the difference to what the bet was paid moves, so a
//!   resettlement moves only what changed. A resettlement's claw-back the balance cannot cover is
//!   `RS_ERROR_NOT_ENOUGH_MONEY` (nothing moves; the provider retries).
//! - `rollback` (a settled bet): undoes the settlement — the payout goes back, the bet is open.
//! - `cancel` (an open bet): the stake goes back; the bet is `cancelled`, final. A settled bet
//!   is rolled back first.
//!
//! Refusals: `RS_ERROR_INVALID_SIGNATURE`, `RS_ERROR_WRONG_REQUEST` (a malformed body or field,
//! an unknown action), `RS_ERROR_INVALID_TOKEN`, `RS_ERROR_TOKEN_EXPIRED`,
//! `RS_ERROR_USER_DISABLED`, `RS_ERROR_WRONG_CURRENCY`, `RS_ERROR_NOT_ENOUGH_MONEY`,
//! `RS_ERROR_LIMIT_REACHED`, `RS_ERROR_DUPLICATE_TRANSACTION`,
//! `RS_ERROR_TRANSACTION_DOES_NOT_EXIST` (no such bet of this player), `RS_ERROR_BET_STATE` (the
//! call does not apply to the bet's status), `RS_ERROR_WRONG_AMOUNT`, `RS_ERROR_UNKNOWN` (a
//! failure of the server, logged).
//!
//! Provider bets are stored in `sb_provider_bets` / `sb_provider_bet_legs` (migration 0029) and
//! listed to the player by `sportsbook.getProviderBets`.

use super::odds::Odds;
use super::settle::{BetKind, Leg, MAX_SELECTIONS, Outcome, Ratio, Slip, System};
use super::wallet::{self, BetMoney};
use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, Registry};
use crate::db::now_ms;
use crate::features::account::{MoneyView, limits, store};
use crate::features::games::wallet::{token_hash, verify_headers};
use crate::features::protection::Exclusion;
use crate::ledger::{self, Account, LedgerError, PlayerAccount};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use croupier_shared::{Currency, ErrorType, FieldCode};
use schemars::JsonSchema;
use schemars::generate::SchemaGenerator;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::AnyConnection;
use std::sync::Arc;

/// The calls of the protocol, in the order the document lists them.
pub const ACTIONS: [&str; 6] = ["balance", "place", "settle", "resettle", "cancel", "rollback"];
/// How long a launch token lets a provider read the balance and place bets.
pub const SESSION_TTL_MS: i64 = crate::features::games::launch::SESSION_TTL_MS;
/// Longest id (transaction, bet, selection) a provider may send.
const MAX_ID: usize = 100;
/// Longest event, market or selection name.
const MAX_NAME: usize = 200;

/// `balance`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct BalanceRequest {
    /// The provider's id of this call, echoed in the answer.
    pub request_uuid: String,
    /// The launch token (`sportsbook.launch`).
    pub token: String,
    /// ISO 4217; when given, it must be the session's.
    #[serde(default)]
    pub currency: String,
}

/// A selection of a slip as `place` sends it.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct PlaceSelection {
    /// The provider's selection id (1 to 100 characters), unique in the slip.
    pub id: String,
    /// The event's name ("Home v Away"), up to 200 characters.
    #[serde(default)]
    pub event: String,
    /// The market's name, up to 200 characters.
    #[serde(default)]
    pub market: String,
    /// The selection's name, up to 200 characters.
    #[serde(default)]
    pub name: String,
    /// The price taken, decimal odds as text ("2.50"), above 1.
    pub odds: String,
}

/// `place`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct PlaceRequest {
    pub request_uuid: String,
    /// The provider's id of this money movement (1 to 100 characters): the idempotency key.
    pub transaction_uuid: String,
    pub token: String,
    #[serde(default)]
    pub currency: String,
    /// The provider's bet id (1 to 100 characters), unique per provider.
    pub bet_id: String,
    /// The total stake, minor units, above 0 and a multiple of the kind's number of lines.
    #[schemars(range(min = 1))]
    pub amount: i64,
    /// single, accumulator or system.
    pub kind: String,
    /// With kind=system: trixie, patent, yankee, lucky15, super_yankee, lucky31, heinz, lucky63,
    /// super_heinz, goliath, doubles, trebles or from_K.
    #[serde(default)]
    pub system: Option<String>,
    /// The slip's selections, 1 to 20.
    pub selections: Vec<PlaceSelection>,
}

/// A selection's result as `settle` and `resettle` send it.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct SelectionResult {
    /// The selection id the bet was placed with.
    pub id: String,
    /// won, lost, void, half_won or half_lost.
    pub result: String,
    /// A dead heat's factor of the winning stake ("1/2", "1/3"); 1 without a tie.
    #[serde(default)]
    pub dead_heat: Option<String>,
}

/// `settle` and `resettle`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct SettleRequest {
    pub request_uuid: String,
    pub transaction_uuid: String,
    pub token: String,
    #[serde(default)]
    pub currency: String,
    pub bet_id: String,
    /// The bet's total payout (stake included) as the provider computed it, minor units, from 0
    /// to the bet's potential return.
    #[schemars(range(min = 0))]
    pub amount: i64,
    /// The selections' results; together they must decide the bet.
    pub selections: Vec<SelectionResult>,
}

/// `cancel` and `rollback`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct BetRequest {
    pub request_uuid: String,
    pub transaction_uuid: String,
    pub token: String,
    #[serde(default)]
    pub currency: String,
    pub bet_id: String,
}

/// Every answer (HTTP 200).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct SbResponse {
    /// RS_OK, or RS_ERROR_INVALID_SIGNATURE, RS_ERROR_WRONG_REQUEST, RS_ERROR_INVALID_TOKEN,
    /// RS_ERROR_TOKEN_EXPIRED, RS_ERROR_USER_DISABLED, RS_ERROR_WRONG_CURRENCY,
    /// RS_ERROR_NOT_ENOUGH_MONEY, RS_ERROR_LIMIT_REACHED, RS_ERROR_DUPLICATE_TRANSACTION,
    /// RS_ERROR_TRANSACTION_DOES_NOT_EXIST, RS_ERROR_BET_STATE, RS_ERROR_WRONG_AMOUNT or
    /// RS_ERROR_UNKNOWN.
    pub status: String,
    /// The player's main balance after the call, minor units (refusals too, when the token is known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    pub request_uuid: String,
    /// The bet's status after the call: open, won, lost, void or cancelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bet_status: Option<String>,
}

impl SbResponse {
    fn refusal(status: &str, request_uuid: &str, balance: Option<(i64, Currency)>) -> SbResponse {
        SbResponse {
            status: status.to_owned(),
            balance: balance.map(|b| b.0),
            currency: balance.map(|b| b.1.code().to_owned()),
            request_uuid: request_uuid.to_owned(),
            bet_status: None,
        }
    }
}

/// A parsed call.
#[derive(Debug, Clone)]
enum Call {
    Balance(BalanceRequest),
    Place(PlaceRequest),
    Settle(SettleRequest),
    Resettle(SettleRequest),
    Cancel(BetRequest),
    Rollback(BetRequest),
}

impl Call {
    fn parse(action: &str, body: &[u8]) -> Option<Call> {
        Some(match action {
            "balance" => Call::Balance(serde_json::from_slice(body).ok()?),
            "place" => Call::Place(serde_json::from_slice(body).ok()?),
            "settle" => Call::Settle(serde_json::from_slice(body).ok()?),
            "resettle" => Call::Resettle(serde_json::from_slice(body).ok()?),
            "cancel" => Call::Cancel(serde_json::from_slice(body).ok()?),
            "rollback" => Call::Rollback(serde_json::from_slice(body).ok()?),
            _ => return None,
        })
    }

    fn action(&self) -> &'static str {
        match self {
            Call::Balance(_) => "balance",
            Call::Place(_) => "place",
            Call::Settle(_) => "settle",
            Call::Resettle(_) => "resettle",
            Call::Cancel(_) => "cancel",
            Call::Rollback(_) => "rollback",
        }
    }

    /// `(token, currency, transaction_uuid, bet_id)`.
    fn common(&self) -> (&str, &str, &str, &str) {
        match self {
            Call::Balance(r) => (&r.token, &r.currency, "", ""),
            Call::Place(r) => (&r.token, &r.currency, &r.transaction_uuid, &r.bet_id),
            Call::Settle(r) | Call::Resettle(r) => (&r.token, &r.currency, &r.transaction_uuid, &r.bet_id),
            Call::Cancel(r) | Call::Rollback(r) => (&r.token, &r.currency, &r.transaction_uuid, &r.bet_id),
        }
    }

    fn request_uuid(&self) -> &str {
        match self {
            Call::Balance(r) => &r.request_uuid,
            Call::Place(r) => &r.request_uuid,
            Call::Settle(r) | Call::Resettle(r) => &r.request_uuid,
            Call::Cancel(r) | Call::Rollback(r) => &r.request_uuid,
        }
    }

    /// The player, the action and every field but `request_uuid` and `token`, the currency in
    /// upper case: what must be the same for a repeated transaction id to be a replay.
    fn fingerprint(&self, user_id: i64) -> String {
        let mut value = match self {
            Call::Balance(r) => serde_json::to_value(r),
            Call::Place(r) => serde_json::to_value(r),
            Call::Settle(r) | Call::Resettle(r) => serde_json::to_value(r),
            Call::Cancel(r) | Call::Rollback(r) => serde_json::to_value(r),
        }
        .unwrap_or(Value::Null);
        if let Some(fields) = value.as_object_mut() {
            fields.remove("request_uuid");
            fields.remove("token");
            let currency = fields.get("currency").and_then(Value::as_str).unwrap_or("").to_ascii_uppercase();
            fields.insert("currency".into(), Value::String(currency));
        }
        format!("{user_id}|{}|{value}", self.action())
    }
}

#[derive(Debug)]
enum Refusal {
    Status(&'static str),
    Db(sqlx::Error),
}

impl From<sqlx::Error> for Refusal {
    fn from(e: sqlx::Error) -> Refusal {
        Refusal::Db(e)
    }
}

impl From<LedgerError> for Refusal {
    fn from(e: LedgerError) -> Refusal {
        match e {
            LedgerError::InsufficientFunds => Refusal::Status("RS_ERROR_NOT_ENOUGH_MONEY"),
            LedgerError::Db(e) => Refusal::Db(e),
            other => {
                tracing::error!(error = ?other, "the ledger refused a sportsbook provider's movement");
                Refusal::Status("RS_ERROR_UNKNOWN")
            }
        }
    }
}

const WRONG_REQUEST: Refusal = Refusal::Status("RS_ERROR_WRONG_REQUEST");

/// A launch session with its player's state.
#[derive(Debug, Clone, sqlx::FromRow)]
struct Session {
    user_id: i64,
    provider: String,
    currency: String,
    expires_at: i64,
    status: String,
    blocked_until: Option<i64>,
    blocked_kind: Option<String>,
    play_limits: i64,
}

async fn find_session(conn: &mut AnyConnection, token: &str) -> Result<Option<Session>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.user_id, s.provider, s.currency, s.expires_at, u.status, u.blocked_until, u.blocked_kind, u.play_limits \
         FROM sb_provider_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1",
    )
    .bind(token_hash(token))
    .fetch_optional(conn)
    .await
}

impl Session {
    fn currency(&self) -> Result<Currency, Refusal> {
        Currency::parse(&self.currency).ok_or(Refusal::Status("RS_ERROR_WRONG_CURRENCY"))
    }

    /// The token's provider and currency; unexpired unless `allow_expired`.
    fn check(&self, provider: &str, currency: &str, allow_expired: bool) -> Result<(), Refusal> {
        if self.provider != provider {
            return Err(Refusal::Status("RS_ERROR_INVALID_TOKEN"));
        }
        if !allow_expired && self.expires_at < now_ms() {
            return Err(Refusal::Status("RS_ERROR_TOKEN_EXPIRED"));
        }
        if !currency.is_empty() && !currency.eq_ignore_ascii_case(&self.currency) {
            return Err(Refusal::Status("RS_ERROR_WRONG_CURRENCY"));
        }
        Ok(())
    }

    /// May the player stake real money now: an active account, no time-out or self-exclusion.
    fn may_bet(&self) -> Result<(), Refusal> {
        let excluded = Exclusion::in_force(self.blocked_until, self.blocked_kind.as_deref(), now_ms()).is_some();
        if self.status != "active" || excluded {
            return Err(Refusal::Status("RS_ERROR_USER_DISABLED"));
        }
        Ok(())
    }
}

/// The secret that signs `provider`'s sportsbook calls.
fn secret(state: &AppState, provider: &str) -> Option<Vec<u8>> {
    state
        .config()
        .sportsbook_providers
        .iter()
        .find(|p| p.name == provider)
        .map(|p| p.secret.expose().as_bytes().to_vec())
}

/// `POST /provider/sportsbook/{provider}/{action}`.
pub async fn handle(
    State(state): State<AppState>,
    Path((provider, action)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let request_uuid = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v.get("request_uuid")?.as_str().map(str::to_owned))
        .unwrap_or_default();
    let signed = secret(&state, &provider).is_some_and(|secret| {
        verify_headers(&secret, &format!("/provider/sportsbook/{provider}/{action}"), &headers, &body)
    });
    if !signed {
        return Json(SbResponse::refusal("RS_ERROR_INVALID_SIGNATURE", &request_uuid, None)).into_response();
    }
    let Some(call) = Call::parse(&action, &body) else {
        return Json(SbResponse::refusal("RS_ERROR_WRONG_REQUEST", &request_uuid, None)).into_response();
    };
    let response = match run(&state, &provider, call.clone()).await {
        Ok(response) => response,
        Err(Refusal::Status(status)) => {
            // A refusal still tells the balance when the token is the provider's (NOT_ENOUGH_MONEY needs it).
            let balance = balance_for(&state, &provider, call.common().0).await.ok().flatten();
            SbResponse::refusal(status, &request_uuid, balance)
        }
        Err(Refusal::Db(e)) => {
            tracing::error!(error = %e, provider, action, "sportsbook wallet call failed");
            SbResponse::refusal("RS_ERROR_UNKNOWN", &request_uuid, None)
        }
    };
    Json(response).into_response()
}

async fn balance_for(state: &AppState, provider: &str, token: &str) -> Result<Option<(i64, Currency)>, Refusal> {
    let mut conn = state.db().pool().acquire().await?;
    let Some(session) = find_session(&mut conn, token).await? else { return Ok(None) };
    if session.provider != provider {
        return Ok(None);
    }
    let currency = session.currency()?;
    Ok(Some((ledger::balance(&mut conn, Account::main(session.user_id), currency).await?, currency)))
}

async fn run(state: &AppState, provider: &str, call: Call) -> Result<SbResponse, Refusal> {
    let session = {
        let mut conn = state.db().pool().acquire().await?;
        find_session(&mut conn, call.common().0).await?.ok_or(Refusal::Status("RS_ERROR_INVALID_TOKEN"))?
    };
    if let Call::Balance(request) = &call {
        session.check(provider, &request.currency, false)?;
        let balance = balance_for(state, provider, &request.token).await?;
        let (balance, currency) = balance.ok_or(Refusal::Status("RS_ERROR_INVALID_TOKEN"))?;
        return Ok(SbResponse {
            status: "RS_OK".into(),
            balance: Some(balance),
            currency: Some(currency.code().to_owned()),
            request_uuid: request.request_uuid.clone(),
            bet_status: None,
        });
    }
    session.check(provider, call.common().1, true)?;
    // Every movement of the player's money runs on their lane of the group committer, under
    // their lock, in one transaction with the call's record.
    let user_id = session.user_id;
    let db = state.db().clone();
    let job = Arc::new((provider.to_owned(), call, session));
    state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let (job, db) = (Arc::clone(&job), db.clone());
                Box::pin(async move {
                    let (provider, call, session) = &*job;
                    db.lock_user(conn, session.user_id).await?;
                    apply(conn, provider, call, session).await
                })
            }),
        )
        .await
}

/// A provider's bet as the wallet reads it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProviderBet {
    pub id: i64,
    pub provider: String,
    pub bet_ref: String,
    pub user_id: i64,
    pub currency: String,
    pub kind: String,
    pub system: Option<String>,
    pub stake_per_line: i64,
    pub stake: i64,
    pub potential: i64,
    pub payout: i64,
    pub expected_payout: Option<i64>,
    pub status: String,
    pub settle_version: i64,
    pub created_at: i64,
    pub settled_at: Option<i64>,
}

const PROVIDER_BET_COLUMNS: &str = "id, provider, bet_ref, user_id, currency, kind, system, stake_per_line, stake, potential, payout, expected_payout, status, settle_version, created_at, settled_at";

/// A provider bet's selection.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProviderLeg {
    pub id: i64,
    pub selection_ref: String,
    pub event: String,
    pub market: String,
    pub selection: String,
    pub odds: i64,
    pub result: Option<String>,
    pub dead_heat: Option<String>,
}

async fn legs_of(conn: &mut AnyConnection, bet_id: i64) -> Result<Vec<ProviderLeg>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, selection_ref, event, market, selection, odds, result, dead_heat FROM sb_provider_bet_legs \
         WHERE bet_id = $1 ORDER BY position",
    )
    .bind(bet_id)
    .fetch_all(conn)
    .await
}

/// The selections of a page of provider bets (at most [`ADMIN_MAX_COUNT`] ids) in one statement,
/// by bet, each in position order, as the player's and the operators' lists show them.
async fn selections_of_bets(
    conn: &mut AnyConnection,
    bet_ids: &[i64],
) -> Result<std::collections::HashMap<i64, Vec<ProviderSelectionView>>, sqlx::Error> {
    let mut by_bet: std::collections::HashMap<i64, Vec<ProviderSelectionView>> = std::collections::HashMap::new();
    if bet_ids.is_empty() {
        return Ok(by_bet);
    }
    let marks: Vec<String> = (1..=bet_ids.len()).map(|i| format!("${i}")).collect();
    let mut query = sqlx::query_as::<_, PagedLeg>(sqlx::AssertSqlSafe(format!(
        "SELECT bet_id, id, selection_ref, event, market, selection, odds, result, dead_heat FROM sb_provider_bet_legs \
         WHERE bet_id IN ({}) ORDER BY bet_id, position",
        marks.join(", ")
    )));
    for id in bet_ids {
        query = query.bind(id);
    }
    for row in query.fetch_all(conn).await? {
        by_bet.entry(row.bet_id).or_default().push(ProviderSelectionView::from(row.leg));
    }
    Ok(by_bet)
}

/// A leg with its bet's id, for [`selections_of_bets`].
#[derive(sqlx::FromRow)]
struct PagedLeg {
    bet_id: i64,
    #[sqlx(flatten)]
    leg: ProviderLeg,
}

impl From<ProviderLeg> for ProviderSelectionView {
    fn from(l: ProviderLeg) -> Self {
        ProviderSelectionView {
            id: l.selection_ref,
            event: l.event,
            market: l.market,
            selection: l.selection,
            odds: odds_text(l.odds),
            result: l.result.unwrap_or_else(|| "open".into()),
            dead_heat: l.dead_heat,
        }
    }
}

impl ProviderBet {
    fn money(&self) -> Result<BetMoney, Refusal> {
        let currency = Currency::parse(&self.currency).ok_or(Refusal::Status("RS_ERROR_WRONG_CURRENCY"))?;
        Ok(BetMoney::provider(&self.provider, self.id, &self.bet_ref, self.user_id, currency))
    }
}

fn bet_kind(kind: &str, system: Option<&str>) -> Option<BetKind> {
    match kind {
        "single" => Some(BetKind::Single),
        "accumulator" => Some(BetKind::Accumulator),
        "system" => System::parse(system?).map(BetKind::System),
        _ => None,
    }
}

/// A result as the provider names it, with its dead-heat factor.
fn outcome(result: &str, dead_heat: Option<&str>) -> Option<Outcome> {
    let base = match result {
        "won" => Outcome::WON,
        "lost" => Outcome::LOST,
        "void" => Outcome::VOID,
        "half_won" => Outcome::HALF_WON,
        "half_lost" => Outcome::HALF_LOST,
        _ => return None,
    };
    let dead_heat = match dead_heat {
        None => Ratio::ONE,
        Some(text) => Ratio::parse(text)?,
    };
    Outcome::new(base.won, base.void_factor, dead_heat)
}

fn id_ok(id: &str) -> bool {
    !id.is_empty() && id.chars().count() <= MAX_ID
}

async fn apply(
    conn: &mut AnyConnection,
    provider: &str,
    call: &Call,
    session: &Session,
) -> Result<SbResponse, Refusal> {
    let (_, _, transaction_uuid, bet_ref) = call.common();
    if !id_ok(transaction_uuid) || !id_ok(bet_ref) {
        return Err(WRONG_REQUEST);
    }
    let fingerprint = call.fingerprint(session.user_id);
    let seen: Option<(String, String)> = sqlx::query_as(
        "SELECT fingerprint, response FROM sb_provider_transactions WHERE provider = $1 AND transaction_uuid = $2",
    )
    .bind(provider)
    .bind(transaction_uuid)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((first, response)) = seen {
        if first != fingerprint {
            return Err(Refusal::Status("RS_ERROR_DUPLICATE_TRANSACTION"));
        }
        let mut answer: SbResponse =
            serde_json::from_str(&response).map_err(|e| Refusal::Db(sqlx::Error::Decode(e.into())))?;
        answer.request_uuid = call.request_uuid().to_owned();
        return Ok(answer);
    }
    let currency = session.currency()?;
    let (bet_id, bet_status) = match call {
        Call::Balance(_) => return Err(WRONG_REQUEST),
        Call::Place(request) => place(conn, provider, request, session, currency).await?,
        Call::Settle(request) => settle(conn, provider, request, session, false).await?,
        Call::Resettle(request) => settle(conn, provider, request, session, true).await?,
        Call::Cancel(request) => cancel(conn, provider, request, session).await?,
        Call::Rollback(request) => rollback(conn, provider, request, session).await?,
    };
    let balance = ledger::balance(conn, Account::main(session.user_id), currency).await?;
    let answer = SbResponse {
        status: "RS_OK".into(),
        balance: Some(balance),
        currency: Some(currency.code().to_owned()),
        request_uuid: call.request_uuid().to_owned(),
        bet_status: Some(bet_status.to_owned()),
    };
    sqlx::query(
        "INSERT INTO sb_provider_transactions (provider, transaction_uuid, action, bet_id, fingerprint, response, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(provider)
    .bind(transaction_uuid)
    .bind(call.action())
    .bind(bet_id)
    .bind(&fingerprint)
    .bind(serde_json::to_string(&answer).unwrap_or_default())
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(answer)
}

async fn place(
    conn: &mut AnyConnection,
    provider: &str,
    request: &PlaceRequest,
    session: &Session,
    currency: Currency,
) -> Result<(i64, &'static str), Refusal> {
    session.check(provider, &request.currency, false)?;
    session.may_bet()?;
    let kind = bet_kind(&request.kind, request.system.as_deref()).ok_or(WRONG_REQUEST)?;
    let selections = &request.selections;
    if selections.is_empty() || selections.len() > MAX_SELECTIONS {
        return Err(WRONG_REQUEST);
    }
    let mut legs = Vec::with_capacity(selections.len());
    for (i, s) in selections.iter().enumerate() {
        let named = [&s.event, &s.market, &s.name].iter().all(|n| n.chars().count() <= MAX_NAME);
        if !id_ok(&s.id) || !named || selections[..i].iter().any(|o| o.id == s.id) {
            return Err(WRONG_REQUEST);
        }
        legs.push(Leg { odds: Odds::decimal(s.odds.trim()).map_err(|_| WRONG_REQUEST)?, outcome: None });
    }
    let lines = i64::try_from(kind.lines(legs.len()).ok_or(WRONG_REQUEST)?.len()).unwrap_or(i64::MAX);
    if request.amount <= 0 || request.amount % lines != 0 {
        return Err(Refusal::Status("RS_ERROR_WRONG_AMOUNT"));
    }
    let slip = Slip::new(kind, legs, request.amount / lines).ok_or(WRONG_REQUEST)?;
    let potential = slip.potential(i64::MAX);
    let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM sb_provider_bets WHERE provider = $1 AND bet_ref = $2")
        .bind(provider)
        .bind(&request.bet_id)
        .fetch_optional(&mut *conn)
        .await?;
    if taken.is_some() {
        return Err(Refusal::Status("RS_ERROR_DUPLICATE_TRANSACTION"));
    }
    let now = now_ms();
    // Real money counts against the player's loss and wager limits, with casino rounds and house bets.
    if session.play_limits != 0 {
        match limits::enforce_play(conn, session.user_id, currency, request.amount, now).await {
            Ok(()) => {}
            Err(limits::PlayLimitRefusal::Reached(_)) => return Err(Refusal::Status("RS_ERROR_LIMIT_REACHED")),
            Err(limits::PlayLimitRefusal::Db(e)) => return Err(Refusal::Db(e)),
        }
    }
    let system = match kind {
        BetKind::System(s) => Some(s.name()),
        _ => None,
    };
    let bet_id: i64 = sqlx::query_scalar(
        "INSERT INTO sb_provider_bets (provider, bet_ref, user_id, currency, kind, system, stake_per_line, lines, stake, potential, status, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', $11) RETURNING id",
    )
    .bind(provider)
    .bind(&request.bet_id)
    .bind(session.user_id)
    .bind(currency.code())
    .bind(&request.kind)
    .bind(system)
    .bind(slip.stake_per_line)
    .bind(lines)
    .bind(request.amount)
    .bind(potential)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    for (position, (s, leg)) in selections.iter().zip(&slip.legs).enumerate() {
        sqlx::query(
            "INSERT INTO sb_provider_bet_legs (bet_id, position, selection_ref, event, market, selection, odds) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(bet_id)
        .bind(i64::try_from(position).unwrap_or(0))
        .bind(&s.id)
        .bind(&s.event)
        .bind(&s.market)
        .bind(&s.name)
        .bind(i64::try_from(leg.odds.scaled()).unwrap_or(0))
        .execute(&mut *conn)
        .await?;
    }
    let money = BetMoney::provider(provider, bet_id, &request.bet_id, session.user_id, currency);
    wallet::reserve_stake(conn, &money, PlayerAccount::Main, request.amount).await?;
    Ok((bet_id, "open"))
}

/// The player's bet `bet_ref` at `provider`: another player's is as unknown as a missing one.
async fn own_bet(
    conn: &mut AnyConnection,
    provider: &str,
    bet_ref: &str,
    session: &Session,
) -> Result<ProviderBet, Refusal> {
    let bet: Option<ProviderBet> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PROVIDER_BET_COLUMNS} FROM sb_provider_bets WHERE provider = $1 AND bet_ref = $2 AND user_id = $3"
    )))
    .bind(provider)
    .bind(bet_ref)
    .bind(session.user_id)
    .fetch_optional(&mut *conn)
    .await?;
    bet.ok_or(Refusal::Status("RS_ERROR_TRANSACTION_DOES_NOT_EXIST"))
}

const SETTLED: [&str; 3] = ["won", "lost", "void"];

async fn settle(
    conn: &mut AnyConnection,
    provider: &str,
    request: &SettleRequest,
    session: &Session,
    resettle: bool,
) -> Result<(i64, &'static str), Refusal> {
    let bet = own_bet(conn, provider, &request.bet_id, session).await?;
    let applies = if resettle { SETTLED.contains(&bet.status.as_str()) } else { bet.status == "open" };
    if !applies {
        return Err(Refusal::Status("RS_ERROR_BET_STATE"));
    }
    if request.amount < 0 || request.amount > bet.potential {
        return Err(Refusal::Status("RS_ERROR_WRONG_AMOUNT"));
    }
    let legs = legs_of(conn, bet.id).await?;
    // The legs' results as they stand, then the call's.
    let mut outcomes: Vec<Option<Outcome>> =
        legs.iter().map(|l| l.result.as_deref().and_then(|r| outcome(r, l.dead_heat.as_deref()))).collect();
    for (i, given) in request.selections.iter().enumerate() {
        let position = legs.iter().position(|l| l.selection_ref == given.id);
        let duplicate = request.selections[..i].iter().any(|o| o.id == given.id);
        let parsed = outcome(&given.result, given.dead_heat.as_deref());
        match (position, parsed) {
            (Some(p), Some(o)) if !duplicate => outcomes[p] = Some(o),
            _ => return Err(WRONG_REQUEST),
        }
    }
    let slip_legs: Option<Vec<Leg>> = legs
        .iter()
        .zip(&outcomes)
        .map(|(l, o)| Some(Leg { odds: Odds::from_scaled(u64::try_from(l.odds).ok()?).ok()?, outcome: *o }))
        .collect();
    let kind = bet_kind(&bet.kind, bet.system.as_deref());
    let slip = kind
        .zip(slip_legs)
        .and_then(|(kind, legs)| Slip::new(kind, legs, bet.stake_per_line))
        .ok_or(Refusal::Status("RS_ERROR_UNKNOWN"))?;
    // The results must decide the bet: all known, or lost legs that leave no line alive.
    let expected = match slip.settle(i64::MAX) {
        Some(returns) => returns,
        None if slip.lost() => 0,
        None => return Err(WRONG_REQUEST),
    };
    if expected != request.amount {
        tracing::warn!(
            provider,
            bet = %bet.bet_ref,
            paid = request.amount,
            expected,
            "a sportsbook provider's payout differs from the house's figure for its results"
        );
    }
    let delta = request.amount - bet.payout;
    let mut version = bet.settle_version;
    if delta != 0 {
        version += 1;
        let kind = if delta > 0 { "sportsbook_payout" } else { "sportsbook_clawback" };
        wallet::pay(conn, &bet.money()?, version, delta, 0, kind).await?;
    }
    for (given, leg) in
        request.selections.iter().filter_map(|g| Some((g, legs.iter().find(|l| l.selection_ref == g.id)?)))
    {
        sqlx::query("UPDATE sb_provider_bet_legs SET result = $1, dead_heat = $2 WHERE id = $3")
            .bind(&given.result)
            .bind(given.dead_heat.as_deref().map(str::trim))
            .bind(leg.id)
            .execute(&mut *conn)
            .await?;
    }
    let all_void = outcomes.iter().all(|o| *o == Some(Outcome::VOID));
    let status = if request.amount == 0 {
        "lost"
    } else if all_void {
        "void"
    } else {
        "won"
    };
    sqlx::query(
        "UPDATE sb_provider_bets SET status = $1, payout = $2, expected_payout = $3, settle_version = $4, settled_at = $5 WHERE id = $6",
    )
    .bind(status)
    .bind(request.amount)
    .bind(expected)
    .bind(version)
    .bind(now_ms())
    .bind(bet.id)
    .execute(&mut *conn)
    .await?;
    Ok((bet.id, status))
}

async fn rollback(
    conn: &mut AnyConnection,
    provider: &str,
    request: &BetRequest,
    session: &Session,
) -> Result<(i64, &'static str), Refusal> {
    let bet = own_bet(conn, provider, &request.bet_id, session).await?;
    if !SETTLED.contains(&bet.status.as_str()) {
        return Err(Refusal::Status("RS_ERROR_BET_STATE"));
    }
    let mut version = bet.settle_version;
    if bet.payout != 0 {
        version += 1;
        wallet::rollback(conn, &bet.money()?, version, bet.payout, 0).await?;
    }
    sqlx::query("UPDATE sb_provider_bet_legs SET result = NULL, dead_heat = NULL WHERE bet_id = $1")
        .bind(bet.id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "UPDATE sb_provider_bets SET status = 'open', payout = 0, expected_payout = NULL, settle_version = $1, settled_at = NULL WHERE id = $2",
    )
    .bind(version)
    .bind(bet.id)
    .execute(&mut *conn)
    .await?;
    Ok((bet.id, "open"))
}

async fn cancel(
    conn: &mut AnyConnection,
    provider: &str,
    request: &BetRequest,
    session: &Session,
) -> Result<(i64, &'static str), Refusal> {
    let bet = own_bet(conn, provider, &request.bet_id, session).await?;
    if bet.status != "open" {
        return Err(Refusal::Status("RS_ERROR_BET_STATE"));
    }
    wallet::cancel(conn, &bet.money()?, PlayerAccount::Main, bet.stake, bet.payout).await?;
    sqlx::query("UPDATE sb_provider_bets SET status = 'cancelled', settled_at = $1 WHERE id = $2")
        .bind(now_ms())
        .bind(bet.id)
        .execute(&mut *conn)
        .await?;
    Ok((bet.id, "cancelled"))
}

// ---------------------------------------------------------------------------------------------
// The player's side: launching a provider's frame, and the provider bets' history.

pub fn register(api: &mut Registry) {
    api.write(
        "sportsbook.launch",
        "Opens an external sportsbook provider's frame (provider): its address and the launch token its wallet calls carry.",
        launch,
    );
    api.read(
        "sportsbook.getProviderBets",
        "The player's bets at external sportsbook providers, newest first (status open, settled or all; provider; offset, count).",
        provider_bets,
    );
    api.document(document);
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct LaunchInput {
    /// The provider's name (CROUPIER_SPORTSBOOK_PROVIDERS): lower-case letters, digits and -.
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(min = 1, max = 40), regex(pattern = r"^[a-z0-9-]{1,40}$"))]
    pub provider: Option<String>,
}

impl Input for LaunchInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.provider.as_deref() {
            None => errors.add("provider", FieldCode::Required),
            Some(p) if !provider_name_ok(p) => errors.add("provider", FieldCode::Invalid),
            Some(_) => {}
        }
    }
}

/// A provider's name as `CROUPIER_SPORTSBOOK_PROVIDERS` allows it: 1 to 40 lower-case letters,
/// digits and -.
fn provider_name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 40
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ProviderLaunch {
    pub provider: String,
    /// The frame's address, with the token in it.
    pub url: String,
    /// The launch token the provider's wallet calls carry.
    pub token: String,
    pub currency: String,
    /// Unix seconds: the token's end for placing bets.
    pub expires_at: i64,
    /// Seconds from this answer to the token's end: a client relaunches the frame before it by
    /// its own clock, which may not agree with the server's `expires_at`.
    pub expires_in: i64,
}

async fn launch(ctx: Ctx, user: AuthUser, input: LaunchInput) -> Result<ProviderLaunch, ApiError> {
    let name = input.provider.unwrap_or_default();
    let provider = ctx
        .state
        .config()
        .sportsbook_providers
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| ApiError::field("provider", FieldCode::NotFound))?;
    let player = store::load(ctx.state.db(), user.id).await?;
    store::refuse_unless_active(&player)?;
    if let Some(exclusion) = Exclusion::in_force(player.blocked_until, player.blocked_kind.as_deref(), now_ms()) {
        return Err(exclusion.error());
    }
    let currency = player.currency.as_deref().and_then(Currency::parse).ok_or_else(|| {
        ApiError::new(ErrorType::UserNeedProfileDataException).with_data("missing", json!(["currency"]))
    })?;
    let token = base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, rand::random::<[u8; 32]>());
    let now = now_ms();
    sqlx::query(
        "INSERT INTO sb_provider_sessions (token_hash, user_id, provider, currency, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(token_hash(&token))
    .bind(user.id)
    .bind(&provider.name)
    .bind(currency.code())
    .bind(now)
    .bind(now + SESSION_TTL_MS)
    .execute(ctx.state.db().pool())
    .await?;
    let url = provider
        .launch_url
        .replace("{token}", &token)
        .replace("{currency}", currency.code())
        .replace("{locale}", ctx.locale.code());
    Ok(ProviderLaunch {
        provider: provider.name.clone(),
        url,
        token,
        currency: currency.code().to_owned(),
        expires_at: (now + SESSION_TTL_MS) / 1000,
        expires_in: SESSION_TTL_MS / 1000,
    })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ProviderBetsQuery {
    /// open, settled or all (default).
    #[serde(default)]
    pub status: Option<String>,
    /// Only this provider's bets (a name as `sportsbook.getSports` lists it); every provider's
    /// when absent.
    #[serde(default)]
    #[schemars(length(min = 1, max = 40), regex(pattern = r"^[a-z0-9-]{1,40}$"))]
    pub provider: Option<String>,
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
}

impl Input for ProviderBetsQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if !matches!(self.status.as_deref(), None | Some("open" | "settled" | "all")) {
            errors.add("status", FieldCode::Unsupported);
        }
        if self.provider.as_deref().is_some_and(|p| !provider_name_ok(p)) {
            errors.add("provider", FieldCode::Invalid);
        }
        crate::features::winners::page_checks(self.offset, self.count, 100, errors);
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProviderSelectionView {
    /// The provider's selection id.
    pub id: String,
    pub event: String,
    pub market: String,
    pub selection: String,
    /// The price taken, decimal ("2.50").
    pub odds: String,
    /// open, won, lost, void, half_won or half_lost.
    pub result: String,
    /// A dead heat's factor ("1/2"), when there was one.
    pub dead_heat: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ProviderBetView {
    pub provider: String,
    /// The provider's bet id.
    pub bet_id: String,
    /// single, accumulator or system.
    pub kind: String,
    pub system: Option<String>,
    pub stake: MoneyView,
    pub potential: MoneyView,
    pub payout: MoneyView,
    /// open, won, lost, void or cancelled.
    pub status: String,
    /// Unix seconds.
    pub created_at: i64,
    pub settled_at: Option<i64>,
    pub selections: Vec<ProviderSelectionView>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ProviderBets {
    pub total: i64,
    pub items: Vec<ProviderBetView>,
}

async fn provider_bets(ctx: Ctx, user: AuthUser, query: ProviderBetsQuery) -> Result<ProviderBets, ApiError> {
    let status = super::bets::status_filter(query.status.as_deref());
    let (provider, provider_filter) = match query.provider {
        Some(p) => (p, "AND provider = $2"),
        None => (String::new(), "AND $2 = ''"),
    };
    let filter = format!("{status} {provider_filter}");
    let mut conn = ctx.state.db().pool().acquire().await?;
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM sb_provider_bets WHERE user_id = $1 {filter}"
    )))
    .bind(user.id)
    .bind(&provider)
    .fetch_one(&mut *conn)
    .await?;
    let rows: Vec<ProviderBet> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PROVIDER_BET_COLUMNS} FROM sb_provider_bets WHERE user_id = $1 {filter} ORDER BY id DESC LIMIT $3 OFFSET $4"
    )))
    .bind(user.id)
    .bind(&provider)
    .bind(query.count.unwrap_or(20))
    .bind(query.offset.unwrap_or(0))
    .fetch_all(&mut *conn)
    .await?;
    let ids: Vec<i64> = rows.iter().map(|bet| bet.id).collect();
    let mut selections = selections_of_bets(&mut conn, &ids).await?;
    let items = rows
        .into_iter()
        .map(|bet| {
            let amount = |m: i64| MoneyView::of(m, &bet.currency);
            ProviderBetView {
                stake: amount(bet.stake),
                potential: amount(bet.potential),
                payout: amount(bet.payout),
                created_at: bet.created_at / 1000,
                settled_at: bet.settled_at.map(|t| t / 1000),
                selections: selections.remove(&bet.id).unwrap_or_default(),
                provider: bet.provider,
                bet_id: bet.bet_ref,
                kind: bet.kind,
                system: bet.system,
                status: bet.status,
            }
        })
        .collect();
    Ok(ProviderBets { total, items })
}

// ---------------------------------------------------------------------------------------------
// The operators' side: `GET /admin/sportsbook/provider-bets` (`super::admin`), read-only.

/// The most provider bets one operator listing answers.
pub const ADMIN_MAX_COUNT: i64 = 500;

/// The operators' listing's filters: every one optional.
#[derive(Debug, Clone, Default)]
pub struct AdminBetsFilter {
    pub provider: Option<String>,
    pub user_id: Option<i64>,
    /// open, settled (every status but open), won, lost, void, cancelled or all (default).
    pub status: Option<String>,
    pub offset: Option<i64>,
    /// 1 to [`ADMIN_MAX_COUNT`] (default 50).
    pub count: Option<i64>,
}

impl AdminBetsFilter {
    fn check(&self) -> Result<(), ApiError> {
        let mut errors = FieldErrors::default();
        if self.provider.as_deref().is_some_and(|p| !provider_name_ok(p)) {
            errors.add("provider", FieldCode::Invalid);
        }
        if self.user_id.is_some_and(|id| id < 1) {
            errors.add("user_id", FieldCode::Invalid);
        }
        if !matches!(
            self.status.as_deref(),
            None | Some("open" | "settled" | "won" | "lost" | "void" | "cancelled" | "all")
        ) {
            errors.add("status", FieldCode::Unsupported);
        }
        crate::features::winners::page_checks(self.offset, self.count, ADMIN_MAX_COUNT, &mut errors);
        errors.into_result()
    }
}

/// A provider bet as the operators see it: amounts in minor units, times in unix seconds.
#[derive(Debug, Clone, Serialize)]
pub struct AdminProviderBet {
    /// The operator's id of the bet.
    pub id: i64,
    pub user_id: i64,
    pub provider: String,
    /// The provider's bet id.
    pub bet_id: String,
    pub kind: String,
    pub system: Option<String>,
    pub currency: String,
    pub stake: i64,
    pub potential: i64,
    /// What the bet was paid (the provider's figure).
    pub payout: i64,
    /// The operator's own figure from the recorded results, for reconciliation.
    pub expected_payout: Option<i64>,
    pub status: String,
    pub created_at: i64,
    pub settled_at: Option<i64>,
    pub selections: Vec<ProviderSelectionView>,
}

fn odds_text(scaled: i64) -> String {
    Odds::from_scaled(u64::try_from(scaled).unwrap_or(0)).map(|o| o.to_string()).unwrap_or_default()
}

/// Provider bets newest first with the filter's conditions: `{items, total}`.
pub async fn admin_bets(state: &AppState, filter: &AdminBetsFilter) -> Result<Value, ApiError> {
    filter.check()?;
    let mut conditions: Vec<String> = vec!["1 = 1".into()];
    let mut next = 1;
    if filter.provider.is_some() {
        conditions.push(format!("provider = ${next}"));
        next += 1;
    }
    if filter.user_id.is_some() {
        conditions.push(format!("user_id = ${next}"));
        next += 1;
    }
    match filter.status.as_deref() {
        None | Some("all") => {}
        Some("open") => conditions.push("status = 'open'".into()),
        Some("settled") => conditions.push("status <> 'open'".into()),
        // Checked above: one of the statuses, a constant.
        Some(status) => conditions.push(format!("status = '{status}'")),
    }
    let clause = conditions.join(" AND ");
    let mut conn = state.db().pool().acquire().await?;
    let mut count = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM sb_provider_bets WHERE {clause}"
    )));
    let mut list = sqlx::query_as::<_, ProviderBet>(sqlx::AssertSqlSafe(format!(
        "SELECT {PROVIDER_BET_COLUMNS} FROM sb_provider_bets WHERE {clause} ORDER BY id DESC LIMIT ${next} OFFSET ${}",
        next + 1
    )));
    if let Some(provider) = &filter.provider {
        count = count.bind(provider.clone());
        list = list.bind(provider.clone());
    }
    if let Some(user_id) = filter.user_id {
        count = count.bind(user_id);
        list = list.bind(user_id);
    }
    let total = count.fetch_one(&mut *conn).await?;
    let rows = list.bind(filter.count.unwrap_or(50)).bind(filter.offset.unwrap_or(0)).fetch_all(&mut *conn).await?;
    let ids: Vec<i64> = rows.iter().map(|bet| bet.id).collect();
    let mut selections = selections_of_bets(&mut conn, &ids).await?;
    let mut items = Vec::with_capacity(rows.len());
    for bet in rows {
        let selections = selections.remove(&bet.id).unwrap_or_default();
        items.push(AdminProviderBet {
            id: bet.id,
            user_id: bet.user_id,
            provider: bet.provider,
            bet_id: bet.bet_ref,
            kind: bet.kind,
            system: bet.system,
            currency: bet.currency,
            stake: bet.stake,
            potential: bet.potential,
            payout: bet.payout,
            expected_payout: bet.expected_payout,
            status: bet.status,
            created_at: bet.created_at / 1000,
            settled_at: bet.settled_at.map(|t| t / 1000),
            selections,
        });
    }
    Ok(json!({ "items": items, "total": total }))
}

// ---------------------------------------------------------------------------------------------
// The OpenAPI document's paths for the protocol.

/// `/provider/sportsbook/{provider}/{action}` for each action: its request and answer schemas,
/// the signature headers and the refusals (all HTTP 200 with a status).
fn document(generator: &mut SchemaGenerator) -> Vec<(String, Value)> {
    let answer = generator.subschema_for::<SbResponse>().to_value();
    let requests = [
        ("balance", generator.subschema_for::<BalanceRequest>().to_value(), "The player's main balance."),
        (
            "place",
            generator.subschema_for::<PlaceRequest>().to_value(),
            "Places a bet: the stake moves from the player's main balance (RS_ERROR_NOT_ENOUGH_MONEY, RS_ERROR_USER_DISABLED during a time-out or self-exclusion, RS_ERROR_LIMIT_REACHED over a loss or wager limit).",
        ),
        (
            "settle",
            generator.subschema_for::<SettleRequest>().to_value(),
            "Settles an open bet: the provider's payout (at most the bet's potential return, RS_ERROR_WRONG_AMOUNT) and the selections' results, which must decide the bet.",
        ),
        (
            "resettle",
            generator.subschema_for::<SettleRequest>().to_value(),
            "Settles a settled bet again: only the difference to what it was paid moves (a claw-back the balance cannot cover: RS_ERROR_NOT_ENOUGH_MONEY).",
        ),
        (
            "cancel",
            generator.subschema_for::<BetRequest>().to_value(),
            "Cancels an open bet: the stake goes back (a settled bet: RS_ERROR_BET_STATE; roll it back first).",
        ),
        (
            "rollback",
            generator.subschema_for::<BetRequest>().to_value(),
            "Undoes a settled bet's settlement: what it was paid goes back and the bet is open again.",
        ),
    ];
    let header = |name: &str, description: &str| json!({ "name": name, "in": "header", "required": true, "schema": { "type": "string" }, "description": description });
    requests
        .into_iter()
        .map(|(action, request, summary)| {
            let operation = json!({
                "operationId": format!("provider.sportsbook.{action}"),
                "summary": summary,
                "description": "Signed like the casino wallet: X-Croupier-Signature is hex HMAC-SHA256 under the provider's wallet secret of X-Croupier-Timestamp + \"POST\" + the path + the raw body; the timestamp (unix seconds) within ±30 s. Every call but balance is idempotent on transaction_uuid: a repeat with the same fields answers the first answer, with other fields RS_ERROR_DUPLICATE_TRANSACTION. Amounts are integer minor units.",
                "tags": ["provider-sportsbook"],
                "security": [{ "providerSignature": [] }],
                "parameters": [
                    { "name": "provider", "in": "path", "required": true, "schema": { "type": "string" },
                      "description": "The provider's name in CROUPIER_SPORTSBOOK_PROVIDERS." },
                    header("X-Croupier-Signature", "hex HMAC-SHA256 of timestamp + method + path + body."),
                    header("X-Croupier-Timestamp", "Unix seconds, within ±30 s of the server's clock."),
                ],
                "requestBody": { "required": true, "content": { "application/json": { "schema": request } } },
                "responses": { "200": {
                    "description": "The answer: status RS_OK, or a refusal (RS_ERROR_*); nothing moved on a refusal.",
                    "content": { "application/json": { "schema": answer.clone() } },
                }},
            });
            (format!("/provider/sportsbook/{{provider}}/{action}"), json!({ "post": operation }))
        })
        .collect()
}
