//! `bets.place`, `bets.get`, `bets.cashOut`: the bet slip, the bet history and cash-out.
//!
//! **Placement** runs in one transaction on the player's lane of the group committer: a replay
//! of the same `request_id` answers the bet it placed; the selections are read with their
//! market's state and the price now; a selection on a market that is not active (or an event
//! that is over) is refused with `MARKET_SUSPENDED`, and one whose price moved in a way the
//! player's `accept_odds` does not allow (`never`: any change; `higher`: a shorter price; `any`:
//! none) with `ODDS_CHANGED` — both name the field `selections` and carry every selection's
//! price now in `error_data.odds` (`{selection_id: "2.10"}`), so the slip can show them. The bet
//! takes the prices now. Then the limits of the player's currency (`CROUPIER_SPORTSBOOK_LIMITS`),
//! tightened by the sports' and the player's own (`super::limits`):
//! the stake per line at least the minimum, the total at most the maximum, and the potential
//! return at most the maximum payout (refused with the largest stake per line that fits, never
//! silently capped). The stake moves from the chosen balance (`funds`: main or betting_bonus) to
//! the house's sportsbook account in the same transaction (key `sportsbook:bet:{id}:stake`).
//! Before the bet is queued, the same price check runs once on the pool ([`precheck`], skipped
//! for a replay), so a slip the feed has moved past is refused without rolling back the lane's
//! batch; inside the transaction the check decides. The bet the call answers (or the replay's)
//! is read on the pool once the lane has committed.
//!
//! **Betting bonuses** (`features::bonuses::betting`): `betting_bonus_id` names the player's
//! active free bet or odds boost (`funds=betting_bonus` without it takes their active free bet).
//! Either applies to one single or accumulator; a free bet's total stake must be its amount
//! (refused `stake` INVALID with `amount`) and is drawn from the betting-bonus balance; an odds
//! boost needs main money. The bonus is marked used in the bet's transaction, and the bet keeps
//! the boost's terms for settlement. A bet placed with a betting bonus has no cash-out.
//!
//! **Cash-out** of an open bet: the offer is [`Slip::cash_out`] at the prices now with
//! `CROUPIER_SPORTSBOOK_CASH_OUT_MARGIN_BP`; a leg on a suspended market means no offer
//! (`MARKET_SUSPENDED`); an `amount` the client showed that is above the offer now is refused
//! with `ODDS_CHANGED` and the offer in `error_data.cash_out`. Paid from the house to the main
//! balance as the bet's next settlement version, and final.

use super::odds::{Odds, OddsFormat};
use super::settle::{BetKind, Leg, MAX_SELECTIONS, Slip, System};
use super::settlement::{BET_COLUMNS, BetRow, LegRow, leg_outcome, legs_of, legs_of_bets};
use crate::api::error::FieldError;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, Registry};
use crate::db::now_ms;
use crate::features::account::MoneyView;
use crate::features::bonuses::betting::{self, BetBonusKind};
use crate::features::bonuses::engine::BonusError;
use crate::ledger::{self, Account, LedgerError, PlayerAccount};
use croupier_shared::{Currency, FieldCode, Money};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub fn register(api: &mut Registry) {
    api.write(
        "bets.place",
        "Places a bet: kind single, accumulator or system (system: trixie, patent, yankee, lucky15, super_yankee, lucky31, heinz, lucky63, super_heinz, goliath, doubles, trebles or from_K), selections (comma-separated ids), odds (the prices the slip showed, comma-separated), stake (per line, major units), accept_odds (never, higher or any), funds (main or betting_bonus), betting_bonus_id (an active free bet or odds boost), request_id (idempotency key).",
        place,
    );
    api.read(
        "bets.get",
        "The player's bets, newest first (status open, settled or all; offset, count; odds_format).",
        get,
    );
    api.write(
        "bets.cashOut",
        "Cashes out an open bet (bet_id; amount: the offer the client showed) at the offer now.",
        cash_out,
    );
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PlaceInput {
    /// single, accumulator or system.
    #[serde(default)]
    #[schemars(extend("x-required" = true))]
    pub kind: Option<String>,
    /// With kind=system.
    #[serde(default)]
    pub system: Option<String>,
    /// Comma-separated selection ids, in slip order.
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(min = 1, max = 400))]
    pub selections: Option<String>,
    /// Comma-separated decimal prices the slip showed, one per selection.
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(min = 1, max = 400))]
    pub odds: Option<String>,
    /// Stake per line in major units, e.g. 2.50.
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(min = 1, max = 20))]
    pub stake: Option<String>,
    /// never (default), higher or any.
    #[serde(default)]
    pub accept_odds: Option<String>,
    /// main (default) or betting_bonus.
    #[serde(default)]
    pub funds: Option<String>,
    /// The player's active betting bonus (free bet or odds boost) this bet uses.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub betting_bonus_id: Option<i64>,
    /// The client's id of this placement (1 to 64 of A-Z a-z 0-9 _ -): a retry places nothing twice.
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(min = 1, max = 64), regex(pattern = r"^[A-Za-z0-9_-]{1,64}$"))]
    pub request_id: Option<String>,
}

