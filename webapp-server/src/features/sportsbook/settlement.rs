//! Settlement of bets: one rule for settle, resettle, rollback and cancel.
//!
//! A bet's **target** payout is computed from its legs as they stand ([`Slip::settle`]): a leg on
//! a cancelled market is void, one on a settled market has its selection's result, any other is
//! open. All legs settled: the target is the capped return. A lost leg with others still open:
//! the bet is lost now (target 0). Otherwise the bet is open (target 0). The difference between
//! the target and what the bet has been paid so far is one ledger movement between the house's
//! sportsbook account and the player's main balance, keyed `sportsbook:bet:{id}:v{n}` with `n`
//! the bet's next settlement version — so a settlement replays to nothing, a corrected result
//! moves only the difference, and a rollback takes back what was paid. A cashed-out bet is final.
//!
//! Each bet is recomputed in one transaction on its player's lane of the group committer. A
//! claw-back the player's balance cannot cover (they spent the winnings of a result later
//! corrected) is refused by the ledger, which never lets a player balance go negative: the bet
//! stays dirty and is retried on every run (and logged) until the money is there or an operator
//! steps in.
//!
//! **Betting bonuses** (`features::bonuses::betting`). A bet staked from the betting-bonus
//! balance is a free bet: its target is the returns minus the stake (never below 0) — the stake
//! is not returned, a void pays nothing — paid to main money. A bet with an odds boost also has
//! a boost target, the winnings (returns − stake) × its basis points ÷ 10,000, rounded down,
//! capped by its cap; the difference to what the boost has paid moves between the house's bonus
//! liability and main money in the same ledger transaction as the payout's, under the same
//! version key, so both replay, resettle and claw back together.

use super::odds::Odds;
use super::settle::{BetKind, Leg, Slip, System};
use super::store::parse_result;
use crate::AppState;
use crate::api::ApiError;
use crate::db::now_ms;
use crate::ledger::{Account, LedgerError, PlayerAccount};
use croupier_shared::Currency;
use sqlx::AnyConnection;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BetRow {
    pub id: i64,
    pub user_id: i64,
    pub kind: String,
    pub system: Option<String>,
    pub currency: String,
    pub funds: String,
    pub stake_per_line: i64,
    pub stake: i64,
    pub potential: i64,
    pub max_payout: i64,
    pub status: String,
    pub payout: i64,
    pub settle_version: i64,
    pub dirty: i64,
    pub created_at: i64,
    pub settled_at: Option<i64>,
    pub bonus_id: Option<i64>,
    pub boost_bp: i64,
    pub boost_cap: i64,
    pub boost_paid: i64,
}

pub const BET_COLUMNS: &str = "id, user_id, kind, system, currency, funds, stake_per_line, stake, potential, max_payout, status, payout, settle_version, dirty, created_at, settled_at, bonus_id, boost_bp, boost_cap, boost_paid";

/// A leg with what the bet page shows of it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LegRow {
    pub position: i64,
    pub selection_id: i64,
    pub odds: i64,
    pub market_id: i64,
    pub market_key: String,
    pub market_state: String,
    pub selection_key: String,
    pub current_odds: Option<i64>,
    pub result: Option<String>,
    pub event_id: i64,
    pub home: String,
    pub away: String,
    pub event_status: String,
}

const LEG_SELECT: &str = "SELECT l.bet_id, l.position, l.selection_id, l.odds, l.market_id, m.market_key, m.state AS market_state, s.selection_key, \
     s.odds AS current_odds, s.result, e.id AS event_id, e.home, e.away, e.status AS event_status \
     FROM sb_bet_legs l JOIN sb_selections s ON s.id = l.selection_id JOIN sb_markets m ON m.id = l.market_id \
     JOIN sb_events e ON e.id = m.event_id";

/// A leg with its bet's id, for reading the legs of a page of bets at once.
#[derive(sqlx::FromRow)]
struct BetLegRow {
    bet_id: i64,
    #[sqlx(flatten)]
    leg: LegRow,
}

pub async fn legs_of(conn: &mut AnyConnection, bet_id: i64) -> Result<Vec<LegRow>, sqlx::Error> {
    let rows: Vec<BetLegRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("{LEG_SELECT} WHERE l.bet_id = $1 ORDER BY l.position")))
            .bind(bet_id)
            .fetch_all(conn)
            .await?;
    Ok(rows.into_iter().map(|r| r.leg).collect())
}