struct Parsed {
    kind: BetKind,
    selections: Vec<i64>,
    odds: Vec<Odds>,
    accept: Accept,
    funds: PlayerAccount,
    betting_bonus_id: Option<i64>,
    request_id: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Accept {
    Never,
    Higher,
    Any,
}

impl PlaceInput {
    fn kind(&self) -> Option<BetKind> {
        match self.kind.as_deref()? {
            "single" => Some(BetKind::Single),
            "accumulator" => Some(BetKind::Accumulator),
            "system" => System::parse(self.system.as_deref()?).map(BetKind::System),
            _ => None,
        }
    }

    fn selection_ids(&self) -> Option<Vec<i64>> {
        let ids: Option<Vec<i64>> =
            self.selections.as_deref()?.split(',').map(|s| s.trim().parse::<i64>().ok().filter(|id| *id > 0)).collect();
        ids.filter(|ids| !ids.is_empty() && ids.len() <= MAX_SELECTIONS)
    }

    fn prices(&self) -> Option<Vec<Odds>> {
        self.odds.as_deref()?.split(',').map(|o| Odds::decimal(o.trim()).ok()).collect()
    }

    fn parsed(&self) -> Option<Parsed> {
        Some(Parsed {
            kind: self.kind()?,
            selections: self.selection_ids()?,
            odds: self.prices()?,
            accept: match self.accept_odds.as_deref().unwrap_or("never") {
                "never" => Accept::Never,
                "higher" => Accept::Higher,
                "any" => Accept::Any,
                _ => return None,
            },
            funds: match self.funds.as_deref().unwrap_or("main") {
                "main" => PlayerAccount::Main,
                "betting_bonus" => PlayerAccount::BettingBonus,
                _ => return None,
            },
            betting_bonus_id: self.betting_bonus_id,
            request_id: self.request_id.clone()?,
        })
    }
}

impl Input for PlaceInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match (self.kind.as_deref(), self.kind()) {
            (None, _) => errors.add("kind", FieldCode::Required),
            (Some("system"), None) => errors.add("system", FieldCode::Unsupported),
            (_, None) => errors.add("kind", FieldCode::Unsupported),
            _ => {}
        }
        let ids = self.selection_ids();
        match (&self.selections, &ids) {
            (None, _) => errors.add("selections", FieldCode::Required),
            (Some(_), None) => errors.add("selections", FieldCode::Invalid),
            (Some(_), Some(ids)) => {
                let mut sorted = ids.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != ids.len() {
                    errors.add("selections", FieldCode::Duplicate);
                } else if let Some(kind) = self.kind()
                    && kind.lines(ids.len()).is_none()
                {
                    errors.add("selections", FieldCode::Invalid);
                }
            }
        }
        match (&self.odds, self.prices()) {
            (None, _) => errors.add("odds", FieldCode::Required),
            (Some(_), None) => errors.add("odds", FieldCode::Invalid),
            (Some(_), Some(odds)) if ids.as_ref().is_some_and(|ids| ids.len() != odds.len()) => {
                errors.add("odds", FieldCode::Invalid);
            }
            _ => {}
        }
        if self.stake.is_none() {
            errors.add("stake", FieldCode::Required);
        }
        if !matches!(self.accept_odds.as_deref(), None | Some("never" | "higher" | "any")) {
            errors.add("accept_odds", FieldCode::Unsupported);
        }
        if !matches!(self.funds.as_deref(), None | Some("main" | "betting_bonus")) {
            errors.add("funds", FieldCode::Unsupported);
        }
        if self.betting_bonus_id.is_some_and(|id| id < 1) {
            errors.add("betting_bonus_id", FieldCode::Invalid);
        }
        match self.request_id.as_deref() {
            None => errors.add("request_id", FieldCode::Required),
            Some(r)
                if r.is_empty()
                    || r.len() > 64
                    || !r.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') =>
            {
                errors.add("request_id", FieldCode::Invalid);
            }
            Some(_) => {}
        }
    }
}