/// The legs of several bets (a page of a bet list: at most 100 ids) in one statement, each bet's
/// in position order; a bet with no legs maps to an empty list.
pub async fn legs_of_bets(
    conn: &mut AnyConnection,
    bet_ids: &[i64],
) -> Result<std::collections::HashMap<i64, Vec<LegRow>>, sqlx::Error> {
    let mut legs: std::collections::HashMap<i64, Vec<LegRow>> = bet_ids.iter().map(|id| (*id, Vec::new())).collect();
    if bet_ids.is_empty() {
        return Ok(legs);
    }
    let marks: Vec<String> = (1..=bet_ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!("{LEG_SELECT} WHERE l.bet_id IN ({}) ORDER BY l.bet_id, l.position", marks.join(", "));
    let mut query = sqlx::query_as::<_, BetLegRow>(sqlx::AssertSqlSafe(sql));
    for id in bet_ids {
        query = query.bind(id);
    }
    for row in query.fetch_all(conn).await? {
        legs.entry(row.bet_id).or_default().push(row.leg);
    }
    Ok(legs)
}

impl BetRow {
    /// Placed with a betting bonus (a free bet or an odds boost), or from betting-bonus money.
    pub fn has_bonus(&self) -> bool {
        self.bonus_id.is_some() || self.funds == "betting_bonus"
    }

    /// What the player is owed for `returns` (the bet's capped return as its legs stand): all of
    /// it, or for a free bet the returns less the stake.
    pub fn player_target(&self, returns: i64) -> i64 {
        if self.funds == "betting_bonus" { (returns - self.stake).max(0) } else { returns }
    }

    /// An odds boost's extra for `returns`: the winnings × the boost, rounded down, capped.
    pub fn boost_target(&self, returns: i64) -> i64 {
        if self.boost_bp <= 0 {
            return 0;
        }
        let winnings = i128::from((returns - self.stake).max(0));
        let extra = i64::try_from(winnings * i128::from(self.boost_bp) / 10_000).unwrap_or(i64::MAX);
        extra.min(self.boost_cap.max(0))
    }

    pub fn bet_kind(&self) -> Option<BetKind> {
        match self.kind.as_str() {
            "single" => Some(BetKind::Single),
            "accumulator" => Some(BetKind::Accumulator),
            "system" => System::parse(self.system.as_deref()?).map(BetKind::System),
            _ => None,
        }
    }

    /// The bet as settlement sees it, legs as they stand now.
    pub fn slip(&self, legs: &[LegRow]) -> Option<Slip> {
        let legs: Option<Vec<Leg>> = legs
            .iter()
            .map(|l| {
                let odds = Odds::from_scaled(u64::try_from(l.odds).ok()?).ok()?;
                Some(Leg { odds, outcome: leg_outcome(l) })
            })
            .collect();
        Slip::new(self.bet_kind()?, legs?, self.stake_per_line)
    }
}

/// A leg's result: void on a cancelled market, its selection's on a settled one, else open.
pub fn leg_outcome(l: &LegRow) -> Option<super::settle::Outcome> {
    match l.market_state.as_str() {
        "cancelled" => Some(super::settle::Outcome::VOID),
        "settled" => l.result.as_deref().and_then(parse_result),
        _ => None,
    }
}

/// Recomputes every dirty bet once, in id order; answers how many were brought up to date. A bet
/// that cannot be brought up to date now (a claw-back waiting for the player's balance) is passed
/// over until the next run, so it never holds back the bets after it.
pub async fn settle_dirty(state: &AppState) -> anyhow::Result<usize> {
    let (mut done, mut after) = (0, 0_i64);
    loop {
        let dirty: Vec<(i64, i64)> =
            sqlx::query_as("SELECT id, user_id FROM sb_bets WHERE dirty > 0 AND id > $1 ORDER BY id LIMIT 500")
                .bind(after)
                .fetch_all(state.db().pool())
                .await?;
        let Some(&(last, _)) = dirty.last() else { return Ok(done) };
        after = last;
        for (bet_id, user_id) in dirty {
            match recompute(state, user_id, bet_id).await {
                Ok(true) => done += 1,
                Ok(false) => {}
                Err(e) => tracing::warn!(bet_id, error = ?e, "cannot settle a sports bet"),
            }
        }
    }
}

/// The balance a bet's returns go to: main money, always. A free bet's stake (betting-bonus
/// money) is never returned — its target is the winnings alone ([`BetRow::player_target`]) —, so
/// betting-bonus money turns into cash only as a free bet's winnings.
pub fn returns_account(bet: &BetRow) -> Account {
    Account::Player { user_id: bet.user_id, kind: PlayerAccount::Main }
}

/// One ledger transaction of `delta` between the house's sportsbook account and the bet's
/// [`returns_account`] (to the player when positive), keyed by the bet's settlement `version` so
/// a replay moves nothing twice. Settlement, resettlement, rollback and cash-out all pay this way.
pub async fn move_difference(
    conn: &mut AnyConnection,
    bet: &BetRow,
    currency: Currency,
    version: i64,
    delta: i64,
    kind: &str,
) -> Result<(), LedgerError> {
    move_settlement(conn, bet, currency, version, delta, 0, kind).await
}

/// [`move_difference`] with an odds boost's difference `boost_delta` between the house's bonus
/// liability and the same account, in the same ledger transaction.
pub async fn move_settlement(
    conn: &mut AnyConnection,
    bet: &BetRow,
    currency: Currency,
    version: i64,
    delta: i64,
    boost_delta: i64,
    kind: &str,
) -> Result<(), LedgerError> {
    super::wallet::pay(
        conn,
        &super::wallet::BetMoney::house(bet.id, bet.user_id, currency),
        version,
        delta,
        boost_delta,
        kind,
    )
    .await
}

/// Recomputes bet `bet_id` on its player's lane, under the player's lock (a cash-out on another
/// replica cannot pay the same bet meanwhile); answers whether it is now up to date.
pub async fn recompute(state: &AppState, user_id: i64, bet_id: i64) -> Result<bool, ApiError> {
    let db = state.db().clone();
    state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let db = db.clone();
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    recompute_in(conn, bet_id).await
                })
            }),
        )
        .await
}