/// A selection as placement reads it.
#[derive(sqlx::FromRow)]
struct Offered {
    id: i64,
    market_id: i64,
    event_id: i64,
    odds: Option<i64>,
    market_state: String,
    event_status: String,
    /// The event's sport, whose limits apply (`super::limits::effective`).
    sport: String,
}

/// What placement needs of the player, read after locking them: their currency (their account's,
/// or the site's default before their first movement) and whether they set loss or wager limits.
#[derive(sqlx::FromRow)]
struct Bettor {
    currency: Option<String>,
    play_limits: i64,
}

async fn bettor(conn: &mut sqlx::AnyConnection, ctx: &Ctx, user_id: i64) -> Result<(Currency, bool), ApiError> {
    let row: Option<Bettor> = sqlx::query_as("SELECT currency, play_limits FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?;
    let currency = row.as_ref().and_then(|r| r.currency.as_deref()).and_then(Currency::parse);
    Ok((currency.unwrap_or(ctx.state.config().default_currency), row.is_some_and(|r| r.play_limits != 0)))
}

fn odds_map(pairs: impl Iterator<Item = (i64, Option<i64>)>) -> Value {
    let mut map = Map::new();
    for (id, odds) in pairs {
        let shown =
            odds.and_then(|o| Odds::from_scaled(u64::try_from(o).ok()?).ok()).map(|o| Value::String(o.to_string()));
        map.insert(id.to_string(), shown.unwrap_or(Value::Null));
    }
    Value::Object(map)
}

/// The slip's selections with their market's state and the price now, checked: all found, one
/// per event, every market open, every price acceptable under the player's `accept_odds`. Gives
/// the selections (with their events' sports) and the legs at the prices now. Read-only:
/// [`place`] runs it once on the pool before queuing the bet, so a slip the feed has moved past is
/// refused without costing the lane's batch a rollback, and again inside the bet's transaction,
/// where it decides.
async fn priced(conn: &mut sqlx::AnyConnection, p: &Parsed) -> Result<(Vec<Offered>, Vec<Leg>), ApiError> {
    // One statement for the whole slip (at most MAX_SELECTIONS ids, all integers), in the slip's order.
    let marks: Vec<String> = (1..=p.selections.len()).map(|i| format!("${i}")).collect();
    let mut query = sqlx::query_as::<_, Offered>(sqlx::AssertSqlSafe(format!(
        "SELECT s.id, s.market_id, m.event_id, s.odds, m.state AS market_state, e.status AS event_status, e.sport \
         FROM sb_selections s JOIN sb_markets m ON m.id = s.market_id JOIN sb_events e ON e.id = m.event_id WHERE s.id IN ({})",
        marks.join(", ")
    )));
    for id in &p.selections {
        query = query.bind(id);
    }
    let mut found = query.fetch_all(&mut *conn).await?;
    let mut offered = Vec::with_capacity(p.selections.len());
    for id in &p.selections {
        let at =
            found.iter().position(|o| o.id == *id).ok_or_else(|| ApiError::field("selections", FieldCode::NotFound))?;
        offered.push(found.swap_remove(at));
    }
    let mut events: Vec<i64> = offered.iter().map(|o| o.event_id).collect();
    events.sort_unstable();
    events.dedup();
    if events.len() != offered.len() {
        // Two legs of one event are related: their prices do not multiply.
        return Err(ApiError::field("selections", FieldCode::Duplicate));
    }
    let now_odds = || odds_map(offered.iter().map(|o| (o.id, o.odds)));
    let open = |o: &Offered| {
        o.market_state == "active" && matches!(o.event_status.as_str(), "scheduled" | "live") && o.odds.is_some()
    };
    if !offered.iter().all(open) {
        return Err(ApiError::field("selections", FieldCode::MarketSuspended).with_data("odds", now_odds()));
    }
    let mut legs = Vec::with_capacity(offered.len());
    for (o, shown) in offered.iter().zip(&p.odds) {
        let now = Odds::from_scaled(u64::try_from(o.odds.unwrap_or(0)).unwrap_or(0))
            .map_err(|_| ApiError::field("selections", FieldCode::MarketSuspended))?;
        let acceptable = match p.accept {
            Accept::Never => now == *shown,
            Accept::Higher => now >= *shown,
            Accept::Any => true,
        };
        if !acceptable {
            return Err(ApiError::field("selections", FieldCode::OddsChanged).with_data("odds", now_odds()));
        }
        legs.push(Leg { odds: now, outcome: None });
    }
    Ok((offered, legs))
}

/// The bet the player's `request_id` placed already, with its request's fingerprint.
async fn placed(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    request_id: &str,
) -> Result<Option<(i64, String)>, sqlx::Error> {
    sqlx::query_as("SELECT id, fingerprint FROM sb_bets WHERE user_id = $1 AND request_key = $2")
        .bind(user_id)
        .bind(request_id)
        .fetch_optional(conn)
        .await
}

/// The pre-check outside the lane: a player in a time-out or self-exclusion, or a slip whose
/// selections [`priced`] refuses now, is answered without queuing the bet — unless its
/// `request_id` has placed a bet already, whose replay must answer that bet whatever has
/// happened since. The exclusion is decided here only, on the pool, as for casino rounds
/// (`protection::refuse_if_excluded`: the player was signed out when it started, so the window
/// between this read and the lane is a stale tab at most); the prices again in the lane. Gives
/// the bet's stake limits ([`Bounds`]) for the lane, none for a replay.
async fn precheck(ctx: &Ctx, user_id: i64, p: &Parsed) -> Result<Option<Bounds>, ApiError> {
    let mut conn = ctx.state.db().pool().acquire().await?;
    if placed(&mut conn, user_id, &p.request_id).await?.is_some() {
        return Ok(None);
    }
    crate::features::protection::guard(&mut conn, user_id).await?;
    let (offered, _) = priced(&mut conn, p).await?;
    let (currency, _) = bettor(&mut conn, ctx, user_id).await?;
    Ok(Some(Bounds::read(&mut conn, ctx, user_id, currency, &offered).await?))
}

/// The stake limits a bet is checked against: the tightest of its currency's, its sports' and
/// the player's (`super::limits`). They are operator settings, so they are read in the
/// pre-check on the pool rather than on the lane (issue 23: two statements fewer on the one
/// writer per bet): a bet whose check began before an operator's change is taken as placed
/// before it. The lane reads them again only if the player's currency differs from the
/// pre-check's.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    currency: Currency,
    min_stake: i64,
    max_stake: i64,
    max_payout: i64,
}

impl Bounds {
    async fn read(
        conn: &mut sqlx::AnyConnection,
        ctx: &Ctx,
        user_id: i64,
        currency: Currency,
        offered: &[Offered],
    ) -> Result<Bounds, ApiError> {
        let mut sports: Vec<&str> = offered.iter().map(|o| o.sport.as_str()).collect();
        sports.sort_unstable();
        sports.dedup();
        let currency_limits = ctx.state.config().sportsbook.limits_of(currency);
        let (min_stake, max_stake, max_payout) =
            super::limits::effective(conn, currency_limits, user_id, currency, &sports).await?;
        Ok(Bounds { currency, min_stake, max_stake, max_payout })
    }
}

async fn place(ctx: Ctx, user: AuthUser, input: PlaceInput) -> Result<Bet, ApiError> {
    let p = input.parsed().ok_or_else(|| ApiError::field("selections", FieldCode::Invalid))?;
    let user_id = user.id;
    let stake_text = input.stake.clone().unwrap_or_default();
    let fingerprint = format!(
        "{}|{}|{}|{}|{}|{}",
        input.kind.as_deref().unwrap_or(""),
        input.system.as_deref().unwrap_or(""),
        input.selections.as_deref().unwrap_or(""),
        stake_text,
        input.funds.as_deref().unwrap_or("main"),
        input.betting_bonus_id.map(|id| id.to_string()).unwrap_or_default()
    );
    let bounds = precheck(&ctx, user_id, &p).await?;
    let ctx2 = ctx.clone();
    let p = std::sync::Arc::new(p);
    let bet_id = ctx
        .state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let (ctx, p, stake_text, fingerprint) =
                    (ctx2.clone(), p.clone(), stake_text.clone(), fingerprint.clone());
                Box::pin(async move { place_in(conn, &ctx, user_id, &p, &stake_text, &fingerprint, bounds).await })
            }),
        )
        .await?;
    // The answer is read once the lane has committed, on the pool: the lane (one writer for every
    // player) runs only what decides and moves money (issue 23: two statements fewer per bet).
    let mut conn = ctx.state.db().pool().acquire().await?;
    bet_of(&mut conn, user_id, bet_id, ctx.state.config().sportsbook.cash_out_margin_bp, OddsFormat::Decimal).await
}