async fn recompute_in(conn: &mut AnyConnection, bet_id: i64) -> Result<bool, ApiError> {
    let bet: Option<BetRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {BET_COLUMNS} FROM sb_bets WHERE id = $1")))
            .bind(bet_id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(bet) = bet else { return Ok(true) };
    if bet.status == "cashed_out" || bet.dirty == 0 {
        sqlx::query("UPDATE sb_bets SET dirty = 0 WHERE id = $1").bind(bet_id).execute(&mut *conn).await?;
        return Ok(true);
    }
    let legs = legs_of(conn, bet_id).await?;
    let slip = bet.slip(&legs).ok_or_else(|| ApiError::internal(anyhow::anyhow!("bet {bet_id} cannot be read")))?;
    let (target, status) = match slip.settle(bet.max_payout) {
        Some(payout) => {
            let all_void = slip.legs.iter().all(|l| l.outcome == Some(super::settle::Outcome::VOID));
            let status = if payout == 0 {
                "lost"
            } else if all_void {
                "void"
            } else {
                "won"
            };
            (payout, status)
        }
        None if slip.lost() => (0, "lost"),
        None => (0, "open"),
    };
    // `target` (the returns) decides the status; the player is owed its free-bet or boosted share.
    let (target, boost) = (bet.player_target(target), bet.boost_target(target));
    let delta = target - bet.payout;
    let boost_delta = boost - bet.boost_paid;
    let mut version = bet.settle_version;
    if delta != 0 || boost_delta != 0 {
        let currency = Currency::parse(&bet.currency)
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("bet {bet_id} has currency {}", bet.currency)))?;
        version += 1;
        let kind = if delta + boost_delta >= 0 { "sportsbook_payout" } else { "sportsbook_clawback" };
        match move_settlement(conn, &bet, currency, version, delta, boost_delta, kind).await {
            Ok(()) => {}
            Err(LedgerError::InsufficientFunds) => {
                tracing::warn!(
                    bet_id,
                    owed = -(delta + boost_delta),
                    "a resettlement's claw-back waits for the player's balance"
                );
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        }
    }
    let settled_at = (status != "open").then_some(now_ms());
    sqlx::query(
        "UPDATE sb_bets SET status = $1, payout = $2, settle_version = $3, settled_at = $4, dirty = dirty - $5, boost_paid = $6 WHERE id = $7",
    )
    .bind(status)
    .bind(target)
    .bind(version)
    .bind(settled_at)
    .bind(bet.dirty)
    .bind(boost)
    .bind(bet_id)
    .execute(&mut *conn)
    .await?;
    Ok(true)
}