async fn place_in(
    conn: &mut sqlx::AnyConnection,
    ctx: &Ctx,
    user_id: i64,
    p: &Parsed,
    stake_text: &str,
    fingerprint: &str,
    bounds: Option<Bounds>,
) -> Result<i64, ApiError> {
    ctx.state.db().lock_user(conn, user_id).await?;
    let replay = placed(conn, user_id, &p.request_id).await?;
    if let Some((id, first)) = replay {
        if first != fingerprint {
            return Err(ApiError::field("request_id", FieldCode::Taken));
        }
        return Ok(id);
    }
    let (currency, has_limits) = bettor(conn, ctx, user_id).await?;
    let stake = Money::parse_major(stake_text.trim(), currency)
        .ok()
        .map(Money::minor)
        .filter(|m| *m > 0)
        .ok_or_else(|| ApiError::field("stake", FieldCode::Invalid))?;
    let (offered, legs) = priced(conn, p).await?;
    let Bounds { min_stake, max_stake, max_payout, .. } = match bounds {
        Some(b) if b.currency == currency => b,
        _ => Bounds::read(conn, ctx, user_id, currency, &offered).await?,
    };
    let slip = Slip::new(p.kind, legs, stake).ok_or_else(|| ApiError::field("selections", FieldCode::Invalid))?;
    let lines = i64::try_from(slip.lines.len()).unwrap_or(i64::MAX);
    let total = slip.total_stake().ok_or_else(|| ApiError::field("stake", FieldCode::Invalid))?;
    let money = |m: i64| Money::from_minor(m, currency).to_decimal_string();
    if stake < min_stake {
        return Err(ApiError::field_with("stake", FieldCode::MinValue, vec![("min", money(min_stake))]));
    }
    if total > max_stake {
        return Err(ApiError::field_with("stake", FieldCode::MaxValue, vec![("max", money(max_stake / lines.max(1)))]));
    }
    let potential = slip.potential(i64::MAX);
    if potential > max_payout {
        // The largest stake per line whose return fits (the return is linear in the stake).
        let fits =
            i64::try_from(i128::from(max_payout) * i128::from(stake) / i128::from(potential.max(1))).unwrap_or(0);
        return Err(ApiError::field_with("stake", FieldCode::MaxValue, vec![("max", money(fits))])
            .with_data("max_payout", money(max_payout)));
    }
    let (kind, system) = match p.kind {
        BetKind::Single => ("single", None),
        BetKind::Accumulator => ("accumulator", None),
        BetKind::System(s) => ("system", Some(s.name())),
    };
    let bonus = betting::for_bet(conn, user_id, p.betting_bonus_id, p.funds == PlayerAccount::BettingBonus, currency)
        .await
        .map_err(|e| match e {
            BonusError::NotFound => ApiError::field("betting_bonus_id", FieldCode::NotFound),
            BonusError::WrongState => ApiError::field("betting_bonus_id", FieldCode::Invalid),
            BonusError::Db(e) => ApiError::from(e),
            other => ApiError::internal(anyhow::anyhow!(other)),
        })?;
    let mut funds_account = p.funds;
    let (mut boost_bp, mut boost_cap) = (0, 0);
    if let Some(b) = bonus {
        if matches!(p.kind, BetKind::System(_)) {
            return Err(ApiError::field("betting_bonus_id", FieldCode::Invalid));
        }
        match b.kind {
            BetBonusKind::Freebet { amount } => {
                if total != amount {
                    return Err(ApiError::field_with("stake", FieldCode::Invalid, vec![("amount", money(amount))]));
                }
                funds_account = PlayerAccount::BettingBonus;
            }
            BetBonusKind::Boost { bp, cap } => {
                if p.funds != PlayerAccount::Main {
                    return Err(ApiError::field("funds", FieldCode::Invalid));
                }
                (boost_bp, boost_cap) = (bp, cap);
            }
        }
    }
    let funds = if funds_account == PlayerAccount::BettingBonus { "betting_bonus" } else { "main" };
    let now = now_ms();
    // Real money counts against the player's loss and wager limits (`limits::used_since` counts
    // sports bets with casino rounds).
    if has_limits && funds_account == PlayerAccount::Main {
        crate::features::account::limits::enforce_play(conn, user_id, currency, total, now)
            .await
            .map_err(|refusal| refusal.into_api(currency))?;
    }
    let bet_id: i64 = sqlx::query_scalar(
        "INSERT INTO sb_bets (user_id, request_key, fingerprint, kind, system, currency, funds, stake_per_line, lines, stake, potential, max_payout, status, created_at, bonus_id, boost_bp, boost_cap) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'open', $13, $14, $15, $16) RETURNING id",
    )
    .bind(user_id)
    .bind(&p.request_id)
    .bind(fingerprint)
    .bind(kind)
    .bind(system)
    .bind(currency.code())
    .bind(funds)
    .bind(stake)
    .bind(lines)
    .bind(total)
    .bind(potential)
    .bind(max_payout)
    .bind(now)
    .bind(bonus.map(|b| b.id))
    .bind(boost_bp)
    .bind(boost_cap)
    .fetch_one(&mut *conn)
    .await?;
    for (position, (o, leg)) in offered.iter().zip(&slip.legs).enumerate() {
        sqlx::query(
            "INSERT INTO sb_bet_legs (bet_id, position, selection_id, market_id, odds) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(bet_id)
        .bind(i64::try_from(position).unwrap_or(0))
        .bind(o.id)
        .bind(o.market_id)
        .bind(i64::try_from(leg.odds.scaled()).unwrap_or(0))
        .execute(&mut *conn)
        .await?;
    }
    let bet_money = super::wallet::BetMoney::house(bet_id, user_id, currency);
    match super::wallet::reserve_stake(conn, &bet_money, funds_account, total).await {
        Ok(_) => {}
        Err(LedgerError::InsufficientFunds) => {
            let balance = ledger::balance(conn, Account::Player { user_id, kind: funds_account }, currency).await?;
            return Err(ApiError::invalid(vec![FieldError {
                field: "stake".into(),
                code: FieldCode::MaxValue,
                params: vec![("max", money(balance / lines.max(1)))],
            }]));
        }
        Err(e) => return Err(e.into()),
    }
    if let Some(b) = bonus {
        betting::mark_used(conn, b.id, bet_id)
            .await
            .map_err(|_| ApiError::field("betting_bonus_id", FieldCode::Invalid))?;
    }
    Ok(bet_id)
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct BetSelection {
    pub selection_id: i64,
    pub event_id: i64,
    /// "Home v Away".
    pub event: String,
    /// The event's status: scheduled, live, finished or cancelled.
    pub event_status: String,
    /// The market's key (1x2, totals:2.5, …).
    pub market: String,
    pub selection: String,
    /// The price taken, decimal ("2.50").
    pub odds: String,
    /// The price taken in the asked format.
    pub odds_display: String,
    /// open, won, lost, void, half_won, half_lost or dead_heat.
    pub result: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Bet {
    pub id: i64,
    /// single, accumulator or system.
    pub kind: String,
    /// The system's name with kind=system.
    pub system: Option<String>,
    pub lines: i64,
    pub stake_per_line: MoneyView,
    pub stake: MoneyView,
    /// What the bet returns if every open selection wins (capped at the maximum payout).
    pub potential: MoneyView,
    /// What it has paid.
    pub payout: MoneyView,
    /// main or betting_bonus.
    pub funds: String,
    /// The betting bonus (free bet or odds boost) the bet used.
    pub betting_bonus_id: Option<i64>,
    /// An odds boost's extra winnings paid so far.
    pub boost_paid: Option<MoneyView>,
    /// open, won, lost, void or cashed_out.
    pub status: String,
    /// The cash-out offer now, for an open bet whose markets are all open; null otherwise.
    pub cash_out: Option<MoneyView>,
    /// Unix seconds.
    pub created_at: i64,
    pub settled_at: Option<i64>,
    pub selections: Vec<BetSelection>,
}

pub fn result_name(o: Option<super::settle::Outcome>) -> &'static str {
    use super::settle::{Outcome, Ratio};
    match o {
        None => "open",
        Some(o) if o == Outcome::WON => "won",
        Some(o) if o == Outcome::LOST => "lost",
        Some(o) if o == Outcome::VOID => "void",
        Some(o) if o == Outcome::HALF_WON => "half_won",
        Some(o) if o == Outcome::HALF_LOST => "half_lost",
        Some(o) if o.won && o.dead_heat != Ratio::ONE => "dead_heat",
        Some(o) if o.won => "won",
        Some(_) => "lost",
    }
}

/// The price now of each open leg (`None`: its market is not open, so no cash-out).
fn current_prices(legs: &[LegRow]) -> Vec<Option<Odds>> {
    legs.iter()
        .map(|l| {
            if leg_outcome(l).is_some() {
                return Odds::from_scaled(u64::try_from(l.odds).ok()?).ok();
            }
            if l.market_state != "active" {
                return None;
            }
            Odds::from_scaled(u64::try_from(l.current_odds?).ok()?).ok()
        })
        .collect()
}

fn to_bet(ctx_margin: u32, bet: &BetRow, legs: &[LegRow], format: OddsFormat) -> Bet {
    let amount = |m: i64| MoneyView::of(m, &bet.currency);
    let cash_out = (bet.status == "open" && !bet.has_bonus())
        .then(|| bet.slip(legs))
        .flatten()
        .and_then(|slip| slip.cash_out(&current_prices(legs), ctx_margin, bet.max_payout));
    Bet {
        id: bet.id,
        kind: bet.kind.clone(),
        system: bet.system.clone(),
        lines: if bet.stake_per_line > 0 { bet.stake / bet.stake_per_line } else { 0 },
        stake_per_line: amount(bet.stake_per_line),
        stake: amount(bet.stake),
        potential: amount(bet.potential),
        payout: amount(bet.payout),
        funds: bet.funds.clone(),
        betting_bonus_id: bet.bonus_id,
        boost_paid: (bet.boost_bp > 0).then(|| amount(bet.boost_paid)),
        status: bet.status.clone(),
        cash_out: cash_out.map(amount),
        created_at: bet.created_at / 1000,
        settled_at: bet.settled_at.map(|t| t / 1000),
        selections: legs
            .iter()
            .map(|l| {
                let odds = Odds::from_scaled(u64::try_from(l.odds).unwrap_or(0)).ok();
                BetSelection {
                    selection_id: l.selection_id,
                    event_id: l.event_id,
                    event: format!("{} v {}", l.home, l.away),
                    event_status: l.event_status.clone(),
                    market: l.market_key.clone(),
                    selection: l.selection_key.clone(),
                    odds: odds.map(|o| o.to_string()).unwrap_or_default(),
                    odds_display: odds.map(|o| o.display(format)).unwrap_or_default(),
                    result: result_name(leg_outcome(l)).to_owned(),
                }
            })
            .collect(),
    }
}

async fn bet_row(conn: &mut sqlx::AnyConnection, user_id: i64, bet_id: i64) -> Result<BetRow, ApiError> {
    let row: Option<BetRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {BET_COLUMNS} FROM sb_bets WHERE id = $1 AND user_id = $2"
    )))
    .bind(bet_id)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    row.ok_or_else(|| ApiError::field("bet_id", FieldCode::NotFound))
}

/// Bet `bet_id` as `bets.get` shows it, with the cash-out offer at `margin` (basis points).
async fn bet_of(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    bet_id: i64,
    margin: u32,
    format: OddsFormat,
) -> Result<Bet, ApiError> {
    let bet = bet_row(conn, user_id, bet_id).await?;
    let legs = legs_of(conn, bet_id).await?;
    Ok(to_bet(margin, &bet, &legs, format))
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BetsQuery {
    /// open, settled or all (default).
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
    /// decimal (default), fractional or american.
    #[serde(default)]
    pub odds_format: Option<String>,
}

impl Input for BetsQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if !matches!(self.status.as_deref(), None | Some("open" | "settled" | "all")) {
            errors.add("status", FieldCode::Unsupported);
        }
        crate::features::winners::page_checks(self.offset, self.count, 100, errors);
        if self.odds_format.as_deref().is_some_and(|f| OddsFormat::parse(f).is_none()) {
            errors.add("odds_format", FieldCode::Unsupported);
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Bets {
    pub total: i64,
    pub items: Vec<Bet>,
}

/// The SQL condition of a bet list's `status` (open, settled, else all), house and provider bets alike.
pub fn status_filter(status: Option<&str>) -> &'static str {
    match status {
        Some("open") => "AND status = 'open'",
        Some("settled") => "AND status <> 'open'",
        _ => "",
    }
}

async fn get(ctx: Ctx, user: AuthUser, query: BetsQuery) -> Result<Bets, ApiError> {
    let filter = status_filter(query.status.as_deref());
    let format = query.odds_format.as_deref().and_then(OddsFormat::parse).unwrap_or_default();
    let mut conn = ctx.state.db().pool().acquire().await?;
    let total: i64 =
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM sb_bets WHERE user_id = $1 {filter}")))
            .bind(user.id)
            .fetch_one(&mut *conn)
            .await?;
    let rows: Vec<BetRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {BET_COLUMNS} FROM sb_bets WHERE user_id = $1 {filter} ORDER BY id DESC LIMIT $2 OFFSET $3"
    )))
    .bind(user.id)
    .bind(query.count.unwrap_or(20))
    .bind(query.offset.unwrap_or(0))
    .fetch_all(&mut *conn)
    .await?;
    let margin = ctx.state.config().sportsbook.cash_out_margin_bp;
    let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
    let legs = legs_of_bets(&mut conn, &ids).await?;
    let items =
        rows.iter().map(|row| to_bet(margin, row, legs.get(&row.id).map_or(&[][..], Vec::as_slice), format)).collect();
    Ok(Bets { total, items })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CashOutInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true), range(min = 1))]
    pub bet_id: Option<i64>,
    /// The offer the client showed (major units); a lower offer now is refused.
    #[serde(default)]
    pub amount: Option<String>,
}

impl Input for CashOutInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.bet_id {
            None => errors.add("bet_id", FieldCode::Required),
            Some(id) if id < 1 => errors.add("bet_id", FieldCode::Invalid),
            Some(_) => {}
        }
    }
}

async fn cash_out(ctx: Ctx, user: AuthUser, input: CashOutInput) -> Result<Bet, ApiError> {
    let (user_id, bet_id) = (user.id, input.bet_id.unwrap_or(0));
    let margin = ctx.state.config().sportsbook.cash_out_margin_bp;
    let shown = input.amount.clone();
    let db = ctx.state.db().clone();
    ctx.state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let (db, shown) = (db.clone(), shown.clone());
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    let bet = bet_row(conn, user_id, bet_id).await?;
                    if bet.status != "open" || bet.has_bonus() {
                        // A free bet or a boosted bet has no cash-out.
                        return Err(ApiError::field("bet_id", FieldCode::Locked));
                    }
                    let legs = legs_of(conn, bet_id).await?;
                    let currency = Currency::parse(&bet.currency).ok_or_else(|| ApiError::field("bet_id", FieldCode::Invalid))?;
                    let prices = current_prices(&legs);
                    if prices.iter().any(Option::is_none) {
                        return Err(ApiError::field("bet_id", FieldCode::MarketSuspended));
                    }
                    let offer = bet
                        .slip(&legs)
                        .and_then(|slip| slip.cash_out(&prices, margin, bet.max_payout))
                        .ok_or_else(|| ApiError::field("bet_id", FieldCode::Locked))?;
                    let money = |m: i64| Money::from_minor(m, currency).to_decimal_string();
                    if let Some(text) = shown.as_deref() {
                        let asked = Money::parse_major(text.trim(), currency).map_err(|_| ApiError::field("amount", FieldCode::Invalid))?;
                        if asked.minor() > offer {
                            return Err(ApiError::field("amount", FieldCode::OddsChanged).with_data("cash_out", money(offer)));
                        }
                    }
                    let version = bet.settle_version + 1;
                    super::settlement::move_difference(conn, &bet, currency, version, offer, "sportsbook_cash_out")
                        .await?;
                    sqlx::query(
                        "UPDATE sb_bets SET status = 'cashed_out', payout = $1, settle_version = $2, settled_at = $3, dirty = 0 WHERE id = $4",
                    )
                    .bind(offer)
                    .bind(version)
                    .bind(now_ms())
                    .bind(bet_id)
                    .execute(&mut *conn)
                    .await?;
                    bet_of(conn, user_id, bet_id, margin, OddsFormat::Decimal).await
                })
            }),
        )
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slip_input_is_checked_field_by_field() {
        let input = |kind: &str, system: Option<&str>, selections: &str, odds: &str| PlaceInput {
            kind: Some(kind.into()),
            system: system.map(Into::into),
            selections: Some(selections.into()),
            odds: Some(odds.into()),
            stake: Some("1".into()),
            accept_odds: None,
            funds: None,
            betting_bonus_id: None,
            request_id: Some("r-1".into()),
        };
        let fields = |i: PlaceInput| {
            let mut errors = FieldErrors::default();
            i.validate(&mut errors);
            errors.into_result().err().map(|e| e.fields().iter().map(|f| f.field.clone()).collect::<Vec<_>>())
        };
        assert_eq!(fields(input("single", None, "5", "2.5")), None);
        assert_eq!(fields(input("accumulator", None, "5,6,7", "2.5,1.5,3")), None);
        assert_eq!(fields(input("system", Some("yankee"), "1,2,3,4", "2,2,2,2")), None);
        assert_eq!(fields(input("system", Some("yankee"), "1,2,3", "2,2,2")), Some(vec!["selections".into()]));
        assert_eq!(fields(input("system", Some("nope"), "1,2,3", "2,2,2")), Some(vec!["system".into()]));
        assert_eq!(fields(input("single", None, "5,5", "2,2")), Some(vec!["selections".into()]));
        assert_eq!(fields(input("single", None, "5", "2,2")), Some(vec!["odds".into()]));
        assert_eq!(
            fields(input("double", None, "x", "0.5")),
            Some(vec!["kind".into(), "selections".into(), "odds".into()])
        );
    }
}
